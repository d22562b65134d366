/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "place.h"
#include "storage.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "compiler/model/fabric.h"
#include "compiler/model/kw.h"

enum { DEFAULT_FABRIC_PORT = 31416, FABRIC_PORT_STRIDE = 1000 };

int place_cpus(const topology *t, int first, int n, int *out)
{
	int k = 0;
	for (int c = first; c < first + n && c < t->ncores; c++)
		for (int p = 0; p < t->cores[c].npus; p++)
			out[k++] = t->cores[c].pus[p];
	return k;
}

static src_loc engine_where(const engine_spec *e, const opt_int *o)
{
	return o->set ? o->loc : e->loc;
}

uint64_t place_scm_proposal_gib(const model *m, const node_plan *p, int numa, uint64_t hugepages)
{
	uint64_t mem = p->topo->numa[numa].memory, rsv = place_reserved_bytes(m) / (uint64_t)p->topo->nnuma;
	if (mem <= hugepages + rsv)
		return 0;
	uint64_t eighth = (mem - hugepages - rsv) / 8, g = 4;
	while (g * 2 * GiB <= eighth)
		g *= 2;
	return g;
}

int place_targets_fit(int helpers, int cores, int ctx_cap)
{
	for (int t = cores - 2; t > 0; t--) {
		int h = helpers >= 0 ? helpers : t / 4;
		if (2 + t + h <= cores && 2 + t + (h < t ? h : t) <= ctx_cap)
			return t;
	}
	return 0;
}

/* The exact edit that fits an engine in win_n cores: `cores` lowered when
 * the engine asked for more than it uses, else the most targets that fit
 * (with helpers as written, or a quarter of the targets as DAOS's default). */
static void core_budget_help(model *m, diag *d, const engine_spec *e, const engine_plan *ep, int win_n)
{
	if (e->cores.set && ep->needed <= win_n) {
		diag_help(m->dc, d, "write `cores %d`: the engine uses %d, and %d are left", win_n, ep->needed, win_n);
		diag_fix_edit(m->dc, d, e->cores.loc, "cores %d", win_n);
		return;
	}
	int targets = place_targets_fit(e->helpers.set ? ep->helpers : -1, win_n, m->release ? m->release->ctx_cap : 64);
	if (targets < 1 || !e->targets.set) {
		diag_help(m->dc, d, "lower targets or helpers so that 2 + targets + helpers <= %d", win_n);
		return;
	}
	int helpers = e->helpers.set ? ep->helpers : targets / 4;
	if (e->cores.set) {
		diag_help(m->dc, d, "write `targets %d` and `cores %d` (2 + %d targets + %d helpers = %d cores)", targets,
			  win_n, targets, helpers, 2 + targets + helpers);
		diag_fix_edit(m->dc, d, e->cores.loc, "cores %d", win_n);
	} else {
		diag_help(m->dc, d, "write `targets %d` (2 + %d targets + %d helpers = %d cores)", targets, targets, helpers,
			  2 + targets + helpers);
	}
	diag_fix_edit(m->dc, d, e->targets.loc, "targets %d", targets);
}

static void os_reservation(model *m, node_plan *p)
{
	const node_spec *s = p->spec;
	const topology *t = p->topo;
	int r = s->os_cores.set ? (int)s->os_cores.v : 0;
	bool at_end = s->os_at.set && strcmp(s->os_at.v, "end") == 0;
	for (int n = 0; n < t->nnuma; n++) {
		const topo_numa *tn = &t->numa[n];
		if (!tn->ncores) {
			/* a memory-only node (GPU, HBM, CXL): no cores to keep */
			p->os_first[n] = tn->first_core;
			p->os_count[n] = 0;
			continue;
		}
		if (r > tn->ncores) {
			diag *d = diag_report(m->dc, R_ENGINE_CORE_BUDGET, s->os_cores.loc,
					      "%d OS cores per NUMA node, but NUMA node %d of %s has %d cores", r, n,
					      s->hw->name, tn->ncores);
			diag_help(m->dc, d, "reserve at most %d", tn->ncores);
			p->ok = false;
			r = tn->ncores;
		}
		p->os_count[n] = r;
		p->os_first[n] = at_end ? tn->first_core + tn->ncores - r : tn->first_core;
	}
}

/* Why a NIC cannot carry the fabric, or NULL. */
static const char *misfit(model *m, const nic_desc *n)
{
	fabric_need f = fabric_need_of(&m->cluster);
	return fabric_misfit(m->ar, &f, n->name, n->link, n->rdma, n->exported);
}

static bool candidate(model *m, const nic_desc *n, int numa)
{
	return n->numa == numa && strcmp(n->role, "storage") == 0 && !misfit(m, n);
}

/* The storage NICs of a NUMA node that carry the fabric: the first is the
 * engine's (hand-described ones in description order, then the export's by
 * PCI address and interface name; hardware.c import_devices sorts them). */
static int candidates(model *m, const hardware *hw, int numa, const nic_desc **first, char *names, size_t size)
{
	int n = 0;
	names[0] = 0;
	for (size_t i = 0; i < hw->nnics; i++)
		if (candidate(m, &hw->nics[i], numa)) {
			if (!n++)
				*first = &hw->nics[i];
			size_t l = strlen(names);
			snprintf(names + l, size - l, "%s%s", l ? ", " : "", hw->nics[i].name);
		}
	return n;
}

static const nic_desc *named_nic(model *m, const hardware *hw, engine_plan *ep)
{
	const engine_spec *e = ep->spec;
	const char *names[256];
	size_t n = 0;
	for (size_t i = 0; i < hw->nnics; i++) {
		if (strcmp(hw->nics[i].name, e->nic.v) != 0) {
			if (n < 256)
				names[n++] = hw->nics[i].name;
			continue;
		}
		const nic_desc *nic = &hw->nics[i], *local = NULL;
		char list[256];
		bool any_local = candidates(m, hw, ep->numa, &local, list, sizeof(list)) > 0;
		ep->nic_why = arena_printf(m->ar, "named by `nic %s`", nic->name);
		const char *why = misfit(m, nic);
		if (nic->numa != ep->numa) {
			diag *d = diag_report(m->dc, R_NIC_NOT_LOCAL, e->nic.loc, "NIC %s is on NUMA node %d, but this engine runs on NUMA node %d",
					      nic->name, nic->numa, ep->numa);
			diag_note_at(m->dc, d, nic->loc, "%s is described here", nic->name);
			if (any_local) {
				diag_help(m->dc, d, "use the storage NIC of NUMA node %d: `nic %s`, or drop the override", ep->numa, local->name);
				diag_fix_edit(m->dc, d, e->nic.loc, "nic %s", local->name);
			}
			else
				diag_help(m->dc, d, "give NUMA node %d a storage NIC, or drop the override", ep->numa);
		} else if (why) {
			diag *d = diag_report(m->dc, R_NIC_WRONG_FABRIC, e->nic.loc, "NIC %s cannot carry the fabric: %s", nic->name, why);
			if (any_local) {
				diag_help(m->dc, d, "write `nic %s`, the %s%s%s of NUMA node %d", local->name, strchr(list, ',') ? "first " : "",
					  local->link ? local->link : "storage", local->link ? " port" : " NIC", ep->numa);
				diag_fix_edit(m->dc, d, e->nic.loc, "nic %s", local->name);
			}
			else
				diag_help(m->dc, d, "NUMA node %d has no port that carries the fabric: check `fabric` and `provider` "
					  "in the cluster block", ep->numa);
		}
		return nic;
	}
	const char *sug = kw_suggest(e->nic.v, names, n);
	diag *d = diag_report(m->dc, R_UNKNOWN_NAME, e->nic.loc, "hardware %s has no NIC named '%s'", hw->name, e->nic.v);
	if (sug) {
		diag_help(m->dc, d, "did you mean '%s'?", sug);
		const char *one = kw_suggest_unique(e->nic.v, names, n);
		if (one)
			diag_fix_name(m->dc, d, e->nic.loc, arena_printf(m->ar, "nic %s", e->nic.v), arena_printf(m->ar, "nic %s", one));
	}
	else
		diag_help(m->dc, d, "describe the NIC in a `numa` block of hardware %s", hw->name);
	return NULL;
}

/* The `fabric` statement whose storage NICs have this link type (RoCE needs
 * its GID index: roce-gid-index). */
static const char *fabric_kind_of(const char *link)
{
	return strcmp(link, TOPO_LINK_ETHERNET) == 0 ? "roce { gid_index <n> }" : link;
}

/* Several candidates of different link types: the provider runs on both
 * and nothing says which fabric the clients use. */
static void ambiguous(model *m, const hardware *hw, engine_plan *ep, const nic_desc *first)
{
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *n = &hw->nics[i];
		if (!candidate(m, n, ep->numa) || !n->link || !first->link || strcmp(n->link, first->link) == 0)
			continue;
		ep->nic_ambiguous = true;
		diag *d = diag_report(m->dc, R_NIC_AMBIGUOUS, ep->spec->loc,
				      "NUMA node %d of %s has storage NICs of two link types (%s %s, %s %s): the engine takes %s",
				      ep->numa, hw->name, first->name, first->link, n->name, n->link, first->name);
		diag_help(m->dc, d, "say which fabric the clients use: `fabric %s` (the engine takes %s) or `fabric %s` (it keeps %s) "
			  "in the cluster block", fabric_kind_of(n->link), n->name, fabric_kind_of(first->link), first->name);
		return;
	}
}

static const nic_desc *pick_nic(model *m, node_plan *p, engine_plan *ep)
{
	const hardware *hw = p->spec->hw;
	if (ep->spec->nic.set)
		return named_nic(m, hw, ep);
	const nic_desc *first = NULL;
	char list[256];
	int n = candidates(m, hw, ep->numa, &first, list, sizeof(list));
	if (n == 1)
		ep->nic_why = arena_printf(m->ar, "the storage NIC of NUMA node %d that carries the fabric", ep->numa);
	else if (n > 1)
		ep->nic_why = arena_printf(m->ar, "first of %s (description order, then PCI address)", list);
	if (first) {
		ambiguous(m, hw, ep, first);
		return first;
	}
	diag *d = diag_report(m->dc, R_ENGINE_NO_NIC, ep->spec->loc, "no storage NIC on NUMA node %d of %s for its engine",
			      ep->numa, hw->name);
	for (size_t i = 0; i < hw->nnics; i++)
		if (hw->nics[i].numa == ep->numa && strcmp(hw->nics[i].role, "storage") == 0)
			diag_note_at(m->dc, d, hw->nics[i].loc, "not %s: %s", hw->nics[i].name, misfit(m, &hw->nics[i]));
		else if (hw->nics[i].numa == ep->numa && hw->nics[i].auto_found && hw->nics[i].fabric)
			diag_note_at(m->dc, d, hw->nics[i].loc, "`nic auto` gave %s role mgmt: %s", hw->nics[i].name,
				     misfit(m, &hw->nics[i]));
	diag_help(m->dc, d, "describe one: `numa %d { nic <ifname> pci <address> role storage }`", ep->numa);
	return NULL;
}

/* Where the core to propose is the one dslc chooses by itself, the fix is no
 * first_core at all: written, even at that core, it keeps the engine in
 * first_core mode, which binds no engine's memory (numa-pin-dropped); left
 * out, dslc writes pinned_numa_node where the engine starts at its node's
 * first core. */
static void drop_first_core_help(model *m, const topology *t, diag *d, const engine_spec *e, const engine_plan *ep,
				 int core)
{
	const topo_numa *tn = &t->numa[ep->numa];
	diag_help(m->dc, d, "drop `first_core %lld`: dslc then starts the engine at core %d by itself (core %d of NUMA node "
		  "%d in hwloc logical order, which DAOS's first_core counts)", (long long)e->first_core.v, core,
		  core - tn->first_core, ep->numa);
	diag_fix_edit(m->dc, d, e->first_core.loc, "%s", "");
}

/* Checks a user-given first_core and returns false when it cannot be used. */
static bool check_first_core(model *m, node_plan *p, engine_plan *ep, int planned)
{
	const topology *t = p->topo;
	const topo_numa *tn = &t->numa[ep->numa];
	const engine_spec *e = ep->spec;
	int fc = (int)e->first_core.v;
	int last = tn->first_core + tn->ncores - 1;
	if (fc < tn->first_core || fc > last) {
		/* where Linux numbers CPUs differently, a CPU number names another core */
		for (int c = tn->first_core; c <= last; c++)
			for (int k = 0; k < t->cores[c].npus; k++)
				if (t->cores[c].pus[k] == fc && c != fc) {
					diag *d = diag_report(m->dc, R_FIRST_CORE_LINUX_CPU, e->first_core.loc,
							      "first_core %d is Linux CPU %d, which is hwloc logical core %d",
							      fc, fc, c);
					/* propose core c only when the engine fits there without
					 * the OS cores; else no first_core (the core dslc chooses) */
					int os0 = p->os_first[ep->numa], os1 = os0 + p->os_count[ep->numa];
					bool fits = c + ep->ncores - 1 <= last && (c + ep->ncores <= os0 || c >= os1);
					if (!fits) {
						drop_first_core_help(m, t, d, e, ep, planned);
						return false;
					}
					diag_help(m->dc, d, "DAOS counts hwloc logical cores: write `first_core %d`, "
						  "or drop first_core and let dslc place the engine", c);
					diag_fix_edit(m->dc, d, e->first_core.loc, "first_core %d", c);
					return false;
				}
		diag *d = diag_report(m->dc, R_FIRST_CORE_OUTSIDE_NUMA, e->first_core.loc,
				      "first_core %d is outside NUMA node %d (cores %d-%d)", fc, ep->numa,
				      tn->first_core, last);
		if (fc < tn->ncores && tn->first_core != 0)
			diag_note_at(m->dc, d, SRC_LOC_NONE,
				     "%d looks NUMA-relative; DAOS reads first_core as an absolute core index, "
				     "so the engine would run on NUMA node %d's cores, away from its NIC and drives",
				     fc, fc < t->ncores ? t->cores[fc].numa : 0);
		drop_first_core_help(m, t, d, e, ep, planned);
		return false;
	}
	if (fc + ep->needed > t->ncores) {
		diag *d = diag_report(m->dc, R_ENGINE_CORES_WRAP, e->first_core.loc,
				      "cores %d-%d run past the last core (%d) and wrap to core 0", fc,
				      fc + ep->needed - 1, t->ncores - 1);
		diag_help(m->dc, d, "use first_core %d at most, or drop it", last - ep->ncores + 1);
		return false;
	}
	if (fc + ep->ncores - 1 > last) {
		diag *d = diag_report(m->dc, R_ENGINE_CORES_WRAP, e->first_core.loc,
				      "cores %d-%d run past the last core of NUMA node %d (%d)", fc,
				      fc + ep->ncores - 1, ep->numa, last);
		diag_help(m->dc, d, "use first_core %d at most, or drop it", last - ep->ncores + 1);
		return false;
	}
	return true;
}

static bool ranges_overlap(int a, int an, int b, int bn)
{
	return an > 0 && bn > 0 && a < b + bn && b < a + an;
}

static void place_engine(model *m, node_plan *p, engine_plan *ep)
{
	const node_spec *s = p->spec;
	const engine_spec *e = ep->spec;
	const topology *t = p->topo;
	const topo_numa *tn = &t->numa[ep->numa];
	/* the paths an engine's files name, set before any check can stop its
	 * placement: the output-safety pass reads them on every engine */
	ep->scm_mount = e->scm_mount.set ? e->scm_mount.v : arena_printf(m->ar, "/mnt/daos%d", ep->index);
	ep->log_file = e->log_file.set ? e->log_file.v : arena_printf(m->ar, "/var/log/daos/daos_engine.%d.log", ep->index);
	if (!e->targets.set) {
		diag *d = diag_report(m->dc, R_BAD_VALUE, e->loc, "the engine on NUMA node %d has no targets", ep->numa);
		diag_help(m->dc, d, "add `targets <n>` to the engine block");
		p->ok = false;
		return;
	}
	ep->targets = (int)e->targets.v;
	ep->helpers = e->helpers.set ? (int)e->helpers.v : ep->targets / 4;
	ep->needed = 2 + ep->targets + ep->helpers;
	ep->ncores = e->cores.set ? (int)e->cores.v : ep->needed;
	if (ep->ncores < ep->needed) {
		diag *d = diag_report(m->dc, R_ENGINE_CORE_BUDGET, e->cores.loc,
				      "cores %d is less than the 2 + %d targets + %d helpers = %d cores the engine uses",
				      ep->ncores, ep->targets, ep->helpers, ep->needed);
		diag_help(m->dc, d, "write `cores %d`, or lower targets or helpers", ep->needed);
		diag_fix_edit(m->dc, d, e->cores.loc, "cores %d", ep->needed);
		p->ok = false;
		return;
	}
	int win_first = tn->first_core, win_n = tn->ncores - p->os_count[ep->numa];
	if (p->os_first[ep->numa] == tn->first_core)
		win_first += p->os_count[ep->numa];
	if (ep->ncores > win_n) {
		diag *d = diag_report(m->dc, R_ENGINE_CORE_BUDGET, engine_where(e, e->cores.set ? &e->cores : &e->targets),
				      "the engine needs %d cores, but NUMA node %d of %s has %d left after %d OS cores",
				      ep->ncores, ep->numa, s->hw->name, win_n, p->os_count[ep->numa]);
		core_budget_help(m, d, e, ep, win_n);
		p->ok = false;
		return;
	}
	ep->first_core = win_first;
	if (e->first_core.set) {
		if (!check_first_core(m, p, ep, win_first)) {
			p->ok = false;
			return;
		}
		ep->first_core = (int)e->first_core.v;
		ep->explicit_first_core = true;
		if (e->pinned_numa.set) {
			diag *d = diag_report(m->dc, R_FIRST_CORE_WITH_PIN, e->first_core.loc,
					      "first_core and pinned_numa_node are both set");
			diag_note_at(m->dc, d, e->pinned_numa.loc, "pinned_numa_node is set here");
			diag_help(m->dc, d, "remove one: with first_core, DAOS 2.6 drops pinned_numa_node on every engine");
		}
	}
	if (e->pinned_numa.set && e->pinned_numa.v >= t->nnuma) {
		diag *d = diag_report(m->dc, R_PINNED_NUMA_RANGE, e->pinned_numa.loc,
				      "pinned_numa_node %lld, but %s has NUMA nodes 0 to %d", (long long)e->pinned_numa.v,
				      s->hw->name, t->nnuma - 1);
		diag_help(m->dc, d, "remove pinned_numa_node: dslc pins this engine to NUMA node %d", ep->numa);
	} else if (e->pinned_numa.set && e->pinned_numa.v != ep->numa) {
		diag *d = diag_report(m->dc, R_PINNED_NUMA_MISMATCH, e->pinned_numa.loc,
				      "pinned_numa_node %lld, but this engine is placed on NUMA node %d",
				      (long long)e->pinned_numa.v, ep->numa);
		diag_help(m->dc, d, "remove pinned_numa_node, or declare the engine with `engine numa %lld`",
			  (long long)e->pinned_numa.v);
	}
	int os_n = p->os_count[ep->numa], os_f = p->os_first[ep->numa];
	if (ranges_overlap(ep->first_core, ep->ncores, os_f, os_n)) {
		diag *d = diag_report(m->dc, R_ENGINE_CORES_OVERLAP, engine_where(e, &e->first_core),
				      "engine cores %d-%d overlap the OS cores %d-%d of NUMA node %d", ep->first_core,
				      ep->first_core + ep->ncores - 1, os_f, os_f + os_n - 1, ep->numa);
		diag_note_at(m->dc, d, s->os_cores.loc, "the OS cores are reserved here");
		if (e->first_core.set)
			drop_first_core_help(m, p->topo, d, e, ep, win_first);
		else
			diag_help(m->dc, d, "write `first_core %d`, or drop first_core", win_first);
		p->ok = false;
	}
	ep->nic = pick_nic(m, p, ep);
	if (!ep->nic)
		p->ok = false;
	if (e->nfiles)
		storage_files(m, p, ep);
	else
		storage_drives(m, p, ep);
	if (e->scm_size.set) {
		if (e->scm_size.v % (int64_t)GiB) {
			diag *d = diag_report(m->dc, R_BAD_VALUE, e->scm_size.loc, "scm_size is a whole number of GiB");
			diag_help(m->dc, d, "write `scm ram %lldGiB`", (long long)(e->scm_size.v / (int64_t)GiB));
			p->ok = false;
		}
		ep->scm_bytes = (uint64_t)e->scm_size.v;
	}
	if (!e->scm_class.set) {
		diag *d = diag_report(m->dc, R_BAD_VALUE, e->loc, "the engine on NUMA node %d has no SCM tier", ep->numa);
		uint64_t gib = place_scm_proposal_gib(m, p, ep->numa, 0);
		if (gib) {
			/* (the size scm-size-unpinned would propose, before hugepages) */
			diag_help(m->dc, d, "add `scm ram %lluGiB` to the engine block: DAOS requires an SCM tier first "
				  "(FaultScmConfigTierMissing); the size keeps 7/8 of the NUMA node's memory for the rest",
				  (unsigned long long)gib);
			diag_fix_in_block(m->dc, d, e->loc, " scm ram %lluGiB ", (unsigned long long)gib);
		} else {
			diag_help(m->dc, d, "add `scm ram <size>`: DAOS requires an SCM tier first (FaultScmConfigTierMissing)");
		}
		p->ok = false;
	}
	ep->scm_class = e->scm_class.set && strcmp(e->scm_class.v, "pmem") == 0 ? "dcpm" : "ram";
	if (strcmp(ep->scm_class, "dcpm") == 0)
		storage_pmem(m, p, ep);
	const cluster_spec *c = &m->cluster;
	ep->log_mask = e->log_mask.set ? e->log_mask.v : c->log_mask.set ? c->log_mask.v : "ERR";
	int base = c->fabric_port.set ? (int)c->fabric_port.v : DEFAULT_FABRIC_PORT;
	ep->fabric_port = e->fabric_port.set ? (int)e->fabric_port.v : base + FABRIC_PORT_STRIDE * ep->index;

	/* env_vars: cluster, derived settings, profile, engine; later wins.
	 * Sized once: a plan per node block must not leave grown copies behind. */
	env_list *env = &ep->env;
	env->cap = c->env.n + 4 + s->env.n + e->env.n;
	env->items = arena_alloc(m->ar, env->cap * sizeof(*env->items));
	for (size_t i = 0; i < c->env.n; i++)
		env_set(m->ar, env, c->env.items[i].name, c->env.items[i].value, c->env.items[i].loc);
	if (c->gid_index.set)
		env_set(m->ar, env, "FI_VERBS_GID_IDX", arena_printf(m->ar, "%lld", (long long)c->gid_index.v), c->gid_index.loc);
	const char *tclass = place_ucx_traffic_class(m);
	if (tclass)
		env_set(m->ar, env, "UCX_IB_TRAFFIC_CLASS", tclass, c->lossless.dscp.loc);
	if (c->swim_suspect_ms.set)
		env_set(m->ar, env, "SWIM_SUSPECT_TIMEOUT", arena_printf(m->ar, "%lld", (long long)c->swim_suspect_ms.v),
			c->swim_suspect_ms.loc);
	/* in a pod the engine's hwloc sees only the cgroup cpuset: without this
	 * first_core counts the container's cores, not the host's */
	if (spec_in_pods(s))
		env_set(m->ar, env, "HWLOC_ALLOW", "all", s->deploy.loc);
	for (size_t i = 0; i < s->env.n; i++)
		env_set(m->ar, env, s->env.items[i].name, s->env.items[i].value, s->env.items[i].loc);
	for (size_t i = 0; i < e->env.n; i++)
		env_set(m->ar, env, e->env.items[i].name, e->env.items[i].value, e->env.items[i].loc);
	ep->placed = true;
}

/* Two engines with one scm_mount (mount) or one log_file. */
static void shared_path(model *m, node_plan *p, const engine_plan *a, const engine_plan *b, bool mount)
{
	if (!b->placed || strcmp(mount ? a->scm_mount : a->log_file, mount ? b->scm_mount : b->log_file) != 0)
		return;
	const opt_str *o = mount ? &a->spec->scm_mount : &a->spec->log_file;
	if (!o->set)
		o = mount ? &b->spec->scm_mount : &b->spec->log_file;
	diag *d = diag_report(m->dc, R_ENGINE_DUPLICATE, o->set ? o->loc : a->spec->loc,
			      "the engines on NUMA nodes %d and %d share %s %s", b->numa, a->numa,
			      mount ? "scm_mount" : "log_file", mount ? a->scm_mount : a->log_file);
	diag_help(m->dc, d, "give each engine its own %s: DAOS refuses a server whose engines share one (%s)",
		  mount ? "mount point" : "log file", mount ? "FaultConfigDuplicateScmMount" : "FaultConfigDuplicateLogFile");
	p->ok = false;
}

static void cross_engine(model *m, node_plan *p)
{
	storage_cross_engine(m, p);
	for (int i = 0; i < p->nengines; i++) {
		engine_plan *a = &p->engines[i];
		if (!a->placed)
			continue;
		for (int j = 0; j < i; j++) {
			engine_plan *b = &p->engines[j];
			if (!b->placed || !ranges_overlap(a->first_core, a->ncores, b->first_core, b->ncores))
				continue;
			const engine_spec *e = a->spec->first_core.set ? a->spec : b->spec;
			diag *d = diag_report(m->dc, R_ENGINE_CORES_OVERLAP, engine_where(e, &e->first_core),
					      "the engines on NUMA nodes %d and %d share cores (%d-%d and %d-%d)", b->numa,
					      a->numa, b->first_core, b->first_core + b->ncores - 1, a->first_core,
					      a->first_core + a->ncores - 1);
			diag_help(m->dc, d, "give each engine its own cores; drop first_core to let dslc place them");
			p->ok = false;
		}
		for (int j = 0; j < i; j++)
			for (int k = 0; k < 2; k++)
				shared_path(m, p, a, &p->engines[j], k == 0);
	}
}

static void hugepages(model *m, node_plan *p)
{
	const node_spec *s = p->spec;
	p->hugepage_size = p->topo->hugepage_size;
	/* DAOS's minimum: 1 GiB per target of engines with drives, and more. */
	uint64_t t = 0;
	for (int i = 0; i < p->nengines; i++) {
		engine_plan *ep = &p->engines[i];
		if (!ep->nnvmes && !ep->nfiles)
			continue; /* DAOS counts engines with a bdev tier, emulated ones too */
		t += (uint64_t)daos_hugepage_targets(ep->targets, place_has_meta(ep));
	}
	p->hugepage_bytes = s->hugepages.set ? (uint64_t)s->hugepages.v : t * GiB;
	p->nr_hugepages = (int64_t)((p->hugepage_bytes + p->hugepage_size - 1) / p->hugepage_size);
	(void)m;
}

bool place_tier_has(const tier_spec *t, const char *role)
{
	for (int r = 0; t && r < t->nroles; r++)
		if (strcmp(t->roles[r], role) == 0)
			return true;
	return false;
}

const char *place_ucx_traffic_class(const model *m)
{
	const cluster_spec *c = &m->cluster;
	if (!c->lossless.set || !c->lossless.dscp.set || !c->provider.set || strncmp(c->provider.v, "ucx", 3) != 0)
		return NULL;
	return arena_printf(m->ar, "%lld", (long long)c->lossless.dscp.v * 4);
}

bool place_has_meta(const engine_plan *ep)
{
	for (int t = 0; t < ep->ntiers; t++)
		if (place_tier_has(ep->tiers[t].spec, "meta"))
			return true;
	return false;
}

static bool storage_nic_on(model *m, const hardware *hw, int numa)
{
	for (size_t i = 0; i < hw->nnics; i++)
		if (candidate(m, &hw->nics[i], numa))
			return true;
	return false;
}

/* `engine per numa` places engines only where a storage NIC is local (with
 * several NUMA nodes per socket, not every node has one). */
static bool skip_numa(model *m, const node_spec *s, int numa)
{
	const engine_spec *e = s->eng[numa];
	if (!e->per_numa || e->nic.set || storage_nic_on(m, s->hw, numa))
		return false;
	int drives = 0;
	char pcis[512] = "";
	for (size_t i = 0; i < s->hw->nnvmes; i++)
		if (s->hw->nvmes[i].numa == numa && !storage_excluded(s, s->hw->nvmes[i].pci)) {
			size_t l = strlen(pcis);
			snprintf(pcis + l, sizeof(pcis) - l, " %s", s->hw->nvmes[i].pci);
			drives++;
		}
	if (drives) {
		/* an engine with a remote NIC is a nic-not-local error: the help
		 * proposes only what lints clean */
		diag *d = diag_report(m->dc, R_NUMA_WITHOUT_NIC, e->loc,
				      "NUMA node %d of %s has %d NVMe drive%s but no storage NIC that carries the fabric: no engine there",
				      numa, s->hw->name, drives, drives == 1 ? "" : "s");
		diag_help(m->dc, d, "put a storage NIC in a slot of NUMA node %d, or say the drives stay unused: "
			  "`exclude nvme%s` in %s", numa, pcis, s->origin);
	}
	return true;
}

/* A NUMA node without cores (GPU memory on POWER9, HBM in flat mode, CXL):
 * `engine per numa` passes it by, an engine declared there is an error. */
static void memory_only(model *m, const node_spec *s, int numa)
{
	const engine_spec *e = s->eng[numa];
	if (!e->explicit_numa)
		return;
	const topology *t = s->hw->topo;
	char with[256] = "";
	for (int n = 0; n < t->nnuma; n++)
		if (t->numa[n].ncores) {
			size_t l = strlen(with);
			snprintf(with + l, sizeof(with) - l, "%s%d", l ? ", " : "", n);
		}
	diag *d = diag_report(m->dc, R_ENGINE_CORE_BUDGET, e->loc,
			      "NUMA node %d of %s has memory but no cores (GPU, HBM or CXL memory): no engine can run there",
			      numa, s->hw->name);
	diag_help(m->dc, d, "remove `engine numa %d`; the NUMA nodes with cores are %s", numa, with);
}

/* A derived fabric_iface_port past 65535. Checked once every engine is
 * placed, so that each engine's finding proposes the one value that fits
 * them all (one edit for `lint --fix`). */
static void check_ports(model *m, node_plan *p)
{
	const cluster_spec *c = &m->cluster;
	int base = c->fabric_port.set ? (int)c->fabric_port.v : DEFAULT_FABRIC_PORT;
	int fits_all = 65535 - FABRIC_PORT_STRIDE * (p->nengines - 1);
	for (int i = 0; i < p->nengines; i++) {
		const engine_plan *ep = &p->engines[i];
		if (ep->fabric_port <= 65535)
			continue;
		diag *d = diag_report(m->dc, R_BAD_VALUE, c->fabric_port.set ? c->fabric_port.loc : ep->spec->loc,
				      "engine %d's fabric_iface_port would be %d (fabric_port %d + 1000 x %d), past 65535", ep->index,
				      ep->fabric_port, base, ep->index);
		diag_help(m->dc, d, "write `fabric_port %d` or lower", fits_all);
		if (c->fabric_port.set)
			diag_fix_edit(m->dc, d, c->fabric_port.loc, "fabric_port %d", fits_all);
		p->ok = false;
	}
}

/* A client-only node: the storage NICs that carry the fabric, each NUMA
 * node's in the order candidates() ranks them, for the agent to pin each
 * client process to a NUMA-local NIC (daos_agent.yml fabric_ifaces). */
static void place_client(model *m, node_plan *p)
{
	const hardware *hw = p->spec->hw;
	p->client = true;
	p->client_nics = arena_alloc(m->ar, (hw->nnics ? hw->nnics : 1) * sizeof(*p->client_nics));
	for (int k = 0; k < p->topo->nnuma; k++)
		for (size_t i = 0; i < hw->nnics; i++)
			if (candidate(m, &hw->nics[i], k))
				p->client_nics[p->nclient_nics++] = &hw->nics[i];
}

/* first_core mode loses what pinned_numa_node gives (numa-pin-dropped): said
 * at what moved the engine off its node's first core. */
static void pin_dropped(model *m, const node_plan *p, const engine_plan *moved)
{
	const node_spec *s = p->spec;
	bool os_at_start = s->os_cores.set && s->os_cores.v > 0 && !(s->os_at.set && strcmp(s->os_at.v, "end") == 0);
	src_loc at = moved->spec->first_core.set ? moved->spec->first_core.loc
		: os_at_start ? s->os_cores.loc : moved->spec->loc;
	if (moved->spec->first_core.set && moved->first_core == p->topo->numa[moved->numa].first_core) {
		/* at its node's first core, but written: first_core mode all the same */
		diag *d = diag_report(m->dc, R_NUMA_PIN_DROPPED, at,
				      "engine %d's first_core %d is written: dslc writes first_core and DAOS ties no engine to "
				      "its NUMA node (memory not bound, hugepages all on NUMA node 0)", moved->index, moved->first_core);
		if (!os_at_start)
			drop_first_core_help(m, p->topo, d, moved->spec, moved, moved->first_core);
		else
			diag_help(m->dc, d, "drop first_core and reserve the OS cores at the end of each NUMA node");
		return;
	}
	diag *d = diag_report(m->dc, R_NUMA_PIN_DROPPED, at,
			      "engine %d starts at core %d, not NUMA node %d's first core %d: dslc writes first_core and "
			      "DAOS ties no engine to its NUMA node (memory not bound, hugepages all on NUMA node 0)",
			      moved->index, moved->first_core, moved->numa, p->topo->numa[moved->numa].first_core);
	if (moved->spec->first_core.set)
		diag_help(m->dc, d, "drop first_core (the engine then starts at its node's first core)%s",
			  os_at_start ? " and reserve the OS cores at the end of each NUMA node" : "");
	else if (os_at_start)
	{
		diag_help(m->dc, d, "write `reserve os %lld cores per numa at end`", (long long)s->os_cores.v);
		diag_fix_edit(m->dc, d, s->os_cores.loc, "reserve os %lld cores per numa at end", (long long)s->os_cores.v);
	}
}

static void place_spec(model *m, node_spec *s)
{
	node_plan *p = arena_alloc(m->ar, sizeof(*p));
	s->plan = p;
	p->spec = s;
	p->ok = true;
	if (!s->hw || !s->hw->topo || s->tainted) {
		p->ok = false;
		return;
	}
	p->topo = s->hw->topo;
	os_reservation(m, p);
	storage_check_excluded(m, s);
	int n = 0, skipped = 0;
	for (int k = 0; k < p->topo->nnuma; k++)
		n += spec_engine_at(s, k) != NULL;
	if (!n) {
		place_client(m, p);
		return;
	}
	p->engines = arena_alloc(m->ar, (size_t)(n ? n : 1) * sizeof(engine_plan));
	for (int k = 0; k < p->topo->nnuma; k++) {
		if (!spec_engine_at(s, k))
			continue;
		if (!p->topo->numa[k].ncores) {
			memory_only(m, s, k);
			continue;
		}
		if (skip_numa(m, s, k)) {
			skipped++;
			continue;
		}
		engine_plan *ep = &p->engines[p->nengines];
		ep->index = p->nengines++;
		ep->numa = k;
		ep->spec = s->eng[k];
		place_engine(m, p, ep);
	}
	if (skipped && !p->nengines) {
		diag *d = diag_report(m->dc, R_ENGINE_NO_NIC, s->eng[0] && s->eng[0]->loc.file ? s->eng[0]->loc : s->hw->name_loc,
				      "no NUMA node of %s has a storage NIC: `engine per numa` places no engine", s->hw->name);
		diag_help(m->dc, d, "describe the storage NICs (`numa N { nic <ifname> pci <address> }`, or `nic auto` "
			  "with a topology export)");
		p->ok = false;
	}
	check_ports(m, p);
	cross_engine(m, p);
	/* pinned_numa_node reproduces the plan only when every engine starts at
	 * its NUMA node's first core: DAOS then takes exactly those cores. */
	p->pinned_mode = p->nengines > 0 && !spec_in_pods(s);
	const engine_plan *moved = NULL; /* an engine that does not start at its node's first core */
	for (int i = 0; i < p->nengines; i++) {
		engine_plan *ep = &p->engines[i];
		if (ep->explicit_first_core || ep->first_core != p->topo->numa[ep->numa].first_core) {
			p->pinned_mode = false;
			moved = moved ? moved : ep;
		}
	}
	for (int i = 0; spec_in_pods(s) && i < p->nengines; i++) {
		const engine_spec *e = p->engines[i].spec;
		if (!e->pinned_numa.set || e->first_core.set)
			continue;
		diag *d = diag_report(m->dc, R_K8S_PINNED_NUMA, e->pinned_numa.loc,
				      "pinned_numa_node for an engine in a pod: inside the container it is a logical NUMA index");
		diag_note_at(m->dc, d, s->deploy.loc, "the engines run in pods here");
		diag_help(m->dc, d, "remove pinned_numa_node; dslc writes first_core %d for this engine", p->engines[i].first_core);
	}
	if (moved && !spec_in_pods(s))
		pin_dropped(m, p, moved);
	/* an explicit pin that first_core mode drops is never silent */
	for (int i = 0; !p->pinned_mode && moved && !spec_in_pods(s) && i < p->nengines; i++) {
		const engine_spec *e = p->engines[i].spec;
		/* a pin that is wrong in itself, or beside first_core, has its own finding */
		if (!e->pinned_numa.set || e->first_core.set || e->pinned_numa.v != p->engines[i].numa)
			continue;
		diag *d = diag_report(m->dc, R_FIRST_CORE_WITH_PIN, e->pinned_numa.loc,
				      "pinned_numa_node %lld cannot be written: the engine on NUMA node %d starts at core %d, "
				      "not its node's first core, so dslc writes first_core and DAOS drops every pin",
				      (long long)e->pinned_numa.v, moved->numa, moved->first_core);
		diag_help(m->dc, d, "drop pinned_numa_node (the engines keep their cores), or drop the first_core or OS "
			  "reservation that moves the engine off its node's first core");
	}
	hugepages(m, p);
}

/* Findings about a node's own override name the node. */
void place_context(model *m, const node_spec *s)
{
	m->dc->context = s && s->origin && strncmp(s->origin, "node ", 5) == 0 ? s->origin : NULL;
}

uint64_t place_reserved_bytes(const model *m)
{
	const cluster_spec *c = &m->cluster;
	return c->system_ram_reserved.set ? (uint64_t)c->system_ram_reserved.v
		: (uint64_t)(m->release ? m->release->system_ram_reserved_gib : 16) * GiB;
}

uint64_t place_hugepages_on(const node_plan *p, int numa)
{
	if (!p->nengines)
		return 0;
	if (p->hugepage_size == GiB && p->topo->nnuma > 0) {
		/* 1 GiB pages are reserved at boot (hugepages=N), and the kernel
		 * spreads them round-robin over the NUMA nodes with memory
		 * (mm/hugetlb.c, hugetlb_hstate_alloc_pages): the first nodes get
		 * one more when N does not divide */
		uint64_t pages = p->hugepage_bytes / GiB, nn = (uint64_t)p->topo->nnuma;
		return (pages / nn + ((uint64_t)numa < pages % nn ? 1 : 0)) * GiB;
	}
	if (!p->pinned_mode)
		return numa == 0 ? p->hugepage_bytes : 0;
	int used = 0;
	bool here = false;
	for (int i = 0; i < p->nengines; i++) {
		used++;
		here |= p->engines[i].numa == numa;
	}
	return here ? p->hugepage_bytes / (uint64_t)used : 0;
}

numa_need place_numa_need(const model *m, const node_plan *p, int numa)
{
	numa_need need = {.hugepages = place_hugepages_on(p, numa),
			  .reserved = place_reserved_bytes(m) / (uint64_t)(p->topo->nnuma ? p->topo->nnuma : 1)};
	for (int i = 0; i < p->nengines; i++)
		if (p->engines[i].numa == numa) {
			if (__builtin_add_overflow(need.scm, p->engines[i].scm_bytes, &need.scm))
				need.scm = UINT64_MAX; /* saturates: still more than any node has */
			need.engine_reserve += daos_engine_reserve(p->engines[i].targets);
			need.engine = &p->engines[i];
		}
	if (__builtin_add_overflow(need.scm, need.hugepages, &need.total) ||
	    __builtin_add_overflow(need.total, need.reserved, &need.total) ||
	    __builtin_add_overflow(need.total, need.engine_reserve, &need.total))
		need.total = UINT64_MAX;
	return need;
}

const engine_plan *place_ramdisk_over(const model *m, const node_plan *p, uint64_t total, uint64_t *max,
				      char *formula, size_t size)
{
	if (!total || !p->nengines)
		return NULL;
	uint64_t reserved = place_reserved_bytes(m);
	*max = daos_ramdisk_max(total, p->hugepage_bytes, reserved, p->nengines, p->engines[0].targets);
	for (int i = 0; i < p->nengines; i++) {
		const engine_plan *ep = &p->engines[i];
		if (ep->placed && ep->spec->scm_size.set && ep->scm_bytes / GiB > *max / GiB) {
			/* words only for a finding: lint asks this of every node */
			daos_ramdisk_formula(formula, size, total, p->hugepage_bytes, reserved, p->nengines, p->engines[0].targets);
			return ep;
		}
	}
	return NULL;
}

static const char *cpus_of_cores(arena *a, const node_plan *p, bool os, bool engines)
{
	const topology *t = p->topo;
	/* scratch, freed here: the arena keeps only the cpulist text */
	int *cpus = malloc((size_t)(t->ncores * TOPO_MAX_SMT + 1) * sizeof(int));
	if (!cpus)
		abort();
	int k = 0;
	for (int n = 0; os && n < t->nnuma; n++)
		k += place_cpus(t, p->os_first[n], p->os_count[n], cpus + k);
	for (int i = 0; engines && i < p->nengines; i++)
		if (p->engines[i].placed)
			k += place_cpus(t, p->engines[i].first_core, p->engines[i].ncores, cpus + k);
	const char *list = topo_cpulist(a, cpus, k);
	free(cpus);
	return list;
}

const char *place_os_cpus(arena *a, const node_plan *p)
{
	return cpus_of_cores(a, p, true, false);
}

const char *place_reserved_cpus(arena *a, const node_plan *p)
{
	return cpus_of_cores(a, p, true, true);
}

const char *place_engine_cpus(arena *a, const node_plan *p)
{
	return cpus_of_cores(a, p, false, true);
}

const char *place_core_cpus(arena *a, const topology *t, int core)
{
	int cpus[TOPO_MAX_SMT];
	int n = place_cpus(t, core, 1, cpus);
	return topo_cpulist(a, cpus, n);
}

bool place_core_engine(const node_plan *p, int core)
{
	for (int i = 0; i < p->nengines; i++)
		if (p->engines[i].placed && core >= p->engines[i].first_core &&
		    core < p->engines[i].first_core + p->engines[i].ncores)
			return true;
	return false;
}

bool place_core_reserved(const node_plan *p, int core)
{
	int n = p->topo->cores[core].numa;
	return n < 0 || (core >= p->os_first[n] && core < p->os_first[n] + p->os_count[n]) || place_core_engine(p, core);
}

void place_model(model *m)
{
	for (size_t i = 0; i < m->nspecs; i++) {
		place_context(m, m->specs[i]);
		place_spec(m, m->specs[i]);
	}
	place_context(m, NULL);
}
