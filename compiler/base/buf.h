/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* buf.h - a growable byte buffer for rendered artifacts (heap, not arena:
 * artifacts are rendered, hashed, written and dropped one node at a time so
 * memory stays bounded per node). */
#ifndef DSLC_BUF_H
#define DSLC_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct buf {
	char *data;
	size_t len, cap;
} buf;

void buf_init(buf *b);
void buf_free(buf *b);
void buf_reset(buf *b);
void buf_add(buf *b, const void *p, size_t n);
void buf_puts(buf *b, const char *s);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes all n bytes to fd (short writes and EINTR retried): 0, or -1
 * with errno set. */
int write_all(int fd, const void *data, size_t n);
/* Reads n bytes at offset off (short reads and EINTR retried): the bytes
 * read, fewer than n at the end of the file or on an error. */
size_t pread_all(int fd, void *data, size_t n, uint64_t off);

#endif
