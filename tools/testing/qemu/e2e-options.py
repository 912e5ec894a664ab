#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What an end-to-end capture's etecap options did (post.d/e2e_decode.sh).

The model writes its ground truth from the registers it was given, so a
decode equal to the truth says nothing of whether the options reached the
unit.  This checks, for one CPU of one case (ete-e2e-case's
/out/e2e/CASE/), that:

 - etecap recorded the registers the driver programmed in ETE_N.ini
   (sysfs regs/), and that they are what the model's register file held
   after the session (model_regs_cpuN.txt): what reached the unit;
 - each unit option of the case's etecap command line is in them, as the
   architecture defines the fields (the rule tags of
   /work/shared/spec/requirements.md), and each boolean option not given
   is off;
 - the trace shows it: the model's truth (in ranges mode) and the packet
   kinds trc_pkt_lister counted (CASE/lister_cpuN.counts: "cc N ts N q N").

Usage: e2e-options.py CASE_DIR CPU [ETECAP_OPTION...]
Prints "0 SUMMARY" or "1 SUMMARY", then "# " lines that say what failed.
"""

import os
import sys

KERNEL = 0xffff000000000000	# TTBR1 addresses: the model's el1 region
# Fields (include/ete/regs.h, ete/config.c; registers.md)
CONFIGR_BB, CONFIGR_CCI, CONFIGR_TS, CONFIGR_RS = 1 << 3, 1 << 4, 1 << 11, 1 << 12
CONFIGR_QE_SHIFT, CONFIGR_QE_MASK = 13, 3
VICTLR_SSSTATUS = 1 << 9
VICTLR_EXLEVEL_NS_SHIFT = 20
# Registers the unit itself changes (Table D4-2's indirect writes): the
# model's copy after the session need not be the programmed value
DYNAMIC = ("TRCCNTVR", "TRCSEQSTR", "TRCSSCSR", "TRCRSR")


def read_ini_regs(path):
    regs, sect = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                sect = line
            elif sect == "[regs]" and "=" in line:
                name, val = line.split("=", 1)
                regs[name.split("(")[0].upper()] = int(val, 0)
    return regs


def read_model_regs(path):
    regs = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 2:
                regs[w[0].upper()] = int(w[1], 0)
    return regs


def read_truth(path):
    """The R and Q records as (kind, start, end_or_next), and the mode"""
    recs, hashed = [], False
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] in ("R", "Q") and len(w) >= 4:
                recs.append((w[0], int(w[2], 16), int(w[3], 16)))
            elif w[0] == "H":
                hashed = True
    return recs, hashed


def read_counts(path):
    counts = {}
    try:
        with open(path) as f:
            w = f.read().split()
        for i in range(0, len(w) - 1, 2):
            counts[w[i]] = int(w[i + 1])
    except (OSError, ValueError):
        pass
    return counts


# etecap's presets (etecap(1), PRESETS): what each sets of the unit
# options, for those the command line leaves unset
PRESETS = {
    "autofdo": {"el": "user", "return_stack": True, "timestamps": False,
                "sample": (5000, 5000 * 4096)},
    "flight": {"el": "all", "return_stack": True, "timestamps": True},
    "kernel": {"el": "kernel", "return_stack": True, "timestamps": True},
    "user": {"el": "user", "return_stack": True, "timestamps": True},
}


def parse_options(argv):
    """The unit options of an etecap command line"""
    o = {"el": None, "include": [], "exclude": [], "start": [], "stop": [],
         "cycles": False, "timestamps": False, "return_stack": False,
         "bb": False, "q": False, "sample": None}
    preset = None
    with_arg = {"-o", "--output", "-c", "--cpus", "-P", "--profile", "-p",
                "--attach", "-t", "--duration", "--preset", "--pid", "--comm",
                "--sync-period", "-b", "--buffer-size", "-m", "--mode",
                "--when-behind", "--mem", "--progress", "--perf-data",
                "--others-max"}
    i = 0
    while i < len(argv):
        a = argv[i]
        val = argv[i + 1] if i + 1 < len(argv) else ""
        if a in ("-e", "--el"):
            o["el"] = val
            i += 1
        elif a in ("--include", "--exclude"):
            s, l = val.split("-")
            o[a[2:]].append((int(s, 0), int(l, 0)))
            i += 1
        elif a in ("--start", "--stop"):
            o[a[2:]].append(int(val, 0))
            i += 1
        elif a == "--cycles" or a.startswith("--cycles="):
            o["cycles"] = True
        elif a == "--timestamps":
            o["timestamps"] = True
        elif a == "--return-stack":
            o["return_stack"] = True
        elif a == "--branch-broadcast":
            o["bb"] = True
        elif a == "--q-elements":
            o["q"] = True
        elif a == "--sample":
            w, per = val.split("/")
            o["sample"] = (int(w, 0), int(per, 0))
            i += 1
        elif a == "--preset":
            preset = val
            i += 1
        elif a in with_arg:
            i += 1
        i += 1
    for k, v in PRESETS.get(preset, {}).items():
        if o[k] in (None, False):
            o[k] = v
    return o


def el_mask(spec):
    """etecap -e: the ELs traced, bit n = ELn; None for all (the default)"""
    if spec in (None, "all"):
        return None
    spec = {"user": "0", "kernel": "1"}.get(spec, spec)
    return sum(1 << int(e) for e in spec.split(","))


class Check:
    def __init__(self):
        self.fails, self.said = [], []

    def ok(self, cond, what, why="", quiet=False):
        """@what is said (unless @quiet) or failed, with @why"""
        if not cond:
            self.fails.append(what + (": " + why if why else ""))
        elif not quiet:
            self.said.append(what)
        return cond


def comparator(regs, n):
    return regs.get("TRCACVR%d" % n)


def check(case_dir, cpu, argv):
    c = Check()
    o = parse_options(argv)
    ini = os.path.join(case_dir, "snapshot", "ETE_%s.ini" % cpu)
    try:
        regs = read_ini_regs(ini)
    except OSError as e:
        return 1, "no ETE_%s.ini (%s)" % (cpu, e.strerror), []
    if "TRCVICTLR" not in regs:
        return 1, ("ETE_%s.ini holds no programmed register (TRCVICTLR): "
                   "etecap or the driver predates regs/" % cpu), []
    try:
        model = read_model_regs(os.path.join(case_dir,
                                             "model_regs_cpu%s.txt" % cpu))
    except OSError:
        model = {}
    try:
        recs, hashed = read_truth(os.path.join(case_dir,
                                               "truth_cpu%s.txt" % cpu))
    except OSError:
        recs, hashed = [], True
    counts = read_counts(os.path.join(case_dir, "lister_cpu%s.counts" % cpu))
    rs = [r for r in recs if r[0] == "R"]
    qs = [r for r in recs if r[0] == "Q"]

    # What reached the unit: every programmed register but those the unit
    # itself updates, and TRCVICTLR without SSSTATUS (RPBFMY)
    same, differ = 0, []
    for name, val in sorted(regs.items()):
        if name not in model or name.startswith(DYNAMIC):
            continue
        mask = ~VICTLR_SSSTATUS if name == "TRCVICTLR" else ~0
        if (val ^ model[name]) & mask:
            differ.append("%s 0x%x, the model 0x%x" % (name, val, model[name]))
        else:
            same += 1
    c.ok(model and same and not differ,
         "%d registers as the model holds them" % same,
         "; ".join(differ) or "no model_regs_cpu%s.txt" % cpu)

    configr = regs.get("TRCCONFIGR", 0)
    victlr = regs["TRCVICTLR"]

    # -e: TRCVICTLR.EXLEVEL_NS, 1 excludes (RLWYJR), of the ELs the unit
    # implements (TRCIDR3.EXLEVEL_NS, bits [23:20]); the kernel is at EL1
    # here (the EL1 run) and its code at TTBR1 addresses
    impl = (regs.get("TRCIDR3", 0) >> 20) & 7
    if o["el"] is not None:
        mask = el_mask(o["el"])
        want = 0 if mask is None else ~mask & impl
        got = (victlr >> VICTLR_EXLEVEL_NS_SHIFT) & 7
        c.ok(got == want, "-e %s: TRCVICTLR.EXLEVEL_NS 0b%s" %
             (o["el"], format(got, "03b")), "want 0b%s" % format(want, "03b"))
        if not hashed:
            kern = [r for r in recs if r[1] >= KERNEL]
            if mask is not None and not mask & 2:
                c.ok(not kern and recs, "%d kernel ranges of %d" %
                     (len(kern), len(recs)), "the kernel is not traced")
            elif mask is None:
                c.ok(kern and len(kern) < len(recs), "%d kernel ranges of %d"
                     % (len(kern), len(recs)), "both user and kernel code")

    # --include/--exclude: an address range comparator pair k (TRCACVR<2k>,
    # TRCACVR<2k+1>, inclusive: IHDFQM, SVNWYT) selected in
    # TRCVIIECTLR.INCLUDE[k] or .EXCLUDE[k] (ILDDGL); the model traces
    # only the included tail of a block (RRNPWD: at least one included
    # instruction), none of an excluded one (RPLCQJ)
    viiectlr = regs.get("TRCVIIECTLR", 0)
    for kind, shift in (("include", 0), ("exclude", 16)):
        sel = (viiectlr >> shift) & 0xff
        pairs = [(comparator(regs, 2 * k), comparator(regs, 2 * k + 1))
                 for k in range(8) if sel >> k & 1]
        for lo, hi in o[kind]:
            c.ok((lo, hi) in pairs, "--%s 0x%x-0x%x: TRCVIIECTLR 0x%x" %
                 (kind, lo, hi, viiectlr),
                 "no pair of its %s bits holds these addresses (%s)" %
                 (kind.upper(), ", ".join("0x%x-0x%x" % p if None not in p
                                          else "unset" for p in pairs) or
                  "none selected"))
        if not o[kind]:
            c.ok(not sel, "no %s range" % kind,
                 "TRCVIIECTLR.%s 0x%x" % (kind.upper(), sel), quiet=True)
    if not hashed and o["include"]:
        out = [r for r in recs if not any(
            lo <= r[1] <= hi and (r[0] == "Q" or r[2] - 4 <= hi)
            for lo, hi in o["include"])]
        c.ok(recs and not out, "%d ranges, all inside" % len(recs),
             "%d outside, first %s 0x%x-0x%x" % ((len(out),) + out[0])
             if out else "no range")
    if not hashed and o["exclude"]:
        into = [r for r in recs if any(
            (lo <= r[1] <= hi) or (r[0] == "R" and r[1] < lo <= r[2] - 4)
            for lo, hi in o["exclude"])]
        c.ok(recs and not into, "%d ranges, none inside" % len(recs),
             "%d inside, first %s 0x%x-0x%x" % ((len(into),) + into[0])
             if into else "no range")

    # --start/--stop: single comparators selected in TRCVISSCTLR.START
    # [15:0] or .STOP [31:16] (IPJQSC), the start/stop state programmed
    # stopped (TRCVICTLR.SSSTATUS 0, SXMMLP); the start instruction is
    # traced (RMVDJT), so is the stop instruction (RCDFBP)
    vissctlr = regs.get("TRCVISSCTLR", 0)
    for kind, shift in (("start", 0), ("stop", 16)):
        sel = (vissctlr >> shift) & 0xffff
        addrs = [comparator(regs, n) for n in range(16) if sel >> n & 1]
        for a in o[kind]:
            c.ok(a in addrs, "--%s 0x%x: TRCVISSCTLR 0x%x" %
                 (kind, a, vissctlr), "no %s comparator holds it (%s)" %
                 (kind.upper(), ", ".join("0x%x" % x if x is not None
                                          else "unset" for x in addrs) or
                  "none selected"))
        if not o[kind]:
            c.ok(not sel, "no %s address" % kind,
                 "TRCVISSCTLR.%s 0x%x" % (kind.upper(), sel), quiet=True)
    if o["start"]:
        c.ok(not victlr & VICTLR_SSSTATUS, "TRCVICTLR.SSSTATUS 0 at the start",
             "programmed started")
    if not hashed and o["start"]:
        first = rs[0][1] if rs else None
        c.ok(first in o["start"], "the first range starts at %s" %
             ("0x%x" % first if first is not None else "none"),
             "not at a start address")
    if not hashed and o["stop"]:
        ends = sum(1 for r in rs if r[2] - 4 in o["stop"])
        c.ok(ends, "%d ranges end with the stop instruction" % ends,
             "the stop instruction is never traced")

    # Boolean options: TRCCONFIGR bits, on when asked and off otherwise
    # (said only when on), and the packets they make
    cc, ts, q = counts.get("cc"), counts.get("ts"), counts.get("q")
    lister = cc is not None

    def flag(asked, on, what):
        c.ok(on == asked, "%s %s" % (what, "on" if on else "off"),
             "asked %s" % ("on" if asked else "off"), quiet=not asked)

    def packets(asked, n, what):
        if lister:
            c.ok(bool(n) == asked, "%d %s packets" % (n, what),
                 "%s %s" % (what, "asked" if asked else "not asked"),
                 quiet=not asked)

    # cycle counting: CCI, a threshold, Cycle Count packets (RGWQGS)
    flag(o["cycles"], bool(configr & CONFIGR_CCI), "TRCCONFIGR.CCI")
    if o["cycles"]:
        c.ok("TRCCCCTLR" in regs, "TRCCCCTLR 0x%x" % regs.get("TRCCCCTLR", 0),
             "not programmed")
    packets(o["cycles"], cc, "Cycle Count")
    # timestamps: TS, Timestamp packets (H.20)
    flag(o["timestamps"], bool(configr & CONFIGR_TS), "TRCCONFIGR.TS")
    packets(o["timestamps"], ts, "Timestamp")
    flag(o["return_stack"], bool(configr & CONFIGR_RS), "TRCCONFIGR.RS")
    # branch broadcast: BB, and TRCBBCTLR in exclude mode with no range:
    # everywhere (J.3, RXSVSX)
    flag(o["bb"], bool(configr & CONFIGR_BB), "TRCCONFIGR.BB")
    if o["bb"]:
        bbctlr = regs.get("TRCBBCTLR")
        c.ok(bbctlr == 0, "TRCBBCTLR %s (everywhere)" %
             ("0x%x" % bbctlr if bbctlr is not None else "unset"),
             "want MODE 0 (exclude) and no RANGE")
    # Q elements with counts: QE 0b01 (RSGFHP, RCGHSK), Q packets, and
    # the truth's Q records (runs of blocks known by count only)
    qe = (configr >> CONFIGR_QE_SHIFT) & CONFIGR_QE_MASK
    c.ok(qe == (1 if o["q"] else 0), "TRCCONFIGR.QE 0b%s" % format(qe, "02b"),
         "asked %s" % ("0b01" if o["q"] else "0b00"), quiet=not o["q"])
    packets(o["q"], q, "Q")
    if not hashed:
        c.ok(bool(qs) == o["q"], "%d Q records in the truth" % len(qs),
             "Q elements %s" % ("asked" if o["q"] else "not asked"),
             quiet=not o["q"])
    # --sample W/P (ete/sample.c): counter 0 reloads every window, counter 1
    # every P/W windows (RYLYPH), the sequencer's F0 on counter 1 at zero
    # and B0 on counter 0 at zero (RJDPYL), ViewInst's event state 1
    # (RHQHFT); without it the event is the TRUE selector 1 (RSXSQT)
    event = victlr & 0xff
    if o["sample"]:
        w, per = o["sample"]
        want = {"TRCCNTRLDVR0": w - 1, "TRCCNTCTLR0": 0x10001,
                "TRCCNTRLDVR1": per // w - 1, "TRCCNTCTLR1": 0x10002,
                "TRCRSCTLR2": 0x20001, "TRCRSCTLR3": 0x20002,
                "TRCRSCTLR4": 0x20020, "TRCSEQEVR0": 0x0203}
        bad = ["%s %s, want 0x%x" % (k, "0x%x" % regs[k] if k in regs
                                     else "unset", v)
               for k, v in sorted(want.items()) if regs.get(k) != v]
        c.ok(event == 4 and not bad,
             "--sample %d/%d: TRCVICTLR.EVENT %d, counters, selectors and "
             "sequencer as ete/sample.c programs them" % (w, per, event),
             "; ".join(bad) or "want EVENT 4 (sequencer state 1)")
    else:
        c.ok(event == 1, "TRCVICTLR.EVENT %d" % event,
             "want 1 (always TRUE) without --sample", quiet=True)
    c.said.append("TRCCONFIGR 0x%x%s" %
                  (configr, "" if c.fails else ", the rest as asked"))
    if hashed:
        c.said.append("hash-mode truth: no ranges to look at")
    if not lister:
        c.fails.append("no packet counts (lister_cpu%s.counts)" % cpu)
    return (1 if c.fails else 0), "; ".join(c.said), c.fails


def main():
    if len(sys.argv) < 3:
        print("usage: e2e-options.py CASE_DIR CPU [ETECAP_OPTION...]",
              file=sys.stderr)
        return 2
    status, summary, fails = check(sys.argv[1], sys.argv[2], sys.argv[3:])
    print(status, summary)
    for f in fails:
        print("# " + f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
