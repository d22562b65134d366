/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* tree_unit.h - a unit of the output tree (a node's directory, or
 * cluster/) as its cache sees it: its entries in fingerprint order, its
 * key, its manifest digest, and whether the tree still holds it exactly as
 * the cache recorded. The build (output.c) and dslc plan's view of a built
 * tree (tree_view.c) both decide with these, so they decide alike. */
#ifndef DSLC_TREE_UNIT_H
#define DSLC_TREE_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "compiler/base/arena.h"
#include "render.h"
#include "tree_cache.h"

/* A directory or file of a unit, in fingerprint order: the unit's own
 * directory first, then each directory before the first file below it. */
typedef struct tree_entry {
	const char *rel;  /* below the unit's directory; "" for the unit itself */
	const char *base; /* last component */
	int parent;       /* entry index of its directory, -1 for the unit */
	int file;         /* index in the unit's files, -1 for a directory */
} tree_entry;

/* The entries of one shape of unit: the same file paths in the same order. */
typedef struct tree_layout {
	const char **paths;
	size_t npaths;
	tree_entry *entries;
	size_t nentries;
} tree_layout;

enum { TREE_CLASS_MEMO = 64, TREE_LAYOUT_MEMO = 8 };

/* What the units of a build (or of a view) share: the generator, each
 * target's on_change class and the layouts of their entries. Single
 * threaded; layouts are read-only once made, so another thread may read
 * one it was handed. */
typedef struct tree_units {
	const char *version;
	arena *ar;
	const char *class_target[TREE_CLASS_MEMO], *class_id[TREE_CLASS_MEMO];
	size_t nclasses;
	tree_layout layouts[TREE_LAYOUT_MEMO];
	size_t nlayouts;
} tree_units;

void tree_units_init(tree_units *tu, const char *version, arena *ar);

/* The entries of n files: a layout's when their shape is known (returned,
 * shared), else built in scratch (NULL returned). The first
 * TREE_LAYOUT_MEMO shapes become layouts. */
const tree_layout *tree_unit_entries(tree_units *tu, const rendered *files, size_t n, arena *scratch,
				     tree_entry **entries, size_t *nentries);

/* The identity of a unit's files: paths, modes, targets, on_change classes
 * and bytes, and the generator: everything its manifest entries say. */
void tree_unit_key(tree_units *tu, const rendered *files, size_t n, uint8_t key[TREE_KEY_SIZE]);

/* manifest.json's node digest: sha256 of "<path> <sha256>\n" per file. */
void tree_node_digest(const rendered *files, size_t n, uint8_t digest[RENDER_SHA_SIZE]);

/* The cache's record of unit dir when it vouches for key: the same key,
 * the same number of entries, none of them racy. NULL otherwise. */
const cache_unit *tree_unit_vouched(const tree_cache *c, const char *dir, const uint8_t key[TREE_KEY_SIZE],
				    size_t nentries);

/* Every entry of unit dir below root has the fingerprint cu recorded; fp
 * and *max_time get what stat found (up to the first difference). */
bool tree_unit_same_stat(int root, const char *dir, const cache_unit *cu, const tree_entry *entries, size_t n,
			 uint64_t *fp, int64_t *max_time);

#endif
