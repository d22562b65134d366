#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""make bench: `dslc doctor --snapshots` over a fleet of N collected
snapshots (issue 42: 16,384 nodes). The reference example widened to N
nodes is built; node 1's root is made as tests/doctor.py makes one
(doctor_roots.py) and collected with `dslc doctor --collect`; every other
node's snapshot is that one's layout with the node's own files (hard links
to its built tree), its own addresses in proc/net/fib_trie, and an export
of the machine of its own, as a real fleet's are: its host name, DMI serials
and UUID, OS release, drive serial numbers, NIC addresses and InfiniBand
GUIDs, page counts and a few MiB of memory per NUMA node differ from every
other node's (doctor_roots.with_identity), so N nodes are N distinct texts
and one machine. One node gets a drift, which must be the one finding, and
the check must parse one machine. Prints wall time and peak memory of the
check.
usage: bench_doctor.py DSLC [N]"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doctor_roots import make_root, with_identity  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EX = os.path.join(ROOT, "examples", "hgx-b200")
DSLC = os.path.abspath(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 16384


def description(d, N):
    """The example with N converged nodes (no clients), addresses spread over /16s."""
    for f in ("hardware.dsl", "hgx-b200.xml"):
        shutil.copy(os.path.join(EX, f), d)
    src = open(os.path.join(EX, "cluster.dsl")).read()
    for block in (r"profile client : ", r"nodes cn\[", r"mount /"):
        src = re.sub(r"(?m)^" + block + r".*?\n}\n", "", src, flags=re.S)
    src = re.sub(r"\n  nccl on[^\n]*", "", src)
    w = len(str(N))
    src = src.replace("gpu[001-014]", f"gpu[{1:0{w}d}-{N:0{w}d}]").replace("gpu[001-003]", f"gpu[{1:0{w}d}-{3:0{w}d}]")
    src = src.replace("node gpu007", f"node gpu{7:0{w}d}")
    src = re.sub(r"\.0\.\{10\+i\}", ".{i/200}.{10+i%200}", src)
    open(os.path.join(d, "cluster.dsl"), "w").write(src)
    return os.path.join(d, "cluster.dsl"), w


def fleet(N, probe_order=True):
    """The fleet of N nodes checked: (wall seconds, peak RSS KiB, right)."""
    tmp = tempfile.mkdtemp(prefix="dslc-bench-doctor-")
    try:
        desc, w = description(tmp, N)
        out = os.path.join(tmp, "out")
        t0 = time.time()
        subprocess.run([DSLC, "build", desc, "-o", out], capture_output=True, check=True)
        print(f"doctor bench: built {N} nodes in {time.time() - t0:.1f} s")
        host = lambda i: f"gpu{i:0{w}d}"  # noqa: E731
        xml = os.path.join(tmp, "hgx-b200.xml")
        first = make_root(os.path.join(out, "nodes", host(1)), xml, os.path.join(tmp, "root1"))
        snaps = os.path.join(tmp, "snapshots")
        os.makedirs(snaps)
        subprocess.run([DSLC, "doctor", desc, "--node", host(1), "--root", first, "--topology", xml, "--collect",
                        os.path.join(snaps, host(1))], capture_output=True, check=True)
        tmpl = os.path.join(snaps, host(1))
        layout = []  # (rel, kind, data)
        for d, dirs, files in os.walk(tmpl):
            for x in dirs + files:
                p = os.path.join(d, x)
                rel = os.path.relpath(p, tmpl)
                kind = "link" if os.path.islink(p) else "dir" if os.path.isdir(p) else "file"
                layout.append((rel, kind, os.readlink(p) if kind == "link" else None))
        machine = open(xml).read()
        t0 = time.time()
        for i in range(2, N + 1):
            h, s = host(i), os.path.join(snaps, host(i))
            os.mkdir(s)
            tree = os.path.join(out, "nodes", h)
            trie = open(os.path.join(tree, "etc/systemd/network/10-ens1f0np0.network")).read()
            addrs = [a.split("/")[0] for f in ("10-ens1f0np0.network", "10-ens2f0np0.network", "30-bond0.network")
                     for a in re.findall(r"^Address=(\S+)$", open(os.path.join(tree, "etc/systemd/network", f)).read(),
                                         re.M)]
            for rel, kind, target in layout:
                p = os.path.join(s, rel)
                if kind == "dir":
                    os.mkdir(p)
                elif kind == "link":
                    os.symlink(target, p)
                elif rel == "dslc-topology.xml":
                    with open(p, "w") as f:
                        f.write(with_identity(machine, i, f"{h}.cluster.example", probe_order))
                elif rel == "proc/net/fib_trie":
                    trie = "Main:\n  +-- 0.0.0.0/0 3 0 5\n" + "".join(f"     |-- {a}\n        /32 host LOCAL\n" for a in addrs)
                    with open(p, "w") as f:
                        f.write(trie)
                elif rel.startswith("etc/"):
                    os.link(os.path.join(tree, rel), p)
                else:
                    os.link(os.path.join(tmpl, rel), p)
        with open(os.path.join(snaps, host(1), "dslc-topology.xml"), "w") as f:
            f.write(with_identity(machine, 1, f"{host(1)}.cluster.example", probe_order))
        # one drift: a hand-edited daos_server.yml on the last node
        y = os.path.join(snaps, host(N), "etc/daos/daos_server.yml")
        text = open(y).read().replace("targets: 16", "targets: 12", 1)
        os.unlink(y)
        open(y, "w").write(text)
        os.chmod(y, 0o644)
        print(f"doctor bench: {N} snapshots written in {time.time() - t0:.1f} s")
        t0 = time.time()
        with open(os.path.join(tmp, "o"), "w") as o, open(os.path.join(tmp, "e"), "w") as e:
            proc = subprocess.Popen([DSLC, "doctor", desc, "--snapshots", snaps, "--format", "json"], stdout=o, stderr=e)
            _, status, ru = os.wait4(proc.pid, 0)  # this process's peak memory alone
        wall = time.time() - t0
        rc, rss = os.waitstatus_to_exitcode(status), ru.ru_maxrss
        p = subprocess.CompletedProcess([], rc, open(os.path.join(tmp, "o")).read(), open(os.path.join(tmp, "e")).read())
        found = json.loads(p.stdout)["findings"] if p.stdout else []
        ok = (rc == 1 and len(found) == 1 and found[0]["ruleId"] == "node-file" and host(N) in found[0]["message"]
              and "1 distinct machine" in p.stderr)
        order = "each node's own NVMe probe order" if probe_order else "identical NVMe names"
        print(f"doctor bench: --snapshots over {N} nodes ({order}): {wall:.2f} s wall, {wall / N * 1000:.2f} ms/node, "
              f"peak RSS {rss / 1024:.0f} MiB; {p.stderr.strip()}")
        print(f"doctor bench: {'ok' if ok else 'WRONG'}: {len(found)} finding(s), exit {p.returncode}: "
              f"{[f['message'] for f in found][:3]}")
        return wall, rss, ok
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    # issue 70: a fleet whose nodes name their NVMe drives in their own probe
    # order costs what identical nodes cost (within 1.5x per node), in a
    # bounded memory (under 64 MiB)
    same = fleet(4096, probe_order=False)
    probed = fleet(4096, probe_order=True)
    ratio = probed[0] / same[0]
    bounded = ratio <= 1.5 and probed[1] < 64 * 1024
    print(f"doctor bench: 4096 nodes, probe order against identical names: {ratio:.2f}x per node, "
          f"peak RSS {probed[1] / 1024:.0f} MiB: {'ok' if bounded else 'WRONG'} (want <= 1.5x and < 64 MiB)")
    _, _, ok = fleet(N)
    return 0 if same[2] and probed[2] and bounded and ok else 1


if __name__ == "__main__":
    sys.exit(main())
