/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* tolerance.c - see tolerance.h. */
#include "tolerance.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "node_plan.h"

bool place_is_server(const model *m, const char *host)
{
	const node *nd = model_node(m, host);
	return nd && nd->spec && nd->spec->plan && nd->spec->plan->nengines > 0;
}

static int engines_per_node(const model *m)
{
	int most = 1;
	for (size_t i = 0; i < m->nnodes; i++) {
		const node_plan *p = m->nodes[i].spec ? m->nodes[i].spec->plan : NULL;
		if (p && p->nengines > most)
			most = p->nengines;
	}
	return most;
}

int place_svc_nodes(const model *m, int svc_rf, int *most)
{
	/* each server node's engines: the replicas it can hold */
	int *cap = calloc(m->nnodes + 1, sizeof(int)), *held = calloc(m->nnodes + 1, sizeof(int));
	if (!cap || !held)
		abort();
	int nodes = 0, engines = 0;
	for (size_t i = 0; i < m->nnodes; i++) {
		const node_plan *p = m->nodes[i].spec ? m->nodes[i].spec->plan : NULL;
		if (p && p->nengines) {
			cap[nodes++] = p->nengines;
			engines += p->nengines;
		}
	}
	*most = 0;
	/* add_replicas: round i gives one replica to every node holding i that
	 * has an engine free, until all are placed (never more than engines) */
	int replicas = 2 * svc_rf + 1 < engines ? 2 * svc_rf + 1 : engines, left = replicas;
	for (int round = 0; left > 0; round++)
		for (int k = 0; k < nodes && left > 0; k++)
			if (held[k] == round && held[k] < cap[k]) {
				held[k]++;
				left--;
			}
	/* the worst failures take the nodes that hold the most */
	int lost = 0, down = 0;
	for (;;) {
		int best = -1;
		for (int k = 0; k < nodes; k++)
			if (held[k] >= 0 && (best < 0 || held[k] > held[best]))
				best = k;
		if (best < 0)
			break;
		if (!*most)
			*most = held[best];
		if (lost + held[best] > (replicas - 1) / 2) /* the majority left */
			break;
		lost += held[best];
		held[best] = -1;
		down++;
	}
	free(cap);
	free(held);
	return down;
}

/* A container's fault domains that may be down at once with one failure
 * of margin left. */
static int allowed_down(int rd_fac)
{
	return rd_fac > 1 ? rd_fac - 1 : 0;
}

/* The size the data and the pool services allow, and why. A container
 * whose fault domains allow no whole node down (rd_fac 0, or rd_lvl rank
 * with fewer tolerated ranks than a node has engines) gets single-node
 * waves that drain first: an unclean container is inaccessible
 * (docs/user/container.md), drained ranks hold none of its data. */
int place_safe_nodes(arena *a, const model *m, const char **why, const char **drain_why)
{
	int epn = engines_per_node(m);
	int size = INT_MAX;
	*why = "no container or pool limits it";
	*drain_why = NULL;
	for (size_t i = 0; i < m->ncontainers; i++) {
		const container_plan *c = m->containers[i]->plan;
		if (!c)
			continue;
		bool rank = c->rd_lvl && strcmp(c->rd_lvl, "rank") == 0;
		int down = allowed_down(c->rd_fac), per = rank ? epn : 1, nodes = down / per;
		const char *cw;
		if (nodes < 1 && c->rd_fac >= per) {
			nodes = 1; /* a whole node is tolerated, with no margin left */
			cw = arena_printf(a, "container %s has rd_fac %d at rd_lvl %s%s: at most 1 node down at a time, with no "
					     "failure of margin", c->label, c->rd_fac, rank ? "rank" : "node",
					  rank ? arena_printf(a, " (%d engines per node)", epn) : "");
		} else if (nodes < 1) {
			nodes = 1;
			cw = c->rd_fac == 0 ? arena_printf(a, "container %s has rd_fac 0: any stopped engine makes its data "
							      "unavailable, so each node's ranks are drained before they stop",
							   c->label)
					    : arena_printf(a, "container %s has rd_fac %d at rd_lvl rank: a node stops %d ranks (%d "
							      "engines per node), more than the %d it tolerates, so each node's "
							      "ranks are drained before they stop",
							   c->label, c->rd_fac, epn, epn, c->rd_fac);
			if (!*drain_why)
				*drain_why = cw;
		} else {
			cw = arena_printf(a, "container %s has rd_fac %d at rd_lvl %s%s: at most %d %s (%d %s, one failure of "
					     "margin) down at a time", c->label, c->rd_fac, rank ? "rank" : "node",
					  rank ? arena_printf(a, " (%d engines per node)", epn) : "", nodes,
					  nodes == 1 ? "node" : "nodes", nodes * per,
					  rank ? "ranks" : nodes == 1 ? "fault domain" : "fault domains");
		}
		if (nodes < size || (nodes == size && cw == *drain_why)) {
			size = nodes;
			*why = cw;
		}
	}
	for (size_t i = 0; i < m->npools; i++) {
		const pool_plan *p = m->pools[i]->plan;
		int most = 0, n = p ? place_svc_nodes(m, p->svc_rf, &most) : 0;
		if (n < 1)
			n = 1; /* a rollout has to take each node down some time */
		if (p && n < size) {
			size = n;
			*why = most > 1 ? arena_printf(a, "pool %s has svc_rf %d: its %d service replicas share the nodes (up to %d "
							 "on one), so at most %d node%s down at a time keep%s their majority",
						       p->label, p->svc_rf, 2 * p->svc_rf + 1, most, n, n == 1 ? "" : "s",
						       n == 1 ? "s" : "")
					: arena_printf(a, "pool %s has svc_rf %d: at most %d of its service replicas (one per node) "
							 "down at a time", p->label, p->svc_rf, n);
		}
	}
	return size == INT_MAX ? 1 << 20 : size;
}

/* The longest a pool's rebuild after one wave may take before the script
 * gives up: an hour, plus the wave's share of the largest pool at 1 GiB/s
 * (a cautious rebuild rate; a percentage size counts as unknown). */
int place_aps_down(const model *m)
{
	int naps = (int)m->cluster.naps;
	return naps > 2 ? (naps - 1) / 2 : 1;
}

long long place_rebuild_timeout(arena *a, const model *m, int size, const char **why)
{
	uint64_t most = 0;
	const char *label = NULL, *text = NULL;
	size_t servers = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		servers += place_is_server(m, m->nodes[i].host);
	for (size_t i = 0; i < m->npools; i++) {
		const pool_plan *p = m->pools[i]->plan;
		uint64_t b;
		const char *err;
		if (p && p->size && val_size(p->size, &b, &err) && b > most) {
			most = b;
			label = p->label;
			text = p->size;
		}
	}
	if (!most || !servers) {
		*why = "1 hour: no pool gives its size in bytes";
		return 3600;
	}
	uint64_t share = most / servers * (uint64_t)(size < (int)servers ? size : (int)servers);
	long long t = 3600 + (long long)(share >> 30);
	*why = arena_printf(a, "1 hour plus %llu s: a wave's share of pool %s (%s over %zu servers) at 1 GiB/s",
			    (unsigned long long)(share >> 30), label, text, servers);
	return t;
}

