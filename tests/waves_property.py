#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Property test of the plan's rollout waves (issue 27): random fault-domain
layouts, random sets of nodes whose engines restart, and the limits computed
here, from the description's own numbers, never from dslc's:

  nodes per wave  <= max(1, rd_fac - 1) for rd_lvl node, max(1, (rd_fac - 1)
                     // engines per node) for rd_lvl rank, over every
                     container; <= max(1, the nodes a pool service loses and
                     keeps its majority) over every pool: DAOS spreads the
                     2 svc_rf + 1 replicas node by node (src/pool/srv_util.c
                     add_replicas), r // n or r // n + 1 on each of n nodes,
                     and the worst failures take the fullest; <= --max-wave
  access points   <= max(1, (access points - 1) // 2) per wave, and their
                     waves come after every other wave
  every changed server in exactly one wave, no other node in any

usage: waves_property.py DSLC [--count N] [--seed S]"""
import json
import os
import random
import subprocess
import sys
import tempfile


def layout(rng):
    n = rng.randint(3, 30)
    hosts = ["s%02d" % (i + 1) for i in range(n)]
    numa = rng.choice([1, 2])
    naps = rng.choice([1, 3, 3, 5]) if n >= 5 else rng.choice([1, 3])
    aps = sorted(rng.sample(hosts, naps))
    pools = [(("p%d" % k), rng.randint(0, 3)) for k in range(rng.randint(1, 2))]
    conts = [(("c%d" % k), rng.choice(pools)[0], rng.randint(0, 4), rng.choice(["node", "rank"]))
             for k in range(rng.randint(0, 3))]
    numas = "".join("  numa %d { nic eth%d pci 0000:0%d:00.0\n           nvme 0000:%d1:00.0 }\n" % (k, k, k + 1, k + 1)
                    for k in range(numa))
    text = ("daos 2.6\ncluster c {\n  provider \"ofi+tcp\"\n  access_points %s\n}\n"
            "hardware h {\n  sockets %d\n  cores_per_socket 16\n  memory_per_numa 256GiB\n%s}\n"
            "profile p : h {\n  engine per numa { targets 4 helpers 0 scm ram 16GiB }\n}\n"
            "nodes s[01-%02d] : p\n" % (", ".join(aps), numa, numas, n))
    for name, rf in pools:
        text += "pool %s { size 10%% svc_rf %d }\n" % (name, rf)
    for name, pool, rd, lvl in conts:
        text += "container %s in %s { type posix rd_fac %d rd_lvl %s checksum crc32 server }\n" % (name, pool, rd, lvl)
    changed = sorted(rng.sample(hosts, rng.randint(1, n)))
    new = text + "".join("node %s { env DSLC_WAVE=1 }\n" % h for h in changed)
    return text, new, dict(hosts=hosts, numa=numa, aps=aps, pools=pools, conts=conts, changed=changed)


def expand(hl):
    """gpu[001-003,007] and plain names, comma-separated outside brackets."""
    out, depth, cur, parts = [], 0, "", []
    for ch in hl:
        if ch == "," and not depth:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
    parts.append(cur)
    for p in parts:
        if "[" not in p:
            out.append(p)
            continue
        pre, rng_ = p.split("[", 1)
        for r in rng_.rstrip("]").split(","):
            a, _, b = r.partition("-")
            for i in range(int(a), int(b or a) + 1):
                out.append(pre + str(i).zfill(len(a)))
    return out


def limits(L, max_wave):
    size = 1 << 20
    for _, _, rd, lvl in L["conts"]:
        dom = max(1, rd - 1)
        size = min(size, dom if lvl == "node" else max(1, dom // L["numa"]))
    n = len(L["hosts"])
    for _, rf in L["pools"]:
        r = 2 * rf + 1
        base, extra = divmod(r, n)
        lost = lambda k: k * (base + 1) if k <= extra else extra * (base + 1) + (k - extra) * base
        survive = max([k for k in range(n + 1) if lost(k) <= rf])
        size = min(size, max(1, survive))
    if max_wave:
        size = min(size, max_wave)
    naps = len(L["aps"])
    return size, (naps - 1) // 2 if naps > 2 else 1


def main(argv):
    dslc = os.path.abspath(argv[0])
    count = int(argv[argv.index("--count") + 1]) if "--count" in argv else 150
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 27
    rng = random.Random(seed)
    tmp = tempfile.mkdtemp(prefix="dslc-waves-")
    fails, checked, skipped, waves_seen = [], 0, 0, 0
    for k in range(count):
        old, new, L = layout(rng)
        max_wave = rng.choice([0, 0, 0, 1, 2, 3])
        a, b = os.path.join(tmp, "a.dsl"), os.path.join(tmp, "b.dsl")
        open(a, "w").write(old)
        open(b, "w").write(new)
        args = [dslc, "plan", b, "--against-source", a, "--format", "json"] + (["--max-wave", str(max_wave)] if max_wave else [])
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode not in (0, 1, 3, 4):
            fails.append("layout %d: plan crashed (exit %d): %s" % (k, r.returncode, r.stderr[-300:]))
            continue
        if r.returncode == 1:  # a layout dslc refuses (its findings): not a wave case
            skipped += 1
            continue
        checked += 1
        ro = json.loads(r.stdout)["rollout"]
        size, ap_size = limits(L, max_wave)
        seen, ap_phase, why = [], False, None
        if ro["wave_size"] != size:
            why = "wave_size %d, expected %d" % (ro["wave_size"], size)
        for w in ro["waves"]:
            hs = expand(w["hosts"])
            waves_seen += 1
            naps = sum(h in L["aps"] for h in hs)
            if len(hs) > size:
                why = "a wave of %d nodes (%s), limit %d" % (len(hs), w["hosts"], size)
            if naps > ap_size:
                why = "%d access points in one wave (%s), limit %d" % (naps, w["hosts"], ap_size)
            if ap_phase and not naps:
                why = "a wave without access points (%s) after one with" % w["hosts"]
            ap_phase |= naps > 0
            seen += hs
        if sorted(seen) != L["changed"]:
            why = "waves hold %s, changed %s" % (sorted(seen), L["changed"])
        if why:
            fails.append("layout %d (%d nodes, aps %s, pools %s, containers %s, --max-wave %s): %s"
                         % (k, len(L["hosts"]), L["aps"], L["pools"], L["conts"], max_wave, why))
    ok = not fails and checked >= count // 2
    print("%s waves-property %d random layouts: %d planned (%d waves checked), %d refused by dslc's rules, %d broke a limit"
          % ("ok  " if ok else "FAIL", count, checked, waves_seen, skipped, len(fails)))
    for f in fails[:10]:
        print("  " + f)
    print("waves-property: %d passed, %d failed" % (1 if ok else 0, 0 if ok else 1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
