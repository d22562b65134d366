/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* svg.h - a self-contained SVG 1.1 document written into a buf: no
 * scripts, no external fonts, links or images, and every piece of text that
 * reaches it (a node's, NIC's or drive's name, a reason) escaped, so no name
 * can close an attribute or open an element. */
#ifndef DSLC_SVG_H
#define DSLC_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "buf.h"
#include "xml.h"

/* <svg> with its size, a <title> and a <desc> (what a screen reader reads
 * first), the font stack, and a white background. */
void svg_begin(buf *b, int width, int height, const char *title, const char *desc);
void svg_end(buf *b);
/* A rectangle; cls (the role, for a test or a style) and tip (its <title>,
 * a tooltip) may be NULL. */
void svg_rect(buf *b, double x, double y, double w, double h, const char *fill, const char *stroke, const char *cls,
	      const char *tip);
/* Text at x, y (its baseline); anchor "start", "middle" or "end"; bold
 * for a heading. Longer than max bytes: cut there with an ellipsis. */
void svg_text(buf *b, double x, double y, int size, const char *anchor, bool bold, const char *fill, const char *text,
	      size_t max);
void svg_line(buf *b, double x1, double y1, double x2, double y2, const char *stroke, double width, bool dashed);
/* s cut at spaces into at most max lines of at most width bytes (the
 * last one whole: svg_text's max cuts it with an ellipsis); the count. */
size_t svg_wrap(arena *a, const char *s, size_t width, const char **out, size_t max);
/* <g class="cls"><title>tip</title> ... </g> around what follows. */
void svg_group(buf *b, const char *cls, const char *tip);
void svg_group_end(buf *b);

#endif
