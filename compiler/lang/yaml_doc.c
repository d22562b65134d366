/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "yaml_doc.h"

#include <string.h>
#include <yaml.h>

#include "compiler/base/strmap.h"

typedef struct ybuild {
	arena *a;
	diag_ctx *dc;
	uint32_t file;
	yaml_parser_t p;
	strmap anchors;
	bool failed;
	/* libyaml's marks count characters after the byte-order mark, not
	 * bytes: offset[i] is the byte offset of character i (NULL when the
	 * text is ASCII without a BOM and the two agree). lint --fix edits and
	 * diagnostics point at bytes. */
	const uint32_t *offset;
	size_t nchars;
	uint32_t len;
	size_t merged; /* pairs copied by merge keys so far (bounded) */
} ybuild;

/* Merge keys may copy at most this many pairs in one file: an anchor of a
 * million keys merged a million times must not cost 10^12. */
enum { YDOC_MAX_MERGED = 1000000 };

/* The byte offset of every character as libyaml counts them (reader.c:
 * a UTF-8 or UTF-16 BOM is skipped, then one index per code point; a
 * surrogate pair of UTF-16 is one). NULL when they are the same. */
static const uint32_t *char_offsets(arena *a, const unsigned char *t, size_t len, size_t *nchars)
{
	size_t at = 0, unit = 0; /* unit: 2 for UTF-16 (le or be), 0 for UTF-8 */
	bool be = false;
	if (len >= 3 && t[0] == 0xef && t[1] == 0xbb && t[2] == 0xbf)
		at = 3;
	else if (len >= 2 && ((t[0] == 0xff && t[1] == 0xfe) || (t[0] == 0xfe && t[1] == 0xff)))
		at = 2, unit = 2, be = t[0] == 0xfe;
	bool plain = at == 0;
	for (size_t i = 0; i < len && plain; i++)
		plain = t[i] < 0x80;
	if (plain)
		return NULL;
	uint32_t *off = arena_alloc(a, (len + 2) * sizeof(*off));
	size_t n = 0;
	while (at < len) {
		off[n++] = (uint32_t)at;
		if (unit) {
			unsigned u = at + 1 < len ? (be ? t[at] << 8 | t[at + 1] : t[at + 1] << 8 | t[at]) : 0;
			at += u >= 0xd800 && u < 0xdc00 ? 4 : 2;
		} else {
			unsigned c = t[at];
			size_t w = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
			at += w;
		}
	}
	off[n] = (uint32_t)(at < len ? at : len);
	*nchars = n;
	return off;
}

static uint32_t byte_at(const ybuild *b, size_t index)
{
	if (!b->offset)
		return (uint32_t)index;
	return index <= b->nchars ? b->offset[index] : b->len;
}

static src_loc mark_loc(const ybuild *b, yaml_mark_t s, yaml_mark_t e)
{
	uint32_t start = byte_at(b, s.index), end = byte_at(b, e.index);
	return (src_loc){b->file, start, end > start ? end : start + 1};
}

static ynode *node_new(ybuild *b, ynode_kind k, const yaml_event_t *ev)
{
	ynode *n = arena_alloc(b->a, sizeof(*n));
	n->kind = k;
	n->loc = mark_loc(b, ev->start_mark, ev->end_mark);
	return n;
}

static void syntax(ybuild *b)
{
	if (b->failed)
		return;
	b->failed = true;
	uint32_t byte = byte_at(b, b->p.problem_mark.index);
	src_loc at = {b->file, byte, byte + 1};
	diag *d = diag_report(b->dc, R_SYNTAX, at, "YAML: %s%s%s", b->p.problem ? b->p.problem : "syntax error",
			      b->p.context ? " " : "", b->p.context ? b->p.context : "");
	diag_help(b->dc, d, "DAOS reads this file as YAML: check indentation and quoting around this place");
}

static ynode *parse_node(ybuild *b, yaml_event_t *ev, int depth);

static bool next(ybuild *b, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&b->p, ev)) {
		syntax(b);
		return false;
	}
	return true;
}

static void anchor(ybuild *b, const yaml_char_t *name, ynode *n)
{
	if (name)
		strmap_put(&b->anchors, arena_strdup(b->a, (const char *)name), n);
}

/* Keeps key lookups O(1) in long maps (a file with a million keys must not
 * take a million squared comparisons); the first of duplicate keys wins. */
static void index_pair(arena *a, ynode *m)
{
	enum { INDEX_AFTER = 8 };
	if (m->n < INDEX_AFTER)
		return;
	size_t from = m->n - 1;
	if (!m->index) {
		m->index = arena_alloc(a, sizeof(*m->index));
		strmap_init(m->index, a);
		from = 0;
	}
	for (size_t i = from; i < m->n; i++)
		if (m->pairs[i].key->kind == Y_SCALAR && !strmap_get(m->index, m->pairs[i].key->text))
			strmap_put(m->index, m->pairs[i].key->text, (void *)(i + 1));
}

/* `<<: *anchor` (or a list of anchors): the pairs this map does not give
 * itself, as yaml.v2 merges them for DAOS (explicit keys win, then the
 * first source). The merged pairs keep their own locations. */
static bool merge_into(ybuild *b, ynode *m, const ynode *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const ypair *p = &src->pairs[i];
		if (p->key->kind == Y_SCALAR && ydoc_pair(m, p->key->text))
			continue;
		if (++b->merged > YDOC_MAX_MERGED) {
			b->failed = true;
			diag *d = diag_report(b->dc, R_LIMIT, m->loc, "YAML merge keys copy more than %d entries", YDOC_MAX_MERGED);
			diag_help(b->dc, d, "write the engines out, or merge smaller anchors");
			return false;
		}
		ARENA_PUSH(b->a, m->pairs, m->n, m->cap, *p);
		index_pair(b->a, m);
	}
	return true;
}

static bool is_merge_key(const ynode *k)
{
	return k->kind == Y_SCALAR && !k->quoted && strcmp(k->text, "<<") == 0;
}

static ynode *parse_map(ybuild *b, yaml_event_t *start, int depth)
{
	ynode *m = node_new(b, Y_MAP, start);
	m->open = true;
	anchor(b, start->data.mapping_start.anchor, m);
	yaml_event_delete(start);
	const ynode *sources[8];
	size_t nsources = 0;
	for (;;) {
		yaml_event_t ev;
		if (!next(b, &ev))
			return NULL;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			m->loc.end = byte_at(b, ev.end_mark.index);
			yaml_event_delete(&ev);
			m->open = false;
			for (size_t i = 0; i < nsources; i++)
				if (!merge_into(b, m, sources[i]))
					return NULL;
			return m;
		}
		ynode *k = parse_node(b, &ev, depth + 1);
		if (!k)
			return NULL;
		yaml_event_t vev;
		if (!next(b, &vev))
			return NULL;
		ynode *v = parse_node(b, &vev, depth + 1);
		if (!v)
			return NULL;
		if (is_merge_key(k)) {
			bool ok = v->kind == Y_MAP || v->kind == Y_SEQ;
			for (size_t i = 0; ok && v->kind == Y_SEQ && i < v->n; i++)
				ok = v->items[i]->kind == Y_MAP;
			size_t add = v->kind == Y_MAP ? 1 : v->n;
			if (!ok || nsources + add > sizeof(sources) / sizeof(sources[0])) {
				diag *d = diag_report(b->dc, R_SYNTAX, k->loc, "a merge key takes a mapping or a list of up to 8 mappings");
				diag_help(b->dc, d, "write `<<: *anchor` where the anchor names a mapping");
				b->failed = true;
				return NULL;
			}
			for (size_t i = 0; i < add; i++)
				sources[nsources++] = v->kind == Y_MAP ? v : v->items[i];
			continue;
		}
		if (k->kind == Y_SCALAR) {
			const ypair *old = ydoc_pair(m, k->text);
			if (old) {
				diag *d = diag_report(b->dc, R_DUPLICATE, k->loc, "key '%s' is given twice in this mapping", k->text);
				diag_note_at(b->dc, d, old->key->loc, "first given here");
				diag_help(b->dc, d, "keep one: DAOS loads with strict YAML and refuses duplicate keys");
			}
		}
		ypair pr = {k, v};
		ARENA_PUSH(b->a, m->pairs, m->n, m->cap, pr);
		index_pair(b->a, m);
	}
}

static ynode *parse_seq(ybuild *b, yaml_event_t *start, int depth)
{
	ynode *s = node_new(b, Y_SEQ, start);
	s->open = true;
	anchor(b, start->data.sequence_start.anchor, s);
	yaml_event_delete(start);
	for (;;) {
		yaml_event_t ev;
		if (!next(b, &ev))
			return NULL;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			s->loc.end = byte_at(b, ev.end_mark.index);
			yaml_event_delete(&ev);
			s->open = false;
			return s;
		}
		ynode *it = parse_node(b, &ev, depth + 1);
		if (!it)
			return NULL;
		ARENA_PUSH(b->a, s->items, s->n, s->cap, it);
	}
}

static ynode *parse_node(ybuild *b, yaml_event_t *ev, int depth)
{
	if (depth > 64) {
		yaml_event_delete(ev);
		if (!b->failed) {
			b->failed = true;
			diag_report(b->dc, R_LIMIT, mark_loc(b, ev->start_mark, ev->end_mark), "YAML nested deeper than 64 levels");
		}
		return NULL;
	}
	ynode *n = NULL;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n = node_new(b, Y_SCALAR, ev);
		n->text = arena_strndup(b->a, (const char *)ev->data.scalar.value, ev->data.scalar.length);
		n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
			    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
		anchor(b, ev->data.scalar.anchor, n);
		yaml_event_delete(ev);
		return n;
	case YAML_MAPPING_START_EVENT:
		return parse_map(b, ev, depth);
	case YAML_SEQUENCE_START_EVENT:
		return parse_seq(b, ev, depth);
	case YAML_ALIAS_EVENT:
		n = strmap_get(&b->anchors, (const char *)ev->data.alias.anchor);
		if (!n && !b->failed) {
			b->failed = true;
			diag_report(b->dc, R_SYNTAX, mark_loc(b, ev->start_mark, ev->end_mark), "YAML alias to an unknown anchor");
		} else if (n && n->open) {
			/* the value would hold itself: go-yaml, DAOS's YAML library,
			 * refuses it ("anchor 'a' value contains itself") */
			b->failed = true;
			diag *d = diag_report(b->dc, R_SYNTAX, mark_loc(b, ev->start_mark, ev->end_mark),
					      "YAML alias *%s inside the value of its own anchor: the value would contain itself",
					      (const char *)ev->data.alias.anchor);
			diag_help(b->dc, d, "alias the anchor after its value ends, or write the value out");
			n = NULL;
		}
		yaml_event_delete(ev);
		return n;
	default:
		yaml_event_delete(ev);
		if (!b->failed) {
			b->failed = true;
			diag_report(b->dc, R_SYNTAX, mark_loc(b, ev->start_mark, ev->end_mark), "unexpected YAML structure");
		}
		return NULL;
	}
}

ynode *ydoc_parse(arena *a, diag_ctx *dc, uint32_t file)
{
	const src_file *f = src_get(dc->src, file);
	ybuild b = {0};
	b.a = a;
	b.dc = dc;
	b.file = file;
	strmap_init(&b.anchors, a);
	b.len = (uint32_t)f->len;
	b.offset = char_offsets(a, (const unsigned char *)f->text, f->len, &b.nchars);
	if (!yaml_parser_initialize(&b.p))
		return NULL;
	yaml_parser_set_input_string(&b.p, (const unsigned char *)f->text, f->len);
	ynode *root = NULL;
	yaml_event_t ev;
	/* stream start, document start, the node, document end */
	while (!b.failed && next(&b, &ev)) {
		yaml_event_type_t t = ev.type;
		if (t == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_START_EVENT || t == YAML_DOCUMENT_END_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (root) { /* a second document */
			yaml_event_delete(&ev);
			break;
		}
		root = parse_node(&b, &ev, 0);
	}
	yaml_parser_delete(&b.p);
	return b.failed ? NULL : root;
}

const ypair *ydoc_pair(const ynode *map, const char *key)
{
	if (!map || map->kind != Y_MAP)
		return NULL;
	if (map->index) {
		size_t at = (size_t)strmap_get(map->index, key);
		return at ? &map->pairs[at - 1] : NULL;
	}
	for (size_t i = 0; i < map->n; i++)
		if (map->pairs[i].key->kind == Y_SCALAR && strcmp(map->pairs[i].key->text, key) == 0)
			return &map->pairs[i];
	return NULL;
}

ynode *ydoc_get(const ynode *map, const char *key)
{
	const ypair *p = ydoc_pair(map, key);
	return p ? p->value : NULL;
}

ynode *ydoc_parse_text(arena *a, const char *name, const char *text, size_t len)
{
	src_set s;
	src_set_init(&s, a);
	diag_ctx dc;
	diag_init(&dc, a, &s);
	ynode *root = ydoc_parse(a, &dc, src_add(&s, name, text, len));
	return root && !diag_count(&dc, SEV_ERROR) ? root : NULL;
}
