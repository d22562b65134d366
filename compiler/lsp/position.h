/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* position.h - where the protocol and dslc meet: LSP positions (a line and
 * a character counted in UTF-16 code units, or in bytes when the client
 * agreed to "utf-8") against dslc's byte offsets, and file:// URIs against
 * paths. */
#ifndef DSLC_LSP_POSITION_H
#define DSLC_LSP_POSITION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A text's line starts, for positions both ways. Heap-owned (a document
 * outlives any compilation). */
typedef struct text_lines {
	const char *text;
	size_t len;
	uint32_t *starts;
	size_t n;
} text_lines;

void text_lines_init(text_lines *tl, const char *text, size_t len);
void text_lines_free(text_lines *tl);
/* {"line": L, "character": C} of a byte offset (clamped to the text). */
json_t *lsp_position(const text_lines *tl, size_t offset, bool utf8);
/* {"start": ..., "end": ...} of a byte range. */
json_t *lsp_range(const text_lines *tl, size_t start, size_t end, bool utf8);
/* The byte offset of an LSP position (a line past the end: the end; a
 * character past the line's end: the line's end); false when pos is not a
 * position object. */
bool lsp_offset(const text_lines *tl, const json_t *pos, bool utf8, size_t *offset);

/* A JSON string of text that may not be UTF-8 (a document's bytes quoted
 * in a message, a name): each invalid byte becomes U+FFFD, as an editor
 * shows it. Never NULL. */
json_t *lsp_text(const char *text);

/* The path of a file:// URI, percent-decoded (malloc'd), or NULL for any
 * other scheme, a host other than localhost, or a decoded NUL byte. */
char *lsp_uri_path(const char *uri);
/* The file:// URI of an absolute path (malloc'd). */
char *lsp_path_uri(const char *path);

#endif
