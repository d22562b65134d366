/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* client_lint.h - the rules about clients: dfuse mounts, interception
 * libraries and NCCL (SPEC.md, "Clients"). */
#ifndef DSLC_CLIENT_LINT_H
#define DSLC_CLIENT_LINT_H

#include "compiler/model/model.h"

void client_lint(model *m);

#endif
