/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "buf.h"

#include <errno.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void buf_init(buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void buf_free(buf *b)
{
	free(b->data);
	buf_init(b);
}

void buf_reset(buf *b)
{
	b->len = 0;
}

static void buf_reserve(buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t nc = b->cap ? b->cap : 256;
	while (nc < b->len + extra + 1)
		nc *= 2;
	char *p = realloc(b->data, nc);
	if (!p) {
		fputs("dslc: out of memory\n", stderr);
		exit(2);
	}
	b->data = p;
	b->cap = nc;
}

void buf_add(buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Formats into the room the buffer has and again only when it was too
 * small: rendering is mostly buf_printf, and measuring every string first
 * doubled its cost. A format without '%' is copied. */
void buf_printf(buf *b, const char *fmt, ...)
{
	if (!strchr(fmt, '%')) {
		buf_puts(b, fmt);
		return;
	}
	buf_reserve(b, 128);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n <= 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		buf_reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

int write_all(int fd, const void *data, size_t n)
{
	const char *p = data;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

size_t pread_all(int fd, void *data, size_t n, uint64_t off)
{
	char *p = data;
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, p + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}
