#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# `dslc fmt` (issue 26, part 2) over every example, fixture and fuzz seed:
# idempotent, every comment kept, and the same program: an example builds
# byte-identical trees, a fixture lints to the same findings (rule ids; the
# lines move when blank lines go). --check names a disturbed file and exits
# 1; a file is rewritten in place with its mode; a file that does not parse
# is left alone.
#   tests/fmt_tests.sh DSLC [quick]   (quick, the ASan pass: the examples are
#   formatted and checked, not built twice; the plain pass builds them)
set -u
DSLC=$1
QUICK=${2:-}
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin fmt
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the formatted copies are written beside copies of the files (repo_copy)
repo_copy "$T/r" examples tests/topologies tests/golden/diag tests/fuzz/seeds/dsl || { tests_end; exit 1; }

comments() { grep -o '#.*' "$1" | sed 's/[ \t\r]*$//'; }
# the sorted rule ids of a file's findings (the JSON report has one "ruleId" per finding)
# (a lint that did not end, exit 2 or more, names its file, so that two never compare equal)
rules() {
	local o rc
	o=$($DSLC lint "$1" --format json 2>/dev/null)
	rc=$?
	[ $rc -le 1 ] || { echo "dslc lint $1: exit $rc"; return; }
	printf '%s\n' "$o" | grep -o '"ruleId": *"[^"]*"' | sort
}

n=0 not_idem="" lost="" changed="" refused=0 bad_refusal=""
for f in examples/*/*.dsl tests/golden/diag/*.dsl tests/fuzz/seeds/dsl/*.dsl; do
	n=$((n + 1))
	d=$(dirname "$f") b=$(basename "$f")
	out=$T/r/$d/.fmt-$b
	if ! $DSLC fmt - <"$f" >"$out" 2>"$T/err"; then
		refused=$((refused + 1))
		# only a file that does not parse is refused, with nothing on stdout
		{ [ ! -s "$out" ] && $DSLC lint "$f" 2>&1 | grep -q 'error\[syntax\]\|error\[input-limit\]'; } || bad_refusal="$bad_refusal $f"
		rm -f "$out"
		continue
	fi
	$DSLC fmt - <"$out" | cmp -s - "$out" || not_idem="$not_idem $f"
	[ "$(comments "$f")" = "$(comments "$out")" ] || lost="$lost $f"
	case $QUICK:$f in
	quick:examples/*) ;;
	*:examples/*)
		$DSLC build "$f" -o "$T/a" >/dev/null 2>&1
		ra=$?
		$DSLC build "$out" -o "$T/b" >/dev/null 2>&1
		rb=$?
		if [ $ra != 0 ] && [ -f "$d/cluster.dsl" ]; then
			# a fragment (hardware.dsl) does not build alone: the example
			# built with the formatted fragment in its place
			rm -rf "$T/a" "$T/b" "$T/ex"
			cp -r "$d" "$T/ex" && rm -f "$T/ex"/.fmt-* && cp "$out" "$T/ex/$b"
			sed -i "s|include \"\.\./|include \"$PWD/examples/|" "$T/ex/cluster.dsl"
			$DSLC build "$d/cluster.dsl" -o "$T/a" >/dev/null 2>&1
			ra=$?
			$DSLC build "$T/ex/cluster.dsl" -o "$T/b" >/dev/null 2>&1
			rb=$?
		fi
		{ [ $ra = 0 ] && [ $rb = 0 ] && diff -r "$T/a" "$T/b" >/dev/null; } || changed="$changed $f"
		rm -rf "$T/a" "$T/b"
		;;
	*)
		[ "$(rules "$f")" = "$(rules "$out")" ] || changed="$changed $f"
		;;
	esac
	rm -f "$out"
done
# each holds for the files fmt formatted: most of them (a refusal is checked below)
formatted=$((n - refused))
check "$formatted of $n files formatted: every formatted file formats to itself${not_idem:+ (not:$not_idem)}" "[ -z '$not_idem' ] && [ $formatted -gt 150 ]"
check "every comment is kept, in order${lost:+ (lost in:$lost)}" "[ -z '$lost' ] && [ $formatted -gt 150 ]"
check "every example builds the same tree and every fixture lints to the same rules after fmt${changed:+ (not:$changed)}" "[ -z '$changed' ] && [ $formatted -gt 150 ]"
check "$refused files refused, each one that does not parse${bad_refusal:+ (wrongly:$bad_refusal)}" "[ -z '$bad_refusal' ] && [ $refused -gt 0 ]"

# CRLF line ends (a file saved on Windows), in every construct of the examples
# and fixtures with trailing comments: the same text as from the LF file, and
# not one \r left (a \r kept before a comment's end is no blank to the eye)
crlf_bad="" crlf_n=0
for f in examples/*/*.dsl tests/golden/diag/*.dsl; do
	grep -q '#' "$f" || continue
	$DSLC fmt - <"$f" >"$T/lf.out" 2>/dev/null || continue
	crlf_n=$((crlf_n + 1))
	sed 's/$/\r/' "$f" | $DSLC fmt - >"$T/crlf.out" 2>/dev/null
	rc=$?
	{ [ $rc = 0 ] && [ -s "$T/crlf.out" ] && cmp -s "$T/lf.out" "$T/crlf.out" && ! grep -q "$(printf '\r')" "$T/crlf.out"; } || crlf_bad="$crlf_bad $f"
done
check "$crlf_n files with comments, their lines ended CRLF: the LF file's layout, no \\r left${crlf_bad:+ (not:$crlf_bad)}" \
	"[ -z '$crlf_bad' ] && [ $crlf_n -gt 100 ]"

# --check, in place, modes, stdin
mkdir -p "$T/w"
cp examples/hgx-b200/hardware.dsl examples/hgx-b200/hgx-b200.xml "$T/w/"
$DSLC fmt - <examples/hgx-b200/cluster.dsl >"$T/w/cluster.dsl"
$DSLC fmt --check "$T/w/cluster.dsl" >"$T/out" 2>&1
check "--check on a formatted file: exit 0, nothing said" "[ $? = 0 ] && [ ! -s '$T/out' ]"
sed 's/^  targets 16/targets     16/; s/^  os azurelinux3$/  os azurelinux3   /' "$T/w/cluster.dsl" >"$T/w/disturbed.dsl"
printf '\n\n\n' >>"$T/w/disturbed.dsl"
chmod 640 "$T/w/disturbed.dsl"
$DSLC fmt --check "$T/w/cluster.dsl" "$T/w/disturbed.dsl" >"$T/out" 2>&1
rc=$?
check "--check on a disturbed file among formatted ones: exit 1, names it alone" \
	"[ $rc = 1 ] && [ \"\$(cat '$T/out')\" = '$T/w/disturbed.dsl' ] && ! cmp -s '$T/w/cluster.dsl' '$T/w/disturbed.dsl'"
$DSLC fmt "$T/w/disturbed.dsl" 2>"$T/err"
rc=$?
check "fmt FILE rewrites it in place: the formatted text, its mode kept (640), no temporary file left" \
	"[ $rc = 0 ] && cmp -s '$T/w/cluster.dsl' '$T/w/disturbed.dsl' && [ \"\$(stat -c %a '$T/w/disturbed.dsl')\" = 640 ] && [ -z \"\$(ls '$T/w' | grep fmt-)\" ]"
# a symbolic link is not written through: the rename would replace the link
{ cat "$T/w/cluster.dsl"; printf '\n\n\n'; } >"$T/w/target.dsl"
cp "$T/w/target.dsl" "$T/w/target.orig"
ln -s target.dsl "$T/w/link.dsl"
$DSLC fmt "$T/w/link.dsl" >"$T/out" 2>&1
rc=$?
check "a symbolic link: exit 2, the link and its target left as they are" \
	"[ $rc = 2 ] && grep -q 'symbolic link' '$T/out' && [ -L '$T/w/link.dsl' ] && cmp -s '$T/w/target.dsl' '$T/w/target.orig'"
printf 'daos 2.6\ncluster c {\n  provider "x\n' >"$T/w/broken.dsl"
cp "$T/w/broken.dsl" "$T/w/broken.orig"
$DSLC fmt "$T/w/broken.dsl" >"$T/out" 2>&1
rc=$?
check "a file that does not parse: exit 1, its error shown, the file untouched" \
	"[ $rc = 1 ] && grep -q 'error\\[syntax\\]' '$T/out' && cmp -s '$T/w/broken.dsl' '$T/w/broken.orig'"
$DSLC fmt "$T/w/missing.dsl" >"$T/out" 2>&1
check "a missing file: exit 2" "[ $? = 2 ]"
$DSLC fmt >"$T/out" 2>&1
check "no file: a usage error (exit 2)" "[ $? = 2 ] && grep -q 'fmt needs files' '$T/out'"

# what the layout is, on a small input
printf 'cluster c {\n\n      provider "ofi+tcp"   # p\naccess_points n[1-3]    # a\n  log_mask     ERR\n\n\n}\nnodes n[1-3] : p { mgmt 10.0.0.{i}/24 }\n\n\n' >"$T/small.dsl"
printf 'cluster c {\n  provider      "ofi+tcp"  # p\n  access_points n[1-3]     # a\n  log_mask      ERR\n}\nnodes n[1-3] : p { mgmt 10.0.0.{i}/24 }\n' >"$T/small.want"
$DSLC fmt - <"$T/small.dsl" >"$T/small.got" 2>&1
check "the layout: 2 blanks per block, values aligned in a run that had it, comments at one column, no blank line inside braces or at the end" \
	"cmp -s '$T/small.got' '$T/small.want' || { diff '$T/small.want' '$T/small.got'; false; }"

# the shipped examples are in the layout (the workflow's and the hook's check passes on them)
$DSLC fmt --check examples/*/*.dsl >"$T/chk" 2>&1
check "every shipped example is in fmt's layout (fmt --check exits 0)" "[ $? = 0 ] || { cat '$T/chk'; false; }"
tests_end
