/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* svg.c - SVG 1.1 written by hand: a picture is a few hundred rectangles
 * and labels, which libyaml and jansson do not write and libxml2 would only
 * wrap. What makes it safe is one escape (xml.h), used for every string. */
#include "svg.h"

#include <string.h>

void svg_begin(buf *b, int width, int height, const char *title, const char *desc)
{
	buf_printf(b,
		   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n<title>",
		   width, height, width, height);
	xml_escape(b, title, 0);
	buf_puts(b, "</title>\n<desc>");
	xml_escape(b, desc, 0);
	buf_puts(b, "</desc>\n");
	svg_rect(b, 0, 0, width, height, "#ffffff", NULL, "background", NULL);
}

void svg_end(buf *b)
{
	buf_puts(b, "</svg>\n");
}

/* Coordinates to a tenth of a pixel, the same bytes on every machine. */
static void num(buf *b, double v)
{
	long t = (long)(v * 10 + (v < 0 ? -0.5 : 0.5));
	if (t % 10)
		buf_printf(b, "%s%ld.%ld", t < 0 ? "-" : "", (t < 0 ? -t : t) / 10, (t < 0 ? -t : t) % 10);
	else
		buf_printf(b, "%ld", t / 10);
}

static void attr_num(buf *b, const char *name, double v)
{
	buf_printf(b, " %s=\"", name);
	num(b, v);
	buf_puts(b, "\"");
}

static void attr(buf *b, const char *name, const char *v)
{
	if (!v)
		return;
	buf_printf(b, " %s=\"", name);
	xml_escape(b, v, 0);
	buf_puts(b, "\"");
}

void svg_rect(buf *b, double x, double y, double w, double h, const char *fill, const char *stroke, const char *cls,
	      const char *tip)
{
	buf_puts(b, "<rect");
	attr(b, "class", cls);
	attr_num(b, "x", x);
	attr_num(b, "y", y);
	attr_num(b, "width", w);
	attr_num(b, "height", h);
	attr(b, "fill", fill ? fill : "none");
	attr(b, "stroke", stroke);
	if (!tip) {
		buf_puts(b, "/>\n");
		return;
	}
	buf_puts(b, "><title>");
	xml_escape(b, tip, 0);
	buf_puts(b, "</title></rect>\n");
}

void svg_text(buf *b, double x, double y, int size, const char *anchor, bool bold, const char *fill, const char *text,
	      size_t max)
{
	buf_puts(b, "<text");
	attr_num(b, "x", x);
	attr_num(b, "y", y);
	buf_printf(b, " font-size=\"%d\"", size);
	if (anchor && strcmp(anchor, "start") != 0)
		attr(b, "text-anchor", anchor);
	if (bold)
		buf_puts(b, " font-weight=\"bold\"");
	attr(b, "fill", fill ? fill : "#000000");
	buf_puts(b, ">");
	size_t n = text ? strlen(text) : 0;
	if (max && n > max) {
		size_t cut = max - 1; /* room for the ellipsis */
		while (cut > 0 && ((unsigned char)text[cut] & 0xc0) == 0x80) /* not inside a character */
			cut--;
		if (cut)
			xml_escape(b, text, cut);
		buf_puts(b, "\xe2\x80\xa6");
	} else {
		xml_escape(b, text, 0);
	}
	buf_puts(b, "</text>\n");
}

void svg_line(buf *b, double x1, double y1, double x2, double y2, const char *stroke, double width, bool dashed)
{
	buf_puts(b, "<line");
	attr_num(b, "x1", x1);
	attr_num(b, "y1", y1);
	attr_num(b, "x2", x2);
	attr_num(b, "y2", y2);
	attr(b, "stroke", stroke);
	attr_num(b, "stroke-width", width);
	if (dashed)
		buf_puts(b, " stroke-dasharray=\"4 3\"");
	buf_puts(b, "/>\n");
}

void svg_group(buf *b, const char *cls, const char *tip)
{
	buf_puts(b, "<g");
	attr(b, "class", cls);
	buf_puts(b, ">");
	if (tip) {
		buf_puts(b, "<title>");
		xml_escape(b, tip, 0);
		buf_puts(b, "</title>");
	}
	buf_puts(b, "\n");
}

void svg_group_end(buf *b)
{
	buf_puts(b, "</g>\n");
}

size_t svg_wrap(arena *a, const char *s, size_t width, const char **out, size_t max)
{
	size_t k = 0;
	while (*s && k < max) {
		size_t cut = width;
		if (strlen(s) <= width || k + 1 == max) {
			out[k++] = s;
			break;
		}
		while (cut > width / 2 && s[cut] != ' ')
			cut--;
		if (s[cut] != ' ')
			cut = width;
		while (s[cut] != ' ' && cut > 1 && ((unsigned char)s[cut] & 0xc0) == 0x80) /* not inside a character */
			cut--;
		out[k++] = arena_strndup(a, s, cut);
		s += cut;
		while (*s == ' ')
			s++;
	}
	return k;
}
