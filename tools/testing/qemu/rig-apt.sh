#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The rig's own view of Debian's archive, whatever release the host runs:
# apt with a source list, package lists and cache of its own under
# BUILD_DIR/apt, for the packages the rig unpacks but never installs (the
# kernels' linux-source-X, Debian's arm64 kernel headers, the VM's arm64
# busybox).  The host's apt configuration is read (its mirror) but never
# changed: no foreign architecture is added, no list is written outside
# BUILD_DIR.
#
# The suites are those of Debian 12 and 13 with their updates, security
# and backports suites, so every host finds the same packages: 6.1 is
# only in Debian 12, 7.x only in trixie-backports.  The architectures are
# the host's and arm64.
#
# Usage: rig-apt.sh BUILD_DIR update            (re-reads the lists when
#                                                 older than a day)
#        rig-apt.sh BUILD_DIR cache ARGS...      apt-cache ARGS
#        rig-apt.sh BUILD_DIR version PKG        the candidate version of PKG
#        rig-apt.sh BUILD_DIR unpack PKG[:ARCH][=VER] DIR
#                                                 download PKG and unpack it
#                                                 into DIR (dpkg-deb -x)
#        rig-apt.sh BUILD_DIR root PKG[=VER] DIR
#                                                 PKG and every package it
#                                                 depends on, recursively,
#                                                 unpacked into DIR: a
#                                                 program of that release
#                                                 run from DIR through DIR's
#                                                 own dynamic loader, on any
#                                                 host (the perf of each
#                                                 Debian release)
#
# RIG_APT_RELEASE=bookworm|trixie|...: only that release's suites, in
# lists of their own (BUILD_DIR/apt-RELEASE), so that a root's libraries
# are those its program was built against.
set -euo pipefail

build=$(realpath -m "${1:?usage: rig-apt.sh BUILD_DIR update|cache|version|unpack|root ...}")
cmd=${2:?usage: rig-apt.sh BUILD_DIR update|cache|version|unpack|root ...}
shift 2
dir=$build/apt
suites="bookworm bookworm-updates bookworm-backports trixie trixie-updates trixie-backports"
security_suites="bookworm-security trixie-security"
if [ -n "${RIG_APT_RELEASE:-}" ]; then
	r=$RIG_APT_RELEASE
	case "$r" in
	*[!a-z]*) echo "rig-apt: RIG_APT_RELEASE=$r is not a release name" >&2; exit 2 ;;
	esac
	dir=$build/apt-$r
	suites="$r $r-updates $r-backports"
	security_suites="$r-security"
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# mirror_of PATH: the first URI of the host's apt sources whose path ends in
# PATH (/debian or /debian-security), one-line or deb822 format
mirror_of() {
	{ grep -rhoE "^(URIs:|deb( \[[^]]*\])?) +[a-z]+://[^ ]+$1/?( |\$)" \
		/etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true; } |
		awk '{ print $NF }' | sed 's:/$::' | head -n 1
}

arch=$(dpkg --print-architecture)
opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/none"
	-o "Dir::Etc::Preferences=$dir/none" -o "Dir::Etc::PreferencesParts=$dir/none"
	-o "Dir::State::Lists=$dir/lists" -o "Dir::State::status=$dir/status"
	-o "Dir::Cache=$dir/cache" -o "APT::Architecture=$arch"
	-o "APT::Architectures::=$arch" -o "APT::Architectures::=arm64"
	-o "Debug::NoLocking=1" -o "Acquire::Languages=none")
[ "$(id -u)" = 0 ] && opts+=(-o "APT::Sandbox::User=root")

setup() {
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/none"
	[ -f "$dir/status" ] || : >"$dir/status"
	local main sec s
	main=$(mirror_of /debian)
	sec=$(mirror_of /debian-security)
	if [ -z "$main" ]; then
		echo "rig-apt: no Debian mirror in the host's apt sources" >&2
		exit 2
	fi
	[ -r "$keyring" ] || { echo "rig-apt: no $keyring (debian-archive-keyring)" >&2; exit 2; }
	{
		for s in $suites; do
			echo "deb [signed-by=$keyring] $main $s main"
		done
		if [ -n "$sec" ]; then
			for s in $security_suites; do
				echo "deb [signed-by=$keyring] $sec $s main"
			done
		fi
	} >"$dir/sources.list.new"
	mv "$dir/sources.list.new" "$dir/sources.list"
}

update() {
	# several builders may ask at once (kernels build side by side)
	mkdir -p "$dir"
	exec 7>"$dir/.lock"
	flock 7
	if [ -f "$dir/updated" ] && [ -f "$dir/sources.list" ] &&
	   [ -n "$(find "$dir/updated" -mmin -1440)" ]; then
		return 0
	fi
	setup
	if ! timeout 600 apt-get "${opts[@]}" -qq update >"$dir/update.log" 2>&1; then
		echo "rig-apt: apt-get update failed:" >&2
		tail -n 20 "$dir/update.log" >&2
		exit 1
	fi
	# a suite the mirror lacks is only a warning; a missing release is not
	if grep -q '^E:' "$dir/update.log"; then
		grep '^E:' "$dir/update.log" >&2
		exit 1
	fi
	touch "$dir/updated"
	exec 7>&-
}

case "$cmd" in
update)
	update
	;;
cache)
	update
	apt-cache "${opts[@]}" "$@"
	;;
version)
	update
	v=$(apt-cache "${opts[@]}" policy "${1:?version PKG}" | sed -n 's/^ *Candidate: //p')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		echo "rig-apt: no package $1 in $suites" >&2
		exit 1
	fi
	echo "$v"
	;;
unpack)
	pkg=${1:?unpack PKG DIR}
	dest=$(realpath -m "${2:?unpack PKG DIR}")
	update
	tmp=$(mktemp -d "$dir/dl.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"
	if ! (cd "$tmp" && timeout 1200 apt-get "${opts[@]}" -qq download "$pkg") \
		>"$tmp/log" 2>&1; then
		echo "rig-apt: cannot download $pkg:" >&2
		tail -n 5 "$tmp/log" >&2
		exit 1
	fi
	mkdir -p "$dest"
	dpkg-deb -x "$tmp"/*.deb "$dest"
	;;
root)
	pkg=${1:?root PKG DIR}
	dest=$(realpath -m "${2:?root PKG DIR}")
	update
	# unpacked already, from the same lists
	if [ -f "$dest/.rig-root" ] && [ "$(head -n 1 "$dest/.rig-root")" = "$pkg" ] &&
	   [ "$dest/.rig-root" -nt "$dir/updated" ]; then
		exit 0
	fi
	# the closure: real package names only (virtual ones print as <name>),
	# this architecture's (an arm64 alternative is never wanted here)
	deps=$(apt-cache "${opts[@]}" depends --recurse --no-recommends \
		--no-suggests --no-conflicts --no-breaks --no-replaces \
		--no-enhances "$pkg" | awk '/^[a-z0-9]/ && !/:/ { print $1 }' |
		sort -u | grep -vx "${pkg%%=*}" || true)
	if [ -z "$deps" ]; then
		echo "rig-apt: no dependencies of $pkg in $suites" >&2
		exit 1
	fi
	tmp=$(mktemp -d "$dir/dl.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"
	# shellcheck disable=SC2086 # one word per package
	if ! (cd "$tmp" && timeout 1200 apt-get "${opts[@]}" -qq download "$pkg" $deps) \
		>"$tmp/log" 2>&1; then
		echo "rig-apt: cannot download $pkg and its dependencies:" >&2
		tail -n 5 "$tmp/log" >&2
		exit 1
	fi
	rm -rf "$dest"
	mkdir -p "$dest"
	for d in "$tmp"/*.deb; do
		dpkg-deb -x "$d" "$dest"
	done
	{ echo "$pkg"; (cd "$tmp" && ls ./*.deb | sed 's:^\./::'); } >"$dest/.rig-root"
	;;
*)
	echo "rig-apt: unknown command $cmd" >&2
	exit 2
	;;
esac
