#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write an OpenCSD snapshot directory for one ETE trace stream, the input of
# trc_pkt_lister -ss_dir.
#
# Usage: ocsd-snapshot.sh DIR TRACE.bin ETE.ini N
#   ETE.ini is the trace unit's [device] file (name=ETE_<N>, type=ETE, and its
#   TRCIDRx/TRCCONFIGR/TRCTRACEIDR/TRCDEVARCH registers); N numbers the CPU.
set -euo pipefail

dir=${1:?} bin=${2:?} ini=${3:?} n=${4:?}
rm -rf "$dir"
mkdir -p "$dir"
cp "$bin" "$dir/trace.bin"
cp "$ini" "$dir/ETE_$n.ini"
printf '[snapshot]\nversion=1.0\ndescription=ETE trace of cpu%s\n\n[device_list]\ndevice0=cpu_%s.ini\ndevice1=ETE_%s.ini\n\n[trace]\nmetadata=trace.ini\n' \
	"$n" "$n" "$n" >"$dir/snapshot.ini"
printf '[device]\nname=cpu_%s\nclass=core\ntype=ARM-AA64\n\n[regs]\nPC(size:64)=0x0\n' \
	"$n" >"$dir/cpu_$n.ini"
printf '[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_0\nfile=trace.bin\nformat=source_data\n\n[source_buffers]\nETE_%s=ETB_0\n\n[core_trace_sources]\ncpu_%s=ETE_%s\n' \
	"$n" "$n" "$n" >"$dir/trace.ini"
