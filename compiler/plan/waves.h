/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* waves.h - the order of a rollout: the nodes whose change stops engines or
 * the node, in waves that keep the data and the management service up.
 * A wave stops at most max(1, rd_fac - 1) fault domains of the weakest
 * container (nodes, or ranks for rd_lvl rank), at most svc_rf nodes (each
 * node holds at most one replica of a pool service: DAOS spreads them over
 * fault domains), and at most max(1, (access points - 1) / 2) access
 * points; access points go last. A system-restart is one wave of every
 * server (docs/admin/common_tasks.md). Client-only nodes hold no data: one
 * wave, first. Sources of the per-release steps: docs/admin/self_healing.md
 * (release/2.8: system self_heal; 2.6: the pool property self_heal). */
#ifndef DSLC_PLAN_WAVES_H
#define DSLC_PLAN_WAVES_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/base/arena.h"
#include "compiler/base/strmap.h"
#include "compiler/model/model.h"

/* A node and the classes of its changes (bit c: class c). */
typedef struct wave_node {
	const char *host;
	unsigned classes;
	unsigned after; /* client steps another change couples (agent refresh or restart, remount): after the servers */
	const char *files; /* sha256 hex of the node's new files (path, mode, bytes); NULL: none of its files changed */
} wave_node;

/* A node in pods (on the new side), its name in Kubernetes and its digests
 * (NULL: no such daemon there); changes: its labels change, so the rollout
 * relabels it. */
typedef struct wave_relabel {
	const char *host, *node, *server, *agent;
	bool changes;
	bool in_wave; /* a wave relabels it (set by plan_waves_kube) */
} wave_relabel;

/* What a rollout does in Kubernetes (pods.h): apply the new groups'
 * objects first, relabel each node in its wave (or after the last when no
 * wave has it: an agent-only change), and remove the old groups' objects
 * once no pod uses them. */
typedef struct wave_kube {
	const char *ns;      /* the objects' namespace */
	wave_relabel *relabel;
	size_t nrelabel, relabel_cap;
	const char **groups; /* the new side's daos-server-<d> and daos-agent-<d> */
	size_t ngroups, groups_cap;
	const char **stale;  /* the old side's groups the new side has no more */
	size_t nstale, stale_cap;
	const char **rolling; /* groups whose changed pods RollingUpdate would replace at apply: refused */
	size_t nrolling, rolling_cap;
	strmap in_pods;      /* host -> its wave_relabel + 1 (an index: the list grows) */
	const char *plugins; /* device plugin DaemonSets to restart after the apply (their config changed); NULL: none */
	const char *secrets; /* the certificate Secrets' "NAME KEY..." lines (kube_secret_lines); "" when insecure */
} wave_kube;

typedef struct plan_wave {
	const char **hosts;
	size_t nhosts;
	unsigned classes;
	bool clients;       /* client-only nodes, or (after) the client steps of any node */
	bool after;         /* the client steps (agent refresh or restart, remount), after every server's wave */
	bool access_points; /* holds access points */
	bool drain;         /* its ranks are drained (and the rebuild waited for) before they stop; servers' waves only */
	bool format;        /* its engines come back unformatted (reformat, scm-lost): format --replace; servers' waves only */
} plan_wave;

typedef struct plan_waves {
	plan_wave *v;
	size_t n, cap;
	int size;           /* nodes per wave of servers */
	int safe;           /* what the limits allow (size differs with --max-wave / --unsafe-wave) */
	int ap_size;        /* access points per wave */
	int naps;           /* access points of the system */
	const char *why;    /* the limit that decided the size, in words */
	const char *risk;   /* --unsafe-wave above the limit: what it risks; else NULL */
	const char *refused; /* a change DAOS forbids rolling out by waves, and what to do instead; else NULL.
			      * The script then does nothing, the plan exits 4 */
	bool system;        /* one wave: a system-restart */
	const char *drain_why; /* why every wave of servers drains first (NULL: only waves that lose data) */
	long long rebuild_timeout; /* seconds the script waits for one pool's rebuild (the default, sized from the pools) */
	const char *rebuild_timeout_why;
	const char *release;
	const char *tree;   /* sha256 hex over the changed nodes' files (wave_node.files): the rollout's identity */
	const char **pools; /* the description's pool labels: the script gates every pool the system has */
	size_t npools;
	const wave_kube *kube; /* NULL: no node runs DAOS in pods on either side */
	const strmap *digests; /* host -> its node digest in the new tree's manifest.json (hex); NULL: none known */
} plan_waves;

/* Waves for the nodes (in host order) of the new model nm whose classes
 * stop engines or the node (the others are passed over). max_wave > 0
 * lowers the size; unsafe_wave > 0 sets it even above the limits. */
void plan_waves_make(arena *a, const model *nm, const wave_node *nodes, size_t n, int max_wave, int unsafe_wave,
		     long long rebuild_timeout, plan_waves *out);
/* Adds the Kubernetes part (k: pods.h's nodes and groups) once the waves
 * are made; nothing when neither side has nodes in pods. */
void plan_waves_kube(plan_waves *w, wave_kube *k);
/* Whether the release has the system self_heal property (2.8 on). */
bool plan_waves_system_self_heal(const plan_waves *w);
/* The steps of wave i as shell commands (what --format script runs and JSON
 * lists: dmg commands, "$DSLC_APPLY" and the script's dslc_ gates, which
 * rollout.c defines), NULL-terminated; before and after are the whole
 * rollout's. */
const char **plan_wave_steps(arena *a, const plan_waves *w, size_t i);
const char **plan_waves_before(arena *a, const plan_waves *w);
const char **plan_waves_after(arena *a, const plan_waves *w);
/* The class ids of a set (bit c: class c), most disruptive first. */
const char *plan_class_words(arena *a, unsigned classes, const char *sep);

#endif
