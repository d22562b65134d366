/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* machine.c - the machine against its node type: NUMA nodes, cores, SMT and
 * memory per NUMA node; the NICs the description names; the engines' drives
 * (present, NUMA node, driver). The machine is an hwloc topology, read as
 * the build reads an export (topology_xml.c), so both sides count alike. */
#include <stdio.h>
#include <string.h>

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
	for (int n = 0; n < want->nnuma; n++) {
		int m = doctor_machine_numa(c, n);
		if (m < 0)
			continue; /* without cores: no engine's */
		const topo_numa *w = &want->numa[n], *h = &have->numa[m];
		if (w->ncores != h->ncores) {
			doctor_report(c, R_NODE_TOPOLOGY, hw_loc(hw, &hw->cores_per_socket),
				      "NUMA node %d has %d cores, its node type %s has %d", n, h->ncores, hw->name, w->ncores);
			c->cores_changed = true;
			continue;
		}
		int wt = w->ncores ? want->cores[w->first_core].npus : 0, ht = h->ncores ? have->cores[h->first_core].npus : 0;
		if (wt != ht) {
			diag *d = doctor_report(c, R_NODE_TOPOLOGY, hw_loc(hw, &hw->threads_per_core),
						"NUMA node %d has %d thread%s per core, its node type %s has %d", n, ht,
						ht == 1 ? "" : "s", hw->name, wt);
			diag_help(c->dc, d, "switch SMT %s in the BIOS: engines and the kubelet are pinned to CPU numbers "
					    "that assume it", wt > ht ? "on" : "off");
		}
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
			diag_help(c->dc, f, "name the interface and PCI address `lstopo` shows, or check the card");
			continue;
		}
		int at = doctor_type_numa(c, d->numa);
		if (n->numa >= 0 && !c->numa_changed && at != n->numa) {
			diag *f = doctor_report(c, R_NODE_NIC, n->loc, "NIC %s is on %s of the machine, not NUMA node %d",
						n->name, numa_name(c->ar, at), n->numa);
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
			diag *d = doctor_report(c, R_NODE_NVME, n->loc, "%s %s is bound to no driver", vmd ? "VMD domain" : "drive",
						n->pci);
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
