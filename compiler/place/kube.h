/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube.h - DAOS in pods (deploy kubernetes): the figures of a spec's
 * daos-server pod, planned from the placement, and the rules of the
 * Kubernetes model. Facts: ../shared/facts/kubernetes.md. */
#ifndef DSLC_KUBE_H
#define DSLC_KUBE_H

#include "place.h"

/* The node labels that select a node's daos-server and daos-agent groups
 * (targets/kubernetes.c writes them, plan/pods.c reads them back) */
#define KUBE_LABEL_SERVER "dslc.io/daos-server"
#define KUBE_LABEL_AGENT "dslc.io/daos-agent"
/* the client templates' group: the node's RDMA resources (kube_client.c) */
#define KUBE_LABEL_CLIENT "dslc.io/daos-client"

typedef struct kube_plan {
	uint64_t scm;           /* sum of the engines' scm_size */
	uint64_t engines_reserved; /* DAOS's own per-engine memory (daos_engine_reserve) */
	uint64_t overhead;      /* memory_overhead: daos_server's and the helper's memory */
	uint64_t need;          /* scm + engines_reserved + overhead: the least limit that holds */
	uint64_t memory;        /* the pod's memory request = limit */
	uint64_t hugepage_size; /* bytes per page */
	int64_t hugepages;      /* pages: the daos-server pod's request = limit */
	int64_t client_hugepages; /* 2 MiB pages of one training pod (client_hugepages) */
	int64_t boot_hugepages; /* reserved at boot: both */
	const char *hugepage_resource; /* hugepages-2Mi */
	const char *hugepage_medium;   /* HugePages-2Mi */
	const char *kernel_pagesize;   /* 2M, the hugepagesz= word */
	int nvmes;              /* VFIO devices: one per drive (IOMMU group) */
} kube_plan;

/* The pages of a boot reservation of `pages` on NUMA node `numa` of
 * `nnuma` (the kernel's round-robin). */
uint64_t kube_pages_on_numa(uint64_t pages, int nnuma, int numa);
/* The bytes of the boot reservation (kp->boot_hugepages) on NUMA node
 * `numa` of `nnuma`. */
uint64_t kube_boot_hugepages_on(const kube_plan *kp, int nnuma, int numa);
/* The spec's nodes run DAOS in pods (servers, or a client-only node's
 * agent) and its placement succeeded: what every Kubernetes object is made
 * from. */
bool kube_in_pods(const node_spec *s);
/* NULL unless the spec's engines run in pods and its placement succeeded;
 * made once per spec. */
const kube_plan *kube_plan_of(const model *m, const node_spec *s);
/* Default resource names and settings, shared by the targets and SPEC.md. */
const char *kube_namespace(const model *m);
const char *kube_rdma_resource(const model *m);
const char *kube_nvme_resource(const model *m);
/* dslc's device plugins' images (targets/kube_plugins.c): the setting, or
 * the upstream release, named by its tag (k8s-image-tag). */
const char *kube_rdma_plugin_image(const model *m);
const char *kube_vfio_plugin_image(const model *m);
/* The most fabric NICs a node in pods has (placed): its RDMA resources are
 * <rdma_resource>_e0 .. _e<n-1>, and the plugin configuration has n. */
int kube_fabric_nics(const model *m);
/* The name part of the last per-NIC RDMA resource (<name>_e<n-1>), in the
 * arena; NULL with `shared` or without a fabric NIC. The API server allows
 * 63 characters: the lint rule and the target both ask here. */
const char *kube_rdma_last_name(const model *m);
/* Why the API server would refuse the client template's huge pages
 * ("HugePages require cpu or memory", or not whole 2 MiB pages), or NULL. */
const char *kube_client_hugepages_why(const kube_spec *ks);

#endif
