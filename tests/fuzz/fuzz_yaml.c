/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_yaml.c - libFuzzer target: the linter of hand-written
 * daos_server.yml files (libyaml parse, key tables, DAOS's checks, the
 * checks DAOS misses), with and without a topology; and `dslc import` of
 * every file it accepts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/import/import.h"
#include "compiler/lint/compile.h"
#include "compiler/lint/yaml_lint.h"
#include "compiler/model/topology.h"

static const topology *topo;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static arena topo_arena;
	static int loaded;
	if (!loaded) {
		const char *why;
		arena_init(&topo_arena);
		topo = topo_load_xml(&topo_arena, "examples/hgx-b200/hgx-b200.xml", true, &why);
		loaded = 1;
	}
	compilation c;
	compile_init(&c);
	char *text = arena_alloc(&c.ar, size + 1);
	memcpy(text, data, size);
	/* the first byte picks the release and whether the topology is used */
	const char *release = size && (data[0] & 1) ? "2.8" : size && (data[0] & 2) ? "2.6" : NULL;
	uint32_t id = src_add(&c.src, "daos_server.yml", text, size);
	yaml_lint_opts o = {release, size && (data[0] & 4) ? topo : NULL, size && (data[0] & 8) ? 256 : 0,
			    size && (data[0] & 16) ? 1 << 30 : 0};
	yaml_lint_file(&c.ar, &c.dc, id, &o);
	diag_sort(&c.dc);
	/* dslc import of what the linter accepts (issue 26): never a crash, and
	 * never a description whose build loses a key (internal-consistency) */
	if (!diag_count(&c.dc, SEV_ERROR) && !memchr(text, 0, size)) {
		const char *files[] = {"n1.yml"}, *texts[] = {text};
		import_opts io = {files, 1, "n1", NULL, release, "<stdout>", texts};
		import_run r;
		bool ok = import_files(&r, &io);
		/* the description's text always parses, and its build keeps every key */
		for (int k = 0; k < 2; k++) {
			diag_ctx *dc = k ? &r.out.dc : &r.in.dc;
			for (size_t i = 0; (k ? r.compiled : !ok) && i < dc->n; i++)
				if (dc->items[i]->rule->rule == R_INTERNAL_CONSISTENCY || (!k && dc->items[i]->rule->rule == R_SYNTAX) ||
				    (k && dc->items[i]->rule->rule == R_SYNTAX)) {
					diag_print_text(dc, stderr, 0);
					abort();
				}
		}
		import_free(&r);
	}
	compile_free(&c);
	return 0;
}
