#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 58: a check that passes whatever dslc does cannot catch a bug. Each
# shell suite runs once more against a dslc that crashes at once (SIGSEGV,
# no output, nothing written): every check that still passes must be one that
# does not rest on a dslc run, listed in tests/crash_probe.allow with the
# reason. A new check that passes against the crash fails this test, and so
# does an allowed one that stopped passing (the list stays true).
# The Python suites are run the same way by hand (0 passes each, at stop 58);
# their runs take minutes each against a crashing dslc, so not here.
#   tests/crash_probe.sh BUILD
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-build}
. tests/lib.sh
tests_begin crash-probe
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '#!/bin/sh\n# a dslc that crashes: dies of SIGSEGV before it writes anything\nkill -SEGV $$\n' >"$T/dslc"
chmod +x "$T/dslc"
ALLOW=tests/crash_probe.allow
# the shell suites that take DSLC (package.sh builds its own .deb)
SUITES="golden tree_tests os_artifacts kernel_cmdline hostile help_applied lint_files lint_config examples_storage
fmt_tests import_tests plan_tests plan_scenarios plan_waves rollout_gates rollout_k8s disruption_pinned product_form
ci_examples check_spec fidelity networkd_netns editors"
: >"$T/passed"
for s in $SUITES; do
	timeout 600 bash "tests/$s.sh" "$T/dslc" "$BUILD" 2>&1 | sed -n "s/^ok   [^ ]* /$s	/p" >>"$T/passed"
done
n=$(wc -l <"$T/passed")
unexpected=""
while IFS=$'\t' read -r suite name; do
	grep -q "^$suite	$(printf '%s' "$name" | sed 's/[][\.*^$/]/\\&/g')	" "$ALLOW" || unexpected="$unexpected
  $suite: $name"
done <"$T/passed"
check "every check that passes against a crashing dslc is one that runs no dslc ($n, each in $ALLOW)${unexpected:+; not listed:$unexpected}" \
	"[ -z '$unexpected' ]"
stale=""
while IFS=$'\t' read -r suite name why; do
	case $suite in '#'* | '') continue ;; esac
	grep -qxF "$suite	$name" "$T/passed" || stale="$stale
  $suite: $name"
done <"$ALLOW"
check "every check $ALLOW lets through still passes against the crash (the list is true)${stale:+; stale:$stale}" "[ -z '$stale' ]"
# the probe itself: the crash is a crash, and a check against it fails
# (in a shell of its own, whose "Segmentation fault" line goes nowhere)
bash -c '"$0" lint examples/hgx-b200/cluster.dsl >/dev/null 2>&1' "$T/dslc" 2>/dev/null
check "the probe's dslc dies of SIGSEGV (exit $?)" "[ $? = 139 ]"
tests_end
