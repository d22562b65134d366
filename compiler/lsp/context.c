/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* context.c - see context.h. */
#include "context.h"

#include <string.h>

#include "compiler/lint/lint_config.h"

#define TOP "the top level"

const block_open block_opens[] = {
	{TOP, "cluster", {&kw_cluster}},
	{TOP, "hardware", {&kw_hardware}},
	{TOP, "profile", {&kw_profile}},
	{TOP, "nodes", {&kw_profile, &kw_node_addr}},
	{TOP, "node", {&kw_profile, &kw_node_addr}},
	{TOP, "pool", {&kw_pool}},
	{TOP, "container", {&kw_container}},
	{TOP, "mount", {&kw_mount}},
	{TOP, "lint", {&kw_lint}},
	{"mount", "mpiio", {&kw_mpiio}},
	{"cluster", "fabric", {&kw_fabric}},
	{"fabric", "lossless", {&kw_lossless}},
	{"cluster", "kubernetes", {&kw_kube}},
	{"hardware", "numa", {&kw_numa}},
	{"hardware", "bmc", {&kw_bmc}},
	{"profile", "engine", {&kw_engine}},
	{"profile", "kernel", {&kw_kernel}},
	{"profile", "kubelet", {&kw_kubelet}},
	{"profile", "network", {&kw_network}},
	{"network", "link", {&kw_link}},
	{"profile", "bios", {NULL}},
};
const size_t block_open_count = sizeof(block_opens) / sizeof(block_opens[0]);

const block_open *block_open_find(const char *parent, const char *keyword, size_t n)
{
	for (size_t i = 0; i < block_open_count; i++)
		if (strcmp(block_opens[i].parent, parent) == 0 && strlen(block_opens[i].keyword) == n &&
		    strncmp(block_opens[i].keyword, keyword, n) == 0)
			return &block_opens[i];
	return NULL;
}

bool context_tok_is(const lsp_context *cx, const char *text, size_t i, const char *s)
{
	size_t n = cx->tok_end[i] - cx->tok_start[i];
	return i < cx->ntok && strlen(s) == n && strncmp(text + cx->tok_start[i], s, n) == 0;
}

static bool word_char(char c)
{
	return c && !strchr(" \t\r\n{}[],=:;\"#", c);
}

enum { MAX_DEPTH = 64 };

typedef struct scan {
	const block_open *stack[MAX_DEPTH]; /* NULL: the top level; the sentinel `unknown` for a block not known */
	int depth;
	int brackets;
	bool continued; /* after a comma: the statement goes on over the newline */
} scan;

static const block_open unknown = {"", "", {NULL}};

static void set_block(lsp_context *cx, const block_open *b)
{
	cx->ntables = 0;
	cx->block = NULL;
	if (!b) {
		cx->tables[cx->ntables++] = &kw_top;
		cx->block = TOP;
		return;
	}
	if (b == &unknown)
		return;
	for (int i = 0; i < 2; i++)
		if (b->tables[i])
			cx->tables[cx->ntables++] = b->tables[i];
	cx->block = cx->ntables ? cx->tables[0]->block : NULL;
}

static void end_statement(lsp_context *cx)
{
	cx->ntok = 0;
	cx->has_first = false;
}

static void add_token(lsp_context *cx, size_t start, size_t end)
{
	if (!cx->has_first) {
		cx->first_tok_start = start;
		cx->first_tok_end = end;
		cx->has_first = true;
	}
	if (cx->ntok == CONTEXT_MAX_TOKENS) {
		memmove(cx->tok_start, cx->tok_start + 1, (CONTEXT_MAX_TOKENS - 1) * sizeof(size_t));
		memmove(cx->tok_end, cx->tok_end + 1, (CONTEXT_MAX_TOKENS - 1) * sizeof(size_t));
		cx->ntok--;
	}
	cx->tok_start[cx->ntok] = start;
	cx->tok_end[cx->ntok++] = end;
}

/* The block a '{' opens: the last keyword of the statement that opens one
 * in the enclosing block ("A block belongs to the last keyword of the
 * statement", kw.h). */
static const block_open *opened(const lsp_context *cx, const char *text, const scan *sc)
{
	const block_open *top = sc->depth ? sc->stack[sc->depth - 1] : NULL;
	if (top == &unknown)
		return &unknown;
	const char *parent = top ? (top->tables[0] ? top->tables[0]->block : "") : TOP;
	for (size_t i = cx->ntok; i-- > 0;) {
		const block_open *b = block_open_find(parent, text + cx->tok_start[i], cx->tok_end[i] - cx->tok_start[i]);
		if (b)
			return b->tables[0] || b->tables[1] ? b : &unknown;
	}
	return &unknown;
}

void lsp_context_at(const char *text, size_t len, size_t offset, lsp_context *cx)
{
	memset(cx, 0, sizeof(*cx));
	if (offset > len)
		offset = len;
	scan sc = {.depth = 0};
	size_t i = 0;
	bool at_word = false;
	while (i < offset) {
		char c = text[i];
		if (c == '#') {
			size_t s = i;
			while (i < len && text[i] != '\n')
				i++;
			if (i >= offset) {
				cx->in_comment = true;
				cx->comment_start = s;
			}
			continue;
		}
		if (c == '"') {
			size_t s = i++;
			while (i < len && text[i] != '"' && text[i] != '\n')
				i += text[i] == '\\' && i + 1 < len ? 2 : 1;
			if (i >= offset) {
				cx->in_string = true;
				cx->string_start = s;
				break;
			}
			if (i < len && text[i] == '"')
				i++;
			add_token(cx, s, i);
			sc.continued = false;
			continue;
		}
		if (word_char(c)) {
			size_t s = i;
			while (i < len && word_char(text[i]))
				i++;
			if (i >= offset) { /* the word being typed */
				cx->word_start = s;
				at_word = true;
				break;
			}
			add_token(cx, s, i);
			sc.continued = false;
			continue;
		}
		switch (c) {
		case '{':
			if (sc.depth < MAX_DEPTH)
				sc.stack[sc.depth] = opened(cx, text, &sc);
			sc.depth++;
			end_statement(cx);
			break;
		case '}':
			if (sc.depth)
				sc.depth--;
			end_statement(cx);
			break;
		case '[': sc.brackets++; break;
		case ']': sc.brackets -= sc.brackets > 0; break;
		case ',':
			sc.continued = true;
			add_token(cx, i, i + 1);
			break;
		case ':':
		case '=': add_token(cx, i, i + 1); break;
		case ';': end_statement(cx); break;
		case '\n':
			if (!sc.brackets && !sc.continued)
				end_statement(cx);
			break;
		default: break;
		}
		i++;
	}
	if (!at_word)
		cx->word_start = offset;
	cx->word_end = cx->word_start;
	if (!cx->in_string && !cx->in_comment)
		while (cx->word_end < len && word_char(text[cx->word_end]))
			cx->word_end++;
	const block_open *top = sc.depth ? (sc.depth <= MAX_DEPTH ? sc.stack[sc.depth - 1] : &unknown) : NULL;
	set_block(cx, top);
}
