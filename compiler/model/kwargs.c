/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kwargs.c - the keyword dispatcher and the typed argument readers. */
#include "kw.h"

#include <stdarg.h>
#include <stdio.h>
#include <ctype.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"

void kw_bad(kw_ctx *k, src_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(k->r->ar, fmt, ap);
	va_end(ap);
	diag *d = diag_report(k->r->dc, R_BAD_VALUE, loc, "%s", msg);
	diag_help(k->r->dc, d, "syntax: %s", k->kw->syntax);
	k->failed = true;
}

void kw_bad_size(kw_ctx *k, src_loc loc, const char *s, const char *why)
{
	diag *d = diag_report(k->r->dc, R_BAD_VALUE, loc, "'%s': %s", s, why);
	k->failed = true;
	/* 64GB, 64G, 64gb: the binary unit of that letter, as written */
	size_t digits = strspn(s, "0123456789");
	const char *u = s + digits;
	char letter = (char)toupper((unsigned char)u[0]);
	bool decimal = digits && digits < 19 && letter && strchr("KMGTP", letter) &&
		       (!u[1] || ((u[1] == 'B' || u[1] == 'b') && !u[2]) || ((u[1] == 'i' || u[1] == 'I') && !u[2]));
	if (!decimal) {
		diag_help(k->r->dc, d, "syntax: %s", k->kw->syntax);
		return;
	}
	if (u[1] == 'i' || u[1] == 'I')
		diag_help(k->r->dc, d, "write `%.*s%ciB`: a size's unit ends in B", (int)digits, s, letter);
	else
		diag_help(k->r->dc, d, "write `%.*s%ciB` (binary units; %s as decimal bytes would be %.*s%s)", (int)digits, s, letter,
		  s, (int)digits, s, letter == 'K' ? ",000" : letter == 'M' ? ",000,000" : letter == 'G' ? ",000,000,000"
		  : letter == 'T' ? ",000,000,000,000" : ",000,000,000,000,000");
	diag_fix_edit(k->r->dc, d, loc, "%.*s%ciB", (int)digits, s, letter);
}

void kw_missing(kw_ctx *k, const char *what)
{
	src_loc at = k->last;
	at.start = at.end;
	at.end = at.start + 1;
	diag *d = diag_report(k->r->dc, R_BAD_VALUE, at, "'%s' expects %s", k->kw->name, what);
	diag_help(k->r->dc, d, "syntax: %s", k->kw->syntax);
	k->failed = true;
}

ast_value *kw_next(kw_ctx *k)
{
	ast_value *v = k->cur;
	if (v) {
		k->cur = v->next;
		k->last = v->loc;
	}
	return v;
}

bool kw_peek_word(kw_ctx *k, const char *w)
{
	return k->cur && k->cur->kind == AST_WORD && strcmp(k->cur->text, w) == 0;
}

bool kw_expect_word(kw_ctx *k, const char *w)
{
	if (kw_peek_word(k, w)) {
		kw_next(k);
		return true;
	}
	if (!k->cur) {
		kw_missing(k, arena_printf(k->r->ar, "'%s'", w));
		return false;
	}
	kw_bad(k, k->cur->loc, "expected '%s' here, not '%s'", w, k->cur->text);
	return false;
}

bool kw_word(kw_ctx *k, const char *what, const char **out, src_loc *loc)
{
	if (!k->cur || k->cur->kind == AST_PUNCT || k->cur->kind == AST_LIST) {
		if (k->cur)
			kw_bad(k, k->cur->loc, "'%s' expects %s, not '%s'", k->kw->name, what,
			       k->cur->kind == AST_LIST ? "a list" : k->cur->text);
		else
			kw_missing(k, what);
		return false;
	}
	ast_value *v = kw_next(k);
	*out = v->text;
	if (loc)
		*loc = v->loc;
	return true;
}

bool kw_string(kw_ctx *k, const char *what, const char **out, src_loc *loc)
{
	return kw_word(k, what, out, loc);
}

/* A value written without spaces, such as ERR,MGMT=DEBUG, reaches us as
 * several tokens that touch; they are one value. */
void kw_sub_block(kw_ctx *k, const kw_table *t, void *target, src_loc *loc, bool *set)
{
	ast_block *b = kw_block(k);
	if (!b || !kw_once(k, loc, set))
		return;
	*loc = k->kwloc;
	const kw_table *ts[] = {t};
	kw_apply(k->r, b, ts, 1, target, k->numa);
}

bool kw_abs_path(kw_ctx *k, const char *what, const char *label, const char **out, src_loc *loc)
{
	if (!kw_word(k, what, out, loc))
		return false;
	const char *why = safe_mount_path(*out);
	if (why)
		kw_bad(k, *loc, "%s '%s': %s", label, safe_echo(k->r->ar, *out), why);
	return !why;
}

bool kw_word_glued(kw_ctx *k, const char *what, const char **out, src_loc *loc)
{
	src_loc l;
	if (!kw_word(k, what, out, &l))
		return false;
	const char *s = *out;
	while (k->cur && k->cur->loc.file == l.file && k->cur->loc.start == l.end &&
	       (k->cur->kind == AST_WORD || k->cur->kind == AST_PUNCT)) {
		ast_value *v = kw_next(k);
		s = arena_printf(k->r->ar, "%s%s", s, v->text);
		l.end = v->loc.end;
	}
	*out = s;
	if (loc)
		*loc = l;
	return true;
}

bool kw_int(kw_ctx *k, const char *what, int64_t min, int64_t max, int64_t *out, src_loc *loc)
{
	const char *s;
	src_loc l;
	if (!kw_word(k, what, &s, &l))
		return false;
	int64_t v;
	if (!val_int(s, &v)) {
		kw_bad(k, l, "'%s' expects %s, not '%s'", k->kw->name, what, s);
		return false;
	}
	if (v < min || v > max) {
		kw_bad(k, l, "%s %lld is out of range (%lld to %lld)", k->kw->name, (long long)v,
		       (long long)min, (long long)max);
		return false;
	}
	*out = v;
	if (loc)
		*loc = l;
	return true;
}

bool kw_size(kw_ctx *k, const char *what, uint64_t *out, src_loc *loc)
{
	const char *s, *why;
	src_loc l;
	if (!kw_word(k, what, &s, &l))
		return false;
	if (!val_size(s, out, &why)) {
		kw_bad_size(k, l, s, why);
		return false;
	}
	if (loc)
		*loc = l;
	return true;
}

bool kw_pci(kw_ctx *k, const char *what, char out[16], src_loc *loc)
{
	const char *s, *why;
	src_loc l;
	if (!kw_word(k, what, &s, &l))
		return false;
	if (!val_pci(s, out, &why)) {
		kw_bad(k, l, "'%s': %s", s, why);
		return false;
	}
	if (loc)
		*loc = l;
	return true;
}

bool kw_pci_list(kw_ctx *k, pci_ref **items, size_t *n, size_t *cap)
{
	size_t start = *n;
	const char *why;
	char tmp[16];
	while (k->cur && k->cur->kind == AST_WORD && (*n == start || val_pci(k->cur->text, tmp, &why))) {
		pci_ref p;
		if (!kw_pci(k, "a PCI address", p.pci, &p.loc))
			return false;
		ARENA_PUSH(k->r->ar, *items, *n, *cap, p);
	}
	if (*n == start) {
		kw_missing(k, "PCI addresses");
		return false;
	}
	return true;
}

/* env NAME=VALUE, or env NAME = VALUE (a quoted VALUE keeps spaces). */
static bool env_read_one(kw_ctx *k, env_list *env);

/* The next value starts another NAME=VALUE entry: a string, a word with '='
 * in it, or a word that '=' follows (no keyword is followed by '=' here). */
static bool env_next(const kw_ctx *k)
{
	const ast_value *v = k->cur;
	if (!v)
		return false;
	if (v->kind == AST_STRING)
		return true;
	return v->kind == AST_WORD && (strchr(v->text, '=') ||
				       (v->next && v->next->kind == AST_PUNCT && strcmp(v->next->text, "=") == 0));
}

/* One or more entries: `env A=1 B=2` or `env "A=1" "B=2"`, as acl and attr
 * take several on a line. */
bool kw_env(kw_ctx *k, env_list *env)
{
	do {
		if (!env_read_one(k, env))
			return false;
	} while (env_next(k));
	return true;
}

static bool env_read_one(kw_ctx *k, env_list *env)
{
	const char *first;
	src_loc l;
	if (!kw_word(k, "NAME=VALUE", &first, &l))
		return false;
	const char *name, *value;
	const char *eq = strchr(first, '=');
	if (eq) {
		name = arena_strndup(k->r->ar, first, (size_t)(eq - first));
		value = eq + 1;
	} else if (k->cur && k->cur->kind == AST_PUNCT && strcmp(k->cur->text, "=") == 0) {
		kw_next(k);
		name = first;
		if (!kw_word(k, "a value after '='", &value, NULL))
			return false;
		l = src_loc_join(l, k->last);
	} else {
		diag *d = diag_report(k->r->dc, R_ENV_MALFORMED, l,
				      "environment entry '%s' has no '='", first);
		diag_help(k->r->dc, d, "write `env %s=VALUE`; daos_server silently drops entries without '='", first);
		k->failed = true;
		return false;
	}
	if (!*value) {
		diag *d = diag_report(k->r->dc, R_ENV_MALFORMED, l,
				      "environment entry '%s' has an empty value", name);
		diag_help(k->r->dc, d, "give a value; daos_server silently drops empty entries");
		k->failed = true;
		return false;
	}
	for (const char *p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_') ||
		    (p == name && *p >= '0' && *p <= '9')) {
			diag *d = diag_report(k->r->dc, R_ENV_MALFORMED, l,
					      "'%s' is not an environment variable name", name);
			diag_help(k->r->dc, d, "names are letters, digits and '_', not starting with a digit");
			k->failed = true;
			return false;
		}
	if (!*name) {
		kw_bad(k, l, "an environment entry needs a name before '='");
		return false;
	}
	const env_entry *prev = env_find(env, name);
	if (prev && kw_in_scope(k, prev->loc)) {
		/* an inherited entry is overridden on purpose; one of this block is a slip */
		diag *d = diag_report(k->r->dc, R_DUPLICATE, l, "%s is given twice in this block", name);
		diag_note_at(k->r->dc, d, prev->loc, "first given here");
		diag_help(k->r->dc, d, "keep one entry for %s", name);
		k->failed = true;
		return false;
	}
	env_set(k->r->ar, env, name, value, l);
	return true;
}

ast_block *kw_block(kw_ctx *k)
{
	if (k->cur) {
		/* more clauses follow on the line: the block is not ours */
		diag *d = diag_report(k->r->dc, R_SYNTAX, k->cur->loc,
				      "'%s' takes a block, not '%s'", k->kw->name, k->cur->text);
		diag_help(k->r->dc, d, "syntax: %s", k->kw->syntax);
		k->failed = true;
		return NULL;
	}
	if (!k->st->block) {
		kw_missing(k, "a { } block");
		return NULL;
	}
	k->block_taken = true;
	return k->st->block;
}

static bool loc_inside(src_loc inner, src_loc outer)
{
	return inner.file && inner.file == outer.file && inner.start >= outer.start &&
	       inner.end <= outer.end;
}

bool kw_in_scope(const kw_ctx *k, src_loc loc)
{
	return loc_inside(loc, k->scope);
}

bool kw_once(kw_ctx *k, src_loc *field_loc, bool *field_set)
{
	if (*field_set && loc_inside(*field_loc, k->scope) && field_loc->start != k->kwloc.start) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, k->kwloc, "'%s' is given twice in this block",
				      k->kw->name);
		diag_note_at(k->r->dc, d, *field_loc, "first given here");
		diag_help(k->r->dc, d, "keep one of the two");
		k->failed = true;
		return false;
	}
	*field_set = true;
	*field_loc = k->kwloc;
	return true;
}

/* How far a name may be from the word and still be what was meant. */
static size_t suggest_limit(const char *word)
{
	size_t len = strlen(word);
	return len <= 3 ? 1 : len <= 6 ? 2 : 3;
}

const char *kw_suggest_unique(const char *word, const char *const *names, size_t n)
{
	const char *best = kw_suggest(word, names, n);
	if (!best)
		return NULL;
	size_t limit = suggest_limit(word);
	size_t bd = val_edit_distance_within(word, best, limit);
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], best) != 0 && val_edit_distance_within(word, names[i], limit) == bd)
			return NULL; /* two as near: which one was meant is the user's to say */
	return best;
}

const char *kw_suggest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t bd = 99, limit = suggest_limit(word);
	for (size_t i = 0; i < n; i++) {
		size_t d = val_edit_distance_within(word, names[i], limit);
		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return bd <= limit ? best : NULL;
}

const char *kw_suggest_rule(const char *id)
{
	const char *names[R__COUNT];
	for (int i = 0; i < R__COUNT; i++)
		names[i] = rule_table[i].id;
	return kw_suggest(id, names, R__COUNT);
}

/* ---- typed settings, straight from the table ---------------------------- */

static void kw_typed(kw_ctx *k)
{
	const keyword *kw = k->kw;
	char *field = (char *)k->target + kw->offset;
	if (kw->type == KW_WORD || kw->type == KW_ENUM) {
		opt_str *o = (opt_str *)field;
		const char *s;
		src_loc l;
		if (!(kw->type == KW_WORD ? kw_word_glued : kw_word)(k, kw->syntax + strlen(kw->name) + 1, &s, &l))
			return;
		if (kw->type == KW_ENUM) {
			size_t nc = 0;
			while (kw->choices[nc])
				nc++;
			bool ok = false;
			for (size_t i = 0; i < nc; i++)
				ok |= strcmp(kw->choices[i], s) == 0;
			if (!ok) {
				const char *sug = kw_suggest(s, kw->choices, nc);
				diag *d = diag_report(k->r->dc, R_BAD_VALUE, l, "%s does not take '%s'", kw->name, s);
				if (sug) {
					diag_help(k->r->dc, d, "did you mean '%s'? syntax: %s", sug, kw->syntax);
					diag_fix_edit(k->r->dc, d, l, "%s", sug);
				}
				else
					diag_help(k->r->dc, d, "syntax: %s", kw->syntax);
				k->failed = true;
				return;
			}
		}
		if (!kw_once(k, &o->loc, &o->set))
			return;
		o->v = s;
		o->loc = src_loc_join(k->kwloc, l);
		return;
	}
	opt_int *o = (opt_int *)field;
	int64_t v;
	src_loc l;
	const char *s, *why;
	switch (kw->type) {
	case KW_INT:
		if (!kw_int(k, "an integer", kw->min, kw->max, &v, &l))
			return;
		break;
	case KW_BOOL:
		if (!kw_word(k, "true or false", &s, &l))
			return;
		if (strcmp(s, "true") && strcmp(s, "false")) {
			kw_bad(k, l, "'%s' expects true or false, not '%s'", kw->name, s);
			return;
		}
		v = strcmp(s, "true") == 0;
		break;
	case KW_SIZE:
	case KW_DURATION: {
		if (!kw_word(k, kw->type == KW_SIZE ? "a size" : "a duration", &s, &l))
			return;
		uint64_t u;
		bool ok = kw->type == KW_SIZE ? val_size(s, &u, &why) : val_duration(s, &u, &why);
		if (!ok) {
			if (kw->type == KW_SIZE)
				kw_bad_size(k, l, s, why);
			else
				kw_bad(k, l, "'%s': %s", s, why);
			return;
		}
		if ((int64_t)u < kw->min || (uint64_t)kw->max < u) {
			kw_bad(k, l, "%s %s is out of range", kw->name, s);
			return;
		}
		v = (int64_t)u;
		break;
	}
	default:
		return;
	}
	if (!kw_once(k, &o->loc, &o->set))
		return;
	o->v = v;
	o->loc = src_loc_join(k->kwloc, l);
}

static const keyword *lookup(const kw_table *const *tables, size_t ntables, const char *w)
{
	for (size_t t = 0; t < ntables; t++)
		for (size_t i = 0; i < tables[t]->n; i++)
			if (strcmp(tables[t]->kws[i].name, w) == 0)
				return &tables[t]->kws[i];
	return NULL;
}

/* `provider ofi+verbs;ofi_rxm`: the lexer ends a word at ';', which ends
 * the statement, so the rest reads as a statement of its own. When the
 * unknown word (not a near miss of a keyword) is glued to the previous
 * statement's last word by a ';', that is the cause: said, and the quoted
 * value proposed as the fix. */
static bool semicolon_split(resolver *r, const ast_stmt *prev, const ast_value *v)
{
	const ast_value *last = prev ? prev->values : NULL;
	while (last && last->next)
		last = last->next;
	if (!last || prev->block || last->kind != AST_WORD || v->kind != AST_WORD || last->loc.file != v->loc.file ||
	    last->loc.end + 1 != v->loc.start)
		return false;
	const src_file *f = src_get(r->dc->src, v->loc.file);
	if (!f || f->text[last->loc.end] != ';')
		return false;
	src_loc whole = src_loc_join(last->loc, v->loc);
	int n = (int)(whole.end - whole.start);
	const char *text = f->text + whole.start;
	diag *d = diag_report(r->dc, R_SYNTAX, v->loc, "';' ends a statement: '%s' after '%.*s' is read as a new one",
			      v->text, (int)(last->loc.end - last->loc.start), f->text + last->loc.start);
	diag_note_at(r->dc, d, last->loc, "the value is cut here");
	diag_help(r->dc, d, "quote the value: `%s \"%.*s\"`", prev->values->text, n, text);
	diag_fix_quote(r->dc, d, whole);
	return true;
}

/* Punctuation right after a keyword's values on the same line: that
 * keyword's values ended before it (`env A=1,B=2`), which is the cause to
 * name, not a line break. */
static bool glued_punct(resolver *r, const keyword *after, const ast_value *v)
{
	const src_file *f = src_get(r->dc->src, v->loc.file);
	if (!after || !f || v->kind != AST_PUNCT)
		return false;
	for (uint32_t i = v->loc.start; i > 0 && f->text[i - 1] != '\n'; i--)
		if (f->text[i - 1] != ' ' && f->text[i - 1] != '\t') {
			diag *d = diag_report(r->dc, R_SYNTAX, v->loc, "'%s' after the value of %s: %s takes no '%s' there",
					      v->text, after->name, after->name, v->text);
			diag_help(r->dc, d, "syntax: %s; quote a value that holds '%s' (\"...\"), or write what follows as "
				  "a value of its own", after->syntax, v->text);
			return true;
		}
	return false;
}

static void unknown_keyword(resolver *r, const kw_table *const *tables, size_t ntables,
			    const ast_stmt *prev, const keyword *after, ast_value *v)
{
	const char *names[256] = {0}; /* an error's path: gcc cannot see n bound the reads */
	size_t n = 0;
	for (size_t t = 0; t < ntables; t++)
		for (size_t i = 0; i < tables[t]->n && n < 256; i++)
			names[n++] = tables[t]->kws[i].name;
	if (glued_punct(r, after, v))
		return;
	if (v->kind != AST_WORD) {
		diag *d = diag_report(r->dc, R_SYNTAX, v->loc, "a statement starts with a keyword, not %s",
				      v->kind == AST_STRING ? "a string" : v->kind == AST_LIST ? "a list" : "punctuation");
		diag_help(r->dc, d, "%s", v->kind == AST_PUNCT && strcmp(v->text, ",") == 0
			  ? "a ',' continues the previous line's list; remove the line break before it"
			  : "start the statement with one of this block's keywords (SPEC.md, 'Keyword reference')");
		return;
	}
	const char *sug = kw_suggest(v->text, names, n);
	if (!sug && semicolon_split(r, prev, v)) /* a misspelt keyword after a ';' is a typo, not a cut value */
		return;
	const char *block = tables[0]->block;
	diag *d = diag_report(r->dc, R_UNKNOWN_KEYWORD, v->loc, "unknown keyword '%s' in %s",
			      v->text, block);
	if (sug) {
		diag_help(r->dc, d, "did you mean '%s'?", sug);
		diag_fix_edit(r->dc, d, v->loc, "%s", sug);
	} else {
		char list[1024] = "";
		for (size_t i = 0; i < n; i++) {
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, names[i], sizeof(list) - strlen(list) - 1);
		}
		diag_help(r->dc, d, "%s accepts: %s", block, list);
	}
}

void kw_apply(resolver *r, ast_block *block, const kw_table *const *tables, size_t ntables,
	      void *target, int numa)
{
	if (!block)
		return;
	for (ast_stmt *st = block->first, *prev = NULL; st; prev = st, st = st->next) {
		kw_ctx k = {0};
		k.r = r;
		k.st = st;
		k.cur = st->values;
		k.scope = block->loc.file ? block->loc : (src_loc){st->loc.file, 0, UINT32_MAX};
		k.target = target;
		k.numa = numa;
		while (k.cur && !k.failed) {
			ast_value *v = k.cur;
			const keyword *kw = v->kind == AST_WORD ? lookup(tables, ntables, v->text) : NULL;
			if (!kw) {
				unknown_keyword(r, tables, ntables, v == st->values ? prev : NULL, k.kw, v);
				k.failed = true;
				break;
			}
			kw_next(&k);
			k.kw = kw;
			k.kwloc = v->loc;
			if (kw->type == KW_CUSTOM)
				kw->fn(&k);
			else
				kw_typed(&k);
		}
		if (k.failed && k.kw)
			strmap_put(&r->m->failed_kws, arena_printf(r->ar, "%p:%.100s", target, k.kw->name), target);
		if (st->block && !k.block_taken && !k.failed) {
			diag *d = diag_report(r->dc, R_SYNTAX, st->block->loc, "'%s' takes no block",
					      k.kw ? k.kw->name : "this statement");
			if (k.kw)
				diag_help(r->dc, d, "syntax: %s", k.kw->syntax);
		}
	}
}
