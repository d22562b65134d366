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
	size_t merged; /* pairs copied by merge keys so far (bounded) */
} ybuild;

/* Merge keys may copy at most this many pairs in one file: an anchor of a
 * million keys merged a million times must not cost 10^12. */
enum { YDOC_MAX_MERGED = 1000000 };

static src_loc mark_loc(const ybuild *b, yaml_mark_t s, yaml_mark_t e)
{
	return (src_loc){b->file, (uint32_t)s.index, (uint32_t)(e.index > s.index ? e.index : s.index + 1)};
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
	src_loc at = {b->file, (uint32_t)b->p.problem_mark.index, (uint32_t)b->p.problem_mark.index + 1};
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
	anchor(b, start->data.mapping_start.anchor, m);
	yaml_event_delete(start);
	const ynode *sources[8];
	size_t nsources = 0;
	for (;;) {
		yaml_event_t ev;
		if (!next(b, &ev))
			return NULL;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			m->loc.end = (uint32_t)ev.end_mark.index;
			yaml_event_delete(&ev);
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
	anchor(b, start->data.sequence_start.anchor, s);
	yaml_event_delete(start);
	for (;;) {
		yaml_event_t ev;
		if (!next(b, &ev))
			return NULL;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			s->loc.end = (uint32_t)ev.end_mark.index;
			yaml_event_delete(&ev);
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
