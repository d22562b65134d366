#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# dslc plan: the issue-13 cases, each a variant of the reference example
# planned against its committed tree (tests/golden/build/hgx-b200) or against
# the reference description, compared with tests/golden/plan/<case>.expected
# (exit status included); JSON output against schemas/plan.schema.json; a
# 16,384-node plan whose markdown stays under 64 KiB.
#   tests/plan_tests.sh DSLC [quick]    quick: no 16,384-node case (valgrind)
#   tests/plan_tests.sh DSLC update     regenerate (review the diff)
set -u
DSLC=$1
MODE=${2:-check}
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin plan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
EX=examples/hgx-b200
cp $EX/cluster.dsl $EX/hardware.dsl $EX/hgx-b200.xml "$T/"
TREE=tests/golden/build/hgx-b200
G=tests/golden/plan
mkdir -p $G

variant() { # name, sed program
	sed "$2" $EX/cluster.dsl >"$T/$1.dsl"
}
variant self ''
variant exclude-nvme 's/^node gpu007 { exclude nvme 0000:a4:00.0 }/node gpu007 { exclude nvme 0000:a4:00.0 0000:a3:00.0 }/'
variant log-mask 's/^  log_mask \( *\)ERR/  log_mask \1DEBUG/'
variant kernel-param 's/kernel { iommu pt  irqaffinity os }/kernel { iommu pt  irqaffinity os  param nmi_watchdog=0 }/'
variant bios-attribute 's/bios { AmdSetup.ACSEnable = Enabled }/bios { AmdSetup.ACSEnable = Enabled  AmdSetup.SriovGlobalEnable = Enabled }/'
variant new-pool '$a pool scratch { size 5% svc_rf 2 }'
variant container-property 's/  checksum crc32 server/  checksum crc64 server/'
variant nodes-added-removed 's/gpu\[001-014\]/gpu[001-013,015]/g'  # the nodes and their mount
# client-only nodes added and removed: no rank changes, so no agent refresh
variant clients-added-removed 's/cn\[01-04\]/cn[01-03,05]/g'
variant mount-threads 's/^  multi_user true$/&\n  threads 16/'
variant pool-acl 's/^pool tier0 { size 90% svc_rf 2 }$/pool tier0 { size 90% svc_rf 2 acl "A::OWNER@:rw" "A:G:GROUP@:r" }/'

plan_case() { # name, expected exit, args...
	name=$1 want=$2
	shift 2
	act=$($DSLC plan "$@" 2>&1; echo "exit: $?")
	exp=$G/$name.expected
	if [ "$MODE" = update ]; then
		printf '%s\n' "$act" >"$exp"
		return
	fi
	if [ "$act" = "$(cat "$exp" 2>/dev/null)" ] && [ "${act##*exit: }" = "$want" ]; then
		ok "$name (exit $want)"
	else
		no "$name (exit $want)"
		diff <(printf '%s\n' "$act") "$exp" | head -20
	fi
}
plan_case self 0 "$T/self.dsl" --against $TREE
plan_case exclude-nvme 4 "$T/exclude-nvme.dsl" --against $TREE
plan_case log-mask 3 "$T/log-mask.dsl" --against $TREE
plan_case kernel-param 3 "$T/kernel-param.dsl" --against $TREE
plan_case bios-attribute 3 "$T/bios-attribute.dsl" --against $TREE
plan_case new-pool 3 "$T/new-pool.dsl" --against $TREE
plan_case container-property 4 "$T/container-property.dsl" --against $TREE
plan_case nodes-added-removed 4 "$T/nodes-added-removed.dsl" --against $TREE
plan_case clients-added-removed 3 "$T/clients-added-removed.dsl" --against $TREE
plan_case mount-threads 3 "$T/mount-threads.dsl" --against $TREE
plan_case pool-removed 4 "$T/self.dsl" --against-source "$T/new-pool.dsl"
# an ACL added to the pool: online, and the ACL file it adds changes no node
plan_case pool-acl 3 "$T/pool-acl.dsl" --against-source "$T/self.dsl"
plan_case log-mask-source-markdown 3 "$T/log-mask.dsl" --against-source "$T/self.dsl" --format markdown
plan_case exclude-nvme-json 4 "$T/exclude-nvme.dsl" --against-source "$T/self.dsl" --format json
[ "$MODE" = update ] && { echo "plan goldens regenerated: review git diff $G"; exit 0; }

# both ways of planning say the same thing
a=$($DSLC plan "$T/log-mask.dsl" --against $TREE)
ra=$?
b=$($DSLC plan "$T/log-mask.dsl" --against-source "$T/self.dsl")
rb=$?
check "--against DIR and --against-source give the same plan (exit $ra, $rb)" "[ $ra = $rb ] && [ $ra -le 4 ] && [ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ]"

# against a tree dslc built here, with its cache beside it: nodes whose
# files the cache vouches for are neither read nor compared, the others'
# entries come from their spans of manifest.json. Every case must give the
# committed tree's plan byte for byte.
$DSLC build $EX/cluster.dsl -o "$T/built" 2>/dev/null
check "the tree built here is the committed one, and has its cache" "diff -r '$T/built' $TREE >/dev/null && [ -s '$T/built.dslc-cache' ]"
bad=""
for c in self exclude-nvme log-mask kernel-param bios-attribute new-pool container-property nodes-added-removed mount-threads; do
	act=$($DSLC plan "$T/$c.dsl" --against "$T/built" 2>&1; echo "exit: $?")
	[ "$act" = "$(cat $G/$c.expected)" ] || bad="$bad $c"
done
check "through the cache, all 9 cases give the committed tree's plans${bad:+ (not:$bad)}" "[ -z '$bad' ]"
# an edit the cache does not know (size and mtime put back): read and shown
f="$T/built/nodes/gpu004/etc/daos/daos_server.yml"
cp -p "$f" "$T/server.orig"
sed -i 's/^  log_mask: ERR$/  log_mask: DBG/' "$f"
touch -r "$T/server.orig" "$f"
$DSLC plan "$T/self.dsl" --against "$T/built" >"$T/o" 2>&1
check "a hand edit in a cached tree is planned (gpu004's log_mask back from DBG to ERR)" \
	"[ \$? = 3 ] && grep -q '1 changed, 17 unchanged' '$T/o' && grep -q 'gpu004' '$T/o' && grep -q 'DBG' '$T/o'"
cp -p "$T/server.orig" "$f"
# a build holding the tree's lock: plan waits for it (shared lock, as
# --check) and says so, DIR given with a trailing '/' (the lock is named
# without it); a tree no build here wrote gets no lock file
rm -f "$T/held"
flock -x "$T/built.dslc-lock" -c "touch '$T/held'; sleep 2" &
for _ in $(seq 100); do [ -e "$T/held" ] && break; sleep 0.05; done
$DSLC plan "$T/self.dsl" --against "$T/built/" >"$T/o" 2>"$T/e"
check "plan waits for a build that holds the tree's lock, and says so" "[ \$? = 0 ] && grep -q 'another dslc is building' '$T/e'"
wait
check "plan leaves no lock file beside a tree it did not build" "[ -s '$T/o' ] && [ ! -e $TREE.dslc-lock ]"

# a tree that is not dslc's, and usage errors
mkdir "$T/notdslc"
echo '{}' >"$T/notdslc/manifest.json"
$DSLC plan "$T/self.dsl" --against "$T/notdslc" >"$T/o" 2>&1
check "a directory without a dslc manifest: exit 2 and says so" "[ \$? = 2 ] && grep -q 'not a dslc manifest' '$T/o'"
$DSLC plan "$T/self.dsl" >"$T/o" 2>&1
check "plan without --against: usage, exit 2" "[ \$? = 2 ]"
$DSLC plan "$T/self.dsl" --against $TREE --format sarif >"$T/o" 2>&1
check "plan --format sarif: usage, exit 2" "[ \$? = 2 ]"
sed 's/targets 16/targets 1600/' $EX/cluster.dsl >"$T/broken.dsl"
$DSLC plan "$T/broken.dsl" --against $TREE >"$T/o" 2>&1
check "a description with errors: exit 1, no plan" "[ \$? = 1 ] && grep -q 'no plan' '$T/o'"

# the rollout's default apply refuses a DSLC_TREE whose manifest.json gives a
# wave's node other files than the plan: the digests the script carries are
# the ones `dslc build` writes, for every variant (node-only, pods: the k8s
# example, added and removed nodes)
sed "s|include \"../hgx-b200/hardware.dsl\"|include \"$PWD/$EX/hardware.dsl\"|" examples/hgx-b200-k8s/cluster.dsl >"$T/k8s.dsl"
sed 's/swim_suspect_timeout 120s/swim_suspect_timeout 90s/' "$T/k8s.dsl" >"$T/k8s-restart.dsl"
$DSLC build "$T/k8s.dsl" -o "$T/k8s-tree" >/dev/null 2>&1 || no "the k8s example builds"
nd=0 nbad=''
for c in exclude-nvme log-mask kernel-param bios-attribute nodes-added-removed clients-added-removed mount-threads k8s-restart; do
	against=$TREE
	[ "$c" != k8s-restart ] || against=$T/k8s-tree
	$DSLC build "$T/$c.dsl" -o "$T/digest-tree" >/dev/null 2>&1 || nbad="$nbad $c(build)"
	$DSLC plan "$T/$c.dsl" --against "$against" --format script >"$T/digest.sh" 2>/dev/null
	r=$(/usr/bin/python3 -c '
import json, re, sys
m = json.load(open(sys.argv[1]))["node_digests"]
lines = [l.split() for l in re.search(r"^dslc_digests=.([^\x27]*).$", open(sys.argv[2]).read(), re.M).group(1).splitlines() if l]
bad = [h for h, d in lines if m.get(h, "-") != d]
print(len(lines), " ".join(bad))' "$T/digest-tree/manifest.json" "$T/digest.sh" 2>&1)
	nd=$((nd + ${r%% *}))
	[ -z "${r#* }" ] || [ "${r#* }" = "$r" ] || nbad="$nbad $c(${r#* })"
	rm -rf "$T/digest-tree"
done
check "the rollout script's node digests are the built manifest's node_digests: $nd wave nodes over 8 variants (pods too)" "[ -z '$nbad' ] && [ $nd -gt 40 ]" || echo "  differ:$nbad"

if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	for c in exclude-nvme log-mask nodes-added-removed self; do
		$DSLC plan "$T/$c.dsl" --against $TREE --format json >"$T/$c.json"
		check "$c: JSON validates against schemas/plan.schema.json" "/usr/bin/python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' '$T/$c.json' schemas/plan.schema.json"
	done
else
	skip_or_fail_in_ci "JSON schema: python3-jsonschema is missing"
fi

if [ "$MODE" != quick ]; then
	# 16,384 nodes; every node's storage addresses and the log mask change:
	# 16,384 distinct values per address key, capped in the comment
	big() { # out, storage subnet octet
		sed -e 's/gpu\[001-014\]/gpu[00001-16384]/' -e 's/gpu\[001-003\]/gpu[00001-00003]/' -e 's/^node gpu007/node gpu00007/' \
			-e 's/10\.10\.0\.{10+i}/10.10.{i\/200}.{10+i%200}/' -e "s/10\\.20\\.0\\.{10+i}/10.$2.{i\\/200}.{10+i%200}/" \
			-e 's/10\.21\.0\.{10+i}/10.21.{i\/200}.{10+i%200}/' -e 's/10\.30\.0\.{10+i}/10.30.{i\/200}.{10+i%200}/' -e 's/\.0\.{100+i}/.250.{10+i}/g' "$3" >"$1"
	}
	big "$T/big-old.dsl" 20 $EX/cluster.dsl
	big "$T/big-new.dsl" 22 "$T/log-mask.dsl"
	$DSLC plan "$T/big-new.dsl" --against-source "$T/big-old.dsl" --format markdown >"$T/big.md" 2>"$T/big.err"
	rc=$?
	size=$(wc -c <"$T/big.md")
	check "16,384 nodes, every address changed: exit 3, markdown $size bytes < 64 KiB, all 16,384 nodes in the groups" \
		"[ $rc = 3 ] && [ $size -lt 65536 ] && grep -q 'gpu\\\\\\[00001-16384\\\\\\]' '$T/big.md' && grep -q '0 added, 0 removed, 16384 changed' '$T/big.md' || { head -c 3000 '$T/big.md'; cat '$T/big.err'; false; }"
fi
tests_end
