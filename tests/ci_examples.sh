#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Runs the exact dslc commands of examples/ci/ (the GitHub workflow's `run:`
# steps named "dslc ..." and the pre-commit hooks' entries) in a copy of a
# repository holding the example and its committed tree.
set -u
DSLC=$1
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=/usr/bin/python3
. tests/lib.sh
tests_begin ci
if ! $PY -c 'import yaml' 2>/dev/null; then
	skip_or_fail_in_ci "examples: /usr/bin/python3 with PyYAML is missing"
	tests_end
	exit
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/repo/bin" "$T/repo/examples"
cp -r examples/hgx-b200 "$T/repo/examples/"
cat >"$T/repo/bin/dslc" <<WRAP
#!/bin/sh
exec $( [ "${DSLC#/}" = "$DSLC" ] && echo "$ROOT/$DSLC" || echo "$DSLC" ) "\$@"
WRAP
chmod +x "$T/repo/bin/dslc"
cd "$T/repo"
PATH="$T/repo/bin:$PATH" dslc build examples/hgx-b200/cluster.dsl -o out/hgx-b200 2>/dev/null  # the committed tree

$PY - "$ROOT/examples/ci/dslc-workflow.yml" >"$T/steps" <<'PYEOF'
import sys, yaml
for step in yaml.safe_load(open(sys.argv[1]))["jobs"]["dslc"]["steps"]:
    if step.get("name", "").startswith("dslc") and "run" in step:
        print(step["run"].strip().replace("\n", " ; "))
PYEOF
[ -s "$T/steps" ] && ok "the workflow has dslc steps" || no "the workflow has dslc steps"
while IFS= read -r cmd; do
	if PATH="$T/repo/bin:$PATH" sh -c "$cmd" >"$T/out" 2>&1; then ok "workflow: $cmd"; else no "workflow: $cmd"; cat "$T/out"; fi
done <"$T/steps"
$PY -c "import json; d = json.load(open('dslc.sarif')); assert d['version'] == '2.1.0' and 'results' in d['runs'][0]" \
	&& ok "the workflow's SARIF file is written" || no "the workflow's SARIF file is written"

# the hooks: dslc's own (.pre-commit-hooks.yaml at the root) and the example
# config's local one, each entry with several files at once, as pre-commit
# passes the changed files (an include-only hardware.dsl among them)
cp -r "$ROOT/examples/hgx-b200-k8s" examples/
$PY - "$ROOT/.pre-commit-hooks.yaml" "$ROOT/examples/ci/pre-commit-config.yaml" >"$T/hooks" <<'PYEOF'
import sys, yaml
files = {"dslc-lint": "examples/hgx-b200/cluster.dsl examples/hgx-b200/hardware.dsl examples/hgx-b200-k8s/cluster.dsl",
         "dslc-fmt": "examples/hgx-b200/cluster.dsl examples/hgx-b200/hardware.dsl examples/hgx-b200-k8s/cluster.dsl",
         "dslc-lint-daos-yaml": "out/hgx-b200/nodes/gpu001/etc/daos/daos_server.yml out/hgx-b200/nodes/cn01/etc/daos/daos_agent.yml"}
hooks = yaml.safe_load(open(sys.argv[1]))
for repo in yaml.safe_load(open(sys.argv[2]))["repos"]:
    if repo["repo"] == "local":
        hooks += repo["hooks"]
    else:
        assert {h["id"] for h in repo["hooks"]} <= {h["id"] for h in hooks}, "the example names a hook dslc does not define"
for hook in hooks:
    args = "" if hook.get("pass_filenames") is False else " " + files[hook["id"]]
    print(hook["entry"] + args)
PYEOF
[ "$(wc -l <"$T/hooks")" = 4 ] && ok "four hooks: dslc-lint, dslc-lint-daos-yaml, dslc-fmt, the local build check" || no "four hooks"
while IFS= read -r cmd; do
	if PATH="$T/repo/bin:$PATH" sh -c "$cmd" >"$T/out" 2>&1; then ok "pre-commit: $cmd"; else no "pre-commit: $cmd"; cat "$T/out"; fi
done <"$T/hooks"
# the real pre-commit, when installed, runs dslc's hook file on a commit of
# several files: clean ones pass, a broken description among them fails
if command -v pre-commit >/dev/null && command -v git >/dev/null; then
	git init -q . && git add -A >/dev/null && git -c user.name=t -c user.email=t@t commit -qm base >/dev/null
	export PRE_COMMIT_HOME="$T/pre-commit-home"
	pc() { PATH="$T/repo/bin:$PATH" pre-commit try-repo "$ROOT" dslc-lint --verbose --files "$@" >"$T/pc" 2>&1; }
	pc examples/hgx-b200/cluster.dsl examples/hgx-b200/hardware.dsl examples/hgx-b200-k8s/cluster.dsl
	check "pre-commit try-repo: dslc-lint passes three clean files at once (hardware.dsl through its descriptions)" \
		"[ $? = 0 ] || { cat '$T/pc'; false; }"
	pc examples/hgx-b200/hardware.dsl
	check "pre-commit try-repo: a changed hardware.dsl alone is linted through both descriptions that include it" \
		"[ $? = 0 ] && grep -q 'hardware.dsl is included by examples/hgx-b200-k8s/cluster.dsl' '$T/pc' || { cat '$T/pc'; false; }"
	sed 's/targets 16/targets 1600/' examples/hgx-b200/cluster.dsl >examples/broken.dsl
	cp examples/hgx-b200/hardware.dsl examples/hgx-b200/hgx-b200.xml examples/ 2>/dev/null
	pc examples/hgx-b200-k8s/cluster.dsl examples/broken.dsl
	check "pre-commit try-repo: a broken description among clean ones fails the hook, at its line" \
		"[ $? = 1 ] && grep -q '^examples/broken.dsl:3[0-9]:[0-9]*: error' '$T/pc' || { cat '$T/pc'; false; }"
	# dslc-fmt: formatted files pass; a disturbed one fails the commit and is rewritten
	pcf() { PATH="$T/repo/bin:$PATH" pre-commit try-repo "$ROOT" dslc-fmt --verbose --files "$@" >"$T/pc" 2>&1; }
	pcf examples/hgx-b200/cluster.dsl examples/hgx-b200/hardware.dsl examples/hgx-b200-k8s/cluster.dsl
	check "pre-commit try-repo: dslc-fmt passes the shipped examples (already in fmt's layout)" "[ $? = 0 ] || { cat '$T/pc'; false; }"
	sed 's/^    targets 16/      targets   16/' examples/hgx-b200/cluster.dsl >examples/messy.dsl
	cp examples/hgx-b200/hardware.dsl examples/hgx-b200/hgx-b200.xml examples/ 2>/dev/null
	git add examples/messy.dsl >/dev/null
	pcf examples/hgx-b200/cluster.dsl examples/messy.dsl
	check "pre-commit try-repo: dslc-fmt fails on a disturbed file among clean ones and rewrites it" \
		"[ $? = 1 ] && grep -q 'formatted examples/messy.dsl' '$T/pc' && cmp -s examples/messy.dsl examples/hgx-b200/cluster.dsl || { cat '$T/pc'; false; }"
	rm -rf .git examples/broken.dsl examples/messy.dsl examples/hardware.dsl examples/hgx-b200.xml
	unset PRE_COMMIT_HOME
else
	skip_or_fail_in_ci "pre-commit try-repo: pre-commit or git is missing"
fi
# examples/ci/plan.yml: its "dslc plan" step, with the base branch checked
# out beside the pull request as the workflow does; the exit status it
# records decides the comment and the approval gate
$PY - "$ROOT/examples/ci/plan.yml" >"$T/plan-step" <<'PYEOF'
import sys, yaml
for step in yaml.safe_load(open(sys.argv[1]))["jobs"]["plan"]["steps"]:
    if step.get("name") == "dslc plan":
        print(step["run"])
PYEOF
mkdir -p base/examples
cp -r examples/hgx-b200 base/examples/
for change in same exclude; do
	[ $change = exclude ] && sed -i 's/^node gpu007 { exclude nvme 0000:a4:00.0 }/node gpu007 { exclude nvme 0000:a4:00.0 0000:a3:00.0 }/' examples/hgx-b200/cluster.dsl
	: >"$T/gh-output"
	if PATH="$T/repo/bin:$PATH" GITHUB_OUTPUT="$T/gh-output" sh -e "$T/plan-step" >"$T/out" 2>&1; then
		want=$([ $change = same ] && echo 0 || echo 4)
		check "plan.yml step, $change: records rc=$want, writes the markdown" \
			"grep -qx 'rc=$want' '$T/gh-output' && grep -q '^### dslc plan' plan.md"
	else
		no "plan.yml step, $change"
		cat "$T/out"
	fi
done
cp base/examples/hgx-b200/cluster.dsl examples/hgx-b200/cluster.dsl
# a description out of fmt's layout fails the workflow's fmt step
sed 's/^    targets 16/      targets   16/' examples/hgx-b200/cluster.dsl >"$T/messy" && cp "$T/messy" examples/hgx-b200/cluster.dsl
fmt_step=$(grep '^dslc fmt' "$T/steps")
if PATH="$T/repo/bin:$PATH" sh -c "$fmt_step" >"$T/out" 2>&1; then
	no "a disturbed description fails the workflow's fmt step"
else
	grep -qx 'examples/hgx-b200/cluster.dsl' "$T/out" && ok "a disturbed description fails the workflow's fmt step, named" || no "fmt step output: $(cat "$T/out")"
fi
cp base/examples/hgx-b200/cluster.dsl examples/hgx-b200/cluster.dsl
# a stale tree fails the check the workflow and the hook run
echo "# edited" >>out/hgx-b200/nodes/gpu002/etc/daos/daos_agent.yml
PATH="$T/repo/bin:$PATH" dslc build examples/hgx-b200/cluster.dsl -o out/hgx-b200 --check >"$T/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q 'gpu002/etc/daos/daos_agent.yml: differs' "$T/out"; then
	ok "a stale tree fails the build --check step (exit 1), the file named"
else
	no "a stale tree fails the build --check step (exit $rc): $(cat "$T/out")"
fi
tests_end
