/* rollout.c - see rollout.h. */
#include "rollout.h"

#include <string.h>

#include "compiler/base/value.h"
#include "compiler/tree/disruption.h"

static const char *reason(arena *a, const plan_waves *w, const plan_wave *v)
{
	if (v->clients)
		return "client-only nodes: no data, one wave";
	if (w->system)
		return "system-restart: every server at once (docs/admin/common_tasks.md)";
	if (v->access_points)
		return arena_printf(a, "access points, last: at most %d of %d down at a time keeps the management service's "
				    "quorum; %s", w->ap_size, w->naps, w->why);
	return w->why;
}

void rollout_text(FILE *out, arena *a, const plan_waves *w, bool markdown)
{
	if (!w->n)
		return;
	if (markdown)
		fprintf(out, "\n### Rollout: %zu wave%s\n\n", w->n, w->n == 1 ? "" : "s");
	else
		fprintf(out, "\nRollout in %zu wave%s (each gated: ranks Joined, no rebuild):\n", w->n, w->n == 1 ? "" : "s");
	if (w->risk)
		fprintf(out, markdown ? "**Unsafe:** %s\n\n" : "  UNSAFE: %s\n", w->risk);
	if (markdown)
		fprintf(out, "| wave | nodes | classes | why this size |\n|---|---|---|---|\n");
	for (size_t i = 0; i < w->n; i++) {
		const plan_wave *v = &w->v[i];
		const char *h = hostlist_compress(a, v->hosts, v->nhosts);
		if (markdown)
			fprintf(out, "| %zu | `%s` | %s | %s |\n", i + 1, h, plan_class_words(a, v->classes, ", "), reason(a, w, v));
		else
			fprintf(out, "  %zu. %s  (%s)  %s\n", i + 1, h, plan_class_words(a, v->classes, ", "), reason(a, w, v));
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
		json_array_append_new(waves, json_pack("{s:s, s:I, s:o, s:s, s:o}", "hosts",
							hostlist_compress(a, v->hosts, v->nhosts), "nodes", (json_int_t)v->nhosts,
							"classes", classes, "why", reason(a, w, v), "steps", steps));
	}
	json_t *before = json_array(), *after = json_array();
	for (const char **s = plan_waves_before(a, w); s && *s; s++)
		json_array_append_new(before, json_string(*s));
	for (const char **s = plan_waves_after(a, w); s && *s; s++)
		json_array_append_new(after, json_string(*s));
	return json_pack("{s:I, s:I, s:I, s:s, s:s?, s:o, s:o, s:o}", "wave_size", (json_int_t)w->size, "safe_size",
			 (json_int_t)w->safe, "access_points_per_wave", (json_int_t)w->ap_size, "why", w->why, "risk", w->risk,
			 "before", before, "waves", waves, "after", after);
}

/* The gates, in POSIX sh: `dmg -j` output read with grep (no jq on a
 * management node). Member states are DAOS's MemberState names
 * (src/control/system/member.go), the rebuild state "busy" while rebuilding
 * (src/control/lib/daos/pool.go PoolRebuildState). */
static const char gates[] =
	"run() { printf '+ %s\\n' \"$*\" >&2; \"$@\"; }\n"
	"# every rank of HOSTS (all ranks without HOSTS) Joined, polled for 10 minutes\n"
	"dslc_wait_joined() {\n"
	"\ti=0\n"
	"\twhile :; do\n"
	"\t\tout=$(dmg -j system query ${1:+--rank-hosts=\"$1\"}) || return 1\n"
	"\t\tif ! printf '%s\\n' \"$out\" | grep -io '\"state\": *\"[a-z_]*\"' | grep -viq '\"joined\"'; then return 0; fi\n"
	"\t\ti=$((i + 1))\n"
	"\t\tif [ \"$i\" -ge 60 ]; then echo \"dslc: ranks of ${1:-the system} not Joined after 10 minutes\" >&2; return 1; fi\n"
	"\t\tsleep 10\n"
	"\tdone\n"
	"}\n"
	"# no rebuild running in any of the pools\n"
	"dslc_wait_rebuild() {\n"
	"\tfor pool in \"$@\"; do\n"
	"\t\twhile :; do\n"
	"\t\t\tout=$(dmg -j pool query \"$pool\") || return 1\n"
	"\t\t\tprintf '%s\\n' \"$out\" | grep -q '\"state\": *\"busy\"' || break\n"
	"\t\t\tsleep 10\n"
	"\t\tdone\n"
	"\tdone\n"
	"}\n";

static void lines(FILE *out, const char **s)
{
	for (; s && *s; s++)
		fprintf(out, "run %s\n", *s);
}

void rollout_script(FILE *out, arena *a, const plan_waves *w, const char *version)
{
	fprintf(out, "#!/bin/sh\n# The rollout of a dslc plan (%s): %zu wave%s, each stopped at its first failed gate.\n"
		     "# DSLC_APPLY is your command that installs a node's new files and applies its classes:\n"
		     "#   \"$DSLC_APPLY\" HOSTLIST CLASS...   (e.g. a pdsh or Ansible wrapper)\n",
		version, w->n, w->n == 1 ? "" : "s");
	if (w->risk)
		fprintf(out, "# UNSAFE: %s\n", w->risk);
	fprintf(out, "set -eu\n: \"${DSLC_APPLY:?set DSLC_APPLY to the command that applies a wave}\"\n%s", gates);
	if (!w->n) {
		fprintf(out, "echo 'dslc: nothing stops engines or nodes in this plan' >&2\n");
		return;
	}
	lines(out, plan_waves_before(a, w));
	for (size_t i = 0; i < w->n; i++) {
		const plan_wave *v = &w->v[i];
		fprintf(out, "\n# wave %zu of %zu: %s (%s)\n", i + 1, w->n, hostlist_compress(a, v->hosts, v->nhosts),
			plan_class_words(a, v->classes, ", "));
		lines(out, plan_wave_steps(a, w, i));
	}
	fprintf(out, "\n");
	lines(out, plan_waves_after(a, w));
	fprintf(out, "echo 'dslc: rollout done' >&2\n");
}
