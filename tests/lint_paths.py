#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Per-path settings in .dslc-lint (issue 73): `path "GLOB" { ... }`
sections that disable, enable or re-rank a rule for the files they match
(a lab cluster beside a production one), as ruff's per-file-ignores and
ESLint's overrides do. Held here: the glob's reach (`*` within a name,
`**` across directories, `?`), precedence (the top level, then each
matching section in file order, then the command line), what a section may
not change (an error), a wrong section stopping the run at its line with a
fix, a foreign owner's file not applied, and `--show-settings FILE`.

usage: tests/lint_paths.py DSLC   (DSLC may be "valgrind ... build/dslc")
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
RULE = "numa-pin-dropped"  # a note in the fixture below
passed = failed = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   paths {name}")
    else:
        failed += 1
        print(f"FAIL paths {name}{': ' + str(detail)[:1500] if detail else ''}")


def repo(tmp, settings, files=("clusters/lab/cluster.dsl", "clusters/prod/cluster.dsl", "clusters/lab/old/cluster.dsl",
                               "clusters/edge.dsl")):
    root = tempfile.mkdtemp(dir=tmp)
    text = open(os.path.join(REPO, "tests/golden/diag/pool-acl-perm-letter.dsl")).read()
    text = text.replace('acl "A::OWNER@:rw" "A::alice@:rx"', 'acl "A::OWNER@:rw"')  # the note alone
    for f in files:
        path = os.path.join(root, f)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        hw = os.path.relpath(os.path.join(REPO, "examples/hgx-b200/hardware.dsl"), os.path.dirname(path))
        with open(path, "w") as out:
            out.write(text.replace('include "../../../examples/hgx-b200/hardware.dsl"', f'include "{hw}"'))
    with open(os.path.join(root, ".dslc-lint"), "w") as out:
        out.write("lint {\n  roots " + " ".join(f'"{f}"' for f in files) + "\n" + settings + "}\n")
    return root


def lint(root, *args):
    p = subprocess.run(DSLC + ["lint", "--format", "concise"] + list(args), cwd=root, capture_output=True, text=True)
    found = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^(.*):\d+:\d+: (\w+)\[([a-z0-9-]+)\]", line)
        if m and m.group(3) == RULE:
            found[m.group(1)] = m.group(2)
    return p.returncode, found, p.stderr


def reach(tmp):
    root = repo(tmp, f'  path "clusters/lab/**" {{\n    disable {RULE} "lab nodes share their cores"\n  }}\n'
                     f'  path "clusters/*.dsl" {{\n    severity {RULE} warning\n  }}\n')
    rc, found, err = lint(root)
    result(found == {"clusters/prod/cluster.dsl": "note", "clusters/edge.dsl": "warning"},
           "`**` reaches every directory below lab/, `*` stays within one (prod untouched, edge.dsl re-ranked)", found)
    rc, found, err = lint(root, "--fail-on", "warning")
    result(rc == 1, "a rule a section raises to warning fails --fail-on warning", (rc, found))
    root = repo(tmp, f'  path "clusters/lab/**/cluster.dsl" {{\n    disable {RULE} "lab"\n  }}\n'
                     f'  path "clusters/?dge.dsl" {{\n    disable {RULE} "edge"\n  }}\n')
    rc, found, err = lint(root)
    result(set(found) == {"clusters/prod/cluster.dsl"}, "`**/` matches no directory or several; `?` one character", found)


def precedence(tmp):
    root = repo(tmp, f'  disable {RULE} "off everywhere"\n'
                     f'  path "clusters/**" {{\n    enable {RULE}\n  }}\n'
                     f'  path "clusters/lab/**" {{\n    disable {RULE} "but the lab"\n  }}\n')
    rc, found, err = lint(root)
    result(set(found) == {"clusters/prod/cluster.dsl", "clusters/edge.dsl"},
           "the top level, then each matching section in file order: the later one wins", found)
    rc, found, err = lint(root, "--enable", RULE)
    result(len(found) == 4, "--enable comes after every section", found)
    rc, found, err = lint(root, "--disable", RULE)
    result(found == {}, "--disable comes after every section", found)
    root = repo(tmp, f'  path "clusters/prod/**" {{\n    severity {RULE} error\n  }}\n'
                     f'  path "clusters/prod/*" {{\n    severity {RULE} warning\n  }}\n')
    rc, found, err = lint(root)
    result(found.get("clusters/prod/cluster.dsl") == "warning" and rc == 0,
           "two sections re-rank one file: the later severity", (rc, found))


def wrong(tmp):
    cases = [
        ('  path "clusters/**" {\n    disable first-core-outside-numa "no"\n  }\n', r"first-core-outside-numa is an error",
         "an error rule: a section changes warnings and notes"),
        ('  path "clusters/[ab]/**" {\n    disable numa-pin-dropped "x"\n  }\n', r"is not a glob dslc reads", "brackets"),
        ('  path "../**" {\n    disable numa-pin-dropped "x"\n  }\n', r"is not a glob dslc reads", "a glob leaving the directory"),
        ('  path "clusters/**" {\n    disable numa-pin-dropped\n  }\n', r"needs its reason, quoted", "a disable without its reason"),
        ('  path "clusters/**" {\n    severty numa-pin-dropped error\n  }\n', r"write `severity`", "a misspelt keyword, the right one proposed"),
        ('  path "clusters/**" {\n    severity numa-pin-dropped loud\n  }\n', r"severity takes a rule and error, warning or note", "a severity that is none"),
    ]
    for settings, want, name in cases:
        root = repo(tmp, settings)
        p = subprocess.run(DSLC + ["lint"], cwd=root, capture_output=True, text=True)
        result(p.returncode == 2 and re.search(want, p.stderr) and re.search(r"\.dslc-lint:\d+:\d+:", p.stderr) and
               p.stdout == "", f"refused, exit 2 at its line: {name}", (p.returncode, p.stderr[-400:]))


def foreign_owner(tmp):
    if os.geteuid() != 0:
        print("skip paths a foreign owner's settings: needs root to give the file to another user")
        return
    root = repo(tmp, f'  path "clusters/**" {{\n    disable {RULE} "x"\n  }}\n')
    os.chown(os.path.join(root, ".dslc-lint"), 65534, 65534)
    rc, found, err = lint(root, "clusters/prod/cluster.dsl")
    result("another user owns it" in err and "clusters/prod/cluster.dsl" in found,
           "a .dslc-lint another user owns is not applied: its sections silence nothing", (found, err[-300:]))


def show(tmp):
    root = repo(tmp, f'  fail_on warning\n  path "clusters/lab/**" {{\n    disable {RULE} "lab nodes share their cores"\n  }}\n'
                     f'  path "clusters/*.dsl" {{\n    severity {RULE} warning\n  }}\n')
    p = subprocess.run(DSLC + ["lint", "--show-settings", "clusters/lab/cluster.dsl"], cwd=root, capture_output=True, text=True)
    result(p.returncode == 0 and "fail_on warning  (fail_on)" in p.stdout and
           re.search(rf"{RULE} +off: lab nodes share their cores  \(\.dslc-lint:5, path \"clusters/lab/\*\*\"\)", p.stdout),
           "--show-settings names the rule switched off, its reason and its line", p.stdout)
    p = subprocess.run(DSLC + ["lint", "--show-settings", "clusters/prod/cluster.dsl"], cwd=root, capture_output=True, text=True)
    result(p.returncode == 0 and RULE not in p.stdout, "--show-settings of a file no section matches: none of them", p.stdout)
    p = subprocess.run(DSLC + ["lint", "--show-settings", "clusters/edge.dsl", "--disable", RULE], cwd=root,
                       capture_output=True, text=True)
    result(re.search(rf"{RULE} +off  \(--disable\)", p.stdout), "--show-settings: the command line named last", p.stdout)


with tempfile.TemporaryDirectory() as tmp:
    os.chmod(tmp, 0o755)
    for t in (reach, precedence, wrong, foreign_owner, show):
        t(tmp)
print(f"paths: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
