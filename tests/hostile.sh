#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Hostile inputs: every reproducer of the security review (issue 9) as a test.
# Each runs in a scratch directory; the checks are the promises of SPEC.md's
# "Security model": a located error, no write outside -o (nothing named
# ESCAPED or PWNED appears anywhere), no command run, no crash, no hang.
# `timeout` is a hang guard, not a speed claim (make bench has the figures).
#   tests/hostile.sh DSLC [quick]   quick: skip the large inputs (valgrind)
set -u
DSLC=$1
QUICK=${2:-}
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin hostile
ROOT=$(pwd)
# the cases run in scratch directories: make the binary's path absolute
# (DSLC may be "valgrind ... build/dslc")
bin=${DSLC##* } pre=${DSLC% *}
[ "$pre" = "$DSLC" ] && pre=""
case $bin in /*) ;; *) bin=$ROOT/$bin ;; esac
DSLC="$pre $bin"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SEEDS=$ROOT/tests/fuzz/seeds/dsl
# A hang guard, not a timing test (issue 43 item 7): the slowest case here
# takes seconds plain and under a minute under ASan on a loaded 2-core
# machine; five minutes is a hang. How fast large inputs are is make bench's.
GUARD=${DSLC_GUARD:-300}

# case NAME: a fresh directory $T/NAME/w (the working directory) with the
# seed files beside it; nothing may appear outside w/out.
new_case() {
	C=$T/$1
	mkdir -p "$C/w"
	cp "$SEEDS"/*.dsl "$C/w/"
}

# dslc_in [--guard S] ARGS...: runs dslc in the current case's directory;
# sets RC and ERR (the file holding its output, stdout and stderr).
dslc_in() {
	local guard=$GUARD
	if [ "$1" = --guard ]; then guard=$2; shift 2; fi
	(cd "$C/w" && timeout "$guard" $DSLC "$@" >"$C/out" 2>&1)
	RC=$?
	ERR=$C/out
}

# build NAME FILE [args]: a new case, then dslc build FILE -o out there.
build() {
	new_case "$1"
	local file=$2
	shift 2
	dslc_in build "$file" -o out "$@"
}

no_escape() { [ -z "$(find "$T" \( -name '*ESCAPED*' -o -name '*PWNED*' \) -print -quit)" ]; }

# expect NAME RULE LINE: exit 1, the rule at FILE:LINE, nothing written
expect() {
	check "$1: exit 1 with error[$2] at line $3, nothing written, nothing escaped" \
		"[ $RC = 1 ] && grep -q ':$3:[0-9]*: error\\[$2\\]' '$ERR' && [ ! -e '$C/w/out' ] && no_escape || { cat '$ERR' | head -8; false; }"
}

# 1. names that would leave the tree or inject unit lines
build nic-path nic-path.dsl
expect "NIC name with ../ (DSL)" unsafe-value 12
build nic-newline nic-newline.dsl
expect "NIC name with a newline" unsafe-value 12
new_case nic-topology
sed 's/name="ens1f0np0"/name="eth0\/..\/..\/..\/..\/..\/..\/ESCAPED"/' examples/hgx-b200/hgx-b200.xml >"$C/w/evil.xml"
sed 's/^  topology *"hgx-b200.xml"/  topology "evil.xml"\n  nic auto/; /nic  ens1f0np0/d' examples/hgx-b200/hardware.dsl >"$C/w/hw.dsl"
sed 's|include "hardware.dsl"|include "hw.dsl"|; s|ens1f0np0 10.20|eth0/../../../../../../ESCAPED 10.20|' examples/hgx-b200/cluster.dsl >"$C/w/c.dsl"
dslc_in build c.dsl -o out
expect "NIC name with ../ from a topology export, at its nic auto line" unsafe-value 12
L=$(grep -n '^  storage' "$C/w/c.dsl" | cut -d: -f1)
check "... and at the storage line that names it" "grep -q 'c.dsl:$L:[0-9]*: error\\[unsafe-value\\]' '$ERR'"

# paths the description names for daos_server (scm_mount is a pod hostPath too)
new_case scm-mount
sed 's|^  engine per numa { targets 8 helpers 2 scm ram 32GiB|  engine numa 1 { scm_mount "/mnt/../ESCAPED" }\n  engine per numa { targets 8 helpers 2 scm ram 32GiB|' "$SEEDS/base.dsl" >"$C/w/m.dsl"
dslc_in build m.dsl -o out
expect "scm_mount with ../" unsafe-value 21
new_case control-log-file
sed 's|^  fabric roce { gid_index 3 }|  fabric roce { gid_index 3 }\n  control_log_file "/var/log/daos/x\\nPWNED: 1"|' "$SEEDS/base.dsl" >"$C/w/l.dsl"
dslc_in build l.dsl -o out
expect "control_log_file with a newline (a second YAML key)" unsafe-value 6

# 2. commands
build bmc-system bmc-system.dsl
expect "Redfish system id with ;" unsafe-value 16
build pool-acl-newline pool-acl-newline.dsl --disable pool-acl
expect "an ACL entry with a newline (one more line in the ACL file), under --disable pool-acl" unsafe-value 37
build kernel-suppressed kernel-suppressed.dsl
expect "kernel parameter with \$( ) under a suppression" unsafe-value 24
build kernel-disabled kernel-suppressed.dsl --disable kernel-param-syntax
expect "kernel parameter with \$( ) under --disable kernel-param-syntax" unsafe-value 24
build unsafe-disable base.dsl --disable unsafe-value
check "--disable unsafe-value is refused (exit 2)" "[ $RC = 2 ] && grep -q 'cannot be disabled' '$ERR'"
new_case unsafe-allow
sed 's|  # dslc: allow kernel-param-syntax -- fuzz seed|  # dslc: allow kernel-param-syntax, unsafe-value -- trying|' "$SEEDS/kernel-suppressed.dsl" >"$C/w/k.dsl"
dslc_in build k.dsl -o out
expect "allow unsafe-value does not silence it" unsafe-value 24

new_case disable-placement
dslc_in build "$ROOT/tests/golden/diag/device-numa-mismatch.dsl" -o out --disable device-numa-mismatch
check "--disable of a placement error stops the build with plan-incomplete, nothing written" \
	"[ $RC = 1 ] && grep -q 'error\\[plan-incomplete\\]' '$ERR' && [ ! -e '$C/w/out' ]"

# 3. arithmetic
build template-fpe template-fpe.dsl
expect "INT64_MIN / -1 in an address template" bad-value 28
check "the template error says overflow" "grep -q 'overflows a 64-bit integer' '$ERR'"
build scm-wrap scm-wrap.dsl
expect "scm ram 17179869176GiB" bad-value 21
build port-wrap port-wrap.dsl
expect "fabric_port 65535 (engine 1 would get 66535)" bad-value 5
build kubelet-version kubelet-version.dsl
expect "kubelet version 1.99999999999999999999" bad-value 25

# 4. names compared as DNS does
build host-case host-case.dsl
expect "N1 and n2. duplicate n1 and n2" duplicate-definition 27
check "both duplicates reported, saying why" "grep -q 'node N1 is defined twice' '$ERR' && grep -q 'node n2. is defined twice' '$ERR' && grep -q 'N1 is n1' '$ERR'"

# 5. bytes a string must not hold
new_case utf8
printf 'daos 2.6\ncluster c {\n  provider "ofi+tcp\xff"\n}\n' >"$C/w/u.dsl"
dslc_in lint u.dsl
check "invalid UTF-8 in a string is a located syntax error" "[ $RC = 1 ] && grep -q 'u.dsl:3:12: error\\[syntax\\]: the string is not valid UTF-8' '$ERR'"
printf 'daos 2.6\ncluster c {\n  provider "ofi\033[2J+tcp"\n}\n' >"$C/w/e.dsl"
dslc_in lint e.dsl
check "a raw control byte in a string is a syntax error, and never echoed" \
	"[ $RC = 1 ] && grep -q 'control byte 0x1b in a string' '$ERR' && ! grep -q \$'\\033' '$ERR'"

# 6. files that never end
new_case fifo
mkfifo "$C/w/pipe" "$C/w/pipe.dsl"
printf 'daos 2.6\ninclude "pipe.dsl"\n' >"$C/w/i.dsl"
dslc_in --guard 10 lint i.dsl
check "include of a FIFO is refused at once" "[ $RC = 1 ] && grep -q 'not a regular file' '$ERR'"
sed 's|^  topology *"hgx-b200.xml"|  topology "pipe"|' examples/hgx-b200/hardware.dsl >"$C/w/hw.dsl"
sed 's|include "hardware.dsl"|include "hw.dsl"|' examples/hgx-b200/cluster.dsl >"$C/w/c.dsl"
dslc_in --guard 10 lint c.dsl
check "topology of a FIFO is refused at once" "[ $RC = 1 ] && grep -q 'error\\[topology-load\\].*not a regular file' '$ERR'"
new_case bomb
for i in $(seq 0 10); do
	if [ "$i" = 10 ]; then echo "# leaf" >"$C/w/b$i.dsl"; else
		for k in 1 2 3 4 5 6; do echo "include \"b$((i + 1)).dsl\""; done >"$C/w/b$i.dsl"; fi
done
printf 'daos 2.6\ninclude "b0.dsl"\n' >"$C/w/bomb.dsl"
dslc_in --guard 10 lint bomb.dsl
check "6^10 includes stop at the include budget" "[ $RC = 1 ] && grep -q 'error\\[input-limit\\]: more than 1024 included files' '$ERR'"

# 7. the YAML linter
for y in roles-map:bdev-roles targets-max:yaml-type; do
	f=${y%%:*} rule=${y#*:}
	timeout "$GUARD" $DSLC lint "tests/fuzz/seeds/yaml/$f.yml" >"$T/$f.out" 2>&1
	rc=$?
	check "YAML $f: exit 1 with $rule, no crash" "[ $rc = 1 ] && grep -q 'error\\[$rule\\]' '$T/$f.out'"
done

# 8. echoed values are bounded
new_case echo
{ printf 'daos 2.6\nnodes '; head -c 10000000 /dev/zero | tr '\0' a; printf ' : nothing\n'; } >"$C/w/long.dsl"
(cd "$C/w" && timeout "$GUARD" $DSLC lint long.dsl >"$C/out" 2>&1)
RC=$?
check "a 10 MB name is echoed in under 4 KiB" "[ $RC = 1 ] && [ \$(wc -c <'$C/out') -lt 4096 ]"

# 9. large inputs: linear, not quadratic (skipped under valgrind)
if [ -z "$QUICK" ]; then
	new_case big
	base=$SEEDS/base.dsl
	{ sed -n '1,/^  reserve os/p' "$base"; for i in $(seq 1 40000); do echo "  env V$i=$i"; done; sed '1,/^  reserve os/d' "$base"; } >"$C/w/env.dsl"
	{ cat "$base"; for i in $(seq 1 40000); do echo "pool q$i { size 1TiB }"; echo "container k$i in q$i { type posix checksum crc32 server }"; done; } >"$C/w/pools.dsl"
	/usr/bin/python3 - "$C/w" <<'PYEOF'
import sys
d = sys.argv[1]
with open(d + "/keys.yml", "w") as f:
    f.write("name: daos_server\n")
    for i in range(1000000):
        f.write("k%d: 1\n" % i)
base = open(d + "/base.dsl").read().replace("nodes n[1-3] : p {", "nodes n[1-3], m[000001-050000], m[050001-100000] : p {")
base = base.replace("10.0.0.{10+i}/24", "12.{i/60000}.{i/250%240}.{i%250+1}/8").replace("10.1.0.{i*2+1}/24", "13.{i/60000}.{i/250%240}.{i%250+1}/8")
base = base.replace("10.1.0.{n*2}/24", "14.{i/60000}.{i/250%240}.{i%250+1}/8").replace("10.2.0.{n}", "15.{i/60000}.{i/250%240}.{i%250+1}")
with open(d + "/blocks.dsl", "w") as f:
    f.write(base)
    for i in range(1, 100001):
        f.write("node m%06d { exclude nvme 0000:a2:00.0 }\n" % i)
PYEOF
	# env and pools lint without errors (pools: 40,000 rd-fac-zero warnings,
	# capped); the million unknown keys are errors
	for f in env.dsl:0 pools.dsl:0 keys.yml:1; do
		(cd "$C/w" && timeout "$GUARD" $DSLC lint "${f%%:*}" >/dev/null 2>&1)
		rc=$?
		check "large input ${f%%:*} finishes with exit ${f#*:} (got $rc)" "[ $rc = ${f#*:} ]"
	done
	# The memory bar is the shipped build's: ASan's shadow memory and
	# quarantine add about two thirds (1,048,836 KiB against 630,628 plain
	# on this input), so under ASan the lint must finish clean and the
	# plain pass holds the bar.
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		(cd "$C/w" && timeout "$GUARD" $DSLC lint blocks.dsl >/dev/null 2>&1)
		rc=$?
		check "100,000 node blocks lint clean (exit $rc)" "[ $rc = 0 ]"
		skip "100,000 node blocks' memory: under ASan, whose shadow memory adds about two thirds; the plain pass holds the 1 GiB bar"
	elif [ -x /usr/bin/time ]; then
		(cd "$C/w" && timeout "$GUARD" /usr/bin/time -f '%M' -o "$C/rss" $DSLC lint blocks.dsl >/dev/null 2>&1)
		rc=$?
		kb=$(tail -n 1 "$C/rss" 2>/dev/null)
		check "100,000 node blocks lint clean in under 1 GiB (exit $rc, max RSS ${kb:-not measured} KiB)" \
			"[ $rc = 0 ] && [ '${kb:-0}' -gt 0 ] && [ '${kb:-0}' -lt 1048576 ]"
	else
		skip_or_fail_in_ci "RSS check: /usr/bin/time is missing"
	fi
fi

# 10. the output tree is dslc's alone
EX=$ROOT/examples/hgx-b200/cluster.dsl
O=$T/tree
mkdir -p "$O"
$DSLC build "$EX" -o "$O/out" >/dev/null 2>&1
mkdir "$O/outside"
cp -r "$O/out/nodes/gpu001/." "$O/outside/"
rm -rf "$O/out/nodes/gpu001"
ln -s "$O/outside" "$O/out/nodes/gpu001"
repo_copy "$O/src" examples/hgx-b200
sed -i 's/crt_timeout \( *\)600s/crt_timeout \1601s/' "$O/src/examples/hgx-b200/cluster.dsl"
$DSLC build "$O/src/examples/hgx-b200/cluster.dsl" -o "$O/out" >/dev/null 2>&1
rc=$?
check "a symlinked node directory in the old tree: rebuilt as a real directory, nothing linked outside" \
	"[ $rc = 0 ] && [ ! -L '$O/out/nodes/gpu001' ] && [ -d '$O/out/nodes/gpu001' ] && [ -z \"\$(find '$O/outside' -type f -links +1)\" ] && grep -q 600 '$O/outside/etc/daos/daos_server.yml'"
mkdir "$O/stray"
echo '{}' >"$O/stray/manifest.json"
echo precious >"$O/stray/notes.txt"
$DSLC build "$EX" -o "$O/stray" >/dev/null 2>"$O/stray.err"
rc=$?
check "a directory with a manifest.json dslc did not write is refused" \
	"[ $rc = 2 ] && grep -q 'manifest.json that dslc did not write' '$O/stray.err' && [ \"\$(cat '$O/stray/notes.txt')\" = precious ]"
/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); m["files"].append({"path": "nodes/x/missing"}); json.dump(m, open(sys.argv[1], "w"))' "$O/out/manifest.json"
$DSLC build "$EX" -o "$O/out" >/dev/null 2>"$O/missing.err"
rc=$?
check "a manifest listing a file that is not there is refused" "[ $rc = 2 ] && grep -q \"listing 'nodes/x/missing'\" '$O/missing.err'"
rm -rf "$O/out"
mkdir -p "$O/out.dslc-new-999999/nodes" "$O/out.dslc-old-999998"
touch "$O/out.dslc-new-999999/nodes/file"
$DSLC build "$EX" -o "$O/out" >/dev/null 2>&1
check "stale staging directories of a dead build are removed" \
	"[ $? = 0 ] && [ ! -e '$O/out.dslc-new-999999' ] && [ ! -e '$O/out.dslc-old-999998' ]"
if command -v flock >/dev/null; then
	# the holder keeps the lock until the build says it waits (60 s at most),
	# and the build starts once the lock is held: no timing to lose under load
	: >"$O/lock.err"
	flock "$O/out.dslc-lock" sh -c 'i=0; while [ $i -lt 600 ] && ! grep -q "another dslc is building" "$1"; do sleep 0.1; i=$((i + 1)); done' sh "$O/lock.err" &
	i=0
	while [ $i -lt 200 ] && flock -n "$O/out.dslc-lock" true; do sleep 0.05; i=$((i + 1)); done
	$DSLC build "$EX" -o "$O/out" >/dev/null 2>"$O/lock.err"
	rc=$?
	wait
	check "a second build waits for the lock and says so" "[ $rc = 0 ] && grep -q 'another dslc is building' '$O/lock.err'"
else
	skip_or_fail_in_ci "the build lock: flock (util-linux) is not installed"
fi
ln -s "$O/out" "$O/link"
$DSLC build "$EX" -o "$O/link" >/dev/null 2>"$O/link.err"
check "-o naming a symbolic link is a clear error" "[ $? = 2 ] && grep -q 'is a symbolic link to' '$O/link.err' && [ -L '$O/link' ]"
mkdir "$O/mnt"
if unshare -m sh -c "mount -t tmpfs none '$O/mnt'" 2>/dev/null; then
	unshare -m sh -c "mount -t tmpfs none '$O/mnt' && $DSLC build '$EX' -o '$O/mnt'" >/dev/null 2>"$O/mnt.err"
	check "-o naming a mount point is a clear error" "[ $? = 2 ] && grep -q 'is a mount point' '$O/mnt.err'"
else
	skip "mount point: no mount namespace here (unshare -m needs root)"
fi
$DSLC build "$EX" -o "$O/out/." >/dev/null 2>"$O/dot.err"
check "-o ending in . is a clear error" "[ $? = 2 ] && grep -q 'name the output directory itself' '$O/dot.err'"
# 11. issue 28: an address template without its prefix length crashed the
# resolver (a stale message pointer); a label starting with '-' became an
# option of dmg or daos
new_case prefix
sed 's|mgmt 10.0.0.{10+i}/24|mgmt 10.0.0.{10+i}|' "$SEEDS/base.dsl" >"$C/w/mgmt.dsl"
sed 's|storage ens1 10.1.0.{i\*2+1}/24|storage ens1 10.1.0.{i*2+1}|' "$SEEDS/base.dsl" >"$C/w/storage.dsl"
for f in mgmt:28 storage:29; do
	dslc_in build "${f%%:*}.dsl" -o out
	check "${f%%:*} address without /prefix: exit 1 with bad-value at line ${f#*:} (got $RC), nothing written" \
		"[ $RC = 1 ] && grep -q '^${f%%:*}.dsl:${f#*:}:[0-9]*: error\\[bad-value\\]: .*missing /prefix' '$ERR' && [ ! -e '$C/w/out' ] || { head -5 '$ERR'; false; }"
done
new_case label
{ cat "$SEEDS/base.dsl"; echo 'pool -x { size 1TiB }  # dslc: allow unsafe-value -- try'; echo 'container -c in p1 { type posix }'; } >"$C/w/label.dsl"
dslc_in build label.dsl -o out --disable bad-value
check "pool and container labels starting with '-': unsafe-value at both, not silenced, nothing written" \
	"[ $RC = 1 ] && grep -q '^label.dsl:35:6: error\\[unsafe-value\\]: pool label .-x.' '$ERR' && grep -q '^label.dsl:36:11: error\\[unsafe-value\\]: container label .-c.' '$ERR' && [ ! -e '$C/w/out' ] || { head -12 '$ERR'; false; }"
# plan --against a tree with links in it (a tree in a pull request): the
# link's target is never read or printed as an "old" value
new_case planlink
cp -r examples/hgx-b200 "$C/w/ex"
$DSLC build "$C/w/ex/cluster.dsl" -o "$C/w/tree" >/dev/null 2>&1
rm -f "$C/w/tree.dslc-cache"
echo 'log_mask: SECRET-TOKEN-4711' >"$C/secret.yml"
ln -sf "$C/secret.yml" "$C/w/tree/nodes/gpu001/etc/daos/daos_server.yml"
mkdir -p "$C/secretdir/daos" && cp "$C/secret.yml" "$C/secretdir/daos/daos_server.yml"
rm -rf "$C/w/tree/nodes/gpu002/etc" && ln -s "$C/secretdir" "$C/w/tree/nodes/gpu002/etc"
sed -i 's/^  log_mask \( *\)ERR/  log_mask \1WARN/' "$C/w/ex/cluster.dsl"
dslc_in plan ex/cluster.dsl --against tree --format json
check "plan against a tree with a linked file and a linked directory never prints their targets (exit $RC)" \
	"[ $RC = 3 ] && ! grep -q SECRET '$ERR' || { grep -n SECRET '$ERR' | head -3; false; }"
# a FIFO where the lock or the journal belongs blocks nothing
new_case fifo
$DSLC build "$EX" -o "$C/w/tree" >/dev/null 2>&1
rm -f "$C/w/tree.dslc-lock" && mkfifo "$C/w/tree.dslc-lock"
dslc_in --guard 20 build "$EX" -o tree
check "a FIFO as the lock: build exits 2 at once, saying so (got $RC)" "[ $RC = 2 ] && grep -q 'not a regular file' '$ERR'"
dslc_in --guard 20 plan "$EX" --against tree
check "a FIFO as the lock: plan exits 2 at once (got $RC)" "[ $RC = 2 ]"
rm -f "$C/w/tree.dslc-lock"
mkfifo "$C/w/tree.dslc-journal"
dslc_in --guard 20 build "$EX" -o tree
check "a FIFO as the journal: the build does not wait on it (exit $RC, not 124)" "[ $RC != 124 ] && grep -q 'not a journal dslc wrote' '$ERR'"
# a forged DIR.dslc-cache beside a directory that is not a dslc tree: the
# cache alone never makes it replaceable (it replaced the directory before)
new_case forged
mkdir "$C/w/home" && echo precious >"$C/w/home/notes.txt"
python3 "$ROOT/tests/forge_cache.py" "$C/w/home"
dslc_in build "$EX" -o home
check "a forged cache beside a foreign directory: refused (exit $RC), its file kept" \
	"[ $RC = 2 ] && grep -q 'refusing to replace it' '$ERR' && [ -f '$C/w/home/notes.txt' ] && [ ! -e '$C/w/home/manifest.json' ]"
# a large file where the cache belongs is judged by its first bytes: a
# 3 GiB sparse file (read whole, it cost 3 GiB of memory before)
$DSLC build "$EX" -o "$C/w/tree" >/dev/null 2>&1
rm -f "$C/w/tree.dslc-cache" && truncate -s 3G "$C/w/tree.dslc-cache"
if [ -z "$pre" ] && [ -x /usr/bin/time ]; then
	(cd "$C/w" && /usr/bin/time -f '%M' -o "$C/rss" $DSLC build "$EX" -o tree >/dev/null 2>&1)
	check "a 3 GiB file as the cache: the build reads its header only (max RSS $(cat "$C/rss") KiB < 200 MiB)" \
		"[ \$(cat '$C/rss') -lt 204800 ]"
fi
# include of a file that is not a description: a parse error would quote
# its first line (a secret in a CI log); refused before it is read
new_case secret
echo 'token = SECRET-TOKEN-4711' >"$C/secret.env"
ln -s "$C/secret.env" "$C/w/vars.dsl"
printf 'daos 2.6\ninclude "%s"\ninclude "vars.dsl"\n' "$C/secret.env" >"$C/w/i.dsl"
dslc_in lint i.dsl
check "include of a non-.dsl file and of a .dsl link to it: include errors at lines 2 and 3, the secret never printed" \
	"[ $RC = 1 ] && grep -q '^i.dsl:2:9: error\\[include\\]: .* is not a .dsl file' '$ERR' && grep -q '^i.dsl:3:9: error\\[include\\]: .*is a link to a file not named' '$ERR' && ! grep -q SECRET '$ERR' || { head -12 '$ERR'; false; }"
# plan against a hostile old tree (issue 28): a path listed twice, a file of
# 150,000 distinct keys (quadratic before: minutes), control bytes in an old
# value, a tree left mid-swap by a killed build
new_case planold
$DSLC build "$EX" -o "$C/w/tree" >/dev/null 2>&1
rm -f "$C/w/tree.dslc-cache"
cp "$C/w/tree/manifest.json" "$C/manifest.orig"
python3 - "$C/w/tree/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["files"] = m["files"] + m["files"][:1] * 1000
json.dump(m, open(sys.argv[1], "w"))
PY
dslc_in --guard 20 plan "$EX" --against tree
check "plan: a manifest listing a path twice is refused (exit $RC)" "[ $RC = 2 ] && grep -q 'lists .* twice' '$ERR'"
cp "$C/manifest.orig" "$C/w/tree/manifest.json"
net=$(ls "$C"/w/tree/nodes/gpu001/etc/systemd/network/*.network | head -1)
if [ -z "$QUICK" ]; then
	cp "$net" "$C/net.orig"
	python3 -c "
import sys
out = []
for l in open(sys.argv[1]).read().splitlines():
    out.append(l)
    if l.startswith('[Network]'):
        out += ['K%d=v' % i for i in range(150000)]
open(sys.argv[1], 'w').write('\\n'.join(out) + '\\n')" "$net"
	dslc_in --guard 30 plan "$EX" --against tree
	check "plan: an old unit of 150,000 distinct keys is compared in linear time (exit $RC, not 124)" "[ $RC = 3 ]"
	cp "$C/net.orig" "$net"
fi
sed -i 's/^MTUBytes=.*/MTUBytes=9000\x1b[2J\x1b]0;PWNED\x07/' "$net"
grep -q "$(printf '\033')" "$net" || sed -i "s/^\\(\\[Link\\]\\)\$/\\1\\nMTUBytes=1$(printf '\033')[2J/" "$net"
dslc_in plan "$EX" --against tree
check "plan: control bytes of an old value are escaped, never written to the terminal (exit $RC)" \
	"[ $RC = 3 ] && grep -q 'x1b' '$ERR' && ! grep -q \"\$(printf '\\033')\" '$ERR' || { cat -v '$ERR' | head -8; false; }"
: >"$C/w/tree.dslc-journal"
dslc_in plan "$EX" --against tree
check "plan: a tree left mid-swap (journal present) is refused, saying how to finish it (exit $RC)" \
	"[ $RC = 2 ] && grep -q 'interrupted while it replaced the tree' '$ERR'"
rm -f "$C/w/tree.dslc-journal"
# a mode changed by hand is stale for --check and plan, and the build restores it, whatever the umask
new_case mode
(umask 077 && $DSLC build "$EX" -o "$C/w/tree" >/dev/null 2>&1)
yml=$C/w/tree/nodes/gpu001/etc/daos/daos_server.yml
check "files get the manifest's modes under umask 077 (0644 and 0755 for the script)" \
	"[ \$(stat -c %a '$yml') = 644 ] && [ \$(stat -c %a '$C/w/tree/cluster/daos-pools.sh') = 755 ]"
chmod 600 "$yml"
dslc_in build "$EX" -o tree --check
check "--check: a file chmod'ed by hand is stale (exit $RC)" "[ $RC = 1 ] && grep -q 'daos_server.yml: mode 0600, not 0644' '$ERR'"
rm -f "$C/w/tree.dslc-cache"
dslc_in plan "$EX" --against tree
check "plan: a file chmod'ed by hand shows as a mode change (exit $RC)" "[ $RC = 3 ] && grep -q '(mode)' '$ERR' && grep -q '0600 -> 0644' '$ERR'"
dslc_in build "$EX" -o tree
check "build restores the mode (exit $RC)" "[ $RC = 0 ] && [ \$(stat -c %a '$yml') = 644 ]"
# a stray top-level file is removed by the next build (it survived before:
# the root had been read to its end through a shared directory offset)
new_case stray
$DSLC build "$EX" -o "$C/w/tree" >/dev/null 2>&1
echo x >"$C/w/tree/stray.txt"
dslc_in build "$EX" -o tree
check "a stray top-level file is removed by the next build (exit $RC)" "[ $RC = 0 ] && [ ! -e '$C/w/tree/stray.txt' ] && grep -q '1 removed' '$ERR'"
# lint --fix at byte offsets: libyaml counts characters after a BOM, so a
# YAML file with a BOM and multi-byte UTF-8 was corrupted; a link is refused
# and nothing is reported as fixed
new_case fixutf8
Y=$ROOT/tests/golden/yaml/mixed-modes.yml
cp "$Y" "$C/w/ascii.yml"
(cd "$C/w" && $DSLC lint --fix ascii.yml >/dev/null 2>&1)
{ printf '\357\273\277# caf\303\251 \342\202\254 \342\202\254\n'; cat "$Y"; } >"$C/w/u.yml"
{ printf '\357\273\277# caf\303\251 \342\202\254 \342\202\254\n'; cat "$C/w/ascii.yml"; } >"$C/want.yml"
dslc_in lint --fix u.yml
check "--fix of a YAML file with a BOM and UTF-8 edits the right bytes (exit $RC)" \
	"! cmp -s '$Y' '$C/w/ascii.yml' && cmp '$C/w/u.yml' '$C/want.yml'"
cp "$Y" "$C/w/m.yml" && ln -s m.yml "$C/w/link.yml"
dslc_in lint --fix link.yml
check "--fix on a symbolic link: refused, nothing reported fixed, the file unchanged (exit $RC)" \
	"[ $RC = 2 ] && grep -q 'it is a symbolic link' '$ERR' && grep -q ' 0 findings fixed in 0 files' '$ERR' && cmp -s '$Y' '$C/w/m.yml' && [ -L '$C/w/link.yml' ]"
# Kubernetes values reach objects and scripts only in the consumer's
# grammar: reserved_cpus as the kubelet parses it (it refused to start),
# node names as DNS-1123 subdomains, the cluster name as a label value; none
# can be silenced
new_case k8snames
cp -r "$ROOT/examples/hgx-b200" "$ROOT/examples/hgx-b200-k8s" "$C/w/"
K=$C/w/hgx-b200-k8s/cluster.dsl
cp "$K" "$C/k8s.orig"
for v in '0-3,foo' '0-99999' '7-3' '0-3,'; do
	sed "s|    memory_manager static|    memory_manager static\\n    reserved_cpus \"$v\"  # dslc: allow unsafe-value, kubelet-reserved-cpus -- try|" "$C/k8s.orig" >"$K"
	dslc_in build hgx-b200-k8s/cluster.dsl -o out --disable bad-value
	L=$(grep -n '^    reserved_cpus "' "$K" | cut -d: -f1)
	check "reserved_cpus \"$v\": unsafe-value at its line ($L), not silenced, nothing written (exit $RC)" \
		"[ $RC = 1 ] && [ -n '$L' ] && grep -q '^hgx-b200-k8s/cluster.dsl:$L:[0-9]*: error\\[unsafe-value\\]: reserved_cpus' '$ERR' && [ ! -e '$C/w/out' ] || { head -5 '$ERR'; false; }"
done
sed 's|^nodes gpu\[001-014\]|nodes GPU_[001-014]|; s|^node gpu007|node GPU_007|' "$C/k8s.orig" >"$K"
dslc_in build hgx-b200-k8s/cluster.dsl -o out
check "a pods node named GPU_001: unsafe-value (its Kubernetes node name, lower case: gpu_001), nothing written (exit $RC)" \
	"[ $RC = 1 ] && grep -q 'error\\[unsafe-value\\]: Kubernetes node name .gpu_001.' '$ERR' && [ ! -e '$C/w/out' ] || { head -5 '$ERR'; false; }"
# k8s_node_name (issue 69 item 5): a name with shell in it, even with its
# bad-value disabled, is refused (unsafe-value) and nothing is written
sed "s|^  bmc     10.30.0.{10+i}|&\\n  k8s_node_name \"a';touch $C/pwn;'{i}\"|" "$C/k8s.orig" >"$K"
dslc_in build hgx-b200-k8s/cluster.dsl -o out --disable bad-value
check "k8s_node_name with shell in it, bad-value disabled: unsafe-value, nothing written (exit $RC)" \
	"[ $RC = 1 ] && grep -q 'error\\[unsafe-value\\]: Kubernetes node name .a.;touch ' '$ERR' && [ ! -e '$C/w/out' ] && [ ! -e '$C/pwn' ] || { head -5 '$ERR'; false; }"
# client_gpu_class (issue 69 item 5): a DeviceClass name with shell in it, bad-value
# disabled: kept, so the kubernetes target refuses it, and nothing is written
sed "s|^    agent_run_as 1002:1002|&  client_gpus 8  client_namespace ml  client_gpu_class \"a';touch $C/pwn;'\"|" "$C/k8s.orig" >"$K"
dslc_in build hgx-b200-k8s/cluster.dsl -o out --disable bad-value
check "client_gpu_class with shell in it, bad-value disabled: unsafe-value at its line, nothing written (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^hgx-b200-k8s/cluster.dsl:20:.*error\\[unsafe-value\\]: DeviceClass name .a.;touch ' '$ERR' && [ ! -e '$C/w/out' ] && [ ! -e '$C/pwn' ] || { head -5 '$ERR'; false; }"
sed 's|^cluster tier0 {|cluster tier0_ {|' "$C/k8s.orig" >"$K"
dslc_in build hgx-b200-k8s/cluster.dsl -o out --disable system-name
check "cluster name tier0_ with pods: unsafe-value (a label value), nothing written (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^hgx-b200-k8s/cluster.dsl:9:9: error\\[unsafe-value\\]: cluster name' '$ERR' && [ ! -e '$C/w/out' ] || { head -5 '$ERR'; false; }"
cp "$C/k8s.orig" "$K"
# round 3 (issue 41). 4: a mount path whose dfuse unit name passes systemd's 255 bytes: the
# gate refuses it at its line (it linted clean, then the build refused to write the unit)
new_case unitname
long=$(printf 'x%.0s' $(seq 1 120))
sed "s|^mount /mnt/daos-x {|mount /mnt/$long/\\$long {|; s|^mount /mnt/daos-x/in .*||" "$SEEDS/clients-mounts.dsl" >"$C/w/m.dsl"
dslc_in lint m.dsl
check "a dfuse unit name over 255 bytes: unsafe-value at the mount's path line (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^m.dsl:28:7: error\\[unsafe-value\\]: mount path .* its unit name .* longer than systemd.s 255 bytes' '$ERR' || { head -5 '$ERR'; false; }"
# 5: a compute NIC's RDMA device is checked by the gate as an engine NIC's is (nccl.conf lists it)
new_case rdmaname
sed 's/role compute rdma mlx5_0/role compute rdma "a=b:1"/' "$ROOT/tests/golden/diag/nccl-hca.dsl" >"$C/w/n.dsl"
sed -i 's|"../../../examples/|"'"$ROOT"'/examples/|' "$C/w/n.dsl"
dslc_in lint n.dsl
check "a compute NIC's rdma \"a=b:1\": unsafe-value at its line (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^n.dsl:15:10: error\\[unsafe-value\\]: RDMA device name .a=b:1. cannot be written' '$ERR' || { head -5 '$ERR'; false; }"
# 6: a FIFO named on the command line is refused at once, as one named in a description is
new_case fifo3
mkfifo "$C/w/ff"
cp "$ROOT/tests/golden/import/first.yml" "$C/w/s.yml"
dslc_in --guard 10 lint s.yml --topology ff
check "lint --topology FIFO: refused at once (exit $RC)" "[ $RC = 1 ] && grep -q 'cannot load topology .ff.: not a regular file' '$ERR'"
dslc_in --guard 10 import s.yml --host s1 --topology ff
check "import --topology FIFO: refused at once (exit $RC)" "[ $RC != 124 ] && [ $RC != 0 ] && grep -q 'not a regular file' '$ERR'"
dslc_in --guard 10 fmt --check ff
check "fmt --check FIFO: refused at once (exit $RC)" "[ $RC = 2 ] && grep -q \"cannot read 'ff': not a regular file\" '$ERR'"
dslc_in --guard 10 lint ff
check "lint FIFO: refused at once (exit $RC)" "[ $RC = 2 ] && grep -q 'not a regular file' '$ERR'"
# 7: a cache whose header is valid over 200 MiB of zeros (under the 256 MiB a cache may be;
# the issue's 3 GiB is refused by its size) is refused at its first inconsistency, not read
# whole (3.1 GB and 90 s for 3 GiB before)
new_case cache3
$DSLC build "$EX" -o "$C/w/tree" >/dev/null 2>&1
head -c 16 "$C/w/tree.dslc-cache" >"$C/w/head" && rm -f "$C/w/tree.dslc-cache" && cp "$C/w/head" "$C/w/tree.dslc-cache"
truncate -s 200M "$C/w/tree.dslc-cache"
if [ -z "$pre" ] && [ -x /usr/bin/time ]; then
	(cd "$C/w" && /usr/bin/time -f '%M' -o "$C/rss" $DSLC build "$EX" -o tree >"$C/out" 2>&1)
	rc=$?
	kb=$(tail -1 "$C/rss")
	check "a valid cache header over 200 MiB of zeros: refused as damaged, the build goes on (exit $rc, max RSS $kb KiB < 64 MiB)" \
		"[ $rc = 0 ] && [ '$kb' -lt 65536 ]"
else
	skip "cache3 memory: under valgrind, or /usr/bin/time is not installed"
fi

# round 4 (issue 54). 1: a dfuse mount on a directory the OS owns: tmpfiles.d's `d` line
# gives an existing directory to the mount's owner at every boot. The gate refuses the
# point (not a lint rule: --disable does not let it through); the line dslc writes for a
# mount point of its own changes nothing else, as systemd-tmpfiles applies it on a root.
new_case sysmount
sed 's|^mount /mnt/daos-x/in .*||' "$SEEDS/clients-mounts.dsl" >"$C/w/m.orig"
points="/home /home/alice /etc /root /tmp /usr/local/bin /var/lib/kubelet /mnt /boot/efi /run/user"
[ -n "$QUICK" ] && points="/home /home/alice /var/lib/kubelet" # valgrind: one of each reason
for p in $points; do
	sed "s|^mount /mnt/daos-x {|mount $p {|" "$C/w/m.orig" >"$C/w/m.dsl"
	dslc_in build m.dsl -o out
	check "mount $p: unsafe-value at the path (28:7), nothing written (exit $RC)" \
		"[ $RC = 1 ] && grep -q '^m.dsl:28:7: error\\[unsafe-value\\]: mount path .$p. cannot be written: it is .*\\(system directory\\|OS owns\\|home directory\\)' '$ERR' && [ ! -e '$C/w/out' ] || { head -3 '$ERR'; false; }"
done
sed 's|^  engine per numa { targets 8 |  engine per numa { scm_mount "/var/lib/daos" targets 8 |' "$C/w/m.orig" >"$C/w/m.dsl"
dslc_in lint m.dsl
check "scm_mount \"/var/lib/daos\" (daos_server mounts tmpfs over it): unsafe-value at its line (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^m.dsl:20:[0-9]*: error\\[unsafe-value\\]: scm_mount ./var/lib/daos. cannot be written' '$ERR' || { head -3 '$ERR'; false; }"
# the help's value, applied
help=$(cd "$C/w" && sed "s|^mount /mnt/daos-x {|mount /home {|" m.orig >m.dsl && $DSLC lint m.dsl 2>&1 | sed -n 's/^help: mount dfuse on a directory of its own, e.g. \([^ ]*\) .*/\1/p')
sed "s|^mount /mnt/daos-x {|mount $help {|" "$C/w/m.orig" >"$C/w/m.dsl"
dslc_in build m.dsl -o out
check "the help's mount point ($help) builds (exit $RC)" "[ -n '$help' ] && [ $RC = 0 ]"
if command -v systemd-tmpfiles >/dev/null; then
	R=$C/root
	mkdir -p "$R/etc" "$R/home/alice" "$R/tmp" "$R/mnt" "$R/var/lib/kubelet"
	chmod 1777 "$R/tmp"
	chmod 0700 "$R/home/alice"
	printf 'root:x:0:0::/root:/bin/sh\ndserve:x:990:990::/:/usr/sbin/nologin\n' >"$R/etc/passwd"
	printf 'root:x:0:\ndserve:x:990:\n' >"$R/etc/group"
	conf=$C/w/out/nodes/cn01/etc/tmpfiles.d/dslc-dfuse.conf
	before=$(cd "$R" && find . -exec stat -c '%n %u:%g %a' {} + | sort)
	systemd-tmpfiles --create --root="$R" "$conf" >"$C/tmpfiles.out" 2>&1
	rc=$?
	after=$(cd "$R" && find . ! -path ".$help" -exec stat -c '%n %u:%g %a' {} + | sort)
	check "systemd-tmpfiles --create --root with cn01's dslc-dfuse.conf: $help made, owned by dserve (990), 0755; every directory that was there unchanged (exit $rc)" \
		"[ $rc = 0 ] && [ \"\$(stat -c '%u %a' '$R$help')\" = '990 755' ] && [ '$before' = '$after' ] || { cat '$C/tmpfiles.out' '$conf'; false; }"
	# the premise: such a line on a system directory does chown it
	printf 'd /home 0755 dserve - -\n' >"$C/home.conf"
	systemd-tmpfiles --create --root="$R" "$C/home.conf" >/dev/null 2>&1
	check "the premise: systemd-tmpfiles gives an existing /home to dserve by a d line" "[ \"\$(stat -c %u '$R/home')\" = 990 ]"
else
	skip_or_fail_in_ci "round 4 tmpfiles: systemd-tmpfiles is not installed"
fi

# 12: manifest.json is read an entry at a time, within the size its node count allows:
# padded past it, refused by its size (plan and build), never parsed whole
new_case manifest
$DSLC build "$EX" -o "$C/w/tree" >/dev/null 2>&1
rm -f "$C/w/tree.dslc-cache" # a copied tree has none: the manifest is what vouches for it
cp "$C/w/tree/manifest.json" "$C/man.orig"
pad() { # BYTES: a list of that size before "files"
	python3 -c 'import sys; t = open(sys.argv[1]).read(); n = int(sys.argv[2]) // 8
open(sys.argv[3], "w").write(t.replace("  \"files\": [", "  \"padding\": [" + ",".join(["1234567"] * n) + "],\n  \"files\": [", 1))' \
		"$C/man.orig" "$1" "$C/w/tree/manifest.json"
}
rss_of() { # dslc ARGS... in the case: RC, ERR and kb (its max RSS in KiB) set
	(cd "$C/w" && /usr/bin/time -f '%M' -o "$C/rss" $DSLC "$@" >"$C/out" 2>&1)
	RC=$? ERR=$C/out kb=$(tail -1 "$C/rss")
}
if [ -z "$pre" ] && [ -x /usr/bin/time ]; then
	# each bound is on the difference from the same plan without the padding:
	# an ASan build's own RSS differs from machine to machine (35 MiB on one,
	# under 32 on another), what reading the padding would add does not
	cp "$C/man.orig" "$C/w/tree/manifest.json"
	rss_of plan "$EX" --against tree
	base=$kb
	pad 52428800
	rss_of plan "$EX" --against tree
	check "plan --against a tree whose 18-node manifest is padded with 50 MB: refused by its size (exit $RC, max RSS $kb KiB, $((kb - base)) KiB over the unpadded manifest's, < 4 MiB)" \
		"[ $RC = 2 ] && grep -q 'manifest.json: larger than a manifest of its node count' '$ERR' && [ $((kb - base)) -lt 4096 ] || { head -3 '$ERR'; false; }"
	rss_of build "$EX" -o tree
	check "build -o that tree: refused, said why (exit $RC, max RSS $kb KiB < 64 MiB)" \
		"[ $RC = 2 ] && grep -q 'has a manifest.json larger than its node count allows' '$ERR' && [ '$kb' -lt 65536 ] || { head -3 '$ERR'; false; }"
	# parsing the padding's 125,000 numbers whole would take some 6 MiB more
	# (jansson's objects and the text), stepping over it the bytes read at most
	pad 1000000
	rss_of plan "$EX" --against tree
	check "padded with 1 MB (within 1 MiB + 64 KiB a node): the padding stepped over, plan reads the entries (exit $RC, max RSS $kb KiB, $((kb - base)) KiB over the unpadded manifest's, < 4 MiB)" \
		"[ $RC = 0 ] && [ $((kb - base)) -lt 4096 ] || { head -3 '$ERR'; false; }"
else
	skip "manifest memory: under valgrind, or /usr/bin/time is not installed"
fi
python3 -c 'import sys; t = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(t.replace("  \"files\": [", "  \"files\": [],\n  \"files\": [", 1))' "$C/man.orig" "$C/w/tree/manifest.json"
dslc_in plan "$EX" --against tree
check "a manifest with \"files\" twice: not dslc's (exit $RC)" "[ $RC = 2 ] && grep -q 'is not a dslc manifest' '$ERR' || { head -3 '$ERR'; false; }"
sed 's|"format_version": 1|"format_version": 2|' "$C/man.orig" >"$C/w/tree/manifest.json"
dslc_in plan "$EX" --against tree
check "a manifest of another format version: not dslc's, no entry taken (exit $RC)" "[ $RC = 2 ] && grep -q 'is not a dslc manifest' '$ERR'"
cp "$C/man.orig" "$C/w/tree/manifest.json"
dslc_in plan "$EX" --against tree
check "the manifest as written: plan reads it, no change (exit $RC)" "[ $RC = 0 ] || { head -3 '$ERR'; false; }"

# crafted hwloc exports: a PU without complete_cpuset is a NULL dereference
# inside hwloc (Debian's lstopo crashes on it too); a truncated export makes
# hwloc fail. Both are located topology-load errors, dslc never crashes.
new_case xml
cp "$ROOT/tests/golden/diag/dsl-power9-gpu-numa.dsl" "$C/w/x.dsl"
sed -i 's|"../../topologies/power9-gpu-2s20c.xml"|"node.xml"|' "$C/w/x.dsl"
sed '0,/<object type="PU" \(os_index="[0-9]*" cpuset="[^"]*"\) complete_cpuset="[^"]*"/s//<object type="PU" \1/' \
	"$ROOT/tests/topologies/interleaved-2s6c.xml" >"$C/w/node.xml"
dslc_in lint x.dsl
check "an export with a PU lacking complete_cpuset: topology-load at line 8, hwloc's crash named (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^x.dsl:8:3: error\\[topology-load\\]: .*hwloc crashed reading it' '$ERR' || { head -5 '$ERR'; false; }"
sed '0,/<object type="PU" os_index="[0-9]*"/s//<object type="PU"/' "$ROOT/tests/topologies/interleaved-2s6c.xml" >"$C/w/node.xml"
dslc_in lint x.dsl
check "an export with a PU lacking os_index (hwloc: a 512 MiB bitmap per set, 2.5 GiB seen): topology-load, not parsed by dslc (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^x.dsl:8:3: error\\[topology-load\\]: .*\\(needed more than 256 MiB\\|ran past the 1 GiB\\)' '$ERR' || { head -5 '$ERR'; false; }"
head -c 3000 "$ROOT/tests/topologies/interleaved-2s6c.xml" >"$C/w/node.xml"
dslc_in lint x.dsl
check "a truncated export: topology-load at line 8 (exit $RC)" \
	"[ $RC = 1 ] && grep -q '^x.dsl:8:3: error\\[topology-load\\]: .*malformed or truncated' '$ERR' || { head -5 '$ERR'; false; }"
tests_end
