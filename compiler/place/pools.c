/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* pools.c - see pools.h. Facts: ../shared/facts/daos-config.md section 4. */
#include "pools.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "compiler/model/acl.h"
#include "compiler/model/oclass.h"
#include "place.h"
#include "tolerance.h"

enum { POOL_EC_CELL_DEFAULT = 64 * 1024, LARGE_EC_CELL = 128 * 1024 };

const char *pools_size(arena *a, uint64_t bytes)
{
	static const struct { const char *u; uint64_t m; } units[] = {
		{"PiB", PiB}, {"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB},
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (bytes && bytes % units[i].m == 0)
			return arena_printf(a, "%llu%s", (unsigned long long)(bytes / units[i].m), units[i].u);
	return arena_printf(a, "%lluB", (unsigned long long)bytes);
}

typedef struct fleet {
	int nodes;   /* nodes with at least one engine */
	int engines;
	bool known;  /* every node resolved and placed: counts are reliable */
} fleet;

static fleet count_fleet(const model *m)
{
	fleet f = {0, 0, !m->nodes_incomplete};
	for (size_t i = 0; i < m->nnodes; i++) {
		const node_plan *p = m->nodes[i].spec ? m->nodes[i].spec->plan : NULL;
		if (!p || !p->ok)
			f.known = false;
		if (p && p->nengines) {
			f.nodes++;
			f.engines += p->nengines;
		}
	}
	return f;
}

static int release_code(const model *m)
{
	return m->release && m->release->id == DAOS_2_8 ? 28 : 26;
}

/* A DAOS label: 1-127 of [A-Za-z0-9.:_-], not shaped like a UUID. */
static bool label_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 127)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || strchr(".:_-", s[i])))
			return false;
	if (n == 36 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-')
		return false;
	return true;
}

static void check_label(model *m, const char *label, src_loc loc, const char *what)
{
	if (label_ok(label))
		return;
	diag *d = diag_report(m->dc, R_BAD_VALUE, loc, "'%s' is not a valid DAOS %s label", label, what);
	diag_help(m->dc, d, "labels are 1-127 letters, digits, '.', ':', '_' or '-', and not UUID-shaped");
}

/* ---- pools ----------------------------------------------------------------- */

/* The bytes [off, off + len) of an ACE inside its source string, when the
 * source holds it verbatim (no escape, not glued from tokens). */
static src_loc ace_part(const model *m, src_loc l, const char *ace, size_t off, size_t len)
{
	const src_file *f = src_get(m->dc->src, l.file);
	if (!f || l.end > f->len)
		return l;
	uint32_t q = f->text[l.start] == '"';
	if (l.end - l.start != strlen(ace) + 2 * q || memcmp(f->text + l.start + q, ace, strlen(ace)) != 0)
		return l;
	l.start += q + (uint32_t)off;
	l.end = l.start + (uint32_t)(len ? len : 1);
	return l;
}

/* Whose ACL is checked: the entries, the rules, the permissions with
 * meaning there (DAOS_ACL_PERM_POOL_ALL or _CONT_ALL). */
typedef struct acl_owner {
	const struct acl_entry *acl;
	size_t nacl;
	rule_id parse_rule;
	unsigned perms;
	const char *kind; /* "pool", "container" */
} acl_owner;

static void acl_entry_check(model *m, const acl_owner *o, const struct acl_entry *e, strmap *principals, bool *ok)
{
	acl_ace ace;
	acl_error err;
	if (!acl_parse(e->ace, &ace, &err)) {
		diag *d = diag_report(m->dc, o->parse_rule, ace_part(m, e->loc, e->ace, err.off, err.len), err.why, err.bad);
		if (err.fix) {
			diag_help(m->dc, d, "write `%s`", err.fix);
			diag_fix_edit(m->dc, d, ace_part(m, e->loc, e->ace, 0, strlen(e->ace)), "%s", err.fix);
		}
		else
			diag_help(m->dc, d, "write it as DAOS does: `A::OWNER@:rw`, `A:G:GROUP@:r`, `A::alice@:r`, `A:G:ml@:rw`");
		*ok = false;
		return;
	}
	/* each principal once: a map, not a scan of the earlier entries (an
	 * ACL of 100,000 entries stays linear) */
	const char *key = acl_principal_key(m->ar, &ace);
	const struct acl_entry *first = strmap_get(principals, key);
	if (first) {
		diag *d = diag_report(m->dc, o->parse_rule, e->loc, "%.*s is given twice: DAOS refuses the ACL",
				      (int)ace.name_len, ace.name);
		diag_note_at(m->dc, d, first->loc, "first given here");
		diag_help(m->dc, d, "keep one entry per principal, with every permission it needs");
		*ok = false;
		return;
	}
	strmap_put(principals, key, (void *)e);
	unsigned extra = ace.perms & ~o->perms;
	if (extra) {
		char bad[16], keep[16];
		acl_perm_letters(extra, bad);
		acl_perm_letters(ace.perms & o->perms, keep);
		const char *colon = strrchr(e->ace, ':');
		diag *d = diag_report(m->dc, R_POOL_ACL_PERMS, ace_part(m, e->loc, e->ace, (size_t)(colon + 1 - e->ace),
									 strlen(colon + 1)),
				      "%s: %s permissions that grant nothing on a %s", bad,
				      strcmp(o->kind, "pool") == 0 ? "container" : "pool", o->kind);
		diag_help(m->dc, d, "write `%.*s%s`", (int)(colon + 1 - e->ace), e->ace, keep);
		diag_fix_edit(m->dc, d, ace_part(m, e->loc, e->ace, (size_t)(colon + 1 - e->ace), strlen(colon + 1)), "%s", keep);
	}
}

/* An ACL as DAOS parses it; true when every entry is accepted. */
static bool acl_check(model *m, const acl_owner *o)
{
	strmap principals;
	strmap_init(&principals, m->ar);
	bool ok = true;
	for (size_t i = 0; i < o->nacl; i++)
		acl_entry_check(m, o, &o->acl[i], &principals, &ok);
	return ok;
}

/* The pool's ACL: every entry as DAOS parses it, and a file name. */
static void plan_acl(model *m, const pool_spec *p, pool_plan *pp)
{
	if (!p->nacl)
		return;
	acl_owner o = {p->acl, p->nacl, R_POOL_ACL, acl_pool_perms, "pool"};
	bool ok = acl_check(m, &o);
	const char *unsafe = safe_name(p->name);
	if (unsafe) {
		diag *d = diag_report(m->dc, R_BAD_VALUE, p->name_loc, "pool %s has an ACL, and its label cannot name the "
				      "file cluster/acl/<label>.acl: %s", safe_echo(m->ar, p->name), unsafe);
		diag_help(m->dc, d, "label the pool with letters, digits, '.', '_' or '-'");
		ok = false;
	}
	if (ok)
		pp->acl_file = arena_printf(m->ar, "acl/%s.acl", p->name);
}

/* A container's ACL: cluster/acl/<pool>/<container>.acl. */
static void plan_container_acl(model *m, const container_spec *c, container_plan *cp)
{
	if (!c->nacl)
		return;
	acl_owner o = {c->acl, c->nacl, R_CONTAINER_ACL, acl_cont_perms, "container"};
	bool ok = acl_check(m, &o);
	const char *unsafe = safe_name(c->name) ? safe_name(c->name) : safe_name(c->pool);
	if (unsafe) {
		diag *d = diag_report(m->dc, R_BAD_VALUE, c->name_loc, "container %s has an ACL, and its names cannot name the "
				      "file cluster/acl/<pool>/<container>.acl: %s", safe_echo(m->ar, c->name), unsafe);
		diag_help(m->dc, d, "name the pool and the container with letters, digits, '.', '_' or '-'");
		ok = false;
	}
	if (ok)
		cp->acl_file = arena_printf(m->ar, "acl/%s/%s.acl", c->pool, c->name);
}

/* Every server runs MD-on-SSD (a meta role on each engine), or the first
 * spec that does not. */
static const node_spec *spec_without_md(const model *m)
{
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_plan *np = m->specs[i]->plan;
		if (!m->specs[i]->used || !np || np->client)
			continue;
		for (int e = 0; e < np->nengines; e++)
			if (!place_has_meta(&np->engines[e]))
				return m->specs[i];
	}
	return NULL;
}

static void plan_mem_ratio(model *m, const pool_spec *p, pool_plan *pp)
{
	if (!p->mem_ratio.set)
		return;
	if (m->release && !m->release->mem_ratio) {
		diag *d = diag_report(m->dc, R_MEM_RATIO, p->mem_ratio.loc, "mem_ratio needs DAOS 2.8: the dmg of %s has no "
				      "--mem-ratio", m->release->name);
		diag_help(m->dc, d, "declare `daos 2.8`, or drop mem_ratio");
		return;
	}
	const node_spec *plain = spec_without_md(m);
	if (plain) {
		diag *d = diag_report(m->dc, R_MEM_RATIO, p->mem_ratio.loc, "mem_ratio, but the engines of %s have no MD-on-SSD "
				      "meta role: the management service refuses it (FaultPoolMemRatioNoRoles)", plain->origin);
		diag_help(m->dc, d, "give every engine `nvme roles [wal meta data]` (or tiers with meta), or drop mem_ratio");
		return;
	}
	int64_t v = p->mem_ratio.v;
	pp->mem_ratio = v % 100 == 0 ? arena_printf(m->ar, "%lld%%", (long long)(v / 100))
		: v % 10 == 0 ? arena_printf(m->ar, "%lld.%lld%%", (long long)(v / 100), (long long)(v % 100 / 10))
		: arena_printf(m->ar, "%lld.%02lld%%", (long long)(v / 100), (long long)(v % 100));
}

/* svc-rf-nodes: replicas past the server nodes that survive no more node
 * failures than a smaller svc_rf (never below the recommended one, which
 * svc-rf-low holds: the two never propose each other's value). */
static void svc_rf_nodes(model *m, const pool_spec *p, fleet f, int recommended)
{
	int rf = (int)p->svc_rf.v, most = 0, down = place_svc_nodes(m, rf, &most), q = recommended, q_most = 0;
	if (most < 2)
		return;
	while (q < rf && place_svc_nodes(m, q, &q_most) < down)
		q++;
	if (q >= rf)
		return; /* each replica more buys a node failure */
	diag *d = diag_report(m->dc, R_SVC_RF_NODES, p->svc_rf.loc,
			      "svc_rf %d puts %d pool service replicas on %d server node%s, up to %d on one: they survive %d "
			      "node failure%s, as svc_rf %d's %d do", rf, 2 * rf + 1, f.nodes, f.nodes == 1 ? "" : "s", most,
			      down, down == 1 ? "" : "s", q, 2 * q + 1);
	diag_note_at(m->dc, d, SRC_LOC_NONE, "DAOS spreads the replicas node by node (ds_pool_plan_svc_reconfs); the %d more "
		     "survive only engine failures and slow every pool metadata update", 2 * (rf - q));
	diag_help(m->dc, d, "write `svc_rf %d`, or add server nodes (%d hold each replica on a node of its own)", q, 2 * rf + 1);
	diag_fix_edit(m->dc, d, p->svc_rf.loc, "svc_rf %d", q);
}

static void plan_pool(model *m, pool_spec *p, fleet f)
{
	pool_plan *pp = arena_alloc(m->ar, sizeof(*pp));
	p->plan = pp;
	pp->label = p->name;
	check_label(m, p->name, p->name_loc, "pool");
	if (p->size_pct.set)
		pp->size = arena_printf(m->ar, "%lld%%", (long long)p->size_pct.v);
	else if (p->size_bytes.set)
		pp->size = pools_size(m->ar, (uint64_t)p->size_bytes.v);
	else if (!p->size_refused) { /* a refused size was its own finding */
		diag *d = diag_report(m->dc, R_BAD_VALUE, p->name_loc, "pool %s has no size", p->name);
		diag_help(m->dc, d, "add `size 90%%` (a share of the free capacity) or an absolute size such as `size 500TiB`");
	}
	int recommended = f.nodes >= 256 ? 3 : f.engines >= 5 ? 2 : f.engines >= 3 ? 1 : 0;
	pp->svc_rf = p->svc_rf.set ? (int)p->svc_rf.v : recommended;
	if (!f.known)
		return; /* placement failed somewhere: engine counts would mislead */
	if (p->svc_rf.set && 2 * pp->svc_rf + 1 > f.engines) {
		diag *d = diag_report(m->dc, R_SVC_RF_HIGH, p->svc_rf.loc,
				      "svc_rf %d needs %d pool service replicas, but the cluster has %d engine%s", pp->svc_rf,
				      2 * pp->svc_rf + 1, f.engines, f.engines == 1 ? "" : "s");
		diag_help(m->dc, d, "write `svc_rf %d`", (f.engines - 1) / 2);
		diag_fix_edit(m->dc, d, p->svc_rf.loc, "svc_rf %d", (f.engines - 1) / 2);
	} else if (p->svc_rf.set && pp->svc_rf < recommended) {
		diag *d = diag_report(m->dc, R_SVC_RF_LOW, p->svc_rf.loc,
				      "svc_rf %d survives %d pool service failure%s on %d node%s (%d engine%s)", pp->svc_rf,
				      pp->svc_rf, pp->svc_rf == 1 ? "" : "s", f.nodes, f.nodes == 1 ? "" : "s", f.engines,
				      f.engines == 1 ? "" : "s");
		diag_help(m->dc, d, "write `svc_rf %d`", recommended);
		diag_fix_edit(m->dc, d, p->svc_rf.loc, "svc_rf %d", recommended);
	} else if (p->svc_rf.set && pp->svc_rf > recommended) {
		svc_rf_nodes(m, p, f, recommended);
	}
	if (p->owner.set)
		pp->user = strchr(p->owner.v, '@') ? p->owner.v : arena_printf(m->ar, "%s@", p->owner.v);
	if (p->group.set)
		pp->group = strchr(p->group.v, '@') ? p->group.v : arena_printf(m->ar, "%s@", p->group.v);
	plan_acl(m, p, pp);
	plan_mem_ratio(m, p, pp);
}

/* ---- containers -------------------------------------------------------------- */

typedef struct cctx {
	model *m;
	container_spec *c;
	container_plan *cp;
	int rel, patch;
} cctx;

/* Parses an explicit class; false (and a finding) when DAOS would refuse it. */
static bool explicit_class(cctx *x, const opt_str *o, oclass *out)
{
	if (!o->set)
		return false;
	const char *why, *sug;
	if (oclass_parse(o->v, x->rel, x->patch, out, &why, &sug))
		return true;
	diag *d = diag_report(x->m->dc, R_OCLASS_UNKNOWN, o->loc, "'%s' is not an object class of DAOS %s%s: %s", o->v,
			      x->m->release ? x->m->release->name : "2.6",
			      x->patch >= 0 ? arena_printf(x->m->ar, ".%d", x->patch) : "", why);
	if (sug)
		diag_help(x->m->dc, d, "did you mean %s?", sug);
	else
		diag_help(x->m->dc, d, "see `dslc explain oclass-unknown` for the names DAOS registers");
	return false;
}

/* The widest EC with p parity cells that fits the domains with one spare;
 * k limited to max_k. false when none fits. */
static bool widest_ec(const cctx *x, int p, int domains, int max_k, oclass *out)
{
	static const int ks[] = {16, 8, 4, 2};
	for (size_t i = 0; i < 4; i++) {
		int k = ks[i];
		if (k > max_k || !oclass_ec_allowed(k, p, x->rel, x->patch) || k + p > domains - 1)
			continue;
		memset(out, 0, sizeof(*out));
		out->kind = OC_EC;
		out->k = k;
		out->p = p;
		oclass_name(OC_EC, k, p, 0, out->name);
		return true;
	}
	return false;
}

static void replicated(int rf, bool wide, oclass *out)
{
	memset(out, 0, sizeof(*out));
	if (rf == 0) {
		out->kind = OC_S;
		out->k = 1;
		out->groups = wide ? 0 : 1;
		oclass_name(OC_S, 1, 0, out->groups, out->name);
		return;
	}
	out->kind = OC_RP;
	out->k = rf + 1;
	out->groups = wide ? 0 : 1;
	oclass_name(OC_RP, rf + 1, 0, out->groups, out->name);
}

/* Groups of a per-process file class (the tutorials' G32). */
enum { PER_PROCESS_GROUPS = 32 };

static void file_goal(cctx *x, oclass *out)
{
	const char *files = x->c->files.v;
	int rf = x->cp->rd_fac;
	if (strcmp(files, "small") == 0) {
		replicated(rf, false, out);
		return;
	}
	/* file per process (the Aurora tutorials' "something in between, and
	 * file per process" row: S32, EC_16P1G32, EC_16P2G32): each file on 32
	 * groups, not on every target, so thousands of clients each writing
	 * their own file do not all touch every target */
	if (strcmp(files, "per-process") == 0) {
		if (rf == 0 || !(rf <= 3 && widest_ec(x, rf, x->cp->domains, 16, out)))
			replicated(rf, false, out);
		out->groups = PER_PROCESS_GROUPS;
		oclass_name(out->kind, out->k, out->p, out->groups, out->name);
		return;
	}
	/* large: the widest EC; mixed: narrow stripes (k <= 4) waste less on small files */
	int max_k = strcmp(files, "large") == 0 ? 16 : 4;
	if (rf == 0) {
		replicated(0, true, out);
		return;
	}
	if (rf <= 3 && widest_ec(x, rf, x->cp->domains, max_k, out))
		return;
	replicated(rf, true, out);
}

/* `files large` (or mixed, per-process) with a tolerance EC could give, made
 * replicated because the cluster has too few fault domains: said, with the
 * class as the line that keeps it knowingly. */
static void ec_fallback(cctx *x, const oclass *fc)
{
	const container_spec *c = x->c;
	int p = x->cp->rd_fac;
	if (fc->kind == OC_EC || p < 1 || p > 3 || strcmp(c->files.v, "small") == 0 || x->cp->domains < 0)
		return;
	diag *d = diag_report(x->m->dc, R_OCLASS_EC_FALLBACK, c->files.loc,
			      "files %s with %d failure%s tolerated is %s, replicated: the smallest EC, EC_2P%dGX, needs %d fault "
			      "domains at rd_lvl %s (one spare for rebuild), and the cluster has %d",
			      c->files.v, p, p == 1 ? "" : "s", fc->name, p, 2 + p + 1, x->cp->rd_lvl, x->cp->domains);
	diag_note_at(x->m->dc, d, SRC_LOC_NONE, "%s stores each file %d times; EC_2P%dGX would store it %s times", fc->name,
		     p + 1, p, p % 2 ? (p == 1 ? "1.5" : "2.5") : "2");
	diag_help(x->m->dc, d, "add `file_oclass %s` beside it to keep it knowingly, or add fault domains", fc->name);
	src_loc after = c->files.loc;
	after.start = after.end; /* one more setting on the files line: what files decides besides stays */
	diag_fix_edit(x->m->dc, d, after, "  file_oclass %s", fc->name);
}

/* The class name inside the statement at loc (`file_oclass EC_16P2GX`),
 * replaced when it is there exactly once. */
static void fix_class_name(cctx *x, diag *d, src_loc loc, const char *was, const char *name)
{
	const src_file *f = src_get(x->m->dc->src, loc.file);
	if (!f || loc.end > f->len)
		return;
	size_t n = strlen(was);
	const char *at = NULL;
	for (uint32_t i = loc.start; i + n <= loc.end; i++)
		if (memcmp(f->text + i, was, n) == 0) {
			if (at)
				return;
			at = f->text + i;
		}
	if (!at)
		return;
	src_loc l = loc;
	l.start = (uint32_t)(at - f->text);
	l.end = l.start + (uint32_t)n;
	diag_fix_name(x->m->dc, d, l, was, name);
}

static void check_width(cctx *x, const oclass *oc, src_loc loc, bool derived)
{
	container_plan *cp = x->cp;
	int width = oclass_width(oc);
	if (width <= cp->domains || cp->domains < 0)
		return;
	bool ranks = strcmp(cp->rd_lvl, "rank") == 0;
	const char *lvl = cp->domains == 1 ? (ranks ? "engine" : "node") : ranks ? "engines" : "nodes";
	diag *d;
	if (derived) {
		d = diag_report(x->m->dc, R_OCLASS_TOO_WIDE, loc,
				"tolerating %d failure%s needs %d fault domains, but the cluster has %d %s", cp->rd_fac,
				cp->rd_fac == 1 ? "" : "s", width, cp->domains, lvl);
		diag_help(x->m->dc, d, "tolerate fewer failures, or count engines instead of nodes: `tolerate %d engine failures`",
			  cp->rd_fac);
		return;
	}
	d = diag_report(x->m->dc, R_OCLASS_TOO_WIDE, loc, "%s is %d wide (%d > %d %s at rd_lvl %s)", oc->name, width,
			width, cp->domains, lvl, cp->rd_lvl);
	oclass fit;
	int p = oc->kind == OC_EC ? oc->p : oclass_tolerance(oc);
	if (oc->kind == OC_EC && widest_ec(x, p, cp->domains, oc->k, &fit)) {
		diag_help(x->m->dc, d, "use %s, the widest class with %d parity cells that fits %d %s with one spare",
			  fit.name, p, cp->domains, lvl);
		fix_class_name(x, d, loc, oc->name, fit.name);
	}
	else
		diag_help(x->m->dc, d, "use a class at most %d wide", cp->domains);
}

static void check_class(cctx *x, const oclass *oc, src_loc loc, bool derived)
{
	container_plan *cp = x->cp;
	check_width(x, oc, loc, derived);
	if (oclass_tolerance(oc) < cp->rd_fac) {
		diag *d = diag_report(x->m->dc, R_OCLASS_TOLERANCE, loc, "%s tolerates %d failure%s, but rd_fac is %d", oc->name,
				      oclass_tolerance(oc), oclass_tolerance(oc) == 1 ? "" : "s", cp->rd_fac);
		oclass fit;
		if (oc->kind == OC_EC && cp->rd_fac <= 3 && widest_ec(x, cp->rd_fac, cp->domains, 16, &fit))
			diag_help(x->m->dc, d, "use %s", fit.name);
		else {
			replicated(cp->rd_fac, oc->groups == 0, &fit);
			diag_help(x->m->dc, d, "use %s", fit.name);
		}
	}
}

static uint64_t stripe_of(const oclass *oc, const container_plan *cp)
{
	return oc->kind == OC_EC ? (uint64_t)oc->k * (cp->ec_cell ? cp->ec_cell : POOL_EC_CELL_DEFAULT) : 0;
}

static void warn_non_posix(cctx *x, src_loc loc, const char *what)
{
	diag *d = diag_report(x->m->dc, R_OCLASS_NON_POSIX, loc, "%s is ignored for a %s container", what, x->cp->type);
	diag_help(x->m->dc, d, "remove it, or make the container `type posix` (DAOS applies it only to POSIX containers)");
}

/* `directory` lines: each class checked as the container's are, each chunk
 * in whole stripes of the class its files get (the directory's, else the
 * container's file class). What DFS does with them (src/client/dfs, 2.6 and
 * 2.8): a file or directory made in the directory takes its class and chunk
 * (dir.c: entry.oclass = parent->d.oclass, so the whole subtree), and an EC
 * class is used for files only, directories falling back to the container's
 * directory class (common.c create_dir). */
static void plan_directories(cctx *x, const oclass *files, bool posix)
{
	container_spec *c = x->c;
	container_plan *cp = x->cp;
	if (!c->ndirs)
		return;
	if (!posix) {
		for (size_t i = 0; i < c->ndirs; i++)
			warn_non_posix(x, c->dirs[i].loc, "directory");
		return;
	}
	cp->dirs = arena_alloc(x->m->ar, c->ndirs * sizeof(*cp->dirs));
	for (size_t i = 0; i < c->ndirs; i++) {
		const struct dir_spec *d = &c->dirs[i];
		struct dir_plan *dp = &cp->dirs[cp->ndirs];
		oclass oc;
		bool have = explicit_class(x, &d->oclass, &oc);
		if (d->oclass.set && !have)
			continue; /* explicit_class reported it */
		dp->path = d->path;
		if (have) {
			check_class(x, &oc, d->oclass.loc, false);
			strcpy(dp->oclass, oc.name);
		}
		const oclass *cls = have ? &oc : files;
		uint64_t stripe = cls ? stripe_of(cls, cp) : 0;
		if (d->chunk.set) {
			dp->chunk = (uint64_t)d->chunk.v;
			if (stripe && dp->chunk % stripe) {
				diag *dg = diag_report(x->m->dc, R_CHUNK_STRIPE, d->chunk.loc,
						       "chunk %s of directory %s is not a multiple of %s's full stripe (%d x %s = %s)",
						       pools_size(x->m->ar, dp->chunk), d->path, cls->name, cls->k,
						       pools_size(x->m->ar, cp->ec_cell ? cp->ec_cell : POOL_EC_CELL_DEFAULT),
						       pools_size(x->m->ar, stripe));
				const char *up = pools_size(x->m->ar, (dp->chunk / stripe + 1) * stripe);
				diag_help(x->m->dc, dg, "write `chunk %s`", up);
				diag_fix_edit(x->m->dc, dg, d->chunk.loc, "%s", up); /* (the size alone: its loc is the value) */
			}
		}
		cp->ndirs++;
	}
}

static void plan_container(model *m, container_spec *c, fleet f)
{
	container_plan *cp = arena_alloc(m->ar, sizeof(*cp));
	c->plan = cp;
	cctx x = {m, c, cp, release_code(m), m->release_patch};
	c->in_pool = strmap_get(&m->pool_index, c->pool);
	if (c->in_pool)
		ARENA_PUSH(m->ar, c->in_pool->members, c->in_pool->nmembers, c->in_pool->members_cap, c);
	cp->label = c->label.set ? c->label.v : c->name;
	check_label(m, cp->label, c->label.set ? c->label.loc : c->name_loc, "container");
	plan_container_acl(m, c, cp);
	char *type = arena_strdup(m->ar, c->type.set ? c->type.v : "posix");
	for (char *t = type; *t; t++)
		*t = (char)toupper((unsigned char)*t);
	cp->type = type;
	bool posix = strcmp(cp->type, "POSIX") == 0;

	/* redundancy: rd_fac, rd_lvl and the fault domains they count */
	cp->rd_fac = c->rd_fac.set ? (int)c->rd_fac.v : c->tolerate.set ? (int)c->tolerate.v : 0;
	if (c->rd_fac.set && c->tolerate.set && c->rd_fac.v != c->tolerate.v) {
		diag *d = diag_report(m->dc, R_BAD_VALUE, c->rd_fac.loc, "rd_fac %lld contradicts `tolerate %lld ...`",
				      (long long)c->rd_fac.v, (long long)c->tolerate.v);
		diag_note_at(m->dc, d, c->tolerate.loc, "the goal is stated here");
		diag_help(m->dc, d, "keep the goal and drop rd_fac (dslc derives it)");
	}
	const char *lvl = c->rd_lvl.set ? c->rd_lvl.v
		: c->tolerate_level.set && strcmp(c->tolerate_level.v, "engine") == 0 ? "rank" : "node";
	cp->rd_lvl = lvl;
	cp->domains = !f.known ? -1 : strcmp(lvl, "rank") == 0 ? f.engines : f.nodes;
	if (cp->rd_fac == 0) {
		diag *d = diag_report(m->dc, R_RD_FAC_ZERO, c->rd_fac.set ? c->rd_fac.loc : c->name_loc,
				      "container %s keeps no redundancy: one failure loses data", c->name);
		diag_help(m->dc, d, "state the goal: `tolerate 1 node failures` (or 2)");
	}

	/* checksums */
	cp->cksum = c->cksum.set ? c->cksum.v : NULL;
	cp->srv_cksum = c->srv_cksum.set && c->srv_cksum.v;
	if (!cp->cksum || strcmp(cp->cksum, "off") == 0) {
		diag *d = diag_report(m->dc, R_CHECKSUM_OFF, c->cksum.set ? c->cksum.loc : c->name_loc,
				      "container %s stores data without checksums", c->name);
		diag_help(m->dc, d, "add `checksum crc32 server`");
	}

	/* EC cell */
	if (c->ec_cell.set) {
		uint64_t v = (uint64_t)c->ec_cell.v;
		if (v < 4 * KiB || v > MiB || v % 32) {
			diag *d = diag_report(m->dc, R_EC_CELL, c->ec_cell.loc, "ec_cell %s is outside 4KiB-1MiB or not a multiple of 32",
					      pools_size(m->ar, v));
			diag_help(m->dc, d, "use a power of two from 4KiB to 1MiB, e.g. `ec_cell 128KiB`");
		} else {
			cp->ec_cell = v;
		}
	}

	/* classes: explicit ones are checked, goals fill the rest */
	oclass oc, fc, dc;
	bool have_oc = explicit_class(&x, &c->oclass, &oc);
	bool have_fc = explicit_class(&x, &c->file_oclass, &fc);
	bool have_dc = explicit_class(&x, &c->dir_oclass, &dc);
	if (!posix) {
		const opt_str *given[] = {&c->oclass, &c->file_oclass, &c->dir_oclass, &c->files, &c->directories};
		const char *what[] = {"oclass", "file_oclass", "dir_oclass", "files", "directories"};
		for (int i = 0; i < 5; i++)
			if (given[i]->set)
				warn_non_posix(&x, given[i]->loc, what[i]);
		if (c->chunk.set)
			warn_non_posix(&x, c->chunk.loc, "chunk");
		plan_directories(&x, NULL, false);
		return;
	}
	if (have_oc) {
		check_class(&x, &oc, c->oclass.loc, false);
		if (oc.kind == OC_EC) {
			diag *d = diag_report(m->dc, R_OCLASS_EC_DIRECTORY, c->oclass.loc,
					      "oclass %s also applies to directories, and DAOS keeps EC there", oc.name);
			oclass fit = oc;
			if (cp->domains >= 0 && oclass_width(&oc) > cp->domains)
				widest_ec(&x, oc.p, cp->domains, oc.k, &fit);
			replicated(cp->rd_fac, false, &dc);
			diag_help(m->dc, d, "write `file_oclass %s` and `dir_oclass %s`", fit.name, dc.name);
			if (!c->file_oclass.set && !c->dir_oclass.set)
				diag_fix_edit(m->dc, d, c->oclass.loc, "file_oclass %s  dir_oclass %s", fit.name, dc.name);
		}
		strcpy(cp->oclass, oc.name);
	}
	if (have_dc) {
		check_class(&x, &dc, c->dir_oclass.loc, false);
		if (dc.kind == OC_EC) {
			diag *d = diag_report(m->dc, R_OCLASS_EC_DIRECTORY, c->dir_oclass.loc,
					      "%s is erasure-coded: DAOS replaces an EC directory class with its default", dc.name);
			oclass rp;
			replicated(cp->rd_fac, false, &rp);
			diag_help(m->dc, d, "write `dir_oclass %s`, replicated as the container's tolerance asks", rp.name);
			diag_fix_edit(m->dc, d, c->dir_oclass.loc, "dir_oclass %s", rp.name);
		}
		strcpy(cp->dir_oclass, dc.name);
	} else if (!have_oc && !c->oclass.set && (c->directories.set || c->files.set || c->tolerate.set)) {
		replicated(cp->rd_fac, c->directories.set && strcmp(c->directories.v, "large") == 0, &dc);
		check_class(&x, &dc, c->tolerate.set ? c->tolerate.loc : c->name_loc, true);
		strcpy(cp->dir_oclass, dc.name);
	}
	if (have_fc) {
		check_class(&x, &fc, c->file_oclass.loc, false);
		strcpy(cp->file_oclass, fc.name);
	} else if (!have_oc && !c->oclass.set && c->files.set) {
		file_goal(&x, &fc);
		check_class(&x, &fc, c->tolerate.set ? c->tolerate.loc : c->files.loc, true);
		strcpy(cp->file_oclass, fc.name);
		ec_fallback(&x, &fc);
		if (fc.kind == OC_EC && !c->ec_cell.set && strcmp(c->files.v, "large") == 0)
			cp->ec_cell = LARGE_EC_CELL;
		have_fc = true;
	}

	/* chunk: a multiple of the full stripe of the file class */
	const oclass *files = have_fc ? &fc : have_oc ? &oc : NULL;
	uint64_t stripe = files ? stripe_of(files, cp) : 0;
	if (c->chunk.set) {
		cp->chunk = (uint64_t)c->chunk.v;
		if (stripe && cp->chunk % stripe) {
			uint64_t up = (cp->chunk / stripe + 1) * stripe;
			diag *d = diag_report(m->dc, R_CHUNK_STRIPE, c->chunk.loc,
					      "chunk %s is not a multiple of %s's full stripe (%d x %s = %s)",
					      pools_size(m->ar, cp->chunk), files->name, files->k,
					      pools_size(m->ar, cp->ec_cell ? cp->ec_cell : POOL_EC_CELL_DEFAULT),
					      pools_size(m->ar, stripe));
			diag_help(m->dc, d, "write `chunk %s`", pools_size(m->ar, up));
			diag_fix_edit(m->dc, d, c->chunk.loc, "chunk %s", pools_size(m->ar, up));
		}
	} else if (c->files.set && strcmp(c->files.v, "per-process") == 0 && (stripe || have_fc)) {
		/* per process: "DFS chunk at least 2 MiB", in whole stripes of EC */
		cp->chunk = stripe ? (2 * MiB + stripe - 1) / stripe * stripe : 2 * MiB;
	} else if (stripe && c->files.set) {
		/* large files: whole stripes of at least 8 MiB; otherwise DAOS's own
		 * rule (suggest_dfs_cs): the smallest multiple >= 1 MiB, or 2 stripes */
		uint64_t target = strcmp(c->files.v, "large") == 0 ? 8 * MiB : MiB;
		cp->chunk = stripe >= target ? (target == MiB ? 2 * stripe : stripe) : (target + stripe - 1) / stripe * stripe;
	}
	plan_directories(&x, files, true);
	cp->derivation = arena_printf(m->ar, "rd_fac %d at rd_lvl %s over %d %s%s%s", cp->rd_fac, cp->rd_lvl, cp->domains,
				      strcmp(cp->rd_lvl, "rank") == 0 ? "engines" : "nodes",
				      c->files.set ? ", files " : "", c->files.set ? c->files.v : "");
}

/* A class named outside the container for its files (a mount's
 * romio_daos_obj_class), checked as the container's own are: known to DAOS,
 * keeping its rd_fac, fitting its fault domains. */
static void check_outside_class(model *m, container_spec *c, const opt_str *name)
{
	if (!name->set)
		return;
	cctx x = {m, c, c ? c->plan : NULL, release_code(m), m->release_patch};
	oclass oc;
	/* the name is judged alone (the release's table), whatever is wrong
	 * with the container; its geometry only against a planned container */
	if (explicit_class(&x, name, &oc) && x.cp)
		check_class(&x, &oc, name->loc, false);
}

/* pool-many-containers: tens per pool, not hundreds (the rule's text). */
enum { POOL_MANY_CONTAINERS = 100 };

static void check_container_count(model *m, const pool_spec *p)
{
	if (p->nmembers < POOL_MANY_CONTAINERS)
		return;
	diag *d = diag_report(m->dc, R_POOL_MANY_CONTAINERS, p->name_loc,
			      "pool %s holds %zu containers: each costs a VOS container and its aggregation on every target",
			      p->name, p->nmembers);
	diag_note_at(m->dc, d, p->members[POOL_MANY_CONTAINERS - 1]->name_loc, "the %dth is here",
		     POOL_MANY_CONTAINERS);
	diag_help(m->dc, d, "keep tens of containers per pool: merge the ones that differ only in their data, with "
		  "`directory <path> oclass <class>` where part of a tree needs its own class");
}

void pools_plan(model *m)
{
	fleet f = count_fleet(m);
	for (size_t i = 0; i < m->npools; i++)
		plan_pool(m, m->pools[i], f);
	for (size_t i = 0; i < m->ncontainers; i++)
		plan_container(m, m->containers[i], f);
	for (size_t i = 0; i < m->npools; i++)
		check_container_count(m, m->pools[i]);
	for (size_t i = 0; i < m->nmounts; i++)
		check_outside_class(m, m->mounts[i]->cont, &m->mounts[i]->mpiio.obj_class);
}
