#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The production build as a user makes it: plain `make` against a kernel
# tree configured the way Debian configures its arm64 kernels
# (linux-config-VERSION:arm64, config.arm64_none_arm64, and for 6.12 also
# the PREEMPT_RT flavour), with KUnit switched off, prepared only with
# modules_prepare (what a linux-headers package gives a user).  It must
# build ete.ko and trbe.ko and nothing else, with no warning, for that
# kernel's release.
#
# Usage: production_build.sh BUILD_DIR; prints TAP.  The prepared trees are
# kept in BUILD_DIR/kdist-VERSION-FLAVOUR and reused while their config is.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
kernels=${RIG_KERNELS:-6.1 6.12}
cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
n=0

tap() { # STATUS DESCRIPTION [DIAGNOSTICS]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		[ -n "${3:-}" ] && echo "$3" | head -30 | sed 's/^/# /'
	fi
}

targets=()
for k in $kernels; do
	targets+=("$k:arm64_none_arm64")
	[ "$k" = 6.12 ] && targets+=("$k:arm64_rt_arm64")
done
echo "TAP version 13"
echo "1..$((3 * ${#targets[@]}))"

# config_of VERSION FLAVOUR OUT: Debian's config for that kernel and flavour
config_of() {
	local ver=$1 flavour=$2 out=$3 deb tmp
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -qq "linux-config-$ver:arm64" >/dev/null 2>&1)
	deb=$(ls "$tmp"/linux-config-*_arm64.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		rm -rf "$tmp"
		return 1
	fi
	dpkg-deb -x "$deb" "$tmp/x" &&
		xz -dc "$tmp/x/usr/src/linux-config-$ver/config.$flavour.xz" >"$out"
	local rc=$?
	rm -rf "$tmp"
	return $rc
}

for t in "${targets[@]}"; do
	k=${t%%:*}
	flavour=${t#*:}
	src=$build/linux-source-$k
	obj=$build/kdist-$k-${flavour#arm64_}
	label="$k ($flavour, no KUnit)"
	if [ ! -f "$obj/.config.debian" ] || [ ! -f "$obj/include/generated/utsrelease.h" ]; then
		rm -rf "$obj"
		mkdir -p "$obj"
		log=$( { config_of "$k" "$flavour" "$obj/.config.debian" &&
			cp "$obj/.config.debian" "$obj/.config" &&
			"$src/scripts/config" --file "$obj/.config" --disable KUNIT \
				--disable MODULE_SIG_ALL --set-str SYSTEM_TRUSTED_KEYS "" \
				--set-str SYSTEM_REVOCATION_KEYS "" &&
			make -s -C "$src" O="$obj" "${cross[@]}" olddefconfig &&
			make -s -C "$src" O="$obj" "${cross[@]}" -j"$(nproc)" modules_prepare; } 2>&1)
		if [ $? != 0 ]; then
			rm -f "$obj/.config.debian"
			tap 1 "$label: Debian's config prepared (modules_prepare)" "$log"
			tap 1 "$label: plain make builds ete.ko and trbe.ko only (not prepared)"
			tap 1 "$label: warning-free (not prepared)"
			continue
		fi
	fi
	kunit=$(grep -E '^CONFIG_KUNIT=' "$obj/.config")
	release=$(make -s -C "$obj" "${cross[@]}" kernelrelease 2>/dev/null)
	[ -z "$kunit" ]
	tap $? "$label: Debian's config prepared, $release, CONFIG_KUNIT ${kunit:-not set}"

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
	warnings=$(echo "$log" | grep -E 'warning|error' | grep -v '^make' |
		grep -v 'Symbol info of vmlinux is missing')
	[ "$rc" = 0 ] && [ -z "$warnings" ]
	tap $? "$label: warning-free" "$warnings"
	rm -rf "$scratch"
done
