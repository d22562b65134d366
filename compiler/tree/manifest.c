/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/buf.h"
#include "compiler/base/source.h"
#include "compiler/base/value.h"
#include "disruption.h"

/* The text goes to the sink in pieces of about this size. */
enum { PIECE = 1 << 20 };

typedef struct writer {
	buf b;
	manifest_sink sink;
	manifest_copy copy;
	void *ctx;
	int rc;
	uint64_t sent;          /* bytes handed to sink or copy */
	manifest_span pending;  /* old text still to copy, after b */
} writer;

static void flush(writer *w, size_t above)
{
	if (w->b.len > above && !w->rc) {
		w->sent += w->b.len;
		w->rc = w->sink(w->ctx, w->b.data, w->b.len);
		buf_reset(&w->b);
	}
}

static void flush_copy(writer *w)
{
	if (!w->pending.len)
		return;
	flush(w, 0);
	if (!w->rc)
		w->rc = w->copy(w->ctx, w->pending.off, w->pending.len);
	w->sent += w->pending.len;
	w->pending.len = 0;
}

/* The offset in the new text of the next byte put. */
static uint64_t offset(const writer *w)
{
	return w->sent + w->b.len + w->pending.len;
}

static void put(writer *w, const char *s)
{
	buf_puts(&w->b, s);
}

/* The bytes of a JSON string as jansson writes them (no ENSURE_ASCII):
 * quote, backslash and control bytes escaped, UTF-8 as it is (jansson
 * src/dump.c dump_string). */
static void put_escaped(writer *w, const char *s)
{
	buf *b = &w->b;
	const char *run = s;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		buf_add(b, run, (size_t)(s - run));
		run = s + 1;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c == '\r')
			buf_puts(b, "\\r");
		else if (c == '\b')
			buf_puts(b, "\\b");
		else if (c == '\f')
			buf_puts(b, "\\f");
		else
			buf_printf(b, "\\u%04X", c);
	}
	buf_add(b, run, (size_t)(s - run));
}

static void put_str(writer *w, const char *s)
{
	buf_puts(&w->b, "\"");
	put_escaped(w, s);
	buf_puts(&w->b, "\"");
}

static void put_hex(writer *w, const uint8_t sha[RENDER_SHA_SIZE])
{
	char hex[65];
	sha256_to_hex(sha, hex);
	buf_puts(&w->b, "\"");
	buf_add(&w->b, hex, 64);
	buf_puts(&w->b, "\"");
}

static void put_uint(writer *w, uint64_t v)
{
	char d[24];
	int i = sizeof(d);
	do
		d[--i] = (char)('0' + v % 10);
	while (v /= 10);
	buf_add(&w->b, d + i, sizeof(d) - (size_t)i);
}

/* Nodes with the same digest, in the order of their first node: a table
 * of group numbers keyed by the digest, and per node the next one of its
 * group. Plain arrays freed here: when every node differs (the usual
 * case), 65,536 nodes are 65,536 groups, and nothing of them is kept. */
typedef struct same_groups {
	size_t *slot;  /* cap entries: group number, SIZE_MAX empty */
	size_t cap;
	size_t *first, *last, *count; /* per group: unit indices and size */
	size_t *next;  /* per unit: the next unit of its group, SIZE_MAX none */
	size_t n;
} same_groups;

static uint64_t digest_hash(const uint8_t *d)
{
	uint64_t h;
	memcpy(&h, d, sizeof(h)); /* a sha256 is its own hash */
	return h;
}

static bool group_nodes(same_groups *g, manifest_unit *const *units, size_t n)
{
	memset(g, 0, sizeof(*g));
	for (g->cap = 16; g->cap < 2 * n; g->cap *= 2)
		;
	g->slot = malloc(g->cap * sizeof(size_t));
	g->first = malloc((n + 1) * sizeof(size_t));
	g->last = malloc((n + 1) * sizeof(size_t));
	g->count = malloc((n + 1) * sizeof(size_t));
	g->next = malloc((n + 1) * sizeof(size_t));
	if (!g->slot || !g->first || !g->last || !g->count || !g->next)
		return false;
	memset(g->slot, 0xff, g->cap * sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		g->next[i] = SIZE_MAX;
		if (!units[i]->host || !units[i]->nfiles)
			continue;
		size_t at = digest_hash(units[i]->digest) & (g->cap - 1);
		while (g->slot[at] != SIZE_MAX &&
		       memcmp(units[g->first[g->slot[at]]]->digest, units[i]->digest, RENDER_SHA_SIZE) != 0)
			at = (at + 1) & (g->cap - 1);
		size_t k = g->slot[at];
		if (k == SIZE_MAX) {
			k = g->slot[at] = g->n++;
			g->first[k] = g->last[k] = i;
			g->count[k] = 1;
			continue;
		}
		g->next[g->last[k]] = i;
		g->last[k] = i;
		g->count[k]++;
	}
	return true;
}

static void free_groups(same_groups *g)
{
	free(g->slot);
	free(g->first);
	free(g->last);
	free(g->count);
	free(g->next);
}

static void put_identical(writer *w, manifest_unit *const *units, size_t n, arena *ar)
{
	same_groups g;
	if (!group_nodes(&g, units, n)) {
		fputs("dslc: out of memory\n", stderr);
		exit(2);
	}
	put(w, g.n ? "[" : "[]");
	const char **hosts = NULL;
	size_t cap = 0;
	for (size_t k = 0; k < g.n; k++) {
		const manifest_unit *u = units[g.first[k]];
		put(w, k ? ",\n    {\n      \"sha256\": " : "\n    {\n      \"sha256\": ");
		put_hex(w, u->digest);
		put(w, ",\n      \"count\": ");
		put_uint(w, g.count[k]);
		put(w, ",\n      \"hosts\": ");
		if (g.count[k] == 1) { /* hostlist_compress of one host is the host */
			put_str(w, u->host);
		} else {
			if (g.count[k] > cap) {
				cap = g.count[k];
				hosts = arena_alloc(ar, cap * sizeof(*hosts));
			}
			size_t m = 0;
			for (size_t i = g.first[k]; i != SIZE_MAX; i = g.next[i])
				hosts[m++] = units[i]->host;
			put_str(w, hostlist_compress(ar, hosts, m));
		}
		put(w, "\n    }");
		flush(w, PIECE);
	}
	if (g.n)
		put(w, "\n  ]");
	free_groups(&g);
}

static void put_digests(writer *w, manifest_unit *const *units, size_t n)
{
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		if (!units[i]->host || !units[i]->nfiles)
			continue;
		put(w, first ? "{\n    " : ",\n    ");
		first = false;
		put_str(w, units[i]->host);
		put(w, ": ");
		put_hex(w, units[i]->digest);
		flush(w, PIECE);
	}
	put(w, first ? "{}" : "\n  }");
}

static void put_file(writer *w, const manifest_file *f, const char *dir, const char *node, const char *on_change)
{
	put(w, "    {\n      \"path\": ");
	buf_puts(&w->b, "\"");
	put_escaped(w, dir);
	buf_puts(&w->b, "/");
	put_escaped(w, f->path);
	buf_puts(&w->b, "\"");
	if (node) {
		put(w, ",\n      \"node\": ");
		put_str(w, node);
	}
	put(w, ",\n      \"target\": ");
	put_str(w, f->target);
	put(w, ",\n      \"sha256\": ");
	put_hex(w, f->sha);
	put(w, ",\n      \"size\": ");
	put_uint(w, f->size);
	char mode[16];
	snprintf(mode, sizeof(mode), "%04o", f->mode & 07777);
	put(w, ",\n      \"mode\": \"");
	put(w, mode);
	put(w, "\",\n      \"on_change\": ");
	put_str(w, on_change);
	put(w, "\n    }");
}

const char *manifest_on_change(const char *target)
{
	return disruption_classes[disruption_of(target, "")].id;
}

/* A unit's entries: copied from the old text (joined to the copy before
 * when they were adjacent there: the 2 bytes between are ",\n"), or
 * written out. */
static void put_unit(writer *w, manifest_unit *u, bool first, const char **target, const char **on_change)
{
	const char *sep = first ? "\n" : ",\n";
	if (w->copy && u->reuse.len) {
		if (!first && w->pending.len && u->reuse.off == w->pending.off + w->pending.len + 2) {
			w->pending.len += 2;
		} else {
			flush_copy(w);
			put(w, sep);
			w->pending.off = u->reuse.off;
		}
		u->span.off = offset(w);
		u->span.len = u->reuse.len;
		w->pending.len += u->reuse.len;
		return;
	}
	flush_copy(w);
	put(w, sep);
	u->span.off = offset(w);
	for (size_t k = 0; k < u->nfiles; k++) {
		const manifest_file *f = &u->files[k];
		if (f->target != *target) { /* files come grouped by target */
			*target = f->target;
			*on_change = manifest_on_change(f->target);
		}
		if (k)
			put(w, ",\n");
		put_file(w, f, u->dir, u->host, *on_change);
		flush(w, PIECE);
	}
	u->span.len = offset(w) - u->span.off;
}

int manifest_emit(const manifest_info *info, manifest_unit *const *units, size_t n, arena *ar, manifest_sink sink,
		  manifest_copy copy, void *ctx)
{
	writer w = {{0}, sink, copy, ctx, 0, 0, {0, 0}};
	buf_init(&w.b);
	put(&w, "{\n  \"format\": ");
	put_str(&w, OUTPUT_FORMAT);
	put(&w, ",\n  \"format_version\": ");
	put_uint(&w, OUTPUT_FORMAT_VERSION);
	put(&w, ",\n  \"generator\": ");
	put_str(&w, info->generator);
	put(&w, ",\n  \"daos_release\": ");
	put_str(&w, info->release);
	put(&w, ",\n  \"cluster\": ");
	put_str(&w, info->cluster);
	put(&w, ",\n  \"nodes\": ");
	put_uint(&w, info->nnodes);
	put(&w, ",\n  \"node_digests\": ");
	put_digests(&w, units, n);
	put(&w, ",\n  \"identical\": ");
	put_identical(&w, units, n, ar);
	put(&w, ",\n  \"files\": [");
	bool first = true;
	const char *target = NULL, *on_change = NULL;
	for (size_t i = 0; i < n; i++) {
		units[i]->span = (manifest_span){0, 0};
		if (!units[i]->nfiles)
			continue;
		put_unit(&w, units[i], first, &target, &on_change);
		first = false;
	}
	flush_copy(&w);
	put(&w, first ? "]\n}\n" : "\n  ]\n}\n");
	flush(&w, 0);
	buf_free(&w.b);
	return w.rc;
}

bool manifest_head_is_ours(int dirfd)
{
	char want[128], got[128];
	int n = snprintf(want, sizeof(want), "{\n  \"format\": \"%s\",\n  \"format_version\": %u,\n", OUTPUT_FORMAT,
			 (unsigned)OUTPUT_FORMAT_VERSION);
	struct stat st;
	int fd = src_open_regular(dirfd, "manifest.json", true, &st);
	bool ours = fd >= 0 && /* src_open_regular checked the type */
		    pread_all(fd, got, (size_t)n, 0) == (size_t)n && memcmp(got, want, (size_t)n) == 0;
	if (fd >= 0)
		close(fd);
	return ours;
}
