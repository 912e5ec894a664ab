# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the perf suites share (post.d/perf_decode.sh, perf_versions.sh;
# sourced, bash, after lib/tap.sh, with $here the rig's directory).
#
#   perf_errors FILE
#           perf's complaints in FILE (its stderr): every line but arm64
#           unwinding's absence on this host, the no-kallsyms notes `perf
#           report` gives, and the count of AUX records flagged TRUNCATED
#           (perfdata.c flags each segment a gap follows)
#   perf_root BUILD_DIR WHICH
#           a perf of Debian's, run from a root of its own release's
#           packages (rig-apt.sh root: linux-perf and everything it
#           depends on, unpacked, not installed), whatever the host runs;
#           prints the path of a command that runs it (BUILD_DIR/perf-
#           roots/VERSION/run-perf).  WHICH: bookworm (Debian 12's perf),
#           trixie (Debian 13's), newest (the highest linux-perf of the
#           archive, trixie-backports' 7.x today).  Messages on stderr,
#           status 1 when it cannot be had.

perf_errors() {
	grep -v -e '^unwind: target platform=arm64 is not supported' \
		-e '^AUX data lost [0-9]* times out of [0-9]*!$' \
		-e '^Warning:$' -e 'Kernel address maps' -e 'kptr_restrict' \
		-e 'no suitable kallsyms' -e "can't be resolved" -e '^$' \
		-e 'Samples in kernel modules' "$1"
}

perf_root() {
	local build=$1 which=$2 rel ver suite dir ld bin libs
	case $which in
	bookworm | trixie)
		rel=$which
		ver=$(RIG_APT_RELEASE=$rel "$here/rig-apt.sh" "$build" version linux-perf) || return 1
		;;
	newest)
		# the highest version of every suite the rig reads, and the
		# release whose suite has it
		read -r ver suite < <("$here/rig-apt.sh" "$build" cache madison linux-perf |
			awk -F' *[|] *' '{ split($3, w, " "); sub("/.*", "", w[2]); print $2, w[2] }' |
			sort -V -r -k1,1 | head -n 1)
		rel=${suite%%-*}
		[ -n "$ver" ] && [ -n "$rel" ] || {
			echo "perf_root: no linux-perf in the archive" >&2
			return 1
		}
		;;
	*)
		echo "perf_root: $which is not bookworm, trixie or newest" >&2
		return 1
		;;
	esac
	dir=$build/perf-roots/$ver
	mkdir -p "$build/perf-roots"
	# one unpacking at a time (the post suites of two kernels may ask)
	(
		flock 9
		RIG_APT_RELEASE=$rel "$here/rig-apt.sh" "$build" root "linux-perf=$ver" "$dir"
	) 9>"$build/perf-roots/.lock" || return 1
	# the loader's own file, in the multiarch directory: not the lib64
	# link, absolute in Debian 12's libc6 (/lib64/ld-linux-x86-64.so.2 ->
	# /lib/x86_64-linux-gnu/...), so the loader of whatever root run-perf
	# runs in (Debian 13's 2.41 with 12's libc.so.6 2.36: ld.so and libc
	# share private interfaces, __tunable_get_val's ids, and must be one
	# build; it aborts with "stack smashing detected")
	ld=$(find "$dir"/usr/lib/*-linux-gnu "$dir"/lib/*-linux-gnu -maxdepth 1 \
		-type f -name 'ld-linux*.so.*' 2>/dev/null | head -n 1)
	bin=$dir/usr/bin/perf
	libs=$(ls -d "$dir"/usr/lib/*-linux-gnu "$dir"/lib/*-linux-gnu 2>/dev/null | tr '\n' : | sed 's/:$//')
	if [ -z "$ld" ] || [ ! -x "$bin" ] || [ -z "$libs" ]; then
		echo "perf_root: linux-perf $ver's root $dir has no loader, perf or libraries" >&2
		return 1
	fi
	# and never the host's or another root's (what the abort came from)
	case $(realpath "$ld") in
	"$(realpath "$dir")"/*) ;;
	*)
		echo "perf_root: the loader $ld is $(realpath "$ld"), outside the root $dir" >&2
		return 1
		;;
	esac
	cat >"$dir/run-perf" <<-RUN
	#!/bin/sh
	# perf $ver (Debian $rel), with its own release's libraries
	exec "$ld" --library-path "$libs" "$bin" "\$@"
	RUN
	chmod +x "$dir/run-perf"
	echo "$dir/run-perf"
}
