/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* report_ci.h - findings in the formats other CI systems read: GitLab Code
 * Quality (CodeClimate issues, as GitLab's parser validates them), JUnit
 * XML (test reports: GitLab, Jenkins and most CI), checkstyle XML (Jenkins'
 * warnings, reviewdog) and one line per finding (grep, editors' quickfix).
 * report.h chooses among them. Each returns 0, or 2 when out fails. */
#ifndef DSLC_REPORT_CI_H
#define DSLC_REPORT_CI_H

#include <stdio.h>

#include "compiler/base/diag.h"

int report_gitlab(diag_ctx *const *dcs, size_t n, FILE *out);
/* A test suite per file, a test case per rule with findings there: failed
 * when one is at or above fail_on (the findings that fail the lint). */
int report_junit(diag_ctx *const *dcs, size_t n, FILE *out, diag_severity fail_on);
int report_checkstyle(diag_ctx *const *dcs, size_t n, FILE *out, const char *version);
int report_concise(diag_ctx *const *dcs, size_t n, FILE *out);

#endif
