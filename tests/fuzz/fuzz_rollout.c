/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_rollout.c - libFuzzer target: the rollout script `dslc plan --format
 * script` writes (compiler/plan/rollout.c), with the names a description
 * chooses. Each input is a description; when it compiles cleanly, every node
 * gets a set of change classes (taken from the input's bytes, so waves of
 * every shape are made: client-only, drained, reformatted, a system
 * restart), the waves are made and the script is written in memory.
 *
 * Beyond "no crash, no sanitizer report": every host and pool label the
 * script names is a word the shell takes as it is (the safety gate passed
 * them: rollout.c quotes with '...' and no name may end that quote), and the
 * script is one /bin/sh accepts (`sh -n`, dash: an unbalanced quote or a broken
 * here-document from a name would fail there). The waves' picture, titled
 * with the input itself (any bytes), passes svg_check.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/lint/compile.h"
#include "compiler/plan/rollout.h"
#include "compiler/plan/waves.h"
#include "compiler/tree/disruption.h"
#include "svg_check.h"

#define FUZZ_NAME "tests/golden/diag/fuzz.dsl"

/* What rollout.c puts between single quotes, and what a word needs. */
static bool shell_word(const char *s)
{
	if (!s || !*s || *s == '-')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '.' ||
		      *s == ':' || *s == '-'))
			return false;
	return true;
}

static void sh_accepts(const char *script, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/dslc-fuzz-rollout-%d.sh", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(script, 1, len, f);
	fclose(f);
	pid_t pid = fork();
	if (pid == 0) {
		execlp("sh", "sh", "-n", path, (char *)NULL); /* the script says #!/bin/sh: dash here */
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	unlink(path);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "sh -n refuses the rollout script (status %d):\n%s\n", WEXITSTATUS(st), script);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	compilation c;
	compile_text(&c, FUZZ_NAME, text);
	if (c.parsed && !diag_count(&c.dc, SEV_ERROR) && c.m.nnodes) {
		wave_node *nodes = arena_alloc(&c.ar, c.m.nnodes * sizeof(*nodes));
		for (size_t i = 0; i < c.m.nnodes; i++) {
			/* two bytes of the input per node, from its end (the text
			 * before it decides the cluster) */
			unsigned bits = 0;
			for (size_t k = 0; k < 2 && size > 2 * i + k; k++)
				bits = bits << 8 | data[size - 1 - 2 * i - k];
			/* the client steps another change couples come from the same bits */
			unsigned after = bits & (1u << DC_AGENT_REFRESH | 1u << DC_AGENT_RESTART | 1u << DC_REMOUNT);
			nodes[i] = (wave_node){c.m.nodes[i].host, bits % (1u << DC__COUNT), after, NULL};
			if (!nodes[i].classes)
				nodes[i].classes = 1u << DC_ENGINE_RESTART;
		}
		int max_wave = size ? data[0] % 4 : 0;
		plan_waves w;
		plan_waves_make(&c.ar, &c.m, nodes, c.m.nnodes, max_wave, 0, 0, &w);
		for (size_t i = 0; i < w.n; i++)
			for (size_t k = 0; k < w.v[i].nhosts; k++)
				if (!shell_word(w.v[i].hosts[k])) {
					fprintf(stderr, "the script would name the host '%s'\n", w.v[i].hosts[k]);
					abort();
				}
		for (size_t i = 0; i < w.npools; i++)
			if (!shell_word(w.pools[i])) {
				fprintf(stderr, "the script would name the pool '%s'\n", w.pools[i]);
				abort();
			}
		char *script = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&script, &len);
		rollout_script(out, &c.ar, &w, "fuzz");
		fclose(out);
		sh_accepts(script, len);
		free(script);
		/* the same waves as a picture: every host and reason escaped */
		buf svg;
		buf_init(&svg);
		rollout_svg(&svg, &c.ar, &c.m, &w, text);
		svg_check(svg.data, svg.len);
		buf_free(&svg);
	}
	compile_free(&c);
	free(text);
	return 0;
}
