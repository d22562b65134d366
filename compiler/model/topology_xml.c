/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* topology_xml.c - a node type's topology from an `lstopo --of xml` export.
 * Facts in ../shared/facts/hwloc.md: I/O filters must be set before loading
 * (P3), a failed set_xml must never be followed by a load of this machine
 * (P2), NUMA nodes are memory children (P5), cores are counted from Core
 * objects and cpusets, never PU arithmetic (P4). */
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/sandbox.h"
#include "compiler/base/source.h"
#include "topology.h"

enum { TOPO_MAX_XML_BYTES = 64 * 1024 * 1024 };
/* What hwloc may allocate reading one export, in the sandbox: a real export
 * of a 2-socket, 192-thread machine with its I/O takes a few MiB; a PU
 * without os_index makes hwloc set bit 2^32-1 of a bitmap (512 MiB each,
 * 2.5 GiB seen from one 49 KB file). */
#define TOPO_MAX_PARSE_MEMORY ((size_t)256 << 20)

static char *read_xml(arena *a, const char *path, bool regular_only, size_t *len, const char **why)
{
	char *xml = src_read_file(a, path, TOPO_MAX_XML_BYTES, regular_only, len);
	if (!xml) {
		*why = errno == EFBIG ? "larger than 64 MiB" : src_strerror(errno);
		return NULL;
	}
	if (!*len) {
		*why = "the file is empty";
		return NULL;
	}
	return xml;
}

static int numa_of_cpuset(hwloc_topology_t t, int nnuma, hwloc_const_cpuset_t set)
{
	for (int n = 0; n < nnuma; n++) {
		hwloc_obj_t numa = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)n);
		if (!hwloc_bitmap_iszero(numa->cpuset) && hwloc_bitmap_isincluded(set, numa->cpuset))
			return n;
	}
	return nnuma ? -1 : 0;
}

/* The link type of one network interface. The hardware address decides
 * where the export has one: hwloc copies /sys/class/net/<if>/address into
 * the "Address" info (hwloc/topology-linux.c
 * hwloc_linuxfs_net_class_fillinfos), 6 bytes for Ethernet (ETH_ALEN), 20 for
 * IPoIB (INFINIBAND_ALEN, include/uapi/linux/if_infiniband.h). A ConnectX VPI
 * function keeps one PCI class whatever its port runs, so the class is only
 * the fallback. OPA carries IPoIB too: its class (0x0208) or an hfi1 RDMA
 * device tells it apart. Slingshot interfaces are Ethernet-addressed; hwloc
 * gives them subtype "Slingshot" (same function), older exports only the
 * HPE/Cray vendor id 0x17db. */
static const char *link_of(hwloc_obj_t pci, hwloc_obj_t net, const char *rdma)
{
	unsigned cls = pci->attr->pcidev.class_id;
	bool opa = cls == 0x0208 || (rdma && strncmp(rdma, "hfi1", 4) == 0);
	if ((net && net->subtype && strcmp(net->subtype, "Slingshot") == 0) || pci->attr->pcidev.vendor_id == 0x17db)
		return TOPO_LINK_SLINGSHOT;
	const char *addr = net ? hwloc_obj_get_info_by_name(net, "Address") : NULL;
	size_t bytes = addr ? (strlen(addr) + 1) / 3 : 0;
	if (bytes == 20)
		return opa ? TOPO_LINK_OMNIPATH : TOPO_LINK_INFINIBAND;
	if (bytes == 6)
		return TOPO_LINK_ETHERNET;
	if (opa)
		return TOPO_LINK_OMNIPATH;
	if (cls == 0x0207 || cls == 0x0c06)
		return TOPO_LINK_INFINIBAND;
	return cls == 0x0200 ? TOPO_LINK_ETHERNET : "network";
}

/* Locality, as DAOS decides it (src/control/lib/hardware/hwloc/provider.go,
 * getDeviceNUMANodeID): the first NUMA node in logical order whose cpuset
 * holds the cpuset of the device's first non-I/O ancestor. A NUMA node
 * without CPUs (GPU, HBM or CXL memory) never holds it: on a Xeon Max the
 * HBM node shares its DDR node's CPUs, and the device is the DDR node's,
 * as sysfs says. numa_mask keeps every node of the ancestor's nodeset. A
 * device under the Machine means the firmware gave no locality: unknown,
 * never node 0; one no single node holds (a drive on an NPS4 package) is
 * local to several. */
static void locality(hwloc_topology_t t, hwloc_obj_t p, int nnuma, topo_device *d)
{
	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, p);
	if (anc->type == HWLOC_OBJ_MACHINE && nnuma > 1) {
		d->numa = TOPO_NUMA_UNKNOWN;
		return;
	}
	if (nnuma == 0) {
		d->numa_mask = 1;
		d->numa = 0;
		return;
	}
	d->numa = TOPO_NUMA_UNKNOWN;
	int count = 0;
	for (int k = 0; k < nnuma && k < 64; k++) {
		hwloc_obj_t numa = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)k);
		bool holds = !hwloc_bitmap_iszero(numa->cpuset) && hwloc_bitmap_isincluded(anc->cpuset, numa->cpuset);
		if (holds && d->numa < 0)
			d->numa = k;
		if (hwloc_bitmap_isset(anc->nodeset, numa->os_index)) {
			d->numa_mask |= 1ULL << k;
			count++;
		}
	}
	if (d->numa < 0 && count > 1)
		d->numa = TOPO_NUMA_SEVERAL;
	else if (d->numa >= 0)
		d->numa_mask |= 1ULL << d->numa;
}

typedef struct dev_list {
	topo_device *v;
	size_t n, cap;
} dev_list;

/* One entry per network interface of a NIC function (one without a name
 * when it has none), all sharing the function's RDMA device. */
static void add_nic(arena *a, dev_list *l, hwloc_obj_t p, topo_device d)
{
	for (hwloc_obj_t o = p->io_first_child; o; o = o->next_sibling)
		if (o->type == HWLOC_OBJ_OS_DEVICE && o->name && o->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS && !d.rdma)
			d.rdma = arena_strdup(a, o->name);
	bool any = false;
	for (hwloc_obj_t o = p->io_first_child;; o = o->next_sibling) {
		bool net = o && o->type == HWLOC_OBJ_OS_DEVICE && o->name && o->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK;
		if (o && !net)
			continue;
		if (!o && any)
			break;
		topo_device e = d;
		e.net = o ? arena_strdup(a, o->name) : NULL;
		e.link = link_of(p, o, d.rdma);
		/* RDMA-capable, or a link that only storage fabrics use */
		e.fabric = d.rdma || (strcmp(e.link, TOPO_LINK_ETHERNET) != 0 && strcmp(e.link, "network") != 0);
		ARENA_PUSH(a, l->v, l->n, l->cap, e);
		any = true;
		if (!o)
			break;
	}
}

/* A PMem namespace's block device. hwloc names a block device on the
 * nvdimm bus's subtype "NVDIMM" up to 2.4 and "NVM" since (topology-linux.c
 * hwloc_linuxfs_block_class_fillinfos: a device whose devtype starts with
 * "nd_"); the "NVM" ones also hold devdax character devices (daxX.Y, from
 * /sys/bus/dax), which have no /dev/pmemN to mount. */
static bool pmem_osdev(hwloc_obj_t o)
{
	if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_BLOCK || !o->name || !o->subtype)
		return false;
	return strcmp(o->subtype, "NVDIMM") == 0 || (strcmp(o->subtype, "NVM") == 0 && strncmp(o->name, "pmem", 4) == 0);
}

static void load_devices(arena *a, hwloc_topology_t t, topology *topo, int nnuma)
{
	dev_list l = {0};
	for (hwloc_obj_t p = NULL; (p = hwloc_get_next_pcidev(t, p));) {
		unsigned cls = p->attr->pcidev.class_id;
		topo_device d = {0};
		if (cls == 0x0108)
			d.kind = TOPO_NVME;
		else if (cls == 0x0104)
			d.kind = TOPO_VMD;
		else if ((cls >> 8) == 0x02 || cls == 0x0c06)
			d.kind = TOPO_NIC;
		else if ((cls >> 8) == 0x03 && p->attr->pcidev.vendor_id == 0x10de) {
			/* a GPU the NVIDIA device plugin offers (nvidia.com/gpu) and
			 * reports with its NUMA node: what the topology manager
			 * aligns a training pod to */
			locality(t, p, nnuma, &d);
			if (d.numa >= 0)
				topo->numa[d.numa].gpus++;
			topo->has_gpus = true;
			continue;
		} else
			continue;
		snprintf(d.pci, sizeof(d.pci), "%04x:%02x:%02x.%01x", p->attr->pcidev.domain, p->attr->pcidev.bus,
			 p->attr->pcidev.dev, p->attr->pcidev.func);
		d.vendor = p->attr->pcidev.vendor_id;
		d.device_id = p->attr->pcidev.device_id;
		locality(t, p, nnuma, &d);
		if (d.kind == TOPO_NIC) {
			add_nic(a, &l, p, d);
			continue;
		}
		for (hwloc_obj_t o = p->io_first_child; o; o = o->next_sibling)
			if (o->type == HWLOC_OBJ_OS_DEVICE && o->name && o->attr->osdev.type == HWLOC_OBJ_OSDEV_BLOCK && !d.block)
				d.block = arena_strdup(a, o->name);
		/* a VMD endpoint without drives' block devices under it is kept:
		 * its slots are empty, or daos_server has bound it to vfio-pci
		 * and its drives are SPDK's (`nvme auto` passes it by) */
		ARENA_PUSH(a, l.v, l.n, l.cap, d);
	}
	topo->devices = l.v;
	topo->ndevices = (int)l.n;
	struct { topo_pmem *v; size_t n, cap; } pm = {0};
	for (hwloc_obj_t o = NULL; (o = hwloc_get_next_osdev(t, o));) {
		if (!pmem_osdev(o))
			continue;
		topo_device d = {0};
		locality(t, o, nnuma, &d);
		topo_pmem e = {arena_strdup(a, o->name), d.numa};
		ARENA_PUSH(a, pm.v, pm.n, pm.cap, e);
	}
	topo->pmems = pm.v;
	topo->npmems = (int)pm.n;
}

static topology *convert(arena *a, hwloc_topology_t t, const char **why)
{
	topology *topo = arena_alloc(a, sizeof(*topo));
	hwloc_obj_type_t ctype = HWLOC_OBJ_CORE;
	int ncores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
	if (ncores <= 0) { /* exports without a Core level (P13): PUs are the cores */
		ctype = HWLOC_OBJ_PU;
		ncores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	}
	int nnuma = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
	if (ncores <= 0) {
		*why = "the export has no cores or processing units";
		return NULL;
	}
	if (nnuma > 64) {
		*why = "more than 64 NUMA nodes";
		return NULL;
	}
	topo->ncores = ncores;
	topo->cores = arena_alloc(a, (size_t)ncores * sizeof(topo_core));
	topo->nnuma = nnuma ? nnuma : 1;
	topo->numa = arena_alloc(a, (size_t)topo->nnuma * sizeof(topo_numa));
	topo->numa_os_mismatch = -1;
	int npack = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
	topo->nsockets = npack > 0 ? npack : 1;
	for (int n = 0; n < topo->nnuma; n++) {
		topo->numa[n].first_core = -1;
		if (!nnuma)
			continue;
		hwloc_obj_t numa = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)n);
		topo->numa[n].os_index = (int)numa->os_index;
		topo->numa[n].memory = numa->attr->numanode.local_memory;
		if ((int)numa->os_index != n && topo->numa_os_mismatch < 0)
			topo->numa_os_mismatch = n;
	}
	for (int c = 0; c < ncores; c++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(t, ctype, (unsigned)c);
		topo_core *k = &topo->cores[c];
		unsigned pu;
		hwloc_bitmap_foreach_begin(pu, core->cpuset)
			if (k->npus < TOPO_MAX_SMT)
				k->pus[k->npus++] = (int)pu;
		hwloc_bitmap_foreach_end();
		hwloc_obj_t pack = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, core);
		k->socket = pack ? (int)pack->logical_index : 0;
		k->numa = numa_of_cpuset(t, nnuma, core->cpuset);
		if (k->numa < 0) {
			*why = "a core belongs to no NUMA node";
			return NULL;
		}
		topo_numa *tn = &topo->numa[k->numa];
		if (tn->first_core < 0)
			tn->first_core = c;
		else if (tn->first_core + tn->ncores != c) {
			*why = "the cores of a NUMA node are not contiguous in hwloc's logical order";
			return NULL;
		}
		tn->ncores++;
	}
	for (int n = 0; n < topo->nnuma; n++)
		if (topo->numa[n].first_core < 0)
			topo->numa[n].first_core = 0; /* a CPU-less node (CXL, HBM) */
	topo->hugepage_size = 2 * 1024 * 1024;
	load_devices(a, t, topo, nnuma);
	return topo;
}

topology *topo_load_xml(arena *a, const char *path, bool regular_only, const char **why)
{
	size_t len;
	char *xml = read_xml(a, path, regular_only, &len, why);
	return xml ? topo_parse_xml(a, xml, len, why) : NULL;
}

static topology *parse(arena *a, const char *xml, size_t len, const char **why)
{
	/* hwloc prints its own complaints ("Topology does not contain any NUMA
	 * node, aborting!") to stderr: dslc says what failed, at the line */
	setenv("HWLOC_HIDE_ERRORS", "1", 0);
	hwloc_topology_t t;
	if (hwloc_topology_init(&t) < 0) {
		*why = "hwloc could not be initialised";
		return NULL;
	}
	hwloc_topology_set_flags(t, 0); /* another machine: never THISSYSTEM */
	hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	topology *topo = NULL;
	if (hwloc_topology_set_xmlbuffer(t, xml, (int)len + 1) < 0) {
		*why = "not an hwloc XML export";
	} else if (hwloc_topology_load(t) < 0) {
		*why = strstr(xml, "version=\"3.") ? "it is hwloc 3.x's XML format, which hwloc 2.x cannot read (export with `lstopo --of v2xml`)"
						  : "hwloc refused it: the XML is malformed or truncated";
	} else {
		topo = convert(a, t, why);
	}
	hwloc_topology_destroy(t);
	return topo;
}

char *topo_export_live(arena *a, size_t *len, const char **why)
{
	setenv("HWLOC_HIDE_ERRORS", "1", 0);
	hwloc_topology_t t;
	if (hwloc_topology_init(&t) < 0) {
		*why = "hwloc could not be initialised";
		return NULL;
	}
	hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	char *xml = NULL, *out = NULL;
	int buflen = 0;
	if (hwloc_topology_load(t) < 0)
		*why = "hwloc could not read this machine's topology";
	else if (hwloc_topology_export_xmlbuffer(t, &xml, &buflen, 0) < 0 || buflen < 1)
		*why = "hwloc could not export this machine's topology";
	else {
		*len = (size_t)buflen - 1; /* buflen counts the final NUL */
		out = arena_strndup(a, xml, *len);
	}
	if (xml)
		hwloc_free_xmlbuffer(t, xml);
	hwloc_topology_destroy(t);
	return out;
}

typedef struct probe {
	const char *xml;
	size_t len;
} probe;

/* The whole parse, in the child, in an arena of its own. */
static int probe_parse(void *ctx)
{
	const probe *p = ctx;
	arena a;
	arena_init(&a);
	const char *why;
	int rc = parse(&a, p->xml, p->len, &why) ? 0 : 1;
	arena_free(&a); /* valgrind checks the child's leaks at its _exit too */
	return rc;
}

/* hwloc trusts its XML: an object without complete_cpuset is a NULL
 * dereference in hwloc_bitmap_compare_first (Debian's lstopo crashes on it
 * too), inconsistent sets reach its assertions, and a PU without os_index
 * costs gigabytes. The export is parsed first in a child process with a
 * time and a memory limit; only an export that parsed there is parsed
 * here. A few milliseconds per node type. */
topology *topo_parse_xml(arena *a, const char *xml, size_t len, const char **why)
{
	if (!len || len > TOPO_MAX_XML_BYTES || xml[len] != '\0') {
		*why = !len ? "the file is empty" : len > TOPO_MAX_XML_BYTES ? "larger than 64 MiB" : "not NUL-terminated";
		return NULL;
	}
	probe p = {xml, len};
	int sig;
	switch (sandbox_run(probe_parse, &p, 20, TOPO_MAX_PARSE_MEMORY, &sig)) {
	case SANDBOX_CRASHED:
		/* an allocation past the cap can end the child too (ASan aborts
		 * where plain malloc returns NULL) */
		*why = arena_printf(a, "hwloc crashed reading it (%s), or ran past the 1 GiB it may use: the export is "
				    "malformed (an object without its cpusets or its os_index, or sets that contradict each "
				    "other); export it again with lstopo", strsignal(sig));
		return NULL;
	case SANDBOX_TOO_BIG:
		*why = "hwloc needed more than 256 MiB to read it (a real export takes a few): an object without its "
		       "os_index, or a set with a huge index; export it again with lstopo";
		return NULL;
	case SANDBOX_TIMEOUT:
		*why = "hwloc did not finish reading it in 20 seconds";
		return NULL;
	case SANDBOX_UNAVAILABLE:
		*why = "no process could be started to read it safely (fork failed)";
		return NULL;
	case SANDBOX_OK:
	case SANDBOX_REFUSED:
		break;
	}
	return parse(a, xml, len, why);
}

const topo_device *topo_find_device(const topology *t, const char *pci)
{
	for (int i = 0; i < t->ndevices; i++)
		if (strcmp(t->devices[i].pci, pci) == 0)
			return &t->devices[i];
	char endpoint[16];
	if (topo_vmd_endpoint(pci, endpoint))
		for (int i = 0; i < t->ndevices; i++)
			if (t->devices[i].kind == TOPO_VMD && strcmp(t->devices[i].pci, endpoint) == 0)
				return &t->devices[i];
	return NULL;
}

bool topo_vmd_endpoint(const char *pci, char endpoint[16])
{
	/* the backing address's 6-digit domain is the VMD endpoint's bus,
	 * device and function (SPDK's naming) */
	unsigned bus, dev, fn;
	if (strlen(pci) != 14 || pci[6] != ':' || sscanf(pci, "%2x%2x%2x:", &bus, &dev, &fn) != 3 || fn > 7)
		return false;
	snprintf(endpoint, 16, "0000:%02x:%02x.%x", bus, dev, fn);
	return true;
}

const topo_device *topo_find_iface(const topology *t, const char *iface)
{
	for (int i = 0; t && iface && i < t->ndevices; i++)
		if (t->devices[i].kind == TOPO_NIC && t->devices[i].net && strcmp(t->devices[i].net, iface) == 0)
			return &t->devices[i];
	return NULL;
}

const topo_device *topo_find_nic(const topology *t, const char *pci, const char *name)
{
	for (int i = 0; i < t->ndevices; i++)
		if (t->devices[i].kind == TOPO_NIC && strcmp(t->devices[i].pci, pci) == 0 && t->devices[i].net &&
		    strcmp(t->devices[i].net, name) == 0)
			return &t->devices[i];
	return NULL;
}

size_t topo_nic_interfaces(const topology *t, const char *pci, const char **out, size_t max)
{
	size_t n = 0;
	for (int i = 0; i < t->ndevices && n < max; i++)
		if (t->devices[i].kind == TOPO_NIC && t->devices[i].net && strcmp(t->devices[i].pci, pci) == 0)
			out[n++] = t->devices[i].net;
	return n;
}

char *topo_nic_names(arena *a, const topology *t, const char *pci)
{
	const char *ifs[16];
	size_t n = topo_nic_interfaces(t, pci, ifs, 16);
	char *names = NULL;
	for (size_t i = 0; i < n; i++)
		names = names ? arena_printf(a, "%s, %s", names, ifs[i]) : arena_strdup(a, ifs[i]);
	return names;
}
