/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* node_os.c - see node_os.h. Facts: ../shared/facts/node-artifacts.md
 * sections 2 (kernel command line) and 4 (kubelet). */
#include "node_os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "kube.h"

/* The `os` names (keywords.c) by prefix, and how each takes the command line. */
static const struct {
	const char *prefix;
	grub_family family;
} os_families[] = {
	{"debian", GRUB_DROPIN},     /* /etc/default/grub.d/NN-name.cfg, update-grub */
	{"ubuntu", GRUB_DROPIN},
	{"azurelinux", GRUB_DROPIN}, /* its /etc/default/grub sources the grub.d files */
	{"rhel", GRUB_GRUBBY},       /* GRUB_ENABLE_BLSCFG=true: BLS entries, grubby */
	{"rocky", GRUB_GRUBBY},
	{"alma", GRUB_GRUBBY},
	{"sles", GRUB_SCRIPT},       /* no grub.d, no BLS: /etc/default/grub + grub2-mkconfig */
};

static grub_family family_of(const char *os)
{
	for (size_t i = 0; os && i < sizeof(os_families) / sizeof(os_families[0]); i++)
		if (strncmp(os, os_families[i].prefix, strlen(os_families[i].prefix)) == 0)
			return os_families[i].family;
	return GRUB_NONE;
}

const char *node_grub_command(const model *m, const node_spec *s)
{
	const kernel_plan *k = node_kernel_plan(m, s);
	if (!k || k->family == GRUB_NONE)
		return NULL;
	if (k->family != GRUB_DROPIN)
		return "/" NODE_KERNEL_SCRIPT;
	/* Azure Linux has no update-grub wrapper; its grub.cfg is /boot/grub2's */
	return strncmp(s->os.v, "azurelinux", 10) == 0 ? "grub2-mkconfig -o /boot/grub2/grub.cfg" : "update-grub";
}

bool node_has_nvme(const node_plan *p)
{
	for (int i = 0; i < p->nengines; i++)
		if (p->engines[i].nnvmes)
			return true;
	return false;
}

/* Whether daos_server tests transparent hugepages at start: from 2.6.5 on
 * (FaultTransparentHugepageEnabled); `daos 2.6` alone means the newest 2.6. */
bool node_thp_checked(const model *m)
{
	return !(m->release && m->release->id == DAOS_2_6 && m->release_patch >= 0 && m->release_patch < 5);
}

const char *node_thp_releases(const model *m)
{
	return !m->release ? "" : m->release->id == DAOS_2_6 ? "2.6.5 and later" : m->release->name;
}

static kernel_plan *plan_kernel(const model *m, const node_spec *s)
{
	const node_plan *p = s->plan;
	if (!p || !p->ok)
		return NULL;
	kernel_plan *k = arena_alloc(m->ar, sizeof(*k));
	k->family = family_of(s->os.set ? s->os.v : NULL);
	/* without an OS dslc cannot install a command line; it manages one only
	 * when the profile says which OS, or asks for it with a kernel block */
	if (k->family == GRUB_NONE && !s->kernel.set && !spec_in_pods(s))
		return NULL;
	const kernel_spec *ks = &s->kernel;
	const char *iommu = ks->iommu.set ? ks->iommu.v : node_has_nvme(p) ? "pt" : NULL;
	if (iommu && strcmp(iommu, "pt") == 0)
		env_set(m->ar, &k->params, "iommu", "pt", ks->iommu.set ? ks->iommu.loc : ks->loc);
	else if (iommu && strcmp(iommu, "off") == 0)
		env_set(m->ar, &k->params, "iommu", "off", ks->iommu.loc);
	const kube_plan *kp = kube_plan_of(m, s);
	if (kp) {
		/* a pod cannot allocate hugepages or turn THP off: both at boot,
		 * as many pages as the pod requests (hugepagesz before hugepages,
		 * the kernel pairs them) */
		env_set(m->ar, &k->params, "transparent_hugepage", "never", s->deploy.loc);
		env_set(m->ar, &k->params, "hugepagesz", kp->kernel_pagesize, s->deploy.loc);
		env_set(m->ar, &k->params, "hugepages", arena_printf(m->ar, "%lld", (long long)kp->boot_hugepages), s->deploy.loc);
		if (p->hugepage_size == GiB)
			env_set(m->ar, &k->params, "default_hugepagesz", "1G", SRC_LOC_NONE);
	} else if (spec_in_pods(s) && p->client && m->cluster.kube.client_hugepages.set &&
		   !kube_client_hugepages_why(&m->cluster.kube)) {
		/* a client-only node: the training pod's pages, reserved at boot
		 * as on the servers (a pod cannot allocate them) */
		env_set(m->ar, &k->params, "hugepagesz", "2M", m->cluster.kube.client_hugepages.loc);
		env_set(m->ar, &k->params, "hugepages",
			arena_printf(m->ar, "%lld", (long long)(m->cluster.kube.client_hugepages.v / (int64_t)(2 * MiB))),
			m->cluster.kube.client_hugepages.loc);
	} else if (p->nengines && node_thp_checked(m)) {
		/* daos_server 2.6.5+ refuses to start unless THP shows [never]
		 * (server_utils.go prepBdevStorage; dslc writes no allow_thp) */
		env_set(m->ar, &k->params, "transparent_hugepage", "never", SRC_LOC_NONE);
	}
	if (!kp && p->hugepage_size == GiB && p->nr_hugepages) {
		/* 1 GiB pages can only be reserved at boot. hugepagesz before its
		 * hugepages (the kernel pairs them), and before default_hugepagesz:
		 * grubby matches "hugepagesz=" as a substring (grubby-bls
		 * update_args), which would find it inside default_hugepagesz= */
		env_set(m->ar, &k->params, "hugepagesz", "1G", SRC_LOC_NONE);
		env_set(m->ar, &k->params, "hugepages", arena_printf(m->ar, "%lld", (long long)p->nr_hugepages), SRC_LOC_NONE);
		env_set(m->ar, &k->params, "default_hugepagesz", "1G", SRC_LOC_NONE);
	}
	if (ks->irqaffinity.set && strcmp(ks->irqaffinity.v, "os") == 0) {
		const char *cpus = place_os_cpus(m->ar, p);
		if (*cpus)
			env_set(m->ar, &k->params, "irqaffinity", cpus, ks->irqaffinity.loc);
	}
	/* the IO500 layout without Kubernetes: the engines' CPUs, whole cores,
	 * kept from the scheduler (isolcpus), the timer tick (nohz_full) and
	 * RCU callbacks (rcu_nocbs); the OS cores do that work instead */
	if (ks->isolate.set && strcmp(ks->isolate.v, "engines") == 0 && p->nengines) {
		const char *cpus = place_engine_cpus(m->ar, p);
		if (*cpus) {
			env_set(m->ar, &k->params, "isolcpus", cpus, ks->isolate.loc);
			env_set(m->ar, &k->params, "nohz_full", cpus, ks->isolate.loc);
			env_set(m->ar, &k->params, "rcu_nocbs", cpus, ks->isolate.loc);
		}
	}
	for (size_t i = 0; i < ks->params.n; i++)
		env_set(m->ar, &k->params, ks->params.items[i].name, ks->params.items[i].value, ks->params.items[i].loc);
	return k->params.n ? k : NULL;
}

/* "1.33" -> 33; -1 when it is not 1.<minor> with a minor below 1000. */
static int minor_of(const char *v)
{
	if (strncmp(v, "1.", 2) != 0 || !v[2] || strlen(v + 2) > 3 || strspn(v + 2, "0123456789") != strlen(v + 2))
		return -1;
	return atoi(v + 2);
}

int node_kubelet_minor(const node_spec *s)
{
	/* without a declared version, the kubelet the OS ships (Azure Linux 3: 1.30) */
	return minor_of(s->kubelet.version.set ? s->kubelet.version.v
			: s->os.set && strncmp(s->os.v, "azurelinux", 10) == 0 ? "1.30" : "1.33");
}

/* ResourceClaimTemplate and the pod's resourceClaims reach the API server
 * as resource.k8s.io/v1 from Kubernetes 1.34 (earlier: v1beta1/v1beta2,
 * off by default before 1.32); a template is read from the pod's own
 * namespace (pkg/controller/resourceclaim/controller.go handleClaim), so
 * it goes to the client namespaces, which must be named. */
const char *node_dra_why(const model *m, const node_spec **at)
{
	const kube_spec *ks = &m->cluster.kube;
	*at = NULL;
	if (!ks->client_gpu_class.set)
		return NULL;
	if (safe_k8s_subdomain(ks->client_gpu_class.v))
		return "client_gpu_class is not a DeviceClass name"; /* bad-value said so at its line */
	if (!ks->client_gpus.set)
		return "client_gpu_class without client_gpus: the claim would ask for no GPU";
	if (!ks->nclient_ns)
		return "client_gpu_class without a client_namespace: a pod's ResourceClaimTemplate is read from its own "
		       "namespace, so dslc writes one into each client_namespace";
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		int minor = node_kubelet_minor(s);
		if (kube_in_pods(s) && minor < 34) {
			*at = s;
			return arena_printf(m->ar, "resource.k8s.io/v1, the API of ResourceClaimTemplate and the pod's "
					    "resourceClaims, is served from Kubernetes 1.34; %s's kubelet is %s%s", s->origin,
					    s->kubelet.version.set ? s->kubelet.version.v : arena_printf(m->ar, "1.%d", minor),
					    s->kubelet.version.set ? "" : " (the OS's own)");
		}
	}
	return NULL;
}

/* DAOS's memory on NUMA node n that the kubelet reserves (plan_kubelet says
 * why): each engine's SCM there, and in pods with the static memory
 * manager its share of the daos-server pod's overhead (the remainder on
 * engine 0); nothing in pods without it. Made on demand: a per-NUMA array
 * in every spec's plan cost 62 MB at 100,000 node blocks under ASan. */
static uint64_t daos_memory_on(const model *m, const node_spec *s, const kubelet_plan *k, int n)
{
	const node_plan *p = s->plan;
	bool pods = spec_in_pods(s) && !p->client;
	const kube_plan *kp = pods && strcmp(k->memory_manager, "static") == 0 ? kube_plan_of(m, s) : NULL;
	/* an override below the SCM (k8s-memory-request reports it) leaves
	 * nothing beside it, not an unsigned wrap */
	uint64_t extra = kp && kp->memory > kp->scm ? kp->memory - kp->scm : 0, here = 0;
	for (int i = 0; i < p->nengines && (!pods || kp); i++)
		if (p->engines[i].numa == n)
			here += p->engines[i].scm_bytes + extra / (uint64_t)p->nengines +
				(i == 0 ? extra % (uint64_t)p->nengines : 0);
	return here;
}

uint64_t node_kubelet_daos_memory(const model *m, const node_spec *s, int numa)
{
	const kubelet_plan *k = node_kubelet_plan(m, s);
	return k && numa < k->nnuma ? daos_memory_on(m, s, k, numa) : 0;
}

/* 2 MiB pages the kernel reserves at boot (hugepagesz=2M hugepages=N). */
static uint64_t boot_2m_pages(const kernel_plan *kp)
{
	const char *size = NULL, *pages = NULL;
	for (size_t i = 0; kp && i < kp->params.n; i++) {
		if (strcmp(kp->params.items[i].name, "hugepagesz") == 0)
			size = kp->params.items[i].value;
		else if (strcmp(kp->params.items[i].name, "hugepages") == 0 && size && strcmp(size, "2M") == 0)
			pages = kp->params.items[i].value;
	}
	return pages ? strtoull(pages, NULL, 10) : 0;
}

/* The training pod under `policy` with the managers k plans. */
static kube_admission admit_under(const model *m, const node_spec *s, const kubelet_plan *k, const char *policy)
{
	return kube_admit(m, s, &(kube_managers){k->reserved_cpus, k->cpu_manager, k->memory_manager, k->numa_reserved,
						  boot_2m_pages(s->plan->kernel)}, policy);
}

static kubelet_plan *plan_kubelet(const model *m, const node_spec *s)
{
	const node_plan *p = s->plan;
	const kubelet_spec *ks = &s->kubelet;
	/* a client-only node's pod is the agent's, which asks nothing of the
	 * kubelet: like a host node, it gets a kubelet file when it asks */
	bool pods = spec_in_pods(s) && p && !p->client;
	if ((!ks->set && !pods) || !p || !p->ok)
		return NULL;
	kubelet_plan *k = arena_alloc(m->ar, sizeof(*k));
	k->reserved_cpus = ks->reserved_cpus.set ? ks->reserved_cpus.v : place_reserved_cpus(m->ar, p);
	k->cpu_manager = ks->cpu_manager.set ? ks->cpu_manager.v : "static";
	k->topology = ks->topology.set ? ks->topology.v : NULL; /* below, once memory is reserved */
	k->memory_manager = ks->memory_manager.set ? ks->memory_manager.v : "static";
	k->minor = node_kubelet_minor(s);
	/* in pods the daos-server container must reach the reserved engine CPUs */
	bool want = ks->strict.set ? strcmp(ks->strict.v, "on") == 0 : k->minor >= 32 && !pods;
	k->strict = strcmp(k->cpu_manager, "static") == 0 && want && k->minor >= 32;
	k->alpha_gate = k->strict && k->minor == 32;
	uint64_t base_system = ks->system_reserved.set ? (uint64_t)ks->system_reserved.v : 4 * GiB;
	k->kube_reserved = ks->kube_reserved.set ? (uint64_t)ks->kube_reserved.v : 2 * GiB;
	k->eviction = ks->eviction_hard.set ? (uint64_t)ks->eviction_hard.v : 100 * MiB;
	k->nnuma = p->topo->nnuma;
	/* DAOS's SCM (a tmpfs) lives on the NUMA node of its engine: count it
	 * there, and in systemReserved. Its hugepages are not counted: the
	 * kubelet already takes pre-allocated hugepages out of allocatable
	 * memory, and the memory manager does so per NUMA node (they stay a
	 * resource of their own, hugepages-2Mi); reserving them again would
	 * keep 34 GiB per node from pods for nothing.
	 * In pods, with the static memory manager, the daos-server pod's
	 * memory (SCM and memory_overhead, spread over its engines) is
	 * reserved too: the manager accounts only Guaranteed pods
	 * (pkg/kubelet/cm/memorymanager/policy_static.go), and the pod is
	 * Burstable, so it would offer a single-numa-node pod the memory the
	 * SCM holds. reservedMemory must sum to systemReserved + kubeReserved
	 * + evictionHard (validateReservedMemory), so systemReserved carries
	 * it as well; the pod still requests it, because its tmpfs is charged
	 * inside the kubepods cgroup, whose limit leaves systemReserved out:
	 * the price is that memory counted twice in allocatable. */
	uint64_t daos = 0;
	for (int n = 0; n < k->nnuma; n++) {
		uint64_t here = daos_memory_on(m, s, k, n);
		k->numa_reserved[n] = here;
		daos += here;
	}
	k->system_reserved = base_system + daos;
	/* the rest is spread evenly, in whole KiB (quantities are written in Ki),
	 * the remainder on node 0, so the sums are exact */
	uint64_t rest = (base_system + k->kube_reserved + k->eviction) / KiB;
	for (int n = 0; n < k->nnuma; n++)
		k->numa_reserved[n] += rest / (uint64_t)k->nnuma * KiB;
	k->numa_reserved[0] += rest % (uint64_t)k->nnuma * KiB;
	/* restricted, not single-numa-node: it aligns what one NUMA node
	 * holds, and admits a pod spread over the fewest NUMA nodes when every
	 * manager prefers that spread. Where the training pod's GPUs prefer
	 * more NUMA nodes than its CPUs or memory, restricted refuses it
	 * (kube_admit.c says why): best-effort admits it, still with exclusive
	 * CPUs and the memory manager's NUMA nodes. */
	if (!k->topology)
		k->topology = admit_under(m, s, k, "restricted").admitted ? "restricted" : "best-effort";
	return k;
}

/* Both plans of a spec, made once; the targets ask for them per node. */
static void plan_once(const model *m, const node_spec *s)
{
	node_plan *p = s->plan;
	if (!p || p->os_planned)
		return;
	p->os_planned = true;
	p->kernel = plan_kernel(m, s);
	p->kubelet = plan_kubelet(m, s);
}

kernel_plan *node_kernel_plan(const model *m, const node_spec *s)
{
	plan_once(m, s);
	return s->plan ? s->plan->kernel : NULL;
}

kubelet_plan *node_kubelet_plan(const model *m, const node_spec *s)
{
	plan_once(m, s);
	return s->plan ? s->plan->kubelet : NULL;
}

kube_admission node_kubelet_admit(const model *m, const node_spec *s, const char *policy)
{
	const kubelet_plan *k = node_kubelet_plan(m, s);
	if (!k)
		return (kube_admission){.admitted = true};
	return admit_under(m, s, k, policy ? policy : k->topology);
}

