/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* reference.c - see reference.h. */
#include "reference.h"

#include <jansson.h>

#include "compiler/lint/lint_config.h"
#include "targets/targets.h"

const kw_section kw_sections[] = {
	{&kw_top, "Top level"},
	{&kw_cluster, "`cluster` block"},
	{&kw_fabric, "`fabric` block (in `cluster`)"},
	{&kw_lossless, "`lossless` block (in `fabric`)"},
	{&kw_hardware, "`hardware` block"},
	{&kw_numa, "`numa` block (in `hardware`)"},
	{&kw_profile, "`profile` block (also in `nodes` and `node` blocks)"},
	{&kw_engine, "`engine` block (in `profile`, `nodes` and `node` blocks)"},
	{&kw_kernel, "`kernel` block (in `profile`, `nodes` and `node` blocks)"},
	{&kw_kubelet, "`kubelet` block (in `profile`, `nodes` and `node` blocks)"},
	{&kw_network, "`network` block (in `profile`, `nodes` and `node` blocks)"},
	{&kw_link, "`link` block (in `network`)"},
	{&kw_kube, "`kubernetes` block (in `cluster`)"},
	{&kw_bmc, "`bmc redfish` block (in `hardware`)"},
	{&kw_node_addr, "Per-node addresses (`nodes` and `node` blocks)"},
	{&kw_pool, "`pool` block"},
	{&kw_container, "`container` block"},
	{&kw_mount, "`mount` block"},
	{&kw_mpiio, "`mpiio` block (in `mount`)"},
	{&kw_lint, "`lint` block (the `.dslc-lint` settings file)"},
};
const size_t kw_section_count = sizeof(kw_sections) / sizeof(kw_sections[0]);

void reference_print_keywords(FILE *out)
{
	for (size_t t = 0; t < kw_section_count; t++)
		for (size_t i = 0; i < kw_sections[t].table->n; i++)
			fprintf(out, "%s\t%s\n", kw_sections[t].table->block, kw_sections[t].table->kws[i].name);
}

bool reference_print_json(FILE *out)
{
	json_t *a = json_array();
	for (size_t t = 0; t < kw_section_count; t++)
		for (size_t i = 0; i < kw_sections[t].table->n; i++) {
			const keyword *k = &kw_sections[t].table->kws[i];
			json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}", "block", kw_sections[t].table->block,
							   "keyword", k->name, "syntax", k->syntax, "meaning", k->doc));
		}
	bool ok = json_dumpf(a, out, JSON_INDENT(2)) == 0 && fputc('\n', out) != EOF && fflush(out) == 0;
	json_decref(a);
	return ok;
}

void reference_print_markdown(FILE *out)
{
	for (size_t t = 0; t < kw_section_count; t++) {
		const kw_table *k = kw_sections[t].table;
		fprintf(out, "### %s\n\n| keyword | syntax | meaning |\n|---|---|---|\n", kw_sections[t].title);
		for (size_t i = 0; i < k->n; i++)
			fprintf(out, "| `%s` | `%s` | %s |\n", k->kws[i].name, k->kws[i].syntax, k->kws[i].doc);
		fprintf(out, "\n");
	}
	fprintf(out, "### Artifacts\n\n| target | path | content |\n|---|---|---|\n");
	for (size_t i = 0; i < target_count; i++)
		fprintf(out, "| `%s` | `out/nodes/<host>/%s` | %s |\n", target_table[i].name, target_table[i].path,
			target_table[i].doc);
	for (size_t i = 0; i < cluster_target_count; i++)
		fprintf(out, "| `%s` | `out/cluster/%s` | %s |\n", cluster_target_table[i].name, cluster_target_table[i].path,
			cluster_target_table[i].doc);
	fprintf(out, "| `manifest` | `out/manifest.json` | Every file with its node, target, size and sha256 "
		     "(schemas/manifest.schema.json). |\n\n");
}
