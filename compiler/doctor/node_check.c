/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* node_check.c - one node: its files rendered as the build renders them,
 * then every check in order (the machine first: a machine of another node
 * type is one finding, not every difference). doctor.c runs it for one
 * node, fleet.c for each node of a fleet. */
#include <string.h>

#include "checks.h"

static int keep_file(void *ctx, const rendered *f)
{
	doctor_ctx *c = ctx;
	rendered r = *f;
	r.path = arena_strdup(c->ar, f->path);
	r.data = arena_strndup(c->ar, f->data, f->len);
	ARENA_PUSH(c->ar, c->files, c->nfiles, c->files_cap, r);
	return 0;
}

bool doctor_render(doctor_ctx *c, render_memo *memo)
{
	return render_node(c->m, c->nd, c->ar, memo, keep_file, c) == 0;
}

void doctor_check(doctor_ctx *c)
{
	if (!c->topo && !c->topo_unchecked) {
		rootfs_file f = {.status = ROOTFS_ABSENT};
		doctor_unchecked(c, "the machine (NUMA nodes, cores, memory, NICs, drives)", "dslc-topology.xml", &f);
	}
	if (doctor_check_other_type(c))
		return;
	doctor_check_machine(c);
	doctor_check_pmem(c);
	doctor_check_kernel(c);
	doctor_check_network(c);
	doctor_check_files(c);
}
