/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* doctor.c - the command: the description compiled, the node's files
 * rendered as the build renders them, the machine read (hwloc), every check
 * run against the root, the findings reported as lint reports them. */
#include "doctor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "checks.h"
#include "compiler/lint/compile.h"
#include "compiler/base/strmap.h"
#include "compiler/model/model.h"
#include "fleet.h"
#include "snapshot.h"

/* ---- what the checks share ------------------------------------------------ */

static void record(doctor_ctx *c, seen s)
{
	if (!c->collecting)
		return;
	s.rel = arena_strdup(c->ar, s.rel);
	ARENA_PUSH(c->ar, c->seen, c->nseen, c->seen_cap, s);
}

rootfs_file doctor_read(doctor_ctx *c, const char *rel, size_t max)
{
	rootfs_file f = rootfs_read(c->ar, c->root, rel, max, false);
	void *recorded = c->modes ? strmap_get(c->modes, rel) : NULL;
	if (f.status == ROOTFS_OK && recorded) /* a snapshot's copy: the node's mode is the recorded one */
		f.mode = (unsigned)((uintptr_t)recorded - 1);
	if (f.status == ROOTFS_OK)
		record(c, (seen){SEEN_FILE, rel, f.data, f.len, f.mode, NULL, 0});
	/* proc and sys files are text; a NUL in one is not a value to compare */
	if (f.status == ROOTFS_OK && (strncmp(rel, "proc/", 5) == 0 || strncmp(rel, "sys/", 4) == 0) &&
	    memchr(f.data, '\0', f.len)) {
		f.status = ROOTFS_BINARY;
		f.data = NULL;
	}
	return f;
}

const char *doctor_link(doctor_ctx *c, const char *rel, int *err)
{
	errno = 0;
	const char *name = rootfs_link_name(c->ar, c->root, rel);
	*err = name ? 0 : errno;
	if (name)
		record(c, (seen){SEEN_LINK, rel, name, strlen(name), 0, NULL, 0});
	return name;
}

int doctor_list(doctor_ctx *c, const char *rel, const char **names, int max, int *err)
{
	int n = rootfs_list(c->ar, c->root, rel, names, max);
	*err = n < 0 ? errno : 0;
	if (n >= 0) {
		const char **copy = arena_alloc(c->ar, (size_t)(n + 1) * sizeof(*copy));
		memcpy(copy, names, (size_t)n * sizeof(*copy));
		record(c, (seen){SEEN_DIR, rel, NULL, 0, 0, copy, n});
	}
	return n;
}

bool doctor_exists(doctor_ctx *c, const char *rel)
{
	/* an adjacency link (lower_NIC) may point where the root has nothing:
	 * the link itself is what exists */
	int fd = rootfs_openat(c->root, rel, O_RDONLY | O_PATH);
	bool ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	else
		ok = rootfs_link_name(c->ar, c->root, rel) != NULL;
	if (ok)
		record(c, (seen){SEEN_EXISTS, rel, NULL, 0, 0, NULL, 0});
	return ok;
}

diag *doctor_report(doctor_ctx *c, rule_id rule, src_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(c->ar, fmt, ap);
	va_end(ap);
	return diag_report(c->dc, rule, loc, "%s: %s", c->nd->host, msg);
}

const char *doctor_path(const doctor_ctx *c, const char *rel)
{
	const char *root = c->root->live ? "" : c->root->path;
	size_t n = strlen(root);
	return arena_printf(c->ar, "%s%s%s", root, n && root[n - 1] == '/' ? "" : "/", rel);
}

void doctor_unchecked(doctor_ctx *c, const char *what, const char *rel, const rootfs_file *f)
{
	diag *d = doctor_report(c, R_NODE_UNCHECKED, doctor_node_loc(c), "%s not checked: %s is %s", what,
				doctor_path(c, rel), rootfs_why(c->ar, f));
	if (strcmp(rel, SNAPSHOT_TOPOLOGY) == 0)
		diag_help(c->dc, d, "give the node's export: --topology node.xml (`lstopo --of xml` on the node)");
	else
		diag_help(c->dc, d, "run the check on the node, or collect there and check here: dslc doctor FILE --node %s "
				    "--collect DIR, then --root DIR", c->nd->host);
	if (c->strict)
		diag_set_severity(c->dc, d, SEV_ERROR);
}

src_loc doctor_node_loc(const doctor_ctx *c)
{
	return c->nd->loc;
}

src_loc doctor_loc_or(src_loc a, src_loc b)
{
	return a.file ? a : b;
}

const char *doctor_size(arena *a, uint64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	return u && v != (double)(uint64_t)v ? arena_printf(a, "%.1f %s", v, units[u]) : arena_printf(a, "%.0f %s", v, units[u]);
}

/* ---- one node ------------------------------------------------------------- */

static int keep_file(void *ctx, const rendered *f)
{
	doctor_ctx *c = ctx;
	rendered r = *f;
	r.path = arena_strdup(c->ar, f->path);
	r.data = arena_strndup(c->ar, f->data, f->len);
	ARENA_PUSH(c->ar, c->files, c->nfiles, c->files_cap, r);
	return 0;
}

bool doctor_render(doctor_ctx *c, render_memo *memo)
{
	return render_node(c->m, c->nd, c->ar, memo, keep_file, c) == 0;
}

void doctor_check(doctor_ctx *c)
{
	if (!c->topo && !c->topo_unchecked) {
		rootfs_file f = {.status = ROOTFS_ABSENT};
		doctor_unchecked(c, "the machine (NUMA nodes, cores, memory, NICs, drives)", "dslc-topology.xml", &f);
	}
	if (doctor_check_other_type(c))
		return;
	doctor_check_machine(c);
	doctor_check_pmem(c);
	doctor_check_kernel(c);
	doctor_check_network(c);
	doctor_check_files(c);
}

/* ---- the command ------------------------------------------------------- */

/* The machine: an export given, else the running machine or the
 * snapshot's (topo_cache_machine). xml keeps the text for --collect. A
 * failure to read --topology is the caller's I/O error; the others are
 * notes. */
static bool machine_of(doctor_ctx *c, const doctor_opts *o, topo_cache *tc, const char **xml, size_t *len)
{
	if (!o->topology) {
		topo_cache_machine(c, tc, xml, len);
		return true;
	}
	const char *why = NULL;
	char *text = src_read_file(c->ar, o->topology, 64 << 20, false, len);
	if (!text || !*len || !(c->topo = topo_parse_xml(c->ar, text, *len, &why))) {
		fprintf(stderr, "dslc: cannot read the topology '%s': %s\n", o->topology,
			why ? why : !text ? src_strerror(errno) : "the file is empty");
		return false;
	}
	*xml = text;
	return true;
}

/* --node's node, or NULL when the description has none of that name (said). */
static const node *named_node(const model *m, const doctor_opts *o)
{
	const node *nd = model_node(m, o->node);
	if (!nd) {
		const char *sug = model_suggest_node(m, o->node);
		fprintf(stderr, "dslc: %s is not a node of %s%s%s%s\n", o->node, o->file, sug ? "; did you mean '" : "",
			sug ? sug : "", sug ? "'?" : "");
	}
	return nd;
}

static int one_node(const model *m, const node *nd, const doctor_opts *o, diag_ctx *dc)
{
	if (!nd->spec || !nd->spec->plan || !nd->spec->plan->ok) {
		fprintf(stderr, "dslc: %s has no plan to check against: build the description first\n", o->node);
		return 2;
	}
	rootfs root;
	const char *why;
	if (!rootfs_open(&root, o->root ? o->root : "/", &why)) {
		fprintf(stderr, "dslc: cannot open the root '%s': %s\n", o->root, why);
		return 2;
	}
	arena scratch;
	arena_init(&scratch);
	doctor_ctx c = {.ar = &scratch, .m = m, .nd = nd, .p = nd->spec->plan, .dc = dc, .root = &root,
			.strict = o->strict, .collecting = o->collect != NULL};
	snapshot_load_modes(&c);
	topo_cache *tc = topo_cache_new(&scratch);
	const char *xml = NULL;
	size_t len = 0;
	int rc = 0;
	if (!machine_of(&c, o, tc, &xml, &len))
		rc = 2;
	else if (!doctor_render(&c, render_memo_new(&scratch)))
		rc = 2;
	else {
		doctor_check(&c);
		if (o->collect && !snapshot_write(&c, o->collect, xml, len, &why)) {
			fprintf(stderr, "dslc: cannot write the snapshot '%s': %s\n", o->collect, why);
			rc = 2;
		}
	}
	topo_cache_free(tc);
	arena_free(&scratch);
	rootfs_close(&root);
	return rc;
}

static void summary(const diag_ctx *dc)
{
	fflush(stdout); /* the count after the findings, as lint prints it */
	unsigned e = diag_count(dc, SEV_ERROR), n = diag_count(dc, SEV_NOTE);
	fprintf(stderr, "dslc: %u drift%s, %u note%s%s\n", e, e == 1 ? "" : "s", n, n == 1 ? "" : "s",
		n && !e ? " (what was not checked)" : "");
}

int doctor_run(const doctor_opts *o, const char *version)
{
	compilation comp;
	if (!compile_file_with(&comp, o->file, o->disabled)) {
		fprintf(stderr, "dslc: cannot read '%s': %s\n", o->file, src_strerror(errno));
		compile_free(&comp);
		return 2;
	}
	diag_sort(&comp.dc);
	if (diag_count(&comp.dc, SEV_ERROR)) {
		report_print(&comp.dc, o->format, stdout, o->max_findings, version);
		fprintf(stderr, "dslc: %s has errors: a node is checked against a description that builds\n", o->file);
		compile_free(&comp);
		return 2;
	}
	diag_ctx dc;
	diag_init(&dc, &comp.ar, &comp.src);
	const node *nd = o->node ? named_node(&comp.m, o) : NULL;
	int rc = o->node && !nd ? 2
		 : o->snapshots ? fleet_run(&comp.m, o->snapshots, nd, o->strict, &dc)
				: one_node(&comp.m, nd, o, &dc);
	if (rc == 0) {
		diag_apply_allows(&dc, comp.dc.sups);
		for (int i = 0; i < R__COUNT; i++)
			if (o->disabled[i])
				diag_drop_rule(&dc, &rule_table[i]);
		diag_sort(&dc);
		if (report_print(&dc, o->format, stdout, o->max_findings, version))
			rc = 2;
		else
			rc = diag_count(&dc, SEV_ERROR) ? 1 : 0;
		if (o->format == REPORT_TEXT)
			summary(&dc);
	}
	compile_free(&comp);
	return rc;
}
