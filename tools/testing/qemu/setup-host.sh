#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the build and the test rig need on a Debian 12 x86-64 host.
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

updated=
apt_update() {
	[ -n "$updated" ] && return
	apt-get update -qq
	updated=1
}

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	as_root apt-get update -qq
	updated=1
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $missing
fi

# An arm64 busybox for the VM's initramfs, unpacked into the build folder,
# never installed on the host.
bb=$build/busybox/bin/busybox
if [ ! -x "$bb" ]; then
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		as_root dpkg --add-architecture arm64
		updated=
	fi
	[ -n "$updated" ] || as_root apt-get update -qq
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -qq busybox-static:arm64)
	rm -rf "$build/busybox"
	mkdir -p "$build/busybox"
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$build/busybox"
	rm -rf "$tmp"
	[ -x "$bb" ] || { echo "setup: no busybox in busybox-static:arm64" >&2; exit 1; }
	echo "setup: arm64 busybox unpacked"
fi
echo "setup: host ready"
