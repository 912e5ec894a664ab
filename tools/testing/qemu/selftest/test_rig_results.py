#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Self-test of the rig's result parser, printed as TAP.

Two kinds of case: small synthetic documents for the KTAP/TAP corner cases,
and runs recorded from the real VM (recorded/<name>/), one clean and one for
each way a run must fail: a failing KUnit case, a failing kselftest, a
WARN_ON (on the console, and only in the streamed kmsg: warn_kmsg), an
oops, a KASAN report, a kmemleak report and a hung VM.  Each
recorded run says in its "expect" file whether it must pass or fail and
which failure line must be among the reasons.
"""

import io
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import rig_results  # noqa: E402

CASES = []


def case(fn):
    CASES.append(fn)
    return fn


KTAP_OK = """KTAP version 1
1..1
    KTAP version 1
    # Subtest: demo
    1..3
    ok 1 first
        # second: param list
        ok 1 a
        ok 2 b
    ok 2 second
    ok 3 third # SKIP not here
ok 1 demo
"""


@case
def ktap_counts_cases_not_params():
    t = rig_results.judge_kunit_suite("L", "demo", KTAP_OK, [])
    assert (t.passed, t.failed, t.skipped) == (2, 0, 1), t.counts()


@case
def ktap_failed_case_counts_as_failure():
    text = KTAP_OK.replace("    ok 2 second", "    not ok 2 second")
    text = text.replace("ok 1 demo", "not ok 1 demo")
    t = rig_results.judge_kunit_suite("L", "demo", text, [])
    assert (t.passed, t.failed) == (1, 1), t.counts()


@case
def ktap_missing_case_recovered_from_console():
    # The 512-byte debugfs log lost case 2's result line; the console has it.
    text = KTAP_OK.replace("    ok 2 second\n", "")
    console = ["[    1.0] " + line for line in KTAP_OK.splitlines()[2:]]
    t = rig_results.judge_kunit_suite("L", "demo", text, console)
    assert (t.passed, t.failed, t.skipped) == (2, 0, 1), t.counts()


@case
def ktap_missing_case_everywhere_fails():
    text = KTAP_OK.replace("    ok 2 second\n", "")
    t = rig_results.judge_kunit_suite("L", "demo", text, [])
    assert t.failed == 1, t.counts()


@case
def ktap_suite_not_ok_with_passing_cases_fails():
    text = KTAP_OK.replace("ok 1 demo", "not ok 1 demo")
    t = rig_results.judge_kunit_suite("L", "demo", text, [])
    assert t.failed == 1, t.counts()


@case
def ktap_without_plan_fails():
    t = rig_results.judge_kunit_suite("L", "demo", "", [])
    assert t.failed == 1, t.counts()


TAP_OK = """TAP version 13
1..3
# Starting 3 tests from 1 test cases.
ok 1 global.a
ok 2 global.b # SKIP absent
ok 3 global.c
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0
"""


@case
def tap_counts():
    t = rig_results.judge_tap("L", "p", TAP_OK, 0)
    assert (t.passed, t.failed, t.skipped) == (2, 0, 1), t.counts()


@case
def tap_truncated_plan_fails():
    t = rig_results.judge_tap("L", "p", TAP_OK.replace("ok 3 global.c\n", ""), 0)
    assert t.failed == 1, t.counts()


@case
def tap_nonzero_exit_without_failure_fails():
    t = rig_results.judge_tap("L", "p", TAP_OK, 1)
    assert t.failed == 1, t.counts()


@case
def tap_no_output_fails():
    t = rig_results.judge_tap("L", "p", "", 0)
    assert t.failed == 1, t.counts()


@case
def tap_whole_program_skip_is_a_skip():
    t = rig_results.judge_tap("L", "p", "TAP version 13\n1..0 # SKIP no device\n", 4)
    assert (t.passed, t.failed, t.skipped) == (0, 0, 1), t.counts()


@case
def tap_whole_suite_skip_with_exit_0_is_a_skip_with_its_reason():
    # a suite that prints "1..0 # SKIP" and exits 0 (perf_decode without
    # perf) is one skip, its reason kept; it does not vanish
    text = "TAP version 13\n1..0 # SKIP perf is not installed\n"
    t = rig_results.judge_tap("host", "perf_decode 6.12", text, 0)
    assert (t.passed, t.failed, t.skipped) == (0, 0, 1), t.counts()
    assert any("perf is not installed" in s for s in t.skips), t.skips


@case
def tap_plan_of_nothing_without_a_skip_fails():
    # "1..0" with no SKIP reason: a suite that ran nothing and said
    # nothing about why is not a skip
    t = rig_results.judge_tap("host", "s", "TAP version 13\n1..0\n", 0)
    assert t.failed == 1 and t.skipped == 0, t.counts()


@case
def tap_skip_is_a_directive_word_only():
    # "# SKIP" / "# skip" after the description is a skip; "skip" inside
    # a word of the directive or in the description is not
    text = ("TAP version 13\n1..6\n"
            "ok 1 skip_list_is_kept\n"
            "ok 2 frames # skipped 3 frames\n"
            "ok 3 b # SKIP\n"
            "ok 4 c # skip no device\n"
            "not ok 5 d # SKIPPING is not a directive\n"
            "ok 6 e #SKIP: no capture\n")
    t = rig_results.judge_tap("L", "p", text, 1)
    assert (t.passed, t.failed, t.skipped) == (2, 1, 3), (t.counts(), t.failures)


def vm_run_dir(d, events, plan, files=()):
    """Write a minimal run folder into @d: events, plan, and @files."""
    for sub in ("ksft", "kunit", "sh"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    with open(os.path.join(d, "events"), "w") as f:
        f.write("begin subset=all el=1 vhe=0 fw=dt cpus=4\n" + events + "kmemleak-scanned bytes=0\nend\n")
    with open(os.path.join(d, "plan"), "w") as f:
        f.write(plan)
    for name, text in (("console.log", ""), ("kmemleak", ""), ("qemu.rc", "0\n")) + tuple(files):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


KTAP_EXTRA = KTAP_OK.replace("demo", "extra")


@case
def kunit_suite_missing_from_expect_is_judged_and_fails():
    # a suite the module ran that its manifest line does not list is
    # still judged (its failing case counts), and its absence from the
    # list is a failure of its own
    import tempfile
    failing = KTAP_EXTRA.replace("    ok 2 second", "    not ok 2 second").replace(
        "ok 1 extra", "not ok 1 extra")
    with tempfile.TemporaryDirectory() as d:
        vm_run_dir(d, "kunit-suite m demo\nkunit-suite m extra\n"
                      "kunit m rc=0 ms=10 expect=demo\n",
                   "kunit\tall\tm\tdemo\n",
                   (("kunit/demo.ktap", KTAP_OK), ("kunit/extra.ktap", failing)))
        t = rig_results.judge_run("EL1", d, io.StringIO())
    assert any("extra" in f and "expect=" in f for f in t.failures), t.failures
    assert any("kunit extra.second" in f for f in t.failures), t.failures
    # demo: 2 passed 1 skipped; extra: 1 passed 1 failed 1 skipped
    assert t.skipped == 2, t.counts()


@case
def vm_entry_cut_by_its_time_limit_says_so():
    # init kills an entry that outlives its limit: "timeout=SECS" in its
    # event; the failure names the limit, also for a kselftest whose TAP
    # was cut short
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        vm_run_dir(d, "sh hang rc=137 ms=600100 timeout=600\n"
                      "ksft lc rc=137 ms=600200 timeout=600\n",
                   "sh\tall\thang\tsleep 9999\nksft\tall\tlc\n",
                   (("ksft/lc.tap", "TAP version 13\n1..2\nok 1 lc.a\n"),
                    ("sh/hang.log", "waiting\n")))
        t = rig_results.judge_run("EL1", d, io.StringIO())
    hang = [f for f in t.failures if "sh hang" in f]
    lc = [f for f in t.failures if ": lc" in f]
    assert hang and "timed out after 600 s" in hang[0], t.failures
    assert any("timed out after 600 s" in f for f in lc), t.failures


@case
def host_suite_over_its_budget_fails_naming_it():
    # check.sh's host_suite() runs each suite under timeout(1) and writes
    # FILE.timeout (the budget) when it fired: one failing case naming
    # the suite and the budget, whatever TAP the suite printed first
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        tap = os.path.join(d, "dkms.tap")
        with open(tap, "w") as f:
            f.write("TAP version 13\n")
        with open(tap + ".rc", "w") as f:
            f.write("124\n")
        with open(tap + ".timeout", "w") as f:
            f.write("1200\n")
        out = io.StringIO()
        saved, sys.stdout = sys.stdout, out
        try:
            rc = rig_results.main(["--host", "dkms=" + tap])
        finally:
            sys.stdout = saved
    text = out.getvalue()
    assert rc == 1, text
    assert "host: dkms: killed after its budget of 1200 s (timeout)" in text, text


@case
def result_counts_distinct_tests_apart_from_instances():
    # the same run judged as two boots: every test twice.  The line
    # before RESULT says how many distinct tests and instances; RESULT
    # (what CI reads) still counts instances and stays the last line
    out = io.StringIO()
    run_dir = os.path.join(HERE, "recorded", "clean")
    saved, sys.stdout = sys.stdout, out
    try:
        rig_results.main(["--run", "A=" + run_dir, "--run", "B=" + run_dir])
    finally:
        sys.stdout = saved
    lines = out.getvalue().rstrip("\n").split("\n")
    assert lines[-1].startswith("RESULT: "), lines[-3:]
    one = rig_results.judge_run("A", run_dir, io.StringIO())
    n = one.passed + one.failed + one.skipped
    want = f"distinct: {n} tests ({2 * n} instances over 2 boots and 0 host suites)"
    assert lines[-2] == want, (lines[-2], want)


HOST_TAP = """TAP version 13
not ok 1 first run
# etecap: cpu1 has no trace unit (/x)
# files:
ok 2 second
not ok 3 third
1..3
"""


@case
def host_failure_carries_its_own_diagnostics():
    # a host suite's failure says why in the Failures section CI keeps:
    # the "#" lines after its own line, not another case's
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        tap = os.path.join(d, "suite.tap")
        with open(tap, "w") as f:
            f.write(HOST_TAP)
        with open(tap + ".rc", "w") as f:
            f.write("1\n")
        out = io.StringIO()
        saved, sys.stdout = sys.stdout, out
        try:
            rc = rig_results.main(["--host", "suite=" + tap])
        finally:
            sys.stdout = saved
    text = out.getvalue()
    failures = text.split("Failures:")[1]
    assert rc == 1 and "2 failed" in text, text
    assert "host: suite.first run\n      # etecap: cpu1 has no trace unit (/x)\n" \
        "      # files:\n  host: suite.third\n" in failures, failures


@case
def kselftest_diagnostics_come_before_the_case():
    text = "ok 1 a\n# RUN b\n# b.c:7: Expected 1 == 2\nnot ok 2 b\n# RUN c\nok 3 c\n"
    assert rig_results.case_diagnostics(text, "before")[2] == \
        ["# RUN b", "# b.c:7: Expected 1 == 2"]
    assert rig_results.case_diagnostics(text, "after")[2] == ["# RUN c"]


VM_KSFT_TAP = """TAP version 13
1..3
#  RUN           lc.first ...
#            OK  lc.first
ok 1 lc.first
#  RUN           lc.second ...
# lc.c:365:second:Expected 7 (7) == 8 (8)
# second: Test failed at step #3
#          FAIL  lc.second
not ok 2 lc.second
#  RUN           lc.third ...
# lc.c:823:third:note of a case that passed
#            OK  lc.third
ok 3 lc.third
# FAILED: 2 / 3 tests passed.
# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:0 error:0
"""


@case
def vm_kselftest_failure_carries_its_own_diagnostics():
    # CI keeps only the Failures section: a failing kselftest case there
    # says why with its own lines, not the program's last ones (stop 29's
    # CI showed the tail of lifecycle_test, which was another case's)
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "ksft"))
        with open(os.path.join(d, "ksft", "lc.tap"), "w") as f:
            f.write(VM_KSFT_TAP)
        os.mkdir(os.path.join(d, "sh"))
        with open(os.path.join(d, "sh", "e2e.log"), "w") as f:
            f.write("capture: 3 CPUs\ndecode: 12 gaps, expected 0\n\n")
        with open(os.path.join(d, "events"), "w") as f:
            f.write("begin subset=all el=1 cpus=4\n"
                    "ksft lc rc=1 ms=1000\nsh e2e rc=1 ms=10\n"
                    "kmemleak-scanned bytes=0\nend\n")
        with open(os.path.join(d, "plan"), "w") as f:
            f.write("ksft\tall\tlc\nsh\tall\te2e\ttrue\n")
        for name, text in (("console.log", ""), ("kmemleak", ""),
                           ("qemu.rc", "0\n")):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        t = rig_results.judge_run("EL1", d, io.StringIO())
    lines = [f for f in t.failures if ": lc" in f]
    assert len(lines) == 1 and "EL1: lc.lc.second" in lines[0], t.failures
    assert "lc.c:365:second:Expected 7 (7) == 8 (8)" in lines[0], lines[0]
    assert "third" not in lines[0], lines[0]
    # and a shell case its log's last lines
    assert "EL1: sh e2e exited 1\n      capture: 3 CPUs\n" \
        "      decode: 12 gaps, expected 0" in t.failures, t.failures


@case
def splat_patterns_match_reports_not_boot_messages():
    boot = [
        "[    0.0] kmemleak: Kernel memory leak detector initialized",
        "[    0.0] Lock dependency validator: Copyright (c) 2006 Red Hat",
        "[    0.0] kasan: KernelAddressSanitizer initialized (generic)",
        "@@RIG kunit x rc=0",
    ]
    assert rig_results.splats(boot) == [], rig_results.splats(boot)
    bad = [
        "[    5.1] WARNING: CPU: 1 PID: 90 at foo.c:12 bar+0x10/0x20",
        "[    5.2] BUG: KASAN: slab-out-of-bounds in baz",
        "[    5.3] watchdog: BUG: soft lockup - CPU#2 stuck for 22s!",
        "[    5.4] rcu: INFO: rcu_preempt self-detected stall on CPU",
        "[    5.5] Unable to handle kernel NULL pointer dereference",
        "[    5.6] UBSAN: shift-out-of-bounds in x.c:3:4",
        "[    5.7] INFO: task sh:1 blocked for more than 120 seconds.",
        "[    5.8] kmemleak: 2 new suspected memory leaks",
    ]
    assert len(rig_results.splats(bad)) == len(bad), rig_results.splats(bad)
    # the same records as /dev/kmsg gives them (init's OUTDIR/kmsg)
    kmsg = ["4,%d,5100000,-;%s" % (n, rig_results.TIMESTAMP_RE.sub("", l))
            for n, l in enumerate(bad)] + ["4,99,5200000,-;Call trace:"]
    assert len(rig_results.splats(kmsg)) == len(kmsg), rig_results.splats(kmsg)


def recorded_case(name):
    def run():
        run_dir = os.path.join(HERE, "recorded", name)
        with open(os.path.join(run_dir, "expect")) as f:
            lines = f.read().split("\n")
        outcome, needle = lines[0].strip(), lines[1].strip()
        t = rig_results.judge_run(name, run_dir, io.StringIO())
        if outcome == "pass":
            assert t.failed == 0 and t.passed > 0, (t.counts(), t.failures)
        else:
            assert t.failed > 0, f"{name} passed: {t.counts()}"
            assert any(needle in f for f in t.failures), (needle, t.failures)
    run.__name__ = f"recorded_run_{name}"
    return run


def main():
    rec = os.path.join(HERE, "recorded")
    for name in sorted(os.listdir(rec)) if os.path.isdir(rec) else []:
        CASES.append(recorded_case(name))
    print("TAP version 13")
    print(f"1..{len(CASES)}")
    failed = 0
    for n, fn in enumerate(CASES, 1):
        try:
            fn()
            print(f"ok {n} {fn.__name__}")
        except Exception:
            failed += 1
            print(f"not ok {n} {fn.__name__}")
            for line in traceback.format_exc().splitlines():
                print(f"# {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
