/* fuzz_dsl.c - libFuzzer target: the DSL front end, resolver, placement,
 * lint and every target rendered in memory.
 *
 * Beyond "no crash, no sanitizer report", it checks the safety promise
 * (SPEC.md, "Security model"): a compilation without errors never makes a
 * target refuse its input (the gate reported it first), and every path a
 * target chooses is a safe relative path. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile.h"
#include "compiler/safety.h"
#include "targets/targets.h"

/* Relative includes resolve from the golden fixtures, as the seeds expect. */
#define FUZZ_NAME "tests/golden/diag/fuzz.dsl"

static void render_all(const model *m)
{
	buf b;
	buf_init(&b);
	for (size_t i = 0; i < m->nnodes; i++)
		for (size_t t = 0; t < target_count; t++)
			for (int idx = 0; idx < 64; idx++) {
				buf_reset(&b);
				target_file tf = {&b, target_table[t].path, 0644, idx};
				target_result r = target_table[t].fn(m, &m->nodes[i], &tf);
				if (r == TARGET_SKIP)
					break;
				if (r == TARGET_FAIL) {
					fprintf(stderr, "target %s refused %s after a clean compilation\n", target_table[t].name,
						m->nodes[i].host);
					abort();
				}
				char rel[4096];
				snprintf(rel, sizeof(rel), "nodes/%s/%s", m->nodes[i].host, tf.path);
				if (!safe_rel_path(rel)) {
					fprintf(stderr, "unsafe path %s\n", rel);
					abort();
				}
			}
	for (size_t t = 0; t < cluster_target_count; t++)
		for (int idx = 0; idx < 4096; idx++) {
			buf_reset(&b);
			target_file tf = {&b, cluster_target_table[t].path, 0644, idx};
			target_result r = cluster_target_table[t].fn(m, &tf);
			if (r == TARGET_SKIP)
				break;
			char rel[4096];
			snprintf(rel, sizeof(rel), "cluster/%s", tf.path);
			if (r == TARGET_FAIL || !safe_rel_path(rel)) {
				fprintf(stderr, "cluster target %s refused or wrote %s after a clean compilation\n",
					cluster_target_table[t].name, rel);
				abort();
			}
		}
	buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	compilation c;
	compile_text(&c, FUZZ_NAME, text);
	if (c.parsed && !diag_count(&c.dc, SEV_ERROR))
		render_all(&c.m);
	compile_free(&c);
	free(text);
	return 0;
}
