/* kube.h - DAOS in pods (deploy kubernetes): the figures of a spec's
 * daos-server pod, planned from the placement, and the rules of the
 * Kubernetes model. Facts: ../shared/facts/kubernetes.md. */
#ifndef DSLC_KUBE_H
#define DSLC_KUBE_H

#include "place.h"

typedef struct kube_plan {
	uint64_t scm;           /* sum of the engines' scm_size */
	uint64_t overhead;      /* memory_overhead: the processes' memory besides SCM */
	uint64_t memory;        /* the pod's memory request = limit */
	uint64_t hugepage_size; /* bytes per page */
	int64_t hugepages;      /* pages: request = limit = reserved at boot */
	const char *hugepage_resource; /* hugepages-2Mi */
	const char *hugepage_medium;   /* HugePages-2Mi */
	const char *kernel_pagesize;   /* 2M, the hugepagesz= word */
	int nvmes;              /* VFIO devices: one per drive (IOMMU group) */
} kube_plan;

/* NULL unless the spec's engines run in pods and its placement succeeded;
 * made once per spec. */
const kube_plan *kube_plan_of(const model *m, const node_spec *s);
/* Default resource names and settings, shared by the targets and SPEC.md. */
const char *kube_namespace(const model *m);
const char *kube_rdma_resource(const model *m);
const char *kube_nvme_resource(const model *m);
/* The rules of the Kubernetes model: once for the cluster, once per spec. */

#endif
