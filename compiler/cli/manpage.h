/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* manpage.h - dslc(1), dslc-language(5) and dslc-rules(7) in man(7) markup,
 * printed from the command table, the keyword and target tables and the
 * rule table: the same text as `--help`, SPEC.md and `dslc explain`. */
#ifndef DSLC_MANPAGE_H
#define DSLC_MANPAGE_H

#include <stdbool.h>
#include <stdio.h>

/* Prints the page `name` (dslc, dslc-language or dslc-rules); false for another. */
bool manpage_print(const char *name, const char *version, FILE *out);

#endif
