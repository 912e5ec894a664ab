#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side acceptance of etecap's snapshots (Documentation/
# user-guide-capture.rst): the VM's etecap_test left OpenCSD snapshot
# directories in BUILD_DIR/runs/RUN/etecap/<test>/.  OpenCSD's
# trc_pkt_lister must read each one as etecap wrote it, with no edit:
# every CPU's buffer listed to its last byte with no error or unknown
# packet, and with -decode every memory image loaded.  A snapshot with a
# register taken out must fail the same check.
#
# Usage: etecap_snapshot.sh BUILD_DIR RUN...   (RUN: el1, el2); prints TAP.
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR RUN...}
shift
bad_re='OCSD_ERR|I_RESERVED|I_BAD_SEQUENCE|I_INCOMPLETE_EOT|I_NOTSYNC|UNKNOWN|Unknown|Error|Failed'
n=0
results=()

tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then results+=("ok $n $2"); else results+=("not ok $n $2"); fi
}

# buffers DIR: "name file" for each buffer of trace.ini
buffers() {
	awk -F= '/^\[buffer[0-9]+\]/ { b = 1; next } /^\[/ { b = 0 }
		b && $1 == "name" { name = $2 } b && $1 == "file" { print name, $2 }' "$1/trace.ini"
}

# listed_clean DIR BUFFER FILE [ARGS]: trc_pkt_lister reads the whole buffer
# with no error; its output is in DIR/list_BUFFER.txt
listed_clean() {
	local dir=$1 buf=$2 file=$3 out=$1/list_$2.txt size
	shift 3
	size=$(stat -c %s "$dir/$file")
	(cd "$dir" && trc_pkt_lister -ss_dir "$dir" -src_name "$buf" -logstdout "$@" >"$out" 2>&1) ||
		return 1
	grep -Eq "$bad_re" "$out" && return 1
	grep -q "Trace buffer done, processed $size bytes" "$out"
}

# decode_loads DIR BUFFER: with -decode, every memory image is accepted
decode_loads() {
	local out=$1/decode_$2.txt
	(cd "$1" && trc_pkt_lister -ss_dir "$1" -src_name "$2" -decode -logstdout >"$out" 2>&1) ||
		return 1
	! grep -Eq 'Failed to create memory accessor|ss2_dcdtree|Missing' "$out"
}

if ! command -v trc_pkt_lister >/dev/null; then
	echo "TAP version 13"
	echo "1..1"
	echo "ok 1 # SKIP trc_pkt_lister (libopencsd-bin) not installed"
	exit 0
fi

first=
for run in "$@"; do
	snaps=$(ls -d "$build/runs/$run"/etecap/*/ 2>/dev/null)
	if [ -z "$snaps" ]; then
		# etecap_test is in the whole suite (el1), not the smoke subset
		if [ "$run" = el1 ]; then
			tap 1 "$run: the VM left etecap snapshots"
		else
			tap 0 "$run: no etecap snapshots # SKIP etecap_test runs in the whole suite only"
		fi
		continue
	fi
	for snap in $snaps; do
		snap=${snap%/}
		name=$run/$(basename "$snap")
		[ -s "$snap/snapshot.ini" ] && [ -s "$snap/trace.ini" ]
		tap $? "$name: snapshot.ini and trace.ini written"
		[ -s "$snap/snapshot.ini" ] || continue
		first=${first:-$snap}
		while read -r buf file; do
			listed_clean "$snap" "$buf" "$file"
			rc=$?
			tap $rc "$name: trc_pkt_lister -ss_dir lists $buf ($(stat -c %s "$snap/$file") bytes) with no errors"
			[ $rc = 0 ] || grep -Em3 "$bad_re" "$snap/list_$buf.txt" | sed 's/^/# /' >&2
		done < <(buffers "$snap")
		buf=$(buffers "$snap" | awk 'NR == 1 { print $1 }')
		decode_loads "$snap" "$buf"
		tap $? "$name: -decode loads the $(grep -c '^saved' "$snap/memory.txt" 2>/dev/null) memory image(s)"
	done
done

# The check can fail: a snapshot whose trace unit lacks TRCCONFIGR.
if [ -n "$first" ]; then
	bad=$build/runs/etecap_snapshot_selftest
	rm -rf "$bad"
	cp -r "$first" "$bad"
	sed -i '/^TRCCONFIGR=/d' "$bad"/ETE_*.ini
	read -r buf file < <(buffers "$bad")
	! listed_clean "$bad" "$buf" "$file"
	tap $? "self-test: a snapshot without TRCCONFIGR is refused"
else
	tap 1 "self-test: a snapshot without TRCCONFIGR is refused (no snapshot)"
fi

echo "TAP version 13"
echo "1..$n"
printf '%s\n' "${results[@]}"
