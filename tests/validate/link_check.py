#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The storage NICs' .link files (issue 56 item 2), checked against udev's own
key table, independently of dslc: the [Match] and [Link] keys of
systemd/systemd src/udev/net/link-config-gperf.gperf (commit 0001307), each
value as its parser takes it there (config_parse_ring_buffer_or_channel: 1 to
UINT32_MAX or "max"; config_parse_coalesce_sec: a time span; config_parse_tristate:
a boolean; config_parse_ifname: 1-15 bytes, no '/', ':' or space). The matched
device is the named one: Path=pci-<address> (udev's path_id, ID_PATH) is the
PCI function of the interface Name= keeps, in the node type's topology export.
Also: the help of nic-link applied builds, and a NIC without a PCI address is
refused at the link block.

usage: link_check.py DSLC   (prints ok/FAIL lines)
"""
import os
import re
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET

from report import Report, build

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "md-on-ssd")
HGX = os.path.join(ROOT, "examples", "hgx-b200")
# link-config-gperf.gperf: section.key -> its parser
KEYS = {
    "Match.MACAddress": "hwaddrs", "Match.PermanentMACAddress": "hwaddrs", "Match.OriginalName": "ifnames",
    "Match.Path": "strv", "Match.Driver": "strv", "Match.Type": "strv", "Match.Property": "strv",
    "Match.Host": "cond", "Match.Virtualization": "cond", "Match.KernelCommandLine": "cond",
    "Match.KernelVersion": "cond", "Match.Architecture": "cond",
    "Link.Description": "string", "Link.MACAddressPolicy": "string", "Link.MACAddress": "hwaddr",
    "Link.NamePolicy": "string", "Link.Name": "ifname", "Link.AlternativeName": "ifnames",
    "Link.AlternativeNamesPolicy": "string", "Link.Alias": "string", "Link.TransmitQueues": "u32",
    "Link.ReceiveQueues": "u32", "Link.TransmitQueueLength": "u32", "Link.MTUBytes": "size",
    "Link.BitsPerSecond": "size", "Link.Duplex": "string", "Link.AutoNegotiation": "bool", "Link.WakeOnLan": "string",
    "Link.Port": "string", "Link.ReceiveChecksumOffload": "bool", "Link.TransmitChecksumOffload": "bool",
    "Link.GenericSegmentationOffload": "bool", "Link.TCPSegmentationOffload": "bool",
    "Link.TCP6SegmentationOffload": "bool", "Link.GenericReceiveOffload": "bool", "Link.LargeReceiveOffload": "bool",
    "Link.RxChannels": "ring", "Link.TxChannels": "ring", "Link.OtherChannels": "ring", "Link.CombinedChannels": "ring",
    "Link.Advertise": "string", "Link.RxBufferSize": "ring", "Link.RxMiniBufferSize": "ring",
    "Link.RxJumboBufferSize": "ring", "Link.TxBufferSize": "ring", "Link.RxFlowControl": "bool",
    "Link.TxFlowControl": "bool", "Link.AutoNegotiationFlowControl": "bool", "Link.RxCoalesceSec": "sec",
    "Link.TxCoalesceSec": "sec", "Link.RxMaxCoalescedFrames": "u32", "Link.TxMaxCoalescedFrames": "u32",
    "Link.UseAdaptiveRxCoalesce": "bool", "Link.UseAdaptiveTxCoalesce": "bool",
}
BOOL = {"1", "yes", "y", "true", "t", "on", "0", "no", "n", "false", "f", "off"}
REPORT = Report("link")
check = REPORT.check


def value_ok(kind, v):
    if kind == "ring":
        return v == "max" or (v.isdigit() and 1 <= int(v) <= 0xFFFFFFFF)
    if kind == "u32":
        return v.isdigit() and int(v) <= 0xFFFFFFFF
    if kind == "sec":  # parse_sec: a number and a unit, or a number of seconds
        return re.fullmatch(r"\d+(\.\d+)?(us|usec|ms|msec|s|sec)?", v) is not None
    if kind == "bool":
        return v.lower() in BOOL
    if kind == "ifname":
        return 0 < len(v) <= 15 and not re.search(r"[/:\s]", v) and v not in (".", "..")
    return bool(v)


def parse(path):
    """[(section, key, value, line)] as conf-parser reads it: sections, '#' comments."""
    out, section = [], None
    for n, raw in enumerate(open(path), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, eq, value = line.partition("=")
        out.append((section, key.strip(), value.strip() if eq else None, n))
    return out


def export_pci(xml_path):
    """interface name -> PCI address of its function, from an lstopo export"""
    names = {}
    for pci in ET.parse(xml_path).iter("object"):
        if pci.get("type") != "PCIDev":
            continue
        for osdev in pci.iter("object"):
            if osdev.get("type") == "OSDev" and osdev.get("name"):
                names[osdev.get("name")] = pci.get("pci_busid")
    return names


def main():
    dslc = os.path.abspath(sys.argv[1])
    pci_of = export_pci(os.path.join(HGX, "hgx-b200.xml"))
    with tempfile.TemporaryDirectory() as tmp:
        rc, err = build(dslc, os.path.join(EXAMPLE, "cluster.dsl"), os.path.join(tmp, "out"))
        check("the reference example builds", rc == 0, err[-300:])
        net = os.path.join(tmp, "out/nodes/st01/etc/systemd/network")
        links = sorted(f for f in os.listdir(net) if f.endswith(".link")) if rc == 0 else []
        check("st01 (a link block) has one .link per storage NIC",
              links == ["10-dslc-ens1f0np0.link", "10-dslc-ens2f0np0.link"], links)
        check("they sort before the distribution's 99-default.link, which udev would use otherwise",
              all(f < "99-default.link" for f in links) and links)
        for f in links:
            entries = parse(os.path.join(net, f))
            bad = [(s, k, v) for s, k, v, _ in entries if "%s.%s" % (s, k) not in KEYS or v is None
                   or not value_ok(KEYS["%s.%s" % (s, k)], v)]
            check("%s: every key is in udev's table and every value parses as udev's parser takes it" % f, not bad, bad)
            got = {(s, k): v for s, k, v, _ in entries}
            name, path = got.get(("Link", "Name")), got.get(("Match", "Path"))
            check("%s: matches pci-<address> of the interface it keeps by Name= (%s, in hgx-b200.xml, the node type md-on-ssd includes)" % (f, name),
                  name and path == "pci-%s" % pci_of.get(name), (name, path, pci_of.get(name)))
            check("%s: the example's rings, GRO on, LRO off" % f,
                  got.get(("Link", "RxBufferSize")) == "8192" and got.get(("Link", "TxBufferSize")) == "8192"
                  and got.get(("Link", "GenericReceiveOffload")) == "yes" and got.get(("Link", "LargeReceiveOffload")) == "no",
                  got)
        rc2, err2 = build(dslc, os.path.join(HGX, "cluster.dsl"), os.path.join(tmp, "hgx"))
        g = os.path.join(tmp, "hgx/nodes/gpu001/etc/systemd/network")
        check("the reference example, without a link block, gets no .link file",
              rc2 == 0 and os.path.isdir(g) and not any(f.endswith(".link") for f in os.listdir(g)), err2[-300:])
        # nic-link's help applied: the proposed ring size builds
        d = os.path.join(tmp, "v")
        shutil.copytree(EXAMPLE, d)
        shutil.copytree(HGX, os.path.join(tmp, "hgx-b200"))
        src = os.path.join(d, "cluster.dsl")
        text = open(src).read()
        open(src, "w").write(text.replace("link { rx_ring 8192", "link { rx_ring 16384", 1))
        rc, err = build(dslc, src, os.path.join(d, "out"))
        m = re.search(r"help: write `rx_ring (\d+)`", err)
        check("rx_ring 16384 on the ConnectX-7: error[nic-link] at it, nothing built, help proposes 8192",
              rc == 1 and "error[nic-link]: rx_ring 16384 is more than mlx5_core" in err and m and m.group(1) == "8192"
              and not os.path.exists(os.path.join(d, "out")), err[-400:])
        if m:
            open(src, "w").write(text.replace("link { rx_ring 8192", "link { rx_ring %s" % m.group(1), 1))
            rc, err = build(dslc, src, os.path.join(d, "out"))
            check("the help's rx_ring %s applied: builds" % m.group(1), rc == 0, err[-300:])
        # a NIC described by hand without its PCI address
        hand = os.path.join(tmp, "hand.dsl")
        open(hand, "w").write(
            'daos 2.6\ncluster t { provider "ofi+verbs;ofi_rxm" access_points n[1-3] fabric roce { gid_index 3 } }\n'
            "hardware h {\n  sockets 1  cores_per_socket 32  threads_per_core 1  memory_per_numa 256GiB\n"
            "  numa 0 { nic ens1 role storage rdma mlx5_0  nvme 0000:01:00.0 }\n}\n"
            "profile p : h {\n  engine per numa { targets 8 scm ram 32GiB nvme roles [wal meta data] }\n"
            "  network { storage mtu 9000  link { rx_ring 4096 } }\n}\n"
            "nodes n[1-3] : p { storage ens1 10.0.0.{10+i}/24 }\n")
        rc, err = build(dslc, hand, os.path.join(tmp, "hand"))
        check("a storage NIC without a PCI address: error[nic-link] at the link block, the NIC noted, nothing built",
              rc == 1 and "hand.dsl:9:31: error[nic-link]: storage NIC ens1 has no PCI address" in err
              and "hand.dsl:5:16: note: the NIC is described here" in err
              and not os.path.exists(os.path.join(tmp, "hand")), err[-500:])
        text = open(hand).read()
        open(hand, "w").write(text.replace("nic ens1 role", "nic ens1 pci 0000:41:00.0 role"))
        rc, err = build(dslc, hand, os.path.join(tmp, "hand"))
        got = open(os.path.join(tmp, "hand/nodes/n1/etc/systemd/network/10-dslc-ens1.link")).read() if rc == 0 else ""
        check("with its pci address: built, Path=pci-0000:41:00.0 and no ring check (the export names no PCI IDs)",
              "Path=pci-0000:41:00.0\n" in got and "RxBufferSize=4096\n" in got, err[-300:])
    REPORT.end()


main()
