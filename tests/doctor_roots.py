#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""A node's root made from its built tree and a topology export, the way a
node gets there and never from dslc's code: the tree's files installed with
their modes; /proc/cmdline as the boot loader passes it after the kernel
artifact ran (the grub.d drop-in sourced by the OS's /etc/default/grub, or
the grubby script run against a BLS entry with tests/os/fake-grubby); /sys
and /proc/net laid out as the kernel lays them out (each source cited where
it is written). Used by tests/doctor.py and tests/bench_doctor.py."""
import os
import random
import re
import shutil
import stat
import subprocess
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(path, data, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(data)
    os.chmod(path, mode)


def link(path, target):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.unlink(path)
    os.symlink(target, path)


def units(tree):
    """The networkd units of a built node: name -> {key: [values]}."""
    out = []
    d = os.path.join(tree, "etc/systemd/network")
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if not f.endswith((".network", ".netdev")):  # what networkd reads; .link files are udev's
            continue
        keys, section = {}, ""
        for l in open(os.path.join(d, f)):
            l = l.strip()
            if l.startswith("["):
                section = l
            elif "=" in l and not l.startswith("#"):
                k, v = l.split("=", 1)
                keys.setdefault(section + k, []).append(v)
        out.append((f, keys))
    return out


def cmdline_of(tree, work):
    """What the boot loader hands the kernel once the node's kernel artifact ran."""
    dropin = os.path.join(tree, "etc/default/grub.d/60-dslc.cfg")
    script = os.path.join(tree, "usr/local/sbin/dslc-kernel-cmdline")
    if os.path.exists(dropin):
        # grub-mkconfig sources /etc/default/grub, which sources grub.d/*.cfg
        # (tests/os/grub-defaults/azurelinux3), and writes GRUB_CMDLINE_LINUX
        # on the linux line
        defaults = open(os.path.join(REPO, "tests/os/grub-defaults/azurelinux3")).read().split("for x in")[0]
        sh = defaults + f'. "{dropin}"\nprintf %s "$GRUB_CMDLINE_LINUX"\n'
        args = subprocess.run(["sh", "-c", sh], capture_output=True, text=True, check=True).stdout
        return "BOOT_IMAGE=/boot/vmlinuz-6.6.47.1-1.azl3 root=PARTUUID=1b2e ro " + args + "\n"
    if os.path.exists(script):
        r = os.path.join(work, "grubby")
        os.makedirs(os.path.join(r, "entries"), exist_ok=True)
        shutil.copy(os.path.join(REPO, "tests/os/grub-defaults/rhel9"), os.path.join(r, "grub"))
        write(os.path.join(r, "entries/a-5.14.0.conf"),
              "title RHEL\nversion 5.14.0\nlinux /vmlinuz-5.14.0\noptions root=/dev/mapper/rhel-root ro quiet\n")
        env = dict(os.environ, GRUB_DEFAULTS=os.path.join(r, "grub"), GRUBBY=os.path.join(REPO, "tests/os/fake-grubby"),
                   GRUBBY_BLS_DIR=os.path.join(r, "entries"))
        subprocess.run(["sh", script], env=env, capture_output=True, check=True)
        opts = re.search(r"^options (.*)$", open(os.path.join(r, "entries/a-5.14.0.conf")).read(), re.M).group(1)
        return "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-5.14.0 " + opts + "\n"
    return "BOOT_IMAGE=/vmlinuz ro quiet\n"


def numa_nodes(xml):
    """(os_index, local_memory) of each NUMA node, in hwloc's logical order."""
    out = []
    for o in ET.parse(xml).iter("object"):
        if o.get("type") == "NUMANode":
            out.append((int(o.get("os_index")), int(o.get("local_memory", "0"))))
    return out


def nic_pcis(xml):
    """Each network interface of the export with its PCI function's address."""
    out = {}
    for o in ET.parse(xml).iter("object"):
        if o.get("type") == "PCIDev":
            for c in o:
                if c.get("type") == "OSDev" and c.get("osdev_type") == "2":
                    out[c.get("name")] = o.get("pci_busid")
    return out


def vmd_domains(xml):
    """VMD endpoints of the export (PCI class 0104, Intel's VMD controller:
    drivers/pci/controller/vmd.c) with the number of drives' block devices
    hwloc shows under each."""
    out = {}
    for o in ET.parse(xml).iter("object"):
        if o.get("type") == "PCIDev" and (o.get("pci_type") or "").startswith("0104 "):
            out[o.get("pci_busid")] = sum(1 for c in o if c.get("type") == "OSDev")
    return out


def bdevs(tree, xml=None, prepared=False):
    """The engines' PCI devices and the driver Linux has bound each to: on a
    host before daos_server starts, a drive to nvme and a VMD endpoint to the
    kernel's vmd driver (Linux binds nothing else to one); once daos_server's
    prepare ran (SPDK scripts/setup.sh), both to vfio-pci; in pods, what
    usr/local/sbin/dslc-vfio-bind binds to vfio-pci at boot (`bind ADDR`)."""
    bind = os.path.join(tree, "usr/local/sbin/dslc-vfio-bind")
    if os.path.exists(bind):
        return [(a, "vfio-pci") for a in re.findall(r"^bind ([0-9a-f:.]+)$", open(bind).read(), re.M)]
    y = os.path.join(tree, "etc/daos/daos_server.yml")
    if not os.path.exists(y):
        return []
    vmd = vmd_domains(xml) if xml else {}
    addrs = re.findall(r"^\s+- \"?([0-9a-f]{4,6}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])\"?$", open(y).read(), re.M)
    # a VMD backing address (SPDK's name, 7c0005:01:00.0) is a drive behind
    # the endpoint its domain spells (0000:7c:00.5): Linux binds the
    # endpoint; the drives behind it are in the vmd driver's own domain
    addrs = [f"0000:{a[0:2]}:{a[2:4]}.{int(a[4:6], 16)}" if len(a.split(":")[0]) == 6 else a for a in addrs]
    addrs = list(dict.fromkeys(addrs))
    return [(a, "vfio-pci" if prepared else "vmd" if a in vmd else "nvme") for a in addrs]


def without_drives(xml, out):
    """The export as lstopo writes it once daos_server has taken the drives:
    an NVMe drive or a VMD domain bound to vfio-pci has no block device for
    hwloc to show under it."""
    x = ET.parse(xml)
    for o in x.iter("object"):
        if o.get("type") == "PCIDev" and (o.get("pci_type") or "")[:4] in ("0108", "0104"):
            for c in [c for c in o if c.get("type") == "OSDev"]:
                o.remove(c)
    x.write(out)
    return out

NDBUS = "sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00/ndbus0"


def pmem_namespace(root, name, mode, numa=None):
    """The PMem namespace of disk name (pmemR or pmemR.I) in mode (fsdax,
    raw, sector, devdax) as Linux lays it out. Its namespace is
    namespaceR.I (namespace_devs.c nvdimm_namespace_disk_name); fsdax: a pfn
    device claims it and the disk hangs under the pfn (pmem.c nd_pmem_probe
    -> pmem_attach_disk), the pfn's mode the page map's place ("pmem" for
    ndctl's default --map=dev, pfn_devs.c mode_show); raw: the disk under the
    namespace, whose mode is "raw"; sector: under a btt, named pmemRs;
    devdax: a dax device claims it and there is no disk
    (/sys/bus/dax/devices/daxR.I). Each device's devtype as
    drivers/nvdimm/bus.c prints it; every nvdimm device is on the nd bus
    (/sys/bus/nd/devices); /sys/class/block and /sys/block link the disk;
    devtmpfs makes /dev/DISK."""
    region, _, idx = name[4:].partition(".")
    idx = idx or "0"
    numa = region if numa is None else numa
    reg = f"{NDBUS}/region{region}"
    ns = f"namespace{region}.{idx}"
    claim = {"fsdax": f"pfn{region}.0", "sector": f"btt{region}.0", "devdax": f"dax{region}.0", "raw": ns}[mode]
    devtype = {"fsdax": "nd_pfn", "sector": "nd_btt", "devdax": "nd_dax", "raw": "nd_namespace_pmem"}[mode]
    write(os.path.join(root, reg, ns, "devtype"), "nd_namespace_pmem\n", 0o444)
    write(os.path.join(root, reg, ns, "mode"), {"fsdax": "memory", "sector": "safe", "devdax": "dax", "raw": "raw"}[mode]
          + "\n", 0o444)
    write(os.path.join(root, reg, ns, "numa_node"), f"{numa}\n", 0o444)
    write(os.path.join(root, reg, ns, "holder"), (claim if claim != ns else "") + "\n", 0o444)
    link(os.path.join(root, "sys/bus/nd/devices", ns), f"../../../{reg[4:]}/{ns}")
    if claim != ns:
        write(os.path.join(root, reg, claim, "devtype"), devtype + "\n", 0o444)
        write(os.path.join(root, reg, claim, "namespace"), ns + "\n", 0o444)
        write(os.path.join(root, reg, claim, "numa_node"), f"{numa}\n", 0o444)
        if mode in ("fsdax", "devdax"):
            write(os.path.join(root, reg, claim, "mode"), "pmem\n", 0o444)
        link(os.path.join(root, "sys/bus/nd/devices", claim), f"../../../{reg[4:]}/{claim}")
    if mode == "devdax":
        dax = f"dax{region}.{idx}"
        os.makedirs(os.path.join(root, reg, claim, dax), exist_ok=True)
        link(os.path.join(root, "sys/bus/dax/devices", dax), f"../../../{reg[4:]}/{claim}/{dax}")
        return
    disk = name + ("s" if mode == "sector" else "")
    os.makedirs(os.path.join(root, reg, claim, "block", disk), exist_ok=True)
    link(os.path.join(root, reg, claim, "block", disk, "device"), f"../../../{claim}")
    for cls in ("sys/class/block", "sys/block"):
        link(os.path.join(root, cls, disk), ("../../" if cls == "sys/class/block" else "../") +
             f"{reg[4:]}/{claim}/block/{disk}")
    dev = os.path.join(root, "dev", disk)
    os.makedirs(os.path.dirname(dev), exist_ok=True)
    if not os.path.exists(dev):
        try:
            os.mknod(dev, 0o660 | stat.S_IFBLK, os.makedev(259, int(region)))
        except PermissionError:  # not root: a stand-in (doctor only asks that it exists)
            open(dev, "w").close()


def pmem_shape(root, disk):
    """What a root shows of a disk's namespace, in the terms that do not
    depend on its numbers: the class link's shape and the claim's devtype,
    mode and namespace (to hold a hand-laid root against a capture)."""
    t = os.readlink(os.path.join(root, "sys/class/block", disk))
    dev = os.path.join(root, "sys/class/block", disk, "device")
    rd = lambda f: open(os.path.join(dev, f)).read().strip() if os.path.exists(os.path.join(dev, f)) else None
    shape = re.sub(r"\d+", "N", t)
    return (shape, os.path.basename(os.path.realpath(dev)).rstrip("0123456789."), rd("devtype"), rd("mode"),
            re.sub(r"\d+", "N", rd("namespace") or ""))


def make_root(tree, xml, root, free_gib=700, thp="never", cache_gib=0, prepared=False):
    """The root of a node installed from its built tree, on the machine xml;
    free_gib is each NUMA node's free memory and cache_gib its page cache (a
    node up for weeks: a few GiB free, the rest cache); prepared: after
    daos_server's prepare (the drives on vfio-pci);
    thp is its kernel's transparent hugepage mode without a
    transparent_hugepage= parameter (CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS,
    _MADVISE or, since Linux 6.8, _NEVER)."""
    work = root + ".work"
    os.makedirs(work, exist_ok=True)
    for d, _, files in os.walk(tree):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), tree)
            if rel.startswith("redfish/"):
                continue  # sent to the BMC from the admin host, not installed
            dst = os.path.join(root, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(d, f), dst)
    cmdline = cmdline_of(tree, work)
    write(os.path.join(root, "proc/cmdline"), cmdline, 0o444)
    nodes = numa_nodes(xml)
    total = sum(m for _, m in nodes) // 1024
    # hugepages=N after hugepagesz=S reserves N pages of S at boot
    # (Documentation/admin-guide/mm/hugetlbpage.rst); /proc/meminfo shows the
    # default size's, /sys/kernel/mm/hugepages every size's
    args = dict(w.split("=", 1) for w in cmdline.split() if "=" in w)
    kb = {"2M": 2048, "1G": 1048576}
    size, default = kb.get(args.get("hugepagesz", "2M"), 2048), kb.get(args.get("default_hugepagesz", "2M"), 2048)
    boot = int(args.get("hugepages", "0"))
    write(os.path.join(root, f"sys/kernel/mm/hugepages/hugepages-{size}kB/nr_hugepages"), f"{boot}\n", 0o444)
    shown = boot if size == default else 0
    # a long-running node: its memory in the page cache (the file LRU lists),
    # little of it free; the cache is split as the kernel keeps it, a third
    # active, and reclaimable slab beside it
    cache_kb, slab_kb = cache_gib << 20, (cache_gib << 20) // 64
    per_free, per_active, per_inactive = free_gib << 20, cache_kb // 3, cache_kb - cache_kb // 3
    n = len(nodes)
    # fs/proc/meminfo.c meminfo_proc_show: MemAvailable (si_mem_available) beside MemFree
    write(os.path.join(root, "proc/meminfo"),
          f"MemTotal:       {total} kB\nMemFree:        {per_free * n} kB\n"
          f"MemAvailable:   {(per_free + cache_kb + slab_kb) * n} kB\nBuffers:               0 kB\n"
          f"Cached:         {cache_kb * n} kB\nActive(file):   {per_active * n} kB\n"
          f"Inactive(file): {per_inactive * n} kB\nKReclaimable:   {slab_kb * n} kB\n"
          f"SReclaimable:   {slab_kb * n} kB\n"
          f"HugePages_Total:   {shown}\nHugePages_Free:    {shown}\nHugepagesize:       {default} kB\n", 0o444)
    # drivers/base/node.c node_read_meminfo: "Node %d MemTotal: %8lu kB", the
    # LRU lists, the slab, HugePages_* at the end (hugetlb_report_node_meminfo)
    for os_index, mem in nodes:
        k = mem // 1024
        rows = [("MemTotal", k), ("MemFree", per_free), ("MemUsed", k - per_free), ("SwapCached", 0),
                ("Active", per_active), ("Inactive", per_inactive), ("Active(anon)", 0), ("Inactive(anon)", 0),
                ("Active(file)", per_active), ("Inactive(file)", per_inactive), ("Unevictable", 0), ("Mlocked", 0),
                ("Dirty", 0), ("Writeback", 0), ("FilePages", cache_kb), ("Mapped", 0), ("AnonPages", 0),
                ("Shmem", 0), ("KernelStack", 0), ("PageTables", 0), ("KReclaimable", slab_kb), ("Slab", slab_kb),
                ("SReclaimable", slab_kb), ("SUnreclaim", 0)]
        text = "".join(f"Node {os_index} {name + ':':<15}{v:>9} kB\n" for name, v in rows)
        text += f"Node {os_index} HugePages_Total:     0\nNode {os_index} HugePages_Free:      0\n" \
                f"Node {os_index} HugePages_Surp:      0\n"
        write(os.path.join(root, f"sys/devices/system/node/node{os_index}/meminfo"), text, 0o444)
    # mm/huge_memory.c: setup_transparent_hugepage takes the parameter,
    # enabled_show prints the three modes with the one in force in brackets
    mode = args.get("transparent_hugepage", thp)
    write(os.path.join(root, "sys/kernel/mm/transparent_hugepage/enabled"),
          " ".join(f"[{x}]" if x == mode else x for x in ("always", "madvise", "never")) + "\n", 0o444)
    # drivers/iommu/iommu-sysfs.c: the iommu class, one entry per IOMMU unit
    os.makedirs(os.path.join(root, "sys/devices/virtual/iommu/dmar0"), exist_ok=True)
    link(os.path.join(root, "sys/class/iommu/dmar0"), "../../devices/virtual/iommu/dmar0")
    # sys/bus/pci/devices/ADDR -> ../../../devices/pci0000:00/ADDR, driver -> the driver's directory
    os.makedirs(os.path.join(root, "sys/bus/pci/drivers/nvme"), exist_ok=True)
    domains = vmd_domains(xml)
    for k, (pci, driver) in enumerate(bdevs(tree, xml, prepared)):
        dev = os.path.join(root, "sys/devices/pci0000:00", pci)
        os.makedirs(dev, exist_ok=True)
        os.makedirs(os.path.join(root, "sys/bus/pci/drivers", driver), exist_ok=True)
        link(os.path.join(dev, "driver"), "../../../bus/pci/drivers/" + driver)
        link(os.path.join(root, "sys/bus/pci/devices", pci), "../../../devices/pci0000:00/" + pci)
        if driver == "vmd":
            # drivers/pci/controller/vmd.c: the endpoint's own PCI domain
            # (10000 and up) with the drives behind it, each on nvme
            dom = f"{0x10000 + k:x}"
            for i in range(domains.get(pci, 0)):
                b = f"{dom}:{i + 1:02x}:00.0"
                d = os.path.join(dev, f"pci{dom}:00", f"{dom}:00:{i + 1:02x}.0", b)
                os.makedirs(d, exist_ok=True)
                link(os.path.join(d, "driver"), "../../../../../../bus/pci/drivers/nvme")
                link(os.path.join(root, "sys/bus/pci/devices", b),
                     f"../../../devices/pci0000:00/{pci}/pci{dom}:00/{dom}:00:{i + 1:02x}.0/{b}")
    # PMem namespaces of the engines (class dcpm) as the nvdimm bus lays them
    # out (held against a real capture by tests/doctor_captures.py)
    y = os.path.join(tree, "etc/daos/daos_server.yml")
    pmems = re.findall(r"^\s+- /dev/(pmem[0-9.]+)$", open(y).read(), re.M) if os.path.exists(y) else []
    for name in pmems:
        pmem_namespace(root, name, "fsdax")
    # /sys/class/net/IF links the interface's directory: a PCI function's
    # under its device, a virtual one (macvlan, bond) under devices/virtual
    # (net/core/net-sysfs.c netdev_register_kobject: the parent is the
    # device's, none for a virtual one); mtu as "%u\n" (net-sysfs.c); held
    # against real captures by tests/doctor_captures.py
    pcis = nic_pcis(xml)

    def net_dir(name):
        pci = pcis.get(name)
        return f"sys/devices/pci{pci[:4]}:00/{pci}/net/{name}" if pci else f"sys/devices/virtual/net/{name}"

    trie = ["Main:", "  +-- 0.0.0.0/0 3 0 5"]
    for f, keys in units(tree):
        name = (keys.get("[Match]Name") or keys.get("[NetDev]Name"))[0]
        dev = os.path.join(root, net_dir(name))
        os.makedirs(dev, exist_ok=True)
        link(os.path.join(root, "sys/class/net", name), "../../" + net_dir(name)[4:])
        mtu = (keys.get("[Link]MTUBytes") or keys.get("[NetDev]MTUBytes") or [None])[0]
        if mtu:
            write(os.path.join(dev, "mtu"), mtu + "\n", 0o444)
        elif not os.path.exists(os.path.join(dev, "mtu")):
            write(os.path.join(dev, "mtu"), "1500\n", 0o444)
        if keys.get("[NetDev]Kind") == ["bond"]:
            # bond_sysfs.c bonding_show_mode: "%s %d\n", the mode's name and number
            write(os.path.join(dev, "bonding/mode"), keys["[Bond]Mode"][0] + " 1\n", 0o444)
        for mv in keys.get("[Network]MACVLAN", []):
            # net/core/dev.c netdev_adjacent_sysfs_add: upper_X in the lower, lower_X in the upper
            upper = os.path.join(root, net_dir(mv))
            link(os.path.join(upper, "lower_" + name), os.path.relpath(dev, upper))
            link(os.path.join(dev, "upper_" + mv), os.path.relpath(upper, dev))
        for a in keys.get("[Network]Address", []):
            # fib_trie_seq_show: "|-- %pI4" per leaf, then "/%d %s %s" (prefix, scope, type)
            trie += [f"     |-- {a.split('/')[0]}", "        /32 host LOCAL"]
    write(os.path.join(root, "proc/net/fib_trie"), "\n".join(trie) + "\n", 0o444)
    write(os.path.join(root, "proc/net/if_inet6"), "", 0o444)
    for d, _, files in os.walk(os.path.join(tree, "etc/sysctl.d")):
        for f in files:
            for l in open(os.path.join(d, f)):
                m = re.match(r"^([a-z0-9_./-]+)\s*=\s*(.*)$", l)
                if m:
                    key = m.group(1).replace(".", "\0").replace("/", ".").replace("\0", "/")
                    write(os.path.join(root, "proc/sys", key), m.group(2) + "\n")
    shutil.rmtree(work)
    return root


def with_identity(text, k, host, probe_order=True):
    """An export of machine text as node k of a fleet writes it: what lstopo
    puts in every export that differs from node to node of one type (its
    host name, DMI serials and UUID, OS release, each drive's serial number
    and each NIC's hardware address and InfiniBand GUID, the pages counted
    per size) and the memory the firmware leaves each NUMA node, a few MiB
    more or less (hwloc's XML: info name/value pairs, page_type counts,
    local_memory). probe_order: its NVMe block devices named in the order
    that node's controllers were probed (drivers/nvme/host/core.c: a
    controller's instance comes from an ida as it probes, asynchronously),
    so nvme0n1 here is nvme3n1 there."""
    t = re.sub(r'(name="HostName" value=")[^"]*', rf"\g<1>{host}", text)
    t = re.sub(r'(name="Address" value="[0-9a-f:]*?)[0-9a-f]{2}:[0-9a-f]{2}"', rf'\g<1>{k >> 8 & 255:02x}:{k & 255:02x}"', t)
    machine = (f'<info name="DMIProductUUID" value="4c4c4544-{k:04x}-1010-8050-b4c04f{k:06x}"/>'
               f'<info name="DMIProductSerial" value="J{k:07d}"/><info name="DMIBoardSerial" value=".J{k:07d}.CN7"/>'
               f'<info name="OSRelease" value="6.6.{47 + k % 3}.1-1.azl3"/>')
    t = re.sub(r'(<object type="Machine"[^>]*>)', lambda m: m.group(1) + machine, t, count=1)
    n = [0]

    def serial(m):
        n[0] += 1
        return m.group(1) + f'<info name="SerialNumber" value="S6EUNE0W{k:05d}{n[0]:02d}"/>'
    t = re.sub(r'(<object type="OSDev"[^>]*osdev_type="0"[^>]*>)', serial, t)
    t = re.sub(r'(<object type="OSDev"[^>]*name="mlx5_\d+"[^>]*>)',
               lambda m: m.group(1) + f'<info name="NodeGUID" value="b8ce:f603:00{k >> 8 & 255:02x}:{k & 255:02x}10"/>', t)
    t = re.sub(r'(local_memory=")(\d+)"', lambda m: f'{m.group(1)}{int(m.group(2)) - (k % 7) * (2 << 20)}"', t)
    if probe_order:
        ctrls = sorted({int(c) for c in re.findall(r' name="nvme(\d+)n\d+"', t)})
        order = list(ctrls)
        random.Random(k).shuffle(order)  # this node's own order, the same on every run
        new = dict(zip(ctrls, order))
        t = re.sub(r' name="nvme(\d+)n(\d+)"', lambda m: f' name="nvme{new[int(m.group(1))]}n{m.group(2)}"', t)
    return re.sub(r'(<page_type size="\d+" count=")(\d+)"', lambda m: f'{m.group(1)}{int(m.group(2)) - k % 1000}"', t)

