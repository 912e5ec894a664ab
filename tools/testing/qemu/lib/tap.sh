# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the rig's shell suites share (host.d/*.sh, post.d/*.sh,
# static-checks.sh; sourced, bash): their TAP, OpenCSD's verdict on a
# trace buffer, and the run a post suite reads.  Documentation/testing.rst,
# "Writing a host or post suite".
#
# TAP, in one of two ways:
#   tap_plan N      print the header and the plan "1..N" now; every case
#                   after it is printed as it comes (what the suite
#                   prints itself between cases are its diagnostics)
#   (no tap_plan)   the cases are kept and finish prints them after the
#                   header and the plan of as many cases as there were
#   tap STATUS DESCRIPTION [DIAGNOSTICS]
#                   one case: "ok N" when STATUS is 0, else "not ok N";
#                   DIAGNOSTICS (text, at most 30 lines) as "# " lines
#                   after a failing case only.  $n is the case's number.
#   skip DESCRIPTION WHY
#                   one case skipped: "ok N DESCRIPTION # SKIP WHY"
#   diag TEXT       TEXT's non-empty lines as diagnostics of the last case
#                   (a line starting with "#" as it is, others after "# ")
#   finish          print what was kept (if no tap_plan) and exit 0
#   skip_all WHY    the whole suite skipped: "1..0 # SKIP WHY"; exit 0
#                   (rig_results.py counts it as one skip, with WHY)

n=0
_tap_planned=
_tap_kept=()

_tap_out() {
	if [ -n "$_tap_planned" ]; then
		printf '%s\n' "$@"
	else
		_tap_kept+=("$@")
	fi
}

tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
	_tap_planned=$1
}

tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		_tap_out "ok $n $2"
	else
		_tap_out "not ok $n $2"
		[ -n "${3:-}" ] && diag "$(head -30 <<<"$3")"
	fi
	return 0
}

skip() {
	n=$((n + 1))
	_tap_out "ok $n $1 # SKIP $2"
}

diag() {
	local line
	while IFS= read -r line; do
		case $line in
		"") ;;
		"#"*) _tap_out "$line" ;;
		*) _tap_out "# $line" ;;
		esac
	done <<<"$1"
	return 0
}

finish() {
	if [ -z "$_tap_planned" ]; then
		echo "TAP version 13"
		echo "1..$n"
		[ ${#_tap_kept[@]} = 0 ] || printf '%s\n' "${_tap_kept[@]}"
	fi
	exit 0
}

skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $1"
	exit 0
}

# OpenCSD's trc_pkt_lister on one trace buffer of a snapshot: what it
# prints that means the buffer is not clean (an error, a reserved or
# unknown packet, a packet cut short, trace read while not in sync)
lister_bad_re='OCSD_ERR|I_RESERVED|I_BAD_SEQUENCE|I_INCOMPLETE_EOT|I_NOTSYNC|UNKNOWN|Unknown|Error|Failed'

# lister_clean DIR SOURCE BYTES OUT [segment]: trc_pkt_lister lists the
# buffer SOURCE (its -src_name; "" for the snapshot's only buffer) of the
# snapshot in DIR to its last byte (BYTES, "Trace buffer done, processed
# BYTES bytes") and prints nothing above; 0 if so.  OUT gets the listing,
# or with "segment" (a piece of a longer stream, cut at a gap: it starts
# and may end in the middle of a packet) only the lines that count: what
# is bad from the first A-Sync on, bar the last packet cut short, and the
# "Trace buffer done" line, and "count cc N ts N q N", the Cycle Count,
# Timestamp and Q packets listed (the listing of a long stream is millions
# of lines; grep first, its matcher is many times quicker than awk's; and
# the lister writes it to a file, removed after: through a pipe its two
# writes a line took three times as long).
lister_clean() {
	local dir=$1 src=$2 bytes=$3 out=$4 mode=${5:-whole}
	local args=(-ss_dir "$dir" -logstdout)

	[ -n "$src" ] && args+=(-src_name "$src")
	if [ "$mode" = segment ]; then
		local listing=$out.listing
		[ "${listing#/}" != "$listing" ] || listing=$PWD/$listing
		args=(-ss_dir "$dir" -logfilename "$listing")
		[ -n "$src" ] && args+=(-src_name "$src")
		rm -f "$listing"
		(cd "$dir" && trc_pkt_lister "${args[@]}") >"$listing.msg" 2>&1
		LC_ALL=C grep -hE "I_ASYNC|Trace buffer done|	I_CCNT_F|	I_TIMESTAMP :|	I_Q :|$lister_bad_re" \
			"$listing" "$listing.msg" |
			awk -v bad="$lister_bad_re" '/I_ASYNC/ { s = 1 }
				/Trace buffer done, processed/ { print; next }
				/	I_CCNT_F/ { cc++ }
				/	I_TIMESTAMP :/ { ts++ }
				/	I_Q :/ { q++ }
				s && $0 ~ bad && $0 !~ /INCOMPLETE_EOT/ { print }
				END { printf "count cc %d ts %d q %d\n", cc, ts, q }' >"$out"
		rm -f "$listing" "$listing.msg"
	else
		(cd "$dir" && trc_pkt_lister "${args[@]}") >"$out" 2>&1 || return 1
	fi
	grep -q "Trace buffer done, processed $bytes bytes" "$out" || return 1
	if [ "$mode" != segment ] && only_ignore_listed "$dir" "$src" "$out"; then
		return 0
	fi
	# (no "| grep -q" under pipefail: the writer it leaves early may die
	# of SIGPIPE and fail the pipe, which "!" would turn into a pass)
	! grep -Eq "$lister_bad_re" "$out"
}

# only_ignore_listed DIR SOURCE OUT: the buffer SOURCE of the snapshot in
# DIR holds nothing but IGNORE packets (0x70), and OUT, its whole listing,
# complains of nothing but the unsynchronised tail that leaves (OpenCSD
# looks for an A-Sync to the end and calls what it did not use an
# "incomplete packet").  Such a buffer is the erratum padding
# (TRBE_ERR_OVERWRITE_FILL: the first 256 bytes of a fill-mode window)
# with no trace after it: a CPU that a task-mode session's tasks never ran
# on.  0 if so.
only_ignore_listed() {
	local dir=$1 src=$2 out=$3 file
	file=$(awk -F= -v src="$src" '/^\[buffer[0-9]+\]/ { b = 1; next } /^\[/ { b = 0 }
		b && $1 == "name" { name = $2 } b && $1 == "file" && (src == "" || name == src) { print $2; exit }' \
		"$dir/trace.ini" 2>/dev/null)
	[ -n "$file" ] && [ -s "$dir/$file" ] || return 1
	# every byte 0x70
	[ -z "$(LC_ALL=C tr -d '\160' <"$dir/$file" | head -c 1)" ] || return 1
	! grep -q 'I_ASYNC' "$out" || return 1
	# (a count, not "grep -q": see lister_clean)
	[ "$(grep -E "$lister_bad_re" "$out" | grep -vc 'I_INCOMPLETE_EOT')" = 0 ]
}

# ss_segment SNAP FILE START END DIR: DIR becomes the snapshot SNAP
# (links) with its trace buffer FILE cut to bytes [START, END)
ss_segment() {
	local snap=$1 file=$2 start=$3 end=$4 dir=$5 f
	rm -rf "$dir"
	mkdir -p "$dir"
	for f in "$snap"/*; do
		ln -s "$f" "$dir/"
	done
	rm "$dir/$file"
	dd if="$snap/$file" of="$dir/$file" bs=65536 \
		iflag=skip_bytes,count_bytes skip="$start" count=$((end - start)) status=none
}

# lister_clean_gaps DIR SOURCE FILE GAPS OUT: lister_clean for a buffer
# with gap records (GAPS: etecap's gaps_cpu<N>.txt, offset, bytes lost and why,
# per line): where the driver recorded a gap the stream may break off
# mid-packet and resume without a synchronisation point (a stop, a drop,
# a lap overwritten: nothing makes the trace unit emit an A-Sync there),
# so each segment between gap offsets is listed on its own, clean from its
# first A-Sync to its end; anywhere else a break is an error.  Without gap
# records, the whole buffer.  OUT gets the segments' verdict lines (or the
# whole listing); 0 if clean.
lister_clean_gaps() {
	local dir=$1 src=$2 file=$3 gaps=$4 out=$5 start=0 end seg=0 rc=0 size sdir
	size=$(stat -c %s "$dir/$file")
	if ! awk '$1 > 0 { f = 1 } END { exit !f }' "$gaps" 2>/dev/null; then
		lister_clean "$dir" "$src" "$size" "$out"
		return
	fi
	: >"$out"
	for end in $(awk '$1 > 0 { print $1 }' "$gaps" | sort -n) "$size"; do
		[ "$end" -gt "$start" ] || continue
		sdir=$out.seg$seg
		ss_segment "$dir" "$file" "$start" "$end" "$sdir"
		if ! lister_clean "$sdir" "$src" $((end - start)) "$sdir.check" segment; then
			rc=1
			sed "s/^/segment $seg (bytes $start-$end): /" "$sdir.check" |
				grep -Ev "Trace buffer done|: count " >>"$out"
			grep -q "Trace buffer done, processed $((end - start)) bytes" "$sdir.check" ||
				echo "segment $seg (bytes $start-$end): not listed to its end (Error)" >>"$out"
		fi
		rm -rf "$sdir" "$sdir.check"
		start=$end
		seg=$((seg + 1))
	done
	return $rc
}

# lister_errors OUT: the first three lines of a listing lister_clean
# found bad, as diagnostics
lister_errors() {
	grep -E -m3 "$lister_bad_re" "$1" | sed 's/^/# /'
}

# el1_run BUILD_DIR RUN...: the folder of the EL1 run among the runs a
# post suite was given (KERNEL/el1: the whole suite, which alone makes the
# end-to-end captures), or BUILD_DIR/runs/el1 if none is
el1_run() {
	local build=$1 r
	shift
	for r in "$@"; do
		if [ "${r##*/}" = el1 ]; then
			echo "$build/runs/$r"
			return
		fi
	done
	echo "$build/runs/el1"
}
