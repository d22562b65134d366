/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* plan.c - see plan.h. */
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/base/buf.h"
#include "compiler/base/file.h"
#include "compiler/base/sha256.h"
#include "compiler/base/source.h"
#include "compiler/base/strmap.h"
#include "compiler/base/value.h"
#include "compiler/lint/compile.h"
#include "compiler/place/tolerance.h"
#include "compiler/tree/disruption.h"
#include "compiler/tree/manifest.h"
#include "compiler/tree/output.h"
#include "compiler/tree/render.h"
#include "compiler/tree/tree_unit.h"
#include "compiler/tree/tree_view.h"
#include "targets/targets.h"
#include "context.h"
#include "plan_print.h"
#include "pods.h"
#include "rollout.h"
#include "semdiff.h"

/* The planner and its change groups: plan_print.h. */

/* s with its control bytes written \xNN: an old tree's value (a file of a
 * pull request) must not move the cursor or recolour a terminal. */
static const char *printable(arena *a, const char *s)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += *p < 0x20 || *p == 0x7f ? 4 : 1;
	if (n == strlen(s))
		return s;
	char *r = arena_alloc(a, n + 1), *w = r;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			w += sprintf(w, "\\x%02x", *p);
		else
			*w++ = (char)*p;
	*w = '\0';
	return r;
}

static const char *intern(planner *pl, const char *s)
{
	if (!s)
		return NULL;
	s = printable(pl->scratch, s);
	const char *v = strmap_get(&pl->values, s);
	if (v)
		return v;
	char *c = arena_strdup(pl->ar, s);
	strmap_put(&pl->values, c, c);
	return c;
}

/* The entries of a YAML flow list as dslc plan prints it ("[a:1, b:1]"),
 * without their ports: the description's access_points takes hosts. */
static size_t list_hosts(arena *a, const char *list, const char **out, size_t max)
{
	size_t n = 0;
	for (const char *p = list + 1; *p && *p != ']' && n < max;) {
		size_t len = strcspn(p, ",]"), host = strcspn(p, ":,]");
		if (len)
			out[n++] = arena_strndup(a, p, host < len ? host : len);
		p += len;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return n;
}

/* The first of the two changes, for access points all replaced: the last
 * old one and all but one of the new ones (an odd count, as before), or
 * nothing when the lists are too short to say. */
static const char *replica_step(arena *a, const char *old, const char *new)
{
	const char *o[64], *n[64];
	size_t no = old && old[0] == '[' ? list_hosts(a, old, o, 64) : 0, nn = new && new[0] == '[' ? list_hosts(a, new, n, 64) : 0;
	if (!no || nn < 3 || nn % 2 == 0)
		return "";
	const char *s = o[no - 1];
	for (size_t i = 0; i + 1 < nn; i++)
		s = arena_printf(a, "%s,%s", s, n[i]);
	return arena_printf(a, " (here: access_points %s)", s);
}

static void record(planner *pl, const char *file, const char *key, disruption_class cls, const char *old, const char *new)
{
	bool node = strcmp(file, "(node)") == 0;
	disruption_class table = cls;
	if (!node && !pl->coupling) {
		if (!pl->refused && plan_context_replicas_replaced(pl->target, key, old, new))
			pl->refused = arena_printf(pl->ar, "the change replaces every access point (%s -> %s): DAOS needs at least "
							   "one old replica in the new list as the data source of the new ones, and "
							   "no wave order keeps the management service's majority "
							   "(docs/admin/administration.md, \"Adding or removing Management Service (MS) "
							   "replicas\"). Do it as two changes, each planned and rolled out alone: first "
							   "a list that keeps one old access point beside new ones, an odd count%s, "
							   "then the new list",
						   old, new, replica_step(pl->ar, old, new));
		cls = plan_context_class(&pl->ctx, pl->target, file, key, old, new, cls);
		plan_relabel_note(pl->ar, &pl->relabels, pl->target, key, old, new);
		if (strcmp(pl->target, "dfuse") == 0 && plan_relabel_only(&pl->relabels, old, new))
			cls = DC_LIVE; /* installed, not restarted: context.h */
	}
	/* a client-only node added or removed holds no rank: the agents' rank
	 * list and addresses do not change, nothing to refresh */
	bool ranks = cls != DC_CLIENT_REMOVED && !(cls == DC_NODE_ADDED && pl->client_added);
	for (int cp = -1;;) {
		size_t from = (size_t)(cp + 1);
		cp = pl->coupling ? -1 : node ? (ranks ? disruption_coupling_of("(node)", "", from) : -1)
					    : plan_coupling_of(pl->target, file, key, from);
		if (cp < 0)
			break;
		struct coupled *c = &pl->coupled[cp];
		if (!c->by)
			c->by = intern(pl, node ? (cls == DC_NODE_ADDED ? "a node added" : "a node removed")
						: arena_printf(pl->scratch, "%s %s", file, key));
		if (!c->nhosts || c->hosts[c->nhosts - 1] != pl->host)
			ARENA_PUSH(pl->ar, c->hosts, c->nhosts, c->cap, pl->host);
	}
	if (!node && strcmp(file, "cluster/kubernetes/device-plugins.yaml") == 0)
		pl->kube_plugins_changed = true;
	/* a coupled step on a client (an agent's cache, a dfuse mount) runs in the
	 * waves after the servers'; a kubelet's is its node's own */
	bool client_step = cls == DC_AGENT_REFRESH || cls == DC_AGENT_RESTART || cls == DC_REMOUNT;
	if (!node && (!pl->coupling || client_step) && pl->host && strcmp(pl->host, "(cluster)") != 0) {
		uintptr_t at = (uintptr_t)strmap_get(&pl->wave_index, pl->host);
		if (!at) {
			wave_node wn = {pl->host, 0, 0, NULL};
			ARENA_PUSH(pl->ar, pl->wnodes, pl->nwnodes, pl->wcap, wn);
			at = pl->nwnodes;
			strmap_put(&pl->wave_index, pl->host, (void *)at);
		}
		if (pl->coupling)
			pl->wnodes[at - 1].after |= 1u << cls;
		else
			pl->wnodes[at - 1].classes |= 1u << cls;
		/* a change the node's context raised still needs its own step: a
		 * storage NIC's new address (engine-restart: the fabric URI) is put
		 * on the link by `networkctl reload` before the engines start on it */
		if (table == DC_NETWORK_RELOAD && cls != table)
			pl->wnodes[at - 1].classes |= 1u << DC_NETWORK_RELOAD;
	}
	pl->recorded++;
	/* "engines[1].storage[0].bdev_list" -> "engines[].storage[].bdev_list";
	 * a label stays (pools[tier0]): it names the thing, not a position */
	char *pattern = arena_alloc(pl->scratch, strlen(key) + 1);
	disruption_fold_brackets(pattern, strlen(key) + 1, key, false);
	char *gk = arena_printf(pl->scratch, "%s\x1f%s\x1f%d", file, pattern, (int)cls);
	change_group *g = strmap_get(&pl->group_index, gk);
	if (!g) {
		g = arena_alloc(pl->ar, sizeof(*g));
		g->file = intern(pl, file);
		g->key = intern(pl, pattern);
		g->cls = cls;
		strmap_init(&g->pair_index, pl->ar);
		strmap_put(&pl->group_index, arena_strdup(pl->ar, gk), g);
		ARENA_PUSH(pl->ar, pl->groups, pl->ngroups, pl->gcap, g);
	}
	char *pk = arena_printf(pl->scratch, "%s\x1f%s", old ? old : "\x01", new ? new : "\x01");
	uintptr_t at = (uintptr_t)strmap_get(&g->pair_index, pk);
	if (!at) {
		value_pair p = {intern(pl, old), intern(pl, new), NULL, 0, 0, NULL, 0, 0};
		ARENA_PUSH(pl->ar, g->pairs, g->npairs, g->cap, p);
		at = g->npairs;
		strmap_put(&g->pair_index, arena_strdup(pl->ar, pk), (void *)at);
	}
	value_pair *p = &g->pairs[at - 1];
	const char *k = intern(pl, key);
	/* each key once per pair, in a hash: one change at 10,000 pools is
	 * 10,000 keys, not 10,000 scans of them */
	char *kk = arena_printf(pl->scratch, "\x02%zu\x1f%s", (size_t)at, k);
	if (!strmap_get(&g->pair_index, kk)) {
		strmap_put(&g->pair_index, arena_strdup(pl->ar, kk), (void *)1);
		ARENA_PUSH(pl->ar, p->keys, p->nkeys, p->kcap, k);
	}
	if (!p->nhosts || p->hosts[p->nhosts - 1] != pl->host)
		ARENA_PUSH(pl->ar, p->hosts, p->nhosts, p->cap, pl->host);
	if (g->last_host != pl->host) {
		g->last_host = pl->host;
		g->nhosts++;
	}
}

static void on_difference(void *ctx, const char *key, const char *old, const char *new)
{
	planner *pl = ctx;
	disruption_class cls = disruption_of(pl->target, key);
	/* a pool or container dropped from the description: the script only
	 * creates, so it stays until someone destroys it by hand */
	if (cls == DC_POOL_CREATE && !new)
		cls = DC_POOL_IMMUTABLE;
	record(pl, pl->file, key, cls, old, new);
}

/* ---- one file, one node ------------------------------------------------------ */

typedef struct node_file {
	const char *rel;    /* inside the node's directory (or cluster/) */
	const char *target;
	const char *data;   /* NULL: could not be read */
	size_t len;
	bool seen;
	unsigned mode; /* permission bits; 0: not known */
} node_file;

typedef struct file_list {
	node_file *v;
	size_t n, cap;
	rendered *raw; /* the rendered side: each file as render gave it (key, paths), n of them */
	size_t rawcap;
} file_list;

static void compare_file(planner *pl, const node_file *old, const node_file *new)
{
	const node_file *f = new ? new : old;
	pl->file = f->rel;
	pl->target = f->target;
	if (!old || !new || !old->data) {
		record(pl, f->rel, "", disruption_of(f->target, ""), old && old->data ? "(present)" : NULL,
		       new ? arena_printf(pl->scratch, "(%zu bytes)", new->len) : NULL);
		return;
	}
	if (old->len == new->len && memcmp(old->data, new->data, new->len) == 0) {
		if (old->mode && new->mode && old->mode != new->mode) /* chmod by hand */
			record(pl, f->rel, "(mode)", DC_NONE, arena_printf(pl->scratch, "%04o", old->mode),
			       arena_printf(pl->scratch, "%04o", new->mode));
		return;
	}
	/* a script that follows another file (daos-pools.sh, redfish/apply.sh):
	 * say that it changed, not how */
	if (disruption_of(f->target, "") == DC_NONE && semdiff_kind_of(f->target) == SD_LINES) {
		record(pl, f->rel, "(regenerated)", DC_NONE, NULL, NULL);
		return;
	}
	size_t before = pl->recorded;
	semdiff(pl->scratch, semdiff_kind_of(f->target), old->data, old->len, new->data, new->len, on_difference, pl);
	if (pl->recorded == before) /* bytes differ, meaning does not: comments */
		record(pl, f->rel, "(comments)", DC_NONE, NULL, NULL);
}

static void compare_files(planner *pl, file_list *old, file_list *new)
{
	strmap by_rel; /* each side lists a path once (load_manifest) */
	strmap_init(&by_rel, pl->scratch);
	for (size_t j = 0; j < old->n; j++)
		strmap_put(&by_rel, old->v[j].rel, &old->v[j]);
	for (size_t i = 0; i < new->n; i++) {
		node_file *o = strmap_get(&by_rel, new->v[i].rel);
		if (o && o->seen)
			o = NULL;
		if (o)
			o->seen = true;
		compare_file(pl, o, &new->v[i]);
	}
	for (size_t j = 0; j < old->n; j++)
		if (!old->v[j].seen)
			compare_file(pl, &old->v[j], NULL);
}

/* ---- the two sides ------------------------------------------------------------- */

typedef struct collect_ctx {
	arena *a;
	file_list *out;
	size_t strip; /* bytes of "nodes/<host>/" */
} collect_ctx;

static int collect(void *ctx, const rendered *r)
{
	collect_ctx *c = ctx;
	node_file f = {r->rel + c->strip, r->target, arena_strndup(c->a, r->data, r->len), r->len, false, r->mode & 07777};
	rendered raw = *r;
	raw.data = f.data;
	size_t n = c->out->n;
	ARENA_PUSH(c->a, c->out->raw, n, c->out->rawcap, raw);
	ARENA_PUSH(c->a, c->out->v, c->out->n, c->out->cap, f);
	return 0;
}

/* memo: the spec targets' bytes of that model (render.h), kept across nodes */
static int collect_node(arena *a, const model *m, render_memo *memo, const node *nd, file_list *out)
{
	collect_ctx c = {a, out, strlen("nodes/") + strlen(nd->host) + 1};
	return render_node(m, nd, a, memo, collect, &c);
}

static int collect_cluster(arena *a, const model *m, file_list *out)
{
	collect_ctx c = {a, out, 0};
	return render_cluster(m, a, collect, &c);
}

/* An existing tree: host -> files, from its manifest; or, when its cache
 * describes it (tree_view), unit by unit from the manifest's spans, and
 * not at all for units whose files the cache vouches for. */
typedef struct old_tree {
	const char *dir;
	int root; /* DIR, opened once; every file below it is read without following links */
	tree_view *view;
	strmap hosts; /* host -> file_list * (no view) */
	strmap paths; /* every path the manifest lists: dslc lists each once */
	const char **order;
	size_t nhosts, cap;
	file_list cluster;
} old_tree;

/* One entry of the manifest's files: its node (NULL for cluster files) and
 * its path below the node's directory. False for an entry without path or
 * target, or one that would leave the tree. */
static bool listed_entry(arena *a, json_t *f, const char **node, node_file *nf)
{
	const char *path = json_string_value(json_object_get(f, "path"));
	const char *target = json_string_value(json_object_get(f, "target"));
	*node = json_string_value(json_object_get(f, "node"));
	if (!path || !target || strstr(path, ".."))
		return false;
	*nf = (node_file){arena_strdup(a, path), arena_strdup(a, target), NULL, 0, false, 0};
	if (*node) {
		const char *prefix = arena_printf(a, "nodes/%s/", *node);
		nf->rel = strncmp(path, prefix, strlen(prefix)) == 0 ? path + strlen(prefix) : NULL;
	}
	if (nf->rel)
		nf->rel = arena_strdup(a, nf->rel);
	return true;
}

typedef struct manifest_load {
	arena *a;
	old_tree *t;
	const char *why; /* an entry that is not dslc's */
} manifest_load;

static bool load_entry(void *ctx, json_t *f)
{
	manifest_load *ml = ctx;
	arena *a = ml->a;
	old_tree *t = ml->t;
	const char *node;
	node_file nf;
	if (!listed_entry(a, f, &node, &nf)) {
		ml->why = arena_printf(a, "%s/manifest.json lists a file without path or target", t->dir);
		return false;
	}
	if (!nf.rel)
		return true;
	/* a path listed twice is not dslc's listing, and would be read and
	 * compared twice (a small manifest naming one large file a million
	 * times was gigabytes of memory) */
	const char *path = json_string_value(json_object_get(f, "path"));
	if (strmap_get(&t->paths, path)) {
		ml->why = arena_printf(a, "%s/manifest.json lists '%s' twice: it is not a manifest dslc wrote", t->dir,
				       printable(a, path));
		return false;
	}
	strmap_put(&t->paths, arena_strdup(a, path), (void *)1);
	file_list *l = &t->cluster;
	if (node && !(l = strmap_get(&t->hosts, node))) {
		l = arena_alloc(a, sizeof(*l));
		const char *h = arena_strdup(a, node);
		strmap_put(&t->hosts, h, l);
		ARENA_PUSH(a, t->order, t->nhosts, t->cap, h);
	}
	ARENA_PUSH(a, l->v, l->n, l->cap, nf);
	return true;
}

/* The tree's files from its manifest, an entry at a time (a manifest is
 * tens of MB at 16,384 nodes: never one jansson tree). */
static bool load_manifest(arena *a, old_tree *t, const char **why)
{
	int dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = errno;
	manifest_load ml = {a, t, NULL};
	/* the size its node count allows (manifest.h), and 4 GiB in all */
	int read = dirfd < 0 ? -1 : manifest_each(dirfd, (size_t)1 << 32, load_entry, &ml, &err);
	if (dirfd >= 0)
		close(dirfd);
	if (read == 1)
		return true;
	*why = ml.why ? ml.why
	       : read < 0 ? arena_printf(a, "%s/manifest.json: %s", t->dir,
					 err == EFBIG ? "larger than a manifest of its node count (or 4 GiB)" : src_strerror(err))
			  : arena_printf(a, "%s/manifest.json is not a dslc manifest", t->dir);
	return false;
}

static bool load_tree(arena *a, const char *dir, const char *version, old_tree *t, const char **why)
{
	memset(t, 0, sizeof(*t));
	t->dir = dir;
	t->root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->root < 0) {
		*why = arena_printf(a, "%s: %s", dir, src_strerror(errno));
		return false;
	}
	strmap_init(&t->hosts, a);
	strmap_init(&t->paths, a);
	/* a build killed while it swapped directories leaves its journal: the
	 * tree is part old, part new until the next build finishes the swap */
	struct stat js;
	if (lstat(arena_printf(a, "%s.dslc-journal", dir), &js) == 0) {
		*why = arena_printf(a, "a build of %s was interrupted while it replaced the tree (%s.dslc-journal is there): "
				    "the tree is part old, part new\nhelp: run dslc build -o %s again (it finishes or undoes the "
				    "swap), then plan", dir, dir, dir);
		close(t->root);
		return false;
	}
	t->view = tree_view_open(dir, version, a);
	if (!t->view && !load_manifest(a, t, why)) {
		close(t->root);
		return false;
	}
	if (!t->view)
		return true;
	for (size_t i = 0; i < tree_view_units(t->view); i++) {
		const char *unit = tree_view_unit(t->view, i);
		if (strncmp(unit, "nodes/", 6) == 0)
			ARENA_PUSH(a, t->order, t->nhosts, t->cap, unit + 6);
	}
	return true;
}

static const char *unit_dir(arena *a, const char *host)
{
	return host ? arena_printf(a, "nodes/%s", host) : "cluster";
}

/* The unit's files from its span of the manifest (view). */
static int view_listing(arena *a, const old_tree *t, const char *host, file_list *out)
{
	size_t len;
	char *text = tree_view_entries(t->view, unit_dir(a, host), a, &len);
	json_error_t e;
	json_t *arr = text ? json_loadb(text, len, 0, &e) : NULL;
	bool ok = json_is_array(arr);
	strmap seen;
	strmap_init(&seen, a);
	size_t i;
	json_t *f;
	json_array_foreach(ok ? arr : NULL, i, f) {
		const char *node;
		node_file nf;
		ok = listed_entry(a, f, &node, &nf) && nf.rel && (host ? node && strcmp(node, host) == 0 : !node) &&
		     !strmap_put(&seen, nf.rel, (void *)1);
		if (!ok)
			break;
		ARENA_PUSH(a, out->v, out->n, out->cap, nf);
	}
	json_decref(arr);
	if (!ok)
		fprintf(stderr, "dslc: plan: %s/manifest.json: the entries of %s that %s.dslc-cache records cannot be read\n"
			"help: build the tree again, or remove %s.dslc-cache to read the whole manifest\n",
			t->dir, unit_dir(a, host), t->dir, t->dir);
	return ok ? 0 : 1;
}

/* The files the old tree lists for one host (prefix "nodes/<host>/", or ""
 * for the cluster files), read into the scratch arena. */
static file_list read_old(arena *a, const old_tree *t, const char *prefix, const file_list *listed)
{
	file_list l = {0};
	for (size_t i = 0; i < listed->n; i++) {
		node_file f = listed->v[i];
		/* never through a link: a tree in a pull request must not make plan
		 * print a runner's file as an "old" value; the mode is the file's read */
		f.data = file_read_at(a, t->root, arena_printf(a, "%s%s", prefix, f.rel), SRC_MAX_FILE_BYTES, &f.len, &f.mode);
		ARENA_PUSH(a, l.v, l.n, l.cap, f);
	}
	return l;
}

/* The old tree has host's unit (NULL: cluster/) holding exactly the
 * rendered files, by its cache's word: nothing to read or compare. */
static bool tree_vouches(arena *a, const old_tree *t, const char *host, const file_list *rendered_files)
{
	return t && t->view && tree_view_same(t->view, unit_dir(a, host), rendered_files->raw, rendered_files->n);
}

/* The old side's files of one host (NULL: the cluster files): rendered from
 * the old description, or read from the old tree. *present: the old side
 * has that host. Non-zero when a target refused or the tree's listing
 * could not be read. */
static int old_files(arena *a, const model *om, render_memo *memo, const old_tree *tree, const char *host, file_list *out,
		     bool *present)
{
	*present = true;
	if (om && !host)
		return collect_cluster(a, om, out);
	if (om) {
		const node *old = model_node(om, host);
		*present = old != NULL;
		return old ? collect_node(a, om, memo, old, out) : 0;
	}
	const char *prefix = host ? arena_printf(a, "nodes/%s/", host) : "";
	if (tree->view) {
		file_list listed = {0};
		*present = tree_view_has(tree->view, unit_dir(a, host));
		int rc = *present ? view_listing(a, tree, host, &listed) : 0;
		if (*present && !rc)
			*out = read_old(a, tree, prefix, &listed);
		return rc;
	}
	const file_list *listed = host ? strmap_get(&tree->hosts, host) : &tree->cluster;
	*present = listed != NULL;
	if (listed)
		*out = read_old(a, tree, prefix, listed);
	return 0;
}

/* ---- output ------------------------------------------------------------------ */

static int group_cmp(const void *a, const void *b)
{
	const change_group *x = *(change_group *const *)a, *y = *(change_group *const *)b;
	int rx = disruption_classes[x->cls].rank, ry = disruption_classes[y->cls].rank;
	if (rx != ry)
		return rx > ry ? -1 : 1;
	int c = strcmp(x->file, y->file);
	return c ? c : strcmp(x->key, y->key);
}

/* ---- running it ---------------------------------------------------------------- */

static bool compile_side(compilation *c, const char *path, const char *side)
{
	if (!compile_file(c, path)) {
		fprintf(stderr, "dslc: plan: cannot read %s description '%s': %s\n", side, path, src_strerror(errno));
		return false;
	}
	if (diag_count(&c->dc, SEV_ERROR)) {
		diag_sort(&c->dc);
		diag_print_text(&c->dc, stderr, 20);
		fprintf(stderr, "dslc: plan: the %s description has errors: no plan\n", side);
		return false;
	}
	return true;
}

static void finish_node(planner *pl, bool added, size_t recorded_before)
{
	if (added)
		pl->added++;
	else if (pl->recorded > recorded_before)
		pl->changed++;
	else
		pl->unchanged++;
}

/* Whether a node only the old side has ran daos_server: a client-only node
 * holds no rank and no shard, and leaves without data loss. An old tree read
 * through its cache is asked for a daos_server target in the node's entries;
 * what cannot be told counts as a server. */
static bool removed_server(const model *om, old_tree *tree, const char *h)
{
	if (om)
		return plan_node_context_of(NULL, om, h).server;
	if (tree->view) {
		size_t len;
		arena a;
		arena_init(&a);
		char *e = tree_view_entries(tree->view, unit_dir(&a, h), &a, &len);
		bool server = !e || strstr(e, "\"daos_server\"");
		arena_free(&a);
		return server;
	}
	const file_list *l = strmap_get(&tree->hosts, h);
	for (size_t i = 0; l && i < l->n; i++)
		if (l->v[i].target && strcmp(l->v[i].target, "daos_server") == 0)
			return true;
	return !l;
}

static void add_pod_files(arena *a, file_list *l, const pod_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		node_file nf = {f[i].rel, f[i].target, f[i].data, f[i].len, false, 0};
		ARENA_PUSH(a, l->v, l->n, l->cap, nf);
	}
}

/* A node whose group labels change moves to other DaemonSets: the
 * controller deletes its pods as soon as the labels change, whatever the
 * update strategy (pkg/controller/daemon: a pod whose node no longer
 * matches is deleted), so the move is the restart: an engine-restart by
 * waves for daos-server, an agent-restart for daos-agent. The rollout
 * relabels it (waves.h wave_kube). */
static void plan_relabel_node(planner *pl, const char *host)
{
	const char *os = pods_server_of(&pl->pods_old, host), *ns = pods_server_of(&pl->pods_new, host);
	const char *oa = pods_agent_of(&pl->pods_old, host), *na = pods_agent_of(&pl->pods_new, host);
	if (!ns && !na)
		return; /* not in pods now: the host's own files say what changes */
	bool moves = (os && ns && strcmp(os, ns)) || (os && !ns), agent = oa && na && strcmp(oa, na);
	if (moves) {
		pl->target = pods_targets[0];
		record(pl, "kubernetes: daos-server pod", "(group)", DC_ENGINE_RESTART, os, ns ? ns : "(none)");
	}
	if (agent) {
		pl->target = pods_targets[1];
		record(pl, "kubernetes: daos-agent pod", "(group)", DC_AGENT_RESTART, oa, na);
	}
	if (moves || agent || (!os && ns) || (!oa && na))
		pods_rollout_node(pl->ar, &pl->kube, &pl->pods_new, host)->changes = true;
}

/* A node the waves take: the digest of the files it gets (path, mode,
 * bytes), for the rollout's identity (waves.c tree_digest). */
static void note_files(planner *pl, const char *host, const file_list *nf)
{
	uintptr_t at = (uintptr_t)strmap_get(&pl->wave_index, host);
	if (!at)
		return;
	buf b;
	buf_init(&b);
	for (size_t i = 0; i < nf->n; i++) {
		char hex[65];
		sha256_hex(nf->v[i].data ? nf->v[i].data : "", nf->v[i].len, hex);
		buf_printf(&b, "%s %o %s\n", nf->v[i].rel, nf->v[i].mode, hex);
	}
	char hex[65];
	sha256_hex(b.data ? b.data : "", b.len, hex);
	buf_free(&b);
	pl->wnodes[at - 1].files = arena_strdup(pl->ar, hex);
}

/* Every new node's digest as `dslc build` writes it in manifest.json
 * (node_digests): the rollout's default apply refuses a tree that is not
 * the planned one (rollout_lib.sh dslc_tree_check, apply.yml). */
static void note_digest(planner *pl, const char *host, const file_list *nf)
{
	if (!nf->n)
		return;
	uint8_t d[RENDER_SHA_SIZE];
	char hex[2 * RENDER_SHA_SIZE + 1];
	tree_node_digest(nf->raw, nf->n, d);
	sha256_to_hex(d, hex);
	strmap_put(&pl->node_digests, host, arena_strdup(pl->ar, hex));
}

static int plan_nodes(planner *pl, const model *nm, const model *om, old_tree *tree)
{
	strmap seen;
	strmap_init(&seen, pl->ar);
	render_memo *new_memo = render_memo_new(pl->ar), *old_memo = render_memo_new(pl->ar);
	for (size_t i = 0; i < nm->nnodes; i++) {
		const node *nd = &nm->nodes[i];
		arena scratch;
		arena_init(&scratch);
		pl->scratch = &scratch;
		pl->host = nd->host;
		size_t before = pl->recorded;
		strmap_put(&seen, nd->host, (void *)nd->host);
		file_list nf = {0}, of = {0};
		bool present = false;
		int rc = collect_node(&scratch, nm, new_memo, nd, &nf);
		if (!rc)
			note_digest(pl, nd->host, &nf); /* the node's own files: before its pods' are added */
		pl->ctx = plan_node_context_of(nm, om, nd->host);
		for (size_t f = 0; !rc && f < nf.n; f++)
			if (strcmp(nf.v[f].target, "kubelet") == 0)
				strmap_put(&pl->kubelet_hosts, nd->host, (void *)intern(pl, nf.v[f].rel));
		/* a node in pods has files in its groups too: the cache does not
		 * vouch for those */
		pod_file pn[4], po[4];
		size_t npn = pods_files(&pl->pods_new, nd->host, pn), npo = pods_files(&pl->pods_old, nd->host, po);
		if (!rc && !npn && !npo && !om && tree_vouches(&scratch, tree, nd->host, &nf)) {
			finish_node(pl, false, before); /* the same files: unchanged */
			arena_free(&scratch);
			continue;
		}
		if (!rc)
			rc = old_files(&scratch, om, old_memo, tree, nd->host, &of, &present);
		if (rc) {
			arena_free(&scratch);
			return PLAN_IO;
		}
		add_pod_files(&scratch, &nf, pn, npn);
		add_pod_files(&scratch, &of, po, npo);
		if (present) {
			compare_files(pl, &of, &nf);
			plan_relabel_node(pl, nd->host);
		} else {
			pl->client_added = !place_is_server(nm, nd->host);
			record(pl, "(node)", "", DC_NODE_ADDED, NULL, NULL);
			pl->client_added = false;
		}
		finish_node(pl, !present, before);
		note_files(pl, nd->host, &nf);
		arena_free(&scratch);
	}
	/* nodes only the old side has */
	arena scratch;
	arena_init(&scratch);
	pl->scratch = &scratch;
	size_t nold = om ? om->nnodes : tree->nhosts;
	for (size_t i = 0; i < nold; i++) {
		const char *h = om ? om->nodes[i].host : tree->order[i];
		if (strmap_get(&seen, h))
			continue;
		pl->host = om ? h : arena_strdup(pl->ar, printable(pl->ar, h));
		pl->ctx = plan_node_context_of(NULL, om, h);
		record(pl, "(node)", "", removed_server(om, tree, h) ? DC_NODE_REMOVED : DC_CLIENT_REMOVED, NULL, NULL);
		pl->removed++;
	}
	arena_free(&scratch);
	return 0;
}

/* The steps the couplings add: on every node of the new description (each
 * runs daos_agent), or on the nodes that needed it when they have a kubelet. */
static void plan_couplings(planner *pl, const model *nm)
{
	arena scratch;
	arena_init(&scratch);
	pl->scratch = &scratch;
	pl->coupling = true;
	for (size_t k = 0; k < disruption_coupling_count; k++) {
		const disruption_coupling *c = &disruption_couplings[k];
		const struct coupled *by = &pl->coupled[k];
		if (!by->by)
			continue;
		const char *key = arena_printf(pl->ar, "(after %s)", by->by);
		if (c->scope == CS_AGENTS) {
			for (size_t i = 0; i < nm->nnodes; i++) {
				pl->host = nm->nodes[i].host;
				record(pl, "etc/daos/daos_agent.yml", key, c->cls, NULL, NULL);
			}
			continue;
		}
		if (c->scope == CS_MOUNTS) {
			for (size_t j = 0; j < nm->nmounts; j++) {
				const mount_spec *mt = nm->mounts[j];
				buf unit;
				buf_init(&unit);
				buf_puts(&unit, "etc/systemd/system/");
				dfuse_unit_name(&unit, mt->path);
				const char *file = arena_strndup(pl->ar, unit.data, unit.len);
				buf_free(&unit);
				for (size_t i = 0; mt->at && i < nm->nnodes; i++) {
					if (!mt->at[i])
						continue;
					pl->host = nm->nodes[i].host;
					record(pl, file, key, c->cls, NULL, NULL);
				}
			}
			continue;
		}
		for (size_t i = 0; i < by->nhosts; i++) {
			const char *file = strmap_get(&pl->kubelet_hosts, by->hosts[i]);
			if (!file)
				continue;
			pl->host = by->hosts[i];
			record(pl, file, key, c->cls, NULL, NULL);
		}
	}
	pl->coupling = false;
	arena_free(&scratch);
}

/* --picture FILE: the waves' SVG, written whole or not at all. */
static bool write_picture(arena *a, const char *path, const model *m, const plan_waves *w, const char *title)
{
	buf svg;
	buf_init(&svg);
	rollout_svg(&svg, a, m, w, title);
	const char *why;
	bool ok = file_write_whole(a, path, svg.data, svg.len, "picture", &why);
	if (!ok)
		fprintf(stderr, "dslc: plan: --picture %s: %s\n", path, why);
	buf_free(&svg);
	return ok;
}

static int plan_cluster(planner *pl, const model *nm, const model *om, old_tree *tree)
{
	arena scratch;
	arena_init(&scratch);
	pl->scratch = &scratch;
	pl->host = "(cluster)";
	file_list nf = {0}, of = {0};
	bool present;
	int rc = collect_cluster(pl->ar, nm, &nf);
	for (size_t i = 0; !rc && i < nf.n; i++)
		pods_read(&pl->pods_new, nf.v[i].rel, nf.v[i].data, nf.v[i].len);
	if (!rc && !om && tree_vouches(&scratch, tree, NULL, &nf)) {
		for (size_t i = 0; i < nf.n; i++) /* the same files: the same pods */
			pods_read(&pl->pods_old, nf.v[i].rel, nf.v[i].data, nf.v[i].len);
		arena_free(&scratch);
		return 0;
	}
	if (!rc)
		rc = old_files(pl->ar, om, NULL, tree, NULL, &of, &present);
	for (size_t i = 0; !rc && i < of.n; i++)
		pods_read(&pl->pods_old, of.v[i].rel, of.v[i].data, of.v[i].len);
	if (!rc) /* cluster files are named cluster/... on both sides */
		compare_files(pl, &of, &nf);
	arena_free(&scratch);
	return rc ? PLAN_IO : 0;
}

int plan_run(const plan_opts *o, const char *version)
{
	compilation nc, oc;
	if (!compile_side(&nc, o->file, "new")) {
		compile_free(&nc);
		return PLAN_ERRORS;
	}
	planner pl = {0};
	pl.ar = &nc.ar;
	pl.colour = o->colour;
	pl.max_values = o->max_values;
	strmap_init(&pl.group_index, pl.ar);
	strmap_init(&pl.values, pl.ar);
	old_tree tree;
	const model *om = NULL;
	int rc = 0, lock = -2;
	if (o->against_source) {
		if (!compile_side(&oc, o->against_source, "old")) {
			compile_free(&oc);
			compile_free(&nc);
			return PLAN_ERRORS;
		}
		om = &oc.m;
	} else {
		/* a build swapping the tree meanwhile would show half of it; the
		 * lock and the cache are named after DIR without a trailing '/' */
		const char *why, *dir = o->against_dir;
		size_t len = strlen(dir);
		while (len > 1 && dir[len - 1] == '/')
			len--;
		dir = arena_strndup(pl.ar, dir, len);
		if ((lock = output_read_lock(dir)) == -1 || !load_tree(pl.ar, dir, version, &tree, &why)) {
			if (lock != -1)
				fprintf(stderr, "dslc: plan: %s\n", why);
			if (lock >= 0)
				close(lock);
			compile_free(&nc);
			return PLAN_IO;
		}
	}
	pl.coupled = arena_alloc(pl.ar, (disruption_coupling_count + 1) * sizeof(*pl.coupled));
	strmap_init(&pl.kubelet_hosts, pl.ar);
	strmap_init(&pl.wave_index, pl.ar);
	strmap_init(&pl.node_digests, pl.ar);
	pods_init(&pl.pods_new, pl.ar);
	pods_init(&pl.pods_old, pl.ar);
	strmap_init(&pl.kube.in_pods, pl.ar);
	/* the cluster first: its relabels decide the dfuse units' class */
	rc = plan_cluster(&pl, &nc.m, om, &tree);
	if (!rc)
		rc = plan_nodes(&pl, &nc.m, om, &tree);
	if (!rc)
		plan_couplings(&pl, &nc.m);
	if (!rc) {
		if (pl.ngroups)
			qsort(pl.groups, pl.ngroups, sizeof(change_group *), group_cmp);
		int top = pl.ngroups ? (int)pl.groups[0]->cls : -1; /* sorted by rank, highest first */
		/* the nodes whose changes stop engines or the node, in waves */
		plan_waves waves;
		pods_rollout(pl.ar, &pl.kube, &pl.pods_new, &pl.pods_old);
		if (pl.kube_plugins_changed)
			pl.kube.plugins = kube_plugin_daemonsets(&nc.m);
		buf sec;
		buf_init(&sec);
		kube_secret_lines(&nc.m, &sec);
		pl.kube.secrets = arena_strndup(pl.ar, sec.data ? sec.data : "", sec.len);
		buf_free(&sec);
		plan_waves_make(pl.ar, &nc.m, pl.wnodes, pl.nwnodes, o->max_wave, o->unsafe_wave, o->rebuild_timeout, &waves);
		plan_waves_kube(&waves, &pl.kube);
		waves.digests = &pl.node_digests;
		if (pl.refused)
			waves.refused = pl.refused;
		const char *title = arena_printf(pl.ar, "Rollout of %s against %s", o->file,
						 o->against_source ? o->against_source : o->against_dir);
		if (o->picture && !write_picture(pl.ar, o->picture, &nc.m, &waves, title))
			rc = PLAN_IO;
		else if (o->format == PLAN_SVG) {
			buf svg;
			buf_init(&svg);
			rollout_svg(&svg, pl.ar, &nc.m, &waves, title);
			fwrite(svg.data, 1, svg.len, stdout);
			buf_free(&svg);
		} else if (o->format == PLAN_JSON) {
			plan_print_json(&pl, stdout, top, version, &waves);
		} else if (o->format == PLAN_SCRIPT) {
			rollout_script(stdout, pl.ar, &waves, version);
		} else if (o->format == PLAN_MARKDOWN) { /* waves: five times --max-values (50 by default) */
			plan_print_markdown(&pl, stdout, top);
			rollout_text(stdout, pl.ar, &waves, true, o->max_values * 5);
			if (o->picture && (waves.n || waves.refused))
				printf("\n![The rollout's waves](%s)\n", o->picture);
		} else {
			plan_print_text(&pl, stdout, top);
			rollout_text(stdout, pl.ar, &waves, false, o->max_values * 5);
		}
		if (waves.risk)
			fprintf(stderr, "dslc: plan: %s\n", waves.risk);
		if (waves.refused)
			fprintf(stderr, "dslc: plan: REFUSED: %s\n", waves.refused);
		for (size_t i = 0; i < pl.kube.nrolling; i++)
			fprintf(stderr, "dslc: plan: %s changes under updateStrategy RollingUpdate: kubectl apply alone would make the "
					"DaemonSet controller replace its pods, a node at a time, outside the waves; write `update "
					"ondelete` (the rollout script refuses to apply it)\n", pl.kube.rolling[i]);
		/* comments only (none) is a change: nothing to do, but the tree differs */
		rc = rc ? rc : top < 0 ? PLAN_SAME : disruption_classes[top].error || waves.refused ? PLAN_DANGER : PLAN_CHANGES;
	}
	if (om)
		compile_free(&oc);
	else {
		tree_view_close(tree.view);
		close(tree.root);
	}
	if (lock >= 0)
		close(lock);
	compile_free(&nc);
	return rc;
}
