/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_ops.c - what operators and their tools run around DAOS in pods, beside
 * the DaemonSets of kubernetes.c: node-maintenance.sh (a node's planned
 * stop and start), the PodDisruptionBudget that holds evictions to what the
 * data tolerates, and rollout-rbac.yaml: the namespace and the identity
 * that runs the rollout and node-maintenance.sh, its Role and ClusterRole
 * from one permission table that the scripts' `kubectl auth can-i`
 * preflight reads too. */
#include <string.h>

#include "compiler/place/kube.h"
#include "compiler/place/node_plan.h"
#include "compiler/place/tolerance.h"
#include "kube_yaml.h"

/* What the rollout script and node-maintenance.sh do with kubectl, as RBAC
 * rules: a namespaced Role where the DAOS namespace is enough, the
 * ClusterRole only for what is cluster-scoped or in every namespace. */
const kube_permission kube_rollout_permissions[] = {
	/* label-nodes, annotate (self_heal's value from stop to start), cordon, uncordon */
	{"", "nodes", NULL, "get list patch", KS_ALL},
	/* kubectl drain lists the node's pods in every namespace and evicts them
	 * where they are (staging/src/k8s.io/kubectl/pkg/drain/drain.go
	 * GetPodsForDeletion: Pods(metav1.NamespaceAll).List; EvictPod) */
	{"", "pods", NULL, "get list", KS_ALL},
	{"", "pods", "eviction", "create", KS_ALL},
	/* drain looks up the DaemonSet of each DaemonSet pod it skips, in that
	 * pod's namespace (pkg/drain/filters.go daemonSetFilter) */
	{"apps", "daemonsets", NULL, "get", KS_ALL},
	/* the preflight's check that the namespace exists: a cluster admin
	 * creates it (rollout-rbac.yaml), with its Pod Security level */
	{"", "namespaces", NULL, "get", KS_NS_OBJ},
	/* the rollout deletes a pod of an older template (OnDelete) */
	{"", "pods", NULL, "delete", KS_NS},
	/* kubectl apply -k of the tree, the old groups' prune, rollout status
	 * (a watch) and restart (a patch) of the device plugins */
	{"apps", "daemonsets", NULL, "list watch create patch delete", KS_NS},
	{"", "configmaps", NULL, "get create patch delete", KS_NS},
	{"", "podtemplates", NULL, "get create patch", KS_NS},
	{"policy", "poddisruptionbudgets", NULL, "get create patch", KS_NS},
	{"", "serviceaccounts", NULL, "get create patch", KS_NS},
	{"", "resourcequotas", NULL, "get create patch", KS_NS},
	/* the preflight's look at the certificate Secrets' keys */
	{"", "secrets", NULL, "get", KS_NS},
	/* the cluster's Lease dslc-lock (kube_lib.sh): read, created, replaced
	 * at its resourceVersion (kubectl replace: a PUT, verb update) */
	{"coordination.k8s.io", "leases", NULL, "get create update", KS_NS},
};
const size_t kube_rollout_permission_count = sizeof(kube_rollout_permissions) / sizeof(kube_rollout_permissions[0]);

/* The next of a row's blank-separated verbs at *v, its length in *n; false
 * after the last. */
static bool next_verb(const char **v, size_t *n)
{
	while (**v == ' ')
		(*v)++;
	*n = strcspn(*v, " ");
	return *n > 0;
}

/* Two rows of one RBAC rule: the same role, group, resource and
 * subresource. */
static bool same_rule(const kube_permission *p, const kube_permission *q)
{
	return p->scope == q->scope && strcmp(p->group, q->group) == 0 && strcmp(p->resource, q->resource) == 0 &&
	       strcmp(p->subresource ? p->subresource : "", q->subresource ? q->subresource : "") == 0;
}

const kube_secret kube_cert_secrets[2] = {
	{"daos-server-certs", {"daosCA.crt", "server.crt", "server.key", "agent.crt"}, true},
	{"daos-agent-certs", {"daosCA.crt", "agent.crt", "agent.key", NULL}, false},
};

void kube_secret_lines(const model *m, buf *out)
{
	if (cluster_insecure(&m->cluster))
		return;
	for (int i = 0; i < 2; i++) {
		buf_puts(out, kube_cert_secrets[i].name);
		for (int k = 0; k < 4 && kube_cert_secrets[i].keys[k]; k++)
			buf_printf(out, " %s", kube_cert_secrets[i].keys[k]);
		buf_puts(out, "\n");
	}
}

void kube_can_i_lines(const char *ns, buf *out)
{
	for (size_t i = 0; i < kube_rollout_permission_count; i++) {
		const kube_permission *p = &kube_rollout_permissions[i];
		size_t n;
		for (const char *v = p->verbs; next_verb(&v, &n); v += n)
			buf_printf(out, "%.*s %s%s%s%s%s %s %s\n", (int)n, v, p->resource, *p->group ? "." : "", p->group,
				   p->scope == KS_NS_OBJ ? "/" : "", p->scope == KS_NS_OBJ ? ns : "",
				   p->subresource ? p->subresource : "-", p->scope == KS_NS ? ns : "all");
	}
}

static bool server_in_pods(const node *nd)
{
	const node_spec *s = nd->spec;
	return s && s->plan && s->plan->ok && spec_in_pods(s) && s->plan->nengines > 0;
}

/* The server nodes in pods: the daos-server pods the budget counts. */
static size_t server_pods(const model *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		n += server_in_pods(&m->nodes[i]);
	return n;
}

/* The daos-server pods that may be down at once: what the data and the pool
 * services allow (place_safe_nodes, the rollout's wave size), and no more
 * access points than keep the management service's majority. */
static int pods_down(const model *m, const char **why)
{
	const char *drain_why;
	int down = place_safe_nodes(m->ar, m, why, &drain_why);
	int aps = place_aps_down(m);
	if (aps < down) {
		down = aps;
		*why = arena_printf(m->ar, "%d of %zu access points down keeps the management service's majority", aps,
				    m->cluster.naps);
	}
	return down;
}

/* The PodDisruptionBudget of the daos-server pods. An integer minAvailable,
 * not maxUnavailable or a percentage: those need the scale of the pods'
 * controller, which a DaemonSet does not have, and the disruption controller
 * then allows no eviction at all (pkg/controller/disruption/disruption.go
 * getExpectedPodCount, getExpectedScale: finders cover ReplicationController,
 * Deployment, ReplicaSet, StatefulSet and the scale subresource). With an
 * integer it counts the pods it selects, and allows currentHealthy -
 * minAvailable evictions: a node already down leaves one fewer. */
bool kube_pdb_yaml(const model *m, buf *out)
{
	const char *why;
	size_t n = server_pods(m);
	int down = pods_down(m, &why);
	long long min = (long long)n - down;
	if (min < 0)
		min = 0;
	buf_printf(out, "# Generated by dslc: evictions (cluster-autoscaler, descheduler, the Eviction API) wait while\n"
			"# fewer than %lld of the %zu daos-server pods would stay Ready: %d may be down (%s).\n"
			"# kubectl drain --ignore-daemonsets skips these pods; node-maintenance.sh stops their engines first.\n",
		   min, n, down, why);
	yaml_out y;
	if (!yo_begin(&y, out, m->release))
		return false;
	yo_map(&y);
	yo_kv(&y, "apiVersion", "policy/v1");
	yo_kv(&y, "kind", "PodDisruptionBudget");
	yo_name(&y, "metadata");
	yo_map(&y);
	yo_kv(&y, "name", "daos-server");
	yo_kv(&y, "namespace", kube_namespace(m));
	yo_name(&y, "labels");
	yo_map(&y);
	yo_kv(&y, "app.kubernetes.io/name", "daos-server");
	yo_kv(&y, "app.kubernetes.io/managed-by", "dslc");
	yo_map_end(&y);
	yo_map_end(&y);
	yo_name(&y, "spec");
	yo_map(&y);
	yo_name(&y, "minAvailable");
	yo_int(&y, min);
	yo_name(&y, "selector");
	yo_map(&y);
	yo_name(&y, "matchLabels");
	yo_map(&y);
	yo_kv(&y, "app.kubernetes.io/name", "daos-server");
	yo_map_end(&y);
	yo_map_end(&y);
	yo_map_end(&y);
	yo_map_end(&y);
	return yo_end(&y);
}

/* The verbs of every row of one rule, each once. */
static void rule_verbs(yaml_out *y, const model *m, size_t first)
{
	yo_name(y, "verbs");
	yo_seq(y);
	for (size_t i = first; i < kube_rollout_permission_count; i++) {
		const kube_permission *q = &kube_rollout_permissions[i];
		if (!same_rule(&kube_rollout_permissions[first], q))
			continue;
		size_t n;
		for (const char *v = q->verbs; next_verb(&v, &n); v += n) {
			bool seen = false; /* in an earlier row of the rule */
			for (size_t j = first; j < i && !seen; j++) {
				size_t k;
				const kube_permission *r = &kube_rollout_permissions[j];
				for (const char *u = r->verbs; !seen && same_rule(q, r) && next_verb(&u, &k); u += k)
					seen = k == n && strncmp(u, v, n) == 0;
			}
			if (!seen)
				yo_str(y, arena_strndup(m->ar, v, n));
		}
	}
	yo_seq_end(y);
}

/* The rules of one role, one per resource: the rows of KS_NS (the Role)
 * or of the others (the ClusterRole). */
static void role_rules(yaml_out *y, const model *m, bool cluster)
{
	ky_seq(y, "rules");
	for (size_t i = 0; i < kube_rollout_permission_count; i++) {
		const kube_permission *p = &kube_rollout_permissions[i];
		bool first = (p->scope != KS_NS) == cluster;
		for (size_t j = 0; j < i && first; j++)
			first = !same_rule(&kube_rollout_permissions[j], p);
		if (!first)
			continue;
		yo_map(y);
		ky_seq(y, "apiGroups");
		yo_str(y, p->group);
		yo_seq_end(y);
		ky_seq(y, "resources");
		yo_str(y, p->subresource ? arena_printf(m->ar, "%s/%s", p->resource, p->subresource) : p->resource);
		yo_seq_end(y);
		if (p->scope == KS_NS_OBJ) {
			ky_seq(y, "resourceNames");
			yo_str(y, kube_namespace(m));
			yo_seq_end(y);
		}
		rule_verbs(y, m, i);
		yo_map_end(y);
	}
	yo_seq_end(y);
}

/* The names of the rollout's identity and its roles: the ClusterRole's and
 * its binding's are cluster-wide, so they carry the namespace (two DAOS
 * systems in one Kubernetes cluster). */
static const char *rollout_name(const model *m, bool cluster)
{
	return cluster ? arena_printf(m->ar, "dslc-rollout-%s", kube_namespace(m)) : "dslc-rollout";
}

/* An RBAC object's opening: kind, the rollout's name, the DAOS namespace
 * unless cluster-scoped; the caller closes the map. */
static void rbac_head(yaml_out *y, const model *m, const char *kind, bool cluster)
{
	yo_map(y);
	yo_kv(y, "apiVersion", "rbac.authorization.k8s.io/v1");
	yo_kv(y, "kind", kind);
	ky_metadata(y, m, rollout_name(m, cluster), cluster ? NULL : kube_namespace(m), "dslc-rollout", NULL, NULL);
}

static void role_doc(yaml_out *y, const model *m, const void *arg)
{
	bool cluster = arg != NULL;
	rbac_head(y, m, cluster ? "ClusterRole" : "Role", cluster);
	role_rules(y, m, cluster);
	yo_map_end(y);
}

static void binding_doc(yaml_out *y, const model *m, const void *arg)
{
	bool cluster = arg != NULL;
	rbac_head(y, m, cluster ? "ClusterRoleBinding" : "RoleBinding", cluster);
	ky_map(y, "roleRef");
	yo_kv(y, "apiGroup", "rbac.authorization.k8s.io");
	yo_kv(y, "kind", cluster ? "ClusterRole" : "Role");
	yo_kv(y, "name", rollout_name(m, cluster));
	yo_map_end(y);
	ky_seq(y, "subjects");
	yo_map(y);
	yo_kv(y, "kind", "ServiceAccount");
	yo_kv(y, "name", "dslc-rollout");
	yo_kv(y, "namespace", kube_namespace(m));
	yo_map_end(y);
	yo_seq_end(y);
	yo_map_end(y);
}

/* What a cluster admin applies once, outside the kustomization (whoever
 * applies it needs the rights it grants): the DAOS namespace with its Pod
 * Security level, the ServiceAccount dslc-rollout, and the Role and the
 * ClusterRole it is bound to. */
bool kube_rbac_yaml(const model *m, buf *out)
{
	const char *ns = kube_namespace(m), *cr = rollout_name(m, true);
	buf_printf(out, "# Generated by dslc: what a cluster admin applies once, before the first kubectl apply -k:\n"
			"# the namespace %s (Pod Security privileged: the DAOS pods use the host's network, PIDs\n"
			"# and paths) and the identity of the rollout script (dslc plan --format script) and\n"
			"# node-maintenance.sh: the ServiceAccount %s/dslc-rollout, the Role dslc-rollout (what\n"
			"# they change, in %s only) and the ClusterRole %s (nodes, and the\n"
			"# drain's pods and evictions in every namespace).\n"
			"#   kubectl apply -f rollout-rbac.yaml\n"
			"#   kubectl -n %s create token dslc-rollout --duration=8h   # the scripts' credentials\n"
			"# or, for a user of the cluster's own authentication instead of the account:\n"
			"#   kubectl -n %s create rolebinding dslc-rollout-NAME --role=dslc-rollout --user=NAME\n"
			"#   kubectl create clusterrolebinding %s-NAME --clusterrole=%s --user=NAME\n"
			"# Both scripts check each permission with kubectl auth can-i before they change anything.\n"
			"# An earlier dslc's ClusterRole dslc-rollout granted all of it in every namespace:\n"
			"#   kubectl delete clusterrolebinding,clusterrole dslc-rollout --ignore-not-found\n",
		   ns, ns, ns, cr, ns, ns, cr, cr);
	return ky_doc(out, m, ky_namespace_doc, NULL) && ky_doc(out, m, ky_account_doc, "dslc-rollout") &&
	       ky_doc(out, m, role_doc, NULL) && ky_doc(out, m, binding_doc, NULL) && ky_doc(out, m, role_doc, m) &&
	       ky_doc(out, m, binding_doc, m);
}

/* node-maintenance.sh: a node's planned stop and start around a reboot.
 * `kubectl drain --ignore-daemonsets` leaves DaemonSet pods running
 * (staging/src/k8s.io/kubectl/pkg/drain: DaemonSet pods are skipped), so a
 * reboot operator takes the engines down unannounced; this checks the rest
 * of the system as the rollout's fleet gate does, turns self_heal's rebuild
 * off as DAOS documents planned maintenance, stops the engines through the
 * management service and only then drains; on the way back it waits for the
 * pod, starts and gates the ranks, reintegrates them where a pool excluded
 * them and puts self_heal back. The shell is targets/dmg_lib.sh,
 * kube_lib.sh and node_maintenance.sh, compiled in. */
static const char dmg_lib[] =
#include "gen/targets/dmg_lib.inc"
	;
static const char kube_lib[] =
#include "gen/targets/kube_lib.inc"
	;
static const char maintenance_body[] =
#include "gen/targets/node_maintenance.inc"
	;

void kube_maintenance_script(const model *m, buf *out)
{
	const char *why;
	long long rebuild = place_rebuild_timeout(m->ar, m, 1, &why);
	buf_printf(out, "#!/bin/sh\n"
			"# Generated by dslc for system %s: planned maintenance of one node with DAOS in pods\n"
			"# (a reboot, a kernel or firmware update), run from an admin node with dmg and kubectl.\n"
			"# kubectl drain --ignore-daemonsets leaves the daos-server pod running, so stop first:\n"
			"# HOST is a DAOS host of the system or its node's name in Kubernetes (k8s_node_name).\n"
			"#   node-maintenance.sh stop HOST    check the rest of the system (every other rank Joined,\n"
			"#                                    every access point up, no pool rebuilding), turn\n"
			"#                                    self_heal's rebuild off (its value kept on the node's\n"
			"#                                    dslc.io/self-heal-before annotation), stop HOST's ranks,\n"
			"#                                    wait until they are stopped, then cordon and drain\n"
			"#   node-maintenance.sh start HOST   after the reboot: uncordon, wait for HOST's daos-server\n"
			"#                                    pod Ready, start its ranks, wait until they are Joined,\n"
			"#                                    reintegrate them where a pool excluded them, put\n"
			"#                                    self_heal back\n"
			"# A reboot operator runs `stop` as its pre-drain step and `start` once the node is back\n"
			"# (SPEC.md, \"Node maintenance\"). Each step stops at the first failure (exit 1).\n"
			"# One actor at a time: stop holds the DAOS system attribute dslc.lock and the Lease\n"
			"# dslc-lock until start, as the rollout holds them for its run; a second actor is refused\n"
			"# at once (exit 75), naming the holder.\n"
			"# Environment: DSLC_KUBECTL (default kubectl), DSLC_STOP_TIMEOUT (300), DSLC_POD_TIMEOUT\n"
			"# (900), DSLC_JOIN_TIMEOUT (600), DSLC_REBUILD_TIMEOUT (%lld: %s), DSLC_HEALTH_TIMEOUT (0),\n"
			"# DSLC_DMG_TIMEOUT (300), DSLC_KUBE_TIMEOUT (60), DSLC_POLL (10), DSLC_LOCK_SETTLE (5),\n"
			"# DSLC_LEASE_SECONDS (14400); seconds, by the clock. DSLC_DMG_RETRIES (3): retries of a dmg\n"
			"# call DAOS answers with a leader step-up.\n"
			"set -euf\n"
			"if [ $# != 2 ] || { [ \"$1\" != stop ] && [ \"$1\" != start ]; }; then\n"
			"\techo 'usage: node-maintenance.sh stop|start HOST' >&2\n\texit 2\nfi\n"
			"dslc_op=$1 dslc_node=$2\n"
			"case $dslc_node in '' | -* | *[!A-Za-z0-9.-]*) echo \"node-maintenance.sh: '$dslc_node' is not a node name\" >&2; exit 2 ;; esac\n",
		   m->cluster.name, rebuild, why);
	/* dmg names the DAOS host, kubectl the Kubernetes node: either finds both */
	buf_puts(out, "# the server nodes in pods: DAOS host, Kubernetes node\ndslc_hosts='");
	for (size_t i = 0, k = 0; i < m->nnodes; i++)
		if (server_in_pods(&m->nodes[i]))
			buf_printf(out, "%s%s %s", k++ ? "\n" : "", m->nodes[i].host, node_k8s_name(&m->nodes[i]));
	buf_printf(out, "'\n"
			"dslc_host=$(printf '%%s\\n' \"$dslc_hosts\" | awk -v n=\"$dslc_node\" '$1 == n || $2 == n { print; exit }')\n"
			"if [ -z \"$dslc_host\" ]; then\n"
			"\techo \"node-maintenance.sh: '$dslc_node' is no server node of system %s in pods, by DAOS host or Kubernetes node name:\" >&2\n"
			"\tprintf '%%s\\n' \"$dslc_hosts\" | awk '{ printf \"%%s%%s\", s, $1 ($2 != $1 ? \" (\" $2 \")\" : \"\"); s = \", \" } END { print \"\" }' >&2\n"
			"\texit 2\nfi\n"
			"dslc_node=${dslc_host#* } dslc_host=${dslc_host%%%% *}\n"
			"dslc_ns='%s'\ndslc_release='%s'\ndslc_described='",
		   m->cluster.name, kube_namespace(m), m->release ? m->release->name : "2.6");
	for (size_t i = 0; i < m->npools; i++)
		buf_printf(out, "%s%s", i ? " " : "", m->pools[i]->plan ? m->pools[i]->plan->label : m->pools[i]->name);
	buf_printf(out, "'\nDSLC_REBUILD_TIMEOUT=${DSLC_REBUILD_TIMEOUT:-%lld}\ndslc_can_i='", rebuild);
	kube_can_i_lines(kube_namespace(m), out);
	buf_puts(out, "'\ndslc_secrets='");
	kube_secret_lines(m, out);
	buf_puts(out, "'\n");
	buf_puts(out, dmg_lib);
	buf_puts(out, kube_lib);
	buf_puts(out, maintenance_body);
}

bool kube_has_server_pods(const model *m)
{
	return server_pods(m) > 0;
}
