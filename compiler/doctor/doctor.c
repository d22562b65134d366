/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* doctor.c - the command: the description compiled, the machine read
 * (hwloc), one node checked against the root (node_check.c) or a fleet's
 * snapshots (fleet.c), the findings reported as lint reports them. */
#include "doctor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "compiler/base/progress.h"
#include "compiler/lint/compile.h"
#include "compiler/model/model.h"
#include "fleet.h"
#include "snapshot.h"

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
	progress pr; /* the machine's hwloc export can take seconds on a large node */
	progress_begin(&pr, o->collect ? "collecting" : "checking", 0);
	progress_step(&pr, 0, "reading the machine");
	bool rendered = false;
	if (machine_of(&c, o, tc, &xml, &len)) {
		progress_step(&pr, 0, "rendering the node's files");
		rendered = doctor_render(&c, render_memo_new(&scratch));
	}
	if (!rendered)
		rc = 2;
	else {
		progress_step(&pr, 0, "checking");
		doctor_check(&c);
		progress_step(&pr, 0, "writing the snapshot");
		if (o->collect && !snapshot_write(&c, o->collect, xml, len, &why)) {
			fprintf(stderr, "dslc: cannot write the snapshot '%s': %s\n", o->collect, why);
			rc = 2;
		}
	}
	progress_end(&pr);
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
