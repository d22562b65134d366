/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* isolation_lint.h - kernel CPU isolation against the placement: a
 * hand-written isolcpus, nohz_full or rcu_nocbs must name the engines' CPUs,
 * whole cores, and no OS core's (kernel-cpu-isolation). */
#ifndef DSLC_ISOLATION_LINT_H
#define DSLC_ISOLATION_LINT_H

#include "compiler/model/model.h"

/* e is a kernel parameter of spec s as written in its kernel block. */
void isolation_lint_param(model *m, const node_spec *s, const env_entry *e);

#endif
