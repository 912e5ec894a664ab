#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks as a TAP suite: checkpatch --strict on every C source and
# header, and a from-scratch module build with W=1 (which also runs
# kernel-doc) and sparse (C=2) that must print no warning.
#
# Usage: static-checks.sh BUILD_DIR [checkpatch|build]
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?}
only=${2:-}
ksrc=$build/linux-source-6.1
cd "$top" || exit 1

files=$(git ls-files -co --exclude-standard -- '*.c' '*.h' | LC_ALL=C sort)
n=0
plan=0
[ "$only" != build ] && plan=$(echo "$files" | grep -c .)
[ "$only" != checkpatch ] && plan=$((plan + 1))
echo "TAP version 13"
echo "1..$plan"

if [ "$only" != build ]; then
	for f in $files; do
		n=$((n + 1))
		out=$("$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse \
			--show-types -f "$f" 2>&1 |
			grep -E ':[0-9]+: (ERROR|WARNING|CHECK):')
		# The compat header alone may test LINUX_VERSION_CODE.
		if [ "$f" = include/ete/compat.h ]; then
			out=$(echo "$out" | grep -v LINUX_VERSION_CODE)
		fi
		if [ -z "$out" ]; then
			echo "ok $n checkpatch $f"
		else
			echo "not ok $n checkpatch $f"
			echo "$out" | sed 's/^/# /'
		fi
	done
fi

if [ "$only" != checkpatch ]; then
	n=$((n + 1))
	scratch=$build/static-build
	rm -rf "$scratch"
	mkdir -p "$scratch"
	git ls-files -co --exclude-standard | grep -v '^build/' |
		rsync -a --files-from=- "$top/" "$scratch/"
	log=$(make -s -C "$build/kernel" M="$scratch" ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- W=1 C=2 modules 2>&1)
	rc=$?
	warnings=$(echo "$log" | grep -E 'warning|error|: note:' | grep -v '^make')
	if [ "$rc" = 0 ] && [ -z "$warnings" ]; then
		echo "ok $n W=1 C=2 (sparse) module build is warning-free"
	else
		echo "not ok $n W=1 C=2 (sparse) module build (exit $rc)"
		echo "$warnings" | head -40 | sed 's/^/# /'
	fi
	rm -rf "$scratch"
fi
