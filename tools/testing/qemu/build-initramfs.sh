#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Pack the VM's initramfs: busybox, /init, every module built in the repo,
# the kselftest programs, the plan's shell step scripts (guest.d/), and the
# manifest lists that say what to run.
#
# Usage: build-initramfs.sh OUT.cpio.gz BUILD_DIR MANIFEST_DIR [EXTRA_DIR]
#   ETE_MODULES=DIR  take the modules from DIR (build-modules.sh's output
#                    for one kernel) instead of the checkout
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:?} build=${2:?} manifests=${3:?} extra=${4:-}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,lib/modules/ete,tests/bin,tests/manifest.d}
# mktemp made the root 0700: as / it would shut every other user out of
# everything (unpriv_test runs etecap as uid 1000)
chmod 0755 "$root"
chmod 1777 "$root/tmp"
cp "$build/busybox/bin/busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 0755 "$here/init" "$root/init"
# init installs the applet links itself (the host cannot run arm64 busybox).
sed -i '2i /bin/busybox --install -s /bin' "$root/init"

mods=${ETE_MODULES:-$top}
find "$mods" -path "$top/build" -prune -o -name '*.ko' -print |
	while read -r ko; do cp "$ko" "$root/lib/modules/ete/"; done
cp "$build"/selftests/* "$root/tests/bin/" 2>/dev/null || true
# The plan's longer shell steps, one script each (guest.d/NAME.sh, named
# by their manifest line), and what they share (guest-lib.sh)
install -m 0755 "$here"/guest.d/*.sh "$root/tests/bin/"
mkdir -p "$root/usr/bin"
cp "$build"/tools/* "$root/usr/bin/" 2>/dev/null || true
cp "$manifests"/*.list "$root/tests/manifest.d/"

if [ -n "$extra" ]; then
	mkdir -p "$root/tests/extra"
	cp -r "$extra"/. "$root/tests/extra/"
	find "$root/tests/extra" -maxdepth 1 -type f -perm -u+x | sort |
		while read -r prog; do
			name=$(basename "$prog")
			ln -s "../extra/$name" "$root/tests/bin/$name"
			printf 'ksft\tall\t%s\n' "$name"
		done >"$root/tests/manifest.d/90-extra.list"
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$out"
