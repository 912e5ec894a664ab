#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: the core loses power in the middle of a
# session with no CPU PM save: the stop still succeeds, and status says the
# trace ends there (TRCPDSR.STICKYPD), with no write refused.
s=/sys/kernel/debug/ete_test_sink
d=/sys/class/ete/ete3
m=/sys/kernel/debug/ete_model/cpu3
echo 0 >$m/violations &&
	echo 8 >$s/present &&
	echo 1 >$d/enable &&
	echo 2 >$m/powerdown || exit 1
r=1
echo 0 >$d/enable && grep 'lost power' $d/status && r=0
cat $d/status
echo 0 >$s/present
echo 'violations:'
cat $m/violations
test $r = 0 && test -z "$(cat $m/violations)"
