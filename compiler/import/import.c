/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* import.c - see import.h: the files are named, linted, read, shaped into
 * a description, and the description is compiled and checked against them. */
#include "import.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "compiler/lang/format.h"
#include "compiler/lint/yaml_lint.h"
#include "import_data.h"

/* nodes/<host>/etc/daos/daos_server.yml, as `dslc build` writes them (or
 * any <host>/etc/daos/daos_server.yml tree). */
static const char *host_of_path(arena *a, const char *path)
{
	const char *tail = strstr(path, "/etc/daos/daos_server.y");
	if (!tail)
		return NULL;
	const char *start = tail;
	while (start > path && start[-1] != '/')
		start--;
	const char *host = arena_strndup(a, start, (size_t)(tail - start));
	const char *why;
	return val_hostname(host, &why) ? host : NULL;
}

static bool name_nodes(importer *im, const import_opts *o)
{
	const char **hosts = NULL;
	size_t n = 0;
	if (o->hosts) {
		const char *why = NULL;
		hosts = arena_alloc(im->a, (o->nfiles + 1) * sizeof(*hosts));
		/* gpu[001-003],cn01: host lists separated by commas outside brackets */
		for (const char *p = o->hosts; p && !why;) {
			const char *q = p;
			for (int depth = 0; *q && (depth || *q != ','); q++)
				depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
			const char **part;
			int64_t *numbers;
			size_t k = 0;
			if (hostlist_expand(im->a, arena_strndup(im->a, p, (size_t)(q - p)), &part, &numbers, &k,
					    o->nfiles + 1 - n, &why))
				for (size_t j = 0; j < k && n <= o->nfiles; j++)
					hosts[n++] = part[j];
			p = *q ? q + 1 : NULL;
		}
		if (why || n != o->nfiles) {
			im->usage = why ? arena_printf(im->a, "--host %s: %s", o->hosts, why)
					: arena_printf(im->a, "--host %s names %zu host%s for %zu file%s: give one per file, in order",
						       o->hosts, n, n == 1 ? "" : "s", o->nfiles, o->nfiles == 1 ? "" : "s");
			return false;
		}
	}
	strmap seen;
	strmap_init(&seen, im->a);
	for (size_t i = 0; i < im->nnodes; i++) {
		imp_node *nd = &im->nodes[i];
		nd->host = hosts ? hosts[i] : host_of_path(im->a, nd->path);
		src_loc at = {nd->file, 0, 0};
		if (!nd->host) {
			diag *d = diag_report(im->dc, R_IMPORT_UNSUPPORTED, at, "cannot tell which node %s is for", nd->path);
			diag_help(im->dc, d, "name it: `--host NAME` (one name per file), or import a built tree's "
				  "nodes/<host>/etc/daos/daos_server.yml");
			return false;
		}
		if (strmap_get(&seen, nd->host)) {
			diag *d = diag_report(im->dc, R_IMPORT_CONFLICT, at, "a second file for node %s", nd->host);
			diag_help(im->dc, d, "import one daos_server.yml per node");
			return false;
		}
		strmap_put(&seen, nd->host, nd);
	}
	return true;
}

/* Findings of the YAML linter that are dslc's judgement, not DAOS's: DAOS
 * starts with such a file, so it is imported, and the description's own
 * lint reports the finding again, located in the description (an unpinned
 * scm_size is `scm ram` without a size there). Every other error is one
 * DAOS refuses the file for, and stops the import. */
static const rule_id daos_accepts[] = {
	R_SCM_SIZE_UNPINNED, R_SCM_SIZE_SMALL, R_MEMORY_OVERCOMMIT, R_HUGEPAGES_PER_TARGET, R_HELPERS_CLAMPED,
	R_FIRST_CORE_WITH_PIN, R_FIRST_CORE_OUTSIDE_NUMA, R_FIRST_CORE_LINUX_CPU, R_ENGINE_CORE_BUDGET,
	R_ENGINE_CORES_OVERLAP, R_ENGINE_CORES_WRAP, R_ENGINE_CONTEXT_CAP, R_ENGINES_SHARE_NUMA, R_NIC_NOT_LOCAL,
	R_NIC_WRONG_FABRIC, R_NVME_NOT_LOCAL, R_DEVICE_ABSENT, R_ENV_RESERVED, R_PINNED_NUMA_RANGE,
};

static bool daos_accepted(rule_id rule)
{
	for (size_t i = 0; i < sizeof(daos_accepts) / sizeof(daos_accepts[0]); i++)
		if (daos_accepts[i] == rule)
			return true;
	return false;
}

/* The input must be a file DAOS accepts: the YAML linter's findings of what
 * DAOS refuses stop the import; the others come back as the description's. */
static bool lint_inputs(importer *im, const import_opts *o)
{
	for (size_t i = 0; i < im->nnodes; i++) {
		yaml_lint_opts lo = {o->release, im->topo, 0, 0};
		yaml_lint_file(im->a, im->dc, im->nodes[i].file, &lo);
	}
	for (size_t i = 0; i < sizeof(daos_accepts) / sizeof(daos_accepts[0]); i++)
		diag_drop_rule(im->dc, &rule_table[daos_accepts[i]]);
	if (diag_count(im->dc, SEV_ERROR))
		return false;
	for (size_t i = 0; i < im->nnodes; i++) {
		diag_ctx quiet; /* read again: the linter has reported what there is */
		diag_init(&quiet, im->a, im->src);
		im->nodes[i].root = ydoc_parse(im->a, &quiet, im->nodes[i].file);
		if (!im->nodes[i].root)
			return false;
	}
	return true;
}

/* --release, else the YAML linter's own choice: 2.8 names the replicas
 * mgmt_svc_replicas; every file of one system is of one release. */
static bool release_of(importer *im, const import_opts *o)
{
	for (size_t i = 0; i < im->nnodes; i++) {
		const imp_node *n = &im->nodes[i];
		const daos_release *rel =
			daos_release_find(o->release ? o->release : ydoc_get(n->root, "mgmt_svc_replicas") ? "2.8" : "2.6");
		if (!im->rel)
			im->rel = rel;
		if (rel != im->rel) {
			diag *d = diag_report(im->dc, R_IMPORT_CONFLICT, (src_loc){n->file, 0, 0},
					      "%s is a DAOS %s file, %s one of %s", n->path, rel->name, im->nodes[0].path, im->rel->name);
			diag_help(im->dc, d, "import the files of one release (2.8 names the access points mgmt_svc_replicas)");
			return false;
		}
	}
	return true;
}

/* The export's path as the description names it: relative to where the
 * description is read (the working directory for stdout). */
static const char *topology_path(importer *im, const import_opts *o)
{
	if (o->topology[0] == '/' || !strchr(o->name, '/'))
		return o->topology;
	char *abs = realpath(o->topology, NULL);
	const char *p = abs ? arena_strdup(im->a, abs) : o->topology;
	free(abs);
	return p;
}

bool import_files(import_run *r, const import_opts *o)
{
	memset(r, 0, sizeof(*r));
	compilation *in = &r->in;
	compile_init(in);
	buf_init(&r->text);
	importer im = {.a = &in->ar, .dc = &in->dc, .src = &in->src};
	im.nodes = arena_alloc(im.a, o->nfiles * sizeof(*im.nodes));
	for (size_t i = 0; i < o->nfiles; i++) {
		imp_node *n = &im.nodes[im.nnodes];
		n->path = o->files[i];
		n->file = o->texts ? src_add(&in->src, o->files[i], o->texts[i], strlen(o->texts[i]))
				   : src_load(&in->src, o->files[i], false);
		if (!n->file) {
			uint32_t id = src_add(&in->src, o->files[i], "", 0);
			diag *d = diag_report(&in->dc, R_IO, (src_loc){id, 0, 0}, "cannot read '%s': %s", o->files[i],
					      src_strerror(errno));
			diag_help(&in->dc, d, "check the path and permissions");
			continue;
		}
		im.nnodes++;
	}
	if (im.nnodes != o->nfiles)
		return false;
	if (!name_nodes(&im, o)) {
		r->usage = im.usage;
		return false;
	}
	if (o->topology) {
		const char *why;
		im.topo = topo_load_xml(im.a, o->topology, false, &why);
		if (!im.topo) {
			diag *d = diag_report(im.dc, R_TOPOLOGY_LOAD, (src_loc){im.nodes[0].file, 0, 0},
					      "cannot load topology '%s': %s", o->topology, why);
			diag_help(im.dc, d, "give an `lstopo --of xml` export of this node (hwloc 2.x; `--of v2xml` from hwloc 3.x)");
			return false;
		}
		im.topo_path = topology_path(&im, o);
	}
	if (!lint_inputs(&im, o) || !release_of(&im, o))
		return false;
	bool read_ok = true;
	for (size_t i = 0; i < im.nnodes; i++)
		read_ok &= im.nodes[i].root && import_read_node(&im, &im.nodes[i]);
	if (!read_ok || !import_shape(&im))
		return false;
	buf raw;
	buf_init(&raw);
	import_write(&im, &raw);
	/* in `dslc fmt`'s layout, so that a formatting check passes on it as written */
	uint32_t id = src_add(im.src, o->name, raw.data, raw.len);
	bool formatted = format_file(im.a, im.dc, id, &r->text);
	buf_free(&raw);
	if (!formatted)
		return false;
	r->compiled = true;
	compile_text(&r->out, o->name, r->text.data);
	diag_sort(&r->out.dc);
	/* a description with an error the build stops at (an access point that
	 * is not one of the imported nodes) is not rendered: its findings say
	 * what to fix, and the build checks its own files once they are fixed */
	for (size_t i = 0; i < r->out.dc.n; i++)
		if (r->out.dc.items[i]->severity == SEV_ERROR && !daos_accepted(r->out.dc.items[i]->rule->rule))
			return true;
	return import_verify(&im, &r->out.m, o->name);
}

void import_free(import_run *r)
{
	if (r->compiled)
		compile_free(&r->out);
	compile_free(&r->in);
	buf_free(&r->text);
}
