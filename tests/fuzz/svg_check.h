/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* svg_check.h - what a fuzz target asks of a picture dslc writes
 * (compiler/base/svg.h): after the prologue, only the elements dslc draws
 * with, nested and closed; every attribute value and every run of text
 * what xml_escape writes (no raw markup character, UTF-8 of characters
 * XML allows), so no name can have opened an element or ended a value.
 * Aborts with the offset on a violation. */
#ifndef DSLC_FUZZ_SVG_CHECK_H
#define DSLC_FUZZ_SVG_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/svg.h"

static void svg_fail(const char *s, const char *p, const char *why)
{
	fprintf(stderr, "svg_check: %s at byte %zu: %.80s\n", why, (size_t)(p - s), p);
	abort();
}

/* The text between tags, line by line (dslc ends elements with '\n'). */
static void svg_text_ok(const char *s, const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		if (!xml_escaped_ok(p, (size_t)(stop - p)))
			svg_fail(s, p, "text not escaped");
		p = nl ? nl + 1 : end;
	}
}

static void svg_check(const char *s, size_t n)
{
	static const char *const names[] = {"svg", "title", "desc", "rect", "text", "line", "g", NULL};
	const char *end = s + n, *p = strstr(s, "<svg ");
	const char *stack[64];
	int depth = 0;
	if (!p || strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE svg ", 50) != 0)
		svg_fail(s, s, "no prologue and <svg>");
	while (p < end) {
		if (*p != '<') {
			const char *lt = memchr(p, '<', (size_t)(end - p));
			svg_text_ok(s, p, lt ? lt : end);
			p = lt ? lt : end;
			continue;
		}
		bool closing = p[1] == '/';
		const char *q = p + 1 + closing;
		size_t len = strspn(q, "abcdefghijklmnopqrstuvwxyz");
		int k = 0;
		while (names[k] && (strlen(names[k]) != len || strncmp(names[k], q, len) != 0))
			k++;
		if (!names[k])
			svg_fail(s, p, "an element dslc does not draw");
		q += len;
		if (closing) {
			if (!depth || stack[depth - 1] != names[k] || *q != '>')
				svg_fail(s, p, "a closing tag that closes nothing open");
			depth--;
			p = q + 1;
			continue;
		}
		for (;;) { /* attributes: name="value" */
			if (*q == '>' || (q[0] == '/' && q[1] == '>'))
				break;
			if (*q != ' ')
				svg_fail(s, q, "no space before an attribute");
			q++;
			size_t an = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-:");
			if (!an || q[an] != '=' || q[an + 1] != '"')
				svg_fail(s, q, "an attribute without =\"");
			const char *v = q + an + 2, *close = memchr(v, '"', (size_t)(end - v));
			if (!close || !xml_escaped_ok(v, (size_t)(close - v)))
				svg_fail(s, v, "an attribute value not escaped");
			q = close + 1;
		}
		if (*q == '>') {
			if (depth == 64)
				svg_fail(s, p, "nested too deep");
			stack[depth++] = names[k];
			p = q + 1;
		} else {
			p = q + 2;
		}
		if (!depth) /* </svg> closed the document: only a newline may follow */
			break;
	}
	if (depth || (p < end && !(p + 1 == end && *p == '\n')))
		svg_fail(s, p < end ? p : end, "elements left open, or bytes after </svg>");
}

#endif
