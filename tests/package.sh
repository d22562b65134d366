#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The Debian package (issue 39 item 6): dpkg-buildpackage builds it from a
# copy of the committed tree (the files `git ls-files` names, or the working
# tree's when there is no git: what a source package holds), lintian finds no
# error in it, its contents are the install set, and the dslc it installs
# runs and has its man page. As root with no dslc package installed, it is
# also installed with dpkg -i and removed with dpkg -r; otherwise unpacked
# into a scratch root with dpkg -x.
#   tests/package.sh             the test
#   tests/package.sh build-only  make deb: the .deb into build/deb/
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin package
MODE=${1:-test}
need_tools "$MODE" "the Debian package" dpkg-buildpackage dh lintian
VERSION=$(cat VERSION)
ARCH=$(dpkg --print-architecture)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SRC="$W/dslc-$VERSION"
mkdir -p "$SRC"
if git rev-parse --git-dir >/dev/null 2>&1; then
	# committed and staged files as they are now: the tree CI clones
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$SRC"
else
	tar --exclude=./build --exclude='./build-*' --exclude=./out -cf - . | tar -xf - -C "$SRC"
fi
rm -rf "$SRC/build" "$SRC"/build-* "$SRC/out"

# the source package and the binary one
(cd "$SRC" && DEB_BUILD_OPTIONS="parallel=$(nproc)" dpkg-buildpackage -us -uc) >"$W/build.log" 2>&1
rc=$?
DEB="$W/dslc_${VERSION}_$ARCH.deb"
if [ $rc != 0 ] || [ ! -f "$DEB" ]; then
	# kept: the scratch directory goes with the test
	mkdir -p build && cp "$W/build.log" build/package-build.log
	tail -30 "$W/build.log"
	no "dpkg-buildpackage -us -uc builds dslc_${VERSION}_$ARCH.deb (exit $rc; the whole log: build/package-build.log)"
	tests_end
	exit 1
fi
ok "dpkg-buildpackage -us -uc builds dslc_${VERSION}_$ARCH.deb"
DSC="$W/dslc_${VERSION}.dsc"
check "the source package: dslc_${VERSION}.dsc and its tarball unpack with dpkg-source -x to the tree built" \
	'[ -f "$DSC" ] && (cd "$W" && dpkg-source -x "$DSC" unpacked >/dev/null 2>&1) && [ -f "$W/unpacked/debian/rules" ] && [ -f "$W/unpacked/compiler/lint/compile.c" ] && diff -rq "$W/unpacked/compiler" "$SRC/compiler" >/dev/null'
if [ "$MODE" = build-only ]; then
	mkdir -p build/deb && cp "$DEB" "$DSC" "$W"/dslc_"$VERSION".tar.* build/deb/ && echo "build/deb/$(basename "$DEB")"
	exit 0
fi

# the package holds the install set, under /usr
dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$' | sort >"$W/contents"
want="/usr/bin/dslc /usr/share/man/man1/dslc.1.gz /usr/share/man/man5/dslc-language.5.gz /usr/share/man/man7/dslc-rules.7.gz
/usr/share/bash-completion/completions/dslc /usr/share/zsh/vendor-completions/_dslc /usr/share/fish/vendor_completions.d/dslc.fish
/usr/share/dslc/pre-commit-hooks.yaml /usr/share/doc/dslc/copyright /usr/share/doc/dslc/changelog.gz
/usr/share/doc/dslc/SPEC.md /usr/share/doc/dslc/README.md /usr/share/doc/dslc/examples/hgx-b200/cluster.dsl"
for s in schemas/*.json; do want="$want /usr/share/dslc/schemas/$(basename "$s")"; done
missing=""
for f in $want; do grep -qx "$f" "$W/contents" || missing="$missing $f"; done
check "dpkg-deb -c: the binary, 3 man pages, 3 completions, $(ls schemas/*.json | wc -l) schemas, the hooks, SPEC.md and the examples${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
check "the package's control: Recommends: hwloc (lstopo makes the exports)" '[ "$(dpkg-deb -f "$DEB" Recommends)" = hwloc ]'
check "dpkg-deb -c: nothing under /usr/local" 'grep -qx /usr/bin/dslc "$W/contents" && ! grep -q "^/usr/local" "$W/contents"'
check "the package's version is VERSION ($VERSION)" '[ "$(dpkg-deb -f "$DEB" Version)" = "$VERSION" ]'
check "debian/changelog's version is VERSION" '[ "$(dpkg-parsechangelog -l debian/changelog -S Version)" = "$VERSION" ]'

# lintian: no error (warnings are printed for review)
lintian --tag-display-limit 0 "$DEB" >"$W/lintian" 2>&1
lrc=$?
grep -v '^[EW]: ' "$W/lintian" | grep -v '^N: ' | head -5
grep '^W: ' "$W/lintian" | sed 's/^/  lintian /'
check "lintian finds no error (exit $lrc)$(grep '^E: ' "$W/lintian" | head -3 | tr '\n' ' ')" '[ $lrc = 0 ] && ! grep -q "^E: " "$W/lintian"'

# what it installs runs: unpacked into a scratch root
R="$W/root"
dpkg -x "$DEB" "$R"
check "the unpacked dslc --version says dslc $VERSION" '[ "$("$R/usr/bin/dslc" --version)" = "dslc $VERSION" ]'
check "man -w dslc finds the unpacked page" 'MANPATH="$R/usr/share/man" man -w dslc | grep -q "$R/usr/share/man/man1/dslc.1.gz"'
check "the unpacked man page renders without a warning" '[ -z "$(zcat "$R/usr/share/man/man1/dslc.1.gz" | groff -man -ww -z 2>&1)" ]'
check "the unpacked dslc builds the bundled example" '"$R/usr/bin/dslc" build examples/hgx-b200/cluster.dsl -o "$W/tree" 2>/dev/null && [ -f "$W/tree/nodes/gpu001/etc/daos/daos_server.yml" ]'
check "the man page's SPEC.md is where it says: $(zcat "$R/usr/share/man/man1/dslc.1.gz" | grep -o '/usr/share/doc/dslc/SPEC.md' | head -1)" \
	'zcat "$R/usr/share/man/man1/dslc.1.gz" | grep -q /usr/share/doc/dslc/SPEC.md && [ -f "$R/usr/share/doc/dslc/SPEC.md" ] && cmp -s "$R/usr/share/doc/dslc/SPEC.md" SPEC.md'
check "the shipped examples lint clean where they are installed (includes resolve there)" \
	'( for e in "$R"/usr/share/doc/dslc/examples/*/cluster.dsl; do "$R/usr/bin/dslc" lint "$e" >/dev/null 2>&1 || exit 1; done )'

# installed for real, then removed: only as root, and only when it replaces nothing
if [ "$(id -u)" = 0 ] && ! dpkg-query -W dslc >/dev/null 2>&1 && [ ! -e /usr/bin/dslc ]; then
	if dpkg -i "$DEB" >"$W/dpkg.log" 2>&1; then
		ok "dpkg -i installs it"
		check "dslc --version from /usr/bin" '[ "$(/usr/bin/dslc --version)" = "dslc $VERSION" ]'
		check "man -w dslc" '[ "$(man -w dslc)" = /usr/share/man/man1/dslc.1.gz ]'
		check "bash finds the completion where bash-completion looks" '[ -f /usr/share/bash-completion/completions/dslc ]'
		# Vim and Neovim read the package's syntax and detection from their own runtime paths
		for ed in vim nvim; do
			if command -v $ed >/dev/null; then
				$ed -es -N -u NONE -i NONE -c 'filetype on' -c 'syntax on' -c "edit $PWD/examples/hgx-b200/cluster.dsl" \
					-c "call writefile([&filetype, b:current_syntax], '$W/$ed.ft')" -c 'qa!' >/dev/null 2>&1
				check "$ed, with no configuration, detects a description and highlights it from the package's files" \
					"[ \"\$(tr '\n' ' ' <'$W/$ed.ft')\" = 'dslc dslc ' ]"
			else
				skip_or_fail_in_ci "$ed: not installed"
			fi
		done
		dpkg -r dslc >>"$W/dpkg.log" 2>&1
		check "dpkg -r removes it: no /usr/bin/dslc, no /usr/share/dslc" '[ ! -e /usr/bin/dslc ] && [ ! -e /usr/share/dslc ] && ! man -w dslc >/dev/null 2>&1'
	else
		cat "$W/dpkg.log"
		no "dpkg -i installs it"
	fi
else
	skip "dpkg -i/-r: not root, or a dslc is installed already (the scratch root above stands in)"
fi
tests_end
