# SPDX-License-Identifier: BSD-2-Clause-Patent
"""What the validators of tests/validate share: ok/FAIL/skip lines in the
form tests/check_queue.py counts, and a dslc build."""
import subprocess
import sys


class Report:
    def __init__(self, suite):
        self.suite, self.passed, self.failed = suite, 0, 0

    def check(self, name, cond, detail=""):
        if cond:
            self.passed += 1
            print("ok   %s %s" % (self.suite, name))
        else:
            self.failed += 1
            print("FAIL %s %s%s" % (self.suite, name, (": %s" % str(detail)[-600:]) if detail else ""))

    def skip(self, name, why):
        print("skip %s %s: %s" % (self.suite, name, why))

    def end(self):
        """The summary line, and the exit status: 1 when a check failed."""
        print("%s: %d passed, %d failed" % (self.suite, self.passed, self.failed))
        sys.exit(1 if self.failed else 0)


def build(dslc, src, out):
    """dslc build SRC -o OUT: (exit status, its output)."""
    r = subprocess.run([dslc, "build", src, "-o", out], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr
