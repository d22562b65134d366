#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 27: the rollout waves of `dslc plan` on the reference example, and
# the --format script rollout run against a fake dmg. The fake answers as
# DAOS's dmg -j does (src/control/system/member.go: a member's "state" is its
# MemberState name in lower case; src/control/lib/daos/pool.go: the pool's
# "rebuild" object has "state" idle/done/busy) and records every call; a host
# named in FAKE_DMG_DOWN never comes back Joined.
#   tests/plan_waves.sh DSLC
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin plan-waves
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r examples/hgx-b200 "$T/ex"
EX=$T/ex
waves() { # NEW.dsl [args]: the waves as "hosts|classes" lines, and the JSON in $T/w.json
	local new=$1
	shift
	$DSLC plan "$new" --against-source "$EX/cluster.dsl" --format json "$@" >"$T/w.json" 2>"$T/w.err"
	# a plan that did not end (exit 5 and above: a crash) is never "no wave"
	local rc=$?
	[ $rc -le 4 ] || { echo "dslc plan: exit $rc"; return; }
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["rollout"]
for w in r["waves"]:
    print(w["hosts"] + "|" + ",".join(w["classes"]))' "$T/w.json"
}

# an engine restart on the 14 servers: rd_fac 2 (tolerate 2 node failures),
# svc_rf 2, 3 access points: one node per wave, the access points last
sed 's/swim_suspect_timeout 120s/swim_suspect_timeout 60s/' "$EX/cluster.dsl" >"$EX/restart.dsl"   # the engines restart, nothing else
waves "$EX/restart.dsl" >"$T/got"
want=$(printf '%s|engine-restart\n' gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014 gpu001 gpu002 gpu003)
check "rd_fac 2, 3 access points: 14 single-node waves, gpu[001-003] last" "[ \"\$(cat '$T/got')\" = \"$want\" ] || { cat '$T/got'; false; }"
grep -q '"why": "container training has rd_fac 2 at rd_lvl node' "$T/w.json" && ok "the JSON gives the reason for the size" || no "reason: $(grep why "$T/w.json" | head -2)"
$DSLC plan "$EX/restart.dsl" --against-source "$EX/cluster.dsl" --format markdown >"$T/w.md" 2>/dev/null
check "markdown: the waves as a table, with the reason for their size" \
	"grep -q '^### Rollout: 14 waves$' '$T/w.md' && grep -q '^| 12 | \`gpu001\` | engine-restart | access points, last: at most 1 of 3 down' '$T/w.md'"
# the log level is live: no wave
sed 's/^  log_mask \( *\)ERR/  log_mask \1DEBUG/' "$EX/cluster.dsl" >"$EX/log.dsl"
check "a log level change on 14 nodes is live: no wave" "[ -z \"\$(waves '$EX/log.dsl')\" ]"

# rd_fac 3: waves of two, access points still one at a time
sed 's/tolerate 2 node failures/tolerate 3 node failures/' "$EX/restart.dsl" >"$EX/rf3.dsl"
sed 's/tolerate 2 node failures/tolerate 3 node failures/' "$EX/cluster.dsl" >"$EX/rf3-old.dsl"
$DSLC plan "$EX/rf3.dsl" --against-source "$EX/rf3-old.dsl" --format json >"$T/w.json" 2>/dev/null
got=$(python3 -c 'import json; print(" ".join(w["hosts"] for w in json.load(open("'"$T/w.json"'"))["rollout"]["waves"]))')
check "rd_fac 3: waves of two, the access points one by one ($got)" \
	"[ '$got' = 'gpu[004-005] gpu[006-007] gpu[008-009] gpu[010-011] gpu[012-013] gpu014 gpu001 gpu002 gpu003' ]"
# the same on 4 servers with svc_rf 3: DAOS spreads the 7 pool service
# replicas node by node (src/pool/srv_util.c add_replicas), three nodes hold
# two, and two nodes down take 4 of 7, the majority: waves of one
for f in rf3 rf3-old; do
	sed 's/gpu\[001-014\]/gpu[001-004]/; s/svc_rf 2/svc_rf 3/; /^node gpu007/d' "$EX/$f.dsl" >"$EX/$f-4.dsl"
done
$DSLC plan "$EX/rf3-4.dsl" --against-source "$EX/rf3-old-4.dsl" --format json >"$T/w.json" 2>/dev/null
got=$(python3 -c 'import json; r = json.load(open("'"$T/w.json"'"))["rollout"]; print(r["wave_size"], " ".join(w["hosts"] for w in r["waves"]), "|", r["why"])')
check "svc_rf 3 on 4 servers: the replicas share nodes, waves of one ($got)" \
	"[ \"\${got%% |*}\" = '1 gpu004 gpu001 gpu002 gpu003' ] && case \"\$got\" in *'its 7 service replicas share the nodes (up to 2 on one), so at most 1 node down'*) true;; *) false;; esac"
$DSLC plan "$EX/rf3.dsl" --against-source "$EX/rf3-old.dsl" --format json --max-wave 1 >"$T/w.json" 2>/dev/null
n=$(python3 -c 'import json; print(len(json.load(open("'"$T/w.json"'"))["rollout"]["waves"]))')
check "--max-wave 1 lowers it: 14 waves" "[ '$n' = 14 ]"
$DSLC plan "$EX/restart.dsl" --against-source "$EX/cluster.dsl" --format json --unsafe-wave 4 >"$T/w.json" 2>"$T/w.err"
got=$(python3 -c 'import json; r = json.load(open("'"$T/w.json"'"))["rollout"]; print(r["waves"][0]["hosts"], r["safe_size"], bool(r["risk"]))')
check "--unsafe-wave 4 above the limit of 1: waves of 4, said on stderr and in the JSON" \
	"[ '$got' = 'gpu[004-007] 1 True' ] && grep -q 'unsafe-wave 4 stops more than the limits allow (1' '$T/w.err'"

# issue 36: count ranks, not nodes; where no node-sized wave keeps the data
# available (rd_fac 0; rd_lvl rank with fewer tolerated ranks than a node
# has engines: docs/user/container.md, an unclean container is inaccessible)
# each wave drains its ranks first, and no wave is called safe without it
drains() { # TOLERATE: "drain" when wave 1 drains before its stop, else "stop"
	sed "s/tolerate 2 node failures/tolerate $1/" "$EX/cluster.dsl" >"$EX/t-old.dsl"
	sed "s/tolerate 2 node failures/tolerate $1/" "$EX/restart.dsl" >"$EX/t-new.dsl"
	$DSLC plan "$EX/t-new.dsl" --against-source "$EX/t-old.dsl" --format json >"$T/w.json" 2>/dev/null
	python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["rollout"]["waves"][0]
s = [x.split(" ")[0] + " " + x.split(" ")[2] if x.startswith("dmg system") else x.split(" ")[0] for x in w["steps"]]
print(w["nodes"], "drain" if "dslc_drain" in s and s.index("dslc_drain") < s.index("dmg stop") else "stop")' "$T/w.json"
}
check "rd_fac 0: single-node waves, drained and rebuilt before the stop" "[ \"\$(drains '0 node failures')\" = '1 drain' ]"
check "rd_fac 1 at rd_lvl rank, 2 engines per node: a node stops 2 ranks, so it drains first" "[ \"\$(drains '1 engine failures')\" = '1 drain' ]"
check "rd_fac 2 at rd_lvl rank, 2 engines per node: one node at a time, no drain" "[ \"\$(drains '2 engine failures')\" = '1 stop' ]"
check "rd_fac 1 at rd_lvl node: one node at a time, no drain" "[ \"\$(drains '1 node failures')\" = '1 stop' ]"
sed "s/tolerate 2 node failures/tolerate 1 engine failures/" "$EX/restart.dsl" >"$EX/t-new.dsl"
sed "s/tolerate 2 node failures/tolerate 1 engine failures/" "$EX/cluster.dsl" >"$EX/t-old.dsl"
$DSLC plan "$EX/t-new.dsl" --against-source "$EX/t-old.dsl" >"$T/w.txt" 2>/dev/null
check "the text says why the waves drain, in ranks" "grep -q 'a node stops 2 ranks (2 engines per node), more than the 1 it tolerates, so each node.s ranks are drained before they stop' '$T/w.txt'"

# the rebuild gate's time limit: sized from the pools by default, --rebuild-timeout sets it
$DSLC plan "$EX/restart.dsl" --against-source "$EX/cluster.dsl" --format json --rebuild-timeout 90min >"$T/w.json" 2>/dev/null
got=$(python3 -c 'import json; r = json.load(open("'"$T/w.json"'"))["rollout"]; print(r["rebuild_timeout_s"], r["rebuild_timeout_why"])')
check "--rebuild-timeout 90min: 5400 s in the JSON ($got)" "[ '$got' = '5400 --rebuild-timeout' ]"
$DSLC plan "$EX/restart.dsl" --against-source "$EX/cluster.dsl" --format script --rebuild-timeout 90min >"$T/r.sh" 2>/dev/null
check "--rebuild-timeout 90min: the script's default" "grep -q '^DSLC_REBUILD_TIMEOUT=\${DSLC_REBUILD_TIMEOUT:-5400}\$' '$T/r.sh'"
$DSLC plan "$EX/restart.dsl" --against-source "$EX/cluster.dsl" --rebuild-timeout 5x >/dev/null 2>"$T/w.err"
rc=$?
check "--rebuild-timeout 5x: a usage error (exit $rc)" "[ $rc = 2 ] && grep -q \"takes a duration from 1s to 720h (90min, 6h), not '5x'\" '$T/w.err'"
sed 's/^pool tier0 { size 90% /pool tier0 { size 120TiB /' "$EX/restart.dsl" >"$EX/sized.dsl"
sed 's/^pool tier0 { size 90% /pool tier0 { size 120TiB /' "$EX/cluster.dsl" >"$EX/sized-old.dsl"
$DSLC plan "$EX/sized.dsl" --against-source "$EX/sized-old.dsl" --format json >"$T/w.json" 2>/dev/null
got=$(python3 -c 'import json; r = json.load(open("'"$T/w.json"'"))["rollout"]; print(r["rebuild_timeout_s"])')
# 120 TiB over 14 servers, one per wave: 8,777 GiB at 1 GiB/s, plus an hour
check "a 120 TiB pool: an hour plus a wave's share at 1 GiB/s ($got s)" "[ '$got' = $((3600 + 120 * 1024 / 14)) ]"

# a system-restart is one wave of every server; clients go first, alone
sed 's/provider             "ofi+verbs;ofi_rxm"/provider             "ofi+tcp;ofi_rxm"/' "$EX/cluster.dsl" >"$EX/prov.dsl"
check "a provider change: one wave of the 14 servers, then every agent refreshed in the clients' wave" \
	"[ \"\$(waves '$EX/prov.dsl' | tr '\n' ' ')\" = 'gpu[001-014]|system-restart cn[01-04],gpu[001-014]|agent-refresh ' ]"
sed 's/^profile client : hgx-b200 {               # no engine: daos_agent.yml only$/&\n  kernel { param quiet }/' "$EX/cluster.dsl" >"$EX/clients.dsl"
check "a reboot of the client-only nodes: one wave of cn[01-04]" "[ \"\$(waves '$EX/clients.dsl')\" = 'cn[01-04]|reboot' ]"

# the script (its runs against a fake dmg, failure by failure: rollout_gates.sh)
$DSLC plan "$EX/restart.dsl" --against-source "$EX/cluster.dsl" --format script >"$T/roll.sh" 2>/dev/null
check "the script is POSIX sh (sh -n)" "grep -q '^run dslc_wait_joined' '$T/roll.sh' && sh -n '$T/roll.sh'"
shellcheck_ok "shellcheck -s sh finds nothing" "$T/roll.sh"
# which self_heal the script turns off follows the release it names (each
# release's calls, against the fake dmg: rollout_gates.sh)
check "DAOS 2.6: the script names its release (each pool's self_heal; no system property on 2.6)" \
	"grep -qx \"dslc_release='2.6'\" '$T/roll.sh'"
sed 's/^daos 2.6$/daos 2.8/' "$EX/cluster.dsl" >"$EX/c28.dsl" && sed 's/^daos 2.6$/daos 2.8/' "$EX/restart.dsl" >"$EX/r28.dsl"
$DSLC plan "$EX/r28.dsl" --against-source "$EX/c28.dsl" --format script >"$T/roll28.sh" 2>/dev/null
check "DAOS 2.8: the script names its release (the system's self_heal, self-heal eval after: docs/admin/self_healing.md)" \
	"grep -qx \"dslc_release='2.8'\" '$T/roll28.sh'"
DSLC_APPLY= sh "$T/roll.sh" >"$T/out" 2>&1
check "without DSLC_APPLY the script stops before anything" "[ \$? != 0 ] && grep -q 'DSLC_APPLY' '$T/out'"

# issue 51 item 6: what DAOS forbids is refused, not rolled out (exit 4, the
# reason, what to do instead), and what it proposes is applied below
mkdir -p "$T/bin" && printf '#!/bin/sh\necho "dmg $*" >>"%s/dmg.log"\n' "$T" >"$T/bin/dmg" && chmod +x "$T/bin/dmg"
# refused SIDE.dsl AGAINST.dsl: the plan's exit, its REFUSED line, the JSON's refused, the script's run
refused() {
	$DSLC plan "$EX/$1" --against-source "$EX/$2" >"$T/r.txt" 2>"$T/r.err"
	echo "rc=$?"
	$DSLC plan "$EX/$1" --against-source "$EX/$2" --format json 2>/dev/null | python3 -c 'import json,sys; print("json=%s" % bool(json.load(sys.stdin)["rollout"]["refused"]))'
	$DSLC plan "$EX/$1" --against-source "$EX/$2" --format script >"$T/r.sh" 2>/dev/null
	rm -f "$T/dmg.log" "$T/r.sh.state"
	# (this dmg only logs: a script that is not refused stops at its first query, after calling it)
	PATH="$T/bin:$PATH" DSLC_APPLY=true sh "$T/r.sh" >"$T/r.out" 2>&1
	echo "script=$? dmg=$([ -e "$T/dmg.log" ] && echo called || echo none)"
}
sed 's/access_points        gpu\[001-003\]/access_points        gpu[004-006]/' "$EX/cluster.dsl" >"$EX/aps.dsl"
check "every access point replaced: plan exit 4, REFUSED with DAOS's reason, the JSON says so, the script stops before any dmg call" \
	"[ \"\$(refused aps.dsl cluster.dsl | tr '\n' ' ')\" = 'rc=4 json=True script=1 dmg=none ' ] && grep -q 'REFUSED: the change replaces every access point.*at least one old replica' '$T/r.err' && grep -q '^Rollout refused:' '$T/r.txt' && grep -q 'dslc: REFUSED: the change replaces every access point' '$T/r.out'"
step=$(sed -n 's/.*(here: access_points \([^)]*\)).*/\1/p' "$T/r.err")
sed "s/access_points        gpu\[001-003\]/access_points        $step/" "$EX/cluster.dsl" >"$EX/aps-step.dsl"
check "the proposed first step ($step) keeps one old access point: planned, not refused; then the new list, not refused" \
	"[ -n '$step' ] && [ \"\$(refused aps-step.dsl cluster.dsl | tr '\n' ' ')\" = 'rc=3 json=False script=1 dmg=called ' ] && [ \"\$(refused aps.dsl aps-step.dsl | tr '\n' ' ')\" = 'rc=3 json=False script=1 dmg=called ' ]"
# a system restart (access points 3 -> 5) with a node that loses its storage
sed 's/access_points        gpu\[001-003\]/access_points        gpu[001-005]/' "$EX/cluster.dsl" >"$EX/aps5.dsl"
sed 's/^node gpu007 { exclude nvme 0000:a4:00.0 }/node gpu007 { exclude nvme 0000:a4:00.0 0000:a3:00.0 }/' "$EX/aps5.dsl" >"$EX/aps5-drive.dsl"
sed 's/^node gpu007 { exclude nvme 0000:a4:00.0 }/node gpu007 { exclude nvme 0000:a4:00.0 0000:a3:00.0 }/' "$EX/cluster.dsl" >"$EX/drive.dsl"
check "a system restart in which gpu007 loses its storage: refused, naming it" \
	"[ \"\$(refused aps5-drive.dsl cluster.dsl | tr '\n' ' ')\" = 'rc=4 json=True script=1 dmg=none ' ] && grep -q 'REFUSED: a system restart in which gpu007 loses its engines. storage (reformat)' '$T/r.err'"
check "as proposed: the drive change alone (reformat waves, exit 4, not refused), then the system restart (exit 3)" \
	"[ \"\$(refused drive.dsl cluster.dsl | sed -n 2p)\" = json=False ] && [ \"\$(refused drive.dsl cluster.dsl | sed -n 1p)\" = rc=4 ] && [ \"\$(waves '$EX/drive.dsl')\" = 'gpu007|reformat' ] && [ \"\$(refused aps5-drive.dsl drive.dsl | tr '\n' ' ')\" = 'rc=3 json=False script=1 dmg=called ' ]"

tests_end
