/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "strmap.h"

#include <string.h>

void strmap_init(strmap *m, arena *ar)
{
	m->ar = ar;
	m->slots = NULL;
	m->cap = m->n = 0;
}

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

void *strmap_get(const strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->slots[i].key)
			return NULL;
		if (strcmp(m->slots[i].key, key) == 0)
			return m->slots[i].value;
	}
}

static void grow(strmap *m)
{
	size_t nc = m->cap ? m->cap * 2 : 64;
	strmap_slot *ns = arena_alloc(m->ar, nc * sizeof(*ns));
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		size_t j = hash(m->slots[i].key) & (nc - 1);
		while (ns[j].key)
			j = (j + 1) & (nc - 1);
		ns[j] = m->slots[i];
	}
	m->slots = ns;
	m->cap = nc;
}

void *strmap_put(strmap *m, const char *key, void *value)
{
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	size_t i = hash(key) & (m->cap - 1);
	while (m->slots[i].key) {
		if (strcmp(m->slots[i].key, key) == 0) {
			void *old = m->slots[i].value;
			m->slots[i].value = value;
			return old;
		}
		i = (i + 1) & (m->cap - 1);
	}
	m->slots[i].key = key;
	m->slots[i].value = value;
	m->n++;
	return NULL;
}
