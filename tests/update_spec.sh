#!/usr/bin/env bash
# Rewrites SPEC.md's generated sections from the tables (review the diff).
set -eu
DSLC=$1
cd "$(dirname "$0")/.."
tmp=$(mktemp)
awk -v dslc="$DSLC" '
	/^<!-- BEGIN GENERATED: dslc / {
		print
		cmd = $0; sub(/^<!-- BEGIN GENERATED: dslc /, "", cmd); sub(/ -->$/, "", cmd)
		run = dslc " " cmd
		while ((run | getline line) > 0) print line
		close(run)
		skip = 1; next
	}
	/^<!-- END GENERATED -->$/ { skip = 0 }
	!skip' SPEC.md >"$tmp"
mv "$tmp" SPEC.md
echo "SPEC.md regenerated: review git diff SPEC.md"
