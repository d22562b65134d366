/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fix.c - see fix.h. */
#include "fix.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/file.h"
#include "compiler/base/udiff.h"

typedef struct edit {
	src_loc at;
	const char *text;
} edit;

typedef struct edit_list {
	edit *v;
	size_t n, cap;
} edit_list;

static bool overlap(const edit *a, const edit *b)
{
	if (a->at.file != b->at.file)
		return false;
	if (a->at.start == b->at.start && a->at.end == b->at.end)
		return strcmp(a->text, b->text) != 0; /* the same edit twice is one edit */
	if (a->at.start == a->at.end || b->at.start == b->at.end) /* an insertion inside or at a replacement */
		return a->at.start <= b->at.end && b->at.start <= a->at.end;
	return a->at.start < b->at.end && b->at.start < a->at.end;
}

static bool taken(const edit_list *l, const edit *e)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].at.file == e->at.file && l->v[i].at.start == e->at.start && l->v[i].at.end == e->at.end &&
		    strcmp(l->v[i].text, e->text) == 0)
			return true;
	return false;
}

/* Whether all of a finding's edits fit beside the ones taken. */
static bool fits(const edit_list *l, const diag *d)
{
	for (const diag_fix *f = d->fixes; f; f = f->next) {
		edit e = {f->at, f->text};
		for (size_t i = 0; i < l->n; i++)
			if (overlap(&l->v[i], &e))
				return false;
	}
	return true;
}

static int edit_cmp(const void *a, const void *b)
{
	const edit *x = a, *y = b;
	if (x->at.file != y->at.file)
		return x->at.file < y->at.file ? -1 : 1;
	return x->at.start < y->at.start ? -1 : x->at.start > y->at.start;
}

/* True when the file was rewritten with its edits (with diff: when the
 * diff of the edits was printed there, the file left as it is). */
static bool write_file(diag_ctx *dc, const src_file *f, const edit *e, size_t n, fix_result *r, FILE *log, FILE *diff)
{
	const char *why;
	if (!diff && !file_unchanged(dc->ar, f->path, f->text, f->len, "run --fix", &why)) {
		fprintf(log, "dslc: --fix: %s not rewritten: %s\n", f->path, why);
		r->refused++;
		return false;
	}
	buf b;
	buf_init(&b);
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		buf_add(&b, f->text + at, e[i].at.start - at);
		buf_puts(&b, e[i].text);
		at = e[i].at.end;
	}
	buf_add(&b, f->text + at, f->len - at);
	if (diff) {
		bool changed = udiff_print(dc->ar, diff, f->path, f->text, f->len, b.data ? b.data : "", b.len);
		r->files += changed;
		buf_free(&b);
		return changed;
	}
	bool ok = file_replace(dc->ar, f->path, b.data ? b.data : "", b.len, "fix", &why);
	if (ok)
		r->files++;
	else {
		fprintf(log, "dslc: --fix: cannot write %s: %s\n", f->path, why);
		r->refused++;
	}
	buf_free(&b);
	return ok;
}

/* The fixes written (diff NULL) or printed as a diff. */
static fix_result fix_edits(diag_ctx *dc, FILE *log, FILE *diff)
{
	fix_result r = {0};
	edit_list l = {0};
	const diag **taken_diags = arena_alloc(dc->ar, (dc->n + 1) * sizeof(*taken_diags));
	size_t ntaken = 0;
	for (size_t i = 0; i < dc->n; i++) {
		const diag *d = dc->items[i];
		if (!d->fixes)
			continue;
		if (!fits(&l, d)) {
			r.skipped++;
			continue;
		}
		for (const diag_fix *f = d->fixes; f; f = f->next) {
			edit e = {f->at, f->text};
			const src_file *sf = src_get(dc->src, f->at.file);
			if (!sf || f->at.end > sf->len || taken(&l, &e))
				continue;
			ARENA_PUSH(dc->ar, l.v, l.n, l.cap, e);
		}
		taken_diags[ntaken++] = d;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(edit), edit_cmp);
	bool *written = arena_alloc(dc->ar, (dc->src->nfiles + 1) * sizeof(bool));
	for (size_t i = 0; i < l.n;) {
		size_t j = i;
		while (j < l.n && l.v[j].at.file == l.v[i].at.file)
			j++;
		written[l.v[i].at.file] = write_file(dc, src_get(dc->src, l.v[i].at.file), l.v + i, j - i, &r, log, diff);
		i = j;
	}
	/* a finding is fixed when every file of its edits was written: a file
	 * refused (a link, changed meanwhile) fixes nothing */
	for (size_t i = 0; i < ntaken; i++) {
		bool all = true;
		for (const diag_fix *f = taken_diags[i]->fixes; f && all; f = f->next)
			all = f->at.file < dc->src->nfiles && written[f->at.file];
		r.applied += all;
	}
	return r;
}

fix_result fix_apply(diag_ctx *dc, FILE *log)
{
	return fix_edits(dc, log, NULL);
}

fix_result fix_preview(diag_ctx *dc, FILE *log, FILE *diff)
{
	return fix_edits(dc, log, diff);
}
