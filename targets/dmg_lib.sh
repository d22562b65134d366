# SPDX-License-Identifier: BSD-2-Clause-Patent
# The functions over DAOS's own state that dslc's generated scripts share:
# the rollout script (dslc plan --format script: compiler/plan/rollout.c) and
# node-maintenance.sh (targets/kubernetes.c). POSIX sh, compiled into dslc
# (build/gen/targets/dmg_lib.inc) and printed after each script's header,
# which sets dslc_release, dslc_described and DSLC_REBUILD_TIMEOUT's
# default; the script defines dslc_fail (where it stopped, what to do) and
# DSLC_STATE (where dslc_mark keeps what self_heal was). shellcheck reads
# each generated script whole (tests/rollout_gates.sh, rollout_k8s.sh).
#
# `dmg -j` prints its answer as {"response": ..., "error": ..., "status": ...}
# indented by two blanks (src/control/common/cmdutil/json.go OutputJSON,
# json.MarshalIndent), one key a line, and exits 1 on an error
# (src/control/cmd/dmg/main.go exitWithError); read with grep and awk, since a
# management node has no jq. Member states are MemberState names in lower case
# (src/control/system/member.go MarshalJSON: addr, state, fault_domain, then
# rank); a pool's rebuild is {"status", "state", ("derived_state" on 2.8), ...}
# (src/control/lib/daos/pool.go PoolRebuildStatus). A failure stops the script
# where it is and says what state self_heal is in and how to restore it: the
# script never restores it itself after a failure, because that excludes the
# stopped ranks and starts a rebuild the operator has not chosen
# (docs/admin/self_healing.md).
# shellcheck shell=sh disable=SC2034,SC2154

DSLC_JOIN_TIMEOUT=${DSLC_JOIN_TIMEOUT:-600}
DSLC_POLL=${DSLC_POLL:-10}
DSLC_HEALTH_TIMEOUT=${DSLC_HEALTH_TIMEOUT:-0}
DSLC_DMG_TIMEOUT=${DSLC_DMG_TIMEOUT:-300}
# a limit that is not a whole number would make a gate wait forever
for v in "$DSLC_JOIN_TIMEOUT" "$DSLC_REBUILD_TIMEOUT" "$DSLC_POLL" "$DSLC_DMG_TIMEOUT"; do
	case $v in '' | *[!0-9]*) n=0 ;; *) n=$v ;; esac
	[ "$n" -ge 1 ] || { echo "dslc: DSLC_JOIN_TIMEOUT, DSLC_REBUILD_TIMEOUT, DSLC_POLL and DSLC_DMG_TIMEOUT take whole seconds (1 or more), not '$v'" >&2; exit 2; }
done
case $DSLC_HEALTH_TIMEOUT in '' | *[!0-9]*) echo "dslc: DSLC_HEALTH_TIMEOUT takes whole seconds (0 or more), not '$DSLC_HEALTH_TIMEOUT'" >&2; exit 2 ;; esac
command -v timeout >/dev/null || { echo 'dslc: this script needs timeout(1) (GNU coreutils) to bound its dmg calls' >&2; exit 2; }

dslc_wave_no=0
dslc_self_heal=unchanged
dslc_pools=''
dslc_ranks=''

# 2.6 lists a pool's disabled ranks only when asked; 2.8 always, and has no
# such flag (src/control/cmd/dmg/pool.go poolQueryCmd, both releases)
case $dslc_release in
2.6 | 2.6.*) dslc_disabled_flag=--show-disabled dslc_system_heal='' ;;
*) dslc_disabled_flag='' dslc_system_heal=1 ;;
esac

dslc_now() { date +%s; }

# what self_heal is now, and the commands that put it back
dslc_say_self_heal() {
	if [ "$dslc_self_heal" = unchanged ] && [ -n "$dslc_heal_kept" ]; then
		echo "dslc: self_heal was not changed by this run, but DAOS's $dslc_heal_key says an earlier dslc run turned its rebuild off and did not put it back. Once every rank is Joined (dmg system query), restore it with:" >&2
		dslc_self_heal_commands | sed 's/^/dslc:   /' >&2
		echo "dslc:   dmg system del-attr $dslc_heal_key" >&2
	elif [ "$dslc_self_heal" = unchanged ]; then
		echo 'dslc: self_heal was not changed by this script.' >&2
	else
		echo "dslc: self_heal is $dslc_self_heal (planned maintenance): DAOS does not rebuild by itself now." >&2
		echo 'dslc: once every rank is Joined again (dmg system query), or you choose to rebuild without the' >&2
		echo 'dslc: missing ones, restore what it was before this rollout with:' >&2
		dslc_self_heal_commands | sed 's/^/dslc:   /' >&2
	fi
}
run() {
	printf '+ %s\n' "$*" >&2
	"$@" || dslc_fail "'$*' failed (exit $?)"
}
# every dmg call with a time limit: a management service that does not answer
# must not hold a wave down forever (dmg itself has no such limit). DAOS's
# answers while its management service changes leader are transient
# (src/control/system/errors.go IsUnavailable: "leader step-up in progress
# (try again)", "raft service unavailable (not started yet?)"; dmg prints
# them on stderr, main.go exitWithError): the call is made again, DSLC_POLL s
# apart, up to DSLC_DMG_RETRIES times. Nothing was done by a call so
# answered: the leader serves no request until its step-up ends.
DSLC_DMG_RETRIES=${DSLC_DMG_RETRIES:-3}
case $DSLC_DMG_RETRIES in '' | *[!0-9]*) echo "dslc: DSLC_DMG_RETRIES takes a whole number (0 or more), not '$DSLC_DMG_RETRIES'" >&2; exit 2 ;; esac
dslc_errf=$(mktemp) || { echo 'dslc: mktemp failed' >&2; exit 2; }
dmg() {
	dslc_try=0
	while :; do
		dslc_rc=0
		dslc_o=$(timeout -k 10 "$DSLC_DMG_TIMEOUT" dmg "$@" 2>"$dslc_errf") || dslc_rc=$?
		if [ "$dslc_rc" != 0 ] && [ "$dslc_try" -lt "$DSLC_DMG_RETRIES" ] &&
			grep -q -e 'leader step-up in progress (try again)' -e 'raft service unavailable (not started yet?)' "$dslc_errf"; then
			dslc_try=$((dslc_try + 1))
			echo "dslc: dmg $*: the management service is changing leader ($(grep -o -m1 -e 'leader step-up in progress (try again)' -e 'raft service unavailable (not started yet?)' "$dslc_errf")): again in $DSLC_POLL s (retry $dslc_try of $DSLC_DMG_RETRIES, DSLC_DMG_RETRIES)" >&2
			sleep "$DSLC_POLL"
			continue
		fi
		[ -z "$dslc_o" ] || printf '%s\n' "$dslc_o"
		cat "$dslc_errf" >&2
		[ "$dslc_rc" != 124 ] && [ "$dslc_rc" != 137 ] ||
			echo "dslc: dmg $* did not answer within $DSLC_DMG_TIMEOUT s (DSLC_DMG_TIMEOUT)" >&2
		return "$dslc_rc"
	done
}
# HOSTS CLASS...: DSLC_APPLY within DSLC_APPLY_TIMEOUT
# the answer of a dmg -j command that exited 0 must say status 0
dslc_dmg_json() {
	dslc_out=$(dmg -j "$@") || return
	printf '%s\n' "$dslc_out" | grep -q '^  "status": 0$' || {
		echo "dslc: dmg -j $* answered without status 0" >&2
		return 70
	}
}
# numbers, one a line, as one sorted line
dslc_words() { sort -n | awk '{ printf "%s%s", s, $1; s = " " } END { print "" }'; }
# "rank state addr fault_domain" of each member of HOSTS (every member
# without HOSTS), separated by tabs: a fault domain may hold blanks and
# quotes (DAOS takes any byte but '/' in a level, src/control/system/
# faultdomain.go), and JSON writes a tab in it as \t. A member is found by
# its keys' names at the member's own depth (eight blanks), not by position.
dslc_members() {
	dslc_dmg_json system query ${1:+--rank-hosts="$1"} || return
	printf '%s\n' "$dslc_out" | awk '
		function val(s) { sub(/^ *"[a-z_]*": *"/, "", s); sub(/",?$/, "", s); return s }
		/^        "addr": "/ { a = val($0) }
		/^        "fault_domain": "/ { f = val($0) }
		/^        "state": "/ { s = val($0) }
		/^        "rank": [0-9]/ { r = $0; sub(/.*"rank": */, "", r); sub(/[^0-9].*/, "", r) }
		/^      },?$/ { if (r != "" && s != "") printf "%s\t%s\t%s\t%s\n", r, s, (a == "" ? "-" : a), (f == "" ? "-" : f); r = ""; s = ""; a = ""; f = "" }'
}

# ---- one actor at a time, cluster-wide -------------------------------------------
# Every dslc script that stops engines (the rollout, node-maintenance.sh) holds
# the DAOS system attribute dslc.lock while it acts: the management service
# keeps it in its raft database, so every admin host sees it (dmg system
# set-attr / get-attr / del-attr, src/control/cmd/dmg/system.go on 2.6 and
# 2.8; a key starting prop. or mgmt. is DAOS's own, system/properties.go;
# an empty value deletes, system/raft/raft.go). Its value says who holds it:
# KIND/HOST/PID/SINCE/PLAN (KIND rollout or maintenance-NODE). set-attr is
# not a compare-and-swap, so a taker writes its value, waits DSLC_LOCK_SETTLE
# s and reads it back: of two takers the later write wins and the other sees
# it. The value is read again before every wave (dslc_fleet_gate): a run
# whose lock was taken over stops. The rollout also holds flock(1) on its
# state file's directory for the run (released by the kernel at any exit).
DSLC_LOCK_SETTLE=${DSLC_LOCK_SETTLE:-5}
case $DSLC_LOCK_SETTLE in '' | *[!0-9]*) echo "dslc: DSLC_LOCK_SETTLE takes whole seconds, not '$DSLC_LOCK_SETTLE'" >&2; exit 2 ;; esac
dslc_lock_key=dslc.lock
# what self_heal was before a dslc script turned its rebuild off, kept in
# DAOS beside the state file (which may be lost, cut, or on another admin
# host): "POOL=VALUE ..." (2.6) or "@system=VALUE" (2.8), removed once
# self_heal is restored
dslc_heal_key=dslc.self_heal
dslc_heal_kept=''
dslc_lock_me=''
dslc_lock_now=''
# dslc_lock_now: the lock's value ('' when nobody holds it); 1 when dmg failed
dslc_lock_read() {
	dslc_dmg_json system get-attr || return 1
	dslc_lock_now=$(dslc_attr "$dslc_lock_key")
	dslc_heal_kept=$(dslc_attr "$dslc_heal_key")
}
# the value of the system attribute KEY in a dmg -j system get-attr answer
# ($dslc_out: {"attributes": {KEY: VALUE, ...}}, lib/control/system.go)
dslc_attr() {
	printf '%s\n' "$dslc_out" | awk -v k="\"$1\": \"" '
		index($0, k) == 7 { v = substr($0, 7 + length(k)); sub(/",?$/, "", v); print v; exit }'
}
# a value as dslc writes it: only these bytes reach a message or a command
dslc_lock_ours() {
	case $1 in
	*[!A-Za-z0-9./-]*) return 1 ;;
	esac
	printf '%s\n' "$1" | grep -qE '^(rollout|maintenance-[A-Za-z0-9.-]+)/[A-Za-z0-9.-]+/[0-9]+/[0-9]+/[A-Za-z0-9.-]+$'
}
# the holder of VALUE, in words (WHERE: how to see a value dslc did not write)
dslc_lock_holder() {
	if ! dslc_lock_ours "$1"; then
		echo "a value dslc did not write ($(printf '%s' "$1" | wc -c) bytes; see ${2:-dmg system get-attr $dslc_lock_key})"
		return
	fi
	IFS=/ read -r kind host pid since plan <<DSLC_LOCK
$1
DSLC_LOCK
	at=$(date -u -d "@$since" '+%Y-%m-%d %H:%M:%S UTC' 2>/dev/null) || at="@$since"
	case $kind in
	rollout) what="a rollout (plan $plan)" ;;
	*) what="node-maintenance.sh stop ${kind#maintenance-}" ;;
	esac
	echo "$what, process $pid on $host, since $at ($(($(dslc_now) - since)) s ago)"
}
dslc_lock_refuse() {
	echo "dslc: REFUSED: $1" >&2
	echo "dslc: nothing was changed. Once it has ended, run this again. If it is gone (its host down, its process killed: see ps -p PID on that host), clear its lock with: dmg system del-attr $dslc_lock_key${dslc_lease_on:+ (and on Kubernetes: kubectl -n $dslc_ns delete lease $dslc_lease)}" >&2
	exit 75
}
dslc_host() { uname -n | tr -c 'A-Za-z0-9.\n-' '-'; }
# VALUE is this node's maintenance, which this run finishes (dslc_lock_resume)
dslc_lock_resumes() {
	[ -n "${dslc_lock_resume:-}" ] && [ "${1%%/*}" = "$dslc_lock_resume" ] && dslc_lock_ours "$1"
}
# VALUE is a rollout's on this host whose process is gone (a run killed with
# SIGKILL): stale
dslc_lock_dead() {
	dslc_lock_ours "$1" || return 1
	IFS=/ read -r kind host pid _ <<DSLC_LOCK
$1
DSLC_LOCK
	[ "$kind" = rollout ] && [ "$host" = "$(dslc_host)" ] && ! kill -0 "$pid" 2>/dev/null
}
# VALUE WHAT HOLDER: a lock (WHAT: the attribute's, or the Lease) that this
# run may take over, said; 1 when it is another actor's
dslc_lock_takes_over() {
	if dslc_lock_resumes "$1"; then
		echo "dslc: taking over the $2 of $3: this run finishes it" >&2
	elif dslc_lock_dead "$1"; then
		echo "dslc: taking over a stale $2: $3, and that process is gone" >&2
	else
		return 1
	fi
}
# KIND [DIR]: take the cluster's lock (and flock DIR) or refuse at once. A
# rollout's lock whose process on this host is gone is stale (a run killed
# with SIGKILL); a maintenance's outlives its process by design (stop keeps
# it until start), and only that node's maintenance takes it over
# (dslc_lock_resume). On Kubernetes the Lease first (kube_lib.sh): of two
# actors only one gets it, and the attribute then marks the cluster for
# every admin host.
dslc_lock_take() {
	if [ -n "${2:-}" ]; then
		command -v flock >/dev/null || { echo 'dslc: this script needs flock(1) (util-linux) to keep a second run on this host out' >&2; exit 2; }
		exec 9<"$2" || { echo "dslc: cannot open $2 (the state file's directory) to lock it" >&2; exit 2; }
		if ! flock -n 9; then
			dslc_lock_read || dslc_lock_now=''
			dslc_lock_refuse "another run on this host holds $2 (flock; fuser -v $2 names it)${dslc_lock_now:+: $(dslc_lock_holder "$dslc_lock_now")}"
		fi
	fi
	dslc_lock_id="$1/$(dslc_host)/$$/$(dslc_now)/${dslc_plan:-none}"
	[ -z "${dslc_lease_on:-}" ] || dslc_lease_take "$1"
	dslc_lock_read || dslc_fail "dmg system get-attr failed: whether another actor holds the cluster ($dslc_lock_key) is unknown"
	if [ -n "$dslc_lock_now" ]; then
		holder=$(dslc_lock_holder "$dslc_lock_now")
		dslc_lock_takes_over "$dslc_lock_now" lock "$holder" ||
			dslc_lock_refuse "the cluster is held by $holder ($dslc_lock_key)"
	fi
	dslc_lock_me=$dslc_lock_id
	dmg system set-attr "$dslc_lock_key:$dslc_lock_me" >/dev/null || { dslc_lock_me=''; dslc_fail "dmg system set-attr $dslc_lock_key failed: the cluster could not be held"; }
	sleep "$DSLC_LOCK_SETTLE"
	dslc_lock_read || dslc_fail "dmg system get-attr failed after taking the cluster's lock ($dslc_lock_key)"
	if [ "$dslc_lock_now" != "$dslc_lock_me" ]; then
		dslc_lock_me=''
		dslc_lock_refuse "another actor took the cluster at the same time: $(dslc_lock_holder "$dslc_lock_now")"
	fi
	echo "dslc: holding the cluster ($dslc_lock_key = $dslc_lock_me)" >&2
}
# before every wave: still ours
dslc_lock_check() {
	[ -n "$dslc_lock_me" ] || return 0
	dslc_lock_read || dslc_fail "dmg system get-attr failed: whether this run still holds the cluster is unknown"
	[ "$dslc_lock_now" = "$dslc_lock_me" ] && return 0
	dslc_lock_me=''
	[ -z "$dslc_lock_now" ] || dslc_fail "this run no longer holds the cluster: $(dslc_lock_holder "$dslc_lock_now") holds it"
	dslc_fail "this run no longer holds the cluster: its lock ($dslc_lock_key) was removed"
}
# before every wave: the lock still ours, and on Kubernetes the Lease renewed
dslc_lock_keep() {
	dslc_lock_check
	[ -z "${dslc_lease_on:-}" ] || dslc_lease_renew
}
# at exit: the lock goes when it is still ours (never another's), the Lease too
dslc_lock_release() {
	[ -z "${dslc_lease_on:-}" ] || dslc_lease_release
	[ -n "$dslc_lock_me" ] || return 0
	if dslc_lock_read 2>/dev/null && [ "$dslc_lock_now" = "$dslc_lock_me" ]; then
		dmg system del-attr "$dslc_lock_key" >/dev/null 2>&1 ||
			echo "dslc: could not remove the cluster lock: dmg system del-attr $dslc_lock_key" >&2
	fi
	dslc_lock_me=''
}

# ---- what the script keeps ----------------------------------------------------
# DSLC_STATE holds lines the script reads back: "self_heal POOL VALUE" /
# "self_heal_system VALUE" as read before self_heal changed, "ranks N RANKS"
# (the rollout script adds its own).
dslc_state_get() {
	awk -v k="$1" -v p="$2" '$1 == k && (p == "" || $2 == p) { $1 = ""; if (p != "") $2 = ""; v = $0; sub(/^ +/, "", v) } END { print v }' "$DSLC_STATE"
}
dslc_mark() { printf '%s\n' "$*" >>"$DSLC_STATE" || dslc_fail "cannot write $DSLC_STATE (DSLC_STATE)"; }
# VALUE POOL: whether dmg takes VALUE back as POOL's self_heal (2.6:
# lib/daos/pool_property.go), or with POOL '' as the system's (2.8:
# lib/daos/system_prop.go SysSelfHealFlag: flags joined by ';', or none)
dslc_heal_takes() {
	if [ -n "$2" ]; then
		case $1 in none | exclude | rebuild | delay_rebuild | 'exclude;rebuild' | 'rebuild;exclude' | 'exclude;delay_rebuild' | 'delay_rebuild;exclude') return 0 ;; esac
		return 1
	fi
	case $1 in '' | *[!a-z_\;]* | \;* | *\; | *\;\;*) return 1 ;; esac
	for f in $(printf '%s\n' "$1" | tr ';' ' '); do
		case $f in exclude | pool_exclude | pool_rebuild | none) ;; *) return 1 ;; esac
	done
}
# The first line of DSLC_STATE's records (or of the text on stdin) that
# this script would not have written, as "line N: WHY"; nothing when every
# line is one: records come back from a file or a Node annotation others can
# edit, and only values dmg takes reach a command. EXTRA: the rollout's own
# records (a pattern of their first words).
dslc_records_bad() {
	n=0
	while IFS= read -r l || [ -n "$l" ]; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # the record's words (set -f: no globbing)
		set -- $l
		why=''
		case ${1:-} in
		self_heal)
			if [ $# != 3 ] || ! dslc_pool_name_ok "$2" || ! dslc_heal_takes "$3" "$2"; then
				why="a self_heal record that is not 'self_heal POOL VALUE' with a value dmg pool set-prop takes"
			fi ;;
		self_heal_system)
			if [ $# != 2 ] || ! dslc_heal_takes "$2" ''; then
				why='a self_heal_system record with a value dmg system set-prop does not take'
			fi ;;
		ranks | kube_hosts)
			if [ $# -lt 2 ] || ! dslc_count_ok "$2"; then why="a $1 record without its wave number"; fi ;;
		*)
			case " ${dslc_records_extra:-} " in
			*" ${1:-} "*) ;;
			*) why='not a record this script writes' ;;
			esac ;;
		esac
		[ -z "$why" ] || { echo "line $n: $why"; return; }
	done
}
dslc_count_ok() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
# a pool name this script writes into a command unquoted: a label or UUID
# (dmg pool list), never an option
dslc_pool_name_ok() { case $1 in '' | -* | *[!A-Za-z0-9_.:-]*) return 1 ;; esac; }
# ---- the fleet before each wave ----------------------------------------------
# Like Rook's ok-to-stop before an OSD batch: every rank outside the wave Joined,
# every access point (MS replica) outside it up (dmg system leader-query:
# lib/control/system.go LeaderQueryResp current_leader, replicas,
# down_replicas), and in every pool no rebuild running or failed and no rank
# disabled outside the wave (disabled_ranks: lib/daos/pool.go PoolInfo).
# $dslc_ranks are the wave's ranks; `all` takes every rank as the wave's.
# Prints "wait REASON" (a running rebuild) or "stop REASON", one a line.
dslc_fleet_check() {
	m=$(dslc_members) || { echo 'stop dmg system query failed'; return; }
	[ -n "$m" ] || echo 'stop dmg system query lists no rank'
	printf '%s\n' "$m" | awk -F'\t' -v w=" $dslc_ranks " -v all="$1" '
		NF == 4 && $2 != "joined" && all != "all" && index(w, " " $1 " ") == 0 { printf "stop rank %s (%s, %s) is %s\n", $1, $4, $3, $2 }'
	if dslc_dmg_json system leader-query; then
		dslc_json_list down_replicas | dslc_m=$m awk -F'\t' -v w=" $dslc_ranks " -v all="$1" '
			BEGIN { n = split(ENVIRON["dslc_m"], l, "\n"); for (i = 1; i <= n; i++) { split(l[i], f, "\t"); at[f[3]] = at[f[3]] (at[f[3]] == "" ? "" : ",") f[1]; fd[f[3]] = f[4]; if (index(w, " " f[1] " ")) ours[f[3]] = 1 } }
			all != "all" && !($1 in ours) { printf "stop access point %s (%s) is down (dmg system leader-query)\n", $1, ($1 in at) ? "rank " at[$1] " on " fd[$1] : "no rank listed at that address" }'
	else
		echo 'stop dmg system leader-query failed: the access points are unknown'
	fi
	for pool in $dslc_pools; do
		# shellcheck disable=SC2086
		if ! dslc_dmg_json pool query $dslc_disabled_flag "$pool"; then
			echo "stop dmg pool query $pool failed"
			continue
		fi
		read -r state derived status <<EOF
$(dslc_rebuild_of)
EOF
		case $derived in
		idle | done) ;;
		busy) echo "wait pool $pool is rebuilding (dmg pool query $pool)" ;;
		*) echo "stop pool $pool: its last rebuild is $derived (state $state, status $status): see dmg pool query $pool" ;;
		esac
		[ "$1" != all ] || continue
		out=$(dslc_json_list disabled_ranks | awk -v w=" $dslc_ranks " 'index(w, " " $1 " ") == 0 { printf "%s%s", s, $1; s = "," }')
		[ -z "$out" ] || echo "stop pool $pool has rank $out disabled outside this wave: once they are Joined, dmg system reintegrate --ranks=$out"
	done
}
dslc_fleet_gate() {
	dslc_lock_keep
	dslc_pools_again
	deadline=$(($(dslc_now) + DSLC_HEALTH_TIMEOUT)) began=$(dslc_now)
	while :; do
		why=$(dslc_fleet_check "${1:-}")
		if [ -z "$why" ]; then
			echo "dslc: fleet healthy: every rank outside the wave Joined, every access point up, no pool rebuilding" >&2
			return 0
		fi
		stops=$(printf '%s\n' "$why" | sed -n 's/^stop //p' | awk '{ printf "%s%s", s, $0; s = "; " }')
		[ -z "$stops" ] || dslc_fail "the system is not healthy enough to take more down: $stops"
		if [ "$(dslc_now)" -ge "$deadline" ]; then
			dslc_fail "$(printf '%s\n' "$why" | sed -n 's/^wait //p' | awk '{ printf "%s%s", s, $0; s = "; " }') after $(($(dslc_now) - began)) s (DSLC_HEALTH_TIMEOUT=$DSLC_HEALTH_TIMEOUT waits for a running rebuild)"
		fi
		sleep "$DSLC_POLL"
	done
}

# ---- a wave's gates -------------------------------------------------------------
# the ranks HOSTS have now: the Joined gate wants the same ones back
dslc_note_ranks() {
	m=$(dslc_members "$1") || dslc_fail "dmg system query --rank-hosts=$1 failed"
	dslc_ranks=$(printf '%s\n' "$m" | awk -F'\t' 'NF == 4 { print $1 }' | dslc_words)
	[ -n "$dslc_ranks" ] || dslc_fail "the system has no rank on $1 (dmg system query --rank-hosts=$1)"
	dslc_mark "ranks $dslc_wave_no $dslc_ranks"
	echo "dslc: $1 has ranks $dslc_ranks" >&2
}
# every rank of HOSTS (of the system without HOSTS) Joined, and on HOSTS the
# ranks dslc_note_ranks saw: an engine that joined as a new rank did not
# reclaim its old one, and no waiting cures that
dslc_wait_joined() {
	began=$(dslc_now)
	while :; do
		m=$(dslc_members "$1") || dslc_fail "dmg system query ${1:+--rank-hosts=$1 }failed"
		joined=$(printf '%s\n' "$m" | awk -F'\t' '$2 == "joined" { print $1 }' | dslc_words)
		# every rank not Joined, with its state; and on HOSTS, a rank they had that
		# the answer leaves out is not back yet: DAOS lists only the members it
		# finds (src/control/system/membership.go Members), and a rank being
		# replaced is briefly absent (joinReplace)
		others=$(printf '%s\n' "$m" | awk -F'\t' -v want="${1:+$dslc_ranks}" '
			NF == 4 { got[$1] = 1; if ($2 != "joined") { printf "%s rank %s %s", s, $1, $2; s = "," } }
			END { n = split(want, w, " ")
				for (i = 1; i <= n; i++) if (!(w[i] in got)) { printf "%s rank %s absent", s, w[i]; s = "," } }')
		if [ -n "$1" ] && [ -n "$dslc_ranks" ]; then
			for r in $joined; do
				case " $dslc_ranks " in
				*" $r "*) ;;
				*) dslc_fail "rank $r joined on $1, which had ranks $dslc_ranks (now:$others): the engines did not reclaim their ranks (dmg storage format --replace)" ;;
				esac
			done
		fi
		if [ -n "$joined" ] && [ -z "$others" ]; then
			[ -z "$1" ] || [ -z "$dslc_ranks" ] || [ "$joined" = "$dslc_ranks" ] ||
				dslc_fail "ranks $joined are Joined on $1, which had ranks $dslc_ranks"
			echo "dslc: ranks $joined Joined" >&2
			return 0
		fi
		waited=$(($(dslc_now) - began))
		if [ "$waited" -ge "$DSLC_JOIN_TIMEOUT" ]; then
			dslc_fail "ranks of ${1:-the system} not Joined after $waited s (DSLC_JOIN_TIMEOUT):${others:- no rank listed}"
		fi
		sleep "$DSLC_POLL"
	done
}
# the pools the system has (not only those the description names): the
# self_heal and rebuild steps cover every one; a pool without a label by its UUID
dslc_list_pools() {
	dslc_dmg_json pool list --no-query || dslc_fail 'dmg pool list failed: the pools to gate are unknown'
	printf '%s\n' "$dslc_out" | grep -q '^    "pools": ' || dslc_fail 'dmg pool list answered without a pools list'
	dslc_pools=$(printf '%s\n' "$dslc_out" | awk '
		function val(s) { sub(/^[^:]*: *"/, "", s); sub(/".*/, "", s); return s }
		/^        "uuid": / { if (p != "") print p; p = val($0) }
		/^        "label": / { p = val($0) }
		END { if (p != "") print p }' | tr '\n' ' ')
	extra=''
	for p in $dslc_pools; do
		dslc_pool_name_ok "$p" || dslc_fail "dmg pool list names a pool '$(printf '%s' "$p" | tr -c 'A-Za-z0-9_.:-' '?')' that this script will not quote"
		case " $dslc_described " in *" $p "*) ;; *) extra="$extra $p" ;; esac
	done
	[ -n "${1:-}" ] || echo "dslc: pools gated: ${dslc_pools:-none}${extra:+ (not in the description, covered too:$extra)}" >&2
}
# before every wave: the pools as they are now. A pool created since the
# rollout began is gated too, and on 2.6, where self_heal is each pool's,
# its rebuild is turned off like the others' (it would rebuild by itself
# when this wave stops a node); a pool gone is no longer queried
dslc_pools_again() {
	[ "$dslc_wave_no" != 0 ] || return 0
	before=$dslc_pools
	dslc_list_pools quiet
	new=''
	for p in $dslc_pools; do
		case " $before " in *" $p "*) ;; *) new="${new:+$new }$p" ;; esac
	done
	[ -n "$new" ] || return 0
	echo "dslc: pool $new created since the rollout began: gated too" >&2
	[ "$dslc_self_heal" != unchanged ] && [ -z "$dslc_system_heal" ] || return 0
	dslc_pools_heal_off "$new"
}
# 2.6 status to 2.8's derived_state (src/control/lib/daos/pool.go UpdateRebuildStatus,
# release/2.8; -2027 is -DER_OP_CANCELED)
dslc_derive() {
	case $1:$2 in
	*:-) echo unknown ;;
	idle:0 | done:0 | busy:0) echo "$1" ;;
	idle:-2027) echo stopped ;;
	busy:-2027) echo stopping ;;
	busy:*) echo failing ;;
	idle:* | done:*) echo failed ;;
	*) echo unknown ;;
	esac
}
# "STATE DERIVED STATUS" of the pool query answer in $dslc_out ('-' for what
# it lacks): DERIVED as 2.8 sends it, or derived from 2.6's state and status
dslc_rebuild_of() {
	read -r state derived status <<EOF
$(printf '%s\n' "$dslc_out" | awk '
	/"rebuild": \{/ { r = 1; next }
	r && /}/ { r = 0 }
	r { l = $0; gsub(/[\t ",]/, "", l); split(l, kv, ":"); v[kv[1]] = kv[2] }
	END { print (v["state"] == "" ? "-" : v["state"]), (v["derived_state"] == "" ? "-" : v["derived_state"]), (v["status"] == "" ? "-" : v["status"]) }')
EOF
	[ "$derived" != - ] || derived=$(dslc_derive "$state" "$status")
	echo "$state $derived $status"
}
# the items of the JSON list KEY in $dslc_out, one a line, strings without
# their quotes; nothing for [] or null (json.MarshalIndent: an item a line)
dslc_json_list() {
	printf '%s\n' "$dslc_out" | awk -v k="\"$1\": [" '
		index($0, k) { d = !/]/; next }
		d && /]/ { d = 0 }
		d { x = $0; gsub(/[ ,"]/, "", x); if (x != "") print x }'
}
# no rebuild running in any pool, none failed, within DSLC_REBUILD_TIMEOUT s by
# the clock for all pools together (slow dmg answers count). The first query
# waits DSLC_POLL s: the pool service schedules a rebuild after the drain or
# reintegrate returned, and until then the last rebuild's state shows
dslc_wait_rebuild() {
	began=$(dslc_now)
	sleep "$DSLC_POLL"
	for pool in $dslc_pools; do
		while :; do
			dslc_dmg_json pool query "$pool" || dslc_fail "dmg pool query $pool failed"
			read -r state derived status <<EOF
$(dslc_rebuild_of)
EOF
			case $derived in
			idle | done) break ;;
			busy) ;;
			*) dslc_fail "rebuild of pool $pool is $derived (state $state, status $status): see dmg pool query $pool" ;;
			esac
			waited=$(($(dslc_now) - began))
			if [ "$waited" -ge "$DSLC_REBUILD_TIMEOUT" ]; then
				dslc_fail "rebuild of pool $pool still busy after $waited s (DSLC_REBUILD_TIMEOUT, plan --rebuild-timeout)"
			fi
			sleep "$DSLC_POLL"
		done
	done
}
# enabled|disabled: "POOL RANKS" for each pool that has some of the wave's
# ranks ($dslc_ranks) in that state (--show-enabled adds enabled_ranks on both
# releases; 2.6 needs --show-disabled for disabled_ranks and refuses both at once)
dslc_pool_ranks() {
	if [ "$1" = enabled ]; then flag=--show-enabled; else flag=$dslc_disabled_flag; fi
	for pool in $dslc_pools; do
		# shellcheck disable=SC2086
		dslc_dmg_json pool query $flag "$pool" || dslc_fail "dmg pool query $pool failed"
		dslc_json_list "$1_ranks" | awk -v p="$pool" -v w=" $dslc_ranks " '
			index(w, " " $1 " ") { out = out " " $1 }
			END { if (out != "") print p out }'
	done
}
# DAOS refuses dmg system drain and reintegrate when no pool has the ranks in
# the state they change ("no pool-ranks found to operate on with request
# params": src/control/server/mgmt_system.go SystemDrain, both releases): with
# no pools, a drain that already ran, or engines that came back before SWIM
# declared them dead. Each runs, and its rebuild is gated, only when needed.
# OP HOSTS: drain (when a pool has the ranks enabled) or reintegrate (disabled)
dslc_pool_op() {
	if [ "$1" = drain ]; then want=enabled; else want=disabled; fi
	held=$(dslc_pool_ranks "$want")
	if [ -z "$held" ]; then
		echo "dslc: no pool has ranks $dslc_ranks $want: nothing to $1" >&2
		return 0
	fi
	echo "dslc: to $1: $(printf '%s\n' "$held" | awk '{ printf "%s%s", s, $0; s = "; " }')" >&2
	run dmg system "$1" --rank-hosts="$2"
	run dslc_wait_rebuild
}
dslc_drain() { dslc_pool_op drain "$1"; }
dslc_reintegrate() { dslc_pool_op reintegrate "$1"; }

# ---- self_heal, put back to what it was -----------------------------------------
# Planned maintenance turns automatic rebuild off (docs/admin/self_healing.md)
# and puts back the value it found, read first (2.6: each pool's self_heal,
# lib/daos/pool_property.go; 2.8: the system property, lib/daos/system_prop.go)
# and kept in DSLC_STATE so that a second run restores the first one's.
# VALUE without its rebuild flags (2.6: rebuild, delay_rebuild; 2.8: pool_rebuild)
dslc_heal_off_value() {
	v=$(printf '%s\n' "$1" | tr ';' '\n' | grep -vxE 'rebuild|delay_rebuild|pool_rebuild' | awk '{ printf "%s%s", s, $0; s = ";" }')
	echo "${v:-none}"
}
# the value of a dmg -j get-prop answer (pool: name/value; system: key/value)
dslc_prop_value() {
	printf '%s\n' "$dslc_out" | awk -v k="$1" '
		function val(s) { sub(/^[^:]*: *"/, "", s); sub(/".*/, "", s); return s }
		/"(name|key)": / { n = val($0) }
		/"value": / { v = val($0) }
		/^    },?$/ { if (n == k) print v; n = ""; v = "" }'
}
# the value POOL (or the system: '') had before this rollout; exit 1 when
# the record holds a value dmg would not take (nothing printed then)
dslc_heal_prior() {
	if [ -n "$1" ]; then v=$(dslc_state_get self_heal "$1"); else v=$(dslc_state_get self_heal_system ''); fi
	[ -z "$v" ] || dslc_heal_takes "$v" "$1" || return 1
	printf '%s\n' "$v"
}
# the value DAOS's dslc.self_heal keeps for POOL ('' the system), as read
# when the lock was taken; exit 1 when it is not one dmg takes
dslc_heal_daos() {
	v=$(printf '%s\n' "$dslc_heal_kept" | tr ' ' '\n' | awk -v p="${1:-@system}" 'index($0, p "=") == 1 { print substr($0, length(p) + 2); exit }')
	[ -z "$v" ] || dslc_heal_takes "$v" "$1" || return 1
	printf '%s\n' "$v"
}
# what POOL ('' the system) was before: the state file's record, else (none,
# or one dmg would not take) DAOS's; exit 1 when neither holds a good one
dslc_heal_before() {
	ok=1
	v=$(dslc_heal_prior "$1") || ok=''
	if [ -z "$v" ]; then
		v=$(dslc_heal_daos "$1") || return 1
		[ -n "$v" ] || [ -n "$ok" ] || return 1
	fi
	printf '%s\n' "$v"
}
# the pools whose self_heal may need restoring: those listed, and those the
# state file or DAOS's record names (a stop before the pools were listed)
dslc_heal_pools() {
	{
		printf '%s\n' "$dslc_pools" | tr ' ' '\n'
		awk '$1 == "self_heal" { print $2 }' "$DSLC_STATE"
		printf '%s\n' "$dslc_heal_kept" | tr ' ' '\n' | sed -n 's/^\([^@][^=]*\)=.*/\1/p'
	} | awk 'NF && !seen[$0]++' | while IFS= read -r p; do
		if dslc_pool_name_ok "$p"; then echo "$p"; fi
	done
}
dslc_self_heal_commands() {
	if [ -n "$dslc_system_heal" ]; then
		v=$(dslc_heal_before '') || { echo "# the system's self_heal: $DSLC_STATE (or DAOS's $dslc_heal_key) holds no value dmg takes: set it by hand (DAOS's default: exclude;pool_exclude;pool_rebuild)"; return 0; }
		[ -n "$v" ] || return 0
		echo "dmg system set-prop 'self_heal:$v'"
		case ";$v;" in *";pool_rebuild;"*) echo 'dmg system self-heal eval' ;; esac
		return 0
	fi
	for p in $(dslc_heal_pools); do
		if v=$(dslc_heal_before "$p"); then
			[ -z "$v" ] || echo "dmg pool set-prop $p 'self_heal:$v'"
		else
			echo "# pool $p: $DSLC_STATE (or DAOS's $dslc_heal_key) holds no value dmg takes: set self_heal by hand (DAOS's default: exclude;rebuild)"
		fi
	done
}
dslc_heal_record_bad() { dslc_fail "the record of what self_heal was ($1 in $DSLC_STATE) holds a value dmg would not take: it was altered; set self_heal by hand and remove that line"; }
# POOL ('' the system): the value before, from the state file, DAOS's
# dslc.self_heal (an earlier run's, when the state file lost it) or dmg;
# recorded in the state file
dslc_heal_read() {
	prior=$(dslc_heal_prior "$1") || dslc_heal_record_bad "${1:+self_heal $1}${1:-self_heal_system}"
	[ -z "$prior" ] || return 0
	what=${1:+pool $1}
	what=${what:-the system}
	if ! prior=$(dslc_heal_daos "$1"); then
		dslc_fail "DAOS's $dslc_heal_key holds for $what a value dmg would not take: it was altered; set self_heal by hand, then dmg system del-attr $dslc_heal_key"
	elif [ -n "$prior" ]; then
		echo "dslc: $DSLC_STATE does not record what $what's self_heal was; DAOS's $dslc_heal_key, kept by an earlier dslc run that turned its rebuild off, does: $prior" >&2
	elif [ -n "$1" ]; then
		dslc_dmg_json pool get-prop "$1" self_heal || dslc_fail "dmg pool get-prop $1 self_heal failed: the value to restore is unknown"
		prior=$(dslc_prop_value self_heal)
		dslc_heal_takes "$prior" "$1" || dslc_fail "pool $1's self_heal reads '$(printf '%s' "$prior" | tr -c 'A-Za-z0-9_;' '?')', which dmg pool set-prop does not take: set it (dmg pool set-prop $1 self_heal:exclude;rebuild), then run this again"
	else
		dslc_dmg_json system get-prop self_heal || dslc_fail 'dmg system get-prop self_heal failed: the value to restore is unknown'
		prior=$(dslc_prop_value self_heal)
		dslc_heal_takes "$prior" '' || dslc_fail "the system's self_heal reads a value dmg system set-prop does not take (dmg system get-prop self_heal): set it, then run this again"
	fi
	if [ -n "$1" ]; then dslc_mark "self_heal $1 $prior"; else dslc_mark "self_heal_system $prior"; fi
}
# TOKENS ("POOL=VALUE ..."): keep them in DAOS (dslc.self_heal), beside what
# an earlier run kept there, before any set-prop
dslc_heal_keep() {
	[ -n "$1" ] || return 0
	v=$dslc_heal_kept
	for t in $1; do
		case " $v " in *" ${t%%=*}="*) ;; *) v="${v:+$v }$t" ;; esac
	done
	[ "$v" != "$dslc_heal_kept" ] || return 0
	run dmg system set-attr "$dslc_heal_key:$v"
	dslc_heal_kept=$v
}
dslc_self_heal_off() {
	if [ -n "$dslc_system_heal" ]; then
		dslc_heal_read ''
		off=$(dslc_heal_off_value "$prior")
		if [ "$off" = "$prior" ]; then
			echo "dslc: the system's self_heal is $prior (no pool rebuild): left as it is" >&2
			return 0
		fi
		dslc_heal_keep "@system=$prior"
		dslc_self_heal='off, or in an unknown state (its set-prop failed)'
		run dmg system set-prop "self_heal:$off"
		dslc_self_heal="off ($off; it was $prior)"
		return 0
	fi
	dslc_pools_heal_off "$dslc_pools"
	[ -z "$dslc_pools" ] || dslc_self_heal='off on every pool that rebuilt by itself'
}
# POOLS (2.6): each one's self_heal read, kept, then without its rebuild
dslc_pools_heal_off() {
	keep=''
	for p in $1; do
		dslc_heal_read "$p"
		[ "$(dslc_heal_off_value "$prior")" = "$prior" ] || keep="${keep:+$keep }$p=$prior"
	done
	dslc_heal_keep "$keep"
	for p in $1; do
		prior=$(dslc_heal_prior "$p")
		off=$(dslc_heal_off_value "$prior")
		if [ "$off" = "$prior" ]; then
			echo "dslc: pool $p's self_heal is $prior (no automatic rebuild): left as it is" >&2
			continue
		fi
		was=$dslc_self_heal
		dslc_self_heal="off on some pools (before $p)"
		run dmg pool set-prop "$p" "self_heal:$off"
		dslc_self_heal=$was
	done
}
dslc_self_heal_restore() {
	if [ -n "$dslc_system_heal" ]; then
		prior=$(dslc_heal_before '') || dslc_heal_record_bad self_heal_system
		if [ -z "$prior" ] || [ "$(dslc_heal_off_value "$prior")" = "$prior" ]; then
			dslc_heal_forget
			return 0
		fi
		dslc_self_heal='partly restored'
		run dmg system set-prop "self_heal:$prior"
		# eval starts the rebuilds the property allows: not where the operator had them off
		case ";$prior;" in *";pool_rebuild;"*) run dmg system self-heal eval ;; esac
		dslc_self_heal=restored
		dslc_heal_forget
		return 0
	fi
	for p in $dslc_pools; do
		prior=$(dslc_heal_before "$p") || dslc_heal_record_bad "self_heal $p"
		if [ -z "$prior" ] || [ "$(dslc_heal_off_value "$prior")" = "$prior" ]; then continue; fi
		dslc_self_heal="partly restored (from $p on still off)"
		run dmg pool set-prop "$p" "self_heal:$prior"
	done
	dslc_self_heal=restored
	dslc_heal_forget
}
# self_heal is back: DAOS no longer keeps what it was
dslc_heal_forget() {
	[ -n "$dslc_heal_kept" ] || return 0
	run dmg system del-attr "$dslc_heal_key"
	dslc_heal_kept=''
}
