/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* test_safety.c - the output contexts of compiler/base/safe.c, checked arithmetic
 * and bounded diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "unit.h"

START_TEST(names_are_file_name_components)
{
	ck_assert_ptr_null(safe_name("ens1f0np0"));
	ck_assert_ptr_null(safe_name("ib0.8001"));
	ck_assert_ptr_null(safe_name("System.Embedded.1"));
	ck_assert_ptr_nonnull(safe_name(""));
	ck_assert_ptr_nonnull(safe_name("."));
	ck_assert_ptr_nonnull(safe_name(".."));
	ck_assert_ptr_nonnull(safe_name(".hidden"));
	ck_assert_ptr_nonnull(safe_name("-rf"));
	ck_assert_ptr_nonnull(safe_name("eth0/../../x"));
	ck_assert_ptr_nonnull(safe_name("eth0\n[Network]"));
	ck_assert_ptr_nonnull(safe_name("1;touch x"));
	ck_assert_ptr_nonnull(safe_name("a b"));
	char longest[SAFE_NAME_MAX + 2];
	memset(longest, 'a', sizeof(longest));
	longest[SAFE_NAME_MAX] = '\0';
	ck_assert_ptr_null(safe_name(longest));
	longest[SAFE_NAME_MAX] = 'a';
	longest[SAFE_NAME_MAX + 1] = '\0';
	ck_assert_ptr_nonnull(safe_name(longest));
}
END_TEST

START_TEST(relative_paths_stay_inside)
{
	ck_assert(safe_rel_path("nodes/gpu001/etc/systemd/network/10-ens1.network"));
	ck_assert(safe_rel_path("manifest.json"));
	ck_assert(!safe_rel_path("nodes/../../x"));
	ck_assert(!safe_rel_path("/etc/passwd"));
	ck_assert(!safe_rel_path("nodes//x"));
	ck_assert(!safe_rel_path("nodes/x/"));
	ck_assert(!safe_rel_path(""));
	ck_assert(!safe_rel_path("nodes/.ssh/x"));
}
END_TEST

START_TEST(utf8_is_checked_strictly)
{
	ck_assert(safe_utf8("caf\xc3\xa9", 5));
	ck_assert(safe_utf8("\xf0\x9f\x98\x80", 4));  /* U+1F600 */
	ck_assert(!safe_utf8("\xff", 1));
	ck_assert(!safe_utf8("\xc0\xaf", 2));         /* overlong '/' */
	ck_assert(!safe_utf8("\xe0\x80\xaf", 3));     /* overlong */
	ck_assert(!safe_utf8("\xed\xa0\x80", 3));     /* a surrogate */
	ck_assert(!safe_utf8("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
	ck_assert(!safe_utf8("\xc3", 1));             /* cut short */
	ck_assert_ptr_null(safe_line("ofi+verbs;ofi_rxm"));
	ck_assert_ptr_nonnull(safe_line("a\nb"));
	ck_assert_ptr_nonnull(safe_line("a\rb"));
	ck_assert_ptr_nonnull(safe_line("\x1b[2J"));
}
END_TEST

START_TEST(kernel_words_are_verbatim)
{
	char bad = 0;
	ck_assert_ptr_null(safe_kernel_word("hugepagesz=1G", &bad));
	ck_assert_ptr_null(safe_kernel_word("memmap=4G!12G", &bad));
	const char *refused[] = {"$(reboot)", "a;b", "a'b", "a\"b", "a b", "a`b`", "a\\b", "a|b", "{x}", "a\nb"};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		ck_assert_msg(safe_kernel_word(refused[i], &bad) != NULL, "%s was accepted", refused[i]);
	safe_kernel_word("a\nb", &bad);
	ck_assert_int_eq(bad, '?'); /* messages never carry the raw byte */
}
END_TEST

/* Every byte survives single quoting: sh reads back exactly the input. */
START_TEST(shell_words_round_trip)
{
	const char *words[] = {"plain", "it's", "''", "$(touch PWNED)", "`id`", "a\nb", "\\", "!x", "%s", ""};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		buf cmd;
		buf_init(&cmd);
		buf_puts(&cmd, "printf %s ");
		safe_sh_word(&cmd, words[i]);
		FILE *p = popen(cmd.data, "r");
		ck_assert_ptr_nonnull(p);
		char got[256] = "";
		size_t n = fread(got, 1, sizeof(got) - 1, p);
		got[n] = '\0';
		ck_assert_int_eq(pclose(p), 0);
		ck_assert_str_eq(got, words[i]);
		buf_free(&cmd);
	}
}
END_TEST

START_TEST(cli_arguments_are_never_options)
{
	ck_assert_ptr_null(safe_cli_arg("tier0"));
	ck_assert_ptr_null(safe_cli_arg("a-b:c.d_e"));
	ck_assert_ptr_null(safe_cli_arg("0-leading-digit"));
	ck_assert_ptr_nonnull(safe_cli_arg("-x"));
	ck_assert_ptr_nonnull(safe_cli_arg("--help"));
	ck_assert_ptr_nonnull(safe_cli_arg(""));
	ck_assert_ptr_nonnull(safe_cli_arg("a\nb"));
}
END_TEST

/* The grammars of k8s.io/apimachinery validation and k8s.io/utils/cpuset. */
START_TEST(kubernetes_grammars)
{
	arena a;
	arena_init(&a);
	ck_assert_ptr_null(safe_k8s_subdomain("gpu001"));
	ck_assert_ptr_null(safe_k8s_subdomain("gpu-1.rack2.example"));
	ck_assert_ptr_nonnull(safe_k8s_subdomain("GPU001"));
	ck_assert_ptr_nonnull(safe_k8s_subdomain("gpu_001"));
	ck_assert_ptr_nonnull(safe_k8s_subdomain("-gpu"));
	ck_assert_ptr_nonnull(safe_k8s_subdomain("gpu..a"));
	ck_assert_ptr_nonnull(safe_k8s_subdomain(""));
	ck_assert_ptr_null(safe_k8s_label_value("tier0"));
	ck_assert_ptr_null(safe_k8s_label_value("Tier_0.a-b"));
	ck_assert_ptr_null(safe_k8s_label_value(""));
	ck_assert_ptr_nonnull(safe_k8s_label_value("tier0_"));
	ck_assert_ptr_nonnull(safe_k8s_label_value("a b"));
	ck_assert_ptr_null(safe_cpulist(&a, "0-3,96-99", 192));
	ck_assert_ptr_null(safe_cpulist(&a, "5", 0));
	ck_assert_ptr_null(safe_cpulist(&a, "", 8));
	ck_assert_ptr_nonnull(safe_cpulist(&a, "0-3,foo", 0));
	ck_assert_ptr_nonnull(safe_cpulist(&a, "7-3", 0));
	ck_assert_ptr_nonnull(safe_cpulist(&a, "0-3,", 0));
	ck_assert_ptr_nonnull(safe_cpulist(&a, "-1", 0));
	ck_assert_ptr_nonnull(safe_cpulist(&a, "0 - 3", 0));
	ck_assert_str_eq(safe_cpulist(&a, "0-8", 8), "CPU 8 is not on this node type (CPUs 0-7)");
	arena_free(&a);
}
END_TEST

START_TEST(echo_is_bounded_and_printable)
{
	arena a;
	arena_init(&a);
	char big[1000];
	memset(big, 'x', sizeof(big));
	big[999] = '\0';
	const char *e = safe_echo(&a, big);
	ck_assert_uint_eq(strlen(e), SAFE_ECHO_MAX + 3);
	ck_assert_str_eq(e + SAFE_ECHO_MAX, "...");
	ck_assert_str_eq(safe_echo(&a, "a\nb\x1b"), "a?b?");
	/* a cut never splits a UTF-8 sequence */
	char u[200] = "";
	for (int i = 0; i < 60; i++)
		strcat(u, "\xc3\xa9");
	ck_assert(safe_utf8(safe_echo(&a, u), strlen(safe_echo(&a, u)) - 3));
	arena_free(&a);
}
END_TEST

START_TEST(arithmetic_overflow_is_an_error)
{
	arena a;
	arena_init(&a);
	const char *out, *why = NULL;
	ck_assert(!template_eval(&a, "{(0-536870912)*536870912*32/(0-1)}", 0, 0, &out, &why));
	ck_assert_str_eq(why, "the address expression overflows a 64-bit integer");
	ck_assert(!template_eval(&a, "{999999999*999999999*999999999}", 0, 0, &out, &why));
	ck_assert(!template_eval(&a, "{0-999999999*999999999*999999999}", 0, 0, &out, &why));
	ck_assert(template_eval(&a, "{(0-536870912)*536870912*32}", 0, 0, &out, &why));
	ck_assert_str_eq(out, "-9223372036854775808");
	uint64_t bytes;
	ck_assert(val_size("1048576TiB", &bytes, &why));
	ck_assert(!val_size("1048577TiB", &bytes, &why));
	ck_assert(!val_size("17179869176GiB", &bytes, &why));
	arena_free(&a);
}
END_TEST

START_TEST(findings_are_bounded)
{
	arena a;
	arena_init(&a);
	src_set src;
	src_set_init(&src, &a);
	diag_ctx dc;
	diag_init(&dc, &a, &src);
	char big[5000];
	memset(big, 'n', sizeof(big));
	big[4999] = '\0';
	diag *d = diag_report(&dc, R_BAD_VALUE, SRC_LOC_NONE, "'%s' \x1b[31m", big);
	ck_assert_uint_le(strlen(d->msg), DIAG_MAX_TEXT + 3);
	ck_assert_ptr_null(strchr(d->msg, '\x1b'));
	for (int i = 0; i < DIAG_MAX_FINDINGS + 50; i++)
		diag_report(&dc, R_BAD_VALUE, (src_loc){0, (uint32_t)i, (uint32_t)i}, "finding %d", i);
	ck_assert_uint_eq(dc.n, DIAG_MAX_FINDINGS + 1);
	ck_assert_str_eq(dc.items[DIAG_MAX_FINDINGS]->rule->id, "input-limit");
	ck_assert_int_eq(dc.items[DIAG_MAX_FINDINGS]->severity, SEV_ERROR); /* it stands for dropped errors */
	arena_free(&a);
}
END_TEST

/* The gate sees what suppressions and --disable leave: neither silences it. */
START_TEST(the_gate_cannot_be_silenced)
{
	const char *src = "daos 2.6\n"
			  "cluster c { provider \"ofi+tcp;ofi_rxm\"  access_points n1 }\n"
			  "hardware h { sockets 1  cores_per_socket 8  threads_per_core 1  memory_per_numa 64GiB\n"
			  "  numa 0 { nic \"e/../../x\" pci 0000:1a:00.0 role storage  nvme 0000:21:00.0 } }\n"
			  "profile p : h { os debian12  reserve os 1 cores per numa\n"
			  "  engine per numa { targets 4 helpers 0 scm ram 8GiB }\n"
			  "  # dslc: allow unsafe-value -- no\n"
			  "  kernel { param \"a;reboot\" } }\n"
			  "nodes n1 : p\n";
	compilation c;
	unit_compile(&c, src);
	ck_assert(unit_has(&c, "unsafe-value"));
	ck_assert_str_eq(unit_msg(&c, "unsafe-value"),
			 "interface name 'e/../../x' cannot be written: a name has only letters, digits, '.', '_' and '-'");
	ck_assert(rule_silenceable(rule_find("kernel-param-syntax")));
	ck_assert(!rule_silenceable(rule_find("unsafe-value")));
	compile_free(&c);
	bool off[R__COUNT] = {false};
	off[R_KERNEL_PARAM_SYNTAX] = true;
	char path[] = "/tmp/dslc-gate-XXXXXX.dsl";
	int fd = mkstemps(path, 4);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(src, f);
	fclose(f);
	ck_assert(compile_file_with(&c, path, off));
	ck_assert(!unit_has(&c, "kernel-param-syntax"));
	size_t kernel = 0;
	for (size_t i = 0; i < c.dc.n; i++)
		kernel += strstr(c.dc.items[i]->msg, "kernel parameter 'a;reboot'") != NULL;
	ck_assert_uint_eq(kernel, 1);
	compile_free(&c);
	remove(path);
}
END_TEST

Suite *suite_safety(void)
{
	Suite *s = suite_create("safety");
	TCase *tc = tcase_create("contexts");
	tcase_add_test(tc, names_are_file_name_components);
	tcase_add_test(tc, relative_paths_stay_inside);
	tcase_add_test(tc, utf8_is_checked_strictly);
	tcase_add_test(tc, kernel_words_are_verbatim);
	tcase_add_test(tc, shell_words_round_trip);
	tcase_add_test(tc, cli_arguments_are_never_options);
	tcase_add_test(tc, echo_is_bounded_and_printable);
	tcase_add_test(tc, arithmetic_overflow_is_an_error);
	tcase_add_test(tc, findings_are_bounded);
	tcase_add_test(tc, the_gate_cannot_be_silenced);
	tcase_add_test(tc, kubernetes_grammars);
	suite_add_tcase(s, tc);
	return s;
}
