/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_keywords.c - the `kubernetes { ... }` block of the cluster: what the
 * pods of every `deploy kubernetes` profile share, each word checked against
 * the rule of the consumer that reads it (the API server, containerd, the
 * device plugins). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/image_ref.h"
#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "kw.h"

#define F(type, field) offsetof(type, field)

/* A namespace name (a DNS label: IsDNS1123Label), or false after a located
 * error. */
static bool namespace_word(kw_ctx *k, const char **w, src_loc *l)
{
	if (!kw_word(k, "a namespace", w, l))
		return false;
	if (!safe_k8s_label(*w, strlen(*w))) {
		kw_bad(k, *l, "'%s' is not a namespace name: 1 to 63 lower-case letters, digits or '-', alphanumeric at both ends", *w);
		return false;
	}
	/* dslc labels its namespaces pod-security.kubernetes.io/enforce:
	 * privileged, which would open Kubernetes' own namespaces (and every
	 * pod of `default`) to privileged pods */
	static const char *const own[] = {"default", "kube-system", "kube-public", "kube-node-lease"};
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strcmp(*w, own[i]) == 0) {
			kw_bad(k, *l, "'%s' is Kubernetes' own namespace: dslc would label it enforce: privileged for every "
			       "pod in it; name a namespace of its own (e.g. daos, ml-train)", *w);
			return false;
		}
	return true;
}

static void ku_namespace(kw_ctx *k)
{
	kube_spec *ks = k->target;
	const char *w;
	src_loc l;
	if (namespace_word(k, &w, &l) && kw_once(k, &ks->ns.loc, &ks->ns.set))
		ks->ns = (opt_str){w, src_loc_join(k->kwloc, l), true};
}

/* An image reference as containerd pulls it (image_ref.h): a reference it
 * refuses is an InvalidImageName pod, found only at the rollout. */
static void image(kw_ctx *k, opt_str *img)
{
	const char *w, *why;
	src_loc l;
	if (!kw_word(k, "an image reference", &w, &l))
		return;
	if ((why = image_ref_check(w))) {
		kw_bad(k, l, "'%s' is not an image reference containerd pulls: %s", w, why);
		return;
	}
	if (kw_once(k, &img->loc, &img->set))
		*img = (opt_str){w, src_loc_join(k->kwloc, l), true};
}

static void ku_image(kw_ctx *k)
{
	image(k, &((kube_spec *)k->target)->image);
}

static void ku_rdma_plugin_image(kw_ctx *k)
{
	image(k, &((kube_spec *)k->target)->rdma_plugin_image);
}

static void ku_vfio_plugin_image(kw_ctx *k)
{
	image(k, &((kube_spec *)k->target)->vfio_plugin_image);
}

static void ku_client_image(kw_ctx *k)
{
	image(k, &((kube_spec *)k->target)->client_image);
}

static void run_as(kw_ctx *k, opt_int *uid, opt_int *gid)
{
	const char *w;
	src_loc l;
	if (!kw_word(k, "UID:GID", &w, &l))
		return;
	char *end;
	long u = strtol(w, &end, 10), g = -1;
	if (*end == ':' && end > w && end[1] >= '0' && end[1] <= '9')
		g = strtol(end + 1, &end, 10);
	if (*end || w[0] < '0' || w[0] > '9' || u < 1 || u > 2147483647L || g < 1 || g > 2147483647L) {
		kw_bad(k, l, "'%s' is not UID:GID of a non-root user (e.g. 1001:1001)", w);
		return;
	}
	if (!kw_once(k, &uid->loc, &uid->set))
		return;
	*uid = (opt_int){u, src_loc_join(k->kwloc, l), true};
	*gid = (opt_int){g, uid->loc, true};
}

static void ku_run_as(kw_ctx *k)
{
	kube_spec *ks = k->target;
	run_as(k, &ks->uid, &ks->gid);
}

static void ku_agent_run_as(kw_ctx *k)
{
	kube_spec *ks = k->target;
	run_as(k, &ks->agent_uid, &ks->agent_gid);
}

/* A DNS-1123 subdomain: the domain of an extended resource
 * (IsQualifiedName's prefix) and generic-device-plugin's --domain
 * (main.go: validation.IsDNS1123Subdomain). */
static bool subdomain(const char *s, size_t n)
{
	if (!n || n > 253)
		return false;
	for (size_t i = 0; i < n;) {
		const char *dot = memchr(s + i, '.', n - i);
		size_t end = dot ? (size_t)(dot - s) : n;
		if (!safe_k8s_label(s + i, end - i))
			return false;
		i = end + 1;
	}
	return s[n - 1] != '.';
}

/* Kubernetes' extended resource name (pkg/apis/core/validation
 * validateResourceName, IsQualifiedName): <domain>/<name>, the name 1 to 63
 * characters [A-Za-z0-9][-A-Za-z0-9_.]*[A-Za-z0-9], the domain not
 * kubernetes.io's (IsNativeResource) and the name not requests.*. Then the
 * plugin's own rule: k8s-rdma-shared-dev-plugin takes names of
 * [A-Za-z0-9_]+ (pkg/utils validResourceName); generic-device-plugin exits
 * unless the device name matches [a-z0-9][-a-z0-9]*[a-z0-9] (main.go). */
static const char *resource_why(const char *w, bool rdma)
{
	const char *slash = strchr(w, '/');
	if (!slash || slash == w || !slash[1])
		return "an extended resource is <domain>/<name>";
	size_t dn = (size_t)(slash - w);
	if (!subdomain(w, dn))
		return "the domain is a DNS name: dot-separated parts of lower-case letters, digits and '-'";
	if ((dn == 13 && strncmp(w, "kubernetes.io", 13) == 0) || (dn > 14 && strncmp(slash - 14, ".kubernetes.io", 14) == 0))
		return "kubernetes.io names Kubernetes' own resources";
	const char *name = slash + 1;
	size_t n = strlen(name);
	if (n > 63)
		return "the name part is at most 63 characters";
	for (const char *p = name; *p; p++) {
		bool lower = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9');
		bool ok = rdma ? lower || (*p >= 'A' && *p <= 'Z') || *p == '_' : lower || *p == '-';
		if (!ok)
			return rdma ? "k8s-rdma-shared-dev-plugin takes names of letters, digits and '_'"
				    : "generic-device-plugin takes device names of lower-case letters, digits and '-'";
	}
	bool ends = (name[0] != '_' && name[0] != '-') && (name[n - 1] != '_' && name[n - 1] != '-');
	if (!ends)
		return "the name starts and ends with a letter or digit";
	return NULL;
}

static void resource(kw_ctx *k, opt_str *res, opt_int *numa, opt_int *shared)
{
	const char *w, *why;
	src_loc l;
	if (!kw_word(k, shared ? "a resource name such as rdma/daos" : "a resource name such as squat.ai/daos-nvme", &w, &l))
		return;
	if ((why = resource_why(w, shared != NULL))) {
		kw_bad(k, l, "'%s' is not a resource name the %s and Kubernetes accept: %s", w,
		       shared ? "RDMA device plugin" : "VFIO device plugin", why);
		return;
	}
	if (!kw_once(k, &res->loc, &res->set))
		return;
	*res = (opt_str){w, src_loc_join(k->kwloc, l), true};
	for (int i = 0; i < 2; i++) {
		if (!shared && kw_peek_word(k, "numa")) {
			/* its ListAndWatch sends devices with an ID and a health, no
			 * TopologyInfo (squat/generic-device-plugin
			 * deviceplugin/generic.go): the kubelet sees no NUMA node */
			kw_next(k);
			kw_bad(k, k->last, "generic-device-plugin reports no NUMA topology for its devices: `numa` would "
			       "promise what the kubelet never sees");
			return;
		}
		if (kw_peek_word(k, "numa")) {
			kw_next(k);
			*numa = (opt_int){1, k->last, true};
		} else if (shared && kw_peek_word(k, "shared")) {
			kw_next(k);
			*shared = (opt_int){1, k->last, true};
		}
	}
}

static void ku_rdma(kw_ctx *k)
{
	kube_spec *ks = k->target;
	resource(k, &ks->rdma_resource, &ks->rdma_numa, &ks->rdma_shared);
}

static void ku_nvme(kw_ctx *k)
{
	kube_spec *ks = k->target;
	resource(k, &ks->nvme_resource, NULL, NULL);
}

/* A namespace where training pods use the client template: it gets the
 * Pod Security labels the template needs (kubernetes/client-namespaces.yaml). */
static void ku_client_namespace(kw_ctx *k)
{
	kube_spec *ks = k->target;
	const char *w;
	src_loc l;
	if (!namespace_word(k, &w, &l))
		return;
	for (size_t i = 0; i < ks->nclient_ns; i++)
		if (strcmp(ks->client_ns[i].v, w) == 0) {
			kw_bad(k, l, "client_namespace %s is given twice", w);
			return;
		}
	opt_str ns = {w, src_loc_join(k->kwloc, l), true};
	ARENA_PUSH(k->r->ar, ks->client_ns, ks->nclient_ns, ks->client_ns_cap, ns);
}

/* A DeviceClass is a cluster-scoped object: its name a DNS-1123 subdomain
 * (pkg/apis/resource/validation ValidateDeviceClass, ValidateObjectMeta). */
static void ku_client_gpu_class(kw_ctx *k)
{
	kube_spec *ks = k->target;
	const char *w;
	src_loc l;
	if (!kw_word(k, "a DeviceClass name such as gpu.nvidia.com", &w, &l))
		return;
	const char *why = safe_k8s_subdomain(w);
	if (why)
		kw_bad(k, l, "client_gpu_class '%s' is not a DeviceClass name: %s", safe_echo(k->r->ar, w), why);
	if (!kw_once(k, &ks->client_gpu_class.loc, &ks->client_gpu_class.set))
		return;
	/* kept when invalid: the target asks node_dra_why, which refuses it
	 * whatever bad-value's setting */
	ks->client_gpu_class = (opt_str){w, src_loc_join(k->kwloc, l), true};
}

static void ku_update(kw_ctx *k)
{
	kube_spec *ks = k->target;
	const char *w;
	src_loc l;
	if (!kw_word(k, "ondelete or rolling", &w, &l))
		return;
	if (strcmp(w, "ondelete") && strcmp(w, "rolling")) {
		kw_bad(k, l, "'update' takes ondelete or rolling, not '%s'", w);
		return;
	}
	if (!kw_once(k, &ks->update.loc, &ks->update.set))
		return;
	ks->update = (opt_str){w, src_loc_join(k->kwloc, l), true};
	if (strcmp(w, "rolling") == 0 && kw_peek_word(k, "surge")) {
		kw_next(k);
		int64_t n;
		src_loc nl;
		if (kw_int(k, "a surge count", 0, 1000, &n, &nl))
			ks->surge = (opt_int){n, nl, true};
	}
}

static const keyword kube_kws[] = {
	{"namespace", "namespace <name>", "Namespace of the DAOS objects (default daos).", KW_CUSTOM, 0, 0, 0, NULL, ku_namespace},
	{"image", "image <reference>", "Container image with daos_server, daos_server_helper (setuid root) and daos_agent of the declared release. Required.", KW_CUSTOM, 0, 0, 0, NULL, ku_image},
	{"client_image", "client_image <reference>", "Image of the client pod template (cluster/kubernetes/daos-client-*.yaml): a training image with DAOS's client libraries of the declared release (default: image).", KW_CUSTOM, 0, 0, 0, NULL, ku_client_image},
	{"rdma_plugin_image", "rdma_plugin_image <reference>", "Image of dslc's k8s-rdma-shared-dev-plugin DaemonSet (default ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3; a mirror's copy, pinned by digest, in production).", KW_CUSTOM, 0, 0, 0, NULL, ku_rdma_plugin_image},
	{"vfio_plugin_image", "vfio_plugin_image <reference>", "Image of dslc's generic-device-plugin DaemonSet, release 0.1.0 or later (its directory mountPath; default docker.io/squat/generic-device-plugin:0.1.0; a mirror's copy, pinned by digest, in production).", KW_CUSTOM, 0, 0, 0, NULL, ku_vfio_plugin_image},
	{"run_as", "run_as <uid>:<gid>", "The image's daos_server user and group: the pod's runAsUser, runAsGroup and fsGroup. Required.", KW_CUSTOM, 0, 0, 0, NULL, ku_run_as},
	{"agent_run_as", "agent_run_as <uid>:<gid>", "The image's daos_agent user and group (default: run_as).", KW_CUSTOM, 0, 0, 0, NULL, ku_agent_run_as},
	{"rdma_resource", "rdma_resource <domain>/<name> [numa] [shared]", "RDMA resource of k8s-rdma-shared-dev-plugin, one per engine: <name>_e<i> selects engine i's NIC (default rdma/daos; the name [A-Za-z0-9_], at most 63 characters with the suffix). `shared`: the cluster runs one resource for every NIC already (rdma/rdma_shared_device_a): pods ask for it once, as is, and dslc writes no plugin configuration. `numa`: the plugin reports NUMA topology.", KW_CUSTOM, 0, 0, 0, NULL, ku_rdma},
	{"nvme_resource", "nvme_resource <domain>/<name>", "VFIO resource of generic-device-plugin: one device per drive's IOMMU group (default squat.ai/daos-nvme; the name [a-z0-9][-a-z0-9]*[a-z0-9], the plugin's rule). The plugin reports no NUMA topology.", KW_CUSTOM, 0, 0, 0, NULL, ku_nvme},
	{"client_gpus", "client_gpus <n>", "GPUs the client template asks for (nvidia.com/gpu, the NVIDIA device plugin's resource; a limit, which Kubernetes makes the request too).", KW_INT, F(kube_spec, client_gpus), 1, 64, NULL, NULL},
	{"client_gpu_class", "client_gpu_class <deviceclass>", "Claims client_gpus through Dynamic Resource Allocation (resource.k8s.io/v1, Kubernetes 1.34) from this DeviceClass, e.g. gpu.nvidia.com (NVIDIA's DRA driver), instead of the device plugin's nvidia.com/gpu: client-namespaces.yaml holds a ResourceClaimTemplate per client group in each client_namespace. The storage NICs stay on the RDMA device plugin, and the topology manager does not align claimed GPUs.", KW_CUSTOM, 0, 0, 0, NULL, ku_client_gpu_class},
	{"client_cpus", "client_cpus <n>", "CPUs of the client template, request = limit: with client_memory the training pod is Guaranteed, and the static CPU manager gives it whole CPUs off the OS and engine cores.", KW_INT, F(kube_spec, client_cpus), 1, 4096, NULL, NULL},
	{"client_hugepages", "client_hugepages <size>", "Huge pages of 2 MiB the client template asks for (hugepages-2Mi, request = limit: the GDS guide's training pod takes 4GiB); needs client_memory or client_cpus, as the API server refuses huge pages without a cpu or memory request.", KW_SIZE, F(kube_spec, client_hugepages), (int64_t)(2 * MiB), (int64_t)(16 * TiB), NULL, NULL},
	{"client_memory", "client_memory <size>", "Memory request and limit of the client template (default: none, the job's to choose).", KW_SIZE, F(kube_spec, client_memory), (int64_t)(64 * MiB), (int64_t)(64 * TiB), NULL, NULL},
	{"client_ipc_lock", "client_ipc_lock <true|false>", "Adds the IPC_LOCK capability to the client container (GPUDirect Storage and RDMA memory registration beyond the memlock limit).", KW_BOOL, F(kube_spec, client_ipc_lock), 0, 1, NULL, NULL},
	{"client_namespace", "client_namespace <name>", "A namespace whose pods use the client template (repeatable): kubernetes/client-namespaces.yaml gives it the Pod Security level the template needs (privileged: hostNetwork and a hostPath, which baseline forbids).", KW_CUSTOM, 0, 0, 0, NULL, ku_client_namespace},
	{"memory_overhead", "memory_overhead <size>", "Memory of daos_server and the engines besides SCM, added to the pod's memory request (default 2GiB).", KW_SIZE, F(kube_spec, memory_overhead), (int64_t)(256 * MiB), (int64_t)(1 * TiB), NULL, NULL},
	{"server_memory", "server_memory <size>", "Override of the daos-server pod's memory request and limit (checked: at least SCM plus memory_overhead).", KW_SIZE, F(kube_spec, server_memory), (int64_t)GiB, (int64_t)(64 * TiB), NULL, NULL},
	{"update", "update <ondelete|rolling> [surge <n>]", "DaemonSet updateStrategy: OnDelete (default; engines restart when an operator deletes the pod) or RollingUpdate with maxSurge 0.", KW_CUSTOM, 0, 0, 0, NULL, ku_update},
};
const kw_table kw_kube = KW_TABLE("kubernetes", kube_kws);

