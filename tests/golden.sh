#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Golden tests: exact diagnostics of every fixture in tests/golden/diag, and
# the exact output tree of the reference example in tests/golden/build.
#   tests/golden.sh DSLC          compare; prints "ok"/"FAIL" lines
#   tests/golden.sh DSLC update   regenerate (review the diff before committing)
#   tests/golden.sh DSLC half     compare every second fixture (valgrind's pass:
#                                 memcheck costs 40x; ASan's pass runs them all)
set -u
DSLC=$1
MODE=${2:-check}
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin golden

result() { # name, exit status
	if [ "$2" = 0 ]; then ok "$1"; else no "$1"; fi
}

n=0
for f in tests/golden/diag/*.dsl tests/golden/yaml/*.yml; do
	case "$f" in *-b.dsl) continue ;; esac   # included by another fixture
	n=$((n + 1))
	[ "$MODE" != half ] || [ $((n % 2)) = 1 ] || continue
	exp=${f%.dsl}.expected
	# a first line "# dslc-test-args: ..." replaces the arguments
	args=$(sed -n '1s/^# dslc-test-args: //p' "$f")
	# a line "# dslc-test-env: NAME=value" sets a test seam for this fixture
	# (the seams are compiled into the test build only: dslc-test-hooks)
	env=$(sed -n 's/^# dslc-test-env: \([A-Z_]*=[a-z-]*\)$/\1/p' "$f")
	bin=$DSLC
	[ -z "$env" ] || bin="${DSLC}-test-hooks"
	if [ -n "$args" ]; then
		act=$(env $env $bin $args 2>&1; echo "exit: $?")
	else
		act=$(env $env $bin lint --max-findings 0 "$f" 2>&1; echo "exit: $?")
	fi
	if [ "$MODE" = update ]; then
		printf '%s\n' "$act" > "$exp"
		continue
	fi
	if [ -f "$exp" ] && [ "$act" = "$(cat "$exp")" ]; then
		result "$f" 0
	else
		result "$f" 1
		diff <(printf '%s\n' "$act") "$exp" | head -20
	fi
done

# dslc show, text and JSON: the node with an override, a client-only node
# (no hugepages row; its spare cores are "free", not "kubernetes") and a
# server without a kubelet
mkdir -p tests/golden/show
for shown in hgx-b200:gpu007 hgx-b200:cn01 md-on-ssd:st01; do
	ex=${shown%%:*} host=${shown#*:}
	for fmt in text json; do
		exp=tests/golden/show/$host.$fmt
		act=$($DSLC show examples/$ex/cluster.dsl $host --format $fmt 2>&1; echo "exit: $?")
		if [ "$MODE" = update ]; then
			printf '%s\n' "$act" > "$exp"
		elif [ "$act" = "$(cat "$exp" 2>/dev/null)" ]; then
			result "show $host --format $fmt" 0
		else
			result "show $host --format $fmt" 1
			diff <(printf '%s\n' "$act") "$exp" | head -20
		fi
	done
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# golden_tree EXAMPLE WHAT SUBSET: builds examples/EXAMPLE, keeps what the
# function SUBSET copies from the tree ($1) into $2, and compares it with
# (or, in update mode, writes it to) tests/golden/build/EXAMPLE
golden_tree() {
	local out="$tmp/$1" kept="$tmp/$1-kept"
	if ! $DSLC build "examples/$1/cluster.dsl" -o "$out" 2>"$tmp/log"; then
		cat "$tmp/log"
		result "build of examples/$1" 1
		return
	fi
	"$3" "$out" "$kept"
	if [ "$MODE" = update ]; then
		rm -rf "tests/golden/build/$1"
		mkdir -p tests/golden/build
		cp -r "$kept" "tests/golden/build/$1"
	else
		diff -r "$kept" "tests/golden/build/$1" >"$tmp/diff" 2>&1
		result "build tree of examples/$1$2" $?
		head -30 "$tmp/diff"
	fi
}
whole_tree() { cp -r "$1" "$2"; }
golden_tree hgx-b200 "" whole_tree
# the same example in the Kubernetes model: the DaemonSet groups, and the host
# files that differ from the systemd model, of a node of each group (the rest
# of the tree is the reference example's, pinned above)
k8s_subset() { # build dir -> subset dir
	mkdir -p "$2/nodes"
	mkdir -p "$2/cluster" && cp -r "$1/cluster/kubernetes" "$2/cluster/"
	for n in gpu001 gpu007; do
		mkdir -p "$2/nodes/$n"
		(cd "$1/nodes/$n" && find etc/default etc/kubernetes etc/containerd etc/modules-load.d etc/tmpfiles.d usr \
			etc/systemd/system etc/systemd/system-preset etc/daos -type f 2>/dev/null | sort |
			while read -r f; do mkdir -p "$2/nodes/$n/$(dirname "$f")"; cp -p "$f" "$2/nodes/$n/$f"; done)
	done
}
golden_tree hgx-b200-k8s " (cluster/ and the pod host files)" k8s_subset
# issue 56: the Aurora-like example's cluster files (a directory's class in
# daos-pools.sh) and a client's MPI-IO files; md-on-ssd's .link files
aurora_subset() { # build dir -> subset dir
	mkdir -p "$2/nodes/uan001" && cp -r "$1/cluster" "$2/"
	(cd "$1/nodes/uan001" && find etc/daos usr etc/systemd/system -type f | sort |
		while read -r f; do mkdir -p "$2/nodes/uan001/$(dirname "$f")"; cp -p "$f" "$2/nodes/uan001/$f"; done)
}
golden_tree aurora-like " (cluster/ and uan001's client files)" aurora_subset
md_subset() { mkdir -p "$2/nodes/st01/etc/systemd" && cp -r "$1/nodes/st01/etc/systemd/network" "$2/nodes/st01/etc/systemd/"; }
golden_tree md-on-ssd " (st01's networkd units and .link files)" md_subset
[ "$MODE" = update ] && { echo "golden files regenerated: review git diff tests/golden"; exit 0; }
# one mistake, one finding (issue 71): no reviewed output holds two findings
# of one rule at one place (the same mistake seen from two NUMA nodes or
# nodes is one finding, the others its notes); doctor's drifts excepted, which
# stand at the node's line when no better one names them
twice=$(awk 'match($0, /^[^ ]+:[0-9]+:[0-9]+: [a-z]+\[[a-z0-9-]+\]/) {
		k = FILENAME " " substr($0, RSTART, RLENGTH); if (k !~ /\[node-/ && seen[k]++) print k }' tests/golden/diag/*.expected tests/golden/yaml/*.expected)
check "no reviewed output has two findings of one rule at one place${twice:+: $twice}" "[ -z '$twice' ] && ls tests/golden/diag/*.expected >/dev/null"
tests_end
