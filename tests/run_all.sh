#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# One mode of the suite against one build directory, one program at a time
# (make check runs every mode from one queue over both cores:
# tests/check_queue.py, which holds the list of programs per mode). Prints
# each program's findings but its passing lines, its seconds, and last
# "check: N passed, N failed, N skipped", then every skip with its reason.
# Under CI (CI=true) a precondition scripts/install-deps.sh provides is
# required: its absence fails the run instead of skipping.
#   tests/run_all.sh BUILD            plain
#   tests/run_all.sh BUILD asan       the same binaries built with ASan+UBSan
#   tests/run_all.sh BUILD valgrind   dslc and the unit tests under valgrind
set -u
cd "$(dirname "$0")/.."
BUILD=$1
MODE=${2:-plain}
case $MODE in
plain | valgrind) exec /usr/bin/python3 tests/check_queue.py --workers 1 --no-build --modes "$MODE" --build "$BUILD" ;;
asan) exec /usr/bin/python3 tests/check_queue.py --workers 1 --no-build --modes asan --asan-build "$BUILD" ;;
*) echo "run_all.sh: MODE is plain, asan or valgrind, not '$MODE'" >&2; exit 2 ;;
esac
