#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README's test command (make check): set up the host, build the test kernel,
# the modules and the test programs, run the host-side suites, boot the VM at
# EL1 for the whole suite and at EL2 for the smoke subset, and judge it all.
#
# Environment:
#   RIG_FAULT=warn|oops|kasan|leak|hang|kunit|ksft  add a canary that fails
#   EXTRA_TESTS=DIR   also run DIR's executables as kselftest-style programs
#   RIG_KERNELS="6.1 6.12 7.3"  the kernels (Debian's linux-source-VERSION,
#                     fetched by rig-apt.sh whatever the host's release) to
#                     build and boot: the EL1 run (the KUnit suites and the
#                     kselftests) boots each; the full-volume and "newest"
#                     entries and the smoke runs boot the last one listed
#                     (7.3: Debian's newest, from trixie-backports)
#   RIG_RUNS="el1 el2 acpi"  which VM runs to make (default all three; "acpi" boots
#                       UEFI+ACPI with the tables of acpi/ for the smoke subset)
#   VM_TIMEOUT=SECONDS  hard timeout of one VM run (default 1500)
#   RIG_ONLY=REGEX    keep only the plan entries whose name matches REGEX
#                     (module loads are always kept): for iterating on one
#                     suite; the result says how many entries were left out
#   RIG_HOST_SUITES=no  no host or post suite (with RIG_ONLY, to iterate on
#                     VM entries without the host's cores going to the rest;
#                     the result counts only the VM's entries)
#   RIG_CACHE=DIR     the kernels built, kept for other checkouts of this
#                     machine (kernel-cache.sh; default /var/cache/ete-rig,
#                     "none": no cache)
#   RIG_VM_LOCK=FILE  take an exclusive flock on FILE around each VM run, so
#                     several checkouts on one machine never boot at once
#
# Host suites: selftest/, static checks and host.d/*.sh (each called as
# "host.d/NAME.sh BUILD_DIR", printing TAP) once the modules are built;
# post.d/*.sh once per kernel after its VM runs, each called as
# "post.d/NAME.sh BUILD_DIR RUN..." (RUN is KERNEL/el1, KERNEL/el2 or
# KERNEL/acpi, whose results are in BUILD_DIR/runs/RUN) and printing TAP.
# Both run in the background at nice 19, beside the VM: the VM leaves part
# of the host's cores idle, and a niced job takes only those (the VM's own
# share is kept, so no VM test runs slower for it).  The post suites of one
# kernel run after those of the kernel before (they share scratch folders).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$top/build
fault=${RIG_FAULT:-}
extra=${EXTRA_TESTS:-}
runs=${RIG_RUNS:-el1 el2 acpi}
kernels=${RIG_KERNELS:-6.1 6.12 7.3}
last_kernel=${kernels##* }
first_kernel=${kernels%% *}
export RIG_KERNELS=$kernels
vm_timeout=${VM_TIMEOUT:-1500}
only=${RIG_ONLY:-}
times=()
t_all=$(date +%s)

phase() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	echo "==> $name"
	"$@"
	rc=$?
	times+=("$(printf '%-28s %5d s' "$name" $(($(date +%s) - t0)))")
	if [ "$rc" != 0 ]; then
		echo "check: $name failed (exit $rc)" >&2
		kill_bg
		print_times
		echo "RESULT: 0 passed, 1 failed, 0 skipped"
		exit 1
	fi
}

print_times() {
	local f
	echo
	echo "Time per phase:"
	printf '  %s\n' "${times[@]}"
	for f in "$build"/host/time.*; do
		[ -f "$f" ] && echo "  $(cat "$f")"
	done
	printf '  %-28s %5d s\n' "total" $(($(date +%s) - t_all))
}

# Background groups of host suites: bg NAME GROUP FUNCTION [ARGS...] runs
# FUNCTION niced in a process group of its own (killed if the check stops
# early), its suites' --host arguments going to BUILD_DIR/host/args.GROUP
# and its time to BUILD_DIR/host/time.GROUP.
bg_pids=()
bg() {
	local name=$1 group=$2
	shift 2
	echo "==> $name (in the background, nice 19)"
	: >"$build/host/args.$group"
	set -m
	(
		renice -n 19 -p "$BASHPID" >/dev/null
		t0=$(date +%s)
		suite_args=$build/host/args.$group
		"$@"
		printf '%-28s %5d s (background)\n' "$name" $(($(date +%s) - t0)) \
			>"$build/host/time.$group"
	) </dev/null &
	bg_pids+=($!)
	set +m
}
kill_bg() {
	local p
	for p in "${bg_pids[@]}"; do
		kill -- "-$p" 2>/dev/null
	done
}
trap kill_bg EXIT
trap 'exit 130' INT TERM

phase "host setup" "$here/setup-host.sh" "$build"
# The kernels build side by side: each one's serial steps (unpacking the
# source, configuring, the final links) then overlap the other's compiling.
# A kernel this machine built before for another checkout is copied from
# the rig's cache (kernel-cache.sh: same stamp, same inputs) and judged by
# build-kernel.sh like its own.
build_kernels() {
	local k pids=() rc=0 p
	for k in $kernels; do
		(
			"$here/kernel-cache.sh" restore "$build" "$k" ||
				echo "kernel $k: not copied from the cache"
			"$here/build-kernel.sh" "$build" "$k" || exit 1
			"$here/kernel-cache.sh" save "$build" "$k" ||
				echo "kernel $k: not kept in the cache"
		) &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	return $rc
}
phase "test kernels $kernels" build_kernels
for k in $kernels; do
	phase "modules for $k" "$here/build-modules.sh" "$build" "$k"
done
phase "test programs" make -s -C "$top/tools/testing/selftests/ete" \
	OUT="$build/selftests" KSFT_DIR="$build/linux-source-$first_kernel/tools/testing/selftests"
phase "user tools" make -s -C "$top/tools/ete" OUT="$build/tools"

# The host tools the post suites decode with, built once here (the post
# suites of two kernels may run at once: their make finds them current).
phase "host tools" make -s -C "$top/tools/ete" host OUT="$build/host-tools"

# Host-side suites: each leaves a TAP file (and FILE.rc) and its --host
# argument of rig_results.py in the file $suite_args.  Each runs under
# timeout(1) with a budget of RIG_SUITE_TIMEOUT seconds (default 1200; 600
# more per kernel for the static checks and the production build, twice as
# much for e2e_decode and perf_decode), or RIG_SUITE_TIMEOUT_<suite> for one
# (RIG_SUITE_TIMEOUT_e2e_decode=1800):
# when it is spent the suite's whole process group is killed (TERM, then
# KILL 30 s later) and FILE.timeout holds the budget, which rig_results.py
# reports as the suite's failure.  timeout(1) puts the suite in a process
# group of its own, which kill_bg does not reach: a TERM to this shell is
# passed on to it.
rm -rf "$build/host"
mkdir -p "$build/host"
host_suite() {
	local name=$1
	shift
	local tap=$build/host/${name// /-}.tap var=RIG_SUITE_TIMEOUT_${name%% *}
	local budget=${RIG_SUITE_TIMEOUT:-1200} pid rc t0=$SECONDS
	# the static checks build every module with sparse once per kernel,
	# the production build against Debian's headers of each kernel and
	# its RT flavour (on a loaded 2-core host 1200 s saw 7 of 12 cases);
	# the decoders of the last kernel's full-volume streams list and
	# decoded 32 MiB per CPU until issue 31 cut them to 8 MiB (e2e_decode
	# took 620 s beside a VM and 1200 with two more jobs on a 2-core
	# host; a limit is a hang guard)
	case $name in
	static_checks | production_build) budget=$((budget + 600 * $(echo $kernels | wc -w))) ;;
	"e2e_decode "* | "perf_decode "*) budget=$((budget * 2)) ;;
	esac
	budget=${!var:-$budget}
	rm -f "$tap.timeout"
	timeout -k 30 "$budget" "$@" >"$tap" 2>&1 &
	pid=$!
	trap 'kill "$pid" 2>/dev/null; exit 143' TERM
	wait "$pid"
	rc=$?
	trap - TERM
	echo $rc >"$tap.rc"
	# 124: timed out (TERM); 137: KILLed after the 30 s grace
	if [ $rc = 124 ] || { [ $rc = 137 ] && [ $((SECONDS - t0)) -ge "$budget" ]; }; then
		echo "$budget" >"$tap.timeout"
	fi
	printf '%s\n' --host "$name=$tap" >>"$suite_args"
}
# A suite file without its executable bit is one failure (printf through
# host_suite's timeout: a program, not a function), not a suite that
# silently never runs
not_executable='1..1\nnot ok 1 %s is not executable: chmod +x it, or it does not run\n'
host_tests() {
	host_suite rig_parser python3 "$here/selftest/test_rig_results.py"
	host_suite static_checks "$here/static-checks.sh" "$build"
	local script
	for script in "$here"/host.d/*.sh; do
		if [ -x "$script" ]; then
			host_suite "$(basename "$script" .sh)" "$script" "$build"
		else
			host_suite "$(basename "$script" .sh)" printf "$not_executable" "${script#"$top"/}"
		fi
	done
}
[ "${RIG_HOST_SUITES:-yes}" = no ] && host_tests() { :; }
bg "host suites" host host_tests

# The plan of each run: every manifest list, plus the fault canary if asked.
manifests=$build/manifest.d
rm -rf "$manifests"
mkdir -p "$manifests"
cp "$here"/manifest.d/*.list "$manifests/"
if [ -n "$only" ]; then
	for l in "$manifests"/*.list; do
		awk -v only="$only" '/^[ \t]*#/ || NF < 3 || $1 == "insmod" ||
			$3 ~ only' "$l" >"$l.new" && mv "$l.new" "$l"
	done
	echo "check: RIG_ONLY='$only': the plan keeps" \
		"$(cat "$manifests"/*.list | grep -vc '^[[:space:]]*#\|^insmod')" \
		"test entries and every module load"
fi
case "$fault" in
"") ;;
kunit) printf 'kunit\tsmoke\trig_canary_kunit_fail\trig_canary_fail\n' >"$manifests/95-fault.list" ;;
ksft) printf 'ksft\tsmoke\trig_canary_ksft_fail\n' >"$manifests/95-fault.list" ;;
warn | oops | kasan | leak | hang)
	printf 'insmod\tsmoke\trig_canary\tfault=%s\n' "$fault" >"$manifests/95-fault.list" ;;
*) echo "check: unknown RIG_FAULT=$fault" >&2; exit 2 ;;
esac
for k in $kernels; do
	phase "initramfs for $k" env ETE_MODULES="$build/mod-$k" \
		"$here/build-initramfs.sh" "$build/initramfs-$k.cpio.gz" "$build" "$manifests" "$extra"
done

# The ACPI boot's initrd: the table-upgrade cpio, then the initramfs.
acpi_initrd() {
	"$here/acpi/build-tables.sh" "$build/acpi-tables.cpio" &&
		cat "$build/acpi-tables.cpio" "$build/initramfs-$1.cpio.gz" >"$build/acpi-initrd-$1"
}

# Host-side suites that read what the VM runs left (post.d/*.sh RUN_DIR...):
# post_tests KERNEL runs each script with that kernel's runs (after the
# post suites of the kernel before: flock); its results are labelled with
# the kernel.  A script with the line "# rig-post: last kernel" reads what
# no kernel changes (the tools' output on the captures: perf, ete-decode's
# features, the model's packets) and runs with the last kernel's runs only.
post_tests() {
	local k=$1 script name r mine=()
	exec 8>"$build/host/.post.lock"
	flock 8
	for r in "${post_runs[@]}"; do
		[ "${r%%/*}" = "$k" ] && mine+=("$r")
	done
	[ ${#mine[@]} -gt 0 ] || return 0
	for script in "$here"/post.d/*.sh; do
		name=$(basename "$script" .sh)
		[ "$k" = "$last_kernel" ] ||
			! grep -qx '# rig-post: last kernel' "$script" || continue
		if [ -x "$script" ]; then
			host_suite "$name $k" "$script" "$build" "${mine[@]}"
		else
			host_suite "$name $k" printf "$not_executable" "${script#"$top"/}"
		fi
	done
	return 0
}

[ "${RIG_HOST_SUITES:-yes}" = no ] && post_tests() { :; }

run_args=()
post_runs=()
# vm_run KERNEL LABEL RUN SUBSET [run-vm.sh options]
vm_run() {
	local k=$1 label=$2 dir=$build/runs/$1/$3 subset=$4
	shift 4
	rm -rf "$dir"
	mkdir -p "$dir"
	# the full-volume entries and those tagged "newest" on the last kernel,
	# the quick twins of the full-volume ones on the others
	local volume=quick
	[ "$k" = "$last_kernel" ] && volume=full
	cat "$manifests"/*.list | awk -v s="$subset" -v vol="$volume" \
		'!/^[ \t]*#/ && NF >= 3 && ($2 == "smoke" ||
		 (s == "all" && ($2 == "all" || $2 == vol ||
		  ($2 == "newest" && vol == "full"))))' >"$dir/plan"
	[ -n "$extra" ] && [ "$subset" = all ] && find "$extra" -maxdepth 1 -type f -perm -u+x -printf 'ksft\tall\t%f\n' | sort >>"$dir/plan"
	local initrd=$build/initramfs-$k.cpio.gz
	[ "${dir##*/}" = acpi ] && initrd=$build/acpi-initrd-$k
	local lock=()
	[ -n "${RIG_VM_LOCK:-}" ] && lock=(flock "$RIG_VM_LOCK")
	"${lock[@]}" "$here/run-vm.sh" "$@" -s "$subset" -v "$volume" -t "$vm_timeout" \
		"$build/kernel-$k/arch/arm64/boot/Image" "$initrd" "$dir"
	run_args+=(--run "$label $k=$dir")
	post_runs+=("$k/${dir##*/}")
	return 0
}
rm -rf "$build/runs"
# The last kernel boots first: its post suites (the decode of the
# full-volume streams, perf) are most of the host's work after the VMs,
# and so they run beside the other kernels' boots, not after them.
boot_order="$last_kernel"
for k in $kernels; do
	[ "$k" = "$last_kernel" ] || boot_order="$boot_order $k"
done
for k in $boot_order; do
	for r in $runs; do
		# The smoke runs add a boot path, not coverage a second kernel
		# would repeat: they boot the newest kernel asked for.
		[ "$r" = el1 ] || [ "$k" = "$last_kernel" ] || continue
		case $r in
		el1) phase "VM at EL1 on $k (whole suite)" vm_run "$k" EL1 el1 all ;;
		el2) phase "VM at EL2/VHE on $k (smoke)" vm_run "$k" EL2 el2 smoke -2 ;;
		acpi)
			phase "ACPI tables" acpi_initrd "$k"
			phase "VM with UEFI+ACPI on $k (smoke)" vm_run "$k" ACPI acpi smoke -a
			;;
		*) echo "check: unknown run '$r' in RIG_RUNS" >&2; exit 2 ;;
		esac
	done
	bg "host suites after the VM on $k" "post-$k" post_tests "$k"
done

# make mutants' machinery end to end on one mutant (issue 32 F8 undone):
# applied to a copy of the tree, built, booted on the last kernel with
# the suite that must catch it, and caught.  In the foreground, the VM's
# turn, beside the post suites of the kernel that booted last.
mutant_selftest() {
	suite_args=$build/host/args.mutant
	: >"$suite_args"
	MUTANT_KERNEL=$last_kernel MUTANT_CHECKS=no host_suite mutant_selftest \
		"$here/mutants.sh" --tap f08-no-isb-before-trbe-enable
}
if [ "${RIG_HOST_SUITES:-yes}" != no ] && [ -z "$only" ]; then
	phase "mutant self-test" mutant_selftest
fi

# Every background group done: the host suites, then each kernel's post
# suites, in that order for the report.
phase "the background suites" wait "${bg_pids[@]}"
bg_pids=()
host_args=()
for g in host $(printf 'post-%s ' $kernels) mutant; do
	[ -f "$build/host/args.$g" ] || continue
	mapfile -t a <"$build/host/args.$g"
	host_args+=("${a[@]}")
done

print_times
echo
python3 "$here/rig_results.py" "${host_args[@]}" "${run_args[@]}"
