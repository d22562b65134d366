/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* context.h - where the cursor is in a description, read from the text as
 * the editor holds it (which may not parse while it is typed): the block
 * it is in (whose keyword tables apply), whether it is in a comment or a
 * string, the word under it and the tokens of its statement before it. */
#ifndef DSLC_LSP_CONTEXT_H
#define DSLC_LSP_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/model/kw.h"

/* A keyword of a block that opens a block of its own, and the tables of
 * the block it opens (none: a block of free keys, as `bios`). Every keyword
 * table is reached from the top level through these rows (tested). */
typedef struct block_open {
	const char *parent; /* kw_table.block of the enclosing block */
	const char *keyword;
	const kw_table *tables[2];
} block_open;
extern const block_open block_opens[];
extern const size_t block_open_count;

enum { CONTEXT_MAX_TOKENS = 32 };

typedef struct lsp_context {
	const kw_table *tables[2]; /* the block's keyword tables (none: a block of free keys, or one not known) */
	size_t ntables;
	const char *block;         /* its kw_table.block, or NULL */
	bool in_comment, in_string;
	size_t comment_start;      /* the '#' (in_comment) */
	size_t string_start;       /* the opening quote (in_string) */
	size_t word_start, word_end; /* the word around the cursor (empty: start == end) */
	/* the tokens of the statement before the word at the cursor, each a
	 * word or one of : , = */
	size_t tok_start[CONTEXT_MAX_TOKENS], tok_end[CONTEXT_MAX_TOKENS];
	size_t ntok;
	size_t first_tok_start, first_tok_end; /* the statement's first token (ntok may have dropped it) */
	bool has_first;
} lsp_context;

void lsp_context_at(const char *text, size_t len, size_t offset, lsp_context *cx);
/* The row for keyword in the block parent, or NULL. */
const block_open *block_open_find(const char *parent, const char *keyword, size_t n);
/* Whether the token i of cx is the text s. */
bool context_tok_is(const lsp_context *cx, const char *text, size_t i, const char *s);

#endif
