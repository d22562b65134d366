/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rules.h - the rule registry (see rules.def). */
#ifndef DSLC_RULES_H
#define DSLC_RULES_H

#include <stdbool.h>
#include <stdio.h>

typedef enum diag_severity { SEV_NOTE, SEV_WARNING, SEV_ERROR } diag_severity;

typedef enum rule_id {
#define RULE(e, id, sev, cat, sum, expl, fix) e,
#include "rules.def"
#undef RULE
	R__COUNT
} rule_id;

typedef struct rule_info {
	rule_id rule;
	const char *id;
	diag_severity severity;
	const char *category;
	const char *summary;
	const char *explanation;
	const char *fix;
} rule_info;

extern const rule_info rule_table[R__COUNT];

const rule_info *rule_find(const char *id);
const char *severity_name(diag_severity s);
/* The severity severity_name gives that name (--fail-on, fail_on). */
bool severity_parse(const char *name, diag_severity *out);
/* The rule's stable anchor in SPEC.md's rule reference ("rule-" and its
 * id: `dslc rules --markdown` writes it before the rule's heading). */
#define RULE_ANCHOR_PREFIX "rule-"
/* Where the shipped documentation is (SPEC.md as the packages install it;
 * `make DOCS_URL=...` for a site's own copy), and a rule's place in it:
 * SARIF helpUri, the JSON findings' url, `dslc explain`. */
const char *rule_docs_url(void);
const char *rule_url(const rule_info *r, char *buf, size_t n);
/* `dslc explain`'s text of a rule (markdown: SPEC.md's and the editor's hover). */
void rule_print(const rule_info *r, bool markdown, FILE *out);
/* False for the rules no suppression or --disable may silence: the input
 * could not be read, or a value cannot be written safely. */
bool rule_silenceable(const rule_info *r);

#endif
