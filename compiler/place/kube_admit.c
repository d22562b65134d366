/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_admit.c - the kubelet's topology-manager admission of a training pod
 * on an empty node, decided as Kubernetes 1.30-1.34 decide it:
 *
 *   hints      cpumanager/policy_static.go generateCPUTopologyHints,
 *              memorymanager/policy_static.go calculateHints,
 *              devicemanager/topology_hints.go generateDeviceTopologyHints:
 *              every NUMA mask that can hold the request is a hint; a hint
 *              is preferred when its mask is as narrow as the narrowest mask
 *              of the *machine* (not the free resources) that could hold it;
 *   merge      topologymanager/policy.go mergePermutation: a permutation is
 *              preferred only when every hint in it is preferred and every
 *              non-nil mask is the same one;
 *   policies   policy_restricted.go and policy_single_numa_node.go admit only
 *              a preferred best hint (the latter after keeping single-NUMA
 *              hints, filterSingleNumaHints); best-effort and none admit all.
 *
 * So restricted admits exactly when one mask is preferred by every provider
 * that has a preference: an 8-GPU pod on 4 GPUs per socket (GPUs prefer
 * {0,1}) whose 32 CPUs fit one socket (CPUs prefer {0} and {1}) is refused
 * with TopologyAffinityError. tests/validate/kubelet_admit.py holds this
 * against a model written from the same sources, permutation by permutation.
 * The pod has one container: pod and container scope see the same asks. */
#include "kube_admit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "kube.h"

/* The kubelet refuses a topology policy on more NUMA nodes than this
 * (topologymanager/topology_manager.go, defaultMaxAllowableNUMANodes). */
enum { ADMIT_MAX_NUMA = 8, ADMIT_MAX_LISTS = 8, ADMIT_MAX_HINTS = 255 };

typedef struct hint_list {
	int n;
	uint64_t mask[ADMIT_MAX_HINTS]; /* 0: no affinity (nil) */
	bool pref[ADMIT_MAX_HINTS];
} hint_list;

typedef struct admit_ctx {
	int nnuma;
	uint64_t order[ADMIT_MAX_HINTS]; /* bitmask.IterateBitMasks: by size, then lexicographic */
	int norder;
	hint_list lists[ADMIT_MAX_LISTS];
	int nlists;
	int gpu_list; /* index of nvidia.com/gpu's list, -1 */
} admit_ctx;

static int popcount(uint64_t v)
{
	int c = 0;
	for (; v; v &= v - 1)
		c++;
	return c;
}

static void combos(admit_ctx *c, int from, int left, uint64_t accum)
{
	if (!left) {
		c->order[c->norder++] = accum;
		return;
	}
	for (int i = from; i < c->nnuma; i++)
		combos(c, i + 1, left - 1, accum | (uint64_t)1 << i);
}

static hint_list *new_list(admit_ctx *c)
{
	hint_list *l = &c->lists[c->nlists++];
	l->n = 0;
	return l;
}

/* A provider with no preference for the resource: {nil, true}
 * (policy.go filterProvidersHints). */
static void no_preference(admit_ctx *c)
{
	hint_list *l = new_list(c);
	l->mask[0] = 0;
	l->pref[0] = true;
	l->n = 1;
}

/* The common shape of the three generators: total[n] is what the machine
 * has on NUMA node n (it sets the narrowest size), avail[n] what is free;
 * want is the request. A mask is a hint when its free share holds want,
 * preferred when its size is the machine's narrowest. No hint at all is
 * {nil, false} ("no possible NUMA affinities") from the CPU and device
 * managers; the memory manager returns an empty map then, which the merge
 * reads as no preference (`open`; its Allocate refuses the pod later). */
static void hints_of(admit_ctx *c, const uint64_t *total, const uint64_t *avail, int nres, const uint64_t *want, bool open)
{
	int min_size = c->nnuma;
	uint64_t fit[ADMIT_MAX_HINTS];
	int nfit = 0;
	for (int i = 0; i < c->norder; i++) {
		uint64_t mk = c->order[i];
		bool holds = true, free_holds = true;
		for (int r = 0; r < nres; r++) {
			uint64_t t = 0, a = 0;
			for (int n = 0; n < c->nnuma; n++)
				if (mk >> n & 1) {
					t += total[r * ADMIT_MAX_NUMA + n];
					a += avail[r * ADMIT_MAX_NUMA + n];
				}
			holds &= t >= want[r];
			free_holds &= a >= want[r];
		}
		if (holds && popcount(mk) < min_size)
			min_size = popcount(mk);
		if (free_holds)
			fit[nfit++] = mk;
	}
	if (!nfit && open) {
		no_preference(c);
		return;
	}
	for (int r = 0; r < nres; r++) {
		hint_list *l = new_list(c);
		for (int i = 0; i < nfit; i++) {
			l->mask[l->n] = fit[i];
			l->pref[l->n++] = popcount(fit[i]) == min_size;
		}
		if (!l->n) {
			l->mask[0] = 0;
			l->pref[0] = false;
			l->n = 1;
		}
	}
}

/* The static CPU manager: a Guaranteed pod's integer CPUs, out of the CPUs
 * outside reservedSystemCPUs; the narrowest size counts every CPU. */
static void cpu_hints(admit_ctx *c, const topology *t, const kube_managers *k, int64_t cpus)
{
	uint64_t total[ADMIT_MAX_NUMA] = {0}, avail[ADMIT_MAX_NUMA] = {0}, want = (uint64_t)cpus;
	for (int i = 0; i < t->ncores; i++)
		for (int u = 0; u < t->cores[i].npus; u++)
			if (t->cores[i].numa >= 0 && t->cores[i].numa < c->nnuma) {
				total[t->cores[i].numa]++;
				avail[t->cores[i].numa] += !topo_cpulist_has(k->reserved_cpus, t->cores[i].pus[u]);
			}
	hints_of(c, total, avail, 1, &want, false);
}

/* The Static memory manager: a Guaranteed pod's memory and 2 MiB pages
 * together. A NUMA node's memory is its RAM less reservedMemory and the
 * huge pages on it (memorymanager/policy_static.go
 * initializeMachineState); one narrowest size serves both resources. */
static void memory_hints(admit_ctx *c, const node_spec *s, const kube_managers *k, const kube_spec *ks)
{
	const topology *t = s->plan->topo;
	uint64_t pages = k->boot_2m_pages, total[2 * ADMIT_MAX_NUMA] = {0}, want[2];
	int nres = ks->client_hugepages.set && ks->client_hugepages.v > 0 ? 2 : 1;
	want[0] = (uint64_t)ks->client_memory.v;
	want[1] = nres > 1 ? (uint64_t)ks->client_hugepages.v : 0;
	for (int n = 0; n < c->nnuma; n++) {
		if (!t->numa[n].memory) { /* unknown: no hint can be judged */
			no_preference(c);
			return;
		}
		uint64_t hp = kube_pages_on_numa(pages, c->nnuma, n) * 2 * MiB;
		uint64_t off = k->numa_reserved[n] + hp;
		total[n] = t->numa[n].memory > off ? t->numa[n].memory - off : 0;
		total[ADMIT_MAX_NUMA + n] = hp;
	}
	hints_of(c, total, total, nres, want, true);
}

/* A device plugin's resource whose devices report their NUMA node:
 * per_numa[n] devices on node n (a fresh node: all free). */
static int device_hints(admit_ctx *c, const uint64_t *per_numa, int64_t want)
{
	uint64_t w = (uint64_t)want;
	int at = c->nlists;
	hints_of(c, per_numa, per_numa, 1, &w, false);
	return at;
}

static void rdma_hints(admit_ctx *c, const model *m, const node_plan *p)
{
	const kube_spec *ks = &m->cluster.kube;
	int nics = place_fabric_nic_count(p);
	if (!ks->rdma_numa.set || !nics)
		return; /* the plugin reports no topology: the device manager has no preference */
	/* k8s-rdma-shared-dev-plugin advertises rdmaHcaMax (64, dslc's
	 * configuration) devices per resource, each with its NIC's NUMA node;
	 * the pod asks for one */
	uint64_t shared[ADMIT_MAX_NUMA] = {0};
	for (int i = 0; i < nics; i++) {
		const nic_desc *nic = place_fabric_nic(p, i);
		if (!nic || nic->numa < 0 || nic->numa >= c->nnuma)
			continue;
		if (ks->rdma_shared.set) {
			shared[nic->numa] = 64;
			continue;
		}
		uint64_t one[ADMIT_MAX_NUMA] = {0};
		one[nic->numa] = 64;
		if (c->nlists < ADMIT_MAX_LISTS)
			device_hints(c, one, 1);
	}
	if (ks->rdma_shared.set)
		device_hints(c, shared, 1);
}

static bool narrower(uint64_t a, uint64_t b)
{
	int ca = popcount(a), cb = popcount(b);
	return ca != cb ? ca < cb : a < b; /* bitmask.go IsNarrowerThan, IsLessThan */
}

/* The narrowest mask every list prefers (or leaves open with a preferred
 * nil), 0 when none: the preferred best hint, whatever the order. */
static uint64_t common_preferred(const admit_ctx *c, bool single)
{
	uint64_t best = 0, all = ((uint64_t)1 << c->nnuma) - 1;
	for (int i = 0; i <= c->norder; i++) {
		uint64_t mk = i < c->norder ? c->order[i] : all;
		if (single && popcount(mk) != 1 && mk != all)
			continue;
		bool ok = true;
		for (int l = 0; l < c->nlists && ok; l++) {
			bool here = false;
			for (int h = 0; h < c->lists[l].n && !here; h++)
				here = c->lists[l].pref[h] && (c->lists[l].mask[h] == 0 || c->lists[l].mask[h] == mk) &&
				       (!single || c->lists[l].mask[h] == 0 || popcount(c->lists[l].mask[h]) == 1);
			ok = here;
		}
		if (ok && (!best || narrower(mk, best)))
			best = mk;
	}
	return best;
}

/* No preferred merge: the kubelet keeps the narrowest merged mask whose size
 * is the largest of the providers' narrowest sizes (HintMerger.compare; that
 * class absorbs the search in any order). 0 when no merge has that size:
 * the choice then depends on the providers' order. */
static uint64_t best_unpreferred(const admit_ctx *c)
{
	int want = 0;
	for (int l = 0; l < c->nlists; l++) {
		int narrow = 0;
		for (int h = 0; h < c->lists[l].n; h++)
			if (c->lists[l].mask[h] && (!narrow || popcount(c->lists[l].mask[h]) < narrow))
				narrow = popcount(c->lists[l].mask[h]);
		want = narrow > want ? narrow : want;
	}
	/* every AND of one hint per list: reach[x] says x is a merge */
	static bool reach[2][1 << ADMIT_MAX_NUMA];
	uint64_t all = ((uint64_t)1 << c->nnuma) - 1;
	memset(reach, 0, sizeof(reach));
	reach[0][all] = true;
	for (int l = 0; l < c->nlists; l++) {
		bool *from = reach[l & 1], *to = reach[(l + 1) & 1];
		memset(to, 0, sizeof(reach[0]));
		for (uint64_t x = 0; x <= all; x++)
			for (int h = 0; from[x] && h < c->lists[l].n; h++)
				to[c->lists[l].mask[h] ? x & c->lists[l].mask[h] : x] = true;
	}
	uint64_t best = 0;
	for (uint64_t x = 1; x <= all; x++)
		if (reach[c->nlists & 1][x] && popcount(x) == want && (!best || narrower(x, best)))
			best = x;
	return best;
}

kube_admission kube_admit(const model *m, const node_spec *s, const kube_managers *k, const char *policy)
{
	kube_admission r = {.admitted = true};
	const kube_spec *ks = &m->cluster.kube;
	const node_plan *p = s->plan;
	if (!k || !p || !p->topo || p->topo->nnuma < 1 || p->topo->nnuma > ADMIT_MAX_NUMA)
		return r;
	static admit_ctx c; /* 4 KiB of hints per list: off the stack */
	memset(&c, 0, sizeof(c));
	c.nnuma = p->topo->nnuma;
	c.gpu_list = -1;
	for (int size = 1; size <= c.nnuma; size++)
		combos(&c, 0, size, 0);
	r.guaranteed = ks->client_cpus.set && ks->client_memory.set;
	if (strcmp(k->cpu_manager, "static") == 0 && r.guaranteed && ks->client_cpus.v > 0)
		cpu_hints(&c, p->topo, k, ks->client_cpus.v);
	/* GPUs claimed through DRA give no hint: the kubelet's DRA manager is
	 * no hint provider (pkg/kubelet/cm/container_manager_linux.go adds
	 * the device, CPU and memory managers only) */
	if (ks->client_gpus.set && ks->client_gpus.v > 0 && p->topo->has_gpus && !ks->client_gpu_class.set) {
		/* the NVIDIA device plugin reports each GPU's NUMA node */
		uint64_t gpus[ADMIT_MAX_NUMA] = {0};
		for (int n = 0; n < c.nnuma; n++)
			gpus[n] = (uint64_t)p->topo->numa[n].gpus;
		c.gpu_list = device_hints(&c, gpus, ks->client_gpus.v);
	}
	rdma_hints(&c, m, p);
	if (strcmp(k->memory_manager, "static") == 0 && r.guaranteed)
		memory_hints(&c, s, k, ks);
	r.asks = c.nlists > 0;
	if (c.gpu_list >= 0)
		for (int h = 0; h < c.lists[c.gpu_list].n; h++)
			if (c.lists[c.gpu_list].pref[h] && (!r.gpu_mask || narrower(c.lists[c.gpu_list].mask[h], r.gpu_mask)))
				r.gpu_mask = c.lists[c.gpu_list].mask[h];
	bool single = strcmp(policy, "single-numa-node") == 0;
	uint64_t pref = common_preferred(&c, single);
	r.aligned = pref != 0;
	if (strcmp(policy, "none") == 0)
		return r;
	r.mask = pref ? pref : single ? 0 : best_unpreferred(&c);
	r.admitted = r.aligned || strcmp(policy, "best-effort") == 0;
	return r;
}

const char *kube_numa_list(arena *ar, uint64_t mask)
{
	char out[256];
	size_t len = 0;
	out[0] = '\0';
	for (int n = 0; n < 64 && len < sizeof(out) - 16; n++) {
		if (!(mask >> n & 1))
			continue;
		int e = n;
		while (e + 1 < 64 && mask >> (e + 1) & 1)
			e++;
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%d", len ? "," : "", n);
		if (e > n)
			len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%d", e > n + 1 ? "-" : ",", e);
		n = e;
	}
	return arena_printf(ar, "%s", out);
}
