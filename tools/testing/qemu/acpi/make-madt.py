#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make the test MADT: QEMU virt's own, with ACPI 6.5 GICC entries.

ACPI 6.5 lengthened the GICC structure (MADT subtable type 0x0B) from 80
bytes to 84: the SPE overflow interrupt (u16 at offset 80, ACPI 6.3) and the
TRBE interrupt (u16 at offset 82). Debian's iasl and the 6.1 kernel's ACPICA
predate the TRBE field, so the table is built here as bytes: each GICC entry
of QEMU's MADT (qemu-virt-madt.hex, dumped from /sys/firmware/acpi/tables/APIC
of this QEMU with -M virt,gic-version=3 -smp 4) gets the two fields, the
table length and checksum are fixed, and the OEM revision is raised so that
the kernel's initrd table upgrade replaces the firmware's MADT.

Usage: make-madt.py OUT.aml [--trbe-gsiv N] [--cpu-gsiv CPU=N]...
"""

import argparse
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
GICC = 0x0B
GICC_LEN_65 = 84
HEADER_LEN = 44  # ACPI header (36) + local interrupt controller address + flags


def load_qemu_madt():
    with open(os.path.join(HERE, "qemu-virt-madt.hex")) as f:
        return bytes.fromhex("".join(f.read().split()))


def build(trbe_gsiv, per_cpu):
    src = load_qemu_madt()
    length = struct.unpack_from("<I", src, 4)[0]
    out = bytearray(src[:HEADER_LEN])
    off = HEADER_LEN
    cpu = 0
    while off < length:
        kind, sublen = src[off], src[off + 1]
        entry = bytearray(src[off:off + sublen])
        if kind == GICC:
            entry = entry[:80].ljust(80, b"\0")
            gsiv = per_cpu.get(cpu, trbe_gsiv)
            entry += struct.pack("<HH", 0, gsiv)  # SPE: none; TRBE GSIV
            entry[1] = GICC_LEN_65
            cpu += 1
        out += entry
        off += sublen
    struct.pack_into("<I", out, 4, len(out))
    out[8] = max(out[8], 6)  # MADT revision of ACPI 6.5
    oem_rev = struct.unpack_from("<I", out, 24)[0]
    struct.pack_into("<I", out, 24, oem_rev + 1)
    out[9] = 0
    out[9] = (-sum(out)) & 0xFF
    return bytes(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--trbe-gsiv", type=int, default=31,
                    help="TRBE interrupt GSIV for every CPU (PPI 15 = 31)")
    ap.add_argument("--cpu-gsiv", action="append", default=[], metavar="CPU=N",
                    help="a different GSIV for one CPU (to test refusal)")
    args = ap.parse_args()
    per_cpu = {int(c): int(n) for c, n in (s.split("=") for s in args.cpu_gsiv)}
    with open(args.out, "wb") as f:
        f.write(build(args.trbe_gsiv, per_cpu))


if __name__ == "__main__":
    main()
