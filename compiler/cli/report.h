/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* report.h - findings in the formats CI tools read: text (diag.c), JSON
 * (schemas/findings.schema.json), SARIF 2.1.0 for code scanning, and GitHub
 * workflow-command annotations. Every format stays valid with no finding,
 * with syntax errors and with unreadable inputs. */
#ifndef DSLC_REPORT_H
#define DSLC_REPORT_H

#include <stdio.h>

#include "compiler/base/diag.h"

typedef enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_SARIF, REPORT_GITHUB } report_format;

bool report_format_parse(const char *s, report_format *out);
/* Prints every finding (text: at most max_shown, 0 = all). Returns 0, or 2
 * when the output cannot be written. */
int report_print(diag_ctx *dc, report_format f, FILE *out, unsigned max_shown, const char *version);
/* The same for the findings of several compilations (lint of several
 * files) in one document: one JSON or SARIF run, one summary; settings
 * names the lint settings file applied (JSON "settings", SARIF
 * run.properties.settings), NULL when none was. */
int report_print_all(diag_ctx *const *dcs, size_t n, report_format f, FILE *out, unsigned max_shown,
		     const char *version, const char *settings);
/* A path as a repository-relative URI: "./" and "x/../" removed lexically. */
const char *report_path(arena *a, const char *path);

#endif
