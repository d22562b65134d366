/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_topology.c - libFuzzer target: an `lstopo --of xml` export as dslc
 * reads it (hwloc's XML import, then topology_xml.c's conversion), and
 * what follows from it: a description over that node type is resolved,
 * placed, linted and rendered (the build's own check included), and a
 * daos_server.yml is linted against it.
 *
 * The input is written to a scratch file because the description names its
 * topology by path, the way operators use it. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/buf.h"
#include "compiler/base/safe.h"
#include "compiler/lint/compile.h"
#include "compiler/lint/yaml_lint.h"
#include "compiler/model/topology.h"
#include "compiler/tree/render.h"
#include "compiler/tree/selfcheck.h"

static char xml_path[256];

static const char *dsl_of(const char *path)
{
	static char text[1024];
	snprintf(text, sizeof(text),
		 "daos 2.6\n"
		 "cluster fz {\n  provider \"ofi+verbs;ofi_rxm\"\n  access_points n[1-3]\n}\n"
		 "hardware h {\n  topology \"%s\"\n  nic auto\n  nvme auto\n}\n"
		 "profile p : h {\n  reserve os 1 cores per numa\n"
		 "  engine per numa {\n    targets 2\n    helpers 1\n    scm ram 16GiB\n  }\n}\n"
		 "nodes n[1-3] : p\n",
		 path);
	return text;
}

static const char YAML[] = "name: fz\naccess_points: ['n1']\nprovider: ofi+verbs;ofi_rxm\n"
			   "engines:\n- targets: 4\n  first_core: 0\n  pinned_numa_node: 1\n"
			   "  fabric_iface: ib0\n  fabric_iface_port: 31416\n"
			   "  storage:\n  - class: ram\n    scm_mount: /mnt/daos0\n    scm_size: 16\n"
			   "  - class: nvme\n    bdev_list: ['0000:81:00.0']\n";

static int check_file(void *ctx, const rendered *f)
{
	(void)ctx;
	if (!safe_rel_path(f->rel))
		abort();
	return 0;
}

static void compile_description(void)
{
	compilation c;
	compile_text(&c, "fuzz.dsl", dsl_of(xml_path));
	if (c.parsed && !diag_count(&c.dc, SEV_ERROR)) {
		render_memo *memo = render_memo_new(&c.ar);
		selfcheck_model(&c.m, NULL, memo);
		for (size_t i = 0; i < c.m.nnodes; i++)
			if (render_node(&c.m, &c.m.nodes[i], &c.ar, memo, check_file, NULL)) {
				fprintf(stderr, "a target refused %s after a clean compilation\n", c.m.nodes[i].host);
				abort();
			}
	}
	compile_free(&c);
}

static void lint_yaml(const topology *topo)
{
	compilation c;
	arena_init(&c.ar);
	src_set_init(&c.src, &c.ar);
	diag_init(&c.dc, &c.ar, &c.src);
	uint32_t id = src_add(&c.src, "daos_server.yml", arena_strndup(&c.ar, YAML, sizeof(YAML) - 1), sizeof(YAML) - 1);
	yaml_lint_opts o = {"2.6", topo, 256, 1 << 30};
	yaml_lint_file(&c.ar, &c.dc, id, &o);
	compile_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!xml_path[0])
		snprintf(xml_path, sizeof(xml_path), "/tmp/dslc-fuzz-topology-%d.xml", (int)getpid());
	arena a;
	arena_init(&a);
	char *xml = arena_alloc(&a, size + 1);
	memcpy(xml, data, size);
	xml[size] = '\0';
	const char *why;
	const topology *topo = topo_parse_xml(&a, xml, size, &why);
	if (topo) {
		lint_yaml(topo);
		int fd = open(xml_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || write_all(fd, data, size) != 0 || close(fd) != 0)
			abort();
		compile_description();
	}
	arena_free(&a);
	return 0;
}
