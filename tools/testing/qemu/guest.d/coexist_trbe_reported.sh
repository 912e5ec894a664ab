#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: trbe.ko says once that the devicetree TRBE
# node is another driver's, and binds nothing; under ACPI it makes its own
# device, which nothing else holds.
d=/sys/bus/platform/drivers/trbe/trbe
if [ -d /sys/firmware/acpi/tables ]; then
	echo "ACPI: trbe.ko makes its own device, which nothing else holds"
	test -L $d && ! dmesg | grep -q 'TRBE is bound to the'
else
	test "$(dmesg | grep -c "every CPU's TRBE is bound to the \"ete_test_holder\" driver, not trbe")" -eq 1 &&
		test ! -e $d
fi
