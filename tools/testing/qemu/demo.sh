#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README's main job (make demo): build what is needed, boot the arm64 VM,
# load the driver and run the demo plan in demo.d/, then print what each
# step showed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$top/build
run=$build/runs/demo

echo "==> host setup";    "$here/setup-host.sh" "$build"
echo "==> test kernel";   "$here/build-kernel.sh" "$build"
echo "==> modules";       make -s -C "$top" modules
echo "==> test programs"; make -s -C "$top/tools/testing/selftests/ete" \
	OUT="$build/selftests" KSFT_DIR="$build/linux-source-6.1/tools/testing/selftests"
echo "==> initramfs";     "$here/build-initramfs.sh" "$build/demo.cpio.gz" "$build" "$here/demo.d"

rm -rf "$run"
mkdir -p "$run"
echo "==> booting the VM (QEMU virt, 4 CPUs, GICv3); console in $run/console.log"
"$here/run-vm.sh" -t 600 "$build/kernel/arch/arm64/boot/Image" "$build/demo.cpio.gz" "$run" || {
	echo "demo: the VM did not finish; last console lines:" >&2
	tail -20 "$run/console.log" >&2
	exit 1
}

status=0
while read -r kind _ name _; do
	case "$kind" in
	insmod)
		rc=$(sed -n "s/^insmod $name rc=//p" "$run/events")
		echo "--- insmod $name.ko: ${rc:-not run}"
		[ "$rc" = 0 ] || status=1
		;;
	sh)
		echo "--- ${name#*-}"
		cat "$run/sh/$name.log" 2>/dev/null || { echo "(no output)"; status=1; }
		;;
	esac
done < <(grep -hv '^#' "$here"/demo.d/*.list)
exit $status
