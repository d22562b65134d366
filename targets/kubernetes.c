/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kubernetes.c - cluster/kubernetes/: DAOS as DaemonSets (model B of
 * ../shared/facts/kubernetes.md, sections 2-4).
 *
 * Nodes whose daos_server.yml is byte-identical form a group: one immutable
 * ConfigMap and one DaemonSet, named and selected by the first 16 hex digits
 * of the file's sha256, so a group's name changes exactly when its file does.
 * The agent's daos_agent.yml is grouped the same way. label-nodes.sh gives each
 * node its groups' labels: relabeling a node is what moves it to a new file
 * (its pod restarts then), so an upgrade goes node by node. */
#include <string.h>

#include "compiler/base/sha256.h"
#include "compiler/base/strmap.h"
#include "compiler/place/kube.h"
#include "compiler/place/node_os.h"
#include "targets.h"
#include "kube_yaml.h"

typedef struct kube_group {
	char digest[17];
	const char *yml; /* in the arena: the layout lives as long as the model */
	const node_spec *spec; /* the first spec with this file */
	size_t nodes;
} kube_group;

/* A client template's group: its name and the first plan of it. */
typedef struct client_group {
	const node_plan *plan;
	const char *name; /* kube_client_group's, made once */
} client_group;

typedef struct kube_layout {
	kube_group *server, *agent;
	size_t nserver, nagent, server_cap, agent_cap;
	client_group *client; /* kube_client.c's templates */
	size_t nclient, client_cap;
	bool failed;
} kube_layout;

/* The position + 1 of a spec's file among the groups, made when the file is
 * new; 0 when it cannot be rendered. */
static int group_of(const model *m, kube_group **gs, size_t *n, size_t *cap, strmap *seen,
				  const node_spec *s, bool server)
{
	buf b;
	buf_init(&b);
	if (!(server ? daos_server_yaml(m, s, &b) : daos_agent_yaml(m, s, &b))) {
		buf_free(&b);
		return 0;
	}
	char hex[65];
	sha256_hex(b.data, b.len, hex);
	hex[16] = '\0';
	size_t at = (size_t)strmap_get(seen, hex);
	if (at) {
		buf_free(&b);
		return (int)at;
	}
	kube_group g = {.spec = s};
	memcpy(g.digest, hex, sizeof(g.digest));
	g.yml = arena_strndup(m->ar, b.data, b.len);
	buf_free(&b);
	ARENA_PUSH(m->ar, *gs, *n, *cap, g);
	strmap_put(seen, arena_strdup(m->ar, hex), (void *)*n);
	return (int)*n;
}

/* The position of p's client group among the layout's + 1, made when new. */
static int client_group_of(const model *m, kube_layout *l, const node_plan *p)
{
	const char *name = kube_client_group(m, p);
	for (size_t j = 0; j < l->nclient; j++)
		if (strcmp(l->client[j].name, name) == 0)
			return (int)j + 1;
	ARENA_PUSH(m->ar, l->client, l->nclient, l->client_cap, ((client_group){p, name}));
	return (int)l->nclient;
}

static const kube_layout *layout(const model *m)
{
	if (m->kube_layout)
		return m->kube_layout;
	kube_layout *l = arena_alloc(m->ar, sizeof(*l));
	strmap ss, as;
	strmap_init(&ss, m->ar);
	strmap_init(&as, m->ar);
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		if (!kube_in_pods(s))
			continue;
		s->plan->kube_client = client_group_of(m, l, s->plan);
		if (kube_plan_of(m, s)) { /* a client-only node has no daos-server */
			s->plan->kube_server = group_of(m, &l->server, &l->nserver, &l->server_cap, &ss, s, true);
			l->failed |= !s->plan->kube_server;
		}
		s->plan->kube_agent = group_of(m, &l->agent, &l->nagent, &l->agent_cap, &as, s, false);
		l->failed |= !s->plan->kube_agent;
	}
	((model *)m)->kube_layout = l; /* a cache: the model's content is unchanged */
	return l;
}

static void config_map(yaml_out *y, const model *m, const char *name, const char *app, const char *label,
		       const kube_group *g, const char *key)
{
	ky_head(y, m, "v1", "ConfigMap", name, app, label, g->digest);
	/* its name changes with its content: it never needs to */
	ky_bool(y, "immutable", true);
	ky_map(y, "data");
	yo_name(y, key);
	yo_literal(y, g->yml);
	yo_map_end(y);
	yo_map_end(y);
}

static bool secure(const model *m)
{
	return !cluster_insecure(&m->cluster);
}

/* Copies the certificates from the Secret into an emptyDir owned by the
 * pod's user, keys 0400: DAOS refuses keys wider than that
 * (src/control/security/pem.go MaxUserOnlyKeyPerm), and a Secret volume's
 * files are root's (fsGroup would make them 0440). */
static void cert_init(yaml_out *y, const model *m, bool server)
{
	const char *who = server ? "server" : "agent";
	ky_seq(y, "initContainers");
	yo_map(y);
	yo_kv(y, "name", "certificates");
	yo_kv(y, "image", m->cluster.kube.image.v);
	ky_seq(y, "command");
	yo_str(y, "/bin/sh");
	yo_str(y, "-c");
	yo_literal(y, arena_printf(m->ar,
			       "set -eu\n"
			       "install -m 0444 /certs-in/daosCA.crt /etc/daos/certs/daosCA.crt\n"
			       "install -m 0444 /certs-in/%s.crt /etc/daos/certs/%s.crt\n"
			       "install -m 0400 /certs-in/%s.key /etc/daos/certs/%s.key\n%s",
			       who, who, who, who,
			       server ? "install -d -m 0750 /etc/daos/certs/clients\n"
					"install -m 0444 /certs-in/agent.crt /etc/daos/certs/clients/agent.crt\n" : ""));
	yo_seq_end(y);
	ky_seq(y, "volumeMounts");
	ky_mount(y, "certs-in", "/certs-in", NULL, true);
	ky_mount(y, "certs", "/etc/daos/certs", NULL, false);
	yo_seq_end(y);
	yo_map_end(y);
	yo_seq_end(y);
}

static void cert_volumes(yaml_out *y, bool server)
{
	ky_empty_dir(y, "certs", NULL);
	yo_map(y);
	yo_kv(y, "name", "certs-in");
	ky_map(y, "secret");
	/* the Secret and its keys, which the scripts' preflight checks too */
	const kube_secret *sec = &kube_cert_secrets[server ? 0 : 1];
	yo_kv(y, "secretName", sec->name);
	ky_int(y, "defaultMode", 0440); /* group-readable: the init container reads as fsGroup */
	ky_seq(y, "items");
	const char *const *files = sec->keys;
	for (int i = 0; i < 4 && files[i]; i++) {
		yo_map(y);
		yo_kv(y, "key", files[i]);
		yo_kv(y, "path", files[i]);
		yo_map_end(y);
	}
	yo_seq_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

/* The RHEL family confines containers with SELinux (container-selinux):
 * a container_t process may not write the hostPath directories tmpfiles.d
 * made, nor mount the SCM tmpfs. spc_t is the type the container policy
 * gives privileged containers; Debian, Ubuntu and Azure Linux do not
 * enforce SELinux, and the kubelet ignores the field there. */
static bool selinux_os(const node_spec *s)
{
	static const char *const family[] = {"rhel", "rocky", "alma"};
	for (size_t i = 0; s->os.set && i < sizeof(family) / sizeof(family[0]); i++)
		if (strncmp(s->os.v, family[i], strlen(family[i])) == 0)
			return true;
	return false;
}

static void pod_common(yaml_out *y, const node_spec *s, const char *app, const char *label, const char *digest,
		       int64_t uid, int64_t gid, bool host_pid)
{
	ky_map(y, "nodeSelector");
	yo_kv(y, label, digest);
	yo_map_end(y);
	/* its own account (namespace.yaml), which neither daemon uses: they
	 * never call the API server, so no token in the pod */
	yo_kv(y, "serviceAccountName", app);
	ky_bool(y, "automountServiceAccountToken", false);
	ky_bool(y, "hostNetwork", true);
	if (host_pid)
		ky_bool(y, "hostPID", true);
	/* the node's resolver: they resolve only host names (access points),
	 * and start before CoreDNS can run */
	yo_kv(y, "dnsPolicy", "Default");
	yo_kv(y, "priorityClassName", "system-node-critical");
	ky_int(y, "terminationGracePeriodSeconds", KUBE_POD_GRACE_SECONDS);
	ky_seq(y, "tolerations");
	yo_map(y);
	yo_kv(y, "operator", "Exists");
	yo_map_end(y);
	yo_seq_end(y);
	ky_map(y, "securityContext");
	ky_int(y, "runAsUser", uid);
	ky_int(y, "runAsGroup", gid);
	ky_int(y, "fsGroup", gid);
	if (selinux_os(s)) {
		ky_map(y, "seLinuxOptions");
		yo_kv(y, "type", "spc_t");
		yo_map_end(y);
	}
	yo_map_end(y);
}

static void daemonset_head(yaml_out *y, const model *m, const char *name, const char *app, const char *label,
			   const char *digest)
{
	const kube_spec *ks = &m->cluster.kube;
	yo_kv(y, "apiVersion", "apps/v1");
	yo_kv(y, "kind", "DaemonSet");
	ky_metadata(y, m, name, kube_namespace(m), app, label, digest);
	ky_map(y, "spec");
	ky_selector(y, app, label, digest);
	ky_map(y, "updateStrategy");
	if (ks->update.set && strcmp(ks->update.v, "rolling") == 0) {
		yo_kv(y, "type", "RollingUpdate");
		ky_map(y, "rollingUpdate");
		ky_int(y, "maxSurge", ks->surge.set ? ks->surge.v : 0);
		ky_int(y, "maxUnavailable", 1);
		yo_map_end(y);
	} else {
		yo_kv(y, "type", "OnDelete");
	}
	yo_map_end(y);
	ky_pod_template(y, app, label, digest);
}

/* Whether <rdma_resource>_e<i> stays a qualified name (63 characters) for
 * every NIC: the objects are not written otherwise, whatever the lint
 * rule k8s-resource-name says (it may be disabled). */
static bool rdma_names_fit(const model *m)
{
	const char *last = kube_rdma_last_name(m);
	return !last || strlen(last) <= 63;
}

static void resources(yaml_out *y, const model *m, const node_plan *p, const kube_plan *kp, bool server)
{
	arena *a = m->ar;
	ky_map(y, "resources");
	for (int lim = 0; lim < 2; lim++) {
		ky_map(y, lim ? "limits" : "requests");
		if (!lim)
			yo_kv(y, "cpu", server ? "1" : "100m"); /* small: its cores are reserved already; no limit */
		yo_kv(y, "memory", server ? yo_quantity(a, kp->memory) : "1Gi");
		if (server)
			yo_kv(y, kp->hugepage_resource, yo_quantity(a, (uint64_t)kp->hugepages * kp->hugepage_size));
		kube_rdma_limits(y, m, p);
		if (server && kp->nvmes)
			yo_kv(y, kube_nvme_resource(m), arena_printf(a, "%d", kp->nvmes));
		yo_map_end(y);
	}
	yo_map_end(y);
}

/* ---- the objects ------------------------------------------------------------ */

/* Closes the container list and opens the volumes: the group's ConfigMap
 * and the certificates' volumes first. */
static void volumes_begin(yaml_out *y, const model *m, const char *name, bool server)
{
	yo_seq_end(y); /* volumeMounts */
	yo_map_end(y); /* the container */
	yo_seq_end(y); /* containers */
	ky_seq(y, "volumes");
	yo_map(y);
	yo_kv(y, "name", "config");
	ky_map(y, "configMap");
	yo_kv(y, "name", name);
	yo_map_end(y);
	yo_map_end(y);
	if (secure(m))
		cert_volumes(y, server);
}

/* daos_server answers SIGTERM by cancelling its context, and each engine's
 * runner then SIGKILLs its engine (src/control/server/engine/exec.go; the
 * server's signal handler in server.go): no server_fini. So before the
 * kubelet's SIGTERM, stop the engines as `dmg system stop` does (SIGINT,
 * ctl_ranks_rpc.go StopRanks) and wait for them, within the pod's grace
 * period less daos_server's own exit; an engine that exits is not started
 * again unless asked (instance_exec.go Run). /proc, not pkill: the image
 * need not have procps. */
static void pre_stop(yaml_out *y, const model *m)
{
	ky_map(y, "lifecycle");
	ky_map(y, "preStop");
	ky_map(y, "exec");
	ky_seq(y, "command");
	yo_str(y, "/bin/sh");
	yo_str(y, "-c");
	yo_literal(y, arena_printf(m->ar,
				   "engines() {\n"
				   "  for p in /proc/[0-9]*; do\n"
				   "    [ \"$(cat \"$p/comm\" 2>/dev/null)\" = daos_engine ] && echo \"${p#/proc/}\"\n"
				   "  done\n"
				   "}\n"
				   "for pid in $(engines); do kill -INT \"$pid\" 2>/dev/null || true; done\n"
				   "i=0\n"
				   "while [ -n \"$(engines)\" ] && [ $i -lt %d ]; do sleep 1; i=$((i + 1)); done\n",
				   KUBE_POD_GRACE_SECONDS - KUBE_PRESTOP_MARGIN_SECONDS));
	yo_seq_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

static void server_daemonset(yaml_out *y, const model *m, const void *arg)
{
	const kube_group *g = arg;
	const kube_spec *ks = &m->cluster.kube;
	const node_plan *p = g->spec->plan;
	const kube_plan *kp = kube_plan_of(m, g->spec);
	const char *name = arena_printf(m->ar, "daos-server-%s", g->digest);
	yo_map(y);
	daemonset_head(y, m, name, "daos-server", KUBE_LABEL_SERVER, g->digest);
	pod_common(y, g->spec, "daos-server", KUBE_LABEL_SERVER, g->digest, ks->uid.v, ks->gid.v, false);
	if (secure(m))
		cert_init(y, m, true);
	ky_seq(y, "containers");
	yo_map(y);
	yo_kv(y, "name", "daos-server");
	yo_kv(y, "image", ks->image.v);
	ky_seq(y, "command");
	yo_str(y, "daos_server");
	yo_str(y, "start");
	yo_str(y, "-o");
	yo_str(y, "/etc/daos/daos_server.yml");
	yo_seq_end(y);
	ky_map(y, "securityContext");
	ky_bool(y, "allowPrivilegeEscalation", true); /* the setuid daos_server_helper */
	ky_map(y, "capabilities");
	ky_seq(y, "add");
	yo_str(y, "SYS_ADMIN"); /* the helper mounts the SCM tmpfs */
	yo_str(y, "IPC_LOCK");  /* SPDK's DMA mappings */
	yo_seq_end(y);
	yo_map_end(y);
	ky_map(y, "appArmorProfile"); /* containerd's default profile denies mount */
	yo_kv(y, "type", "Unconfined");
	yo_map_end(y);
	/* RuntimeDefault (a kubelet with seccompDefault, CIS-hardened nodes)
	 * refuses the NUMA memory-policy calls the engines make (mbind,
	 * set_mempolicy, get_mempolicy: containerd's default profile allows
	 * them only with CAP_SYS_NICE) */
	ky_map(y, "seccompProfile");
	yo_kv(y, "type", "Unconfined");
	yo_map_end(y);
	yo_map_end(y);
	resources(y, m, p, kp, true);
	pre_stop(y, m);
	ky_map(y, "readinessProbe");
	ky_map(y, "tcpSocket");
	ky_int(y, "port", m->cluster.port.set ? m->cluster.port.v : 10001);
	yo_map_end(y);
	ky_int(y, "periodSeconds", 10);
	yo_map_end(y);
	ky_seq(y, "volumeMounts");
	ky_mount(y, "config", "/etc/daos/daos_server.yml", "daos_server.yml", true);
	if (secure(m))
		ky_mount(y, "certs", "/etc/daos/certs", NULL, true);
	ky_mount(y, "hugepages", "/dev/hugepages", NULL, false);
	ky_mount(y, "run", "/var/run/daos_server", NULL, false);
	ky_mount(y, "metadata", "/var/daos/config", NULL, false);
	ky_mount(y, "logs", "/var/log/daos", NULL, false);
	for (int i = 0; i < p->nengines; i++)
		ky_mount(y, arena_printf(m->ar, "scm%d", i), p->engines[i].scm_mount, NULL, false);
	volumes_begin(y, m, name, true);
	ky_empty_dir(y, "hugepages", kp->hugepage_medium);
	ky_empty_dir(y, "run", NULL);
	/* made with the daemon's owner by the node's tmpfiles.d (pod_host.c):
	 * Directory, so that a node without them says so at the pod's start */
	ky_host_path(y, "metadata", KUBE_METADATA_DIR, "Directory");
	ky_host_path(y, "logs", KUBE_SERVER_LOG_DIR, "Directory");
	for (int i = 0; i < p->nengines; i++)
		ky_empty_dir(y, arena_printf(m->ar, "scm%d", i), NULL); /* the helper mounts tmpfs here, in the pod */
	yo_seq_end(y);
	yo_map_end(y); /* pod spec */
	yo_map_end(y); /* template */
	yo_map_end(y); /* spec */
	yo_map_end(y);
}

static void agent_daemonset(yaml_out *y, const model *m, const void *arg)
{
	const kube_group *g = arg;
	const kube_spec *ks = &m->cluster.kube;
	const char *name = arena_printf(m->ar, "daos-agent-%s", g->digest);
	int64_t uid = ks->agent_uid.set ? ks->agent_uid.v : ks->uid.v, gid = ks->agent_uid.set ? ks->agent_gid.v : ks->gid.v;
	yo_map(y);
	daemonset_head(y, m, name, "daos-agent", KUBE_LABEL_AGENT, g->digest);
	/* hostPID: the agent maps a client's PID (SO_PEERCRED) to its NUMA node */
	pod_common(y, g->spec, "daos-agent", KUBE_LABEL_AGENT, g->digest, uid, gid, true);
	if (secure(m))
		cert_init(y, m, false);
	ky_seq(y, "containers");
	yo_map(y);
	yo_kv(y, "name", "daos-agent");
	yo_kv(y, "image", ks->image.v);
	ky_seq(y, "command");
	yo_str(y, "daos_agent");
	yo_str(y, "-o");
	yo_str(y, "/etc/daos/daos_agent.yml");
	yo_seq_end(y);
	ky_seq(y, "env");
	yo_map(y);
	yo_kv(y, "name", "HWLOC_ALLOW"); /* clients' CPUs lie outside the agent's cpuset */
	yo_kv(y, "value", "all");
	yo_map_end(y);
	yo_seq_end(y);
	resources(y, m, g->spec->plan, NULL, false);
	ky_seq(y, "volumeMounts");
	ky_mount(y, "config", "/etc/daos/daos_agent.yml", "daos_agent.yml", true);
	if (secure(m))
		ky_mount(y, "certs", "/etc/daos/certs", NULL, true);
	ky_mount(y, "socket", AGENT_RUNTIME_DIR, NULL, false);
	ky_mount(y, "logs", "/var/log/daos", NULL, false);
	/* DAOS 2.6 resolves client uids to names inside the agent */
	ky_mount(y, "passwd", "/etc/passwd", NULL, true);
	ky_mount(y, "group", "/etc/group", NULL, true);
	volumes_begin(y, m, name, false);
	ky_host_path(y, "socket", AGENT_RUNTIME_DIR, "Directory"); /* for client pods; tmpfiles.d made it */
	ky_host_path(y, "logs", KUBE_AGENT_LOG_DIR, "Directory");
	ky_host_path(y, "passwd", "/etc/passwd", "File");
	ky_host_path(y, "group", "/etc/group", "File");
	yo_seq_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

static void server_config(yaml_out *y, const model *m, const void *arg)
{
	const kube_group *g = arg;
	config_map(y, m, arena_printf(m->ar, "daos-server-%s", g->digest), "daos-server", KUBE_LABEL_SERVER, g, "daos_server.yml");
}

static void agent_config(yaml_out *y, const model *m, const void *arg)
{
	const kube_group *g = arg;
	config_map(y, m, arena_printf(m->ar, "daos-agent-%s", g->digest), "daos-agent", KUBE_LABEL_AGENT, g, "daos_agent.yml");
}

/* Clusters that keep the critical priority classes to kube-system (GKE by
 * default, or a site's LimitedResources admission configuration) admit a
 * system-node-critical pod elsewhere only in a namespace with a quota whose
 * scope selects that class (kubernetes.io, "Limit Priority Class
 * consumption by default"). Its pod count bounds nothing dslc runs: DAOS's
 * pods are one server, one agent and two plugins per node. */
static void quota_doc(yaml_out *y, const model *m, const void *arg)
{
	(void)arg;
	ky_head(y, m, "v1", "ResourceQuota", "dslc-critical-pods", "dslc-critical-pods", NULL, NULL);
	ky_map(y, "spec");
	ky_map(y, "hard");
	yo_kv(y, "pods", arena_printf(m->ar, "%zu", 4 * m->nnodes + 16));
	yo_map_end(y);
	ky_map(y, "scopeSelector");
	ky_seq(y, "matchExpressions");
	yo_map(y);
	yo_kv(y, "scopeName", "PriorityClass");
	yo_kv(y, "operator", "In");
	ky_seq(y, "values");
	yo_str(y, "system-node-critical");
	yo_seq_end(y);
	yo_map_end(y);
	yo_seq_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

/* The DAOS namespace's objects. The namespace itself, like the Pod Security
 * level of any namespace, is a cluster admin's: it is in rollout-rbac.yaml,
 * and the rollout's identity may not create or patch namespaces. */
static bool namespace_yaml(const model *m, buf *out)
{
	buf_printf(out, "# Generated by dslc: the objects of namespace %s, which a cluster admin creates with\n"
			"# rollout-rbac.yaml before the first kubectl apply -k.\n",
		   kube_namespace(m));
	if (!ky_doc(out, m, quota_doc, NULL))
		return false;
	const char *accounts[] = {"daos-server", "daos-agent", kube_plugin_account()};
	for (int i = 0; i < 3; i++)
		if (!ky_doc(out, m, ky_account_doc, accounts[i]))
			return false;
	return true;
}

/* label-nodes.sh: the first deployment's labels. It reads every node's
 * labels first and refuses to move a node that is in another group already:
 * the DaemonSet controller deletes a node's pod as soon as its labels stop
 * matching, so relabeling every node in one loop restarts every engine at
 * once (the rollout of `dslc plan --format script` moves them by waves).
 * Nodes already labeled right are left alone; the table is "HOST SERVER
 * AGENT CLIENT [NODE]", '-' for no daos-server (a client-only node), NODE
 * the node's name in Kubernetes where it is not HOST (k8s_node_name). A
 * node Kubernetes does not have is named at the end, exit 1, after the
 * others are labeled: one node not joined yet holds back no other. The client
 * label (the client templates' group, kube_client.c) moves no DaemonSet's
 * pod: it is set, or overwritten, wherever it differs. */
static bool label_script(const model *m, const kube_layout *l, buf *out)
{
	buf_printf(out, "#!/bin/sh\n"
			"# Generated by dslc for system %s: gives every node with DAOS in pods the labels that\n"
			"# select its daos-server and daos-agent DaemonSets (a group per distinct config file),\n"
			"# for the first deployment and for nodes added later. It refuses to move a node that is\n"
			"# in another group already: the DaemonSet controller would delete its pods at once, and\n"
			"# every node's together. For a change, run the rollout of `dslc plan --format script`\n"
			"# against the tree in use: it relabels one wave at a time behind DAOS's gates.\n"
			"# It also sets each node's client template label (dslc.io/daos-client), which moves no\n"
			"# pod: run it again after a rollout that changes a node's fabric NICs.\n"
			"# Usage: label-nodes.sh [kubectl options, e.g. --context prod]\n"
			"set -eu\n"
			"nodes=$(cat <<'EOF'\n",
		   m->cluster.name);
	for (size_t i = 0; i < m->nnodes; i++) {
		const node *nd = &m->nodes[i];
		const node_plan *p = nd->spec->plan;
		if (!p || !p->kube_agent || !spec_in_pods(nd->spec))
			continue;
		buf_printf(out, "%s %s %s %s", nd->host, p->kube_server ? l->server[p->kube_server - 1].digest : "-",
			   l->agent[p->kube_agent - 1].digest, l->client[p->kube_client - 1].name);
		if (strcmp(node_k8s_name(nd), nd->host) != 0)
			buf_printf(out, " %s", node_k8s_name(nd));
		buf_puts(out, "\n");
	}
	buf_puts(out, "EOF\n"
		      ")\n"
		      "now=$(kubectl \"$@\" get nodes -o 'jsonpath={range .items[*]}{.metadata.name}{\"|\"}{.metadata.labels.dslc\\.io/daos-server}{\"|\"}{.metadata.labels.dslc\\.io/daos-agent}{\"|\"}{.metadata.labels.dslc\\.io/daos-client}{\"\\n\"}{end}')\n"
		      "# per node: \"move NODE ...\" (in another group now), \"missing NODE HOST\" (Kubernetes has no such\n"
		      "# node), \"label NODE SERVER AGENT CLIENT\", or nothing\n"
		      "todo=$(printf '%s\\n' \"$nodes\" | awk -v now=\"$now\" '\n"
		      "\tBEGIN { n = split(now, l, \"\\n\"); for (i = 1; i <= n; i++) { split(l[i], f, \"|\"); if (f[1] != \"\") { s[f[1]] = f[2]; a[f[1]] = f[3]; c[f[1]] = f[4] } } }\n"
		      "\t{ k = NF >= 5 ? $5 : $1; ws = $2 == \"-\" ? \"\" : $2 }\n"
		      "\t!(k in s) { print \"missing\", k, $1; next }\n"
		      "\t(s[k] != \"\" && s[k] != ws) || (a[k] != \"\" && a[k] != $3) {\n"
		      "\t\tprint \"move \" k \" (daos-server \" (s[k] == \"\" ? \"-\" : s[k]) \", daos-agent \" (a[k] == \"\" ? \"-\" : a[k]) \")\"; next }\n"
		      "\ts[k] != ws || a[k] != $3 || c[k] != $4 { print \"label\", k, $2, $3, $4 }')\n"
		      "if printf '%s\\n' \"$todo\" | grep -q '^move '; then\n"
		      "\techo 'label-nodes.sh: these nodes are in other groups already; moving them restarts their DAOS' >&2\n"
		      "\techo 'pods: roll the change out with `dslc plan --format script` instead:' >&2\n"
		      "\tprintf '%s\\n' \"$todo\" | sed -n 's/^move /  /p' >&2\n"
		      "\texit 1\n"
		      "fi\n"
		      "printf '%s\\n' \"$todo\" | while read -r what h s a c; do\n"
		      "\t[ \"$what\" = label ] || continue\n"
		      "\tif [ \"$s\" = - ]; then server=dslc.io/daos-server-; else server=dslc.io/daos-server=$s; fi\n"
		      "\t# --overwrite changes only the client label: the others were checked above\n"
		      "\tkubectl \"$@\" label node --overwrite \"$h\" \"$server\" \"dslc.io/daos-agent=$a\" \"dslc.io/daos-client=$c\"\n"
		      "done\n"
		      "missing=$(printf '%s\\n' \"$todo\" | awk '$1 == \"missing\" { printf \"%s%s%s\", s, $2, $3 != $2 ? \" (DAOS host \" $3 \")\" : \"\"; s = \", \" }')\n"
		      "if [ -n \"$missing\" ]; then\n"
		      "\techo \"label-nodes.sh: Kubernetes has no node named $missing (the nodes it has are labeled).\" >&2\n"
		      "\techo 'A node not joined yet is labeled by a run after it joins; a node name that differs from the' >&2\n"
		      "\techo 'DAOS host is given by k8s_node_name in its nodes block (kubectl get nodes shows the names).' >&2\n"
		      "\texit 1\n"
		      "fi\n"
	);
	return true;
}

static bool kustomization(const model *m, const kube_layout *l, buf *out)
{
	buf_puts(out, "# Generated by dslc: kubectl apply -k . (after a cluster admin applied rollout-rbac.yaml, and\n# label-nodes.sh)\n"
		      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"
		      "- namespace.yaml\n- device-plugins.yaml\n");
	if (kube_has_server_pods(m))
		buf_puts(out, "- disruption-budget.yaml\n");
	for (size_t i = 0; i < l->nserver; i++)
		buf_printf(out, "- daos-server-%s.yaml\n", l->server[i].digest);
	for (size_t i = 0; i < l->nagent; i++)
		buf_printf(out, "- daos-agent-%s.yaml\n", l->agent[i].digest);
	for (size_t i = 0; i < l->nclient; i++)
		buf_printf(out, "- daos-client-%s.yaml\n", l->client[i].name);
	return true;
}

target_result target_kubernetes(const model *m, target_file *tf)
{
	bool any = false;
	for (size_t i = 0; i < m->nspecs && !any; i++)
		any = kube_in_pods(m->specs[i]);
	if (!any || !m->cluster.kube.image.set || !m->cluster.kube.uid.set)
		return TARGET_SKIP;
	const kube_layout *l = layout(m);
	/* what the API server would refuse is not written, whatever the lint
	 * rules' settings (k8s-resource-name, k8s-client-hugepages,
	 * k8s-dra-unsupported) */
	const kube_spec *ks = &m->cluster.kube;
	const node_spec *old_kubelet;
	if (l->failed || !rdma_names_fit(m) || kube_client_hugepages_why(ks) || node_dra_why(m, &old_kubelet))
		return TARGET_FAIL;
	size_t i = (size_t)tf->index;
	bool ok = true;
	if (i == 0) {
		tf->path = "kubernetes/namespace.yaml";
		ok = namespace_yaml(m, tf->data);
	} else if (i == 1) {
		tf->path = "kubernetes/device-plugins.yaml";
		ok = kube_plugins_yaml(m, tf->data);
	} else if ((i -= 2) < l->nserver) {
		const kube_group *g = &l->server[i];
		tf->path = arena_printf(m->ar, "kubernetes/daos-server-%s.yaml", g->digest);
		ok = ky_doc(tf->data, m, server_config, g) && ky_doc(tf->data, m, server_daemonset, g);
	} else if ((i -= l->nserver) < l->nagent) {
		const kube_group *g = &l->agent[i];
		tf->path = arena_printf(m->ar, "kubernetes/daos-agent-%s.yaml", g->digest);
		ok = ky_doc(tf->data, m, agent_config, g) && ky_doc(tf->data, m, agent_daemonset, g);
	} else if ((i -= l->nagent) < l->nclient) {
		ok = kube_client_yaml(m, l->client[i].plan, tf);
	} else if ((i -= l->nclient) == 0) {
		tf->path = "kubernetes/label-nodes.sh";
		tf->mode = 0755;
		ok = label_script(m, l, tf->data);
	} else if (i == 1) {
		tf->path = "kubernetes/kustomization.yaml";
		ok = kustomization(m, l, tf->data);
	} else if (i == 2) {
		tf->path = "kubernetes/node-maintenance.sh";
		tf->mode = 0755;
		kube_maintenance_script(m, tf->data);
	} else if (i == 3) {
		tf->path = "kubernetes/rollout-rbac.yaml";
		ok = kube_rbac_yaml(m, tf->data);
	} else if ((i -= 4) == 0 && kube_has_server_pods(m)) { /* the optional ones, each present or not */
		tf->path = "kubernetes/disruption-budget.yaml";
		ok = kube_pdb_yaml(m, tf->data);
	} else if (i == (size_t)kube_has_server_pods(m) && m->cluster.kube.nclient_ns) {
		tf->path = "kubernetes/client-namespaces.yaml";
		const node_plan **groups = arena_alloc(m->ar, (l->nclient + 1) * sizeof(*groups));
		for (size_t g = 0; g < l->nclient; g++)
			groups[g] = l->client[g].plan;
		ok = kube_client_namespaces(m, groups, l->nclient, tf->data);
	} else {
		return TARGET_SKIP;
	}
	return ok ? TARGET_OK : TARGET_FAIL;
}
