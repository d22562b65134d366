/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* xml.c - the one escape of every XML document dslc writes by hand (SVG
 * pictures, JUnit and checkstyle reports). */
#include "xml.h"

#include <string.h>

/* The length of the UTF-8 sequence at s (at most n bytes) that XML 1.0
 * allows as a character (production [2] Char), or 0. */
static size_t char_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned cp;
	if (c < 0x80)
		return c >= 0x20 || c == '\t' || c == '\n' ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, and the two non-characters XML forbids */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

void xml_escape(buf *b, const char *s, size_t max)
{
	if (!s)
		return;
	size_t n = strlen(s);
	if (max && n > max)
		n = max;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len = char_len(u + i, n - i);
		if (!len) {
			buf_puts(b, "\xef\xbf\xbd"); /* U+FFFD for the byte */
			i++;
			continue;
		}
		switch (u[i]) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		case '\n': case '\t': buf_puts(b, " "); break; /* attribute values normalise them anyway */
		default: buf_add(b, u + i, len);
		}
		i += len;
	}
}

bool xml_escaped_ok(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len = char_len(u + i, n - i);
		if (!len || u[i] == '<' || u[i] == '>' || u[i] == '"' || u[i] == '\'' || u[i] == '\n' || u[i] == '\t')
			return false;
		if (u[i] == '&') {
			static const char *const refs[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
			size_t k = 0;
			while (k < 5 && (n - i < strlen(refs[k]) || memcmp(u + i, refs[k], strlen(refs[k])) != 0))
				k++;
			if (k == 5)
				return false;
			len = strlen(refs[k]);
		}
		i += len;
	}
	return true;
}
