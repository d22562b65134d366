#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 68 item 1: one actor at a time. The rollout script holds the cluster
# through the DAOS system attribute dslc.lock (dmg system set-attr/get-attr/
# del-attr, which tests/fakes/dmg answers as DAOS's src/control does) and
# flock(1) on its state file's directory. Against one fake DAOS: a second run
# from the same host, a run from a second admin host (its own state
# directory, its own host name), two hosts starting together, a run killed
# with SIGKILL and run again, a lock taken over mid-run, a lock value dslc
# did not write. A second actor is refused at once (exit 75) with the holder
# named and changes nothing; the fake writes VIOLATION when a host is
# stopped while another is down, and no run may. node-maintenance.sh beside
# a rollout: tests/rollout_k8s.sh.
#   tests/rollout_lock.sh DSLC [calls]
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin rollout-lock
T=${KEEP_T:-$(mktemp -d)}
[ -n "${KEEP_T:-}" ] || trap 'rm -rf "$T"' EXIT
cp -r examples/hgx-b200 "$T/ex"
EX=$T/ex
mkdir -p "$T/bin" "$T/admin2/bin" "$T/admin2/state"
cp tests/fakes/date tests/fakes/sleep "$T/bin/"
fakes_serve "$T/bin" dmg
# an apply that waits in wave 2 (gpu005) until the test lets it go
cat >"$T/bin/apply" <<'EOF'
#!/bin/sh
echo "apply $*" >>"$FAKE_LOG"
if [ "$1" = gpu005 ] && [ -n "${HOLD:-}" ]; then
	: >"$HOLD.in"
	while [ ! -e "$HOLD" ]; do /bin/sleep 0.1; done
fi
EOF
# the second admin host's name (uname -n), as the script reads it
printf '#!/bin/sh\necho admin2\n' >"$T/admin2/bin/uname"
chmod +x "$T/bin/"* "$T/admin2/bin/uname"
HOSTS="gpu001 gpu002 gpu003 gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014"
sed 's/swim_suspect_timeout 120s/swim_suspect_timeout 60s/' "$EX/cluster.dsl" >"$EX/restart.dsl"
for v in 2.6 2.8; do
	sed "s/^daos 2.6\$/daos $v/" "$EX/cluster.dsl" >"$EX/old-$v.dsl"
	sed "s/^daos 2.6\$/daos $v/" "$EX/restart.dsl" >"$EX/restart-$v.dsl"
	$DSLC plan "$EX/restart-$v.dsl" --against-source "$EX/old-$v.dsl" --format script >"$T/restart-$v.sh" 2>"$T/err"
	rc=$?
	# the same hosts and classes, other files: another tree
	sed 's/swim_suspect_timeout 60s/swim_suspect_timeout 50s/' "$EX/restart-$v.dsl" >"$EX/other-$v.dsl"
	$DSLC plan "$EX/other-$v.dsl" --against-source "$EX/old-$v.dsl" --format script >"$T/other-$v.sh" 2>"$T/err"
	check "$v: another tree's plan, the same waves and steps: another identity" \
		"[ \"\$(grep -A4 '^dslc_identity=' '$T/restart-$v.sh' | grep -v tree)\" = \"\$(grep -A4 '^dslc_identity=' '$T/other-$v.sh' | grep -v tree)\" ] && ! cmp -s <(grep '^tree' '$T/restart-$v.sh') <(grep '^tree' '$T/other-$v.sh') && [ \"\$(grep '^dslc_plan=' '$T/restart-$v.sh')\" != \"\$(grep '^dslc_plan=' '$T/other-$v.sh')\" ]"
	check "$v: the plan writes a script (exit $rc)" "[ $rc = 3 ] || [ $rc = 4 ]"
	check "$v: the script takes the cluster's lock after the checks that change nothing and before its state file" \
		"grep -n '^run dslc_rollout_lock\$' '$T/restart-$v.sh' | cut -d: -f1 | grep -q . && [ \"\$(grep -n '^run dslc_rollout_lock\$' '$T/restart-$v.sh' | cut -d: -f1)\" -lt \"\$(grep -n '^run dslc_state_begin\$' '$T/restart-$v.sh' | cut -d: -f1)\" ]"
	shellcheck_ok "$v: shellcheck -s sh finds nothing" "$T/restart-$v.sh"
done
if [ "${2:-}" = calls ]; then
	tests_end
	exit
fi

# run NAME RELEASE [ENV...]: the script against the shared fake system, its
# output in $T/NAME.out and exit status in $T/NAME.rc; the clock at 1000 s
run() {
	local name=$1 v=$2
	shift 2
	env PATH="$T/bin:$PATH" FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" FAKE_DMG_HOSTS="$HOSTS" FAKE_DMG_RELEASE="$v" \
		FAKE_CLOCK="$T/clock.$name" DSLC_APPLY="$T/bin/apply" DSLC_STATE="$T/rollout.state" "$@" \
		sh "$T/${SCRIPT:-restart}-$v.sh" >"$T/$name.out" 2>&1
	echo $? >"$T/$name.rc"
}
fresh() {
	rm -f "$T/state" "$T/state.lock" "$T/log" "$T/rollout.state" "$T/admin2/state/"* "$T/hold" "$T/hold.in"
	for c in a b c; do echo 1000 >"$T/clock.$c"; done
	: >"$T/log"
}
# held_in_wave2 RELEASE: a fresh system, run a started and waiting inside
# wave 2's apply (pa: its subshell) until the test touches $T/hold
held_in_wave2() {
	fresh
	run a "$1" HOLD="$T/hold" &
	pa=$!
	await "$T/hold.in"
}
# wait (for real, at most 60 s) until FILE exists
await() { local i=0; while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done; [ -e "$1" ]; }
attr() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[2])).get("attrs", {}).get(sys.argv[1], "-"))' "$1" "$T/state"; }
lock_value() { attr dslc.lock; }
applied() { grep -c '^apply' "$T/log"; }
margin_kept() { ! grep -q '^VIOLATION' "$T/log"; }
me=$(uname -n | tr -c 'A-Za-z0-9.\n-' '-')
# the pid run a's script gave in its lock (not the pid of the test's subshell)
holder_pid() { sed -n 's/^dslc: holding the cluster (dslc.lock = rollout\/[^/]*\/\([0-9]*\)\/.*/\1/p' "$T/a.out"; }

for v in 2.6 2.8; do
	# ---- a second run from the same host, while the first is inside wave 2's apply
	held_in_wave2 "$v"
	held=$(lock_value)
	sum=$(md5sum <"$T/rollout.state")
	calls=$(wc -l <"$T/log")
	run b "$v"
	new=$(sed -n "$((calls + 1)),\$p" "$T/log" | tr '\n' /)
	check "$v same host: the second run is refused at once (exit $(cat "$T/b.rc")), naming the first's process, host and plan" \
		"[ \"\$(cat '$T/b.rc')\" = 75 ] && grep -q \"REFUSED: another run on this host holds $T (flock; fuser -v $T names it): a rollout (plan [0-9a-f]*), process [0-9]* on $me, since \" '$T/b.out' && grep -q 'nothing was changed' '$T/b.out'"
	check "$v same host: the refused run read the lock and nothing else, and left the state file and the lock as they were" \
		"[ '$new' = 'dmg -j system get-attr/' ] && [ \"\$(md5sum <'$T/rollout.state')\" = '$sum' ] && [ \"\$(lock_value)\" = '$held' ]"
	: >"$T/hold"
	wait $pa
	check "$v same host: the first run ends every wave (exit $(cat "$T/a.rc")), releases the lock, no second host ever down" \
		"[ \"\$(cat '$T/a.rc')\" = 0 ] && [ \"\$(applied)\" = 14 ] && [ \"\$(lock_value)\" = - ] && [ \"\$(tail -1 '$T/log')\" = 'dmg system del-attr dslc.lock' ] && margin_kept"

	# ---- the same host, another state directory (flock does not meet it): the
	# lock's process is alive, so it is not stale
	held_in_wave2 "$v"
	run b "$v" DSLC_STATE="$T/admin2/state/rollout.state"
	check "$v same host, another state directory: refused (exit $(cat "$T/b.rc")), the live holder not taken for stale" \
		"[ \"\$(cat '$T/b.rc')\" = 75 ] && grep -q \"the cluster is held by a rollout (plan [0-9a-f]*), process $(holder_pid) on $me\" '$T/b.out' && ! grep -q 'taking over' '$T/b.out'"
	: >"$T/hold"
	wait $pa

	# ---- a second admin host (its own state directory and name) against the same DAOS
	held_in_wave2 "$v"
	pa_script=$(holder_pid)
	run b "$v" PATH="$T/admin2/bin:$T/bin:$PATH" DSLC_STATE="$T/admin2/state/rollout.state"
	check "$v second host: refused at once (exit $(cat "$T/b.rc")), naming the holder on the first host and how to clear a stale lock" \
		"[ \"\$(cat '$T/b.rc')\" = 75 ] && grep -q \"REFUSED: the cluster is held by a rollout (plan [0-9a-f]*), process $pa_script on $me, since 1970-01-01 00:16:40 UTC ([0-9]* s ago) (dslc.lock)\" '$T/b.out' && grep -q 'clear its lock with: dmg system del-attr dslc.lock' '$T/b.out'"
	check "$v second host: no state file written there, no engine stopped by it" \
		"[ ! -e '$T/admin2/state/rollout.state' ] && [ \"\$(grep -c '^dmg system stop' '$T/log')\" = 2 ] && [ \"\$(applied)\" = 2 ]"
	: >"$T/hold"
	wait $pa
	check "$v second host: the first run still ends every wave (exit $(cat "$T/a.rc"))" "[ \"\$(cat '$T/a.rc')\" = 0 ] && [ \"\$(applied)\" = 14 ] && margin_kept"

	# ---- two hosts start together: one holds the cluster, the other is refused
	fresh
	run a "$v" FAKE_SLEEP_REAL=2 DSLC_LOCK_SETTLE=2 &
	pa=$!
	run b "$v" FAKE_SLEEP_REAL=2 DSLC_LOCK_SETTLE=2 PATH="$T/admin2/bin:$T/bin:$PATH" DSLC_STATE="$T/admin2/state/rollout.state" &
	pb=$!
	wait $pa $pb
	check "$v two hosts at once: one runs every wave and the other is refused (exit $(cat "$T/a.rc") and $(cat "$T/b.rc")), no wave applied twice" \
		"[ \"\$(sort '$T/a.rc' '$T/b.rc' | tr '\n' ' ')\" = '0 75 ' ] && [ \"\$(applied)\" = 14 ] && [ \"\$(grep -c '^dmg system stop' '$T/log')\" = 14 ] && margin_kept && [ \"\$(lock_value)\" = - ]"

	# ---- a run killed with SIGKILL in wave 2, then run again on the same host
	fresh
	{ run a "$v" HOLD="$T/hold"; } 2>/dev/null &
	await "$T/hold.in"
	pk=$(holder_pid)
	kill -KILL "$pk"
	: >"$T/hold"
	wait
	check "$v SIGKILL: the lock stays in DAOS with the killed process's id ($pk)" "[ -n '$pk' ] && lock_value | grep -q '^rollout/$me/$pk/'"
	run b "$v" PATH="$T/admin2/bin:$T/bin:$PATH" DSLC_STATE="$T/admin2/state/rollout.state"
	check "$v SIGKILL: a run from another host is refused (exit $(cat "$T/b.rc")): it cannot see whether the process lives" \
		"[ \"\$(cat '$T/b.rc')\" = 75 ] && grep -q 'the cluster is held by a rollout .*, process $pk on $me' '$T/b.out'"
	run c "$v"
	check "$v SIGKILL: run again on that host, it takes the stale lock over, says so, resumes wave 2 and ends (exit $(cat "$T/c.rc"))" \
		"[ \"\$(cat '$T/c.rc')\" = 0 ] && grep -q 'taking over a stale lock: a rollout (plan [0-9a-f]*), process $pk on $me, .*and that process is gone' '$T/c.out' && grep -q 'waves done: 1; wave 2 was interrupted' '$T/c.out' && [ \"\$(lock_value)\" = - ] && margin_kept"

	# ---- the lock taken over while a wave runs: the run stops at the next gate
	held_in_wave2 "$v"
	PATH="$T/bin:$PATH" FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" dmg system set-attr dslc.lock:rollout/admin9/4242/1000/0123456789abcdef >/dev/null
	: >"$T/hold"
	wait $pa
	check "$v lock taken over mid-run: stops before wave 3's stop (exit $(cat "$T/a.rc")), naming the new holder, and leaves its lock" \
		"[ \"\$(cat '$T/a.rc')\" = 1 ] && grep -q 'STOPPED in wave 3 of 14 (gpu006: engine-restart): this run no longer holds the cluster: a rollout (plan 0123456789abcdef), process 4242 on admin9, since .* ago) holds it\$' '$T/a.out' && [ \"\$(grep -c '^dmg system stop' '$T/log')\" = 2 ] && [ \"\$(lock_value)\" = rollout/admin9/4242/1000/0123456789abcdef ]"

	# ---- a value dslc did not write: refused, and never printed raw
	fresh
	PATH="$T/bin:$PATH" FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" FAKE_DMG_HOSTS="$HOSTS" dmg system set-attr "dslc.lock:x';reboot;'" >/dev/null
	run a "$v"
	check "$v a lock value dslc did not write: refused (exit $(cat "$T/a.rc")), its bytes not printed" \
		"[ \"\$(cat '$T/a.rc')\" = 75 ] && grep -q 'the cluster is held by a value dslc did not write (11 bytes; see dmg system get-attr dslc.lock)' '$T/a.out' && ! grep -q reboot '$T/a.out' && [ \"\$(applied)\" = 0 ]"

	# ---- issue 68 item 2: the state file tied to what the rollout installs
	if [ "$v" = 2.6 ]; then
		on="dmg pool set-prop tier0 self_heal:exclude;rebuild"
	else
		on="dmg system set-prop self_heal:exclude;pool_exclude;pool_rebuild"
	fi
	fresh
	ln -s "$T/nowhere" "$T/rollout.state"
	run a "$v"
	check "$v DSLC_STATE a dangling symbolic link: refused (exit $(cat "$T/a.rc")), its target not created, the lock released" \
		"[ \"\$(cat '$T/a.rc')\" = 2 ] && grep -q 'is a symbolic link: the state file must be a plain file this script created' '$T/a.out' && [ ! -e '$T/nowhere' ] && [ \"\$(lock_value)\" = - ] && [ \"\$(applied)\" = 0 ]"
	# a run whose wave 1 stop fails (no rank down; self_heal off, kept in DAOS)
	fresh
	run a "$v" FAKE_DMG_MODE=stop-fails=gpu004
	sed -n 1,5p "$T/rollout.state" >"$T/identity"
	cp "$T/log" "$T/log.a"
	kept='tier0=exclude;rebuild'
	[ "$v" = 2.6 ] || kept='@system=exclude;pool_exclude;pool_rebuild'
	check "$v a run stopped in wave 1: self_heal off, its value kept in DAOS's dslc.self_heal (exit $(cat "$T/a.rc"))" \
		"[ \"\$(cat '$T/a.rc')\" = 1 ] && [ \"\$(attr dslc.self_heal)\" = '$kept' ] && [ \"\$(sed -n 2,5p '$T/rollout.state' | cut -d' ' -f1,2 | tr '\n' /)\" = 'identity release/identity dslc/identity tree/identity steps/' ]"
	SCRIPT=other run b "$v"
	check "$v another tree's script over that state file: refused (exit $(cat "$T/b.rc")), naming the files as the difference" \
		"[ \"\$(cat '$T/b.rc')\" = 1 ] && grep -q \"is the record of another rollout (plan [0-9a-f]*, not [0-9a-f]*): the files the waves install differ ([0-9a-f]* there, [0-9a-f]* here); finish that one\" '$T/b.out' && [ \"\$(applied)\" = 0 ]"
	cp "$T/rollout.state" "$T/whole.state"
	head -c -2 "$T/whole.state" >"$T/rollout.state"
	: >"$T/log"
	run b "$v"
	check "$v a state file cut inside a line: refused (exit $(cat "$T/b.rc")), saying what it cannot tell, nothing changed" \
		"[ \"\$(cat '$T/b.rc')\" = 1 ] && grep -q 'cannot be trusted: it ends inside a line' '$T/b.out' && grep -q 'not known from it: which waves are done, and what self_heal was' '$T/b.out' && [ \"\$(applied)\" = 0 ] && ! grep -q '^dmg system stop' '$T/log'"
	{ cat "$T/whole.state"; echo "self_heal tier0 x';reboot;'"; } >"$T/rollout.state"
	run b "$v"
	check "$v a self_heal record dmg would not take: refused (exit $(cat "$T/b.rc")), naming the line, not printing it" \
		"[ \"\$(cat '$T/b.rc')\" = 1 ] && grep -q \"cannot be trusted: line $(($(wc -l <"$T/whole.state") + 1)): a self_heal record that is not 'self_heal POOL VALUE' with a value dmg pool set-prop takes\" '$T/b.out' && ! grep -q reboot '$T/b.out'"
	# cut at a line boundary, to its identity: the value before comes from DAOS
	cp "$T/identity" "$T/rollout.state"
	run b "$v"
	check "$v a state file cut to its identity lines: self_heal's value before taken from DAOS, every wave, that value restored, the record removed (exit $(cat "$T/b.rc"))" \
		"[ \"\$(cat '$T/b.rc')\" = 0 ] && grep -q \"does not record what .*self_heal was; DAOS's dslc.self_heal, kept by an earlier dslc run that turned its rebuild off, does\" '$T/b.out' && [ \"\$(grep 'set-prop.*self_heal' '$T/log' | tail -1)\" = '$on' ] && [ \"\$(applied)\" = 14 ] && [ \"\$(attr dslc.self_heal)\" = - ] && margin_kept"
	# the state file gone, a run that stops before any change: says what DAOS keeps
	fresh
	run a "$v" FAKE_DMG_MODE=stop-fails=gpu004
	rm -f "$T/rollout.state"
	run b "$v" FAKE_DMG_MODE=list-fails
	check "$v no state file, a run that stops before any change: says an earlier run turned rebuild off and how to restore it (exit $(cat "$T/b.rc"))" \
		"[ \"\$(cat '$T/b.rc')\" = 1 ] && grep -q \"self_heal was not changed by this run, but DAOS's dslc.self_heal says an earlier dslc run turned its rebuild off\" '$T/b.out' && grep -q 'dslc:   dmg system del-attr dslc.self_heal' '$T/b.out' && ! grep -q 'self_heal was not changed by this script' '$T/b.out'"

	# ---- a signal while DSLC_APPLY runs: said at once, the apply waited for
	fresh
	{ run a "$v" HOLD="$T/hold"; } 2>/dev/null &
	pa=$!
	await "$T/hold.in"
	kill -TERM "$(holder_pid)"
	n=0
	while ! grep -q 'waiting for it to end' "$T/a.out" && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	said=$(cat "$T/a.out")
	: >"$T/hold"
	wait $pa
	check "$v SIGTERM during wave 2's apply: INTERRUPTED said while the apply still runs, then its end, exit $(cat "$T/a.rc")" \
		"printf '%s\\n' \"\$said\" | grep -q 'INTERRUPTED (SIGTERM) in wave 2 of 14' && printf '%s\\n' \"\$said\" | grep -q 'DSLC_APPLY is still running on gpu005 (process [0-9]*, at most DSLC_APPLY_TIMEOUT=3600 s): waiting for it to end, not stopping it' && ! printf '%s\\n' \"\$said\" | grep -q 'DSLC_APPLY ended' && grep -q 'DSLC_APPLY ended (exit 0)' '$T/a.out' && [ \"\$(cat '$T/a.rc')\" = 143 ] && grep -q 'to finish: run this script again; it resumes with wave 2' '$T/a.out'"

	# ---- issue 68 item 3: the pools listed again before every wave
	held_in_wave2 "$v"
	# a pool created while wave 2 runs, with its own self_heal (DAOS's default)
	/usr/bin/python3 - "$T/state" <<'EOF'
import json, sys
st = json.load(open(sys.argv[1]))
st["pools"].append({"label": "new0", "uuid": "0000000a-0000-4000-8000-00000000000a", "rb_state": "idle", "rb_status": 0,
                    "busy": 0, "disabled": [], "self_heal": "exclude;rebuild"})
json.dump(st, open(sys.argv[1], "w"))
EOF
	: >"$T/hold"
	wait $pa
	stop3=$(grep -n '^dmg system stop --rank-hosts=gpu006$' "$T/log" | cut -d: -f1)
	if [ "$v" = 2.6 ]; then
		check "2.6 a pool created mid-run: gated from the next wave, its self_heal read, kept, turned off before that wave's stop, and restored at the end (exit $(cat "$T/a.rc"))" \
			"[ \"\$(cat '$T/a.rc')\" = 0 ] && grep -q 'pool new0 created since the rollout began: gated too' '$T/a.out' && [ \"\$(grep -n '^dmg pool set-prop new0 self_heal:exclude\$' '$T/log' | cut -d: -f1)\" -lt '$stop3' ] && grep -q '^dmg system set-attr dslc.self_heal:tier0=exclude;rebuild new0=exclude;rebuild\$' '$T/log' && grep -q '^dmg pool set-prop new0 self_heal:exclude;rebuild\$' '$T/log' && [ \"\$(attr dslc.self_heal)\" = - ] && margin_kept"
	else
		check "2.8 a pool created mid-run: gated from the next wave (the system's self_heal covers it: no pool set-prop) (exit $(cat "$T/a.rc"))" \
			"[ \"\$(cat '$T/a.rc')\" = 0 ] && grep -q 'pool new0 created since the rollout began: gated too' '$T/a.out' && [ \"\$(grep -n '^dmg -j pool query new0\$' '$T/log' | head -1 | cut -d: -f1)\" -lt '$stop3' ] && ! grep -q '^dmg pool set-prop' '$T/log' && margin_kept"
	fi
done
tests_end
