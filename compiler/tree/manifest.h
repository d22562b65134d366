/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* manifest.h - out/manifest.json: every generated file with its node,
 * target, sha256, size, mode and on_change class, the digest of each
 * node's tree and the groups of identical nodes.
 *
 * It is written from compact records, straight to its sink in the layout
 * json_dumps(JSON_INDENT(2) | JSON_PRESERVE_ORDER) gives (tests/golden.sh
 * pins the bytes): at 16,384 nodes it is 70 MB, which a jansson tree per
 * file would hold several times over. */
#ifndef DSLC_MANIFEST_H
#define DSLC_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "compiler/base/arena.h"
#include "render.h"

/* manifest.json's format marker: a directory is dslc's only when its
 * manifest says so (and lists only files that are there). */
#define OUTPUT_FORMAT "dslc-manifest"
enum { OUTPUT_FORMAT_VERSION = 1 };

typedef struct manifest_file {
	const char *path;   /* below the unit's directory (listed as <dir>/<path>) */
	const char *target;
	uint8_t sha[RENDER_SHA_SIZE];
	uint32_t size;
	uint16_t mode;
} manifest_file;

/* A unit's entries in the "files" list: bytes off to off + len of the
 * text, from its first entry's "{" line to its last entry's "}". */
typedef struct manifest_span {
	uint64_t off, len;
} manifest_span;

typedef struct manifest_unit {
	const char *host;          /* NULL: the cluster's files */
	const char *dir;           /* nodes/<host> or cluster */
	uint8_t digest[RENDER_SHA_SIZE]; /* hosts: sha256 of "<path> <sha256>\n" over its files */
	manifest_file *files;
	size_t nfiles;
	manifest_span span;        /* set by manifest_emit: where its entries went */
	manifest_span reuse;       /* len > 0: its entries, byte for byte, in the old text */
} manifest_unit;

typedef struct manifest_info {
	const char *generator, *release, *cluster;
	size_t nnodes;
} manifest_info;

/* Receives the text in pieces; non-zero stops the writer and is returned. */
typedef int (*manifest_sink)(void *ctx, const char *data, size_t len);
/* Appends bytes off to off + len of the old text (a unit's reuse span and
 * the separators between adjacent ones); non-zero stops the writer. */
typedef int (*manifest_copy)(void *ctx, uint64_t off, uint64_t len);

/* With copy NULL every entry is written out; with it, units whose reuse
 * span is set are copied from the old text (runs of adjacent ones in one
 * call): a one-node change rewrites that node's entries only. */
int manifest_emit(const manifest_info *info, manifest_unit *const *units, size_t n, arena *ar, manifest_sink sink,
		  manifest_copy copy, void *ctx);

/* A file's on_change class in the manifest (plan.h's disruption classes). */
const char *manifest_on_change(const char *target);

/* What a manifest may weigh: MANIFEST_HEAD_BYTES and MANIFEST_NODE_BYTES a
 * node of its "nodes" count (dslc writes some 4.3 KB a node: 70 MB for
 * 16,384), so a small tree's manifest padded with a large list is refused
 * by its size before it is read. */
enum { MANIFEST_HEAD_BYTES = 1 << 20, MANIFEST_NODE_BYTES = 64 * 1024 };

/* Receives one entry of "files" (an object, released after the call);
 * false stops the reading. */
typedef bool (*manifest_entry_fn)(void *ctx, json_t *entry);
/* DIR's manifest.json (dirfd: DIR) read a piece at a time, each entry of
 * "files" handed to fn once the head says the file is dslc's: its format
 * marker and version, or a generator "dslc ..." and entries from before the
 * marker. 1 when it was read whole and is dslc's; 0 when it is there but
 * not dslc's, or malformed, or fn stopped it; -1 with *err an errno
 * (absent, SRC_ENOTREG, EFBIG past max_bytes or past what its node count
 * allows). Keys dslc does not use are stepped over, not built. */
int manifest_each(int dirfd, size_t max_bytes, manifest_entry_fn fn, void *ctx, int *err);
/* manifest.json under dirfd is a regular file that begins as manifest_emit
 * begins it (format and version): a check of its first bytes, for a tree
 * the cache vouches for, where reading it whole is what the cache saves. */
bool manifest_head_is_ours(int dirfd);

#endif
