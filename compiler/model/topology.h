/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* topology.h - what placement needs to know about a node type's CPUs and
 * memory, however it was learned (a hand description here; an lstopo XML
 * export later). Cores are indexed by their hwloc logical index: the order
 * DAOS's first_core counts in. PUs are Linux CPU numbers: the numbers kubelet
 * and the kernel command line use. */
#ifndef DSLC_TOPOLOGY_H
#define DSLC_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/base/arena.h"

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
	int gpus;        /* NVIDIA GPUs local to it (PCI 10de, display class), from an export */
} topo_numa;

typedef enum topo_dev_kind { TOPO_NIC, TOPO_NVME, TOPO_VMD } topo_dev_kind;

enum { TOPO_NUMA_UNKNOWN = -1, TOPO_NUMA_SEVERAL = -2 };

/* Link types of a network interface, as the cluster's `fabric` names them. */
#define TOPO_LINK_ETHERNET "ethernet"
#define TOPO_LINK_INFINIBAND "infiniband"
#define TOPO_LINK_OMNIPATH "omnipath"
#define TOPO_LINK_SLINGSHOT "slingshot"

/* A PCI device an engine may use, as an lstopo export describes it. A NIC
 * function with several network interfaces (an mlx4 card's eth2 and ib0)
 * is one entry per interface, each with its own link type and the
 * function's RDMA device. */
typedef struct topo_device {
	topo_dev_kind kind;
	char pci[16];           /* dddd:bb:dd.f */
	const char *net;        /* network interface, e.g. ens1f0np0 (NICs) */
	const char *rdma;       /* RDMA device on the same function, e.g. mlx5_0 */
	const char *block;      /* block device, NULL when bound to vfio/SPDK */
	const char *link;       /* NICs: a TOPO_LINK_* name, or "network" when unknown */
	bool fabric;            /* a storage-fabric NIC: RDMA device, IB/OPA class or Slingshot */
	bool rdma_unknown;      /* a hand-described NIC: a NULL rdma says nothing */
	uint16_t vendor, device_id; /* PCI IDs from the export, 0 when described by hand */
	int numa;               /* logical NUMA index, TOPO_NUMA_UNKNOWN or _SEVERAL */
	uint64_t numa_mask;     /* every NUMA node (logical index) it is local to */
} topo_device;

/* A PMem namespace's block device (pmem0), as hwloc exports it: an OS
 * device of type block with subtype NVDIMM (hwloc 2.4) or NVM (later),
 * local to its parent's NUMA node. */
typedef struct topo_pmem {
	const char *name;
	int numa; /* logical NUMA index, or TOPO_NUMA_UNKNOWN / _SEVERAL */
} topo_pmem;

typedef struct topology {
	int ncores;
	topo_core *cores;
	int nnuma;
	topo_numa *numa;
	int nsockets;
	uint64_t hugepage_size;
	topo_device *devices; /* from an XML export; none for a hand description */
	int ndevices;
	topo_pmem *pmems; /* the same */
	int npmems;
	bool has_gpus;    /* the export lists an NVIDIA GPU: gpus is a count, not unknown */
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
/* The same from XML text already in memory: xml[len] must be '\0' (hwloc
 * is given len + 1 bytes). The fuzz target's way in. */
topology *topo_parse_xml(arena *a, const char *xml, size_t len, const char **why);
/* The machine dslc runs on, as `lstopo --of xml` exports it (I/O devices
 * kept as the build keeps them): the text topo_parse_xml reads, so a live
 * machine and an export are read alike. NULL with *why. */
char *topo_export_live(arena *a, size_t *len, const char **why);
/* The device at pci; a drive behind VMD named by its backing address is
 * found as its endpoint (topo_vmd_endpoint). */
const topo_device *topo_find_device(const topology *t, const char *pci);
/* The machine's memory: every NUMA node's, bytes (0 when none is known). */
uint64_t topo_total_memory(const topology *t);
/* The VMD endpoint a backing address sits behind: 7c0005:01:00.0 is behind
 * 0000:7c:00.5. False when pci is not a backing address. */
bool topo_vmd_endpoint(const char *pci, char endpoint[16]);
/* The interface `name` of the NIC function at pci; NULL when it has none
 * by that name (or no such function). */
const topo_device *topo_find_nic(const topology *t, const char *pci, const char *name);
/* The network interface named iface, whatever its PCI function; NULL when
 * the export has none (or t is NULL). */
const topo_device *topo_find_iface(const topology *t, const char *iface);
/* The network interfaces of the NIC function at pci (at most max). */
size_t topo_nic_interfaces(const topology *t, const char *pci, const char **out, size_t max);
/* "eth2, ib0": the same, for a message. */
char *topo_nic_names(arena *a, const topology *t, const char *pci);

/* Formats a set of CPU numbers as a kernel cpulist ("0-3,96-99"). */
char *topo_cpulist(arena *a, const int *cpus, int n);
/* Whether a kernel cpulist ("0-23,96-119") holds CPU cpu. */
bool topo_cpulist_has(const char *list, int cpu);

#endif
