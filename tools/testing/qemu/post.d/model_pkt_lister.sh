#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side acceptance of the ETE model's trace (Documentation/model.rst):
# the VM step model_capture (manifest.d/20-model.list) left the bytes the
# model's TRBE wrote (model_capture.bin) and the trace unit's registers
# (model_capture.ini) in each run folder.  Build an OpenCSD snapshot of
# them and check that trc_pkt_lister lists every byte as known packets,
# with no error, and with the packet kinds the generator must emit.
#
# Usage: model_pkt_lister.sh BUILD_DIR RUN...   (RUN: el1, el2); prints TAP.
# The tools' side of a capture, the same whatever kernel made it (e2e_decode
# checks each kernel's capture): check.sh runs this on the last kernel only.
# rig-post: last kernel
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR RUN...}
shift
runs=("$@")
want_kinds="I_ASYNC I_TRACE_INFO I_TRACE_ON I_CTXT I_ADDR_L_64IS0 I_ATOM_F1 I_TIMESTAMP"
. "$(dirname "$0")/../lib/tap.sh"

# snapshot DIR BIN INI: an OpenCSD snapshot of the model's capture (cpu 0)
snapshot() {
	"$(dirname "$0")/../ocsd-snapshot.sh" "$1" "$2" "$3" 0
}

# listed_clean DIR: the snapshot's one buffer listed clean (lib/tap.sh),
# the listing in DIR/list.txt
listed_clean() {
	lister_clean "$1" "" "$(stat -c %s "$1"/trace_cpu*.bin)" "$1/list.txt"
}

command -v trc_pkt_lister >/dev/null || skip_all "trc_pkt_lister (libopencsd-bin) not installed"
tap_plan $((1 + 4 * ${#runs[@]}))

for run in "${runs[@]}"; do
	dir=$build/runs/$run
	bin=$dir/model_capture.bin
	ini=$dir/model_capture.ini
	snap=$dir/model_snapshot
	[ -s "$bin" ] && [ -s "$ini" ]
	tap $? "$run: the VM left a model capture"
	if [ ! -s "$bin" ]; then
		for t in "no errors or unknown packets" "every packet kind" "periodic A-Sync"; do
			tap 1 "$run: $t (no capture)"
		done
		continue
	fi
	snapshot "$snap" "$bin" "$ini"
	listed_clean "$snap"
	tap $? "$run: trc_pkt_lister lists $(stat -c %s "$bin") bytes with no errors or unknown packets" \
		"$(lister_errors "$snap/list.txt")"
	missing=
	for k in $want_kinds; do
		grep -q "	$k :" "$snap/list.txt" || missing="$missing $k"
	done
	[ -z "$missing" ]
	tap $? "$run: packets $want_kinds all present${missing:+ (missing:$missing)}"
	asyncs=$(grep -c "	I_ASYNC :" "$snap/list.txt")
	[ "$asyncs" -ge 4 ]
	tap $? "$run: periodic A-Sync per TRCSYNCPR ($asyncs found)"
done

# The check can fail: a reserved header (0x08) in the stream must be seen.
first=${runs[0]:-el1}
if [ -s "$build/runs/$first/model_capture.bin" ]; then
	snap=$build/runs/$first/model_snapshot_corrupt
	snapshot "$snap" "$build/runs/$first/model_capture.bin" \
		"$build/runs/$first/model_capture.ini"
	printf '\x08' | dd of="$snap/trace_cpu0.bin" bs=1 seek=12 conv=notrunc status=none
	! listed_clean "$snap"
	tap $? "self-test: a corrupted copy of the capture is rejected"
else
	tap 1 "self-test: a corrupted copy of the capture is rejected (no capture)"
fi
