/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* pmem.c - the engines' PMem namespaces (scm class dcpm): each one there,
 * in the mode DAOS uses, on its engine's NUMA node, with its device node.
 * DAOS mounts /dev/pmemN with dax (ext4, -o dax), which takes a namespace
 * in fsdax mode, the mode `daos_server scm prepare` creates (ndctl
 * create-namespace; src/control/server/storage/scm/ndctl.go). The kernel
 * shows a namespace's mode in sysfs (drivers/nvdimm/namespace_devs.c
 * mode_show): "memory" is fsdax, "raw" has no DAX, and a devdax ("dax") or
 * sector ("safe") namespace has no /dev/pmemN at all. */
#include <stdlib.h>
#include <string.h>

#include "checks.h"

static const char *ndctl_mode(const char *sysfs)
{
	static const struct { const char *sys, *ndctl; } modes[] = {
		{"memory", "fsdax"}, {"raw", "raw"}, {"dax", "devdax"}, {"safe", "sector"}};
	size_t n = strcspn(sysfs, "\n");
	for (size_t i = 0; i < sizeof(modes) / sizeof(*modes); i++)
		if (strlen(modes[i].sys) == n && strncmp(sysfs, modes[i].sys, n) == 0)
			return modes[i].ndctl;
	return NULL;
}

static void check_namespace(doctor_ctx *c, const engine_plan *ep)
{
	const char *dev = ep->scm_device, *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	const engine_spec *e = ep->spec;
	src_loc at = e->scm_device.set ? e->scm_device.loc : e->scm_class.loc;
	char *rel = arena_printf(c->ar, "sys/block/%s", name);
	if (!doctor_exists(c, rel)) {
		diag *d = doctor_report(c, R_NODE_PMEM, at, "PMem namespace %s of engine %d is gone: the kernel has no %s (/%s)",
					dev, ep->index, name, rel);
		diag_help(c->dc, d, "recreate it in fsdax mode (daos_server scm prepare, or ndctl create-namespace --mode "
				    "fsdax on the region of NUMA node %d), then format the engine again", ep->numa);
		return;
	}
	char *mrel = arena_printf(c->ar, "sys/block/%s/device/mode", name);
	rootfs_file f = doctor_read(c, mrel, DOCTOR_MAX_SYS);
	if (f.status != ROOTFS_OK) {
		doctor_unchecked(c, arena_printf(c->ar, "the mode of %s", dev), mrel, &f);
	} else if (strncmp(f.data, "memory", 6) != 0 || (f.data[6] && f.data[6] != '\n')) {
		const char *mode = ndctl_mode(f.data);
		diag *d = doctor_report(c, R_NODE_PMEM, at, "PMem namespace %s of engine %d is in %s mode, not fsdax: DAOS "
					"mounts it with dax", dev, ep->index,
					mode ? mode : arena_printf(c->ar, "'%.*s'", (int)strcspn(f.data, "\n"), f.data));
		int err;
		const char *ns = doctor_link(c, arena_printf(c->ar, "sys/block/%s/device", name), &err);
		diag_help(c->dc, d, "reconfigure it (this erases it): ndctl create-namespace -f -e %s --mode fsdax, then "
				    "format the engine again", ns ? ns : "<its namespace>");
		return;
	}
	if (c->topo && !c->numa_changed) {
		int numa = TOPO_NUMA_UNKNOWN;
		for (int i = 0; i < c->topo->npmems; i++)
			if (strcmp(c->topo->pmems[i].name, name) == 0)
				numa = doctor_type_numa(c, c->topo->pmems[i].numa);
		if (numa >= 0 && numa != ep->numa) {
			diag *d = doctor_report(c, R_NODE_PMEM, at, "PMem namespace %s is on NUMA node %d of the machine, engine %d "
						"is on NUMA node %d", dev, numa, ep->index, ep->numa);
			diag_help(c->dc, d, "the namespaces were renumbered (created in another order): give the engine the "
					    "namespace of its NUMA node (`scm pmem /dev/pmemN`)");
			return;
		}
	}
	char *drel = arena_printf(c->ar, "dev/%s", name);
	if (!doctor_exists(c, drel)) {
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
