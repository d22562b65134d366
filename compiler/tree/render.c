/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "render.h"

#include <stdio.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/strmap.h"
#include "targets/targets.h"

/* What a spec target gave for one spec: its files, or a refusal. */
typedef struct memo_entry {
	rendered *files; /* rel and node unset: they are the node's */
	size_t n, cap;
	bool failed;
} memo_entry;

struct render_memo {
	arena *ar;
	strmap entries; /* "<target index>:<spec address>" -> memo_entry */
};

render_memo *render_memo_new(arena *ar)
{
	render_memo *memo = arena_alloc(ar, sizeof(*memo));
	memo->ar = ar;
	strmap_init(&memo->entries, ar);
	return memo;
}

static void refused(const char *target, const char *host)
{
	if (host)
		fprintf(stderr, "dslc: target %s refused to write for %s: a value failed its safety check (nothing written)\n",
			target, host);
	else
		fprintf(stderr, "dslc: target %s refused to write: a value failed its safety check (nothing written)\n", target);
}

/* Runs a spec target for every index into a memo entry (arena copies). */
static memo_entry *spec_render(const model *m, const node_spec *s, size_t t, arena *ar, buf *b)
{
	memo_entry *e = arena_alloc(ar, sizeof(*e));
	for (int idx = 0;; idx++) {
		buf_reset(b);
		target_file tf = {b, target_table[t].path, 0644, idx};
		target_result r = target_table[t].spec_fn(m, s, &tf);
		if (r == TARGET_SKIP)
			break;
		if (r == TARGET_FAIL) {
			e->failed = true;
			break;
		}
		rendered f = {0};
		f.path = tf.path;
		f.target = target_table[t].name;
		f.data = arena_strndup(ar, b->data ? b->data : "", b->len);
		f.len = b->len;
		f.mode = tf.mode;
		sha256_bytes(f.data, f.len, f.sha);
		ARENA_PUSH(ar, e->files, e->n, e->cap, f);
	}
	return e;
}

static memo_entry *spec_files(const model *m, const node_spec *s, size_t t, render_memo *memo, arena *ar, buf *b)
{
	if (!memo)
		return spec_render(m, s, t, ar, b);
	char key[64];
	snprintf(key, sizeof(key), "%zu:%p", t, (const void *)s);
	memo_entry *e = strmap_get(&memo->entries, key);
	if (!e) {
		e = spec_render(m, s, t, memo->ar, b);
		strmap_put(&memo->entries, arena_strdup(memo->ar, key), e);
	}
	return e;
}

const rendered *render_spec_files(const model *m, const node_spec *s, const char *target, render_memo *memo, size_t *n)
{
	*n = 0;
	for (size_t t = 0; t < target_count; t++) {
		if (!target_table[t].spec_fn || strcmp(target_table[t].name, target) != 0)
			continue;
		buf b;
		buf_init(&b);
		const memo_entry *e = spec_files(m, s, t, memo, memo->ar, &b);
		buf_free(&b);
		if (e->failed)
			return NULL;
		*n = e->n;
		return e->files;
	}
	return NULL;
}

int render_node(const model *m, const node *nd, arena *ar, render_memo *memo, render_fn fn, void *ctx)
{
	buf b;
	buf_init(&b);
	int rc = 0;
	for (size_t t = 0; t < target_count && !rc; t++) {
		if (target_table[t].spec_fn) {
			const memo_entry *e = spec_files(m, nd->spec, t, memo, ar, &b);
			for (size_t i = 0; i < e->n && !rc; i++) {
				rendered f = e->files[i];
				f.rel = arena_printf(ar, "nodes/%s/%s", nd->host, f.path);
				f.node = nd->host;
				rc = fn(ctx, &f);
			}
			if (e->failed && !rc) {
				refused(target_table[t].name, nd->host);
				rc = 2;
			}
			continue;
		}
		for (int idx = 0; !rc; idx++) {
			buf_reset(&b);
			target_file tf = {&b, target_table[t].path, 0644, idx};
			target_result r = target_table[t].fn(m, nd, &tf);
			if (r == TARGET_SKIP)
				break;
			if (r == TARGET_FAIL) {
				refused(target_table[t].name, nd->host);
				rc = 2;
				break;
			}
			rendered f = {arena_printf(ar, "nodes/%s/%s", nd->host, tf.path), tf.path, nd->host,
				      target_table[t].name, b.data ? b.data : "", b.len, tf.mode, {0}};
			sha256_bytes(f.data, f.len, f.sha);
			rc = fn(ctx, &f);
		}
	}
	buf_free(&b);
	return rc;
}

int render_cluster(const model *m, arena *ar, render_fn fn, void *ctx)
{
	buf b;
	buf_init(&b);
	int rc = 0;
	for (size_t t = 0; t < cluster_target_count && !rc; t++) {
		for (int idx = 0; !rc; idx++) {
			buf_reset(&b);
			target_file tf = {&b, cluster_target_table[t].path, cluster_target_table[t].mode, idx};
			target_result r = cluster_target_table[t].fn(m, &tf);
			if (r == TARGET_SKIP)
				break;
			if (r == TARGET_FAIL) {
				refused(cluster_target_table[t].name, NULL);
				rc = 2;
				break;
			}
			rendered f = {arena_printf(ar, "cluster/%s", tf.path), tf.path, NULL, cluster_target_table[t].name,
				      b.data ? b.data : "", b.len, tf.mode, {0}};
			sha256_bytes(f.data, f.len, f.sha);
			rc = fn(ctx, &f);
		}
	}
	buf_free(&b);
	return rc;
}
