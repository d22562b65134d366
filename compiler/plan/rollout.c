/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rollout.c - see rollout.h. */
#include "rollout.h"

#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/sha256.h"
#include "compiler/base/strmap.h"
#include "compiler/base/value.h"
#include "compiler/tree/disruption.h"
#include "rollout_env.h"
#include "targets/targets.h"

static const char *size_reason(arena *a, const plan_waves *w, const plan_wave *v)
{
	if (v->after)
		return "the clients' steps, once every server runs the change (an agent caches what the servers answer, "
		       "dfuse reads it at its start): no data, one wave (--max-wave splits it)";
	if (v->clients)
		return "client-only nodes: no data, one wave";
	if (w->system)
		return "system-restart: every server at once (docs/admin/common_tasks.md)";
	if (v->access_points)
		return arena_printf(a, "access points, last: at most %d of %d down at a time keeps the management service's "
				    "quorum; %s", w->ap_size, w->naps, w->why);
	return w->why;
}

/* The size's reason, and what the wave does beyond stop and start. */
const char *rollout_reason(arena *a, const plan_waves *w, const plan_wave *v)
{
	const char *r = size_reason(a, w, v);
	if (v->format)
		r = arena_printf(a, "%s; drained first, its engines lose their storage and rejoin their ranks with `dmg "
				    "storage format --replace` (experimental in DAOS)", r);
	else if (v->drain && w->drain_why && w->why != w->drain_why)
		r = arena_printf(a, "%s; drained first: %s", r, w->drain_why);
	return r;
}

void rollout_text(FILE *out, arena *a, const plan_waves *w, bool markdown, unsigned max_waves)
{
	if (!w->n)
		return;
	if (w->refused) {
		fprintf(out, markdown ? "\n### Rollout: refused\n\n**Refused:** %s\n" : "\nRollout refused:\n  REFUSED: %s\n", w->refused);
		return;
	}
	if (markdown)
		fprintf(out, "\n### Rollout: %zu wave%s\n\n", w->n, w->n == 1 ? "" : "s");
	else
		fprintf(out, "\nRollout in %zu wave%s (each gated: the whole system checked first, the same ranks Joined, every pool's rebuild done):\n", w->n,
			w->n == 1 ? "" : "s");
	if (w->risk)
		fprintf(out, markdown ? "**Unsafe:** %s\n\n" : "  UNSAFE: %s\n", w->risk);
	if (markdown)
		fprintf(out, "| wave | nodes | classes | why this size |\n|---|---|---|---|\n");
	/* a PR comment stays readable at 16,384 waves: the first ones, and
	 * the last (the access points), as --max-values bounds the groups */
	size_t shown = max_waves && w->n > max_waves + 1 ? max_waves : w->n;
	for (size_t i = 0; i < w->n; i++) {
		const plan_wave *v = &w->v[i];
		if (i >= shown && i + 1 < w->n) {
			if (i == shown)
				fprintf(out, markdown ? "| ... | %zu more waves | | the JSON and the script list every wave; --max-values 0 lists them all here |\n"
						      : "  ... %zu more waves (the JSON and the script list every wave; --max-values 0 lists them all here)\n",
					w->n - shown - 1);
			continue;
		}
		const char *h = hostlist_compress(a, v->hosts, v->nhosts);
		if (markdown)
			fprintf(out, "| %zu | `%s` | %s | %s |\n", i + 1, h, plan_class_words(a, v->classes, ", "), rollout_reason(a, w, v));
		else
			fprintf(out, "  %zu. %s  (%s)  %s\n", i + 1, h, plan_class_words(a, v->classes, ", "), rollout_reason(a, w, v));
	}
}

json_t *rollout_json(arena *a, const plan_waves *w)
{
	json_t *waves = json_array();
	for (size_t i = 0; i < w->n; i++) {
		const plan_wave *v = &w->v[i];
		json_t *classes = json_array(), *steps = json_array();
		for (int c = DC__COUNT - 1; c >= 0; c--)
			if ((v->classes >> c) & 1)
				json_array_append_new(classes, json_string(disruption_classes[c].id));
		for (const char **s = plan_wave_steps(a, w, i); s && *s; s++)
			json_array_append_new(steps, json_string(*s));
		json_array_append_new(waves, json_pack("{s:s, s:I, s:o, s:s, s:b, s:b, s:o}", "hosts",
							hostlist_compress(a, v->hosts, v->nhosts), "nodes", (json_int_t)v->nhosts,
							"classes", classes, "why", rollout_reason(a, w, v), "drain", v->drain,
							"format", v->format, "steps", steps));
	}
	json_t *before = json_array(), *after = json_array();
	for (const char **s = plan_waves_before(a, w); s && *s; s++)
		json_array_append_new(before, json_string(*s));
	for (const char **s = plan_waves_after(a, w); s && *s; s++)
		json_array_append_new(after, json_string(*s));
	return json_pack("{s:I, s:I, s:I, s:s, s:s?, s:s?, s:I, s:s, s:o, s:o, s:o}", "wave_size", (json_int_t)w->size,
			 "safe_size", (json_int_t)w->safe, "access_points_per_wave", (json_int_t)w->ap_size, "why", w->why,
			 "risk", w->risk, "refused", w->refused, "rebuild_timeout_s", (json_int_t)w->rebuild_timeout, "rebuild_timeout_why",
			 w->rebuild_timeout_why, "before", before, "waves", waves, "after", after);
}

/* The script's functions, kept as shell so that shellcheck reads them and
 * compiled in by the Makefile as C strings: the gates over DAOS's state it
 * shares with node-maintenance.sh (targets/dmg_lib.sh, kube_lib.sh), then
 * its own (rollout_lib.sh: DSLC_APPLY, the state file of waves, the
 * interrupt handler; rollout_kube.sh: apply, relabel, pods, prune). */
static const char dmg_lib[] =
#include "gen/targets/dmg_lib.inc"
	;
static const char kube_lib[] =
#include "gen/targets/kube_lib.inc"
	;
static const char rollout_lib[] =
#include "gen/compiler/plan/rollout_lib.inc"
	;
static const char rollout_kube[] =
#include "gen/compiler/plan/rollout_kube.inc"
	;

static void lines(FILE *out, const char **s)
{
	for (; s && *s; s++)
		fprintf(out, "run %s\n", *s);
}

/* Kubernetes steps outside the waves: relabels no wave took, or old groups
 * to remove. */
static bool kube_work(const plan_waves *w)
{
	if (!w->kube)
		return false;
	for (size_t i = 0; i < w->kube->nrelabel; i++)
		if (w->kube->relabel[i].changes && !w->kube->relabel[i].in_wave)
			return true;
	return w->kube->nstale > 0;
}

/* The rollout's identity in the state file: a second run must not take
 * another rollout's record of waves done for its own. Each part is kept on
 * its own line, so that a refusal names the part that differs: the release,
 * dslc's version, the files the waves install (waves.c tree_digest) and
 * the steps. The plan ID is the digest of the four. */
static const char *steps_digest(arena *a, const plan_waves *w)
{
	buf b;
	buf_init(&b);
	for (const char **s = plan_waves_before(a, w); s && *s; s++)
		buf_printf(&b, "before %s\n", *s);
	for (size_t i = 0; i < w->n; i++)
		for (const char **s = plan_wave_steps(a, w, i); s && *s; s++)
			buf_printf(&b, "%zu %s\n", i + 1, *s);
	for (const char **s = plan_waves_after(a, w); s && *s; s++)
		buf_printf(&b, "after %s\n", *s);
	char hex[65];
	sha256_hex(b.data ? b.data : "", b.len, hex);
	buf_free(&b);
	hex[16] = 0;
	return arena_strdup(a, hex);
}

/* "release R\ndslc V\ntree T\nsteps S": the identity lines (no quote,
 * the script holds them in single quotes) */
static const char *identity(arena *a, const plan_waves *w, const char *version)
{
	if (strncmp(version, "dslc ", 5) == 0)
		version += 5;
	return arena_printf(a, "release %s\ndslc %s\ntree %.16s\nsteps %s", w->release, version, w->tree ? w->tree : "-",
			    steps_digest(a, w));
}

static const char *plan_id(arena *a, const char *ident)
{
	char hex[65];
	sha256_hex(ident, strlen(ident), hex);
	hex[16] = 0;
	return arena_strdup(a, hex);
}

static void header(FILE *out, const plan_waves *w, const char *version)
{
	fprintf(out, "#!/bin/sh\n# The rollout of a dslc plan (%s): %zu wave%s, each stopped at its first failed gate.\n"
		     "# Before every wave the whole system is checked: every rank outside the wave Joined, every\n"
		     "# access point up, no pool rebuilding or holding a rank disabled outside the wave.\n",
		version, w->n, w->n == 1 ? "" : "s");
	if (w->kube)
		fprintf(out, "# DAOS runs in pods: the new tree's objects are applied first, each node is relabeled in\n"
			     "# its wave (its pods move to the new groups' DaemonSets) and waited for, and the old groups'\n"
			     "# objects are removed after the last wave. Do not run label-nodes.sh for a change.\n");
	/* the environment, from the table dslc(1) prints too (rollout_env.c) */
	fputs("# Environment (time limits run by the clock, in seconds):\n", out);
	for (size_t i = 0; i < rollout_var_count; i++) {
		const rollout_var *v = &rollout_vars[i];
		if (v->kube && !w->kube)
			continue;
		if (strcmp(v->name, "DSLC_REBUILD_TIMEOUT") == 0)
			fprintf(out, "#   %s (%lld: %s): %s\n", v->name, w->rebuild_timeout, w->rebuild_timeout_why, v->doc);
		else
			fprintf(out, "#   %s%s%s%s: %s\n", v->name, v->fallback ? " (" : "", v->fallback ? v->fallback : "",
				v->fallback ? ")" : "", v->doc);
	}
	bool format = false;
	for (size_t i = 0; i < w->n; i++)
		format |= w->v[i].format;
	if (format)
		fprintf(out, "# Waves that lose their engines' storage rejoin with `dmg storage format --replace`, which\n"
			     "# DAOS marks experimental (src/control/cmd/dmg/storage.go).\n");
	if (w->risk)
		fprintf(out, "# UNSAFE: %s\n", w->risk);
	if (w->kube && w->kube->nrolling)
		fprintf(out, "# REFUSED: changed DaemonSets under RollingUpdate would restart their pods at kubectl apply,\n"
			     "# outside the waves; the script stops before it applies anything (update ondelete).\n");
}

/* For the default apply (rollout_lib.sh, the new tree's playbook): each
 * node a wave takes with its node digest in the new tree's manifest.json
 * ("-": it has no files there), once, and every class the waves apply. */
static void waves_nodes(FILE *out, arena *a, const plan_waves *w)
{
	strmap seen;
	strmap_init(&seen, a);
	unsigned classes = 0;
	fprintf(out, "dslc_digests='");
	for (size_t i = 0; i < w->n; i++) {
		classes |= w->v[i].classes;
		for (size_t k = 0; k < w->v[i].nhosts; k++) {
			const char *h = w->v[i].hosts[k];
			if (strmap_get(&seen, h))
				continue;
			strmap_put(&seen, h, (void *)h);
			const char *d = w->digests ? strmap_get(w->digests, h) : NULL;
			fprintf(out, "%s %s\n", h, d ? d : "-");
		}
	}
	fprintf(out, "'\ndslc_all_classes='%s'\n", plan_class_words(a, classes, " "));
}

static void variables(FILE *out, arena *a, const plan_waves *w, const char *version)
{
	const char *ident = identity(a, w, version);
	fprintf(out, "set -euf\n"
		     "DSLC_REBUILD_TIMEOUT=${DSLC_REBUILD_TIMEOUT:-%lld}\n"
		     "dslc_plan='%s'\ndslc_identity='%s'\ndslc_waves=%zu\ndslc_release='%s'\n",
		w->rebuild_timeout, plan_id(a, ident), ident, w->n, w->release);
	if (w->kube) {
		if (w->kube->ngroups)
			fprintf(out, ": \"${DSLC_KUBE_DIR:?set DSLC_KUBE_DIR to cluster/kubernetes of the new tree}\"\n");
		fprintf(out, "dslc_rolling='");
		for (size_t i = 0; i < w->kube->nrolling; i++)
			fprintf(out, "%s%s", i ? " " : "", w->kube->rolling[i]);
		fprintf(out, "'\n");
		const char *ns = w->kube->ns ? w->kube->ns : "daos";
		fprintf(out, "dslc_ns='%s'\ndslc_groups='", ns);
		for (size_t i = 0; i < w->kube->ngroups; i++)
			fprintf(out, "%s%s", i ? " " : "", w->kube->groups[i]);
		buf can_i;
		buf_init(&can_i);
		kube_can_i_lines(ns, &can_i);
		fprintf(out, "'\ndslc_can_i='%.*s'\n", (int)can_i.len, can_i.data ? can_i.data : "");
		fprintf(out, "dslc_secrets='%s'\n", w->kube->secrets ? w->kube->secrets : "");
		buf_free(&can_i);
	}
	waves_nodes(out, a, w);
	fprintf(out, "dslc_described='");
	for (size_t i = 0; i < w->npools; i++)
		fprintf(out, "%s%s", i ? " " : "", w->pools[i]);
	fprintf(out, "'\n");
}

void rollout_script(FILE *out, arena *a, const plan_waves *w, const char *version)
{
	if (w->refused) {
		/* nothing runnable: the text says why and what to do instead */
		fprintf(out, "#!/bin/sh\n# The rollout of a dslc plan (%s): REFUSED.\ncat >&2 <<'DSLC_REFUSED'\ndslc: REFUSED: %s\n"
			     "DSLC_REFUSED\nexit 1\n",
			version, w->refused);
		return;
	}
	header(out, w, version);
	variables(out, a, w, version);
	fputs(dmg_lib, out);
	fputs(rollout_lib, out);
	if (w->kube) {
		fputs(kube_lib, out);
		fputs(rollout_kube, out);
	}
	if (!w->n && !kube_work(w)) {
		fprintf(out, "echo 'dslc: nothing stops engines or nodes in this plan' >&2\n");
		return;
	}
	lines(out, plan_waves_before(a, w));
	for (size_t i = 0; i < w->n; i++) {
		const plan_wave *v = &w->v[i];
		const char *h = hostlist_compress(a, v->hosts, v->nhosts), *cls = plan_class_words(a, v->classes, ", ");
		fprintf(out, "\n# wave %zu of %zu: %s (%s)\n", i + 1, w->n, h, cls);
		fprintf(out, "dslc_wave='in wave %zu of %zu (%s: %s)'\n", i + 1, w->n, h, cls);
		fprintf(out, "dslc_wave_nodes='");
		for (size_t k = 0; k < v->nhosts; k++)
			fprintf(out, "%s%s", k ? " " : "", v->hosts[k]);
		fprintf(out, "'\n");
		if (i + 1 < w->n)
			fprintf(out, "dslc_left='wave%s %zu%s of %zu'\n", i + 2 < w->n ? "s" : "", i + 2,
				i + 2 < w->n ? arena_printf(a, " to %zu", w->n) : "", w->n);
		else
			fprintf(out, "dslc_left=''\n");
		fprintf(out, "if dslc_wave_todo %zu '%s'; then\n", i + 1, h);
		lines(out, plan_wave_steps(a, w, i));
		fprintf(out, "dslc_wave_done %zu\nfi\n", i + 1);
	}
	fprintf(out, "\ndslc_wave='after the last wave'\ndslc_wave_no=0\n");
	lines(out, plan_waves_after(a, w));
	fprintf(out, "dslc_finish\n");
}
