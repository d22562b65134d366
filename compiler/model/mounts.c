/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* mounts.c - `mount <path> { ... }`: dfuse mounts of containers on client
 * (and converged) nodes. The block is read in pass 1 like a pool; its host
 * lists, pool and container are resolved once every node and container is
 * known (mounts_resolve). What dfuse accepts is from
 * src/client/dfuse/dfuse_main.c (release/2.6, release/2.8). */
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "kw.h"

#define F(type, field) offsetof(type, field)

/* container <name> in <pool> */
static void mo_container(kw_ctx *k)
{
	mount_spec *mt = k->target;
	const char *c, *p;
	src_loc cl, pl;
	if (!kw_word(k, "a container name", &c, &cl) || !kw_expect_word(k, "in") || !kw_word(k, "a pool name", &p, &pl))
		return;
	if (!kw_once(k, &mt->container_loc, &mt->container_set))
		return;
	mt->container = c;
	mt->container_loc = cl;
	mt->pool = p;
	mt->pool_loc = pl;
}

/* on gpu[001-014], cn[01-16]: kept as written, expanded by mounts_resolve.
 * The list ends at the first word not after a ',': another keyword may
 * follow on the line. */
static void mo_on(kw_ctx *k)
{
	mount_spec *mt = k->target;
	src_loc kl = k->kwloc;
	if (!kw_once(k, &mt->on_loc, &mt->on_set))
		return;
	if (!k->cur) {
		kw_missing(k, "a host list");
		return;
	}
	mt->on = k->cur;
	ast_value *last = kw_next(k);
	while (k->cur && k->cur->kind == AST_PUNCT && strcmp(k->cur->text, ",") == 0) {
		kw_next(k);
		if (!k->cur) {
			kw_missing(k, "a host list after ','");
			return;
		}
		last = kw_next(k);
	}
	mt->on_loc = src_loc_join(kl, k->last);
	mt->on_end = last;
}

/* intercept <pil4dfs|ioil> [global] */
static void mo_intercept(kw_ctx *k)
{
	mount_spec *mt = k->target;
	const char *lib;
	src_loc l;
	if (!kw_word(k, "pil4dfs or ioil", &lib, &l))
		return;
	if (strcmp(lib, "pil4dfs") != 0 && strcmp(lib, "ioil") != 0) {
		kw_bad(k, l, "'%s' is not an interception library: pil4dfs or ioil", lib);
		return;
	}
	if (!kw_once(k, &mt->intercept.loc, &mt->intercept.set))
		return;
	mt->intercept.v = lib;
	mt->intercept.loc = l;
	if (kw_peek_word(k, "global")) {
		src_loc gl = k->cur->loc;
		kw_next(k);
		mt->intercept_global.set = true;
		mt->intercept_global.v = 1;
		mt->intercept_global.loc = gl;
	}
}

static void mo_env(kw_ctx *k)
{
	kw_env(k, &((mount_spec *)k->target)->env);
}

/* mpiio { ... }: the hints ROMIO takes from its hints file, one per line
 * (romio/adio/common/system_hints.c); the table below is kw_mpiio. */
static void mo_mpiio(kw_ctx *k)
{
	mount_spec *mt = k->target;
	kw_sub_block(k, &kw_mpiio, mt, &mt->mpiio.loc, &mt->mpiio.set);
}

/* hdf5_vol "<plugin directory>": an absolute path of name components (it is
 * written into a shell script). */
static void mo_hdf5_vol(kw_ctx *k)
{
	mount_spec *mt = k->target;
	const char *dir;
	src_loc l;
	if (!kw_abs_path(k, "the directory of libhdf5_vol_daos.so, e.g. \"/usr/lib64/hdf5/plugin\"", "hdf5_vol", &dir, &l) ||
	    !kw_once(k, &mt->hdf5_vol.loc, &mt->hdf5_vol.set))
		return;
	mt->hdf5_vol.v = dir;
	mt->hdf5_vol.loc = l;
}

static const char *const cachings[] = {"on", "off", "write-through", NULL};

static const keyword mount_kws[] = {
	{"container", "container <name> in <pool>", "The POSIX container to mount and its pool (both defined in the description). Required.", KW_CUSTOM, 0, 0, 0, NULL, mo_container},
	{"on", "on <hostlist>[, <hostlist>...]", "The nodes that mount it (default: every node of the description).", KW_CUSTOM, 0, 0, 0, NULL, mo_on},
	{"user", "user <account>", "The account dfuse runs as (the service's User=; default root). A multi-user mount wants a dedicated account that owns the pool and container.", KW_WORD, F(mount_spec, user), 0, 0, NULL, NULL},
	{"multi_user", "multi_user <true|false>", "dfuse --multi-user: one dfuse serves every user of the node (etc/fuse.conf gets user_allow_other).", KW_BOOL, F(mount_spec, multi_user), 0, 1, NULL, NULL},
	{"read_only", "read_only <true|false>", "dfuse --read-only.", KW_BOOL, F(mount_spec, read_only), 0, 1, NULL, NULL},
	{"caching", "caching <on|off|write-through>", "dfuse caching: on (the default), off (--disable-caching) or write-through (--disable-wb-cache).", KW_ENUM, F(mount_spec, caching), 0, 0, cachings, NULL},
	{"threads", "threads <n>", "dfuse --thread-count: every thread, event-queue threads included (default: the cores dfuse may use, at most 16).", KW_INT, F(mount_spec, threads), 2, 1024, NULL, NULL},
	{"event_queues", "event_queues <n>", "dfuse --eq-count: event queues, one progress thread each (default 1); at least one thread is left for FUSE.", KW_INT, F(mount_spec, eq_count), 1, 1023, NULL, NULL},
	{"intercept", "intercept <pil4dfs|ioil> [global]", "The interception library for jobs on these nodes: a wrapper command usr/local/bin/with-<lib> that preloads it for one program (`mpiexec -n 64 with-pil4dfs ./app`), as DAOS's tutorials advise; with `global`, every login shell preloads it (etc/profile.d/dslc-daos-intercept.sh), which they advise against.", KW_CUSTOM, 0, 0, 0, NULL, mo_intercept},
	{"env", "env <NAME>=<value>...", "Entries of the dfuse service's environment (Environment= in its unit), e.g. D_LOG_MASK=INFO or FI_MR_CACHE_MONITOR=kdreg2.", KW_CUSTOM, 0, 0, 0, NULL, mo_env},
	{"mpiio", "mpiio { <hint> <value> ... }", "ROMIO hints for the MPI-IO jobs of these nodes: etc/daos/romio-hints, which usr/local/bin/with-daos-io names in ROMIO_HINTS for one job (`mpiexec -n 64 with-daos-io ./app`).", KW_CUSTOM, 0, 0, 0, NULL, mo_mpiio},
	{"hdf5_vol", "hdf5_vol \"<plugin directory>\"", "HDF5's DAOS VOL connector for the jobs of these nodes: with-daos-io sets HDF5_VOL_CONNECTOR=daos and puts the directory (where libhdf5_vol_daos.so is) first in HDF5_PLUGIN_PATH, for one job.", KW_CUSTOM, 0, 0, 0, NULL, mo_hdf5_vol},
};
const kw_table kw_mount = KW_TABLE("mount", mount_kws);

static const char *const romio_switch[] = {"enable", "disable", "automatic", NULL};

/* cb_config_list "<host>:<n>,...": the aggregators ROMIO picks per host
 * (romio/adio/common/cb_config_list.c: names or '*', each with ':' and a
 * count or '*', comma separated). Only those bytes: the value is one line of
 * the hints file, and a blank or a newline would start another hint. */
static bool cb_config_list_ok(const char *v)
{
	if (!*v || strlen(v) > 256)
		return false;
	for (const char *e = v; *e;) {
		size_t name = strspn(e, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_");
		if (!name && *e == '*')
			name = 1;
		if (!name)
			return false;
		e += name;
		if (*e == ':') {
			e++;
			size_t n = *e == '*' ? 1 : strspn(e, "0123456789");
			if (!n || (*e == '0' && n == 1))
				return false;
			e += n;
		}
		if (*e == ',' && e[1])
			e++;
		else if (*e)
			return false;
	}
	return true;
}

static void mp_cb_config_list(kw_ctx *k)
{
	mount_spec *mt = k->target;
	const char *v;
	src_loc l;
	if (!kw_string(k, "a quoted list such as \"*:1\" (each host or * with ':' and its aggregators)", &v, &l) ||
	    !kw_once(k, &mt->mpiio.cb_config_list.loc, &mt->mpiio.cb_config_list.set))
		return;
	if (!cb_config_list_ok(v)) {
		kw_bad(k, l, "cb_config_list \"%s\" is not a list of <host>:<n> (or *), comma separated", v);
		mt->mpiio.cb_config_list.set = false;
		return;
	}
	mt->mpiio.cb_config_list.v = v;
	mt->mpiio.cb_config_list.loc = l;
}

/* ROMIO's own hints (romio/adio/common/ad_hints.c ADIOI_GEN_SetInfo) and the
 * DAOS driver's (romio/adio/ad_daos/ad_daos_hints.c ADIOI_DAOS_SetInfo). */
static const keyword mpiio_kws[] = {
	{"romio_cb_read", "romio_cb_read <enable|disable|automatic>", "Collective buffering of reads (ROMIO hint romio_cb_read).", KW_ENUM, F(mount_spec, mpiio.cb_read), 0, 0, romio_switch, NULL},
	{"romio_cb_write", "romio_cb_write <enable|disable|automatic>", "Collective buffering of writes (ROMIO hint romio_cb_write).", KW_ENUM, F(mount_spec, mpiio.cb_write), 0, 0, romio_switch, NULL},
	{"romio_ds_read", "romio_ds_read <enable|disable|automatic>", "Data sieving of reads (ROMIO hint romio_ds_read).", KW_ENUM, F(mount_spec, mpiio.ds_read), 0, 0, romio_switch, NULL},
	{"romio_ds_write", "romio_ds_write <enable|disable|automatic>", "Data sieving of writes (ROMIO hint romio_ds_write).", KW_ENUM, F(mount_spec, mpiio.ds_write), 0, 0, romio_switch, NULL},
	{"cb_buffer_size", "cb_buffer_size <size>", "Each aggregator's collective buffer (ROMIO hint cb_buffer_size, written in bytes).", KW_SIZE, F(mount_spec, mpiio.cb_buffer_size), 4096, (int64_t)1 << 31, NULL, NULL},
	{"cb_nodes", "cb_nodes <n>", "Aggregators of collective I/O (ROMIO hint cb_nodes).", KW_INT, F(mount_spec, mpiio.cb_nodes), 1, 1 << 20, NULL, NULL},
	{"romio_daos_obj_class", "romio_daos_obj_class <class>", "The object class of the files MPI-IO creates through ROMIO's DAOS driver (checked against the mounted container's redundancy and fault domains).", KW_WORD, F(mount_spec, mpiio.obj_class), 0, 0, NULL, NULL},
	{"cb_config_list", "cb_config_list \"<host>:<n>,...\"", "Where collective I/O's aggregators run: per host (or * for any), how many (ROMIO hint cb_config_list, e.g. \"*:1\", one per node).", KW_CUSTOM, 0, 0, 0, NULL, mp_cb_config_list},
	{"striping_unit", "striping_unit <size>", "The stripe size ROMIO aligns its file domains to (ROMIO hint striping_unit, written in bytes).", KW_SIZE, F(mount_spec, mpiio.striping_unit), 4096, (int64_t)1 << 31, NULL, NULL},
	{"romio_daos_chunk_size", "romio_daos_chunk_size <size>", "The chunk size of the files MPI-IO creates through ROMIO's DAOS driver (ROMIO hint romio_daos_chunk_size, in bytes).", KW_SIZE, F(mount_spec, mpiio.chunk_size), 4096, (int64_t)1 << 31, NULL, NULL},
};
const kw_table kw_mpiio = KW_TABLE("mpiio", mpiio_kws);

void top_mount(kw_ctx *k)
{
	model *m = k->r->m;
	mount_spec *mt = arena_alloc(k->r->ar, sizeof(*mt));
	if (!kw_word(k, "an absolute mount path", &mt->path, &mt->path_loc))
		return;
	ast_block *b = kw_block(k);
	if (!b)
		return;
	mt->loc = k->st->loc;
	const char *why = safe_mount_path(mt->path);
	if (why) {
		diag *d = diag_report(k->r->dc, R_BAD_VALUE, mt->path_loc, "mount path '%s': %s",
				      safe_echo(k->r->ar, mt->path), why);
		diag_help(k->r->dc, d, "write an absolute path of letters, digits, '.', '_' and '-' components, e.g. /mnt/daos");
		return;
	}
	ARENA_PUSH(k->r->ar, m->mounts, m->nmounts, m->mounts_cap, mt);
	const kw_table *t[] = {&kw_mount};
	kw_apply(k->r, b, t, 1, mt, -1);
	if (!mt->container_set) {
		diag *d = diag_report(k->r->dc, R_BAD_VALUE, mt->path_loc, "mount %s names no container", mt->path);
		diag_help(k->r->dc, d, "add `container <name> in <pool>` to the block");
		for (const ast_stmt *in = b->first; in; in = in->next) /* a container line it could not read */
			if (ast_is_word(in->values, "container"))
				diag_reads(k->r->dc, d, in->loc);
	}
}

static void unknown_host(model *m, const char *host, src_loc loc)
{
	const char *sug = model_suggest_node(m, host);
	diag *d = diag_report(m->dc, R_UNKNOWN_NAME, loc, "mount on %s: not a node of the cluster", host);
	if (sug) {
		diag_help(m->dc, d, "did you mean '%s'?", sug);
		diag_fix_name(m->dc, d, loc, host, model_suggest_node_unique(m, host));
	}
	else
		diag_help(m->dc, d, "name nodes defined by `nodes` blocks");
}

static void resolve_hosts(model *m, mount_spec *mt)
{
	mt->at = arena_alloc(m->ar, m->nnodes ? m->nnodes : 1);
	for (ast_value *v = mt->on; v; v = v == mt->on_end ? NULL : v->next) {
		if (v->kind == AST_PUNCT && strcmp(v->text, ",") == 0)
			continue;
		const char **hosts, *why;
		int64_t *nums;
		size_t n;
		if (v->kind != AST_WORD) {
			diag *d = diag_report(m->dc, R_BAD_VALUE, v->loc, "expected a host list");
			diag_help(m->dc, d, "write host lists like gpu[001-014], separated by ','");
			continue;
		}
		if (!hostlist_expand(m->ar, v->text, &hosts, &nums, &n, HOSTLIST_MAX, &why)) {
			diag *d = diag_report(m->dc, R_BAD_VALUE, v->loc, "'%s': %s", v->text, why);
			diag_help(m->dc, d, "write host lists like gpu[001-014] or gpu[001-003,007]");
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			const node *nd = model_node(m, hosts[i]);
			if (nd)
				mt->at[nd - m->nodes] = 1;
			else if (!m->nodes_incomplete)
				unknown_host(m, hosts[i], v->loc);
		}
	}
}

static void resolve_container(model *m, mount_spec *mt)
{
	if (!strmap_get(&m->pool_index, mt->pool)) {
		model_unknown_pool(m, mt->pool, mt->pool_loc);
		return;
	}
	const char *key = arena_printf(m->ar, "%s\x1f%s", mt->pool, mt->container);
	mt->cont = strmap_get(&m->container_index, key);
	if (mt->cont)
		return;
	const char *names[256];
	size_t n = 0;
	for (size_t i = 0; i < m->ncontainers && n < 256; i++)
		if (strcmp(m->containers[i]->pool, mt->pool) == 0)
			names[n++] = m->containers[i]->name;
	const char *sug = kw_suggest(mt->container, names, n);
	diag *d = diag_report(m->dc, R_UNKNOWN_NAME, mt->container_loc, "pool %s has no container named '%s'", mt->pool,
			      mt->container);
	if (sug) {
		diag_help(m->dc, d, "did you mean '%s'?", sug);
		diag_fix_name(m->dc, d, mt->container_loc, mt->container, kw_suggest_unique(mt->container, names, n));
	} else
		diag_help(m->dc, d, "define it: `container %s in %s { type posix tolerate 2 node failures }`", mt->container,
			  mt->pool);
}

void mounts_resolve(model *m)
{
	for (size_t i = 0; i < m->nmounts; i++) {
		mount_spec *mt = m->mounts[i];
		if (mt->on_set)
			resolve_hosts(m, mt);
		if (mt->container_set)
			resolve_container(m, mt);
	}
}
