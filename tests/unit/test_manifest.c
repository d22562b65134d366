/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* test_manifest.c - manifest_each, the manifest read a piece at a time,
 * against jansson reading the same text whole (the oracle): 600 random
 * manifests in every layout jansson writes (compact, indented, sorted),
 * with escapes, brackets inside strings and unknown keys holding nested
 * values before and after "files"; the same entries, in order, and the same
 * verdict on what is not dslc's. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/tree/manifest.h"
#include "unit.h"

typedef struct collected {
	json_t *entries;
} collected;

static bool collect(void *ctx, json_t *e)
{
	json_array_append(((collected *)ctx)->entries, e);
	return true;
}

/* manifest_each on text written as DIR/manifest.json. */
static int scan_text(const char *text, json_t **entries)
{
	char dir[] = "/tmp/dslc-manifest-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	collected c = {json_array()};
	int err;
	int r = manifest_each(dirfd, (size_t)1 << 32, collect, &c, &err);
	close(dirfd);
	unlink(path);
	rmdir(dir);
	*entries = c.entries;
	return r;
}

static unsigned rnd(unsigned *seed, unsigned n)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 8) % n;
}

/* A string with the bytes a reader must step over: quotes, backslashes,
 * brackets, braces, commas, a multi-byte character. */
static json_t *tricky_string(unsigned *seed)
{
	static const char *const parts[] = {"a", "\"", "\\", "]", "}", "[", "{", ",", ":", "\xc3\xa9", " ", "\n", "x"};
	char s[64] = "";
	for (unsigned i = 0, n = 1 + rnd(seed, 8); i < n; i++)
		strcat(s, parts[rnd(seed, sizeof(parts) / sizeof(parts[0]))]);
	return json_string(s);
}

static json_t *nested(unsigned *seed, int depth)
{
	switch (depth > 3 ? rnd(seed, 3) : rnd(seed, 5)) {
	case 0: return tricky_string(seed);
	case 1: return json_integer((json_int_t)rnd(seed, 100000) - 50000);
	case 2: return rnd(seed, 2) ? json_true() : json_null();
	case 3: {
		json_t *a = json_array();
		for (unsigned i = 0, n = rnd(seed, 4); i < n; i++)
			json_array_append_new(a, nested(seed, depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		for (unsigned i = 0, n = rnd(seed, 4); i < n; i++) {
			char k[16];
			snprintf(k, sizeof(k), "k%u", i);
			json_object_set_new(o, k, nested(seed, depth + 1));
		}
		return o;
	}
	}
}

static json_t *random_manifest(unsigned *seed)
{
	json_t *m = json_object();
	json_object_set_new(m, "format", json_string(OUTPUT_FORMAT));
	json_object_set_new(m, "format_version", json_integer(OUTPUT_FORMAT_VERSION));
	json_object_set_new(m, "generator", json_string("dslc 0.1.0"));
	json_object_set_new(m, "nodes", json_integer(3));
	if (rnd(seed, 2))
		json_object_set_new(m, "identical", nested(seed, 0));
	json_t *files = json_array();
	for (unsigned i = 0, n = rnd(seed, 6); i < n; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "path", tricky_string(seed));
		json_object_set_new(e, "node", json_string("gpu001"));
		json_object_set_new(e, "size", json_integer(rnd(seed, 5000)));
		if (rnd(seed, 2))
			json_object_set_new(e, "extra", nested(seed, 1));
		json_array_append_new(files, e);
	}
	json_object_set_new(m, "files", files);
	if (rnd(seed, 2))
		json_object_set_new(m, "zz_after", nested(seed, 0));
	return m;
}

START_TEST(streamed_entries_are_janssons)
{
	unsigned seed = 54;
	static const size_t layouts[] = {JSON_COMPACT, JSON_INDENT(2), JSON_INDENT(0), JSON_INDENT(3) | JSON_SORT_KEYS,
					 JSON_COMPACT | JSON_ENSURE_ASCII, JSON_INDENT(1) | JSON_ENSURE_ASCII};
	unsigned nonempty = 0;
	for (int i = 0; i < 600; i++) {
		json_t *m = random_manifest(&seed);
		size_t flags = layouts[i % 6] | JSON_PRESERVE_ORDER;
		/* sorted keys put "files" before "format": not dslc's order */
		bool head_first = !(flags & JSON_SORT_KEYS);
		char *text = json_dumps(m, flags);
		json_t *got;
		int r = scan_text(text, &got);
		json_t *want = json_object_get(m, "files");
		if (head_first) {
			ck_assert_msg(r == 1, "case %d: manifest_each refused a manifest jansson reads:\n%.300s", i, text);
			ck_assert_msg(json_equal(got, want), "case %d: the entries differ", i);
			nonempty += json_array_size(want) > 0;
		} else {
			ck_assert_msg(r == 0 && json_array_size(got) == 0,
				      "case %d: entries taken before the head said the file is dslc's", i);
		}
		free(text);
		json_decref(got);
		json_decref(m);
	}
	ck_assert_uint_gt(nonempty, 300);
}
END_TEST

START_TEST(what_is_not_dslcs)
{
	json_t *got;
	const char *head = "{\"format\": \"dslc-manifest\", \"format_version\": 1, \"nodes\": 1, ";
	char buf[512];
	/* each not dslc's: no entry handed on, verdict 0 */
	const char *tails[] = {
		"\"files\": [{\"path\": \"a\"}], \"files\": []}", /* files twice */
		"\"files\": [{\"path\": \"a\"}]} x",              /* bytes after the object */
		"\"files\": [{\"path\": \"a\"}]",                 /* cut short */
		"\"files\": [\"a\"]}",                             /* an entry that is not an object */
		"\"x\": [[[[\"]\"}]]], \"files\": [{\"path\": \"a\"}, ]}", /* a trailing comma */
		"\"x\": \"unterminated, \"files\": []}",
	};
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", head, tails[i]);
		int r = scan_text(buf, &got);
		ck_assert_msg(r == 0, "tail %zu: %d for %s", i, r, buf);
		json_decref(got);
	}
	/* another format version, or another tool's manifest: nothing taken */
	ck_assert_int_eq(scan_text("{\"format\": \"dslc-manifest\", \"format_version\": 2, \"files\": [{\"path\": \"a\"}]}", &got), 0);
	ck_assert_uint_eq(json_array_size(got), 0);
	json_decref(got);
	ck_assert_int_eq(scan_text("{\"generator\": \"other 1\", \"files\": [{\"path\": \"a\"}]}", &got), 0);
	json_decref(got);
	/* the manifest of before the marker: a dslc generator and entries */
	ck_assert_int_eq(scan_text("{\"generator\": \"dslc 0.0.9\", \"files\": [{\"path\": \"a\"}]}", &got), 1);
	ck_assert_uint_eq(json_array_size(got), 1);
	json_decref(got);
	ck_assert_int_eq(scan_text("{\"generator\": \"dslc 0.0.9\", \"files\": []}", &got), 0);
	json_decref(got);
	/* past the size its node count allows: EFBIG, unread */
	size_t n = MANIFEST_HEAD_BYTES + MANIFEST_NODE_BYTES + 100;
	char *big = malloc(n + 200);
	int k = snprintf(big, 200, "%s\"pad\": \"", head);
	memset(big + k, 'x', n);
	strcpy(big + k + n, "\", \"files\": [{\"path\": \"a\"}]}");
	ck_assert_int_eq(scan_text(big, &got), -1);
	ck_assert_uint_eq(json_array_size(got), 0);
	json_decref(got);
	free(big);
}
END_TEST

Suite *suite_manifest(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tcase_create("streamed");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, streamed_entries_are_janssons);
	tcase_add_test(tc, what_is_not_dslcs);
	suite_add_tcase(s, tc);
	return s;
}
