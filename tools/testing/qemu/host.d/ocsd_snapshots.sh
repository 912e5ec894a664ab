#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ete-decode on trace no one here wrote: OpenCSD's own ETE test snapshots
# (Arm's model captures, tools/testing/ocsd-snapshots-ete: a subset of
# OpenCSD's decoder/tests/snapshots-ete, its licence beside them).
#  - On each snapshot, for every buffer with an ETE source, ete-decode's
#    instruction ranges, no-path ranges and missing-memory records equal
#    trc_pkt_lister -decode's, trace ID by trace ID, in order
#    (lib/ocsd_compare.py); also on every snapshot of ETE_OCSD_SNAPSHOTS
#    (a directory of snapshot directories, e.g. all of OpenCSD's set).
#  - The format's parts etecap does not write: a memory image at an
#    offset= of its file (a copy of ete_ip with its first image's file
#    padded: equal to trc_pkt_lister's again, and to the original's
#    count); --source picks one session of a core.
#  - What the reader refuses, naming the file and key: a required
#    register missing, a buffer name that refers to nothing, an unknown
#    buffer format.
#  - Self-test: with one of ete-decode's records left out, the comparison
#    fails.
#
# Usage: ocsd_snapshots.sh BUILD_DIR; prints TAP.
set -uo pipefail

build=$(realpath -m "${1:?usage: $0 BUILD_DIR}")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
snaps=$top/tools/testing/ocsd-snapshots-ete
compare=$here/../lib/ocsd_compare.py
work=$build/ocsd-snapshots
. "$here/../lib/tap.sh"

command -v trc_pkt_lister >/dev/null ||
	skip_all "trc_pkt_lister is not installed (libopencsd-bin)"
rm -rf "$work"
mkdir -p "$work/bin"
if ! make -s -C "$top/tools/ete" host OUT="$work/bin" >"$work/build.log" 2>&1; then
	tap 1 "ete-decode (libopencsd) builds" "$(cat "$work/build.log")"
	finish
fi
decode=$work/bin/ete-decode

# same NAME DIR: ete-decode equals trc_pkt_lister on snapshot DIR
same() {
	local out rc
	out=$(python3 "$compare" "$decode" "$2" 2>&1)
	rc=$?
	tap "$rc" "ete-decode equals trc_pkt_lister on $1: ${out%%$'\n'*}" "$out"
}

for d in "$snaps"/*/; do
	same "$(basename "$d")" "$d"
done
if [ -n "${ETE_OCSD_SNAPSHOTS:-}" ]; then
	for d in "$ETE_OCSD_SNAPSHOTS"/*/; do
		[ -f "$d/snapshot.ini" ] || continue
		same "ETE_OCSD_SNAPSHOTS/$(basename "$d")" "$d"
	done
fi

# The first image of ete_ip at offset 0x100 of a padded copy of its file
cp -r "$snaps/ete_ip" "$work/offset"
img=$(sed -n '/^\[dump1\]/,/^\[/s/^file=//p' "$work/offset/cpu_0.ini")
{ head -c 256 /dev/zero; cat "$snaps/ete_ip/$img"; } >"$work/offset/$img.padded"
sed -i "/^\[dump1\]/,/^\[/{s|^file=.*|file=$img.padded\noffset=0x100|}" \
	"$work/offset/cpu_0.ini"
out=$(python3 "$compare" "$decode" "$work/offset" 2>&1)
rc=$?
want=$(python3 "$compare" "$decode" "$snaps/ete_ip" 2>&1 | head -n 1)
[ "${out%%$'\n'*}" = "$want" ] || rc=1
tap "$rc" "an image at offset 0x100 of its file decodes as the unpadded one" \
	"$(printf '%s\n(unpadded: %s)\n' "$out" "$want")"

# --source: one session of the two of q_elem's core
out=$("$decode" --source ETE_0_s2 "$snaps/q_elem" 2>&1)
heads=$(grep -c '^# cpu' <<<"$out")
head2=$(grep -c '^# cpu 0: source ETE_0_s2, buffer ETB_2' <<<"$out")
[ "$heads" = 1 ] && [ "$head2" = 1 ]
tap $? "--source ETE_0_s2 decodes that session only" "$out"

# refuse CASE WANT SED FILE: ete-decode on a copy of ete_ip with SED
# applied to FILE exits 2 and says WANT
refuse() {
	local dir=$work/refuse-$1 out rc
	cp -r "$snaps/ete_ip" "$dir"
	sed -i "$3" "$dir/$4"
	out=$("$decode" "$dir" 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -qF -- "$2" <<<"$out"
	tap $? "a snapshot with $1 is refused: \"$2\"" \
		"$(printf 'exit %s\n%s\n' "$rc" "$out")"
}
refuse "no TRCIDR0" "ETE_0_s1.ini: [regs] TRCIDR0 is missing" \
	'/^TRCIDR0=/d' ETE_0_s1.ini
refuse "a source in a buffer that is not there" \
	"trace.ini: [source_buffers] ETE_0_s1=ETB_9: no buffer of that name" \
	's/^ETE_0_s1=ETB_1/ETE_0_s1=ETB_9/' trace.ini
refuse "an unknown buffer format" \
	"trace.ini: [buffer1] format=raw: not source_data" \
	's/^format=source_data/format=raw/' trace.ini

# the comparison can fail
out=$(python3 "$compare" --drop-one "$decode" "$snaps/ete_ip" 2>&1)
[ $? = 1 ] && grep -q "1 differ" <<<"$out"
tap $? "self-test: ete-decode with one record left out differs" "$out"
finish
