#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README's main job (make demo): build what is needed, boot the arm64 VM,
# load the driver and run the demo plan in demo.d/ (etecap around a
# workload on four CPUs), print what each step showed, then decode the
# snapshot etecap wrote on the host.  RIG_VM_LOCK=FILE serializes the VM
# boot with other checkouts, as for make check.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$top/build
run=$build/runs/demo
# The kernel the demo boots: Debian's linux-source-6.12 unless DEMO_KERNEL
# names another the rig builds (6.1).
k=${DEMO_KERNEL:-6.12}

echo "==> host setup";    "$here/setup-host.sh" "$build"
echo "==> test kernel";   "$here/build-kernel.sh" "$build" "$k"
echo "==> modules";       "$here/build-modules.sh" "$build" "$k"
echo "==> test programs"; make -s -C "$top/tools/testing/selftests/ete" \
	OUT="$build/selftests" KSFT_DIR="$build/linux-source-$k/tools/testing/selftests"
echo "==> user tools";    make -s -C "$top/tools/ete" OUT="$build/tools"
echo "==> initramfs";     ETE_MODULES="$build/mod-$k" \
	"$here/build-initramfs.sh" "$build/demo.cpio.gz" "$build" "$here/demo.d"

rm -rf "$run"
mkdir -p "$run"
echo "==> booting the VM (QEMU virt, 4 CPUs, GICv3, Linux $k); console in $run/console.log"
lock=()
[ -n "${RIG_VM_LOCK:-}" ] && lock=(flock "$RIG_VM_LOCK")
"${lock[@]}" "$here/run-vm.sh" -t 600 "$build/kernel-$k/arch/arm64/boot/Image" "$build/demo.cpio.gz" "$run" || {
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
# Decode the snapshot on the host, one CPU's buffer at a time: with
# tools/ete/ete-decode (libopencsd's C API) where it is built, else with
# OpenCSD's trc_pkt_lister -decode when the snapshot holds the model's
# program image, else as a packet listing (nothing to decode against).
snap=$run/demo/snapshot
[ -s "$snap/snapshot.ini" ] || { echo "demo: etecap wrote no snapshot" >&2; exit 1; }
decoder=
if [ -f "$top/tools/ete/ete-decode.c" ] &&
	make -s -C "$top/tools/ete" host OUT="$build/host-tools" >/dev/null; then
	decoder=ete-decode
elif grep -q '^saved .* --mem ' "$snap/memory.txt"; then
	decoder=trc_pkt_lister
fi
bad_re='OCSD_ERR|I_RESERVED|I_BAD_SEQUENCE|UNKNOWN'

decode_cpu() {
	local n=$1 out=$snap/decode_cpu$1.txt
	case "$decoder" in
	ete-decode)
		"$build/host-tools/ete-decode" "$snap" --cpu "$n" >"$out" 2>&1
		echo "cpu$n: $(grep -c '^R ' "$out") instruction ranges, $(grep -c '^E ' "$out") errors"
		grep -q '^E ' "$out" && return 1
		# the model's ground truth of the same session, when it was saved
		truth=$run/demo/truth_cpu$n.txt
		[ -s "$truth" ] || return 0
		"$build/host-tools/ete-decode" "$snap" --cpu "$n" --compare "$truth" \
			>"$snap/compare_cpu$n.txt" 2>&1
		rc=$?
		echo "      against the model's ground truth: $(tail -1 "$snap/compare_cpu$n.txt")"
		return $rc
		;;
	trc_pkt_lister)
		(cd "$snap" && trc_pkt_lister -ss_dir "$snap" -src_name "ETB_$n" -decode -logstdout) >"$out" 2>&1
		echo "cpu$n: $(grep -c 'OCSD_GEN_TRC_ELEM_INSTR_RANGE' "$out") instruction ranges, $(grep -cE "$bad_re" "$out") errors"
		;;
	*)
		(cd "$snap" && trc_pkt_lister -ss_dir "$snap" -src_name "ETB_$n" -logstdout) >"$out" 2>&1
		kinds=$(grep -oE '	I_[A-Z0-9_]+ :' "$out" | tr -d '\t :' | sort | uniq -c |
			sort -rn | awk '{printf "%s %s, ", $2, $1}')
		echo "cpu$n: $(grep -c '	I_' "$out") packets, $(grep -cE "$bad_re" "$out") errors: ${kinds%, }"
		;;
	esac
	! grep -qE "$bad_re" "$out"
}

echo "--- decode on the host (${decoder:-trc_pkt_lister packet listing: no program image to decode against})"
for bin in "$snap"/trace_cpu*.bin; do
	n=${bin##*trace_cpu}
	n=${n%.bin}
	[ -s "$bin" ] || { echo "cpu$n: no trace"; status=1; continue; }
	decode_cpu "$n" || status=1
done
first=$snap/decode_cpu0.txt
case "$decoder" in
ete-decode)
	echo "--- first decoded ranges of cpu0 ($first)"
	grep -m 12 '^R ' "$first"
	;;
trc_pkt_lister)
	echo "--- first decoded ranges of cpu0 ($first)"
	grep -m 12 'OCSD_GEN_TRC_ELEM_INSTR_RANGE' "$first" | cut -c1-140
	;;
*)
	echo "--- first packets of cpu0 ($first)"
	grep -m 12 '	I_' "$first" | cut -c1-110
	;;
esac
exit $status
