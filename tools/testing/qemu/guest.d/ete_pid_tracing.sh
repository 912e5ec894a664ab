#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/30-ete.list: the PID reaches the trace (TRCCONFIGR bits 0
# RES1, 6 CID, 7 VMID, 15 VMIDOPT): CID at EL1; at EL2 (VHE)
# CONTEXTIDR_EL2, traced as the VMID with VMIDOPT.
s=/sys/kernel/debug/ete_test_sink
echo 15 >$s/present &&
	echo 1 >/sys/class/ete/ete0/enable &&
	v=$(grep '^TRCCONFIGR ' $s/regs0 | cut -d' ' -f2) &&
	echo 0 >/sys/class/ete/ete0/enable &&
	echo "TRCCONFIGR=$v" || exit 1
if dmesg | grep -q 'started at EL2'; then
	test $((v & 0x80c1)) -eq $((0x8081))
else
	test $((v & 0x80c1)) -eq $((0x41))
fi
