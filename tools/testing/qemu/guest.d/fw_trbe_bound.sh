#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/60-acpi.list: one TRBE device with the per-CPU interrupt the
# firmware gives (under ACPI from the MADT GICC entries, said once per load
# of trbe.ko, not once per CPU: trbe_model_test loads it again), and a
# TRBE found on every CPU.
. /tests/bin/guest-lib.sh
n=$(ncpus)
d=/sys/bus/platform/drivers/trbe/trbe
test -L $d || exit 1
if [ -d /sys/firmware/acpi/tables ]; then
	loads=$(dmesg | grep -c "trbe trbe: TRBE interrupt: IRQ")
	said=$(dmesg | grep -c "trbe: ACPI: TRBE interrupt GSIV 31 on all $n processors")
	echo "trbe.ko probed $loads times, the GSIV said $said times"
	test ! -e $d/of_node && test "$loads" -ge 1 && test "$said" -eq "$loads" ||
		exit 1
else
	grep -q arm,trace-buffer-extension $d/of_node/compatible &&
		! dmesg | grep -q "trbe: ACPI:" || exit 1
fi
grep trbe /proc/interrupts || exit 1
for i in $(seq 0 $((n - 1))); do
	dmesg | grep -q "cpu$i: TRBE, pointer alignment" || { echo "cpu$i: no TRBE"; exit 1; }
done
echo "$n TRBEs"
