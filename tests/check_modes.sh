#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# make check after the plain suite: the ASan+UBSan suite (then the fuzz
# targets) and the valgrind suite at once, one per core. Each suite is one
# process at a time, so serially CI's two cores did half the work; together
# they fit its 90 minutes. Each job's output is kept in a log and printed
# whole when both have ended (never interleaved), then one line per job with
# its exit status and seconds: the last lines CI shows.
#   tests/check_modes.sh MAKE BUILD SAN_FLAGS
# The suites share the repository read-only: a test that edits an example or
# a fixture edits a copy in its own temporary directory (repo_copy, tests/lib.sh).
set -u
cd "$(dirname "$0")/.."
MAKE=$1 BUILD=$2 SAN=$3
L=$(mktemp -d)
trap 'rm -rf "$L"' EXIT

job() { # NAME COMMAND...: runs in the background, its status and time in $L
	local name=$1
	shift
	(
		start=$SECONDS
		"$@" >"$L/$name.log" 2>&1
		echo "$? $((SECONDS - start))" >"$L/$name.rc"
	) &
}

asan_then_fuzz() {
	$MAKE --no-print-directory BUILD=build-asan OPT="$SAN" asan-suite || return 1
	$MAKE --no-print-directory fuzz-build && tests/fuzz/run.sh build-fuzz "${FUZZ_CHECK_SECONDS:-20}"
}

job asan asan_then_fuzz
job valgrind env DSLC_VALGRIND=1 tests/run_all.sh "$BUILD" valgrind
wait

status=0
for name in asan valgrind; do
	echo "== $name (its whole output)"
	cat "$L/$name.log"
done
for name in asan valgrind; do
	read -r rc secs <"$L/$name.rc" || { rc=1 secs=?; }
	label=$name
	[ $name = asan ] && label="asan, then fuzz"
	if [ "$rc" = 0 ]; then
		echo "check: $label passed in $secs s"
	else
		echo "check: $label FAILED (exit $rc) after $secs s: its output is above"
		status=1
	fi
done
exit $status
