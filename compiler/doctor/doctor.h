/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* doctor.h - `dslc doctor`: on the node (or its image, or a snapshot taken
 * on it), is this machine what the description says? Read-only. */
#ifndef DSLC_DOCTOR_H
#define DSLC_DOCTOR_H

#include <stdbool.h>

#include "compiler/base/rules.h"
#include "compiler/cli/report.h"

typedef struct doctor_opts {
	const char *file;      /* the description */
	const char *node;      /* --node HOST (a single node; with --snapshots, only that one) */
	const char *root;      /* --root DIR, "/" by default */
	const char *topology;  /* --topology X.xml: the machine as an lstopo export */
	const char *collect;   /* --collect DIR: write what was read, a snapshot */
	const char *snapshots; /* --snapshots DIR: every node's snapshot, DIR/HOST */
	const char *manifest;  /* --manifest DIR: the node against DIR/manifest.json, no description */
	report_format format;
	bool strict;
	unsigned max_findings;
	const bool *disabled; /* R__COUNT entries */
} doctor_opts;

/* 0 clean, 1 drift, 2 usage or I/O (the description's own errors too). */
int doctor_run(const doctor_opts *o, const char *version);

#endif
