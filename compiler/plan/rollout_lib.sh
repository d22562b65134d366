# SPDX-License-Identifier: BSD-2-Clause-Patent
# The rollout script's own functions (dslc plan --format script), printed
# after targets/dmg_lib.sh (the gates over DAOS's state it shares with
# node-maintenance.sh): DSLC_APPLY under its time limit, the state file of
# waves done, the interrupt handler. Compiled into dslc
# (build/gen/compiler/plan/rollout_lib.inc).
# shellcheck shell=sh disable=SC2034,SC2154

DSLC_APPLY_TIMEOUT=${DSLC_APPLY_TIMEOUT:-3600}
DSLC_STATE=${DSLC_STATE:-$0.state}
case $DSLC_APPLY_TIMEOUT in '' | *[!0-9]* | 0) echo "dslc: DSLC_APPLY_TIMEOUT takes whole seconds (1 or more), not '$DSLC_APPLY_TIMEOUT'" >&2; exit 2 ;; esac
dslc_wave='before the first wave'
dslc_wave_hosts=''
dslc_left=''
dslc_fail() {
	echo "dslc: STOPPED $dslc_wave: $1" >&2
	dslc_say_self_heal
	[ -z "$dslc_left" ] || echo "dslc: not started: $dslc_left" >&2
	[ ! -e "$DSLC_STATE" ] || echo "dslc: once it is fixed, run this script again: it skips the waves $DSLC_STATE records as done" >&2
	exit 1
}
# Ctrl-C, kill, a closed terminal: say where the rollout stands and how to
# finish or undo it. A running DSLC_APPLY is in its own process group under
# timeout(1) and is not interrupted by Ctrl-C: the shell runs this when it ends.
dslc_interrupted() {
	trap '' INT TERM HUP
	echo "dslc: INTERRUPTED ($1) $dslc_wave" >&2
	if [ -n "$dslc_wave_hosts" ]; then
		if m=$(dslc_members "$dslc_wave_hosts" 2>/dev/null); then
			echo "dslc: ranks of $dslc_wave_hosts now:$(printf '%s\n' "$m" | awk 'NF == 4 { printf "%s rank %s %s", s, $1, $2; s = "," }')" >&2
		else
			echo "dslc: the state of $dslc_wave_hosts's ranks could not be read: dmg system query --rank-hosts=$dslc_wave_hosts" >&2
		fi
	fi
	dslc_say_self_heal
	if [ "$dslc_wave_no" != 0 ]; then
		echo "dslc: to finish: run this script again; it resumes with wave $dslc_wave_no from its start ($DSLC_STATE says which waves are done)" >&2
		echo "dslc: to undo wave $dslc_wave_no instead: install the old files on $dslc_wave_hosts, then dmg system start --rank-hosts=$dslc_wave_hosts, dmg system reintegrate --rank-hosts=$dslc_wave_hosts, and restore self_heal as above" >&2
	fi
	exit "$2"
}
dslc_apply() {
	dslc_rc=0
	timeout -k 60 "$DSLC_APPLY_TIMEOUT" "$DSLC_APPLY" "$@" || dslc_rc=$?
	case $dslc_rc in
	0) ;;
	124 | 137) dslc_fail "DSLC_APPLY $* did not end within $DSLC_APPLY_TIMEOUT s (DSLC_APPLY_TIMEOUT) and was stopped: $1 may be half-installed" ;;
	*) dslc_fail "DSLC_APPLY $* failed (exit $dslc_rc)" ;;
	esac
}
# ---- the state file: which waves are done ------------------------------------
# Beside what dmg_lib.sh keeps in DSLC_STATE (default: the script's path with
# .state): "plan ID" first, "started N", "done N", "finished".
dslc_state_begin() {
	if [ -e "$DSLC_STATE" ]; then
		[ "$(sed -n 1p "$DSLC_STATE")" = "plan $dslc_plan" ] ||
			dslc_fail "$DSLC_STATE (DSLC_STATE) is the record of another rollout ($(sed -n 1p "$DSLC_STATE")): finish that one, or remove the file once every rank is Joined and self_heal is restored"
		if grep -qx finished "$DSLC_STATE"; then
			echo "dslc: this rollout finished already ($DSLC_STATE): nothing to do; remove the file to run it again" >&2
			exit 0
		fi
		dslc_resume=$(awk '$1 == "started" { s = $2 } $1 == "done" && $2 == s { s = "" } END { print s }' "$DSLC_STATE")
		echo "dslc: resuming from $DSLC_STATE: waves done:$(awk '$1 == "done" { printf " %s", $2 }' "$DSLC_STATE")${dslc_resume:+; wave $dslc_resume was interrupted and runs again from its start}" >&2
		# the interrupted wave's ranks may be down: the first gate allows them
		[ -z "$dslc_resume" ] || dslc_ranks=$(dslc_state_get ranks "$dslc_resume")
	else
		printf 'plan %s\n' "$dslc_plan" >"$DSLC_STATE" || { echo "dslc: cannot write $DSLC_STATE (DSLC_STATE)" >&2; exit 2; }
	fi
}
# N HOSTS: whether wave N still has to run (a done wave is skipped)
dslc_wave_todo() {
	dslc_wave_no=$1 dslc_wave_hosts=$2 dslc_ranks=''
	if grep -qx "done $1" "$DSLC_STATE"; then
		echo "dslc: wave $1 ($2) was done by an earlier run ($DSLC_STATE)" >&2
		return 1
	fi
	dslc_mark "started $1"
}
dslc_wave_done() {
	dslc_mark "done $1"
	dslc_wave_hosts=''
}

dslc_finish() {
	dslc_mark finished
	echo 'dslc: rollout done' >&2
}
trap 'dslc_interrupted SIGINT 130' INT
trap 'dslc_interrupted SIGTERM 143' TERM
trap 'dslc_interrupted SIGHUP 129' HUP
