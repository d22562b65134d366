/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_client.c - what a training pod needs beside the DAOS pods: the
 * client pod templates (cluster/kubernetes/daos-client-*.yaml) and the Pod
 * Security labels of its namespaces (client-namespaces.yaml).
 *
 * A template is for the nodes with the same RDMA resources (the number of
 * fabric NICs, or the one shared resource) and the same NCCL_IB_HCA,
 * selected by the node label dslc.io/daos-client: that label never changes
 * with the agent's configuration, so jobs built from a template keep
 * scheduling across rollouts, and the template is never pruned under them. */
#include <string.h>

#include "compiler/base/sha256.h"
#include "compiler/place/clients.h"
#include "compiler/place/kube.h"
#include "kube_yaml.h"

void kube_rdma_limits(yaml_out *y, const model *m, const node_plan *p)
{
	/* one RDMA resource per fabric NIC: <rdma_resource>_e<i> selects the
	 * NIC at index i (kube_plugins.c); or the cluster's one shared
	 * resource, once */
	if (m->cluster.kube.rdma_shared.set) {
		if (place_fabric_nic_count(p))
			yo_kv(y, kube_rdma_resource(m), "1");
		return;
	}
	for (int i = 0; i < place_fabric_nic_count(p); i++)
		yo_kv(y, arena_printf(m->ar, "%s_e%d", kube_rdma_resource(m), i), "1");
}

/* The group's name: its RDMA resources, and with `nccl on` the first 8
 * hex digits of NCCL_IB_HCA's SHA-256 (a device list is too long for a
 * label value, 63 characters), since the template's env carries it: nodes
 * whose NCCL must use other devices get another template. */
const char *kube_client_group(const model *m, const node_plan *p)
{
	const char *rdma = m->cluster.kube.rdma_shared.set ? "shared" : arena_printf(m->ar, "%dnic", place_fabric_nic_count(p));
	const char *hca = p->spec ? clients_nccl_hca(m->ar, p->spec) : NULL;
	if (!hca)
		return rdma;
	char hex[65];
	sha256_hex(hca, strlen(hca), hex);
	return arena_printf(m->ar, "%s-nccl-%.8s", rdma, hex);
}

static void limits(yaml_out *y, const model *m, const node_plan *p)
{
	const kube_spec *ks = &m->cluster.kube;
	/* the storage NICs; a limit alone sets the request, so with cpus and
	 * memory the pod is Guaranteed (k8s-client-qos) */
	ky_map(y, "resources");
	ky_map(y, "limits");
	kube_rdma_limits(y, m, p);
	/* the GDS guide's training pod: GPUs, huge pages, memory, IPC_LOCK */
	if (ks->client_gpus.set && !ks->client_gpu_class.set)
		yo_kv(y, "nvidia.com/gpu", arena_printf(m->ar, "%lld", (long long)ks->client_gpus.v));
	if (ks->client_cpus.set) /* whole CPUs: the static CPU manager's exclusive ones */
		yo_kv(y, "cpu", arena_printf(m->ar, "%lld", (long long)ks->client_cpus.v));
	if (ks->client_hugepages.set)
		yo_kv(y, "hugepages-2Mi", yo_quantity(m->ar, (uint64_t)ks->client_hugepages.v));
	if (ks->client_memory.set)
		yo_kv(y, "memory", yo_quantity(m->ar, (uint64_t)ks->client_memory.v));
	yo_map_end(y);
	if (ks->client_gpu_class.set) { /* the pod's claim, by the name resourceClaims gives it */
		ky_seq(y, "claims");
		yo_map(y);
		yo_kv(y, "name", "gpus");
		yo_map_end(y);
		yo_seq_end(y);
	}
	yo_map_end(y);
}

/* The ResourceClaimTemplate of a group's GPUs (client_gpu_class), in each
 * client namespace: its name. */
static const char *claim_template_name(const model *m, const char *group)
{
	return arena_printf(m->ar, "daos-client-%s-gpus", group);
}

/* The client pod template of a group (facts, section 5): what a training
 * pod on the group's nodes needs to reach DAOS through libdfs or pydaos. A
 * PodTemplate is an object the API server validates and `kubectl get
 * podtemplate` shows; a job copies its spec. No dfuse here: FUSE in a pod
 * needs /dev/fuse and SYS_ADMIN, and sharing the mount needs privileged
 * Bidirectional propagation (pkg/apis/core/validation). */
static void client_template(yaml_out *y, const model *m, const void *arg)
{
	const kube_spec *ks = &m->cluster.kube;
	const node_plan *p = arg;
	const char *group = kube_client_group(m, p);
	ky_head(y, m, "v1", "PodTemplate", arena_printf(m->ar, "daos-client-%s", group), "daos-client", KUBE_LABEL_CLIENT, group);
	ky_pod_template(y, "daos-client", NULL, NULL);
	ky_map(y, "nodeSelector"); /* nodes running an agent, with these NICs */
	yo_kv(y, KUBE_LABEL_CLIENT, group);
	yo_map_end(y);
	/* the agent's fabric interfaces are the host's: the client must see the same */
	ky_bool(y, "hostNetwork", true);
	yo_kv(y, "dnsPolicy", "ClusterFirstWithHostNet");
	ky_seq(y, "containers");
	yo_map(y);
	yo_kv(y, "name", "training");
	yo_kv(y, "image", ks->client_image.set ? ks->client_image.v : ks->image.v);
	ky_seq(y, "env");
	yo_map(y);
	/* the client library reads no config file: this is where it looks
	 * for the agent's socket (src/include/daos/agent.h) */
	yo_kv(y, "name", "DAOS_AGENT_DRPC_DIR");
	yo_kv(y, "value", AGENT_RUNTIME_DIR);
	yo_map_end(y);
	/* what the node's etc/nccl.conf says, which no container reads: NCCL
	 * uses every RDMA device it finds, the storage NICs' this pod holds
	 * too, unless NCCL_IB_HCA says otherwise. No NCCL_SOCKET_IFNAME: set,
	 * NCCL uses only the interfaces it names or fails; unset, it prefers
	 * ib* and then anything but docker and lo (src/misc/socket.cc
	 * ncclFindInterfaces) */
	const char *hca = p->spec ? clients_nccl_hca(m->ar, p->spec) : NULL;
	if (hca) {
		yo_map(y);
		yo_kv(y, "name", "NCCL_IB_HCA");
		yo_kv(y, "value", hca);
		yo_map_end(y);
	}
	yo_seq_end(y);
	limits(y, m, p);
	if (ks->client_ipc_lock.set && ks->client_ipc_lock.v) {
		ky_map(y, "securityContext");
		ky_map(y, "capabilities");
		ky_seq(y, "add");
		yo_str(y, "IPC_LOCK");
		yo_seq_end(y);
		yo_map_end(y);
		yo_map_end(y);
	}
	ky_seq(y, "volumeMounts");
	ky_mount(y, "daos-agent-socket", AGENT_RUNTIME_DIR, NULL, true);
	yo_seq_end(y);
	yo_map_end(y); /* the container */
	yo_seq_end(y);
	ky_seq(y, "volumes");
	ky_host_path(y, "daos-agent-socket", AGENT_RUNTIME_DIR, "Directory"); /* the agent pod made it */
	yo_seq_end(y);
	if (ks->client_gpu_class.set) {
		/* a claim per pod, made from the template in the pod's namespace */
		ky_seq(y, "resourceClaims");
		yo_map(y);
		yo_kv(y, "name", "gpus");
		yo_kv(y, "resourceClaimTemplateName", claim_template_name(m, group));
		yo_map_end(y);
		yo_seq_end(y);
	}
	yo_map_end(y); /* spec */
	yo_map_end(y); /* template */
	yo_map_end(y);
}

/* What the template cannot say: the pod API has no rlimits. */
static void client_header(const model *m, const char *group, buf *out)
{
	buf_printf(out, "# Generated by dslc for system %s: the pod template of a DAOS client on the nodes\n"
			"# labeled %s=%s (an agent, and these RDMA resources). Copy its template into a\n"
			"# training job: the agent socket (read-only), host networking and the storage NICs'\n"
			"# RDMA resources. Memory locking comes from the node: containerd runs with\n"
			"# LimitMEMLOCK=infinity (dslc's etc/systemd/system/containerd.service.d/50-dslc.conf);\n"
			"# a pod cannot raise it.\n"
			"# Pod Security: hostNetwork and the hostPath volume need the privileged level in the\n"
			"# job's namespace (baseline forbids both); `client_namespace <name>` in the kubernetes\n"
			"# block writes that label (client-namespaces.yaml).\n",
		   m->cluster.name, KUBE_LABEL_CLIENT, group);
	if (m->cluster.kube.client_gpu_class.set)
		buf_printf(out, "# GPUs: the claim \"gpus\", made per pod from the ResourceClaimTemplate %s\n"
				"# in the pod's namespace (client-namespaces.yaml, DeviceClass %s, Kubernetes 1.34). The\n"
				"# topology manager does not see claimed devices: the pod's CPUs and memory are aligned\n"
				"# to no GPU.\n",
			   claim_template_name(m, group), m->cluster.kube.client_gpu_class.v);
	if (strstr(group, "-nccl-"))
		buf_puts(out, "# NCCL_IB_HCA in the env is the nodes' etc/nccl.conf (`nccl on`), which no container reads:\n"
			      "# NCCL would use the storage NICs' RDMA devices this pod holds.\n");
}

bool kube_client_yaml(const model *m, const node_plan *p, target_file *tf)
{
	const char *group = kube_client_group(m, p);
	tf->path = arena_printf(m->ar, "kubernetes/daos-client-%s.yaml", group);
	client_header(m, group, tf->data);
	return ky_doc(tf->data, m, client_template, p);
}

/* The group's GPUs through DRA (resource.k8s.io/v1, Kubernetes 1.34): an
 * exact count from the DeviceClass (staging/src/k8s.io/api/resource/v1
 * types.go ExactDeviceRequest; allocationMode ExactCount is the default,
 * written out). No matchAttribute to the storage NICs: they are the RDMA
 * device plugin's, since a DRA network driver moves a claimed netdev into
 * the pod's network namespace and refuses host-network pods
 * (kubernetes-sigs/dranet pkg/driver/nri_hooks.go runPodSandbox), while
 * daos_agent and the engines share those NICs on the host. */
static void claim_template(yaml_out *y, const model *m, const char *ns, const node_plan *p)
{
	const kube_spec *ks = &m->cluster.kube;
	yo_map(y);
	yo_kv(y, "apiVersion", "resource.k8s.io/v1");
	yo_kv(y, "kind", "ResourceClaimTemplate");
	const char *group = kube_client_group(m, p);
	ky_map(y, "metadata");
	yo_kv(y, "name", claim_template_name(m, group));
	yo_kv(y, "namespace", ns);
	ky_map(y, "labels");
	yo_kv(y, KUBE_LABEL_CLIENT, group);
	yo_map_end(y);
	yo_map_end(y);
	ky_map(y, "spec");
	ky_map(y, "spec");
	ky_map(y, "devices");
	ky_seq(y, "requests");
	yo_map(y);
	yo_kv(y, "name", "gpus");
	ky_map(y, "exactly");
	yo_kv(y, "deviceClassName", ks->client_gpu_class.v);
	yo_kv(y, "allocationMode", "ExactCount");
	yo_name(y, "count"); /* an int64 */
	yo_int(y, ks->client_gpus.v);
	yo_map_end(y);
	yo_map_end(y);
	yo_seq_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

/* A namespace of client pods (client_namespace): the Pod Security level
 * the client template needs. baseline forbids hostNetwork and hostPath
 * volumes (k8s.io/pod-security-admission policy check_hostNamespaces.go,
 * check_hostPathVolumes.go); restricted more so. No managed-by label: the
 * namespace is its users', dslc only sets these labels. */
bool kube_client_namespaces(const model *m, const node_plan *const *groups, size_t ngroups, buf *out)
{
	buf_puts(out, "# Generated by dslc: the namespaces whose pods use the DAOS client templates. A\n"
		      "# template needs hostNetwork and a hostPath volume (the agent's socket), which the\n"
		      "# baseline Pod Security level forbids: these namespaces enforce privileged.\n");
	if (m->cluster.kube.client_gpu_class.set)
		buf_puts(out, "# Each namespace also holds the ResourceClaimTemplate of every client group's GPUs: a pod's\n"
			      "# claim is made from a template in its own namespace.\n");
	for (size_t k = 0; k < m->cluster.kube.nclient_ns; k++) {
		if (k)
			buf_puts(out, "---\n");
		yaml_out y;
		if (!yo_begin(&y, out, m->release))
			return false;
		yo_map(&y);
		yo_kv(&y, "apiVersion", "v1");
		yo_kv(&y, "kind", "Namespace");
		ky_map(&y, "metadata");
		yo_kv(&y, "name", m->cluster.kube.client_ns[k].v);
		ky_map(&y, "labels");
		yo_kv(&y, "pod-security.kubernetes.io/enforce", "privileged");
		yo_map_end(&y);
		yo_map_end(&y);
		yo_map_end(&y);
		if (!yo_end(&y))
			return false;
		for (size_t g = 0; m->cluster.kube.client_gpu_class.set && g < ngroups; g++) {
			buf_puts(out, "---\n");
			if (!yo_begin(&y, out, m->release))
				return false;
			claim_template(&y, m, m->cluster.kube.client_ns[k].v, groups[g]);
			if (!yo_end(&y))
				return false;
		}
	}
	return true;
}
