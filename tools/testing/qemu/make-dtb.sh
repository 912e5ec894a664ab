#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the VM's devicetree: QEMU virt's own DTB for the given machine
# options, plus the trace nodes of ete-nodes.dtsi.
#
# Usage: make-dtb.sh OUT.dtb MACHINE-OPTIONS CPU-OPTIONS SMP MEM
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?} machine=${2:?} cpu=${3:?} smp=${4:?} mem=${5:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

qemu-system-aarch64 -M "$machine,dumpdtb=$tmp/virt.dtb" -cpu "$cpu" \
	-smp "$smp" -m "$mem" -display none >/dev/null 2>&1
[ -s "$tmp/virt.dtb" ] || { echo "make-dtb: QEMU did not dump a DTB" >&2; exit 1; }
dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb"
cat "$tmp/virt.dts" "$here/ete-nodes.dtsi" >"$tmp/ete.dts"
dtc -q -I dts -O dtb -o "$out" "$tmp/ete.dts"
