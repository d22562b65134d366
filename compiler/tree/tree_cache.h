/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* tree_cache.h - what the last build left in its output tree, kept beside
 * it in DIR.dslc-cache: per node directory (and cluster/) the key of its
 * generated files (paths, modes, sha256) and a fingerprint of every
 * directory and file as stat saw it after the build (device, inode, mode,
 * size, mtime, ctime), and where its entries are in manifest.json. A rebuild that renders the same key and finds the
 * same fingerprints knows the directory holds exactly those bytes without
 * reading it: ctime cannot be set back, so an edit shows.
 *
 * Racy entries (git's "racily clean" problem): a file changed within the
 * same timestamp tick as the one recorded keeps its times. An entry whose
 * time is not older than the cache file itself is never trusted; its
 * directory is compared by content. The cache only saves reading: a
 * missing, damaged or foreign cache means every file is compared. */
#ifndef DSLC_TREE_CACHE_H
#define DSLC_TREE_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "compiler/base/arena.h"
#include "compiler/base/strmap.h"

enum { TREE_KEY_SIZE = 32 };

typedef struct cache_unit {
	const char *dir;          /* "nodes/<host>" or "cluster" */
	uint8_t key[TREE_KEY_SIZE];
	uint32_t nfp;
	int64_t max_time;         /* the newest mtime or ctime of its entries, ns */
	const unsigned char *fp;  /* nfp fingerprints, 8 bytes each (unaligned in a loaded cache) */
	uint64_t span_off, span_len; /* its entries in manifest.json (manifest.h), len 0 unknown */
} cache_unit;

typedef struct tree_cache {
	bool valid;
	int64_t written_at;       /* the cache file's mtime, ns: entries at or after it are racy */
	uint8_t manifest_key[TREE_KEY_SIZE];
	uint64_t root_fp, nodes_fp, manifest_fp;
	int64_t top_time;         /* newest time of root, nodes/ and manifest.json */
	strmap units;             /* dir -> cache_unit * */
	cache_unit **order;
	size_t n, cap;
} tree_cache;

void tree_cache_init(tree_cache *c, arena *ar);
/* Loads path; false (c->valid false) when absent, damaged or foreign. */
bool tree_cache_load(tree_cache *c, const char *path, arena *ar);
/* Writes path atomically (path.tmp, then rename). 0, or -1 with errno. */
int tree_cache_save(const tree_cache *c, const char *path);
void tree_cache_add(tree_cache *c, cache_unit *u, arena *ar);

uint64_t tree_fp(const struct stat *st);
int64_t tree_time(const struct stat *st); /* max(mtime, ctime) in ns */
uint64_t cache_fp_at(const cache_unit *u, uint32_t i);

/* stat of rel below dirfd, never through a symbolic link; "" or NULL:
 * dirfd itself. */
int tree_stat_rel(int dirfd, const char *rel, struct stat *st);
/* The fingerprint of name below dirfd (NULL: dirfd), 0 when it cannot be
 * stat'ed; *time (when given) raised to its time. */
uint64_t tree_fp_at(int dirfd, const char *name, int64_t *time);
/* The loaded cache describes the tree at root as it is: its root and
 * nodes/ keep the recorded fingerprints (so it has the recorded units). */
bool tree_cache_describes(const tree_cache *c, int root);

#endif
