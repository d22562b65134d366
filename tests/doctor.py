#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""`dslc doctor` (issue 42) against fake node roots.

Each root is made from an example's built tree and a topology export the way
a node gets there, never from dslc's code: the tree's files are installed
with their modes; /proc/cmdline is what the boot loader passes after the
kernel artifact ran (the grub.d drop-in sourced by the OS's /etc/default/grub,
or the grubby script run against a BLS entry with tests/os/fake-grubby);
/sys and /proc/net are laid out as the kernel lays them out (sysfs class
links relative to /sys/devices, net/core/dev.c lower_* adjacency links,
bonding/mode as bond_sysfs.c prints it, fib_trie as net/ipv4/fib_trie.c
prints it; cited where written). A clean root exits 0 with no finding; then
one drift at a time, each found by its rule at the description's line that
the node contradicts, in text, JSON and SARIF. Then --strict, --collect and
the checks off the node from the snapshot, --snapshots over a fleet, the live
machine (a smoke test: hwloc's view of this host), and hostile roots.

usage: tests/doctor.py DSLC   (DSLC may be "valgrind ... build/dslc")
"""
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(REPO)
DSLC = shlex.split(sys.argv[1])
VALGRIND = DSLC[0].endswith("valgrind")
REF = os.path.join(REPO, "..", "shared", "reference", "hwloc")
T = tempfile.mkdtemp(prefix="dslc-doctor-")
passed = failed = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   doctor {name}")
    else:
        failed += 1
        print(f"FAIL doctor {name}{': ' + str(detail)[:1500] if detail else ''}")


def skip(name, why):
    print(f"skip doctor {name}: {why}")


def run(args, timeout=300, **kw):
    p = subprocess.run(DSLC + args, capture_output=True, text=True, timeout=timeout, **kw)
    return p.returncode, p.stdout, p.stderr


def doctor(desc, host, root, xml=None, extra=()):
    args = ["doctor", desc, "--node", host, "--root", root, "--format", "json"] + list(extra)
    if xml:
        args += ["--topology", xml]
    rc, out, err = run(args)
    try:
        found = json.loads(out)["findings"]
    except ValueError:
        found = None
    return rc, found, err


def line_of(path, pattern):
    """The 1-based line of the description that holds pattern (a regex)."""
    with open(path) as f:
        for i, l in enumerate(f, 1):
            if re.search(pattern, l):
                return i
    raise AssertionError(f"{pattern} not in {path}")


from doctor_roots import link, make_root, numa_nodes, pmem_namespace, with_identity, write  # noqa: E402


def build(desc, out, extra=()):
    if not os.path.isdir(out):
        subprocess.run(DSLC[-1:] + ["build", desc, "-o", out] + list(extra), capture_output=True, check=True)
    return out


def fresh(name, tree, xml, **kw):
    root = os.path.join(T, name)
    shutil.rmtree(root, ignore_errors=True)
    return make_root(tree, xml, root, **kw)


def summary(f):
    return [(x["ruleId"], os.path.basename(x["file"]), x["line"], x["message"]) for x in (f or [])]


def without_device(xml, busid, name):
    """The export xml with the PCI device at busid (and what hangs under it) gone."""
    x = ET.parse(xml)
    for parent in x.iter():
        for o in list(parent):
            if o.get("type") == "PCIDev" and o.get("pci_busid") == busid:
                parent.remove(o)
    out = os.path.join(T, name)
    x.write(out)
    return out


def expect(name, desc, host, root, xml, rule, where, words, extra=()):
    """One drift: exit 1, exactly the findings of rule, the first at where (file, line)."""
    rc, found, err = doctor(desc, host, root, xml, extra)
    got = summary(found)
    ok = (rc == 1 and got and all(r == rule for r, *_ in got) and (got[0][1], got[0][2]) == where
          and all(w in got[0][3] for w in words))
    result(ok, name, f"exit {rc}, want {rule} at {where} saying {words}: {got} {err[-300:]}")
    return found


# ---- the examples: a clean root each, then one drift at a time -------------------

EX = "examples/hgx-b200"
CL, HW = f"{EX}/cluster.dsl", f"{EX}/hardware.dsl"
XML = f"{EX}/hgx-b200.xml"
out = build(CL, os.path.join(T, "out-hgx"))
tree = os.path.join(out, "nodes/gpu005")

clean = fresh("clean", tree, XML)
rc, found, err = doctor(CL, "gpu005", clean, XML)
result(rc == 0 and found == [], "hgx-b200 gpu005: a clean root exits 0 with no finding", f"exit {rc}: {summary(found)} {err}")
rc, text, err = run(["doctor", CL, "--node", "gpu005", "--root", clean, "--topology", XML])
result(rc == 0 and text == "" and "0 drifts, 0 notes" in err, "text format: nothing on stdout, the count on stderr",
       text + err)

md = build("examples/md-on-ssd/cluster.dsl", os.path.join(T, "out-md"))
r = fresh("clean-md", os.path.join(md, "nodes/st04"), XML)
rc, found, err = doctor("examples/md-on-ssd/cluster.dsl", "st04", r, XML)
result(rc == 0 and found == [], "md-on-ssd st04 (rhel9: the grubby script's cmdline, a drive excluded): clean",
       f"exit {rc}: {summary(found)} {err}")

k8 = build("examples/hgx-b200-k8s/cluster.dsl", os.path.join(T, "out-k8s"))
r = fresh("clean-k8s", os.path.join(k8, "nodes/gpu002"), XML)
rc, found, err = doctor("examples/hgx-b200-k8s/cluster.dsl", "gpu002", r, XML)
result(rc == 0 and found == [], "hgx-b200-k8s gpu002 (pods: hugepages reserved at boot, drives on vfio-pci): clean",
       f"exit {rc}: {summary(found)} {err}")
# pods: nothing rebinds a drive at start; one the bind unit refused (or a
# unit that never ran) leaves it on nvme, which the daos-server pod cannot use
k8drive = re.search(r"^bind ([0-9a-f:.]+)$", open(os.path.join(k8, "nodes/gpu002/usr/local/sbin/dslc-vfio-bind")).read(),
                    re.M).group(1)
r8 = fresh("k8s-nvme", os.path.join(k8, "nodes/gpu002"), XML)
os.unlink(f"{r8}/sys/devices/pci0000:00/{k8drive}/driver")
os.symlink("../../../bus/pci/drivers/nvme", f"{r8}/sys/devices/pci0000:00/{k8drive}/driver")
rc, found, err = doctor("examples/hgx-b200-k8s/cluster.dsl", "gpu002", r8, XML)
got = summary(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-nvme" and f"{k8drive} is bound to nvme" in got[0][3]
       and "must be on vfio-pci from boot" in got[0][3] and "dslc-vfio-bind" in (found[0].get("help") or ""),
       "pods: a drive the bind unit left on nvme is drift (nothing rebinds it), the help names the unit's journal",
       f"exit {rc}: {got}")
m = open(f"{r}/proc/meminfo").read()
write(f"{r}/proc/meminfo", re.sub(r"HugePages_Total: +\d+", "HugePages_Total:   9000", m), 0o444)
expect("pods: fewer pages than hugepages= reserved at boot", "examples/hgx-b200-k8s/cluster.dsl", "gpu002", r, XML,
       "node-hugepages", ("cluster.dsl", line_of("examples/hgx-b200-k8s/cluster.dsl", r"^  deploy")),
       ["9000 hugepages of 2 MiB are reserved", "asks for"])

# 1 GiB pages: reserved at boot (hugepagesz=1G hugepages=N default_hugepagesz=1G)
g1 = os.path.join(T, "desc-1g")
shutil.copytree(EX, g1)
write(f"{g1}/hardware.dsl", open(f"{g1}/hardware.dsl").read().replace(
    "  memory_per_numa  768GiB", "  memory_per_numa  768GiB\n  hugepage_size    1GiB"))
g1_out = build(f"{g1}/cluster.dsl", os.path.join(T, "out-1g"))
r = fresh("clean-1g", os.path.join(g1_out, "nodes/gpu005"), XML)
rc, found, err = doctor(f"{g1}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and found == [] and "hugepagesz=1G" in open(f"{r}/proc/cmdline").read(),
       "1 GiB pages reserved at boot: clean", f"exit {rc}: {summary(found)} {err}")
cmd = open(f"{r}/proc/cmdline").read().rstrip("\n")
for extra, why in [(" hugepages=4", "a second hugepages= without hugepagesz= between"),
                   (" hugepagesz=1G hugepages=4", "hugepagesz=1G twice: the repeat and its hugepages= ignored"),
                   (" hugepagesz=2M hugepages=4", "a pair for another page size")]:
    write(f"{r}/proc/cmdline", cmd + extra + "\n", 0o444)
    rc, found, _ = doctor(f"{g1}/cluster.dsl", "gpu005", r, XML)
    result(rc == 0 and found == [], f"1 GiB pages, {extra.strip()} after dslc's ({why}, mm/hugetlb.c): clean",
           summary(found))
write(f"{r}/proc/cmdline", re.sub(r"hugepagesz=1G hugepages=\d+", "hugepagesz=1G hugepages=4", cmd) + "\n", 0o444)
rc, found, _ = doctor(f"{g1}/cluster.dsl", "gpu005", r, XML)
got = summary(found)
result(rc == 1 and any(x[0] == "node-cmdline" and "has hugepages=4, not hugepages=" in x[3] for x in got),
       "1 GiB pages: hugepages=4 after hugepagesz=1G is the count in force", got)
write(f"{r}/proc/cmdline", cmd + "\n", 0o444)
m = open(f"{r}/proc/meminfo").read()
write(f"{r}/proc/meminfo", re.sub(r"HugePages_Total: +\d+", "HugePages_Total:   20", m), 0o444)
rc, found, err = doctor(f"{g1}/cluster.dsl", "gpu005", r, XML)
got = summary(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-hugepages" and "20 hugepages of 1 GiB" in got[0][3]
       and (got[0][1], got[0][2]) == ("hardware.dsl", line_of(f"{g1}/hardware.dsl", "hugepage_size")),
       "1 GiB pages: a shortfall at boot (fragmented memory)", got)

tds = os.path.join(REF, "daos_tds-0002.xml")
if os.path.exists(tds):
    au = build("examples/aurora-like/cluster.dsl", os.path.join(T, "out-aurora"))
    r = fresh("clean-aurora", os.path.join(au, "nodes/daos0001"), tds)
    rc, found, err = doctor("examples/aurora-like/cluster.dsl", "daos0001", r, tds)
    result(rc == 0 and found == [], "aurora-like daos0001 on DAOS's tds-0002 export (VMD domains, PMem): clean",
           f"exit {rc}: {summary(found)} {err}")
    tds_gone = without_device(tds, "0000:7d:00.5", "tds-vmd-gone.xml")
    expect("tds-0002 without one VMD domain: node-nvme at its nvme line", "examples/aurora-like/cluster.dsl", "daos0001",
           r, tds_gone, "node-nvme", ("hardware.dsl", line_of("examples/aurora-like/hardware.dsl", r"nvme 0000:7c:00.5")),
           ["0000:7d:00.5", "not on the machine"])
    # VMD as Linux and DAOS bind it (issue 53): before daos_server starts, the
    # endpoints on the kernel's vmd driver with their drives on nvme behind
    # them (the root above); after its prepare, the endpoints on vfio-pci and
    # the drives SPDK's, so the export shows no block device under them
    from doctor_roots import without_drives
    tds_prep = without_drives(tds, os.path.join(T, "tds-prepared.xml"))
    r2 = fresh("aurora-prepared", os.path.join(au, "nodes/daos0001"), tds_prep, prepared=True)
    rc, found, err = doctor("examples/aurora-like/cluster.dsl", "daos0001", r2, tds_prep)
    result(rc == 0 and found == [] and os.readlink(f"{r2}/sys/devices/pci0000:00/0000:7c:00.5/driver").endswith("vfio-pci"),
           "tds-0002 after daos_server's prepare (VMD endpoints on vfio-pci, no drive shown under them): clean",
           f"exit {rc}: {summary(found)} {err}")
    result(os.readlink(f"{r}/sys/devices/pci0000:00/0000:7c:00.5/driver").endswith("/vmd")
           and os.path.islink(f"{r}/sys/bus/pci/devices/10000:01:00.0"),
           "the root before prepare binds the VMD endpoints to vmd and their drives (domain 10000) to nvme, as Linux does")
    empty = os.path.join(T, "tds-empty-domain.xml")
    x = ET.parse(tds)
    for o in x.iter("object"):
        if o.get("pci_busid") == "0000:7d:00.5":
            for ch in [ch for ch in o if ch.get("type") == "OSDev"]:
                o.remove(ch)
    x.write(empty)
    expect("before prepare, a VMD domain the vmd driver shows no drive behind: node-nvme at its nvme line",
           "examples/aurora-like/cluster.dsl", "daos0001", r, empty, "node-nvme",
           ("hardware.dsl", line_of("examples/aurora-like/hardware.dsl", r"nvme 0000:7c:00.5")),
           ["VMD domain 0000:7d:00.5 holds no drive"])
    os.unlink(f"{r}/sys/devices/pci0000:00/0000:7c:00.5/driver")
    os.symlink("../../../bus/pci/drivers/nvme", f"{r}/sys/devices/pci0000:00/0000:7c:00.5/driver")
    expect("a VMD endpoint on the nvme driver: node-nvme, with the vmd driver in the help", "examples/aurora-like/cluster.dsl",
           "daos0001", r, tds, "node-nvme", ("hardware.dsl", line_of("examples/aurora-like/hardware.dsl", r"nvme 0000:7c:00.5")),
           ["VMD domain 0000:7c:00.5 is bound to nvme"])
    # PMem (issue 53): the namespaces as the nvdimm bus shows them; one gone,
    # one in raw mode, a device node missing, namespaces created in the
    # other order (pmem0 on socket 1)
    AUC = "examples/aurora-like/cluster.dsl"
    scm_line = ("cluster.dsl", line_of(AUC, r"scm     pmem"))
    rp = fresh("pmem", os.path.join(au, "nodes/daos0001"), tds)
    result(open(f"{rp}/sys/class/block/pmem0/device/devtype").read() == "nd_pfn\n", "the root's pmem0 is an fsdax namespace")
    os.unlink(f"{rp}/sys/class/block/pmem1")
    expect("a PMem namespace gone: node-pmem at the engine's scm line", AUC, "daos0001", rp, tds, "node-pmem", scm_line,
           ["/dev/pmem1 of engine 1 is gone", "no pmem1"])
    rp = fresh("pmem", os.path.join(au, "nodes/daos0001"), tds)
    pmem_namespace(rp, "pmem0", "raw")
    expect("a PMem namespace in raw mode: node-pmem, not fsdax", AUC, "daos0001", rp, tds, "node-pmem", scm_line,
           ["/dev/pmem0 of engine 0 is in raw mode (no pfn device), not fsdax"])
    for mode, says in (("sector", "sector mode (a btt device: /dev/pmem1s)"), ("devdax", "devdax mode (claimed by dax1.0, no /dev/pmem1)")):
        rp = fresh("pmem", os.path.join(au, "nodes/daos0001"), tds)
        shutil.rmtree(f"{rp}/sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00/ndbus0/region1")
        for d in ("sys/class/block/pmem1", "sys/block/pmem1", "dev/pmem1", "sys/bus/nd/devices/pfn1.0"):
            os.unlink(f"{rp}/{d}")
        pmem_namespace(rp, "pmem1", mode)
        expect(f"a PMem namespace in {mode} mode: node-pmem", AUC, "daos0001", rp, tds, "node-pmem", scm_line,
               [f"/dev/pmem1 of engine 1 is in {says}, not fsdax"])
    rp = fresh("pmem", os.path.join(au, "nodes/daos0001"), tds)
    os.unlink(f"{rp}/dev/pmem0")
    expect("/dev/pmem0 missing: node-pmem", AUC, "daos0001", rp, tds, "node-pmem", scm_line, ["/dev/pmem0 is missing"])
    rp = fresh("pmem", os.path.join(au, "nodes/daos0001"), tds)
    swapped = os.path.join(T, "tds-pmem-swapped.xml")
    text = open(tds).read().replace('name="pmem0"', 'name="pmemX"').replace('name="pmem1"', 'name="pmem0"') \
        .replace('name="pmemX"', 'name="pmem1"')
    open(swapped, "w").write(text)
    rc, found, _ = doctor(AUC, "daos0001", rp, swapped)
    got = summary(found)
    result(rc == 1 and {x[0] for x in got} == {"node-pmem"} and any("pmem0 is on NUMA node 1 of the machine" in x[3] for x in got),
           "namespaces created in the other order (pmem0 on socket 1): node-pmem", got)
    # an engine's list naming a drive behind VMD by its backing address
    # (7c0005:01:00.0, behind 0000:7c:00.5): its driver is read at the
    # endpoint, where Linux binds it (issue 70)
    vb = os.path.join(T, "aurora-vmd-backing")
    shutil.copytree("examples/aurora-like", vb)
    write(f"{vb}/cluster.dsl", open(AUC).read().replace(
        "    scm     pmem                          # /dev/pmem<socket>: class dcpm\n  }\n",
        "    scm     pmem                          # /dev/pmem<socket>: class dcpm\n  }\n"
        "  engine numa 0 { nvme 7c0005:01:00.0 }\n", 1))
    vb_tree = os.path.join(build(f"{vb}/cluster.dsl", os.path.join(T, "out-aurora-vmd-backing")), "nodes/daos0001")
    rv = fresh("aurora-vmd-backing-root", vb_tree, tds)
    result('"7c0005:01:00.0"' in open(f"{vb_tree}/etc/daos/daos_server.yml").read()
           and os.path.islink(f"{rv}/sys/bus/pci/devices/0000:7c:00.5/driver"),
           "aurora-like with a backing address in engine 0's list: built, its endpoint on the vmd driver in the root")
    rc, found, _ = doctor(f"{vb}/cluster.dsl", "daos0001", rv, tds)
    result(rc == 0 and found == [], "... doctor reads the driver at the endpoint: clean", summary(found))
    os.unlink(f"{rv}/sys/bus/pci/devices/0000:7c:00.5/driver")
    rc, found, _ = doctor(f"{vb}/cluster.dsl", "daos0001", rv, tds)
    got = summary(found)
    result(rc == 1 and len(got) == 1 and "VMD domain 0000:7c:00.5, which 7c0005:01:00.0 sits behind, is bound to no driver" in got[0][3]
           and got[0][2] == line_of(f"{vb}/cluster.dsl", r"nvme 7c0005"),
           "... its endpoint unbound: one node-nvme at the engine's nvme line", got)
else:
    skip("aurora-like on tds-0002", "../shared/reference/hwloc is absent")

# 1. a kernel parameter that never reached the boot entry
r = fresh("cmdline", tree, XML)
write(f"{r}/proc/cmdline", re.sub(r" irqaffinity=\S+", "", open(f"{r}/proc/cmdline").read()), 0o444)
expect("a parameter missing from /proc/cmdline: node-cmdline at `irqaffinity os`", CL, "gpu005", r, XML, "node-cmdline",
       ("cluster.dsl", line_of(CL, r"irqaffinity os")), ["irqaffinity=0-3,96-99,192-195,288-291", "not on the running"])
write(f"{r}/proc/cmdline", open(f"{clean}/proc/cmdline").read().replace("iommu=pt", "iommu=off"), 0o444)
expect("a parameter with another value: the value the kernel has", CL, "gpu005", r, XML, "node-cmdline",
       ("cluster.dsl", line_of(CL, r"kernel \{ iommu pt")), ["has iommu=off, not iommu=pt"])
# a parameter with '_' in its name, written with '-' on the node
pq = os.path.join(T, "parameq-desc")
shutil.copytree(EX, pq)
c = open(f"{pq}/cluster.dsl").read().replace("kernel { iommu pt  irqaffinity os }",
                                             "kernel { iommu pt  irqaffinity os  param transparent_hugepage=never }")
write(f"{pq}/cluster.dsl", c)
pq_out = build(f"{pq}/cluster.dsl", os.path.join(T, "out-parameq"))
r = fresh("parameq", os.path.join(pq_out, "nodes/gpu005"), XML)
write(f"{r}/proc/cmdline", open(f"{r}/proc/cmdline").read().replace("transparent_hugepage", "transparent-hugepage"),
      0o444)
rc, found, _ = doctor(f"{pq}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and "transparent-hugepage=never" in open(f"{r}/proc/cmdline").read(),
       "kernel/params.c parameq: transparent-hugepage is transparent_hugepage", summary(found))
write(f"{r}/proc/cmdline", open(f"{r}/proc/cmdline").read().replace("transparent-hugepage=never", ""), 0o444)
expect("... and without it, node-cmdline at its param line", f"{pq}/cluster.dsl", "gpu005", r, XML, "node-cmdline",
       ("cluster.dsl", line_of(f"{pq}/cluster.dsl", r"param transparent_hugepage")), ["transparent_hugepage=never"])
# which occurrence of a repeated parameter the kernel uses (issue 53): the
# last for an assigned one, the first where the handler ignores a repeat
r = fresh("cmdline-repeat", tree, XML)
cmd = open(f"{clean}/proc/cmdline").read().rstrip("\n")
write(f"{r}/proc/cmdline", cmd + " irqaffinity=0\n", 0o444)
expect("a later irqaffinity= overrides dslc's: node-cmdline at `irqaffinity os`, saying which one counts", CL, "gpu005",
       r, XML, "node-cmdline", ("cluster.dsl", line_of(CL, r"irqaffinity os")),
       ["uses irqaffinity=0", "a later irqaffinity= overrides irqaffinity=0-3,96-99", "keeps the last"])
write(f"{r}/proc/cmdline", re.sub(r"irqaffinity=(\S+)", r"irqaffinity=0 irqaffinity=\1", cmd) + "\n", 0o444)
rc, found, _ = doctor(CL, "gpu005", r, XML)
result(rc == 0 and found == [], "an earlier irqaffinity= that dslc's overrides: clean", summary(found))
iso = os.path.join(T, "isolate-desc")
shutil.copytree(EX, iso)
write(f"{iso}/cluster.dsl", open(f"{iso}/cluster.dsl").read().replace("kernel { iommu pt  irqaffinity os }",
                                                                       "kernel { iommu pt  irqaffinity os  isolate engines }"))
iso_out = build(f"{iso}/cluster.dsl", os.path.join(T, "out-isolate"))
r = fresh("cmdline-isolate", os.path.join(iso_out, "nodes/gpu005"), XML)
cmd = open(f"{r}/proc/cmdline").read().rstrip("\n")
rc, found, _ = doctor(f"{iso}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and found == [] and "isolcpus=" in cmd, "isolate engines: clean", summary(found))
write(f"{r}/proc/cmdline", cmd + " isolcpus=1-3\n", 0o444)
rc, found, _ = doctor(f"{iso}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and found == [], "a later isolcpus= is ignored by the kernel (housekeeping_setup): clean", summary(found))
write(f"{r}/proc/cmdline", cmd.replace("isolcpus=", "isolcpus=1-3 isolcpus=") + "\n", 0o444)
expect("an earlier isolcpus= is the one in force: node-cmdline", f"{iso}/cluster.dsl", "gpu005", r, XML, "node-cmdline",
       ("cluster.dsl", line_of(f"{iso}/cluster.dsl", r"isolate engines")),
       ["uses isolcpus=1-3", "an earlier isolcpus= comes before", "keeps the first"])
r = fresh("cmdline-init", tree, XML)
write(f"{r}/proc/cmdline", re.sub(r" irqaffinity=\S+", "", open(f"{clean}/proc/cmdline").read()).rstrip("\n")
      + " -- irqaffinity=0-3,96-99,192-195,288-291\n", 0o444)
rc, found, _ = doctor(CL, "gpu005", r, XML)
result(rc == 1 and [x[0] for x in summary(found)] == ["node-cmdline"], "words after -- are init's, not the kernel's",
       summary(found))

# 2. hugepages: daos_server cannot grow NUMA node 0's pool at start (this layout
# asks for all of nr_hugepages there: `dslc show` says so)
r = fresh("hugepages", tree, XML)
nodes = numa_nodes(XML)
nr = int(re.search(r"^nr_hugepages: (\d+)$", open(f"{tree}/etc/daos/daos_server.yml").read(), re.M).group(1))
write(f"{r}/sys/devices/system/node/node{nodes[0][0]}/meminfo",
      f"Node {nodes[0][0]} MemTotal: 805306368 kB\nNode {nodes[0][0]} MemFree:    1048576 kB\n"
      f"Node {nodes[0][0]} HugePages_Total:   100\n", 0o444)
expect("a hugepage shortfall on NUMA node 0: node-hugepages at the engine", CL, "gpu005", r, XML, "node-hugepages",
       ("cluster.dsl", line_of(CL, r"engine per numa")),
       [f"engine 0 needs {nr} hugepages on NUMA node 0", "it has 100", "1 GiB the kernel can free"])
write(f"{r}/sys/devices/system/node/node{nodes[0][0]}/meminfo",
      f"Node {nodes[0][0]} MemTotal: 805306368 kB\nNode {nodes[0][0]} MemFree:    1048576 kB\n"
      f"Node {nodes[0][0]} HugePages_Total: {nr}\n", 0o444)
rc, found, _ = doctor(CL, "gpu005", r, XML)
result(rc == 0, "pages already reserved need no free memory (server_utils.go: a pool that is large enough is kept)",
       summary(found))

# a node up for weeks (issue 53): 1 GiB free per NUMA node, 690 GiB of page
# cache, which the kernel reclaims for the pages (si_mem_available): clean
r = fresh("hugepages-uptime", tree, XML, free_gib=1, cache_gib=690)
rc, found, _ = doctor(CL, "gpu005", r, XML)
result(rc == 0 and found == [], "a long-running node (1 GiB free, 690 GiB page cache per NUMA node): no hugepage alarm",
       summary(found))
r = fresh("hugepages-full", tree, XML, free_gib=1, cache_gib=10)
expect("... and one whose memory is held (1 GiB free, 10 GiB cache): node-hugepages, counting the cache", CL, "gpu005",
       r, XML, "node-hugepages", ("cluster.dsl", line_of(CL, r"engine per numa")),
       [f"engine 0 needs {nr} hugepages on NUMA node 0", "11.2 GiB the kernel can free"])
# the engine on NUMA node 1 alone, placed by first_core: DAOS takes every
# hugepage from node 0 (server_utils.go), where no engine runs
n1 = os.path.join(T, "numa1-desc")
shutil.copytree(EX, n1)
write(f"{n1}/cluster.dsl", open(f"{n1}/cluster.dsl").read().replace(
    "  engine per numa {                       # dslc: allow nvme-count-unequal -- gpu007 runs without its failed drive",
    "  engine numa 1 {"))
n1_out = build(f"{n1}/cluster.dsl", os.path.join(T, "out-numa1"))
r = fresh("hugepages-numa1", os.path.join(n1_out, "nodes/gpu005"), XML)
rc, found, _ = doctor(f"{n1}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and found == [], "one engine on NUMA node 1 (first_core): clean", summary(found))
n1nr = int(re.search(r"^nr_hugepages: (\d+)$", open(f"{n1_out}/nodes/gpu005/etc/daos/daos_server.yml").read(),
                     re.M).group(1))
write(f"{r}/sys/devices/system/node/node{nodes[0][0]}/meminfo",
      f"Node {nodes[0][0]} MemTotal: 805306368 kB\nNode {nodes[0][0]} MemFree:    1048576 kB\n"
      f"Node {nodes[0][0]} HugePages_Total:   100\n", 0o444)
expect("... a shortfall on NUMA node 0, where no engine runs: found, at the engine", f"{n1}/cluster.dsl", "gpu005", r, XML,
       "node-hugepages", ("cluster.dsl", line_of(f"{n1}/cluster.dsl", r"engine numa 1")),
       [f"daos_server takes the engines' hugepages from NUMA node 0", f"{n1nr} hugepages on NUMA node 0", "it has 100"])

# transparent hugepages: daos_server 2.6.5+ starts only with [never] (sysfs/provider.go
# IsTHPEnabled). dslc writes transparent_hugepage=never; a kernel whose default is
# madvise (Debian's) shows [never] once booted with it
THP = "sys/kernel/mm/transparent_hugepage/enabled"
r = fresh("thp", tree, XML, thp="madvise")
rc, found, _ = doctor(CL, "gpu005", r, XML)
result(rc == 0 and found == [] and "transparent_hugepage=never" in open(f"{r}/proc/cmdline").read()
       and "[never]" in open(f"{r}/{THP}").read(), "booted with dslc's command line on a madvise kernel: clean",
       summary(found))
write(f"{r}/proc/cmdline", open(f"{r}/proc/cmdline").read().replace(" transparent_hugepage=never", ""), 0o444)
write(f"{r}/{THP}", "always [madvise] never\n", 0o444)
rc, found, _ = doctor(CL, "gpu005", r, XML)
got = summary(found)
thp = [f for f in found or [] if f["ruleId"] == "node-thp"]
result(rc == 1 and sorted(x[0] for x in got) == ["node-cmdline", "node-thp"] and thp
       and thp[0]["line"] == line_of(CL, r"kernel \{ iommu pt") and "transparent hugepages are madvise" in thp[0]["message"]
       and "refuses to start unless it shows [never] (DAOS 2.6.5 and later)" in thp[0]["message"]
       and "reboot with the command line dslc wrote" in (thp[0]["help"] or ""),
       "booted without it: node-thp at the kernel block (and node-cmdline), saying to reboot with it", got)

# the description's own transparent_hugepage=madvise (kernel-thp, disabled to run doctor)
th = os.path.join(T, "thp-desc")
shutil.rmtree(th, ignore_errors=True)
shutil.copytree(EX, th)
write(f"{th}/cluster.dsl", open(CL).read().replace("kernel { iommu pt  irqaffinity os }",
                                                   "kernel { iommu pt  irqaffinity os  param transparent_hugepage=madvise }"))
rc, text, _ = run(["lint", f"{th}/cluster.dsl"])
result(rc == 1 and "error[kernel-thp]" in text, "lint: kernel-thp at the param", text[-300:])
r = fresh("thp-param", os.path.join(build(f"{th}/cluster.dsl", os.path.join(T, "out-thp"), ["--disable", "kernel-thp"]),
                                    "nodes/gpu005"), XML)
found = expect("... and doctor: node-thp at the param", f"{th}/cluster.dsl", "gpu005", r, XML, "node-thp",
               ("cluster.dsl", line_of(f"{th}/cluster.dsl", "param transparent_hugepage")),
               ["transparent hugepages are madvise"], extra=["--disable", "kernel-thp"])
m = re.search(r"remove `(param transparent_hugepage=\w+)`", (found or [{}])[0].get("help") or "")
if m:
    write(f"{th}/cluster.dsl", open(f"{th}/cluster.dsl").read().replace("  " + m.group(1), ""))
    r = fresh("thp-fixed", os.path.join(build(f"{th}/cluster.dsl", os.path.join(T, "out-thp-fixed")), "nodes/gpu005"),
              XML, thp="madvise")
    rc, found, _ = doctor(f"{th}/cluster.dsl", "gpu005", r, XML)
result(m and rc == 0 and found == [], "its help applied (the param removed, rebuilt, booted): clean", summary(found))

# no OS named: dslc writes no command line, and says to name one
write(f"{th}/cluster.dsl", open(CL).read().replace("  os azurelinux3\n", "").replace("kernel { iommu pt  irqaffinity os }", ""))
r = fresh("thp-no-os", os.path.join(build(f"{th}/cluster.dsl", os.path.join(T, "out-thp-no-os")), "nodes/gpu005"), XML,
          thp="madvise")
found = expect("no OS, no command line: node-thp", f"{th}/cluster.dsl", "gpu005", r, XML, "node-thp",
               ("cluster.dsl", line_of(f"{th}/cluster.dsl", r"^nodes gpu")), ["transparent hugepages are madvise"])
m = re.search(r"name the node's OS in its profile \(`(os \w+)`", (found or [{}])[0].get("help") or "")
if m:
    write(f"{th}/cluster.dsl", open(f"{th}/cluster.dsl").read().replace("profile converged : hgx-b200 {",
                                                                       "profile converged : hgx-b200 {\n  " + m.group(1), 1))
    r = fresh("thp-os", os.path.join(build(f"{th}/cluster.dsl", os.path.join(T, "out-thp-os")), "nodes/gpu005"), XML,
              thp="madvise")
    rc, found, _ = doctor(f"{th}/cluster.dsl", "gpu005", r, XML)
result(m and rc == 0 and found == [], "its help applied (an OS named, rebuilt, booted): clean", summary(found))

write(f"{th}/cluster.dsl", open(CL).read().replace("daos 2.6", "daos 2.6.3", 1))
r = fresh("thp-263", os.path.join(build(f"{th}/cluster.dsl", os.path.join(T, "out-thp-263")), "nodes/gpu005"), XML,
          thp="always")
rc, found, _ = doctor(f"{th}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and found == [] and "transparent_hugepage" not in open(f"{r}/proc/cmdline").read(),
       "daos 2.6.3 (before the test, 2.6.5): THP neither written nor checked", summary(found))

# 3. a drive gone from the export
gone = without_device(XML, "0000:22:00.0", "drive-gone.xml")
r = fresh("drive", tree, XML)
expect("a drive missing from the machine: node-nvme at its nvme line, with the exclude to write", CL, "gpu005", r, gone,
       "node-nvme", ("hardware.dsl", line_of(HW, r"nvme 0000:21:00.0")), ["0000:22:00.0", "not on the machine"])
# the help applied: the exclude it proposes, built, installed: the node is clean
ex = os.path.join(T, "exclude-desc")
shutil.copytree(EX, ex)
c = open(f"{ex}/cluster.dsl").read()
found = doctor(CL, "gpu005", r, gone)[1] or [{"help": ""}]
prop = re.search(r"node gpu005 \{ exclude nvme [0-9a-f:.]+ \}", found[0]["help"] or "")
write(f"{ex}/cluster.dsl", c + "\n" + (prop.group(0) if prop else "") + "\n")
ex_out = build(f"{ex}/cluster.dsl", os.path.join(T, "out-exclude"))
r2 = fresh("drive-excluded", os.path.join(ex_out, "nodes/gpu005"), gone)
rc, found2, _ = doctor(f"{ex}/cluster.dsl", "gpu005", r2, gone)
result(prop and rc == 0 and found2 == [], "its help applied (the exclude, built and installed): clean",
       f"{found[0]['help']} -> exit {rc} {summary(found2)}")
link(f"{r}/sys/devices/pci0000:00/0000:23:00.0/driver", "../../../bus/pci/drivers/ahci")
rc, found, _ = doctor(CL, "gpu005", r, XML)
got = summary(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-nvme" and "bound to ahci" in got[0][3],
       "a drive bound to another driver (sysfs driver link)", got)
m = re.search(r"driverctl set-override (\S+) (\S+)\)", found[0]["help"] or "") if found else None
if m:  # driverctl's override, as the kernel shows it: the device's driver link
    link(f"{r}/sys/devices/pci0000:00/{m.group(1)}/driver", "../../../bus/pci/drivers/" + m.group(2))
rc, found, _ = doctor(CL, "gpu005", r, XML)
result(m and rc == 0, "its help applied (vfio-pci): clean", summary(found))
os.unlink(f"{r}/sys/devices/pci0000:00/0000:23:00.0/driver")
rc, found, _ = doctor(CL, "gpu005", r, XML)
got = summary(found)
result(rc == 1 and len(got) == 1 and "bound to no driver" in got[0][3], "a drive bound to no driver", got)

# a drive moved to the other NUMA node (its slot), engine 0's and engine 1's
# each (issue 70: every placement check held on both sides)
for busid, to, engine, numa in (("0000:21:00.0", "0000:a1:00.0", 0, 1), ("0000:a2:00.0", "0000:22:00.0", 1, 0)):
    x = ET.parse(XML)
    parent = {c: p for p in x.iter() for c in p}
    dev = next(o for o in x.iter("object") if o.get("pci_busid") == busid)
    beside = next(o for o in x.iter("object") if o.get("pci_busid") == to)
    parent[dev].remove(dev)
    parent[beside].append(dev)
    moved_drive = os.path.join(T, f"drive-moved-{engine}.xml")
    x.write(moved_drive)
    expect(f"engine {engine}'s drive on NUMA node {numa} of the machine: node-nvme at it", CL, "gpu005", clean, moved_drive,
           "node-nvme", ("hardware.dsl", line_of(HW, r"nvme .*" + busid.replace(".", r"\."))),
           [f"drive {busid} is on NUMA node {numa} of the machine, engine {engine} is on NUMA node {1 - numa}"])
    rc, found, _ = doctor(CL, "gpu005", clean, moved_drive)
    result(len(found or []) == 1, f"... engine {engine}'s moved drive: that one finding alone", summary(found))

# NUMA nodes whose OS indexes are not their logical ones (2 and 3, as a
# machine with its first nodes offline numbers them): the hugepage check
# reads each node's meminfo by its OS index (/sys/devices/system/node/nodeN)
renum = os.path.join(T, "hgx-numa23.xml")
subprocess.run([sys.executable, "tests/topologies/renumber_numa.py", XML, renum, "0=2", "1=3"], check=True)
r = fresh("numa23", tree, renum)
rc, found, _ = doctor(CL, "gpu005", r, renum)
result(rc == 0 and found == [] and os.path.isdir(f"{r}/sys/devices/system/node/node3")
       and not os.path.exists(f"{r}/sys/devices/system/node/node1"),
       "NUMA OS indexes 2 and 3: a clean root (meminfo in node2 and node3) has no finding", summary(found))
# this layout takes every engine's pages from NUMA node 0 (first_core
# placement): OS index 2 is the one to run short
write(f"{r}/sys/devices/system/node/node2/meminfo",
      "Node 2 MemTotal: 805306368 kB\nNode 2 MemFree:    1048576 kB\nNode 2 HugePages_Total:   100\n", 0o444)
expect("NUMA OS index 2 (logical 0) short of hugepages: found for NUMA node 0", CL, "gpu005", r, renum,
       "node-hugepages", ("cluster.dsl", line_of(CL, r"engine per numa")), ["on NUMA node 0", "it has 100"])

# 4. a NIC on the other NUMA node (the slot moved)
moved = "tests/topologies/hgx-b200-nic-moved.xml"
r = fresh("nic", tree, XML)
expect("a NIC on the other NUMA node: node-nic at its nic line", CL, "gpu005", r, moved, "node-nic",
       ("hardware.dsl", line_of(HW, r"nic  ens1f0np0")), ["ens1f0np0", "NUMA node 1", "not NUMA node 0"])

# a known drift silenced where the description says it (`# dslc: allow`), for
# doctor only: lint does not call the allow unused, since only a machine can use it
ad = os.path.join(T, "allow")
shutil.rmtree(ad, ignore_errors=True)
shutil.copytree(EX, ad)
hw = open(f"{ad}/hardware.dsl").read()
nic = re.search(r"^.*nic  ens1f0np0.*$", hw, re.M).group(0)


def allowing(rule):
    write(f"{ad}/hardware.dsl", hw.replace(nic, f"{nic}  # dslc: allow {rule} -- riser moved, reseat booked", 1))
    return doctor(f"{ad}/cluster.dsl", "gpu005", r, moved)


rc, found, err = allowing("node-nic")
result(rc == 0 and found == [], "`# dslc: allow node-nic` on the nic line silences that drift", f"exit {rc}: {summary(found)} {err[-300:]}")
rc, text, _ = run(["lint", f"{ad}/cluster.dsl", "--format", "json"])
result("suppression-unused" not in text and rc == 0, "lint does not call a node-* allow unused", text[-400:])
rc, found, _ = allowing("node-network")
result(rc == 1 and [f[0] for f in summary(found)] == ["node-nic"], "an allow of another rule leaves the drift", summary(found))

# 5. a daos_server.yml edited by hand, and a file's mode
r = fresh("yaml", tree, XML)
y = f"{r}/etc/daos/daos_server.yml"
write(y, open(y).read().replace("targets: 16", "targets: 12", 1))
expect("a hand-edited daos_server.yml: node-file naming the key", CL, "gpu005", r, XML, "node-file",
       ("cluster.dsl", line_of(CL, r"^nodes gpu")), ["daos_server.yml", "engines[0].targets is 12 there, 16 built"])
r = fresh("mode", tree, XML)
os.chmod(f"{r}/etc/daos/daos_agent.yml", 0o666)
found = expect("a file with another mode", CL, "gpu005", r, XML, "node-file", ("cluster.dsl", line_of(CL, r"^nodes gpu")),
               ["daos_agent.yml has mode 0666, built 0644"])
m = re.match(r"chmod (\d+) /(\S+)$", (found or [{}])[0].get("help") or "")
if m:
    os.chmod(os.path.join(r, m.group(2)), int(m.group(1), 8))
rc, found, _ = doctor(CL, "gpu005", r, XML)
result(m and rc == 0, "its help applied (chmod): clean", summary(found))
r = fresh("missing-file", tree, XML)
os.unlink(f"{r}/etc/nccl.conf")
expect("a file never installed", CL, "gpu005", r, XML, "node-file", ("cluster.dsl", line_of(CL, r"^nodes gpu")),
       ["/etc/nccl.conf is missing"])

# 6. the network
r = fresh("mtu", tree, XML)
write(f"{r}/sys/class/net/ens2f0np0/mtu", "1500\n", 0o444)
expect("a storage NIC at MTU 1500: node-network at `storage mtu 9000`", CL, "gpu005", r, XML, "node-network",
       ("cluster.dsl", line_of(CL, r"storage mtu 9000")), ["ens2f0np0 has MTU 1500", "says 9000"])
r = fresh("bond", tree, XML)
write(f"{r}/sys/devices/virtual/net/bond0/bonding/mode", "balance-rr 0\n", 0o444)
expect("a bond in another mode", CL, "gpu005", r, XML, "node-network", ("cluster.dsl", line_of(CL, r"^  mgmt    10")),
       ["bond0 runs mode balance-rr", "active-backup"])
r = fresh("macvlan", tree, XML)
os.unlink(f"{r}/sys/devices/virtual/net/mv1/lower_ens2f0np0")
expect("a macvlan on another NIC", CL, "gpu005", r, XML, "node-network", ("cluster.dsl", line_of(CL, r"^  mgmt    10")),
       ["macvlan mv1 is not on ens2f0np0"])
r = fresh("address", tree, XML)
write(f"{r}/proc/net/fib_trie", open(f"{r}/proc/net/fib_trie").read().replace("10.21.0.14", "10.21.0.99"), 0o444)
expect("an address the node does not have: at its storage line", CL, "gpu005", r, XML, "node-network",
       ("cluster.dsl", line_of(CL, r"^  storage ens1f0np0")), ["10.21.0.14/24 is not an address"])

# the BIOS NUMA mode changed (NPS1 to NPS2): said once, at the hardware
# block, and no NIC or drive reported for a NUMA node that was renumbered
nps2 = os.path.join(T, "hgx-nps2.xml")
subprocess.run([sys.executable, "tests/topologies/split_numa.py", XML, nps2], check=True)
rc, found, err = doctor(CL, "gpu005", clean, nps2)
got = summary(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-topology" and "4 NUMA nodes with CPUs" in got[0][3]
       and (got[0][1], got[0][2]) == ("hardware.dsl", line_of(HW, r"^  topology")),
       "NPS1 to NPS2: one node-topology at the hardware block, no NIC or drive finding", got)
# NUMA nodes without CPUs that come online late (POWER9 GPU memory, onlined
# by the GPU driver): the engines' NUMA nodes are the same, no finding
p9d = os.path.join(T, "p9")
os.makedirs(p9d, exist_ok=True)
p9src = open("tests/golden/diag/dsl-power9-gpu-numa.dsl").read()
p9xml = os.path.abspath("tests/topologies/power9-gpu-2s20c.xml")
p9bare = os.path.join(p9d, "p9-before-gpu-driver.xml")
x = ET.parse(p9xml)
for parent in x.iter():
    for o in list(parent):
        if o.get("type") == "NUMANode" and int(o.get("os_index")) >= 252:
            parent.remove(o)
x.write(p9bare)
for typ, machine, what in [(p9xml, p9bare, "its node type has the GPU memory nodes, the machine not yet"),
                           (p9bare, p9xml, "the machine has GPU memory nodes its node type lacks")]:
    write(f"{p9d}/c.dsl", p9src.replace('"../../topologies/power9-gpu-2s20c.xml"', f'"{typ}"'))
    p9out = build(f"{p9d}/c.dsl", os.path.join(p9d, "out"))
    rp = fresh("p9-root", os.path.join(p9out, "nodes/n1"), machine)
    rc, found, err = doctor(f"{p9d}/c.dsl", "n1", rp, machine)
    result(rc == 0 and found == [], f"POWER9, {what}: no finding (CPU-less NUMA nodes hold no engine)",
           f"exit {rc}: {summary(found)} {err[-200:]}")
    shutil.rmtree(os.path.join(p9d, "out"))

# 7. the machine: a NUMA node short of memory, SMT off, and the IOMMU off
x = ET.parse(XML)
numa = [o for o in x.iter("object") if o.get("type") == "NUMANode"]
numa[1].set("local_memory", str(int(numa[1].get("local_memory")) // 2))
half = os.path.join(T, "half-memory.xml")
x.write(half)
r = fresh("memory", tree, XML)
expect("half the memory on NUMA node 1: node-topology at memory_per_numa", CL, "gpu005", r, half, "node-topology",
       ("hardware.dsl", line_of(HW, r"memory_per_numa")), ["NUMA node 1 has 384 GiB", "768 GiB"])
# one DIMM of 16 lost on NUMA node 1 (720 of 768 GiB): above the 90% rule,
# but a description that fills the node no longer fits (issue 53)
x = ET.parse(XML)
numa = [o for o in x.iter("object") if o.get("type") == "NUMANode"]
numa[1].set("local_memory", str(int(numa[1].get("local_memory")) // 16 * 15))
dimm = os.path.join(T, "one-dimm-lost.xml")
x.write(dimm)
rc, found, _ = doctor(CL, "gpu005", clean, dimm)
result(rc == 0 and found == [], "one DIMM lost where the description still fits (64 GiB SCM): no finding", summary(found))
pin = os.path.join(T, "pinned-full-desc")
shutil.copytree(EX, pin)
write(f"{pin}/cluster.dsl", open(f"{pin}/cluster.dsl").read().replace(
    "reserve os 4 cores per numa ", "reserve os 4 cores per numa at end ").replace("scm     ram 64GiB ", "scm     ram 700GiB"))
pin_out = build(f"{pin}/cluster.dsl", os.path.join(T, "out-pinned-full"))
r = fresh("pinned-full", os.path.join(pin_out, "nodes/gpu005"), XML)
rc, found, _ = doctor(f"{pin}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and found == [], "pinned engines with 700 GiB SCM per NUMA node (727 of 768 GiB needed): clean", summary(found))
expect("... and one DIMM lost on NUMA node 1: node-topology at the scm line, what it needs and has", f"{pin}/cluster.dsl",
       "gpu005", r, dimm, "node-topology", ("cluster.dsl", line_of(f"{pin}/cluster.dsl", r"scm     ram 700GiB")),
       ["NUMA node 1 has 720 GiB", "needs 727 GiB there", "SCM 700 + hugepages 17 + reserved 8 + engine reserve 2"])
rc, found, _ = doctor(f"{pin}/cluster.dsl", "gpu005", r, half)
got = summary(found)
result(rc == 1 and len(got) == 1 and "at most 549 GiB" in got[0][3] and got[0][2] == line_of(f"{pin}/cluster.dsl", r"scm     ram 700GiB"),
       "... half of NUMA node 1's memory gone: one finding, DAOS's machine-wide limit at the scm line", got)
big = os.path.join(T, "scm-max-desc")
shutil.copytree(EX, big)
src = re.sub(r"  # dslc: allow kubelet-hugepages[^\n]*\n  kubelet \{.*?\n  \}\n", "",
             open(f"{big}/cluster.dsl").read(), flags=re.S)
write(f"{big}/cluster.dsl", src.replace("scm     ram 64GiB ", "scm     ram 741GiB"))
big_out = build(f"{big}/cluster.dsl", os.path.join(T, "out-scm-max"))
r = fresh("scm-max", os.path.join(big_out, "nodes/gpu005"), XML)
rc, found, _ = doctor(f"{big}/cluster.dsl", "gpu005", r, XML)
result(rc == 0 and found == [], "first_core engines with DAOS's largest RAM SCM (741 GiB of 1536): clean", summary(found))
expect("... one DIMM lost: DAOS's CalcRamdiskSize limit falls to 717 GiB, at the scm line", f"{big}/cluster.dsl", "gpu005",
       r, dimm, "node-topology", ("cluster.dsl", line_of(f"{big}/cluster.dsl", r"scm     ram 741GiB")),
       ["1.5 TiB of memory", "at most 717 GiB", "scm_size 741 GiB stops daos_server"])
rc, found, _ = doctor(f"{big}/cluster.dsl", "gpu005", r, dimm)
hl = re.search(r"write `scm ram (\d+)GiB` or less", (found or [{}])[0].get("help") or "")
if hl:  # the help applied: the description with that size, checked on the same machine
    write(f"{big}/cluster.dsl", open(f"{big}/cluster.dsl").read().replace("scm     ram 741GiB", f"scm     ram {hl.group(1)}GiB"))
    big_out2 = build(f"{big}/cluster.dsl", os.path.join(T, "out-scm-max-applied"))
    r = fresh("scm-max-applied", os.path.join(big_out2, "nodes/gpu005"), XML)
    rc, found, _ = doctor(f"{big}/cluster.dsl", "gpu005", r, dimm)
result(hl is not None and rc == 0 and found == [], "... its help applied (`scm ram 717GiB`): clean on that machine",
       f"{hl and hl.group(0)}: {summary(found)}")
r = fresh("iommu", tree, XML)
os.unlink(f"{r}/sys/class/iommu/dmar0")
expect("no IOMMU: node-iommu at `iommu pt`", CL, "gpu005", r, XML, "node-iommu",
       ("cluster.dsl", line_of(CL, r"kernel \{ iommu pt")), ["/sys/class/iommu is empty"])
for f in ["interleaved-2s6c.xml", "snc4-nics3-2s32c.xml"]:
    rc, found, _ = doctor(CL, "gpu005", clean, "tests/topologies/" + f)
    rules = {x[0] for x in summary(found)}
    result(rc == 1 and "node-topology" in rules and "node-nvme" in rules,
           f"another machine ({f}): its NUMA layout and the drives it lacks", summary(found)[:4])

# formats: SARIF and GitHub carry the same finding
r = fresh("formats", tree, XML)
write(f"{r}/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro iommu=pt transparent_hugepage=never\n", 0o444)
rc, sarif, _ = run(["doctor", CL, "--node", "gpu005", "--root", r, "--topology", XML, "--format", "sarif"])
try:
    res = json.loads(sarif)["runs"][0]["results"]
    ok = rc == 1 and len(res) == 1 and res[0]["ruleId"] == "node-cmdline"
except (ValueError, KeyError, IndexError):
    ok = False
result(ok, "SARIF: one result, node-cmdline", sarif[:400])
rc, gh, _ = run(["doctor", CL, "--node", "gpu005", "--root", r, "--topology", XML, "--format", "github"])
result(rc == 1 and f"::error file={CL},line={line_of(CL, r'irqaffinity os')}" in gh, "GitHub annotations", gh[:300])
# a node's /proc/cmdline that is not UTF-8 (issue 54 item 3): every format carries the one finding
with open(f"{r}/proc/cmdline", "wb") as f:
    f.write(open(f"{clean}/proc/cmdline", "rb").read().replace(b"iommu=pt", b"iommu=\xe9\x1b[2J"))
carried = {}
for fmt in ("text", "json", "sarif", "github"):
    p = subprocess.run(DSLC + ["doctor", CL, "--node", "gpu005", "--root", r, "--topology", XML, "--format", fmt],
                       capture_output=True, timeout=300)
    try:
        if fmt == "json":
            doc = json.loads(p.stdout.decode())
            import jsonschema
            jsonschema.Draft7Validator(json.load(open("schemas/findings.schema.json"))).validate(doc)
            carried[fmt] = [x["message"] for x in doc["findings"]]
        elif fmt == "sarif":
            carried[fmt] = [x["message"]["text"] for x in json.loads(p.stdout.decode())["runs"][0]["results"]]
        elif fmt == "github":
            carried[fmt] = [l for l in p.stdout.decode().splitlines() if l.startswith("::error ")]
        else:
            carried[fmt] = [l.decode() for l in p.stdout.split(b"\n") if b"error[node-cmdline]" in l]
        raw_esc = b"\x1b" in p.stdout + p.stderr
    except Exception as e:  # any failure is a finding of this test
        carried[fmt], raw_esc = f"{type(e).__name__}: {e}", False
    result(p.returncode == 1 and isinstance(carried[fmt], list) and len(carried[fmt]) == 1 and not raw_esc
           and ("iommu=\\xe9" if fmt == "text" else "iommu=\ufffd") in str(carried[fmt][0]),
           f"a /proc/cmdline byte that is not UTF-8 (iommu=\\xe9 ESC[2J), --format {fmt}: the one finding, valid UTF-8, no raw ESC",
           f"exit {p.returncode}: {carried[fmt]}")
rc, text, _ = run(["doctor", CL, "--node", "gpu005", "--root", r, "--topology", XML, "--disable", "node-cmdline"])
result(rc == 0, "--disable node-cmdline silences it (exit 0)", text[:300])

# ---- absent sources: notes, and errors with --strict -------------------------------
image = os.path.join(T, "image")
shutil.rmtree(image, ignore_errors=True)
shutil.copytree(clean, image, symlinks=True)
shutil.rmtree(f"{image}/proc")
shutil.rmtree(f"{image}/sys")
rc, found, err = doctor(CL, "gpu005", image, XML)
notes = [x for x in summary(found) if x[0] == "node-unchecked"]
result(rc == 0 and notes and len(notes) == len(found) and all(x["severity"] == "note" for x in found)
       and any("proc/cmdline is absent" in m for *_, m in notes),
       "a mounted image without /proc and /sys: notes saying what was not checked, exit 0", summary(found))
rc, found, err = doctor(CL, "gpu005", image, XML, ["--strict"])
result(rc == 1 and found and all(x["severity"] == "error" for x in found), "--strict: the same, as errors, exit 1",
       summary(found))
rc, found, err = doctor(CL, "gpu005", image)
result(rc == 0 and any("the machine" in m and "dslc-topology.xml is absent" in m for *_, m in summary(found)),
       "a root without an export and no --topology: the machine is a note", summary(found))

# ---- usage and I/O: exit 2 ------------------------------------------------------
for name, args in [("no --node", ["doctor", CL]), ("an unknown node", ["doctor", CL, "--node", "gpu500"]),
                   ("a topology that cannot be read", ["doctor", CL, "--node", "gpu005", "--topology", "/nonexistent.xml"]),
                   ("a root that is no directory", ["doctor", CL, "--node", "gpu005", "--root", "/nonexistent"]),
                   ("--snapshots with --root", ["doctor", CL, "--snapshots", T, "--root", T]),
                   ("a description with errors", ["doctor", "tests/golden/diag/bad-value.dsl", "--node", "x"])]:
    rc, o, e = run(args)
    result(rc == 2 and "dslc:" in e, f"exit 2: {name}", f"exit {rc}: {e[-300:]}")

# SMT switched off in the BIOS: the machine as hwloc shows it then (every
# core's second PU gone: lstopo --restrict to each core's first PU), one
# finding for the machine, not one per NUMA node (issue 70)
if shutil.which("hwloc-calc") and shutil.which("lstopo"):
    first_pus = subprocess.run(["hwloc-calc", "--input", XML, "core:all.pu:0"], capture_output=True, text=True).stdout.strip()
    nosmt = os.path.join(T, "hgx-nosmt.xml")
    with open(nosmt, "w") as f:
        subprocess.run(["lstopo", "--input", XML, "--restrict", first_pus, "--of", "xml", "-"], stdout=f,
                       stderr=subprocess.DEVNULL, check=True)
    expect("SMT off: one node-topology finding for every NUMA node, at threads_per_core", CL, "gpu005", clean, nosmt,
           "node-topology", ("hardware.dsl", line_of(HW, r"threads_per_core")),
           ["each of its 2 NUMA nodes has 1 thread per core, its node type hgx-b200 has 2"])
    rc, found, _ = doctor(CL, "gpu005", clean, nosmt)
    result(len(found or []) == 1, "SMT off: the one finding alone", summary(found))
else:
    skip("SMT off", "hwloc-calc or lstopo is absent (Debian's hwloc package)")

# another node type's machine checked as this node's (a snapshot taken on
# another node): one finding naming the type it has the shape of, nothing
# else compared (issue 70); a machine of no type of the description keeps
# its findings
two = os.path.join(T, "two-types")
shutil.copytree(EX, two)
shutil.copy("tests/topologies/opa-nvme0-2s16c.xml", two)
with open(os.path.join(two, "cluster.dsl"), "a") as f:
    f.write('\nhardware login { topology "opa-nvme0-2s16c.xml" }\nprofile loginp : login { os rhel9 }\n'
            'nodes login01 : loginp\n')
rc, found, err = doctor(os.path.join(two, "cluster.dsl"), "gpu005", clean, os.path.join(two, "opa-nvme0-2s16c.xml"))
got = summary(found)
result(rc == 1 and len(got) == 1 and got[0][0] == "node-topology" and got[0][2] == line_of(CL, r"^nodes gpu")
       and "not a hgx-b200: it has the shape of node type login" in got[0][3],
       "another node type's machine: one finding at the node's line, naming the type", f"exit {rc}: {got} {err[-300:]}")
rc, found, err = doctor(CL, "gpu005", clean, os.path.join(two, "opa-nvme0-2s16c.xml"))
result(rc == 1 and len(summary(found)) > 1 and not any("shape of node type" in x[3] for x in summary(found)),
       "a machine of no node type of the description: its own findings", summary(found)[:3])

# `nic auto`: the management port (eno1) that no file dslc built names,
# renamed by udev, is a note; a storage NIC renamed is still drift (issue 70)
na = os.path.join(T, "nic-auto")
shutil.copytree(EX, na)
hw_text = open(os.path.join(na, "hardware.dsl")).read()
hw_text = re.sub(r"(?m)^    nic  ens[12]f0np0 pci .*\n", "", hw_text)
open(os.path.join(na, "hardware.dsl"), "w").write(hw_text.replace('  topology         "hgx-b200.xml"\n',
                                                                  '  topology         "hgx-b200.xml"\n  nic auto\n'))
na_tree = build(os.path.join(na, "cluster.dsl"), os.path.join(na, "out"))
na_root = fresh("nic-auto-root", os.path.join(na_tree, "nodes/gpu005"), XML)
for old, new, name in (("eno1", "enp5s0", "the management port"), ("ens1f0np0", "ens1f0", "a storage NIC")):
    renamed = os.path.join(T, f"renamed-{old}.xml")
    open(renamed, "w").write(open(XML).read().replace(f'name="{old}"', f'name="{new}"'))
    rc, found, err = doctor(os.path.join(na, "cluster.dsl"), "gpu005", na_root, renamed)
    nic = [x for x in (found or []) if x["ruleId"] == "node-nic"]
    if old == "eno1":
        result(rc == 0 and len(nic) == 1 and nic[0]["severity"] == "note" and f"named {new} on the machine, not {old}"
               in nic[0]["message"], "nic auto: an unused management port renamed by udev is a note", f"exit {rc}: {found} {err[-400:]}")
    else:
        result(rc == 1 and any(x["severity"] == "error" and f"named {new} on the machine, not {old}" in x["message"]
                               for x in nic), "nic auto: a storage NIC renamed is still an error", f"exit {rc}: {found}")

# ---- --collect on the node, the same checks off it ------------------------------------
r = fresh("collect-src", tree, XML)
write(f"{r}/sys/class/net/ens2f0np0/mtu", "1500\n", 0o444)
os.unlink(f"{r}/etc/nccl.conf")
snap = os.path.join(T, "snapshots", "gpu005")
shutil.rmtree(os.path.dirname(snap), ignore_errors=True)
os.makedirs(os.path.dirname(snap))
rc1, on_node, _ = doctor(CL, "gpu005", r, XML, ["--collect", snap])
rc2, off_node, _ = doctor(CL, "gpu005", snap)
a = [(x[0], x[2], x[3]) for x in summary(on_node)]
b = [(x[0], x[2], x[3]) for x in summary(off_node)]
result(rc1 == 1 and rc2 == 1 and len(a) == 2 and a == b,
       "--collect writes a snapshot; --root SNAPSHOT alone finds the same drift (MTU, a missing file)", f"{a} vs {b}")
result(os.path.isfile(f"{snap}/dslc-topology.xml") and not os.path.exists(f"{snap}/redfish")
       and os.path.isfile(f"{snap}/proc/cmdline"), "the snapshot holds the export, the proc files, not the BMC's files")
rc, _, e = run(["doctor", CL, "--node", "gpu005", "--root", r, "--topology", XML, "--collect", snap])
result(rc == 2 and "not an empty directory" in e, "--collect never writes over a snapshot", e[-200:])
# a read link whose target is "/" (it names nothing): the collect is whole,
# and the check says the same on the node and off it (issue 70)
r = fresh("collect-slash", tree, XML)
drv = f"{os.path.realpath(r + '/sys/bus/pci/devices/0000:a4:00.0')}/driver"
os.unlink(drv)
os.symlink("/", drv)
snap_slash = os.path.join(T, "snapshots-slash", "gpu005")
os.makedirs(os.path.dirname(snap_slash), exist_ok=True)
rc1, on_node, e1 = doctor(CL, "gpu005", r, XML, ["--collect", snap_slash])
rc2, off_node, e2 = doctor(CL, "gpu005", snap_slash)
a = [(x[0], x[2], x[3]) for x in summary(on_node)]
b = [(x[0], x[2], x[3]) for x in summary(off_node)]
result(rc1 == 1 and rc2 == 1 and a == b and len(a) == 1 and "0000:a4:00.0 is bound to no driver" in a[0][2],
       "--collect with a driver link to '/': the snapshot is written, the same finding off the node",
       f"exit {rc1}/{rc2}: {a} vs {b} {e1[-200:]}{e2[-200:]}")

# modes are data (issue 53): a mode 0000 comes back as 0000, a setuid or
# world-writable file of the node is never made one in the snapshot
if os.geteuid() == 0:
    r3 = fresh("collect-modes", tree, XML)
    os.chmod(f"{r3}/etc/daos/daos_server.yml", 0o000)
    os.chmod(f"{r3}/proc/cmdline", 0o4777)
    os.chmod(f"{r3}/etc/nccl.conf", 0o2666)
    snap3 = os.path.join(T, "snap-modes")
    rc1, on, _ = doctor(CL, "gpu005", r3, XML, ["--collect", snap3])
    rc2, off, _ = doctor(CL, "gpu005", snap3)
    a = [(x[0], x[3]) for x in summary(on)]
    b = [(x[0], x[3]) for x in summary(off)]
    result(rc1 == rc2 == 1 and a == b and any("daos_server.yml has mode 0000" in m for _, m in a)
           and any("nccl.conf has mode 2666" in m for _, m in a),
           "--collect keeps modes as data: mode 0000 and 2666 found off the node as on it", f"{a} vs {b}")
    bad = []
    for d, dirs, files in os.walk(snap3):
        for x in dirs + files:
            st = os.lstat(os.path.join(d, x))
            want = 0o755 if stat.S_ISDIR(st.st_mode) else 0o644
            if not stat.S_ISLNK(st.st_mode) and stat.S_IMODE(st.st_mode) != want:
                bad.append(f"{os.path.relpath(os.path.join(d, x), snap3)} {stat.S_IMODE(st.st_mode):04o}")
    modes = json.load(open(f"{snap3}/dslc-modes.json"))["modes"]
    result(not bad and modes.get("proc/cmdline") == "4777" and modes.get("etc/daos/daos_server.yml") == "0000",
           "every snapshot file 0644, every directory 0755 (no setuid copy), the node's modes recorded",
           f"{bad[:5]} {modes.get('proc/cmdline')} {modes.get('etc/daos/daos_server.yml')}")
    os.chmod(f"{snap3}/dslc-modes.json", 0o644)
    open(f"{snap3}/dslc-modes.json", "w").write('{"format": "dslc-snapshot-modes", "modes": {"proc/cmdline": "9"}}')
    rc, got, _ = doctor(CL, "gpu005", snap3)
    got = summary(got)
    result(any(x[0] == "node-unchecked" and "modes not checked" in x[3] and "not an octal mode" in x[3] for x in got)
           and not any("has mode" in x[3] for x in got),
           "a snapshot's modes that cannot be read: a note, and no mode compared", got)
else:
    skip("--collect keeps modes as data", "needs root to read a mode 0000 file")

# a fleet: two snapshots, one node without one, one snapshot of no node
r2 = fresh("collect-src2", os.path.join(out, "nodes/gpu006"), XML)
rc, _, e = run(["doctor", CL, "--node", "gpu006", "--root", r2, "--topology", XML, "--collect",
                os.path.join(T, "snapshots", "gpu006")])
shutil.copytree(snap, os.path.join(T, "snapshots", "gpu099"), symlinks=True)
# each node's export carries its own identity, as lstopo writes it (host
# name, DMI serials and UUID, OS release, drive serials, GUIDs, a few MiB of
# memory more or less): one machine still (issue 53)
for k, h in enumerate(("gpu005", "gpu006", "gpu099")):
    x = os.path.join(T, "snapshots", h, "dslc-topology.xml")
    text = open(x).read()
    named = with_identity(text, k + 1, f"{h}.cluster.example")
    os.chmod(x, 0o644)
    open(x, "w").write(named)
    if named == text or "SerialNumber" not in named or "DMIProductUUID" not in named:
        result(False, f"the {h} snapshot's export carries its identity", x)
rc, fleet, err = run(["doctor", CL, "--snapshots", os.path.join(T, "snapshots"), "--format", "json"])
try:
    got = summary(json.loads(fleet)["findings"])
except ValueError:
    got = []
drift = [x for x in got if x[0] != "node-unchecked"]
unchecked = [x[3] for x in got if x[0] == "node-unchecked"]
result(rc == 1 and [x[3].split(":")[0] for x in drift] == ["gpu005", "gpu005"]
       and any("16 nodes have no snapshot" in m for m in unchecked) and any("gpu099" in m for m in unchecked)
       and "2 nodes checked" in err and "1 distinct machine" in err,
       "--snapshots: each node's drift with its name, the nodes without a snapshot, a stray, one machine parsed",
       f"{got} {err}")

# ... and each node's own memory is its own: NUMA node 1 of gpu006 halved
# is found for gpu006 though its export is parsed as the same machine
x6 = os.path.join(T, "snapshots", "gpu006", "dslc-topology.xml")
keep6 = open(x6).read()
open(x6, "w").write(re.sub(r'(<object type="NUMANode" os_index="1"[^>]*local_memory=")(\d+)"',
                           lambda m: f'{m.group(1)}{int(m.group(2)) // 2}"', keep6))
rc, fleet, err = run(["doctor", CL, "--snapshots", os.path.join(T, "snapshots"), "--format", "json"])
try:
    got = summary(json.loads(fleet)["findings"])
except ValueError:
    got = []
mem = [x for x in got if x[0] == "node-topology"]
result(len(mem) == 1 and mem[0][3].startswith("gpu006: NUMA node 1 has 384") and "1 distinct machine" in err,
       "--snapshots: one machine parsed, and gpu006's halved NUMA node 1 found for gpu006 alone", f"{mem} {err}")
open(x6, "w").write(keep6)

rc, one, err = run(["doctor", CL, "--snapshots", os.path.join(T, "snapshots"), "--node", "gpu006", "--format", "json"])
result(rc == 0 and json.loads(one or '{"findings": [1]}')["findings"] == [] and "1 node checked" in err,
       "--snapshots --node gpu006: that node only (clean), no note for the others", f"exit {rc}: {one[:300]} {err}")
rc, _, err = run(["doctor", CL, "--snapshots", os.path.join(T, "snapshots"), "--strict"])
result(rc == 1, "--snapshots --strict: nodes without a snapshot are errors", err[-200:])

# the names Linux gives in probe order (NVMe block devices) differ from node
# to node of one machine type; the fleet still parses one machine (issue 70)
names = [re.findall(r' name="(nvme\d+n\d+)"', open(os.path.join(T, "snapshots", h, "dslc-topology.xml")).read())
         for h in ("gpu005", "gpu006")]
result(len(names[0]) == 8 and sorted(names[0]) == sorted(names[1]) and names[0] != names[1],
       "the fleet's exports name their NVMe drives in each node's own probe order", names)

# a mixed fleet: more machine types than the cache keeps (16), the first
# type needed again after it was given back; every node checked as its own
# machine, each type counted once (valgrind's pass sees a freed one read)
fl = os.path.join(T, "fleet-mixed")
os.makedirs(fl)
hosts = [f"gpu{i:03d}" for i in range(1, 15)] + [f"cn{i:02d}" for i in range(1, 5)]
for k, h in enumerate(hosts):
    r = fresh("fleet-node", os.path.join(out, "nodes", h), XML)
    rc, _, e = run(["doctor", CL, "--node", h, "--root", r, "--topology", XML, "--collect", os.path.join(fl, h)])
    x = os.path.join(fl, h, "dslc-topology.xml")
    t = with_identity(open(x).read(), k + 1, f"{h}.cluster.example")
    # a type of its own: an info no check reads, by name (values are set aside)
    t = re.sub(r'(<object type="Machine"[^>]*>)', lambda m: m.group(1) + f'<info name="RackType{k % 17}" value="x"/>', t,
               count=1)
    os.chmod(x, 0o644)
    open(x, "w").write(t)
last = os.path.join(fl, hosts[-1], "dslc-topology.xml")
halved = re.sub(r'(<object type="NUMANode" os_index="1"[^>]*local_memory=")(\d+)"',
                lambda m: f'{m.group(1)}{int(m.group(2)) // 2}"', open(last).read())
open(last, "w").write(halved)
rc, fleet, err = run(["doctor", CL, "--snapshots", fl, "--format", "json"])
try:
    got = summary(json.loads(fleet)["findings"])
except ValueError:
    got = []
result(rc == 1 and len(got) == 1 and got[0][0] == "node-topology" and got[0][3].startswith(hosts[-1] + ": NUMA node 1 has")
       and "18 nodes checked" in err and "17 distinct machines" in err,
       "a fleet of 17 machine types: each node checked once as its own, the first type parsed again after it was given back",
       f"exit {rc}: {got} {err[-300:]}")

# ---- the live machine: hwloc's own view of this host --------------------------------
rc, found, err = doctor(CL, "gpu005", "/")
result(rc in (0, 1) and found is not None and "Traceback" not in err,
       "the live machine: a report, no crash (this host is no hgx-b200)", f"exit {rc}: {err[-300:]}")
live = os.path.join(T, "live-snapshot")
rc1, a, _ = doctor(CL, "gpu005", "/", None, ["--collect", live])
rc2, b, _ = doctor(CL, "gpu005", live)
sa = [(x[0], x[2]) for x in summary(a) if x[0] != "node-unchecked"]
sb = [(x[0], x[2]) for x in summary(b) if x[0] != "node-unchecked"]
result(rc1 == rc2 and sa == sb and os.path.isfile(f"{live}/dslc-topology.xml"),
       "the live machine collected and checked off the node: the same drift", f"{sa} vs {sb}")
if shutil.which("lstopo-no-graphics") or shutil.which("lstopo"):
    lst = shutil.which("lstopo-no-graphics") or shutil.which("lstopo")
    p = subprocess.run([lst, "--if", "xml", "--input", f"{live}/dslc-topology.xml", "--of", "console"],
                       capture_output=True, text=True)
    result(p.returncode == 0 and "Machine" in p.stdout, "hwloc's lstopo reads the collected export", p.stderr[-300:])
elif os.environ.get("CI") == "true":
    result(False, "lstopo reads the snapshot", "hwloc is not installed (scripts/install-deps.sh installs it)")
else:
    skip("lstopo reads the snapshot", "hwloc is not installed")

# ---- the real kernel's /sys and /proc/net, in a network namespace ------------------
# veth pairs named as the storage NICs, with the units' MTU and addresses: the
# live root's interfaces, MTUs and fib_trie as Linux itself lays them out (this
# kernel has no macvlan or bond driver: those three interfaces stay missing)
def netns_doctor(setup):
    sh = ("mount -t sysfs sysfs /sys && ip link set lo up && "
          "ip link add ens1f0np0 type veth peer name p1 && ip link add ens2f0np0 type veth peer name p2 && "
          "ip link set ens1f0np0 mtu 9000 up && ip link set ens2f0np0 mtu 9000 up && "
          "ip addr add 10.20.0.14/24 dev ens1f0np0 && ip addr add 10.21.0.14/24 dev ens2f0np0 && " + setup + " && "
          "exec " + " ".join(shlex.quote(a) for a in DSLC) + f" doctor {CL} --node gpu005 --topology {XML} --format json")
    p = subprocess.run(["unshare", "-n", "-m", "sh", "-c", sh], capture_output=True, text=True, timeout=300)
    try:
        return p.returncode, [x for x in summary(json.loads(p.stdout)["findings"]) if x[0] == "node-network"], p.stderr
    except ValueError:
        return p.returncode, None, p.stderr


probe = subprocess.run(["unshare", "-n", "-m", "sh", "-c", "mount -t sysfs sysfs /sys && ip link add x1 type veth peer name x2"],
                       capture_output=True, text=True)
if probe.returncode == 0:
    rc, net, err = netns_doctor("true")
    names = sorted(re.sub(r"^gpu005: interface (\S+) .*", r"\1", m) for *_, m in net or [])
    result(net is not None and names == ["bond0", "mv0", "mv1"],
           "a network namespace: the veth NICs' sysfs MTU and fib_trie addresses read as Linux writes them",
           f"{net} {err[-300:]}")
    rc, net, err = netns_doctor("ip link set ens2f0np0 mtu 1500 && ip addr del 10.20.0.14/24 dev ens1f0np0")
    msgs = [m for *_, m in net or []]
    result(any("ens2f0np0 has MTU 1500" in m for m in msgs) and any("10.20.0.14/24 is not an address" in m for m in msgs),
           "... and an MTU and an address changed on the live interfaces are found", f"{msgs} {err[-300:]}")
else:
    skip("a network namespace", f"unshare or veth is not available here: {probe.stderr.strip()[:100]}")

# ---- hostile roots ----------------------------------------------------------------
outside = os.path.join(T, "outside")
os.makedirs(outside, exist_ok=True)
write(f"{outside}/cmdline", open(f"{clean}/proc/cmdline").read())
h = fresh("hostile-link", tree, XML)
os.unlink(f"{h}/proc/cmdline")
os.symlink(f"{outside}/cmdline", f"{h}/proc/cmdline")  # absolute: the root's own /tmp/...
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(any(x[0] == "node-unchecked" and "proc/cmdline is absent" in x[3] for x in summary(found)),
       "an absolute link out of the root resolves inside it (as chroot would), never to the host's file",
       summary(found))
os.unlink(f"{h}/proc/cmdline")
write(f"{h}/boot-args/cmdline", open(f"{clean}/proc/cmdline").read())
os.symlink("/boot-args/cmdline", f"{h}/proc/cmdline")  # an image's absolute link: its own /boot-args
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(rc == 0 and found == [], "an absolute link resolves from the root: the image's own file", summary(found))
os.unlink(f"{h}/proc/cmdline")
os.symlink("../" * 12 + outside.lstrip("/") + "/cmdline", f"{h}/proc/cmdline")
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(any("proc/cmdline is absent" in x[3] for x in summary(found)), "`..` links stop at the root", summary(found))
os.unlink(f"{h}/proc/cmdline")
os.symlink("cmdline", f"{h}/proc/cmdline")
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(any("proc/cmdline is unreadable" in x[3] and "links" in x[3].lower() for x in summary(found)),
       "a link loop: a note (too many levels of links)", summary(found))
os.unlink(f"{h}/proc/cmdline")
os.mkfifo(f"{h}/proc/cmdline")
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(rc == 0 and any("proc/cmdline is not a regular file" in x[3] for x in summary(found)),
       "a FIFO: a note, no hang", summary(found))
os.unlink(f"{h}/proc/cmdline")
with open(f"{h}/proc/cmdline", "wb") as f:
    f.write(b"iommu=pt\0irqaffinity=0\n")
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(any("proc/cmdline is binary" in x[3] for x in summary(found)), "a binary proc file: a note", summary(found))
os.unlink(f"{h}/proc/net/fib_trie")
with open(f"{h}/proc/net/fib_trie", "wb") as f:
    f.truncate(8 << 30)  # sparse: 8 GiB of NULs
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(any("proc/net/fib_trie is larger than" in x[3] for x in summary(found)), "an 8 GiB proc file: read to its bound",
       summary(found))
os.unlink(f"{h}/etc/daos/daos_server.yml")
os.mkdir(f"{h}/etc/daos/daos_server.yml")
rc, found, _ = doctor(CL, "gpu005", h, XML)
result(rc == 1 and any(x[0] == "node-file" and "daos_server.yml is not a regular file" in x[3] for x in summary(found)),
       "a directory where daos_server.yml belongs: drift", summary(found))
if os.geteuid() == 0 and shutil.which("setpriv"):
    u = fresh("hostile-perm", tree, XML)
    os.chmod(f"{u}/sys/class", 0o000)
    bin_dir = os.path.join(T, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    shutil.copy(DSLC[-1], f"{bin_dir}/dslc")
    for d in [T, bin_dir]:
        os.chmod(d, 0o755)
    for d, dirs, files in os.walk(u):
        for x in dirs:
            p = os.path.join(d, x)
            if not os.path.islink(p) and os.path.relpath(p, u) != "sys/class":
                os.chmod(p, 0o755)
    desc = os.path.join(T, "desc")
    shutil.rmtree(desc, ignore_errors=True)
    shutil.copytree(EX, desc)
    os.chmod(desc, 0o755)
    for f in os.listdir(desc):
        os.chmod(os.path.join(desc, f), 0o644)
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *DSLC[:-1], f"{bin_dir}/dslc",
                        "doctor", f"{desc}/cluster.dsl", "--node", "gpu005", "--root", u, "--topology",
                        f"{desc}/hgx-b200.xml", "--format", "json"], capture_output=True, text=True)
    try:
        got = summary(json.loads(p.stdout)["findings"])
    except ValueError:
        got = p.stderr
    result(p.returncode == 0 and any("unreadable (Permission denied)" in x[3] for x in got),
           "an unreadable directory (as nobody): notes, exit 0", got)
    os.chmod(f"{u}/sys/class", 0o755)
else:
    skip("an unreadable directory", "needs root and setpriv to run as another user")

shutil.rmtree(T, ignore_errors=True)
print(f"doctor: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
