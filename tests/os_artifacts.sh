#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The node OS artifacts, checked by their consumers where one runs here:
# Redfish (DMTF schemas, a DSP0266 BMC on loopback) and the kubelet drop-in
# (tests/validate/kubelet_check.py). The kernel command line has its own
# test, tests/kernel_cmdline.sh.
set -u
DSLC=$1
CALLS=${2:-} # calls: dslc's calls only (make check's ASan pass)
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
EX=examples/hgx-b200
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/lib.sh
tests_begin os

$DSLC build $EX/cluster.dsl -o "$T/out" 2>/dev/null
N=$T/out/nodes/gpu001
# (the kernel command line per OS family: tests/kernel_cmdline.sh)

# Redfish: the PATCH body against DMTF's schema, the script against a loopback service
R=$N/redfish
check "apply.sh passes sh -n" "sh -n '$R/apply.sh'"
shellcheck_ok "apply.sh passes shellcheck" "$R/apply.sh"
check "no artifact holds a credential (only variable names)" "grep -q 'REDFISH_PASSWORD' '$R/apply.sh' && ! grep -rIl 'REDFISH_PASSWORD=' '$T/out' >/dev/null"
if $PY -c 'import jsonschema' 2>/dev/null && command -v curl >/dev/null; then
	# the example's BMC is the talk's (vendor ami): a nested body, the Bios ETag
	check "the example's nested BIOS body (vendor ami) passes the project's schema, AmdSetup grouped" \
		"$PY tests/validate/redfish_check.py --nested '$R/bios-settings.json' >'$T/r0' 2>&1 && grep -q '\"AmdSetup\": {' '$R/bios-settings.json' || { cat '$T/r0'; false; }"
	check "the example's apply.sh against the talk's BMC (Bios ETag, nested only) and a standard one (a clear 412), credentials, apply time" \
		"$PY tests/validate/redfish_check.py --apply '$R' >'$T/r2' 2>&1 || { cat '$T/r2'; false; }"
	# a DMTF (flat) BMC: the same node type with dialect flat
	mkdir -p "$T/flat"
	cp $EX/hgx-b200.xml "$T/flat/"
	sed 's/vendor ami/dialect flat/' $EX/hardware.dsl >"$T/flat/hardware.dsl"
	sed 's/bios { AmdSetup.ACSEnable = Enabled }/bios { ACSEnable = Enabled }/' $EX/cluster.dsl >"$T/flat/cluster.dsl"
	$DSLC build "$T/flat/cluster.dsl" -o "$T/flat/out" 2>/dev/null
	F=$T/flat/out/nodes/gpu001/redfish
	check "the flat BIOS body passes DMTF's Bios and Settings schemas" "$PY tests/validate/redfish_check.py --flat '$F/bios-settings.json' >'$T/r1' 2>&1 || { cat '$T/r1'; false; }"
	# (`calls`, make check's ASan pass: the script's runs against the loopback BMC are the plain pass's)
	if [ "$CALLS" != calls ]; then
		check "apply.sh against a DSP0266 BMC: standard, parent-ETag, direct PATCH, failing task, apply time, AMI *, hostile credentials, a flat body the talk's BMC refuses (400)" "$PY tests/validate/redfish_check.py --apply '$F' >'$T/r3' 2>&1 || { cat '$T/r3'; false; }"
	fi
	mkdir -p "$T/nested"
	cp $EX/hgx-b200.xml "$T/nested/"
	sed 's/vendor ami/dialect nested/' $EX/hardware.dsl >"$T/nested/hardware.dsl"
	sed 's/bios { AmdSetup.ACSEnable = Enabled }/bios { AmdSetup.ACSEnable = Enabled  AmdSetup.NumaNodesPerSocket = "NPS1"  Iommu = true }/' $EX/cluster.dsl >"$T/nested/cluster.dsl"
	$DSLC build "$T/nested/cluster.dsl" -o "$T/nested/out" 2>/dev/null
	check "the nested dialect: both AmdSetup attributes in their group, Iommu at the top, exactly; the project's schema" \
		"$PY tests/validate/redfish_check.py --nested '$T/nested/out/nodes/gpu001/redfish/bios-settings.json' >/dev/null && $PY -c 'import json, sys; a = json.load(open(sys.argv[1]))[\"Attributes\"]; sys.exit(a != {\"AmdSetup\": {\"ACSEnable\": \"Enabled\", \"NumaNodesPerSocket\": \"NPS1\"}, \"Iommu\": True})' '$T/nested/out/nodes/gpu001/redfish/bios-settings.json'"
else
	skip_or_fail_in_ci "redfish: python3-jsonschema or curl is missing"
fi

if [ -x $PY ] && $PY -c 'import yaml' 2>/dev/null; then
	check "gpu001's kubelet drop-in: reservedSystemCPUs 0-23,96-119,192-215,288-311, fields and sums" \
		"$PY tests/validate/kubelet_check.py '$N/etc/kubernetes/kubelet.conf.d/50-dslc.conf' --cpus 0-23,96-119,192-215,288-311 >'$T/k' 2>&1 || { cat '$T/k'; false; }"
	check "gpu001: systemReserved 132Gi (4Gi + 2 x 64GiB SCM, no hugepages), reservedMemory 68658Mi on both NUMA nodes" \
		"$PY -c 'import sys,yaml; c=yaml.safe_load(open(sys.argv[1])); sys.exit(not (c[\"systemReserved\"][\"memory\"]==\"132Gi\" and [r[\"limits\"][\"memory\"] for r in c[\"reservedMemory\"]]==[\"68658Mi\"]*2))' '$N/etc/kubernetes/kubelet.conf.d/50-dslc.conf'"
	check "every node's kubelet drop-in passes" "$PY tests/validate/kubelet_check.py \$(find '$T/out' -name 50-dslc.conf) >'$T/k2' 2>&1"
else
	skip_or_fail_in_ci "kubelet: /usr/bin/python3 with PyYAML is missing"
fi
tests_end
