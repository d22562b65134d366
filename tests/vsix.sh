#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The VS Code extension as a .vsix (issue 55 item 9): `@vscode/vsce package`
# (npm's packager, pinned) builds it from editors/vscode, the grammar dslc
# writes and the language client from npm; the package holds the manifest,
# the grammar, the language configuration and the client; and the packaged
# extension, activated under Node.js with a stand-in for the VS Code API
# (tests/fakes/vscode), starts `dslc lsp` and finishes the LSP handshake
# with it (the client's start() resolves only on the server's initialize
# answer).
#   tests/vsix.sh DSLC             the test
#   tests/vsix.sh DSLC build-only  make vsix: build/dslc-VERSION.vsix
set -u
DSLC=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MODE=${2:-test}
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin vsix
VSCE=@vscode/vsce@2.32.0 # node >= 16: Debian's nodejs 18 runs it too
need_tools "$MODE" "the .vsix" node npm npx unzip
VERSION=$(cat VERSION)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
S="$W/stage"
mkdir -p "$S"
cp editors/vscode/package.json editors/vscode/extension.js editors/vscode/language-configuration.json \
	editors/vscode/README.md LICENSE "$S/"
"$DSLC" syntax textmate >"$S/dslc.tmLanguage.json"
VSIX="$W/dslc-$VERSION.vsix"
if ! (cd "$S" && npm install --omit=dev --no-audit --no-fund >"$W/npm.log" 2>&1 &&
	npx --yes "$VSCE" package --allow-missing-repository --out "$VSIX" >"$W/vsce.log" 2>&1); then
	mkdir -p build && cat "$W/npm.log" "$W/vsce.log" >build/vsix-build.log 2>/dev/null
	tail -20 "$W/npm.log" "$W/vsce.log" 2>/dev/null
	no "npm install and $VSCE package build the .vsix (the whole log: build/vsix-build.log)"
	tests_end
	exit 1
fi
ok "$VSCE package builds dslc-$VERSION.vsix"
if [ "$MODE" = build-only ]; then
	mkdir -p build && cp "$VSIX" build/ && echo "build/dslc-$VERSION.vsix"
	exit 0
fi
unzip -Z1 "$VSIX" >"$W/list"
missing=""
for f in extension.vsixmanifest extension/package.json extension/extension.js extension/dslc.tmLanguage.json \
	extension/language-configuration.json extension/README.md extension/node_modules/vscode-languageclient/node.js; do
	grep -qx "$f" "$W/list" || missing="$missing $f"
done
check "the .vsix holds the manifest, the extension, the grammar, the language configuration and the language client${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
X="$W/x"
mkdir -p "$X" && (cd "$X" && unzip -q "$VSIX")
check "its manifest names dslc $VERSION, and its grammar is the one dslc writes (scope source.dslc)" \
	'grep -q "Id=\"dslc\"" "$X/extension.vsixmanifest" && grep -q "Version=\"$VERSION\"" "$X/extension.vsixmanifest" && "$DSLC" syntax textmate | cmp -s - "$X/extension/dslc.tmLanguage.json" && grep -q "\"scopeName\": *\"source.dslc\"" "$X/extension/dslc.tmLanguage.json"'
check "package.json ties .dsl files to the grammar" \
	'python3 -c "import json,sys; p=json.load(open(sys.argv[1]))[\"contributes\"]; assert \".dsl\" in p[\"languages\"][0][\"extensions\"] and p[\"grammars\"][0][\"path\"] == \"./dslc.tmLanguage.json\"" "$X/extension/package.json"'

# activated: it runs `dslc lsp` from PATH and the handshake completes
mkdir -p "$W/bin" "$W/mods"
cp -r tests/fakes/vscode "$W/mods/vscode"
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/args"\nexec "%s" "$@"\n' "$W" "$DSLC" >"$W/bin/dslc"
chmod +x "$W/bin/dslc"
cat >"$W/run.js" <<'JS'
const ext = require(process.argv[2]);
const t = setTimeout(() => { console.log('timeout'); process.exit(2); }, 20000);
Promise.resolve(ext.activate({ subscriptions: [] }))
  .then(() => { console.log('started'); clearTimeout(t); return ext.deactivate(); })
  .then(() => process.exit(0), (e) => { console.log('failed: ' + (e && e.message || e)); process.exit(1); });
JS
out=$(PATH="$W/bin:$PATH" NODE_PATH="$W/mods" node "$W/run.js" "$X/extension/extension.js" 2>&1)
check "the packaged extension, activated, starts \`dslc lsp\` and the client's start() resolves on its initialize answer ($out)" \
	'[ "$out" = started ] && [ "$(head -n 1 "$W/args")" = lsp ]'
# and it is the server that answers: a dslc that is not one fails the start
printf '#!/bin/sh\nexit 3\n' >"$W/bin/dslc"
out=$(PATH="$W/bin:$PATH" NODE_PATH="$W/mods" node "$W/run.js" "$X/extension/extension.js" 2>&1)
check "with a dslc that exits at once, activation fails (the check above depends on the server)" '[ "$out" != started ]'
tests_end
