/* yaml_lint.c - see yaml_lint.h. Facts: ../shared/facts/daos-config.md
 * sections 1-2 (keys and DAOS's validation) and 2.12 (what DAOS misses). */
#include "yaml_lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "daos.h"
#include "fabric.h"
#include "lint.h"
#include "value.h"
#include "yaml_doc.h"

typedef struct ylint {
	arena *a;
	diag_ctx *dc;
	const daos_release *rel;
	const topology *topo;
	strmap keys; /* "section\x1fname" (a key's name in any release) -> daos_key_info * */
	bool ucx; /* the provider is ucx+...: ABT_THREAD_STACKSIZE >= 32768 */
	int64_t mem_gib; /* the node's RAM, 0 unknown */
	uint64_t hugepage_size; /* bytes: --hugepage-size, the topology's, else 2 MiB */
	fabric_need fabric; /* what the provider needs of a fabric_iface */
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
/* NUMA node OS indexes a fabric_ifaces entry may name (POWER9 uses 255) */
enum { MODEL_MAX_NUMA_OS = 1024 };

static bool scalar_int(const ynode *v, int64_t *out)
{
	if (!v || v->kind != Y_SCALAR || v->quoted)
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(v->text, &end, 0);
	if (*v->text && *end == '.' && !errno) {
		/* yaml.v2 decodes 16.0 (and 16.5, truncated) into an int field */
		char *fend;
		double f = strtod(v->text, &fend);
		if (*fend || f != f || f > YAML_INT_MAX || f < -YAML_INT_MAX)
			return false;
		x = (long long)f;
		end = fend;
	}
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

static bool is_true(const ynode *v)
{
	return strcasecmp(v->text, "true") == 0 || strcasecmp(v->text, "yes") == 0 || strcasecmp(v->text, "on") == 0 ||
	       strcasecmp(v->text, "y") == 0;
}

/* A plain ~, null or empty scalar: YAML's null, which leaves the key unset. */
static bool is_null(const ynode *v)
{
	return v->kind == Y_SCALAR && !v->quoted &&
	       (!*v->text || strcmp(v->text, "~") == 0 || strcmp(v->text, "null") == 0 || strcmp(v->text, "Null") == 0 ||
		strcmp(v->text, "NULL") == 0);
}

static bool type_ok(const ynode *v, daos_key_type t)
{
	switch (t) {
	case KT_STR: return v->kind == Y_SCALAR;
	case KT_INT: return scalar_int(v, NULL);
	case KT_BOOL: return scalar_bool(v);
	case KT_LIST:
		if (is_null(v))
			return true;
		if (v->kind != Y_SEQ)
			return false;
		for (size_t i = 0; i < v->n; i++)
			if (v->items[i]->kind != Y_SCALAR)
				return false;
		return true;
	case KT_MAP: return v->kind == Y_MAP;
	case KT_LIST_MAP:
		if (is_null(v))
			return true; /* `engines:` with no value: discovery mode */
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
				if (best) {
					diag_help(y->dc, d, "did you mean '%s'?", best);
					diag_fix_edit(y->dc, d, k->loc, "%s", best);
				}
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
	return v && v->kind == Y_SCALAR && !is_null(v) ? v->text : NULL;
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
	bool scm_ram, md_on_ssd, has_bdevs, has_meta;
	const char *scm_class;
	int64_t scm_size; /* GiB, 0 when not given */
	src_loc scm_size_loc;
} yengine;

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

static void check_env(ylint *y, const yengine *engine, const ynode *list)
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
	if (v && v->kind == Y_SCALAR && !is_null(v) && *v->text) /* empty or null: DAOS's default */
		lint_log_mask_finding(y->dc, v->text, v->loc, "engine log mask DEBUG");
}

/* What the rest of the checks need to know of an engine's tiers. */
static void scan_storage(yengine *e)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const ynode *t = tiers->items[i];
		const char *cls = get_str(t, "class");
		if (!cls)
			continue;
		if (strcmp(cls, "ram") == 0 || strcmp(cls, "dcpm") == 0) {
			if (!e->scm_class) {
				e->scm_class = cls;
				e->scm_ram = strcmp(cls, "ram") == 0;
				get_int(t, "scm_size", &e->scm_size, &e->scm_size_loc);
			}
			continue;
		}
		const ynode *bl = ydoc_get(t, "bdev_list");
		e->has_bdevs |= bl && bl->kind == Y_SEQ && bl->n > 0;
		const ynode *roles = ydoc_get(t, "bdev_roles");
		e->md_on_ssd |= roles && roles->kind == Y_SEQ && roles->n > 0;
		for (size_t r = 0; roles && roles->kind == Y_SEQ && r < roles->n; r++)
			e->has_meta |= roles->items[r]->kind == Y_SCALAR && strcmp(roles->items[r]->text, "meta") == 0;
	}
}

static void tier_error(ylint *y, src_loc loc, const char *help, const char *msg)
{
	diag *d = diag_report(y->dc, R_STORAGE_TIER, loc, "%s", msg);
	diag_help(y->dc, d, "%s", help);
}

/* One SCM tier (ram or dcpm): its own keys. */
static void check_scm_tier(ylint *y, const yengine *e, const ynode *t, const char *cls)
{
	if (!ydoc_get(t, "scm_mount"))
		tier_error(y, t->loc, "add `scm_mount: /mnt/daos<engine>`",
			   arena_printf(y->a, "engine %d's SCM tier has no scm_mount", e->idx));
	if (strcmp(cls, "ram") == 0) {
		if (ydoc_pair(t, "scm_list"))
			tier_error(y, key_loc(t, "scm_list"), "remove scm_list: RAM SCM is a tmpfs at scm_mount",
				   "scm_list is for class dcpm; DAOS refuses it with class ram");
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
	} else {
		if (ydoc_pair(t, "scm_size"))
			tier_error(y, key_loc(t, "scm_size"), "remove scm_size: a dcpm tier is the size of its PMem namespace",
				   "scm_size may not be set when class is dcpm");
		const ynode *l = ydoc_get(t, "scm_list");
		if (!l || l->kind != Y_SEQ || l->n != 1)
			tier_error(y, l ? l->loc : t->loc, "write `scm_list: [/dev/pmem0]` (one device)",
				   "a dcpm tier needs scm_list with exactly one device");
	}
}

/* One bdev tier: its class and its device list. */
static void check_bdev_tier(ylint *y, const yengine *e, const ynode *t, const char *cls)
{
	const ynode *bl = ydoc_get(t, "bdev_list");
	bool listed = bl && bl->kind == Y_SEQ && bl->n > 0;
	if (strcmp(cls, "nvme") == 0) {
		if (!listed) {
			tier_error(y, bl ? bl->loc : t->loc, "list the drives: `bdev_list: [\"0000:81:00.0\"]`",
				   arena_printf(y->a, "engine %d's nvme tier has no drives in bdev_list", e->idx));
			return;
		}
		strmap seen;
		strmap_init(&seen, y->a);
		for (size_t j = 0; j < bl->n; j++) {
			const ynode *it = bl->items[j];
			char pci[16];
			const char *why;
			if (it->kind != Y_SCALAR || !val_pci(it->text, pci, &why)) {
				tier_error(y, it->loc, "write PCI addresses as DDDD:BB:DD.F, e.g. \"0000:81:00.0\"",
					   arena_printf(y->a, "'%s' is not a PCI address", it->kind == Y_SCALAR ? it->text : "?"));
				continue;
			}
			const ynode *first = strmap_get(&seen, pci);
			if (first) {
				diag *d = diag_report(y->dc, R_STORAGE_TIER, it->loc, "%s is listed twice in bdev_list", pci);
				diag_note_at(y->dc, d, first->loc, "first listed here");
				diag_help(y->dc, d, "list each drive once");
			} else {
				strmap_put(&seen, arena_strdup(y->a, pci), (void *)it);
			}
		}
	} else if (strcmp(cls, "file") == 0 || strcmp(cls, "kdev") == 0) {
		int64_t size = 0;
		if (!listed)
			tier_error(y, t->loc, "list the files or devices in bdev_list",
				   arena_printf(y->a, "engine %d's %s tier has an empty bdev_list", e->idx, cls));
		else if (strcmp(cls, "file") == 0 && (!get_int(t, "bdev_size", &size, NULL) || size <= 0))
			tier_error(y, t->loc, "add `bdev_size: <GiB>` above 0", "a file tier needs bdev_size above 0");
	} else {
		tier_error(y, key_loc(t, "class"), "use class ram or dcpm (SCM), nvme, file or kdev",
			   arena_printf(y->a, "unsupported storage class '%s'", cls));
	}
}

static void check_storage(ylint *y, const yengine *e, bool has_cm_path)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	if (!tiers || tiers->kind != Y_SEQ || tiers->n == 0) {
		diag *d = diag_report(y->dc, R_STORAGE_TIER, e->map->loc, "engine %d has no storage tiers", e->idx);
		diag_help(y->dc, d, "add a storage list whose first tier is SCM (class: ram with scm_size)");
		return;
	}
	int roles_tiers = 0, bdev_tiers = 0, scm_tiers = 0;
	unsigned role_count[3] = {0, 0, 0}; /* wal, meta, data: tiers that hold each */
	for (size_t i = 0; i < tiers->n; i++) {
		const ynode *t = tiers->items[i];
		check_keys(y, t, "TIER");
		const char *cls = get_str(t, "class");
		if (!cls)
			continue;
		bool scm = strcmp(cls, "ram") == 0 || strcmp(cls, "dcpm") == 0;
		if (scm && ++scm_tiers > 1)
			tier_error(y, key_loc(t, "class"), "keep one SCM tier, first in the list",
				   arena_printf(y->a, "engine %d has a second SCM tier", e->idx));
		if (i == 0 && !scm) {
			diag *d = diag_report(y->dc, R_STORAGE_TIER, key_loc(t, "class"), "the first storage tier of engine %d is %s, not SCM",
					      e->idx, cls);
			diag_help(y->dc, d, "DAOS requires exactly one SCM tier (class: ram or dcpm), first");
		}
		if (scm) {
			check_scm_tier(y, e, t, cls);
			continue;
		}
		bdev_tiers++;
		check_bdev_tier(y, e, t, cls);
		const ynode *roles = ydoc_get(t, "bdev_roles");
		if (roles && roles->kind == Y_SEQ && roles->n) {
			roles_tiers++;
			/* DAOS keeps a tier's roles as a bit set: a repeated role is one role */
			bool has[3] = {false, false, false};
			for (size_t r = 0; r < roles->n; r++) {
				const char *rn = roles->items[r]->kind == Y_SCALAR ? roles->items[r]->text : "";
				int k = strcmp(rn, "wal") == 0 ? 0 : strcmp(rn, "meta") == 0 ? 1 : strcmp(rn, "data") == 0 ? 2 : -1;
				if (k < 0) {
					diag *d = diag_report(y->dc, R_BDEV_ROLES, roles->items[r]->loc, "'%s' is not a bdev role", rn);
					diag_help(y->dc, d, "roles are wal, meta and data");
				} else {
					has[k] = true;
				}
			}
			for (int k = 0; k < 3; k++)
				role_count[k] += has[k];
			if (has[0] && has[2] && !has[1]) {
				diag *d = diag_report(y->dc, R_BDEV_ROLES, roles->loc, "a tier with wal and data needs meta too");
				diag_help(y->dc, d, "write `bdev_roles: [wal, meta, data]` (FaultBdevConfigRolesWalDataNoMeta)");
			}
		}
	}
	if (roles_tiers && roles_tiers != bdev_tiers) {
		diag *d = diag_report(y->dc, R_BDEV_ROLES, tiers->loc, "engine %d gives bdev_roles to some tiers only", e->idx);
		diag_help(y->dc, d, "give every bdev tier its roles (FaultBdevConfigRolesMissing)");
	} else if (!roles_tiers && bdev_tiers > 1) {
		diag *d = diag_report(y->dc, R_BDEV_ROLES, tiers->loc, "engine %d has %d bdev tiers but no bdev_roles", e->idx, bdev_tiers);
		diag_help(y->dc, d, "give each tier its roles, e.g. [wal] and [meta, data] (FaultBdevConfigMultiTiersWithoutRoles)");
	} else if (roles_tiers && (role_count[0] != 1 || role_count[1] != 1 || role_count[2] != 1)) {
		diag *d = diag_report(y->dc, R_BDEV_ROLES, tiers->loc, "engine %d's tiers must hold wal, meta and data once each", e->idx);
		diag_help(y->dc, d, "one tier: `bdev_roles: [wal, meta, data]`; two: [wal] and [meta, data] (FaultBdevConfigBadNrRoles)");
	}
	if (e->has_meta && !has_cm_path) {
		diag *d = diag_report(y->dc, R_BDEV_ROLES, tiers->loc, "engine %d has a meta role but the server has no control_metadata.path",
				      e->idx);
		diag_help(y->dc, d, "add `control_metadata: {path: /var/daos/config}` (FaultBdevConfigRolesNoControlMetadata)");
	} else if (has_cm_path && !e->has_meta) {
		diag *d = diag_report(y->dc, R_BDEV_ROLES, tiers->loc,
				      "control_metadata.path is set but engine %d has no NVMe tier with the meta role", e->idx);
		diag_help(y->dc, d, "give the engine an nvme tier with `bdev_roles: [wal, meta, data]`, or remove control_metadata "
			  "(FaultBdevConfigControlMetadataNoRoles)");
	}
}

static const topo_device *find_iface(const topology *t, const char *iface)
{
	for (int i = 0; t && iface && i < t->ndevices; i++)
		if (t->devices[i].kind == TOPO_NIC && t->devices[i].net && strcmp(t->devices[i].net, iface) == 0)
			return &t->devices[i];
	return NULL;
}

typedef void (*nvme_fn)(ylint *y, const yengine *e, const ynode *item, const char *pci, void *ctx);

/* Calls fn for each PCI address in the bdev_lists of the engine's nvme
 * tiers (entries that are not PCI addresses are the value checks' to
 * report). */
static void each_nvme(ylint *y, const yengine *e, nvme_fn fn, void *ctx)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const ynode *bl = ydoc_get(tiers->items[i], "bdev_list");
		const char *cls = get_str(tiers->items[i], "class");
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
	const topo_device *nic = find_iface(t, e->iface);
	int nic_numa = nic ? nic->numa : -3;
	const ypair *iface_pair = ydoc_pair(e->map, "fabric_iface");
	if (e->iface && !nic) {
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
	/* first_core's cores and the drives on one NUMA node, the NIC on
	 * another: the engine runs there and the NIC is what is remote (as in
	 * the DSL path); a first_core that may be a Linux CPU number still
	 * goes by the NIC */
	int core_numa = e->has_fc && !e->has_pin && e->first_core >= 0 && e->first_core < t->ncores ? t->cores[e->first_core].numa : -1;
	if (core_numa >= 0 && nic_numa >= 0 && core_numa != nic_numa && drives_numa(y, e) == core_numa)
		e->numa = core_numa;
	if (e->numa < 0)
		return;
	const topo_numa *tn = &t->numa[e->numa];
	long long needed = 2 + (long long)e->targets + e->helpers; /* each below 2^31 */
	if (e->has_fc) {
		get_int(e->map, "first_core", NULL, &l);
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
			diag *d = diag_report(y->dc, R_FIRST_CORE_LINUX_CPU, l, "first_core %lld is Linux CPU %lld, which is hwloc logical core %d",
					      fc, fc, linux_core);
			diag_help(y->dc, d, "DAOS counts hwloc logical cores: write `first_core: %lld`", fix);
			diag_fix_edit(y->dc, d, l, "%lld", fix);
		} else if (fc < tn->first_core || fc > last) {
			diag *d = diag_report(y->dc, R_FIRST_CORE_OUTSIDE_NUMA, l, "first_core %lld is outside NUMA node %d (cores %d-%lld)",
					      fc, e->numa, tn->first_core, last);
			if (nic_numa == e->numa)
				diag_note_at(y->dc, d, SRC_LOC_NONE, "the engine's fabric_iface %s is on NUMA node %d", e->iface, e->numa);
			bool relative = fc >= 0 && fc < tn->ncores && tn->first_core;
			if (relative)
				diag_note_at(y->dc, d, SRC_LOC_NONE, "%lld looks NUMA-relative; DAOS reads first_core as an absolute core index", fc);
			if (relative && tn->first_core + fc + needed - 1 <= last)
				diag_help(y->dc, d, "first_core is an absolute hwloc logical core index: write `first_core: %lld` "
					  "(core %lld of NUMA node %d, which starts at core %d)", tn->first_core + fc, fc, e->numa, tn->first_core);
			else
				diag_help(y->dc, d, "first_core is an absolute hwloc logical core index: NUMA node %d starts at core %d; "
					  "write `first_core: %d` or later", e->numa, tn->first_core, tn->first_core);
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
		const ypair *p = iface_pair;
		diag *d = diag_report(y->dc, R_NIC_NOT_LOCAL, p->value->loc, "%s is on NUMA node %d, but engine %d runs on NUMA node %d",
				      e->iface, nic_numa, e->idx, e->numa);
		const char *local = fabric_iface_on(y, e->numa);
		if (local) {
			diag_help(y->dc, d, "write `fabric_iface: %s`, the storage NIC of NUMA node %d", local, e->numa);
			diag_fix_edit(y->dc, d, p->value->loc, "%s", local);
		}
		else
			diag_help(y->dc, d, "use a NIC of NUMA node %d, or move the engine", e->numa);
	}
	each_nvme(y, e, drive_local, NULL);
}

static void value_error(ylint *y, src_loc loc, const char *help, const char *msg)
{
	diag *d = diag_report(y->dc, R_BAD_VALUE, loc, "%s", msg);
	diag_help(y->dc, d, "%s", help);
}

/* engine.Config.Validate: counts not negative, a fabric interface and port. */
static void check_engine_values(ylint *y, yengine *e)
{
	if (e->helpers < 0)
		value_error(y, key_loc(e->map, "nr_xs_helpers"), "write 0 or more (DAOS suggests at least 1)",
			    arena_printf(y->a, "engine %d: nr_xs_helpers must not be negative", e->idx));
	if (e->has_fc && e->first_core < 0)
		value_error(y, key_loc(e->map, "first_core"), "write an absolute core index, 0 or more",
			    arena_printf(y->a, "engine %d: first_core must not be negative", e->idx));
	if (!e->iface || !*e->iface)
		value_error(y, e->iface ? key_loc(e->map, "fabric_iface") : e->map->loc, "add `fabric_iface: <interface>`",
			    arena_printf(y->a, "engine %d has no fabric_iface", e->idx));
	if (!e->has_port || e->port <= 0)
		value_error(y, e->has_port ? key_loc(e->map, "fabric_iface_port") : e->map->loc,
			    "write `fabric_iface_port: 31416` (engine 1: 32416, ...)",
			    arena_printf(y->a, "engine %d: fabric_iface_port %s", e->idx,
					 !e->has_port || e->port == 0 ? "is not set" : "must not be negative"));
}

/* The value of key in an engine's first SCM tier, or NULL. */
static const ynode *scm_value(const yengine *e, const char *key)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const char *cls = get_str(tiers->items[i], "class");
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
	bool da = ha && scalar_bool(ha) && is_true(ha), db = hb && scalar_bool(hb) && is_true(hb);
	if (da != db) {
		diag *d = diag_report(y->dc, R_STORAGE_TIER, (ha ? ha : hb)->loc,
				      "scm_hugepages_disabled differs between engines %d and %d", b->idx, a->idx);
		diag_help(y->dc, d, "set it the same on every engine (FaultConfigScmDiffHugeEnabled)");
	}
}

/* Each NVMe address belongs to one engine and is not in bdev_exclude: one
 * pass over every list with a map, not a comparison of every pair. */
typedef struct drive_owner {
	const ynode *item; /* the bdev_list item that named the drive first */
	size_t engine;
} drive_owner;

static void check_drive_owners(ylint *y, const ynode *root, const yengine *es, size_t n)
{
	strmap owner; /* pci -> drive_owner */
	strmap_init(&owner, y->a);
	for (size_t i = 0; i < n; i++) {
		const ynode *tiers = ydoc_get(es[i].map, "storage");
		for (size_t t = 0; tiers && tiers->kind == Y_SEQ && t < tiers->n; t++) {
			const ynode *bl = ydoc_get(tiers->items[t], "bdev_list");
			for (size_t p = 0; bl && bl->kind == Y_SEQ && p < bl->n; p++) {
				char pci[16];
				const char *why;
				const ynode *it = bl->items[p];
				if (it->kind != Y_SCALAR || !val_pci(it->text, pci, &why))
					continue;
				const drive_owner *first = strmap_get(&owner, pci);
				if (!first) {
					drive_owner *o = arena_alloc(y->a, sizeof(*o));
					o->item = it;
					o->engine = i;
					strmap_put(&owner, arena_strdup(y->a, pci), o);
				} else if (first->engine != i) {
					diag *d = diag_report(y->dc, R_ENGINE_DUPLICATE, it->loc, "engines %zu and %zu both list drive %s",
							      first->engine, i, pci);
					diag_note_at(y->dc, d, first->item->loc, "engine %zu lists it here", first->engine);
					diag_help(y->dc, d, "give each drive to one engine (FaultConfigOverlappingBdevDeviceList)");
				}
			}
		}
	}
	const ynode *ex = ydoc_get(root, "bdev_exclude");
	for (size_t p = 0; ex && ex->kind == Y_SEQ && p < ex->n; p++) {
		char pci[16];
		const char *why;
		if (ex->items[p]->kind != Y_SCALAR || !val_pci(ex->items[p]->text, pci, &why))
			continue;
		const drive_owner *used = strmap_get(&owner, pci);
		if (used) {
			diag *d = diag_report(y->dc, R_BAD_VALUE, ex->items[p]->loc, "bdev_exclude names %s, which an engine uses", pci);
			diag_note_at(y->dc, d, used->item->loc, "engine %zu lists it here", used->engine);
			diag_help(y->dc, d, "remove it from bdev_exclude or from the engine's bdev_list (FaultConfigBdevExcludeClash)");
		}
	}
}

/* Hugepages DAOS uses: nr_hugepages, or when 0 or absent the minimum it
 * computes (SetNrHugepages, CalcMinHugepages: 1 GiB per target of engines
 * with drives, +1 target per engine with a meta role, +1 for a 1-target
 * engine without one), in 2 MiB pages. */
static int64_t hugepages_used(const ynode *root, const yengine *es, size_t n, uint64_t hp)
{
	int64_t pages = 0;
	if (get_int(root, "nr_hugepages", &pages, NULL) && pages > 0)
		return pages;
	int64_t t = 0;
	for (size_t i = 0; i < n; i++)
		if (es[i].has_bdevs)
			t += daos_hugepage_targets(es[i].targets, es[i].has_meta);
	return t * (int64_t)(GiB / hp);
}

/* CalcRamdiskSize (src/control/server/storage/scm.go): each engine's RAM
 * SCM is at most (MemTotal - hugepages - system_ram_reserved - E x
 * max(targets x 128 MiB, 1 GiB)) / E, and that maximum is at least 4 GiB. */
static void check_ramdisk(ylint *y, const ynode *root, const yengine *es, size_t n)
{
	if (!n || !es[0].scm_ram)
		return;
	int64_t rsvd = y->rel->system_ram_reserved_gib;
	get_int(root, "system_ram_reserved", &rsvd, NULL);
	int64_t pages = hugepages_used(root, es, n, y->hugepage_size);
	if (rsvd <= 0 || pages < 0)
		return; /* reported as bad values */
	uint64_t total = (uint64_t)y->mem_gib * GiB, hp = (uint64_t)pages * y->hugepage_size, reserved = (uint64_t)rsvd * GiB;
	int64_t max_gib = (int64_t)(daos_ramdisk_max(total, hp, reserved, (int64_t)n, es[0].targets) / GiB);
	char formula[256];
	daos_ramdisk_formula(formula, sizeof(formula), total, hp, reserved, (int64_t)n, es[0].targets);
	if (max_gib < 4) {
		diag *d = diag_report(y->dc, R_MEMORY_OVERCOMMIT, es[0].scm_size ? es[0].scm_size_loc : es[0].map->loc,
				      "RAM SCM gets at most %lld GiB per engine on a %lld GiB node, under DAOS's 4 GiB minimum", (long long)max_gib,
				      (long long)y->mem_gib);
		diag_note_at(y->dc, d, SRC_LOC_NONE, "DAOS computes %s", formula);
		diag_help(y->dc, d, "lower nr_hugepages or system_ram_reserved, or run fewer engines (FaultRamdiskLowMem)");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (es[i].scm_ram && es[i].scm_size > max_gib) {
			diag *d = diag_report(y->dc, R_MEMORY_OVERCOMMIT, es[i].scm_size_loc,
					      "engine %zu's scm_size %lld GiB is over the %lld GiB DAOS allows on a %lld GiB node", i,
					      (long long)es[i].scm_size, (long long)max_gib, (long long)y->mem_gib);
			diag_note_at(y->dc, d, SRC_LOC_NONE, "DAOS computes %s", formula);
			diag_help(y->dc, d, "write `scm_size: %lld` or less (FaultConfigRamdiskOverMaxMem)", (long long)max_gib);
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
		if (!e->has_port)
			e->has_port = get_int(root, "fabric_iface_port", &e->port, NULL);
		e->iface = get_str(e->map, "fabric_iface");
		if (!e->iface)
			e->iface = top_iface;
		check_engine_values(y, e);
		scan_storage(e);
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
		check_env(y, e, ydoc_get(e->map, "env_vars"));
		check_storage(y, e, has_cm_path);
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
			diag *d = diag_report(y->dc, R_FIRST_CORE_WITH_PIN, key_loc(a->map, "pinned_numa_node"),
					      "DAOS ignores this pin: engine %d sets first_core", fc_engine->idx);
			diag_note_at(y->dc, d, key_loc(fc_engine->map, "first_core"), "first_core is set here");
			diag_help(y->dc, d, "use one form for all engines: pinned_numa_node everywhere, or first_core everywhere");
		}
		for (size_t j = 0; j < i; j++) {
			yengine *b = &es[j];
			check_engine_pair(y, a, b);
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
	check_drive_owners(y, root, es, n);
	if (y->mem_gib)
		check_ramdisk(y, root, es, n);
	/* hugepages: 256 MiB per target at least */
	int64_t pages;
	src_loc hl;
	if (get_int(root, "nr_hugepages", &pages, &hl) && pages > 0 && n) {
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

/* Access points (mgmt_svc_replicas from 2.8): host[:port], the port taken
 * from `port` (10001) when absent, above 0; each address once, compared with
 * its port as DAOS compares them; an odd count. */
static void check_replicas(ylint *y, const ynode *root, const char *key)
{
	const ypair *p = ydoc_pair(root, key);
	if (!p || p->value->kind != Y_SEQ)
		return;
	const ynode *list = p->value;
	int64_t port = 10001;
	get_int(root, "port", &port, NULL);
	strmap seen; /* host:port -> its first item */
	strmap_init(&seen, y->a);
	for (size_t i = 0; i < list->n; i++) {
		const ynode *it = list->items[i];
		if (it->kind != Y_SCALAR)
			continue;
		const char *colon = strrchr(it->text, ':');
		const char *addr = it->text;
		if (colon) {
			char *end;
			errno = 0;
			long long v = strtoll(colon + 1, &end, 10);
			if (!colon[1] || *end || errno) {
				value_error(y, it->loc, "write host or host:port, e.g. gpu001:10001",
					    arena_printf(y->a, "%s: '%s' is not a port", key, colon + 1));
				continue;
			}
			if (v <= 0) {
				value_error(y, it->loc, "drop the port (the control port is used) or write one above 0",
					    arena_printf(y->a, "%s: the port of %s %s", key, it->text, v ? "is negative" : "is 0"));
				continue;
			}
		} else {
			addr = arena_printf(y->a, "%s:%lld", it->text, (long long)port);
		}
		const ynode *first = strmap_get(&seen, addr);
		if (!first) {
			strmap_put(&seen, addr, (void *)it);
			continue;
		}
		diag *d = diag_report(y->dc, R_ACCESS_POINTS_DUPLICATE, it->loc, "%s is listed twice (as %s)", it->text, addr);
		diag_note_at(y->dc, d, first->loc, "first listed here");
		diag_help(y->dc, d, "list each host once");
	}
	if (list->n % 2 == 0 && (list->n || y->rel->id == DAOS_2_6)) { /* 2.8: none means this host */
		diag *d = diag_report(y->dc, R_ACCESS_POINTS_COUNT, p->key->loc, "%zu %s: DAOS needs an odd number", list->n, key);
		diag_help(y->dc, d, "list 1, 3 or 5 hosts");
	}
}

/* fault_path: /a or /a/b (FaultConfigFaultDomainInvalid, ...TooManyLayers). */
static void check_fault_domain(ylint *y, const ynode *root)
{
	const ypair *fp = ydoc_pair(root, "fault_path"), *cb = ydoc_pair(root, "fault_cb");
	if (fp && cb && fp->value->kind == Y_SCALAR && *fp->value->text && cb->value->kind == Y_SCALAR && *cb->value->text) {
		diag *d = diag_report(y->dc, R_FAULT_DOMAIN, fp->key->loc, "fault_path and fault_cb are both set");
		diag_note_at(y->dc, d, cb->key->loc, "fault_cb is set here");
		diag_help(y->dc, d, "keep one of them (FaultConfigBothFaultPathAndCb)");
	}
	if (!fp || fp->value->kind != Y_SCALAR || !*fp->value->text)
		return;
	const char *p = fp->value->text;
	size_t n = strlen(p);
	int levels = 0;
	bool ok = p[0] == '/' && n > 1 && p[n - 1] != '/';
	for (const char *c = p; ok && *c; c++)
		if (*c == '/') {
			levels++;
			ok = c[1] != '/';
		}
	if (!ok) {
		diag *d = diag_report(y->dc, R_FAULT_DOMAIN, fp->value->loc, "fault_path '%s' is not a fault domain path", p);
		diag_help(y->dc, d, "write an absolute path without empty levels or a trailing '/', e.g. /rack1/node7");
	} else if (levels > 2) {
		diag *d = diag_report(y->dc, R_FAULT_DOMAIN, fp->value->loc, "fault_path '%s' has %d levels; DAOS allows 2 below the root", p,
				      levels);
		diag_help(y->dc, d, "drop a level, e.g. /rack1/node7 (FaultConfigFaultDomainTooManyLayers)");
	}
}

/* Server.Validate's values: ports, hugepages, reserved RAM, log level. */
static void check_server_values(ylint *y, const ynode *root, const ynode *engines)
{
	int64_t v;
	src_loc l;
	if (get_int(root, "port", &v, &l) && v <= 0)
		value_error(y, l, "write `port: 10001` (the default)", "the control port must be above 0 (FaultConfigBadControlPort)");
	if (get_int(root, "telemetry_port", &v, &l) && v < 0)
		value_error(y, l, "write `telemetry_port: 9191`, or 0 to turn telemetry off",
			    "telemetry_port must not be negative (FaultConfigBadTelemetryPort)");
	if (get_int(root, "nr_hugepages", &v, &l) && v < 0)
		value_error(y, l, "write 0 for DAOS's minimum, or a number of pages",
			    "nr_hugepages must not be negative (FaultConfigNrHugepagesOutOfRange)");
	if (get_int(root, "system_ram_reserved", &v, &l) && v <= 0)
		value_error(y, l, arena_printf(y->a, "write `system_ram_reserved: %d` (the default), in GiB", y->rel->system_ram_reserved_gib),
			    "system_ram_reserved must be above 0 GiB (FaultConfigSysRsvdZero)");
	const ynode *lvl = ydoc_get(root, "control_log_mask");
	if (lvl && lvl->kind == Y_SCALAR && !is_null(lvl) &&
	    !daos_name_known(daos_control_log_levels, lvl->text, strlen(lvl->text))) {
		diag *d = diag_report(y->dc, R_LOG_MASK, lvl->loc, "control_log_mask '%s' is not a log level", lvl->text);
		diag_help(y->dc, d, "write one of TRACE, DEBUG, INFO, NOTICE, ERROR");
	}
	const ynode *dh = ydoc_get(root, "disable_hugepages");
	if (dh && scalar_bool(dh) && is_true(dh)) {
		bool bdevs = false;
		for (size_t i = 0; engines && engines->kind == Y_SEQ && i < engines->n; i++) {
			const ynode *tiers = ydoc_get(engines->items[i], "storage");
			for (size_t t = 0; tiers && tiers->kind == Y_SEQ && t < tiers->n; t++) {
				const ynode *bl = ydoc_get(tiers->items[t], "bdev_list");
				bdevs |= bl && bl->kind == Y_SEQ && bl->n;
			}
		}
		int64_t pages = 0;
		bool pages_set = get_int(root, "nr_hugepages", &pages, NULL) && pages != 0;
		if (bdevs || (y->rel->id != DAOS_2_6 && pages_set))
			value_error(y, dh->loc, "remove disable_hugepages: SPDK drives NVMe through hugepages",
				    bdevs ? "hugepages cannot be disabled when engines have NVMe drives (FaultConfigHugepagesDisabledWithBdevs)"
					  : "hugepages cannot be disabled when nr_hugepages is set (FaultConfigHugepagesDisabledWithNrSet)");
	}
	const ynode *cm = ydoc_get(root, "control_metadata");
	if (cm && cm->kind == Y_MAP && get_str(cm, "device") && *get_str(cm, "device") && !get_str(cm, "path"))
		value_error(y, key_loc(cm, "device"), "add `path: /var/daos/config`, the device's mount point",
			    "control_metadata.device needs control_metadata.path (FaultConfigControlMetadataNoPath)");
	check_fault_domain(y, root);
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
	check_server_values(y, root, engines);
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
	y->ucx = prov && strncmp(prov, "ucx", 3) == 0;
	cluster_spec c = {0};
	c.provider.set = prov != NULL;
	c.provider.v = prov;
	y->fabric = fabric_need_of(&c);
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
	check_env(y, NULL, ydoc_get(root, "client_env_vars"));
	check_engines(y, root, engines);
}

/* The logical index of the NUMA node whose OS index is os, or -1. */
static int numa_by_os_index(const topology *t, int64_t os)
{
	for (int n = 0; n < t->nnuma; n++)
		if (t->numa[n].os_index == os)
			return n;
	return -1;
}

/* One fabric_ifaces entry. The agent hands a client the interfaces of the
 * client's own NUMA node, which it learns as an OS index
 * (src/control/lib/hardware/hwloc/provider.go, findNUMANodeWithCPUSet ->
 * osIndex), and takes iface and domain as written
 * (src/control/cmd/daos_agent/fabric.go NUMAFabricFromConfig): a wrong node
 * or name leaves those clients without a working interface. */
static void check_agent_iface(ylint *y, const ynode *entry, bool seen[MODEL_MAX_NUMA_OS])
{
	int64_t numa;
	src_loc nl = entry->loc;
	if (!get_int(entry, "numa_node", &numa, &nl)) {
		if (!ydoc_pair(entry, "numa_node")) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, entry->loc, "a fabric_ifaces entry without numa_node");
			diag_help(y->dc, d, "add `numa_node: N`: the agent gives its devices to the clients of NUMA node N");
		}
		return;
	}
	int logical = -1;
	if (numa < 0 || numa >= MODEL_MAX_NUMA_OS) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, nl, "numa_node %lld is not a NUMA node number", (long long)numa);
		diag_help(y->dc, d, "write the node's number as Linux gives it (numactl -H)");
		return;
	}
	if (seen[numa]) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, nl, "numa_node %lld has two fabric_ifaces entries", (long long)numa);
		diag_help(y->dc, d, "list every device of NUMA node %lld under one entry", (long long)numa);
	}
	seen[numa] = true;
	if (y->topo) {
		logical = numa_by_os_index(y->topo, numa);
		if (logical < 0 || !y->topo->numa[logical].ncores) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, nl, "numa_node %lld: the node has no NUMA node %lld with CPUs",
					      (long long)numa, (long long)numa);
			const char *with = NULL;
			for (int n = 0; n < y->topo->nnuma; n++)
				if (y->topo->numa[n].ncores)
					with = with ? arena_printf(y->a, "%s, %d", with, y->topo->numa[n].os_index)
						    : arena_printf(y->a, "%d", y->topo->numa[n].os_index);
			diag_help(y->dc, d, "use a NUMA node with CPUs, numbered as Linux numbers them (numactl -H): %s",
				  with ? with : "none");
			logical = -1;
		}
	}
	const ynode *dv = ydoc_get(entry, "devices");
	if (!dv || dv->kind != Y_SEQ || !dv->n) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, entry->loc, "fabric_ifaces entry of numa_node %lld has no devices",
				      (long long)numa);
		diag_help(y->dc, d, "add `devices: [{iface: <ifname>, domain: <rdma device>}]`");
		return;
	}
	for (size_t j = 0; j < dv->n; j++) {
		const ynode *iface = ydoc_get(dv->items[j], "iface");
		if (!iface || iface->kind != Y_SCALAR || !*iface->text) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, dv->items[j]->loc, "a fabric_ifaces device without iface");
			diag_help(y->dc, d, "add `iface: <ifname>`, the interface the clients of this NUMA node use");
			continue;
		}
		if (logical < 0)
			continue;
		const topo_device *nic = NULL;
		for (int i = 0; i < y->topo->ndevices && !nic; i++)
			if (y->topo->devices[i].kind == TOPO_NIC && y->topo->devices[i].net && strcmp(y->topo->devices[i].net, iface->text) == 0)
				nic = &y->topo->devices[i];
		if (!nic) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, iface->loc, "the topology has no interface '%s'", iface->text);
			diag_help(y->dc, d, "use an interface of NUMA node %lld", (long long)numa);
		} else if (nic->numa >= 0 && nic->numa != logical) {
			diag *d = diag_report(y->dc, R_AGENT_CONFIG, iface->loc, "%s is on NUMA node %d, not %lld",
					      iface->text, y->topo->numa[nic->numa].os_index, (long long)numa);
			diag_help(y->dc, d, "list %s under `numa_node: %d`", iface->text, y->topo->numa[nic->numa].os_index);
		}
	}
}

static void lint_agent(ylint *y, const ynode *root)
{
	check_keys(y, root, "AGENT");
	check_keys(y, ydoc_get(root, "transport_config"), "TRANSPORT");
	const ynode *fi = ydoc_get(root, "fabric_ifaces");
	bool seen[MODEL_MAX_NUMA_OS] = {false};
	for (size_t i = 0; fi && fi->kind == Y_SEQ && i < fi->n; i++) {
		check_keys(y, fi->items[i], "AGENT_IFACES");
		const ynode *dv = ydoc_get(fi->items[i], "devices");
		for (size_t j = 0; dv && dv->kind == Y_SEQ && j < dv->n; j++)
			check_keys(y, dv->items[j], "AGENT_DEVICE");
		if (fi->items[i]->kind == Y_MAP)
			check_agent_iface(y, fi->items[i], seen);
	}
	const char *name = get_str(root, "name");
	if (name && (!*name || strlen(name) > 15)) {
		diag *d = diag_report(y->dc, R_SYSTEM_NAME, ydoc_get(root, "name")->loc, "'%s' is not a valid DAOS system name (1-15 bytes)",
				      name);
		diag_help(y->dc, d, "use the server's name, at most 15 characters");
	}
	/* src/control/cmd/daos_agent/config.go LoadConfig */
	int64_t port = 0;
	bool has_port = get_int(root, "telemetry_port", &port, NULL) && port > 0;
	const ypair *en = ydoc_pair(root, "telemetry_enabled"), *ret = ydoc_pair(root, "telemetry_retain");
	if (!has_port && ((en && scalar_bool(en->value) && strchr("tTyYo", en->value->text[0]) &&
			   strcasecmp(en->value->text, "off") != 0) || ret)) {
		const ypair *k = ret ? ret : en;
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, k->key->loc, "%s requires telemetry_port: daos_agent refuses the file",
				      k->key->text);
		diag_help(y->dc, d, "add `telemetry_port: 9192`, or remove %s", k->key->text);
	}
	const ynode *aps = ydoc_get(root, "access_points");
	if (aps && aps->kind == Y_SEQ && !aps->n) {
		diag *d = diag_report(y->dc, R_AGENT_CONFIG, aps->loc, "access_points is empty: the agent cannot reach the system");
		diag_help(y->dc, d, "list the servers' access points, as in daos_server.yml");
	}
}

void yaml_lint_file(arena *a, diag_ctx *dc, uint32_t file, const yaml_lint_opts *opts)
{
	const char *release = opts->release;
	const topology *topo = opts->topo;
	ynode *root = ydoc_parse(a, dc, file);
	if (!root)
		return;
	if (root->kind != Y_MAP) {
		diag *d = diag_report(dc, R_YAML_TYPE, root->loc, "the file's top level is not a mapping");
		diag_help(dc, d, "a DAOS config is a mapping of keys such as name, provider, engines");
		return;
	}
	ylint y = {a, dc, NULL, topo, {0}, false, opts->mem_gib,
		   opts->hugepage_size ? opts->hugepage_size : topo ? topo->hugepage_size : 2 * MiB, {0}};
	if (!y.mem_gib && topo) {
		uint64_t total = 0;
		for (int n = 0; n < topo->nnuma; n++)
			total += topo->numa[n].memory;
		y.mem_gib = (int64_t)(total / GiB);
	}
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
