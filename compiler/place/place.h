/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* place.h - placement: the per-node plan the targets render.
 *
 * Placement decides everything a target writes: which physical cores each
 * engine runs on, how DAOS is told (pinned_numa_node when the engine starts at
 * its NUMA node's first core, otherwise an absolute first_core), its NIC,
 * port, drives, SCM size, hugepages and environment. One plan per node_spec:
 * nodes without overrides share it. */
#ifndef DSLC_PLACE_H
#define DSLC_PLACE_H

#include "node_plan.h"

/* The engine has the MD-on-SSD meta role (its drives hold metadata). */
bool place_has_meta(const engine_plan *ep);
/* With `lossless` and a UCX provider: UCX_IB_TRAFFIC_CLASS for engines and
 * clients, the RoCE traffic class (DSCP x 4) UCX marks its RDMA traffic with
 * (UCX's ib_iface.c reads it per interface); NULL otherwise (verbs and other
 * RDMA-CM providers take the NIC's default RoCE ToS, set by the lossless
 * script). */
const char *place_ucx_traffic_class(const model *m);
/* A tier has that role ("wal", "meta", "data"). */
bool place_tier_has(const tier_spec *t, const char *role);
/* The most targets an engine can have within `cores` cores and the release's
 * cap of network contexts (2 + targets + min(helpers, targets)): with the
 * helpers written (helpers >= 0), or DAOS's default of a quarter of the
 * targets (helpers < 0). 0 when not even one fits. */
int place_targets_fit(int helpers, int cores, int ctx_cap);
/* The RAM SCM size dslc proposes for an engine on NUMA node numa, in GiB: an
 * eighth of what its memory keeps after `hugepages` bytes and the node's
 * reserved share, rounded down to a power of two (at least 4, DAOS's
 * minimum). 0 when the NUMA node's memory is unknown or too small. */
uint64_t place_scm_proposal_gib(const model *m, const node_plan *p, int numa, uint64_t hugepages);

/* Sets the diagnostics context to a node override's origin (or clears it). */
void place_context(model *m, const node_spec *s);

/* Places every spec of the model; findings go to the model's diagnostics. */
void place_model(model *m);

/* Hugepage bytes DAOS requests on a NUMA node: spread over the engines' nodes
 * in pinned mode, all on node 0 in first_core (legacy) mode; 1 GiB pages,
 * reserved at boot, as the kernel spreads them over every NUMA node. */
uint64_t place_hugepages_on(const node_plan *p, int numa);
/* system_ram_reserved in bytes (the release's default when not given), and
 * a NUMA node's share of it. */
uint64_t place_reserved_bytes(const model *m);

/* The memory a plan needs on a NUMA node when its engines' memory is bound
 * there (pinned mode): the SCM of its engines, its hugepages, its share of
 * system_ram_reserved and DAOS's reserve per engine (CalcRamdiskSize);
 * total saturates at UINT64_MAX. engine: the last engine on it, or NULL. */
typedef struct numa_need {
	uint64_t scm, hugepages, reserved, engine_reserve, total;
	const struct engine_plan *engine;
} numa_need;
numa_need place_numa_need(const model *m, const node_plan *p, int numa);

/* DAOS's own limit on each engine's RAM SCM for the plan on a machine with
 * `total` bytes of memory (CalcRamdiskSize: the memory shared equally,
 * whatever the NUMA nodes hold) in *max, its formula in words in formula;
 * the first engine whose scm_size is over it, NULL when none is (or the
 * memory is unknown). */
const struct engine_plan *place_ramdisk_over(const model *m, const node_plan *p, uint64_t total, uint64_t *max,
					      char *formula, size_t size);

/* Linux CPUs (all SMT siblings) as a cpulist: of the OS cores, and of the
 * OS and every engine's cores (what the kubelet must keep for itself). */
const char *place_os_cpus(arena *a, const node_plan *p);
const char *place_reserved_cpus(arena *a, const node_plan *p);
/* Every Linux CPU of the placed engines' cores, SMT siblings included. */
const char *place_engine_cpus(arena *a, const node_plan *p);
/* Whether a core (an index of topo->cores) is an OS or an engine core. */
bool place_core_reserved(const node_plan *p, int core);
/* The core is one of a placed engine's. */
bool place_core_engine(const node_plan *p, int core);
/* The Linux CPUs of one core, as a cpulist. */
const char *place_core_cpus(arena *a, const topology *t, int core);

/* Linux CPU numbers of the cores [first, first + n) (all SMT siblings). */
int place_cpus(const topology *t, int first, int n, int *out);

#endif
