#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The production build as a user makes it: plain `make` against the
# headers of Debian's own arm64 kernels.  For each rig kernel VERSION the
# linux-headers package of the same version as linux-source-VERSION
# (linux-headers-*-arm64 and, for 6.12, the PREEMPT_RT flavour -rt-arm64)
# gives the configuration (which has no KUnit) and Module.symvers; the tree
# is prepared from the source with that configuration and modules_prepare,
# as a headers package is, and Debian's Module.symvers goes in, so modpost
# checks every symbol the modules use against what Debian's kernel exports
# (with its MODVERSIONS CRCs).  Plain make must build ete.ko and trbe.ko
# and nothing else, with no warning.
#
# Usage: production_build.sh BUILD_DIR; prints TAP.  The prepared trees are
# kept in BUILD_DIR/kdist-VERSION-FLAVOUR and reused.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
kernels=${RIG_KERNELS:-6.1 6.12 7.3}
cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
. "$here/lib/tap.sh"

targets=()
for k in $kernels; do
	targets+=("$k:arm64")
	[ "$k" = 6.12 ] && targets+=("$k:rt-arm64")
done
tap_plan $((3 * ${#targets[@]}))

# The rig's own view of Debian's archive (rig-apt.sh): the arm64 headers
# are found and unpacked the same way on a Debian 12 or 13 host, with no
# foreign architecture on the host.
rapt() { "$here/rig-apt.sh" "$build" "$@"; }

# headers_pkg VERSION FLAVOUR SRCVER: the name of Debian's linux-headers
# package of that flavour and version, from the package index
headers_pkg() {
	local ver=$1 flavour=$2 srcver=$3 p
	for p in $(rapt cache search --names-only "^linux-headers-$ver[.0-9]*[-+].*-$flavour\$" |
		awk '{print $1}'); do
		case "$flavour:$p" in
		arm64:*-rt-arm64 | arm64:*-cloud-arm64) continue ;;
		esac
		# (no "| grep -q" under pipefail: grep leaving at the first
		# match may kill apt-cache with SIGPIPE, failing the pipe)
		if grep -qx "Version: $srcver" <<<"$(rapt cache show "$p:arm64" 2>/dev/null)"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# headers_of VERSION FLAVOUR DIR: unpack Debian's linux-headers package of
# that flavour whose version is the rig's linux-source-VERSION's (the one
# build-kernel.sh fetched: BUILD_DIR/src/linux-source-VERSION.version)
# into DIR; print the path of its tree.  A failure lists the versions the
# index has.
headers_of() {
	local ver=$1 flavour=$2 dir=$3 srcver pkg
	srcver=$(cat "$build/src/linux-source-$ver.version")
	pkg=$(headers_pkg "$ver" "$flavour" "$srcver")
	if [ -z "$pkg" ]; then
		echo "no linux-headers-$ver*-$flavour of version $srcver; the index has:" >&2
		rapt cache search --names-only "^linux-headers-$ver[.0-9]*[-+].*-$flavour\$" |
			awk '{print $1}' | while read -r p; do
			echo "  $p $(rapt cache show "$p:arm64" 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ')"
		done >&2
		return 1
	fi
	rapt unpack "$pkg:arm64=$srcver" "$dir/x" >/dev/null || return 1
	echo "$dir/x/usr/src/$pkg"
}

for t in "${targets[@]}"; do
	k=${t%%:*}
	flavour=${t#*:}
	src=$build/linux-source-$k
	obj=$build/kdist-$k-$flavour
	label="$k (Debian's $flavour headers)"
	if [ ! -f "$obj/Module.symvers" ] || [ ! -f "$obj/include/generated/utsrelease.h" ]; then
		rm -rf "$obj"
		mkdir -p "$obj"
		log=$( { hdr=$(headers_of "$k" "$flavour" "$obj/deb") &&
			cp "$hdr/.config" "$obj/.config" &&
			"$src/scripts/config" --file "$obj/.config" \
				--set-str MODULE_SIG_KEY "" --disable MODULE_SIG_ALL &&
			make -s -C "$src" O="$obj" "${cross[@]}" olddefconfig &&
			make -s -C "$src" O="$obj" "${cross[@]}" \
				KERNELRELEASE="${hdr##*/linux-headers-}" \
				-j"$(nproc)" modules_prepare &&
			cp "$hdr/Module.symvers" "$obj/Module.symvers" &&
			rm -rf "$obj/deb"; } 2>&1)
		if [ $? != 0 ]; then
			rm -f "$obj/Module.symvers"
			tap 1 "$label: Debian's headers prepared (modules_prepare)" "$log"
			tap 1 "$label: plain make builds ete.ko and trbe.ko only (not prepared)"
			tap 1 "$label: warning-free (not prepared)"
			continue
		fi
	fi
	kunit=$(grep -E '^CONFIG_KUNIT=' "$obj/.config")
	# the release the tree was prepared for: Debian's (the package's
	# name), what modules built against its headers must carry
	release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$obj/include/generated/utsrelease.h")
	[ -z "$kunit" ]
	tap $? "$label: prepared for $release, CONFIG_KUNIT ${kunit:-not set}, $(grep -c . "$obj/Module.symvers") symbols in Debian's Module.symvers"

	scratch=$build/prod-build
	rm -rf "$scratch"
	mkdir -p "$scratch"
	(cd "$top" && git ls-files -co --exclude-standard | grep -v '^build/') |
		rsync -a --files-from=- "$top/" "$scratch/"
	# plain make, as README tells a user, with KDIR pointing at the headers
	log=$(make -C "$scratch" KDIR="$obj" "${cross[@]}" 2>&1)
	rc=$?
	built=$(cd "$scratch" && find . -name '*.ko' | sort | tr '\n' ' ')
	vermagic=$(modinfo -F vermagic "$scratch/ete/ete.ko" 2>/dev/null)
	[ "$rc" = 0 ] && [ "$built" = "./ete/ete.ko ./trbe/trbe.ko " ] &&
		[ "${vermagic%% *}" = "$release" ]
	tap $? "$label: plain make builds only ${built:-nothing}(vermagic ${vermagic%% *})" \
		"$(echo "$log" | tail -20)"
	warnings=$(echo "$log" | grep -E '(warning|error|WARNING|ERROR):' | grep -v '^make')
	[ "$rc" = 0 ] && [ -z "$warnings" ]
	tap $? "$label: warning-free" "$warnings"
	rm -rf "$scratch"
done
