#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Installs what dslc needs to build and test on Debian 12 (run as root, or
# with sudo available). Safe to run again: apt-get skips what is installed.
set -eu
PKGS="build-essential pkg-config flex bison libyaml-dev libjansson-dev libhwloc-dev hwloc nettle-dev check libsubunit-dev python3 python3-yaml python3-jsonschema python3-junitparser python3-jinja2 shellcheck curl valgrind grub-common time clang libclang-rt-14-dev xz-utils libudev1 gawk git pre-commit debhelper lintian groff-base man-db mandoc zsh fish vim neovim containerd mpich libmpich-dev rpm rpmlint debugedit elfutils cpio unzip chromium w3c-sgml-lib fonts-dejavu-core ansible-core ansible-lint"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "install-deps: installing$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# npm packs the VS Code extension (make vsix): the machine's Node.js, else Debian's
if ! command -v npm >/dev/null; then
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
echo "install-deps: all build and test dependencies are present"
