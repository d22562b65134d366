/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_doc.h - a YAML file read with libyaml's parser into a small tree
 * whose keys and values keep their byte ranges, so findings in hand-written
 * daos_server.yml files use the same locations as the DSL. */
#ifndef DSLC_YAML_DOC_H
#define DSLC_YAML_DOC_H

#include "compiler/base/diag.h"
#include "compiler/base/strmap.h"

typedef enum ynode_kind { Y_SCALAR, Y_MAP, Y_SEQ } ynode_kind;

typedef struct ynode ynode;

typedef struct ypair {
	ynode *key, *value;
} ypair;

struct ynode {
	ynode_kind kind;
	src_loc loc;
	const char *text;  /* scalars */
	bool quoted;       /* a quoted scalar is always a string */
	ypair *pairs;      /* maps */
	ynode **items;     /* sequences */
	size_t n, cap;
	strmap *index;     /* maps with many keys: key -> first pair's position + 1 */
	bool open;         /* a map or sequence still being read: an alias to it would make a cycle */
};

/* Parses file (already in the source set). Syntax errors and duplicate keys
 * are findings; returns the root or NULL. */
ynode *ydoc_parse(arena *a, diag_ctx *dc, uint32_t file);
/* Parses text held in memory, findings dropped: the root, or NULL when it is
 * not one YAML document without errors (dslc's own files read back). */
ynode *ydoc_parse_text(arena *a, const char *name, const char *text, size_t len);
ynode *ydoc_get(const ynode *map, const char *key);
const ypair *ydoc_pair(const ynode *map, const char *key);

#endif
