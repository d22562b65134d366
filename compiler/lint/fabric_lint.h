/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fabric_lint.h - the rules about the fabric's traffic classes: lossless
 * RoCE (SPEC.md, "Lossless RoCE"). */
#ifndef DSLC_FABRIC_LINT_H
#define DSLC_FABRIC_LINT_H

#include "compiler/model/model.h"

/* After placement: every spec's fabric NICs are known. */
void fabric_lint(model *m);

#endif
