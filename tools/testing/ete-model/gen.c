// SPDX-License-Identifier: GPL-2.0
/*
 * Trace generation: while the unit is Running and ViewInst's event is
 * TRUE, walk the program (prog.c) and turn every executed block into ETE
 * packets (trace.c), with the A-Sync and Trace Info of the first and every
 * periodic synchronization per TRCSYNCPR; or, in replay mode, output a
 * given byte stream unchanged.  Bytes go through the unit's internal
 * buffer (the FIFO) to the TRBE; when the FIFO cannot take a packet the
 * unit overflows (RLDDLP) and later emits an Overflow packet followed by a
 * synchronization (RDQBDH).  The ground truth of the session (truth.c)
 * follows every packet that was output.  Called with the unit's lock held.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <kunit/visibility.h>
#include <asm/arch_timer.h>
#include <asm/virt.h>

#include "model.h"
#include "pkt.h"

static unsigned int em_seed = 1;
module_param_named(seed, em_seed, uint, 0644);
MODULE_PARM_DESC(seed, "seed of the program walk (per CPU: seed + cpu)");

static unsigned int em_truth_records = 131072;
module_param_named(truth_records, em_truth_records, uint, 0444);
MODULE_PARM_DESC(truth_records, "ground-truth records kept per CPU");

static unsigned int em_kernel_el(void)
{
	return is_kernel_in_hyp_mode() ? 2 : 1;
}

/* Stream offset: bytes output this session less those the TRBE discarded */
static u64 em_gen_offset(const struct em_unit *u)
{
	return u->gen.emitted - (u->bytes_dropped - u->gen.dropped0);
}

static void em_fifo_out(struct em_unit *u, unsigned int max)
{
	unsigned long dropped = u->bytes_dropped;
	u64 off = em_gen_offset(u) - u->fifo_len;
	unsigned int n;

	n = min(max, u->fifo_len);
	if (!n)
		return;
	em_trbe_output(u, u->fifo, n);
	memmove(u->fifo, u->fifo + n, u->fifo_len - n);
	u->fifo_len -= n;
	if (u->bytes_dropped != dropped && u->gen.truth.rec && !u->gen.replay)
		em_truth_gap(&u->gen.truth, off, u->bytes_dropped - dropped);
}

/**
 * em_fifo_drain() - move bytes from the internal buffer to the TRBE
 * @u: the unit
 * @max: at most this many (the slow-drain fault makes it one)
 *
 * The last @u->fifo_hold bytes stay: during a timer tick, what the unit
 * made last is still on its way (the next tick, a flush or the disable
 * moves it), so trace reaches the TRBE at once only through a flush
 * (RJLRQH, RRFJQN).
 *
 * Context: the unit's lock held.
 */
void em_fifo_drain(struct em_unit *u, unsigned int max)
{
	unsigned int keep = min(u->fifo_hold, u->fifo_len);

	if (u->fault == EM_FAULT_SLOW_DRAIN)
		max = 1;
	em_fifo_out(u, min(max, u->fifo_len - keep));
}

/**
 * em_fifo_flush() - a trace unit flush: everything to the TRBE
 * @u: the unit
 *
 * RRFJQN: the trace synchronization event of a TSB CSYNC completes only
 * once all trace the unit made is flushed to the TRBE, however slowly
 * the buffer drains otherwise.
 *
 * Context: the unit's lock held.
 */
void em_fifo_flush(struct em_unit *u)
{
	em_fifo_out(u, u->fifo_len);
	em_gen_overflow_out(u);
}

/**
 * em_gen_overflow_out() - output an Overflow element the unit still owes
 * @u: the unit
 *
 * RRPSPH: a unit disabled during overflow outputs the Overflow element
 * before it becomes Idle; RTWBVY: a flush during overflow outputs it
 * before the flush completes.  Whatever the unit made before the overflow
 * goes first (RHRYKY); trace made afterwards starts with a synchronization
 * (RDQBDH), as after a recovery in the generator.
 *
 * Context: the unit's lock held.
 */
void em_gen_overflow_out(struct em_unit *u)
{
	u8 pkt[2];

	if (!u->overflow)
		return;
	em_fifo_out(u, u->fifo_len);
	u->overflow = false;
	em_trace_lost(&u->gen.tr);
	em_fifo_push(u, pkt, em_pkt_overflow(pkt));
	em_fifo_out(u, u->fifo_len);
	u->gen.need_sync = true;
}

/**
 * em_fifo_push() - queue one packet in the internal buffer
 * @u: the unit
 * @buf: the packet
 * @len: its length
 *
 * A packet that does not fit even after draining is lost and the unit is
 * in overflow (RLDDLP); only complete packets are ever output (RRQHFH).
 *
 * Context: the unit's lock held.
 * Return: true if the packet was queued.
 */
bool em_fifo_push(struct em_unit *u, const u8 *buf, unsigned int len)
{
	if (u->overflow)
		return false;
	if (u->fifo_len + len > EM_FIFO_SIZE)
		em_fifo_drain(u, EM_FIFO_SIZE);
	if (u->fifo_len + len > EM_FIFO_SIZE) {
		u->overflow = true;
		return false;
	}
	memcpy(u->fifo + u->fifo_len, buf, len);
	u->fifo_len += len;
	u->gen.since_sync += len;
	u->gen.emitted += len;
	return true;
}

static bool em_gen_emit(void *priv, const u8 *pkt, unsigned int len)
{
	struct em_unit *u = priv;

	u->gen.pkt_off = em_gen_offset(u);
	return em_fifo_push(u, pkt, len);
}

static void em_gen_range(void *priv, u64 start, u64 end, unsigned int n)
{
	struct em_unit *u = priv;

	if (u->gen.truth.rec)
		em_truth_range(&u->gen.truth, u->gen.pkt_off, start, end, n);
}

static void em_gen_nopath(void *priv, u64 start, u64 next, unsigned int n)
{
	struct em_unit *u = priv;

	if (u->gen.truth.rec)
		em_truth_nopath(&u->gen.truth, u->gen.pkt_off, start, next, n);
}

/* The exception levels traced: TRCVICTLR.EXLEVEL_NS and TRFCR (ITHCBC, RFFVYM) */
static u8 em_gen_el_traced(const struct em_unit *u)
{
	u64 vi = u->trc[ETE_TRCVICTLR / 4];
	unsigned int kel = em_kernel_el();
	u8 els = 0;

	if (!(vi & BIT(20)) && (u->trfcr_eff & EM_TRFCR_E0TRE))
		els |= BIT(0);
	if (!(vi & BIT(20 + kel)) && (u->trfcr_eff & EM_TRFCR_ExTRE))
		els |= BIT(kel);
	return els;
}

/* What the driver programmed, as the tracer needs it */
static void em_gen_config(struct em_unit *u, struct em_trace_cfg *c)
{
	const struct em_profile *p = u->prof;
	u64 cfg = u->trc[ETE_TRCCONFIGR / 4];
	u64 bb = u->trc[ETE_TRCBBCTLR / 4];
	unsigned int i, nac = 2 * FIELD_GET(EM_IDR4_NUMACPAIRS, p->idr[4]);

	memset(c, 0, sizeof(*c));
	c->el_traced = em_gen_el_traced(u);
	c->ss_status = u->trc[ETE_TRCVICTLR / 4] & EM_VICTLR_SSSTATUS;
	if (nac) {
		u64 iie = u->trc[ETE_TRCVIIECTLR / 4];
		u64 ss = u->trc[ETE_TRCVISSCTLR / 4];

		c->include = iie & 0xff;
		c->exclude = (iie >> 16) & 0xff;
		c->start = ss & 0xffff;
		c->stop = ss >> 16;
		for (i = 0; i < min_t(unsigned int, nac, EM_TRACE_NR_AC); i++)
			c->acvr[i] = u->trc[ETE_TRCACVR_N(i) / 4];
	}
	c->cci = cfg & EM_CONFIGR_CCI;
	c->cc_threshold = u->trc[ETE_TRCCCCTLR / 4] & EM_IDR3_CCITMIN;
	c->commit_cc = !(p->idr[0] & EM_IDR0_COMMOPT);
	c->ts = cfg & EM_CONFIGR_TS;
	/*
	 * The driver selects the virtual counter (TRFCR_ELx.TS): timestamps
	 * are its value, never 0 on a running system, comparable across CPUs
	 * and with what user space reads of it (perf's TIME_CONV).
	 */
	if (c->ts)
		c->ts_base = __arch_counter_get_cntvct();
	c->rs = cfg & EM_CONFIGR_RS;
	c->bb = cfg & EM_CONFIGR_BB;
	c->bb_ranges = bb & 0xff;
	c->bb_include = bb & BIT(8);
	c->cid = cfg & EM_CONFIGR_CID;
	c->vmid = cfg & EM_CONFIGR_VMID;
	c->cid_val = READ_ONCE(u->context_id);
	c->qe = FIELD_GET(GENMASK(14, 13), cfg);	/* TRCCONFIGR.QE */
	if (p->idr[0] & EM_IDR0_QFILT) {
		u64 q = u->trc[ETE_TRCQCTLR / 4];

		c->q_ranges = q & 0xff;
		c->q_include = q & BIT(8);
	}
}

/**
 * em_gen_start() - trace generation becomes operative (RRDPSW)
 * @u: the unit
 *
 * A trace session starts: the program restarts from its seed, the ground
 * truth restarts empty.
 *
 * Context: the unit's lock held.
 */
void em_gen_start(struct em_unit *u)
{
	struct em_gen *g = &u->gen;

	g->need_sync = true;
	g->emitted = 0;
	g->dropped0 = u->bytes_dropped;
	g->walk_err = 0;
	em_gen_config(u, &g->cfg);
	/* RVNGFG, RTQWHX: the resources go on from their registers */
	em_res_init(&u->res, u->trc, u->prof->idr[4], u->prof->idr[5]);
	em_res_used(u, &u->res.cntr_used, &u->res.seq_used);
	memset(&g->vi, 0, sizeof(g->vi));
	em_walk_init(&g->walk, em_seed + u->cpu, em_kernel_el());
	em_trace_reset(&g->tr, &g->cfg);
	if (g->truth.rec)
		em_truth_reset(&g->truth);
}

/*
 * ViewInst's event (TRCVICTLR.EVENT) on the resource event bus
 * (resource.c): the always-TRUE selector 1 (RSXSQT), the context ID and
 * VMID comparators against the PE's context, the counters at zero and
 * the sequencer's states, single or in pairs.  Resources the model does
 * not implement are LOW (model.rst, "What it cannot do").
 */
static bool em_gen_viewinst(const struct em_unit *u)
{
	return em_res_event(&u->res, u->trc, u->trc[ETE_TRCVICTLR / 4] & 0xff);
}

/* The exception levels not prohibited: TRFCR (ITHCBC, RFFVYM) */
static u8 em_gen_el_allowed(const struct em_unit *u)
{
	u8 els = 0;

	if (u->trfcr_eff & EM_TRFCR_E0TRE)
		els |= BIT(0);
	if (u->trfcr_eff & EM_TRFCR_ExTRE)
		els |= BIT(em_kernel_el());
	return els;
}

/* A-Sync then Trace Info and what follows it (trace.c) */
static void em_gen_sync(struct em_unit *u, bool periodic)
{
	struct em_trace_out out = {
		.emit = em_gen_emit, .range = em_gen_range,
		.nopath = em_gen_nopath, .priv = u,
	};
	struct em_gen *g = &u->gen;
	u8 pkt[EM_PKT_ASYNC_LEN];
	u64 off;

	em_trace_flush(&g->tr, &out);
	off = em_gen_offset(u);
	if (em_fifo_push(u, pkt, em_pkt_async(pkt)) && g->truth.rec)
		em_truth_async(&g->truth, off);
	em_trace_sync(&g->tr, &g->cfg, &out, periodic);
	if (!periodic)
		u->syncs++;
	g->since_sync = 0;
	g->need_sync = false;
}

/* The windows of ViewInst's event: a block of @n cycles, @on or not */
static void em_gen_vi_windows(struct em_vi_windows *w, bool on, u32 n)
{
	w->cycles += n;
	if (on)
		w->traced += n;
	if (on != w->on && w->cycles > n) {
		if (w->on) {
			w->windows++;
			w->win_min = min_not_zero(w->win_min, w->cur);
			w->win_max = max(w->win_max, w->cur);
		} else if (w->windows) {
			w->gap_min = min_not_zero(w->gap_min, w->cur);
			w->gap_max = max(w->gap_max, w->cur);
		}
		w->cur = 0;
	}
	w->on = on;
	w->cur += n;
}

static void em_gen_step(struct em_unit *u)
{
	struct em_trace_out out = {
		.emit = em_gen_emit, .range = em_gen_range,
		.nopath = em_gen_nopath, .priv = u,
	};
	u32 period = u->trc[ETE_TRCSYNCPR / 4] & GENMASK(4, 0);
	struct em_gen *g = &u->gen;
	/* ViewInst's event as the last cycle left the resources */
	bool vi = em_gen_viewinst(u);
	struct em_block b;
	int ret;

	/* the synchronization of the first trace, when there is trace */
	if (g->need_sync && vi) {
		em_gen_sync(u, false);
		return;
	}
	if (period && g->since_sync >= BIT(period)) {
		em_gen_sync(u, true);
		return;
	}
	ret = em_walk_step(&g->walk, &b);
	if (ret) {
		g->walk_err = ret;
		return;
	}
	g->tr.ev_off = !vi;
	em_trace_block(&g->tr, &g->cfg, &out, &b);
	/*
	 * RRBMQM: the resources run on the PE's clock, one cycle per
	 * instruction here; RJLLVN, RFHFMP: not in a prohibited region.
	 * Their changes are indirect writes (RLFVYH, RVDTDP) that direct
	 * reads see later (RWZQWC).
	 */
	if (!(em_gen_el_allowed(u) & BIT(b.el)))
		return;
	em_gen_vi_windows(&g->vi, !g->tr.ev_off, b.n);
	if (!em_res_static(&u->res, u->trc)) {
		em_res_run(&u->res, u->trc, b.n);
		u->cnt_unsync = true;
	}
}

static unsigned int em_gen_replay(struct em_unit *u, unsigned int budget)
{
	struct em_gen *g = &u->gen;
	unsigned int n, put;

	if (g->replay_pos == g->replay_len && g->replay_loop)
		g->replay_pos = 0;
	n = min_t(size_t, budget, g->replay_len - g->replay_pos);
	/*
	 * Nothing takes the bytes (TRBE disabled or stopped): drop them
	 * without copying, or a stopped unit would cost as much per tick
	 * as a streaming one, in hard-IRQ context.
	 */
	if (!u->fifo_len && !em_trbe_enabled(u)) {
		g->replay_pos += n;
		g->replay_offered += n;
		u->bytes_dropped += n;
		return n;
	}
	put = min(n, EM_FIFO_SIZE - u->fifo_len);
	memcpy(u->fifo + u->fifo_len, g->replay + g->replay_pos, put);
	u->fifo_len += put;
	g->replay_pos += put;
	g->replay_offered += put;
	em_fifo_drain(u, EM_FIFO_SIZE);
	if (!put && n && g->replay_lossy) {
		/*
		 * The PE runs on while the FIFO is full: what it would have
		 * traced is lost (a real unit overflows, RHRYKY), the
		 * replay does not wait for the sink.
		 */
		g->replay_pos += n;
		g->replay_offered += n;
		u->bytes_dropped += n;
		return n;
	}
	return put;
}

/**
 * em_gen_flush_to_limit() - a flush that itself brings the TRBE to its limit
 * @u: the unit, its internal buffer just flushed (em_fifo_flush())
 *
 * debugfs flush_to_limit, once: the unit held back, for this flush, as
 * many bytes of the replay as take the TRBE from TRBPTR_EL1 to its limit,
 * so that the flush raises the limit's event (fill mode: a stop; wrap
 * mode: WRAP and the interrupt) as silicon may when the drain of a
 * driver's handler, flush or save meets a TRBE a few bytes short of it.
 * The bytes are the replay's next ones: the stream stays in order.
 *
 * Context: the unit's lock held, in a TSB CSYNC.
 */
void em_gen_flush_to_limit(struct em_unit *u)
{
	struct em_gen *g = &u->gen;
	unsigned long irqs = u->irqs;
	unsigned int guard = 1 << 20;

	if (!u->flush_to_limit || !em_trbe_enabled(u) || !g->replay)
		return;
	u->flush_to_limit = false;
	while (u->irqs == irqs && em_trbe_enabled(u) && guard--) {
		u64 left = (u->trblimitr & EM_TRBLIMITR_LIMIT) - u->trbptr;
		unsigned int n;

		if (g->replay_pos == g->replay_len && g->replay_loop)
			g->replay_pos = 0;
		n = min_t(u64, left, g->replay_len - g->replay_pos);
		n = min_t(unsigned int, n, EM_FIFO_SIZE);
		if (!n)
			return;
		em_trbe_output(u, g->replay + g->replay_pos, n);
		g->replay_pos += n;
		g->replay_offered += n;
	}
}

/* RHRYKY, RDQBDH: after an overflow, Overflow then a synchronization */
static void em_gen_recover(struct em_unit *u)
{
	u8 pkt[2];

	if (u->fifo_len + 2 > EM_FIFO_SIZE)
		return;
	u->overflow = false;
	em_trace_lost(&u->gen.tr);
	em_fifo_push(u, pkt, em_pkt_overflow(pkt));
	u->gen.need_sync = true;
}

/**
 * em_gen_context() - the PE's context ID changed: the trace follows it
 * @u: the unit
 * @cid: the context ID the PE now runs with (CONTEXTIDR_EL1)
 *
 * With TRCCONFIGR.CID set, the unit traces the PE's context ID in Context
 * packets, and a change of it is a change of context: a Context element
 * before the next traced instruction (the decoder's element with the new
 * ID).  A tick that interrupted another task generates as that task: the
 * program is the model's, the context its own.
 *
 * Context: the unit's lock held.
 */
void em_gen_context(struct em_unit *u, u32 cid)
{
	struct em_gen *g = &u->gen;

	if (!g->cfg.cid || g->cfg.cid_val == cid)
		return;
	g->cfg.cid_val = cid;
	g->tr.ctx_el = -1;	/* Context and Address before the next block */
}
EXPORT_SYMBOL_IF_KUNIT(em_gen_context);

/**
 * em_gen_run() - run the PE for about @budget bytes of trace or @cycles
 * @u: the unit
 * @budget: bytes to produce (a replay's, or when @cycles is 0)
 * @cycles: PE cycles to run, whatever trace they make (0: @budget's)
 * @max_ns: stop after about this long (0: no limit)
 *
 * The timer's call is bounded in time as well: under emulation the walk
 * can cost more than a tick, and a tick handler that outlasts its period
 * never leaves hard-IRQ context.  A PE that was not run executed nothing.
 * When ViewInst's event is inactive and no counter or sequencer event
 * can change that, the PE's blocks would all go untraced: none is run.
 *
 * Context: the unit's lock held.
 */
void em_gen_run(struct em_unit *u, unsigned int budget, u64 cycles,
		u64 max_ns)
{
	u64 t0 = max_ns ? ktime_get_ns() : 0;
	unsigned int steps = 0, max_steps = 4 * budget + 64;
	u64 end = u->gen.tr.cycles + cycles;
	bool recovered = false;
	u64 start;

	em_unit_check_sink(u);
	if (u->state != EM_RUNNING || u->prohibited ||
	    !(u->trfcr_eff & (EM_TRFCR_E0TRE | EM_TRFCR_ExTRE)))
		return;
	u->res.cid = READ_ONCE(u->context_id);
	u->res.vmid = u->res.cid;	/* the model's one context */
	if (!em_gen_viewinst(u) && em_res_static(&u->res, u->trc))
		return;
	if (cycles && !u->gen.replay)
		budget = UINT_MAX;
	/* TRFCR may change during a session: prohibited regions (ITHCBC, RFFVYM) */
	u->gen.cfg.el_traced = em_gen_el_traced(u);
	while (budget) {
		if (u->gen.replay) {
			unsigned int n = em_gen_replay(u, budget);

			if (!n)
				return;
			budget -= n;
			continue;
		}
		if (u->overflow) {
			/*
			 * One recovery per call: a FIFO that still cannot take
			 * the synchronization (slow drain) would otherwise make
			 * a stream of Overflow packets without using budget.
			 */
			if (recovered)
				return;
			em_fifo_drain(u, EM_FIFO_SIZE);
			em_gen_recover(u);
			if (u->overflow)
				return;
			recovered = true;
		}
		if (u->gen.walk_err)
			return;
		if (max_ns && !(steps & 63) && ktime_get_ns() - t0 > max_ns)
			return;
		if (cycles) {
			if (u->gen.tr.cycles >= end)
				return;
			steps++;
		} else if (++steps > max_steps) {
			/* untraced blocks cost no bytes, but not forever */
			return;
		}
		start = u->gen.emitted;
		em_gen_step(u);
		budget -= min_t(u64, budget, u->gen.emitted - start);
	}
}

/**
 * em_gen_init() - allocate a unit's ground-truth records
 * @u: the unit
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int em_gen_init(struct em_unit *u)
{
	u->gen.truth.rec = vzalloc(array_size(em_truth_records,
					      sizeof(*u->gen.truth.rec)));
	if (!u->gen.truth.rec)
		return -ENOMEM;
	u->gen.truth.cap = em_truth_records;
	return 0;
}

/**
 * em_gen_free() - free what em_gen_init() allocated
 * @u: the unit
 *
 * Context: process context.
 */
void em_gen_free(struct em_unit *u)
{
	vfree(u->gen.truth.rec);
	u->gen.truth.rec = NULL;
}
