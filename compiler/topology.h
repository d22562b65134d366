/* topology.h - what placement needs to know about a node type's CPUs and
 * memory, however it was learned (a hand description here; an lstopo XML
 * export later). Cores are indexed by their hwloc logical index: the order
 * DAOS's first_core counts in. PUs are Linux CPU numbers: the numbers kubelet
 * and the kernel command line use. */
#ifndef DSLC_TOPOLOGY_H
#define DSLC_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"

enum { TOPO_MAX_SMT = 8 };

typedef struct topo_core {
	int numa;   /* logical index of its NUMA node */
	int socket;
	int npus;
	int pus[TOPO_MAX_SMT]; /* Linux CPU numbers, first thread first */
} topo_core;

typedef struct topo_numa {
	int os_index;
	int first_core; /* logical index of its first core; cores are contiguous */
	int ncores;
	uint64_t memory; /* bytes, 0 when unknown */
} topo_numa;

typedef enum topo_dev_kind { TOPO_NIC, TOPO_NVME, TOPO_VMD } topo_dev_kind;

enum { TOPO_NUMA_UNKNOWN = -1, TOPO_NUMA_SEVERAL = -2 };

/* A PCI device an engine may use, as an lstopo export describes it. */
typedef struct topo_device {
	topo_dev_kind kind;
	char pci[16];           /* dddd:bb:dd.f */
	const char *net;        /* network interface, e.g. ens1f0np0 (NICs) */
	const char *rdma;       /* RDMA device on the same function, e.g. mlx5_0 */
	const char *block;      /* block device, NULL when bound to vfio/SPDK */
	const char *link;       /* ethernet, infiniband, ... (NICs) */
	bool fabric;            /* a storage-fabric NIC: RDMA device, IB/OPA class or Slingshot */
	int numa;               /* logical NUMA index, TOPO_NUMA_UNKNOWN or _SEVERAL */
	uint64_t numa_mask;     /* every NUMA node (logical index) it is local to */
} topo_device;

typedef struct topology {
	int ncores;
	topo_core *cores;
	int nnuma;
	topo_numa *numa;
	int nsockets;
	uint64_t hugepage_size;
	topo_device *devices; /* from an XML export; none for a hand description */
	int ndevices;
	int numa_os_mismatch; /* first NUMA node whose os index differs from its logical index, or -1 */
} topology;

typedef enum topo_numbering { TOPO_LINEAR, TOPO_INTERLEAVED } topo_numbering;

/* Builds the regular topology of a hand description:
 * LINEAR: first threads of all cores are CPUs 0..C-1 in socket order, the
 * k-th sibling of core c is CPU c + k*C (the common x86 layout).
 * INTERLEAVED: sockets alternate: core j of socket s is CPU j*S + s
 * (siblings again at + k*C). */
topology *topo_regular(arena *a, int sockets, int cores_per_socket, int threads,
		       int numa_per_socket, topo_numbering numbering);

/* Loads an lstopo XML export (hwloc v1 or v2 format) with its I/O devices.
 * Never falls back to the machine dslc runs on. NULL with *why on failure. */
/* regular_only: a path named inside a description, where a FIFO or device is
 * refused before it is read (the command line's --topology may be a pipe). */
topology *topo_load_xml(arena *a, const char *path, bool regular_only, const char **why);
const topo_device *topo_find_device(const topology *t, const char *pci);

/* Formats a set of CPU numbers as a kernel cpulist ("0-3,96-99"). */
char *topo_cpulist(arena *a, const int *cpus, int n);

#endif
