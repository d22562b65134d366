/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* udiff.h - a unified diff of two texts, as `diff -u` and `patch` read it:
 * what `dslc fmt --diff` and `dslc lint --fix --diff` print instead of
 * writing. */
#ifndef DSLC_UDIFF_H
#define DSLC_UDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "arena.h"

/* Prints the diff from old to new under `--- path` and `+++ path` headers,
 * with 3 lines of context (`patch -p0` applies it to path). Prints nothing
 * and returns false when the texts are equal. Lines are compared whole; the
 * edit script is the shortest one (Myers) unless the texts differ in more
 * than a few thousand lines, when the changed middle is replaced at once. */
bool udiff_print(arena *a, FILE *out, const char *path, const char *old, size_t old_len, const char *new_,
		 size_t new_len);

#endif
