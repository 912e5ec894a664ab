#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The rig's built kernels kept between checkouts of one machine, so that a
# second clone (a CI run, a worktree) does not compile the same three
# kernels again: about 2,300 s of a 2-core machine.
#
#   kernel-cache.sh restore BUILD_DIR VERSION
#       before build-kernel.sh: into a build directory with no kernel of
#       VERSION yet, copy the cached one (its source tree, its object tree,
#       the package and its version), its paths moved to BUILD_DIR.
#       build-kernel.sh then judges it like its own: current when its
#       stamp (kernel.config, build-kernel.sh, the package's version) is
#       today's, rebuilt in place otherwise.
#   kernel-cache.sh save BUILD_DIR VERSION
#       after build-kernel.sh: keep BUILD_DIR's kernel unless the cache
#       holds that stamp already.
#
# The cache is $RIG_CACHE (default /var/cache/ete-rig), one entry per
# kernel version, about 2.2 GB each; RIG_CACHE=none turns it off, and a
# cache that cannot be made is no cache.  An entry is complete or absent
# (written beside, then renamed); a flock per version keeps two checks
# apart.  Nothing is taken from it that build-kernel.sh would not have
# built from the same inputs.
set -euo pipefail

op=${1:?usage: kernel-cache.sh restore|save BUILD_DIR VERSION}
build=$(realpath -m "${2:?usage: kernel-cache.sh restore|save BUILD_DIR VERSION}")
ver=${3:?usage: kernel-cache.sh restore|save BUILD_DIR VERSION}
cache=${RIG_CACHE:-/var/cache/ete-rig}
[ "$cache" = none ] && exit 0
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || exit 0

pkg=linux-source-$ver
src=$build/$pkg
obj=$build/kernel-$ver
entry=$cache/kernel-$ver
exec 8>"$cache/.kernel-$ver.lock"
flock 8

complete() {
	[ -f "$entry/complete" ] && [ -s "$entry/kernel/.ete-stamp" ] &&
		[ -f "$entry/src/$pkg.tar.xz" ] && [ -s "$entry/src/$pkg.version" ]
}

case $op in
restore)
	[ ! -e "$obj/.ete-stamp" ] && complete || exit 0
	old=$(cat "$entry/build-dir")
	# copied beside, then renamed: a copy that fails half way leaves
	# nothing build-kernel.sh could take for a kernel
	rm -rf "$src.cache" "$obj.cache" "$src" "$obj"
	trap 'rm -rf "$src.cache" "$obj.cache"' EXIT
	mkdir -p "$build/src"
	cp -a "$entry/source" "$src.cache"
	cp -a "$entry/kernel" "$obj.cache"
	# kbuild's object tree names its source tree in two places: the
	# Makefile it generated and the link "source"
	sed -i "s|$old/|$build/|g" "$obj.cache/Makefile"
	ln -sfn "$src" "$obj.cache/source"
	cp -a "$entry/src/$pkg.tar.xz" "$entry/src/$pkg.version" "$build/src/"
	mv "$src.cache" "$src"
	mv "$obj.cache" "$obj"
	trap - EXIT
	echo "kernel $ver: copied from $entry (stamp $(cat "$obj/.ete-stamp"))"
	;;
save)
	[ -s "$obj/.ete-stamp" ] && [ -f "$build/src/$pkg.tar.xz" ] || exit 0
	if complete && cmp -s "$entry/kernel/.ete-stamp" "$obj/.ete-stamp"; then
		exit 0
	fi
	rm -rf "$entry.new"
	mkdir -p "$entry.new/src"
	cp -a "$src" "$entry.new/source"
	cp -a "$obj" "$entry.new/kernel"
	cp -a "$build/src/$pkg.tar.xz" "$build/src/$pkg.version" "$entry.new/src/"
	echo "$build" >"$entry.new/build-dir"
	touch "$entry.new/complete"
	rm -rf "$entry"
	mv "$entry.new" "$entry"
	echo "kernel $ver: kept in $entry"
	;;
*)
	echo "usage: kernel-cache.sh restore|save BUILD_DIR VERSION" >&2
	exit 2
	;;
esac
