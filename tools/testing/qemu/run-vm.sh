#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the test kernel in qemu-system-aarch64 under a hard timeout.
#
# Usage: run-vm.sh [-2] [-a] [-s SUBSET] [-v VOLUME] [-t SECONDS] IMAGE INITRAMFS OUTDIR
#   -2   boot at EL2 (virtualization=on; the kernel runs with VHE)
#   -a   boot through UEFI firmware with ACPI tables instead of a devicetree
#   -s   subset of the manifest to run: all (default) or smoke
#   -v   which size of the whole-suite entries to run: full (default) or quick
#   -t   hard timeout in seconds (default 1200)
# The console goes to OUTDIR/console.log; the VM writes results into OUTDIR
# through virtio-9p.  Exit status: QEMU's, or 124 when the timeout fired.
#   RIG_ENTRY_TIMEOUT=SECONDS  the time limit of each plan entry in the VM
#                    (init; default 900)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
el=1 subset=all volume=full timeout=1200 acpi=0
while getopts "2as:v:t:" opt; do
	case $opt in
	2) el=2 ;;
	a) acpi=1 ;;
	s) subset=$OPTARG ;;
	v) volume=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
image=${1:?} initrd=${2:?} out=${3:?}

machine=virt,gic-version=3
[ "$el" = 2 ] && machine=$machine,virtualization=on
# pauth-impdef: QARMA pointer authentication is very slow under TCG.
cpu=max,pauth-impdef=on
smp=4 mem=2G

mkdir -p "$out"
# loglevel=4: the console prints errors and worse only; init streams the
# whole log to OUTDIR/kmsg, and rig_results.py searches both.  On 6.1 a
# warning printed from hard IRQ context (the kernel's own "hrtimer:
# interrupt took" under TCG) reaches pl011's console driver, whose
# spinlock_t is an invalid wait context there for PROVE_RAW_LOCK_NESTING:
# a false report that also turns lockdep off for the rest of the run.
# 6.12 annotates the legacy console path; 6.1 does not (compat.rst).
# ete_rig.boot_el: the EL the kernel was booted at, for the tests that
# check what the driver says of it (guest.d/etecap_kernel_el.sh)
append="console=ttyAMA0 loglevel=4 panic=-1 kunit.enable=1 ete_rig.subset=$subset ete_rig.volume=$volume ete_rig.boot_el=$el"
[ -n "${RIG_ENTRY_TIMEOUT:-}" ] && append="$append ete_rig.entry_timeout=$RIG_ENTRY_TIMEOUT"
if [ "$acpi" = 1 ]; then
	# Debian's AAVMF (EDK2) images are already padded to the 64 MiB pflash.
	cp /usr/share/AAVMF/AAVMF_VARS.fd "$out/efivars.fd"
	firmware=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/AAVMF/AAVMF_CODE.fd"
		-drive "if=pflash,format=raw,unit=1,file=$out/efivars.fd")
	append="$append acpi=force"
else
	"$here/make-dtb.sh" "$out/virt.dtb" "$machine" "$cpu" "$smp" "$mem"
	firmware=(-dtb "$out/virt.dtb")
fi

# Under TCG a vCPU can be starved by the host for tens of seconds (4 vCPUs
# on 2 cores, other VMs running), and kmemleak's scan walks its object list
# under RCU with lockdep and KASAN on: with the default 20 s soft-lockup and
# 21 s RCU-stall thresholds that alone was reported as a lockup.  A real
# lockup or stall still trips these (90 s), and a hang still hits the hard
# timeout.
append="$append watchdog_thresh=45 rcupdate.rcu_cpu_stall_timeout=90"

# RIG_QEMU_EXTRA: more QEMU options, for debugging a run (e.g. a monitor
# socket: "-monitor unix:/tmp/rig-mon.sock,server,nowait" replaces none).
extra=()
monitor=(-monitor none)
if [ -n "${RIG_QEMU_EXTRA:-}" ]; then
	read -r -a extra <<<"$RIG_QEMU_EXTRA"
	monitor=()
fi

set +e
timeout --foreground -k 10 "$timeout" \
	qemu-system-aarch64 -M "$machine" -cpu "$cpu" -smp "$smp" -m "$mem" \
	-nographic "${monitor[@]}" -serial "file:$out/console.log" \
	-no-reboot -kernel "$image" -initrd "$initrd" "${firmware[@]}" \
	-append "$append" \
	-fsdev "local,id=out,path=$out,security_model=none" \
	-device virtio-9p-device,fsdev=out,mount_tag=out "${extra[@]}" \
	</dev/null
rc=$?
set -e
echo "$rc" >"$out/qemu.rc"
exit "$rc"
