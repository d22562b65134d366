/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* plan_print.h - the planner's state (plan.c fills it, file by file and
 * node by node) and its three views: text, markdown and JSON
 * (plan_print.c). Internal to compiler/plan/. */
#ifndef DSLC_PLAN_PRINT_H
#define DSLC_PLAN_PRINT_H

#include <stdio.h>

#include "compiler/base/strmap.h"
#include "context.h"
#include "pods.h"
#include "waves.h"

/* ---- groups ---------------------------------------------------------------- */

/* One distinct change: the keys it was seen at (engines[0].log_mask and
 * engines[1].log_mask make one change), old -> new, and where. */
typedef struct value_pair {
	const char *old, *new;
	const char **keys;
	size_t nkeys, kcap;
	const char **hosts;
	size_t nhosts, cap;
} value_pair;

/* Changes to one key of one file (list indexes folded: engines[].log_mask)
 * with one disruption class. */
typedef struct change_group {
	const char *file, *key;
	disruption_class cls;
	value_pair *pairs;
	size_t npairs, cap;
	strmap pair_index; /* "old\x1fnew" -> pair index + 1 */
	size_t nhosts;
	const char *last_host;
} change_group;

typedef struct planner {
	arena *ar; /* lives as long as the plan */
	bool colour;          /* plan_opts: a terminal gets colour */
	unsigned max_values;  /* plan_opts: values printed per group (0: all) */
	strmap group_index; /* "file\x1fkey\x1fclass" -> group */
	change_group **groups;
	size_t ngroups, gcap;
	strmap values; /* interned old/new values */
	size_t added, removed, changed, unchanged;
	size_t recorded; /* differences recorded so far: a node or file changed when it grew */
	const char *host;
	const char *file, *target; /* the file being compared */
	arena *scratch;
	plan_node_context ctx; /* the node being compared (context.h) */
	plan_relabels relabels; /* containers relabeled (cluster files are compared first) */
	/* per row of disruption_couplings: the first change that needed it,
	 * and the hosts where one did */
	struct coupled {
		const char *by;
		const char **hosts;
		size_t nhosts, cap;
	} *coupled;
	strmap kubelet_hosts; /* nodes with a kubelet drop-in */
	strmap wave_index;    /* host -> its wave_node + 1 */
	strmap node_digests;  /* host -> its manifest.json node digest on the new side (tree_node_digest, hex) */
	wave_node *wnodes;    /* every node with a change, in plan order, and its classes */
	size_t nwnodes, wcap;
	bool coupling;        /* recording a coupled step: it couples nothing further */
	bool client_added;    /* the node being recorded as added runs no daos_server */
	pods_index pods_new, pods_old; /* the nodes in pods of each side (pods.h) */
	wave_kube kube;       /* what the rollout does in Kubernetes (waves.h) */
	const char *refused;  /* a change DAOS forbids doing by waves: the rollout is refused (waves.h) */
	bool kube_plugins_changed; /* cluster/kubernetes/device-plugins.yaml differs */
} planner;

void plan_print_text(planner *pl, FILE *out, int top);
void plan_print_markdown(planner *pl, FILE *out, int top);
void plan_print_json(planner *pl, FILE *out, int top, const char *version, const plan_waves *waves);

#endif
