/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* safety.h - the gate: every value of the model that reaches an output is
 * checked with the predicates of safe.h at the source line that gave it,
 * after suppressions, so that it cannot be silenced (SPEC.md, "Security
 * model"). */
#ifndef DSLC_SAFETY_H
#define DSLC_SAFETY_H

#include "compiler/model/model.h"

/* Reports unsafe-value for every value of the model that reaches an output
 * and that its target would refuse. Runs after suppressions: it cannot be
 * silenced. */
void safety_check_model(model *m);

#endif
