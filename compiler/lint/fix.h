/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fix.h - `dslc lint --fix`: applies the exact edits findings carry
 * (diag_fix) to the files they point into. */
#ifndef DSLC_FIX_H
#define DSLC_FIX_H

#include <stdio.h>

#include "compiler/base/diag.h"

typedef struct fix_result {
	unsigned applied;  /* findings whose edits were written */
	unsigned skipped;  /* findings whose edits overlap an earlier finding's */
	unsigned files;    /* files rewritten */
	unsigned refused;  /* files not rewritten: not regular, changed since read, write failed */
} fix_result;

/* Applies the fixes of every finding left in dc (after suppressions and
 * --disable), in source order. A finding's edits go in together or not at
 * all; one that overlaps an edit already taken waits for the next run (never
 * two conflicting edits). Each file is replaced atomically (a temporary in
 * its directory, then rename) and only if it still holds what was linted.
 * Says what it did and refused on log. */
fix_result fix_apply(diag_ctx *dc, FILE *log);
/* The same edits printed to diff as a unified diff of each file (`lint --fix
 * --diff`), nothing written; `files` counts the files that would change. */
fix_result fix_preview(diag_ctx *dc, FILE *log, FILE *diff);

#endif
