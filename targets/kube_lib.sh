# SPDX-License-Identifier: BSD-2-Clause-Patent
# The kubectl functions dslc's generated scripts share when DAOS runs in
# pods: the rollout script (after compiler/plan/rollout_kube.sh's own) and
# node-maintenance.sh. Printed after targets/dmg_lib.sh; the header sets
# dslc_ns. Compiled into dslc (build/gen/targets/kube_lib.inc).
# shellcheck shell=sh disable=SC2154

DSLC_KUBECTL=${DSLC_KUBECTL:-kubectl}
DSLC_POD_TIMEOUT=${DSLC_POD_TIMEOUT:-900}
DSLC_KUBE_TIMEOUT=${DSLC_KUBE_TIMEOUT:-60}
for v in "$DSLC_POD_TIMEOUT" "$DSLC_KUBE_TIMEOUT"; do
	case $v in '' | *[!0-9]* | 0) echo "dslc: DSLC_POD_TIMEOUT and DSLC_KUBE_TIMEOUT take whole seconds (1 or more), not '$v'" >&2; exit 2 ;; esac
done
# every kubectl call gives up after DSLC_KUBE_TIMEOUT s (kubectl --request-timeout;
# without it a call to an API server that does not answer waits forever)
dslc_kubectl() {
	# shellcheck disable=SC2086
	$DSLC_KUBECTL --request-timeout="${DSLC_KUBE_TIMEOUT}s" "$@"
}
dslc_kube() { dslc_kubectl -n "$dslc_ns" "$@"; }
# HOSTS: every daos-server pod on a node outside HOSTS Ready and not being
# deleted: a node that died (its pods turn not Ready once the node controller
# marks it) or a pod that crashes stops the next relabel. The hosts are kept
# in DSLC_STATE so that a second run allows the interrupted wave's.
dslc_kube_gate() {
	[ "$dslc_wave_no" = 0 ] || dslc_mark "kube_hosts $dslc_wave_no $1"
	pods=$(dslc_kube get pods -l app.kubernetes.io/name=daos-server -o jsonpath='{range .items[*]}{.spec.nodeName}{"|"}{.metadata.name}{"|"}{.status.conditions[?(@.type=="Ready")].status}{"|"}{.metadata.deletionTimestamp}{"\n"}{end}') ||
		dslc_fail 'kubectl get pods -l app.kubernetes.io/name=daos-server failed: the pods outside the wave are unknown'
	bad=$(printf '%s\n' "$pods" | awk -F'|' -v w=" $1 " '
		NF >= 4 && index(w, " " $1 " ") == 0 && ($3 != "True" || $4 != "") { printf "%s%s on %s (ready %s%s)", s, $2, $1, $3 == "" ? "-" : $3, $4 != "" ? ", terminating" : ""; s = "; " }')
	[ -z "$bad" ] || dslc_fail "daos-server pods outside this wave are not Ready: $bad"
	echo "dslc: every daos-server pod outside the wave is Ready" >&2
}
# every permission the script may use ($dslc_can_i: "VERB RESOURCE[/NAME]
# SUBRESOURCE|- NAMESPACE|all" lines, targets/kube_ops.c's table) granted, and
# the DAOS namespace there, before anything
# changes: kubectl auth can-i answers yes (exit 0) or no (exit 1)
# (staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go)
dslc_kube_can_i() {
	missing=''
	while read -r verb res sub scope; do
		[ -n "$verb" ] || continue
		if [ "$scope" = all ]; then set -- -A; else set -- -n "$scope"; fi
		dslc_res=$res
		[ "$sub" = - ] || { set -- "$@" --subresource="$sub"; dslc_res=$res/$sub; }
		dslc_kubectl auth can-i -q "$verb" "$res" "$@" >/dev/null 2>&1 ||
			missing="$missing${missing:+, }$verb $dslc_res ($scope)"
	done <<DSLC_CAN_I
$dslc_can_i
DSLC_CAN_I
	[ -z "$missing" ] || dslc_fail "kubectl auth can-i says no to: $missing. A cluster admin applies cluster/kubernetes/rollout-rbac.yaml (the ServiceAccount $dslc_ns/dslc-rollout, its Role dslc-rollout and ClusterRole dslc-rollout-$dslc_ns); run this with that account's token (kubectl -n $dslc_ns create token dslc-rollout), or bind both roles to this identity (the file's header)"
	echo 'dslc: kubectl auth can-i: every permission the script uses is granted' >&2
	# the namespace is the cluster admin's, with its Pod Security level: an
	# apply into a missing one fails halfway (namespaces "..." not found)
	dslc_kubectl get namespace "$dslc_ns" -o name >/dev/null ||
		dslc_fail "namespace $dslc_ns not found: a cluster admin applies cluster/kubernetes/rollout-rbac.yaml first (it creates the namespace)"
}
# the Secrets the pods copy their certificates from ($dslc_secrets: "NAME KEY..."
# lines, targets/kube_ops.c's table), each with every key: a missing one leaves
# a pod in ContainerCreating until DSLC_POD_TIMEOUT, after the change began
dslc_kube_secrets() {
	missing=''
	while read -r name keys; do
		[ -n "$name" ] || continue
		# shellcheck disable=SC2016 # a Go template, for kubectl to expand
		have=$(dslc_kube get secret "$name" -o go-template='{{range $k, $v := .data}}{{$k}} {{end}}') ||
			{ missing="$missing${missing:+; }no Secret $name"; continue; }
		for k in $keys; do
			case " $have" in *" $k "*) ;; *) missing="$missing${missing:+; }$name has no key $k" ;; esac
		done
	done <<DSLC_SECRETS
$dslc_secrets
DSLC_SECRETS
	[ -z "$missing" ] || dslc_fail "the certificates' Secrets in namespace $dslc_ns are not complete: $missing (kubectl -n $dslc_ns create secret generic NAME --from-file=KEY=FILE ...)"
	[ -z "$dslc_secrets" ] || echo 'dslc: the certificate Secrets hold every key the pods copy' >&2
}
# ---- the cluster's Lease: one actor at a time, atomically ----------------------
# Beside the DAOS attribute dslc.lock (dmg_lib.sh, which set-attr cannot take
# atomically), a coordination.k8s.io/v1 Lease in the namespace: a create
# fails when one exists (AlreadyExists) and a replace carries the
# resourceVersion read, so of two actors writing together the API server
# takes one and answers the other 409 Conflict ("the object has been
# modified", apimachinery's optimistic concurrency: kubectl replace is a PUT
# with metadata.resourceVersion). holderIdentity is the lock's value
# (KIND/HOST/PID/SINCE/PLAN); renewTime + leaseDurationSeconds is how long it
# holds without a renewal (the script renews it before every wave); leader
# election's fields and release (client-go tools/leaderelection/
# resourcelock/leaselock.go: holder emptied, duration 1 s).
DSLC_LEASE_SECONDS=${DSLC_LEASE_SECONDS:-14400}
case $DSLC_LEASE_SECONDS in '' | *[!0-9]* | 0) echo "dslc: DSLC_LEASE_SECONDS takes whole seconds (1 or more), not '$DSLC_LEASE_SECONDS'" >&2; exit 2 ;; esac
dslc_lease=dslc-lock
dslc_lease_on=1
dslc_lease_held=''
# a MicroTime as the API server writes it (RFC 3339, microseconds)
dslc_lease_time() { date -u -d "@$1" '+%Y-%m-%dT%H:%M:%S.000000Z'; }
# the Lease's fields into dslc_lease_{rv,holder,renew,dur,trans,acquire}
# (rv '' when there is none); 1 when kubectl failed otherwise
dslc_lease_read() {
	if ! v=$(dslc_kube get lease "$dslc_lease" -o jsonpath='{.metadata.resourceVersion}|{.spec.holderIdentity}|{.spec.renewTime}|{.spec.leaseDurationSeconds}|{.spec.leaseTransitions}|{.spec.acquireTime}' 2>"$dslc_errf"); then
		grep -q '(NotFound)' "$dslc_errf" || return 1
		v='|||||'
	fi
	IFS='|' read -r dslc_lease_rv dslc_lease_holder dslc_lease_renew dslc_lease_dur dslc_lease_trans dslc_lease_acquire <<DSLC_LEASE
$v
DSLC_LEASE
}
# HOLDER DURATION ACQUIRE TRANSITIONS: create the Lease, or replace it at the
# version read; 1 with the API server's answer in $dslc_errf
dslc_lease_write() {
	now=$(dslc_lease_time "$(dslc_now)")
	rv=''
	[ -z "$dslc_lease_rv" ] || rv=", \"resourceVersion\": \"$dslc_lease_rv\""
	h=''
	# only a value dslc_lock_id builds reaches the JSON (no quote, no backslash)
	case $1 in *[!A-Za-z0-9./-]*) echo "dslc: refusing to write a Lease holder with characters outside [A-Za-z0-9./-]: $(printf '%s' "$1" | wc -c) bytes" >"$dslc_errf"; return 1 ;; esac
	[ -z "$1" ] || h="\"holderIdentity\": \"$1\", "
	verb=replace
	[ -n "$dslc_lease_rv" ] || verb=create
	f=$(mktemp) || { echo 'dslc: mktemp failed' >"$dslc_errf"; return 1; }
	printf '{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "%s", "namespace": "%s"%s}, "spec": {%s"leaseDurationSeconds": %s, "acquireTime": "%s", "renewTime": "%s", "leaseTransitions": %s}}\n' \
		"$dslc_lease" "$dslc_ns" "$rv" "$h" "$2" "${3:-$now}" "$now" "$4" >"$f"
	rc=0
	dslc_kube "$verb" -f "$f" >/dev/null 2>"$dslc_errf" || rc=$?
	rm -f "$f"
	return $rc
}
dslc_lease_where() { echo "Lease $dslc_ns/$dslc_lease"; }
# the Lease's holder, in words (dslc_lock_holder; one dslc did not write is
# shown by kubectl)
dslc_lease_holder_words() { dslc_lock_holder "$dslc_lease_holder" "kubectl -n $dslc_ns get lease $dslc_lease -o yaml"; }
# KIND: take the Lease (dslc_lock_id) or refuse at once: held by another and
# renewed within its duration. A rollout's whose process on this host is
# gone, and this node's maintenance, are taken over as for the attribute.
dslc_lease_take() {
	dslc_lease_read || dslc_fail "kubectl get lease $dslc_lease failed: whether another actor holds the cluster is unknown ($(tr '\n' ' ' <"$dslc_errf"))"
	trans=${dslc_lease_trans:-0}
	case $trans in *[!0-9]* | '') trans=0 ;; esac
	if [ -n "$dslc_lease_holder" ]; then
		holder=$(dslc_lease_holder_words)
		renewed=$(date -u -d "$dslc_lease_renew" +%s 2>/dev/null) || renewed=''
		case $dslc_lease_dur in '' | *[!0-9]*) renewed='' ;; esac
		ago=''
		[ -z "$renewed" ] || ago=$(($(dslc_now) - renewed))
		if dslc_lock_takes_over "$dslc_lease_holder" "$(dslc_lease_where)" "$holder"; then
			:
		elif [ -n "$ago" ] && [ "$ago" -gt "$dslc_lease_dur" ]; then
			echo "dslc: taking over a stale $(dslc_lease_where): $holder, not renewed for $ago s (its leaseDurationSeconds is $dslc_lease_dur)" >&2
		else
			dslc_lock_refuse "the cluster is held by $holder ($(dslc_lease_where)${ago:+, renewed $ago s ago, held ${dslc_lease_dur} s from then without a renewal})"
		fi
		trans=$((trans + 1))
	fi
	if ! dslc_lease_write "$dslc_lock_id" "$DSLC_LEASE_SECONDS" '' "$trans"; then
		why=$(grep -o -m1 -e '(Conflict)' -e '(AlreadyExists)' "$dslc_errf")
		if [ -n "$why" ]; then
			dslc_lease_read || dslc_lease_holder=''
			dslc_lock_refuse "another actor took the cluster at the same time (the API server refused this write: $why)${dslc_lease_holder:+: $(dslc_lease_holder_words)}"
		fi
		dslc_fail "kubectl could not write the $(dslc_lease_where): $(tr '\n' ' ' <"$dslc_errf")"
	fi
	dslc_lease_held=1
	echo "dslc: holding the $(dslc_lease_where) (holderIdentity $dslc_lock_id, leaseDurationSeconds $DSLC_LEASE_SECONDS, renewed before every wave)" >&2
}
# before every wave: still ours, and renewed at the version read
dslc_lease_renew() {
	[ -n "$dslc_lease_held" ] || return 0
	dslc_lease_read || dslc_fail "kubectl get lease $dslc_lease failed: whether this run still holds the cluster is unknown"
	if [ "$dslc_lease_holder" != "$dslc_lock_id" ]; then
		dslc_lease_held=''
		if [ -n "$dslc_lease_holder" ]; then
			dslc_fail "this run no longer holds the cluster's $(dslc_lease_where): $(dslc_lease_holder_words) holds it"
		fi
		dslc_fail "this run no longer holds the cluster's $(dslc_lease_where): it was released or deleted"
	fi
	if ! dslc_lease_write "$dslc_lock_id" "$DSLC_LEASE_SECONDS" "$dslc_lease_acquire" "${dslc_lease_trans:-0}"; then
		dslc_lease_held=''
		dslc_fail "the $(dslc_lease_where) could not be renewed: $(tr '\n' ' ' <"$dslc_errf")"
	fi
}
# at exit: released (holder emptied, 1 s) when it is still ours
dslc_lease_release() {
	[ -n "$dslc_lease_held" ] || return 0
	dslc_lease_held=''
	dslc_lease_read 2>/dev/null && [ "$dslc_lease_holder" = "$dslc_lock_id" ] || return 0
	dslc_lease_write '' 1 "$dslc_lease_acquire" "${dslc_lease_trans:-0}" ||
		echo "dslc: could not release the $(dslc_lease_where): kubectl -n $dslc_ns delete lease $dslc_lease" >&2
}
