/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_dsl.c - libFuzzer target: the DSL front end, resolver, placement,
 * lint, the build's own check and every target rendered in memory.
 *
 * Beyond "no crash, no sanitizer report", it checks the safety promise
 * (SPEC.md, "Security model"): a compilation without errors never makes a
 * target refuse its input (the gate reported it first), and every path a
 * target chooses is a safe relative path. And `dslc fmt` of any input that
 * parses is the same program (its own check passes) and formats to itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/cli/show.h"
#include "compiler/lang/format.h"
#include "compiler/lint/compile.h"
#include "compiler/place/node_plan.h"
#include "compiler/tree/render.h"
#include "compiler/tree/selfcheck.h"
#include "svg_check.h"

/* Relative includes resolve from the golden fixtures, as the seeds expect. */
#define FUZZ_NAME "tests/golden/diag/fuzz.dsl"

/* Every file goes through render_node/render_cluster, the code `dslc build`
 * and `dslc plan` run (spec targets included, shared through the memo). */
static int check_file(void *ctx, const rendered *f)
{
	(void)ctx;
	if (!safe_rel_path(f->rel)) {
		fprintf(stderr, "target %s chose the unsafe path %s\n", f->target, f->rel);
		abort();
	}
	return 0;
}

static void render_all(const model *m)
{
	arena ar;
	arena_init(&ar);
	render_memo *memo = render_memo_new(&ar);
	for (size_t i = 0; i < m->nnodes; i++)
		if (render_node(m, &m->nodes[i], &ar, memo, check_file, NULL)) {
			fprintf(stderr, "a target refused %s after a clean compilation\n", m->nodes[i].host);
			abort();
		}
	if (render_cluster(m, &ar, check_file, NULL)) {
		fprintf(stderr, "a cluster target refused after a clean compilation\n");
		abort();
	}
	arena_free(&ar);
}

/* fmt: a text that parses formats (the check inside format_file passes)
 * and its result formats to itself. */
static void fuzz_format(const char *text, size_t size)
{
	if (memchr(text, 0, size))
		return; /* sources are NUL-free text (src_load refuses a NUL) */
	compilation c;
	compile_init(&c);
	buf once, twice;
	buf_init(&once);
	buf_init(&twice);
	uint32_t f = src_add(&c.src, FUZZ_NAME, text, size);
	bool ok = format_file(&c.ar, &c.dc, f, &once);
	for (size_t i = 0; i < c.dc.n; i++)
		if (c.dc.items[i]->rule->rule == R_INTERNAL_CONSISTENCY) {
			fprintf(stderr, "dslc fmt changed what the input means\n");
			abort();
		}
	if (ok) {
		uint32_t g = src_add(&c.src, FUZZ_NAME, arena_strndup(&c.ar, once.data ? once.data : "", once.len), once.len);
		if (!format_file(&c.ar, &c.dc, g, &twice) || twice.len != once.len || (once.len && memcmp(twice.data, once.data, once.len) != 0)) {
			fprintf(stderr, "dslc fmt is not idempotent on this input\n");
			abort();
		}
	}
	buf_free(&once);
	buf_free(&twice);
	compile_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	compilation c;
	compile_text(&c, FUZZ_NAME, text);
	/* the build's own check runs on what the build would write (crashes
	 * and sanitizer reports only: a shape it stops is a finding to read) */
	if (c.parsed && !diag_count(&c.dc, SEV_ERROR))
		selfcheck_model(&c.m, NULL, render_memo_new(&c.ar));
	if (c.parsed && !diag_count(&c.dc, SEV_ERROR))
		render_all(&c.m);
	/* the first node's picture: its names escaped (svg_check.h) */
	if (c.parsed && !diag_count(&c.dc, SEV_ERROR) && c.m.nnodes && c.m.nodes[0].spec && c.m.nodes[0].spec->plan &&
	    c.m.nodes[0].spec->plan->ok) {
		char *svg = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&svg, &len);
		show_node_svg(&c.m, &c.m.nodes[0], out);
		fclose(out);
		svg_check(svg, len);
		free(svg);
	}
	compile_free(&c);
	fuzz_format(text, size);
	free(text);
	return 0;
}
