// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what a restore writes back, and that a sink's error report
 * names its session.
 *
 * ete_session_cpu_error() stops the CPU from a work item.  If that session
 * ends and another starts on the CPU before the work runs, the late report
 * must not stop the new session.  The work is held back here
 * (cancel_work_sync()) and queued again after the next session started,
 * which is the race made certain.
 *
 * Needs ete_test_sink.ko serving CPU 1 (its present mask), and the model.
 */

#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <kunit/test.h>

#include <ete/compat.h>
#include <ete/core.h>
#include <ete/regs.h>
#include <ete/task.h>

#define PM_KUNIT_CPU	1

/* The unit stays registered while the suite runs: ete.ko is loaded */
static struct ete_unit *pm_kunit_unit(struct kunit *test)
{
	struct ete_unit *u;

	rcu_read_lock();
	u = ete_unit_of(PM_KUNIT_CPU);
	rcu_read_unlock();

	if (!u)
		kunit_skip(test, "no trace unit on CPU %d", PM_KUNIT_CPU);
	return u;
}

static void stale_error_leaves_next_session(struct kunit *test)
{
	struct ete_session *a, *b;
	struct ete_unit *u = pm_kunit_unit(test);

	KUNIT_ASSERT_EQ(test, ete_session_start(cpumask_of(PM_KUNIT_CPU),
						"kunit", &a), 0);
	ete_session_cpu_error(PM_KUNIT_CPU, -EIO);
	cancel_work_sync(&u->err_work);
	ete_session_stop(a);
	KUNIT_ASSERT_EQ(test, ete_session_start(cpumask_of(PM_KUNIT_CPU),
						"kunit", &b), 0);
	/* the report of session a arrives now */
	schedule_work(&u->err_work);
	flush_work(&u->err_work);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(u->sess), b);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(u->enabled));
	ete_session_stop(b);
}

static void current_error_stops_session(struct kunit *test)
{
	struct ete_unit *u = pm_kunit_unit(test);
	struct ete_session *a;

	KUNIT_ASSERT_EQ(test, ete_session_start(cpumask_of(PM_KUNIT_CPU),
						"kunit", &a), 0);
	ete_session_cpu_error(PM_KUNIT_CPU, -EIO);
	flush_work(&u->err_work);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(u->sess), NULL);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(u->enabled));
	KUNIT_EXPECT_EQ(test, READ_ONCE(u->err), -EIO);
	ete_session_stop(a);
}

/* Read-only fields of a saved value are not written back */
struct pm_value_case {
	const char *name;
	u32 reg;
	u64 saved;
	u64 written;
};

static const struct pm_value_case pm_value_cases[] = {
	{ "sscsr0_inst_dropped", ETE_TRCSSCSR_N(0), 0x1, 0x0 },
	{ "sscsr7_status_pending_kept", ETE_TRCSSCSR_N(7), 0xc0000007,
	  0xc0000000 },
	{ "cntvr_unchanged", ETE_TRCCNTVR_N(0), 0xffff, 0xffff },
	{ "seqstr_unchanged", ETE_TRCSEQSTR, 0x3, 0x3 },
	{ "rsr_unchanged", ETE_TRCRSR, 0x1f, 0x1f },
	{ "after_sscsr_unchanged", ETE_TRCSSPCICR_N(0), 0xf, 0xf },
};

static void pm_value_desc(const struct pm_value_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pm_value, pm_value_cases, pm_value_desc);

static void restore_value(struct kunit *test)
{
	const struct pm_value_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ete_pm_restore_value(c->reg, c->saved),
			c->written);
}

/* What a save reads back: only what the unit changes while it traces */
static void dynamic_registers(struct kunit *test)
{
	static const u32 dynamic[] = {
		ETE_TRCSEQSTR, ETE_TRCRSR, ETE_TRCVICTLR, ETE_TRCCNTVR_N(0),
		ETE_TRCCNTVR_N(3), ETE_TRCSSCSR_N(0), ETE_TRCSSCSR_N(7),
	};
	struct ete_image *img = kunit_kzalloc(test, sizeof(*img), GFP_KERNEL);
	static const u32 programmed[] = {
		ETE_TRCCONFIGR, ETE_TRCTRACEIDR, ETE_TRCCNTRLDVR_N(0),
		ETE_TRCCNTCTLR_N(3), ETE_TRCSSCCR_N(0), ETE_TRCSSPCICR_N(0),
		ETE_TRCVIIECTLR, ETE_TRCACVR_N(0), ETE_TRCPRGCTLR,
	};
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, img);
	img->live.startstop = true;
	for (i = 0; i < ARRAY_SIZE(dynamic); i++)
		KUNIT_EXPECT_TRUE_MSG(test, ete_pm_dynamic(img, dynamic[i]),
				      "reg 0x%x", dynamic[i]);
	for (i = 0; i < ARRAY_SIZE(programmed); i++)
		KUNIT_EXPECT_FALSE_MSG(test, ete_pm_dynamic(img, programmed[i]),
				       "reg 0x%x", programmed[i]);
}

/*
 * Without start/stop points nothing changes TRCVICTLR.SSSTATUS: the save
 * does not read TRCVICTLR back, the restore writes the programmed value
 */
static void dynamic_ssstatus_needs_startstop(struct kunit *test)
{
	struct ete_image *img = kunit_kzalloc(test, sizeof(*img), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, img);
	KUNIT_EXPECT_FALSE(test, ete_pm_dynamic(img, ETE_TRCVICTLR));
	KUNIT_EXPECT_TRUE(test, ete_pm_dynamic(img, ETE_TRCRSR));
	img->live.startstop = true;
	KUNIT_EXPECT_TRUE(test, ete_pm_dynamic(img, ETE_TRCVICTLR));
}

/*
 * What task mode writes for a task outside the set (and what a restore
 * writes when such a task runs): every exception level prohibited, E0TRE
 * and E1TRE (E0HTRE, E2TRE under VHE) clear (ITHCBC), the rest of the
 * session's TRFCR (the timestamp source, TS) kept
 */
static void task_gate_prohibits_every_el(struct kunit *test)
{
	u64 v;

	for (v = 0; v < 0x100; v++) {
		u64 p = ete_task_prohibited(v);

		KUNIT_EXPECT_EQ_MSG(test, p & 0x3, 0ULL, "TRFCR 0x%llx", v);
		KUNIT_EXPECT_EQ_MSG(test, p & ~0x3ULL, v & ~0x3ULL,
				    "TRFCR 0x%llx", v);
	}
}

static struct kunit_case ete_pm_value_cases[] = {
	KUNIT_CASE_PARAM(restore_value, pm_value_gen_params),
	KUNIT_CASE(dynamic_registers),
	KUNIT_CASE(dynamic_ssstatus_needs_startstop),
	KUNIT_CASE(task_gate_prohibits_every_el),
	{}
};

static struct kunit_suite ete_pm_value_suite = {
	.name = "ete_pm_restore_value",
	.test_cases = ete_pm_value_cases,
};

static struct kunit_case ete_pm_error_cases[] = {
	KUNIT_CASE(stale_error_leaves_next_session),
	KUNIT_CASE(current_error_stops_session),
	{}
};

static struct kunit_suite ete_pm_error_suite = {
	.name = "ete_pm_error_gen",
	.test_cases = ete_pm_error_cases,
};

kunit_test_suites(&ete_pm_value_suite, &ete_pm_error_suite);

MODULE_DESCRIPTION("KUnit: a late sink error does not stop a later session");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
