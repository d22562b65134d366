#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Gives the NUMA nodes of an hwloc 2.x XML export other OS indexes, as real
machines number them: POWER9 numbers its sockets' nodes 0 and 8 and the GPU
memory nodes 252-255; a Xeon Max in SNC4 gives the DDR nodes 0-3 and the HBM
nodes 4-7 although each HBM node sits beside its DDR node. hwloc's logical
order (what DAOS's engine counts pinned_numa_node in) stays as it was.

usage: renumber_numa.py in.xml out.xml OLD=NEW...
Every nodeset and complete_nodeset is remapped; the result is an ordinary
export (run it through lstopo to check that hwloc reads it)."""
import sys
import xml.etree.ElementTree as ET


def parse(s):  # hwloc bitmap: 32-bit words, most significant first
    v = 0
    for w in s.split(","):
        v = (v << 32) | (int(w, 16) if w else 0)
    return v


def fmt(v):
    words = []
    while True:
        words.append(v & 0xFFFFFFFF)
        v >>= 32
        if not v:
            break
    return ",".join(f"0x{w:08x}" for w in reversed(words))


def main():
    src, dst, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
    remap = {int(a): int(b) for a, b in (p.split("=") for p in pairs)}
    tree = ET.parse(src)
    for o in tree.getroot().iter("object"):
        if o.get("type") == "NUMANode":
            o.set("os_index", str(remap.get(int(o.get("os_index")), int(o.get("os_index")))))
        for attr in ("nodeset", "complete_nodeset", "allowed_nodeset"):
            if o.get(attr) is None:
                continue
            old, new = parse(o.get(attr)), 0
            for bit in range(old.bit_length()):
                if old >> bit & 1:
                    new |= 1 << remap.get(bit, bit)
            o.set(attr, fmt(new))
    tree.write(dst, encoding="UTF-8", xml_declaration=True)


if __name__ == "__main__":
    main()
