/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* format.c - see format.h: one canonical layout for a description.
 *
 * The formatter changes only what lies between the scanner's tokens: the
 * indentation, the blanks between two tokens that do not touch (and the one
 * before a block's '{'), blank lines, and the column of trailing comments. Tokens, which tokens touch
 * (the resolver glues touching tokens: ERR,MGMT=DEBUG), and where
 * statements end are kept; the result is scanned again and compared, so a
 * formatted file is the same program by construction and by check. */
#include "format.h"

#include <string.h>

#include "parse.h"

enum { FMT_INDENT = 2, FMT_CONTINUATION = 4 };

/* One physical line of the source, as the formatter sees it. */
typedef struct fmt_line {
	size_t first, ntok;   /* its tokens (no NEWLINE) in the token array */
	const char *comment;  /* "# ..." without trailing blanks, or NULL */
	size_t comment_len;
	int comment_col;      /* the comment's column in the source */
	int depth;            /* braces open at its start */
	bool continuation;    /* inside [ ] or after a trailing comma */
	bool blank;
	/* the layout */
	int indent;
	bool aligned;         /* a `key value` line in a run aligned on its value */
	int value_col;        /* aligned: the value's column after the indent */
	buf code;             /* the rendered tokens, without indent */
} fmt_line;

typedef struct fmt_ctx {
	const char *text;
	size_t len;
	parse_token *tok;
	size_t ntok;
	fmt_line *lines;
	size_t nlines;
} fmt_ctx;

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Splits the text into lines and gives each its tokens and comment. */
static void split_lines(arena *a, fmt_ctx *f)
{
	size_t n = 1;
	for (size_t i = 0; i < f->len; i++)
		n += f->text[i] == '\n';
	f->lines = arena_alloc(a, n * sizeof(*f->lines));
	size_t t = 0, start = 0;
	for (size_t l = 0; l < n; l++) {
		size_t end = start;
		while (end < f->len && f->text[end] != '\n')
			end++;
		fmt_line *ln = &f->lines[l];
		memset(ln, 0, sizeof(*ln));
		while (t < f->ntok && f->tok[t].kind == PTOK_NEWLINE)
			t++;
		ln->first = t;
		while (t < f->ntok && f->tok[t].start < end) {
			if (f->tok[t].kind != PTOK_NEWLINE)
				ln->ntok++;
			t++;
		}
		/* what is left after the last token is blanks and a comment */
		size_t after = ln->ntok ? f->tok[ln->first + ln->ntok - 1].end : start;
		while (after < end && is_blank(f->text[after]))
			after++;
		if (after < end && f->text[after] == '#') {
			size_t e = end;
			while (e > after && is_blank(f->text[e - 1]))
				e--;
			ln->comment = f->text + after;
			ln->comment_len = e - after;
			ln->comment_col = (int)(after - start);
		}
		ln->blank = !ln->ntok && !ln->comment;
		start = end + 1;
	}
	f->nlines = n;
	if (f->len && f->text[f->len - 1] == '\n')
		f->nlines--; /* the empty "line" after the last newline */
}

/* Depth, continuation and indentation of every line. */
static void nesting(fmt_ctx *f)
{
	int depth = 0, brackets = 0;
	bool after_comma = false;
	for (size_t l = 0; l < f->nlines; l++) {
		fmt_line *ln = &f->lines[l];
		ln->depth = depth;
		ln->continuation = brackets > 0 || after_comma;
		for (size_t i = ln->first; i < ln->first + ln->ntok; i++) {
			parse_tok_kind k = f->tok[i].kind;
			depth += k == PTOK_LBRACE ? 1 : k == PTOK_RBRACE ? -1 : 0;
			brackets += k == PTOK_LBRACKET ? 1 : k == PTOK_RBRACKET ? -1 : 0;
			if (depth < 0)
				depth = 0;
			if (brackets < 0)
				brackets = 0;
		}
		if (ln->ntok)
			after_comma = f->tok[ln->first + ln->ntok - 1].kind == PTOK_COMMA;
		bool closes = ln->ntok && f->tok[ln->first].kind == PTOK_RBRACE;
		int d = ln->depth - (closes && ln->depth > 0);
		ln->indent = d * FMT_INDENT + (ln->continuation ? FMT_CONTINUATION : 0);
	}
}

static size_t gap_before(const fmt_ctx *f, size_t i)
{
	return f->tok[i].start - f->tok[i - 1].end;
}

/* A `key value` line: a word, then a token it does not touch, no block. */
static bool kv_line(const fmt_ctx *f, const fmt_line *ln)
{
	if (ln->ntok < 2 || ln->continuation || f->tok[ln->first].kind != PTOK_WORD || !gap_before(f, ln->first + 1))
		return false;
	for (size_t i = ln->first; i < ln->first + ln->ntok; i++)
		if (f->tok[i].kind == PTOK_LBRACE || f->tok[i].kind == PTOK_RBRACE)
			return false;
	return true;
}

/* The lines that stay, in order: no blank line first or last, none twice,
 * none just inside a block's braces. */
static size_t *kept_lines(arena *a, const fmt_ctx *f, size_t *n)
{
	size_t *keep = arena_alloc(a, (f->nlines + 1) * sizeof(*keep));
	*n = 0;
	for (size_t l = 0; l < f->nlines; l++) {
		const fmt_line *ln = &f->lines[l];
		if (!ln->blank) {
			bool closes = ln->ntok && f->tok[ln->first].kind == PTOK_RBRACE;
			if (closes && *n && f->lines[keep[*n - 1]].blank)
				(*n)--;
			keep[(*n)++] = l;
			continue;
		}
		if (!*n || f->lines[keep[*n - 1]].blank)
			continue;
		const fmt_line *prev = &f->lines[keep[*n - 1]];
		if (prev->ntok && f->tok[prev->first + prev->ntok - 1].kind == PTOK_LBRACE)
			continue;
		keep[(*n)++] = l;
	}
	while (*n && f->lines[keep[*n - 1]].blank)
		(*n)--;
	return keep;
}

/* Runs of `key value` lines at one depth align their values when one of
 * them already does (a gap of two or more blanks): at one column past the
 * longest key. */
static void align_values(fmt_ctx *f, const size_t *keep, size_t n)
{
	for (size_t i = 0; i < n;) {
		int depth = f->lines[keep[i]].depth, widest = 0;
		bool aligned = false;
		size_t j = i;
		for (; j < n && kv_line(f, &f->lines[keep[j]]) && f->lines[keep[j]].depth == depth; j++) {
			const fmt_line *m = &f->lines[keep[j]];
			int w = (int)(f->tok[m->first].end - f->tok[m->first].start);
			widest = w > widest ? w : widest;
			aligned |= gap_before(f, m->first + 1) >= 2;
		}
		for (size_t k = i; k < j; k++) {
			f->lines[keep[k]].aligned = aligned;
			f->lines[keep[k]].value_col = widest + 1;
		}
		i = j > i ? j : i + 1;
	}
}

/* A line's tokens: touching tokens stay touching; otherwise one blank, or
 * two where the source has two or more (settings side by side:
 * `iommu pt  irqaffinity os`); an aligned value at its column. */
static void render_code(const fmt_ctx *f, fmt_line *ln)
{
	buf_init(&ln->code);
	for (size_t i = ln->first; i < ln->first + ln->ntok; i++) {
		if (i > ln->first) {
			size_t g = gap_before(f, i);
			if (ln->aligned && i == ln->first + 1) {
				for (size_t c = ln->code.len; c < (size_t)ln->value_col; c++)
					buf_add(&ln->code, " ", 1);
			} else if (g) {
				buf_add(&ln->code, "  ", g >= 2 ? 2 : 1);
			} else if (f->tok[i].kind == PTOK_LBRACE) {
				/* `roce{`: a block's brace gets its blank. Touching, it
				 * would start a word's {group} wherever the block's text
				 * fits one (`roce{ gid_index\t3 }` is a block only while
				 * its tab, which a group does not take, is there) */
				buf_add(&ln->code, " ", 1);
			}
		}
		buf_add(&ln->code, f->text + f->tok[i].start, f->tok[i].end - f->tok[i].start);
	}
}

/* Trailing comments of consecutive lines share a column: the furthest of
 * where each was and two past the longest code. */
static void comment_columns(const fmt_ctx *f, const size_t *keep, size_t n, int *col)
{
	for (size_t i = 0; i < n;) {
		const fmt_line *ln = &f->lines[keep[i]];
		if (!ln->comment || !ln->ntok) {
			i++;
			continue;
		}
		size_t j = i;
		int c = 0;
		while (j < n && f->lines[keep[j]].comment && f->lines[keep[j]].ntok) {
			const fmt_line *m = &f->lines[keep[j]];
			int end = m->indent + (int)m->code.len + 2;
			c = m->comment_col > c ? m->comment_col : c;
			c = end > c ? end : c;
			j++;
		}
		for (size_t k = i; k < j; k++)
			col[k] = c;
		i = j;
	}
}

static void emit(const fmt_ctx *f, const size_t *keep, size_t n, const int *col, buf *out)
{
	for (size_t i = 0; i < n; i++) {
		const fmt_line *ln = &f->lines[keep[i]];
		if (ln->blank) {
			buf_add(out, "\n", 1);
			continue;
		}
		for (int s = 0; s < ln->indent; s++)
			buf_add(out, " ", 1);
		buf_add(out, ln->code.data ? ln->code.data : "", ln->code.len);
		if (ln->comment) {
			int at = ln->indent + (int)ln->code.len;
			for (int s = at; ln->ntok && s < col[i]; s++)
				buf_add(out, " ", 1);
			buf_add(out, ln->comment, ln->comment_len);
		}
		buf_add(out, "\n", 1);
	}
}

/* The comments of a text, in order, for the check. */
static bool same_comments(const fmt_ctx *a, const fmt_ctx *b)
{
	size_t i = 0, j = 0;
	for (;;) {
		while (i < a->nlines && !a->lines[i].comment)
			i++;
		while (j < b->nlines && !b->lines[j].comment)
			j++;
		if (i == a->nlines || j == b->nlines)
			return i == a->nlines && j == b->nlines;
		const fmt_line *x = &a->lines[i++], *y = &b->lines[j++];
		if (x->comment_len != y->comment_len || memcmp(x->comment, y->comment, x->comment_len) != 0 ||
		    !x->ntok != !y->ntok)
			return false;
	}
}

/* A statement separator that only repeats one (an empty statement): a
 * newline first in the file, after another newline or right after '{', or
 * the last token. Blank lines are such newlines, and the one a file without
 * a final newline gets: dropping or adding them changes no statement. */
static bool redundant_newline(const fmt_ctx *f, size_t i)
{
	if (f->tok[i].kind != PTOK_NEWLINE)
		return false;
	if (i == 0 || f->tok[i - 1].kind == PTOK_NEWLINE || f->tok[i - 1].kind == PTOK_LBRACE)
		return true;
	size_t k = i + 1;
	while (k < f->ntok && f->tok[k].kind == PTOK_NEWLINE)
		k++;
	return k == f->ntok;
}

/* The same program: the same tokens (but redundant newlines), touching the
 * same neighbours. */
static bool same_tokens(const fmt_ctx *a, const fmt_ctx *b)
{
	size_t i = 0, j = 0;
	for (;;) {
		while (i < a->ntok && redundant_newline(a, i))
			i++;
		while (j < b->ntok && redundant_newline(b, j))
			j++;
		if (i == a->ntok || j == b->ntok)
			return i == a->ntok && j == b->ntok;
		const parse_token *x = &a->tok[i], *y = &b->tok[j];
		if (x->kind != y->kind || x->end - x->start != y->end - y->start ||
		    memcmp(a->text + x->start, b->text + y->start, x->end - x->start) != 0)
			return false;
		/* touching matters between values; a newline and a block's
		 * brace are not one */
		if (i && j && x->kind != PTOK_NEWLINE && x->kind != PTOK_LBRACE && a->tok[i - 1].kind != PTOK_NEWLINE &&
		    (x->start == a->tok[i - 1].end) != (y->start == b->tok[j - 1].end))
			return false;
		i++;
		j++;
	}
}

static bool scan(arena *a, diag_ctx *dc, uint32_t file, fmt_ctx *f)
{
	const src_file *sf = src_get(dc->src, file);
	memset(f, 0, sizeof(*f));
	f->text = sf->text;
	f->len = sf->len;
	if (!parse_tokens(a, dc, file, &f->tok, &f->ntok))
		return false;
	split_lines(a, f);
	nesting(f);
	return true;
}

bool format_file(arena *a, diag_ctx *dc, uint32_t file, buf *out)
{
	fmt_ctx f;
	if (!scan(a, dc, file, &f))
		return false;
	size_t n;
	size_t *keep = kept_lines(a, &f, &n);
	align_values(&f, keep, n);
	for (size_t i = 0; i < n; i++)
		render_code(&f, &f.lines[keep[i]]);
	int *col = arena_alloc(a, (n + 1) * sizeof(*col));
	comment_columns(&f, keep, n, col);
	emit(&f, keep, n, col, out);
	for (size_t i = 0; i < n; i++)
		buf_free(&f.lines[keep[i]].code);
	/* the check: the formatted text scans to the same program */
	const src_file *sf = src_get(dc->src, file);
	uint32_t again = src_add(dc->src, arena_printf(a, "%s (formatted)", sf->path), out->data ? out->data : "", out->len);
	fmt_ctx g;
	diag_ctx check;
	diag_init(&check, a, dc->src);
	bool ok = scan(a, &check, again, &g) && same_tokens(&f, &g) && same_comments(&f, &g);
	if (!ok) {
		diag *d = diag_report(dc, R_INTERNAL_CONSISTENCY, SRC_LOC_NONE, "dslc fmt would change what %s means; "
				      "it is left as it is", sf->path);
		diag_help(dc, d, "report this as a dslc bug, with the file");
	}
	return ok;
}
