/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* checks.h - one node held against its description: what the checks share.
 * Each check reads the node through the context (so --collect records what
 * was read), reports drift at the description's line, and says what it
 * could not read as a node-unchecked note.
 *
 * The room's floors: doctor.c (the command) runs node_check.c for one node
 * or fleet.c for many; node_check.c runs the checks (machine.c, pmem.c,
 * kernel.c, network.c, files.c); every check reads through node_read.c,
 * reports through report.c and matches NUMA nodes through numa_map.c, which
 * call nothing above them. */
#ifndef DSLC_DOCTOR_CHECKS_H
#define DSLC_DOCTOR_CHECKS_H

#include "compiler/model/model.h"
#include "compiler/place/node_plan.h"
#include "compiler/tree/render.h"
#include "rootfs.h"

/* What was read, in order: --collect writes it back as a root. */
typedef enum seen_kind { SEEN_FILE, SEEN_LINK, SEEN_DIR, SEEN_EXISTS } seen_kind;
typedef struct seen {
	seen_kind kind;
	const char *rel;
	const char *data; /* FILE: the bytes; LINK: the target's name */
	size_t len;
	unsigned mode;
	const char **names; /* DIR: the entries */
	int nnames;
} seen;

typedef struct doctor_ctx {
	arena *ar;
	const model *m;
	const node *nd;
	const node_plan *p;
	diag_ctx *dc;
	rootfs *root;
	const topology *topo; /* the machine as hwloc reads it; NULL when it could not be */
	bool strict;
	rendered *files; /* the node's built tree */
	size_t nfiles, files_cap;
	bool topo_unchecked; /* the machine's note is given already (why it was not read) */
	bool numa_changed;   /* the machine's NUMA layout is not its node type's (said once) */
	bool cores_changed;  /* a NUMA node's core count is not its node type's (said) */
	struct strmap *modes; /* a snapshot's recorded modes (rel -> mode + 1), NULL under another root */
	bool modes_unknown;   /* the snapshot's modes could not be read: no mode is compared */
	seen *seen; /* NULL unless collecting */
	size_t nseen, seen_cap;
	bool collecting;
} doctor_ctx;

/* Bounds: a proc or sys file that passes them is not one (a hostile root). */
enum { DOCTOR_MAX_PROC = 1 << 20, DOCTOR_MAX_SYS = 64 * 1024, DOCTOR_MAX_FILE = 16 << 20 };

/* ---- node_read.c ---- */

/* Reads rel under the root (recorded when collecting). */
rootfs_file doctor_read(doctor_ctx *c, const char *rel, size_t max);
/* A link's target name (a sysfs driver), NULL when there is none. */
const char *doctor_link(doctor_ctx *c, const char *rel, int *err);
/* Entries of a directory, -1 with *err. */
int doctor_list(doctor_ctx *c, const char *rel, const char **names, int max, int *err);
/* rel exists (a sysfs adjacency link, a bonding directory). */
bool doctor_exists(doctor_ctx *c, const char *rel);
/* rel as the node names it: "/proc/cmdline" on the node, "ROOT/proc/cmdline"
 * under --root. */
const char *doctor_path(const doctor_ctx *c, const char *rel);

/* ---- report.c ---- */

/* A drift finding, its message prefixed with the node's name. */
diag *doctor_report(doctor_ctx *c, rule_id rule, src_loc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* What could not be checked and why (a note; an error with --strict). */
void doctor_unchecked(doctor_ctx *c, const char *what, const char *rel, const rootfs_file *f);
/* The node's own line: where a finding without a better place points. */
src_loc doctor_node_loc(const doctor_ctx *c);
/* 755.3 GiB: a size for a message. */
const char *doctor_size(arena *a, uint64_t bytes);
/* The first of two locations that is set. */
src_loc doctor_loc_or(src_loc a, src_loc b);

/* ---- numa_map.c ---- */

/* NUMA nodes with cores in t: the ones matched between the machine and its
 * node type (numa_map.c). */
int doctor_cpu_numas(const topology *t);
/* The index of t's rank-th NUMA node with cores, -1 when there is none. */
int doctor_nth_cpu_numa(const topology *t, int rank);
/* Threads per core of t's NUMA node n (its first core's; 0 without cores). */
int doctor_threads_per_core(const topology *t, int n);
/* a and b have the same NUMA nodes with cores, in order, each with as many
 * cores and threads per core: one machine type's shape. */
bool doctor_same_shape(const topology *a, const topology *b);
/* The machine's NUMA node (logical index) that is the node type's
 * type_numa, matched among NUMA nodes with cores; -1 when there is none
 * (no machine, a changed layout, a NUMA node without cores). */
int doctor_machine_numa(const doctor_ctx *c, int type_numa);
/* The node type's NUMA node that is the machine's machine_numa; a
 * negative TOPO_NUMA_* passes through, TOPO_NUMA_UNKNOWN when there is none. */
int doctor_type_numa(const doctor_ctx *c, int machine_numa);

/* ---- node_check.c ---- */

/* The node's files as the build renders them (memo: shared per spec);
 * false when a target refused. */
bool doctor_render(doctor_ctx *c, render_memo *memo);
/* Every check; c->topo NULL: the machine's part is a note. */
void doctor_check(doctor_ctx *c);

/* ---- the checks ---- */

/* The machine is another node type of the description, not this node's
 * (a snapshot taken on another node): said once, and true (no other check
 * has anything to say then). */
bool doctor_check_other_type(doctor_ctx *c);
void doctor_check_machine(doctor_ctx *c);
void doctor_check_pmem(doctor_ctx *c);
void doctor_check_kernel(doctor_ctx *c);
void doctor_check_network(doctor_ctx *c);
void doctor_check_files(doctor_ctx *c);

#endif
