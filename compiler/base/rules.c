/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "rules.h"

#include <string.h>

const rule_info rule_table[R__COUNT] = {
#define RULE(e, id, sev, cat, sum, expl, fix) [e] = {e, id, sev, cat, sum, expl, fix},
#include "rules.def"
#undef RULE
};

const rule_info *rule_find(const char *id)
{
	for (int i = 0; i < R__COUNT; i++)
		if (strcmp(rule_table[i].id, id) == 0)
			return &rule_table[i];
	return NULL;
}

const char *severity_name(diag_severity s)
{
	switch (s) {
	case SEV_NOTE: return "note";
	case SEV_WARNING: return "warning";
	case SEV_ERROR: return "error";
	}
	return "error";
}

bool severity_parse(const char *name, diag_severity *out)
{
	for (int s = SEV_NOTE; s <= SEV_ERROR; s++)
		if (strcmp(name, severity_name((diag_severity)s)) == 0) {
			*out = (diag_severity)s;
			return true;
		}
	return false;
}

/* The packaged path: the man pages name it too (manpage.c). */
#ifndef DSLC_DOCS_URL
#define DSLC_DOCS_URL "file:///usr/share/doc/dslc/SPEC.md"
#endif

const char *rule_docs_url(void)
{
	return DSLC_DOCS_URL;
}

const char *rule_url(const rule_info *r, char *buf, size_t n)
{
	snprintf(buf, n, "%s#" RULE_ANCHOR_PREFIX "%s", DSLC_DOCS_URL, r->id);
	return buf;
}

bool rule_silenceable(const rule_info *r)
{
	return r->rule != R_SYNTAX && r->rule != R_IO && r->rule != R_LIMIT && r->rule != R_UNSAFE_VALUE &&
	       r->rule != R_INTERNAL_CONSISTENCY &&
	       r->rule != R_PLAN_INCOMPLETE;
}

void rule_print(const rule_info *r, bool markdown, FILE *out)
{
	if (markdown) {
		fprintf(out, "### `%s`\n\n", r->id);
		fprintf(out, "- severity: %s\n- category: %s\n- summary: %s\n\n", severity_name(r->severity), r->category, r->summary);
		fprintf(out, "%s\n\nFix: %s\n\n", r->explanation, r->fix);
		return;
	}
	char url[512];
	fprintf(out, "%s (%s, %s): %s\n\n%s\n\nfix: %s\n\ndocumentation: %s\n", r->id, severity_name(r->severity), r->category,
		r->summary, r->explanation, r->fix, rule_url(r, url, sizeof(url)));
}
