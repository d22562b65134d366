/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* cmdline.h - a kernel command line read as the kernel reads it, and
 * whether a parameter dslc planned is the one in force there. Shared by
 * the description's check (kernel.c) and the manifest's (manifest_check.c). */
#ifndef DSLC_DOCTOR_CMDLINE_H
#define DSLC_DOCTOR_CMDLINE_H

#include <stdbool.h>

#include "compiler/base/arena.h"

enum { CMDLINE_MAX_WORDS = 4096 };

typedef struct cmdline_word {
	const char *name, *value; /* value NULL: a bare flag */
} cmdline_word;

/* The words of s (at most max), split as lib/cmdline.c next_arg does. */
int cmdline_split(arena *a, const char *s, cmdline_word *w, int max);

/* How name=value (value "" for a bare flag) stands on the command line w:
 * true when the occurrence in force has that value. Otherwise *in_force is
 * the occurrence the kernel uses (-1: none) and *ours an occurrence with
 * the planned value that another one overrides (-1: none). pagesz is the
 * planned hugepagesz=, for the hugepages= that follows it. */
bool cmdline_holds(const cmdline_word *w, int n, const char *name, const char *value, const char *pagesz,
		   int *in_force, int *ours);

/* The finding's sentence for a parameter cmdline_holds refused. */
const char *cmdline_mismatch(arena *a, const cmdline_word *w, int in_force, int ours, const char *name,
			     const char *value);

#endif
