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
            code: the unit tests, every golden fixture (every rule and
            target), hostile input, the output tree, import, plan, --fix on
            every fourth fixture, the LSP server (a long-lived process whose
            state outlives each message) and doctor (reads of untrusted
            roots). The rest run the same code through other inputs, under
            ASan; the rollout scripts are shell, and dslc's part in them is
            the plan that golden and plan_tests run.
  fuzz      each libFuzzer target for FUZZ_CHECK_SECONDS (20).

A job that needs a build (the ASan or fuzz binaries) waits for it; the
longest ready job goes first (its estimate below, from a quiet 2-core run).
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


def jobs(opts):
    """(name, mode, argv, estimate s, needs) of every job of the modes asked."""
    b, ab, fb = opts["build"], opts["asan_build"], opts["fuzz_build"]
    vg = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect",
          "--suppressions=%s/tests/hwloc.supp" % ROOT]
    out = []

    def add(mode, name, argv, est, needs=None, light=False):
        out.append({"name": name, "mode": mode, "argv": argv, "est": est, "needs": needs, "light": light})

    for mode in opts["modes"]:
        if mode == "plain":
            d = b + "/dslc"
            add(mode, "unit_tests", [b + "/unit_tests"], 20)
            for prog, est in [("golden", 60), ("tree_tests", 40), ("os_artifacts", 20), ("kernel_cmdline", 10), ("hostile", 150),
                              ("help_applied", 40), ("lint_files", 10), ("lint_config", 20), ("examples_storage", 30),
                              ("fmt_tests", 120), ("import_tests", 20), ("plan_tests", 30), ("plan_scenarios", 40),
                              ("plan_waves", 20), ("rollout_gates", 30), ("rollout_k8s", 50), ("disruption_pinned", 5),
                              ("product_form", 60), ("fidelity", 20), ("networkd_netns", 15), ("ci_examples", 60),
                              ("check_spec", 10)]:
                add(mode, prog, ["bash", "tests/%s.sh" % prog, d], est)
            # mostly waiting (a crashed language server's client, timeouts):
            # a lane of its own beside the workers
            add(mode, "crash_probe", ["bash", "tests/crash_probe.sh", b], 270, light=True)
            add(mode, "editors", ["bash", "tests/editors.sh", d, b], 60)
            add(mode, "package", ["bash", "tests/package.sh"], 90)
            add(mode, "test_patterns", [PY, "tests/test_patterns.py"], 2)
            for prog, est in [("fix_applied", 70), ("lsp_client", 30), ("doctor", 60), ("shapes", 60), ("daos_diff", 60),
                              ("tiers_diff", 130), ("acl_diff", 20), ("import_diff", 30), ("waves_property", 40)]:
                add(mode, prog, [PY, "tests/%s.py" % prog, d], est)
            add(mode, "validate", ["@validate", d], 30)
        elif mode == "asan":
            d = ab + "/dslc"
            need = "asan-build"
            add(mode, "unit_tests", [ab + "/unit_tests"], 60, need)
            for prog, est, extra in [("golden", 150, []), ("tree_tests", 80, []), ("os_artifacts", 15, ["calls"]),
                                     ("kernel_cmdline", 20, []), ("hostile", 250, []), ("help_applied", 90, []),
                                     ("lint_files", 20, []), ("lint_config", 30, []), ("examples_storage", 60, []),
                                     ("fmt_tests", 300, []), ("import_tests", 40, []), ("plan_tests", 60, []),
                                     ("plan_scenarios", 90, []), ("plan_waves", 40, []), ("rollout_gates", 20, ["calls"]),
                                     ("rollout_k8s", 40, ["calls"]), ("disruption_pinned", 10, []),
                                     ("product_form", 100, []), ("fidelity", 60, [])]:
                add(mode, prog, ["bash", "tests/%s.sh" % prog, d] + extra, est, need)
            add(mode, "editors", ["bash", "tests/editors.sh", d, ab], 90, need)
            for prog, est, extra in [("fix_applied", 160, []), ("lsp_client", 60, []), ("doctor", 150, []),
                                     ("shapes", 40, ["--count", "40"]), ("waves_property", 40, ["--count", "60"]),
                                     ("import_diff", 30, ["--count", "60"]), ("tiers_diff", 60, ["--sample4", "0", "--tiers", "2"]),
                                     ("acl_diff", 20, ["--count", "100"])]:
                add(mode, prog, [PY, "tests/%s.py" % prog, d] + extra, est, need)
            add(mode, "validate", ["@validate", d], 60, need)
        elif mode == "valgrind":
            d = " ".join(vg + [b + "/dslc"])
            add(mode, "unit_tests", ["env", "CK_FORK=no"] + vg + [b + "/unit_tests"], 200)
            for prog, est, extra in [("golden", 500, []), ("hostile", 150, ["quick"]), ("import_tests", 150, []),
                                     ("plan_tests", 150, ["quick"]), ("tree_tests", 150, ["quick"])]:
                add(mode, prog, ["bash", "tests/%s.sh" % prog, d] + extra, est)
            for prog, est, extra in [("lsp_client", 150, []), ("doctor", 300, []), ("fix_applied", 150, ["quick"])]:
                add(mode, prog, [PY, "tests/%s.py" % prog, d] + extra, est)
        elif mode == "fuzz":
            add(mode, "fuzz-build", ["@make", "fuzz-build"], 150)
            secs = os.environ.get("FUZZ_CHECK_SECONDS", "20")
            for t in ["fuzz_dsl", "fuzz_yaml", "fuzz_output", "fuzz_topology", "fuzz_lint_files", "fuzz_rollout", "fuzz_lsp"]:
                add(mode, t, ["bash", "tests/fuzz/run.sh", fb, secs, t], int(secs) + 10, "fuzz-build")
    if "asan" in opts["modes"] and opts["build_jobs"]:
        out.insert(0, {"name": "asan-build", "mode": "asan", "est": 400, "needs": None, "light": False,
                       "argv": ["@make", "asan-build", "ASAN_BUILD=" + ab]})
    for j in out:
        if j["mode"] == "fuzz" and j["name"] == "fuzz-build" and not opts["build_jobs"]:
            out.remove(j)
            break
    if not opts["build_jobs"]:
        for j in out:
            j["needs"] = None
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
        self.skips, self.shown, self.secs, self.rc = [], "", 0, None


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
    """The three JSON-schema checks, one job: they need python3-jsonschema."""
    if not have_jsonschema():
        if os.environ.get("CI") == "true":
            log.write("FAIL formats: python3-jsonschema is missing (CI has it: scripts/install-deps.sh installs it)\n")
            return 1
        log.write("skip formats: python3-jsonschema is missing (scripts/install-deps.sh installs it)\n")
        return 0
    rc = 0
    for p in ("formats_check", "k8s_check", "clients_check"):
        r = subprocess.run([PY, "tests/validate/%s.py" % p, job.argv[1]], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            log.write("FAIL validate/%s exited %d\n" % (p, r.returncode))
            rc = 1
    return rc


def run(job, opts):
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
    job.secs, job.rc = time.time() - start, rc
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
    if os.access(loader, os.X_OK):
        print("oracles: DAOS's loader %s is here: the differential tests run%s" % (loader, req))
    else:
        print("oracles: DAOS's loader %s is absent: the differential tests say skip%s" % (loader, ", and fail" + req if req else ""))
    if "valgrind" in opts["modes"] and subprocess.run(["sh", "-c", "command -v valgrind"], capture_output=True).returncode != 0:
        todo = [j for j in todo if j.mode != "valgrind"]
        print(("FAIL" if os.environ.get("CI") == "true" else "skip") + " valgrind pass: valgrind is not installed")
    print("check: %d jobs (%s) on %d workers" % (len(todo), ", ".join(opts["modes"]), opts["workers"]), flush=True)
    lock = threading.Lock()
    done, failed_builds = set(), set()
    pending = sorted(todo, key=lambda j: -j.est)
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
                run(j, opts)
            with lock:
                (failed_builds if j.failed else done).add(j.name if j.name.endswith("-build") else j.key)
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
    bad = [j.key for j in todo if j.failed]
    if bad:
        print("failed: " + ", ".join(bad))
    print("check: %d passed, %d failed, %d skipped" % (total["passed"], total["failed"], total["skipped"]))
    return 1 if total["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
