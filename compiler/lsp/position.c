/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* position.c - see position.h. */
#include "position.h"

#include <stdlib.h>
#include <string.h>

void text_lines_init(text_lines *tl, const char *text, size_t len)
{
	tl->text = text;
	tl->len = len;
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	tl->starts = malloc(n * sizeof(*tl->starts));
	tl->n = 0;
	if (!tl->starts)
		abort();
	tl->starts[tl->n++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			tl->starts[tl->n++] = (uint32_t)(i + 1);
}

void text_lines_free(text_lines *tl)
{
	free(tl->starts);
	memset(tl, 0, sizeof(*tl));
}

static size_t line_of(const text_lines *tl, size_t offset)
{
	size_t lo = 0, hi = tl->n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (tl->starts[mid] <= offset)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* UTF-16 code units of the character a UTF-8 lead byte starts: a 4-byte
 * sequence is two (a surrogate pair); an invalid byte one, as an editor
 * shows it (U+FFFD). A continuation byte is part of its lead's. */
static size_t units_of_lead(unsigned char b)
{
	return b >= 0xF0 && b <= 0xF4 ? 2 : 1;
}

static size_t utf16_units(const char *from, const char *to)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)from; p < (const unsigned char *)to; p++)
		if ((*p & 0xC0) != 0x80)
			n += units_of_lead(*p);
	return n;
}

json_t *lsp_position(const text_lines *tl, size_t offset, bool utf8)
{
	if (offset > tl->len)
		offset = tl->len;
	size_t line = line_of(tl, offset), start = tl->starts[line];
	size_t ch = utf8 ? offset - start : utf16_units(tl->text + start, tl->text + offset);
	return json_pack("{s:I, s:I}", "line", (json_int_t)line, "character", (json_int_t)ch);
}

json_t *lsp_range(const text_lines *tl, size_t start, size_t end, bool utf8)
{
	return json_pack("{s:o, s:o}", "start", lsp_position(tl, start, utf8), "end", lsp_position(tl, end, utf8));
}

bool lsp_offset(const text_lines *tl, const json_t *pos, bool utf8, size_t *offset)
{
	json_t *l = json_object_get(pos, "line"), *c = json_object_get(pos, "character");
	if (!json_is_integer(l) || !json_is_integer(c) || json_integer_value(l) < 0 || json_integer_value(c) < 0)
		return false;
	size_t line = (size_t)json_integer_value(l), ch = (size_t)json_integer_value(c);
	if (line >= tl->n) {
		*offset = tl->len;
		return true;
	}
	size_t p = tl->starts[line], end = line + 1 < tl->n ? tl->starts[line + 1] - 1 : tl->len;
	if (end > p && tl->text[end - 1] == '\r')
		end--;
	if (utf8) {
		*offset = p + ch < end ? p + ch : end;
		return true;
	}
	size_t units = 0;
	while (p < end && units < ch) {
		units += units_of_lead((unsigned char)tl->text[p]);
		p++;
		while (p < end && ((unsigned char)tl->text[p] & 0xC0) == 0x80)
			p++;
	}
	*offset = p;
	return true;
}

static int hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *lsp_uri_path(const char *uri)
{
	if (strncmp(uri, "file://", 7) != 0)
		return NULL;
	const char *p = uri + 7;
	if (strncmp(p, "localhost/", 10) == 0)
		p += 9;
	if (*p != '/')
		return NULL; /* file://host/...: another machine's file */
	size_t n = strlen(p);
	char *out = malloc(n + 1), *o = out;
	if (!out)
		abort();
	for (; *p && *p != '?' && *p != '#'; p++) {
		if (*p == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0) {
			int c = hex(p[1]) * 16 + hex(p[2]);
			if (!c) {
				free(out);
				return NULL;
			}
			*o++ = (char)c;
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

char *lsp_path_uri(const char *path)
{
	size_t n = strlen(path);
	char *out = malloc(7 + 3 * n + 1), *o = out;
	if (!out)
		abort();
	memcpy(o, "file://", 7);
	o += 7;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/-._~", *p);
		if (plain) {
			*o++ = (char)*p;
		} else {
			static const char digits[] = "0123456789ABCDEF";
			*o++ = '%';
			*o++ = digits[*p >> 4];
			*o++ = digits[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

/* The length of the valid UTF-8 sequence at p (0: invalid). */
static size_t utf8_seq(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n = p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3 : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	if ((n == 3 && p[0] == 0xE0 && p[1] < 0xA0) || (n == 3 && p[0] == 0xED && p[1] >= 0xA0) ||
	    (n == 4 && p[0] == 0xF0 && p[1] < 0x90) || (n == 4 && p[0] == 0xF4 && p[1] >= 0x90))
		return 0; /* overlong, a surrogate, or above U+10FFFF */
	return n;
}

json_t *lsp_text(const char *text)
{
	json_t *j = json_string(text);
	if (j)
		return j;
	size_t n = strlen(text);
	char *out = malloc(3 * n + 1), *o = out;
	if (!out)
		abort();
	for (const unsigned char *p = (const unsigned char *)text; *p;) {
		size_t k = utf8_seq(p);
		if (k) {
			memcpy(o, p, k);
			o += k;
			p += k;
		} else {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			p++;
		}
	}
	*o = '\0';
	j = json_string(out);
	free(out);
	return j ? j : json_string("");
}
