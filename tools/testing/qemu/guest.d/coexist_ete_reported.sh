#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: ete.ko says once that the last CPU's trace
# unit is another driver's.
. /tests/bin/guest-lib.sh
n=$(($(ncpus) - 1))
dmesg | grep 'is bound to the'
test "$(dmesg | grep -c "cpu$n's trace unit is bound to the \"ete_test_holder\" driver, not ete")" -eq 1 &&
	test "$(dmesg | grep -c 'trace unit is bound to the')" -eq 1
