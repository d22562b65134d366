/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "diag.h"

#include "safe.h"

#include "value.h"

#include <ctype.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag_ctx *dc, arena *ar, src_set *src)
{
	memset(dc, 0, sizeof(*dc));
	dc->ar = ar;
	dc->src = src;
	dc->sink.notes_tail = &dc->sink.notes;
	dc->sups_tail = &dc->sups;
}

void diag_suppression_comment(diag_ctx *dc, const char *text, size_t len, src_loc loc)
{
	/* "# dslc: allow a, b -- reason" */
	char *s = arena_strndup(dc->ar, text, len);
	char *p = s + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	p += 5; /* "dslc:" */
	while (*p == ' ' || *p == '\t')
		p++;
	/* `allow` and at least one rule id: trailing blanks (which fmt drops)
	 * must not turn a malformed comment into one that names no rule */
	const char *ids = p + 5;
	while (*ids == ' ' || *ids == '\t' || *ids == '\r')
		ids++;
	if (strncmp(p, "allow", 5) != 0 || (p[5] != ' ' && p[5] != '\t') || !*ids || strncmp(ids, "--", 2) == 0) {
		diag *d = diag_report(dc, R_SUPPRESSION_RULE, loc, "'# dslc:' comments say `allow <rule-id> -- <reason>`");
		diag_help(dc, d, "write `# dslc: allow <rule-id> -- <reason>`, or drop 'dslc:' from an ordinary comment");
		return;
	}
	p += 5;
	char *reason = strstr(p, "--");
	if (reason) {
		*reason = '\0';
		reason += 2;
		while (*reason == ' ' || *reason == '\t')
			reason++;
		size_t rl = strlen(reason);
		while (rl && (reason[rl - 1] == ' ' || reason[rl - 1] == '\t' || reason[rl - 1] == '\r'))
			reason[--rl] = '\0';
		if (!rl)
			reason = NULL;
	}
	for (char *id = strtok(p, ", \t"); id; id = strtok(NULL, ", \t")) {
		suppression *sp = arena_alloc(dc->ar, sizeof(*sp));
		sp->rule_id = id;
		sp->reason = reason;
		sp->loc = loc;
		*dc->sups_tail = sp;
		dc->sups_tail = &sp->next;
	}
}

static bool suppressible(const rule_info *r)
{
	return rule_silenceable(r) && strncmp(r->id, "suppression-", 12) != 0;
}

static void recount(diag_ctx *dc)
{
	memset(dc->counts, 0, sizeof(dc->counts));
	for (size_t i = 0; i < dc->n; i++)
		dc->counts[dc->items[i]->severity]++;
}

void diag_apply_allows(diag_ctx *dc, suppression *sups)
{
	size_t k = 0;
	for (size_t i = 0; i < dc->n; i++) {
		diag *d = dc->items[i];
		bool drop = false;
		for (suppression *sp = sups; sp && suppressible(d->rule); sp = sp->next) {
			if (!sp->range.file || sp->range.file != d->loc.file || strcmp(sp->rule_id, d->rule->id) != 0)
				continue;
			if (d->loc.start >= sp->range.start && d->loc.start < sp->range.end && sp->reason) {
				sp->used = true;
				drop = true;
			}
		}
		if (!drop)
			dc->items[k++] = d;
	}
	dc->n = k;
	recount(dc);
}

void diag_apply_suppressions(diag_ctx *dc)
{
	diag_apply_allows(dc, dc->sups);
	bool errors = dc->counts[SEV_ERROR] > 0; /* after the suppressions above */
	for (suppression *sp = dc->sups; sp; sp = sp->next) {
		const rule_info *r = rule_find(sp->rule_id);
		if (!r) {
			const char *best = NULL;
			size_t bd = 4;
			for (int i = 0; i < R__COUNT; i++) {
				size_t dd = val_edit_distance(sp->rule_id, rule_table[i].id);
				if (dd < bd) {
					bd = dd;
					best = rule_table[i].id;
				}
			}
			diag *d = diag_report(dc, R_SUPPRESSION_RULE, sp->loc, "no rule '%s' to allow", sp->rule_id);
			if (best)
				diag_help(dc, d, "did you mean '%s'? (`dslc rules` lists them)", best);
			else
				diag_help(dc, d, "`dslc rules` lists the rule ids");
		} else if (!sp->reason) {
			diag *d = diag_report(dc, R_SUPPRESSION_REASON, sp->loc, "allowing %s needs a reason", sp->rule_id);
			diag_help(dc, d, "write `# dslc: allow %s -- <why this is fine here>`", sp->rule_id);
		} else if (!sp->used && !errors && strcmp(r->category, "node") != 0) {
			/* with an error left, checks after it were skipped: the finding this
			 * allows may come back once that error is fixed, so say nothing yet;
			 * a node-* rule is raised on a machine by `dslc doctor`, which
			 * applies the allow there, never by lint: its use is not knowable */
			diag *d = diag_report(dc, R_SUPPRESSION_UNUSED, sp->loc, "nothing here is reported as %s", sp->rule_id);
			diag_help(dc, d, "remove the suppression");
		}
	}
}

void diag_drop(diag_ctx *dc, const bool *drop)
{
	size_t k = 0;
	for (size_t i = 0; i < dc->n; i++)
		if (!drop[i])
			dc->items[k++] = dc->items[i];
	dc->n = k;
	recount(dc);
}

void diag_hold(diag_ctx *dc, const bool *hold)
{
	for (size_t i = 0; i < dc->n; i++)
		dc->held += hold[i];
	diag_drop(dc, hold);
}

void diag_set_baselined(diag_ctx *dc, const bool *known)
{
	dc->baseline_used = true;
	for (size_t i = 0; i < dc->n; i++)
		if (known[i])
			ARENA_PUSH(dc->ar, dc->baselined, dc->nbaselined, dc->baselined_cap, dc->items[i]);
	diag_drop(dc, known);
}

void diag_drop_rule(diag_ctx *dc, const rule_info *rule)
{
	size_t k = 0;
	for (size_t i = 0; i < dc->n; i++)
		if (dc->items[i]->rule != rule)
			dc->items[k++] = dc->items[i];
	dc->n = k;
	recount(dc);
}

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	return h;
}

/* The slot of hash h in t: the one holding it (*had true), else, with
 * insert, the one now claimed for it (*had false, its finding NULL); NULL
 * when h is absent and not inserted. */
static struct diag_slot *table_slot(arena *a, diag_table *t, unsigned long long h, bool insert, bool *had)
{
	if (h == 0)
		h = 1;
	*had = false;
	if (insert && (t->n + 1) * 2 > t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 64;
		struct diag_slot *ns = arena_alloc(a, nc * sizeof(*ns));
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->slots[i].h)
				continue;
			size_t j = t->slots[i].h & (nc - 1);
			while (ns[j].h)
				j = (j + 1) & (nc - 1);
			ns[j] = t->slots[i];
		}
		t->slots = ns;
		t->cap = nc;
	}
	if (!t->cap)
		return NULL;
	size_t j = h & (t->cap - 1);
	while (t->slots[j].h) {
		if (t->slots[j].h == h) {
			*had = true;
			return &t->slots[j];
		}
		j = (j + 1) & (t->cap - 1);
	}
	if (!insert)
		return NULL;
	t->slots[j].h = h;
	t->n++;
	return &t->slots[j];
}

/* What a finding says is bounded and printable, whatever it echoes of the
 * input: a 10 MB name or an escape sequence stays out of the terminal. */
static char *tidy(char *s)
{
	size_t n = strlen(s);
	if (n > DIAG_MAX_TEXT) {
		n = DIAG_MAX_TEXT;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--; /* not inside a UTF-8 sequence */
		memcpy(s + n, "...", 4);
	}
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

/* Past the cap: the finding is not kept (not even formatted); the limit
 * finding takes the highest severity of what it stands for, so dropping
 * never changes whether lint fails. */
static diag *drop_past_cap(diag_ctx *dc, rule_id rule)
{
	diag *limit = dc->items[DIAG_MAX_FINDINGS];
	diag_severity sev = rule_table[rule].severity;
	if (sev > limit->severity) {
		dc->counts[limit->severity]--;
		limit->severity = sev;
		dc->counts[sev]++;
	}
	dc->sink.notes = NULL;
	dc->sink.notes_tail = &dc->sink.notes;
	return &dc->sink;
}

diag *diag_report(diag_ctx *dc, rule_id rule, src_loc loc, const char *fmt, ...)
{
	if (dc->n > DIAG_MAX_FINDINGS)
		return drop_past_cap(dc, rule);
	/* formatted on the stack: a finding reported again (one per node of
	 * a 100,000-node profile) costs the arena nothing; tidy cuts at
	 * DIAG_MAX_TEXT, so more bytes than that are never needed */
	char text[DIAG_MAX_TEXT + 8];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	char *msg = tidy(text);

	unsigned long long h = 1469598103934665603ULL;
	h = fnv(h, &rule, sizeof(rule));
	h = fnv(h, &loc, sizeof(loc));
	h = fnv(h, msg, strlen(msg));
	bool had;
	table_slot(dc->ar, &dc->seen, h, true, &had);
	if (had) {
		dc->sink.notes = NULL;
		dc->sink.notes_tail = &dc->sink.notes;
		return &dc->sink;
	}
	/* doctor's findings stand at the node's line when nothing better names
	 * them: there, two are two drifts (two files), not one mistake */
	bool merges = loc.file && rule != R_LIMIT && strcmp(rule_table[rule].category, "node") != 0;
	unsigned long long span = fnv(fnv(1469598103934665603ULL, &rule, sizeof(rule)), &loc, sizeof(loc));
	struct diag_slot *at = merges ? table_slot(dc->ar, &dc->spans, span, false, &had) : NULL;
	diag *first = at ? at->d : NULL;
	if (first) {
		if (dc->context)
			diag_note_at(dc, first, SRC_LOC_NONE, "also, for %s: %s", dc->context, msg);
		else
			diag_note_at(dc, first, SRC_LOC_NONE, "also: %s", msg);
		diag *m = arena_alloc(dc->ar, sizeof(*m));
		m->into = first;
		m->rule = first->rule;
		m->loc = loc;
		m->notes_tail = &m->notes;
		m->fixes_tail = &m->fixes;
		return m;
	}
	if (dc->n == DIAG_MAX_FINDINGS) {
		/* a hostile input cannot make the report (or its memory) unbounded */
		diag *l = arena_alloc(dc->ar, sizeof(*l));
		l->rule = &rule_table[R_LIMIT];
		l->severity = SEV_NOTE;
		l->loc = loc;
		l->msg = "more than 10,000 findings: the rest are not reported";
		l->help = "fix the findings above and lint again";
		l->notes_tail = &l->notes;
		l->seq = (unsigned)dc->n;
		ARENA_PUSH(dc->ar, dc->items, dc->n, dc->cap, l);
		dc->counts[SEV_NOTE]++;
		return drop_past_cap(dc, rule);
	}
	diag *d = arena_alloc(dc->ar, sizeof(*d));
	d->rule = &rule_table[rule];
	d->severity = d->rule->severity;
	d->loc = loc;
	d->msg = arena_strdup(dc->ar, msg);
	d->notes_tail = &d->notes;
	d->fixes_tail = &d->fixes;
	d->seq = (unsigned)dc->n;
	ARENA_PUSH(dc->ar, dc->items, dc->n, dc->cap, d);
	dc->counts[d->severity]++;
	d->context = dc->context;
	if (dc->context)
		diag_note_at(dc, d, SRC_LOC_NONE, "for %s", dc->context);
	if (merges)
		table_slot(dc->ar, &dc->spans, span, true, &had)->d = d;
	return d;
}

void diag_note_at(diag_ctx *dc, diag *d, src_loc loc, const char *fmt, ...)
{
	if (d == &dc->sink)
		return;
	va_list ap;
	va_start(ap, fmt);
	diag_note *n = arena_alloc(dc->ar, sizeof(*n));
	n->loc = loc;
	n->msg = tidy(arena_vprintf(dc->ar, fmt, ap));
	va_end(ap);
	if (d->into) { /* a merged case's note, unless the finding says it already */
		d = d->into;
		for (const diag_note *o = d->notes; o; o = o->next)
			if (o->loc.file == loc.file && o->loc.start == loc.start && o->loc.end == loc.end &&
			    strcmp(o->msg, n->msg) == 0)
				return;
	}
	*d->notes_tail = n;
	d->notes_tail = &n->next;
}

void diag_reads(diag_ctx *dc, diag *d, src_loc at)
{
	if (d == &dc->sink || !at.file)
		return;
	if (d->into)
		d = d->into; /* the same check at the same place: the same inputs */
	diag_read *r = arena_alloc(dc->ar, sizeof(*r));
	r->loc = at;
	r->next = d->reads;
	d->reads = r;
}

void diag_help(diag_ctx *dc, diag *d, const char *fmt, ...)
{
	if (d == &dc->sink)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *help = tidy(arena_vprintf(dc->ar, fmt, ap));
	va_end(ap);
	if (!d->into)
		d->help = help;
	else if (!d->into->help || strcmp(d->into->help, help) != 0)
		diag_note_at(dc, d->into, SRC_LOC_NONE, "and: %s", help); /* the merged case's own remedy */
}

/* A fix is written into the user's file: one token or a few words, never
 * a byte that could start a comment, a string, a block or a new line. */
/* A byte a fix may write outside a string: none that could open a string,
 * a comment or a block, end a statement or expand in a shell. */
static bool fix_byte_ok(char c)
{
	return (unsigned char)c >= 0x20 && c != 0x7f && !strchr("\"'#{};`\\$", c);
}

/* A byte inside a string a fix quotes: one that means itself there. */
static bool quoted_byte_ok(char c)
{
	return (unsigned char)c >= 0x20 && c != 0x7f && !strchr("\"'#`\\$", c);
}

static bool fix_text_ok(const char *t)
{
	for (; *t; t++)
		if (!fix_byte_ok(*t))
			return false;
	return true;
}

/* Where a fix at `at` goes: the finding, or the one it was merged into
 * unless a fix there already touches those bytes (the first case's edit is
 * kept; two edits of one finding never overlap). NULL: nowhere. */
static diag *fix_owner(diag_ctx *dc, diag *d, src_loc at)
{
	if (d == &dc->sink)
		return NULL;
	if (!d->into)
		return d;
	for (const diag_fix *f = d->into->fixes; f; f = f->next)
		if (f->at.file == at.file && at.start <= f->at.end && f->at.start <= at.end)
			return NULL;
	return d->into;
}

/* d's next fix, when its text is not too long (the checks of its bytes are
 * the caller's) */
static void fix_append(diag_ctx *dc, diag *d, src_loc at, const char *text)
{
	if (strlen(text) > DIAG_MAX_TEXT)
		return;
	diag_fix *fx = arena_alloc(dc->ar, sizeof(*fx));
	fx->at = at;
	fx->text = text;
	*d->fixes_tail = fx;
	d->fixes_tail = &fx->next;
}

void diag_fix_edit(diag_ctx *dc, diag *d, src_loc at, const char *fmt, ...)
{
	if (!at.file || at.end < at.start || !(d = fix_owner(dc, d, at)))
		return;
	va_list ap;
	va_start(ap, fmt);
	char *text = arena_vprintf(dc->ar, fmt, ap);
	va_end(ap);
	if (fix_text_ok(text))
		fix_append(dc, d, at, text);
}

void diag_fix_name(diag_ctx *dc, diag *d, src_loc at, const char *was, const char *name)
{
	const src_file *f = at.file ? src_get(dc->src, at.file) : NULL;
	if (!f || !was || !name || at.end > f->len || at.end - at.start != strlen(was) ||
	    memcmp(f->text + at.start, was, strlen(was)) != 0)
		return;
	diag_fix_edit(dc, d, at, "%s", name);
}

void diag_fix_quote(diag_ctx *dc, diag *d, src_loc at)
{
	const src_file *f = at.file ? src_get(dc->src, at.file) : NULL;
	if (!f || at.end <= at.start || at.end > f->len || at.end - at.start > DIAG_MAX_TEXT || !(d = fix_owner(dc, d, at)))
		return;
	for (uint32_t i = at.start; i < at.end; i++)
		if (f->text[i] == ' ' || !quoted_byte_ok(f->text[i])) /* (a word of the source: no blank) */
			return;
	fix_append(dc, d, at, arena_printf(dc->ar, "\"%.*s\"", (int)(at.end - at.start), f->text + at.start));
}

/* prefix and suffix of diag_fix_quoted: fix_text_ok's bytes, and braces
 * that pair up over both */
static bool fix_frame_ok(const char *prefix, const char *suffix)
{
	int depth = 0;
	const char *parts[] = {prefix, suffix};
	for (int i = 0; i < 2; i++)
		for (const char *c = parts[i]; *c; c++) {
			if (*c == '{' || *c == '}') {
				depth += *c == '{' ? 1 : -1;
				if (depth < 0)
					return false;
			} else if (!fix_byte_ok(*c)) {
				return false;
			}
		}
	return depth == 0;
}

void diag_fix_quoted(diag_ctx *dc, diag *d, src_loc at, const char *prefix, const char *value, const char *suffix)
{
	if (!value || !at.file || at.end < at.start || !fix_frame_ok(prefix, suffix) || !(d = fix_owner(dc, d, at)))
		return;
	for (const char *c = value; *c; c++)
		if (!quoted_byte_ok(*c))
			return;
	fix_append(dc, d, at, arena_printf(dc->ar, "%s\"%s\"%s", prefix, value, suffix));
}

void diag_fix_in_block(diag_ctx *dc, diag *d, src_loc block, const char *fmt, ...)
{
	const src_file *f = block.file ? src_get(dc->src, block.file) : NULL;
	if (!f || block.end > f->len || block.end <= block.start)
		return;
	/* the block's brace, not one inside a quoted value before it */
	const char *brace = NULL;
	bool quoted = false;
	for (uint32_t i = block.start; i < block.end && !brace; i++) {
		if (f->text[i] == '\\' && quoted)
			i++;
		else if (f->text[i] == '"')
			quoted = !quoted;
		else if (f->text[i] == '{' && !quoted)
			brace = f->text + i;
	}
	if (!brace)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *text = arena_vprintf(dc->ar, fmt, ap);
	va_end(ap);
	src_loc after = block;
	after.start = after.end = (uint32_t)(brace + 1 - f->text);
	diag_fix_edit(dc, d, after, "%s", text);
}

src_loc diag_loc_with_keyword(const diag_ctx *dc, src_loc at, const char *word)
{
	const src_file *f = at.file ? src_get(dc->src, at.file) : NULL;
	size_t n = strlen(word);
	if (!f || at.start > f->len)
		return at;
	uint32_t i = at.start;
	while (i > 0 && (f->text[i - 1] == ' ' || f->text[i - 1] == '\t'))
		i--;
	if (i == at.start || i < n || memcmp(f->text + i - n, word, n) != 0)
		return at;
	if (i > n && (isalnum((unsigned char)f->text[i - n - 1]) || f->text[i - n - 1] == '_'))
		return at;
	at.start = i - (uint32_t)n;
	return at;
}

src_loc diag_loc_line_if_alone(const diag_ctx *dc, src_loc at)
{
	const src_file *f = at.file ? src_get(dc->src, at.file) : NULL;
	if (!f || at.end > f->len || at.end < at.start)
		return at;
	uint32_t a = at.start, b = at.end;
	while (a > 0 && (f->text[a - 1] == ' ' || f->text[a - 1] == '\t'))
		a--;
	while (b < f->len && (f->text[b] == ' ' || f->text[b] == '\t'))
		b++;
	if ((a > 0 && f->text[a - 1] != '\n') || b >= f->len || f->text[b] != '\n')
		return at;
	at.start = a;
	at.end = b + 1;
	return at;
}

void diag_set_severity(diag_ctx *dc, diag *d, diag_severity sev)
{
	if (d == &dc->sink)
		return; /* a duplicate, already counted once */
	if (d->into) {
		if (sev > d->into->severity)
			diag_set_severity(dc, d->into, sev);
		return;
	}
	dc->counts[d->severity]--;
	d->severity = sev;
	dc->counts[sev]++;
}

static const char *copy_str(arena *a, const char *s)
{
	return s ? arena_strdup(a, s) : NULL;
}

void diag_copy_findings(diag_ctx *to, const diag_ctx *from)
{
	for (size_t i = 0; i < from->n; i++) {
		const diag *f = from->items[i];
		diag *d = arena_alloc(to->ar, sizeof(*d));
		*d = (diag){.rule = f->rule, .severity = f->severity, .loc = f->loc, .msg = copy_str(to->ar, f->msg),
			    .help = copy_str(to->ar, f->help), .seq = f->seq, .context = copy_str(to->ar, f->context)};
		d->notes_tail = &d->notes;
		d->fixes_tail = &d->fixes;
		for (const diag_note *n = f->notes; n; n = n->next) {
			diag_note *c = arena_alloc(to->ar, sizeof(*c));
			*c = (diag_note){.loc = n->loc, .msg = copy_str(to->ar, n->msg)};
			*d->notes_tail = c;
			d->notes_tail = &c->next;
		}
		for (const diag_fix *x = f->fixes; x; x = x->next) {
			diag_fix *c = arena_alloc(to->ar, sizeof(*c));
			*c = (diag_fix){.at = x->at, .text = copy_str(to->ar, x->text)};
			*d->fixes_tail = c;
			d->fixes_tail = &c->next;
		}
		ARENA_PUSH(to->ar, to->items, to->n, to->cap, d);
	}
	for (int k = 0; k < 3; k++)
		to->counts[k] = from->counts[k];
	to->held = from->held;
}

unsigned diag_count(const diag_ctx *dc, diag_severity sev)
{
	return dc->counts[sev];
}

static int diag_cmp(const void *a, const void *b)
{
	const diag *x = *(diag *const *)a, *y = *(diag *const *)b;
	/* Findings without a location (whole-cluster facts) come first. */
	if (x->loc.file != y->loc.file)
		return x->loc.file < y->loc.file ? -1 : 1;
	if (x->loc.start != y->loc.start)
		return x->loc.start < y->loc.start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void diag_sort(diag_ctx *dc)
{
	if (dc->n > 1)
		qsort(dc->items, dc->n, sizeof(*dc->items), diag_cmp);
}

void diag_print_escaped(FILE *out, const char *text)
{
	size_t n = strlen(text);
	for (size_t i = 0, k; i < n; i += k) {
		k = safe_utf8_seq(text + i, n - i);
		unsigned char c = (unsigned char)text[i];
		if (k && c >= 0x20 && c != 0x7f) {
			fwrite(text + i, 1, k, out);
		} else {
			fprintf(out, "\\x%02x", c);
			k = 1;
		}
	}
}

static void print_where(diag_ctx *dc, FILE *out, src_loc loc)
{
	const src_file *f = src_get(dc->src, loc.file);
	if (!f) {
		fputs("dslc: ", out);
		return;
	}
	src_pos p = src_position(dc->src, loc.file, loc.start);
	diag_print_escaped(out, f->path);
	fprintf(out, ":%u:%u: ", p.line, p.col);
}

static void print_snippet(diag_ctx *dc, FILE *out, src_loc loc)
{
	if (!src_get(dc->src, loc.file))
		return;
	src_pos p = src_position(dc->src, loc.file, loc.start);
	size_t len;
	const char *line = src_line_text(dc->src, loc.file, p.line, &len);
	size_t col = p.col - 1;
	if (col > DIAG_MAX_TEXT / 2 && col <= len) { /* a long line: show the part around the caret */
		line += col - DIAG_MAX_TEXT / 4;
		len -= col - DIAG_MAX_TEXT / 4;
		col = DIAG_MAX_TEXT / 4;
	}
	if (len > DIAG_MAX_TEXT)
		len = DIAG_MAX_TEXT;
	int w = fprintf(out, "%5u | ", p.line) - 2;
	for (size_t i = 0; i < len; i++)
		fputc((unsigned char)line[i] < 0x20 && line[i] != '\t' ? '?' : line[i] == 0x7f ? '?' : line[i], out);
	fputc('\n', out);
	fprintf(out, "%*s| ", w, "");
	for (size_t i = 0; i < col && i < len; i++)
		fputc(line[i] == '\t' ? '\t' : ' ', out);
	size_t span = loc.end > loc.start ? loc.end - loc.start : 1;
	if (col + span > len)
		span = len > col ? len - col : 1;
	for (size_t i = 0; i < span; i++)
		fputc('^', out);
	fputc('\n', out);
}

static diag_colour_mode colour_mode = COLOUR_AUTO;

void diag_set_colour(diag_colour_mode m)
{
	colour_mode = m;
}

/* --color first; then, for auto, NO_COLOR (no-color.org) and FORCE_COLOR
 * (force-color.org), each when set and not empty, NO_COLOR winning; then a
 * terminal whose TERM is set and not dumb. */
bool diag_use_colour(FILE *out)
{
	if (colour_mode != COLOUR_AUTO)
		return colour_mode == COLOUR_ALWAYS;
	const char *no = getenv("NO_COLOR"), *force = getenv("FORCE_COLOR"), *term = getenv("TERM");
	if (no && *no)
		return false;
	if (force && *force)
		return true;
	return isatty(fileno(out)) && term && strcmp(term, "dumb") != 0;
}

void diag_print_text(diag_ctx *dc, FILE *out, unsigned max_shown)
{
	size_t shown = 0;
	bool colour = diag_use_colour(out);
	static const char *const sev_colour[] = {"\033[1;36m", "\033[1;33m", "\033[1;31m"};
	for (size_t i = 0; i < dc->n; i++) {
		if (max_shown && shown == max_shown) {
			fprintf(out, "dslc: %zu more finding%s not shown (--max-findings)\n",
				dc->n - shown, dc->n - shown == 1 ? "" : "s");
			break;
		}
		diag *d = dc->items[i];
		print_where(dc, out, d->loc);
		if (colour)
			fprintf(out, "%s%s\033[0m[%s]: \033[1m", sev_colour[d->severity], severity_name(d->severity), d->rule->id);
		else
			fprintf(out, "%s[%s]: ", severity_name(d->severity), d->rule->id);
		diag_print_escaped(out, d->msg);
		fputs(colour ? "\033[0m\n" : "\n", out);
		print_snippet(dc, out, d->loc);
		for (diag_note *n = d->notes; n; n = n->next) {
			if (src_get(dc->src, n->loc.file))
				print_where(dc, out, n->loc);
			fputs("note: ", out);
			diag_print_escaped(out, n->msg);
			fputc('\n', out);
		}
		if (d->help) {
			fputs("help: ", out);
			diag_print_escaped(out, d->help);
			fputc('\n', out);
		}
		shown++;
	}
}
