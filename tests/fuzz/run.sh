#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS and prints, per target, its execs and
# crashes, then "fuzz: N passed, N failed". A crash, a sanitizer report, an
# input slower than 2 s (-timeout) or one over 2 GiB (-rss_limit_mb) fails
# the target; the input that did it is kept in BUILD/fuzz-<target>/.
#   tests/fuzz/run.sh BUILD SECONDS
set -u
cd "$(dirname "$0")/../.."
BUILD=$1
SECONDS_EACH=${2:-60}
. tests/lib.sh
tests_begin fuzz
for t in fuzz_dsl fuzz_yaml fuzz_output; do
	bin=$BUILD/$t
	if [ ! -x "$bin" ]; then
		no "$t: $bin was not built (make fuzz-build)"
		continue
	fi
	work=$BUILD/fuzz-$t
	mkdir -p "$work/corpus"
	case $t in
	fuzz_yaml) seeds="tests/fuzz/seeds/yaml tests/golden/yaml"; dict="" ;;
	*) seeds="tests/fuzz/seeds/dsl tests/golden/diag"; dict="-dict=tests/fuzz/dsl.dict" ;;
	esac
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$SECONDS_EACH" -timeout=2 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$work/" $dict "$work/corpus" $seeds >"$work/log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
	crashes=$(find "$work" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'timeout-*' -o -maxdepth 1 -name 'oom-*' -o -maxdepth 1 -name 'leak-*' | wc -l)
	if [ "$rc" = 0 ] && [ "${execs:-0}" -gt 0 ]; then
		ok "$t: ${execs} execs in ${SECONDS_EACH} s, 0 crashes"
	else
		no "$t: exit $rc, ${execs:-0} execs, $crashes crash/timeout inputs in $work (log: $work/log)"
		grep -m 5 -E 'ERROR|SUMMARY|runtime error|abort' "$work/log"
	fi
done
tests_end
