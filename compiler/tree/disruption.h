/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* disruption.h - the disruption table (schemas/disruption.def): what a
 * change to a key of a target's file does to a node, and each class's steps.
 * Read by the manifest (each file's on_change class), by `dslc plan` (every
 * difference) and by `dslc disruptions` (SPEC.md's table). */
#ifndef DSLC_DISRUPTION_H
#define DSLC_DISRUPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum disruption_class {
#define CLASS(e, id, rank, error, steps) e,
#include "schemas/disruption.def"
#undef CLASS
	DC__COUNT
} disruption_class;

typedef struct disruption_class_info {
	const char *id;
	int rank;
	bool error; /* the plan exits 4: data loss, or a change that cannot be applied */
	const char *steps;
} disruption_class_info;

typedef struct disruption_rule {
	const char *target, *key;
	disruption_class cls;
	const char *source;
} disruption_rule;

/* Where a coupled step applies. */
typedef enum coupling_scope {
	CS_AGENTS,       /* every node that runs daos_agent */
	CS_NODE_KUBELET, /* the same node, when it has a kubelet drop-in */
	CS_MOUNTS,       /* every dfuse mount of the new description, on each of its nodes */
} coupling_scope;

typedef struct disruption_coupling {
	const char *target, *key; /* the change that needs it: a key and what lies below */
	coupling_scope scope;
	disruption_class cls;
	const char *source;
} disruption_coupling;

extern const disruption_class_info disruption_classes[DC__COUNT];
extern const disruption_coupling disruption_couplings[];
extern const size_t disruption_coupling_count;
/* The first coupling at or after index from that a change to `key` of a
 * file of target needs, or -1 (a change may need several: agents and mounts). */
int disruption_coupling_of(const char *target, const char *key, size_t from);
extern const disruption_rule disruption_rules[];
extern const size_t disruption_rule_count;

/* The class of a change to `key` ("" = the whole file) of a file of target. */
disruption_class disruption_of(const char *target, const char *key);
/* Copies key into out (at most size bytes with the NUL) with the inside of
 * its brackets dropped: every bracket ("pools[tier0]" -> "pools[]"), or only
 * numeric ones ("engines[1]" -> "engines[]", a label stays). */
void disruption_fold_brackets(char *out, size_t size, const char *key, bool labels);
/* The table as markdown, for SPEC.md (`dslc disruptions --markdown`). */
void disruption_print_markdown(FILE *out);

#endif
