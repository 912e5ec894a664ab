#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: one VM boot runs tools/testing/selftests/ete/ete_bench
# (bench.d/) against the model; tools/testing/bench/report.py prints its
# figures as one table beside mainline's counts and the previous run's
# figures (build/bench/results.tsv, kept as results.prev.tsv), marking any
# figure more than 10% worse.  Benchmarks are not tests: this fails only if
# the VM does not finish or prints no figures.  BENCH_KERNEL=6.1 boots the
# other kernel the rig builds; RIG_VM_LOCK=FILE serializes the VM boot with
# other checkouts, as for make check.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$top/build
run=$build/runs/bench
out=$build/bench
k=${BENCH_KERNEL:-6.12}

t0=$(date +%s)
echo "==> host setup";    "$here/setup-host.sh" "$build"
echo "==> test kernel";   "$here/build-kernel.sh" "$build" "$k"
echo "==> modules";       "$here/build-modules.sh" "$build" "$k"
echo "==> test programs"; make -s -C "$top/tools/testing/selftests/ete" \
	OUT="$build/selftests" KSFT_DIR="$build/linux-source-$k/tools/testing/selftests"
echo "==> initramfs";     ETE_MODULES="$build/mod-$k" \
	"$here/build-initramfs.sh" "$build/bench.cpio.gz" "$build" "$here/bench.d"
echo "==> set-up: $(( $(date +%s) - t0 )) s"

rm -rf "$run"
mkdir -p "$run" "$out"
echo "==> booting the VM (QEMU virt, 4 CPUs, TCG, Linux $k); console in $run/console.log"
lock=()
[ -n "${RIG_VM_LOCK:-}" ] && lock=(flock "$RIG_VM_LOCK")
t1=$(date +%s)
"${lock[@]}" "$here/run-vm.sh" -t 900 "$build/kernel-$k/arch/arm64/boot/Image" "$build/bench.cpio.gz" "$run" || {
	echo "bench: the VM did not finish; last console lines:" >&2
	tail -20 "$run/console.log" >&2
	exit 1
}
echo "==> VM: $(( $(date +%s) - t1 )) s"
log=$run/sh/bench.log
grep -q '^BENCH' "$log" 2>/dev/null || {
	echo "bench: ete_bench printed no figures:" >&2
	tail -20 "$log" >&2 || true
	exit 1
}
grep '^# ' "$log" || true
[ -f "$out/results.tsv" ] && mv "$out/results.tsv" "$out/results.prev.tsv"
python3 "$top/tools/testing/bench/report.py" \
	--mainline "$top/tools/testing/bench/mainline-counts.tsv" \
	--kernel "$k" --log "$log" --out "$out/results.tsv" \
	--prev "$out/results.prev.tsv"
