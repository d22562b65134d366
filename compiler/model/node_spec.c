/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* node_spec.c - copy-on-write node specs: a profile's or node's block
 * writes into its own copy, never into the spec it inherits from. */
#include <string.h>

#include "kw.h"

static void *dup_array(arena *a, const void *p, size_t n, size_t size)
{
	return n ? arena_grow(a, (void *)p, n * size, n * size) : NULL;
}

#define DUP_LIST(a, items, n, cap)                                            \
	do {                                                                  \
		(items) = dup_array((a), (items), (n), sizeof(*(items)));     \
		(cap) = (n);                                                  \
	} while (0)

/* Later blocks write into a copy, never into the spec they inherit from. */
node_spec *spec_copy(arena *a, const node_spec *src)
{
	node_spec *s = arena_alloc(a, sizeof(*s));
	*s = *src;
	s->plan = NULL;
	s->used = false;
	s->registered = false;
	DUP_LIST(a, s->excluded, s->nexcluded, s->excluded_cap);
	DUP_LIST(a, s->storage, s->nstorage, s->storage_cap);
	DUP_LIST(a, s->env.items, s->env.n, s->env.cap);
	DUP_LIST(a, s->kernel.params.items, s->kernel.params.n, s->kernel.params.cap);
	DUP_LIST(a, s->bios.items, s->bios.n, s->bios.cap);
	s->env.index = s->kernel.params.index = s->bios.index = NULL; /* rebuilt for the copy when needed */
	s->eng_own = 0; /* engines stay shared until written */
	return s;
}

engine_spec *spec_engine(arena *a, node_spec *s, int n)
{
	if (s->eng_own >> n & 1)
		return s->eng[n];
	engine_spec *e = arena_alloc(a, sizeof(*e));
	if (s->eng[n]) {
		*e = *s->eng[n];
		DUP_LIST(a, e->env.items, e->env.n, e->env.cap);
		e->env.index = NULL;
		DUP_LIST(a, e->drives, e->ndrives, e->drives_cap);
	}
	s->eng[n] = e;
	s->eng_own |= 1ULL << n;
	return e;
}

