/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* node_os.h - what a node's OS gets: the kernel command line and the
 * kubelet's CPU and memory reservations, planned from the placement. */
#ifndef DSLC_NODE_OS_H
#define DSLC_NODE_OS_H

#include "kube_admit.h"
#include "place.h"

/* How an OS takes a kernel command line (SPEC.md section 8, the table of os values):
^ * a grub.d drop-in its /etc/default/grub sources (Debian, Ubuntu, Azure
 * Linux 3); grubby on the BLS entries (RHEL, Rocky, Alma); a script that
 * edits /etc/default/grub and regenerates grub.cfg (SLES). */
typedef enum grub_family { GRUB_NONE, GRUB_DROPIN, GRUB_GRUBBY, GRUB_SCRIPT } grub_family;
/* Where the grubby and SLES families' script goes, below the node's root
 * (targets/kernel.c writes it; the inventory's boot command runs it). */
#define NODE_KERNEL_SCRIPT "usr/local/sbin/dslc-kernel-cmdline"

typedef struct kernel_plan {
	grub_family family;
	env_list params; /* name, value ("" for a bare flag), where it came from */
} kernel_plan;

typedef struct kubelet_plan {
	const char *reserved_cpus; /* cpulist */
	const char *cpu_manager, *topology, *memory_manager;
	int minor;                 /* Kubernetes 1.<minor> */
	bool strict, alpha_gate;   /* strict-cpu-reservation, and its 1.32 feature gate */
	uint64_t system_reserved, kube_reserved, eviction; /* bytes; system includes DAOS */
	uint64_t numa_reserved[MODEL_MAX_NUMA];            /* reservedMemory per NUMA node */
	int nnuma;
} kubelet_plan;

/* The command that makes the boot configuration take the installed kernel
 * file (SPEC.md section 8's table): update-grub, grub2-mkconfig, or the
 * dslc-kernel-cmdline script; NULL without a kernel file. */
const char *node_grub_command(const model *m, const node_spec *s);
/* Both return NULL when the spec has nothing of that kind to emit. */
kernel_plan *node_kernel_plan(const model *m, const node_spec *s);
kubelet_plan *node_kubelet_plan(const model *m, const node_spec *s);
/* The training pod's admission on the spec's nodes under `policy` (NULL:
 * the planned topologyManagerPolicy); admitted when no kubelet is planned. */
kube_admission node_kubelet_admit(const model *m, const node_spec *s, const char *policy);
/* Of the spec's reservedMemory on NUMA node numa, DAOS's: SCM, and in pods
 * with the static memory manager the daos-server pod's memory. */
uint64_t node_kubelet_daos_memory(const model *m, const node_spec *s, int numa);
/* The Kubernetes minor version of the spec's kubelet: declared, or the OS's
 * own (1.30 on Azure Linux 3, else 1.33); -1 when the declaration is not
 * 1.<minor>. */
int node_kubelet_minor(const node_spec *s);
/* Why the training pods cannot claim their GPUs through DRA as written
 * (client_gpu_class): NULL when they can, or without client_gpu_class.
 * *at is the spec whose kubelet is too old, else NULL (the kubernetes
 * block's settings are at fault). Asked by the lint rule and the target
 * alike, so --disable k8s-dra-unsupported writes nothing either. */
const char *node_dra_why(const model *m, const node_spec **at);
/* Some engine of the plan has NVMe drives (VFIO, iommu=pt). */
bool node_has_nvme(const node_plan *p);
/* daos_server tests transparent hugepages at start (2.6.5 and later). */
bool node_thp_checked(const model *m);
/* The releases that test it, for a message: "2.6.5 and later", "2.8". */
const char *node_thp_releases(const model *m);

#endif
