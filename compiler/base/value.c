/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "value.h"

#include "buf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool val_int(const char *s, int64_t *out)
{
	if (!*s)
		return false;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || !(isdigit((unsigned char)s[0]) || s[0] == '-'))
		return false;
	*out = v;
	return true;
}

/* Splits "64GiB" into 64 and "GiB". */
static bool split_number(const char *s, uint64_t *num, const char **unit)
{
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return false;
	*num = v;
	*unit = end;
	return true;
}

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *r)
{
	if (a && b > UINT64_MAX / a)
		return false;
	*r = a * b;
	return true;
}

typedef struct unit {
	const char *name;
	uint64_t scale;
} unit;

typedef enum unit_result { UNIT_OK, UNIT_NO_NUMBER, UNIT_MISSING, UNIT_UNKNOWN, UNIT_OVERFLOW } unit_result;

/* "64GiB" with the table {..., {"GiB", 1<<30}} -> 64 << 30. */
static unit_result scaled(const char *s, const unit *units, size_t n, uint64_t *out, const char **suffix)
{
	uint64_t v;
	if (!split_number(s, &v, suffix))
		return UNIT_NO_NUMBER;
	if (!**suffix)
		return UNIT_MISSING;
	for (size_t i = 0; i < n; i++)
		if (strcmp(*suffix, units[i].name) == 0)
			return mul_ok(v, units[i].scale, out) ? UNIT_OK : UNIT_OVERFLOW;
	return UNIT_UNKNOWN;
}

bool val_size(const char *s, uint64_t *bytes, const char **why)
{
	static const unit units[] = {{"B", 1}, {"KiB", KiB}, {"MiB", MiB}, {"GiB", GiB}, {"TiB", TiB}, {"PiB", PiB}};
	const char *u;
	unit_result r = scaled(s, units, sizeof(units) / sizeof(units[0]), bytes, &u);
	if (r == UNIT_OK && *bytes > VAL_SIZE_MAX)
		r = UNIT_OVERFLOW; /* a bound far above any machine keeps every sum of sizes exact */
	switch (r) {
	case UNIT_OK: return true;
	case UNIT_NO_NUMBER: *why = "a size is a whole number with a unit, e.g. 64GiB"; break;
	case UNIT_MISSING: *why = "a size needs a unit: B, KiB, MiB, GiB, TiB or PiB"; break;
	case UNIT_OVERFLOW: *why = "the size is too large (at most 1024PiB)"; break;
	case UNIT_UNKNOWN:
		*why = strchr("KMGTPkmgtp", u[0])
			? "decimal or ambiguous unit: write KiB, MiB, GiB, TiB or PiB (DAOS reads 64K as 64000 bytes)"
			: "unknown size unit: use B, KiB, MiB, GiB, TiB or PiB";
		break;
	}
	return false;
}

bool val_duration(const char *s, uint64_t *ms, const char **why)
{
	static const unit units[] = {{"ms", 1}, {"s", 1000}, {"min", 60000}, {"h", 3600000}};
	const char *u;
	switch (scaled(s, units, sizeof(units) / sizeof(units[0]), ms, &u)) {
	case UNIT_OK: return true;
	case UNIT_NO_NUMBER: *why = "a duration is a whole number with a unit, e.g. 600s"; break;
	case UNIT_MISSING: *why = "a duration needs a unit: ms, s, min or h"; break;
	case UNIT_OVERFLOW: *why = "the duration is too large"; break;
	case UNIT_UNKNOWN: *why = "unknown time unit: use ms, s, min or h"; break;
	}
	return false;
}

bool val_percent(const char *s, int64_t *pct, const char **why)
{
	uint64_t n;
	const char *u;
	if (!split_number(s, &n, &u) || strcmp(u, "%") != 0 || n < 1 || n > 100) {
		*why = "a share is a whole percentage from 1% to 100%";
		return false;
	}
	*pct = (int64_t)n;
	return true;
}

bool val_hostname(const char *s, const char **why)
{
	size_t n = strlen(s);
	if (n == 0 || n > 253) {
		*why = "a host name has 1 to 253 characters";
		return false;
	}
	if (!isalnum((unsigned char)s[0])) {
		*why = "a host name starts with a letter or digit";
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!(isalnum(c) || c == '-' || c == '.' || c == '_')) {
			*why = "a host name has only letters, digits, '-', '_' and '.'";
			return false;
		}
	}
	if (strstr(s, "..")) {
		*why = "a host name has no empty label ('..')";
		return false;
	}
	return true;
}

/* One bracket group: "001-014,020" -> list of (value, width). */
typedef struct hl_item {
	int64_t v;
	int width;
} hl_item;

static bool parse_group(arena *a, const char *s, size_t len, hl_item **items, size_t *n,
			size_t max, const char **why)
{
	size_t cap = 0;
	*items = NULL;
	*n = 0;
	size_t i = 0;
	while (i < len) {
		size_t st = i;
		while (i < len && isdigit((unsigned char)s[i]))
			i++;
		if (i == st) {
			*why = "a host range is digits, e.g. [001-014] or [001-003,007]";
			return false;
		}
		int width = (int)(i - st);
		int64_t lo = strtoll(s + st, NULL, 10), hi = lo;
		if (i < len && s[i] == '-') {
			size_t st2 = ++i;
			while (i < len && isdigit((unsigned char)s[i]))
				i++;
			if (i == st2) {
				*why = "a host range needs an upper bound, e.g. [001-014]";
				return false;
			}
			hi = strtoll(s + st2, NULL, 10);
		}
		if (width > 9 || hi - lo > (int64_t)max) {
			*why = "the host range is too large";
			return false;
		}
		if (hi < lo) {
			*why = "the host range runs backwards";
			return false;
		}
		for (int64_t v = lo; v <= hi; v++) {
			if (*n >= max) {
				*why = "the host list is larger than 65,536 hosts";
				return false;
			}
			hl_item it = {v, width};
			ARENA_PUSH(a, *items, *n, cap, it);
		}
		if (i < len) {
			if (s[i] != ',') {
				*why = "host ranges are separated by ',', e.g. [001-003,007]";
				return false;
			}
			i++;
			if (i == len) {
				*why = "a host range list cannot end with ','";
				return false;
			}
		}
	}
	if (*n == 0) {
		*why = "an empty host range []";
		return false;
	}
	return true;
}

bool hostlist_expand(arena *a, const char *s, const char ***hosts, int64_t **numbers,
		     size_t *n, size_t max, const char **why)
{
	const char *lb = strchr(s, '[');
	if (!lb) {
		if (strchr(s, ']')) {
			*why = "']' without '[' in the host list";
			return false;
		}
		if (!val_hostname(s, why))
			return false;
		*hosts = arena_alloc(a, sizeof(char *));
		*numbers = arena_alloc(a, sizeof(int64_t));
		(*hosts)[0] = arena_strdup(a, s);
		/* {n} of a plain name is its trailing number, or 0. */
		size_t l = strlen(s), k = l;
		while (k > 0 && isdigit((unsigned char)s[k - 1]))
			k--;
		(*numbers)[0] = k < l && l - k < 10 ? strtoll(s + k, NULL, 10) : 0;
		*n = 1;
		return true;
	}
	const char *rb = strchr(lb, ']');
	if (!rb) {
		*why = "'[' without ']' in the host list";
		return false;
	}
	hl_item *items;
	size_t ni;
	if (!parse_group(a, lb + 1, (size_t)(rb - lb - 1), &items, &ni, max, why))
		return false;
	/* Expand the rest recursively, then take the product. */
	const char **tails;
	int64_t *tnums;
	size_t nt;
	if (rb[1]) {
		if (!hostlist_expand(a, rb + 1, &tails, &tnums, &nt, max, why)) {
			/* a suffix without a range, e.g. "-ib" */
			if (strchr(rb + 1, '[') || strchr(rb + 1, ']'))
				return false;
			tails = arena_alloc(a, sizeof(char *));
			tnums = NULL;
			tails[0] = rb + 1;
			nt = 1;
		}
	} else {
		tails = arena_alloc(a, sizeof(char *));
		tnums = NULL;
		tails[0] = "";
		nt = 1;
	}
	if (ni * nt > max) {
		*why = "the host list is larger than 65,536 hosts";
		return false;
	}
	*n = ni * nt;
	*hosts = arena_alloc(a, *n * sizeof(char *));
	*numbers = arena_alloc(a, *n * sizeof(int64_t));
	size_t k = 0;
	int plen = (int)(lb - s);
	for (size_t x = 0; x < ni; x++)
		for (size_t y = 0; y < nt; y++) {
			const char *h = arena_printf(a, "%.*s%0*lld%s", plen, s, items[x].width,
						     (long long)items[x].v, tails[y]);
			if (!val_hostname(h, why))
				return false;
			(*hosts)[k] = h;
			(*numbers)[k] = tnums ? tnums[y] : items[x].v;
			k++;
		}
	return true;
}

/* ---- address templates ---------------------------------------------- */

typedef struct texpr {
	const char *p;
	int64_t i, n;
	const char *why;
} texpr;

static int64_t te_sum(texpr *t);

static void te_space(texpr *t)
{
	while (*t->p == ' ')
		t->p++;
}

static int64_t te_overflow(texpr *t)
{
	t->why = "the address expression overflows a 64-bit integer";
	return 0;
}

static int64_t te_atom(texpr *t)
{
	te_space(t);
	if (*t->p == '(') {
		t->p++;
		int64_t v = te_sum(t);
		te_space(t);
		if (*t->p != ')') {
			t->why = "missing ')' in the address expression";
			return 0;
		}
		t->p++;
		return v;
	}
	if (*t->p == 'i' || *t->p == 'n') {
		int64_t v = *t->p == 'i' ? t->i : t->n;
		t->p++;
		return v;
	}
	if (isdigit((unsigned char)*t->p)) {
		int64_t v = 0;
		while (isdigit((unsigned char)*t->p)) {
			v = v * 10 + (*t->p - '0');
			if (v > 1000000000) {
				t->why = "a number in the address expression is too large";
				return 0;
			}
			t->p++;
		}
		return v;
	}
	t->why = "an address expression uses integers, i (position in the host list, from 0), "
		 "n (the host's number), + - * / % and parentheses";
	return 0;
}

static int64_t te_prod(texpr *t)
{
	int64_t v = te_atom(t);
	for (;;) {
		te_space(t);
		char op = *t->p;
		if ((op != '*' && op != '/' && op != '%') || t->why)
			return v;
		t->p++;
		int64_t w = te_atom(t);
		if (t->why)
			return 0;
		if (op == '*') {
			if (__builtin_mul_overflow(v, w, &v))
				return te_overflow(t);
		} else if (w == 0) {
			t->why = "division by zero in the address expression";
			return 0;
		} else if (v == INT64_MIN && w == -1) {
			return te_overflow(t); /* the one quotient that does not fit */
		} else {
			v = op == '/' ? v / w : v % w;
		}
	}
}

static int64_t te_sum(texpr *t)
{
	int64_t v = te_prod(t);
	for (;;) {
		te_space(t);
		if ((*t->p != '+' && *t->p != '-') || t->why)
			return v;
		char op = *t->p++;
		int64_t w = te_prod(t);
		if (t->why)
			return 0;
		if (op == '+' ? __builtin_add_overflow(v, w, &v) : __builtin_sub_overflow(v, w, &v))
			return te_overflow(t);
	}
}

bool template_has_vars(const char *tmpl)
{
	return strchr(tmpl, '{') != NULL;
}

bool template_eval(arena *a, const char *tmpl, int64_t i, int64_t n, const char **out,
		   const char **why)
{
	char res[256];
	size_t k = 0;
	for (const char *p = tmpl; *p;) {
		if (*p == '{') {
			const char *close = strchr(p, '}');
			if (!close) {
				*why = "'{' without '}' in the address";
				return false;
			}
			char expr[128];
			size_t el = (size_t)(close - p - 1);
			if (el == 0 || el >= sizeof(expr)) {
				*why = "an empty or overlong {expression} in the address";
				return false;
			}
			memcpy(expr, p + 1, el);
			expr[el] = '\0';
			texpr t = {expr, i, n, NULL};
			int64_t v = te_sum(&t);
			te_space(&t);
			if (!t.why && *t.p)
				t.why = "unexpected text in the address expression";
			if (t.why) {
				*why = t.why;
				return false;
			}
			int w = snprintf(res + k, sizeof(res) - k, "%lld", (long long)v);
			if (w < 0 || (size_t)w >= sizeof(res) - k) {
				*why = "the address is too long";
				return false;
			}
			k += (size_t)w;
			p = close + 1;
		} else {
			if (k + 1 >= sizeof(res)) {
				*why = "the address is too long";
				return false;
			}
			res[k++] = *p++;
		}
	}
	res[k] = '\0';
	*out = arena_strndup(a, res, k);
	return true;
}

bool val_ipv4(const char *s, bool allow_prefix, uint32_t *addr, int *prefix, const char **why)
{
	unsigned oct[4];
	int pos = 0;
	const char *p = s;
	*prefix = -1;
	for (int k = 0; k < 4; k++) {
		if (!isdigit((unsigned char)*p)) {
			*why = "an IPv4 address is four numbers 0-255 separated by '.'";
			return false;
		}
		unsigned v = 0;
		int digits = 0;
		while (isdigit((unsigned char)*p)) {
			v = v * 10 + (unsigned)(*p++ - '0');
			if (++digits > 3)
				break;
		}
		if (v > 255 || digits > 3) {
			*why = "an IPv4 address octet is 0-255";
			return false;
		}
		oct[k] = v;
		if (k < 3) {
			if (*p != '.') {
				*why = "an IPv4 address is four numbers 0-255 separated by '.'";
				return false;
			}
			p++;
		}
	}
	(void)pos;
	if (*p == '/') {
		if (!allow_prefix) {
			*why = "this address takes no /prefix";
			return false;
		}
		p++;
		int64_t pl;
		if (!val_int(p, &pl) || pl < 0 || pl > 32) {
			*why = "a prefix length is 0-32";
			return false;
		}
		*prefix = (int)pl;
	} else if (*p) {
		*why = "unexpected text after the IPv4 address";
		return false;
	}
	*addr = oct[0] << 24 | oct[1] << 16 | oct[2] << 8 | oct[3];
	return true;
}

static bool hexrun(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

bool val_pci(const char *s, char *out, const char **why)
{
	/* DDDD:BB:DD.F or XXXXXX:BB:DD.F (VMD backing device) */
	size_t n = strlen(s);
	size_t dl = n == 12 ? 4 : n == 14 ? 6 : 0;
	if (!dl || s[dl] != ':' || s[dl + 3] != ':' || s[dl + 6] != '.' || !hexrun(s, dl) ||
	    !hexrun(s + dl + 1, 2) || !hexrun(s + dl + 4, 2) || !hexrun(s + dl + 7, 1)) {
		*why = "a PCI address is DDDD:BB:DD.F in hex, e.g. 0000:21:00.0";
		return false;
	}
	unsigned dev = (unsigned)strtoul(s + dl + 4, NULL, 16), fn = (unsigned)(s[dl + 7] - '0');
	if (dev > 0x1f || fn > 7) {
		*why = "a PCI device is 00-1f and a function 0-7";
		return false;
	}
	for (size_t i = 0; i <= n; i++)
		out[i] = (char)tolower((unsigned char)s[i]);
	return true;
}

size_t val_edit_distance_within(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > lb + max || lb > la + max)
		return max + 1; /* the distance is at least the length difference */
	size_t d = val_edit_distance(a, b);
	return d <= max ? d : max + 1;
}

size_t val_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = prev + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

typedef struct host_key {
	const char *name;
	size_t prefix; /* bytes before the trailing digits */
	int width;     /* number of trailing digits, 0 for none */
	long long num;
} host_key;

static int host_key_cmp(const void *a, const void *b)
{
	const host_key *x = a, *y = b;
	size_t n = x->prefix < y->prefix ? x->prefix : y->prefix;
	int c = strncmp(x->name, y->name, n);
	if (c || x->prefix != y->prefix)
		return c ? c : x->prefix < y->prefix ? -1 : 1;
	if (x->width != y->width)
		return x->width < y->width ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool same_run(const host_key *x, const host_key *y)
{
	return x->width && x->width == y->width && x->prefix == y->prefix && strncmp(x->name, y->name, x->prefix) == 0;
}

char *hostlist_compress(arena *a, const char *const *hosts, size_t n)
{
	host_key *k = arena_alloc(a, (n ? n : 1) * sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(hosts[i]), p = len;
		while (p && hosts[i][p - 1] >= '0' && hosts[i][p - 1] <= '9' && len - p < 18)
			p--;
		k[i] = (host_key){hosts[i], p, (int)(len - p), len > p ? strtoll(hosts[i] + p, NULL, 10) : 0};
	}
	qsort(k, n, sizeof(*k), host_key_cmp);
	buf b;
	buf_init(&b);
	for (size_t i = 0; i < n;) {
		if (b.len)
			buf_puts(&b, ",");
		size_t j = i + 1;
		while (j < n && same_run(&k[i], &k[j]))
			j++;
		if (j == i + 1 || !k[i].width) {
			buf_puts(&b, k[i].name);
			i++;
			continue;
		}
		buf_printf(&b, "%.*s[", (int)k[i].prefix, k[i].name);
		for (size_t r = i; r < j;) {
			size_t e = r;
			while (e + 1 < j && k[e + 1].num <= k[e].num + 1)
				e++; /* a duplicate (same number) stays in the range */
			buf_printf(&b, "%s%0*lld", r > i ? "," : "", k[r].width, k[r].num);
			if (k[e].num != k[r].num)
				buf_printf(&b, "-%0*lld", k[r].width, k[e].num);
			r = e + 1;
		}
		buf_puts(&b, "]");
		i = j;
	}
	char *out = arena_strndup(a, b.data ? b.data : "", b.len);
	buf_free(&b);
	return out;
}

bool val_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}
