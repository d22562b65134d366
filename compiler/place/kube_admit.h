/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_admit.h - what the kubelet's topology manager does with a training
 * pod (the client template's asks) on an empty node of a spec: the hints
 * of the CPU manager, the memory manager and the device manager, and their
 * merge under a topologyManagerPolicy, as Kubernetes 1.30-1.34 decide them
 * (pkg/kubelet/cm/topologymanager/policy.go). The lint (k8s-client-topology),
 * the kubelet plan's default policy and the build summary read it. */
#ifndef DSLC_KUBE_ADMIT_H
#define DSLC_KUBE_ADMIT_H

#include "place.h"

/* What the kubelet was told, as node_os.c planned it. */
typedef struct kube_managers {
	const char *reserved_cpus;       /* reservedSystemCPUs, a cpulist */
	const char *cpu_manager;         /* none, static */
	const char *memory_manager;      /* none, static */
	const uint64_t *numa_reserved;   /* reservedMemory per NUMA node (logical), bytes */
	uint64_t boot_2m_pages;          /* hugepagesz=2M hugepages=N on the kernel command line */
} kube_managers;

typedef struct kube_admission {
	bool admitted;       /* under the policy asked about */
	bool aligned;        /* some NUMA mask every provider prefers (restricted admits) */
	bool asks;           /* the pod asks a provider for anything with a NUMA preference */
	uint64_t mask;       /* the merged hint's NUMA nodes (logical); 0 when none or undecided */
	uint64_t gpu_mask;   /* the narrowest NUMA nodes that hold its GPUs (0: no GPU hint) */
	bool guaranteed;     /* the pod is Guaranteed (its CPUs and memory are pinned) */
} kube_admission;

/* The training pod's admission on spec s's nodes under topologyManagerPolicy
 * `policy` (none, best-effort, restricted, single-numa-node), with the
 * managers k (node_kubelet_admit in node_os.h fills them from the plan). */
kube_admission kube_admit(const model *m, const node_spec *s, const kube_managers *k, const char *policy);
/* "0-1", "0,2": a NUMA mask for a message, in the arena. */
const char *kube_numa_list(arena *ar, uint64_t mask);

#endif
