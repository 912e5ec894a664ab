#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS (dkms.conf, Documentation/user-guide-install.rst): Debian's own dkms
# adds the source as a package would ship it, builds it and installs it for
# each rig kernel (RIG_KERNELS; BUILD_DIR/kernel-VERSION), cross-compiling
# for arm64.  Every tree dkms uses is inside BUILD_DIR/dkms (--dkmstree,
# --sourcetree, --installtree, --no-depmod, no signing key): the host's
# /var/lib/dkms and /lib/modules are not touched, which is checked too.
#
# The installed modules must say what they are (modinfo: description,
# version = VERSION, license GPL, vermagic of the kernel) and load for the
# devices they drive: depmod over the install tree, then modprobe resolves
# the modalias the kernel gives each device, for every devicetree
# compatible and ACPI HID in the sources' match tables and for the
# "arm,trbe" platform device of Linux 6.6+ under ACPI.
#
# Usage: dkms.sh BUILD_DIR; prints TAP.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
kernels=${RIG_KERNELS:-6.1 6.12 7.3}
version=$(cat "$top/VERSION")
work=$build/dkms
. "$here/lib/tap.sh"

# conf_value KEY: KEY's value in dkms.conf, quotes removed
conf_value() {
	sed -n "s/^$1=\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$top/dkms.conf"
}

name=$(conf_value PACKAGE_NAME)
conf_version=$(conf_value PACKAGE_VERSION)
[ "$name" = ete ] && [ "$conf_version" = "$version" ]
tap $? "dkms.conf: PACKAGE_NAME=$name, PACKAGE_VERSION=$conf_version is VERSION ($version)" \
	"dkms reads the version literally: make dkms.conf's PACKAGE_VERSION \"$version\""

if ! command -v dkms >/dev/null; then
	tap 1 "dkms installed (Debian's dkms; setup-host.sh installs host-packages.txt)"
	finish
fi

# What the host has before: it must have the same after
host_state() {
	ls -lAR --time-style=+%s /var/lib/dkms 2>/dev/null
	ls -lA --time-style=+%s /lib/modules 2>/dev/null
}
before=$(host_state)

rm -rf "$work"
mkdir -p "$work/src" "$work/tree" "$work/lib/modules" "$work/bin"
# The source as a package ships it: the tracked files, no build output
src=$work/src/$name-$conf_version
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard | grep -v '^build/') |
	rsync -a --files-from=- "$top/" "$src/"

# Cross-compiling: dkms strips the modules with "strip"; give it arm64's.
# dkms signs with a key it makes in /var/lib/dkms unless told otherwise:
# no signing (the rig kernels do not check signatures), keys kept here.
if [ "$(uname -m)" != aarch64 ]; then
	ln -sf "$(command -v aarch64-linux-gnu-strip)" "$work/bin/strip"
fi
export PATH="$work/bin:$PATH"
export sign_file=/nonexistent mok_signing_key=$work/mok.key mok_certificate=$work/mok.pub
trees=(--dkmstree "$work/tree" --sourcetree "$work/src" --installtree "$work/lib/modules")

log=$(dkms add -m "$name" -v "$conf_version" "${trees[@]}" 2>&1)
tap $? "dkms add $name/$conf_version (source tree $src)" "$log"

# modaliases DIR: the MODALIAS a device matched by DIR's sources sends:
# the devicetree compatibles and ACPI HIDs of the tables named by
# MODULE_DEVICE_TABLE(of|acpi|platform, ...), and MODULE_ALIAS strings
modaliases() {
	python3 - "$top/$1" <<'PY'
import glob, re, sys
for path in sorted(glob.glob(sys.argv[1] + "/*.c")):
    src = open(path).read()
    defs = dict(re.findall(r'#define\s+(\w+)\s+"([^"]*)"', src))
    for bus, table in re.findall(r'MODULE_DEVICE_TABLE\((\w+),\s*(\w+)\)', src):
        m = re.search(r'\b%s\[\]\s*=\s*\{(.*?)\n\};' % table, src, re.S)
        if not m:
            continue
        for entry in re.findall(r'\{([^{}]*)\}', m.group(1)):
            if bus == "of":
                c = re.search(r'\.compatible\s*=\s*"([^"]*)"', entry)
                if c:
                    print("of:NnodeT(null)C" + c.group(1))
                continue
            first = entry.split(",")[0].strip()
            ident = first.strip('"') if first.startswith('"') else defs.get(first)
            if ident and bus == "acpi":
                print("acpi:%s:" % ident)
            elif ident and bus == "platform":
                print("platform:" + ident)
    for alias in re.findall(r'MODULE_ALIAS\("([^"]*)"\)', src):
        print(alias)
PY
}

# What each module must load for, whatever its sources say: a devicetree
# node, and under ACPI an ARMHC500 unit (ete) or the MADT's TRBE (trbe)
required_aliases() {
	case $1 in
	ete) echo "of:NnodeT(null)Carm,embedded-trace-extension acpi:ARMHC500:" ;;
	trbe) echo "of:NnodeT(null)Carm,trace-buffer-extension platform:arm,trbe" ;;
	esac
}

for k in $kernels; do
	kdir=$build/kernel-$k
	if [ ! -f "$kdir/Module.symvers" ]; then
		tap 1 "$k: the rig kernel is built ($kdir/Module.symvers)"
		continue
	fi
	krel=$(make -s -C "$kdir" kernelrelease 2>/dev/null)
	mkdir -p "$work/lib/modules/$krel"
	log=$(dkms build -m "$name" -v "$conf_version" -k "$krel/aarch64" \
		--kernelsourcedir "$kdir" "${trees[@]}" 2>&1)
	rc=$?
	[ $rc = 0 ] || log="$log"$'\n'"$(cat "$work/tree/$name/$conf_version/build/make.log" 2>/dev/null | tail -20)"
	tap $rc "$k: dkms build -k $krel/aarch64 (cross-compiled)" "$log"
	log=$(dkms install -m "$name" -v "$conf_version" -k "$krel/aarch64" \
		--kernelsourcedir "$kdir" --no-depmod "${trees[@]}" 2>&1)
	tap $? "$k: dkms install" "$log"

	dest=$work/lib/modules/$krel/updates/dkms
	for m in ete trbe; do
		ko=$dest/$m.ko
		if [ ! -f "$ko" ]; then
			tap 1 "$k: $m.ko installed in updates/dkms" "$(find "$work/lib/modules/$krel" | head)"
			continue
		fi
		desc=$(modinfo -F description "$ko")
		ver=$(modinfo -F version "$ko")
		lic=$(modinfo -F license "$ko")
		magic=$(modinfo -F vermagic "$ko")
		[ -n "$desc" ] && [ "$ver" = "$version" ] && [ "$lic" = GPL ] &&
			[ "${magic%% *}" = "$krel" ]
		tap $? "$k: $m.ko in updates/dkms: \"$desc\", version $ver, license $lic, vermagic ${magic%% *}" \
			"$(modinfo "$ko" | grep -v '^parm')"
	done

	# depmod over the install tree (here, not the host's), then the
	# lookup udev makes for each device's MODALIAS
	log=$(depmod -b "$work" "$krel" 2>&1)
	tap $? "$k: depmod -b over the dkms install tree" "$log"
	for m in ete trbe; do
		bad=
		aliases=$( (modaliases "$m"; required_aliases "$m" | tr ' ' '\n') | sort -u)
		for alias in $aliases; do
			got=$(modprobe -d "$work" -S "$krel" -R "$alias" 2>&1 | tr '\n' ' ')
			[ "$got" = "$m " ] || bad="$bad$alias -> ${got:-nothing}"$'\n'
		done
		[ -z "$bad" ]
		tap $? "$k: udev loads $m for $(echo $aliases)" \
			"$bad$(modinfo -F alias "$dest/$m.ko" 2>/dev/null)"
	done
	soft=$(modinfo -F softdep "$dest/ete.ko" 2>/dev/null)
	[ "$soft" = "post: trbe" ]
	tap $? "$k: ete.ko brings trbe.ko along (softdep: ${soft:-none})"

	log=$(dkms uninstall -m "$name" -v "$conf_version" -k "$krel/aarch64" \
		--no-depmod "${trees[@]}" 2>&1)
	left=$(find "$work/lib/modules/$krel" -name '*.ko*')
	[ -z "$left" ]
	tap $? "$k: dkms uninstall removes the modules" "$log"$'\n'"$left"
done

log=$(dkms remove -m "$name" -v "$conf_version" --all "${trees[@]}" 2>&1)
tap $? "dkms remove --all" "$log"

after=$(host_state)
[ "$before" = "$after" ]
tap $? "the host's /var/lib/dkms and /lib/modules are as they were" \
	"$(diff <(echo "$before") <(echo "$after"))"
finish
