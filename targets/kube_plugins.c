/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_plugins.c - cluster/kubernetes/device-plugins.yaml: the device
 * plugins that hand the DAOS pods their NICs and drives, as dslc's own
 * DaemonSets and ConfigMaps in the DAOS namespace. A site's kube-system
 * plugins (the upstream manifests' rdma-devices ConfigMap, a
 * generic-device-plugin with its own flags) are never touched: applying the
 * tree replaces only objects named and labeled as dslc's.
 *
 * k8s-rdma-shared-dev-plugin (Mellanox, deployment/k8s/base/daemonset.yaml:
 * hostNetwork, privileged, the kubelet's device-plugins and plugins_registry
 * directories, /dev, its configuration at /k8s-rdma-shared-dev-plugin/
 * config.json) and squat/generic-device-plugin (charts/generic-device-plugin:
 * privileged, device-plugins and /dev; --config names its file, config.go),
 * whose directory mountPath needs 0.1.0 or later. */
#include <string.h>

#include "compiler/base/strmap.h"
#include "compiler/place/kube.h"
#include "kube_yaml.h"

#define RDMA_PLUGIN "dslc-rdma-shared-dp"
#define VFIO_PLUGIN "dslc-vfio-dp"
#define PLUGIN_ACCOUNT "dslc-device-plugin"

/* The plugins whose configuration the rollout restarts (kube_ops.c). A
 * shared RDMA resource is the cluster's own plugin: dslc runs none. */
const char *kube_plugin_daemonsets(const model *m)
{
	return m->cluster.kube.rdma_shared.set ? VFIO_PLUGIN : RDMA_PLUGIN " " VFIO_PLUGIN;
}

/* k8s-rdma-shared-dev-plugin's config.json (pkg/types/types.go
 * UserConfigList): one resource per fabric NIC index (engine i's NIC on a
 * server, the i-th client NIC on a client-only node) selecting those NICs
 * by name. */
static const char *rdma_config(const model *m)
{
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
			if (!kube_in_pods(m->specs[i]) || e >= place_fabric_nic_count(p) || strmap_get(&seen, place_fabric_nic(p, e)->name))
				continue;
			strmap_put(&seen, place_fabric_nic(p, e)->name, (void *)1);
			buf_printf(&js, "%s\"%s\"", n++ ? ", " : "", place_fabric_nic(p, e)->name);
		}
		buf_puts(&js, "]}\n    }");
	}
	buf_puts(&js, "\n  ]\n}\n");
	const char *out = arena_strndup(m->ar, js.data, js.len);
	buf_free(&js);
	return out;
}

/* generic-device-plugin's config.yaml: one device per IOMMU group of a DAOS
 * drive, with /dev/vfio/vfio. dslc-vfio-bind makes each bound drive's group
 * device again under KUBE_VFIO_DEVDIR, and the plugin mounts <dir>/<group>
 * at /dev/vfio/<group> (deviceplugin/path.go: a mountPath ending in '/'
 * takes the match's base name), so a VFIO group the node gives to something
 * else (a VM's GPU) is never offered. */
static const char *vfio_config(const model *m)
{
	const char *nvme = kube_nvme_resource(m), *slash = strchr(nvme, '/');
	return arena_printf(m->ar,
			    "domain: %.*s\n"
			    "devices:\n"
			    "- name: %s\n"
			    "  groups:\n"
			    "  - paths:\n"
			    "    - path: /dev/vfio/vfio\n"
			    "      limit: 64\n"
			    "    - path: " KUBE_VFIO_DEVDIR "/*\n"
			    "      mountPath: /dev/vfio/\n",
			    (int)(slash - nvme), nvme, slash + 1);
}

typedef struct plugin {
	const char *name, *config_map, *key, *dir; /* the ConfigMap's file, mounted at dir */
	const char *node_label;                    /* runs where this label is */
	bool host_network;
	bool rdma;
} plugin;

static const plugin plugins[] = {
	/* the agent's nodes: servers and client-only nodes both have NICs */
	{RDMA_PLUGIN, "dslc-rdma-devices", "config.json", "/k8s-rdma-shared-dev-plugin", KUBE_LABEL_AGENT, true, true},
	/* drives only where a daos-server runs */
	{VFIO_PLUGIN, "dslc-vfio-devices", "config.yaml", "/etc/dslc-vfio", KUBE_LABEL_SERVER, false, false},
};

static void config_doc(yaml_out *y, const model *m, const void *arg)
{
	const plugin *pl = arg;
	ky_head(y, m, "v1", "ConfigMap", pl->config_map, pl->name, NULL, NULL);
	ky_map(y, "data");
	yo_name(y, pl->key);
	yo_literal(y, pl->rdma ? rdma_config(m) : vfio_config(m));
	yo_map_end(y);
	yo_map_end(y);
}

static void host_dir(yaml_out *y, const char *name, const char *path)
{
	ky_host_path(y, name, path, "Directory");
}

static void daemonset_doc(yaml_out *y, const model *m, const void *arg)
{
	const plugin *pl = arg;
	ky_head(y, m, "apps/v1", "DaemonSet", pl->name, pl->name, NULL, NULL);
	ky_map(y, "spec");
	ky_selector(y, pl->name, NULL, NULL);
	ky_pod_template(y, pl->name, NULL, NULL);
	yo_kv(y, "serviceAccountName", PLUGIN_ACCOUNT);
	ky_bool(y, "automountServiceAccountToken", false); /* it talks to the kubelet's socket, not the API */
	if (pl->host_network) /* it reads the host's netdevs and their RDMA devices */
		ky_bool(y, "hostNetwork", true);
	yo_kv(y, "priorityClassName", "system-node-critical");
	ky_seq(y, "tolerations");
	yo_map(y);
	yo_kv(y, "operator", "Exists");
	yo_map_end(y);
	yo_seq_end(y);
	ky_node_has_label(y, pl->node_label);
	ky_seq(y, "containers");
	yo_map(y);
	yo_kv(y, "name", pl->rdma ? "rdma-shared-dp" : "generic-device-plugin");
	yo_kv(y, "image", pl->rdma ? kube_rdma_plugin_image(m) : kube_vfio_plugin_image(m));
	/* pulled when the node first runs it, not at every restart: a restart
	 * needs no registry (Always, or a :latest tag, which makes it the
	 * default, would leave an air-gapped node's plugin in ImagePullBackOff
	 * and the DAOS pods Pending on their resources) */
	yo_kv(y, "imagePullPolicy", "IfNotPresent");
	if (!pl->rdma) {
		ky_seq(y, "args");
		yo_str(y, "--config");
		yo_str(y, arena_printf(m->ar, "%s/%s", pl->dir, pl->key));
		yo_seq_end(y);
	}
	ky_map(y, "securityContext");
	ky_bool(y, "privileged", true); /* device nodes of the host and the kubelet's sockets */
	yo_map_end(y);
	/* requests, so that the pod is Burstable and not among the first the
	 * kubelet evicts under memory pressure (BestEffort); generic-device-
	 * plugin's manifest asks 50m and 10Mi. No limit: a plugin killed at
	 * its limit takes the DAOS pods' devices with it */
	ky_map(y, "resources");
	ky_map(y, "requests");
	yo_kv(y, "cpu", "50m");
	yo_kv(y, "memory", "32Mi");
	yo_map_end(y);
	yo_map_end(y);
	ky_seq(y, "volumeMounts");
	ky_mount(y, "device-plugin", "/var/lib/kubelet/device-plugins", NULL, false);
	if (pl->rdma)
		ky_mount(y, "plugins-registry", "/var/lib/kubelet/plugins_registry", NULL, false);
	ky_mount(y, "config", pl->dir, NULL, true);
	ky_mount(y, "dev", "/dev", NULL, false);
	yo_seq_end(y);
	yo_map_end(y);
	yo_seq_end(y);
	ky_seq(y, "volumes");
	host_dir(y, "device-plugin", "/var/lib/kubelet/device-plugins");
	if (pl->rdma)
		host_dir(y, "plugins-registry", "/var/lib/kubelet/plugins_registry");
	yo_map(y);
	yo_kv(y, "name", "config");
	ky_map(y, "configMap");
	yo_kv(y, "name", pl->config_map);
	yo_map_end(y);
	yo_map_end(y);
	host_dir(y, "dev", "/dev");
	yo_seq_end(y);
	yo_map_end(y); /* pod spec */
	yo_map_end(y); /* template */
	yo_map_end(y); /* spec */
	yo_map_end(y);
}

bool kube_plugins_yaml(const model *m, buf *out)
{
	buf_puts(out, "# Generated by dslc: the device plugins of the DAOS pods, dslc's own (named dslc-*,\n"
		      "# in the DAOS namespace): a site's plugins in kube-system and their ConfigMaps stay as\n"
		      "# they are. Each reads its ConfigMap only at start: the rollout restarts it when this\n"
		      "# file changes.\n");
	for (size_t i = 0; i < sizeof(plugins) / sizeof(plugins[0]); i++) {
		/* a shared RDMA resource is the cluster's own plugin's */
		if (plugins[i].rdma && m->cluster.kube.rdma_shared.set)
			continue;
		if (!ky_doc(out, m, config_doc, &plugins[i]) || !ky_doc(out, m, daemonset_doc, &plugins[i]))
			return false;
	}
	return true;
}

const char *kube_plugin_account(void)
{
	return PLUGIN_ACCOUNT;
}
