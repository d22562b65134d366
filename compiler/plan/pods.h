/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* pods.h - the nodes of a Kubernetes tree (cluster/kubernetes/), read back
 * from its files: the daos-server and daos-agent group each node is labeled
 * for (label-nodes.sh), and each group's daos_server.yml or daos_agent.yml
 * (its ConfigMap) and pod template (its DaemonSet, the group's digest
 * blanked out). `dslc plan` compares a node in pods through these as it
 * compares a host node's own files, and its rollout relabels by waves. */
#ifndef DSLC_PLAN_PODS_H
#define DSLC_PLAN_PODS_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/base/arena.h"
#include "compiler/base/strmap.h"
#include "waves.h"

/* The files a node in pods gets, as `dslc plan` names them: the target is
 * the disruption table's (daos_server, daos_agent, or the pod templates'
 * pseudo targets below). */
typedef struct pod_file {
	const char *rel, *target, *data;
	size_t len;
} pod_file;

/* The targets of the pod templates, which no target of targets/ writes as
 * a file of its own (the disruption table names them). */
extern const char *const pods_targets[];

typedef struct pods_index {
	arena *a;
	strmap server_of, agent_of; /* host -> digest */
	strmap node_of;             /* host -> its Kubernetes node where the name differs */
	strmap groups;              /* "daos-server-<digest>" -> pod_group * */
	const char **names;         /* the groups' names, in file order */
	size_t ngroups, names_cap;
	const char *ns;             /* the namespace of the objects, from a group file */
	const char **hosts;         /* labeled hosts, in file order */
	size_t nhosts, cap;
} pods_index;

void pods_init(pods_index *ix, arena *a);
/* Reads one file of a tree's cluster/ (its path in the tree, cluster/...);
 * others are passed over. */
void pods_read(pods_index *ix, const char *rel, const char *data, size_t len);
/* The node's digests (NULL: not labeled for that daemon). */
const char *pods_server_of(const pods_index *ix, const char *host);
const char *pods_agent_of(const pods_index *ix, const char *host);
/* The host's node name in Kubernetes (the host itself unless the table names another). */
const char *pods_node_of(const pods_index *ix, const char *host);
/* The node's files (up to 4): its groups' config files and pod templates. */
size_t pods_files(const pods_index *ix, const char *host, pod_file out[4]);

/* The rollout's entry of a node in pods on the new side (waves.h), made
 * once; the pointer holds until the next entry is made. */
wave_relabel *pods_rollout_node(arena *a, wave_kube *k, const pods_index *new_side, const char *host);
/* The rest of the rollout's Kubernetes part: every node in pods on the new
 * side, the groups it applies first (the new side's) and removes last (the
 * old side's the new one has no more), and the objects' namespace. */
void pods_rollout(arena *a, wave_kube *k, const pods_index *new_side, const pods_index *old_side);

#endif
