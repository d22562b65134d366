/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* show.h - `dslc show NODE`: a node's resolved plan, per NUMA node. */
#ifndef DSLC_SHOW_H
#define DSLC_SHOW_H

#include <stdio.h>

#include "compiler/model/model.h"

void show_node_text(const model *m, const node *nd, FILE *out);
/* Returns 0, or 2 when the JSON cannot be written. */
int show_node_json(const model *m, const node *nd, FILE *out);

#endif
