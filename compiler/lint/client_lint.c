/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* client_lint.c - see client_lint.h. */
#include "client_lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "compiler/base/strmap.h"
#include "compiler/place/clients.h"

/* Paths ordered so that every path's descendants follow it at once: '/'
 * sorts before any other byte ("/a", "/a/b", "/a-c"), so a conflict on a
 * node is always between neighbours of its mounts in this order. */
static int path_order(const void *x, const void *y)
{
	const unsigned char *a = (const unsigned char *)(*(const mount_spec *const *)x)->path;
	const unsigned char *b = (const unsigned char *)(*(const mount_spec *const *)y)->path;
	for (;; a++, b++) {
		int ca = *a == '/' ? 1 : *a, cb = *b == '/' ? 1 : *b;
		if (ca != cb || !ca)
			return ca - cb;
	}
}

/* a is b, or an ancestor of b */
static bool path_within(const char *a, const char *b)
{
	size_t n = strlen(a);
	return strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/');
}

typedef struct mount_check {
	model *m;
	const mount_spec **sorted;
	size_t n;
	strmap reported; /* "a\x1fb" of mount pairs, and "pod\x1f<a>" */
	bool intercept_reported;
} mount_check;

static bool first_time(mount_check *c, const char *key)
{
	if (strmap_get(&c->reported, key))
		return false;
	strmap_put(&c->reported, arena_strdup(c->m->ar, key), (void *)1);
	return true;
}

static void path_conflict(mount_check *c, const mount_spec *outer, const mount_spec *inner, const node *nd)
{
	char key[64];
	snprintf(key, sizeof(key), "%p\x1f%p", (const void *)outer, (const void *)inner);
	if (!first_time(c, key))
		return;
	diag_ctx *dc = c->m->dc;
	bool same = strcmp(outer->path, inner->path) == 0;
	/* the later of the two statements is the one to change */
	const mount_spec *later = inner->loc.file > outer->loc.file ||
			(inner->loc.file == outer->loc.file && inner->loc.start > outer->loc.start) ? inner : outer;
	const mount_spec *other = later == inner ? outer : inner;
	diag *d = same ? diag_report(dc, R_MOUNT_PATH_REUSED, later->path_loc, "%s is mounted twice on %s", later->path, nd->host)
		       : diag_report(dc, R_MOUNT_PATH_REUSED, later->path_loc, "%s and %s are nested on %s", inner->path,
				     outer->path, nd->host);
	diag_note_at(dc, d, other->path_loc, same ? "also mounted here" : "the other mount");
	diag_help(dc, d, "give each mount its own path outside the others, or narrow their `on` lists apart");
}

static void intercept_conflict(mount_check *c, const mount_spec *a, const mount_spec *b, const node *nd)
{
	if (c->intercept_reported)
		return;
	c->intercept_reported = true;
	diag *d = diag_report(c->m->dc, R_INTERCEPT_CONFLICT, b->intercept.loc, "%s gets both lib%s and lib%s", nd->host,
			      a->intercept.v, b->intercept.v);
	diag_note_at(c->m->dc, d, a->intercept.loc, "the other library");
	diag_help(c->m->dc, d, "ask for one library on the mounts of %s: `intercept %s` on both", nd->host, a->intercept.v);
}

static void io_conflict(mount_check *c, const mount_spec *a, const mount_spec *b, const node *nd, bool hdf5)
{
	char key[64];
	snprintf(key, sizeof(key), "io%d\x1f%p\x1f%p", hdf5, (const void *)a, (const void *)b);
	if (!clients_io_conflict(c->m->ar, a, b, hdf5) || !first_time(c, key))
		return;
	bool hints = !hdf5;
	const char *what = hdf5 ? "hdf5_vol" : "mpiio";
	diag *d = diag_report(c->m->dc, R_MPIIO_CONFLICT, hints ? b->mpiio.loc : b->hdf5_vol.loc,
			      "%s gets two %s from mounts %s and %s: its jobs read one", nd->host,
			      hints ? "sets of ROMIO hints" : "HDF5 VOL directories", a->path, b->path);
	diag_note_at(c->m->dc, d, hints ? a->mpiio.loc : a->hdf5_vol.loc, "the other");
	diag_help(c->m->dc, d, "give both mounts the same %s, or narrow their `on` lists apart", what);
}

static void pod_node(mount_check *c, const mount_spec *mt, const node *nd)
{
	char key[64];
	snprintf(key, sizeof(key), "pod\x1f%p", (const void *)mt);
	if (!first_time(c, key))
		return;
	diag *d = diag_report(c->m->dc, R_MOUNT_POD_NODE, mt->on_set ? mt->on_loc : mt->path_loc,
			      "mount %s on %s, whose daos_agent runs in a pod", mt->path, nd->host);
	diag_note_at(c->m->dc, d, nd->spec->deploy.loc, "deployed with Kubernetes here");
	diag_help(c->m->dc, d, "name only systemd-deployed nodes in `on`, or mount dfuse inside the training pods");
}

/* One pass over the nodes, each node's mounts in path order: O(nodes x
 * mounts), whatever the sharing. */
static void check_nodes(mount_check *c)
{
	model *m = c->m;
	for (size_t i = 0; i < m->nnodes; i++) {
		const node *nd = &m->nodes[i];
		const mount_spec *prev = NULL, *lib = NULL, *hints = NULL, *vol = NULL;
		for (size_t k = 0; k < c->n; k++) {
			const mount_spec *mt = c->sorted[k];
			if (!mount_on(mt, i))
				continue;
			if (hints)
				io_conflict(c, hints, mt, nd, false);
			if (vol)
				io_conflict(c, vol, mt, nd, true);
			hints = hints ? hints : mt->mpiio.set ? mt : NULL;
			vol = vol ? vol : mt->hdf5_vol.set ? mt : NULL;
			if (nd->spec && spec_in_pods(nd->spec))
				pod_node(c, mt, nd);
			if (prev && path_within(prev->path, mt->path))
				path_conflict(c, prev, mt, nd);
			prev = mt;
			if (mt->intercept.set) {
				if (lib && strcmp(lib->intercept.v, mt->intercept.v) != 0)
					intercept_conflict(c, lib, mt, nd);
				lib = lib ? lib : mt;
			}
		}
	}
}

static void check_mount(model *m, const mount_spec *mt)
{
	diag_ctx *dc = m->dc;
	const container_spec *cs = mt->cont;
	if (cs && cs->type.set && strcasecmp(cs->type.v, "posix") != 0) {
		diag *d = diag_report(dc, R_MOUNT_CONTAINER_TYPE, mt->container_loc, "container %s is of type %s: dfuse mounts POSIX containers only",
				      cs->name, cs->type.v);
		diag_note_at(dc, d, cs->type.loc, "its type");
		diag_help(dc, d, "mount a `type posix` container");
	}
	if (mt->eq_count.set) {
		int64_t threads = mt->threads.set ? mt->threads.v : 16;
		if (mt->eq_count.v >= threads) {
			diag *d = diag_report(dc, R_DFUSE_THREADS, mt->eq_count.loc,
					      "%lld event queues take all %lld dfuse threads%s: none is left for FUSE",
					      (long long)mt->eq_count.v, (long long)threads, mt->threads.set ? "" : " (its default at most)");
			if (mt->threads.set) {
				diag_help(dc, d, "write `threads %lld` (event_queues + 1) or more", (long long)mt->eq_count.v + 1);
				diag_fix_edit(dc, d, mt->threads.loc, "threads %lld", (long long)mt->eq_count.v + 1);
			} else {
				diag_help(dc, d, "write `threads %lld` (event_queues + 1) or more beside it", (long long)mt->eq_count.v + 1);
				src_loc after = mt->eq_count.loc;
				after.start = after.end; /* on the event_queues line, as one more setting of it */
				diag_fix_edit(dc, d, after, "  threads %lld", (long long)mt->eq_count.v + 1);
			}
		}
	}
	if (mt->multi_user.set && mt->multi_user.v && (!mt->user.set || strcmp(mt->user.v, "root") == 0)) {
		diag *d = diag_report(dc, R_MOUNT_MULTI_USER_OWNER, mt->user.set ? mt->user.loc : mt->multi_user.loc,
				      "multi-user mount %s runs dfuse as root", mt->path);
		diag_help(dc, d, "add `user <account>` with a dedicated account that owns pool %s and container %s", mt->pool,
			  mt->container);
	}
}

static bool mount_writes(const mount_spec *mt)
{
	return mt->container_set && !(mt->read_only.set && mt->read_only.v);
}

static bool mount_rw_cached(const mount_spec *mt)
{
	return mount_writes(mt) && !(mt->caching.set && strcmp(mt->caching.v, "off") == 0);
}

/* Per container ("pool\x1fcontainer"): the first node a read-write mount
 * of it was seen on, and whether a second one was. */
typedef struct rw_nodes {
	size_t first;
	bool several;
} rw_nodes;

/* A container mounted read-write with caching on more than one node
 * (mount-caching-shared): the nodes of every mount of the container that
 * writes count, whichever caching the others have. One pass over the
 * mounts' nodes, stopping at a container's second node. */
static void check_shared_caching(model *m)
{
	strmap seen;
	strmap_init(&seen, m->ar);
	for (size_t k = 0; k < m->nmounts; k++) {
		const mount_spec *o = m->mounts[k];
		if (!mount_writes(o))
			continue;
		const char *key = arena_printf(m->ar, "%s\x1f%s", o->pool, o->container);
		rw_nodes *r = strmap_get(&seen, key);
		if (!r) {
			r = arena_alloc(m->ar, sizeof(*r));
			r->first = SIZE_MAX;
			strmap_put(&seen, key, r);
		}
		for (size_t i = 0; i < m->nnodes && !r->several; i++) {
			if (!mount_on(o, i))
				continue;
			if (r->first == SIZE_MAX)
				r->first = i;
			else if (r->first != i)
				r->several = true;
		}
	}
	for (size_t k = 0; k < m->nmounts; k++) {
		const mount_spec *mt = m->mounts[k];
		if (!mount_rw_cached(mt))
			continue;
		const rw_nodes *r = strmap_get(&seen, arena_printf(m->ar, "%s\x1f%s", mt->pool, mt->container));
		if (!r || !r->several)
			continue;
		diag *d = diag_report(m->dc, R_MOUNT_CACHING_SHARED, mt->caching.set ? mt->caching.loc : mt->path_loc,
				      "container %s is mounted read-write on several nodes with dfuse caching %s: a node may read "
				      "stale data another wrote", mt->container, mt->caching.set ? mt->caching.v : "on (the default)");
		diag_help(m->dc, d, "write `caching off` in this mount block (dfuse --disable-caching), or `read_only true` "
			  "where the nodes only read");
		/* the fix takes the first: it is right whatever the nodes do */
		if (mt->caching.set)
			diag_fix_edit(m->dc, d, mt->caching.loc, "caching off");
		else
			diag_fix_in_block(m->dc, d, mt->loc, " caching off ");
	}
}

/* Environment names DAOS sets or reads itself (client-env), for client_env
 * (agent) and a mount's env (dfuse); prefix: every name that starts so. */
typedef struct client_env_rule {
	const char *name;
	bool prefix, agent_only; /* agent_only: fine in dfuse's own environment */
	const char *why;
} client_env_rule;

static const client_env_rule client_env_rules[] = {
	{"FI_OFI_RXM_USE_SRX", false, false, "the client takes daos_server's SRX setting and refuses to start when this is set "
	 "and the servers' is not: leave it to disable_srx"},
	{"CRT_TIMEOUT", false, false, "it overrides the servers' crt_timeout: use `crt_timeout` in the cluster block"},
	{"D_PROVIDER", false, false, "the agent picks the client's provider: use `provider`"},
	{"D_INTERFACE", false, false, "the agent picks the client's interface (fabric_ifaces)"},
	{"D_DOMAIN", false, false, "the agent picks the client's domain (fabric_ifaces)"},
	{"D_PORT", false, false, "clients take no fixed port"},
	{"FI_VERBS_GID_IDX", false, false, "use `fabric roce { gid_index <n> }`: dslc writes it to client_env_vars"},
	{"D_CLIENT_METRICS_", true, false, "daos_agent sets it from its telemetry settings"},
	{"D_IL_", true, false, "the interception library reads it when it loads, in the job: set it in the job's environment "
	 "(`D_IL_REPORT=1 with-pil4dfs ./app`)"},
	{"D_LOG_MASK", false, true, "daos_init reads it before the agent's environment arrives: set it in the job's environment, "
	 "or in a mount's `env` for dfuse"},
	{"HDF5_VOL_CONNECTOR", false, true, "HDF5 picks its connector when the library starts, before the DAOS VOL calls daos_init: "
	 "give the mount `hdf5_vol \"<plugin directory>\"` and run jobs as `with-daos-io ./app`"},
	{"HDF5_PLUGIN_PATH", false, true, "HDF5 searches its plugin path when the library starts, before daos_init: give the "
	 "mount `hdf5_vol \"<plugin directory>\"` and run jobs as `with-daos-io ./app`"},
	{"DD_MASK", false, true, "daos_init reads it before the agent's environment arrives: set it in the job's environment"},
	{"DD_SUBSYS", false, true, "daos_init reads it before the agent's environment arrives: set it in the job's environment"},
	{"D_LOG_", true, true, "daos_init reads it before the agent's environment arrives: set it in the job's environment"},
};

static void check_env_entries(model *m, const env_list *env, bool agent, const char *what)
{
	for (size_t i = 0; i < env->n; i++) {
		const env_entry *e = &env->items[i];
		for (size_t k = 0; k < sizeof(client_env_rules) / sizeof(client_env_rules[0]); k++) {
			const client_env_rule *r = &client_env_rules[k];
			size_t n = strlen(r->name);
			if ((r->prefix ? strncmp(e->name, r->name, n) != 0 : strcmp(e->name, r->name) != 0) || (r->agent_only && !agent))
				continue;
			diag *d = diag_report(m->dc, R_CLIENT_ENV, e->loc, "%s in %s: %s", e->name, what, r->why);
			diag_help(m->dc, d, "remove the entry");
			break;
		}
		if (agent && strlen(e->name) + 1 + strlen(e->value) >= 1024) {
			diag *d = diag_report(m->dc, R_CLIENT_ENV, e->loc, "client_env %s is %zu bytes: clients drop entries of 1024 or more",
					      e->name, strlen(e->name) + 1 + strlen(e->value));
			diag_help(m->dc, d, "shorten the value");
		}
	}
}

static void lint_nccl(model *m, const node_spec *s)
{
	if (!s->hw || !clients_nccl_wanted(s))
		return;
	const hardware *hw = s->hw;
	bool compute = false;
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *n = &hw->nics[i];
		if (!n->role || strcmp(n->role, "compute") != 0)
			continue;
		compute = true;
		const nic_desc *storage = clients_also_storage(hw, n);
		if (storage) {
			diag *d = diag_report(m->dc, R_NCCL_HCA, n->loc, "compute NIC %s is also a storage NIC of %s: NCCL would share DAOS's fabric",
					      n->name, hw->name);
			diag_note_at(m->dc, d, storage->loc, "the storage NIC %s, on the same %s", storage->name,
				     n->pci[0] && strcmp(storage->pci, n->pci) == 0 ? "PCI function" : "RDMA device");
			diag_reads(m->dc, d, storage->loc);
			diag_help(m->dc, d, "describe the compute NIC with its own PCI address and RDMA device, or drop `role compute`");
		} else if (!n->rdma) {
			diag *d = diag_report(m->dc, R_NCCL_HCA, n->loc, "compute NIC %s has no RDMA device: NCCL_IB_HCA cannot name it", n->name);
			diag_help(m->dc, d, "add `rdma <device>` as ibv_devices lists it, e.g. rdma mlx5_2");
		}
	}
	if (compute)
		return;
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *n = &hw->nics[i];
		if (n->role && strcmp(n->role, "storage") == 0 && !n->rdma) {
			diag *d = diag_report(m->dc, R_NCCL_HCA, n->loc, "storage NIC %s has no RDMA device: NCCL_IB_HCA cannot exclude it",
					      n->name);
			diag_help(m->dc, d, "add `rdma <device>` as ibv_devices lists it, e.g. rdma mlx5_0");
		}
	}
}

void client_lint(model *m)
{
	check_env_entries(m, &m->cluster.client_env, true, "client_env");
	for (size_t k = 0; k < m->nmounts; k++)
		check_env_entries(m, &m->mounts[k]->env, false, "dfuse's env");
	for (size_t k = 0; k < m->nmounts; k++) {
		const mount_spec *mt = m->mounts[k];
		if (!mt->intercept_global.set)
			continue;
		diag *d = diag_report(m->dc, R_INTERCEPT_GLOBAL, mt->intercept_global.loc,
				      "every login shell of these nodes preloads lib%s: the launcher, compilers and every user's jobs",
				      mt->intercept.v);
		diag_help(m->dc, d, "drop `global`: dslc writes usr/local/bin/with-%s, run jobs as `mpiexec ... with-%s ./app`",
			  mt->intercept.v, mt->intercept.v);
	}
	for (size_t i = 0; i < m->nspecs; i++) {
		place_context(m, m->specs[i]);
		lint_nccl(m, m->specs[i]);
	}
	place_context(m, NULL);
	if (!m->nmounts)
		return;
	mount_check c = {m, arena_alloc(m->ar, m->nmounts * sizeof(*c.sorted)), 0, {0}, false};
	strmap_init(&c.reported, m->ar);
	for (size_t k = 0; k < m->nmounts; k++)
		if (m->mounts[k]->container_set) {
			check_mount(m, m->mounts[k]);
			c.sorted[c.n++] = m->mounts[k];
		}
	check_shared_caching(m);
	qsort(c.sorted, c.n, sizeof(*c.sorted), path_order);
	check_nodes(&c);
}
