/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Loading lstopo exports: the shared reference exports (skipped when
 * ../shared/reference is absent) and the project's own synthetic ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/model/fabric.h"
#include "compiler/model/topology.h"
#include "compiler/place/place.h"
#include "unit.h"

#define REF "../shared/reference/hwloc/"

static topology *load(arena *a, const char *path)
{
	const char *why = "";
	topology *t = topo_load_xml(a, path, true, &why);
	ck_assert_msg(t != NULL, "%s: %s", path, why);
	return t;
}

static bool have_reference(const char *file)
{
	if (access(file, R_OK) == 0)
		return true;
	printf("skip: %s is absent\n", file);
	return false;
}

static int count_kind(const topology *t, topo_dev_kind k)
{
	int n = 0;
	for (int i = 0; i < t->ndevices; i++)
		n += t->devices[i].kind == k;
	return n;
}

START_TEST(reference_exports_load)
{
	arena a;
	arena_init(&a);
	if (have_reference(REF "hwloc_AMD-19h-Zen4-2xEpyc-9654.xml")) {
		topology *t = load(&a, REF "hwloc_AMD-19h-Zen4-2xEpyc-9654.xml");
		ck_assert_int_eq(t->ncores, 192);
		ck_assert_int_eq(t->nnuma, 2);
		ck_assert_int_eq(t->numa[1].first_core, 96);
		ck_assert_int_eq(t->cores[96].pus[0], 96);
		ck_assert_int_eq(t->cores[96].pus[1], 288); /* SMT siblings at +192 */
		ck_assert_int_eq(t->ndevices, 0);
	}
	if (have_reference(REF "synthetic_epyc-9v45-like-2p96c2t-io.xml")) {
		topology *t = load(&a, REF "synthetic_epyc-9v45-like-2p96c2t-io.xml");
		ck_assert_int_eq(count_kind(t, TOPO_NIC), 2);
		ck_assert_int_eq(count_kind(t, TOPO_NVME), 8);
		const topo_device *d = topo_find_device(t, "0000:c1:00.0");
		ck_assert_ptr_nonnull(d);
		ck_assert_str_eq(d->net, "ens1f0np0");
		ck_assert_str_eq(d->rdma, "mlx5_1");
		ck_assert_int_eq(d->numa, 1);
		ck_assert_ptr_null(topo_find_device(t, "0000:03:00.0")->block); /* SPDK-bound */
		ck_assert_uint_eq(t->numa[0].memory, 768ULL << 30);
	}
	if (have_reference(REF "daos_tds-0002.xml")) {
		topology *t = load(&a, REF "daos_tds-0002.xml");
		ck_assert_int_eq(t->ncores, 52);
		ck_assert_int_eq(t->nnuma, 2);
		ck_assert_int_eq(count_kind(t, TOPO_VMD), 4); /* NVMe behind Intel VMD */
		const topo_device *hsn = topo_find_device(t, "0000:83:00.0");
		ck_assert_str_eq(hsn->net, "hsn1");
		ck_assert(hsn->fabric); /* Slingshot, without an OpenFabrics device */
		ck_assert_str_eq(hsn->link, TOPO_LINK_SLINGSHOT);
		ck_assert_int_eq(hsn->numa, 1);
		ck_assert(!topo_find_device(t, "0000:04:00.0")->fabric);
	}
	if (have_reference(REF "hwloc_24em64t-2n6c2t-pci.xml")) {
		topology *t = load(&a, REF "hwloc_24em64t-2n6c2t-pci.xml");
		ck_assert_int_eq(t->ncores, 12);
		for (int c = 0; c < 6; c++) /* socket-interleaved: NUMA 0 holds even CPUs */
			ck_assert_int_eq(t->cores[c].pus[0] % 2, 0);
		ck_assert_int_eq(t->cores[6].pus[0], 1);
	}
	arena_free(&a);
}
END_TEST

static const topo_device *nic(const topology *t, const char *pci, const char *name)
{
	const topo_device *d = topo_find_nic(t, pci, name);
	ck_assert_msg(d != NULL, "%s %s", pci, name);
	return d;
}

/* Link types from the hardware address, not the PCI class; every interface
 * of a function kept with the function's RDMA device. */
START_TEST(fabrics_export_link_types_and_interfaces)
{
	arena a;
	arena_init(&a);
	topology *t = load(&a, "tests/topologies/fabrics-nps4-2s96c.xml");
	ck_assert_str_eq(nic(t, "0000:40:00.0", "ens40f0np0")->link, TOPO_LINK_ETHERNET);
	ck_assert_str_eq(nic(t, "0000:41:00.0", "ib0")->link, TOPO_LINK_INFINIBAND);
	/* a VPI function (class 0x0207) whose port runs Ethernet */
	const topo_device *vpi = nic(t, "0000:21:00.0", "enp33s0f0");
	ck_assert_str_eq(vpi->link, TOPO_LINK_ETHERNET);
	ck_assert_str_eq(vpi->rdma, "mlx5_2");
	ck_assert_int_eq(vpi->numa, 2);
	ck_assert_str_eq(nic(t, "0000:21:00.1", "ib1")->link, TOPO_LINK_INFINIBAND);
	/* one mlx4 function, two interfaces, one RDMA device */
	const topo_device *eth2 = nic(t, "0000:e1:00.0", "eth2"), *ib3 = nic(t, "0000:e1:00.0", "ib3");
	ck_assert_str_eq(eth2->link, TOPO_LINK_ETHERNET);
	ck_assert_str_eq(ib3->link, TOPO_LINK_INFINIBAND);
	ck_assert_str_eq(eth2->rdma, "mlx4_0");
	ck_assert_str_eq(ib3->rdma, "mlx4_0");
	ck_assert_str_eq(topo_nic_names(&a, t, "0000:e1:00.0"), "eth2, ib3");
	ck_assert_ptr_null(topo_find_nic(t, "0000:e1:00.0", "ib0"));
	ck_assert_str_eq(nic(t, "0000:f1:00.0", "ib4")->link, TOPO_LINK_OMNIPATH);
	ck_assert_str_eq(nic(t, "0000:81:00.0", "hsn0")->link, TOPO_LINK_SLINGSHOT);
	const topo_device *iwarp = nic(t, "0000:c0:00.0", "enp192s0f0");
	ck_assert_str_eq(iwarp->link, TOPO_LINK_ETHERNET);
	ck_assert(iwarp->fabric);
	const topo_device *mgmt = nic(t, "0000:01:00.0", "eno1");
	ck_assert(!mgmt->fabric);
	ck_assert_ptr_null(mgmt->rdma);
	arena_free(&a);
}
END_TEST

/* The fabric table: which link type and RDMA device each fabric and
 * provider needs. */
START_TEST(fabric_needs_from_kind_and_provider)
{
	arena a;
	arena_init(&a);
	cluster_spec c = {0};
	c.provider.set = true;
	c.provider.v = "ofi+verbs;ofi_rxm";
	fabric_need f = fabric_need_of(&c);
	ck_assert_ptr_null(f.link);
	ck_assert(f.rdma);
	ck_assert_ptr_null(fabric_misfit(&a, &f, "ib0", TOPO_LINK_INFINIBAND, "mlx5_0", true));
	ck_assert_ptr_null(fabric_misfit(&a, &f, "ens1", TOPO_LINK_ETHERNET, "mlx5_1", true));
	ck_assert_str_eq(fabric_misfit(&a, &f, "eno1", TOPO_LINK_ETHERNET, NULL, true), "eno1 has no RDMA device; the provider needs one");
	ck_assert_ptr_null(fabric_misfit(&a, &f, "eno1", NULL, NULL, false)); /* hand-described: trusted */
	c.fabric_kind.set = true;
	c.fabric_kind.v = "infiniband";
	f = fabric_need_of(&c);
	ck_assert_str_eq(fabric_misfit(&a, &f, "ens1", TOPO_LINK_ETHERNET, "mlx5_1", true),
			 "ens1 is an ethernet port; the cluster's fabric is infiniband");
	c.fabric_kind.v = "roce";
	f = fabric_need_of(&c);
	ck_assert_ptr_nonnull(fabric_misfit(&a, &f, "ib0", TOPO_LINK_INFINIBAND, "mlx5_0", true));
	ck_assert_ptr_null(fabric_misfit(&a, &f, "ens1", TOPO_LINK_ETHERNET, "mlx5_1", true));
	c.fabric_kind.set = false;
	c.provider.v = "ofi+cxi";
	f = fabric_need_of(&c);
	ck_assert_str_eq(f.link, TOPO_LINK_SLINGSHOT);
	ck_assert_ptr_nonnull(fabric_misfit(&a, &f, "ib0", TOPO_LINK_INFINIBAND, "mlx5_0", true));
	c.provider.v = "ofi+tcp;ofi_rxm";
	f = fabric_need_of(&c);
	ck_assert(!f.rdma && !f.link);
	arena_free(&a);
}
END_TEST

START_TEST(nps4_export_has_eight_numa_nodes_and_locality)
{
	arena a;
	arena_init(&a);
	topology *t = load(&a, "tests/topologies/nps4-2s96c.xml");
	ck_assert_int_eq(t->nnuma, 8);
	for (int n = 0; n < 8; n++) {
		ck_assert_int_eq(t->numa[n].ncores, 24);
		ck_assert_int_eq(t->numa[n].first_core, 24 * n);
	}
	ck_assert_int_eq(topo_find_device(t, "0000:41:00.0")->numa, 1);
	ck_assert_int_eq(topo_find_device(t, "0000:c1:00.0")->numa, 5);
	const topo_device *pkg = topo_find_device(t, "0000:01:00.0");
	ck_assert_int_eq(pkg->numa, TOPO_NUMA_SEVERAL);
	ck_assert_uint_eq(pkg->numa_mask, 0x0f);
	ck_assert_int_eq(topo_find_device(t, "0000:f0:00.0")->numa, TOPO_NUMA_UNKNOWN);
	ck_assert_ptr_null(topo_find_device(t, "0000:e1:00.0")->block);
	ck_assert_int_eq(topo_find_device(t, "0000:c5:05.5")->kind, TOPO_VMD);
	arena_free(&a);
}
END_TEST

START_TEST(v1_export_loads_like_v2)
{
	arena a;
	arena_init(&a);
	topology *v1 = load(&a, "tests/topologies/interleaved-2s6c.v1.xml");
	topology *v2 = load(&a, "tests/topologies/interleaved-2s6c.xml");
	ck_assert_int_eq(v1->ncores, v2->ncores);
	ck_assert_int_eq(v1->nnuma, 2);
	for (int c = 0; c < v1->ncores; c++)
		ck_assert_int_eq(v1->cores[c].pus[0], v2->cores[c].pus[0]);
	ck_assert_int_eq(v1->ndevices, v2->ndevices);
	ck_assert_int_eq(topo_find_device(v1, "0000:84:00.0")->numa, 1);
	arena_free(&a);
}
END_TEST

START_TEST(failed_loads_never_fall_back_to_this_machine)
{
	arena a;
	arena_init(&a);
	const char *why;
	ck_assert_ptr_null(topo_load_xml(&a, "tests/topologies/absent.xml", true, &why));
	ck_assert_str_eq(why, "No such file or directory");
	ck_assert_ptr_null(topo_load_xml(&a, "tests/topologies/generate.sh", true, &why));
	char v3[] = "/tmp/dslc-v3-XXXXXX"; /* not build/: ASan builds live in another directory */
	int fd = mkstemp(v3);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n</topology>\n", f);
	fclose(f);
	ck_assert_ptr_null(topo_load_xml(&a, v3, true, &why));
	ck_assert_ptr_nonnull(strstr(why, "v2xml"));
	unlink(v3);
	arena_free(&a);
}
END_TEST

static const char *const interleaved =
	"daos 2.6\n"
	"cluster t { provider \"ofi+verbs;ofi_rxm\" access_points w1 }\n"
	"hardware westmere { topology \"tests/topologies/interleaved-2s6c.xml\"\n"
	"  nic auto\n  nvme auto }\n"
	"profile p : westmere { reserve os 1 cores per numa\n"
	"  engine per numa { targets 2 helpers 0 scm ram 4GiB } %s }\n"
	"nodes w1 : p\n";

START_TEST(interleaved_export_first_core_is_logical_cpus_are_linux)
{
	compilation c;
	char text[1024];
	snprintf(text, sizeof(text), interleaved, "");
	unit_compile(&c, text);
	ck_assert_uint_eq(unit_findings(&c), 0);
	const node_plan *p = c.m.specs[0]->plan;
	ck_assert_int_eq(p->nengines, 2);
	ck_assert_int_eq(p->engines[1].first_core, 7); /* logical: NUMA 1 starts at core 6, +1 OS core */
	ck_assert_str_eq(p->engines[1].nic->name, "ib1");
	ck_assert_int_eq(p->engines[1].nnvmes, 1);
	int cpus[16];
	int n = place_cpus(p->topo, p->engines[1].first_core, p->engines[1].needed, cpus);
	ck_assert_str_eq(topo_cpulist(&c.ar, cpus, n), "3,5,7,9,15,17,19,21"); /* Linux: odd CPUs */
	compile_free(&c);
}
END_TEST

START_TEST(linux_cpu_number_as_first_core)
{
	compilation c;
	char text[1024];
	snprintf(text, sizeof(text), interleaved, "engine numa 1 { first_core 3 }");
	unit_compile(&c, text);
	ck_assert_str_eq(unit_msg(&c, "first-core-linux-cpu"), "first_core 3 is Linux CPU 3, which is hwloc logical core 7");
	ck_assert_ptr_nonnull(strstr(unit_help(&c, "first-core-linux-cpu"), "`first_core 7`"));
	compile_free(&c);
}
END_TEST

START_TEST(nps4_engines_only_where_a_nic_is)
{
	compilation c;
	unit_compile(&c, "daos 2.6\n"
			 "cluster t { provider \"ofi+verbs;ofi_rxm\" access_points n1 }\n"
			 "hardware z { topology \"tests/topologies/nps4-2s96c.xml\" nic auto\n nvme auto }\n"
			 "profile p : z { reserve os 2 cores per numa\n"
			 "  engine per numa { targets 16 helpers 2 scm ram 16GiB } }\n"
			 "nodes n1 : p\n");
	const node_plan *p = c.m.specs[0]->plan;
	ck_assert_int_eq(p->nengines, 2);
	ck_assert_int_eq(p->engines[0].numa, 1);
	ck_assert_int_eq(p->engines[1].numa, 5);
	ck_assert_int_eq(p->engines[1].first_core, 122);
	ck_assert_int_eq(p->engines[1].nnvmes, 2); /* c2:00.0 and the VMD endpoint */
	ck_assert(unit_has(&c, "numa-without-nic"));       /* NUMA 3 and 6 have drives */
	ck_assert(unit_has(&c, "device-locality-unknown")); /* the package and machine drives */
	ck_assert_uint_eq(diag_count(&c.dc, SEV_ERROR), 0);
	compile_free(&c);
}
END_TEST

/* Issue 22: NUMA nodes without CPUs and devices placed as DAOS places them
 * (the first NUMA node with CPUs whose cpuset holds the device's). */
START_TEST(memory_only_numa_nodes_and_device_locality)
{
	arena a;
	arena_init(&a);
	topology *p9 = load(&a, "tests/topologies/power9-gpu-2s20c.xml");
	ck_assert_int_eq(p9->nnuma, 6);
	ck_assert_int_eq(p9->numa[1].os_index, 8);
	ck_assert_int_eq(p9->numa[1].ncores, 20);
	for (int n = 2; n < 6; n++) {
		ck_assert_int_eq(p9->numa[n].ncores, 0);
		ck_assert_int_eq(p9->numa[n].os_index, 250 + n);
	}
	ck_assert_int_eq(topo_find_device(p9, "0033:01:00.0")->numa, 1); /* was "several": the GPU nodes */
	ck_assert_int_eq(topo_find_device(p9, "0004:02:00.0")->numa, 0);
	topology *max = load(&a, "tests/topologies/xeonmax-snc4-1s56c.xml");
	ck_assert_int_eq(max->nnuma, 8);
	ck_assert_int_eq(max->numa[1].ncores, 0); /* HBM beside DDR node 0 */
	ck_assert_int_eq(max->numa[4].os_index, 2);
	ck_assert_int_eq(max->numa[4].first_core, 28); /* 14 cores per quadrant */
	const topo_device *nic = topo_find_device(max, "0000:6a:00.0");
	ck_assert_int_eq(nic->numa, 4);
	ck_assert(nic->numa_mask & (1ULL << 5)); /* the HBM node is local too */
	/* NPS4: a drive on the package is still held by no single node */
	topology *nps4 = load(&a, "tests/topologies/nps4-2s96c.xml");
	ck_assert_int_eq(topo_find_device(nps4, "0000:01:00.0")->numa, TOPO_NUMA_SEVERAL);
	ck_assert_int_eq(topo_find_device(nps4, "0000:f0:00.0")->numa, TOPO_NUMA_UNKNOWN);
	arena_free(&a);
}
END_TEST


Suite *suite_topology_xml(void)
{
	Suite *s = suite_create("topology_xml");
	TCase *tc = tcase_create("xml");
	tcase_add_test(tc, reference_exports_load);
	tcase_add_test(tc, fabrics_export_link_types_and_interfaces);
	tcase_add_test(tc, fabric_needs_from_kind_and_provider);
	tcase_add_test(tc, nps4_export_has_eight_numa_nodes_and_locality);
	tcase_add_test(tc, v1_export_loads_like_v2);
	tcase_add_test(tc, failed_loads_never_fall_back_to_this_machine);
	tcase_add_test(tc, interleaved_export_first_core_is_logical_cpus_are_linux);
	tcase_add_test(tc, linux_cpu_number_as_first_core);
	tcase_add_test(tc, nps4_engines_only_where_a_nic_is);
	tcase_add_test(tc, memory_only_numa_nodes_and_device_locality);
	suite_add_tcase(s, tc);
	return s;
}
