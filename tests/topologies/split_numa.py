#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""An hwloc 2.x export as the same machine shows itself after its BIOS NUMA
mode went from NPS1 to NPS2 (AMD) or SNC2 (Intel): each package's NUMA node
becomes two, each of half the memory, under a Group of half the package's L3
caches (and half its host bridges), numbered 2p and 2p+1 as Linux numbers
them; hwloc's lstopo reads the result.

usage: split_numa.py in.xml out.xml"""
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from renumber_numa import fmt, parse  # noqa: E402


def split(xml, out):
    x = ET.parse(xml)
    gp = max(int(o.get("gp_index", "0")) for o in x.iter("object")) + 1
    machine = x.getroot().find("object")
    for pkg in [o for o in machine if o.get("type") == "Package"]:
        kids = [c for c in pkg if c.tag == "object"]
        numa = [c for c in kids if c.get("type") == "NUMANode"][0]
        l3s = [c for c in kids if c.get("type") == "L3Cache"]
        io = [c for c in kids if c.get("type") not in ("NUMANode", "L3Cache")]
        half = len(l3s) // 2
        base = int(numa.get("os_index")) * 2
        mem = int(numa.get("local_memory", "0")) // 2
        pkg.remove(numa)
        for c in l3s + io:
            pkg.remove(c)
        for k, (part, dev) in enumerate(((l3s[:half], io[:len(io) // 2]), (l3s[half:], io[len(io) // 2:]))):
            cs = 0
            for c in part:
                cs |= parse(c.get("cpuset"))
            ns = fmt(1 << (base + k))
            g = ET.SubElement(pkg, "object", {"type": "Group", "cpuset": fmt(cs), "complete_cpuset": fmt(cs),
                                               "nodeset": ns, "complete_nodeset": ns, "gp_index": str(gp), "kind": "1000"})
            gp += 1
            ET.SubElement(g, "object", {"type": "NUMANode", "os_index": str(base + k), "cpuset": fmt(cs),
                                        "complete_cpuset": fmt(cs), "nodeset": ns, "complete_nodeset": ns,
                                        "gp_index": str(gp), "local_memory": str(mem)})
            gp += 1
            for c in part + dev:
                g.append(c)
        both = fmt(3 << base)
        pkg.set("nodeset", both); pkg.set("complete_nodeset", both)
    for k in ("nodeset", "complete_nodeset", "allowed_nodeset"):
        machine.set(k, "0x0000000f")
    x.write(out)


if __name__ == "__main__":
    split(sys.argv[1], sys.argv[2])
