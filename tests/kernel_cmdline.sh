#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The kernel command line per OS family, run in a sandbox on realistic stock
# /etc/default/grub files (tests/os/grub-defaults) with the real tools Debian
# has: sh sources the files as grub-mkconfig does, grub-script-check parses
# the linux line GRUB will read; grubby is tests/os/fake-grubby, written from
# grubby-bls (RHEL 9's grubby for BLS systems). Both awks: mawk (Debian) and
# gawk (RHEL, SLES).
set -u
DSLC=$1
cd "$(dirname "$0")/.."
EX=examples/hgx-b200
REF=../shared/reference/kernel/kernel-parameters-6.1.txt
DEF=tests/os/grub-defaults
P='iommu=pt transparent_hugepage=never irqaffinity=0-3,96-99,192-195,288-291'
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/lib.sh
tests_begin kernel

build() { # os -> $T/<os>/out
	mkdir -p "$T/$1"
	cp $EX/hardware.dsl $EX/hgx-b200.xml "$T/$1/"
	sed "s/os azurelinux3/os $1/" $EX/cluster.dsl >"$T/$1/cluster.dsl"
	$DSLC build "$T/$1/cluster.dsl" -o "$T/$1/out" >/dev/null 2>&1
}
# GRUB reads the result: grub-mkconfig sources /etc/default/grub (which may
# source grub.d itself) with sh, and /etc/grub.d/10_linux writes
# "linux <kernel> root=<dev> ro ${GRUB_CMDLINE_LINUX} ${GRUB_CMDLINE_LINUX_DEFAULT}"
grub_cfg() { # dir-holding-default/grub -> a grub.cfg menuentry on stdout
	(cd "$1" && sh -c '. ./default/grub
printf "menuentry '"'"'Linux'"'"' --class gnu-linux {\n\tlinux\t/boot/vmlinuz-6.1.0-28-amd64 root=UUID=3f1c7d3e-1b2a-4c5d-8e9f-0a1b2c3d4e5f ro %s %s\n\tinitrd\t/boot/initrd.img-6.1.0-28-amd64\n}\n" "$GRUB_CMDLINE_LINUX" "$GRUB_CMDLINE_LINUX_DEFAULT"')
}
cmdline_of() { (cd "$1" && sh -c '. ./default/grub; echo "$GRUB_CMDLINE_LINUX"'); }

# 1. Debian, Ubuntu, Azure Linux 3: a grub.d drop-in, sourced by the stock file
for os in ubuntu24.04 azurelinux3; do
	build $os
	D=$T/$os/out/nodes/gpu001/etc/default/grub.d/60-dslc.cfg
	check "$os: a grub.d drop-in and no script" "[ -f '$D' ] && [ ! -e '$T/$os/out/nodes/gpu001/usr/local/sbin/dslc-kernel-cmdline' ] && sh -n '$D'"
	R=$T/$os/root
	mkdir -p "$R/default/grub.d"
	cp "$DEF/$os" "$R/default/grub"
	cp "$D" "$R/default/grub.d/"
	if [ $os = ubuntu24.04 ]; then # update-grub sources grub.d after the file
		printf 'for x in ./default/grub.d/*.cfg; do [ ! -e "$x" ] || . "$x"; done\n' >>"$R/default/grub"
	else # Azure Linux's own loop names /etc: point it at the sandbox
		sed -i 's|/etc/default/grub.d|./default/grub.d|' "$R/default/grub"
	fi
	stock=$(cd "$R" && cp default/grub default/grub.stock && rm -f default/grub.d/60-dslc.cfg && sh -c '. ./default/grub; echo "$GRUB_CMDLINE_LINUX"'; cp "$D" default/grub.d/)
	got=$(cmdline_of "$R")
	check "$os: the stock arguments, then dslc's" "[ \"$got\" = \"\$(echo $stock $P)\" ] || [ \"$got\" = \" $P\" -a -z \"$stock\" ] || { echo \"got: $got\"; false; }"
	if command -v grub-script-check >/dev/null; then
		grub_cfg "$R" >"$T/$os.cfg"
		check "$os: grub-script-check accepts the linux line, dslc's arguments on it" "grep -qF -- ' $P' '$T/$os.cfg' && grub-script-check '$T/$os.cfg'"
	else
		skip_or_fail_in_ci "$os: grub-script-check (grub-common) is not installed"
	fi
done

# 1b. a parameter without a value (a flag) is written as its bare name: the
# kernel reads "nosmt=" as nosmt with an empty value, not none (lib/cmdline.c
# next_arg: "=" present, val ""), which a handler that tests for none reads otherwise
mkdir -p "$T/flag"
cp $EX/hardware.dsl $EX/hgx-b200.xml "$T/flag/"
sed 's/^  kernel { iommu pt  irqaffinity os }/  kernel { iommu pt  irqaffinity os  param nosmt }/' $EX/cluster.dsl >"$T/flag/cluster.dsl"
$DSLC build "$T/flag/cluster.dsl" -o "$T/flag/out" >/dev/null 2>&1
rc=$?
D=$T/flag/out/nodes/gpu001/etc/default/grub.d/60-dslc.cfg
check "param nosmt (exit $rc): the bare word nosmt on the command line, no nosmt=" \
	"[ $rc = 0 ] && grep -q 'param nosmt' '$T/flag/cluster.dsl' && grep -q ' nosmt[ \"]' '$D' && ! grep -q 'nosmt=' '$D'"

# 2. RHEL 9: grubby on the BLS entries, and /etc/default/grub kept in step
build rhel9
S=$T/rhel9/out/nodes/gpu001/usr/local/sbin/dslc-kernel-cmdline
check "rhel9: the grubby script, executable, sh -n" "[ -x '$S' ] && sh -n '$S' && grep -q -- '--update-kernel=ALL' '$S'"
shellcheck_ok "rhel9: shellcheck" "$S"
for awk in mawk gawk; do
	command -v $awk >/dev/null || { skip "$awk: not installed"; continue; }
	R=$T/rhel9-$awk
	mkdir -p "$R/entries" "$R/bin"
	cp "$DEF/rhel9" "$R/grub"
	for v in 5.14.0-427.13.1.el9_4.x86_64 5.14.0-503.11.1.el9_5.x86_64; do
		printf 'title Red Hat Enterprise Linux (%s) 9.5 (Plow)\nversion %s\nlinux /vmlinuz-%s\ninitrd /initramfs-%s.img $tuned_initrd\noptions root=/dev/mapper/rhel-root ro crashkernel=1G-4G:192M,4G-64G:256M,64G-:512M resume=/dev/mapper/rhel-swap rd.lvm.lv=rhel/root rd.lvm.lv=rhel/swap rhgb quiet iommu=off $tuned_params\ngrub_users $grub_users\ngrub_arg --unrestricted\ngrub_class rhel\n' \
			"$v" "$v" "$v" "$v" >"$R/entries/0123456789abcdef-$v.conf"
	done
	ln -sf "$(command -v $awk)" "$R/bin/awk"
	run() { PATH="$R/bin:$PATH" GRUB_DEFAULTS="$R/grub" GRUBBY=tests/os/fake-grubby GRUBBY_BLS_DIR="$R/entries" sh "$S" >"$R/log" 2>&1; }
	run
	check "rhel9/$awk: every BLS entry keeps its arguments, iommu=off becomes pt, irqaffinity added" \
		"[ \$(cat '$R'/entries/*.conf | grep -c '^options root=/dev/mapper/rhel-root ro crashkernel=1G-4G:192M,4G-64G:256M,64G-:512M resume=/dev/mapper/rhel-swap rd.lvm.lv=rhel/root rd.lvm.lv=rhel/swap rhgb quiet iommu=pt \$tuned_params transparent_hugepage=never irqaffinity=0-3,96-99,192-195,288-291\$') = 2 ] || { cat '$R/log' '$R'/entries/*.conf; false; }"
	check "rhel9/$awk: /etc/default/grub keeps the stock arguments and gets dslc's" \
		"grep -qx 'GRUB_CMDLINE_LINUX=\"crashkernel=1G-4G:192M,4G-64G:256M,64G-:512M resume=/dev/mapper/rhel-swap rd.lvm.lv=rhel/root rd.lvm.lv=rhel/swap rhgb quiet $P\"' '$R/grub' && grep -qx 'GRUB_ENABLE_BLSCFG=true' '$R/grub'"
	cp "$R/grub" "$R/grub.1"
	cat "$R"/entries/*.conf >"$R/entries.1"
	run
	check "rhel9/$awk: a second run changes nothing" "grep -qF -- '$P' '$R/grub.1' && cmp -s '$R/grub' '$R/grub.1' && cat '$R'/entries/*.conf | cmp -s - '$R/entries.1'"
done

# ... with 1 GiB pages: three parameters, whose names grubby matches as substrings
mkdir -p "$T/rhel1g"
cp $EX/hgx-b200.xml "$T/rhel1g/"
sed 's/^  memory_per_numa  768GiB/  memory_per_numa  768GiB\n  hugepage_size    1GiB/' $EX/hardware.dsl >"$T/rhel1g/hardware.dsl"
sed 's/os azurelinux3/os rhel9/' $EX/cluster.dsl >"$T/rhel1g/cluster.dsl"
$DSLC build "$T/rhel1g/cluster.dsl" -o "$T/rhel1g/out" >/dev/null 2>&1
R=$T/rhel1g/root
mkdir -p "$R/entries"
cp "$DEF/rhel9" "$R/grub"
printf 'title RHEL
version 5.14.0
linux /vmlinuz-5.14.0
options root=/dev/mapper/rhel-root ro quiet
' >"$R/entries/a-5.14.0.conf"
for i in 1 2; do
	GRUB_DEFAULTS="$R/grub" GRUBBY=tests/os/fake-grubby GRUBBY_BLS_DIR="$R/entries" \
		sh "$T/rhel1g/out/nodes/gpu001/usr/local/sbin/dslc-kernel-cmdline" >/dev/null 2>&1
done
check "rhel9 with 1 GiB pages: after two runs the entry has hugepagesz=1G hugepages=34 default_hugepagesz=1G once each" \
	"[ \"\$(sed -n 's/^options //p' '$R/entries/a-5.14.0.conf')\" = 'root=/dev/mapper/rhel-root ro quiet iommu=pt transparent_hugepage=never hugepagesz=1G hugepages=34 default_hugepagesz=1G irqaffinity=0-3,96-99,192-195,288-291' ] || { cat '$R/entries/a-5.14.0.conf'; false; }"

# 3. SLES: the script edits /etc/default/grub and regenerates grub.cfg
build sles15
S=$T/sles15/out/nodes/gpu001/usr/local/sbin/dslc-kernel-cmdline
check "sles15: the script, executable, sh -n" "[ -x '$S' ] && sh -n '$S' && grep -q 'grub2-mkconfig' '$S'"
shellcheck_ok "sles15: shellcheck" "$S"
R=$T/sles
mkdir -p "$R/boot/grub2" "$R/boot/efi/EFI/sles"
echo "menuentry 'x' {}" >"$R/boot/efi/EFI/sles/grub.cfg"
printf '#!/bin/sh\necho "$2" >>"%s/mkconfig.log"\n' "$R" >"$R/mkconfig"
chmod +x "$R/mkconfig"
srun() { GRUB_DEFAULTS="$R/grub" GRUB_MKCONFIG="$R/mkconfig" BOOT_DIR="$R/boot" sh "$S" >"$R/log" 2>&1; }
cp "$DEF/sles15" "$R/grub"
srun
check "sles15: GRUB_CMDLINE_LINUX gets dslc's arguments, every other line is unchanged" \
	"grep -qx 'GRUB_CMDLINE_LINUX=\"$P\"' '$R/grub' && [ \"\$(diff '$DEF/sles15' '$R/grub' | grep -c '^[<>]')\" = 2 ]"
check "sles15: grub.cfg and the EFI copy are regenerated" \
	"[ \"\$(sort '$R/mkconfig.log' | tr '\n' ' ')\" = '$R/boot/efi/EFI/sles/grub.cfg $R/boot/grub2/grub.cfg ' ]"
cp "$R/grub" "$R/grub.1"
: >"$R/mkconfig.log"
srun
check "sles15: a second run changes nothing and regenerates nothing" "grep -qx 'GRUB_CMDLINE_LINUX=\"$P\"' '$R/grub.1' && cmp -s '$R/grub' '$R/grub.1' && [ ! -s '$R/mkconfig.log' ]"

# 4. the shapes of GRUB_CMDLINE_LINUX both scripts accept, and those they refuse
accept() { # name, the line, the line it must become
	printf 'GRUB_TIMEOUT=5\n%s\nGRUB_DISABLE_RECOVERY="true"\n' "$2" >"$R/grub"
	: >"$R/mkconfig.log"
	srun
	check "accepts $1" "[ \"\$(sed -n 2p '$R/grub')\" = '$3' ] && [ \$(wc -l <'$R/grub') = 3 ] || { cat '$R/log' '$R/grub'; false; }"
}
accept "single quotes" "GRUB_CMDLINE_LINUX='rd.lvm.lv=rhel/root quiet'" "GRUB_CMDLINE_LINUX=\"rd.lvm.lv=rhel/root quiet $P\""
accept "no quotes" "GRUB_CMDLINE_LINUX=quiet" "GRUB_CMDLINE_LINUX=\"quiet $P\""
accept "a trailing comment, kept" 'GRUB_CMDLINE_LINUX="rd.lvm.lv=rhel/root quiet"  # kickstart' "GRUB_CMDLINE_LINUX=\"rd.lvm.lv=rhel/root quiet $P\"  # kickstart"
accept "an old value of its own parameter" 'GRUB_CMDLINE_LINUX="iommu=off quiet"' "GRUB_CMDLINE_LINUX=\"quiet $P\""
printf 'GRUB_TIMEOUT=5\n' >"$R/grub"
srun
check "adds GRUB_CMDLINE_LINUX when the file has none" "grep -qx 'GRUB_CMDLINE_LINUX=\"$P\"' '$R/grub'"
refuse() { # name, file content
	printf '%s\n' "$2" >"$R/grub"
	cp "$R/grub" "$R/grub.before"
	: >"$R/mkconfig.log"
	srun
	rc=$?
	check "refuses $1: exit 1, nothing changed, nothing regenerated" \
		"[ $rc = 1 ] && cmp -s '$R/grub' '$R/grub.before' && [ ! -s '$R/mkconfig.log' ] && grep -q 'cannot rewrite GRUB_CMDLINE_LINUX exactly' '$R/log'"
}
refuse "an indented assignment" '  GRUB_CMDLINE_LINUX="rd.lvm.lv=rhel/root"'
refuse "two assignments" 'GRUB_CMDLINE_LINUX="rd.lvm.lv=rhel/root"
GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX quiet"'
refuse "a value built from a variable" 'GRUB_CMDLINE_LINUX="$EXTRA rd.lvm.lv=rhel/root"'
refuse "a command substitution" 'GRUB_CMDLINE_LINUX="$(cat /etc/kernel/cmdline)"'
refuse "a continued line" 'GRUB_CMDLINE_LINUX="rd.lvm.lv=rhel/root \
quiet"'
refuse "an export" 'export GRUB_CMDLINE_LINUX="rd.lvm.lv=rhel/root"'
refuse "an escaped quote" 'GRUB_CMDLINE_LINUX="a=\"b\" quiet"'

# 5. names: every parameter dslc writes or knows is in the kernel's documented list
if [ -f "$REF" ]; then
	unknown=""
	for n in $(echo $P | tr ' ' '\n' | cut -d= -f1) $(sed -n 's/^KERNEL_PARAM("\(.*\)")$/\1/p' schemas/kernel_params.def); do
		grep -qx -- "$n" "$REF" || unknown="$unknown $n"
	done
	check "every emitted and known parameter is in the kernel's documented list" "[ -z '$unknown' ]"
else
	skip_shared "parameter names: $REF is absent"
fi
if command -v grub-script-check >/dev/null; then
	mkdir -p "$T/bad/default"
	printf 'GRUB_CMDLINE_LINUX="x=\\"a"\n' >"$T/bad/default/grub"
	grub_cfg "$T/bad" >"$T/bad.cfg"
	check "negative control: grub-script-check refuses an unbalanced quote" "! grub-script-check '$T/bad.cfg' 2>/dev/null"
else
	skip_or_fail_in_ci "negative control: grub-script-check (grub-common) is not installed"
fi
tests_end
