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
#include "targets.h"
#include "yaml_out.h"

typedef struct kube_group {
	char digest[17];
	const char *yml; /* in the arena: the layout lives as long as the model */
	const node_spec *spec; /* the first spec with this file */
	size_t nodes;
} kube_group;

typedef struct kube_layout {
	kube_group *server, *agent;
	size_t nserver, nagent, server_cap, agent_cap;
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

/* Whether a spec's nodes run DAOS in pods (servers, or a client-only
 * node's agent) and can be rendered. */
static bool in_pods(const node_spec *s)
{
	return s->plan && s->plan->ok && spec_in_pods(s);
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
		if (!in_pods(s))
			continue;
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

/* ---- YAML helpers ---------------------------------------------------------- */

static void ki(yaml_out *y, const char *k, int64_t v)
{
	yo_name(y, k);
	yo_int(y, v);
}

static void kb(yaml_out *y, const char *k, bool v)
{
	yo_name(y, k);
	yo_bool(y, v);
}

static void km(yaml_out *y, const char *k)
{
	yo_name(y, k);
	yo_map(y);
}

static void ks_(yaml_out *y, const char *k)
{
	yo_name(y, k);
	yo_seq(y);
}

static void metadata(yaml_out *y, const model *m, const char *name, const char *app, const char *label, const char *digest)
{
	km(y, "metadata");
	yo_kv(y, "name", name);
	yo_kv(y, "namespace", kube_namespace(m));
	km(y, "labels");
	yo_kv(y, "app.kubernetes.io/name", app);
	yo_kv(y, "app.kubernetes.io/part-of", m->cluster.name);
	yo_kv(y, "app.kubernetes.io/managed-by", "dslc");
	if (label)
		yo_kv(y, label, digest);
	yo_map_end(y);
	yo_map_end(y);
}

static void config_map(yaml_out *y, const model *m, const char *name, const char *app, const char *label,
		       const kube_group *g, const char *key)
{
	yo_map(y);
	yo_kv(y, "apiVersion", "v1");
	yo_kv(y, "kind", "ConfigMap");
	metadata(y, m, name, app, label, g->digest);
	/* its name changes with its content: it never needs to */
	kb(y, "immutable", true);
	km(y, "data");
	yo_name(y, key);
	yo_literal(y, g->yml);
	yo_map_end(y);
	yo_map_end(y);
}

static void host_path(yaml_out *y, const char *name, const char *path, const char *type)
{
	yo_map(y);
	yo_kv(y, "name", name);
	km(y, "hostPath");
	yo_kv(y, "path", path);
	yo_kv(y, "type", type);
	yo_map_end(y);
	yo_map_end(y);
}

static void empty_dir(yaml_out *y, const char *name, const char *medium)
{
	yo_map(y);
	yo_kv(y, "name", name);
	km(y, "emptyDir");
	if (medium)
		yo_kv(y, "medium", medium);
	yo_map_end(y);
	yo_map_end(y);
}

static void mount(yaml_out *y, const char *name, const char *path, const char *sub, bool ro)
{
	yo_map(y);
	yo_kv(y, "name", name);
	yo_kv(y, "mountPath", path);
	if (sub)
		yo_kv(y, "subPath", sub);
	if (ro)
		kb(y, "readOnly", true);
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
	ks_(y, "initContainers");
	yo_map(y);
	yo_kv(y, "name", "certificates");
	yo_kv(y, "image", m->cluster.kube.image.v);
	ks_(y, "command");
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
	ks_(y, "volumeMounts");
	mount(y, "certs-in", "/certs-in", NULL, true);
	mount(y, "certs", "/etc/daos/certs", NULL, false);
	yo_seq_end(y);
	yo_map_end(y);
	yo_seq_end(y);
}

static void cert_volumes(yaml_out *y, bool server)
{
	empty_dir(y, "certs", NULL);
	yo_map(y);
	yo_kv(y, "name", "certs-in");
	km(y, "secret");
	yo_kv(y, "secretName", server ? "daos-server-certs" : "daos-agent-certs");
	ki(y, "defaultMode", 0440); /* group-readable: the init container reads as fsGroup */
	ks_(y, "items");
	const char *files[] = {"daosCA.crt", server ? "server.crt" : "agent.crt", server ? "server.key" : "agent.key",
		server ? "agent.crt" : NULL};
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

static void pod_common(yaml_out *y, const char *label, const char *digest, int64_t uid, int64_t gid,
		       bool host_pid)
{
	km(y, "nodeSelector");
	yo_kv(y, label, digest);
	yo_map_end(y);
	/* neither daemon calls the API server: no token in the pod */
	kb(y, "automountServiceAccountToken", false);
	kb(y, "hostNetwork", true);
	if (host_pid)
		kb(y, "hostPID", true);
	/* the node's resolver: they resolve only host names (access points),
	 * and start before CoreDNS can run */
	yo_kv(y, "dnsPolicy", "Default");
	yo_kv(y, "priorityClassName", "system-node-critical");
	ki(y, "terminationGracePeriodSeconds", KUBE_POD_GRACE_SECONDS);
	ks_(y, "tolerations");
	yo_map(y);
	yo_kv(y, "operator", "Exists");
	yo_map_end(y);
	yo_seq_end(y);
	km(y, "securityContext");
	ki(y, "runAsUser", uid);
	ki(y, "runAsGroup", gid);
	ki(y, "fsGroup", gid);
	yo_map_end(y);
}

static void daemonset_head(yaml_out *y, const model *m, const char *name, const char *app, const char *label,
			   const char *digest)
{
	const kube_spec *ks = &m->cluster.kube;
	yo_kv(y, "apiVersion", "apps/v1");
	yo_kv(y, "kind", "DaemonSet");
	metadata(y, m, name, app, label, digest);
	km(y, "spec");
	km(y, "selector");
	km(y, "matchLabels");
	yo_kv(y, "app.kubernetes.io/name", app);
	yo_kv(y, label, digest);
	yo_map_end(y);
	yo_map_end(y);
	km(y, "updateStrategy");
	if (ks->update.set && strcmp(ks->update.v, "rolling") == 0) {
		yo_kv(y, "type", "RollingUpdate");
		km(y, "rollingUpdate");
		ki(y, "maxSurge", ks->surge.set ? ks->surge.v : 0);
		ki(y, "maxUnavailable", 1);
		yo_map_end(y);
	} else {
		yo_kv(y, "type", "OnDelete");
	}
	yo_map_end(y);
	km(y, "template");
	km(y, "metadata");
	km(y, "labels");
	yo_kv(y, "app.kubernetes.io/name", app);
	yo_kv(y, label, digest);
	yo_map_end(y);
	yo_map_end(y);
	km(y, "spec");
}

/* One RDMA resource per fabric NIC: <rdma_resource>_e<i> selects the NIC at
 * index i (plugins_doc); or the cluster's one shared resource, once. */
static void rdma_resources(yaml_out *y, const model *m, const node_plan *p)
{
	if (m->cluster.kube.rdma_shared.set) {
		if (place_fabric_nic_count(p))
			yo_kv(y, kube_rdma_resource(m), "1");
		return;
	}
	for (int i = 0; i < place_fabric_nic_count(p); i++)
		yo_kv(y, arena_printf(m->ar, "%s_e%d", kube_rdma_resource(m), i), "1");
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
	km(y, "resources");
	for (int lim = 0; lim < 2; lim++) {
		km(y, lim ? "limits" : "requests");
		if (!lim)
			yo_kv(y, "cpu", server ? "1" : "100m"); /* small: its cores are reserved already; no limit */
		yo_kv(y, "memory", server ? yo_quantity(a, kp->memory) : "1Gi");
		if (server)
			yo_kv(y, kp->hugepage_resource, yo_quantity(a, (uint64_t)kp->hugepages * kp->hugepage_size));
		rdma_resources(y, m, p);
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
	ks_(y, "volumes");
	yo_map(y);
	yo_kv(y, "name", "config");
	km(y, "configMap");
	yo_kv(y, "name", name);
	yo_map_end(y);
	yo_map_end(y);
	if (secure(m))
		cert_volumes(y, server);
}

static void server_daemonset(yaml_out *y, const model *m, const kube_group *g)
{
	const kube_spec *ks = &m->cluster.kube;
	const node_plan *p = g->spec->plan;
	const kube_plan *kp = kube_plan_of(m, g->spec);
	const char *name = arena_printf(m->ar, "daos-server-%s", g->digest);
	yo_map(y);
	daemonset_head(y, m, name, "daos-server", KUBE_LABEL_SERVER, g->digest);
	pod_common(y, KUBE_LABEL_SERVER, g->digest, ks->uid.v, ks->gid.v, false);
	if (secure(m))
		cert_init(y, m, true);
	ks_(y, "containers");
	yo_map(y);
	yo_kv(y, "name", "daos-server");
	yo_kv(y, "image", ks->image.v);
	ks_(y, "command");
	yo_str(y, "daos_server");
	yo_str(y, "start");
	yo_str(y, "-o");
	yo_str(y, "/etc/daos/daos_server.yml");
	yo_seq_end(y);
	km(y, "securityContext");
	kb(y, "allowPrivilegeEscalation", true); /* the setuid daos_server_helper */
	km(y, "capabilities");
	ks_(y, "add");
	yo_str(y, "SYS_ADMIN"); /* the helper mounts the SCM tmpfs */
	yo_str(y, "IPC_LOCK");  /* SPDK's DMA mappings */
	yo_seq_end(y);
	yo_map_end(y);
	km(y, "appArmorProfile"); /* containerd's default profile denies mount */
	yo_kv(y, "type", "Unconfined");
	yo_map_end(y);
	yo_map_end(y);
	resources(y, m, p, kp, true);
	km(y, "readinessProbe");
	km(y, "tcpSocket");
	ki(y, "port", m->cluster.port.set ? m->cluster.port.v : 10001);
	yo_map_end(y);
	ki(y, "periodSeconds", 10);
	yo_map_end(y);
	ks_(y, "volumeMounts");
	mount(y, "config", "/etc/daos/daos_server.yml", "daos_server.yml", true);
	if (secure(m))
		mount(y, "certs", "/etc/daos/certs", NULL, true);
	mount(y, "hugepages", "/dev/hugepages", NULL, false);
	mount(y, "run", "/var/run/daos_server", NULL, false);
	mount(y, "metadata", "/var/daos/config", NULL, false);
	mount(y, "logs", "/var/log/daos", NULL, false);
	for (int i = 0; i < p->nengines; i++)
		mount(y, arena_printf(m->ar, "scm%d", i), p->engines[i].scm_mount, NULL, false);
	volumes_begin(y, m, name, true);
	empty_dir(y, "hugepages", kp->hugepage_medium);
	empty_dir(y, "run", NULL);
	/* made with the daemon's owner by the node's tmpfiles.d (pod_host.c):
	 * Directory, so that a node without them says so at the pod's start */
	host_path(y, "metadata", KUBE_METADATA_DIR, "Directory");
	host_path(y, "logs", KUBE_SERVER_LOG_DIR, "Directory");
	for (int i = 0; i < p->nengines; i++)
		empty_dir(y, arena_printf(m->ar, "scm%d", i), NULL); /* the helper mounts tmpfs here, in the pod */
	yo_seq_end(y);
	yo_map_end(y); /* pod spec */
	yo_map_end(y); /* template */
	yo_map_end(y); /* spec */
	yo_map_end(y);
}

static void agent_daemonset(yaml_out *y, const model *m, const kube_group *g)
{
	const kube_spec *ks = &m->cluster.kube;
	const char *name = arena_printf(m->ar, "daos-agent-%s", g->digest);
	int64_t uid = ks->agent_uid.set ? ks->agent_uid.v : ks->uid.v, gid = ks->agent_uid.set ? ks->agent_gid.v : ks->gid.v;
	yo_map(y);
	daemonset_head(y, m, name, "daos-agent", KUBE_LABEL_AGENT, g->digest);
	/* hostPID: the agent maps a client's PID (SO_PEERCRED) to its NUMA node */
	pod_common(y, KUBE_LABEL_AGENT, g->digest, uid, gid, true);
	if (secure(m))
		cert_init(y, m, false);
	ks_(y, "containers");
	yo_map(y);
	yo_kv(y, "name", "daos-agent");
	yo_kv(y, "image", ks->image.v);
	ks_(y, "command");
	yo_str(y, "daos_agent");
	yo_str(y, "-o");
	yo_str(y, "/etc/daos/daos_agent.yml");
	yo_seq_end(y);
	ks_(y, "env");
	yo_map(y);
	yo_kv(y, "name", "HWLOC_ALLOW"); /* clients' CPUs lie outside the agent's cpuset */
	yo_kv(y, "value", "all");
	yo_map_end(y);
	yo_seq_end(y);
	resources(y, m, g->spec->plan, NULL, false);
	ks_(y, "volumeMounts");
	mount(y, "config", "/etc/daos/daos_agent.yml", "daos_agent.yml", true);
	if (secure(m))
		mount(y, "certs", "/etc/daos/certs", NULL, true);
	mount(y, "socket", AGENT_RUNTIME_DIR, NULL, false);
	mount(y, "logs", "/var/log/daos", NULL, false);
	/* DAOS 2.6 resolves client uids to names inside the agent */
	mount(y, "passwd", "/etc/passwd", NULL, true);
	mount(y, "group", "/etc/group", NULL, true);
	volumes_begin(y, m, name, false);
	host_path(y, "socket", AGENT_RUNTIME_DIR, "Directory"); /* for client pods; tmpfiles.d made it */
	host_path(y, "logs", KUBE_AGENT_LOG_DIR, "Directory");
	host_path(y, "passwd", "/etc/passwd", "File");
	host_path(y, "group", "/etc/group", "File");
	yo_seq_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

/* One document of a multi-document file. */
static bool doc(buf *out, const model *m, void (*fn)(yaml_out *, const model *, const kube_group *), const kube_group *g)
{
	if (out->len)
		buf_puts(out, "---\n");
	yaml_out y;
	if (!yo_begin(&y, out, m->release))
		return false;
	fn(&y, m, g);
	return yo_end(&y);
}

static void server_config(yaml_out *y, const model *m, const kube_group *g)
{
	config_map(y, m, arena_printf(m->ar, "daos-server-%s", g->digest), "daos-server", KUBE_LABEL_SERVER, g, "daos_server.yml");
}

static void agent_config(yaml_out *y, const model *m, const kube_group *g)
{
	config_map(y, m, arena_printf(m->ar, "daos-agent-%s", g->digest), "daos-agent", KUBE_LABEL_AGENT, g, "daos_agent.yml");
}

static void namespace_doc(yaml_out *y, const model *m, const kube_group *g)
{
	(void)g;
	yo_map(y);
	yo_kv(y, "apiVersion", "v1");
	yo_kv(y, "kind", "Namespace");
	km(y, "metadata");
	yo_kv(y, "name", kube_namespace(m));
	km(y, "labels");
	yo_kv(y, "app.kubernetes.io/managed-by", "dslc");
	/* hostNetwork, hostPID, hostPath and SYS_ADMIN: the privileged level */
	yo_kv(y, "pod-security.kubernetes.io/enforce", "privileged");
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

/* A namespace of client pods (client_namespace): the Pod Security level
 * the client template needs. baseline forbids hostNetwork and hostPath
 * volumes (k8s.io/pod-security-admission policy check_hostNamespaces.go,
 * check_hostPathVolumes.go); restricted more so. No managed-by label: the
 * namespace is its users', dslc only sets these labels. */
static bool client_namespaces(const model *m, buf *out)
{
	buf_puts(out, "# Generated by dslc: the namespaces whose pods use the DAOS client templates. A\n"
		      "# template needs hostNetwork and a hostPath volume (the agent's socket), which the\n"
		      "# baseline Pod Security level forbids: these namespaces enforce privileged.\n");
	for (size_t k = 0; k < m->cluster.kube.nclient_ns; k++) {
		if (k)
			buf_puts(out, "---\n");
		yaml_out y;
		if (!yo_begin(&y, out, m->release))
			return false;
		yo_map(&y);
		yo_kv(&y, "apiVersion", "v1");
		yo_kv(&y, "kind", "Namespace");
		km(&y, "metadata");
		yo_kv(&y, "name", m->cluster.kube.client_ns[k].v);
		km(&y, "labels");
		yo_kv(&y, "pod-security.kubernetes.io/enforce", "privileged");
		yo_map_end(&y);
		yo_map_end(&y);
		yo_map_end(&y);
		if (!yo_end(&y))
			return false;
	}
	return true;
}

/* The device plugins' configurations, as ConfigMaps in kube-system:
 * k8s-rdma-shared-dev-plugin (config.json, pkg/types/types.go UserConfigList)
 * with one resource per fabric NIC index (engine i's NIC on a server, the
 * i-th client NIC on a client-only node) selecting those NICs, and
 * squat/generic-device-plugin (config.yaml, config.go) with one device per
 * IOMMU group of a DAOS drive, with /dev/vfio/vfio: dslc-vfio-bind makes
 * each bound drive's group device again under KUBE_VFIO_DEVDIR, and the
 * plugin mounts <dir>/<group> at /dev/vfio/<group> (deviceplugin/path.go:
 * a mountPath ending in '/' takes the match's base name), so a VFIO group
 * the node gives to something else (a VM's GPU) is never offered. */
static void plugins_doc(yaml_out *y, const model *m, const kube_group *g)
{
	(void)g;
	const char *rdma = kube_rdma_resource(m), *slash = strchr(rdma, '/');
	int nics = kube_fabric_nics(m);
	buf js;
	buf_init(&js);
	buf_puts(&js, "{\n  \"periodicUpdateInterval\": 300,\n  \"configList\": [");
	for (int e = 0; e < nics; e++) {
		buf_printf(&js, "%s\n    {\n      \"resourceName\": \"%s_e%d\",\n      \"resourcePrefix\": \"%.*s\",\n"
			   "      \"rdmaHcaMax\": 64,\n      \"selectors\": {\"ifNames\": [", e ? "," : "", slash + 1, e,
			   (int)(slash - rdma), rdma);
		strmap seen;
		strmap_init(&seen, m->ar);
		int n = 0;
		for (size_t i = 0; i < m->nspecs; i++) {
			const node_plan *p = m->specs[i]->plan;
			if (!in_pods(m->specs[i]) || e >= place_fabric_nic_count(p) || strmap_get(&seen, place_fabric_nic(p, e)->name))
				continue;
			strmap_put(&seen, place_fabric_nic(p, e)->name, (void *)1);
			buf_printf(&js, "%s\"%s\"", n++ ? ", " : "", place_fabric_nic(p, e)->name);
		}
		buf_puts(&js, "]}\n    }");
	}
	buf_puts(&js, "\n  ]\n}\n");
	yo_map(y);
	yo_kv(y, "apiVersion", "v1");
	yo_kv(y, "kind", "ConfigMap");
	km(y, "metadata");
	yo_kv(y, "name", "rdma-devices");
	yo_kv(y, "namespace", "kube-system");
	yo_map_end(y);
	km(y, "data");
	yo_name(y, "config.json");
	yo_literal(y, arena_strndup(m->ar, js.data, js.len));
	yo_map_end(y);
	yo_map_end(y);
	buf_free(&js);
}

static void vfio_plugin_doc(yaml_out *y, const model *m, const kube_group *g)
{
	(void)g;
	const char *nvme = kube_nvme_resource(m), *slash = strchr(nvme, '/');
	yo_map(y);
	yo_kv(y, "apiVersion", "v1");
	yo_kv(y, "kind", "ConfigMap");
	km(y, "metadata");
	yo_kv(y, "name", "generic-device-plugin");
	yo_kv(y, "namespace", "kube-system");
	yo_map_end(y);
	km(y, "data");
	yo_name(y, "config.yaml");
	yo_literal(y, arena_printf(m->ar,
				   "domain: %.*s\n"
				   "devices:\n"
				   "- name: %s\n"
				   "  groups:\n"
				   "  - paths:\n"
				   "    - path: /dev/vfio/vfio\n"
				   "      limit: 64\n"
				   "    - path: " KUBE_VFIO_DEVDIR "/*\n"
				   "      mountPath: /dev/vfio/\n",
				   (int)(slash - nvme), nvme, slash + 1));
	yo_map_end(y);
	yo_map_end(y);
}

/* The client pod template of an agent group (facts, section 5): what a
 * training pod on the group's nodes needs to reach DAOS through libdfs or
 * pydaos. A PodTemplate is an object the API server validates and
 * `kubectl get podtemplate` shows; a job copies its spec. No dfuse here:
 * FUSE in a pod needs /dev/fuse and SYS_ADMIN, and sharing the mount needs
 * privileged Bidirectional propagation (pkg/apis/core/validation). */
static void client_template(yaml_out *y, const model *m, const kube_group *g)
{
	const kube_spec *ks = &m->cluster.kube;
	const node_plan *p = g->spec->plan;
	yo_map(y);
	yo_kv(y, "apiVersion", "v1");
	yo_kv(y, "kind", "PodTemplate");
	metadata(y, m, arena_printf(m->ar, "daos-client-%s", g->digest), "daos-client", KUBE_LABEL_AGENT, g->digest);
	km(y, "template");
	km(y, "metadata");
	km(y, "labels");
	yo_kv(y, "app.kubernetes.io/name", "daos-client");
	yo_map_end(y);
	yo_map_end(y);
	km(y, "spec");
	km(y, "nodeSelector"); /* the nodes whose agent has this file */
	yo_kv(y, KUBE_LABEL_AGENT, g->digest);
	yo_map_end(y);
	/* the agent's fabric interfaces are the host's: the client must see the same */
	kb(y, "hostNetwork", true);
	yo_kv(y, "dnsPolicy", "ClusterFirstWithHostNet");
	ks_(y, "containers");
	yo_map(y);
	yo_kv(y, "name", "training");
	yo_kv(y, "image", ks->client_image.set ? ks->client_image.v : ks->image.v);
	ks_(y, "env");
	yo_map(y);
	/* the client library reads no config file: this is where it looks
	 * for the agent's socket (src/include/daos/agent.h) */
	yo_kv(y, "name", "DAOS_AGENT_DRPC_DIR");
	yo_kv(y, "value", AGENT_RUNTIME_DIR);
	yo_map_end(y);
	yo_seq_end(y);
	/* the storage NICs only: CPU and memory are the job's to choose; a
	 * limit alone sets the request of an extended resource */
	km(y, "resources");
	km(y, "limits");
	rdma_resources(y, m, p);
	/* the GDS guide's training pod: GPUs, huge pages, memory, IPC_LOCK */
	if (ks->client_gpus.set)
		yo_kv(y, "nvidia.com/gpu", arena_printf(m->ar, "%lld", (long long)ks->client_gpus.v));
	if (ks->client_hugepages.set)
		yo_kv(y, "hugepages-2Mi", yo_quantity(m->ar, (uint64_t)ks->client_hugepages.v));
	if (ks->client_memory.set)
		yo_kv(y, "memory", yo_quantity(m->ar, (uint64_t)ks->client_memory.v));
	yo_map_end(y);
	yo_map_end(y);
	if (ks->client_ipc_lock.set && ks->client_ipc_lock.v) {
		km(y, "securityContext");
		km(y, "capabilities");
		ks_(y, "add");
		yo_str(y, "IPC_LOCK");
		yo_seq_end(y);
		yo_map_end(y);
		yo_map_end(y);
	}
	ks_(y, "volumeMounts");
	mount(y, "daos-agent-socket", AGENT_RUNTIME_DIR, NULL, true);
	yo_seq_end(y);
	yo_map_end(y); /* the container */
	yo_seq_end(y);
	ks_(y, "volumes");
	host_path(y, "daos-agent-socket", AGENT_RUNTIME_DIR, "Directory"); /* the agent pod made it */
	yo_seq_end(y);
	yo_map_end(y); /* spec */
	yo_map_end(y); /* template */
	yo_map_end(y);
}

/* What the template cannot say: the pod API has no rlimits. */
static void client_header(const model *m, const kube_group *g, buf *out)
{
	buf_printf(out, "# Generated by dslc for system %s: the pod template of a DAOS client on the nodes\n"
			"# labeled %s=%s. Copy its template into a training job: the agent\n"
			"# socket (read-only), host networking and the storage NICs' RDMA resources. Memory\n"
			"# locking comes from the node: containerd runs with LimitMEMLOCK=infinity (dslc's\n"
			"# etc/systemd/system/containerd.service.d/50-dslc.conf); a pod cannot raise it.\n"
			"# Pod Security: hostNetwork and the hostPath volume need the privileged level in the\n"
			"# job's namespace (baseline forbids both); `client_namespace <name>` in the kubernetes\n"
			"# block writes that label (client-namespaces.yaml).\n",
		   m->cluster.name, KUBE_LABEL_AGENT, g->digest);
}

/* label-nodes.sh: the first deployment's labels. It reads every node's
 * labels first and refuses to move a node that is in another group already:
 * the DaemonSet controller deletes a node's pod as soon as its labels stop
 * matching, so relabeling every node in one loop restarts every engine at
 * once (the rollout of `dslc plan --format script` moves them by waves).
 * Nodes already labeled right are left alone; the table is "HOST SERVER
 * AGENT", '-' for no daos-server (a client-only node). */
static bool label_script(const model *m, const kube_layout *l, buf *out)
{
	buf_printf(out, "#!/bin/sh\n"
			"# Generated by dslc for system %s: gives every node with DAOS in pods the labels that\n"
			"# select its daos-server and daos-agent DaemonSets (a group per distinct config file),\n"
			"# for the first deployment and for nodes added later. It refuses to move a node that is\n"
			"# in another group already: the DaemonSet controller would delete its pods at once, and\n"
			"# every node's together. For a change, run the rollout of `dslc plan --format script`\n"
			"# against the tree in use: it relabels one wave at a time behind DAOS's gates.\n"
			"# Usage: label-nodes.sh [kubectl options, e.g. --context prod]\n"
			"set -eu\n"
			"nodes=$(cat <<'EOF'\n",
		   m->cluster.name);
	for (size_t i = 0; i < m->nnodes; i++) {
		const node *nd = &m->nodes[i];
		const node_plan *p = nd->spec->plan;
		if (!p || !p->kube_agent || !spec_in_pods(nd->spec))
			continue;
		buf_printf(out, "%s %s %s\n", nd->host, p->kube_server ? l->server[p->kube_server - 1].digest : "-",
			   l->agent[p->kube_agent - 1].digest);
	}
	buf_puts(out, "EOF\n"
		      ")\n"
		      "now=$(kubectl \"$@\" get nodes -o 'jsonpath={range .items[*]}{.metadata.name}{\"|\"}{.metadata.labels.dslc\\.io/daos-server}{\"|\"}{.metadata.labels.dslc\\.io/daos-agent}{\"\\n\"}{end}')\n"
		      "# per node: \"move HOST ...\" (in another group now), \"label HOST SERVER AGENT\", or nothing\n"
		      "todo=$(printf '%s\\n' \"$nodes\" | awk -v now=\"$now\" '\n"
		      "\tBEGIN { n = split(now, l, \"\\n\"); for (i = 1; i <= n; i++) { split(l[i], f, \"|\"); s[f[1]] = f[2]; a[f[1]] = f[3] } }\n"
		      "\t{ ws = $2 == \"-\" ? \"\" : $2 }\n"
		      "\t(s[$1] != \"\" && s[$1] != ws) || (a[$1] != \"\" && a[$1] != $3) {\n"
		      "\t\tprint \"move \" $1 \" (daos-server \" (s[$1] == \"\" ? \"-\" : s[$1]) \", daos-agent \" (a[$1] == \"\" ? \"-\" : a[$1]) \")\"; next }\n"
		      "\ts[$1] != ws || a[$1] != $3 { print \"label\", $1, $2, $3 }')\n"
		      "if printf '%s\\n' \"$todo\" | grep -q '^move '; then\n"
		      "\techo 'label-nodes.sh: these nodes are in other groups already; moving them restarts their DAOS' >&2\n"
		      "\techo 'pods: roll the change out with `dslc plan --format script` instead:' >&2\n"
		      "\tprintf '%s\\n' \"$todo\" | sed -n 's/^move /  /p' >&2\n"
		      "\texit 1\n"
		      "fi\n"
		      "printf '%s\\n' \"$todo\" | while read -r what h s a; do\n"
		      "\t[ \"$what\" = label ] || continue\n"
		      "\tif [ \"$s\" = - ]; then server=dslc.io/daos-server-; else server=dslc.io/daos-server=$s; fi\n"
		      "\tkubectl \"$@\" label node \"$h\" \"$server\" \"dslc.io/daos-agent=$a\"\n"
		      "done\n");
	return true;
}

static bool kustomization(const model *m, const kube_layout *l, buf *out)
{
	buf_puts(out, "# Generated by dslc: kubectl apply -k . (after label-nodes.sh)\n"
		      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"
		      "- namespace.yaml\n- device-plugins.yaml\n");
	if (kube_has_server_pods(m))
		buf_puts(out, "- disruption-budget.yaml\n");
	if (m->cluster.kube.nclient_ns)
		buf_puts(out, "- client-namespaces.yaml\n");
	for (size_t i = 0; i < l->nserver; i++)
		buf_printf(out, "- daos-server-%s.yaml\n", l->server[i].digest);
	for (size_t i = 0; i < l->nagent; i++)
		buf_printf(out, "- daos-agent-%s.yaml\n", l->agent[i].digest);
	for (size_t i = 0; i < l->nagent; i++)
		buf_printf(out, "- daos-client-%s.yaml\n", l->agent[i].digest);
	return true;
}

target_result target_kubernetes(const model *m, target_file *tf)
{
	bool any = false;
	for (size_t i = 0; i < m->nspecs && !any; i++)
		any = in_pods(m->specs[i]);
	if (!any || !m->cluster.kube.image.set || !m->cluster.kube.uid.set)
		return TARGET_SKIP;
	const kube_layout *l = layout(m);
	/* what the API server would refuse is not written, whatever the lint
	 * rules' settings (k8s-resource-name, k8s-client-hugepages) */
	const kube_spec *ks = &m->cluster.kube;
	if (l->failed || !rdma_names_fit(m) || kube_client_hugepages_why(ks))
		return TARGET_FAIL;
	size_t i = (size_t)tf->index;
	bool ok = true;
	if (i == 0) {
		tf->path = "kubernetes/namespace.yaml";
		ok = doc(tf->data, m, namespace_doc, NULL);
	} else if (i == 1) {
		tf->path = "kubernetes/device-plugins.yaml";
		/* a shared RDMA resource is the cluster's own plugin configuration */
		ok = (m->cluster.kube.rdma_shared.set || doc(tf->data, m, plugins_doc, NULL)) &&
		     doc(tf->data, m, vfio_plugin_doc, NULL);
	} else if ((i -= 2) < l->nserver) {
		const kube_group *g = &l->server[i];
		tf->path = arena_printf(m->ar, "kubernetes/daos-server-%s.yaml", g->digest);
		ok = doc(tf->data, m, server_config, g) && doc(tf->data, m, server_daemonset, g);
	} else if ((i -= l->nserver) < l->nagent) {
		const kube_group *g = &l->agent[i];
		tf->path = arena_printf(m->ar, "kubernetes/daos-agent-%s.yaml", g->digest);
		ok = doc(tf->data, m, agent_config, g) && doc(tf->data, m, agent_daemonset, g);
	} else if ((i -= l->nagent) < l->nagent) {
		const kube_group *g = &l->agent[i];
		tf->path = arena_printf(m->ar, "kubernetes/daos-client-%s.yaml", g->digest);
		client_header(m, g, tf->data);
		ok = doc(tf->data, m, client_template, g);
	} else if ((i -= l->nagent) == 0) {
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
		ok = client_namespaces(m, tf->data);
	} else {
		return TARGET_SKIP;
	}
	return ok ? TARGET_OK : TARGET_FAIL;
}
