#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One end-to-end capture in the VM (manifest.d/80-e2e.list): etecap
# configures the trace units and the TRBEs from its options, drains the
# buffers and writes an OpenCSD snapshot to /out/e2e/NAME/snapshot/, as a
# user would run it; beside it the model's ground truth of the same session
# (truth_cpuN.txt).  The host decodes the snapshot as etecap wrote it and
# compares (post.d/e2e_decode.sh).  The model's program image goes into the
# snapshot through --mem, and to /out/e2e/program/ for the host's record.
# Beside the snapshot: the model's register file after the session
# (model_regs_cpuN.txt, what reached each unit, which the host checks
# against the registers etecap recorded in ETE_N.ini and against the
# options) and its violation log (violations.txt, emptied before the
# capture): the case fails if the driver broke a rule of the model's.
#
# Usage: ete-e2e-case NAME MILLISECONDS CPU[,CPU...] [model.KEY=VALUE]...
#		[min_bytes=N] [-- ETECAP_OPTION...]
#   model.KEY=VALUE writes VALUE to the model's debugfs cpuN/KEY for each
#   CPU (rate, truth_mode), restored afterwards.  MILLISECONDS is etecap's
#   --duration.  With min_bytes=N etecap runs until the model has written
#   N more bytes of trace into every CPU's TRBE (its stats' bytes_out),
#   MILLISECONDS only bounding it: a streaming capture of a known size.
set -eu

dbg=/sys/kernel/debug/ete_model
# bytes_out CPU: what the model has written into that CPU's TRBE so far
bytes_out() {
	sed -n 's/^bytes_out //p' "$dbg/cpu$1/stats"
}

# reached "CPU:BYTES...": whether every CPU's model has written its BYTES
reached() {
	for w in $1; do
		[ "$(bytes_out "${w%%:*}")" -ge "${w#*:}" ] || return 1
	done
}

name=$1 ms=$2 cpulist=$3
shift 3
cpus=$(echo "$cpulist" | tr , ' ')
out=/out/e2e/$name
prog=$dbg/program
mkdir -p "$out" /out/e2e/program
cp "$prog/layout" /out/e2e/program/layout
cp "$prog"/*.bin "$prog/symbols" /out/e2e/program/

restore= min_bytes=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	model.*=*) ;;
	min_bytes=*) min_bytes=${1#*=}; shift; continue ;;
	*) echo "ete-e2e-case: '$1' is not model.KEY=VALUE" >&2; exit 2 ;;
	esac
	k=${1%%=*}
	for n in $cpus; do
		f=$dbg/cpu$n/${k#model.}
		restore="$restore $(cat "$f")@$f"
		echo "${1#*=}" >"$f"
	done
	shift
done
[ $# -gt 0 ] && shift

mem=$(awk -v p="$prog" '{printf "--mem %s/%s.bin@%s ", p, $1, $2}' "$prog/layout")

# The program runs as a task of its own on each CPU: a sleeping process
# named ete_prog_cpuN whose PID the model's context ID packets carry, so
# that etecap's contexts.txt (tasks alive at the stop) names it
tasks=
: >"$out/tasks.txt"
for n in $cpus; do
	# a subshell names itself (no exec after that to rename it)
	(echo "ete_prog_cpu$n" >/proc/self/comm; while :; do sleep 1; done) &
	t=$!
	restore="$restore $(cat "$dbg/cpu$n/context_id")@$dbg/cpu$n/context_id"
	echo "$t" >"$dbg/cpu$n/context_id"
	echo "$n $t ete_prog_cpu$n" >>"$out/tasks.txt"
	tasks="$tasks $t"
done
rc=0
# The violation log from here on: a write empties it
for v in "$dbg"/cpu*/violations; do
	echo >"$v"
done
# The trace is the model's program (--mem): the code of the other tasks
# alive at the stop, which a capture without a command saves, is left out.
if [ -n "$min_bytes" ]; then
	want=
	for n in $cpus; do
		want="$want $n:$(($(bytes_out "$n") + min_bytes))"
	done
	# etecap runs without a command and this shell ends it with SIGTERM
	# (a clean stop: the snapshot is written) once the model has written
	# enough.  Not as etecap's traced command: under this trace rate a
	# ptrace-followed waiter on 6.12 was left in its tracing stop and the
	# capture ran to its full duration.
	# shellcheck disable=SC2086 # $mem is a list of options
	etecap -c "$cpulist" -t "$ms" -o "$out/snapshot" --no-kernel --progress 10000 \
		--others-max 0 $mem "$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && ! reached "$want"; do
		sleep 1
	done
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" || rc=$?
	reached "$want" || { echo "ete-e2e-case: the model wrote less than $min_bytes bytes on some CPU"; rc=1; }
else
	# shellcheck disable=SC2086
	etecap -q -c "$cpulist" -t "$ms" -o "$out/snapshot" --no-kernel --others-max 0 \
		$mem "$@" || rc=$?
fi

# What reached each unit: the model's registers, before anything else
# touches the unit
for n in $cpus; do
	cat "$dbg/cpu$n/regs" >"$out/model_regs_cpu$n.txt"
done
# shellcheck disable=SC2086 # a list of PIDs
kill $tasks 2>/dev/null || true
# The program's functions, as a symbol table beside its images would give
[ -d "$out/snapshot" ] && cp "$prog/symbols" "$out/snapshot/symbols.txt"

for n in $cpus; do
	cat "$dbg/cpu$n/truth" >"$out/truth_cpu$n.txt"
	echo "cpu$n: $(wc -c <"$out/snapshot/trace_cpu$n.bin") bytes," \
		"$(grep -c '^[RHQ]' "$out/truth_cpu$n.txt") truth records," \
		"$(grep -c '^A' "$out/truth_cpu$n.txt") A-Syncs," \
		"$(wc -l <"$out/snapshot/gaps_cpu$n.txt") gaps," \
		"TRCCONFIGR $(sed -n 's/^TRCCONFIGR=//p' "$out/snapshot/ETE_$n.ini")"
	echo 1 >"/sys/class/ete/ete$n/reset"
done
for r in $restore; do
	echo "${r%%@*}" >"${r#*@}"
done
: >"$out/violations.txt"
for v in "$dbg"/cpu*/violations; do
	c=${v%/violations}
	sed "s/^/${c##*/}: /" "$v" >>"$out/violations.txt"
done
echo "etecap exit $rc"
if [ -s "$out/violations.txt" ]; then
	echo "ete-e2e-case: the model logged violations during the capture:"
	cat "$out/violations.txt"
	rc=1
fi
exit $rc
