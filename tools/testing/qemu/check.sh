#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README's test command (make check): set up the host, build the test kernel,
# the modules and the test programs, run the host-side suites, boot the VM at
# EL1 for the whole suite and at EL2 for the smoke subset, and judge it all.
#
# Environment:
#   RIG_FAULT=warn|oops|kasan|leak|hang|kunit|ksft  add a canary that fails
#   EXTRA_TESTS=DIR   also run DIR's executables as kselftest-style programs
#   RIG_RUNS="el1 el2 acpi"  which VM runs to make (default all three; "acpi" boots
#                       UEFI+ACPI with the tables of acpi/ for the smoke subset)
#   VM_TIMEOUT=SECONDS  hard timeout of one VM run (default 1500)
#   RIG_ONLY=REGEX    keep only the plan entries whose name matches REGEX
#                     (module loads are always kept): for iterating on one
#                     suite; the result says how many entries were left out
#   RIG_VM_LOCK=FILE  take an exclusive flock on FILE around each VM run, so
#                     several checkouts on one machine never boot at once
#
# Host suites: selftest/ and static checks before the VM; post.d/*.sh after
# it, each called as "post.d/NAME.sh BUILD_DIR RUN..." (RUN is el1 or el2,
# whose results are in BUILD_DIR/runs/RUN) and printing TAP.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$top/build
fault=${RIG_FAULT:-}
extra=${EXTRA_TESTS:-}
runs=${RIG_RUNS:-el1 el2 acpi}
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
		print_times
		echo "RESULT: 0 passed, 1 failed, 0 skipped"
		exit 1
	fi
}

print_times() {
	echo
	echo "Time per phase:"
	printf '  %s\n' "${times[@]}"
	printf '  %-28s %5d s\n' "total" $(($(date +%s) - t_all))
}

phase "host setup" "$here/setup-host.sh" "$build"
phase "test kernel" "$here/build-kernel.sh" "$build"
phase "modules" make -s -C "$top" modules
phase "test programs" make -s -C "$top/tools/testing/selftests/ete" \
	OUT="$build/selftests" KSFT_DIR="$build/linux-source-6.1/tools/testing/selftests"
phase "user tools" make -s -C "$top/tools/ete" OUT="$build/tools"

# Host-side suites: each leaves a TAP file (and FILE.rc).
mkdir -p "$build/host"
host_args=()
host_suite() {
	local name=$1
	shift
	"$@" >"$build/host/$name.tap" 2>&1
	echo $? >"$build/host/$name.tap.rc"
	host_args+=(--host "$name=$build/host/$name.tap")
}
host_tests() {
	host_suite rig_parser python3 "$here/selftest/test_rig_results.py"
	host_suite static_checks "$here/static-checks.sh" "$build"
}
phase "host suites" host_tests

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
phase "initramfs" "$here/build-initramfs.sh" "$build/initramfs.cpio.gz" "$build" "$manifests" "$extra"

# The ACPI boot's initrd: the table-upgrade cpio, then the initramfs.
acpi_initrd() {
	"$here/acpi/build-tables.sh" "$build/acpi-tables.cpio" &&
		cat "$build/acpi-tables.cpio" "$build/initramfs.cpio.gz" >"$build/acpi-initrd"
}

run_args=()
vm_run() {
	local label=$1 dir=$2 subset=$3
	shift 3
	rm -rf "$dir"
	mkdir -p "$dir"
	cat "$manifests"/*.list | awk -v s="$subset" \
		'!/^[ \t]*#/ && NF >= 3 && (s == "all" || $2 == "smoke")' >"$dir/plan"
	[ -n "$extra" ] && [ "$subset" = all ] && find "$extra" -maxdepth 1 -type f -perm -u+x -printf 'ksft\tall\t%f\n' | sort >>"$dir/plan"
	local initrd=$build/initramfs.cpio.gz
	[ "$label" = ACPI ] && initrd=$build/acpi-initrd
	if [ -n "${RIG_VM_LOCK:-}" ]; then
		flock "$RIG_VM_LOCK" "$here/run-vm.sh" "$@" -s "$subset" \
			-t "$vm_timeout" "$build/kernel/arch/arm64/boot/Image" \
			"$initrd" "$dir"
	else
		"$here/run-vm.sh" "$@" -s "$subset" -t "$vm_timeout" \
			"$build/kernel/arch/arm64/boot/Image" "$initrd" "$dir"
	fi
	run_args+=(--run "$label=$dir")
	return 0
}
for r in $runs; do
	case $r in
	el1) phase "VM at EL1 (whole suite)" vm_run EL1 "$build/runs/el1" all ;;
	el2) phase "VM at EL2/VHE (smoke)" vm_run EL2 "$build/runs/el2" smoke -2 ;;
	acpi)
		phase "ACPI tables" acpi_initrd
		phase "VM with UEFI+ACPI (smoke)" vm_run ACPI "$build/runs/acpi" smoke -a
		;;
	*) echo "check: unknown run '$r' in RIG_RUNS" >&2; exit 2 ;;
	esac
done

# Host-side suites that read what the VM runs left (post.d/*.sh RUN_DIR...).
post_tests() {
	local script name
	for script in "$here"/post.d/*.sh; do
		[ -x "$script" ] || continue
		name=$(basename "$script" .sh)
		host_suite "$name" "$script" "$build" $runs
	done
	return 0
}
phase "host suites after the VM" post_tests

print_times
echo
python3 "$here/rig_results.py" "${host_args[@]}" "${run_args[@]}"
