/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* progress.c - see progress.h. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_begin(progress *p, const char *what, size_t total)
{
	const char *term = getenv("TERM"), *delay = getenv("DSLC_PROGRESS_DELAY");
	*p = (progress){.what = what, .total = total};
	/* NO_PROGRESS as other tools read NO_COLOR: set at all, no line */
	p->on = isatty(STDERR_FILENO) && !getenv("NO_PROGRESS") && !(term && strcmp(term, "dumb") == 0);
	p->delay = delay && *delay ? strtod(delay, NULL) / 1000 : 2.0;
	p->start = p->last = now();
}

void progress_step(progress *p, size_t done, const char *phase)
{
	if (!p->on)
		return;
	double t = now();
	/* after the delay, at most ten redraws a second */
	if (t - p->start < p->delay || (p->shown && t - p->last < 0.1))
		return;
	p->last = t;
	p->shown = true;
	if (phase)
		fprintf(stderr, "\rdslc: %s: %s\033[K", p->what, phase);
	else if (p->total)
		fprintf(stderr, "\rdslc: %s %zu/%zu (%zu%%)\033[K", p->what, done, p->total, done * 100 / p->total);
	else
		fprintf(stderr, "\rdslc: %s %zu\033[K", p->what, done);
	fflush(stderr);
}

void progress_end(progress *p)
{
	if (p->on && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = false;
}
