/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* import_cmd.h - `dslc import FILE.yml...`: the description on stdout, the
 * findings (why the import stopped, or the imported cluster's) on stderr. */
#ifndef DSLC_IMPORT_CMD_H
#define DSLC_IMPORT_CMD_H

#include "compiler/import/import.h"
#include "report.h"

/* Exit status: 0 written (findings of the imported cluster shown), 1 the
 * import stopped at a finding and nothing was written, 2 a file cannot be
 * read or the output cannot be written. */
int import_cmd(const import_opts *o, report_format fmt, unsigned max_findings);

#endif
