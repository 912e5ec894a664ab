#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the test kernel in qemu-system-aarch64 under a hard timeout.
#
# Usage: run-vm.sh [-2] [-s SUBSET] [-t SECONDS] IMAGE INITRAMFS OUTDIR
#   -2   boot at EL2 (virtualization=on; the kernel runs with VHE)
#   -s   subset of the manifest to run: all (default) or smoke
#   -t   hard timeout in seconds (default 1200)
# The console goes to OUTDIR/console.log; the VM writes results into OUTDIR
# through virtio-9p.  Exit status: QEMU's, or 124 when the timeout fired.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
el=1 subset=all timeout=1200
while getopts "2s:t:" opt; do
	case $opt in
	2) el=2 ;;
	s) subset=$OPTARG ;;
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
"$here/make-dtb.sh" "$out/virt.dtb" "$machine" "$cpu" "$smp" "$mem"

append="console=ttyAMA0 panic=-1 kunit.enable=1 ete_rig.subset=$subset"
append="$append softlockup_panic=0 rcupdate.rcu_cpu_stall_suppress=0"

set +e
timeout --foreground -k 10 "$timeout" \
	qemu-system-aarch64 -M "$machine" -cpu "$cpu" -smp "$smp" -m "$mem" \
	-nographic -monitor none -serial "file:$out/console.log" \
	-no-reboot -kernel "$image" -initrd "$initrd" -dtb "$out/virt.dtb" \
	-append "$append" \
	-fsdev "local,id=out,path=$out,security_model=none" \
	-device virtio-9p-device,fsdev=out,mount_tag=out \
	</dev/null
rc=$?
set -e
echo "$rc" >"$out/qemu.rc"
exit "$rc"
