#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# etecap itself, built for the host, run against a tree standing in for
# the kernel's /sys and /dev ($ETECAP_SYSROOT; tools/ete/tests/
# fake_sysroot.c): 256 CPUs with holes (offline CPUs 100 and 200), each
# /dev/trbe<N> a file laid out as the device's mapping with CPU-specific
# published bytes, the START/STOP ioctls answered by an LD_PRELOAD
# (tools/ete/tests/fake_trbe_ioctl.c).  Checks which CPUs etecap
# configures, starts, drains and writes into the snapshot, and that a
# refused run says what to do and leaves -o DIR alone.
#
# Usage: etecap_sysroot.sh BUILD_DIR; prints TAP.
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
src=$top/tools/ete
out=$build/host/etecap_sysroot
rm -rf "$out"
mkdir -p "$out"

. "$here/../lib/tap.sh"

cflags=(-O1 -g -Wall -Wextra -D_GNU_SOURCE -I"$top/include/uapi")
if ! gcc "${cflags[@]}" -o "$out/fake_sysroot" "$src/tests/fake_sysroot.c" \
		2>"$out/build.log" ||
   ! gcc "${cflags[@]}" -shared -fPIC -o "$out/fake_trbe_ioctl.so" \
		"$src/tests/fake_trbe_ioctl.c" -ldl 2>>"$out/build.log" ||
   ! gcc "${cflags[@]}" -Wno-format-truncation -DETE_VERSION='"host-test"' \
		-o "$out/etecap" $(make -s --no-print-directory -C "$src" etecap-srcs) \
		-pthread \
		2>>"$out/build.log"; then
	tap 1 "etecap and the fake tree build for the host" "$(cat "$out/build.log")"
	finish
fi

online=0-99,101-199,201-255
expect=$( (seq 0 99; seq 101 199; seq 201 255) )
root=$out/root

# fresh tree for each case: sysfs files hold what that case wrote
fake() {
	rm -rf "$root" "$out/ioctl.log"
	"$out/fake_sysroot" "$root" 256 "$online" "$@"
}

# etecap OPTIONS...: run it against the tree; output in $out/run.log
run() {
	(cd "$out" && ETECAP_SYSROOT=$root FAKE_TRBE_LOG=$out/ioctl.log \
		LD_PRELOAD=$out/fake_trbe_ioctl.so ./etecap -q -t 100ms -e user \
		--no-kernel --others-max 0 "$@") >"$out/run.log" 2>&1
}

cpus_of() {	# the CPUs of a snapshot's trace files, sorted numerically
	ls "$1" | sed -n 's/^trace_cpu\([0-9]*\)\.bin$/\1/p' | sort -n
}

ioctl_cpus() {	# the CPUs the log shows ioctl $1 for
	sed -n "s|^$1 .*/dev/trbe\([0-9]*\)\$|\1|p" "$out/ioctl.log" 2>/dev/null | sort -n
}

# the bytes fake_sysroot published for CPU $1 ("cpu<N> " repeated, 64 + N)
published() {
	local w="cpu$1 " s=""
	while [ ${#s} -lt $((64 + $1)) ]; do s=$s$w; done
	printf '%s' "${s:0:$((64 + $1))}"
}

# data_tail (offset 136 of the header) of CPU $1's device
data_tail() {
	od -An -t u8 -j 136 -N 8 "$root/dev/trbe$1" | tr -d ' '
}

# 1: no -c, 256 CPUs, CPUs 100 and 200 offline
fake
snap=$out/all
if ! run -o "$snap"; then
	tap 1 "no -c: every online CPU of 256 with holes" "$(cat "$out/run.log")"
elif [ "$(cpus_of "$snap")" != "$expect" ]; then
	tap 1 "no -c: every online CPU of 256 with holes" \
		"trace files for: $(cpus_of "$snap" | tr '\n' ' ')"
else
	tap 0 "no -c: every online CPU of 256 with holes (254 trace files, not 100 or 200)"
fi
[ "$(ioctl_cpus start)" = "$expect" ] && [ "$(ioctl_cpus stop)" = "$expect" ] &&
	tap 0 "started and stopped each online CPU once" ||
	tap 1 "started and stopped each online CPU once" \
		"start: $(ioctl_cpus start | wc -l), stop: $(ioctl_cpus stop | wc -l)"
bad=""
for c in $expect; do
	cmp -s <(published "$c") "$snap/trace_cpu$c.bin" || bad="$bad $c"
	[ "$(data_tail "$c")" = $((64 + c)) ] || bad="$bad tail$c"
done
[ -z "$bad" ] && tap 0 "each CPU's trace file holds exactly its published bytes, data_tail released" ||
	tap 1 "each CPU's trace file holds exactly its published bytes" "wrong:$(echo $bad | cut -d" " -f1-12)"
devs=$(grep -c '^device[0-9]*=ETE_' "$snap/snapshot.ini")
[ "$devs" = 254 ] && ! grep -q 'ETE_100\|ETE_200' "$snap/snapshot.ini" &&
	tap 0 "snapshot.ini lists the 254 trace units" ||
	tap 1 "snapshot.ini lists the 254 trace units" "$devs ETE devices"
cfg=""
for c in 0 99 101 255; do
	[ "$(cat "$root/sys/class/ete/ete$c/reset")" = 1 ] || cfg="$cfg reset$c"
	[ -n "$(cat "$root/sys/class/ete/ete$c/el_ns")" ] || cfg="$cfg el_ns$c"
done
[ -z "$cfg" ] && tap 0 "configured units 0, 99, 101 and 255 (reset, el_ns written)" ||
	tap 1 "configured units 0, 99, 101 and 255" "not written:$cfg"
# etecap.txt says why the capture ended: -t 100ms passed
grep -qx 'ended=duration' "$snap/etecap.txt"
tap $? "etecap.txt: ended=duration (-t)" "$(cat "$snap/etecap.txt" 2>&1 | head -5)"

# 2: a sparse -c
fake
if run -c 1,3,255 -o "$out/sparse" && [ "$(cpus_of "$out/sparse" | tr '\n' ,)" = 1,3,255, ] &&
   [ "$(ioctl_cpus start | tr '\n' ,)" = 1,3,255, ] &&
   [ -z "$(cat "$root/sys/class/ete/ete2/reset")" ] &&
   [ "$(cat "$root/sys/class/ete/ete3/reset")" = 1 ]; then
	tap 0 "-c 1,3,255: those CPUs only, the others untouched"
else
	tap 1 "-c 1,3,255: those CPUs only" \
		"$(cat "$out/run.log"; echo "files: $(cpus_of "$out/sparse" | tr '\n' ' ')"; echo "started: $(ioctl_cpus start | tr '\n' ' ')")"
fi

# 3: an offline CPU asked for
fake
if run -c 7,100 -o "$out/offline"; then
	tap 1 "-c naming offline CPU 100 is refused" "etecap returned 0"
elif grep -q 'cpu100' "$out/run.log" && [ ! -e "$out/offline" ] && [ ! -e "$out/ioctl.log" ]; then
	tap 0 "-c naming offline CPU 100 is refused, naming it, nothing started or written"
else
	tap 1 "-c naming offline CPU 100 is refused, naming it" "$(cat "$out/run.log")"
fi

# 4: an online CPU with no trace unit; the earlier snapshot stays as it was
fake 77
before=$(cd "$snap" && find . -type f | sort | xargs sha256sum | sha256sum)
if run -o "$snap"; then
	tap 1 "CPU 77 without a trace unit: refused" "etecap returned 0"
else
	after=$(cd "$snap" && find . -type f | sort | xargs sha256sum | sha256sum)
	if grep -q 'cpu77 has no trace unit' "$out/run.log" &&
	   grep -q 'modprobe ete' "$out/run.log" &&
	   [ "$before" = "$after" ] && [ ! -e "$snap.tmp" ] && [ ! -e "$out/ioctl.log" ]; then
		tap 0 "CPU 77 without a trace unit: refused with what to do, the old snapshot intact"
	else
		tap 1 "CPU 77 without a trace unit: refused with what to do, the old snapshot intact" \
			"$(cat "$out/run.log"; [ "$before" = "$after" ] || echo "snapshot changed"; ls -d "$snap".* 2>/dev/null)"
	fi
fi

# 5: a CPU whose buffer device is missing
fake
rm -f "$root/dev/trbe150"
if run -o "$out/nodev"; then
	tap 1 "CPU 150 without /dev/trbe150: refused" "etecap returned 0"
elif grep -q 'cpu150 has no trace buffer' "$out/run.log" && grep -q 'modprobe trbe' "$out/run.log" &&
     [ ! -e "$out/nodev" ]; then
	tap 0 "CPU 150 without /dev/trbe150: refused, saying to load trbe.ko"
else
	tap 1 "CPU 150 without /dev/trbe150: refused, saying to load trbe.ko" "$(cat "$out/run.log")"
fi

# 6: a second complete run replaces the snapshot and keeps the first as DIR.old
fake
if run -c 5 -o "$snap" && [ "$(cpus_of "$snap")" = 5 ] &&
   [ "$(cpus_of "$snap.old" | wc -l)" = 254 ]; then
	tap 0 "a complete run replaces DIR and keeps the previous snapshot as DIR.old"
else
	tap 1 "a complete run replaces DIR and keeps the previous snapshot as DIR.old" \
		"$(cat "$out/run.log"; ls -d "$snap"*)"
fi

# 7: paths as long as Linux takes: the tree and the snapshot under a
# directory ~1900 characters deep (the checkout's own path is whatever CI
# gives; etecap once cut paths at 96 to 512 bytes and looked for the
# units somewhere else)
seg=$(printf 'long-directory-name-%.0s' 1 2 3 4 5 6 7 8 9)
deep=$out/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg/$seg
mkdir -p "$deep"
saved_root=$root
root=$deep/root
fake
if run -c 1,3,255 -o "$deep/snap" && [ "$(cpus_of "$deep/snap" | tr '\n' ,)" = 1,3,255, ] &&
   cmp -s <(published 255) "$deep/snap/trace_cpu255.bin" &&
   [ "$(cat "$root/sys/class/ete/ete255/reset")" = 1 ] &&
   [ "$(grep -c '^device[0-9]*=ETE_' "$deep/snap/snapshot.ini")" = 3 ]; then
	tap 0 "a tree and a snapshot ${#deep} characters deep: traced, written and listed"
else
	tap 1 "a tree and a snapshot ${#deep} characters deep" \
		"$(cat "$out/run.log"; echo "files: $(cpus_of "$deep/snap" 2>/dev/null | tr '\n' ' ')")"
fi

# 8: a path longer than Linux takes is refused up front, nothing written
fake
# past PATH_MAX (4,096) whatever the build directory's own length
toolong=$deep
while [ ${#toolong} -le 4200 ]; do toolong=$toolong/$seg; done
toolong=$toolong/snap
if run -c 1 -o "$toolong"; then
	tap 1 "-o longer than PATH_MAX: refused" "etecap returned 0"
elif grep -q 'File name too long' "$out/run.log" && [ ! -e "$out/ioctl.log" ] &&
     [ ! -e "$deep/$seg" ]; then
	tap 0 "-o of ${#toolong} characters: refused (File name too long), nothing started or made"
else
	tap 1 "-o longer than PATH_MAX: refused, nothing started or made" \
		"$(cat "$out/run.log"; ls "$deep")"
fi
root=$saved_root

# snap_hash DIR: one hash of every file of DIR
snap_hash() {
	(cd "$1" && find . -type f | sort | xargs sha256sum | sha256sum)
}

# 9-10: a device that fails under the snapshot: the previous one stays
fake
werr=$out/werr
run -c 1,3 -o "$werr"
before=$(snap_hash "$werr")
# failing CASE ENV WANT: etecap with ENV set fails, saying WANT
failing() {
	local rc
	fake
	(export "${2?}" && run -c 1,3 -o "$werr")
	rc=$?
	if [ $rc != 0 ] && grep -qF "$3" "$out/run.log" &&
	   [ "$(snap_hash "$werr")" = "$before" ] && [ ! -e "$werr.tmp" ] &&
	   [ ! -e "$werr.old" ]; then
		tap 0 "$1: exit $rc, \"$3\", the previous snapshot kept, $(basename "$werr").tmp removed"
	else
		tap 1 "$1: exit non-zero naming the file, the previous snapshot kept, DIR.tmp removed" \
			"$(echo "exit $rc"; cat "$out/run.log"; ls -d "$werr"*;
			   [ "$(snap_hash "$werr")" = "$before" ] || echo "snapshot changed")"
	fi
}
failing "a trace file's write finds the device full" \
	FAKE_WRITE_FAIL=ENOSPC:/trace_cpu3.bin \
	"werr.tmp/trace_cpu3.bin: No space left on device"
failing "fsync of ETE_1.ini reports an I/O error" \
	FAKE_FSYNC_FAIL=EIO:/ETE_1.ini "werr.tmp/ETE_1.ini: Input/output error"

# 11: a real tmpfs that fills up while the snapshot is written: room for
# the buffers (what etecap checks first), not for the snapshot's files;
# in a mount namespace of its own (unshare), where one can be had
fake
cat >"$out/full.sh" <<'FULL_SH'
set -u
out=$1 root=$2 t=$1/tmpfs
mkdir -p "$t" && mount -t tmpfs -o size=1m tmpfs "$t" || exit 90
cap() {
	(cd "$out" && ETECAP_SYSROOT=$root FAKE_TRBE_LOG=$out/ioctl.log \
		LD_PRELOAD=$out/fake_trbe_ioctl.so ./etecap -q -t 100ms -e user \
		--no-kernel --others-max 0 -c 1,3 -o "$t/snap") >"$out/full.log" 2>&1
}
cap || exit 91
(cd "$t/snap" && find . -type f | sort | xargs sha256sum | sha256sum) >"$out/full.before"
used=$(df -k --output=used "$t" | tail -1 | tr -d ' ')
mount -o remount,size=$((used + 12))k "$t" || exit 92
cap
echo $? >"$out/full.rc"
(cd "$t/snap" && find . -type f | sort | xargs sha256sum | sha256sum) >"$out/full.after"
ls -d "$t"/snap* >"$out/full.ls"
umount "$t"
FULL_SH
if [ "$(id -u)" = 0 ]; then ns=(unshare -m); else ns=(unshare -rm); fi
"${ns[@]}" bash "$out/full.sh" "$out" "$root" >"$out/full.out" 2>&1
rc=$?
if [ $rc = 90 ] || { [ $rc = 1 ] && grep -q '^unshare' "$out/full.out"; }; then
	skip "a real full tmpfs" "no mount namespace and tmpfs here: $(head -1 "$out/full.out")"
elif [ $rc != 0 ]; then
	tap 1 "a real full tmpfs: the set-up failed (exit $rc)" \
		"$(cat "$out/full.out" "$out/full.log" 2>/dev/null)"
elif [ "$(cat "$out/full.rc")" != 0 ] && grep -q 'No space left on device' "$out/full.log" &&
     cmp -s "$out/full.before" "$out/full.after" && [ "$(wc -l <"$out/full.ls")" = 1 ]; then
	tap 0 "a real tmpfs full while writing: exit $(cat "$out/full.rc"), $(grep -m1 'No space' "$out/full.log" | sed 's|.*/tmpfs/||'), the previous snapshot kept, nothing else left"
else
	tap 1 "a real tmpfs full while writing: exit non-zero, the previous snapshot kept" \
		"$(echo "exit $(cat "$out/full.rc")"; cat "$out/full.log" "$out/full.ls")"
fi

# 12: the command's exit status is etecap's, the snapshot kept.  The
# command must end the capture, not run's -t 100ms (a command etecap
# ends does not count, and a loaded host may take longer than that to
# start one): -t 3600s, given last, is the one that counts.
fake
run -c 1 -t 3600s -o "$out/status" -- sh -c 'exit 3'
rc=$?
[ $rc = 3 ] && [ -s "$out/status/snapshot.ini" ] &&
	grep -qx 'command_exit=3' "$out/status/etecap.txt"
tap $? "a command that exits 3: etecap exits 3, the snapshot written (command_exit=3)" \
	"$(echo "exit $rc"; cat "$out/run.log")"
fake
run -c 1 -t 3600s -o "$out/status" -- sh -c 'kill -TERM $$'
rc=$?
[ $rc = 143 ] && [ -s "$out/status/snapshot.ini" ]
tap $? "a command killed by SIGTERM: etecap exits 143 (128 + 15), the snapshot written" \
	"$(echo "exit $rc"; cat "$out/run.log")"

# 14: a command is traced in task mode: each CPU's file is bound to the
# command's PID (ETE_TRBE_IOC_SET_TASKS) before that CPU's START, the same
# PID on every CPU; --all-tasks binds none
fake
run -c 1,3 -t 3600s -o "$out/tasks" -- true
rc=$?
order=$(sed -n 's|^\(tasks\):\([0-9]*\) .*/dev/trbe\([0-9]*\)$|\3 \1 \2|p; s|^\(start\) .*/dev/trbe\([0-9]*\)$|\2 \1|p' \
	"$out/ioctl.log" 2>/dev/null | tr '\n' ';')
pid=$(sed -n 's|^tasks:\([0-9]*\) .*|\1|p' "$out/ioctl.log" 2>/dev/null | sort -u)
[ $rc = 0 ] && [ "$(echo "$pid" | wc -w)" = 1 ] && [ "${pid:-0}" -gt 1 ] &&
	[ "$order" = "1 tasks $pid;3 tasks $pid;1 start;3 start;" ] &&
	grep -qx "tasks=$pid" "$out/tasks/etecap.txt"
tap $? "a command: each CPU bound to its PID before the starts (task mode), etecap.txt says tasks=PID" \
	"$(echo "exit $rc, ioctls: $order"; grep '^tasks' "$out/tasks/etecap.txt"; cat "$out/run.log")"
fake
run -c 1,3 -t 3600s -o "$out/tasks" --all-tasks -- true
rc=$?
[ $rc = 0 ] && ! grep -q '^tasks' "$out/ioctl.log" &&
	[ "$(ioctl_cpus start | tr '\n' ,)" = 1,3, ] &&
	grep -qx 'tasks=all' "$out/tasks/etecap.txt"
tap $? "--all-tasks: no CPU bound, both started, etecap.txt says tasks=all" \
	"$(echo "exit $rc"; cat "$out/ioctl.log" "$out/run.log")"

# 26: --sample writes every unit's sample_window and sample_period (after
# its reset, before the start), and etecap.txt says sample=W/P; without
# it neither file is written and etecap.txt says sample=off
fake
run -c 1,3 -t 3600s -o "$out/sample" --sample 1000/10000 -- true
rc=$?
got=
for c in 1 3; do
	got="$got$(cat "$root/sys/class/ete/ete$c/sample_window")/"
	got="$got$(cat "$root/sys/class/ete/ete$c/sample_period") "
done
[ $rc = 0 ] && [ "$got" = "1000/10000 1000/10000 " ] &&
	grep -qx 'sample=1000/10000' "$out/sample/etecap.txt"
tap $? "--sample 1000/10000: each unit's sample_window and sample_period written, etecap.txt says sample=1000/10000" \
	"$(echo "exit $rc, files: $got"; grep '^sample' "$out/sample/etecap.txt"; cat "$out/run.log")"
fake
run -c 1 -t 3600s -o "$out/sample" -- true
rc=$?
[ $rc = 0 ] && [ ! -s "$root/sys/class/ete/ete1/sample_window" ] &&
	grep -qx 'sample=off' "$out/sample/etecap.txt"
tap $? "without --sample: sample_window not written, etecap.txt says sample=off" \
	"$(echo "exit $rc"; grep '^sample' "$out/sample/etecap.txt"; cat "$out/run.log")"

# 23: -p PID is task mode too: every CPU bound to that PID before the
# starts, and the capture ends with the process; two processes are refused
# in task mode, before anything is opened
fake
sleep 2 &
sleeper=$!
run -c 1,3 -t 3600s -o "$out/attach" -p "$sleeper"
rc=$?
wait "$sleeper"
order=$(sed -n 's|^\(tasks\):\([0-9]*\) .*/dev/trbe\([0-9]*\)$|\3 \1 \2|p; s|^\(start\) .*/dev/trbe\([0-9]*\)$|\2 \1|p' \
	"$out/ioctl.log" 2>/dev/null | tr '\n' ';')
[ $rc = 0 ] && [ "$order" = "1 tasks $sleeper;3 tasks $sleeper;1 start;3 start;" ] &&
	grep -qx 'ended=tasks' "$out/attach/etecap.txt" &&
	grep -qx "tasks=$sleeper" "$out/attach/etecap.txt"
tap $? "-p PID: each CPU bound to it before the starts (task mode), ended with it" \
	"$(echo "exit $rc, ioctls: $order"; cat "$out/run.log")"
fake
run -c 1,3 -t 3600s -o "$out/attach2" -p "$$,1"
rc=$?
[ $rc = 2 ] && [ ! -s "$out/ioctl.log" ] &&
	grep -q -- '--attach takes one process in task mode' "$out/run.log"
tap $? "-p with two processes in task mode: refused, nothing opened" \
	"$(echo "exit $rc"; cat "$out/run.log")"

# 24: the command's signals are its own (issue 34).  A SIGSTOP it is sent
# stops it, as without etecap, and SIGCONT resumes it; etecap used to
# swallow it (the command ran on).  The command must still be stopped 2 s
# later: a failure is a command that ran on, so load cannot fake one.
# Under ptrace (--ptrace; where the kernel has no perf events) and as
# perf's records follow it (nothing between the command and its signals).
for how in --ptrace ""; do
fake
rm -f "$out/stop.pid" "$out/stop.after"
run -c 1,3 -t 3600s -o "$out/sigstop" $how -- sh -c \
	"echo \$\$ >'$out/stop.pid'; kill -STOP \$\$; echo resumed >'$out/stop.after'" &
runner=$!
for _ in $(seq 300); do
	[ -s "$out/stop.pid" ] && break
	sleep 0.1
done
pid=$(cat "$out/stop.pid" 2>/dev/null)
sleep 2
state=$(sed 's/.*) //' "/proc/${pid:-0}/stat" 2>/dev/null | cut -d' ' -f1)
ran_on=no
[ -e "$out/stop.after" ] && ran_on=yes
[ -n "$pid" ] && kill -CONT "$pid" 2>/dev/null
wait "$runner"
rc=$?
[ $ran_on = no ] && { [ "$state" = t ] || [ "$state" = T ]; }
ok=$?
[ $ok = 0 ] && [ $rc = 0 ] && [ -s "$out/stop.after" ]
tap $? "${how:-perf events}: a SIGSTOP stops the command (2 s on: state ${state:-gone}, ran on: $ran_on), SIGCONT resumes it to its end" \
	"$(echo "exit $rc"; cat "$out/run.log")"
done

# 25: a signal to a task past the 1,024th of a command is delivered: 1,100
# processes waiting on a FIFO (forked, no exec: the cheapest tasks to
# follow), then one that exits on SIGUSR1; a writer's open and close lets
# the 1,100 go.  etecap used to follow 1,024 tasks by ptrace and drop
# every signal of the others (--ptrace: the limit was ptrace's).
fake
rm -f "$out/usr1.pid" "$out/usr1.got" "$out/many.fifo"
mkfifo "$out/many.fifo"
run -c 1,3 -t 3600s -o "$out/many" --ptrace -- sh -c "
	i=0
	while [ \$i -lt 1100 ]; do read x <'$out/many.fifo' & i=\$((i + 1)); done
	sh -c 'trap \"echo got >$out/usr1.got; exit 0\" USR1
		echo \$\$ >$out/usr1.pid; while :; do sleep 0.1; done' &
	wait \$!
	exec 3>'$out/many.fifo'
	exec 3>&-
	wait" &
runner=$!
for _ in $(seq 1200); do
	[ -s "$out/usr1.pid" ] && break
	sleep 0.1
done
pid=$(cat "$out/usr1.pid" 2>/dev/null)
[ -n "$pid" ] && kill -USR1 "$pid"
for _ in $(seq 100); do
	[ -s "$out/usr1.got" ] && break
	sleep 0.1
done
got=no
[ -s "$out/usr1.got" ] && got=yes
[ $got = no ] && [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
wait "$runner"
rc=$?
[ $got = yes ] && [ $rc = 0 ]
tap $? "--ptrace: SIGUSR1 to the 1,101st task of a command is delivered (handled: $got)" \
	"$(echo "exit $rc, task ${pid:-none}"; tail -5 "$out/run.log")"

# 27: the command's tasks and code from perf's records, nothing stopped
# (etecap-events.c).  The command runs env, which execs true (a program
# that ran before an exec), then grep, which reads its own TracerPid, a
# subshell that never execs (the shell's code only, from before its
# fork) and a child in the background.  As perf events: no tracer, env's
# image saved (memory.txt), every task named in contexts.txt (true where
# env was), every process with its maps_<pid>.txt, the subshell's the
# shell's mappings.
# Under ptrace: a tracer, and env's image lost (ptrace saves a task's code
# at its exit, after the exec replaced it).  Refused perf events (the
# preload's ENOSYS, as a kernel without CONFIG_PERF_EVENTS): ptrace, and
# etecap.txt says why.  Where the host itself refuses perf events to this
# user, the perf events cases are skipped with its reason.
env_path=$(realpath "$(command -v env)")
code_run() {	# NAME [ENV...] -- [etecap options]: the command above
	local name=$1
	shift
	fake
	rm -f "$out/$name.tracer"
	(while [ "$1" != -- ]; do export "$1"; shift; done; shift
	 run -c 1 -t 3600s -o "$out/$name" "$@" -- sh -c \
		"env true; grep TracerPid /proc/self/status >'$out/$name.tracer'; (echo >/dev/null); sleep 0 & wait")
}
traced_names() {	# the traced tasks of snapshot $1's contexts.txt, sorted
	sed -n '/^# other tasks/q; /^#/d; s/^[0-9]* [0-9]* //p' "$1/contexts.txt" 2>/dev/null |
		sort -u | tr '\n' ' '
}
maps_missing() {	# the traced processes of snapshot $1 without maps_<pid>.txt
	local p
	for p in $(sed -n '/^# other tasks/q; /^#/d; s/^[0-9]* \([0-9]*\) .*/\1/p' "$1/contexts.txt" | sort -u); do
		[ -s "$1/maps_$p.txt" ] || printf '%s ' "$p"
	done
}
code_run events --
rc=$?
code=$(sed -n 's/^code=//p' "$out/events/etecap.txt" 2>/dev/null)
tracer=$(awk '{ print $2 }' "$out/events.tracer" 2>/dev/null)
names=$(traced_names "$out/events")
case $code in
"ptrace (perf events: "*)
	skip "perf events: the command followed without a stop, env's image kept" "this host refuses them: $code"
	skip "perf events: every task of the command in contexts.txt" "this host refuses them: $code"
	skip "perf events: every process of the command has its maps" "this host refuses them: $code"
	;;
*)
	[ $rc = 0 ] && [ "$code" = perf-events ] && [ "$tracer" = 0 ] &&
		grep -q "^saved .* $env_path+" "$out/events/memory.txt"
	tap $? "perf events: the command followed without a stop (TracerPid $tracer), env's image kept though true replaced it" \
		"$(echo "exit $rc, code=$code"; grep -c '^saved' "$out/events/memory.txt"; cat "$out/run.log")"
	[ "$names" = "grep sh sleep true " ]
	tap $? "perf events: every task of the command in contexts.txt, each by its last name ($names)" \
		"$(cat "$out/events/contexts.txt" 2>&1 | head -8)"
	missing=$(maps_missing "$out/events")
	true_pid=$(awk '$3 == "true" { print $2; exit }' "$out/events/contexts.txt")
	[ -z "$missing" ] && [ "$(grep -c . "$out/events/contexts.txt")" -gt 5 ] &&
		grep -q "/true$" "$out/events/maps_$true_pid.txt" &&
		! grep -q "/$(basename "$(realpath /bin/sh)")$" "$out/events/maps_$true_pid.txt"
	tap $? "perf events: every process of the command has its maps, a forked one its parent's, an exec'd one its new image's only (${missing:-none missing})" \
		"$(cat "$out/events/contexts.txt" 2>&1 | head -8; ls "$out/events" | grep maps_)"
	;;
esac
code_run ptrace -- --ptrace
rc=$?
code=$(sed -n 's/^code=//p' "$out/ptrace/etecap.txt" 2>/dev/null)
tracer=$(awk '{ print $2 }' "$out/ptrace.tracer" 2>/dev/null)
[ $rc = 0 ] && [ "$code" = ptrace ] && [ "${tracer:-0}" != 0 ] &&
	! grep -q " $env_path+" "$out/ptrace/memory.txt" &&
	grep -q "^saved .* /.*/true+" "$out/ptrace/memory.txt"
tap $? "--ptrace: the command followed by a tracer (TracerPid $tracer), true's image kept and env's lost" \
	"$(echo "exit $rc, code=$code"; grep -c '^saved' "$out/ptrace/memory.txt"; cat "$out/run.log")"
code_run noperf FAKE_PERF_EVENT_OPEN=38 --	# ENOSYS
rc=$?
code=$(sed -n 's/^code=//p' "$out/noperf/etecap.txt" 2>/dev/null)
tracer=$(awk '{ print $2 }' "$out/noperf.tracer" 2>/dev/null)
[ $rc = 0 ] && [ "${tracer:-0}" != 0 ] &&
	[ "$code" = "ptrace (perf events: perf_event_open: Function not implemented)" ]
tap $? "no perf events (ENOSYS): the command followed by ptrace (TracerPid $tracer), etecap.txt says why" \
	"$(echo "exit $rc, code=$code"; cat "$out/run.log")"

# 13: 512 CPUs under the usual soft limit of 1,024 open files
rm -rf "$root" "$out/ioctl.log"
"$out/fake_sysroot" "$root" 512 0-511
(ulimit -Sn 1024 && run -o "$out/many")
rc=$?
[ $rc = 0 ] && [ "$(cpus_of "$out/many" | wc -l)" = 512 ] &&
	cmp -s <(published 511) "$out/many/trace_cpu511.bin"
tap $? "512 CPUs with a soft limit of 1,024 open files: 512 trace files" \
	"$(echo "exit $rc"; tail -5 "$out/run.log")"

# 20: the CPUs are drained in parallel (etecap-pool.c): as many threads
# as the host has CPUs online (at most 64), each CPU's file written by
# one thread only, every file holding its CPU's bytes.  The preload logs
# the thread of each write to a trace file.
rm -rf "$root" "$out/ioctl.log" "$out/drain.log"
"$out/fake_sysroot" "$root" 512 0-511
(ulimit -Sn 1024 && FAKE_DRAIN_LOG=$out/drain.log run -o "$out/par")
rc=$?
host_cpus=$(getconf _NPROCESSORS_ONLN)
want=$((host_cpus < 64 ? host_cpus : 64))
threads=$(awk '{ print $1 }' "$out/drain.log" 2>/dev/null | sort -u | wc -l)
owners=$(sort -u "$out/drain.log" 2>/dev/null | awk '{ print $2 }' | sort | uniq -d | head -3)
wrong=
for c in $(seq 0 511); do
	cmp -s <(published "$c") "$out/par/trace_cpu$c.bin" || wrong+=" $c"
done
[ $rc = 0 ] && [ "$threads" = "$want" ] && [ -z "$owners" ] && [ -z "$wrong" ]
tap $? "512 CPUs drained by $want thread(s), one per online host CPU: each file by one thread, every byte right" \
	"$(echo "exit $rc; $threads thread(s) wrote trace files"
	   [ -z "$owners" ] || echo "written by several threads: $owners"
	   [ -z "$wrong" ] || echo "wrong bytes in CPUs:$(echo $wrong | cut -c1-80)"
	   tail -3 "$out/run.log")"

finish
