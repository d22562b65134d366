# SPDX-License-Identifier: BSD-2-Clause-Patent
"""DAOS's own config loader, the oracle of the differential tests: where it
is, and its verdict told from its failure to run (tests/lib.sh has the same
for the shell tests).

DSLC_DAOS_LOADER names the loader; else ../shared/validators/daos-config-check
beside the repository. Its contract (../shared/validators/README.md and the
wrapper): exit 0 and a last line `ok` when DAOS accepts the file, exit 1
with DAOS's error on stdout when it rejects it; exit 2 (usage, a checksum
mismatch) and anything else is the oracle failing, which must fail the test,
never read as a rejection. With DSLC_REQUIRE_ORACLES=1 a missing loader is
a failure, not a skip."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOADER = os.environ.get("DSLC_DAOS_LOADER") or os.path.join(os.path.dirname(ROOT), "shared", "validators",
                                                            "daos-config-check")


# the exit status of a suite that cannot run for want of the loader
REQUIRED = os.environ.get("DSLC_REQUIRE_ORACLES") == "1"
ABSENT_STATUS = 1 if REQUIRED else 0


class LoaderBroken(Exception):
    """The loader did not give a verdict."""


def available(suite):
    """True when the loader is here; otherwise prints the suite's skip line
    (or, under DSLC_REQUIRE_ORACLES=1, a FAIL line) and returns False."""
    if os.access(LOADER, os.X_OK):
        return True
    if REQUIRED:
        print(f"FAIL {suite}: DAOS's loader {LOADER} is absent, and DSLC_REQUIRE_ORACLES=1")
    else:
        print(f"skip {suite}: DAOS's loader is absent (set DSLC_DAOS_LOADER, or put ../shared/validators beside the repository)")
    return False


def run(args, timeout=120):
    """The loader on args (options then the file): (accepted, stdout + stderr).
    Raises LoaderBroken when it gives no verdict."""
    try:
        r = subprocess.run([LOADER, *args], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise LoaderBroken(f"DAOS's loader failed to run: {e}") from e
    out = r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    if r.returncode == 0 and lines and lines[-1] == "ok":
        return True, out
    if r.returncode == 1 and r.stdout.strip() and "daos-config-check:" not in r.stderr:
        return False, out
    raise LoaderBroken(f"DAOS's loader failed to run (exit {r.returncode}): {out.strip()[-300:]}")
