/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* machine.c - the machine against its node type: NUMA nodes, cores, SMT and
 * memory per NUMA node; the NICs the description names; the engines' drives
 * (present, NUMA node, driver). The machine is an hwloc topology, read as
 * the build reads an export (topology_xml.c), so both sides count alike. */
#include <stdio.h>
#include <string.h>

#include <ctype.h>
#include <errno.h>

#include "checks.h"
#include "compiler/base/value.h"
#include "compiler/place/place.h"

/* Where the node type says what the machine contradicts: the keyword when
 * written, else its topology export's line, else the hardware block. */
static src_loc hw_loc(const hardware *hw, const opt_int *field)
{
	if (field && field->set)
		return field->loc;
	return hw->topology_file.set ? hw->topology_file.loc : hw->loc;
}

static const char *numa_name(arena *a, int n)
{
	return n == TOPO_NUMA_UNKNOWN ? "no known NUMA node"
	       : n == TOPO_NUMA_SEVERAL ? "several NUMA nodes"
					: arena_printf(a, "NUMA node %d", n);
}

/* NUMA nodes that differ from their node type in the same way (have where
 * it wants want), grouped so that one change is one finding: a group per
 * kind of difference, at most one per NUMA node. */
typedef struct diff_group {
	int have, want;
	uint64_t numas; /* bit n: NUMA node n */
	int n;
} diff_group;
typedef struct numa_diff {
	diff_group group[MODEL_MAX_NUMA];
	int ngroups;
} numa_diff;

static void diff_add(numa_diff *d, int numa, int have, int want)
{
	diff_group *g = NULL;
	for (int i = 0; i < d->ngroups && !g; i++)
		if (d->group[i].have == have && d->group[i].want == want)
			g = &d->group[i];
	if (!g) {
		g = &d->group[d->ngroups++];
		*g = (diff_group){.have = have, .want = want};
	}
	g->numas |= 1ULL << numa;
	g->n++;
}

/* "NUMA node 1", "NUMA nodes 0 and 1", "each of its 2 NUMA nodes" (with
 * cores); the verb after it is has_verb's. */
static const char *has_verb(const diff_group *g, const topology *want)
{
	return g->n > 1 && g->n != doctor_cpu_numas(want) ? "have" : "has";
}

static const char *numa_names(arena *a, const diff_group *g, const topology *want)
{
	if (g->n == doctor_cpu_numas(want) && g->n > 1)
		return arena_printf(a, "each of its %d NUMA nodes", g->n);
	const char *s = g->n == 1 ? "NUMA node" : "NUMA nodes";
	for (int n = 0, i = 0; n < MODEL_MAX_NUMA; n++)
		if (g->numas >> n & 1) {
			s = arena_printf(a, "%s%s%d", s, i == 0 ? " " : i == g->n - 1 ? " and " : ", ", n);
			i++;
		}
	return s;
}

/* The NUMA layout (NUMA nodes with cores: the ones engines, NICs and
 * drives are on), then each such node's cores, SMT and memory. A changed
 * layout (a BIOS NPS or SNC mode) is said once, at the hardware block: the
 * NUMA nodes of the NICs, drives and hugepages say nothing more then. */
static void check_counts(doctor_ctx *c)
{
	const topology *want = c->p->topo, *have = c->topo;
	const hardware *hw = c->nd->spec->hw;
	int wn = doctor_cpu_numas(want), hn = doctor_cpu_numas(have);
	if (wn != hn) {
		diag *d = doctor_report(c, R_NODE_TOPOLOGY, hw_loc(hw, &hw->numa_per_socket),
					"the machine has %d NUMA node%s with CPUs, its node type %s has %d: its NUMA layout "
					"changed, so no NIC's, drive's or hugepage pool's NUMA node is compared",
					hn, hn == 1 ? "" : "s", hw->name, wn);
		diag_help(c->dc, d, "set the BIOS NUMA mode (NPS, SNC) the node type was described with, or describe "
				    "the machine as it is");
		c->numa_changed = true;
		return;
	}
	/* one finding per difference, naming every NUMA node that has it: SMT
	 * switched off in the BIOS is one change, not one per NUMA node */
	numa_diff cores = {0}, threads = {0};
	for (int n = 0; n < want->nnuma; n++) {
		int m = doctor_machine_numa(c, n);
		if (m < 0)
			continue; /* without cores: no engine's */
		const topo_numa *w = &want->numa[n], *h = &have->numa[m];
		if (w->ncores != h->ncores) {
			diff_add(&cores, n, h->ncores, w->ncores);
			continue;
		}
		int wt = doctor_threads_per_core(want, n), ht = doctor_threads_per_core(have, m);
		if (wt != ht)
			diff_add(&threads, n, ht, wt);
	}
	for (int g = 0; g < cores.ngroups; g++) {
		const diff_group *d = &cores.group[g];
		doctor_report(c, R_NODE_TOPOLOGY, hw_loc(hw, &hw->cores_per_socket), "%s %s %d cores, its node type %s has %d",
			      numa_names(c->ar, d, want), has_verb(d, want), d->have, hw->name, d->want);
		c->cores_changed = true;
	}
	for (int g = 0; g < threads.ngroups; g++) {
		const diff_group *t = &threads.group[g];
		diag *d = doctor_report(c, R_NODE_TOPOLOGY, hw_loc(hw, &hw->threads_per_core),
					"%s %s %d thread%s per core, its node type %s has %d", numa_names(c->ar, t, want),
					has_verb(t, want), t->have, t->have == 1 ? "" : "s", hw->name, t->want);
		diag_help(c->dc, d, "switch SMT %s in the BIOS: engines and the kubelet are pinned to CPU numbers "
				    "that assume it", t->want > t->have ? "on" : "off");
	}
}

/* DAOS's own limit on RAM SCM, from the machine's memory (CalcRamdiskSize:
 * daos_server refuses a larger scm_size, FaultConfigRamdiskOverMaxMem):
 * true when it is reported, at the scm line. */
static bool check_ramdisk_max(doctor_ctx *c)
{
	uint64_t total = topo_total_memory(c->topo), max;
	char formula[256];
	const engine_plan *ep = place_ramdisk_over(c->m, c->p, total, &max, formula, sizeof(formula));
	if (!ep)
		return false;
	diag *d = doctor_report(c, R_NODE_TOPOLOGY, ep->spec->scm_size.loc,
				"the machine has %s of memory, and DAOS allows each engine at most %llu GiB of RAM SCM "
				"from it: scm_size %llu GiB stops daos_server at start", doctor_size(c->ar, total),
				(unsigned long long)(max / GiB), (unsigned long long)(ep->scm_bytes / GiB));
	diag_note_at(c->dc, d, SRC_LOC_NONE, "DAOS computes %s (CalcRamdiskSize)", formula);
	if (max >= 4 * GiB) /* DAOS's minimum scm_size */
		diag_help(c->dc, d, "check the machine's DIMMs (a failed or missing one), or write `scm ram %lluGiB` or "
				    "less", (unsigned long long)(max / GiB));
	else
		diag_help(c->dc, d, "check the machine's DIMMs (a failed or missing one): this memory holds no engine's "
				    "RAM SCM (DAOS's minimum is 4 GiB)");
	return true;
}

/* Each NUMA node's memory against what the description needs there: with
 * the engines' memory bound to their NUMA nodes (pinned_numa_node), the
 * SCM, hugepages and reserves placed on it (what lint holds the node type
 * to), at the line that needs it; else, or when it fits, a node with less
 * than 90% of its node type's memory (a lost DIMM) at the memory line. One
 * finding per NUMA node. */
static void check_memory(doctor_ctx *c)
{
	/* another machine than the node type (its NUMA layout or cores): its
	 * memory says nothing more about the description */
	if (c->numa_changed || c->cores_changed || check_ramdisk_max(c))
		return;
	const topology *want = c->p->topo, *have = c->topo;
	const hardware *hw = c->nd->spec->hw;
	for (int n = 0; n < want->nnuma; n++) {
		int m = doctor_machine_numa(c, n);
		if (m < 0 || !have->numa[m].memory)
			continue;
		uint64_t hm = have->numa[m].memory;
		const opt_int *mf = hw->numa_memory[n].set ? &hw->numa_memory[n] : &hw->memory_per_numa;
		uint64_t wm = mf->set ? (uint64_t)mf->v : want->numa[n].memory;
		numa_need need = place_numa_need(c->m, c->p, n);
		if (c->p->pinned_mode && need.total > hm) {
			const node_spec *s = c->nd->spec;
			src_loc at = need.engine && need.engine->spec->scm_size.set ? need.engine->spec->scm_size.loc
				     : s->hugepages.set ? s->hugepages.loc : hw_loc(hw, mf);
			diag *d = doctor_report(c, R_NODE_TOPOLOGY, at,
						"NUMA node %d has %s of memory (its node type %s: %s) and needs %llu GiB there "
						"(SCM %llu + hugepages %llu + reserved %llu + engine reserve %llu)",
						n, doctor_size(c->ar, hm), hw->name, doctor_size(c->ar, wm),
						(unsigned long long)(need.total / GiB), (unsigned long long)(need.scm / GiB),
						(unsigned long long)(need.hugepages / GiB), (unsigned long long)(need.reserved / GiB),
						(unsigned long long)(need.engine_reserve / GiB));
			diag_help(c->dc, d, "check the DIMMs of NUMA node %d (a failed or missing one), or lower the SCM size "
					    "or hugepages to fit %s", n, doctor_size(c->ar, hm));
			continue;
		}
		if (wm && hm < wm / 10 * 9) {
			diag *d = doctor_report(c, R_NODE_TOPOLOGY, hw_loc(hw, mf), "NUMA node %d has %s of memory, its node type %s has %s",
						n, doctor_size(c->ar, hm), hw->name, doctor_size(c->ar, wm));
			diag_help(c->dc, d, "check the DIMMs of NUMA node %d (a failed or missing one), or describe the "
					    "memory the machine has", n);
		}
	}
}

/* A NIC that `nic auto` took from the export and that no file dslc built
 * for the node names (a management port the site's image configures):
 * what happens to it changes nothing dslc built, so it is said as a note.
 * udev renames such a port when its firmware or slot changes. */
static bool nic_unused(const doctor_ctx *c, const nic_desc *n)
{
	if (!n->auto_found)
		return false;
	size_t len = strlen(n->name);
	for (size_t i = 0; i < c->nfiles; i++)
		for (const char *p = c->files[i].data, *end = p + c->files[i].len; p && p < end;) {
			const char *hit = memmem(p, (size_t)(end - p), n->name, len);
			if (!hit)
				break;
			bool word_start = hit == c->files[i].data || !(isalnum((unsigned char)hit[-1]) || hit[-1] == '_');
			bool word_end = hit + len == end || !(isalnum((unsigned char)hit[len]) || hit[len] == '_');
			if (word_start && word_end)
				return false;
			p = hit + 1;
		}
	return true;
}

/* The finding f about NIC n, lowered to a note when n is unused (above):
 * true when it was. */
static bool unused_nic_note(doctor_ctx *c, const nic_desc *n, diag *f)
{
	if (!nic_unused(c, n))
		return false;
	diag_set_severity(c->dc, f, SEV_NOTE);
	diag_note_at(c->dc, f, SRC_LOC_NONE, "no file dslc built for %s names %s (`nic auto` took it, with role %s): "
		     "nothing dslc built changes", c->nd->host, n->name, n->role ? n->role : "none");
	diag_help(c->dc, f, "nothing to do for dslc's files; export the machine again to describe it as it is "
			    "(lstopo --of xml)");
	return true;
}

static void check_nics(doctor_ctx *c)
{
	const hardware *hw = c->nd->spec->hw;
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *n = &hw->nics[i];
		if (!n->name)
			continue;
		const topo_device *d = topo_find_nic(c->topo, n->pci, n->name);
		if (!d) {
			const topo_device *by_name = topo_find_iface(c->topo, n->name);
			const char *at = topo_nic_names(c->ar, c->topo, n->pci);
			diag *f;
			if (by_name)
				f = doctor_report(c, R_NODE_NIC, n->loc, "NIC %s is at PCI %s on the machine, not at %s", n->name,
						  by_name->pci, n->pci);
			else if (at)
				f = doctor_report(c, R_NODE_NIC, n->loc, "the NIC at %s is named %s on the machine, not %s",
						  n->pci, at, n->name);
			else
				f = doctor_report(c, R_NODE_NIC, n->loc, "NIC %s (%s) is not on the machine", n->name, n->pci);
			if (unused_nic_note(c, n, f))
				continue;
			diag_help(c->dc, f, "name the interface and PCI address `lstopo` shows, or check the card");
			continue;
		}
		int at = doctor_type_numa(c, d->numa);
		if (n->numa >= 0 && !c->numa_changed && at != n->numa) {
			diag *f = doctor_report(c, R_NODE_NIC, n->loc, "NIC %s is on %s of the machine, not NUMA node %d",
						n->name, numa_name(c->ar, at), n->numa);
			if (unused_nic_note(c, n, f))
				continue;
			diag_help(c->dc, f, "move the card to a slot of NUMA node %d, or describe it under %s", n->numa,
				  numa_name(c->ar, at));
		}
	}
}

/* Whether the drive's address is an Intel VMD domain (its endpoint, or a
 * backing device behind one): the machine's export says, else the node
 * type's. */
static bool is_vmd(const doctor_ctx *c, const nvme_desc *n)
{
	if (n->endpoint[0])
		return true;
	const topo_device *d = c->topo ? topo_find_device(c->topo, n->pci) : NULL;
	if (!d)
		d = topo_find_device(c->p->topo, n->pci);
	return d && d->kind == TOPO_VMD;
}

/* Whether daos_server can take a drive bound to drv. Under systemd its
 * prepare step (SPDK scripts/setup.sh) rebinds a drive from nvme, and a VMD
 * endpoint from the kernel's vmd driver, which is where Linux binds it
 * before that (DAOS storage/bdev/backend.go prepare, with VMD on unless
 * disable_vmd, which dslc never writes: server_utils.go); it takes vfio-pci
 * and the uio drivers as they are. In a pod nothing rebinds: the drive is
 * on vfio-pci from boot (dslc-vfio-bind.service) or not at all. */
static bool daos_driver(const char *drv, bool vmd, bool pods)
{
	if (pods)
		return strcmp(drv, "vfio-pci") == 0;
	static const char *const ok[] = {"vfio-pci", "uio_pci_generic", "igb_uio", NULL};
	for (int i = 0; ok[i]; i++)
		if (strcmp(drv, ok[i]) == 0)
			return true;
	return strcmp(drv, vmd ? "vmd" : "nvme") == 0;
}

static void report_driver(doctor_ctx *c, const nvme_desc *n, const char *pci, const char *drv, bool vmd)
{
	const node_spec *s = c->nd->spec;
	if (spec_in_pods(s)) {
		diag *d = doctor_report(c, R_NODE_NVME, n->loc,
					"%s %s is bound to %s: with deploy kubernetes it must be on vfio-pci from boot, for the "
					"daos-server pod", vmd ? "VMD domain" : "drive", pci, drv);
		diag_help(c->dc, d, "see why dslc-vfio-bind.service refused it or did not run (journalctl -b -u "
				    "dslc-vfio-bind.service), fix that and start it again");
		return;
	}
	diag *d = doctor_report(c, R_NODE_NVME, n->loc, "%s %s is bound to %s, which SPDK cannot take", vmd ? "VMD domain" : "drive",
				pci, drv);
	if (vmd)
		diag_help(c->dc, d, "bind it to the kernel's vmd driver (driverctl set-override %s vmd), which daos_server "
				    "rebinds at start, or to vfio-pci", pci);
	else
		diag_help(c->dc, d, "bind it to nvme or vfio-pci (driverctl set-override %s vfio-pci)", pci);
}

/* A VMD domain the kernel's vmd driver holds shows its drives' block
 * devices under it (hwloc); with none, no drive is behind it. Once
 * daos_server has bound it to vfio-pci its drives are SPDK's and the
 * kernel shows none, which is expected. */
static void check_vmd_drives(doctor_ctx *c, const nvme_desc *n, const char *pci, const char *drv)
{
	const topo_device *d = c->topo ? topo_find_device(c->topo, pci) : NULL;
	if (!d || d->kind != TOPO_VMD || d->block || strcmp(drv, "vmd") != 0)
		return;
	diag *f = doctor_report(c, R_NODE_NVME, n->loc, "VMD domain %s holds no drive: the kernel's vmd driver has it and "
				"shows no NVMe device behind it", pci);
	diag_help(c->dc, f, "check the drives of that domain's slots (a failed or unseated one), or exclude it on this node: "
			    "node %s { exclude nvme %s }", c->nd->host, n->pci);
}

static void check_driver(doctor_ctx *c, const nvme_desc *n, bool *unchecked)
{
	/* a drive behind VMD is bound through its endpoint */
	const char *pci = n->endpoint[0] ? n->endpoint : n->pci;
	bool vmd = is_vmd(c, n);
	char rel[96];
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/driver", pci);
	int err = 0;
	const char *drv = doctor_link(c, rel, &err);
	if (drv) {
		if (!daos_driver(drv, vmd, spec_in_pods(c->nd->spec)))
			report_driver(c, n, pci, drv, vmd);
		else if (vmd)
			check_vmd_drives(c, n, pci, drv);
		return;
	}
	if (err == EINVAL || err == ENOENT) {
		/* the device is there (hwloc saw it) and has no driver link */
		char dev[80];
		snprintf(dev, sizeof(dev), "sys/bus/pci/devices/%s", pci);
		if (doctor_exists(c, dev)) {
			diag *d = n->endpoint[0]
					  ? doctor_report(c, R_NODE_NVME, n->loc, "VMD domain %s, which %s sits behind, is bound to no "
							  "driver", pci, n->pci)
					  : doctor_report(c, R_NODE_NVME, n->loc, "%s %s is bound to no driver",
							  vmd ? "VMD domain" : "drive", n->pci);
			if (spec_in_pods(c->nd->spec))
				diag_help(c->dc, d, "see why dslc-vfio-bind.service did not bind it (journalctl -b -u "
						    "dslc-vfio-bind.service), fix that and start it again");
			else
				diag_help(c->dc, d, "bind it to %s (echo %s > /sys/bus/pci/drivers/%s/bind)", vmd ? "vmd" : "nvme",
					  pci, vmd ? "vmd" : "nvme");
			return;
		}
	}
	if (!*unchecked) {
		rootfs_file f = {.status = err == ENOENT || err == ENOTDIR ? ROOTFS_ABSENT : ROOTFS_UNREADABLE, .err = err};
		doctor_unchecked(c, "the drives' drivers", "sys/bus/pci/devices", &f);
		*unchecked = true;
	}
}

static void check_drives(doctor_ctx *c)
{
	bool unchecked = false;
	for (int e = 0; e < c->p->nengines; e++) {
		const engine_plan *ep = &c->p->engines[e];
		for (int i = 0; i < ep->nnvmes; i++) {
			const nvme_desc *n = ep->nvmes[i];
			const topo_device *d = c->topo ? topo_find_device(c->topo, n->pci) : NULL;
			if (c->topo && (!d || d->kind == TOPO_NIC)) {
				diag *f = doctor_report(c, R_NODE_NVME, n->loc, "drive %s of engine %d is not on the machine",
							n->pci, ep->index);
				diag_help(c->dc, f, "reseat or replace it, or exclude it on this node: node %s { exclude nvme %s }",
					  c->nd->host, n->pci);
				continue;
			}
			int at = d ? doctor_type_numa(c, d->numa) : TOPO_NUMA_UNKNOWN;
			if (d && ep->numa >= 0 && !c->numa_changed && at != ep->numa && at != TOPO_NUMA_SEVERAL) {
				diag *f = doctor_report(c, R_NODE_NVME, n->loc, "drive %s is on %s of the machine, engine %d is on "
							"NUMA node %d", n->pci, numa_name(c->ar, at), ep->index, ep->numa);
				diag_help(c->dc, f, "move it to a slot of NUMA node %d, or give it to that NUMA node's engine", ep->numa);
			}
			check_driver(c, n, &unchecked);
		}
	}
}

void doctor_check_machine(doctor_ctx *c)
{
	if (c->topo) {
		check_counts(c);
		check_memory(c);
		check_nics(c);
	}
	check_drives(c);
}

bool doctor_check_other_type(doctor_ctx *c)
{
	if (!c->topo || !c->p->topo || doctor_same_shape(c->p->topo, c->topo))
		return false;
	const hardware *mine = c->nd->spec->hw;
	for (size_t i = 0; i < c->m->nspecs; i++) {
		const node_spec *s = c->m->specs[i];
		if (!s->hw || s->hw == mine || !s->hw->topo || !doctor_same_shape(s->hw->topo, c->topo))
			continue;
		const topology *t = c->topo;
		int k = doctor_cpu_numas(t), n0 = doctor_nth_cpu_numa(t, 0);
		if (n0 < 0)
			return false; /* no cores at all: check_counts says what the machine lacks */
		int smt = doctor_threads_per_core(t, n0);
		diag *d = doctor_report(c, R_NODE_TOPOLOGY, doctor_node_loc(c),
					"this machine is not a %s: it has the shape of node type %s (%d NUMA node%s with "
					"CPUs, %d cores and %d thread%s per core each), so nothing else of %s's description "
					"is compared", mine->name, s->hw->name, k, k == 1 ? "" : "s", t->numa[n0].ncores, smt,
					smt == 1 ? "" : "s", c->nd->host);
		diag_help(c->dc, d, "check that the snapshot or root is %s's (collect it on that node: dslc doctor FILE "
				    "--node %s --collect DIR), or give %s the profile of its hardware", c->nd->host, c->nd->host,
			  c->nd->host);
		return true;
	}
	return false;
}
