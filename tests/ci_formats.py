#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The report formats other CI systems read (issue 73), each read by its
consumer's parser or schema and held to `--format json` of the same run:

- gitlab: GitLab's own schema for an issue (tests/validate/
  gitlab-codequality.schema.json, from gitlabhq app/validators/json_schemas/
  codeclimate.json and the documented required keys), fingerprints unique
  in the report (GitLab keeps one issue per fingerprint:
  lib/gitlab/ci/reports/codequality_reports.rb add_degradation);
- junit: read by junitparser (Debian's python3-junitparser): a suite per
  file, a case per rule with findings there, failed when one of them is at
  or above --fail-on, totals that add up, a clean file a passing case;
- checkstyle: the shape reviewdog reads (haya14busa/go-checkstyle,
  checkstyle/checkstyle.go: <checkstyle version> <file name> <error line
  column message severity source>), severities checkstyle's own (error,
  warning, info);
- concise: one line per finding, file:line:col: severity[rule]: message.

Every format is also read with file names holding control bytes, bytes
that are not UTF-8 and XML's markup characters. Then --exit-zero, the
fingerprints of alike findings, and every rule's URL: its anchor in SPEC.md
right before its heading, the same URL in explain, rules --format json,
SARIF (helpUri, informationUri) and the JSON findings.

usage: tests/ci_formats.py DSLC   (DSLC may be "valgrind ... build/dslc")
"""
import collections
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import jsonschema
from junitparser import Failure, JUnitXml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DSLC = [os.path.abspath(a) if "/" in a and os.path.exists(a) else a for a in shlex.split(sys.argv[1])]
GITLAB_SCHEMA = json.load(open(os.path.join(REPO, "tests/validate/gitlab-codequality.schema.json")))
SEV_RANK = {"note": 0, "warning": 1, "error": 2}
passed = failed = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   formats {name}")
    else:
        failed += 1
        print(f"FAIL formats {name}{': ' + str(detail)[:1500] if detail else ''}")


def lint(args, cwd=REPO):
    p = subprocess.run(DSLC + ["lint", "--max-findings", "0"] + args, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def xml_text(s):
    """A name as XML 1.0 can carry it (compiler/base/xml.h): tab and newline
    a space, the other characters XML forbids U+FFFD. JSON keeps them."""
    return "".join(" " if c in "\t\n" else "\ufffd" if ord(c) < 0x20 or c in "\ufffe\uffff" else c for c in s)


def fixtures():
    """The golden fixtures dslc lints with its own arguments: every rule's finding."""
    out = []
    for f in sorted(glob.glob(os.path.join(REPO, "tests/golden/diag/*.dsl"))):
        head = open(f, "rb").read(200)
        if f.endswith("-b.dsl") or b"dslc-test-args" in head or b"dslc-test-env" in head:
            continue
        out.append(os.path.relpath(f, REPO))
    return out


def findings_of(files, cwd, extra=()):
    rc, out, err = lint(["--format", "json"] + list(extra) + files, cwd)
    return rc, json.loads(out)["findings"]


def check_gitlab(label, files, cwd, ref):
    rc, out, err = lint(["--format", "gitlab"] + files, cwd)
    try:
        doc = json.loads(out)
        jsonschema.validate(doc, GITLAB_SCHEMA)
    except Exception as e:  # noqa: BLE001 - the reason is the failure's text
        return result(False, f"{label}: gitlab is GitLab's Code Quality report", f"{e} {err[:300]}")
    fps = [i["fingerprint"] for i in doc]
    dup = [f for f, n in collections.Counter(fps).items() if n > 1]
    result(not dup and all(re.fullmatch(r"[0-9a-f]{32}", f) for f in fps),
           f"{label}: gitlab's {len(fps)} fingerprints are unique (GitLab keeps one issue per fingerprint)", dup[:3])
    sev = {"error": "major", "warning": "minor", "note": "info"}
    want = collections.Counter((f["file"], f["line"], f["ruleId"], sev[f["severity"]]) for f in ref if f["file"])
    got = collections.Counter((i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"], i["severity"])
                              for i in doc)
    result(want == got, f"{label}: gitlab names the findings of --format json ({sum(got.values())})",
           f"missing {list((want - got).items())[:3]}, extra {list((got - want).items())[:3]}")


def check_junit(label, files, cwd, ref, fail_on="error"):
    rc, out, err = lint(["--format", "junit", "--fail-on", fail_on] + files, cwd)
    with tempfile.NamedTemporaryFile(suffix=".xml") as t:
        t.write(out)
        t.flush()
        try:
            xml = JUnitXml.fromfile(t.name)
        except Exception as e:  # noqa: BLE001
            return result(False, f"{label}: junit (--fail-on {fail_on}) is read by junitparser", f"{e} {err[:300]}")
    root = ET.fromstring(out)
    cases, fails = {}, 0
    for suite in xml:
        n = nf = 0
        for case in suite:
            n += 1
            bad = any(isinstance(r, Failure) for r in case.result)
            nf += bad
            cases[(suite.name, case.name)] = bad
        if (suite.tests, suite.failures) != (n, nf):
            return result(False, f"{label}: junit suite totals add up", f"{suite.name}: says {suite.tests}/{suite.failures}, holds {n}/{nf}")
        fails += nf
    result(root.tag == "testsuites" and int(root.get("tests")) == len(cases) and int(root.get("failures")) == fails,
           f"{label}: junit (--fail-on {fail_on}) totals add up ({len(cases)} cases, {fails} failed)",
           f"{root.attrib} against {len(cases)}/{fails}")
    want = {}
    for f in ref:
        key = (xml_text(f["file"] or "dslc"), f["ruleId"])
        want[key] = want.get(key, False) or SEV_RANK[f["severity"]] >= SEV_RANK[fail_on]
    got = {k: v for k, v in cases.items() if k[1] != "no findings"}
    result(want == got, f"{label}: junit (--fail-on {fail_on}) has a case per rule and file, failed at or above {fail_on}",
           f"missing {sorted(set(want) - set(got))[:3]}, extra {sorted(set(got) - set(want))[:3]}, "
           f"verdicts {[(k, want[k], got[k]) for k in want if k in got and want[k] != got[k]][:3]}")
    return cases


def check_checkstyle(label, files, cwd, ref):
    rc, out, err = lint(["--format", "checkstyle"] + files, cwd)
    try:
        root = ET.fromstring(out)
    except ET.ParseError as e:
        return result(False, f"{label}: checkstyle is XML", f"{e} {err[:300]}")
    # checkstyle.go: Result{version attr, []File}, File{name attr, []Error},
    # Error{column int, line int, message, severity, source}
    shape = root.tag == "checkstyle" and root.get("version") and all(
        f.tag == "file" and f.get("name") is not None and all(
            e.tag == "error" and set(e.attrib) <= {"line", "column", "message", "severity", "source"} and
            e.get("line", "").isdigit() and e.get("column", "0").isdigit() and e.get("message") and
            e.get("severity") in ("error", "warning", "info") for e in f) for f in root)
    result(bool(shape), f"{label}: checkstyle has the shape reviewdog's parser reads", out[:300])
    sev = {"error": "error", "warning": "warning", "note": "info"}
    want = collections.Counter((xml_text(f["file"]), f["line"], f["column"], sev[f["severity"]], "dslc." + f["ruleId"])
                               for f in ref if f["file"])
    got = collections.Counter((f.get("name"), int(e.get("line")), int(e.get("column")), e.get("severity"), e.get("source"))
                              for f in root for e in f)
    result(want == got, f"{label}: checkstyle names the findings of --format json ({sum(got.values())})",
           f"missing {list((want - got).items())[:3]}, extra {list((got - want).items())[:3]}")


LINE = re.compile(rb"^(.*):(\d+):(\d+): (error|warning|note)\[([a-z0-9-]+)\]: (.+)$")


def check_concise(label, files, cwd, ref, plain_names=True):
    rc, out, err = lint(["--format", "concise"] + files, cwd)
    lines = out.splitlines()
    parsed = [LINE.match(l) for l in lines]
    result(all(parsed) and len(lines) == len(ref) and not any(b < 0x20 and b != 0x09 for l in lines for b in l),
           f"{label}: concise is one line per finding ({len(lines)}), no control byte", lines[:3])
    if plain_names and all(parsed):
        want = collections.Counter((f["file"], f["line"], f["column"], f["severity"], f["ruleId"]) for f in ref)
        got = collections.Counter((m.group(1).decode(), int(m.group(2)), int(m.group(3)), m.group(4).decode(),
                                   m.group(5).decode()) for m in parsed)
        result(want == got, f"{label}: concise names the findings of --format json",
               f"missing {list((want - got).items())[:3]}, extra {list((got - want).items())[:3]}")


def all_formats(label, files, cwd, plain_names=True):
    rc, ref = findings_of(files, cwd)
    check_gitlab(label, files, cwd, ref)
    check_junit(label, files, cwd, ref)
    check_junit(label, files, cwd, ref, "warning")
    check_checkstyle(label, files, cwd, ref)
    check_concise(label, files, cwd, ref, plain_names)
    return ref


def every_fixture():
    files = fixtures()
    ref = all_formats(f"{len(files)} fixtures", files, REPO)
    result(len({f["ruleId"] for f in ref}) > 100, "the fixtures reach more than 100 rules",
           len({f["ruleId"] for f in ref}))


def clean_files():
    files = ["examples/hgx-b200/cluster.dsl", "tests/golden/diag/clean.dsl"]
    rc, ref = findings_of(files, REPO)
    cases = check_junit("clean files", files, REPO, ref)
    result(cases is not None and all((f, "no findings") in cases and not cases[(f, "no findings")] for f in files),
           "junit: a clean file is a suite with one passing case", cases)
    rc, out, err = lint(["--format", "checkstyle"] + files)
    root = ET.fromstring(out)
    result(sorted(f.get("name") for f in root) == sorted(files) and not any(len(f) for f in root),
           "checkstyle: a clean file is a <file> without <error>", out[:300])
    for fmt, empty in (("gitlab", b"[]\n"), ("concise", b"")):
        rc, out, err = lint(["--format", fmt] + files)
        result(rc == 0 and out == empty, f"{fmt}: no finding is {empty!r}, exit 0", (rc, out[:200]))


def hostile_names(tmp):
    d = os.path.join(tmp, "hostile")
    os.makedirs(d)
    names = [b"lab\x01<&\"'>\xff b.dsl", b"tab\there\x1b[31m.dsl", b"new\nline.dsl"]
    for n in names:
        with open(os.path.join(d.encode(), n), "wb") as f:
            f.write(b"daos 2.6\nbog\x1b[31mus 1\ncluster \"x\xff\" {\n}\n")
    files = [os.path.join(d.encode(), n).decode("utf-8", "surrogateescape") for n in names]
    all_formats("hostile names", files, tmp, plain_names=False)
    for fmt in ("junit", "checkstyle"):
        rc, out, err = lint(["--format", fmt] + files, tmp)
        text = out.decode("utf-8", "strict")
        result("\ufffd" in text and "&lt;&amp;&quot;" in text and "\x1b" not in text and "\x01" not in text,
               f"{fmt}: a name's control bytes and non-UTF-8 bytes are U+FFFD, its markup characters references",
               text[:300])
    rc, out, err = lint(["--format", "concise"] + files, tmp)
    result(b"\\x01" in out and b"\\xff" in out and b"new\\x0aline" in out and b"\x1b" not in out,
           "concise: a name's control and non-UTF-8 bytes are \\xNN (one line each, nothing a terminal runs)", out[:300])


def exit_zero(tmp):
    f = "tests/golden/diag/first-core-outside-numa.dsl"
    rc0, out0, _ = lint([f])
    rc1, out1, _ = lint(["--exit-zero", f])
    result(rc0 == 1 and rc1 == 0 and out0 == out1, "--exit-zero: an error found, the same report, exit 0 (1 without)",
           (rc0, rc1))
    rc, _, _ = lint(["--exit-zero", "--fail-on", "note", "--format", "junit", f])
    result(rc == 0, "--exit-zero with --fail-on note: exit 0", rc)
    rc, _, err = lint(["--exit-zero", os.path.join(tmp, "absent.dsl")])
    result(rc == 2, "--exit-zero: a file that cannot be read is still exit 2", (rc, err[:200]))


def alike_findings(tmp):
    """Two findings of one rule with one message on alike lines: two
    fingerprints (GitHub counts them :1, :2; GitLab would drop one)."""
    d = os.path.join(tmp, "alike")
    os.makedirs(d)
    hw = os.path.relpath(os.path.join(REPO, "examples/hgx-b200/hardware.dsl"), d)
    text = open(os.path.join(REPO, "tests/golden/diag/pool-acl-perm-letter.dsl")).read()
    text = text.replace('include "../../../examples/hgx-b200/hardware.dsl"', f'include "{hw}"')
    text += 'pool tier1 {\n  size 5%\n  acl "A::OWNER@:rw" "A::alice@:rx"\n}\n'
    with open(os.path.join(d, "alike.dsl"), "w") as f:
        f.write(text)
    rc, out, err = lint(["--format", "sarif", "alike.dsl"], d)
    runs = json.loads(out)["runs"][0]["results"]
    acl = [r["partialFingerprints"]["primaryLocationLineHash"] for r in runs if r["ruleId"] == "pool-acl"]
    result(len(acl) == 2 and acl[0].split(":")[0] == acl[1].split(":")[0] and
           sorted(a.split(":")[1] for a in acl) == ["1", "2"],
           "sarif: two alike findings share the hash and count :1 and :2", acl)
    rc, out, err = lint(["--format", "gitlab", "alike.dsl"], d)
    fps = [i["fingerprint"] for i in json.loads(out) if i["check_name"] == "pool-acl"]
    result(len(set(fps)) == 2, "gitlab: two alike findings, two fingerprints", fps)
    # the fingerprint survives lines moving: a blank line above both
    with open(os.path.join(d, "alike.dsl"), "w") as f:
        f.write("\n\n" + text)
    rc, out2, err = lint(["--format", "gitlab", "alike.dsl"], d)
    fps2 = [i["fingerprint"] for i in json.loads(out2) if i["check_name"] == "pool-acl"]
    result(fps2 == fps, "gitlab: fingerprints stay when lines move", (fps, fps2))


def baseline_tests(tmp):
    """--write-baseline, then --baseline: moved lines stay known, an edited
    line or message is new, a fixed finding leaves a stale entry
    (--strict-baseline fails on it), any working directory matches, the
    settings' `baseline` applies, JSON and SARIF mark each finding."""
    d = os.path.join(tmp, "bl", "clusters")
    os.makedirs(d)
    hw = os.path.relpath(os.path.join(REPO, "examples/hgx-b200/hardware.dsl"), d)
    base = open(os.path.join(REPO, "tests/golden/diag/pool-acl-perm-letter.dsl")).read()
    base = base.replace('include "../../../examples/hgx-b200/hardware.dsl"', f'include "{hw}"')
    f = os.path.join(d, "prod.dsl")
    bl = os.path.join(tmp, "bl", "dslc-baseline.json")

    def write(text):
        with open(f, "w") as out:
            out.write(text)

    def run(*args, cwd=os.path.join(tmp, "bl")):
        p = subprocess.run(DSLC + ["lint", "--max-findings", "0"] + list(args), cwd=cwd, capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    write(base)
    rc0, out0, _ = run("--format", "json", "clusters/prod.dsl")
    before = json.loads(out0)["findings"]
    rc, out, err = run("--write-baseline", "dslc-baseline.json", "clusters/prod.dsl")
    doc = json.load(open(bl))
    result(rc == 0 and out == "" and doc["format"] == "dslc-baseline" and
           sorted((e["rule"], e["file"]) for e in doc["findings"]) == sorted((x["ruleId"], "clusters/prod.dsl") for x in before),
           f"--write-baseline records every finding ({len(before)}), exit 0, nothing on stdout", (rc, out[:200], err[-300:]))
    rc, out, err = run("clusters/prod.dsl", "--baseline", "dslc-baseline.json")
    result(rc == 0 and out == "" and f"{len(before)} known findings not shown" in err,
           "--baseline: the recorded findings are not shown, exit 0 (1 before)", (rc0, rc, out[:300], err[-300:]))
    rc, out, err = run("bl/clusters/prod.dsl", "--baseline", "bl/dslc-baseline.json", cwd=tmp)
    result(rc == 0 and out == "", "--baseline from another working directory: the same findings known", (rc, out[:300]))
    write("# a comment above\n\n" + base.replace("pool tier0 {", "\npool tier0 {"))
    rc, out, err = run("clusters/prod.dsl", "--baseline", "dslc-baseline.json", "--strict-baseline")
    result(rc == 0 and out == "" and "stale" not in err, "--baseline: lines moved, every finding still known (strict too)",
           (rc, out[:300], err[-300:]))
    edited = base.replace('acl "A::OWNER@:rw" "A::alice@:rx"', 'acl "A::OWNER@:rw" "A::bob@:rx"')
    write(edited)
    rc, out, err = run("clusters/prod.dsl", "--baseline", "dslc-baseline.json", "--format", "json")
    got = json.loads(out)
    marks = sorted((x["ruleId"], x["baseline"]) for x in got["findings"])
    result(rc == 1 and ("pool-acl", "new") in marks and ("numa-pin-dropped", "unchanged") in marks and
           got["summary"]["errors"] == 1 and got["summary"]["baselined"] == len(before) - 1,
           "--baseline: the finding on an edited line is new (exit 1), JSON marks new and unchanged", (rc, marks, got["summary"]))
    rc, out, err = run("clusters/prod.dsl", "--baseline", "dslc-baseline.json", "--format", "sarif")
    states = sorted((r["ruleId"], r["baselineState"]) for r in json.loads(out)["runs"][0]["results"])
    result(states == marks, "--baseline: SARIF's baselineState says the same", states)
    result("stale: clusters/prod.dsl[pool-acl]" in run("clusters/prod.dsl", "--baseline", "dslc-baseline.json",
                                                       "--strict-baseline")[2],
           "--strict-baseline names the entry the edit left stale", "")
    fixed = base.replace('acl "A::OWNER@:rw" "A::alice@:rx"', 'acl "A::OWNER@:rw" "A::alice@:r"')
    write(fixed)
    rc, out, err = run("clusters/prod.dsl", "--baseline", "dslc-baseline.json")
    rcs, outs, errs = run("clusters/prod.dsl", "--baseline", "dslc-baseline.json", "--strict-baseline")
    result(rc == 0 and "1 entry matches no finding" in err and rcs == 1 and "stale: clusters/prod.dsl[pool-acl]" in errs,
           "a fixed finding: its entry is stale, said (exit 0), failed with --strict-baseline (exit 1)", (rc, err[-300:], rcs))
    other = os.path.join(d, "lab.dsl")
    with open(other, "w") as out_f:
        out_f.write(edited)
    rc, out, err = run("clusters/lab.dsl", "--baseline", "dslc-baseline.json", "--strict-baseline")
    result(rc == 1 and "known findings not shown" not in err and "stale" not in err,
           "another file's entries are not stale when it is not linted; its own findings are new", (rc, err[-300:]))
    write(base)
    with open(os.path.join(tmp, "bl", ".dslc-lint"), "w") as cfg:
        cfg.write('lint {\n  roots "clusters/prod.dsl"\n  baseline "dslc-baseline.json"\n}\n')
    rc, out, err = run(cwd=d)
    result(rc == 0 and out == "" and "known findings not shown" in err,
           ".dslc-lint's baseline applies from any directory below it", (rc, out[:300], err[-300:]))
    rc, out, err = run("--baseline", "absent.json", cwd=d)
    result(rc == 2 and "absent.json" in err, "--baseline replaces the settings' one (absent: exit 2)", (rc, err[-200:]))
    with open(bl, "w") as b:
        b.write('{"format": "dslc-baseline", "version": 1, "findings": [}')
    rc, out, err = run("clusters/prod.dsl", "--baseline", "dslc-baseline.json")
    result(rc == 2 and re.search(r"dslc-baseline.json:1:\d+: not a dslc baseline", err) and "--write-baseline" in err,
           "a broken baseline: exit 2 at its line and column, with the fix", err[-300:])
    bad = os.path.join(d, "syntax.dsl")
    with open(bad, "w") as b:
        b.write("daos 2.6\ncluster {\n")
    rc, out, err = run("--write-baseline", "dslc-baseline.json", "clusters/syntax.dsl")
    rc2, out2, err2 = run("--baseline", "dslc-baseline.json", "clusters/syntax.dsl")
    result(json.load(open(bl))["findings"] == [] and rc2 == 1 and "error[syntax]" in out2,
           "a syntax error is never recorded: what no suppression silences, no baseline does", (rc2, out2[:200]))
    rc, out, err = run("--write-baseline", "x.json", "--fix", "clusters/prod.dsl")
    result(rc == 2 and not os.path.exists(os.path.join(tmp, "bl", "x.json")), "--write-baseline with --fix is refused", err)


def import_formats():
    """dslc import prints its findings on stderr in any format (it once
    crashed on SARIF and printed no JSON: no version was passed)."""
    f = "tests/golden/yaml/accepted-shapes.yml"
    for fmt in ("json", "sarif", "gitlab", "junit", "checkstyle", "concise"):
        p = subprocess.run(DSLC + ["import", "--format", fmt, f], cwd=REPO, capture_output=True)
        doc = p.stderr.decode(errors="replace").rsplit("dslc: nothing imported", 1)[0]
        try:
            if fmt in ("json", "sarif", "gitlab"):
                ok = bool(json.loads(doc))
            elif fmt == "concise":
                ok = bool(LINE.match(doc.splitlines()[0].encode()))
            else:
                ok = ET.fromstring(doc.encode()) is not None
        except Exception as e:  # noqa: BLE001
            ok, doc = False, f"{e}: {doc[:200]}"
        result(ok and p.returncode == 1, f"import --format {fmt}: the findings as a document, exit 1", (p.returncode, doc[:200]))


def rule_urls():
    rules = json.loads(subprocess.run(DSLC + ["rules", "--format", "json"], capture_output=True, check=True).stdout)
    spec = open(os.path.join(REPO, "SPEC.md")).read().splitlines()
    anchors = collections.Counter(m.group(1) for l in spec for m in [re.fullmatch(r'<a id="([^"]+)"></a>', l)] if m)
    base = None
    bad = []
    for r in rules:
        url = r.get("url", "")
        m = re.fullmatch(r"(.+)#(rule-[a-z0-9-]+)", url)
        if not m or m.group(2) != "rule-" + r["id"]:
            bad.append((r["id"], url, "url"))
            continue
        base = base or m.group(1)
        if m.group(1) != base or anchors[m.group(2)] != 1:
            bad.append((r["id"], url, "anchor count %d" % anchors[m.group(2)]))
            continue
        i = spec.index(f'<a id="{m.group(2)}"></a>')
        heading = next((l for l in spec[i + 1:i + 3] if l.strip()), "")
        if heading != f"### `{r['id']}`":
            bad.append((r["id"], heading))
    result(not bad and len(rules) > 100, f"every rule's URL ({len(rules)}) is its SPEC.md anchor, right above its heading",
           bad[:5])
    # the packages install SPEC.md where the URL points (debian/rules: PREFIX=/usr)
    if base and base.startswith("file://"):
        dry = subprocess.run(["make", "-n", "install", "PREFIX=/usr", "DESTDIR=/x"], cwd=REPO, capture_output=True,
                             text=True).stdout
        result(f"/x{base[len('file://'):].rsplit('/', 1)[0]}/" in dry and "SPEC.md" in dry,
               f"make install PREFIX=/usr puts SPEC.md where the URL points ({base})", dry[-300:])
    sample = [r for r in rules if r["id"] in ("syntax", "first-core-outside-numa", "pool-acl")]
    for r in sample:
        out = subprocess.run(DSLC + ["explain", r["id"]], capture_output=True, text=True).stdout
        result(out.rstrip().splitlines()[-1] == "documentation: " + r["url"], f"explain {r['id']} prints its URL",
               out[-200:])
    rc, out, err = lint(["--format", "sarif", "tests/golden/diag/first-core-outside-numa.dsl"])
    run = json.loads(out)["runs"][0]
    by_id = {r["id"]: r["url"] for r in rules}
    result(run["tool"]["driver"]["informationUri"] == base and
           all(x["helpUri"] == by_id[x["id"]] for x in run["tool"]["driver"]["rules"]),
           "sarif: informationUri is the documentation, each rule's helpUri its URL", run["tool"]["driver"].get("informationUri"))
    rc, ref = findings_of(["tests/golden/diag/first-core-outside-numa.dsl"], REPO)
    result(ref and all(f["url"] == by_id[f["ruleId"]] for f in ref), "json: each finding carries its rule's URL", ref[:1])


every_fixture()
clean_files()
with tempfile.TemporaryDirectory() as tmp:
    hostile_names(tmp)
    exit_zero(tmp)
    alike_findings(tmp)
    baseline_tests(tmp)
import_formats()
rule_urls()
print(f"formats: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
