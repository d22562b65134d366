/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* render.h - the files of a node or of the cluster, rendered in memory with
 * their sha256, in the order the tree and the manifest list them: what
 * `dslc build` writes and `dslc plan` compares.
 *
 * A spec target (its function takes the node's spec, never the node) gives
 * the same bytes for every node of that spec: render_node renders it once
 * per spec and hands the same bytes and digest to every node (the memo). */
#ifndef DSLC_RENDER_H
#define DSLC_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/base/arena.h"
#include "compiler/base/sha256.h"
#include "compiler/model/model.h"

enum { RENDER_SHA_SIZE = SHA256_SIZE };

typedef struct rendered {
	const char *rel;    /* nodes/<host>/<path> or cluster/<path> (in the caller's arena) */
	const char *path;   /* <path>: below the node's or the cluster's directory */
	const char *node;   /* host, NULL for cluster files */
	const char *target; /* the table's name, a static string */
	const char *data;
	size_t len;
	int mode;
	uint8_t sha[RENDER_SHA_SIZE];
} rendered;

/* Called once per file; non-zero stops rendering and is returned. */
typedef int (*render_fn)(void *ctx, const rendered *f);

typedef struct render_memo render_memo;

/* A memo for one model's spec targets, in ar (freed with it). */
render_memo *render_memo_new(arena *ar);

/* The files spec target `target` (daos_server, daos_agent) gives every node
 * of spec s, rendered once through the memo: the bytes the build writes.
 * NULL with *n = 0 when the target refused, *n = 0 when it writes nothing
 * for this spec (daos_server in pods: the file is the group's ConfigMap). */
const rendered *render_spec_files(const model *m, const node_spec *s, const char *target, render_memo *memo, size_t *n);

/* ar: where rel is allocated. memo may be NULL (no sharing). 2 when a
 * target refused (message printed), else fn's first non-zero or 0. */
int render_node(const model *m, const node *nd, arena *ar, render_memo *memo, render_fn fn, void *ctx);
int render_cluster(const model *m, arena *ar, render_fn fn, void *ctx);


#endif
