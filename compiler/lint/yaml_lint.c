/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_lint.c - see yaml_lint.h: the driver. It reads the file and checks
 * the server's top level; the engines, storage and agent files are checked
 * in yaml_engines.c, yaml_storage.c and yaml_agent.c, which read values
 * through yaml_read.c and check keys through yaml_keys.c (yaml_rules.h). */
#include "yaml_lint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "lint.h"
#include "yaml_rules.h"

bool yaml_lint_is_yaml(const char *path)
{
	size_t n = strlen(path);
	return (n > 4 && strcmp(path + n - 4, ".yml") == 0) || (n > 5 && strcmp(path + n - 5, ".yaml") == 0);
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
	yl_get_int(root, "port", &port, NULL);
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
				yl_value_error(y, it->loc, "write host or host:port, e.g. gpu001:10001",
					    arena_printf(y->a, "%s: '%s' is not a port", key, colon + 1));
				continue;
			}
			if (v <= 0) {
				yl_value_error(y, it->loc, "drop the port (the control port is used) or write one above 0",
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
	if (yl_get_int(root, "port", &v, &l) && v <= 0)
		yl_value_error(y, l, "write `port: 10001` (the default)", "the control port must be above 0 (FaultConfigBadControlPort)");
	if (yl_get_int(root, "telemetry_port", &v, &l) && v < 0)
		yl_value_error(y, l, "write `telemetry_port: 9191`, or 0 to turn telemetry off",
			    "telemetry_port must not be negative (FaultConfigBadTelemetryPort)");
	if (yl_get_int(root, "nr_hugepages", &v, &l) && v < 0)
		yl_value_error(y, l, "write 0 for DAOS's minimum, or a number of pages",
			    "nr_hugepages must not be negative (FaultConfigNrHugepagesOutOfRange)");
	if (yl_get_int(root, "system_ram_reserved", &v, &l) && v <= 0)
		yl_value_error(y, l, arena_printf(y->a, "write `system_ram_reserved: %d` (the default), in GiB", y->rel->system_ram_reserved_gib),
			    "system_ram_reserved must be above 0 GiB (FaultConfigSysRsvdZero)");
	const ynode *lvl = ydoc_get(root, "control_log_mask");
	if (lvl && lvl->kind == Y_SCALAR && !yl_is_null(lvl) &&
	    !daos_name_known(daos_control_log_levels, lvl->text, strlen(lvl->text))) {
		diag *d = diag_report(y->dc, R_LOG_MASK, lvl->loc, "control_log_mask '%s' is not a log level", lvl->text);
		diag_help(y->dc, d, "write one of TRACE, DEBUG, INFO, NOTICE, ERROR");
	}
	const ynode *dh = ydoc_get(root, "disable_hugepages");
	if (dh && yl_scalar_bool(dh) && yl_is_true(dh)) {
		bool bdevs = false;
		for (size_t i = 0; engines && engines->kind == Y_SEQ && i < engines->n; i++) {
			const ynode *tiers = ydoc_get(engines->items[i], "storage");
			for (size_t t = 0; tiers && tiers->kind == Y_SEQ && t < tiers->n; t++) {
				const ynode *bl = ydoc_get(tiers->items[t], "bdev_list");
				bdevs |= bl && bl->kind == Y_SEQ && bl->n;
			}
		}
		int64_t pages = 0;
		bool pages_set = yl_get_int(root, "nr_hugepages", &pages, NULL) && pages != 0;
		if (bdevs || (y->rel->id != DAOS_2_6 && pages_set))
			yl_value_error(y, dh->loc, "remove disable_hugepages: SPDK drives NVMe through hugepages",
				    bdevs ? "hugepages cannot be disabled when engines have NVMe drives (FaultConfigHugepagesDisabledWithBdevs)"
					  : "hugepages cannot be disabled when nr_hugepages is set (FaultConfigHugepagesDisabledWithNrSet)");
	}
	const ynode *cm = ydoc_get(root, "control_metadata");
	if (cm && cm->kind == Y_MAP && yl_get_str(cm, "device") && *yl_get_str(cm, "device") && !yl_get_str(cm, "path"))
		yl_value_error(y, yl_key_loc(cm, "device"), "add `path: /var/daos/config`, the device's mount point",
			    "control_metadata.device needs control_metadata.path (FaultConfigControlMetadataNoPath)");
	check_fault_domain(y, root);
}

static void lint_server(ylint *y, const ynode *root)
{
	yl_check_keys(y, root, "SERVER");
	yl_check_keys(y, ydoc_get(root, "transport_config"), "TRANSPORT");
	yl_check_keys(y, ydoc_get(root, "control_metadata"), "CONTROL_METADATA");
	const char *name = yl_get_str(root, "name");
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
	const char *prov = yl_get_str(root, "provider");
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
	yl_check_env(y, NULL, ydoc_get(root, "client_env_vars"));
	yl_check_engines(y, root, engines);
	if (engines && engines->kind == Y_SEQ && (!y->topo || !y->mem_gib)) {
		/* skipped checks are said once, never passed in silence */
		diag *d = diag_report(y->dc, R_YAML_UNCHECKED, yl_key_loc(root, "engines"),
				      "not checked without the node's %s: %s", y->topo ? "memory size" : "topology",
				      y->topo ? "scm_size, nr_hugepages and system_ram_reserved against its RAM"
				      : y->mem_gib ? "engine cores, NIC and drive NUMA placement"
				      : "engine cores, NIC and drive NUMA placement, and scm_size, nr_hugepages and "
					"system_ram_reserved against its RAM");
		diag_help(y->dc, d, "%s", y->topo ? "add --mem-gib N, the node's memory in GiB"
			  : "add --topology node.xml (`lstopo --of xml` on the node)");
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
		y.mem_gib = (int64_t)(topo_total_memory(topo) / GiB);
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
		yl_lint_agent(&y, root);
	else
		lint_server(&y, root);
}
