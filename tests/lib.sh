# SPDX-License-Identifier: BSD-2-Clause-Patent
# shellcheck shell=bash
# lib.sh - the counting every shell test shares. Source it after cd-ing to
# the repository, call tests_begin NAME, then ok/no/check/skip, and end with
# tests_end, which prints "NAME: P passed, F failed, S skipped" (check_queue.py
# reads it) and returns non-zero when anything failed.
tests_begin() { T_NAME=$1; pass=0; fail=0; skipped=0; }
ok() { pass=$((pass + 1)); echo "ok   $T_NAME $1"; }
no() { fail=$((fail + 1)); echo "FAIL $T_NAME $1"; }
check() { if eval "$2"; then ok "$1"; else no "$1"; fi; } # name, shell condition
# exits N CMD...: CMD, its output discarded, exits with status N. A condition
# joins it with && (never `CMD; [ $? = N ]` after a chain or a pipeline, where
# only the last status counts: tests/test_patterns.py rejects that).
exits() { local want=$1; shift; "$@" >/dev/null 2>&1; [ $? = "$want" ]; }
# shellcheck_ok NAME FILE: FILE is a written sh script (not empty: an empty
# file passes every linter) that sh -n and shellcheck -s sh accept; without
# shellcheck, a skip (a failure in CI) rather than no line at all
shellcheck_ok() {
	if ! command -v shellcheck >/dev/null; then
		skip_or_fail_in_ci "$1: shellcheck is not installed"
		return
	fi
	check "$1" "head -n 1 '$2' | grep -q '^#!/bin/sh' && sh -n '$2' && shellcheck -s sh '$2'"
}
# A check that cannot run here, with the reason (check_queue.py lists every skip line).
skip() { skipped=$((skipped + 1)); echo "skip $T_NAME $1"; }
# A precondition scripts/install-deps.sh provides: missing under CI (CI=true)
# is a failure, elsewhere a skip.
skip_or_fail_in_ci() { if [ "${CI:-}" = true ]; then no "$1 (CI has it: scripts/install-deps.sh installs it)"; else skip "$1"; fi; }
# need_tools MODE WHAT TOOL...: true when every TOOL is on PATH; else, for
# `make deb|rpm|vsix` (MODE build-only), the install hint and exit 2, and for
# a test, a skip (a failure in CI), tests_end and exit
need_tools() {
	local mode=$1 what=$2 tool
	shift 2
	for tool in "$@"; do
		command -v "$tool" >/dev/null && continue
		[ "$mode" = build-only ] && { echo "dslc: $tool is not installed (scripts/install-deps.sh installs it)"; exit 2; }
		skip_or_fail_in_ci "$what: $tool is not installed"
		tests_end
		exit
	done
}
# Copies repository directories (paths relative to the repository) under
# DEST with their paths, so that a file edited there resolves its relative
# includes and topologies: a test never writes beside the fixtures, which
# another suite may be reading (make check runs two modes at once).
repo_copy() { # DEST DIR...
	local dest=$1 d
	shift
	for d in "$@"; do
		mkdir -p "$dest/$(dirname "$d")" && cp -r "$d" "$dest/$(dirname "$d")/" ||
			{ no "the repository's $d could not be copied to $dest"; return 1; }
	done
}
# fakes_serve DIR FAKE...: each Python fake of tests/fakes (dmg, kubectl,
# daos) in DIR as a client of one warm server (tests/fakes/serve.py: a call
# costs about 8 ms, not 50); the server ends with this test
fakes_serve() {
	local dir=$1
	shift
	/usr/bin/python3 tests/fakes/serve.py start "$dir" "$$" "$@" || no "tests/fakes/serve.py did not start ($*)"
}
tests_end() { echo "$T_NAME: $pass passed, $fail failed, $skipped skipped"; [ "$fail" = 0 ]; }

# ---- DAOS's own config loader, the oracle of the differential tests -----------
# DSLC_DAOS_LOADER names it; else ../shared/validators/daos-config-check beside
# the repository. With DSLC_REQUIRE_ORACLES=1 (.ci/run sets it when ../shared
# is there) a missing loader is a failure, not a skip.
DAOS_LOADER=${DSLC_DAOS_LOADER:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/validators/daos-config-check}
# A file of ../shared missing (a reference export, a schema): a skip, or a
# failure with DSLC_REQUIRE_ORACLES=1.
skip_shared() { # what: reason
	if [ "${DSLC_REQUIRE_ORACLES:-}" = 1 ]; then no "$1 (DSLC_REQUIRE_ORACLES=1)"; else skip "$1"; fi
}
# True when the loader is here; otherwise says skip (or FAIL) for what needs it.
have_loader() { # what-needs-it
	[ -x "$DAOS_LOADER" ] && return 0
	skip_shared "$1: DAOS's loader $DAOS_LOADER is absent (set DSLC_DAOS_LOADER, or put ../shared/validators beside the repository)"
	return 1
}
# The loader's verdict on a daos_server.yml, told from its failure to run
# (../shared/validators/daos-config-check: exit 0 and "ok", exit 1 with DAOS's
# error on stdout; exit 2 for usage or a checksum mismatch, and anything else,
# is the oracle failing). LOADER_OUT holds what it printed.
# Returns 0 accepted, 1 rejected, 2 the loader failed (say so: never a rejection).
loader_verdict() { # loader-args... file
	local out err rc
	out=$(mktemp) err=$(mktemp)
	"$DAOS_LOADER" "$@" >"$out" 2>"$err"
	rc=$?
	LOADER_OUT="$(cat "$out" "$err")"
	if [ $rc = 0 ] && [ "$(tail -n 1 "$out")" = ok ]; then rc=0
	elif [ $rc = 1 ] && [ -s "$out" ] && ! grep -q "^daos-config-check:" "$err"; then rc=1
	else LOADER_OUT="DAOS's loader failed to run (exit $rc): $LOADER_OUT"; rc=2
	fi
	rm -f "$out" "$err"
	return $rc
}
# Accepted, or prints why not (a rejection or the loader failing).
loader_accepts() { # loader-args... file
	loader_verdict "$@" && return 0
	echo "$LOADER_OUT" | tail -n 5
	return 1
}
