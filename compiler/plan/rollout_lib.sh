# SPDX-License-Identifier: BSD-2-Clause-Patent
# The rollout script's own functions (dslc plan --format script), printed
# after targets/dmg_lib.sh (the gates over DAOS's state it shares with
# node-maintenance.sh): DSLC_APPLY under its time limit, the state file of
# waves done, the interrupt handler. Compiled into dslc
# (build/gen/compiler/plan/rollout_lib.inc).
# shellcheck shell=sh disable=SC2034,SC2154

DSLC_APPLY=${DSLC_APPLY:-}
DSLC_TREE=${DSLC_TREE:-}
DSLC_ANSIBLE=${DSLC_ANSIBLE:-ansible-playbook}
DSLC_APPLY_TIMEOUT=${DSLC_APPLY_TIMEOUT:-3600}
DSLC_STATE=${DSLC_STATE:-$0.state}
case $DSLC_APPLY_TIMEOUT in '' | *[!0-9]* | 0) echo "dslc: DSLC_APPLY_TIMEOUT takes whole seconds (1 or more), not '$DSLC_APPLY_TIMEOUT'" >&2; exit 2 ;; esac
DSLC_VERIFY=${DSLC_VERIFY:-}
dslc_wave='before the first wave'
dslc_wave_hosts=''
dslc_left=''
dslc_fail() {
	echo "dslc: STOPPED $dslc_wave: $1" >&2
	dslc_say_wave_ranks
	dslc_say_self_heal
	[ -z "$dslc_left" ] || echo "dslc: not started: $dslc_left" >&2
	[ ! -e "$DSLC_STATE" ] || echo "dslc: once it is fixed, run this script again: it skips the waves $DSLC_STATE records as done" >&2
	exit 1
}
# where the wave's ranks stand, once it has begun (a stop or an interrupt)
dslc_say_wave_ranks() {
	[ -n "$dslc_wave_hosts" ] || return 0
	if m=$(dslc_members "$dslc_wave_hosts" 2>/dev/null); then
		echo "dslc: ranks of $dslc_wave_hosts now:$(printf '%s\n' "$m" | awk -F'\t' 'NF == 4 { printf "%s rank %s %s", s, $1, $2; s = "," }')" >&2
	else
		echo "dslc: the state of $dslc_wave_hosts's ranks could not be read: dmg system query --rank-hosts=$dslc_wave_hosts" >&2
	fi
}
# Ctrl-C, kill, a closed terminal: say where the rollout stands and how to
# finish or undo it, at once. A running DSLC_APPLY is in its own process
# group under timeout(1) and is not interrupted: this waits for it, says so,
# and says how it ended (a half-run apply is worse than a late exit).
dslc_interrupted() {
	trap '' INT TERM HUP
	echo "dslc: INTERRUPTED ($1) $dslc_wave" >&2
	if [ -n "$dslc_hook_pid" ]; then
		echo "dslc: $dslc_hook_name is still running on $dslc_wave_hosts (process $dslc_hook_pid, at most DSLC_APPLY_TIMEOUT=$DSLC_APPLY_TIMEOUT s): waiting for it to end, not stopping it" >&2
		dslc_rc=0
		wait "$dslc_hook_pid" || dslc_rc=$?
		echo "dslc: $dslc_hook_name ended (exit $dslc_rc)" >&2
		dslc_hook_pid=''
	fi
	dslc_say_wave_ranks
	dslc_say_self_heal
	if [ "$dslc_wave_no" != 0 ]; then
		echo "dslc: to finish: run this script again; it resumes with wave $dslc_wave_no from its start ($DSLC_STATE says which waves are done)" >&2
		echo "dslc: to undo wave $dslc_wave_no instead: install the old files on $dslc_wave_hosts, then dmg system start --rank-hosts=$dslc_wave_hosts, dmg system reintegrate --rank-hosts=$dslc_wave_hosts, and restore self_heal as above" >&2
	fi
	exit "$2"
}
dslc_hook_pid=''
dslc_hook_name=''
# NAME CMD ARGS...: DSLC_APPLY or DSLC_VERIFY within DSLC_APPLY_TIMEOUT; its
# exit status in dslc_rc. fd 9 holds the state directory's flock: not for a
# daemon it starts. In the background, so that a signal is reported at once
# (a trapped signal ends wait, not the command); a background command of a
# script ignores SIGINT, and timeout(1) runs it in its own process group
dslc_hook() {
	dslc_hook_name=$1
	shift
	dslc_rc=0
	timeout -k 60 "$DSLC_APPLY_TIMEOUT" "$@" 9<&- &
	dslc_hook_pid=$!
	wait "$dslc_hook_pid" || dslc_rc=$?
	dslc_hook_pid=''
}
dslc_apply() {
	if [ -n "$DSLC_APPLY" ]; then
		dslc_hook DSLC_APPLY "$DSLC_APPLY" "$@"
	else
		dslc_playbook apply "$@"
	fi
	case $dslc_rc in
	0) ;;
	124 | 137) dslc_fail "$dslc_hook_name $* did not end within $DSLC_APPLY_TIMEOUT s (DSLC_APPLY_TIMEOUT) and was stopped: $1 may be half-installed" ;;
	*) dslc_fail "$dslc_hook_name $* failed (exit $dslc_rc)" ;;
	esac
	dslc_verify "$@"
}
# ---- the default DSLC_APPLY: the new tree's Ansible playbook ----------------
# DSLC_APPLY unset and ansible-playbook (DSLC_ANSIBLE) installed: each wave
# runs DSLC_TREE/cluster/ansible/apply.yml, which `dslc build` wrote, on the
# wave's nodes (--limit, from a file: a wave of thousands is longer than one
# argument may be) with its classes, and its verify tag after it unless
# DSLC_VERIFY is set. Refused before anything changes: no DSLC_TREE, a class
# the tree's playbook does not apply, a tree whose manifest.json gives a
# wave's node other files than the plan's (node_digests). The playbook checks
# the digests again when it installs (dslc_planned), from the manifest it
# installs from.
dslc_apply_begin() {
	if [ -n "$DSLC_APPLY" ]; then
		[ -n "$DSLC_VERIFY" ] || echo 'dslc: DSLC_VERIFY is not set: nothing checks that a node runs the planned files after DSLC_APPLY (see the header)' >&2
		return 0
	fi
	# shellcheck disable=SC2086 # DSLC_ANSIBLE is a command and its options
	set -- $DSLC_ANSIBLE
	if [ $# = 0 ] || ! command -v "$1" >/dev/null 2>&1; then
		echo "dslc: set DSLC_APPLY to the command that installs a wave's files and applies its classes: unset, each wave runs the new tree's Ansible playbook, and ${1:-DSLC_ANSIBLE} (DSLC_ANSIBLE) is not installed (Debian and Fedora: ansible-core)" >&2
		exit 2
	fi
	if [ -z "$DSLC_TREE" ]; then
		echo "dslc: DSLC_APPLY is not set, so each wave runs the new tree's Ansible playbook: set DSLC_TREE to the folder \`dslc build\` wrote from the planned description (its manifest.json and cluster/ansible/), or set DSLC_APPLY to your own command" >&2
		exit 2
	fi
	for f in manifest.json cluster/ansible/inventory.yml cluster/ansible/apply.yml; do
		[ -f "$DSLC_TREE/$f" ] || { echo "dslc: DSLC_TREE=$DSLC_TREE has no $f: it must be the folder \`dslc build\` wrote from the planned description" >&2; exit 2; }
	done
	lacks=$(dslc_playbook_lacks)
	if [ -n "$lacks" ]; then
		echo "dslc: REFUSED: this rollout's waves need $lacks, which $DSLC_TREE/cluster/ansible/apply.yml does not apply (its dslc_known_classes): set DSLC_APPLY to a command that does; nothing was changed" >&2
		exit 2
	fi
	bad=$(dslc_tree_differs)
	if [ -n "$bad" ]; then
		echo "dslc: REFUSED: DSLC_TREE=$DSLC_TREE is not the tree this rollout was planned from: $bad the plan's (node_digests in its manifest.json); build the planned description into it, or plan against what you mean to install; nothing was changed" >&2
		exit 2
	fi
	[ -n "$DSLC_VERIFY" ] || echo "dslc: DSLC_APPLY is not set: each wave runs $DSLC_TREE/cluster/ansible/apply.yml, then its verify tag (DSLC_VERIFY overrides that)" >&2
}
# the classes of the waves the tree's playbook does not apply (the list it
# refuses others by, one flow sequence in the file dslc wrote)
dslc_playbook_lacks() {
	known=$(awk '/^ *dslc_known_classes: \[/ { on = 1; sub(/^ *dslc_known_classes: \[/, "") }
		on { l = $0; e = sub(/\].*$/, "", l); gsub(/,/, " ", l); printf " %s ", l; if (e) exit }' "$DSLC_TREE/cluster/ansible/apply.yml")
	for c in $dslc_all_classes; do
		case " $known " in *" $c "*) ;; *) printf '%s ' "$c" ;; esac
	done | sed 's/ $//'
}
# "the files of H1, H2 differ from" when DSLC_TREE's manifest.json gives a
# wave's node another digest than the plan (dslc_digests: "-" for a node
# with no files there); nothing when they agree
dslc_tree_differs() {
	[ -n "$dslc_digests" ] || return 0
	printf '%s' "$dslc_digests" | awk '
		NR == FNR { want[$1] = $2; next }
		!inb && /^  "node_digests": \{/ { inb = 1 }
		inb { line = $0; gsub(/[",:{}]/, " ", line); if (split(line, f, " ") == 2) have[f[1]] = f[2] }
		inb && /\}/ { exit }
		END { for (h in want) if (want[h] == "-" ? (h in have) : have[h] != want[h]) print h }' - "$DSLC_TREE/manifest.json" |
		sort | awk '{ n++ } n <= 10 { s = s (n > 1 ? ", " : "") $0 } END { if (n) printf "the files of %s%s differ from", s, (n > 10 ? " and " (n - 10) " more" : "") }'
}
# apply|verify HOSTS CLASS...: the tree's playbook on the wave's nodes
# (dslc_wave_nodes), with the plan's node digests as dslc_planned
dslc_playbook() {
	mode=$1
	shift 2
	dslc_pb=$(mktemp -d "${TMPDIR:-/tmp}/dslc-apply.XXXXXX") || dslc_fail "cannot make a folder for the playbook's host list (TMPDIR)"
	# shellcheck disable=SC2086 # one host a word
	printf '%s\n' $dslc_wave_nodes >"$dslc_pb/limit"
	printf '%s' "$dslc_digests" | awk -v nodes=" $dslc_wave_nodes " 'index(nodes, " " $1 " ") { printf "%s\"%s\": \"%s\"", n++ ? ", " : "", $1, $2 }
		BEGIN { printf "{\"dslc_planned\": {" } END { print "}}" }' >"$dslc_pb/planned.json"
	classes=$(printf '%s,' "$@")
	if [ "$mode" = verify ]; then set -- --tags verify; else set --; fi
	# shellcheck disable=SC2086 # DSLC_ANSIBLE is a command and its options
	dslc_hook "apply.yml${1:+ $*}" $DSLC_ANSIBLE -i "$DSLC_TREE/cluster/ansible/inventory.yml" --limit "@$dslc_pb/limit" \
		-e "dslc_classes=${classes%,}" -e "@$dslc_pb/planned.json" "$@" "$DSLC_TREE/cluster/ansible/apply.yml"
	rm -rf "$dslc_pb"
	dslc_pb=''
}
# HOSTS CLASS...: the nodes run what was planned, before their engines start
# again: DSLC_VERIFY (the operator's check, e.g. dslc doctor --manifest TREE
# --node HOST on each node: the node's files against the built tree's sha256
# and modes, and the running kernel's command line) exits 0, or the wave stops here,
# with the ranks still stopped
dslc_verify() {
	if [ -n "$DSLC_VERIFY" ]; then
		dslc_hook DSLC_VERIFY "$DSLC_VERIFY" "$@"
	elif [ -z "$DSLC_APPLY" ]; then
		dslc_playbook verify "$@"
	else
		return 0
	fi
	case $dslc_rc in
	0) echo "dslc: $dslc_hook_name $*: the nodes run the planned files" >&2 ;;
	124 | 137) dslc_fail "$dslc_hook_name $* did not end within $DSLC_APPLY_TIMEOUT s (DSLC_APPLY_TIMEOUT): whether $1 runs the planned files is unknown; its ranks are left stopped" ;;
	*) dslc_fail "$dslc_hook_name $* failed (exit $dslc_rc): $1 does not run the planned files (its output above names what differs); its ranks are left stopped: install the files, then run this script again" ;;
	esac
}
# ---- the state file: which waves are done ------------------------------------
# Beside what dmg_lib.sh keeps in DSLC_STATE (default: the script's path with
# .state): "plan ID" first, "started N", "done N", "finished".
dslc_state_begin() {
	# the script writes only a file it created itself: never through a
	# symbolic link (a dangling one would create its target)
	if [ -L "$DSLC_STATE" ]; then
		echo "dslc: $DSLC_STATE (DSLC_STATE) is a symbolic link: the state file must be a plain file this script created; point DSLC_STATE at one" >&2
		exit 2
	fi
	if [ ! -e "$DSLC_STATE" ]; then
		# O_EXCL (noclobber): a file that appeared meanwhile is not written over
		(set -C && printf 'plan %s\n%s\n' "$dslc_plan" "$(printf '%s\n' "$dslc_identity" | sed 's/^/identity /')" >"$DSLC_STATE") 2>/dev/null ||
			{ echo "dslc: cannot create $DSLC_STATE (DSLC_STATE)" >&2; exit 2; }
		return 0
	fi
	if [ ! -f "$DSLC_STATE" ] || [ ! -r "$DSLC_STATE" ]; then
		echo "dslc: $DSLC_STATE (DSLC_STATE) is not a readable plain file" >&2
		exit 2
	fi
	first=$(sed -n 1p "$DSLC_STATE")
	case $first in
	"plan $dslc_plan") ;;
	plan\ [0-9a-f]*) dslc_fail "$DSLC_STATE (DSLC_STATE) is the record of another rollout (plan ${first#plan }, not $dslc_plan): $(dslc_identity_diff); finish that one with its own script, or remove the file once every rank is Joined and self_heal is restored" ;;
	*) dslc_state_refuse "it is not a rollout's state file (its first line is not 'plan ID')" ;;
	esac
	# a file cut inside a line, or a line this script never writes
	[ "$(tail -c 1 "$DSLC_STATE" | od -An -c | tr -d ' ')" = '\n' ] || dslc_state_refuse "it ends inside a line: it was cut while written, or by hand"
	bad=$(dslc_records_extra='plan identity started done finished' dslc_records_bad <"$DSLC_STATE")
	[ -z "$bad" ] || dslc_state_refuse "${bad#line }" 1
	bad=$(awk 'NR > 1 && ($1 == "started" || $1 == "done") && ($2 !~ /^[1-9][0-9]*$/ || $2 > n) { print NR ": wave " $2 " is not one of this plan'"'"'s"; exit }
		$1 == "done" && !($2 in s) { print NR ": done " $2 " without started " $2; exit }
		$1 == "started" { s[$2] = 1 }
		f { print NR ": a record after finished"; exit }
		$1 == "finished" { f = 1 }' n="$dslc_waves" "$DSLC_STATE")
	[ -z "$bad" ] || dslc_state_refuse "line $bad"
	if grep -qx finished "$DSLC_STATE"; then
		echo "dslc: this rollout finished already ($DSLC_STATE): nothing to do; remove the file to run it again" >&2
		exit 0
	fi
	dslc_resume=$(awk '$1 == "started" { s = $2 } $1 == "done" && $2 == s { s = "" } END { print s }' "$DSLC_STATE")
	echo "dslc: resuming from $DSLC_STATE: waves done:$(awk '$1 == "done" { printf " %s", $2 }' "$DSLC_STATE")${dslc_resume:+; wave $dslc_resume was interrupted and runs again from its start}" >&2
	# the interrupted wave's ranks may be down: the first gate allows them
	[ -z "$dslc_resume" ] || dslc_ranks=$(dslc_state_get ranks "$dslc_resume")
}
# what differs between the state file's identity lines and this script's
dslc_identity_diff() {
	grep -q '^identity ' "$DSLC_STATE" || { echo "it was written by a dslc that kept no identity lines"; return; }
	printf '%s\n' "$dslc_identity" | awk '
		NR == FNR { if ($1 == "identity") { k = $2; $1 = ""; $2 = ""; v = $0; sub(/^ +/, "", v); was[k] = v }; next }
		{ k = $1; $1 = ""; v = $0; sub(/^ +/, "", v)
		  what = k == "tree" ? "the files the waves install" : k == "steps" ? "the waves and their steps" : k == "release" ? "the DAOS release" : "dslc"
		  if (!(k in was)) { printf "%s%s is not recorded", s, what; s = ", " }
		  else if (was[k] != v) { printf "%s%s differ%s (%s there, %s here)", s, what, (k == "release" || k == "dslc") ? "s" : "", was[k], v; s = ", " } }
		END { if (s == "") printf "its identity lines match, its plan line does not" }' "$DSLC_STATE" -
}
# REASON: a state file this script cannot trust. What it says is not
# taken for the truth: neither which waves are done nor what self_heal was.
dslc_state_refuse() {
	echo "dslc: REFUSED: $DSLC_STATE (DSLC_STATE) cannot be trusted: ${2:+line }$1." >&2
	echo "dslc: not known from it: which waves are done, and what self_heal was before the rollout that wrote it; nothing was changed." >&2
	echo "dslc: what DAOS says now: dmg system query (every rank Joined?) and dmg pool get-prop POOL self_heal (2.6) or dmg system get-prop self_heal (2.8)." >&2
	echo "dslc: once every rank is Joined and self_heal is what it should be (DAOS's default: exclude;rebuild on 2.6, exclude;pool_exclude;pool_rebuild on 2.8), move the file aside and run this again: every wave runs, each gated" >&2
	exit 1
}
# the cluster's lock (dmg_lib.sh), and flock on the state file's directory
dslc_rollout_lock() { dslc_lock_take rollout "$(dirname -- "$DSLC_STATE")"; }
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
dslc_pb=''
trap 'dslc_lock_release; rm -f "$dslc_errf"; [ -z "$dslc_pb" ] || rm -rf "$dslc_pb"' EXIT
trap 'dslc_interrupted SIGINT 130' INT
trap 'dslc_interrupted SIGTERM 143' TERM
trap 'dslc_interrupted SIGHUP 129' HUP
dslc_apply_begin
