#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Differential test of pool ACLs (issue 25): dslc's verdict on `acl`
entries against DAOS's own ACL parser.

tests/oracle/daos_acl holds DAOS's src/common/acl_api.c, acl_util.c and
acl_principal.c (release/2.6, unchanged, with DAOS's licence) and a shim of
the few gurt macros they use; acl_oracle.c feeds each ACL to
daos_acl_from_strs, what the pool service runs on the strings dmg sends from
--acl-file. This builds it, generates ACLs of 1 to 3 entries from the
pieces of the short form and their typos (types, flags, principals,
permissions, missing and extra fields, the same principal twice), lints a
pool with each, and compares: dslc must report `pool-acl` exactly when DAOS
refuses the ACL. Every accepted ACL is built, and its cluster/acl file must
hold the entries, one per line.

usage: acl_diff.py DSLC [--count N] [--seed S]
Without a C compiler it says `skipped`."""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from dsl_cluster import three_nodes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE_SRC = os.path.join(ROOT, "tests", "oracle", "daos_acl")

TYPES = ["A"] * 12 + ["U", "L", "AU", "AL", "UL", "", "X", "a"]
FLAGS = [""] * 8 + ["G", "S", "F", "P", "GS", "SF", "GP", "GF", "Q", "g"]
NAMES = ["OWNER@", "GROUP@", "EVERYONE@", "alice@", "alice@example.com", "ml@", "ml-team@lab"] * 3 + [
         "@x", "alice", "a@b@c", "owner@", "EVERYONE@x", "x@"]
PERMS = ["r", "rw", "rwcdt", "rwcd"] * 3 + ["", "rT", "aAo", "rwcdtTaAo", "x", "R", "rr"]



def ace(rng):
    fields = [rng.choice(TYPES), rng.choice(FLAGS), rng.choice(NAMES), rng.choice(PERMS)]
    # a group principal usually carries G: most generated entries should be valid
    if fields[2] in ("GROUP@", "ml@", "ml-team@lab") and rng.random() < 0.7 and "G" not in fields[1]:
        fields[1] += "G"
    if fields[0] in ("U", "L") and rng.random() < 0.6:
        fields[1] += "S"
    r = rng.random()
    if r < 0.05:
        fields.pop(rng.randrange(4))
    elif r < 0.10:
        fields.append(rng.choice(PERMS))
    return ":".join(fields)


def build_oracle(tmp):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc or not os.path.isdir(ORACLE_SRC):
        return None
    exe = os.path.join(tmp, "acl_oracle")
    srcs = [os.path.join(ORACLE_SRC, f) for f in ("acl_oracle.c", "acl_api.c", "acl_util.c", "acl_principal.c")]
    subprocess.run([cc, "-std=gnu11", "-w", "-I" + os.path.join(ORACLE_SRC, "shim"), "-I" + ORACLE_SRC, "-o", exe] + srcs,
                   check=True)
    return exe


def main():
    dslc = os.path.abspath(sys.argv[1])
    count = int(sys.argv[sys.argv.index("--count") + 1]) if "--count" in sys.argv else 400
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 25
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        oracle = build_oracle(tmp)
        if not oracle:
            print("skip acl-diff: no C compiler, or tests/oracle/daos_acl is missing")
            return 0
        cases = []
        for _ in range(count):
            n = rng.choice([1, 1, 2, 3])
            entries = [ace(rng) for _ in range(n)]
            if n > 1 and rng.random() < 0.1:
                entries[-1] = entries[0]  # a principal twice
            cases.append(entries)
        verdicts = subprocess.run([oracle], input="".join("\t".join(c) + "\n" for c in cases), capture_output=True,
                                  text=True, check=True).stdout.split()
        failures, accepted = [], 0
        src = os.path.join(tmp, "acl.dsl")
        # every ACL on the pool; every fourth also on a container, which
        # `daos container create --acl-file` parses the same way (issue 38)
        runs = [(e, v, "pool") for e, v in zip(cases, verdicts)] + \
               [(e, v, "container") for e, v in list(zip(cases, verdicts))[::4]]
        for entries, verdict, kind in runs:
            aces = " ".join('"%s"' % e for e in entries)
            with open(src, "w") as f:
                if kind == "pool":
                    f.write(three_nodes(tail='pool tank {\n  size 10%%\n  svc_rf 1\n  acl %s\n}\n' % aces))
                else:
                    f.write(three_nodes(tail='pool tank {\n  size 10%%\n  svc_rf 1\n}\n'
                                             'container c1 in tank {\n  type posix\n  acl %s\n}\n' % aces))
            rule = kind + "-acl"
            lint = subprocess.run([dslc, "lint", src], capture_output=True, text=True)
            out = lint.stdout + lint.stderr
            if lint.returncode not in (0, 1):
                failures.append("%s: dslc lint exit %d" % (entries, lint.returncode))
                continue
            errors = set(re.findall(r"error\[([a-z0-9-]+)\]", out))
            if errors - {rule}:
                failures.append("%s (%s): other errors %s" % (entries, kind, sorted(errors)))
            dslc_ok = rule not in errors
            if dslc_ok != (verdict == "ok"):
                failures.append("%s (%s): dslc %s, DAOS %s\n%s" % (entries, kind, "accepts" if dslc_ok else "refuses", verdict,
                                                              out[:400]))
                continue
            if not dslc_ok:
                continue
            accepted += 1
            out_dir = os.path.join(tmp, "out")
            b = subprocess.run([dslc, "build", src, "-o", out_dir], capture_output=True, text=True)
            acl_file = os.path.join(out_dir, "cluster", "acl", "tank.acl" if kind == "pool" else "tank/c1.acl")
            lines = []
            if b.returncode == 0 and os.path.exists(acl_file):
                with open(acl_file) as f:
                    lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
            if lines != entries:
                failures.append("%s: built %s (exit %d)" % (entries, lines, b.returncode))
        for f in failures[:20]:
            print("FAIL acl_diff " + f)
        if not failures:
            print("ok   acl_diff: dslc reports pool-acl and container-acl exactly where DAOS's daos_acl_from_strs refuses the ACL")
        print("acl_diff: %d ACLs (%d on containers too), %d accepted by DAOS (and built), %d disagreements" % (len(cases), len(runs) - len(cases), accepted,
                                                                                          len(failures)))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
