/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* cascade.h - one mistake, one finding: the findings that follow from an
 * error are held back until it is fixed. See cascade.c. */
#ifndef DSLC_CASCADE_H
#define DSLC_CASCADE_H

#include "compiler/base/diag.h"
#include "compiler/lang/ast.h"

/* Holds back, in dc, what an error in the description makes untrue or
 * unknowable. resolved: dc->n when the model was resolved (findings before
 * it come from reading the description, the rest from placement and lint).
 * Never holds back the last error: a description with an error stays one. */
void cascade_hold(diag_ctx *dc, const ast_block *root, unsigned resolved);

#endif
