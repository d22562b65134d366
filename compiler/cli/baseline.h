/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* baseline.h - `dslc lint --write-baseline FILE` records today's findings;
 * `--baseline FILE` (or `baseline` in .dslc-lint) reports only the ones not
 * in it, so a repository adopts the lint before every old finding is fixed.
 * A finding is known by its rule, its file (relative to the baseline's
 * directory, so any working directory matches) and its fingerprint
 * (report_span.h: the message and the text of its line, counted when
 * alike), never by its line number: lines moving keep it known, an edited
 * line or message makes it new. The rules nothing may silence (syntax,
 * io-error, unsafe-value...) are never recorded. */
#ifndef DSLC_BASELINE_H
#define DSLC_BASELINE_H

#include <jansson.h>
#include <stdio.h>

#include "compiler/base/diag.h"

typedef struct baseline {
	const char *path;
	const char *dir;  /* the baseline's directory, resolved */
	json_t *entries;  /* key (rule, file, fingerprint) -> the entry, until a finding matches it */
	size_t nentries;  /* as read */
	size_t matched;
} baseline;

/* Reads path into b (strings in a). False, said on stderr with the place
 * and the fix, when it cannot be read or is not a dslc baseline. */
bool baseline_read(baseline *b, arena *a, const char *path);
/* Moves the findings b records out of each report (diag_set_baselined). */
void baseline_apply(baseline *b, arena *a, diag_ctx *const *dcs, size_t n);
/* The entries for the files these reports read that no finding matched
 * (fixed, or their line edited): printed on out (at most max, 0: none),
 * counted. Entries of files not linted this time are not stale. */
size_t baseline_stale(baseline *b, arena *a, diag_ctx *const *dcs, size_t n, FILE *out, size_t max);
void baseline_free(baseline *b);
/* Writes the findings of the reports to path, whole or not at all; the
 * count in *count. False, said on stderr, when it cannot be written. */
bool baseline_write(arena *a, const char *path, diag_ctx *const *dcs, size_t n, size_t *count);

#endif
