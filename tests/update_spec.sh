#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Rewrites SPEC.md's generated sections from the tables (review the diff).
set -eu
DSLC=$1
cd "$(dirname "$0")/.."
tmp=$(mktemp)
awk -v dslc="$DSLC" '
	/^<!-- BEGIN GENERATED: (dslc|file) / {
		print
		cmd = $0; sub(/^<!-- BEGIN GENERATED: (dslc )?/, "", cmd); sub(/ -->$/, "", cmd)
		# `file PATH`: the file itself, in a dsl fence (SPEC.md section 1)
		if (cmd == "toc") {
			run = "/usr/bin/python3 tests/spec_toc.py SPEC.md"
			while ((run | getline line) > 0) print line
			close(run)
		} else if (cmd ~ /^file /) {
			path = substr(cmd, 6)
			print "```dsl"
			while ((getline line < path) > 0) print line
			close(path)
			print "```"
		} else {
			run = dslc " " cmd
			while ((run | getline line) > 0) print line
			close(run)
		}
		skip = 1; next
	}
	/^<!-- END GENERATED -->$/ { skip = 0 }
	!skip' SPEC.md >"$tmp"
mv "$tmp" SPEC.md
# the contents last: they list the headings the other sections gave
awk '/^<!-- BEGIN GENERATED: toc -->$/ {print; while (("/usr/bin/python3 tests/spec_toc.py SPEC.md" | getline l) > 0) print l; skip = 1; next}
	/^<!-- END GENERATED -->$/ {skip = 0} !skip' SPEC.md >"$tmp"
mv "$tmp" SPEC.md
echo "SPEC.md regenerated: review git diff SPEC.md"
