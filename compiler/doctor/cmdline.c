/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* cmdline.c - see cmdline.h. */
#include "cmdline.h"

#include <ctype.h>
#include <string.h>

/* The command line's words as the kernel splits them (lib/cmdline.c
 * next_arg): spaces separate, double quotes group and are dropped, and
 * "--" ends the kernel's part (the rest is init's). */
int cmdline_split(arena *a, const char *s, cmdline_word *w, int max)
{
	int n = 0;
	while (*s && n < max) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		char *word = arena_alloc(a, strlen(s) + 1), *o = word;
		bool quoted = false;
		for (; *s && (quoted || !isspace((unsigned char)*s)); s++)
			if (*s == '"')
				quoted = !quoted;
			else
				*o++ = *s;
		*o = '\0';
		if (strcmp(word, "--") == 0)
			break;
		char *eq = strchr(word, '=');
		if (eq)
			*eq = '\0';
		w[n++] = (cmdline_word){word, eq ? eq + 1 : NULL};
	}
	return n;
}

/* kernel/params.c parameq: '-' and '_' are the same in a name. */
static bool param_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

/* Parameters whose handler ignores a repeat: the first occurrence is the
 * one in force. Every other parameter dslc writes is assigned by its
 * handler, so the last occurrence wins (irqaffinity=, kernel/irq/irqdesc.c
 * irq_affinity_setup; rcu_nocbs=, kernel/rcu/tree_nocb.h rcu_nocb_setup;
 * transparent_hugepage=, mm/huge_memory.c setup_transparent_hugepage;
 * iommu=, arch/x86/kernel/pci-dma.c iommu_setup). */
static const char *const first_wins[] = {
	"hugepagesz",         /* mm/hugetlb.c hugepagesz_setup: "specified twice, ignoring" */
	"default_hugepagesz", /* mm/hugetlb.c default_hugepagesz_setup: "previously specified, ignoring" */
	"isolcpus",           /* kernel/sched/isolation.c housekeeping_setup: a later mask must match */
	"nohz_full",          /* the same: "nohz_full= must match isolcpus=", the later one ignored */
};

static bool keeps_first(const char *name)
{
	for (size_t i = 0; i < sizeof(first_wins) / sizeof(*first_wins); i++)
		if (param_eq(name, first_wins[i]))
			return true;
	return false;
}

/* The occurrence of name the running kernel is using, -1 when there is
 * none. hugepages= counts for the hugepagesz= just before it
 * (mm/hugetlb.c hugepages_setup): dslc's is the one after the first
 * hugepagesz= of dslc's size (a repeat of the size is ignored, and so is
 * the hugepages= after it); a second hugepages= without a hugepagesz=
 * between them is ignored. */
static int in_force(const cmdline_word *w, int n, const char *name, const char *pagesz)
{
	if (param_eq(name, "hugepages") && pagesz) {
		for (int j = 0; j < n; j++)
			if (param_eq(w[j].name, "hugepagesz") && w[j].value && strcmp(w[j].value, pagesz) == 0) {
				for (int k = j + 1; k < n && !param_eq(w[k].name, "hugepagesz"); k++)
					if (param_eq(w[k].name, "hugepages"))
						return k;
				return -1;
			}
	}
	int at = -1;
	for (int j = 0; j < n; j++)
		if (param_eq(w[j].name, name)) {
			at = j;
			if (keeps_first(name) || param_eq(name, "hugepages"))
				break;
		}
	return at;
}

bool cmdline_holds(const cmdline_word *w, int n, const char *name, const char *value, const char *pagesz,
		   int *in_force_at, int *ours)
{
	int j = in_force(w, n, name, pagesz);
	*in_force_at = j;
	*ours = -1;
	if (j >= 0 && strcmp(w[j].value ? w[j].value : "", value) == 0)
		return true;
	for (int x = 0; x < n && *ours < 0; x++)
		if (param_eq(w[x].name, name) && strcmp(w[x].value ? w[x].value : "", value) == 0)
			*ours = x;
	return false;
}

static const char *word_text(arena *a, const cmdline_word *w)
{
	return w->value ? arena_printf(a, "%s=%s", w->name, w->value) : w->name;
}

const char *cmdline_mismatch(arena *a, const cmdline_word *w, int j, int ours, const char *name, const char *value)
{
	const char *want = *value ? arena_printf(a, "%s=%s", name, value) : name;
	if (j >= 0 && ours >= 0) /* dslc's word is there, another one counts */
		return arena_printf(a, "the running kernel uses %s: %s %s= %s %s (the kernel keeps the %s)", word_text(a, &w[j]),
				    j > ours ? "a later" : "an earlier", name, j > ours ? "overrides" : "comes before", want,
				    j > ours ? "last" : "first");
	if (j >= 0)
		return arena_printf(a, "the running kernel has %s, not %s", word_text(a, &w[j]), want);
	return arena_printf(a, "%s is not on the running kernel's command line", want);
}
