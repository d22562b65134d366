/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* reference.h - the language reference's sections: each keyword table with
 * its title, in the order SPEC.md, `dslc keywords` and dslc-language(5)
 * print them. */
#ifndef DSLC_REFERENCE_H
#define DSLC_REFERENCE_H

#include <stdbool.h>
#include <stdio.h>

#include "compiler/model/kw.h"

typedef struct kw_section {
	const kw_table *table;
	const char *title; /* markdown: `cluster` block */
} kw_section;

extern const kw_section kw_sections[];
extern const size_t kw_section_count;

/* `dslc keywords`: block<TAB>keyword lines. */
void reference_print_keywords(FILE *out);
/* `dslc keywords --format json`: [{block, keyword, syntax, meaning}];
 * false when stdout cannot be written. */
bool reference_print_json(FILE *out);
/* `dslc keywords --markdown`: SPEC.md's keyword reference and artifact table. */
void reference_print_markdown(FILE *out);

#endif
