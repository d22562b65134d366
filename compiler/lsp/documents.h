/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* documents.h - the documents an editor has open: their text as the editor
 * holds it (full sync), and what the last analysis of each found. Every
 * compilation the server runs reads an open document from here, not from
 * the disk (the source overlay, source.h): an included hardware.dsl being
 * edited is what the description that includes it sees. */
#ifndef DSLC_LSP_DOCUMENTS_H
#define DSLC_LSP_DOCUMENTS_H

#include <jansson.h>

#include "compiler/lint/compile.h"
#include "position.h"

typedef struct lsp_doc {
	char *uri;
	char *path;          /* the file the URI names; NULL for another scheme (untitled:) */
	char *real;          /* its realpath when it exists on disk, else path */
	char *text;          /* NUL-terminated; a NUL byte inside is kept (and refused by the compiler) */
	size_t len;
	long long version;
	text_lines lines;
	bool yaml;           /* a daos_server.yml or daos_agent.yml */
	/* the last analysis */
	compilation *comp;   /* what was compiled: the document, or for a fragment the first description that includes it */
	uint32_t file;       /* the document's file id in comp (0: not among its sources) */
	compilation *good;   /* the last compilation with a model (names for completion while a syntax error stands) */
	json_t *actions;     /* [[start, end, codeAction]]: quick fixes by the byte range of their finding */
	char **reads;        /* realpaths of every file the analysis read */
	size_t nreads;
	/* a fragment's includers, as the search found them: kept across
	 * keystrokes, searched again after a save (docs_saved) */
	char **includers;
	size_t nincluders;
	bool includers_known;
} lsp_doc;

typedef struct doc_store {
	lsp_doc **v;
	size_t n, cap;
	src_overlay overlay; /* installed for every compilation (src_overlay_install) */
} doc_store;

void docs_init(doc_store *s);
void docs_free(doc_store *s);
/* A document was saved: the disk changed, so every fragment's includers
 * are searched again at its next analysis. */
void docs_saved(doc_store *s);
/* d's includers, the n of paths (copied). */
void docs_set_includers(lsp_doc *d, const char *const *paths, size_t n);
/* The open document of uri (NULL for none, and for a NULL uri). */
lsp_doc *docs_find(doc_store *s, const char *uri);
/* Opens (or replaces the text of) uri. */
lsp_doc *docs_open(doc_store *s, const char *uri, const char *text, size_t len, long long version);
void docs_set_text(lsp_doc *d, const char *text, size_t len, long long version);
void docs_close(doc_store *s, lsp_doc *d);
/* A compilation on the heap (a document's outlives the request that made
 * it), zeroed; and its end: its arena, then itself (NULL: nothing). */
compilation *docs_new_compilation(void);
void docs_drop_compilation(compilation *c);
/* Drops the last analysis' results. */
void docs_forget_analysis(lsp_doc *d);
/* Whether the document's last analysis read the file real. */
bool docs_reads(const lsp_doc *d, const char *real);

#endif
