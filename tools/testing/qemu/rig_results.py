#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the test rig's runs and print one summary.

A VM run leaves a folder (see run-vm.sh and init): console.log (what the
console printed, up to a crash: errors and worse, and init's own output),
kmsg (the whole kernel log, streamed from /dev/kmsg while the VM runs),
events (what init ran and how it ended),
kunit/<suite>.ktap (each suite's debugfs results), ksft/<prog>.tap,
sh/<name>.log, kmemleak, qemu.rc and plan (the manifest lines in force).
Host-side suites leave TAP files.

Every counted item is a test case: a KUnit case, a kselftest case, a shell
check, and per VM run the rig's own checks (booted and powered off by itself,
every planned suite ran, a clean kernel log, no kmemleak report).  A test
that runs in several boots or for several kernels counts once per
instance; the line before the last says how many distinct tests those
instances are.  The last line is "RESULT: N passed, N failed, N skipped"
(instances); the exit status is 1 when anything failed.

Usage: rig_results.py [--run LABEL=DIR]... [--host LABEL=TAPFILE]...
"""

import argparse
import os
import re
import sys

# Kernel log lines that mean something went wrong, whatever the tests said.
SPLAT_PATTERNS = [
    r"\bBUG: ",                       # KASAN, sleeping in atomic, soft lockup...
    r"\bWARNING: ",                   # WARN_ON, lockdep reports
    r"Unable to handle kernel",       # arm64 oops
    r"Internal error: ",              # arm64 die()
    r"Kernel panic",
    r"\bUBSAN: ",
    r"DEBUG_LOCKS_WARN_ON",
    r"\bINFO: (possible|trying|task|lockdep)",
    r"detected stalls?\b",           # RCU stall
    r"blocked for more than \d+ seconds",  # hung task
    r"suspected memory leaks?",       # kmemleak
    r"^\s*Call trace:",               # any stack dump
]
SPLAT_RE = re.compile("|".join(SPLAT_PATTERNS))
TIMESTAMP_RE = re.compile(r"^\[\s*\d+\.\d+\]\s?")
# /dev/kmsg records: "LEVEL,SEQ,USEC,FLAGS;message"
KMSG_RE = re.compile(r"^\d+,\d+,\d+,[^;]*;")
TAP_LINE_RE = re.compile(r"^(not ok|ok)\s+(\d+)\s*-?\s*([^#]*?)\s*(#\s*(.*))?$")
PLAN_RE = re.compile(r"^1\.\.(\d+)\s*(#\s*(.*))?$")
# The SKIP directive: the word SKIP (any case) opening the text after the
# description's "#"; "skipped" or "SKIPPING" there is a comment
SKIP_RE = re.compile(r"^skip\b", re.IGNORECASE)


def case_diagnostics(text, where="after", limit=8):
    """Return {number: [diagnostic lines]} for a TAP document's top-level cases.

    A case's diagnostics are the "#" lines between its result line and the
    next one (where="after": the rig's own shell suites print them there),
    or between the previous result line and its own (where="before": the
    kselftest harness prints them first).  At most @limit lines each.
    """
    runs, run, nums = [], [], []
    for line in text.splitlines():
        m = None if line.startswith(" ") else TAP_LINE_RE.match(line.rstrip())
        if m:
            runs.append(run)
            run = []
            nums.append(int(m.group(2)))
        elif line.strip().startswith("#"):
            run.append(line.strip())
    runs.append(run)
    if where == "after":
        return {n: runs[i + 1][:limit] for i, n in enumerate(nums)}
    return {n: runs[i][-limit:] for i, n in enumerate(nums)}


class Tally:
    """Counts, the lines that explain them, and which test each one is.

    @what names an instance (its run or kernel included); @key names the
    test whatever the boot or kernel, for the count of distinct tests
    (@what when not given).
    """

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []
        self.skips = []
        self.keys = []

    def add(self, status, what, key=None):
        self.keys.append(key or what)
        if status == "pass":
            self.passed += 1
        elif status == "skip":
            self.skipped += 1
            self.skips.append(what)
        else:
            self.failed += 1
            self.failures.append(what)

    def merge(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.failures += other.failures
        self.skips += other.skips
        self.keys += other.keys

    def counts(self):
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


def tap_status(ok, directive):
    """Map a TAP result and its directive to pass, fail or skip."""
    if directive and SKIP_RE.match(directive.strip()):
        return "skip"
    return "pass" if ok == "ok" else "fail"


def plan_skip(lines):
    """The reason of a "1..0 # SKIP reason" plan among @lines, or None."""
    for line in lines:
        m = PLAN_RE.match(line.rstrip())
        if m:
            directive = (m.group(3) or "").strip()
            if m.group(1) == "0" and SKIP_RE.match(directive):
                return directive[4:].strip(" :") or "no reason given"
            return None
    return None


def parse_tap_level(lines, indent):
    """Return (plan, {number: (name, status, directive)}) for TAP lines at one indent.

    Lines at a deeper indent (subtests, diagnostics) are ignored; so are
    lines that are not TAP.  The caller chooses the level.
    """
    plan = None
    results = {}
    prefix = " " * indent
    for line in lines:
        if not line.startswith(prefix) or (len(line) > indent and line[indent] == " "):
            continue
        body = line[indent:].rstrip()
        m = PLAN_RE.match(body)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = TAP_LINE_RE.match(body)
        if m:
            num = int(m.group(2))
            results.setdefault(num, (m.group(3).strip(), tap_status(m.group(1), m.group(5)),
                                     (m.group(5) or "").strip()))
    return plan, results


def suite_block_from_console(console_lines, suite):
    """Return the lines of one KUnit suite as the console printed them.

    Module suites print "    # Subtest: <suite>" then their cases, and end
    with "ok N <suite>" or "not ok N <suite>" unindented.  The console copy
    is used only for cases whose line the 512-byte debugfs log lost.
    """
    block = []
    inside = False
    end_re = re.compile(r"^(not ok|ok) \d+ " + re.escape(suite) + r"\s*$")
    for raw in console_lines:
        line = TIMESTAMP_RE.sub("", KMSG_RE.sub("", raw.rstrip("\n")))
        if not inside:
            if line.strip() == f"# Subtest: {suite}":
                inside = True
                block = []
            continue
        if end_re.match(line):
            block.append(line)
            return block
        block.append(line)
    return block if inside else []


def judge_kunit_suite(label, suite, text, console_lines):
    """Count the cases of one suite from its debugfs KTAP document."""
    tally = Tally()
    lines = text.splitlines()
    _, top = parse_tap_level(lines, 0)
    plan, cases = parse_tap_level(lines, 4)
    if plan is None:
        tally.add("fail", f"{label}: kunit {suite}: no test plan in its results",
                  f"kunit {suite}: plan")
        return tally
    if any(n not in cases for n in range(1, plan + 1)):
        console = suite_block_from_console(console_lines, suite)
        _, from_console = parse_tap_level(console, 4)
        for n, res in from_console.items():
            cases.setdefault(n, res)
    for n in range(1, plan + 1):
        if n not in cases:
            tally.add("fail", f"{label}: kunit {suite}: case {n} has no result",
                      f"kunit {suite}: case {n}")
            continue
        name, status, directive = cases[n]
        what = f"{label}: kunit {suite}.{name}"
        tally.add(status, what + (f" # {directive}" if status == "skip" else ""),
                  f"kunit {suite}.{name}")
    suite_status = top.get(1, (suite, "fail"))[1]
    if suite_status == "fail" and tally.failed == 0:
        tally.add("fail", f"{label}: kunit {suite}: suite reported not ok",
                  f"kunit {suite}: suite")
    return tally


def judge_tap(label, name, text, rc, diag=None, limit=8, key=None, by_number=False):
    """Count the cases of a kselftest-style TAP document and its exit code.

    With @diag ("after" or "before", see case_diagnostics()) a failing
    case's line carries its diagnostics (at most @limit lines), so that
    the CI log, which keeps the Failures section, says why.  A document
    that plans nothing ("1..0 # SKIP reason", or exit 4 with no case) is
    one skip, with its reason.  @key names the suite whatever the boot
    or kernel (default @name); its cases are told apart by their names,
    or with @by_number by their numbers (host suites, whose descriptions
    carry figures of the run).
    """
    tally = Tally()
    key = key or name
    lines = text.splitlines()
    plan, cases = parse_tap_level(lines, 0)
    why = plan_skip(lines)
    if not cases and (why is not None or rc == 4):
        why = why or "exit 4"
        tally.add("skip", f"{label}: {name}: skipped as a whole # SKIP {why}", key)
        if rc not in (0, 4):
            tally.add("fail", f"{label}: {name}: exited {rc}", f"{key}: exit")
        return tally
    diags = case_diagnostics(text, diag, limit) if diag else {}
    for n, (case, status, directive) in sorted(cases.items()):
        what = f"{label}: {name}.{case}"
        if status == "fail" and diags.get(n):
            what += "".join("\n      " + d[:300] for d in diags[n])
        if status == "skip" and case:
            what += f" # {directive}"
        elif status == "skip":
            what = f"{label}: {name} case {n} # {directive}"
        tally.add(status, what, f"{key}#{n}" if by_number else f"{key}.{case or n}")
    if plan is not None:
        for n in range(1, plan + 1):
            if n not in cases:
                tally.add("fail", f"{label}: {name}: case {n} has no result", f"{key}#{n}")
    if plan is None and not cases:
        tally.add("fail", f"{label}: {name}: printed no TAP (exit {rc})", f"{key}: output")
    elif plan == 0 and not cases:
        tally.add("fail", f"{label}: {name}: planned no test and gave no SKIP reason",
                  f"{key}: output")
    elif rc not in (0, 4) and tally.failed == 0:
        tally.add("fail", f"{label}: {name}: exited {rc} with no failing case", f"{key}: exit")
    return tally


def read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def parse_events(text):
    """Return a list of (kind, words, {key: value}) from the events file."""
    events = []
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        keys = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        plain = [w for w in words[1:] if "=" not in w]
        events.append((words[0], plain, keys))
    return events


def splats(console_lines):
    """Return the kernel log lines that report a problem."""
    found = []
    for raw in console_lines:
        line = TIMESTAMP_RE.sub("", KMSG_RE.sub("", raw.rstrip("\n")))
        if line.startswith("@@RIG"):
            continue
        if SPLAT_RE.search(line):
            found.append(line.strip())
    return found


def judge_run(label, run_dir, out):
    """Judge one VM run; print a line per suite to out; return a Tally."""
    total = Tally()
    # The console shows errors and worse (run-vm.sh: loglevel=4); the whole
    # log, warnings and lockdep included, is kmsg.  Both are searched.
    console_lines = (read(os.path.join(run_dir, "console.log")).splitlines() +
                     read(os.path.join(run_dir, "kmsg")).splitlines())
    events = parse_events(read(os.path.join(run_dir, "events")))
    qemu_rc = read(os.path.join(run_dir, "qemu.rc"), "missing").strip()

    kinds = [e[0] for e in events]
    booted = "begin" in kinds
    ended = "end" in kinds
    begin = next((e for e in events if e[0] == "begin"), None)
    env = " ".join(f"{k}={v}" for k, v in begin[2].items()) if begin else "no boot"
    print(f"[{label}] {env}", file=out)

    status = "pass" if booted and ended and qemu_rc == "0" else "fail"
    why = "booted, ran the plan and powered off by itself"
    if status == "fail":
        why = f"did not finish (booted={booted} ended={ended} qemu exit={qemu_rc}"
        why += ", 124 = hard timeout)" if qemu_rc == "124" else ")"
    total.add(status, f"{label}: rig: VM {why}", "rig: VM ran the plan and powered off")
    print(f"  {'ok' if status == 'pass' else 'FAIL':4} [{label}] VM {why}", file=out)

    # A run labelled EL1 or EL2 must really have run the kernel there (EL2
    # with VHE, as Armv9 servers do); a silently wrong machine proves nothing.
    want = {"EL1": ("1", "0", "dt"), "EL2": ("2", "1", "dt"),
            "ACPI": ("1", "0", "acpi")}.get(label.split()[0])
    if want and begin:
        got = (begin[2].get("el"), begin[2].get("vhe"), begin[2].get("fw"))
        st = "pass" if got == want else "fail"
        total.add(st, f"{label}: rig: kernel ran at EL{got[0]} vhe={got[1]} fw={got[2]}",
                  f"rig: {label.split()[0]} boot's EL and firmware")
        print(f"  {'ok' if st == 'pass' else 'FAIL':4} [{label}] kernel ran at EL{got[0]}"
              f"{' with VHE' if got[1] == '1' else ''}, "
              f"{'ACPI' if got[2] == 'acpi' else 'devicetree'}", file=out)

    # A run labelled with a kernel ("EL1 6.12") must have booted that one.
    words = label.split()
    if len(words) > 1 and begin:
        release = begin[2].get("kernel", "unknown")
        st = "pass" if (release + ".").startswith(words[1] + ".") else "fail"
        total.add(st, f"{label}: rig: booted kernel {release}", "rig: the kernel of the label")
        print(f"  {'ok' if st == 'pass' else 'FAIL':4} [{label}] booted kernel {release}", file=out)

    # The suites each KUnit module registered (init: "kunit-suite MODULE
    # SUITE"): every one is judged, listed in its line's expect= or not
    suites_of = {}
    for e in events:
        if e[0] == "kunit-suite" and len(e[1]) > 1:
            suites_of.setdefault(e[1][0], []).append(e[1][1])
    for kind, words, keys in events:
        secs = int(keys.get("ms", "0")) / 1000.0
        # init kills an entry that outlives its limit (ete_rig.entry_timeout)
        cut = (f" timed out after {keys['timeout']} s (killed, exit {keys.get('rc')})"
               if "timeout" in keys else "")
        if kind == "insmod" or kind == "rmmod":
            st = "pass" if keys.get("rc") == "0" and not cut else "fail"
            total.add(st, f"{label}: {kind} {words[0]} rc={keys.get('rc')}{cut}",
                      f"{kind} {words[0]}")
            if st == "fail":
                print(f"  FAIL [{label}] {kind} {words[0]} rc={keys.get('rc')}{cut}", file=out)
        elif kind == "kunit":
            mod = words[0]
            tally = Tally()
            if keys.get("rc") != "0" or cut:
                tally.add("fail", f"{label}: kunit module {mod} failed to load "
                                  f"(rc={keys.get('rc')}){cut}", f"kunit module {mod}")
            expected = [s for s in keys.get("expect", "").split(",") if s]
            seen = suites_of.get(mod, [])
            for suite in expected + [s for s in seen if s not in expected]:
                if suite not in seen:
                    tally.add("fail", f"{label}: kunit suite {suite} of {mod} did not run",
                              f"kunit {suite}: ran")
                    continue
                if suite not in expected:
                    tally.add("fail", f"{label}: kunit suite {suite} of {mod} ran but is not "
                                      f"in its manifest line's expect= list",
                              f"kunit {suite}: expected")
                text = read(os.path.join(run_dir, "kunit", suite + ".ktap"))
                t = judge_kunit_suite(label, suite, text, console_lines)
                print(f"  {'ok' if t.failed == 0 else 'FAIL':4} [{label}] kunit {suite}: "
                      f"{t.counts()}{'' if suite in expected else ' (not in expect=)'}",
                      file=out)
                tally.merge(t)
            print(f"       [{label}] module {mod}: {secs:.1f} s", file=out)
            total.merge(tally)
        elif kind == "ksft" or kind == "sh":
            name = words[0]
            rc = int(keys.get("rc", "1"))
            if kind == "ksft":
                text = read(os.path.join(run_dir, "ksft", name + ".tap"))
                # The CI log keeps the Failures section: each failing
                # case says why there, with the lines the harness printed
                # before its result
                t = judge_tap(label, name, text, rc, "before", 15, key=f"ksft {name}")
                if cut:
                    t.add("fail", f"{label}: {name}:{cut}", f"ksft {name}: time limit")
                if t.failed and not any("\n" in f for f in t.failures):
                    # no case to hang them on (killed, no result): the end
                    diag = [ln.strip() for ln in text.splitlines()
                            if ln.lstrip().startswith("#")][-15:]
                    t.failures[-1] += "".join("\n      " + d for d in diag)
            else:
                t = Tally()
                what = f"{label}: sh {name}" + (cut or f" exited {rc}")
                if rc or cut:
                    log = read(os.path.join(run_dir, "sh", name + ".log"))
                    what += "".join("\n      " + ln[:300] for ln in
                                    [x for x in log.splitlines() if x.strip()][-10:])
                t.add("pass" if rc == 0 and not cut else "fail", what, f"sh {name}")
            print(f"  {'ok' if t.failed == 0 else 'FAIL':4} [{label}] {kind} {name}: "
                  f"{t.counts()} ({secs:.1f} s)", file=out)
            total.merge(t)
        elif kind == "bad-manifest-line":
            total.add("fail", f"{label}: manifest line of unknown kind {words}",
                      f"manifest line {words}")

    # Planned items that never reported (init died or the VM hung first).
    plan = [line.split() for line in read(os.path.join(run_dir, "plan")).splitlines()
            if line.strip() and not line.startswith("#")]
    reported = {(e[0], e[1][0]) for e in events if e[1]}
    for item in plan:
        if len(item) >= 3 and (item[0], item[2]) not in reported:
            total.add("fail", f"{label}: planned {item[0]} {item[2]} never reported",
                      f"{item[0]} {item[2]}: reported")
            print(f"  FAIL [{label}] {item[0]} {item[2]}: never reported", file=out)

    found = splats(console_lines)
    total.add("fail" if found else "pass",
              f"{label}: kernel log: " + (found[0] if found else "clean"), "rig: kernel log")
    print(f"  {'FAIL' if found else 'ok':4} [{label}] kernel log: "
          f"{len(found)} report line(s)" if found else "  ok   kernel log: clean", file=out)
    for line in found[:12]:
        print(f"         | {line}", file=out)

    leaks = read(os.path.join(run_dir, "kmemleak"), None)
    if leaks is None:
        total.add("fail", f"{label}: kmemleak: no scan result", "rig: kmemleak")
        print("  FAIL kmemleak: no scan result", file=out)
    else:
        n = leaks.count("unreferenced object")
        total.add("fail" if n else "pass", f"{label}: kmemleak: {n} leak(s)", "rig: kmemleak")
        print(f"  {'FAIL' if n else 'ok':4} [{label}] kmemleak: {n} unreferenced object(s)", file=out)
    return total


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="append", default=[], metavar="LABEL=DIR")
    ap.add_argument("--host", action="append", default=[], metavar="LABEL=TAP")
    args = ap.parse_args(argv)

    total = Tally()
    for spec in args.host:
        label, path = spec.split("=", 1)
        rc_path = path + ".rc"
        rc = int(read(rc_path, "0").strip() or "0")
        # a suite's cases are the same tests for every kernel ("e2e_decode
        # 6.1", "e2e_decode 6.12"), told apart by number
        key = "host " + label.split()[0]
        budget = read(path + ".timeout", None)
        if budget is not None:
            # check.sh's host_suite() killed it: what it printed is cut
            t = Tally()
            t.add("fail", f"host: {label}: killed after its budget of {budget.strip()} s "
                          f"(timeout)", f"{key}: budget")
        else:
            t = judge_tap("host", label, read(path), rc, diag="after", key=key, by_number=True)
        whole = [s.split(" # SKIP ", 1)[1] for s in t.skips if ": skipped as a whole # SKIP " in s]
        print(f"[host] {'ok' if t.failed == 0 else 'FAIL':4} {label}: {t.counts()}"
              + (f" (skipped as a whole: {whole[0]})" if whole else ""))
        total.merge(t)
    for spec in args.run:
        label, path = spec.split("=", 1)
        total.merge(judge_run(label, path, sys.stdout))

    if total.skips:
        print("\nSkipped:")
        for s in total.skips[:60]:
            print(f"  {s}")
        if len(total.skips) > 60:
            print(f"  ... and {len(total.skips) - 60} more")
    if total.failures:
        print("\nFailures:")
        for f in total.failures[:50]:
            print(f"  {f}")
    print(f"\ndistinct: {len(set(total.keys))} tests ({len(total.keys)} instances over "
          f"{len(args.run)} boots and {len(args.host)} host suites)")
    print(f"RESULT: {total.counts()}")
    return 1 if total.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
