#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side half of the fw_capture step (manifest.d/60-acpi.list): the
# snapshot etecap wrote in each boot, through the units and TRBE its
# firmware described (devicetree or ACPI), is listed by OpenCSD's
# trc_pkt_lister as written, with no error, every byte consumed, and the
# packets of a running trace unit present.
#
# Usage: fw_capture_decode.sh BUILD_DIR RUN...   (RUN: el1, el2, acpi); TAP.
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR RUN...}
shift
runs=("$@")
want_kinds="I_ASYNC I_TRACE_INFO I_TRACE_ON I_ADDR_L_64IS0 I_ATOM_F1"
. "$(dirname "$0")/../lib/tap.sh"

command -v trc_pkt_lister >/dev/null || skip_all "trc_pkt_lister (libopencsd-bin) not installed"
tap_plan $((2 * ${#runs[@]}))

for run in "${runs[@]}"; do
	dir=$build/runs/$run/fw_capture
	bin=$dir/trace_cpu0.bin
	snap=$dir
	if [ ! -s "$bin" ] || [ ! -s "$dir/ETE_0.ini" ]; then
		tap 1 "$run: the VM left a capture through /dev/trbe0"
		tap 1 "$run: capture decoded (no capture)"
		continue
	fi
	tap 0 "$run: the VM left a capture through /dev/trbe0 ($(stat -c %s "$bin") bytes)"
	lister_clean "$snap" ETB_0 "$(stat -c %s "$bin")" "$snap/list.txt"
	rc=$?
	missing=
	for k in $want_kinds; do
		grep -q "	$k :" "$snap/list.txt" || missing="$missing $k"
	done
	[ -z "$missing" ] || rc=1
	tap $rc "$run: trc_pkt_lister decodes it with no error${missing:+ (missing:$missing)}" \
		"$(lister_errors "$snap/list.txt")"
done
