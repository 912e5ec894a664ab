#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: with CPU 3's system-register node held, its
# CoreSight ETM node is bound through ete.ko's AMBA driver (the MMIO
# backend).
. /tests/bin/guest-lib.sh
d=/sys/class/ete/ete3/device
insmod $m/ete_model.ko &&
	insmod $m/ete_test_sink.ko &&
	insmod $m/ete_test_mmio_node.ko &&
	readlink -f $d &&
	test "$(basename "$(readlink -f $d/subsystem)")" = amba &&
	test "$(basename "$(readlink -f $d/driver)")" = ete &&
	dmesg | grep 'etm3@f003000: cpu3: ETE revision'
