#!/usr/bin/python3
"""make bench: dslc's build and lint figures on N-node variants of the
reference example (wall time, peak memory), cold and unchanged rebuilds.
Figures come from this script only, never from timed unit tests.
Cold builds create 3 directories and 2 files per node: on a slow disk the
file system's inode creation, not dslc, dominates (compare TMPDIR=/dev/shm).
usage: bench.py DSLC [N...]"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

DSLC = None
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EX = os.path.join(ROOT, "examples", "hgx-b200")


def variant(tmp, n):
    d = os.path.join(tmp, f"n{n}")
    os.makedirs(d)
    for f in ("hardware.dsl", "hgx-b200.xml"):
        shutil.copy(os.path.join(EX, f), d)
    w = len(str(n))
    src = open(os.path.join(EX, "cluster.dsl")).read()
    src = src.replace("gpu[001-014]", f"gpu[{1:0{w}d}-{n:0{w}d}]")
    src = src.replace("gpu[001-003]", f"gpu[{1:0{w}d}-{3:0{w}d}]")
    src = src.replace("node gpu007", f"node gpu{7:0{w}d}")
    src = re.sub(r"\.0\.\{10\+i\}", ".{i/200}.{10+i%200}", src)
    open(os.path.join(d, "cluster.dsl"), "w").write(src)
    return os.path.join(d, "cluster.dsl")


def run(cmd, ok=(0,)):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True)
    dt = time.perf_counter() - t
    if r.returncode not in ok:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{r.stderr.decode()}")
    # ru_maxrss of children is the maximum over all children so far
    rss = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
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


PEER = os.path.join(os.path.dirname(ROOT), "shared", "peers", "jinja2", "render.py")


def peer_time(tmp, n):
    """The template-based peer (../shared/peers/jinja2/render.py) rendering the
    same per-node files, or None when it or jinja2 is missing."""
    if not os.path.exists(PEER) or subprocess.run(["/usr/bin/python3", "-c", "import jinja2"], capture_output=True).returncode:
        return None
    out = os.path.join(tmp, f"peer{n}")
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/python3", PEER, str(n), out], capture_output=True)
    dt = time.perf_counter() - t
    files = sum(len(f) for _, _, f in os.walk(out))
    shutil.rmtree(out, ignore_errors=True)
    return (dt, files) if r.returncode == 0 else None


def main():
    global DSLC
    dslc = DSLC = os.path.abspath(sys.argv[1])
    sizes = [int(a) for a in sys.argv[2:]] or [1000, 4096, 16384]
    print(f"{'nodes':>6} {'files':>6} {'lint s':>7} {'build s':>8} {'rebuild s':>9} {'check s':>8} {'plan s':>7} {'plan/check':>10} {'plan 1 s':>8} {'peak MiB':>9} {'KiB/node':>9} {'peer s':>8} {'peer/dslc':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        fs = subprocess.run(["stat", "-f", "-c", "%T", tmp], capture_output=True, text=True).stdout.strip()
        print(f"(output in {tmp}, a {fs} file system; set TMPDIR to measure another, e.g. TMPDIR=/dev/shm)")
        for n in sizes:
            src = variant(tmp, n)
            out = os.path.join(tmp, f"out{n}")
            lint, _ = run([dslc, "lint", src])
            build, rss = run([dslc, "build", src, "-o", out])
            rebuild, rss2 = run([dslc, "build", src, "-o", out])
            check, _ = run([dslc, "build", src, "-o", out, "--check"])
            # dslc plan against the tree it just built (no change, exit 0), and
            # with one cluster-wide change (log_mask: every node, one group, exit 3)
            plan, rss3 = run([dslc, "plan", src, "--against", out])
            changed = src.replace("cluster.dsl", "changed.dsl")
            open(changed, "w").write(open(src).read().replace("log_mask      ERR", "log_mask      DEBUG"))
            plan1, rss4 = run([dslc, "plan", changed, "--against", out, "--format", "markdown"], ok=(3,))
            files = sum(len(f) for _, _, f in os.walk(out))
            peak = max(rss, rss2, rss3, rss4)
            shutil.rmtree(out)
            peer = peer_time(tmp, n)
            ratio = f"{peer[0] / build:>9.1f}" if peer else f"{'-':>9}"
            peer_s = f"{peer[0]:>8.3f}" if peer else f"{'-':>8}"
            print(f"{n:>6} {files:>6} {lint:>7.3f} {build:>8.3f} {rebuild:>9.3f} {check:>8.3f} {plan:>7.3f} {plan / check:>10.2f} {plan1:>8.3f} {peak / 1024:>9.1f} {peak / n:>9.1f} {peer_s} {ratio}")
    print("peak MiB is the largest child RSS so far (monotonic); KiB/node divides it by the node count")
    print("check: build --check of the unchanged tree; plan: dslc plan against it (no change); plan/check: the issue-13 bar is 1.5;")
    print("plan 1: plan --format markdown of a log_mask change on every node (one group)")
    print("peer: ../shared/peers/jinja2/render.py rendering the same per-node artifacts, no checks (- when absent)")
    with tempfile.TemporaryDirectory() as tmp:
        hostile_inputs(tmp)


if __name__ == "__main__":
    main()
