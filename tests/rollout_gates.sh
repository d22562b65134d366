#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 36: the rollout script (`dslc plan --format script`) run against a
# fake dmg written from DAOS's Go sources (tests/fakes/dmg cites them), in
# every way DAOS can say no: a rank that stays excluded, a rebuild that fails
# (2.6: status; 2.8: derived_state), never ends or is canceled, a stop or
# start that fails, a pool list that fails, a reformat wave whose engines do
# or do not reclaim their ranks, pools the description does not name. Each
# failure must stop before the next wave, exit non-zero, name the wave and
# say what self_heal is and how to restore it. Issue 51: the whole system is
# checked before every wave (a rank, an access point, a pool outside the
# wave), the time limits run by the clock (tests/fakes/date and sleep: a fake
# clock that slow dmg calls advance too), a hang is cut off, an interrupted
# run says where it stands and a second run resumes it, self_heal goes back to
# what it was, drain and reintegrate run only where DAOS would accept them.
# The fake dmg writes VIOLATION when a host is stopped while another is down:
# no run may ever do that.
#   tests/rollout_gates.sh DSLC [calls]
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin rollout-gates
T=${KEEP_T:-$(mktemp -d)}
[ -n "${KEEP_T:-}" ] || trap 'rm -rf "$T"' EXIT
cp -r examples/hgx-b200 "$T/ex"
EX=$T/ex
mkdir -p "$T/bin"
cp tests/fakes/date tests/fakes/sleep "$T/bin/"
fakes_serve "$T/bin" dmg
printf '#!/bin/sh\necho "apply $*" >>"$FAKE_LOG"\n' >"$T/bin/apply"
# an apply that hangs (for real: timeout(1) runs by the real clock)
printf '#!/bin/sh\necho "apply $*" >>"$FAKE_LOG"\nexec /bin/sleep 30\n' >"$T/bin/apply-hangs"
# an apply that, in wave 3, sends SIGTERM to the script (its parent is timeout(1))
printf '#!/bin/sh\necho "apply $*" >>"$FAKE_LOG"\n[ "$1" != gpu006 ] || kill -TERM "$(ps -o ppid= -p "$PPID" | tr -d " ")"\n' >"$T/bin/apply-killed"
# DSLC_VERIFY: gpu006 still runs its old daos_server.yml (an apply that exited 0)
printf '#!/bin/sh\necho "verify $*" >>"$FAKE_LOG"\n[ "$1" != gpu006 ] || { echo "gpu006: /etc/daos/daos_server.yml differs from the built file" >&2; exit 1; }\n' >"$T/bin/verify"
chmod +x "$T/bin/"*
HOSTS="gpu001 gpu002 gpu003 gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014"

# restart: an engine environment change (the engines restart, nothing else);
# clients: crt_timeout, which the clients take through their agents (the
# clients' wave after the servers')
sed 's/swim_suspect_timeout 120s/swim_suspect_timeout 60s/' "$EX/cluster.dsl" >"$EX/restart.dsl"
sed 's/crt_timeout \( *\)600s/crt_timeout \1300s/' "$EX/cluster.dsl" >"$EX/clients.dsl"
sed 's/^node gpu007 { exclude nvme 0000:a4:00.0 }/node gpu007 { exclude nvme 0000:a4:00.0 0000:a3:00.0 }/' "$EX/cluster.dsl" >"$EX/reformat.dsl"
for v in 2.6 2.8; do
	sed "s/^daos 2.6\$/daos $v/" "$EX/cluster.dsl" >"$EX/old-$v.dsl"
	for c in restart clients reformat; do
		sed "s/^daos 2.6\$/daos $v/" "$EX/$c.dsl" >"$EX/$c-$v.dsl"
		$DSLC plan "$EX/$c-$v.dsl" --against-source "$EX/old-$v.dsl" --format script >"$T/$c-$v.sh" 2>"$T/err"
		rc=$?
		check "$c ($v): the plan writes a script (exit $rc)" "[ $rc = 3 ] || [ $rc = 4 ]"
		shellcheck_ok "$c ($v): shellcheck -s sh finds nothing" "$T/$c-$v.sh"
	done
done
# `calls` (make check's ASan pass): dslc's calls only; the scripts run against
# the fake dmg in the plain pass, where that tests the fake, not dslc
if [ "${2:-}" = calls ]; then
	tests_end
	exit
fi

# roll SCRIPT RELEASE [MODE] [POOLS|none]: run it against a fresh fake system
# (FAKE_HOSTS: its hosts; APPLY: the apply command), the clock at 1000 s
roll() {
	rm -f "$T/state" "$T/log" "$T/$1.state" "$T/clock.calls"
	echo 1000 >"$T/clock"
	: >"$T/log"
	again "$@"
}
# again SCRIPT RELEASE [MODE] [POOLS|none]: the same system, run again
again() {
	p=${4:-tier0}
	[ "$p" != none ] || p=''
	PATH="$T/bin:$PATH" FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" FAKE_DMG_HOSTS="${FAKE_HOSTS:-$HOSTS}" FAKE_DMG_RELEASE=$2 \
		FAKE_DMG_MODE="${3:-}" FAKE_DMG_POOLS="$p" FAKE_CLOCK="$T/clock" DSLC_APPLY="$T/bin/${APPLY:-apply}" \
		sh "$T/$1" >"$T/out" 2>&1
}
# no host was ever stopped while another was down
margin_kept() { ! grep -q '^VIOLATION' "$T/log"; }
applied() { grep '^apply' "$T/log" | cut -d' ' -f2 | tr '\n' ' '; }
# the last self_heal change, when no engine was stopped, applied, started or
# reintegrated after it (else "not last")
restored_last() {
	local n
	n=$(grep -n 'set-prop.*self_heal' "$T/log" | tail -1 | cut -d: -f1)
	[ -n "$n" ] || return
	if sed -n "$((n + 1)),\$p" "$T/log" | grep -q '^apply\|^dmg system \(stop\|start\|reintegrate\|drain\)'; then echo "not last"; return; fi
	sed -n "${n}p" "$T/log"
}
all='gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014 gpu001 gpu002 gpu003 '

for v in 2.6 2.8; do
	if [ "$v" = 2.6 ]; then
		get="dmg -j pool get-prop tier0 self_heal"
		off="dmg pool set-prop tier0 self_heal:exclude"
		on="dmg pool set-prop tier0 'self_heal:exclude;rebuild'"
		dq="dmg -j pool query --show-disabled tier0"
		keep="dmg system set-attr dslc.self_heal:tier0=exclude;rebuild"
	else
		get="dmg -j system get-prop self_heal"
		off="dmg system set-prop self_heal:exclude;pool_exclude"
		on="dmg system set-prop 'self_heal:exclude;pool_exclude;pool_rebuild'"
		dq="dmg -j pool query tier0"
		keep="dmg system set-attr dslc.self_heal:@system=exclude;pool_exclude;pool_rebuild"
	fi
	# the gate reads the cluster lock first (still this run's), then DAOS's state
	gate="dmg -j system get-attr/dmg -j system query/dmg -j system leader-query/$dq/"
	# before a wave it lists the pools again (one created since is gated too)
	wgate="dmg -j system get-attr/dmg -j pool list --no-query/dmg -j system query/dmg -j system leader-query/$dq/"
	roll restart-$v.sh $v
	rc=$?
	check "$v all joined: every wave in order, exit 0 ($rc), no second host ever down" "[ $rc = 0 ] && [ \"\$(applied)\" = '$all' ] && grep -q 'rollout done' '$T/out' && margin_kept"
	lockline="dmg system set-attr dslc.lock:rollout/$(uname -n | tr -c 'A-Za-z0-9.\n-' -)/PID/T/$(sed -n "s/^dslc_plan='\(.*\)'\$/\1/p" "$T/restart-$v.sh")"
	check "$v: the cluster's lock taken, the pools from dmg pool list, the fleet gate, self_heal read, kept in DAOS, then off, restored to what it was last, then the lock released" \
		"[ \"\$(sed -n 1,3p '$T/log' | sed 's|/[0-9]*/[0-9]*/|/PID/T/|' | tr '\n' /)\" = 'dmg -j system get-attr/$lockline/dmg -j system get-attr/' ] && [ \"\$(sed -n 4,9p '$T/log' | tr '\n' /)\" = \"dmg -j pool list --no-query/$gate$get/\" ] && [ \"\$(sed -n 10p '$T/log')\" = '$keep' ] && [ \"\$(sed -n 11p '$T/log')\" = '$off' ] && [ \"\$(tail -2 '$T/log' | tr '\n' /)\" = 'dmg -j system get-attr/dmg system del-attr dslc.lock/' ] && grep -q '^dmg system del-attr dslc.self_heal\$' '$T/log' && [ \"\$(restored_last)\" = \"\$(echo \"$on\" | tr -d \"'\")\" ]"
	check "$v: a wave notes its ranks, gates the fleet, stops, applies, starts, gates Joined, reintegrates what a pool disabled, gates the rebuild" \
		"grep -A12 '^dmg -j system query --rank-hosts=gpu009$' '$T/log' | head -13 | tr '\n' '/' | grep -qx 'dmg -j system query --rank-hosts=gpu009/${wgate}dmg system stop --rank-hosts=gpu009/apply gpu009 engine-restart/dmg system start --rank-hosts=gpu009/dmg -j system query --rank-hosts=gpu009/$dq/dmg system reintegrate --rank-hosts=gpu009/dmg -j pool query tier0/'"
	check "$v: a run that ended says so in its state file" "[ \"\$(tail -1 '$T/restart-$v.sh.state')\" = finished ] && [ \"\$(grep -c '^done ' '$T/restart-$v.sh.state')\" = 14 ]"
	again restart-$v.sh $v
	rc=$?
	check "$v: a second run of a finished rollout does nothing (exit $rc)" \
		"[ $rc = 0 ] && grep -q 'this rollout finished already' '$T/out' && [ \"\$(grep -c '^apply' '$T/log')\" = 14 ]"
	# crt_timeout: the 14 servers' waves, then one gated wave that gives every
	# node's DSLC_APPLY agent-refresh and remount, after the last server started
	roll clients-$v.sh $v
	rc=$?
	check "$v crt_timeout: the servers' waves, then the clients' wave (cn[01-04],gpu[001-014]: agent-refresh remount) last, exit 0 ($rc)" \
		"[ $rc = 0 ] && [ \"\$(applied)\" = '${all}cn[01-04],gpu[001-014] ' ] && [ \"\$(grep '^apply' '$T/log' | tail -1)\" = 'apply cn[01-04],gpu[001-014] agent-refresh remount' ] && ! grep '^apply gpu' '$T/log' | grep -q 'agent-refresh\\|remount' && [ \"\$(grep -n '^dmg -j system query\$' '$T/log' | tail -1 | cut -d: -f1)\" -gt \"\$(grep -n '^dmg system start' '$T/log' | tail -1 | cut -d: -f1)\" ] && margin_kept"

	# a rank that stays excluded after start
	DSLC_JOIN_TIMEOUT=60 roll restart-$v.sh $v stay-excluded=gpu006
	rc=$?
	check "$v rank stays excluded: stops in wave 3 (exit $rc), no later wave" \
		"[ $rc != 0 ] && [ \"\$(applied)\" = 'gpu004 gpu005 gpu006 ' ] && grep -q 'STOPPED in wave 3 of 14 (gpu006: engine-restart): ranks of gpu006 not Joined after 60 s (DSLC_JOIN_TIMEOUT): rank 10 excluded, rank 11 excluded' '$T/out'"
	check "$v rank stays excluded: says self_heal is off and the exact command that restores it, and what was not started" \
		"grep -q 'dslc: self_heal is off' '$T/out' && grep -qF \"dslc:   \$on\" '$T/out' && grep -q 'not started: waves 4 to 14 of 14' '$T/out' && ! grep -q '^dmg.*set-prop.*\\(pool_rebuild\\|;rebuild\\)' '$T/log'"

	# each wave verified on its nodes before their engines start (DSLC_VERIFY)
	DSLC_VERIFY="$T/bin/verify" roll restart-$v.sh $v
	rc=$?
	check "$v DSLC_VERIFY: called after each apply, before the engines start; gpu006's old file stops wave 3 (exit $rc), its ranks left stopped, naming the file" \
		"[ $rc = 1 ] && [ \"\$(grep -A2 '^apply gpu004 ' '$T/log' | tr '\n' /)\" = 'apply gpu004 engine-restart/verify gpu004 engine-restart/dmg system start --rank-hosts=gpu004/' ] && grep -q 'STOPPED in wave 3 of 14 (gpu006: engine-restart): DSLC_VERIFY gpu006 engine-restart failed (exit 1): gpu006 does not run the planned files' '$T/out' && grep -q 'gpu006: /etc/daos/daos_server.yml differs from the built file' '$T/out' && ! grep -q '^dmg system start --rank-hosts=gpu006' '$T/log' && [ \"\$(applied)\" = 'gpu004 gpu005 gpu006 ' ] && grep -q 'ranks of gpu006 now: rank 10 stopped, rank 11 stopped' '$T/out' && ! grep -q 'DSLC_VERIFY is not set' '$T/out'"
	roll restart-$v.sh $v
	check "$v without DSLC_VERIFY: the script says nothing checks the nodes" "grep -q 'DSLC_VERIFY is not set: nothing checks that a node runs the planned files' '$T/out'"
	# the management service changing leader: DAOS's transient answer, tried again
	roll restart-$v.sh $v unavailable=stop:2
	rc=$?
	check "$v leader step-up twice at wave 1's stop: tried again after DSLC_POLL, every wave (exit $rc)" \
		"[ $rc = 0 ] && [ \"\$(grep -c '^dmg system stop --rank-hosts=gpu004\$' '$T/log')\" = 3 ] && grep -q 'dslc: dmg system stop --rank-hosts=gpu004: the management service is changing leader (leader step-up in progress (try again)): again in 10 s (retry 2 of 3, DSLC_DMG_RETRIES)' '$T/out' && [ \"\$(applied)\" = '$all' ] && margin_kept"
	roll restart-$v.sh $v unavailable=stop:4
	rc=$?
	check "$v leader step-up past DSLC_DMG_RETRIES: stops in wave 1 (exit $rc), saying DAOS's answer" \
		"[ $rc = 1 ] && [ \"\$(grep -c '^dmg system stop --rank-hosts=gpu004\$' '$T/log')\" = 4 ] && grep -q 'STOPPED in wave 1 of 14 (gpu004: engine-restart):' '$T/out' && grep -q 'ERROR: dmg: leader step-up in progress (try again)' '$T/out' && [ -z \"\$(applied)\" ]"
	# a rank left out of dmg system query's answer (a member between joinReplace's
	# two raft updates): not Joined yet, however Joined the host's other rank is
	roll restart-$v.sh $v rank-absent=gpu006:1
	rc=$?
	check "$v a rank absent from one answer after its start: waits a poll, then every wave (exit $rc)" \
		"[ $rc = 0 ] && [ \"\$(applied)\" = '$all' ] && [ \"\$(grep -c '^dmg -j system query --rank-hosts=gpu006\$' '$T/log')\" = 3 ]"
	DSLC_JOIN_TIMEOUT=60 roll restart-$v.sh $v rank-absent=gpu006
	rc=$?
	check "$v a rank that stays absent while the other is Joined: stops in wave 3 (exit $rc), naming it" \
		"[ $rc != 0 ] && [ \"\$(applied)\" = 'gpu004 gpu005 gpu006 ' ] && grep -q 'STOPPED in wave 3 of 14 (gpu006: engine-restart): ranks of gpu006 not Joined after 60 s (DSLC_JOIN_TIMEOUT): rank 11 absent' '$T/out'"

	# rebuild fails: 2.6 says so by its status, 2.8 by derived_state too
	roll restart-$v.sh $v rebuild-fails
	rc=$?
	check "$v rebuild done with status -1007: stops after wave 1 (exit $rc)" \
		"[ $rc != 0 ] && [ \"\$(applied)\" = 'gpu004 ' ] && grep -q 'STOPPED in wave 1 of 14 (gpu004: engine-restart): rebuild of pool tier0 is failed (state done, status -1007)' '$T/out'"
	# failing: the error is in the status while the rebuild still runs (2.6
	# says busy with -1007, 2.8 derived_state failing): stop at once, not wait
	# for it to end
	roll restart-$v.sh $v rebuild-failing
	rc=$?
	check "$v rebuild busy with status -1007 (failing): stops at its first query after wave 1 (exit $rc)" \
		"[ $rc != 0 ] && [ \"\$(applied)\" = 'gpu004 ' ] && grep -q 'STOPPED in wave 1 of 14 (gpu004: engine-restart): rebuild of pool tier0 is failing (state busy, status -1007)' '$T/out' && [ \"\$(sed -n '/^dmg system reintegrate --rank-hosts=gpu004\$/,\$p' '$T/log' | grep -c '^dmg -j pool query tier0\$')\" = 1 ]"
	roll restart-$v.sh $v rebuild-canceled
	rc=$?
	check "$v rebuild canceled (idle, -2027): stops (exit $rc)" \
		"[ $rc != 0 ] && grep -q 'rebuild of pool tier0 is stopped' '$T/out' && [ \"\$(applied)\" = 'gpu004 ' ]"
	# rebuild busy forever: the time limit
	DSLC_REBUILD_TIMEOUT=60 roll restart-$v.sh $v rebuild-busy
	rc=$?
	check "$v rebuild busy forever: gives up after DSLC_REBUILD_TIMEOUT (exit $rc)" \
		"[ $rc != 0 ] && grep -q 'rebuild of pool tier0 still busy after 60 s' '$T/out' && [ \"\$(applied)\" = 'gpu004 ' ]"
	# stop and start fail
	roll restart-$v.sh $v stop-fails=gpu006
	rc=$?
	check "$v dmg system stop exits 1: stops in wave 3 before its apply (exit $rc)" \
		"[ $rc != 0 ] && [ \"\$(applied)\" = 'gpu004 gpu005 ' ] && grep -q \"STOPPED in wave 3 of 14 (gpu006: engine-restart): 'dmg system stop --rank-hosts=gpu006' failed (exit 1)\" '$T/out' && grep -qF \"dslc:   \$on\" '$T/out'"
	roll restart-$v.sh $v start-fails=gpu006
	rc=$?
	check "$v dmg system start exits 1: stops in wave 3 (exit $rc)" \
		"[ $rc != 0 ] && [ \"\$(applied)\" = 'gpu004 gpu005 gpu006 ' ] && grep -q \"STOPPED in wave 3 of 14 (gpu006: engine-restart): 'dmg system start --rank-hosts=gpu006' failed (exit 1)\" '$T/out'"
	# no pool list: nothing changed
	roll restart-$v.sh $v list-fails
	rc=$?
	check "$v dmg pool list fails: stops before anything, self_heal unchanged (exit $rc)" \
		"[ $rc != 0 ] && [ -z \"\$(applied)\" ] && grep -q 'STOPPED before the first wave: dmg pool list failed' '$T/out' && grep -q 'self_heal was not changed' '$T/out' && [ \"\$(grep -vc -- '-attr' '$T/log')\" = 1 ] && [ \"\$(tail -1 '$T/log')\" = 'dmg system del-attr dslc.lock' ]"
	# a pool the description does not name is gated too
	roll restart-$v.sh $v "" "tier0 scratch"
	rc=$?
	check "$v a pool not in the description: its rebuild is gated and said (exit $rc)" \
		"[ $rc = 0 ] && grep -q 'dmg -j pool query scratch' '$T/log' && grep -q 'not in the description, covered too: scratch' '$T/out'"
	if [ "$v" = 2.6 ]; then
		check "2.6: scratch's self_heal is switched off and restored as well" \
			"grep -q '^dmg pool set-prop scratch self_heal:exclude\$' '$T/log' && grep -q '^dmg pool set-prop scratch self_heal:exclude;rebuild\$' '$T/log'"
	fi

	# a pool without a label (created before labels were required) by its UUID
	roll restart-$v.sh $v "" "tier0 uuid:old"
	u=$(python3 -c 'import zlib; print("%08x-0000-4000-8000-%012x" % (zlib.crc32(b"old"), zlib.crc32(b"old")))')  # the fake's fake_uuid
	check "$v a pool without a label: gated by its UUID" "grep -q '^dmg -j pool query $u\$' '$T/log' && grep -q 'covered too: $u' '$T/out'"

	# a reformat wave: the same ranks come back through format --replace
	roll reformat-$v.sh $v
	rc=$?
	want="dmg -j system query --rank-hosts=gpu007/${wgate}dmg -j pool query --show-enabled tier0/dmg system drain --rank-hosts=gpu007/dmg -j pool query tier0/dmg -j pool query tier0/dmg -j pool query tier0/dmg system stop --rank-hosts=gpu007/dmg system exclude --rank-hosts=gpu007/apply gpu007 reformat/dmg system clear-exclude --rank-hosts=gpu007/dmg storage format --replace --host-list=gpu007/dmg -j system query --rank-hosts=gpu007/$dq/dmg system reintegrate --rank-hosts=gpu007/"
	got=$(sed -n '/^dmg -j system query --rank-hosts=gpu007$/,/reintegrate/p' "$T/log" | tr '\n' '/')
	check "$v reformat: drain (a pool holds the ranks), rebuild, stop, exclude, apply, clear-exclude, format --replace, Joined, reintegrate (exit $rc)" \
		"[ $rc = 0 ] && [ '$got' = '$want' ] && grep -q 'ranks 12 13 Joined' '$T/out'" || echo "    got: $got"
	roll reformat-$v.sh $v new-ranks
	rc=$?
	check "$v reformat whose engines join as new ranks: stops at once (exit $rc)" \
		"[ $rc != 0 ] && grep -q 'STOPPED in wave 1 of 1 (gpu007: reformat): rank 28 joined on gpu007, which had ranks 12 13 (now: rank 12 excluded, rank 13 excluded): the engines did not reclaim their ranks' '$T/out' && ! grep -q reintegrate '$T/log' && grep -q 'ranks of gpu007 now: rank 12 excluded, rank 13 excluded, rank 28 joined' '$T/out' && [ \"\$(grep -c '^dmg -j system query --rank-hosts=gpu007\$' '$T/log')\" = 3 ]"

	# ---- issue 51: the system outside the wave -------------------------------
	# a node in no wave already down before the rollout: nothing changes
	FAKE_HOSTS="$HOSTS gpu015" roll restart-$v.sh $v excluded-before=gpu015
	rc=$?
	check "$v a rank of a node in no wave excluded before the start: stops before anything (exit $rc), naming rank, host and pool" \
		"[ $rc = 1 ] && [ -z \"\$(applied)\" ] && grep -q 'STOPPED before the first wave: the system is not healthy enough to take more down: rank 28 (/gpu015, 10.0.0.15:10001) is excluded; rank 29 (/gpu015, 10.0.0.15:10001) is excluded; pool tier0 has rank 28,29 disabled outside this wave' '$T/out' && grep -q 'self_heal was not changed' '$T/out' && ! grep -q 'set-prop' '$T/log'"
	# a fault domain with blanks and quotes inside a level (DAOS takes them:
	# src/control/system/faultdomain.go), no pool to hold the ranks disabled:
	# the member is read by its keys' names, and the gate still stops
	FAKE_DMG_FAULT_DOMAIN='/rack "1" b' FAKE_HOSTS="$HOSTS gpu015" roll restart-$v.sh $v excluded-before=gpu015 none
	rc=$?
	check "$v a fault domain with blanks and quotes: the excluded ranks still stop the first gate (exit $rc), named with it" \
		"[ $rc = 1 ] && [ -z \"\$(applied)\" ] && grep -qF 'the system is not healthy enough to take more down: rank 28 (/rack \\\"1\\\" b/gpu015, 10.0.0.15:10001) is excluded; rank 29 (/rack \\\"1\\\" b/gpu015, 10.0.0.15:10001) is excluded' '$T/out'"
	# a rebuild running before the start: refused at once, or waited for
	roll restart-$v.sh $v rebuild-running=4
	rc=$?
	check "$v a rebuild running before the start: refused with DSLC_HEALTH_TIMEOUT 0 (exit $rc)" \
		"[ $rc = 1 ] && [ -z \"\$(applied)\" ] && grep -q 'STOPPED before the first wave: pool tier0 is rebuilding (dmg pool query tier0) after 0 s (DSLC_HEALTH_TIMEOUT=0' '$T/out'"
	DSLC_HEALTH_TIMEOUT=600 roll restart-$v.sh $v rebuild-running=4
	rc=$?
	check "$v the same with DSLC_HEALTH_TIMEOUT=600: waits for it, then every wave (exit $rc)" \
		"[ $rc = 0 ] && [ \"\$(applied)\" = '$all' ] && [ \"\$(sed -n '1,/set-prop/p' '$T/log' | grep -c '^dmg -j system leader-query')\" -ge 3 ] && margin_kept"
	DSLC_HEALTH_TIMEOUT=30 roll restart-$v.sh $v "rebuild-running=4 rebuild-busy"
	rc=$?
	check "$v a rebuild that outlasts DSLC_HEALTH_TIMEOUT=30: refused by the clock (exit $rc)" \
		"[ $rc = 1 ] && [ -z \"\$(applied)\" ] && grep -q 'pool tier0 is rebuilding (dmg pool query tier0) after 30 s' '$T/out'"
	# an access point outside the wave down
	roll restart-$v.sh $v ap-down=gpu002
	rc=$?
	check "$v an access point down before the start: stops before anything (exit $rc), naming it" \
		"[ $rc = 1 ] && [ -z \"\$(applied)\" ] && grep -q 'access point 10.0.0.2:10001 (rank 2,3 on /gpu002) is down (dmg system leader-query)' '$T/out'"
	# a node of a later wave dies after wave 1's rebuild ended
	roll restart-$v.sh $v dies-after-rebuild=gpu011
	rc=$?
	check "$v a node dies after wave 1's rebuild: wave 2 stops at its gate (exit $rc), no second host down, self_heal said" \
		"[ $rc = 1 ] && [ \"\$(applied)\" = 'gpu004 ' ] && grep -q 'STOPPED in wave 2 of 14 (gpu005: engine-restart): the system is not healthy enough to take more down: rank 20 (/gpu011, 10.0.0.11:10001) is excluded; rank 21 (/gpu011, 10.0.0.11:10001) is excluded; pool tier0 has rank 20,21 disabled outside this wave' '$T/out' && grep -qF \"dslc:   \$on\" '$T/out' && margin_kept && ! grep -q 'dmg system stop --rank-hosts=gpu005' '$T/log'"

	# ---- limits by the clock ---------------------------------------------------
	# every dmg call takes 40 s: the rebuild limit counts them (it counted only its sleeps)
	DSLC_REBUILD_TIMEOUT=100 roll restart-$v.sh $v "slow=40 rebuild-busy"
	rc=$?
	n=$(sed -n 's/.*rebuild of pool tier0 still busy after \([0-9]*\) s.*/\1/p' "$T/out")
	# the gate's span by the fake clock: from the reintegrate to its last pool query
	span=$(awk '/ dmg system reintegrate/ { r = $1 } / dmg -j pool query tier0$/ { q = $1 } END { print q - r }' "$T/clock.calls")
	check "$v slow dmg (40 s a call), rebuild limit 100 s: gives up after ${n:-?} s, ${span:-?} s of clock after the reintegrate, both between 100 and 150 (exit $rc)" \
		"[ $rc = 1 ] && [ -n '$n' ] && [ '${n:-0}' -ge 100 ] && [ '${n:-999}' -lt 150 ] && [ '${span:-0}' -ge 100 ] && [ '${span:-999}' -lt 150 ] && [ \"\$(applied)\" = 'gpu004 ' ]"
	DSLC_REBUILD_TIMEOUT=100 roll restart-$v.sh $v slow=40 "tier0 scratch"
	rc=$?
	check "$v slow dmg, two pools: one rebuild limit for the wave, not one each (exit $rc)" \
		"[ $rc = 1 ] && grep -q 'rebuild of pool tier0 still busy after 1[0-4][0-9] s' '$T/out'"
	# a hung apply and a hung dmg are cut off (timeout(1), the real clock: 1 s)
	APPLY=apply-hangs DSLC_APPLY_TIMEOUT=1 roll restart-$v.sh $v
	rc=$?
	check "$v DSLC_APPLY hangs: stopped after DSLC_APPLY_TIMEOUT (exit $rc), the node named" \
		"[ $rc = 1 ] && [ \"\$(applied)\" = 'gpu004 ' ] && grep -q \"STOPPED in wave 1 of 14 (gpu004: engine-restart): DSLC_APPLY gpu004 engine-restart did not end within 1 s (DSLC_APPLY_TIMEOUT) and was stopped: gpu004 may be half-installed\" '$T/out' && ! grep -q 'dmg system start' '$T/log'"
	DSLC_DMG_TIMEOUT=1 roll restart-$v.sh $v hang=stop
	rc=$?
	check "$v dmg system stop hangs: cut off after DSLC_DMG_TIMEOUT (exit $rc)" \
		"[ $rc = 1 ] && [ -z \"\$(applied)\" ] && grep -q 'dmg system stop --rank-hosts=gpu004 did not answer within 1 s (DSLC_DMG_TIMEOUT)' '$T/out' && grep -q \"STOPPED in wave 1 of 14 (gpu004: engine-restart): 'dmg system stop --rank-hosts=gpu004' failed (exit 124)\" '$T/out'"

	# ---- what DAOS refuses --------------------------------------------------------
	roll restart-$v.sh $v "" none
	rc=$?
	check "$v no pools: every wave, no drain or reintegrate (DAOS refuses both without pool ranks), exit $rc" \
		"[ $rc = 0 ] && [ \"\$(applied)\" = '$all' ] && ! grep -q 'reintegrate\|drain' '$T/log' && grep -q 'pools gated: none' '$T/out' && grep -q 'no pool has ranks 8 9 disabled: nothing to reintegrate' '$T/out'"
	roll reformat-$v.sh $v "" none
	rc=$?
	check "$v no pools, a reformat wave: no drain, format --replace, exit $rc" \
		"[ $rc = 0 ] && ! grep -q 'reintegrate\|drain' '$T/log' && grep -q 'storage format --replace --host-list=gpu007' '$T/log' && grep -q 'no pool has ranks 12 13 enabled: nothing to drain' '$T/out'"
	roll restart-$v.sh $v fast-restart
	rc=$?
	check "$v engines back before SWIM noticed: no reintegrate, every wave (exit $rc)" \
		"[ $rc = 0 ] && [ \"\$(applied)\" = '$all' ] && ! grep -q 'system reintegrate' '$T/log' && margin_kept"

	# ---- interrupted, then run again ----------------------------------------------
	APPLY=apply-killed roll restart-$v.sh $v
	rc=$?
	check "$v SIGTERM in wave 3: exit 143, says the wave, its ranks' state, self_heal and how to finish or undo" \
		"[ $rc = 143 ] && [ \"\$(applied)\" = 'gpu004 gpu005 gpu006 ' ] && grep -q 'INTERRUPTED (SIGTERM) in wave 3 of 14 (gpu006: engine-restart)' '$T/out' && grep -q 'ranks of gpu006 now: rank 10 stopped, rank 11 stopped' '$T/out' && grep -qF \"dslc:   \$on\" '$T/out' && grep -q 'to finish: run this script again; it resumes with wave 3' '$T/out' && grep -q 'to undo wave 3 instead' '$T/out' && ! grep -q 'system start --rank-hosts=gpu006' '$T/log'"
	: >"$T/log"
	again restart-$v.sh $v
	rc=$?
	check "$v run again: wave 3 from its start, then 4 to 14, none twice, self_heal back to the first run's value (exit $rc)" \
		"[ $rc = 0 ] && [ \"\$(applied)\" = 'gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014 gpu001 gpu002 gpu003 ' ] && grep -q 'waves done: 1 2; wave 3 was interrupted' '$T/out' && ! grep -q 'get-prop' '$T/log' && [ \"\$(restored_last)\" = \"\$(echo \"$on\" | tr -d \"'\")\" ] && margin_kept"
	# the record gone, a node still down: the first gate refuses
	APPLY=apply-killed roll restart-$v.sh $v
	rm -f "$T/restart-$v.sh.state"
	again restart-$v.sh $v
	rc=$?
	check "$v run again without its state file while gpu006 is down: refused before anything (exit $rc)" \
		"[ $rc = 1 ] && grep -q 'STOPPED before the first wave: the system is not healthy enough to take more down: rank 10 (/gpu006, 10.0.0.6:10001) is stopped' '$T/out' && margin_kept"
	# another plan's script against this one's record
	APPLY=apply-killed roll restart-$v.sh $v
	cp "$T/restart-$v.sh.state" "$T/reformat-$v.sh.state"
	again reformat-$v.sh $v
	rc=$?
	check "$v another plan's state file: refused, nothing done (exit $rc)" \
		"[ $rc = 1 ] && grep -q 'is the record of another rollout' '$T/out' && ! grep -q 'gpu007' '$T/log'"
	rm -f "$T/reformat-$v.sh.state"

	# ---- self_heal put back to what it was --------------------------------------
	if [ "$v" = 2.6 ]; then
		roll restart-$v.sh $v heal=exclude
		rc=$?
		check "2.6 a pool whose self_heal has no rebuild: left alone, nothing restored (exit $rc)" \
			"[ $rc = 0 ] && ! grep -q 'pool set-prop' '$T/log' && grep -q \"pool tier0's self_heal is exclude (no automatic rebuild): left as it is\" '$T/out'"
		roll restart-$v.sh $v 'heal=exclude;delay_rebuild'
		rc=$?
		check "2.6 self_heal exclude;delay_rebuild: off, then put back as it was (exit $rc)" \
			"[ $rc = 0 ] && grep -qx 'dmg pool set-prop tier0 self_heal:exclude' '$T/log' && [ \"\$(restored_last)\" = 'dmg pool set-prop tier0 self_heal:exclude;delay_rebuild' ]"
	else
		roll restart-$v.sh $v 'sys-heal=exclude;pool_exclude'
		rc=$?
		check "2.8 the system's self_heal without pool_rebuild: left alone, no self-heal eval (exit $rc)" \
			"[ $rc = 0 ] && ! grep -q 'system set-prop\|self-heal eval' '$T/log' && grep -q \"the system's self_heal is exclude;pool_exclude (no pool rebuild): left as it is\" '$T/out'"
		roll restart-$v.sh $v
		check "2.8 self_heal restored, then self-heal eval (the operator had pool_rebuild on)" \
			"[ \"\$(grep -v ' system [gsd]e[tl]-attr' '$T/log' | tail -2 | tr '\n' /)\" = 'dmg system set-prop self_heal:exclude;pool_exclude;pool_rebuild/dmg system self-heal eval/' ]"
	fi
done

# a time limit that is not a whole number of seconds would make a gate wait forever
for bad in 0 00 10s -5; do
	: >"$T/log"
	PATH="$T/bin:$PATH" FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" FAKE_DMG_HOSTS="$HOSTS" DSLC_APPLY="$T/bin/apply" \
		DSLC_POLL=$bad sh "$T/restart-2.6.sh" >"$T/out" 2>&1
	rc=$?
	check "DSLC_POLL='$bad': refused before any dmg call (exit $rc)" "[ $rc = 2 ] && grep -q \"take whole seconds (1 or more), not '$bad'\" '$T/out' && [ ! -s '$T/log' ]"
done

# without DSLC_APPLY nothing runs
: >"$T/log"
PATH="$T/bin:$PATH" FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" FAKE_DMG_HOSTS="$HOSTS" DSLC_APPLY= sh "$T/restart-2.6.sh" >"$T/out" 2>&1
rc=$?
check "without DSLC_APPLY the script stops before any dmg call (exit $rc)" "[ $rc != 0 ] && grep -q DSLC_APPLY '$T/out' && [ ! -s '$T/log' ]"
tests_end
