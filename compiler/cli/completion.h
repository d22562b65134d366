/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* completion.h - bash, zsh and fish completion scripts, written from the
 * command table (commands.h) and the rule table: commands, each command's
 * options and their values, rule ids after --disable, --enable and explain,
 * and node names after `show FILE` (asked of `dslc show FILE`). */
#ifndef DSLC_COMPLETION_H
#define DSLC_COMPLETION_H

#include <stdbool.h>
#include <stdio.h>

/* Prints the script of shell ("bash", "zsh" or "fish"); false for another. */
bool completion_print(const char *shell, FILE *out);

#endif
