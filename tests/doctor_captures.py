#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""`dslc doctor` on real machines' /sys and /proc (issue 70).

../shared/reference/sysfs holds hwloc's captures of real machines
(hwloc-gather-topology, from hwloc's test suite). For the PMem machine
(32em64t-2n8c+dax+nvme+mic+dimms: NVDIMM regions with namespaces in fsdax,
raw, sector and devdax modes), the test makes the machine's export with the
installed hwloc (HWLOC_FSROOT), writes a description that fits it, builds it
and installs the node's files into a copy of the capture, the way a node gets
there. What hwloc-gather-topology does not save is added as the kernel makes
it, and only that: /dev's block nodes (devtmpfs makes one per disk of
/sys/class/block, drivers/base/devtmpfs.c) and /sys/bus/nd/devices (every
nvdimm device is on the nd bus, drivers/nvdimm/bus.c nd_bus_type; links
to the devices the capture has). Then:

- the clean node gives no error, off the node too (--collect, then --root);
  with the capture's NVMe drive in an engine, the machine's missing IOMMU is
  its one error;
- each drift the PMem check claims, planted on a copy or written in the
  description, gives exactly its findings at the description's line; so do
  a kernel parameter missing from /proc/cmdline, a NUMA node whose memory is
  all in use (hugepages) and the drive's slot on the other socket;
- tests/doctor_roots.py's hand-laid root has the captures' shape: the
  namespaces in every mode, and, against every capture of the folder, the
  links of network interfaces, PCI devices and drivers, NUMA meminfo and
  hugepage pools.

usage: tests/doctor_captures.py DSLC   (DSLC may be "valgrind ... build/dslc")
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
from doctor_roots import cmdline_of, link, make_root, pmem_namespace, pmem_shape  # noqa: E402

DSLC = shlex.split(sys.argv[1])
SYSFS = os.path.join(REPO, "..", "shared", "reference", "sysfs")
CAPTURE = "32em64t-2n8c+dax+nvme+mic+dimms"
passed = failed = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   doctor_captures {name}")
    else:
        failed += 1
        print(f"FAIL doctor_captures {name}{': ' + str(detail)[:1500] if detail else ''}")


def finish():
    print(f"doctor_captures: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if not os.path.isfile(os.path.join(SYSFS, CAPTURE + ".tar.bz2")):
    why = ("real machines' captures: ../shared/reference/sysfs is absent (hwloc's tests/hwloc/linux captures; "
           "the checks on hand-laid roots in tests/doctor.py still run)")
    if os.environ.get("DSLC_REQUIRE_ORACLES") == "1":
        result(False, why + ", and DSLC_REQUIRE_ORACLES=1")
    else:
        print("skip doctor_captures " + why)
    finish()
if not shutil.which("lstopo"):
    print("skip doctor_captures real machines' captures: lstopo is absent (Debian's hwloc package; "
          "scripts/install-deps.sh installs it)")
    finish()

T = tempfile.mkdtemp(prefix="dslc-captures-")


def unpack(name, into):
    """One capture's directory (tar is ten times faster than tarfile on these)."""
    os.makedirs(into, exist_ok=True)
    before = set(os.listdir(into))
    subprocess.run(["tar", "-xjf", os.path.join(SYSFS, name), "-C", into], check=True)
    return [os.path.join(into, d) for d in sorted(set(os.listdir(into)) - before)]


CAP = unpack(CAPTURE + ".tar.bz2", os.path.join(T, "pmem"))[0]
NDBUS = "sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00/ndbus0"

# the export, as lstopo on that machine writes it
xml = os.path.join(T, "node.xml")
with open(xml, "w") as f:
    subprocess.run(["lstopo", "--of", "xml", "--whole-io", "-"], stdout=f, check=True,
                   env=dict(os.environ, HWLOC_FSROOT=CAP, HWLOC_THISSYSTEM="0"), stderr=subprocess.DEVNULL)
text = open(xml).read()
result('name="pmem1.2"' in text and 'name="pmem0.1"' in text,
       "the installed hwloc exports the capture's fsdax namespaces (pmem0.1, pmem1.2)")

DESC = """daos 2.6

cluster capture {
  provider      "ofi+tcp"
  access_points pmem01
}

hardware capture32 {          # 2 x 8 cores, no SMT
  sockets          2
  cores_per_socket 8
  threads_per_core 1
  topology "node.xml"
  numa 0 {
    nic  eth0 pci 0000:02:00.0 role storage
    NVME
    pmem PMEM0
  }
  numa 1 {
    nic  ib0 pci 0000:82:00.0 role storage
    pmem PMEM1
  }
}

profile storage : capture32 {
  os rhel9
  reserve os 1 cores per numa at end
  engine per numa {
    targets 4
    helpers 1
    scm     pmem
  }
}

nodes pmem01 : storage {
  storage eth0 10.0.0.1/24, ib0 10.1.0.1/24
}
"""
SCM_LINE = next(i for i, l in enumerate(DESC.replace("    NVME\n", "").splitlines(), 1) if "scm     pmem" in l)


def description(name, pmem0="pmem0.1", pmem1="pmem1.2", topology=True, nvme=False):
    d = os.path.join(T, name)
    os.makedirs(d, exist_ok=True)
    shutil.copy(xml, os.path.join(d, "node.xml"))
    body = DESC.replace("PMEM0", pmem0).replace("PMEM1", pmem1)
    body = body.replace("    NVME\n", "    nvme 0000:00:02.0\n" if nvme else "")
    if not topology:
        body = body.replace('  topology "node.xml"\n', '  memory_per_numa  15GiB\n')
    open(os.path.join(d, "cluster.dsl"), "w").write(body)
    return os.path.join(d, "cluster.dsl")


def built(desc):
    out = os.path.join(os.path.dirname(desc), "out")
    p = subprocess.run(DSLC[-1:] + ["build", desc, "-o", out], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"FAIL doctor_captures the description does not build: {p.stderr[-1500:]}")
    return os.path.join(out, "nodes/pmem01")


def node_root(name, tree):
    """The capture with the node's files installed, /dev's disks and the nd bus."""
    root = os.path.join(T, "root-" + name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(CAP, root, symlinks=True, copy_function=os.link)  # hard links: rewrite() breaks one
    shutil.copytree(tree, root, symlinks=True, dirs_exist_ok=True)
    for disk in os.listdir(os.path.join(root, "sys/class/block")):
        os.makedirs(os.path.join(root, "dev"), exist_ok=True)
        open(os.path.join(root, "dev", disk), "w").close()
    for region in ("region0", "region1"):
        for dev in os.listdir(os.path.join(root, NDBUS, region)):
            if re.match(r"(namespace|pfn|btt|dax)\d+\.\d+$", dev):
                link(os.path.join(root, "sys/bus/nd/devices", dev), f"../../../{NDBUS[4:]}/{region}/{dev}")
    return root


def rewrite(path, text):
    """A file of a root made with hard links to the capture, written anew."""
    if os.path.lexists(path):
        os.unlink(path)
    with open(path, "w") as f:
        f.write(text)


def doctor(desc, root, extra=(), machine=None, disable=None, node="pmem01"):
    """machine: the node's export (default: the description's own)."""
    machine = machine or os.path.join(os.path.dirname(desc), "node.xml")
    p = subprocess.run(DSLC + ["doctor", desc, "--node", node, "--root", root, "--topology", machine,
                               "--format", "json"] + (["--disable", disable] if disable else []) + list(extra),
                       capture_output=True, text=True, timeout=300)
    try:
        found = json.loads(p.stdout)["findings"]
    except ValueError:
        found = None
    return p.returncode, found, p.stderr


def errors(found):
    return [(f["ruleId"], f["line"], f["message"]) for f in (found or []) if f["severity"] == "error"]


def expect(name, desc, root, says, n=1, xml_file=None):
    """Exactly n errors, each node-pmem at the engines' scm line, the first
    saying every word of says."""
    rc, found, err = doctor(desc, root, machine=xml_file)
    got = errors(found)
    ok = (rc == 1 and len(got) == n and all(r == "node-pmem" and line == SCM_LINE for r, line, _ in got)
          and all(any(w in m for _, _, m in got) for w in says))
    result(ok, name, f"exit {rc}, want {n} node-pmem at line {SCM_LINE} saying {says}: {got} {err[-300:]}")
    return found


# ---- the hand-laid namespaces have the capture's shape, in every mode -----------
for disk, mode in (("pmem1.2", "fsdax"), ("pmem0.1", "fsdax"), ("pmem0.3", "raw"), ("pmem1", "raw"),
                   ("pmem0.2s", "sector"), ("pmem1.1s", "sector")):
    laid = os.path.join(T, "laid-" + disk)
    pmem_namespace(laid, disk[:-1] if mode == "sector" else disk, mode)
    want, have = pmem_shape(CAP, disk), pmem_shape(laid, disk)
    result(want == have, f"doctor_roots lays a {mode} namespace ({disk}) as the kernel does", f"{have} != {want}")
# devdax: the capture's dax0.0 claims namespace0.0 and its character device hangs under it
cap_dax = os.path.realpath(os.path.join(CAP, "sys/bus/dax/devices/dax0.0"))
laid = os.path.join(T, "laid-dax")
pmem_namespace(laid, "pmem0", "devdax")
laid_dax = os.path.realpath(os.path.join(laid, "sys/bus/dax/devices/dax0.0"))
rd = lambda p: open(p).read().strip()
result(os.path.relpath(cap_dax, CAP) == os.path.relpath(laid_dax, laid)
       and rd(os.path.join(cap_dax, "../namespace")) == rd(os.path.join(laid_dax, "../namespace")) == "namespace0.0"
       and rd(os.path.join(cap_dax, "../devtype")) == rd(os.path.join(laid_dax, "../devtype")) == "nd_dax"
       and not os.path.exists(os.path.join(laid, "sys/class/block/pmem0")),
       "doctor_roots lays a devdax namespace as the kernel does (dax0.0 claims namespace0.0, no disk)")

# ---- the rest of doctor_roots.py's hand-laid root, held against the captures ----
# (what tests/doctor.py's roots lay out for the hgx-b200 example)
ex_out = os.path.join(T, "hgx-out")
subprocess.run(DSLC[-1:] + ["build", os.path.join(REPO, "examples/hgx-b200/cluster.dsl"), "-o", ex_out],
               capture_output=True, check=True)
hand = make_root(os.path.join(ex_out, "nodes/gpu005"), os.path.join(REPO, "examples/hgx-b200/hgx-b200.xml"),
                 os.path.join(T, "hand"))
caps = [d for f in sorted(os.listdir(SYSFS)) if f.endswith(".tar.bz2") for d in unpack(f, os.path.join(T, "all"))]
PCI = r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]"
SHAPES = {
    "a PCI NIC's interface (/sys/class/net/IF)": r"^\.\./\.\./devices/pci[0-9a-f]{4}:[0-9a-f]{2}(/" + PCI + r")+/net/[^/]+$",
    "a virtual interface (/sys/class/net/IF)": r"^\.\./\.\./devices/virtual/net/[^/]+$",
    "a PCI device (/sys/bus/pci/devices/ADDR)": r"^\.\./\.\./\.\./devices/pci[0-9a-f]{4}:[0-9a-f]{2}(/" + PCI + r")+$",
}


def links(root, d):
    p = os.path.join(root, d)
    return [os.readlink(os.path.join(p, x)) for x in sorted(os.listdir(p))] if os.path.isdir(p) else []


for what, rx in SHAPES.items():
    d = "sys/bus/pci/devices" if "PCI device" in what else "sys/class/net"
    in_caps = [t for c in caps for t in links(c, d) if re.match(rx, t)]
    in_hand = [t for t in links(hand, d) if ("virtual" in t) == ("virtual" in what)]
    result(in_caps and in_hand and all(re.match(rx, t) for t in in_hand),
           f"doctor_roots lays {what} as the captures show it ({len(in_caps)} in the captures)", in_hand[:4])
# a device's driver link resolves to /sys/bus/pci/drivers/NAME
drv = [os.path.relpath(os.path.realpath(os.path.join(root, "sys/bus/pci/devices", a, "driver")), root)
       for root in [hand] for a in os.listdir(os.path.join(root, "sys/bus/pci/devices"))]
cap_drv = [os.path.relpath(os.path.realpath(os.path.join(c, "sys/bus/pci/devices", a, "driver")), c)
           for c in caps if os.path.isdir(os.path.join(c, "sys/bus/pci/devices"))
           for a in os.listdir(os.path.join(c, "sys/bus/pci/devices"))
           if os.path.islink(os.path.join(c, "sys/bus/pci/devices", a, "driver"))]
# (one hand-extended capture's nvme link is a level short and leads out of
# sys/: the kernel's own links are the rest)
cap_drv = [x for x in cap_drv if x.startswith("sys/")]
result(len(cap_drv) > 100 and drv and all(re.match(r"^sys/bus/pci/drivers/[^/]+$", x) for x in drv + cap_drv),
       f"doctor_roots' driver links resolve where the captures' do ({len(cap_drv)} in the captures)", drv[:3])
# a NUMA node's meminfo: "Node N Key: value kB" (drivers/base/node.c node_read_meminfo)
MEMINFO = r"^Node \d+ [A-Za-z_()]+:\s+\d+( kB)?$"
cap_mi = [l for c in caps for n in ("node0", "node1")
          for l in (open(os.path.join(c, f"sys/devices/system/node/{n}/meminfo")).read().strip().splitlines()
                    if os.path.isfile(os.path.join(c, f"sys/devices/system/node/{n}/meminfo")) else [])]
hand_mi = open(os.path.join(hand, "sys/devices/system/node/node0/meminfo")).read().splitlines()
cap_keys = {l.split()[2] for l in cap_mi if re.match(MEMINFO, l)}
result(cap_mi and all(re.match(MEMINFO, l) for l in cap_mi + hand_mi)
       and {l.split()[2] for l in hand_mi} <= cap_keys,
       f"doctor_roots' NUMA meminfo has the captures' lines and keys ({len(cap_mi)} lines in the captures)",
       sorted({l.split()[2] for l in hand_mi} - cap_keys))
# hugepage pools: /sys/kernel/mm/hugepages/hugepages-<kB>kB/nr_hugepages (mm/hugetlb.c)
cap_hp = sorted({os.path.relpath(os.path.join(dp, f), c) for c in caps
                 for dp, _, fs in os.walk(os.path.join(c, "sys/kernel/mm/hugepages")) for f in fs if f == "nr_hugepages"})
hand_hp = [os.path.relpath(os.path.join(dp, f), hand) for dp, _, fs in os.walk(os.path.join(hand, "sys/kernel/mm/hugepages"))
           for f in fs if f == "nr_hugepages"]
result(hand_hp and set(hand_hp) <= set(cap_hp), "doctor_roots' hugepage pools are where the captures have them",
       f"{hand_hp} vs {cap_hp}")

# ---- every capture: a node of its machine type, checked on its own /sys -------
# Most captures have no NIC, drive or namespace an engine could take: each
# is a client node of its machine type (the export made with the installed
# hwloc), and doctor on the capture with the node's files gives no error.
# An export dslc refuses is refused at the topology line, saying why.
def every_capture():
    """A client node of each capture's machine type (see above)."""
    refused = {}
    for c in caps:
        name = os.path.basename(c)
        d = os.path.join(T, "every", name)
        os.makedirs(d)
        with open(os.path.join(d, "node.xml"), "w") as f:
            subprocess.run(["lstopo", "--of", "xml", "--whole-io", "-"], stdout=f, stderr=subprocess.DEVNULL, check=True,
                           env=dict(os.environ, HWLOC_FSROOT=c, HWLOC_THISSYSTEM="0"))
        for x in ("hardware.dsl", "hgx-b200.xml"):
            shutil.copy(os.path.join(REPO, "examples/hgx-b200", x), d)
        open(os.path.join(d, "cluster.dsl"), "w").write(
            'daos 2.6\ncluster c {\n  provider "ofi+tcp"\n  access_points gpu001\n}\ninclude "hardware.dsl"\n'
            'profile converged : hgx-b200 {\n  os rhel9\n  reserve os 4 cores per numa at end\n'
            '  engine per numa { targets 16 helpers 4 scm ram 64GiB }\n}\n'
            'hardware capture { topology "node.xml" }\nprofile client : capture { os rhel9 }\n'
            'nodes gpu001 : converged { storage ens1f0np0 10.0.0.1/24, ens2f0np0 10.0.1.1/24 }\nnodes cap01 : client\n')
        p = subprocess.run(DSLC[-1:] + ["build", os.path.join(d, "cluster.dsl"), "-o", os.path.join(d, "out")],
                           capture_output=True, text=True)
        if p.returncode != 0:
            refused[name] = p.stdout + p.stderr
            continue
        shutil.copytree(os.path.join(d, "out/nodes/cap01"), c, symlinks=True, dirs_exist_ok=True)
        rc, found, err = doctor(os.path.join(d, "cluster.dsl"), c, node="cap01")
        result(rc == 0 and found is not None and not errors(found), f"{name}: a client node on its own /sys: no error",
               f"exit {rc}: {errors(found)} {err[-300:]}")
    topology_line = 12  # hardware capture { topology "node.xml" }
    result(all(re.search(rf"cluster\.dsl:{topology_line}:\d+: error\[topology-load\]: cannot load topology", out)
               for out in refused.values()) and len(refused) < len(caps) // 4,
           f"the exports dslc refuses ({', '.join(sorted(refused)) or 'none'}) are refused at the topology line",
           {k: v[-300:] for k, v in refused.items()})


if DSLC[0].endswith("valgrind"):
    print("skip doctor_captures every capture's client node: not under valgrind (the PMem machine's checks below "
          "reach the same code under it, in less time)")
else:
    every_capture()

# ---- the clean node ------------------------------------------------------------
clean_desc = description("clean")
tree = built(clean_desc)
clean = node_root("clean", tree)
rc, found, err = doctor(clean_desc, clean)
result(rc == 0 and found is not None and not errors(found),
       "the capture with its node's files: no error (fsdax namespaces on pfn devices)", f"exit {rc}: {found} {err[-500:]}")
result(any(f["ruleId"] == "node-unchecked" and "kernel command line" in f["message"] for f in found or []),
       "what the capture lacks (/proc/cmdline) is a note", found)
snap = os.path.join(T, "snap")
rc, found, err = doctor(clean_desc, clean, ["--collect", snap])
rc2, found2, err2 = doctor(clean_desc, snap)
result(rc == 0 and rc2 == 0 and not errors(found2) and os.path.isfile(os.path.join(snap, "sys/class/block/pmem1.2/device/devtype")),
       "collected on the capture, checked off it: no error", f"exit {rc}/{rc2}: {errors(found2)} {err2[-300:]}")

# ---- drifts --------------------------------------------------------------------
r = node_root("gone", tree)
os.unlink(os.path.join(r, "sys/class/block/pmem1.2"))
expect("a namespace gone (no /sys/class/block/pmem1.2)", clean_desc, r, ["/dev/pmem1.2 of engine 1 is gone"])
r = node_root("nodev", tree)
os.unlink(os.path.join(r, "dev/pmem0.1"))
expect("/dev/pmem0.1 missing", clean_desc, r, ["/dev/pmem0.1 is missing although the kernel has the namespace"])
swapped = os.path.join(T, "swapped.xml")
open(swapped, "w").write(text.replace('name="pmem0.1"', 'name="pmemX"').replace('name="pmem1.2"', 'name="pmem0.1"')
                         .replace('name="pmemX"', 'name="pmem1.2"'))
found = expect("namespaces created in the other order: both engines' found", clean_desc, clean,
               ["pmem0.1 is on NUMA node 1 of the machine, engine 0", "pmem1.2 is on NUMA node 0 of the machine, engine 1"],
               n=2, xml_file=swapped)
# the capture's own raw and sector namespaces named in the description
raw_desc = description("raw", pmem0="pmem0.3")
expect("the capture's raw namespace (pmem0.3, on its namespace)", raw_desc, node_root("raw", built(raw_desc)),
       ["/dev/pmem0.3 of engine 0 is in raw mode (no pfn device), not fsdax"])
sector_desc = description("sector", pmem1="pmem1.1s")
found = expect("the capture's sector namespace (pmem1.1s, on a btt)", sector_desc, node_root("sector", built(sector_desc)),
               ["/dev/pmem1.1s of engine 1 is in sector mode (a btt device), not fsdax"])
# the mode finding does not stop the NUMA comparison
both_desc = description("both", pmem0="pmem0.3")
swapped2 = os.path.join(T, "swapped2.xml")
open(swapped2, "w").write(text.replace('name="pmem0.3"', 'name="pmemX"').replace('name="pmem1.2"', 'name="pmem0.3"')
                          .replace('name="pmemX"', 'name="pmem1.2"'))
expect("a raw namespace on the other socket: both said", both_desc, node_root("both", built(both_desc)),
       ["pmem0.3 of engine 0 is in raw mode", "pmem0.3 is on NUMA node 1 of the machine"], n=3, xml_file=swapped2)
# devdax: the capture's pmem0 (namespace0.0) is claimed by dax0.0; an
# export has no disk for it, so the description names it by hand
dax_desc = description("devdax", pmem0="pmem0", topology=False)
found = expect("the capture's devdax namespace (namespace0.0, claimed by dax0.0)", dax_desc,
               node_root("devdax", built(dax_desc)), ["/dev/pmem0 of engine 0 is in devdax mode (claimed by dax0.0, no /dev/pmem0)"])
helps = [f.get("help", "") for f in found or []]
result(any("ndctl create-namespace -f -e namespace0.0 --mode fsdax" in h for h in helps),
       "its help reconfigures the namespace the dax device claims", helps)
# the kernel command line and the hugepages, on the capture's own
# /sys/devices/system/node: /proc/cmdline as the boot loader passes it once
# the node's kernel artifact ran (the capture has none), clean; then a
# parameter that never reached the boot entry, and NUMA node 0 with its
# memory in use (no free, cached or reclaimable memory for the pool)
r = node_root("cmdline", tree)
cmdline = cmdline_of(tree, os.path.join(T, "cmdline-work"))
rewrite(os.path.join(r, "proc/cmdline"), cmdline)
rc, found, err = doctor(clean_desc, r)
result(rc == 0 and not errors(found) and "transparent_hugepage=never" in cmdline
       and not any("command line" in f["message"] for f in found or []),
       "/proc/cmdline as the boot loader passes it: no error, the command line checked", f"exit {rc}: {found}")
rewrite(os.path.join(r, "proc/cmdline"), cmdline.replace(" transparent_hugepage=never", ""))
rc, found, err = doctor(clean_desc, r)
got = errors(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-cmdline" and "transparent_hugepage=never" in got[0][2],
       "a parameter missing from /proc/cmdline: one node-cmdline", got)
# with the capture's NVMe drive (0000:00:02.0, on the nvme driver) in engine
# 0: the machine has no IOMMU (its /sys/class/iommu is empty), which is its
# one true error; the rest is clean
nv_desc = description("nvme", nvme=True)
nv_tree = built(nv_desc)
r = node_root("nvme", nv_tree)
rc, found, err = doctor(nv_desc, r)
got = errors(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-iommu",
       "the capture's NVMe drive in engine 0: the machine's missing IOMMU is the one error", got)
rc, found, err = doctor(nv_desc, r, disable="node-iommu")
result(rc == 0 and not errors(found), "... with node-iommu switched off: no error (the drive on nvme, on NUMA node 0)",
       errors(found))
mi = os.path.join(r, "sys/devices/system/node/node0/meminfo")
text = open(mi).read()
for key in ("MemFree", "Active\\(file\\)", "Inactive\\(file\\)", "SReclaimable", "KReclaimable", "FilePages"):
    text = re.sub(rf"(?m)^(Node 0 {key}:\s+)\d+", r"\g<1>0", text)
rewrite(mi, text)
rc, found, err = doctor(nv_desc, r, disable="node-iommu")
got = errors(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-hugepages" and "engine 0 needs" in got[0][2]
       and "on NUMA node 0" in got[0][2], "NUMA node 0's memory all in use: one node-hugepages, engine 0's", got)
# the drive's slot on the other socket (the export's drive under NUMA node 1)
x = ET.parse(xml)
parent = {c: p for p in x.iter() for c in p}
drive = next(o for o in x.iter("object") if o.get("pci_busid") == "0000:00:02.0")
ib = next(o for o in x.iter("object") if o.get("pci_busid") == "0000:82:00.0")
parent[drive].remove(drive)
parent[ib].append(drive)
moved = os.path.join(T, "drive-moved.xml")
x.write(moved)
r = node_root("nvme-moved", nv_tree)
rc, found, err = doctor(nv_desc, r, machine=moved, disable="node-iommu")
got = errors(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-nvme"
       and "0000:00:02.0 is on NUMA node 1 of the machine, engine 0 is on NUMA node 0" in got[0][2],
       "the capture's drive on the other socket: one node-nvme", got)
shutil.rmtree(T)
finish()
