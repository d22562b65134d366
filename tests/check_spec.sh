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
# what users read cites what users can open: no project-internal fact sheet
# (../shared/...) in an explanation, a man page or the SARIF rules
private="" read=0
S=$(mktemp)
for id in $($DSLC rules | awk '{print $1}'); do
	$DSLC explain "$id" >"$S" 2>&1 && [ -s "$S" ] && read=$((read + 1))
	grep -q '\.\./shared\|shared/facts' "$S" && private="$private $id"
done
for page in dslc dslc-language dslc-rules; do
	$DSLC manpage $page >"$S" 2>&1 && grep -q '^\.SH' "$S" && read=$((read + 1))
	grep -q '\.\./shared\|shared/facts' "$S" && private="$private man:$page"
done
printf 'daos 2.6\n' >"$S.dsl"
$DSLC lint --format sarif "$S.dsl" >"$S" 2>/dev/null
grep -q '"rules"' "$S" && read=$((read + 1))
grep -q '\.\./shared\|shared/facts' "$S" && private="$private sarif"
rm -f "$S" "$S.dsl"
grep -q '\.\./shared/facts\|shared/facts/' SPEC.md && private="$private SPEC.md"
if [ -z "$private" ] && [ "$read" = $((nrules + 4)) ]; then
	ok "no explanation ($nrules), man page (3), SARIF rule table or SPEC.md cites a file users do not have (../shared/facts)"
else no "cites ../shared/facts:$private (texts read: $read of $((nrules + 4)))"; fi
grep -q '^exit: 0$' tests/golden/diag/clean.expected && [ "$(wc -l <tests/golden/diag/clean.expected)" = 1 ] \
	&& ok "the passing fixture is clean" || no "tests/golden/diag/clean.dsl has findings"

tests_end
