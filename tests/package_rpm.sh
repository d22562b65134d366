#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The RPM package (issue 55 item 11), for the nodes that run `dslc doctor`
# (Azure Linux 3, RHEL 9, Rocky, SLES): rpmbuild builds it from rpm/dslc.spec
# and a tarball of the committed tree, `rpm -qlp` lists the install set (the
# binary, man pages, completions, schemas, editor files, SPEC.md and the
# examples), its metadata is the spec's, rpmlint finds no error, and the dslc
# it holds runs. Debian's rpmbuild has no RPM database of the build
# dependencies, so it builds with --nodeps; the spec's BuildRequires are
# checked against what the Makefile links instead.
#   tests/package_rpm.sh             the test
#   tests/package_rpm.sh build-only  make rpm: the .rpm into build/rpm/
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
tests_begin rpm
MODE=${1:-test}
need_tools "$MODE" "the RPM package" rpmbuild rpm2cpio cpio
VERSION=$(cat VERSION)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/SOURCES" "$W/src/dslc-$VERSION"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$W/src/dslc-$VERSION"
else
	tar --exclude=./build --exclude='./build-*' --exclude=./out -cf - . | tar -xf - -C "$W/src/dslc-$VERSION"
fi
rm -rf "$W/src/dslc-$VERSION/build" "$W/src/dslc-$VERSION"/build-* "$W/src/dslc-$VERSION/out"
tar -C "$W/src" -czf "$W/SOURCES/dslc-$VERSION.tar.gz" "dslc-$VERSION"

rpmbuild --define "_topdir $W" --nodeps -ba rpm/dslc.spec >"$W/build.log" 2>&1
rc=$?
RPM=$(ls "$W"/RPMS/*/dslc-"$VERSION"-1.*.rpm 2>/dev/null | head -n 1)
SRPM=$(ls "$W"/SRPMS/dslc-"$VERSION"-1.src.rpm 2>/dev/null | head -n 1)
if [ $rc != 0 ] || [ -z "$RPM" ]; then
	mkdir -p build && cp "$W/build.log" build/rpm-build.log
	tail -30 "$W/build.log"
	no "rpmbuild -ba rpm/dslc.spec builds dslc-$VERSION-1 (exit $rc; the whole log: build/rpm-build.log)"
	tests_end
	exit 1
fi
ok "rpmbuild -ba rpm/dslc.spec builds $(basename "$RPM") and its source package (%check built the example)"
if [ "$MODE" = build-only ]; then
	mkdir -p build/rpm && cp "$RPM" "$SRPM" build/rpm/ && echo "build/rpm/$(basename "$RPM")"
	exit 0
fi

# the install set, under /usr
rpm -qlp "$RPM" 2>/dev/null | sort >"$W/contents"
want="/usr/bin/dslc /usr/share/bash-completion/completions/dslc /usr/share/zsh/site-functions/_dslc
/usr/share/fish/vendor_completions.d/dslc.fish /usr/share/dslc/pre-commit-hooks.yaml
/usr/share/vim/vimfiles/syntax/dslc.vim /usr/share/vim/vimfiles/ftdetect/dslc.vim /usr/share/nvim/site/ftdetect/dslc.vim
/usr/share/dslc/editors/vscode/dslc.tmLanguage.json /usr/share/doc/dslc/SPEC.md /usr/share/doc/dslc/README.md
/usr/share/doc/dslc/examples/hgx-b200/cluster.dsl /usr/share/doc/dslc/examples/hgx-b200/hgx-b200.xml"
for s in schemas/*.json; do want="$want /usr/share/dslc/schemas/$(basename "$s")"; done
missing=""
for f in $want; do grep -qx "$f" "$W/contents" || missing="$missing $f"; done
for m in man1/dslc.1 man5/dslc-language.5 man7/dslc-rules.7; do
	grep -q "^/usr/share/man/$m" "$W/contents" || missing="$missing /usr/share/man/$m"
done
check "rpm -qlp: the binary, 3 man pages, 3 completions, $(ls schemas/*.json | wc -l) schemas, Vim, Neovim and VS Code files, SPEC.md and the examples${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
check "rpm -qlp: the license is marked as such (%license)" \
	'rpm -qp --qf "[%{FILENAMES} %{FILEFLAGS:fflags}\n]" "$RPM" 2>/dev/null | grep -q "/LICENSE l$"'
check "rpm -qlp: nothing under /usr/local" 'grep -qx /usr/bin/dslc "$W/contents" && ! grep -q "^/usr/local" "$W/contents"'
check "the package's version is VERSION ($VERSION), its license BSD-2-Clause-Patent" \
	'[ "$(rpm -qp --qf "%{VERSION} %{LICENSE}" "$RPM" 2>/dev/null)" = "$VERSION BSD-2-Clause-Patent" ]'
check "it recommends hwloc (lstopo makes the exports)" 'rpm -qp --recommends "$RPM" 2>/dev/null | grep -qx hwloc'
# every pkg-config module the Makefile builds with is a BuildRequires of the spec
libs=$(sed -n 's/^PKGS *= *//p' Makefile)
need=""
for l in $libs; do
	grep -q "^BuildRequires: *pkgconfig($l)" rpm/dslc.spec || need="$need $l"
done
check "the spec's BuildRequires name every pkg-config module the Makefile uses ($libs)${need:+ missing:$need}" '[ -n "$libs" ] && [ -z "$need" ]'
check "the source package holds the spec and the tarball" \
	'[ -n "$SRPM" ] && rpm -qlp "$SRPM" 2>/dev/null | grep -qx dslc.spec && rpm -qlp "$SRPM" 2>/dev/null | grep -qx "dslc-$VERSION.tar.gz"'

# rpmlint: no error (warnings printed for review)
if command -v rpmlint >/dev/null; then
	rpmlint "$RPM" >"$W/rpmlint" 2>&1
	grep -E ': W: ' "$W/rpmlint" | sed 's/^/  rpmlint /' | head -20
	# unsigned: a distribution's build service signs with its own key, never the spec
	check "rpmlint finds no error but no-signature$(grep -E ': E: ' "$W/rpmlint" | grep -v no-signature | head -3 | tr '\n' ' ')" \
		'grep -q "packages and .* specfiles checked" "$W/rpmlint" && [ -z "$(grep -E ": E: " "$W/rpmlint" | grep -v ": E: no-signature")" ]'
else
	skip_or_fail_in_ci "rpmlint: not installed"
fi

# what it installs runs: unpacked into a scratch root
R="$W/root"
mkdir -p "$R"
(cd "$R" && rpm2cpio "$RPM" | cpio -idm --quiet) 2>/dev/null
check "the unpacked dslc --version says dslc $VERSION" '[ "$("$R/usr/bin/dslc" --version)" = "dslc $VERSION" ]'
check "the unpacked dslc builds the shipped reference example from /usr/share/doc/dslc/examples" \
	'"$R/usr/bin/dslc" build "$R/usr/share/doc/dslc/examples/hgx-b200/cluster.dsl" -o "$W/tree" >/dev/null 2>&1 && [ -f "$W/tree/nodes/gpu001/etc/daos/daos_server.yml" ]'
page=$(ls "$R"/usr/share/man/man1/dslc.1* 2>/dev/null | head -n 1)
check "the man page renders without a warning and names the shipped SPEC.md" \
	'[ -n "$page" ] && [ -z "$( (zcat -f "$page") | groff -man -ww -z 2>&1)" ] && zcat -f "$page" | grep -q /usr/share/doc/dslc/SPEC.md'
tests_end
