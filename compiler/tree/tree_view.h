/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* tree_view.h - a built output tree seen through its cache
 * (DIR.dslc-cache), for dslc plan: which units hold exactly what a
 * rendering gives, without reading them, and each unit's entries of
 * manifest.json without parsing the whole file. A view decides as a build
 * does (tree_unit.h): a racy or touched entry is never vouched for. */
#ifndef DSLC_TREE_VIEW_H
#define DSLC_TREE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/base/arena.h"
#include "render.h"

typedef struct tree_view tree_view;

/* dir without a trailing '/' (its cache is "<dir>.dslc-cache"). NULL when
 * DIR has no cache that describes it as it is (root, nodes/ and
 * manifest.json with the recorded fingerprints). Lives in ar; close it. */
tree_view *tree_view_open(const char *dir, const char *version, arena *ar);
void tree_view_close(tree_view *v);
/* The units the tree has: "nodes/<host>" and "cluster". */
size_t tree_view_units(const tree_view *v);
const char *tree_view_unit(const tree_view *v, size_t i);
bool tree_view_has(const tree_view *v, const char *dir);
/* True when unit dir holds exactly files (rendered, in order), by the
 * cache's word: the same key and every entry's recorded fingerprint. */
bool tree_view_same(tree_view *v, const char *dir, const rendered *files, size_t n);
/* The unit's entries of manifest.json as a JSON array text in ar (*len
 * bytes); NULL with errno set when the cache has no span for it or the
 * file is short. */
char *tree_view_entries(const tree_view *v, const char *dir, arena *ar, size_t *len);

#endif
