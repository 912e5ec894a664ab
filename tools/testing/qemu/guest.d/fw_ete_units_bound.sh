#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/60-acpi.list: one trace unit per CPU, bound to ete.ko through
# its firmware node: under ACPI an ARMHC500 device whose parent processor
# (ACPI0007) has the CPU's _UID; under devicetree an
# arm,embedded-trace-extension node.
. /tests/bin/guest-lib.sh
n=$(ncpus)
for i in $(seq 0 $((n - 1))); do
	d=/sys/class/ete/ete$i/device
	test "$(basename "$(readlink -f $d/driver)")" = ete ||
		{ echo "ete$i: not bound to ete"; exit 1; }
	if [ -d /sys/firmware/acpi/tables ]; then
		fw=$(readlink -f $d/firmware_node)
		echo "ete$i: $fw"
		case $fw in
		*/ACPI0007:*/ARMHC500:*) ;;
		*) exit 1 ;;
		esac
		test "$(cat $fw/../uid)" = "$i" || exit 1
	else
		echo "ete$i: $(readlink -f $d/of_node)"
		grep -q arm,embedded-trace-extension $d/of_node/compatible || exit 1
	fi
done
