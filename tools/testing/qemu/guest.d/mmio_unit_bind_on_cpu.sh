#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: binding and unbinding the memory-mapped unit
# make no access to it from another CPU, and none at all while its CPU is
# offline (issue 32 F4).  The model counts accesses from a CPU other than
# the unit's (mmio_remote in stats) and logs one to a core that is off
# (EXT_POWERED_DOWN).  Unbound and bound with cpu3 online and offline, from
# CPU 0; the node is left bound, as found.
. /tests/bin/guest-lib.sh
s=/sys/kernel/debug/ete_model/cpu3
o=/sys/devices/system/cpu/cpu3/online
remote() {
	sed -n 's/^mmio_remote //p' $s/stats
}
fail() {
	echo "$*"
	echo 1 >$o
	exit 1
}
# wait_for PATH: the bind follows the CPU's online callback (at most 10 s)
wait_for() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 10 ]; do
		sleep 1
		i=$((i + 1))
	done
	test -e "$1"
}
grep -q '^ete_test_mmio_node ' /proc/modules || fail "the MMIO node is not loaded"
echo 0 >$s/violations
a=$(remote)
taskset -c 0 rmmod ete_test_mmio_node || fail "unbind (cpu3 online) failed"
echo "unbound, cpu3 online: mmio_remote $a -> $(remote)"
test -e /sys/class/ete/ete3 && fail "ete3 still there"
echo 0 >$o || fail "cpu3 offline failed"
taskset -c 0 insmod $m/ete_test_mmio_node.ko || fail "bind (cpu3 offline) failed"
echo "bound, cpu3 offline: mmio_remote $(remote)"
test -e /sys/class/ete/ete3 && fail "ete3 bound while cpu3 is offline"
echo 1 >$o || fail "cpu3 online failed"
wait_for /sys/class/ete/ete3 || fail "ete3 not bound when cpu3 came online"
echo "cpu3 online, ete3 bound: mmio_remote $(remote)"
echo 0 >$o || fail "cpu3 offline failed"
taskset -c 0 rmmod ete_test_mmio_node || fail "unbind (cpu3 offline) failed"
echo "unbound, cpu3 offline: mmio_remote $(remote)"
echo 1 >$o || fail "cpu3 online failed"
taskset -c 0 insmod $m/ete_test_mmio_node.ko || fail "bind (cpu3 online) failed"
wait_for /sys/class/ete/ete3 || fail "ete3 not bound"
z=$(remote)
echo "bound again, cpu3 online: mmio_remote $z"
echo "violations:"
cat $s/violations
test -z "$(cat $s/violations)" && test "$a" = "$z"
