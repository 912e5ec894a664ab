#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One end-to-end capture in the VM (manifest.d/80-e2e.list): configure the
# trace units through /sys/class/ete/, capture with trbe-capture, and leave
# in /out/e2e/NAME/ what the host needs to decode and check it
# (post.d/e2e_decode.sh): trace_cpuN.bin, gaps_cpuN.txt, ETE_N.ini (the
# unit's registers read back from sysfs), truth_cpuN.txt (the model's
# ground truth); the model's program image goes to /out/e2e/program/.
#
# Usage: ete-e2e-case NAME MILLISECONDS CPU[,CPU...] [KEY=VALUE]...
#   KEY is a file under /sys/class/ete/eteN/ (el_ns, addr0/value, ...),
#   trbe.FILE under /sys/class/trbe/trbeN/, or model.FILE under the
#   model's debugfs cpuN/ (rate, truth_mode).  trbe.* and model.* are
#   restored afterwards; the trace units are reset.
set -eu

name=$1 ms=$2 cpus=$(echo "$3" | tr , ' ')
shift 3
out=/out/e2e/$name
dbg=/sys/kernel/debug/ete_model
mkdir -p "$out" /out/e2e/program
cp "$dbg/program/layout" /out/e2e/program/layout
cp "$dbg"/program/*.bin /out/e2e/program/

path() { # KEY CPU: the file KEY names for that CPU
	case $1 in
	trbe.*) echo "/sys/class/trbe/trbe$2/${1#trbe.}" ;;
	model.*) echo "$dbg/cpu$2/${1#model.}" ;;
	*) echo "/sys/class/ete/ete$2/$1" ;;
	esac
}

restore=
for n in $cpus; do
	echo 1 >"/sys/class/ete/ete$n/reset"
	for kv in "$@"; do
		k=${kv%%=*} f=$(path "${kv%%=*}" "$n")
		case $k in
		trbe.* | model.*) restore="$restore $(cat "$f")@$f" ;;
		esac
		echo "${kv#*=}" >"$f"
	done
done

trbe-capture -c "$(echo $cpus | tr ' ' ,)" -t "$ms" -o "$out"

for n in $cpus; do
	u=/sys/class/ete/ete$n
	cat "$dbg/cpu$n/truth" >"$out/truth_cpu$n.txt"
	{
		printf '[device]\nname=ETE_%s\nclass=trace_source\ntype=ETE\n\n[regs]\n' "$n"
		for i in 0 1 2 3 4 5 8 9 10 11 12 13; do
			echo "TRCIDR$i=$(cat "$u/trcidr/trcidr$i")"
		done
		echo "TRCCONFIGR=$(cat "$u/mgmt/trcconfig")"
		echo "TRCTRACEIDR=$(cat "$u/mgmt/trctraceid")"
		echo "TRCDEVARCH=$(cat "$u/mgmt/trcdevarch")"
	} >"$out/ETE_$n.ini"
	echo "cpu$n: $(wc -c <"$out/trace_cpu$n.bin") bytes," \
		"$(grep -c '^[RH]' "$out/truth_cpu$n.txt") truth records," \
		"$(grep -c '^A' "$out/truth_cpu$n.txt") A-Syncs," \
		"$(wc -l <"$out/gaps_cpu$n.txt") gaps, TRCCONFIGR $(cat "$u/mgmt/trcconfig")"
	echo 1 >"$u/reset"
done
for r in $restore; do
	echo "${r%%@*}" >"${r#*@}"
done
cat "$dbg"/cpu*/violations
