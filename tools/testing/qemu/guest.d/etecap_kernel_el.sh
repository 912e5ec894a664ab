#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# manifest.d/85-etecap.list: etecap -e kernel traces the exception level
# the kernel runs at: EL2 in the EL2/VHE boot, EL1 in the others.  The rig
# says which it booted (ete_rig.boot_el on the command line); the unit's
# kernel_el must say the same, etecap must select that EL alone in el_ns
# and record it in machine.txt.
want=$(sed -n 's/.*ete_rig\.boot_el=\([12]\).*/\1/p' /proc/cmdline)
[ -n "$want" ] || { echo "no ete_rig.boot_el= on the command line"; exit 1; }
got=$(cat /sys/class/ete/ete0/kernel_el) || exit 1
echo "booted at EL$want; ete0/kernel_el: $got"
[ "$got" = "$want" ] || exit 1
out=/out/kernel_el
rm -rf "$out" "$out.old"
etecap -q -c 0 -t 200ms -e kernel --no-kernel --others-max 0 -o "$out"
rc=$?
[ $rc = 0 ] || { echo "etecap -e kernel: exit $rc"; exit 1; }
el=$(cat /sys/class/ete/ete0/el_ns)
echo "el_ns after etecap -e kernel: $el"
[ $((el)) = $((1 << want)) ] || exit 1
grep -x "cpu0_kernel_el=$want" "$out/machine.txt" || {
	echo "machine.txt: $(grep kernel_el "$out/machine.txt")"
	exit 1
}
