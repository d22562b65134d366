/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fabric.h - which network interfaces can carry the cluster's storage
 * fabric: the link type `fabric` names and what the provider needs. One
 * table read by `nic auto` (which NICs get role storage), placement (which
 * NIC an engine takes) and the YAML linter. */
#ifndef DSLC_FABRIC_H
#define DSLC_FABRIC_H

#include <stdbool.h>

#include "compiler/base/arena.h"
#include "model.h"

typedef struct fabric_need {
	const char *link;     /* a TOPO_LINK_* the interface must have; NULL: any */
	const char *link_why; /* "the cluster's fabric is infiniband" */
	bool rdma;            /* needs an RDMA device (verbs, UCX) */
	const char *rdma_why; /* "provider ofi+verbs;ofi_rxm needs one" */
	/* The provider's domain is a device beside the interface (mlx5_0, cxi0,
	 * hfi1_0: DAOS's daos_agent/fabric.go fabricInterfacesFromHardware);
	 * an example of its name, NULL when the interface is its own (tcp). */
	const char *domain;
} fabric_need;

fabric_need fabric_need_of(const cluster_spec *c);

/* NULL when an interface with this link type (NULL: not known, as for a
 * hand description without an export) and RDMA device (NULL: none known)
 * can carry the fabric; else why not, naming the interface. */
const char *fabric_misfit(arena *a, const fabric_need *f, const char *ifname, const char *link, const char *rdma,
			  bool rdma_known);

#endif
