/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* arena.c - bump allocator in chained blocks. */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
	arena_block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

enum { ARENA_BLOCK_MIN = 64 * 1024 };

void arena_init(arena *a)
{
	a->head = NULL;
	a->total = 0;
}

void arena_free(arena *a)
{
	arena_block *b = a->head;
	while (b) {
		arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}

void *arena_alloc(arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	arena_block *b = a->head;
	if (!b || b->size - b->used < size) {
		size_t bs = size > ARENA_BLOCK_MIN ? size : ARENA_BLOCK_MIN;
		b = malloc(sizeof(*b) + bs);
		if (!b) {
			fputs("dslc: out of memory\n", stderr);
			exit(2);
		}
		b->size = bs;
		b->used = 0;
		/* A large one-off block goes behind the head so the head's
		 * free space is not wasted. */
		if (a->head && size > ARENA_BLOCK_MIN) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	void *p = b->data + b->used;
	b->used += size;
	a->total += size;
	memset(p, 0, size);
	return p;
}

void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size)
{
	void *p = arena_alloc(a, new_size);
	if (old && old_size)
		memcpy(p, old, old_size < new_size ? old_size : new_size);
	return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

/* Formats into the head block's free space and again only when it does
 * not fit: paths and names are printed per file of every node. */
char *arena_vprintf(arena *a, const char *fmt, va_list ap)
{
	arena_block *b = a->head;
	if (b && b->used < b->size) {
		char *p = (char *)b->data + b->used;
		size_t room = b->size - b->used; /* a multiple of 16, like every size */
		va_list ap2;
		va_copy(ap2, ap);
		int n = vsnprintf(p, room, fmt, ap2);
		va_end(ap2);
		if (n >= 0 && (size_t)n < room) {
			size_t size = ((size_t)n + 16) & ~(size_t)15; /* n bytes and the NUL */
			b->used += size;
			a->total += size;
			return p;
		}
	}
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0;
	char *p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *arena_printf(arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}
