/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* parse.h - from files to one AST: the grammar, plus include expansion. */
#ifndef DSLC_PARSE_H
#define DSLC_PARSE_H

#include <stdbool.h>

#include "ast.h"
#include "compiler/base/diag.h"

enum { PARSE_MAX_NESTING = 64, PARSE_MAX_INCLUDE_DEPTH = 16 };
/* A budget for all includes of one compilation: 17 files that each include
 * the next six times must not read 6^16 files. */
enum { PARSE_MAX_INCLUDED_FILES = 1024, PARSE_MAX_INCLUDED_BYTES = 16 * 1024 * 1024 };

/* State shared by the scanner and the parser of one file. */
typedef struct parse_ctx {
	arena *ar;
	diag_ctx *dc;
	uint32_t file;
	const char *text;
	ast_block *root;
	/* scanner state */
	uint32_t offset;
	int bracket_depth;
	bool after_comma;
	src_loc braces[PARSE_MAX_NESTING];
	int brace_depth;
	bool aborted; /* a bound was hit: stop without a cascade */
} parse_ctx;

/* Parses one file already in the source set. Returns its top-level block
 * (possibly partial when there were syntax errors, which are in dc). */
ast_block *parse_file(arena *ar, diag_ctx *dc, uint32_t file);

/* Loads path, parses it and expands top-level includes (relative to the
 * including file, cycles refused, depth bounded). Returns NULL when the main
 * file cannot be read (errno set); include failures are diagnostics. */
ast_block *parse_program(arena *ar, diag_ctx *dc, src_set *src, const char *path);
/* The same, the file known as name (stdin: "/dev/stdin" as "<stdin>", its
 * includes then relative to the working directory). */
ast_block *parse_program_as(arena *ar, diag_ctx *dc, src_set *src, const char *path, const char *name);

/* The path an `include "path"` in the file from names: relative to from's
 * directory, or absolute (in the arena). */
const char *parse_include_path(arena *ar, const char *from, const char *path);

/* A token as the scanner returns it: comments and blanks are not tokens, a
 * newline is one only where it ends a statement (not inside [ ] or after a
 * comma). For `dslc fmt`, which changes only what lies between tokens. */
typedef enum parse_tok_kind {
	PTOK_WORD, PTOK_STRING, PTOK_NEWLINE, PTOK_LBRACE, PTOK_RBRACE, PTOK_LBRACKET, PTOK_RBRACKET,
	PTOK_COMMA, PTOK_EQUALS, PTOK_COLON, PTOK_SEMI
} parse_tok_kind;
typedef struct parse_token {
	parse_tok_kind kind;
	uint32_t start, end; /* byte offsets in the file */
} parse_token;
/* The tokens of a file in the source set; false (with diagnostics) when the
 * file does not parse. */
bool parse_tokens(arena *ar, diag_ctx *dc, uint32_t file, parse_token **out, size_t *n);

/* The same for text already in memory (tests). */
ast_block *parse_program_text(arena *ar, diag_ctx *dc, src_set *src, const char *name, const char *text);

#endif
