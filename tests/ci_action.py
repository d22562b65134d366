#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The GitHub Action (action.yml) and the GitLab template
(ci/gitlab/dslc.gitlab-ci.yml) of issue 73, run as their runners run them:

- action.yml and the example workflow that uses it are validated by
  action-validator (npm @action-validator/cli 0.6.0, which carries
  SchemaStore's github-action.json and github-workflow.json);
- the composite's steps run in order as GitHub's runner runs them
  (actions/runner src/Runner.Worker/Handlers/ScriptHandler.cs: bash
  `--noprofile --norc -e -o pipefail {0}`; an `if:` without a status
  function means success() && the condition, docs "Expressions: Status
  check functions"; step outputs read from the GITHUB_OUTPUT file;
  GITHUB_ACTION_PATH the action's directory), `${{ inputs.X }}` and
  `${{ steps.ID.outputs.X }}` evaluated, the `uses:` upload recorded; with
  the real dslc on PATH, a .deb through fake apt-get and sudo, or a build of
  the action's source through a fake make;
- the GitLab job's before_script and script run as the shell executor runs
  them (bash -e -o pipefail, the job's variables exported), its Code
  Quality report checked by GitLab's schema, its JUnit report by junitparser.
Inputs that try to inject a command reach dslc as file names only.

usage: tests/ci_action.py DSLC
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml
from junitparser import JUnitXml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DSLC = os.path.abspath(os.path.join(REPO, sys.argv[1])) if not os.path.isabs(sys.argv[1]) else sys.argv[1]
VALIDATOR = "@action-validator/cli@0.6.0 @action-validator/core@0.6.0"
passed = failed = skipped = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   ci-action {name}")
    else:
        failed += 1
        print(f"FAIL ci-action {name}{': ' + str(detail)[:1500] if detail else ''}")


def skip(name, why):
    global skipped, failed
    if os.environ.get("CI") == "true":
        failed += 1
        print(f"FAIL ci-action {name}: {why} (CI has it: scripts/install-deps.sh installs it)")
    else:
        skipped += 1
        print(f"skip ci-action {name}: {why}")


# ---- action-validator: SchemaStore's schemas --------------------------------
def validator():
    """action-validator from npm, installed once under build/tools."""
    d = os.path.join(REPO, "build", "tools", "action-validator")
    exe = os.path.join(d, "node_modules", ".bin", "action-validator")
    if not os.path.exists(exe):
        os.makedirs(d, exist_ok=True)
        p = subprocess.run(["npm", "install", "--prefix", d, "--no-audit", "--no-fund"] + VALIDATOR.split(),
                           capture_output=True, text=True)
        if p.returncode != 0:
            return None
    return exe


def validate_files(tmp):
    exe = validator() if shutil.which("npm") else None
    if not exe:
        skip("action-validator", "npm could not install " + VALIDATOR)
        return
    for f in ("action.yml", "examples/ci/uses-dslc.yml", "examples/ci/dslc-workflow.yml"):
        p = subprocess.run([exe, os.path.join(REPO, f)], capture_output=True, text=True)
        result(p.returncode == 0, f"{f}: SchemaStore's schema accepts it (action-validator)", p.stdout + p.stderr)
    # the validator is no rubber stamp: a step without `shell`, which GitHub refuses
    bad = os.path.join(tmp, "bad", "action.yml")
    os.makedirs(os.path.dirname(bad))
    a = yaml.safe_load(open(os.path.join(REPO, "action.yml")))
    del a["runs"]["steps"][0]["shell"]
    yaml.safe_dump(a, open(bad, "w"))
    p = subprocess.run([exe, bad], capture_output=True, text=True)
    result(p.returncode == 1 and "/runs/steps/0/shell" in p.stdout + p.stderr,
           "action-validator refuses the action with its first step's shell removed", p.stdout[-300:])


# ---- a runner for the composite action ----------------------------------------
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def value(term, ctx):
    term = term.strip()
    m = re.fullmatch(r"'((?:[^']|'')*)'", term)
    if m:
        return m.group(1).replace("''", "'")
    m = re.fullmatch(r"inputs\.([\w-]+)", term)
    if m:
        return ctx["inputs"].get(m.group(1), "")
    m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", term)
    if m:
        return ctx["steps"].get(m.group(1), {}).get(m.group(2), "")
    raise ValueError("the test's runner does not know: " + term)


def condition(text, ctx):
    """The forms action.yml uses: A && B, X == Y, X != Y, always()."""
    text = EXPR.sub(lambda m: m.group(1), text).strip()
    status = "always()" in text or "failure()" in text or "success()" in text
    ok = True
    for part in text.split("&&"):
        part = part.strip()
        if part == "always()":
            continue
        m = re.fullmatch(r"(.+?)\s*(==|!=)\s*(.+)", part)
        if not m:
            raise ValueError("the test's runner does not know: " + part)
        a, b = value(m.group(1), ctx), value(m.group(3), ctx)
        ok = ok and ((a == b) if m.group(2) == "==" else (a != b))
    return ok if status else (ok and not ctx["failed"])


def expand(text, ctx):
    return EXPR.sub(lambda m: value(m.group(1), ctx), str(text))


def run_action(tmp, inputs, path_dirs, cwd):
    """Runs action.yml's steps in a fresh directory under tmp (their scripts,
    GITHUB_OUTPUT files and RUNNER_TEMP): (status of the job, ctx, log)."""
    tmp = tempfile.mkdtemp(dir=tmp)
    action = yaml.safe_load(open(os.path.join(REPO, "action.yml")))
    defaults = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    for k in inputs:
        assert k in defaults, "no such input: " + k
    ctx = {"inputs": {**defaults, **inputs}, "steps": {}, "failed": False, "uses": []}
    log = ""
    for i, step in enumerate(action["runs"]["steps"]):
        if "if" in step and not condition(step["if"], ctx):
            continue
        if not step.get("if") and ctx["failed"]:
            continue
        if "uses" in step:
            ctx["uses"].append((step["uses"], {k: expand(v, ctx) for k, v in step.get("with", {}).items()}))
            continue
        script = os.path.join(tmp, f"step{i}.sh")
        with open(script, "w") as f:
            f.write(expand(step["run"], ctx))
        out = os.path.join(tmp, f"output{i}")
        open(out, "w").close()
        env = {"PATH": os.pathsep.join(path_dirs + ["/usr/bin", "/bin"]), "HOME": tmp, "GITHUB_ACTION_PATH": REPO,
               "GITHUB_OUTPUT": out, "RUNNER_TEMP": tmp, "GITHUB_ACTIONS": "true"}
        env.update({k: expand(v, ctx) for k, v in step.get("env", {}).items()})
        p = subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", script], cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=300)
        log += p.stdout + p.stderr
        outputs = {}
        for line in open(out):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                outputs[k] = v
        if step.get("id"):
            ctx["steps"][step["id"]] = outputs
        if p.returncode != 0:
            ctx["failed"] = True
            ctx["status"] = p.returncode
    return (1 if ctx["failed"] else 0), ctx, log


def fake(bindir, name, body):
    path = os.path.join(bindir, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


# a dslc on PATH: the dslc under test (the fake apt-get and make install it as well)
WRAPPER = '#!/bin/sh\nexec "%s" "$@"\n' % DSLC


def wrapper(bindir):
    with open(os.path.join(bindir, "dslc"), "w") as f:
        f.write(WRAPPER)
    os.chmod(os.path.join(bindir, "dslc"), 0o755)


def make_repo(root):
    """A repository with clean/ (the hgx-b200 example) and bad/cluster.dsl,
    the same with an error finding (a DAOS release dslc does not know)."""
    shutil.copytree(os.path.join(REPO, "examples", "hgx-b200"), os.path.join(root, "clean"))
    text = open(os.path.join(root, "clean", "cluster.dsl")).read()
    text = text.replace('include "hardware.dsl"', 'include "../clean/hardware.dsl"')
    os.makedirs(os.path.join(root, "bad"))
    with open(os.path.join(root, "bad", "cluster.dsl"), "w") as f:
        f.write(re.sub(r"^daos 2\.6$", "daos 9.9", text, flags=re.M))
    return root


def concise_count(files, cwd, extra=()):
    p = subprocess.run([DSLC, "lint", *files, "--format", "concise", "--exit-zero", "--quiet", *extra], cwd=cwd,
                       capture_output=True, text=True)
    return len(p.stdout.splitlines())


def action_tests(tmp):
    repo = make_repo(os.path.join(tmp, "repo"))
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    wrapper(bindir)
    bad_n = concise_count(["bad/cluster.dsl"], repo)
    result(bad_n >= 1, f"the test's bad description has findings ({bad_n})")

    # 1. findings: SARIF written and uploaded, annotations in the log, the step fails
    rc, ctx, log = run_action(tmp, {"files": "clean/cluster.dsl\nbad/cluster.dsl"}, [bindir], repo)
    sarif = os.path.join(repo, "dslc.sarif")
    ok_sarif = os.path.exists(sarif) and json.load(open(sarif))["version"] == "2.1.0"
    result(rc == 1 and ok_sarif and ctx["steps"]["sarif"].get("findings") == str(bad_n)
           and ctx["steps"]["sarif"].get("sarif-file") == "dslc.sarif" and ctx["steps"]["report"].get("exit-code") == "1",
           f"an error finding: SARIF written, findings={bad_n} as dslc counts, exit-code 1, the job fails", (rc, ctx["steps"], log[-600:]))
    result(ctx["uses"] and ctx["uses"][0][0].startswith("github/codeql-action/upload-sarif@")
           and ctx["uses"][0][1] == {"sarif_file": "dslc.sarif", "category": "dslc"},
           "the SARIF upload runs before the failing step, with the file written", ctx["uses"])
    result(re.search(r"^::error file=bad/cluster\.dsl,line=\d+", log, re.M) is not None,
           "the log carries GitHub annotations on the bad file", log[-600:])

    # 2. clean: exit 0, findings 0
    os.remove(sarif)
    rc, ctx, log = run_action(tmp, {"files": "clean/*.dsl"}, [bindir], repo)
    result(rc == 0 and ctx["steps"]["sarif"].get("findings") == "0" and ctx["steps"]["report"].get("exit-code") == "0",
           "a clean description through a glob: exit 0, findings 0", (rc, ctx["steps"], log[-600:]))

    # 3. a baseline recording the bad file's findings: nothing new
    subprocess.run([DSLC, "lint", "bad/cluster.dsl", "--write-baseline", "dslc-baseline.json"], cwd=repo, capture_output=True)
    rc, ctx, log = run_action(tmp, {"files": "bad/cluster.dsl", "baseline": "dslc-baseline.json"},
                              [bindir], repo)
    result(rc == 0 and ctx["steps"]["sarif"].get("findings") == "0" and os.path.exists(sarif),
           "with the baseline of its findings: exit 0, findings 0, SARIF still written", (rc, ctx["steps"], log[-600:]))

    # 4. fail-on warning / an unknown fail-on
    rc, ctx, log = run_action(tmp, {"files": "bad/cluster.dsl", "fail-on": "fatal"}, [bindir], repo)
    result(rc == 1 and ctx.get("status") == 2 and "fail-on: 'fatal' is not error, warning or note" in log and not ctx["uses"],
           "fail-on fatal: refused (exit 2) before any upload", (rc, ctx.get("status"), log[-400:]))

    # 5. a file that cannot be read: no SARIF, no upload, exit 2
    os.remove(sarif)
    rc, ctx, log = run_action(tmp, {"files": "missing.dsl"}, [bindir], repo)
    result(rc == 1 and ctx.get("status") == 2 and not os.path.exists(sarif) and not os.path.exists(sarif + ".tmp")
           and not ctx["uses"] and "could not read its input (exit 2)" in log,
           "an unreadable file: the SARIF step fails (exit 2), no file left, no upload", (rc, ctx.get("status"), log[-400:]))

    # 6. sarif '' : no SARIF step, no upload; the lint still decides
    rc, ctx, log = run_action(tmp, {"files": "bad/cluster.dsl", "sarif": ""}, [bindir], repo)
    result(rc == 1 and "sarif" not in ctx["steps"] and not ctx["uses"] and ctx["steps"]["report"].get("exit-code") == "1",
           "sarif empty: no SARIF step, no upload, the lint fails the job", (rc, ctx["steps"]))

    # 7. injection: inputs are data
    hostile = 'clean/cluster.dsl $(touch pwned1) `touch pwned2` ";touch pwned3;"'
    rc, ctx, log = run_action(tmp, {"files": hostile, "baseline": "$(touch pwned4)",
                                                        "format": "text; touch pwned5"}, [bindir], repo)
    result(not any(os.path.exists(os.path.join(repo, f"pwned{i}")) for i in range(1, 6)) and rc == 1,
           "inputs holding $(...), backquotes and ; run nothing", (rc, log[-400:]))

    # 8. version: the right one passes, another fails naming both
    version = subprocess.run([DSLC, "--version"], capture_output=True, text=True).stdout.split()[-1]
    rc, ctx, log = run_action(tmp, {"files": "clean/cluster.dsl", "version": version}, [bindir], repo)
    result(rc == 0, f"version {version}: accepted", log[-400:])
    rc, ctx, log = run_action(tmp, {"files": "clean/cluster.dsl", "version": "9.9.9"}, [bindir], repo)
    result(rc == 1 and f"the workflow asks for dslc 9.9.9, this is dslc {version}" in log and "sarif" not in ctx["steps"],
           "version 9.9.9: the install step fails naming both, nothing linted", log[-400:])

    # 9. a .deb: apt-get installs it (fake apt-get and sudo, which record)
    fk = os.path.join(tmp, "fakes")
    os.makedirs(fk)
    calls = os.path.join(tmp, "calls")
    # what installing dslc does, for the fake apt-get and make: the wrapper into root/bin
    wrapper(tmp)
    put_dslc = f"install -D -m 0755 {tmp}/dslc {tmp}/root/bin/dslc"
    # apt-get as Debian's: a local package only as a path with a slash, else E: Unable to locate package
    fake(fk, "apt-get", f'echo "apt-get $*" >>{calls}\n'
         'for a; do case $a in -*|update|install) ;; */*.deb) [ -f "$a" ] || { echo "E: Unsupported file $a given on commandline" >&2; exit 100; }\n'
         f'  {put_dslc} ;;\n'
         '  *[!a-z0-9+.-]*) echo "E: Unable to locate package $a" >&2; exit 100 ;; esac; done\n')
    fake(fk, "sudo", f'echo "sudo $*" >>{calls}\nexec "$@"\n')
    fake(fk, "id", 'echo 1001\n')  # a runner's user, not root: sudo is used
    shutil.copy(os.path.join(REPO, "README.md"), os.path.join(repo, "dslc_0.1.0-1_amd64.deb"))
    rc, ctx, log = run_action(tmp, {"files": "clean/cluster.dsl", "deb": "dslc_0.1.0-1_amd64.deb"},
                              [fk, os.path.join(tmp, "root", "bin")], repo)
    c = open(calls).read() if os.path.exists(calls) else ""
    result(rc == 0 and "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ./dslc_0.1.0-1_amd64.deb" in c,
           "deb: a relative path installed as ./PATH through sudo apt-get, then linted", (rc, c, log[-400:]))
    rc, ctx, log = run_action(tmp, {"files": "clean/cluster.dsl", "deb": "http://example.com/dslc.deb"},
                              [fk], repo)
    result(rc == 1 and "is not https" in log, "deb over plain http: refused", log[-300:])

    # 10. no dslc anywhere: the action's own source built (fake make records)
    shutil.rmtree(os.path.join(tmp, "root"))
    open(calls, "w").close()
    fake(fk, "make", f'echo "make $*" >>{calls}\n'
         f'case " $* " in *" install "*) {put_dslc} ;; esac\n')
    fake(fk, "nproc", "echo 2\n")
    rc, ctx, log = run_action(tmp, {"files": "clean/cluster.dsl"}, [fk, os.path.join(tmp, "root", "bin")], repo)
    c = open(calls).read()
    result(rc == 0 and f"make -C {REPO} -j2" in c and f"sudo make -C {REPO} install PREFIX=/usr/local" in c
           and "libhwloc-dev" in c and c.index("apt-get install") < c.index("make -C"),
           "no dslc: build dependencies installed, the action's source made and installed, then linted", (rc, c, log[-400:]))


# ---- the GitLab template ----------------------------------------------------------
# job keywords, from GitLab's CI/CD YAML reference (doc/ci/yaml/_index.md)
JOB_KEYS = {"after_script", "allow_failure", "artifacts", "before_script", "cache", "coverage", "dast_configuration",
            "dependencies", "environment", "extends", "hooks", "id_tokens", "identity", "image", "inherit",
            "interruptible", "manual_confirmation", "needs", "pages", "parallel", "release", "resource_group", "retry",
            "rules", "run", "script", "secrets", "services", "stage", "tags", "timeout", "trigger", "variables", "when"}


def gitlab_tests(tmp):
    tpl = yaml.safe_load(open(os.path.join(REPO, "ci", "gitlab", "dslc.gitlab-ci.yml")))
    job = tpl["dslc-lint"]
    result(set(job) <= JOB_KEYS and job["artifacts"]["when"] == "always"
           and job["artifacts"]["reports"] == {"codequality": "gl-code-quality-report.json", "junit": "dslc-junit.xml"},
           "GitLab template: GitLab's job keywords only; Code Quality and JUnit reports kept always", sorted(job))
    repo = make_repo(os.path.join(tmp, "glrepo"))
    bindir = os.path.join(tmp, "glbin")
    os.makedirs(bindir)
    wrapper(bindir)

    def job_run(variables, path):
        env = {"PATH": os.pathsep.join(path + ["/usr/bin", "/bin"]), "HOME": tmp}
        env.update({k: str(v) for k, v in job["variables"].items()})
        env.update(variables)
        script = os.path.join(tmp, "gljob.sh")
        with open(script, "w") as f:
            f.write("\n".join(job["before_script"] + job["script"]) + "\n")
        return subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", script], cwd=repo, env=env,
                              capture_output=True, text=True, timeout=300)

    p = job_run({"DSLC_FILES": "clean/cluster.dsl bad/*.dsl"}, [bindir])
    cq = os.path.join(repo, "gl-code-quality-report.json")
    schema = json.load(open(os.path.join(REPO, "tests", "validate", "gitlab-codequality.schema.json")))
    try:
        issues = json.load(open(cq))
        jsonschema.validate(issues, schema)
        okcq = len(issues) == concise_count(["clean/cluster.dsl", "bad/cluster.dsl"], repo) and issues
    except Exception as e:  # noqa: BLE001 - the failure is the detail
        okcq, issues = False, e
    result(p.returncode == 1 and okcq, "GitLab job: Code Quality report valid by GitLab's schema, one issue per finding, the job fails",
           (p.returncode, str(issues)[:300], p.stderr[-300:]))
    try:
        x = JUnitXml.fromfile(os.path.join(repo, "dslc-junit.xml"))
        names = [s.name for s in x]
        okj = any("bad/cluster.dsl" in n for n in names) and x.failures >= 1
    except Exception as e:  # noqa: BLE001
        okj, names = False, e
    result(okj, "GitLab job: the JUnit report read by junitparser, a failing case for the bad file", names)
    result(re.search(r"^bad/cluster\.dsl:\d+:\d+: error\[", p.stdout, re.M) is not None,
           "GitLab job: the log shows one concise line per finding", p.stdout[-300:])
    p = job_run({"DSLC_FILES": "clean/cluster.dsl"}, [bindir])
    result(p.returncode == 0 and json.load(open(cq)) == [], "GitLab job: a clean description passes with an empty report",
           (p.returncode, p.stderr[-300:]))
    p = job_run({"DSLC_FILES": "clean/cluster.dsl", "DSLC_VERSION": "9.9.9"}, [bindir])
    result(p.returncode == 1 and "DSLC_VERSION asks for dslc 9.9.9" in p.stderr, "GitLab job: another version refused", p.stderr[-300:])
    p = job_run({"DSLC_FILES": "clean/cluster.dsl"}, [])
    result(p.returncode == 1 and "set DSLC_DEB" in p.stderr, "GitLab job: no dslc, no DSLC_DEB or DSLC_SOURCE: says what to set",
           p.stderr[-300:])
    p = job_run({"DSLC_FILES": "missing.dsl"}, [bindir])
    result(p.returncode == 2 and "could not read its input (exit 2)" in p.stderr, "GitLab job: an unreadable file fails with exit 2",
           (p.returncode, p.stderr[-300:]))
    p = job_run({"DSLC_FILES": "clean/cluster.dsl $(touch pwned) ;touch pwned2"}, [bindir])
    result(not os.path.exists(os.path.join(repo, "pwned")) and not os.path.exists(os.path.join(repo, "pwned2")),
           "GitLab job: DSLC_FILES holding $(...) and ; runs nothing")


def main():
    tmp = tempfile.mkdtemp(prefix="dslc-ci-action-")
    try:
        validate_files(tmp)
        action_tests(tmp)
        gitlab_tests(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"ci-action: {passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed else 0)


main()
