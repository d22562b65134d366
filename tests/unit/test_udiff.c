/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* test_udiff.c - the unified diff of `fmt --diff` and `lint --fix --diff`:
 * pinned small cases, then random pairs of texts whose diff GNU patch must
 * turn the old text into the new one with, in as few changed lines as the
 * longest common subsequence allows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/base/udiff.h"
#include "unit.h"

/* The diff as a string (static buffer). */
static const char *diff_of(const char *old, const char *new_)
{
	static char out[1 << 16];
	arena a;
	arena_init(&a);
	out[0] = 0; /* glibc's fmemopen "w" leaves the buffer as it was until a write */
	FILE *f = fmemopen(out, sizeof(out), "w");
	ck_assert_ptr_nonnull(f);
	udiff_print(&a, f, "f.dsl", old, strlen(old), new_, strlen(new_));
	fclose(f);
	arena_free(&a);
	return out;
}

START_TEST(small_cases_are_pinned)
{
	ck_assert_str_eq(diff_of("a\nb\nc\n", "a\nb\nc\n"), "");
	ck_assert_str_eq(diff_of("a\nb\nc\n", "a\nB\nc\n"), "--- f.dsl\n+++ f.dsl\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
	ck_assert_str_eq(diff_of("", "x\n"), "--- f.dsl\n+++ f.dsl\n@@ -0,0 +1 @@\n+x\n");
	ck_assert_str_eq(diff_of("a\nb", "a\nb\n"),
			 "--- f.dsl\n+++ f.dsl\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
	/* two changes 7 lines apart are two hunks; 6 apart, one */
	ck_assert_str_eq(diff_of("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "X\n2\n3\n4\n5\n6\n7\n8\nY\n"),
			 "--- f.dsl\n+++ f.dsl\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -6,4 +6,4 @@\n 6\n 7\n 8\n-9\n+Y\n");
	ck_assert_str_eq(diff_of("1\n2\n3\n4\n5\n6\n7\n8\n", "X\n2\n3\n4\n5\n6\n7\nY\n"),
			 "--- f.dsl\n+++ f.dsl\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n");
}
END_TEST

/* A random text of up to max lines over a small alphabet (many equal lines). */
static size_t random_text(char *buf, unsigned *seed, int max)
{
	size_t n = 0;
	int lines = rand_r(seed) % (max + 1);
	for (int i = 0; i < lines; i++)
		n += (size_t)sprintf(buf + n, "%c\n", 'a' + rand_r(seed) % 4);
	if (n && rand_r(seed) % 8 == 0)
		n--; /* no newline at the end */
	buf[n] = 0;
	return n;
}

static size_t lines_of(const char *s, const char **v)
{
	size_t n = 0;
	for (const char *p = s; *p;) {
		v[n++] = p;
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
	}
	return n;
}

static int line_eq(const char *x, const char *y)
{
	size_t lx = strcspn(x, "\n"), ly = strcspn(y, "\n");
	return lx == ly && memcmp(x, y, lx) == 0 && (x[lx] == '\n') == (y[ly] == '\n');
}

/* |old| + |new| - 2 LCS: the fewest changed lines a diff can have. */
static size_t fewest_changes(const char *old, const char *new_)
{
	static const char *a[64], *b[64];
	static size_t l[65][65];
	size_t n = lines_of(old, a), m = lines_of(new_, b);
	for (size_t i = n + 1; i-- > 0;)
		for (size_t j = m + 1; j-- > 0;)
			l[i][j] = i == n || j == m ? 0
				  : line_eq(a[i], b[j]) ? l[i + 1][j + 1] + 1
				  : l[i + 1][j] > l[i][j + 1] ? l[i + 1][j] : l[i][j + 1];
	return n + m - 2 * l[0][0];
}

static size_t changed_lines(const char *diff)
{
	size_t n = 0;
	for (const char *p = diff; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		n += (*p == '+' && strncmp(p, "+++ ", 4) != 0) || (*p == '-' && strncmp(p, "--- ", 4) != 0);
	return n;
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

START_TEST(patch_applies_random_diffs)
{
	if (system("command -v patch >/dev/null 2>&1") != 0) {
		fprintf(stderr, "skip udiff against GNU patch: patch is not installed\n");
		return;
	}
	char dir[] = "/tmp/dslc-udiff-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char old[512], new_[512], cmd[512], path[256];
	unsigned seed = 4711;
	for (int round = 0; round < 300; round++) {
		random_text(old, &seed, 40);
		strcpy(new_, old);
		/* an edited copy (some rounds: a fresh text) */
		if (round % 5 == 0)
			random_text(new_, &seed, 40);
		else
			for (char *p = new_; *p; p++)
				if (*p != '\n' && rand_r(&seed) % 6 == 0)
					*p = 'a' + rand_r(&seed) % 5;
		const char *d = diff_of(old, new_);
		ck_assert_int_eq(*d == 0, strcmp(old, new_) == 0);
		if (!*d)
			continue;
		ck_assert_uint_eq(changed_lines(d), fewest_changes(old, new_));
		snprintf(path, sizeof(path), "%s/f.dsl", dir);
		FILE *f = fopen(path, "wb");
		fputs(old, f);
		fclose(f);
		snprintf(path, sizeof(path), "%s/d.patch", dir);
		f = fopen(path, "wb");
		fputs(d, f);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "cd %s && patch -s -p0 <d.patch >/dev/null 2>&1", dir);
		ck_assert_msg(system(cmd) == 0, "patch refused round %d:\n%s", round, d);
		snprintf(path, sizeof(path), "%s/f.dsl", dir);
		ck_assert_msg(strcmp(slurp(path), new_) == 0, "round %d: patched text differs", round);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Texts too different for the trace: the middle replaced at once, still a diff patch applies. */
START_TEST(very_different_texts_fall_back)
{
	size_t n = 10000;
	char *a = malloc(n * 6 + 1), *b = malloc(n * 6 + 1);
	size_t la = 0, lb = 0;
	for (size_t i = 0; i < n; i++) {
		la += (size_t)sprintf(a + la, "a%04zu\n", i);
		lb += (size_t)sprintf(b + lb, "b%04zu\n", i);
	}
	arena ar;
	arena_init(&ar);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	ck_assert(udiff_print(&ar, f, "f.dsl", a, la, b, lb));
	fclose(f);
	ck_assert_uint_eq(changed_lines(out), 2 * n);
	ck_assert(strstr(out, "@@ -1,10000 +1,10000 @@\n") != NULL);
	free(out);
	free(a);
	free(b);
	arena_free(&ar);
}
END_TEST

Suite *suite_udiff(void)
{
	Suite *s = suite_create("udiff");
	TCase *tc = tcase_create("diff");
	tcase_add_test(tc, small_cases_are_pinned);
	tcase_add_test(tc, patch_applies_random_diffs);
	tcase_add_test(tc, very_different_texts_fall_back);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
