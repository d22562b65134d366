/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* parse.c - runs the scanner and parser on one file, and expands includes. */
#include "parse.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

typedef struct yy_buffer_state *YY_BUFFER_STATE;
int dsl_yylex_init_extra(parse_ctx *extra, yyscan_t *scanner);
int dsl_yylex_destroy(yyscan_t scanner);
YY_BUFFER_STATE dsl_yy_scan_bytes(const char *bytes, int len, yyscan_t scanner);
void dsl_yy_delete_buffer(YY_BUFFER_STATE b, yyscan_t scanner);

/* A scanner over a file of the source set, with its parse context. */
typedef struct scanner {
	parse_ctx pc;
	yyscan_t sc;
	YY_BUFFER_STATE buf;
} scanner;

static bool scanner_open(scanner *s, arena *ar, diag_ctx *dc, uint32_t file)
{
	const src_file *f = src_get(dc->src, file);
	memset(&s->pc, 0, sizeof(s->pc));
	s->pc.ar = ar;
	s->pc.dc = dc;
	s->pc.file = file;
	s->pc.text = f->text;
	if (dsl_yylex_init_extra(&s->pc, &s->sc) != 0)
		return false;
	s->buf = dsl_yy_scan_bytes(f->text, (int)f->len, s->sc);
	return true;
}

static void scanner_close(scanner *s)
{
	dsl_yy_delete_buffer(s->buf, s->sc);
	dsl_yylex_destroy(s->sc);
}

ast_block *parse_file(arena *ar, diag_ctx *dc, uint32_t file)
{
	scanner s;
	if (!scanner_open(&s, ar, dc, file))
		return ast_block_new(ar);
	dsl_yyparse(s.sc, &s.pc);
	scanner_close(&s);
	return s.pc.root ? s.pc.root : ast_block_new(ar);
}

static bool token_kind(int t, parse_tok_kind *k)
{
	static const struct { int t; parse_tok_kind k; } map[] = {
		{WORD, PTOK_WORD}, {STRING, PTOK_STRING}, {NEWLINE, PTOK_NEWLINE}, {LBRACE, PTOK_LBRACE},
		{RBRACE, PTOK_RBRACE}, {LBRACKET, PTOK_LBRACKET}, {RBRACKET, PTOK_RBRACKET}, {COMMA, PTOK_COMMA},
		{EQUALS, PTOK_EQUALS}, {COLON, PTOK_COLON}, {SEMI, PTOK_SEMI},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].t == t) {
			*k = map[i].k;
			return true;
		}
	return false;
}

bool parse_tokens(arena *ar, diag_ctx *dc, uint32_t file, parse_token **out, size_t *n)
{
	unsigned before = diag_count(dc, SEV_ERROR);
	parse_file(ar, dc, file); /* the grammar's verdict first */
	*out = NULL;
	*n = 0;
	if (diag_count(dc, SEV_ERROR) != before)
		return false;
	scanner sc;
	if (!scanner_open(&sc, ar, dc, file))
		return false;
	size_t cap = 0;
	DSL_YYSTYPE lval;
	src_loc lloc;
	bool ok = true;
	for (int t; (t = dsl_yylex(&lval, &lloc, sc.sc)) != 0;) {
		parse_token tok;
		if (!token_kind(t, &tok.kind)) {
			ok = false;
			break;
		}
		tok.start = lloc.start;
		tok.end = lloc.end;
		ARENA_PUSH(ar, *out, *n, cap, tok);
	}
	scanner_close(&sc);
	return ok && diag_count(dc, SEV_ERROR) == before;
}

typedef struct include_frame {
	const char *real;    /* for cycle detection */
	const char *shown;   /* for messages: the path as resolved from the user's */
	const struct include_frame *up;
	int depth;
	struct include_budget { size_t files, bytes; } *budget; /* shared by the whole compilation */
} include_frame;

const char *parse_include_path(arena *ar, const char *from, const char *path)
{
	if (path[0] == '/')
		return arena_strdup(ar, path);
	const char *slash = strrchr(from, '/');
	if (!slash)
		return arena_strdup(ar, path);
	return arena_printf(ar, "%.*s/%s", (int)(slash - from), from, path);
}

static void expand_includes(arena *ar, diag_ctx *dc, ast_block *blk, uint32_t file,
			    const include_frame *frame);

/* Returns the statements of the included file, or NULL. */
static ast_stmt *include_one(arena *ar, diag_ctx *dc, ast_stmt *st, uint32_t file,
			     const include_frame *frame)
{
	ast_value *arg = st->values->next;
	if (!arg || arg->kind != AST_STRING || arg->next || st->block) {
		diag *d = diag_report(dc, R_INCLUDE, st->loc, "include takes one quoted path");
		diag_help(dc, d, "write `include \"nodes/rack1.dsl\"`");
		return NULL;
	}
	if (frame->depth >= PARSE_MAX_INCLUDE_DEPTH) {
		diag *d = diag_report(dc, R_INCLUDE, arg->loc, "includes nested deeper than %d files",
				      PARSE_MAX_INCLUDE_DEPTH);
		diag_help(dc, d, "include the files from a shallower level");
		return NULL;
	}
	const char *path = parse_include_path(ar, src_get(dc->src, file)->path, arg->text);
	char real[PATH_MAX];
	if (!realpath(path, real)) {
		diag *d = diag_report(dc, R_INCLUDE, arg->loc, "cannot read '%s': %s", path, strerror(errno));
		diag_help(dc, d, "include paths are relative to the including file");
		return NULL;
	}
	/* A parse error quotes the line it is at: an include of /etc/shadow,
	 * /proc/self/environ or a key would print it in a CI job's log. Only
	 * descriptions are included, judged by the file the path resolves to
	 * (a link named x.dsl to a secret is refused too). */
	size_t rlen = strlen(real);
	if (rlen < 4 || strcmp(real + rlen - 4, ".dsl") != 0) {
		size_t plen = strlen(path);
		bool named = plen >= 4 && strcmp(path + plen - 4, ".dsl") == 0;
		diag *d = diag_report(dc, R_INCLUDE, arg->loc, "'%s' is not a .dsl file%s", path,
				      named ? " (it is a link to a file not named *.dsl)" : "");
		diag_help(dc, d, "include descriptions only: name the file *.dsl (its contents are never read otherwise)");
		return NULL;
	}
	for (const include_frame *f = frame; f; f = f->up) {
		if (strcmp(f->real, real) == 0) {
			diag *d = diag_report(dc, R_INCLUDE, arg->loc, "'%s' includes itself", path);
			for (const include_frame *g = frame; g; g = g->up)
				diag_note_at(dc, d, SRC_LOC_NONE, "included from %s", g->shown);
			diag_help(dc, d, "remove this include; each file may be included once per chain");
			return NULL;
		}
	}
	if (frame->budget->files >= PARSE_MAX_INCLUDED_FILES) {
		if (frame->budget->files++ == PARSE_MAX_INCLUDED_FILES) {
			diag *d = diag_report(dc, R_LIMIT, arg->loc, "more than %d included files", PARSE_MAX_INCLUDED_FILES);
			diag_help(dc, d, "include each file once; a file included by several others is read each time");
		}
		return NULL;
	}
	uint32_t id = src_load(dc->src, path, true);
	if (!id) {
		diag *d = diag_report(dc, R_INCLUDE, arg->loc, "cannot read '%s': %s", path, src_strerror(errno));
		diag_help(dc, d, "include a readable text file");
		return NULL;
	}
	frame->budget->files++;
	frame->budget->bytes += dc->src->files[id].len;
	if (frame->budget->bytes > PARSE_MAX_INCLUDED_BYTES) {
		frame->budget->files = PARSE_MAX_INCLUDED_FILES + 1; /* no more includes, no second report */
		diag *d = diag_report(dc, R_LIMIT, arg->loc, "the included files add up to more than 16 MiB");
		diag_help(dc, d, "include each file once; a file included by several others is read each time");
		return NULL;
	}
	dc->src->files[id].included_from = st->loc;
	unsigned before = diag_count(dc, SEV_ERROR);
	ast_block *sub = parse_file(ar, dc, id);
	if (diag_count(dc, SEV_ERROR) != before)
		return NULL;
	include_frame next = {arena_strdup(ar, real), path, frame, frame->depth + 1, frame->budget};
	expand_includes(ar, dc, sub, id, &next);
	return sub->first;
}

static void expand_includes(arena *ar, diag_ctx *dc, ast_block *blk, uint32_t file,
			    const include_frame *frame)
{
	ast_stmt *old = blk->first;
	blk->first = NULL;
	blk->tail = &blk->first;
	while (old) {
		ast_stmt *next = old->next;
		old->next = NULL;
		if (ast_is_word(old->values, "include")) {
			ast_stmt *sub = include_one(ar, dc, old, file, frame);
			while (sub) {
				ast_stmt *sn = sub->next;
				sub->next = NULL;
				ast_block_add(blk, sub);
				sub = sn;
			}
		} else {
			ast_block_add(blk, old);
		}
		old = next;
	}
}

static ast_block *parse_loaded(arena *ar, diag_ctx *dc, uint32_t id, const char *path)
{
	unsigned before = diag_count(dc, SEV_ERROR);
	ast_block *root = parse_file(ar, dc, id);
	if (diag_count(dc, SEV_ERROR) != before)
		return root;
	char real[PATH_MAX];
	struct include_budget budget = {0, 0};
	include_frame top = {arena_strdup(ar, realpath(path, real) ? real : path), path, NULL, 0, &budget};
	expand_includes(ar, dc, root, id, &top);
	return root;
}

ast_block *parse_program(arena *ar, diag_ctx *dc, src_set *src, const char *path)
{
	return parse_program_as(ar, dc, src, path, path);
}

ast_block *parse_program_as(arena *ar, diag_ctx *dc, src_set *src, const char *path, const char *name)
{
	uint32_t id = src_load_as(src, path, name, false); /* the command line's file may be a pipe */
	if (!id)
		return NULL;
	return parse_loaded(ar, dc, id, name);
}

ast_block *parse_program_text(arena *ar, diag_ctx *dc, src_set *src, const char *name, const char *text)
{
	uint32_t id = src_add(src, name, text, strlen(text));
	return parse_loaded(ar, dc, id, name);
}
