/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* arena.h - one allocation policy: every object of a compilation lives in one
 * arena and is freed at once with arena_free(). Nothing else owns memory. */
#ifndef DSLC_ARENA_H
#define DSLC_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct arena_block arena_block;

typedef struct arena {
	arena_block *head;
	size_t total; /* bytes handed out, for the memory figures of make bench */
} arena;

void arena_init(arena *a);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t size);          /* zeroed, 16-aligned */
void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size);
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *arena_vprintf(arena *a, const char *fmt, va_list ap);

/* A growable array kept in the arena: ARENA_PUSH(a, items, n, cap, value). */
#define ARENA_PUSH(ar, items, n, cap, value)                                   \
	do {                                                                   \
		if ((n) == (cap)) {                                            \
			size_t nc_ = (cap) ? (size_t)(cap) * 2 : 8;            \
			(items) = arena_grow((ar), (items),                    \
					     (size_t)(cap) * sizeof(*(items)), \
					     nc_ * sizeof(*(items)));          \
			(cap) = nc_;                                           \
		}                                                              \
		(items)[(n)++] = (value);                                      \
	} while (0)

#endif
