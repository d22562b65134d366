# SPDX-License-Identifier: BSD-2-Clause-Patent
# The rollout script's own Kubernetes functions, printed after
# targets/kube_lib.sh when a node runs DAOS in pods (compiled in as
# build/gen/compiler/plan/rollout_kube.inc).
# kubectl's -o jsonpath (k8s.io/client-go/util/jsonpath; kubectl allows missing
# keys, printing nothing) prints one pod a line as name|group|template
# generation|Ready|deletion|waiting reason|scheduling reason. A DaemonSet's pod
# is current when its pod-template-generation label equals the DaemonSet's
# deprecated.daemonset.template.generation annotation
# (pkg/controller/daemon/util/daemonset_util.go IsPodUpdated). The controller
# deletes a pod whose node stops matching; a pod of an older template of the
# same DaemonSet stays under OnDelete until deleted.
# shellcheck shell=sh disable=SC2154

# the new tree's objects, checked to be this plan's: every group it names
dslc_kube_apply() {
	[ -z "$dslc_rolling" ] || dslc_fail "$dslc_rolling use updateStrategy RollingUpdate and their pod templates change: kubectl apply would make the DaemonSet controller replace their pods by itself, a node at a time, behind no DAOS gate. Write 'update ondelete' in the kubernetes block and plan again"
	k=$DSLC_KUBE_DIR/kustomization.yaml
	[ -r "$k" ] || dslc_fail "DSLC_KUBE_DIR=$DSLC_KUBE_DIR has no kustomization.yaml: point it at the new tree's cluster/kubernetes"
	for g in $dslc_groups; do
		grep -qx -- "- $g.yaml" "$k" || dslc_fail "$k does not list $g.yaml: DSLC_KUBE_DIR is not the tree of this plan"
	done
	run dslc_kubectl apply -k "$DSLC_KUBE_DIR"
}
# HOST SERVER AGENT: the node's new group labels ('' removes one)
dslc_kube_label() {
	s=dslc.io/daos-server=$2
	[ -n "$2" ] || s=dslc.io/daos-server-
	a=dslc.io/daos-agent=$3
	[ -n "$3" ] || a=dslc.io/daos-agent-
	run dslc_kubectl label node --overwrite "$1" "$s" "$a"
}
# HOST APP DIGEST: exactly one pod of APP's group DIGEST on HOST, of the
# DaemonSet's current template, Ready; an older template's pod is deleted
dslc_kube_pod() {
	ds=$2-$3
	gen=$(dslc_kube get daemonset "$ds" -o jsonpath='{.metadata.annotations.deprecated\.daemonset\.template\.generation}') ||
		dslc_fail "kubectl get daemonset $ds failed: was it applied (DSLC_KUBE_DIR)?"
	case $gen in '' | *[!0-9]*) dslc_fail "daemonset $ds has no template generation ('$gen')" ;; esac
	began=$(dslc_now)
	while :; do
		pods=$(dslc_kube get pods -l "app.kubernetes.io/name=$2" --field-selector "spec.nodeName=$1" -o jsonpath='{range .items[*]}{.metadata.name}{"|"}{.metadata.labels.dslc\.io/'"$2"'}{"|"}{.metadata.labels.pod-template-generation}{"|"}{.status.conditions[?(@.type=="Ready")].status}{"|"}{.metadata.deletionTimestamp}{"|"}{.status.containerStatuses[*].state.waiting.reason}{"|"}{.status.conditions[?(@.type=="PodScheduled")].reason}{"\n"}{end}') ||
			dslc_fail "kubectl get pods on $1 failed"
		verdict=$(printf '%s\n' "$pods" | awk -F'|' -v d="$3" -v g="$gen" '
			NF < 5 { next }
			{ n++; st = st sprintf("%s%s (group %s, template %s, ready %s%s%s%s)", sep, $1, $2, $3, $4 == "" ? "-" : $4, $5 != "" ? ", terminating" : "", $6 != "" ? ", " $6 : "", $7 != "" ? ", " $7 : ""); sep = "; " }
			$6 ~ /InvalidImageName|ErrImageNeverPull|CreateContainerConfigError/ { bad = $1 " " $6 }
			$5 == "" && $2 == d && $3 != g { print "delete " $1 }
			$5 == "" && $2 == d && $3 == g && $4 == "True" { ok++ }
			END { if (bad != "") print "bad " bad; else if (n == 1 && ok == 1) print "ready"; print "state " (st == "" ? "no pod" : st) }')
		case $verdict in
		ready*) echo "dslc: $ds Ready on $1" >&2; return 0 ;;
		bad*) dslc_fail "$2 on $1 cannot start: $(printf '%s\n' "$verdict" | sed -n 's/^bad //p')" ;;
		esac
		for p in $(printf '%s\n' "$verdict" | sed -n 's/^delete //p'); do
			run dslc_kube delete pod "$p" --wait=false
		done
		waited=$(($(dslc_now) - began))
		if [ "$waited" -ge "$DSLC_POD_TIMEOUT" ]; then
			dslc_fail "$ds not Ready on $1 after $waited s (DSLC_POD_TIMEOUT): $(printf '%s\n' "$verdict" | sed -n 's/^state //p')"
		fi
		sleep "$DSLC_POLL"
	done
}
# GROUP: its DaemonSet and ConfigMap, once no pod of it is left (client
# templates are named by the nodes' resources, not by a group: never pruned)
dslc_kube_prune() {
	app=${1%-*}
	left=$(dslc_kube get pods -l "dslc.io/$app=${1##*-}" -o jsonpath='{range .items[*]}{.spec.nodeName}{" "}{end}') ||
		dslc_fail "kubectl get pods of $1 failed"
	[ -z "$left" ] || dslc_fail "$1 still runs pods on $left: relabel those nodes (or drain them) before it is removed"
	run dslc_kube delete --ignore-not-found "daemonset/$1" "configmap/$1"
}
# the first gate of a second run allows the interrupted wave's nodes
dslc_kube_gate_first() {
	dslc_kube_gate "$(if [ -n "${dslc_resume:-}" ]; then dslc_state_get kube_hosts "$dslc_resume"; fi)"
}
# NAMES: the device plugins whose configuration the apply changed read it only
# at start (dslc's k8s-rdma-shared-dev-plugin and generic-device-plugin
# DaemonSets, targets/kube_plugins.c): restart each and wait until
# it is rolled out, before a wave's pod asks for a renamed resource and stays
# Pending (kubectl rollout restart sets a template annotation; rollout status
# waits for every node's new pod: kubectl/pkg/polymorphichelpers)
dslc_kube_plugins() {
	for d in $1; do
		run dslc_kube rollout restart "daemonset/$d"
		run dslc_kube rollout status "daemonset/$d" --timeout="${DSLC_POD_TIMEOUT}s"
	done
}
