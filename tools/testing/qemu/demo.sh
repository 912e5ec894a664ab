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
echo "==> user tools";    make -s -C "$top/tools/ete" OUT="$build/tools"
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
# Decode each CPU's capture on the host: an OpenCSD snapshot per CPU (the
# unit's registers as read back from sysfs, and the raw TRBE stream), listed
# by trc_pkt_lister.
decode_cpu() {
	local n=$1 snap=$run/snapshot/cpu$1
	"$here/ocsd-snapshot.sh" "$snap" "$run/demo/trace_cpu$n.bin" "$run/demo/ETE_$n.ini" "$n"
	(cd "$snap" && trc_pkt_lister -ss_dir "$snap" -logstdout >list.txt 2>&1)
}

echo "--- decode (OpenCSD trc_pkt_lister, on the host)"
for bin in "$run"/demo/trace_cpu*.bin; do
	[ -s "$bin" ] || { echo "no capture"; status=1; break; }
	n=${bin##*trace_cpu}
	n=${n%.bin}
	decode_cpu "$n"
	list=$run/snapshot/cpu$n/list.txt
	errors=$(grep -cE 'OCSD_ERR|I_RESERVED|I_BAD_SEQUENCE|UNKNOWN' "$list" || true)
	kinds=$(grep -oE '	I_[A-Z0-9_]+ :' "$list" | tr -d '\t :' | sort | uniq -c |
		sort -rn | awk '{printf "%s %s, ", $2, $1}')
	echo "cpu$n: $(stat -c %s "$bin") bytes, $(grep -c '	I_' "$list") packets, $errors errors: ${kinds%, }"
	[ "$errors" = 0 ] || status=1
done
echo "--- first packets of cpu0 ($run/snapshot/cpu0/list.txt)"
grep -m 12 '	I_' "$run/snapshot/cpu0/list.txt" | cut -c1-110
exit $status
