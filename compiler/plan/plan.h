/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* plan.h - `dslc plan`: what a change to a description does to the fleet.
 * The new description is compiled and rendered in memory, compared file by
 * file (semantically: semdiff.h) with an existing output tree or with the
 * rendering of an old description, and every difference is classified by the
 * disruption table (schemas/disruption.def) and grouped: one group per file,
 * key and class, one line per distinct old -> new value with the hosts it
 * applies to, compressed back to host lists. */
#ifndef DSLC_PLAN_H
#define DSLC_PLAN_H

#include <stdbool.h>
#include <stdio.h>

typedef enum plan_format { PLAN_TEXT, PLAN_MARKDOWN, PLAN_JSON, PLAN_SCRIPT, PLAN_SVG } plan_format;

typedef struct plan_opts {
	const char *file;           /* the new description */
	const char *against_dir;    /* an output tree (its manifest.json lists its files) */
	const char *against_source; /* or an old description */
	plan_format format;
	bool colour;
	unsigned max_values; /* distinct old -> new values printed per group (0: all) */
	int max_wave;        /* --max-wave: fewer nodes per wave than the limits allow (0: the limits) */
	int unsafe_wave;     /* --unsafe-wave: this many, even above the limits (0: none) */
	long long rebuild_timeout; /* --rebuild-timeout in seconds: the script's wait for a rebuild (0: sized from the pools) */
	const char *picture;       /* --picture FILE: the waves' SVG written there too (markdown links it); NULL: none */
} plan_opts;

/* Exit status: 0 no change, 3 changes, 4 changes with a class that is an
 * error (reformat, node-removed, pool- or container-immutable), 1 findings
 * that stop compiling either side, 2 usage or I/O errors. */
enum { PLAN_SAME = 0, PLAN_ERRORS = 1, PLAN_IO = 2, PLAN_CHANGES = 3, PLAN_DANGER = 4 };
int plan_run(const plan_opts *o, const char *version);

#endif
