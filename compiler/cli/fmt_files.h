/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fmt_files.h - `dslc fmt [--check] [--diff] FILE...`: each description
 * rewritten in place in the canonical layout (compiler/lang/format.h), or,
 * with --check, named when it would change, or with --diff shown as a diff;
 * `-` reads stdin and writes stdout. */
#ifndef DSLC_FMT_FILES_H
#define DSLC_FMT_FILES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct fmt_opts {
	bool check;             /* name the files that would change, exit 1 */
	bool diff;              /* print the unified diff instead of writing */
	bool quiet;             /* no "formatted X" line */
	const char *stdin_name; /* the path a `-` stands for (its errors and diff name it), or NULL */
} fmt_opts;

/* Exit status: 0 all formatted (or written, or only shown with --diff), 1
 * --check found a file to change or a file does not parse, 2 a file cannot
 * be read or written. */
int fmt_files(const char *const *files, size_t n, const fmt_opts *o);

#endif
