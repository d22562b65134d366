/* topology.h - what placement needs to know about a node type's CPUs and
 * memory, however it was learned (a hand description here; an lstopo XML
 * export later). Cores are indexed by their hwloc logical index: the order
 * DAOS's first_core counts in. PUs are Linux CPU numbers: the numbers kubelet
 * and the kernel command line use. */
#ifndef DSLC_TOPOLOGY_H
#define DSLC_TOPOLOGY_H

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

typedef struct topology {
	int ncores;
	topo_core *cores;
	int nnuma;
	topo_numa *numa;
	int nsockets;
	uint64_t hugepage_size;
} topology;

typedef enum topo_numbering { TOPO_LINEAR, TOPO_INTERLEAVED } topo_numbering;

/* Builds the regular topology of a hand description:
 * LINEAR: first threads of all cores are CPUs 0..C-1 in socket order, the
 * k-th sibling of core c is CPU c + k*C (the common x86 layout).
 * INTERLEAVED: sockets alternate: core j of socket s is CPU j*S + s
 * (siblings again at + k*C). */
topology *topo_regular(arena *a, int sockets, int cores_per_socket, int threads,
		       int numa_per_socket, topo_numbering numbering);

/* Formats a set of CPU numbers as a kernel cpulist ("0-3,96-99"). */
char *topo_cpulist(arena *a, const int *cpus, int n);

#endif
