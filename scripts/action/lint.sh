#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The GitHub Action's lint steps (action.yml), from the environment:
#   DSLC_FILES      descriptions, separated by blanks or newlines (globs are
#                   expanded; none: the roots of .dslc-lint)
#   DSLC_FORMAT     the log's format (github: annotations on the changes)
#   DSLC_FAIL_ON    error|warning|note
#   DSLC_BASELINE   a baseline file (dslc lint --write-baseline), or empty
#   DSLC_SARIF      where the SARIF report goes
#   lint.sh sarif    writes the SARIF report; only a file dslc cannot read
#                    fails (exit 2), so the upload after it runs whatever the
#                    findings; outputs sarif-file and findings
#   lint.sh report   lints in DSLC_FORMAT; its status is dslc's (1: a finding
#                    at or above DSLC_FAIL_ON); output exit-code
set -uo pipefail
mode=${1:?usage: lint.sh sarif|report}
out=${GITHUB_OUTPUT:-/dev/null}
fail() { echo "::error title=dslc action::$*"; exit 2; }

args=()
if [ -n "${DSLC_FILES:-}" ]; then
	# blanks and newlines separate; globs expand (a pattern that matches
	# nothing stays as written, and dslc says it cannot read it)
	while read -r -a words; do
		for w in "${words[@]}"; do
			for f in $w; do args+=("$f"); done
		done
	done <<<"$DSLC_FILES"
fi
[ -z "${DSLC_BASELINE:-}" ] || args+=(--baseline "$DSLC_BASELINE")
case ${DSLC_FAIL_ON:-error} in
error | warning | note) ;;
*) fail "fail-on: '${DSLC_FAIL_ON}' is not error, warning or note" ;;
esac

case $mode in
sarif)
	sarif=${DSLC_SARIF:-dslc.sarif}
	dslc lint "${args[@]}" --format sarif --exit-zero --quiet >"$sarif.tmp"
	rc=$?
	if [ "$rc" != 0 ]; then
		rm -f "$sarif.tmp"
		fail "dslc lint could not read its input (exit $rc)"
	fi
	mv "$sarif.tmp" "$sarif"
	# the findings reported (SARIF also lists baselined ones, as unchanged);
	# concise prints one line each, control characters escaped
	n=$(dslc lint "${args[@]}" --format concise --exit-zero --quiet | wc -l)
	echo "sarif-file=$sarif" >>"$out"
	echo "findings=$n" >>"$out"
	echo "dslc action: $n finding(s) in $sarif"
	;;
report)
	dslc lint "${args[@]}" --format "${DSLC_FORMAT:-github}" --fail-on "${DSLC_FAIL_ON:-error}"
	rc=$?
	echo "exit-code=$rc" >>"$out"
	exit "$rc"
	;;
*) fail "lint.sh: unknown mode $mode" ;;
esac
