/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* waves.c - see waves.h. */
#include "waves.h"

#include <stdio.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/sha256.h"
#include "compiler/base/strmap.h"
#include "compiler/base/value.h"
#include "compiler/place/node_plan.h"
#include "compiler/place/tolerance.h"
#include "compiler/tree/disruption.h"

/* The classes that stop engines or the node: the ones waves order. */
static const unsigned stopping = 1u << DC_ENGINE_RESTART | 1u << DC_REBOOT | 1u << DC_BIOS_REBOOT | 1u << DC_SCM_LOST |
				 1u << DC_REFORMAT | 1u << DC_SYSTEM_RESTART;

static bool is_ap(const model *m, const char *host)
{
	for (size_t i = 0; i < m->cluster.naps; i++)
		if (strcmp(m->cluster.aps[i].host, host) == 0)
			return true;
	return false;
}

static plan_wave *new_wave(arena *a, plan_waves *w, size_t cap_hosts)
{
	plan_wave v = {0};
	v.hosts = arena_alloc(a, (cap_hosts + 1) * sizeof(*v.hosts));
	ARENA_PUSH(a, w->v, w->n, w->cap, v);
	return &w->v[w->n - 1];
}

/* Whether a node's classes lose its engines' storage: they come back
 * unformatted and rejoin with `dmg storage format --replace`. */
static bool loses_storage(unsigned classes)
{
	return classes & ((1u << DC_REFORMAT) | (1u << DC_SCM_LOST));
}

static void add(plan_wave *v, const wave_node *n)
{
	v->hosts[v->nhosts++] = n->host;
	v->classes |= v->after ? n->after : n->classes;
}

/* The client waves after the servers': every node with a client step that a
 * change elsewhere couples (the agents cache what the servers answer, dfuse
 * reads it at its start), whatever its own wave did. They
 * hold no data, so one wave, as client-only nodes are; --max-wave N splits it
 * (a remount stops the node's I/O on the mount). */
static void client_waves(arena *a, plan_waves *w, const wave_node *nodes, size_t n, int max_wave)
{
	plan_wave *v = NULL;
	size_t size = max_wave > 0 ? (size_t)max_wave : n;
	for (size_t i = 0; i < n; i++) {
		if (!nodes[i].after)
			continue;
		if (!v || v->nhosts == size) {
			v = new_wave(a, w, size < n ? size : n);
			v->clients = v->after = true;
		}
		add(v, &nodes[i]);
	}
}

bool plan_waves_system_self_heal(const plan_waves *w)
{
	return strcmp(w->release, "2.6") != 0 && strncmp(w->release, "2.6.", 4) != 0;
}

/* The files the waves install, as one digest: a state file of another
 * tree's rollout is not this one's (rollout_lib.sh dslc_state_begin). */
static const char *tree_digest(arena *a, const wave_node *nodes, size_t n)
{
	buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s %s\n", nodes[i].host, nodes[i].files ? nodes[i].files : "-");
	char hex[65];
	sha256_hex(b.data ? b.data : "", b.len, hex);
	buf_free(&b);
	return arena_strdup(a, hex);
}

void plan_waves_make(arena *a, const model *nm, const wave_node *nodes, size_t n, int max_wave, int unsafe_wave,
		     long long timeout, plan_waves *w)
{
	memset(w, 0, sizeof(*w));
	w->release = nm->release ? nm->release->name : "2.6";
	w->tree = tree_digest(a, nodes, n);
	w->npools = nm->npools;
	w->pools = arena_alloc(a, (nm->npools + 1) * sizeof(*w->pools));
	for (size_t i = 0; i < nm->npools; i++)
		w->pools[i] = nm->pools[i]->plan ? nm->pools[i]->plan->label : nm->pools[i]->name;
	w->safe = place_safe_nodes(a, nm, &w->why, &w->drain_why);
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
	if (timeout > 0) {
		w->rebuild_timeout = timeout;
		w->rebuild_timeout_why = "--rebuild-timeout";
	} else {
		w->rebuild_timeout = place_rebuild_timeout(a, nm, w->size, &w->rebuild_timeout_why);
	}
	w->naps = (int)nm->cluster.naps;
	w->ap_size = place_aps_down(nm);
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
		if (place_is_server(nm, nodes[i].host))
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
			if (!place_is_server(nm, nm->nodes[i].host))
				continue;
			wave_node wn = {nm->nodes[i].host, 1u << DC_SYSTEM_RESTART, 0, NULL};
			const wave_node *c = strmap_get(&changed, wn.host);
			wn.classes |= c ? c->classes : 0;
			add(v, &wn);
			v->access_points |= is_ap(nm, wn.host);
		}
		/* nodes that lose their storage in the one wave have no rank left to
		 * drain to, and the wave has no format step */
		const char **lost = arena_alloc(a, (v->nhosts + 1) * sizeof(*lost));
		size_t nlost = 0;
		for (size_t i = 0; i < v->nhosts; i++) {
			const wave_node *c = strmap_get(&changed, v->hosts[i]);
			if (c && loses_storage(c->classes))
				lost[nlost++] = v->hosts[i];
		}
		if (nlost)
			w->refused = arena_printf(a, "a system restart in which %s lose%s %s engines' storage (%s): the one wave "
						     "stops every server at once, with no rank to drain their data to and no "
						     "format step. Roll the change that loses storage out alone first (node by "
						     "node, drained: its own plan), then the system restart",
						  hostlist_compress(a, lost, nlost), nlost == 1 ? "s" : "", nlost == 1 ? "its" : "their",
						  plan_class_words(a, v->classes & ((1u << DC_REFORMAT) | (1u << DC_SCM_LOST)), ", "));
		else
			client_waves(a, w, nodes, n, max_wave);
		return;
	}
	/* servers that are not access points, then the access points */
	for (int aps = 0; aps < 2; aps++) {
		plan_wave *v = NULL;
		int limit = aps ? (w->size < w->ap_size ? w->size : w->ap_size) : w->size;
		for (size_t i = 0; i < n; i++) {
			if (!(nodes[i].classes & stopping) || !place_is_server(nm, nodes[i].host) ||
			    is_ap(nm, nodes[i].host) != (aps == 1))
				continue;
			if (!v || (int)v->nhosts == limit) {
				v = new_wave(a, w, (size_t)limit < n ? (size_t)limit : n);
				v->access_points = aps;
			}
			add(v, &nodes[i]);
			/* only here: client-only nodes have no engine, and a
			 * system-restart stops every server at once */
			v->format |= loses_storage(nodes[i].classes);
			v->drain |= v->format || w->drain_why;
		}
	}
	client_waves(a, w, nodes, n, max_wave);
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

static const wave_relabel *kube_entry(const plan_waves *w, const char *host)
{
	uintptr_t at = w->kube ? (uintptr_t)strmap_get(&w->kube->in_pods, host) : 0;
	return at ? &w->kube->relabel[at - 1] : NULL;
}

static const char *quoted_or_empty(arena *a, const char *s)
{
	return arena_printf(a, "'%s'", s ? s : "");
}

/* A node's Kubernetes steps: its new labels when they change (the
 * DaemonSet controller then deletes its old pods), then each of its pods
 * current and Ready (dslc_kube_pod deletes a pod of an older template of
 * the same group: OnDelete leaves that to us). */
static void kube_label_step(arena *a, const wave_relabel *r, const char ***s, size_t *n)
{
	if (r->changes)
		push(a, s, n, arena_printf(a, "dslc_kube_label '%s' %s %s", r->node, quoted_or_empty(a, r->server),
					   quoted_or_empty(a, r->agent)));
}

static void kube_pod_steps(arena *a, const wave_relabel *r, const char ***s, size_t *n)
{
	if (r->server)
		push(a, s, n, arena_printf(a, "dslc_kube_pod '%s' daos-server '%s'", r->node, r->server));
	if (r->agent)
		push(a, s, n, arena_printf(a, "dslc_kube_pod '%s' daos-agent '%s'", r->node, r->agent));
}

/* The wave's nodes in pods: every label first, then the pods. */
static void kube_steps(arena *a, const plan_waves *w, const plan_wave *v, const char ***s, size_t *n)
{
	for (size_t k = 0; k < v->nhosts; k++) {
		const wave_relabel *r = kube_entry(w, v->hosts[k]);
		if (r)
			kube_label_step(a, r, s, n);
	}
	for (size_t k = 0; k < v->nhosts; k++) {
		const wave_relabel *r = kube_entry(w, v->hosts[k]);
		if (r)
			kube_pod_steps(a, r, s, n);
	}
}

/* The whole system before a wave: its ranks, access points and pools
 * (dslc_fleet_gate), and with pods every daos-server pod outside the wave's
 * nodes (dslc_kube_gate, by their names in Kubernetes: spec.nodeName). */
static void fleet_gate(arena *a, const plan_waves *w, const plan_wave *v, const char *arg, const char ***s, size_t *n)
{
	push(a, s, n, arena_printf(a, "dslc_fleet_gate%s", arg));
	if (!w->kube)
		return;
	buf b; /* one buffer: a wave of many nodes is not a copy per node */
	buf_init(&b);
	buf_puts(&b, "dslc_kube_gate '");
	for (size_t k = 0; k < v->nhosts; k++) {
		const wave_relabel *r = kube_entry(w, v->hosts[k]);
		buf_printf(&b, "%s%s", k ? " " : "", r ? r->node : v->hosts[k]);
	}
	buf_puts(&b, "'");
	push(a, s, n, arena_strndup(a, b.data, b.len));
	buf_free(&b);
}

void plan_waves_kube(plan_waves *w, wave_kube *k)
{
	if (!k->nrelabel && !k->nstale && !k->ngroups)
		return;
	w->kube = k;
	for (size_t i = 0; i < w->n; i++)
		for (size_t j = 0; j < w->v[i].nhosts; j++) {
			uintptr_t at = (uintptr_t)strmap_get(&k->in_pods, w->v[i].hosts[j]);
			if (at)
				k->relabel[at - 1].in_wave = true;
		}
}

/* The steps of a wave of servers (docs/admin/self_healing.md, planned
 * maintenance; src/control/cmd/dmg/system.go, storage.go):
 *   dslc_note_ranks     the ranks the hosts have now: the Joined gate wants
 *                       the same ones back
 *   drain + rebuild     when the stop would make data unavailable or the
 *                       engines lose their storage (dmg system drain: every
 *                       pool the ranks serve)
 *   stop, apply         and for a wave that loses storage: exclude before
 *                       the apply (AdminExcluded: nothing starts them on the
 *                       old files), clear-exclude after it (joinReplace
 *                       refuses an AdminExcluded rank: system/membership.go
 *                       joinReplace), then `dmg storage format --replace`
 *                       once per host (it takes one host, refuses --force;
 *                       DAOS marks it experimental) so that the engines
 *                       reclaim their ranks; format starts them
 *   start               otherwise
 *   dslc_wait_joined    the same ranks Joined
 *   reintegrate, rebuild gate */
const char **plan_wave_steps(arena *a, const plan_waves *w, size_t i)
{
	const plan_wave *v = &w->v[i];
	const char **s = NULL;
	size_t n = 0;
	const char *h = hostlist(a, v), *cls = plan_class_words(a, v->classes, " ");
	const char *apply = arena_printf(a, "dslc_apply '%s' %s", h, cls);
	if (v->clients) {
		fleet_gate(a, w, v, "", &s, &n);
		push(a, &s, &n, apply);
		kube_steps(a, w, v, &s, &n);
		return s;
	}
	if (w->system) {
		fleet_gate(a, w, v, " all", &s, &n);
		push(a, &s, &n, "dmg system stop");
		push(a, &s, &n, apply);
		kube_steps(a, w, v, &s, &n);
		push(a, &s, &n, "dmg system start");
		push(a, &s, &n, "dslc_wait_joined ''");
		push(a, &s, &n, "dslc_wait_rebuild");
		return s;
	}
	const char *sel = arena_printf(a, " --rank-hosts='%s'", h);
	push(a, &s, &n, arena_printf(a, "dslc_note_ranks '%s'", h));
	fleet_gate(a, w, v, "", &s, &n);
	if (v->drain)
		push(a, &s, &n, arena_printf(a, "dslc_drain '%s'", h));
	push(a, &s, &n, arena_printf(a, "dmg system stop%s", sel));
	if (v->format)
		push(a, &s, &n, arena_printf(a, "dmg system exclude%s", sel));
	push(a, &s, &n, apply);
	kube_steps(a, w, v, &s, &n);
	if (v->format) {
		push(a, &s, &n, arena_printf(a, "dmg system clear-exclude%s", sel));
		for (size_t k = 0; k < v->nhosts; k++)
			push(a, &s, &n, arena_printf(a, "dmg storage format --replace --host-list='%s'", v->hosts[k]));
	} else {
		push(a, &s, &n, arena_printf(a, "dmg system start%s", sel));
	}
	push(a, &s, &n, arena_printf(a, "dslc_wait_joined '%s'", h));
	push(a, &s, &n, arena_printf(a, "dslc_reintegrate '%s'", h));
	return s;
}

/* The whole rollout's first and last steps: the pools the system has (the
 * description may not name them all), self_heal off and back on (the
 * script's functions: rollout.c). */
const char **plan_waves_before(arena *a, const plan_waves *w)
{
	const char **s = NULL;
	size_t n = 0;
	/* every kubectl permission first (kube_ops.c's table) */
	if (w->kube) {
		push(a, &s, &n, "dslc_kube_can_i");
		/* a missing certificate Secret leaves a wave's pod in
		 * ContainerCreating until DSLC_POD_TIMEOUT: found before any change */
		push(a, &s, &n, "dslc_kube_secrets");
	}
	/* one actor at a time, after the checks that change nothing and before
	 * the state file is read (rollout_lib.sh, dmg_lib.sh) */
	push(a, &s, &n, "dslc_rollout_lock");
	push(a, &s, &n, "dslc_state_begin");
	push(a, &s, &n, "dslc_list_pools");
	/* nothing changes on a system that is not whole (the gates: rollout_lib.sh) */
	push(a, &s, &n, "dslc_fleet_gate");
	if (w->kube)
		push(a, &s, &n, "dslc_kube_gate_first");
	/* the new groups' objects: a new DaemonSet selects no node until a
	 * wave relabels one, and OnDelete restarts no pod of a changed one */
	if (w->kube && w->kube->ngroups)
		push(a, &s, &n, "dslc_kube_apply");
	/* the device plugins read their configuration only at start: a renamed
	 * resource leaves wave 1's pod Pending until they restart */
	if (w->kube && w->kube->plugins)
		push(a, &s, &n, arena_printf(a, "dslc_kube_plugins '%s'", w->kube->plugins));
	push(a, &s, &n, "dslc_self_heal_off");
	return s;
}

const char **plan_waves_after(arena *a, const plan_waves *w)
{
	const char **s = NULL;
	size_t n = 0;
	/* nodes whose labels change but no wave took: agent-only changes */
	for (size_t i = 0; w->kube && i < w->kube->nrelabel; i++) {
		const wave_relabel *r = &w->kube->relabel[i];
		if (r->changes && !r->in_wave) {
			kube_label_step(a, r, &s, &n);
			kube_pod_steps(a, r, &s, &n);
		}
	}
	push(a, &s, &n, "dslc_self_heal_restore");
	/* the old groups, once every node left them */
	for (size_t i = 0; w->kube && i < w->kube->nstale; i++)
		push(a, &s, &n, arena_printf(a, "dslc_kube_prune '%s'", w->kube->stale[i]));
	return s;
}
