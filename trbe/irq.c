// SPDX-License-Identifier: GPL-2.0
/*
 * The TRBE interrupt: its handler, and the acting on a TRBE event that the
 * handler and the other paths that drain the TRBE (a stop, a snapshot, a
 * session that ended while its CPU was offline) share.
 *
 * Context: as hw.c (on tc->cpu, IRQs disabled, tc->slock held) unless a
 * function says otherwise.
 */

#include <linux/interrupt.h>

#include <ete/sink.h>

#include "drv.h"

/*
 * 2119858/2139208: at the fill the TRBE may have written trace over the
 * first bytes of the window, the IGNORE padding trbe_arm_local() published
 * when it armed it (trbe_fill_window()).  Pad them again (coresight-trbe.c
 * pads at collection, before perf hands the data out); and since a reader
 * may have copied them between the fill and now, mark a gap where the
 * padding starts, unless one is there already: decoders resynchronise
 * after it instead of reading those fragments as trace.  No trace is lost
 * there.  The window's start is the stream's start: nothing precedes it.
 */
static void trbe_overwrite_fixup(struct trbe_cpu *tc)
{
	u64 start = tc->win.ptr - tc->win.pad;

	trbe_buf_pad(tc->buf, tc->win.base, TRBE_OVERWRITE_SKIP);
	trbe_stat_add(&tc->stats.padding_bytes, TRBE_OVERWRITE_SKIP);
	if (tc->ctr.gap_count ? start > tc->gap_last : start > 0)
		trbe_stream_gap(tc, start, 0, ETE_TRBE_GAP_ERRATUM);
}

static void trbe_report_fault(struct trbe_cpu *tc, u64 sr,
			      const struct trbe_status *st)
{
	trbe_stream_error(tc, -EIO, sr);
	tc->fault_sr = sr;
	tc->fault_st = *st;
	tc->fault_unsaid = true;
	trbe_stream_gap(tc, tc->head, ETE_TRBE_LOST_UNKNOWN,
			ETE_TRBE_GAP_FAULT);
	trbe_stream_set_state(tc, ETE_TRBE_STATE_FAULT);
	ete_session_cpu_error(tc->cpu, -EIO);
}

/*
 * Act on a decoded status; the TRBE is disabled and drained, @ptr is its
 * TRBPTR.  @go_on: re-arm or resume where the event allows it (the
 * interrupt, a snapshot; on the CPU); false when the TRBE is being
 * stopped (only publish and record; no register access).
 */
static void trbe_handle_at(struct trbe_cpu *tc, u64 sr, u64 ptr,
			   const struct trbe_status *st, bool go_on)
{
	u64 head;

	if (st->action == TRBE_ACT_FAULT) {
		trbe_report_fault(tc, sr, st);
		return;
	}
	head = trbe_ptr_pos_at(tc, ptr, st->wrapped);
	if (tc->cfg.fm == TRBE_FM_FILL)
		trbe_stream_publish(tc, head);
	else
		trbe_publish_lap(tc, head, st->wrapped);
	if (st->triggered && !tc->trg_hit) {
		tc->trg_hit = true;
		trbe_stream_trigger(tc, head);
	}
	if (st->action == TRBE_ACT_FULL &&
	    (tc->errata & BIT(TRBE_ERR_OVERWRITE_FILL)))
		trbe_overwrite_fixup(tc);
	if (!go_on) {
		if (st->action == TRBE_ACT_TRIG_STOP)
			trbe_stream_set_state(tc, ETE_TRBE_STATE_STOPPED);
		/* Full, as it is stopped: the stream broke off here */
		if (st->action == TRBE_ACT_FULL && !tc->gap_pending)
			tc->gap_pending = ETE_TRBE_GAP_STOPPED;
		return;
	}
	switch (st->action) {
	case TRBE_ACT_FULL:
		/* What came while it was stopped is gone: a gap at the restart */
		tc->gap_pending = ETE_TRBE_GAP_STOPPED;
		trbe_arm_local(tc);
		break;
	case TRBE_ACT_TRIG_STOP:
		trbe_stream_set_state(tc, ETE_TRBE_STATE_STOPPED);
		break;
	default:	/* WRAP, TRIG_IRQ: keep collecting from where it was */
		trbe_resume_local(tc, head);
	}
}

static void trbe_handle_local(struct trbe_cpu *tc, u64 sr,
			      const struct trbe_status *st, bool go_on)
{
	trbe_handle_at(tc, sr, ete_read(&tc->acc, ETE_TRBPTR_EL1), st, go_on);
}

/**
 * trbe_take_event_local() - take an event a drain found pending
 * @tc: the CPU, its TRBE drained and disabled
 * @sr: TRBSR_EL1, read after the drain
 * @go_on: re-arm or resume where the event allows it (a snapshot), or
 *	only publish and record (a stop)
 *
 * The TRBE is drained and disabled.  An event it signalled (TRBSR.IRQ)
 * whose interrupt has not been taken yet (the PPI is pending behind the
 * IRQs this path disabled) is handled here, as the handler would have:
 * a fill stop's gap, a trigger's offset and STOPPED, a fault's last_error
 * and FAULT.  Clearing or overwriting TRBSR without that would lose it.
 * The handler then finds TRBSR_EL1.IRQ clear and returns IRQ_NONE.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 * Return: true if there was one.
 */
bool trbe_take_event_local(struct trbe_cpu *tc, u64 sr, bool go_on)
{
	struct trbe_status st = trbe_status_decode(sr, tc->cfg.fm, tc->cfg.tm);

	if (st.action == TRBE_ACT_NOT_OURS)
		return false;
	trbe_handle_local(tc, sr, &st, go_on);
	if (!tc->armed)
		ete_write(&tc->acc, ETE_TRBSR_EL1, trbe_status_clear(sr));
	return true;
}

/**
 * trbe_take_saved_event() - an event the power-down save left pending
 * @tc: the CPU, offline, its TRBE saved (&struct trbe_pm_state)
 * @sr: the saved TRBSR_EL1, with IRQ or S set
 * @ptr: the saved TRBPTR_EL1
 *
 * The session ended while the CPU was offline, so no restore will let
 * the handler take it: record it as a stop would (trbe_disarm_local()),
 * from the saved registers: the window's data published, a trigger's
 * offset and STOPPED, a fault's last_error and FAULT.
 *
 * Context: tc->slock held; does not touch the TRBE.
 * Return: true if it was an event of this driver's.
 */
bool trbe_take_saved_event(struct trbe_cpu *tc, u64 sr, u64 ptr)
{
	struct trbe_status st = trbe_status_decode(sr, tc->cfg.fm, tc->cfg.tm);

	if (st.action == TRBE_ACT_NOT_OURS)
		return false;
	trbe_handle_at(tc, sr, ptr, &st, false);
	return true;
}

/*
 * The TRBE PPI's work (mainline's arm_trbe_irq_handler() does the same
 * first steps).  Read TRBSR: IRQ clear, not the TRBE's (or an event a
 * drain already took) -> IRQ_NONE.  The TRBE not armed -> nothing to act
 * on: a power-down save left its event pending, and its copy is in tc->pm
 * (the restore writes it back and the interrupt comes again); or the
 * registers are UNKNOWN after power-up, before ete.ko's restore.  Clear
 * TRBSR.IRQ all the same: the PPI is level-sensitive, and a handler that
 * returns with it set is taken again at once, for ever.  Else prohibit
 * trace, TSB CSYNC, DSB (RJLRQH), disable; and read TRBSR again: the drain
 * may itself have raised an event (the limit reached, a wrap), and the
 * decision is made on what the TRBE says now, as every other path that
 * drains does (trbe_take_event_local()).  Every path leaves TRBSR.IRQ
 * clear: a resume writes TRBSR afresh, a stop writes it cleared.
 *
 * Context: hard IRQ on the owning CPU; does not sleep or allocate.
 * Return: IRQ_HANDLED, or IRQ_NONE if the TRBE did not assert it.
 */
static irqreturn_t __trbe_irq_handler(int irq, void *dev)
{
	struct trbe_cpu *tc = *(struct trbe_cpu **)dev;
	struct trbe_status st;
	u64 sr, trfcr;

	if (!tc)
		return IRQ_NONE;
	raw_spin_lock(&tc->slock);
	/* The PPI is disabled before the access handle goes (core.c) */
	if (!tc->present) {
		raw_spin_unlock(&tc->slock);
		return IRQ_NONE;
	}
	sr = ete_read(&tc->acc, ETE_TRBSR_EL1);
	if (!(sr & TRBE_SR_IRQ)) {
		raw_spin_unlock(&tc->slock);
		return IRQ_NONE;
	}
	if (!tc->armed || !tc->buf) {
		ete_write(&tc->acc, ETE_TRBSR_EL1, sr & ~TRBE_SR_IRQ);
		ete_sync(&tc->acc, ETE_SYNC_ISB);
		raw_spin_unlock(&tc->slock);
		return IRQ_HANDLED;
	}
	trbe_stat_add(&tc->stats.interrupts, 1);
	trfcr = trbe_prohibit_local(&tc->acc);
	trbe_drain_local(tc);
	trbe_disable_local(tc);
	sr = ete_read(&tc->acc, ETE_TRBSR_EL1);
	st = trbe_status_decode(sr, tc->cfg.fm, tc->cfg.tm);
	trbe_handle_local(tc, sr, &st, true);
	if (!tc->armed)
		ete_write(&tc->acc, ETE_TRBSR_EL1, trbe_status_clear(sr));
	trbe_allow_local(tc, trfcr);
	raw_spin_unlock(&tc->slock);
	return IRQ_HANDLED;
}

/**
 * trbe_irq_handler() - the TRBE PPI
 * @irq: the interrupt
 * @dev: this CPU's &struct trbe_cpu pointer (per-CPU)
 *
 * __trbe_irq_handler() does the work; the time it takes counts in
 * stats.cpu_ns when the interrupt was the TRBE's.
 *
 * Context: hard IRQ on the owning CPU; does not sleep or allocate.
 * Return: IRQ_HANDLED, or IRQ_NONE if the TRBE did not assert it.
 */
irqreturn_t trbe_irq_handler(int irq, void *dev)
{
	struct trbe_cpu *tc = *(struct trbe_cpu **)dev;
	u64 t0 = trbe_busy_begin();
	irqreturn_t ret = __trbe_irq_handler(irq, dev);

	if (ret == IRQ_HANDLED)
		trbe_busy_end(&tc->stats, t0);
	return ret;
}
