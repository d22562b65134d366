/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* documents.c - see documents.h. */
#include "documents.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/lint/yaml_lint.h"

static char *dup_or_die(const char *s)
{
	char *p = strdup(s);
	if (!p)
		abort();
	return p;
}

/* The overlay: an open document's text for a path that names it. */
static const char *overlay_find(void *ctx, const char *path, size_t *len)
{
	doc_store *s = ctx;
	char buf[PATH_MAX];
	const char *real = realpath(path, buf) ? buf : path;
	for (size_t i = 0; i < s->n; i++) {
		const lsp_doc *d = s->v[i];
		if (d->real && strcmp(d->real, real) == 0) {
			*len = d->len;
			return d->text;
		}
	}
	return NULL;
}

void docs_init(doc_store *s)
{
	memset(s, 0, sizeof(*s));
	s->overlay = (src_overlay){overlay_find, s};
	src_overlay_install(&s->overlay);
}

static void free_reads(lsp_doc *d)
{
	for (size_t i = 0; i < d->nreads; i++)
		free(d->reads[i]);
	free(d->reads);
	d->reads = NULL;
	d->nreads = 0;
}

compilation *docs_new_compilation(void)
{
	compilation *c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	return c;
}

void docs_drop_compilation(compilation *c)
{
	if (c) {
		compile_free(c);
		free(c);
	}
}

void docs_forget_analysis(lsp_doc *d)
{
	if (d->comp != d->good) /* the good one stays until a newer one resolves */
		docs_drop_compilation(d->comp);
	d->comp = NULL;
	d->file = 0;
	json_decref(d->actions);
	d->actions = NULL;
	free_reads(d);
}

static void forget_includers(lsp_doc *d)
{
	for (size_t i = 0; i < d->nincluders; i++)
		free(d->includers[i]);
	free(d->includers);
	d->includers = NULL;
	d->nincluders = 0;
	d->includers_known = false;
}

void docs_set_includers(lsp_doc *d, const char *const *paths, size_t n)
{
	forget_includers(d);
	d->includers = calloc(n + 1, sizeof(*d->includers));
	if (!d->includers)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!(d->includers[i] = strdup(paths[i])))
			abort();
	d->nincluders = n;
	d->includers_known = true;
}

void docs_saved(doc_store *s)
{
	for (size_t i = 0; i < s->n; i++)
		forget_includers(s->v[i]);
}

static void doc_free(lsp_doc *d)
{
	docs_forget_analysis(d);
	forget_includers(d);
	docs_drop_compilation(d->good);
	text_lines_free(&d->lines);
	free(d->uri);
	free(d->path);
	free(d->real);
	free(d->text);
	free(d);
}

void docs_free(doc_store *s)
{
	for (size_t i = 0; i < s->n; i++)
		doc_free(s->v[i]);
	free(s->v);
	src_overlay_install(NULL);
	memset(s, 0, sizeof(*s));
}

lsp_doc *docs_find(doc_store *s, const char *uri)
{
	for (size_t i = 0; uri && i < s->n; i++)
		if (strcmp(s->v[i]->uri, uri) == 0)
			return s->v[i];
	return NULL;
}
void docs_set_text(lsp_doc *d, const char *text, size_t len, long long version)
{
	free(d->text);
	d->text = malloc(len + 1);
	if (!d->text)
		abort();
	memcpy(d->text, text, len);
	d->text[len] = '\0';
	d->len = len;
	d->version = version;
	text_lines_free(&d->lines);
	text_lines_init(&d->lines, d->text, d->len);
}

lsp_doc *docs_open(doc_store *s, const char *uri, const char *text, size_t len, long long version)
{
	lsp_doc *d = docs_find(s, uri);
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d)
			abort();
		d->uri = dup_or_die(uri);
		d->path = lsp_uri_path(uri);
		if (d->path) {
			char buf[PATH_MAX];
			d->real = dup_or_die(realpath(d->path, buf) ? buf : d->path);
			d->yaml = yaml_lint_is_yaml(d->path);
		}
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 8;
			s->v = realloc(s->v, s->cap * sizeof(*s->v));
			if (!s->v)
				abort();
		}
		s->v[s->n++] = d;
	}
	docs_set_text(d, text, len, version);
	return d;
}

void docs_close(doc_store *s, lsp_doc *d)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == d) {
			memmove(s->v + i, s->v + i + 1, (s->n - i - 1) * sizeof(*s->v));
			s->n--;
			break;
		}
	doc_free(d);
}

bool docs_reads(const lsp_doc *d, const char *real)
{
	for (size_t i = 0; i < d->nreads; i++)
		if (strcmp(d->reads[i], real) == 0)
			return true;
	return false;
}
