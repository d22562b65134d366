#!/usr/bin/env bash
# The node OS artifacts, checked by their consumers where one runs here:
# the kernel command line (sh -n, shellcheck, a sandboxed run of the RHEL
# script, the Debian drop-in sourced by sh, the resulting linux line
# through grub-script-check, parameter names against the
# kernel's documented list) and the kubelet drop-in (tests/validate/kubelet_check.py).
set -u
DSLC=$1
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
EX=examples/hgx-b200
REF=../shared/reference/kernel/kernel-parameters-6.1.txt
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/lib.sh
tests_begin os

$DSLC build $EX/cluster.dsl -o "$T/out" 2>/dev/null
N=$T/out/nodes/gpu001
SCRIPT=$N/usr/local/sbin/dslc-kernel-cmdline
check "an Azure Linux node gets the kernel script, executable" "[ -x '$SCRIPT' ] && [ ! -e '$N/etc/default/grub.d' ]"
check "the kernel script passes sh -n" "sh -n '$SCRIPT'"
if command -v shellcheck >/dev/null; then
	check "the kernel script passes shellcheck" "shellcheck -s sh '$SCRIPT'"
else
	echo "skip os shellcheck: not installed"
fi

# run it against a sandboxed /etc/default/grub and /boot
mkdir -p "$T/boot/grub2" "$T/boot/efi/EFI/azurelinux" "$T/boot/efi/EFI/redhat"
printf 'GRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX="crashkernel=auto rhgb quiet iommu=off"\nGRUB_DISABLE_RECOVERY="true"\n' >"$T/grub"
echo "menuentry 'x' {}" >"$T/boot/efi/EFI/azurelinux/grub.cfg"
printf 'search --no-floppy --fs-uuid --set=dev 1234\nconfigfile ($dev)/grub2/grub.cfg\n' >"$T/boot/efi/EFI/redhat/grub.cfg"
printf '#!/bin/sh\necho "$2" >>"%s/mkconfig.log"\n' "$T" >"$T/mkconfig"
chmod +x "$T/mkconfig"
run() { GRUB_DEFAULTS="$T/grub" GRUB_MKCONFIG="$T/mkconfig" BOOT_DIR="$T/boot" sh "$SCRIPT" >"$T/run.log" 2>&1; }
run
line=$(grep '^GRUB_CMDLINE_LINUX=' "$T/grub")
check "the script replaces iommu=off and keeps the other words" \
	"[ '$line' = 'GRUB_CMDLINE_LINUX=\"crashkernel=auto rhgb quiet iommu=pt irqaffinity=0-3,96-99,192-195,288-291\"' ]"
check "the script keeps the other lines" "grep -qx 'GRUB_TIMEOUT=5' '$T/grub' && grep -qx 'GRUB_DISABLE_RECOVERY=\"true\"' '$T/grub'"
check "the script regenerates /boot/grub2/grub.cfg and the full EFI copy, not RHEL's stub" \
	"[ \"\$(sort '$T/mkconfig.log' | tr '\n' ' ')\" = '$T/boot/efi/EFI/azurelinux/grub.cfg $T/boot/grub2/grub.cfg ' ]"
cp "$T/grub" "$T/grub.after"
: >"$T/mkconfig.log"
run
check "a second run changes nothing and regenerates nothing" "cmp -s '$T/grub' '$T/grub.after' && [ ! -s '$T/mkconfig.log' ]"
printf 'GRUB_TIMEOUT=5\n' >"$T/grub"
run
check "the script adds GRUB_CMDLINE_LINUX when the file has none" "grep -qx 'GRUB_CMDLINE_LINUX=\"iommu=pt irqaffinity=0-3,96-99,192-195,288-291\"' '$T/grub'"

# Debian: a grub.d drop-in that sh sources after /etc/default/grub
mkdir -p "$T/deb"
cp $EX/hardware.dsl $EX/hgx-b200.xml "$T/deb/"
sed 's/os azurelinux3/os debian12/' $EX/cluster.dsl >"$T/deb/cluster.dsl"
$DSLC build "$T/deb/cluster.dsl" -o "$T/deb/out" 2>/dev/null
DROPIN=$T/deb/out/nodes/gpu001/etc/default/grub.d/60-dslc.cfg
check "a Debian node gets a grub.d drop-in and no script" "[ -f '$DROPIN' ] && [ ! -e '$T/deb/out/nodes/gpu001/usr' ]"
check "the drop-in passes sh -n" "sh -n '$DROPIN'"
check "sourced after /etc/default/grub it appends the parameters" \
	"[ \"\$(GRUB_CMDLINE_LINUX='quiet' sh -c '. \"$DROPIN\"; echo \"\$GRUB_CMDLINE_LINUX\"')\" = 'quiet iommu=pt irqaffinity=0-3,96-99,192-195,288-291' ]"

# GRUB reads the result: grub-mkconfig sources /etc/default/grub and then
# /etc/default/grub.d/*.cfg with sh, and /etc/grub.d/10_linux writes
# "linux <kernel> root=<dev> ro ${GRUB_CMDLINE_LINUX} ${GRUB_CMDLINE_LINUX_DEFAULT}";
# grub-script-check parses that the way GRUB will at boot.
grub_cfg() { # sourced files... -> a grub.cfg menuentry on stdout
	sh -c 'for f; do . "$f"; done
printf "menuentry '"'"'Linux'"'"' --class gnu-linux {\n\tlinux\t/boot/vmlinuz-6.1.0-28-amd64 root=UUID=3f1c7d3e-1b2a-4c5d-8e9f-0a1b2c3d4e5f ro %s %s\n\tinitrd\t/boot/initrd.img-6.1.0-28-amd64\n}\n" "$GRUB_CMDLINE_LINUX" "$GRUB_CMDLINE_LINUX_DEFAULT"' sh "$@"
}
if command -v grub-script-check >/dev/null; then
	printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n' >"$T/deb/grub"
	grub_cfg "$T/deb/grub" "$DROPIN" >"$T/deb/grub.cfg"
	check "grub-script-check accepts the Debian linux line" "grub-script-check '$T/deb/grub.cfg'"
	check "the linux line carries every parameter as one word" \
		"grep -q ' ro  iommu=pt irqaffinity=0-3,96-99,192-195,288-291 quiet\$' '$T/deb/grub.cfg'"
	grub_cfg "$T/grub" >"$T/rhel.cfg"
	check "grub-script-check accepts the RHEL-family linux line after the script" "grub-script-check '$T/rhel.cfg'"
	printf 'GRUB_CMDLINE_LINUX="x=\\"a"\n' >"$T/bad"
	grub_cfg "$T/bad" >"$T/bad.cfg"
	check "negative control: grub-script-check refuses an unbalanced quote" "! grub-script-check '$T/bad.cfg' 2>/dev/null"
else
	echo "skip os grub-script-check: grub-common is not installed (scripts/install-deps.sh installs it)"
fi

if [ -f "$REF" ]; then
	names=$(sed -n "s/^PARAMS='\(.*\)'$/\1/p" "$SCRIPT" | tr ' ' '\n' | cut -d= -f1)
	unknown=""
	for n in $names $(sed -n 's/^KERNEL_PARAM("\(.*\)")$/\1/p' schemas/kernel_params.def); do
		grep -qx -- "$n" "$REF" || unknown="$unknown $n"
	done
	check "every emitted and known parameter is in the kernel's documented list" "[ -z '$unknown' ]"
	[ -z "$unknown" ] || echo "    not documented:$unknown"
else
	echo "skip os kernel parameter names: $REF is absent"
fi

# Redfish: the PATCH body against DMTF's schema, the script against a loopback service
R=$N/redfish
check "apply.sh passes sh -n" "sh -n '$R/apply.sh'"
if command -v shellcheck >/dev/null; then
	check "apply.sh passes shellcheck" "shellcheck -s sh '$R/apply.sh'"
fi
check "no artifact holds a credential (only variable names)" "! grep -rIl 'REDFISH_PASSWORD=' '$T/out' >/dev/null"
if $PY -c 'import jsonschema' 2>/dev/null && command -v curl >/dev/null; then
	check "the flat BIOS body passes DMTF's Bios and Settings schemas" "$PY tests/validate/redfish_check.py --flat '$R/bios-settings.json' >'$T/r1' 2>&1 || { cat '$T/r1'; false; }"
	check "apply.sh against a DSP0266 BMC: standard, parent-ETag, direct PATCH, failing task, apply time, AMI *, hostile credentials" "$PY tests/validate/redfish_check.py --apply '$R' >'$T/r2' 2>&1 || { cat '$T/r2'; false; }"
	mkdir -p "$T/nested"
	cp $EX/hgx-b200.xml "$T/nested/"
	sed 's/dialect flat/dialect nested/' $EX/hardware.dsl >"$T/nested/hardware.dsl"
	sed 's/bios { ACSEnable = Enabled }/bios { AmdSetup.ACSEnable = Enabled  AmdSetup.NumaNodesPerSocket = "NPS1"  Iommu = true }/' $EX/cluster.dsl >"$T/nested/cluster.dsl"
	$DSLC build "$T/nested/cluster.dsl" -o "$T/nested/out" 2>/dev/null
	check "the nested dialect groups attributes and passes the project's schema" \
		"$PY tests/validate/redfish_check.py --nested '$T/nested/out/nodes/gpu001/redfish/bios-settings.json' >/dev/null && grep -q '\"AmdSetup\": {' '$T/nested/out/nodes/gpu001/redfish/bios-settings.json' && grep -q '\"Iommu\": true' '$T/nested/out/nodes/gpu001/redfish/bios-settings.json'"
else
	echo "skip os redfish: python3-jsonschema or curl is missing (scripts/install-deps.sh installs them)"
fi

if [ -x $PY ] && $PY -c 'import yaml' 2>/dev/null; then
	check "gpu001's kubelet drop-in: reservedSystemCPUs 0-23,96-119,192-215,288-311, fields and sums" \
		"$PY tests/validate/kubelet_check.py '$N/etc/kubernetes/kubelet.conf.d/50-dslc.conf' --cpus 0-23,96-119,192-215,288-311 >'$T/k' 2>&1 || { cat '$T/k'; false; }"
	check "gpu001: systemReserved 132Gi (4Gi + 2 x 64GiB SCM, no hugepages), reservedMemory 68658Mi on both NUMA nodes" \
		"$PY -c 'import sys,yaml; c=yaml.safe_load(open(sys.argv[1])); sys.exit(not (c[\"systemReserved\"][\"memory\"]==\"132Gi\" and [r[\"limits\"][\"memory\"] for r in c[\"reservedMemory\"]]==[\"68658Mi\"]*2))' '$N/etc/kubernetes/kubelet.conf.d/50-dslc.conf'"
	check "every node's kubelet drop-in passes" "$PY tests/validate/kubelet_check.py \$(find '$T/out' -name 50-dslc.conf) >'$T/k2' 2>&1"
else
	echo "skip os kubelet: /usr/bin/python3 with PyYAML is missing"
fi
tests_end
