/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* format.h - `dslc fmt`: a description in one canonical layout (SPEC.md,
 * "dslc fmt"). Only what lies between tokens changes: indentation (2 blanks
 * per block, 4 more for a continued line), one blank between tokens that do
 * not touch (two where the source has two or more), values of a run of
 * `key value` lines aligned when one of them already is, trailing comments
 * of consecutive lines at one column, no blank line twice, first, last or
 * just inside braces. The result is scanned again and must be the same
 * program (tokens, which of them touch, statement ends) with the same
 * comments, or nothing is written. */
#ifndef DSLC_FORMAT_H
#define DSLC_FORMAT_H

#include <stdbool.h>

#include "compiler/base/buf.h"
#include "compiler/base/diag.h"

/* Formats a file of the source set into out; false with diagnostics when it
 * does not parse (or, a bug, when the check fails). */
bool format_file(arena *a, diag_ctx *dc, uint32_t file, buf *out);

#endif
