/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* show.h - `dslc show NODE`: a node's resolved plan, per NUMA node. */
#ifndef DSLC_SHOW_H
#define DSLC_SHOW_H

#include <stdio.h>

#include "compiler/model/model.h"

/* The node runs a kubelet (a kubelet block, or daos_server in a pod): the
 * cores neither the OS nor an engine holds are its pods'. */
static inline bool show_runs_kubelet(const node_spec *s)
{
	return s->kubelet.set || spec_in_pods(s);
}

void show_node_text(const model *m, const node *nd, FILE *out);
/* Returns 0, or 2 when the JSON cannot be written. */
int show_node_json(const model *m, const node *nd, FILE *out);
/* The node as a self-contained SVG picture (show_svg.c); 0, or 2 when it
 * cannot be written. */
int show_node_svg(const model *m, const node *nd, FILE *out);

#endif
