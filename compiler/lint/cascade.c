/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* cascade.c - one mistake, one finding.
 *
 * A statement with an error counts as "given, value unknown": what depends on
 * its value is not reported until the error is fixed, as compilers suppress
 * cascades. The unit is the top-level statement (a cluster, hardware,
 * profile, nodes, pool, container or mount block), since that is what the
 * model builds one object from:
 *
 *  - An error found while reading the description (a bad value, an unknown
 *    keyword or name) holds its top-level statement: of that statement only
 *    such reading errors are shown. One of them waits for another only when
 *    its check read the other's text (diag_reads: "mount names no container"
 *    read the mount's container line): causes are recorded where the check
 *    runs, never guessed from the order checks happen to visit the text.
 *  - A held statement holds the statements that use what it defines (a
 *    hardware its profiles, a profile its nodes, nodes the mounts on them and
 *    the pools and containers the fleet sizes, a pool its containers, a
 *    container its mounts); a reference to a name it defines, or to any name
 *    when a definition's own name is what is wrong, is not an unknown name.
 *  - A held cluster statement holds every later check (they read its
 *    provider, fabric and settings); a held release holds everything else.
 *  - A finding about a held node (its "for node X" context) is held.
 *  - Where an error is left, the warnings and notes of its statement wait.
 *
 * Held findings are counted (dc->held), and the summary says so; the last
 * error is never held (SPEC.md, "One mistake, one finding"). */
#include "cascade.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/strmap.h"
#include "compiler/base/value.h"

/* Host names indexed for the dependency walk, at most: a hostile file's
 * ranges cannot make this pass costlier than resolving them. */
enum { CASCADE_MAX_WORDS = 1 << 20 };

enum { FREE, HELD_OWN, HELD_DEP };

typedef struct use {
	size_t top;
	struct use *next;
} use;

typedef struct cascade {
	arena *ar;
	diag_ctx *dc;
	const ast_stmt **tops;
	size_t ntops;
	unsigned char *state;  /* per top: FREE, HELD_OWN, HELD_DEP */
	src_loc *kept;         /* the reading errors kept so far, where they are */
	size_t nkept, kept_cap;
	strmap held_names;     /* lower-case names defined by held statements */
	strmap uses;           /* lower-case word -> the tops that mention it */
	size_t words;
	const char **queue;    /* held names whose users are not held yet */
	size_t nqueue, queue_cap;
	bool fleet_held;       /* a nodes statement is held: so are pools and containers */
	bool names_unknown;    /* a definition's own name is wrong: no name is known missing */
	bool mounts_held;      /* a held mount names no container: every mount is held */
} cascade;

static const char *lower(arena *a, const char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '.')
		n--; /* gpu001. is gpu001, as the resolver reads it */
	char *o = arena_strndup(a, s, n);
	for (size_t i = 0; i < n; i++)
		o[i] = (char)tolower((unsigned char)o[i]);
	return o;
}

/* The names a word stands for: a host list's hosts, else the word. */
static size_t expand(cascade *c, const char *w, const char ***out)
{
	if (strchr(w, '[')) {
		int64_t *nums;
		size_t n;
		const char *why;
		if (c->words < CASCADE_MAX_WORDS && hostlist_expand(c->ar, w, out, &nums, &n, HOSTLIST_MAX, &why)) {
			c->words += n;
			return n;
		}
		return 0;
	}
	*out = arena_alloc(c->ar, sizeof(**out));
	(*out)[0] = w;
	c->words++;
	return 1;
}

static bool name_held(cascade *c, const char *w)
{
	const char **names;
	size_t n = expand(c, w, &names);
	for (size_t i = 0; i < n; i++)
		if (strmap_get(&c->held_names, lower(c->ar, names[i])))
			return true;
	return false;
}

static void index_values(cascade *c, size_t top, const ast_value *v);

static void index_block(cascade *c, size_t top, const ast_block *b)
{
	for (const ast_stmt *s = b ? b->first : NULL; s; s = s->next) {
		index_values(c, top, s->values);
		index_block(c, top, s->block);
	}
}

static void index_values(cascade *c, size_t top, const ast_value *v)
{
	for (; v; v = v->next) {
		if (v->kind == AST_LIST) {
			index_values(c, top, v->items);
			continue;
		}
		if (v->kind != AST_WORD || c->words >= CASCADE_MAX_WORDS)
			continue;
		const char **names;
		size_t n = expand(c, v->text, &names);
		for (size_t i = 0; i < n; i++) {
			const char *key = lower(c->ar, names[i]);
			use *head = strmap_get(&c->uses, key);
			if (head && head->top == top)
				continue;
			use *u = arena_alloc(c->ar, sizeof(*u));
			u->top = top;
			u->next = head;
			strmap_put(&c->uses, key, u);
		}
	}
}

static void hold_name(cascade *c, const char *word)
{
	const char **names;
	size_t n = expand(c, word, &names);
	for (size_t i = 0; i < n; i++) {
		const char *key = lower(c->ar, names[i]);
		if (!strmap_put(&c->held_names, key, (void *)key))
			ARENA_PUSH(c->ar, c->queue, c->nqueue, c->queue_cap, key);
	}
}

enum { DEFINES_NOTHING, DEFINES_NAME, DEFINES_HOSTS };

/* What names a top-level statement defines for others: a hardware's,
 * profile's, pool's or container's own name, or nodes' hosts. */
static int defines(const ast_stmt *st)
{
	const ast_value *kw = st->values;
	if (ast_is_word(kw, "nodes") || ast_is_word(kw, "node"))
		return DEFINES_HOSTS;
	if (ast_is_word(kw, "hardware") || ast_is_word(kw, "profile") || ast_is_word(kw, "pool") ||
	    ast_is_word(kw, "container"))
		return DEFINES_NAME;
	return DEFINES_NOTHING;
}

static void hold(cascade *c, size_t top, int how);

/* What a top-level statement defines that others name: a hardware, profile,
 * pool or container its name; nodes their hosts. */
static void define_names(cascade *c, const ast_stmt *st)
{
	const ast_value *kw = st->values;
	if (!kw || kw->kind != AST_WORD)
		return;
	if (ast_is_word(kw, "mount")) {
		/* the mounts of one container are judged together (caching,
		 * interception, paths): its name holds the others */
		bool named = false;
		for (const ast_stmt *in = st->block ? st->block->first : NULL; in; in = in->next)
			if (ast_is_word(in->values, "container") && in->values->next && in->values->next->kind == AST_WORD) {
				hold_name(c, in->values->next->text);
				named = true;
			}
		if (!named && !c->mounts_held) { /* it may be any container's */
			c->mounts_held = true;
			for (size_t t = 0; t < c->ntops; t++)
				if (ast_is_word(c->tops[t]->values, "mount"))
					hold(c, t, HELD_DEP);
		}
		return;
	}
	int what = defines(st);
	if (what == DEFINES_NOTHING)
		return;
	bool hosts = what == DEFINES_HOSTS;
	for (const ast_value *v = kw->next; v && v->kind == AST_WORD; v = hosts ? v->next : NULL) {
		hold_name(c, v->text);
	}
}

/* Holds every free statement that mentions a newly held name. */
static void follow(cascade *c)
{
	while (c->nqueue) {
		const char *key = c->queue[--c->nqueue];
		for (use *u = strmap_get(&c->uses, key); u; u = u->next)
			if (c->state[u->top] == FREE && !ast_is_word(c->tops[u->top]->values, "cluster"))
				hold(c, u->top, HELD_DEP); /* the cluster names hosts only as access points: below */
	}
}

static void hold(cascade *c, size_t top, int how)
{
	if (c->state[top] != FREE)
		return;
	c->state[top] = (unsigned char)how;
	define_names(c, c->tops[top]);
	const ast_value *kw = c->tops[top]->values;
	if ((ast_is_word(kw, "nodes") || ast_is_word(kw, "node") || ast_is_word(kw, "profile") || ast_is_word(kw, "hardware")) &&
	    !c->fleet_held) {
		c->fleet_held = true;
		/* pools and containers are sized by the whole fleet, its nodes'
		 * profiles and hardware */
		for (size_t t = 0; t < c->ntops; t++) {
			const ast_value *w = c->tops[t]->values;
			if (c->state[t] == FREE && (ast_is_word(w, "pool") || ast_is_word(w, "container")))
				hold(c, t, HELD_DEP);
		}
	}
}

/* The top-level statement that holds loc, or ntops. */
static size_t top_of(const cascade *c, src_loc loc)
{
	size_t lo = 0, hi = c->ntops;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		src_loc t = c->tops[mid]->loc;
		if (t.file < loc.file || (t.file == loc.file && t.end <= loc.start))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->ntops) {
		src_loc t = c->tops[lo]->loc;
		if (t.file == loc.file && t.start <= loc.start && loc.start < t.end)
			return lo;
	}
	return c->ntops;
}

static int by_place(const void *a, const void *b)
{
	const ast_stmt *x = *(const ast_stmt *const *)a, *y = *(const ast_stmt *const *)b;
	if (x->loc.file != y->loc.file)
		return x->loc.file < y->loc.file ? -1 : 1;
	return x->loc.start < y->loc.start ? -1 : x->loc.start > y->loc.start;
}

/* The text a finding points at, for an unknown name. */
static const char *text_at(const diag_ctx *dc, arena *a, src_loc l)
{
	const src_file *f = src_get(dc->src, l.file);
	if (!f || l.end <= l.start || l.end > f->len)
		return NULL;
	return arena_strndup(a, f->text + l.start, l.end - l.start);
}

/* Rules that judge a value as it is written (its spelling, its unit, whether
 * it names something real), whatever pass finds it: such an error means the
 * statement was read wrong, like a bad value. */
static const rule_id value_rules[] = {
	R_SYNTAX, R_UNKNOWN_KEYWORD, R_BAD_VALUE, R_RELEASE, R_DUPLICATE, R_INCLUDE, R_LIMIT, R_IO,
	R_UNSAFE_VALUE, R_BDEV_ROLES, R_PROVIDER, R_LOG_MASK, R_KERNEL_PARAM_SYNTAX, R_KERNEL_PARAM_UNKNOWN,
	R_BIOS_ATTRIBUTE_NAME, R_OCLASS_UNKNOWN, R_ENV_MALFORMED, R_SYSTEM_NAME, R_TOPOLOGY_LOAD, R_DEVICE_ABSENT,
	R_NVME_UNKNOWN, R_FABRIC_DOMAIN_UNKNOWN, R_POOL_ACL, R_CONTAINER_ACL,
};

/* Rules that report a name no statement defines. */
static bool is_reference(const diag *d)
{
	return d->rule == &rule_table[R_UNKNOWN_NAME] || d->rule == &rule_table[R_ACCESS_POINTS_UNKNOWN];
}

static bool is_reading_error(const diag *d, unsigned resolved)
{
	if (d->severity != SEV_ERROR)
		return false;
	if (d->seq < resolved || is_reference(d))
		return true;
	for (size_t i = 0; i < sizeof(value_rules) / sizeof(value_rules[0]); i++)
		if (d->rule == &rule_table[value_rules[i]])
			return true;
	return false;
}

static const ast_value *header_end(const ast_stmt *st)
{
	const ast_value *v = st->values;
	while (v && !(v->kind == AST_PUNCT && strcmp(v->text, ":") == 0))
		v = v->next;
	return v;
}

/* A bad name where a statement defines names (a hardware's, a pool's, a host
 * list): every name not found may be the one meant. */
static void note_bad_definition(cascade *c, const diag *d, size_t t)
{
	const ast_stmt *st = c->tops[t];
	int what = defines(st);
	if (what == DEFINES_NOTHING)
		return;
	bool hosts = what == DEFINES_HOSTS;
	const ast_value *name = st->values->next;
	if (!name)
		return;
	uint32_t end = hosts ? (header_end(st) ? header_end(st)->loc.start
					      : st->block ? st->block->loc.start : st->loc.end)
			     : name->loc.end;
	if (d->loc.start >= name->loc.start && d->loc.start < end)
		c->names_unknown = true;
}

/* Whether d's check read (diag_reads) the place of a reading error kept
 * already: then d is what that error makes untrue. */
static bool read_kept_error(const cascade *c, const diag *d)
{
	for (const diag_read *r = d->reads; r; r = r->next)
		for (size_t k = 0; k < c->nkept; k++)
			if (c->kept[k].file == r->loc.file && r->loc.start <= c->kept[k].start &&
			    c->kept[k].start < r->loc.end)
				return true;
	return false;
}

/* A reading error: kept (and its statement held), or a cascade. */
static bool keep_reading_error(cascade *c, const diag *d, size_t t)
{
	if (t == c->ntops)
		return true; /* the file as a whole: no release, no cluster block */
	if (c->state[t] == HELD_DEP && is_reference(d))
		return false; /* what it names is held; a value it reads wrong stands */
	if (is_reference(d)) {
		const char *w = text_at(c->dc, c->ar, d->loc);
		if (c->names_unknown || (w && name_held(c, w))) {
			hold(c, t, HELD_DEP);
			follow(c);
			return false;
		}
	}
	if (read_kept_error(c, d))
		return false; /* its check read a value already reported wrong */
	ARENA_PUSH(c->ar, c->kept, c->nkept, c->kept_cap, d->loc);
	hold(c, t, HELD_OWN);
	note_bad_definition(c, d, t);
	follow(c);
	return true;
}

/* The access point rules read the nodes they name: with a held nodes,
 * profile or hardware statement, what those nodes are is unknown. */
static bool is_access_point_rule(const diag *d)
{
	return d->rule == &rule_table[R_ACCESS_POINT_CLIENT] || d->rule == &rule_table[R_ACCESS_POINTS_COUNT];
}

static bool context_held(cascade *c, const diag *d)
{
	return d->context && strncmp(d->context, "node ", 5) == 0 && name_held(c, d->context + 5);
}

static void sort_by_seq(const diag_ctx *dc, size_t *order, size_t n)
{
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && dc->items[order[b - 1]]->seq > dc->items[order[b]]->seq; b--) {
			size_t tmp = order[b];
			order[b] = order[b - 1];
			order[b - 1] = tmp;
		}
}

void cascade_hold(diag_ctx *dc, const ast_block *root, unsigned resolved)
{
	size_t n = dc->n;
	if (!dc->counts[SEV_ERROR] || !root)
		return; /* no error: every finding stands */
	cascade c = {0};
	c.ar = dc->ar;
	c.dc = dc;
	size_t tops_cap = 0;
	for (const ast_stmt *s = root->first; s; s = s->next)
		ARENA_PUSH(c.ar, c.tops, c.ntops, tops_cap, s);
	if (c.ntops) /* (a file of comments only has none: qsort takes no NULL) */
		qsort(c.tops, c.ntops, sizeof(*c.tops), by_place);
	c.state = arena_alloc(c.ar, c.ntops + 1);
	strmap_init(&c.held_names, c.ar);
	strmap_init(&c.uses, c.ar);
	for (size_t t = 0; t < c.ntops; t++) {
		index_values(&c, t, c.tops[t]->values);
		index_block(&c, t, c.tops[t]->block);
	}

	bool *drop = arena_alloc(c.ar, n ? n : 1);
	bool *reading = arena_alloc(c.ar, n ? n : 1);
	/* reading errors in the order they were found (a statement's later
	 * errors may be its earlier ones' cascades), names not found last: the
	 * statement that should have defined one may be read wrong */
	size_t *order = arena_alloc(c.ar, (n ? n : 1) * sizeof(*order));
	for (int pass = 0; pass < 2; pass++) {
		size_t no = 0;
		for (size_t i = 0; i < n; i++)
			if (is_reading_error(dc->items[i], resolved) && is_reference(dc->items[i]) == (pass == 1))
				order[no++] = i;
		sort_by_seq(dc, order, no);
		for (size_t k = 0; k < no; k++) {
			const diag *d = dc->items[order[k]];
			reading[order[k]] = true;
			drop[order[k]] = !keep_reading_error(&c, d, top_of(&c, d->loc));
		}
	}
	/* a held cluster statement: the provider, fabric and settings every
	 * later check reads (what was read of other statements stands); a held
	 * release: every statement was read against its tables */
	bool global = false;
	size_t release = c.ntops;
	for (size_t t = 0; t < c.ntops; t++) {
		global |= c.state[t] == HELD_OWN && ast_is_word(c.tops[t]->values, "cluster");
		if (c.state[t] == HELD_OWN && ast_is_word(c.tops[t]->values, "daos"))
			release = t;
	}
	for (size_t i = 0; i < n; i++) {
		const diag *d = dc->items[i];
		size_t t = top_of(&c, d->loc);
		if (release < c.ntops && t != release)
			drop[i] = true;
		else if (!reading[i])
			drop[i] = global || (t < c.ntops && c.state[t] != FREE) || context_held(&c, d) ||
				  (c.fleet_held && is_access_point_rule(d));
	}
	/* the warnings and notes of a statement with an error left */
	bool *has_error = arena_alloc(c.ar, c.ntops + 1);
	for (size_t i = 0; i < n; i++)
		if (!drop[i] && dc->items[i]->severity == SEV_ERROR)
			has_error[top_of(&c, dc->items[i]->loc)] = true;
	size_t errors_left = 0;
	for (size_t i = 0; i < n; i++) {
		const diag *d = dc->items[i];
		size_t t = top_of(&c, d->loc);
		if (d->severity != SEV_ERROR && t < c.ntops && has_error[t])
			drop[i] = true;
		errors_left += !drop[i] && d->severity == SEV_ERROR;
	}
	if (errors_left)
		diag_hold(dc, drop);
}
