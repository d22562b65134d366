/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* keywords.c - the vocabulary of the language: one table per block kind.
 * SPEC.md's keyword reference is generated from these tables
 * (`dslc keywords --markdown`) and checked by the tests. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "kw.h"

#define F(type, field) offsetof(type, field)
#define MAXI INT64_C(9223372036854775807)

/* ---- top level ----------------------------------------------------------- */

/* The tail of a pre-release tag after '-': rc1, beta2, tb1 (letters then
 * digits, at most 15 characters). */
static bool release_suffix_ok(const char *s)
{
	size_t n = strlen(s), letters = strspn(s, "abcdefghijklmnopqrstuvwxyz");
	return n > 0 && n <= 15 && letters > 0 && strspn(s + letters, "0123456789") == n - letters;
}

static void top_daos(kw_ctx *k)
{
	model *m = k->r->m;
	const char *v;
	src_loc l;
	if (!kw_word(k, "a release", &v, &l))
		return;
	m->release_given = true;
	/* 2.6 or 2.6.3: the patch level decides a few names (EC ..P3 from
	 * 2.6.3). A pre-release (2.6.5-rc1, DAOS's tag v2.6.5-rc1) is that
	 * release: its keys and names are the release's. */
	const char *pre = strchr(v, '-');
	if (pre && !release_suffix_ok(pre + 1)) {
		kw_bad(k, l, "'%s' is not a release such as 2.6, 2.6.3 or 2.6.5-rc1", v);
		return;
	}
	char rel_text[32];
	snprintf(rel_text, sizeof(rel_text), "%.*s", pre ? (int)(pre - v) : (int)strlen(v), v);
	const char *given = v;
	v = rel_text;
	char major[16];
	int patch = -1;
	const char *dot2 = strchr(v, '.') ? strchr(strchr(v, '.') + 1, '.') : NULL;
	snprintf(major, sizeof(major), "%.*s", dot2 ? (int)(dot2 - v) : (int)strlen(v), v);
	if (dot2) {
		int64_t pv;
		if (!val_int(dot2 + 1, &pv) || pv < 0 || pv > 99) {
			kw_bad(k, l, "'%s' is not a release such as 2.6, 2.6.3 or 2.6.5-rc1", given);
			return;
		}
		patch = (int)pv;
	}
	m->release_patch = patch;
	const daos_release *rel = daos_release_find(major);
	if (!rel) {
		diag *d = diag_report(k->r->dc, R_RELEASE, l, "DAOS release '%s' is not supported", v);
		diag_help(k->r->dc, d, "supported releases: %s", daos_release_list());
		k->failed = true;
		return;
	}
	if (m->release) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, k->kwloc, "the DAOS release is given twice");
		diag_note_at(k->r->dc, d, m->release_loc, "first given here");
		diag_help(k->r->dc, d, "keep one `daos` line");
		return;
	}
	m->release = rel;
	m->release_loc = src_loc_join(k->kwloc, l);
}

static void top_cluster(kw_ctx *k)
{
	cluster_spec *c = &k->r->m->cluster;
	const char *name;
	src_loc l;
	if (!kw_word(k, "a cluster name", &name, &l))
		return;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	if (c->defined) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, l, "a second cluster block '%s'", name);
		diag_note_at(k->r->dc, d, c->name_loc, "the cluster is defined here");
		diag_help(k->r->dc, d, "one file describes one DAOS system; merge the blocks");
		return;
	}
	c->defined = true;
	c->name = name;
	c->name_loc = l;
	c->loc = k->st->loc;
	const kw_table *t[] = {&kw_cluster};
	unsigned before = diag_count(k->r->dc, SEV_ERROR);
	kw_apply(k->r, b, t, 1, c, -1);
	c->tainted = diag_count(k->r->dc, SEV_ERROR) != before;
}

static void top_hardware(kw_ctx *k)
{
	model *m = k->r->m;
	const char *name;
	src_loc l;
	if (!kw_word(k, "a hardware name", &name, &l))
		return;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	hardware *old = model_hardware(m, name);
	if (old || profile_find(m, name)) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, l, "'%s' is already defined", name);
		diag_note_at(k->r->dc, d, old ? old->name_loc : profile_find(m, name)->name_loc, "defined here");
		diag_help(k->r->dc, d, "hardware and profiles share one name space; rename one");
		return;
	}
	hardware *hw = arena_alloc(k->r->ar, sizeof(*hw));
	hw->name = name;
	hw->name_loc = l;
	hw->loc = k->st->loc;
	hw->body = b;
	ARENA_PUSH(k->r->ar, m->hws, m->nhws, m->hws_cap, hw);
	strmap_put(&m->name_index, name, hw);
	const kw_table *t[] = {&kw_hardware};
	unsigned before = diag_count(k->r->dc, SEV_ERROR);
	kw_apply(k->r, b, t, 1, hw, -1);
	hardware_finish(k->r, hw, diag_count(k->r->dc, SEV_ERROR) == before);
}

/* Reads an optional ": NAME". */
static bool read_parent(kw_ctx *k, const char **name, src_loc *loc)
{
	*name = NULL;
	if (!k->cur || k->cur->kind != AST_PUNCT || strcmp(k->cur->text, ":") != 0)
		return true;
	kw_next(k);
	return kw_word(k, "a profile or hardware name after ':'", name, loc);
}

static void top_profile(kw_ctx *k)
{
	model *m = k->r->m;
	profile_def *p = arena_alloc(k->r->ar, sizeof(*p));
	if (!kw_word(k, "a profile name", &p->name, &p->name_loc))
		return;
	if (!read_parent(k, &p->parent, &p->parent_loc))
		return;
	if (!(p->body = kw_block(k)))
		return;
	p->loc = k->st->loc;
	profile_def *old = profile_find(m, p->name);
	hardware *oh = model_hardware(m, p->name);
	if (old || oh) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, p->name_loc, "'%s' is already defined", p->name);
		diag_note_at(k->r->dc, d, old ? old->name_loc : oh->name_loc, "defined here");
		diag_help(k->r->dc, d, "hardware and profiles share one name space; rename one");
		return;
	}
	ARENA_PUSH(k->r->ar, m->profiles, m->nprofiles, m->profiles_cap, p);
	strmap_put(&m->name_index, p->name, p);
}

static void top_nodes(kw_ctx *k, bool single)
{
	pending_nodes pn = {0};
	pn.single = single;
	pn.loc = k->st->loc;
	pn.hosts = k->cur;
	ast_value *last = NULL;
	while (k->cur && !(k->cur->kind == AST_PUNCT && strcmp(k->cur->text, ":") == 0)) {
		last = k->cur;
		kw_next(k);
	}
	if (!pn.hosts || pn.hosts == k->cur) {
		kw_missing(k, single ? "a host name" : "a host list");
		return;
	}
	pn.hosts_end = last; /* the host list ends before ": PROFILE"; the AST stays whole */
	if (k->cur) {
		ast_value *colon = k->cur;
		kw_next(k);
		k->last = colon->loc;
		if (!kw_word(k, "a profile name after ':'", &pn.profile, &pn.profile_loc))
			return;
	}
	if (k->cur || k->st->block)
		pn.body = kw_block(k);
	if (k->failed)
		return;
	if (single && !pn.body && !pn.profile) {
		kw_missing(k, "': PROFILE' or a { } block");
		return;
	}
	if (!single && !pn.profile) {
		diag *d = diag_report(k->r->dc, R_BAD_VALUE, k->kwloc, "'nodes' needs a profile");
		diag_help(k->r->dc, d, "syntax: %s", k->kw->syntax);
		k->failed = true;
		return;
	}
	ARENA_PUSH(k->r->ar, k->r->pend, k->r->npend, k->r->pend_cap, pn);
}

/* A nodes statement that failed leaves the fleet unknown: checks of its size
 * (pool service replicas, object class widths) wait. */
static void top_nodes_many(kw_ctx *k)
{
	top_nodes(k, false);
	k->r->m->nodes_incomplete |= k->failed;
}

static void top_node_one(kw_ctx *k)
{
	top_nodes(k, true);
	k->r->m->nodes_incomplete |= k->failed;
}

static void top_pool(kw_ctx *k)
{
	model *m = k->r->m;
	pool_spec *p = arena_alloc(k->r->ar, sizeof(*p));
	if (!kw_word(k, "a pool name", &p->name, &p->name_loc))
		return;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	p->loc = k->st->loc;
	const pool_spec *old = strmap_get(&m->pool_index, p->name);
	if (old) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, p->name_loc, "pool '%s' is already defined", p->name);
		diag_note_at(k->r->dc, d, old->name_loc, "defined here");
		diag_help(k->r->dc, d, "rename one of the pools");
		return;
	}
	p->index = m->npools;
	ARENA_PUSH(k->r->ar, m->pools, m->npools, m->pools_cap, p);
	strmap_put(&m->pool_index, p->name, p);
	const kw_table *t[] = {&kw_pool};
	kw_apply(k->r, b, t, 1, p, -1);
}

static void top_container(kw_ctx *k)
{
	model *m = k->r->m;
	container_spec *c = arena_alloc(k->r->ar, sizeof(*c));
	if (!kw_word(k, "a container name", &c->name, &c->name_loc))
		return;
	if (!kw_expect_word(k, "in"))
		return;
	if (!kw_word(k, "a pool name", &c->pool, &c->pool_loc))
		return;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	c->loc = k->st->loc;
	const char *key = arena_printf(k->r->ar, "%s\x1f%s", c->pool, c->name); /* no name holds 0x1f */
	const container_spec *old = strmap_get(&m->container_index, key);
	if (old) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, c->name_loc,
				      "container '%s' is already defined in pool '%s'", c->name, c->pool);
		diag_note_at(k->r->dc, d, old->name_loc, "defined here");
		diag_help(k->r->dc, d, "rename one of the containers");
		return;
	}
	ARENA_PUSH(k->r->ar, m->containers, m->ncontainers, m->containers_cap, c);
	strmap_put(&m->container_index, key, c);
	const kw_table *t[] = {&kw_container};
	kw_apply(k->r, b, t, 1, c, -1);
}

static void top_include(kw_ctx *k)
{
	diag *d = diag_report(k->r->dc, R_INCLUDE, k->kwloc, "include is allowed only at the top level of a file");
	diag_help(k->r->dc, d, "move the include out of the block");
	k->failed = true;
}

static const keyword top_kws[] = {
	{"daos", "daos <release>", "The DAOS release the configuration is for (2.6, 2.6.3, 2.8; a pre-release such as 2.6.5-rc1 is that release): picks key names, limits and object class names.", KW_CUSTOM, 0, 0, 0, NULL, top_daos},
	{"include", "include \"<file>\"", "Reads another file in place (top level only; relative to the including file).", KW_CUSTOM, 0, 0, 0, NULL, top_include},
	{"cluster", "cluster <name> { ... }", "The DAOS system: name, fabric, access points, timeouts, log masks.", KW_CUSTOM, 0, 0, 0, NULL, top_cluster},
	{"hardware", "hardware <name> { ... }", "A node type: CPUs, NUMA nodes, memory, NICs and NVMe drives.", KW_CUSTOM, 0, 0, 0, NULL, top_hardware},
	{"profile", "profile <name> : <hardware|profile> { ... }", "How a node type is used: OS cores, engines, hugepages; inherits from a hardware or another profile.", KW_CUSTOM, 0, 0, 0, NULL, top_profile},
	{"nodes", "nodes <hostlist>[, <hostlist>...] : <profile> [{ ... }]", "Nodes of the cluster and their per-node addresses.", KW_CUSTOM, 0, 0, 0, NULL, top_nodes_many},
	{"node", "node <host> [: <profile>] { ... }", "Overrides for one node (or a node outside any host list).", KW_CUSTOM, 0, 0, 0, NULL, top_node_one},
	{"pool", "pool <name> { ... }", "A DAOS pool: size, pool service redundancy, owner (cluster/daos-pools.sh).", KW_CUSTOM, 0, 0, 0, NULL, top_pool},
	{"container", "container <name> in <pool> { ... }", "A DAOS container: redundancy and file-size goals, or explicit classes and properties.", KW_CUSTOM, 0, 0, 0, NULL, top_container},
	{"mount", "mount <path> { ... }", "A dfuse mount of a container on client or converged nodes: a systemd service per node (and etc/fuse.conf, the interception library).", KW_CUSTOM, 0, 0, 0, NULL, top_mount},
};
const kw_table kw_top = KW_TABLE("the top level", top_kws);

/* ---- cluster ------------------------------------------------------------- */

static bool add_access_point(kw_ctx *k, cluster_spec *c, ast_value *v)
{
	if (v->kind != AST_WORD) {
		kw_bad(k, v->loc, "access_points expects host names");
		return false;
	}
	const char **hosts, *why;
	int64_t *nums;
	size_t n;
	if (!hostlist_expand(k->r->ar, v->text, &hosts, &nums, &n, HOSTLIST_MAX, &why)) {
		kw_bad(k, v->loc, "'%s': %s", v->text, why);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		ap_entry e = {hosts[i], v->loc};
		ARENA_PUSH(k->r->ar, c->aps, c->naps, c->aps_cap, e);
	}
	return true;
}

/* access_points gpu[001-003]  |  access_points a, b, c  |  access_points [a b c] */
static void cl_access_points(kw_ctx *k)
{
	cluster_spec *c = k->target;
	src_loc kl = k->kwloc;
	if (!kw_once(k, &c->aps_loc, &c->aps_set))
		return;
	if (!k->cur) {
		kw_missing(k, "host names");
		return;
	}
	if (k->cur->kind == AST_LIST) {
		ast_value *list = kw_next(k);
		for (ast_value *v = list->items; v; v = v->next)
			if (!(v->kind == AST_PUNCT && strcmp(v->text, ",") == 0) && !add_access_point(k, c, v))
				return;
	} else {
		for (;;) {
			if (!add_access_point(k, c, kw_next(k)))
				return;
			if (!(k->cur && k->cur->kind == AST_PUNCT && strcmp(k->cur->text, ",") == 0))
				break;
			kw_next(k);
			if (!k->cur) {
				kw_missing(k, "a host name after ','");
				return;
			}
		}
	}
	c->aps_loc = src_loc_join(kl, k->last);
}

static void cl_fabric(kw_ctx *k)
{
	cluster_spec *c = k->target;
	static const char *const kinds[] = {"roce", "infiniband", "ethernet", "slingshot", "omnipath", NULL};
	const char *kind;
	src_loc l;
	if (!kw_word(k, "a fabric kind", &kind, &l))
		return;
	bool ok = false;
	for (int i = 0; kinds[i]; i++)
		ok |= strcmp(kinds[i], kind) == 0;
	if (!ok) {
		const char *sug = kw_suggest(kind, kinds, 5);
		diag *d = diag_report(k->r->dc, R_BAD_VALUE, l, "'%s' is not a fabric kind", kind);
		diag_help(k->r->dc, d, "%s%s%suse roce, infiniband, ethernet, slingshot or omnipath",
			  sug ? "did you mean '" : "", sug ? sug : "", sug ? "'? " : "");
		if (sug)
			diag_fix_edit(k->r->dc, d, l, "%s", sug);
		k->failed = true;
		return;
	}
	if (!kw_once(k, &c->fabric_kind.loc, &c->fabric_kind.set))
		return;
	c->fabric_kind.v = kind;
	c->fabric_kind.loc = src_loc_join(k->kwloc, l);
	if (k->cur || k->st->block) {
		ast_block *b = kw_block(k);
		const kw_table *t[] = {&kw_fabric};
		if (b)
			kw_apply(k->r, b, t, 1, c, -1);
	}
}


static void cl_kubernetes(kw_ctx *k)
{
	cluster_spec *c = k->target;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	if (!kw_once(k, &c->kube.loc, &c->kube.set))
		return;
	c->kube.loc = k->st->loc;
	const kw_table *t[] = {&kw_kube};
	kw_apply(k->r, b, t, 1, &c->kube, -1);
}

static void any_env(kw_ctx *k)
{
	env_list *env;
	if (k->r->m->cluster.defined && k->target == &k->r->m->cluster)
		env = &k->r->m->cluster.env;
	else
		env = &((node_spec *)k->target)->env;
	kw_env(k, env);
}

static void cl_env(kw_ctx *k)
{
	kw_env(k, &((cluster_spec *)k->target)->env);
}

static void cl_client_env(kw_ctx *k)
{
	kw_env(k, &((cluster_spec *)k->target)->client_env);
}

static const char *const control_masks[] = {"DISABLED", "TRACE", "DEBUG", "INFO", "NOTICE", "ERROR", NULL};
static const char *const transports[] = {"secure", "insecure", NULL};

static const keyword cluster_kws[] = {
	{"provider", "provider \"<provider>\"", "Fabric provider, e.g. \"ofi+verbs;ofi_rxm\" (quote it: ';' ends a statement).", KW_WORD, F(cluster_spec, provider), 0, 0, NULL, NULL},
	{"access_points", "access_points <hostlist>[, <hostlist>...]", "Nodes that run the management service (odd count): access_points (2.6) or mgmt_svc_replicas (2.8).", KW_CUSTOM, 0, 0, 0, NULL, cl_access_points},
	{"port", "port <port>", "Control-plane port (default 10001).", KW_INT, F(cluster_spec, port), 1, 65535, NULL, NULL},
	{"crt_timeout", "crt_timeout <duration>", "RPC timeout, whole seconds from 1s to 3600s (crt_timeout; also sent to clients).", KW_DURATION, F(cluster_spec, crt_timeout_ms), 1000, 3600000, NULL, NULL},
	{"swim_suspect_timeout", "swim_suspect_timeout <duration>", "SWIM suspicion timeout, set as SWIM_SUSPECT_TIMEOUT (ms) in every engine's env_vars.", KW_DURATION, F(cluster_spec, swim_suspect_ms), 1, 86400000, NULL, NULL},
	{"log_mask", "log_mask <mask>", "Default engine log mask, e.g. ERR or ERR,MGMT=DEBUG.", KW_WORD, F(cluster_spec, log_mask), 0, 0, NULL, NULL},
	{"control_log_file", "control_log_file \"<path>\"", "daos_server's own log file (default /var/log/daos/daos_server.log).", KW_WORD, F(cluster_spec, control_log_file), 0, 0, NULL, NULL},
	{"helper_log_file", "helper_log_file \"<path>\"", "daos_server_helper's log file (default /var/log/daos/daos_server_helper.log).", KW_WORD, F(cluster_spec, helper_log_file), 0, 0, NULL, NULL},
	{"control_log_mask", "control_log_mask <level>", "daos_server's own log level: DISABLED, TRACE, DEBUG, INFO, NOTICE or ERROR.", KW_ENUM, F(cluster_spec, control_log_mask), 0, 0, control_masks, NULL},
	{"fabric", "fabric <roce|infiniband|ethernet|slingshot|omnipath> [{ gid_index <n> }]", "The storage fabric; RoCE takes a GID index, exported as FI_VERBS_GID_IDX to engines and clients.", KW_CUSTOM, 0, 0, 0, NULL, cl_fabric},
	{"fabric_port", "fabric_port <port>", "fabric_iface_port of engine 0; engine i uses fabric_port + 1000 x i (default 31416).", KW_INT, F(cluster_spec, fabric_port), 1024, 65535, NULL, NULL},
	{"system_ram_reserved", "system_ram_reserved <size>", "Memory DAOS leaves to the OS when sizing RAM SCM (whole GiB).", KW_SIZE, F(cluster_spec, system_ram_reserved), (int64_t)GiB, (int64_t)(64 * TiB), NULL, NULL},
	{"telemetry_port", "telemetry_port <port>", "Prometheus metrics port of daos_server (0 disables; default 9191).", KW_INT, F(cluster_spec, telemetry_port), 0, 65535, NULL, NULL},
	{"transport", "transport <secure|insecure>", "Certificates (secure, the default) or allow_insecure.", KW_ENUM, F(cluster_spec, transport), 0, 0, transports, NULL},
	{"env", "env <NAME>=<value>...", "env_vars entries for every engine of the cluster (several on a line, as words or quoted).", KW_CUSTOM, 0, 0, 0, NULL, cl_env},
	{"client_env", "client_env <NAME>=<value>...", "client_env_vars entries of daos_server.yml (several on a line): the agent hands it to every client process when it connects (daos_init), as a default the process's own environment overrides. For libfabric and CaRT settings such as FI_MR_CACHE_MONITOR=kdreg2; names a client reads before connecting (D_LOG_MASK, D_IL_*) belong in the job's environment.", KW_CUSTOM, 0, 0, 0, NULL, cl_client_env},
	{"kubernetes", "kubernetes { ... }", "Settings of the daos-server and daos-agent pods of `deploy kubernetes` profiles.", KW_CUSTOM, 0, 0, 0, NULL, cl_kubernetes},
};
const kw_table kw_cluster = KW_TABLE("cluster", cluster_kws);

static void fa_lossless(kw_ctx *k)
{
	cluster_spec *c = k->target;
	kw_sub_block(k, &kw_lossless, c, &c->lossless.loc, &c->lossless.set);
}

static const keyword fabric_kws[] = {
	{"gid_index", "gid_index <n>", "RoCE GID index (FI_VERBS_GID_IDX), deterministic across reboots.", KW_INT, F(cluster_spec, gid_index), 0, 255, NULL, NULL},
	{"lossless", "lossless { priority <0-7> dscp <0-63> [ecn <on|off>] }", "Lossless RoCE on a converged fabric: PFC on the priority, DSCP trusted and the RDMA DSCP mapped to it, ECN (DCQCN) on it, and the RDMA traffic class set to match (RDMA-CM's default RoCE ToS; UCX_IB_TRAFFIC_CLASS under UCX), by usr/local/sbin/dslc-lossless-roce on every fabric NIC.", KW_CUSTOM, 0, 0, 0, NULL, fa_lossless},
};
const kw_table kw_fabric = KW_TABLE("fabric", fabric_kws);

static const char *const ecn_modes[] = {"on", "off", NULL};

static const keyword lossless_kws[] = {
	{"priority", "priority <0-7>", "The 802.1p priority of RDMA traffic: PFC pauses it alone (dcb pfc prio-pfc P:on).", KW_INT, F(cluster_spec, lossless.priority), 0, 7, NULL, NULL},
	{"dscp", "dscp <0-63>", "The DSCP RDMA traffic is marked with (RoCE ToS = DSCP x 4) and mapped to the priority (dcb app dscp-prio D:P); 26 is common.", KW_INT, F(cluster_spec, lossless.dscp), 0, 63, NULL, NULL},
	{"ecn", "ecn <on|off>", "ECN marking and DCQCN rate control for the priority on the NIC (default on), where the driver offers it (mlx5's ecn/roce_np and ecn/roce_rp).", KW_ENUM, F(cluster_spec, lossless.ecn), 0, 0, ecn_modes, NULL},
};
const kw_table kw_lossless = KW_TABLE("lossless", lossless_kws);

/* ---- hardware ------------------------------------------------------------ */

static void hw_numa(kw_ctx *k)
{
	hardware *hw = k->target;
	int64_t n;
	src_loc l;
	if (!kw_int(k, "a NUMA node number", 0, MODEL_MAX_NUMA - 1, &n, &l))
		return;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	if (hw->numa_loc[n].file) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, l, "NUMA node %lld is described twice", (long long)n);
		diag_note_at(k->r->dc, d, hw->numa_loc[n], "first described here");
		diag_help(k->r->dc, d, "merge the two numa blocks");
		return;
	}
	hw->numa_loc[n] = src_loc_join(k->kwloc, l);
	const kw_table *t[] = {&kw_numa};
	kw_apply(k->r, b, t, 1, hw, (int)n);
}

static void hw_auto(kw_ctx *k, opt_int *flag)
{
	src_loc l;
	const char *w;
	if (!kw_word(k, "auto", &w, &l))
		return;
	if (strcmp(w, "auto") != 0) {
		kw_bad(k, l, "at the hardware level '%s' takes only 'auto'; describe a device in its numa block", k->kw->name);
		return;
	}
	if (!kw_once(k, &flag->loc, &flag->set))
		return;
	flag->v = 1;
	flag->loc = src_loc_join(k->kwloc, l);
}

static void hw_nic_auto(kw_ctx *k) { hw_auto(k, &((hardware *)k->target)->nic_auto); }
static void hw_nvme_auto(kw_ctx *k) { hw_auto(k, &((hardware *)k->target)->nvme_auto); }

static const char *const dialects[] = {"flat", "nested", NULL};
static const char *const etag_sources[] = {"auto", "settings", "bios", "any", NULL};
static const char *const apply_times[] = {"Immediate", "OnReset", "AtMaintenanceWindowStart", "InMaintenanceWindowOnReset", NULL};
static const char *const bmc_vendors[] = {"dmtf", "ami", NULL};

static const keyword bmc_kws[] = {
	{"system", "system <id>", "The ComputerSystem id under /redfish/v1/Systems/ (default 1).", KW_WORD, F(hardware, bmc_system), 0, 0, NULL, NULL},
	{"dialect", "dialect <flat|nested>", "flat: {\"Attributes\": {name: value}} as DMTF's schema says (default); nested: attributes grouped as Group.Name.", KW_ENUM, F(hardware, bmc_dialect), 0, 0, dialects, NULL},
	{"etag", "etag <auto|settings|bios|any>", "Where the If-Match ETag comes from: auto (default) tries the settings resource's (DSP0266), then the Bios resource's, then *; or only one of them.", KW_ENUM, F(hardware, bmc_etag), 0, 0, etag_sources, NULL},
	{"vendor", "vendor <dmtf|ami>", "A preset for what dialect and etag leave unsaid: dmtf (default: flat, etag auto); ami, the BMC of the converged HGX B200 talk: nested Group.Name attributes only (a flat body returns 400) and the ETag of the parent /Bios resource.", KW_ENUM, F(hardware, bmc_vendor), 0, 0, bmc_vendors, NULL},
	{"apply_time", "apply_time <Immediate|OnReset|AtMaintenanceWindowStart|InMaintenanceWindowOnReset>", "@Redfish.SettingsApplyTime of the PATCH (default: none, the BMC's own).", KW_ENUM, F(hardware, bmc_apply_time), 0, 0, apply_times, NULL},
};
const kw_table kw_bmc = KW_TABLE("bmc", bmc_kws);

static void hw_bmc(kw_ctx *k)
{
	hardware *hw = k->target;
	const char *kind;
	src_loc l;
	if (!kw_word(k, "redfish", &kind, &l))
		return;
	if (strcmp(kind, "redfish") != 0) {
		kw_bad(k, l, "dslc speaks Redfish to BMCs, not '%s'", kind);
		return;
	}
	ast_block *b = kw_block(k);
	if (!b)
		return;
	if (!kw_once(k, &hw->bmc_loc, &hw->bmc_set))
		return;
	hw->bmc_loc = k->st->loc;
	const kw_table *t[] = {&kw_bmc};
	kw_apply(k->r, b, t, 1, hw, -1);
}

static const char *const numberings[] = {"linear", "interleaved", NULL};

static const keyword hardware_kws[] = {
	{"sockets", "sockets <n>", "CPU packages.", KW_INT, F(hardware, sockets), 1, 64, NULL, NULL},
	{"cores_per_socket", "cores_per_socket <n>", "Physical cores per package.", KW_INT, F(hardware, cores_per_socket), 1, 4096, NULL, NULL},
	{"threads_per_core", "threads_per_core <n>", "Hardware threads per core (2 with SMT; default 1).", KW_INT, F(hardware, threads_per_core), 1, TOPO_MAX_SMT, NULL, NULL},
	{"numa_per_socket", "numa_per_socket <n>", "NUMA nodes per package (NPS/SNC setting; default 1).", KW_INT, F(hardware, numa_per_socket), 1, 16, NULL, NULL},
	{"cpu_numbering", "cpu_numbering <linear|interleaved>", "How Linux numbers CPUs: linear (socket 0 first; siblings at +cores) or interleaved (sockets alternate).", KW_ENUM, F(hardware, cpu_numbering), 0, 0, numberings, NULL},
	{"memory_per_numa", "memory_per_numa <size>", "Memory of each NUMA node (a numa block's memory wins).", KW_SIZE, F(hardware, memory_per_numa), (int64_t)GiB, (int64_t)(1024 * TiB), NULL, NULL},
	{"hugepage_size", "hugepage_size <size>", "Default hugepage size of the OS (default 2MiB).", KW_SIZE, F(hardware, hugepage_size), (int64_t)(2 * MiB), (int64_t)GiB, NULL, NULL},
	{"numa", "numa <n> { ... }", "One NUMA node: its memory, NICs and NVMe drives.", KW_CUSTOM, 0, 0, 0, NULL, hw_numa},
	{"topology", "topology \"<lstopo-export.xml>\"", "An `lstopo --of xml` export of this node type (relative to this file); every hand-described fact is checked against it.", KW_WORD, F(hardware, topology_file), 0, 0, NULL, NULL},
	{"nic", "nic auto", "Take every network interface of the topology export with a known NUMA node: role storage when it can carry the cluster's fabric (link type and RDMA device, see `fabric` and `provider`), mgmt otherwise.", KW_CUSTOM, 0, 0, 0, NULL, hw_nic_auto},
	{"nvme", "nvme auto", "Take every NVMe drive (and VMD endpoint) of the topology export with a known NUMA node.", KW_CUSTOM, 0, 0, 0, NULL, hw_nvme_auto},
	{"bmc", "bmc redfish { ... }", "The node type's BMC: where and how BIOS settings are applied.", KW_CUSTOM, 0, 0, 0, NULL, hw_bmc},
};
const kw_table kw_hardware = KW_TABLE("hardware", hardware_kws);

static void numa_memory(kw_ctx *k)
{
	hardware *hw = k->target;
	uint64_t v;
	src_loc l;
	opt_int *o = &hw->numa_memory[k->numa];
	if (!kw_size(k, "a size", &v, &l))
		return;
	if (!kw_once(k, &o->loc, &o->set))
		return;
	o->v = (int64_t)v;
	o->loc = src_loc_join(k->kwloc, l);
}

/* gpus N: the NVIDIA GPUs of this NUMA node, which the topology manager
 * aligns a training pod's nvidia.com/gpu to (the NVIDIA device plugin
 * reports each GPU's NUMA node). */
static void numa_gpus(kw_ctx *k)
{
	hardware *hw = k->target;
	opt_int *o = &hw->numa_gpus[k->numa];
	int64_t n;
	src_loc l;
	if (!kw_int(k, "a GPU count", 0, 64, &n, &l) || !kw_once(k, &o->loc, &o->set))
		return;
	*o = (opt_int){n, src_loc_join(k->kwloc, l), true};
}

static const char *const nic_roles[] = {"storage", "mgmt", "compute", NULL};

static void numa_nic(kw_ctx *k)
{
	hardware *hw = k->target;
	nic_desc nic = {0};
	nic.numa = k->numa;
	nic.role = "storage";
	src_loc l;
	if (!kw_word(k, "an interface name", &nic.name, &l))
		return;
	for (;;) {
		if (kw_peek_word(k, "pci")) {
			kw_next(k);
			if (!kw_pci(k, "a PCI address", nic.pci, NULL))
				return;
		} else if (kw_peek_word(k, "role")) {
			kw_next(k);
			src_loc rl;
			if (!kw_word(k, "a role", &nic.role, &rl))
				return;
			bool ok = false;
			for (int i = 0; nic_roles[i]; i++)
				ok |= strcmp(nic_roles[i], nic.role) == 0;
			if (!ok) {
				kw_bad(k, rl, "'%s' is not a NIC role (storage, mgmt or compute)", nic.role);
				return;
			}
		} else if (kw_peek_word(k, "rdma")) {
			kw_next(k);
			if (!kw_word(k, "an RDMA device name", &nic.rdma, NULL))
				return;
		} else {
			break;
		}
	}
	/* without `pci`, a topology export supplies the address by interface
	 * name (hardware.c); a hand description keeps it unknown */
	nic.loc = src_loc_join(l, k->last);
	for (size_t i = 0; i < hw->nnics; i++)
		if (strcmp(hw->nics[i].name, nic.name) == 0 || (nic.pci[0] && strcmp(hw->nics[i].pci, nic.pci) == 0)) {
			diag *d = diag_report(k->r->dc, R_DUPLICATE, nic.loc, "NIC %s (%s) is described twice",
					      nic.name, nic.pci);
			diag_note_at(k->r->dc, d, hw->nics[i].loc, "first described here");
			diag_help(k->r->dc, d, "describe each NIC once, under its NUMA node");
			return;
		}
	ARENA_PUSH(k->r->ar, hw->nics, hw->nnics, hw->nics_cap, nic);
}

static void numa_nvme(kw_ctx *k)
{
	hardware *hw = k->target;
	pci_ref *list = NULL;
	size_t n = 0, cap = 0;
	if (!kw_pci_list(k, &list, &n, &cap))
		return;
	for (size_t j = 0; j < n; j++) {
		for (size_t i = 0; i < hw->nnvmes; i++)
			if (strcmp(hw->nvmes[i].pci, list[j].pci) == 0) {
				diag *dd = diag_report(k->r->dc, R_DUPLICATE, list[j].loc, "NVMe %s is described twice", list[j].pci);
				diag_note_at(k->r->dc, dd, hw->nvmes[i].loc, "first described here");
				diag_help(k->r->dc, dd, "describe each drive once, under its NUMA node");
				k->failed = true;
				return;
			}
		nvme_desc d = {0};
		memcpy(d.pci, list[j].pci, sizeof(d.pci));
		d.numa = k->numa;
		d.loc = list[j].loc;
		ARENA_PUSH(k->r->ar, hw->nvmes, hw->nnvmes, hw->nvmes_cap, d);
	}
}

/* pmem pmem0 ...: PMem namespaces (their block devices) of this NUMA node. */
static void numa_pmem(kw_ctx *k)
{
	hardware *hw = k->target;
	do {
		pmem_desc d = {0};
		if (!kw_word(k, "a PMem block device such as pmem0", &d.name, &d.loc))
			return;
		if (strncmp(d.name, "pmem", 4) != 0 || safe_name(d.name)) {
			kw_bad(k, d.loc, "'%s' is not a PMem block device: write its name in /dev, such as pmem0", d.name);
			return;
		}
		for (size_t i = 0; i < hw->npmems; i++)
			if (strcmp(hw->pmems[i].name, d.name) == 0) {
				diag *dd = diag_report(k->r->dc, R_DUPLICATE, d.loc, "PMem %s is described twice", d.name);
				diag_note_at(k->r->dc, dd, hw->pmems[i].loc, "first described here");
				diag_help(k->r->dc, dd, "describe each namespace once, under its NUMA node");
				k->failed = true;
				return;
			}
		d.numa = k->numa;
		ARENA_PUSH(k->r->ar, hw->pmems, hw->npmems, hw->pmems_cap, d);
	} while (k->cur);
}

static const keyword numa_kws[] = {
	{"memory", "memory <size>", "Memory of this NUMA node.", KW_CUSTOM, 0, 0, 0, NULL, numa_memory},
	{"nic", "nic <ifname> [pci <address>] [role storage|mgmt|compute] [rdma <device>]", "A network port local to this NUMA node (role storage by default); its PCI address, which a topology export checks (or supplies by interface name).", KW_CUSTOM, 0, 0, 0, NULL, numa_nic},
	{"nvme", "nvme <pci-address>...", "NVMe drives local to this NUMA node.", KW_CUSTOM, 0, 0, 0, NULL, numa_nvme},
	{"gpus", "gpus <n>", "NVIDIA GPUs local to this NUMA node (checked against a topology export that lists GPUs, and taken from it when not written): what a training pod's nvidia.com/gpu is aligned to.", KW_CUSTOM, 0, 0, 0, NULL, numa_gpus},
	{"pmem", "pmem <block-device>...", "PMem (Optane) namespaces local to this NUMA node, by their /dev name (pmem0); a topology export's NVDIMM block devices are taken when none is named.", KW_CUSTOM, 0, 0, 0, NULL, numa_pmem},
};
const kw_table kw_numa = KW_TABLE("numa", numa_kws);

/* ---- profile (also valid in nodes and node blocks) ----------------------- */

static void pr_reserve(kw_ctx *k)
{
	node_spec *s = k->target;
	int64_t n;
	src_loc l;
	if (!kw_expect_word(k, "os"))
		return;
	if (!kw_int(k, "a core count", 0, 4096, &n, &l))
		return;
	if (!kw_expect_word(k, "cores") || !kw_expect_word(k, "per") || !kw_expect_word(k, "numa"))
		return;
	const char *at = "start";
	src_loc atl = SRC_LOC_NONE;
	if (kw_peek_word(k, "at")) {
		kw_next(k);
		if (!kw_word(k, "start or end", &at, &atl))
			return;
		if (strcmp(at, "start") && strcmp(at, "end")) {
			kw_bad(k, atl, "'reserve ... at' takes start or end, not '%s'", at);
			return;
		}
	}
	if (!kw_once(k, &s->os_cores.loc, &s->os_cores.set))
		return;
	s->os_cores.v = n;
	s->os_cores.loc = src_loc_join(k->kwloc, k->last);
	s->os_at.v = at;
	s->os_at.set = true;
	s->os_at.loc = s->os_cores.loc;
}

static void apply_engine(kw_ctx *k, engine_spec *e, ast_block *b, bool per_numa)
{
	e->present = true;
	/* `engine numa N` declares the engine, NIC or not, whichever of the two
	 * statements comes first: `engine per numa` never drops it */
	e->explicit_numa |= !per_numa;
	e->per_numa = per_numa && !e->explicit_numa;
	if (!per_numa || !e->explicit_numa)
		e->loc = k->st->loc; /* the statement that declared it */
	const kw_table *t[] = {&kw_engine};
	kw_apply(k->r, b, t, 1, e, -1);
}

static void pr_engine(kw_ctx *k)
{
	node_spec *s = k->target;
	int nnuma = s->hw && s->hw->topo ? s->hw->topo->nnuma : 0;
	if (kw_peek_word(k, "per")) {
		kw_next(k);
		if (!kw_expect_word(k, "numa"))
			return;
		ast_block *b = kw_block(k);
		if (!b)
			return;
		for (int n = 0; n < nnuma; n++)
			apply_engine(k, spec_engine(k->r->ar, s, n), b, true);
		if (nnuma == 0) {
			/* unknown hardware: still read the block, for its own errors */
			engine_spec scratch = {0};
			apply_engine(k, &scratch, b, true);
		}
		return;
	}
	if (kw_peek_word(k, "numa")) {
		kw_next(k);
		int64_t n;
		src_loc l;
		if (!kw_int(k, "a NUMA node number", 0, MODEL_MAX_NUMA - 1, &n, &l))
			return;
		ast_block *b = kw_block(k);
		if (!b)
			return;
		if (s->hw && s->hw->topo && n >= nnuma) {
			diag *d = diag_report(k->r->dc, R_BAD_VALUE, l, "hardware %s has no NUMA node %lld (it has %d)",
					      s->hw->name, (long long)n, nnuma);
			diag_help(k->r->dc, d, "NUMA nodes are numbered from 0 to %d", nnuma - 1);
			k->failed = true;
			return;
		}
		apply_engine(k, spec_engine(k->r->ar, s, (int)n), b, false);
		return;
	}
	if (!k->cur)
		kw_missing(k, "'per numa' or 'numa <n>'");
	else
		kw_bad(k, k->cur->loc, "expected 'per numa' or 'numa <n>', not '%s'", k->cur->text);
}

static void pr_exclude(kw_ctx *k)
{
	node_spec *s = k->target;
	if (!kw_expect_word(k, "nvme"))
		return;
	kw_pci_list(k, &s->excluded, &s->nexcluded, &s->excluded_cap);
}

/* ---- kernel and kubelet blocks ---------------------------------------------- */

static void ke_param(kw_ctx *k)
{
	kernel_spec *ks = k->target;
	const char *w;
	src_loc l;
	if (!kw_word_glued(k, "a parameter such as iommu=pt", &w, &l))
		return;
	const char *eq = strchr(w, '=');
	const char *name = eq ? arena_strndup(k->r->ar, w, (size_t)(eq - w)) : w;
	if (!*name) {
		kw_bad(k, l, "a kernel parameter needs a name before '='");
		return;
	}
	env_set(k->r->ar, &ks->params, name, eq ? eq + 1 : "", l);
}

static const char *const iommu_modes[] = {"pt", "on", "off", NULL};
static const char *const irq_modes[] = {"os", "none", NULL};
static const char *const isolate_modes[] = {"engines", "none", NULL};

static const keyword kernel_kws[] = {
	{"iommu", "iommu <pt|on|off>", "IOMMU mode: pt (passthrough; the default when engines drive NVMe through VFIO/SPDK) adds iommu=pt.", KW_ENUM, F(kernel_spec, iommu), 0, 0, iommu_modes, NULL},
	{"irqaffinity", "irqaffinity <os|none>", "os: steer device interrupts to the OS cores' CPUs (irqaffinity=<cpulist>).", KW_ENUM, F(kernel_spec, irqaffinity), 0, 0, irq_modes, NULL},
	{"isolate", "isolate <engines|none>", "engines: keep the scheduler, timer ticks and RCU callbacks off every CPU of the engines' cores, SMT siblings included (isolcpus=, nohz_full=, rcu_nocbs= of the placement), for nodes without a kubelet.", KW_ENUM, F(kernel_spec, isolate), 0, 0, isolate_modes, NULL},
	{"param", "param <name>[=<value>]", "Any other kernel parameter, written as given (checked by the kernel rules).", KW_CUSTOM, 0, 0, 0, NULL, ke_param},
};
const kw_table kw_kernel = KW_TABLE("kernel", kernel_kws);

static const char *const cpu_managers[] = {"none", "static", NULL};
static const char *const topo_policies[] = {"none", "best-effort", "restricted", "single-numa-node", NULL};
static const char *const mem_managers[] = {"none", "static", NULL};

static const char *const on_off[] = {"on", "off", NULL};

/* version 1.<minor>: judged as it is read, whatever else the profile gets
 * wrong (the kubelet plan reads the minor) */
static void kl_version(kw_ctx *k)
{
	kubelet_spec *ks = k->target;
	const char *v;
	src_loc l;
	if (!kw_word_glued(k, "a Kubernetes version such as 1.33", &v, &l))
		return;
	size_t n = strlen(v);
	if (n < 3 || n > 5 || strncmp(v, "1.", 2) != 0 || strspn(v + 2, "0123456789") != n - 2) {
		diag *d = diag_report(k->r->dc, R_BAD_VALUE, src_loc_join(k->kwloc, l), "kubelet version '%s' is not 1.<minor>",
				      safe_echo(k->r->ar, v));
		diag_help(k->r->dc, d, "write the Kubernetes version as major.minor, e.g. `version 1.33`");
		k->failed = true;
		return;
	}
	if (!kw_once(k, &ks->version.loc, &ks->version.set))
		return;
	ks->version.v = v;
	ks->version.loc = src_loc_join(k->kwloc, l);
}

static const keyword kubelet_kws[] = {
	{"version", "version <major.minor>", "Kubernetes version of the kubelet (default: the OS's own kubelet, 1.30 on azurelinux3, else 1.33): decides strict-cpu-reservation.", KW_CUSTOM, 0, 0, 0, NULL, kl_version},
	{"strict_reservation", "strict_reservation <on|off>", "strict-cpu-reservation (default on from 1.32): burstable pods stay off the reserved CPUs too; on with a kubelet before 1.32 is an error.", KW_ENUM, F(kubelet_spec, strict), 0, 0, on_off, NULL},
	{"cpu_manager", "cpu_manager <none|static>", "cpuManagerPolicy (default static).", KW_ENUM, F(kubelet_spec, cpu_manager), 0, 0, cpu_managers, NULL},
	{"topology", "topology <none|best-effort|restricted|single-numa-node>", "topologyManagerPolicy, with topologyManagerScope pod (default restricted, or best-effort where restricted would refuse the training pod: GPUs over more NUMA nodes than its CPUs and memory need; the build says which).", KW_ENUM, F(kubelet_spec, topology), 0, 0, topo_policies, NULL},
	{"memory_manager", "memory_manager <none|static>", "memoryManagerPolicy (default static, with reservedMemory per NUMA node).", KW_ENUM, F(kubelet_spec, memory_manager), 0, 0, mem_managers, NULL},
	{"system_reserved", "system_reserved <size>", "Memory for the OS besides DAOS (default 4GiB); DAOS's SCM is added to systemReserved (its hugepages are not: the kubelet takes them out itself).", KW_SIZE, F(kubelet_spec, system_reserved), (int64_t)MiB, (int64_t)(64 * TiB), NULL, NULL},
	{"kube_reserved", "kube_reserved <size>", "kubeReserved memory (default 2GiB).", KW_SIZE, F(kubelet_spec, kube_reserved), (int64_t)MiB, (int64_t)(64 * TiB), NULL, NULL},
	{"eviction_hard", "eviction_hard <size>", "evictionHard memory.available (default 100MiB, the kubelet's).", KW_SIZE, F(kubelet_spec, eviction_hard), (int64_t)MiB, (int64_t)(64 * TiB), NULL, NULL},
	{"reserved_cpus", "reserved_cpus \"<cpulist>\"", "Override of reservedSystemCPUs (checked: it must hold every OS and engine CPU).", KW_WORD, F(kubelet_spec, reserved_cpus), 0, 0, NULL, NULL},
};
const kw_table kw_kubelet = KW_TABLE("kubelet", kubelet_kws);

/* bios { Name = Value  Group.Name = Value ... }: attribute names are the
 * BMC's, not dslc keywords, so the block is read here, not through a table. */
static void pr_bios(kw_ctx *k)
{
	node_spec *s = k->target;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	s->bios_loc = k->st->loc;
	for (ast_stmt *st = b->first; st; st = st->next) {
		ast_value *v = st->values;
		while (v) {
			ast_value *name = v, *eq = v->next, *val = eq ? eq->next : NULL;
			if (name->kind != AST_WORD || !eq || eq->kind != AST_PUNCT || strcmp(eq->text, "=") != 0 || !val ||
			    (val->kind != AST_WORD && val->kind != AST_STRING)) {
				diag *d = diag_report(k->r->dc, R_BAD_VALUE, name->loc, "a BIOS setting is `Name = Value`");
				diag_help(k->r->dc, d, "write e.g. `ACSEnable = Enabled` (quote values with spaces)");
				break;
			}
			env_set(k->r->ar, &s->bios, name->text, val->kind == AST_STRING ? arena_printf(k->r->ar, "\"%s", val->text)
											 : val->text, src_loc_join(name->loc, val->loc));
			v = val->next;
		}
	}
}

static void ne_storage(kw_ctx *k)
{
	network_spec *n = k->target;
	int64_t mtu;
	src_loc l;
	if (!kw_expect_word(k, "mtu") || !kw_int(k, "an MTU", 576, 9216, &mtu, &l))
		return;
	if (!kw_once(k, &n->storage_mtu.loc, &n->storage_mtu.set))
		return;
	n->storage_mtu.v = mtu;
	n->storage_mtu.loc = src_loc_join(k->kwloc, l);
}

static const char *const bond_modes[] = {"active-backup", "balance-alb", "balance-tlb", "802.3ad", NULL};

static void ne_mgmt(kw_ctx *k)
{
	network_spec *n = k->target;
	const char *mode, *over;
	src_loc ml, ol;
	if (!kw_expect_word(k, "bond") || !kw_word(k, "a bond mode", &mode, &ml))
		return;
	bool ok = false;
	for (int i = 0; bond_modes[i]; i++)
		ok |= strcmp(bond_modes[i], mode) == 0;
	if (!ok) {
		kw_bad(k, ml, "'%s' is not a bond mode dslc writes (active-backup, balance-alb, balance-tlb, 802.3ad)", mode);
		return;
	}
	if (!kw_expect_word(k, "over") || !kw_word(k, "macvlan or nics", &over, &ol))
		return;
	if (strcmp(over, "macvlan") && strcmp(over, "nics")) {
		kw_bad(k, ol, "a bond is `over macvlan` (or `over nics`), not '%s'", over);
		return;
	}
	if (!kw_once(k, &n->bond_mode.loc, &n->bond_mode.set))
		return;
	n->bond_mode.v = mode;
	n->bond_mode.loc = src_loc_join(k->kwloc, ml);
	n->bond_over = (opt_str){over, ol, true};
	if (kw_peek_word(k, "mtu")) {
		kw_next(k);
		int64_t mtu;
		src_loc l;
		if (!kw_int(k, "an MTU", 576, 9216, &mtu, &l))
			return;
		n->mgmt_mtu = (opt_int){mtu, src_loc_join(k->kwloc, l), true};
	}
}

static void ne_link(kw_ctx *k)
{
	network_spec *n = k->target;
	kw_sub_block(k, &kw_link, n, &n->link.loc, &n->link.set);
}

static const keyword network_kws[] = {
	{"storage", "storage mtu <bytes>", "MTU of the storage (RoCE) NICs, each keeping its own address and GID (default 9000).", KW_CUSTOM, 0, 0, 0, NULL, ne_storage},
	{"mgmt", "mgmt bond <active-backup|balance-alb|balance-tlb|802.3ad> over macvlan [mtu <bytes>]", "In-band management over a bond of macvlans stacked on the storage NICs (default MTU 1500).", KW_CUSTOM, 0, 0, 0, NULL, ne_mgmt},
	{"link", "link { rx_ring <n> tx_ring <n> rx_usecs <n> tx_usecs <n> gro|lro|tso|gso <on|off> }", "Ring sizes, interrupt coalescing and offloads of the storage NICs: a systemd .link file per NIC, matched by its PCI path, applied by udev when the NIC appears (systemd.link(5)).", KW_CUSTOM, 0, 0, 0, NULL, ne_link},
};
const kw_table kw_network = KW_TABLE("network", network_kws);


/* systemd.link(5) [Link] settings, as ethtool -G / -C / -K sets them */
static const keyword link_kws[] = {
	{"rx_ring", "rx_ring <n>", "Receive ring entries (RxBufferSize=; ethtool -G rx).", KW_INT, F(network_spec, link.rx_ring), 1, 65536, NULL, NULL},
	{"tx_ring", "tx_ring <n>", "Transmit ring entries (TxBufferSize=; ethtool -G tx).", KW_INT, F(network_spec, link.tx_ring), 1, 65536, NULL, NULL},
	{"rx_usecs", "rx_usecs <microseconds>", "Receive interrupt coalescing (RxCoalesceSec=; ethtool -C rx-usecs).", KW_INT, F(network_spec, link.rx_usecs), 0, 100000, NULL, NULL},
	{"tx_usecs", "tx_usecs <microseconds>", "Transmit interrupt coalescing (TxCoalesceSec=; ethtool -C tx-usecs).", KW_INT, F(network_spec, link.tx_usecs), 0, 100000, NULL, NULL},
	{"gro", "gro <on|off>", "Generic receive offload (GenericReceiveOffload=).", KW_ENUM, F(network_spec, link.gro), 0, 0, on_off, NULL},
	{"lro", "lro <on|off>", "Large receive offload (LargeReceiveOffload=).", KW_ENUM, F(network_spec, link.lro), 0, 0, on_off, NULL},
	{"tso", "tso <on|off>", "TCP segmentation offload (TCPSegmentationOffload=, and TCP6SegmentationOffload=).", KW_ENUM, F(network_spec, link.tso), 0, 0, on_off, NULL},
	{"gso", "gso <on|off>", "Generic segmentation offload (GenericSegmentationOffload=).", KW_ENUM, F(network_spec, link.gso), 0, 0, on_off, NULL},
};
const kw_table kw_link = KW_TABLE("link", link_kws);

static void pr_network(kw_ctx *k)
{
	node_spec *s = k->target;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	s->network.set = true;
	s->network.loc = k->st->loc;
	const kw_table *t[] = {&kw_network};
	kw_apply(k->r, b, t, 1, &s->network, -1);
}

static void pr_kernel(kw_ctx *k)
{
	node_spec *s = k->target;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	s->kernel.set = true;
	s->kernel.loc = k->st->loc;
	const kw_table *t[] = {&kw_kernel};
	kw_apply(k->r, b, t, 1, &s->kernel, -1);
}

static void pr_kubelet(kw_ctx *k)
{
	node_spec *s = k->target;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	s->kubelet.set = true;
	s->kubelet.loc = k->st->loc;
	const kw_table *t[] = {&kw_kubelet};
	kw_apply(k->r, b, t, 1, &s->kubelet, -1);
}

/* "1.7" or "2.1.4": its dot-separated numbers of 1 to 3 digits into part[],
 * how many (2 or 3); 0 when w is not that. */
static int release_parts(const char *w, int part[3])
{
	int n = 0;
	for (const char *p = w; n < 3; p++) {
		size_t d = strspn(p, "0123456789");
		if (d == 0 || d > 3)
			return 0;
		part[n++] = atoi(p);
		p += d;
		if (!*p)
			return n >= 2 ? n : 0;
		if (*p != '.')
			return 0;
	}
	return 0;
}

/* `containerd <major.minor[.patch]>`: the containerd the nodes run, which
 * decides how dslc reaches its CRI plugin (compiler/place/containerd.h).
 * 1.6 is the oldest with the CRI v1 API that the kubelet needs from 1.26. */
static void pr_containerd(kw_ctx *k)
{
	node_spec *s = k->target;
	const char *w;
	src_loc l;
	if (!kw_word(k, "a containerd release", &w, &l))
		return;
	int part[3];
	if (!release_parts(w, part) || part[1] > 99) {
		kw_bad(k, l, "'%s' is not a containerd release: major.minor or major.minor.patch, as `containerd --version` prints it (e.g. 1.7 or 2.1.4)", w);
		return;
	}
	if (part[0] < 1 || part[0] > 2 || (part[0] == 1 && part[1] < 6)) {
		kw_bad(k, l, "containerd %s is not supported: Kubernetes 1.26 and later need the CRI v1 API of containerd 1.6 or later, and dslc knows the configuration loaders of 1.6 to 2.x", w);
		return;
	}
	if (kw_once(k, &s->containerd.loc, &s->containerd.set))
		s->containerd = (opt_str){w, src_loc_join(k->kwloc, l), true};
}

static const char *const os_names[] = {"debian12", "debian13", "ubuntu22.04", "ubuntu24.04", "rhel8", "rhel9",
	"rhel10", "rocky8", "rocky9", "rocky10", "alma8", "alma9", "alma10", "azurelinux3", "sles15", NULL};

static const char *const deploy_models[] = {"systemd", "kubernetes", NULL};

static const keyword profile_kws[] = {
	{"os", "os <distribution>", "The node's OS (debian12, ubuntu24.04, rhel9, rocky9, azurelinux3, ...).", KW_ENUM, F(node_spec, os), 0, 0, os_names, NULL},
	{"containerd", "containerd <release>", "The containerd release of the nodes under `deploy kubernetes` (1.6 to 2.x, as `containerd --version` prints it; default: the one the OS ships, debian12 1.6, debian13, ubuntu22.04, ubuntu24.04 and sles15 1.7, azurelinux3 2.0). It decides how dslc sets containerd's CRI options without resetting the node's own.", KW_CUSTOM, 0, 0, 0, NULL, pr_containerd},
	{"deploy", "deploy <systemd|kubernetes>", "How daos_server and daos_agent run: host services (systemd, the default) or pods of DaemonSets (kubernetes; the cluster's kubernetes block).", KW_ENUM, F(node_spec, deploy), 0, 0, deploy_models, NULL},
	{"reserve", "reserve os <n> cores per numa [at start|end]", "Physical cores of each NUMA node kept for the OS and kubelet, at the start (default) or end of the node.", KW_CUSTOM, 0, 0, 0, NULL, pr_reserve},
	{"engine", "engine per numa { ... } | engine numa <n> { ... }", "One DAOS engine on every NUMA node, or settings for the engine of one NUMA node.", KW_CUSTOM, 0, 0, 0, NULL, pr_engine},
	{"hugepages", "hugepages <size>", "Hugepage memory per node (nr_hugepages); default: DAOS's minimum, 1 GiB per target (+1 per engine with a meta role).", KW_SIZE, F(node_spec, hugepages), (int64_t)(2 * MiB), (int64_t)(64 * TiB), NULL, NULL},
	{"exclude", "exclude nvme <pci-address>...", "Drives of the hardware that this profile or node does not give to DAOS.", KW_CUSTOM, 0, 0, 0, NULL, pr_exclude},
	{"env", "env <NAME>=<value>...", "env_vars entries for every engine of these nodes.", KW_CUSTOM, 0, 0, 0, NULL, any_env},
	{"kernel", "kernel { ... }", "The kernel command line (a grub.d drop-in on Debian, Ubuntu and Azure Linux; grubby on RHEL-family; an edit of /etc/default/grub on SLES).", KW_CUSTOM, 0, 0, 0, NULL, pr_kernel},
	{"kubelet", "kubelet { ... }", "Kubelet CPU and memory reservations that keep pods off DAOS's cores and memory.", KW_CUSTOM, 0, 0, 0, NULL, pr_kubelet},
	{"network", "network { ... }", "systemd-networkd units: storage NICs with their own addresses and MTU, management over a bond of macvlans.", KW_CUSTOM, 0, 0, 0, NULL, pr_network},
	{"nccl", "nccl <on|off>", "etc/nccl.conf with NCCL_IB_HCA that keeps NCCL off the storage NICs (or on the compute NICs the hardware names), and the same NCCL_IB_HCA in the client pod template's env under deploy kubernetes; default on when the hardware names compute NICs.", KW_ENUM, F(node_spec, nccl), 0, 0, on_off, NULL},
	{"bios", "bios { <Name> = <value> ... }", "BIOS attributes sent to the BMC with Redfish (redfish/bios-settings.json and redfish/apply.sh).", KW_CUSTOM, 0, 0, 0, NULL, pr_bios},
};
const kw_table kw_profile = KW_TABLE("profile", profile_kws);

/* ---- engine ---------------------------------------------------------------- */

/* scm ram [<size>] | scm pmem [/dev/pmemN] */
static void en_scm(kw_ctx *k)
{
	engine_spec *e = k->target;
	const char *cls;
	src_loc l;
	if (!kw_word(k, "a class", &cls, &l))
		return;
	if (strcmp(cls, "ram") != 0 && strcmp(cls, "pmem") != 0) {
		kw_bad(k, l, "SCM class '%s' is not supported: write `scm ram <size>` (RAM-backed, MD-on-SSD) or `scm pmem` (PMem, class dcpm)", cls);
		return;
	}
	if (!kw_once(k, &e->scm_class.loc, &e->scm_class.set))
		return;
	e->scm_class.v = cls;
	e->scm_class.loc = src_loc_join(k->kwloc, l);
	e->scm_device.set = false;
	e->scm_size.set = false;
	e->scm_size.loc = e->scm_class.loc;
	bool digit = k->cur && k->cur->kind == AST_WORD && k->cur->text[0] >= '0' && k->cur->text[0] <= '9';
	if (strcmp(cls, "pmem") == 0) {
		if (digit) {
			kw_bad(k, k->cur->loc, "PMem SCM has its namespace's size: DAOS refuses scm_size with class dcpm "
			       "(storage/config.go \"scm_size may not be set when class is dcpm\")");
			return;
		}
		if (k->cur && kw_word(k, "a PMem device such as /dev/pmem0", &e->scm_device.v, &e->scm_device.loc)) {
			const char *dev = e->scm_device.v;
			if (strncmp(dev, "/dev/pmem", 9) != 0 || safe_name(dev + 5)) {
				kw_bad(k, e->scm_device.loc, "'%s' is not a PMem block device such as /dev/pmem0", dev);
				return;
			}
			e->scm_device.set = true;
		}
		return;
	}
	/* the size is optional: `scm ram` alone is what the scm-size-unpinned rule is for */
	const char *why;
	uint64_t sz;
	if (digit) {
		src_loc sl;
		const char *s;
		kw_word(k, "a size", &s, &sl);
		if (!val_size(s, &sz, &why)) {
			kw_bad_size(k, sl, s, why);
			return;
		}
		e->scm_size.v = (int64_t)sz;
		e->scm_size.set = true;
		e->scm_size.loc = sl;
	}
}

const char *const model_bdev_roles[3] = {"wal", "meta", "data"};

/* [wal meta data]: a tier's roles, as written (bdev-roles judges them). */
static bool tier_roles(kw_ctx *k, tier_spec *t, bool split)
{
	ast_value *list = kw_next(k);
	if (!list || list->kind != AST_LIST) {
		if (list)
			kw_bad(k, list->loc, "expected a list such as [wal meta data]");
		else
			kw_missing(k, "a list such as [wal meta data]");
		return false;
	}
	t->nroles = 0;
	for (ast_value *v = list->items; v; v = v->next) {
		if (v->kind == AST_PUNCT && strcmp(v->text, ",") == 0)
			continue;
		if (v->kind != AST_WORD || t->nroles == 4) {
			kw_bad(k, v->loc, "roles are wal, meta and data");
			return false;
		}
		t->roles[t->nroles++] = v->text;
	}
	t->roles_loc = list->loc;
	/* each name judged as it is read: whatever else in the profile is
	 * wrong, a role DAOS does not know is known wrong (bdev-roles) */
	bool seen[3] = {false, false, false};
	for (int r = 0; r < t->nroles; r++) {
		int j = 0;
		while (j < 3 && strcmp(t->roles[r], model_bdev_roles[j]) != 0)
			j++;
		if (j < 3 && !seen[j]) {
			seen[j] = true;
			continue;
		}
		diag *d = diag_report(k->r->dc, R_BDEV_ROLES, t->roles_loc,
				      j == 3 ? "'%s' is not a bdev role" : "'%s' is given twice", t->roles[r]);
		diag_help(k->r->dc, d, split ? "roles are wal, meta and data, each in one tier"
			  : "write `nvme roles [wal meta data]`");
		if (!split)
			diag_fix_edit(k->r->dc, d, t->roles_loc, "[wal meta data]");
		k->failed = true;
		return false;
	}
	return true;
}

/* A block that declares tiers replaces the tiers it inherits; `nvme roles`
 * (one tier) and `nvme tier` (several) are not mixed in one block. */
static tier_spec *new_tier(kw_ctx *k, engine_spec *e, bool split)
{
	bool own = e->ntiers && kw_in_scope(k, e->tiers[0].loc);
	if (own && (!split || !e->tiers_split)) {
		diag *d = diag_report(k->r->dc, R_DUPLICATE, k->kwloc, split ? "`nvme tier` after `nvme roles` in this block"
				      : e->tiers_split ? "`nvme roles` after `nvme tier` in this block"
				      : "'nvme roles' is given twice in this block");
		diag_note_at(k->r->dc, d, e->tiers[0].loc, "the engine's NVMe tiers are declared here");
		diag_help(k->r->dc, d, "declare one tier with `nvme roles [wal meta data]`, or every tier with `nvme tier`");
		k->failed = true;
		return NULL;
	}
	if (!own)
		e->ntiers = 0;
	if (e->ntiers == MODEL_MAX_TIERS) {
		kw_bad(k, k->kwloc, "an engine has at most 3 NVMe tiers (FaultBdevConfigBadNrTiersWithRoles)");
		return NULL;
	}
	tier_spec *t = &e->tiers[e->ntiers];
	memset(t, 0, sizeof(*t));
	t->loc = k->kwloc;
	e->tiers_split = split;
	return t;
}

/* nvme file PATH... size N: DAOS's emulated NVMe (class file, Linux AIO on
 * files it creates), for test and single-node systems */
static void en_nvme_file(kw_ctx *k, engine_spec *e)
{
	src_loc first = k->cur ? k->cur->loc : k->kwloc;
	const char **files = NULL;
	size_t n = 0, cap = 0;
	while (k->cur && !kw_peek_word(k, "size")) {
		const char *path;
		src_loc l;
		if (!kw_abs_path(k, "a file path", "file", &path, &l))
			return;
		ARENA_PUSH(k->r->ar, files, n, cap, path);
	}
	if (!n) {
		kw_missing(k, "the path of a file, such as \"/tmp/daos-bdev\"");
		return;
	}
	if (!kw_peek_word(k, "size")) {
		kw_missing(k, "'size <GiB>' (bdev_size: DAOS creates each file with that size)");
		return;
	}
	kw_next(k);
	uint64_t sz;
	src_loc sl;
	if (!kw_size(k, "a size", &sz, &sl))
		return;
	if (!sz || sz % GiB) {
		kw_bad(k, sl, "bdev_size is a whole number of GiB, at least 1 (DAOS: \"class file requires non-zero bdev_size\")");
		return;
	}
	e->files = files;
	e->nfiles = n;
	e->files_loc = src_loc_join(first, k->last);
	e->file_size.v = (int64_t)sz;
	e->file_size.set = true;
	e->file_size.loc = sl;
}

static void en_nvme(kw_ctx *k)
{
	engine_spec *e = k->target;
	if (kw_peek_word(k, "file")) {
		kw_next(k);
		en_nvme_file(k, e);
		return;
	}
	if (kw_peek_word(k, "tier")) {
		kw_next(k);
		tier_spec *t = new_tier(k, e, true);
		if (!t || !tier_roles(k, t, true))
			return;
		if (kw_peek_word(k, "drives")) {
			kw_next(k);
			if (!kw_int(k, "a drive count", 1, 1024, &t->count.v, &t->count.loc))
				return;
			t->count.set = true;
		} else if (k->cur) {
			kw_pci_list(k, &t->drives, &t->ndrives, &t->drives_cap);
		}
		e->ntiers++;
		return;
	}
	if (!kw_peek_word(k, "roles")) {
		/* an explicit drive list */
		e->ndrives = 0;
		e->drives_cap = 0;
		e->drives = NULL;
		kw_pci_list(k, &e->drives, &e->ndrives, &e->drives_cap);
		return;
	}
	kw_next(k);
	tier_spec *t = new_tier(k, e, false);
	if (t && tier_roles(k, t, false))
		e->ntiers = 1;
}

static void en_env(kw_ctx *k)
{
	kw_env(k, &((engine_spec *)k->target)->env);
}

static const keyword engine_kws[] = {
	{"targets", "targets <n>", "I/O targets (targets).", KW_INT, F(engine_spec, targets), 1, 1024, NULL, NULL},
	{"helpers", "helpers <n>", "Helper xstreams (nr_xs_helpers).", KW_INT, F(engine_spec, helpers), 0, 2048, NULL, NULL},
	{"cores", "cores <n>", "Physical cores reserved for the engine; default and minimum 2 + targets + helpers.", KW_INT, F(engine_spec, cores), 1, 4096, NULL, NULL},
	{"first_core", "first_core <logical-core-index>", "Override: the engine's first core, an absolute hwloc logical core index (checked).", KW_INT, F(engine_spec, first_core), 0, 65535, NULL, NULL},
	{"pinned_numa_node", "pinned_numa_node <n>", "Override: the NUMA node to pin to (checked against placement).", KW_INT, F(engine_spec, pinned_numa), 0, MODEL_MAX_NUMA - 1, NULL, NULL},
	{"scm", "scm ram <size> | scm pmem [/dev/pmemN]", "RAM-backed SCM (tmpfs) with a pinned scm_size, whole GiB; or PMem (class dcpm): the namespace of the engine's NUMA node (its hardware's `pmem`, the export's NVDIMM devices, else /dev/pmem<socket>), or the one named.", KW_CUSTOM, 0, 0, 0, NULL, en_scm},
	{"nvme", "nvme roles [wal meta data] | nvme tier [<roles>] [drives <n> | <pci-address>...] | nvme <pci-address>... | nvme file \"<path>\"... size <size>", "MD-on-SSD roles of the engine's one NVMe tier; or one of 2-3 tiers with its roles and drives (the next n of the engine's drives, explicit addresses, or, for one tier, the rest); or an explicit drive list (default: every drive of the engine's NUMA node); or NVMe emulated on files DAOS creates (class file, whole GiB; tests and single-node systems), each engine on its own paths (DAOS refuses a file two engines share).", KW_CUSTOM, 0, 0, 0, NULL, en_nvme},
	{"nic", "nic <ifname>", "Override: the fabric interface (default: the storage NIC of the engine's NUMA node).", KW_WORD, F(engine_spec, nic), 0, 0, NULL, NULL},
	{"fabric_port", "fabric_port <port>", "Override: fabric_iface_port of this engine.", KW_INT, F(engine_spec, fabric_port), 1024, 65535, NULL, NULL},
	{"log_mask", "log_mask <mask>", "Override: this engine's log mask.", KW_WORD, F(engine_spec, log_mask), 0, 0, NULL, NULL},
	{"log_file", "log_file \"<path>\"", "Override: this engine's log file.", KW_WORD, F(engine_spec, log_file), 0, 0, NULL, NULL},
	{"scm_mount", "scm_mount <path>", "Override: this engine's SCM mount point (default /mnt/daos<engine index>).", KW_WORD, F(engine_spec, scm_mount), 0, 0, NULL, NULL},
	{"env", "env <NAME>=<value>...", "env_vars entries for this engine.", KW_CUSTOM, 0, 0, 0, NULL, en_env},
};
const kw_table kw_engine = KW_TABLE("engine", engine_kws);

/* ---- per-node addresses (nodes and node blocks) --------------------------- */

static bool read_addr(kw_ctx *k, const char *what, opt_str *o)
{
	const char *s;
	src_loc l;
	if (!kw_word(k, what, &s, &l))
		return false;
	if (!kw_once(k, &o->loc, &o->set))
		return false;
	o->v = s;
	o->loc = l;
	return true;
}

static void na_mgmt(kw_ctx *k)
{
	node_spec *s = k->target;
	if (!read_addr(k, "an address/prefix", &s->mgmt))
		return;
	if (kw_peek_word(k, "gateway")) {
		kw_next(k);
		read_addr(k, "a gateway address", &s->gateway);
	}
}

static void na_storage(kw_ctx *k)
{
	node_spec *s = k->target;
	s->nstorage = 0;
	s->storage_cap = 0;
	s->storage = NULL;
	for (;;) {
		storage_addr a;
		src_loc il;
		if (!kw_word(k, "an interface name", &a.iface, &il))
			return;
		if (!kw_word(k, "an address/prefix", &a.tmpl, &a.loc))
			return;
		ARENA_PUSH(k->r->ar, s->storage, s->nstorage, s->storage_cap, a);
		if (k->cur && k->cur->kind == AST_PUNCT && strcmp(k->cur->text, ",") == 0) {
			kw_next(k);
			continue;
		}
		break;
	}
}

static void na_bmc(kw_ctx *k)
{
	read_addr(k, "an address", &((node_spec *)k->target)->bmc);
}

static void na_k8s_node_name(kw_ctx *k)
{
	read_addr(k, "a node name or a template such as \"{host}.example.com\"", &((node_spec *)k->target)->k8s_node_name);
}

static const keyword node_addr_kws[] = {
	{"mgmt", "mgmt <address/prefix> [gateway <address>]", "In-band management address; {i} and {n} give per-node values (never the subnet's network or broadcast address: {i} counts from 0).", KW_CUSTOM, 0, 0, 0, NULL, na_mgmt},
	{"storage", "storage <ifname> <address/prefix>[, <ifname> <address/prefix>...]", "Addresses of the storage NICs (never the subnet's network or broadcast address).", KW_CUSTOM, 0, 0, 0, NULL, na_storage},
	{"bmc", "bmc <address>", "The node's BMC address.", KW_CUSTOM, 0, 0, 0, NULL, na_bmc},
	{"k8s_node_name", "k8s_node_name <name-template>", "The node's name in Kubernetes, for `deploy kubernetes` nodes (label-nodes.sh, node-maintenance.sh, the rollout): {host} is the DAOS host name, {i} and {n} per-node numbers (default: the host name in lower case, the name the kubelet registers without --hostname-override or a cloud provider).", KW_CUSTOM, 0, 0, 0, NULL, na_k8s_node_name},
};
const kw_table kw_node_addr = KW_TABLE("nodes", node_addr_kws);

/* ---- pools and containers ------------------------------------------------- */

static void po_size(kw_ctx *k)
{
	pool_spec *p = k->target;
	const char *s, *why;
	src_loc l;
	if (!kw_word(k, "a size or a share", &s, &l))
		return;
	int64_t pct;
	uint64_t bytes;
	if (strchr(s, '%')) {
		if (!val_percent(s, &pct, &why)) {
			kw_bad(k, l, "'%s': %s", s, why);
			p->size_refused = true;
			return;
		}
		if (!kw_once(k, &p->size_pct.loc, &p->size_pct.set))
			return;
		p->size_pct.v = pct;
		p->size_pct.loc = l;
	} else {
		if (!val_size(s, &bytes, &why)) {
			kw_bad_size(k, l, s, why);
			p->size_refused = true;
			return;
		}
		if (!kw_once(k, &p->size_bytes.loc, &p->size_bytes.set))
			return;
		p->size_bytes.v = (int64_t)bytes;
		p->size_bytes.loc = l;
	}
}

/* acl "A::OWNER@:rw" ...: ACE strings, checked when the pool is planned. */
/* One or more ACE strings of a pool or a container, checked when planned. */
static void acl_entries(kw_ctx *k, struct acl_entry **acl, size_t *n, size_t *cap)
{
	do {
		struct acl_entry e;
		if (!kw_word_glued(k, "an ACE such as \"A::OWNER@:rw\"", &e.ace, &e.loc))
			return;
		ARENA_PUSH(k->r->ar, *acl, *n, *cap, e);
	} while (k->cur);
}

static void po_acl(kw_ctx *k)
{
	pool_spec *p = k->target;
	acl_entries(k, &p->acl, &p->nacl, &p->acl_cap);
}

/* mem_ratio 50%: whole or with up to two decimals, as dmg rounds it. */
static void po_mem_ratio(kw_ctx *k)
{
	pool_spec *p = k->target;
	const char *s;
	src_loc l;
	if (!kw_word_glued(k, "a percentage", &s, &l))
		return;
	int64_t whole = 0, frac = 0;
	int digits = 0, fdigits = 0;
	const char *c = s;
	for (; *c >= '0' && *c <= '9' && digits < 4; c++, digits++)
		whole = whole * 10 + (*c - '0');
	if (*c == '.')
		for (c++; *c >= '0' && *c <= '9' && fdigits < 2; c++, fdigits++)
			frac = frac * 10 + (*c - '0');
	if (fdigits == 1)
		frac *= 10;
	int64_t v = whole * 100 + frac;
	if (!digits || strcmp(c, "%") != 0 || v <= 0 || v > 10000) {
		kw_bad(k, l, "'%s': mem_ratio is a percentage above 0 and at most 100, such as 50%%", s);
		return;
	}
	if (!kw_once(k, &p->mem_ratio.loc, &p->mem_ratio.set))
		return;
	p->mem_ratio.v = v;
	p->mem_ratio.loc = l;
}

static const keyword pool_kws[] = {
	{"size", "size <size>|<percent>%", "Pool size: absolute, or a share of the cluster's capacity.", KW_CUSTOM, 0, 0, 0, NULL, po_size},
	{"svc_rf", "svc_rf <n>", "Pool service redundancy factor.", KW_INT, F(pool_spec, svc_rf), 0, 4, NULL, NULL},
	{"owner", "owner <user>", "Owner user of the pool.", KW_WORD, F(pool_spec, owner), 0, 0, NULL, NULL},
	{"group", "group <group>", "Owner group of the pool.", KW_WORD, F(pool_spec, group), 0, 0, NULL, NULL},
	{"acl", "acl \"<ACE>\"...", "Access control entries of the pool, as DAOS writes them (A::OWNER@:rw, A:G:GROUP@:r, A::alice@:r): cluster/acl/<pool>.acl, passed with --acl-file.", KW_CUSTOM, 0, 0, 0, NULL, po_acl},
	{"mem_ratio", "mem_ratio <percent>%", "DAOS 2.8 MD-on-SSD: the memory file's size as a share of the pool's metadata on SSD (--mem-ratio; DAOS's default 100%).", KW_CUSTOM, 0, 0, 0, NULL, po_mem_ratio},
};
const kw_table kw_pool = KW_TABLE("pool", pool_kws);

static void co_acl(kw_ctx *k)
{
	container_spec *c = k->target;
	acl_entries(k, &c->acl, &c->nacl, &c->acl_cap);
}

/* attr "name=value": a user attribute (daos container set-attr). Names are
 * kept to what a command line and a JSON key carry unchanged. */
static void co_attr(kw_ctx *k)
{
	container_spec *c = k->target;
	do {
		const char *s;
		src_loc l;
		if (!kw_word_glued(k, "\"name=value\"", &s, &l))
			return;
		const char *eq = strchr(s, '=');
		size_t n = eq ? (size_t)(eq - s) : 0;
		if (!eq || !n || n > 255 || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") != n ||
		    s[0] == '-' || !eq[1]) {
			kw_bad(k, l, "'%s' is not an attribute: write \"name=value\" (a name of letters, digits, '_', '.', ':' "
			       "and '-', a value that is not empty)", s);
			return;
		}
		const char *name = arena_strndup(k->r->ar, s, n);
		const env_entry *prev = env_find(&c->attrs, name);
		if (prev) {
			diag *d = diag_report(k->r->dc, R_DUPLICATE, l, "attribute %s is given twice", name);
			diag_note_at(k->r->dc, d, prev->loc, "first given here");
			diag_help(k->r->dc, d, "keep one value per attribute");
			return;
		}
		env_set(k->r->ar, &c->attrs, name, eq + 1, l);
	} while (k->cur);
}

static void co_tolerate(kw_ctx *k)
{
	container_spec *c = k->target;
	int64_t n;
	src_loc l;
	if (!kw_int(k, "a failure count", 0, 4, &n, &l))
		return;
	const char *lvl;
	src_loc ll;
	if (!kw_word(k, "node or engine", &lvl, &ll))
		return;
	if (strcmp(lvl, "node") && strcmp(lvl, "engine")) {
		kw_bad(k, ll, "'tolerate' counts node or engine failures, not '%s'", lvl);
		return;
	}
	if (!kw_expect_word(k, "failures") && !k->cur)
		return;
	if (!kw_once(k, &c->tolerate.loc, &c->tolerate.set))
		return;
	c->tolerate.v = n;
	c->tolerate.loc = src_loc_join(k->kwloc, k->last);
	c->tolerate_level.v = lvl;
	c->tolerate_level.set = true;
	c->tolerate_level.loc = ll;
}

static void co_checksum(kw_ctx *k)
{
	container_spec *c = k->target;
	static const char *const algs[] = {"off", "adler32", "crc16", "crc32", "crc64", "sha1", "sha256", "sha512", NULL};
	const char *a;
	src_loc l;
	if (!kw_word(k, "an algorithm", &a, &l))
		return;
	bool ok = false;
	for (int i = 0; algs[i]; i++)
		ok |= strcmp(algs[i], a) == 0;
	if (!ok) {
		kw_bad(k, l, "'%s' is not a checksum (off, adler32, crc16, crc32, crc64, sha1, sha256, sha512)", a);
		return;
	}
	if (!kw_once(k, &c->cksum.loc, &c->cksum.set))
		return;
	c->cksum.v = a;
	c->cksum.loc = src_loc_join(k->kwloc, l);
	if (kw_peek_word(k, "server")) {
		kw_next(k);
		c->srv_cksum.v = 1;
		c->srv_cksum.set = true;
		c->srv_cksum.loc = k->last;
	}
}

/* directory <path> [oclass <class>] [chunk <size>]: daos fs set-attr
 * --dfs-path on a directory made when the container is (targets/pools.c);
 * the path is the container's, absolute, of name components. */
static void co_directory(kw_ctx *k)
{
	container_spec *c = k->target;
	struct dir_spec d = {0};
	if (!kw_abs_path(k, "a directory of the container, e.g. /checkpoints", "directory", &d.path, &d.path_loc))
		return;
	d.loc = k->kwloc;
	if (strcmp(d.path, "/") == 0) {
		kw_bad(k, d.path_loc, "directory '/': the root takes the container's own oclass and chunk");
		return;
	}
	while (kw_peek_word(k, "oclass") || kw_peek_word(k, "chunk")) {
		bool oc = strcmp(k->cur->text, "oclass") == 0;
		src_loc wl = k->cur->loc;
		kw_next(k);
		if ((oc && d.oclass.set) || (!oc && d.chunk.set)) {
			kw_bad(k, wl, "directory %s gives %s twice", d.path, oc ? "oclass" : "chunk");
			return;
		}
		if (oc && !kw_word(k, "an object class", &d.oclass.v, &d.oclass.loc))
			return;
		uint64_t v;
		if (!oc && !kw_size(k, "a chunk size", &v, &d.chunk.loc))
			return;
		if (!oc && !v) {
			kw_bad(k, d.chunk.loc, "a chunk of 0 bytes: give its size, e.g. 8MiB");
			return;
		}
		if (!oc)
			d.chunk.v = (int64_t)v;
		*(oc ? &d.oclass.set : &d.chunk.set) = true;
	}
	if (!d.oclass.set && !d.chunk.set) {
		kw_bad(k, d.path_loc, "directory %s sets nothing: add `oclass <class>`, `chunk <size>` or both", d.path);
		return;
	}
	d.loc = src_loc_join(d.loc, k->last);
	for (size_t i = 0; i < c->ndirs; i++)
		if (strcmp(c->dirs[i].path, d.path) == 0) {
			diag *dg = diag_report(k->r->dc, R_DUPLICATE, d.path_loc, "directory %s is given twice", d.path);
			diag_note_at(k->r->dc, dg, c->dirs[i].path_loc, "first given here");
			diag_help(k->r->dc, dg, "keep one line per directory");
			return;
		}
	ARENA_PUSH(k->r->ar, c->dirs, c->ndirs, c->dirs_cap, d);
}

static const char *const ctypes[] = {"posix", "hdf5", "python", "spark", "database", "root", "seismic", "meteo", NULL};
static const char *const file_kinds[] = {"large", "small", "mixed", "per-process", NULL};
static const char *const dir_kinds[] = {"large", "small", NULL};
static const char *const rd_lvls[] = {"node", "rank", NULL};

static const keyword container_kws[] = {
	{"type", "type <posix|hdf5|python|spark|database|root|seismic|meteo>", "Container type.", KW_ENUM, F(container_spec, type), 0, 0, ctypes, NULL},
	{"tolerate", "tolerate <n> node|engine failures", "Redundancy goal: compiled into rd_fac, rd_lvl and object classes.", KW_CUSTOM, 0, 0, 0, NULL, co_tolerate},
	{"files", "files <large|small|mixed|per-process>", "File goal: picks the file object class and chunk size (the Aurora tutorials' table): large (SX, EC_16PnGX, 8 MiB chunks), small (S1, RP_nG1), mixed (narrow EC_kPnGX, k <= 4, 1 MiB chunks: one shared tree with files of every size), per-process (S32, EC_16PnG32, chunks of 2 MiB or more: a file per process over thousands of clients, where GX touches every target for every file).", KW_ENUM, F(container_spec, files), 0, 0, file_kinds, NULL},
	{"directories", "directories <large|small>", "Directory-size goal: picks the directory object class.", KW_ENUM, F(container_spec, directories), 0, 0, dir_kinds, NULL},
	{"checksum", "checksum <algorithm> [server]", "Data checksums (cksum), and server-side verification (srv_cksum).", KW_CUSTOM, 0, 0, 0, NULL, co_checksum},
	{"oclass", "oclass <class>", "Explicit object class (files and directories).", KW_WORD, F(container_spec, oclass), 0, 0, NULL, NULL},
	{"dir_oclass", "dir_oclass <class>", "Explicit directory object class.", KW_WORD, F(container_spec, dir_oclass), 0, 0, NULL, NULL},
	{"file_oclass", "file_oclass <class>", "Explicit file object class.", KW_WORD, F(container_spec, file_oclass), 0, 0, NULL, NULL},
	{"chunk", "chunk <size>", "Explicit chunk size.", KW_SIZE, F(container_spec, chunk), 1, MAXI, NULL, NULL},
	{"acl", "acl \"<ACE>\"...", "Access control entries of the container, as DAOS writes them (A::OWNER@:rwdtTaAo, A:G:ml@:rw): cluster/acl/<pool>/<container>.acl, passed to `daos container create --acl-file`.", KW_CUSTOM, 0, 0, 0, NULL, co_acl},
	{"attr", "attr \"<name>=<value>\"...", "User attributes of the container (a description, an owner's contact): `daos container set-attr` on every run of daos-pools.sh, so a changed value is applied.", KW_CUSTOM, 0, 0, 0, NULL, co_attr},
	{"ec_cell", "ec_cell <size>", "Explicit EC cell size (ec_cell_sz).", KW_SIZE, F(container_spec, ec_cell), 1, MAXI, NULL, NULL},
	{"rd_fac", "rd_fac <0-4>", "Explicit redundancy factor.", KW_INT, F(container_spec, rd_fac), 0, 4, NULL, NULL},
	{"rd_lvl", "rd_lvl <node|rank>", "Explicit redundancy level.", KW_ENUM, F(container_spec, rd_lvl), 0, 0, rd_lvls, NULL},
	{"label", "label <label>", "Container label (default: the container's name).", KW_WORD, F(container_spec, label), 0, 0, NULL, NULL},
	{"directory", "directory <path> [oclass <class>] [chunk <size>]", "A directory of a POSIX container made when daos-pools.sh runs, with its own object class and chunk size for the files and directories created in it (`daos fs set-attr --dfs-path`), e.g. a checkpoint directory on EC beside small files on replicas.", KW_CUSTOM, 0, 0, 0, NULL, co_directory},
};
const kw_table kw_container = KW_TABLE("container", container_kws);
