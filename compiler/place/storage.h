/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* storage.h - an engine's drives and NVMe tiers (placement). */
#ifndef DSLC_STORAGE_H
#define DSLC_STORAGE_H

#include "node_plan.h"

/* The node excludes the drive (`exclude nvme`). */
bool storage_excluded(const node_spec *s, const char *pci);
/* Reports exclusions of drives the hardware does not have. */
void storage_check_excluded(model *m, const node_spec *s);
/* The engine's drives (ep->nvmes, tier by tier) and its tiers; errors go to
 * the model's diagnostics and clear p->ok. */
void storage_drives(model *m, node_plan *p, engine_plan *ep);
/* `nvme file PATH... size N`: the engine's emulated bdev tier instead. */
void storage_files(model *m, node_plan *p, engine_plan *ep);

/* A PMem engine's namespace (ep->scm_device): the one named, or the one
 * local to its NUMA node, or /dev/pmem<socket> when the hardware names none. */
void storage_pmem(model *m, node_plan *p, engine_plan *ep);
/* What DAOS wants the same or different across a node's engines: one SCM
 * class, a namespace each. */
void storage_cross_engine(model *m, node_plan *p);

#endif
