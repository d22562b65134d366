#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Runs the whole suite against one build directory and prints one closing
# line "MODE: N passed, N failed, N skipped", then every skip with its reason.
# Under CI (CI=true) a precondition scripts/install-deps.sh provides is
# required: its absence fails the run instead of skipping.
#   tests/run_all.sh BUILD            plain
#   tests/run_all.sh BUILD asan       the same binaries built with ASan+UBSan
#   tests/run_all.sh BUILD valgrind   dslc and the unit tests under valgrind
set -u
cd "$(dirname "$0")/.."
BUILD=$1
MODE=${2:-plain}
DSLC="$BUILD/dslc"
UNIT="$BUILD/unit_tests"
QUICK=""
if [ "$MODE" = valgrind ]; then
	if ! command -v valgrind >/dev/null; then
		if [ "${CI:-}" = true ]; then
			echo "FAIL valgrind suite: valgrind is not installed (CI has it: scripts/install-deps.sh installs it)"
			echo "valgrind: 0 passed, 1 failed, 0 skipped"
			exit 1
		fi
		echo "skip valgrind suite: valgrind is not installed"
		echo "valgrind: 0 passed, 0 failed, 1 skipped"
		exit 0
	fi
	VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --suppressions=$PWD/tests/hwloc.supp"
	DSLC="$VG $BUILD/dslc"
	UNIT="env CK_FORK=no $VG $BUILD/unit_tests"
	QUICK=quick
fi
echo "== suite ($MODE)"
. tests/lib.sh
if [ -x "$DAOS_LOADER" ]; then
	echo "oracles: DAOS's loader $DAOS_LOADER is here: the differential tests run${DSLC_REQUIRE_ORACLES:+ (required)}"
else
	echo "oracles: DAOS's loader $DAOS_LOADER is absent: the differential tests say skip${DSLC_REQUIRE_ORACLES:+, and fail (DSLC_REQUIRE_ORACLES=1)}"
fi
pass=0 fail=0
count() { # log file
	pass=$((pass + $(grep -c '^ok ' "$1"))) fail=$((fail + $(grep -c '^FAIL' "$1")))
	grep '^skip ' "$1" >>"$skips"
}
log=$(mktemp) skips=$(mktemp) times=$(mktemp)
trap 'rm -f "$log" "$skips" "$times"' EXIT

# unit tests (Check)
start=$SECONDS
$UNIT >"$log" 2>&1
rc=$?
cat "$log"
checks=$(sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$log")
if [ -n "$checks" ] && [ $rc = 0 ]; then
	set -- $checks
	pass=$((pass + $1 - $2 - $3)) fail=$((fail + $2 + $3))
else
	fail=$((fail + 1))
	echo "FAIL unit tests (exit $rc)"
fi
echo "unit_tests $((SECONDS - start))" >>"$times"

# one test program: its output but the passing lines, and its counts
suite() {
	local start=$SECONDS name
	"$@" >"$log" 2>&1
	rc=$?
	# where CI's time goes (its limit is 90 minutes for the whole check)
	name=$1
	[ "$name" = /usr/bin/python3 ] && name=$2
	echo "$(basename "$name") $((SECONDS - start))" >>"$times"
	# a suite that dies (a Python traceback) prints no FAIL line: count it;
	# one that says nothing at all vanished, which is no pass either
	if [ $rc != 0 ] && ! grep -q '^FAIL' "$log"; then
		echo "FAIL $1: exit $rc without a FAIL line" >>"$log"
	elif ! grep -q '^ok \|^FAIL\|^skip ' "$log"; then
		echo "FAIL $*: no ok, FAIL or skip line" >>"$log"
	fi
	grep -v '^ok ' "$log"
	count "$log"
}

# Under valgrind (20 to 50 times slower) one program per stage of the
# compiler runs, with every input kind: the golden fixtures (every rule and
# target), the output tree, hostile input, --fix, import, plan, the rollout
# script, the LSP and doctor. The rest exercise the same code through other
# inputs, and run plain and under ASan+UBSan (make check's 90-minute limit).
not_valgrind() {
	if [ "$MODE" = valgrind ]; then
		elsewhere="$elsewhere $(basename "$1")"
	else
		suite "$@"
	fi
}
elsewhere=""
suite tests/golden.sh "$DSLC"
suite tests/tree_tests.sh "$DSLC" $QUICK
not_valgrind tests/os_artifacts.sh "$DSLC"
not_valgrind tests/kernel_cmdline.sh "$DSLC"
suite tests/hostile.sh "$DSLC" $QUICK
not_valgrind tests/help_applied.sh "$DSLC"
not_valgrind tests/lint_files.sh "$DSLC"
# the repository's lint settings, the same in CI, the shell and pre-commit (issue 39)
not_valgrind tests/lint_config.sh "$DSLC"
not_valgrind tests/examples_storage.sh "$DSLC"
not_valgrind tests/fmt_tests.sh "$DSLC"
suite /usr/bin/python3 tests/fix_applied.py "$DSLC"
suite tests/import_tests.sh "$DSLC"
suite tests/plan_tests.sh "$DSLC" $QUICK
not_valgrind tests/plan_scenarios.sh "$DSLC"
not_valgrind tests/plan_waves.sh "$DSLC"
suite tests/rollout_gates.sh "$DSLC"
not_valgrind tests/rollout_k8s.sh "$DSLC"
not_valgrind tests/disruption_pinned.sh "$DSLC"
# help, man pages, completions, make install (issue 39)
not_valgrind tests/product_form.sh "$DSLC"
suite /usr/bin/python3 tests/lsp_client.py "$DSLC"
suite /usr/bin/python3 tests/doctor.py "$DSLC"
not_valgrind tests/editors.sh "$DSLC" "$BUILD"
# issue 38: builds the 160-node Aurora-like example a dozen times, too slow
# under valgrind; ASan covers its paths
if [ "$MODE" != valgrind ]; then
	suite tests/fidelity.sh "$DSLC"
fi

if [ "$MODE" != valgrind ]; then
	if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
		suite /usr/bin/python3 tests/validate/formats_check.py "$DSLC"
		suite /usr/bin/python3 tests/validate/k8s_check.py "$DSLC"
		suite /usr/bin/python3 tests/validate/clients_check.py "$DSLC"
	elif [ "${CI:-}" = true ]; then
		echo "FAIL formats: python3-jsonschema is missing (CI has it: scripts/install-deps.sh installs it)"
		fail=$((fail + 1))
	else
		echo "skip formats: python3-jsonschema is missing (scripts/install-deps.sh installs it)" | tee -a "$skips"
	fi
fi

# shapes against DAOS's loader (issue 22): 200 shapes plain, 40 under ASan
if [ "$MODE" = plain ]; then
	suite /usr/bin/python3 tests/shapes.py "$DSLC"
elif [ "$MODE" = asan ]; then
	suite /usr/bin/python3 tests/shapes.py "$DSLC" --count 40
fi

if [ "$MODE" = plain ]; then
	suite tests/networkd_netns.sh "$DSLC"
	suite tests/ci_examples.sh "$DSLC"
	suite tests/check_spec.sh "$DSLC"
	# the Debian package, built, linted, installed and removed (issue 39)
	suite tests/package.sh
	# DAOS's own loader as the oracle (../shared/validators); says skip without it
	suite /usr/bin/python3 tests/daos_diff.py "$DSLC"
	# MD-on-SSD tier layouts against the loader (issue 25)
	suite /usr/bin/python3 tests/tiers_diff.py "$DSLC"
	# pool ACLs against DAOS's own ACL parser (tests/oracle/daos_acl)
	suite /usr/bin/python3 tests/acl_diff.py "$DSLC"
	# dslc import against DAOS's loader: its examples, dslc's, 300 generated systems (issue 26)
	suite /usr/bin/python3 tests/import_diff.py "$DSLC"
	# rollout waves never exceed their limits over random fault-domain layouts (issue 27)
	suite /usr/bin/python3 tests/waves_property.py "$DSLC"
elif [ "$MODE" = asan ]; then
	suite /usr/bin/python3 tests/waves_property.py "$DSLC" --count 60
	suite /usr/bin/python3 tests/import_diff.py "$DSLC" --count 60
	suite /usr/bin/python3 tests/tiers_diff.py "$DSLC" --sample4 0 --tiers 2
	suite /usr/bin/python3 tests/acl_diff.py "$DSLC" --count 100
fi

[ -z "$elsewhere" ] || echo "run plain and under ASan+UBSan, not under valgrind:$elsewhere"
nskip=$(wc -l <"$skips")
echo "seconds per program ($MODE, $SECONDS in all): $(sort -k2 -rn "$times" | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')"
echo "$MODE: $pass passed, $fail failed, $nskip skipped"
if [ "$nskip" -gt 0 ]; then
	echo "skipped ($MODE), each with its reason:"
	sed 's/^skip /  /' "$skips"
fi
[ "$fail" = 0 ]
