# SPDX-License-Identifier: BSD-2-Clause-Patent
# dslc-containerd-cri's steps (targets/containerd.c prints its header, which says
# why, and sets dslc_built (edit, dropin or both: the way dslc's files for this node
# take) and dslc_release (the containerd release they were built for); compiled into
# dslc as build/gen/targets/containerd_cri.inc).
# shellcheck shell=sh disable=SC2154
set -u
conf=${DSLC_CONTAINERD_CONFIG:-/etc/containerd/config.toml}
confd=${DSLC_CONTAINERD_CONFD:-/etc/containerd/conf.d}
lock=${DSLC_LOCK:-/run/lock/dslc-containerd-cri.lock}
key=device_ownership_from_security_context
refuse() { echo "dslc-containerd-cri: $*; $conf is unchanged" >&2; exit 1; }
command -v containerd >/dev/null 2>&1 || refuse "containerd is not installed"
# "containerd github.com/containerd/containerd 1.7.24 <commit>" (v1.7.24 upstream)
release=$(containerd --version 2>/dev/null | awk '{ sub(/^v/, "", $3); print $3 }')
# the way this node's containerd takes dslc's files (1.x: the edit; 2.x: the
# drop-in, under both plugin names for 2.0.0 and 2.0.1), against the way built
case $release in
1.*) way=edit ;;
2.0.0 | 2.0.0[!0-9]* | 2.0.1 | 2.0.1[!0-9]*) way=both ;;
2.*) way=dropin ;;
*) way=unknown ;;
esac
if [ "$way" != "$dslc_built" ] && ! { [ "$dslc_built" = both ] && [ "$way" = dropin ]; }; then
	refuse "found containerd '${release:-?}', but this node was built for containerd $dslc_release (the description's \`containerd\` or \`os\` line): rebuild it with \`containerd <release>\`"
fi
if [ -L "$conf" ]; then
	refuse "it is a symbolic link (to $(readlink "$conf")): dslc edits only a file of its own"
fi
dir=$(dirname "$conf")
[ -d "$dir" ] || refuse "$dir does not exist"
exec 9>"$lock" || refuse "cannot open the lock $lock"
flock -w 60 9 || refuse "another dslc-containerd-cri holds $lock"
tmp=$(mktemp -d) || refuse "mktemp failed"
new="$dir/.config.toml.dslc-$$"
trap 'rm -rf "$tmp"; rm -f "$new"' EXIT
# today's file; an empty one when there is none (containerd then runs on its defaults)
if [ -e "$conf" ]; then cp -p "$conf" "$tmp/old" || refuse "cannot read it"; else : >"$tmp/old"; fi
# file -> the configuration containerd would run with, without the list of files
# read (a map's order); read from config.toml's directory, where relative imports resolve
view() {
	cp "$1" "$new" 2>"$tmp/err" || return 1
	if [ "$way" = edit ]; then
		containerd --config "$new" config dump >"$tmp/view" 2>"$tmp/err" || return 1
	else
		containerd --config "$new" config migrate >"$tmp/view" 2>"$tmp/err" || return 1
	fi
	grep -v '^ *imports = ' "$tmp/view"
}
# the plugin section that holds the key, as containerd prints its header
if [ "$way" = edit ]; then section='plugins."io.containerd.grpc.v1.cri"'; else section='plugins."io.containerd.cri.v1.runtime"'; fi
# stdin -> the key's value in that section; with `set`, stdin with it true
in_section() {
	awk -v key="$key" -v sec="[$section]" -v set="${1:-}" '
		/^ *\[/ { h = $0; sub(/^ +/, "", h); gsub(/\047/, "\"", h); in_sec = h == sec }
		in_sec && $1 == key { if (set) sub(/= false$/, "= true"); else print $3 }
		set { print }'
}
old_view=$(view "$tmp/old") || refuse "containerd cannot load it: $(tail -n 3 "$tmp/err")"
cur=$(printf '%s\n' "$old_view" | in_section)
case $cur in
true) echo "dslc-containerd-cri: containerd already takes $key = true"; exit 0 ;;
false) ;;
*) refuse "containerd shows no $key in [$section] (found '$cur')" ;;
esac
if [ "$way" = edit ]; then
	# a table made by dotted keys cannot get a header afterwards (TOML 1.0; containerd
	# forbids it; containerd 1.x's parser lets it pass, a strict one would not)
	if ! grep -q '^[[:space:]]*\[[[:space:]]*plugins\.["'"'"']io\.containerd\.grpc\.v1\.cri["'"'"'][[:space:]]*\]' "$tmp/old" &&
		grep -q '["'"'"']io\.containerd\.grpc\.v1\.cri["'"'"'][[:space:]]*\.[[:space:]]*[A-Za-z_]*[[:space:]]*=' "$tmp/old"; then
		refuse "it sets the CRI plugin by dotted keys (\"io.containerd.grpc.v1.cri\".<key> = ...): add \"io.containerd.grpc.v1.cri\".$key = true beside them"
	fi
	# the key under the section's own header, any earlier value of it there
	# dropped; without that header the section is appended (TOML allows a table
	# after its sub-tables)
	awk -v key="$key" '
		/^[ \t]*\[/ { in_cri = 0 }
		/^[ \t]*\[[ \t]*plugins\.("io\.containerd\.grpc\.v1\.cri"|\047io\.containerd\.grpc\.v1\.cri\047)[ \t]*\][ \t]*(#.*)?$/ {
			print; print "  " key " = true"; in_cri = 1; done = 1; next
		}
		in_cri && $0 ~ "^[ \t]*" key "[ \t]*=" { next }
		{ print }
		END {
			if (!done) {
				if (NR == 0) print "version = 2"
				print ""; print "[plugins.\"io.containerd.grpc.v1.cri\"]"; print "  " key " = true"
			}
		}' "$tmp/old" >"$tmp/edited" || refuse "the edit failed"
else
	[ -f "$confd/50-dslc.toml" ] || refuse "dslc's drop-in $confd/50-dslc.toml is not installed"
	# an imports key of the site's own is not rewritten (a TOML array may span lines)
	if grep -q '^[[:space:]]*imports[[:space:]]*=' "$tmp/old"; then
		refuse "its imports do not bring in $confd/50-dslc.toml: add \"$confd/*.toml\" to them"
	fi
	# a top-level key before every table
	{ echo "imports = [\"$confd/*.toml\"]  # dslc-containerd-cri: containerd 2.x reads $confd this way"; cat "$tmp/old"; } >"$tmp/edited" ||
		refuse "the edit failed"
fi
new_view=$(view "$tmp/edited") || refuse "containerd cannot load the edited file: $(tail -n 3 "$tmp/err")"
if [ "$(printf '%s\n' "$new_view" | in_section)" != true ]; then
	if [ "$way" = edit ]; then
		refuse "containerd does not take the edit: a file config.toml imports ($(grep '^imports = ' "$tmp/view" | cut -d= -f2- | sed "s|$new|$conf|")) names [$section], and containerd 1.x takes that whole section from it: set $key = true there"
	fi
	refuse "containerd does not take $key from $confd/50-dslc.toml"
fi
want=$(printf '%s\n' "$old_view" | in_section set)
if [ "$new_view" != "$want" ]; then
	printf '%s\n' "$want" >"$tmp/want"
	printf '%s\n' "$new_view" >"$tmp/got"
	refuse "the edit would change more than $key: $(diff "$tmp/want" "$tmp/got" | grep '^[<>]' | head -n 6 | tr '\n' ' ')"
fi
# Another writer (config management, an operator) may have changed it meanwhile:
# its content wins, and the next boot or run edits that.
if [ -e "$conf" ]; then
	cmp -s "$conf" "$tmp/old" || refuse "it changed while dslc-containerd-cri ran; run it again"
	[ -e "$conf.dslc-orig" ] || cp -p "$conf" "$conf.dslc-orig" || refuse "cannot keep a copy in $conf.dslc-orig"
	cp -p "$conf" "$new" || refuse "cannot write $new"
else
	rm -f "$new"
	(umask 022 && : >"$new") || refuse "cannot write $new"
fi
cat "$tmp/edited" >"$new" || refuse "cannot write $new"
mv -f "$new" "$conf" || refuse "cannot replace it"
echo "dslc-containerd-cri: $conf edited; containerd takes $key = true when it next starts"
