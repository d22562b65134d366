/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* tolerance.h - how much of the system may be down at once, from the
 * description: the nodes a planned stop may take together (the weakest
 * container's fault domains with one failure of margin, the pool services'
 * replicas) and how long a rebuild after it may take. The rollout's waves
 * (plan/waves.c) and the Kubernetes objects that hold evictions to the same
 * figure (targets/kubernetes.c: the PodDisruptionBudget) read it. */
#ifndef DSLC_PLACE_TOLERANCE_H
#define DSLC_PLACE_TOLERANCE_H

#include <stdbool.h>

#include "compiler/base/arena.h"
#include "compiler/model/model.h"

/* The node runs engines. */
bool place_is_server(const model *m, const char *host);

/* The server nodes that may be down at once (1 << 20 when nothing limits
 * it), why in words, and drain_why when every wave must drain its ranks
 * first (a container that tolerates no whole node down); else NULL. */
int place_safe_nodes(arena *a, const model *m, const char **why, const char **drain_why);

/* The server nodes a pool service of svc_rf may lose at once and keep its
 * majority: DAOS spreads the 2 x svc_rf + 1 replicas node by node, each
 * to a node with the fewest so far and an engine free (src/pool/srv_util.c
 * ds_pool_plan_svc_reconfs, add_replicas), so with more replicas than
 * nodes some hold two and a node failure takes both. *most: the most
 * replicas one node holds. */
int place_svc_nodes(const model *m, int svc_rf, int *most);

/* The access points that may be down at once: fewer than half of them keeps
 * the management service's majority (one when there are one or two: a
 * rollout has to take each down some time). */
int place_aps_down(const model *m);

/* The longest one rebuild after size nodes stopped may take, in seconds,
 * and why: an hour, plus their share of the largest pool at 1 GiB/s. */
long long place_rebuild_timeout(arena *a, const model *m, int size, const char **why);

#endif
