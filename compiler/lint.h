/* lint.h - rules over the cluster settings and the placed plans. Placement
 * reports what makes a plan impossible; these rules judge the settings. */
#ifndef DSLC_LINT_H
#define DSLC_LINT_H

#include "model.h"

void lint_model(model *m);

/* Validation shared with the hand-written YAML linter. Return NULL when
 * valid, otherwise the reason. */
const char *lint_engine_log_mask(const char *mask);
const char *lint_provider(const char *provider);

#endif
