/* yaml_lint.c - see yaml_lint.h. Facts: ../shared/facts/daos-config.md
 * sections 1-2 (keys and DAOS's validation) and 2.12 (what DAOS misses). */
#include "yaml_lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "daos.h"
#include "lint.h"
#include "value.h"
#include "yaml_doc.h"

typedef struct ylint {
	arena *a;
	diag_ctx *dc;
	const daos_release *rel;
	const topology *topo;
	strmap keys; /* "section\x1fname" (a key's name in any release) -> daos_key_info * */
} ylint;

bool yaml_lint_is_yaml(const char *path)
{
	size_t n = strlen(path);
	return (n > 4 && strcmp(path + n - 4, ".yml") == 0) || (n > 5 && strcmp(path + n - 5, ".yaml") == 0);
}

/* ---- keys and types ------------------------------------------------------- */

static const char *type_name(daos_key_type t)
{
	switch (t) {
	case KT_STR: return "a string";
	case KT_INT: return "an integer";
	case KT_BOOL: return "true or false";
	case KT_LIST: return "a list";
	case KT_MAP: return "a mapping";
	case KT_LIST_MAP: return "a list of mappings";
	}
	return "a value";
}

enum { YAML_INT_MAX = 2147483647, YAML_MAX_ENGINES = 64 };

static bool scalar_int(const ynode *v, int64_t *out)
{
	if (!v || v->kind != Y_SCALAR || v->quoted)
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(v->text, &end, 0);
	/* Every integer DAOS reads fits in 2^31 (ports, cores, GiB, pages); the
	 * bound keeps the sums and products below far from overflow. */
	if (!*v->text || *end || errno || x > YAML_INT_MAX || x < -YAML_INT_MAX)
		return false;
	if (out)
		*out = x;
	return true;
}

static bool scalar_bool(const ynode *v)
{
	static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "y", "n"};
	if (!v || v->kind != Y_SCALAR || v->quoted)
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(v->text, words[i]) == 0)
			return true;
	return false;
}

static bool type_ok(const ynode *v, daos_key_type t)
{
	switch (t) {
	case KT_STR: return v->kind == Y_SCALAR;
	case KT_INT: return scalar_int(v, NULL);
	case KT_BOOL: return scalar_bool(v);
	case KT_LIST:
		if (v->kind == Y_SCALAR && !v->quoted && (!*v->text || strcmp(v->text, "~") == 0 || strcmp(v->text, "null") == 0))
			return true;
		if (v->kind != Y_SEQ)
			return false;
		for (size_t i = 0; i < v->n; i++)
			if (v->items[i]->kind != Y_SCALAR)
				return false;
		return true;
	case KT_MAP: return v->kind == Y_MAP;
	case KT_LIST_MAP:
		if (v->kind != Y_SEQ)
			return false;
		for (size_t i = 0; i < v->n; i++)
			if (v->items[i]->kind != Y_MAP)
				return false;
		return true;
	}
	return false;
}

/* Checks every key of a mapping against the release's table for section. */
static void check_keys(ylint *y, const ynode *map, const char *section)
{
	if (!map || map->kind != Y_MAP)
		return;
	int rel = y->rel->id;
	for (size_t i = 0; i < map->n; i++) {
		const ynode *k = map->pairs[i].key, *v = map->pairs[i].value;
		if (k->kind != Y_SCALAR)
			continue;
		const daos_key_info *found = NULL, *other = NULL;
		const daos_key_info *ki = strmap_get(&y->keys, arena_printf(y->a, "%s\x1f%s", section, k->text));
		if (ki && ki->name[rel] && strcmp(ki->name[rel], k->text) == 0)
			found = ki;
		else if (ki)
			other = ki;
		if (!found) {
			diag *d = diag_report(y->dc, R_YAML_UNKNOWN_KEY, k->loc, "DAOS %s has no key '%s' here", y->rel->name, k->text);
			if (d == &y->dc->sink) {
				continue; /* a repeat, or past the findings cap: no help to compute */
			} else if (other) {
				for (int r = 0; r < DAOS__NRELEASES; r++)
					if (other->name[r] && strcmp(other->name[r], k->text) == 0)
						diag_note_at(y->dc, d, SRC_LOC_NONE, "'%s' is a DAOS %s key", k->text, daos_releases[r].name);
				if (other->name[rel])
					diag_help(y->dc, d, "DAOS %s calls it '%s'", y->rel->name, other->name[rel]);
				else
					diag_help(y->dc, d, "remove it, or lint with --release for the release the file is for");
			} else {
				const char *names[128];
				size_t nn = 0;
				for (int j = 0; j < DAOS__NKEYS; j++)
					if (strcmp(daos_keys[j].section, section) == 0 && daos_keys[j].name[rel] && nn < 128)
						names[nn++] = daos_keys[j].name[rel];
				const char *best = NULL;
				size_t bd = 4;
				for (size_t j = 0; j < nn; j++) {
					size_t dd = val_edit_distance_within(k->text, names[j], bd);
					if (dd < bd) {
						bd = dd;
						best = names[j];
					}
				}
				if (best)
					diag_help(y->dc, d, "did you mean '%s'?", best);
				else
					diag_help(y->dc, d, "remove it: strict loading stops daos_server at unknown keys");
			}
			continue;
		}
		if (!type_ok(v, found->type)) {
			diag *d = diag_report(y->dc, R_YAML_TYPE, v->loc, "%s expects %s", k->text, type_name(found->type));
			diag_help(y->dc, d, "%s", found->type == KT_INT ? "write a plain integer below 2^31 (sizes are whole GiB, without units)"
						  : "write the value in that YAML type");
		}
	}
}

/* ---- helpers ----------------------------------------------------------------- */

static bool get_int(const ynode *map, const char *key, int64_t *out, src_loc *loc)
{
	const ypair *p = ydoc_pair(map, key);
	if (!p || !scalar_int(p->value, out))
		return false;
	if (loc)
		*loc = p->value->loc;
	return true;
}

static const char *get_str(const ynode *map, const char *key)
{
	const ynode *v = ydoc_get(map, key);
	return v && v->kind == Y_SCALAR ? v->text : NULL;
}

static src_loc key_loc(const ynode *map, const char *key)
{
	const ypair *p = ydoc_pair(map, key);
	return p ? src_loc_join(p->key->loc, p->value->loc) : map->loc;
}

/* ---- server ------------------------------------------------------------------- */

typedef struct yengine {
	const ynode *map;
	int idx;
	int64_t targets, helpers, first_core, pinned, port;
	bool has_fc, has_pin, has_port;
	const char *iface;
	int numa; /* with a topology: the engine's NUMA node, -1 unknown */
	int ctx;
} yengine;

static void check_env(ylint *y, const ynode *list)
{
	if (!list || list->kind != Y_SEQ)
		return;
	for (size_t i = 0; i < list->n; i++) {
		const ynode *e = list->items[i];
		if (e->kind != Y_SCALAR)
			continue;
		const char *eq = strchr(e->text, '=');
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
	}
}

static void check_log_mask(ylint *y, const ynode *map)
{
	const ynode *v = ydoc_get(map, "log_mask");
	if (v && v->kind == Y_SCALAR)
		lint_log_mask_finding(y->dc, v->text, v->loc, "engine log mask DEBUG");
}

static void check_storage(ylint *y, const yengine *e, bool has_cm_path)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	if (!tiers || tiers->kind != Y_SEQ || tiers->n == 0) {
		diag *d = diag_report(y->dc, R_BAD_VALUE, e->map->loc, "engine %d has no storage tiers", e->idx);
		diag_help(y->dc, d, "add a storage list whose first tier is SCM (class: ram with scm_size)");
		return;
	}
	int roles_tiers = 0, bdev_tiers = 0;
	bool meta = false;
	for (size_t i = 0; i < tiers->n; i++) {
		const ynode *t = tiers->items[i];
		check_keys(y, t, "TIER");
		const char *cls = get_str(t, "class");
		if (!cls)
			continue;
		bool scm = strcmp(cls, "ram") == 0 || strcmp(cls, "dcpm") == 0;
		if (i == 0 && !scm) {
			diag *d = diag_report(y->dc, R_BAD_VALUE, key_loc(t, "class"), "the first storage tier of engine %d is %s, not SCM",
					      e->idx, cls);
			diag_help(y->dc, d, "DAOS requires exactly one SCM tier (class: ram or dcpm), first");
		}
		if (strcmp(cls, "ram") == 0) {
			int64_t sz;
			src_loc l;
			bool typed = ydoc_pair(t, "scm_size") && !scalar_int(ydoc_get(t, "scm_size"), NULL);
			if (typed) {
				/* yaml-type says why */
			} else if (!get_int(t, "scm_size", &sz, &l) || sz == 0) {
				diag *d = diag_report(y->dc, R_SCM_SIZE_UNPINNED, key_loc(t, "class"),
						      "RAM-backed SCM without scm_size: daos_server gives it all free memory");
				diag_help(y->dc, d, "pin it: add `scm_size: <GiB>` to this tier, sized for the metadata, leaving memory "
					  "for the OS, hugepages and workloads");
			} else if (sz < 4) {
				diag *d = diag_report(y->dc, R_SCM_SIZE_SMALL, l, "scm_size %lld GiB is under DAOS's 4 GiB minimum", (long long)sz);
				diag_help(y->dc, d, "write `scm_size: 4` or more");
			}
		}
		if (!scm) {
			bdev_tiers++;
			const ynode *roles = ydoc_get(t, "bdev_roles");
			if (roles && roles->kind == Y_SEQ && roles->n) {
				roles_tiers++;
				for (size_t r = 0; r < roles->n; r++)
					if (roles->items[r]->kind == Y_SCALAR && strcmp(roles->items[r]->text, "meta") == 0)
						meta = true;
			}
		}
	}
	/* roles: all tiers or none; one tier: wal, meta, data exactly once */
	if (roles_tiers && roles_tiers != bdev_tiers) {
		diag *d = diag_report(y->dc, R_BDEV_ROLES, tiers->loc, "engine %d gives bdev_roles to some tiers only", e->idx);
		diag_help(y->dc, d, "give every bdev tier its roles (FaultBdevConfigRolesMissing)");
	}
	if (bdev_tiers == 1 && roles_tiers == 1) {
		const ynode *t = NULL;
		for (size_t i = 0; i < tiers->n; i++)
			if (ydoc_get(tiers->items[i], "bdev_roles"))
				t = tiers->items[i];
		const ynode *roles = ydoc_get(t, "bdev_roles");
		int w = 0, mm = 0, dd = 0, other = 0;
		for (size_t r = 0; roles->kind == Y_SEQ && r < roles->n; r++) {
			if (roles->items[r]->kind != Y_SCALAR) {
				other++; /* a map or list where a role name belongs */
				continue;
			}
			const char *s = roles->items[r]->text;
			w += strcmp(s, "wal") == 0;
			mm += strcmp(s, "meta") == 0;
			dd += strcmp(s, "data") == 0;
			other += strcmp(s, "wal") && strcmp(s, "meta") && strcmp(s, "data");
		}
		if (w != 1 || mm != 1 || dd != 1 || other) {
			diag *d = diag_report(y->dc, R_BDEV_ROLES, roles->loc, "one NVMe tier needs the roles wal, meta and data, each once");
			diag_help(y->dc, d, "write `bdev_roles: [wal, meta, data]`");
		}
	}
	if (meta && !has_cm_path) {
		diag *d = diag_report(y->dc, R_BDEV_ROLES, tiers->loc, "engine %d has a meta role but the server has no control_metadata.path",
				      e->idx);
		diag_help(y->dc, d, "add `control_metadata: {path: /var/daos/config}` (FaultBdevConfigRolesNoControlMetadata)");
	}
}

static int numa_of_iface(const topology *t, const char *iface)
{
	for (int i = 0; t && iface && i < t->ndevices; i++)
		if (t->devices[i].kind == TOPO_NIC && t->devices[i].net && strcmp(t->devices[i].net, iface) == 0)
			return t->devices[i].numa;
	return -3; /* absent */
}

static void check_topology(ylint *y, yengine *e)
{
	const topology *t = y->topo;
	src_loc l;
	if (e->has_pin && e->pinned >= t->nnuma) {
		get_int(e->map, "pinned_numa_node", NULL, &l);
		diag *d = diag_report(y->dc, R_PINNED_NUMA_RANGE, l, "pinned_numa_node %lld, but the machine has NUMA nodes 0 to %d",
				      (long long)e->pinned, t->nnuma - 1);
		diag_help(y->dc, d, "use a NUMA node from 0 to %d", t->nnuma - 1);
		return;
	}
	int nic_numa = numa_of_iface(t, e->iface);
	if (e->iface && nic_numa == -3) {
		const ypair *p = ydoc_pair(e->map, "fabric_iface");
		diag *d = diag_report(y->dc, R_DEVICE_ABSENT, p ? p->value->loc : e->map->loc,
				      "the topology export has no network interface '%s'", e->iface);
		diag_help(y->dc, d, "use an interface the export lists (`dslc show` on a DSL description, or `lstopo`)");
	}
	e->numa = e->has_pin ? (e->pinned >= 0 && e->pinned < t->nnuma ? (int)e->pinned : -1) : nic_numa >= 0 ? nic_numa
		 : e->has_fc && e->first_core >= 0 && e->first_core < t->ncores ? t->cores[e->first_core].numa : -1;
	if (e->numa < 0)
		return;
	const topo_numa *tn = &t->numa[e->numa];
	long long needed = 2 + (long long)e->targets + e->helpers; /* each below 2^31 */
	if (e->has_fc) {
		get_int(e->map, "first_core", NULL, &l);
		long long fc = e->first_core, last = tn->first_core + tn->ncores - 1;
		if (fc < tn->first_core || fc > last) {
			diag *d = diag_report(y->dc, R_FIRST_CORE_OUTSIDE_NUMA, l, "first_core %lld is outside NUMA node %d (cores %d-%lld)",
					      fc, e->numa, tn->first_core, last);
			if (nic_numa == e->numa)
				diag_note_at(y->dc, d, SRC_LOC_NONE, "the engine's fabric_iface %s is on NUMA node %d", e->iface, e->numa);
			if (fc >= 0 && fc < tn->ncores && tn->first_core)
				diag_note_at(y->dc, d, SRC_LOC_NONE, "%lld looks NUMA-relative; DAOS reads first_core as an absolute core index", fc);
			diag_help(y->dc, d, "first_core is an absolute hwloc logical core index: NUMA node %d starts at core %d "
				  "(write `first_core: %d` for its first core, or %lld for core %lld of the node)", e->numa,
				  tn->first_core, tn->first_core, tn->first_core + (fc >= 0 && fc < tn->ncores ? fc : 0), fc >= 0 && fc < tn->ncores ? fc : 0);
		} else if (fc + needed > t->ncores) {
			diag *d = diag_report(y->dc, R_ENGINE_CORES_WRAP, l, "cores %lld-%lld run past the last core (%d) and wrap to core 0",
					      fc, fc + needed - 1, t->ncores - 1);
			diag_help(y->dc, d, "use first_core %lld at most", last - needed + 1);
		} else if (fc + needed - 1 > last) {
			diag *d = diag_report(y->dc, R_ENGINE_CORES_WRAP, l, "cores %lld-%lld run past the last core of NUMA node %d (%lld)",
					      fc, fc + needed - 1, e->numa, last);
			diag_help(y->dc, d, "use first_core %lld at most", last - needed + 1);
		}
	} else if (needed > tn->ncores) {
		diag *d = diag_report(y->dc, R_ENGINE_CORE_BUDGET, key_loc(e->map, "targets"),
				      "the engine needs %lld cores, but NUMA node %d has %d", needed, e->numa, tn->ncores);
		diag_help(y->dc, d, "lower targets or nr_xs_helpers so that 2 + targets + helpers <= %d", tn->ncores);
	}
	if (nic_numa >= 0 && nic_numa != e->numa) {
		const ypair *p = ydoc_pair(e->map, "fabric_iface");
		diag *d = diag_report(y->dc, R_NIC_NOT_LOCAL, p->value->loc, "%s is on NUMA node %d, but engine %d runs on NUMA node %d",
				      e->iface, nic_numa, e->idx, e->numa);
		diag_help(y->dc, d, "use a NIC of NUMA node %d, or move the engine", e->numa);
	}
	const ynode *tiers = ydoc_get(e->map, "storage");
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const ynode *bl = ydoc_get(tiers->items[i], "bdev_list");
		const char *cls = get_str(tiers->items[i], "class");
		if (!bl || bl->kind != Y_SEQ || !cls || strcmp(cls, "nvme") != 0)
			continue;
		for (size_t j = 0; j < bl->n; j++) {
			char pci[16];
			const char *why;
			if (bl->items[j]->kind != Y_SCALAR || !val_pci(bl->items[j]->text, pci, &why))
				continue;
			const topo_device *dv = topo_find_device(t, pci);
			if (!dv) {
				diag *d = diag_report(y->dc, R_DEVICE_ABSENT, bl->items[j]->loc, "the topology export has no NVMe drive at %s", pci);
				diag_help(y->dc, d, "check the bus id (`lspci -d ::0108`) or the export");
			} else if (dv->numa >= 0 && dv->numa != e->numa) {
				diag *d = diag_report(y->dc, R_NVME_NOT_LOCAL, bl->items[j]->loc,
						      "NVMe %s is on NUMA node %d, but engine %d runs on NUMA node %d", pci, dv->numa, e->idx, e->numa);
				diag_help(y->dc, d, "give the engine the drives of NUMA node %d", e->numa);
			}
		}
	}
}

static void check_engines(ylint *y, const ynode *root, const ynode *engines)
{
	size_t n = engines->n;
	if (n > YAML_MAX_ENGINES) { /* engines are compared pairwise: bound the pairs */
		diag *d = diag_report(y->dc, R_LIMIT, engines->loc, "more than %d engines; the first %d are checked",
				      YAML_MAX_ENGINES, YAML_MAX_ENGINES);
		diag_help(y->dc, d, "a server runs one engine per NUMA node or socket; check the list");
		n = YAML_MAX_ENGINES;
	}
	yengine *es = arena_alloc(y->a, (n + 1) * sizeof(*es));
	bool has_cm_path = get_str(ydoc_get(root, "control_metadata"), "path") != NULL;
	const char *top_iface = get_str(root, "fabric_iface");
	int cap = y->rel->ctx_cap;
	for (size_t i = 0; i < n; i++) {
		yengine *e = &es[i];
		e->map = engines->items[i];
		e->idx = (int)i;
		e->numa = -1;
		check_keys(y, e->map, "ENGINE");
		src_loc l;
		bool typed = ydoc_pair(e->map, "targets") && !scalar_int(ydoc_get(e->map, "targets"), NULL);
		if (typed) {
			e->targets = 0; /* yaml-type says why */
		} else if (!get_int(e->map, "targets", &e->targets, &l) || e->targets <= 0) {
			diag *d = diag_report(y->dc, R_BAD_VALUE, ydoc_pair(e->map, "targets") ? key_loc(e->map, "targets") : e->map->loc,
					      "engine %d needs targets above 0", e->idx);
			diag_help(y->dc, d, "add `targets: <n>` (required, equal on every engine)");
			e->targets = 0;
		}
		get_int(e->map, "nr_xs_helpers", &e->helpers, NULL); /* 0 when omitted */
		e->has_fc = get_int(e->map, "first_core", &e->first_core, NULL);
		e->has_pin = get_int(e->map, "pinned_numa_node", &e->pinned, NULL);
		e->has_port = get_int(e->map, "fabric_iface_port", &e->port, NULL);
		e->iface = get_str(e->map, "fabric_iface");
		if (!e->iface)
			e->iface = top_iface;
		e->ctx = (int)(2 + e->targets + (e->helpers < e->targets ? e->helpers : e->targets));
		if (e->ctx > cap) {
			diag *d = diag_report(y->dc, R_ENGINE_CONTEXT_CAP, key_loc(e->map, "targets"),
					      "engine %d needs %d network contexts; DAOS %s allows %d", e->idx, e->ctx, y->rel->name, cap);
			diag_help(y->dc, d, "lower targets and helpers so that 2 + targets + min(helpers, targets) <= %d", cap);
		}
		if (e->helpers > 2 * e->targets && e->targets) {
			diag *d = diag_report(y->dc, R_HELPERS_CLAMPED, key_loc(e->map, "nr_xs_helpers"),
					      "%lld helpers for %lld targets: the engine uses at most %lld", (long long)e->helpers,
					      (long long)e->targets, (long long)(2 * e->targets));
			diag_help(y->dc, d, "write `nr_xs_helpers: %lld` or fewer", (long long)(2 * e->targets));
		}
		if (e->has_fc && e->first_core && e->has_pin) {
			diag *d = diag_report(y->dc, R_FIRST_CORE_WITH_PIN, key_loc(e->map, "first_core"),
					      "first_core and pinned_numa_node are both set");
			diag_note_at(y->dc, d, key_loc(e->map, "pinned_numa_node"), "pinned_numa_node is set here");
			diag_help(y->dc, d, "remove one: with first_core, DAOS 2.6 drops pinned_numa_node on every engine");
		}
		check_log_mask(y, e->map);
		check_env(y, ydoc_get(e->map, "env_vars"));
		check_storage(y, e, has_cm_path);
		if (y->topo)
			check_topology(y, e);
	}
	/* cross-engine rules */
	const yengine *fc_engine = NULL;
	for (size_t i = 0; i < n; i++)
		if (es[i].has_fc && es[i].first_core && !fc_engine)
			fc_engine = &es[i];
	for (size_t i = 0; i < n; i++) {
		yengine *a = &es[i];
		if (fc_engine && a != fc_engine && a->has_pin && !a->has_fc) {
			diag *d = diag_report(y->dc, R_FIRST_CORE_WITH_PIN, key_loc(a->map, "pinned_numa_node"),
					      "DAOS ignores this pin: engine %d sets first_core", fc_engine->idx);
			diag_note_at(y->dc, d, key_loc(fc_engine->map, "first_core"), "first_core is set here");
			diag_help(y->dc, d, "use one form for all engines: pinned_numa_node everywhere, or first_core everywhere");
		}
		for (size_t j = 0; j < i; j++) {
			yengine *b = &es[j];
			if (a->targets != b->targets || a->helpers != b->helpers) {
				bool t = a->targets != b->targets;
				diag *d = diag_report(y->dc, R_ENGINE_MISMATCH, key_loc(a->map, t ? "targets" : "nr_xs_helpers"),
						      "engine %d has %lld %s, engine %d has %lld", a->idx, (long long)(t ? a->targets : a->helpers),
						      t ? "targets" : "nr_xs_helpers", b->idx, (long long)(t ? b->targets : b->helpers));
				diag_help(y->dc, d, "give every engine the same targets and nr_xs_helpers");
			}
			/* legacy mode: an engine without first_core starts at core 0 */
			if (fc_engine && a->targets && b->targets) {
				int64_t af = a->has_fc ? a->first_core : 0, bf = b->has_fc ? b->first_core : 0;
				int64_t an = 2 + a->targets + a->helpers, bn = 2 + b->targets + b->helpers;
				if (af < bf + bn && bf < af + an) {
					diag *d = diag_report(y->dc, R_ENGINE_CORES_OVERLAP, a->has_fc ? key_loc(a->map, "first_core") : a->map->loc,
							      "engine %d runs on cores %lld-%lld, engine %d on %lld-%lld: they overlap", a->idx,
							      (long long)af, (long long)(af + an - 1), b->idx, (long long)bf, (long long)(bf + bn - 1));
					diag_help(y->dc, d, "first_core is an absolute core index across the machine, not per NUMA node: "
						  "start engine %d at core %lld or later", a->idx, (long long)(bf + bn));
				}
			}
			if (a->has_pin && b->has_pin && a->pinned == b->pinned && !fc_engine) {
				diag *d = diag_report(y->dc, R_ENGINES_SHARE_NUMA, key_loc(a->map, "pinned_numa_node"),
						      "engines %d and %d are both pinned to NUMA node %lld: they run on the same cores",
						      b->idx, a->idx, (long long)a->pinned);
				diag_help(y->dc, d, "pin each engine to its own NUMA node");
			}
			if (a->iface && b->iface && strcmp(a->iface, b->iface) == 0 && a->has_port && b->has_port) {
				int64_t gap = a->port > b->port ? a->port - b->port : b->port - a->port;
				int need = a->port > b->port ? b->ctx : a->ctx;
				if (gap < need) {
					diag *d = diag_report(y->dc, R_FABRIC_PORT_COLLISION, key_loc(a->map, "fabric_iface_port"),
							      "engines %d and %d share %s with ports %lld and %lld, %lld apart; each needs %d",
							      b->idx, a->idx, a->iface, (long long)b->port, (long long)a->port, (long long)gap, need);
					diag_help(y->dc, d, "write `fabric_iface_port: %lld`", (long long)(b->port + 1000));
				}
			}
		}
	}
	/* hugepages: 256 MiB per target at least (2 MiB pages) */
	int64_t pages;
	src_loc hl;
	if (get_int(root, "nr_hugepages", &pages, &hl) && pages > 0 && n) {
		uint64_t per = (uint64_t)pages * 2 * MiB / n;
		for (size_t i = 0; i < n; i++)
			if (es[i].targets && per / (uint64_t)es[i].targets < 256 * MiB) {
				diag *d = diag_report(y->dc, R_HUGEPAGES_PER_TARGET, hl,
						      "%llu MiB of hugepages per target; engines need at least 256 MiB",
						      (unsigned long long)(per / (uint64_t)es[i].targets / MiB));
				diag_help(y->dc, d, "write `nr_hugepages: %llu` or more, or 0 for DAOS's minimum",
					  (unsigned long long)((uint64_t)es[i].targets * n * 128));
				break;
			}
	}
}

static void check_replicas(ylint *y, const ynode *root, const char *key)
{
	const ypair *p = ydoc_pair(root, key);
	if (!p || p->value->kind != Y_SEQ)
		return;
	const ynode *list = p->value;
	strmap seen; /* host -> its first item */
	strmap_init(&seen, y->a);
	for (size_t i = 0; i < list->n; i++) {
		if (list->items[i]->kind != Y_SCALAR)
			continue;
		const ynode *first = strmap_get(&seen, list->items[i]->text);
		if (!first) {
			strmap_put(&seen, list->items[i]->text, list->items[i]);
			continue;
		}
		diag *d = diag_report(y->dc, R_ACCESS_POINTS_DUPLICATE, list->items[i]->loc, "%s is listed twice",
				      list->items[i]->text);
		diag_note_at(y->dc, d, first->loc, "first listed here");
		diag_help(y->dc, d, "list each host once");
	}
	if (list->n % 2 == 0) {
		diag *d = diag_report(y->dc, R_ACCESS_POINTS_COUNT, p->key->loc, "%zu %s: DAOS needs an odd number", list->n, key);
		diag_help(y->dc, d, "list 1, 3 or 5 hosts");
	}
}

static void lint_server(ylint *y, const ynode *root)
{
	check_keys(y, root, "SERVER");
	check_keys(y, ydoc_get(root, "transport_config"), "TRANSPORT");
	check_keys(y, ydoc_get(root, "control_metadata"), "CONTROL_METADATA");
	const char *name = get_str(root, "name");
	if (name && (!*name || strlen(name) > 15)) {
		diag *d = diag_report(y->dc, R_SYSTEM_NAME, ydoc_get(root, "name")->loc, "'%s' is not a valid DAOS system name (1-15 bytes)",
				      name);
		diag_help(y->dc, d, "use at most 15 characters, the same as in daos_agent.yml");
	}
	const ynode *engines = ydoc_get(root, "engines");
	if (!engines || engines->kind != Y_SEQ || engines->n == 0)
		return; /* discovery mode: DAOS skips the rest */
	if (y->rel->id != DAOS_2_6 && ydoc_pair(root, "access_points") && ydoc_pair(root, "mgmt_svc_replicas")) {
		diag *d = diag_report(y->dc, R_DUPLICATE, ydoc_pair(root, "access_points")->key->loc,
				      "access_points and mgmt_svc_replicas are both given: DAOS %s refuses the pair", y->rel->name);
		diag_note_at(y->dc, d, ydoc_pair(root, "mgmt_svc_replicas")->key->loc, "mgmt_svc_replicas is given here");
		diag_help(y->dc, d, "keep mgmt_svc_replicas (access_points is the deprecated 2.6 name)");
	}
	check_replicas(y, root, y->rel->id == DAOS_2_6 || !ydoc_pair(root, "mgmt_svc_replicas") ? "access_points" : "mgmt_svc_replicas");
	const char *prov = get_str(root, "provider");
	if (!prov) {
		diag *d = diag_report(y->dc, R_PROVIDER, root->loc, "the server has engines but no provider");
		diag_help(y->dc, d, "add `provider: ofi+verbs;ofi_rxm` (or ofi+tcp;ofi_rxm)");
	} else {
		const char *why = lint_provider(prov);
		if (why) {
			diag *d = diag_report(y->dc, R_PROVIDER, ydoc_get(root, "provider")->loc, "provider '%s': %s", prov, why);
			diag_help(y->dc, d, "use one provider: ofi+verbs;ofi_rxm, ofi+tcp;ofi_rxm, ofi+cxi, ofi+opx or ucx+<transport>");
		}
	}
	check_env(y, ydoc_get(root, "client_env_vars"));
	check_engines(y, root, engines);
}

static void lint_agent(ylint *y, const ynode *root)
{
	check_keys(y, root, "AGENT");
	check_keys(y, ydoc_get(root, "transport_config"), "TRANSPORT");
	const ynode *fi = ydoc_get(root, "fabric_ifaces");
	for (size_t i = 0; fi && fi->kind == Y_SEQ && i < fi->n; i++) {
		check_keys(y, fi->items[i], "AGENT_IFACES");
		const ynode *dv = ydoc_get(fi->items[i], "devices");
		for (size_t j = 0; dv && dv->kind == Y_SEQ && j < dv->n; j++)
			check_keys(y, dv->items[j], "AGENT_DEVICE");
	}
	const char *name = get_str(root, "name");
	if (name && (!*name || strlen(name) > 15)) {
		diag *d = diag_report(y->dc, R_SYSTEM_NAME, ydoc_get(root, "name")->loc, "'%s' is not a valid DAOS system name (1-15 bytes)",
				      name);
		diag_help(y->dc, d, "use the server's name, at most 15 characters");
	}
}

void yaml_lint_file(arena *a, diag_ctx *dc, uint32_t file, const char *release, const topology *topo)
{
	ynode *root = ydoc_parse(a, dc, file);
	if (!root)
		return;
	if (root->kind != Y_MAP) {
		diag *d = diag_report(dc, R_YAML_TYPE, root->loc, "the file's top level is not a mapping");
		diag_help(dc, d, "a DAOS config is a mapping of keys such as name, provider, engines");
		return;
	}
	ylint y = {a, dc, NULL, topo, {0}};
	y.rel = release ? daos_release_find(release) : ydoc_get(root, "mgmt_svc_replicas") ? daos_release_find("2.8")
										     : daos_release_find("2.6");
	/* other releases' names first, so that this release's own name wins */
	strmap_init(&y.keys, a);
	for (int pass = 0; pass < 2; pass++)
		for (int j = 0; j < DAOS__NKEYS; j++)
			for (int r = 0; r < DAOS__NRELEASES; r++)
				if (daos_keys[j].name[r] && (r == (int)y.rel->id) == (pass == 1))
					strmap_put(&y.keys, arena_printf(a, "%s\x1f%s", daos_keys[j].section, daos_keys[j].name[r]),
						   (void *)&daos_keys[j]);
	const src_file *f = src_get(dc->src, file);
	const char *base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
	if (strstr(base, "agent"))
		lint_agent(&y, root);
	else
		lint_server(&y, root);
}
