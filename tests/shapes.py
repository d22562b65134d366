#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Differential test by shape: generated cluster descriptions against DAOS's
own loader (issue 22).

The values inside one node shape are daos_diff.py's; this varies the shapes
themselves, where the DSL path and DAOS's rules have slipped apart before:
NUMA counts 1/2/4/8 in one or two sockets, storage NICs on a subset of the
NUMA nodes, drives on another subset, `engine per numa` with and without
MD-on-SSD roles, per-engine blocks that mix roles and no roles, explicit
drive lists (with duplicates, and VMD backing addresses on exported
topologies), `exclude nvme` on some nodes, NUMA nodes without CPUs. Each
description is built for DAOS 2.6 and 2.8; every daos_server.yml a build
writes goes to that release's loader (../shared/validators/daos-config-check)
and daos_agent.yml to DAOS's agent key list.

A shape fails when
  - dslc builds it and DAOS's loader refuses a file it wrote;
  - the build stops on `internal-consistency` (the build's own check): the
    DSL rules missed a shape, which is a defect even though nothing bad was
    written;
  - dslc crashes (exit other than 0 or 1) or refuses with no located error.
A refusal with a located DSL finding is a pass: DAOS would refuse it too, or
dslc refuses on purpose (SPEC.md, "Runtime-only rules").

usage: shapes.py DSLC [--count N] [--seed S] [--keep DIR]
Without the loader it says `skipped` (the shapes still build: no crash, no
self-check trip)."""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daos_loader  # noqa: E402  the loader's path and verdict, shared by the oracle tests
TOPO = os.path.join(ROOT, "tests", "topologies")
AGENT_KEYS = None  # daos_agent.yml keys per release, from schemas/daos_keys.def


def agent_keys():
    global AGENT_KEYS
    if AGENT_KEYS is None:
        AGENT_KEYS = {"2.6": set(), "2.8": set()}
        for line in open(os.path.join(ROOT, "schemas", "daos_keys.def")):
            m = re.match(r'DAOS_KEY\(\w+, (AGENT\w*|TRANSPORT), \w+, (NULL|"[^"]*"), (NULL|"[^"]*")\)', line)
            if m:
                for rel, name in (("2.6", m.group(2)), ("2.8", m.group(3))):
                    if name != "NULL":
                        AGENT_KEYS[rel].add((m.group(1), name.strip('"')))
    return AGENT_KEYS


def check_agent(path, rel):
    """The agent file uses only DAOS's agent keys, in their sections."""
    import yaml
    doc = yaml.safe_load(open(path))
    keys = agent_keys()[rel]
    bad = [k for k in doc if ("AGENT", k) not in keys]
    bad += [k for k in doc.get("transport_config", {}) if ("TRANSPORT", k) not in keys]
    for fi in doc.get("fabric_ifaces", []):
        bad += [k for k in fi if ("AGENT_IFACES", k) not in keys]
        for dv in fi.get("devices", []):
            bad += [k for k in dv if ("AGENT_DEVICE", k) not in keys]
            if not dv.get("iface"):
                bad.append("device without iface")
    return bad


class Shape:
    """One generated description: hardware, profile, nodes and overrides."""

    def __init__(self, rng, n):
        self.n = n
        self.rng = rng
        r = rng
        self.exported = r.random() < 0.2
        self.sockets = r.choice((1, 2))
        self.nnuma = r.choice([k for k in (1, 2, 4, 8) if k % self.sockets == 0])
        self.cores_per_numa = r.choice((8, 12, 16, 24))
        self.tcp = r.random() < 0.4
        nodes = list(range(self.nnuma))
        self.nic_numas = sorted(r.sample(nodes, r.randint(1 if r.random() < 0.95 else 0, self.nnuma)))
        # drives mostly beside the NICs, sometimes where no NIC is
        self.drive_numas = [k for k in nodes if r.random() < (0.75 if k in self.nic_numas else 0.3)]
        self.drives = {k: [self.pci(k, d) for d in range(r.randint(1, 4))] for k in self.drive_numas}
        self.vmd = {}
        if self.exported and r.random() < 0.5 and self.drive_numas:
            k = r.choice(self.drive_numas)  # a VMD endpoint with drives behind it on NUMA node k
            self.vmd[k] = f"0000:{0x70 + k:02x}:00.5"
        # exported shapes only: GPU memory nodes without CPUs (POWER9), or
        # an HBM node beside each NUMA node with the same CPUs (Xeon Max)
        self.gpu_mem = r.choice((0, 0, 0, 2, 4)) if self.exported else 0
        self.hbm = self.exported and self.nnuma != self.sockets and r.random() < 0.25
        self.targets = r.choice((1, 2, 4, 8))
        self.helpers = r.choice((0, 1, self.targets // 4))
        self.os_cores = r.choice((0, 0, 1, 2))
        self.roles = r.random() < 0.5
        self.overrides = []  # engine numa K { ... } bodies
        for k in nodes:
            if k not in self.nic_numas and r.random() < 0.9:
                continue  # an engine declared where no NIC is: engine-no-nic, now and then
            x = r.random()
            if x < 0.15:
                self.overrides.append((k, "nvme roles [wal meta data]"))
            elif x < 0.25 and k in self.drives:
                lst = list(self.drives[k])
                if r.random() < 0.3:
                    lst.append(lst[0])  # the same drive twice
                self.overrides.append((k, "nvme " + " ".join(lst) + (" nvme roles [wal meta data]" if r.random() < 0.5 else "")))
            elif x < 0.3 and k in self.vmd:
                ep = self.vmd[k]
                back = f"{int(ep[5:7], 16):02x}{int(ep[8:10], 16):02x}{int(ep[11]):02x}:01:00.0"
                self.overrides.append((k, f"nvme {back}"))
            elif x < 0.31:
                self.overrides.append((k, "targets 1"))  # engines that differ
        self.exclude = None
        if r.random() < 0.25 and self.drive_numas:
            k = r.choice(self.drive_numas)
            self.exclude = (r.choice((["n2"], ["n1", "n3"])), self.drives[k][: r.randint(1, len(self.drives[k]))])

    def pci(self, numa, d):
        return f"0000:{0x10 + numa * 0x8 + d:02x}:00.0"  # below the NICs' 0x80-0x87

    def label(self):
        return (f"shape {self.n}: {'export' if self.exported else 'hand'} {self.sockets}s{self.nnuma}n "
                f"nics{self.nic_numas} drives{self.drive_numas}{' vmd' if self.vmd else ''} "
                f"{'roles ' if self.roles else ''}{len(self.overrides)} overrides{' exclude' if self.exclude else ''}"
                f"{f' gpu-memory{self.gpu_mem}' if self.gpu_mem else ''}{' hbm' if self.hbm else ''}")

    def memory_gib(self):
        """MemTotal as DAOS reads it: GPU and HBM memory nodes count too."""
        return 64 * self.nnuma + 16 * self.gpu_mem + (16 * self.nnuma if self.hbm else 0)

    def logical(self, k):
        """hwloc's logical index of the k-th NUMA node with CPUs: an HBM node
        follows each DDR node; GPU memory nodes come after them all."""
        return 2 * k if self.hbm else k

    def xml(self, path):
        """An lstopo export of this shape (synthetic CPUs, injected I/O)."""
        if self.nnuma == self.sockets:
            desc = f"pack:{self.sockets} [numa(memory=64GiB)] core:{self.cores_per_numa} pu:2(indexes=core)"
            parent = "Package"
        else:
            g = self.nnuma // self.sockets
            hbm = " [numa(memory=16GiB)]" if self.hbm else ""
            desc = f"pack:{self.sockets} group:{g} [numa(memory=64GiB)]{hbm} l3:2 core:{self.cores_per_numa // 2} pu:2(indexes=core)"
            parent = "Group"
        desc = "[numa(memory=16GiB)] " * self.gpu_mem + desc
        base = path + ".base"
        subprocess.run(["lstopo-no-graphics", "-f", "-i", desc, "--of", "xml", base], check=True, capture_output=True)
        io = []
        for k in self.nic_numas:
            io.append(f"{parent}:{k}:nic-eth:0000:{0x80 + k:02x}:00.0:eth{k},mlx5_{k}")
        for k in self.drive_numas:
            if k in self.vmd:
                io.append(f"{parent}:{k}:vmd:{self.vmd[k]}")
            else:
                io += [f"{parent}:{k}:nvme:{p}" for p in self.drives[k]]
        subprocess.run([sys.executable, os.path.join(TOPO, "add_io.py"), base, path] + io, check=True)
        os.remove(base)

    def dsl(self, rel, xml):
        out = [f"daos {rel}", "cluster tier0 {",
               f'  provider "{"ofi+tcp;ofi_rxm" if self.tcp else "ofi+verbs;ofi_rxm"}"',
               "  access_points n[1-3]"]
        if not self.tcp:
            out.append("  fabric roce { gid_index 3 }")
        out.append("}")
        out.append("hardware hw {")
        if xml:
            out += [f'  topology "{xml}"', "  nic auto", "  nvme auto"]
        else:
            out += [f"  sockets {self.sockets}", f"  cores_per_socket {self.cores_per_numa * self.nnuma // self.sockets}",
                    "  threads_per_core 2", f"  numa_per_socket {self.nnuma // self.sockets}", "  memory_per_numa 64GiB"]
            for k in range(self.nnuma):
                body = []
                if k in self.nic_numas:
                    body.append(f"nic eth{k} pci 0000:{0x80 + k:02x}:00.0 role storage" + ("" if self.tcp else f" rdma mlx5_{k}"))
                if k in self.drives:
                    body.append("nvme " + " ".join(self.drives[k]))
                if body:
                    out.append(f"  numa {k} {{ " + "  ".join(body) + " }")
        out.append("}")
        out.append("profile p : hw {")
        if self.os_cores:
            out.append(f"  reserve os {self.os_cores} cores per numa")
        eng = f"targets {self.targets} helpers {self.helpers} scm ram 8GiB"
        if self.roles:
            eng += " nvme roles [wal meta data]"
        out.append(f"  engine per numa {{ {eng} }}")
        for k, body in self.overrides:
            out.append(f"  engine numa {self.logical(k) if xml else k} {{ {body} }}")
        if xml and self.gpu_mem and self.rng.random() < 0.1:
            out.append(f"  engine numa {self.nnuma * (2 if self.hbm else 1)} {{ targets {self.targets} }}")  # on GPU memory
        out.append("}")
        out.append("nodes n[1-3] : p")
        if self.exclude:
            who, pcis = self.exclude
            out += [f"node {h} {{ exclude nvme {' '.join(pcis)} }}" for h in who]
        return "\n".join(out) + "\n"


def oracle(path, rel, mem_gib):
    accepted, out = daos_loader.run(["--release", rel, "-mem-gib", str(mem_gib), path])
    return accepted, out.strip().splitlines()[-1:]


def main(argv):
    dslc = os.path.abspath(argv[0])
    count = int(argv[argv.index("--count") + 1]) if "--count" in argv else int(os.environ.get("SHAPES_COUNT", "200"))
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else int(os.environ.get("SHAPES_SEED", "22"))
    keep = argv[argv.index("--keep") + 1] if "--keep" in argv else None
    have_oracle = daos_loader.available("shapes: the loader check")
    tmp = keep or tempfile.mkdtemp(prefix="dslc-shapes-")
    os.makedirs(tmp, exist_ok=True)
    rng = random.Random(seed)
    passes = fails = built = refused = files = 0
    try:
        for n in range(count):
            s = Shape(rng, n)
            xml = None
            if s.exported:
                xml = os.path.join(tmp, f"shape-{n}.xml")
                s.xml(xml)
            for rel in ("2.6", "2.8"):
                src = os.path.join(tmp, f"shape-{n}-{rel}.dsl")
                open(src, "w").write(s.dsl(rel, xml))
                out = src[:-4] + ".out"
                r = subprocess.run([dslc, "build", src, "-o", out], capture_output=True, text=True)
                label = f"{s.label()} daos {rel}"
                problems = []
                if r.returncode not in (0, 1):
                    problems.append(f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1:]}")
                elif r.returncode == 1:
                    refused += 1
                    if "error[internal-consistency]" in r.stderr:
                        problems.append("the build's own check tripped: " + r.stderr.strip().splitlines()[0])
                    elif not re.search(r"^\S+:\d+:\d+: error\[", r.stderr, re.M):
                        problems.append("refused without a located error: " + r.stderr.strip()[-200:])
                else:
                    built += 1
                    for node in sorted(os.listdir(os.path.join(out, "nodes"))):
                        d = os.path.join(out, "nodes", node, "etc", "daos")
                        y = os.path.join(d, "daos_server.yml")
                        if have_oracle and os.path.exists(y):
                            files += 1
                            ok, why = oracle(y, rel, s.memory_gib())
                            if not ok:
                                problems.append(f"{node}: DAOS {rel} refuses daos_server.yml: {why[0] if why else '?'}")
                        a = os.path.join(d, "daos_agent.yml")
                        if os.path.exists(a):
                            bad = check_agent(a, rel)
                            if bad:
                                problems.append(f"{node}: daos_agent.yml keys DAOS {rel} lacks: {bad}")
                if problems:
                    fails += 1
                    print(f"FAIL shapes {label} [{src}]: {problems[0]}")
                else:
                    passes += 1
                    print(f"ok   shapes {label}: {'built' if r.returncode == 0 else 'refused at a located finding'}")
                if not keep:
                    shutil.rmtree(out, ignore_errors=True)
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"shapes: {count} shapes x 2 releases (seed {seed}): {built} built, {refused} refused at a finding, "
          f"{files} daos_server.yml files {'to DAOS' if have_oracle else 'written (no loader)'}, {fails} failures")
    print(f"shapes: {passes} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except daos_loader.LoaderBroken as e:  # the oracle failing is a failure, never a rejection
        print(f"FAIL shapes: {e}")
        sys.exit(1)
