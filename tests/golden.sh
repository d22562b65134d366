#!/usr/bin/env bash
# Golden tests: exact diagnostics of every fixture in tests/golden/diag, and
# the exact output tree of the reference example in tests/golden/build.
#   tests/golden.sh DSLC          compare; prints "ok"/"FAIL" lines
#   tests/golden.sh DSLC update   regenerate (review the diff before committing)
set -u
DSLC=$1
MODE=${2:-check}
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin golden

result() { # name, exit status
	if [ "$2" = 0 ]; then ok "$1"; else no "$1"; fi
}

for f in tests/golden/diag/*.dsl tests/golden/yaml/*.yml; do
	case "$f" in *-b.dsl) continue ;; esac   # included by another fixture
	exp=${f%.dsl}.expected
	# a first line "# dslc-test-args: ..." replaces the arguments
	args=$(sed -n '1s/^# dslc-test-args: //p' "$f")
	if [ -n "$args" ]; then
		act=$($DSLC $args 2>&1; echo "exit: $?")
	else
		act=$($DSLC lint --max-findings 0 "$f" 2>&1; echo "exit: $?")
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

# dslc show, text and JSON, for the node with an override
mkdir -p tests/golden/show
for fmt in text json; do
	exp=tests/golden/show/gpu007.$fmt
	act=$($DSLC show examples/hgx-b200/cluster.dsl gpu007 --format $fmt 2>&1; echo "exit: $?")
	if [ "$MODE" = update ]; then
		printf '%s\n' "$act" > "$exp"
	elif [ "$act" = "$(cat "$exp" 2>/dev/null)" ]; then
		result "show gpu007 --format $fmt" 0
	else
		result "show gpu007 --format $fmt" 1
		diff <(printf '%s\n' "$act") "$exp" | head -20
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if $DSLC build examples/hgx-b200/cluster.dsl -o "$tmp/out" 2>"$tmp/log"; then
	if [ "$MODE" = update ]; then
		rm -rf tests/golden/build/hgx-b200
		mkdir -p tests/golden/build
		cp -r "$tmp/out" tests/golden/build/hgx-b200
	else
		diff -r "$tmp/out" tests/golden/build/hgx-b200 >"$tmp/diff" 2>&1
		result "build tree of examples/hgx-b200" $?
		head -30 "$tmp/diff"
	fi
else
	cat "$tmp/log"
	result "build of examples/hgx-b200" 1
fi
[ "$MODE" = update ] && { echo "golden files regenerated: review git diff tests/golden"; exit 0; }
tests_end
