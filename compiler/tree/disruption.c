/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* disruption.c - see disruption.h. */
#include "disruption.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const disruption_class_info disruption_classes[DC__COUNT] = {
#define CLASS(e, id, rank, error, steps) {id, rank, error, steps},
#include "schemas/disruption.def"
#undef CLASS
};

const disruption_rule disruption_rules[] = {
#define DISRUPT(target, key, cls, source) {target, key, cls, source},
#include "schemas/disruption.def"
#undef DISRUPT
};
const size_t disruption_rule_count = sizeof(disruption_rules) / sizeof(disruption_rules[0]);

const disruption_coupling disruption_couplings[] = {
#define COUPLE(target, key, scope, cls, source) {target, key, scope, cls, source},
#include "schemas/disruption.def"
#undef COUPLE
};
const size_t disruption_coupling_count = sizeof(disruption_couplings) / sizeof(disruption_couplings[0]);

/* Copies key into out (at most size bytes with the NUL) with the inside of
 * its brackets dropped: every bracket ("pools[tier0]" -> "pools[]"), or only
 * numeric ones ("engines[1]" -> "engines[]", a label stays). */
void disruption_fold_brackets(char *out, size_t size, const char *key, bool labels)
{
	size_t o = 0;
	for (const char *p = key; *p && o + 1 < size; p++) {
		out[o++] = *p;
		if (*p == '[' && (labels || (p[1] >= '0' && p[1] <= '9')) && strchr(p, ']'))
			p = strchr(p, ']') - 1;
	}
	out[o] = 0;
}

/* A rule's key covers the key itself and everything below it, except a key
 * ending in "[]": that is the item itself (an engine added or removed), not
 * what is inside it. */
static bool covers(const char *rule, const char *pattern)
{
	size_t n = strlen(rule);
	if (!n)
		return true;
	if (strncmp(rule, pattern, n) != 0)
		return false;
	if (!pattern[n])
		return true;
	return rule[n - 1] != ']' && (pattern[n] == '.' || pattern[n] == '[');
}

disruption_class disruption_of(const char *target, const char *key)
{
	char pattern[512];
	disruption_fold_brackets(pattern, sizeof(pattern), key, true);
	disruption_class best = DC_ENGINE_RESTART; /* a target the table does not know: restart what reads it */
	long best_len = -1;
	for (size_t i = 0; i < disruption_rule_count; i++) {
		const disruption_rule *r = &disruption_rules[i];
		long n = (long)strlen(r->key);
		if (n > best_len && strcmp(r->target, target) == 0 && covers(r->key, pattern)) {
			best = r->cls;
			best_len = n;
		}
	}
	return best;
}

int disruption_coupling_of(const char *target, const char *key, size_t from)
{
	char pattern[512]; /* numeric indexes folded only: "[Network].Address" is a section */
	disruption_fold_brackets(pattern, sizeof(pattern), key, false);
	for (size_t i = from; i < disruption_coupling_count; i++)
		if (strcmp(disruption_couplings[i].target, target) == 0 && covers(disruption_couplings[i].key, pattern))
			return (int)i;
	return -1;
}

void disruption_print_markdown(FILE *out)
{
	fprintf(out, "| class | exit 4 | what the operator does, in order |\n|---|---|---|\n");
	for (int c = DC__COUNT - 1; c >= 0; c--)
		fprintf(out, "| `%s` | %s | %s |\n", disruption_classes[c].id, disruption_classes[c].error ? "yes" : "no",
			disruption_classes[c].steps);
	fprintf(out, "\n| target | key | class | source |\n|---|---|---|---|\n");
	for (size_t i = 0; i < disruption_rule_count; i++) {
		const disruption_rule *r = &disruption_rules[i];
		fprintf(out, "| `%s` | %s%s%s | `%s` | %s |\n", r->target, *r->key ? "`" : "(the file)", r->key, *r->key ? "`" : "",
			disruption_classes[r->cls].id, r->source);
	}
	fprintf(out, "\nCouplings: a change that needs a step on other files too.\n\n"
		     "| target | key | step on | class | source |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < disruption_coupling_count; i++) {
		const disruption_coupling *c = &disruption_couplings[i];
		fprintf(out, "| `%s` | %s%s%s | %s | `%s` | %s |\n", c->target, *c->key ? "`" : "(the node)", c->key,
			*c->key ? "`" : "", c->scope == CS_AGENTS ? "every node with daos_agent" : c->scope == CS_MOUNTS ? "every dfuse mount" : "the same node's kubelet",
			disruption_classes[c->cls].id, c->source);
	}
}
