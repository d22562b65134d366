/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

void unit_compile(compilation *c, const char *text)
{
	ck_assert(compile_text(c, "test.dsl", text));
}

static const diag *find(const compilation *c, const char *rule_id)
{
	for (size_t i = 0; i < c->dc.n; i++)
		if (strcmp(c->dc.items[i]->rule->id, rule_id) == 0)
			return c->dc.items[i];
	return NULL;
}

int unit_has(const compilation *c, const char *rule_id)
{
	return find(c, rule_id) != NULL;
}

unsigned unit_findings(const compilation *c)
{
	return diag_count(&c->dc, SEV_ERROR) + diag_count(&c->dc, SEV_WARNING);
}

const char *unit_msg(const compilation *c, const char *rule_id)
{
	const diag *d = find(c, rule_id);
	return d ? d->msg : "";
}

const char *unit_help(const compilation *c, const char *rule_id)
{
	const diag *d = find(c, rule_id);
	return d && d->help ? d->help : "";
}

int main(void)
{
	SRunner *sr = srunner_create(suite_value());
	srunner_add_suite(sr, suite_topology());
	srunner_add_suite(sr, suite_diag());
	srunner_add_suite(sr, suite_place());
	srunner_add_suite(sr, suite_topology_xml());
	srunner_add_suite(sr, suite_pools());
	srunner_add_suite(sr, suite_safety());
	srunner_add_suite(sr, suite_plan());
	srunner_add_suite(sr, suite_buf());
	srunner_add_suite(sr, suite_svg());
	srunner_add_suite(sr, suite_image_ref());
	srunner_add_suite(sr, suite_udiff());
	srunner_add_suite(sr, suite_lsp());
	srunner_add_suite(sr, suite_rootfs());
	srunner_add_suite(sr, suite_format());
	srunner_add_suite(sr, suite_manifest());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
