// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the model's TRBE, trace output, external-debug view,
 * power-down and interrupt.
 */

#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/string.h>

#include <ete/compat.h>

#include "model.h"
#include "pkt.h"
#include "test.h"

#define EM_POLLS	64
#define EM_GUARD	PAGE_SIZE

static int em_rich_init(struct kunit *test)
{
	return em_test_init_profile(test, "rich");
}

static int em_minimal_init(struct kunit *test)
{
	return em_test_init_profile(test, "minimal");
}

static u64 em_base(struct kunit *test)
{
	struct em_test *t = test->priv;

	return (uintptr_t)t->buf + EM_GUARD;
}

/* A buffer of @pages between two guard pages, and the TRBE enabled on it */
static void em_trbe_setup(struct kunit *test, unsigned int pages,
			  unsigned int fm, unsigned int tm, u32 trg)
{
	struct em_test *t = test->priv;
	u64 base;

	t->buf = vzalloc((pages + 2) * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, t->buf);
	/* the TRBE is the only sink */
	ete_model_set_atb(t->m, t->cpu, false);
	base = em_base(test);
	em_wr(test, ETE_TRBBASER_EL1, base);
	em_wr(test, ETE_TRBPTR_EL1, base);
	em_wr(test, ETE_TRBSR_EL1, 0);
	em_wr(test, ETE_TRBMAR_EL1, 0);
	em_wr(test, ETE_TRBTRG_EL1, trg);
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, (base + pages * PAGE_SIZE) |
	      FIELD_PREP(EM_TRBLIMITR_FM, fm) |
	      FIELD_PREP(EM_TRBLIMITR_TM, tm) | EM_TRBLIMITR_E);
	em_isb(test);
}

/* Nothing outside [base, limit) was written */
static void em_expect_guards(struct kunit *test, unsigned int pages)
{
	struct em_test *t = test->priv;

	KUNIT_EXPECT_NULL(test, memchr_inv(t->buf, 0, EM_GUARD));
	KUNIT_EXPECT_NULL(test, memchr_inv(t->buf + EM_GUARD +
					   pages * PAGE_SIZE, 0, EM_GUARD));
}

static void em_run(struct kunit *test)
{
	em_wr(test, ETE_TRFCR_EL1, EM_TRFCR_E0TRE | EM_TRFCR_ExTRE);
	em_isb(test);
	em_wr(test, ETE_TRCCONFIGR, BIT(0));
	em_wr(test, ETE_TRCTRACEIDR, 1);
	em_wr(test, ETE_TRCSYNCPR, 0);
	em_wr(test, ETE_TRCEVENTCTL0R, 0);
	em_wr(test, ETE_TRCEVENTCTL1R, 0);
	em_wr(test, ETE_TRCVICTLR, 1 | EM_VICTLR_SSSTATUS);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
}

static void em_tick(struct kunit *test, unsigned int bytes)
{
	struct em_test *t = test->priv;

	ete_model_tick(t->m, t->cpu, bytes);
}

static u64 em_peek(struct kunit *test, u32 reg)
{
	struct em_test *t = test->priv;

	return ete_model_peek(t->m, t->cpu, reg);
}

static unsigned int em_irqs(struct kunit *test)
{
	struct em_test *t = test->priv;

	return ete_model_irqs_raised(t->m, t->cpu);
}

/* ------------------------------------------------------------------ */
/* TRBE modes, triggers, status                                       */
/* ------------------------------------------------------------------ */

static void trbe_fill_mode_stops_at_limit(struct kunit *test)
{
	u64 sr;

	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 3 * PAGE_SIZE);
	sr = em_peek(test, ETE_TRBSR_EL1);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_S);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_IRQ);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_WRAP);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_TRBSR_MSS, sr), EM_BSC_FILLED);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_TRBSR_EC, sr), 0ULL);
	KUNIT_EXPECT_EQ(test, em_peek(test, ETE_TRBPTR_EL1), em_base(test));
	KUNIT_EXPECT_EQ(test, em_irqs(test), 1U);
	em_expect_guards(test, 1);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void trbe_wrap_mode_continues_with_irq(struct kunit *test)
{
	u64 sr;

	em_trbe_setup(test, 1, EM_FM_WRAP, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, PAGE_SIZE + 100);
	sr = em_peek(test, ETE_TRBSR_EL1);
	KUNIT_EXPECT_FALSE(test, sr & EM_TRBSR_S);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_IRQ);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_WRAP);
	KUNIT_EXPECT_GT(test, em_peek(test, ETE_TRBPTR_EL1), em_base(test));
	em_expect_guards(test, 1);
}

static void trbe_circular_mode_wraps_silently(struct kunit *test)
{
	u64 sr;

	em_trbe_setup(test, 1, EM_FM_CIRCULAR, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 3 * PAGE_SIZE);
	sr = em_peek(test, ETE_TRBSR_EL1);
	KUNIT_EXPECT_FALSE(test, sr & (EM_TRBSR_S | EM_TRBSR_IRQ));
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_WRAP);
	KUNIT_EXPECT_EQ(test, em_irqs(test), 0U);
	em_expect_guards(test, 1);
}

/* Trigger 100 bytes into the buffer in mode @tm; return TRBSR_EL1 */
static u64 em_trigger_after(struct kunit *test, unsigned int tm, u64 *at)
{
	struct em_test *t = test->priv;

	em_trbe_setup(test, 2, EM_FM_FILL, tm, 100);
	em_run(test);
	em_tick(test, 64);
	*at = em_peek(test, ETE_TRBPTR_EL1);
	ete_model_trigger(t->m, t->cpu);
	em_tick(test, 400);
	return em_peek(test, ETE_TRBSR_EL1);
}

static void trbe_stop_on_trigger(struct kunit *test)
{
	u64 at, sr = em_trigger_after(test, EM_TM_STOP, &at);

	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_TRG);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_S);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_IRQ);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_TRBSR_MSS, sr), EM_BSC_TRIGGERED);
	KUNIT_EXPECT_EQ(test, em_peek(test, ETE_TRBPTR_EL1), at + 100);
	KUNIT_EXPECT_EQ(test, em_peek(test, ETE_TRBTRG_EL1), 0ULL);
}

static void trbe_irq_on_trigger(struct kunit *test)
{
	u64 at, sr = em_trigger_after(test, EM_TM_IRQ, &at);

	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_TRG);
	KUNIT_EXPECT_FALSE(test, sr & EM_TRBSR_S);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_IRQ);
	KUNIT_EXPECT_GT(test, em_peek(test, ETE_TRBPTR_EL1), at + 100);
}

static void trbe_ignore_trigger(struct kunit *test)
{
	u64 at, sr = em_trigger_after(test, EM_TM_IGNORE, &at);

	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_TRG);
	KUNIT_EXPECT_FALSE(test, sr & (EM_TRBSR_S | EM_TRBSR_IRQ));
	KUNIT_EXPECT_EQ(test, em_irqs(test), 0U);
}

void em_sc_trbe_en(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_wr(test, ETE_TRBPTR_EL1, em_base(test) + 64);
}

static void trbe_write_while_enabled(struct kunit *test)
{
	em_sc_trbe_en(test);
	em_wr(test, ETE_TRBLIMITR_EL1, em_peek(test, ETE_TRBLIMITR_EL1) |
	      FIELD_PREP(EM_TRBLIMITR_FM, EM_FM_WRAP));
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_EN), 2U);
}

static void trbe_write_while_disabled(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_wr(test, ETE_TRBLIMITR_EL1, em_peek(test, ETE_TRBLIMITR_EL1) &
	      ~EM_TRBLIMITR_E);			/* clearing E is allowed */
	em_wr(test, ETE_TRBPTR_EL1, em_base(test) + 64);
	em_wr(test, ETE_TRBSR_EL1, 0);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

void em_sc_trbe_ptr(struct kunit *test)
{
	struct em_test *t = test->priv;
	u64 base;

	t->buf = vzalloc(3 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, t->buf);
	base = em_base(test);
	em_wr(test, ETE_TRBBASER_EL1, base);
	em_wr(test, ETE_TRBPTR_EL1, base + PAGE_SIZE);	/* at the limit */
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, (base + PAGE_SIZE) | EM_TRBLIMITR_E);
}

static void trbe_enable_with_bad_pointers(struct kunit *test)
{
	em_sc_trbe_ptr(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_PTR), 1U);
	em_run(test);
	em_tick(test, 256);
	em_expect_guards(test, 1);
}

void em_sc_trbe_order(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
}

static void trbe_disabled_while_tracing(struct kunit *test)
{
	em_sc_trbe_order(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_ORDER), 1U);
}

static void trbe_disabled_after_prohibit_and_flush(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 100);
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	em_sync(test, ETE_SYNC_DSB);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
	KUNIT_EXPECT_GE(test, em_peek(test, ETE_TRBPTR_EL1) - em_base(test),
			100ULL);
}

/* RRFJQN, 004 section 4: a TSB CSYNC, but no DSB before the disable */
void em_sc_trbe_unflushed(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 100);
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
}

/*
 * F8 of issue 32: the buffer registers written, then E set with no ISB
 * between: the TRBE may start from the old pointer or status.
 */
void em_sc_trbe_ensync(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_wr(test, ETE_TRBLIMITR_EL1, em_peek(test, ETE_TRBLIMITR_EL1) &
	      ~EM_TRBLIMITR_E);
	em_isb(test);
	em_wr(test, ETE_TRBPTR_EL1, em_base(test) + 64);
	em_wr(test, ETE_TRBLIMITR_EL1, em_peek(test, ETE_TRBLIMITR_EL1) |
	      EM_TRBLIMITR_E);
}

static void trbe_enabled_before_isb(struct kunit *test)
{
	em_sc_trbe_ensync(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_ENSYNC), 1U);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 1U);
}

static void trbe_enabled_after_isb(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_wr(test, ETE_TRBLIMITR_EL1, em_peek(test, ETE_TRBLIMITR_EL1) &
	      ~EM_TRBLIMITR_E);
	em_wr(test, ETE_TRBPTR_EL1, em_base(test) + 64);
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, em_peek(test, ETE_TRBLIMITR_EL1) |
	      EM_TRBLIMITR_E);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void trbe_disabled_without_dsb(struct kunit *test)
{
	em_sc_trbe_unflushed(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_UNFLUSHED), 1U);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 1U);
}

/*
 * RJLRQH: trace still in the unit's buffer (it drains a byte per tick
 * here) when the TRBE is disabled, with no TSB CSYNC to flush it: lost.
 * With the TSB CSYNC the buffer empties at once (RRFJQN), however slow.
 */
static void trbe_disabled_with_trace_in_unit(struct kunit *test)
{
	struct em_test *t = test->priv;

	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_SLOW_DRAIN);
	em_tick(test, 100);
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_sync(test, ETE_SYNC_DSB);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_UNFLUSHED), 1U);
}

static void tsb_flushes_slow_unit_at_once(struct kunit *test)
{
	struct em_test *t = test->priv;
	u64 before;

	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_SLOW_DRAIN);
	em_tick(test, 100);
	before = em_peek(test, ETE_TRBPTR_EL1);
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	em_sync(test, ETE_SYNC_DSB);
	em_isb(test);
	KUNIT_EXPECT_GT(test, em_peek(test, ETE_TRBPTR_EL1), before);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

/* Prohibit, flush and complete, then read the pointer with no ISB between */
void em_sc_rvtncs(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 100);
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	em_sync(test, ETE_SYNC_DSB);
	em_rd(test, ETE_TRBPTR_EL1);
}

/*
 * Arm ARM D6.6.3 (not in the seeds; cf. RWZQWC): the pointer and status a TSB CSYNC's trace
 * operations wrote reach a direct read only after a context
 * synchronization event that follows the TSB; with the ISB, no report.
 */
static void rvtncs_read_after_flush_needs_isb(struct kunit *test)
{
	u64 ptr;

	em_sc_rvtncs(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RVTNCS), 1U);
	em_rd(test, ETE_TRBSR_EL1);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RVTNCS), 2U);
	em_isb(test);
	ptr = em_rd(test, ETE_TRBPTR_EL1);
	em_rd(test, ETE_TRBSR_EL1);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RVTNCS), 2U);
	KUNIT_EXPECT_GE(test, ptr - em_base(test), 100ULL);
}

static void trbe_buffer_abort(struct kunit *test)
{
	struct em_test *t = test->priv;
	u64 sr;

	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_ABORT);
	em_run(test);
	em_tick(test, 256);
	sr = em_peek(test, ETE_TRBSR_EL1);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_TRBSR_EC, sr),
			(u64)EM_EC_STAGE1_ABORT);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_S);
	KUNIT_EXPECT_TRUE(test, sr & EM_TRBSR_IRQ);
	KUNIT_EXPECT_NULL(test, memchr_inv(t->buf, 0, 3 * PAGE_SIZE));
}

static void trbe_stopped_discards(struct kunit *test)
{
	u64 ptr;

	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	em_wr(test, ETE_TRBSR_EL1, EM_TRBSR_S);
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, (em_base(test) + PAGE_SIZE) |
	      EM_TRBLIMITR_E);
	em_run(test);
	ptr = em_peek(test, ETE_TRBPTR_EL1);
	em_tick(test, 512);
	KUNIT_EXPECT_EQ(test, em_peek(test, ETE_TRBPTR_EL1), ptr);
	em_expect_guards(test, 1);
}

static void rlgvcx_trbe_disabled_gets_nothing(struct kunit *test)
{
	struct em_test *t = test->priv;

	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	/* RFJFNS: the bytes go to the trace bus, where a sink takes them */
	ete_model_set_atb(t->m, t->cpu, true);
	em_run(test);
	em_tick(test, 512);
	KUNIT_EXPECT_NULL(test, memchr_inv(t->buf, 0, 3 * PAGE_SIZE));
}

/* I.12(2): Running, trace allowed, the TRBE disabled and no other sink */
void em_sc_trbe_off(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	em_run(test);
	em_tick(test, 256);
}

static void trbe_off_while_trace_allowed(struct kunit *test)
{
	em_sc_trbe_off(test);
	/* once per episode, not per tick */
	em_tick(test, 256);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_OFF), 1U);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 1U);
}

/*
 * A driver waiting for room: trace prohibited, then the TRBE disabled,
 * the unit left enabled; trace allowed again only once the TRBE is.
 * Allowing it first is flagged at the ISB that makes it take effect.
 */
static void trbe_off_while_prohibited(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 100);
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	em_sync(test, ETE_SYNC_DSB);
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	em_tick(test, 256);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, (em_base(test) + PAGE_SIZE) |
	      EM_TRBLIMITR_E);
	em_isb(test);
	em_wr(test, ETE_TRFCR_EL1, EM_TRFCR_E0TRE | EM_TRFCR_ExTRE);
	em_isb(test);
	em_tick(test, 256);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
	/* the wrong order: trace allowed while the TRBE is still off */
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	em_sync(test, ETE_SYNC_DSB);
	em_isb(test);
	em_wr(test, ETE_TRBLIMITR_EL1, 0);
	em_wr(test, ETE_TRFCR_EL1, EM_TRFCR_E0TRE | EM_TRFCR_ExTRE);
	em_isb(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_TRBE_OFF), 1U);
}

static void replay_emits_bytes_unchanged(struct kunit *test)
{
	struct em_test *t = test->priv;
	u8 bytes[100];
	unsigned int i;

	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = i * 7 + 3;
	KUNIT_ASSERT_EQ(test, ete_model_replay(t->m, t->cpu, bytes,
					       sizeof(bytes)), 0);
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 1000);
	KUNIT_EXPECT_EQ(test, memcmp(t->buf + EM_GUARD, bytes, sizeof(bytes)),
			0);
	KUNIT_EXPECT_EQ(test, em_peek(test, ETE_TRBPTR_EL1),
			em_base(test) + sizeof(bytes));
}

static struct kunit_case em_trbe_cases[] = {
	KUNIT_CASE(trbe_fill_mode_stops_at_limit),
	KUNIT_CASE(trbe_wrap_mode_continues_with_irq),
	KUNIT_CASE(trbe_circular_mode_wraps_silently),
	KUNIT_CASE(trbe_stop_on_trigger),
	KUNIT_CASE(trbe_irq_on_trigger),
	KUNIT_CASE(trbe_ignore_trigger),
	KUNIT_CASE(trbe_write_while_enabled),
	KUNIT_CASE(trbe_write_while_disabled),
	KUNIT_CASE(trbe_enable_with_bad_pointers),
	KUNIT_CASE(trbe_disabled_while_tracing),
	KUNIT_CASE(trbe_disabled_after_prohibit_and_flush),
	KUNIT_CASE(trbe_disabled_without_dsb),
	KUNIT_CASE(trbe_enabled_before_isb),
	KUNIT_CASE(trbe_enabled_after_isb),
	KUNIT_CASE(trbe_disabled_with_trace_in_unit),
	KUNIT_CASE(tsb_flushes_slow_unit_at_once),
	KUNIT_CASE(rvtncs_read_after_flush_needs_isb),
	KUNIT_CASE(trbe_buffer_abort),
	KUNIT_CASE(trbe_stopped_discards),
	KUNIT_CASE(rlgvcx_trbe_disabled_gets_nothing),
	KUNIT_CASE(trbe_off_while_trace_allowed),
	KUNIT_CASE(trbe_off_while_prohibited),
	KUNIT_CASE(replay_emits_bytes_unchanged),
	{}
};

static struct kunit_suite em_trbe_suite = {
	.name = "ete_model_trbe",
	.init = em_minimal_init,
	.exit = em_test_exit,
	.test_cases = em_trbe_cases,
};

/* ------------------------------------------------------------------ */
/* Trace output                                                       */
/* ------------------------------------------------------------------ */

static bool em_is_async(const u8 *p)
{
	u8 async[EM_PKT_ASYNC_LEN];

	em_pkt_async(async);
	return !memcmp(p, async, sizeof(async));
}

static void rttljc_trace_starts_with_sync(struct kunit *test)
{
	struct em_test *t = test->priv;
	const u8 *p;

	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 256);
	p = t->buf + EM_GUARD;
	/* A-Sync, Trace Info (INFO section, 0), Trace On, Context */
	KUNIT_EXPECT_TRUE(test, em_is_async(p));
	KUNIT_EXPECT_EQ(test, p[12], 0x01);
	KUNIT_EXPECT_EQ(test, p[13], 0x01);
	KUNIT_EXPECT_EQ(test, p[14], 0x00);
	KUNIT_EXPECT_EQ(test, p[15], 0x04);
	KUNIT_EXPECT_EQ(test, p[16], 0x81);
}

static void rqhhsy_periodic_async_per_syncpr(struct kunit *test)
{
	struct em_test *t = test->priv;
	unsigned int i, n = 0, len;

	em_trbe_setup(test, 2, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	em_wr(test, ETE_TRCSYNCPR, 8);			/* every 256 bytes */
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	em_tick(test, 4096);
	len = em_peek(test, ETE_TRBPTR_EL1) - em_base(test);
	for (i = 0; i + EM_PKT_ASYNC_LEN <= len; i++)
		n += em_is_async(t->buf + EM_GUARD + i);
	KUNIT_EXPECT_GE(test, n, len / 300);
}

static void rmtlfh_viewinst_inactive_no_trace(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	em_wr(test, ETE_TRCVICTLR, EM_VICTLR_SSSTATUS);	/* selector 0: FALSE */
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	em_tick(test, 1024);
	KUNIT_EXPECT_EQ(test, em_peek(test, ETE_TRBPTR_EL1), em_base(test));
}

static void rkbffq_prohibited_no_trace(struct kunit *test)
{
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_wr(test, ETE_TRFCR_EL1, 0);
	em_isb(test);
	em_tick(test, 1024);
	KUNIT_EXPECT_EQ(test, em_peek(test, ETE_TRBPTR_EL1), em_base(test));
}

static bool em_find(const u8 *hay, size_t len, const u8 *needle, size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (!memcmp(hay + i, needle, n))
			return true;
	return false;
}

static void rlddlp_overflow_emits_overflow_packet(struct kunit *test)
{
	struct em_test *t = test->priv;
	static const u8 want[] = { 0x00, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				   0, 0, 0x80 };

	em_trbe_setup(test, 4, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_SLOW_DRAIN);
	em_tick(test, 2048);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_NONE);
	em_tick(test, 256);
	/* RDQBDH: Overflow, then an A-Sync first */
	KUNIT_EXPECT_TRUE(test, em_find(t->buf + EM_GUARD, 4 * PAGE_SIZE,
					want, sizeof(want)));
}

/* The unit in overflow with room for nothing: an Overflow element owed */
static struct em_unit *em_overflow_pending(struct kunit *test)
{
	struct em_test *t = test->priv;
	struct em_unit *u = t->m->units[t->cpu];

	em_trbe_setup(test, 4, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_SLOW_DRAIN);
	em_tick(test, 2048);
	ete_model_set_fault(t->m, t->cpu, EM_FAULT_NONE);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(u->overflow));
	return u;
}

/* The last bytes the TRBE took are an Overflow packet */
static void em_expect_ends_with_overflow(struct kunit *test)
{
	u8 want[4];
	unsigned int n = em_pkt_overflow(want);
	u64 ptr = em_peek(test, ETE_TRBPTR_EL1);

	KUNIT_ASSERT_GE(test, ptr, em_base(test) + n);
	KUNIT_EXPECT_EQ(test, memcmp((u8 *)(uintptr_t)(ptr - n), want, n), 0);
}

/* RRPSPH: disabled during overflow, the unit outputs the Overflow first */
static void rrpsph_disable_outputs_pending_overflow(struct kunit *test)
{
	struct em_unit *u = em_overflow_pending(test);

	em_wr(test, ETE_TRCPRGCTLR, 0);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_IDLE, EM_POLLS));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(u->overflow));
	em_expect_ends_with_overflow(test);
}

/* RTWBVY: a flush during overflow outputs the Overflow before it completes */
static void rtwbvy_flush_outputs_pending_overflow(struct kunit *test)
{
	struct em_unit *u = em_overflow_pending(test);

	em_wr(test, ETE_TRFCR_EL1, 0);		/* RJLRQH: flush when prohibited */
	em_isb(test);
	em_sync(test, ETE_SYNC_TSB);
	em_sync(test, ETE_SYNC_DSB);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(u->overflow));
	em_expect_ends_with_overflow(test);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

/*
 * The rich unit programmed for a session with TRCCONFIGR @configr: its
 * filters, which reset UNKNOWN, all off; the caller sets ViewInst
 */
static void em_rich_program(struct kunit *test, u64 configr)
{
	em_wr(test, ETE_TRFCR_EL1, EM_TRFCR_E0TRE | EM_TRFCR_ExTRE);
	em_isb(test);
	em_wr(test, ETE_TRCCONFIGR, configr);
	em_wr(test, ETE_TRCTRACEIDR, 1);
	em_wr(test, ETE_TRCSYNCPR, 0);
	em_wr(test, ETE_TRCEVENTCTL0R, 0);
	em_wr(test, ETE_TRCEVENTCTL1R, 0);
	/* the rich unit's filters reset UNKNOWN: none */
	em_wr(test, ETE_TRCVIIECTLR, 0);
	em_wr(test, ETE_TRCVISSCTLR, 0);
	em_wr(test, ETE_TRCVIPCSSCTLR, 0);
	em_wr(test, ETE_TRCBBCTLR, 0);
	em_wr(test, ETE_TRCQCTLR, 0);
	em_wr(test, ETE_TRCSTALLCTLR, 0);
	em_wr(test, ETE_TRCTSCTLR, 0);
	em_wr(test, ETE_TRCAUXCTLR, 0);
}

/*
 * ViewInst by context ID (etecap --pid): the event a resource selector of
 * the context ID comparator group; the program traced only while its
 * context ID matches a selected comparator, the masked bytes aside.
 */
static unsigned int em_bytes_with_cid_event(struct kunit *test, u64 cidcvr,
					    u64 mask, bool invert)
{
	struct em_test *t = test->priv;

	em_trbe_setup(test, 4, EM_FM_FILL, EM_TM_IGNORE, 0);
	WRITE_ONCE(t->m->units[t->cpu]->context_id, 0x4d2);
	em_rich_program(test, BIT(0) | BIT(6));	/* CID */
	em_wr(test, ETE_TRCCIDCVR_N(1), cidcvr);
	em_wr(test, ETE_TRCCIDCCTLR0, mask << 8);	/* COMP1 */
	/* selector 2: group 6 (context ID comparators), comparator 1 */
	em_wr(test, ETE_TRCRSCTLR_N(2), (6 << 16) | BIT(1) |
	      (invert ? BIT(20) : 0));
	em_wr(test, ETE_TRCVICTLR, 2 | EM_VICTLR_SSSTATUS);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_EXPECT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	em_tick(test, 1024);
	em_tick(test, 1024);
	return em_peek(test, ETE_TRBPTR_EL1) - em_base(test);
}

static void viewinst_context_id_matches(struct kunit *test)
{
	KUNIT_EXPECT_GT(test, em_bytes_with_cid_event(test, 0x4d2, 0, false),
			1024U);
}

static void viewinst_context_id_masked_byte(struct kunit *test)
{
	/* byte 0 ignored: 0x4ff matches 0x4d2 */
	KUNIT_EXPECT_GT(test, em_bytes_with_cid_event(test, 0x4ff, 1, false),
			1024U);
}

static void viewinst_context_id_differs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, em_bytes_with_cid_event(test, 0x4d3, 0, false),
			0U);
}

static void viewinst_context_id_inverted(struct kunit *test)
{
	KUNIT_EXPECT_GT(test, em_bytes_with_cid_event(test, 0x4d3, 0, true),
			1024U);
}

static struct kunit_case em_trace_cases[] = {
	KUNIT_CASE(rttljc_trace_starts_with_sync),
	KUNIT_CASE(rqhhsy_periodic_async_per_syncpr),
	KUNIT_CASE(rmtlfh_viewinst_inactive_no_trace),
	KUNIT_CASE(rkbffq_prohibited_no_trace),
	KUNIT_CASE(rlddlp_overflow_emits_overflow_packet),
	KUNIT_CASE(rrpsph_disable_outputs_pending_overflow),
	KUNIT_CASE(rtwbvy_flush_outputs_pending_overflow),
	{}
};

static struct kunit_suite em_trace_suite = {
	.name = "ete_model_trace",
	.init = em_minimal_init,
	.exit = em_test_exit,
	.test_cases = em_trace_cases,
};

/*
 * Task mode's tests (cid_ticks): the trace carries the PE's context ID.  A
 * tick after the PE's ID changed starts with a Context packet of the new
 * ID (TRCCONFIGR.CID); without CID no context ID is traced at all.
 * Whether the buffer holds a Context packet with context ID @cid.
 */
static bool em_traced_cid(struct kunit *test, u64 configr, u32 cid)
{
	struct em_test *t = test->priv;
	struct em_unit *u = t->m->units[t->cpu];
	struct em_pkt_ctx ctx = { .has_cid = true };
	unsigned long flags;
	const u8 *p;
	size_t i, len;
	u8 hdr[EM_PKT_MAX];

	em_trbe_setup(test, 4, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_rich_program(test, configr);
	em_wr(test, ETE_TRCVICTLR, 1 | EM_VICTLR_SSSTATUS);	/* always */
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	KUNIT_ASSERT_TRUE(test, em_wait_state(test, EM_RUNNING, EM_POLLS));
	em_tick(test, 1024);
	raw_spin_lock_irqsave(&u->lock, flags);
	em_gen_context(u, cid);
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_tick(test, 1024);
	p = t->buf + EM_GUARD;	/* em_trbe_setup()'s buffer */
	len = em_peek(test, ETE_TRBPTR_EL1) - em_base(test);
	KUNIT_EXPECT_GT(test, len, 1024UL);
	em_pkt_context(hdr, &ctx);	/* hdr[0]: the Context header */
	for (i = 0; i + 6 <= len; i++)
		if (p[i] == hdr[0] && p[i + 1] & BIT(7) &&
		    get_unaligned_le32(p + i + 2) == cid)
			return true;
	return false;
}

static void traced_context_follows_the_pe(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, em_traced_cid(test, BIT(0) | BIT(6),
					      0x5ca1ab1e));
}

static void traced_context_needs_cid(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, em_traced_cid(test, BIT(0), 0x5ca1ab1e));
}

/* ViewInst by context ID: the rich profile (8 context ID comparators) */
static struct kunit_case em_viewinst_cases[] = {
	KUNIT_CASE(traced_context_follows_the_pe),
	KUNIT_CASE(traced_context_needs_cid),
	KUNIT_CASE(viewinst_context_id_matches),
	KUNIT_CASE(viewinst_context_id_masked_byte),
	KUNIT_CASE(viewinst_context_id_differs),
	KUNIT_CASE(viewinst_context_id_inverted),
	{}
};

static struct kunit_suite em_viewinst_suite = {
	.name = "ete_model_viewinst",
	.init = em_rich_init,
	.exit = em_test_exit,
	.test_cases = em_viewinst_cases,
};

/* ------------------------------------------------------------------ */
/* External-debug view and power-down                                 */
/* ------------------------------------------------------------------ */

/* The external view, its software lock opened as a driver would */
static void *em_ctx(struct kunit *test)
{
	struct em_test *t = test->priv;
	void *c = ete_model_mmio_ctx(t->m, t->cpu);

	ete_model_mmio_ops.write32(c, ETE_TRCLAR, EM_LAR_KEY);
	return c;
}

static void rvqwly_64bit_register_access(struct kunit *test)
{
	void *c = em_ctx(test);

	ete_model_mmio_ops.write64(c, ETE_TRCACVR_N(0), 0x1122334455667788);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCACVR_N(0)),
			0x55667788U);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCACVR_N(0) + 4),
			0x11223344U);
	ete_model_mmio_ops.write32(c, ETE_TRCACVR_N(0) + 4, 0xaabbccdd);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read64(c, ETE_TRCACVR_N(0)),
			0xaabbccdd55667788ULL);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

void em_sc_rkydtq(struct kunit *test)
{
	ete_model_mmio_ops.read32(em_ctx(test), ETE_TRCTRACEIDR + 2);
}

static void rkydtq_unsupported_sizes(struct kunit *test)
{
	void *c = em_ctx(test);

	em_sc_rkydtq(test);
	ete_model_mmio_ops.read64(c, ETE_TRCTRACEIDR);	/* 32-bit register */
	/* RYFRMG (3): the registers a bad write reaches become UNKNOWN */
	ete_model_mmio_ops.write64(c, ETE_TRCACVR_N(0), 0x1122334455667788);
	ete_model_mmio_ops.write64(c, ETE_TRCACVR_N(0) + 4, 0);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_RKYDTQ), 3U);
	KUNIT_EXPECT_NE(test, ete_model_mmio_ops.read64(c, ETE_TRCACVR_N(0)),
			0x1122334455667788ULL);
}

void em_sc_swlock(struct kunit *test)
{
	void *c = em_ctx(test);

	ete_model_mmio_ops.write32(c, ETE_TRCLAR, 0);	/* lock */
	ete_model_mmio_ops.write32(c, ETE_TRCTRACEIDR, 5);
}

static void swlock_blocks_external_writes(struct kunit *test)
{
	void *c = em_ctx(test);

	em_wr(test, ETE_TRCTRACEIDR, 1);
	em_sc_swlock(test);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_SWLOCK), 1U);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCLSR), 3U);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCTRACEIDR),
			1U);
	ete_model_mmio_ops.write32(c, ETE_TRCLAR, EM_LAR_KEY);
	ete_model_mmio_ops.write32(c, ETE_TRCTRACEIDR, 5);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCTRACEIDR),
			5U);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_SWLOCK), 1U);
}

static void ilfbbp_external_oslar_is_pe_os_lock(struct kunit *test)
{
	void *c = em_ctx(test);

	ete_model_mmio_ops.write32(c, ETE_TRCOSLAR, 1);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_OSLSR_EL1) & EM_OSLSR_OSLK,
			(u64)EM_OSLSR_OSLK);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCOSLSR),
			0xaU);
	ete_model_mmio_ops.write32(c, ETE_TRCOSLAR, 0);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_OSLSR_EL1), 0x8ULL);
}

static void rdyrzc_external_polling_needs_no_isb(struct kunit *test)
{
	void *c = em_ctx(test);
	int i;

	ete_model_mmio_ops.write32(c, ETE_TRCSTALLCTLR, 0);
	ete_model_mmio_ops.write32(c, ETE_TRCPRGCTLR, 1);
	for (i = 0; i < EM_POLLS; i++)
		if (!(ete_model_mmio_ops.read32(c, ETE_TRCSTATR) & EM_STATR_IDLE))
			break;
	KUNIT_EXPECT_EQ(test, em_state(test), EM_RUNNING);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

static void rfqmxq_power_down_loses_state(struct kunit *test)
{
	struct em_test *t = test->priv;
	void *c = em_ctx(test);

	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCPDSR), 1U);
	em_wr(test, ETE_TRFCR_EL1, EM_TRFCR_E0TRE | EM_TRFCR_ExTRE);
	em_isb(test);
	em_wr(test, ETE_TRCVICTLR, 1 | EM_VICTLR_SSSTATUS);
	em_wr(test, ETE_TRCPRGCTLR, 1);
	em_isb(test);
	ete_model_power_down(t->m, t->cpu);
	KUNIT_EXPECT_EQ(test, em_state(test), EM_IDLE);
	KUNIT_EXPECT_EQ(test, em_rd(test, ETE_TRCPRGCTLR), 0ULL);
	KUNIT_EXPECT_FALSE(test, em_rd(test, ETE_TRBLIMITR_EL1) &
			   EM_TRBLIMITR_E);
	/* the Software Lock is locked again (TRCLSR resets to 0x3) */
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCLSR), 3U);
	ete_model_mmio_ops.write32(c, ETE_TRCLAR, EM_LAR_KEY);
	/* STICKYPD is set, and cleared by the read */
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCPDSR), 3U);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCPDSR), 1U);
}

/*
 * One save and restore around a power-down: the driver's save (OS Lock
 * set), the power-down, a restore that puts every register back but
 * changes @changed, the OS Lock cleared (the model compares then).
 * Return: the mismatches the model counted.
 */
static unsigned long em_restore_but(struct kunit *test, u32 changed)
{
	struct em_test *t = test->priv;
	struct em_unit *u = t->m->units[t->cpu];
	unsigned long flags, mismatch0 = u->pm.mismatch;
	u64 *saved, trfcr;

	saved = kunit_kmalloc(test, sizeof(u->trc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	em_wr(test, ETE_OSLAR_EL1, 1);
	em_isb(test);
	raw_spin_lock_irqsave(&u->lock, flags);
	memcpy(saved, u->trc, sizeof(u->trc));
	trfcr = u->trfcr;
	raw_spin_unlock_irqrestore(&u->lock, flags);
	ete_model_power_down(t->m, t->cpu);
	raw_spin_lock_irqsave(&u->lock, flags);
	memcpy(u->trc, saved, sizeof(u->trc));
	u->trc[changed / 4] ^= 0x10;
	u->trfcr = trfcr;
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_wr(test, ETE_OSLAR_EL1, 0);
	em_isb(test);
	return u->pm.mismatch - mismatch0;
}

/*
 * After a restore the model compares what the unit looks at: the control
 * registers and the resources they reference, here SAC 0 through the
 * ViewInst event's selector 2.  SAC 4 is named by nothing: its value
 * after the power-down (UNKNOWN, RPCXJC) cannot change the trace.
 */
static void restore_compares_referenced_registers(struct kunit *test)
{
	/* the other controls name nothing (their reset values are UNKNOWN) */
	em_wr(test, ETE_TRCCONFIGR, BIT(0));
	em_wr(test, ETE_TRCEVENTCTL0R, 0);
	em_wr(test, ETE_TRCTSCTLR, 0);
	em_wr(test, ETE_TRCVIIECTLR, 0);
	em_wr(test, ETE_TRCVISSCTLR, 0);
	em_wr(test, ETE_TRCVICTLR, 2 | EM_VICTLR_SSSTATUS);
	em_wr(test, ETE_TRCRSCTLR_N(2), (4 << 16) | BIT(0));
	em_wr(test, ETE_TRCACVR_N(0), 0x1000);
	em_wr(test, ETE_TRCACVR_N(4), 0x5000);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCACVR_N(4)), 0UL);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCACVR_N(0)), 1UL);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCRSCTLR_N(2)), 1UL);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCRSCTLR_N(3)), 0UL);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCTRACEIDR), 1UL);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCRSR), 1UL);
	/* ViewInst back to TRUE: the selector and SAC 0 no longer count */
	em_wr(test, ETE_TRCVICTLR, 1 | EM_VICTLR_SSSTATUS);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCACVR_N(0)), 0UL);
	KUNIT_EXPECT_EQ(test, em_restore_but(test, ETE_TRCRSCTLR_N(2)), 0UL);
}

/* D.11, RYSHRS: the OS Lock locked, trace registers answer with an error */
void em_sc_extoslk(struct kunit *test)
{
	struct em_test *t = test->priv;
	void *c = em_ctx(test);

	ete_model_set_os_lock(t->m, t->cpu, true);
	ete_model_mmio_ops.read32(c, ETE_TRCPRGCTLR);
	ete_model_set_os_lock(t->m, t->cpu, false);
}

static void extoslk_os_lock_blocks_external_view(struct kunit *test)
{
	struct em_test *t = test->priv;
	void *c = em_ctx(test);

	ete_model_set_os_lock(t->m, t->cpu, true);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCIDR1), 0U);
	ete_model_mmio_ops.write32(c, ETE_TRCTRACEIDR, 5);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_EXTOSLK), 2U);
	/* the OS Lock, power-down and management registers still answer */
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCOSLSR) &
			BIT(1), BIT(1));
	ete_model_mmio_ops.read32(c, ETE_TRCPDSR);
	KUNIT_EXPECT_NE(test, ete_model_mmio_ops.read32(c, ETE_TRCDEVARCH), 0U);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_EXTOSLK), 2U);
	ete_model_set_os_lock(t->m, t->cpu, false);
	KUNIT_EXPECT_NE(test, ete_model_mmio_ops.read32(c, ETE_TRCIDR1), 0U);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_EXTOSLK), 2U);
}

/* The core is off (CPU_OFF): the external view answers nothing (RKQMKX) */
void em_sc_extpd(struct kunit *test)
{
	struct em_test *t = test->priv;

	ete_model_cpu_off(t->m, t->cpu);
	ete_model_mmio_ops.read32(em_ctx(test), ETE_TRCIDR1);
	ete_model_cpu_on(t->m, t->cpu);
}

static void rkqmkx_powered_down_core_answers_error(struct kunit *test)
{
	struct em_test *t = test->priv;
	void *c = em_ctx(test);
	u32 idr1 = ete_model_mmio_ops.read32(c, ETE_TRCIDR1);

	KUNIT_EXPECT_NE(test, idr1, 0U);
	ete_model_cpu_off(t->m, t->cpu);
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCIDR1), 0U);
	ete_model_mmio_ops.write32(c, ETE_TRCTRACEIDR, 5);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_EXTPD), 2U);
	ete_model_cpu_on(t->m, t->cpu);
	/* on again: the view answers */
	KUNIT_EXPECT_EQ(test, ete_model_mmio_ops.read32(c, ETE_TRCIDR1), idr1);
	KUNIT_EXPECT_EQ(test, em_viol(test, EM_EXTPD), 2U);
}

static struct kunit_case em_mmio_cases[] = {
	KUNIT_CASE(rkqmkx_powered_down_core_answers_error),
	KUNIT_CASE(extoslk_os_lock_blocks_external_view),
	KUNIT_CASE(rvqwly_64bit_register_access),
	KUNIT_CASE(rkydtq_unsupported_sizes),
	KUNIT_CASE(swlock_blocks_external_writes),
	KUNIT_CASE(ilfbbp_external_oslar_is_pe_os_lock),
	KUNIT_CASE(rdyrzc_external_polling_needs_no_isb),
	KUNIT_CASE(rfqmxq_power_down_loses_state),
	KUNIT_CASE(restore_compares_referenced_registers),
	{}
};

static struct kunit_suite em_mmio_suite = {
	.name = "ete_model_mmio",
	.init = em_rich_init,
	.exit = em_test_exit,
	.test_cases = em_mmio_cases,
};

/* ------------------------------------------------------------------ */
/* The TRBE interrupt through the GIC                                 */
/* ------------------------------------------------------------------ */

/**
 * struct em_irq_seen - what the test's TRBE handler saw
 * @m: the instance whose registers the handler reads
 * @clear_after: the handler leaves TRBSR_EL1.IRQ set this many times
 * @hardirq: it ran in hard-IRQ context
 * @count: times it ran with TRBSR_EL1.IRQ set
 */
struct em_irq_seen {
	struct ete_model *m;
	unsigned int clear_after;
	bool hardirq;
	unsigned int count;
};

static DEFINE_PER_CPU(struct em_irq_seen *, em_irq_cookie);

static irqreturn_t em_test_irq(int irq, void *dev)
{
	struct em_irq_seen *seen = *(struct em_irq_seen **)dev;
	struct ete_access acc = {
		.ops = &ete_model_sysreg_ops,
		.local = true,
	};

	if (!seen)
		return IRQ_NONE;
	acc.priv = seen->m;
	acc.cpu = smp_processor_id();
	if (!(ete_read(&acc, ETE_TRBSR_EL1) & EM_TRBSR_IRQ))
		return IRQ_NONE;
	seen->hardirq = in_hardirq();
	WRITE_ONCE(seen->count, seen->count + 1);
	if (seen->count <= seen->clear_after)
		return IRQ_HANDLED;
	/* the handler's duty: prohibit, flush, disable, clear the status */
	ete_write(&acc, ETE_TRFCR_EL1, 0);
	ete_sync(&acc, ETE_SYNC_ISB);
	ete_sync(&acc, ETE_SYNC_TSB);
	ete_sync(&acc, ETE_SYNC_DSB);
	ete_write(&acc, ETE_TRBLIMITR_EL1, 0);
	ete_write(&acc, ETE_TRBSR_EL1, 0);
	return IRQ_HANDLED;
}

/*
 * Fill a one-page buffer with the TRBE interrupt requested by the test
 * itself, and wait up to 200 ms for the handler to have run @want times.
 */
static void em_irq_session(struct kunit *test, struct em_irq_seen *seen,
			   bool autotick, unsigned int want)
{
	struct em_test *t = test->priv;
	int virq = ete_model_trbe_virq(), ret, i;

	if (!virq)
		kunit_skip(test, "no TRBE node in the devicetree");
	ret = request_percpu_irq(virq, em_test_irq, "ete_model_kunit",
				 &em_irq_cookie);
	if (ret)
		kunit_skip(test, "TRBE IRQ busy (%d)", ret);
	seen->m = t->m;
	ete_model_set_irq(t->m, virq, autotick);
	preempt_disable();
	*this_cpu_ptr(&em_irq_cookie) = seen;
	enable_percpu_irq(virq, IRQ_TYPE_NONE);
	preempt_enable();
	em_trbe_setup(test, 1, EM_FM_FILL, EM_TM_IGNORE, 0);
	em_run(test);
	em_tick(test, 2 * PAGE_SIZE);
	for (i = 0; i < 200 && READ_ONCE(seen->count) < want; i++)
		usleep_range(1000, 2000);
	preempt_disable();
	disable_percpu_irq(virq);
	*this_cpu_ptr(&em_irq_cookie) = NULL;
	preempt_enable();
	free_percpu_irq(virq, &em_irq_cookie);
}

static void trbe_irq_handler_runs_in_hard_irq(struct kunit *test)
{
	struct em_irq_seen seen = {};

	em_irq_session(test, &seen, false, 1);
	KUNIT_EXPECT_EQ(test, seen.count, 1U);
	KUNIT_EXPECT_TRUE(test, seen.hardirq);
	KUNIT_EXPECT_EQ(test, em_viol_total(test), 0U);
}

/* A pending bit is a latch: the model pends again while the IRQ bit stays */
static void trbe_irq_repends_while_status_set(struct kunit *test)
{
	struct em_irq_seen seen = { .clear_after = 2 };

	em_irq_session(test, &seen, true, 3);
	KUNIT_EXPECT_EQ(test, seen.count, 3U);
	KUNIT_EXPECT_FALSE(test, em_peek(test, ETE_TRBSR_EL1) & EM_TRBSR_IRQ);
}

static struct kunit_case em_irq_cases[] = {
	KUNIT_CASE(trbe_irq_handler_runs_in_hard_irq),
	KUNIT_CASE(trbe_irq_repends_while_status_set),
	{}
};

static struct kunit_suite em_irq_suite = {
	.name = "ete_model_irq",
	.init = em_minimal_init,
	.exit = em_test_exit,
	.test_cases = em_irq_cases,
};

kunit_test_suites(&em_trbe_suite, &em_trace_suite, &em_viewinst_suite,
		  &em_mmio_suite, &em_irq_suite);
