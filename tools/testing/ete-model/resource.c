// SPDX-License-Identifier: GPL-2.0
/*
 * The trace unit's resources, clocked by the PE's cycles: resource
 * selectors and pairs (RWZVDQ, RHVNQG, RWFGMY, RKTNJM), the counters
 * (EvalCounter(): INCCBM, RKXLKC, RDDCDK, RSBQPN, RYLYPH, RWPWQD) and the
 * sequencer (RJDPYL, RKVSXC, RHQBBF, RNPVRQ, RHQHFT).
 *
 * The resource event bus is registered: the events of a cycle (a
 * counter's CNTEVENT and RLDEVENT, the sequencer's transition events, and
 * ViewInst's event between cycles) see the counter-at-zero and
 * sequencer-state resources as the previous cycle left them.  The context
 * ID and VMID comparators are combinational, on the context the PE runs.
 * Resources the model does not implement (external inputs, PE comparator
 * inputs, single-shot and address comparators as resources) are LOW
 * (model.rst, "What it cannot do").
 *
 * The model's PE runs one instruction per cycle; em_res_run() is called
 * with the instructions of each block it executes outside a prohibited
 * region (RFHFMP: resources do not count while Paused).  Only the
 * counters and sequencer the unit looks at run (@cntr_used, @seq_used,
 * which the generator narrows to what the event selectors reference): a
 * counter nothing references cannot change the trace, and one left at
 * its UNKNOWN reset value would cost the model for nothing.
 */

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <kunit/visibility.h>

#include <ete/regs.h>

#include "resource.h"

#define EM_RS_SELECT		GENMASK(15, 0)
#define EM_RS_GROUP		GENMASK(19, 16)
#define EM_RS_INV		BIT(20)
#define EM_RS_PAIRINV		BIT(21)
#define EM_EV_TYPE		BIT(7)	/* 1: a pair */
#define EM_EV_SEL		GENMASK(4, 0)
#define EM_CNT_CNTEVENT		GENMASK(7, 0)
#define EM_CNT_RLDEVENT		GENMASK(15, 8)
#define EM_CNT_RLDSELF		BIT(16)
#define EM_CNT_CHAIN		BIT(17)
#define EM_SEQ_F		GENMASK(7, 0)
#define EM_SEQ_B		GENMASK(15, 8)

#define EM_RES_GROUP_CNTSEQ	2
#define EM_RES_GROUP_CID	6
#define EM_RES_GROUP_VMID	7

static u64 reg(const u64 *trc, u32 off)
{
	return trc[off / 4];
}

/**
 * em_res_init() - the resource outputs of a unit about to run
 * @r: the bus
 * @trc: the unit's registers
 * @idr4: TRCIDR4 (NUMRSPAIR)
 * @idr5: TRCIDR5 (NUMCNTR, NUMSEQSTATE)
 *
 * RVNGFG, RTQWHX: running keeps every resource's state, and the
 * sequencer starts from TRCSEQSTR.STATE.  A counter at zero in normal
 * mode is active from the start (RSBQPN); in self-reload mode only when
 * it reloads (RYLYPH).
 *
 * Context: any.
 */
void em_res_init(struct em_res *r, const u64 *trc, u32 idr4, u32 idr5)
{
	unsigned int n;

	r->nr_cntr = min_t(u32, FIELD_GET(GENMASK(30, 28), idr5),
			   EM_RES_NR_CNTR);
	r->nr_seq = FIELD_GET(GENMASK(27, 25), idr5) == EM_RES_NR_SEQ ?
		    EM_RES_NR_SEQ : 0;
	r->nr_sel = 2 * (FIELD_GET(GENMASK(19, 16), idr4) + 1);
	r->cntr_used = GENMASK(r->nr_cntr, 0) >> 1;
	r->seq_used = r->nr_seq;
	r->cnt_zero = 0;
	for (n = 0; n < r->nr_cntr; n++)
		if (!(reg(trc, ETE_TRCCNTVR_N(n)) & 0xffff) &&
		    !(reg(trc, ETE_TRCCNTCTLR_N(n)) & EM_CNT_RLDSELF))
			r->cnt_zero |= BIT(n);
	r->seq_active = r->nr_seq ? BIT(reg(trc, ETE_TRCSEQSTR) & 3) : 0;
	r->cycles = 0;
}
EXPORT_SYMBOL_IF_KUNIT(em_res_init);

/* CIDCOMP/VMIDCOMP[k]: the bytes not masked equal (G.14a, G.14b) */
static bool em_res_ctx(const u64 *trc, bool vmid, unsigned int k, u32 ctx)
{
	u32 ctl = reg(trc, vmid ? (k < 4 ? ETE_TRCVMIDCCTLR0 : ETE_TRCVMIDCCTLR1) :
				  (k < 4 ? ETE_TRCCIDCCTLR0 : ETE_TRCCIDCCTLR1));
	u64 cv = reg(trc, vmid ? ETE_TRCVMIDCVR_N(k) : ETE_TRCCIDCVR_N(k));
	u8 mask = ctl >> (8 * (k % 4));
	unsigned int b;

	for (b = 0; b < 4; b++)
		if (!(mask & BIT(b)) && ((cv ^ ctx) >> (8 * b) & 0xff))
			return false;
	return true;
}

/**
 * em_res_selector() - the output of resource selector @n
 * @r: the bus
 * @trc: the unit's registers
 * @n: the selector
 *
 * RNRSGN: selector 0 is FALSE; RSXSQT: selector 1 is TRUE.  Otherwise the
 * OR of the resources TRCRSCTLR<n>.SELECT picks in its GROUP (RWZVDQ,
 * RHVNQG), inverted by INV (RWFGMY).  A selector the unit does not
 * implement is FALSE.
 *
 * Context: any.
 * Return: the selector's output.
 */
bool em_res_selector(const struct em_res *r, const u64 *trc, unsigned int n)
{
	u64 rs;
	u32 sel;
	bool any = false;
	unsigned int k;

	if (n < 2)
		return n == 1;
	if (n >= r->nr_sel)
		return false;
	rs = reg(trc, ETE_TRCRSCTLR_N(n));
	sel = FIELD_GET(EM_RS_SELECT, rs);
	switch (FIELD_GET(EM_RS_GROUP, rs)) {
	case EM_RES_GROUP_CNTSEQ:
		any = (sel & r->cnt_zero & 0xf) || ((sel >> 4) & r->seq_active);
		break;
	case EM_RES_GROUP_CID:
	case EM_RES_GROUP_VMID:
		for (k = 0; k < 8 && !any; k++) {
			bool vmid = FIELD_GET(EM_RS_GROUP, rs) == EM_RES_GROUP_VMID;

			any = (sel & BIT(k)) &&
			      em_res_ctx(trc, vmid, k, vmid ? r->vmid : r->cid);
		}
		break;
	default:
		break;		/* not implemented: LOW */
	}
	return any != !!(rs & EM_RS_INV);
}
EXPORT_SYMBOL_IF_KUNIT(em_res_selector);

/**
 * em_res_event() - whether an event selector's event is active
 * @r: the bus
 * @trc: the unit's registers
 * @ev: the event field (TYPE at bit 7, SEL below)
 *
 * TYPE 0: selector SEL; TYPE 1: pair SEL, (A AND B) XOR PAIRINV of its
 * lower register (RKTNJM, Table D4-27).
 *
 * Context: any.
 * Return: true when the event is active.
 */
bool em_res_event(const struct em_res *r, const u64 *trc, u8 ev)
{
	unsigned int p = FIELD_GET(EM_EV_SEL, ev);
	bool ab;

	if (!(ev & EM_EV_TYPE))
		return em_res_selector(r, trc, p);
	p &= 0xf;
	if (2 * p + 1 >= r->nr_sel)
		return false;
	ab = em_res_selector(r, trc, 2 * p) && em_res_selector(r, trc, 2 * p + 1);
	if (p && (reg(trc, ETE_TRCRSCTLR_N(2 * p)) & EM_RS_PAIRINV))
		ab = !ab;
	return ab;
}
EXPORT_SYMBOL_IF_KUNIT(em_res_event);

/**
 * em_res_static() - whether no counter or sequencer state can change
 * @r: the bus
 * @trc: the unit's registers
 *
 * Every counter's CNTEVENT and RLDEVENT and every sequencer event is the
 * FALSE selector 0, the reset value a driver that uses none leaves: the
 * counters and the sequencer hold, and running them costs nothing.
 *
 * Context: any.
 * Return: true when em_res_run() would change nothing.
 */
bool em_res_static(const struct em_res *r, const u64 *trc)
{
	unsigned int n;

	for (n = 0; n < r->nr_cntr; n++)
		if ((r->cntr_used & BIT(n)) &&
		    (reg(trc, ETE_TRCCNTCTLR_N(n)) &
		     (EM_CNT_CNTEVENT | EM_CNT_RLDEVENT | EM_CNT_CHAIN)))
			return false;
	if (!r->nr_seq || !r->seq_used)
		return true;
	for (n = 0; n < EM_RES_NR_SEQ - 1; n++)
		if (reg(trc, ETE_TRCSEQEVR_N(n)) & (EM_SEQ_F | EM_SEQ_B))
			return false;
	return !(reg(trc, ETE_TRCSEQRSTEVR) & 0xff);
}
EXPORT_SYMBOL_IF_KUNIT(em_res_static);

/* EvalCounter() for every counter, lower before upper (chaining, RWPWQD) */
static u8 em_res_counters(const struct em_res *r, u64 *trc)
{
	bool reloaded[EM_RES_NR_CNTR] = { };
	unsigned int n;
	u8 zero = 0;

	for (n = 0; n < r->nr_cntr; n++) {
		u64 ctl = reg(trc, ETE_TRCCNTCTLR_N(n));
		u64 *val = &trc[ETE_TRCCNTVR_N(n) / 4];
		u16 v = *val & 0xffff;
		bool self = ctl & EM_CNT_RLDSELF;
		bool dec, rld, reload;

		if (!(r->cntr_used & BIT(n))) {
			zero |= r->cnt_zero & BIT(n);	/* holds */
			continue;
		}

		dec = em_res_event(r, trc, FIELD_GET(EM_CNT_CNTEVENT, ctl)) ||
		      ((n & 1) && (ctl & EM_CNT_CHAIN) && reloaded[n - 1]);
		rld = em_res_event(r, trc, FIELD_GET(EM_CNT_RLDEVENT, ctl));
		/* RSBQPN, RYLYPH: the counter-at-zero resource */
		if (!v && (!self || (dec && !rld)))
			zero |= BIT(n);
		/* RDDCDK: a reload takes priority over a decrement */
		reload = rld || (self && dec && !v);
		if (reload)
			*val = reg(trc, ETE_TRCCNTRLDVR_N(n)) & 0xffff;
		else if (v && dec)		/* RKXLKC */
			*val = v - 1;
		reloaded[n] = reload;
	}
	return zero;
}

/*
 * RJDPYL: forward transitions win (RNPVRQ) and may advance several
 * states in one cycle (IQNFJZ); else backward ones, each taken only when
 * the forward event into the state it leaves is inactive.  RHQHFT: the
 * states passed through are active in this cycle too.  RKVSXC, RHQBBF: a
 * reset overrides all and ends the cycle in state 0, no other active.
 */
static u8 em_res_sequencer(const struct em_res *r, u64 *trc)
{
	unsigned int s, t, k;
	bool f[3], b[3];
	u8 act = 0;

	if (!r->nr_seq)
		return 0;
	s = reg(trc, ETE_TRCSEQSTR) & 3;
	if (!r->seq_used)
		return r->seq_active;	/* holds */
	if (em_res_event(r, trc, reg(trc, ETE_TRCSEQRSTEVR) & 0xff)) {
		trc[ETE_TRCSEQSTR / 4] = 0;
		return BIT(0);
	}
	for (k = 0; k < 3; k++) {
		u64 ev = reg(trc, ETE_TRCSEQEVR_N(k));

		f[k] = em_res_event(r, trc, FIELD_GET(EM_SEQ_F, ev));
		b[k] = em_res_event(r, trc, FIELD_GET(EM_SEQ_B, ev));
	}
	t = s;
	while (t < 3 && f[t])
		act |= BIT(++t);
	if (t == s)
		while (t > 0 && b[t - 1] && !f[t - 1])
			act |= BIT(--t);
	trc[ETE_TRCSEQSTR / 4] = t;
	return act ?: BIT(s);
}

/*
 * Cycles that change nothing but the values of counters counting down:
 * no reset, transition or reload in sight, and the resources this cycle
 * would output are those of the last.  Then the next min(v) cycles are
 * the same but for the decrements, which are taken at once.  0 when the
 * next cycle must be run on its own.
 */
static unsigned int em_res_steady(struct em_res *r, u64 *trc,
				  unsigned int cycles)
{
	unsigned int n, k = cycles, s = reg(trc, ETE_TRCSEQSTR) & 3;
	bool dec[EM_RES_NR_CNTR];
	u8 zero = 0;

	if (r->nr_seq && r->seq_used) {
		u64 ev = s < 3 ? reg(trc, ETE_TRCSEQEVR_N(s)) : 0;
		u64 back = s ? reg(trc, ETE_TRCSEQEVR_N(s - 1)) : 0;

		if (r->seq_active != BIT(s) ||
		    em_res_event(r, trc, reg(trc, ETE_TRCSEQRSTEVR) & 0xff) ||
		    (s < 3 && em_res_event(r, trc, FIELD_GET(EM_SEQ_F, ev))) ||
		    (s && em_res_event(r, trc, FIELD_GET(EM_SEQ_B, back)) &&
		     !em_res_event(r, trc, FIELD_GET(EM_SEQ_F, back))))
			return 0;
	}
	for (n = 0; n < r->nr_cntr; n++) {
		u64 ctl = reg(trc, ETE_TRCCNTCTLR_N(n));
		u16 v = reg(trc, ETE_TRCCNTVR_N(n)) & 0xffff;
		bool self = ctl & EM_CNT_RLDSELF;

		dec[n] = false;
		if (!(r->cntr_used & BIT(n))) {
			zero |= r->cnt_zero & BIT(n);
			continue;
		}
		/* chaining counts a reload of the lower counter: none here */
		dec[n] = em_res_event(r, trc, FIELD_GET(EM_CNT_CNTEVENT, ctl));
		if (em_res_event(r, trc, FIELD_GET(EM_CNT_RLDEVENT, ctl)) ||
		    (self && dec[n] && !v))
			return 0;
		if (!v && !self)
			zero |= BIT(n);
		if (dec[n] && v)
			k = min_t(unsigned int, k, v);
	}
	if (zero != r->cnt_zero)
		return 0;
	for (n = 0; n < r->nr_cntr; n++)
		if (dec[n] && (trc[ETE_TRCCNTVR_N(n) / 4] & 0xffff))
			trc[ETE_TRCCNTVR_N(n) / 4] -= k;
	return k;
}

/**
 * em_res_run() - run the resources for @cycles cycles
 * @r: the bus
 * @trc: the unit's registers: the counters' values and the sequencer's
 *	state change (indirect writes, RLFVYH, RVDTDP)
 * @cycles: PE cycles
 *
 * Each cycle's events see the previous cycle's resources; the counters
 * and the sequencer then update together.  Stretches in which only
 * counters count down are taken in one step (em_res_steady()), so that
 * the cost is per change of a resource, not per cycle.
 *
 * Context: any.
 */
void em_res_run(struct em_res *r, u64 *trc, unsigned int cycles)
{
	r->cycles += cycles;
	if (em_res_static(r, trc))
		return;
	while (cycles) {
		unsigned int k = em_res_steady(r, trc, cycles);
		u8 seq;

		if (k) {
			cycles -= k;
			continue;
		}
		seq = em_res_sequencer(r, trc);
		r->cnt_zero = em_res_counters(r, trc);
		r->seq_active = seq;
		cycles--;
	}
}
EXPORT_SYMBOL_IF_KUNIT(em_res_run);
