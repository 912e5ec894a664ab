#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue 30: the perf.data ete-decode writes, read by the perf of every
# Debian release a user of this driver has: Debian 12's (6.1), Debian
# 13's (6.12) and the newest Debian ships (trixie-backports' 7.x), each
# run from a root of its own release's packages (lib/perf.sh, perf_root:
# not installed, whatever the host runs).
#
# For the captures of a contiguous CPU set without timestamps (all_els,
# CPUs 0-3) and of a set with holes with timestamps (timestamps, CPUs 1
# and 3: what `etecap -c 1,3`, or -a with a CPU offline, gives), the
# whole snapshot in one file (`ete-decode SNAPSHOT --to-perf FILE`):
#  - perf 6.12 and later: `perf script --itrace=i1i -F cpu,ip` gives each
#    CPU of the capture the instructions of its truth, as its samples
#    (lib/perf_compare.py), no sample on any other CPU, no warning on
#    stderr (lib/perf.sh, perf_errors: "Virtual timestamps are not
#    enabled" is one), and with timestamps a time for every sample, not
#    0, in order on its CPU (-F cpu,time);
#  - perf before 6.12: it decodes every raw (TRBE) queue with the first
#    CPU's metadata (6.1's cs-etm.c, cs_etm__alloc_queue: one decoder,
#    metadata[0]), so its samples all carry that CPU: the whole file has
#    the truths' instructions in all, and each CPU's own file (--cpu N)
#    that CPU's truth, with no warning;
#  - the all_els file read with every path it names gone (the folder it
#    was written in renamed): `perf --buildid-dir FILE.d` finds the code
#    by build ID, every instruction a sample, every sample a function.
# Then four self-tests, that the check fails for the
# reasons it is there: the timestamps file with its AUXTRACE records'
# queue index made the CPU's place in the list (what perfdata.c wrote
# before: perf 6.12 takes the queue for the CPU; on Debian 13's perf),
# with TS_SOURCE 0, and with TIME_CONV's multiplier 0 (every sample time
# 0, as with no TIME_CONV; these two on the newest perf), and the renamed
# folder's file without --buildid-dir.
#
# Usage: perf_versions.sh BUILD_DIR RUN...   (RUN: KERNEL/el1...); TAP.
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
run=$(el1_run "$build" "$@")
captures="all_els timestamps"
work=$build/perf-versions
rm -rf "$work"
mkdir -p "$work"

tools=$build/host-tools
if ! make -s -C "$top/tools/ete" host OUT="$tools" >"$work/host-tools.log" 2>&1 ||
   [ ! -x "$tools/ete-decode" ]; then
	tap 1 "ete-decode (libopencsd) could not be built" "$(cat "$work/host-tools.log")"
	finish
fi

# the perfs: one per distinct version
perfs=()
for which in bookworm trixie newest; do
	if ! p=$(perf_root "$build" "$which" 2>"$work/root-$which.err"); then
		tap 1 "Debian's perf ($which) from the archive" "$(cat "$work/root-$which.err")"
		continue
	fi
	v=$("$p" version 2>/dev/null | awk '{ print $3 }')
	if [ -z "$v" ]; then
		tap 1 "Debian's perf ($which) runs from its root ($p)" "$("$p" version 2>&1 | head -5)"
		continue
	fi
	case " ${perfs[*]} " in *" $v=$which:"*) continue ;; esac
	perfs+=("$v=$which:$p")
done

# cpus_of CASE: its CPUs, from the plan's ete-e2e-case entry
cpus_of() {
	awk -F'\t' -v c="$1" '$1 == "sh" && $4 ~ ("^ete-e2e-case " c " ") {
		split($4, a, " "); print a[4] }' "$run/plan" 2>/dev/null | tr , ' '
}

# old VERSION: perf before 6.12
old() {
	[ "$(printf '%s\n6.12\n' "$1" | sort -V | head -n 1)" != 6.12 ]
}

# check PERF VERSION CASE [FILE]: one case; FILE instead of the conversion
# (the self-tests).  Prints "STATUS DESCRIPTION" and diagnostics.
check() {
	local perf=$1 v=$2 name=$3 given=${4:-} snap=$run/e2e/$3/snapshot cpus
	local out=$work/$3.$2${4:+.given} f cpu ok=0 counts='' sum=0 total summary times ipf
	cpus=$(cpus_of "$name")
	if [ -z "$cpus" ] || [ ! -d "$snap" ]; then
		echo "1 perf $v, $name: no capture ($snap) or no plan entry"
		return
	fi
	mkdir -p "$out"
	export HOME=$out/home
	mkdir -p "$HOME"
	f=${given:-$work/$name.perf.data}
	if [ ! -s "$f" ] && ! "$tools/ete-decode" "$snap" --to-perf "$f" >"$out/convert.log" 2>&1; then
		echo "1 perf $v, $name: the conversion failed"
		sed 's/^/# /' "$out/convert.log" | head -5
		return
	fi
	"$perf" script -i "$f" --itrace=i1i -F cpu,ip >"$out/script" 2>"$out/err" || ok=1
	perf_errors "$out/err" | head -3 | sed 's/^/# perf: /' | grep . && ok=1
	awk -v d="$out" '{ c = $1; gsub(/[^0-9]/, "", c); print $2 > (d "/ip.cpu" (c + 0)) }' "$out/script"
	total=$(wc -l <"$out/script")
	for cpu in $cpus; do
		[ -s "$run/e2e/$name/truth_cpu$cpu.txt" ] || { ok=1; echo "# no truth_cpu$cpu.txt"; continue; }
		sum=$((sum + $(awk '$1 == "R" { n += $5 } END { print n + 0 }' "$run/e2e/$name/truth_cpu$cpu.txt")))
	done
	if old "$v"; then
		# one file per CPU; the whole file's count only
		for cpu in $cpus; do
			"$tools/ete-decode" "$snap" --cpu "$cpu" --to-perf "$out/cpu$cpu.data" \
				>>"$out/convert.log" 2>&1 || ok=1
			"$perf" script -i "$out/cpu$cpu.data" --itrace=i1i -F ip \
				>"$out/own.cpu$cpu" 2>"$out/own.err" || ok=1
			perf_errors "$out/own.err" | head -3 | sed 's/^/# perf: /' | grep . && ok=1
			summary=$(python3 "$here/lib/perf_compare.py" exact \
				"$run/e2e/$name/truth_cpu$cpu.txt" "$out/own.cpu$cpu") || {
				ok=1
				echo "# cpu$cpu: $summary"
			}
			counts="$counts cpu$cpu $(wc -l <"$out/own.cpu$cpu")"
		done
		[ "$total" = "$sum" ] || ok=1
		echo "$ok perf $v, $name: each CPU's own file:$counts instructions, as the truth; the whole file $total in all (truth $sum)"
		return
	fi
	for cpu in $cpus; do
		touch "$out/ip.cpu$cpu"
		summary=$(python3 "$here/lib/perf_compare.py" exact \
			"$run/e2e/$name/truth_cpu$cpu.txt" "$out/ip.cpu$cpu") || {
			ok=1
			echo "# cpu$cpu: $summary"
		}
		counts="$counts cpu$cpu $(wc -l <"$out/ip.cpu$cpu")"
	done
	for ipf in "$out"/ip.cpu*; do
		[ -e "$ipf" ] || continue
		case " $cpus " in *" ${ipf##*ip.cpu} "*) continue ;; esac
		ok=1
		echo "# $(wc -l <"$ipf") samples on cpu${ipf##*ip.cpu}, which the capture does not have"
	done
	# with timestamps: every sample has a time, not 0, none earlier than
	# the one before it on its CPU (TIME_CONV, the virtual counter)
	if [ "$name" = timestamps ]; then
		"$perf" script -i "$f" --itrace=i1i -F cpu,time >"$out/times" 2>>"$out/err" || ok=1
		times=$(awk '{ c = $1; t = $2; sub(/:$/, "", t); t += 0
			if (t <= 0) bad++; else if (t < last[c]) back++
			last[c] = t; n++ }
			END { printf "%d times, %d of them 0, %d earlier than the one before", n, bad, back
			      exit !(n && !bad && !back) }' "$out/times") || ok=1
		counts="$counts; $times"
	fi
	echo "$ok perf $v, $name ($(echo "$cpus" | tr ' ' ,)) in one file, samples per CPU:$counts, as the truth; $total in all (truth $sum)"
}

# verdict: check()'s output in $work/verdict (diagnostics as they came,
# "#" lines, and one status line) as a case, its diagnostics after it
verdict() {
	local status desc
	read -r status desc < <(grep -v '^#' "$work/verdict")
	tap "${status:-1}" "${desc:-no verdict}" "$(grep '^#' "$work/verdict")"
}

# Elsewhere: all_els converted in one folder, then the folder renamed, so
# that no path the file names exists (as on another host, or for the
# file etecap --perf-data wrote in the VM, of /out/...): perf
# --buildid-dir FILE.d finds the code by build ID (perfdata-elf.c writes
# FILE.d/.build-id/), every instruction of the truth has a sample and
# every sample a function of the program or of the kernel image.
# BUILDID_DIR empty: without --buildid-dir (the self-test).
elsewhere_setup() {
	rm -rf "$work/here" "$work/elsewhere"
	mkdir -p "$work/here"
	"$tools/ete-decode" "$run/e2e/all_els/snapshot" --to-perf "$work/here/x.data" \
		>"$work/here.log" 2>&1 && mv "$work/here" "$work/elsewhere"
}
elsewhere() {
	local perf=$1 v=$2 bdir=$3 out=$work/elsewhere.$2${3:-.none} sum=0 cpu n unknown ok=0
	local opt=()
	[ -n "$bdir" ] && opt=(--buildid-dir "$bdir")
	mkdir -p "$out/home"
	if [ ! -s "$work/elsewhere/x.data" ]; then
		echo "1 perf $v, all_els elsewhere: the conversion failed"
		sed 's/^/# /' "$work/here.log" | head -5
		return
	fi
	for cpu in $(cpus_of all_els); do
		sum=$((sum + $(awk '$1 == "R" { n += $5 } END { print n + 0 }' "$run/e2e/all_els/truth_cpu$cpu.txt")))
	done
	HOME=$out/home "$perf" "${opt[@]}" script -i "$work/elsewhere/x.data" \
		--itrace=i1i -F ip,sym >"$out/script" 2>"$out/err" || ok=1
	n=$(wc -l <"$out/script")
	unknown=$(awk 'NF < 2 || $2 == "[unknown]"' "$out/script" | wc -l)
	[ "$n" = "$sum" ] && [ "$unknown" = 0 ] || ok=1
	echo "$ok perf $v${bdir:+ --buildid-dir FILE.d}, all_els converted in a folder since renamed: $n samples (truth $sum), $unknown without a function; $(awk '{ print $2 }' "$out/script" | sort | uniq -c | sort -rn | head -3 | awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')"
}
elsewhere_setup
for p in "${perfs[@]}"; do
	v=${p%%=*}
	for c in $captures; do
		check "${p#*:}" "$v" "$c" >"$work/verdict" 2>&1
		verdict
	done
	elsewhere "${p#*:}" "$v" "$work/elsewhere/x.data.d" >"$work/verdict" 2>&1
	verdict
done
# the self-test: the same without --buildid-dir finds no code
if [ ${#perfs[@]} -gt 0 ]; then
	p=${perfs[${#perfs[@]} - 1]}
	elsewhere "${p#*:}" "${p%%=*}" "" >"$work/verdict" 2>&1
	read -r status desc < <(grep -v '^#' "$work/verdict")
	[ "$status" = 1 ]
	tap $? "self-test: without --buildid-dir it is rejected: $desc"
fi

# corrupt WHAT PYTHON [WHICH]: the timestamps file patched by PYTHON (bytes
# in b) must fail the check of the newest perf, or of WHICH's (trixie)
corrupt() {
	local f=$work/timestamps.perf.data bad=$work/corrupt.data p=${perfs[${#perfs[@]} - 1]:-} status desc e
	if [ -n "${3:-}" ]; then
		p=
		for e in "${perfs[@]}"; do
			case $e in *"=$3:"*) p=$e ;; esac
		done
	fi
	if [ ! -s "$f" ] || [ -z "$p" ] || old "${p%%=*}"; then
		tap 1 "self-test: $1 is rejected (no file, or no perf 6.12 or later)"
		return
	fi
	rm -f "$bad"
	if ! python3 - "$f" "$bad" >"$work/patch.log" 2>&1 <<EOF
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
$2
open(sys.argv[2], 'wb').write(b)
EOF
	then
		tap 1 "self-test: $1 is rejected (the file could not be patched)" "$(tail -3 "$work/patch.log")"
		return
	fi
	check "${p#*:}" "${p%%=*}" timestamps "$bad" >"$work/verdict" 2>&1
	read -r status desc < <(grep -v '^#' "$work/verdict")
	[ "$status" = 1 ]
	tap $? "self-test: $1 is rejected: $desc" "$(grep '^#' "$work/verdict")"
	[ "$status" = 1 ] && diag "$(grep '^#' "$work/verdict" | head -3)"
}
# PERF_RECORD_AUXTRACE (type 71, 48 bytes): size, offset, reference, idx,
# tid, cpu; idx becomes the record's CPU's place among the CPUs (perf 6.12,
# Debian 13's: 7.x finds the CPU's queue whatever its index)
corrupt "the file with each AUXTRACE queue index the CPU's place in the list" '
recs, at = [], struct.unpack_from("<Q", b, 40)[0]
end = at + struct.unpack_from("<Q", b, 48)[0]
while at < end:
    t, _, size = struct.unpack_from("<IHH", b, at)
    if size < 8:
        sys.exit("a record of %d bytes at %d" % (size, at))
    if t == 71:
        recs.append(at)
        at += size + struct.unpack_from("<Q", b, at + 8)[0]
    else:
        at += size
cpus = sorted({struct.unpack_from("<I", b, r + 40)[0] for r in recs})
if len(cpus) < 2 or cpus == list(range(len(cpus))):
    sys.exit("not a capture with a hole in its CPUs")
for r in recs:
    struct.pack_into("<I", b, r + 32, cpus.index(struct.unpack_from("<I", b, r + 40)[0]))' trixie
# the ETE block: magic, CPU, count, 8 registers, then TS_SOURCE
corrupt "the file with TS_SOURCE 0 (not the virtual counter)" '
at = 0
while True:
    at = b.find(struct.pack("<Q", 0x5050505050505050), at)
    if at < 0:
        break
    struct.pack_into("<Q", b, at + 11 * 8, 0)
    at += 8'
# PERF_RECORD_TIME_CONV (type 79): time_shift, time_mult
corrupt "the file with TIME_CONV's multiplier 0" '
at = struct.unpack_from("<Q", b, 40)[0]
while struct.unpack_from("<I", b, at)[0] != 79:
    size = struct.unpack_from("<H", b, at + 6)[0]
    if size < 8:
        sys.exit("no TIME_CONV record")
    at += size
struct.pack_into("<Q", b, at + 16, 0)'
finish
