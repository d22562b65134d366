/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* resolve.c - from the AST to the cluster model.
 *
 * Pass 1 applies the top-level table: the release, the cluster, hardware,
 * pools and containers are resolved at once; profiles and node statements
 * are recorded. Pass 2 folds each profile onto its parent, pass 3 expands
 * host lists and node overrides, pass 4 evaluates per-node addresses. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "kw.h"

/* ---- profiles -------------------------------------------------------------- */

static void unknown_parent(resolver *r, const char *name, src_loc loc, const char *what)
{
	model *m = r->m;
	const char *names[512];
	size_t n = 0;
	for (size_t i = 0; i < m->nhws && n < 512; i++)
		names[n++] = m->hws[i]->name;
	for (size_t i = 0; i < m->nprofiles && n < 512; i++)
		names[n++] = m->profiles[i]->name;
	const char *sug = kw_suggest(name, names, n);
	diag *d = diag_report(r->dc, R_UNKNOWN_NAME, loc, "no %s named '%s'", what, name);
	if (sug) {
		diag_help(r->dc, d, "did you mean '%s'?", sug);
		diag_fix_name(r->dc, d, loc, name, kw_suggest_unique(name, names, n));
	}
	else
		diag_help(r->dc, d, "define it with `%s %s ... { }`", strcmp(what, "profile") ? "hardware" : "profile", name);
}

static node_spec *profile_resolve(resolver *r, profile_def *p)
{
	if (p->state == 2)
		return p->spec;
	if (p->state == 1) {
		diag *d = diag_report(r->dc, R_UNKNOWN_NAME, p->parent_loc, "profile %s inherits from itself", p->name);
		diag_help(r->dc, d, "break the cycle: a profile chain ends at a hardware");
		return NULL;
	}
	p->state = 1;
	node_spec *base = NULL;
	if (!p->parent) {
		diag *d = diag_report(r->dc, R_BAD_VALUE, p->name_loc, "profile %s does not name its hardware", p->name);
		diag_help(r->dc, d, "write `profile %s : <hardware or profile> {`", p->name);
	} else {
		hardware *hw = model_hardware(r->m, p->parent);
		profile_def *pp = profile_find(r->m, p->parent);
		if (hw) {
			base = arena_alloc(r->ar, sizeof(*base));
			base->hw = hw;
		} else if (pp) {
			node_spec *ps = profile_resolve(r, pp);
			base = ps ? spec_copy(r->ar, ps) : NULL;
		} else {
			unknown_parent(r, p->parent, p->parent_loc, "hardware or profile");
		}
	}
	if (base) {
		base->origin = arena_printf(r->ar, "profile %s", p->name);
		const kw_table *t[] = {&kw_profile};
		unsigned before = diag_count(r->dc, SEV_ERROR);
		kw_apply(r, p->body, t, 1, base, -1);
		base->tainted |= diag_count(r->dc, SEV_ERROR) != before || !base->hw->topo;
	}
	p->spec = base;
	p->state = 2;
	return base;
}

static void spec_register(model *m, node_spec *s)
{
	if (s->registered)
		return;
	s->registered = true;
	ARENA_PUSH(m->ar, m->specs, m->nspecs, m->specs_cap, s);
}

/* ---- nodes ------------------------------------------------------------------ */

static node_spec *pending_spec(resolver *r, pending_nodes *pn, node_spec *base, const char *origin)
{
	if (!pn->body)
		return base;
	node_spec *s = spec_copy(r->ar, base);
	s->origin = origin;
	const kw_table *t[] = {&kw_node_addr, &kw_profile};
	unsigned before = diag_count(r->dc, SEV_ERROR);
	kw_apply(r, pn->body, t, 2, s, -1);
	s->tainted |= diag_count(r->dc, SEV_ERROR) != before;
	return s;
}

static node_spec *pending_profile(resolver *r, pending_nodes *pn)
{
	profile_def *p = profile_find(r->m, pn->profile);
	if (!p) {
		if (model_hardware(r->m, pn->profile)) {
			diag *d = diag_report(r->dc, R_UNKNOWN_NAME, pn->profile_loc,
					      "'%s' is a hardware description, not a profile", pn->profile);
			diag_help(r->dc, d, "nodes take a profile: `profile p : %s { engine per numa { ... } }`",
				  pn->profile);
		} else {
			unknown_parent(r, pn->profile, pn->profile_loc, "profile");
		}
		return NULL;
	}
	return profile_resolve(r, p);
}

typedef void (*host_fn)(resolver *r, pending_nodes *pn, const char *host, src_loc loc, int64_t i,
			int64_t n, void *ctx);

static void for_each_host(resolver *r, pending_nodes *pn, host_fn fn, void *ctx)
{
	int64_t index = 0;
	for (ast_value *v = pn->hosts; v; v = v == pn->hosts_end ? NULL : v->next) {
		if (v->kind == AST_PUNCT && strcmp(v->text, ",") == 0)
			continue;
		if (v->kind != AST_WORD) {
			diag *d = diag_report(r->dc, R_BAD_VALUE, v->loc, "expected a host list");
			diag_help(r->dc, d, "write host lists like gpu[001-014], separated by ','");
			continue;
		}
		const char **hosts, *why;
		int64_t *nums;
		size_t n;
		if (!hostlist_expand(r->ar, v->text, &hosts, &nums, &n, HOSTLIST_MAX, &why)) {
			diag *d = diag_report(r->dc, R_BAD_VALUE, v->loc, "'%s': %s", v->text, why);
			diag_help(r->dc, d, "write host lists like gpu[001-014] or gpu[001-003,007]");
			continue;
		}
		for (size_t k = 0; k < n; k++)
			fn(r, pn, hosts[k], v->loc, index++, nums[k], ctx);
	}
}

static void add_node(resolver *r, pending_nodes *pn, const char *host, src_loc loc, int64_t i,
		     int64_t num, void *ctx)
{
	(void)pn;
	model *m = r->m;
	node *old = model_node(m, host);
	if (old) {
		diag *d = diag_report(r->dc, R_DUPLICATE, loc, "node %s is defined twice", host);
		if (strcmp(old->host, host) != 0)
			diag_note_at(r->dc, d, SRC_LOC_NONE, "host names compare as DNS does, ignoring case and a trailing dot: "
				     "%s is %s", host, old->host);
		diag_note_at(r->dc, d, old->loc, "first defined here");
		diag_help(r->dc, d, "remove it from one host list; use `node %s { ... }` to change one node", host);
		return;
	}
	if (m->nnodes == MODEL_MAX_NODES) {
		diag *d = diag_report(r->dc, R_LIMIT, loc, "more than %d nodes", MODEL_MAX_NODES);
		diag_help(r->dc, d, "check the host ranges");
		return;
	}
	node nd = {0};
	size_t hl = strlen(host);
	nd.host = hl > 1 && host[hl - 1] == '.' ? arena_strndup(r->ar, host, hl - 1) : host; /* gpu001. is gpu001 */
	nd.loc = loc;
	nd.index = i;
	nd.number = num;
	nd.spec = ctx;
	ARENA_PUSH(r->ar, m->nodes, m->nnodes, m->nodes_cap, nd);
	char key[256];
	strmap_put(&m->node_index, arena_strdup(r->ar, model_host_key(key, sizeof(key), host)), (void *)(size_t)m->nnodes);
}

typedef struct override_ctx {
	node_spec *spec_for_new; /* with ': PROFILE' */
	strmap *seen;
} override_ctx;

static void override_node(resolver *r, pending_nodes *pn, const char *host, src_loc loc, int64_t i,
			  int64_t num, void *vctx)
{
	override_ctx *ctx = vctx;
	(void)i;
	node *nd = model_node(r->m, host);
	src_loc *prev = strmap_get(ctx->seen, host);
	if (prev) {
		diag *d = diag_report(r->dc, R_DUPLICATE, loc, "node %s has two override blocks", host);
		diag_note_at(r->dc, d, *prev, "first override here");
		diag_help(r->dc, d, "merge the two node blocks");
		return;
	}
	src_loc *l = arena_alloc(r->ar, sizeof(*l));
	*l = loc;
	strmap_put(ctx->seen, host, l);
	if (!nd) {
		if (!ctx->spec_for_new) {
			if (pn->profile)
				return; /* the profile itself was reported */
			const char *sug = model_suggest_node(r->m, host);
			diag *d = diag_report(r->dc, R_UNKNOWN_NAME, loc, "%s is not a node of any nodes block", host);
			if (sug)
				diag_help(r->dc, d, "did you mean '%s'? A new node needs a profile: `node %s : <profile> { }`",
					  sug, host);
			else
				diag_help(r->dc, d, "a new node needs a profile: `node %s : <profile> { }`", host);
			return;
		}
		node_spec *s = pending_spec(r, pn, ctx->spec_for_new, arena_printf(r->ar, "node %s", host));
		add_node(r, pn, host, loc, 0, num, s);
		spec_register(r->m, s);
		return;
	}
	node_spec *base = ctx->spec_for_new ? ctx->spec_for_new : nd->spec;
	if (!base)
		return;
	nd->spec = pending_spec(r, pn, base, arena_printf(r->ar, "node %s", host));
	spec_register(r->m, nd->spec);
}

/* ---- addresses ----------------------------------------------------------- */

typedef struct addr_check {
	strmap owners; /* address -> host */
	strmap broken; /* templates already reported, by location */
} addr_check;

/* Node overrides copy a template; report a broken one once. */
static bool already_broken(resolver *r, addr_check *ac, src_loc l)
{
	char *key = arena_printf(r->ar, "%u:%u", l.file, l.start);
	return strmap_put(&ac->broken, key, key) != NULL;
}

static const char *eval_addr(resolver *r, node *nd, opt_str *o, bool prefix, addr_check *ac,
			     addr_check *seen)
{
	if (!o->set)
		return NULL;
	if (strchr(o->v, ':')) {
		o->set = false;
		if (already_broken(r, seen, o->loc))
			return NULL;
		bool v26 = r->m->release && r->m->release->id == DAOS_2_6;
		diag *d = diag_report(r->dc, v26 ? R_IPV6_CONTROL_PLANE : R_BAD_VALUE, o->loc,
				      v26 ? "'%s' is IPv6: DAOS 2.6's control plane needs IPv4" : "'%s' is IPv6, which dslc does not write yet",
				      o->v);
		diag_help(r->dc, d, "give the node an IPv4 address, e.g. 10.10.0.{10+i}/24");
		return NULL;
	}
	const char *out, *why;
	if (!template_eval(r->ar, o->v, nd->index, nd->number, &out, &why)) {
		o->set = false;
		if (already_broken(r, seen, o->loc))
			return NULL;
		diag *d = diag_report(r->dc, R_BAD_VALUE, o->loc, "'%s': %s", o->v, why);
		diag_help(r->dc, d, "write per-node addresses like 10.20.0.{10+i}/24 (i counts from 0 in the host list)");
		return NULL;
	}
	uint32_t a;
	int pl;
	bool parsed = val_ipv4(out, prefix, &a, &pl, &why);
	if (!parsed || (prefix && pl < 0)) {
		o->set = false; /* report a broken template once, not once per node */
		if (already_broken(r, seen, o->loc))
			return NULL;
		/* why is val_ipv4's only when it failed: a parsed address lacks its prefix */
		diag *d = diag_report(r->dc, R_BAD_VALUE, o->loc, "'%s' gives '%s' for %s: %s", o->v, out, nd->host,
				      parsed ? "missing /prefix" : why);
		diag_help(r->dc, d, prefix ? "write an IPv4 address with its prefix, e.g. 10.20.0.{10+i}/24"
					   : "write an IPv4 address without a prefix");
		return NULL;
	}
	if (prefix && pl >= 1 && pl <= 30) {
		/* RFC 919/922: the all-zeros host is the network, all-ones its
		 * broadcast; neither can be a host's address (a /31, RFC 3021, and
		 * a /32 have no such addresses) */
		uint32_t mask = 0xffffffffu << (32 - pl), host = a & ~mask;
		if (host == 0 || host == ~mask) {
			o->set = false;
			if (already_broken(r, seen, o->loc))
				return NULL;
			uint32_t first = (a & mask) + 1, last = (a & mask) + ~mask - 1;
			diag *d = diag_report(r->dc, R_BAD_VALUE, o->loc, "'%s' gives %s for %s: the %s address of its /%d subnet",
					      o->v, out, nd->host, host ? "broadcast" : "network", pl);
			char span[64];
			snprintf(span, sizeof(span), "%u.%u.%u.%u to %u.%u.%u.%u", first >> 24, first >> 16 & 255,
				 first >> 8 & 255, first & 255, last >> 24, last >> 16 & 255, last >> 8 & 255, last & 255);
			if (host)
				diag_help(r->dc, d, "the subnet's hosts are %s: keep every node's address at or below the last, or "
					  "widen the prefix", span);
			else
				diag_help(r->dc, d, "the subnet's hosts are %s: start the template at the first (`{1+i}` where it "
					  "has `{i}`)", span);
			return NULL;
		}
	}
	if (!ac)
		return out; /* shared by design, e.g. a gateway */
	char key[32];
	snprintf(key, sizeof(key), "%u", a);
	const char *owner = strmap_get(&ac->owners, key);
	if (owner && strcmp(owner, nd->host) != 0) {
		diag *d = diag_report(r->dc, R_DUPLICATE, o->loc, "address %s of %s is also used by %s", out, nd->host,
				      owner);
		diag_help(r->dc, d, "give each node its own address, e.g. with {i} or {n}");
		o->set = false;
		return NULL;
	}
	strmap_put(&ac->owners, arena_strdup(r->ar, key), (void *)nd->host);
	return out;
}

/* tmpl with every {host} replaced by host (a host name has no brace) */
static const char *with_host(arena *a, const char *tmpl, const char *host)
{
	buf b;
	buf_init(&b);
	for (const char *p = tmpl; *p;) {
		if (strncmp(p, "{host}", 6) == 0) {
			buf_puts(&b, host);
			p += 6;
		} else {
			buf_add(&b, p++, 1);
		}
	}
	const char *s = arena_strndup(a, b.data ? b.data : "", b.len);
	buf_free(&b);
	return s;
}

/* The node's Kubernetes name: its k8s_node_name template, else the host
 * in lower case (the kubelet registers os.Hostname() lower-cased,
 * pkg/util/node/node.go GetHostname); a template's is checked here, each
 * used by one host only where DAOS runs in pods (safety.c refuses any
 * that is not Kubernetes' ValidateNodeName, a DNS-1123 subdomain). */
static void eval_k8s_name(resolver *r, node *nd, strmap *owners, addr_check *seen)
{
	node_spec *s = nd->spec;
	if (!s->k8s_node_name.set) {
		char *lower = arena_strdup(r->ar, nd->host);
		for (char *c = lower; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		nd->k8s_name = lower;
	} else {
		const char *out = NULL, *why;
		opt_str *o = &s->k8s_node_name;
		if (!template_eval(r->ar, with_host(r->ar, o->v, nd->host), nd->index, nd->number, &out, &why) ||
		    (why = safe_k8s_subdomain(out)) != NULL) {
			/* kept: safety.c refuses it too, which no --disable silences */
			nd->k8s_name = out ? out : o->v;
			if (already_broken(r, seen, o->loc))
				return;
			const char *tv = safe_echo(r->ar, o->v);
			diag *d = out && strcmp(out, o->v) != 0
					  ? diag_report(r->dc, R_BAD_VALUE, o->loc, "k8s_node_name '%s' gives '%s' for %s: %s", tv,
							safe_echo(r->ar, out), nd->host, why)
					  : diag_report(r->dc, R_BAD_VALUE, o->loc, "k8s_node_name '%s' for %s: %s", tv, nd->host, why);
			diag_help(r->dc, d, "write the name Kubernetes shows (kubectl get nodes), e.g. `k8s_node_name \"{host}.example.com\"`, "
				  "or one node's own in its node block");
			return;
		}
		nd->k8s_name = out;
	}
	if (!spec_in_pods(s))
		return;
	const char *owner = strmap_get(owners, nd->k8s_name);
	if (owner) {
		diag *d = diag_report(r->dc, R_DUPLICATE, node_k8s_name_loc(nd),
				      "Kubernetes node %s is %s's and %s's", nd->k8s_name, owner, nd->host);
		diag_help(r->dc, d, "give each host its own node name, e.g. with {host}, {i} or {n}");
		return;
	}
	strmap_put(owners, nd->k8s_name, (void *)nd->host);
}

static void eval_addresses(resolver *r)
{
	model *m = r->m;
	addr_check ac;
	strmap_init(&ac.owners, r->ar);
	strmap_init(&ac.broken, r->ar);
	strmap k8s_owners;
	strmap_init(&k8s_owners, r->ar);
	for (size_t i = 0; i < m->nnodes; i++) {
		node *nd = &m->nodes[i];
		node_spec *s = nd->spec;
		if (!s)
			continue;
		nd->mgmt = eval_addr(r, nd, &s->mgmt, true, &ac, &ac);
		nd->gateway = eval_addr(r, nd, &s->gateway, false, NULL, &ac);
		nd->bmc = eval_addr(r, nd, &s->bmc, false, &ac, &ac);
		eval_k8s_name(r, nd, &k8s_owners, &ac);
		if (s->nstorage) {
			nd->storage = arena_alloc(r->ar, s->nstorage * sizeof(char *));
			for (size_t k = 0; k < s->nstorage; k++) {
				/* "" once reported (broken, or a duplicate): not again per node */
				opt_str o = {s->storage[k].tmpl, s->storage[k].loc, *s->storage[k].tmpl != '\0'};
				nd->storage[k] = eval_addr(r, nd, &o, true, &ac, &ac);
				if (!o.set)
					s->storage[k].tmpl = "";
			}
		}
	}
	/* storage interfaces must be NICs of the hardware */
	for (size_t i = 0; i < m->nspecs; i++) {
		node_spec *s = m->specs[i];
		if (!s->hw)
			continue;
		for (size_t k = 0; k < s->nstorage; k++) {
			bool found = false;
			const char *names[256];
			size_t n = 0;
			for (size_t j = 0; j < s->hw->nnics; j++) {
				found |= strcmp(s->hw->nics[j].name, s->storage[k].iface) == 0;
				if (n < 256)
					names[n++] = s->hw->nics[j].name;
			}
			if (!found) {
				const char *sug = kw_suggest(s->storage[k].iface, names, n);
				diag *d = diag_report(r->dc, R_UNKNOWN_NAME, s->storage[k].loc,
						      "hardware %s has no NIC named '%s'", s->hw->name, s->storage[k].iface);
				if (sug)
					diag_help(r->dc, d, "did you mean '%s'?", sug);
				else
					diag_help(r->dc, d, "describe the NIC in a `numa` block of hardware %s", s->hw->name);
			}
		}
	}
}

void model_resolve(model *m, arena *ar, diag_ctx *dc, ast_block *root)
{
	memset(m, 0, sizeof(*m));
	m->ar = ar;
	m->dc = dc;
	strmap_init(&m->node_index, ar);
	strmap_init(&m->name_index, ar);
	strmap_init(&m->pool_index, ar);
	strmap_init(&m->container_index, ar);
	strmap_init(&m->failed_kws, ar);
	m->release_patch = -1;
	resolver r = {0};
	r.m = m;
	r.ar = ar;
	r.dc = dc;
	const kw_table *top[] = {&kw_top};
	kw_apply(&r, root, top, 1, m, -1);

	uint32_t main_file = root->first ? root->first->loc.file : 1;
	src_loc file_start = {main_file, 0, 0};
	if (!m->release_given) {
		diag *d = diag_report(dc, R_RELEASE, file_start, "the file does not say which DAOS release it is for");
		diag_help(dc, d, "start the file with `daos 2.6` (supported: %s)", daos_release_list());
	}
	if (!m->cluster.defined) {
		diag *d = diag_report(dc, R_UNKNOWN_NAME, file_start, "no cluster block");
		diag_help(dc, d, "describe the DAOS system: `cluster <name> { provider \"ofi+tcp;ofi_rxm\" access_points ... }`");
	}
	/* the fabric is known only once every top-level block is read */
	for (size_t i = 0; i < m->nhws; i++)
		if (m->hws[i]->topo)
			hardware_fabric_roles(&r, m->hws[i]);
	for (size_t i = 0; i < m->nprofiles; i++)
		profile_resolve(&r, m->profiles[i]);
	/* host lists first, then the node overrides that refer to them */
	for (size_t i = 0; i < r.npend; i++) {
		pending_nodes *pn = &r.pend[i];
		if (pn->single)
			continue;
		node_spec *base = pending_profile(&r, pn);
		if (!base) {
			m->nodes_incomplete = true;
			continue;
		}
		node_spec *s = pending_spec(&r, pn, base, arena_printf(ar, "nodes %s", pn->hosts->text));
		spec_register(m, s);
		for_each_host(&r, pn, add_node, s);
	}
	strmap seen;
	strmap_init(&seen, ar);
	for (size_t i = 0; i < r.npend; i++) {
		pending_nodes *pn = &r.pend[i];
		if (!pn->single)
			continue;
		override_ctx ctx = {NULL, &seen};
		if (pn->profile && !(ctx.spec_for_new = pending_profile(&r, pn)))
			continue;
		for_each_host(&r, pn, override_node, &ctx);
	}
	/* specs that no node uses any more are not placed */
	for (size_t j = 0; j < m->nnodes; j++)
		if (m->nodes[j].spec)
			m->nodes[j].spec->used = true;
	size_t k = 0;
	for (size_t i = 0; i < m->nspecs; i++)
		if (m->specs[i]->used)
			m->specs[k++] = m->specs[i];
	m->nspecs = k;
	eval_addresses(&r);
	/* a container's pool is a name read here, before its plan is made */
	for (size_t i = 0; i < m->ncontainers; i++)
		if (!strmap_get(&m->pool_index, m->containers[i]->pool))
			model_unknown_pool(m, m->containers[i]->pool, m->containers[i]->pool_loc);
	mounts_resolve(m);
}
