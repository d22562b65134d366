#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Runs the real systemd-networkd on generated units inside a throw-away
# network namespace, on veth pairs named like the node's NICs
# (../shared/facts/node-artifacts.md 1.4). Fails on any log line about an
# unknown key or section, a parse failure or an ignored setting; tolerates
# only the bond's "Operation not supported" on kernels without bonding; then
# checks addresses, MTUs, macvlan mode, rules and routes with `ip`.
# Skips (never fails) without root, network namespaces or networkd.
set -u
DSLC=$1
cd "$(dirname "$0")/.."
EX=examples/hgx-b200
NETWORKD=/lib/systemd/systemd-networkd
. tests/lib.sh
tests_begin networkd
if [ "$(id -u)" != 0 ] || [ ! -x $NETWORKD ] || ! command -v ip >/dev/null; then
	skip "the whole suite: needs root, iproute2 and $NETWORKD"
	tests_end
	exit
fi
NS=dslc-test-$$
if ! ip netns add $NS 2>/dev/null; then
	skip "the whole suite: network namespaces are not available here"
	tests_end
	exit
fi
ip netns del $NS
T=$(mktemp -d)
trap 'ip netns del "$NS" 2>/dev/null; rm -rf "$T"' EXIT

# Runs networkd on the units of one node; leaves its log and `ip` views in $T/<name>.*
run_networkd() { # name units-dir nic...
	name=$1 units=$2
	shift 2
	mkdir -p "$T/empty"
	ip netns add $NS
	ip netns exec $NS sh -c '
		units=$1 empty=$2 log=$3 networkd=$4
		shift 4
		mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/network && cp "$units"/* /run/systemd/network/
		mount --bind "$empty" /etc/systemd/network 2>/dev/null
		mount --bind "$empty" /lib/systemd/network 2>/dev/null
		mount -o remount,ro /sys
		ip link set lo up
		i=0
		for nic in "$@"; do
			ip link add "$nic" type veth peer name "sw$i" && ip link set "sw$i" up
			i=$((i + 1))
		done
		SYSTEMD_LOG_TARGET=console "$networkd" >"$log" 2>&1 &
		pid=$!
		sleep 5
		kill $pid
		wait $pid 2>/dev/null
		true' sh "$units" "$T/empty" "$T/$name.log" $NETWORKD "$@"
	ip netns exec $NS ip -d link >"$T/$name.link" 2>&1
	ip netns exec $NS ip -4 addr >"$T/$name.addr" 2>&1
	ip netns exec $NS ip rule >"$T/$name.rule" 2>&1
	ip netns exec $NS ip route show table all >"$T/$name.route" 2>&1
	ip netns del $NS
}

log_clean() { # name: no complaint but the bond's on kernels without bonding
	if [ -d /sys/module/bonding ]; then
		! grep -E 'Unknown key|Unknown section|Failed to parse|ignoring|could not be found|without Name=|has no Kind=|could not be created' "$T/$1.log"
	else
		! grep -E 'Unknown key|Unknown section|Failed to parse|ignoring|could not be found|without Name=|has no Kind=|could not be created' "$T/$1.log" |
			grep -v 'bond0: netdev could not be created: Operation not supported'
	fi
}

$DSLC build $EX/cluster.dsl -o "$T/out" 2>/dev/null
run_networkd example "$T/out/nodes/gpu001/etc/systemd/network" ens1f0np0 ens2f0np0
check "networkd reads every unit without a complaint" "ls '$T/out/nodes/gpu001/etc/systemd/network/'*.network >/dev/null 2>&1 && log_clean example || { cat '$T/example.log'; false; }"
check "both RoCE NICs come up at MTU 9000" "grep -q 'ens1f0np0@sw0: .* mtu 9000' '$T/example.link' && grep -q 'ens2f0np0@sw1: .* mtu 9000' '$T/example.link'"
check "each RoCE NIC has its own address" "grep -q 'inet 10.20.0.10/24 .* ens1f0np0' '$T/example.addr' && grep -q 'inet 10.21.0.10/24 .* ens2f0np0' '$T/example.addr'"
check "both macvlans exist, MTU 1500, bridge mode" \
	"grep -A1 'mv0@ens1f0np0: .* mtu 1500' '$T/example.link' >/dev/null && grep -A2 'mv1@ens2f0np0: .* mtu 1500' '$T/example.link' | grep -q 'macvlan mode bridge'"
if [ -d /sys/module/bonding ]; then
	check "bond0 carries the management address" "grep -q 'inet 10.10.0.10/24 .* bond0' '$T/example.addr'"
else
	skip "bond0 address: this kernel has no bonding driver"
fi

# two storage NICs in one subnet: source-based routing
mkdir -p "$T/shared"
cp $EX/hardware.dsl $EX/hgx-b200.xml "$T/shared/"
sed 's|ens2f0np0 10.21.0.{10+i}/24|ens2f0np0 10.20.0.{50+i}/24|' $EX/cluster.dsl >"$T/shared/cluster.dsl"
$DSLC build "$T/shared/cluster.dsl" -o "$T/shared/out" 2>"$T/shared.build"
check "shared subnet: the variant builds" "[ $? = 0 ] || { cat '$T/shared.build'; false; }"
run_networkd shared "$T/shared/out/nodes/gpu001/etc/systemd/network" ens1f0np0 ens2f0np0
check "shared subnet: networkd reads the rules without a complaint" "grep -qs '^\\[RoutingPolicyRule\\]' '$T/shared/out/nodes/gpu001/etc/systemd/network/'*.network && log_clean shared || { cat '$T/shared.log'; false; }"
check "shared subnet: one rule per NIC to its own table" \
	"grep -q 'from 10.20.0.10 lookup 101' '$T/shared.rule' && grep -q 'from 10.20.0.50 lookup 102' '$T/shared.rule'"
check "shared subnet: each table routes the subnet from its NIC" \
	"grep -q '10.20.0.0/24 dev ens1f0np0 table 101 .*src 10.20.0.10' '$T/shared.route' && grep -q '10.20.0.0/24 dev ens2f0np0 table 102 .*src 10.20.0.50' '$T/shared.route'"

# ... and the ARP/rp_filter sysctls for them, applied by the real systemd-sysctl
# in a namespace (net.ipv4.conf.* is per network namespace) on NICs of those names
SYSCTL=$T/shared/out/nodes/gpu001/etc/sysctl.d/60-dslc-storage-arp.conf
if [ -x /lib/systemd/systemd-sysctl ] && [ -f "$SYSCTL" ]; then
	ip netns add $NS
	ip netns exec $NS sh -c '
		ip link add ens1f0np0 type veth peer name sw0
		ip link add ens2f0np0 type veth peer name sw1
		echo 1 >/proc/sys/net/ipv4/conf/all/rp_filter   # strict, as RHEL sets it
		/lib/systemd/systemd-sysctl "$1" || exit 1
		for nic in ens1f0np0 ens2f0np0; do
			for k in arp_ignore arp_announce rp_filter; do
				printf "%s.%s=%s\n" $nic $k "$(cat /proc/sys/net/ipv4/conf/$nic/$k)"
			done
		done' sh "$SYSCTL" >"$T/sysctl.out" 2>&1
	ip netns del $NS
	check "shared subnet: systemd-sysctl sets arp_ignore 1, arp_announce 2, rp_filter 2 on both NICs" \
		"[ \"\$(grep -c -E '(arp_ignore=1|arp_announce=2|rp_filter=2)\$' '$T/sysctl.out')\" = 6 ] || { cat '$T/sysctl.out'; false; }"
	check "separate subnets: no sysctl file (the node's tree is there)" "[ -d '$T/out/nodes/gpu001/etc/systemd/network' ] && [ ! -e '$T/out/nodes/gpu001/etc/sysctl.d/60-dslc-storage-arp.conf' ]"
else
	skip "sysctl: /lib/systemd/systemd-sysctl is missing"
fi
tests_end
