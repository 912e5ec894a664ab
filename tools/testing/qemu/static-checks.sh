#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks as a TAP suite: checkpatch --strict on every C source and
# header, and for each rig kernel (RIG_KERNELS, default "6.1 6.12") a
# from-scratch build of every module with W=1 (which also runs kernel-doc)
# and sparse (C=2) that must print no warning.
#
# Usage: static-checks.sh BUILD_DIR [checkpatch|build]
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?}
only=${2:-}
kernels=${RIG_KERNELS:-6.1 6.12}
ksrc=$build/linux-source-${kernels%% *}
cd "$top" || exit 1

files=$(git ls-files -co --exclude-standard -- '*.c' '*.h' | LC_ALL=C sort)
n=0
plan=0
[ "$only" != build ] && plan=$(echo "$files" | grep -c .)
# a build per kernel, and the layer check of ete.ko and trbe.ko
[ "$only" != checkpatch ] && plan=$((plan + $(echo $kernels | wc -w) + 2))
echo "TAP version 13"
echo "1..$plan"

# check_one FILE: checkpatch's findings for FILE, and any kernel version
# test or header probe outside the compat header; nothing when clean
check_one() {
	local f=$1 out
	out=$("$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f "$f" 2>&1 |
		grep -E ':[0-9]+: (ERROR|WARNING|CHECK):')
	# The compat header alone may test LINUX_VERSION_CODE or probe
	# the kernel's headers (Documentation/compat.rst).
	if [ "$f" = include/ete/compat.h ]; then
		out=$(echo "$out" | grep -v LINUX_VERSION_CODE)
	else
		out+=$'\n'$(grep -nE '__has_include|LINUX_VERSION_CODE|KERNEL_VERSION\(' "$f" |
			sed "s|^|$f:|; s|\$| (a kernel difference outside include/ete/compat.h)|")
	fi
	echo "$out" | grep .
}
jobs=$(nproc)

if [ "$only" != build ]; then
	# checkpatch is one perl process per file: run one per core, then
	# report in file order.
	results=$(mktemp -d)
	export -f check_one
	export ksrc
	i=0
	for f in $files; do
		i=$((i + 1))
		printf '%s\0%s\0' "$f" "$results/$i"
	done | xargs -0 -n 2 -P "$jobs" bash -c 'check_one "$0" >"$1"; true'
	for f in $files; do
		n=$((n + 1))
		if [ ! -s "$results/$n" ]; then
			echo "ok $n checkpatch $f"
		else
			echo "not ok $n checkpatch $f"
			sed 's/^/# /' "$results/$n"
		fi
	done
	rm -rf "$results"
fi

if [ "$only" != checkpatch ]; then
	scratch=$build/static-build
	for k in $kernels; do
		n=$((n + 1))
		rm -rf "$scratch"
		mkdir -p "$scratch"
		git ls-files -co --exclude-standard | grep -v '^build/' |
			rsync -a --files-from=- "$top/" "$scratch/"
		log=$(make -s -C "$build/kernel-$k" M="$scratch" ARCH=arm64 \
			CROSS_COMPILE=aarch64-linux-gnu- ETE_TESTS=y W=1 C=2 -j"$jobs" modules 2>&1)
		rc=$?
		warnings=$(echo "$log" | grep -E 'warning|error|: note:' | grep -v '^make')
		if [ "$rc" = 0 ] && [ -z "$warnings" ]; then
			echo "ok $n $k: W=1 C=2 (sparse) build of every module is warning-free"
		else
			echo "not ok $n $k: W=1 C=2 (sparse) build of every module (exit $rc)"
			echo "$warnings" | head -40 | sed 's/^/# /'
		fi
		[ "$k" = "${kernels%% *}" ] || continue
		# Calls between a module's files go down its layers (the
		# objects of the first kernel's build; Documentation/testing.rst)
		for mod in ete trbe; do
			n=$((n + 1))
			if out=$(python3 "$top/tools/testing/layers/check_layers.py" \
				--nm aarch64-linux-gnu-nm "$top/$mod/layers" \
				"$scratch/$mod" 2>&1); then
				echo "ok $n layers of $mod.ko: $(echo "$out" | tail -n1 | sed 's/^# //')"
			else
				echo "not ok $n layers of $mod.ko"
				echo "$out" | grep -E '^# |^[a-z]' | grep -v '^ok ' | sed 's/^/# /'
			fi
		done
	done
	rm -rf "$scratch"
fi
