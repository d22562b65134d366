/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "lint.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compiler/base/value.h"
#include "compiler/model/fabric.h"
#include "compiler/place/kube.h"
#include "compiler/place/node_os.h"
#include "compiler/place/place.h"
#include "client_lint.h"
#include "fabric_lint.h"
#include "kube_lint.h"
#include "os_lint.h"

/* ---- shared validators ------------------------------------------------- */

static bool in_list(const char *s, size_t n, const char *const *list, bool icase)
{
	for (const char *const *p = list; *p; p++)
		if (strlen(*p) == n && (icase ? strncasecmp(*p, s, n) : strncmp(*p, s, n)) == 0)
			return true;
	return false;
}

/* src/control/server/engine/utils.go: ValidateLogMasks */
const char *lint_engine_log_mask(const char *mask)
{
	static const char *const levels[] = {"DEBUG", "DBUG", "INFO", "NOTE", "WARN", "ERROR", "ERR", "CRIT",
		"ALRT", "FATAL", "EMRG", "EMIT", NULL};
	static const char *const subsystems[] = {"DAOS", "ARRAY", "KV", "COMMON", "TREE", "VOS", "CLIENT",
		"SERVER", "RDB", "RSVC", "POOL", "CONTAINER", "OBJECT", "PLACEMENT", "REBUILD", "MGMT", "BIO",
		"TESTS", "DFS", "DUNS", "DRPC", "SECURITY", "DTX", "DFUSE", "IL", "CSUM", "STACK", "MISC", "MEM",
		"SWIM", "FI", "TELEM", "CRT", "RPC", "BULK", "CORPC", "GRP", "LM", "HG", "EXTERNAL", "ST", "IV",
		"CTL", NULL};
	size_t len = strlen(mask);
	if (len == 0)
		return "the mask is empty";
	if (len > 1023)
		return "the mask is longer than 1023 characters";
	for (const char *p = mask; *p; p++)
		if (!(isalpha((unsigned char)*p) || *p == ',' || *p == '=' || *p == '_'))
			return "a mask has only letters, ',', '=' and '_'";
	const char *p = mask;
	bool first = true;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		if (!eq) {
			if (!first)
				return "only the first item may be a bare level; later ones are SUBSYS=LEVEL";
			if (!in_list(p, n, levels, true))
				return "unknown level (DEBUG, DBUG, INFO, NOTE, WARN, ERROR, ERR, CRIT, ALRT, FATAL, EMRG, EMIT)";
		} else {
			size_t sn = (size_t)(eq - p);
			if (!in_list(p, sn, subsystems, true))
				return "unknown subsystem before '='";
			if (!in_list(eq + 1, n - sn - 1, levels, true))
				return "unknown level after '='";
		}
		first = false;
		if (!end)
			break;
		p = end + 1;
		if (!*p)
			return "the mask ends with ','";
	}
	return NULL;
}

/* src/cart/crt_hg.c provider names; src/control/server/config/server.go:
 * one provider only. */
const char *lint_provider(const char *provider)
{
	static const char *const known[] = {"ofi+tcp", "ofi+tcp;ofi_rxm", "ofi+verbs;ofi_rxm", "ofi+verbs",
		"ofi+cxi", "ofi+opx", "sm", NULL};
	if (strchr(provider, ','))
		return "daos_server accepts a single provider (multi-provider is disabled)";
	if (strncmp(provider, "ucx+", 4) == 0 && provider[4])
		return NULL;
	if (!in_list(provider, strlen(provider), known, false))
		return "unknown provider";
	return NULL;
}

/* ---- cluster ------------------------------------------------------------ */

static const env_rule env_rules[] = {
	{"CRT_TIMEOUT", "use `crt_timeout <duration>` in the cluster block: daos_server overrides this entry",
	 "use the crt_timeout key: daos_server overrides this entry (0 when crt_timeout is unset)"},
	{"FI_OFI_RXM_USE_SRX", "leave SRX to daos_server (disable_srx): this entry reaches clients but not engines",
	 "use disable_srx: this entry reaches clients but engines always get daos_server's value"},
	{"D_LOG_MASK", "use `log_mask`: daos_server overrides this entry", "use the engine's log_mask key: daos_server overrides this entry"},
	{"D_PROVIDER", "use `provider` in the cluster block", "use the provider key"},
	{"D_INTERFACE", "use `nic <ifname>` in the engine block", "use fabric_iface"},
	{"D_PORT", "use `fabric_port`", "use fabric_iface_port"},
	{"FI_VERBS_GID_IDX", "use `fabric roce { gid_index <n> }`: it also reaches clients", NULL},
	{"SWIM_SUSPECT_TIMEOUT", "use `swim_suspect_timeout <duration>` in the cluster block", NULL},
	/* daos_server writes both from other settings and overwrites an entry
	 * (src/control/server/engine/config.go: log_file, storage class) */
	{"D_LOG_FILE", "use `log_file <path>` in the engine block: daos_server overwrites this entry",
	 "use the engine's log_file key: daos_server overwrites this entry"},
	{"VOS_BDEV_CLASS", "remove it: daos_server sets it from the engine's storage class", "remove it: daos_server sets it from the storage class"},
};

const env_rule *lint_env_reserved(const char *name, size_t len)
{
	for (size_t k = 0; k < sizeof(env_rules) / sizeof(env_rules[0]); k++)
		if (strlen(env_rules[k].name) == len && strncmp(env_rules[k].name, name, len) == 0)
			return &env_rules[k];
	return NULL;
}

void lint_log_mask_finding(diag_ctx *dc, const char *mask, src_loc loc, const char *debug_msg)
{
	const char *why = lint_engine_log_mask(mask);
	if (why) {
		diag *d = diag_report(dc, R_LOG_MASK, loc, "log_mask '%s': %s", mask, why);
		diag_help(dc, d, "write a level such as ERR, optionally followed by SUBSYS=LEVEL items: ERR,MGMT=DEBUG");
	} else if (strncasecmp(mask, "DEBUG", 5) == 0 || strncasecmp(mask, "DBUG", 4) == 0) {
		diag *d = diag_report(dc, R_LOG_MASK_DEBUG, loc, "%s", debug_msg);
		diag_help(dc, d, "use ERR, and DEBUG only for the subsystem under study: ERR,MGMT=DEBUG");
	}
}

/* DD_MASK=io,mgmt / DD_SUBSYS=vos,pool: names from DAOS's lists, as
 * daos_server checks them before it starts; an empty value is unset. */
bool lint_env_names_finding(diag_ctx *dc, const char *name, size_t len, const char *value, src_loc loc)
{
	static const struct {
		const char *var;
		const char *const *names;
		const char *what;
	} vars[] = {
		{"DD_MASK", daos_debug_streams, "debug stream"},
		{"DD_SUBSYS", daos_log_subsystems, "log subsystem"},
	};
	for (size_t k = 0; k < sizeof(vars) / sizeof(vars[0]); k++) {
		if (strlen(vars[k].var) != len || strncmp(vars[k].var, name, len) != 0)
			continue;
		size_t n;
		const char *const *names = vars[k].names;
		const char *bad = *value ? daos_names_unknown(names, value, &n) : NULL;
		if (bad) {
			diag *d = diag_report(dc, R_LOG_MASK, loc, "%s: '%.*s' is not a %s DAOS knows", vars[k].var, (int)n, bad,
					      vars[k].what);
			diag_help(dc, d, "use names such as %s, %s, %s (comma-separated, no spaces)", names[1], names[2], names[3]);
		}
		return true;
	}
	return false;
}

static void check_log_mask(model *m, const opt_str *mask, const char *debug_msg)
{
	if (mask->set)
		lint_log_mask_finding(m->dc, mask->v, mask->loc, debug_msg);
}

/* A storage NIC the topology export shows as RoCE: an Ethernet port with an
 * RDMA device, carrying the fabric of some node type. NULL when none. An
 * engine whose NUMA node also has an IB port (nic-ambiguous) is that
 * finding's: the fabric is not known yet. */
static const nic_desc *roce_nic(const model *m)
{
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_plan *p = m->specs[i]->plan;
		for (int k = 0; p && p->ok && k < place_fabric_nic_count(p); k++) {
			const nic_desc *n = place_fabric_nic(p, k);
			if (!p->client && p->engines[k].nic_ambiguous)
				continue;
			if (n && n->rdma && n->link && strcmp(n->link, TOPO_LINK_ETHERNET) == 0)
				return n;
		}
	}
	return NULL;
}

/* What picking the index needs (the converged talk's gid_index 3). */
static void gid_boot_note(diag_ctx *dc, diag *d)
{
	diag_note_at(dc, d, SRC_LOC_NONE, "pick an index that holds the RoCE v2 IPv4 GID right after boot "
		     "(/sys/class/infiniband/<dev>/ports/1/gid_attrs/types/<n>): one that appears only after "
		     "reloading mlx5_ib costs a reload on every boot, and a reload resets every RDMA user (NCCL jobs)");
}

/* RoCE, declared (`fabric roce`) or seen in the export: a GID index for
 * verbs, no ucx+dc_x on DAOS 2.6, and a note on what a fixed index needs. */
static void lint_roce(model *m)
{
	diag_ctx *dc = m->dc;
	const cluster_spec *c = &m->cluster;
	bool declared = c->fabric_kind.set && strcmp(c->fabric_kind.v, "roce") == 0;
	const nic_desc *seen = declared || c->fabric_kind.set ? NULL : roce_nic(m);
	bool verbs = c->provider.set && strncmp(c->provider.v, "ofi+verbs", 9) == 0;
	if (declared && !c->gid_index.set) {
		diag *d = diag_report(dc, R_ROCE_GID_INDEX, c->fabric_kind.loc, "RoCE without a GID index: libfabric uses GID 0");
		gid_boot_note(dc, d);
		diag_help(dc, d, "write `fabric roce { gid_index <n> }` with the storage NICs' RoCE v2 IPv4 GID index");
	} else if (seen && verbs && !c->gid_index.set) {
		diag *d = diag_report(dc, R_ROCE_GID_INDEX, c->provider.loc,
				      "%s (%s) is an Ethernet port with an RDMA device: RoCE, and libfabric uses GID 0", seen->name,
				      seen->rdma);
		gid_boot_note(dc, d);
		diag_help(dc, d, "write `fabric roce { gid_index <n> }` in the cluster block with the storage NICs' RoCE v2 "
			  "IPv4 GID index");
	}
	if ((declared || seen) && c->provider.set && strncmp(c->provider.v, "ucx+dc", 6) == 0 && m->release &&
	    strcmp(m->release->name, "2.6") == 0) {
		diag *d = diag_report(dc, R_UCX_DC_ROCE, c->provider.loc,
				      "provider %s on RoCE with DAOS 2.6 hits DAOS-18828 (a DC wireup race)", c->provider.v);
		diag_help(dc, d, "use `provider \"ofi+verbs;ofi_rxm\"`");
	}
}

/* Access points that run no engine, one finding: each replaced, as a fix,
 * by the next node with engines the list does not name yet. */
static void access_points_clients(model *m, const ap_entry **clients, size_t n, strmap *listed)
{
	diag_ctx *dc = m->dc;
	char names[256] = "";
	for (size_t i = 0; i < n; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "", clients[i]->host);
	diag *d = diag_report(dc, R_ACCESS_POINT_CLIENT, clients[0]->loc, "access point%s %s run%s no engine: %s client-only node%s",
			      n == 1 ? "" : "s", names, n == 1 ? "s" : "", n == 1 ? "it is a" : "they are", n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		diag_note_at(dc, d, model_node(m, clients[i]->host)->loc, "%s is defined here", clients[i]->host);
	char with[256] = "";
	size_t used = 0;
	for (size_t i = 0; i < m->nnodes && used < n; i++) {
		const node *nd = &m->nodes[i];
		if (!nd->spec || !nd->spec->plan || nd->spec->plan->client || !nd->spec->plan->nengines ||
		    strmap_get(listed, nd->host))
			continue;
		snprintf(with + strlen(with), sizeof(with) - strlen(with), "%s%s", used ? ", " : "", nd->host);
		diag_fix_name(dc, d, clients[used]->loc, clients[used]->host, nd->host);
		used++;
	}
	if (used == n)
		diag_help(dc, d, "name nodes with engines instead: %s", with);
	else
		diag_help(dc, d, "name nodes with engines in access_points");
}

static void lint_cluster(model *m)
{
	const cluster_spec *c = &m->cluster;
	diag_ctx *dc = m->dc;
	if (!c->defined)
		return;
	size_t nl = strlen(c->name);
	bool name_ok = nl >= 1 && nl <= 15;
	for (size_t i = 0; i < nl; i++)
		name_ok &= isalnum((unsigned char)c->name[i]) || c->name[i] == '-' || c->name[i] == '_';
	if (!name_ok) {
		diag *d = diag_report(dc, R_SYSTEM_NAME, c->name_loc,
				      "'%s' is not a valid DAOS system name (1-15 letters, digits, '-' or '_')", c->name);
		/* the name cut to 15 bytes, every other byte made '_': a name the rule accepts */
		char fixed[16];
		size_t k = 0;
		for (size_t i = 0; i < nl && k < 15; i++)
			fixed[k++] = isalnum((unsigned char)c->name[i]) || c->name[i] == '-' ? c->name[i] : '_';
		fixed[k] = 0;
		if (!k)
			snprintf(fixed, sizeof(fixed), "daos_server");
		diag_help(dc, d, "rename the cluster, e.g. `cluster %s {`", fixed);
	}
	if (!c->provider.set) {
		diag *d = diag_report(dc, R_PROVIDER, c->name_loc, "the cluster has no fabric provider");
		diag_help(dc, d, "add `provider \"ofi+verbs;ofi_rxm\"` (RoCE/InfiniBand) or `provider \"ofi+tcp;ofi_rxm\"`");
	} else {
		const char *why = lint_provider(c->provider.v);
		if (why) {
			diag *d = diag_report(dc, R_PROVIDER, c->provider.loc, "provider '%s': %s", c->provider.v, why);
			diag_help(dc, d, "use one of ofi+verbs;ofi_rxm, ofi+tcp;ofi_rxm, ofi+tcp, ofi+cxi, ofi+opx, "
				  "ucx+<transport> (quoted: ';' ends a statement)");
		}
	}
	if (c->crt_timeout_ms.set && c->crt_timeout_ms.v % 1000) {
		diag *d = diag_report(dc, R_BAD_VALUE, c->crt_timeout_ms.loc, "crt_timeout is whole seconds");
		diag_help(dc, d, "write `crt_timeout %llds`", (long long)(c->crt_timeout_ms.v / 1000 + 1));
	}
	if (c->system_ram_reserved.set && c->system_ram_reserved.v % (int64_t)GiB) {
		diag *d = diag_report(dc, R_BAD_VALUE, c->system_ram_reserved.loc, "system_ram_reserved is whole GiB");
		diag_help(dc, d, "write `system_ram_reserved %lldGiB`",
			  (long long)(c->system_ram_reserved.v / (int64_t)GiB + 1));
	}
	check_log_mask(m, &c->log_mask, "every engine of the cluster logs at DEBUG");
	/* the checks above read one value each, which is set only when it was
	 * read right; those below read several, one of which may be wrong */
	if (c->tainted)
		return;

	lint_roce(m);

	/* access points */
	if (!c->aps_set || c->naps == 0) {
		diag *d = diag_report(dc, R_ACCESS_POINTS_COUNT, c->name_loc, "the cluster names no access points");
		diag_help(dc, d, "add `access_points <3 nodes>`, e.g. the first three: access_points gpu[001-003]");
		return;
	}
	strmap seen;
	strmap_init(&seen, m->ar);
	const ap_entry **clients = NULL; /* client-only access points: one finding names them all */
	size_t nclients = 0, clients_cap = 0;
	for (size_t i = 0; i < c->naps; i++) {
		const ap_entry *ap = &c->aps[i];
		const ap_entry *prev = strmap_put(&seen, ap->host, (void *)ap);
		if (prev) {
			diag *d = diag_report(dc, R_ACCESS_POINTS_DUPLICATE, ap->loc, "access point %s is listed twice", ap->host);
			diag_note_at(dc, d, prev->loc, "first listed here");
			diag_help(dc, d, "list each node once");
		}
		const node *apn = model_node(m, ap->host);
		if (apn && apn->spec && apn->spec->plan && apn->spec->plan->client)
			ARENA_PUSH(m->ar, clients, nclients, clients_cap, ap);
		if (!apn && !m->nodes_incomplete) {
			const char *sug = model_suggest_node(m, ap->host);
			diag *d = diag_report(dc, R_ACCESS_POINTS_UNKNOWN, ap->loc, "access point %s is not a node of the cluster",
					      ap->host);
			if (sug) {
				diag_help(dc, d, "did you mean '%s'?", sug);
				diag_fix_name(dc, d, ap->loc, ap->host, model_suggest_node_unique(m, ap->host));
			} else
				diag_help(dc, d, "name nodes defined by `nodes` blocks");
		}
	}
	if (nclients)
		access_points_clients(m, clients, nclients, &seen);
	if (c->naps % 2 == 0) {
		diag *d = diag_report(dc, R_ACCESS_POINTS_COUNT, c->aps_loc,
				      "%zu access points: DAOS needs an odd number", c->naps);
		diag_help(dc, d, "use %zu (or %zu) access points; a Raft group of %zu tolerates no more failures than %zu",
			  c->naps - 1, c->naps + 1, c->naps, c->naps - 1);
	}
}

static void lint_env(model *m, const env_list *env)
{
	for (size_t i = 0; i < env->n; i++) {
		const env_entry *e = &env->items[i];
		const env_rule *r = lint_env_reserved(e->name, strlen(e->name));
		if (r) {
			diag *d = diag_report(m->dc, R_ENV_RESERVED, e->loc, "%s is set through env", r->name);
			diag_help(m->dc, d, "%s", r->dsl_fix);
		} else {
			lint_env_names_finding(m->dc, e->name, strlen(e->name), e->value, e->loc);
		}
	}
}

/* ---- per plan ------------------------------------------------------------ */

/* DAOS's own limit on every engine's RAM SCM (CalcRamdiskSize): the
 * machine's memory shared equally, whatever the NUMA nodes hold. */
static void lint_ramdisk_max(model *m, const node_plan *p)
{
	uint64_t max;
	char formula[256];
	const engine_plan *ep = place_ramdisk_over(m, p, topo_total_memory(p->topo), &max, formula, sizeof(formula));
	if (!ep)
		return;
	diag *d = diag_report(m->dc, R_MEMORY_OVERCOMMIT, ep->spec->scm_size.loc,
			      "scm_size %llu GiB is over the %llu GiB DAOS allows each engine on this node",
			      (unsigned long long)(ep->scm_bytes / GiB), (unsigned long long)(max / GiB));
	diag_note_at(m->dc, d, SRC_LOC_NONE, "DAOS computes %s", formula);
	diag_help(m->dc, d, "write `scm ram %lluGiB` or less (FaultConfigRamdiskOverMaxMem)", (unsigned long long)(max / GiB));
	diag_fix_edit(m->dc, d, ep->spec->scm_size.loc, "%lluGiB", (unsigned long long)(max / GiB));
}

static void lint_memory(model *m, const node_plan *p)
{
	diag_ctx *dc = m->dc;
	const topology *t = p->topo;
	uint64_t rsv_share = place_reserved_bytes(m) / (uint64_t)t->nnuma;
	for (int i = 0; i < p->nengines; i++) {
		const engine_plan *ep = &p->engines[i];
		const engine_spec *e = ep->spec;
		if (!ep->placed)
			continue;
		uint64_t mem = t->numa[ep->numa].memory;
		uint64_t hp = place_hugepages_on(p, ep->numa);
		if (e->scm_class.set && !e->scm_size.set && strcmp(e->scm_class.v, "ram") == 0) {
			diag *d = diag_report(dc, R_SCM_SIZE_UNPINNED, e->scm_class.loc,
					      "RAM-backed SCM without a size: daos_server would give it all free memory");
			uint64_t sug = place_scm_proposal_gib(m, p, ep->numa, hp);
			if (sug) {
				diag_help(dc, d, "pin it: `scm ram %lluGiB` keeps 7/8 of NUMA node %d's %llu GiB for the OS, "
					  "hugepages and workloads; size it for your metadata",
					  (unsigned long long)sug, ep->numa, (unsigned long long)(mem / GiB));
				diag_fix_edit(dc, d, e->scm_class.loc, "scm ram %lluGiB", (unsigned long long)sug);
			} else {
				diag_help(dc, d, "pin it: `scm ram <N>GiB` (describe the NUMA node's memory to get a proposal)");
			}
		}
		if (e->scm_size.set && ep->scm_bytes < 4 * GiB) {
			diag *d = diag_report(dc, R_SCM_SIZE_SMALL, e->scm_size.loc, "scm_size %llu GiB is under DAOS's 4 GiB minimum",
					      (unsigned long long)(ep->scm_bytes / GiB));
			diag_help(dc, d, "write `scm ram 4GiB` or more");
			diag_fix_edit(dc, d, e->scm_size.loc, "4GiB"); /* (the size alone: its loc is the value) */
		}
	}
	if (!p->ok)
		return; /* budgets of a plan that could not be placed mislead */
	if (p->nengines && p->hugepage_bytes) {
		for (int i = 0; i < p->nengines; i++) {
			const engine_plan *ep = &p->engines[i];
			uint64_t per_target = p->hugepage_bytes / (uint64_t)p->nengines / (uint64_t)ep->targets;
			if (ep->nnvmes && per_target < 256 * MiB) {
				const node_spec *s = p->spec;
				diag *d = diag_report(dc, R_HUGEPAGES_PER_TARGET, s->hugepages.set ? s->hugepages.loc : ep->spec->loc,
						      "%llu MiB of hugepages per target; engines need at least 256 MiB",
						      (unsigned long long)(per_target / MiB));
				unsigned long long gib = (256 * MiB * (uint64_t)ep->targets * (uint64_t)p->nengines + GiB - 1) / GiB;
				diag_help(dc, d, "write `hugepages %lluGiB` or more, or drop it to use DAOS's minimum", gib);
				if (s->hugepages.set)
					diag_fix_edit(dc, d, s->hugepages.loc, "hugepages %lluGiB", gib);
				break;
			}
		}
	}
	lint_ramdisk_max(m, p);
	/* Per NUMA node only where memory is bound to it: pinned engines. In
	 * first_core mode DAOS sets no NUMA affinity, and the machine-wide limit
	 * above is the one that applies. */
	if (!p->pinned_mode)
		return;
	for (int n = 0; n < t->nnuma; n++) {
		uint64_t mem = t->numa[n].memory;
		if (!mem)
			continue;
		numa_need nd = place_numa_need(m, p, n);
		uint64_t scm = nd.scm, hp = nd.hugepages, engine_rsvd = nd.engine_reserve, need = nd.total;
		const engine_plan *on = nd.engine;
		if (need > mem) {
			src_loc where = on && on->spec->scm_size.set ? on->spec->scm_size.loc
				: p->spec->hugepages.set ? p->spec->hugepages.loc : p->spec->hw->name_loc;
			diag *d = diag_report(dc, R_MEMORY_OVERCOMMIT, where,
					      "NUMA node %d needs %llu GiB (SCM %llu + hugepages %llu + reserved %llu + engine reserve %llu) "
					      "but has %llu GiB",
					      n, (unsigned long long)(need / GiB), (unsigned long long)(scm / GiB),
					      (unsigned long long)(hp / GiB), (unsigned long long)(rsv_share / GiB),
					      (unsigned long long)(engine_rsvd / GiB), (unsigned long long)(mem / GiB));
			diag_note_at(dc, d, SRC_LOC_NONE, "DAOS keeps max(targets x 128 MiB, 1 GiB) per engine beside its SCM "
				     "(CalcRamdiskSize)");
			if (mem > hp + rsv_share + engine_rsvd)
				diag_help(dc, d, "lower the SCM size or hugepages so they fit in %llu GiB",
					  (unsigned long long)((mem - hp - rsv_share - engine_rsvd) / GiB));
			else
				diag_help(dc, d, "hugepages and this node's share of system_ram_reserved (%llu GiB of %llu) "
					  "already exceed its memory: lower `system_ram_reserved` in the cluster block, "
					  "or describe the real memory", (unsigned long long)(rsv_share / GiB),
					  (unsigned long long)(place_reserved_bytes(m) / GiB));
		}
	}
}

/* The engine statements of the NUMA nodes whose engines have drives, for a
 * help line: "`engine numa 0 { ... }` and `engine numa 2 { ... }`". */
static const char *drive_numas(model *m, const node_plan *p)
{
	const char *list = NULL;
	for (int i = 0; i < p->nengines; i++)
		if (p->engines[i].placed && p->engines[i].nnvmes)
			list = list ? arena_printf(m->ar, "%s and `engine numa %d { ... }`", list, p->engines[i].numa)
				    : arena_printf(m->ar, "`engine numa %d { ... }`", p->engines[i].numa);
	return list;
}

/* A drive of the node's NUMA node that the spec excludes, or NULL. */
static const pci_ref *exclusion_on(const node_spec *s, int numa)
{
	for (size_t i = 0; i < s->nexcluded; i++)
		for (size_t j = 0; j < s->hw->nnvmes; j++)
			if (s->hw->nvmes[j].numa == numa && strcmp(s->hw->nvmes[j].pci, s->excluded[i].pci) == 0)
				return &s->excluded[i];
	return NULL;
}

/* A tier's roles list with `drop` left out and `add` appended ("[wal]",
 * "[meta data]"): the exact text of a roles fix. */
static const char *roles_text(arena *ar, const tier_spec *t, const char *drop, const char *add)
{
	const char *s = "[";
	for (int r = 0; r < t->nroles; r++)
		if (!drop || strcmp(t->roles[r], drop))
			s = arena_printf(ar, "%s%s%s", s, s[1] ? " " : "", t->roles[r]);
	if (add)
		s = arena_printf(ar, "%s%s%s", s, s[1] ? " " : "", add);
	return arena_printf(ar, "%s]", s);
}

/* A tier with wal and data needs meta too (FaultBdevConfigRolesWalDataNoMeta).
 * The fix: meta joins this tier when no other tier has it; else data moves
 * to meta's tier (wal | meta data, one of DAOS's documented layouts). */
static void wal_data_no_meta(model *m, const engine_spec *e, const tier_spec *t)
{
	diag *d = diag_report(m->dc, R_BDEV_ROLES, t->roles_loc, "a tier with wal and data needs meta too");
	const tier_spec *meta = NULL;
	for (int i = 0; i < e->ntiers; i++)
		if (&e->tiers[i] != t && place_tier_has(&e->tiers[i], "meta"))
			meta = &e->tiers[i];
	if (!meta) {
		const char *all = roles_text(m->ar, t, NULL, "meta");
		diag_help(m->dc, d, "write `nvme tier %s` (FaultBdevConfigRolesWalDataNoMeta)", all);
		diag_fix_edit(m->dc, d, t->roles_loc, "%s", all);
		return;
	}
	const char *here = roles_text(m->ar, t, "data", NULL), *there = roles_text(m->ar, meta, NULL, "data");
	diag_note_at(m->dc, d, meta->roles_loc, "meta is in this tier");
	diag_help(m->dc, d, "move data to meta's tier: `nvme tier %s` here and `nvme tier %s` there "
		  "(FaultBdevConfigRolesWalDataNoMeta)", here, there);
	diag_fix_edit(m->dc, d, t->roles_loc, "%s", here);
	diag_fix_edit(m->dc, d, meta->roles_loc, "%s", there);
}

/* Counts a tier's roles; false when it reported. Unknown and repeated names
 * never get here: they are errors as the roles are read (keywords.c), and
 * the spec is then not placed. */
static bool tier_roles_ok(model *m, const engine_spec *e, const tier_spec *t, int count[3])
{
	bool seen[3] = {false, false, false};
	for (int r = 0; r < t->nroles; r++)
		for (int k = 0; k < 3; k++)
			if (strcmp(t->roles[r], model_bdev_roles[k]) == 0 && !seen[k]) {
				seen[k] = true;
				count[k]++;
			}
	if (e->tiers_split && seen[0] && seen[2] && !seen[1]) {
		wal_data_no_meta(m, e, t);
		return false;
	}
	return true;
}

/* DAOS's validateBdevRoles over the engine's tiers, at their lines. */
static void lint_roles(model *m, const node_plan *p, const engine_plan *ep)
{
	diag_ctx *dc = m->dc;
	const engine_spec *e = ep->spec;
	if (!e->ntiers)
		return;
	if (ep->scm_class && strcmp(ep->scm_class, "dcpm") == 0) {
		for (int t = 0; t < e->ntiers; t++)
			if (e->tiers[t].nroles) {
				diag *d = diag_report(dc, R_BDEV_ROLES, e->tiers[t].roles_loc, "MD-on-SSD roles with PMem SCM: DAOS refuses "
						      "them (FaultBdevConfigRolesWithDCPM)");
				diag_note_at(dc, d, e->scm_class.loc, "the SCM is PMem here");
				diag_help(dc, d, "drop the roles (PMem holds the metadata), or use `scm ram <size>` for MD-on-SSD");
				return;
			}
	}
	int count[3] = {0, 0, 0}, bare = 0;
	for (int t = 0; t < e->ntiers; t++) {
		if (!tier_roles_ok(m, e, &e->tiers[t], count))
			return;
		bare += e->tiers[t].nroles == 0;
	}
	if (bare == e->ntiers && e->ntiers == 1)
		return; /* `nvme tier []`: one tier, no MD-on-SSD */
	if (bare) {
		const tier_spec *t = e->tiers;
		while (t->nroles)
			t++;
		diag *d;
		if (bare == e->ntiers) {
			d = diag_report(dc, R_BDEV_ROLES, t->roles_loc, "%d NVMe tiers without MD-on-SSD roles", bare);
			diag_help(dc, d, "give the tiers roles, or make them one tier (FaultBdevConfigMultiTiersWithoutRoles)");
		} else {
			d = diag_report(dc, R_BDEV_ROLES, t->roles_loc, "this tier has no roles, and another has");
			diag_help(dc, d, "give every tier roles (FaultBdevConfigRolesMissing)");
		}
		return;
	}
	if (e->ntiers > 3) {
		diag *d = diag_report(dc, R_BDEV_ROLES, e->tiers[3].loc, "MD-on-SSD takes at most 3 NVMe tiers");
		diag_help(dc, d, "merge two tiers: `nvme tier [meta data]` holds both roles "
			  "(FaultBdevConfigBadNrTiersWithRoles)");
		return;
	}
	for (int k = 0; k < 3; k++) {
		if (count[k] == 1)
			continue;
		diag *d;
		if (!e->tiers_split) {
			d = diag_report(dc, R_BDEV_ROLES, e->tiers[0].roles_loc, "one NVMe tier needs the roles wal, meta and data, each once");
			diag_help(dc, d, "write `nvme roles [wal meta data]`");
			diag_fix_edit(dc, d, e->tiers[0].roles_loc, "[wal meta data]");
		} else if (count[k] == 0) {
			d = diag_report(dc, R_BDEV_ROLES, e->tiers[e->ntiers - 1].roles_loc, "no tier has the role %s", model_bdev_roles[k]);
			diag_help(dc, d, "add %s to one tier's roles (FaultBdevConfigBadNrRoles)", model_bdev_roles[k]);
		} else {
			const tier_spec *two[2] = {NULL, NULL};
			for (int t = 0, n = 0; t < e->ntiers && n < 2; t++)
				if (place_tier_has(&e->tiers[t], model_bdev_roles[k]))
					two[n++] = &e->tiers[t];
			d = diag_report(dc, R_BDEV_ROLES, two[1]->roles_loc, "%d tiers have the role %s", count[k], model_bdev_roles[k]);
			diag_note_at(dc, d, two[0]->roles_loc, "%s is in this tier too", model_bdev_roles[k]);
			diag_help(dc, d, "keep %s in one tier (FaultBdevConfigBadNrRoles)", model_bdev_roles[k]);
		}
		return;
	}
	if (ep->nnvmes)
		return;
	src_loc roles_loc = e->tiers[0].roles_loc;
	diag *d = diag_report(dc, R_ENGINE_NO_NVME, roles_loc,
			      "MD-on-SSD roles, but the engine on NUMA node %d has no NVMe drive", ep->numa);
	const char *with = drive_numas(m, p);
	const pci_ref *ex = exclusion_on(p->spec, ep->numa);
	if (ex)
		diag_note_at(dc, d, ex->loc, "%s excludes the drives of NUMA node %d", p->spec->origin, ep->numa);
	if (e->per_numa && with)
		diag_help(dc, d, "declare engines only where the drives are: %s in place of "
			  "`engine per numa`%s, or drop the roles", with, ex ? ", or stop excluding them" : "");
	else if (ex)
		diag_help(dc, d, "stop excluding the drives of NUMA node %d in %s, or drop the roles", ep->numa,
			  p->spec->origin);
	else
		diag_help(dc, d, "describe the NUMA node's drives (`nvme <pci>...` in its numa block) or drop the roles");
}

static void lint_engines(model *m, const node_plan *p)
{
	diag_ctx *dc = m->dc;
	int cap = m->release ? m->release->ctx_cap : 64;
	const engine_plan *first = NULL;
	for (int i = 0; i < p->nengines; i++) {
		const engine_plan *ep = &p->engines[i];
		const engine_spec *e = ep->spec;
		if (!ep->placed)
			continue;
		int ctx = 2 + ep->targets + (ep->helpers < ep->targets ? ep->helpers : ep->targets);
		if (ctx > cap) {
			diag *d = diag_report(dc, R_ENGINE_CONTEXT_CAP, e->targets.loc,
					      "the engine needs %d network contexts (2 + %d targets + %d helpers); DAOS %s allows %d",
					      ctx, ep->targets, ep->helpers < ep->targets ? ep->helpers : ep->targets,
					      m->release ? m->release->name : "2.6", cap);
			int fit = place_targets_fit(e->helpers.set ? ep->helpers : -1, ep->ncores, cap);
			if (fit && e->targets.set) {
				diag_help(dc, d, "write `targets %d` (2 + targets + min(helpers, targets) <= %d)", fit, cap);
				diag_fix_edit(dc, d, e->targets.loc, "targets %d", fit);
			} else {
				diag_help(dc, d, "lower targets and helpers so that 2 + targets + min(helpers, targets) <= %d", cap);
			}
		}
		if (ep->helpers > 2 * ep->targets) {
			diag *d = diag_report(dc, R_HELPERS_CLAMPED, e->helpers.loc,
					      "%d helpers for %d targets: the engine uses at most %d", ep->helpers,
					      ep->targets, 2 * ep->targets);
			diag_help(dc, d, "write `helpers %d` or fewer", 2 * ep->targets);
			diag_fix_edit(dc, d, e->helpers.loc, "helpers %d", 2 * ep->targets);
		}
		check_log_mask(m, &e->log_mask, "engine log mask DEBUG");
		lint_roles(m, p, ep);
		lint_env(m, &e->env);
		if (!first) {
			first = ep;
			continue;
		}
		if (ep->targets != first->targets || ep->helpers != first->helpers) {
			bool t = ep->targets != first->targets;
			const opt_int *o = t ? &e->targets : &e->helpers;
			diag *d = diag_report(dc, R_ENGINE_MISMATCH, o->set ? o->loc : e->loc,
					      "the engine on NUMA node %d has %d %s, the one on NUMA node %d has %d", ep->numa,
					      t ? ep->targets : ep->helpers, t ? "targets" : "helpers", first->numa,
					      t ? first->targets : first->helpers);
			diag_help(dc, d, "give every engine of a node the same targets and helpers");
		}
		/* an engine without drives has its own findings (engine-no-nvme,
		 * md-on-ssd-mixed) */
		if (ep->nnvmes != first->nnvmes && ep->nnvmes && first->nnvmes) {
			diag *d = diag_report(dc, R_NVME_COUNT_UNEQUAL, e->loc,
					      "the engine on NUMA node %d has %d drive%s, the one on NUMA node %d has %d: DAOS starts "
					      "with a notice (code 714) and pools get the smaller engine's share", ep->numa, ep->nnvmes,
					      ep->nnvmes == 1 ? "" : "s", first->numa, first->nnvmes);
			diag_help(dc, d, "give each engine the same number of drives, or accept the smaller usable capacity");
		}
	}
	lint_env(m, &p->spec->env);
}

/* MD-on-SSD is all engines of a server or none (md-on-ssd-mixed). An engine
 * with roles and no drive is engine-no-nvme's, found above. */
static void lint_md_on_ssd(model *m, const node_plan *p)
{
	const engine_plan *md = NULL;
	for (int i = 0; i < p->nengines && !md; i++)
		if (p->engines[i].placed && p->engines[i].nnvmes && place_has_meta(&p->engines[i]))
			md = &p->engines[i];
	for (int i = 0; md && i < p->nengines; i++) {
		const engine_plan *ep = &p->engines[i];
		const engine_spec *e = ep->spec;
		/* roles of its own: bdev-roles or engine-no-nvme judge them */
		if (!ep->placed || e->ntiers)
			continue;
		if (ep->nnvmes) {
			diag *d = diag_report(m->dc, R_MD_ON_SSD_MIXED, e->loc,
					      "the engine on NUMA node %d has NVMe drives but no MD-on-SSD roles, and the engine on "
					      "NUMA node %d has them: DAOS refuses the server (code 317)", ep->numa, md->numa);
			diag_note_at(m->dc, d, md->spec->tiers[0].roles_loc, "the roles are given here");
			diag_help(m->dc, d, "add `nvme roles [wal meta data]` to this engine's block, or drop the roles");
			continue;
		}
		diag *d = diag_report(m->dc, R_MD_ON_SSD_MIXED, e->loc,
				      "the engine on NUMA node %d has no NVMe drive, and the engine on NUMA node %d uses MD-on-SSD: "
				      "DAOS refuses the server (code 317)", ep->numa, md->numa);
		diag_note_at(m->dc, d, md->spec->tiers[0].roles_loc, "the roles are given here");
		const pci_ref *ex = exclusion_on(p->spec, ep->numa);
		if (ex)
			diag_note_at(m->dc, d, ex->loc, "%s excludes the drives of NUMA node %d", p->spec->origin, ep->numa);
		if (e->per_numa)
			diag_help(m->dc, d, "declare engines only where the drives are: %s in place of "
				  "`engine per numa`, or drop the roles", drive_numas(m, p));
		else
			diag_help(m->dc, d, "remove `engine numa %d`%s, or drop the roles", ep->numa,
				  ex ? " or stop excluding its drives" : "");
	}
}

/* A fabric NIC without its libfabric domain keeps fabric_ifaces out of the
 * node's daos_agent.yml (daos_agent.c): said at the NIC's line, with the
 * Slingshot pairing hsnN -> cxiN proposed where it applies. */
static void lint_fabric_domains(model *m, const node_plan *p)
{
	fabric_need f = fabric_need_of(&m->cluster);
	if (!f.domain)
		return;
	for (int i = 0; i < place_fabric_nic_count(p); i++) {
		const nic_desc *n = place_fabric_nic(p, i);
		if (!n || n->rdma)
			continue;
		src_loc at = n->loc.file ? n->loc : p->spec->hw->name_loc;
		diag *d = diag_report(m->dc, R_FABRIC_DOMAIN_UNKNOWN, at,
				      "the %s domain of %s (a device such as %s) is not known: daos_agent.yml gets no "
				      "fabric_ifaces on the nodes with this NIC",
				      m->cluster.provider.set ? m->cluster.provider.v : "fabric", n->name, f.domain);
		const char *digits = strncmp(n->name, "hsn", 3) == 0 && n->name[3] ? n->name + 3 : NULL;
		if (digits && strspn(digits, "0123456789") == strlen(digits) && strcmp(f.domain, "cxi0") == 0) {
			diag_help(m->dc, d, "write `rdma cxi%s` on %s's line (Slingshot pairs hsnN with cxiN: ls /sys/class/cxi)",
				  digits, n->name);
			src_loc end = n->loc;
			end.start = end.end; /* one more setting at the end of the NIC's line */
			if (n->loc.file)
				diag_fix_edit(m->dc, d, end, " rdma cxi%s", digits);
		} else
			diag_help(m->dc, d, "name its device on the NIC's line: `rdma %s` (ls /sys/class/infiniband, /sys/class/cxi)",
				  f.domain);
	}
}

/* class ram without MD-on-SSD: the pool metadata is in tmpfs (a note, once
 * per node type, at the first such engine's scm line). */
static void lint_scm_volatile(model *m, const node_plan *p)
{
	for (int i = 0; i < p->nengines; i++) {
		const engine_plan *ep = &p->engines[i];
		if (!ep->placed || !ep->scm_class || strcmp(ep->scm_class, "ram") != 0 || place_has_meta(ep))
			continue;
		const engine_spec *e = ep->spec;
		diag *d = diag_report(m->dc, R_SCM_RAM_VOLATILE, e->scm_class.set ? e->scm_class.loc : e->loc,
				      "the engine on NUMA node %d keeps its pool metadata in tmpfs (scm ram without MD-on-SSD): "
				      "a reboot loses it", ep->numa);
		diag_help(m->dc, d, "add `nvme roles [wal meta data]` to the engine for MD-on-SSD, or use `scm pmem`");
		return;
	}
}

/* One MTU for the whole storage fabric, whatever the node type. */
static void lint_fabric_mtu(model *m)
{
	const node_spec *first = NULL;
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		if (!s->network.set)
			continue;
		int64_t mtu = s->network.storage_mtu.set ? s->network.storage_mtu.v : 9000;
		if (!first) {
			first = s;
			continue;
		}
		int64_t f = first->network.storage_mtu.set ? first->network.storage_mtu.v : 9000;
		if (mtu != f) {
			diag *d = diag_report(m->dc, R_NETWORK_MTU, s->network.storage_mtu.set ? s->network.storage_mtu.loc : s->network.loc,
					      "storage MTU %lld here, %lld for %s", (long long)mtu, (long long)f, first->origin);
			diag_note_at(m->dc, d, first->network.storage_mtu.set ? first->network.storage_mtu.loc : first->network.loc,
				     "the other MTU is set here");
			diag_help(m->dc, d, "use one storage MTU (9000) for every node of the fabric");
		}
	}
}

void lint_model(model *m)
{
	lint_cluster(m);
	lint_fabric_mtu(m);
	lint_env(m, &m->cluster.env);
	kube_lint_cluster(m);
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_plan *p = m->specs[i]->plan;
		if (!p || !p->topo) {
			/* not placed (something else in it is wrong): the rules that
			 * read one value each still run */
			node_os_lint_values(m, m->specs[i]);
			lint_env(m, &m->specs[i]->env);
			for (int k = 0; k < MODEL_MAX_NUMA; k++)
				if (m->specs[i]->eng[k])
					lint_env(m, &m->specs[i]->eng[k]->env);
			continue;
		}
		place_context(m, m->specs[i]);
		lint_engines(m, p);
		lint_md_on_ssd(m, p);
		lint_scm_volatile(m, p);
		if (p->ok)
			lint_fabric_domains(m, p);
		lint_memory(m, p);
		node_os_lint(m, m->specs[i]);
	}
	place_context(m, NULL);
	client_lint(m);
	fabric_lint(m);
}
