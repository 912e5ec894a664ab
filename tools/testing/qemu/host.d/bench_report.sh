#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench's host half (tools/testing/bench/report.py) on a recorded
# guest log (tools/testing/bench/recorded-bench.log), without a VM: the
# benchmark itself is not a test, but what turns its figures into the table
# and the comparison with the previous run is code that can break.
#  - every path of mainline-counts.tsv is read, and the table puts
#    mainline's count beside ours;
#  - against a previous run with the same figures nothing is marked WORSE;
#  - a previous run 20% better in a "lower" figure and one 20% better in a
#    "higher" figure mark exactly those two WORSE; 5% marks nothing.
#
# Usage: bench_report.sh BUILD_DIR; prints TAP.
set -uo pipefail

build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
bench=$top/tools/testing/bench
work=$build/bench-report
. "$here/../lib/tap.sh"

rm -rf "$work"
mkdir -p "$work"
report() { # OUT [PREV]
	python3 "$bench/report.py" --mainline "$bench/mainline-counts.tsv" \
		--log "$bench/recorded-bench.log" --out "$work/$1" \
		${2:+--prev "$work/$2"} 2>&1
}

# 1. The table, mainline beside ours
out=$(report first.tsv)
rc=$?
paths=$(grep -c '^   mainline ' <<<"$out")
start=$(grep '^session start' <<<"$out")
[ $rc = 0 ] && [ "$paths" = 7 ] && [ "$(awk '{print $(NF-1)}' <<<"$start")" = 151 ]
tap $? "report.py reads the 7 mainline paths and puts 151 beside the start"
[ $rc = 0 ] && [ "$paths" = 7 ] || diag "$(head -20 <<<"$out")"
diag "$start"

# 2. Same figures: nothing WORSE
out=$(report second.tsv first.tsv)
marked=$(grep -c ' WORSE ' <<<"$out")
[ "$marked" = 0 ] && grep -q '0 more than 10% worse' <<<"$out"
tap $? "the same figures again: nothing marked WORSE ($marked)"

# 3. A previous run 20% better in a lower and a higher figure; 5% in another
awk -F'\t' 'BEGIN { OFS = "\t" }
	$1 == "start_accesses" { $2 = $2 * 0.8 }
	$1 == "memcpy_mbps" { $2 = $2 * 1.2 }
	$1 == "stop_accesses" { $2 = $2 * 0.95 }
	{ print }' "$work/first.tsv" >"$work/better.tsv"
out=$(report third.tsv better.tsv)
marked=$(grep ' WORSE ' <<<"$out" | awk '{print $1}' | sort | tr '\n' ' ')
[ "$marked" = "memcpy_mbps start_accesses " ]
tap $? "a previous run 20% better marks exactly those figures WORSE (${marked:-none})"
# 4. The targets: the recorded run misses one, the lossless rate
out=$(report fourth.tsv)
grep -q '^furthest from its target: zero_loss_vs_memcpy ' <<<"$out" &&
	[ "$(grep -c ' met  ' <<<"$out")" = 6 ]
tap $? "the recorded run: 6 targets met, the lossless rate furthest"
diag "$(grep -A12 '^3\. Targets' <<<"$out")"

# 5. Every target met; then one figure missing is NOT MEASURED, not met
sed 's/^BENCH\tzero_loss_vs_memcpy\t[^\t]*/BENCH\tzero_loss_vs_memcpy\t0.31/' \
	"$bench/recorded-bench.log" >"$work/all-met.log"
out=$(python3 "$bench/report.py" --log "$work/all-met.log" --out "$work/fifth.tsv" 2>&1)
grep -q '^every target met' <<<"$out"
tap $? "lossless rate at 0.31 x memcpy: every target met"
grep -v '^BENCH.idle_flushes_per_s' "$work/all-met.log" >"$work/missing.log"
out=$(python3 "$bench/report.py" --log "$work/missing.log" --out "$work/sixth.tsv" 2>&1)
grep -q '^idle_flushes_per_s .*NOT MEASURED' <<<"$out" && ! grep -q '^every target met' <<<"$out"
tap $? "a target's figure missing: NOT MEASURED, and not every target met"
diag "$(grep -A12 '^3\. Targets' <<<"$out")"
finish
