/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* pools.h - pools and containers: redundancy goals compiled into object
 * classes, rd_fac, cell and chunk sizes for the fault domains the cluster
 * really has, and the rules on explicit values. */
#ifndef DSLC_POOLS_H
#define DSLC_POOLS_H

#include "compiler/model/model.h"

/* Needs placement (the engine count). Findings go to the model's diagnostics,
 * a mount's romio_daos_obj_class's too (checked as its container's classes). */
void pools_plan(model *m);

/* Formats a byte count with the largest binary unit that divides it
 * ("8MiB"): DAOS's size parser reads K, M, G as decimal units. */
const char *pools_size(arena *a, uint64_t bytes);

#endif
