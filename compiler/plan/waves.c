/* waves.c - see waves.h. */
#include "waves.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "compiler/base/strmap.h"
#include "compiler/base/value.h"
#include "compiler/place/node_plan.h"
#include "compiler/tree/disruption.h"

/* The classes that stop engines or the node: the ones waves order. */
static const unsigned stopping = 1u << DC_ENGINE_RESTART | 1u << DC_REBOOT | 1u << DC_BIOS_REBOOT | 1u << DC_SCM_LOST |
				 1u << DC_REFORMAT | 1u << DC_SYSTEM_RESTART;

static bool is_server(const model *m, const char *host)
{
	const node *nd = model_node(m, host);
	return nd && nd->spec && nd->spec->plan && nd->spec->plan->nengines > 0;
}

static bool is_ap(const model *m, const char *host)
{
	for (size_t i = 0; i < m->cluster.naps; i++)
		if (strcmp(m->cluster.aps[i].host, host) == 0)
			return true;
	return false;
}

static int engines_per_node(const model *m)
{
	int most = 1;
	for (size_t i = 0; i < m->nnodes; i++) {
		const node_plan *p = m->nodes[i].spec ? m->nodes[i].spec->plan : NULL;
		if (p && p->nengines > most)
			most = p->nengines;
	}
	return most;
}

/* The size the data and the pool services allow, and why. */
static int safe_size(arena *a, const model *m, const char **why)
{
	int size = INT_MAX, epn = engines_per_node(m);
	*why = "no container or pool limits it";
	for (size_t i = 0; i < m->ncontainers; i++) {
		const container_plan *c = m->containers[i]->plan;
		if (!c)
			continue;
		bool rank = c->rd_lvl && strcmp(c->rd_lvl, "rank") == 0;
		int domains = c->rd_fac > 1 ? c->rd_fac - 1 : 1; /* keep one failure of margin */
		int nodes = rank ? (domains / epn > 0 ? domains / epn : 1) : domains;
		if (nodes < size) {
			size = nodes;
			*why = arena_printf(a, "container %s has rd_fac %d at rd_lvl %s%s: at most %d %s down at a time", c->label,
					    c->rd_fac, rank ? "rank" : "node",
					    rank ? arena_printf(a, " (%d engines per node)", epn) : "", domains,
					    rank ? "ranks" : domains == 1 ? "node" : "nodes");
		}
	}
	for (size_t i = 0; i < m->npools; i++) {
		const pool_plan *p = m->pools[i]->plan;
		int n = p && p->svc_rf > 0 ? p->svc_rf : 1;
		if (p && n < size) {
			size = n;
			*why = arena_printf(a, "pool %s has svc_rf %d: at most %d of its service replicas (one per node) down at a time",
					    p->label, p->svc_rf, n);
		}
	}
	return size == INT_MAX ? 1 << 20 : size;
}

static plan_wave *new_wave(arena *a, plan_waves *w, size_t cap_hosts)
{
	plan_wave v = {0};
	v.hosts = arena_alloc(a, (cap_hosts + 1) * sizeof(*v.hosts));
	ARENA_PUSH(a, w->v, w->n, w->cap, v);
	return &w->v[w->n - 1];
}

static void add(plan_wave *v, const wave_node *n)
{
	v->hosts[v->nhosts++] = n->host;
	v->classes |= n->classes;
}

void plan_waves_make(arena *a, const model *nm, const wave_node *nodes, size_t n, int max_wave, int unsafe_wave,
		     plan_waves *w)
{
	memset(w, 0, sizeof(*w));
	w->release = nm->release ? nm->release->name : "2.6";
	w->npools = nm->npools;
	w->pools = arena_alloc(a, (nm->npools + 1) * sizeof(*w->pools));
	for (size_t i = 0; i < nm->npools; i++)
		w->pools[i] = nm->pools[i]->plan ? nm->pools[i]->plan->label : nm->pools[i]->name;
	w->safe = safe_size(a, nm, &w->why);
	w->size = w->safe;
	if (max_wave > 0 && max_wave < w->size) {
		w->size = max_wave;
		w->why = arena_printf(a, "--max-wave %d (the limits allow %d: %s)", max_wave, w->safe, w->why);
	}
	if (unsafe_wave > 0) {
		w->size = unsafe_wave;
		if (unsafe_wave > w->safe)
			w->risk = arena_printf(a, "--unsafe-wave %d stops more than the limits allow (%d: %s): data of the "
					       "weakest container or a pool service may be unavailable, and lost if another "
					       "node fails during the wave", unsafe_wave, w->safe, w->why);
	}
	int naps = (int)nm->cluster.naps;
	w->naps = naps;
	w->ap_size = naps > 2 ? (naps - 1) / 2 : 1;
	/* client-only nodes first, in one wave: they hold no data */
	plan_wave *clients = NULL;
	bool system = false;
	strmap changed; /* host -> its node, for the system-restart wave */
	strmap_init(&changed, a);
	for (size_t i = 0; i < n; i++) {
		if (!(nodes[i].classes & stopping))
			continue;
		system |= (nodes[i].classes >> DC_SYSTEM_RESTART) & 1;
		strmap_put(&changed, nodes[i].host, (void *)&nodes[i]);
		if (is_server(nm, nodes[i].host))
			continue;
		if (!clients) {
			clients = new_wave(a, w, n);
			clients->clients = true;
		}
		add(clients, &nodes[i]);
	}
	if (system) {
		/* every server of the system in one wave, changed or not */
		w->system = true;
		plan_wave *v = new_wave(a, w, nm->nnodes);
		for (size_t i = 0; i < nm->nnodes; i++) {
			if (!is_server(nm, nm->nodes[i].host))
				continue;
			wave_node wn = {nm->nodes[i].host, 1u << DC_SYSTEM_RESTART};
			const wave_node *c = strmap_get(&changed, wn.host);
			wn.classes |= c ? c->classes : 0;
			add(v, &wn);
			v->access_points |= is_ap(nm, wn.host);
		}
		return;
	}
	/* servers that are not access points, then the access points */
	for (int aps = 0; aps < 2; aps++) {
		plan_wave *v = NULL;
		int limit = aps ? (w->size < w->ap_size ? w->size : w->ap_size) : w->size;
		for (size_t i = 0; i < n; i++) {
			if (!(nodes[i].classes & stopping) || !is_server(nm, nodes[i].host) ||
			    is_ap(nm, nodes[i].host) != (aps == 1))
				continue;
			if (!v || (int)v->nhosts == limit) {
				v = new_wave(a, w, (size_t)limit < n ? (size_t)limit : n);
				v->access_points = aps;
			}
			add(v, &nodes[i]);
		}
	}
}

static const char *hostlist(arena *a, const plan_wave *v)
{
	return hostlist_compress(a, v->hosts, v->nhosts);
}

const char *plan_class_words(arena *a, unsigned classes, const char *sep)
{
	const char *s = "";
	for (int c = DC__COUNT - 1; c >= 0; c--)
		if ((classes >> c) & 1)
			s = arena_printf(a, "%s%s%s", s, *s ? sep : "", disruption_classes[c].id);
	return s;
}

static void push(arena *a, const char ***v, size_t *n, const char *s)
{
	*v = arena_grow(a, *v, (*n + 1) * sizeof(**v), (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

static const char *pool_words(arena *a, const plan_waves *w)
{
	const char *s = "";
	for (size_t i = 0; i < w->npools; i++)
		s = arena_printf(a, "%s %s", s, w->pools[i]);
	return s;
}

const char **plan_wave_steps(arena *a, const plan_waves *w, size_t i)
{
	const plan_wave *v = &w->v[i];
	const char **s = NULL;
	size_t n = 0;
	const char *h = hostlist(a, v), *cls = plan_class_words(a, v->classes, " ");
	if (v->clients) {
		push(a, &s, &n, arena_printf(a, "\"$DSLC_APPLY\" '%s' %s", h, cls));
		return s;
	}
	const char *sel = w->system ? "" : arena_printf(a, " --rank-hosts='%s'", h);
	/* a wave that loses the ranks' data moves it away first (dmg system
	 * drain: every pool the ranks serve, src/control/cmd/dmg/system.go) */
	if (!w->system && (v->classes & ((1u << DC_REFORMAT) | (1u << DC_SCM_LOST)))) {
		push(a, &s, &n, arena_printf(a, "dmg system drain%s", sel));
		if (w->npools)
			push(a, &s, &n, arena_printf(a, "dslc_wait_rebuild%s", pool_words(a, w)));
	}
	push(a, &s, &n, arena_printf(a, "dmg system stop%s", sel));
	push(a, &s, &n, arena_printf(a, "\"$DSLC_APPLY\" '%s' %s", h, cls));
	push(a, &s, &n, arena_printf(a, "dmg system start%s", sel));
	push(a, &s, &n, arena_printf(a, "dslc_wait_joined%s", w->system ? "" : arena_printf(a, " '%s'", h)));
	if (!w->system) /* stopped ranks' targets stay DOWN in the pools while rebuild is off */
		push(a, &s, &n, arena_printf(a, "dmg system reintegrate%s", sel));
	if (w->npools)
		push(a, &s, &n, arena_printf(a, "dslc_wait_rebuild%s", pool_words(a, w)));
	return s;
}

/* self_heal for planned maintenance (docs/admin/self_healing.md, release/2.8:
 * the system property; 2.6 has only the pool property) */
const char **plan_waves_before(arena *a, const plan_waves *w)
{
	const char **s = NULL;
	size_t n = 0;
	if (strcmp(w->release, "2.6") != 0 && strncmp(w->release, "2.6.", 4) != 0)
		push(a, &s, &n, "dmg system set-prop 'self_heal:exclude;pool_exclude'");
	else
		for (size_t i = 0; i < w->npools; i++)
			push(a, &s, &n, arena_printf(a, "dmg pool set-prop '%s' 'self_heal:exclude'", w->pools[i]));
	if (!s)
		push(a, &s, &n, NULL);
	return s;
}

const char **plan_waves_after(arena *a, const plan_waves *w)
{
	const char **s = NULL;
	size_t n = 0;
	if (strcmp(w->release, "2.6") != 0 && strncmp(w->release, "2.6.", 4) != 0) {
		push(a, &s, &n, "dmg system set-prop 'self_heal:exclude;pool_exclude;pool_rebuild'");
		push(a, &s, &n, "dmg system self-heal eval");
	} else {
		for (size_t i = 0; i < w->npools; i++)
			push(a, &s, &n, arena_printf(a, "dmg pool set-prop '%s' 'self_heal:exclude;rebuild'", w->pools[i]));
	}
	if (!s)
		push(a, &s, &n, NULL);
	return s;
}
