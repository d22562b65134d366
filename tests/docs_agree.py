#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The rollout script's environment, the same in every place a user reads it
(issue 71): the variables the generated script itself reads (its
${DSLC_X:-default} and ${DSLC_X:?...} lines, from the shell functions
compiled into it), the ones its header names with their defaults, dslc(1)'s
ENVIRONMENT and SPEC.md. A variable added to the shell code and not to
compiler/plan/rollout_env.c, or a default changed in one place only, fails.
Also dslc(1)'s FILES name .dslc-lint.

usage: tests/docs_agree.py DSLC
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DSLC = [os.path.abspath(a) if "/" in a and os.path.exists(a) else a for a in shlex.split(sys.argv[1])]
passed = failed = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   docs {name}")
    else:
        failed += 1
        print(f"FAIL docs {name}{': ' + str(detail)[:1500] if detail else ''}")


def script(tmp, example, change):
    """The rollout script of a one-line change to an example."""
    d = os.path.join(tmp, example)
    shutil.copytree(os.path.join(REPO, "examples", example), d)
    shutil.copytree(os.path.join(REPO, "examples", "hgx-b200"), os.path.join(tmp, "hgx-b200"), dirs_exist_ok=True)
    old = os.path.join(d, "cluster.dsl")
    text = open(old).read()
    new = os.path.join(d, "new.dsl")
    open(new, "w").write(text.replace(*change))
    p = subprocess.run(DSLC + ["plan", new, "--against-source", old, "--format", "script"], capture_output=True,
                       text=True)
    return p.stdout


def read_by_script(text):
    """{variable: default or None (required)} the script's own code reads."""
    out = {}
    for m in re.finditer(r"\$\{(DSLC_[A-Z_]+):([-?])([^}]*)\}", text):
        name, kind, val = m.groups()
        if not text[m.start() - len(name) - 1:m.start()] == name + "=" and kind == "-":
            continue  # a use with a fallback, not the default the script sets
        # NAME=${NAME:-}: optional, with no default (as a required one has none)
        out.setdefault(name, (val or None) if kind == "-" else None)
    return out


def header(text):
    """{variable: default or None} of the header's environment list."""
    out = {}
    for m in re.finditer(r"^#   (DSLC_[A-Z_]+)(?: \(([^):]*)[^)]*\))?: ", text, re.M):
        out[m.group(1)] = m.group(2)
    return out


with tempfile.TemporaryDirectory() as tmp:
    plain = script(tmp, "hgx-b200", ("swim_suspect_timeout 120s", "swim_suspect_timeout 60s"))
    kube = script(tmp, "hgx-b200-k8s", ("swim_suspect_timeout 120s", "swim_suspect_timeout 60s"))
    result(plain.startswith("#!/bin/sh") and kube.startswith("#!/bin/sh"), "both rollout scripts written",
           (plain[:200], kube[:200]))
    man = subprocess.run(DSLC + ["manpage", "dslc"], capture_output=True, text=True).stdout
    env = man.split(".SH ENVIRONMENT", 1)[-1].split(".SH FILES", 1)[0]
    files = man.split(".SH FILES", 1)[-1].split(".SH EXAMPLES", 1)[0]
    man_vars = {}
    for m in re.finditer(r"^\.B (DSLC_[A-Z_]+)\n(.*)$", env, re.M):
        d = re.search(r"; default (\S+)$", m.group(2))
        man_vars[m.group(1)] = d.group(1).replace("\\-", "-") if d else None  # roff writes a hyphen-minus as \-
    spec = open(os.path.join(REPO, "SPEC.md")).read()

    for name, text in (("without pods", plain), ("in pods", kube)):
        code, head = read_by_script(text), header(text)
        result(set(code) == set(head) and len(code) >= 8,
               f"{name}: the header names exactly the {len(code)} variables the script reads",
               {"not in the header": sorted(set(code) - set(head)), "not read": sorted(set(head) - set(code))})
        bad = {k: (code[k], head[k]) for k in set(code) & set(head) if code[k] != head[k]}
        result(not bad, f"{name}: every default in the header is the one the script sets", bad)
        missing = sorted(set(code) - set(man_vars))
        result(not missing, f"{name}: dslc(1)'s ENVIRONMENT has every variable the script reads", missing)
        bad = {k: (code[k], man_vars[k]) for k in set(code) & set(man_vars)
               if k != "DSLC_REBUILD_TIMEOUT" and code[k] != man_vars[k]}
        result(not bad, f"{name}: dslc(1)'s defaults are the script's", bad)
        missing = sorted(k for k in code if not re.search(r"`%s`" % k, spec))
        result(not missing, f"{name}: SPEC.md names every variable the script reads", missing)
    extra = sorted(set(man_vars) - set(read_by_script(plain)) - set(read_by_script(kube)))
    result(not extra, "dslc(1) names no rollout variable the scripts do not read", extra)
    result(re.search(r"^\.I (\\&)?\.dslc\\-lint$", files, re.M) is not None, "dslc(1)'s FILES name .dslc-lint",
           files[:400])
print(f"docs: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
