#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: cpu3 was off, its unit lost its state and its
# software lock is set again: a session opens it before writing.
. /tests/bin/guest-lib.sh
s=/sys/kernel/debug/ete_test_sink
d=/sys/class/ete/ete3
v=/sys/kernel/debug/ete_model/cpu3/violations
echo 0 >$v && echo 8 >$s/present || exit 1
r=1
echo 1 >$d/enable &&
	test "$(prgctlr_en)" = 1 &&
	echo 0 >$d/enable &&
	test "$(prgctlr_en)" = 0 &&
	r=0
cat $d/status
echo 0 >$s/present
echo "violations:"
cat $v
test $r = 0 && test -z "$(cat $v)"
