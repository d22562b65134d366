/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* report.h - findings in the formats CI tools read: text (diag.c), JSON
 * (schemas/findings.schema.json), SARIF 2.1.0 for code scanning, GitHub
 * workflow-command annotations, and (report_ci.h) GitLab Code Quality,
 * JUnit, checkstyle and one line each. Every format stays valid with no
 * finding, with syntax errors and with unreadable inputs. */
#ifndef DSLC_REPORT_H
#define DSLC_REPORT_H

#include <stdio.h>

#include "compiler/base/diag.h"

typedef enum report_format {
	REPORT_TEXT, REPORT_JSON, REPORT_SARIF, REPORT_GITHUB, REPORT_GITLAB, REPORT_JUNIT, REPORT_CHECKSTYLE, REPORT_CONCISE
} report_format;
/* The names report_format_parse takes, as the command table lists them. */
#define REPORT_FORMAT_CHOICES "text|json|sarif|github|gitlab|junit|checkstyle|concise"

bool report_format_parse(const char *s, report_format *out);
/* Prints every finding (text: at most max_shown, 0 = all). Returns 0, or 2
 * when the output cannot be written. */
int report_print(diag_ctx *dc, report_format f, FILE *out, unsigned max_shown, const char *version);
/* The same for the findings of several compilations (lint of several
 * files) in one document: one JSON or SARIF run, one summary; settings
 * names the lint settings file applied (JSON "settings", SARIF
 * run.properties.settings), NULL when none was; fail_on, the lowest
 * severity that fails (JUnit's failures). */
int report_print_all(diag_ctx *const *dcs, size_t n, report_format f, FILE *out, unsigned max_shown,
		     const char *version, const char *settings, diag_severity fail_on);
/* The counts of a summary line, as every format that has one says them:
 * "E errors, W warnings, N notes" and, when some wait (cascade.c), "; H more
 * findings wait for the errors to be fixed". No prefix, no newline. */
void report_counts(FILE *out, unsigned errors, unsigned warnings, unsigned notes, unsigned held);

#endif
