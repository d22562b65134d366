/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* strmap.h - string -> pointer hash map in the arena (open addressing). */
#ifndef DSLC_STRMAP_H
#define DSLC_STRMAP_H

#include <stddef.h>

#include "arena.h"

typedef struct strmap_slot {
	const char *key;
	void *value;
} strmap_slot;

typedef struct strmap {
	arena *ar;
	strmap_slot *slots;
	size_t cap, n;
} strmap;

void strmap_init(strmap *m, arena *ar);
void *strmap_get(const strmap *m, const char *key);
/* Returns the previous value (NULL when the key was new). */
void *strmap_put(strmap *m, const char *key, void *value);

#endif
