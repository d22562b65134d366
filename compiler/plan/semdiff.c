/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* semdiff.c - see semdiff.h. Every file kind is read into one small tree
 * (scalars, maps in file order, sequences) and the trees are compared. */
#include "semdiff.h"

#include <jansson.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/strmap.h"
#include "compiler/lang/yaml_doc.h"

typedef enum sd_kind { N_SCALAR, N_MAP, N_SEQ } sd_kind;

typedef struct sd_node sd_node;
struct sd_node {
	sd_kind kind;
	const char *text;  /* scalars */
	const char **keys; /* maps */
	sd_node **vals;    /* map values, sequence items */
	size_t n, cap, kcap;
	/* a map's keys (or a labelled sequence's labels) -> position + 1, made
	 * once the node is large: lookups stay O(1) at 10,000 pools or
	 * Address= lines, where scanning made plan quadratic */
	strmap *index;
};

enum { SD_INDEX_FROM = 16 };

enum { SD_VALUE_MAX = 240 }; /* a value is printed whole up to this many bytes */

static sd_node *sd_new(arena *a, sd_kind kind, const char *text)
{
	sd_node *n = arena_alloc(a, sizeof(*n));
	n->kind = kind;
	n->text = text;
	return n;
}

static void sd_add(arena *a, sd_node *parent, const char *key, sd_node *v)
{
	if (parent->kind == N_MAP) {
		size_t n = parent->n;
		ARENA_PUSH(a, parent->keys, n, parent->kcap, key);
		if (parent->index && !strmap_get(parent->index, key)) /* the first of a repeated key */
			strmap_put(parent->index, key, (void *)(uintptr_t)(parent->n + 1));
	}
	ARENA_PUSH(a, parent->vals, parent->n, parent->cap, v);
}

static const char *label_of(arena *a, const sd_node *n);

/* What a child is found by: a map's key, a labelled sequence's label. */
static const char *name_at(arena *a, const sd_node *n, size_t i)
{
	return n->kind == N_MAP ? n->keys[i] : label_of(a, n->vals[i]);
}

/* The position of the child named name (the first, when repeated), or -1.
 * The index lives in the node: the trees are the walk's, built for one
 * comparison. */
static long sd_pos(arena *a, const sd_node *n, const char *name)
{
	if (n->n < SD_INDEX_FROM) {
		for (size_t i = 0; i < n->n; i++)
			if (strcmp(name_at(a, n, i), name) == 0)
				return (long)i;
		return -1;
	}
	sd_node *m = (sd_node *)n;
	if (!m->index) {
		m->index = arena_alloc(a, sizeof(*m->index));
		strmap_init(m->index, a);
		for (size_t i = 0; i < m->n; i++)
			if (!strmap_get(m->index, name_at(a, m, i)))
				strmap_put(m->index, name_at(a, m, i), (void *)(uintptr_t)(i + 1));
	}
	return (long)(uintptr_t)strmap_get(m->index, name) - 1;
}

static sd_node *sd_get(arena *a, const sd_node *n, const char *name)
{
	long i = sd_pos(a, n, name);
	return i < 0 ? NULL : n->vals[i];
}

/* ---- readers ------------------------------------------------------------- */

static sd_node *from_ynode(arena *a, const ynode *y)
{
	if (y->kind == Y_SCALAR)
		return sd_new(a, N_SCALAR, y->text ? y->text : "");
	sd_node *n = sd_new(a, y->kind == Y_MAP ? N_MAP : N_SEQ, NULL);
	for (size_t i = 0; i < y->n; i++) {
		if (y->kind == Y_MAP)
			sd_add(a, n, y->pairs[i].key->text ? y->pairs[i].key->text : "", from_ynode(a, y->pairs[i].value));
		else
			sd_add(a, n, NULL, from_ynode(a, y->items[i]));
	}
	return n;
}

static sd_node *read_yaml(arena *a, const char *text, size_t len)
{
	ynode *root = ydoc_parse_text(a, "file", text, len);
	return root ? from_ynode(a, root) : NULL;
}

static sd_node *from_json(arena *a, json_t *j)
{
	if (json_is_object(j)) {
		sd_node *n = sd_new(a, N_MAP, NULL);
		const char *k;
		json_t *v;
		json_object_foreach(j, k, v)
			sd_add(a, n, arena_strdup(a, k), from_json(a, v));
		return n;
	}
	if (json_is_array(j)) {
		sd_node *n = sd_new(a, N_SEQ, NULL);
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v)
			sd_add(a, n, NULL, from_json(a, v));
		return n;
	}
	if (json_is_string(j))
		return sd_new(a, N_SCALAR, arena_strdup(a, json_string_value(j)));
	char *t = json_dumps(j, JSON_ENCODE_ANY);
	sd_node *n = sd_new(a, N_SCALAR, arena_strdup(a, t ? t : "null"));
	free(t);
	return n;
}

static sd_node *read_json(arena *a, const char *text, size_t len)
{
	json_error_t err;
	json_t *j = json_loadb(text, len, JSON_DECODE_ANY, &err);
	if (!j)
		return NULL;
	sd_node *n = from_json(a, j);
	json_decref(j);
	return n;
}

static bool comment_or_blank(const char *p, size_t n)
{
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	return !n || *p == '#' || *p == ';';
}

typedef struct line_list {
	const char **v;
	size_t n, cap;
} line_list;

static line_list lines_of(arena *a, const char *text, size_t len)
{
	line_list l = {0};
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (!comment_or_blank(p, n)) {
			const char *s = arena_strndup(a, p, n);
			ARENA_PUSH(a, l.v, l.n, l.cap, s);
		}
		p += n + (nl != NULL);
	}
	return l;
}

/* Adds key = v to map; a key seen before becomes a list of its values
 * (a value of an INI file is never a list itself). */
static void add_repeated(arena *a, sd_node *map, const char *key, sd_node *v)
{
	long i = sd_pos(a, map, key);
	if (i >= 0) {
		if (map->vals[i]->kind != N_SEQ) {
			sd_node *seq = sd_new(a, N_SEQ, NULL);
			sd_add(a, seq, NULL, map->vals[i]);
			map->vals[i] = seq;
		}
		sd_add(a, map->vals[i], NULL, v);
		return;
	}
	sd_add(a, map, key, v);
}

/* systemd units: "[Section]" -> key -> value; a repeated section ([Route])
 * or key (Address=) becomes a list. */
static sd_node *read_ini(arena *a, const char *text, size_t len)
{
	sd_node *root = sd_new(a, N_MAP, NULL), *sec = NULL;
	line_list lines = lines_of(a, text, len);
	for (size_t i = 0; i < lines.n; i++) {
		const char *line = lines.v[i];
		size_t n = strlen(line);
		if (line[0] == '[') {
			sec = sd_new(a, N_MAP, NULL);
			add_repeated(a, root, arena_strndup(a, line, n), sec);
			continue;
		}
		const char *eq = memchr(line, '=', n);
		if (!sec || !eq)
			return NULL;
		add_repeated(a, sec, arena_strndup(a, line, (size_t)(eq - line)),
			     sd_new(a, N_SCALAR, arena_strndup(a, eq + 1, n - (size_t)(eq - line) - 1)));
	}
	return root;
}

/* ---- printing a value ------------------------------------------------------ */

static void render(buf *b, const sd_node *n)
{
	if (b->len > SD_VALUE_MAX)
		return;
	if (n->kind == N_SCALAR) {
		buf_puts(b, n->text);
		return;
	}
	buf_puts(b, n->kind == N_MAP ? "{" : "[");
	for (size_t i = 0; i < n->n; i++) {
		if (i)
			buf_puts(b, ", ");
		if (n->kind == N_MAP)
			buf_printf(b, "%s: ", n->keys[i]);
		render(b, n->vals[i]);
	}
	buf_puts(b, n->kind == N_MAP ? "}" : "]");
}

static const char *value_text(arena *a, const sd_node *n)
{
	if (!n)
		return NULL;
	buf b;
	buf_init(&b);
	render(&b, n);
	const char *t = b.len > SD_VALUE_MAX ? arena_printf(a, "%.*s...", SD_VALUE_MAX, b.data)
					     : arena_strndup(a, b.data ? b.data : "", b.len);
	buf_free(&b);
	return t;
}

/* ---- comparing trees ------------------------------------------------------- */

typedef struct walk {
	arena *a;
	semdiff_fn fn;
	void *ctx;
} walk;

static bool same(const sd_node *x, const sd_node *y)
{
	if (!x || !y || x->kind != y->kind || x->n != y->n)
		return x == y;
	if (x->kind == N_SCALAR)
		return strcmp(x->text, y->text) == 0;
	for (size_t i = 0; i < x->n; i++) {
		if (x->kind == N_MAP && strcmp(x->keys[i], y->keys[i]) != 0)
			return false;
		if (!same(x->vals[i], y->vals[i]))
			return false;
	}
	return true;
}

/* What an object of a list is: its description name (pools.json's
 * containers, so that a relabel stays one container), else its label. */
static const char *label_of(arena *a, const sd_node *n)
{
	const sd_node *l = n && n->kind == N_MAP ? sd_get(a, n, "name") : NULL;
	if (!l || l->kind != N_SCALAR)
		l = n && n->kind == N_MAP ? sd_get(a, n, "label") : NULL;
	return l && l->kind == N_SCALAR ? l->text : NULL;
}

/* Lists of objects with labels (pools, containers) are matched by name or
 * label, so adding one in the middle is one change, not a shift. */
static bool labelled(arena *a, const sd_node *s)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!label_of(a, s->vals[i]))
			return false;
	return s && s->n;
}

static bool all_scalars(const sd_node *s)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (s->vals[i]->kind != N_SCALAR)
			return false;
	return true;
}

static void diff(walk *w, const char *key, const sd_node *x, const sd_node *y);

static const char *child(walk *w, const char *key, const char *name)
{
	return *key ? arena_printf(w->a, "%s.%s", key, name) : name;
}

static void diff_map(walk *w, const char *key, const sd_node *x, const sd_node *y)
{
	for (size_t i = 0; i < x->n; i++)
		diff(w, child(w, key, x->keys[i]), x->vals[i], sd_get(w->a, y, x->keys[i]));
	for (size_t i = 0; i < y->n; i++)
		if (!sd_get(w->a, x, y->keys[i]))
			diff(w, child(w, key, y->keys[i]), NULL, y->vals[i]);
}

static void diff_seq(walk *w, const char *key, const sd_node *x, const sd_node *y)
{
	if (all_scalars(x) && all_scalars(y)) { /* a list of values is one value */
		w->fn(w->ctx, key, value_text(w->a, x), value_text(w->a, y));
		return;
	}
	if (labelled(w->a, x) && labelled(w->a, y)) {
		for (size_t i = 0; i < x->n; i++) {
			const char *l = label_of(w->a, x->vals[i]);
			diff(w, arena_printf(w->a, "%s[%s]", key, l), x->vals[i], sd_get(w->a, y, l));
		}
		for (size_t i = 0; i < y->n; i++) {
			const char *l = label_of(w->a, y->vals[i]);
			if (!sd_get(w->a, x, l))
				diff(w, arena_printf(w->a, "%s[%s]", key, l), NULL, y->vals[i]);
		}
		return;
	}
	size_t n = x->n > y->n ? x->n : y->n;
	for (size_t i = 0; i < n; i++)
		diff(w, arena_printf(w->a, "%s[%zu]", key, i), i < x->n ? x->vals[i] : NULL, i < y->n ? y->vals[i] : NULL);
}

static void diff(walk *w, const char *key, const sd_node *x, const sd_node *y)
{
	if (same(x, y))
		return;
	if (!x || !y || x->kind != y->kind || x->kind == N_SCALAR) {
		w->fn(w->ctx, key, value_text(w->a, x), value_text(w->a, y));
		return;
	}
	if (x->kind == N_MAP)
		diff_map(w, key, x, y);
	else
		diff_seq(w, key, x, y);
}

/* ---- lines ----------------------------------------------------------------- */

/* Lines only on one side (as multisets: a moved line is no change). */
static line_list only_in(arena *a, const line_list *x, const line_list *y)
{
	line_list out = {0};
	strmap count; /* line -> how many of it y has left to match */
	strmap_init(&count, a);
	for (size_t j = 0; j < y->n; j++)
		strmap_put(&count, y->v[j], (void *)((uintptr_t)strmap_get(&count, y->v[j]) + 1));
	for (size_t i = 0; i < x->n; i++) {
		uintptr_t c = (uintptr_t)strmap_get(&count, x->v[i]);
		if (c)
			strmap_put(&count, x->v[i], (void *)(c - 1));
		else
			ARENA_PUSH(a, out.v, out.n, out.cap, x->v[i]);
	}
	return out;
}

/* "NAME=value" keeps NAME as the key, so a changed kernel command line reads
 * GRUB_CMDLINE_LINUX: old -> new. */
static const char *line_key(arena *a, const char *line)
{
	const char *eq = strchr(line, '=');
	size_t n = eq ? (size_t)(eq - line) : 0;
	for (size_t i = 0; i < n; i++)
		if (!(line[i] == '_' || (line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= 'a' && line[i] <= 'z') ||
		      (line[i] >= '0' && line[i] <= '9')))
			return "line";
	return n ? arena_strndup(a, line, n) : "line";
}

static const char *line_value(const char *line, const char *key)
{
	return strcmp(key, "line") == 0 ? line : line + strlen(key) + 1;
}

/* A changed NAME="words" line (the kernel command line): the words that
 * went and the words that came, not two long lines. */
static void diff_words(arena *a, const char *key, const char *old, const char *new, semdiff_fn fn, void *ctx)
{
	line_list x = {0}, y = {0};
	for (int side = 0; side < 2; side++) {
		line_list *l = side ? &y : &x;
		char *s = arena_strdup(a, side ? new : old);
		for (char *w = strtok(s, " \t\""); w; w = strtok(NULL, " \t\""))
			ARENA_PUSH(a, l->v, l->n, l->cap, w);
	}
	line_list gone = only_in(a, &x, &y), came = only_in(a, &y, &x);
	buf g, c;
	buf_init(&g);
	buf_init(&c);
	for (size_t i = 0; i < gone.n; i++)
		buf_printf(&g, "%s%s", i ? " " : "", gone.v[i]);
	for (size_t i = 0; i < came.n; i++)
		buf_printf(&c, "%s%s", i ? " " : "", came.v[i]);
	fn(ctx, key, g.len ? arena_strndup(a, g.data, g.len) : NULL, c.len ? arena_strndup(a, c.data, c.len) : NULL);
	buf_free(&g);
	buf_free(&c);
}

typedef struct pos_list {
	size_t at;
	struct pos_list *next;
} pos_list;

static void diff_lines(arena *a, const char *old, size_t old_len, const char *new, size_t new_len, semdiff_fn fn, void *ctx)
{
	line_list x = lines_of(a, old, old_len), y = lines_of(a, new, new_len);
	line_list gone = only_in(a, &x, &y), came = only_in(a, &y, &x);
	bool *paired = arena_alloc(a, (came.n ? came.n : 1) * sizeof(bool));
	/* key -> the positions of came's lines with it, in order: each gone
	 * line pairs with the first unpaired one (a hash, not a scan) */
	strmap waiting;
	strmap_init(&waiting, a);
	for (size_t j = came.n; j-- > 0;) {
		const char *k = line_key(a, came.v[j]);
		pos_list *p = arena_alloc(a, sizeof(*p));
		p->at = j;
		p->next = strmap_get(&waiting, k);
		strmap_put(&waiting, k, p);
	}
	for (size_t i = 0; i < gone.n; i++) {
		const char *k = line_key(a, gone.v[i]);
		pos_list *p = strcmp(k, "line") != 0 ? strmap_get(&waiting, k) : NULL;
		size_t j = p ? p->at : came.n;
		if (p)
			strmap_put(&waiting, k, p->next);
		if (j < came.n) {
			paired[j] = true;
			const char *ov = line_value(gone.v[i], k), *nv = line_value(came.v[j], k);
			if (ov[0] == '"' && nv[0] == '"')
				diff_words(a, k, ov, nv, fn, ctx);
			else
				fn(ctx, k, ov, nv);
		} else {
			fn(ctx, k, line_value(gone.v[i], k), NULL);
		}
	}
	for (size_t j = 0; j < came.n; j++)
		if (!paired[j]) {
			const char *k = line_key(a, came.v[j]);
			fn(ctx, k, NULL, line_value(came.v[j], k));
		}
}

/* ---- entry points ------------------------------------------------------------ */

semdiff_kind semdiff_kind_of(const char *target)
{
	static const struct {
		const char *target;
		semdiff_kind kind;
	} kinds[] = {
		{"daos_server", SD_YAML}, {"daos_agent", SD_YAML}, {"kubelet", SD_YAML},
		{"daos_server_pod", SD_YAML}, {"daos_agent_pod", SD_YAML},
		{"bios", SD_JSON}, {"pools_plan", SD_JSON}, {"networkd", SD_INI},
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].target, target) == 0)
			return kinds[i].kind;
	return SD_LINES;
}

static sd_node *read_as(arena *a, semdiff_kind kind, const char *text, size_t len)
{
	switch (kind) {
	case SD_YAML: return read_yaml(a, text, len);
	case SD_JSON: return read_json(a, text, len);
	case SD_INI: return read_ini(a, text, len);
	default: return NULL;
	}
}

void semdiff(arena *a, semdiff_kind kind, const char *old, size_t old_len, const char *new, size_t new_len,
	     semdiff_fn fn, void *ctx)
{
	sd_node *x = kind == SD_LINES ? NULL : read_as(a, kind, old, old_len);
	sd_node *y = kind == SD_LINES ? NULL : read_as(a, kind, new, new_len);
	if (!x || !y) {
		diff_lines(a, old, old_len, new, new_len, fn, ctx);
		return;
	}
	walk w = {a, fn, ctx};
	diff(&w, "", x, y);
}
