/* fmt_files.h - `dslc fmt [--check] FILE...`: each description rewritten in
 * place in the canonical layout (compiler/lang/format.h), or, with --check,
 * named when it would change; `-` reads stdin and writes stdout. */
#ifndef DSLC_FMT_FILES_H
#define DSLC_FMT_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Exit status: 0 all formatted (or written), 1 --check found a file to
 * change or a file does not parse, 2 a file cannot be read or written. */
int fmt_files(const char *const *files, size_t n, bool check);

#endif
