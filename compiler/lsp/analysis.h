/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* analysis.h - a document's findings as the editor shows them: the lint
 * `dslc lint FILE` runs (the repository's .dslc-lint disables applied, a
 * fragment such as hardware.dsl through the descriptions that include it,
 * a daos_server.yml through the YAML linter), turned into LSP diagnostics
 * (range, severity, the rule id as code, help and notes) and the findings'
 * exact edits into quick fixes. */
#ifndef DSLC_LSP_ANALYSIS_H
#define DSLC_LSP_ANALYSIS_H

#include "documents.h"

/* Analyses d (its previous results replaced) and returns the params of its
 * textDocument/publishDiagnostics notification. */
json_t *analysis_run(lsp_doc *d, bool utf8);
/* The quick fixes of d whose finding overlaps [start, end]. */
json_t *analysis_actions(const lsp_doc *d, size_t start, size_t end);
/* The range of loc as an LSP range in its own file (sources of comp). */
json_t *analysis_loc_range(compilation *c, src_loc loc, bool utf8);
/* The file:// URI of a source of comp (malloc'd; NULL for a name that is no path). */
char *analysis_file_uri(compilation *c, uint32_t file);
/* The id of the document among the sources of c (0: not among them). */
uint32_t analysis_doc_file(compilation *c, const lsp_doc *d);

#endif
