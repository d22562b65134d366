/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_lint_files.c - libFuzzer target: which files `dslc lint A B ...`
 * lints (compiler/cli/lint_files.c). An input is a small repository: files
 * separated by lines "--- NAME" (the text before the first such line is
 * cluster.dsl; "--- !NAME" writes a file that is on disk but not given, for
 * the includer search to find). Each given file is compiled as lint does,
 * then lint_files_choose decides from what lint_file_of took of it, the
 * compilation reduced to its findings (compile_keep_findings) as lint's is.
 *
 * Beyond "no crash, no sanitizer report", it checks the promise of issue 41:
 * the verdict of a set is never better than its members'. Every given file
 * that is not linted itself is read by a compilation that is reported (a
 * given file not skipped, or a description found for a fragment): a file is
 * never deferred to nothing (two files that include each other, a chain, a
 * duplicate). */
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/source.h"
#include "compiler/cli/lint_files.h"
#include "compiler/lint/compile.h"
#include "compiler/lint/yaml_lint.h"

enum { MAX_FILES = 8, MAX_NAME = 64 };

static char root[256], repo[300];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* A name the input may choose: relative, at most three parts of [A-Za-z0-9_.-],
 * none of them "." or ".." (the repository stays under repo). */
static bool name_ok(const char *s, size_t n)
{
	if (!n || n > MAX_NAME || s[0] == '/' || s[n - 1] == '/')
		return false;
	int parts = 1;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '/') {
			size_t len = i - start;
			if (!len || (len == 1 && s[start] == '.') || (len == 2 && s[start] == '.' && s[start + 1] == '.'))
				return false;
			if (i < n && ++parts > 3)
				return false;
			start = i + 1;
			continue;
		}
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
			return false;
	}
	return true;
}

static void write_file(const char *path, const char *text, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(repo) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "wx");
	if (!f)
		return; /* written before (given twice), or a directory (not given) */
	fwrite(text, 1, len, f);
	fclose(f);
}

/* Splits the input into files under repo; returns how many are given. */
static size_t unpack(const char *text, size_t size, char given[MAX_FILES][PATH_MAX])
{
	size_t ngiven = 0, nfiles = 0;
	const char *name = "cluster.dsl", *body = text, *end = text + size;
	size_t nlen = strlen(name);
	bool listed = true;
	while (body <= end && nfiles < MAX_FILES) {
		const char *next = NULL;
		for (const char *p = body; p + 4 <= end; p++)
			if ((p == text || p[-1] == '\n') && memcmp(p, "--- ", 4) == 0) {
				next = p;
				break;
			}
		const char *stop = next ? next : end;
		char path[PATH_MAX];
		if (name_ok(name, nlen))
			snprintf(path, sizeof(path), "%s/%.*s", repo, (int)nlen, name);
		else
			snprintf(path, sizeof(path), "%s/f%zu.dsl", repo, nfiles);
		write_file(path, body, (size_t)(stop - body));
		struct stat st;
		if (listed && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			snprintf(given[ngiven++], PATH_MAX, "%s", path);
		nfiles++;
		if (!next)
			break;
		name = next + 4;
		const char *eol = memchr(name, '\n', (size_t)(end - name));
		nlen = (size_t)((eol ? eol : end) - name);
		listed = !(nlen && name[0] == '!');
		if (!listed)
			name++, nlen--;
		body = eol ? eol + 1 : end;
	}
	return ngiven;
}

static bool reads(const compilation *c, const char *real)
{
	for (uint32_t id = 0; id < c->src.nfiles; id++) {
		const src_file *sf = src_get(&c->src, id);
		char r[PATH_MAX];
		if (sf && realpath(sf->path, r) && strcmp(r, real) == 0)
			return true;
	}
	return false;
}

static void compile_given(compilation *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	if (yaml_lint_is_yaml(path))
		compile_yaml(c, path, NULL, NULL, 0, 0);
	else
		compile_file(c, path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!root[0]) {
		snprintf(root, sizeof(root), "/tmp/dslc-fuzz-lint-%d", (int)getpid());
		snprintf(repo, sizeof(repo), "%s/repo", root);
	}
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(root, 0755);
	mkdir(repo, 0755);
	static char given[MAX_FILES][PATH_MAX];
	size_t n = unpack((const char *)data, size, given);
	compilation comps[MAX_FILES];
	lint_file files[MAX_FILES];
	arena a;
	arena_init(&a);
	for (size_t i = 0; i < n; i++) {
		compile_given(&comps[i], given[i]);
		/* as lint does: what the choice needs, then the findings only */
		files[i] = lint_file_of(&a, given[i], &comps[i]);
		compile_keep_findings(&comps[i]);
	}
	lint_choice ch = lint_files_choose(&a, files, n, NULL);
	compilation *extra = calloc(ch.nextra + 1, sizeof(*extra));
	for (size_t i = 0; i < ch.nextra; i++)
		compile_given(&extra[i], ch.extra[i]);
	for (size_t i = 0; i < n; i++) {
		if (!ch.skip[i])
			continue;
		char real[PATH_MAX];
		if (!realpath(given[i], real))
			abort(); /* written above, never removed */
		bool covered = false;
		for (size_t j = 0; j < n && !covered; j++) {
			char rj[PATH_MAX]; /* given twice: linted (or refused) once */
			covered = !ch.skip[j] && (reads(&comps[j], real) || (realpath(given[j], rj) && strcmp(rj, real) == 0));
		}
		for (size_t j = 0; j < ch.nextra && !covered; j++)
			covered = reads(&extra[j], real);
		if (!covered) {
			fprintf(stderr, "%s is skipped, and no file that is linted reads it\n", given[i]);
			abort();
		}
	}
	for (size_t i = 0; i < n; i++)
		compile_free(&comps[i]);
	for (size_t i = 0; i < ch.nextra; i++)
		compile_free(&extra[i]);
	free(extra);
	arena_free(&a);
	return 0;
}
