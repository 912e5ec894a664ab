#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: the holder and the MMIO node gone, the drivers
# and the model loaded again: a unit per CPU and the TRBE device.
. /tests/bin/guest-lib.sh
if grep -q '^ete_test_mmio_node ' /proc/modules; then
	rmmod ete_test_mmio_node || exit 1
fi
unload_tree ete &&
	rmmod ete_test_holder &&
	insmod $m/ete.ko &&
	insmod $m/trbe.ko &&
	insmod $m/ete_model.ko &&
	test "$(ls -d /sys/class/ete/ete* | wc -l)" -eq "$(ncpus)" &&
	test -L /sys/bus/platform/drivers/trbe/trbe
