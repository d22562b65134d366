/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* hardware.c - a node type's topology: built from its hand description, or
 * loaded from an lstopo export and checked against whatever the block also
 * states by hand (at the line that states it). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "fabric.h"
#include "kw.h"

static const char *relative_to(resolver *r, src_loc at, const char *path)
{
	const src_file *f = src_get(r->dc->src, at.file);
	if (path[0] == '/' || !f)
		return path;
	const char *slash = strrchr(f->path, '/');
	return slash ? arena_printf(r->ar, "%.*s/%s", (int)(slash - f->path), f->path, path) : path;
}

static topology *from_description(resolver *r, hardware *hw)
{
	diag_ctx *dc = r->dc;
	if (!hw->sockets.set || !hw->cores_per_socket.set) {
		diag *d = diag_report(dc, R_BAD_VALUE, hw->name_loc, "hardware %s does not describe its CPUs", hw->name);
		diag_help(dc, d, "add `sockets <n>` and `cores_per_socket <n>` (and threads_per_core for SMT), "
			  "or `topology \"node.xml\"` from `lstopo --of xml`");
		return NULL;
	}
	int sockets = (int)hw->sockets.v, cps = (int)hw->cores_per_socket.v;
	int threads = hw->threads_per_core.set ? (int)hw->threads_per_core.v : 1;
	int nps = hw->numa_per_socket.set ? (int)hw->numa_per_socket.v : 1;
	if (cps % nps) {
		diag *d = diag_report(dc, R_BAD_VALUE, hw->numa_per_socket.loc,
				      "%d cores per socket do not split evenly into %d NUMA nodes", cps, nps);
		diag_help(dc, d, "check cores_per_socket and numa_per_socket against `lscpu`");
		return NULL;
	}
	if (sockets * nps > MODEL_MAX_NUMA) {
		diag *d = diag_report(dc, R_LIMIT, hw->numa_per_socket.loc, "more than %d NUMA nodes", MODEL_MAX_NUMA);
		diag_help(dc, d, "check sockets and numa_per_socket");
		return NULL;
	}
	topo_numbering nb = hw->cpu_numbering.set && strcmp(hw->cpu_numbering.v, "interleaved") == 0
				    ? TOPO_INTERLEAVED : TOPO_LINEAR;
	return topo_regular(r->ar, sockets, cps, threads, nps, nb);
}

/* "linear", "interleaved" or NULL (neither) for a loaded topology. */
static const char *numbering_of(const topology *t)
{
	bool linear = true, inter = true;
	int per = t->ncores / t->nsockets;
	for (int c = 0; c < t->ncores; c++) {
		int s = t->cores[c].socket, j = c - s * per;
		linear &= t->cores[c].pus[0] == c;
		inter &= t->cores[c].pus[0] == j * t->nsockets + s;
	}
	return linear ? "linear" : inter ? "interleaved" : NULL;
}

static void mismatch(resolver *r, src_loc at, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void mismatch(resolver *r, src_loc at, const char *what, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *says = arena_vprintf(r->ar, fmt, ap);
	va_end(ap);
	diag *d = diag_report(r->dc, R_TOPOLOGY_MISMATCH, at, "the topology export has %s", says);
	diag_help(r->dc, d, "write %s, or remove the line and let the export speak", what);
	size_t n = strlen(what);
	if (n > 2 && what[0] == '`' && what[n - 1] == '`') /* the line as the export has it */
		diag_fix_edit(r->dc, d, at, "%.*s", (int)(n - 2), what + 1);
}

static void check_cpus(resolver *r, hardware *hw, const topology *t)
{
	int per = t->ncores / t->nsockets;
	if (hw->sockets.set && hw->sockets.v != t->nsockets)
		mismatch(r, hw->sockets.loc, arena_printf(r->ar, "`sockets %d`", t->nsockets), "%d packages", t->nsockets);
	if (hw->cores_per_socket.set && hw->cores_per_socket.v != per)
		mismatch(r, hw->cores_per_socket.loc, arena_printf(r->ar, "`cores_per_socket %d`", per),
			 "%d cores per package", per);
	if (hw->threads_per_core.set && hw->threads_per_core.v != t->cores[0].npus)
		mismatch(r, hw->threads_per_core.loc, arena_printf(r->ar, "`threads_per_core %d`", t->cores[0].npus),
			 "%d threads per core", t->cores[0].npus);
	if (hw->numa_per_socket.set && hw->numa_per_socket.v * t->nsockets != t->nnuma)
		mismatch(r, hw->numa_per_socket.loc, arena_printf(r->ar, "`numa_per_socket %d`", t->nnuma / t->nsockets),
			 "%d NUMA nodes in %d packages", t->nnuma, t->nsockets);
	const char *nb = numbering_of(t);
	if (hw->cpu_numbering.set && (!nb || strcmp(nb, hw->cpu_numbering.v) != 0))
		mismatch(r, hw->cpu_numbering.loc, nb ? arena_printf(r->ar, "`cpu_numbering %s`", nb) : "nothing",
			 "%s CPU numbering", nb ? nb : "an irregular");
}

static void check_memory(resolver *r, hardware *hw, topology *t)
{
	for (int n = 0; n < t->nnuma; n++) {
		const opt_int *o = hw->numa_memory[n].set ? &hw->numa_memory[n] : hw->memory_per_numa.set ? &hw->memory_per_numa : NULL;
		if (!o)
			continue;
		uint64_t have = t->numa[n].memory;
		if (!have) {
			t->numa[n].memory = (uint64_t)o->v; /* exports from CPUID dumps carry no memory */
		} else if ((uint64_t)o->v / GiB != have / GiB) {
			mismatch(r, o->loc, arena_printf(r->ar, "%lluGiB", (unsigned long long)(have / GiB)),
				 "%llu GiB on NUMA node %d", (unsigned long long)(have / GiB), n);
			return;
		}
	}
}

/* gpus N against an export that lists GPUs (one without any says nothing:
 * lstopo leaves PCI out with --no-io); the export's counts where none is
 * written. */
static void check_gpus(resolver *r, hardware *hw, topology *t)
{
	for (int n = 0; n < t->nnuma && n < MODEL_MAX_NUMA; n++) {
		const opt_int *o = &hw->numa_gpus[n];
		if (!o->set || !t->has_gpus)
			continue;
		if (o->v != t->numa[n].gpus) {
			mismatch(r, o->loc, arena_printf(r->ar, "`gpus %d`", t->numa[n].gpus), "%d NVIDIA GPUs on NUMA node %d",
				 t->numa[n].gpus, n);
			return;
		}
	}
}

static const char *numa_name(resolver *r, const topo_device *d)
{
	if (d->numa == TOPO_NUMA_UNKNOWN)
		return "no NUMA node";
	if (d->numa == TOPO_NUMA_SEVERAL)
		return "several NUMA nodes";
	return arena_printf(r->ar, "NUMA node %d", d->numa);
}

/* The devices of NUMA node `numa` of the export, for a help line. */
static void device_list(char *list, size_t size, const topology *t, bool nic, int numa)
{
	list[0] = 0;
	for (int i = 0; i < t->ndevices; i++)
		if ((t->devices[i].kind == TOPO_NIC) == nic && t->devices[i].numa == numa) {
			size_t l = strlen(list);
			snprintf(list + l, size - l, "%s%s%s%s", l ? ", " : "", t->devices[i].pci,
				 nic && t->devices[i].net ? " " : "", nic && t->devices[i].net ? t->devices[i].net : "");
		}
}

/* A device the hand description names must be in the export, where it says.
 * A NIC function may carry several interfaces (an mlx4 card's eth2 and ib0):
 * the name picks one. */
static const topo_device *check_device(resolver *r, hardware *hw, const topology *t, const char *pci, int numa,
				       src_loc loc, bool nic, const char *name)
{
	const topo_device *d = topo_find_device(t, pci);
	if (!d || (nic != (d->kind == TOPO_NIC))) {
		diag *dd = diag_report(r->dc, R_DEVICE_ABSENT, loc, "the topology export has no %s at %s", nic ? "NIC" : "NVMe drive", pci);
		char list[512];
		device_list(list, sizeof(list), t, nic, numa);
		if (list[0])
			diag_help(r->dc, dd, "NUMA node %d of the export has: %s", numa, list);
		else
			diag_help(r->dc, dd, "the export has no %s on NUMA node %d; was it made with I/O (`lstopo --of xml`, not --no-io)?",
				  nic ? "NIC" : "NVMe drive", numa);
		return NULL;
	}
	if (nic && name && d->net && !topo_find_nic(t, pci, name)) {
		const char *names = topo_nic_names(r->ar, t, pci);
		diag *dd = diag_report(r->dc, R_DEVICE_ABSENT, loc, "the topology export names the interface%s of NIC %s '%s', not '%s'",
				       strchr(names, ',') ? "s" : "", pci, names, name);
		const char *cands[16];
		const char *sug = kw_suggest(name, cands, topo_nic_interfaces(t, pci, cands, 16));
		diag_help(r->dc, dd, "write `nic %s pci %s`", sug ? sug : d->net, pci);
		diag_fix_edit(r->dc, dd, loc, "%s pci %s", sug ? sug : d->net, pci);
		return NULL;
	}
	if (nic && name && d->net)
		d = topo_find_nic(t, pci, name);
	if (d->numa < 0) {
		diag *dd = diag_report(r->dc, R_DEVICE_LOCALITY_UNKNOWN, loc, "the topology export gives %s %s %s", nic ? "NIC" : "NVMe",
				       pci, numa_name(r, d));
		diag_help(r->dc, dd, "check the BIOS NUMA settings and the slot; dslc keeps the hand description's NUMA node %d", numa);
		return d;
	}
	if (d->numa != numa) {
		diag *dd = diag_report(r->dc, R_DEVICE_NUMA_MISMATCH, loc, "the topology export puts %s %s on NUMA node %d, not %d",
				       nic ? "NIC" : "NVMe", name ? name : pci, d->numa, numa);
		diag_note_at(r->dc, dd, hw->topology_file.loc, "the export is named here");
		diag_help(r->dc, dd, "move it to the `numa %d` block, or put the card back in a slot of NUMA node %d", d->numa, numa);
	}
	return d;
}

/* `nic <ifname>` without `pci`: the export's interface of that name gives
 * the address, which every later check and output uses. */
static bool nic_by_name(resolver *r, const topology *t, nic_desc *n)
{
	const topo_device *dev = topo_find_iface(t, n->name);
	if (dev) {
		memcpy(n->pci, dev->pci, sizeof(n->pci));
		return true;
	}
	diag *d = diag_report(r->dc, R_DEVICE_ABSENT, n->loc, "the topology export has no network interface %s", n->name);
	char list[512];
	device_list(list, sizeof(list), t, true, n->numa);
	if (list[0])
		diag_help(r->dc, d, "NUMA node %d of the export has: %s", n->numa, list);
	else
		diag_help(r->dc, d, "name an interface of the export, or give the NIC's address: `nic %s pci <address>`", n->name);
	return false;
}

static void check_devices(resolver *r, hardware *hw, const topology *t)
{
	for (size_t i = 0; i < hw->nnics; i++) {
		nic_desc *n = &hw->nics[i];
		if (!n->pci[0] && !nic_by_name(r, t, n))
			continue;
		const topo_device *d = check_device(r, hw, t, n->pci, n->numa, n->loc, true, n->name);
		if (!d)
			continue;
		n->link = d->link;
		n->exported = true;
		if (d->rdma && !n->rdma)
			n->rdma = d->rdma;
		else if (d->rdma && n->rdma && strcmp(d->rdma, n->rdma) != 0) {
			diag *dd = diag_report(r->dc, R_TOPOLOGY_MISMATCH, n->loc, "the topology export has RDMA device %s on %s, not %s",
					       d->rdma, n->pci, n->rdma);
			diag_help(r->dc, dd, "write `rdma %s`", d->rdma);
		}
	}
	for (size_t i = 0; i < hw->nnvmes; i++)
		check_device(r, hw, t, hw->nvmes[i].pci, hw->nvmes[i].numa, hw->nvmes[i].loc, false, NULL);
}

/* Whether the hand description already has this device (for a NIC: this
 * interface of its function). */
static bool described(const hardware *hw, const topology *t, const topo_device *d)
{
	if (d->kind == TOPO_NIC) {
		for (size_t i = 0; i < hw->nnics; i++)
			if (strcmp(hw->nics[i].pci, d->pci) == 0 &&
			    (!d->net || strcmp(hw->nics[i].name, d->net) == 0 || !topo_find_nic(t, d->pci, hw->nics[i].name)))
				return true;
		return false;
	}
	for (size_t i = 0; i < hw->nnvmes; i++)
		if (strcmp(hw->nvmes[i].pci, d->pci) == 0)
			return true;
	return false;
}

static int nic_order(const void *a, const void *b)
{
	const nic_desc *x = a, *y = b;
	int c = strcmp(x->pci, y->pci);
	return c ? c : strcmp(x->name, y->name);
}

/* nic auto / nvme auto: the export's devices with a single local NUMA node.
 * NICs come in PCI address order (then interface name), after the ones the
 * description names; their role follows the fabric (hardware_fabric_roles). */
static void import_devices(resolver *r, hardware *hw, const topology *t)
{
	size_t first_auto = hw->nnics;
	for (int i = 0; i < t->ndevices; i++) {
		const topo_device *d = &t->devices[i];
		bool nic = d->kind == TOPO_NIC;
		const opt_int *flag = nic ? &hw->nic_auto : &hw->nvme_auto;
		if (!flag->set || described(hw, t, d))
			continue;
		if (d->kind == TOPO_VMD && !d->block)
			continue; /* no drive behind it that the export shows */
		if (d->numa < 0) {
			diag *dd = diag_report(r->dc, R_DEVICE_LOCALITY_UNKNOWN, flag->loc,
					       "%s %s%s%s is local to %s: not given to any engine", nic ? "NIC" : "NVMe", d->pci,
					       d->net ? " " : "", d->net ? d->net : "", numa_name(r, d));
			diag_help(r->dc, dd, "describe it by hand in the numa block it is closest to, if it should serve an engine");
			continue;
		}
		if (nic) {
			nic_desc n = {0};
			n.name = d->net ? d->net : arena_strdup(r->ar, d->pci);
			memcpy(n.pci, d->pci, sizeof(n.pci));
			n.fabric = d->fabric;
			n.role = d->fabric ? "storage" : "mgmt";
			n.rdma = d->rdma;
			n.link = d->link;
			n.exported = n.auto_found = true;
			n.numa = d->numa;
			n.loc = flag->loc;
			ARENA_PUSH(r->ar, hw->nics, hw->nnics, hw->nics_cap, n);
		} else {
			nvme_desc n = {0};
			memcpy(n.pci, d->pci, sizeof(n.pci));
			n.numa = d->numa;
			n.loc = flag->loc;
			ARENA_PUSH(r->ar, hw->nvmes, hw->nnvmes, hw->nvmes_cap, n);
		}
	}
	if (hw->nnics > first_auto)
		qsort(hw->nics + first_auto, hw->nnics - first_auto, sizeof(nic_desc), nic_order);
}

void hardware_fabric_roles(resolver *r, hardware *hw)
{
	fabric_need f = fabric_need_of(&r->m->cluster);
	for (size_t i = 0; i < hw->nnics; i++) {
		nic_desc *n = &hw->nics[i];
		const char *why = fabric_misfit(r->ar, &f, n->name, n->link, n->rdma, n->exported);
		if (n->auto_found) {
			n->role = n->fabric && !why ? "storage" : "mgmt";
		} else if (why && strcmp(n->role, "storage") == 0) {
			diag *d = diag_report(r->dc, R_NIC_WRONG_FABRIC, n->loc, "storage NIC %s cannot carry the fabric: %s", n->name, why);
			diag_note_at(r->dc, d, r->m->cluster.fabric_kind.set ? r->m->cluster.fabric_kind.loc : r->m->cluster.provider.loc,
				     "the fabric is set here");
			diag_help(r->dc, d, "write `role mgmt` if it carries no DAOS traffic, or describe the port that carries the fabric");
		}
	}
}

static topology *from_export(resolver *r, hardware *hw)
{
	const char *why, *path = relative_to(r, hw->topology_file.loc, hw->topology_file.v);
	topology *t = topo_load_xml(r->ar, path, true, &why);
	if (!t) {
		diag *d = diag_report(r->dc, R_TOPOLOGY_LOAD, hw->topology_file.loc, "cannot load topology '%s': %s", path, why);
		diag_help(r->dc, d, "export it on a node of this type: `lstopo --of xml node.xml` (hwloc 2.x) or "
			  "`lstopo --of v2xml node.xml` (hwloc 3.x); the path is relative to this file");
		return NULL;
	}
	check_cpus(r, hw, t);
	if (t->numa_os_mismatch >= 0) {
		int n = t->numa_os_mismatch;
		diag *d = diag_report(r->dc, R_NUMA_INDEX, hw->topology_file.loc,
				      "NUMA node L#%d of the export has OS index P#%d", n, t->numa[n].os_index);
		diag_help(r->dc, d, "`numa N` blocks and pinned_numa_node count hwloc's logical order (L#), numactl and "
			  "the agent's fabric_ifaces OS indexes (P#): take NUMA numbers for this node type from `dslc show`");
	}
	return t;
}

/* One PCI function is one device: an address described as a NIC and as a
 * drive is a typo that would put one device in two places (a drive in an
 * engine's bdev_list that is another engine's NIC). Two drives at one
 * address are keywords.c's finding. */
static void check_unique_pci(resolver *r, const hardware *hw)
{
	for (size_t i = 0; i < hw->nnvmes; i++)
		for (size_t j = 0; j < hw->nnics; j++) {
			const nvme_desc *v = &hw->nvmes[i];
			if (strcmp(hw->nics[j].pci, v->pci) != 0 || hw->nics[j].auto_found)
				continue;
			diag *d = diag_report(r->dc, R_DUPLICATE, v->loc, "PCI address %s is described twice: as this drive and as NIC %s",
					      v->pci, hw->nics[j].name);
			diag_note_at(r->dc, d, hw->nics[j].loc, "%s is described here", v->pci);
			diag_help(r->dc, d, "check the address with `lspci -D`: one PCI function is one device");
			break;
		}
}

/* PMem namespaces: the hand-described ones must be in the export, where it
 * says; without any, the export's with a known NUMA node are taken. */
static void pmem_devices(resolver *r, hardware *hw, const topology *t)
{
	for (size_t i = 0; i < hw->npmems; i++) {
		const pmem_desc *p = &hw->pmems[i];
		const topo_pmem *f = NULL;
		for (int j = 0; j < t->npmems && !f; j++)
			if (strcmp(t->pmems[j].name, p->name) == 0)
				f = &t->pmems[j];
		if (!f) {
			diag *d = diag_report(r->dc, R_DEVICE_ABSENT, p->loc, "the topology export has no PMem namespace %s", p->name);
			if (t->npmems)
				diag_help(r->dc, d, "the export has %s%s on NUMA node %d", t->pmems[0].name, t->npmems > 1 ? " and more" : "",
					  t->pmems[0].numa);
			else
				diag_help(r->dc, d, "the export has no NVDIMM block device: create the namespaces (`daos_server scm "
					  "prepare`) and export again, or drop the `pmem` lines");
		} else if (f->numa >= 0 && f->numa != p->numa) {
			diag *d = diag_report(r->dc, R_DEVICE_NUMA_MISMATCH, p->loc, "the topology export puts PMem %s on NUMA node %d, not %d",
					      p->name, f->numa, p->numa);
			diag_help(r->dc, d, "move it to the `numa %d` block", f->numa);
		}
	}
	if (hw->npmems)
		return;
	for (int j = 0; j < t->npmems; j++)
		if (t->pmems[j].numa >= 0) {
			pmem_desc d = {t->pmems[j].name, t->pmems[j].numa, SRC_LOC_NONE};
			ARENA_PUSH(r->ar, hw->pmems, hw->npmems, hw->pmems_cap, d);
		}
}

void hardware_finish(resolver *r, hardware *hw, bool read_clean)
{
	diag_ctx *dc = r->dc;
	check_unique_pci(r, hw); /* (the addresses alone, read or not) */
	if (!read_clean && !hw->topology_file.set)
		return; /* a hand description with a typo: the typo says why it is incomplete */
	if (!hw->topology_file.set && (hw->nic_auto.set || hw->nvme_auto.set)) {
		const opt_int *f = hw->nic_auto.set ? &hw->nic_auto : &hw->nvme_auto;
		diag *d = diag_report(dc, R_BAD_VALUE, f->loc, "'auto' takes the devices of a topology export, and %s has none",
				      hw->name);
		diag_help(dc, d, "add `topology \"node.xml\"` (from `lstopo --of xml`), or describe the devices in numa blocks");
		return;
	}
	unsigned before = diag_count(dc, SEV_ERROR);
	topology *t = hw->topology_file.set ? from_export(r, hw) : from_description(r, hw);
	if (!t)
		return;
	for (int n = 0; n < MODEL_MAX_NUMA; n++)
		if (n >= t->nnuma && hw->numa_loc[n].file) {
			diag *d = diag_report(dc, R_BAD_VALUE, hw->numa_loc[n], "hardware %s has %d NUMA nodes, not %d",
					      hw->name, t->nnuma, n + 1);
			diag_help(dc, d, "NUMA nodes are numbered from 0 to %d", t->nnuma - 1);
		}
	if (hw->topology_file.set) {
		check_memory(r, hw, t);
		check_gpus(r, hw, t);
		check_devices(r, hw, t);
		import_devices(r, hw, t);
		pmem_devices(r, hw, t);
	} else {
		for (int n = 0; n < t->nnuma; n++)
			t->numa[n].memory = hw->numa_memory[n].set ? (uint64_t)hw->numa_memory[n].v
				: hw->memory_per_numa.set ? (uint64_t)hw->memory_per_numa.v : 0;
	}
	for (int n = 0; n < t->nnuma && n < MODEL_MAX_NUMA; n++)
		if (hw->numa_gpus[n].set) {
			t->numa[n].gpus = (int)hw->numa_gpus[n].v;
			t->has_gpus = true;
		}
	t->hugepage_size = hw->hugepage_size.set ? (uint64_t)hw->hugepage_size.v : 2 * MiB;
	if (t->hugepage_size != 2 * MiB && t->hugepage_size != GiB) {
		diag *d = diag_report(dc, R_BAD_VALUE, hw->hugepage_size.loc, "hugepages are 2MiB or 1GiB on x86-64");
		diag_help(dc, d, "write `hugepage_size 2MiB`");
	}
	if (read_clean && diag_count(dc, SEV_ERROR) == before)
		hw->topo = t;
}
