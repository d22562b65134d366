/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* report_span.h - what every report format says of a finding the same way:
 * its place as a repository-relative UTF-8 path with lines and columns, its
 * text as UTF-8, and its fingerprint, the name that survives lines moving
 * (SARIF partialFingerprints, GitLab's fingerprint). */
#ifndef DSLC_REPORT_SPAN_H
#define DSLC_REPORT_SPAN_H

#include <jansson.h>

#include "compiler/base/diag.h"

typedef struct span {
	const char *file; /* NULL: no location; else UTF-8 (a name that was not is repaired) */
	unsigned line, col, end_line, end_col;
} span;

/* A path as a repository-relative URI: "./" and "x/../" removed lexically. */
const char *report_path(arena *a, const char *path);
/* The exact bytes of a fix: an empty region is an insertion point. */
span report_span_exact(diag_ctx *dc, src_loc loc);
/* A finding's place: at least one character wide. */
span report_span_of(diag_ctx *dc, src_loc loc);
/* Text for a JSON string or an XML document: jansson takes UTF-8 only, and
 * a message may quote a node's bytes. NULL stays NULL. */
const char *report_u8(diag_ctx *dc, const char *s);

/* Fingerprints of one report: the same finding gets the same one on every
 * run and after unrelated edits (the rule, the message and the text of its
 * source line, not the line's number); two alike findings in one file get
 * ":1", ":2" in report order, as GitHub's partialFingerprints count them. */
typedef struct report_ids {
	json_t *seen; /* "file\nhash" -> how many so far */
} report_ids;

void report_ids_init(report_ids *ids);
void report_ids_free(report_ids *ids);
/* "<32 hex>:<k>", unique within the report for findings of one file. */
const char *report_fingerprint(report_ids *ids, diag_ctx *dc, const diag *d);
/* 32 hex digits unique within the whole report: the file's name and the
 * fingerprint (GitLab keeps one finding per fingerprint). */
const char *report_fingerprint_global(report_ids *ids, diag_ctx *dc, const diag *d);

#endif
