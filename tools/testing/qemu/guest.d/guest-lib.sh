# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What the VM's entry scripts (guest.d/*.sh, installed in /tests/bin)
# share; sourced, busybox sh.

# The modules of the initramfs (build-initramfs.sh)
m=/lib/modules/ete

# unload_tree MODULE: unload MODULE after every module that holds it,
# saying which
unload_tree() {
	for h in /sys/module/$1/holders/*; do
		[ -e "$h" ] && unload_tree "${h##*/}"
	done
	rmmod "$1" && echo "unloaded $1"
}

# ncpus: the number of CPUs the kernel sees
ncpus() {
	grep -c ^processor /proc/cpuinfo
}

# prgctlr_en: TRCPRGCTLR.EN of CPU 3's unit as the test sink's register
# file shows it (0 or 1)
prgctlr_en() {
	echo $(($(grep '^TRCPRGCTLR ' /sys/kernel/debug/ete_test_sink/regs3 | cut -d' ' -f2)))
}
