/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rollout.h - the plan's waves (waves.h) as text, markdown, JSON and a
 * POSIX sh script that runs them, gate by gate. */
#ifndef DSLC_PLAN_ROLLOUT_H
#define DSLC_PLAN_ROLLOUT_H

#include <jansson.h>
#include <stdio.h>

#include "waves.h"

/* Text or markdown; at most max_waves waves and the last one listed (0: all). */
void rollout_text(FILE *out, arena *a, const plan_waves *w, bool markdown, unsigned max_waves);
json_t *rollout_json(arena *a, const plan_waves *w);
void rollout_script(FILE *out, arena *a, const plan_waves *w, const char *version);

#endif
