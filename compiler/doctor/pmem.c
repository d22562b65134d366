/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* pmem.c - the engines' PMem namespaces (scm class dcpm): each one there,
 * in the mode DAOS uses, on its engine's NUMA node, with its device node.
 * DAOS mounts /dev/pmemN with dax (ext4, -o dax), which takes a namespace
 * in fsdax mode, the mode `daos_server scm prepare` creates (ndctl
 * create-namespace; src/control/server/storage/scm/ndctl.go).
 *
 * Read as Linux lays it out: the pmem driver attaches a namespace's disk to
 * the device that claimed the namespace (drivers/nvdimm/pmem.c nd_pmem_probe:
 * a pfn device for fsdax, pmem_attach_disk; a btt for sector mode, whose
 * disk is pmemNs; the namespace itself when nothing claims it, raw), so
 * /sys/class/block/pmemN/device names the claim. A devdax namespace is
 * claimed by a dax device (drivers/nvdimm/dax_devs.c) and has no disk at
 * all: its character device is /sys/bus/dax/devices/daxN.M, whose parent
 * names the namespace (`namespace`). A disk's name follows its namespace's
 * (drivers/nvdimm/namespace_devs.c nvdimm_namespace_disk_name: namespaceR.I
 * is pmemR when I is 0, pmemR.I otherwise). The pfn device's own `mode`
 * (pfn_devs.c mode_show: ram, pmem, none) is where the page map lives, not
 * the namespace's mode: fsdax either way. */
#include <stdlib.h>
#include <string.h>

#include "checks.h"

typedef enum pmem_state { PMEM_FSDAX, PMEM_RAW, PMEM_SECTOR, PMEM_DEVDAX, PMEM_GONE, PMEM_UNREAD } pmem_state;

/* The namespace (namespaceR.I) a disk name (pmemR, pmemR.I) belongs to. */
static const char *namespace_of(arena *a, const char *disk)
{
	const char *rest = disk + 4;
	const char *dot = strchr(rest, '.');
	if (strncmp(disk, "pmem", 4) != 0 || !*rest)
		return NULL;
	return dot ? arena_printf(a, "namespace%s", rest) : arena_printf(a, "namespace%s.0", rest);
}

static bool is_word(const rootfs_file *f, const char *word)
{
	size_t n = strlen(word);
	return f->status == ROOTFS_OK && strncmp(f->data, word, n) == 0 && (!f->data[n] || f->data[n] == '\n');
}

/* The dax device (daxR.I on the nd bus) that claims the namespace ns, or
 * NULL: its `namespace` attribute names the claimed namespace (dax_devs.c,
 * the pfn attribute group). Every nvdimm device is on the nd bus
 * (drivers/nvdimm/bus.c nd_bus_type). */
static const char *devdax_claim(doctor_ctx *c, const char *ns)
{
	const char *names[256];
	int err, n = doctor_list(c, "sys/bus/nd/devices", names, 256, &err);
	for (int i = 0; i < n; i++) {
		if (strncmp(names[i], "dax", 3) != 0)
			continue;
		rootfs_file f = doctor_read(c, arena_printf(c->ar, "sys/bus/nd/devices/%s/namespace", names[i]), DOCTOR_MAX_SYS);
		if (is_word(&f, ns))
			return names[i];
	}
	return NULL;
}

/* The namespace's state as the kernel shows it, read through the disk's
 * device (what claimed the namespace) by its type, as hwloc reads it
 * (device/devtype; drivers/nvdimm/bus.c devtype_show: nd_pfn, nd_btt,
 * nd_namespace_pmem); *claim says which for a message, *why what could not
 * be read. */
static pmem_state namespace_state(doctor_ctx *c, const char *name, const char **claim, const char **rel,
				  rootfs_file *why)
{
	const char *ns = namespace_of(c->ar, name);
	*claim = NULL;
	if (!doctor_exists(c, arena_printf(c->ar, "sys/class/block/%s", name))) {
		/* a btt's disk is the namespace's name with an s (pmem0s) */
		if (doctor_exists(c, arena_printf(c->ar, "sys/class/block/%ss", name)))
			return *claim = arena_printf(c->ar, "a btt device: /dev/%ss", name), PMEM_SECTOR;
		*claim = ns ? devdax_claim(c, ns) : NULL;
		if (*claim)
			*claim = arena_printf(c->ar, "claimed by %s, no /dev/%s", *claim, name);
		return *claim ? PMEM_DEVDAX : PMEM_GONE;
	}
	*rel = arena_printf(c->ar, "sys/class/block/%s/device/devtype", name);
	*why = doctor_read(c, *rel, DOCTOR_MAX_SYS);
	if (is_word(why, "nd_pfn"))
		return *claim = "a pfn device", PMEM_FSDAX;
	if (is_word(why, "nd_btt"))
		return *claim = "a btt device", PMEM_SECTOR;
	if (!is_word(why, "nd_namespace_pmem") && !is_word(why, "nd_namespace_io"))
		return PMEM_UNREAD;
	/* unclaimed: fsdax only where the region maps pages itself (a legacy
	 * e820 namespace: namespace_devs.c mode_show says "memory"), else raw */
	*claim = "no pfn device";
	*rel = arena_printf(c->ar, "sys/class/block/%s/device/mode", name);
	*why = doctor_read(c, *rel, DOCTOR_MAX_SYS);
	if (why->status != ROOTFS_OK)
		return PMEM_UNREAD;
	return is_word(why, "memory") ? PMEM_FSDAX : PMEM_RAW;
}

static void report_state(doctor_ctx *c, const engine_plan *ep, src_loc at, const char *name, pmem_state st,
			 const char *claim, const char *rel, const rootfs_file *why)
{
	const char *dev = ep->scm_device;
	const char *ns = namespace_of(c->ar, name);
	if (st == PMEM_GONE) {
		diag *d = doctor_report(c, R_NODE_PMEM, at, "PMem namespace %s of engine %d is gone: the kernel has no %s "
					"(/sys/class/block/%s)", dev, ep->index, name, name);
		diag_help(c->dc, d, "recreate it in fsdax mode (daos_server scm prepare, or ndctl create-namespace --mode "
				    "fsdax on the region of NUMA node %d), then format the engine again", ep->numa);
		return;
	}
	if (st == PMEM_UNREAD) {
		if (why->status != ROOTFS_OK) {
			doctor_unchecked(c, arena_printf(c->ar, "the mode of %s", dev), rel, why);
			return;
		}
		diag *d = doctor_report(c, R_NODE_UNCHECKED, doctor_node_loc(c), "the mode of %s not checked: %s is '%.*s', "
					"not a pfn, btt or namespace device", dev, doctor_path(c, rel),
					(int)strcspn(why->data, "\n"), why->data);
		diag_help(c->dc, d, "ndctl list -N -n %s shows the namespace's mode", ns ? ns : name);
		if (c->strict)
			diag_set_severity(c->dc, d, SEV_ERROR);
		return;
	}
	static const char *const mode[] = {[PMEM_RAW] = "raw", [PMEM_SECTOR] = "sector", [PMEM_DEVDAX] = "devdax"};
	diag *d = doctor_report(c, R_NODE_PMEM, at, "PMem namespace %s of engine %d is in %s mode (%s), not fsdax: "
				"DAOS mounts it with dax", dev, ep->index, mode[st], claim);
	diag_help(c->dc, d, "reconfigure it (this erases it): ndctl create-namespace -f -e %s --mode fsdax, then "
			    "format the engine again", ns ? ns : "<its namespace>");
}

/* The machine's NUMA node of the namespace (hwloc's export), compared
 * whatever its mode: a namespace in the wrong mode may also be the other
 * socket's. */
static void check_numa(doctor_ctx *c, const engine_plan *ep, src_loc at, const char *name)
{
	if (!c->topo || c->numa_changed)
		return;
	int numa = TOPO_NUMA_UNKNOWN;
	for (int i = 0; i < c->topo->npmems; i++)
		if (strcmp(c->topo->pmems[i].name, name) == 0)
			numa = doctor_type_numa(c, c->topo->pmems[i].numa);
	if (numa >= 0 && numa != ep->numa) {
		diag *d = doctor_report(c, R_NODE_PMEM, at, "PMem namespace %s is on NUMA node %d of the machine, engine %d "
					"is on NUMA node %d", ep->scm_device, numa, ep->index, ep->numa);
		diag_help(c->dc, d, "the namespaces were renumbered (created in another order): give the engine the "
				    "namespace of its NUMA node (`scm pmem /dev/pmemN`)");
	}
}

static void check_namespace(doctor_ctx *c, const engine_plan *ep)
{
	const char *dev = ep->scm_device, *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	const engine_spec *e = ep->spec;
	src_loc at = e->scm_device.set ? e->scm_device.loc : e->scm_class.loc;
	const char *claim, *rel = NULL;
	rootfs_file why = {0};
	pmem_state st = namespace_state(c, name, &claim, &rel, &why);
	if (st != PMEM_FSDAX)
		report_state(c, ep, at, name, st, claim, rel, &why);
	check_numa(c, ep, at, name);
	if (st == PMEM_FSDAX && !doctor_exists(c, arena_printf(c->ar, "dev/%s", name))) {
		diag *d = doctor_report(c, R_NODE_PMEM, at, "/dev/%s is missing although the kernel has the namespace", name);
		diag_help(c->dc, d, "let udev make it again (udevadm trigger --subsystem-match=block --sysname-match=%s)", name);
	}
}

void doctor_check_pmem(doctor_ctx *c)
{
	for (int i = 0; i < c->p->nengines; i++) {
		const engine_plan *ep = &c->p->engines[i];
		if (ep->scm_class && strcmp(ep->scm_class, "dcpm") == 0 && ep->scm_device && ep->spec)
			check_namespace(c, ep);
	}
}
