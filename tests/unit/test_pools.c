/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Redundancy goals compiled for the fault domains a cluster really has. */
#include <stdio.h>
#include <string.h>

#include "compiler/model/oclass.h"
#include "compiler/place/pools.h"
#include "compiler/place/tolerance.h"
#include "unit.h"

/* n one-engine nodes; %s: release, container lines */
static const char *const base =
	"daos %s\n"
	"cluster t { provider \"ofi+tcp;ofi_rxm\" access_points n1 }\n"
	"hardware h { sockets 1 cores_per_socket 8 memory_per_numa 128GiB\n"
	"  numa 0 { nic e0 pci 0000:1a:00.0\n nvme 0000:21:00.0 } }\n"
	"profile p : h { engine per numa { targets 4 helpers 1 scm ram 8GiB } }\n"
	"nodes n[1-%d] : p\n"
	"pool p0 { size 50%% }\n"
	"container c in p0 { checksum crc32 server %s }\n";

static char text[2048];

static const container_plan *derive(compilation *c, const char *release, int nodes, const char *goals)
{
	snprintf(text, sizeof(text), base, release, nodes, goals);
	unit_compile(c, text);
	ck_assert_uint_ge(c->m.ncontainers, 1);
	return c->m.containers[0]->plan;
}

#define EXPECT(release, nodes, goals, file, dir)                                          \
	do {                                                                              \
		compilation c;                                                            \
		const container_plan *cp = derive(&c, release, nodes, goals);             \
		ck_assert_msg(strcmp(cp->file_oclass, file) == 0, "%s on %d nodes: file %s, want %s", \
			      goals, nodes, cp->file_oclass, file);                          \
		ck_assert_msg(strcmp(cp->dir_oclass, dir) == 0, "%s on %d nodes: dir %s, want %s", \
			      goals, nodes, cp->dir_oclass, dir);                            \
		ck_assert_uint_eq(diag_count(&c.dc, SEV_ERROR), 0);                      \
		compile_free(&c);                                                         \
	} while (0)

START_TEST(goals_pick_the_widest_class_that_fits_with_a_spare)
{
	EXPECT("2.6", 14, "tolerate 2 node failures files large", "EC_8P2GX", "RP_3G1");
	EXPECT("2.6", 14, "tolerate 1 node failures files large", "EC_8P1GX", "RP_2G1");
	EXPECT("2.6", 19, "tolerate 2 node failures files large", "EC_16P2GX", "RP_3G1");
	EXPECT("2.6", 18, "tolerate 2 node failures files large", "EC_8P2GX", "RP_3G1");
	EXPECT("2.6", 5, "tolerate 2 node failures files large", "EC_2P2GX", "RP_3G1");
	EXPECT("2.6", 4, "tolerate 2 node failures files large", "RP_3GX", "RP_3G1");
	EXPECT("2.6", 14, "tolerate 2 node failures files mixed", "EC_4P2GX", "RP_3G1");
	EXPECT("2.6", 14, "tolerate 2 node failures files small", "RP_3G1", "RP_3G1");
	EXPECT("2.6", 14, "tolerate 2 node failures files large directories large", "EC_8P2GX", "RP_3GX");
	EXPECT("2.6", 14, "tolerate 4 node failures files large", "RP_5GX", "RP_5G1");
}
END_TEST

START_TEST(three_parity_cells_only_from_2_6_3)
{
	EXPECT("2.6", 14, "tolerate 3 node failures files large", "RP_4GX", "RP_4G1");
	EXPECT("2.6.3", 14, "tolerate 3 node failures files large", "EC_8P3GX", "RP_4G1");
	EXPECT("2.8", 20, "tolerate 3 node failures files large", "EC_16P3GX", "RP_4G1");
	compilation c;
	derive(&c, "2.6", 14, "tolerate 3 node failures file_oclass EC_8P3GX");
	ck_assert(unit_has(&c, "oclass-unknown"));
	ck_assert_ptr_nonnull(strstr(unit_msg(&c, "oclass-unknown"), "from DAOS 2.6.3"));
	compile_free(&c);
}
END_TEST

START_TEST(chunk_is_whole_stripes_and_cell_fits_large_files)
{
	compilation c;
	const container_plan *cp = derive(&c, "2.6", 14, "tolerate 2 node failures files large");
	ck_assert_uint_eq(cp->ec_cell, 128 * 1024);
	ck_assert_uint_eq(cp->chunk, 8u << 20); /* 8 x 128 KiB stripes: 1 MiB; 8 of them */
	ck_assert_int_eq(cp->rd_fac, 2);
	ck_assert_str_eq(cp->rd_lvl, "node");
	ck_assert_int_eq(cp->domains, 14);
	compile_free(&c);
	cp = derive(&c, "2.6", 14, "tolerate 2 node failures files mixed");
	ck_assert_uint_eq(cp->ec_cell, 0);         /* the pool's 64 KiB */
	ck_assert_uint_eq(cp->chunk, 1u << 20);   /* 4 x 64 KiB stripes, DAOS's own rule: >= 1 MiB */
	compile_free(&c);
	cp = derive(&c, "2.6", 14, "tolerate 2 engine failures files large");
	ck_assert_str_eq(cp->rd_lvl, "rank");
	ck_assert_int_eq(cp->domains, 14); /* one engine per node here */
	compile_free(&c);
}
END_TEST

START_TEST(the_issue_case_ec_16p2gx_on_14_nodes)
{
	compilation c;
	derive(&c, "2.6", 14, "tolerate 2 node failures file_oclass EC_16P2GX");
	ck_assert_str_eq(unit_msg(&c, "oclass-too-wide"), "EC_16P2GX is 18 wide (18 > 14 nodes at rd_lvl node)");
	ck_assert_str_eq(unit_help(&c, "oclass-too-wide"),
			 "use EC_8P2GX, the widest class with 2 parity cells that fits 14 nodes with one spare");
	compile_free(&c);
}
END_TEST

START_TEST(class_names_follow_daos_registry)
{
	oclass oc;
	const char *why, *sug;
	ck_assert(oclass_parse("EC_8P2GX", 26, -1, &oc, &why, &sug));
	ck_assert_int_eq(oclass_width(&oc), 10);
	ck_assert_int_eq(oclass_tolerance(&oc), 2);
	ck_assert(oclass_parse("RP_3G1", 26, -1, &oc, &why, &sug));
	ck_assert_int_eq(oclass_tolerance(&oc), 2);
	ck_assert(oclass_parse("S1", 26, -1, &oc, &why, &sug));
	ck_assert(oclass_parse("RP_XSF", 26, -1, &oc, &why, &sug));
	ck_assert(!oclass_parse("EC_4P2G6", 26, -1, &oc, &why, &sug));
	ck_assert_str_eq(sug, "EC_4P2G4 or EC_4P2G8");
	ck_assert(oclass_parse("RP_2G6", 26, -1, &oc, &why, &sug)); /* RP has G6, EC has not */
	ck_assert(!oclass_parse("ec_8p2gx", 26, -1, &oc, &why, &sug)); /* case-sensitive */
	ck_assert(!oclass_parse("EC_6P2G1", 26, -1, &oc, &why, &sug));
	ck_assert(!oclass_parse("RP_1G1", 26, -1, &oc, &why, &sug));
}
END_TEST

START_TEST(sizes_in_binary_units)
{
	arena a;
	arena_init(&a);
	ck_assert_str_eq(pools_size(&a, 8u << 20), "8MiB");
	ck_assert_str_eq(pools_size(&a, 128 * 1024), "128KiB");
	ck_assert_str_eq(pools_size(&a, 1536 * 1024), "1536KiB");
	ck_assert_str_eq(pools_size(&a, 3ULL << 40), "3TiB");
	ck_assert_str_eq(pools_size(&a, 1000), "1000B");
	arena_free(&a);
}
END_TEST

/* The node failures a pool service survives, from DAOS's placement as its
 * source states it (src/pool/srv_util.c add_replicas: a replica to each
 * node with the fewest, round by round): on nodes of e engines each, the
 * 2rf+1 replicas are r/n or r/n+1 per node, and the worst k node failures
 * take the k fullest nodes. Counted here by that closed form, not by
 * place_svc_nodes's rounds, over every shape up to 12 nodes of 1-3 engines. */
START_TEST(svc_replicas_share_nodes_past_one_per_node)
{
	int shapes = 0;
	for (int e = 1; e <= 3; e++)
		for (int n = 1; n <= 12; n++) {
			char numas[512] = "";
			for (int k = 0; k < e; k++) {
				size_t len = strlen(numas);
				snprintf(numas + len, sizeof(numas) - len, "  numa %d { nic e%d pci 0000:%02x:00.0\n nvme 0000:%02x:00.0 }\n",
					 k, k, 0x1a + k, 0x41 + k);
			}
			snprintf(text, sizeof(text),
				 "daos 2.6\ncluster t { provider \"ofi+tcp;ofi_rxm\" access_points n1 }\n"
				 "hardware h { sockets %d cores_per_socket 8 memory_per_numa 128GiB\n%s}\n"
				 "profile p : h { engine per numa { targets 4 helpers 1 scm ram 8GiB } }\n"
				 "nodes n[1-%d] : p\n",
				 e, numas, n);
			compilation c;
			unit_compile(&c, text);
			ck_assert_msg(diag_count(&c.dc, SEV_ERROR) == 0, "%d nodes of %d engines: errors", n, e);
			for (int rf = 0; 2 * rf + 1 <= n * e && rf <= 5; rf++) {
				int r = 2 * rf + 1, base = r / n, extra = r % n, want = 0, most = 0;
				for (int k = 1; k <= n; k++) {
					int lost = k <= extra ? k * (base + 1) : extra * (base + 1) + (k - extra) * base;
					if (lost <= rf)
						want = k;
				}
				int got = place_svc_nodes(&c.m, rf, &most);
				ck_assert_msg(got == want, "svc_rf %d on %d nodes of %d engines: %d node failures, want %d", rf, n, e,
					      got, want);
				ck_assert_int_eq(most, extra ? base + 1 : base);
				shapes++;
			}
			compile_free(&c);
		}
	ck_assert_int_ge(shapes, 100);
}
END_TEST

Suite *suite_pools(void)
{
	Suite *s = suite_create("pools");
	TCase *tc = tcase_create("derive");
	tcase_add_test(tc, goals_pick_the_widest_class_that_fits_with_a_spare);
	tcase_add_test(tc, three_parity_cells_only_from_2_6_3);
	tcase_add_test(tc, chunk_is_whole_stripes_and_cell_fits_large_files);
	tcase_add_test(tc, the_issue_case_ec_16p2gx_on_14_nodes);
	tcase_add_test(tc, class_names_follow_daos_registry);
	tcase_add_test(tc, sizes_in_binary_units);
	tcase_add_test(tc, svc_replicas_share_nodes_past_one_per_node);
	suite_add_tcase(s, tc);
	return s;
}
