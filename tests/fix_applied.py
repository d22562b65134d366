#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Every exact fix a golden fixture's findings carry, applied: `dslc lint --fix`
on a copy of the fixtures (never the repository's files), then lint again.
Each fixed finding must be gone and no new error may appear (issue 11: a help
line that proposes a value is tested by applying it; the fixes are the help
lines made exact). Prints ok/FAIL lines and "fix: P passed, F failed".

usage: tests/fix_applied.py DSLC   (DSLC may be "valgrind ... build/dslc")
"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREES = ["tests/golden/diag", "tests/golden/yaml", "tests/golden/fix", "tests/topologies", "examples"]
passed = failed = 0
# Rules whose help names a value only the operator knows: it stays a
# suggestion, never a fix (issue 71: every other "write `...`" help is an
# exact edit the finding carries, checked below over every fixture)
SUGGEST_ONLY = {
    "env-malformed": "the variable's value",
    "kubelet-version": "the kubelet version the nodes run",
    "roce-gid-index": "the GID index the NICs show (show_gids)",
    "suppression-reason": "the operator's reason",
    "nic-wrong-fabric": "whether the port carries DAOS traffic",
    "bios-attribute-name": "the group the BMC's attribute registry gives",
    "k8s-client-topology": "the topology policy or the pod's size, by workload",
    "k8s-containerd-release": "the containerd release the nodes run (containerd --version)",
}


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   fix {name}")
    else:
        failed += 1
        print(f"FAIL fix {name}{': ' + detail if detail else ''}")


def fixtures():
    for d in ("tests/golden/diag", "tests/golden/yaml"):
        for f in sorted(os.listdir(os.path.join(REPO, d))):
            if (f.endswith(".dsl") and not f.endswith("-b.dsl")) or f.endswith(".yml"):
                yield f"{d}/{f}"


def lint_args(path):
    with open(os.path.join(REPO, path), encoding="utf-8", errors="replace") as f:
        first = f.readline()
    if first.startswith("# dslc-test-args: "):
        args = first[len("# dslc-test-args: "):].split()
    else:
        args = ["lint", "--max-findings", "0", path]
    return args if args and args[0] == "lint" else None


def findings(dslc, args, cwd):
    p = subprocess.run(dslc + args + ["--format", "json"], cwd=cwd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)["findings"]
    except (ValueError, KeyError):
        return None


def several(dslc, tmp):
    """A file with several fixes, some uncovered only by others (a fixed
    fabric kind lets placement run): one `--fix` applies them all, in passes,
    and gives the reviewed tests/golden/fix/several.fixed; a second run
    changes nothing."""
    work = os.path.join(tmp, "w")
    shutil.rmtree(work, ignore_errors=True)
    for t in TREES:
        shutil.copytree(os.path.join(REPO, t), os.path.join(work, t))
    path = "tests/golden/fix/several.dsl"
    p = subprocess.run(dslc + ["lint", "--fix", path], cwd=work, capture_output=True, text=True)
    with open(os.path.join(work, path)) as f:
        got = f.read()
    with open(os.path.join(REPO, "tests/golden/fix/several.fixed")) as f:
        want = f.read()
    result(p.returncode == 0 and got == want and "(pass 2)" in p.stderr,
           "several.dsl: every fix applied in passes, the file is several.fixed and lints clean",
           f"exit {p.returncode}, stderr {p.stderr.strip()[-400:]}")
    p = subprocess.run(dslc + ["lint", "--fix", path], cwd=work, capture_output=True, text=True)
    with open(os.path.join(work, path)) as f:
        again = f.read()
    result(p.returncode == 0 and again == want and "0 findings fixed in 0 files" in p.stderr,
           "several.dsl: a second --fix changes nothing", p.stderr.strip()[-300:])


def key(f):
    """A finding as the comparisons see it: its rule and message."""
    return (f["ruleId"], f["message"])


def fix_lines(fixable):
    """The (file, line) of every edit the findings carry."""
    return {(x.get("file"), x["line"]) for f in fixable for x in f["fixes"]}


def check_applied(dslc, args, path, before, fixable, work):
    """`dslc lint --fix` in work, then lint again: the fixed findings gone,
    no new error anywhere, and nothing new at all (a note too) at a line a
    fix wrote: the edit itself must not start another finding (issue 71:
    first_core applied from a help, then numa-pin-dropped on the same line);
    a note elsewhere may be one the error held back. Returns the --fix run."""
    p = subprocess.run(dslc + ["lint", "--fix"] + args[1:], cwd=work, capture_output=True, text=True)
    after = findings(dslc, args, work)
    left = [key(f) for f in fixable if key(f) in {key(a) for a in after or []}]
    fixed_at = fix_lines(fixable)
    new_errors = {key(a) for a in after or [] if a["severity"] == "error" or
                  (a.get("file"), a["line"]) in fixed_at} - {key(b) for b in before}
    said = f"--fix: {len(fixable)} finding" in p.stderr
    ok = after is not None and not left and not new_errors and said
    result(ok, f"{path}: {len(fixable)} fix(es) applied, the findings are gone, no new error",
           f"left {left}, new errors {sorted(new_errors)}, stderr {p.stderr.strip()[-300:]}")
    return p


def main():
    dslc = shlex.split(sys.argv[1])
    dslc = [os.path.join(REPO, a) if os.path.exists(os.path.join(REPO, a)) and "/" in a else a for a in dslc]
    tmp = tempfile.mkdtemp(prefix="dslc-fix-")
    try:
        fixed_any = 0
        # quick (make check's valgrind pass): every fourth fixture, which
        # still applies fixes of each kind, with --fix alone (its --diff and
        # first pass are the plain and ASan passes'); those run every fixture
        quick = "quick" in sys.argv[2:]
        for k, path in enumerate(fixtures()):
            if quick and k % 4:
                continue
            args = lint_args(path)
            if not args:
                continue
            # lint only reads: the findings before come from the repository
            # itself, and a copy is made only for a fixture whose findings
            # carry fixes (most carry none)
            before = findings(dslc, args, REPO)
            if before is None:
                result(False, path, "no JSON findings")
                continue
            for f in before:
                if "write `" in (f.get("help") or "") and not f["fixes"] and f["ruleId"] not in SUGGEST_ONLY:
                    result(False, f"{path}:{f['line']}: {f['ruleId']}'s help proposes an edit it does not carry as a fix",
                           f["help"][:200])
            fixable = [f for f in before if f["fixes"]]
            if not fixable:
                continue
            work = os.path.join(tmp, "w")
            shutil.rmtree(work, ignore_errors=True)
            for t in TREES:
                shutil.copytree(os.path.join(REPO, t), os.path.join(work, t))
            fixed_any += 1
            # --fix --diff first: nothing written, exit 1, and GNU patch applies
            # the diff to a pristine copy (issue 39 item 7)
            if quick:  # memcheck: --fix itself; the diff and its first pass run in the plain and ASan passes
                check_applied(dslc, args, path, before, fixable, work)
                continue
            d = subprocess.run(dslc + ["lint", "--fix", "--diff"] + args[1:], cwd=work, capture_output=True, text=True)
            with open(os.path.join(work, path), "rb") as f, open(os.path.join(REPO, path), "rb") as g:
                untouched = f.read() == g.read()
            pristine = os.path.join(tmp, "p")
            shutil.rmtree(pristine, ignore_errors=True)
            for t in TREES:
                shutil.copytree(os.path.join(REPO, t), os.path.join(pristine, t))
            pp = subprocess.run(["patch", "-s", "-p0"], input=d.stdout, cwd=pristine, capture_output=True, text=True)
            result(d.returncode == 1 and untouched and d.stdout.startswith("--- ") and pp.returncode == 0,
                   f"{path}: --fix --diff writes nothing, exits 1, and patch -p0 applies its diff",
                   f"exit {d.returncode}, untouched {untouched}, patch {pp.returncode} {pp.stderr.strip()[:200]}")
            # the first pass alone (the diff, patched into the pristine copy):
            # each edit ends its own finding and starts none at its line, so a
            # wrong value is not hidden by a later pass fixing what it started
            # (svc_rf 1 proposed, then svc-rf-low's svc_rf 2)
            once = findings(dslc, args, pristine) if pp.returncode == 0 else None
            lines = fix_lines(fixable)
            started = sorted({key(a) for a in once or [] if (a.get("file"), a["line"]) in lines} -
                             {key(b) for b in before})
            result(once is not None and not started,
                   f"{path}: the first pass's edits start no finding at their lines",
                   f"started {started}")
            p = check_applied(dslc, args, path, before, fixable, work)
            if "(pass " not in p.stderr:  # one pass: the diff is exactly what --fix wrote
                with open(os.path.join(work, path), "rb") as f, open(os.path.join(pristine, path), "rb") as g:
                    same = f.read() == g.read()
                result(same, f"{path}: the patched copy is the file --fix wrote")
        least = 3 if quick else 10
        result(fixed_any >= least, f"{fixed_any} fixtures carry fixes (at least {least})")
        several(dslc, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"fix: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
