/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* pools.c - out/cluster/daos-pools.sh and out/cluster/pools.json: the pools
 * and containers as commands and as data. The script is idempotent (each
 * object is created only when a query does not find it), quotes every
 * argument and writes sizes with binary units. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/place/pools.h"
#include "targets.h"

/* One shell word, single-quoted (compiler/base/safe.c). */
static const char *sq(arena *a, const char *s)
{
	buf b;
	buf_init(&b);
	safe_sh_word(&b, s);
	const char *r = arena_strdup(a, b.data);
	buf_free(&b);
	return r;
}

/* Names echoed in comments: a newline would end the comment. */
static bool comment_safe(const model *m)
{
	if (safe_line(m->cluster.name))
		return false;
	for (size_t i = 0; i < m->npools; i++)
		if (safe_line(m->pools[i]->plan->label))
			return false;
	for (size_t j = 0; j < m->ncontainers; j++)
		if (safe_line(m->containers[j]->plan->label) ||
		    (m->containers[j]->plan->derivation && safe_line(m->containers[j]->plan->derivation)))
			return false;
	return true;
}

/* --properties of a container, in the keys of src/control/cmd/daos/property.go. */
static const char *container_props(arena *a, const container_plan *cp)
{
	buf b;
	buf_init(&b);
	buf_printf(&b, "rd_fac:%d,rd_lvl:%s", cp->rd_fac, cp->rd_lvl);
	if (cp->ec_cell)
		buf_printf(&b, ",ec_cell_sz:%s", pools_size(a, cp->ec_cell));
	if (cp->cksum)
		buf_printf(&b, ",cksum:%s", cp->cksum);
	if (cp->srv_cksum)
		buf_puts(&b, ",srv_cksum:on");
	const char *r = arena_strdup(a, b.data);
	buf_free(&b);
	return r;
}

/* User attributes: set on every run (set-attr replaces a value), so a
 * changed description reaches an existing container. --attr/--value, not
 * the positional key:val list, whose parser splits values at ',' and ':'
 * (src/control/lib/ui/prop_flags.go SetPropertiesFlag); both releases take
 * them (src/control/cmd/daos/container.go containerSetAttrCmd). */
static void container_attrs(arena *a, const pool_plan *pp, const container_spec *c, buf *out)
{
	for (size_t k = 0; k < c->attrs.n; k++)
		buf_printf(out, "\"$DAOS\" container set-attr %s %s --attr=%s --value=%s\n", sq(a, pp->label), sq(a, c->plan->label),
			   sq(a, c->attrs.items[k].name), sq(a, c->attrs.items[k].value));
}

/* A container's `directory` lines: made (dslc_dirs, parents first, existing
 * ones left), then their classes and chunks set on every run, so a changed
 * value reaches what is created afterwards. */
static void container_dirs(arena *a, const pool_plan *pp, const container_plan *cp, buf *out)
{
	if (!cp->ndirs)
		return;
	buf_printf(out, "dslc_dirs %s %s", sq(a, pp->label), sq(a, cp->label));
	for (size_t k = 0; k < cp->ndirs; k++)
		buf_printf(out, " %s", sq(a, cp->dirs[k].path));
	buf_puts(out, "\n");
	for (size_t k = 0; k < cp->ndirs; k++) {
		const struct dir_plan *d = &cp->dirs[k];
		buf_printf(out, "\"$DAOS\" fs set-attr %s %s --dfs-path=%s", sq(a, pp->label), sq(a, cp->label), sq(a, d->path));
		if (d->oclass[0])
			buf_printf(out, " --oclass=%s", sq(a, d->oclass));
		if (d->chunk)
			buf_printf(out, " --chunk-size=%s", sq(a, pools_size(a, d->chunk)));
		buf_puts(out, "\n");
	}
}

/* The script's one function, when a container has directories. DFS has no
 * mkdir command, and `daos fs set-attr` on a path that does not exist makes
 * a file there (src/utils/daos_dfs_hdlr.c FS_SET_ATTR): `daos fs copy` of an
 * empty local tree into the container's root makes each missing directory
 * and keeps the existing ones (src/utils/daos_hdlr.c fs_copy: into the root
 * when it is a directory; fs_copy_dir: mkdir, EEXIST accepted, then the
 * source's mode, on an existing directory too). */
static const char DIRS_FUNCTION[] =
	"\n# dslc_dirs POOL CONTAINER PATH...: the directories, parents first, mode 0755,\n"
	"# owned by the account that runs this script; existing ones are kept (mode 0755 again)\n"
	"dslc_dirs() {\n"
	"\tdslc_pool=$1 dslc_cont=$2\n"
	"\tshift 2\n"
	"\tdslc_tree=$(mktemp -d) || return 1\n"
	"\tfor dslc_dir in \"$@\"; do\n"
	"\t\tmkdir -p \"$dslc_tree$dslc_dir\" || { rm -rf \"$dslc_tree\"; return 1; }\n"
	"\tdone\n"
	"\tchmod -R 0755 \"$dslc_tree\"\n"
	"\tfor dslc_top in \"$dslc_tree\"/*; do\n"
	"\t\tif ! \"$DAOS\" fs copy --src=\"$dslc_top\" --dst=\"daos://$dslc_pool/$dslc_cont\" >/dev/null; then\n"
	"\t\t\trm -rf \"$dslc_tree\"\n"
	"\t\t\treturn 1\n"
	"\t\tfi\n"
	"\tdone\n"
	"\trm -rf \"$dslc_tree\"\n"
	"}\n";

static bool pools_sh(const model *m, buf *out);
static bool pools_json(const model *m, buf *out);

target_result target_pools_sh(const model *m, target_file *tf)
{
	if (tf->index || !m->npools)
		return TARGET_SKIP;
	return pools_sh(m, tf->data) ? TARGET_OK : TARGET_FAIL;
}

/* Every label reaches dmg or daos as an argument (safety.c reported any
 * that cannot, at its line). */
static bool labels_safe(const model *m)
{
	for (size_t i = 0; i < m->npools; i++) {
		const pool_spec *p = m->pools[i];
		if (p->plan && safe_cli_arg(p->plan->label))
			return false;
		for (size_t j = 0; j < p->nmembers; j++) {
			const container_spec *c = p->members[j];
			if (c->plan && safe_cli_arg(c->plan->label))
				return false;
			for (size_t k = 0; k < c->attrs.n; k++)
				if (safe_line(c->attrs.items[k].value))
					return false;
			for (size_t k = 0; c->plan && k < c->plan->ndirs; k++)
				if (safe_mount_path(c->plan->dirs[k].path))
					return false;
		}
	}
	return true;
}

static bool pools_sh(const model *m, buf *out)
{
	arena *a = m->ar;
	if (!comment_safe(m) || !labels_safe(m))
		return false;
	buf_printf(out, "#!/bin/sh\n"
			"# DAOS pools and containers of system %s, generated by dslc: do not edit.\n"
			"# Idempotent: each pool and container is created only when a query does not\n"
			"# find it. Sizes use binary units (DAOS reads K, M, G as decimal).\n"
			"set -eu\n"
			"DMG=${DMG:-dmg}\n"
			"DAOS=${DAOS:-daos}\n",
		   m->cluster.name);
	bool acl = false;
	for (size_t i = 0; i < m->npools; i++)
		acl |= m->pools[i]->plan->acl_file != NULL;
	for (size_t j = 0; j < m->ncontainers; j++)
		acl |= m->containers[j]->plan && m->containers[j]->plan->acl_file != NULL;
	if (acl)
		buf_puts(out, "ACL_DIR=${ACL_DIR:-$(dirname \"$0\")/acl}\n");
	bool dirs = false;
	for (size_t j = 0; j < m->ncontainers; j++)
		dirs |= m->containers[j]->plan && m->containers[j]->plan->ndirs;
	if (dirs)
		buf_puts(out, DIRS_FUNCTION);
	for (size_t i = 0; i < m->npools; i++) {
		const pool_plan *pp = m->pools[i]->plan;
		buf_printf(out, "\n# pool %s\n", pp->label);
		buf_printf(out, "if ! \"$DMG\" pool query %s >/dev/null 2>&1; then\n", sq(a, pp->label));
		buf_printf(out, "\t\"$DMG\" pool create %s --size=%s --properties=%s", sq(a, pp->label), sq(a, pp->size),
			   sq(a, arena_printf(a, "svc_rf:%d", pp->svc_rf)));
		if (pp->user)
			buf_printf(out, " --user=%s", sq(a, pp->user));
		if (pp->group)
			buf_printf(out, " --group=%s", sq(a, pp->group));
		if (pp->acl_file)
			buf_printf(out, " --acl-file=\"$ACL_DIR\"/%s", sq(a, strchr(pp->acl_file, '/') + 1));
		if (pp->mem_ratio)
			buf_printf(out, " --mem-ratio=%s", sq(a, pp->mem_ratio));
		buf_puts(out, "\nfi\n");
		for (size_t j = 0; j < m->pools[i]->nmembers; j++) {
			const container_plan *cp = m->pools[i]->members[j]->plan;
			buf_printf(out, "\n# container %s: %s\n", cp->label, cp->derivation ? cp->derivation : "");
			buf_printf(out, "if ! \"$DAOS\" container query %s %s >/dev/null 2>&1; then\n", sq(a, pp->label),
				   sq(a, cp->label));
			buf_printf(out, "\t\"$DAOS\" container create %s %s --type=%s", sq(a, pp->label), sq(a, cp->label),
				   sq(a, cp->type));
			if (cp->oclass[0])
				buf_printf(out, " --oclass=%s", sq(a, cp->oclass));
			if (cp->file_oclass[0])
				buf_printf(out, " --file-oclass=%s", sq(a, cp->file_oclass));
			if (cp->dir_oclass[0])
				buf_printf(out, " --dir-oclass=%s", sq(a, cp->dir_oclass));
			if (cp->chunk)
				buf_printf(out, " --chunk-size=%s", sq(a, pools_size(a, cp->chunk)));
			buf_printf(out, " --properties=%s", sq(a, container_props(a, cp)));
			if (cp->acl_file)
				buf_printf(out, " --acl-file=\"$ACL_DIR\"/%s", sq(a, strchr(cp->acl_file, '/') + 1));
			buf_puts(out, "\nfi\n");
			container_attrs(a, pp, m->pools[i]->members[j], out);
			container_dirs(a, pp, cp, out);
		}
	}
	return true;
}

/* One ACL file: a comment header, then one ACE per line, as dmg's and
 * daos's ParseACL read it (src/control/lib/control/acl.go: trimmed lines,
 * '#' comments). */
static target_result acl_file(const model *m, target_file *tf, const char *path, const char *kind, const char *label,
			      const char *readers, const struct acl_entry *acl, size_t n)
{
	tf->path = path;
	if (safe_line(m->cluster.name) || safe_line(label))
		return TARGET_FAIL;
	buf_printf(tf->data, "# ACL of %s %s of system %s, generated by dslc: do not edit.\n# Read by %s.\n", kind, label,
		   m->cluster.name, readers);
	for (size_t j = 0; j < n; j++) {
		if (safe_acl_line(acl[j].ace))
			return TARGET_FAIL; /* the safety gate reported it */
		buf_printf(tf->data, "%s\n", acl[j].ace);
	}
	return TARGET_OK;
}

/* cluster/acl/<pool>.acl per pool with an ACL, then
 * cluster/acl/<pool>/<container>.acl per container with one. */
target_result target_pool_acl(const model *m, target_file *tf)
{
	int want = tf->index;
	for (size_t i = 0; i < m->npools; i++) {
		const pool_spec *p = m->pools[i];
		if (p->plan && p->plan->acl_file && !want--)
			return acl_file(m, tf, p->plan->acl_file, "pool", p->plan->label,
					"`dmg pool create --acl-file` and `dmg pool overwrite-acl --acl-file`", p->acl, p->nacl);
	}
	for (size_t i = 0; i < m->ncontainers; i++) {
		const container_spec *c = m->containers[i];
		if (c->plan && c->plan->acl_file && !want--)
			return acl_file(m, tf, c->plan->acl_file, "container", c->plan->label,
					"`daos container create --acl-file` and `daos container overwrite-acl --acl-file`", c->acl,
					c->nacl);
	}
	return TARGET_SKIP;
}

const cluster_target_info cluster_target_table[] = {
	{"daos_pools", "daos-pools.sh",
	 "`dmg pool create` and `daos container create` commands: idempotent, quoted, binary size units.", 0755,
	 target_pools_sh},
	{"pool_acl", "acl/", "Per pool with an `acl`: acl/<pool>.acl, its access control entries, which daos-pools.sh passes with --acl-file; per container with one, acl/<pool>/<container>.acl the same way.", 0644,
	 target_pool_acl},
	{"pools_plan", "pools.json", "The same pools and containers as data: classes, rd_fac, rd_lvl, fault domains, chunk and cell sizes.",
	 0644, target_pools_json},
	{"kubernetes", "kubernetes/",
	 "With `deploy kubernetes`: namespace.yaml (the namespace's quota and ServiceAccounts); per group of nodes with the same daos_server.yml an immutable ConfigMap and a DaemonSet (daos-server-<sha256/16>.yaml, OnDelete, hostNetwork, hugepages, SCM memory, RDMA and VFIO resources, no CPU limit); the same for daos_agent.yml (hostPID, HWLOC_ALLOW=all); per client group a PodTemplate (daos-client-<group>.yaml: agent socket, hostNetwork, RDMA resources, NCCL_IB_HCA with nccl on); device-plugins.yaml (k8s-rdma-shared-dev-plugin and generic-device-plugin configurations); disruption-budget.yaml (a PodDisruptionBudget over the daos-server pods: minAvailable, an integer, leaves as many down as the data tolerates); label-nodes.sh; node-maintenance.sh; kustomization.yaml; rollout-rbac.yaml (a cluster admin's, not in the kustomization: the namespace, the ServiceAccount dslc-rollout that runs the rollout and node-maintenance.sh, its Role in the namespace and its ClusterRole for nodes and the drain); client-namespaces.yaml (a cluster admin's too).",
	 0644, target_kubernetes},
	{"ansible", "ansible/",
	 "inventory.yml (every node with ansible_host from its mgmt address, the planned kernel parameters and the boot configuration's command; groups dslc_servers, dslc_client_only, dslc_access_points, dslc_type_<hardware>; every value !unsafe) and apply.yml, the playbook that installs each node's files from the built tree with their modes, removes what it installed before and this build no longer has, and runs what the classes given in dslc_classes need (SPEC.md, \"Ansible\").",
	 0644, target_ansible},
};
const size_t cluster_target_count = sizeof(cluster_target_table) / sizeof(cluster_target_table[0]);

target_result target_pools_json(const model *m, target_file *tf)
{
	if (tf->index || !m->npools)
		return TARGET_SKIP;
	return pools_json(m, tf->data) ? TARGET_OK : TARGET_FAIL;
}

static bool pools_json(const model *m, buf *out)
{
	json_t *root = json_object();
	json_object_set_new(root, "system", json_string(m->cluster.name));
	json_t *pools = json_array();
	for (size_t i = 0; i < m->npools; i++) {
		const pool_plan *pp = m->pools[i]->plan;
		json_t *p = json_object();
		json_object_set_new(p, "label", json_string(pp->label));
		json_object_set_new(p, "size", json_string(pp->size));
		json_object_set_new(p, "svc_rf", json_integer(pp->svc_rf));
		json_object_set_new(p, "user", pp->user ? json_string(pp->user) : json_null());
		json_object_set_new(p, "group", pp->group ? json_string(pp->group) : json_null());
		json_t *acl = pp->acl_file ? json_array() : json_null();
		for (size_t j = 0; pp->acl_file && j < m->pools[i]->nacl; j++)
			json_array_append_new(acl, json_string(m->pools[i]->acl[j].ace));
		json_object_set_new(p, "acl", acl);
		json_object_set_new(p, "mem_ratio", pp->mem_ratio ? json_string(pp->mem_ratio) : json_null());
		json_t *cs = json_array();
		for (size_t j = 0; j < m->pools[i]->nmembers; j++) {
			const container_plan *cp = m->pools[i]->members[j]->plan;
			json_t *o = json_object();
			/* its name in the description: what `dslc plan` matches it by,
			 * so that a new label is a relabel, not another container */
			json_object_set_new(o, "name", json_string(m->pools[i]->members[j]->name));
			json_object_set_new(o, "label", json_string(cp->label));
			json_object_set_new(o, "type", json_string(cp->type));
			json_object_set_new(o, "rd_fac", json_integer(cp->rd_fac));
			json_object_set_new(o, "rd_lvl", json_string(cp->rd_lvl));
			json_object_set_new(o, "fault_domains", json_integer(cp->domains));
			json_object_set_new(o, "oclass", cp->oclass[0] ? json_string(cp->oclass) : json_null());
			json_object_set_new(o, "file_oclass", cp->file_oclass[0] ? json_string(cp->file_oclass) : json_null());
			json_object_set_new(o, "dir_oclass", cp->dir_oclass[0] ? json_string(cp->dir_oclass) : json_null());
			json_object_set_new(o, "chunk_size", cp->chunk ? json_integer((json_int_t)cp->chunk) : json_null());
			json_object_set_new(o, "ec_cell_sz", cp->ec_cell ? json_integer((json_int_t)cp->ec_cell) : json_null());
			json_object_set_new(o, "cksum", cp->cksum ? json_string(cp->cksum) : json_null());
			json_object_set_new(o, "srv_cksum", json_boolean(cp->srv_cksum));
			const container_spec *c = m->pools[i]->members[j];
			json_t *acl = cp->acl_file ? json_array() : json_null();
			for (size_t k = 0; cp->acl_file && k < c->nacl; k++)
				json_array_append_new(acl, json_string(c->acl[k].ace));
			json_object_set_new(o, "acl", acl);
			json_t *attrs = json_object();
			for (size_t k = 0; k < c->attrs.n; k++)
				json_object_set_new(attrs, c->attrs.items[k].name, json_string(c->attrs.items[k].value));
			json_object_set_new(o, "attrs", attrs);
			if (cp->ndirs) { /* only when given: the others' files stay as they were */
				json_t *dirs = json_object();
				for (size_t k = 0; k < cp->ndirs; k++) {
					json_t *d = json_object();
					json_object_set_new(d, "oclass", cp->dirs[k].oclass[0] ? json_string(cp->dirs[k].oclass) : json_null());
					json_object_set_new(d, "chunk_size", cp->dirs[k].chunk ? json_integer((json_int_t)cp->dirs[k].chunk) : json_null());
					json_object_set_new(dirs, cp->dirs[k].path, d);
				}
				json_object_set_new(o, "directories", dirs);
			}
			json_array_append_new(cs, o);
		}
		json_object_set_new(p, "containers", cs);
		json_array_append_new(pools, p);
	}
	json_object_set_new(root, "pools", pools);
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return false;
	buf_puts(out, text);
	buf_puts(out, "\n");
	free(text);
	return true;
}
