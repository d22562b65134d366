/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_lint.c - see kube_lint.h. */
#include "kube_lint.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "compiler/place/containerd.h"
#include "compiler/place/kube.h"
#include "compiler/place/node_os.h"
#include "compiler/place/place.h"

static const node_spec *first_in_pods(const model *m)
{
	for (size_t i = 0; i < m->nspecs; i++)
		if (spec_in_pods(m->specs[i]))
			return m->specs[i];
	return NULL;
}

/* The RDMA resource with its NIC suffix: <name>_e<i> for the highest NIC
 * index of a node in pods (the objects name them so: targets/kubernetes.c). */
static void lint_rdma_name(model *m)
{
	const kube_spec *ks = &m->cluster.kube;
	const char *last = ks->rdma_resource.set ? kube_rdma_last_name(m) : NULL;
	if (!last || strlen(last) <= 63)
		return;
	const char *name = strchr(ks->rdma_resource.v, '/') + 1;
	diag *d = diag_report(m->dc, R_K8S_RESOURCE_NAME, ks->rdma_resource.loc,
			      "the RDMA resource of NIC %d is named %s, %zu characters: the API server allows 63",
			      kube_fabric_nics(m) - 1, last, strlen(last));
	int room = 63 - (int)(strlen(last) - strlen(name));
	/* cut to the room, and back to a letter or digit: a name part ends so
	 * (k8s-resource-name's own check of the written name) */
	int keep = room;
	while (keep > 1 && !isalnum((unsigned char)name[keep - 1]))
		keep--;
	const char *cut = arena_printf(m->ar, "rdma_resource %.*s%.*s", (int)(name - ks->rdma_resource.v), ks->rdma_resource.v,
				       keep, name);
	diag_help(m->dc, d, "shorten the name to at most %d characters: `%s`, or write `shared` after it when one resource "
		  "serves every NIC", room, cut);
	diag_fix_edit(m->dc, d, ks->rdma_resource.loc, "%s", cut);
}

static void lint_clients(model *m);
static void lint_server_memory(model *m);
static void lint_dra(model *m);

/* Every image the pods run named by a digest: the DAOS and client images,
 * and dslc's device plugins' (whose defaults are upstream tags: reported at
 * the kubernetes block). */
static void lint_image_tags(model *m, const kube_spec *ks)
{
	struct {
		const char *kw;
		const opt_str *o;
		const char *v;
	} imgs[] = {
		{"image", &ks->image, ks->image.v},
		{"client_image", &ks->client_image, ks->client_image.v},
		{"rdma_plugin_image", &ks->rdma_plugin_image, ks->rdma_shared.set ? NULL : kube_rdma_plugin_image(m)},
		{"vfio_plugin_image", &ks->vfio_plugin_image, kube_vfio_plugin_image(m)},
	};
	for (size_t i = 0; i < sizeof(imgs) / sizeof(imgs[0]); i++) {
		const char *v = imgs[i].v;
		if (!v || strchr(v, '@') || (i < 2 && !imgs[i].o->set))
			continue;
		bool dflt = !imgs[i].o->set;
		diag *d = diag_report(m->dc, R_K8S_IMAGE_TAG, dflt ? ks->loc : imgs[i].o->loc,
				      "%s%s is named by its tag: the registry can point it at another image, and nodes "
				      "that pull later run that one", dflt ? "the device plugins' default image " : "", v);
		diag_help(m->dc, d, "%s`%s %s@sha256:<digest>` (`skopeo inspect docker://%s` prints it)",
			  dflt ? "add a mirror's copy by its digest to the kubernetes block: " : "append the digest: ", imgs[i].kw,
			  v, v);
	}
}

void kube_lint_cluster(model *m)
{
	const node_spec *s = first_in_pods(m);
	const kube_spec *ks = &m->cluster.kube;
	if (!s)
		return;
	bool image = ks->image.set || model_kw_failed(m, ks, "image"), uid = ks->uid.set || model_kw_failed(m, ks, "run_as");
	if (!ks->set || !image || !uid) {
		diag *d = diag_report(m->dc, R_K8S_SETTINGS, s->deploy.loc, "%s runs DAOS in pods, but the cluster has no %s",
				      s->origin, !ks->set ? "kubernetes block" : !image ? "image" : "run_as user");
		if (ks->set)
			diag_note_at(m->dc, d, ks->loc, "the kubernetes block is here");
		diag_help(m->dc, d, "%s", !ks->set ? "add `kubernetes { image <reference>  run_as <uid>:<gid> }` to the cluster block"
				   : !image ? "add `image <reference>` (an image with daos_server, daos_server_helper and daos_agent)"
				   : "add `run_as <uid>:<gid>`, the image's daos_server user");
	}
	lint_rdma_name(m);
	const char *why = kube_client_hugepages_why(ks);
	if (why) {
		bool whole = ks->client_hugepages.v % (int64_t)(2 * MiB) == 0;
		diag *d = diag_report(m->dc, R_K8S_CLIENT_HUGEPAGES, ks->client_hugepages.loc, "%s", why);
		diag_help(m->dc, d, whole ? "add `client_memory <size>`, the training pod's memory, to the kubernetes block"
					  : "give a multiple of 2MiB");
	}
	lint_clients(m);
	lint_dra(m);
	lint_server_memory(m);
	lint_image_tags(m, ks);
	if (ks->surge.set && ks->surge.v > 0) {
		diag *d = diag_report(m->dc, R_K8S_UPDATE_SURGE, ks->surge.loc,
				      "surge %lld starts a second daos_server on a node before the first stops", (long long)ks->surge.v);
		diag_help(m->dc, d, "write `surge 0` (`update rolling` alone is maxSurge 0 too), or `update ondelete`");
		diag_fix_edit(m->dc, d, ks->surge.loc, "0"); /* (the count alone: its loc is the number) */
	}
}

/* What one training pod on a spec's nodes can get: GPUs (when the
 * hardware says), and CPUs outside reservedSystemCPUs, per node and on
 * its fullest NUMA node. */
typedef struct pod_room {
	int gpus, numa_gpus;
	int cpus, numa_cpus;
	bool gpus_known;
} pod_room;

static pod_room room_of(const node_spec *s, const kubelet_plan *k)
{
	const topology *t = s->plan->topo;
	pod_room r = {.gpus_known = t->has_gpus};
	int per[MODEL_MAX_NUMA] = {0};
	for (int c = 0; k && c < t->ncores; c++)
		for (int u = 0; u < t->cores[c].npus; u++)
			if (!topo_cpulist_has(k->reserved_cpus, t->cores[c].pus[u]) && t->cores[c].numa < MODEL_MAX_NUMA)
				per[t->cores[c].numa]++;
	for (int n = 0; n < t->nnuma && n < MODEL_MAX_NUMA; n++) {
		r.gpus += t->numa[n].gpus;
		r.numa_gpus = t->numa[n].gpus > r.numa_gpus ? t->numa[n].gpus : r.numa_gpus;
		r.cpus += per[n];
		r.numa_cpus = per[n] > r.numa_cpus ? per[n] : r.numa_cpus;
	}
	return r;
}

/* One ask of the client template (GPUs or CPUs) against one spec: more than
 * the node has (k8s-client-fit), or more than one NUMA node has under
 * single-numa-node (k8s-client-topology: its filter keeps single-node
 * hints only, and a pod no single node can hold is refused with
 * TopologyAffinityError). True when it reported. */
static bool lint_ask(model *m, const node_spec *s, const kubelet_plan *k, const opt_int *ask, const char *what,
		     const char *shown, int node, int numa, bool hinted)
{
	if (ask->v > node) {
		diag *d = diag_report(m->dc, R_K8S_CLIENT_FIT, ask->loc,
				      "a training pod asks for %lld %s, but %s's nodes have %d for pods: it never schedules there",
				      (long long)ask->v, shown, s->origin, node);
		diag_help(m->dc, d, "ask for at most %d: `client_%s %d`", node, what, node);
		return true;
	}
	/* single-numa-node refuses only what some manager hints: no hint, no
	 * refusal (filterSingleNumaHints keeps a nil hint list's default) */
	if (!k || !hinted || strcmp(k->topology, "single-numa-node") || ask->v <= numa)
		return false;
	src_loc at = s->kubelet.topology.set ? s->kubelet.topology.loc : ask->loc;
	diag *d = diag_report(m->dc, R_K8S_CLIENT_TOPOLOGY, at,
			      "topology single-numa-node refuses a training pod that asks for %lld %s on %s: one NUMA node has "
			      "at most %d (TopologyAffinityError)", (long long)ask->v, shown, s->origin, numa);
	if (s->kubelet.topology.set)
		diag_note_at(m->dc, d, ask->loc, "the pod's ask");
	const char *admits = node_kubelet_admit(m, s, "restricted").admitted ? "restricted" : "best-effort";
	diag_help(m->dc, d, "write `topology %s` in the kubelet block (%s), or ask for at most %d: `client_%s %d`", admits,
		  admits[0] == 'r' ? "it admits a pod spread over the fewest NUMA nodes that hold it"
				   : "it admits the pod; restricted would refuse it too", numa, what, numa);
	return true;
}

/* What the topology manager refuses beyond a count one NUMA node lacks:
 * restricted with a Guaranteed pod whose GPUs prefer more NUMA nodes than
 * its CPUs or memory (kube_admit.c). Reported at the spec's topology line
 * (the planned default never refuses). */
static void lint_admission(model *m, const node_spec *s, const kubelet_plan *k)
{
	kube_admission a = node_kubelet_admit(m, s, NULL);
	if (a.admitted || !s->kubelet.topology.set)
		return;
	const kube_spec *ks = &m->cluster.kube;
	bool gpus_spread = a.gpu_mask && (a.gpu_mask & (a.gpu_mask - 1));
	diag *d;
	bool pinned = strcmp(k->cpu_manager, "static") == 0 || strcmp(k->memory_manager, "static") == 0;
	if (gpus_spread && a.guaranteed && pinned)
		d = diag_report(m->dc, R_K8S_CLIENT_TOPOLOGY, s->kubelet.topology.loc,
				"topology %s refuses the Guaranteed training pod on %s (TopologyAffinityError): its %lld GPUs "
				"need NUMA nodes %s, while its %s one NUMA node",
				k->topology, s->origin, (long long)ks->client_gpus.v, kube_numa_list(m->ar, a.gpu_mask),
				strcmp(k->memory_manager, "static") == 0 && strcmp(k->cpu_manager, "static") == 0
					? "CPUs and memory fit" : strcmp(k->cpu_manager, "static") == 0 ? "CPUs fit" : "memory fits");
	else
		d = diag_report(m->dc, R_K8S_CLIENT_TOPOLOGY, s->kubelet.topology.loc,
				"topology %s refuses the training pod on %s (TopologyAffinityError): no NUMA node set is "
				"preferred by every resource it asks for", k->topology, s->origin);
	diag_note_at(m->dc, d, SRC_LOC_NONE,
		     "%s admits only a merged hint every manager prefers; each prefers the fewest NUMA nodes the machine "
		     "could give it (pkg/kubelet/cm/topologymanager/policy.go, mergePermutation)", k->topology);
	/* the policy dslc would write: restricted where that admits the pod */
	const char *admits = node_kubelet_admit(m, s, "restricted").admitted ? "restricted" : "best-effort";
	kube_admission be = node_kubelet_admit(m, s, admits);
	diag_help(m->dc, d, "write `topology %s` in the kubelet block, or drop `topology` (dslc then writes %s): the pod is "
		  "admitted%s%s%s", admits, admits, be.mask ? " with NUMA affinity " : "",
		  be.mask ? kube_numa_list(m->ar, be.mask) : "", a.guaranteed && strcmp(k->cpu_manager, "static") == 0
		  ? ", its CPUs still exclusive" : "");
}

static void lint_clients(model *m)
{
	const kube_spec *ks = &m->cluster.kube;
	bool gpus = ks->client_gpus.set, cpus = ks->client_cpus.set;
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		if (!kube_in_pods(s))
			continue;
		const kubelet_plan *k = node_kubelet_plan(m, s);
		pod_room r = room_of(s, k);
		bool told = false;
		/* hints: the device plugin's GPUs, not claimed ones (DRA gives the
		 * topology manager none); the static CPU manager's for a
		 * Guaranteed pod only (policy_static.go GetPodTopologyHints) */
		if (gpus && r.gpus_known &&
		    (told = lint_ask(m, s, k, &ks->client_gpus, "gpus", "GPUs", r.gpus, r.numa_gpus, !ks->client_gpu_class.set)))
			gpus = false; /* once: the line is the cluster's */
		if (cpus && k && strcmp(k->cpu_manager, "static") == 0 &&
		    lint_ask(m, s, k, &ks->client_cpus, "cpus", "CPUs", r.cpus, r.numa_cpus, ks->client_memory.set)) {
			cpus = false;
			told = true;
		}
		if (k && !told)
			lint_admission(m, s, k);
	}
	if (ks->client_cpus.set && !ks->client_memory.set) {
		diag *d = diag_report(m->dc, R_K8S_CLIENT_QOS, ks->client_cpus.loc,
				      "client_cpus without client_memory: the training pod is Burstable, and the static CPU "
				      "manager gives exclusive CPUs to Guaranteed pods only");
		diag_help(m->dc, d, "add `client_memory <size>` (request = limit, as the CPUs): the pod is Guaranteed then");
	}
}

/* client_gpu_class as written cannot be served: node_dra_why says why
 * (the target writes nothing then either). */
static void lint_dra(model *m)
{
	const kube_spec *ks = &m->cluster.kube;
	const node_spec *s;
	const char *why = node_dra_why(m, &s);
	if (!why || safe_k8s_subdomain(ks->client_gpu_class.v))
		return; /* no claim, or bad-value's */
	if (!s) {
		diag *d = diag_report(m->dc, R_K8S_DRA_UNSUPPORTED, ks->client_gpu_class.loc, "%s", why);
		diag_help(m->dc, d, "%s", ks->client_gpus.set ? "add `client_namespace <name>`, the namespace of the training jobs, "
								"to the kubernetes block"
							      : "add `client_gpus <n>`, the GPUs a training pod claims, to the kubernetes block");
		return;
	}
	src_loc at = s->kubelet.version.set ? s->kubelet.version.loc : s->kubelet.set ? s->kubelet.loc : s->deploy.loc;
	diag *d = diag_report(m->dc, R_K8S_DRA_UNSUPPORTED, at, "%s", why);
	diag_note_at(m->dc, d, ks->client_gpu_class.loc, "client_gpu_class asks for the GPUs through DRA here");
	diag_help(m->dc, d, "where the cluster runs Kubernetes 1.34 or later, declare it in %s's kubelet block: "
		  "`version 1.34`; else drop client_gpu_class (the device plugin's nvidia.com/gpu)", s->origin);
}

/* server_memory, the cluster's one override, against the spec whose pod
 * holds the most: one finding however many specs it is short for. */
static void lint_server_memory(model *m)
{
	const kube_spec *ks = &m->cluster.kube;
	const kube_plan *most = NULL;
	const node_spec *s = NULL;
	for (size_t i = 0; ks->server_memory.set && i < m->nspecs; i++) {
		const kube_plan *kp = kube_plan_of(m, m->specs[i]);
		if (kp && (!most || kp->need > most->need)) {
			most = kp;
			s = m->specs[i];
		}
	}
	if (!most || most->memory >= most->need)
		return;
	diag *d = diag_report(m->dc, R_K8S_MEMORY_REQUEST, ks->server_memory.loc,
			      "server_memory %llu MiB is below what %s's daos-server pod holds: SCM %llu MiB, the engines' "
			      "own %llu MiB and memory_overhead %llu MiB",
			      (unsigned long long)(most->memory / MiB), s->origin, (unsigned long long)(most->scm / MiB),
			      (unsigned long long)(most->engines_reserved / MiB), (unsigned long long)(most->overhead / MiB));
	diag_note_at(m->dc, d, SRC_LOC_NONE, "DAOS keeps max(targets x 128 MiB, 1 GiB) per engine beside its RAM disk "
		     "(src/control/server/storage/scm.go, DefaultTgtMemRsvd, DefaultEngineMemRsvd)");
	const char *need = most->need % GiB == 0 ? arena_printf(m->ar, "%lluGiB", (unsigned long long)(most->need / GiB))
		: arena_printf(m->ar, "%lluMiB", (unsigned long long)((most->need + MiB - 1) / MiB));
	diag_help(m->dc, d, "write `server_memory %s`, or drop it", need);
	diag_fix_edit(m->dc, d, ks->server_memory.loc, "server_memory %s", need);
}

/* Kernels before 6.2 reset a thread's affinity when its cpuset changes. */
static bool kernel_before_6_2(const char *os)
{
	static const char *const old[] = {"debian12", "ubuntu22.04", "rhel8", "rhel9", "rocky8", "rocky9", "alma8", "alma9", NULL};
	for (int i = 0; os && old[i]; i++)
		if (strcmp(os, old[i]) == 0)
			return true;
	return false;
}

static void lint_env(model *m, const node_plan *p)
{
	src_loc seen[MODEL_MAX_NUMA];
	int nseen = 0;
	for (int i = 0; i < p->nengines; i++) {
		const env_list *env = &p->engines[i].env;
		for (size_t j = 0; j < env->n; j++) {
			const env_entry *e = &env->items[j];
			if (strcmp(e->name, "HWLOC_ALLOW") || strcmp(e->value, "all") == 0)
				continue;
			bool dup = false;
			for (int k = 0; k < nseen; k++)
				dup |= memcmp(&seen[k], &e->loc, sizeof(e->loc)) == 0;
			if (dup)
				continue;
			seen[nseen++] = e->loc;
			diag *d = diag_report(m->dc, R_K8S_HWLOC_ALLOW, e->loc,
					      "HWLOC_ALLOW=%s: engine %d in a pod would count first_core %d over its container's cores only",
					      e->value, i, p->engines[i].first_core);
			diag_help(m->dc, d, "remove this env line: dslc sets HWLOC_ALLOW=all for engines in pods");
		}
	}
}

static void lint_kernel(model *m, const node_spec *s, const kube_plan *kp)
{
	const kernel_plan *k = node_kernel_plan(m, s);
	for (size_t i = 0; k && i < k->params.n; i++) {
		const env_entry *e = &k->params.items[i];
		if (strcmp(e->name, "transparent_hugepage") == 0 && strcmp(e->value, "never")) {
			diag *d = diag_report(m->dc, R_K8S_THP, e->loc,
					      "transparent_hugepage=%s: daos_server in a pod refuses to start unless THP is never", e->value);
			diag_help(m->dc, d, "remove this param: dslc writes transparent_hugepage=never for nodes with DAOS in pods");
		} else if (strcmp(e->name, "hugepages") == 0 && e->loc.file && strtoll(e->value, NULL, 10) < kp->boot_hugepages) {
			diag *d = diag_report(m->dc, R_K8S_HUGEPAGES_BOOT, e->loc,
					      "hugepages=%s reserves fewer pages at boot than the pods request (%lld of %s%s)",
					      e->value, (long long)kp->boot_hugepages, kp->kernel_pagesize,
					      kp->client_hugepages ? arena_printf(m->ar, ": the daos-server pod's %lld and a training pod's %lld",
										(long long)kp->hugepages, (long long)kp->client_hugepages) : "");
			diag_help(m->dc, d, "remove this param (dslc writes hugepages=%lld), or write `param hugepages=%lld`",
				  (long long)kp->boot_hugepages, (long long)kp->boot_hugepages);
			/* the fix removes it: a written count would stay when the pods' needs change */
			src_loc stmt = diag_loc_with_keyword(m->dc, e->loc, "param");
			if (stmt.start != e->loc.start)
				diag_fix_edit(m->dc, d, diag_loc_line_if_alone(m->dc, stmt), "%s", "");
		} else if (strcmp(e->name, "hugepagesz") == 0 && e->loc.file && strcmp(e->value, kp->kernel_pagesize)) {
			diag *d = diag_report(m->dc, R_K8S_HUGEPAGES_BOOT, e->loc,
					      "hugepagesz=%s, but DAOS uses %s pages here: the pod's %s request finds none reserved",
					      e->value, kp->kernel_pagesize, kp->hugepage_resource);
			diag_help(m->dc, d, "remove this param: dslc writes hugepagesz=%s", kp->kernel_pagesize);
		}
	}
}

static void lint_kubelet(model *m, const node_spec *s)
{
	const kubelet_plan *k = node_kubelet_plan(m, s);
	const kubelet_spec *ks = &s->kubelet;
	if (!k)
		return;
	src_loc at = ks->set ? ks->loc : s->deploy.loc;
	if (k->minor >= 0 && k->minor < 30) {
		diag *d = diag_report(m->dc, R_K8S_VERSION, ks->version.set ? ks->version.loc : at,
				      "Kubernetes 1.%d has no securityContext.appArmorProfile (1.30), which the daos-server pod needs%s",
				      k->minor, ks->version.set ? "" : " (the OS's own kubelet)");
		diag_help(m->dc, d, "run Kubernetes 1.30 or later and declare it: `kubelet { version 1.30 }`");
	}
	if (strcmp(k->cpu_manager, "static"))
		return;
	if (ks->strict.set && strcmp(ks->strict.v, "on") == 0) {
		diag *d = diag_report(m->dc, R_K8S_STRICT_RESERVATION, ks->strict.loc,
				      "strict_reservation on keeps every pod, daos-server too, off the engine CPUs");
		diag_note_at(m->dc, d, s->deploy.loc, "the engines run in pods here");
		diag_help(m->dc, d, "write `strict_reservation off` (the engine CPUs stay reserved from exclusive allocation), "
			  "or `deploy systemd`");
		diag_fix_edit(m->dc, d, ks->strict.loc, "strict_reservation off");
	} else {
		diag *d = diag_report(m->dc, R_K8S_SHARED_ENGINE_CPUS, s->deploy.loc,
				      "with DAOS in pods, Burstable and BestEffort pods share the engine and OS CPUs (%s)", k->reserved_cpus);
		diag_note_at(m->dc, d, SRC_LOC_NONE, "Guaranteed pods with integer CPUs never get them: they stay in reservedSystemCPUs");
		diag_help(m->dc, d, "run training pods as Guaranteed and allow this rule with that reason, or `deploy systemd` "
			  "for strict isolation");
	}
	/* an override the kubelet cannot parse is the gate's (safety.c): no
	 * advice is built on it */
	if (!(ks->reserved_cpus.set && safe_cpulist(m->ar, ks->reserved_cpus.v, 0)) && !topo_cpulist_has(k->reserved_cpus, 0)) {
		diag *d = diag_report(m->dc, R_K8S_CPU0, ks->reserved_cpus.set ? ks->reserved_cpus.loc : s->os_cores.set ? s->os_cores.loc : at,
				      "CPU 0 is not in reservedSystemCPUs (%s): a Guaranteed pod can take it, and SPDK in the "
				      "daos-server pod pins its main thread there", k->reserved_cpus);
		if (ks->reserved_cpus.set)
			diag_help(m->dc, d, "put CPU 0 in reserved_cpus: `reserved_cpus \"0,%s\"`", k->reserved_cpus);
		else
			diag_help(m->dc, d, "reserve the OS cores at the start of each NUMA node: `reserve os %lld cores per numa at start`",
				  (long long)(s->os_cores.set && s->os_cores.v > 0 ? s->os_cores.v : 1));
	}
	if (kernel_before_6_2(s->os.set ? s->os.v : NULL)) {
		diag *d = diag_report(m->dc, R_K8S_CPUSET_KERNEL, s->os.loc,
				      "%s's kernel is older than 6.2: when the kubelet changes the daos-server cpuset, the engines "
				      "lose their pinning", s->os.v);
		diag_help(m->dc, d, "run a 6.2+ kernel (azurelinux3, ubuntu24.04, debian13, rhel10), or confirm the backport of "
			  "da019032819a and allow this rule with that reason");
	}
	/* one container holds every engine's devices */
	bool spread = false;
	const node_plan *p = s->plan;
	for (int i = 1; i < p->nengines; i++)
		spread |= p->engines[i].numa != p->engines[0].numa;
	const kube_spec *kc = &m->cluster.kube;
	/* restricted refuses it too: per-NIC hints {0} and {1} merge to nothing */
	if (spread && (strcmp(k->topology, "single-numa-node") == 0 || strcmp(k->topology, "restricted") == 0)) {
		if (kc->rdma_numa.set) {
			diag *d = diag_report(m->dc, R_K8S_DEVICE_NUMA, kc->rdma_numa.loc,
					      "%s reports NUMA topology, and the daos-server container holds devices of %d NUMA nodes: "
					      "%s rejects the pod", kube_rdma_resource(m), p->topo->nnuma, k->topology);
			diag_help(m->dc, d, "turn NUMA reporting off in the device plugin and drop `numa` here");
		}
	}
}

/* dslc writes containerd's CRI option only where it knows how the node's
 * release merges it (compiler/place/containerd.c) */
static void lint_containerd(model *m, const node_spec *s)
{
	ctrd_release r = ctrd_of(s);
	if (r.way != CTRD_UNKNOWN)
		return;
	diag *d = diag_report(m->dc, R_K8S_CONTAINERD_RELEASE, r.loc,
			      "%s: dslc cannot tell which containerd the nodes run%s, and containerd 1.x and 2.x take "
			      "device_ownership_from_security_context differently: it writes neither", s->origin,
			      s->os.set ? arena_printf(m->ar, " (%s ships none)", s->os.v) : " (no `os` line)");
	diag_help(m->dc, d, "write `containerd 1.7` (major.minor of what `containerd --version` prints on the nodes) in %s",
		  s->origin);
}

void kube_lint_spec(model *m, const node_spec *s)
{
	const kube_plan *kp = kube_plan_of(m, s);
	if (!kp)
		return;
	const kube_spec *ks = &m->cluster.kube;
	lint_env(m, s->plan);
	lint_kernel(m, s, kp);
	lint_containerd(m, s);
	lint_kubelet(m, s);
	if (ks->client_hugepages.set && kp->hugepage_size == GiB) {
		diag *d = diag_report(m->dc, R_K8S_CLIENT_HUGEPAGES, ks->client_hugepages.loc,
				      "client_hugepages asks for 2 MiB pages, but %s reserves 1 GiB pages at boot for DAOS: no "
				      "hugepages-2Mi exist there", s->origin);
		diag_help(m->dc, d, "drop client_hugepages, or give DAOS 2 MiB pages (`hugepage_size 2MiB` in hardware %s)",
			  s->hw->name);
	}
}
