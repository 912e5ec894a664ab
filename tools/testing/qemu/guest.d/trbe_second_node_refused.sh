#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/40-trbe.list: a second TRBE device on the first node's PPI is
# refused (EBUSY, one message naming the CPUs); the first node's devices
# stay and open.
. /tests/bin/guest-lib.sh
insmod $m/trbe_test_second_node.ko || exit 1
d=$(ls -d /sys/bus/platform/devices/trbe.*.auto | head -n1)
echo "second device: $d"
r=0
if [ -z "$d" ] || [ -e "$d/driver" ]; then
	echo "the second device is bound"
	r=1
fi
dmesg | grep 'another TRBE node already serves' || r=1
for c in 0 1 2 3; do
	[ -c /dev/trbe$c ] || { echo "/dev/trbe$c is gone"; r=1; }
done
rmmod trbe_test_second_node || r=1
exec 3</dev/trbe1 || r=1
exec 3<&-
exit $r
