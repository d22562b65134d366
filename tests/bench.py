#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""make bench: dslc's build and lint figures on N-node variants of the
reference example (wall time, peak memory), cold and unchanged rebuilds.
Figures come from this script only, never from timed unit tests.
Cold builds create 3 directories and 2 files per node: on a slow disk the
file system's inode creation, not dslc, dominates (compare TMPDIR=/dev/shm).
usage: bench.py DSLC [N...]"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

DSLC = None
REPS = int(os.environ.get("BENCH_REPS", "3"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EX = os.path.join(ROOT, "examples", "hgx-b200")


def servers_only(src):
    """The example without its clients (client-only nodes, dfuse mounts,
    nccl.conf): the peer renders the 14 server files per node, so an
    equal-work comparison leaves the clients out."""
    src = re.sub(r"\n  nccl on[^\n]*", "", src)
    for block in (r"profile client : ", r"nodes cn\[", r"mount /"):
        src = re.sub(r"(?m)^" + block + r".*?\n}\n", "", src, flags=re.S)
    return src


def servers_example(tmp):
    """A copy of the example directory with servers_only's cluster.dsl (what
    the peer's gen_cluster.py reads)."""
    d = os.path.join(tmp, "example-servers")
    if not os.path.isdir(d):
        os.makedirs(d)
        for f in ("hardware.dsl", "hgx-b200.xml"):
            shutil.copy(os.path.join(EX, f), d)
        open(os.path.join(d, "cluster.dsl"), "w").write(servers_only(open(os.path.join(EX, "cluster.dsl")).read()))
    return d


def variant(tmp, n):
    d = os.path.join(tmp, f"n{n}")
    os.makedirs(d)
    for f in ("hardware.dsl", "hgx-b200.xml"):
        shutil.copy(os.path.join(EX, f), d)
    w = len(str(n))
    src = servers_only(open(os.path.join(EX, "cluster.dsl")).read())
    src = src.replace("gpu[001-014]", f"gpu[{1:0{w}d}-{n:0{w}d}]")
    src = src.replace("gpu[001-003]", f"gpu[{1:0{w}d}-{3:0{w}d}]")
    src = src.replace("node gpu007", f"node gpu{7:0{w}d}")
    src = re.sub(r"\.0\.\{10\+i\}", ".{i/200}.{10+i%200}", src)
    open(os.path.join(d, "cluster.dsl"), "w").write(src)
    return os.path.join(d, "cluster.dsl")


def run(cmd, ok=(0,)):
    """Wall time and this run's own peak RSS in KiB (GNU time's %M: the
    children's ru_maxrss would be the largest of every run so far)."""
    fd, rssf = tempfile.mkstemp()
    os.close(fd)
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rssf] + cmd, capture_output=True)
    dt = time.perf_counter() - t
    if r.returncode not in ok:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{r.stderr.decode()}")
    rss = int(open(rssf).read().split()[-1])
    os.unlink(rssf)
    return dt, rss


def hostile_inputs(tmp):
    """Large inputs of the security review (issue 9): each must be linear."""
    base = open(os.path.join(ROOT, "tests", "fuzz", "seeds", "dsl", "base.dsl")).read()
    cut = base.index("  reserve os")
    cases = {}
    cases["40,000 env lines"] = base[:cut] + "".join(f"  env V{i}={i}\n" for i in range(40000)) + base[cut:]
    cases["40,000 pools + containers"] = base + "".join(
        f"pool q{i} {{ size 1TiB }}\ncontainer k{i} in q{i} {{ type posix checksum crc32 server }}\n" for i in range(40000))
    cases["40,000 BIOS attributes"] = base.replace("bios { ProcSmt = Enabled }",
                                                   "bios {\n" + "".join(f"    Attr{i} = {i}\n" for i in range(40000)) + "  }")
    cases["40,000 kernel params"] = base.replace("param hugepagesz=2M",
                                                 "\n" + "".join(f"    param p{i}={i}\n" for i in range(40000)))
    blocks = base.replace("nodes n[1-3] : p {", "nodes n[1-3], m[000001-050000], m[050001-100000] : p {")
    for old, new in (("10.0.0.{10+i}/24", "12"), ("10.1.0.{i*2+1}/24", "13"), ("10.1.0.{n*2}/24", "14")):
        blocks = blocks.replace(old, new + ".{i/60000}.{i/250%240}.{i%250+1}/8")
    blocks = blocks.replace("10.2.0.{n}", "15.{i/60000}.{i/250%240}.{i%250+1}")
    cases["100,000 node blocks"] = blocks + "".join(f"node m{i:06d} {{ exclude nvme 0000:a2:00.0 }}\n" for i in range(1, 100001))
    cases["daos_server.yml, 1,000,000 keys"] = "name: daos_server\n" + "".join(f"k{i}: 1\n" for i in range(1000000))
    paths = {}
    for k, (name, text) in enumerate(cases.items()):
        paths[name] = os.path.join(tmp, f"hostile{k}" + (".yml" if name.startswith("daos_server") else ".dsl"))
        open(paths[name], "w").write(text)
    del cases  # the children's RSS must not count this process's pages
    print(f"\n{'hostile input':<34} {'lint s':>7} {'max RSS MiB':>12}")
    for name, path in paths.items():
        rss = os.path.join(tmp, "rss")
        t = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss, DSLC, "lint", path], capture_output=True)
        dt = time.perf_counter() - t
        print(f"{name:<34} {dt:>7.2f} {int(open(rss).read().split()[-1]) / 1024:>12.1f}   (exit {r.returncode})")


PEERS = os.path.join(os.path.dirname(ROOT), "shared", "peers", "jinja2")


def have_jinja2():
    return os.path.isdir(PEERS) and subprocess.run(["/usr/bin/python3", "-c", "import jinja2"],
                                                   capture_output=True).returncode == 0


def scenario(tmp, n):
    """The reference shape with n nodes (../shared/peers/jinja2/gen_cluster.py
    when present: cluster.dsl and changed.dsl, one more node block), else
    this script's own variant with a one-node change appended."""
    d = os.path.join(tmp, f"n{n}")
    gen = os.path.join(PEERS, "gen_cluster.py")
    if os.path.exists(gen):
        subprocess.run(["/usr/bin/python3", gen, str(n), d, servers_example(tmp)], check=True)
        return os.path.join(d, "cluster.dsl"), os.path.join(d, "changed.dsl")
    src = variant(tmp, n)
    w = len(str(n))
    changed = os.path.join(d, "changed.dsl")
    open(changed, "w").write(open(src).read() + f"\nnode gpu{n // 2 + 1:0{w}d} {{ exclude nvme 0000:a3:00.0 }}\n")
    return src, changed


def floor_list(tmp, tree):
    """The write floor's input: the tree's paths and sizes (from its
    manifest, manifest.json included), read before the tree is removed: a
    tmpfs has a limited number of inodes (65,536 nodes take 1.6 million)."""
    m = json.load(open(os.path.join(tree, "manifest.json")))
    lst = os.path.join(tmp, "floor.list")
    with open(lst, "w") as f:
        for e in m["files"]:
            f.write(f"{e['path']} {e['size']}\n")
        f.write(f"manifest.json {min(os.path.getsize(os.path.join(tree, 'manifest.json')), 1 << 20)}\n")
    return lst


def floor_time(tmp, lst, floor):
    """The write floor: the same directories and files by tests/bench/floor.c."""
    out = os.path.join(tmp, "floor.out")
    with open(lst) as f:
        t = time.perf_counter()
        subprocess.run([floor, out], stdin=f, check=True)
        dt = time.perf_counter() - t
    shutil.rmtree(out)
    return dt


def peer_templates(tmp, tree):
    """Templates cut out of dslc's own tree for the equal-work peer, or None
    when it or jinja2 is missing."""
    if not have_jinja2() or not os.path.exists(os.path.join(PEERS, "render_equal.py")):
        return None
    tj = os.path.join(tmp, "templates.json")
    if subprocess.run(["/usr/bin/python3", os.path.join(PEERS, "templates_from_tree.py"), tree, tj],
                      capture_output=True).returncode:
        return None
    return tj


def peer_time(tmp, tj, n):
    """The equal-work peer (../shared/peers/jinja2/render_equal.py): the same
    14 files per node, byte for byte; None when it is missing."""
    if not tj:
        return None
    out = os.path.join(tmp, f"peer{n}")
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/python3", os.path.join(PEERS, "render_equal.py"), tj, str(n), out], capture_output=True)
    dt = time.perf_counter() - t
    shutil.rmtree(out, ignore_errors=True)
    return dt if r.returncode == 0 else None


def main():
    global DSLC
    dslc = DSLC = os.path.abspath(sys.argv[1])
    sizes = [int(a) for a in sys.argv[2:]] or [1000, 4096, 16384, 65536]
    with tempfile.TemporaryDirectory() as tmp:
        floor = os.path.join(tmp, "floor")
        subprocess.run(["cc", "-std=c11", "-O2", "-D_GNU_SOURCE", os.path.join(ROOT, "tests", "bench", "floor.c"), "-o", floor],
                       check=True)
        fs = subprocess.run(["stat", "-f", "-c", "%T", tmp], capture_output=True, text=True).stdout.strip()
        print(f"(output in {tmp}, a {fs} file system; set TMPDIR to measure another, e.g. TMPDIR=/dev/shm)")
        cols = ["nodes", "files", "floor s", "cold s", "unchanged s", "1-node s", "check s", "plan s", "lint s",
                "peer s", "cold/floor", "unch/cold", "1-node/unch", "check/cold", "plan/check", "peer/cold", "KiB/node",
                "plan KiB/n"]
        print(" ".join(f"{c:>11}" for c in cols))
        inventories = {}
        for n in sizes:
            src, changed = scenario(tmp, n)
            out = os.path.join(tmp, f"out{n}")
            # each figure is the best of REPS runs, interleaved with the
            # floor's: on a shared 2-core machine one run is off by 20%
            best = {}
            peaks = []
            lst = tj = None
            for rep in range(REPS):
                if lst:
                    shutil.rmtree(out)  # a tmpfs has room for one tree of 65,536 nodes at a time
                    best["floor"] = min(best.get("floor", 1e9), floor_time(tmp, lst, floor))
                # None: back to the source the others compare with
                figures = (("cold", src), ("unchanged", src), ("one", changed), (None, src), ("check", src))
                for name, dsl in figures:
                    cmd = [dslc, "build", dsl, "-o", out] + (["--check"] if name == "check" else [])
                    dt, rss = run(cmd)
                    if name:
                        best[name] = min(best.get(name, 1e9), dt)
                        peaks.append(rss)
                if not lst:
                    lst = floor_list(tmp, out)
                    tj = peer_templates(tmp, out)
            plan, rss4 = run([dslc, "plan", src, "--against", out])
            lint, _ = run([dslc, "lint", src])
            files = sum(len(f) for _, _, f in os.walk(out))
            inventories[n] = os.path.getsize(os.path.join(out, "cluster", "ansible", "inventory.yml"))
            shutil.rmtree(out)
            best["floor"] = min(best.get("floor", 1e9), floor_time(tmp, lst, floor))
            peer = peer_time(tmp, tj, n)
            flo, cold, unchanged, one, check = (best[k] for k in ("floor", "cold", "unchanged", "one", "check"))
            row = [n, files, f"{flo:.3f}", f"{cold:.3f}", f"{unchanged:.3f}", f"{one:.3f}", f"{check:.3f}", f"{plan:.3f}",
                   f"{lint:.3f}", f"{peer:.3f}" if peer else "-", f"{cold / flo:.2f}", f"{unchanged / cold:.2f}",
                   f"{one / unchanged:.2f}", f"{check / cold:.2f}", f"{plan / check:.2f}",
                   f"{peer / cold:.2f}" if peer else "-", f"{max(peaks) / n:.1f}", f"{rss4 / n:.1f}"]
            print(" ".join(f"{c:>11}" for c in row), flush=True)
    print(f"Each time is the best of {REPS} runs (BENCH_REPS), the floor's interleaved with dslc's.")
    print("floor: tests/bench/floor.c writing the same files (one open/write/close each); cold: first build;")
    print("unchanged: the same build again; 1-node: one more node block (changed.dsl); check: build --check;")
    print("plan: dslc plan against the tree (no change); peer: ../shared/peers/jinja2/render_equal.py, the same")
    print("14 files per node byte for byte (- when absent); KiB/node: the largest RSS of the builds and --check")
    print("per node; plan KiB/n: dslc plan's (through the tree's cache: unchanged nodes are not read).")
    print("Issue 14's bars: cold/floor <= 1.3, unch/cold <= 0.3, 1-node/unch <= 1.1, < 4 KiB/node.")
    print("The Ansible inventory (cluster/ansible/inventory.yml, issue 72), part of every cold build above and of the")
    print("floor's files: " + ", ".join(f"{n} nodes {b / 1e6:.1f} MB" for n, b in inventories.items()) + ".")
    with tempfile.TemporaryDirectory() as tmp:
        hostile_inputs(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        manifest_reads(tmp, 4096)


def manifest_reads(tmp, n):
    """Issue 54 item 12: a tree's manifest.json read without its cache (the
    cache vouches for a tree dslc left; a copied tree has none), as it is and
    padded with a 50 MB list: read an entry at a time, the padding stepped
    over, never one jansson tree."""
    src, _ = scenario(tmp, n)
    out = os.path.join(tmp, "out")
    subprocess.run([DSLC, "build", src, "-o", out], capture_output=True, check=True)
    os.unlink(out + ".dslc-cache")
    man = os.path.join(out, "manifest.json")
    size = os.path.getsize(man)
    print(f"\n{'manifest.json read (no cache), ' + str(n) + ' nodes':<44} {'MB':>6} {'plan s':>7} {'plan MiB':>9} {'build s':>8} {'build MiB':>10}")
    for name in ("as written", "padded with a 50 MB list"):
        if name != "as written":
            text = open(man).read()
            pad = '  "padding": [' + ",".join(["1234567"] * (50 * 1024 * 1024 // 8)) + "],\n"
            open(man, "w").write(text.replace('  "files": [', pad + '  "files": [', 1))
        mb = os.path.getsize(man) / 1e6
        pdt, prss = run([DSLC, "plan", src, "--against", out])
        if os.path.exists(out + ".dslc-cache"):
            os.unlink(out + ".dslc-cache")
        saved = open(man).read()
        bdt, brss = run([DSLC, "build", src, "-o", out])
        if os.path.exists(out + ".dslc-cache"):
            os.unlink(out + ".dslc-cache")
        open(man, "w").write(saved)  # the build rewrote it: the padded one again for the next row
        print(f"{name:<44} {mb:>6.1f} {pdt:>7.2f} {prss / 1024:>9.1f} {bdt:>8.2f} {brss / 1024:>10.1f}")
    print(f"(manifest as written: {size / 1e6:.1f} MB. Before issue 54 it was parsed whole into one jansson tree: the padded one,")
    print(" at 1,000 nodes, 286 MiB and 1.3 s where it is now 14 MiB and 0.4 s)")


if __name__ == "__main__":
    main()
