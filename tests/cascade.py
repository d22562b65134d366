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

Then the pairs (issue 71, item 1): each corrupted value that gave an error
is corrupted again together with the next N on other lines of its top-level
statement and one further away in it (--pairs N, default 1; 0 for none), and
every error each gave alone must be reported unchanged: an error waits only
for the error its check read, never for one its checker happened to visit
first.

usage: cascade.py DSLC [--fixtures N] [--full] [--pairs N] (N: how many rule fixtures, default all)"""
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


LAST_HELD = [0]


def lint(dslc, cwd, name):
    p = subprocess.run(dslc.split() + ["lint", "--format", "json", name], cwd=cwd, capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout)
        LAST_HELD[0] = doc["summary"].get("held", 0)
        return doc["findings"]
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


def check_file(dslc, tmp, rel, main, counts, fails, full, pairs):
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
    singles = []
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
                singles.append((i, m.start(), m.end(), bad, here))
                other = [f for f in extra if f not in here]
                if other:
                    fails.append("%s:%d: %r -> %r: %s at the value, and %s" % (
                        rel, i + 1, m.group(), bad, here[0]["ruleId"],
                        "; ".join("%s:%s %s[%s] %s" % (f.get("file"), f["line"], f["severity"], f["ruleId"],
                                                        f["message"][:90]) for f in other[:3])))
    check_pairs(dslc, path, orig, cwd, name, relname, rel, singles, counts, fails, pairs)
    with open(path, "w") as f:
        f.write(orig)


# Rules that report a name no statement defines: one of these waits, rightly,
# when the other mistake is in the statement that defines names (a hardware's,
# a profile's, a host list); every other error at a value stands alone.
REFERENCES = {"unknown-name", "access-points-unknown"}
# Errors found while the text is read (before any statement is resolved): a
# file with one is not resolved at all, so the other mistake's error is not
# looked for (SPEC.md, "One mistake, one finding").
PARSE_RULES = {"syntax", "include", "limit", "io-error"}
# Rules that read a node type as a whole: the engines placement makes (which
# NUMA nodes get one is placement's decision), the hardware's NICs as one set
# for NCCL. A node type with another error is not placed or resolved, so they
# wait for it. Known and said in SPEC.md ("One mistake, one finding").
PLACED_RELATIONS = {"engine-duplicate", "nccl-hca"}


def pair_of(singles, k, pairs, tops):
    """The mistakes corrupted together with mistake k: the next ones on other
    lines of its top-level statement (whose checks visit its lines in any
    order) and one further away in it, chosen by its position so every run
    takes the same. Across statements a name one defines is an input of the
    other: that is the cascade's other half, checked by the single pass."""
    i = singles[k][0]
    later = [j for j in range(k + 1, len(singles)) if singles[j][0] != i and tops[singles[j][0]] == tops[i]]
    chosen = later[:pairs]
    if len(later) > pairs:
        chosen.append(later[pairs + zlib.crc32(b"%d" % k) % (len(later) - pairs)])
    return chosen


def structure(lines):
    """For each line, the lines whose blocks hold it (when such a line is
    wrong, an unknown block keyword, what its block says is not read at all,
    which is no held finding) and the top-level statement it is in (the line
    that starts it)."""
    stack, out, tops, top = [], [], [], -1
    for i, ln in enumerate(lines):
        code = re.sub(r'"[^"]*"', "", ln).split("#", 1)[0]
        if not stack and code.strip():
            top = i
        out.append(set(stack))
        tops.append(top)
        for ch in code:
            if ch == "{":
                stack.append(i)
            elif ch == "}" and stack:
                stack.pop()
    return out, tops


def check_pairs(dslc, path, orig, cwd, name, relname, rel, singles, counts, fails, pairs):
    """Issue 71, item 1: causality, not order, decides what waits. Two
    mistakes on different lines, together: each error that one of them gives
    alone at its value is reported unchanged (an unknown name excepted, whose
    definition the other may have broken), and nothing waits that does not
    depend on the other (the daos line excepted: every check reads it; and a
    hardware's topology line: every device check reads the export)."""
    if not pairs:
        return
    lines = orig.split("\n")
    held_in, tops = structure(lines)
    for k in range(len(singles)):
        for j in pair_of(singles, k, pairs, tops):
            a, b = singles[k], singles[j]
            if any(lines[x[0]].split()[:1] in (["daos"], ["topology"]) for x in (a, b)):
                continue  # what every check reads: the release's tables; a hardware's export, for its devices
            if a[0] in held_in[b[0]] or b[0] in held_in[a[0]]:
                continue
            if any(f["ruleId"] in PARSE_RULES for x in (a, b) for f in x[4]):
                continue  # the file is not read past a syntax error: nothing is resolved
            new = lines[:]
            for x in (a, b):  # on two lines (pair_of): neither edit moves the other
                ln = new[x[0]]
                new[x[0]] = ln[:x[1]] + x[3] + ln[x[2]:]
            with open(path, "w") as f:
                f.write("\n".join(new))
            got = {key(f) for f in lint(dslc, cwd, name)}
            held = LAST_HELD[0]
            counts["pairs"] += 1
            for x, y in ((a, b), (b, a)):
                # a line the finding points at in a note is one its check read
                # (two NICs on one RDMA device, a PCI address described twice)
                lost = [f for f in x[4] if f["ruleId"] not in REFERENCES | PLACED_RELATIONS and key(f) not in got and
                        not any(n.get("file") == f.get("file") and n.get("line") == y[0] + 1
                                for n in f.get("notes") or [])]
                if lost:
                    fails.append("%s:%d and :%d corrupted together: %s[%s] %r, reported with the first alone, "
                                 "is %s" % (rel, x[0] + 1, y[0] + 1, lost[0]["severity"], lost[0]["ruleId"],
                                            lost[0]["message"][:90], "held back or missing (%d held)" % held))


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
    pairs = 1
    if "--pairs" in args:
        i = args.index("--pairs")
        pairs = int(args[i + 1])
        del args[i:i + 2]
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
            counts = {"mistakes": 0, "valid": 0, "pairs": 0}
            fails = []
            check_file(dslc, tmp, rel, main_file, counts, fails, full, pairs)
            failed += len(fails)
            if fails:
                for f in fails:
                    print("FAIL %s" % f)
            else:
                print("ok %s: %d corrupted values, each reported at its line and nothing else new (%d corruptions "
                      "still valid); %d pairs on two lines, each error as alone" % (
                          rel, counts["mistakes"], counts["valid"], counts["pairs"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
