/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* A shim of gurt's hash table as validate_aces uses it (find, insert,
 * destroy): a list searched with the table's own key comparison. */
#ifndef SHIM_GURT_HASH_H
#define SHIM_GURT_HASH_H
#include "common.h"

struct d_hash_table;
typedef struct d_hash_table_ops {
	uint32_t (*hop_key_hash)(struct d_hash_table *, const void *, unsigned int);
	bool (*hop_key_cmp)(struct d_hash_table *, d_list_t *, const void *, unsigned int);
	void (*hop_rec_addref)(struct d_hash_table *, d_list_t *);
	bool (*hop_rec_decref)(struct d_hash_table *, d_list_t *);
	void (*hop_rec_free)(struct d_hash_table *, d_list_t *);
} d_hash_table_ops_t;

struct d_hash_table {
	d_list_t head;
	d_hash_table_ops_t ops;
	uint32_t ht_bits;
};
enum { D_HASH_FT_NOLOCK = 1 };

static inline int d_hash_table_create_inplace(uint32_t f, uint32_t bits, void *priv, d_hash_table_ops_t *ops,
					      struct d_hash_table *t)
{
	(void)f; (void)priv;
	t->ops = *ops;
	t->ht_bits = bits;
	D_INIT_LIST_HEAD(&t->head);
	return 0;
}

static inline d_list_t *d_hash_rec_find(struct d_hash_table *t, const void *key, unsigned int ksize)
{
	for (d_list_t *l = t->head.next; l != &t->head; l = l->next)
		if (t->ops.hop_key_cmp(t, l, key, ksize)) {
			t->ops.hop_rec_addref(t, l);
			return l;
		}
	return NULL;
}

static inline int d_hash_rec_insert(struct d_hash_table *t, const void *key, unsigned int ksize, d_list_t *link,
				    bool exclusive)
{
	if (exclusive && d_hash_rec_find(t, key, ksize))
		return -DER_INVAL;
	t->ops.hop_rec_addref(t, link);
	link->next = t->head.next;
	link->prev = &t->head;
	t->head.next->prev = link;
	t->head.next = link;
	return 0;
}

static inline int d_hash_table_destroy_inplace(struct d_hash_table *t, bool force)
{
	(void)force;
	d_list_t *l = t->head.next;
	while (l != &t->head) {
		d_list_t *next = l->next;
		t->ops.hop_rec_free(t, l);
		l = next;
	}
	return 0;
}

static inline uint32_t d_hash_string_u32(const char *s, unsigned int n)
{
	uint32_t h = 5381;
	for (unsigned int i = 0; i < n; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}
#endif
