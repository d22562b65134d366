#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# dslc as installed software (issue 39): help per command (pinned in
# tests/golden/help/), each command taking exactly the options its help
# lists, the man pages through groff and mandoc, the shell completions
# in bash, zsh and fish, and make install / uninstall into a DESTDIR.
#   tests/product_form.sh DSLC          the test
#   tests/product_form.sh DSLC update   rewrite the help goldens (review the diff)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin product
DSLC=$1
MODE=${2:-test}
BIN=${DSLC##* } # the binary, without a valgrind prefix
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
G=tests/golden/help
COMMANDS=$($DSLC help | sed -n 's/^  \([a-z]*\)  .*/\1/p')

# ---- help -------------------------------------------------------------------
if [ "$MODE" = update ]; then
	$DSLC help >"$G/_overview.txt"
	for c in $COMMANDS; do $DSLC help "$c" >"$G/$c.txt"; done
	echo "help goldens rewritten: review git diff $G"
	exit 0
fi
check "dslc help lists the $(echo $COMMANDS | wc -w) commands as pinned" '$DSLC help | diff -u "$G/_overview.txt" -'
check "dslc --help and dslc -h are dslc help" '$DSLC --help | cmp -s - "$G/_overview.txt" && $DSLC -h | cmp -s - "$G/_overview.txt"'
check "every command has a pinned help and nothing else does" \
	'[ "$(ls $G | sed "s/\.txt$//" | grep -vx _overview | sort)" = "$(echo $COMMANDS | tr " " "\n" | sort)" ]'
for c in $COMMANDS; do
	check "dslc help $c is pinned; $c --help and $c -h print the same" \
		'$DSLC help $c | diff -u "$G/$c.txt" - && $DSLC $c --help | cmp -s - "$G/$c.txt" && $DSLC $c -h | cmp -s - "$G/$c.txt"'
	check "dslc help $c: synopsis, options, exit status, an example" \
		'grep -q "^usage: dslc $c" "$G/$c.txt" && grep -q "^options:" "$G/$c.txt" && grep -q "^exit status:" "$G/$c.txt" && grep -q "^examples*:" "$G/$c.txt"'
done

# every option a command's help lists is taken (not "does not take"), and an
# option of another command is refused with the command's usage
opts_of() { sed -n '/^options:/,/^$/p' "$G/$1.txt" | grep -o '^  \(-[a-z], \)\{0,1\}--[a-z-]*\( [^ ]*\)\{0,1\}' | sed 's/^  //; s/^-[a-z], //'; }
for c in $COMMANDS; do
	bad=""
	while read -r opt arg; do
		[ -z "$opt" ] && continue
		val=${arg%%|*}
		case $arg in ID*) val=syntax ;; N) val=1 ;; DURATION) val=1h ;; "") val="" ;; esac
		err=$($DSLC $c $opt $val 2>&1 >/dev/null)
		case $err in *"does not take"* | *"unknown option"*) bad="$bad $opt" ;; esac
	done < <(opts_of "$c")
	check "dslc $c takes every option its help lists${bad:+ (refused:$bad)}" '[ -z "$bad" ]'
done
check "an option of another command is refused, with the command's usage" \
	'out=$($DSLC build --fix x.dsl -o o 2>&1); [ $? = 2 ] && echo "$out" | grep -qx "dslc: build does not take --fix" && echo "$out" | grep -q "^usage: dslc build FILE -o DIR \[options\]" && echo "$out" | grep -q "dslc help build"'
check "a misspelt command is named with the closest one" \
	'out=$($DSLC biuld 2>&1); [ $? = 2 ] && echo "$out" | grep -q "unknown command .biuld.; did you mean .build.?"'
check "dslc help NOSUCH is a usage error" '$DSLC help nosuch >/dev/null 2>&1; [ $? = 2 ]'
check "dslc show FILE lists the nodes (what completion asks)" \
	'[ "$($DSLC show examples/hgx-b200/cluster.dsl 2>/dev/null | wc -l)" = 18 ] && $DSLC show examples/hgx-b200/cluster.dsl 2>/dev/null | grep -qx gpu007'
check "dslc --version says VERSION" '[ "$($DSLC --version)" = "dslc $(cat VERSION)" ]'

# ---- conventions: --color, -q, --diff, --stdin-filename, --opt=value, keywords JSON
F=tests/golden/diag/first-core-outside-numa.dsl
ESC=$(printf '\033')
check "--color always colours findings piped to a file; never and auto do not" \
	'$DSLC lint --color always $F 2>/dev/null | grep -q "$ESC\[" && ! $DSLC lint --color never $F 2>/dev/null | grep -q "$ESC" && ! $DSLC lint $F 2>/dev/null | grep -q "$ESC"'
check "--color=always is --color always" '$DSLC lint --color=always $F 2>/dev/null | grep -q "$ESC\["'
check "FORCE_COLOR colours when not a terminal; NO_COLOR wins over it; --color never wins over FORCE_COLOR" \
	'FORCE_COLOR=1 $DSLC lint $F 2>/dev/null | grep -q "$ESC\[" && ! NO_COLOR=1 FORCE_COLOR=1 $DSLC lint $F 2>/dev/null | grep -q "$ESC" && ! FORCE_COLOR=1 $DSLC lint --color never $F 2>/dev/null | grep -q "$ESC"'
check "an empty FORCE_COLOR or NO_COLOR is unset; --color always wins over NO_COLOR" \
	'! FORCE_COLOR= $DSLC lint $F 2>/dev/null | grep -q "$ESC" && NO_COLOR=1 $DSLC lint --color always $F 2>/dev/null | grep -q "$ESC\["'
check "--color takes auto, always or never" 'out=$($DSLC lint --color sometimes $F 2>&1); [ $? = 2 ] && echo "$out" | grep -q "takes auto, always or never"'
check "--check=yes is refused as given (a flag takes no value)" 'out=$($DSLC fmt --check=yes $F 2>&1); [ $? = 2 ] && echo "$out" | grep -q "unknown option .--check=yes."'
check "lint -q: the findings, no summary; the same exit status" \
	'$DSLC lint $F 2>&1 >/dev/null | grep -q "^dslc: 1 error" && [ -z "$($DSLC lint -q $F 2>&1 >/dev/null)" ] && $DSLC lint -q $F | grep -q "error\[first-core-outside-numa\]" && exits 1 $DSLC lint -q $F'
check "lint -q: a fragment linted through its description says nothing" \
	'[ -n "$($DSLC lint examples/hgx-b200/hardware.dsl 2>&1 >/dev/null)" ] && [ -z "$($DSLC lint -q examples/hgx-b200/hardware.dsl 2>&1 >/dev/null)" ]'
# (the example with its deliberate layout's note back: -q keeps findings)
cp -r examples/hgx-b200 "$W/noted" && sed -i 's/ *# dslc: allow numa-pin-dropped -- .*//' "$W/noted/cluster.dsl"
check "build -q: the summary and the files-written line are gone, the tree is written" \
	'$DSLC build -q "$W/noted/cluster.dsl" -o "$W/q" 2>"$W/q.err" && ! grep -q "^dslc: " "$W/q.err" && grep -q "note\[" "$W/q.err" && [ -f "$W/q/manifest.json" ]'
cp examples/hgx-b200/cluster.dsl examples/hgx-b200/hardware.dsl examples/hgx-b200/hgx-b200.xml "$W/" 2>/dev/null
sed 's/^cluster tier0 {/cluster   tier0 {/' "$W/cluster.dsl" >"$W/ugly.dsl"
cp "$W/ugly.dsl" "$W/ugly.orig"
check "fmt --diff prints a unified diff, writes nothing, exits 0 (1 with --check)" \
	'$DSLC fmt --diff "$W/ugly.dsl" >"$W/fmt.diff" && cmp -s "$W/ugly.dsl" "$W/ugly.orig" && head -1 "$W/fmt.diff" | grep -qx -- "--- $W/ugly.dsl" && grep -q "^-cluster   tier0 {" "$W/fmt.diff" && grep -q "^+cluster  tier0 {" "$W/fmt.diff" && exits 1 $DSLC fmt --check --diff "$W/ugly.dsl"'
check "patch -p0 applies fmt --diff, and the result is what fmt writes" \
	'(cd / && patch -s -p0 <"$W/fmt.diff") && cp "$W/ugly.orig" "$W/ugly2.dsl" && $DSLC fmt -q "$W/ugly2.dsl" && cmp -s "$W/ugly.dsl" "$W/ugly2.dsl"'
check "fmt -q: no 'formatted' line" 'cp "$W/ugly.orig" "$W/ugly3.dsl" && [ -z "$($DSLC fmt -q "$W/ugly3.dsl" 2>&1)" ] && ! cmp -s "$W/ugly3.dsl" "$W/ugly.orig"'
check "fmt --diff of a formatted file prints nothing, exit 0" 'out=$($DSLC fmt --diff "$W/ugly2.dsl") && [ -z "$out" ]'
check "--stdin-filename: findings at that path, includes from its directory" \
	'out=$($DSLC lint --stdin-filename "$W/cluster.dsl" - <"$W/cluster.dsl" 2>&1); [ $? = 0 ] && ! echo "$out" | grep -q "cannot read" && sed "s/first_core 100/first_core 4/" "$W/cluster.dsl" | sed "s/cores   20 /cores 20 first_core 4 /" | $DSLC lint --stdin-filename "$W/x.dsl" - 2>/dev/null | grep -q "^$W/x.dsl:"'
check "without --stdin-filename, stdin's includes resolve from the working directory and fail here" \
	'$DSLC lint - <"$W/cluster.dsl" 2>/dev/null | grep -q "cannot read .hardware.dsl."'
check "--stdin-filename without - is a usage error" 'out=$($DSLC lint --stdin-filename x.dsl "$W/cluster.dsl" 2>&1); [ $? = 2 ] && echo "$out" | grep -q "give .-."'
check "fmt --stdin-filename names the file in its diff" '$DSLC fmt --diff --stdin-filename "$W/ugly.dsl" - <"$W/ugly.orig" | head -1 | grep -qx -- "--- $W/ugly.dsl"'
check "lint --diff without --fix is a usage error" '$DSLC lint --diff $F >/dev/null 2>&1; [ $? = 2 ]'
check "keywords --format json: every keyword with its block, syntax and meaning" \
	'$DSLC keywords --format json | /usr/bin/python3 -c "import json,sys; a=json.load(sys.stdin); assert all(set(k)=={\"block\",\"keyword\",\"syntax\",\"meaning\"} for k in a); print(len(a))" | grep -qx "$($DSLC keywords | wc -l)"'

# ---- man pages --------------------------------------------------------------
for p in dslc:1 dslc-language:5 dslc-rules:7; do
	name=${p%:*} sec=${p#*:}
	$DSLC manpage "$name" >"$W/$name.$sec"
	check "$name($sec): groff -man -ww without a warning" 'grep -q "^\.TH " "$W/$name.$sec" && [ -z "$(groff -man -ww -z "$W/$name.$sec" 2>&1)" ]'
	if command -v mandoc >/dev/null; then
		check "$name($sec): mandoc -Tlint -Wwarning clean" 'mandoc -Tlint -Wwarning "$W/$name.$sec"'
	else
		skip_or_fail_in_ci "$name($sec) mandoc lint: mandoc is not installed"
	fi
	check "$name($sec): .TH names the page, its section and VERSION" 'grep -q "^\.TH ${name^^} $sec \"[0-9-]*\" \"dslc $(cat VERSION)\"" "$W/$name.$sec"'
done
check "dslc(1) has a section per command" '[ -n "$COMMANDS" ] && [ "$(grep -c "^\.SS \"dslc " "$W/dslc.1")" = "$(echo $COMMANDS | wc -w)" ]'
check "dslc(1) lists every option of build's help" \
	'for o in $(opts_of build | cut -d" " -f1); do grep -q "fB${o//-/\\\\-}" "$W/dslc.1" || exit 1; done'
# explain of a prefix: the rules that start with it (each one a rule), exit 2;
# of a misspelt id: the closest one
$DSLC explain numa- >"$W/ex.out" 2>&1; rc=$?
want=$($DSLC rules | awk '{ print $1 }' | grep '^numa-' | sort | tr '\n' ' ')
got=$(sed -n "s/.*the rules that start with it: \(.*\) (see .*/\1/p" "$W/ex.out" | tr -d ',' | tr ' ' '\n' | sort | tr '\n' ' ')
check "explain numa-: the rules that start with it ($want), exit 2" "[ $rc = 2 ] && [ -n '$want' ] && [ '$got' = '$want' ]"
$DSLC explain nvme-not-locl >"$W/ex.out" 2>&1; rc=$?
check "explain of a misspelt id: the closest one, exit 2" "[ $rc = 2 ] && grep -q \"did you mean 'nvme-not-local'\" '$W/ex.out'"
check "dslc-rules(7) has every rule, with dslc explain's explanation" \
	'[ "$(grep -c "^\.SS " "$W/dslc-rules.7")" = "$($DSLC rules | wc -l)" ] && MANWIDTH=2000 man -l "$W/dslc-rules.7" 2>/dev/null | tr -s " " | grep -qF "$($DSLC explain first-core-outside-numa | sed -n 3p | cut -c1-60)"'
check "dslc-language(5) has every keyword's syntax" \
	'[ "$(grep -c "^\.TP" "$W/dslc-language.5")" -ge "$($DSLC keywords | wc -l)" ] && grep -q "first_core" "$W/dslc-language.5"'
check "SOURCE_DATE_EPOCH dates the pages" '[ "$(SOURCE_DATE_EPOCH=0 $DSLC manpage dslc | sed -n 2p | cut -d" " -f4)" = "\"1970-01-01\"" ]'

# ---- completion ---------------------------------------------------------------
for s in bash zsh fish; do $DSLC completion $s >"$W/dslc.$s"; done
mkdir -p "$W/bin" && ln -s "$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")" "$W/bin/dslc"
export PATH="$W/bin:$PATH"
bash_complete() { # words... ; the last is the word being completed
	bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _dslc; printf "%s\n" "${COMPREPLY[@]}"' "$W/dslc.bash" "$@"
}
check "bash: complete -p dslc after sourcing" 'bash -c "source $W/dslc.bash; complete -p dslc" | grep -qx "complete -F _dslc dslc"'
check "bash: commands" '[ "$(bash_complete dslc li)" = lint ]'
check "bash: the command's own options" '[ "$(bash_complete dslc plan --max | tr "\n" " ")" = "--max-values --max-wave " ]'
check "bash: an option's values" '[ "$(bash_complete dslc plan --format "" | tr "\n" " ")" = "text markdown json script svg " ]'
check "bash: rule ids after --disable, after a comma too" \
	'[ "$(bash_complete dslc lint --disable syntax,first-core-o)" = syntax,first-core-outside-numa ]'
check "bash: rule ids after explain" '[ "$(bash_complete dslc explain engine-cores-w)" = engine-cores-wrap ]'
check "bash: node names after show FILE" \
	'[ "$(bash_complete dslc show examples/hgx-b200/cluster.dsl gpu00 | wc -l)" = 9 ] && bash_complete dslc show examples/hgx-b200/cluster.dsl cn0 | grep -qx cn01'
check "bash: files for lint, directories for -o" \
	'bash_complete dslc lint examples/hgx-b200/clu | grep -qx examples/hgx-b200/cluster.dsl && bash_complete dslc build x.dsl -o exam | grep -qx examples && [ -z "$(bash_complete dslc build x.dsl -o examples/hgx-b200/h)" ]'
check "bash: the word after an option's value is a positional" '[ "$(bash_complete dslc show --format json examples/hgx-b200/cluster.dsl gpu001)" = gpu001 ]'
# issue 54 item 10: file names as bytes (spaces, '*', quotes, a newline); a quoted or
# escaped FILE word still lists the nodes, in each shell
Q=$W/q
mkdir -p "$Q/sp ace" && cp examples/hgx-b200/cluster.dsl examples/hgx-b200/hardware.dsl examples/hgx-b200/hgx-b200.xml "$Q/sp ace/"
: >"$Q/x*y.dsl"; : >"$Q/xay.dsl"; : >"$Q/it's.dsl"; : >"$Q/new
line.dsl"
bash_complete0() { # the same, the matches NUL-separated
	bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _dslc; printf "%s\0" "${COMPREPLY[@]}"' "$W/dslc.bash" "$@"
}
nul_list() { tr '\0' '\n' | sort | tr '\n' '|'; }
check "bash: a name with '*' is one match, not a glob of others (x*y.dsl, xay.dsl)" \
	'[ "$(bash_complete0 dslc lint "$Q/x" | nul_list)" = "$Q/x*y.dsl|$Q/xay.dsl|" ]'
check "bash: a directory with a space is one match" '[ "$(bash_complete0 dslc lint "$Q/sp" | nul_list)" = "$Q/sp ace|" ]'
check "bash: a name with a newline is one match" '[ "$(bash_complete0 dslc lint "$Q/new" | tr "\0" "|")" = "$Q/new
line.dsl|" ]'
check "bash: the word typed with a quote open, or a backslash, is matched as its value" \
	'[ "$(bash_complete0 dslc lint "\"$Q/sp a" | nul_list)" = "$Q/sp ace|" ] && [ "$(bash_complete0 dslc lint "$Q/it\\'"'"'s" | nul_list)" = "$Q/it'"'"'s.dsl|" ]'
check "bash: node names after a quoted FILE, and after one with escaped blanks" \
	'bash_complete dslc show "'"'"'$Q/sp ace/cluster.dsl'"'"'" gpu01 | grep -qx gpu014 && bash_complete dslc show "${Q// /\\ }/sp\\ ace/cluster.dsl" gpu01 | grep -qx gpu014'

if command -v zsh >/dev/null; then
	zsh_complete() { # compadd and _files stubbed: what the function offers
		zsh -f -c '
			compadd() { local -a a; while [[ $1 == -* ]]; do [[ $1 == -a ]] && { print -l -- ${(P)2}; return; }; shift; done; }
			compset() { print -- "compset $*"; }
			_files() { print -- "_files $*"; }
			compdef() { :; }
			source "$0"; words=("$@"); CURRENT=${#words}; _dslc' "$W/dslc.zsh" "$@"
	}
	check "zsh: zsh -n" 'zsh -n "$W/dslc.zsh"'
	check "zsh: commands" 'zsh_complete dslc "" | grep -qx plan && [ "$(zsh_complete dslc "" | wc -l)" = "$(echo $COMMANDS | wc -w)" ]'
	check "zsh: options of lint" 'zsh_complete dslc lint --f | grep -qx -- --fix && ! zsh_complete dslc lint --f | grep -qx -- --strict'
	check "zsh: rule ids after a comma (compset -P)" 'zsh_complete dslc lint --disable syntax,x | grep -qx "compset -P \*," && zsh_complete dslc lint --disable syntax,x | grep -qx first-core-outside-numa'
	check "zsh: node names after show FILE" 'zsh_complete dslc show examples/hgx-b200/cluster.dsl "" | grep -qx gpu014'
	check "zsh: directories for -o" '[ "$(zsh_complete dslc build x.dsl -o "")" = "_files -/" ]'
	check "zsh: node names after a quoted FILE, and after one with escaped blanks" \
		'zsh_complete dslc show "'"'"'$Q/sp ace/cluster.dsl'"'"'" "" | grep -qx gpu014 && zsh_complete dslc show "${Q// /\\ }/sp\\ ace/cluster.dsl" "" | grep -qx gpu014'
else
	skip_or_fail_in_ci "zsh completion: zsh is not installed"
fi
if command -v fish >/dev/null; then
	fish_complete() { fish --no-config -c "source $W/dslc.fish; complete -C'$1'" | cut -f1; }
	check "fish: fish -n" 'fish -n "$W/dslc.fish"'
	check "fish: commands" '[ "$(fish_complete "dslc ex")" = explain ]'
	check "fish: options of plan" 'fish_complete "dslc plan --max-w" | grep -qx -- --max-wave && ! fish_complete "dslc lint --max-w" | grep -q .'
	check "fish: an option's values" '[ "$(fish_complete "dslc show --format " | tr "\n" " ")" = "json svg text " ]'
	check "fish: rule ids after --disable a," '[ "$(fish_complete "dslc lint --disable syntax,first-core-o")" = syntax,first-core-outside-numa ]'
	check "fish: node names after show FILE" 'fish_complete "dslc show examples/hgx-b200/cluster.dsl gpu01" | grep -qx gpu014'
	check "fish: node names after a quoted FILE, and after one with escaped blanks" \
		'fish_complete "dslc show \"$Q/sp ace/cluster.dsl\" gpu01" | grep -qx gpu014 && fish_complete "dslc show ${Q// /\\ }/sp\\ ace/cluster.dsl gpu01" | grep -qx gpu014'
	check "fish: a file with a space and one with '*' are offered as themselves" \
		'fish_complete "dslc lint $Q/sp" | grep -qx "$Q/sp ace/" && fish_complete "dslc lint $Q/x" | grep -qxF "$Q/x*y.dsl"'
else
	skip_or_fail_in_ci "fish completion: fish is not installed"
fi

# ---- make install / uninstall ----------------------------------------------------
D="$W/destdir"
if [ "$BIN" = build/dslc ] && make -s install DESTDIR="$D" PREFIX=/opt/tools >"$W/install.log" 2>&1; then
	ok "make install DESTDIR=... PREFIX=/opt/tools"
	(cd "$D" && find . -type f | sort) >"$W/installed"
	check "it installs the binary, 3 man pages, 3 completions, the schemas, the hooks, the editor files (Vim and Neovim syntax and detection, the VS Code extension, the Neovim client), SPEC.md, the README and the examples, under PREFIX only" \
		'[ "$(wc -l <"$W/installed")" = $((19 + $(ls schemas/*.json | wc -l) + $(ls -d examples/*/* | wc -l))) ] && ! grep -qv "^\./opt/tools/" "$W/installed" &&
		 cmp -s SPEC.md "$D/opt/tools/share/doc/dslc/SPEC.md" && grep -qx ./opt/tools/share/doc/dslc/examples/hgx-b200/hgx-b200.xml "$W/installed" &&
		 grep -qx ./opt/tools/share/vim/vimfiles/syntax/dslc.vim "$W/installed" && grep -qx ./opt/tools/share/nvim/site/ftdetect/dslc.vim "$W/installed" &&
		 grep -qx ./opt/tools/share/dslc/editors/vscode/dslc.tmLanguage.json "$W/installed"'
	check "the installed dslc runs; man -w finds its pages" \
		'[ "$("$D/opt/tools/bin/dslc" --version)" = "dslc $(cat VERSION)" ] && MANPATH="$D/opt/tools/share/man" man -w dslc-rules | grep -q man7/dslc-rules.7'
	make -s uninstall DESTDIR="$D" PREFIX=/opt/tools >>"$W/install.log" 2>&1
	check "make uninstall leaves no file, and no dslc directory" \
		'[ -z "$(find "$D" -type f)" ] && [ -z "$(find "$D" -name "*dslc*")" ] || { find "$D" -type f; false; }'
else
	[ "$BIN" = build/dslc ] && { cat "$W/install.log"; no "make install DESTDIR=... PREFIX=/opt/tools"; } ||
		skip "make install: it installs build/dslc, not $BIN"
fi

# ---- make demo: the first hour's output (issue 71) ---------------------------------
# built already, the demo itself is under 30 lines: the build summary, one
# engine of a daos_server.yml, and what to open first
if [ "$BIN" = build/dslc ]; then
	make demo >"$W/demo.txt" 2>&1
	rc=$?
	check "make demo on a built tree: under 30 lines, the first engine's first_core and NIC, where the output is ($(wc -l <"$W/demo.txt") lines)" \
		'[ $rc = 0 ] && [ "$(wc -l <"$W/demo.txt")" -lt 30 ] && grep -qx "  first_core: 4" "$W/demo.txt" &&
		 grep -qx "  fabric_iface: ens1f0np0" "$W/demo.txt" && grep -q "^The output is in out/hgx-b200" "$W/demo.txt" || { cat "$W/demo.txt"; false; }'
else
	skip "make demo: it runs build/dslc, not $BIN"
fi
tests_end
