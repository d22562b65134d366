/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* output.h - the output tree: out/nodes/<host>/..., out/cluster/... and
 * out/manifest.json.
 *
 * The unit of work is a node's directory (and cluster/). Each is rendered
 * (main thread), then judged against the old tree by the tree thread: by
 * the cache beside it (tree_cache.h) when the rendered key and every
 * fingerprint match, else by reading its files. Directories that differ
 * are written into a staging directory beside the tree (unchanged files
 * hard-linked, so they keep inode and mtime); the old nodes/ is reused
 * whole, the staged nodes exchanged into it, under a journal (journal.h)
 * that undoes the renames if the build fails or dies; then the staged tree
 * is swapped in with one renameat2(RENAME_EXCHANGE). An unchanged build
 * writes nothing. */
#ifndef DSLC_OUTPUT_H
#define DSLC_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/base/buf.h"
#include "compiler/model/model.h"
#include "manifest.h"
#include "render.h"

typedef struct output_stats {
	size_t files, written, unchanged, removed;
	size_t stale; /* --check: files that differ, are missing or extra */
} output_stats;

typedef struct output_opts {
	bool check;   /* compare only */
	bool strict;  /* ignore the cache: read every file */
	const char *version;
	render_memo *memo; /* the spec targets already rendered (the self-check's); NULL: a new one */
} output_opts;

/* Returns 0 on success, 1 when --check found a stale tree, 2 on I/O errors
 * (message already printed to stderr). */
int output_build(const model *m, const char *dir, const output_opts *opts, output_stats *st);

/* Waits for a build into dir (no trailing '/') to finish and keeps it from
 * starting: a shared flock on DIR.dslc-lock, held until the fd is closed. -2 when
 * there is no lock file (never made by a reader), -1 on an error (said). */
int output_read_lock(const char *dir);

#endif
