/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* analysis.c - see analysis.h. */
#include "analysis.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/strmap.h"
#include "compiler/cli/lint_files.h"
#include "compiler/lint/lint_config.h"

enum { LSP_SEV_ERROR = 1, LSP_SEV_WARNING = 2, LSP_SEV_INFORMATION = 3 };

/* The rules the repository's .dslc-lint disables (found from the server's
 * working directory, the editor's workspace, as `dslc lint` finds it).
 * A settings file that is wrong disables nothing: lint says why. */
static void settings_disabled(bool disabled[R__COUNT])
{
	memset(disabled, 0, R__COUNT * sizeof(*disabled));
	arena a;
	arena_init(&a);
	const char *untrusted; /* not read: another user's settings (the command line says so) */
	const char *path = lint_config_find(&a, &untrusted);
	lint_config cfg;
	compilation comp;
	memset(&comp, 0, sizeof(comp));
	if (path && lint_config_read(&cfg, &comp, path) && !diag_count(&comp.dc, SEV_ERROR)) {
		memcpy(disabled, cfg.disabled, R__COUNT * sizeof(*disabled));
		bool enabled[R__COUNT] = {0}; /* on for some paths: compiled on, dropped where no section enables it */
		lint_paths_enabled(&cfg, enabled);
		for (int r = 0; r < R__COUNT; r++)
			disabled[r] &= !enabled[r];
	}
	if (path)
		compile_free(&comp);
	arena_free(&a);
}

/* The settings' path sections on a compilation's findings, as `dslc lint`
 * applies them (lint_paths.c). */
static void settings_paths(compilation *c)
{
	arena a;
	arena_init(&a);
	const char *untrusted;
	const char *path = lint_config_find(&a, &untrusted);
	lint_config cfg;
	compilation comp;
	memset(&comp, 0, sizeof(comp));
	static const bool none[R__COUNT];
	if (path && lint_config_read(&cfg, &comp, path) && !diag_count(&comp.dc, SEV_ERROR))
		lint_paths_apply(&cfg, &c->dc, none);
	if (path)
		compile_free(&comp);
	arena_free(&a);
}

static compilation *compile_doc(const lsp_doc *d, const char *path, const bool disabled[R__COUNT])
{
	compilation *c = docs_new_compilation();
	if (!path) /* untitled: its includes relative to the working directory */
		compile_text(c, "untitled.dsl", d->text);
	else if (d->yaml && strcmp(path, d->path) == 0)
		compile_yaml(c, path, NULL, NULL, 0, 0);
	else
		compile_file_with(c, path, disabled);
	settings_paths(c);
	return c;
}

/* A document the compiler cannot read (a NUL byte in the buffer, a file
 * gone, a FIFO): the reason, at its first line or at the NUL byte. */
static compilation *unreadable(const lsp_doc *d, int err)
{
	compilation *c = docs_new_compilation();
	compile_init(c);
	const char *nul = memchr(d->text, '\0', d->len);
	uint32_t id = src_add(&c->src, d->path ? d->path : "untitled.dsl", d->text, d->len);
	uint32_t at = nul ? (uint32_t)(nul - d->text) : 0;
	diag *g = diag_report(&c->dc, R_IO, (src_loc){id, at, nul ? at + 1 : at}, "cannot read this document: %s",
			      src_strerror(nul ? EILSEQ : err));
	diag_help(&c->dc, g, "%s", nul ? "remove the NUL byte: a description is text" : "save it as a regular, readable file");
	return c;
}

uint32_t analysis_doc_file(compilation *c, const lsp_doc *d)
{
	if (!d->real)
		return c->src.nfiles > 1 ? 1 : 0;
	for (uint32_t id = 1; id < c->src.nfiles; id++) {
		char buf[PATH_MAX];
		const char *p = c->src.files[id].path;
		if (strcmp(p, d->path) == 0 || (realpath(p, buf) && strcmp(buf, d->real) == 0))
			return id;
	}
	return 0;
}

char *analysis_file_uri(compilation *c, uint32_t file)
{
	const src_file *f = src_get(&c->src, file);
	char buf[PATH_MAX];
	return f && realpath(f->path, buf) ? lsp_path_uri(buf) : NULL;
}

json_t *analysis_loc_range(compilation *c, src_loc loc, bool utf8)
{
	const src_file *f = src_get(&c->src, loc.file);
	text_lines tl;
	text_lines_init(&tl, f ? f->text : "", f ? f->len : 0);
	json_t *r = lsp_range(&tl, loc.start, loc.end, utf8);
	text_lines_free(&tl);
	return r;
}

static int lsp_severity(diag_severity s)
{
	return s == SEV_ERROR ? LSP_SEV_ERROR : s == SEV_WARNING ? LSP_SEV_WARNING : LSP_SEV_INFORMATION;
}

/* One finding as an LSP diagnostic: the message with its help and its
 * unlocated notes; located notes as related information. */
static json_t *diagnostic(compilation *c, const lsp_doc *d, const diag *g, bool utf8)
{
	buf msg;
	buf_init(&msg);
	buf_puts(&msg, g->msg);
	json_t *related = json_array();
	for (const diag_note *n = g->notes; n; n = n->next) {
		char *uri = src_loc_valid(n->loc) ? analysis_file_uri(c, n->loc.file) : NULL;
		if (!uri) {
			buf_printf(&msg, "\nnote: %s", n->msg);
			continue;
		}
		json_array_append_new(related, json_pack("{s:{s:s, s:o}, s:o}", "location", "uri", uri, "range",
							 analysis_loc_range(c, n->loc, utf8), "message", lsp_text(n->msg)));
		free(uri);
	}
	if (g->help)
		buf_printf(&msg, "\nhelp: %s", g->help);
	size_t start = g->loc.file ? g->loc.start : 0, end = g->loc.file ? g->loc.end : 0;
	json_t *j = json_pack("{s:o, s:i, s:s, s:s, s:o}", "range", lsp_range(&d->lines, start, end, utf8), "severity",
			      lsp_severity(g->severity), "code", g->rule->id, "source", "dslc", "message", lsp_text(msg.data));
	if (json_array_size(related))
		json_object_set(j, "relatedInformation", related);
	json_decref(related);
	buf_free(&msg);
	return j;
}

/* The finding's exact edits as one quick fix (edits in other files too). */
static json_t *quick_fix(compilation *c, const diag *g, json_t *diag_json, bool utf8)
{
	json_t *changes = json_object();
	for (const diag_fix *f = g->fixes; f; f = f->next) {
		char *uri = analysis_file_uri(c, f->at.file);
		if (!uri)
			continue;
		json_t *edits = json_object_get(changes, uri);
		if (!edits) {
			edits = json_array();
			json_object_set_new(changes, uri, edits);
		}
		json_array_append_new(edits, json_pack("{s:o, s:o}", "range", analysis_loc_range(c, f->at, utf8), "newText", lsp_text(f->text)));
		free(uri);
	}
	buf title;
	buf_init(&title);
	buf_printf(&title, "dslc: %s", g->help ? g->help : g->msg);
	json_t *a = json_pack("{s:o, s:s, s:[O], s:b, s:{s:o}}", "title", lsp_text(title.data), "kind", "quickfix", "diagnostics",
			      diag_json, "isPreferred", 1, "edit", "changes", changes);
	buf_free(&title);
	return a;
}

/* Whether a finding at the same place with the same text was collected
 * already (a fragment through two descriptions): its JSON text in a hash
 * set, so the server costs what lint costs (comparing each with all before
 * it was quadratic: 8,000 findings, seconds a keystroke). */
static bool already(strmap *seen, json_t *dj)
{
	char *key = json_dumps(dj, JSON_COMPACT | JSON_SORT_KEYS);
	if (!key)
		abort();
	bool was = strmap_get(seen, key) != NULL;
	if (!was)
		strmap_put(seen, arena_strdup(seen->ar, key), seen);
	free(key);
	return was;
}

/* The findings of c located in the document (and, from its own
 * compilation, those with no location) into diags and d->actions. */
static void collect(compilation *c, lsp_doc *d, bool own, json_t *diags, strmap *seen, bool utf8)
{
	uint32_t id = analysis_doc_file(c, d);
	diag_sort(&c->dc);
	for (size_t i = 0; i < c->dc.n; i++) {
		const diag *g = c->dc.items[i];
		if (!(g->loc.file ? g->loc.file == id && id : own))
			continue;
		json_t *dj = diagnostic(c, d, g, utf8);
		if (already(seen, dj)) {
			json_decref(dj);
			continue;
		}
		json_array_append(diags, dj);
		if (g->fixes && g->loc.file)
			json_array_append_new(d->actions, json_pack("[I, I, o]", (json_int_t)g->loc.start, (json_int_t)g->loc.end,
								    quick_fix(c, g, dj, utf8)));
		json_decref(dj);
	}
}

static void remember_reads(lsp_doc *d, compilation *c)
{
	for (uint32_t id = 1; id < c->src.nfiles; id++) {
		char buf[PATH_MAX];
		if (!realpath(c->src.files[id].path, buf))
			continue;
		d->reads = realloc(d->reads, (d->nreads + 1) * sizeof(*d->reads));
		if (!d->reads || !(d->reads[d->nreads] = strdup(buf)))
			abort();
		d->nreads++;
	}
}

json_t *analysis_run(lsp_doc *d, bool utf8)
{
	docs_forget_analysis(d);
	d->actions = json_array();
	bool disabled[R__COUNT];
	settings_disabled(disabled);
	compilation *own = memchr(d->text, '\0', d->len) ? NULL : compile_doc(d, d->path, disabled);
	if (!own || !own->parsed) {
		int err = errno;
		if (own)
			docs_drop_compilation(own);
		own = unreadable(d, err);
	}
	json_t *diags = json_array();
	arena seen_ar;
	arena_init(&seen_ar);
	strmap seen;
	strmap_init(&seen, &seen_ar);
	compilation *kept = own;
	if (d->path) { /* a fragment: the descriptions that include it, as `dslc lint hardware.dsl` finds them */
		arena a;
		arena_init(&a);
		lint_file self = lint_file_of(&a, d->path, own);
		if (self.dsl && self.fragment && !d->includers_known) {
			/* searched once, not at every keystroke: again after a save */
			const char **found;
			size_t n = lint_files_includers(&a, &self, &found, NULL);
			docs_set_includers(d, found, n);
		}
		if (self.dsl && self.fragment && d->nincluders) {
			kept = NULL;
			for (size_t i = 0; i < d->nincluders; i++) {
				compilation *c = compile_doc(d, d->includers[i], disabled);
				collect(c, d, false, diags, &seen, utf8);
				remember_reads(d, c);
				if (!kept)
					kept = c;
				else
					docs_drop_compilation(c);
			}
		}
		arena_free(&a);
	}
	if (kept == own)
		collect(own, d, true, diags, &seen, utf8);
	arena_free(&seen_ar);
	remember_reads(d, own);
	if (kept != own)
		docs_drop_compilation(own);
	d->comp = kept;
	d->file = analysis_doc_file(kept, d);
	if (kept->parsed && kept->m.ar) { /* resolved: its names serve completion until the next one */
		if (d->good && d->good != kept)
			docs_drop_compilation(d->good);
		d->good = kept;
	}
	json_t *params = json_pack("{s:s, s:o}", "uri", d->uri, "diagnostics", diags);
	if (d->version >= 0)
		json_object_set_new(params, "version", json_integer(d->version));
	return params;
}

json_t *analysis_actions(const lsp_doc *d, size_t start, size_t end)
{
	json_t *out = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(d->actions, i, v) {
		size_t s = (size_t)json_integer_value(json_array_get(v, 0)), e = (size_t)json_integer_value(json_array_get(v, 1));
		if (s <= end && e >= start)
			json_array_append(out, json_array_get(v, 2));
	}
	return out;
}
