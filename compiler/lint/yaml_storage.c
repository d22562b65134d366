/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_storage.c - the storage tiers of daos_server.yml, the drives of
 * every engine against the topology, and the memory the engines take
 * (yaml_rules.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/base/value.h"
#include "lint.h"
#include "yaml_rules.h"

/* Each NVMe address belongs to one engine and is not in bdev_exclude: one
 * pass over every list with a map, not a comparison of every pair. */
typedef struct drive_owner {
	const ynode *item; /* the bdev_list item that named the drive first */
	size_t engine;
} drive_owner;

/* What the rest of the checks need to know of an engine's tiers. */
void yl_scan_storage(yengine *e)
{
	const ynode *tiers = ydoc_get(e->map, "storage");
	for (size_t i = 0; tiers && tiers->kind == Y_SEQ && i < tiers->n; i++) {
		const ynode *t = tiers->items[i];
		const char *cls = yl_get_str(t, "class");
		if (!cls)
			continue;
		if (strcmp(cls, "ram") == 0 || strcmp(cls, "dcpm") == 0) {
			if (!e->scm_class) {
				e->scm_class = cls;
				e->scm_ram = strcmp(cls, "ram") == 0;
				yl_get_int(t, "scm_size", &e->scm_size, &e->scm_size_loc);
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
			tier_error(y, yl_key_loc(t, "scm_list"), "remove scm_list: RAM SCM is a tmpfs at scm_mount",
				   "scm_list is for class dcpm; DAOS refuses it with class ram");
		int64_t sz;
		src_loc l;
		bool typed = ydoc_pair(t, "scm_size") && !yl_scalar_int(ydoc_get(t, "scm_size"), NULL);
		if (typed) {
			/* yaml-type says why */
		} else if (!yl_get_int(t, "scm_size", &sz, &l) || sz == 0) {
			diag *d = diag_report(y->dc, R_SCM_SIZE_UNPINNED, yl_key_loc(t, "class"),
					      "RAM-backed SCM without scm_size: daos_server gives it all free memory");
			diag_help(y->dc, d, "pin it: add `scm_size: <GiB>` to this tier, sized for the metadata, leaving memory "
				  "for the OS, hugepages and workloads");
		} else if (sz < 4) {
			diag *d = diag_report(y->dc, R_SCM_SIZE_SMALL, l, "scm_size %lld GiB is under DAOS's 4 GiB minimum", (long long)sz);
			diag_help(y->dc, d, "write `scm_size: 4` or more");
		}
	} else {
		if (ydoc_pair(t, "scm_size"))
			tier_error(y, yl_key_loc(t, "scm_size"), "remove scm_size: a dcpm tier is the size of its PMem namespace",
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
		else if (strcmp(cls, "file") == 0 && (!yl_get_int(t, "bdev_size", &size, NULL) || size <= 0))
			tier_error(y, t->loc, "add `bdev_size: <GiB>` above 0", "a file tier needs bdev_size above 0");
	} else {
		tier_error(y, yl_key_loc(t, "class"), "use class ram or dcpm (SCM), nvme, file or kdev",
			   arena_printf(y->a, "unsupported storage class '%s'", cls));
	}
}

void yl_check_storage(ylint *y, const yengine *e, bool has_cm_path)
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
		yl_check_keys(y, t, "TIER");
		const char *cls = yl_get_str(t, "class");
		if (!cls)
			continue;
		bool scm = strcmp(cls, "ram") == 0 || strcmp(cls, "dcpm") == 0;
		if (scm && ++scm_tiers > 1)
			tier_error(y, yl_key_loc(t, "class"), "keep one SCM tier, first in the list",
				   arena_printf(y->a, "engine %d has a second SCM tier", e->idx));
		if (i == 0 && !scm) {
			diag *d = diag_report(y->dc, R_STORAGE_TIER, yl_key_loc(t, "class"), "the first storage tier of engine %d is %s, not SCM",
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

void yl_check_drive_owners(ylint *y, const ynode *root, const yengine *es, size_t n)
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
	if (yl_get_int(root, "nr_hugepages", &pages, NULL) && pages > 0)
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
void yl_check_ramdisk(ylint *y, const ynode *root, const yengine *es, size_t n)
{
	if (!n || !es[0].scm_ram)
		return;
	int64_t rsvd = y->rel->system_ram_reserved_gib;
	yl_get_int(root, "system_ram_reserved", &rsvd, NULL);
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
