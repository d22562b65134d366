#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The repository's lint settings, .dslc-lint (issue 39 item 8), honoured the
# same way by CI (`dslc lint` with no file: the roots), a person's shell
# (`dslc lint FILE`, from any directory of the repository) and pre-commit
# (the real pre-commit, running the hooks of .pre-commit-hooks.yaml as a
# local repository); `dslc build` takes its disabled rules and fail_on too.
# Wrong settings stop every command at their line, and their help lines are
# applied.
set -u
DSLC=$1
cd "$(dirname "$0")/.."
ROOT=$PWD
. tests/lib.sh
tests_begin lint-config
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
R="$W/repo"
mkdir -p "$R/clusters/a" "$R/clusters/b" "$R/bin"
git -C "$R" init -q
cp examples/hgx-b200/hardware.dsl examples/hgx-b200/hgx-b200.xml "$R/clusters/"
# a: a warning (log-mask-debug); b: clean but for notes
sed 's|include "../../../examples/hgx-b200/hardware.dsl"|include "../hardware.dsl"|' tests/golden/diag/log-mask-debug.dsl >"$R/clusters/a/cluster.dsl"
sed 's/log_mask DEBUG/log_mask ERR/' "$R/clusters/a/cluster.dsl" >"$R/clusters/b/cluster.dsl"
settings() { # the .dslc-lint of the repository
	printf 'lint {\n  roots "clusters/a/cluster.dsl" "clusters/b/cluster.dsl"\n  fail_on warning\n%s}\n' "$1" >"$R/.dslc-lint"
}
DISABLE='  disable log-mask-debug "tracing the MGMT hang, ticket 4711"\n'
BIN=${DSLC##* }
ABS="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
case $1 in *" "*) DSLC="${1% *} $ABS" ;; *) DSLC=$ABS ;; esac
ln -s "$ABS" "$R/bin/dslc"

ci() { (cd "$R" && $DSLC lint >"$W/ci.out" 2>&1); }
shell() { (cd "$R/clusters/a" && $DSLC lint cluster.dsl >"$W/shell.out" 2>&1); }

# ---- the same verdicts, three ways -------------------------------------------
settings "$(printf "$DISABLE")"
ci; rc=$?
check "CI: dslc lint with no file lints both roots and passes (the warning is disabled)" \
	'[ $rc = 0 ] && ! grep -q "log-mask-debug" "$W/ci.out" && [ "$(grep -c "note\[numa-pin-dropped\]" "$W/ci.out")" = 2 ]'
shell; rc=$?
check "shell: dslc lint FILE from a subdirectory finds the settings and passes" '[ $rc = 0 ] && ! grep -q "log-mask-debug" "$W/shell.out"'
settings ""
ci; rc=$?
check "CI: without the disable, fail_on warning fails on the warning (exit 1)" '[ $rc = 1 ] && grep -q "warning\[log-mask-debug\]" "$W/ci.out"'
shell; rc=$?
check "shell: the same, exit 1" '[ $rc = 1 ] && grep -q "warning\[log-mask-debug\]" "$W/shell.out"'
check "the command line comes after the settings: --fail-on error passes" '(cd "$R" && $DSLC lint --fail-on error >/dev/null 2>&1)'
settings "$(printf "$DISABLE")"
check "--enable brings a disabled rule back for one run" \
	'(cd "$R" && $DSLC lint --enable log-mask-debug >"$W/en.out" 2>/dev/null; [ $? = 1 ]) && grep -q "warning\[log-mask-debug\]" "$W/en.out"'
check "dslc build takes the settings: exit 0 with the rule disabled, 1 without" \
	'(cd "$R" && $DSLC build clusters/a/cluster.dsl -o "$W/out" 2>/dev/null) && settings "" && (cd "$R" && $DSLC build clusters/a/cluster.dsl -o "$W/out2" 2>/dev/null; [ $? = 1 ]) && [ -f "$W/out2/manifest.json" ]'
check "--config names the settings file (from outside the repository)" \
	'settings "" && (cd "$W" && $DSLC lint --config repo/.dslc-lint >/dev/null 2>&1; [ $? = 1 ]) && [ "$(cd "$W" && $DSLC lint --config repo/.dslc-lint 2>/dev/null | grep -c "^repo/clusters/[ab]/cluster.dsl:")" -ge 3 ]'
check "outside a repository with no settings, dslc lint with no file is a usage error" \
	'(cd "$W" && $DSLC lint >/dev/null 2>"$W/err"; [ $? = 2 ]) && grep -q "no .dslc-lint with roots" "$W/err"'

# pre-commit: the real one, with dslc's hooks as a local repository
if command -v pre-commit >/dev/null; then
	/usr/bin/python3 - "$ROOT/.pre-commit-hooks.yaml" >"$R/.pre-commit-config.yaml" <<'PYEOF'
import sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
print(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [h for h in hooks if h["id"] == "dslc-lint"]}]}))
PYEOF
	git -C "$R" add -A >/dev/null
	precommit() {
		(cd "$R" && PATH="$R/bin:$PATH" HOME="$W" PRE_COMMIT_HOME="$W/pc" pre-commit run --verbose --files clusters/a/cluster.dsl .dslc-lint >"$W/pc.out" 2>&1)
	}
	settings "$(printf "$DISABLE")"
	precommit
	check "pre-commit: the dslc-lint hook passes with the rule disabled" '[ $? = 0 ] && grep -q "^dslc lint\.*Passed" "$W/pc.out"' || cat "$W/pc.out"
	settings ""
	precommit
	check "pre-commit: and fails without it (fail_on warning)" '[ $? = 1 ] && grep -q "warning\[log-mask-debug\]" "$W/pc.out"'
	settings '  fail_on sometimes\n'
	precommit
	check "pre-commit: a wrong .dslc-lint it passes fails, at its line" '[ $? = 1 ] && grep -q "^.dslc-lint:" "$W/pc.out"'
else
	skip_or_fail_in_ci "pre-commit: pre-commit is not installed"
fi

# ---- wrong settings: located, exit 2, nothing linted; each help applied ----
bad() { # settings line(s), the expected error text
	printf 'lint {\n%b}\n' "$1" >"$R/.dslc-lint"
	(cd "$R" && $DSLC lint clusters/b/cluster.dsl >"$W/bad.out" 2>&1)
	local rc=$?
	[ $rc = 2 ] && grep -qF "$2" "$W/bad.out" && grep -q "is wrong: fix it" "$W/bad.out" && ! grep -q "numa-pin-dropped" "$W/bad.out"
}
check "fail_on maybe: an error at its line" 'bad "  fail_on maybe\n" ".dslc-lint:2:11: error[bad-value]: fail_on takes error, warning or note"'
help=$(sed -n 's/^help: write `\(.*\)`$/\1/p' "$W/bad.out")
check "its help ($help) applied: the settings are right" 'printf "lint {\n  %s\n}\n" "$help" >"$R/.dslc-lint" && (cd "$R" && $DSLC lint clusters/b/cluster.dsl >/dev/null 2>&1)'
check "a disable without its reason is an error" 'bad "  disable log-mask-debug\n" "disabling log-mask-debug needs its reason, quoted"'
help=$(sed -n 's/^help: write `\(.*\)`$/\1/p' "$W/bad.out")
check "its help ($help) applied: the settings are right, the warning is silenced" 'printf "lint {\n  %s\n}\n" "$help" >"$R/.dslc-lint" && (cd "$R" && $DSLC lint clusters/a/cluster.dsl >"$W/help.out" 2>&1) && grep -q "^dslc: 0 errors, 0 warnings" "$W/help.out" && ! grep -q log-mask-debug "$W/help.out"'
check "an unknown rule is an error with the closest id" 'bad "  disable log-mask-debu \"x\"\n" "no rule '"'"'log-mask-debu'"'"'" && grep -q "help: write .log-mask-debug." "$W/bad.out"'
check "unsafe-value cannot be disabled in the settings" 'bad "  disable unsafe-value \"x\"\n" "unsafe-value cannot be disabled"'
check "an unknown keyword names the closest" 'bad "  fail-on error\n" "unknown keyword in the lint settings" && grep -q "help: write .fail_on." "$W/bad.out"'
check "roots with no path is an error" 'bad "  roots\n" "roots needs at least one path"'
check "a root that is not a description is refused unread (a PR's .dslc-lint cannot print /etc/passwd)" \
	'bad "  roots \"/etc/passwd\"\n" "root '"'"'/etc/passwd'"'"' is not a .dsl file" && ! grep -q "root:" "$W/bad.out"'
check "a root linked to another file is judged by its target" \
	'ln -sf /etc/passwd "$R/clusters/evil.dsl" && bad "  roots \"clusters/evil.dsl\"\n" "is not a .dsl file" && ! grep -q "root:" "$W/bad.out"'
check "a missing root is an error at its line" 'bad "  roots \"clusters/none.dsl\"\n" "cannot read root '"'"'clusters/none.dsl'"'"'"'
check "a second lint block is an error" 'printf "lint { }\nlint { }\n" >"$R/.dslc-lint" && (cd "$R" && $DSLC lint clusters/b/cluster.dsl >"$W/two.out" 2>&1; [ $? = 2 ]) && grep -q "a second statement in .dslc-lint" "$W/two.out"'
check "a .dslc-lint that is a link is not read (its target's lines are never quoted)" \
	'printf "secret line\n" >"$W/secret.dsl" && rm -f "$R/.dslc-lint" && ln -s "$W/secret.dsl" "$R/.dslc-lint" && (cd "$R" && $DSLC lint clusters/b/cluster.dsl >"$W/link.out" 2>&1; [ $? = 2 ]) && grep -q "it is a link" "$W/link.out" && ! grep -q "secret line" "$W/link.out"'

# ---- issue 54 items 2 and 9: roots bounded and linted once; whose settings apply ----
# 2: the same root named 600 times (three spellings): one lint of each file, said in
# one line; more than 1024 mentions: an error at the 1025th
rm -f "$R/.dslc-lint" # the link of the case above
{ echo 'lint {'; for i in $(seq 1 200); do echo '  roots "clusters/a/cluster.dsl" "./clusters/../clusters/a/cluster.dsl" "clusters/b/cluster.dsl"'; done; echo '}'; } >"$R/.dslc-lint"
(cd "$R" && $DSLC lint --format json >"$W/many.json" 2>"$W/many.err")
rc=$?
n=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for f in d["findings"] if f["ruleId"] == "log-mask-debug"), d.get("settings"))' "$W/many.json" 2>&1)
check "600 mentions of two files: each linted once (one log-mask-debug), said at the first repeat's line, JSON names the settings ($n, exit $rc)" \
	'[ $rc = 0 ] && [ "$n" = "1 .dslc-lint" ] && grep -qx "dslc: .dslc-lint:2: 598 roots name a file named before: each file is linted once" "$W/many.err" || { head -c 600 "$W/many.err"; false; }'
{ echo 'lint {'; for i in $(seq 1 1025); do echo '  roots "clusters/a/cluster.dsl"'; done; echo '}'; } >"$R/.dslc-lint"
(cd "$R" && $DSLC lint >"$W/many.out" 2>&1)
rc=$?
check "1,025 mentions: bad-value at the 1025th (line 1026), nothing linted (exit $rc)" \
	'[ $rc = 2 ] && grep -q "^.dslc-lint:1026:9: error\[bad-value\]: more than 1024 roots" "$W/many.out" && ! grep -q "log-mask-debug" "$W/many.out"'
settings ""
(cd "$R" && $DSLC lint --format sarif >"$W/s.sarif" 2>"$W/s.err")
check "text says which settings applied; SARIF carries it in run.properties.settings" \
	'grep -qx "dslc: lint settings from .dslc-lint" "$W/s.err" && python3 -c "import json,sys; assert json.load(open(sys.argv[1]))[\"runs\"][0][\"properties\"][\"settings\"] == \".dslc-lint\"" "$W/s.sarif"'
(cd "$R" && $DSLC lint -q --format json >"$W/q.json" 2>"$W/q.err")
check "-q: no settings line; JSON still names them" '[ ! -s "$W/q.err" ] && grep -q "\"settings\": \".dslc-lint\"" "$W/q.json"'
# 9: outside a repository the walk stops at a directory another user owns, and a
# .dslc-lint another user owns is not applied (said, even with -q)
if [ "$(id -u)" = 0 ]; then
	F=$W/foreign
	mkdir -p "$F/theirs/mine" "$F/tmp/work"
	cp "$R/clusters/a/cluster.dsl" "$R/clusters/hardware.dsl" "$R/clusters/hgx-b200.xml" "$F/theirs/mine/"
	cp "$R/clusters/a/cluster.dsl" "$R/clusters/hardware.dsl" "$R/clusters/hgx-b200.xml" "$F/tmp/work/"
	sed -i 's|"../hardware.dsl"|"hardware.dsl"|' "$F/theirs/mine/cluster.dsl" "$F/tmp/work/cluster.dsl"
	printf 'lint {\n  disable log-mask-debug "x"\n}\n' >"$F/.dslc-lint"
	chown 65534 "$F/theirs"
	(cd "$F/theirs/mine" && $DSLC lint cluster.dsl >"$W/f1.out" 2>&1)
	rc=$?
	check "a root-owned .dslc-lint above a directory uid 65534 owns: the walk stops there, not applied (exit $rc)" \
		'[ $rc = 0 ] && grep -q "warning\[log-mask-debug\]" "$W/f1.out" && ! grep -q "lint settings from" "$W/f1.out"'
	printf 'lint {\n  disable log-mask-debug "x"\n  fail_on note\n}\n' >"$F/tmp/.dslc-lint"
	chown 65534 "$F/tmp/.dslc-lint"
	chmod 1777 "$F/tmp"
	(cd "$F/tmp/work" && $DSLC lint -q cluster.dsl >"$W/f2.out" 2>&1)
	rc=$?
	check "a .dslc-lint uid 65534 wrote into a sticky /tmp: not applied, said even with -q (exit $rc)" \
		'[ $rc = 0 ] && grep -q "warning\[log-mask-debug\]" "$W/f2.out" && grep -qx "dslc: ../.dslc-lint not applied: another user owns it (name it with --config to use it)" "$W/f2.out"'
	(cd "$F/tmp/work" && $DSLC lint --config ../.dslc-lint cluster.dsl >"$W/f3.out" 2>&1)
	rc=$?
	check "--config applies it when asked (exit $rc: fail_on note fails on the notes)" '[ $rc = 1 ] && ! grep -q "log-mask-debug" "$W/f3.out"'
	chown 0 "$F/tmp/.dslc-lint"
	(cd "$F/tmp/work" && $DSLC lint cluster.dsl >"$W/f4.out" 2>&1)
	rc=$?
	check "the same file owned by root: applied, and said (exit $rc)" '[ $rc = 1 ] && grep -qx "dslc: lint settings from ../.dslc-lint" "$W/f4.out"'
	chown -R 65534 "$F/tmp/work" && chown 0 "$F/tmp/.dslc-lint"
	(cd "$F/tmp/work" && $DSLC lint cluster.dsl >"$W/f5.out" 2>&1)
	rc=$?
	check "root linting a checkout uid 65534 owns (a CI container): the walk goes on past it (exit $rc)" '[ $rc = 1 ] && grep -qx "dslc: lint settings from ../.dslc-lint" "$W/f5.out"'
else
	skip "foreign .dslc-lint: needs root to make files another user owns"
fi
rm -f "$R/.dslc-lint"
mkdir -p "$W/ok"
check "dslc lint .dslc-lint checks a settings file as settings" \
	'printf "lint {\n  fail_on warning\n}\n" >"$W/ok/.dslc-lint" && $DSLC lint "$W/ok/.dslc-lint" >/dev/null 2>&1 && printf "lint {\n  colour red\n}\n" >"$W/ok/.dslc-lint" && $DSLC lint "$W/ok/.dslc-lint" 2>/dev/null | grep -q "error\[unknown-keyword\]"'
tests_end
