/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* node_plan.h - the per-node plan placement makes and the targets render:
 * the data only (place.h has the functions that make and read it). */
#ifndef DSLC_NODE_PLAN_H
#define DSLC_NODE_PLAN_H

#include "compiler/model/model.h"

/* An NVMe tier as placed: drives [first, first + n) of the engine's list. */
typedef struct tier_plan {
	int first, n;
	const tier_spec *spec; /* NULL: the implicit tier of an engine without roles */
} tier_plan;

typedef struct engine_plan {
	int index; /* position in daos_server.yml's engines list */
	int numa;
	const engine_spec *spec;
	int targets, helpers;
	int needed;     /* 2 + targets + helpers: cores DAOS uses */
	int ncores;     /* cores reserved (>= needed) */
	int first_core; /* hwloc logical index of the first core */
	bool explicit_first_core;
	bool placed; /* placement succeeded; lint judges only placed engines */
	const nic_desc *nic;
	const char *nic_why; /* how the NIC was chosen, for build and show */
	bool nic_ambiguous;  /* candidates of two link types (nic-ambiguous) */
	int fabric_port;
	const nvme_desc **nvmes; /* every drive of the engine, tier by tier */
	int nnvmes;
	tier_plan tiers[MODEL_MAX_TIERS];
	int ntiers; /* 0 without drives */
	const char *const *files; /* emulated NVMe (class file): no drives then */
	int nfiles;
	uint64_t scm_bytes; /* 0: not pinned, or PMem */
	const char *scm_class;  /* "ram" or "dcpm", as daos_server.yml writes it */
	const char *scm_device; /* dcpm: /dev/pmemN */
	const char *scm_mount;
	const char *log_mask, *log_file;
	env_list env;
} engine_plan;

struct node_plan {
	const node_spec *spec;
	const topology *topo;
	int os_first[MODEL_MAX_NUMA], os_count[MODEL_MAX_NUMA];
	engine_plan *engines;
	int nengines;
	/* No engine declared: a client-only node (daos_agent.yml and what
	 * clients need, nothing of daos_server). Its fabric NICs, in NUMA node
	 * order, are what the agent's fabric_ifaces lists. */
	bool client;
	const nic_desc **client_nics;
	int nclient_nics;
	bool pinned_mode;
	uint64_t hugepage_size, hugepage_bytes;
	int64_t nr_hugepages;
	bool ok; /* no placement error: the plan can be rendered */
	/* The node OS plans (node_os.h), made on first use: every node of a spec
	 * shares them, so 16,384 nodes cost one plan, not 16,384. */
	bool os_planned;
	struct kernel_plan *kernel;
	struct kubelet_plan *kubelet;
	bool kube_planned;
	struct kube_plan *kube; /* deploy kubernetes: the daos-server pod's figures */
	int kube_server, kube_agent; /* its DaemonSet groups + 1 (targets/kubernetes.c) */
	int kube_client;             /* its client template's group + 1 (the same) */
};

/* The node's fabric NICs as its agent (and its client pods) use them: the
 * engines' on a server, the placed client NICs on a client-only node; in
 * NUMA node order either way. */
static inline int place_fabric_nic_count(const node_plan *p)
{
	return p->client ? p->nclient_nics : p->nengines;
}

static inline const nic_desc *place_fabric_nic(const node_plan *p, int i)
{
	return p->client ? p->client_nics[i] : p->engines[i].nic;
}

/* The agent's fabric_ifaces names each NIC's domain, its RDMA (verbs,
 * UCX), cxi (Slingshot) or hfi1 (Omni-Path) device, under its NUMA node;
 * without all of them daos_agent.yml has none and the agent scans the
 * fabric itself. */
static inline bool place_nic_numa_known(const node_plan *p, const nic_desc *n)
{
	return n->numa >= 0 && n->numa < p->topo->nnuma;
}

static inline bool place_fabric_domains_known(const node_plan *p)
{
	for (int i = 0; i < place_fabric_nic_count(p); i++) {
		const nic_desc *n = place_fabric_nic(p, i);
		/* a NIC of no known NUMA node could be listed under none */
		if (!n || !n->rdma || !place_nic_numa_known(p, n))
			return false;
	}
	return place_fabric_nic_count(p) > 0;
}

#endif
