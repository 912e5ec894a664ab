#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of tracing without root (Documentation/user-guide-install.rst;
# selftests/ete/unpriv_test.c).  The VM's unpriv_test captured as uid 1000
# in the etetrace group, with and without CAP_PERFMON, and left in
# BUILD_DIR/runs/RUN/unpriv/:
#  - 60-ete-trbe.rules, the rules file it applied: it must be the tree's
#    packaging/udev/60-ete-trbe.rules, byte for byte (the test applies what
#    is shipped, not a copy that drifted);
#  - one OpenCSD snapshot per case (el0, perfmon, profile_el0): every CPU
#    of trace.ini has trace, ete-decode (libopencsd's C API) decodes it
#    with no error into at least one instruction range, and
#    trc_pkt_lister -decode loads the snapshot and its memory images.
# Self-tests: a rules file with one line changed is refused, and so is a
# snapshot whose trace is cut to its first 16 bytes (no A-Sync).
#
# Usage: unpriv_decode.sh BUILD_DIR RUN...   (RUN: KERNEL/el1, ...);
# prints TAP.
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR RUN...}
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
rules=$top/packaging/udev/60-ete-trbe.rules
cases="el0 perfmon profile_el0"
tools=$build/host-tools
. "$here/../lib/tap.sh"

# The CPUs of a snapshot's trace.ini ("ETB_<N>" buffers)
snap_cpus() {
	awk -F= '$1 == "name" && $2 ~ /^ETB_[0-9]+$/ { sub(/^ETB_/, "", $2); print $2 }' \
		"$1/trace.ini" 2>/dev/null
}

# decoded SNAP CPU: ete-decode's summary; 0 if it decoded ranges, no error
decoded() {
	local out rc
	out=$("$tools/ete-decode" --cpu "$2" "$1" 2>&1)
	rc=$?
	# its summary, not the speed line it prints on stderr at the end
	out=$(grep -v '^ete-decode: [0-9]* bytes of trace from .* MB/s (' <<<"$out")
	echo "$out" | tail -1
	[ $rc = 0 ] || return 1
	echo "$out" | tail -1 | grep -Eq '^# [1-9][0-9]* ranges, [0-9]+ segments, 0 errors$'
}

# lister_loads SNAP CPU: trc_pkt_lister -decode reads the snapshot, loads
# its memory images and ends the buffer without an error
lister_loads() {
	local out=$1/unpriv_lister_$2.txt
	(cd "$1" && trc_pkt_lister -ss_dir "$1" -src_name "ETB_$2" -decode -logstdout \
		>"$out" 2>&1) || return 1
	grep -q 'Trace buffer done' "$out" &&
		! grep -Eq 'Failed to create memory accessor|OCSD_ERR|Missing' "$out"
}

if ! command -v trc_pkt_lister >/dev/null; then
	tap 1 "trc_pkt_lister (libopencsd-bin) is installed"
	finish
fi
if ! make -s -C "$top/tools/ete" host OUT="$tools" >"$build/host-tools.log" 2>&1 ||
   [ ! -x "$tools/ete-decode" ]; then
	tap 1 "ete-decode builds (libopencsd-dev)"
	diag "$(tail -5 "$build/host-tools.log")"
	finish
fi

first=
for run in "$@"; do
	dir=$build/runs/$run/unpriv
	# unpriv_test is in the whole suite (el1), not in the smoke runs
	[ "${run##*/}" = el1 ] || [ -d "$dir" ] || continue
	if [ ! -d "$dir" ]; then
		tap 1 "$run: the VM's unpriv_test left $dir"
		continue
	fi
	cmp -s "$dir/60-ete-trbe.rules" "$rules"
	tap $? "$run: the rules the VM applied are packaging/udev/60-ete-trbe.rules"
	for c in $cases; do
		snap=$dir/$c
		cpus=$(snap_cpus "$snap")
		if [ -z "$cpus" ]; then
			tap 1 "$run/$c: a snapshot with a trace.ini naming its CPUs"
			continue
		fi
		first=${first:-$snap}
		for cpu in $cpus; do
			size=$(stat -c %s "$snap/trace_cpu$cpu.bin" 2>/dev/null || echo 0)
			msg=$(decoded "$snap" "$cpu")
			rc=$?
			[ "$size" -gt 0 ] && [ $rc = 0 ]
			tap $? "$run/$c cpu$cpu: $size bytes; ete-decode: ${msg#\# }"
			lister_loads "$snap" "$cpu"
			rc=$?
			tap $rc "$run/$c cpu$cpu: trc_pkt_lister -decode loads the snapshot and its memory"
			[ $rc = 0 ] || diag "$(grep -Em3 'OCSD_ERR|Failed|Missing' "$snap/unpriv_lister_$cpu.txt")"
		done
	done
done

# The checks can fail: a rules file with a line changed, a cut trace.
self=$build/runs/unpriv_selftest
rm -rf "$self"
mkdir -p "$self"
sed 's/MODE="0660"/MODE="0666"/' "$rules" >"$self/60-ete-trbe.rules"
! cmp -s "$self/60-ete-trbe.rules" "$rules"
tap $? "self-test: a rules file with MODE 0666 is not the shipped one"
if [ -n "$first" ]; then
	cpu=$(snap_cpus "$first" | head -1)
	cp -r "$first" "$self/snap"
	head -c 16 "$first/trace_cpu$cpu.bin" >"$self/snap/trace_cpu$cpu.bin"
	rm -f "$self/snap/gaps_cpu$cpu.txt"
	! decoded "$self/snap" "$cpu" >/dev/null
	tap $? "self-test: a trace cut to 16 bytes decodes to no range and is refused"
else
	tap 1 "self-test: a cut trace is refused (no snapshot to cut)"
fi
finish
