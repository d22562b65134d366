/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* udiff.c - see udiff.h. Myers, "An O(ND) Difference Algorithm and Its
 * Variations" (1986), with the trace of each round kept for the walk back;
 * the common head and tail are taken off first, so a fix of a few lines
 * costs a few rounds whatever the file's size. */
#include "udiff.h"

#include <string.h>

enum { CONTEXT = 3, MAX_ROUNDS = 4096 }; /* the trace holds about MAX_ROUNDS^2 ints */

typedef struct line {
	const char *p;
	size_t n; /* with its '\n', when it has one */
} line;

typedef struct text {
	line *v;
	size_t n;
} text;

static text split(arena *a, const char *s, size_t len)
{
	text t = {NULL, 0};
	size_t cap = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (s + i)) + 1 : len - i;
		line l = {s + i, n};
		ARENA_PUSH(a, t.v, t.n, cap, l);
		i += n;
	}
	return t;
}

static bool same(const line *x, const line *y)
{
	return x->n == y->n && memcmp(x->p, y->p, x->n) == 0;
}

/* The edit script, one op per line of either text: ' ' both, '-' old only, '+' new only. */
typedef struct script {
	char *op;
	size_t n;
} script;

/* Myers on old[0..n) and new[0..m); false when it needs more than MAX_ROUNDS. */
static bool myers(arena *a, const line *x, size_t n, const line *y, size_t m, char *op, size_t *nop)
{
	long max = (long)(n + m), off = max;
	long rounds = max < MAX_ROUNDS ? max : MAX_ROUNDS;
	long *v = arena_alloc(a, (size_t)(2 * max + 2) * sizeof(long));
	long **trace = arena_alloc(a, (size_t)(rounds + 1) * sizeof(long *));
	long d, found = -1;
	for (d = 0; d <= rounds && found < 0; d++) {
		for (long k = -d; k <= d; k += 2) {
			long xx = k == -d || (k != d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
			long yy = xx - k;
			while (xx < (long)n && yy < (long)m && same(&x[xx], &y[yy])) {
				xx++;
				yy++;
			}
			v[off + k] = xx;
			if (xx >= (long)n && yy >= (long)m) {
				found = d;
				break;
			}
		}
		trace[d] = arena_alloc(a, (size_t)(2 * d + 1) * sizeof(long));
		memcpy(trace[d], v + off - d, (size_t)(2 * d + 1) * sizeof(long));
	}
	if (found < 0)
		return false;
	/* walk back from (n, m), writing the ops from the end */
	size_t w = n + m;
	long xx = (long)n, yy = (long)m;
	for (d = found; d > 0; d--) {
		const long *pv = trace[d - 1]; /* index k + (d - 1) */
		long k = xx - yy;
		long pk = k == -d || (k != d && pv[k - 1 + d - 1] < pv[k + 1 + d - 1]) ? k + 1 : k - 1;
		long px = pv[pk + d - 1], py = px - pk;
		for (; xx > px && yy > py; xx--, yy--)
			op[--w] = ' ';
		op[--w] = xx == px ? '+' : '-';
		if (xx == px)
			yy--;
		else
			xx--;
	}
	for (; xx > 0; xx--) /* round 0's diagonal: xx == yy */
		op[--w] = ' ';
	memmove(op, op + w, n + m - w);
	*nop = n + m - w;
	return true;
}

static script edit_script(arena *a, const text *o, const text *nw)
{
	size_t head = 0, tail = 0;
	while (head < o->n && head < nw->n && same(&o->v[head], &nw->v[head]))
		head++;
	while (tail < o->n - head && tail < nw->n - head && same(&o->v[o->n - 1 - tail], &nw->v[nw->n - 1 - tail]))
		tail++;
	size_t n = o->n - head - tail, m = nw->n - head - tail;
	script s = {arena_alloc(a, o->n + nw->n + 1), 0};
	memset(s.op, ' ', head);
	size_t mid = 0;
	if (!myers(a, o->v + head, n, nw->v + head, m, s.op + head, &mid)) {
		memset(s.op + head, '-', n); /* too different: the middle replaced at once */
		memset(s.op + head + n, '+', m);
		mid = n + m;
	}
	memset(s.op + head + mid, ' ', tail);
	s.n = head + mid + tail;
	return s;
}

static void print_line(FILE *out, char tag, const line *l)
{
	fputc(tag, out);
	fwrite(l->p, 1, l->n, out);
	if (!l->n || l->p[l->n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* "@@ -1,3 +1,4 @@": an empty side starts at the line before it. */
static void print_range(FILE *out, char sign, size_t start, size_t count)
{
	fprintf(out, " %c%zu", sign, count ? start + 1 : start);
	if (count != 1)
		fprintf(out, ",%zu", count);
}

bool udiff_print(arena *a, FILE *out, const char *path, const char *old, size_t old_len, const char *new_,
		 size_t new_len)
{
	if (old_len == new_len && memcmp(old, new_, old_len) == 0)
		return false;
	text o = split(a, old, old_len), nw = split(a, new_, new_len);
	script s = edit_script(a, &o, &nw);
	fprintf(out, "--- %s\n+++ %s\n", path, path);
	/* position of each op in both texts */
	size_t *oi = arena_alloc(a, (s.n + 1) * sizeof(size_t)), *ni = arena_alloc(a, (s.n + 1) * sizeof(size_t));
	for (size_t i = 0, x = 0, y = 0; i <= s.n; i++) {
		oi[i] = x;
		ni[i] = y;
		if (i < s.n) {
			x += s.op[i] != '+';
			y += s.op[i] != '-';
		}
	}
	for (size_t i = 0; i < s.n;) {
		if (s.op[i] == ' ') {
			i++;
			continue;
		}
		/* a hunk: from CONTEXT before this change to CONTEXT after the last
		 * change that is at most 2 * CONTEXT unchanged lines from the next */
		size_t from = i > CONTEXT ? i - CONTEXT : 0, end = i;
		for (size_t j = i; j < s.n; j++) {
			if (s.op[j] != ' ')
				end = j + 1;
			else if (j - end >= 2 * CONTEXT)
				break;
		}
		size_t to = end + CONTEXT < s.n ? end + CONTEXT : s.n;
		fputs("@@", out);
		print_range(out, '-', oi[from], oi[to] - oi[from]);
		print_range(out, '+', ni[from], ni[to] - ni[from]);
		fputs(" @@\n", out);
		for (size_t j = from; j < to; j++)
			print_line(out, s.op[j], s.op[j] == '+' ? &nw.v[ni[j]] : &o.v[oi[j]]);
		i = to;
	}
	return true;
}
