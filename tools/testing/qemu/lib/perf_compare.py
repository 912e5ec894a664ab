# SPDX-License-Identifier: GPL-2.0
# The model's truth against perf's instruction samples (the perf suites,
# post.d/perf_decode.sh and perf_versions.sh).
# Usage: perf_compare.py exact|runs TRUTH IP_FILE...
# TRUTH: R/Q records of the model (or ete-decode); each IP_FILE one
# segment's `perf script -F ip`, one address a line.  "exact": one
# segment, the same instructions; "runs": each segment a run of the
# truth's, in order.  Prints one summary line; exit 0 if they agree.
import struct, sys

mode, truth, segs = sys.argv[1], sys.argv[2], sys.argv[3:]
t, nr, nq = [], 0, 0
for line in open(truth):
    f = line.split()
    if f and f[0] == 'R':
        s, k = int(f[2], 16), int(f[4])
        t.extend(s + 4 * i for i in range(k))
        nr += 1
    elif f and f[0] == 'Q':
        nq += 1   # a path the trace does not give: no instruction known
    elif f and f[0] in ('H', '#'):
        print("truth has hash or lost records: not comparable")
        sys.exit(1)
p = [[int(l.split()[0], 16) for l in open(s) if l.strip()] for s in segs]


def runs(seq):
    r = []
    for a in seq:
        if r and a == r[-1][1]:
            r[-1][1] = a + 4
        else:
            r.append([a, a + 4])
    return r


def pack(seq):
    return struct.pack('<%dQ' % len(seq), *seq)


ok, equal, diff, first = True, 0, 0, None
if mode == 'exact' and nq:
    # Q elements (instruction counts without a path): after one, perf's
    # decoder may give nothing until the next address, where ete-decode
    # goes on.  Each stretch perf gives must still be the truth's, in
    # order (as a segment after a gap is); what it leaves out is counted.
    mode, p = 'runs', [list(range(x, y, 4)) for x, y in runs(p[0])]
if mode == 'exact':
    rt, rp = runs(t), runs(p[0])
    equal = sum(1 for a, b in zip(rt, rp) if a == b)
    diff = max(len(rt), len(rp)) - equal
    ok = t == p[0] and len(t) > 0
    for i, (a, b) in enumerate(zip(t, p[0])):
        if a != b:
            first = "first difference at instruction %d: truth 0x%x, perf 0x%x" % (i, a, b)
            break
    else:
        if len(t) != len(p[0]):
            first = "truth %d instructions, perf %d" % (len(t), len(p[0]))
    ranges = len(rt)
else:
    tb, pos, ranges = pack(t), 0, 0
    for k, seq in enumerate(p):
        r = runs(seq)
        ranges += len(r)
        if not seq:
            continue
        # the segment's first and last runs may be cut by its ends
        at, needle = tb.find(pack(seq), pos), pack(seq)
        while at >= 0 and at % 8:
            at = tb.find(needle, at + 1)
        if at < 0:
            ok = False
            diff += len(r)
            first = first or "segment %d (%d instructions from 0x%x) is not a run of the truth after instruction %d" % (
                k, len(seq), seq[0], pos // 8)
        else:
            equal += len(r)
            pos = at + len(needle)
    ok = ok and equal > 0
print("%d truth ranges (%d Q), %d instructions; perf %d instructions in %d segment(s); ranges compared %d, equal %d, different %d%s" % (
    nr, nq, len(t), sum(map(len, p)), len(p), ranges, equal, diff,
    "; " + first if first else ""))
sys.exit(0 if ok else 1)
