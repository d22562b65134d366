/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "ast.h"

#include <string.h>

ast_value *ast_value_new(arena *a, ast_kind kind, src_loc loc, const char *text)
{
	ast_value *v = arena_alloc(a, sizeof(*v));
	v->kind = kind;
	v->loc = loc;
	v->text = text;
	return v;
}

ast_block *ast_block_new(arena *a)
{
	ast_block *b = arena_alloc(a, sizeof(*b));
	b->tail = &b->first;
	return b;
}

ast_stmt *ast_stmt_new(arena *a, ast_vlist values, ast_block *block, src_loc loc)
{
	ast_stmt *s = arena_alloc(a, sizeof(*s));
	s->values = values.head;
	s->block = block;
	s->loc = loc;
	return s;
}

void ast_block_add(ast_block *b, ast_stmt *s)
{
	*b->tail = s;
	b->tail = &s->next;
}

void ast_vlist_add(ast_vlist *l, ast_value *v)
{
	if (l->tail)
		l->tail->next = v;
	else
		l->head = v;
	l->tail = v;
}

const char *ast_kind_name(ast_kind k)
{
	switch (k) {
	case AST_WORD: return "word";
	case AST_STRING: return "string";
	case AST_LIST: return "list";
	case AST_PUNCT: return "punctuation";
	}
	return "value";
}

bool ast_is_word(const ast_value *v, const char *w)
{
	return v && v->kind == AST_WORD && strcmp(v->text, w) == 0;
}
