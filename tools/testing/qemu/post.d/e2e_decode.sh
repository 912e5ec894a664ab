#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of the end-to-end tests (issue 7 acceptance; Documentation/
# model.rst "End-to-end tests"): for every capture the VM left in
# runs/RUN/e2e/CASE/ (manifest.d/80-e2e.list) and every CPU in it,
#  - trc_pkt_lister lists each segment of the buffer (the stream cut at the
#    driver's gap markers) with no error,
#  - tools/ete/ete-decode decodes it with the model's program image and its
#    instruction ranges equal the model's ground truth, interval by interval
#    between A-Syncs (range by range, or by hash for the streaming case).
# One TAP case per configuration per CPU, and a self-test that a truth with
# one range changed is rejected.
#
# Usage: e2e_decode.sh BUILD_DIR RUN...   (RUN: el1, el2); prints TAP.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?usage: $0 BUILD_DIR RUN...}
shift
# The captures 80-e2e.list makes: CASE:CPUS
cases="all_els:0,1,2,3 el0:0,1 include:0,1 exclude:0,1 startstop:0,1
cycles:0,1 timestamps:0,1 rs_on:0,1 rs_off:0,1 bb:0,1 wrap:0,1 stream:0"
bad_re='OCSD_ERR|I_RESERVED|I_BAD_SEQUENCE|I_INCOMPLETE_EOT|UNKNOWN|Unknown'
n=0
plan=1
for c in $cases; do
	plan=$((plan + $(echo "${c#*:}" | tr , '\n' | wc -l)))
done

tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}

echo "TAP version 13"
# Only the EL1 run captures (80-e2e.list is not in the smoke subset)
echo "1..$plan"
run=$build/runs/el1
tools=$build/host-tools
if ! make -s -C "$top/tools/ete" host OUT="$tools" >"$build/host-tools.log" 2>&1; then
	sed 's/^/# /' "$build/host-tools.log"
fi

# snapshot DIR CASE_DIR CPU [TRACE]: an OpenCSD snapshot of one CPU's capture
snapshot() {
	local dir=$1 cdir=$2 cpu=$3 trace=${4:-$2/trace_cpu$3.bin} mems=() region va
	while read -r region va _; do
		mems+=("$run/e2e/program/$region.bin@$va")
	done <"$run/e2e/program/layout"
	"$here/ocsd-snapshot.sh" "$dir" "$trace" "$cdir/ETE_$cpu.ini" "$cpu" "${mems[@]}"
	[ -f "$cdir/gaps_cpu$cpu.txt" ] && cp "$cdir/gaps_cpu$cpu.txt" "$dir/"
	return 0
}

# lister CASE_DIR CPU: trc_pkt_lister on each segment between gaps; 0 if clean
lister_clean() {
	local cdir=$1 cpu=$2 bin=$1/trace_cpu$2.bin start=0 end seg=0 rc=0 size
	size=$(stat -c %s "$bin")
	for end in $(awk '$1 > 0 {print $1}' "$cdir/gaps_cpu$cpu.txt" 2>/dev/null) "$size"; do
		[ "$end" -gt "$start" ] || continue
		local sdir=$cdir/lister_cpu$cpu.$seg
		dd if="$bin" of="$cdir/seg.bin" bs=4096 iflag=skip_bytes,count_bytes \
			skip="$start" count=$((end - start)) status=none
		snapshot "$sdir" "$cdir" "$cpu" "$cdir/seg.bin"
		rm -f "$sdir/gaps_cpu$cpu.txt" "$cdir/seg.bin"
		(cd "$sdir" && trc_pkt_lister -ss_dir "$sdir" -logstdout >list.txt 2>&1) || rc=1
		grep -q "Trace buffer done, processed $((end - start)) bytes" "$sdir/list.txt" || rc=1
		if grep -Eq "$bad_re" "$sdir/list.txt"; then
			# a segment starts and may end anywhere in a packet: only
			# errors between its first A-Sync and its last are errors
			awk '/I_ASYNC/ {s = 1} s' "$sdir/list.txt" |
				grep -E "$bad_re" | grep -v INCOMPLETE_EOT | head -3 |
				sed 's/^/# /' | grep -q . && rc=1
		fi
		start=$end
		seg=$((seg + 1))
	done
	return $rc
}

check_cpu() {
	local name=$1 cpu=$2 cdir=$run/e2e/$1 snap summary rc
	snap=$cdir/snapshot_cpu$cpu
	if [ ! -s "$cdir/trace_cpu$cpu.bin" ] || [ ! -s "$cdir/truth_cpu$cpu.txt" ]; then
		tap 1 "$name cpu$cpu: no capture or no truth"
		return
	fi
	snapshot "$snap" "$cdir" "$cpu"
	lister_clean "$cdir" "$cpu"
	rc=$?
	summary=$("$tools/ete-decode" "$snap" --cpu "$cpu" --compare "$cdir/truth_cpu$cpu.txt" 2>&1 |
		tee "$snap/compare.txt" | tail -1)
	[ "${PIPESTATUS[0]}" = 0 ] && [ $rc = 0 ]
	tap $? "$name cpu$cpu: $(stat -c %s "$cdir/trace_cpu$cpu.bin") bytes, lister $([ $rc = 0 ] && echo clean || echo ERRORS); $summary"
	grep '^#' "$snap/compare.txt" | head -6
}

if ! command -v trc_pkt_lister >/dev/null || [ ! -x "$tools/ete-decode" ]; then
	for i in $(seq "$plan"); do
		echo "not ok $i # trc_pkt_lister or ete-decode (libopencsd) missing"
	done
	exit 0
fi

for c in $cases; do
	for cpu in $(echo "${c#*:}" | tr , ' '); do
		check_cpu "${c%%:*}" "$cpu"
	done
done

# The comparison can fail: change one range of a truth, expect a difference.
cdir=$run/e2e/all_els
if [ -s "$cdir/truth_cpu0.txt" ]; then
	awk '!done && $1 == "R" && ++r == 50 {$3 = $3 "4"; done = 1} 1' \
		"$cdir/truth_cpu0.txt" >"$cdir/truth_cpu0.bad"
	! "$tools/ete-decode" "$cdir/snapshot_cpu0" --cpu 0 --compare "$cdir/truth_cpu0.bad" >/dev/null 2>&1
	tap $? "self-test: a truth with one range changed is rejected"
else
	tap 1 "self-test: a truth with one range changed is rejected (no capture)"
fi
