/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

#include "compiler/base/value.h"
#include "unit.h"

START_TEST(sizes_take_binary_units_only)
{
	uint64_t b;
	const char *why;
	ck_assert(val_size("64GiB", &b, &why));
	ck_assert_uint_eq(b, 64ULL << 30);
	ck_assert(val_size("128KiB", &b, &why));
	ck_assert_uint_eq(b, 128ULL << 10);
	ck_assert(val_size("4096B", &b, &why));
	ck_assert_uint_eq(b, 4096);
	ck_assert(!val_size("64G", &b, &why));
	ck_assert_ptr_nonnull(strstr(why, "64000"));
	ck_assert(!val_size("64GB", &b, &why));
	ck_assert(!val_size("64", &b, &why));
	ck_assert_ptr_nonnull(strstr(why, "needs a unit"));
	ck_assert(!val_size("99999999999999TiB", &b, &why));
	ck_assert(!val_size("GiB", &b, &why));
}
END_TEST

START_TEST(durations_are_milliseconds)
{
	uint64_t ms;
	const char *why;
	ck_assert(val_duration("600s", &ms, &why));
	ck_assert_uint_eq(ms, 600000);
	ck_assert(val_duration("100ms", &ms, &why));
	ck_assert_uint_eq(ms, 100);
	ck_assert(val_duration("2min", &ms, &why));
	ck_assert_uint_eq(ms, 120000);
	ck_assert(!val_duration("600", &ms, &why));
	ck_assert(!val_duration("5m", &ms, &why));
}
END_TEST

START_TEST(hostlists_expand_with_padding)
{
	arena a;
	arena_init(&a);
	const char **h, *why;
	int64_t *n;
	size_t count;
	ck_assert(hostlist_expand(&a, "gpu[001-014]", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert_uint_eq(count, 14);
	ck_assert_str_eq(h[0], "gpu001");
	ck_assert_str_eq(h[13], "gpu014");
	ck_assert_int_eq(n[13], 14);
	ck_assert(hostlist_expand(&a, "gpu[001-003,007]", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert_uint_eq(count, 4);
	ck_assert_str_eq(h[3], "gpu007");
	ck_assert(hostlist_expand(&a, "r[1-2]n[01-02]", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert_uint_eq(count, 4);
	ck_assert_str_eq(h[0], "r1n01");
	ck_assert_str_eq(h[3], "r2n02");
	ck_assert(hostlist_expand(&a, "login1", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert_int_eq(n[0], 1);
	ck_assert(!hostlist_expand(&a, "gpu[014-001]", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert(!hostlist_expand(&a, "gpu[001-", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert(!hostlist_expand(&a, "n[0-99999]", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert(!hostlist_expand(&a, "../etc", &h, &n, &count, HOSTLIST_MAX, &why));
	ck_assert(!hostlist_expand(&a, "a/b", &h, &n, &count, HOSTLIST_MAX, &why));
	arena_free(&a);
}
END_TEST

START_TEST(templates_evaluate_per_node)
{
	arena a;
	arena_init(&a);
	const char *out, *why;
	ck_assert(template_eval(&a, "10.20.0.{10+i}/24", 3, 4, &out, &why));
	ck_assert_str_eq(out, "10.20.0.13/24");
	ck_assert(template_eval(&a, "10.{i/200}.0.{10+i%200}", 417, 0, &out, &why));
	ck_assert_str_eq(out, "10.2.0.27");
	ck_assert(!template_eval(&a, "10.0.0.{n/0}", 0, 0, &out, &why));
	ck_assert_str_eq(why, "division by zero in the address expression");
	ck_assert(template_eval(&a, "10.{(n-1)*2+1}.0.1", 0, 7, &out, &why));
	ck_assert_str_eq(out, "10.13.0.1");
	ck_assert(!template_eval(&a, "10.{x}.0.1", 0, 0, &out, &why));
	arena_free(&a);
}
END_TEST

START_TEST(pci_and_ipv4)
{
	char pci[16];
	const char *why;
	uint32_t addr;
	int pl;
	ck_assert(val_pci("0000:A1:00.0", pci, &why));
	ck_assert_str_eq(pci, "0000:a1:00.0");
	ck_assert(val_pci("5d0505:01:00.0", pci, &why));
	ck_assert(!val_pci("0000:a1:20.0", pci, &why)); /* device > 0x1f */
	ck_assert(!val_pci("a1:00.0", pci, &why));
	ck_assert(val_ipv4("10.20.0.10/24", true, &addr, &pl, &why));
	ck_assert_int_eq(pl, 24);
	ck_assert_uint_eq(addr, 0x0a14000a);
	ck_assert(!val_ipv4("10.20.0.256/24", true, &addr, &pl, &why));
	ck_assert(!val_ipv4("10.20.0.1/24", false, &addr, &pl, &why));
	ck_assert(!val_ipv4("10.20.0", false, &addr, &pl, &why));
}
END_TEST

Suite *suite_value(void)
{
	Suite *s = suite_create("value");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, sizes_take_binary_units_only);
	tcase_add_test(tc, durations_are_milliseconds);
	tcase_add_test(tc, hostlists_expand_with_padding);
	tcase_add_test(tc, templates_evaluate_per_node);
	tcase_add_test(tc, pci_and_ipv4);
	suite_add_tcase(s, tc);
	return s;
}
