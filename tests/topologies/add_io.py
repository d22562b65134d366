#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Injects PCI NICs and NVMe drives into an hwloc 2.x XML export (typically one
made from a synthetic description, which has no I/O), following the rules of
../shared/facts/hwloc.md section 6: the I/O subtree goes under the object
(Package, Group or Machine) the device is local to; a device under the
Machine has no NUMA locality.

usage: add_io.py in.xml out.xml SPEC...
SPEC = <ParentType>:<logical idx>:<kind>:<dddd:bb:dd.f>[:<name>[,<name>...]]
kind = nic-eth | nic-ib | nic-mgmt | nic-vpi | nic-cx2 | nic-iwarp | nic-opa |
       nic-cxi | nvme | nvme-spdk | vmd | gpu
  nic-mgmt: an onboard 1GbE port without RDMA; nvme-spdk: no block device
  (bound to vfio/SPDK); vmd: an Intel VMD endpoint with an NVMe disk behind it.
NIC names: NAME=eth (Ethernet interface, 6-byte MAC), NAME=ib (IPoIB, 20-byte
address, as /sys/class/net/<if>/address holds: INFINIBAND_ALEN), NAME=hsn
(Slingshot, subtype "Slingshot"), NAME=rdma (OpenFabrics device). Without a
suffix the first name is the interface (IPoIB for nic-ib, nic-opa) and the
second the RDMA device. Functions on one bus share one bridge.
"""
import sys
import xml.etree.ElementTree as ET

IDS = {  # class, vendor:device, subvendor:subdevice, as seen in real exports
    "nic-eth": ("0200", "15b3:1021", "15b3:0041"),   # ConnectX-7, Ethernet (RoCE)
    "nic-ib": ("0207", "15b3:1021", "15b3:0041"),    # ConnectX-7, InfiniBand
    "nic-mgmt": ("0200", "8086:1521", "8086:0001"),  # I350 1GbE
    "nic-vpi": ("0207", "15b3:101b", "15b3:0007"),   # ConnectX-6 VPI, either port type
    "nic-cx2": ("0c06", "15b3:673c", "15b3:0021"),   # ConnectX-2 VPI (mlx4): both ports on one function
    "nic-iwarp": ("0200", "8086:37d2", "8086:0001"), # X722, Ethernet with iWARP RDMA
    "nic-opa": ("0208", "8086:24f0", "8086:2628"),   # Omni-Path HFI (hfi1)
    "nic-cxi": ("0200", "17db:0501", "17db:0000"),   # HPE Slingshot Cassini
    "nvme": ("0108", "144d:a824", "144d:a809"),      # Samsung PM173x
    "nvme-spdk": ("0108", "144d:a824", "144d:a809"),
    "vmd": ("0104", "8086:28c0", "8086:0000"),       # Intel VMD endpoint
    "gpu": ("0302", "10de:2901", "10de:1999"),       # NVIDIA B200 (3D controller): no OS device
}


def main():
    src, dst, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    tree = ET.parse(src)
    root = tree.getroot()
    gp = [max(int(o.get("gp_index", "0")) for o in root.iter("object")) + 1]
    by_type = {}
    for o in root.iter("object"):
        by_type.setdefault(o.get("type"), []).append(o)
    disk = [0]
    ports = {}

    def new(parent, otype, **attrs):
        o = ET.SubElement(parent, "object")
        o.set("type", otype)
        o.set("gp_index", str(gp[0]))
        gp[0] += 1
        for k, v in attrs.items():
            o.set(k, v)
        return o

    for n, spec in enumerate(specs):
        ptype, pidx, kind, rest = spec.split(":", 3)
        parts = rest.split(":")
        busid = ":".join(parts[:3])
        names = parts[3].split(",") if len(parts) > 3 else []
        parent = by_type[ptype][int(pidx)]
        dom, bus, _ = busid.split(":")
        cls, vd, svd = IDS[kind]
        port = ports.get((dom, bus))
        if port is None:
            hb = new(parent, "Bridge", bridge_type="0-1", depth="0", bridge_pci=f"{dom}:[{bus}-{bus}]")
            port = new(hb, "Bridge", bridge_type="1-1", depth="1", bridge_pci=f"{dom}:[{bus}-{bus}]",
                       pci_busid=f"{dom}:{int(bus, 16) & 0xf0:02x}:01.{n % 8}",
                       pci_type="0604 [1022:14ab] [0000:0000] 00", pci_link_speed="31.507692")
            ports[(dom, bus)] = port
        dev = new(port, "PCIDev", pci_busid=busid, pci_type=f"{cls} [{vd}] [{svd}] 00",
                  pci_link_speed="31.507692")
        if kind.startswith("nic"):
            ipoib = kind in ("nic-ib", "nic-opa")
            typed = [x.split("=") if "=" in x else None for x in names]
            if names and typed[0] is None:
                typed = [[names[0], "ib" if ipoib else "eth"]] + ([[names[1], "rdma"]] if len(names) > 1 else [])
            for i, (name, what) in enumerate(typed):
                if what == "rdma":
                    ET.SubElement(new(dev, "OSDev", name=name, osdev_type="3"), "info", name="Port1State", value="4")
                    continue
                attrs = {"subtype": "Slingshot"} if what == "hsn" else {}
                net = new(dev, "OSDev", name=name, osdev_type="2", **attrs)
                if what == "ib":  # 4 bytes of QPN and flags, the 16-byte port GID
                    addr = f"00:00:10:87:fe:80:00:00:00:00:00:00:98:03:9b:03:00:{int(bus, 16):02x}:{n:02x}:{i:02x}"
                else:
                    addr = f"02:00:00:{i:02x}:{int(bus, 16):02x}:{n:02x}"
                ET.SubElement(net, "info", name="Address", value=addr)
        elif kind in ("nvme", "vmd"):
            blk = new(dev, "OSDev", name=f"nvme{disk[0]}n1", subtype="Disk", osdev_type="0")
            ET.SubElement(blk, "info", name="Size", value="7501476528")
            disk[0] += 1

    with open(dst, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE topology SYSTEM "hwloc2.dtd">\n')
        f.write(ET.tostring(root, encoding="unicode"))
        f.write("\n")


if __name__ == "__main__":
    main()
