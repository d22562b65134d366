/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* features.h - the requests an editor makes about a document: hover,
 * completion, go to definition, the outline and formatting. Each reads the
 * document's text and its last analysis (documents.h), and answers with
 * the protocol's result (NULL: the result is null). */
#ifndef DSLC_LSP_FEATURES_H
#define DSLC_LSP_FEATURES_H

#include "documents.h"

/* On a finding: its rule's `dslc explain` text; on a node's host list: what
 * `dslc show` prints for it; on a keyword: its reference (syntax, meaning). */
json_t *feature_hover(lsp_doc *d, size_t offset, bool utf8);
/* Keywords of the block at the cursor (a snippet for those that open a
 * block), rule ids after `# dslc: allow`, and the names a statement takes
 * where it takes one (profiles, hardware, pools, containers, nodes). */
json_t *feature_completion(lsp_doc *d, size_t offset, bool utf8);
/* Profiles, hardware types, pools and containers by name; an include's file. */
json_t *feature_definition(lsp_doc *d, size_t offset, bool utf8);
/* The outline: every statement with a block, nested. */
json_t *feature_symbols(lsp_doc *d, bool utf8);
/* `dslc fmt` of the document: one edit of the whole text, none when it is
 * formatted already; NULL when it does not parse. */
json_t *feature_formatting(lsp_doc *d, bool utf8);

#endif
