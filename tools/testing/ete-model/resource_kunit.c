// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the model's resources (resource.c) cycle by cycle against the
 * rules: selectors and pairs, counters in normal, self-reload and chained
 * mode, the sequencer's transitions and state resources, and, over random
 * programming, the run of many cycles at once against the pseudocode run
 * one cycle at a time.
 */

#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <kunit/test.h>

#include <ete/regs.h>

#include "resource.h"

/* The rich profile's resources: 16 selector pairs, 4 counters, 4 states */
#define RT_IDR4		(0xfU << 16)
#define RT_IDR5		((4U << 28) | (4U << 25))
#define RT_NREGS	(0x1000 / 4)
#define RS_CNTSEQ	(2U << 16)	/* group 2: counters at zero, states */
#define RS_INV		BIT(20)
#define RS_PAIRINV	BIT(21)
#define CNT_SELF	BIT(16)
#define CNT_CHAIN	BIT(17)
#define PAIR(p)		(BIT(7) | (p))

struct rt {
	u64 *trc;
	struct em_res r;
};

static struct rt *rt_new(struct kunit *test)
{
	struct rt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->trc = kunit_kcalloc(test, RT_NREGS, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->trc);
	return t;
}

static void wr(struct rt *t, u32 off, u64 val)
{
	t->trc[off / 4] = val;
}

static u64 rd(struct rt *t, u32 off)
{
	return t->trc[off / 4];
}

static void start(struct rt *t)
{
	em_res_init(&t->r, t->trc, RT_IDR4, RT_IDR5);
}

/* RNRSGN, RSXSQT: selectors 0 and 1 are fixed; one not implemented is LOW */
static void rnrsgn_rsxsqt_fixed_selectors(struct kunit *test)
{
	struct rt *t = rt_new(test);

	start(t);
	KUNIT_EXPECT_FALSE(test, em_res_selector(&t->r, t->trc, 0));
	KUNIT_EXPECT_TRUE(test, em_res_selector(&t->r, t->trc, 1));
	KUNIT_EXPECT_FALSE(test, em_res_event(&t->r, t->trc, 0));
	KUNIT_EXPECT_TRUE(test, em_res_event(&t->r, t->trc, 1));
	/* the minimal profile: 2 pairs, so selector 4 is not there */
	wr(t, ETE_TRCRSCTLR_N(4), RS_CNTSEQ | BIT(4) | RS_INV);
	em_res_init(&t->r, t->trc, 1U << 16, 0);
	KUNIT_EXPECT_FALSE(test, em_res_selector(&t->r, t->trc, 4));
}

/* RWZVDQ, RHVNQG, RWFGMY: the OR of the selected resources, then INV */
static void rhvnqg_rwfgmy_or_then_inv(struct kunit *test)
{
	struct rt *t = rt_new(test);

	wr(t, ETE_TRCCNTVR_N(0), 5);
	wr(t, ETE_TRCCNTVR_N(1), 0);		/* normal mode at zero */
	wr(t, ETE_TRCSEQSTR, 2);
	start(t);
	wr(t, ETE_TRCRSCTLR_N(2), RS_CNTSEQ | BIT(0));
	KUNIT_EXPECT_FALSE(test, em_res_selector(&t->r, t->trc, 2));
	wr(t, ETE_TRCRSCTLR_N(2), RS_CNTSEQ | BIT(0) | BIT(1));
	KUNIT_EXPECT_TRUE(test, em_res_selector(&t->r, t->trc, 2));
	wr(t, ETE_TRCRSCTLR_N(2), RS_CNTSEQ | BIT(4 + 2));	/* state 2 */
	KUNIT_EXPECT_TRUE(test, em_res_selector(&t->r, t->trc, 2));
	wr(t, ETE_TRCRSCTLR_N(2), RS_CNTSEQ | BIT(4 + 1) | RS_INV);
	KUNIT_EXPECT_TRUE(test, em_res_selector(&t->r, t->trc, 2));
	wr(t, ETE_TRCRSCTLR_N(2), RS_CNTSEQ | BIT(1) | RS_INV);
	KUNIT_EXPECT_FALSE(test, em_res_selector(&t->r, t->trc, 2));
	/* a group the model does not implement is LOW, INV makes it HIGH */
	wr(t, ETE_TRCRSCTLR_N(2), (4U << 16) | BIT(0) | RS_INV);
	KUNIT_EXPECT_TRUE(test, em_res_selector(&t->r, t->trc, 2));
}

/* RKTNJM, Table D4-27: a pair is (A AND B) XOR PAIRINV of its lower one */
static void rktnjm_pair_functions(struct kunit *test)
{
	static const struct {
		bool a, b, pairinv, ainv, binv, out;
	} rows[] = {
		{ 1, 1, 0, 0, 0, 1 }, { 1, 0, 0, 0, 0, 0 },	/* A AND B */
		{ 1, 1, 1, 0, 0, 0 }, { 0, 1, 1, 0, 0, 1 },	/* NAND */
		{ 1, 0, 1, 0, 1, 0 }, { 0, 0, 1, 0, 1, 1 },	/* !A OR B */
		{ 0, 1, 0, 1, 0, 1 }, { 1, 1, 0, 1, 0, 0 },	/* !A AND B */
		{ 0, 0, 0, 1, 1, 1 }, { 1, 0, 0, 1, 1, 0 },	/* NOR */
		{ 1, 0, 1, 1, 1, 1 }, { 0, 0, 1, 1, 1, 0 },	/* A OR B */
	};
	struct rt *t = rt_new(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		/* A: counter 0 at zero; B: counter 1 at zero (normal mode) */
		wr(t, ETE_TRCCNTVR_N(0), !rows[i].a);
		wr(t, ETE_TRCCNTVR_N(1), !rows[i].b);
		start(t);
		wr(t, ETE_TRCRSCTLR_N(4), RS_CNTSEQ | BIT(0) |
		   (rows[i].ainv ? RS_INV : 0) |
		   (rows[i].pairinv ? RS_PAIRINV : 0));
		wr(t, ETE_TRCRSCTLR_N(5), RS_CNTSEQ | BIT(1) |
		   (rows[i].binv ? RS_INV : 0));
		KUNIT_EXPECT_EQ_MSG(test, em_res_event(&t->r, t->trc, PAIR(2)),
				    rows[i].out, "row %u", i);
	}
	/* pair 0 is selectors 0 and 1: FALSE AND TRUE */
	KUNIT_EXPECT_FALSE(test, em_res_event(&t->r, t->trc, PAIR(0)));
}

/*
 * RSBQPN, RKXLKC: normal mode counts down on its event, holds at zero
 * with the at-zero resource active until RLDEVENT; RDDCDK: a reload wins
 */
static void rsbqpn_normal_mode_holds_at_zero(struct kunit *test)
{
	struct rt *t = rt_new(test);

	wr(t, ETE_TRCCNTVR_N(0), 3);
	wr(t, ETE_TRCCNTRLDVR_N(0), 7);
	wr(t, ETE_TRCCNTCTLR_N(0), 1);		/* CNTEVENT TRUE, no reload */
	start(t);
	em_res_run(&t->r, t->trc, 2);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(0)), 1ULL);
	KUNIT_EXPECT_FALSE(test, t->r.cnt_zero & BIT(0));
	em_res_run(&t->r, t->trc, 1);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(0)), 0ULL);
	em_res_run(&t->r, t->trc, 5);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(0)), 0ULL);
	KUNIT_EXPECT_TRUE(test, t->r.cnt_zero & BIT(0));
	/* RLDEVENT TRUE: reloads every cycle, over the decrement */
	wr(t, ETE_TRCCNTCTLR_N(0), 1 | (1 << 8));
	em_res_run(&t->r, t->trc, 3);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(0)), 7ULL);
	KUNIT_EXPECT_FALSE(test, t->r.cnt_zero & BIT(0));
	/* RKXLKC: no event, no decrement */
	wr(t, ETE_TRCCNTCTLR_N(0), 0);
	em_res_run(&t->r, t->trc, 100);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(0)), 7ULL);
}

/*
 * RYLYPH: self-reload mode reloads at the decrement after zero, and its
 * at-zero resource is active for that one cycle only
 */
static void rylyph_self_reload_one_cycle_at_zero(struct kunit *test)
{
	struct rt *t = rt_new(test);
	unsigned int i, active = 0;

	wr(t, ETE_TRCCNTVR_N(0), 2);
	wr(t, ETE_TRCCNTRLDVR_N(0), 4);
	wr(t, ETE_TRCCNTCTLR_N(0), 1 | CNT_SELF);
	start(t);
	KUNIT_EXPECT_FALSE(test, t->r.cnt_zero & BIT(0));
	/* 2, 1, 0, reload to 4: at zero in the reload's cycle; 5 per period */
	for (i = 0; i < 3 + 5 * 10; i++) {
		em_res_run(&t->r, t->trc, 1);
		active += !!(t->r.cnt_zero & BIT(0));
	}
	KUNIT_EXPECT_EQ(test, active, 11U);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(0)), 4ULL);
}

/* RWPWQD: counter 1 chained counts counter 0's reloads */
static void rwpwqd_chain_counts_lower_reloads(struct kunit *test)
{
	struct rt *t = rt_new(test);

	wr(t, ETE_TRCCNTVR_N(0), 0);
	wr(t, ETE_TRCCNTRLDVR_N(0), 9);		/* reloads every 10 cycles */
	wr(t, ETE_TRCCNTCTLR_N(0), 1 | CNT_SELF);
	wr(t, ETE_TRCCNTVR_N(1), 1000);
	wr(t, ETE_TRCCNTCTLR_N(1), CNT_CHAIN);	/* no event of its own */
	start(t);
	em_res_run(&t->r, t->trc, 1000);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(1)), 900ULL);
	/* CNTCHAIN is counter 1's and 3's: counter 2 ignores it */
	wr(t, ETE_TRCCNTCTLR_N(2), CNT_CHAIN);
	wr(t, ETE_TRCCNTVR_N(2), 50);
	em_res_run(&t->r, t->trc, 1000);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCCNTVR_N(2)), 50ULL);
}

/* Program sequencer events: F (n -> n+1) and B (n+1 -> n) of each state */
static void seq_events(struct rt *t, const u8 f[3], const u8 b[3])
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		wr(t, ETE_TRCSEQEVR_N(k), f[k] | (u64)b[k] << 8);
}

/*
 * RJDPYL, RNPVRQ, IQNFJZ, RHQHFT: forward wins over backward, several
 * forward steps in one cycle, the states passed through active with it
 */
static void rjdpyl_forward_wins_and_steps_through(struct kunit *test)
{
	static const u8 none[3], all[3] = { 1, 1, 1 };
	struct rt *t = rt_new(test);

	seq_events(t, all, all);		/* F and B all TRUE */
	start(t);
	em_res_run(&t->r, t->trc, 1);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCSEQSTR), 3ULL);
	KUNIT_EXPECT_EQ(test, t->r.seq_active, (u8)(BIT(1) | BIT(2) | BIT(3)));
	em_res_run(&t->r, t->trc, 1);		/* F2 keeps it in 3 */
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCSEQSTR), 3ULL);
	KUNIT_EXPECT_EQ(test, t->r.seq_active, (u8)BIT(3));
	seq_events(t, none, all);		/* only B: 3 -> 0 */
	em_res_run(&t->r, t->trc, 1);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCSEQSTR), 0ULL);
	KUNIT_EXPECT_EQ(test, t->r.seq_active, (u8)(BIT(0) | BIT(1) | BIT(2)));
}

/* RKVSXC, RHQBBF: the reset overrides, ends in 0, nothing else active */
static void rkvsxc_reset_overrides(struct kunit *test)
{
	static const u8 all[3] = { 1, 1, 1 };
	struct rt *t = rt_new(test);

	wr(t, ETE_TRCSEQSTR, 3);
	seq_events(t, all, all);
	wr(t, ETE_TRCSEQRSTEVR, 1);
	start(t);
	em_res_run(&t->r, t->trc, 1);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCSEQSTR), 0ULL);
	KUNIT_EXPECT_EQ(test, t->r.seq_active, (u8)BIT(0));
	/* no sequencer (minimal profile): its registers change nothing */
	wr(t, ETE_TRCSEQSTR, 2);
	em_res_init(&t->r, t->trc, 1U << 16, 0);
	em_res_run(&t->r, t->trc, 10);
	KUNIT_EXPECT_EQ(test, rd(t, ETE_TRCSEQSTR), 2ULL);
	KUNIT_EXPECT_EQ(test, t->r.seq_active, (u8)0);
}

/*
 * The pseudocode, one cycle: SequencerTransitions() as the table of
 * RJDPYL gives it, SequencerResource() (RHQHFT), then EvalCounter() for
 * each counter (G.16), all on the last cycle's resources
 */
static void ref_cycle(const struct em_res *r, u64 *trc, u8 *zero, u8 *seq)
{
	bool f[3], b[3], reloaded[EM_RES_NR_CNTR] = { };
	unsigned int s = trc[ETE_TRCSEQSTR / 4] & 3, ns, i, k;
	u8 nzero = 0, act = 0;

	for (k = 0; k < 3; k++) {
		f[k] = em_res_event(r, trc, trc[ETE_TRCSEQEVR_N(k) / 4] & 0xff);
		b[k] = em_res_event(r, trc,
				    (trc[ETE_TRCSEQEVR_N(k) / 4] >> 8) & 0xff);
	}
	if (em_res_event(r, trc, trc[ETE_TRCSEQRSTEVR / 4] & 0xff)) {
		ns = 0;
		act = BIT(0);
	} else {
		switch (s) {
		case 0:
			ns = f[0] ? (f[1] ? (f[2] ? 3 : 2) : 1) : 0;
			break;
		case 1:
			ns = f[1] ? (f[2] ? 3 : 2) : (b[0] && !f[0]) ? 0 : 1;
			break;
		case 2:
			ns = f[2] ? 3 : (!b[1] || f[1]) ? 2 :
			     (!b[0] || f[0]) ? 1 : 0;
			break;
		default:
			ns = (!b[2] || f[2]) ? 3 : (!b[1] || f[1]) ? 2 :
			     (!b[0] || f[0]) ? 1 : 0;
			break;
		}
		for (i = min(s, ns); i <= max(s, ns); i++)
			if (i != s || ns == s)
				act |= BIT(i);
	}
	for (i = 0; i < r->nr_cntr; i++) {
		u64 ctl = trc[ETE_TRCCNTCTLR_N(i) / 4];
		u16 v = trc[ETE_TRCCNTVR_N(i) / 4];
		bool self = ctl & CNT_SELF, dec, rld, reload;

		dec = em_res_event(r, trc, ctl & 0xff) ||
		      ((i & 1) && (ctl & CNT_CHAIN) && reloaded[i - 1]);
		rld = em_res_event(r, trc, (ctl >> 8) & 0xff);
		if (!v && (!self || (dec && !rld)))
			nzero |= BIT(i);
		reload = rld || (self && dec && !v);
		trc[ETE_TRCCNTVR_N(i) / 4] = reload ?
			trc[ETE_TRCCNTRLDVR_N(i) / 4] & 0xffff :
			(v && dec) ? v - 1 : v;
		reloaded[i] = reload;
	}
	trc[ETE_TRCSEQSTR / 4] = ns;
	*zero = nzero;
	*seq = r->nr_seq ? act : 0;
}

/* An event on group 2 (counters at zero, states) or TRUE/FALSE, or a pair */
static u8 rand_event(struct rnd_state *rnd)
{
	u32 x = prandom_u32_state(rnd);

	if (x & BIT(8))
		return 0;			/* many events unused */
	return x & BIT(9) ? PAIR(1 + x % 4) : x % 10;
}

/*
 * Over random programming of the counters, sequencer and 8 selectors of
 * group 2, em_res_run() in random steps of 1 to 64 cycles (its stretches
 * taken at once) leaves the registers and resources that the pseudocode
 * leaves one cycle at a time, at every step.
 */
static void runs_equal_the_pseudocode_cycle_by_cycle(struct kunit *test)
{
	struct rt *t = rt_new(test), *ref = rt_new(test);
	struct rnd_state rnd;
	unsigned int prog, i, n, c, k;
	u8 zero, seq;

	prandom_seed_state(&rnd, 42);
	for (prog = 0; prog < 200; prog++) {
		memset(t->trc, 0, RT_NREGS * sizeof(u64));
		for (k = 2; k < 10; k++)
			wr(t, ETE_TRCRSCTLR_N(k), RS_CNTSEQ |
			   (prandom_u32_state(&rnd) & 0xff) |
			   (prandom_u32_state(&rnd) & (RS_INV | RS_PAIRINV)));
		for (k = 0; k < 4; k++) {
			u32 x = prandom_u32_state(&rnd);

			wr(t, ETE_TRCCNTVR_N(k), x % 40);
			wr(t, ETE_TRCCNTRLDVR_N(k), (x >> 8) % 40);
			wr(t, ETE_TRCCNTCTLR_N(k), rand_event(&rnd) |
			   rand_event(&rnd) << 8 | (x & (CNT_SELF | CNT_CHAIN)));
		}
		for (k = 0; k < 3; k++)
			wr(t, ETE_TRCSEQEVR_N(k), rand_event(&rnd) |
			   rand_event(&rnd) << 8);
		wr(t, ETE_TRCSEQRSTEVR, prandom_u32_state(&rnd) % 4 ?
		   0 : rand_event(&rnd));
		wr(t, ETE_TRCSEQSTR, prandom_u32_state(&rnd) % 4);
		memcpy(ref->trc, t->trc, RT_NREGS * sizeof(u64));
		start(t);
		em_res_init(&ref->r, ref->trc, RT_IDR4, RT_IDR5);
		for (i = 0; i < 50; i++) {
			n = 1 + prandom_u32_state(&rnd) % 64;
			em_res_run(&t->r, t->trc, n);
			for (c = 0; c < n; c++) {
				ref_cycle(&ref->r, ref->trc, &zero, &seq);
				ref->r.cnt_zero = zero;
				ref->r.seq_active = seq;
			}
			if (memcmp(t->trc, ref->trc, RT_NREGS * sizeof(u64)) ||
			    t->r.cnt_zero != ref->r.cnt_zero ||
			    t->r.seq_active != ref->r.seq_active) {
				KUNIT_FAIL(test,
					   "program %u step %u: state %llu/%llu counters %llu %llu/%llu %llu zero %x/%x states %x/%x",
					   prog, i, rd(t, ETE_TRCSEQSTR),
					   rd(ref, ETE_TRCSEQSTR),
					   rd(t, ETE_TRCCNTVR_N(0)),
					   rd(t, ETE_TRCCNTVR_N(1)),
					   rd(ref, ETE_TRCCNTVR_N(0)),
					   rd(ref, ETE_TRCCNTVR_N(1)),
					   t->r.cnt_zero, ref->r.cnt_zero,
					   t->r.seq_active, ref->r.seq_active);
				return;
			}
		}
	}
}

/*
 * Sampled trace's programming (etecap --sample): counter 0 counts the
 * window in state 1, counter 1 the gap in state 0, each reloading itself;
 * at zero they move the sequencer, whose state 1 is ViewInst's event.
 * Active W+1 or W+2 cycles in every W+G+2 or so: the ratio W/(W+G).
 */
static void strobe_windows_follow_the_counters(struct kunit *test)
{
	const unsigned int w = 100, g = 900;
	struct rt *t = rt_new(test);
	unsigned int i, on = 0, windows = 0, total = 200000;
	bool was = false;

	wr(t, ETE_TRCRSCTLR_N(2), RS_CNTSEQ | BIT(0));		/* ctr 0 at 0 */
	wr(t, ETE_TRCRSCTLR_N(3), RS_CNTSEQ | BIT(1));		/* ctr 1 at 0 */
	wr(t, ETE_TRCRSCTLR_N(4), RS_CNTSEQ | BIT(4 + 1));	/* state 1 */
	wr(t, ETE_TRCRSCTLR_N(5), RS_CNTSEQ | BIT(4 + 0));	/* state 0 */
	wr(t, ETE_TRCCNTVR_N(0), w);
	wr(t, ETE_TRCCNTRLDVR_N(0), w);
	wr(t, ETE_TRCCNTCTLR_N(0), 4 | CNT_SELF);
	wr(t, ETE_TRCCNTVR_N(1), g);
	wr(t, ETE_TRCCNTRLDVR_N(1), g);
	wr(t, ETE_TRCCNTCTLR_N(1), 5 | CNT_SELF);
	wr(t, ETE_TRCSEQEVR_N(0), 3 | 2 << 8);	/* F0: ctr 1; B0: ctr 0 */
	start(t);
	for (i = 0; i < total; i++) {
		bool vi = em_res_event(&t->r, t->trc, 4);

		on += vi;
		windows += vi && !was;
		was = vi;
		em_res_run(&t->r, t->trc, 1);
	}
	KUNIT_EXPECT_GE(test, windows, total / (w + g + 4));
	KUNIT_EXPECT_LE(test, windows, total / (w + g + 2) + 1);
	KUNIT_EXPECT_GE(test, on, windows * (w + 1));
	KUNIT_EXPECT_LE(test, on, windows * (w + 2) + w + 2);
	/* without the forward event the window never opens */
	wr(t, ETE_TRCSEQEVR_N(0), 2 << 8);
	wr(t, ETE_TRCSEQSTR, 0);
	start(t);
	for (i = 0, on = 0; i < 10000; i++) {
		on += em_res_event(&t->r, t->trc, 4);
		em_res_run(&t->r, t->trc, 1);
	}
	KUNIT_EXPECT_EQ(test, on, 0U);
}

static struct kunit_case em_res_cases[] = {
	KUNIT_CASE(rnrsgn_rsxsqt_fixed_selectors),
	KUNIT_CASE(rhvnqg_rwfgmy_or_then_inv),
	KUNIT_CASE(rktnjm_pair_functions),
	KUNIT_CASE(rsbqpn_normal_mode_holds_at_zero),
	KUNIT_CASE(rylyph_self_reload_one_cycle_at_zero),
	KUNIT_CASE(rwpwqd_chain_counts_lower_reloads),
	KUNIT_CASE(rjdpyl_forward_wins_and_steps_through),
	KUNIT_CASE(rkvsxc_reset_overrides),
	KUNIT_CASE(runs_equal_the_pseudocode_cycle_by_cycle),
	KUNIT_CASE(strobe_windows_follow_the_counters),
	{}
};

static struct kunit_suite em_res_suite = {
	.name = "ete_model_resources",
	.test_cases = em_res_cases,
};

kunit_test_suites(&em_res_suite);
