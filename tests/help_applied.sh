#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Help lines that propose a value, applied: the value the help names is
# written where the finding points, and the file is linted again; the finding
# must be gone and no new error may appear (issue 11: "write 6" on an
# interleaved node was an OS core).
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin help
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=tests/golden/diag
# an edited fixture is written to H, a copy of its directory (repo_copy)
H=$T/r/$D
repo_copy "$T/r" examples tests/topologies $D || { tests_end; exit 1; }

# the value a help line proposes: "write `first_core 7`" or "write `first_core: 7`"
proposed() { sed -n 's/.*write `[a-z_ ]*:\{0,1\} \{0,1\}\([0-9A-Za-z]*\)`.*/\1/p' "$1" | head -n 1; }

# 1. first-core-linux-cpu on the socket-interleaved node: every Linux CPU of NUMA node 1
for cpu in 1 3 5 13 15 17 19 21 23; do
	f=$H/.help-$cpu.dsl
	sed "s/first_core 3 }/first_core $cpu }/" $D/first-core-linux-cpu.dsl >"$f"
	$DSLC lint "$f" >"$T/out" 2>&1
	# the help proposes the core (where the engine fits there) or no first_core
	# at all (where the core is the one dslc chooses): either is applied
	v=$(proposed "$T/out")
	if grep -q "help: drop \`first_core $cpu\`" "$T/out"; then
		v=dropped
		sed -i "s/first_core $cpu }/}/" "$f"
	else
		sed -i "s/first_core $cpu }/first_core $v }/" "$f"
	fi
	$DSLC lint "$f" >"$T/out2" 2>&1
	rc=$?
	check "Linux CPU $cpu: the finding was first-core-linux-cpu, the proposed first_core ($v) lints clean, nothing said at its line (exit 0)" \
		"grep -q 'error\\[first-core-linux-cpu\\]' '$T/out' && [ -n '$v' ] && [ $rc = 0 ] && ! grep -q 'error\\[' '$T/out2' && ! grep -q '\\.dsl:18:' '$T/out2' || { cat '$T/out' '$T/out2'; false; }"
done

# 2. the same in a hand-written daos_server.yml, with --topology
Y=$T/srv.yml
sed 's/  engine numa 1 { first_core 3 }//' $D/first-core-linux-cpu.dsl >$H/.help-base.dsl
$DSLC build $H/.help-base.dsl -o "$T/base" >/dev/null 2>&1
XML=tests/topologies/interleaved-2s6c.xml
set_fc2() { # file value: engine 1's first_core (the second in the file)
	awk -v v="$2" '/^  first_core: / && ++n == 2 { print "  first_core: " v; next } { print }' "$1" >"$1.new" && mv "$1.new" "$1"
}
for cpu in 1 3 13 15; do
	cp "$T/base/nodes/n1/etc/daos/daos_server.yml" "$Y"
	set_fc2 "$Y" $cpu
	$DSLC lint "$Y" --topology $XML >"$T/y1" 2>&1
	v=$(proposed "$T/y1")
	set_fc2 "$Y" "$v"
	$DSLC lint "$Y" --topology $XML >"$T/y2" 2>&1
	check "YAML Linux CPU $cpu: first-core-linux-cpu, and the proposed $v lints clean" \
		"grep -q 'error\\[first-core-linux-cpu\\]' '$T/y1' && ! grep -q 'error\\[' '$T/y2' || { cat '$T/y1' '$T/y2'; false; }"
done

# 3. memory and ports: the numbers DAOS's formulas give
for f in dsl-memory-formula dsl-memory-formula-2.8; do
	$DSLC lint $D/$f.dsl >"$T/m" 2>&1
	v=$(sed -n 's/.*write `scm ram \([0-9]*GiB\)`.*/\1/p' "$T/m" | head -n 1)
	sed "s/scm ram [0-9]*GiB/scm ram $v/" $D/$f.dsl >$H/.help-m.dsl
	$DSLC lint $H/.help-m.dsl >"$T/m2" 2>&1; rc2=$?
	check "$f: the proposed scm ram $v lints clean" "[ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/m2' || { cat '$T/m2'; false; }"
done
$DSLC lint $D/dsl-fabric-port-derived.dsl >"$T/p" 2>&1
v=$(sed -n 's/.*write `fabric_port \([0-9]*\)`.*/\1/p' "$T/p" | head -n 1)
sed "s/fabric_port 65000/fabric_port $v/" $D/dsl-fabric-port-derived.dsl >$H/.help-p.dsl
$DSLC lint $H/.help-p.dsl >"$T/p2" 2>&1; rc2=$?
check "the proposed fabric_port $v lints clean" "[ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/p2' || { cat '$T/p2'; false; }"

# 4. ABT_THREAD_STACKSIZE: the size each reason needs, applied; DAOS's own
# loader must accept it too when it is here
for f in env-abt-dcpm env-abt-md; do
	$DSLC lint --release 2.8 tests/golden/yaml/$f.yml >"$T/a" 2>&1
	v=$(sed -n 's/.*write ABT_THREAD_STACKSIZE=\([0-9]*\),.*/\1/p' "$T/a" | head -n 1)
	sed "s/ABT_THREAD_STACKSIZE=[0-9]*/ABT_THREAD_STACKSIZE=$v/" tests/golden/yaml/$f.yml >"$T/$f.yml"
	$DSLC lint --release 2.8 "$T/$f.yml" >"$T/a2" 2>&1
	rc=$?
	check "$f: the proposed ABT_THREAD_STACKSIZE=$v lints clean" "[ -n '$v' ] && [ $rc = 0 ] || { cat '$T/a2'; false; }"
	if have_loader "$f: DAOS 2.8's loader on ABT_THREAD_STACKSIZE=$v"; then
		check "$f: DAOS 2.8's loader accepts ABT_THREAD_STACKSIZE=$v" "[ -n '$v' ] && loader_accepts --release 2.8 '$T/$f.yml'"
	fi
done
# 5. help lines that propose a statement, not an edit: numa-without-nic's
# `exclude nvme ...` in the profile it names; nic-ambiguous's two fabrics
for f in numa-without-nic device-locality-unknown; do
	$DSLC lint $D/$f.dsl >"$T/n" 2>&1
	sed -n 's/.*`\(exclude nvme [0-9a-f:. ]*\)` in profile \([a-z0-9-]*\).*/\2\t\1/p' "$T/n" >"$T/ex"
	cp $D/$f.dsl $H/.help-n.dsl
	while IFS=$'\t' read -r prof stmt; do
		sed -i "/^profile $prof /a\\  $stmt" $H/.help-n.dsl
	done <"$T/ex"
	$DSLC lint $H/.help-n.dsl >"$T/n2" 2>&1; rc2=$?
	check "$f: the proposed exclude lines silence numa-without-nic, no new error" \
		"[ -s '$T/ex' ] && [ $rc2 = 0 ] && ! grep -q 'numa-without-nic\\|error\\[' '$T/n2' || { cat '$T/ex' '$T/n2'; false; }"
done
for k in 1 2; do
	$DSLC lint $D/nic-ambiguous.dsl >"$T/f" 2>&1
	v=$(sed -n 's/.*`fabric \([^`]*\)` (the engine takes [a-z0-9]*) or `fabric \([^`]*\)`.*/\'$k'/p' "$T/f" | head -n 1)
	v=${v/<n>/3} # the RoCE v2 GID index is the operator's to look up
	sed "s/^  access_points/  fabric $v\n  access_points/" $D/nic-ambiguous.dsl >$H/.help-f.dsl
	$DSLC lint $H/.help-f.dsl >"$T/f2" 2>&1; rc2=$?
	check "nic-ambiguous: the proposed \`fabric $v\` leaves no nic-ambiguous and no error" \
		"[ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'nic-ambiguous\\|error\\[' '$T/f2' || { cat '$T/f2'; false; }"
done
# 6. issue 22: the shapes DAOS refuses, fixed as the help lines say; DAOS's
# loader must accept what the fixed description builds, when it is here
loader_check() { # what out-dir release: every daos_server.yml of the tree accepted, a check of its own
	have_loader "$1: DAOS $3's loader on what it builds" || return 0
	local bad=""
	for y in "$2"/nodes/*/etc/daos/daos_server.yml; do
		[ -f "$y" ] && loader_accepts --release "$3" "$y" >"$T/loader" || bad="$bad $y"
	done
	check "$1: DAOS $3's loader accepts every daos_server.yml it builds" "[ -z '$bad' ] || { echo '$bad'; cat '$T/loader'; false; }"
}
for f in md-on-ssd-mixed md-on-ssd-mixed-roles; do
	$DSLC lint $D/$f.dsl >"$T/h" 2>&1
	stmt=$(sed -n 's/.*declare engines only where the drives are: `\(engine numa [0-9]*\) { ... }` in place of `engine per numa`.*/\1/p' "$T/h" | head -n 1)
	rel=$(sed -n 's/^daos \(2\.[0-9]\)$/\1/p' $D/$f.dsl)
	sed "s/engine per numa {/$stmt {/" $D/$f.dsl >$H/.help-md.dsl
	$DSLC build $H/.help-md.dsl -o "$T/md-$f" >"$T/h2" 2>&1; rc2=$?
	check "$f: \`$stmt { ... }\` in place of \`engine per numa\` builds" \
		"[ -n '$stmt' ] && [ $rc2 = 0 ] || { cat '$T/h' '$T/h2'; false; }"
	loader_check "$f" "$T/md-$f" "$rel"
done
# md-on-ssd-mixed-nodes: roles added to the engine without them, the exclusion dropped
$DSLC lint $D/md-on-ssd-mixed-nodes.dsl >"$T/h" 2>&1
roles=$(sed -n 's/.*add `\(nvme roles \[[a-z ]*\]\)` to this engine.s block.*/\1/p' "$T/h" | head -n 1)
awk -v r="$roles" '/^  engine numa 1 \{/ { print; print "    " r; next } /^node gpu007 \{ exclude/ { next } { print }' \
	$D/md-on-ssd-mixed-nodes.dsl >$H/.help-md.dsl
$DSLC build $H/.help-md.dsl -o "$T/md-nodes" >"$T/h2" 2>&1; rc2=$?
check "md-on-ssd-mixed-nodes: \`$roles\` on the other engine and no exclusion: builds" \
	"[ -n '$roles' ] && [ $rc2 = 0 ] && grep -q 'stop excluding' '$T/h' || { cat '$T/h' '$T/h2'; false; }"
loader_check md-on-ssd-mixed-nodes "$T/md-nodes" 2.6
# memory-only-numa: the engine declared on GPU memory removed
$DSLC lint $D/memory-only-numa.dsl >"$T/h" 2>&1
n=$(sed -n 's/.*remove `engine numa \([0-9]*\)`; the NUMA nodes with cores are.*/\1/p' "$T/h" | head -n 1)
grep -v "^  engine numa $n " $D/memory-only-numa.dsl >$H/.help-md.dsl
$DSLC build $H/.help-md.dsl -o "$T/mem" >"$T/h2" 2>&1; rc2=$?
check "memory-only-numa: without \`engine numa $n\` the POWER9 node builds" \
	"[ -n '$n' ] && [ $rc2 = 0 ] || { cat '$T/h' '$T/h2'; false; }"
loader_check memory-only-numa "$T/mem" 2.6
# agent-config: the telemetry_port and the numa_node the help lines give
A=$T/daos_agent.yml
printf 'name: tier0\naccess_points:\n- gpu001:10001\ntelemetry_retain: 1m\nfabric_ifaces:\n- numa_node: 0\n  devices:\n  - iface: ens2f0np0\n    domain: mlx5_1\n' >"$A"
$DSLC lint "$A" --topology examples/hgx-b200/hgx-b200.xml >"$T/h" 2>&1
port=$(sed -n 's/.*add `telemetry_port: \([0-9]*\)`.*/\1/p' "$T/h" | head -n 1)
numa=$(sed -n 's/.*under `numa_node: \([0-9]*\)`.*/\1/p' "$T/h" | head -n 1)
sed -i "s/^telemetry_retain/telemetry_port: $port\ntelemetry_retain/; s/numa_node: 0/numa_node: $numa/" "$A"
$DSLC lint "$A" --topology examples/hgx-b200/hgx-b200.xml >"$T/h2" 2>&1; rc2=$?
check "agent-config: telemetry_port $port and numa_node $numa lint clean" \
	"[ -n '$port' ] && [ -n '$numa' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/h2' || { cat '$T/h' '$T/h2'; false; }"
# clients: the value a help line proposes, written into a copy of the fixture
# beside it (its include stays relative); $v is the value, $T/a1 and $T/a2 the
# lint before and after
applied() { # fixture, sed program that prints the value, sed edit with @V@ for it
	$DSLC lint $D/$1.dsl >"$T/a1" 2>&1
	v=$(sed -n "$2" "$T/a1" | head -n 1)
	sed "${3//@V@/$v}" $D/$1.dsl >$H/.help-$1.dsl
	$DSLC lint $H/.help-$1.dsl >"$T/a2" 2>&1
	rc2=$?
}
# nvme-file-shared: the engine statement the help proposes, after the engine's
# block; the node builds and DAOS's loader takes its two bdev_lists
$DSLC lint $D/nvme-file-shared.dsl >"$T/h" 2>&1
stmt=$(sed -n 's/.*its own file: write `\(engine numa [0-9]* { nvme file "[^"]*" size [0-9]*GiB }\)` after this engine.s block.*/\1/p' "$T/h" | head -n 1)
awk -v st="$stmt" '{ print } /^  engine per numa \{/ { e = 1 } e && /^  \}$/ { print "  " st; e = 0 }' \
	$D/nvme-file-shared.dsl >$H/.help-nf.dsl
$DSLC build $H/.help-nf.dsl -o "$T/nf" >"$T/h2" 2>&1; rc2=$?
check "nvme-file-shared: \`$stmt\` after the engine's block builds, each engine its own file" \
	"grep -q 'error\\[bad-value\\]: the engines on NUMA nodes 0 and 1 both emulate' '$T/h' && [ -n '$stmt' ] && [ $rc2 = 0 ] && [ \"\$(grep -c '^    - /var/daos/bdev' '$T/nf/nodes/n1/etc/daos/daos_server.yml')\" = 2 ] || { cat '$T/h' '$T/h2'; false; }"
loader_check nvme-file-shared "$T/nf" 2.6
# dfuse-threads: the thread count the help proposes, written beside event_queues
applied dfuse-threads 's/.*write `threads \([0-9]*\)`.*/\1/p' 's/^  threads 8$/  threads @V@/'
check "dfuse-threads: the proposed threads $v lints clean" \
	"grep -q 'error\\[dfuse-threads\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
# intercept-conflict: the library the help proposes, on both mounts
applied intercept-conflict 's/.*`intercept \([a-z0-9]*\)` on both.*/\1/p' 's/intercept ioil/intercept @V@/'
check "intercept-conflict: the proposed \`intercept $v\` on both mounts lints clean" \
	"grep -q 'error\\[intercept-conflict\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"

# nvme-tiers: the drive count the help proposes; nvme-tiers-left: the count dropped
applied nvme-tiers 's/.*write `drives \([0-9]*\)`.*/\1/p' 's/drives 4$/drives @V@/'
check "nvme-tiers: the proposed \`drives $v\` lints clean" \
	"grep -q 'error\\[nvme-tiers\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
applied nvme-tiers-left 's/.*(drop its `drives` count).*/x/p' 's/ drives 2$//'
check "nvme-tiers-left: dropping the last tier's count lints clean" \
	"grep -q 'error\\[nvme-tiers\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"

# system-name: the proposed name, for one too long and one with a '.'
applied system-name 's/.*e\.g\. `cluster \([^ ]*\) {`.*/\1/p' 's/^cluster production-tier0-cluster {/cluster @V@ {/'
check "system-name: the proposed \`cluster $v\` lints clean" \
	"grep -q 'error\\[system-name\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
sed 's/^cluster production-tier0-cluster {/cluster "tier0.a" {/' $D/system-name.dsl >$H/.help-sn.dsl
$DSLC lint $H/.help-sn.dsl >"$T/a1" 2>&1
v=$(sed -n 's/.*e\.g\. `cluster \([^ ]*\) {`.*/\1/p' "$T/a1" | head -n 1)
sed "s/^cluster \"tier0.a\" {/cluster $v {/" $H/.help-sn.dsl >$H/.help-sn2.dsl
$DSLC lint $H/.help-sn2.dsl >"$T/a2" 2>&1; rc2=$?
check "system-name: for \"tier0.a\" the proposed \`cluster $v\` lints clean" \
	"[ '$v' = tier0_a ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
rm -f $H/.help-sn.dsl $H/.help-sn2.dsl

# pool-acl: the corrected entry; pool-acl-perms: the entry without container permissions
applied pool-acl 's/.*write `\(A:[^`]*\)`.*/\1/p' 's/"A::GROUP@:r"/"@V@"/'
check "pool-acl: the proposed \`$v\` lints clean" \
	"grep -q 'error\\[pool-acl\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
applied pool-acl-perms 's/.*write `\(A:[^`]*\)`.*/\1/p' 's/"A::alice@:rwTA"/"@V@"/'
check "pool-acl-perms: the proposed \`$v\` lints clean, without the warning" \
	"grep -q 'warning\\[pool-acl-perms\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[\\|warning\\[pool-acl' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"

# k8s-resource-name: the shortened RDMA resource (63 characters with its _e1), and `shared`
applied k8s-resource-name 's/.*: `rdma_resource \([^`]*\)`.*/\1/p' 's|rdma_resource example.com/[a-z]*|rdma_resource @V@|'
check "k8s-resource-name: the proposed \`rdma_resource $v\` lints clean" \
	"grep -q 'error\\[k8s-resource-name\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
applied k8s-resource-name 's/.*or write `\(shared\)` after it.*/\1/p' 's|\(rdma_resource example.com/[a-z]*\)|\1 @V@|'
check "k8s-resource-name: \`shared\` after the name lints clean" \
	"[ '$v' = shared ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"

# kernel-thp: the param removed, as the help says; dslc then writes never itself
applied kernel-thp 's/.*\(remove this param\): dslc writes transparent_hugepage=never.*/x/p' 's/ param transparent_hugepage=madvise//'
$DSLC build $H/.help-kernel-thp.dsl -o "$T/thp" >/dev/null 2>&1
check "kernel-thp: without the param it lints clean and the command line has transparent_hugepage=never" \
	"grep -q 'error\\[kernel-thp\\]' '$T/a1' && [ -n '$v' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' && grep -q 'transparent_hugepage=never' '$T/thp/nodes/gpu001/usr/local/sbin/dslc-kernel-cmdline' || { cat '$T/a1' '$T/a2'; false; }"

# issue 52: the client template's asks and the pod's memory, as the help lines propose them
applied k8s-client-fit 's/.*ask for at most [0-9]*: `client_gpus \([0-9]*\)`.*/\1/p' 's/client_gpus 16/client_gpus @V@/'
check "k8s-client-fit: the proposed client_gpus $v lints clean" \
	"grep -q 'error\\[k8s-client-fit\\]' '$T/a1' && [ '$v' = 8 ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
applied k8s-client-topology 's/.*write `topology \([a-z-]*\)` in the kubelet block.*/\1/p' 's/topology single-numa-node/topology @V@/'
check "k8s-client-topology: the proposed topology $v lints clean" \
	"grep -q 'error\\[k8s-client-topology\\]' '$T/a1' && [ '$v' = restricted ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
applied k8s-client-topology 's/.*or ask for at most [0-9]*: `client_gpus \([0-9]*\)`.*/\1/p' 's/client_gpus 8/client_gpus @V@/'
check "k8s-client-topology: the proposed client_gpus $v lints clean under single-numa-node" \
	"[ '$v' = 4 ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
# issue 69 item 5: the kubelet version the DRA help proposes; the build then writes the claim templates
# shellcheck disable=SC2016
applied k8s-dra-unsupported 's/.*kubelet block: `\(version [0-9.]*\)`.*/\1/p' 's/version 1.33  topology/@V@  topology/'
$DSLC build "$H/.help-k8s-dra-unsupported.dsl" -o "$T/dra" >"$T/a3" 2>&1
check "k8s-dra-unsupported: the proposed \`$v\` lints clean and builds the ResourceClaimTemplate" \
	"grep -q 'error\\[k8s-dra-unsupported\\]' '$T/a1' && [ '$v' = 'version 1.34' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' && grep -q '^kind: ResourceClaimTemplate' '$T/dra/cluster/kubernetes/client-namespaces.yaml' || { cat '$T/a1' '$T/a2' '$T/a3'; false; }"
applied k8s-memory-request 's/.*write `server_memory \([0-9A-Za-z]*\)`.*/\1/p' 's/server_memory 100GiB/server_memory @V@/'
check "k8s-memory-request: the proposed server_memory $v lints clean" \
	"grep -q 'error\\[k8s-memory-request\\]' '$T/a1' && [ '$v' = 134GiB ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"

# issue 56: chunk-stripe's proposed chunk, for the container and for a directory of it
applied chunk-stripe 's/.*write `chunk \([0-9A-Za-z]*\)`.*/\1/p' 's/^  chunk 1536KiB$/  chunk @V@/'
check "chunk-stripe: the proposed container chunk $v takes the container's finding away" \
	"grep -q 'warning\\[chunk-stripe\\]: chunk 1536KiB is not' '$T/a1' && [ '$v' = 2MiB ] && ! grep -q 'chunk 1536KiB\\|error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"
$DSLC lint $D/chunk-stripe.dsl >"$T/a1" 2>&1
v=$(sed -n '/of directory \/restart/,$s/.*write `chunk \([0-9A-Za-z]*\)`.*/\1/p' "$T/a1" | head -n 1)
sed "s/chunk 2560KiB /chunk $v /" $D/chunk-stripe.dsl >$H/.help-chunk-stripe.dsl
$DSLC lint $H/.help-chunk-stripe.dsl >"$T/a2" 2>&1
check "chunk-stripe: the proposed directory chunk $v takes the directory's finding away" \
	"grep -q 'chunk 2560KiB of directory /restart' '$T/a1' && [ '$v' = 3MiB ] && ! grep -q 'of directory\\|error\\[' '$T/a2' || { cat '$T/a1' '$T/a2'; false; }"

# network and broadcast host addresses (issue 55): the proposed `{1+i}` applied
# to the template that gives a network address; the broadcast's last host
# applied as the template's base
$DSLC lint $D/dsl-address-network.dsl >"$T/n1" 2>&1
v=$(sed -n 's/.*start the template at the first (`\([^`]*\)` where it has `{i}`).*/\1/p' "$T/n1" | head -n 1)
last=$(sed -n "s/.*hosts are [0-9.]* to 10\.20\.0\.\([0-9]*\): keep.*/\1/p" "$T/n1" | head -n 1)
sed -e "s/mgmt    10.10.0.{i}/mgmt    10.10.0.$v/" -e "s/10.20.0.{254+i}/10.20.0.{$((last - 1))+i}/" $D/dsl-address-network.dsl >$H/.help-addr.dsl
$DSLC lint $H/.help-addr.dsl >"$T/n2" 2>&1; rc2=$?
check "network/broadcast addresses: the proposed $v and a base of the last host $last lint clean" \
	"grep -q 'the network address of its /24' '$T/n1' && grep -q 'the broadcast address of its /24' '$T/n1' && [ '$v' = '{1+i}' ] && [ '$last' = 254 ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/n2' || { cat '$T/n1' '$T/n2'; false; }"

# A help line that names an engine of a daos_server.yml with top-level fabric
# keys (DAOS fills an engine's absent or empty interface and absent or zero
# port from them: FabricConfig.Update, src/control/server/engine/config.go),
# applied: PROPOSAL (a sed expression) reads "value engine" from the help,
# EDIT (an awk program, given e and v) writes it into that engine; the file
# must lint clean and DAOS's loader accept it and derive each LOADER pattern
engine_help_case() { # label file lint-args finding proposal want edit loader-patterns...
	local label=$1 y=$2 args=$3 finding=$4 proposal=$5 want=$6 edit=$7 v val eng rc2 rc3 p bad=""
	shift 7
	$DSLC lint $args "$y" >"$T/t1" 2>&1
	v=$(sed -n "$proposal" "$T/t1" | head -n 1)
	val=${v% *} eng=${v#* }
	grep -v '^#' "$y" | awk -v e="$eng" -v v="$val" "$edit" >"$T/t.yml"
	$DSLC lint $args "$T/t.yml" >"$T/t2" 2>&1; rc2=$?
	check "$label: the help proposes $val for engine $eng, which lints clean (exit 0) once written there" \
		"grep -q '$finding' '$T/t1' && [ '$v' = '$want' ] && [ $rc2 = 0 ] && ! grep -q 'error\\[' '$T/t2' || { cat '$T/t1' '$T/t2'; false; }"
	have_loader "$label applied" || return 0
	loader_verdict -v "$T/t.yml"; rc3=$?
	for p in "$@"; do echo "$LOADER_OUT" | grep -q "$p" || bad="$bad [$p]"; done
	check "$label applied: DAOS's loader accepts it and derives$(printf ' %s;' "$@")" \
		"[ '$v' = '$want' ] && [ $rc3 = 0 ] && [ -z '$bad' ] || { echo \"\$LOADER_OUT\" | tail -n 5; echo 'not derived:$bad'; false; }"
}
XML=examples/hgx-b200/hgx-b200.xml
# fuzz_yaml's find: nic-not-local at a top-level fabric_iface; the help's key
# added to the engine it names gives that engine the new interface and the
# other still the top level's
engine_help_case "top-level fabric_iface" tests/golden/yaml/nic-top-level.yml "--topology $XML" \
	'error\[nic-not-local\]: ens1f0np0 is on NUMA node 0, but engine 1' \
	's/.*add `fabric_iface: \([^`]*\)` to engine \([0-9]*\),.*/\1 \2/p' 'ens2f0np0 1' \
	'{ print } /^- / && n++ == e { print "  fabric_iface: " v }' \
	'engine 1: env .*D_INTERFACE=ens2f0np0' 'engine 0: env .*D_INTERFACE=ens1f0np0'
# an engine's empty fabric_iface takes the top level's: the value is written
# into that engine's empty key
engine_help_case "empty fabric_iface beside a top-level one" tests/golden/yaml/top-level-fabric-empty.yml "--topology $XML" \
	'error\[nic-not-local\]: ens1f0np0 is on NUMA node 0, but engine 1' \
	's/.*write `fabric_iface: \([^`]*\)` in engine \([0-9]*\),.*/\1 \2/p' 'ens2f0np0 1' \
	'/^- / { n++ } n == e + 1 && /^  fabric_iface: ""/ { sub(/""/, v) } { print }' \
	'engine 1: env .*D_INTERFACE=ens2f0np0' 'engine 0: env .*D_INTERFACE=ens1f0np0' 'engine 0: env .*D_PORT=31416'
# a top-level fabric_iface_port both engines take on one interface (DAOS's
# loader refuses the duplicate): the engine the help names gets a port of
# its own
engine_help_case "top-level fabric_iface_port shared" tests/golden/yaml/top-level-port-shared.yml "" \
	'error\[fabric-port-collision\]: engines 0 and 1 share ens1f0np0' \
	's/.*give engine \([0-9]*\) a port of its own: `fabric_iface_port: \([0-9]*\)`.*/\2 \1/p' '32416 1' \
	'{ print } /^- / && n++ == e { print "  fabric_iface_port: " v }' \
	'engine 1: env .*D_PORT=32416' 'engine 0: env .*D_PORT=31416'

# unused-value (issue 71): the two blocks the helps name, added to the
# profile, and the addresses reach the networkd units the build writes
U=$H/.help-unused.dsl
$DSLC lint $D/unused-value.dsl >"$T/u1" 2>&1
storage=$(sed -n 's/.*add `\(network { storage mtu [0-9]* }\)` to the profile.*/\1/p' "$T/u1" | head -n 1)
bond=$(sed -n 's/.*add `\(mgmt bond [a-z-]* over macvlan\)` to the network block.*/\1/p' "$T/u1" | head -n 1)
awk -v blk="${storage% \}} $bond }" '{ print } /^    nvme roles/ { getline; print; print "  " blk }' \
	$D/unused-value.dsl >"$U"
$DSLC lint "$U" >"$T/u2" 2>&1; rcu=$?
# dslc show says the addresses are written nowhere before, and shows them plainly after
$DSLC show $D/unused-value.dsl gpu002 >"$T/u-show1" 2>&1
$DSLC show "$U" gpu002 >"$T/u-show2" 2>&1
check "unused-value: dslc show marks the addresses written nowhere, and not once the blocks are there" \
	"grep -q '^  storage ens1f0np0 10.20.0.11/24 (written nowhere: no network block)\$' '$T/u-show1' &&
	 grep -q '^  mgmt 10.10.0.11/24 (written nowhere: no mgmt bond over macvlan)\$' '$T/u-show1' &&
	 grep -q '^  storage ens1f0np0 10.20.0.11/24\$' '$T/u-show2' && ! grep -q 'written nowhere' '$T/u-show2' ||
	 { cat '$T/u-show1' '$T/u-show2'; false; }"
$DSLC build "$U" -o "$T/u-out" >/dev/null 2>&1
check "unused-value: the helps' blocks ($storage, $bond) added, the warnings go, the addresses reach the units" \
	"[ -n '$storage' ] && [ -n '$bond' ] && grep -q 'warning\\[unused-value\\]' '$T/u1' && [ $rcu = 0 ] && ! grep -q '\\[unused-value\\]' '$T/u2' &&
	 grep -rqs 'Address=10.20.0.11/24' '$T/u-out/nodes/gpu002/etc/systemd/network' && grep -rqs 'Address=10.10.0.11/24' '$T/u-out/nodes/gpu002/etc/systemd/network' || { cat '$T/u1' '$T/u2' \"$U\"; false; }"

# k8s_node_name (issue 69 item 5): a name Kubernetes refuses (upper case),
# the help's template written in its place, and label-nodes.sh names the nodes by it
K=$T/r/examples/hgx-b200-k8s/.help-k8s.dsl
sed 's|^  bmc     10.30.0.{10+i}|&\n  k8s_node_name "{host}.Example.com"|' examples/hgx-b200-k8s/cluster.dsl >"$K"
$DSLC lint "$K" >"$T/k1" 2>&1
# shellcheck disable=SC2016 # backquotes of the help text, not expansions
kv=$(sed -n 's/.*e\.g\. `k8s_node_name \("[^"]*"\)`.*/\1/p' "$T/k1" | head -n 1)
sed -i "s|k8s_node_name \"{host}.Example.com\"|k8s_node_name $kv|" "$K"
$DSLC build "$K" -o "$T/k-out" >"$T/k2" 2>&1; rck=$?
check "k8s_node_name: an upper-case name is bad-value at its line, the help's template ($kv) builds, label-nodes.sh names gpu001 by it" \
	"grep -q \"error\\[bad-value\\]: k8s_node_name '{host}.Example.com' gives 'gpu001.Example.com' for gpu001\" '$T/k1' && [ -n '$kv' ] && [ $rck = 0 ] &&
	 grep -q '^gpu001 [0-9a-f]* [0-9a-f]* [a-z0-9]* gpu001.example.com\$' '$T/k-out/cluster/kubernetes/label-nodes.sh' || { cat '$T/k1' '$T/k2'; false; }"

tests_end
