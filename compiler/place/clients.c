/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* clients.c - see clients.h. */
#include "clients.h"

#include <stdio.h>
#include <string.h>

#include "compiler/base/buf.h"

const mount_spec *clients_next_mount(const model *m, size_t i, size_t *k)
{
	while (*k < m->nmounts) {
		const mount_spec *mt = m->mounts[(*k)++];
		if (mt->container_set && mount_on(mt, i))
			return mt;
	}
	return NULL;
}

static bool has_role(const nic_desc *n, const char *role)
{
	return n->role && strcmp(n->role, role) == 0;
}

bool clients_nccl_wanted(const node_spec *s)
{
	if (s->nccl.set)
		return strcmp(s->nccl.v, "on") == 0;
	for (size_t i = 0; s->hw && i < s->hw->nnics; i++)
		if (has_role(&s->hw->nics[i], "compute"))
			return true;
	return false;
}

/* A compute NIC that is a storage NIC too (one PCI function or one RDMA
 * device described twice): never listed for NCCL, whatever lint says. */
const nic_desc *clients_also_storage(const hardware *hw, const nic_desc *n)
{
	for (size_t j = 0; j < hw->nnics; j++) {
		const nic_desc *o = &hw->nics[j];
		if (o == n || !has_role(o, "storage"))
			continue;
		if ((n->pci[0] && strcmp(o->pci, n->pci) == 0) || (o->rdma && n->rdma && strcmp(o->rdma, n->rdma) == 0))
			return o;
	}
	return NULL;
}

/* Appends the RDMA devices of the NICs of a role, each once; false when one
 * is unknown. */
static bool devices(buf *b, const hardware *hw, const char *role, int *count)
{
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *n = &hw->nics[i];
		if (!has_role(n, role))
			continue;
		if (!n->rdma)
			return false;
		if (strcmp(role, "compute") == 0 && clients_also_storage(hw, n))
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = has_role(&hw->nics[j], role) && hw->nics[j].rdma && strcmp(hw->nics[j].rdma, n->rdma) == 0;
		if (!seen)
			buf_printf(b, "%s%s", (*count)++ ? "," : "", n->rdma);
	}
	return true;
}

const char *clients_nccl_hca(arena *a, const node_spec *s)
{
	if (!s->hw || !clients_nccl_wanted(s))
		return NULL;
	buf b;
	buf_init(&b);
	int compute = 0, storage = 0;
	bool ok = devices(&b, s->hw, "compute", &compute);
	const char *out = NULL;
	if (ok && compute) {
		out = arena_printf(a, "=%.*s", (int)b.len, b.data);
	} else if (ok) {
		buf_reset(&b);
		if (devices(&b, s->hw, "storage", &storage) && storage)
			out = arena_printf(a, "^=%.*s", (int)b.len, b.data);
	}
	buf_free(&b);
	return out;
}

const char *clients_romio_hints(arena *a, const mount_spec *mt)
{
	const struct mpiio_spec *h = &mt->mpiio;
	if (!h->set)
		return NULL;
	buf b;
	buf_init(&b);
	const struct { const char *key; const opt_str *v; } words[] = {
		{"romio_cb_read", &h->cb_read}, {"romio_cb_write", &h->cb_write},
		{"romio_ds_read", &h->ds_read}, {"romio_ds_write", &h->ds_write},
		{"romio_daos_obj_class", &h->obj_class}, {"cb_config_list", &h->cb_config_list},
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (words[i].v->set)
			buf_printf(&b, "%s %s\n", words[i].key, words[i].v->v);
	const struct { const char *key; const opt_int *v; } ints[] = {
		{"cb_buffer_size", &h->cb_buffer_size}, {"cb_nodes", &h->cb_nodes},
		{"romio_daos_chunk_size", &h->chunk_size}, {"striping_unit", &h->striping_unit},
	};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (ints[i].v->set)
			buf_printf(&b, "%s %lld\n", ints[i].key, (long long)ints[i].v->v);
	const char *r = arena_strdup(a, b.data ? b.data : "");
	buf_free(&b);
	return r;
}

const mount_spec *clients_io_mount(const model *m, size_t i, bool hdf5)
{
	const mount_spec *mt;
	for (size_t k = 0; (mt = clients_next_mount(m, i, &k));)
		if (hdf5 ? mt->hdf5_vol.set : mt->mpiio.set)
			return mt;
	return NULL;
}

bool clients_io_conflict(arena *a, const mount_spec *x, const mount_spec *y, bool hdf5)
{
	if (hdf5)
		return x->hdf5_vol.set && y->hdf5_vol.set && strcmp(x->hdf5_vol.v, y->hdf5_vol.v) != 0;
	return x->mpiio.set && y->mpiio.set && strcmp(clients_romio_hints(a, x), clients_romio_hints(a, y)) != 0;
}
