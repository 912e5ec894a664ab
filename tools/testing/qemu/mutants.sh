#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make mutants: real faults in the driver, each switched in at build time,
# and the suites that must catch it run against it; then the model's
# checks switched off one at a time, and its KUnit suites run against each.
# Prints the kill table; exits 1 if a mutant survived or could not be run.
#
# A mutant is tools/testing/mutants/NAME.patch: a header (free text with a
# "Catch: REGEX" line, the RIG_ONLY pattern of the plan entries that must
# catch it, or "Catch: static" for static-checks.sh's build checks), then a
# unified diff against the tree.  Each is applied to a copy of the checkout
# (build/mutants/tree, a git repository of its own whose build/ shares this
# one's kernels), which check.sh then builds and boots on one kernel at EL1
# with only those entries.  A mutant is killed when that run fails (a
# failed case, a kernel report, a violation the model logged); it survived
# when every case passed; it is an error when the copy did not build or
# the run was not made.
#
# Usage: mutants.sh [--tap] [NAME...]   (default: every mutant, then the
#                                         model's checks)
#   --tap               print TAP (one case per mutant: ok when killed),
#                       as make check's self-test uses it
#   MUTANT_KERNEL=6.12  the kernel the mutants boot
#   MUTANT_CHECKS=no    leave out the model's checks
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$top/build
kernel=${MUTANT_KERNEL:-6.12}
work=$build/mutants
tree=$work/tree
mutdir=$top/tools/testing/mutants
tap=no
if [ "${1:-}" = --tap ]; then
	tap=yes
	shift
fi
names=("$@")
if [ ${#names[@]} = 0 ]; then
	for p in "$mutdir"/*.patch; do
		names+=("$(basename "$p" .patch)")
	done
	[ "${MUTANT_CHECKS:-yes}" = no ] || names+=(model-checks)
fi

# The copy: this checkout's files (tracked and new, as build-modules.sh
# takes them), committed as "base" in a repository of its own; its build/
# links to this one's kernels, their sources and busybox.  Kept between
# runs.  rsync compares contents and does not copy timestamps: a file
# comes over only if it changed, with the time of now, so make rebuilds
# it.  (With rsync -a, a second run gave trbe/hw.c back the checkout's
# older time, and the last mutant's hw.o stayed in the modules: every
# enable then broke the ISB rule in runs of other mutants.)
prepare_tree() {
	local d
	"$here/build-kernel.sh" "$build" "$kernel" >/dev/null || return 1
	mkdir -p "$tree/build"
	(cd "$top" && git ls-files -co --exclude-standard | grep -v '^build/') |
		rsync -rlp --checksum --files-from=- "$top/" "$tree/" || return 1
	for d in "kernel-$kernel" "linux-source-$kernel" busybox src; do
		[ -e "$build/$d" ] && ln -sfn "$build/$d" "$tree/build/$d"
	done
	(
		cd "$tree" || exit 1
		[ -d .git ] || git init -q || exit 1
		printf '/build/\n' >.git/info/exclude
		git add -A &&
			git -c user.name=mutants -c user.email=mutants@localhost \
				commit -q --allow-empty -m base &&
			git tag -f base >/dev/null
	)
}

# reset_tree: the copy back at "base", build/ kept.  git gives each file
# it restores the time of now, newer than the mutant's object.
reset_tree() {
	git -C "$tree" checkout -qf base && git -C "$tree" clean -qfd
}

# run_check LOG [VAR=VALUE...]: check.sh of the copy, EL1 on one kernel, no
# host suite; its exit status
run_check() {
	local log=$1
	shift
	env "$@" RIG_HOST_SUITES=no RIG_KERNELS="$kernel" RIG_RUNS=el1 \
		VM_TIMEOUT="${VM_TIMEOUT:-1200}" \
		"$tree/tools/testing/qemu/check.sh" >"$log" 2>&1
}

# The failed cases of a check.sh log: the suites' and their cases' names
failed_cases() {
	grep -oE '(FAIL|not ok [0-9]+) +(\[[^]]*\] +)?[A-Za-z0-9_./:-]+( [A-Za-z0-9_./-]+)?' "$1" |
		sed -E 's/^(FAIL|not ok [0-9]+) +//' | awk '!seen[$0]++' |
		head -n 6 | paste -sd ';' -
}

# result NAME VERDICT WHAT: one row of the table
rows=()
fails=0
n=0
result() {
	n=$((n + 1))
	rows+=("$(printf '%-34s %-9s %s' "$1" "$2" "$3")")
	[ "$2" = killed ] || fails=$((fails + 1))
	if [ "$tap" = yes ]; then
		if [ "$2" = killed ]; then
			echo "ok $n - mutant $1 killed: $3"
		else
			echo "not ok $n - mutant $1 $2: $3"
		fi
	fi
}

# A driver mutant: applied, built, booted with the entries that must
# catch it
run_mutant() {
	local name=$1 patch=$mutdir/$1.patch log=$work/$1.log catch res
	if [ ! -f "$patch" ]; then
		result "$name" error "no $patch"
		return
	fi
	catch=$(sed -n 's/^Catch: *//p' "$patch" | head -n 1)
	if [ -z "$catch" ]; then
		result "$name" error "no Catch: line in its header"
		return
	fi
	reset_tree || { result "$name" error "the copy could not be reset"; return; }
	if ! git -C "$tree" apply "$patch" 2>"$log"; then
		result "$name" error "does not apply: $(head -n 1 "$log")"
		return
	fi
	if [ "$catch" = static ]; then
		RIG_KERNELS=$kernel "$tree/tools/testing/qemu/static-checks.sh" \
			"$tree/build" build >"$log" 2>&1
		if grep -q '^not ok' "$log"; then
			result "$name" killed "$(grep '^not ok' "$log" | head -n 2 |
				sed -E 's/^not ok [0-9]+ (- )?//' | paste -sd ';' -)"
		elif grep -q '^ok' "$log"; then
			result "$name" survived "static checks all passed"
		else
			result "$name" error "static-checks.sh ran nothing (log $log)"
		fi
		return
	fi
	run_check "$log" RIG_ONLY="$catch"
	res=$(grep '^RESULT:' "$log" | tail -n 1)
	if grep -q '^check: .* failed (exit' "$log"; then
		result "$name" error "$(grep '^check: .* failed (exit' "$log" | head -n 1) (log $log)"
	elif [[ $res =~ ^RESULT:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
		if [ "${BASH_REMATCH[2]}" -gt 0 ]; then
			result "$name" killed "$(failed_cases "$log")"
		elif [ "${BASH_REMATCH[1]}" -gt 0 ]; then
			result "$name" survived "${res#RESULT: } ($catch)"
		else
			result "$name" error "nothing ran ($catch; log $log)"
		fi
	else
		result "$name" error "no RESULT line (log $log)"
	fi
}

# The model's checks, each switched off in turn (disable_checks), with the
# model's KUnit suites loaded again: a guest program (mutants/guest/) that
# prints a TAP case per check, ok when some case failed with it off
run_model_checks() {
	local log=$work/model-checks.log t
	reset_tree || { result model-checks error "the copy could not be reset"; return; }
	run_check "$log" RIG_ONLY='^$' EXTRA_TESTS="$tree/tools/testing/mutants/guest"
	t=$tree/build/runs/$kernel/el1/ksft/model_checks_masked.tap
	if [ ! -s "$t" ]; then
		result model-checks error "no TAP from the guest (log $log)"
		return
	fi
	# "ok N - NAME masked: ...", the first case the baseline
	local re='^(not )?ok [0-9]+ - ([A-Za-z0-9_]+):? (.*)$' verdict
	while read -r line; do
		[[ $line =~ $re ]] || continue
		if [ "${BASH_REMATCH[2]}" = baseline ]; then
			# every check on: nothing may fail, or no kill means anything
			[ -z "${BASH_REMATCH[1]}" ] && continue
			result "model checks baseline" error "${BASH_REMATCH[3]}"
			continue
		fi
		verdict=killed
		[ -n "${BASH_REMATCH[1]}" ] && verdict=survived
		result "model check ${BASH_REMATCH[2]}" "$verdict" "${BASH_REMATCH[3]#masked: }"
	done < <(grep -E '^(not )?ok [0-9]+ - ' "$t")
}

mkdir -p "$work"
t0=$(date +%s)
[ "$tap" = yes ] && echo "TAP version 13"
if ! prepare_tree >"$work/prepare.log" 2>&1; then
	[ "$tap" = yes ] && echo "1..1" && echo "not ok 1 - the mutants' copy of the tree (log $work/prepare.log)"
	echo "mutants: the copy of the tree could not be made (log $work/prepare.log)" >&2
	exit 1
fi
for name in "${names[@]}"; do
	[ "$tap" = yes ] || echo "==> mutant $name" >&2
	if [ "$name" = model-checks ]; then
		run_model_checks
	else
		run_mutant "$name"
	fi
done
reset_tree
[ "$tap" = yes ] && echo "1..$n"
{
	echo
	echo "Kill table (kernel $kernel, $(($(date +%s) - t0)) s):"
	printf '  %-34s %-9s %s\n' mutant verdict "caught by / why"
	printf '  %s\n' "${rows[@]}"
	echo "mutants: $((n - fails)) of $n killed"
} | { if [ "$tap" = yes ]; then sed 's/^/# /'; else cat; fi; }
[ "$fails" = 0 ]
