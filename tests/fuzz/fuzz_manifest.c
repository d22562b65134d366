/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fuzz_manifest.c - libFuzzer target: manifest_each (compiler/tree/
 * manifest_scan.c), the manifest read a piece at a time, on any bytes as a
 * tree's manifest.json. Beyond "no crash, no sanitizer report": whenever
 * jansson reads the whole text as a dslc manifest (an object whose head,
 * before "files", says so, and whose files are objects), manifest_each
 * reads it too and hands on the same entries, in order. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/tree/manifest.h"

static char dir[64];

static bool collect(void *ctx, json_t *e)
{
	json_array_append((json_t *)ctx, e);
	return true;
}

/* Whether key occurs once in the text (then it is the top level's). */
static bool once(const char *text, size_t size, const char *key)
{
	size_t n = strlen(key);
	const char *a = memmem(text, size, key, n);
	return a && !memmem(a + 1, size - (size_t)(a + 1 - text), key, n);
}

/* What jansson says: the files array when the whole text is a dslc
 * manifest in the order dslc writes it, else NULL. */
static json_t *oracle(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &err);
	if (!json_is_object(root)) {
		json_decref(root);
		return NULL;
	}
	const char *format = json_string_value(json_object_get(root, "format"));
	json_t *version = json_object_get(root, "format_version");
	json_t *files = json_object_get(root, "files");
	bool ok = format && strcmp(format, OUTPUT_FORMAT) == 0 && json_is_integer(version) &&
		  json_integer_value(version) == OUTPUT_FORMAT_VERSION && json_is_array(files);
	/* the head before "files", in the text: where jansson kept the keys */
	const char *text = (const char *)data;
	const void *f = memmem(text, size, "\"files\"", 7), *h = memmem(text, size, "\"format\"", 8),
		   *v = memmem(text, size, "\"format_version\"", 16);
	ok = ok && f && h && v && (const char *)h < (const char *)f && (const char *)v < (const char *)f && once(text, size, "\"files\"") &&
	     once(text, size, "\"format\"") && once(text, size, "\"format_version\"");
	json_t *nodes = json_object_get(root, "nodes");
	ok = ok && (!nodes || (json_is_integer(nodes) && json_integer_value(nodes) >= 0 &&
			       size <= MANIFEST_HEAD_BYTES + (uint64_t)json_integer_value(nodes) * MANIFEST_NODE_BYTES));
	size_t i;
	json_t *e;
	json_array_foreach(ok ? files : NULL, i, e) {
		ok = json_is_object(e);
		if (!ok)
			break;
	}
	json_t *r = ok ? json_incref(files) : NULL;
	json_decref(root);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/dslc-fuzz-manifest-%d", (int)getpid());
		mkdir(dir, 0755);
	}
	char path[128];
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	FILE *fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	json_t *got = json_array();
	int err;
	int r = manifest_each(dirfd, (size_t)1 << 32, collect, got, &err);
	close(dirfd);
	/* an entry is parsed in a window of 64 KiB of its text: below that
	 * the verdicts must agree whatever the blanks inside an entry. jansson
	 * takes a NUL byte between tokens (`1\0,`) as a blank, which RFC 8259
	 * does not: no oracle for such text (manifest_each refuses it, and
	 * dslc writes none) */
	json_t *want = size < 60 * 1024 && !memchr(data, '\0', size) ? oracle(data, size) : NULL;
	if (want && (r != 1 || !json_equal(got, want))) {
		fprintf(stderr, "jansson reads a dslc manifest that manifest_each %s\n", r != 1 ? "refused" : "read otherwise");
		abort();
	}
	if (r != 1 && r != 0 && r != -1)
		abort();
	json_decref(want);
	json_decref(got);
	return 0;
}
