/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* numa_map.c - the machine's NUMA nodes matched to its node type's. Only
 * NUMA nodes with CPUs are matched, in hwloc's logical order: a NUMA node
 * without CPUs (GPU memory on POWER9 or Grace, HBM in flat mode, CXL
 * memory) holds no engine, no NIC and no drive (a device is local to the
 * first NUMA node whose CPUs hold its ancestor's), and such a node may come
 * online after boot (the GPU driver onlines its memory), so the machine
 * and its export can differ in them while the engines' NUMA nodes do not. */
#include "checks.h"

/* How many NUMA nodes of t have cores. */
int doctor_cpu_numas(const topology *t)
{
	int k = 0;
	for (int n = 0; n < t->nnuma; n++)
		k += t->numa[n].ncores > 0;
	return k;
}

int doctor_nth_cpu_numa(const topology *t, int rank)
{
	for (int n = 0; n < t->nnuma; n++)
		if (t->numa[n].ncores > 0 && rank-- == 0)
			return n;
	return -1;
}

/* Its rank among the NUMA nodes with cores, -1 when n has none. */
static int cpu_rank(const topology *t, int n)
{
	if (n < 0 || n >= t->nnuma || t->numa[n].ncores == 0)
		return -1;
	int rank = 0;
	for (int i = 0; i < n; i++)
		rank += t->numa[i].ncores > 0;
	return rank;
}

int doctor_machine_numa(const doctor_ctx *c, int type_numa)
{
	if (!c->topo || c->numa_changed)
		return -1;
	return doctor_nth_cpu_numa(c->topo, cpu_rank(c->p->topo, type_numa));
}

int doctor_type_numa(const doctor_ctx *c, int machine_numa)
{
	if (machine_numa < 0 || !c->topo)
		return machine_numa; /* TOPO_NUMA_UNKNOWN, _SEVERAL */
	int rank = cpu_rank(c->topo, machine_numa);
	int n = rank < 0 ? -1 : doctor_nth_cpu_numa(c->p->topo, rank);
	return n < 0 ? TOPO_NUMA_UNKNOWN : n;
}

int doctor_threads_per_core(const topology *t, int n)
{
	return t->numa[n].ncores ? t->cores[t->numa[n].first_core].npus : 0;
}

bool doctor_same_shape(const topology *a, const topology *b)
{
	int k = doctor_cpu_numas(a);
	if (k != doctor_cpu_numas(b))
		return false;
	for (int r = 0; r < k; r++) {
		int na = doctor_nth_cpu_numa(a, r), nb = doctor_nth_cpu_numa(b, r);
		if (a->numa[na].ncores != b->numa[nb].ncores || doctor_threads_per_core(a, na) != doctor_threads_per_core(b, nb))
			return false;
	}
	return true;
}
