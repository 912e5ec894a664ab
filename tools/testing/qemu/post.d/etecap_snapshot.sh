#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side acceptance of etecap's snapshots (Documentation/
# user-guide-capture.rst): the VM's etecap_test left OpenCSD snapshot
# directories in BUILD_DIR/runs/RUN/etecap/<test>/.  OpenCSD's
# trc_pkt_lister must read each one as etecap wrote it, with no edit:
# every CPU's buffer listed to its last byte with no error or unknown
# packet (but where a gap record says the stream broke off: there it may
# resume mid-packet, and each piece is clean from its first A-Sync;
# lib/tap.sh lister_clean_gaps), and with -decode every memory image
# loaded.  A snapshot with a register taken out must fail the same check;
# a break put into a buffer is accepted at a gap record and refused
# without one there.  Each snapshot's
# machine.txt must name this tree's VERSION, the kernel and the MIDR_EL1
# of each CPU as the VM's boot log gives them, the model's Neoverse N2
# CPUs (its TRBE errata) and a non-zero counter frequency; a machine.txt
# with another version must fail that check.  The task-mode capture
# (etecap_test's cmd_task) is decoded with ete-decode: every context ID in
# it must be one of the command's tasks, and every task must be there.
#
# Usage: etecap_snapshot.sh BUILD_DIR RUN...   (RUN: KERNEL/el1, ...);
# prints TAP.
set -uo pipefail

build=${1:?usage: $0 BUILD_DIR RUN...}
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
version=$(cat "$top/VERSION")
. "$here/../lib/tap.sh"

# buffers DIR: "name file" for each buffer of trace.ini
buffers() {
	awk -F= '/^\[buffer[0-9]+\]/ { b = 1; next } /^\[/ { b = 0 }
		b && $1 == "name" { name = $2 } b && $1 == "file" { print name, $2 }' "$1/trace.ini"
}

# gaps_of DIR FILE: the gap records of trace buffer FILE (trace_cpu<N>.bin:
# gaps_cpu<N>.txt)
gaps_of() {
	local n=${2#trace_cpu}
	echo "$1/gaps_cpu${n%.bin}.txt"
}

# listed_clean DIR BUFFER FILE: trc_pkt_lister reads the whole buffer with
# no error, but that the stream may resynchronise at a recorded gap and
# nowhere else (lib/tap.sh); its output is in DIR/list_BUFFER.txt
listed_clean() {
	lister_clean_gaps "$1" "$2" "$3" "$(gaps_of "$1" "$3")" "$1/list_$2.txt"
}

# gap_note DIR FILE: ", cut at its N gap records" where it has some
gap_note() {
	local n
	n=$(awk '$1 > 0' "$(gaps_of "$1" "$2")" 2>/dev/null | wc -l)
	[ "$n" = 0 ] || echo ", listed between its $n gap record(s)"
}

# decode_loads DIR BUFFER: with -decode, every memory image is accepted
decode_loads() {
	local out=$1/decode_$2.txt
	(cd "$1" && trc_pkt_lister -ss_dir "$1" -src_name "$2" -decode -logstdout >"$out" 2>&1) ||
		return 1
	! grep -Eq 'Failed to create memory accessor|ss2_dcdtree|Missing' "$out"
}

# boot_log RUNDIR: the whole kernel log of a run (kmsg; the console shows
# errors only, run-vm.sh), or the console of a run recorded before that
boot_log() {
	if [ -s "$1/kmsg" ]; then echo "$1/kmsg"; else echo "$1/console.log"; fi
}

# machine_ok SNAP CONSOLE VERSION MANIFEST_DIR: SNAP/machine.txt names
# etecap VERSION, the kernel and CPUs the boot log CONSOLE shows (the
# MIDR_EL1 of each CPU, its "Booting Linux"/"Booted secondary processor"
# line; the release of "Linux version"; the arch_timer rate), a non-zero
# CNTFRQ_EL0, and TRBE errata on exactly the CPUs the model reports a
# Neoverse N2 MIDR for (ete_model midr= midr_cpus= in MANIFEST_DIR/*.list;
# the model changes the MIDR the drivers read, not the kernel's).  Prints
# what it found.
machine_ok() {
	python3 - "$@" <<'PY'
import glob, re, sys
snap, console, version, manifests = sys.argv[1:5]
try:
    lines = open(snap + "/machine.txt").read().splitlines()
except OSError as e:
    print("no machine.txt (%s)" % e.strerror); sys.exit(1)
kv = dict(l.split("=", 1) for l in lines if "=" in l and not l.startswith("#"))
bad = []
def want(key, expect, got=None):
    got = kv.get(key) if got is None else got
    if got != expect:
        bad.append("%s=%s, expected %s" % (key, got, expect))
want("etecap_version", version)
boot = open(console, errors="replace").read() if console else ""
m = re.search(r"Linux version (\S+)", boot)
if m:
    want("uname_release", m.group(1))
want("uname_machine", "aarch64")
midr = {}
for cpu, val in re.findall(r"Booting Linux on physical CPU (\S+) \[(0x[0-9a-f]+)\]", boot):
    midr[0] = int(val, 16)
for cpu, val in re.findall(r"CPU(\d+): Booted secondary processor \S+ \[(0x[0-9a-f]+)\]", boot):
    midr[int(cpu)] = int(val, 16)
n2 = 0x410fd490
n2_cpus = 0
for l in glob.glob(manifests + "/*.list"):
    for line in open(l):
        f = line.split()
        if len(f) > 2 and f[0] == "insmod" and f[2] == "ete_model":
            p = dict(a.split("=", 1) for a in f[3:] if "=" in a)
            if (int(p.get("midr", "0"), 0) & 0xff0fff0) == (n2 & 0xff0fff0):
                n2_cpus = int(p.get("midr_cpus", "-1"), 0)
freq = int(kv.get("cntfrq_el0", "0"))
if not freq:
    bad.append("cntfrq_el0=%s, expected non-zero" % kv.get("cntfrq_el0"))
m = re.search(r"arch_timer: \S+ timer\(s\) running at ([0-9.]+)MHz", boot)
if m and "%.2f" % (freq / 1e6) != m.group(1):
    bad.append("cntfrq_el0=%d, the boot log says %sMHz" % (freq, m.group(1)))
cpus = sorted(int(k[3:-9]) for k in kv if re.fullmatch(r"cpu\d+_midr_el1", k))
if not cpus:
    bad.append("no cpu<N>_midr_el1")
for c in cpus:
    got = int(kv["cpu%d_midr_el1" % c], 16)
    if c not in midr:
        bad.append("cpu%d: the boot log has no MIDR" % c)
    elif got != midr[c]:
        bad.append("cpu%d_midr_el1=%#x, the boot log says %#x" % (c, got, midr[c]))
    errata = int(kv.get("cpu%d_trbe_errata" % c, "-1"), 16)
    if errata < 0 or (errata != 0) != bool(n2_cpus >> c & 1):
        bad.append("cpu%d_trbe_errata=%s, expected %s" % (c, kv.get("cpu%d_trbe_errata" % c),
                   "N2 errata (non-zero)" if n2_cpus >> c & 1 else "0"))
print("version %s, kernel %s, cntfrq %d Hz, %s" % (kv.get("etecap_version"),
      kv.get("uname_release"), freq, ", ".join("cpu%d MIDR %#x errata %s" % (c,
      int(kv["cpu%d_midr_el1" % c], 16), kv.get("cpu%d_trbe_errata" % c)) for c in cpus)))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
}

command -v trc_pkt_lister >/dev/null || skip_all "trc_pkt_lister (libopencsd-bin) not installed"

first=
all_snaps=()
for run in "$@"; do
	snaps=$(ls -d "$build/runs/$run"/etecap/*/ 2>/dev/null)
	if [ -z "$snaps" ]; then
		# etecap_test is in the whole suite (el1), not in the smoke
		# runs: nothing to check there, and nothing to count
		if grep -q 'etecap_test' "$build/runs/$run/plan" 2>/dev/null; then
			tap 1 "$run: the VM left etecap snapshots"
		else
			echo "# $run: its plan has no etecap_test, no snapshot to check"
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
		all_snaps+=("$snap")
		while read -r buf file; do
			listed_clean "$snap" "$buf" "$file"
			rc=$?
			tap $rc "$name: trc_pkt_lister -ss_dir lists $buf ($(stat -c %s "$snap/$file") bytes$(gap_note "$snap" "$file")) with no errors" \
				"$(lister_errors "$snap/list_$buf.txt")"
		done < <(buffers "$snap")
		buf=$(buffers "$snap" | awk 'NR == 1 { print $1 }')
		decode_loads "$snap" "$buf"
		tap $? "$name: -decode loads the $(grep -c '^saved' "$snap/memory.txt" 2>/dev/null) memory image(s)"
		msg=$(machine_ok "$snap" "$(boot_log "$build/runs/$run")" "$version" "$here/../manifest.d")
		tap $? "$name: machine.txt: ${msg%%$'\n'*}"
		diag "$(grep '^# ' <<<"$msg")"
	done
done

# kernel_text_matches SNAP VMLINUX [SHIFT]: the kernel text etecap saved
# from /proc/kcore is the vmlinux the VM booted, at the KASLR offset it
# wrote in kernel.txt (moved by SHIFT bytes for the self-test).  Boot-time
# patching (alternatives, static keys) legitimately changes some
# instructions: at least 99.5% of the words must be equal (in the rig
# about 150 of 1.8 million differ).  Prints the figures.
kernel_text_matches() {
	python3 - "$1" "$2" "${3:-0}" <<'PY'
import struct, sys
snap, vmlinux, shift = sys.argv[1], sys.argv[2], int(sys.argv[3])
kv = dict(l.strip().split("=", 1) for l in open(snap + "/kernel.txt") if "=" in l)
if kv.get("kcore") != "yes":
    print("no kernel text saved (kernel.txt: no kcore=yes)"); sys.exit(1)
off = int(kv["kaslr_offset"], 16) + shift
saved = [l.split() for l in open(snap + "/memory.txt")
         if l.startswith("saved ") and "kernel text" in l]
if not saved:
    print("memory.txt names no saved kernel text"); sys.exit(1)
va, length, fname = int(saved[0][1], 16), int(saved[0][2], 16), saved[0][3]
got = open(snap + "/" + fname, "rb").read()
elf = open(vmlinux, "rb").read()
phoff, = struct.unpack_from("<Q", elf, 0x20)
phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
want = None
link = va - off
for i in range(phnum):
    typ, _, offset, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", elf, phoff + i * phentsize)
    # _etext is page-aligned: the text segment may end up to a page
    # before it (6.12 puts text and rodata in one segment that ends there)
    end = min(link + length, vaddr + filesz)
    if typ == 1 and vaddr <= link < end and link + length - end < 65536:
        want = elf[offset + link - vaddr:offset + end - vaddr]
if want is None or len(got) != length:
    print("saved %d bytes at 0x%x, vmlinux has no such segment" % (len(got), va)); sys.exit(1)
words = len(want) // 4
same = sum(1 for i in range(0, words * 4, 4) if got[i:i + 4] == want[i:i + 4])
print("%d KiB of kernel text at 0x%x (KASLR offset 0x%x): %d of %d words as in vmlinux (%.2f%%)"
      % (length >> 10, va, off, same, words, 100.0 * same / words))
sys.exit(0 if same * 1000 >= words * 995 else 1)
PY
}

for run in "$@"; do
	snap=$build/runs/$run/etecap/timed
	[ -s "$snap/kernel.txt" ] || continue
	msg=$(kernel_text_matches "$snap" "$build/kernel-${run%%/*}/vmlinux")
	tap $? "$run/timed: the kernel text from /proc/kcore is vmlinux's: $msg"
	# the comparison can fail: the same text against vmlinux 4 bytes off
	msg=$(kernel_text_matches "$snap" "$build/kernel-${run%%/*}/vmlinux" 4)
	[ $? != 0 ]
	tap $? "self-test: kernel text compared 4 bytes off is refused: $msg"
done

# task_decode_ok DECODE EXPECTED: etecap -- CMD in task mode (etecap_test
# cmd_traced_alone_with_its_threads_and_child, issue 34).  DECODE is
# ete-decode's JSON of the capture, EXPECTED the workload's own list of its
# tasks ("pid P", "thread T", "child C").  The model traces each tick with
# the context ID (the PID) of the task it interrupted: every range must
# carry the context ID of one of those tasks, every task must have ranges,
# the main thread on CPUs 1 and 3 (it ran there, and strangers spun beside
# it on CPUs 1 and 2).  Prints the figures.
task_decode_ok() {
	python3 - "$1" "$2" <<'PY'
import json, sys
decode, expected = sys.argv[1:3]
want = {}
for line in open(expected):
    kind, tid = line.split()
    want[int(tid)] = kind
main = [t for t, k in want.items() if k == "pid"]
seen, others, no_ctx, ranges = {}, {}, 0, 0
for line in open(decode):
    e = json.loads(line)
    if e.get("type") != "range":
        continue
    ranges += 1
    if "ctxid" not in e:
        no_ctx += 1
        continue
    cid, cpu = e["ctxid"], e["cpu"]
    (seen if cid in want else others).setdefault(cid, set()).add(cpu)
bad = []
if not ranges:
    bad.append("no instruction range decoded")
if no_ctx:
    bad.append("%d ranges with no context ID" % no_ctx)
for cid, cpus in sorted(others.items()):
    bad.append("context ID %d (not the command's) on CPUs %s" % (cid, sorted(cpus)))
missing = sorted("%s %d" % (want[t], t) for t in want if t not in seen)
if missing:
    bad.append("no trace of %s" % ", ".join(missing))
for m in main:
    if not {1, 3} <= seen.get(m, set()):
        bad.append("the main thread %d on CPUs %s, not 1 and 3" % (m, sorted(seen.get(m, set()))))
print("%d ranges; %d of the command's %d tasks traced, %d other context IDs"
      % (ranges, len(seen), len(want), len(others)))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
}

for run in "$@"; do
	snap=$build/runs/$run/etecap/cmd_task
	if [ ! -s "$snap/expected_tasks.txt" ]; then
		! grep -q 'etecap_test' "$build/runs/$run/plan" 2>/dev/null
		tap $? "$run/cmd_task: the VM left the task-mode capture and its tasks"
		continue
	fi
	"$build/host-tools/ete-decode" --format json "$snap" >"$snap/decode.json" 2>"$snap/decode.err"
	tap $? "$run/cmd_task: ete-decode decodes the task-mode capture" "$(tail -3 "$snap/decode.err")"
	msg=$(task_decode_ok "$snap/decode.json" "$snap/expected_tasks.txt")
	tap $? "$run/cmd_task: etecap -- CMD, every context ID in the decode is the command's: ${msg%%$'\n'*}"
	diag "$(grep '^# ' <<<"$msg")"
	# the check can fail: with its child left out of the command's tasks
	msg=$(task_decode_ok "$snap/decode.json" <(grep -v '^child' "$snap/expected_tasks.txt"))
	[ $? != 0 ] && [[ $msg == *"not the command's"* ]]
	tap $? "self-test: the task-mode decode with the child taken for a stranger is refused"
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
	# A buffer of IGNORE padding alone is accepted (lib/tap.sh,
	# only_ignore_listed: a CPU a task-mode session's tasks never ran
	# on); one byte other than IGNORE in it is refused.
	cp "$first/snapshot.ini" "$first/trace.ini" "$first"/ETE_*.ini "$bad"/
	printf '\x70%.0s' $(seq 256) >"$bad/$file"
	: >"$(gaps_of "$bad" "$file")"
	listed_clean "$bad" "$buf" "$file"
	tap $? "self-test: a buffer of 256 IGNORE bytes (padding, no trace) is accepted"
	printf '\x01' | dd of="$bad/$file" bs=1 seek=100 conv=notrunc status=none
	! listed_clean "$bad" "$buf" "$file"
	tap $? "self-test: the same buffer with one byte 0x01 in it is refused"
else
	tap 1 "self-test: a snapshot without TRCCONFIGR is refused (no snapshot)"
fi

# The rule at gaps, both ways (Documentation/user-guide-capture.rst, "Long
# captures and gaps"): the first buffer with two A-Syncs and no gap, in
# the snapshots in the order checked (how much trace a short capture holds
# varies from run to run: the first snapshot's buffers may have only
# one), with a break (six zero bytes and 0x01: an A-Sync cut short,
# which OpenCSD lists as a bad sequence) put in before its second A-Sync.
# With a gap record elsewhere (256 bytes on) it is refused; with one
# there, a stream resumed mid-packet as after a stop, it is accepted.
gap_rule() {
	local bad=$build/runs/etecap_snapshot_selftest_gap buf file at gaps want rc
	local src= s
	for s in "${all_snaps[@]}"; do
		while read -r buf file; do
			[ -s "$(gaps_of "$s" "$file")" ] && continue
			at=$( (cd "$s" && trc_pkt_lister -ss_dir "$s" -src_name "$buf" -logstdout 2>&1) |
				awk -F'[:;]' '/I_ASYNC/ && ++n == 2 { print $2; exit }')
			[ -n "$at" ] && break
		done < <(buffers "$s")
		if [ -n "$at" ]; then
			src=$s
			break
		fi
	done
	for want in refused accepted; do
		if [ -z "$src" ]; then
			tap 1 "self-test: a break at a gap record is $want (no buffer with two A-Syncs and no gap in ${#all_snaps[@]} snapshots)"
			continue
		fi
		rm -rf "$bad"
		cp -r "$src" "$bad"
		{
			head -c "$at" "$src/$file"
			printf '\0\0\0\0\0\0\1'
			tail -c +$((at + 1)) "$src/$file"
		} >"$bad/$file"
		gaps=$(gaps_of "$bad" "$file")
		: >"$gaps"
		# refused: a gap record 256 bytes on, not at the break
		if [ "$want" = accepted ]; then
			echo "$at -1 1" >"$gaps"
		else
			echo "$((at + 256)) -1 1" >"$gaps"
		fi
		listed_clean "$bad" "$buf" "$file"
		rc=$?
		if [ "$want" = accepted ]; then
			tap $rc "self-test: a break in ${src##*/} $buf at byte $at is accepted at a gap record there"
		else
			[ $rc != 0 ]
			tap $? "self-test: a break in ${src##*/} $buf at byte $at is refused with a gap record 256 bytes on"
		fi
	done
	rm -rf "$bad"
}
if [ -n "$first" ]; then
	gap_rule
else
	tap 1 "self-test: the rule at gap records (no snapshot)"
	tap 1 "self-test: the rule at gap records (no snapshot)"
fi

# The machine.txt check can fail: the first snapshot's, with another version.
if [ -n "$first" ] && [ -s "$first/machine.txt" ]; then
	run=${first#"$build/runs/"}
	run=${run%/etecap/*}
	bad=$build/runs/etecap_snapshot_selftest_machine
	rm -rf "$bad"
	mkdir -p "$bad"
	sed "s/^etecap_version=.*/etecap_version=$version-other/" "$first/machine.txt" \
		>"$bad/machine.txt"
	msg=$(machine_ok "$bad" "$(boot_log "$build/runs/$run")" "$version" "$here/../manifest.d")
	[ $? != 0 ] && [[ $msg == *"etecap_version=$version-other, expected $version"* ]]
	tap $? "self-test: a machine.txt naming version $version-other is refused"
else
	tap 1 "self-test: a machine.txt with another version is refused (no machine.txt)"
fi
finish
