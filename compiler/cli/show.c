/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* show.c - a node's plan as a person or a script wants to read it. */
#include "show.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "compiler/place/clients.h"
#include "compiler/place/node_os.h"
#include "compiler/place/place.h"
#include "targets/targets.h"

typedef struct numa_view {
	int numa;
	const char *cpus, *os_cpus, *kube_cpus;
	int os_first, os_n, kube_n;
	const engine_plan *engine;
	const char *engine_cpus;
	uint64_t memory, scm, hugepages, reserved;
} numa_view;

static const char *cpus_of(arena *a, const topology *t, int first, int n)
{
	int *cpus = arena_alloc(a, (size_t)(n * TOPO_MAX_SMT + 1) * sizeof(int));
	int k = place_cpus(t, first, n, cpus);
	return topo_cpulist(a, cpus, k);
}

/* CPUs of a NUMA node that neither the OS nor an engine holds: Kubernetes'. */
static const char *kube_cpus(arena *a, const node_plan *p, int numa, int *ncores)
{
	const topology *t = p->topo;
	const topo_numa *tn = &t->numa[numa];
	int *cpus = arena_alloc(a, (size_t)(tn->ncores * TOPO_MAX_SMT + 1) * sizeof(int));
	int k = 0;
	*ncores = 0;
	for (int c = tn->first_core; c < tn->first_core + tn->ncores; c++) {
		bool held = c >= p->os_first[numa] && c < p->os_first[numa] + p->os_count[numa];
		for (int i = 0; i < p->nengines; i++)
			held |= p->engines[i].placed && c >= p->engines[i].first_core &&
				c < p->engines[i].first_core + p->engines[i].ncores;
		if (held)
			continue;
		(*ncores)++;
		for (int j = 0; j < t->cores[c].npus; j++)
			cpus[k++] = t->cores[c].pus[j];
	}
	return topo_cpulist(a, cpus, k);
}

static numa_view view_of(const model *m, const node_plan *p, int n)
{
	numa_view v = {0};
	const topology *t = p->topo;
	v.numa = n;
	v.cpus = cpus_of(m->ar, t, t->numa[n].first_core, t->numa[n].ncores);
	v.os_first = p->os_first[n];
	v.os_n = p->os_count[n];
	v.os_cpus = cpus_of(m->ar, t, v.os_first, v.os_n);
	v.kube_cpus = kube_cpus(m->ar, p, n, &v.kube_n);
	for (int i = 0; i < p->nengines; i++)
		if (p->engines[i].numa == n && p->engines[i].placed) {
			v.engine = &p->engines[i];
			v.engine_cpus = cpus_of(m->ar, t, v.engine->first_core, v.engine->ncores);
			v.scm = v.engine->scm_bytes;
		}
	v.memory = t->numa[n].memory;
	v.hugepages = place_hugepages_on(p, n);
	v.reserved = place_reserved_bytes(m) / (uint64_t)t->nnuma;
	return v;
}

static const char *unit_name(arena *a, const char *path)
{
	buf b;
	buf_init(&b);
	dfuse_unit_name(&b, path);
	const char *out = arena_strndup(a, b.data, b.len);
	buf_free(&b);
	return out;
}

/* What the node is as a DAOS client: agent NICs of a client-only node, its
 * dfuse mounts, NCCL's HCA list. */
static void show_client_text(const model *m, const node *nd, FILE *out)
{
	const node_plan *p = nd->spec->plan;
	if (p->client) {
		bool listed = place_fabric_domains_known(p);
		fprintf(out, "  DAOS client only (no engines); daos_agent fabric_ifaces:");
		for (int i = 0; listed && i < p->nclient_nics; i++)
			fprintf(out, "%s %s (NUMA %d, domain %s)", i ? "," : "", p->client_nics[i]->name, p->client_nics[i]->numa,
				p->client_nics[i]->rdma);
		fprintf(out, "%s\n", listed ? "" : " none (the agent scans the fabric)");
	}
	const mount_spec *mt;
	for (size_t k = 0; (mt = clients_next_mount(m, (size_t)(nd - m->nodes), &k));) {
		fprintf(out, "  dfuse %s: container %s of pool %s, %s as %s%s%s%s\n", mt->path, mt->container, mt->pool,
			unit_name(m->ar, mt->path), mt->user.set ? mt->user.v : "root",
			mt->multi_user.set && mt->multi_user.v ? ", multi-user" : "", mt->intercept.set ? ", lib" : "",
			mt->intercept.set ? mt->intercept.v : "");
	}
	const char *hca = clients_nccl_hca(m->ar, nd->spec);
	if (hca)
		fprintf(out, "  nccl.conf NCCL_IB_HCA=%s\n", hca);
}

static json_t *client_json(const model *m, const node *nd)
{
	const node_plan *p = nd->spec->plan;
	json_t *o = json_object();
	json_object_set_new(o, "client_only", json_boolean(p->client));
	json_t *nics = json_array();
	for (int i = 0; i < p->nclient_nics; i++)
		json_array_append_new(nics, json_pack("{s:s, s:i}", "iface", p->client_nics[i]->name, "numa",
						       p->client_nics[i]->numa));
	json_object_set_new(o, "agent_nics", nics);
	const mount_spec *mt;
	json_t *mounts = json_array();
	for (size_t k = 0; (mt = clients_next_mount(m, (size_t)(nd - m->nodes), &k));)
		json_array_append_new(mounts, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s?}", "path", mt->path, "pool",
							mt->pool, "container", mt->container, "unit",
							unit_name(m->ar, mt->path), "user", mt->user.set ? mt->user.v : "root",
							"multi_user", mt->multi_user.set && mt->multi_user.v, "intercept",
							mt->intercept.set ? mt->intercept.v : NULL));
	json_object_set_new(o, "mounts", mounts);
	const char *hca = clients_nccl_hca(m->ar, nd->spec);
	json_object_set_new(o, "nccl_ib_hca", hca ? json_string(hca) : json_null());
	return o;
}

static const char *range(arena *a, int first, int n)
{
	if (n <= 0)
		return "none";
	return n == 1 ? arena_printf(a, "%d", first) : arena_printf(a, "%d-%d", first, first + n - 1);
}

/* "  tier 1 [wal]" for a drive of an engine with split MD-on-SSD tiers, "" else. */
static const char *tier_of(arena *a, const engine_plan *ep, int drive)
{
	for (int t = 0; ep->spec->tiers_split && t < ep->ntiers; t++) {
		const tier_plan *tp = &ep->tiers[t];
		if (drive < tp->first || drive >= tp->first + tp->n || !tp->spec || !tp->spec->nroles)
			continue;
		const char *roles = "";
		for (int r = 0; r < tp->spec->nroles; r++)
			roles = arena_printf(a, "%s%s%s", roles, r ? " " : "", tp->spec->roles[r]);
		return arena_printf(a, "  tier %d [%s]", t + 1, roles);
	}
	return "";
}

void show_node_text(const model *m, const node *nd, FILE *out)
{
	const node_plan *p = nd->spec->plan;
	const topology *t = p->topo;
	fprintf(out, "node %s (%s, hardware %s)\n", nd->host, nd->spec->origin, nd->spec->hw->name);
	if (!p->client)
		fprintf(out, "  %d cores in %d NUMA nodes; DAOS is told %s\n", t->ncores, t->nnuma,
			p->pinned_mode ? "pinned_numa_node" : "first_core (absolute hwloc logical core indexes)");
	else
		fprintf(out, "  %d cores in %d NUMA nodes\n", t->ncores, t->nnuma);
	if (p->nr_hugepages) /* a client-only node reserves none */
		fprintf(out, "  hugepages: %lld pages of %llu MiB (%llu GiB)\n", (long long)p->nr_hugepages,
			(unsigned long long)(p->hugepage_size / MiB), (unsigned long long)(p->hugepage_bytes / GiB));
	/* an address only the network block's units carry is not shown as
	 * configured without one (unused-value) */
	const network_spec *net = &nd->spec->network;
	if (nd->mgmt)
		fprintf(out, "  mgmt %s%s%s%s\n", nd->mgmt, nd->gateway ? " gateway " : "", nd->gateway ? nd->gateway : "",
			network_mgmt_bonded(net) ? "" : " (written nowhere: no mgmt bond over macvlan)");
	for (size_t i = 0; i < nd->spec->nstorage; i++)
		if (nd->storage && nd->storage[i])
			fprintf(out, "  storage %s %s%s\n", nd->spec->storage[i].iface, nd->storage[i],
				net->set ? "" : " (written nowhere: no network block)");
	show_client_text(m, nd, out);
	for (int n = 0; n < t->nnuma; n++) {
		numa_view v = view_of(m, p, n);
		fprintf(out, "NUMA node %d (os index %d): cores %s, CPUs %s\n", n, t->numa[n].os_index,
			range(m->ar, t->numa[n].first_core, t->numa[n].ncores), v.cpus);
		fprintf(out, "  os          cores %-9s CPUs %s\n", range(m->ar, v.os_first, v.os_n), v.os_n ? v.os_cpus : "none");
		if (v.engine)
			fprintf(out, "  engine %-4d cores %-9s CPUs %s  (%d targets, %d helpers, %s %d)\n", v.engine->index,
				range(m->ar, v.engine->first_core, v.engine->ncores), v.engine_cpus, v.engine->targets,
				v.engine->helpers, p->pinned_mode ? "pinned_numa_node" : "first_core",
				p->pinned_mode ? t->numa[n].os_index : v.engine->first_core);
		if (v.engine && v.engine->nic)
			fprintf(out, "              fabric_iface %s: %s\n", v.engine->nic->name, v.engine->nic_why);
		if (v.engine && v.engine->scm_device)
			fprintf(out, "              scm %s: PMem (class dcpm), mounted at %s\n", v.engine->scm_device,
				v.engine->scm_mount);
		/* the cores left over: the kubelet's pods where the node runs one,
		 * else jobs and services dslc places nothing on */
		fprintf(out, "  %s  %d cores  CPUs %s\n", show_runs_kubelet(nd->spec) ? "kubernetes" : "free      ", v.kube_n,
			v.kube_n ? v.kube_cpus : "none");
		const hardware *hw = nd->spec->hw;
		for (size_t i = 0; i < hw->nnics; i++)
			if (hw->nics[i].numa == n)
				fprintf(out, "  nic   %s %s %s%s%s%s%s%s\n", hw->nics[i].name, hw->nics[i].pci, hw->nics[i].role,
					hw->nics[i].link ? " " : "", hw->nics[i].link ? hw->nics[i].link : "",
					hw->nics[i].rdma ? " (" : "", hw->nics[i].rdma ? hw->nics[i].rdma : "",
					hw->nics[i].rdma ? ")" : "");
		for (size_t i = 0; i < hw->nnvmes; i++) {
			if (hw->nvmes[i].numa != n)
				continue;
			int at = -1;
			if (v.engine)
				for (int k = 0; k < v.engine->nnvmes; k++)
					if (v.engine->nvmes[k] == &hw->nvmes[i])
						at = k;
			fprintf(out, "  nvme  %s%s%s\n", hw->nvmes[i].pci, at < 0 ? " (not used)" : "",
				at < 0 ? "" : tier_of(m->ar, v.engine, at));
		}
		if (v.memory)
			fprintf(out, "  memory %llu GiB: scm %llu + hugepages %llu + reserved %llu, %lld left\n",
				(unsigned long long)(v.memory / GiB), (unsigned long long)(v.scm / GiB),
				(unsigned long long)(v.hugepages / GiB), (unsigned long long)(v.reserved / GiB),
				(long long)((int64_t)(v.memory - v.scm - v.hugepages - v.reserved) / (int64_t)GiB));
		const kubelet_plan *kp = node_kubelet_plan(m, nd->spec);
		uint64_t daos = kp ? node_kubelet_daos_memory(m, nd->spec, n) : 0;
		if (kp && strcmp(kp->memory_manager, "static") == 0 && n < kp->nnuma)
			fprintf(out, "  kubelet reservedMemory %llu MiB: DAOS %llu + system, kube and eviction %llu; "
				     "Guaranteed pods get at most %lld MiB here\n",
				(unsigned long long)(kp->numa_reserved[n] / MiB), (unsigned long long)(daos / MiB),
				(unsigned long long)((kp->numa_reserved[n] - daos) / MiB),
				(long long)(((int64_t)v.memory - (int64_t)v.hugepages - (int64_t)kp->numa_reserved[n]) / (int64_t)MiB));
	}
}

static json_t *tiers_json(const engine_plan *ep)
{
	json_t *a = json_array();
	for (int t = 0; t < ep->ntiers; t++) {
		const tier_plan *tp = &ep->tiers[t];
		json_t *list = json_array(), *roles = json_array();
		for (int i = tp->first; i < tp->first + tp->n; i++)
			json_array_append_new(list, json_string(ep->nvmes[i]->pci));
		for (int r = 0; tp->spec && r < tp->spec->nroles; r++)
			json_array_append_new(roles, json_string(tp->spec->roles[r]));
		json_array_append_new(a, json_pack("{s:o, s:o}", "bdev_list", list, "bdev_roles", roles));
	}
	return a;
}

static json_t *cores_json(int first, int n)
{
	json_t *a = json_array();
	for (int c = first; c < first + n; c++)
		json_array_append_new(a, json_integer(c));
	return a;
}

int show_node_json(const model *m, const node *nd, FILE *out)
{
	const node_plan *p = nd->spec->plan;
	const topology *t = p->topo;
	const hardware *hw = nd->spec->hw;
	json_t *root = json_object();
	json_object_set_new(root, "node", json_string(nd->host));
	json_object_set_new(root, "hardware", json_string(hw->name));
	json_object_set_new(root, "daos_affinity", json_string(p->pinned_mode ? "pinned_numa_node" : "first_core"));
	json_object_set_new(root, "nr_hugepages", json_integer(p->nr_hugepages));
	json_object_set_new(root, "hugepage_size", json_integer((json_int_t)p->hugepage_size));
	json_t *numas = json_array();
	for (int n = 0; n < t->nnuma; n++) {
		numa_view v = view_of(m, p, n);
		json_t *o = json_object();
		json_object_set_new(o, "numa", json_integer(n));
		json_object_set_new(o, "os_index", json_integer(t->numa[n].os_index));
		json_object_set_new(o, "cores", cores_json(t->numa[n].first_core, t->numa[n].ncores));
		json_object_set_new(o, "cpus", json_string(v.cpus));
		json_object_set_new(o, "os_cores", cores_json(v.os_first, v.os_n));
		json_object_set_new(o, "os_cpus", json_string(v.os_cpus));
		json_object_set_new(o, show_runs_kubelet(nd->spec) ? "kubernetes_cpus" : "free_cpus", json_string(v.kube_cpus));
		if (v.engine) {
			json_t *e = json_object();
			json_object_set_new(e, "index", json_integer(v.engine->index));
			json_object_set_new(e, "cores", cores_json(v.engine->first_core, v.engine->ncores));
			json_object_set_new(e, "cpus", json_string(v.engine_cpus));
			json_object_set_new(e, "first_core", json_integer(v.engine->first_core));
			json_object_set_new(e, "targets", json_integer(v.engine->targets));
			json_object_set_new(e, "helpers", json_integer(v.engine->helpers));
			json_object_set_new(e, "fabric_iface", v.engine->nic ? json_string(v.engine->nic->name) : json_null());
			json_object_set_new(e, "fabric_iface_choice", v.engine->nic ? json_string(v.engine->nic_why) : json_null());
			json_object_set_new(e, "fabric_iface_port", json_integer(v.engine->fabric_port));
			json_t *d = json_array();
			for (int k = 0; k < v.engine->nnvmes; k++)
				json_array_append_new(d, json_string(v.engine->nvmes[k]->pci));
			json_object_set_new(e, "bdev_list", d);
			json_object_set_new(e, "nvme_tiers", tiers_json(v.engine));
			json_object_set_new(e, "scm_bytes", json_integer((json_int_t)v.engine->scm_bytes));
			json_object_set_new(e, "scm_class", v.engine->scm_class ? json_string(v.engine->scm_class) : json_null());
			json_object_set_new(e, "scm_list", v.engine->scm_device ? json_pack("[s]", v.engine->scm_device) : json_array());
			json_object_set_new(o, "engine", e);
		} else {
			json_object_set_new(o, "engine", json_null());
		}
		json_t *nics = json_array();
		for (size_t i = 0; i < hw->nnics; i++)
			if (hw->nics[i].numa == n)
				json_array_append_new(nics, json_pack("{s:s, s:s, s:s, s:s?, s:s?}", "name", hw->nics[i].name, "pci",
								       hw->nics[i].pci, "role", hw->nics[i].role, "rdma", hw->nics[i].rdma,
								       "link", hw->nics[i].link));
		json_object_set_new(o, "nics", nics);
		json_t *nv = json_array();
		for (size_t i = 0; i < hw->nnvmes; i++)
			if (hw->nvmes[i].numa == n)
				json_array_append_new(nv, json_string(hw->nvmes[i].pci));
		json_object_set_new(o, "nvme", nv);
		json_object_set_new(o, "memory", json_pack("{s:I, s:I, s:I, s:I}", "total", (json_int_t)v.memory, "scm",
							    (json_int_t)v.scm, "hugepages", (json_int_t)v.hugepages, "reserved",
							    (json_int_t)v.reserved));
		const kubelet_plan *kp = node_kubelet_plan(m, nd->spec);
		if (kp && strcmp(kp->memory_manager, "static") == 0 && n < kp->nnuma)
			json_object_set_new(o, "kubelet_reserved_memory",
					    json_pack("{s:I, s:I}", "total", (json_int_t)kp->numa_reserved[n], "daos",
						      (json_int_t)node_kubelet_daos_memory(m, nd->spec, n)));
		json_array_append_new(numas, o);
	}
	json_object_set_new(root, "numa_nodes", numas);
	json_object_set_new(root, "client", client_json(m, nd));
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 ? 0 : 2;
	fputc('\n', out);
	json_decref(root);
	return rc;
}
