#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench, the host half: ete_bench's BENCH lines as one table.

Register accesses per path go beside the architectural minimum ete_bench
computed for the configuration and beside mainline's count for the same
path (mainline-counts.tsv, counted from the kernel's coresight-etm4x and
coresight-trbe sources for the model's ID registers).  Every figure is
written to --out; with --prev, each is compared with the previous run's
and marked WORSE when more than 10% worse in its better direction.
"""
import argparse
import os
import sys

PATHS = [
    # key prefix, what, mainline paths summed
    ("start", "session start, 1 CPU", ["ete_start", "trbe_start"]),
    ("stop", "session stop, 1 CPU", ["ete_stop", "trbe_stop"]),
    ("save", "CPU PM save", ["ete_save"]),
    ("restore", "CPU PM restore", ["ete_restore"]),
    ("irq", "TRBE interrupt + re-arm", ["trbe_irq"]),
    ("flush", "periodic flush", []),
]


def read_bench(path):
    figs = {}
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 5 and parts[0] == "BENCH":
                try:
                    figs[parts[1]] = (float(parts[2]), parts[3], parts[4])
                except ValueError:
                    pass
    return figs


# TRFCR_EL1 accesses mainline makes on each path with FEAT_TRF (the
# model's PEs have it), which mainline-counts.tsv names in its notes but
# leaves out of its rows; ours are counted by the model.
MAINLINE_TRFCR = {"ete_start": 1, "ete_stop": 2, "ete_save": 1,
                  "ete_restore": 1, "trbe_irq": 3}


def read_mainline(path):
    rows, notes = {}, []
    if not path or not os.path.exists(path):
        return rows, notes
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                notes.append(line)
                continue
            parts = line.split("\t")
            if len(parts) >= 6:
                try:
                    # accesses, one read per poll, TRFCR_EL1
                    total = int(parts[1]) + int(parts[4]) + \
                        MAINLINE_TRFCR.get(parts[0], 0)
                    rows[parts[0]] = (total, parts[5])
                except ValueError:
                    pass
    return rows, notes


def read_prev(path):
    prev = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3 and not line.startswith("#"):
                    try:
                        prev[parts[0]] = float(parts[1])
                    except ValueError:
                        pass
    return prev


def worse(key, val, better, prev):
    """'WORSE' if more than 10% worse than the previous run"""
    if key not in prev or better not in ("lower", "higher"):
        return ""
    old = prev[key]
    if better == "lower":
        bad = val > old * 1.10 if old > 0 else val > 0.001
    else:
        bad = val < old * 0.90
    return "WORSE" if bad else ""


# Issue 19's targets: (figure, "<=" or ">=", value, what the target says)
TARGETS = [
    ("save_accesses", "<=", 30, "CPU PM save: at most 30 accesses"),
    ("restore_ratio", "<=", 2, "CPU PM restore: at most twice its minimum"),
    ("start_ratio", "<=", 2, "session start: at most twice its minimum"),
    ("padding_per_mib_at_1024", "<=", 0.005 * 1048576,
     "padding at 1 MB/s: at most 0.5%"),
    ("idle_flushes_per_s", "<=", 0,
     "no flush while no reader waits and nothing is pending"),
    ("mmap_drain_vs_memcpy", "<=", 1.25,
     "mmap drain at least 0.8x memcpy's bandwidth (time at most 1.25x)"),
    ("zero_loss_vs_memcpy", ">=", 0.3,
     "lossless rate at least 0.3x memcpy, default buffer"),
]


def distance(val, op, target):
    """how far a figure misses its target: 0 if met, else a factor"""
    if op == "<=":
        if val <= target:
            return 0.0
        return val / target if target > 0 else 1.0 + val
    if val >= target:
        return 0.0
    return target / val if val > 0 else float("inf")


def fmt(v):
    if v is None:
        return "-"
    if abs(v) >= 100 or v == int(v):
        return "%.0f" % v
    return "%.3g" % v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--mainline")
    ap.add_argument("--out", required=True)
    ap.add_argument("--prev")
    ap.add_argument("--kernel", default="?")
    a = ap.parse_args()

    figs = read_bench(a.log)
    if not figs:
        print("bench: no BENCH lines in %s" % a.log, file=sys.stderr)
        return 1
    main_rows, notes = read_mainline(a.mainline)
    prev = read_prev(a.prev)

    print()
    print("1. Register accesses per path, status polls included (counted by the")
    print("   model; minimum and mainline: see Documentation/testing.rst; mainline")
    print("   counted from its source, one read per poll, with TRFCR_EL1)")
    hdr = "%-26s %8s %6s %8s %8s %9s %10s" % (
        "path", "ours", "polls", "minimum", "ours/min", "mainline", "ours/main")
    print(hdr)
    print("-" * len(hdr))
    for key, what, mpaths in PATHS:
        ours = figs.get(key + "_accesses", (None,))[0]
        if ours is None:
            continue
        polls = figs.get(key + "_polls", (None,))[0]
        mn = figs.get(key + "_min", (None,))[0]
        ml = None
        if mpaths and all(p in main_rows for p in mpaths):
            ml = sum(main_rows[p][0] for p in mpaths)
        print("%-26s %8s %6s %8s %8s %9s %10s" % (
            what, fmt(ours), fmt(polls), fmt(mn),
            fmt(ours / mn) if mn else "-", fmt(ml),
            fmt(ours / ml) if ml else "-"))
    for k, v in sorted(main_rows.items()):
        print("   mainline %-11s %4d  %s" % (k, v[0], v[1]))

    print()
    print("2. Every figure (ratios of two things measured in this boot, or counts)")
    hdr = "%-28s %12s %12s %6s  %s" % ("figure", "this run", "previous", "", "what")
    print(hdr)
    print("-" * 100)
    marked = 0
    with open(a.out, "w") as out:
        out.write("# make bench, kernel %s: figure, value, better direction, what\n"
                  % a.kernel)
        for key, (val, better, what) in figs.items():
            flag = worse(key, val, better, prev)
            marked += flag != ""
            print("%-28s %12s %12s %6s  %s" % (
                key, fmt(val), fmt(prev.get(key)), flag, what))
            out.write("%s\t%.6g\t%s\t%s\n" % (key, val, better, what))
    print()
    print("3. Targets (issue 19); a miss is given as how many times off")
    hdr = "%-28s %12s %12s %10s  %s" % ("figure", "this run", "target", "", "")
    print(hdr)
    print("-" * 100)
    furthest, unmeasured = None, []
    for key, op, target, what in TARGETS:
        if key not in figs:
            unmeasured.append(key)
            print("%-28s %12s %12s %10s  %s" % (key, "-", op + " " + fmt(target),
                                                "NOT MEASURED", what))
            continue
        val = figs[key][0]
        d = distance(val, op, target)
        print("%-28s %12s %12s %10s  %s" % (
            key, fmt(val), op + " " + fmt(target),
            "met" if d == 0 else "x%.3g off" % d, what))
        if d and (furthest is None or d > furthest[1]):
            furthest = (key, d, what)
    if furthest:
        print("furthest from its target: %s (%s), x%.3g off; why: "
              "Documentation/performance.rst" % (furthest[0], furthest[2],
                                                  furthest[1]))
    elif unmeasured:
        print("targets not measured: %s" % " ".join(unmeasured))
    else:
        print("every target met")
    print()
    print("results: %s (%d figures%s)" % (
        a.out, len(figs),
        ", %d more than 10%% worse than the previous run" % marked if prev else
        ", no previous run to compare with"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
