#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# `dslc lint` with several files (issue 26, part 3): every file is linted and
# the exit status is the worst; a file another given description includes is
# linted through it; a fragment given alone through the descriptions beside
# it that include it; stdin as '-'; machine formats stay one document.
#   tests/lint_files.sh DSLC
set -u
DSLC=$1
cd "$(dirname "$0")/.."
# the cases run in a scratch directory: the binary's path made absolute
# (DSLC may be "valgrind ... build/dslc")
bin=${DSLC##* } pre=${DSLC% *}
[ "$pre" = "$DSLC" ] && pre=""
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
DSLC="$pre $bin"
. tests/lib.sh
tests_begin lint-files
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/ex/a" "$T/ex/b" "$T/lone" "$T/bad"
cp examples/hgx-b200/hardware.dsl examples/hgx-b200/hgx-b200.xml "$T/ex/a/"
cp examples/hgx-b200/cluster.dsl "$T/ex/a/cluster.dsl"
sed 's#include "../hgx-b200/hardware.dsl"#include "../a/hardware.dsl"#' examples/hgx-b200-k8s/cluster.dsl >"$T/ex/b/cluster.dsl"
# outside ex/: the fragment's search (ex/) does not find it
sed 's/targets 16/targets 1600/; s#include "hardware.dsl"#include "../ex/a/hardware.dsl"#' examples/hgx-b200/cluster.dsl >"$T/bad/broken.dsl"
cp examples/hgx-b200/hardware.dsl "$T/lone/hardware.dsl"
cd "$T"
lint() { $DSLC lint "$@" >out 2>err; echo $? >rc; }
# clean: no error or warning (the reference example keeps its notes:
# numa-pin-dropped, nvme-count-unequal)
clean() { ! grep -q 'error\[\|warning\[' out; }

lint ex/a/cluster.dsl ex/b/cluster.dsl
check "two clean descriptions: exit 0, nothing but notes reported" "[ \$(cat rc) = 0 ] && clean"
lint ex/a/cluster.dsl bad/broken.dsl
check "a broken one after a clean one is linted too: exit 1, its finding at its line" \
	"[ \$(cat rc) = 1 ] && grep -q '^bad/broken.dsl:3[0-9]:[0-9]*: error\\[' out && ! grep -q '^ex/a/cluster.dsl.*: \\(error\\|warning\\)' out"
check "the summary names the file it counts" "grep -q '^dslc: bad/broken.dsl: [1-9][0-9]* error' err"
# and first: the exit status is the worst file's, not the last one's
lint bad/broken.dsl ex/a/cluster.dsl ex/b/cluster.dsl
check "a broken one before two clean ones: exit 1, its finding, the clean ones linted after it" \
	"[ \$(cat rc) = 1 ] && grep -q '^bad/broken.dsl:3[0-9]:[0-9]*: error\\[' out && grep -q '^dslc: bad/broken.dsl: [1-9][0-9]* error' err && ! grep -q '^ex/[ab]/cluster.dsl.*: \\(error\\|warning\\)' out"
lint ex/a/cluster.dsl ex/a/hardware.dsl ex/b/cluster.dsl
check "three files (once a usage error): the included hardware.dsl is linted through its descriptions" \
	"[ \$(cat rc) = 0 ] && clean && grep -q 'ex/a/hardware.dsl is included by ex/a/cluster.dsl: linted there' err"
lint ex/a/hardware.dsl
check "a fragment alone: linted through both descriptions beside it that include it, exit 0" \
	"[ \$(cat rc) = 0 ] && clean && grep -q 'included by ex/a/cluster.dsl' err && grep -q 'included by ex/b/cluster.dsl' err"
lint lone/hardware.dsl
check "a fragment nothing includes: linted alone, exit 1 with the missing release" \
	"[ \$(cat rc) = 1 ] && grep -q 'linted alone' err && grep -q 'error\\[daos-release\\]' out"
cp ex/a/hardware.dsl hw.orig
lint --fix ex/a/hardware.dsl
check "--fix on a fragment linted through its descriptions leaves the fragment as it was" \
	"[ \$(cat rc) = 0 ] && cmp -s ex/a/hardware.dsl hw.orig"
lint ex/a/cluster.dsl
cp out once.out
cp err once.err
lint ex/a/cluster.dsl ./ex/a/cluster.dsl
check "the same file twice is linted once" "[ \$(cat rc) = 0 ] && cmp -s out once.out && cmp -s err once.err"
lint --format json bad/broken.dsl ex/a/cluster.dsl lone/hardware.dsl
check "--format json over three files: one document, the summary adds them up" "/usr/bin/python3 -c '
import json, sys
d = json.load(open(\"out\"))
files = {f[\"file\"] for f in d[\"findings\"] if f[\"severity\"] != \"note\"}
assert files == {\"bad/broken.dsl\", \"lone/hardware.dsl\"}, files
assert d[\"summary\"][\"errors\"] == sum(f[\"severity\"] == \"error\" for f in d[\"findings\"]) >= 3, d[\"summary\"]
' && [ \$(cat rc) = 1 ]"
lint --format sarif bad/broken.dsl lone/hardware.dsl
check "--format sarif over two files: one run with both files' results" "/usr/bin/python3 -c '
import json
r = json.load(open(\"out\"))[\"runs\"]
assert len(r) == 1
assert {x[\"locations\"][0][\"physicalLocation\"][\"artifactLocation\"][\"uri\"] for x in r[0][\"results\"]} == {\"bad/broken.dsl\", \"lone/hardware.dsl\"}
'"
(cd ex/a && $DSLC lint - <cluster.dsl >../../out 2>../../err; echo $? >../../rc)
check "stdin: '-' with includes from the working directory, exit 0" "[ \$(cat rc) = 0 ] && clean"
(cd bad && $DSLC lint - <broken.dsl >../out 2>../err; echo $? >../rc)
check "stdin: findings at <stdin>:LINE" "[ \$(cat rc) = 1 ] && grep -q '^<stdin>:3[0-9]:[0-9]*: error' out"
printf 'daos 2.6\0' >nul.dsl
lint - <nul.dsl
check "stdin with a NUL byte: exit 2, said as for a file" "[ \$(cat rc) = 2 ] && grep -q \"cannot read '-': not a text file (NUL byte)\" err"
lint --format json - <nul.dsl
check "stdin with a NUL byte, --format json: still one document, an io-error finding (it crashed: SIGSEGV)" \
	"[ \$(cat rc) = 2 ] && /usr/bin/python3 -c 'import json; d = json.load(open(\"out\")); assert d[\"findings\"][0][\"ruleId\"] == \"io-error\"'"
lint - - <ex/a/cluster.dsl
check "stdin twice: usage error" "[ \$(cat rc) = 2 ]"
lint --fix - <ex/a/cluster.dsl
check "--fix on stdin: usage error" "[ \$(cat rc) = 2 ]"
$DSLC build ex/a/cluster.dsl -o built 2>/dev/null
lint ex/a/cluster.dsl built/nodes/gpu001/etc/daos/daos_server.yml built/nodes/cn01/etc/daos/daos_agent.yml
check "a description and the YAML it built, together: exit 0" "[ \$(cat rc) = 0 ] && clean"
lint ex/a/cluster.dsl missing.dsl
check "a missing file among others: exit 2, the others still linted" "[ \$(cat rc) = 2 ] && grep -q \"cannot read 'missing.dsl'\" err"
# issue 41 item 1: two files that include each other are not both deferred to the other
mkdir -p cyc
printf 'daos 2.6\ninclude "b.dsl"\n' >cyc/a.dsl
printf 'include "a.dsl"\n' >cyc/b.dsl
lint cyc/a.dsl
alone=$(cat rc)
lint cyc/a.dsl cyc/b.dsl
check "an include cycle among the files given: the set fails as each alone does (alone: exit $alone)" \
	"[ $alone = 1 ] && [ \$(cat rc) = 1 ] && grep -q 'error\\[include\\]: .* includes itself' out && grep -q '1 error' err"
lint cyc/b.dsl cyc/a.dsl
check "the same in the other order" "[ \$(cat rc) = 1 ] && grep -q 'error\\[include\\]' out"
# item 2: the includer search beside forty 15 MiB zero-filled .dsl files (sparse here; in git
# they compress to nothing) reads a piece of each, up to its first NUL byte, one at a time:
# it took 617 MB and 6 s when it read and kept them all
mkdir -p big/hw
cp ex/a/hardware.dsl big/hw/hardware.dsl
for i in $(seq 1 40); do truncate -s 15M "big/z$i.dsl"; done
if [ -x /usr/bin/time ]; then # the binary alone: under valgrind its own memory is measured
	/usr/bin/time -f '%M' -o rss $bin lint big/hw/hardware.dsl >out 2>err
	rc=$?
	kb=$(tail -1 rss)
	# it searched (no includer among the zero-filled files) and linted the fragment alone
	check "includer search beside 600 MiB of zero-filled .dsl files: under 64 MB resident ($kb KB, exit $rc)" \
		"[ $rc = 1 ] && grep -q 'no description under big includes it' err && [ '$kb' -lt 65536 ]"
else
	skip_or_fail_in_ci "includer search memory: /usr/bin/time is not installed"
fi
# found by fuzz_lint_files: a fragment whose name does not end in .dsl, in a
# directory with no .dsl file, searched an empty list (qsort of NULL: undefined,
# an abort under the sanitizers)
mkdir -p odd/hw
cp ex/a/hardware.dsl odd/hw/hardware.frag
lint odd/hw/hardware.frag
check "a fragment not named .dsl with no description near it: linted alone, said so" \
	"[ \$(cat rc) -le 1 ] && grep -q 'odd/hw/hardware.frag has no cluster block and no description under odd includes it' err"
tests_end
