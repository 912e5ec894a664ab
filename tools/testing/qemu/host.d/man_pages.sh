#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages (Documentation/man/: etecap(1), ete-decode(1), trbe(4)) as
# a user reads them, and the tools' --version:
#  - "man --warnings -l PAGE" formats each page with no warning from groff
#    or man (an unknown macro, a line too long to break, a bad escape);
#  - etecap.1 and ete-decode.1 describe every long option of the tool's
#    getopt table (tools/ete/etecap-opts.c, ete-decode.c), and trbe.4 every
#    ioctl of include/uapi/linux/ete.h;
#  - etecap and ete-decode, built for the host from the same sources,
#    print "NAME VERSION" for --version, VERSION being the file the
#    modules' MODULE_VERSION also comes from.
# Self-tests: a page with an unknown macro must draw a warning, and a page
# with one option taken out must be found incomplete.
#
# Usage: man_pages.sh BUILD_DIR; prints TAP.
set -uo pipefail

build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
man=$top/Documentation/man
version=$(cat "$top/VERSION")
work=$build/man-pages
. "$here/../lib/tap.sh"

# warnings PAGE: what man and groff say while formatting PAGE (nothing
# when it is clean); the status of man
warnings() {
	LC_ALL=C.UTF-8 MANWIDTH=80 MAN_KEEP_FORMATTING= \
		man --warnings -l "$1" 2>&1 >/dev/null
	return "${PIPESTATUS[0]}"
}

# long_options SOURCE: the names of the getopt_long table(s) of SOURCE
long_options() {
	sed -n 's/^[[:space:]]*{ *"\([a-z][a-z0-9-]*\)", *\(no\|required\|optional\)_argument.*/\1/p' "$1"
}

# missing_options PAGE OPTION...: the options PAGE does not describe
# (as --name, with groff's \- or a plain -)
missing_options() {
	local page=$1 opt text
	shift
	text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page")
	for opt in "$@"; do
		grep -q -- "--$opt\b" <<<"$text" || echo "--$opt"
	done
}

# missing_ioctls PAGE NAME...: the ioctl names PAGE does not describe
missing_ioctls() {
	local page=$1 name text
	shift
	text=$(sed 's/\\_/_/g; s/\\f[BIRP]//g' "$page")
	for name in "$@"; do
		grep -qw -- "$name" <<<"$text" || echo "$name"
	done
}

if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
	tap 1 "man and groff are installed (host-packages.txt: man-db groff-base)"
	finish
fi
rm -rf "$work"
mkdir -p "$work"

pages=$(ls "$man"/*.[0-9] 2>/dev/null)
for want in etecap.1 ete-decode.1 trbe.4; do
	[ -f "$man/$want" ]
	tap $? "Documentation/man/$want exists"
done
for page in $pages; do
	out=$(warnings "$page")
	rc=$?
	[ $rc = 0 ] && [ -z "$out" ]
	tap $? "man --warnings -l $(basename "$page"): formats with no warning"
	diag "$(head -10 <<<"$out")"
done

# Every option, every ioctl
check_options() { # PAGE SOURCE
	local miss
	mapfile -t opts < <(long_options "$2")
	miss=$(missing_options "$1" "${opts[@]}")
	[ ${#opts[@]} -gt 3 ] && [ -z "$miss" ]
	tap $? "$(basename "$1") describes all ${#opts[@]} long options of $(basename "$2")"
	[ -z "$miss" ] || diag "missing: $(echo $miss)"
}
check_options "$man/etecap.1" "$top/tools/ete/etecap-opts.c"
check_options "$man/ete-decode.1" "$top/tools/ete/ete-decode.c"
mapfile -t ioctls < <(grep -o 'ETE_TRBE_IOC_[A-Z_]*' "$top/include/uapi/linux/ete.h" | sort -u)
miss=$(missing_ioctls "$man/trbe.4" "${ioctls[@]}")
[ ${#ioctls[@]} -gt 0 ] && [ -z "$miss" ]
tap $? "trbe.4 describes all ${#ioctls[@]} ioctls of include/uapi/linux/ete.h"
[ -z "$miss" ] || diag "missing: $(echo $miss)"

# --version, from the same sources built for the host
src=$top/tools/ete
vflag=-DETE_VERSION="\"$version\""
if gcc -O1 -D_GNU_SOURCE "$vflag" -I"$top/include/uapi" -o "$work/etecap" \
	$(make -s --no-print-directory -C "$src" etecap-srcs) -pthread \
	>"$work/etecap.log" 2>&1; then
	got=$("$work/etecap" --version 2>&1)
	[ "$got" = "etecap $version" ]
	tap $? "etecap --version prints \"etecap $version\" (got \"$got\")"
else
	tap 1 "etecap builds for the host to ask its --version"
	diag "$(tail -5 "$work/etecap.log")"
fi
if make -s -C "$src" host OUT="$work" >"$work/decode.log" 2>&1; then
	got=$("$work/ete-decode" --version 2>&1)
	[ "$got" = "ete-decode $version" ]
	tap $? "ete-decode --version prints \"ete-decode $version\" (got \"$got\")"
else
	tap 1 "ete-decode builds (libopencsd-dev) to ask its --version"
	diag "$(tail -5 "$work/decode.log")"
fi

# The checks can fail
sed '/^\.SH DESCRIPTION/a .XYZZY unknown macro' "$man/etecap.1" >"$work/bad.1"
out=$(warnings "$work/bad.1")
[ -n "$out" ]
tap $? "self-test: a page with an unknown macro draws a warning (${out%%$'\n'*})"
sed 's/-\\-timestamps/-\\-timestumps/g; s/--timestamps/--timestumps/g' "$man/etecap.1" >"$work/missing.1"
miss=$(missing_options "$work/missing.1" timestamps cpus)
[ "$miss" = "--timestamps" ]
tap $? "self-test: a page without --timestamps is found incomplete (missing: $miss)"
finish
