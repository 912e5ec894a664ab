#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the build and the test rig need on a Debian 12 or 13 x86-64
# host (the packages of host-packages.txt, by the same names on both).
# Quick when everything is there: it only asks dpkg.
#
# Usage: setup-host.sh BUILD_DIR
set -euo pipefail

build=${1:?usage: setup-host.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
pkgs=$(sed 's/#.*//' "$here/host-packages.txt")

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $missing
fi

# An arm64 busybox for the VM's initramfs, unpacked into the build folder,
# never installed on the host, through the rig's own apt (rig-apt.sh: no
# foreign architecture added to the host).  Debian 12's package has it in
# /bin, Debian 13's (merged /usr) in /usr/bin.
bb=$build/busybox/bin/busybox
if [ ! -x "$bb" ]; then
	rm -rf "$build/busybox.deb.d"
	"$here/rig-apt.sh" "$build" unpack busybox-static:arm64 "$build/busybox.deb.d"
	found=
	for f in bin/busybox usr/bin/busybox; do
		[ -x "$build/busybox.deb.d/$f" ] && found=$build/busybox.deb.d/$f && break
	done
	[ -n "$found" ] || { echo "setup: no busybox in busybox-static:arm64" >&2; exit 1; }
	rm -rf "$build/busybox"
	mkdir -p "$build/busybox/bin"
	mv "$found" "$bb"
	rm -rf "$build/busybox.deb.d"
	echo "setup: arm64 busybox unpacked ($(LC_ALL=C "$here/rig-apt.sh" "$build" version busybox-static:arm64))"
fi
echo "setup: host ready"
