/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* clients.h - what a node gets as a DAOS client: its dfuse mounts and the
 * NCCL HCA list that keeps collectives off the storage NICs. */
#ifndef DSLC_CLIENTS_H
#define DSLC_CLIENTS_H

#include "place.h"

/* The mounts of node i (an index of model.nodes), in description order,
 * without a list per node (targets ask for them once per file):
 *   for (size_t k = 0; (mt = clients_next_mount(m, i, &k));)
 * gives the next mount at or after model.mounts[*k], NULL past the last. */
const mount_spec *clients_next_mount(const model *m, size_t i, size_t *k);

/* etc/nccl.conf's NCCL_IB_HCA for a spec, or NULL when it gets none (nccl
 * off, or unset and no compute NIC described) or no list can be made
 * (lint's nccl-hca says why). "=mlx5_2,mlx5_3": the compute NICs' RDMA
 * devices, exactly; "^=mlx5_0,mlx5_1": every device but the storage NICs'.
 * '=' because NCCL matches prefixes otherwise (mlx5_1 would take mlx5_10). */
const char *clients_nccl_hca(arena *a, const node_spec *s);
/* The storage NIC a compute NIC also is (its PCI function or RDMA device),
 * or NULL. */
const nic_desc *clients_also_storage(const hardware *hw, const nic_desc *n);
/* The spec asks for etc/nccl.conf (explicitly or by naming compute NICs). */
bool clients_nccl_wanted(const node_spec *s);

/* The ROMIO hints file of a mount's `mpiio` block, "key value" lines as
 * ROMIO reads them (romio/adio/common/system_hints.c: one hint per line, no
 * space inside a value, '#' comments, the first 4 KiB), or NULL without one. */
const char *clients_romio_hints(arena *a, const mount_spec *mt);
/* The first mount of node i with an `mpiio` block (hdf5: with `hdf5_vol`),
 * or NULL; mpiio-conflict keeps a node's mounts to one of each. */
const mount_spec *clients_io_mount(const model *m, size_t i, bool hdf5);
/* Two mounts of one node both give `mpiio` (hdf5: `hdf5_vol`), differently. */
bool clients_io_conflict(arena *a, const mount_spec *x, const mount_spec *y, bool hdf5);

#endif
