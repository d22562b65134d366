/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* ast.h - the syntax tree. The grammar is deliberately generic: a block is a
 * list of statements, a statement is a run of values optionally followed by a
 * block. Which words are keywords, and what arguments they take, is decided by
 * the keyword tables of the resolver (compiler/keywords.c), not by the grammar. */
#ifndef DSLC_AST_H
#define DSLC_AST_H

#include "compiler/base/arena.h"
#include "compiler/base/source.h"

typedef enum ast_kind {
	AST_WORD,   /* bare word: names, numbers with units, host lists, PCI ids */
	AST_STRING, /* "quoted", escapes resolved */
	AST_LIST,   /* [ values ] */
	AST_PUNCT,  /* one of , = : */
} ast_kind;

typedef struct ast_value {
	ast_kind kind;
	src_loc loc;
	const char *text;        /* word, string or punctuation text */
	struct ast_value *items; /* list elements */
	struct ast_value *next;
} ast_value;

typedef struct ast_block ast_block;

typedef struct ast_stmt {
	src_loc loc;
	ast_value *values;
	ast_block *block; /* NULL when the statement has none */
	struct ast_stmt *next;
} ast_stmt;

struct ast_block {
	src_loc loc; /* from '{' to '}' */
	ast_stmt *first;
	ast_stmt **tail;
};

typedef struct ast_vlist {
	ast_value *head, *tail;
} ast_vlist;

ast_value *ast_value_new(arena *a, ast_kind kind, src_loc loc, const char *text);
ast_block *ast_block_new(arena *a);
ast_stmt *ast_stmt_new(arena *a, ast_vlist values, ast_block *block, src_loc loc);
void ast_block_add(ast_block *b, ast_stmt *s);
/* Whether v is the bare word w (a keyword where a statement starts). */
bool ast_is_word(const ast_value *v, const char *w);
void ast_vlist_add(ast_vlist *l, ast_value *v);
const char *ast_kind_name(ast_kind k);

#endif
