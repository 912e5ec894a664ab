#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build an arm64 test kernel from one of Debian's linux-source-VERSION
# packages (6.1, 6.12, 7.3) and the config fragment kept beside this
# script, into BUILD_DIR/kernel-VERSION.  The package comes from Debian's
# archive through rig-apt.sh, whatever the host's release (6.1 is only in
# Debian 12, 7.x only in trixie-backports), and is unpacked, never
# installed; BUILD_DIR/src keeps its tarball and version.  Rebuilds only
# when the fragment, this script or the package's version changes; prints
# nothing but a line when the kernel is current.
#
# Usage: build-kernel.sh BUILD_DIR VERSION
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath -m "${1:?usage: build-kernel.sh BUILD_DIR VERSION}")
ver=${2:?usage: build-kernel.sh BUILD_DIR VERSION}
src=$build/linux-source-$ver
obj=$build/kernel-$ver
frag=$here/kernel.config
cross=aarch64-linux-gnu-
jobs=$(nproc)

# One builder per kernel at a time (several checks may share a build dir).
mkdir -p "$build"
exec 9>"$build/.kernel-$ver.lock"
flock 9

# The source: the archive's candidate the first time, then the version
# fetched then (BUILD_DIR/src/linux-source-VERSION.version), until that
# file is removed: a rebuild never waits on the network.
pkg=linux-source-$ver
tarball=$build/src/$pkg.tar.xz
if [ ! -f "$tarball" ] || [ ! -s "$build/src/$pkg.version" ]; then
	pv=$("$here/rig-apt.sh" "$build" version "$pkg")
	echo "kernel $ver: fetching $pkg $pv"
	rm -rf "$build/src/$pkg.deb.d"
	"$here/rig-apt.sh" "$build" unpack "$pkg=$pv" "$build/src/$pkg.deb.d"
	mv "$build/src/$pkg.deb.d/usr/src/$pkg.tar.xz" "$tarball"
	rm -rf "$build/src/$pkg.deb.d"
	echo "$pv" >"$build/src/$pkg.version"
fi
pv=$(cat "$build/src/$pkg.version")

stamp=$( (cat "$frag" "$0"; echo "$pv") | sha256sum | cut -c1-16)
if [ -f "$obj/.ete-stamp" ] && [ "$(cat "$obj/.ete-stamp")" = "$stamp" ] &&
   [ -f "$obj/arch/arm64/boot/Image" ] && [ -f "$obj/Module.symvers" ]; then
	echo "kernel $ver: up to date ($stamp)"
	exit 0
fi

if [ ! -f "$src/Makefile" ] || [ "$(cat "$src/.ete-version" 2>/dev/null)" != "$pv" ]; then
	echo "kernel $ver: unpacking $pkg $pv"
	rm -rf "$src"
	tar -C "$build" -xJf "$tarball"
	echo "$pv" >"$src/.ete-version"
fi

rm -rf "$obj"
mkdir -p "$obj"
kmake() {
	make -s -C "$src" O="$obj" ARCH=arm64 CROSS_COMPILE=$cross "$@"
}

echo "kernel $ver: configuring (allnoconfig + $(basename "$frag"))"
kmake KCONFIG_ALLCONFIG="$frag" allnoconfig

# Every option the fragment asks for must have survived dependency resolution.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		sym=${line%%=*}
		if grep -qx -- "$line" "$obj/.config"; then
			:
		elif ! grep -rqsx --include='Kconfig*' "config ${sym#CONFIG_}" \
			"$src"; then
			# newer than this kernel (KUNIT_AUTORUN_ENABLED)
			echo "kernel $ver: $sym: not an option of this kernel"
		else
			echo "kernel $ver: fragment option not in .config: $line" >&2
			missing=1
		fi
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -q "^$opt=" "$obj/.config"; then
			echo "kernel $ver: fragment disables $opt but it is set" >&2
			missing=1
		fi
		;;
	esac
done <"$frag"
[ "$missing" = 0 ] || exit 1

echo "kernel $ver: building Image and modules with $jobs jobs"
start=$(date +%s)
kmake -j"$jobs" Image modules
echo "kernel $ver: $pkg $pv built in $(($(date +%s) - start)) s"
echo "$stamp" >"$obj/.ete-stamp"
