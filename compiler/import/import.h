/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* import.h - `dslc import`: hand-written daos_server.yml files (one per
 * node) into one description whose build gives DAOS the same engines. The
 * input is linted first (DAOS's own rules: a file DAOS refuses is not
 * imported); the description is compiled and rendered before it is shown,
 * and every key the files set must come back with the same meaning. */
#ifndef DSLC_IMPORT_H
#define DSLC_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/base/buf.h"
#include "compiler/lint/compile.h"

typedef struct import_opts {
	const char *const *files;
	size_t nfiles;
	const char *hosts;    /* --host HOSTLIST: one name per file, in order; NULL: from each path */
	const char *topology; /* --topology: an lstopo export of the imported node type, or NULL */
	const char *release;  /* --release, or NULL: 2.8 when a file has mgmt_svc_replicas */
	const char *name;     /* how findings name the description ("<stdout>") */
	const char *const *texts; /* NULL, or each file's content (files[i] is then only its name) */
} import_opts;

typedef struct import_run {
	compilation in;   /* the input files and the findings that stop the import */
	buf text;         /* the description (complete only when import_files returned true) */
	compilation out;  /* the description compiled: the imported cluster's findings */
	bool compiled;
	const char *usage; /* set when the command line is wrong (exit 2) */
} import_run;

/* False when the import stops: the reasons are findings in r->in.dc and
 * r->text must not be written. True: r->text is the description and
 * r->out.dc has what `dslc lint` says about it. */
bool import_files(import_run *r, const import_opts *o);
void import_free(import_run *r);

#endif
