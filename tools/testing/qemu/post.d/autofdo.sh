#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An AutoFDO profile of the model's program that a compiler uses (issues 30
# and 35), from the EL1 run's captures of all_els (continuous trace, 4
# CPUs) and sample (sampled trace: etecap --sample 200/800, 2 CPUs):
#  - ete-decode --to-perf writes the program's user image as an ELF file
#    with a line table (instruction k of a function is line k + 2 after
#    the function's line);
#  - ete-decode --to-autofdo --binary that ELF writes AutoFDO's text input
#    (every decoded range and taken branch of the image, counted);
#  - AutoFDO's two converters make a sample profile of it, each case run
#    for each: create_gcov --profiler=text (AutoFDO's GCC format, which
#    LLVM reads too) and create_llvm_prof --profiler=text (LLVM's
#    format; Debian 13 builds it without LLVM: then its cases are one
#    skip that says so, and the profile reaches clang through create_gcov);
#  - llvm-profdata shows each profile's functions: the instructions each
#    function's lines count, summed, equal the model's truth for the
#    capture (R records, every CPU), function by function, and show's
#    totals are that (create_gcov) or 4 times that (create_llvm_prof
#    weighs a range by its bytes); where both converters work, their
#    line counts are the same;
#  - clang compiles afdo/prog-user.c (the program written as C, one
#    statement per instruction) with -fprofile-sample-use=PROFILE and
#    reports, remark by remark, the samples it applied: every function
#    the profile has samples of gets them, at the line offsets and counts
#    of the profile, and the module carries the sample profile's summary
#    (and each remark's line is the one whose comment names the
#    instruction the offset is of: the C and the line table agree);
#  - a profile of other functions' names applies nothing (the check fails
#    when the compiler does not use the profile);
#  - every branch of the input is a transition of the program (in the
#    continuous capture's truth): none joins one sampled window to the
#    next;
#  - --to-autofdo without --binary, and with a PIE binary elf.txt gives no
#    load bias for, is refused (exit 2); the PIE at the bias elf.txt gives
#    yields the executable's input byte for byte; a binary the trace never
#    ran in gives exit 1;
#  - the sampled capture's function ranking against the continuous one's:
#    Spearman's rank correlation of the two profiles equals that of the
#    two truths (printed), for each converter.
# Usage: autofdo.sh BUILD_DIR RUN...   (RUN: KERNEL/el1...); prints TAP.
# The tools' side of a capture: check.sh runs this on the last kernel only.
# rig-post: last kernel
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../../.." && pwd)
build=${1:?usage: $0 BUILD_DIR RUN...}
build=$(cd "$build" && pwd) || exit 1
shift
. "$here/lib/tap.sh"
run=$(el1_run "$build" "$@")
caps="all_els sample"

for c in $caps; do
	[ -s "$run/e2e/$c/snapshot/trace_cpu0.bin" ] ||
		skip_all "no $c capture in $run/e2e/$c (the VM's EL1 run makes it)"
done
for t in python3 create_gcov create_llvm_prof llvm-profdata clang; do
	command -v $t >/dev/null || skip_all "$t is not installed (tools/testing/qemu/host-packages.txt)"
done
tools=$build/host-tools
work=$build/autofdo
rm -rf "$work"
mkdir -p "$work"
if ! make -s -C "$top/tools/ete" host OUT="$tools" >"$work/build.log" 2>&1; then
	tap 1 "ete-decode (libopencsd) builds" "$(tail -5 "$work/build.log")"
	finish
fi
src=$here/afdo/prog-user.c

# functions.py TRUTH_DIR SYMBOLS PROFILE_TEXT: per user function, the
# profile's instructions (its lines' samples, summed) and the truth's
cat >"$work/functions.py" <<'EOF'
import bisect, glob, re, sys

tdir, symfile, prof = sys.argv[1:4]
syms = sorted((int(v, 16), int(n), name) for v, n, name in
              (l.split() for l in open(symfile) if l.strip())
              if name.startswith('user_'))
starts = [s[0] for s in syms]


def sym_of(a):
    i = bisect.bisect_right(starts, a) - 1
    if i >= 0 and a < syms[i][0] + syms[i][1]:
        return syms[i][2]
    return None


truth = {s[2]: 0 for s in syms}
for f in sorted(glob.glob(tdir + '/truth_cpu*.txt')):
    for line in open(f):
        r = line.split()
        if r and r[0] == 'R':
            s, k = int(r[2], 16), int(r[4])
            for i in range(k):
                n = sym_of(s + 4 * i)
                if n:
                    truth[n] += 1
got, fn = {}, None
for line in open(prof):
    m = re.match(r'^(\S+):(\d+):(\d+)$', line)
    if m:
        fn = m.group(1)
        got.setdefault(fn, 0)
        continue
    m = re.match(r'^ +(\d+)(\.\d+)?: (\d+)', line)
    if m and fn and line.startswith(' ') and not line.startswith('  '):
        got[fn] += int(m.group(3))
# llvm-profdata show's totals: AutoFDO weighs a range by its bytes
total = {}
for line in open(prof.replace('prof.txt', 'show')):
    m = re.match(r'^Function: (\S+): (\d+),', line)
    if m:
        total[m.group(1)] = int(m.group(2))
for n in sorted(truth, key=lambda n: -truth[n]):
    print(n, got.get(n, 0), truth[n], total.get(n, 0))
EOF

# input CAP: the capture's user image ($work/CAP/perf.data.d/*el0*.elf,
# $elf) and its AutoFDO text input ($work/CAP/input.txt); 0 when both
# were written
input() {
	local c=$1 d=$work/$1 snap=$run/e2e/$1/snapshot
	mkdir -p "$d"
	"$tools/ete-decode" "$snap" --to-perf "$d/perf.data" >"$d/log" 2>&1 &&
	elf=$(ls "$d"/perf.data.d/*el0*.elf 2>/dev/null | head -1) && [ -n "$elf" ] &&
	"$tools/ete-decode" "$snap" --to-autofdo "$d/input.txt" --binary "$elf" >>"$d/log" 2>&1
}

# convert CAP CONV: CAP's profile by converter CONV (gcov: create_gcov,
# llvm: create_llvm_prof) in $work/CAP/CONV/ (prof.afdo, and prof.txt: it
# as llvm-profdata's text); 0 when every step worked
convert() {
	local d=$work/$1/$2
	mkdir -p "$d"
	case $2 in
	gcov) create_gcov --profiler=text --profile="$work/$1/input.txt" --binary="$elf" \
		--gcov="$d/prof.afdo" >"$d/log" 2>&1 ;;
	llvm) create_llvm_prof --profiler=text --profile="$work/$1/input.txt" --binary="$elf" \
		--out="$d/prof.afdo" >"$d/log" 2>&1 ;;
	esac && [ -s "$d/prof.afdo" ] &&
	llvm-profdata merge --sample --text "$d/prof.afdo" -o "$d/prof.txt" >>"$d/log" 2>&1
}

# The profiles, each against its capture's truth; create_gcov's weighs a
# line by its samples, create_llvm_prof's by 4 bytes an instruction
declare -A weight=([gcov]=1 [llvm]=4) tool=([gcov]=create_gcov [llvm]=create_llvm_prof)
convs=
for c in $caps; do
	if ! input "$c"; then
		tap 1 "$c: ete-decode --to-perf, --to-autofdo" "$(tail -8 "$work/$c/log")"
		continue
	fi
	for v in gcov llvm; do
		d=$work/$c/$v
		if ! convert "$c" $v; then
			# Debian 13's autofdo (0.19-3): "LLVM version 5 (or higher)
			# support was not enabled"
			if [ $v = llvm ] && grep -q 'support was not enabled' "$d/log"; then
				[ "$c" = all_els ] && skip "create_llvm_prof's profiles" \
					"this create_llvm_prof is built without LLVM: $(grep -m1 'support was not enabled' "$d/log")"
				continue
			fi
			tap 1 "$c: ${tool[$v]} --profiler=text" "$(tail -8 "$d/log")"
			continue
		fi
		case " $convs " in *" $v "*) ;; *) convs="$convs $v" ;; esac
		llvm-profdata show --sample --all-functions "$d/prof.afdo" >"$d/show" 2>&1
		python3 "$work/functions.py" "$run/e2e/$c" "$run/e2e/$c/snapshot/symbols.txt" \
			"$d/prof.txt" >"$d/functions"
		ok=0
		awk -v w="${weight[$v]}" '$2 != $3 || $3 == 0 || $4 != w * $3 { bad = 1 } END { exit bad }' \
			"$d/functions" || ok=1
		tap $ok "$c: ${tool[$v]}: the profile's instructions per function (llvm-profdata show's totals / ${weight[$v]}) equal the truth's: $(awk '{ printf "%s%s %s/%s", s, $1, $2, $3; s = ", " }' "$d/functions")" \
			"$(cat "$d/functions" "$d/show")"
	done
	# the two converters' line counts, where both work
	if [ -s "$work/$c/gcov/prof.txt" ] && [ -s "$work/$c/llvm/prof.txt" ]; then
		for v in gcov llvm; do
			awk '/^[^ ]/ { split($0, h, ":"); f = h[1]; next } /^ [0-9]/ { print f, $1, $2 }' \
				"$work/$c/$v/prof.txt" | sort >"$work/$c/$v/lines"
		done
		cmp -s "$work/$c/gcov/lines" "$work/$c/llvm/lines"
		tap $? "$c: create_gcov's and create_llvm_prof's line counts are the same ($(wc -l <"$work/$c/gcov/lines") lines)" \
			"$(diff "$work/$c/gcov/lines" "$work/$c/llvm/lines" | head -20)"
	fi
done

# Every branch of the input is a transition the truth has: the last
# instruction of an R record to the first of the next, with nothing (a
# window's end, an exception) between them
cat >"$work/branches.py" <<'EOF'
import glob, sys

tdir, inp, base = sys.argv[1], sys.argv[2], int(sys.argv[3], 16)
edges = set()
for f in sorted(glob.glob(tdir + '/truth_cpu*.txt')):
    prev = None
    for line in open(f):
        r = line.split()
        if r and r[0] == 'R':
            s, e = int(r[2], 16), int(r[3], 16)
            if prev and prev != s:
                edges.add((prev - 4 - base, s - base))
            prev = e
        else:
            prev = None
lines = open(inp).read().split('\n')
nr = int(lines[0])
nb = int(lines[nr + 2])
bad, n = [], 0
for l in lines[nr + 3:nr + 3 + nb]:
    a, c = l.split(':')
    f, t = (int(x, 16) for x in a.split('->'))
    n += int(c)
    if (f, t) not in edges:
        bad.append(l)
print("%d branches (%d distinct), %d not in the truth%s" % (
    n, nb, len(bad), " (first %s)" % bad[0] if bad else ""))
sys.exit(0 if nb and not bad else 1)
EOF
for c in $caps; do
	d=$work/$c
	[ -s "$d/input.txt" ] || continue
	msg=$(python3 "$work/branches.py" "$run/e2e/all_els" "$d/input.txt" 0xaaaa00000000)
	tap $? "$c: ete-decode --to-autofdo's branches: $msg"
done

# --to-autofdo's refusals, and a PIE binary at elf.txt's load bias
d=$work/all_els
elf=$(ls "$d"/perf.data.d/*el0*.elf 2>/dev/null | head -1)
snap=$run/e2e/all_els/snapshot
if [ -n "$elf" ] && [ -s "$d/input.txt" ]; then
	"$tools/ete-decode" "$snap" --to-autofdo "$work/x.txt" >"$work/nobin.err" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q -- '--binary' "$work/nobin.err"
	tap $? "--to-autofdo without --binary: exit $rc (2), $(head -1 "$work/nobin.err")"
	# the same image as a PIE: ET_DYN, its segments at 0
	python3 - "$elf" "$work/pie.elf" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[16:18] = struct.pack('<H', 3)
phoff, = struct.unpack_from('<Q', b, 32)
phnum, = struct.unpack_from('<H', b, 56)
for i in range(phnum):
    o = phoff + 56 * i
    if struct.unpack_from('<I', b, o)[0] == 1:
        v, = struct.unpack_from('<Q', b, o + 16)
        struct.pack_into('<QQ', b, o + 16, v - 0xaaaa00000000, v - 0xaaaa00000000)
open(sys.argv[2], 'wb').write(b)
EOF
	"$tools/ete-decode" "$snap" --to-autofdo "$work/x.txt" --binary "$work/pie.elf" >"$work/pie.err" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q 'elf.txt has no load bias' "$work/pie.err" && [ ! -e "$work/x.txt" ]
	tap $? "a PIE binary elf.txt has no bias for is refused: exit $rc (2), $(head -1 "$work/pie.err")"
	mkdir -p "$work/pie"
	for f in "$snap"/*; do ln -s "$f" "$work/pie/"; done
	rm -f "$work/pie/elf.txt"
	echo "0xaaaa00000000 /usr/bin/pie.elf" >"$work/pie/elf.txt"
	"$tools/ete-decode" "$work/pie" --to-autofdo "$work/pie.txt" --binary "$work/pie.elf" >"$work/pie.log" 2>&1
	rc=$?
	cmp -s "$work/pie.txt" "$d/input.txt"
	tap $? "the PIE at elf.txt's bias 0xaaaa00000000: the same input as the executable (exit $rc)" \
		"$(cat "$work/pie.log"; diff "$work/pie.txt" "$d/input.txt" | head)"
	echo "0x10000 pie.elf" >"$work/pie/elf.txt"
	"$tools/ete-decode" "$work/pie" --to-autofdo "$work/none.txt" --binary "$work/pie.elf" >"$work/none.log" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q 'no trace of' "$work/none.log"
	tap $? "a binary the trace never ran in: exit $rc (1), $(tail -1 "$work/none.log")"
fi

# compile PROFILE OUT: clang with the profile; OUT.remarks, OUT.ll
compile() {
	clang --target=aarch64-linux-gnu -O2 -gline-tables-only \
		-fprofile-sample-use="$1" -Rpass-analysis=sample-profile \
		-S -emit-llvm -o "$2.ll" "$src" >"$2.remarks" 2>&1
}

# applied.py REMARKS PROFILE_TEXT SOURCE: the samples clang says it applied,
# by function (the source's "void user_x(void)" lines) and line offset,
# against the profile's
cat >"$work/applied.py" <<'EOF'
import re, sys

remarks, prof, source = sys.argv[1:4]
funcs, insn = [], {}
for i, line in enumerate(open(source), 1):
    m = re.match(r'^void (user_\w+)\(void\)$', line)
    if m:
        funcs.append((i, m.group(1)))
    m = re.search(r'/\* (\d+) ', line)
    if m:
        insn[i] = int(m.group(1))
want, fn = {}, None
for line in open(prof):
    m = re.match(r'^(\S+):(\d+):(\d+)$', line)
    if m:
        fn = m.group(1)
        continue
    m = re.match(r'^ (\d+): (\d+)', line)
    if m and fn:
        want[(fn, int(m.group(1)))] = int(m.group(2))
got, misplaced = {}, []
for line in open(remarks):
    m = re.search(r':(\d+):\d+: remark: Applied (\d+) samples from profile \(offset: (\d+)', line)
    if not m:
        continue
    ln, n, off = int(m.group(1)), int(m.group(2)), int(m.group(3))
    fn = [f for s, f in funcs if s <= ln][-1]
    got[(fn, off)] = n
    # the line's instruction (its comment) is the one the offset names
    if ln in insn and insn[ln] + 2 != off:
        misplaced.append("line %d (instruction %d) got offset %d" % (ln, insn[ln], off))
bad = [k for k in got if got[k] != want.get(k)]
hot = sorted({f for f, o in want if want[(f, o)]})
cover = sorted({f for f, o in got})
print("%d lines of %s applied (%d samples), %d differ from the profile, %d on another instruction's line%s" % (
    len(got), "/".join(cover), sum(got.values()), len(bad), len(misplaced),
    " (first %s)" % misplaced[0] if misplaced else ""))
sys.exit(0 if got and not bad and not misplaced and cover == hot else 1)
EOF

for c in $caps; do
	for v in $convs; do
		d=$work/$c/$v
		[ -s "$d/prof.txt" ] || continue
		ok=0
		compile "$d/prof.afdo" "$d/cc" || ok=1
		msg=$(python3 "$work/applied.py" "$d/cc.remarks" "$d/prof.txt" "$src") || ok=1
		grep -q '!"ProfileFormat", !"SampleProfile"' "$d/cc.ll" || ok=1
		tap $ok "$c: clang -fprofile-sample-use used ${tool[$v]}'s profile: $msg" "$(head -20 "$d/cc.remarks")"
	done
done

# Self-test: the same profile with its functions renamed applies nothing
d=$work/all_els/gcov
if [ -s "$d/prof.txt" ]; then
	sed 's/^user_/other_/' "$d/prof.txt" >"$work/renamed.txt"
	compile "$work/renamed.txt" "$work/renamed"
	if python3 "$work/applied.py" "$work/renamed.remarks" "$work/renamed.txt" "$src" >/dev/null; then
		tap 1 "self-test: a profile of other functions is not reported applied" \
			"$(head -5 "$work/renamed.remarks")"
	else
		tap 0 "self-test: a profile of other functions is not reported applied ($(grep -c 'remark: Applied' "$work/renamed.remarks") remarks)"
	fi
fi

# Sampled against continuous: the ranking's rank correlation, the
# profiles' equal to the truths'
cat >"$work/rank.py" <<'EOF'
import sys


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: -v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else 1.0


def load(f):
    return {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(f)}


cont, samp = load(sys.argv[1]), load(sys.argv[2])
names = sorted(cont)
p = spearman([cont[n][0] for n in names], [samp.get(n, (0, 0))[0] for n in names])
t = spearman([cont[n][1] for n in names], [samp.get(n, (0, 0))[1] for n in names])
order = lambda m, k: " > ".join(sorted(names, key=lambda n: -m.get(n, (0, 0))[k]))
share = lambda m: "/".join("%.1f" % (100.0 * m.get(n, (0, 0))[0] / max(1, sum(v[0] for v in m.values())))
                           for n in sorted(names, key=lambda n: -cont[n][0]))
print("Spearman %.3f (truth %.3f); continuous %s %s%%, sampled %s %s%%" % (
    p, t, order(cont, 0), share(cont), order(samp, 0), share(samp)))
sys.exit(0 if abs(p - t) < 1e-9 else 1)
EOF
[ -n "$convs" ] || tap 1 "sampled vs continuous hot functions: no profile"
for v in $convs; do
	if [ -s "$work/all_els/$v/functions" ] && [ -s "$work/sample/$v/functions" ]; then
		msg=$(python3 "$work/rank.py" "$work/all_els/$v/functions" "$work/sample/$v/functions")
		tap $? "${tool[$v]}: sampled vs continuous hot functions: $msg"
	else
		tap 1 "${tool[$v]}: sampled vs continuous hot functions: a profile is missing"
	fi
done
finish
