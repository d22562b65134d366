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

#include "buf.h"
#include "manifest.h"
#include "model.h"
#include "render.h"

typedef struct output_stats {
	size_t files, written, unchanged, removed;
	size_t stale; /* --check: files that differ, are missing or extra */
} output_stats;

typedef struct output_opts {
	bool check;   /* compare only */
	bool strict;  /* ignore the cache: read every file */
	const char *version;
} output_opts;

/* Returns 0 on success, 1 when --check found a stale tree, 2 on I/O errors
 * (message already printed to stderr). */
int output_build(const model *m, const char *dir, const output_opts *opts, output_stats *st);

/* 1 when name (under dirfd, AT_FDCWD for a path) is a regular file holding
 * exactly data, 0 when it holds other bytes, -1 when it is absent, not a
 * regular file (never followed through a symbolic link) or unreadable. */
int output_same_content(int dirfd, const char *name, const char *data, size_t len);

/* Waits for a build into dir to finish and keeps it from starting: a
 * shared flock on DIR.dslc-lock, held until the fd is closed. -2 when
 * there is no lock file (never made by a reader), -1 on an error (said). */
int output_read_lock(const char *dir);

/* A built tree seen through its cache (DIR.dslc-cache), for dslc plan:
 * which units hold exactly what a rendering gives, without reading them,
 * and each unit's entries of manifest.json without parsing the whole file.
 * NULL when DIR has no cache that describes it as it is (root, nodes/ and
 * manifest.json with the recorded fingerprints). Lives in ar; close it. */
typedef struct output_view output_view;

output_view *output_view_open(const char *dir, const char *version, arena *ar);
void output_view_close(output_view *v);
/* The units the tree has: "nodes/<host>" and "cluster". */
size_t output_view_units(const output_view *v);
const char *output_view_unit(const output_view *v, size_t i);
bool output_view_has(const output_view *v, const char *dir);
/* True when unit dir holds exactly files (rendered, in order), by the
 * cache's word: the same key and every entry's recorded fingerprint, as a
 * build decides (a racy or touched entry is never vouched for). */
bool output_view_same(output_view *v, const char *dir, const rendered *files, size_t n);
/* The unit's entries of manifest.json as a JSON array text in ar (*len
 * bytes); NULL with errno set when the cache has no span for it or the
 * file is short. */
char *output_view_entries(const output_view *v, const char *dir, arena *ar, size_t *len);

#endif
