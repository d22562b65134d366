/* plan.h - `dslc plan`: what a change to a description does to the fleet.
 * The new description is compiled and rendered in memory, compared file by
 * file (semantically: semdiff.h) with an existing output tree or with the
 * rendering of an old description, and every difference is classified by the
 * disruption table (schemas/disruption.def) and grouped: one group per file,
 * key and class, one line per distinct old -> new value with the hosts it
 * applies to, compressed back to host lists. */
#ifndef DSLC_PLAN_H
#define DSLC_PLAN_H

#include <stdbool.h>
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

extern const disruption_class_info disruption_classes[DC__COUNT];
extern const disruption_rule disruption_rules[];
extern const size_t disruption_rule_count;

/* The class of a change to `key` ("" = the whole file) of a file of target. */
disruption_class disruption_of(const char *target, const char *key);
/* The table as markdown, for SPEC.md (`dslc disruptions --markdown`). */
void disruption_print_markdown(FILE *out);

typedef enum plan_format { PLAN_TEXT, PLAN_MARKDOWN, PLAN_JSON } plan_format;

typedef struct plan_opts {
	const char *file;           /* the new description */
	const char *against_dir;    /* an output tree (its manifest.json lists its files) */
	const char *against_source; /* or an old description */
	plan_format format;
	bool colour;
	unsigned max_values; /* distinct old -> new values printed per group (0: all) */
} plan_opts;

/* Exit status: 0 no change, 3 changes, 4 changes with a class that is an
 * error (reformat, node-removed, pool- or container-immutable), 1 findings
 * that stop compiling either side, 2 usage or I/O errors. */
enum { PLAN_SAME = 0, PLAN_ERRORS = 1, PLAN_IO = 2, PLAN_CHANGES = 3, PLAN_DANGER = 4 };
int plan_run(const plan_opts *o, const char *version);

#endif
