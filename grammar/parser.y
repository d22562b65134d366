/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* parser.y - the dslc grammar. Thin: actions only build AST nodes with their
 * locations. Keywords and their arguments are checked by the resolver. */
%code requires {
#include "compiler/lang/parse.h"
typedef void *yyscan_t;
}

%code provides {
int dsl_yylex(DSL_YYSTYPE *lval, DSL_YYLTYPE *lloc, yyscan_t scanner);
}

%code {
#include <string.h>
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                          \
	do {                                                                 \
		if (N) {                                                     \
			(Cur).file = YYRHSLOC(Rhs, 1).file;                  \
			(Cur).start = YYRHSLOC(Rhs, 1).start;                \
			(Cur).end = YYRHSLOC(Rhs, N).end;                    \
		} else {                                                     \
			(Cur).file = YYRHSLOC(Rhs, 0).file;                  \
			(Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;      \
		}                                                            \
	} while (0)
#define YY_LOCATION_PRINT(File, Loc) ((void)0)
#define yylex dsl_yylex
static void yyerror(YYLTYPE *loc, yyscan_t scanner, parse_ctx *pc, const char *msg);
}

%define api.pure full
%define api.prefix {dsl_yy}
%define parse.error custom
%locations
%define api.location.type {src_loc}
%expect 0
%param {yyscan_t scanner}
%parse-param {parse_ctx *pc}

%union {
	const char *str;
	ast_value *val;
	ast_vlist vl;
	ast_block *blk;
	ast_stmt *stmt;
}

%token <str> WORD "word" STRING "string"
%token NEWLINE "end of line"
%token LBRACE "'{'" RBRACE "'}'" LBRACKET "'['" RBRACKET "']'"
%token COMMA "','" EQUALS "'='" COLON "':'" SEMI "';'"

%type <val> value list
%type <vl> values list_items
%type <blk> body block
%type <stmt> opt_last

%%

file:
	  body opt_last          { if ($2) ast_block_add($1, $2); pc->root = $1; }
	;

body:
	  %empty                 { $$ = ast_block_new(pc->ar); }
	| body sep               { $$ = $1; }
	| body values sep        { ast_block_add($1, ast_stmt_new(pc->ar, $2, NULL, @2)); $$ = $1; }
	| body values block      { ast_block_add($1, ast_stmt_new(pc->ar, $2, $3, src_loc_join(@2, @3))); $$ = $1; }
	| body error sep         { yyerrok; $$ = $1; }
	;

opt_last:
	  %empty                 { $$ = NULL; }
	| values                 { $$ = ast_stmt_new(pc->ar, $1, NULL, @1); }
	;

sep:
	  NEWLINE
	| SEMI
	;

block:
	  LBRACE body opt_last RBRACE  { if ($3) ast_block_add($2, $3); $2->loc = @$; $$ = $2; }
	;

values:
	  value                  { $$ = (ast_vlist){0}; ast_vlist_add(&$$, $1); }
	| values value           { $$ = $1; ast_vlist_add(&$$, $2); }
	;

value:
	  WORD                   { $$ = ast_value_new(pc->ar, AST_WORD, @1, $1); }
	| STRING                 { $$ = ast_value_new(pc->ar, AST_STRING, @1, $1); }
	| list                   { $$ = $1; }
	| COMMA                    { $$ = ast_value_new(pc->ar, AST_PUNCT, @1, ","); }
	| EQUALS                    { $$ = ast_value_new(pc->ar, AST_PUNCT, @1, "="); }
	| COLON                    { $$ = ast_value_new(pc->ar, AST_PUNCT, @1, ":"); }
	;

list:
	  LBRACKET list_items RBRACKET     { $$ = ast_value_new(pc->ar, AST_LIST, @$, "[]"); $$->items = $2.head; }
	;

list_items:
	  %empty                 { $$ = (ast_vlist){0}; }
	| list_items value       { $$ = $1; ast_vlist_add(&$$, $2); }
	;

%%

static void yyerror(YYLTYPE *loc, yyscan_t scanner, parse_ctx *pc, const char *msg)
{
	(void)scanner;
	if (!pc->aborted)
		diag_report(pc->dc, R_SYNTAX, *loc, "%s", msg);
}

/* Syntax errors say what went wrong in the user's terms, not the grammar's. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, parse_ctx *pc)
{
	(void)scanner;
	if (pc->aborted)
		return 0;
	yysymbol_kind_t tok = yypcontext_token(ctx);
	const YYLTYPE *loc = yypcontext_location(ctx);
	diag_ctx *dc = pc->dc;
	diag *d;
	switch (tok) {
	case YYSYMBOL_YYEOF:
		d = diag_report(dc, R_SYNTAX, *loc, "end of file inside a block");
		if (pc->brace_depth > 0)
			diag_note_at(dc, d, pc->braces[pc->brace_depth - 1], "the block opened here is not closed");
		diag_help(dc, d, "add the missing '}'");
		break;
	case YYSYMBOL_RBRACE:
		d = diag_report(dc, R_SYNTAX, *loc, "'}' without a matching '{'");
		diag_help(dc, d, "remove the '}' or add the block header it closes");
		break;
	case YYSYMBOL_LBRACE:
		d = diag_report(dc, R_SYNTAX, *loc, "a block must follow its header on the same line");
		diag_help(dc, d, "write the header and '{' on one line, e.g. `cluster tier0 {`; "
			  "after a block, start a new statement on a new line");
		break;
	case YYSYMBOL_RBRACKET:
		d = diag_report(dc, R_SYNTAX, *loc, "']' without a matching '['");
		diag_help(dc, d, "remove the ']' or open the list with '['");
		break;
	default: {
		yysymbol_kind_t exp[4];
		int n = yypcontext_expected_tokens(ctx, exp, 4);
		d = diag_report(dc, R_SYNTAX, *loc, "unexpected %s", yysymbol_name(tok));
		if (n > 0 && n <= 3) {
			char list[128] = "";
			for (int i = 0; i < n; i++) {
				strncat(list, i ? (i + 1 == n ? " or " : ", ") : "", sizeof(list) - strlen(list) - 1);
				strncat(list, yysymbol_name(exp[i]), sizeof(list) - strlen(list) - 1);
			}
			diag_help(dc, d, "expected %s here", list);
		}
		break;
	}
	}
	return 0;
}
