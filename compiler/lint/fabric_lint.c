/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fabric_lint.c - see fabric_lint.h. */
#include "fabric_lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/place/place.h"

/* A UCX traffic class written by hand that is not the lossless one: the
 * RDMA traffic would carry another DSCP than the one mapped to the PFC
 * priority, and go lossy. */
static void check_env_class(model *m, const env_list *env, const char *tclass)
{
	const env_entry *e = env_find(env, "UCX_IB_TRAFFIC_CLASS");
	if (!e || strcmp(e->value, tclass) == 0)
		return;
	const struct lossless_spec *l = &m->cluster.lossless;
	diag *d = diag_report(m->dc, R_ROCE_LOSSLESS, e->loc,
			      "UCX_IB_TRAFFIC_CLASS=%s marks RDMA traffic with DSCP %s, not the lossless DSCP %lld on priority %lld",
			      e->value, arena_printf(m->ar, "%lld", strtoll(e->value, NULL, 0) / 4), (long long)l->dscp.v,
			      (long long)l->priority.v);
	diag_note_at(m->dc, d, l->loc, "the lossless settings");
	diag_help(m->dc, d, "remove the entry: dslc writes UCX_IB_TRAFFIC_CLASS=%s for engines and clients", tclass);
}

/* Every fabric NIC of the spec needs its RDMA device: the script sets the
 * RoCE ToS on it, and a NIC without one carries no RoCE. */
static void check_nics(model *m, const node_spec *s)
{
	const node_plan *p = s->plan;
	for (int i = 0; p && i < place_fabric_nic_count(p); i++) {
		const nic_desc *n = place_fabric_nic(p, i);
		if (!n || n->rdma)
			continue;
		diag *d = diag_report(m->dc, R_ROCE_LOSSLESS, m->cluster.lossless.loc,
				      "fabric NIC %s %s: lossless RoCE has nothing to set its RoCE ToS on", n->name,
				      n->exported ? "has no RDMA device in the topology export" : "is described without its RDMA device");
		diag_note_at(m->dc, d, n->loc, "the NIC");
		diag_help(m->dc, d, "%s", n->exported ? "use an RDMA-capable NIC for the fabric, or drop `lossless`"
						      : "add its device to the NIC: `rdma mlx5_<n>`");
	}
}

void fabric_lint(model *m)
{
	const cluster_spec *c = &m->cluster;
	const struct lossless_spec *l = &c->lossless;
	if (!l->set)
		return;
	if (!c->fabric_kind.set || strcmp(c->fabric_kind.v, "roce") != 0) {
		diag *d = diag_report(m->dc, R_ROCE_LOSSLESS, l->loc, "lossless settings on a %s fabric: PFC, DSCP and ECN are RoCE's",
				      c->fabric_kind.set ? c->fabric_kind.v : "undeclared");
		diag_help(m->dc, d, "keep `lossless` inside `fabric roce { ... }`");
		return;
	}
	if (!l->priority.set || !l->dscp.set) {
		diag *d = diag_report(m->dc, R_ROCE_LOSSLESS, l->loc, "lossless needs both the PFC priority and the RDMA DSCP");
		diag_help(m->dc, d, "write `lossless { priority 3  dscp 26 }` with your switches' RDMA class");
		return;
	}
	for (size_t i = 0; i < m->nspecs; i++)
		check_nics(m, m->specs[i]);
	/* only UCX reads it: under verbs a stray entry does nothing */
	const char *tclass = place_ucx_traffic_class(m);
	if (!tclass)
		return;
	check_env_class(m, &c->env, tclass);
	check_env_class(m, &c->client_env, tclass);
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		check_env_class(m, &s->env, tclass);
		for (int n = 0; n < MODEL_MAX_NUMA; n++)
			if (spec_engine_at(s, n))
				check_env_class(m, &s->eng[n]->env, tclass);
	}
}
