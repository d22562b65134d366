/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* server.h - `dslc lsp`: a language server (LSP 3.17) over standard input
 * and output, one process per editor. Requests are answered in the order
 * they come; a document is analysed when it is opened, changed (full sync)
 * or saved, and the open documents that read it are analysed again. */
#ifndef DSLC_LSP_SERVER_H
#define DSLC_LSP_SERVER_H

#include <stdio.h>

/* Serves until `exit`: returns 0 when `shutdown` came first, 1 otherwise
 * (the input ended, or `exit` without `shutdown`), as the protocol says.
 * log: where the server says what it could not answer (stderr). */
int lsp_serve(FILE *in, FILE *out, FILE *log);

#endif
