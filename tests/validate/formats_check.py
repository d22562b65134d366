#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Runs `dslc lint` on every fixture (plus an unreadable path) in the machine
formats and validates them: SARIF against the OASIS 2.1.0 schema in
../shared/reference/sarif/ (skipped when absent) and GitHub code scanning's
required properties; JSON against schemas/findings.schema.json; GitHub
annotations against the workflow-command grammar. Prints ok/FAIL lines.

usage: formats_check.py DSLC
"""
import glob
import json
import os
import re
import subprocess
import sys

import jsonschema

SARIF_SCHEMA = "../shared/reference/sarif/sarif-schema-2.1.0.json"
ANNOTATION = re.compile(r"^::(error|warning|notice) file=[^,:]+,line=\d+,endLine=\d+,col=\d+,endColumn=\d+,title=[^:]+::.*\S.*$")


def run(dslc, fmt, path):
    r = subprocess.run([dslc, "lint", "--max-findings", "0", "--format", fmt, path], capture_output=True, text=True)
    return r.returncode, r.stdout


def github_requirements(doc):
    run_ = doc["runs"][0]
    assert doc["version"] == "2.1.0" and doc["$schema"]
    assert "results" in run_
    rules = run_["tool"]["driver"]["rules"]
    for rule in rules:
        assert rule["id"] and rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
        assert len(rule["shortDescription"]["text"]) <= 1024 and len(rule["fullDescription"]["text"]) <= 1024
    for res in run_["results"]:
        assert res["ruleId"] == rules[res["ruleIndex"]]["id"]
        assert res["message"]["text"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) > (region["startLine"], region["startColumn"])
        uri = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert not uri.startswith("./") and ".." not in uri.split("/")
        assert res["partialFingerprints"]["primaryLocationLineHash"]


def invalid_utf8(dslc, findings, sarif):
    """A file name that is not UTF-8 (issue 54 item 3): every format carries
    the finding, JSON and SARIF as valid UTF-8 (U+FFFD for the byte), text
    as \\xNN. Yields (ok, name)."""
    import shutil
    import tempfile
    d = tempfile.mkdtemp(prefix="dslc-utf8-")
    try:
        name = os.path.join(d.encode(), b"\xe9t\x1b]0;x\x07.dsl")
        src = open("tests/golden/diag/bmc-missing.dsl").read().replace('"../../../examples/', '"' + os.getcwd() + "/examples/")
        with open(name, "w") as f:
            f.write(src)
        counts = {}
        for fmt in ("text", "json", "sarif", "github"):
            r = subprocess.run([dslc.encode(), b"lint", b"--format", fmt.encode(), name], capture_output=True)
            out = r.stdout
            try:
                if fmt == "json":
                    doc = json.loads(out.decode("utf-8"))
                    jsonschema.Draft7Validator(findings).validate(doc)
                    counts[fmt] = [(x["file"].rsplit("/", 1)[-1], x["line"]) for x in doc["findings"]]
                elif fmt == "sarif":
                    doc = json.loads(out.decode("utf-8"))
                    if sarif:
                        jsonschema.Draft4Validator(sarif).validate(doc)
                    counts[fmt] = [(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].rsplit("/", 1)[-1],
                                    x["locations"][0]["physicalLocation"]["region"]["startLine"])
                                   for x in doc["runs"][0]["results"]]
                elif fmt == "github":
                    text = out.decode("utf-8")
                    if "\x1b" in text:
                        raise ValueError("a raw ESC byte in an annotation (GitHub's log renders ANSI escapes)")
                    counts[fmt] = [(m.group(1).rsplit("/", 1)[-1], int(m.group(2)))
                                   for m in re.finditer(r"^::error file=([^,]*),line=(\d+)", text, re.M)]
                else:
                    counts[fmt] = [(m.group(1).decode().rsplit("/", 1)[-1], int(m.group(2)))
                                   for m in re.finditer(rb"^(.*\\xe9t\\x1b\]0;x\\x07\.dsl):(\d+):\d+: error", r.stderr + out, re.M)]
                    if b"\x1b" in r.stderr + out:
                        counts[fmt] = "a raw ESC byte reached the terminal"
            except Exception as e:  # any failure is a finding of this test
                counts[fmt] = f"{type(e).__name__}: {e}"
            yield (r.returncode == 1 and isinstance(counts[fmt], list) and len(counts[fmt]) == 1,
                   f"a file name with bytes that are not UTF-8 (\\xe9, ESC, BEL), --format {fmt}: "
                   f"exit {r.returncode}, the finding carried: {counts[fmt]}")
        want = ("\ufffdt\x1b]0;x\x07.dsl", 10)
        yield (counts.get("json") == [want] and counts.get("sarif") == [want] and
               counts.get("github") == [("\ufffdt%1B]0;x%07.dsl", 10)] and
               counts.get("text") == [("\\xe9t\\x1b]0;x\\x07.dsl", 10)],
               f"the same finding in every format: {counts}")
    finally:
        shutil.rmtree(d)


def main(dslc):
    inputs = sorted(glob.glob("tests/golden/diag/*.dsl") + glob.glob("tests/golden/yaml/*.yml")) + [
        "tests/golden/diag/no-such-file.dsl", "examples/hgx-b200/cluster.dsl"]
    sarif = json.load(open(SARIF_SCHEMA)) if os.path.exists(SARIF_SCHEMA) else None
    if not sarif:
        print(f"skip: {SARIF_SCHEMA} is absent; SARIF is checked for GitHub's fields only")
    findings = json.load(open("schemas/findings.schema.json"))
    passed = failed = 0
    for path in inputs:
        problems = []
        rc, out = run(dslc, "sarif", path)
        try:
            doc = json.loads(out)
            if sarif:
                jsonschema.Draft4Validator(sarif).validate(doc)
            github_requirements(doc)
            if path.endswith("clean.dsl") and doc["runs"][0]["results"] != []:
                problems.append("clean input must give results: []")
            if path.endswith("syntax.yml") and len(doc["runs"][0]["results"]) != 1:
                problems.append("a YAML syntax error must give exactly one result")
        except Exception as e:  # any failure is a finding of this test
            problems.append(f"sarif: {e}")
        rc2, out = run(dslc, "json", path)
        try:
            doc = json.loads(out)
            jsonschema.Draft7Validator(findings).validate(doc)
            if rc2 != rc:
                problems.append(f"exit codes differ between formats: {rc} and {rc2}")
        except Exception as e:
            problems.append(f"json: {e}")
        rc3, out = run(dslc, "github", path)
        lines = out.splitlines()
        if lines[:1] != ["::group::dslc"] or "::endgroup::" not in lines:
            problems.append("github: no ::group:: wrapper")
        for line in lines:
            if line.startswith("::") and not line.startswith("::group") and line != "::endgroup::" and not ANNOTATION.match(line):
                problems.append(f"github: malformed annotation {line[:80]!r}")
            if line.startswith("::") and "\n" in line:
                problems.append("github: unescaped newline")
        if problems:
            failed += 1
            print(f"FAIL formats {path}")
            for p in problems:
                print("   ", p)
        else:
            passed += 1
            print(f"ok   formats {path}")
    for ok, name in invalid_utf8(dslc, findings, sarif):
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok  ' if ok else 'FAIL'} formats {name}")
    print(f"formats: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
