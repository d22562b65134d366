#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 43 item 1: every row of the disruption table pinned. `dslc disruptions`
# (the table the binary carries) is compared row by row with
# tests/disruption_expected.tsv, a list kept apart from schemas/disruption.def
# and written from each row's source: a class changed (nr_xs_helpers from
# reformat to engine-restart), a row added or dropped, fails here.
#   tests/disruption_pinned.sh DSLC
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin disruption-pinned
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
$DSLC disruptions >"$T/table.md" 2>"$T/err"
rc=$?
check "dslc disruptions prints the table (exit $rc)" "[ $rc = 0 ] && [ -s '$T/table.md' ]"
# the table's rows as target|key|class (COUPLE:class for couplings)
awk -F' [|] ' '/^\| `/ && NF == 4 { gsub(/`/, ""); sub(/^\| /, "", $1); print $1 "|" $2 "|" $3 }
	/^\| `/ && NF == 5 { gsub(/`/, ""); sub(/^\| /, "", $1); print $1 "|" $2 "|COUPLE:" $4 }' "$T/table.md" |
	grep -v '^[a-z+-]*|yes|\|^[a-z+-]*|no|' | sort >"$T/got"
grep -v '^#\|^plan:' tests/disruption_expected.tsv | awk -F'\t' 'NF >= 3 { print $1 "|" $2 "|" $3 }' | sort >"$T/want"
n=$(wc -l <"$T/want")
while IFS='|' read -r target key class; do
	got=$(grep -F "$target|$key|" "$T/got" | grep -v "|COUPLE:" | cut -d'|' -f3)
	# a key may need several couplings (agents and mounts): this one among them
	[ "${class#COUPLE:}" != "$class" ] && got=$(grep -Fx "$target|$key|$class" "$T/got" | cut -d'|' -f3)
	check "$target $key: $class" "[ '$got' = '$class' ]" || true
done <"$T/want"
extra=$(comm -23 "$T/got" "$T/want" | tr '\n' ' ')
check "the table has no row the expected list lacks ($n rows)${extra:+: $extra}" "[ -s '$T/got' ] && [ -z '$extra' ]"

# the plans: the classes a node's wave gets where its context raises a change's class
cp -r examples/hgx-b200 "$T/ex"
sed 's|storage ens1f0np0 10.20.0.{10+i}/24|storage ens1f0np0 10.22.0.{10+i}/24|' "$T/ex/cluster.dsl" >"$T/ex/storage-address.dsl"
sed 's|kernel { iommu pt  irqaffinity os }|kernel { iommu pt  irqaffinity os  param nosoftlockup }|' "$T/ex/cluster.dsl" >"$T/ex/kernel-param.dsl"
# (a loop fed by a redirection, not a pipe: a piped loop runs in a subshell, and its checks would not count)
while IFS='	' read -r case what want source; do
	c=${case#plan:}
	$DSLC plan "$T/ex/$c.dsl" --against-source "$T/ex/cluster.dsl" --format json >"$T/$c.json" 2>/dev/null
	got=$(python3 -c 'import json,sys; print(",".join(json.load(open(sys.argv[1]))["rollout"]["waves"][0]["classes"]))' "$T/$c.json" 2>/dev/null)
	check "plan $c ($what): wave classes $want" "! cmp -s '$T/ex/$c.dsl' '$T/ex/cluster.dsl' && [ '$got' = '$want' ]" || echo "    got: $got ($source)"
done < <(grep '^plan:' tests/disruption_expected.tsv)
tests_end
