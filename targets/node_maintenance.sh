# SPDX-License-Identifier: BSD-2-Clause-Patent
# node-maintenance.sh's own steps (targets/kube_ops.c prints its header,
# then targets/dmg_lib.sh and kube_lib.sh, then this; compiled into dslc as
# build/gen/targets/node_maintenance.inc). The header sets dslc_op, dslc_host (the
# DAOS host, for dmg), dslc_node (its Kubernetes node, for kubectl), dslc_ns,
# dslc_release, dslc_described, dslc_can_i and DSLC_REBUILD_TIMEOUT's default.
# shellcheck shell=sh disable=SC2034,SC2154

# " (Kubernetes node NODE)" in messages where the names differ
dslc_as=''
[ "$dslc_node" = "$dslc_host" ] || dslc_as=" (Kubernetes node $dslc_node)"
DSLC_STOP_TIMEOUT=${DSLC_STOP_TIMEOUT:-300}
case $DSLC_STOP_TIMEOUT in '' | *[!0-9]* | 0) echo "node-maintenance.sh: DSLC_STOP_TIMEOUT takes whole seconds (1 or more), not '$DSLC_STOP_TIMEOUT'" >&2; exit 2 ;; esac
# what dmg_lib.sh keeps (self_heal's values) for this run; between stop and
# start it travels on the node, as the annotation dslc.io/self-heal-before
DSLC_STATE=$(mktemp) || exit 2
trap 'rm -f "$DSLC_STATE" "$dslc_errf"; dslc_lock_release' EXIT
dslc_annotation=dslc.io/self-heal-before

dslc_fail() {
	echo "node-maintenance.sh: STOPPED ($dslc_op $dslc_host$dslc_as): $1" >&2
	dslc_say_self_heal
	exit 1
}
# the node's annotation into DSLC_STATE: a stop run again keeps what the
# first one read, and start puts back what stop found
dslc_state_from_node() {
	a=$(dslc_kubectl get node "$dslc_node" -o jsonpath='{.metadata.annotations.dslc\.io/self-heal-before}') ||
		dslc_fail "kubectl get node $dslc_node failed"
	r=$(printf '%s\n' "$a" | tr ',' '\n' | grep '^self_heal') || return 0
	# anyone with patch on nodes can write it: only values dmg takes back
	bad=$(printf '%s\n' "$r" | dslc_records_bad)
	[ -z "$bad" ] || dslc_fail "the node's annotation $dslc_annotation holds a record this script did not write (${bad#line [0-9]*: }): set self_heal by hand (dmg pool get-prop POOL self_heal), then remove it: kubectl annotate node $dslc_node $dslc_annotation-"
	printf '%s\n' "$r" >>"$DSLC_STATE"
}
# every rank of HOST in state $1 within $2 s (a member list must not be empty)
wait_ranks() {
	began=$(dslc_now)
	while :; do
		m=$(dslc_members "$dslc_host") || dslc_fail "dmg system query --rank-hosts=$dslc_host failed"
		[ -n "$m" ] || dslc_fail "the system has no rank on $dslc_host"
		others=$(printf '%s\n' "$m" | awk -F'\t' -v w="$1" 'NF == 4 && $2 != w { printf "%s rank %s %s", s, $1, $2; s = "," }')
		[ -n "$others" ] || { echo "node-maintenance.sh: every rank of $dslc_host is $1" >&2; return 0; }
		waited=$(($(dslc_now) - began))
		[ "$waited" -lt "$2" ] || dslc_fail "ranks of $dslc_host not $1 after $waited s:$others"
		sleep "$DSLC_POLL"
	done
}

dslc_kube_can_i
# the node's pods copy their certificates again when it starts
dslc_kube_secrets
# one actor at a time (dmg_lib.sh), after the checks that change nothing:
# stop holds the cluster until start; the same node's maintenance (start, or
# stop run again) takes its lock over
dslc_lock_resume="maintenance-$dslc_host"
dslc_lock_take "maintenance-$dslc_host"
if [ "$dslc_op" = stop ]; then
	dslc_list_pools
	dslc_note_ranks "$dslc_host"
	# the rest of the system whole: the node's own ranks may be down already
	dslc_fleet_gate ''
	dslc_kube_gate "$dslc_node"
	dslc_state_from_node
	dslc_self_heal_off
	v=$(grep '^self_heal' "$DSLC_STATE" | awk '{ printf "%s%s", s, $0; s = "," }')
	[ -z "$v" ] || run dslc_kubectl annotate node --overwrite "$dslc_node" "$dslc_annotation=$v"
	run dmg system stop --rank-hosts="$dslc_host"
	wait_ranks stopped "$DSLC_STOP_TIMEOUT"
	run dslc_kubectl drain "$dslc_node" --ignore-daemonsets --delete-emptydir-data --timeout="${DSLC_POD_TIMEOUT}s"
	# the lock stays, and the Lease until its duration ends: no other actor
	# stops engines while this node is down
	dslc_lock_me=''
	dslc_lease_held=''
	echo "node-maintenance.sh: $dslc_host$dslc_as is stopped and drained: reboot it, then run: node-maintenance.sh start $dslc_host (until then no other dslc script acts on the cluster: $dslc_lock_key)" >&2
	exit 0
fi
dslc_state_from_node
annotated=''
if grep -q '^self_heal' "$DSLC_STATE"; then
	annotated=1
	dslc_self_heal="off since node-maintenance.sh stop $dslc_host (the node's $dslc_annotation annotation)"
fi
run dslc_kubectl uncordon "$dslc_node"
began=$(dslc_now)
while :; do
	p=$(dslc_kube get pods -l app.kubernetes.io/name=daos-server --field-selector "spec.nodeName=$dslc_node" -o 'jsonpath={range .items[*]}{.metadata.name}{"|"}{.status.conditions[?(@.type=="Ready")].status}{"|"}{.metadata.deletionTimestamp}{"\n"}{end}') ||
		dslc_fail "kubectl get pods on $dslc_node failed"
	[ "$(printf '%s\n' "$p" | awk -F'|' 'NF >= 3 { n++ } $2 == "True" && $3 == "" { ok++ } END { print (n == 1 && ok == 1) }')" = 1 ] && break
	waited=$(($(dslc_now) - began))
	[ "$waited" -lt "$DSLC_POD_TIMEOUT" ] || dslc_fail "the daos-server pod on $dslc_node is not Ready after $waited s: ${p:-no pod}"
	sleep "$DSLC_POLL"
done
dslc_list_pools
dslc_note_ranks "$dslc_host"
run dmg system start --rank-hosts="$dslc_host"
dslc_wait_joined "$dslc_host"
dslc_reintegrate "$dslc_host"
dslc_self_heal_restore
[ -z "$annotated" ] || run dslc_kubectl annotate node "$dslc_node" "$dslc_annotation-"
echo "node-maintenance.sh: $dslc_host$dslc_as is back: its ranks Joined, reintegrated where a pool had excluded them, self_heal as before" >&2
