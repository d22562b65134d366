/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rollout.h - the plan's waves (waves.h) as text, markdown, JSON and a
 * POSIX sh script that runs them, gate by gate (rollout.c), and as an SVG
 * picture (rollout_svg.c). */
#ifndef DSLC_PLAN_ROLLOUT_H
#define DSLC_PLAN_ROLLOUT_H

#include <jansson.h>
#include <stdio.h>

#include "compiler/base/buf.h"
#include "waves.h"

/* Text or markdown; at most max_waves waves and the last one listed (0: all). */
void rollout_text(FILE *out, arena *a, const plan_waves *w, bool markdown, unsigned max_waves);
json_t *rollout_json(arena *a, const plan_waves *w);
/* Why wave v has its size, and what it does beyond stop and start. */
const char *rollout_reason(arena *a, const plan_waves *w, const plan_wave *v);
/* The waves as one self-contained SVG; m (the new description) names the
 * access points. A refused plan is its reason in words, nothing drawn. */
void rollout_svg(buf *out, arena *a, const model *m, const plan_waves *w, const char *title);
void rollout_script(FILE *out, arena *a, const plan_waves *w, const char *version);

#endif
