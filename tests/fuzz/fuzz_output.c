/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_output.c - libFuzzer target: the output writer. Each input is a
 * description; when it compiles cleanly it is built into a scratch
 * directory, and nothing may appear beside the tree but its lock and its
 * cache (no write outside -o, whatever the names say; no stage or journal
 * left behind by a build that returned). */
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/lint/compile.h"
#include "compiler/tree/output.h"

static char root[256], out[300];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void check_root(void)
{
	DIR *d = opendir(root);
	if (!d)
		abort();
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "out") &&
		    strcmp(e->d_name, "out.dslc-lock") && strcmp(e->d_name, "out.dslc-cache")) {
			fprintf(stderr, "written outside the tree: %s/%s\n", root, e->d_name);
			abort();
		}
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!root[0]) {
		snprintf(root, sizeof(root), "/tmp/dslc-fuzz-output-%d", (int)getpid());
		snprintf(out, sizeof(out), "%s/out", root);
	}
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	compilation c;
	compile_text(&c, "tests/golden/diag/fuzz.dsl", text);
	if (c.parsed && !diag_count(&c.dc, SEV_ERROR) && c.m.nnodes <= 64) {
		output_stats st;
		output_opts opts = {false, false, "dslc fuzz", NULL};
		output_build(&c.m, out, &opts, &st);
		check_root();
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	compile_free(&c);
	free(text);
	return 0;
}
