#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build an arm64 test kernel from one of Debian's linux-source-VERSION
# packages (6.1 or 6.12) and the config fragment kept beside this script,
# into BUILD_DIR/kernel-VERSION.  Rebuilds only when the fragment (or this
# script) changes; prints nothing but a line when the kernel is current.
#
# Usage: build-kernel.sh BUILD_DIR VERSION
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath -m "${1:?usage: build-kernel.sh BUILD_DIR VERSION}")
ver=${2:?usage: build-kernel.sh BUILD_DIR VERSION}
tarball=/usr/src/linux-source-$ver.tar.xz
src=$build/linux-source-$ver
obj=$build/kernel-$ver
frag=$here/kernel.config
cross=aarch64-linux-gnu-
jobs=$(nproc)

# One builder per kernel at a time (several checks may share a build dir).
mkdir -p "$build"
exec 9>"$build/.kernel-$ver.lock"
flock 9

stamp=$(cat "$frag" "$0" | sha256sum | cut -c1-16)
if [ -f "$obj/.ete-stamp" ] && [ "$(cat "$obj/.ete-stamp")" = "$stamp" ] &&
   [ -f "$obj/arch/arm64/boot/Image" ] && [ -f "$obj/Module.symvers" ]; then
	echo "kernel $ver: up to date ($stamp)"
	exit 0
fi

mkdir -p "$build"
if [ ! -f "$src/Makefile" ]; then
	echo "kernel $ver: unpacking $tarball"
	tar -C "$build" -xJf "$tarball"
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
		if ! grep -qx -- "$line" "$obj/.config"; then
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
echo "kernel $ver: built in $(($(date +%s) - start)) s"
echo "$stamp" >"$obj/.ete-stamp"
