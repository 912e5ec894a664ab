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
set -euo pipefail

build=$(realpath -m "${1:?usage: rig-apt.sh BUILD_DIR update|cache|version|unpack ...}")
cmd=${2:?usage: rig-apt.sh BUILD_DIR update|cache|version|unpack ...}
shift 2
dir=$build/apt
suites="bookworm bookworm-updates bookworm-backports trixie trixie-updates trixie-backports"
security_suites="bookworm-security trixie-security"
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
*)
	echo "rig-apt: unknown command $cmd" >&2
	exit 2
	;;
esac
