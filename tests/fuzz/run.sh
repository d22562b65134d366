#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Runs each libFuzzer target for SECONDS and prints, per target, its execs and
# crashes, then "fuzz: N passed, N failed". A crash, a sanitizer report, an
# input slower than 10 s (25 s for the topology: -timeout; a hang guard with a
# margin for a loaded machine, the inputs take milliseconds) or one over 2 GiB (-rss_limit_mb) fails
# the target; the input that did it is kept in BUILD/fuzz-<target>/. FUZZ_TIMEOUT sets
# the hang guard for the long runs outside CI, niced beside other work: a starved
# process is no hang (an input that took 10 s there ran in 0.8 s alone).
#   tests/fuzz/run.sh BUILD SECONDS [TARGET ...]
set -u
cd "$(dirname "$0")/../.."
# hwloc's own leak on a rejected export (lsan.supp says why)
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
BUILD=$1
SECONDS_EACH=${2:-60}
shift $(($# < 2 ? $# : 2))
ONLY=${*:-fuzz_dsl fuzz_yaml fuzz_output fuzz_topology fuzz_lint_files fuzz_rollout fuzz_lsp fuzz_manifest fuzz_rootfs}
. tests/lib.sh
tests_begin fuzz
for t in $ONLY; do
	bin=$BUILD/$t
	if [ ! -x "$bin" ]; then
		no "$t: $bin was not built (make fuzz-build)"
		continue
	fi
	work=$BUILD/fuzz-$t
	mkdir -p "$work/corpus"
	timeout=10
	case $t in
	fuzz_yaml) seeds="tests/fuzz/seeds/yaml tests/golden/yaml"; dict="" ;;
	fuzz_topology)
		# the exports of the tests, the example and, when present, the
		# shared reference (read in place, never copied into the project)
		mkdir -p "$work/seeds"
		cp tests/topologies/*.xml examples/*/*.xml "$work/seeds/"
		seeds="$work/seeds"
		[ -d ../shared/reference/hwloc ] && seeds="$seeds ../shared/reference/hwloc"
		dict="-dict=tests/fuzz/hwloc.dict"
		# a PU without os_index makes hwloc set bit 2^32-1: a 512 MiB
		# bitmap, about 2 s under ASan and more on a loaded machine, in
		# the sandboxed child, which dslc stops at 20 s
		# (topology_xml.c): a hang is what outlives that limit
		timeout=25 ;;
	fuzz_lint_files)
		# small repositories ("--- NAME" starts a file): the DSL's words
		# and the splitter's
		seeds="tests/fuzz/seeds/lint"
		{ cat tests/fuzz/dsl.dict; printf '%s\n' '"\x0a--- "' '"\x0a--- !"' '"include \"../"' '"hw/hardware.dsl"' '"daos_server.yml"'; } >"$work/dict"
		dict="-dict=$work/dict" ;;
	fuzz_lsp)
		# whole sessions as an editor writes them: the protocol's words and the DSL's
		seeds="tests/fuzz/seeds/lsp"
		{ cat tests/fuzz/dsl.dict; printf '%s\n' '"Content-Length: "' '"\x0d\x0a\x0d\x0a"' '"\"jsonrpc\":\"2.0\""' \
			'"\"method\":"' '"\"id\":"' '"\"params\":"' '"textDocument/didOpen"' '"textDocument/didChange"' \
			'"textDocument/hover"' '"textDocument/completion"' '"textDocument/definition"' '"textDocument/formatting"' \
			'"textDocument/codeAction"' '"textDocument/documentSymbol"' '"initialize"' '"shutdown"' '"exit"' \
			'"\"position\":{\"line\":"' '"\"character\":"' '"file:///"' '"\\u0000"'; } >"$work/dict"
		dict="-dict=$work/dict" ;;
	fuzz_manifest)
		# manifests as dslc writes them, and the one of before the format marker
		seeds="tests/fuzz/seeds/manifest"
		printf '%s\n' '"\"format\": \"dslc-manifest\""' '"\"format_version\": 1"' '"\"files\": ["' '"\"nodes\": "' \
			'"\"generator\": \"dslc "' '"\"identical\": "' '"\"path\": "' '"\\\""' '"]}"' >"$work/dict"
		dict="-dict=$work/dict" ;;
	fuzz_rootfs)
		# roots as a node lays them out (tests/doctor_roots.py) and hostile
		# ones: links out of the root, loops, FIFOs, modes
		seeds="tests/fuzz/seeds/rootfs"
		printf '%s\n' '"--- F "' '"--- L "' '"--- D "' '"--- P "' '"--- M "' '" -> "' '"../"' '"/tmp/dslc-fuzz-rootfs/outside"' \
			'"proc/cmdline"' '"proc/meminfo"' '"sys/class/net/"' '"sys/bus/pci/devices/"' '"sys/devices/system/node/node"' \
			'"/driver"' '"hugepages"' '"etc/daos/daos_server.yml"' '"iommu=pt"' '"HugePages_Total:"' '"MemAvailable:"' \
			'" 0000"' >"$work/dict"
		dict="-dict=$work/dict" ;;
	*) seeds="tests/fuzz/seeds/dsl tests/golden/diag"; dict="-dict=tests/fuzz/dsl.dict" ;;
	esac
	timeout=${FUZZ_TIMEOUT:-$timeout}
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$SECONDS_EACH" -timeout=$timeout -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
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
