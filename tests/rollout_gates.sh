#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 36: the rollout script (`dslc plan --format script`) run against a
# fake dmg written from DAOS's Go sources (tests/fakes/dmg cites them), in
# every way DAOS can say no: a rank that stays excluded, a rebuild that fails
# (2.6: status; 2.8: derived_state), never ends or is canceled, a stop or
# start that fails, a pool list that fails, a reformat wave whose engines do
# or do not reclaim their ranks, pools the description does not name. Each
# failure must stop before the next wave, exit non-zero, name the wave and
# say what self_heal is and how to restore it. `sleep` is a no-op here.
#   tests/rollout_gates.sh DSLC [calls]
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin rollout-gates
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r examples/hgx-b200 "$T/ex"
EX=$T/ex
mkdir -p "$T/bin"
cp tests/fakes/dmg "$T/bin/dmg"
printf '#!/bin/sh\nexit 0\n' >"$T/bin/sleep"
printf '#!/bin/sh\necho "apply $*" >>"$FAKE_LOG"\n' >"$T/bin/apply"
chmod +x "$T/bin/sleep" "$T/bin/apply"
HOSTS="gpu001 gpu002 gpu003 gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014"

sed 's/crt_timeout \( *\)600s/crt_timeout \1300s/' "$EX/cluster.dsl" >"$EX/restart.dsl"
sed 's/^node gpu007 { exclude nvme 0000:a4:00.0 }/node gpu007 { exclude nvme 0000:a4:00.0 0000:a3:00.0 }/' "$EX/cluster.dsl" >"$EX/reformat.dsl"
for v in 2.6 2.8; do
	sed "s/^daos 2.6\$/daos $v/" "$EX/cluster.dsl" >"$EX/old-$v.dsl"
	for c in restart reformat; do
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

# roll SCRIPT RELEASE [MODE] [POOLS]: run it against a fresh fake system
roll() {
	rm -f "$T/state" "$T/log"
	: >"$T/log"
	PATH="$T/bin:$PATH" FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" FAKE_DMG_HOSTS="$HOSTS" FAKE_DMG_RELEASE=$2 \
		FAKE_DMG_MODE="${3:-}" FAKE_DMG_POOLS="${4:-tier0}" DSLC_APPLY="$T/bin/apply" \
		sh "$T/$1" >"$T/out" 2>&1
}
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
		off="dmg pool set-prop tier0 self_heal:exclude"
		on="dmg pool set-prop tier0 'self_heal:exclude;rebuild'"
	else
		off="dmg system set-prop self_heal:exclude;pool_exclude"
		on="dmg system set-prop 'self_heal:exclude;pool_exclude;pool_rebuild'"
	fi
	roll restart-$v.sh $v
	rc=$?
	check "$v all joined: every wave in order, exit 0 ($rc)" "[ $rc = 0 ] && [ \"\$(applied)\" = '$all' ] && grep -q 'rollout done' '$T/out'"
	check "$v: the pools come from dmg pool list, self_heal off first, restored to its running value last" \
		"[ \"\$(sed -n 1p '$T/log')\" = 'dmg -j pool list --no-query' ] && [ \"\$(sed -n 2p '$T/log')\" = '$off' ] && [ \"\$(restored_last)\" = \"\$(echo \"$on\" | tr -d \"'\")\" ]"
	check "$v: a wave notes its ranks, stops, applies, starts, gates Joined, reintegrates, gates the rebuild" \
		"grep -A7 '^dmg -j system query --rank-hosts=gpu009$' '$T/log' | head -7 | tr '\n' '/' | grep -q '^dmg -j system query --rank-hosts=gpu009/dmg system stop --rank-hosts=gpu009/apply gpu009 engine-restart/dmg system start --rank-hosts=gpu009/dmg -j system query --rank-hosts=gpu009/dmg system reintegrate --rank-hosts=gpu009/dmg -j pool query tier0/'"

	# a rank that stays excluded after start
	DSLC_JOIN_TIMEOUT=60 roll restart-$v.sh $v stay-excluded=gpu006
	rc=$?
	check "$v rank stays excluded: stops in wave 3 (exit $rc), no later wave" \
		"[ $rc != 0 ] && [ \"\$(applied)\" = 'gpu004 gpu005 gpu006 ' ] && grep -q 'STOPPED in wave 3 of 14 (gpu006: engine-restart): ranks of gpu006 not Joined after 60 s (DSLC_JOIN_TIMEOUT): rank 10 excluded, rank 11 excluded' '$T/out'"
	check "$v rank stays excluded: says self_heal is off and the exact command that restores it, and what was not started" \
		"grep -q 'dslc: self_heal is off' '$T/out' && grep -qF \"dslc:   \$on\" '$T/out' && grep -q 'not started: waves 4 to 14 of 14' '$T/out' && ! grep -q '^dmg.*pool_rebuild\\|;rebuild' '$T/log'"

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
		"[ $rc != 0 ] && [ -z \"\$(applied)\" ] && grep -q 'STOPPED before the first wave: dmg pool list failed' '$T/out' && grep -q 'self_heal was not changed' '$T/out' && [ \"\$(wc -l <'$T/log')\" = 1 ]"
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
	u=$(python3 -c 'import uuid; print(uuid.uuid5(uuid.NAMESPACE_DNS, "old"))')
	check "$v a pool without a label: gated by its UUID" "grep -q '^dmg -j pool query $u\$' '$T/log' && grep -q 'covered too: $u' '$T/out'"

	# a reformat wave: the same ranks come back through format --replace
	roll reformat-$v.sh $v
	rc=$?
	want='dmg -j system query --rank-hosts=gpu007/dmg system drain --rank-hosts=gpu007/dmg -j pool query tier0/dmg -j pool query tier0/dmg -j pool query tier0/dmg system stop --rank-hosts=gpu007/dmg system exclude --rank-hosts=gpu007/apply gpu007 reformat/dmg system clear-exclude --rank-hosts=gpu007/dmg storage format --replace --host-list=gpu007/dmg -j system query --rank-hosts=gpu007/dmg system reintegrate --rank-hosts=gpu007/'
	got=$(sed -n '/^dmg -j system query --rank-hosts=gpu007$/,/reintegrate/p' "$T/log" | tr '\n' '/')
	check "$v reformat: drain, rebuild, stop, exclude, apply, clear-exclude, format --replace, Joined, reintegrate (exit $rc)" \
		"[ $rc = 0 ] && [ '$got' = '$want' ] && grep -q 'ranks 12 13 Joined' '$T/out'" || echo "    got: $got"
	roll reformat-$v.sh $v new-ranks
	rc=$?
	check "$v reformat whose engines join as new ranks: stops at once (exit $rc)" \
		"[ $rc != 0 ] && grep -q 'STOPPED in wave 1 of 1 (gpu007: reformat): rank 28 joined on gpu007, which had ranks 12 13 (now: rank 12 excluded, rank 13 excluded): the engines did not reclaim their ranks' '$T/out' && ! grep -q reintegrate '$T/log' && [ \"\$(grep -c '^dmg -j system query --rank-hosts=gpu007\$' '$T/log')\" = 2 ]"
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
