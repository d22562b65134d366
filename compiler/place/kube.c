/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube.c - see kube.h. */
#include "kube.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "compiler/model/daos.h"

/* Margin over nr_hugepages, in 2 MiB pages: daos_server's prepare adds 2
 * pages per engine, and the helper's NVMe scan wants at least
 * ScanMinHugepageCount (128, src/control/server/config/server.go). */
enum { KUBE_HUGEPAGE_MARGIN_PER_ENGINE = 2, KUBE_HUGEPAGE_SCAN_MIN = 128 };


const char *kube_namespace(const model *m)
{
	return m->cluster.kube.ns.set ? m->cluster.kube.ns.v : "daos";
}

const char *kube_rdma_resource(const model *m)
{
	return m->cluster.kube.rdma_resource.set ? m->cluster.kube.rdma_resource.v : "rdma/daos";
}

const char *kube_rdma_plugin_image(const model *m)
{
	const opt_str *o = &m->cluster.kube.rdma_plugin_image;
	return o->set ? o->v : "ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3";
}

const char *kube_vfio_plugin_image(const model *m)
{
	const opt_str *o = &m->cluster.kube.vfio_plugin_image;
	return o->set ? o->v : "docker.io/squat/generic-device-plugin:0.1.0";
}

const char *kube_nvme_resource(const model *m)
{
	return m->cluster.kube.nvme_resource.set ? m->cluster.kube.nvme_resource.v : "squat.ai/daos-nvme";
}

static kube_plan *plan(const model *m, const node_plan *p)
{
	const kube_spec *ks = &m->cluster.kube;
	kube_plan *k = arena_alloc(m->ar, sizeof(*k));
	for (int i = 0; i < p->nengines; i++) {
		k->scm += p->engines[i].scm_bytes;
		k->nvmes += p->engines[i].nnvmes;
		/* DAOS's own memory beside the RAM disk (daos.h): a full
		 * RAM disk and a working engine must both fit the limit */
		k->engines_reserved += daos_engine_reserve(p->engines[i].targets);
	}
	k->overhead = ks->memory_overhead.set ? (uint64_t)ks->memory_overhead.v : 2 * GiB;
	k->need = k->scm + k->engines_reserved + k->overhead;
	k->memory = ks->server_memory.set ? (uint64_t)ks->server_memory.v : k->need;
	k->hugepage_size = p->hugepage_size ? p->hugepage_size : 2 * MiB;
	uint64_t margin = (uint64_t)(KUBE_HUGEPAGE_MARGIN_PER_ENGINE * p->nengines + KUBE_HUGEPAGE_SCAN_MIN) * 2 * MiB;
	k->hugepages = p->nr_hugepages + (int64_t)((margin + k->hugepage_size - 1) / k->hugepage_size);
	bool gib = k->hugepage_size == GiB;
	/* a training pod's hugepages-2Mi come from the same boot reservation:
	 * the node reserves both, or the pod stays Pending ("Insufficient
	 * hugepages-2Mi"); with 1 GiB pages for DAOS the command line would
	 * need a second size (kube_lint.c reports it) */
	k->client_hugepages = ks->client_hugepages.set && !gib ? ks->client_hugepages.v / (int64_t)(2 * MiB) : 0;
	k->boot_hugepages = k->hugepages + k->client_hugepages;
	k->hugepage_resource = gib ? "hugepages-1Gi" : "hugepages-2Mi";
	k->hugepage_medium = gib ? "HugePages-1Gi" : "HugePages-2Mi";
	k->kernel_pagesize = gib ? "1G" : "2M";
	return k;
}

bool kube_in_pods(const node_spec *s)
{
	return s->plan && s->plan->ok && spec_in_pods(s);
}

uint64_t kube_pages_on_numa(uint64_t pages, int nnuma, int numa)
{
	/* hugepages=N at boot: the kernel spreads the pages round-robin over
	 * the NUMA nodes with memory, the first ones getting one more when N
	 * does not divide (mm/hugetlb.c, hugetlb_hstate_alloc_pages) */
	uint64_t nn = nnuma > 0 ? (uint64_t)nnuma : 1;
	return pages / nn + ((uint64_t)numa < pages % nn ? 1 : 0);
}

uint64_t kube_boot_hugepages_on(const kube_plan *kp, int nnuma, int numa)
{
	return kube_pages_on_numa((uint64_t)kp->boot_hugepages, nnuma, numa) * kp->hugepage_size;
}

const kube_plan *kube_plan_of(const model *m, const node_spec *s)
{
	node_plan *p = s->plan;
	if (!p || !spec_in_pods(s) || p->client) /* a client-only node has no daos-server pod */
		return NULL;
	if (!p->kube_planned) {
		p->kube_planned = true;
		p->kube = p->ok ? plan(m, p) : NULL;
	}
	return p->kube;
}

int kube_fabric_nics(const model *m)
{
	int most = 0;
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_plan *p = m->specs[i]->plan;
		if (kube_in_pods(m->specs[i]) && place_fabric_nic_count(p) > most)
			most = place_fabric_nic_count(p);
	}
	return most;
}

const char *kube_rdma_last_name(const model *m)
{
	int nics = kube_fabric_nics(m);
	if (m->cluster.kube.rdma_shared.set || !nics)
		return NULL;
	return arena_printf(m->ar, "%s_e%d", strchr(kube_rdma_resource(m), '/') + 1, nics - 1);
}

const char *kube_client_hugepages_why(const kube_spec *ks)
{
	if (!ks->client_hugepages.set)
		return NULL;
	if (ks->client_hugepages.v % (int64_t)(2 * MiB))
		return "client_hugepages is not a whole number of 2 MiB pages";
	if (!ks->client_memory.set && !ks->client_cpus.set)
		return "client_hugepages without client_memory: the API server refuses huge pages without a cpu or memory "
		       "request (\"HugePages require cpu or memory\")";
	return NULL;
}

/* ---- rules ---------------------------------------------------------------- */

