#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The RPM package (issue 55 item 11), for the nodes that run `dslc doctor`
# (Azure Linux 3, RHEL 9, Rocky, SLES): rpmbuild builds it from rpm/dslc.spec
# and a tarball of the committed tree, `rpm -qlp` lists the install set (the
# binary, man pages, completions, schemas, editor files, SPEC.md and the
# examples), its metadata is the spec's, rpmlint finds no error, and the dslc
# it holds runs. Debian's rpmbuild has no RPM database of the build
# dependencies, so it builds with --nodeps; the spec's BuildRequires are
# checked against what the Makefile links instead. A package built here is
# marked so (release 1.debianbuild: Debian's library versions in its
# Requires) and make rpm says it is for trying; the package for the nodes is
# rebuilt from `make srpm` on their distribution. Issue 73 item 6: the
# debuginfo split (dslc-debuginfo holds the symbols, the shipped binary is
# stripped), URL and changelog, rpmlint on the spec, the SRPM and both RPMs.
#   tests/package_rpm.sh             the test
#   tests/package_rpm.sh build-only  make rpm: the .rpm into build/rpm/
#   tests/package_rpm.sh srpm        make srpm: the source RPM alone
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

URLDEF=()
[ -z "${URL:-}" ] || URLDEF=(--define "dslc_url $URL")
if [ "$MODE" = srpm ]; then
	rpmbuild --define "_topdir $W" "${URLDEF[@]}" --nodeps -bs rpm/dslc.spec >"$W/build.log" 2>&1 || { cat "$W/build.log"; exit 1; }
	mkdir -p build/rpm && cp "$W"/SRPMS/dslc-"$VERSION"-1.src.rpm build/rpm/ && echo "build/rpm/dslc-$VERSION-1.src.rpm"
	echo "dslc: rebuild it on RHEL/Rocky 9, SLES 15 or Azure Linux 3: rpmbuild --rebuild dslc-$VERSION-1.src.rpm"
	exit 0
fi
rpmbuild --define "_topdir $W" --define "dist .debianbuild" --define "dslc_debianbuild 1" "${URLDEF[@]}" --nodeps -ba rpm/dslc.spec >"$W/build.log" 2>&1
rc=$?
RPM=$(ls "$W"/RPMS/*/dslc-"$VERSION"-1.debianbuild.*.rpm 2>/dev/null | head -n 1)
DEBUGINFO=$(ls "$W"/RPMS/*/dslc-debuginfo-"$VERSION"-1.*.rpm 2>/dev/null | head -n 1)
SRPM=$(ls "$W"/SRPMS/dslc-"$VERSION"-1*.src.rpm 2>/dev/null | head -n 1)
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
	echo "dslc: this RPM was built on Debian, with Debian's library versions in its Requires: for trying, not for"
	echo "dslc: RHEL/Rocky, SLES or Azure Linux nodes; for those: make srpm, then rpmbuild --rebuild on the distribution"
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

# issue 73 item 6: what a distribution's package has
check "the release says where it was built (1.debianbuild), the URL and the changelog are the spec's" \
	'[ "$(rpm -qp --qf "%{RELEASE}" "$RPM" 2>/dev/null)" = 1.debianbuild ] && [ -n "$(rpm -qp --qf "%{URL}" "$RPM" 2>/dev/null | grep "^https://")" ] && rpm -qp --changelog "$RPM" 2>/dev/null | head -n 1 | grep -q " - $VERSION-1$"'
check "a debuginfo package is built beside it ($(basename "${DEBUGINFO:-none}")), with dslc's symbols" \
	'[ -n "$DEBUGINFO" ] && rpm -qlp "$DEBUGINFO" 2>/dev/null | grep -q "^/usr/lib/debug/usr/bin/dslc-.*\.debug$"'
mkdir -p "$W/strip"
(cd "$W/strip" && rpm2cpio "$RPM" | cpio -idm --quiet ./usr/bin/dslc) 2>/dev/null
check "the shipped binary is stripped (no .symtab, no .debug_info) and says where its symbols are (.gnu_debuglink)" \
	'[ -f "$W/strip/usr/bin/dslc" ] && ! readelf -S "$W/strip/usr/bin/dslc" | grep -q "\.symtab\|\.debug_info" && readelf -S "$W/strip/usr/bin/dslc" | grep -q "\.gnu_debuglink"'
check "Requires come from the binary: its libraries' sonames (libyaml, jansson, hwloc, nettle, libc)" \
	'r=$(rpm -qp --requires "$RPM" 2>/dev/null); for l in libyaml-0.so libjansson.so libhwloc.so libnettle.so libc.so; do echo "$r" | grep -q "^$l" || exit 1; done'

# rpmlint on the spec, the source package and both packages: no error but
# the signature (a build service signs); each warning printed for review
if command -v rpmlint >/dev/null; then
	rpmlint rpm/dslc.spec "$SRPM" "$RPM" "$DEBUGINFO" >"$W/rpmlint" 2>&1
	grep -E ': W: ' "$W/rpmlint" | sed 's/^/  rpmlint /' | head -20
	# the two errors the spec explains: the signature, and the debuginfo's .debug file taken for a library
	errors=$(grep -E ': E: ' "$W/rpmlint" | grep -v ': E: no-signature' | grep -v '^dslc-debuginfo[^:]*: E: shared-library-without-dependency-information ')
	check "rpmlint on the spec, the SRPM and both RPMs finds no error but no-signature${errors:+: $(echo "$errors" | head -3 | tr '\n' ' ')}" \
		'grep -q "4 packages and 0 specfiles checked\|3 packages and 1 specfiles checked" "$W/rpmlint" && [ -z "$errors" ]'
	# every warning left is one the spec explains
	unexplained=""
	for w in $(grep -oE ': W: [a-z0-9-]+' "$W/rpmlint" | awk '{print $3}' | sort -u); do
		grep -q "^#   $w " rpm/dslc.spec || unexplained="$unexplained $w"
	done
	check "every rpmlint warning is explained in the spec's header${unexplained:+ (not:$unexplained)}" '[ -z "$unexplained" ]'
else
	skip_or_fail_in_ci "rpmlint: not installed"
fi
# make srpm: the source package alone, its URL from URL=
if URL=https://example.org/dslc bash tests/package_rpm.sh srpm >"$W/srpm.out" 2>&1; then
	S=build/rpm/dslc-$VERSION-1.src.rpm
	check "make srpm writes the source package alone, with URL= as its URL, and says where to rebuild it" \
		'[ -f "$S" ] && [ "$(rpm -qp --qf "%{URL}" "$S" 2>/dev/null)" = https://example.org/dslc ] && grep -q "rpmbuild --rebuild" "$W/srpm.out"'
else
	no "make srpm: $(tail -3 "$W/srpm.out")"
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
