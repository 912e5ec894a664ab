#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/ete/ete-decode beyond the ranges e2e_decode.sh compares (issue 18):
# on the EL1 run's all_els capture (runs/KERNEL/el1/e2e/all_els/snapshot,
# 4 CPUs, unedited; copies of it get the extra files), it must:
#  - answer --help and --version (exit 0), refuse a bad option or value
#    (usage on stderr, exit 2);
#  - name the functions of symbols.txt beside the ranges they cover, with
#    the offset, and those of an ELF file listed in elf.txt; refuse a
#    32-bit ELF file with a message, and go on;
#  - give the tasks of contexts.txt, timestamps in seconds (machine.txt),
#    exceptions and their returns, gaps_cpuN.txt's gaps as lines of their own;
#  - print JSON lines that parse, with the same ranges as the text lines;
#  - print the same with -j 1 and -j 4, and its MB/s line on stderr.
# The captures exist only after the VM's run: a post suite (host.d runs
# before the VM).  ETE_DECODE=BINARY tests another build of it.
#
# Usage: ete_decode_features.sh BUILD_DIR RUN...   (RUN: KERNEL/el1...);
# prints TAP.
# The tools' side of a capture, the same whatever kernel made it (e2e_decode
# checks each kernel's capture): check.sh runs this on the last kernel only.
# rig-post: last kernel
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?usage: $0 BUILD_DIR RUN...}
build=$(cd "$build" && pwd) || exit 1
shift
. "$here/lib/tap.sh"
run=$(el1_run "$build" "$@")
snap=$run/e2e/all_els/snapshot
stamps=$run/e2e/timestamps/snapshot

[ -s "$snap/trace_cpu0.bin" ] || skip_all "no all_els capture in $snap (the VM's EL1 run makes it)"
command -v python3 >/dev/null || skip_all "python3 is not installed"
decode=${ETE_DECODE:-$build/host-tools/ete-decode}
if [ -z "${ETE_DECODE:-}" ] &&
   ! make -s -C "$top/tools/ete" host OUT="$build/host-tools" >"$build/host-tools-features.log" 2>&1; then
	tap 1 "ete-decode builds (libopencsd-dev)"
	diag "$(tail -5 "$build/host-tools-features.log")"
	finish
fi
work=$build/ete-decode-features
rm -rf "$work"
mkdir -p "$work"

# copy NAME: a copy of the snapshot to add or change files in: its text
# files copied (the cases write symbols.txt, contexts.txt, gaps_cpuN.txt:
# never through a link into the capture, which later suites read), its
# binary files (trace, memory images) linked
copy() {
	local d=$work/$1 f
	mkdir -p "$d"
	for f in "$snap"/*; do
		case $f in
		*.bin) ln -s "$f" "$d/" ;;
		*) cp -p "$f" "$d/" ;;
		esac
	done
	echo "$d"
}

# Options
out=$("$decode" --help 2>/dev/null)
rc=$?
[ $rc = 0 ] && grep -q '^usage: ete-decode ' <<<"$out" && grep -q -- '--format' <<<"$out"
tap $? "--help: usage on stdout, exit 0 (exit $rc)"
out=$("$decode" --version 2>/dev/null)
rc=$?
[ $rc = 0 ] && [ "$out" = "ete-decode $(cat "$top/VERSION")" ]
tap $? "--version: \"$out\", exit 0 (exit $rc)"
for bad in --no-such-option "--format xml" "-j 0" "--cpu x"; do
	# shellcheck disable=SC2086 # the words of $bad are the arguments
	"$decode" $bad "$snap" >"$work/bad.out" 2>"$work/bad.err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$work/bad.out" ] && grep -q '^usage: ete-decode' "$work/bad.err"
	tap $? "$bad: usage on stderr, nothing on stdout, exit 2 (exit $rc)"
done

# symbols.txt: two functions in the EL0 region (0xaaaa00000000, 4 KiB),
# one over the EL1 region; an ELF file of elf.txt; a 32-bit ELF file
sym=$(copy sym)
printf '# va size name\n0xaaaa00000000 0x40 el0_first\n0xaaaa00000040 4032 el0_rest\n0xffff800008010000 4096 el1_all\n' \
	>"$sym/symbols.txt"
"$decode" -j 1 "$sym" >"$work/sym.txt" 2>"$work/sym.err"
rc=$?
# every R/Q line in a region names the function that covers its start
bad=$(python3 - "$work/sym.txt" <<'PY' 2>&1
import sys
funcs = [(0xaaaa00000000, 0x40, "el0_first"), (0xaaaa00000040, 4032, "el0_rest"),
         (0xffff800008010000, 4096, "el1_all")]
good, bad = 0, 0
for no, line in enumerate(open(sys.argv[1]), 1):
    w = line.split()
    if not w or w[0] not in ("R", "Q"):
        continue
    a = int(w[2], 16)
    want = next(("%s+0x%x" % (n, a - va) for va, size, n in funcs if va <= a < va + size), "")
    got = w[5] if len(w) > 5 else ""
    if got != want:
        bad += 1
        if bad < 4:
            print("line %d: %s (want %s)" % (no, line.strip(), want or "no symbol"))
    elif want:
        good += 1
if not good:
    print("no range with a symbol")
PY
)
[ $rc = 0 ] && [ -z "$bad" ]
tap $? "symbols.txt: every range names its function and offset ($(grep -c ' el0_first+' "$work/sym.txt") el0_first, $(grep -c ' el1_all+' "$work/sym.txt") el1_all)"
diag "$bad"

elf=$(copy elf)
# the ELF file's symbols alone (the capture's own symbols.txt aside)
rm -f "$elf/symbols.txt"
printf 'void ete_fa(void) { __asm__ volatile(".skip 0x3c"); }\nvoid ete_fb(void) { __asm__ volatile(".skip 0x3c"); }\n' >"$work/f.c"
python3 -c 'import sys; sys.stdout.buffer.write(b"\x7fELF\x01\x01\x01" + bytes(45))' >"$elf/e32.elf"
if gcc -O0 -fno-asynchronous-unwind-tables -nostdlib -static -Wl,-Ttext=0x0 -Wl,-e,ete_fa \
	-o "$elf/f.elf" "$work/f.c" 2>"$work/f.log"; then
	printf '0xaaaa00000000 f.elf\n0x0 e32.elf\n' >"$elf/elf.txt"
	"$decode" --cpu 0 "$elf" >"$work/elf.txt" 2>"$work/elf.err"
	rc=$?
	# ete_fa at 0, ete_fb after it: the ranges from 0xaaaa00000000 on
	bad=$(python3 - "$work/elf.txt" "$(nm "$elf/f.elf" | awk '$3 == "ete_fb" { print $1 }')" \
		<<'PY' 2>&1
import sys
fb, base, n = int(sys.argv[2], 16), 0xaaaa00000000, 0
for line in open(sys.argv[1]):
    w = line.split()
    if not w or w[0] != "R" or not base <= int(w[2], 16) < base + 2 * fb:
        continue
    off = int(w[2], 16) - base
    want = "ete_fa+0x%x" % off if off < fb else "ete_fb+0x%x" % (off - fb)
    if (w[5] if len(w) > 5 else "") != want:
        n += 1
        if n < 4:
            print(line.strip(), "(want", want + ")")
PY
)
	[ $rc = 0 ] && [ -z "$bad" ] && grep -q ' ete_fa+0x0$' "$work/elf.txt" &&
		grep -q 'e32.elf: not a 64-bit little-endian ELF file' "$work/elf.err"
	tap $? "elf.txt: an ELF file's functions beside the ranges ($(grep -c ' ete_f[ab]+' "$work/elf.txt")), a 32-bit one refused"
	diag "$bad"
else
	tap 1 "elf.txt: gcc makes an ELF file"
	diag "$(head -3 "$work/f.log")"
fi

# perf-<pid>.map (a JIT's symbols, hex "START SIZE NAME", as etecap copies
# them from /tmp): its functions beside the ranges
jit=$(copy jit)
rm -f "$jit/symbols.txt"
printf 'aaaa00000000 40 jit_first\naaaa00000040 fc0 jit_rest [JIT] tid 7\n' \
	>"$jit/perf-4242.map"
"$decode" --cpu 0 "$jit" >"$work/jit.txt" 2>"$work/jit.err"
rc=$?
jf=$(grep -c ' jit_first+0x' "$work/jit.txt")
jr=$(grep -c ' jit_rest \[JIT\] tid 7+0x' "$work/jit.txt")
bad=$(awk '$1 == "R" && $3 ~ /^0xaaaa/ && $6 !~ /^jit_/' "$work/jit.txt" | head -3)
[ $rc = 0 ] && [ "$jf" -gt 0 ] && [ "$jr" -gt 0 ] && [ -z "$bad" ]
tap $? "perf-4242.map: a JIT's functions beside the EL0 ranges ($jf jit_first, $jr jit_rest)"
diag "$bad"

# contexts.txt: name the context IDs the trace carries
ctx=$(copy ctx)
rm "$ctx/contexts.txt"
ids=$("$decode" --cpu 0 "$snap" 2>/dev/null | awk '$1 == "C" { print $3 }' | sort -u)
for id in $ids; do
	echo "$id $((id + 7)) task_$id"
done >"$ctx/contexts.txt"
"$decode" --cpu 0 "$ctx" >"$work/ctx.txt" 2>/dev/null
"$decode" --cpu 0 --format json "$ctx" >"$work/ctx.json" 2>/dev/null
bad=$(awk '$1 == "C" && (NF != 4 || $4 != "task_" ($3 - 7)) { print }' "$work/ctx.txt" | head -3)
[ -n "$ids" ] && [ -z "$bad" ] && grep -q '"type":"range".*"pid":[0-9]*,"comm":"task_' "$work/ctx.json"
tap $? "contexts.txt: C lines and JSON ranges give pid and comm (context IDs: ${ids//$'\n'/ })"
diag "$bad"

# timestamps: seconds from machine.txt's cntfrq_el0 (the capture is of
# CPUs 1 and 3)
if [ -s "$stamps/trace_cpu1.bin" ]; then
	frq=$(sed -n 's/^cntfrq_el0=//p' "$stamps/machine.txt")
	"$decode" --cpu 1 "$stamps" >"$work/ts.txt" 2>/dev/null
	bad=$(awk -v f="$frq" '$1 == "T" { t++; if (NF != 4 || ($4 - $3 / f) > 1e-6 || ($3 / f - $4) > 1e-6) print }
		END { if (!t) print "no T line" }' "$work/ts.txt" | head -3)
	[ -n "$frq" ] && [ -z "$bad" ]
	tap $? "timestamps: $(grep -c '^T ' "$work/ts.txt") T lines, seconds at cntfrq_el0=$frq"
	diag "$bad"
else
	tap 1 "timestamps: the timestamps capture ($stamps)"
fi

# exceptions, trace on; a gap: a copy with one in CPU 0's gaps_cpu0.txt
gap=$(copy gap)
rm "$gap/gaps_cpu0.txt"
echo "40000 -1 1" >"$gap/gaps_cpu0.txt"
"$decode" --cpu 0 "$gap" >"$work/gap.txt" 2>/dev/null
grep -q '^X [0-9]* exception 2 call ret 0x' "$work/gap.txt" && grep -q '^X [0-9]* return$' "$work/gap.txt" &&
	grep -q '^O [0-9]* on normal$' "$work/gap.txt"
tap $? "exceptions ($(grep -c '^X .* exception' "$work/gap.txt")), returns ($(grep -c '^X .* return' "$work/gap.txt")), trace on ($(grep -c '^O .* on ' "$work/gap.txt"))"
[ "$(grep -c '^G ' "$work/gap.txt")" = 1 ] && grep -q '^G 40000 -1 1$' "$work/gap.txt" &&
	tail -1 "$work/gap.txt" | grep -q ' 2 segments,' &&
	awk '$1 == "G" { g = 1 } $1 == "R" && g { exit !($2 >= 40000) }' "$work/gap.txt"
tap $? "gaps_cpu0.txt: a G line where the stream is cut, 2 segments, the ranges after it from 40000 on"

# JSON: every line parses; its ranges are the text's
"$decode" -j 1 --format json "$sym" >"$work/sym.json" 2>/dev/null
rc=$?
msg=$(python3 - "$work/sym.json" "$work/sym.txt" <<'PY' 2>&1
import json, sys
j, t, cpu = [], [], None
for no, line in enumerate(open(sys.argv[1]), 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        sys.exit("line %d does not parse: %s" % (no, e))
    if o["type"] in ("range", "nopath"):
        j.append((o["cpu"], "R" if o["type"] == "range" else "Q", o["idx"], o["start"],
                  o.get("end", o.get("next")), o["n"], o.get("sym", "")))
for line in open(sys.argv[2]):
    w = line.split()
    if line.startswith("# cpu "):
        cpu = int(w[2].rstrip(":"))
    elif w and w[0] in ("R", "Q"):
        t.append((cpu, w[0], int(w[1]), w[2], w[3], int(w[4]), w[5] if len(w) > 5 else ""))
if not j or j != t:
    sys.exit("json %d ranges, text %d; first different: %s" %
             (len(j), len(t), next(((a, b) for a, b in zip(j, t) if a != b), None)))
print("%d ranges" % len(j))
PY
)
st=$?
[ $rc = 0 ] && [ $st = 0 ]
tap $? "--format json: every line parses, the ranges (and symbols) are the text's: $msg"

# -j 1 and -j 4: the same output; the speed line
"$decode" -j 4 "$sym" >"$work/sym4.txt" 2>"$work/sym4.err"
cmp -s "$work/sym.txt" "$work/sym4.txt"
tap $? "-j 1 and -j 4 print the same ($(wc -l <"$work/sym.txt") lines)"
"$decode" -j 4 --format json "$sym" 2>/dev/null | cmp -s - "$work/sym.json"
tap $? "-j 1 and -j 4 print the same JSON"
re='^ete-decode: [0-9]+ bytes of trace from 4 CPUs in [0-9.]+ s: [0-9.]+ MB/s \((1 thread|[0-9]+ threads)\)$'
grep -Eq "$re" "$work/sym.err" && grep -q '(1 thread)' "$work/sym.err" && grep -Eq "$re" "$work/sym4.err"
tap $? "the speed line on stderr: $(cat "$work/sym4.err")"

finish
