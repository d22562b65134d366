/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* progress.h - one line on stderr for work that takes more than a couple
 * of seconds (a build of thousands of nodes, a fleet's snapshots, a node's
 * collection), redrawn in place, and only on a terminal: a pipe or a CI log
 * gets nothing, and the line is erased when the work ends, so what follows
 * on stderr (findings, the summary) reads as it does without it. */
#ifndef DSLC_PROGRESS_H
#define DSLC_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct progress {
	const char *what; /* "building nodes" */
	size_t total;     /* 0: no count, phases only */
	bool on;          /* stderr is a terminal, TERM is not dumb, NO_PROGRESS unset */
	bool shown;       /* a line is on the screen */
	double start, last; /* seconds */
	double delay;     /* seconds before the first line (DSLC_PROGRESS_DELAY in ms, else 2 s) */
} progress;

void progress_begin(progress *p, const char *what, size_t total);
/* done of total, or the phase the work is in (phase NULL: the count). */
void progress_step(progress *p, size_t done, const char *phase);
void progress_end(progress *p);

#endif
