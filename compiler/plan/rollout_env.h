/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rollout_env.h - the environment the rollout script reads: one table that
 * the script's header and dslc(1)'s ENVIRONMENT print, so neither can name a
 * variable the other lacks (tests/docs_agree.py holds both, SPEC.md and the
 * script's own ${VAR:-default} lines to it). */
#ifndef DSLC_PLAN_ROLLOUT_ENV_H
#define DSLC_PLAN_ROLLOUT_ENV_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rollout_var {
	const char *name;
	const char *fallback; /* the default the script sets; NULL: required, or the plan's own */
	bool kube;            /* read only when DAOS runs in pods */
	const char *doc;
} rollout_var;

extern const rollout_var rollout_vars[];
extern const size_t rollout_var_count;

#endif
