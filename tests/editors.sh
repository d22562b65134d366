#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Editor support (issue 40) in the editors themselves: Vim loads the
# generated syntax file and the filetype detection without a message, and
# highlights every keyword of `dslc keywords` as a keyword; the TextMate
# grammar is JSON with the expected scopes and its patterns take every
# keyword (and no part of a name); the VS Code manifest names that grammar;
# headless Neovim, with editors/nvim/dslc.lua, starts `dslc lsp`, receives
# the diagnostics of a broken description at the right line, and formats a
# buffer as `dslc fmt` does.
#   tests/editors.sh DSLC [BUILD]
set -u
DSLC=$1
cd "$(dirname "$0")/.."
bin=${DSLC##* }
BUILD=${2:-$(dirname "$bin")}
. tests/lib.sh
tests_begin editors
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
REPO=$PWD
# the syntax files as this dslc prints them (the editors below read these)
ED=$T/editor
mkdir -p "$ED/vim/syntax"
$DSLC syntax vim >"$ED/vim/syntax/dslc.vim" && $DSLC syntax textmate >"$ED/dslc.tmLanguage.json"
$DSLC keywords | cut -f2 | sort -u >"$T/keywords"

# ---- Vim ------------------------------------------------------------------
if command -v vim >/dev/null; then
	# every keyword at the start of a line of a dslc buffer
	{ echo "daos 2.6"; cat "$T/keywords"; } >"$T/all.dsl"
	printf 'workspace {\n  model {\n  }\n}\n' >"$T/structurizr.dsl"
	cp examples/hgx-b200/hardware.dsl "$T/hardware.dsl"
	printf 'lint {\n  fail_on warning\n}\n' >"$T/.dslc-lint"
	cat >"$T/probe.vim" <<'EOF'
let s:out = []
function! s:Group(l, c) abort
  return synIDattr(synID(a:l, a:c, 1), 'name')
endfunction
for s:f in ['all.dsl', 'structurizr.dsl', 'hardware.dsl', '.dslc-lint']
  execute 'edit ' . fnameescape(s:f)
  call add(s:out, 'ft ' . s:f . ' ' . &filetype)
endfor
edit all.dsl
for s:l in range(2, line('$'))
  call add(s:out, 'kw ' . getline(s:l) . ' ' . s:Group(s:l, 1))
endfor
enew
call setline(1, ['# dslc: allow numa-pin-dropped -- reason', 'scm ram 64GiB', 'include "hardware.dsl"', 'nic ens1 pci 0000:1a:00.0', 'access_points gpu-node01'])
set filetype=dslc
call add(s:out, 'allow ' . s:Group(1, 4))
call add(s:out, 'comment ' . s:Group(1, 1))
call add(s:out, 'number ' . s:Group(2, 9))
call add(s:out, 'string ' . s:Group(3, 10))
call add(s:out, 'pci ' . s:Group(4, 14))
call add(s:out, 'name ' . s:Group(5, 19))
call add(s:out, 'errmsg ' . v:errmsg)
call writefile(s:out, 'vim.out')
qa!
EOF
	(cd "$T" && vim -es -N -u NONE -i NONE --cmd "set rtp^=$ED/vim,$REPO/editors/vim" -c 'filetype on' -c 'syntax on' \
		-S probe.vim >vim.log 2>&1)
	rc=$?
	check "vim -es loads the syntax file and the detection: exit 0, no error message (exit $rc)" \
		"[ $rc = 0 ] && grep -qx 'errmsg ' '$T/vim.out'"
	check "filetype: a description, a fragment and .dslc-lint are dslc; another tool's .dsl is not" \
		"grep -qx 'ft all.dsl dslc' '$T/vim.out' && grep -qx 'ft hardware.dsl dslc' '$T/vim.out' &&
		 grep -qx 'ft .dslc-lint dslc' '$T/vim.out' && ! grep -q 'ft structurizr.dsl dslc' '$T/vim.out'"
	n=$(wc -l <"$T/keywords")
	hl=$(grep -cE '^kw [a-z_0-9]+ dslc(Keyword|Block)$' "$T/vim.out")
	check "Vim highlights every keyword of dslc keywords ($hl of $n)" "[ '$n' -gt 100 ] && [ '$hl' = '$n' ]"
	check "Vim: a suppression, a comment, a size, a string, a PCI address; no keyword inside a host name" \
		"grep -qx 'allow dslcAllow' '$T/vim.out' && grep -qx 'comment dslcComment' '$T/vim.out' &&
		 grep -qx 'number dslcNumber' '$T/vim.out' && grep -qx 'string dslcString' '$T/vim.out' &&
		 grep -qx 'pci dslcPci' '$T/vim.out' && grep -qx 'name ' '$T/vim.out'"
else
	skip_or_fail_in_ci "vim syntax: vim is not installed"
fi

# ---- the TextMate grammar and the VS Code manifest ---------------------------
/usr/bin/python3 - "$ED/dslc.tmLanguage.json" "$T/keywords" editors/vscode/package.json >"$T/tm.out" 2>&1 <<'EOF'
import json, re, sys
g = json.load(open(sys.argv[1]))
kws = open(sys.argv[2]).read().split()
pkg = json.load(open(sys.argv[3]))
rep = g["repository"]
def scope(text):
    """The scope of the first token of text, as a highlighter takes the patterns in order."""
    for p in g["patterns"]:
        r = rep[p["include"][1:]]
        if "match" in r and re.match(r["match"], text):
            return r["name"]
        if "begin" in r and re.match(r["begin"], text):
            return r["name"]
    return None
scopes = {r["name"] for r in rep.values()}
print("scopes", g["scopeName"] == "source.dslc" and {"comment.line.number-sign.dslc", "string.quoted.double.dslc",
      "storage.type.dslc", "keyword.other.dslc", "constant.numeric.dslc"} <= scopes)
print("keywords", all(scope(k + " x") in ("storage.type.dslc", "keyword.other.dslc") for k in kws), len(kws))
print("names", scope("gpu-node01") is None and scope("nodes_x") is None and scope("node.x") is None)
print("others", scope("# dslc: allow x") == "comment.line.number-sign.dslc" and scope('"a"') == "string.quoted.double.dslc"
      and scope("64GiB") == "constant.numeric.dslc")
gr = pkg["contributes"]["grammars"][0]
print("vscode", gr["scopeName"] == g["scopeName"] and gr["path"] == "./dslc.tmLanguage.json" and
      pkg["contributes"]["languages"][0]["id"] == gr["language"] and pkg["main"] == "./extension.js")
EOF
check "TextMate grammar: valid JSON with the expected scopes" "grep -qx 'scopes True' '$T/tm.out'"
check "TextMate grammar: every keyword of dslc keywords is a keyword or a block" "grep -q '^keywords True' '$T/tm.out'"
check "TextMate grammar: no keyword inside a name (gpu-node01, nodes_x, node.x)" "grep -qx 'names True' '$T/tm.out'"
check "TextMate grammar: comments, strings, sizes" "grep -qx 'others True' '$T/tm.out'"
check "VS Code manifest: names the grammar make install puts beside it, and the extension" "grep -qx 'vscode True' '$T/tm.out'"
if command -v node >/dev/null; then
	check "VS Code extension: node parses it" "node --check editors/vscode/extension.js"
else
	skip "VS Code extension: node is not installed (not a dependency: the extension runs in VS Code)"
fi

# ---- Neovim's built-in client ------------------------------------------------
if command -v nvim >/dev/null; then
	mkdir -p "$T/bin" "$T/ex"
	# DSLC may be "valgrind ... build/dslc": the wrapper runs it as given, from the repository
	printf '#!/bin/sh\ncd %s && exec %s "$@"\n' "$PWD" "$DSLC" >"$T/bin/dslc"
	chmod +x "$T/bin/dslc"
	cp examples/hgx-b200/* "$T/ex/"
	sed -i 's/targets 16/targets 1600/' "$T/ex/cluster.dsl"
	line=$(grep -n 'targets 1600' "$T/ex/cluster.dsl" | cut -d: -f1)
	awk 'NR % 4 == 0 { sub(/^ +/, "      ") } { print }' examples/aurora-like/cluster.dsl >"$T/ex/messy.dsl"
	cp examples/aurora-like/hardware.dsl "$T/ex/hardware-aurora.dsl"
	sed -i 's#include "hardware.dsl"#include "hardware-aurora.dsl"#' "$T/ex/messy.dsl"
	cat >"$T/init.lua" <<EOF
vim.opt.rtp:prepend('$ED/vim')
vim.opt.rtp:prepend('$PWD/editors/vim')
vim.cmd('filetype on')
vim.cmd('syntax on')
dofile('$PWD/editors/nvim/dslc.lua')
local out = {}
vim.cmd('edit $T/ex/cluster.dsl')
out.ft = vim.bo.filetype
vim.wait(60000, function() return #vim.diagnostic.get(0, {severity = vim.diagnostic.severity.ERROR}) > 0 end, 50)
out.diags = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(out.diags, {lnum = d.lnum, severity = d.severity, code = d.code or lsp.code, source = d.source or lsp.source})
end
vim.cmd('edit $T/ex/messy.dsl')
vim.wait(60000, function() return #vim.lsp.buf_get_clients(0) > 0 and vim.lsp.buf_get_clients(0)[1].initialized end, 50)
vim.lsp.buf.formatting_sync(nil, 60000)
vim.cmd('write! $T/formatted.dsl')
vim.fn.writefile({vim.fn.json_encode(out)}, '$T/nvim.json')
vim.cmd('qa!')
EOF
	(cd "$T" && PATH="$T/bin:$PATH" timeout 300 nvim --headless -n -i NONE -u "$T/init.lua" >nvim.log 2>&1)
	rc=$?
	/usr/bin/python3 - "$T/nvim.json" "$line" >"$T/nvim.out" 2>&1 <<'EOF'
import json, sys
out = json.load(open(sys.argv[1]))
line = int(sys.argv[2]) - 1
errs = [d for d in out["diags"] if d["severity"] == 1]
print("ft", out["ft"])
print("diag", len(errs) == 1 and errs[0]["lnum"] == line and errs[0]["code"] == "bad-value" and errs[0]["source"] == "dslc")
EOF
	check "headless Neovim: the buffer is dslc (exit $rc)" "[ $rc = 0 ] && grep -qx 'ft dslc' '$T/nvim.out'"
	check "headless Neovim receives the error of a broken description at its line ($line), rule id as code" \
		"grep -qx 'diag True' '$T/nvim.out'"
	$DSLC fmt - <"$T/ex/messy.dsl" >"$T/fmt.dsl" 2>/dev/null
	check "headless Neovim formats a buffer through the server as dslc fmt does" \
		"! cmp -s '$T/ex/messy.dsl' '$T/fmt.dsl' && cmp -s '$T/formatted.dsl' '$T/fmt.dsl'"
	[ -s "$T/nvim.out" ] || sed -n 1,20p "$T/nvim.log"
else
	skip_or_fail_in_ci "Neovim's LSP client: nvim is not installed"
fi
# make install's Vim files (PREFIX /usr/local): Debian's Vim does not read
# /usr/local/share/vim/vimfiles; the README's line for ~/.vimrc makes it
if [ "$(basename "$BUILD")" != build ]; then
	skip "make install's Vim files: checked in the plain pass (the installed syntax file is the plain build's)"
elif command -v vim >/dev/null && [ -x "$BUILD/dslc" ]; then
	# where make install puts Vim's files (the Makefile's own default; nothing
	# is built, so the test never rewrites the build it runs), filled as it does
	vimdir=$(make -s print-VIMDIR)
	install -D -m 0644 "$BUILD/editor/vim/syntax/dslc.vim" "$T/inst$vimdir/syntax/dslc.vim"
	install -D -m 0644 editors/vim/ftdetect/dslc.vim "$T/inst$vimdir/ftdetect/dslc.vim"
	vimft() { # extra --cmd, or none: the detected filetype of the example
		vim -es -N -u NONE -i NONE ${1:+--cmd "$1"} -c 'filetype on' -c "edit $PWD/examples/hgx-b200/cluster.dsl" \
			-c "call writefile([&filetype], '$T/ft.out')" -c 'qa!' >/dev/null 2>&1
		cat "$T/ft.out"
	}
	rtp=$(sed -n 's/^ *set runtimepath+=\(\/usr\/local\/share\/vim\/vimfiles\)$/\1/p' README.md | head -n 1)
	check "make install put Vim's files under /usr/local/share/vim/vimfiles, which Vim alone does not read" \
		"[ '$vimdir' = /usr/local/share/vim/vimfiles ] && [ \"\$(vimft)\" != dslc ]"
	check "the README's \`set runtimepath+=$rtp\` makes Vim detect a description from make install's files" \
		"[ -n '$rtp' ] && [ \"\$(vimft 'set runtimepath+=$T/inst$rtp')\" = dslc ]"
else
	skip_or_fail_in_ci "make install's Vim files: vim is not installed"
fi
# last: the first failure above says what is wrong with the syntax itself
if [ -d "$BUILD/editor" ]; then
	check "the syntax files make writes for make install are what dslc prints now" \
		"cmp -s '$ED/vim/syntax/dslc.vim' '$BUILD/editor/vim/syntax/dslc.vim' && cmp -s '$ED/dslc.tmLanguage.json' '$BUILD/editor/dslc.tmLanguage.json'"
else
	skip "the syntax files of $BUILD/editor: make all writes them, this build has none"
fi
tests_end
