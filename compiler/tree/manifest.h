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

/* DIR's manifest.json (dirfd: DIR) parsed, when it is dslc's: its format
 * marker and version, or a generator "dslc ..." and files from before the
 * marker. NULL with *err an errno (absent, SRC_ENOTREG, EFBIG past
 * max_bytes), or 0 when it is there but not dslc's. */
json_t *manifest_read(int dirfd, size_t max_bytes, int *err);
/* manifest.json under dirfd is a regular file that begins as manifest_emit
 * begins it (format and version): a check of its first bytes, for a tree
 * the cache vouches for, where reading it whole is what the cache saves. */
bool manifest_head_is_ours(int dirfd);

#endif
