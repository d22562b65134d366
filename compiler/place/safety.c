/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* safety.c - see safety.h: the gate over the model. */
#include "safety.h"

#include <string.h>

#include "compiler/base/safe.h"
#include "node_os.h"
#include "place.h"

static void refuse(model *m, src_loc loc, const char *what, const char *value, const char *why, const char *help)
{
	if (!why)
		return;
	for (size_t i = 0; i < m->dc->n; i++) {
		const diag *d = m->dc->items[i];
		if (d->severity == SEV_ERROR && d->loc.file == loc.file && d->loc.start == loc.start)
			return; /* an error already stops the build here */
	}
	diag *d = diag_report(m->dc, R_UNSAFE_VALUE, loc, "%s '%s' cannot be written: %s", what, safe_echo(m->ar, value), why);
	diag_help(m->dc, d, "%s", help);
}

static void check_line(model *m, src_loc loc, const char *what, const char *v)
{
	if (v)
		refuse(m, loc, what, v, safe_line(v), "remove the control characters (\\n, \\t) and invalid bytes");
}

static const char nic_help[] = "write the interface name as `ip link` shows it (letters, digits, '.', '_', '-')";

/* An engine's scm_mount: a hostPath of the daos-server pod and a mount point
 * daos_server makes. */
static void check_scm_mount(model *m, src_loc loc, const char *path)
{
	refuse(m, loc, "scm_mount", path, safe_mount_path(path) ? safe_mount_path(path) : safe_mount_point(path),
	       "write an absolute path of letters, digits, '.', '_' and '-' components, e.g. /mnt/daos0");
}

/* reserved_cpus is written into the KubeletConfiguration as given: a CPU list
 * the kubelet parses, each CPU below ncpus (0: the machine is not known). */
static void check_reserved_cpus(model *m, const node_spec *s, int ncpus)
{
	if (s->kubelet.reserved_cpus.set)
		refuse(m, s->kubelet.reserved_cpus.loc, "reserved_cpus", s->kubelet.reserved_cpus.v,
		       safe_cpulist(m->ar, s->kubelet.reserved_cpus.v, ncpus),
		       "write a kernel CPU list of this node type's CPUs, e.g. \"0-3,96-99\" (the kubelet refuses to start otherwise)");
}

/* What a hardware block names that files carry, each value on its own:
 * checked for every hardware, placed or not, so that one wrong line in the
 * block does not hide another. */
static void check_hardware(model *m, const hardware *hw)
{
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *n = &hw->nics[i];
		if (n->name) /* an engine's NIC too: it is one of these */
			refuse(m, n->loc, "interface name", n->name, safe_ifname(n->name), nic_help);
		/* every NIC's RDMA device, a compute NIC's too: nccl.conf lists
		 * them (NCCL_IB_HCA) as engines' NICs go into daos_server.yml */
		if (n->rdma)
			refuse(m, n->loc, "RDMA device name", n->rdma, safe_name(n->rdma),
			       "write the RDMA device as `ibv_devices` lists it, e.g. mlx5_0");
	}
	if (hw->bmc_system.set)
		refuse(m, hw->bmc_system.loc, "Redfish system id", hw->bmc_system.v, safe_name(hw->bmc_system.v),
		       "write the id as the BMC lists it under /redfish/v1/Systems, e.g. 1 or System.Embedded.1");
}

/* What a spec names that files carry, each value as written: for a spec
 * that was not placed (something else in it is wrong), so that its other
 * mistakes are still said; check_spec judges the placed ones, with the plan. */
static void check_spec_values(model *m, const node_spec *s)
{
	for (int k = 0; k < MODEL_MAX_NUMA; k++)
		if (s->eng[k] && s->eng[k]->scm_mount.set)
			check_scm_mount(m, s->eng[k]->scm_mount.loc, s->eng[k]->scm_mount.v);
	check_reserved_cpus(m, s, 0);
}

static void check_spec(model *m, const node_spec *s)
{
	for (size_t i = 0; i < s->nstorage; i++)
		refuse(m, s->storage[i].loc, "interface name", s->storage[i].iface, safe_ifname(s->storage[i].iface), nic_help);
	const node_plan *p = s->plan;
	for (int e = 0; p && e < p->nengines; e++) {
		const engine_plan *ep = &p->engines[e];
		check_line(m, ep->spec ? ep->spec->log_file.loc : s->hw->loc, "log file", ep->log_file);
		if (ep->spec && ep->spec->scm_mount.set)
			check_scm_mount(m, ep->spec->scm_mount.loc, ep->scm_mount);
	}
	for (size_t i = 0; i < s->bios.n; i++) {
		check_line(m, s->bios.items[i].loc, "BIOS attribute", s->bios.items[i].name);
		check_line(m, s->bios.items[i].loc, "BIOS value", s->bios.items[i].value);
	}
	if (s->kubelet.reserved_cpus.set) {
		int ncpus = 0;
		for (int c = 0; p && p->topo && c < p->topo->ncores; c++)
			for (int j = 0; j < p->topo->cores[c].npus; j++)
				if (p->topo->cores[c].pus[j] >= ncpus)
					ncpus = p->topo->cores[c].pus[j] + 1;
		check_reserved_cpus(m, s, ncpus);
	}
	const kernel_plan *k = node_kernel_plan(m, s);
	for (size_t i = 0; k && i < k->params.n; i++) {
		const env_entry *e = &k->params.items[i];
		char bad;
		const char *why = safe_kernel_param(e->name, e->value, &bad);
		if (why)
			refuse(m, e->loc, "kernel parameter", *e->value ? arena_printf(m->ar, "%s=%s", e->name, e->value) : e->name,
			       arena_printf(m->ar, "'%c': %s", bad, why),
			       "remove the character; a kernel parameter is written verbatim into a shell script and GRUB's linux line");
	}
}

/* Silencing a finding never changes what is built: a node type whose plan
 * could not be made, with no error left to say why, stops the build here. */
static void check_plans(model *m)
{
	if (diag_count(m->dc, SEV_ERROR))
		return; /* the build stops anyway, and says why */
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		if (!s->tainted && s->plan && s->plan->ok)
			continue;
		diag *d = diag_report(m->dc, R_PLAN_INCOMPLETE, s->hw ? s->hw->name_loc : SRC_LOC_NONE,
				      "%s could not be placed, and the finding that says why is suppressed or disabled",
				      s->origin ? s->origin : "a node type");
		diag_note_at(m->dc, d, SRC_LOC_NONE, "a suppression silences a report; it never lets dslc write configs "
			     "without the engines the description declares");
		diag_help(m->dc, d, "remove the suppression or --disable and fix what it hides");
	}
}

void safety_check_model(model *m)
{
	if (!m->dc)
		return;
	check_plans(m);
	bool pods = false;
	for (size_t i = 0; i < m->nnodes; i++) {
		const node *nd = &m->nodes[i];
		refuse(m, nd->loc, "host name", nd->host, safe_name(nd->host), "write host names as letters, digits, '-', '_' and '.'");
		/* the scripts name the node in Kubernetes by this (label-nodes.sh,
		 * node-maintenance.sh, the rollout): Kubernetes' own grammar */
		if (nd->spec && spec_in_pods(nd->spec)) {
			pods = true;
			const char *k = node_k8s_name(nd);
			refuse(m, node_k8s_name_loc(nd), "Kubernetes node name", k,
			       safe_k8s_subdomain(k),
			       "name the node as `kubectl get nodes` lists it: `k8s_node_name <name>` in its nodes or node block");
		}
	}
	if (pods && m->cluster.kube.client_gpu_class.set) /* written into every ResourceClaimTemplate */
		refuse(m, m->cluster.kube.client_gpu_class.loc, "DeviceClass name", m->cluster.kube.client_gpu_class.v,
		       safe_k8s_subdomain(m->cluster.kube.client_gpu_class.v),
		       "name the DeviceClass as `kubectl get deviceclasses` lists it");
	if (pods && m->cluster.name) /* the part-of label of every object (no cluster block: reported) */
		refuse(m, m->cluster.name_loc, "cluster name", m->cluster.name, safe_k8s_label_value(m->cluster.name),
		       "name the cluster with a letter or digit at both ends (it is the app.kubernetes.io/part-of label)");
	for (size_t i = 0; i < m->nhws; i++)
		check_hardware(m, m->hws[i]);
	for (size_t i = 0; i < m->nspecs; i++) {
		if (!m->specs[i]->tainted)
			check_spec(m, m->specs[i]);
		else
			check_spec_values(m, m->specs[i]);
	}
	check_line(m, m->cluster.name_loc, "cluster name", m->cluster.name);
	check_line(m, m->cluster.control_log_file.loc, "control log file",
		   m->cluster.control_log_file.set ? m->cluster.control_log_file.v : NULL);
	check_line(m, m->cluster.helper_log_file.loc, "helper log file",
		   m->cluster.helper_log_file.set ? m->cluster.helper_log_file.v : NULL);
	for (size_t i = 0; i < m->npools; i++) {
		const pool_spec *p = m->pools[i];
		refuse(m, p->name_loc, "pool label", p->name, safe_cli_arg(p->name),
		       "name the pool with a letter or digit first (dmg pool create takes the label as an argument)");
		check_line(m, p->owner.loc, "pool owner", p->owner.set ? p->owner.v : NULL);
		check_line(m, p->group.loc, "pool group", p->group.set ? p->group.v : NULL);
		for (size_t a = 0; a < p->nacl; a++)
			refuse(m, p->acl[a].loc, "ACL entry", p->acl[a].ace, safe_acl_line(p->acl[a].ace),
			       "write the entry on one line, without spaces at its ends (dmg reads the ACL file line by line)");
	}
	for (size_t i = 0; i < m->ncontainers; i++) {
		const container_spec *c = m->containers[i];
		const char *label = c->label.set ? c->label.v : c->name;
		refuse(m, c->label.set ? c->label.loc : c->name_loc, "container label", label, safe_cli_arg(label),
		       "start the label with a letter or digit (daos container create takes it as an argument)");
		if (c->label.set)
			check_line(m, c->name_loc, "container name", c->name);
		for (size_t a = 0; a < c->nacl; a++)
			refuse(m, c->acl[a].loc, "ACL entry", c->acl[a].ace, safe_acl_line(c->acl[a].ace),
			       "write the entry on one line, without spaces at its ends (daos reads the ACL file line by line)");
		for (size_t a = 0; a < c->attrs.n; a++)
			check_line(m, c->attrs.items[a].loc, "attribute value", c->attrs.items[a].value);
	}
	/* the dfuse service's User= and its tmpfiles.d owner */
	for (size_t i = 0; i < m->nmounts; i++) {
		const mount_spec *mt = m->mounts[i];
		if (mt->user.set)
			refuse(m, mt->user.loc, "dfuse account", mt->user.v, safe_account(mt->user.v),
			       "write the account as useradd takes it: lower-case letters, digits, '_' and '-', a letter first");
		refuse(m, mt->path_loc, "mount path", mt->path, safe_dfuse_unit(mt->path),
		       "shorten the path: each byte outside [A-Za-z0-9:_.] takes four in the unit name");
		refuse(m, mt->path_loc, "mount path", mt->path, safe_mount_point(mt->path),
		       "mount dfuse on a directory of its own, e.g. /mnt/daos or /mnt/daos/<container>");
		for (size_t k = 0; k < mt->env.n; k++)
			refuse(m, mt->env.items[k].loc, "dfuse environment value", mt->env.items[k].value,
			       safe_unit_env_value(mt->env.items[k].value), "write the value without spaces, quotes, '%', '$' or '\\'");
	}
	/* client_env_vars: YAML quotes what it must; a line stays a line */
	for (size_t k = 0; k < m->cluster.client_env.n; k++) {
		const env_entry *e = &m->cluster.client_env.items[k];
		check_line(m, e->loc, "client_env value", e->value);
	}
}
