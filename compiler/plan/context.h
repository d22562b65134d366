/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* context.h - what a change means on this node: the disruption table gives
 * a key's class; the node's storage and role can make it worse (a reboot
 * empties RAM SCM without MD-on-SSD; a server's control address cannot
 * change), and the change can need steps on other files (the table's
 * couplings: agents refreshed on every client, the kubelet's state). */
#ifndef DSLC_PLAN_CONTEXT_H
#define DSLC_PLAN_CONTEXT_H

#include <stdbool.h>

#include "compiler/model/model.h"
#include "compiler/tree/disruption.h"

typedef struct plan_node_context {
	bool server;     /* the node runs daos_server (on either side) */
	bool scm_in_ram; /* an engine keeps its SCM in tmpfs without MD-on-SSD (on either side) */
} plan_node_context;

/* The node `host` in the new model and, when given, the old one. */
plan_node_context plan_node_context_of(const model *nm, const model *om, const char *host);

/* The class of a change on a node with context c: the table's class cls,
 * or a worse one the node's storage or role makes it. file: the file's path
 * in the node; key, old, new as `dslc plan` compares them. */
disruption_class plan_context_class(const plan_node_context *c, const char *target, const char *file, const char *key,
				    const char *old, const char *new, disruption_class cls);

/* A change of the access point list (access_points on 2.6,
 * mgmt_svc_replicas on 2.8) that keeps none of the old replicas: DAOS
 * forbids it (docs/admin/administration.md, "Adding or removing
 * Management Service (MS) replicas": at least one old replica must remain
 * as the data source of the new ones). The plan refuses it. */
bool plan_context_replicas_replaced(const char *target, const char *key, const char *old, const char *new);

/* Containers relabeled by the change (pools.json's label, old -> new). A
 * dfuse unit whose only difference is such a label is installed, not
 * restarted: the running dfuse keeps its container open, and a remount
 * before `daos cont set-prop label:` ran would find no container of that
 * name (docs/user/container.md). */
typedef struct plan_relabels {
	struct plan_relabel {
		const char *from, *to;
	} *v;
	size_t n, cap;
} plan_relabels;

/* Notes a relabel when (target, key) is a container's label in pools.json. */
void plan_relabel_note(arena *a, plan_relabels *r, const char *target, const char *key, const char *old, const char *new);
/* Whether new is old with one relabeled container's label replaced by its
 * new one, as a whole word (a dfuse unit's ExecStart or Description). */
bool plan_relabel_only(const plan_relabels *r, const char *old, const char *new);

/* The coupling a change needs (disruption_couplings), or -1: the table's,
 * except that a management bond's address is no fabric address. */
int plan_coupling_of(const char *target, const char *file, const char *key, size_t from);

#endif
