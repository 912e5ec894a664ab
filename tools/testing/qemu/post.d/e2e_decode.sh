#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of the end-to-end tests (issue 7 acceptance; Documentation/
# model.rst "End-to-end tests"): for every capture the EL1 run's plan made
# with ete-e2e-case (manifest.d/8*-e2e*.list) and every CPU in it, the
# OpenCSD snapshot etecap wrote in runs/el1/e2e/CASE/snapshot/, unedited:
#  - trc_pkt_lister lists each segment of the buffer (the stream cut at the
#    driver's gap markers, gaps_cpuN.txt) to its last byte with no error,
#  - tools/ete/ete-decode decodes it and its instruction ranges equal the
#    model's ground truth, interval by interval between A-Syncs (range by
#    range, or by FNV-1a hash for a capture in the model's hash mode),
#    every truth interval from the first decoded to the last, but where a
#    gap record says why one is missing (the coverage of --compare);
#  - the configuration: the registers etecap recorded in ETE_N.ini are
#    the ones the model held after the session, and they and the trace
#    (the truth, the packets the lister counted) show each of the case's
#    etecap options, and no boolean option that was not given
#    (tools/testing/qemu/e2e-options.py): the model's truth follows the
#    registers, so an option etecap dropped leaves the decode equal to it.
# Two TAP cases per configuration per CPU, and self-tests that a truth with
# one range changed, a stream truth with one hash changed and a snapshot
# whose registers lost the option are rejected.
#
# Usage: e2e_decode.sh BUILD_DIR RUN...   (RUN: KERNEL/el1, KERNEL/el2...);
# prints TAP.
# The captures are the last kernel's only (manifest.d/80-e2e.list says why):
# check.sh runs this with the last kernel's runs.
# rig-post: last kernel
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?usage: $0 BUILD_DIR RUN...}
shift
. "$here/lib/tap.sh"
# The EL1 run of the runs given (KERNEL/el1): only it makes the captures.
run=$(el1_run "$build" "$@")
# The captures the plan asked for: "CASE:CPUS:MIN_BYTES" of each
# ete-e2e-case entry (only the EL1 run makes them: they are not in the
# smoke subset); a case with min_bytes= must have captured that much on
# every CPU
cases=$(awk -F'\t' '$1 == "sh" && $4 ~ /^ete-e2e-case / {
	n = split($4, a, " "); min = 0
	for (i = 5; i <= n; i++) if (a[i] ~ /^min_bytes=/) min = substr(a[i], 11)
	print a[2] ":" a[4] ":" min }' "$run/plan" 2>/dev/null)
# the self-tests: split, two rejected truths, and a configuration
# rejected where the plan has the el0 case (an option case: newest only)
plan=3
case " $cases " in *" el0:"*) plan=4 ;; esac
cpus_of() { # CASE:CPUS:MIN_BYTES -> the CPUs, one per word
	local r=${1#*:}
	echo "${r%%:*}" | tr , ' '
}
# options_of CASE: etecap's options of the case's plan line (after "--")
options_of() {
	awk -F'\t' -v c="$1" '$1 == "sh" && $4 ~ /^ete-e2e-case / {
		n = split($4, a, " ")
		if (a[2] != c)
			next
		for (i = 5; i <= n && a[i] != "--"; i++)
			;
		for (i++; i <= n; i++)
			printf "%s ", a[i]
	}' "$run/plan"
}
for c in $cases; do
	plan=$((plan + 2 * $(cpus_of "$c" | wc -w)))
done

if [ -z "$cases" ]; then
	tap 1 "the EL1 plan ($run/plan) has no ete-e2e-case entry"
	finish
fi
tap_plan "$plan"
tools=$build/host-tools
if ! make -s -C "$top/tools/ete" host OUT="$tools" >"$build/host-tools.log" 2>&1; then
	sed 's/^/# /' "$build/host-tools.log"
fi

# segments_clean CASE_DIR CPU: trc_pkt_lister on each segment between gaps
# reads it to the end with no error (lib/tap.sh's lister_clean: a segment
# starts and may end anywhere in a packet); 0 if clean.  The Cycle Count,
# Timestamp and Q packets it listed go to CASE_DIR/lister_cpuCPU.counts
# ("cc N ts N q N"), for the configuration's check.
segments_clean() {
	local cdir=$1 cpu=$2 snap=$1/snapshot start=0 end seg=0 rc=0 size sdir ok
	size=$(stat -c %s "$snap/trace_cpu$cpu.bin")
	: >"$cdir/lister_cpu$cpu.counts"
	for end in $(awk '$1 > 0 {print $1}' "$snap/gaps_cpu$cpu.txt" 2>/dev/null) "$size"; do
		[ "$end" -gt "$start" ] || continue
		sdir=$cdir/lister_cpu$cpu.$seg
		ss_segment "$snap" "trace_cpu$cpu.bin" "$start" "$end" "$sdir"
		lister_clean "$sdir" "ETB_$cpu" $((end - start)) "$sdir.check" segment
		ok=$?
		grep "^count " "$sdir.check" >>"$cdir/lister_cpu$cpu.counts"
		if [ "$ok" != 0 ]; then
			rc=1
			lister_errors "$sdir.check"
			grep -q "Trace buffer done, processed $((end - start)) bytes" "$sdir.check" ||
				echo "# segment $seg (bytes $start-$end): not listed to its end"
		fi
		rm -rf "$sdir"
		start=$end
		seg=$((seg + 1))
	done
	awk '{ cc += $3; ts += $5; q += $7 } END { printf "cc %d ts %d q %d\n", cc, ts, q }' \
		"$cdir/lister_cpu$cpu.counts" >"$cdir/lister_cpu$cpu.counts.new"
	mv "$cdir/lister_cpu$cpu.counts.new" "$cdir/lister_cpu$cpu.counts"
	return $rc
}

# check_cpu NAME CPU MIN [TRUTH]: the verdict on one CPU's capture of a
# case (against TRUTH, by default the model's), as
# "STATUS DESCRIPTION" (STATUS 0 for a pass) and then diagnostic lines
check_cpu() {
	local name=$1 cpu=$2 min=$3 cdir=$run/e2e/$1 snap=$run/e2e/$1/snapshot summary rc size decoded
	local truth=${4:-$run/e2e/$1/truth_cpu$2.txt}
	if [ ! -s "$snap/trace_cpu$cpu.bin" ] || [ ! -s "$truth" ]; then
		echo "1 $name cpu$cpu: no capture or no truth"
		return
	fi
	size=$(stat -c %s "$snap/trace_cpu$cpu.bin")
	if [ "$size" -lt "$min" ]; then
		echo "1 $name cpu$cpu: $size bytes captured, less than the $min asked"
		return
	fi
	# a truth given (the self-tests): the comparison only, beside the
	# case's own files; the lister's verdict on the bytes is the case's
	local cmp=$cdir/compare_cpu$cpu.txt
	if [ -n "${4:-}" ]; then
		cmp=$truth.compare
		rc=0
	else
		segments_clean "$cdir" "$cpu" >"$cdir/lister_cpu$cpu.diag"
		rc=$?
	fi
	# the substitution's status is the pipeline's (pipefail): ete-decode's
	# when the comparison fails; PIPESTATUS here would be the assignment's
	summary=$("$tools/ete-decode" "$snap" --cpu "$cpu" --compare "$truth" 2>&1 |
		tee "$cmp" | tail -1)
	decoded=$?
	[ $decoded = 0 ] && [ $rc = 0 ]
	echo "$? $name cpu$cpu: $size bytes, $(wc -l <"$snap/gaps_cpu$cpu.txt") gaps, lister $([ $rc = 0 ] && echo clean || echo ERRORS); $summary"
	[ -n "${4:-}" ] || cat "$cdir/lister_cpu$cpu.diag"
	grep '^#' "$cmp" | head -6
}

# check_config NAME CPU [CASE_DIR]: the verdict on what the case's options
# made of the unit (after check_cpu, which counts the packets), as
# "STATUS DESCRIPTION" and then diagnostic lines
check_config() {
	local name=$1 cpu=$2 cdir=${3:-$run/e2e/$1} out status desc
	# shellcheck disable=SC2046 # the options, one per word
	out=$(python3 "$here/e2e-options.py" "$cdir" "$cpu" $(options_of "$name") 2>&1)
	read -r status desc <<<"$out"
	[ "$status" = 0 ] || status=1
	echo "$status $name cpu$cpu configuration: $desc"
	tail -n +2 <<<"$out"
}

if ! command -v trc_pkt_lister >/dev/null || [ ! -x "$tools/ete-decode" ]; then
	for i in $(seq "$plan"); do
		tap 1 "trc_pkt_lister or ete-decode (libopencsd) missing"
	done
	finish
fi

# One check per CPU of each case, as many at once as there are cores (the
# lister and the decoder are single-threaded); reported in plan order.
verdicts=$(mktemp -d)
jobs_max=$(nproc)
i=0
for c in $cases; do
	for cpu in $(cpus_of "$c"); do
		while [ "$(jobs -pr | wc -l)" -ge "$jobs_max" ]; do
			wait -n
		done
		i=$((i + 1))
		{
			check_cpu "${c%%:*}" "$cpu" "${c##*:}" >"$verdicts/$i" 2>&1
			check_config "${c%%:*}" "$cpu" >"$verdicts/$i.config" 2>&1
		} &
	done
done
wait
for j in $(seq "$i"); do
	for v in "$verdicts/$j" "$verdicts/$j.config"; do
		read -r status desc <"$v"
		tap "$status" "$desc"
		tail -n +2 "$v"
	done
done
rm -rf "$verdicts"

# rejected CASE AWK WHAT: the comparison can fail: CPU 0's truth of CASE
# edited by the awk program AWK must not match the decode
rejected() {
	local cdir=$run/e2e/$1
	if [ ! -s "$cdir/truth_cpu0.txt" ]; then
		tap 1 "self-test: $3 is rejected (no capture)"
		return
	fi
	awk "$2" "$cdir/truth_cpu0.txt" >"$cdir/truth_cpu0.bad"
	# through the verdict the cases above get, not ete-decode alone
	read -r status _ < <(check_cpu "$1" 0 0 "$cdir/truth_cpu0.bad")
	[ "$status" = 1 ]
	tap $? "self-test: $3 is rejected"
}
# split CASE PIECES: CPU 0's capture of CASE decoded with each memory image
# of its snapshot cut into PIECES files, dump sections of their own (etecap
# writes up to 512 images): the decode must still equal the truth
split() {
	local cdir=$run/e2e/$1 out=$run/e2e/$1/split ini k=0 sect file addr len piece off summary
	if [ ! -s "$cdir/truth_cpu0.txt" ]; then
		tap 1 "$1 cpu0 with its images in $2 pieces each: no capture"
		return
	fi
	rm -rf "$out"
	cp -r "$cdir/snapshot" "$out"
	ini=$out/cpu_0.ini
	sed -n '1,/^\[dump/p' "$cdir/snapshot/cpu_0.ini" | sed '$d' >"$ini"
	while read -r sect file addr; do
		len=$(stat -c %s "$out/$file")
		piece=$(( (len + $2 - 1) / $2 ))
		for ((off = 0; off < len; off += piece)); do
			dd if="$out/$file" of="$out/piece_$k.bin" bs=1 skip=$off count=$piece status=none
			printf '[dump%d]\nfile=piece_%d.bin\naddress=0x%x\nlength=0x%x\n\n' \
				"$k" "$k" $((addr + off)) "$(stat -c %s "$out/piece_$k.bin")" >>"$ini"
			k=$((k + 1))
		done
	done < <(awk -F= '/^\[dump/ { s = $0 } $1 == "file" { f = $2 } $1 == "address" { print s, f, $2 }' \
		"$cdir/snapshot/cpu_0.ini")
	summary=$("$tools/ete-decode" "$out" --cpu 0 --compare "$cdir/truth_cpu0.txt" 2>&1 | tail -1)
	tap $? "$1 cpu0 with its images in $k dump files: $summary"
}
split all_els 16

rejected all_els '!done && $1 == "R" && ++r == 50 {$3 = $3 "4"; done = 1} 1' \
	"a truth with one range changed"
rejected stream '!done && $1 == "H" && ++r == 100 {$4 = sprintf("0x%016x", 1); done = 1} 1' \
	"a stream truth with one interval hash changed"

# The configuration's check can fail: el0's CPU 0 with TRCVICTLR as if
# etecap had not passed -e 0 (EXLEVEL_NS 0: every EL traced) must not pass
config_rejected() {
	local cdir=$run/e2e/el0 bad=$run/e2e/el0/config_rejected f v status
	if [ ! -s "$cdir/snapshot/ETE_0.ini" ]; then
		tap 1 "self-test: a snapshot without its -e 0 is rejected (no capture)"
		return
	fi
	rm -rf "$bad"
	mkdir -p "$bad/snapshot"
	for f in "$cdir"/*_cpu0.txt "$cdir"/lister_cpu0.counts; do
		[ -e "$f" ] && ln -s "$f" "$bad/"
	done
	# TRCVICTLR.EXLEVEL_NS, bits [22:20], cleared
	v=$(sed -n 's/^TRCVICTLR=//p' "$cdir/snapshot/ETE_0.ini")
	sed "s/^TRCVICTLR=.*/TRCVICTLR=$(printf 0x%x $((${v:-0} & ~(7 << 20))))/" \
		"$cdir/snapshot/ETE_0.ini" >"$bad/snapshot/ETE_0.ini"
	read -r status _ < <(check_config el0 0 "$bad")
	[ "$status" = 1 ]
	tap $? "self-test: a snapshot without its -e 0 is rejected"
	rm -rf "$bad"
}
if [ "$plan" = 4 ]; then
	config_rejected
fi
finish
