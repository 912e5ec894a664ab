// SPDX-License-Identifier: GPL-2.0
/*
 * Trace generation: while the unit is Running, ViewInst is active and trace
 * is allowed, emit a valid ETE byte stream for a synthetic program (A-Sync,
 * Trace Info, Trace On, Context, Address, Atom, Timestamp), with periodic
 * synchronization per TRCSYNCPR; or, in replay mode, a given byte stream
 * unchanged.  Bytes go through the unit's internal buffer (the FIFO) to the
 * TRBE; when the FIFO cannot take a packet the unit overflows (RLDDLP) and
 * later emits an Overflow packet followed by a synchronization (RDQBDH).
 * Called with the unit's lock held.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <asm/virt.h>

#include "model.h"
#include "pkt.h"

#define EM_GEN_TEXT		0xffff800008010000ULL	/* synthetic PC */
#define EM_GEN_ADDR_EVERY	8	/* steps between Address packets */
#define EM_GEN_TS_EVERY		16	/* steps between Timestamps */

static unsigned int em_kernel_el(void)
{
	return is_kernel_in_hyp_mode() ? 2 : 1;
}

/**
 * em_fifo_drain() - move bytes from the internal buffer to the TRBE
 * @u: the unit
 * @max: at most this many (the slow-drain fault makes it one)
 *
 * Context: the unit's lock held.
 */
void em_fifo_drain(struct em_unit *u, unsigned int max)
{
	unsigned int n;

	if (u->fault == EM_FAULT_SLOW_DRAIN)
		max = 1;
	n = min(max, u->fifo_len);
	if (!n)
		return;
	em_trbe_output(u, u->fifo, n);
	memmove(u->fifo, u->fifo + n, u->fifo_len - n);
	u->fifo_len -= n;
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
 */
void em_fifo_push(struct em_unit *u, const u8 *buf, unsigned int len)
{
	if (u->overflow)
		return;
	if (u->fifo_len + len > EM_FIFO_SIZE)
		em_fifo_drain(u, EM_FIFO_SIZE);
	if (u->fifo_len + len > EM_FIFO_SIZE) {
		u->overflow = true;
		return;
	}
	memcpy(u->fifo + u->fifo_len, buf, len);
	u->fifo_len += len;
	u->gen.since_sync += len;
	u->gen.emitted += len;
}

/**
 * em_gen_start() - trace generation becomes operative (RRDPSW)
 * @u: the unit
 *
 * Context: the unit's lock held.
 */
void em_gen_start(struct em_unit *u)
{
	u->gen.need_sync = true;
	u->gen.seq = 0;
	u->gen.addr = EM_GEN_TEXT;
}

/* ViewInst: the always-TRUE selector, the kernel's EL traced, started */
static bool em_viewinst_active(const struct em_unit *u)
{
	u64 vi = u->trc[ETE_TRCVICTLR / 4];

	if ((vi & 0xff) != 1)	/* EVENT: TYPE 0, SEL 1 (TRUE, RSXSQT) */
		return false;
	if (vi & BIT(20 + em_kernel_el()))	/* EXLEVEL_NS_ELx */
		return false;
	return vi & EM_VICTLR_SSSTATUS;
}

static void em_gen_context(struct em_unit *u)
{
	u64 cfg = u->trc[ETE_TRCCONFIGR / 4];
	struct em_pkt_ctx ctx = {
		.el = em_kernel_el(),
		.sf = true,
		.ns = true,
		.has_cid = cfg & EM_CONFIGR_CID,
		.has_vmid = cfg & EM_CONFIGR_VMID,
		.cid = 0x1000 + u->cpu,
		.vmid = 0,
	};
	u8 pkt[EM_PKT_MAX];

	em_fifo_push(u, pkt, em_pkt_context(pkt, &ctx));
	em_fifo_push(u, pkt, em_pkt_addr_l64(pkt, u->gen.addr));
}

static void em_gen_timestamp(struct em_unit *u)
{
	u8 pkt[EM_PKT_MAX];

	if (u->trc[ETE_TRCCONFIGR / 4] & EM_CONFIGR_TS)
		em_fifo_push(u, pkt,
			     em_pkt_timestamp(pkt, ktime_get_mono_fast_ns()));
}

/* A-Sync, Trace Info, then (non-periodic) Trace On, Context, Address */
static void em_gen_sync(struct em_unit *u, bool periodic)
{
	u64 cfg = u->trc[ETE_TRCCONFIGR / 4];
	u8 pkt[EM_PKT_ASYNC_LEN];

	em_fifo_push(u, pkt, em_pkt_async(pkt));
	em_fifo_push(u, pkt, em_pkt_trace_info(pkt, cfg & EM_CONFIGR_CCI,
					       u->trc[ETE_TRCCCCTLR / 4]));
	if (!periodic)
		em_fifo_push(u, pkt, em_pkt_trace_on(pkt));
	em_gen_context(u);
	em_gen_timestamp(u);
	u->gen.since_sync = 0;
	u->gen.need_sync = false;
}

static void em_gen_step(struct em_unit *u)
{
	u32 period = u->trc[ETE_TRCSYNCPR / 4] & GENMASK(4, 0);
	u8 pkt[EM_PKT_MAX];

	if (u->gen.need_sync) {
		em_gen_sync(u, false);
		return;
	}
	if (period && u->gen.since_sync >= BIT(period)) {
		em_gen_sync(u, true);
		return;
	}
	u->gen.seq++;
	u->gen.addr += 4 * (1 + (u->gen.seq & 7));
	em_fifo_push(u, pkt, em_pkt_atom_f1(pkt, u->gen.seq & 1));
	if (!(u->gen.seq % EM_GEN_ADDR_EVERY))
		em_fifo_push(u, pkt, em_pkt_addr_l64(pkt, u->gen.addr));
	if (!(u->gen.seq % EM_GEN_TS_EVERY))
		em_gen_timestamp(u);
}

static unsigned int em_gen_replay(struct em_unit *u, unsigned int budget)
{
	struct em_gen *g = &u->gen;
	unsigned int n = min_t(size_t, budget, g->replay_len - g->replay_pos);

	/*
	 * Nothing takes the bytes (TRBE disabled or stopped): drop them
	 * without copying, or a stopped unit would cost as much per tick
	 * as a streaming one, in hard-IRQ context.
	 */
	if (!u->fifo_len && !em_trbe_enabled(u)) {
		g->replay_pos += n;
		u->bytes_dropped += n;
		return n;
	}
	n = min(n, EM_FIFO_SIZE - u->fifo_len);
	memcpy(u->fifo + u->fifo_len, g->replay + g->replay_pos, n);
	u->fifo_len += n;
	g->replay_pos += n;
	em_fifo_drain(u, EM_FIFO_SIZE);
	return n;
}

/* RHRYKY, RDQBDH: after an overflow, Overflow then a synchronization */
static void em_gen_recover(struct em_unit *u)
{
	u8 pkt[2];

	if (u->fifo_len + 2 > EM_FIFO_SIZE)
		return;
	u->overflow = false;
	em_fifo_push(u, pkt, em_pkt_overflow(pkt));
	u->gen.need_sync = true;
}

/*
 * Resources run only while the unit is Running outside prohibited regions
 * (RJLLVN, RLYFDT); in Stable and Idle nothing changes them but a direct
 * or external write (RBPTKT).  The model counts one event per tick on the
 * counters whose CNTEVENT is the always-TRUE selector 1.
 */
static void em_resources_step(struct em_unit *u)
{
	unsigned int n, nr = FIELD_GET(EM_IDR5_NUMCNTR, u->prof->idr[5]);

	for (n = 0; n < nr; n++) {
		u64 ctl = u->trc[ETE_TRCCNTCTLR_N(n) / 4];
		u64 *val = &u->trc[ETE_TRCCNTVR_N(n) / 4];

		if ((ctl & 0xff) != 1)
			continue;
		if (*val)
			(*val)--;
		else if (ctl & BIT(16))	/* RLDSELF */
			*val = u->trc[ETE_TRCCNTRLDVR_N(n) / 4];
	}
}

/**
 * em_gen_run() - generate about @budget bytes of trace
 * @u: the unit
 * @budget: bytes to produce
 *
 * Context: the unit's lock held.
 */
void em_gen_run(struct em_unit *u, unsigned int budget)
{
	unsigned int start;

	if (u->state != EM_RUNNING || em_unit_prohibited(u))
		return;
	em_resources_step(u);
	if (!em_viewinst_active(u))
		return;
	while (budget) {
		if (u->gen.replay) {
			unsigned int n = em_gen_replay(u, budget);

			if (!n)
				return;
			budget -= n;
			continue;
		}
		if (u->overflow) {
			em_fifo_drain(u, EM_FIFO_SIZE);
			em_gen_recover(u);
			if (u->overflow)
				return;
		}
		start = u->gen.emitted;
		em_gen_step(u);
		budget -= min(budget, max(1U, u->gen.emitted - start));
	}
}
