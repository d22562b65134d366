#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 38: fidelity to the deployments dslc is built from (the Aurora
# tutorials, the converged HGX B200 talk, the IO500 write-up). Each check
# names the document's words it holds dslc to.
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin fidelity
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
A=examples/aurora-like

# dslc lint FILE >OUT: LRC is its exit status; `ended OUT` says the run ended
# as dslc ends (exit 0 or 1, its closing summary last; a clean file prints
# nothing), so that a check for absent text never passes on a crash
lint_to() { $DSLC lint "$1" >"$2" 2>&1; LRC=$?; return $LRC; }
ended() {
	[ "$LRC" -le 1 ] || return
	[ "$LRC" = 0 ] && [ ! -s "$1" ] || tail -n 1 "$1" | grep -q '^dslc: [0-9][0-9]* error'
}

# a copy of the Aurora-like example with one line changed: sed expression
aurora() { rm -rf "$T/a" && cp -r $A "$T/a" && sed -i "$1" "$T/a/cluster.dsl"; }

# 11. "daos 2.6.5-rc1" (the talk's release) is that release
aurora 's/^daos 2.6$/daos 2.6.5-rc1/'
lint_to "$T/a/cluster.dsl" "$T/out"
check "11: daos 2.6.5-rc1 lints clean as 2.6.5 (exit 0)" "[ $? = 0 ] || { cat '$T/out'; false; }"
aurora 's/^daos 2.6$/daos 2.6.5-RC1/'
lint_to "$T/a/cluster.dsl" "$T/out"
check "11: daos 2.6.5-RC1 (not a DAOS tag) is refused at the release" \
	"grep -q \"cluster.dsl:10:6: error\\[bad-value\\]: '2.6.5-RC1' is not a release\" '$T/out' || { cat '$T/out'; false; }"

# 12. "100 PB tenant": PiB is a size unit; a refused size is one finding
aurora 's/size   90%/size   2PiB/'
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
check "12: size 2PiB builds and dmg gets --size='2PiB' (go-humanize ParseBytes reads pib)" \
	"grep -q \"pool create 'projects' --size='2PiB'\" '$T/a/out/cluster/daos-pools.sh' || { cat '$T/out'; false; }"
aurora 's/size   90%/size   100PB/'
lint_to "$T/a/cluster.dsl" "$T/out"
check "12: size 100PB is one finding (decimal unit, write PiB) and no 'pool has no size' besides" \
	"grep -q \"error\\[bad-value\\]: '100PB': decimal or ambiguous unit: write KiB, MiB, GiB, TiB or PiB\" '$T/out' && [ \$(grep -c 'error\\[' '$T/out') = 1 ] || { cat '$T/out'; false; }"

# 9. the reference layout (OS cores at each NUMA node's start) loses NUMA
# pinning: a note with an id, and its help applied gives it back. The example
# allows it with its reason (the layout is deliberate): as committed it lints
# with no finding at all; without the allow the note is there
H=examples/hgx-b200
$DSLC lint --format json $H/cluster.dsl >"$T/out" 2>&1
rc=$?
check "9: examples/hgx-b200 as committed: no finding (its deliberate layout allowed with a reason)" \
	"[ $rc = 0 ] && grep -q '\"findings\": \[\]' '$T/out' && grep -q '# dslc: allow numa-pin-dropped -- ' $H/cluster.dsl || { cat '$T/out'; false; }"
rm -rf "$T/h" && cp -r $H "$T/h"
sed -i 's/ *# dslc: allow numa-pin-dropped -- .*//' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
rc=$?
check "9: examples/hgx-b200 gets note[numa-pin-dropped] at its reserve os line (exit 0: a note)" \
	"[ $rc = 0 ] && grep -q 'cluster.dsl:32:3: note\\[numa-pin-dropped\\]: engine 0 starts at core 4, not NUMA node 0' '$T/out' || { cat '$T/out'; false; }"
v=$(sed -n 's/^help: write `\(reserve os [^`]*\)`$/\1/p' "$T/out")
sed -i "s/^  reserve os 4 cores per numa$/  $v/" "$T/h/cluster.dsl"
$DSLC build "$T/h/cluster.dsl" -o "$T/h/out" >"$T/out2" 2>&1
rc=$?
check "9: the help's \`$v\` applied: no numa-pin-dropped, no error, and daos_server.yml pins each engine (pinned_numa_node 0 and 1, no first_core)" \
	"[ -n '$v' ] && [ $rc = 0 ] && ! grep -q 'numa-pin-dropped' '$T/out2' && ! grep -q 'error\\[' '$T/out2' && grep -q '^  pinned_numa_node: 1' \$(ls -d '$T/h/out/nodes/'*/etc/daos/daos_server.yml | head -1) && ! grep -q first_core \$(ls -d '$T/h/out/nodes/'*/etc/daos/daos_server.yml | head -1) || { cat '$T/out' '$T/out2'; false; }"
$DSLC explain numa-pin-dropped >"$T/out" 2>&1
check "9: dslc explain numa-pin-dropped names DAOS's SetEngineAffinities" "grep -q 'SetEngineAffinities' '$T/out'"

# 13. RAM SCM without MD-on-SSD: a note that the pool metadata is in tmpfs
rm -rf "$T/h" && cp -r $H "$T/h" && sed -i '/^    nvme    roles \[wal meta data\]/d' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
rc=$?
check "13: scm ram without roles: note[scm-ram-volatile] at the scm line, once for the node type (exit 0)" \
	"[ $rc = 0 ] && grep -q 'cluster.dsl:37:5: note\\[scm-ram-volatile\\]: the engine on NUMA node 0 keeps its pool metadata in tmpfs' '$T/out' && [ \$(grep -c 'scm-ram-volatile' '$T/out') = 1 ] || { cat '$T/out'; false; }"
lint_to $H/cluster.dsl "$T/out"
check "13: with nvme roles [wal meta data] (examples/hgx-b200) no scm-ram-volatile" "ended '$T/out' && ! grep -q scm-ram-volatile '$T/out'"
rm -rf "$T/h" && cp -r $H "$T/h" && sed -i '/^    nvme    roles \[wal meta data\]/d' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
v=$(sed -n 's/^help: add `\(nvme roles \[[a-z ]*\]\)` to the engine for MD-on-SSD.*/\1/p' "$T/out")
sed -i "s/^    scm     ram 64GiB .*/&\n    $v/" "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
check "13: the help's \`$v\` applied in the engine block: no scm-ram-volatile, no error" \
	"[ -n '$v' ] && ended '$T/out' && [ \$LRC = 0 ] && ! grep -q 'scm-ram-volatile\\|error\\[' '$T/out' || { cat '$T/out'; false; }"

# 1. Slingshot clients keep their NICs: fabric_ifaces with the cxi domains,
# and a summary line that claims only what daos_agent.yml holds
$DSLC build $A/cluster.dsl -o "$T/ao" >"$T/ao.out" 2>&1
cp "$T/ao.out" "$T/out"
ag="$T/ao/nodes/uan003/etc/daos/daos_agent.yml"
check "1: uan003's daos_agent.yml lists hsn0/cxi0 under NUMA node 0 and hsn1/cxi1 under NUMA node 1" \
	"python3 -c 'import sys,yaml; d=yaml.safe_load(open(sys.argv[1])); sys.exit(d[\"fabric_ifaces\"]!=[{\"numa_node\":0,\"devices\":[{\"iface\":\"hsn0\",\"domain\":\"cxi0\"}]},{\"numa_node\":1,\"devices\":[{\"iface\":\"hsn1\",\"domain\":\"cxi1\"}]}])' '$ag' || { cat '$ag'; false; }"
check "1: the build says so: 'daos_agent.yml with fabric_ifaces hsn0, hsn1'" \
	"grep -q 'uan\\[001-032\\]: client only (no engines): daos_agent.yml with fabric_ifaces hsn0, hsn1\$' '$T/out'"
rm -rf "$T/a" && cp -r $A "$T/a" && sed -i 's/ rdma cxi1//' "$T/a/hardware.dsl"
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
check "1: without hsn1's domain: warning[fabric-domain-unknown] at hsn1's line, help \`rdma cxi1\`" \
	"grep -q 'hardware.dsl:27:10: warning\\[fabric-domain-unknown\\]: the ofi+cxi domain of hsn1' '$T/out' && grep -q 'help: write \`rdma cxi1\` on hsn1' '$T/out' || { cat '$T/out'; false; }"
check "1: ... no fabric_ifaces in the file, and the summary says so (never 'with fabric_ifaces')" \
	"! grep -q fabric_ifaces '$T/a/out/nodes/uan003/etc/daos/daos_agent.yml' && grep -q 'daos_agent.yml without fabric_ifaces (the agent scans the fabric: no domain for hsn1)' '$T/out' && ! grep -q 'with fabric_ifaces' '$T/out' || { cat '$T/out'; false; }"
# every summary claim, for every client node type, against the files written
claims_true() { # out-dir build-output
	local ok=0 n=0
	while read -r nodes nics; do
		n=$((n + 1))
		for nic in $(echo "$nics" | tr ',' ' '); do
			grep -q "iface: $nic\$" "$1"/nodes/$nodes*/etc/daos/daos_agent.yml 2>/dev/null || ok=1
		done
	done < <(sed -n 's/^dslc: nodes \([a-z]*\)\[.*daos_agent.yml with fabric_ifaces \(.*\)$/\1 \2/p' "$2")
	[ $ok = 0 ] && [ $n -gt 0 ]
}
check "1: every 'with fabric_ifaces' claim of the Aurora-like build is in the files" "claims_true '$T/ao' '$T/ao.out'"
sed -i 's/ role storage$/ role storage rdma cxi1/; s/hsn1 pci 0000:83:00.0 role storage rdma cxi1 rdma cxi1/hsn1 pci 0000:83:00.0 role storage rdma cxi1/' "$T/a/hardware.dsl"
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
check "1: the help's \`rdma cxi1\` applied: no warning, fabric_ifaces back" \
	"! grep -q 'warning\\[' '$T/out' && grep -q 'domain: cxi1' '$T/a/out/nodes/uan003/etc/daos/daos_agent.yml' || { cat '$T/out'; false; }"

# 15a. a NIC allowed off its engine's NUMA node is listed under its own node
D=tests/golden/diag
sed 's|"../../../examples|"'"$PWD"'/examples|; s|^  engine numa 0 { nic ens2f0np0 }|  # dslc: allow nic-not-local -- test\n  engine numa 0 { nic ens2f0np0 }|' $D/nic-not-local.dsl >"$T/nnl.dsl"
$DSLC build "$T/nnl.dsl" -o "$T/nnl" >"$T/out" 2>&1
rc=$?
ag="$T/nnl/nodes/gpu001/etc/daos/daos_agent.yml"
check "15a: allow nic-not-local builds (no internal-consistency) and daos_agent.yml lists ens2f0np0 once, under NUMA node 1" \
	"[ $rc = 0 ] && python3 -c 'import sys,yaml; d=yaml.safe_load(open(sys.argv[1])); sys.exit(d[\"fabric_ifaces\"]!=[{\"numa_node\":1,\"devices\":[{\"iface\":\"ens2f0np0\",\"domain\":\"mlx5_1\"}]}])' '$ag' || { cat '$T/out'; false; }"

# 15b. an engine set by first_core with no drives and a remote NIC: DAOS ties
# it to no NUMA node, so the YAML check takes its cores' node
cat >"$T/b15.dsl" <<EOD
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "$PWD/examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  # dslc: allow nic-not-local -- test
  engine numa 0 {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme file "/var/daos/bdev0" size 64GiB
    nic ens2f0np0
  }
}
nodes gpu[001-014] : converged
EOD
$DSLC build "$T/b15.dsl" -o "$T/b15" >"$T/out" 2>&1
rc=$?
y="$T/b15/nodes/gpu001/etc/daos/daos_server.yml"
check "15b: first_core 4 with the NIC on NUMA node 1 and no drives builds (exit 0), first_core: 4 written" \
	"[ $rc = 0 ] && grep -q '^  first_core: 4\$' '$y' || { cat '$T/out'; false; }"
$DSLC lint --topology examples/hgx-b200/hgx-b200.xml "$y" >"$T/out" 2>&1
check "15b: dslc lint of that daos_server.yml: nic-not-local (the NIC is what is remote), no first-core-outside-numa" \
	"grep -q 'error\\[nic-not-local\\]: ens2f0np0 is on NUMA node 1, but engine 0 runs on NUMA node 0' '$T/out' && ! grep -q first-core-outside-numa '$T/out' || { cat '$T/out'; false; }"

# 15c. DAOS's code 714 notice (unequal drive counts): a note, where DAOS's
# own loader prints it and only there
sed 's|"../../../examples|"'"$PWD"'/examples|' $D/dsl-nvme-excluded.dsl | head -16 >"$T/u.dsl"
printf 'node gpu007 {\n  exclude nvme 0000:a4:00.0 0000:a2:00.0 0000:a3:00.0\n}\n' >>"$T/u.dsl"
$DSLC build "$T/u.dsl" -o "$T/u" >"$T/out" 2>&1
check "15c: gpu007 with 1 drive on NUMA node 1: note[nvme-count-unequal] for node gpu007" \
	"grep -q 'note\\[nvme-count-unequal\\]: the engine on NUMA node 1 has 1 drive, the one on NUMA node 0 has 4' '$T/out' || { cat '$T/out'; false; }"
if have_loader "15c: DAOS's loader on gpu001 and gpu007"; then
	for n in gpu001 gpu007; do
		y="$T/u/nodes/$n/etc/daos/daos_server.yml"
		loader_verdict -v "$y"
		v=$?
		echo "$LOADER_OUT" >"$T/daos"
		$DSLC lint "$y" >"$T/ours" 2>&1
		d=$(grep -c 'code = 714' "$T/daos"); o=$(grep -c 'note\[nvme-count-unequal\]' "$T/ours")
		check "15c: $n: DAOS's loader accepts it and prints code 714 $d time(s), dslc lint of the file notes it $o time(s)" "[ $v = 0 ] && [ $d = $o ] && [ $d = \$([ $n = gpu007 ] && echo 1 || echo 0) ] || { tail -3 '$T/daos'; false; }"
	done
fi

# 4. "--disable-caching: required if doing read/write from multiple nodes"
aurora '/^  caching off /d'
lint_to "$T/a/cluster.dsl" "$T/out"
check "4: datasets mounted read-write on uan[001-032] with caching on: warning[mount-caching-shared] at the mount" \
	"grep -q 'cluster.dsl:[0-9]*:7: warning\\[mount-caching-shared\\]: container datasets is mounted read-write on several nodes' '$T/out' || { cat '$T/out'; false; }"
v=$(sed -n 's/^help: write `\(caching [a-z]*\)` in this mount block.*/\1/p' "$T/out")
sed -i "/^mount \/mnt\/daos\/datasets/,/^}/s|^  multi_user true\$|  multi_user true\\n  $v|" "$T/a/cluster.dsl"
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
check "4: the help's \`$v\` applied: no warning, and the dfuse unit runs with --disable-caching" \
	"[ -n '$v' ] && ! grep -q 'warning\\[' '$T/out' && grep -q 'ExecStart=.*--disable-caching' '$T/a/out/nodes/uan001/etc/systemd/system/dfuse-mnt-daos-datasets.service' || { cat '$T/out'; false; }"
aurora 's/^  multi_user true$/  multi_user true\n  read_only true/; /^  caching off /d'
lint_to "$T/a/cluster.dsl" "$T/out"
check "4: read_only true on every node: no mount-caching-shared" "ended '$T/out' && ! grep -q mount-caching-shared '$T/out'"
aurora 's/^  on uan\[001-032\]$/  on uan001/; /^  caching off /d'
lint_to "$T/a/cluster.dsl" "$T/out"
check "4: read-write with caching on one node only: no mount-caching-shared" "ended '$T/out' && ! grep -q mount-caching-shared '$T/out'"

# 8. RoCE as the talk runs it: a GID index even without `fabric roce` when
# the export shows RoCE NICs; no ucx+dc_x on 2.6; a note on the fixed index
rm -rf "$T/h" && cp -r $H "$T/h" && sed -i '/^  fabric roce {$/,/^  }$/d' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
check "8: no fabric line, RoCE NICs in the export, verbs: error[roce-gid-index] at the provider line, noting the mlx5_ib reload" \
	"grep -q 'cluster.dsl:17:3: error\\[roce-gid-index\\]: ens1f0np0 (mlx5_0) is an Ethernet port with an RDMA device' '$T/out' && grep -q 'after reloading mlx5_ib costs a reload on every boot, and a reload resets every RDMA user (NCCL jobs)' '$T/out' || { cat '$T/out'; false; }"
sed -i 's/^  provider             "ofi+verbs;ofi_rxm"$/  provider             "ucx+dc_x"/' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
check "8: ucx+dc_x on those RoCE NICs with DAOS 2.6: warning[ucx-dc-roce] at the provider line, help verbs" \
	"grep -q 'cluster.dsl:17:3: warning\\[ucx-dc-roce\\]: provider ucx+dc_x on RoCE with DAOS 2.6 hits DAOS-18828' '$T/out' && grep -q 'help: use \`provider \"ofi+verbs;ofi_rxm\"\`' '$T/out' || { cat '$T/out'; false; }"
v=$(sed -n 's/^help: use `\(provider "[^`]*"\)`$/\1/p' "$T/out")
cp "$T/h/cluster.dsl" "$T/h/ucx.dsl"
sed -i "s/^  provider             \"ucx+dc_x\"\$/  $v; fabric roce { gid_index 5 }/" "$T/h/ucx.dsl"
lint_to "$T/h/ucx.dsl" "$T/out2"
check "8: the help's \`$v\` applied (with the talk's GID index): no ucx-dc-roce, no error" \
	"[ -n '$v' ] && ended '$T/out2' && [ \$LRC = 0 ] && ! grep -q 'ucx-dc-roce\\|error\\[' '$T/out2' || { cat '$T/out2'; false; }"
sed -i 's/^daos 2.6$/daos 2.8/' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
check "8: ucx+dc_x with DAOS 2.8: no ucx-dc-roce" "ended '$T/out' && ! grep -q ucx-dc-roce '$T/out'"

# 2. client environment: client_env -> client_env_vars (the agent hands them
# to clients), a mount's env -> dfuse's Environment=, with DAOS's own names
$DSLC build $A/cluster.dsl -o "$T/ao" >/dev/null 2>&1
y="$T/ao/nodes/daos0001/etc/daos/daos_server.yml"
check "2: client_env FI_MR_CACHE_MONITOR=kdreg2 is daos_server.yml's client_env_vars" \
	"python3 -c 'import sys,yaml; sys.exit(yaml.safe_load(open(sys.argv[1])).get(\"client_env_vars\")!=[\"FI_MR_CACHE_MONITOR=kdreg2\"])' '$y' || { cat '$y'; false; }"
if have_loader "2: DAOS's loader on that daos_server.yml"; then
	check "2: DAOS's loader accepts that daos_server.yml" "loader_accepts '$y'"
fi
for bad in 'D_LOG_MASK=DEBUG:daos_init reads it before' 'D_IL_REPORT=1:the interception library reads it' \
	'FI_OFI_RXM_USE_SRX=1:refuses to start' 'CRT_TIMEOUT=60:use `crt_timeout`' 'D_CLIENT_METRICS_ENABLE=1:telemetry'; do
	kv=${bad%%:*} why=${bad#*:}
	aurora "s/^  client_env    FI_MR_CACHE_MONITOR=kdreg2 .*/  client_env    $kv/"
	lint_to "$T/a/cluster.dsl" "$T/out"
	check "2: client_env $kv: error[client-env] at its line ($why)" \
		"grep -q 'cluster.dsl:18:17: error\\[client-env\\]: ${kv%%=*} in client_env: .*$why' '$T/out' || { cat '$T/out'; false; }"
done
aurora 's/^  caching off  .*/  caching off\n  env D_LOG_MASK=INFO\n  env FI_MR_CACHE_MONITOR=kdreg2/'
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
u=$T/a/out/nodes/uan001/etc/systemd/system/dfuse-mnt-daos-datasets.service
check "2: a mount's env D_LOG_MASK=INFO (dfuse reads it itself): no finding, Environment= lines in the dfuse unit, before ExecStart" \
	"! grep -q 'error\\[\\|warning\\[' '$T/out' && grep -A1 -x 'Environment=D_LOG_MASK=INFO' '$u' | grep -qx 'Environment=FI_MR_CACHE_MONITOR=kdreg2' && awk '/^Environment=/{e=NR} /^ExecStart=/{x=NR} END{exit !(e && x > e)}' '$u' || { cat '$T/out' '$u'; false; }"
if command -v systemd-analyze >/dev/null; then
	R="$T/root"; mkdir -p "$R/usr/bin" "$R/etc/systemd/system" "$R/usr/lib/systemd/system"
	cp -r /lib/systemd/system/. "$R/usr/lib/systemd/system/" 2>/dev/null
	printf '[Unit]\nDescription=stand-in\n[Service]\nExecStart=/usr/bin/daos_agent\n' >"$R/usr/lib/systemd/system/daos_agent.service"
	for b in dfuse fusermount3 daos_agent; do printf '#!/bin/sh\n' >"$R/usr/bin/$b"; chmod 755 "$R/usr/bin/$b"; done
	printf 'root:x:0:0:root:/root:/bin/sh\ndaos_user:x:4243:4243::/nonexistent:/usr/sbin/nologin\n' >"$R/etc/passwd"
	cp "$u" "$R/etc/systemd/system/"
	systemd-analyze verify --root="$R" "/etc/systemd/system/$(basename "$u")" >"$T/sa" 2>&1
	check "2: systemd-analyze verify accepts the dfuse unit with its Environment= lines" "[ $? = 0 ] && ! [ -s '$T/sa' ] || { cat '$T/sa'; false; }"
else
	skip "2 systemd: systemd-analyze is not installed"
fi
aurora 's/^  caching off  .*/  caching off\n  env D_IL_COMPATIBLE=1/'
lint_to "$T/a/cluster.dsl" "$T/out"
check "2: a mount's env D_IL_COMPATIBLE=1: error[client-env] (it configures jobs, not dfuse)" \
	"grep -q \"error\\[client-env\\]: D_IL_COMPATIBLE in dfuse's env\" '$T/out' || { cat '$T/out'; false; }"
aurora 's/^  caching off  .*/  caching off\n  env D_LOG_MASK="INFO DEBUG"/'
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out2" >"$T/out" 2>&1
rc=$?
check "2: a dfuse env value with a space is refused at its value (exit $rc), and nothing is written" \
	"[ $rc = 1 ] && grep -q \"cluster.dsl:[0-9]*:7: error\\[unsafe-value\\]: dfuse environment value 'INFO DEBUG' cannot be written\" '$T/out' && ! [ -e '$T/a/out2' ] || { cat '$T/out'; false; }"
$DSLC build --disable unsafe-value "$T/a/cluster.dsl" -o "$T/a/out2" >"$T/out" 2>&1
rc=$?
check "2: --disable unsafe-value is refused (exit $rc), and nothing is written" \
	"[ $rc = 2 ] && grep -q 'unsafe-value cannot be disabled' '$T/out' && ! [ -e '$T/a/out2' ] || { cat '$T/out'; false; }"

# 3. the interception library per job by default; login shells only with
# `global`, and then a warning with the tutorials' caveat
$DSLC build $H/cluster.dsl -o "$T/ho" >"$T/out" 2>&1
w="$T/ho/nodes/cn01/usr/local/bin/with-pil4dfs"
check "3: intercept pil4dfs writes the wrapper usr/local/bin/with-pil4dfs (0755) and no profile.d file" \
	"[ -x '$w' ] && [ \$(stat -c %a '$w') = 755 ] && ! [ -e '$T/ho/nodes/cn01/etc/profile.d/dslc-daos-intercept.sh' ]"
check "3: the wrapper preloads the library for its program only" \
	"[ \"\$(env -u LD_PRELOAD sh '$w' sh -c 'echo \$LD_PRELOAD' 2>/dev/null)\" = libpil4dfs.so ]"
check "3: ... keeps what LD_PRELOAD had, after it, and adds the library once" \
	"[ \"\$(LD_PRELOAD=libfoo.so sh '$w' sh -c 'echo \$LD_PRELOAD' 2>/dev/null)\" = libpil4dfs.so:libfoo.so ] && [ \"\$(LD_PRELOAD=libpil4dfs.so sh '$w' sh -c 'echo \$LD_PRELOAD' 2>/dev/null)\" = libpil4dfs.so ]"
sh "$w" >/dev/null 2>"$T/err"
check "3: the wrapper without a program says its usage and exits 2" "[ $? = 2 ] && grep -q 'usage: with-pil4dfs PROGRAM' '$T/err'"
sh "$w" sh -c 'exit 7' 2>/dev/null
check "3: the wrapper exits with its program's status" "[ $? = 7 ]"
rm -rf "$T/h" && cp -r $H "$T/h" && sed -i 's/^  intercept pil4dfs$/  intercept pil4dfs global/' "$T/h/cluster.dsl"
$DSLC build "$T/h/cluster.dsl" -o "$T/h/out" >"$T/out" 2>&1
check "3: intercept pil4dfs global: warning[intercept-global] at 'global', the profile.d file, no wrapper" \
	"grep -q 'cluster.dsl:[0-9]*:21: warning\\[intercept-global\\]: every login shell of these nodes preloads libpil4dfs' '$T/out' && [ -e '$T/h/out/nodes/cn01/etc/profile.d/dslc-daos-intercept.sh' ] && ! [ -e '$T/h/out/nodes/cn01/usr/local/bin/with-pil4dfs' ] || { cat '$T/out'; false; }"

# 6. the tutorials' "something in between, and file per process" row
for row in '0:S32' '1:EC_16P1G32' '2:EC_16P2G32'; do
	rf=${row%%:*} oc=${row#*:}
	aurora "s/^  files mixed .*/  files per-process/; /^container checkpoints/,/^}/s/^  tolerate 2 node failures.*/  tolerate $rf node failures/"
	$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
	check "6: files per-process, tolerate $rf node failures on 128 nodes: $oc with 2 MiB chunks" \
		"grep \"container create 'projects' 'checkpoints'\" '$T/a/out/cluster/daos-pools.sh' | grep -q -- \"--file-oclass='$oc' .*--chunk-size='2MiB'\" || { cat '$T/out'; grep checkpoints '$T/a/out/cluster/daos-pools.sh'; false; }"
done
$DSLC build $A/cluster.dsl -o "$T/ao" >/dev/null 2>&1
check "6: files mixed stays the narrow GX class with 1 MiB chunks (EC_4P2GX)" \
	"grep \"container create 'projects' 'checkpoints'\" '$T/ao/cluster/daos-pools.sh' | grep -q -- \"--file-oclass='EC_4P2GX' .*--chunk-size='1MiB'\""

# 5. container ACLs and attributes: --acl-file and set-attr, checked by
# DAOS's CLI grammar and run against fakes of dmg and daos
$DSLC build $A/cluster.dsl -o "$T/ao" >/dev/null 2>&1
S="$T/ao/cluster/daos-pools.sh"
check "5: datasets is created with --acl-file acl/projects/datasets.acl holding its two entries" \
	"grep -q \"container create 'projects' 'datasets' .*--acl-file=\\\"\\\$ACL_DIR\\\"/'projects/datasets.acl'\" '$S' && [ \"\$(grep -v '^#' '$T/ao/cluster/acl/projects/datasets.acl')\" = \"\$(printf 'A::OWNER@:rwdtTaAo\\nA:G:aurora-users@:r')\" ]"
check "5: daos-pools.sh passes pools_check (sh -n, shellcheck, DAOS's create and set-attr flags)" \
	"python3 tests/validate/pools_check.py '$S' >'$T/pc' 2>&1 || { cat '$T/pc'; false; }"
run_pools() { # log: runs daos-pools.sh against the fakes
	env FAKE_LOG="$T/$1" FAKE_DMG_STATE="$T/dmg.json" FAKE_DMG_HOSTS=daos0001 FAKE_DMG_POOLS=projects \
		FAKE_DAOS_STATE="$T/daos.json" FAKE_DAOS_POOLS=projects DMG=tests/fakes/dmg DAOS=tests/fakes/daos sh "$S" >"$T/$1.out" 2>&1
}
rm -f "$T/dmg.json" "$T/daos.json"
run_pools log1
rc=$?
check "5: against the fakes: both containers created, datasets with its ACL and two attributes (exit 0)" \
	"[ $rc = 0 ] && python3 -c '
import json,sys; s=json.load(open(sys.argv[1])); d=s[\"projects/datasets\"]
sys.exit(not (set(s)=={\"projects/datasets\",\"projects/checkpoints\"} and d[\"acl\"]==[\"A::OWNER@:rwdtTaAo\",\"A:G:aurora-users@:r\"]
 and d[\"attrs\"]=={\"description\":\"curated training datasets\",\"contact\":\"storage-admins@example.org\"}))' '$T/daos.json' || { cat '$T/log1.out' '$T/log1'; false; }"
sed -i 's/curated training datasets/old text/' "$T/daos.json"
run_pools log2
rc=$?
check "5: run again: no create, the attributes set again (a changed value comes back), exit 0" \
	"[ $rc = 0 ] && ! grep -q 'container create' '$T/log2' && [ \$(grep -c 'container set-attr' '$T/log2') = 2 ] && grep -q '\"curated training datasets\"' '$T/daos.json' || { cat '$T/log2.out' '$T/log2'; false; }"
rm -f "$T/daos.json"
FAKE_DAOS_MODE=create-fails=datasets run_pools log3
rc=$?
check "5: a refused create stops the script before its attributes (exit 1, no set-attr)" \
	"[ $rc = 1 ] && ! grep -q 'set-attr' '$T/log3' && grep -q 'DER_NOSPACE' '$T/log3.out'"
aurora 's|^  acl  *"A::OWNER@:rwdtTaAo" "A:G:aurora-users@:r" .*|  acl  "A::OWNER@:rwdtTaAo" "A:G:aurora-users:r"|'
lint_to "$T/a/cluster.dsl" "$T/out"
check "5: a container ACE without '@' in its principal: error[container-acl] at the entry" \
	"grep -q 'cluster.dsl:[0-9]*:[0-9]*: error\\[container-acl\\]' '$T/out' || { cat '$T/out'; false; }"
aurora 's|^  attr  *"description=curated training datasets" .*|  attr "description"|'
lint_to "$T/a/cluster.dsl" "$T/out"
check "5: attr without '=': error[bad-value] at the attribute" \
	"grep -q \"error\\[bad-value\\]: 'description' is not an attribute\" '$T/out' || { cat '$T/out'; false; }"

# issue 56, 4. the tutorial's "set the object class on a directory": the
# example's checkpoints/restart, made and set by daos-pools.sh against the
# fake daos (its fs copy and fs set-attr from src/utils/daos_hdlr.c and
# daos_dfs_hdlr.c)
dirstate() { python3 -c '
import json,sys; t=json.load(open(sys.argv[1]))["projects/checkpoints"].get("fs", {})
print(" ".join("%s:%s:%s:%s" % (p, v["kind"], v.get("attrs", {}).get("--oclass", "-"), v.get("attrs", {}).get("--chunk-size", "-")) for p, v in sorted(t.items())))' "$T/daos.json"; }
rm -f "$T/dmg.json" "$T/daos.json"
run_pools log4
rc=$?
check "56.4: /restart is made a directory of checkpoints, then EC_16P2GX with 8 MiB chunks (exit 0)" \
	"[ $rc = 0 ] && [ \"\$(dirstate)\" = '/:dir:-:- /restart:dir:EC_16P2GX:8MiB' ] || { cat '$T/log4.out' '$T/log4'; dirstate; false; }"
run_pools log5
rc=$?
check "56.4: run again: the directory stays, its class is set again, nothing else made (exit 0)" \
	"[ $rc = 0 ] && [ \$(grep -c 'fs set-attr' '$T/log5') = 1 ] && [ \"\$(dirstate)\" = '/:dir:-:- /restart:dir:EC_16P2GX:8MiB' ] || { cat '$T/log5.out'; dirstate; false; }"
rm -f "$T/daos.json"
grep -v "^dslc_dirs " "$S" >"$T/ao/cluster/nodirs.sh"
env FAKE_LOG="$T/log6" FAKE_DMG_STATE="$T/dmg.json" FAKE_DMG_HOSTS=daos0001 FAKE_DMG_POOLS=projects FAKE_DAOS_STATE="$T/daos.json" \
	FAKE_DAOS_POOLS=projects DMG=tests/fakes/dmg DAOS=tests/fakes/daos sh "$T/ao/cluster/nodirs.sh" >"$T/log6.out" 2>&1
check "56.4: the fake is DAOS's: set-attr on a path that does not exist makes a file there, which the directory step prevents" \
	"[ \"\$(dirstate)\" = '/:dir:-:- /restart:file:EC_16P2GX:8MiB' ] || { dirstate; false; }"
aurora 's|^  directory /restart oclass EC_16P2GX chunk 8MiB .*|  directory /restart/full oclass EC_16P2GX chunk 8MiB\n  directory /restart oclass RP_3G1\n  directory /logs chunk 1MiB|'
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
S2=$T/a/out/cluster/daos-pools.sh
rm -f "$T/daos.json"
env FAKE_LOG="$T/log7" FAKE_DMG_STATE="$T/dmg.json" FAKE_DMG_HOSTS=daos0001 FAKE_DMG_POOLS=projects FAKE_DAOS_STATE="$T/daos.json" \
	FAKE_DAOS_POOLS=projects DMG=tests/fakes/dmg DAOS=tests/fakes/daos sh "$S2" >"$T/log7.out" 2>&1
rc=$?
check "56.4: a directory inside another, written before its parent, and a second top-level one: all made, each with its own setting" \
	"[ $rc = 0 ] && [ \"\$(dirstate)\" = '/:dir:-:- /logs:dir:-:1MiB /restart:dir:RP_3G1:- /restart/full:dir:EC_16P2GX:8MiB' ] && python3 tests/validate/pools_check.py '$S2' >'$T/pc' 2>&1 || { cat '$T/out' '$T/log7.out' '$T/pc'; dirstate; false; }"
aurora 's|^  directory /restart oclass EC_16P2GX chunk 8MiB .*|  directory /restart oclass EC_16P2G1|'
lint_to "$T/a/cluster.dsl" "$T/out"
check "56.4: a directory's class is checked as the container's: EC_16P2G1 keeps 2 failures, and fits 128 nodes (no finding)" \
	"[ $LRC = 0 ] && ! grep -q 'restart' '$T/out' || { cat '$T/out'; false; }"
aurora 's|^  directory /restart oclass EC_16P2GX chunk 8MiB .*|  directory /restart oclass EC_16P1GX|'
lint_to "$T/a/cluster.dsl" "$T/out"
check "56.4: a directory class that keeps fewer failures than the container's rd_fac: error[oclass-tolerance] at its class" \
	"grep -q 'cluster.dsl:[0-9]*:29: error\\[oclass-tolerance\\]' '$T/out' || { cat '$T/out'; false; }"
aurora 's|^  directory /restart oclass EC_16P2GX chunk 8MiB .*|  directory /restart oclass EC_16P2GX\n  directory /restart chunk 8MiB|'
lint_to "$T/a/cluster.dsl" "$T/out"
check "56.4: one directory on two lines: error[duplicate-definition], the first one noted" \
	"grep -q 'error\\[duplicate-definition\\]: directory /restart is given twice' '$T/out' && grep -q 'note: first given here' '$T/out' || { cat '$T/out'; false; }"
for bad in '/restart/../etc' 'restart' '/re start' '/'; do
	aurora "s|^  directory /restart oclass EC_16P2GX chunk 8MiB .*|  directory \"$bad\" oclass EC_16P2GX|"
	lint_to "$T/a/cluster.dsl" "$T/out"
	check "56.4: directory \"$bad\": error[bad-value] at the path, nothing built" \
		"grep -q 'error\\[bad-value\\]: directory' '$T/out' && ! $DSLC build '$T/a/cluster.dsl' -o '$T/a/out2' >/dev/null 2>&1 && ! [ -e '$T/a/out2' ] || { cat '$T/out'; false; }"
done
aurora 's|^  type posix$|  type hdf5|'
lint_to "$T/a/cluster.dsl" "$T/out"
check "56.4: a directory of an HDF5 container: warning[oclass-non-posix] at the directory line" \
	"grep -q 'warning\\[oclass-non-posix\\]: directory is ignored for a HDF5 container' '$T/out' || { cat '$T/out'; false; }"

aurora 's|^  directory /restart oclass EC_16P2GX chunk 8MiB .*|  directory /restart oclass EC_8P2GX chunk 8MiB|'
$DSLC plan "$T/a/cluster.dsl" --against-source $A/cluster.dsl >"$T/out" 2>&1
rc=$?
check "56.4: a directory's class changed: plan says pool-create for its directories key only (exit 3)" \
	"[ $rc = 3 ] && grep -q '^pool-create  cluster/pools.json pools\\[projects\\].containers\\[checkpoints\\].directories' '$T/out' && ! grep -q 'container-immutable\\|engine-restart' '$T/out' || { cat '$T/out'; false; }"

# issue 56, 5. "a small set of containers" (ALCF's DAOS overview): a pool of
# 99 containers is quiet, 100 is pool-many-containers at the pool
for n in 99 100; do
	rm -rf "$T/a" && cp -r $A "$T/a"
	for i in $(seq 3 $n); do printf 'container c%03d in projects { tolerate 2 node failures  checksum crc32 server }\n' "$i"; done >>"$T/a/cluster.dsl"
	lint_to "$T/a/cluster.dsl" "$T/out"
	if [ $n = 99 ]; then
		check "56.5: 99 containers in projects: lints clean, no pool-many-containers" "[ $LRC = 0 ] && ! grep -q 'pool-many-containers' '$T/out' || { cat '$T/out'; false; }"
	else
		check "56.5: 100 containers in projects: warning[pool-many-containers] at the pool's name, the 100th noted" \
			"grep -q 'cluster.dsl:52:6: warning\\[pool-many-containers\\]: pool projects holds 100 containers' '$T/out' && grep -q 'note: the 100th is here' '$T/out' || { cat '$T/out'; false; }"
	fi
done

# 7. Redfish as the talk's BMC needs it: `vendor ami` writes the nested body
# and takes the ETag from /Bios (tests/os_artifacts.sh runs it against a BMC
# that refuses a flat body with 400)
$DSLC build $H/cluster.dsl -o "$T/ho" >/dev/null 2>&1
R=$T/ho/nodes/gpu001/redfish
check "7: examples/hgx-b200 (vendor ami): {\"Attributes\": {\"AmdSetup\": {\"ACSEnable\": \"Enabled\"}}} and DEFAULT_ETAG_SOURCE='bios'" \
	"python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"Attributes\"]!={\"AmdSetup\":{\"ACSEnable\":\"Enabled\"}})' '$R/bios-settings.json' && grep -qx \"DEFAULT_ETAG_SOURCE='bios'\" '$R/apply.sh'"
rm -rf "$T/h" && cp -r $H "$T/h" && sed -i 's/^  bios { AmdSetup.ACSEnable = Enabled }/  bios { ACSEnable = Enabled }/' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
v=$(sed -n 's/^help: write `\([A-Za-z.]*\)` (AMD CBS.*/\1/p' "$T/out")
check "7: a flat name under vendor ami: error[bios-attribute-name] (a flat body returns 400), help \`$v\`" \
	"grep -q \"error\\[bios-attribute-name\\]: 'ACSEnable' has no group: this BMC (vendor ami)\" '$T/out' && [ '$v' = AmdSetup.ACSEnable ] || { cat '$T/out'; false; }"
sed -i "s/^  bios { ACSEnable = Enabled }/  bios { $v = Enabled }/" "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
check "7: the help applied lints clean" "[ $? = 0 ] && ! grep -q 'error\\[' '$T/out'"

# 10. CPU isolation for clusters without Kubernetes (IO500): `isolate
# engines` from the placement; hand-written lists checked against it
aurora 's/^  kernel { iommu pt }/  kernel { iommu pt  isolate engines }/'
$DSLC build "$T/a/cluster.dsl" -o "$T/a/out" >"$T/out" 2>&1
c=$(sed -n "s/^PARAMS='\\(.*\\)'\$/\\1/p" "$T/a/out/nodes/daos0001/usr/local/sbin/dslc-kernel-cmdline")
check "10: isolate engines: isolcpus, nohz_full and rcu_nocbs of the engines' 44 cores with their siblings, no OS core" \
	"[ \"$c\" = 'iommu=pt transparent_hugepage=never isolcpus=0-21,26-47,52-73,78-99 nohz_full=0-21,26-47,52-73,78-99 rcu_nocbs=0-21,26-47,52-73,78-99' ] && ! grep -q 'warning\\[' '$T/out' || { echo '$c'; cat '$T/out'; false; }"
for bad in '0-21,26-47:isolates part of an engine core' '0-21,52-73:leaves an engine core out' '0-25,52-77:isolates an OS core'; do
	l=${bad%%:*} why=${bad#*:}
	aurora "s/^  kernel { iommu pt }/  kernel { iommu pt  param isolcpus=$l }/"
	lint_to "$T/a/cluster.dsl" "$T/out"
	check "10: isolcpus=$l by hand: warning[kernel-cpu-isolation] ($why)" \
		"grep -q 'cluster.dsl:32:28: warning\\[kernel-cpu-isolation\\]: isolcpus=$l $why' '$T/out' || { cat '$T/out'; false; }"
done
v=$(sed -n 's/^help: write `\(isolate engines\)` in the kernel block in place of the param.*/\1/p' "$T/out")
sed -i "s/param isolcpus=0-25,52-77/$v/" "$T/a/cluster.dsl"
lint_to "$T/a/cluster.dsl" "$T/out"
check "10: the help's \`$v\` applied in place of the param: no finding" "[ -n '$v' ] && ended '$T/out' && [ \$LRC = 0 ] && ! grep -q 'warning\\[\\|error\\[' '$T/out' || { cat '$T/out'; false; }"
aurora 's/^  kernel { iommu pt }/  kernel { iommu pt  param isolcpus=managed_irq,domain,0-21,26-47,52-73,78-99 }/'
lint_to "$T/a/cluster.dsl" "$T/out"
check "10: isolcpus with flags and the engines' exact CPUs: no finding" "ended '$T/out' && ! grep -q 'kernel-cpu-isolation\\|kernel-isolcpus' '$T/out' || { cat '$T/out'; false; }"
rm -rf "$T/h" && cp -r $H "$T/h" && sed -i 's/^  kernel { iommu pt  irqaffinity os }/  kernel { iommu pt  irqaffinity os  isolate engines }/' "$T/h/cluster.dsl"
lint_to "$T/h/cluster.dsl" "$T/out"
check "10: isolate engines beside a kubelet block: one warning[kernel-isolcpus], its help about the kubelet" \
	"[ \$(grep -c 'warning\\[kernel-isolcpus\\]: isolate engines beside a kubelet' '$T/out') = 1 ] || { cat '$T/out'; false; }"

# 14. helps never disagree: one mistake, one proposal, and the proposal
# applied lints clean. Every first_core of engine 1 (and of engine 0) of
# gpu001's daos_server.yml in a sweep over both NUMA nodes and past them:
# collect what every finding's help proposes for that line, apply it, lint
$DSLC build $H/cluster.dsl -o "$T/ho" >/dev/null 2>&1
Y0="$T/ho/nodes/gpu001/etc/daos/daos_server.yml"
XML=$H/hgx-b200.xml
python3 - "$DSLC" "$Y0" "$XML" "$T" >"$T/sweep" 2>&1 <<'PYEOF'
import json, re, subprocess, sys
dslc, y0, xml, tmp = sys.argv[1].split(), sys.argv[2], sys.argv[3], sys.argv[4]
PROPOSE = re.compile(r"write `first_core: (\d+)`|start engine \d+ at core (\d+)|use first_core (\d+) at most")
base = open(y0).read().split("\n")
lines = [i for i, l in enumerate(base) if l.startswith("  first_core: ")]
tried = disagree = unclean = 0

def lint(text):
    path = tmp + "/sweep.yml"
    open(path, "w").write(text)
    r = subprocess.run(dslc + ["lint", "--format", "json", "--topology", xml, path], capture_output=True, text=True)
    return r.returncode, json.loads(r.stdout)["findings"]

for eng, at in enumerate(lines):
    for fc in (0, 3, 4, 8, 20, 23, 24, 50, 92, 95, 96, 98, 99, 100, 110, 150, 172, 180, 191, 192, 200, 383):
        text = base[:]
        text[at] = "  first_core: %d" % fc
        rc, found = lint("\n".join(text))
        if rc == 0:
            continue
        tried += 1
        props = {}
        for f in found:
            for m in PROPOSE.finditer(f.get("help") or ""):
                props.setdefault(f["line"], set()).add(int(next(g for g in m.groups() if g)))
        mine = props.pop(at + 1, set())
        if props or len(mine) > 1:
            disagree += 1
            print("engine %d first_core %d: proposals %s on its line, %s elsewhere" % (eng, fc, sorted(mine), props))
        if len(mine) == 1:
            text[at] = "  first_core: %d" % mine.pop()
            rc2, found2 = lint("\n".join(text))
            if rc2 != 0:
                unclean += 1
                print("engine %d first_core %d -> %s: %s" % (eng, fc, text[at], [f["message"] for f in found2]))
print("tried %d disagree %d unclean %d" % (tried, disagree, unclean))
PYEOF
read -r _ tried _ disagree _ unclean < <(tail -1 "$T/sweep")
check "14: $tried wrong first_cores of gpu001's daos_server.yml: every help proposes one value, for the line that is wrong" \
	"[ '$disagree' = 0 ] && [ '$tried' -gt 20 ] || { cat '$T/sweep'; false; }"
check "14: ... and every proposed first_core, applied, lints clean" "[ '$unclean' = 0 ] || { cat '$T/sweep'; false; }"
# 5. in `dslc plan`: a changed container ACL is pool-acl (daos container
# overwrite-acl, online), a changed attribute pool-create (the script sets it)
$DSLC build $A/cluster.dsl -o "$T/ao" >/dev/null 2>&1
aurora 's|"A:G:aurora-users@:r"  # users|"A:G:aurora-users@:rw"  # users|; s|curated training datasets|curated datasets|'
$DSLC plan "$T/a/cluster.dsl" --against "$T/ao" >"$T/out" 2>&1
check "5: dslc plan: the container ACL change is pool-acl, the attribute change pool-create" \
	"grep -q '^pool-acl  cluster/pools.json pools\\[projects\\].containers\\[datasets\\].acl' '$T/out' && grep -q '^pool-create  cluster/pools.json pools\\[projects\\].containers\\[datasets\\].attrs.description' '$T/out' && grep -q 'daos container overwrite-acl' '$T/out' || { cat '$T/out'; false; }"
# 4. two mount blocks of one container, one node each: the nodes add up
aurora 's/^  on uan\[001-032\]$/  on uan001/; /^  caching off /d'
printf 'mount /mnt/daos/datasets-b {\n  container datasets in projects\n  on uan002\n  user daos_user\n}\n' >>"$T/a/cluster.dsl"
lint_to "$T/a/cluster.dsl" "$T/out"
check "4: two mount blocks of datasets, read-write on uan001 and uan002: mount-caching-shared at both" \
	"[ \$(grep -c 'warning\\[mount-caching-shared\\]: container datasets' '$T/out') = 2 ] || { cat '$T/out'; false; }"
# issue 55: several client_env entries on one line, as the tutorials' fixes
# come (kdreg2 with its cache size): each reaches every server's
# client_env_vars, in the order written
rm -rf "$T/e" && cp -r examples/hgx-b200 "$T/e"
sed -i 's/^  log_mask \( *\)ERR/&\n  client_env FI_MR_CACHE_MONITOR=kdreg2 "FI_MR_CACHE_MAX_COUNT=0"/' "$T/e/cluster.dsl"
$DSLC build "$T/e/cluster.dsl" -o "$T/e/out" >"$T/out" 2>&1
rc=$?
check "client_env with two entries on a line: both in gpu001's client_env_vars, after the gid_index one (exit $rc)" \
	"[ $rc = 0 ] && [ \"\$(sed -n '/^client_env_vars:/,/^[a-z]/p' '$T/e/out/nodes/gpu001/etc/daos/daos_server.yml' | grep '^- ' | tr '\n' ' ')\" = '- FI_VERBS_GID_IDX=5 - FI_MR_CACHE_MONITOR=kdreg2 - FI_MR_CACHE_MAX_COUNT=0 ' ] || { cat '$T/out'; false; }"
tests_end
