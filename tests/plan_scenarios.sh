#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 27: what `dslc plan` says about realistic changes, against what DAOS
# (and the kubelet) really do. Each scenario is one change to an example,
# the class the plan must put first, its exit status (4: data loss or a
# change DAOS cannot apply), the other classes it must list (couplings), and
# the source that says so. Paths are daos-stack/daos release/2.6 unless they
# say otherwise.
#   tests/plan_scenarios.sh DSLC
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin plan-scenarios
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r examples/hgx-b200 "$T/md"    # MD-on-SSD (nvme roles): the tmpfs is rebuilt from the SSDs
cp -r examples/hgx-b200 "$T/ram"   # the same without roles: SCM only in tmpfs
sed -i 's/^    nvme    roles \[wal meta data\]$//' "$T/ram/cluster.dsl"
mkdir -p "$T/md28" && cp examples/md-on-ssd/cluster.dsl "$T/md28/" && cp -r examples/hgx-b200 "$T/hgx-b200"
sed -i 's|"../hgx-b200/hardware.dsl"|"../hgx-b200/hardware.dsl"|' "$T/md28/cluster.dsl"
grep -q 'nvme    roles' "$T/ram/cluster.dsl" && no "the RAM-only variant still has roles"

# scenario NAME BASE SED FIRST EXIT "ALSO..." SOURCE
scenario() {
	local name=$1 base=$2 prog=$3 first=$4 want=$5 also=$6 src=$7
	sed "$prog" "$T/$base/cluster.dsl" >"$T/$base/new.dsl"
	if cmp -s "$T/$base/cluster.dsl" "$T/$base/new.dsl"; then
		no "$name: the edit changed nothing ($prog)"
		return
	fi
	$DSLC plan "$T/$base/new.dsl" --against-source "$T/$base/cluster.dsl" --format json >"$T/p.json" 2>"$T/p.err"
	local rc=$?
	local got
	# the classes present, and class:word for a group of that class whose key has the word
	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
words = {w.split(":")[1] for w in sys.argv[2].split() if ":" in w}
tags = {g["class"] for g in d["groups"]} | {g["class"] + ":" + w for g in d["groups"] for w in words if w in g["key"]}
print(d["summary"]["highest"], " ".join(sorted(tags)))' "$T/p.json" "$also" 2>/dev/null)
	local top=${got%% *} classes=" ${got#* } " missing=""
	for c in $also; do
		case "$classes" in *" $c "*) ;; *) missing="$missing $c" ;; esac
	done
	if [ "$top" = "$first" ] && [ $rc = "$want" ] && [ -z "$missing" ]; then
		ok "$name: $first, exit $want${also:+, with $also} ($src)"
	else
		no "$name: got $top, exit $rc, classes${classes% }${missing:+, missing$missing}; want $first, exit $want ($src)"
		head -5 "$T/p.err"
	fi
}

S='s/^  log_mask \( *\)ERR/  log_mask \1DEBUG/'
scenario "engine log mask" md "$S" live 3 "" "src/control/cmd/dmg/server.go: dmg server set-logmasks"
scenario "engine log mask, RAM SCM" ram "$S" live 3 "" "a live change never empties the tmpfs"
S='s/kernel { iommu pt  irqaffinity os }/kernel { iommu pt  irqaffinity os  param nmi_watchdog=0 }/'
scenario "kernel parameter, MD-on-SSD" md "$S" reboot 3 "" "server_utils.go: with meta roles the tmpfs is rebuilt from the SSDs at start"
scenario "kernel parameter, RAM SCM" ram "$S" scm-lost 4 "" "instance_storage.go: a reboot empties the tmpfs; the engines wait for dmg storage format"
S='s/bios { AmdSetup.ACSEnable = Enabled }/bios { AmdSetup.ACSEnable = Enabled  AmdSetup.SriovGlobalEnable = Enabled }/'
scenario "BIOS attribute, MD-on-SSD" md "$S" bios-apply+reboot 3 "" "Redfish settings apply at reset"
scenario "BIOS attribute, RAM SCM" ram "$S" scm-lost 4 "" "the reset empties the tmpfs"
scenario "scm_size grows, MD-on-SSD" md 's/scm     ram 64GiB/scm     ram 96GiB/' kubelet-drain 3 "engine-restart" \
	"server_utils.go: the tmpfs is unmounted when the engine exits and made again at start (the kubelet's systemReserved counts SCM)"
scenario "scm_size shrinks, MD-on-SSD" md 's/scm     ram 64GiB/scm     ram 32GiB/' scm-lost 4 "" \
	"the pools' memory files no longer fit a smaller tmpfs"
scenario "scm_size grows, RAM SCM" ram 's/scm     ram 64GiB/scm     ram 96GiB/' scm-lost 4 "" \
	"storage/faults.go FaultRamdiskBadSize: a mounted tmpfs of another size must be unmounted (emptied)"
scenario "provider" md 's/provider             "ofi+verbs;ofi_rxm"/provider             "ofi+tcp;ofi_rxm"/' system-restart 3 "agent-refresh:provider" \
	"docs/admin/common_tasks.md \"Change fabric provider\"; troubleshooting.md: ranks of another provider cannot join"
scenario "transport insecure" md 's/^  log_mask \( *\)ERR/&\n  transport insecure/' system-restart 3 "agent-restart:transport" \
	"security/config.go: secure and insecure peers cannot talk; daos_agent/start.go: the agent reads its transport only at start, SIGUSR2 only refreshes caches, so every agent restarts"
scenario "access points 3 -> 5" md 's/access_points        gpu\[001-003\]/access_points        gpu[001-005]/' system-restart 3 "agent-restart" \
	"docs/admin/administration.md \"Adding or removing MS replicas\": stop all servers and agents, restart all"
scenario "access points all replaced" md 's/access_points        gpu\[001-003\]/access_points        gpu[004-006]/' reformat 4 "" \
	"administration.md: at least one old replica must remain to be the data source"
scenario "system name" md 's/^cluster tier0 {/cluster tier1 {/' reformat 4 "" "utils/config/daos_server.yml: name immutable after format"
scenario "targets" md 's/^    targets 16$/    targets 12/' reformat 4 "" "utils/config/daos_server.yml: targets immutable after format"
scenario "drive removed" md 's/^node gpu007 { exclude nvme 0000:a4:00.0 }/node gpu007 { exclude nvme 0000:a4:00.0 0000:a3:00.0 }/' reformat 4 "" \
	"utils/config/daos_server.yml: bdev_list immutable after format"
scenario "hugepages, kubelet memory manager" md 's/^  reserve os 4 cores per numa /  hugepages 40GiB\n&/' kubelet-drain 3 "engine-restart kubelet-drain:nr_hugepages" \
	"../shared/facts/kubernetes.md: the memory manager's state holds the hugepage totals"
scenario "fabric port" md 's/^  log_mask \( *\)ERR/&\n  fabric_port 32000/' engine-restart 3 "agent-refresh:fabric_iface_port" \
	"docs/admin/troubleshooting.md \"daos_agent cache of engine URIs is stale\": SIGUSR2"
scenario "storage address" md 's/10\.20\.0\.{10+i}/10.20.1.{10+i}/' engine-restart 3 "agent-refresh:Address engine-restart:Address" \
	"system/membership.go: a rank's fabric URI is kept from its join, so its engines restart and rejoin; troubleshooting.md: the agents' cache is stale until SIGUSR2"
scenario "server management address" md 's/mgmt    10\.10\.0\.{10+i}\/24/mgmt    10.10.1.{10+i}\/24/' reformat 4 "" \
	"troubleshooting.md \"rank control address has changed\": not supported; revert, or erase and reformat"
scenario "client management address" md 's/mgmt    10\.10\.0\.{100+i}\/24/mgmt    10.10.1.{100+i}\/24/' network-reload 3 "" \
	"a client's control address is no rank's"
scenario "node added" md 's/gpu\[001-014\]/gpu[001-015]/g' node-added 3 "agent-refresh:added" "agents cache the rank list (troubleshooting.md: SIGUSR2)"
scenario "node removed" md 's/gpu\[001-014\]/gpu[001-013]/g' node-removed 4 "agent-refresh:removed" "docs/admin/pool_operations.md: drain before removing"
scenario "client-only node removed" md 's/cn\[01-04\]/cn[01-03]/g' client-removed 3 "" \
	"a client-only node holds no rank and no shard: stop dfuse and daos_agent, remove its files; no data loss; the agents' rank list does not change (GetAttachInfo lists ranks), so no agent refresh"
scenario "pool svc_rf" md 's/^pool tier0 { size 90% svc_rf 2 }$/pool tier0 { size 90% svc_rf 1 }/' live 3 "" \
	"src/pool/srv_pool.c pool_prop_write: dmg pool set-prop svc_rf online"
scenario "pool ACL" md 's/^pool tier0 { size 90% svc_rf 2 }$/pool tier0 { size 90% svc_rf 2 acl "A::OWNER@:rw" }/' pool-acl 3 "" \
	"docs/admin/pool_operations.md \"Overwriting ACL\""
scenario "pool size" md 's/^pool tier0 { size 90% svc_rf 2 }$/pool tier0 { size 80% svc_rf 2 }/' pool-immutable 4 "" "daos-pools.sh creates only; dmg pool extend by hand"
scenario "new pool" md '$a pool scratch { size 5% svc_rf 2 }' pool-create 3 "" "daos-pools.sh creates the missing pool"
scenario "container relabel" md 's/^  checksum crc32 server$/&\n  label training2/' live 3 "live:label live:ExecStart" \
	"docs/user/container.md: daos cont set-prop --properties label: online; a running dfuse keeps its container open, so its unit (naming the new label) is installed, not restarted"
scenario "container checksum" md 's/  checksum crc32 server/  checksum crc64 server/' container-immutable 4 "" "docs/user/container.md: cksum immutable"
scenario "dfuse threads" md 's/^  multi_user true$/&\n  threads 16/' remount 3 "" "dfuse reads its options at start"
scenario "crt_timeout" md 's/crt_timeout \( *\)600s/crt_timeout \1300s/' engine-restart 3 "agent-refresh:crt_timeout remount:crt_timeout" \
	"daos_server reads crt_timeout at start (engine env CRT_TIMEOUT) and hands it to clients (server.go:425); agents cache it until SIGUSR2, dfuse applies it in daos_init (cli_mgmt.c:630)"
scenario "client_env (the seed's kdreg2 fix)" md 's/^  log_mask \( *\)ERR/&\n  client_env FI_MR_CACHE_MONITOR=kdreg2/' engine-restart 3 \
	"agent-refresh:client_env_vars remount:client_env_vars" \
	"server.go:421-431: the clients' hint is built at daos_server start; the agent caches it (infocache.go) until SIGUSR2; dfuse applies it in daos_init (cli_mgmt.c:584)"

# the clients' steps run after every server's wave: the agents' refresh in one
# wave (SIGUSR2 stops nothing), then the remounts, the client-only nodes too
sed 's/^  log_mask \( *\)ERR/&\n  client_env FI_MR_CACHE_MONITOR=kdreg2/' "$T/md/cluster.dsl" >"$T/md/kdreg2.dsl"
$DSLC plan "$T/md/kdreg2.dsl" --against-source "$T/md/cluster.dsl" --format json >"$T/w.json" 2>/dev/null
check "client_env: every server wave first, then the clients' waves (agent-refresh and remount on cn01, after the last engine-restart)" \
	"python3 - '$T/w.json' <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))['rollout']['waves']
last_server = max(i for i, v in enumerate(w) if 'engine-restart' in v['classes'])
cl = [i for i, v in enumerate(w) if set(v['classes']) <= {'agent-refresh', 'remount'}]
cn01 = [i for i, v in enumerate(w) if 'cn01' in v['hosts'] or 'cn[01' in v['hosts']]
assert cl and min(cl) > last_server, (cl, last_server)
assert cn01 and all(i > last_server for i in cn01) and set(w[cn01[0]]['classes']) == {'agent-refresh', 'remount'}, cn01
assert not any('agent-refresh' in v['classes'] for v in w[:last_server + 1])
assert len(cl) == 1 and w[cl[0]]['nodes'] == 18, [w[i]['nodes'] for i in cl]
PY"
$DSLC plan "$T/md/kdreg2.dsl" --against-source "$T/md/cluster.dsl" --format json --max-wave 5 >"$T/w5.json" 2>/dev/null
check "client_env with --max-wave 5: the clients' wave split in waves of at most 5, every node of the 18 in one" \
	"python3 - '$T/w5.json' <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))['rollout']['waves']
cl = [v for v in w if set(v['classes']) <= {'agent-refresh', 'remount'}]
assert len(cl) == 4 and all(v['nodes'] <= 5 for v in cl) and sum(v['nodes'] for v in cl) == 18, [v['nodes'] for v in cl]
PY"
scenario "SWIM suspicion timeout" md 's/swim_suspect_timeout 120s/swim_suspect_timeout 60s/' engine-restart 3 "" "an engine env_vars entry: read at engine start"
scenario "kubelet kube_reserved" md 's/memory_manager static                 # reservedMemory/memory_manager static\n    kube_reserved 3GiB  #/' kubelet-drain 3 "" \
	"Kubernetes documentation, Control CPU Management Policies: reservations need the state files removed"
scenario "control log mask" md 's/^  log_mask \( *\)ERR/&\n  control_log_mask DEBUG/' engine-restart 3 "" "daos_server reads control_log_mask at start"
scenario "mem_ratio (2.8)" md28 's/mem_ratio 50%/mem_ratio 60%/' pool-immutable 4 "" "release/2.8 src/control/server/mgmt_pool.go: mem_ratio sizes the pool at create"
scenario "mount on fewer nodes" md 's/^  on gpu\[001-014\]$/  on gpu[001-013]/' remount 3 "" "a removed dfuse mount: disable --now its service"

# the same against a built tree (no old description): the tree's daos_server target tells a server
sed 's/cn\[01-04\]/cn[01-03]/g' "$T/md/cluster.dsl" >"$T/md/client-gone.dsl"
$DSLC plan "$T/md/client-gone.dsl" --against tests/golden/build/hgx-b200 >"$T/p.txt" 2>&1
rc=$?
check "client-only node removed, against the built tree: client-removed, exit 3 ($rc)" "[ $rc = 3 ] && grep -q '^client-removed  (1 node)' '$T/p.txt'"
sed 's/gpu\[001-014\]/gpu[001-013]/g' "$T/md/cluster.dsl" >"$T/md/server-gone.dsl"
$DSLC plan "$T/md/server-gone.dsl" --against tests/golden/build/hgx-b200 >"$T/p.txt" 2>&1
rc=$?
check "server removed, against the built tree: node-removed, exit 4 ($rc)" "[ $rc = 4 ] && grep -q '^node-removed' '$T/p.txt'"
tests_end
