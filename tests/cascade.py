#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""One mistake, one finding (issue 55, item 1): every value of every statement
of the examples and of the rule fixtures (tests/golden/diag) is corrupted in
turn, and lint must then report the error at that value and nothing new
anywhere else: no finding that depends on the corrupted value (checksum-off
after `checksum crc33`, rd-fac-zero after `tolerate 2 rack failures`, an
unknown NIC after a broken numa block, a smaller fleet after a broken nodes
line). Findings that go away are fine: they wait for the error's fix.

A corruption that leaves the line valid (a host range renamed, a number that
is still in range) is not a mistake and is only counted.

make check corrupts each value once, with the two corruptions taken in turn
(the next value gets the other: every statement still meets both); --full
corrupts each value both ways (tests/mutate.sh, `make cascade`).

usage: cascade.py DSLC [--fixtures N] [--full] (N: how many rule fixtures, default all)"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORRUPTIONS = ["zz9", "-7"]
TOKEN = re.compile(r'"[^"]*"|[^\s{}\[\],#"]+')


def lint(dslc, cwd, name):
    p = subprocess.run(dslc.split() + ["lint", "--format", "json", name], cwd=cwd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)["findings"]
    except (ValueError, KeyError):
        return [{"ruleId": "no-json", "line": 0, "severity": "error", "message": (p.stdout + p.stderr)[-300:]}]


def key(f):
    return (f["ruleId"], f.get("file"), f["line"], f.get("message"))


def keys(f):
    """A finding's key, and one for each further case it names in a note
    ("also: ..."): the same mistake at that place, which becomes the finding's
    own message when the first case goes away."""
    out = [key(f)]
    for n in f.get("notes") or []:
        m = re.match(r"also(?:, for [^:]*)?: (.*)$", n.get("message", ""), re.S)
        if m:
            out.append((f["ruleId"], f.get("file"), f["line"], m.group(1)))
    return out


def code_tokens(line):
    """The values of a line: every token after its first word, outside comments and strings' insides."""
    code = line.split("#", 1)[0] if '"' not in line else line
    if '"' in line:  # a '#' inside a string is not a comment
        out, q = [], False
        for i, ch in enumerate(line):
            if ch == '"':
                q = not q
            if ch == "#" and not q:
                code = line[:i]
                break
    toks = list(TOKEN.finditer(code))
    return toks[1:]


def check_file(dslc, tmp, rel, main, counts, fails, full):
    path = os.path.join(tmp, rel)
    orig = open(path).read()
    cwd = os.path.dirname(os.path.join(tmp, main))
    name = os.path.basename(main)
    base = {k for f in lint(dslc, cwd, name) for k in keys(f)}
    if any(k[0] == "no-json" for k in base):
        fails.append("%s: lint gave no JSON" % main)
        return
    lines = orig.split("\n")
    relname = os.path.relpath(path, cwd)
    turn = 0
    for i, ln in enumerate(lines):
        for m in code_tokens(ln):
            turn += 1
            for bad in CORRUPTIONS if full else [CORRUPTIONS[turn % 2]]:
                if m.group() == bad:
                    continue
                new = lines[:]
                new[i] = ln[:m.start()] + bad + ln[m.end():]
                with open(path, "w") as f:
                    f.write("\n".join(new))
                got = lint(dslc, cwd, name)
                extra = [f for f in got if key(f) not in base]
                here = [f for f in extra if f["severity"] == "error" and f["line"] == i + 1 and f.get("file") == relname]
                if not here:
                    counts["valid"] += 1
                    continue
                counts["mistakes"] += 1
                other = [f for f in extra if f not in here]
                if other:
                    fails.append("%s:%d: %r -> %r: %s at the value, and %s" % (
                        rel, i + 1, m.group(), bad, here[0]["ruleId"],
                        "; ".join("%s:%s %s[%s] %s" % (f.get("file"), f["line"], f["severity"], f["ruleId"],
                                                        f["message"][:90]) for f in other[:3])))
    with open(path, "w") as f:
        f.write(orig)


def main():
    args = sys.argv[1:]
    nfix = None
    if "--fixtures" in args:  # the options, then DSLC wherever it is (tests/mutate.sh appends it)
        i = args.index("--fixtures")
        nfix = int(args[i + 1])
        del args[i:i + 2]
    full = "--full" in args
    if full:
        args.remove("--full")
    if len(args) != 1:
        sys.exit(__doc__)
    dslc = " ".join(os.path.abspath(w) if os.path.exists(w) else w for w in args[0].split())
    tmp = tempfile.mkdtemp(prefix="dslc-cascade-")
    failed = 0
    try:
        shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(tmp, "examples"))
        shutil.copytree(os.path.join(ROOT, "tests/golden/diag"), os.path.join(tmp, "tests/golden/diag"))
        shutil.copytree(os.path.join(ROOT, "tests/topologies"), os.path.join(tmp, "tests/topologies"))
        cases = []
        for ex in sorted(os.listdir(os.path.join(tmp, "examples"))):
            d = os.path.join("examples", ex)
            if not os.path.exists(os.path.join(tmp, d, "cluster.dsl")):
                continue
            for f in sorted(os.listdir(os.path.join(tmp, d))):
                if f.endswith(".dsl"):
                    cases.append((os.path.join(d, f), os.path.join(d, "cluster.dsl")))
        fixtures = sorted(f for f in os.listdir(os.path.join(tmp, "tests/golden/diag")) if f.endswith(".dsl")
                          and not f.startswith("include"))
        if nfix is not None:  # a spread of rule kinds, the same every run
            fixtures = sorted(fixtures, key=lambda f: zlib.crc32(f.encode()))[:nfix]
        cases += [(os.path.join("tests/golden/diag", f),) * 2 for f in fixtures]
        for rel, main_file in cases:
            counts = {"mistakes": 0, "valid": 0}
            fails = []
            check_file(dslc, tmp, rel, main_file, counts, fails, full)
            failed += len(fails)
            if fails:
                for f in fails:
                    print("FAIL %s" % f)
            else:
                print("ok %s: %d corrupted values, each reported at its line and nothing else new (%d corruptions "
                      "still valid)" % (rel, counts["mistakes"], counts["valid"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
