/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lint.h - rules over the cluster settings and the placed plans. Placement
 * reports what makes a plan impossible; these rules judge the settings. */
#ifndef DSLC_LINT_H
#define DSLC_LINT_H

#include "compiler/model/model.h"

void lint_model(model *m);

/* Validation shared with the hand-written YAML linter. Return NULL when
 * valid, otherwise the reason. */
const char *lint_engine_log_mask(const char *mask);
const char *lint_provider(const char *provider);

/* An environment variable daos_server overrides or splits, with the fix in
 * the DSL and in a hand-written daos_server.yml; NULL when name is free. */
typedef struct env_rule {
	const char *name, *dsl_fix, *yaml_fix;
} env_rule;
const env_rule *lint_env_reserved(const char *name, size_t len);

/* Reports a log mask DAOS refuses (log-mask) or a DEBUG one (log-mask-debug). */
void lint_log_mask_finding(diag_ctx *dc, const char *mask, src_loc loc, const char *debug_msg);

/* DD_MASK and DD_SUBSYS (name, len bytes): reports a name in value that DAOS
 * does not know (log-mask); false when name is neither variable. */
bool lint_env_names_finding(diag_ctx *dc, const char *name, size_t len, const char *value, src_loc loc);

#endif
