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


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{r.stderr.decode()}")
    # ru_maxrss of children is the maximum over all children so far
    rss = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return dt, rss


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
    dslc = os.path.abspath(sys.argv[1])
    sizes = [int(a) for a in sys.argv[2:]] or [1000, 4096, 16384]
    print(f"{'nodes':>6} {'files':>6} {'lint s':>7} {'build s':>8} {'rebuild s':>9} {'peak MiB':>9} {'KiB/node':>9} {'peer s':>8} {'peer/dslc':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        fs = subprocess.run(["stat", "-f", "-c", "%T", tmp], capture_output=True, text=True).stdout.strip()
        print(f"(output in {tmp}, a {fs} file system; set TMPDIR to measure another, e.g. TMPDIR=/dev/shm)")
        for n in sizes:
            src = variant(tmp, n)
            out = os.path.join(tmp, f"out{n}")
            lint, _ = run([dslc, "lint", src])
            build, rss = run([dslc, "build", src, "-o", out])
            rebuild, rss2 = run([dslc, "build", src, "-o", out])
            files = sum(len(f) for _, _, f in os.walk(out))
            peak = max(rss, rss2)
            shutil.rmtree(out)
            peer = peer_time(tmp, n)
            ratio = f"{peer[0] / build:>9.1f}" if peer else f"{'-':>9}"
            peer_s = f"{peer[0]:>8.3f}" if peer else f"{'-':>8}"
            print(f"{n:>6} {files:>6} {lint:>7.3f} {build:>8.3f} {rebuild:>9.3f} {peak / 1024:>9.1f} {peak / n:>9.1f} {peer_s} {ratio}")
    print("peak MiB is the largest child RSS so far (monotonic); KiB/node divides it by the node count")
    print("peer: ../shared/peers/jinja2/render.py rendering the same per-node artifacts, no checks (- when absent)")


if __name__ == "__main__":
    main()
