/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* os_lint.c - see os_lint.h. */
#include "os_lint.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "compiler/place/kube.h"
#include "compiler/place/node_os.h"
#include "isolation_lint.h"
#include "kube_lint.h"

static const char *const kernel_params[] = {
#define KERNEL_PARAM(n) n,
#include "schemas/kernel_params.def"
#undef KERNEL_PARAM
	NULL,
};

/* A CPU number of a cpulist, clamped to [-1, 65536] so no parse overflows. */
static int cpu_of(const char *s)
{
	long v = strtol(s, NULL, 10);
	return v < 0 ? -1 : v > 65536 ? 65536 : (int)v;
}

static bool known_param(const char *name)
{
	for (const char *const *p = kernel_params; *p; p++)
		if (strcmp(*p, name) == 0)
			return true;
	return false;
}

static bool lint_param_syntax(model *m, const env_entry *e)
{
	const char *words[] = {e->name, e->value};
	for (int w = 0; w < 2; w++) {
		char bad;
		const char *why = safe_kernel_word(words[w], &bad);
		if (!why)
			continue;
		diag *d = diag_report(m->dc, R_KERNEL_PARAM_SYNTAX, e->loc,
				      *e->value ? "'%s=%s' holds '%c': %s" : "'%s%s' holds '%c': %s",
				      safe_echo(m->ar, e->name), safe_echo(m->ar, e->value), bad, why);
		const char *dollar = strchr(e->value, '$');
		if (bad == '$' && w == 1 && strcmp(e->name, "memmap") == 0)
			diag_help(m->dc, d, "for emulated PMEM write memmap=%.*s!%s (the kernel takes '!' for the same region)",
				  (int)(dollar - e->value), e->value, dollar + 1);
		else
			diag_help(m->dc, d, "remove the '%c'; dslc writes parameters verbatim and cannot quote them for both sh and GRUB", bad);
		return false;
	}
	return true;
}

/* A parameter `isolate engines` wrote: it carries that keyword's location. */
static bool from_isolate(const node_spec *s, const env_entry *e)
{
	const src_loc *l = &s->kernel.isolate.loc;
	return s->kernel.isolate.set && e->loc.file == l->file && e->loc.start == l->start && e->loc.end == l->end;
}

/* The first parameter `isolate engines` wrote, or NULL. */
static const env_entry *isolated_first(const kernel_plan *k, const node_spec *s)
{
	for (size_t i = 0; i < k->params.n; i++)
		if (from_isolate(s, &k->params.items[i]))
			return &k->params.items[i];
	return NULL;
}

static void lint_kernel(model *m, const node_spec *s, const kernel_plan *k)
{
	diag_ctx *dc = m->dc;
	if (k->family == GRUB_NONE) {
		diag *d = diag_report(dc, R_KERNEL_OS, s->kernel.set ? s->kernel.loc : s->hw->name_loc,
				      "%s needs a kernel command line but names no OS", s->origin);
		diag_help(dc, d, "add `os <distribution>` (debian12, ubuntu24.04, rhel9, rocky9, azurelinux3, ...) to the profile");
	}
	for (size_t i = 0; i < k->params.n; i++) {
		const env_entry *e = &k->params.items[i];
		if (!lint_param_syntax(m, e))
			continue;
		bool isolation = from_isolate(s, e);
		if (strcmp(e->name, "pcie_acs_override") == 0) {
			diag *d = diag_report(dc, R_KERNEL_ACS_OVERRIDE, e->loc, "pcie_acs_override fakes ACS isolation (and stock kernels ignore it)");
			diag_help(dc, d, "remove it and enable ACS in the BIOS settings instead");
		} else if (strcmp(e->name, "amd_iommu") == 0 && strcmp(e->value, "on") == 0) {
			diag *d = diag_report(dc, R_KERNEL_AMD_IOMMU_ON, e->loc, "amd_iommu has no value 'on'; the kernel ignores it");
			diag_help(dc, d, "remove it: the AMD IOMMU is on when the BIOS enables it; add `iommu pt` for VFIO");
		} else if (isolation && (s->kubelet.set || spec_in_pods(s))) {
			/* one finding for the three lists `isolate engines` writes */
			if (e == isolated_first(k, s)) {
				diag *d = diag_report(dc, R_KERNEL_ISOLCPUS, e->loc, "isolate engines beside a kubelet: the kubelet "
						      "does not know isolcpus and schedules pods on those CPUs");
				diag_help(dc, d, "drop `isolate engines`; the kubelet block keeps pods off the OS and engine CPUs");
			}
		} else if (strcmp(e->name, "isolcpus") == 0 && (s->kubelet.set || spec_in_pods(s))) {
			diag *d = diag_report(dc, R_KERNEL_ISOLCPUS, e->loc, "isolcpus is deprecated and the kubelet ignores it");
			diag_help(dc, d, "remove it; the kubelet block keeps pods off the OS and engine CPUs");
		} else if (isolation) {
			/* the lists `isolate engines` wrote are right by construction */
		} else if (strcmp(e->name, "isolcpus") == 0 || strcmp(e->name, "nohz_full") == 0 || strcmp(e->name, "rcu_nocbs") == 0) {
			isolation_lint_param(m, s, e);
		} else if (strcmp(e->name, "iommu") == 0 && strcmp(e->value, "off") == 0 && node_has_nvme(s->plan)) {
			diag *d = diag_report(dc, R_KERNEL_IOMMU_PT, e->loc,
					      "iommu=off, but the engines drive NVMe through VFIO, which needs the IOMMU");
			diag_help(dc, d, "write `iommu pt` (the default)");
			/* written `iommu off` or `param iommu=off`: the fix keeps the form */
			diag_fix_name(dc, d, e->loc, "iommu off", "iommu pt");
			diag_fix_name(dc, d, e->loc, "iommu=off", "iommu=pt");
		} else if (strcmp(e->name, "transparent_hugepage") == 0 && strcmp(e->value, "never") && s->plan->nengines &&
			   node_thp_checked(m) && !spec_in_pods(s)) {
			/* pods: k8s-thp says it */
			diag *d = diag_report(dc, R_KERNEL_THP, e->loc,
					      "transparent_hugepage=%s: daos_server refuses to start unless THP is never (DAOS %s)",
					      e->value, node_thp_releases(m));
			diag_help(dc, d, "remove this param: dslc writes transparent_hugepage=never for nodes that run engines");
		} else if (!known_param(e->name)) {
			diag *d = diag_report(dc, R_KERNEL_PARAM_UNKNOWN, e->loc, "'%s' is not a kernel parameter dslc knows", e->name);
			const char *sug = NULL;
			size_t bd = 3;
			for (const char *const *p = kernel_params; *p; p++) {
				size_t dd = val_edit_distance_within(e->name, *p, bd);
				if (dd < bd) {
					bd = dd;
					sug = *p;
				}
			}
			if (sug)
				diag_help(dc, d, "did you mean '%s'? The kernel passes unknown parameters to init silently", sug);
			else
				diag_help(dc, d, "check it against the kernel's admin-guide/kernel-parameters.txt");
		}
	}
}

/* Cores left to pods per NUMA node: neither the OS's nor an engine's. With
 * single-numa-node a NUMA node without one can take no Guaranteed pod. */
static void lint_pod_cpus(model *m, const node_spec *s, const kubelet_plan *k)
{
	const node_plan *p = s->plan;
	const topology *t = p->topo;
	int free_cores[MODEL_MAX_NUMA] = {0}, total = 0;
	for (int c = 0; c < t->ncores; c++) {
		int n = t->cores[c].numa;
		if (!place_core_reserved(p, c) && n < MODEL_MAX_NUMA) {
			free_cores[n]++;
			total++;
		}
	}
	src_loc where = s->kubelet.set ? s->kubelet.loc : s->deploy.loc;
	if (!total) {
		diag *d = diag_report(m->dc, R_KUBELET_NO_POD_CPUS, where,
				      "every CPU of %s is reserved for the OS and DAOS: Kubernetes has none for pods", s->origin);
		diag_help(m->dc, d, "reserve fewer OS cores or engine cores, or drop the kubelet block on storage-only nodes");
		return;
	}
	for (int n = 0; n < t->nnuma; n++)
		if (!free_cores[n]) {
			diag *d = diag_report(m->dc, R_KUBELET_NUMA_NO_POD_CPUS, where,
					      "NUMA node %d of %s has no CPU left for pods", t->numa[n].os_index, s->origin);
			if (strcmp(k->topology, "single-numa-node") == 0)
				diag_note_at(m->dc, d, SRC_LOC_NONE, "with topology single-numa-node a Guaranteed pod that needs "
					     "this NUMA node's devices (GPUs, NICs) cannot be admitted");
			diag_help(m->dc, d, "reserve fewer cores on NUMA node %d, or accept it with a reason", t->numa[n].os_index);
		}
}

static void lint_kubelet(model *m, const node_spec *s, const kubelet_plan *k)
{
	diag_ctx *dc = m->dc;
	const kubelet_spec *ks = &s->kubelet;
	const node_plan *p = s->plan;
	if (ks->reserved_cpus.set && !safe_cpulist(m->ar, ks->reserved_cpus.v, 0)) {
		/* every OS and engine CPU must be in the override (one the
		 * kubelet cannot parse is the gate's: safety.c) */
		int missing = -1, count = 0;
		char *list = arena_strdup(m->ar, ks->reserved_cpus.v);
		bool in[65536] = {false};
		for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
			int a = cpu_of(tok), b = strchr(tok, '-') ? cpu_of(strchr(tok, '-') + 1) : a;
			for (int c = a; c <= b && c >= 0 && c < 65536; c++)
				in[c] = true;
		}
		for (int c = 0; c < p->topo->ncores; c++) {
			if (!place_core_reserved(p, c))
				continue;
			for (int j = 0; j < p->topo->cores[c].npus; j++) {
				int cpu = p->topo->cores[c].pus[j];
				if (cpu < 65536 && !in[cpu]) {
					if (missing < 0)
						missing = cpu;
					count++;
				}
			}
		}
		if (missing >= 0) {
			diag *d = diag_report(dc, R_KUBELET_RESERVED_CPUS, ks->reserved_cpus.loc,
					      "reserved_cpus leaves %d OS or engine CPU%s to pods (CPU %d first)", count,
					      count == 1 ? "" : "s", missing);
			const char *cpus = place_reserved_cpus(m->ar, p);
			diag_help(dc, d, "drop reserved_cpus, or write `reserved_cpus \"%s\"`", cpus);
			diag_fix_quoted(dc, d, ks->reserved_cpus.loc, "reserved_cpus ", cpus, "");
		}
	}
	if (ks->strict.set && strcmp(ks->strict.v, "on") == 0 && k->minor >= 0 && k->minor < 32) {
		diag *d = diag_report(dc, R_KUBELET_VERSION, ks->strict.loc,
				      "strict_reservation needs kubelet 1.32 or later, but this kubelet is 1.%d%s", k->minor,
				      ks->version.set ? "" : " (the OS's own)");
		diag_help(dc, d, "declare the kubelet you run (`version 1.33`), or write `strict_reservation off` and accept "
			  "that burstable pods share the engine CPUs");
	} else if (strcmp(k->cpu_manager, "static") == 0 && !k->strict && k->minor >= 0 && !ks->strict.set && !spec_in_pods(s)) {
		diag *d = diag_report(dc, R_KUBELET_STRICT_RESERVATION, ks->version.set ? ks->version.loc : ks->loc,
				      "Kubernetes 1.%d has no strict-cpu-reservation: pods share the DAOS engine CPUs", k->minor);
		diag_help(dc, d, "run 1.32 or later and declare it: `version 1.33`");
	}
	lint_pod_cpus(m, s, k);
	uint64_t hp_total = 0;
	/* in pods the pages are reserved at boot, spread over the NUMA nodes,
	 * a training pod's with DAOS's (kube.c) */
	const kube_plan *kp = kube_plan_of(m, s);
	for (int n = 0; n < k->nnuma; n++) {
		uint64_t mem = p->topo->numa[n].memory, hp = kp ? kube_boot_hugepages_on(kp, k->nnuma, n) : place_hugepages_on(p, n);
		hp_total += place_hugepages_on(p, n);
		if (mem && k->numa_reserved[n] + hp > mem) {
			diag *d = diag_report(dc, R_KUBELET_MEMORY, ks->set ? ks->loc : s->deploy.loc,
					      "NUMA node %d must reserve %llu MiB and hold %llu MiB of hugepages but has %llu MiB", n,
					      (unsigned long long)(k->numa_reserved[n] / MiB), (unsigned long long)(hp / MiB),
					      (unsigned long long)(mem / MiB));
			diag_help(dc, d, "lower the SCM size, hugepages or the kubelet reservations");
		}
	}
	if (hp_total) {
		diag *d = diag_report(dc, R_KUBELET_HUGEPAGES, ks->set ? ks->loc : s->deploy.loc,
				      "DAOS's %llu MiB of hugepages stay allocatable to pods as hugepages-%s",
				      (unsigned long long)(hp_total / MiB), p->hugepage_size == GiB ? "1Gi" : "2Mi");
		diag_note_at(dc, d, SRC_LOC_NONE, "the kubelet lists pre-allocated hugepages as a resource of their own; "
			     "reserving them as memory would not keep pods off them");
		diag_help(dc, d, "keep pods from requesting hugepages on DAOS nodes (a ResourceQuota or an admission policy), "
			  "then allow this rule with that reason");
	}
}

/* Each attribute's name against the BMC's dialect: it reads the name and the
 * hardware's bmc block only, so it runs on a spec whatever else in it is wrong. */
static void lint_bios_names(model *m, const node_spec *s)
{
	diag_ctx *dc = m->dc;
	const hardware *hw = s->hw;
	bool nested = hw_bios_nested(hw);
	bool grouped_only = nested && !hw->bmc_dialect.set; /* vendor ami: no flat name at all */
	for (size_t i = 0; i < s->bios.n; i++) {
		const env_entry *e = &s->bios.items[i];
		const char *dot = strchr(e->name, '.');
		bool ok = (e->name[0] >= 'A' && e->name[0] <= 'Z') || (e->name[0] >= 'a' && e->name[0] <= 'z');
		for (const char *p = e->name + 1; *p; p++)
			ok &= (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
			      (nested && p == dot);
		ok &= e->name[1] != '\0' && (!nested || !dot || (dot[1] && !strchr(dot + 1, '.')));
		if (!ok) {
			diag *d = diag_report(dc, R_BIOS_ATTRIBUTE_NAME, e->loc, "'%s' is not a%s BIOS attribute name", e->name,
					      nested ? " Group.Name" : " flat");
			if (!nested && dot)
				diag_help(dc, d, "write the BMC's flat name (e.g. `%s = ...`), or set `dialect nested` in the bmc block "
					  "if this vendor groups attributes", dot + 1);
			else
				diag_help(dc, d, "names are a letter, then letters, digits or '_' (DMTF Bios schema)");
		} else if (grouped_only && !dot) {
			diag *d = diag_report(dc, R_BIOS_ATTRIBUTE_NAME, e->loc, "'%s' has no group: this BMC (vendor %s) takes "
					      "Group.Name attributes only, and a flat name returns 400", e->name, hw->bmc_vendor.v);
			diag_note_at(dc, d, hw->bmc_vendor.loc, "the vendor is set here");
			diag_help(dc, d, "write `AmdSetup.%s` (AMD CBS settings on AMI; other groups as the BMC's attribute registry "
				  "lists them)", e->name);
		}
	}
}

static void lint_bios(model *m, const node_spec *s)
{
	diag_ctx *dc = m->dc;
	const hardware *hw = s->hw;
	if (!hw->bmc_set) {
		diag *d = diag_report(dc, R_BMC_MISSING, s->bios_loc, "BIOS settings, but hardware %s has no bmc block", hw->name);
		diag_help(dc, d, "add `bmc redfish { system 1 }` to hardware %s, and `bmc <address>` to its nodes", hw->name);
	} else if (!s->bmc.set && !s->bmc.loc.file) { /* a broken template is given, and reported */
		diag *d = diag_report(dc, R_BMC_MISSING, s->bios_loc, "BIOS settings, but %s gives its nodes no bmc address", s->origin);
		diag_help(dc, d, "add `bmc 10.30.0.{10+i}` (or the real addresses) to the nodes block");
	}
	lint_bios_names(m, s);
}

/* The ring sizes a NIC's driver takes (ethtool -G), by PCI vendor and device
 * ID ranges; the sources are in nic-link's explanation. */
static const struct nic_limits {
	uint16_t vendor, first, last;
	const char *driver;
	int64_t max_ring;
} nic_limits[] = {
	{0x15b3, 0x1013, 0x1025, "mlx5_core (ConnectX-4 and later)", 8192},
	{0x15b3, 0xa2d2, 0xa2dc, "mlx5_core (BlueField)", 8192},
	{0x8086, 0x1591, 0x159b, "ice (E810)", 8160},
};

static void lint_nic_link(model *m, const node_spec *s)
{
	const struct link_spec *l = &s->network.link;
	const node_plan *p = s->plan;
	if (!p)
		return;
	bool reported[2] = {false, false}; /* once per setting, at the first NIC that cannot take it */
	for (int i = 0; i < place_fabric_nic_count(p); i++) {
		const nic_desc *n = place_fabric_nic(p, i);
		if (!n)
			continue;
		if (!n->pci[0]) {
			diag *d = diag_report(m->dc, R_NIC_LINK, l->loc, "storage NIC %s has no PCI address: its .link file has nothing to match",
					      n->name);
			diag_note_at(m->dc, d, n->loc, "the NIC is described here");
			diag_help(m->dc, d, "give the NIC its address, `nic %s pci <dddd:bb:dd.f> ...`, or use a topology export", n->name);
			continue;
		}
		const topo_device *dv = p->topo ? topo_find_nic(p->topo, n->pci, n->name) : NULL;
		for (size_t k = 0; dv && k < sizeof(nic_limits) / sizeof(nic_limits[0]); k++) {
			const struct nic_limits *lim = &nic_limits[k];
			if (dv->vendor != lim->vendor || dv->device_id < lim->first || dv->device_id > lim->last)
				continue;
			const opt_int *rings[] = {&l->rx_ring, &l->tx_ring};
			for (int r = 0; r < 2; r++)
				if (rings[r]->set && rings[r]->v > lim->max_ring && !reported[r]) {
					reported[r] = true;
					diag *d = diag_report(m->dc, R_NIC_LINK, rings[r]->loc,
							      "%s %lld is more than %s on %s takes (%lld): the kernel refuses it and udev only logs it",
							      r ? "tx_ring" : "rx_ring", (long long)rings[r]->v, lim->driver, n->name,
							      (long long)lim->max_ring);
					diag_help(m->dc, d, "write `%s %lld`", r ? "tx_ring" : "rx_ring", (long long)lim->max_ring);
					diag_fix_edit(m->dc, d, rings[r]->loc, "%s %lld", r ? "tx_ring" : "rx_ring",
						      (long long)lim->max_ring);
				}
		}
	}
}

static void lint_network(model *m, const node_spec *s)
{
	diag_ctx *dc = m->dc;
	const network_spec *n = &s->network;
	if (n->bond_over.set && strcmp(n->bond_over.v, "nics") == 0) {
		diag *d = diag_report(dc, R_NETWORK_BOND_PHYSICAL, n->bond_over.loc,
				      "a bond over the physical NICs takes their addresses and RDMA identity");
		diag_help(dc, d, "write `over macvlan`: the bond gets macvlans stacked on the NICs, the NICs keep their own addresses");
		diag_fix_edit(dc, d, n->bond_over.loc, "macvlan");
	}
	int64_t smtu = n->storage_mtu.set ? n->storage_mtu.v : 9000, mmtu = n->mgmt_mtu.set ? n->mgmt_mtu.v : 1500;
	if (mmtu > smtu) {
		diag *d = diag_report(dc, R_NETWORK_MTU, n->mgmt_mtu.loc, "management MTU %lld is above the storage NICs' %lld",
				      (long long)mmtu, (long long)smtu);
		diag_help(dc, d, "a macvlan cannot exceed its NIC's MTU: use mtu %lld or less", (long long)smtu);
	}
	if (n->link.set)
		lint_nic_link(m, s);
}

/* Addresses that reach no file: only the network block's units carry them. */
static void lint_unused_addresses(model *m, const node_spec *s)
{
	diag_ctx *dc = m->dc;
	if (s->nstorage && !s->network.set) {
		diag *d = diag_report(dc, R_UNUSED_VALUE, s->storage[0].loc,
				      "storage addresses that no file carries: no `network` block applies to these nodes, and "
				      "only its networkd units carry them");
		diag_help(dc, d, "add `network { storage mtu 9000 }` to the profile or this block (9000: the RoCE MTU), or drop "
			  "the addresses");
	}
	/* (a bond over the NICs is network-bond-physical's error already) */
	if (s->mgmt.set && !network_mgmt_bonded(&s->network) &&
	    !(s->network.bond_over.set && strcmp(s->network.bond_over.v, "nics") == 0)) {
		diag *d = diag_report(dc, R_UNUSED_VALUE, s->mgmt.loc,
				      "a management address that no file carries: only the bond of `mgmt bond ... over macvlan` "
				      "in a network block takes it, and these nodes have none");
		diag_help(dc, d, "add `mgmt bond active-backup over macvlan` to the network block, or drop the address (the "
			  "site's image keeps the management interface)");
	}
	if (s->k8s_node_name.set && !spec_in_pods(s)) {
		diag *d = diag_report(dc, R_UNUSED_VALUE, s->k8s_node_name.loc,
				      "a Kubernetes node name that no file carries: these nodes run DAOS under systemd, and only "
				      "the scripts of `deploy kubernetes` nodes name nodes in Kubernetes");
		diag_help(dc, d, "drop k8s_node_name, or give these nodes a profile with `deploy kubernetes`");
	}
}

void node_os_lint_values(model *m, const node_spec *s)
{
	lint_unused_addresses(m, s);
	if (s->bios.n && s->hw && s->hw->topo) /* (a hardware read whole: its bmc dialect is known) */
		lint_bios_names(m, s);
}

void node_os_lint(model *m, const node_spec *s)
{
	lint_unused_addresses(m, s);
	if (s->network.set)
		lint_network(m, s);
	if (s->bios.n)
		lint_bios(m, s);
	const kernel_plan *k = node_kernel_plan(m, s);
	if (k)
		lint_kernel(m, s, k);
	const kubelet_plan *kp = node_kubelet_plan(m, s);
	if (kp)
		lint_kubelet(m, s, kp);
	kube_lint_spec(m, s);
}
