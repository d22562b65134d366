#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# SPEC.md against the tables: the generated references match dslc's output,
# every keyword appears in a dsl example, every rule has a failing fixture
# whose expected output carries that rule's ID.
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin spec

section() { # the text between the markers of one generated section
	awk -v m="<!-- BEGIN GENERATED: $1 -->" '$0 == m {on = 1; next} /^<!-- END GENERATED -->$/ {on = 0} on' SPEC.md
}
generated() { # what a marker's section holds: a command's output, or a file in a dsl fence
	case $1 in
	"file "*) printf '```dsl\n'; cat "${1#file }"; printf '```\n' ;;
	toc) /usr/bin/python3 tests/spec_toc.py SPEC.md ;;
	*) $DSLC ${1#dslc } ;;
	esac
}
for cmd in "dslc keywords --markdown" "dslc rules --markdown" "dslc disruptions" "dslc help --markdown" \
	"file examples/hgx-b200/cluster.dsl" toc; do
	if [ "$(section "$cmd")" = "$(generated "$cmd")" ]; then
		ok "section '$cmd' is current"
	else
		no "section '$cmd' differs from the tables: regenerate it (make spec)"
	fi
done

examples=$(awk '/^ *```dsl$/ {on = 1; next} /^ *```$/ {on = 0} on' SPEC.md)
missing="" nkw=0
while IFS=$'\t' read -r block kw; do
	nkw=$((nkw + 1))
	grep -qw -- "$kw" <<<"$examples" || missing="$missing $block/$kw"
done < <($DSLC keywords)
# (a keyword list that did not come is no pass: there are well over 100)
if [ -z "$missing" ] && [ $nkw -gt 100 ]; then ok "every keyword ($nkw) has a dsl example"; else no "keywords ($nkw) without an example:$missing"; fi

nofix="" nrules=0
for id in $($DSLC rules | awk '{print $1}'); do
	nrules=$((nrules + 1))
	f=tests/golden/diag/$id.dsl
	[ -f "$f" ] && grep -q "\[$id\]" "${f%.dsl}.expected" 2>/dev/null || nofix="$nofix $id"
	$DSLC explain "$id" >/dev/null || nofix="$nofix explain:$id"
done
if [ -z "$nofix" ] && [ $nrules -gt 100 ]; then ok "every rule ($nrules) has a failing fixture and an explanation"; else no "rules ($nrules) without a fixture:$nofix"; fi
grep -q '^exit: 0$' tests/golden/diag/clean.expected && [ "$(wc -l <tests/golden/diag/clean.expected)" = 1 ] \
	&& ok "the passing fixture is clean" || no "tests/golden/diag/clean.dsl has findings"

tests_end
