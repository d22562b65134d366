/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* dslc plan's pieces: host lists compressed, semantic diffs of each file
 * kind, and the disruption table's longest match. */
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/value.h"
#include "compiler/plan/plan.h"
#include "compiler/plan/semdiff.h"
#include "compiler/plan/context.h"
#include "compiler/plan/pods.h"
#include "compiler/tree/disruption.h"
#include "targets/targets.h"
#include "unit.h"

START_TEST(host_lists_compress_back)
{
	arena a;
	arena_init(&a);
	const char *h1[] = {"gpu003", "gpu001", "gpu002", "gpu014", "gpu008", "gpu009", "gpu010", "gpu011", "gpu012", "gpu013",
			    "gpu004", "gpu005", "gpu006"};
	ck_assert_str_eq(hostlist_compress(&a, h1, 13), "gpu[001-006,008-014]");
	const char *h2[] = {"gpu007"};
	ck_assert_str_eq(hostlist_compress(&a, h2, 1), "gpu007");
	/* other widths, prefixes and names without digits stay apart */
	const char *h3[] = {"n10", "n9", "n8", "node-a", "gpu1", "gpu01", "gpu02"};
	ck_assert_str_eq(hostlist_compress(&a, h3, 7), "gpu1,gpu[01-02],n[8-9],n10,node-a");
	/* what it writes expands back to the same set */
	const char **back;
	int64_t *nums;
	size_t n;
	const char *why;
	ck_assert(hostlist_expand(&a, "gpu[001-006,008-014]", &back, &nums, &n, 100, &why));
	ck_assert_uint_eq(n, 13);
	arena_free(&a);
}
END_TEST

typedef struct seen {
	buf b;
} seen;

static void note(void *ctx, const char *key, const char *old, const char *new)
{
	seen *s = ctx;
	buf_printf(&s->b, "%s: %s -> %s\n", key, old ? old : "-", new ? new : "-");
}

static const char *diff_of(arena *a, semdiff_kind k, const char *x, const char *y)
{
	seen s;
	buf_init(&s.b);
	semdiff(a, k, x, strlen(x), y, strlen(y), note, &s);
	const char *out = arena_strndup(a, s.b.data ? s.b.data : "", s.b.len);
	buf_free(&s.b);
	return out;
}

START_TEST(semantic_diffs_by_kind)
{
	arena a;
	arena_init(&a);
	/* YAML: comments and key order do not count; lists of values are one value */
	ck_assert_str_eq(diff_of(&a, SD_YAML, "# a\nname: x\nengines:\n- targets: 16\n  bdev_list: [a, b]\n",
				 "name: x # b\nengines:\n- bdev_list: [a]\n  targets: 16\n"),
			 "engines[0].bdev_list: [a, b] -> [a]\n");
	ck_assert_str_eq(diff_of(&a, SD_YAML, "engines:\n- log_mask: ERR\n", "engines:\n- log_mask: ERR\n- log_mask: ERR\n"),
			 "engines[1]: - -> {log_mask: ERR}\n");
	/* JSON: labelled objects match by label, wherever they are */
	ck_assert_str_eq(diff_of(&a, SD_JSON, "{\"pools\": [{\"label\": \"a\", \"size\": \"1%\"}]}",
				 "{\"pools\": [{\"label\": \"b\", \"size\": \"2%\"}, {\"label\": \"a\", \"size\": \"3%\"}]}"),
			 "pools[a].size: 1% -> 3%\npools[b]: - -> {label: b, size: 2%}\n");
	/* systemd units: by section and key, repeated keys as a list */
	ck_assert_str_eq(diff_of(&a, SD_INI, "[Match]\nName=a\n\n[Network]\nAddress=1\nAddress=2\n",
				 "# c\n[Match]\nName=a\n[Network]\nAddress=1\nAddress=3\n"),
			 "[Network].Address: [1, 2] -> [1, 3]\n");
	/* lines; a NAME="words" line by word */
	ck_assert_str_eq(diff_of(&a, SD_LINES, "# x\nGRUB_CMDLINE_LINUX=\"a b=1 c\"\n", "GRUB_CMDLINE_LINUX=\"a c d\"\n"),
			 "GRUB_CMDLINE_LINUX: b=1 -> d\n");
	ck_assert_str_eq(diff_of(&a, SD_LINES, "one\ntwo\n", "two\none\n# comment\n"), "");
	/* a file that does not parse as its kind is compared by lines */
	ck_assert_str_eq(diff_of(&a, SD_JSON, "{broken", "{broken2"), "line: {broken -> -\nline: - -> {broken2\n");
	arena_free(&a);
}
END_TEST

/* A node's storage and role make a change worse (context.c). */
START_TEST(context_escalates)
{
	plan_node_context ram = {true, true}, md = {true, false}, client = {false, false};
	ck_assert_int_eq(plan_context_class(&ram, "kernel", "etc/default/grub.d/60-dslc.cfg", "GRUB_CMDLINE_LINUX", "a", "b", DC_REBOOT),
			 DC_SCM_LOST);
	ck_assert_int_eq(plan_context_class(&md, "kernel", "etc/default/grub.d/60-dslc.cfg", "GRUB_CMDLINE_LINUX", "a", "b", DC_REBOOT),
			 DC_REBOOT);
	const char *f = "etc/daos/daos_server.yml", *k = "engines[0].storage[0].scm_size";
	ck_assert_int_eq(plan_context_class(&md, "daos_server", f, k, "64", "96", DC_ENGINE_RESTART), DC_ENGINE_RESTART);
	ck_assert_int_eq(plan_context_class(&md, "daos_server", f, k, "64", "32", DC_ENGINE_RESTART), DC_SCM_LOST);
	ck_assert_int_eq(plan_context_class(&ram, "daos_server", f, k, "64", "96", DC_ENGINE_RESTART), DC_SCM_LOST);
	/* access points: one old replica must stay; a prefix is no match */
	const char *o = "[gpu001:10001, gpu002:10001, gpu003:10001]";
	ck_assert_int_eq(plan_context_class(&md, "daos_server", f, "access_points", o, "[gpu001:10001, gpu004:10001, gpu005:10001]",
					    DC_SYSTEM_RESTART), DC_SYSTEM_RESTART);
	ck_assert_int_eq(plan_context_class(&md, "daos_server", f, "access_points", o, "[gpu004:10001, gpu005:10001, gpu006:10001]",
					    DC_SYSTEM_RESTART), DC_REFORMAT);
	ck_assert_int_eq(plan_context_class(&md, "daos_server", f, "mgmt_svc_replicas", "[a:1]", "[ba:1]", DC_SYSTEM_RESTART),
			 DC_REFORMAT);
	/* a server's control address cannot change; a client's can */
	const char *bond = "etc/systemd/network/30-bond0.network";
	ck_assert_int_eq(plan_context_class(&md, "networkd", bond, "[Network].Address", "a", "b", DC_NETWORK_RELOAD), DC_REFORMAT);
	ck_assert_int_eq(plan_context_class(&client, "networkd", bond, "[Network].Address", "a", "b", DC_NETWORK_RELOAD),
			 DC_NETWORK_RELOAD);
}
END_TEST

/* A target of the node or cluster tables (targets/targets.h). */
static bool target_known(const char *name)
{
	for (size_t i = 0; i < target_count; i++)
		if (strcmp(target_table[i].name, name) == 0)
			return true;
	for (size_t i = 0; i < cluster_target_count; i++)
		if (strcmp(cluster_target_table[i].name, name) == 0)
			return true;
	for (size_t i = 0; pods_targets[i]; i++) /* the pod templates, compared by plan/pods.c */
		if (strcmp(pods_targets[i], name) == 0)
			return true;
	return false;
}

START_TEST(disruption_longest_match)
{
	ck_assert_str_eq(disruption_classes[disruption_of("daos_server", "engines[1].log_mask")].id, "live");
	ck_assert_str_eq(disruption_classes[disruption_of("daos_server", "engines[1].fabric_iface_port")].id, "engine-restart");
	ck_assert_str_eq(disruption_classes[disruption_of("daos_server", "provider")].id, "system-restart");
	ck_assert_str_eq(disruption_classes[disruption_of("daos_server", "engines[1].storage[1].bdev_list")].id, "reformat");
	ck_assert_str_eq(disruption_classes[disruption_of("daos_server", "engines[1].storage[1].bdev_list[0]")].id, "reformat");
	/* "engines[]" is the engine itself, not what is inside it */
	ck_assert_str_eq(disruption_classes[disruption_of("daos_server", "engines[2]")].id, "reformat");
	ck_assert_str_eq(disruption_classes[disruption_of("daos_server", "engines[0].env_vars")].id, "engine-restart");
	ck_assert_str_eq(disruption_classes[disruption_of("pools_plan", "pools[tier0].containers[training].cksum")].id,
			 "container-immutable");
	ck_assert_str_eq(disruption_classes[disruption_of("pools_plan", "pools[scratch]")].id, "pool-create");
	ck_assert_str_eq(disruption_classes[disruption_of("pools_plan", "pools[tier0].size")].id, "pool-immutable");
	ck_assert_str_eq(disruption_classes[disruption_of("kernel", "GRUB_CMDLINE_LINUX")].id, "reboot");
	ck_assert_str_eq(disruption_classes[disruption_of("networkd", "[Network].Address")].id, "network-reload");
	/* couplings: numeric indexes fold, an ini section stays */
	ck_assert_int_ge(disruption_coupling_of("daos_server", "engines[1].fabric_iface_port", 0), 0);
	ck_assert_int_ge(disruption_coupling_of("networkd", "[Network].Address", 0), 0);
	ck_assert_int_lt(disruption_coupling_of("networkd", "[Network].DNS", 0), 0);
	ck_assert_int_lt(plan_coupling_of("networkd", "etc/systemd/network/30-bond0.network", "[Network].Address", 0), 0);
	ck_assert_int_ge(plan_coupling_of("networkd", "etc/systemd/network/10-ens1f0np0.network", "[Network].Address", 0), 0);
	/* client_env_vars needs two steps: every agent's refresh, then every dfuse's restart */
	int agents = disruption_coupling_of("daos_server", "client_env_vars[1]", 0);
	ck_assert_int_ge(agents, 0);
	int mounts = disruption_coupling_of("daos_server", "client_env_vars", (size_t)agents + 1);
	ck_assert_int_gt(mounts, agents);
	ck_assert_int_eq(disruption_couplings[agents].scope, CS_AGENTS);
	ck_assert_int_eq(disruption_couplings[mounts].scope, CS_MOUNTS);
	ck_assert_int_eq(disruption_couplings[mounts].cls, DC_REMOUNT);
	ck_assert_int_lt(disruption_coupling_of("daos_server", "client_env_vars", (size_t)mounts + 1), 0);
	/* every rule names a target some table knows, and has a source */
	for (size_t i = 0; i < disruption_rule_count; i++) {
		ck_assert_msg(disruption_rules[i].source[0], "%s %s has no source", disruption_rules[i].target, disruption_rules[i].key);
		ck_assert_msg(target_known(disruption_rules[i].target), "disruption rule %s %s names no target of targets/",
			      disruption_rules[i].target, disruption_rules[i].key);
	}
	ck_assert(!target_known("daos_serverx")); /* the check itself can fail */
}
END_TEST

Suite *suite_plan(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, host_lists_compress_back);
	tcase_add_test(tc, semantic_diffs_by_kind);
	tcase_add_test(tc, disruption_longest_match);
	tcase_add_test(tc, context_escalates);
	suite_add_tcase(s, tc);
	return s;
}
