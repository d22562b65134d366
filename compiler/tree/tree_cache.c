/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "tree_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/base/buf.h"
#include "compiler/base/source.h"

/* The format: the magic, a version and a byte-order marker (the cache is
 * local to one machine), the top-level entries, then the units. */
static const char MAGIC[8] = {'D', 'S', 'L', 'C', 'A', 'C', 'H', 'E'};
/* 3: unit keys hashed field by field (output.c unit_key); a key of
 * another version never vouches for a unit. 4: before, a build whose only
 * change was a stray top-level file did not see it (output_top.c
 * scan_extras) and wrote a cache vouching for the root with it. */
enum { CACHE_VERSION = 4, BYTE_ORDER_MARK = 0x01020304 };
/* a unit of millions of entries is not dslc's: refuse rather than trust */
enum { MAX_UNIT_ENTRIES = 1 << 20 };
/* the cache of 65,536 nodes is 20 MB: a larger file is not one dslc wrote */
#define MAX_CACHE_BYTES ((off_t)256 << 20)

void tree_cache_init(tree_cache *c, arena *ar)
{
	memset(c, 0, sizeof(*c));
	strmap_init(&c->units, ar);
}

void tree_cache_add(tree_cache *c, cache_unit *u, arena *ar)
{
	strmap_put(&c->units, u->dir, u);
	ARENA_PUSH(ar, c->order, c->n, c->cap, u);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	/* splitmix64's finaliser over a running sum: a change of any field
	 * changes the fingerprint (collisions need 2^64 luck, not an edit) */
	h += v + 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

uint64_t tree_fp(const struct stat *st)
{
	uint64_t h = mix(0, (uint64_t)st->st_dev);
	h = mix(h, (uint64_t)st->st_ino);
	h = mix(h, (uint64_t)st->st_mode);
	h = mix(h, (uint64_t)st->st_size);
	h = mix(h, (uint64_t)st->st_mtim.tv_sec);
	h = mix(h, (uint64_t)st->st_mtim.tv_nsec);
	h = mix(h, (uint64_t)st->st_ctim.tv_sec);
	return mix(h, (uint64_t)st->st_ctim.tv_nsec);
}

int64_t tree_time(const struct stat *st)
{
	int64_t m = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	int64_t c = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
	return m > c ? m : c;
}

uint64_t cache_fp_at(const cache_unit *u, uint32_t i)
{
	uint64_t v;
	memcpy(&v, u->fp + 8 * (size_t)i, 8);
	return v;
}

int tree_stat_rel(int dirfd, const char *rel, struct stat *st)
{
	return rel && *rel ? fstatat(dirfd, rel, st, AT_SYMLINK_NOFOLLOW) : fstat(dirfd, st);
}

uint64_t tree_fp_at(int dirfd, const char *name, int64_t *time)
{
	struct stat st;
	if (dirfd < 0 || tree_stat_rel(dirfd, name, &st) != 0)
		return 0;
	if (time && tree_time(&st) > *time)
		*time = tree_time(&st);
	return tree_fp(&st);
}

bool tree_cache_describes(const tree_cache *c, int root)
{
	/* matching fingerprints carry the recorded times, which top_time bounds */
	return c->top_time < c->written_at && tree_fp_at(root, NULL, NULL) == c->root_fp &&
	       tree_fp_at(root, "nodes", NULL) == c->nodes_fp;
}

/* ---- reading: every length checked against what is left ---------------- */

/* The file is read a field at a time (pread), so a damaged cache is refused
 * at its first inconsistency without reading the rest: a valid header over
 * 3 GiB of zeros cost 3 GiB of memory when the file was read whole
 * (issue 41). A field's bytes live in the arena (a unit's fingerprints are
 * kept). */
typedef struct reader {
	int fd;
	uint64_t off, end;
	arena *ar;
	bool bad;
} reader;

static bool take_into(reader *r, void *out, size_t n)
{
	if (r->bad || r->end - r->off < n || pread_all(r->fd, out, n, r->off) != n) {
		r->bad = true;
		return false;
	}
	r->off += n;
	return true;
}

static const unsigned char *take(reader *r, size_t n)
{
	unsigned char *p = r->bad || r->end - r->off < n ? NULL : arena_alloc(r->ar, n + 1);
	if (!p || !take_into(r, p, n)) {
		r->bad = true;
		return NULL;
	}
	return p;
}

/* An integer of n bytes in this machine's order (0 past the end). */
static uint64_t take_int(reader *r, size_t n)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;
	if (n == 4)
		take_into(r, &v32, 4);
	else
		take_into(r, &v64, 8);
	return n == 4 ? v32 : v64;
}

#define take_u32(r) ((uint32_t)take_int((r), 4))
#define take_u64(r) take_int((r), 8)

static bool parse(tree_cache *c, reader *r, arena *ar)
{
	const unsigned char *magic = take(r, sizeof(MAGIC));
	if (!magic || memcmp(magic, MAGIC, sizeof(MAGIC)) != 0 || take_u32(r) != CACHE_VERSION ||
	    take_u32(r) != BYTE_ORDER_MARK)
		return false;
	const unsigned char *key = take(r, TREE_KEY_SIZE);
	if (key)
		memcpy(c->manifest_key, key, TREE_KEY_SIZE);
	c->root_fp = take_u64(r);
	c->nodes_fp = take_u64(r);
	c->manifest_fp = take_u64(r);
	c->top_time = (int64_t)take_u64(r);
	uint64_t n = take_u64(r);
	for (uint64_t i = 0; i < n && !r->bad; i++) {
		uint32_t len = take_u32(r);
		const unsigned char *dir = len && len < 4096 ? take(r, len) : NULL;
		key = take(r, TREE_KEY_SIZE);
		uint32_t nfp = take_u32(r);
		int64_t max_time = (int64_t)take_u64(r);
		uint64_t span_off = take_u64(r), span_len = take_u64(r);
		const unsigned char *fp = nfp && nfp <= MAX_UNIT_ENTRIES ? take(r, 8 * (size_t)nfp) : NULL;
		if (!dir || !key || !fp || memchr(dir, '\0', len) || span_off > UINT64_MAX - span_len)
			return false;
		cache_unit *u = arena_alloc(ar, sizeof(*u));
		u->dir = arena_strndup(ar, (const char *)dir, len);
		memcpy(u->key, key, TREE_KEY_SIZE);
		u->nfp = nfp;
		u->max_time = max_time;
		u->fp = fp;
		u->span_off = span_off;
		u->span_len = span_len;
		if (strmap_get(&c->units, u->dir))
			return false;
		tree_cache_add(c, u, ar);
	}
	return !r->bad && r->off == r->end;
}

/* The cache vouches for a tree: only a file this user wrote and nobody else
 * can have changed is believed (a cache planted beside a directory must not
 * make dslc take that directory for its own tree). */
static bool trusted(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH)) &&
	       st->st_size <= MAX_CACHE_BYTES;
}

bool tree_cache_load(tree_cache *c, const char *path, arena *ar)
{
	c->valid = false;
	struct stat st;
	int fd = src_open_regular(AT_FDCWD, path, true, &st);
	if (fd < 0)
		return false;
	unsigned char head[sizeof(MAGIC) + 8];
	uint32_t version, bom;
	/* the header before any allocation: a large file that is not a cache
	 * costs one read, not its size in memory */
	bool ok = trusted(&st) && (size_t)st.st_size >= sizeof(head) &&
		  pread_all(fd, head, sizeof(head), 0) == sizeof(head) && memcmp(head, MAGIC, sizeof(MAGIC)) == 0;
	if (ok) {
		memcpy(&version, head + sizeof(MAGIC), 4);
		memcpy(&bom, head + sizeof(MAGIC) + 4, 4);
		ok = version == CACHE_VERSION && bom == BYTE_ORDER_MARK;
	}
	if (!ok) {
		close(fd);
		return false;
	}
	c->written_at = tree_time(&st);
	reader r = {fd, 0, (uint64_t)st.st_size, ar, false};
	c->valid = parse(c, &r, ar);
	close(fd);
	if (!c->valid) { /* nothing half-read is trusted */
		strmap_init(&c->units, ar);
		c->order = NULL;
		c->n = c->cap = 0;
	}
	return c->valid;
}

static void put_u64(buf *b, uint64_t v)
{
	buf_add(b, &v, 8);
}

static void put_u32(buf *b, uint32_t v)
{
	buf_add(b, &v, 4);
}

/* Hands the bytes so far to fd once they pass about 1 MiB: the cache of
 * 65,536 nodes is 20 MB, which need not be held whole. */
static int spill(buf *b, int fd, size_t above)
{
	if (b->len <= above)
		return 0;
	int rc = write_all(fd, b->data, b->len);
	buf_reset(b);
	return rc;
}

int tree_cache_save(const tree_cache *c, const char *path)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	buf b;
	buf_init(&b);
	buf_add(&b, MAGIC, sizeof(MAGIC));
	put_u32(&b, CACHE_VERSION);
	put_u32(&b, BYTE_ORDER_MARK);
	buf_add(&b, c->manifest_key, TREE_KEY_SIZE);
	put_u64(&b, c->root_fp);
	put_u64(&b, c->nodes_fp);
	put_u64(&b, c->manifest_fp);
	put_u64(&b, (uint64_t)c->top_time);
	put_u64(&b, c->n);
	int rc = 0;
	for (size_t i = 0; i < c->n && !rc; i++) {
		const cache_unit *u = c->order[i];
		put_u32(&b, (uint32_t)strlen(u->dir));
		buf_puts(&b, u->dir);
		buf_add(&b, u->key, TREE_KEY_SIZE);
		put_u32(&b, u->nfp);
		put_u64(&b, (uint64_t)u->max_time);
		put_u64(&b, u->span_off);
		put_u64(&b, u->span_len);
		buf_add(&b, u->fp, 8 * (size_t)u->nfp);
		rc = spill(&b, fd, 1 << 20);
	}
	if (!rc)
		rc = spill(&b, fd, 0);
	int e = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc == 0 && rename(tmp, path) != 0) {
		rc = -1;
		e = errno;
	}
	if (rc != 0)
		unlink(tmp);
	buf_free(&b);
	errno = e;
	return rc;
}
