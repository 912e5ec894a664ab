#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of issue 17: etecap snapshots as perf.data files that the
# distribution's unmodified perf (Debian's 6.1, with OpenCSD) decodes.
# For every capture the EL1 run's plan made with ete-e2e-case (the
# captures e2e_decode.sh checks) and every CPU in it:
#  - `ete-decode SNAPSHOT --cpu N --to-perf FILE` (tools/ete/perfdata.c)
#    writes the CPU's trace as a perf.data FILE (its code as ELF images
#    in FILE.d/),
#  - `perf script --itrace=i1i -F ip` decodes it with no error or warning
#    and the instructions it reports, one sample per instruction, are the
#    model's ground truth ("R" records expanded, instruction by
#    instruction, in order): equal for an unbroken stream; for a stream
#    with gaps, each segment (written as a perf.data of its own) a run of
#    the truth's instructions, in order, as decoding resumes at the
#    segment's first A-Sync; where the truth has Q elements (counts
#    without a path, after which perf's decoder may give nothing until
#    the next address), each stretch perf gives is such a run.  The
#    summary counts the ranges (runs of consecutive instructions)
#    compared, equal and different.
#    A capture whose truth is in hash mode (the long streams: per-interval
#    hashes, no ranges) is compared so with ete-decode's own decode of
#    it, which e2e_decode.sh finds equal to that truth interval by
#    interval: the largest, gap-heavy streams go through the perf.data
#    writer too, up to 8 MiB or 32 gaps per CPU (a python list of every
#    instruction of a long stream would not fit the host, and each
#    segment between gaps is three perf runs).
# Then, on all_els: the whole snapshot in one file (every CPU's samples,
# by task); `perf report --stdio` attributes every sample to the task the
# VM ran the model's program as (tasks.txt: PID and comm) and to the
# program's functions (symbols.txt), with as many instructions per
# function as the truth, the hottest first; `perf inject --itrace=il64
# --strip` (the AutoFDO input) gives branch stacks whose every branch is
# one the truth took (AutoFDO's create_gcov and create_llvm_prof cannot
# read that file: their perf.data reader predates the hw_idx word perf
# 5.8 put in branch stacks; post.d/autofdo.sh makes the profile from
# ete-decode --to-autofdo instead); and two self-tests that the
# check can fail: the file with TRCIDR2.CIDSIZE corrupted, and with the
# AUX records' raw-format flag cleared, must not pass.
#
# Usage: perf_decode.sh BUILD_DIR RUN...   (RUN: KERNEL/el1, KERNEL/el2...);
# prints TAP.
# The tools' side of a capture, the same whatever kernel made it (e2e_decode
# checks each kernel's capture): check.sh runs this on the last kernel only.
# rig-post: last kernel
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?usage: $0 BUILD_DIR RUN...}
build=$(cd "$build" && pwd) || exit 1
shift
. "$here/lib/tap.sh"
. "$here/lib/perf.sh"
# The EL1 run of the runs given (KERNEL/el1): only it makes the captures.
run=$(el1_run "$build" "$@")
# "CASE:CPUS" of each ete-e2e-case entry of the plan
cases=$(awk -F'\t' '$1 == "sh" && $4 ~ /^ete-e2e-case / {
	split($4, a, " "); print a[2] ":" a[4] }' "$run/plan" 2>/dev/null)
plan=6
for c in $cases; do
	plan=$((plan + $(echo "${c#*:}" | tr , ' ' | wc -w)))
done

command -v perf >/dev/null || skip_all "perf is not installed"
if [ -z "$cases" ]; then
	tap 1 "the EL1 plan ($run/plan) has no ete-e2e-case entry"
	finish
fi
tap_plan "$plan"
tools=$build/host-tools
if ! make -s -C "$top/tools/ete" host OUT="$tools" >"$build/host-tools-perf.log" 2>&1; then
	sed 's/^/# /' "$build/host-tools-perf.log"
fi
if [ ! -x "$tools/ete-decode" ]; then
	for i in $(seq "$plan"); do
		tap 1 "ete-decode (libopencsd) could not be built"
	done
	finish
fi
work=$build/perf-decode
rm -rf "$work"
mkdir -p "$work"
# perf's build-ID cache (~/.debug, filled by perf inject) and config: the
# run's own, so that no file cached by an earlier run stands in for the
# ELF images written here (perf 6.1 takes the cache from $HOME)
export HOME=$work/home
mkdir -p "$HOME"

# The comparison: lib/perf_compare.py (truth file, then one file of
# `perf script -F ip` per segment)

# perf's complaints: perf_errors (lib/perf.sh)

# script FILE OUT: perf script's instruction samples' addresses into OUT;
# 0 with no complaint.  perf 6.1 reports no decode error (it leaves the
# samples out): its packet dump (`perf report -D`) is searched for bad
# packets, from each buffer's first A-Sync on, as e2e_decode.sh does
bad_re='OCSD_ERR|I_RESERVED|I_BAD_SEQUENCE|I_INCOMPLETE_EOT|UNKNOWN|Unknown'
script() {
	perf script -i "$1" --itrace=i1i -F ip >"$2" 2>"$2.err"
	local rc=$?
	perf_errors "$2.err" | head -3 | sed 's/^/# perf: /' | grep . && rc=1
	perf report -D -i "$1" 2>&1 | LC_ALL=C grep -E "PERF_RECORD_AUXTRACE |I_ASYNC|$bad_re" |
		awk -v bad="$bad_re" '/PERF_RECORD_AUXTRACE / { s = 0; next }
			/I_ASYNC/ { s = 1 }
			s && $0 ~ bad && $0 !~ /INCOMPLETE_EOT/' >"$2.bad"
	head -3 "$2.bad" | sed 's/^/# perf -D: /' | grep . && rc=1
	return $rc
}

# segment SNAP CPU START END DIR: DIR becomes SNAP (links) with CPU's
# buffer cut to bytes [START, END) and no gap left
segment() {
	local snap=$1 cpu=$2 start=$3 end=$4 dir=$5 f
	rm -rf "$dir"
	mkdir -p "$dir"
	for f in "$snap"/*; do
		ln -s "$f" "$dir/"
	done
	rm "$dir/trace_cpu$cpu.bin" "$dir/gaps_cpu$cpu.txt"
	: >"$dir/gaps_cpu$cpu.txt"
	dd if="$snap/trace_cpu$cpu.bin" of="$dir/trace_cpu$cpu.bin" bs=65536 \
		iflag=skip_bytes,count_bytes skip="$start" count=$((end - start)) status=none
}

# check_cpu CASE CPU [PERFDATA]: "STATUS DESCRIPTION" (STATUS 0 pass, 1
# fail, 2 skip) then diagnostics; with PERFDATA, that file is decoded
# instead of a conversion (the self-tests)
check_cpu() {
	local name=$1 cpu=$2 given=${3:-} snap=$run/e2e/$1/snapshot out=$work/$1.cpu$2${3:+.given}
	local truth=$run/e2e/$1/truth_cpu$2.txt gaps size start end seg segs summary rc note= cut
	if [ ! -s "$snap/trace_cpu$cpu.bin" ] || [ ! -s "$truth" ]; then
		echo "1 $name cpu$cpu: no capture or no truth"
		return
	fi
	mkdir -p "$out"
	size=$(stat -c %s "$snap/trace_cpu$cpu.bin")
	if grep -q '^H ' "$truth"; then
		# the stream up to 8 MiB or its 32nd gap (each segment is a
		# conversion and two perf runs of its own), its gaps there kept,
		# and ete-decode's ranges of it as the reference
		cut=$(awk -v c=$((8 << 20)) '$1 > 0 && ++n == 32 && $1 < c { c = $1 }
			END { print c }' "$snap/gaps_cpu$cpu.txt" 2>/dev/null)
		if [ "$size" -gt "${cut:=$((8 << 20))}" ]; then
			segment "$snap" "$cpu" 0 "$cut" "$out/head"
			awk -v s="$cut" '$1 < s' "$snap/gaps_cpu$cpu.txt" >"$out/head/gaps_cpu$cpu.txt"
			snap=$out/head
			note=", its first $cut of $size bytes"
			size=$cut
		fi
		truth=$out/reference.txt
		if ! "$tools/ete-decode" "$snap" --cpu "$cpu" >"$out/reference.all" 2>&1; then
			echo "1 $name cpu$cpu: ete-decode failed on the hash-mode capture"
			sed 's/^/# /' "$out/reference.all" | head -3
			return
		fi
		awk '$1 == "R" || $1 == "Q" { print $1, $2, $3, $4, $5 }' "$out/reference.all" >"$truth"
		note="$note; the truth is hashes: against ete-decode's decode"
	fi
	gaps=$(awk -v s="$size" '$1 > 0 && $1 < s {print $1}' "$snap/gaps_cpu$cpu.txt" 2>/dev/null)
	# no gap at all: the decode is the whole truth; a gap at 0 (the
	# buffer wrapped before the drain) leaves a run of it
	if [ -n "$given" ] || [ ! -s "$snap/gaps_cpu$cpu.txt" ]; then
		if [ -z "$given" ]; then
			given=$out/perf.data
			if ! "$tools/ete-decode" "$snap" --cpu "$cpu" --to-perf "$given" \
					>"$out/convert.log" 2>&1; then
				echo "1 $name cpu$cpu: conversion failed"
				sed 's/^/# /' "$out/convert.log"
				return
			fi
		fi
		script "$given" "$out/ip.0" >"$out/script.diag"
		rc=$?
		summary=$(python3 "$here/lib/perf_compare.py" exact "$truth" "$out/ip.0")
		[ $? = 0 ] && [ $rc = 0 ]
		echo "$? $name cpu$cpu: $size bytes; perf script $([ $rc = 0 ] && echo clean || echo COMPLAINED); $summary$note"
		cat "$out/script.diag"
		return
	fi
	# a stream with gaps: the whole (to decode with no complaint) and
	# each segment on its own (to compare)
	rc=0
	"$tools/ete-decode" "$snap" --cpu "$cpu" --to-perf "$out/perf.data" >"$out/convert.log" 2>&1 &&
		script "$out/perf.data" "$out/ip.all" >"$out/script.diag" || rc=1
	start=0
	seg=0
	segs=
	for end in $gaps "$size"; do
		[ "$end" -gt "$start" ] || continue
		if [ -z "$gaps" ]; then	# one segment: the file as it is
			cp "$out/ip.all" "$out/ip.0"
			segs=$out/ip.0
			seg=1
			break
		fi
		segment "$snap" "$cpu" "$start" "$end" "$out/seg$seg"
		if "$tools/ete-decode" "$out/seg$seg" --cpu "$cpu" --to-perf "$out/seg$seg.data" \
				>>"$out/convert.log" 2>&1; then
			script "$out/seg$seg.data" "$out/ip.$seg" >>"$out/script.diag" || rc=1
		else
			rc=1
		fi
		segs="$segs $out/ip.$seg"
		start=$end
		seg=$((seg + 1))
	done
	# the whole file decodes each AUXTRACE buffer on its own: the
	# same instructions as the segments one after the other
	# shellcheck disable=SC2086
	cat $segs | cmp -s - "$out/ip.all" || {
		rc=1
		echo "# the whole stream's decode is not its segments' one after the other" >>"$out/script.diag"
	}
	# shellcheck disable=SC2086
	summary=$(python3 "$here/lib/perf_compare.py" runs "$truth" $segs)
	[ $? = 0 ] && [ $rc = 0 ]
	echo "$? $name cpu$cpu: $size bytes, $(wc -l <"$snap/gaps_cpu$cpu.txt") gaps, $seg segments; perf script $([ $rc = 0 ] && echo clean || echo COMPLAINED); $summary$note"
	cat "$out/script.diag"
	grep -v '^perfdata:' "$out/convert.log" | head -3 | sed 's/^/# /'
}

for c in $cases; do
	for cpu in $(echo "${c#*:}" | tr , ' '); do
		check_cpu "${c%%:*}" "$cpu" >"$work/verdict" 2>&1
		read -r status desc <"$work/verdict"
		if [ "$status" = 2 ]; then
			skip "${desc%% # SKIP *}" "${desc#* # SKIP }"
		else
			tap "$status" "$desc"
		fi
		tail -n +2 "$work/verdict"
	done
done

# The whole all_els snapshot in one file: every CPU's instructions, and
# by task (the context ID each CPU's trace carries) as many as that CPU's
# own file gave.  (perf 6.1 decodes every raw queue with the first CPU's
# metadata, so the samples' CPU is that one's: not checked.)
whole() {
	local snap=$run/e2e/all_els/snapshot out=$work/all_els.whole cpu f ok=0 tids
	mkdir -p "$out"
	if ! "$tools/ete-decode" "$snap" --to-perf "$out/perf.data" >"$out/convert.log" 2>&1 ||
	    ! perf script -i "$out/perf.data" --itrace=i1i -F tid 2>"$out/err" |
		sort | uniq -c | awk '{print $2, $1}' >"$out/by_tid"; then
		tap 1 "all_els, every CPU in one file: no decode"
		sed 's/^/# /' "$out/convert.log" "$out/err" | head -5
		return
	fi
	perf_errors "$out/err" | head -3 | sed 's/^/# perf: /' | grep . && ok=1
	for f in "$work"/all_els.cpu*/ip.0; do
		cpu=${f%/ip.0}
		cpu=${cpu##*.cpu}
		tids=$(perf script -i "$work/all_els.cpu$cpu/perf.data" --itrace=i1i -F tid 2>/dev/null |
			sort | uniq -c | awk '{print $2, $1}')
		grep -qxF "$tids" "$out/by_tid" || {
			ok=1
			echo "# cpu$cpu's own file: $tids; not so in the whole file"
		}
	done
	[ -s "$out/by_tid" ] || ok=1
	tap $ok "all_els, every CPU in one file: samples by task $(tr '\n' ',' <"$out/by_tid" | sed 's/,$//') (tid count), as each CPU's own file"
}
whole

# etecap --perf-data (the all_els case): the file etecap wrote in the VM,
# its ELF images added to perf's build-ID cache as a user who copied it
# would (perf buildid-cache -a), decodes to the same tasks and
# instructions as the host's conversion of the same snapshot
etecap_file() {
	local f=$run/e2e/all_els/etecap.perf.data out=$work/all_els.etecap e ok=0
	mkdir -p "$out"
	if [ ! -s "$f" ] || [ ! -s "$work/all_els.whole/perf.data" ]; then
		tap 1 "etecap --perf-data: no file from the VM ($f) or no host conversion"
		return
	fi
	for e in "$f.d"/*; do
		perf buildid-cache -a "$e" 2>>"$out/err" || ok=1
	done
	perf script -i "$f" --itrace=i1i -F tid,ip >"$out/vm" 2>>"$out/err" || ok=1
	perf script -i "$work/all_els.whole/perf.data" --itrace=i1i -F tid,ip \
		>"$out/host" 2>/dev/null
	[ -s "$out/vm" ] && cmp -s "$out/vm" "$out/host" || ok=1
	perf_errors "$out/err" | head -3 | sed 's/^/# perf: /' | grep . && ok=1
	tap $ok "etecap --perf-data in the VM, read here after perf buildid-cache -a: $(wc -l <"$out/vm") instructions by task, the host conversion's $(wc -l <"$out/host")"
}
etecap_file

# perf report --stdio of all_els cpu0, against what the VM recorded: every
# sample is the program's task (tasks.txt: the PID the case gave the
# model's context ID; its comm as etecap's contexts.txt names it) in a
# function of the program (symbols.txt, from the model's program/symbols);
# instructions per function equal the truth's, and the function perf
# reports first (the hottest) is the truth's
cat >"$work/by_sym.py" <<'EOF'
import bisect, sys

truth, symfile, perf = sys.argv[1:4]
syms = sorted((int(v, 16), int(n), name) for v, n, name in
              (l.split() for l in open(symfile) if l.strip()))
starts = [s[0] for s in syms]


def sym_of(a):
    i = bisect.bisect_right(starts, a) - 1
    if i >= 0 and a < syms[i][0] + syms[i][1]:
        return syms[i][2]
    return '[unknown]'


want = {}
for line in open(truth):
    f = line.split()
    if f and f[0] == 'R':
        s, k = int(f[2], 16), int(f[4])
        for i in range(k):
            n = sym_of(s + 4 * i)
            want[n] = want.get(n, 0) + 1
got = {}
for line in open(perf):
    f = line.split()
    if len(f) == 2:
        got[f[1]] = int(f[0])
hot = max(want, key=want.get) if want else None
print("truth hottest %s; per function (truth/perf): %s" % (hot, ", ".join(
    "%s %d/%d" % (k, want.get(k, 0), got.get(k, 0))
    for k in sorted(set(want) | set(got), key=lambda k: -want.get(k, 0)))))
sys.exit(0 if want and want == got else 1)
EOF
report() {
	local d=$run/e2e/all_els f=$work/all_els.cpu0/perf.data out=$work/all_els.cpu0/report
	local want_tid want_comm tid comm top hot ok=0
	if [ ! -s "$f" ] || [ ! -s "$d/tasks.txt" ] || [ ! -s "$d/snapshot/symbols.txt" ]; then
		tap 1 "perf report: all_els cpu0 not converted, or no tasks.txt or symbols.txt from the VM"
		return
	fi
	read -r _ want_tid want_comm < <(awk '$1 == 0' "$d/tasks.txt")
	perf report -i "$f" --stdio --itrace=i1i --sort pid,comm,sym >"$out" 2>"$out.err"
	tid=$(perf script -i "$f" --itrace=i1i -F tid 2>/dev/null | tr -d ' ' | sort -u)
	comm=$(perf script -i "$f" --itrace=i1i -F comm 2>/dev/null | sort -u | tr -d ' ')
	sed -n '/^# Overhead/,$p' "$out" | grep -v '^#' | grep . | head -8 | sed 's/^/# /'
	[ "$tid" = "$want_tid" ] && [ "$comm" = "$want_comm" ] || ok=1
	grep -v '^#' "$out" | grep '%' | grep -q '\[unknown\]' && ok=1
	perf_errors "$out.err" | head -3 | sed 's/^/# perf: /' | grep . && ok=1
	perf script -i "$f" --itrace=i1i -F ip,sym 2>/dev/null | awk '{print $2}' |
		sort | uniq -c >"$out.syms"
	hot=$(python3 "$work/by_sym.py" "$d/truth_cpu0.txt" "$d/snapshot/symbols.txt" "$out.syms") || ok=1
	top=$(grep -v '^#' "$out" | grep '%' | head -1 | awk '{print $NF}')
	case $hot in "truth hottest $top;"*) ;; *) ok=1 ;; esac
	tap $ok "perf report: all_els cpu0 is task $tid ($comm; the VM's: $want_tid $want_comm), first line $top; $hot"
}
report

# The AutoFDO chain: perf inject --itrace=il64 --strip turns the trace into
# samples carrying last-branch stacks (the form AutoFDO takes from perf);
# every branch of those stacks must be a transition the truth has
# (the last instruction of one executed range to the first of the next)
cat >"$work/brstack.py" <<'EOF'
import sys

truth, brs = sys.argv[1:3]
ranges = []
for line in open(truth):
    f = line.split()
    if f and f[0] == 'R':
        ranges.append((int(f[2], 16), int(f[3], 16)))
    elif f and f[0] in ('G', 'Q'):
        ranges.append(None)
edges = set()
for a, b in zip(ranges, ranges[1:]):
    if a and b and a[1] != b[0]:
        edges.add((a[1] - 4, b[0]))
seen, bad, first = {}, 0, None
for line in open(brs):
    for tok in line.split():
        p = tok.split('/')
        if len(p) < 2 or not p[0].startswith('0x'):
            continue
        e = (int(p[0], 16), int(p[1], 16))
        seen[e] = seen.get(e, 0) + 1
        if e not in edges:
            bad += 1
            first = first or "0x%x => 0x%x" % e
n = sum(seen.values())
print("%d branches in the stacks, %d distinct, %d of the truth's %d transitions; not in the truth: %d%s" % (
    n, len(seen), len(set(seen) & edges), len(edges), bad, " (first %s)" % first if first else ""))
sys.exit(0 if n and not bad else 1)
EOF
inject() {
	local d=$run/e2e/all_els f=$work/all_els.cpu0/perf.data out=$work/all_els.cpu0 msg ok=0
	if ! perf inject -i "$f" --itrace=i1000il64 --strip -o "$out/inject.data" 2>"$out/inject.err"; then
		tap 1 "perf inject --itrace=i1000il64 --strip: failed" "$(head -3 "$out/inject.err")"
		return
	fi
	perf script -i "$out/inject.data" -F brstack >"$out/brstack" 2>"$out/brstack.err" || ok=1
	msg=$(python3 "$work/brstack.py" "$d/truth_cpu0.txt" "$out/brstack") || ok=1
	tap $ok "perf inject --itrace=i1000il64 --strip, perf script -F brstack: $msg"
}
inject

# corrupt WHAT PYTHON: all_els cpu0's perf.data patched by PYTHON (bytes
# in b) must fail the check the cases pass
corrupt() {
	local f=$work/all_els.cpu0/perf.data bad=$work/corrupt.data status desc
	if [ ! -s "$f" ]; then
		tap 1 "self-test: $1 is rejected (no file)"
		return
	fi
	python3 - "$f" "$bad" <<EOF
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
$2
open(sys.argv[2], 'wb').write(b)
EOF
	check_cpu all_els 0 "$bad" >"$work/verdict" 2>&1
	read -r status desc <"$work/verdict"
	[ "$status" = 1 ]
	tap $? "self-test: $1 is rejected: ${desc#all_els cpu0: }"
	tail -n +2 "$work/verdict" | head -3
}
# the ETE block follows the magic: CPU, count, TRCCONFIGR, TRCTRACEIDR,
# TRCIDR0, TRCIDR1, TRCIDR2 (CIDSIZE, bits [9:5]: the Context packets'
# size)
corrupt "the perf.data with TRCIDR2.CIDSIZE 0" '
at = b.find(struct.pack("<Q", 0x5050505050505050)) + 7 * 8
v = struct.unpack_from("<Q", b, at)[0]
struct.pack_into("<Q", b, at, v & ~(0x1f << 5))'
# PERF_RECORD_AUX (type 11): flags after offset and size
corrupt "the perf.data with the AUX record's raw-format flag cleared" '
at = 0
while True:
    at = b.find(struct.pack("<IH", 11, 0), at)
    if at < 0:
        sys.exit("no AUX record")
    if at % 8 == 0 and struct.unpack_from("<H", b, at + 6)[0] == 0x38:
        break
    at += 1
struct.pack_into("<Q", b, at + 24, struct.unpack_from("<Q", b, at + 24)[0] & ~0x100)'
