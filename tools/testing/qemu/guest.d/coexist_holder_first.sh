#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/90-coexist.list: ete.ko unloaded with every module using it,
# ete_test_holder loaded in the place of the CoreSight drivers (the last
# CPU's unit and the TRBE node), then ete.ko and trbe.ko again.
. /tests/bin/guest-lib.sh
unload_tree ete &&
	insmod $m/ete_test_holder.ko trbe=1 &&
	insmod $m/ete.ko &&
	insmod $m/trbe.ko
