#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: the memory-mapped unit runs a session (the
# model's register file shows EN set, then clear; no violation logged).
. /tests/bin/guest-lib.sh
s=/sys/kernel/debug/ete_test_sink
d=/sys/class/ete/ete3
v=/sys/kernel/debug/ete_model/cpu3/violations
echo 0 >$v &&
	echo 8 >$s/present &&
	echo 1 >$d/enable &&
	grep '^TRCPRGCTLR \|^TRCCONFIGR ' $s/regs3 &&
	test "$(prgctlr_en)" = 1 &&
	echo 0 >$d/enable &&
	cat $d/status &&
	test "$(prgctlr_en)" = 0 &&
	echo 0 >$s/present &&
	echo "violations:" &&
	cat $v &&
	test -z "$(cat $v)"
