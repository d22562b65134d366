/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <stdio.h>
#include <string.h>

#include "compiler/base/value.h"
#include "compiler/place/place.h"
#include "targets/targets.h"
#include "unit.h"

/* A two-socket EPYC-like node; %s slots: release, profile lines, engine lines. */
static const char *const base =
	"daos %s\n"
	"cluster t { provider \"ofi+tcp;ofi_rxm\" access_points n[1-3] }\n"
	"hardware h {\n"
	"  sockets 2 cores_per_socket 96 threads_per_core 2 memory_per_numa 768GiB\n"
	"  numa 0 { nic e0 pci 0000:1a:00.0\n nvme 0000:21:00.0 0000:22:00.0 }\n"
	"  numa 1 { nic e1 pci 0000:9a:00.0\n nvme 0000:a1:00.0 0000:a2:00.0 }\n"
	"}\n"
	"profile p : h {\n"
	"  %s\n"
	"  engine per numa { targets 16 helpers 2 scm ram 64GiB nvme roles [wal meta data] }\n"
	"  %s\n"
	"}\n"
	"nodes n[1-3] : p\n";

static char text[4096];

static const char *src(const char *release, const char *profile, const char *engine)
{
	snprintf(text, sizeof(text), base, release, profile, engine);
	return text;
}

static bool render(spec_target_fn fn, compilation *c, buf *b)
{
	target_file tf = {b, NULL, 0644, 0};
	return fn(&c->m, c->m.nodes[0].spec, &tf) == TARGET_OK;
}

/* The base description with the OS reservation and the profile's engine
 * line edited: `from` (which must be there) replaced by `to`, as long. */
static void compile_edited(compilation *c, const char *from, const char *to)
{
	char edited[4096];
	snprintf(edited, sizeof(edited), "%s", src("2.6", "reserve os 4 cores per numa", ""));
	char *at = strstr(edited, from);
	ck_assert_ptr_nonnull(at);
	ck_assert_uint_eq(strlen(from), strlen(to));
	memcpy(at, to, strlen(to));
	unit_compile(c, edited);
}

static const node_plan *plan_of(compilation *c)
{
	ck_assert_uint_ge(c->m.nspecs, 1);
	return c->m.specs[0]->plan;
}

START_TEST(reference_node_uses_absolute_first_core)
{
	compilation c;
	unit_compile(&c, src("2.6", "reserve os 4 cores per numa", ""));
	ck_assert_uint_eq(unit_findings(&c), 0);
	/* the reference layout's OS cores at the start: DAOS pins no engine */
	ck_assert(unit_has(&c, "numa-pin-dropped"));
	const node_plan *p = plan_of(&c);
	ck_assert(p->ok);
	ck_assert(!p->pinned_mode);
	ck_assert_int_eq(p->nengines, 2);
	ck_assert_int_eq(p->engines[0].first_core, 4);
	ck_assert_int_eq(p->engines[1].first_core, 100);
	ck_assert_int_eq(p->engines[1].needed, 20);
	int cpus[64];
	int n = place_cpus(p->topo, p->engines[1].first_core, p->engines[1].needed, cpus);
	ck_assert_str_eq(topo_cpulist(&c.ar, cpus, n), "100-119,292-311");
	/* DAOS's minimum: 1 GiB per target + 1 per engine with a meta role */
	ck_assert_int_eq(p->nr_hugepages, 34 * 512);
	compile_free(&c);
}
END_TEST

/* DAOS's minimum for 1-target engines counts one more target each
 * (CalcMinHugepages, 2.6.2+): 2 engines x 2 GiB, 2048 pages, never 1024. */
START_TEST(one_target_engines_get_daos_minimum_hugepages)
{
	compilation c;
	compile_edited(&c, "targets 16 helpers 2 scm ram 64GiB nvme roles [wal meta data]",
		       "targets 1  helpers 0 scm ram 64GiB                           ");
	const node_plan *p = plan_of(&c);
	ck_assert(p->ok);
	ck_assert_int_eq(p->engines[0].targets, 1);
	ck_assert_int_eq(p->nr_hugepages, 2048);
	compile_free(&c);
}
END_TEST

/* helpers defaults to targets / 4, as `dmg config generate` does, and the
 * engine's cores to 2 + targets + helpers (SPEC.md, placement step 2). */
START_TEST(helpers_default_to_a_quarter_of_the_targets)
{
	compilation c;
	compile_edited(&c, "helpers 2 ", "          "); /* the engine block without helpers */
	const node_plan *p = plan_of(&c);
	ck_assert(p->ok);
	ck_assert_int_eq(p->engines[0].helpers, 4);
	ck_assert_int_eq(p->engines[0].needed, 22);
	ck_assert_int_eq(p->engines[0].ncores, 22);
	compile_free(&c);
}
END_TEST

/* 1 GiB pages come from hugepages=N at boot, which the kernel spreads over
 * the NUMA nodes: 34 pages on two nodes are 17 on each, not 34 on node 0. */
START_TEST(boot_time_hugepages_spread_over_numa_nodes)
{
	compilation c;
	char text1g[4096];
	snprintf(text1g, sizeof(text1g), "%s", src("2.6", "reserve os 4 cores per numa", ""));
	char *mem = strstr(text1g, "memory_per_numa 768GiB");
	ck_assert_ptr_nonnull(mem);
	memmove(mem + 42, mem + 22, strlen(mem + 22) + 1);
	memcpy(mem + 22, " hugepage_size 1GiB  ", 20);
	unit_compile(&c, text1g);
	const node_plan *p = plan_of(&c);
	ck_assert(p->ok);
	ck_assert_uint_eq(p->hugepage_size, GiB);
	ck_assert_int_eq(p->nr_hugepages, 34);
	ck_assert_uint_eq(place_hugepages_on(p, 0), 17 * GiB);
	ck_assert_uint_eq(place_hugepages_on(p, 1), 17 * GiB);
	compile_free(&c);
}
END_TEST

START_TEST(os_cores_at_the_end_allow_numa_pinning)
{
	compilation c;
	unit_compile(&c, src("2.6", "reserve os 4 cores per numa at end", ""));
	ck_assert_uint_eq(unit_findings(&c), 0);
	const node_plan *p = plan_of(&c);
	ck_assert(p->pinned_mode);
	ck_assert_int_eq(p->engines[1].first_core, 96);
	ck_assert_int_eq(p->os_first[1], 188);
	buf b;
	buf_init(&b);
	ck_assert(render(target_daos_server, &c, &b));
	ck_assert_ptr_nonnull(strstr(b.data, "pinned_numa_node: 1\n"));
	ck_assert_ptr_null(strstr(b.data, "first_core"));
	buf_free(&b);
	compile_free(&c);
}
END_TEST

START_TEST(numa_relative_first_core_is_refused_with_the_absolute_value)
{
	compilation c;
	unit_compile(&c, src("2.6", "reserve os 4 cores per numa", "engine numa 1 { first_core 4 }"));
	ck_assert(unit_has(&c, "first-core-outside-numa"));
	ck_assert_str_eq(unit_msg(&c, "first-core-outside-numa"), "first_core 4 is outside NUMA node 1 (cores 96-191)");
	/* the absolute core dslc chooses by itself, so the fix is no first_core */
	ck_assert_ptr_nonnull(strstr(unit_help(&c, "first-core-outside-numa"), "drop `first_core 4`: dslc then starts the engine "
				     "at core 100 by itself (core 4 of NUMA node 1"));
	ck_assert_uint_eq(unit_findings(&c), 1);
	compile_free(&c);
}
END_TEST

START_TEST(first_core_with_pin)
{
	compilation c;
	unit_compile(&c, src("2.6", "reserve os 4 cores per numa", "engine numa 1 { first_core 100 pinned_numa_node 1 }"));
	ck_assert(unit_has(&c, "first-core-with-pin"));
	compile_free(&c);
}
END_TEST

START_TEST(first_core_past_the_numa_node_wraps)
{
	compilation c;
	unit_compile(&c, src("2.6", "", "engine numa 1 { first_core 180 }"));
	ck_assert(unit_has(&c, "engine-cores-wrap"));
	ck_assert_ptr_nonnull(strstr(unit_help(&c, "engine-cores-wrap"), "first_core 172"));
	compile_free(&c);
	unit_compile(&c, src("2.6", "", "engine numa 1 { first_core 190 }"));
	ck_assert_str_eq(unit_msg(&c, "engine-cores-wrap"), "cores 190-209 run past the last core (191) and wrap to core 0");
	compile_free(&c);
}
END_TEST

START_TEST(first_core_on_os_cores_overlaps)
{
	compilation c;
	unit_compile(&c, src("2.6", "reserve os 4 cores per numa", "engine numa 1 { first_core 98 }"));
	ck_assert(unit_has(&c, "engine-cores-overlap"));
	ck_assert_str_eq(unit_msg(&c, "engine-cores-overlap"), "engine cores 98-117 overlap the OS cores 96-99 of NUMA node 1");
	compile_free(&c);
}
END_TEST

START_TEST(core_budget_and_context_cap)
{
	compilation c;
	unit_compile(&c, src("2.6", "reserve os 4 cores per numa", "engine per numa { targets 90 helpers 2 }"));
	ck_assert(unit_has(&c, "engine-core-budget"));
	compile_free(&c);
	unit_compile(&c, src("2.6", "", "engine per numa { targets 62 helpers 2 }"));
	ck_assert(unit_has(&c, "engine-context-cap"));
	ck_assert(!unit_has(&c, "engine-core-budget"));
	compile_free(&c);
	unit_compile(&c, src("2.8", "", "engine per numa { targets 62 helpers 2 }"));
	ck_assert(!unit_has(&c, "engine-context-cap")); /* 128 from 2.8 */
	compile_free(&c);
	unit_compile(&c, src("2.6", "", "engine per numa { cores 18 }"));
	ck_assert_str_eq(unit_msg(&c, "engine-core-budget"),
			 "cores 18 is less than the 2 + 16 targets + 2 helpers = 20 cores the engine uses");
	compile_free(&c);
}
END_TEST

START_TEST(scm_must_be_pinned_and_large_enough)
{
	compilation c;
	unit_compile(&c, src("2.6", "", "engine per numa { scm ram }"));
	ck_assert(unit_has(&c, "scm-size-unpinned"));
	ck_assert_ptr_nonnull(strstr(unit_help(&c, "scm-size-unpinned"), "`scm ram 64GiB`"));
	compile_free(&c);
	unit_compile(&c, src("2.6", "", "engine per numa { scm ram 2GiB }"));
	ck_assert(unit_has(&c, "scm-size-small"));
	compile_free(&c);
	unit_compile(&c, src("2.6", "", "engine per numa { scm ram 760GiB }"));
	ck_assert(unit_has(&c, "memory-overcommit"));
	compile_free(&c);
}
END_TEST

START_TEST(release_picks_key_names)
{
	compilation c;
	unit_compile(&c, src("2.8", "", ""));
	ck_assert_uint_eq(unit_findings(&c), 0);
	buf b;
	buf_init(&b);
	ck_assert(render(target_daos_server, &c, &b));
	ck_assert_ptr_nonnull(strstr(b.data, "\nmgmt_svc_replicas:\n"));
	ck_assert_ptr_null(strstr(b.data, "access_points"));
	ck_assert_ptr_nonnull(strstr(b.data, "system_ram_reserved: 64\n"));
	buf_reset(&b);
	ck_assert(render(target_daos_agent, &c, &b));
	ck_assert_ptr_nonnull(strstr(b.data, "\naccess_points:\n")); /* the agent keeps the old name */
	buf_free(&b);
	compile_free(&c);
}
END_TEST

START_TEST(interleaved_numbering_keeps_logical_first_core)
{
	compilation c;
	unit_compile(&c,
		"daos 2.6\n"
		"cluster t { provider \"ofi+tcp;ofi_rxm\" access_points w1 }\n"
		"hardware westmere { sockets 2 cores_per_socket 6 threads_per_core 2 cpu_numbering interleaved\n"
		"  memory_per_numa 24GiB\n"
		"  numa 0 { nic eth0 pci 0000:01:00.0 }\n numa 1 { nic eth1 pci 0000:81:00.0 } }\n"
		"profile p : westmere { reserve os 1 cores per numa\n"
		"  engine per numa { targets 2 helpers 0 scm ram 4GiB } }\n"
		"nodes w1 : p\n");
	ck_assert_uint_eq(unit_findings(&c), 0);
	const node_plan *p = plan_of(&c);
	/* DAOS counts hwloc logical cores: the NUMA 1 engine starts at 7 */
	ck_assert_int_eq(p->engines[1].first_core, 7);
	int cpus[16];
	int n = place_cpus(p->topo, p->engines[1].first_core, p->engines[1].needed, cpus);
	/* while Linux numbers its CPUs 3, 5, 7, 9 (+12 for the siblings) */
	ck_assert_str_eq(topo_cpulist(&c.ar, cpus, n), "3,5,7,9,15,17,19,21");
	compile_free(&c);
}
END_TEST

START_TEST(one_typo_one_error)
{
	compilation c;
	unit_compile(&c, src("2.6", "", "engine per numa { targest 16 }"));
	ck_assert_uint_eq(unit_findings(&c), 1);
	ck_assert_str_eq(unit_msg(&c, "unknown-keyword"), "unknown keyword 'targest' in engine");
	ck_assert_str_eq(unit_help(&c, "unknown-keyword"), "did you mean 'targets'?");
	compile_free(&c);
}
END_TEST

START_TEST(access_points_odd_and_known)
{
	compilation c;
	unit_compile(&c, "daos 2.6\ncluster t { provider \"ofi+tcp\" access_points n1, n2, n9 }\n"
			 "hardware h { sockets 1 cores_per_socket 8 }\n"
			 "profile p : h { engine per numa { targets 2 scm ram 4GiB } }\nnodes n[1-4] : p\n");
	ck_assert(unit_has(&c, "access-points-unknown"));
	ck_assert_str_eq(unit_msg(&c, "access-points-unknown"), "access point n9 is not a node of the cluster");
	ck_assert(!unit_has(&c, "access-points-count"));
	compile_free(&c);
	unit_compile(&c, "daos 2.6\ncluster t { provider \"ofi+tcp\" access_points n[1-4] }\n"
			 "hardware h { sockets 1 cores_per_socket 8 }\n"
			 "profile p : h { engine per numa { targets 2 scm ram 4GiB } }\nnodes n[1-4] : p\n");
	ck_assert(unit_has(&c, "access-points-count"));
	compile_free(&c);
}
END_TEST

Suite *suite_place(void)
{
	Suite *s = suite_create("place");
	TCase *tc = tcase_create("place");
	tcase_add_test(tc, reference_node_uses_absolute_first_core);
	tcase_add_test(tc, helpers_default_to_a_quarter_of_the_targets);
	tcase_add_test(tc, os_cores_at_the_end_allow_numa_pinning);
	tcase_add_test(tc, numa_relative_first_core_is_refused_with_the_absolute_value);
	tcase_add_test(tc, first_core_with_pin);
	tcase_add_test(tc, first_core_past_the_numa_node_wraps);
	tcase_add_test(tc, first_core_on_os_cores_overlaps);
	tcase_add_test(tc, core_budget_and_context_cap);
	tcase_add_test(tc, scm_must_be_pinned_and_large_enough);
	tcase_add_test(tc, release_picks_key_names);
	tcase_add_test(tc, interleaved_numbering_keeps_logical_first_core);
	tcase_add_test(tc, one_typo_one_error);
	tcase_add_test(tc, access_points_odd_and_known);
	tcase_add_test(tc, one_target_engines_get_daos_minimum_hugepages);
	tcase_add_test(tc, boot_time_hugepages_spread_over_numa_nodes);
	suite_add_tcase(s, tc);
	return s;
}
