#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""make check: every (program, mode) pair from one queue over the machine's
cores (issue 58). CI's machine has two; running the plain pass, then the
ASan and valgrind passes side by side, left one core idle for a third of the
run.

Modes:
  plain     build/dslc: every test program.
  asan      build-asan/dslc (ASan+UBSan): the same programs but the ones that
            test other tools (the .deb, networkd, CI examples, the spec's
            tables), smaller random samples, and for the suites driven by
            fakes (rollout_gates, rollout_k8s, os_artifacts) only their dslc
            calls: the scripts those calls write run against the fakes once,
            in the plain pass, where the fakes are tested, not dslc.
  valgrind  build/dslc under memcheck, for what ASan cannot see: reads of
            uninitialised memory (MSan would need every library rebuilt with
            it, which Debian does not ship) in the optimised binary that
            ships (-O2, not ASan's -O1), on the inputs that reach the most
            code: the unit tests, every second golden fixture (memcheck
            costs about 40x; ASan's pass runs every fixture, every rule and
            target), hostile input, the output tree, import, plan, --fix on
            every fourth fixture, the LSP server (a long-lived process whose
            state outlives each message) and doctor (reads of untrusted
            roots). The rest run the same code through other inputs, under
            ASan; the rollout scripts are shell, and dslc's part in them is
            the plan that golden and plan_tests run.
  fuzz      each libFuzzer target for FUZZ_CHECK_SECONDS (20).

A job that needs a build (the ASan or fuzz binaries) waits for it; the
longest ready job goes first (PROGRAMS gives each mode's estimate).
A job that mostly waits (the crash probe) has a lane of its own beside the
workers. Each job's output is kept and printed when it ends (never interleaved):
every line but the passing ones. The summary gives each job's seconds, the
counts per mode, every skip with its reason, and last
"check: N passed, N failed, N skipped".

  tests/check_queue.py [--workers N] [--modes plain,asan,valgrind,fuzz]
                       [--build DIR] [--asan-build DIR] [--fuzz-build DIR]
                       [--only NAME[,NAME]]
"""
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"


def have_jsonschema():
    return subprocess.run([PY, "-c", "import jsonschema"], capture_output=True).returncode == 0


VG = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect",
      "--suppressions=%s/tests/hwloc.supp" % ROOT]
FUZZ_TARGETS = ["fuzz_dsl", "fuzz_yaml", "fuzz_output", "fuzz_topology", "fuzz_lint_files", "fuzz_rollout", "fuzz_lsp",
                "fuzz_manifest", "fuzz_rootfs"]
# Every test program and what each mode runs of it: (estimate s, extra
# arguments), or None where the mode does not run it. The runner: "sh" and
# "py" take the mode's dslc first; "bare" takes none ({build} is the mode's
# build directory). Estimates are the seconds of a quiet 2-core run (make
# check at 1a389e9), for the order only; a light job mostly waits.
PROGRAMS = [
    # name, runner, plain, asan, valgrind
    ("golden", "sh", (3, []), (8, []), (90, ["half"])),
    ("tree_tests", "sh", (18, []), (12, []), (57, ["quick"])),
    ("os_artifacts", "sh", (51, []), (25, ["calls"]), None),
    ("kernel_cmdline", "sh", (2, []), (3, []), None),
    ("hostile", "sh", (8, []), (14, []), (54, ["quick"])),
    ("help_applied", "sh", (1, []), (3, []), None),
    ("lint_files", "sh", (1, []), (1, []), None),
    ("lint_config", "sh", (1, []), (1, []), None),
    ("examples_storage", "sh", (4, []), (3, []), None),
    ("fmt_tests", "sh", (23, []), (12, ["quick"]), None),
    ("import_tests", "sh", (2, []), (2, []), (19, [])),
    ("plan_tests", "sh", (4, []), (9, []), (33, ["quick"])),
    ("plan_scenarios", "sh", (4, []), (5, []), None),
    ("plan_waves", "sh", (1, []), (2, []), None),
    ("rollout_gates", "sh", (116, []), (1, ["calls"]), None),
    ("rollout_k8s", "sh", (189, []), (1, ["calls"]), None),
    ("rollout_lock", "sh", (40, []), (1, ["calls"]), None),
    ("doctor_manifest", "sh", (15, []), (30, []), None),
    ("disruption_pinned", "sh", (1, []), (1, []), None),
    ("product_form", "sh", (1, []), (4, []), None),
    ("fidelity", "sh", (22, []), (23, []), None),
    ("editors", "sh", (1, ["{build}"]), (1, ["{build}"]), None),
    ("networkd_netns", "sh", (10, []), None, None),
    ("ci_examples", "sh", (35, []), None, None),
    ("check_spec", "sh", (1, []), None, None),
    ("fix_applied", "py", (81, []), (78, []), (60, ["quick"])),
    ("lsp_client", "py", (1, []), (2, []), (25, [])),
    ("device_reads", "py", (3, []), (4, []), None),
    ("doctor", "py", (7, []), (9, []), (97, [])),
    ("doctor_captures", "py", (30, []), (40, []), None),
    ("edges", "py", (4, []), (8, []), None),
    ("ci_formats", "py", (25, []), (70, []), None),
    ("lint_paths", "py", (8, []), (16, []), None),
    ("ci_action", "py", (20, []), None, None),
    ("pictures", "py", (35, []), (30, ["--no-render"]), None),
    ("docs_agree", "py", (1, []), None, None),
    ("shapes", "py", (7, []), (2, ["--count", "40"]), None),
    ("waves_property", "py", (1, []), (1, ["--count", "60"]), None),
    ("cascade", "py", (100, ["--fixtures", "40"]), (40, ["--fixtures", "20", "--pairs", "0"]), None),
    ("import_diff", "py", (19, []), (10, ["--count", "60"]), None),
    ("tiers_diff", "py", (24, []), (8, ["--sample4", "0", "--tiers", "2"]), None),
    ("acl_diff", "py", (4, []), (3, ["--count", "100"]), None),
    ("daos_diff", "py", (21, []), None, None),
    ("kubelet_admit", "bare", (60, [PY, "tests/validate/kubelet_admit.py", "{build}/dslc"]),
     (30, [PY, "tests/validate/kubelet_admit.py", "{build}/dslc", "40"]), None),
    ("containerd_check", "bare", (110, [PY, "tests/validate/containerd_check.py", "{build}/dslc"]),
     (40, [PY, "tests/validate/containerd_check.py", "{build}/dslc", "20", "30"]), None),
    ("ansible_apply", "py", (200, ["runs,hostile"]), None, None),
    ("ansible_rollout", "bare", (150, [PY, "tests/ansible_apply.py", "{build}/dslc", "bios,planned,rollout"]), None, None),
    ("validate", "validate", (19, []), (33, []), None),
    ("package", "bare", (40, ["bash", "tests/package.sh"]), None, None),
    ("package_rpm", "bare", (45, ["bash", "tests/package_rpm.sh"]), None, None),
    ("vsix", "sh", (30, []), None, None),
    ("test_patterns", "bare", (1, [PY, "tests/test_patterns.py"]), None, None),
    ("crash_probe", "light", (276, ["bash", "tests/crash_probe.sh", "{build}"]), None, None),
]
MODES = {"plain": 2, "asan": 3, "valgrind": 4}


def jobs(opts):
    """The jobs of the modes asked: name, mode, argv, estimate, the build they
    need (when the queue builds it), and whether they mostly wait."""
    builds = {"plain": opts["build"], "valgrind": opts["build"], "asan": opts["asan_build"]}
    out = []

    def add(mode, name, argv, est, needs=None, light=False):
        out.append({"name": name, "mode": mode, "argv": argv, "est": est, "light": light,
                    "needs": needs if opts["build_jobs"] else None})

    for mode in opts["modes"]:
        if mode == "fuzz":
            if opts["build_jobs"]:
                add(mode, "fuzz-build", ["@make", "fuzz-build"], 29)
            secs = os.environ.get("FUZZ_CHECK_SECONDS", "20")
            for t in FUZZ_TARGETS:
                add(mode, t, ["bash", "tests/fuzz/run.sh", opts["fuzz_build"], secs, t], int(secs) + 2, "fuzz-build")
            continue
        b = builds[mode]
        needs = "asan-build" if mode == "asan" else None
        if needs and opts["build_jobs"]:
            add(mode, "asan-build", ["@make", "asan-build", "ASAN_BUILD=" + b], 26)
        dslc = " ".join(VG + [b + "/dslc"]) if mode == "valgrind" else b + "/dslc"
        unit = ["env", "CK_FORK=no"] + VG if mode == "valgrind" else []
        add(mode, "unit_tests", unit + [b + "/unit_tests"], 6 if mode == "valgrind" else 1, needs)
        for row in PROGRAMS:
            name, runner, this = row[0], row[1], row[MODES[mode]]
            if this is None:
                continue
            est, extra = this[0], [a.replace("{build}", b) for a in this[1]]
            argv = {"sh": ["bash", "tests/%s.sh" % name, dslc], "py": [PY, "tests/%s.py" % name, dslc],
                    "validate": ["@validate", dslc]}.get(runner, [])
            add(mode, name, argv + extra, est, needs, light=runner == "light")
    if opts["only"]:
        out = [j for j in out if j["name"] in opts["only"]]
    return out


def env_for(mode):
    e = dict(os.environ)
    if mode == "asan":
        e["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1"
        e["LSAN_OPTIONS"] = "suppressions=%s/tests/fuzz/lsan.supp" % ROOT
        e["UBSAN_OPTIONS"] = "print_stacktrace=1"
    return e


class Job:
    def __init__(self, spec):
        self.__dict__.update(spec)
        self.key = "%s/%s" % (self.mode, self.name)
        self.passed = self.failed = self.skipped = 0
        self.skips, self.shown, self.secs = [], "", 0


def count(job, text, rc):
    """run_all's rules: ok/FAIL/skip lines; a program that dies without a
    FAIL line, or says nothing, is a failure; the unit tests by Check's line."""
    lines = text.splitlines()
    if job.name == "unit_tests":
        m = re.search(r"Checks: (\d+), Failures: (\d+), Errors: (\d+)", text)
        if m and rc == 0:
            n, f, e = map(int, m.groups())
            job.passed, job.failed = n - f - e, f + e
        else:
            job.failed = 1
            lines.append("FAIL unit tests (exit %d)" % rc)
        job.shown = text if job.failed else "\n".join(l for l in lines if not l.startswith("ok ") and "Checks:" in l)
        return
    if job.name in ("asan-build", "fuzz-build"):
        if rc == 0:
            job.passed, job.shown = 0, ""
        else:
            job.failed, job.shown = 1, text[-4000:] + "\nFAIL %s: exit %d" % (job.name, rc)
        return
    job.passed = sum(1 for l in lines if l.startswith("ok "))
    job.failed = sum(1 for l in lines if l.startswith("FAIL"))
    job.skips = [l for l in lines if l.startswith("skip ")]
    job.skipped = len(job.skips)
    if rc != 0 and not job.failed:
        lines.append("FAIL %s (%s): exit %d without a FAIL line" % (job.name, job.mode, rc))
        job.failed = 1
    elif not (job.passed or job.failed or job.skipped):
        lines.append("FAIL %s (%s): no ok, FAIL or skip line" % (job.name, job.mode))
        job.failed = 1
    job.shown = "\n".join(l for l in lines if not l.startswith("ok "))


def run_validate(job, env, log):
    """The validators of tests/validate, one job: they need python3-jsonschema."""
    if not have_jsonschema():
        if os.environ.get("CI") == "true":
            log.write("FAIL formats: python3-jsonschema is missing (CI has it: scripts/install-deps.sh installs it)\n")
            return 1
        log.write("skip formats: python3-jsonschema is missing (scripts/install-deps.sh installs it)\n")
        return 0
    rc = 0
    for p in ("formats_check", "k8s_check", "clients_check", "link_check", "lossless_check"):
        r = subprocess.run([PY, "tests/validate/%s.py" % p, job.argv[1]], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            log.write("FAIL validate/%s exited %d\n" % (p, r.returncode))
            rc = 1
    return rc


def run(job):
    env = env_for(job.mode)
    start = time.time()
    with tempfile.TemporaryFile(mode="w+") as log:
        if job.argv[0] == "@validate":
            rc = run_validate(job, env, log)
        else:
            argv = job.argv
            if argv[0] == "@make":
                argv = ["make", "--no-print-directory"] + argv[1:]
            rc = subprocess.run(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
        log.seek(0)
        text = log.read()
    job.secs = time.time() - start
    count(job, text, rc)


def main(argv):
    opts = {"workers": os.cpu_count() or 2, "modes": ["plain", "asan", "valgrind", "fuzz"], "build": "build",
            "asan_build": "build-asan", "fuzz_build": "build-fuzz", "only": None, "build_jobs": True}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--workers":
            opts["workers"] = int(argv[i + 1])
        elif a == "--modes":
            opts["modes"] = argv[i + 1].split(",")
        elif a in ("--build", "--asan-build", "--fuzz-build"):
            opts[a[2:].replace("-", "_")] = argv[i + 1]
        elif a == "--only":
            opts["only"] = argv[i + 1].split(",")
        elif a == "--no-build":
            opts["build_jobs"] = False
            i += 1
            continue
        else:
            sys.exit("check_queue: unknown option %s (see its header)" % a)
        i += 2
    os.chdir(ROOT)
    todo = [Job(s) for s in jobs(opts)]
    loader = os.environ.get("DSLC_DAOS_LOADER") or os.path.join(os.path.dirname(ROOT), "shared", "validators", "daos-config-check")
    req = " (required)" if os.environ.get("DSLC_REQUIRE_ORACLES") else ""
    # the path only when it was given: the default is a folder beside the
    # clone that a user's machine does not have
    where = loader if os.environ.get("DSLC_DAOS_LOADER") else "../shared/validators/daos-config-check"
    if os.access(loader, os.X_OK):
        print("oracles: DAOS's own config loader (%s) is here: the differential tests run%s" % (where, req))
    elif req:
        print("oracles: DAOS's own config loader (%s) is absent: the differential tests fail (DSLC_REQUIRE_ORACLES=1)" % where)
    else:
        print("oracles: DAOS's own config loader (daos-config-check, DAOS's Go control plane built as a test tool) is "
              "not here: the differential tests say skip, and the rest runs as it would with it; a loader built from "
              "DAOS's Go sources (config.Server.Load and Validate behind a small main) is taken from "
              "DSLC_DAOS_LOADER (README, 'DAOS's loader')")
    if "valgrind" in opts["modes"] and subprocess.run(["sh", "-c", "command -v valgrind"], capture_output=True).returncode != 0:
        # one job that says so: a failure under CI (install-deps.sh installs it), else a skip
        todo = [j for j in todo if j.mode != "valgrind"]
        word = "FAIL" if os.environ.get("CI") == "true" else "skip"
        todo.append(Job({"name": "valgrind", "mode": "valgrind", "argv": ["echo", word + " valgrind pass: valgrind is not installed"],
                         "est": 0, "needs": None, "light": False}))
    print("check: %d jobs (%s) on %d workers" % (len(todo), ", ".join(opts["modes"]), opts["workers"]), flush=True)
    lock = threading.Lock()
    done, failed_builds = set(), set()  # the builds
    pending = sorted(todo, key=lambda j: (not j.name.endswith("-build"), -j.est))  # the builds first
    started = time.time()

    def take(light):
        with lock:
            mine = [j for j in pending if j.light == light]
            for j in mine:
                if j.needs is None or j.needs in done or j.needs in failed_builds:
                    pending.remove(j)
                    return j
            return None if not mine else "wait"

    def worker(light=False):
        while True:
            j = take(light)
            if j is None:
                return
            if j == "wait":
                time.sleep(0.5)
                continue
            if j.needs in failed_builds:
                j.failed, j.shown, j.secs = 1, "FAIL %s (%s): its build %s failed" % (j.name, j.mode, j.needs), 0
            else:
                run(j)
            with lock:
                if j.name.endswith("-build"):
                    (failed_builds if j.failed else done).add(j.name)
                print("== %s (%s): %d passed, %d failed, %d skipped in %d s [%d s]" %
                      (j.name, j.mode, j.passed, j.failed, j.skipped, j.secs, time.time() - started))
                if j.shown.strip():
                    print(j.shown.rstrip())
                sys.stdout.flush()

    threads = [threading.Thread(target=worker) for _ in range(opts["workers"])]
    if opts["workers"] > 1:  # one program at a time when asked for one worker
        threads.append(threading.Thread(target=worker, args=(True,)))
    else:
        for j in todo:
            j.light = False
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = {"passed": 0, "failed": 0, "skipped": 0}
    print("\n== seconds per job, longest first (wall: %d s on %d workers)" % (time.time() - started, opts["workers"]))
    for mode in opts["modes"]:
        js = sorted([j for j in todo if j.mode == mode], key=lambda j: -j.secs)
        if not js:
            continue
        print("%s (%d s): %s" % (mode, sum(j.secs for j in js), ", ".join("%s %d" % (j.name, j.secs) for j in js)))
    for mode in opts["modes"]:
        js = [j for j in todo if j.mode == mode]
        p, f, s = sum(j.passed for j in js), sum(j.failed for j in js), sum(j.skipped for j in js)
        total["passed"] += p
        total["failed"] += f
        total["skipped"] += s
        if js:
            print("%s: %d passed, %d failed, %d skipped" % (mode, p, f, s))
    skips = [(j.mode, s) for j in todo for s in j.skips]
    if skips:
        print("skipped, each with its reason:")
        for mode, s in skips:
            print("  (%s) %s" % (mode, s[5:]))
    bad = [j for j in todo if j.failed]
    if bad:
        # again at the end, where a log cut to its tail still shows why:
        # each failed job's FAIL lines (Check's :F:/:E: lines for the unit
        # tests), at most 12 a job
        print("failed: " + ", ".join(j.key for j in bad))
        for j in bad:
            why = [l for l in j.shown.splitlines()
                   if l.startswith("FAIL") or re.search(r":[FE]:", l) or "Check:" in l][:12]
            for l in why or j.shown.splitlines()[-6:]:
                print("  %s: %s" % (j.key, l[:400]))
    print("check: %d passed, %d failed, %d skipped" % (total["passed"], total["failed"], total["skipped"]))
    return 1 if total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
