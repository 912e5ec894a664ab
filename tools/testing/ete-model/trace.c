// SPDX-License-Identifier: GPL-2.0
/*
 * From executed blocks to ETE packets (Documentation/model.rst, "Packet
 * rules"; 000 D4.3 to D4.5).  Pure: state lives in struct em_tracer, the
 * configuration in struct em_trace_cfg, output goes to the callbacks.
 *
 * ViewInst is evaluated for every instruction (exception level, include
 * and exclude ranges, start/stop).  A block whose waypoint is traced
 * yields one P0 element: an atom (branches, ERET) or an Exception (SVC).
 * Where the decoder cannot know the next address (trace restarted, an
 * indirect branch whose target is not on the return stack, exception
 * target, ERET) an Address packet precedes the next element, with a
 * Context packet when the exception level changed, and a Trace On packet
 * first when instructions were not traced since the last element.
 */

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "pkt.h"
#include "trace.h"

static bool put(struct em_tracer *t, const struct em_trace_out *out,
		const u8 *pkt, unsigned int len)
{
	if (out->emit(out->priv, pkt, len))
		return true;
	/* lost: the decoder will resynchronize after the Overflow */
	t->on = false;
	t->addr_valid = false;
	t->natoms = 0;
	return false;
}

/* Atoms are packed up to three in a packet; any other packet flushes */
static void flush_atoms(struct em_tracer *t, const struct em_trace_out *out)
{
	u8 pkt[EM_PKT_MAX];
	unsigned int i, n = t->natoms;

	if (!n)
		return;
	t->natoms = 0;
	if (!put(t, out, pkt, em_pkt_atoms(pkt, t->atoms, n)))
		return;
	for (i = 0; i < n; i++)
		out->range(out->priv, t->pend[i].start, t->pend[i].end,
			   t->pend[i].n);
}

static void put_atom(struct em_tracer *t, const struct em_trace_out *out,
		     bool e, u64 start, u64 end, unsigned int n)
{
	if (!e)
		t->atoms &= ~BIT(t->natoms);
	else
		t->atoms |= BIT(t->natoms);
	t->pend[t->natoms].start = start;
	t->pend[t->natoms].end = end;
	t->pend[t->natoms].n = n;
	if (++t->natoms == ARRAY_SIZE(t->pend))
		flush_atoms(t, out);
}

/* Address packet, compressed against the last address output */
static void put_addr(struct em_tracer *t, const struct em_trace_out *out,
		     u64 addr)
{
	u8 pkt[EM_PKT_MAX];
	u64 diff = addr ^ t->last_addr;
	unsigned int len;

	flush_atoms(t, out);
	if (t->addr_valid && !(diff >> 9))
		len = em_pkt_addr_short(pkt, addr, 1);
	else if (t->addr_valid && !(diff >> 17))
		len = em_pkt_addr_short(pkt, addr, 2);
	else if (t->addr_valid && !(diff >> 32))
		len = em_pkt_addr_l32(pkt, addr);
	else
		len = em_pkt_addr_l64(pkt, addr);
	if (put(t, out, pkt, len)) {
		t->last_addr = addr;
		t->addr_valid = true;
	}
}

static void put_context(struct em_tracer *t, const struct em_trace_cfg *cfg,
			const struct em_trace_out *out, u8 el)
{
	struct em_pkt_ctx ctx = {
		.el = el, .sf = true, .ns = true,
		.has_cid = cfg->cid, .cid = cfg->cid_val,
		.has_vmid = cfg->vmid, .vmid = 0,
	};
	u8 pkt[EM_PKT_MAX];

	flush_atoms(t, out);
	if (put(t, out, pkt, em_pkt_context(pkt, &ctx)))
		t->ctx_el = el;
}

static void put_timestamp(struct em_tracer *t, const struct em_trace_cfg *cfg,
			  const struct em_trace_out *out)
{
	u8 pkt[EM_PKT_MAX];

	if (!cfg->ts)
		return;
	flush_atoms(t, out);
	put(t, out, pkt, em_pkt_timestamp(pkt, t->cycles));
	t->ts_blocks = 0;
}

/* A Cycle Count after the element it counts to, past the threshold */
static void put_cycle_count(struct em_tracer *t,
			    const struct em_trace_cfg *cfg,
			    const struct em_trace_out *out)
{
	u64 cc = t->cycles - t->cc_last;
	u8 pkt[EM_PKT_MAX];

	if (!cfg->cci || cc < cfg->cc_threshold)
		return;
	cc = min_t(u64, cc, cfg->cc_threshold + GENMASK(20, 0));
	flush_atoms(t, out);
	if (put(t, out, pkt,
		em_pkt_cycle_count(pkt, cfg->commit_cc, cc - cfg->cc_threshold)))
		t->cc_last = t->cycles;
}

/**
 * em_trace_flush() - output the pending atoms, before an A-Sync
 * @t: the tracer
 * @out: output
 *
 * A decoder that synchronizes at an A-Sync ignores everything up to the
 * Trace Info after it: no element may sit between the two.
 *
 * Context: any.
 */
void em_trace_flush(struct em_tracer *t, const struct em_trace_out *out)
{
	flush_atoms(t, out);
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_flush);

/**
 * em_trace_lost() - the unit overflowed: pending atoms are lost and the
 *	trace restarts with Trace On after the next synchronization
 * @t: the tracer
 *
 * Context: any.
 */
void em_trace_lost(struct em_tracer *t)
{
	t->natoms = 0;
	t->on = false;
	t->addr_valid = false;
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_lost);

/**
 * em_trace_reset() - a trace session starts
 * @t: the tracer
 * @cfg: the configuration
 *
 * Context: any.
 */
void em_trace_reset(struct em_tracer *t, const struct em_trace_cfg *cfg)
{
	memset(t, 0, sizeof(*t));
	t->ctx_el = -1;
	t->ss = cfg->ss_status;
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_reset);

/**
 * em_trace_sync() - Trace Info after an A-Sync the caller output (after
 *	em_trace_flush())
 * @t: the tracer
 * @cfg: the configuration
 * @out: output
 * @periodic: a periodic synchronization (RQHHSY) rather than the first of
 *	a session or the one after an overflow
 *
 * Trace Info resets the address history and the return stack.  After a
 * periodic one the trace goes on: Context and Address say where.  Otherwise
 * the next traced block starts with Trace On.
 *
 * Context: any.
 */
void em_trace_sync(struct em_tracer *t, const struct em_trace_cfg *cfg,
		   const struct em_trace_out *out, bool periodic)
{
	u8 pkt[EM_PKT_MAX];

	flush_atoms(t, out);
	put(t, out, pkt, em_pkt_trace_info(pkt, cfg->cci, cfg->cc_threshold));
	t->addr_valid = false;
	t->nrs = 0;
	t->cc_last = t->cycles;
	if (!periodic) {
		t->on = false;
		t->ctx_el = -1;
	} else if (t->on) {
		put_context(t, cfg, out, t->expect_el);
		put_addr(t, out, t->expect);
		t->need_addr = false;
	}
	put_timestamp(t, cfg, out);
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_sync);

static bool em_in_range(const struct em_trace_cfg *cfg, unsigned int pair,
			u64 addr)
{
	return addr >= cfg->acvr[2 * pair] && addr <= cfg->acvr[2 * pair + 1];
}

static bool em_in_ranges(const struct em_trace_cfg *cfg, u8 pairs, u64 addr)
{
	unsigned long m;

	for (m = pairs; m; m &= m - 1)
		if (em_in_range(cfg, __ffs(m), addr))
			return true;
	return false;
}

/**
 * em_trace_in_view() - ViewInst for one executed instruction
 * @t: the tracer (its start/stop state advances)
 * @cfg: the configuration
 * @addr: the instruction's address
 * @el: its exception level
 *
 * The exception level must be traced and not prohibited; the address
 * inside an include range when any is selected and outside every selected
 * exclude range (an address range comparator pair matches [low, high]);
 * and the start/stop logic started.  The instruction at a start point and
 * the one at a stop point are both traced.
 *
 * Context: any.
 * Return: true if the instruction is traced.
 */
bool em_trace_in_view(struct em_tracer *t, const struct em_trace_cfg *cfg,
		      u64 addr, u8 el)
{
	unsigned long m;
	bool active;

	if (!(cfg->el_traced & BIT(el)))
		return false;
	for (m = cfg->start; m; m &= m - 1)
		if (addr == cfg->acvr[__ffs(m)])
			t->ss = true;
	active = t->ss;
	for (m = cfg->stop; m; m &= m - 1)
		if (addr == cfg->acvr[__ffs(m)])
			t->ss = false;
	if (!active)
		return false;
	if (cfg->include && !em_in_ranges(cfg, cfg->include, addr))
		return false;
	return !em_in_ranges(cfg, cfg->exclude, addr);
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_in_view);

static bool bb_applies(const struct em_trace_cfg *cfg, u64 addr)
{
	if (!cfg->bb)
		return false;
	if (!cfg->bb_ranges)
		return true;
	return em_in_ranges(cfg, cfg->bb_ranges, addr) == cfg->bb_include;
}

static void rs_push(struct em_tracer *t, u64 addr)
{
	if (t->nrs == EM_TRACE_RS_DEPTH) {
		memmove(t->rs, t->rs + 1, sizeof(t->rs[0]) * (t->nrs - 1));
		t->nrs--;
	}
	t->rs[t->nrs++] = addr;
}

/**
 * em_trace_block() - trace one executed block
 * @t: the tracer
 * @cfg: the configuration
 * @out: output
 * @b: the block
 *
 * Context: any.
 */
void em_trace_block(struct em_tracer *t, const struct em_trace_cfg *cfg,
		    const struct em_trace_out *out, const struct em_block *b)
{
	u8 pkt[EM_PKT_MAX];
	int first = -1;
	unsigned int i = 0, n;
	u64 start, wp = b->end - 4;

	t->cycles += b->n;
	if (!(cfg->include | cfg->exclude | cfg->start | cfg->stop)) {
		/* no address filter: ViewInst is the exception level's */
		if (cfg->el_traced & BIT(b->el) && t->ss)
			first = 0;
		else
			t->on = false;
		i = b->n;
	}
	for (; i < b->n; i++) {
		if (em_trace_in_view(t, cfg, b->start + 4 * i, b->el)) {
			if (first < 0)
				first = i;
		} else {
			t->on = false;	/* a discontinuity: Trace On later */
			first = -1;
		}
	}
	if (first < 0)
		return;		/* the waypoint is not traced */
	start = b->start + 4 * first;
	n = b->n - first;

	if (!t->on) {
		flush_atoms(t, out);
		if (put(t, out, pkt, em_pkt_trace_on(pkt))) {
			t->on = true;
			t->nrs = 0;	/* Trace On flushes the return stack */
			put_context(t, cfg, out, b->el);
			put_addr(t, out, start);
		}
		t->need_addr = false;
	} else if (t->need_addr || t->ctx_el != b->el) {
		if (t->ctx_el != b->el)
			put_context(t, cfg, out, b->el);
		put_addr(t, out, start);
		t->need_addr = false;
	}
	if (!t->on)
		return;		/* lost on the way */

	switch (b->kind) {
	case EM_WP_DIRECT:
		put_atom(t, out, b->taken, start, b->end, n);
		if (cfg->rs && b->link && b->taken)
			rs_push(t, b->end);
		if (b->taken && bb_applies(cfg, wp))
			put_addr(t, out, b->next);
		break;
	case EM_WP_INDIRECT:
		put_atom(t, out, true, start, b->end, n);
		if (cfg->rs && b->link)
			rs_push(t, b->end);
		if (cfg->rs && t->nrs && t->rs[t->nrs - 1] == b->next)
			t->nrs--;	/* the decoder pops it: no address */
		else
			t->need_addr = true;
		break;
	case EM_WP_ERET:
		put_atom(t, out, true, start, b->end, n);
		t->need_addr = true;
		break;
	case EM_WP_EXCEPTION:
		flush_atoms(t, out);
		if (!put(t, out, pkt, em_pkt_exception(pkt, EM_EXC_CALL)))
			return;
		put_addr(t, out, b->end);	/* preferred return address */
		if (t->on)
			out->range(out->priv, start, b->end, n);
		t->need_addr = true;
		break;
	}
	t->expect = b->next;
	t->expect_el = b->next_el;
	put_cycle_count(t, cfg, out);
	if (++t->ts_blocks >= EM_TRACE_TS_EVERY)
		put_timestamp(t, cfg, out);
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_block);
