#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: a unit whose CPU is offline when ete.ko binds
# it is bound when the CPU comes online, and traces into /dev/trbe3's
# buffer.
. /tests/bin/guest-lib.sh
o=/sys/devices/system/cpu/cpu3/online
echo 0 >$o || exit 1
unload_tree ete
insmod $m/ete.ko && insmod $m/trbe.ko && insmod $m/ete_model.ko || { echo 1 >$o; exit 1; }
ls /sys/class/ete
if [ -e /sys/class/ete/ete3 ]; then
	echo "ete3 bound while cpu3 is offline"
	echo 1 >$o
	exit 1
fi
echo 1 >$o || exit 1
# the bind follows the CPU's online callback: wait for it (at most 10 s)
i=0
while [ ! -e /sys/class/ete/ete3 ] && [ $i -lt 10 ]; do
	sleep 1
	i=$((i + 1))
done
ls /sys/class/ete
test -e /sys/class/ete/ete3 || exit 1
exec 3</dev/trbe3 || exit 1
echo 1 >/sys/class/ete/ete3/enable &&
	cat /sys/class/ete/ete3/status &&
	echo 0 >/sys/class/ete/ete3/enable || exit 1
exec 3<&-
dmesg | grep 'cpu3 is offline'
