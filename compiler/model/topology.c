/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "topology.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/base/buf.h"

topology *topo_regular(arena *a, int sockets, int cores_per_socket, int threads,
		       int numa_per_socket, topo_numbering numbering)
{
	topology *t = arena_alloc(a, sizeof(*t));
	int total = sockets * cores_per_socket;
	int cpn = cores_per_socket / numa_per_socket;
	t->ncores = total;
	t->nsockets = sockets;
	t->cores = arena_alloc(a, (size_t)total * sizeof(topo_core));
	t->nnuma = sockets * numa_per_socket;
	t->numa_os_mismatch = -1;
	t->numa = arena_alloc(a, (size_t)t->nnuma * sizeof(topo_numa));
	for (int n = 0; n < t->nnuma; n++) {
		t->numa[n].os_index = n;
		t->numa[n].first_core = n * cpn;
		t->numa[n].ncores = cpn;
	}
	for (int c = 0; c < total; c++) {
		topo_core *k = &t->cores[c];
		int s = c / cores_per_socket, j = c % cores_per_socket;
		k->socket = s;
		k->numa = c / cpn;
		k->npus = threads;
		int first = numbering == TOPO_LINEAR ? c : j * sockets + s;
		for (int th = 0; th < threads; th++)
			k->pus[th] = first + th * total;
	}
	return t;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

char *topo_cpulist(arena *a, const int *cpus, int n)
{
	int *s = malloc((size_t)(n ? n : 1) * sizeof(int));
	memcpy(s, cpus, (size_t)n * sizeof(int));
	qsort(s, (size_t)n, sizeof(int), cmp_int);
	buf b;
	buf_init(&b);
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && s[j + 1] <= s[j] + 1)
			j++;
		buf_printf(&b, "%s%d", b.len ? "," : "", s[i]);
		if (s[j] != s[i])
			buf_printf(&b, "-%d", s[j]);
		i = j + 1;
	}
	char *r = arena_strdup(a, b.len ? b.data : "");
	buf_free(&b);
	free(s);
	return r;
}

uint64_t topo_total_memory(const topology *t)
{
	uint64_t total = 0;
	for (int n = 0; n < t->nnuma; n++)
		total += t->numa[n].memory;
	return total;
}

bool topo_cpulist_has(const char *list, int cpu)
{
	for (const char *p = list; p && *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			return false;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}
