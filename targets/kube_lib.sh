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
# every permission the script may use ($dslc_can_i: "VERB RESOURCE SUBRESOURCE|-
# NAMESPACE|all" lines, targets/kube_ops.c's table) granted, before anything
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
	[ -z "$missing" ] || dslc_fail "kubectl auth can-i says no to: $missing. A cluster admin applies cluster/kubernetes/rollout-rbac.yaml (ClusterRole dslc-rollout) and binds it to this identity: kubectl create clusterrolebinding dslc-rollout --clusterrole=dslc-rollout --user=NAME"
	echo 'dslc: kubectl auth can-i: every permission the script uses is granted' >&2
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
