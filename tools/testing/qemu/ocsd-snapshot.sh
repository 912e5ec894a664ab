#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write an OpenCSD snapshot directory for one ETE trace stream, the input of
# trc_pkt_lister -ss_dir (and of tools/ete/ete-decode).
#
# Usage: ocsd-snapshot.sh DIR TRACE.bin ETE.ini N [MEM.bin@0xVA]...
#   ETE.ini is the trace unit's [device] file (name=ETE_<N>, type=ETE, and its
#   TRCIDRx/TRCCONFIGR/TRCTRACEIDR/TRCDEVARCH registers); N numbers the CPU.
#   Each MEM.bin@0xVA is a memory image the decoder reads instructions from,
#   listed as a [dump] of the core device cpu_N.
set -euo pipefail

dir=${1:?} bin=${2:?} ini=${3:?} n=${4:?}
shift 4
rm -rf "$dir"
mkdir -p "$dir"
cp "$bin" "$dir/trace_cpu$n.bin"
cp "$ini" "$dir/ETE_$n.ini"
printf '[snapshot]\nversion=1.0\ndescription=ETE trace of cpu%s\n\n[device_list]\ndevice0=cpu_%s.ini\ndevice1=ETE_%s.ini\n\n[trace]\nmetadata=trace.ini\n' \
	"$n" "$n" "$n" >"$dir/snapshot.ini"
printf '[device]\nname=cpu_%s\nclass=core\ntype=ARM-AA64\n\n[regs]\nPC(size:64)=0x0\n' \
	"$n" >"$dir/cpu_$n.ini"
k=0
for mem in "$@"; do
	file=${mem%@*} va=${mem##*@}
	cp "$file" "$dir/mem$k.bin"
	printf '\n[dump%s]\nfile=mem%s.bin\naddress=%s\nlength=0x%x\n' \
		"$k" "$k" "$va" "$(stat -c %s "$file")" >>"$dir/cpu_$n.ini"
	k=$((k + 1))
done
printf '[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_%s\nfile=trace_cpu%s.bin\nformat=source_data\n\n[source_buffers]\nETE_%s=ETB_%s\n\n[core_trace_sources]\ncpu_%s=ETE_%s\n' \
	"$n" "$n" "$n" "$n" "$n" "$n" >"$dir/trace.ini"
