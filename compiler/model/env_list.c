/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* env_list.c - ordered NAME=value lists (engine env_vars, kernel
 * parameters, BIOS attributes): a later setting replaces an earlier one in
 * place, so the output keeps the order the description first gave. */
#include <string.h>

#include "model.h"

enum { ENV_INDEX_AFTER = 32 }; /* shorter lists are searched: cheaper than a map */

const env_entry *env_find(const env_list *l, const char *name)
{
	if (l->index) {
		size_t at = (size_t)strmap_get(l->index, name);
		return at ? &l->items[at - 1] : NULL;
	}
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i].name, name) == 0)
			return &l->items[i];
	return NULL;
}

void env_set(arena *a, env_list *l, const char *name, const char *value, src_loc loc)
{
	if (l->n >= ENV_INDEX_AFTER && !l->index) {
		l->index = arena_alloc(a, sizeof(*l->index));
		strmap_init(l->index, a);
		for (size_t i = 0; i < l->n; i++)
			strmap_put(l->index, l->items[i].name, (void *)(i + 1));
	}
	size_t at = 0;
	if (l->index) {
		at = (size_t)strmap_get(l->index, name);
	} else {
		for (size_t i = 0; i < l->n && !at; i++)
			if (strcmp(l->items[i].name, name) == 0)
				at = i + 1;
	}
	if (at) {
		l->items[at - 1].value = value;
		l->items[at - 1].loc = loc;
		return;
	}
	env_entry e = {name, value, loc};
	ARENA_PUSH(a, l->items, l->n, l->cap, e);
	if (l->index)
		strmap_put(l->index, name, (void *)l->n);
}
