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
 *
 * With TRCCONFIGR.QE, every EM_TRACE_Q_EVERY-th block that a Q element may
 * imply begins a Q element that implies it and the next few such blocks
 * (their number cycles through 2, 3, 1, 4): one Q packet with the count of
 * their instructions and the Target Address where execution goes on, in
 * place of their atoms and addresses (Documentation/model.rst, "Q
 * elements").
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
static bool put_addr(struct em_tracer *t, const struct em_trace_out *out,
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
	if (!put(t, out, pkt, len))
		return false;
	t->last_addr = addr;
	t->addr_valid = true;
	return true;
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
	put(t, out, pkt, em_pkt_timestamp(pkt, cfg->ts_base + t->cycles));
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

/*
 * The pending Q element's packets (000 D4.5.10.5): after the pending atoms,
 * which are older, one Q packet with the count of the instructions it
 * implies (TRCCONFIGR.QE 0b01 allows no other form) and the Target Address
 * where execution goes on, @t->expect: the target of its last instruction,
 * a branch (RWHLPS, RMNWCK).  The address goes in the Q packet, compressed
 * like an Address packet, or, when only a 64-bit address would do, in an
 * Address packet after it.  A decoder can tell the path of a Q element of
 * one block (its instructions are sequential up to the branch), of no
 * longer one.
 */
static void q_end(struct em_tracer *t, const struct em_trace_out *out)
{
	struct em_trace_q *q = &t->q;
	u64 next = t->expect, diff = next ^ t->last_addr;
	unsigned int len, blocks = q->blocks;
	bool ok, sep = false;
	u8 pkt[EM_PKT_MAX];

	if (!blocks)
		return;
	q->blocks = 0;
	flush_atoms(t, out);
	if (t->addr_valid && !(diff >> 9)) {
		len = em_pkt_q_short(pkt, q->n, next, 1);
	} else if (t->addr_valid && !(diff >> 17)) {
		len = em_pkt_q_short(pkt, q->n, next, 2);
	} else if (t->addr_valid && !(diff >> 32)) {
		len = em_pkt_q_l32(pkt, q->n, next);
	} else {
		len = em_pkt_q(pkt, q->n);
		sep = true;
	}
	ok = put(t, out, pkt, len);
	if (ok && sep)
		ok = put_addr(t, out, next);
	if (!ok)
		return;		/* lost: Trace On after the recovery */
	t->last_addr = next;
	t->addr_valid = true;
	t->need_addr = false;
	if (blocks == 1)
		out->range(out->priv, q->start, q->end, q->n);
	else
		out->nopath(out->priv, q->start, next, q->n);
}

/**
 * em_trace_flush() - output the pending Q element and atoms, before an
 *	A-Sync
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
	q_end(t, out);
	flush_atoms(t, out);
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_flush);

/**
 * em_trace_lost() - the unit overflowed: the pending atoms and Q element
 *	are lost and the trace restarts with Trace On after the next
 *	synchronization
 * @t: the tracer
 *
 * Context: any.
 */
void em_trace_lost(struct em_tracer *t)
{
	t->natoms = 0;
	t->q.blocks = 0;
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

	em_trace_flush(t, out);
	put(t, out, pkt, em_pkt_trace_info(pkt, cfg->cci, cfg->cc_threshold));
	t->addr_valid = false;
	t->nrs = 0;
	t->rs_popped = false;
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

/*
 * RRBPJF, RNQSLS: a block may be implied by a Q element if TRCQCTLR
 * permits one of its instructions.  The model keeps Q elements to blocks
 * that end in a branch outside branch broadcasting: an exception or an
 * ERET ends a Q element (RJBYXC, RKPNGG) and is traced with its own
 * elements.
 */
static bool q_permitted(const struct em_trace_cfg *cfg,
			const struct em_block *b)
{
	unsigned int i;

	if (!cfg->qe || (b->kind != EM_WP_DIRECT && b->kind != EM_WP_INDIRECT) ||
	    bb_applies(cfg, b->end - 4))
		return false;
	if (!cfg->q_ranges)
		return !cfg->q_include;
	for (i = 0; i < b->n; i++)
		if (em_in_ranges(cfg, cfg->q_ranges, b->start + 4 * i) ==
		    cfg->q_include)
			return true;
	return false;
}

/*
 * Add the block to the pending Q element, or begin one if it is time.  Not
 * right after a return stack match: OpenCSD 1.3.3 pops the stack only for
 * the next atom or exception, so it would start the Q element at the
 * address after the return and pop at the next atom instead.
 */
static bool q_take(struct em_tracer *t, const struct em_block *b)
{
	static const u8 lens[] = { 2, 3, 1, 4 };
	struct em_trace_q *q = &t->q;

	if (!q->blocks) {
		if (++q->tick < EM_TRACE_Q_EVERY || t->rs_popped)
			return false;
		q->tick = 0;
		q->len = lens[q->runs++ % ARRAY_SIZE(lens)];
		q->start = b->start;
		q->end = b->end;
		q->n = 0;
	}
	q->blocks++;
	q->n += b->n;
	return true;
}

/* The P0 element of a traced block and what follows it */
static bool trace_waypoint(struct em_tracer *t, const struct em_trace_cfg *cfg,
			   const struct em_trace_out *out,
			   const struct em_block *b, u64 start, unsigned int n)
{
	u8 pkt[EM_PKT_MAX];

	t->rs_popped = false;
	switch (b->kind) {
	case EM_WP_DIRECT:
		put_atom(t, out, b->taken, start, b->end, n);
		if (cfg->rs && b->link && b->taken)
			rs_push(t, b->end);
		if (b->taken && bb_applies(cfg, b->end - 4))
			put_addr(t, out, b->next);
		break;
	case EM_WP_INDIRECT:
		put_atom(t, out, true, start, b->end, n);
		if (cfg->rs && b->link)
			rs_push(t, b->end);
		if (cfg->rs && t->nrs && t->rs[t->nrs - 1] == b->next) {
			t->nrs--;	/* the decoder pops it: no address */
			t->rs_popped = true;
		} else {
			t->need_addr = true;
		}
		break;
	case EM_WP_ERET:
		put_atom(t, out, true, start, b->end, n);
		t->need_addr = true;
		break;
	case EM_WP_EXCEPTION:
		flush_atoms(t, out);
		if (!put(t, out, pkt, em_pkt_exception(pkt, EM_EXC_CALL)))
			return false;
		put_addr(t, out, b->end);	/* preferred return address */
		if (t->on)
			out->range(out->priv, start, b->end, n);
		t->need_addr = true;
		break;
	}
	return true;
}

/* Trace On, Context and Address as the decoder needs them before a block */
static void trace_resume(struct em_tracer *t, const struct em_trace_cfg *cfg,
			 const struct em_trace_out *out,
			 const struct em_block *b, u64 start)
{
	u8 pkt[EM_PKT_MAX];

	if (!t->on) {
		flush_atoms(t, out);
		if (put(t, out, pkt, em_pkt_trace_on(pkt))) {
			t->on = true;
			t->nrs = 0;	/* Trace On flushes the return stack */
			t->rs_popped = false;
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
}

/* ViewInst's filters over a block: the first of its traced tail, or -1 */
static int trace_filters(struct em_tracer *t, const struct em_trace_cfg *cfg,
			 const struct em_block *b)
{
	int first = -1;
	unsigned int i;

	if (!(cfg->include | cfg->exclude | cfg->start | cfg->stop)) {
		/* no address filter: ViewInst is the exception level's */
		if (cfg->el_traced & BIT(b->el) && t->ss)
			return 0;
		t->on = false;
		return -1;
	}
	for (i = 0; i < b->n; i++) {
		if (em_trace_in_view(t, cfg, b->start + 4 * i, b->el)) {
			if (first < 0)
				first = i;
		} else {
			t->on = false;	/* a discontinuity: Trace On later */
			first = -1;
		}
	}
	return first;
}

/*
 * ViewInst over a block: its event (the resources, at block granularity)
 * and its filters; the start/stop logic runs whatever the event
 */
static int trace_view(struct em_tracer *t, const struct em_trace_cfg *cfg,
		      const struct em_block *b)
{
	int first = trace_filters(t, cfg, b);

	if (first >= 0 && t->ev_off) {
		t->on = false;	/* a discontinuity: Trace On later */
		return -1;
	}
	return first;
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
	int first;
	bool qable;
	u64 start;

	t->cycles += b->n;
	first = trace_view(t, cfg, b);
	/* a Q element implies whole traced blocks of one context */
	qable = !first && q_permitted(cfg, b);
	if (t->q.blocks && !(qable && t->on && b->el == t->ctx_el))
		q_end(t, out);
	if (first < 0)
		return;		/* the waypoint is not traced */
	start = b->start + 4 * first;

	trace_resume(t, cfg, out, b, start);
	if (!t->on)
		return;		/* lost on the way */
	if (qable && q_take(t, b)) {
		/* RGVLKJ, RWBCJG: no return stack push or pop */
		t->expect = b->next;
		t->expect_el = b->next_el;
		if (t->q.blocks < t->q.len) {
			t->ts_blocks++;
			return;	/* its packets when it is complete */
		}
		q_end(t, out);
	} else {
		if (!trace_waypoint(t, cfg, out, b, start, b->n - first))
			return;
		t->expect = b->next;
		t->expect_el = b->next_el;
	}
	put_cycle_count(t, cfg, out);
	if (++t->ts_blocks >= EM_TRACE_TS_EVERY)
		put_timestamp(t, cfg, out);
}
EXPORT_SYMBOL_IF_KUNIT(em_trace_block);
