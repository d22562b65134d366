#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
# The GitHub Action's install step (action.yml): makes `dslc` runnable for
# the steps after it. In order:
#   1. DSLC_DEB set: installs that .deb (a path, or an https URL fetched with
#      curl) with apt-get, which pulls in its library dependencies;
#   2. a dslc already on PATH (a runner image or container that ships it);
#   3. else builds the action's own source (GITHUB_ACTION_PATH: the action at
#      the ref the workflow pins in `uses:`) after installing its build
#      dependencies with apt-get, and installs it under /usr/local.
# DSLC_VERSION set: the dslc found must say that version (`dslc --version`),
# else the step fails naming both; a workflow pins what it lints with.
# Inputs arrive only as environment variables, never pasted into a script
# (GitHub's security hardening guide: "Understanding the risk of script
# injections").
set -euo pipefail
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
say() { echo "dslc action: $*"; }
fail() { echo "::error title=dslc action::$*"; exit 1; }

if [ -n "${DSLC_DEB:-}" ]; then
	deb=$DSLC_DEB
	case $deb in
	https://*)
		deb="${RUNNER_TEMP:-/tmp}/dslc.deb"
		curl --fail --silent --show-error --location --proto '=https' -o "$deb" -- "$DSLC_DEB" || fail "could not download $DSLC_DEB"
		;;
	http://* | ftp://*) fail "deb: $DSLC_DEB is not https; give an https URL or a path" ;;
	/*) ;;
	*) deb="./$deb" ;; # apt-get takes a local package only as a path with a slash
	esac
	[ -f "$deb" ] || fail "deb: $deb is not a file"
	sudo_ apt-get update -qq
	sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" || fail "apt-get could not install $deb"
	say "installed $DSLC_DEB"
elif command -v dslc >/dev/null; then
	say "using $(command -v dslc)"
else
	src=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: run this as a step of the action}
	[ -f "$src/Makefile" ] || fail "no dslc source at $src (set the deb input, or put dslc on PATH)"
	say "building dslc from $src"
	sudo_ apt-get update -qq
	sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		build-essential pkg-config flex bison libyaml-dev libjansson-dev libhwloc-dev nettle-dev || fail "apt-get could not install dslc's build dependencies"
	make -C "$src" -j"$(nproc)" || fail "make failed in $src"
	sudo_ make -C "$src" install PREFIX=/usr/local || fail "make install failed in $src"
fi
have=$(dslc --version) || fail "dslc --version failed"
if [ -n "${DSLC_VERSION:-}" ] && [ "$have" != "dslc $DSLC_VERSION" ]; then
	fail "version: the workflow asks for dslc $DSLC_VERSION, this is $have"
fi
say "$have"
