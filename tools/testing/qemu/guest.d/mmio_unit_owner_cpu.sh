#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: the memory-mapped unit's mgmt/ registers are
# read on its own CPU (a reader on CPU 0 makes no access from CPU 0:
# mmio_remote stays), and not at all while that CPU is offline (ENODEV).
s=/sys/kernel/debug/ete_model/cpu3
d=/sys/class/ete/ete3
o=/sys/devices/system/cpu/cpu3/online
remote() {
	sed -n 's/^mmio_remote //p' $s/stats
}
echo 0 >$s/violations
a=$(remote)
taskset -c 0 cat $d/mgmt/trcauthstatus $d/mgmt/trcconfig $d/mgmt/trctraceid || exit 1
b=$(remote)
echo "remote accesses: $a before, $b after"
test "$a" = "$b" || exit 1
echo 0 >$o || exit 1
for f in trcauthstatus trcconfig trctraceid; do
	if cat $d/mgmt/$f 2>/tmp/mmio.err; then
		echo "mgmt/$f read while cpu3 is offline"
		echo 1 >$o
		exit 1
	fi
	grep 'No such device$' /tmp/mmio.err || { cat /tmp/mmio.err; echo 1 >$o; exit 1; }
done
echo 1 >$o || exit 1
cat $d/mgmt/trcauthstatus || exit 1
echo "violations:"
cat $s/violations
test -z "$(cat $s/violations)"
