#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the ACPI tables of the ACPI test boot and pack them as the
# uncompressed cpio that the kernel's initrd table upgrade reads
# (kernel/firmware/acpi/*.aml), to be placed before the initramfs.
#
# Usage: build-tables.sh OUT.cpio [make-madt.py options]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/kernel/firmware/acpi"
iasl -p "$tmp/kernel/firmware/acpi/ssdt-ete" "$here/ssdt-ete.asl" >"$tmp/iasl.log" 2>&1 ||
	{ cat "$tmp/iasl.log" >&2; exit 1; }
rm -f "$tmp/iasl.log"
python3 "$here/make-madt.py" "$tmp/kernel/firmware/acpi/madt-trbe.aml" "$@"
(cd "$tmp" && find kernel | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$out"
