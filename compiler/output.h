/* output.h - the output tree: out/nodes/<host>/... and out/manifest.json.
 *
 * The tree is replaced atomically: everything is rendered and staged in a
 * sibling directory, unchanged files are hard-linked from the old tree (so
 * they are not rewritten), and the staged tree is swapped in with one
 * renameat2(RENAME_EXCHANGE). A failure leaves the previous tree as it was. */
#ifndef DSLC_OUTPUT_H
#define DSLC_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "model.h"

/* manifest.json's format marker: a directory is dslc's only when its
 * manifest says so (and lists only files that are there). */
#define OUTPUT_FORMAT "dslc-manifest"
enum { OUTPUT_FORMAT_VERSION = 1 };

typedef struct output_stats {
	size_t files, written, unchanged, removed;
	size_t stale; /* --check: files that differ, are missing or extra */
} output_stats;

/* Returns 0 on success, 1 when --check found a stale tree, 2 on I/O errors
 * (message already printed to stderr). */
int output_build(const model *m, const char *dir, bool check_only, const char *version, output_stats *st);

void sha256_hex(const void *data, size_t len, char out[65]);

/* DIR's manifest.json (dirfd: DIR) parsed, when it is dslc's: its format
 * marker and version, or a generator "dslc ..." and files from before the
 * marker. NULL with *err an errno (absent, SRC_ENOTREG, EFBIG past
 * max_bytes), or 0 when it is there but not dslc's. */
json_t *output_manifest_read(int dirfd, size_t max_bytes, int *err);

/* 1 when name (under dirfd, AT_FDCWD for a path) is a regular file holding
 * exactly data, 0 when it holds other bytes, -1 when it is absent, not a
 * regular file (never followed through a symlink) or unreadable. */
int output_same_content(int dirfd, const char *name, const char *data, size_t len);

/* One generated file: rel is its path in the tree (nodes/<host>/..., or
 * cluster/...), node NULL for cluster files. Non-zero stops rendering. */
typedef int (*output_file_fn)(void *ctx, const char *rel, const char *node, const char *target, const buf *data, int mode);
/* Renders the files of one node, or of the cluster, without writing them:
 * what build writes and what `dslc plan` compares. 2 when a target refused. */
int output_render_node(const model *m, const node *nd, arena *ar, output_file_fn fn, void *ctx);
int output_render_cluster(const model *m, arena *ar, output_file_fn fn, void *ctx);

#endif
