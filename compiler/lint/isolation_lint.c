/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* isolation_lint.c - see isolation_lint.h. The kernel reads these lists with
 * cpulist_parse (lib/bitmap.c: "N", "N-M", comma-separated; isolcpus may
 * start with flags such as "managed_irq,domain,": kernel/sched/isolation.c
 * housekeeping_isolcpus_setup). A list in the "N-M:a/b" group form is not
 * judged. */
#include "isolation_lint.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/place/place.h"

static bool isolation_param(const char *name)
{
	return strcmp(name, "isolcpus") == 0 || strcmp(name, "nohz_full") == 0 || strcmp(name, "rcu_nocbs") == 0;
}

/* The list's CPUs into set[0..n); false when it is not a plain cpulist. */
static bool parse_cpulist(const char *s, unsigned char *set, int n)
{
	/* isolcpus flags: words that start with a letter, before the list */
	while (*s >= 'a' && *s <= 'z') {
		const char *comma = strchr(s, ',');
		if (!comma)
			return false;
		s = comma + 1;
	}
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s || a < 0)
			return false;
		if (*end == '-') {
			const char *t = end + 1;
			b = strtol(t, &end, 10);
			if (end == t || b < a)
				return false;
		}
		if (*end && *end != ',')
			return false;
		for (long c = a; c <= b && c < n; c++)
			set[c] = 1;
		s = *end ? end + 1 : end;
	}
	return true;
}

/* The help as an edit: this param statement becomes `isolate engines` and
 * the other isolation params go (`isolate engines` writes all three lists:
 * one kept beside it would be a second value of the same parameter). */
static void fix_isolation(model *m, const node_spec *s, diag *d, const env_entry *e)
{
	const env_list *params = &s->kernel.params;
	src_loc stmt = diag_loc_with_keyword(m->dc, e->loc, "param");
	if (s->kernel.isolate.set || stmt.start == e->loc.start)
		return;
	for (size_t i = 0; i < params->n; i++) {
		const env_entry *o = &params->items[i];
		src_loc drop = diag_loc_with_keyword(m->dc, o->loc, "param");
		bool self = o->loc.file == e->loc.file && o->loc.start == e->loc.start;
		if (!self && isolation_param(o->name) && drop.start != o->loc.start)
			diag_fix_edit(m->dc, d, diag_loc_line_if_alone(m->dc, drop), "%s", "");
	}
	diag_fix_edit(m->dc, d, stmt, "isolate engines");
}

void isolation_lint_param(model *m, const node_spec *s, const env_entry *e)
{
	const node_plan *p = s->plan;
	if (!isolation_param(e->name) || !p || !p->ok || !p->nengines || s->kubelet.set || spec_in_pods(s))
		return;
	const topology *t = p->topo;
	int n = 0;
	for (int c = 0; c < t->ncores; c++)
		for (int k = 0; k < t->cores[c].npus; k++)
			n = t->cores[c].pus[k] + 1 > n ? t->cores[c].pus[k] + 1 : n;
	unsigned char *set = calloc((size_t)n + 1, 1);
	if (!set)
		abort();
	if (!parse_cpulist(e->value, set, n)) {
		free(set);
		return;
	}
	const char *why = NULL;
	int core = -1;
	for (int c = 0; c < t->ncores && !why; c++) {
		int in = 0;
		for (int k = 0; k < t->cores[c].npus; k++)
			in += set[t->cores[c].pus[k]];
		bool engine = place_core_engine(p, c);
		core = c;
		if (engine && in && in < t->cores[c].npus)
			why = "isolates part of an engine core: its SMT sibling still takes scheduler, tick and RCU work";
		else if (engine && !in)
			why = "leaves an engine core out";
		else if (!engine && in && place_core_reserved(p, c))
			why = "isolates an OS core: the kernel's housekeeping has nowhere left to run";
	}
	free(set);
	if (!why)
		return;
	diag *d = diag_report(m->dc, R_KERNEL_CPU_ISOLATION, e->loc, "%s=%s %s (core %d, CPUs %s)", e->name, e->value, why,
			      core, place_core_cpus(m->ar, t, core));
	diag_help(m->dc, d, "write `isolate engines` in the kernel block in place of the param: isolcpus, nohz_full and "
		  "rcu_nocbs=%s, the engines' cores with their siblings", place_engine_cpus(m->ar, p));
	fix_isolation(m, s, d, e);
}
