#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# `dslc import` (issue 26, part 1) on what it meets in practice: a built
# tree imports as it is (hosts from the paths) and builds every node's
# daos_server.yml byte for byte again, with and without the topology export;
# the description is in fmt's layout, and importing the rebuilt tree gives the
# same description; a refused import writes nothing; exit statuses.
# DAOS's loader as the judge of meaning: tests/import_diff.py.
#   tests/import_tests.sh DSLC
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin import
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# roundtrip EXAMPLE [--topology X]: build, import the tree, build again
roundtrip() {
	local ex=$1
	shift
	rm -rf "$T/a" "$T/b"
	$DSLC build "examples/$ex/cluster.dsl" -o "$T/a" >/dev/null 2>&1 || { no "$ex builds"; return; }
	$DSLC import "$T"/a/nodes/*/etc/daos/daos_server.yml "$@" >"$T/$ex.dsl" 2>"$T/$ex.err"
	local rc=$? n=0 differ=""
	$DSLC build "$T/$ex.dsl" -o "$T/b" >/dev/null 2>"$T/$ex.build" || { no "$ex: the import (exit $rc) does not build: $(head -3 "$T/$ex.build")"; return; }
	for f in "$T"/a/nodes/*/etc/daos/daos_server.yml; do
		n=$((n + 1))
		cmp -s "$f" "$T/b/${f#"$T"/a/}" || differ="$differ ${f#"$T"/a/nodes/}"
	done
	check "$ex${1:+ $1}: $n nodes imported from their paths build the same daos_server.yml bytes${differ:+ (differ:$differ)}" \
		"[ $rc = 0 ] && [ -z '$differ' ] && [ $n -gt 0 ]"
}

roundtrip hgx-b200
grep -q '^nodes gpu\[001-014\] : server$' "$T/hgx-b200.dsl" && grep -q '^node gpu007 { exclude nvme 0000:a4:00.0 }$' "$T/hgx-b200.dsl" &&
	grep -q '^  swim_suspect_timeout 120s$' "$T/hgx-b200.dsl" && grep -q '^  fabric roce { gid_index 5 }$' "$T/hgx-b200.dsl" \
	&& ok "hgx-b200: one profile, gpu007's failed drive as an exclusion, SWIM and GID as their keywords" \
	|| no "hgx-b200: profile, exclusion or keywords: $(grep -n 'nodes\|node \|swim\|fabric' "$T/hgx-b200.dsl")"
# daos_server.yml names no RDMA device: the agent's domains stay unknown
# (fabric-domain-unknown) until the node type is described or exported
check "hgx-b200: no error and no other warning on the imported reference cluster" \
	"[ -s '$T/hgx-b200.dsl' ] && ! grep -q 'error\\[' '$T/hgx-b200.err' && [ -z \"\$(grep 'warning\\[' '$T/hgx-b200.err' | grep -v 'warning\\[fabric-domain-unknown\\]')\" ] || { cat '$T/hgx-b200.err'; false; }"

# the rebuilt tree imports to the same description (but the header's paths)
$DSLC import "$T"/b/nodes/*/etc/daos/daos_server.yml >"$T/again.full" 2>/dev/null
rc=$?
sed 1d "$T/again.full" >"$T/again.dsl"
check "hgx-b200: importing the rebuilt tree (exit $rc) gives the same description" "[ $rc = 0 ] && grep -q '^cluster ' '$T/again.dsl' && sed 1d '$T/hgx-b200.dsl' | cmp -s - '$T/again.dsl'"
check "hgx-b200: the description is in dslc fmt's layout" "$DSLC fmt --check - <'$T/hgx-b200.dsl' >/dev/null"

roundtrip hgx-b200 --topology "$PWD/examples/hgx-b200/hgx-b200.xml"
grep -q '^  reserve os 4 cores per numa$' "$T/hgx-b200.dsl" && grep -q '^  engine per numa {$' "$T/hgx-b200.dsl" &&
	! grep -q 'first_core\|cores_per_socket' "$T/hgx-b200.dsl" \
	&& ok "hgx-b200 --topology: the export's CPUs, reserve os 4 instead of first_core, one engine block" \
	|| no "hgx-b200 --topology: $(sed -n '/^hardware/,/^nodes/p' "$T/hgx-b200.dsl")"

roundtrip md-on-ssd
grep -q '^    nvme tier \[wal\] drives 1$' "$T/md-on-ssd.dsl" && grep -q '^    nvme tier \[data\]$' "$T/md-on-ssd.dsl" &&
	grep -q '^node st04 { exclude nvme 0000:a4:00.0 }$' "$T/md-on-ssd.dsl" && grep -q '^daos 2.8$' "$T/md-on-ssd.dsl" \
	&& ok "md-on-ssd: 2.8, tiers as counts with the rest last, st04's short data tier as an exclusion" \
	|| no "md-on-ssd: $(cat "$T/md-on-ssd.dsl")"
roundtrip aurora-like
grep -q '^    scm pmem$' "$T/aurora-like.dsl" && grep -q '^    pmem pmem1$' "$T/aurora-like.dsl" && grep -q '^nodes daos\[0001-0128\] : server$' "$T/aurora-like.dsl" \
	&& ok "aurora-like: PMem namespaces in the node type, 128 nodes in one range" || no "aurora-like: $(grep -n 'pmem\|nodes' "$T/aurora-like.dsl")"

# a refused import: located errors, nothing on stdout, exit 1
$DSLC import tests/golden/import/unsupported.yml --host srv01 >"$T/out" 2>"$T/err"
rc=$?
check "a refused import exits 1, writes nothing and locates each key" \
	"[ $rc = 1 ] && [ ! -s '$T/out' ] && grep -q 'unsupported.yml:6:1: error\[import-unsupported\]: fault_path' '$T/err' && grep -q 'unsupported.yml:18:9: error\[import-unsupported\]: storage tier .class: kdev.' '$T/err'"
$DSLC import "$T/missing.yml" --host srv01 >"$T/out" 2>"$T/err"
check "an unreadable file exits 2" "[ $? = 2 ] && [ ! -s '$T/out' ] && grep -q 'cannot read' '$T/err'"
$DSLC import tests/golden/import/first.yml >"$T/out" 2>"$T/err"
check "a file whose path names no node asks for --host" "[ $? = 1 ] && grep -q 'cannot tell which node .* is for' '$T/err' && grep -q -- '--host NAME' '$T/err'"
$DSLC import tests/golden/import/first.yml --host 'srv[01-02]' >"$T/out" 2>"$T/err"
check "--host with a name too many is a usage error (exit 2)" "[ $? = 2 ] && grep -q 'names 2 hosts for 1 file' '$T/err'"
# the same file for three hosts, as DAOS's 2.8 examples name three replicas
f=tests/oracle/daos_examples/2.8/daos_server_tcp.yml
$DSLC import $f $f $f --host example1,example2,example3 >"$T/out" 2>"$T/err"
check "three hosts of one file: one profile for example[1-3], no finding" \
	"[ $? = 0 ] && grep -q '^nodes example\[1-3\] : server$' '$T/out' && [ ! -s '$T/err' ]"
# a finding of dslc's own judgement: imported, shown at the description's line
$DSLC import tests/golden/import/mdonssd.yml --host srv01 >"$T/out" 2>"$T/err"
rc=$?
line=$(grep -n '^    scm ram$' "$T/out" | cut -d: -f1)
check "an unpinned scm_size imports, with scm-size-unpinned at its line of the description" \
	"[ $rc = 0 ] && [ -n '$line' ] && grep -q '^<stdout>:$line:5: error\[scm-size-unpinned\]' '$T/err'"
# the help line's proposal applied: a pinned size builds
sed 's/^    scm ram$/    scm ram 64GiB/' "$T/out" >"$T/pinned.dsl"
check "the description with the help's \`scm ram <N>GiB\` builds" "$DSLC build '$T/pinned.dsl' -o '$T/p' >/dev/null 2>&1"

# issue 41 item 0: a plain value folded over a blank line keeps a newline; it is refused at
# its YAML line, and the findings print from text the source set owns (ASan and valgrind
# run this in their suites: a use-after-free in build_lines before)
$DSLC import tests/golden/import/folded-newline.yml --host example >"$T/out" 2>"$T/err"
rc=$?
check "a value holding a newline is refused at its YAML line, nothing written (exit $rc)" \
	"[ $rc = 1 ] && [ ! -s '$T/out' ] && grep -q 'folded-newline.yml:13:20: error\[import-unsupported\]: it holds a control character' '$T/err'"
# fuzz_yaml's find of stop 64: an anchor aliased inside its own value made a
# cycle, and import recursed until the stack overflowed (exit 139); refused at
# the alias, as go-yaml refuses it ("anchor 'engine' value contains itself")
$DSLC import tests/golden/import/alias-cycle.yml --host example >"$T/out" 2>"$T/err"
rc=$?
check "an alias inside its own anchor's value: refused at the alias, nothing written (exit $rc)" \
	"[ $rc = 1 ] && [ ! -s '$T/out' ] && grep -q 'alias-cycle.yml:10:18: error\[syntax\]: YAML alias \*engine inside the value of its own anchor' '$T/err'"
# top-level fabric keys fill an engine's absent interface and absent or zero
# port, as DAOS's FabricConfig.Update does: imported per engine, and the
# description's build gives DAOS's loader the same D_INTERFACE and D_PORT
$DSLC import tests/golden/import/top-level-fabric.yml --host srv01 >"$T/tf.dsl" 2>"$T/err"
rc=$?
rm -rf "$T/tf" && $DSLC build "$T/tf.dsl" -o "$T/tf" >/dev/null 2>&1
check "top-level fabric_iface and fabric_iface_port: imported per engine (eth0 and eth1, both on port 20000), no error or warning (exit $rc)" \
	"[ $rc = 0 ] && ! grep -q 'error\\[\\|warning\\[' '$T/err' && grep -q '^    nic \\+eth0$' '$T/tf.dsl' && grep -q '^    nic \\+eth1$' '$T/tf.dsl' && grep -q '^  fabric_port 20000$' '$T/tf.dsl' && grep -q '^    fabric_port 20000$' '$T/tf.dsl' \
	&& grep -A3 'fabric_iface: eth1' '$T/tf/nodes/srv01/etc/daos/daos_server.yml' | grep -q 'fabric_iface_port: 20000' || { cat '$T/tf.dsl' '$T/err'; false; }"
if have_loader "top-level fabric import"; then
	loader_verdict -v "$T/tf/nodes/srv01/etc/daos/daos_server.yml"; rc2=$?
	check "top-level fabric import: DAOS's loader gives the built engines what it gave the file's (eth0 and eth1, port 20000)" \
		"[ $rc2 = 0 ] && echo \"\$LOADER_OUT\" | grep -q 'engine 0: env .*D_INTERFACE=eth0' && echo \"\$LOADER_OUT\" | grep -q 'engine 1: env .*D_INTERFACE=eth1' \
		&& [ \$(echo \"\$LOADER_OUT\" | grep -c 'engine [01]: env .*D_PORT=20000') = 2 ] || { echo \"\$LOADER_OUT\" | tail -n 4; false; }"
fi
# item 3: values ending in ':' are quoted, so the description scans to the values given
$DSLC import tests/golden/import/colon-values.yml --host example >"$T/colon.dsl" 2>"$T/err"
$DSLC lint "$T/colon.dsl" >"$T/lint" 2>&1
check "values ending in ':' are written quoted and read back whole (the checks see 'ab:' and 'ib0:')" \
	"grep -q '^cluster \"ab:\" {' '$T/colon.dsl' && grep -q \"error\\[system-name\\]: 'ab:' is not\" '$T/lint' && grep -q \"interface name 'ib0:' cannot be written\" '$T/lint' && ! grep -q 'error\\[syntax\\]' '$T/lint'"

# issue 57: what import refuses and what it writes with DAOS's own leniency,
# on gpu001's file with the topology export (each engine's NUMA node from its
# first_core and the export's cores)
X="$PWD/examples/hgx-b200/hgx-b200.xml"
rm -rf "$T/a" && $DSLC build examples/hgx-b200/cluster.dsl -o "$T/a" >/dev/null 2>&1
mkdir -p "$T/same/nodes/gpu001/etc/daos" "$T/swap/nodes/gpu001/etc/daos"
# both engines on NUMA node 0: dslc places one engine per NUMA node
sed 's/^  first_core: 100$/  first_core: 4/' "$T/a/nodes/gpu001/etc/daos/daos_server.yml" >"$T/same/nodes/gpu001/etc/daos/daos_server.yml"
$DSLC import "$T/same/nodes/gpu001/etc/daos/daos_server.yml" --topology "$X" >"$T/same.dsl" 2>"$T/same.err"
rc=$?
check "two engines on one NUMA node: refused at the second engine, nothing written (exit $rc)" \
	"[ $rc = 1 ] && [ ! -s '$T/same.dsl' ] && grep -q 'daos_server.yml:50:3: error\[import-unsupported\]: engines 0 and 1 are both on NUMA node 0' '$T/same.err'"
# each engine given the other's drive: DAOS starts so (it warns), so import writes it, and says
# which errors dslc build will refuse
sed 's/"0000:21:00.0"/"SWAP"/; s/"0000:a1:00.0"/"0000:21:00.0"/; s/"SWAP"/"0000:a1:00.0"/' "$T/a/nodes/gpu001/etc/daos/daos_server.yml" \
	>"$T/swap/nodes/gpu001/etc/daos/daos_server.yml"
$DSLC import "$T/swap/nodes/gpu001/etc/daos/daos_server.yml" --topology "$X" >"$T/swap.dsl" 2>"$T/swap.err"
rc=$?
check "each engine's drive on the other NUMA node: imported as DAOS accepts it (exit $rc), the two findings at their lines" \
	"[ $rc = 0 ] && grep -q '^nodes\\? gpu001' '$T/swap.dsl' && [ \"\$(grep -c 'error\[device-numa-mismatch\]' '$T/swap.err')\" = 2 ] && grep -q 'dslc build. refuses it until the errors are fixed' '$T/swap.err'"
tests_end
