/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* unit.h - the Check suites of dslc's unit tests. */
#ifndef DSLC_UNIT_H
#define DSLC_UNIT_H

#include <check.h>

#include "compiler/lint/compile.h"

Suite *suite_value(void);
Suite *suite_topology(void);
Suite *suite_diag(void);
Suite *suite_place(void);
Suite *suite_topology_xml(void);
Suite *suite_pools(void);
Suite *suite_safety(void);
Suite *suite_plan(void);
Suite *suite_buf(void);
Suite *suite_svg(void);
Suite *suite_image_ref(void);
Suite *suite_udiff(void);
Suite *suite_lsp(void);
Suite *suite_rootfs(void);
Suite *suite_format(void);
Suite *suite_manifest(void);

/* Compiles text; the caller frees with compile_free. */
void unit_compile(compilation *c, const char *text);
/* True when a finding with that rule id was reported. */
int unit_has(const compilation *c, const char *rule_id);
/* Errors and warnings: the findings that are not notes. */
unsigned unit_findings(const compilation *c);
/* The first finding's message for that rule, or "". */
const char *unit_msg(const compilation *c, const char *rule_id);
const char *unit_help(const compilation *c, const char *rule_id);

#endif
