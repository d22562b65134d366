#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 37 item 7: a change of the Kubernetes model rolls out one wave at a
# time. The rollout script (`dslc plan --format script` against a tree with
# DAOS in pods) runs against a fake kubectl and the cluster behind it
# (tests/fakes/kubectl: the DaemonSet controller, kubectl label/apply/get/
# delete, from Kubernetes' sources) and the fake dmg of tests/fakes/dmg. It
# must apply the new groups first, relabel each wave only after the previous
# one is Joined and rebuilt, replace a pod of an older template itself
# (OnDelete), stop at the first failed gate without touching later waves,
# and remove the old groups' objects only once no pod uses them. Also:
# label-nodes.sh never moves a node to another group. `sleep` is a no-op.
#   tests/rollout_k8s.sh DSLC [calls]
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin rollout-k8s
T=${KEEP_T:-$(mktemp -d)}
[ -n "${KEEP_T:-}" ] || trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin"
cp tests/fakes/date tests/fakes/sleep "$T/bin/"
fakes_serve "$T/bin" dmg kubectl

printf '#!/bin/sh\necho "apply $*" >>"$FAKE_LOG"\n' >"$T/bin/apply"
chmod +x "$T/bin/"*
HOSTS="gpu001 gpu002 gpu003 gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014"
sed "s|include \"../hgx-b200/hardware.dsl\"|include \"$PWD/examples/hgx-b200/hardware.dsl\"|" examples/hgx-b200-k8s/cluster.dsl >"$T/old.dsl"
# a daos_server.yml change (new groups) and a new image (new pod templates)
sed 's/swim_suspect_timeout 120s/swim_suspect_timeout 90s/; s|daos/daos:2.6.3|daos/daos:2.6.4|' "$T/old.dsl" >"$T/new.dsl"
# a daos_server.yml change only: new server groups, the agents stay
sed 's/swim_suspect_timeout 120s/swim_suspect_timeout 90s/' "$T/old.dsl" >"$T/server.dsl"
# a new image only: the same groups, new templates
sed 's|daos/daos:2.6.3|daos/daos:2.6.4|' "$T/old.dsl" >"$T/image.dsl"
# the same under RollingUpdate: kubectl apply alone would roll every node
sed 's/agent_run_as 1002:1002/agent_run_as 1002:1002  update rolling/' "$T/old.dsl" >"$T/rolling-old.dsl"
sed 's/agent_run_as 1002:1002/agent_run_as 1002:1002  update rolling/' "$T/image.dsl" >"$T/rolling-new.dsl"
# the RDMA resource renamed: the device plugin's ConfigMap and every pod template change
sed 's|^    agent_run_as 1002:1002 .*|    agent_run_as 1002:1002\n    rdma_resource rdma/daosnic|' "$T/old.dsl" >"$T/rdma.dsl"
# Kubernetes names the nodes otherwise than DAOS (issue 69 item 5; AKS:
# aks-<pool>-<id>-vmss<instance>), gpu007 by a name of its own
named() { sed 's|^  bmc     10.30.0.{10+i}|&\n  k8s_node_name aks-gpu-31415926-vmss{i}|; s|^node gpu007 {|& k8s_node_name gpu007.k8s.example.com|' "$1"; }
named "$T/old.dsl" >"$T/named-old.dsl"
named "$T/new.dsl" >"$T/named-new.dsl"
for t in old new image rolling-old rolling-new rdma named-old named-new; do
	$DSLC build "$T/$t.dsl" -o "$T/$t" >/dev/null 2>"$T/err" || { no "build $t: $(tail -1 "$T/err")"; }
done
$DSLC plan "$T/named-new.dsl" --against "$T/named-old" --format script >"$T/named.sh" 2>"$T/err"
rc=$?
check "named: the plan writes a script (exit $rc)" "[ $rc = 3 ] && sh -n '$T/named.sh'"
for t in new image server rdma; do
	$DSLC plan "$T/$t.dsl" --against "$T/old" --format script >"$T/$t.sh" 2>"$T/err"
	rc=$?
	check "$t: the plan writes a script (exit $rc)" "[ $rc = 3 ] && sh -n '$T/$t.sh'"
done
shellcheck_ok "the Kubernetes rollout script: shellcheck -s sh finds nothing" "$T/new.sh"
check "rdma: the script restarts both device plugins after the apply, before self_heal goes off" \
	"grep -qx \"run dslc_kube_plugins 'dslc-rdma-shared-dp dslc-vfio-dp'\" '$T/rdma.sh' && [ \"\$(grep -n '^run dslc_kube_apply' '$T/rdma.sh' | cut -d: -f1)\" -lt \"\$(grep -n '^run dslc_kube_plugins' '$T/rdma.sh' | cut -d: -f1)\" ] && [ \"\$(grep -n '^run dslc_kube_plugins' '$T/rdma.sh' | cut -d: -f1)\" -lt \"\$(grep -n '^run dslc_self_heal_off' '$T/rdma.sh' | cut -d: -f1)\" ] && ! grep -q '^run dslc_kube_plugins' '$T/new.sh'"
# the same script without the restart: the fake's plugin still advertises the old names
sed '/^run dslc_kube_plugins/d' "$T/rdma.sh" >"$T/rdma-norestart.sh"
for f in "$T/old.dsl" "$T/rdma.dsl"; do grep -q . "$f" || no "missing $f"; done
$DSLC plan "$T/new.dsl" --against "$T/old" --format json >"$T/new.json" 2>/dev/null
check "JSON: wave 1 relabels its node and waits for its pods, after the stop" \
	"python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))[\"rollout\"][\"waves\"][0][\"steps\"]; l=[i for i,x in enumerate(s) if x.startswith(\"dslc_kube_label\")]; st=[i for i,x in enumerate(s) if x.startswith(\"dmg system stop\")]; p=[x for x in s if x.startswith(\"dslc_kube_pod\")]; sys.exit(not (len(l)==1 and st[0] < l[0] and len(p)==2))' '$T/new.json'"
check "JSON: the new groups applied before self_heal goes off, the old ones pruned last" \
	"python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[\"rollout\"]; b=r[\"before\"]; a=r[\"after\"]; sys.exit(not (b.index(\"dslc_kube_apply\") < b.index(\"dslc_self_heal_off\") and [x for x in a if x.startswith(\"dslc_kube_prune\")] == a[-2:]))' '$T/new.json'"
# RollingUpdate with changed templates: the plan refuses (the script it writes runs below)
$DSLC plan "$T/rolling-new.dsl" --against "$T/rolling-old" --format script >"$T/rolling.sh" 2>"$T/err"
check "rolling: the plan says apply would roll the changed DaemonSets outside the waves" \
	"grep -q 'daos-server-$(sed -n 's/^gpu004 \([0-9a-f]*\) .*/\1/p' "$T/rolling-old/cluster/kubernetes/label-nodes.sh") changes under updateStrategy RollingUpdate' '$T/err' && grep -q '^# REFUSED' '$T/rolling.sh'"
# `calls` (make check's ASan pass): dslc's calls only; the scripts they wrote
# run against the fakes in the plain pass, where that tests the fakes, not dslc
if [ "${2:-}" = calls ]; then
	tests_end
	exit
fi

# cluster: a fake cluster running the old tree, every pod Ready (KNODES: the
# Kubernetes node names, default the hosts; KTREE: the tree, default old)
cluster() {
	rm -f "$T/kst" "$T/dst" "$T/log"
	: >"$T/log"
	export FAKE_LOG="$T/log" FAKE_KUBECTL_STATE="$T/kst" FAKE_KUBECTL_NODES="${KNODES:-$HOSTS} ${1:-}" FAKE_DMG_STATE="$T/dst"
	export FAKE_DMG_HOSTS="$HOSTS" FAKE_DMG_RELEASE=2.6 FAKE_DMG_POOLS=tier0
	# the cluster admin's step: the namespace and the rollout's identity
	PATH="$T/bin:$PATH" kubectl apply -f "$T/${KTREE:-old}/cluster/kubernetes/rollout-rbac.yaml" >/dev/null
	# the first deployment, by the rollout's identity: its requests count (rbac_covers)
	PATH="$T/bin:$PATH" FAKE_KUBECTL_NEEDS="$T/needs" kubectl apply -k "$T/${KTREE:-old}/cluster/kubernetes" >/dev/null
	PATH="$T/bin:$PATH" FAKE_KUBECTL_NEEDS="$T/needs" sh "$T/${KTREE:-old}/cluster/kubernetes/label-nodes.sh" >/dev/null
	for i in 1 2; do PATH="$T/bin:$PATH" kubectl -n daos get pods -o 'jsonpath={.items}' >/dev/null; done
	: >"$T/log"
}
# roll SCRIPT [KUBECTL MODES] [KUBE DIR]
# every kubectl call of a script gives up after DSLC_KUBE_TIMEOUT (60 s): the
# calls without it are kept aside in untimed, the option dropped from the log
# for the checks below
timed_calls() {
	grep '^kubectl ' "$T/log" | grep -v '^kubectl --request-timeout=60s ' >>"$T/untimed"
	sed -i 's/^kubectl --request-timeout=60s /kubectl /' "$T/log"
}
# (a fresh run: no state file of an earlier one; the fake clock at 1000 s)
roll() {
	rm -f "$T/$1.state"
	echo 1000 >"$T/clock"
	PATH="$T/bin:$PATH" FAKE_CLOCK="$T/clock" FAKE_KUBECTL_NEEDS="$T/needs" FAKE_KUBECTL_MODE="${2:-}" DSLC_APPLY="$T/bin/apply" DSLC_KUBE_DIR="${3:-$T/new/cluster/kubernetes}" \
		sh "$T/$1" >"$T/out" 2>&1
	rc=$?
	timed_calls
	return $rc
}
: >"$T/untimed"
: >"$T/needs"
# the fake cluster now: "HOST SERVER-DIGEST" of every node, and the objects
labels() { python3 -c 'import json,sys; st=json.load(open(sys.argv[1])); print(" ".join("%s=%s" % (h, n["labels"].get("dslc.io/daos-server", "-")) for h, n in sorted(st["nodes"].items())))' "$T/kst"; }
objects() { python3 -c 'import json,sys; print(" ".join(sorted(k.split("/")[2] for k in json.load(open(sys.argv[1]))["objects"] if k.split("/")[0] in ("DaemonSet", "ConfigMap") and "daos-" in k)))' "$T/kst"; }
pods_current() {
	python3 - "$T/kst" <<'EOF'
import json, sys
st = json.load(open(sys.argv[1]))
bad = []
for h in st["nodes"]:
    for app in ("daos-server", "daos-agent"):
        ps = [p for p in st["pods"].values() if p["spec"]["nodeName"] == h and p["metadata"]["labels"].get("app.kubernetes.io/name") == app
              and not p["metadata"].get("deletionTimestamp")]
        want = st["nodes"][h]["labels"].get("dslc.io/" + app)
        ds = st["objects"].get("DaemonSet/daos/%s-%s" % (app, want), {})
        gen = ds.get("metadata", {}).get("annotations", {}).get("deprecated.daemonset.template.generation")
        if len(ps) != 1 or ps[0]["metadata"]["labels"].get("pod-template-generation") != gen or \
           ps[0]["image"] != ds["spec"]["template"]["spec"]["containers"][0]["image"]:
            bad.append("%s %s" % (h, app))
print(" ".join(bad) or "ok")
EOF
}
order='gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014 gpu001 gpu002 gpu003'
relabeled() { grep '^kubectl label node --overwrite' "$T/log" | awk '{ print $5 }' | tr '\n' ' ' | sed 's/ $//'; }
sdig() { sed -n "s/^$1 \([0-9a-f-]*\) .*/\1/p" "$T/$2/cluster/kubernetes/label-nodes.sh"; }
NEW4=$(sdig gpu004 new)
OLD4=$(sdig gpu004 old)

cluster
roll new.sh
rc=$?
check "new groups: every wave, exit 0 ($rc)" "[ $rc = 0 ] && grep -q 'rollout done' '$T/out'"
check "new groups: every kubectl call has --request-timeout=60s" "[ ! -s '$T/untimed' ] && grep -q '^kubectl label node' '$T/log'"
# the cluster's Lease (issue 68 item 1), taken before the DAOS attribute
lease() { python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["objects"].get("Lease/daos/dslc-lock"); print("-" if o is None else "%s|%s|%s" % (o["spec"].get("holderIdentity") or "-", o["spec"]["leaseDurationSeconds"], o["spec"]["leaseTransitions"]))' "$T/kst"; }
first() { grep -n -m1 "$1" "$T/log" | cut -d: -f1; }
check "new groups: the Lease daos/dslc-lock created before the DAOS lock and any change, renewed at its resourceVersion before each of the 14 waves, released at the end (holder emptied, 1 s)" \
	"[ \"\$(grep -c '^kubectl -n daos create -f ' '$T/log')\" = 1 ] && [ \"\$(grep -c '^kubectl -n daos replace -f ' '$T/log')\" -ge 15 ] && [ \"\$(lease)\" = '-|1|0' ] && [ \"\$(first '^kubectl -n daos create -f')\" -lt \"\$(first '^dmg system set-attr dslc.lock')\" ] && [ \"\$(first '^dmg system set-attr dslc.lock')\" -lt \"\$(first '^kubectl apply -k')\" ] && grep -q 'holding the Lease daos/dslc-lock (holderIdentity rollout/' '$T/out'"
check "new groups: relabeled one node a wave, in the waves' order" "[ \"\$(relabeled)\" = '$order' ]"
# each relabel: after its own node's stop, and after the previous relabeled
# node's reintegrate and a rebuild gate (a pool query) that followed it
one_at_a_time() {
	python3 - "$T/log" <<'EOF'
import sys
log = open(sys.argv[1]).read().splitlines()
stop = prev = None
gated, n = True, 0
for line in log:
    w = line.split()
    if line.startswith("dmg system stop --rank-hosts="):
        stop = w[3].split("=")[1]
    elif line.startswith("dmg system reintegrate --rank-hosts=") and w[3].split("=")[1] == prev:
        gated = "reintegrated"
    elif line.startswith("dmg -j pool query") and gated == "reintegrated":
        gated = True
    elif line.startswith("kubectl label node"):
        if w[4] != stop or gated is not True:
            sys.exit("%s relabeled after the stop of %s, previous wave gated: %s" % (w[4], stop, gated))
        prev, gated, n = w[4], False, n + 1
sys.exit(n != 14)
EOF
}
check "new groups: each node relabeled after its own stop, and only once the previous wave was reintegrated and gated" one_at_a_time
check "new groups: the new objects applied before the first relabel and before self_heal goes off" \
	"applied=\$(grep -n -m1 '^kubectl apply -k' '$T/log' | cut -d: -f1) && [ \"\$applied\" -lt \"\$(grep -n -m1 'set-prop' '$T/log' | cut -d: -f1)\" ] && [ \"\$applied\" -lt \"\$(grep -n -m1 '^kubectl label node' '$T/log' | cut -d: -f1)\" ]"
check "new groups: every pod is of its node's new group and current template" "[ \"\$(pods_current)\" = ok ]"
check "new groups: gpu004 is in its new group" "[ -n '$NEW4' ] && labels | grep -qw 'gpu004=$NEW4'"
check "new groups: the old groups' DaemonSets and ConfigMaps are gone, after the last wave" \
	"! objects | grep -q '$OLD4' && [ \"\$(grep -n 'delete.*daemonset/daos-server-$OLD4' '$T/log' | cut -d: -f1)\" -gt \"\$(grep -n 'reintegrate --rank-hosts=gpu003' '$T/log' | cut -d: -f1)\" ]"
check "new groups: the agent pods of the old template were deleted by the script (OnDelete), 14 of them" \
	"[ \"\$(grep -c '^kubectl -n daos delete pod daos-agent-' '$T/log')\" = 14 ]"

# pods that take long to stop (the kubelet's grace period): a wave's engines
# are reintegrated only once its node's old daos-server pod is gone, since a
# terminating pod is listed beside its replacement and is no Ready pod (the
# server groups alone change, so no agent pod's wait hides the server's)
cluster
FAKE_KUBECTL_TERMINATING=8 roll server.sh
rc=$?
gone_first() {
	python3 - "$T/log" <<'EOF'
import re, sys
log = open(sys.argv[1]).read().splitlines()
# per node: its relabel, its old server pod gone, the script's first look at
# its agent pods (the server's wait has ended), its reintegration
seen, bad = {}, []
for i, line in enumerate(log):
    for key, pat in (("label", r"kubectl label node --overwrite (\S+) "), ("gone", r"kubelet: pod daos-server-\S+ on (\S+) gone$"),
                     ("agent", r"kubectl -n daos get pods -l app.kubernetes.io/name=daos-agent --field-selector spec.nodeName=(\S+) "),
                     ("reint", r"dmg system reintegrate --rank-hosts=(\S+)$")):
        m = re.match(pat, line)
        if m:
            seen.setdefault(m.group(1), {}).setdefault(key, i)
for h, at in sorted(seen.items()):
    if not ("label" in at and "gone" in at and "agent" in at and "reint" in at) or not at["label"] < at["gone"] < at["agent"] < at["reint"]:
        bad.append("%s %s" % (h, at))
print("server wait ended before the old pod was gone: " + "; ".join(bad) if bad or len(seen) != 14 else "ok")
EOF
}
check "slow pod termination: every wave (exit $rc); on each node the server's wait ended, and its engines were reintegrated, only once its old server pod was gone" \
	"[ $rc = 0 ] && grep -q 'rollout done' '$T/out' && [ \"\$(gone_first)\" = ok ]"

# RollingUpdate with changed templates: refused before anything is applied or stopped
cluster
roll rolling.sh '' "$T/rolling-new/cluster/kubernetes"
rc=$?
check "rolling: the script stops before kubectl apply, any stop or self_heal change (exit $rc)" \
	"[ $rc = 1 ] && grep -q \"STOPPED before the first wave: .*RollingUpdate.*update ondelete\" '$T/out' && ! grep -q '^kubectl apply\\|^dmg system stop\\|set-prop' '$T/log'"

# the same groups, a new image: nothing is relabeled; each wave's pods are replaced by the script
cluster
roll image.sh '' "$T/image/cluster/kubernetes"
rc=$?
check "new image: exit 0 ($rc), no relabel, no prune" "[ $rc = 0 ] && grep -q 'rollout done' '$T/out' && [ -z \"\$(relabeled)\" ] && ! grep -q 'delete --ignore-not-found' '$T/log'"
check "new image: each node's two pods replaced in its wave, after its stop" \
	"[ \"\$(grep -c '^kubectl -n daos delete pod' '$T/log')\" = 28 ] && awk '/^dmg system stop --rank-hosts=/ { s = substr(\$4, 13) } /delete pod daos-server/ { n++; if (s == \"\") bad = 1 } END { exit bad || n != 14 }' '$T/log'"
check "new image: every pod runs the new template" "[ \"\$(pods_current)\" = ok ]"

# issue 52 item 14: the certificate Secrets the pods copy, checked before any change
cluster
roll new.sh no-secret=daos-agent-certs
rc=$?
check "a missing certificate Secret: refused before any dmg call or change (exit $rc), naming it" \
	"[ $rc = 1 ] && grep -q 'not complete: no Secret daos-agent-certs' '$T/out' && ! grep -q '^dmg\\|^kubectl apply\\|^kubectl label' '$T/log'"
cluster
roll new.sh secret-lacks=daos-server-certs:server.key
rc=$?
check "a Secret without a key the pods copy: refused before any change (exit $rc), naming the key" \
	"[ $rc = 1 ] && grep -q 'daos-server-certs has no key server.key' '$T/out' && ! grep -q 'daos-agent-certs has no' '$T/out' && ! grep -q '^dmg\\|^kubectl apply\\|^kubectl label' '$T/log'"

# issue 51 item 8: every kubectl permission the script uses is checked first
cluster
roll new.sh cannot=patch:nodes
rc=$?
check "a missing RBAC permission: refused before any dmg call or change (exit $rc), naming it and the roles" \
	"[ $rc = 1 ] && grep -q 'kubectl auth can-i says no to: patch nodes (all)' '$T/out' && grep -q 'rollout-rbac.yaml (the ServiceAccount daos/dslc-rollout, its Role dslc-rollout and ClusterRole dslc-rollout-daos)' '$T/out' && ! grep -q '^dmg\\|^kubectl apply\\|^kubectl label' '$T/log'"
# the API server decides can-i from the RBAC objects applied (tests/fakes/rbac.py):
# the Role's binding gone, every namespaced verb is refused and only those
drop_object() { python3 -c 'import json,sys; st=json.load(open(sys.argv[1])); del st["objects"][sys.argv[2]]; json.dump(st, open(sys.argv[1], "w"))' "$T/kst" "$1"; }
cluster
drop_object RoleBinding/daos/dslc-rollout
roll new.sh
rc=$?
check "the Role's binding missing: refused before any change (exit $rc), naming the namespaced verbs only" \
	"[ $rc = 1 ] && grep -q 'says no to: delete pods (daos), list daemonsets.apps (daos),.* update leases.coordination.k8s.io (daos)\\.' '$T/out' && ! grep -q '(all)' '$T/out' && ! grep -q '^dmg\\|^kubectl apply\\|^kubectl label' '$T/log'"
cluster
drop_object Namespace//daos
roll new.sh
rc=$?
check "the namespace missing (rollout-rbac.yaml not applied as a whole): refused before any change (exit $rc), saying who creates it" \
	"[ $rc = 1 ] && grep -q 'namespace daos not found: a cluster admin applies cluster/kubernetes/rollout-rbac.yaml first' '$T/out' && ! grep -q '^dmg\\|^kubectl apply\\|^kubectl label' '$T/log'"
cluster
roll new.sh
check "the PodDisruptionBudget is applied with the new groups (minAvailable 13 of 14 daos-server pods)" \
	"python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))[\"objects\"][\"PodDisruptionBudget/daos/daos-server\"]; sys.exit(o[\"spec\"][\"minAvailable\"] != 13)' '$T/kst'"
# a renamed RDMA resource: the plugins restart after the apply, then every wave's pods schedule
cluster
roll rdma.sh '' "$T/rdma/cluster/kubernetes"
rc=$?
check "rdma renamed: the plugins restarted and rolled out before the first stop, every wave's pods replaced and current (exit $rc)" \
	"[ $rc = 0 ] && [ \"\$(grep -n -m1 '^kubectl -n daos rollout status daemonset/dslc-rdma-shared-dp' '$T/log' | cut -d: -f1)\" -lt \"\$(grep -n -m1 '^dmg system stop' '$T/log' | cut -d: -f1)\" ] && [ \"\$(grep -c '^kubectl -n daos delete pod daos-server' '$T/log')\" = 14 ] && [ \"\$(pods_current)\" = ok ]"
cluster
DSLC_POD_TIMEOUT=90 roll rdma-norestart.sh '' "$T/rdma/cluster/kubernetes"
rc=$?
check "rdma renamed without the restart: wave 1's pod stays Pending (Unschedulable) and the script stops there (exit $rc)" \
	"[ $rc = 1 ] && grep -q 'STOPPED in wave 1 of 14 (gpu004: .*not Ready on gpu004 after 90 s (DSLC_POD_TIMEOUT): .*Unschedulable' '$T/out' && ! grep -q '^dmg system stop --rank-hosts=gpu005' '$T/log'"
cluster
roll rdma.sh plugin-stuck=dslc-rdma-shared-dp "$T/rdma/cluster/kubernetes"
rc=$?
check "a plugin that does not roll out: stops before self_heal changes and any stop (exit $rc)" \
	"[ $rc = 1 ] && grep -q \"'dslc_kube rollout status daemonset/dslc-rdma-shared-dp\" '$T/out' && grep -q 'self_heal was not changed' '$T/out' && ! grep -q '^dmg system stop\\|set-prop' '$T/log'"

# issue 51: the system outside the wave. A daos-server pod that crashes on a
# node in a later wave before the start: nothing changes
cluster
K="PATH=$T/bin:$PATH FAKE_KUBECTL_MODE=never-ready=gpu010"
p=$(env $K kubectl -n daos get pods -l app.kubernetes.io/name=daos-server --field-selector spec.nodeName=gpu010 -o 'jsonpath={.items[*].metadata.name}')
env $K kubectl -n daos delete pod "$p" >/dev/null
for i in 1 2 3 4 5; do env $K kubectl -n daos get pods -o 'jsonpath={.items}' >/dev/null; done
: >"$T/log"
roll new.sh never-ready=gpu010
rc=$?
check "a daos-server pod not Ready outside the wave before the start: stops before anything (exit $rc), naming it" \
	"[ $rc = 1 ] && grep -q 'STOPPED before the first wave: daos-server pods outside this wave are not Ready: daos-server-[0-9a-f-]* on gpu010 (ready False)' '$T/out' && ! grep -q '^kubectl apply\\|^kubectl label\\|^dmg system stop\\|set-prop' '$T/log'"
# a node of a later wave dies after wave 1: wave 2 is not relabeled
cluster
FAKE_DMG_MODE=dies-after-rebuild=gpu011 roll new.sh
rc=$?
check "a node dies after wave 1's rebuild: stops at wave 2's gate before its relabel (exit $rc)" \
	"[ $rc = 1 ] && [ \"\$(relabeled)\" = gpu004 ] && grep -q 'STOPPED in wave 2 of 14 (gpu005: .*rank 20 (/gpu011, 10.0.0.11:10001) is excluded' '$T/out' && ! grep -q '^VIOLATION' '$T/log'"
# interrupted in wave 3 (after its apply, before its relabel), then run again
cluster
printf '#!/bin/sh\necho "apply $*" >>"$FAKE_LOG"\n[ "$1" != gpu006 ] || kill -TERM "$(ps -o ppid= -p "$PPID" | tr -d " ")"\n' >"$T/bin/apply-killed"
chmod +x "$T/bin/apply-killed"
cp "$T/bin/apply" "$T/bin/apply-kept" && cp "$T/bin/apply-killed" "$T/bin/apply"
roll new.sh
rc=$?
cp "$T/bin/apply-kept" "$T/bin/apply"
check "interrupted in wave 3: exit 143, gpu006 stopped and not relabeled" \
	"[ $rc = 143 ] && [ \"\$(relabeled)\" = 'gpu004 gpu005' ] && grep -q 'INTERRUPTED (SIGTERM) in wave 3 of 14' '$T/out'"
: >"$T/log"
echo 1000 >"$T/clock"
PATH="$T/bin:$PATH" FAKE_CLOCK="$T/clock" DSLC_APPLY="$T/bin/apply" DSLC_KUBE_DIR="$T/new/cluster/kubernetes" sh "$T/new.sh" >"$T/out" 2>&1
rc=$?
timed_calls
check "run again: wave 3 from its start (relabel, pods Ready), then the rest, every pod current (exit $rc)" \
	"[ $rc = 0 ] && [ \"\$(relabeled)\" = 'gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014 gpu001 gpu002 gpu003' ] && [ \"\$(pods_current)\" = ok ] && ! grep -q '^VIOLATION' '$T/log'"

# a pod that never gets Ready: stop in its wave, later waves untouched, old groups kept
# (90 s: an old pod terminates for three polls before its replacement starts)
cluster
DSLC_POD_TIMEOUT=90 roll new.sh never-ready=gpu006
rc=$?
check "never Ready: stops in wave 3 (exit $rc) with the pod's state" \
	"[ $rc = 1 ] && grep -q 'STOPPED in wave 3 of 14 (gpu006: engine-restart, agent-restart): daos-server-$NEW4 not Ready on gpu006 after 90 s (DSLC_POD_TIMEOUT): .*CrashLoopBackOff' '$T/out'"
check "never Ready: gpu007 and later keep their old group, nothing pruned, self_heal stays off" \
	"[ \"\$(relabeled)\" = 'gpu004 gpu005 gpu006' ] && labels | grep -q 'gpu008=$OLD4' && objects | grep -q '$OLD4' && grep -q 'self_heal is off' '$T/out' && grep -q 'not started: waves 4 to 14 of 14' '$T/out'"

# an image containerd refuses: stop at once
cluster
roll new.sh bad-image=gpu004
rc=$?
check "InvalidImageName: stops in wave 1 at the first look (exit $rc)" \
	"[ $rc = 1 ] && grep -q 'STOPPED in wave 1 of 14 .*daos-server on gpu004 cannot start: daos-server-$NEW4-[0-9]* InvalidImageName' '$T/out' && [ \"\$(grep -c 'get pods.*nodeName=gpu004' '$T/log')\" = 1 ]"

# kubectl label fails
cluster
roll new.sh label-fails=gpu005
rc=$?
check "label fails: stops in wave 2 (exit $rc), gpu005 keeps its old pod" \
	"[ $rc = 1 ] && grep -q 'STOPPED in wave 2 of 14 .*kubectl label node --overwrite gpu005 .* failed (exit 1)' '$T/out' && grep -q 'nodes \"gpu005\" not found' '$T/out' && labels | grep -q 'gpu005=$OLD4'"

# the wrong tree in DSLC_KUBE_DIR: nothing applied, nothing stopped
cluster
roll new.sh '' "$T/old/cluster/kubernetes"
rc=$?
check "wrong DSLC_KUBE_DIR: stops before anything changes (exit $rc)" \
	"[ $rc = 1 ] && grep -q 'does not list daos-server-.*DSLC_KUBE_DIR is not the tree of this plan' '$T/out' && ! grep -q '^kubectl apply\\|^kubectl label\\|^dmg system stop\\|set-prop' '$T/log' && grep -q 'self_heal was not changed' '$T/out'"
cluster
roll new.sh apply-fails
rc=$?
check "apply fails: stops before self_heal off and any stop (exit $rc)" \
	"[ $rc = 1 ] && grep -q \"STOPPED before the first wave: 'dslc_kubectl apply -k\" '$T/out' && ! grep -q '^dmg system stop\\|set-prop' '$T/log'"
: >"$T/log"
DSLC_POD_TIMEOUT=0 roll new.sh
rc=$?
check "DSLC_POD_TIMEOUT=0 is refused before the first call (exit $rc)" "[ $rc = 2 ] && ! grep -q . '$T/log'"

# a node the description does not name still runs an old group: the prune refuses
cluster gpu099
PATH="$T/bin:$PATH" kubectl label node gpu099 "dslc.io/daos-server=$OLD4" >/dev/null
# its pod Ready (the fleet gate would stop at a pod that is not)
for i in 1 2; do PATH="$T/bin:$PATH" kubectl -n daos get pods -o 'jsonpath={.items}' >/dev/null; done
: >"$T/log"
roll new.sh
rc=$?
check "prune: an old group still running pods on gpu099 is kept, and said (exit $rc)" \
	"[ $rc = 1 ] && grep -q 'daos-server-$OLD4 still runs pods on gpu099' '$T/out' && objects | grep -q 'daos-server-$OLD4'"

# node-maintenance.sh (issue 37 item 11, issue 51 item 8): every kubectl
# permission checked, the rest of the system gated as the rollout's fleet gate
# does, self_heal's rebuild off (its value kept on the node's annotation),
# stop the ranks, wait, then drain; back: uncordon, the pod Ready, start,
# Joined, reintegrated where a pool excluded them, self_heal as it was. Each
# step only after the one before it succeeded.
M="$T/old/cluster/kubernetes/node-maintenance.sh"
shellcheck_ok "node-maintenance.sh: shellcheck -s sh finds nothing" "$M"
maint() {
	echo 1000 >"$T/clock"
	PATH="$T/bin:$PATH" FAKE_CLOCK="$T/clock" FAKE_KUBECTL_NEEDS="$T/needs" FAKE_DMG_MODE="${3:-}" FAKE_KUBECTL_MODE="${4:-}" DSLC_STOP_TIMEOUT=30 DSLC_JOIN_TIMEOUT=30 \
		sh "$M" "$1" "$2" >"$T/out" 2>&1
	rc=$?
	timed_calls
	return $rc
}
annotation() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nodes"]["gpu005"].get("annotations", {}).get("dslc.io/self-heal-before", "-"))' "$T/kst"; }
line() { grep -n -m1 "$1" "$T/log" | cut -d: -f1; }
cluster
maint stop gpu005
rc=$?
check "maintenance stop: can-i, the fleet gate, self_heal read and off, its value on the node, dmg stop, ranks seen stopped, then drain (exit $rc)" \
	"[ $rc = 0 ] && [ \"\$(line '^kubectl auth can-i')\" = 1 ] && [ \"\$(line '^dmg -j system leader-query')\" -lt \"\$(line '^dmg -j pool get-prop tier0 self_heal')\" ] && [ \"\$(line '^dmg -j pool get-prop')\" -lt \"\$(line '^dmg pool set-prop tier0 self_heal:exclude\$')\" ] && [ \"\$(line 'set-prop')\" -lt \"\$(line '^kubectl annotate node --overwrite gpu005')\" ] && [ \"\$(line '^kubectl annotate')\" -lt \"\$(line '^dmg system stop --rank-hosts=gpu005')\" ] && [ \"\$(line '^dmg system stop')\" -lt \"\$(line '^kubectl drain gpu005 --ignore-daemonsets')\" ] && grep -q 'every rank of gpu005 is stopped' '$T/out' && grep -q 'node/gpu005 drained' '$T/out' && [ \"\$(annotation)\" = 'self_heal tier0 exclude;rebuild' ]"
: >"$T/log"
maint start gpu005 '' no-secret=daos-server-certs
rc=$?
check "maintenance start without the server's Secret: stops before uncordon (exit $rc), naming it" \
	"[ $rc = 1 ] && grep -q 'no Secret daos-server-certs' '$T/out' && ! grep -q '^kubectl uncordon\\|^dmg system start' '$T/log'"
: >"$T/log"
maint start gpu005
rc=$?
check "maintenance start: uncordon, the pod Ready, dmg start, Joined, reintegrate (a pool excluded the ranks), self_heal put back, the annotation removed (exit $rc)" \
	"[ $rc = 0 ] && [ \"\$(line '^kubectl uncordon gpu005')\" -lt \"\$(line '^dmg system start --rank-hosts=gpu005')\" ] && [ \"\$(line '^dmg system start')\" -lt \"\$(line '^dmg system reintegrate --rank-hosts=gpu005')\" ] && [ \"\$(line '^dmg system reintegrate')\" -lt \"\$(line '^dmg pool set-prop tier0 self_heal:exclude;rebuild\$')\" ] && grep -q 'ranks 8 9 Joined' '$T/out' && [ \"\$(annotation)\" = - ] && grep -q '^kubectl annotate node gpu005 dslc.io/self-heal-before-' '$T/log'"
check "maintenance: every kubectl call has --request-timeout=60s" "[ ! -s '$T/untimed' ] && grep -q '^kubectl uncordon gpu005' '$T/log' && grep -q '^kubectl auth can-i' '$T/log'"
# stop run twice (the first was interrupted after its drain, or the operator
# ran it again): the second reads the value the first kept on the node, not
# the self_heal the first turned off, and start puts back the real one
cluster
maint stop gpu005
maint stop gpu005
rc=$?
first=$(annotation)
: >"$T/log"
maint start gpu005
rc2=$?
check "maintenance stop run twice: the annotation still holds the value before the first (exit $rc), and start restores it (exit $rc2)" \
	"[ $rc = 0 ] && [ $rc2 = 0 ] && [ '$first' = 'self_heal tier0 exclude;rebuild' ] && grep -q '^dmg pool set-prop tier0 self_heal:exclude;rebuild\$' '$T/log' && ! grep -q '^dmg pool set-prop tier0 self_heal:exclude\$' '$T/log'"
# start while the node's daos-server pod is Terminating (deleted just before,
# still Ready until its containers stop): the engines start only in its
# replacement, once that is Ready
cluster
maint stop gpu005
: >"$T/log"
FAKE_KUBECTL_TERMINATING=40 maint start gpu005 '' deleted=gpu005
rc=$?
check "maintenance start beside a Terminating daos-server pod: dmg start only after it is gone and its replacement Ready (exit $rc)" \
	"[ $rc = 0 ] && [ -n \"\$(line '^kubelet: pod daos-server-.* on gpu005 gone')\" ] && [ \"\$(line '^kubelet: pod daos-server-.* on gpu005 gone')\" -lt \"\$(line '^dmg system start --rank-hosts=gpu005')\" ]"
# another node's daos-server pod deleted just before (Terminating, still
# Ready): its engines are going down, so no second node may stop
cluster
FAKE_KUBECTL_TERMINATING=40 maint stop gpu005 '' deleted=gpu009
rc=$?
check "maintenance stop while gpu009's daos-server pod is Terminating: refused before any change (exit $rc), naming it" \
	"[ $rc = 1 ] && grep -q 'daos-server pods outside this wave are not Ready: daos-server-[a-z0-9-]* on gpu009 (ready True, terminating)' '$T/out' && ! grep -q '^dmg system stop\\|set-prop\\|^kubectl drain\\|^kubectl annotate' '$T/log'"
cluster
maint stop gpu005 excluded-before=gpu009
rc=$?
check "maintenance stop while gpu009 is down: refused before any change (exit $rc), naming the ranks" \
	"[ $rc = 1 ] && grep -q 'STOPPED (stop gpu005): the system is not healthy enough to take more down: rank 16 (/gpu009, 10.0.0.9:10001) is excluded' '$T/out' && ! grep -q '^dmg system stop\\|set-prop\\|^kubectl drain\\|^kubectl annotate' '$T/log' && grep -q 'self_heal was not changed' '$T/out'"
cluster
maint stop gpu005 "" cannot=create:pods/eviction
rc=$?
check "maintenance stop without the eviction permission: refused before any dmg call (exit $rc), naming it" \
	"[ $rc = 1 ] && grep -q 'kubectl auth can-i says no to: create pods/eviction (all)' '$T/out' && ! grep -q '^dmg' '$T/log'"
cluster
maint stop gpu006 stop-fails=gpu006
rc=$?
check "maintenance stop: a failed dmg stop stops it before any drain, saying self_heal is off and how to restore it (exit $rc)" \
	"[ $rc = 1 ] && grep -q 'STOPPED (stop gpu006)' '$T/out' && ! grep -q '^kubectl drain' '$T/log' && grep -q \"dmg pool set-prop tier0 'self_heal:exclude;rebuild'\" '$T/out'"
cluster
maint stop gpu006
: >"$T/log"
maint start gpu006 stay-excluded=gpu006
rc=$?
check "maintenance start: ranks that stay excluded fail it, naming them, self_heal still off since stop (exit $rc)" \
	"[ $rc = 1 ] && grep -q 'ranks of gpu006 not Joined after 30 s (DSLC_JOIN_TIMEOUT): rank 10 excluded, rank 11 excluded' '$T/out' && grep -q 'self_heal is off since node-maintenance.sh stop gpu006' '$T/out' && ! grep -q 'set-prop' '$T/log'"
: >"$T/log"
# one actor at a time (issue 68): node-maintenance.sh and the rollout hold
# the same DAOS system attribute, dslc.lock; stop keeps it until start
lock_value() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("attrs", {}).get("dslc.lock", "-"))' "$T/dst"; }
cluster
maint stop gpu004
rc1=$?
held=$(lock_value)
: >"$T/log"
roll new.sh
rc=$?
cp "$T/out" "$T/out.refused"
check "a rollout while gpu004 is in maintenance: refused at once (exit $rc), naming node-maintenance.sh stop gpu004, nothing changed" \
	"[ $rc1 = 0 ] && [ $rc = 75 ] && grep -q 'REFUSED: the cluster is held by node-maintenance.sh stop gpu004, process [0-9]* on [A-Za-z0-9.-]*, since .*(Lease daos/dslc-lock, renewed ' '$T/out' && ! grep -q '^kubectl apply\\|^kubectl label\\|set-prop\\|^dmg system stop' '$T/log' && [ \"\$(lock_value)\" = '$held' ] && [ '$held' != - ]"
: >"$T/log"
maint stop gpu005
rc=$?
check "a second maintenance while gpu004's holds the cluster: refused (exit $rc), gpu005 untouched" \
	"[ $rc = 75 ] && grep -q 'the cluster is held by node-maintenance.sh stop gpu004' '$T/out' && ! grep -q '^dmg system stop\\|set-prop\\|^kubectl annotate\\|^kubectl drain' '$T/log' && [ \"\$(annotation)\" = - ]"
maint start gpu004
rc1=$?
cp "$T/out" "$T/out.start"
roll new.sh
rc=$?
check "start takes its own stop's lock and Lease over, releases them, and the rollout then runs (exit $rc1, $rc)" \
	"[ $rc1 = 0 ] && grep -q 'taking over the lock of node-maintenance.sh stop gpu004, .*: this run finishes it' '$T/out.start' && grep -q 'taking over the Lease daos/dslc-lock of node-maintenance.sh stop gpu004' '$T/out.start' && [ $rc = 0 ] && grep -q 'rollout done' '$T/out' && [ \"\$(lock_value)\" = - ] && [ \"\$(lease | cut -d'|' -f1)\" = - ]"
# the node's annotation is anyone's with patch on nodes: a value dmg would not
# take is refused before anything changes, and never printed
cluster
maint stop gpu005
PATH="$T/bin:$PATH" kubectl annotate node --overwrite gpu005 "dslc.io/self-heal-before=self_heal tier0 x';touch $T/pwned;'" >/dev/null
: >"$T/log"
maint start gpu005
rc=$?
cp "$T/out" "$T/out.annotation"
check "maintenance start with an annotation dmg would not take: refused before uncordon (exit $rc), the value not printed, the restore taken from DAOS's record" \
	"[ $rc = 1 ] && grep -q 'the node.s annotation dslc.io/self-heal-before holds a record this script did not write (a self_heal record that is not' '$T/out' && ! grep -q 'pwned' '$T/out' && ! grep -q '^kubectl uncordon\\|^dmg system start\\|set-prop' '$T/log' && grep -qF \"dmg pool set-prop tier0 'self_heal:exclude;rebuild'\" '$T/out'"
# a rollout holds the cluster (another admin host's, alive): maintenance is refused
cluster
PATH="$T/bin:$PATH" dmg system set-attr dslc.lock:rollout/admin9/4242/1000/0123456789abcdef >/dev/null
: >"$T/log"
maint stop gpu004
rc=$?
check "maintenance while another host's rollout holds the cluster: refused (exit $rc), naming it, nothing changed" \
	"[ $rc = 75 ] && grep -q 'the cluster is held by a rollout (plan 0123456789abcdef), process 4242 on admin9' '$T/out' && ! grep -q '^dmg system stop\\|set-prop\\|^kubectl annotate\\|^kubectl drain' '$T/log' && [ \"\$(lock_value)\" = rollout/admin9/4242/1000/0123456789abcdef ] && [ \"\$(lease | cut -d'|' -f1)\" = - ]"
# two maintenances started together (two admins, two nodes): one stops its
# node, the other is refused; never two nodes down, self_heal's value kept once
cluster
echo 1000 >"$T/clock"
for h in gpu004 gpu005; do
	(PATH="$T/bin:$PATH" FAKE_CLOCK="$T/clock" FAKE_KUBECTL_NEEDS="$T/needs" FAKE_SLEEP_REAL=2 DSLC_LOCK_SETTLE=2 DSLC_STOP_TIMEOUT=30 \
		sh "$M" stop "$h" >"$T/out.$h" 2>&1
	echo $? >"$T/rc.$h") &
done
wait
timed_calls
check "two maintenances started together: one stops its node, the other is refused (exit $(cat "$T/rc.gpu004") and $(cat "$T/rc.gpu005")), one node down" \
	"[ \"\$(sort '$T/rc.gpu004' '$T/rc.gpu005' | tr '\n' ' ')\" = '0 75 ' ] && [ \"\$(grep -c '^dmg system stop' '$T/log')\" = 1 ] && ! grep -q '^VIOLATION' '$T/log' && [ \"\$(grep -c '^dmg pool set-prop' '$T/log')\" = 1 ]"
: >"$T/log"
PATH="$T/bin:$PATH" sh "$M" reboot gpu001 >"$T/out" 2>&1
rc1=$?
PATH="$T/bin:$PATH" sh "$M" stop 'gpu001;rm' >"$T/out" 2>&1
rc2=$?
check "maintenance: a bad command or host name is refused before any call (exit $rc1, $rc2)" "[ -s '$M' ] && [ $rc1 = 2 ] && [ $rc2 = 2 ] && ! grep -q . '$T/log'"

# the Lease against other actors: one held and renewed is refused at once, one
# past its duration taken over, a write that loses a race refused by the API
# server (AlreadyExists, Conflict at the resourceVersion read), one taken away
# mid-run found by the renewal before the next wave
put_lease() { # HOLDER RENEWED-AT DURATION: another actor's Lease, through the fake API server
	t=$(date -u -d "@$2" +%Y-%m-%dT%H:%M:%S.000000Z)
	printf '{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "dslc-lock", "namespace": "daos"}, "spec": {"holderIdentity": "%s", "leaseDurationSeconds": %s, "acquireTime": "%s", "renewTime": "%s", "leaseTransitions": 0}}\n' "$1" "$3" "$t" "$t" >"$T/lease.json"
	PATH="$T/bin:$PATH" kubectl -n daos create -f "$T/lease.json" >/dev/null
	: >"$T/log"
}
cluster
put_lease rollout/admin9/4242/900/0123456789abcdef 900 14400
roll new.sh
rc=$?
check "a Lease held by another host's rollout, renewed 100 s ago: refused at once (exit $rc), naming it, the Lease and how to clear it; nothing changed" \
	"[ $rc = 75 ] && grep -q 'REFUSED: the cluster is held by a rollout (plan 0123456789abcdef), process 4242 on admin9, since 1970-01-01 00:15:00 UTC (100 s ago) (Lease daos/dslc-lock, renewed 100 s ago, held 14400 s from then without a renewal)' '$T/out' && grep -q 'kubectl -n daos delete lease dslc-lock' '$T/out' && ! grep -q '^dmg system set-attr\\|^kubectl apply\\|^kubectl label\\|set-prop\\|^dmg system stop' '$T/log' && [ \"\$(lease)\" = 'rollout/admin9/4242/900/0123456789abcdef|14400|0' ]"
cluster
put_lease rollout/admin9/4242/0/0123456789abcdef 0 600
roll new.sh
rc=$?
check "a Lease not renewed for longer than its duration (1000 s, leaseDurationSeconds 600): taken over and said, the rollout runs (exit $rc), one transition" \
	"[ $rc = 0 ] && grep -q 'taking over a stale Lease daos/dslc-lock: a rollout (plan 0123456789abcdef), process 4242 on admin9, .*, not renewed for 1000 s (its leaseDurationSeconds is 600)' '$T/out' && grep -q 'rollout done' '$T/out' && [ \"\$(lease)\" = '-|1|1' ]"
cluster
roll new.sh lease-race
rc=$?
check "another actor creates the Lease between this run's read and its create: the API server's AlreadyExists refuses it (exit $rc), naming the other, nothing changed" \
	"[ $rc = 75 ] && grep -q 'REFUSED: another actor took the cluster at the same time (the API server refused this write: (AlreadyExists)): a rollout (plan 0123456789abcdef), process 4242 on admin9' '$T/out' && ! grep -q '^dmg system set-attr\\|^kubectl apply\\|set-prop\\|^dmg system stop' '$T/log' && [ \"\$(lease | cut -d'|' -f1)\" = rollout/admin9/4242/1000/0123456789abcdef ]"
cluster
put_lease '' 0 1
roll new.sh lease-race
rc=$?
check "a released Lease rewritten by another actor between this run's read and its replace: 409 Conflict at the resourceVersion read, refused (exit $rc), nothing changed" \
	"[ $rc = 75 ] && grep -q 'another actor took the cluster at the same time (the API server refused this write: (Conflict)): a rollout (plan 0123456789abcdef), process 4242 on admin9' '$T/out' && ! grep -q '^dmg system set-attr\\|^kubectl apply' '$T/log'"
cluster
roll new.sh lease-stolen=gpu005
rc=$?
check "the Lease taken by another actor during wave 2: the renewal before wave 3 finds it and the run stops there (exit $rc), naming the holder; no later node relabeled" \
	"[ $rc = 1 ] && grep -q 'this run no longer holds the cluster.s Lease daos/dslc-lock: a rollout (plan 0123456789abcdef), process 4242 on admin9' '$T/out' && [ \"\$(relabeled)\" = 'gpu004 gpu005' ] && lease | grep -q '^rollout/admin9/4242/[0-9]*/0123456789abcdef|' && ! grep -q 'holds itrollout' '$T/out'"
cluster
put_lease "x'\$(touch $T/pwned)'" 1000 14400
roll new.sh
rc=$?
check "a Lease whose holder dslc did not write: refused (exit $rc), its bytes not printed" \
	"[ $rc = 75 ] && grep -q 'held by a value dslc did not write ([0-9]* bytes; see kubectl -n daos get lease dslc-lock -o yaml)' '$T/out' && ! grep -q 'pwned' '$T/out' && [ ! -e '$T/pwned' ]"

# every request the fake API server saw the rollouts and node-maintenance.sh
# make (tests/fakes/kubectl, FAKE_KUBECTL_NEEDS) is allowed by rollout-rbac.yaml
# for its ServiceAccount, as the RBAC authorizer decides (tests/fakes/rbac.py),
# and the file grants nothing else: each ClusterRole verb is used outside the
# DAOS namespace, each Role verb inside it
rbac_covers() {
	python3 - "$T/new/cluster/kubernetes/rollout-rbac.yaml" "$T/needs" "$PWD/tests/fakes" <<'EOF'
import sys, yaml
sys.path.insert(0, sys.argv[3])
import rbac
objs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
needs = {tuple(line.split()) for line in open(sys.argv[2]) if line.strip()}
sa = ("ServiceAccount", "daos", "dslc-rollout")
bare = lambda x: "" if x in ("-", "*") else x
missing = sorted("%s %s (%s %s)" % n for n in needs if not rbac.allows(objs, sa, n[0], n[1], bare(n[2]), bare(n[3])))
unused = []
for o in objs:
    if o["kind"] not in ("Role", "ClusterRole"):
        continue
    for rule in o["rules"]:
        for r in rule["resources"]:
            for v in rule["verbs"]:
                used = [n for n in needs if n[0] == v and n[1] == r and (n[2] == "daos") == (o["kind"] == "Role")]
                if not used:
                    unused.append("%s %s %s" % (o["kind"], v, r))
if missing or unused:
    print("missing: " + ", ".join(missing) + "; never used: " + ", ".join(unused))
else:
    print("ok %d" % len(needs))
EOF
}
check "rollout-rbac.yaml allows every request the scripts made and grants nothing they did not use, Role and ClusterRole apart ($(rbac_covers))" \
	"[ \"\$(rbac_covers | cut -d' ' -f1)\" = ok ] && [ \"\$(rbac_covers | cut -d' ' -f2)\" -ge 30 ]"

# label-nodes.sh: labels new nodes, leaves labeled ones, never moves one
cluster
PATH="$T/bin:$PATH" sh "$T/old/cluster/kubernetes/label-nodes.sh" >"$T/out" 2>&1
rc=$?
check "label-nodes.sh again: nothing to do (exit $rc)" "[ $rc = 0 ] && ! grep -q '^kubectl label' '$T/log'"
PATH="$T/bin:$PATH" sh "$T/new/cluster/kubernetes/label-nodes.sh" >"$T/out" 2>&1
rc=$?
check "label-nodes.sh of a changed tree: refuses to move any node (exit $rc)" \
	"[ $rc = 1 ] && grep -q 'roll the change out with .dslc plan --format script' '$T/out' && grep -q '^  gpu004 (daos-server $OLD4' '$T/out' && ! grep -q '^kubectl label' '$T/log'"

# k8s_node_name: label-nodes.sh, the rollout and node-maintenance.sh name
# each node by its Kubernetes name to kubectl and by its host to dmg
knode() { # HOST: its Kubernetes name in the named trees
	if [ "$1" = gpu007 ]; then echo gpu007.k8s.example.com; else echo "aks-gpu-31415926-vmss$((10#${1#gpu} - 1))"; fi
}
KN=''
for h in $HOSTS; do KN="$KN${KN:+ }$(knode "$h")"; done
KNODES=$KN
cluster
PATH="$T/bin:$PATH" sh "$T/old/cluster/kubernetes/label-nodes.sh" >"$T/out" 2>&1
rc=$?
check "named: label-nodes.sh of a tree that assumes node = host labels nothing and names every node Kubernetes lacks (exit $rc)" \
	"[ $rc = 1 ] && ! grep -q '^kubectl label' '$T/log' && grep -q 'Kubernetes has no node named gpu001, gpu002, ' '$T/out' && grep -q 'k8s_node_name' '$T/out'"
nodes_labeled() { python3 -c 'import json,sys; st=json.load(open(sys.argv[1])); print(" ".join(sorted(h for h, n in st["nodes"].items() if n["labels"].get("dslc.io/daos-agent"))))' "$T/kst"; }
KTREE=named-old cluster
check "named: label-nodes.sh of the named tree labels the 14 Kubernetes nodes, every pod current" \
	"[ \"\$(nodes_labeled)\" = \"\$(echo $KN | tr ' ' '\\n' | sort | tr '\\n' ' ' | sed 's/ \$//')\" ] && [ \"\$(pods_current)\" = ok ]"
# one node not joined yet: the others labeled, it named, exit 1
KNODES=${KN% *} KTREE=named-old cluster
PATH="$T/bin:$PATH" sh "$T/named-old/cluster/kubernetes/label-nodes.sh" >"$T/out" 2>&1
rc=$?
check "named: a node Kubernetes does not have yet is named by both names (exit $rc), the 13 others labeled" \
	"[ $rc = 1 ] && grep -q 'Kubernetes has no node named aks-gpu-31415926-vmss13 (DAOS host gpu014) (the nodes it has are labeled)' '$T/out' && [ \"\$(nodes_labeled | wc -w)\" = 13 ]"
KTREE=named-old cluster
roll named.sh
rc=$?
named_order=''
for h in $order; do named_order="$named_order${named_order:+ }$(knode "$h")"; done
check "named: the rollout relabels and waits for the pods of each wave's Kubernetes node, stops its DAOS host (exit $rc)" \
	"[ $rc = 0 ] && grep -q 'rollout done' '$T/out' && [ \"\$(relabeled)\" = '$named_order' ] && [ \"\$(pods_current)\" = ok ] && grep -q '^dmg system stop --rank-hosts=gpu007\$' '$T/log' && grep -q 'spec.nodeName=gpu007.k8s.example.com ' '$T/log' && ! grep -q 'spec.nodeName=gpu0[0-9]* \|label node --overwrite gpu0[0-9]* ' '$T/log'"
M="$T/named-old/cluster/kubernetes/node-maintenance.sh"
KTREE=named-old cluster
maint stop aks-gpu-31415926-vmss4
rc=$?
check "named: node-maintenance.sh stop by the Kubernetes name: dmg stops gpu005, kubectl drains aks-gpu-31415926-vmss4 (exit $rc)" \
	"[ $rc = 0 ] && grep -q '^dmg system stop --rank-hosts=gpu005\$' '$T/log' && grep -q '^kubectl drain aks-gpu-31415926-vmss4 --ignore-daemonsets' '$T/log' && grep -q 'gpu005 (Kubernetes node aks-gpu-31415926-vmss4) is stopped and drained' '$T/out'"
: >"$T/log"
maint start gpu005
rc=$?
check "named: node-maintenance.sh start by the DAOS host takes over its own stop: uncordon aks-gpu-31415926-vmss4, dmg start gpu005 (exit $rc)" \
	"[ $rc = 0 ] && grep -q '^kubectl uncordon aks-gpu-31415926-vmss4\$' '$T/log' && grep -q '^dmg system start --rank-hosts=gpu005\$' '$T/log' && grep -q 'is back' '$T/out'"
: >"$T/log"
maint stop gpu099
rc=$?
check "named: node-maintenance.sh of a node the system does not have: exit $rc before any call, listing both names" \
	"[ $rc = 2 ] && [ ! -s '$T/log' ] && grep -q \"'gpu099' is no server node of system tier0\" '$T/out' && grep -q 'gpu004 (aks-gpu-31415926-vmss3)' '$T/out'"
unset KNODES
tests_end
