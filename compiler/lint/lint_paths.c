/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lint_paths.c - `path "GLOB" { ... }` sections of .dslc-lint: a rule
 * disabled, enabled or re-ranked for the files the glob matches (a lab
 * cluster beside a production one), as ruff's per-file-ignores and
 * ESLint's overrides do. See lint_config.h. */
#include "lint_config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/source.h"

/* ---- the glob ------------------------------------------------------------------ */

bool lint_path_match(const char *g, const char *s)
{
	for (;;) {
		if (g[0] == '*' && g[1] == '*') {
			g += 2;
			if (*g == '/') { /* "**" + "/": no directory, or any number of them */
				if (lint_path_match(g + 1, s))
					return true;
			}
			for (;; s++) {
				if (lint_path_match(g, s))
					return true;
				if (!*s)
					return false;
			}
		}
		if (*g == '*') {
			g++;
			for (;; s++) {
				if (lint_path_match(g, s))
					return true;
				if (!*s || *s == '/')
					return false;
			}
		}
		if (!*g)
			return !*s;
		if (!*s || (*g == '?' ? *s == '/' : *g != *s))
			return false;
		g++;
		s++;
	}
}

const char *lint_paths_relative(const lint_config *cfg, arena *a, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	if (!realpath(*cfg->dir ? cfg->dir : ".", dir) || !realpath(path, real))
		return NULL;
	size_t n = strlen(dir);
	if (strncmp(real, dir, n) != 0 || (real[n] != '/' && n > 1))
		return NULL;
	return arena_strdup(a, real + n + (n > 1));
}

/* ---- reading -------------------------------------------------------------------- */

static unsigned line_of(const lint_config *cfg, src_loc loc)
{
	return src_position(&cfg->comp->src, loc.file, loc.start).line;
}

/* A rule a section may change: one that is not an error by default. */
static const rule_info *section_rule(lint_config *cfg, const ast_value *v, const char *verb)
{
	diag_ctx *dc = &cfg->comp->dc;
	if (!v || v->kind != AST_WORD) {
		diag *d = diag_report(dc, R_BAD_VALUE, v ? v->loc : SRC_LOC_NONE, "%s takes a rule id", verb);
		diag_help(dc, d, "write `%s numa-pin-dropped%s`", verb,
			  strcmp(verb, "disable") == 0 ? " \"why it does not apply here\"" : strcmp(verb, "severity") == 0 ? " error" : "");
		return NULL;
	}
	const rule_info *r = rule_find(v->text);
	if (!r) {
		const char *sug = kw_suggest_rule(v->text);
		diag *d = diag_report(dc, R_UNKNOWN_NAME, v->loc, "no rule '%s'", v->text);
		diag_help(dc, d, sug ? "write `%s`" : "see `dslc rules`", sug ? sug : "");
		return NULL;
	}
	if (r->severity == SEV_ERROR) {
		diag *d = diag_report(dc, R_BAD_VALUE, v->loc, "%s is an error: a path section changes warnings and notes", r->id);
		diag_help(dc, d, "fix what it finds in these files: `dslc build` refuses it there too");
		return NULL;
	}
	return r;
}

static void read_section_stmt(lint_config *cfg, lint_path *p, const ast_stmt *st)
{
	diag_ctx *dc = &cfg->comp->dc;
	const ast_value *kw = st->values;
	const char *verb = kw && kw->kind == AST_WORD ? kw->text : "";
	bool dis = strcmp(verb, "disable") == 0, en = strcmp(verb, "enable") == 0, sev = strcmp(verb, "severity") == 0;
	if ((!dis && !en && !sev) || st->block) {
		const char *names[] = {"disable", "enable", "severity"};
		const char *sug = *verb ? kw_suggest(verb, names, 3) : NULL;
		diag *d = diag_report(dc, R_UNKNOWN_KEYWORD, kw ? kw->loc : st->loc, "unknown keyword in a path section");
		diag_help(dc, d, sug ? "write `%s`" : "a path section takes disable, enable and severity%s", sug ? sug : "");
		return;
	}
	const rule_info *r = section_rule(cfg, kw->next, verb);
	if (!r)
		return;
	const ast_value *arg = kw->next->next;
	diag_severity s;
	if (dis && (!arg || arg->kind != AST_STRING || !*arg->text || arg->next)) {
		diag *d = diag_report(dc, R_BAD_VALUE, arg ? arg->loc : kw->next->loc, "disabling %s needs its reason, quoted", r->id);
		diag_help(dc, d, "write `disable %s \"why it does not apply here\"`", r->id);
		return;
	}
	if (sev && (!arg || arg->kind != AST_WORD || arg->next || !severity_parse(arg->text, &s))) {
		diag *d = diag_report(dc, R_BAD_VALUE, arg ? arg->loc : kw->next->loc, "severity takes a rule and error, warning or note");
		diag_help(dc, d, "write `severity %s error`", r->id);
		return;
	}
	if (en && arg) {
		diag *d = diag_report(dc, R_BAD_VALUE, arg->loc, "enable takes a rule id alone");
		diag_help(dc, d, "write `enable %s`", r->id);
		return;
	}
	if (sev)
		p->severity[r->rule] = (signed char)s;
	else
		p->action[r->rule] = dis ? PATH_DISABLE : PATH_ENABLE;
	p->reason[r->rule] = dis ? arg->text : p->reason[r->rule];
	p->rule_line[r->rule] = line_of(cfg, st->loc);
}

void lint_paths_read(lint_config *cfg, const ast_stmt *st)
{
	diag_ctx *dc = &cfg->comp->dc;
	const ast_value *g = st->values->next;
	if (!g || g->kind != AST_STRING || !*g->text || g->next || !st->block) {
		diag *d = diag_report(dc, R_BAD_VALUE, g ? g->loc : st->loc, "path takes a quoted glob and a block");
		diag_help(dc, d, "write `path \"clusters/lab/**\" { disable numa-pin-dropped \"why\" }`");
		return;
	}
	const char *bad = strpbrk(g->text, "[]{}\\\n");
	if (bad || strlen(g->text) > LINT_PATH_MAX_GLOB || g->text[0] == '/' || strstr(g->text, "..")) {
		diag *d = diag_report(dc, R_BAD_VALUE, g->loc, "path '%s' is not a glob dslc reads", g->text);
		diag_help(dc, d, "write a path relative to this file with `*` (within a name), `**` (any directories) and `?`; "
			  "no brackets, braces, `..` or leading `/`");
		return;
	}
	if (cfg->npaths == LINT_CONFIG_MAX_PATHS) {
		diag *d = diag_report(dc, R_BAD_VALUE, st->loc, "more than %d path sections", LINT_CONFIG_MAX_PATHS);
		diag_help(dc, d, "join sections with one glob (`clusters/lab*/**`)");
		return;
	}
	lint_path p = {.glob = g->text, .line = line_of(cfg, st->loc)};
	memset(p.severity, -1, sizeof(p.severity));
	for (const ast_stmt *s = st->block->first; s; s = s->next)
		read_section_stmt(cfg, &p, s);
	ARENA_PUSH(&cfg->comp->ar, cfg->paths, cfg->npaths, cfg->paths_cap, p);
}

/* ---- applying ----------------------------------------------------------------- */

void lint_paths_enabled(const lint_config *cfg, bool *enabled)
{
	for (size_t i = 0; i < cfg->npaths; i++)
		for (int r = 0; r < R__COUNT; r++)
			enabled[r] |= cfg->paths[i].action[r] == PATH_ENABLE;
}

void lint_paths_apply(const lint_config *cfg, diag_ctx *dc, const bool *toggled)
{
	if (!cfg || !cfg->npaths)
		return;
	bool *drop = arena_alloc(dc->ar, (dc->n + 1) * sizeof(*drop));
	uint32_t last_file = 0;
	const char *rel = NULL;
	for (size_t i = 0; i < dc->n; i++) {
		diag *d = dc->items[i];
		rule_id r = d->rule->rule;
		if (d->loc.file != last_file) {
			const src_file *f = src_get(dc->src, d->loc.file);
			rel = f ? lint_paths_relative(cfg, dc->ar, f->path) : NULL;
			last_file = d->loc.file;
		}
		/* the top level, then each section that matches, in file order */
		bool off = cfg->disabled[r];
		int sev = -1;
		for (size_t k = 0; rel && k < cfg->npaths; k++) {
			const lint_path *p = &cfg->paths[k];
			if (!lint_path_match(p->glob, rel))
				continue;
			if (p->action[r] != PATH_KEEP)
				off = p->action[r] == PATH_DISABLE;
			if (p->severity[r] >= 0)
				sev = p->severity[r];
		}
		drop[i] = off && !toggled[r]; /* --enable / --disable come after every setting */
		if (!drop[i] && sev >= 0 && (diag_severity)sev != d->severity)
			diag_set_severity(dc, d, (diag_severity)sev);
	}
	diag_drop(dc, drop);
}
