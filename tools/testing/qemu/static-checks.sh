#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks as a TAP suite: checkpatch --strict on every C source and
# header (one case: it fails if checkpatch did not check every file, and
# lists the findings of those that are not clean), no kernel version test
# outside include/ete/compat.h (one case), and for each rig kernel
# (RIG_KERNELS, default "6.1 6.12 7.3") a from-scratch build of every module
# with W=1 (which also runs kernel-doc) and sparse (C=2) that must print no
# warning: one case for the build, one for sparse, which passes only when
# sparse checked every file the build compiled.  A kernel that refuses the
# host's sparse (7.x needs one that knows __typeof_unqual__; Debian's 0.6.4
# does not, and the kernel's Makefile then builds without it, saying so in
# one line) gets a skip naming it, not a pass.
#
# Usage: static-checks.sh BUILD_DIR [checkpatch|build]
#   CHECKPATCH=PATH  another checkpatch.pl (default: the first kernel's)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?}
only=${2:-}
kernels=${RIG_KERNELS:-6.1 6.12 7.3}
ksrc=$build/linux-source-${kernels%% *}
cd "$top" || exit 1

files=$(git ls-files -co --exclude-standard -- '*.c' '*.h' | LC_ALL=C sort)
nfiles=$(echo "$files" | grep -c .)
checkpatch=${CHECKPATCH:-$ksrc/scripts/checkpatch.pl}
. "$here/lib/tap.sh"
plan=0
# checkpatch, the kernel version tests, and the production files' length
[ "$only" != build ] && plan=3
# a build and a sparse case per kernel, the layer check of ete.ko and
# trbe.ko, and the two instruction checks
[ "$only" != checkpatch ] && plan=$((plan + 2 * $(echo $kernels | wc -w) + 4))
tap_plan "$plan"

# checkpatch_one FILE OUT: checkpatch's whole output for FILE in OUT, its
# exit status in OUT.rc.  Not --terse: that prints nothing at all for a
# clean file, so a checkpatch that never ran would look clean; the full
# report ends each file with "total: ... N lines checked".
checkpatch_one() {
	"$checkpatch" --strict --no-tree --show-types --emacs -f "$1" >"$2" 2>&1
	echo $? >"$2.rc"
}
jobs=$(nproc)

if [ "$only" != build ]; then
	# checkpatch is one perl process per file: run one per core
	results=$(mktemp -d)
	export -f checkpatch_one
	export checkpatch
	i=0
	for f in $files; do
		i=$((i + 1))
		printf '%s\0%s\0' "$f" "$results/$i"
	done | xargs -0 -n 2 -P "$jobs" bash -c 'checkpatch_one "$0" "$1"'
	# Each file: checkpatch exited 0 (clean) or 1 (findings) and said how
	# many lines it checked; anything else means it did not check it
	i=0 ran=0 notrun= found= nfound=0
	for f in $files; do
		i=$((i + 1))
		rc=$(cat "$results/$i.rc" 2>/dev/null)
		if { [ "$rc" = 0 ] || [ "$rc" = 1 ]; } &&
		   grep -Eq '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks, [1-9][0-9]* lines checked$' "$results/$i"; then
			ran=$((ran + 1))
		else
			notrun+="$f: exit ${rc:-none}: $(grep . "$results/$i" 2>/dev/null | head -2 | tr '\n' ' ')"$'\n'
			continue
		fi
		out=$(grep -E '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' "$results/$i")
		# The compat header alone may test LINUX_VERSION_CODE
		# (Documentation/compat.rst)
		[ "$f" = include/ete/compat.h ] && out=$(echo "$out" | grep -v LINUX_VERSION_CODE)
		if [ -n "$out" ]; then
			nfound=$((nfound + 1))
			found+="$out"$'\n'
		fi
	done
	if [ "$ran" != "$nfiles" ] || [ "$nfiles" = 0 ]; then
		tap 1 "checkpatch --strict checked $ran of $nfiles C files and headers ($checkpatch)" \
			"$(printf '%s' "$notrun" | head -20)"$'\n'"$(printf '%s' "$found" | head -40)"
	elif [ "$nfound" != 0 ]; then
		tap 1 "checkpatch --strict: findings in $nfound of $nfiles files" "$found"
	else
		tap 0 "checkpatch --strict: $nfiles C files and headers checked, every one clean"
	fi
	rm -rf "$results"

	# Every kernel version test and header probe lives in the compat header
	# (Documentation/compat.rst); grep exits 2 when it cannot read a file
	others=$(echo "$files" | grep -vx include/ete/compat.h)
	# shellcheck disable=SC2086 # one word per file
	out=$(grep -nE '__has_include|LINUX_VERSION_CODE|KERNEL_VERSION\(' $others 2>&1)
	rc=$?
	if [ "$rc" = 1 ]; then
		tap 0 "no kernel version test outside include/ete/compat.h ($(echo "$others" | grep -c .) files read)"
	elif [ "$rc" = 0 ]; then
		tap 1 "no kernel version test outside include/ete/compat.h" \
			"$(echo "$out" | sed 's/$/ (a kernel difference outside include\/ete\/compat.h)/')"
	else
		tap 1 "no kernel version test outside include/ete/compat.h: grep failed (exit $rc)" "$out"
	fi

	# No production file over 600 lines: the modules, their headers, the
	# tools users install (tests and the model are not production).  A
	# file named in long_known may be longer (none is now); it must then
	# still be, so the list cannot go stale.
	long_known=""
	prod=$(echo "$files" | grep -E '^(ete|trbe|include|tools/ete|packaging)/' |
		grep -Ev '/tests/')
	bad=
	nprod=0
	for f in $prod; do
		len=$(wc -l <"$f") || { bad+="$f: unreadable"$'\n'; continue; }
		nprod=$((nprod + 1))
		known=no
		for k in $long_known; do
			[ "$k" = "$f" ] && known=yes
		done
		if [ "$known" = no ] && [ "$len" -gt 600 ]; then
			bad+="$f: $len lines"$'\n'
		elif [ "$known" = yes ] && [ "$len" -le 600 ]; then
			bad+="$f: $len lines, take it off the known list"$'\n'
		fi
	done
	[ -z "$bad" ] && [ "$nprod" -gt 0 ]
	tap $? "no production file over 600 lines ($nprod read; $(echo $long_known | wc -w) user-tool files known longer)" "$bad"
fi

if [ "$only" != checkpatch ]; then
	scratch=$build/static-build
	for k in $kernels; do
		rm -rf "$scratch"
		mkdir -p "$scratch"
		git ls-files -co --exclude-standard | grep -v '^build/' |
			rsync -a --files-from=- "$top/" "$scratch/"
		# not -s: kbuild's "CC [M]" and "CHECK" lines count what was
		# compiled and what sparse read
		log=$(make -C "$build/kernel-$k" M="$scratch" ARCH=arm64 \
			CROSS_COMPILE=aarch64-linux-gnu- ETE_TESTS=y W=1 C=2 -j"$jobs" modules 2>&1)
		rc=$?
		warnings=$(echo "$log" | grep -E 'warning:|error:|: note:' | grep -v '^make')
		# the module's own C files (not kbuild's .mod.c or .module-common.c)
		compiled=$(echo "$log" | sed -n 's/^  CC \[M\] *\(.*\)\.o$/\1/p' |
			grep -Ev '\.mod$|/\.module-common$' | sort)
		ncc=$(echo "$compiled" | grep -c .)
		[ "$rc" = 0 ] && [ -z "$warnings" ] && [ "$ncc" -gt 0 ]
		tap $? "$k: W=1 build (and sparse, where it ran) of every module is warning-free ($ncc files compiled, exit $rc)" \
			"$warnings"
		checked=$(echo "$log" | sed -n 's/^  CHECK *\(.*\)\.c$/\1/p' | sort)
		nchk=$(echo "$checked" | grep -c .)
		refused=$(echo "$log" | grep -E 'C=2 specified, but .* is not available or not up to date')
		if [ -n "$refused" ]; then
			skip "$k: sparse (C=2) read every file compiled" \
				"the kernel refused $(sparse --version 2>&1 | head -1): ${refused#*: }"
		else
			[ "$rc" = 0 ] && [ "$ncc" -gt 0 ] && [ "$checked" = "$compiled" ]
			tap $? "$k: sparse (C=2) read every file compiled ($nchk of $ncc)" \
				"$(diff <(echo "$compiled") <(echo "$checked") |
					sed -n 's/^< \(.*\)/\1: compiled, not read by sparse/p; s/^> \(.*\)/\1: read by sparse, not compiled/p' |
					head -5)"
		fi
		[ "$k" = "${kernels%% *}" ] || continue
		# Calls between a module's files go down its layers (the
		# objects of the first kernel's build; Documentation/testing.rst)
		for mod in ete trbe; do
			out=$(python3 "$top/tools/testing/layers/check_layers.py" \
				--nm aarch64-linux-gnu-nm "$top/$mod/layers" \
				"$scratch/$mod" 2>&1)
			tap $? "layers of $mod.ko: $(echo "$out" | tail -n1 | sed 's/^# //')" \
				"$(echo "$out" | grep -E '^# |^[a-z]' | grep -v '^ok ')"
		done
		# The TRBE's registers and TRFCR_EL1, which the TRBE interrupt,
		# the flush timer and CPU PM access in hard IRQ context: an MRS
		# or MSR inline in the system-register backend's read or write,
		# not a search and a call through its table (issue 32 F13)
		hot="trblimitr_el1 trbptr_el1 trbbaser_el1 trbsr_el1 trbmar_el1 trbtrg_el1 trfcr_el1"
		for f in read:mrs write:msr; do
			insn=${f#*:}
			body=$(aarch64-linux-gnu-objdump -d "$scratch/ete/access-sysreg.o" |
				awk -v fn="<ete_sysreg_${f%%:*}>:" 'index($0, fn) { on = 1; next }
					on && /^$/ { exit } on')
			missing=
			for r in $hot; do
				grep -Eq "[[:space:]]$insn[[:space:]].*\b$r\b" <<<"$body" ||
					missing="$missing $r"
			done
			[ -n "$body" ] && [ -z "$missing" ]
			tap $? "ete_sysreg_${f%%:*}: the TRBE's registers and TRFCR_EL1 by an inline ${insn^^}" \
				"${missing:+# not inline:$missing}"
		done
		# The drop policy's data_lost_tail store is complete before
		# the TRBE is enabled to write over the data it gives up: a
		# DSB ST (wmb()) between the gap record and the new window
		# (issue 32 F12; the model has no memory ordering to see it)
		aarch64-linux-gnu-objdump -dr --no-show-raw-insn "$scratch/trbe/hw.o" |
			awk '/^[0-9a-f]+ <.*>:$/ { gap = 0 }
				/R_AARCH64_CALL26[ \t]+trbe_stream_gap$/ { gap = 1; dsb = 0 }
				gap && /\tdsb\tst$/ { dsb = 1 }
				gap && /R_AARCH64_CALL26[ \t]+trbe_fill_window$/ {
					if (dsb) found = 1; gap = 0 }
				END { exit !found }'
		tap $? "trbe: a DSB ST between the drop policy's gap record and its new window (wmb() after data_lost_tail)"
	done
	rm -rf "$scratch"
fi
