/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fabric.c - the storage fabric's needs, as data. Sources: libfabric's
 * providers (man/fi_verbs.7.md: verbs needs an RDMA device, InfiniBand or
 * RoCE/iWARP on Ethernet; fi_cxi.7.md: HPE Slingshot's Cassini NICs;
 * fi_opx.7.md and fi_psm2.7.md: Omni-Path), UCX (an RDMA device, DAOS's
 * src/cart/crt_hg.c "ucx+" providers), fi_tcp.7.md (any IP interface). */
#include <string.h>

#include "fabric.h"
#include "topology.h"

/* What a fabric kind (or a provider prefix) needs of an interface. */
typedef struct fabric_row {
	const char *name;
	const char *link;
	bool rdma;
	const char *domain; /* the device that is a NIC's libfabric domain, as an example */
} fabric_row;

static const fabric_row fabric_kinds[] = {
	{"infiniband", TOPO_LINK_INFINIBAND, true, NULL},
	{"roce", TOPO_LINK_ETHERNET, true, NULL},
	{"ethernet", TOPO_LINK_ETHERNET, false, NULL},
	{"slingshot", TOPO_LINK_SLINGSHOT, false, NULL},
	{"omnipath", TOPO_LINK_OMNIPATH, false, NULL},
};

static const fabric_row fabric_providers[] = {
	{"ofi+verbs", NULL, true, "mlx5_0"},
	{"ucx+", NULL, true, "mlx5_0"},
	{"ofi+cxi", TOPO_LINK_SLINGSHOT, false, "cxi0"},
	{"ofi+opx", TOPO_LINK_OMNIPATH, false, "hfi1_0"},
	{"ofi+psm2", TOPO_LINK_OMNIPATH, false, "hfi1_0"},
};

fabric_need fabric_need_of(const cluster_spec *c)
{
	fabric_need f = {0};
	if (c->fabric_kind.set)
		for (size_t i = 0; i < sizeof(fabric_kinds) / sizeof(fabric_kinds[0]); i++)
			if (strcmp(c->fabric_kind.v, fabric_kinds[i].name) == 0) {
				f.link = fabric_kinds[i].link;
				f.link_why = "the cluster's fabric is";
				f.rdma = fabric_kinds[i].rdma;
				f.rdma_why = "the cluster's fabric needs one";
			}
	if (c->provider.set)
		for (size_t i = 0; i < sizeof(fabric_providers) / sizeof(fabric_providers[0]); i++)
			if (strncmp(c->provider.v, fabric_providers[i].name, strlen(fabric_providers[i].name)) == 0) {
				if (!f.link && fabric_providers[i].link) {
					f.link = fabric_providers[i].link;
					f.link_why = "the provider needs";
				}
				f.domain = fabric_providers[i].domain;
				if (!f.rdma && fabric_providers[i].rdma) {
					f.rdma = true;
					f.rdma_why = "the provider needs one";
				}
			}
	return f;
}

static const char *article(const char *word)
{
	return strchr("aeiou", word[0]) ? "an" : "a";
}

const char *fabric_misfit(arena *a, const fabric_need *f, const char *ifname, const char *link, const char *rdma,
			  bool rdma_known)
{
	if (f->link && link && strcmp(f->link, link) != 0)
		return arena_printf(a, "%s is %s %s port; %s %s", ifname, article(link), link, f->link_why, f->link);
	if (f->rdma && rdma_known && !rdma)
		return arena_printf(a, "%s has no RDMA device; %s", ifname, f->rdma_why);
	return NULL;
}
