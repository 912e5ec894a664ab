// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the model's trace unit: the programming states of Table
 * D4-1 and their transitions, the OS Lock, and every access check, each
 * rule with a positive and a negative case named with its tag.  The
 * mutation suite switches each check off in turn and shows that its
 * negative case would then go unnoticed.
 */

#include <linux/bitfield.h>
#include <linux/module.h>

#include "model.h"
#include "test.h"

#define EM_POLLS	64

static int em_rich_init(struct kunit *test)
{
	return em_test_init_profile(test, "rich");
}

static int em_minimal_init(struct kunit *test)
{
	return em_test_init_profile(test, "minimal");
}

/* A valid configuration, written while Idle, that lets trace run */
static void em_setup(struct kunit *test)
{
	em_wr(test, ETE_TRFCR_EL1, EM_TRFCR_E0TRE | EM_TRFCR_ExTRE);
	em_isb(test);
	em_wr(test, ETE_TRCCONFIGR, BIT(0));
	em_wr(test, ETE_TRCTRACEIDR, 1);
	em_wr(test, ETE_TRCSYNCPR, 0);
	em_wr(test, ETE_TRCEVENTCTL0R, 0);
	em_wr(test, ETE_TRCEVENTCTL1R, 0);
	em_wr(test, ETE_TRCVICTLR, 1 | EM_VICTLR_SSSTATUS);
	em_wr(test, ETE_TRCSTALLCTLR, 0);	/* its reset value is UNKNOWN */
}

static void em_run(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
}

/* ------------------------------------------------------------------ */
/* Programming states                                                 */
/* ------------------------------------------------------------------ */

static void rdxffn_enable_enters_enabling(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	/* Table D4-1: Enabling reads IDLE 1 */
	KUNIT_EXPECT_EQ(test, em_statr(test) & EM_STATR_IDLE, EM_STATR_IDLE);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_ENABLING);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void rdxffn_without_isb_stays_idle(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	/* no context synchronization event: the write is not yet seen */
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCSTATR), 3ULL);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_IDLE);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_SHSXGZ), 1U);
}

static void rzfphc_running_after_delay_reads(struct kunit *test)
{
	struct em_test *t = test->priv;
	int i;

	ete_model_set_delay(t->m, t->cpu, 3);
	em_setup(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, em_statr(test) & EM_STATR_IDLE,
				EM_STATR_IDLE);
	KUNIT_EXPECT_EQ(test, em_statr(test) & EM_STATR_IDLE, 0ULL);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_RUNNING);
}

static void rzfphc_stuck_never_runs(struct kunit *test)
{
	struct em_test *t = test->priv;

	ete_model_set_delay(t->m, t->cpu, EM_DELAY_NEVER);
	em_setup(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_EXPECT_FALSE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_state(test), EM_ENABLING);
}

static void rtzsrp_disable_enters_unstable(struct kunit *test)
{
	em_run(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_UNSTABLE);
	/* Table D4-1: Unstable reads IDLE 0, PMSTABLE 0 */
	KUNIT_EXPECT_EQ(test, em_statr(test), 0ULL);
}

static void rtzsrp_enabled_stays_running(struct kunit *test)
{
	em_run(test);
	KUNIT_EXPECT_FALSE(test, em_wait_state(test, EM_UNSTABLE, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_state(test), EM_RUNNING);
}

static void rczhwf_unstable_becomes_stable(struct kunit *test)
{
	struct em_test *t = test->priv;
	u64 st;

	ete_model_set_delay(t->m, t->cpu, 1);
	em_run(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	KUNIT_EXPECT_EQ(test, em_statr(test), 0ULL);	/* Unstable */
	st = em_statr(test);				/* Stable */
	KUNIT_EXPECT_EQ(test, st, (u64)EM_STATR_PMSTABLE);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_STABLE);
}

static void rczhwf_stuck_stays_unstable(struct kunit *test)
{
	struct em_test *t = test->priv;

	em_run(test);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_STUCK);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	KUNIT_EXPECT_FALSE(test, em_wait_state(test, EM_STABLE, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_state(test), EM_UNSTABLE);
}

static void rtrzcp_stable_becomes_idle(struct kunit *test)
{
	em_run(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_statr(test),
			(u64)(EM_STATR_IDLE | EM_STATR_PMSTABLE));
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void rtrzcp_undrained_stays_stable(struct kunit *test)
{
	struct em_test *t = test->priv;

	ete_model_set_delay(t->m, t->cpu, 0);
	em_run(test);
	/* a slow drain leaves bytes in the unit after trace generation */
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_SLOW_DRAIN);
	ete_model_tick(t->m, t->cpu, 256);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	em_statr(test);
	em_statr(test);
	em_statr(test);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_STABLE);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_NONE);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
}

static void rwmggp_pmstable_unknown_is_random(struct kunit *test)
{
	unsigned int ones = 0, i;

	em_run(test);
	for (i = 0; i < EM_POLLS; i++)
		ones += !!(em_statr(test) & EM_STATR_PMSTABLE);
	/* Running: PMSTABLE is UNKNOWN, so both values must show up */
	KUNIT_EXPECT_GT(test, ones, 0U);
	KUNIT_EXPECT_LT(test, ones, (unsigned int)EM_POLLS);
}

static void rwmggp_pmstable_fixed_by_test(struct kunit *test)
{
	struct em_test *t = test->priv;
	unsigned int i;

	ete_model_set_pmstable_unknown(t->m, t->cpu, 0);
	em_run(test);
	for (i = 0; i < EM_POLLS; i++)
		KUNIT_EXPECT_EQ(test, em_statr(test), 0ULL);
}

static void rvbmlv_os_lock_disables(struct kunit *test)
{
	em_run(test);
	em_wr(test, ETE_OSLAR_EL1, 1);
	em_isb(test);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_UNSTABLE);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_OSLSR_EL1) & EM_OSLSR_OSLK,
			(u64)EM_OSLSR_OSLK);
}

static void rvbmlv_os_lock_blocks_enable(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_OSLAR_EL1, 1);
	em_isb(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_EXPECT_FALSE(test, em_wait_state(test, EM_ENABLING, EM_POLLS));
	/* unlocking enables the unit */
	em_wr(test, ETE_OSLAR_EL1, 0);
	em_isb(test);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_ENABLING);
}

static void rmdzdn_en_change_in_idle_and_running(struct kunit *test)
{
	em_run(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);		/* Running: allowed */
	em_isb(test);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	em_wr(test, ETE_TRCPRGCTLR, 1);		/* Idle: allowed */
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RMDZDN), 0U);
}

static void em_sc_rmdzdn(struct kunit *test)
{
	struct em_test *t = test->priv;

	ete_model_set_delay(t->m, t->cpu, 100);
	em_setup(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);		/* in Enabling */
}

static void rmdzdn_en_change_in_enabling(struct kunit *test)
{
	em_sc_rmdzdn(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RMDZDN), 1U);
	/* the CONSTRAINED UNPREDICTABLE write is ignored */
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCPRGCTLR), 1ULL);
}

/* RMDZDN through the OS Lock: cleared with EN set while still Unstable */
static void rmdzdn_os_lock_cleared_while_unstable(struct kunit *test)
{
	struct em_test *t = test->priv;

	em_run(test);
	ete_model_set_delay(t->m, t->cpu, 100);
	em_wr(test, ETE_OSLAR_EL1, 1);
	em_isb(test);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_UNSTABLE);
	em_wr(test, ETE_OSLAR_EL1, 0);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RMDZDN), 1U);
}

/* The same clear once Idle: the unit enables again, nothing to flag */
static void rmdzdn_os_lock_cleared_in_idle(struct kunit *test)
{
	em_run(test);
	em_wr(test, ETE_OSLAR_EL1, 1);
	em_isb(test);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	em_wr(test, ETE_OSLAR_EL1, 0);
	em_isb(test);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void shsxgz_isb_between_reads(struct kunit *test)
{
	em_run(test);
	em_statr(test);
	em_statr(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_SHSXGZ), 0U);
}

static void em_sc_shsxgz(struct kunit *test)
{
	em_rd(test, ETE_TRCSTATR);
	em_rd(test, ETE_TRCSTATR);
}

static void shsxgz_reads_without_isb(struct kunit *test)
{
	em_sc_shsxgz(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_SHSXGZ), 1U);
}

/*
 * Counter 0 counting every cycle (selector 1, TRUE) from 0xffff, and
 * referenced (ETEEvent 0 is selector 2, counter 0 at zero): the model
 * runs only the counters the unit looks at
 */
static void em_count_cycles(struct kunit *test)
{
	em_wr(test, ETE_TRCCNTCTLR_N(0), 1);
	em_wr(test, ETE_TRCCNTVR_N(0), 0xffff);
	em_wr(test, ETE_TRCRSCTLR_N(2), (2 << 16) | BIT(0));
	em_wr(test, ETE_TRCEVENTCTL0R, 2);
}

/*
 * RWZQWC: the unit's own counting reaches a direct read only after a
 * context synchronization event taken while Idle or Stable; IPNZZH: one
 * taken while Unstable does not do it
 */
static void rwzqwc_counter_seen_after_isb_in_stable(struct kunit *test)
{
	struct em_test *t = test->priv;
	u64 v;

	em_setup(test);
	em_count_cycles(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	/* the PE's cycles: the blocks of 1 KB of trace */
	ete_model_tick(t->m, t->cpu, 1024);
	v = ete_model_peek(t->m, t->cpu, ETE_TRCCNTVR_N(0));
	KUNIT_ASSERT_LT(test, v, 0xffffULL);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);				/* taken while Unstable */
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCCNTVR_N(0)), 0xffffULL);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCCNTVR_N(0)), v);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

/* settle: the read that finds Idle may follow an ISB taken in Unstable */
static void settle_skips_stable_between_reads(struct kunit *test)
{
	struct em_test *t = test->priv;
	bool saw_stable = false;
	int polls = EM_POLLS;

	WRITE_ONCE(t->m->units[t->cpu]->settle_fast, true);
	em_run(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	while (polls-- && em_state(test) != EM_IDLE) {
		u64 st = em_statr(test);

		saw_stable |= (st & (EM_STATR_IDLE | EM_STATR_PMSTABLE)) ==
			      EM_STATR_PMSTABLE;
	}
	KUNIT_EXPECT_EQ(test, em_state(test), EM_IDLE);
	KUNIT_EXPECT_FALSE(test, saw_stable);
}

/* RBPTKT: indirect writes only while Running */
static void rbptkt_counter_counts_when_running(struct kunit *test)
{
	struct em_test *t = test->priv;

	em_setup(test);
	em_count_cycles(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);	/* not em_run(): its set-up unrefers it */
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	ete_model_tick(t->m, t->cpu, 1024);
	/* one count per cycle, one cycle per instruction the PE ran */
	KUNIT_EXPECT_EQ(test, ete_model_peek(t->m, t->cpu, ETE_TRCCNTVR_N(0)),
			0xffffULL - t->m->units[t->cpu]->gen.tr.cycles);
}

static void rbptkt_counter_frozen_when_idle(struct kunit *test)
{
	struct em_test *t = test->priv;

	em_setup(test);
	em_wr(test, ETE_TRCCNTCTLR_N(0), 1);
	em_wr(test, ETE_TRCCNTVR_N(0), 10);
	ete_model_tick(t->m, t->cpu, 16);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCCNTVR_N(0)), 10ULL);
	/* a direct write does change it */
	em_wr(test, ETE_TRCCNTVR_N(0), 5);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCCNTVR_N(0)), 5ULL);
}

static struct kunit_case em_states_cases[] = {
	KUNIT_CASE(rdxffn_enable_enters_enabling),
	KUNIT_CASE(rdxffn_without_isb_stays_idle),
	KUNIT_CASE(rzfphc_running_after_delay_reads),
	KUNIT_CASE(rzfphc_stuck_never_runs),
	KUNIT_CASE(rtzsrp_disable_enters_unstable),
	KUNIT_CASE(rtzsrp_enabled_stays_running),
	KUNIT_CASE(rczhwf_unstable_becomes_stable),
	KUNIT_CASE(rczhwf_stuck_stays_unstable),
	KUNIT_CASE(rtrzcp_stable_becomes_idle),
	KUNIT_CASE(rtrzcp_undrained_stays_stable),
	KUNIT_CASE(rwmggp_pmstable_unknown_is_random),
	KUNIT_CASE(rwmggp_pmstable_fixed_by_test),
	KUNIT_CASE(rvbmlv_os_lock_disables),
	KUNIT_CASE(rvbmlv_os_lock_blocks_enable),
	KUNIT_CASE(rmdzdn_en_change_in_idle_and_running),
	KUNIT_CASE(rmdzdn_en_change_in_enabling),
	KUNIT_CASE(rmdzdn_os_lock_cleared_while_unstable),
	KUNIT_CASE(rmdzdn_os_lock_cleared_in_idle),
	KUNIT_CASE(shsxgz_isb_between_reads),
	KUNIT_CASE(shsxgz_reads_without_isb),
	KUNIT_CASE(rbptkt_counter_counts_when_running),
	KUNIT_CASE(rbptkt_counter_frozen_when_idle),
	{}
};

static struct kunit_suite em_states_suite = {
	.name = "ete_model_states",
	.init = em_rich_init,
	.exit = em_test_exit,
	.test_cases = em_states_cases,
};

/* ------------------------------------------------------------------ */
/* Register access checks                                             */
/* ------------------------------------------------------------------ */

static void em_sc_rrwyqd(struct kunit *test)
{
	em_run(test);
	em_wr(test, ETE_TRCTRACEIDR, 2);
}

static void rrwyqd_write_while_running(struct kunit *test)
{
	em_sc_rrwyqd(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RRWYQD), 1U);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCTRACEIDR), 1ULL);
}

/* IKWCGH: EN=1 is not in effect before the ISB; nothing else until then */
static void em_sc_ikwcgh(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_wr(test, ETE_TRCTRACEIDR, 2);
}

static void ikwcgh_write_between_enable_and_isb(struct kunit *test)
{
	em_sc_ikwcgh(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_IKWCGH), 1U);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCTRACEIDR), 1ULL);
}

/* The same write before the enable, or a disable pending: no violation */
static void ikwcgh_write_before_enable(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_TRCTRACEIDR, 2);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void rrwyqd_write_in_idle(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_TRCTRACEIDR, 2);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCTRACEIDR), 2ULL);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void rrwyqd_claim_tags_any_state(struct kunit *test)
{
	em_run(test);
	em_wr(test, ETE_TRCCLAIMSET, 0x5);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCCLAIMCLR), 0x5ULL);
	em_wr(test, ETE_TRCCLAIMCLR, 0x1);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCCLAIMCLR), 0x4ULL);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCCLAIMSET), 0xfULL);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void em_sc_rsvsnr(struct kunit *test)
{
	em_wr(test, ETE_TRCIDR0, 0);
}

static void rsvsnr_write_read_only(struct kunit *test)
{
	struct em_test *t = test->priv;
	u64 idr0 = em_rd(test, ETE_TRCIDR0);

	em_sc_rsvsnr(test);
	em_wr(test, ETE_TRBIDR_EL1, 0);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RSVSNR), 2U);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCIDR0), idr0);
	KUNIT_EXPECT_EQ(test, ete_model_peek(t->m, t->cpu, ETE_TRBIDR_EL1),
			(u64)0x26);
}

static void rsvsnr_write_read_write(struct kunit *test)
{
	em_wr(test, ETE_TRCSYNCPR, 12);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCSYNCPR), 12ULL);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RSVSNR), 0U);
}

static void em_sc_rwxkdp(struct kunit *test)
{
	em_rd(test, ETE_OSLAR_EL1);
}

static void rwxkdp_read_write_only(struct kunit *test)
{
	em_sc_rwxkdp(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RWXKDP), 1U);
}

static void rwxkdp_read_read_only(struct kunit *test)
{
	/* OSLSR_EL1.OSLM = 0b10: the OS Lock is implemented */
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_OSLSR_EL1) & BIT(3), BIT(3));
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RWXKDP), 0U);
}

static void em_sc_unimpl(struct kunit *test)
{
	/* selectors 0 and 1 are fixed: TRCRSCTLR0 does not exist */
	em_rd(test, ETE_TRCRSCTLR_N(0));
}

static void iwcxdt_unimplemented_register(struct kunit *test)
{
	em_sc_unimpl(test);
	em_rd(test, ETE_TRCPDSR);		/* external view only */
	em_rd(test, 0x0fc);			/* reserved offset */
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_UNIMPL), 3U);
}

static void iwcxdt_implemented_registers(struct kunit *test)
{
	em_rd(test, ETE_TRCRSCTLR_N(31));
	em_rd(test, ETE_TRCACVR_N(15));
	em_rd(test, ETE_TRCCIDCCTLR1);
	em_rd(test, ETE_MIDR_EL1);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void iwcxdt_minimal_has_no_comparators(struct kunit *test)
{
	em_rd(test, ETE_TRCACVR_N(0));
	em_rd(test, ETE_TRCCNTVR_N(0));
	em_rd(test, ETE_TRCRSCTLR_N(4));	/* one programmable pair: 2, 3 */
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_UNIMPL), 3U);
	em_rd(test, ETE_TRCRSCTLR_N(3));
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_UNIMPL), 3U);
}

static void em_sc_res0(struct kunit *test)
{
	em_wr(test, ETE_TRCCONFIGR, BIT(31) | BIT(0));
}

static void res0_bits_set(struct kunit *test)
{
	em_sc_res0(test);
	em_wr(test, ETE_TRCCONFIGR, 0);		/* RES1 bit 0 clear */
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RES0), 2U);
}

static void res0_valid_value(struct kunit *test)
{
	em_wr(test, ETE_TRCCONFIGR, BIT(0) | EM_CONFIGR_TS | EM_CONFIGR_CID);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void em_sc_idrange(struct kunit *test)
{
	em_wr(test, ETE_TRCTRACEIDR, 0x70);	/* reserved trace ID */
}

static void numrspair_selector_beyond(struct kunit *test)
{
	/* minimal: two pairs, selectors 0-3 */
	em_wr(test, ETE_TRCVICTLR, 4);
	em_wr(test, ETE_TRCEVENTCTL0R, BIT(7) | 2);	/* pair 2 */
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_IDRANGE), 2U);
}

static void numrspair_selector_within(struct kunit *test)
{
	em_wr(test, ETE_TRCVICTLR, 3);
	em_wr(test, ETE_TRCEVENTCTL0R, BIT(7) | 1);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void idrange_reserved_values(struct kunit *test)
{
	em_sc_idrange(test);
	em_wr(test, ETE_TRCSYNCPR, 4);			/* below 2^8 */
	em_wr(test, ETE_TRCRSCTLR_N(2), (8 << 16) | 1);	/* group 0b1000 */
	em_wr(test, ETE_TRCRSCTLR_N(2), (4 << 16) | BIT(15)); /* SAC 15 ok */
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_IDRANGE), 3U);
}

static void em_sc_offcpu(struct kunit *test)
{
	struct em_test *t = test->priv;

	/* preemptible: the instruction could run on another PE */
	ete_read(&t->acc, ETE_TRCIDR0);
}

static void offcpu_preemptible_access(struct kunit *test)
{
	struct em_test *t = test->priv;
	struct ete_access other = t->acc;

	em_sc_offcpu(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_OFFCPU), 1U);
	if (num_possible_cpus() < 2)
		return;
	other.cpu = cpumask_next(t->cpu, cpu_possible_mask);
	if (other.cpu >= nr_cpu_ids)
		other.cpu = cpumask_first(cpu_possible_mask);
	preempt_disable();
	ete_read(&other, ETE_TRCIDR0);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, ete_model_violations(t->m, other.cpu, EM_OFFCPU),
			1U);
}

static void offcpu_local_access(struct kunit *test)
{
	em_rd(test, ETE_TRCIDR0);
	em_sync(test, ETE_SYNC_DSB);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_OFFCPU), 0U);
}

static void em_sc_rjlrqh(struct kunit *test)
{
	em_setup(test);			/* TRFCR allows trace */
	em_sync(test, ETE_SYNC_TSB);
}

static void rjlrqh_tsb_outside_prohibited(struct kunit *test)
{
	em_sc_rjlrqh(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RJLRQH), 1U);
}

static void rjlrqh_tsb_in_prohibited(struct kunit *test)
{
	em_setup(test);
	em_wr(test, ETE_TRFCR_EL1, 0);
	/* without the ISB the prohibition is not yet in effect */
	em_sync(test, ETE_SYNC_TSB);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RJLRQH), 1U);
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RJLRQH), 1U);
}

static void em_enable_with_threshold(struct kunit *test, u64 threshold)
{
	em_setup(test);
	em_wr(test, ETE_TRCCONFIGR, BIT(0) | EM_CONFIGR_CCI);
	em_wr(test, ETE_TRCCCCTLR, threshold);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
}

static void rkjxdk_cc_threshold_below_ccitmin(struct kunit *test)
{
	em_enable_with_threshold(test, 3);	/* rich: CCITMIN 4 */
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_IDRANGE), 1U);
}

static void rkjxdk_cc_threshold_at_ccitmin(struct kunit *test)
{
	em_enable_with_threshold(test, 4);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void midr_reports_erratum_part(struct kunit *test)
{
	struct em_test *t = test->priv;

	ete_model_set_midr(t->m, 0x410fd490);	/* Neoverse N2 r0p0 */
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_MIDR_EL1), 0x410fd490ULL);
}

static void idregs_report_trace_features(struct kunit *test)
{
	u64 dfr0 = em_rd(test, ETE_ID_AA64DFR0_EL1);

	KUNIT_EXPECT_EQ(test, FIELD_GET(GENMASK_ULL(7, 4), dfr0), 1ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(GENMASK_ULL(43, 40), dfr0), 1ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(GENMASK_ULL(47, 44), dfr0), 1ULL);
	/* rich: 16 selector pairs counting the fixed one (RQDJVV) */
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR4_NUMRSPAIR,
					em_rd(test, ETE_TRCIDR4)), 15ULL);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCDEVARCH), 0x47705a13ULL);
}

static struct kunit_case em_access_cases[] = {
	KUNIT_CASE(rrwyqd_write_while_running),
	KUNIT_CASE(rrwyqd_write_in_idle),
	KUNIT_CASE(rwzqwc_counter_seen_after_isb_in_stable),
	KUNIT_CASE(settle_skips_stable_between_reads),
	KUNIT_CASE(ikwcgh_write_between_enable_and_isb),
	KUNIT_CASE(ikwcgh_write_before_enable),
	KUNIT_CASE(rrwyqd_claim_tags_any_state),
	KUNIT_CASE(rsvsnr_write_read_only),
	KUNIT_CASE(rsvsnr_write_read_write),
	KUNIT_CASE(rwxkdp_read_write_only),
	KUNIT_CASE(rwxkdp_read_read_only),
	KUNIT_CASE(iwcxdt_unimplemented_register),
	KUNIT_CASE(iwcxdt_implemented_registers),
	KUNIT_CASE(res0_bits_set),
	KUNIT_CASE(res0_valid_value),
	KUNIT_CASE(idrange_reserved_values),
	KUNIT_CASE(offcpu_preemptible_access),
	KUNIT_CASE(offcpu_local_access),
	KUNIT_CASE(rjlrqh_tsb_outside_prohibited),
	KUNIT_CASE(rjlrqh_tsb_in_prohibited),
	KUNIT_CASE(rkjxdk_cc_threshold_below_ccitmin),
	KUNIT_CASE(rkjxdk_cc_threshold_at_ccitmin),
	KUNIT_CASE(midr_reports_erratum_part),
	KUNIT_CASE(idregs_report_trace_features),
	{}
};

static struct kunit_suite em_access_suite = {
	.name = "ete_model_access",
	.init = em_rich_init,
	.exit = em_test_exit,
	.test_cases = em_access_cases,
};

static struct kunit_case em_minimal_cases[] = {
	KUNIT_CASE(iwcxdt_minimal_has_no_comparators),
	KUNIT_CASE(numrspair_selector_beyond),
	KUNIT_CASE(numrspair_selector_within),
	{}
};

static struct kunit_suite em_minimal_suite = {
	.name = "ete_model_minimal",
	.init = em_minimal_init,
	.exit = em_test_exit,
	.test_cases = em_minimal_cases,
};

/* ------------------------------------------------------------------ */
/* Mutation: each check switched off, its negative case goes unseen   */
/* ------------------------------------------------------------------ */

/**
 * struct em_mutation - one check and the access that violates it
 * @check: the check
 * @violate: the negative case's access
 */
struct em_mutation {
	enum ete_model_check check;
	void (*violate)(struct kunit *test);
};

static const struct em_mutation em_mutations[] = {
	{ EM_RRWYQD, em_sc_rrwyqd },
	{ EM_RMDZDN, em_sc_rmdzdn },
	{ EM_RSVSNR, em_sc_rsvsnr },
	{ EM_RWXKDP, em_sc_rwxkdp },
	{ EM_UNIMPL, em_sc_unimpl },
	{ EM_RES0, em_sc_res0 },
	{ EM_IDRANGE, em_sc_idrange },
	{ EM_SHSXGZ, em_sc_shsxgz },
	{ EM_RJLRQH, em_sc_rjlrqh },
	{ EM_OFFCPU, em_sc_offcpu },
	{ EM_RKYDTQ, em_sc_rkydtq },
	{ EM_SWLOCK, em_sc_swlock },
	{ EM_TRBE_EN, em_sc_trbe_en },
	{ EM_TRBE_PTR, em_sc_trbe_ptr },
	{ EM_TRBE_ORDER, em_sc_trbe_order },
	{ EM_RVTNCS, em_sc_rvtncs },
	{ EM_EXTPD, em_sc_extpd },
	{ EM_IKWCGH, em_sc_ikwcgh },
	{ EM_EXTOSLK, em_sc_extoslk },
	{ EM_TRBE_OFF, em_sc_trbe_off },
	{ EM_TRBE_UNFLUSHED, em_sc_trbe_unflushed },
	{ EM_TRBE_ENSYNC, em_sc_trbe_ensync },
};

static void em_mutation_desc(const struct em_mutation *mu, char *desc)
{
	strscpy(desc, em_check_name(mu->check), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(em_mutation, em_mutations, em_mutation_desc);

static void mutation_check_caught(struct kunit *test)
{
	const struct em_mutation *mu = test->param_value;

	mu->violate(test);
	KUNIT_EXPECT_GE(test, em_viol(test, mu->check), 1U);
}

static struct kunit_case em_mutation_cases[] = {
	KUNIT_CASE_PARAM(mutation_check_caught, em_mutation_gen_params),
	{}
};

static struct kunit_suite em_mutation_suite = {
	.name = "ete_model_mutation",
	.init = em_rich_init,
	.exit = em_test_exit,
	.test_cases = em_mutation_cases,
};

kunit_test_suites(&em_states_suite, &em_access_suite, &em_minimal_suite,
		  &em_mutation_suite);

MODULE_DESCRIPTION("KUnit suites of the ETE/TRBE model");
MODULE_LICENSE("GPL");
