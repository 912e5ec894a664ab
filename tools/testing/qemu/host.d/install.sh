#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install and make uninstall (install.mk, Documentation/
# user-guide-install.rst) into staging directories, as a package
# maintainer runs them: from a copy of the tracked files, against the
# first rig kernel (RIG_KERNELS), with DESTDIR, INSTALL_MOD_PATH and
# PREFIX=/usr, plus make install-modprobe.  Every file must be where the
# guide says, nothing else may appear (no depmod output in a bare staging
# directory), and make uninstall must leave no file behind.  Then into a
# module tree that has the kernel's modules.dep (a root image): depmod -b
# must index the modules after the install and forget them after the
# uninstall.
#
# Usage: install.sh BUILD_DIR; prints TAP.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
kernels=${RIG_KERNELS:-6.1 6.12 7.3}
k=${kernels%% *}
kdir=$build/kernel-$k
version=$(cat "$top/VERSION")
work=$build/install-test
. "$here/lib/tap.sh"

if [ ! -f "$kdir/Module.symvers" ]; then
	tap 1 "$k: the rig kernel is built ($kdir/Module.symvers)"
	finish
fi

rm -rf "$work"
src=$work/src dest=$work/dest mods=$work/mods
mkdir -p "$src" "$dest" "$mods"
(cd "$top" && git ls-files -co --exclude-standard | grep -v '^build/') |
	rsync -a --files-from=- "$top/" "$src/"
vars=(KDIR="$kdir" DESTDIR="$dest" INSTALL_MOD_PATH="$mods" PREFIX=/usr)

# Where install.mk says each part goes (UDEVDIR and the tools depend on
# the host: pkg-config udev, libopencsd-dev)
declare -A where
while IFS='=' read -r key val; do
	where[$key]=$val
done < <(make -s --no-print-directory -C "$src" "${vars[@]}" install-vars 2>/dev/null)
krel=${where[KERNELRELEASE]:-}
[ -n "$krel" ] && [ "$krel" = "$(make -s -C "$kdir" kernelrelease 2>/dev/null)" ]
tap $? "install-vars: kernel release ${krel:-none} from KDIR"

# Every file install and install-modprobe must put, relative to the roots
expected() {
	local t m
	echo "mods/lib/modules/$krel/updates/ete/ete.ko"
	echo "mods/lib/modules/$krel/updates/trbe/trbe.ko"
	for t in ${where[TOOLS]}; do echo "dest/usr/bin/$t"; done
	for m in "$top"/Documentation/man/*.1; do
		[ -e "$m" ] && echo "dest/usr/share/man/man1/${m##*/}"
	done
	for m in "$top"/Documentation/man/*.4; do
		[ -e "$m" ] && echo "dest/usr/share/man/man4/${m##*/}"
	done
	echo "dest${where[UDEVDIR]#"$dest"}/rules.d/60-ete-trbe.rules"
	echo "dest${where[UDEVDIR]#"$dest"}/ete-setperms"
	echo "dest/etc/modprobe.d/ete-blacklist-coresight.conf"
}
present() {
	(cd "$work" && find dest mods \( -type f -o -type l \) | sort)
}

log=$(make -C "$src" "${vars[@]}" install install-modprobe 2>&1)
rc=$?
tap $rc "make install install-modprobe DESTDIR INSTALL_MOD_PATH PREFIX=/usr" "$(echo "$log" | tail -20)"
grep -q "note: depmod skipped" <<<"$log"
tap $? "depmod skipped with a note in a bare staging directory" "$(echo "$log" | grep -i depmod)"
diff=$(diff <(expected | sort) <(present))
[ -z "$diff" ]
tap $? "the files are where the guide says, and nothing else ($(expected | wc -l) files)" "$diff"

ko=$mods/lib/modules/$krel/updates/ete/ete.ko
[ "$(modinfo -F version "$ko" 2>/dev/null)" = "$version" ] &&
	[ "$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)" = "$krel" ]
tap $? "installed ete.ko: version $version, vermagic $krel"
readelf -h "$dest/usr/bin/etecap" 2>/dev/null | grep -q 'Machine:.*AArch64' &&
	[ -x "$dest/usr/bin/etecap" ]
tap $? "etecap: an arm64 program, executable"
mode=$(stat -c %a "$dest${where[UDEVDIR]#"$dest"}/ete-setperms" 2>/dev/null)
cmp -s "$top/packaging/udev/60-ete-trbe.rules" "$dest${where[UDEVDIR]#"$dest"}/rules.d/60-ete-trbe.rules" &&
	[ "$mode" = 755 ]
tap $? "udev rule as shipped, ete-setperms mode ${mode:-missing}"
conf=$(modprobe -C "$dest/etc/modprobe.d/ete-blacklist-coresight.conf" --showconfig 2>&1 |
	grep '^blacklist')
[ "$conf" = $'blacklist coresight_etm4x\nblacklist coresight_trbe' ]
tap $? "modprobe reads the blacklist: $(echo $conf)"

log=$(make -C "$src" "${vars[@]}" uninstall 2>&1)
tap $? "make uninstall" "$(echo "$log" | tail -20)"
left=$(present)
[ -z "$left" ]
tap $? "make uninstall leaves no file behind" "$left"

# A root image: the kernel's module tree with its modules.dep
image=$work/image
mkdir -p "$image/lib/modules/$krel"
depmod -b "$image" "$krel" 2>/dev/null
ivars=(KDIR="$kdir" DESTDIR="$work/image-dest" INSTALL_MOD_PATH="$image" PREFIX=/usr)
log=$(make -C "$src" "${ivars[@]}" install-modules 2>&1)
rc=$?
aliases=$(grep -c ' ete$\| trbe$' "$image/lib/modules/$krel/modules.alias" 2>/dev/null)
[ $rc = 0 ] && [ "${aliases:-0}" -gt 0 ] && grep -q "DEPMOD.*$image" <<<"$log"
tap $? "into a root image: depmod -b indexes the modules ($aliases aliases)" \
	"$(echo "$log" | tail -10)"
log=$(make -C "$src" "${ivars[@]}" uninstall 2>&1)
aliases=$(grep -c ' ete$\| trbe$' "$image/lib/modules/$krel/modules.alias" 2>/dev/null)
[ "${aliases:-0}" = 0 ] && [ -z "$(find "$image" -name '*.ko')" ]
tap $? "and uninstall removes them from the index" "$(echo "$log" | tail -10)"
finish
