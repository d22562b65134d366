/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* syntax.h - `dslc syntax vim|textmate`: syntax highlighting for editors,
 * printed from the keyword tables (every keyword of every block) and the
 * rows of the blocks that open one (context.h): no second list to keep. */
#ifndef DSLC_LSP_SYNTAX_H
#define DSLC_LSP_SYNTAX_H

#include <stdbool.h>
#include <stdio.h>

/* which: "vim" (a syntax/dslc.vim) or "textmate" (a .tmLanguage.json, as
 * VS Code and GitHub's highlighter read it); false for another name or
 * when out cannot be written. */
bool syntax_print(const char *which, FILE *out);

#endif
