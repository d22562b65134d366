#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Issue 68 item 4: `dslc doctor --manifest DIR --node HOST` proves a node runs
# the built tree DIR: each of its files in DIR/manifest.json installed with
# that sha256 and mode, each kernel parameter of the installed kernel file on
# /proc/cmdline. Node roots are laid out as a node after install and reboot:
# the tree's files among the distribution's own, /proc/cmdline as GRUB builds
# it (grub-mkconfig sources /etc/default/grub, then /etc/default/grub.d/*.cfg:
# util/grub-mkconfig.in) with BOOT_IMAGE, root= and the distribution's own
# words. Every drift is named with the file; each help line is applied and the
# node is clean after it. Then the rollout script end to end: DSLC_APPLY
# installs into per-host roots, DSLC_VERIFY runs this check on each, and a
# node left with an old file, or not rebooted, stops the run before its
# engines start.
#   tests/doctor_manifest.sh DSLC
set -u
DSLC=$1
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin doctor-manifest
T=${KEEP_T:-$(mktemp -d)}
[ -n "${KEEP_T:-}" ] || trap 'rm -rf "$T"' EXIT
mkdir -p "$T"
cp -r examples/hgx-b200 "$T/ex"
cp -r examples/aurora-like "$T/au"
EX=$T/ex
$DSLC build "$EX/cluster.dsl" -o "$T/out" >/dev/null 2>&1 || no "the example builds"
$DSLC build "$T/au/cluster.dsl" -o "$T/aout" >/dev/null 2>&1 || no "aurora-like builds"

# install OUT HOST ROOT: the node after install and reboot. Its own files
# around dslc's (os-release, hostname, a grub default, a file in a directory
# dslc also writes to); /proc/cmdline from the installed kernel file
install_node() {
	local out=$1 h=$2 r=$3 extra
	rm -rf "$r"
	mkdir -p "$r/proc" "$r/etc/default/grub.d" "$r/etc/systemd/network"
	printf 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n' >"$r/etc/os-release"
	echo "$h" >"$r/etc/hostname"
	printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX="console=ttyS0,115200n8"\n' >"$r/etc/default/grub"
	printf '[Match]\nName=eno1\n[Network]\nDHCP=yes\n' >"$r/etc/systemd/network/05-mgmt.network"
	tar -C "$out/nodes/$h" --exclude=./redfish -cf - . | tar -C "$r" -xpf -
	extra=$(boot_params "$r")
	echo "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=UUID=3b6a1c6e-5d0e-4c1a-9f1e-0d5e7c2b9a41 ro $extra quiet" >"$r/proc/cmdline"
}
# what GRUB puts on the linux line from the root's files: grub-mkconfig
# sources /etc/default/grub and the drop-ins, then writes
# GRUB_CMDLINE_LINUX GRUB_CMDLINE_LINUX_DEFAULT; the script form
# (dslc-kernel-cmdline) writes its PARAMS into /etc/default/grub when run
boot_params() {
	(
		GRUB_CMDLINE_LINUX='' GRUB_CMDLINE_LINUX_DEFAULT=''
		# shellcheck disable=SC1090,SC1091
		. "$1/etc/default/grub"
		for f in "$1"/etc/default/grub.d/*.cfg; do
			# shellcheck disable=SC1090
			[ -f "$f" ] && . "$f"
		done
		s="$1/usr/local/sbin/dslc-kernel-cmdline"
		[ -f "$s" ] && GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX $(sed -n "s/^PARAMS='\(.*\)'\$/\1/p" "$s")"
		echo "$GRUB_CMDLINE_LINUX"
	)
}
doc() { # HOST ROOT [OPTIONS...]: the check, its output in $T/o, stderr in $T/e
	local h=$1 r=$2
	shift 2
	$DSLC doctor --manifest "${MAN:-$T/out}" --node "$h" --root "$r" "$@" >"$T/o" 2>"$T/e"
}
listed() { # OUT HOST: the files the manifest lists for HOST, installed on it
	/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1]+"/manifest.json")); print(sum(1 for f in m["files"] if f.get("node")==sys.argv[2] and not f["path"].startswith("nodes/%s/redfish/" % sys.argv[2])))' "$1" "$2"
}

# ---- a healthy node: nothing reported ---------------------------------------
install_node "$T/out" gpu001 "$T/gpu001"
doc gpu001 "$T/gpu001"
rc=$?
n=$(listed "$T/out" gpu001)
check "a node that runs the tree (grub.d drop-in, its own files around them): exit 0 ($rc), nothing reported, all $n files checked" \
	"[ $rc = 0 ] && [ ! -s '$T/o' ] && grep -qx 'dslc: gpu001: $n files of $T/out/manifest.json checked, 0 drifts, 0 notes' '$T/e' && [ $n -gt 15 ]"
check "the kernel command line was checked: gpu001 boots with iommu=pt and irqaffinity= from the drop-in" \
	"grep -q 'iommu=pt.*irqaffinity=' '$T/gpu001/proc/cmdline' && grep -q 'iommu=pt' '$T/gpu001/etc/default/grub.d/60-dslc.cfg'"
install_node "$T/out" cn01 "$T/cn01"
doc cn01 "$T/cn01"
check "a client-only node that runs the tree: exit 0" "[ $? = 0 ] && [ ! -s '$T/o' ]"
au=$(cd "$T/aout/nodes" && for h in *; do [ -f "$h/usr/local/sbin/dslc-kernel-cmdline" ] && { echo "$h"; break; }; done)
install_node "$T/aout" "$au" "$T/au1"
MAN=$T/aout doc "$au" "$T/au1"
rc=$?
check "a node whose kernel parameters come from dslc-kernel-cmdline ($au, RHEL family): exit 0 ($rc)" "[ -n '$au' ] && [ $rc = 0 ] && [ ! -s '$T/o' ]"
before=$(cd "$T/gpu001" && find . -printf '%p %m %s %T@\n' | sort | sha256sum)
doc gpu001 "$T/gpu001" --format json
after=$(cd "$T/gpu001" && find . -printf '%p %m %s %T@\n' | sort | sha256sum)
check "read-only: the root is as it was after a check" "[ '$before' = '$after' ]"

# ---- drift, each with its help applied --------------------------------------
fresh() { rm -rf "$T/n"; cp -a "$T/gpu001" "$T/n"; }
help_line() { sed -n "s/^help: //p" "$T/o" | head -1; }
fresh
printf '\n# changed during an incident\n' >>"$T/n/etc/daos/daos_server.yml"
doc gpu001 "$T/n"
rc=$?
check "an edited daos_server.yml: exit 1 ($rc), node-file naming the file and both digests" \
	"[ $rc = 1 ] && grep -q '^dslc: error\[node-file\]: gpu001: /etc/daos/daos_server.yml is not the built file: sha256 [0-9a-f]\{16\}\.\.\., built [0-9a-f]\{16\}\.\.\.\$' '$T/o'"
h=$(help_line)
check "its help names the built file and its mode" "[ '$h' = 'install nodes/gpu001/etc/daos/daos_server.yml (mode 0644) over it, or see what differs with dslc doctor FILE --node gpu001' ]"
install -m 0644 "$T/out/nodes/gpu001/etc/daos/daos_server.yml" "$T/n/etc/daos/daos_server.yml"
doc gpu001 "$T/n"
check "the help applied (install -m 0644): clean" "[ $? = 0 ]"
fresh
chmod 0600 "$T/n/etc/fuse.conf"
chmod 0644 "$T/n/usr/local/sbin/dslc-lossless-roce"
doc gpu001 "$T/n"
rc=$?
check "modes that differ (0600 for 0644, a script not executable): exit 1 ($rc), both named with the built mode" \
	"[ $rc = 1 ] && grep -q 'gpu001: /etc/fuse.conf has mode 0600, built 0644' '$T/o' && grep -q 'gpu001: /usr/local/sbin/dslc-lossless-roce has mode 0644, built 0755' '$T/o'"
sed -n 's/^help: chmod \([0-7]*\) \//\1 /p' "$T/o" | while read -r m p; do chmod "$m" "$T/n/$p"; done
doc gpu001 "$T/n"
check "the chmod helps applied: clean" "[ $? = 0 ]"
fresh
rm "$T/n/etc/nccl.conf"
rm -r "$T/n/etc/systemd/system/dfuse-mnt-daos-training.service"
mkdir "$T/n/etc/systemd/system/dfuse-mnt-daos-training.service"
doc gpu001 "$T/n"
rc=$?
check "a missing file and a directory in a file's place: exit 1 ($rc), each named" \
	"[ $rc = 1 ] && grep -q 'gpu001: /etc/nccl.conf is missing' '$T/o' && grep -q 'help: install nodes/gpu001/etc/nccl.conf (mode 0644)\$' '$T/o' && grep -q 'gpu001: /etc/systemd/system/dfuse-mnt-daos-training.service is not a regular file' '$T/o'"
rmdir "$T/n/etc/systemd/system/dfuse-mnt-daos-training.service"
for p in etc/nccl.conf etc/systemd/system/dfuse-mnt-daos-training.service; do install -m 0644 "$T/out/nodes/gpu001/$p" "$T/n/$p"; done
doc gpu001 "$T/n"
check "both installed as the help says: clean" "[ $? = 0 ]"
fresh
ln -s /etc/daos/daos_server.yml.dslc "$T/n/etc/daos/daos_server.yml.lnk"
mv "$T/n/etc/daos/daos_server.yml" "$T/n/etc/daos/daos_server.yml.dslc"
ln -s /etc/daos/daos_server.yml.dslc "$T/n/etc/daos/daos_server.yml"
ln -sf /etc/shadow "$T/n/etc/nccl.conf"
doc gpu001 "$T/n"
rc=$?
check "links resolve inside the root as on the node: daos_server.yml through a link is the built file, nccl.conf -> /etc/shadow is missing there, never read outside (exit $rc)" \
	"[ $rc = 1 ] && ! grep -q 'daos_server.yml' '$T/o' && grep -q 'gpu001: /etc/nccl.conf is missing' '$T/o'"

# ---- the running kernel -----------------------------------------------------
fresh
old=$(cat "$T/n/proc/cmdline")
echo "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=UUID=3b6a1c6e-5d0e-4c1a-9f1e-0d5e7c2b9a41 ro console=ttyS0,115200n8 quiet" >"$T/n/proc/cmdline"
doc gpu001 "$T/n"
rc=$?
check "the drop-in installed, the node not rebooted: exit 1 ($rc), node-cmdline for each parameter, naming the file that plans it" \
	"[ $rc = 1 ] && grep -q '^dslc: error\[node-cmdline\]: gpu001: iommu=pt is not on the running kernel.s command line (planned in /etc/default/grub.d/60-dslc.cfg)\$' '$T/o' && [ \$(grep -c 'error\[node-cmdline\]' '$T/o') = 3 ] && grep -q '^note: $T/n/proc/cmdline: BOOT_IMAGE=' '$T/o'"
check "its help: regenerate the boot configuration and reboot" "grep -q 'help: regenerate the boot configuration from dslc.s file (update-grub' '$T/o'"
echo "$old" >"$T/n/proc/cmdline"
doc gpu001 "$T/n"
check "rebooted (the drop-in's parameters on the command line): clean" "[ $? = 0 ]"
echo "$old nmi_watchdog=1 iommu=nopt" >"$T/n/proc/cmdline"
doc gpu001 "$T/n"
rc=$?
check "a later iommu= overrides dslc's (the kernel keeps the last): exit 1 ($rc), said; a parameter dslc does not plan is not its business" \
	"[ $rc = 1 ] && grep -q 'gpu001: the running kernel uses iommu=nopt: a later iommu= overrides iommu=pt (the kernel keeps the last) (planned in /etc/default/grub.d/60-dslc.cfg)' '$T/o' && ! grep -q 'error.*nmi_watchdog' '$T/o' && grep -q 'help: remove the other iommu= from the boot configuration' '$T/o'"
echo "${old/iommu=pt/iommu=nopt}" >"$T/n/proc/cmdline"
doc gpu001 "$T/n"
check "another value in dslc's place: the running kernel has iommu=nopt, not iommu=pt" "[ $? = 1 ] && grep -q 'gpu001: the running kernel has iommu=nopt, not iommu=pt' '$T/o'"
doc gpu001 "$T/n" --disable node-cmdline
check "--disable node-cmdline (a wave that planned no reboot): the files alone, clean" "[ $? = 0 ] && [ ! -s '$T/o' ]"
rm "$T/n/proc/cmdline"
doc gpu001 "$T/n"
rc=$?
check "no /proc/cmdline under the root (an image): a note says it was not checked, exit 0 ($rc)" \
	"[ $rc = 0 ] && grep -q '^dslc: note\[node-unchecked\]: gpu001: the kernel command line not checked: $T/n/proc/cmdline is absent' '$T/o'"
doc gpu001 "$T/n" --strict
check "--strict: what was not checked is an error (exit 1)" "[ $? = 1 ]"
fresh
printf '\n' >>"$T/n/etc/default/grub.d/60-dslc.cfg"
echo "BOOT_IMAGE=/boot/vmlinuz ro quiet" >"$T/n/proc/cmdline"
doc gpu001 "$T/n"
check "a kernel file that is not the built one: the file is the finding, its parameters are not read" \
	"[ $? = 1 ] && grep -q '60-dslc.cfg is not the built file' '$T/o' && ! grep -q node-cmdline '$T/o'"

# ---- JSON for a pipeline ----------------------------------------------------
fresh
chmod 0600 "$T/n/etc/fuse.conf"
doc gpu001 "$T/n" --format json
check "--format json: the finding with its rule, severity and message" \
	"/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d[\"findings\"]; assert len(f)==1 and f[0][\"ruleId\"]==\"node-file\" and f[0][\"severity\"]==\"error\" and \"fuse.conf has mode 0600\" in f[0][\"message\"], f' '$T/o'"

# ---- manifests it refuses (exit 2, nothing checked) -------------------------
doc gpu999 "$T/gpu001"
check "a host the manifest lists no file for: exit 2, said" "[ $? = 2 ] && grep -q 'manifest.json lists no file for gpu999' '$T/e' && [ ! -s '$T/o' ]"
MAN=$T/nothere doc gpu001 "$T/gpu001"
check "no manifest there: exit 2, the errno said" "[ $? = 2 ] && grep -q \"cannot read the manifest '$T/nothere/manifest.json': No such file or directory\" '$T/e'"
mkdir -p "$T/m1" "$T/m2" "$T/m3"
echo '{"files": []}' >"$T/m1/manifest.json"
MAN=$T/m1 doc gpu001 "$T/gpu001"
check "a JSON file that is not dslc's manifest: exit 2" "[ $? = 2 ] && grep -q 'is not a manifest dslc wrote' '$T/e'"
sed 's|"path": "nodes/gpu001/etc/nccl.conf"|"path": "nodes/gpu001/../../etc/shadow"|' "$T/out/manifest.json" >"$T/m2/manifest.json"
MAN=$T/m2 doc gpu001 "$T/gpu001"
check "an entry whose path leaves the node's tree (..): refused, exit 2, nothing read" \
	"[ $? = 2 ] && grep -q 'lists nodes/gpu001/../../etc/shadow for gpu001, which dslc never writes' '$T/e' && [ ! -s '$T/o' ]"
/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); [f.update(sha256="x"*64) for f in m["files"] if f.get("node")=="gpu001"][:1]; m["files"][0]["path"]="nodes/gpu001/etc/\u001b[2Jx"; json.dump(m, open(sys.argv[2],"w"), indent=2)' "$T/out/manifest.json" "$T/m3/manifest.json"
MAN=$T/m3 doc gpu001 "$T/gpu001"
check "an entry with a digest that is not one, or a path with control bytes: refused, exit 2, its bytes not printed" \
	"[ $? = 2 ] && grep -q 'which dslc never writes' '$T/e' && ! grep -q \$'\\x1b' '$T/e'"
$DSLC doctor "$EX/cluster.dsl" --manifest "$T/out" --node gpu001 >"$T/o" 2>"$T/e"
check "a description with --manifest: usage error (exit 2), said" "[ $? = 2 ] && grep -q 'no description' '$T/e'"
$DSLC doctor --manifest "$T/out" >"$T/o" 2>"$T/e"
check "--manifest without --node: usage error (exit 2), said" "[ $? = 2 ] && grep -q 'needs --node HOST' '$T/e'"

# ---- the rollout: DSLC_VERIFY runs this check on each wave's nodes -----------
mkdir -p "$T/bin" "$T/roots"
cp tests/fakes/date tests/fakes/sleep "$T/bin/"
fakes_serve "$T/bin" dmg
sed 's/swim_suspect_timeout 120s/swim_suspect_timeout 60s/' "$EX/cluster.dsl" >"$EX/restart.dsl"
sed 's/kernel { iommu pt  irqaffinity os }/kernel { iommu pt  irqaffinity os  param nmi_watchdog=0 }/' "$EX/cluster.dsl" >"$EX/reboot.dsl"
$DSLC build "$EX/restart.dsl" -o "$T/new-restart" >/dev/null 2>&1
$DSLC build "$EX/reboot.dsl" -o "$T/new-reboot" >/dev/null 2>&1
$DSLC plan "$EX/restart.dsl" --against "$T/out" --format script >"$T/restart.sh" 2>/dev/null
$DSLC plan "$EX/reboot.dsl" --against "$T/out" --format script >"$T/reboot.sh" 2>/dev/null
# DSLC_APPLY HOSTLIST CLASS...: installs the new tree's files of each host into
# its root; for reboot it boots the node again (GRUB's line from the files);
# SKIP_FILE=HOST:PATH leaves one file as it was, NO_REBOOT=HOST skips a reboot
cat >"$T/bin/apply" <<EOF
#!/bin/bash
echo "apply \$*" >>"\$FAKE_LOG"
case \$1 in *[[,]*) echo "apply: one host a wave here, not \$1" >&2; exit 3 ;; esac
h=\$1; r=$T/roots/\$h
skip=none; case \${SKIP_FILE:-} in "\$h":*) skip=\${SKIP_FILE#*:} ;; esac
tar -C "\$NEW/nodes/\$h" --exclude=./redfish --exclude="./\$skip" -cf - . | tar -C "\$r" -xpf -
shift
for c in "\$@"; do
	if [ "\$c" = reboot ] && [ "\${NO_REBOOT:-}" != "\$h" ]; then
		. $T/boot.sh
		echo "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-amd64 root=UUID=3b6a1c6e-5d0e-4c1a-9f1e-0d5e7c2b9a41 ro \$(boot_params "\$r") quiet" >"\$r/proc/cmdline"
	fi
done
EOF
declare -f boot_params >"$T/boot.sh"
# DSLC_VERIFY HOSTLIST CLASS...: dslc doctor --manifest on each node (here its
# root; on a cluster: ssh HOST dslc doctor --manifest /var/lib/dslc/tree --node HOST)
cat >"$T/bin/verify" <<EOF
#!/bin/sh
echo "verify \$*" >>"\$FAKE_LOG"
h=\$1; shift
case " \$* " in *" reboot "*) d='' ;; *) d='--disable node-cmdline' ;; esac
# shellcheck disable=SC2086
exec $DSLC doctor --manifest "\$NEW" --node "\$h" --root $T/roots/\$h \$d
EOF
chmod +x "$T/bin/"*
HOSTS="gpu001 gpu002 gpu003 gpu004 gpu005 gpu006 gpu007 gpu008 gpu009 gpu010 gpu011 gpu012 gpu013 gpu014"
shellcheck_ok "the test's DSLC_VERIFY wrapper: shellcheck finds nothing" "$T/bin/verify"
roll() { # SCRIPT NEW-TREE
	rm -rf "$T/roots" "$T/state" "$T/$1.state"
	: >"$T/log"
	echo 1000 >"$T/clock"
	for h in $HOSTS; do install_node "$T/out" "$h" "$T/roots/$h"; done
	PATH="$T/bin:$PATH" NEW=$2 FAKE_LOG="$T/log" FAKE_DMG_STATE="$T/state" FAKE_DMG_HOSTS="$HOSTS" FAKE_DMG_RELEASE=2.6 \
		FAKE_DMG_POOLS=tier0 FAKE_CLOCK="$T/clock" DSLC_APPLY="$T/bin/apply" DSLC_VERIFY="$T/bin/verify" \
		sh "$T/$1" >"$T/out.txt" 2>&1
}
roll restart.sh "$T/new-restart"
rc=$?
check "engine-restart rollout, every node installed right: each wave verified with dslc doctor --manifest, all 14 done (exit $rc)" \
	"[ $rc = 0 ] && [ \$(grep -c '^verify gpu0[0-9]* engine-restart\$' '$T/log') = 14 ] && [ \$(grep -c 'DSLC_VERIFY gpu0[0-9]* engine-restart: the nodes run the planned files' '$T/out.txt') = 14 ] && grep -q 'rollout done' '$T/out.txt'"
SKIP_FILE=gpu006:etc/daos/daos_server.yml roll restart.sh "$T/new-restart"
rc=$?
check "an apply that left gpu006's old daos_server.yml: the run stops in gpu006's wave before its engines start (exit $rc), naming the file" \
	"[ $rc = 1 ] && grep -q 'gpu006: /etc/daos/daos_server.yml is not the built file' '$T/out.txt' && grep -q 'STOPPED in wave [0-9]* of 14 (gpu006: engine-restart): DSLC_VERIFY gpu006 engine-restart failed (exit 1)' '$T/out.txt' && ! grep -q '^dmg system start --rank-hosts=gpu006' '$T/log' && ! grep -q '^apply gpu007' '$T/log'"
roll reboot.sh "$T/new-reboot"
rc=$?
check "a kernel parameter added (reboot): every node rebooted with nmi_watchdog=0, verified, exit $rc" \
	"[ $rc = 0 ] && grep -q '^verify gpu001 .*reboot' '$T/log' && grep -q 'nmi_watchdog=0' '$T/roots/gpu001/proc/cmdline' && grep -q 'rollout done' '$T/out.txt'"
NO_REBOOT=gpu005 roll reboot.sh "$T/new-reboot"
rc=$?
check "gpu005 not rebooted after its drop-in was installed: the run stops in its wave (exit $rc), naming nmi_watchdog=0 and the drop-in" \
	"[ $rc = 1 ] && grep -q 'gpu005: nmi_watchdog=0 is not on the running kernel.s command line (planned in /etc/default/grub.d/60-dslc.cfg)' '$T/out.txt' && grep -q 'STOPPED in wave [0-9]* of [0-9]* (gpu005: ' '$T/out.txt' && ! grep -q '^dmg system start --rank-hosts=gpu005' '$T/log'"
tests_end
