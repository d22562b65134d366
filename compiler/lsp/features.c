/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* features.c - see features.h. */
#include "features.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "compiler/base/buf.h"
#include "compiler/cli/show.h"
#include "compiler/place/node_plan.h"
#include "compiler/lang/format.h"
#include "compiler/lang/parse.h"
#include "context.h"

/* CompletionItemKind and SymbolKind (LSP 3.17) */
enum { KIND_VALUE = 12, KIND_KEYWORD = 14, KIND_REFERENCE = 18 };
enum { SYM_FILE = 1, SYM_MODULE = 2, SYM_NAMESPACE = 3, SYM_PACKAGE = 4, SYM_CLASS = 5, SYM_FIELD = 8, SYM_INTERFACE = 11,
       SYM_OBJECT = 19, SYM_STRUCT = 23 };

static char *text_of(const lsp_doc *d, size_t start, size_t end)
{
	char *s = malloc(end - start + 1);
	if (!s)
		abort();
	memcpy(s, d->text + start, end - start);
	s[end - start] = '\0';
	return s;
}

static const keyword *keyword_in(const lsp_context *cx, const char *word, const kw_table **table)
{
	for (size_t t = 0; t < cx->ntables; t++)
		for (size_t i = 0; i < cx->tables[t]->n; i++)
			if (strcmp(cx->tables[t]->kws[i].name, word) == 0) {
				*table = cx->tables[t];
				return &cx->tables[t]->kws[i];
			}
	return NULL;
}

/* ---- hover ------------------------------------------------------------- */

static void hover_findings(const lsp_doc *d, size_t offset, buf *out)
{
	const compilation *c = d->comp;
	if (!c || !d->file)
		return;
	const rule_info *shown[8];
	size_t nshown = 0;
	for (size_t i = 0; i < c->dc.n && nshown < 8; i++) {
		const diag *g = c->dc.items[i];
		if (g->loc.file != d->file || offset < g->loc.start || offset > g->loc.end)
			continue;
		bool dup = false;
		for (size_t k = 0; k < nshown; k++)
			dup |= shown[k] == g->rule;
		if (dup)
			continue;
		shown[nshown++] = g->rule;
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		rule_print(g->rule, true, f);
		fclose(f);
		buf_add(out, text, len);
		free(text);
	}
}

/* The nodes a host list word at offset defines: the first one's plan. */
static void hover_node(const lsp_doc *d, size_t offset, buf *out)
{
	const compilation *c = d->comp;
	if (!c || !d->file || !c->m.ar || diag_count(&c->dc, SEV_ERROR))
		return; /* as `dslc show`: a plan is shown only from a clean compilation */
	const node *first = NULL;
	size_t n = 0;
	for (size_t i = 0; i < c->m.nnodes; i++) {
		const node *nd = &c->m.nodes[i];
		if (nd->loc.file == d->file && offset >= nd->loc.start && offset <= nd->loc.end) {
			first = first ? first : nd;
			n++;
		}
	}
	if (!first || !first->spec || !first->spec->plan || !first->spec->plan->ok)
		return;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	show_node_text(&c->m, first, f);
	fclose(f);
	if (n > 1)
		buf_printf(out, "%zu nodes; the first, as `dslc show` prints it:\n\n", n);
	buf_puts(out, "```\n");
	buf_add(out, text, len);
	buf_puts(out, "```\n\n");
	free(text);
}

static void hover_keyword(const lsp_doc *d, const lsp_context *cx, buf *out)
{
	if (cx->in_comment || cx->in_string || cx->word_end == cx->word_start)
		return;
	char *word = text_of(d, cx->word_start, cx->word_end);
	const kw_table *t = NULL;
	const keyword *k = keyword_in(cx, word, &t);
	if (k)
		buf_printf(out, "```\n%s\n```\n\n%s\n\n(`%s` block; `dslc keywords`)\n", k->syntax, k->doc, t->block);
	free(word);
}

json_t *feature_hover(lsp_doc *d, size_t offset, bool utf8)
{
	buf out;
	buf_init(&out);
	hover_findings(d, offset, &out);
	hover_node(d, offset, &out);
	lsp_context cx;
	lsp_context_at(d->text, d->len, offset, &cx);
	hover_keyword(d, &cx, &out);
	json_t *r = NULL;
	if (out.len) {
		r = json_pack("{s:{s:s, s:o}}", "contents", "kind", "markdown", "value", lsp_text(out.data));
		if (cx.word_end > cx.word_start)
			json_object_set_new(r, "range", lsp_range(&d->lines, cx.word_start, cx.word_end, utf8));
	}
	buf_free(&out);
	return r;
}

/* ---- completion -------------------------------------------------------- */

static void add_item(json_t *items, const char *label, int kind, const char *detail, const char *doc)
{
	json_t *it = json_pack("{s:o, s:i}", "label", lsp_text(label), "kind", kind);
	if (detail)
		json_object_set_new(it, "detail", lsp_text(detail));
	if (doc)
		json_object_set_new(it, "documentation", lsp_text(doc));
	json_array_append_new(items, it);
}

/* `kw ${1:name} {` ... `}` from the keyword's syntax. */
static char *block_snippet(const keyword *k)
{
	buf s;
	buf_init(&s);
	buf_puts(&s, k->name);
	const char *lt = strchr(k->syntax, '<'), *brace = strchr(k->syntax, '{');
	if (lt && (!brace || lt < brace)) {
		const char *gt = strchr(lt, '>');
		if (gt)
			buf_printf(&s, " ${1:%.*s}", (int)(gt - lt - 1), lt + 1);
	}
	buf_puts(&s, " {\n\t$0\n}");
	return s.data;
}

static void complete_keywords(const lsp_context *cx, json_t *items)
{
	for (size_t t = 0; t < cx->ntables; t++)
		for (size_t i = 0; i < cx->tables[t]->n; i++) {
			const keyword *k = &cx->tables[t]->kws[i];
			add_item(items, k->name, KIND_KEYWORD, k->syntax, k->doc);
			json_t *it = json_array_get(items, json_array_size(items) - 1);
			if (block_open_find(cx->tables[t]->block, k->name, strlen(k->name)) && strchr(k->syntax, '{') &&
			    !strchr(k->syntax, '|')) {
				char *snip = block_snippet(k);
				json_object_set_new(it, "insertText", lsp_text(snip));
				json_object_set_new(it, "insertTextFormat", json_integer(2));
				free(snip);
			}
		}
}

static void complete_rules(json_t *items)
{
	for (int i = 0; i < R__COUNT; i++)
		if (rule_silenceable(&rule_table[i]))
			add_item(items, rule_table[i].id, KIND_VALUE, severity_name(rule_table[i].severity), rule_table[i].summary);
}

typedef enum name_kind { NAMES_NONE, NAMES_PROFILE, NAMES_HW_OR_PROFILE, NAMES_POOL, NAMES_CONTAINER, NAMES_NODE } name_kind;

/* Which names the statement takes at the cursor, from its tokens so far
 * (the keyword table's syntax: `profile <name> : <hardware|profile>`,
 * `nodes <hostlist> : <profile>`, `container <name> in <pool>`, a mount's
 * `container <name> in <pool>`, `on <hostlist>`, `access_points <hostlist>`). */
static name_kind names_wanted(const lsp_doc *d, const lsp_context *cx)
{
	if (!cx->has_first)
		return NAMES_NONE;
	char *first = text_of(d, cx->first_tok_start, cx->first_tok_end);
	size_t last = cx->ntok ? cx->ntok - 1 : 0;
	bool top = cx->block && strcmp(cx->block, "the top level") == 0, in_mount = cx->block && strcmp(cx->block, "mount") == 0;
	name_kind k = NAMES_NONE;
	if (cx->ntok && context_tok_is(cx, d->text, last, ":") && top)
		k = strcmp(first, "profile") == 0 ? NAMES_HW_OR_PROFILE
		    : strcmp(first, "nodes") == 0 || strcmp(first, "node") == 0 ? NAMES_PROFILE : NAMES_NONE;
	else if (cx->ntok && context_tok_is(cx, d->text, last, "in") && (top || in_mount))
		k = NAMES_POOL;
	else if (in_mount && cx->ntok == 1 && strcmp(first, "container") == 0)
		k = NAMES_CONTAINER;
	else if ((in_mount && strcmp(first, "on") == 0) || (cx->block && strcmp(cx->block, "cluster") == 0 && strcmp(first, "access_points") == 0))
		k = cx->ntok ? NAMES_NODE : NAMES_NONE;
	free(first);
	return k;
}

static void complete_names(const model *m, name_kind k, json_t *items)
{
	if (k == NAMES_HW_OR_PROFILE)
		for (size_t i = 0; i < m->nhws; i++)
			add_item(items, m->hws[i]->name, KIND_REFERENCE, "hardware", NULL);
	if (k == NAMES_PROFILE || k == NAMES_HW_OR_PROFILE)
		for (size_t i = 0; i < m->nprofiles; i++)
			add_item(items, m->profiles[i]->name, KIND_REFERENCE, "profile", NULL);
	if (k == NAMES_POOL)
		for (size_t i = 0; i < m->npools; i++)
			add_item(items, m->pools[i]->name, KIND_REFERENCE, "pool", NULL);
	if (k == NAMES_CONTAINER)
		for (size_t i = 0; i < m->ncontainers; i++)
			add_item(items, m->containers[i]->name, KIND_REFERENCE, "container", NULL);
	if (k == NAMES_NODE)
		for (size_t i = 0; i < m->nnodes; i++)
			add_item(items, m->nodes[i].host, KIND_REFERENCE, "node", NULL);
}

/* `# dslc: allow ` up to the cursor, the rule id being typed after it. */
static bool after_allow(const lsp_doc *d, const lsp_context *cx, size_t offset)
{
	const char *p = d->text + cx->comment_start + 1, *end = d->text + offset;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 12 || strncmp(p, "dslc:", 5) != 0)
		return false;
	p += 5;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 6 || strncmp(p, "allow", 5) != 0 || (p[5] != ' ' && p[5] != '\t'))
		return false;
	for (p += 5; p < end; p++)
		if (*p != ' ' && *p != '\t' && !((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return false;
	return true;
}

json_t *feature_completion(lsp_doc *d, size_t offset, bool utf8)
{
	(void)utf8;
	lsp_context cx;
	lsp_context_at(d->text, d->len, offset, &cx);
	json_t *items = json_array();
	if (cx.in_comment) {
		if (after_allow(d, &cx, offset))
			complete_rules(items);
	} else if (!cx.in_string) {
		name_kind k = names_wanted(d, &cx);
		if (k != NAMES_NONE) {
			if (d->good) /* the last compilation that resolved: the current one when it did */
				complete_names(&d->good->m, k, items);
		} else {
			complete_keywords(&cx, items);
		}
	}
	return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", items);
}

/* ---- definition -------------------------------------------------------- */

static json_t *location(compilation *c, src_loc loc, bool utf8)
{
	char *uri = analysis_file_uri(c, loc.file);
	if (!uri)
		return NULL;
	json_t *l = json_pack("{s:s, s:o}", "uri", uri, "range", analysis_loc_range(c, loc, utf8));
	free(uri);
	return l;
}

/* An include's file, relative to the document's directory. */
static json_t *include_target(const lsp_doc *d, const lsp_context *cx)
{
	if (!d->path || !cx->in_string || !cx->has_first || cx->first_tok_end - cx->first_tok_start != 7 ||
	    strncmp(d->text + cx->first_tok_start, "include", 7) != 0)
		return NULL;
	size_t s = cx->string_start + 1, e = s;
	while (e < d->len && d->text[e] != '"' && d->text[e] != '\n')
		e++;
	char *rel = text_of(d, s, e), real[PATH_MAX];
	arena a;
	arena_init(&a);
	json_t *r = NULL;
	if (realpath(parse_include_path(&a, d->path, rel), real)) {
		char *uri = lsp_path_uri(real);
		r = json_pack("{s:s, s:{s:{s:i, s:i}, s:{s:i, s:i}}}", "uri", uri, "range", "start", "line", 0, "character", 0,
			      "end", "line", 0, "character", 0);
		free(uri);
	}
	free(rel);
	arena_free(&a);
	return r;
}

json_t *feature_definition(lsp_doc *d, size_t offset, bool utf8)
{
	lsp_context cx;
	lsp_context_at(d->text, d->len, offset, &cx);
	if (cx.in_string)
		return include_target(d, &cx);
	compilation *c = d->good;
	if (cx.in_comment || cx.word_end == cx.word_start || !c)
		return NULL;
	char *w = text_of(d, cx.word_start, cx.word_end);
	const model *m = &c->m;
	src_loc at = SRC_LOC_NONE;
	for (size_t i = 0; i < m->nhws && !at.file; i++)
		if (strcmp(m->hws[i]->name, w) == 0)
			at = m->hws[i]->name_loc;
	for (size_t i = 0; i < m->nprofiles && !at.file; i++)
		if (strcmp(m->profiles[i]->name, w) == 0)
			at = m->profiles[i]->name_loc;
	for (size_t i = 0; i < m->npools && !at.file; i++)
		if (strcmp(m->pools[i]->name, w) == 0)
			at = m->pools[i]->name_loc;
	for (size_t i = 0; i < m->ncontainers && !at.file; i++)
		if (strcmp(m->containers[i]->name, w) == 0)
			at = m->containers[i]->name_loc;
	free(w);
	return at.file ? location(c, at, utf8) : NULL;
}

/* ---- outline ----------------------------------------------------------- */

static int symbol_kind(const char *kw)
{
	static const struct { const char *kw; int kind; } kinds[] = {
		{"cluster", SYM_NAMESPACE}, {"hardware", SYM_CLASS}, {"profile", SYM_INTERFACE}, {"nodes", SYM_OBJECT},
		{"node", SYM_OBJECT},       {"pool", SYM_PACKAGE},   {"container", SYM_STRUCT},  {"mount", SYM_MODULE},
		{"lint", SYM_FILE},
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].kw, kw) == 0)
			return kinds[i].kind;
	return SYM_FIELD;
}

static json_t *symbols_of(const ast_block *b, uint32_t file, const text_lines *tl, bool utf8)
{
	json_t *out = json_array();
	for (const ast_stmt *s = b ? b->first : NULL; s; s = s->next) {
		if (!s->block || !s->values || s->loc.file != file)
			continue;
		buf name;
		buf_init(&name);
		int n = 0;
		for (const ast_value *v = s->values; v && n < 4; v = v->next, n++)
			buf_printf(&name, "%s%s", n ? " " : "", v->kind == AST_LIST ? "[...]" : v->text ? v->text : "");
		src_loc all = src_loc_join(s->loc, s->block->loc);
		json_array_append_new(out, json_pack("{s:o, s:i, s:o, s:o, s:o}", "name", lsp_text(name.data), "kind",
						     symbol_kind(s->values->text ? s->values->text : ""), "range",
						     lsp_range(tl, all.start, all.end, utf8), "selectionRange",
						     lsp_range(tl, s->values->loc.start, s->values->loc.end, utf8), "children",
						     symbols_of(s->block, file, tl, utf8)));
		buf_free(&name);
	}
	return out;
}

json_t *feature_symbols(lsp_doc *d, bool utf8)
{
	compilation c;
	compile_init(&c);
	uint32_t id = src_add(&c.src, d->path ? d->path : "untitled.dsl", d->text, d->len);
	ast_block *root = parse_file(&c.ar, &c.dc, id);
	json_t *r = symbols_of(root, id, &d->lines, utf8);
	compile_free(&c);
	return r;
}

/* ---- formatting -------------------------------------------------------- */

json_t *feature_formatting(lsp_doc *d, bool utf8)
{
	if (d->yaml || memchr(d->text, '\0', d->len))
		return NULL;
	compilation c;
	compile_init(&c);
	uint32_t id = src_add(&c.src, d->path ? d->path : "untitled.dsl", d->text, d->len);
	buf out;
	buf_init(&out);
	json_t *r = NULL;
	if (format_file(&c.ar, &c.dc, id, &out)) {
		r = json_array();
		if (out.len != d->len || memcmp(out.data, d->text, d->len) != 0)
			json_array_append_new(r, json_pack("{s:o, s:o}", "range", lsp_range(&d->lines, 0, d->len, utf8), "newText",
							   lsp_text(out.data ? out.data : "")));
	}
	buf_free(&out);
	compile_free(&c);
	return r;
}
