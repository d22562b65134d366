/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "compiler/model/topology.h"
#include "compiler/place/place.h"
#include "unit.h"

START_TEST(linear_numbering_puts_siblings_at_plus_cores)
{
	arena a;
	arena_init(&a);
	topology *t = topo_regular(&a, 2, 96, 2, 1, TOPO_LINEAR);
	ck_assert_int_eq(t->ncores, 192);
	ck_assert_int_eq(t->nnuma, 2);
	ck_assert_int_eq(t->numa[1].first_core, 96);
	int cpus[2 * 96];
	int n = place_cpus(t, 96, 96, cpus);
	ck_assert_str_eq(topo_cpulist(&a, cpus, n), "96-191,288-383");
	n = place_cpus(t, 0, 4, cpus);
	ck_assert_str_eq(topo_cpulist(&a, cpus, n), "0-3,192-195");
	arena_free(&a);
}
END_TEST

START_TEST(interleaved_numbering_alternates_sockets)
{
	arena a;
	arena_init(&a);
	/* like hwloc's 24em64t-2n6c2t: NUMA 0 holds the even CPUs */
	topology *t = topo_regular(&a, 2, 6, 2, 1, TOPO_INTERLEAVED);
	int cpus[24];
	int n = place_cpus(t, 0, 6, cpus);
	ck_assert_str_eq(topo_cpulist(&a, cpus, n), "0,2,4,6,8,10,12,14,16,18,20,22");
	n = place_cpus(t, 6, 1, cpus);
	/* logical core 6 (first of socket 1) is Linux CPU 1, not 6 */
	ck_assert_int_eq(cpus[0], 1);
	ck_assert_int_eq(cpus[1], 13);
	arena_free(&a);
}
END_TEST

START_TEST(nps4_splits_sockets)
{
	arena a;
	arena_init(&a);
	topology *t = topo_regular(&a, 2, 96, 2, 4, TOPO_LINEAR);
	ck_assert_int_eq(t->nnuma, 8);
	ck_assert_int_eq(t->numa[5].first_core, 120);
	ck_assert_int_eq(t->numa[5].ncores, 24);
	ck_assert_int_eq(t->cores[120].socket, 1);
	arena_free(&a);
}
END_TEST

Suite *suite_topology(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("regular");
	tcase_add_test(tc, linear_numbering_puts_siblings_at_plus_cores);
	tcase_add_test(tc, interleaved_numbering_alternates_sockets);
	tcase_add_test(tc, nps4_splits_sockets);
	suite_add_tcase(s, tc);
	return s;
}
