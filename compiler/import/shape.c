/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* shape.c - what the imported nodes have in common: one cluster (settings
 * every file must agree on), each engine's NUMA node, and groups of nodes
 * with the same engines (one node type and profile each). A node that
 * lacks some of its group's drives stays in the group with those drives
 * excluded (`node X { exclude nvme ... }`), as a failed drive is described;
 * a node whose drives cannot be said that way gets a group of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/lint/yaml_rules.h"
#include "import_data.h"

/* ---- the cluster -------------------------------------------------------------- */

static bool same_line(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static void conflict(importer *im, src_loc at, src_loc first, const char *what, const char *mine, const char *theirs,
		     const char *first_path)
{
	diag *d = diag_report(im->dc, R_IMPORT_CONFLICT, at, "%s differs between the files: %s here, %s in %s", what,
			      mine ? mine : "DAOS's default", theirs ? theirs : "DAOS's default", first_path);
	if (src_loc_valid(first))
		diag_note_at(im->dc, d, first, "the first file sets it here");
	diag_help(im->dc, d, "one description is one system: import the files of one system, or fix the stale file");
}

static const char *const cluster_key_names[IC__COUNT] = {
	"provider", "access_points", "port", "transport_config", "control_log_mask", "control_log_file",
	"helper_log_file", "telemetry_port", "crt_timeout", "system_ram_reserved", "client_env_vars", "client_env_vars",
};

static const char *quoted_line(importer *im, const char *line)
{
	return line ? arena_printf(im->a, "`%s`", line) : NULL;
}

static void check_cluster(importer *im)
{
	const imp_node *a = &im->nodes[0];
	for (size_t i = 1; i < im->nnodes; i++) {
		const imp_node *b = &im->nodes[i];
		if (strcmp(a->name, b->name) != 0)
			conflict(im, src_loc_valid(b->name_loc) ? b->name_loc : b->root->loc, a->name_loc, "name",
				 arena_printf(im->a, "'%s'", b->name), arena_printf(im->a, "'%s'", a->name), a->path);
		for (int k = 0; k < IC__COUNT; k++)
			if (!same_line(a->cluster[k].line, b->cluster[k].line))
				conflict(im, b->cluster[k].line ? b->cluster[k].loc : b->root->loc, a->cluster[k].loc,
					 cluster_key_names[k], quoted_line(im, b->cluster[k].line), quoted_line(im, a->cluster[k].line),
					 a->path);
	}
}

/* ---- engines: NUMA node, environment ------------------------------------------- */

/* The engine's NUMA node as DAOS takes it: pinned_numa_node; else, with a
 * topology, the NUMA node of first_core or of the NIC; else its index (a
 * node type inferred from the file has one NUMA node per engine). */
static bool engine_numa(importer *im, imp_node *n)
{
	const topology *t = im->topo;
	int prev = -1;
	for (int i = 0; i < n->neng; i++) {
		imp_engine *e = &n->eng[i];
		int max = t && t->nnuma < IMP_MAX_NUMA ? t->nnuma : IMP_MAX_NUMA;
		const topo_device *nic = topo_find_iface(t, e->iface);
		if (e->has_pin)
			e->numa = (int)e->pinned;
		else if (t && e->has_fc && e->first_core < t->ncores)
			e->numa = t->cores[e->first_core].numa;
		else if (nic && nic->numa >= 0)
			e->numa = nic->numa;
		else
			e->numa = prev + 1;
		src_loc at = e->has_pin ? yl_key_loc(e->map, "pinned_numa_node") : e->map->loc;
		if (e->numa >= max) {
			diag *d = diag_report(im->dc, R_IMPORT_UNSUPPORTED, at, "engine %d is on NUMA node %d, past %s %d",
					      i, e->numa, t && t->nnuma < IMP_MAX_NUMA ? "the node's" : "the importer's", max);
			diag_help(im->dc, d, "%s", t ? "check the topology export: is it this node's?"
						     : "import with --topology, an lstopo export of the node");
			return false;
		}
		if (e->numa <= prev) {
			diag *d = diag_report(im->dc, R_IMPORT_UNSUPPORTED, at,
					      e->numa == prev ? "engines %d and %d are both on NUMA node %d"
							      : "engine %d is on NUMA node %d, before engine %d's",
					      e->numa == prev ? i - 1 : i, e->numa == prev ? i : e->numa, e->numa == prev ? e->numa : i - 1);
			diag_help(im->dc, d, "%s", e->numa == prev
						     ? "dslc places one engine per NUMA node: give each engine its own (pinned_numa_node), "
						       "or keep this node's file hand-written"
						     : "dslc numbers engines in NUMA node order: list them in that order");
			return false;
		}
		prev = e->numa;
	}
	return true;
}

static bool has_env(const imp_engine *e, const char *v)
{
	for (size_t i = 0; i < e->nenv; i++)
		if (strcmp(e->env[i], v) == 0)
			return true;
	return false;
}

static void drop_env(imp_engine *e, const char *v)
{
	size_t k = 0;
	for (size_t i = 0; i < e->nenv; i++)
		if (strcmp(e->env[i], v) != 0)
			e->env[k++] = e->env[i];
	e->nenv = k;
}

/* FI_VERBS_GID_IDX of client_env_vars is every engine's too (fabric roce);
 * what every engine of every node has is the cluster's env. */
static bool shared_env(importer *im)
{
	for (size_t i = 0; i < im->nnodes; i++) {
		imp_node *n = &im->nodes[i];
		for (int j = 0; n->gid_env && j < n->neng; j++) {
			if (!has_env(&n->eng[j], n->gid_env)) {
				diag *d = diag_report(im->dc, R_IMPORT_UNSUPPORTED, n->cluster[IC_FABRIC].loc,
						      "client_env_vars sets %s, but engine %d's env_vars do not", n->gid_env, j);
				diag_help(im->dc, d, "add %s to every engine's env_vars: dslc gives engines and clients one GID index",
					  n->gid_env);
				return false;
			}
			drop_env(&n->eng[j], n->gid_env);
		}
	}
	const imp_engine *first = &im->nodes[0].eng[0];
	for (size_t v = 0; v < first->nenv; v++) {
		bool all = im->ncommon_env < sizeof(im->common_env) / sizeof(im->common_env[0]);
		for (size_t i = 0; all && i < im->nnodes; i++)
			for (int j = 0; all && j < im->nodes[i].neng; j++)
				all = has_env(&im->nodes[i].eng[j], first->env[v]);
		if (all)
			im->common_env[im->ncommon_env++] = first->env[v];
	}
	for (size_t c = 0; c < im->ncommon_env; c++)
		for (size_t i = 0; i < im->nnodes; i++)
			for (int j = 0; j < im->nodes[i].neng; j++)
				drop_env(&im->nodes[i].eng[j], im->common_env[c]);
	/* one log mask for every engine is the cluster's */
	im->log_mask = first->log_mask;
	for (size_t i = 0; i < im->nnodes; i++)
		for (int j = 0; j < im->nodes[i].neng; j++)
			if (strcmp(im->nodes[i].eng[j].log_mask, im->log_mask) != 0)
				im->log_mask = NULL;
	im->fabric_port = first->has_port ? first->port : 31416;
	return true;
}

/* ---- groups --------------------------------------------------------------------- */

int64_t import_derived_hugepages(const importer *im, const imp_node *n)
{
	int64_t gib = 0;
	for (int i = 0; i < n->neng; i++) {
		const imp_engine *e = &n->eng[i];
		bool meta = false, drives = false;
		for (int t = 0; t < e->ntiers; t++) {
			drives |= e->tiers[t].ndrives > 0;
			for (int r = 0; r < e->tiers[t].nroles; r++)
				meta |= strcmp(e->tiers[t].roles[r], "meta") == 0;
		}
		if (drives || e->files.ndrives)
			gib += daos_hugepage_targets(e->targets, meta);
	}
	uint64_t hp = im->topo && im->topo->hugepage_size ? im->topo->hugepage_size : 2ULL << 20;
	return (int64_t)(((uint64_t)gib << 30) / hp);
}

/* What nodes of one profile share: everything but which drives they have
 * (tiers by their roles and sizes; the last tier takes the rest). */
static const char *signature(importer *im, const imp_node *n)
{
	buf b;
	buf_init(&b);
	int64_t hp = n->nr_hugepages >= 0 && n->nr_hugepages != import_derived_hugepages(im, n) ? n->nr_hugepages : -1;
	buf_printf(&b, "hp=%lld;", (long long)hp);
	for (int i = 0; i < n->neng; i++) {
		const imp_engine *e = &n->eng[i];
		buf_printf(&b, "e%d:%d,%lld,%lld,%d%lld,%s,%d%lld,%s,%s,%s,%lld,%s,%s;", e->index, e->numa, (long long)e->targets,
			   (long long)e->helpers, e->has_fc, (long long)e->first_core, e->iface, e->has_port,
			   (long long)e->port, e->log_mask, e->log_file ? e->log_file : "-", e->scm_class,
			   (long long)e->scm_size, e->scm_mount ? e->scm_mount : "-", e->scm_device ? e->scm_device : "-");
		for (size_t v = 0; v < e->nenv; v++)
			buf_printf(&b, "env=%s;", e->env[v]);
		for (int f = 0; f < e->files.ndrives; f++)
			buf_printf(&b, "file=%s;", e->files.drives[f]);
		buf_printf(&b, "fsize=%lld;", (long long)e->file_size);
		for (int t = 0; t < e->ntiers; t++) {
			buf_printf(&b, "t%d:", t);
			for (int r = 0; r < e->tiers[t].nroles; r++)
				buf_printf(&b, "%s,", e->tiers[t].roles[r]);
			buf_printf(&b, "n=%d;", t + 1 < e->ntiers ? e->tiers[t].ndrives : -1);
		}
	}
	const char *s = arena_strdup(im->a, b.data ? b.data : "");
	buf_free(&b);
	return s;
}

static int find_drive(const char *const *list, int n, const char *pci)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], pci) == 0)
			return i;
	return -1;
}

/* Adds the node's drives to its group's lists; false when the group cannot
 * hold them (a drive on another NUMA node there, too many drives). */
static bool add_drives(imp_group *g, const imp_node *n)
{
	for (int i = 0; i < n->neng; i++) {
		const imp_engine *e = &n->eng[i];
		for (int t = 0; t < e->ntiers; t++)
			for (int d = 0; d < e->tiers[t].ndrives; d++) {
				const char *pci = e->tiers[t].drives[d];
				for (int k = 0; k < IMP_MAX_NUMA; k++)
					if (k != e->numa && find_drive(g->drives[k], g->ndrives[k], pci) >= 0)
						return false;
				if (find_drive(g->drives[e->numa], g->ndrives[e->numa], pci) >= 0)
					continue;
				if (g->ndrives[e->numa] == IMP_MAX_DRIVES * 2)
					return false;
				g->drives[e->numa][g->ndrives[e->numa]++] = pci;
			}
	}
	return true;
}

/* Whether the build gives the node its own drives from the group's lists:
 * each engine takes its NUMA node's drives, the node's exclusions removed,
 * in list order, cut into tiers by the profile's counts. */
static bool drives_fit(const imp_group *g, imp_node *n)
{
	n->nexcluded = 0;
	for (int i = 0; i < n->neng; i++) {
		const imp_engine *e = &n->eng[i];
		const char *mine[IMP_MAX_DRIVES * IMP_MAX_TIERS];
		int k = 0;
		for (int t = 0; t < e->ntiers; t++)
			for (int d = 0; d < e->tiers[t].ndrives; d++)
				mine[k++] = e->tiers[t].drives[d];
		int at = 0;
		for (int d = 0; d < g->ndrives[e->numa]; d++) {
			const char *pci = g->drives[e->numa][d];
			if (at < k && strcmp(mine[at], pci) == 0) {
				at++;
			} else if (find_drive(mine, k, pci) >= 0 || n->nexcluded == IMP_MAX_DRIVES) {
				return false; /* out of order */
			} else {
				n->excluded[n->nexcluded++] = pci;
			}
		}
		if (at != k)
			return false;
	}
	return true;
}

static int new_group(importer *im, size_t first)
{
	imp_group g = {.first = (int)first};
	ARENA_PUSH(im->a, im->groups, im->ngroups, im->groups_cap, g);
	return (int)im->ngroups - 1;
}

/* The group's node type: NUMA nodes, cores (without a topology: the least
 * that holds every engine where the files put it), hugepages, OS cores. */
static void group_hardware(importer *im, imp_group *g)
{
	const imp_node *n = &im->nodes[g->first];
	g->nnuma = n->eng[n->neng - 1].numa + 1;
	int c = 1, max_fc_c = 1 << 20;
	for (size_t i = 0; i < im->nnodes; i++) {
		if (&im->groups[im->nodes[i].group] != g)
			continue;
		for (int j = 0; j < im->nodes[i].neng; j++) {
			const imp_engine *e = &im->nodes[i].eng[j];
			int need = (int)(2 + e->targets + e->helpers);
			if (need > c)
				c = need;
			if (!e->has_fc)
				continue;
			/* cores [fc, fc + need) inside NUMA node numa: numa*C <= fc, fc + need <= (numa+1)*C */
			int lo = (int)((e->first_core + need + e->numa) / (e->numa + 1));
			if (lo > c)
				c = lo;
			if (e->numa && e->first_core / e->numa < max_fc_c)
				max_fc_c = (int)(e->first_core / e->numa);
		}
	}
	g->cores_per_socket = c <= max_fc_c ? c : -1;
	if (n->nr_hugepages >= 0 && n->nr_hugepages != import_derived_hugepages(im, n)) {
		uint64_t hp = im->topo && im->topo->hugepage_size ? im->topo->hugepage_size : 2ULL << 20;
		g->hugepage_bytes = n->nr_hugepages * (int64_t)hp;
	}
	/* with a topology: the same OS cores before every engine are `reserve os` */
	g->reserve_os = 0;
	if (!im->topo)
		return;
	int k = -1;
	for (int j = 0; j < n->neng; j++) {
		const imp_engine *e = &n->eng[j];
		int off = e->has_fc && !e->has_pin ? (int)e->first_core - im->topo->numa[e->numa].first_core : -1;
		if (off <= 0 || (k >= 0 && off != k))
			return;
		k = off;
	}
	g->reserve_os = k;
}

static bool make_groups(importer *im)
{
	const char **sigs = arena_alloc(im->a, im->nnodes * sizeof(*sigs));
	for (size_t i = 0; i < im->nnodes; i++) {
		imp_node *n = &im->nodes[i];
		sigs[i] = signature(im, n);
		n->group = -1;
		for (size_t j = 0; j < i && n->group < 0; j++) {
			imp_group *g = &im->groups[im->nodes[j].group];
			if (strcmp(sigs[j], sigs[i]) != 0 || g->first != (int)j)
				continue;
			imp_group trial = *g;
			if (add_drives(&trial, n)) {
				*g = trial;
				n->group = im->nodes[j].group;
			}
		}
		if (n->group < 0) {
			n->group = new_group(im, i);
			add_drives(&im->groups[n->group], n);
		}
	}
	/* a node whose drives do not come out of its group's lists in its order gets its own */
	for (size_t i = 0; i < im->nnodes; i++) {
		imp_node *n = &im->nodes[i];
		if (drives_fit(&im->groups[n->group], n))
			continue;
		n->group = new_group(im, i);
		add_drives(&im->groups[n->group], n);
		drives_fit(&im->groups[n->group], n);
	}
	for (size_t g = 0; g < im->ngroups; g++) {
		imp_group *gr = &im->groups[g];
		gr->name = im->ngroups == 1 ? "server" : arena_printf(im->a, "server%zu", g + 1);
		group_hardware(im, gr);
		if (gr->cores_per_socket < 0) {
			const imp_node *n = &im->nodes[gr->first];
			diag *d = diag_report(im->dc, R_IMPORT_UNSUPPORTED, n->root->loc,
					      "the engines' first_core values fit no node with the same cores on every NUMA node");
			diag_help(im->dc, d, "import with --topology, an lstopo export of the node, to place them");
			return false;
		}
	}
	return true;
}

bool import_shape(importer *im)
{
	unsigned before = diag_count(im->dc, SEV_ERROR);
	check_cluster(im);
	for (size_t i = 0; i < im->nnodes; i++)
		engine_numa(im, &im->nodes[i]);
	if (diag_count(im->dc, SEV_ERROR) != before || !shared_env(im))
		return false;
	return make_groups(im);
}
