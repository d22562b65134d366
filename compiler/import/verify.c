/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* verify.c - the imported description is built in memory and each node's
 * daos_server.yml compared with the file it came from: every key the file
 * sets must come back with the same meaning (lists of environment entries
 * and access points as sets, access points with their port, ports and
 * sizes as numbers). What the build adds (a pinned scm_size, log files,
 * nr_hugepages) is dslc's; what it loses or changes is a bug of the
 * importer, reported as internal-consistency at the file's key, and
 * nothing is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/lint/yaml_rules.h"
#include "compiler/place/node_plan.h"
#include "compiler/tree/render.h"
#include "import_data.h"

typedef struct cmp {
	importer *im;
	diag_ctx *dc;
	const imp_node *n;
	bool ok;
} cmp;

static void differs(cmp *c, const ynode *at, const char *key, const char *got)
{
	diag *d = diag_report(c->dc, R_INTERNAL_CONSISTENCY, at->loc, "the imported description builds %s for %s, not what %s has", got,
			      key, c->n->host);
	diag_help(c->dc, d, "a bug of dslc import: please report it with this file; the description was not written");
	c->ok = false;
}

static const char *text_of(cmp *c, const ynode *v)
{
	if (!v)
		return "nothing";
	if (v->kind == Y_SCALAR)
		return v->text;
	return v->kind == Y_SEQ ? arena_printf(c->im->a, "a list of %zu", v->n) : "a mapping";
}

static bool scalar_same(const ynode *a, const ynode *b)
{
	if (!a || !b || a->kind != Y_SCALAR || b->kind != Y_SCALAR)
		return false;
	int64_t x, y;
	if (yl_scalar_int(a, &x) && yl_scalar_int(b, &y))
		return x == y;
	if (yl_scalar_bool(a) && yl_scalar_bool(b))
		return yl_is_true(a) == yl_is_true(b);
	return strcmp(a->text, b->text) == 0;
}

/* an access point as DAOS compares them: host:port, the control port when absent */
static const char *with_port(cmp *c, const char *s, int64_t port)
{
	return port > 0 && !strchr(s, ':') ? arena_printf(c->im->a, "%s:%lld", s, (long long)port) : s;
}

static bool in_list(cmp *c, const ynode *list, const char *s, int64_t port)
{
	for (size_t i = 0; list && list->kind == Y_SEQ && i < list->n; i++)
		if (strcmp(with_port(c, list->items[i]->text, port), with_port(c, s, port)) == 0)
			return true;
	return false;
}

/* The same entries, in any order (env_vars, client_env_vars, access points, roles). */
static bool set_same(cmp *c, const ynode *a, const ynode *b, int64_t port)
{
	size_t na = a && a->kind == Y_SEQ ? a->n : 0, nb = b && b->kind == Y_SEQ ? b->n : 0;
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!in_list(c, b, a->items[i]->text, port))
			return false;
	return true;
}

static bool list_same(const ynode *a, const ynode *b)
{
	size_t na = a && a->kind == Y_SEQ ? a->n : 0, nb = b && b->kind == Y_SEQ ? b->n : 0;
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a->items[i]->text, b->items[i]->text) != 0)
			return false;
	return true;
}

static bool is_set_key(const char *k)
{
	return strcmp(k, "env_vars") == 0 || strcmp(k, "client_env_vars") == 0 || strcmp(k, "bdev_roles") == 0;
}

static void compare_map(cmp *c, const ynode *in, const ynode *out, const char *section, const char *where);

static bool is_fabric_key(const char *k)
{
	return strcmp(k, "fabric_iface") == 0 || strcmp(k, "fabric_iface_port") == 0;
}

/* An engine's interface and port as DAOS takes them (yl_fabric_pair): the
 * build writes them per engine. */
static void compare_fabric(cmp *c, const ynode *in, const ynode *out, const char *where)
{
	static const char *const keys[] = {"fabric_iface", "fabric_iface_port"};
	for (int k = 0; k < 2; k++) {
		const ypair *p = yl_fabric_pair(c->n->root, in, keys[k]);
		if (!p || yl_is_null(p->value))
			continue;
		const ynode *o = ydoc_get(out, keys[k]);
		if (!scalar_same(p->value, o))
			differs(c, p->value, arena_printf(c->im->a, "%s.%s", where, keys[k]), text_of(c, o));
	}
}

static void compare_seq_of_maps(cmp *c, const ynode *in, const ynode *out, const char *section, const char *key)
{
	if (!out || out->kind != Y_SEQ || out->n != in->n) {
		differs(c, in, key, out && out->kind == Y_SEQ ? arena_printf(c->im->a, "%zu entries", out->n) : "none");
		return;
	}
	for (size_t i = 0; i < in->n; i++) {
		const char *where = arena_printf(c->im->a, "%s[%zu]", key, i);
		compare_map(c, in->items[i], out->items[i], section, where);
		if (strcmp(section, "ENGINE") == 0)
			compare_fabric(c, in->items[i], out->items[i], where);
	}
}

/* An insecure transport_config: DAOS reads no certificate, dslc writes none. */
static bool insecure(const ynode *transport)
{
	const ynode *v = ydoc_get(transport, "allow_insecure");
	return v && yl_scalar_bool(v) && yl_is_true(v);
}

static void compare_map(cmp *c, const ynode *in, const ynode *out, const char *section, const char *where)
{
	int64_t port = 10001;
	yl_get_int(c->n->root, "port", &port, NULL);
	bool certless = strcmp(section, "TRANSPORT") == 0 && insecure(in);
	for (size_t i = 0; in && in->kind == Y_MAP && i < in->n; i++) {
		const ypair *p = &in->pairs[i];
		const char *k = p->key->text;
		if (p->key->kind != Y_SCALAR || !k)
			continue; /* the reader refused it */
		if (certless && strcmp(k, "allow_insecure") != 0)
			continue;
		if ((strcmp(section, "ENGINE") == 0 || strcmp(section, "SERVER") == 0) && is_fabric_key(k))
			continue; /* compare_fabric: what each engine takes */
		const char *name = *where ? arena_printf(c->im->a, "%s.%s", where, k) : k;
		const ynode *o = out ? ydoc_get(out, k) : NULL;
		if (yl_is_null(p->value))
			continue;
		if (!o) {
			if (!import_is_default(section, k, p->value))
				differs(c, p->key, name, "nothing");
			continue;
		}
		if (strcmp(k, "engines") == 0)
			compare_seq_of_maps(c, p->value, o, "ENGINE", name);
		else if (strcmp(k, "storage") == 0)
			compare_seq_of_maps(c, p->value, o, "TIER", name);
		else if (strcmp(k, "transport_config") == 0 || strcmp(k, "control_metadata") == 0)
			compare_map(c, p->value, o, strcmp(k, "transport_config") == 0 ? "TRANSPORT" : "CONTROL_METADATA", name);
		else if (strcmp(k, "access_points") == 0 || strcmp(k, "mgmt_svc_replicas") == 0) {
			if (!set_same(c, p->value, o, port))
				differs(c, p->value, name, "other access points");
		} else if (is_set_key(k)) {
			if (!set_same(c, p->value, o, 0))
				differs(c, p->value, name, arena_printf(c->im->a, "other entries (%zu)", o->kind == Y_SEQ ? o->n : 0));
		} else if (p->value->kind == Y_SEQ) {
			if (!list_same(p->value, o))
				differs(c, p->value, name, "another list");
		} else if (p->value->kind == Y_SCALAR) {
			if (!scalar_same(p->value, o))
				differs(c, p->value, name, text_of(c, o));
		} else {
			differs(c, p->value, name, text_of(c, o));
		}
	}
}

bool import_verify(importer *im, const void *mp, const char *name)
{
	const model *m = mp;
	render_memo *memo = render_memo_new(im->a);
	bool ok = true;
	for (size_t i = 0; i < im->nnodes; i++) {
		const imp_node *n = &im->nodes[i];
		const node *nd = model_node(m, n->host);
		if (!nd || !nd->spec || !nd->spec->plan || !nd->spec->plan->ok)
			continue; /* the description's own findings say why */
		size_t nf = 0;
		const rendered *f = render_spec_files(m, nd->spec, "daos_server", memo, &nf);
		if (!f || !nf)
			continue;
		uint32_t id = src_add(im->src, arena_printf(im->a, "%s (built for %s)", name, n->host), f->data, f->len);
		const ynode *built = ydoc_parse(im->a, im->dc, id);
		cmp c = {im, im->dc, n, true};
		if (built)
			compare_map(&c, n->root, built, "SERVER", "");
		ok &= built && c.ok;
	}
	return ok;
}
