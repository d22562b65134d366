/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_engines.c - each engine of daos_server.yml: its values and
 * environment, its cores and fabric against the topology, and what engines
 * must share or keep apart (yaml_rules.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/base/value.h"
#include "lint.h"
#include "yaml_rules.h"

typedef void (*nvme_fn)(ylint *y, const yengine *e, const ynode *item, const char *pci, void *ctx);

/* The values daos_server checks before it starts (engine/config.go, utils.go). */
static void check_env_value(ylint *y, const yengine *eng, const ynode *e, size_t nl, const char *value)
{
	if (lint_env_names_finding(y->dc, e->text, nl, value, e->loc))
		return;
	if (nl == 12 && strncmp(e->text, "PMEMOBJ_CONF", 12) == 0 && eng->scm_ram && strstr(value, "sds.at_create=1")) {
		diag *d = diag_report(y->dc, R_ENV_VALUE, e->loc, "PMEMOBJ_CONF holds sds.at_create=1, which daos_server refuses with RAM SCM");
		diag_help(y->dc, d, "remove the entry: daos_server sets PMEMOBJ_CONF=sds.at_create=0 itself");
	} else if (nl == 20 && strncmp(e->text, "ABT_THREAD_STACKSIZE", 20) == 0) {
		char *end;
		long long v = strtoll(value, &end, 10);
		/* a minimum applies with dcpm (20480), UCX (32768) or, from 2.8, MD-on-SSD */
		int need = 0;
		const char *reason = NULL;
		if (y->ucx)
			need = 32768, reason = "with a UCX provider";
		else if (eng->scm_class && !eng->scm_ram)
			need = 20480, reason = "with dcpm SCM";
		else if (eng->md_on_ssd)
			need = y->rel->abt_stack_md_min, reason = "with MD-on-SSD";
		if (!need)
			return; /* daos_server does not read it */
		if (*end || end == value) {
			diag *d = diag_report(y->dc, R_ENV_VALUE, e->loc, "ABT_THREAD_STACKSIZE '%s' is not a number", value);
			diag_help(y->dc, d, "write a size in bytes, e.g. ABT_THREAD_STACKSIZE=%d, or remove the entry", need);
		} else if (v < need) {
			diag *d = diag_report(y->dc, R_ENV_VALUE, e->loc, "ABT_THREAD_STACKSIZE %lld is under the %d bytes DAOS %s needs %s", v,
					      need, y->rel->name, reason);
			diag_help(y->dc, d, "write ABT_THREAD_STACKSIZE=%d, or remove the entry (daos_server sets it)", need);
		}
	}
}

void yl_check_env(ylint *y, const yengine *engine, const ynode *list)
{
	if (!list || list->kind != Y_SEQ)
		return;
	for (size_t i = 0; i < list->n; i++) {
		const ynode *e = list->items[i];
		if (e->kind != Y_SCALAR)
			continue;
		const char *eq = strchr(e->text, '=');
		if (engine && eq && !eq[1] && strncmp(e->text, "DD_", 3) == 0)
			continue; /* DD_MASK= and DD_SUBSYS=: DAOS takes them as unset */
		if (!eq || !eq[1]) {
			diag *d = diag_report(y->dc, R_ENV_MALFORMED, e->loc, "env entry '%s' %s: daos_server drops it silently",
					      e->text, eq ? "has an empty value" : "has no '='");
			diag_help(y->dc, d, "write NAME=VALUE");
			continue;
		}
		const env_rule *r = lint_env_reserved(e->text, (size_t)(eq - e->text));
		if (r && r->yaml_fix) {
			diag *d = diag_report(y->dc, R_ENV_RESERVED, e->loc, "%s is set through env_vars", r->name);
			diag_help(y->dc, d, "%s", r->yaml_fix);
		}
		if (engine)
			check_env_value(y, engine, e, (size_t)(eq - e->text), eq + 1);
	}
}

static void check_log_mask(ylint *y, const ynode *map)
{
	const ynode *v = ydoc_get(map, "log_mask");
	if (v && v->kind == Y_SCALAR && !yl_is_null(v) && *v->text) /* empty or null: DAOS's default */
		lint_log_mask_finding(y->dc, v->text, v->loc, "engine log mask DEBUG");
}

/* The network interface iface of the topology, or NULL. */
/* Calls fn for each PCI address in the bdev_lists of the engine's nvme
 * tiers (entries that are not PCI addresses are the value checks' to
 * report). */
static void each_nvme(ylint *y, const yengine *e, nvme_fn fn, void *ctx)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const ynode *bl = ydoc_get(tiers->items[i], "bdev_list");
		const char *cls = yl_get_str(tiers->items[i], "class");
		if (!bl || bl->kind != Y_SEQ || !cls || strcmp(cls, "nvme") != 0)
			continue;
		for (size_t j = 0; j < bl->n; j++) {
			char pci[16];
			const char *why;
			if (bl->items[j]->kind == Y_SCALAR && val_pci(bl->items[j]->text, pci, &why))
				fn(y, e, bl->items[j], pci, ctx);
		}
	}
}

static void drive_numa(ylint *y, const yengine *e, const ynode *item, const char *pci, void *ctx)
{
	(void)e, (void)item;
	int *numa = ctx; /* -1 none yet, -2 several */
	const topo_device *dv = topo_find_device(y->topo, pci);
	if (dv && dv->numa >= 0 && *numa != -2)
		*numa = *numa == -1 || *numa == dv->numa ? dv->numa : -2;
}

/* The NUMA node all of the engine's drives the export knows are on; -1
 * when none is known or they are on several. */
static int drives_numa(ylint *y, const yengine *e)
{
	int numa = -1;
	each_nvme(y, e, drive_numa, &numa);
	return numa < 0 ? -1 : numa;
}

/* Each drive is in the export, on the engine's NUMA node. */
static void drive_local(ylint *y, const yengine *e, const ynode *item, const char *pci, void *ctx)
{
	(void)ctx;
	const topo_device *dv = topo_find_device(y->topo, pci);
	if (!dv) {
		diag *d = diag_report(y->dc, R_DEVICE_ABSENT, item->loc, "the topology export has no NVMe drive at %s", pci);
		diag_help(y->dc, d, "check the bus id (`lspci -d ::0108`) or the export");
	} else if (dv->numa >= 0 && dv->numa != e->numa) {
		diag *d = diag_report(y->dc, R_NVME_NOT_LOCAL, item->loc, "NVMe %s is on NUMA node %d, but engine %d runs on NUMA node %d",
				      pci, dv->numa, e->idx, e->numa);
		diag_help(y->dc, d, "give the engine the drives of NUMA node %d", e->numa);
	}
}

/* The first interface of a NUMA node that can carry the provider's fabric
 * (an RDMA device, IB/OPA or Slingshot link, as `nic auto` takes them). */
static const char *fabric_iface_on(const ylint *y, int numa)
{
	const topology *t = y->topo;
	for (int i = 0; i < t->ndevices; i++) {
		const topo_device *d = &t->devices[i];
		if (d->kind == TOPO_NIC && d->numa == numa && d->fabric && d->net &&
		    !fabric_misfit(y->a, &y->fabric, d->net, d->link, d->rdma, !d->rdma_unknown))
			return d->net;
	}
	return NULL;
}

/* Whether n is the OS index (Linux CPU number) of a CPU of NUMA node numa
 * other than logical core n's own: a first_core that may be a Linux CPU. */
static bool linux_cpu_of(const topology *t, int numa, long long n)
{
	const topo_numa *tn = &t->numa[numa];
	for (int c = tn->first_core; c < tn->first_core + tn->ncores; c++)
		for (int k = 0; k < t->cores[c].npus; k++)
			if (t->cores[c].pus[k] == n && c != n)
				return true;
	return false;
}

/* Entries of the engine's bdev_lists, every tier (DAOS's GetBdevs().Len()). */
static size_t bdev_count(const yengine *e)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	size_t n = 0;
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const ynode *bl = ydoc_get(tiers->items[i], "bdev_list");
		n += bl && bl->kind == Y_SEQ ? bl->n : 0;
	}
	return n;
}

static void check_topology(ylint *y, yengine *e)
{
	const topology *t = y->topo;
	src_loc l;
	if (e->has_pin && e->pinned >= t->nnuma) {
		yl_get_int(e->map, "pinned_numa_node", NULL, &l);
		diag *d = diag_report(y->dc, R_PINNED_NUMA_RANGE, l, "pinned_numa_node %lld, but the machine has NUMA nodes 0 to %d",
				      (long long)e->pinned, t->nnuma - 1);
		diag_help(y->dc, d, "use a NUMA node from 0 to %d", t->nnuma - 1);
		return;
	}
	const topo_device *nic = topo_find_iface(t, e->iface);
	int nic_numa = nic ? nic->numa : -3;
	const ypair *iface_pair = e->iface_pair;
	if (e->iface && *e->iface && !nic) { /* an empty one has its finding (check_engine_values) */
		diag *d = diag_report(y->dc, R_DEVICE_ABSENT, iface_pair ? iface_pair->value->loc : e->map->loc,
				      "the topology export has no network interface '%s'", e->iface);
		diag_help(y->dc, d, "use an interface the export lists (`dslc show` on a DSL description, or `lstopo`)");
	}
	const char *misfit = nic ? fabric_misfit(y->a, &y->fabric, nic->net, nic->link, nic->rdma, !nic->rdma_unknown) : NULL;
	if (misfit && iface_pair) {
		diag *d = diag_report(y->dc, R_NIC_WRONG_FABRIC, iface_pair->value->loc, "fabric_iface %s cannot carry the fabric: %s",
				      e->iface, misfit);
		const char *fit = fabric_iface_on(y, nic->numa);
		if (fit) {
			diag_help(y->dc, d, "write `fabric_iface: %s`, the port of NUMA node %d that carries it", fit, nic->numa);
			diag_fix_edit(y->dc, d, iface_pair->value->loc, "%s", fit);
		}
		else
			diag_help(y->dc, d, "NUMA node %d has no port for this provider: check `provider`", nic->numa);
	}
	e->numa = e->has_pin ? (e->pinned >= 0 && e->pinned < t->nnuma ? (int)e->pinned : -1) : nic_numa >= 0 ? nic_numa
		 : e->has_fc && e->first_core >= 0 && e->first_core < t->ncores ? t->cores[e->first_core].numa : -1;
	/* first_core's cores on one NUMA node, the NIC on another: DAOS ties
	 * such an engine to no NUMA node (config/server.go
	 * SetEngineAffinities), it runs on its cores, and the NIC is what is
	 * remote (as in the DSL path) when the drives are there too, or when
	 * it has none and first_core is no Linux CPU number of the NIC's node
	 * (that one still goes by the NIC: first-core-linux-cpu) */
	int core_numa = e->has_fc && !e->has_pin && e->first_core >= 0 && e->first_core < t->ncores ? t->cores[e->first_core].numa : -1;
	int drives = core_numa >= 0 && nic_numa >= 0 && core_numa != nic_numa ? drives_numa(y, e) : -1;
	if (core_numa >= 0 && nic_numa >= 0 && core_numa != nic_numa &&
	    (drives == core_numa || (drives < 0 && !linux_cpu_of(t, nic_numa, e->first_core))))
		e->numa = core_numa;
	if (e->numa < 0)
		return;
	const topo_numa *tn = &t->numa[e->numa];
	long long needed = 2 + (long long)e->targets + e->helpers; /* each below 2^31 */
	if (e->has_fc) {
		yl_get_int(e->map, "first_core", NULL, &l);
		long long fc = e->first_core, last = tn->first_core + tn->ncores - 1;
		/* the core a Linux CPU number names, when fc is one of this node's CPUs */
		int linux_core = -1;
		for (int c = tn->first_core; fc < tn->first_core || fc > last ? c <= last : 0; c++)
			for (int k = 0; k < t->cores[c].npus && linux_core < 0; k++)
				if (t->cores[c].pus[k] == fc && c != fc)
					linux_core = c;
		if (linux_core >= 0) {
			/* a core that fits the engine: that core, or the last start that does */
			long long fix = linux_core + needed - 1 <= last ? linux_core : last - needed + 1;
			e->fc_refused = true;
			diag *d = diag_report(y->dc, R_FIRST_CORE_LINUX_CPU, l, "first_core %lld is Linux CPU %lld, which is hwloc logical core %d",
					      fc, fc, linux_core);
			diag_help(y->dc, d, "DAOS counts hwloc logical cores: write `first_core: %lld`", fix);
			diag_fix_edit(y->dc, d, l, "%lld", fix);
		} else if (fc < tn->first_core || fc > last) {
			e->fc_refused = true;
			diag *d = diag_report(y->dc, R_FIRST_CORE_OUTSIDE_NUMA, l, "first_core %lld is outside NUMA node %d (cores %d-%lld)",
					      fc, e->numa, tn->first_core, last);
			if (nic_numa == e->numa)
				diag_note_at(y->dc, d, SRC_LOC_NONE, "the engine's fabric_iface %s is on NUMA node %d", e->iface, e->numa);
			bool relative = fc >= 0 && fc < tn->ncores && tn->first_core;
			if (relative)
				diag_note_at(y->dc, d, SRC_LOC_NONE, "%lld looks NUMA-relative; DAOS reads first_core as an absolute core index", fc);
			if (relative && tn->first_core + fc + needed - 1 <= last) {
				diag_help(y->dc, d, "first_core is an absolute hwloc logical core index: write `first_core: %lld` "
					  "(core %lld of NUMA node %d, which starts at core %d)", tn->first_core + fc, fc, e->numa, tn->first_core);
				diag_fix_edit(y->dc, d, l, "%lld", tn->first_core + fc);
			} else {
				diag_help(y->dc, d, "first_core is an absolute hwloc logical core index: NUMA node %d starts at core %d; "
					  "write `first_core: %d` or later", e->numa, tn->first_core, tn->first_core);
				if (tn->first_core + needed - 1 <= last)
					diag_fix_edit(y->dc, d, l, "%d", tn->first_core);
			}
		} else if (fc + needed > t->ncores) {
			e->fc_refused = true;
			diag *d = diag_report(y->dc, R_ENGINE_CORES_WRAP, l, "cores %lld-%lld run past the last core (%d) and wrap to core 0",
					      fc, fc + needed - 1, t->ncores - 1);
			diag_help(y->dc, d, "use first_core %lld at most", last - needed + 1);
		} else if (fc + needed - 1 > last) {
			e->fc_refused = true;
			diag *d = diag_report(y->dc, R_ENGINE_CORES_WRAP, l, "cores %lld-%lld run past the last core of NUMA node %d (%lld)",
					      fc, fc + needed - 1, e->numa, last);
			diag_help(y->dc, d, "use first_core %lld at most", last - needed + 1);
		}
	} else if (needed > tn->ncores) {
		diag *d = diag_report(y->dc, R_ENGINE_CORE_BUDGET, yl_key_loc(e->map, "targets"),
				      "the engine needs %lld cores, but NUMA node %d has %d", needed, e->numa, tn->ncores);
		diag_help(y->dc, d, "lower targets or nr_xs_helpers so that 2 + targets + helpers <= %d", tn->ncores);
	}
	if (nic_numa >= 0 && nic_numa != e->numa) {
		diag *d = diag_report(y->dc, R_NIC_NOT_LOCAL, iface_pair->value->loc, "%s is on NUMA node %d, but engine %d runs on NUMA node %d",
				      e->iface, nic_numa, e->idx, e->numa);
		const char *local = fabric_iface_on(y, e->numa);
		if (local && e->iface_inherited && e->own_iface_pair) { /* its own empty key: the edit goes there */
			diag_help(y->dc, d, "write `fabric_iface: %s` in engine %d, the storage NIC of NUMA node %d (its empty fabric_iface takes the top-level one now)",
				  local, e->idx, e->numa);
			diag_fix_edit(y->dc, d, e->own_iface_pair->value->loc, "%s", local);
		} else if (local && e->iface_inherited) /* the top-level key is every such engine's: no edit there */
			diag_help(y->dc, d, "add `fabric_iface: %s` to engine %d, the storage NIC of NUMA node %d (it takes the top-level fabric_iface now)",
				  local, e->idx, e->numa);
		else if (local) {
			diag_help(y->dc, d, "write `fabric_iface: %s`, the storage NIC of NUMA node %d", local, e->numa);
			diag_fix_edit(y->dc, d, iface_pair->value->loc, "%s", local);
		}
		else
			diag_help(y->dc, d, "use a NIC of NUMA node %d, or move the engine", e->numa);
	}
	each_nvme(y, e, drive_local, NULL);
}

void yl_value_error(ylint *y, src_loc loc, const char *help, const char *msg)
{
	diag *d = diag_report(y->dc, R_BAD_VALUE, loc, "%s", msg);
	diag_help(y->dc, d, "%s", help);
}

/* A key and its value, or fallback where the key is not written. */
static src_loc pair_loc(const ypair *p, src_loc fallback)
{
	return p ? src_loc_join(p->key->loc, p->value->loc) : fallback;
}

/* engine.Config.Validate: counts not negative, a fabric interface and port. */
static void check_engine_values(ylint *y, yengine *e)
{
	if (e->helpers < 0)
		yl_value_error(y, yl_key_loc(e->map, "nr_xs_helpers"), "write 0 or more (DAOS suggests at least 1)",
			    arena_printf(y->a, "engine %d: nr_xs_helpers must not be negative", e->idx));
	if (e->has_fc && e->first_core < 0)
		yl_value_error(y, yl_key_loc(e->map, "first_core"), "write an absolute core index, 0 or more",
			    arena_printf(y->a, "engine %d: first_core must not be negative", e->idx));
	if (!e->iface || !*e->iface) /* at the engine's own empty key, else the top level's */
		yl_value_error(y, pair_loc(e->own_iface_pair ? e->own_iface_pair : e->iface_pair, e->map->loc),
			    "add `fabric_iface: <interface>`", arena_printf(y->a, "engine %d has no fabric_iface", e->idx));
	if (!e->has_port || e->port <= 0)
		yl_value_error(y, pair_loc(e->port_pair, e->map->loc),
			    "write `fabric_iface_port: 31416` (engine 1: 32416, ...)",
			    arena_printf(y->a, "engine %d: fabric_iface_port %s", e->idx,
					 !e->has_port || e->port == 0 ? "is not set" : "must not be negative"));
}

/* The value of key in an engine's first SCM tier, or NULL. */
static const ynode *scm_value(const yengine *e, const char *key)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const char *cls = yl_get_str(tiers->items[i], "class");
		if (cls && (strcmp(cls, "ram") == 0 || strcmp(cls, "dcpm") == 0))
			return ydoc_get(tiers->items[i], key);
	}
	return NULL;
}

/* validateMultiEngineConfig: what two engines may not share or differ in. */
static void check_engine_pair(ylint *y, const yengine *a, const yengine *b)
{
	static const char *const unique[] = {"log_file", "scm_mount"};
	for (int k = 0; k < 2; k++) {
		const ynode *va = k ? scm_value(a, unique[k]) : ydoc_get(a->map, unique[k]);
		const ynode *vb = k ? scm_value(b, unique[k]) : ydoc_get(b->map, unique[k]);
		if (va && vb && va->kind == Y_SCALAR && vb->kind == Y_SCALAR && *va->text && strcmp(va->text, vb->text) == 0) {
			diag *d = diag_report(y->dc, R_ENGINE_DUPLICATE, va->loc, "engines %d and %d both use %s %s", b->idx, a->idx,
					      unique[k], va->text);
			diag_note_at(y->dc, d, vb->loc, "engine %d's is here", b->idx);
			diag_help(y->dc, d, "give each engine its own %s, e.g. %s", unique[k],
				  k ? "/mnt/daos0 and /mnt/daos1" : "/var/log/daos/daos_engine.0.log and .1.log");
		}
	}
	if (a->scm_class && b->scm_class && strcmp(a->scm_class, b->scm_class) != 0) {
		diag *d = diag_report(y->dc, R_STORAGE_TIER, scm_value(a, "class")->loc, "engine %d's SCM is %s, engine %d's is %s", a->idx,
				      a->scm_class, b->idx, b->scm_class);
		diag_help(y->dc, d, "use one SCM class on every engine (FaultConfigScmDiffClass)");
	}
	const ynode *ha = scm_value(a, "scm_hugepages_disabled"), *hb = scm_value(b, "scm_hugepages_disabled");
	bool da = ha && yl_scalar_bool(ha) && yl_is_true(ha), db = hb && yl_scalar_bool(hb) && yl_is_true(hb);
	if (da != db) {
		diag *d = diag_report(y->dc, R_STORAGE_TIER, (ha ? ha : hb)->loc,
				      "scm_hugepages_disabled differs between engines %d and %d", b->idx, a->idx);
		diag_help(y->dc, d, "set it the same on every engine (FaultConfigScmDiffHugeEnabled)");
	}
}

void yl_check_engines(ylint *y, const ynode *root, const ynode *engines)
{
	size_t n = engines->n;
	if (n > YAML_MAX_ENGINES) { /* engines are compared pairwise: bound the pairs */
		diag *d = diag_report(y->dc, R_LIMIT, engines->loc, "more than %d engines; the first %d are checked",
				      YAML_MAX_ENGINES, YAML_MAX_ENGINES);
		diag_help(y->dc, d, "a server runs one engine per NUMA node or socket; check the list");
		n = YAML_MAX_ENGINES;
	}
	yengine *es = arena_alloc(y->a, (n + 1) * sizeof(*es));
	bool has_cm_path = yl_get_str(ydoc_get(root, "control_metadata"), "path") != NULL;
	int cap = y->rel->ctx_cap;
	for (size_t i = 0; i < n; i++) {
		yengine *e = &es[i];
		e->map = engines->items[i];
		e->idx = (int)i;
		e->numa = -1;
		yl_check_keys(y, e->map, "ENGINE");
		src_loc l;
		bool typed = ydoc_pair(e->map, "targets") && !yl_scalar_int(ydoc_get(e->map, "targets"), NULL);
		if (typed) {
			e->targets = 0; /* yaml-type says why */
		} else if (!yl_get_int(e->map, "targets", &e->targets, &l) || e->targets <= 0) {
			diag *d = diag_report(y->dc, R_BAD_VALUE, ydoc_pair(e->map, "targets") ? yl_key_loc(e->map, "targets") : e->map->loc,
					      "engine %d needs targets above 0", e->idx);
			diag_help(y->dc, d, "add `targets: <n>` (required, equal on every engine)");
			e->targets = 0;
		}
		yl_get_int(e->map, "nr_xs_helpers", &e->helpers, NULL); /* 0 when omitted */
		e->has_fc = yl_get_int(e->map, "first_core", &e->first_core, NULL);
		e->has_pin = yl_get_int(e->map, "pinned_numa_node", &e->pinned, NULL);
		e->port_pair = yl_fabric_pair(root, e->map, "fabric_iface_port");
		e->port_inherited = e->port_pair && e->port_pair != ydoc_pair(e->map, "fabric_iface_port");
		e->has_port = e->port_pair && yl_scalar_int(e->port_pair->value, &e->port);
		e->own_iface_pair = ydoc_pair(e->map, "fabric_iface");
		e->iface_pair = yl_fabric_pair(root, e->map, "fabric_iface");
		e->iface_inherited = e->iface_pair && e->iface_pair != e->own_iface_pair;
		e->iface = e->iface_pair && e->iface_pair->value->kind == Y_SCALAR && !yl_is_null(e->iface_pair->value)
				   ? e->iface_pair->value->text : NULL;
		check_engine_values(y, e);
		yl_scan_storage(e);
		e->ctx = (int)(2 + e->targets + (e->helpers < e->targets ? e->helpers : e->targets));
		if (e->ctx > cap) {
			diag *d = diag_report(y->dc, R_ENGINE_CONTEXT_CAP, yl_key_loc(e->map, "targets"),
					      "engine %d needs %d network contexts; DAOS %s allows %d", e->idx, e->ctx, y->rel->name, cap);
			diag_help(y->dc, d, "lower targets and helpers so that 2 + targets + min(helpers, targets) <= %d", cap);
		}
		if (e->helpers > 2 * e->targets && e->targets) {
			diag *d = diag_report(y->dc, R_HELPERS_CLAMPED, yl_key_loc(e->map, "nr_xs_helpers"),
					      "%lld helpers for %lld targets: the engine uses at most %lld", (long long)e->helpers,
					      (long long)e->targets, (long long)(2 * e->targets));
			diag_help(y->dc, d, "write `nr_xs_helpers: %lld` or fewer", (long long)(2 * e->targets));
		}
		if (e->has_fc && e->first_core && e->has_pin) {
			diag *d = diag_report(y->dc, R_FIRST_CORE_WITH_PIN, yl_key_loc(e->map, "first_core"),
					      "first_core and pinned_numa_node are both set");
			diag_note_at(y->dc, d, yl_key_loc(e->map, "pinned_numa_node"), "pinned_numa_node is set here");
			diag_help(y->dc, d, "remove one: with first_core, DAOS 2.6 drops pinned_numa_node on every engine");
		}
		check_log_mask(y, e->map);
		yl_check_env(y, e, ydoc_get(e->map, "env_vars"));
		yl_check_storage(y, e, has_cm_path);
		if (y->topo)
			check_topology(y, e);
	}
	/* cross-engine rules */
	/* legacy mode: any first_core, except first_core 0 beside a pin in the same
	 * engine (SetEngineAffinities); `first_core: 0` is a value, not an absence */
	const yengine *fc_engine = NULL;
	for (size_t i = 0; i < n; i++)
		if (es[i].has_fc && !(es[i].first_core == 0 && es[i].has_pin) && !fc_engine)
			fc_engine = &es[i];
	for (size_t i = 0; i < n; i++) {
		yengine *a = &es[i];
		if (fc_engine && a != fc_engine && a->has_pin && !a->has_fc) {
			diag *d = diag_report(y->dc, R_FIRST_CORE_WITH_PIN, yl_key_loc(a->map, "pinned_numa_node"),
					      "DAOS ignores this pin: engine %d sets first_core", fc_engine->idx);
			diag_note_at(y->dc, d, yl_key_loc(fc_engine->map, "first_core"), "first_core is set here");
			diag_help(y->dc, d, "use one form for all engines: pinned_numa_node everywhere, or first_core everywhere");
		}
		for (size_t j = 0; j < i; j++) {
			yengine *b = &es[j];
			check_engine_pair(y, a, b);
			if (a->targets != b->targets || a->helpers != b->helpers) {
				bool t = a->targets != b->targets;
				diag *d = diag_report(y->dc, R_ENGINE_MISMATCH, yl_key_loc(a->map, t ? "targets" : "nr_xs_helpers"),
						      "engine %d has %lld %s, engine %d has %lld", a->idx, (long long)(t ? a->targets : a->helpers),
						      t ? "targets" : "nr_xs_helpers", b->idx, (long long)(t ? b->targets : b->helpers));
				diag_help(y->dc, d, "give every engine the same targets and nr_xs_helpers");
			}
			/* DAOS compares each engine with the one before (code 714) */
			size_t na = j + 1 == i ? bdev_count(a) : 0, nb = na ? bdev_count(b) : 0;
			if (na && nb && na != nb) {
				diag *d = diag_report(y->dc, R_NVME_COUNT_UNEQUAL, a->map->loc,
						      "engine %d has %zu bdev_list entries, engine %d has %zu: DAOS starts with a notice "
						      "(code 714) and pools get the smaller engine's share",
						      a->idx, na, b->idx, nb);
				diag_help(y->dc, d, "give each engine the same number of drives, or accept the smaller usable capacity");
			}
			/* legacy mode: an engine without first_core starts at core 0.
			 * A first_core refused on its own (outside its NUMA node, a
			 * Linux CPU) is one mistake with one proposal: an overlap
			 * help would propose another value (issue 38) */
			if (fc_engine && a->targets && b->targets && !a->fc_refused && !b->fc_refused) {
				int64_t af = a->has_fc ? a->first_core : 0, bf = b->has_fc ? b->first_core : 0;
				int64_t an = 2 + a->targets + a->helpers, bn = 2 + b->targets + b->helpers;
				if (af < bf + bn && bf < af + an) {
					diag *d = diag_report(y->dc, R_ENGINE_CORES_OVERLAP, a->has_fc ? yl_key_loc(a->map, "first_core") : a->map->loc,
							      "engine %d runs on cores %lld-%lld, engine %d on %lld-%lld: they overlap", a->idx,
							      (long long)af, (long long)(af + an - 1), b->idx, (long long)bf, (long long)(bf + bn - 1));
					diag_help(y->dc, d, "first_core is an absolute core index across the machine, not per NUMA node: "
						  "start engine %d at core %lld or later", a->idx, (long long)(bf + bn));
				}
			}
			if (a->has_pin && b->has_pin && a->pinned == b->pinned && !fc_engine) {
				diag *d = diag_report(y->dc, R_ENGINES_SHARE_NUMA, yl_key_loc(a->map, "pinned_numa_node"),
						      "engines %d and %d are both pinned to NUMA node %lld: they run on the same cores",
						      b->idx, a->idx, (long long)a->pinned);
				diag_help(y->dc, d, "pin each engine to its own NUMA node");
			}
			if (a->iface && b->iface && strcmp(a->iface, b->iface) == 0 && a->has_port && b->has_port &&
			    a->port > 0 && b->port > 0) { /* an unset or negative port has its own finding */
				int64_t gap = a->port > b->port ? a->port - b->port : b->port - a->port;
				int need = a->port > b->port ? b->ctx : a->ctx;
				if (gap < need) {
					diag *d = diag_report(y->dc, R_FABRIC_PORT_COLLISION, pair_loc(a->port_pair, a->map->loc),
							      "engines %d and %d share %s with ports %lld and %lld, %lld apart; each needs %d",
							      b->idx, a->idx, a->iface, (long long)b->port, (long long)a->port, (long long)gap, need);
					if (a->port_inherited) /* the top-level key is b's too */
						diag_help(y->dc, d, "give engine %d a port of its own: `fabric_iface_port: %lld` (it takes the top-level fabric_iface_port now)",
							  a->idx, (long long)(b->port + 1000));
					else {
						diag_help(y->dc, d, "write `fabric_iface_port: %lld`", (long long)(b->port + 1000));
						if (a->port_pair && a->port_pair->value)
							diag_fix_edit(y->dc, d, a->port_pair->value->loc, "%lld", (long long)(b->port + 1000));
					}
				}
			}
		}
	}
	yl_check_drive_owners(y, root, es, n);
	if (y->mem_gib)
		yl_check_ramdisk(y, root, es, n);
	/* hugepages: 256 MiB per target at least */
	int64_t pages;
	src_loc hl;
	if (yl_get_int(root, "nr_hugepages", &pages, &hl) && pages > 0 && n) {
		uint64_t per = (uint64_t)pages * y->hugepage_size / n;
		for (size_t i = 0; i < n; i++)
			if (es[i].targets && per / (uint64_t)es[i].targets < 256 * MiB) {
				diag *d = diag_report(y->dc, R_HUGEPAGES_PER_TARGET, hl,
						      "%llu MiB of hugepages per target; engines need at least 256 MiB",
						      (unsigned long long)(per / (uint64_t)es[i].targets / MiB));
				unsigned long long want = ((uint64_t)es[i].targets * n * 256 * MiB + y->hugepage_size - 1) / y->hugepage_size;
				diag_help(y->dc, d, "write `nr_hugepages: %llu` or more, or 0 for DAOS's minimum%s", want,
					  y->hugepage_size == 2 * MiB ? " (with 1 GiB pages, lint with --hugepage-size 1GiB)" : "");
				diag_fix_edit(y->dc, d, hl, "%llu", want);
				break;
			}
	}
}
