/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rollout.c - see rollout.h. */
#include "rollout.h"

#include <string.h>

#include "compiler/base/value.h"
#include "compiler/tree/disruption.h"

static const char *size_reason(arena *a, const plan_waves *w, const plan_wave *v)
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

/* The size's reason, and what the wave does beyond stop and start. */
static const char *reason(arena *a, const plan_waves *w, const plan_wave *v)
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
	if (markdown)
		fprintf(out, "\n### Rollout: %zu wave%s\n\n", w->n, w->n == 1 ? "" : "s");
	else
		fprintf(out, "\nRollout in %zu wave%s (each gated: the same ranks Joined, every pool's rebuild done):\n", w->n,
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
		json_array_append_new(waves, json_pack("{s:s, s:I, s:o, s:s, s:b, s:b, s:o}", "hosts",
							hostlist_compress(a, v->hosts, v->nhosts), "nodes", (json_int_t)v->nhosts,
							"classes", classes, "why", reason(a, w, v), "drain", v->drain,
							"format", v->format, "steps", steps));
	}
	json_t *before = json_array(), *after = json_array();
	for (const char **s = plan_waves_before(a, w); s && *s; s++)
		json_array_append_new(before, json_string(*s));
	for (const char **s = plan_waves_after(a, w); s && *s; s++)
		json_array_append_new(after, json_string(*s));
	return json_pack("{s:I, s:I, s:I, s:s, s:s?, s:I, s:s, s:o, s:o, s:o}", "wave_size", (json_int_t)w->size,
			 "safe_size", (json_int_t)w->safe, "access_points_per_wave", (json_int_t)w->ap_size, "why", w->why,
			 "risk", w->risk, "rebuild_timeout_s", (json_int_t)w->rebuild_timeout, "rebuild_timeout_why",
			 w->rebuild_timeout_why, "before", before, "waves", waves, "after", after);
}

/* The script's functions, in POSIX sh. `dmg -j` prints its answer as
 * {"response": ..., "error": ..., "status": ...} indented by two blanks
 * (src/control/common/cmdutil/json.go OutputJSON, json.MarshalIndent), one
 * key a line, and exits 1 on an error (src/control/cmd/dmg/main.go
 * exitWithError); read with grep and awk, since a management node has no jq.
 * Member states are MemberState names in lower case
 * (src/control/system/member.go MarshalJSON: addr, state, fault_domain, then
 * rank); a pool's rebuild is {"status", "state", ("derived_state" on 2.8),
 * ...} (src/control/lib/daos/pool.go PoolRebuildStatus). A failure stops the
 * script where it is, names the wave, and says what state self_heal is in
 * and how to restore it: the script never restores it itself after a failure,
 * because that excludes the stopped ranks and starts a rebuild the operator
 * has not chosen (docs/admin/self_healing.md). */
static const char functions[] =
	"dslc_wave='before the first wave'\n"
	"dslc_left=''\n"
	"dslc_self_heal=unchanged\n"
	"dslc_pools=''\n"
	"dslc_ranks=''\n"
	"dslc_fail() {\n"
	"\techo \"dslc: STOPPED $dslc_wave: $1\" >&2\n"
	"\tif [ \"$dslc_self_heal\" = unchanged ]; then\n"
	"\t\techo 'dslc: self_heal was not changed by this script.' >&2\n"
	"\telse\n"
	"\t\techo \"dslc: self_heal is $dslc_self_heal (planned maintenance): DAOS does not rebuild by itself now.\" >&2\n"
	"\t\techo 'dslc: once every rank is Joined again (dmg system query), or you choose to rebuild without the' >&2\n"
	"\t\techo 'dslc: missing ones, restore it with:' >&2\n"
	"\t\tdslc_self_heal_commands | sed 's/^/dslc:   /' >&2\n"
	"\tfi\n"
	"\t[ -z \"$dslc_left\" ] || echo \"dslc: not started: $dslc_left\" >&2\n"
	"\texit 1\n"
	"}\n"
	"run() {\n"
	"\tprintf '+ %s\\n' \"$*\" >&2\n"
	"\t\"$@\" || dslc_fail \"'$*' failed (exit $?)\"\n"
	"}\n"
	"# the answer of a dmg -j command that exited 0 must say status 0\n"
	"dslc_dmg_json() {\n"
	"\tdslc_out=$(dmg -j \"$@\") || return\n"
	"\tprintf '%s\\n' \"$dslc_out\" | grep -q '^  \"status\": 0$' || {\n"
	"\t\techo \"dslc: dmg -j $* answered without status 0\" >&2\n"
	"\t\treturn 70\n"
	"\t}\n"
	"}\n"
	"# numbers, one a line, as one sorted line\n"
	"dslc_words() { sort -n | awk '{ printf \"%s%s\", s, $1; s = \" \" } END { print \"\" }'; }\n"
	"# \"rank state\" of each member of HOSTS (every member without HOSTS)\n"
	"dslc_members() {\n"
	"\tdslc_dmg_json system query ${1:+--rank-hosts=\"$1\"} || return\n"
	"\tprintf '%s\\n' \"$dslc_out\" | awk '\n"
	"\t\t/\"state\": / { s = $0; sub(/.*\"state\": *\"/, \"\", s); sub(/\".*/, \"\", s) }\n"
	"\t\t/\"rank\": / { r = $0; sub(/.*\"rank\": */, \"\", r); sub(/[^0-9].*/, \"\", r) }\n"
	"\t\t/^ *},?$/ { if (r != \"\" && s != \"\") print r, s; r = \"\"; s = \"\" }'\n"
	"}\n"
	"# the ranks HOSTS have now: the Joined gate wants the same ones back\n"
	"dslc_note_ranks() {\n"
	"\tm=$(dslc_members \"$1\") || dslc_fail \"dmg system query --rank-hosts=$1 failed\"\n"
	"\tdslc_ranks=$(printf '%s\\n' \"$m\" | awk 'NF == 2 { print $1 }' | dslc_words)\n"
	"\t[ -n \"$dslc_ranks\" ] || dslc_fail \"the system has no rank on $1 (dmg system query --rank-hosts=$1)\"\n"
	"\techo \"dslc: $1 has ranks $dslc_ranks\" >&2\n"
	"}\n"
	"# every rank of HOSTS (of the system without HOSTS) Joined, and on HOSTS the\n"
	"# ranks dslc_note_ranks saw: an engine that joined as a new rank did not\n"
	"# reclaim its old one, and no waiting cures that\n"
	"dslc_wait_joined() {\n"
	"\twaited=0\n"
	"\twhile :; do\n"
	"\t\tm=$(dslc_members \"$1\") || dslc_fail \"dmg system query ${1:+--rank-hosts=$1 }failed\"\n"
	"\t\tjoined=$(printf '%s\\n' \"$m\" | awk '$2 == \"joined\" { print $1 }' | dslc_words)\n"
	"\t\t# every rank not Joined, with its state; and on HOSTS, a rank they had that\n"
	"\t\t# the answer leaves out is not back yet: DAOS lists only the members it\n"
	"\t\t# finds (src/control/system/membership.go Members), and a rank being\n"
	"\t\t# replaced is briefly absent (joinReplace)\n"
	"\t\tothers=$(printf '%s\\n' \"$m\" | awk -v want=\"${1:+$dslc_ranks}\" '\n"
	"\t\t\tNF == 2 { got[$1] = 1; if ($2 != \"joined\") { printf \"%s rank %s %s\", s, $1, $2; s = \",\" } }\n"
	"\t\t\tEND { n = split(want, w, \" \")\n"
	"\t\t\t\tfor (i = 1; i <= n; i++) if (!(w[i] in got)) { printf \"%s rank %s absent\", s, w[i]; s = \",\" } }')\n"
	"\t\tif [ -n \"$1\" ] && [ -n \"$dslc_ranks\" ]; then\n"
	"\t\t\tfor r in $joined; do\n"
	"\t\t\t\tcase \" $dslc_ranks \" in\n"
	"\t\t\t\t*\" $r \"*) ;;\n"
	"\t\t\t\t*) dslc_fail \"rank $r joined on $1, which had ranks $dslc_ranks (now:$others): the engines did not reclaim their ranks (dmg storage format --replace)\" ;;\n"
	"\t\t\t\tesac\n"
	"\t\t\tdone\n"
	"\t\tfi\n"
	"\t\tif [ -n \"$joined\" ] && [ -z \"$others\" ]; then\n"
	"\t\t\t[ -z \"$1\" ] || [ -z \"$dslc_ranks\" ] || [ \"$joined\" = \"$dslc_ranks\" ] ||\n"
	"\t\t\t\tdslc_fail \"ranks $joined are Joined on $1, which had ranks $dslc_ranks\"\n"
	"\t\t\techo \"dslc: ranks $joined Joined\" >&2\n"
	"\t\t\treturn 0\n"
	"\t\tfi\n"
	"\t\tif [ \"$waited\" -ge \"$DSLC_JOIN_TIMEOUT\" ]; then\n"
	"\t\t\tdslc_fail \"ranks of ${1:-the system} not Joined after $waited s (DSLC_JOIN_TIMEOUT):${others:- no rank listed}\"\n"
	"\t\tfi\n"
	"\t\tsleep \"$DSLC_POLL\"\n"
	"\t\twaited=$((waited + DSLC_POLL))\n"
	"\tdone\n"
	"}\n"
	"# the pools the system has (not only those the description names): the\n"
	"# self_heal and rebuild steps cover every one; a pool without a label by its UUID\n"
	"dslc_list_pools() {\n"
	"\tdslc_dmg_json pool list --no-query || dslc_fail 'dmg pool list failed: the pools to gate are unknown'\n"
	"\tprintf '%s\\n' \"$dslc_out\" | grep -q '^    \"pools\": ' || dslc_fail 'dmg pool list answered without a pools list'\n"
	"\tdslc_pools=$(printf '%s\\n' \"$dslc_out\" | awk '\n"
	"\t\tfunction val(s) { sub(/^[^:]*: *\"/, \"\", s); sub(/\".*/, \"\", s); return s }\n"
	"\t\t/^        \"uuid\": / { if (p != \"\") print p; p = val($0) }\n"
	"\t\t/^        \"label\": / { p = val($0) }\n"
	"\t\tEND { if (p != \"\") print p }' | tr '\\n' ' ')\n"
	"\textra=''\n"
	"\tfor p in $dslc_pools; do\n"
	"\t\tcase $p in\n"
	"\t\t*[!A-Za-z0-9_.:-]* | -*) dslc_fail \"dmg pool list names a pool '$p' that this script will not quote\" ;;\n"
	"\t\tesac\n"
	"\t\tcase \" $dslc_described \" in *\" $p \"*) ;; *) extra=\"$extra $p\" ;; esac\n"
	"\tdone\n"
	"\techo \"dslc: pools gated: ${dslc_pools:-none}${extra:+ (not in the description, covered too:$extra)}\" >&2\n"
	"}\n"
	"# 2.6 status to 2.8's derived_state (src/control/lib/daos/pool.go UpdateRebuildStatus,\n"
	"# release/2.8; -2027 is -DER_OP_CANCELED)\n"
	"dslc_derive() {\n"
	"\tcase $1:$2 in\n"
	"\t*:-) echo unknown ;;\n"
	"\tidle:0 | done:0 | busy:0) echo \"$1\" ;;\n"
	"\tidle:-2027) echo stopped ;;\n"
	"\tbusy:-2027) echo stopping ;;\n"
	"\tbusy:*) echo failing ;;\n"
	"\tidle:* | done:*) echo failed ;;\n"
	"\t*) echo unknown ;;\n"
	"\tesac\n"
	"}\n"
	"# no rebuild running in any pool, none failed; busy for at most DSLC_REBUILD_TIMEOUT s each.\n"
	"# The first query waits DSLC_POLL s: the pool service schedules a rebuild after the drain or\n"
	"# reintegrate returned, and until then the last rebuild's state shows\n"
	"dslc_wait_rebuild() {\n"
	"\tsleep \"$DSLC_POLL\"\n"
	"\tfor pool in $dslc_pools; do\n"
	"\t\twaited=0\n"
	"\t\twhile :; do\n"
	"\t\t\tdslc_dmg_json pool query \"$pool\" || dslc_fail \"dmg pool query $pool failed\"\n"
	"\t\t\tread -r state derived status <<EOF\n"
	"$(printf '%s\\n' \"$dslc_out\" | awk '\n"
	"\t/\"rebuild\": \\{/ { r = 1; next }\n"
	"\tr && /}/ { r = 0 }\n"
	"\tr { l = $0; gsub(/[\\t \",]/, \"\", l); split(l, kv, \":\"); v[kv[1]] = kv[2] }\n"
	"\tEND { print (v[\"state\"] == \"\" ? \"-\" : v[\"state\"]), (v[\"derived_state\"] == \"\" ? \"-\" : v[\"derived_state\"]), (v[\"status\"] == \"\" ? \"-\" : v[\"status\"]) }')\n"
	"EOF\n"
	"\t\t\t[ \"$derived\" != - ] || derived=$(dslc_derive \"$state\" \"$status\")\n"
	"\t\t\tcase $derived in\n"
	"\t\t\tidle | done) break ;;\n"
	"\t\t\tbusy) ;;\n"
	"\t\t\t*) dslc_fail \"rebuild of pool $pool is $derived (state $state, status $status): see dmg pool query $pool\" ;;\n"
	"\t\t\tesac\n"
	"\t\t\tif [ \"$waited\" -ge \"$DSLC_REBUILD_TIMEOUT\" ]; then\n"
	"\t\t\t\tdslc_fail \"rebuild of pool $pool still busy after $waited s (DSLC_REBUILD_TIMEOUT, plan --rebuild-timeout)\"\n"
	"\t\t\tfi\n"
	"\t\t\tsleep \"$DSLC_POLL\"\n"
	"\t\t\twaited=$((waited + DSLC_POLL))\n"
	"\t\tdone\n"
	"\tdone\n"
	"}\n";

/* The Kubernetes functions, written when a node runs DAOS in pods. kubectl's
 * -o jsonpath (k8s.io/client-go/util/jsonpath; kubectl allows missing keys,
 * printing nothing) prints one pod a line as name|group|template
 * generation|Ready|deletion|waiting reason|scheduling reason. A DaemonSet's
 * pod is current when its pod-template-generation label equals the
 * DaemonSet's deprecated.daemonset.template.generation annotation
 * (pkg/controller/daemon/util/daemonset_util.go IsPodUpdated). The
 * controller deletes a pod whose node stops matching; a pod of an older
 * template of the same DaemonSet stays under OnDelete until deleted. */
static const char kube_functions[] =
	"dslc_kube() { $DSLC_KUBECTL -n \"$dslc_ns\" \"$@\"; }\n"
	"# the new tree's objects, checked to be this plan's: every group it names\n"
	"dslc_kube_apply() {\n"
	"\t[ -z \"$dslc_rolling\" ] || dslc_fail \"$dslc_rolling use updateStrategy RollingUpdate and their pod templates change: kubectl apply would make the DaemonSet controller replace their pods by itself, a node at a time, behind no DAOS gate. Write 'update ondelete' in the kubernetes block and plan again\"\n"
	"\tk=$DSLC_KUBE_DIR/kustomization.yaml\n"
	"\t[ -r \"$k\" ] || dslc_fail \"DSLC_KUBE_DIR=$DSLC_KUBE_DIR has no kustomization.yaml: point it at the new tree's cluster/kubernetes\"\n"
	"\tfor g in $dslc_groups; do\n"
	"\t\tgrep -qx -- \"- $g.yaml\" \"$k\" || dslc_fail \"$k does not list $g.yaml: DSLC_KUBE_DIR is not the tree of this plan\"\n"
	"\tdone\n"
	"\trun $DSLC_KUBECTL apply -k \"$DSLC_KUBE_DIR\"\n"
	"}\n"
	"# HOST SERVER AGENT: the node's new group labels ('' removes one)\n"
	"dslc_kube_label() {\n"
	"\ts=dslc.io/daos-server=$2\n"
	"\t[ -n \"$2\" ] || s=dslc.io/daos-server-\n"
	"\ta=dslc.io/daos-agent=$3\n"
	"\t[ -n \"$3\" ] || a=dslc.io/daos-agent-\n"
	"\trun $DSLC_KUBECTL label node --overwrite \"$1\" \"$s\" \"$a\"\n"
	"}\n"
	"# HOST APP DIGEST: exactly one pod of APP's group DIGEST on HOST, of the\n"
	"# DaemonSet's current template, Ready; an older template's pod is deleted\n"
	"dslc_kube_pod() {\n"
	"\tds=$2-$3\n"
	"\tgen=$(dslc_kube get daemonset \"$ds\" -o jsonpath='{.metadata.annotations.deprecated\\.daemonset\\.template\\.generation}') ||\n"
	"\t\tdslc_fail \"kubectl get daemonset $ds failed: was it applied (DSLC_KUBE_DIR)?\"\n"
	"\tcase $gen in '' | *[!0-9]*) dslc_fail \"daemonset $ds has no template generation ('$gen')\" ;; esac\n"
	"\twaited=0\n"
	"\twhile :; do\n"
	"\t\tpods=$(dslc_kube get pods -l \"app.kubernetes.io/name=$2\" --field-selector \"spec.nodeName=$1\" -o jsonpath='{range .items[*]}{.metadata.name}{\"|\"}{.metadata.labels.dslc\\.io/'\"$2\"'}{\"|\"}{.metadata.labels.pod-template-generation}{\"|\"}{.status.conditions[?(@.type==\"Ready\")].status}{\"|\"}{.metadata.deletionTimestamp}{\"|\"}{.status.containerStatuses[*].state.waiting.reason}{\"|\"}{.status.conditions[?(@.type==\"PodScheduled\")].reason}{\"\\n\"}{end}') ||\n"
	"\t\t\tdslc_fail \"kubectl get pods on $1 failed\"\n"
	"\t\tverdict=$(printf '%s\\n' \"$pods\" | awk -F'|' -v d=\"$3\" -v g=\"$gen\" '\n"
	"\t\t\tNF < 5 { next }\n"
	"\t\t\t{ n++; st = st sprintf(\"%s%s (group %s, template %s, ready %s%s%s%s)\", sep, $1, $2, $3, $4 == \"\" ? \"-\" : $4, $5 != \"\" ? \", terminating\" : \"\", $6 != \"\" ? \", \" $6 : \"\", $7 != \"\" ? \", \" $7 : \"\"); sep = \"; \" }\n"
	"\t\t\t$6 ~ /InvalidImageName|ErrImageNeverPull|CreateContainerConfigError/ { bad = $1 \" \" $6 }\n"
	"\t\t\t$5 == \"\" && $2 == d && $3 != g { print \"delete \" $1 }\n"
	"\t\t\t$5 == \"\" && $2 == d && $3 == g && $4 == \"True\" { ok++ }\n"
	"\t\t\tEND { if (bad != \"\") print \"bad \" bad; else if (n == 1 && ok == 1) print \"ready\"; print \"state \" (st == \"\" ? \"no pod\" : st) }')\n"
	"\t\tcase $verdict in\n"
	"\t\tready*) echo \"dslc: $ds Ready on $1\" >&2; return 0 ;;\n"
	"\t\tbad*) dslc_fail \"$2 on $1 cannot start: $(printf '%s\\n' \"$verdict\" | sed -n 's/^bad //p')\" ;;\n"
	"\t\tesac\n"
	"\t\tfor p in $(printf '%s\\n' \"$verdict\" | sed -n 's/^delete //p'); do\n"
	"\t\t\trun $DSLC_KUBECTL -n \"$dslc_ns\" delete pod \"$p\" --wait=false\n"
	"\t\tdone\n"
	"\t\tif [ \"$waited\" -ge \"$DSLC_POD_TIMEOUT\" ]; then\n"
	"\t\t\tdslc_fail \"$ds not Ready on $1 after $waited s (DSLC_POD_TIMEOUT): $(printf '%s\\n' \"$verdict\" | sed -n 's/^state //p')\"\n"
	"\t\tfi\n"
	"\t\tsleep \"$DSLC_POLL\"\n"
	"\t\twaited=$((waited + DSLC_POLL))\n"
	"\tdone\n"
	"}\n"
	"# GROUP: its DaemonSet and ConfigMap (and a daos-agent group's client\n"
	"# template), once no pod of it is left\n"
	"dslc_kube_prune() {\n"
	"\tapp=${1%-*}\n"
	"\tleft=$(dslc_kube get pods -l \"dslc.io/$app=${1##*-}\" -o jsonpath='{range .items[*]}{.spec.nodeName}{\" \"}{end}') ||\n"
	"\t\tdslc_fail \"kubectl get pods of $1 failed\"\n"
	"\t[ -z \"$left\" ] || dslc_fail \"$1 still runs pods on $left: relabel those nodes (or drain them) before it is removed\"\n"
	"\tif [ \"$app\" = daos-agent ]; then\n"
	"\t\trun dslc_kube delete --ignore-not-found \"daemonset/$1\" \"configmap/$1\" \"podtemplate/daos-client-${1##*-}\"\n"
	"\telse\n"
	"\t\trun dslc_kube delete --ignore-not-found \"daemonset/$1\" \"configmap/$1\"\n"
	"\tfi\n"
	"}\n";

/* self_heal for planned maintenance (docs/admin/self_healing.md): release/2.8
 * has the system property (system_prop.go parses ';'); 2.6 only the pool
 * property, set on every pool the system has. */
static void self_heal_functions(FILE *out, const plan_waves *w)
{
	if (plan_waves_system_self_heal(w)) {
		fprintf(out, "dslc_self_heal_commands() {\n"
			     "\techo \"dmg system set-prop 'self_heal:exclude;pool_exclude;pool_rebuild'\"\n"
			     "\techo 'dmg system self-heal eval'\n"
			     "}\n"
			     "dslc_self_heal_off() {\n"
			     "\tdslc_self_heal='off, or in an unknown state (its set-prop failed)'\n"
			     "\trun dmg system set-prop 'self_heal:exclude;pool_exclude'\n"
			     "\tdslc_self_heal='off (exclude;pool_exclude)'\n"
			     "}\n"
			     "dslc_self_heal_restore() {\n"
			     "\tdslc_self_heal='partly restored'\n"
			     "\trun dmg system set-prop 'self_heal:exclude;pool_exclude;pool_rebuild'\n"
			     "\trun dmg system self-heal eval\n"
			     "\tdslc_self_heal=restored\n"
			     "}\n");
		return;
	}
	fprintf(out, "dslc_self_heal_commands() {\n"
		     "\tfor p in $dslc_pools; do echo \"dmg pool set-prop $p 'self_heal:exclude;rebuild'\"; done\n"
		     "}\n"
		     "dslc_self_heal_off() {\n"
		     "\tfor p in $dslc_pools; do\n"
		     "\t\tdslc_self_heal=\"off on some pools (before $p)\"\n"
		     "\t\trun dmg pool set-prop \"$p\" 'self_heal:exclude'\n"
		     "\tdone\n"
		     "\t[ -z \"$dslc_pools\" ] || dslc_self_heal='off on every pool (exclude)'\n"
		     "}\n"
		     "dslc_self_heal_restore() {\n"
		     "\tfor p in $dslc_pools; do\n"
		     "\t\tdslc_self_heal=\"partly restored (from $p on still off)\"\n"
		     "\t\trun dmg pool set-prop \"$p\" 'self_heal:exclude;rebuild'\n"
		     "\tdone\n"
		     "\tdslc_self_heal=restored\n"
		     "}\n");
}

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

void rollout_script(FILE *out, arena *a, const plan_waves *w, const char *version)
{
	fprintf(out, "#!/bin/sh\n# The rollout of a dslc plan (%s): %zu wave%s, each stopped at its first failed gate.\n"
		     "# DSLC_APPLY is your command that installs a node's new files and applies its classes:\n"
		     "#   \"$DSLC_APPLY\" HOSTLIST CLASS...   (e.g. a pdsh or Ansible wrapper)\n"
		     "# For reformat and scm-lost it must leave daos_server running on the new files with the\n"
		     "# engines' storage wiped, so that they wait for format (docs/admin/administration.md).\n"
		     "# Environment: DSLC_JOIN_TIMEOUT (s, default 600), DSLC_REBUILD_TIMEOUT (s, default %lld:\n"
		     "# %s), DSLC_POLL (s between queries, default 10).\n",
		version, w->n, w->n == 1 ? "" : "s", w->rebuild_timeout, w->rebuild_timeout_why);
	if (w->kube)
		fprintf(out, "# DAOS runs in pods: the new tree's objects are applied first (DSLC_KUBE_DIR, its\n"
			     "# cluster/kubernetes), each node is relabeled in its wave (its pods move to the new\n"
			     "# groups' DaemonSets) and waited for (DSLC_POD_TIMEOUT s, default 900), and the old groups'\n"
			     "# objects are removed after the last wave. DSLC_KUBECTL: kubectl and its options\n"
			     "# (default kubectl; e.g. 'kubectl --context prod'). Do not run label-nodes.sh for a change.\n");
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
	fprintf(out, "set -euf\n: \"${DSLC_APPLY:?set DSLC_APPLY to the command that applies a wave}\"\n"
		     "DSLC_JOIN_TIMEOUT=${DSLC_JOIN_TIMEOUT:-600}\nDSLC_REBUILD_TIMEOUT=${DSLC_REBUILD_TIMEOUT:-%lld}\n"
		     "DSLC_POLL=${DSLC_POLL:-10}\n"
		     "# a limit that is not a whole number would make a gate wait forever\n"
		     "for v in \"$DSLC_JOIN_TIMEOUT\" \"$DSLC_REBUILD_TIMEOUT\" \"$DSLC_POLL\"; do\n"
		     "\tcase $v in '' | *[!0-9]*) n=0 ;; *) n=$v ;; esac\n"
		     "\t[ \"$n\" -ge 1 ] || { echo \"dslc: DSLC_JOIN_TIMEOUT, DSLC_REBUILD_TIMEOUT and DSLC_POLL take whole seconds (1 or more), not '$v'\" >&2; exit 2; }\n"
		     "done\n",
		w->rebuild_timeout);
	if (w->kube) {
		fprintf(out, "DSLC_KUBECTL=${DSLC_KUBECTL:-kubectl}\nDSLC_POD_TIMEOUT=${DSLC_POD_TIMEOUT:-900}\n"
			     "case $DSLC_POD_TIMEOUT in '' | *[!0-9]* | 0) echo \"dslc: DSLC_POD_TIMEOUT takes whole seconds (1 or more), not '$DSLC_POD_TIMEOUT'\" >&2; exit 2 ;; esac\n");
		if (w->kube->ngroups)
			fprintf(out, ": \"${DSLC_KUBE_DIR:?set DSLC_KUBE_DIR to the new tree's cluster/kubernetes}\"\n");
		fprintf(out, "dslc_rolling='");
		for (size_t i = 0; i < w->kube->nrolling; i++)
			fprintf(out, "%s%s", i ? " " : "", w->kube->rolling[i]);
		fprintf(out, "'\n");
		fprintf(out, "dslc_ns='%s'\ndslc_groups='", w->kube->ns ? w->kube->ns : "daos");
		for (size_t i = 0; i < w->kube->ngroups; i++)
			fprintf(out, "%s%s", i ? " " : "", w->kube->groups[i]);
		fprintf(out, "'\n");
	}
	fprintf(out, "dslc_described='");
	for (size_t i = 0; i < w->npools; i++)
		fprintf(out, "%s%s", i ? " " : "", w->pools[i]);
	fprintf(out, "'\n%s", functions);
	if (w->kube)
		fputs(kube_functions, out);
	self_heal_functions(out, w);
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
		if (i + 1 < w->n)
			fprintf(out, "dslc_left='wave%s %zu%s of %zu'\n", i + 2 < w->n ? "s" : "", i + 2,
				i + 2 < w->n ? arena_printf(a, " to %zu", w->n) : "", w->n);
		else
			fprintf(out, "dslc_left=''\n");
		lines(out, plan_wave_steps(a, w, i));
	}
	fprintf(out, "\ndslc_wave='after the last wave'\n");
	lines(out, plan_waves_after(a, w));
	fprintf(out, "echo 'dslc: rollout done' >&2\n");
}
