// SPDX-License-Identifier: GPL-2.0
/*
 * TRBE programming on the owning CPU: arm, drain, disarm, snapshot, reset.
 * The flush timer is flush.c, the interrupt handler irq.c (the same layer).
 *
 * Every register is reached through the CPU's access handle (system
 * instructions, or the test model standing in for them); every function
 * here runs on tc->cpu with interrupts disabled and tc->slock held, and
 * neither sleeps nor allocates.
 *
 * Drain sequence (RJLRQH, RRFJQN; 004 section 4): make the PE
 * trace-prohibited through TRFCR and synchronize (ISB), then TSB CSYNC,
 * which in a prohibited region flushes the trace unit into the TRBE, then
 * DSB so the TRBE's writes are complete; only then are TRBPTR and the
 * buffer contents final.
 */

#include <linux/workqueue.h>

#include <ete/sink.h>

#include "drv.h"

/* Prohibit trace on this PE; return the TRFCR value to restore. */
u64 trbe_prohibit_local(const struct ete_access *acc)
{
	u64 trfcr = ete_read(acc, ETE_TRFCR_EL1);

	ete_write(acc, ETE_TRFCR_EL1, trbe_trfcr_value(trfcr, false));
	ete_sync(acc, ETE_SYNC_ISB);
	return trfcr;
}

static void trbe_restore_local(const struct ete_access *acc, u64 trfcr)
{
	ete_write(acc, ETE_TRFCR_EL1, trfcr);
	ete_sync(acc, ETE_SYNC_ISB);
}

/**
 * trbe_allow_local() - end a prohibited region of the data path
 * @tc: the CPU
 * @trfcr: the TRFCR value trbe_prohibit_local() returned
 *
 * End of a prohibited region taken while the TRBE was armed in a session
 * (a flush, a snapshot, the interrupt): trace is allowed again only if
 * the TRBE collects.  If it ends disabled (waiting for room, stopped by a
 * trigger, a fault) trace stays prohibited, with the trace unit enabled,
 * until it is armed again (trbe_trace_release_local()) or the session
 * stops: trace allowed with the TRBE disabled would go to the trace bus,
 * where no sink may be listening and the PE may hang (I.12(2)).
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_allow_local(struct trbe_cpu *tc, u64 trfcr)
{
	if (tc->armed) {
		trbe_restore_local(&tc->acc, trfcr);
		return;
	}
	tc->trfcr = trfcr;
	tc->trfcr_held = true;
}

/**
 * trbe_trace_release_local() - allow trace again once the TRBE collects
 * @tc: the CPU
 *
 * After the TRBE was armed again outside a prohibited region (the re-arm
 * work): writes the session's TRFCR back if trbe_allow_local() or
 * trbe_trace_gate_local() held it.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_trace_release_local(struct trbe_cpu *tc)
{
	if (!tc->trfcr_held || !tc->armed)
		return;
	tc->trfcr_held = false;
	trbe_restore_local(&tc->acc, tc->trfcr);
}

/**
 * trbe_trace_gate_local() - the TRFCR value ete.ko may write now
 * @tc: the CPU
 * @trfcr: the session's value
 *
 * &struct ete_sink_ops.trfcr_local: @trfcr if the TRBE is armed, else
 * @trfcr with trace prohibited, kept for trbe_trace_release_local().
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 * Return: the value to write.
 */
u64 trbe_trace_gate_local(struct trbe_cpu *tc, u64 trfcr)
{
	tc->trfcr = trfcr;
	tc->trfcr_held = !tc->armed;
	return tc->armed ? trfcr : trbe_trfcr_value(trfcr, false);
}

/*
 * Flush the trace unit into the TRBE (RJLRQH: trace prohibited, after the
 * ISB of trbe_prohibit_local()) and complete its writes to memory (DSB,
 * Arm ARM D6.7).  The ISB last: the flush also updates TRBPTR_EL1
 * and TRBSR_EL1, and a direct read sees those indirect writes only after a
 * context synchronization event that follows the TSB CSYNC (Arm ARM
 * D6.6.3 and B2.6.8, not in the seeds; the seeds' RWZQWC says the same of
 * the trace unit's indirect writes); without it the value read may predate the flush
 * (D6.11).  So the pointer may be read with the TRBE still enabled, as the
 * periodic flush does: nothing forbids that read (D24.4.6 restricts only
 * writes while TRBLIMITR_EL1.E is 1), and with trace prohibited the
 * pointer no longer moves (D6.6.1).
 */
void trbe_drain_local(struct trbe_cpu *tc)
{
	ete_sync(&tc->acc, ETE_SYNC_TSB);
	/* 2054223, 2067961: one TSB CSYNC may not flush; issue a second */
	if (tc->errata & BIT(TRBE_ERR_TSB_FLUSH))
		ete_sync(&tc->acc, ETE_SYNC_TSB);
	ete_sync(&tc->acc, ETE_SYNC_DSB);
	ete_sync(&tc->acc, ETE_SYNC_ISB);
}

/* Clear TRBLIMITR.E, keeping the rest of the programmed value. */
void trbe_disable_local(struct trbe_cpu *tc)
{
	u64 limitr = ete_read(&tc->acc, ETE_TRBLIMITR_EL1);

	ete_write(&tc->acc, ETE_TRBLIMITR_EL1, limitr & ~TRBE_LIMITR_E);
	/* 2064142: later TRBE register writes need a drain after disable */
	if (tc->errata & BIT(TRBE_ERR_DRAIN_AFTER_DISABLE))
		trbe_drain_local(tc);
	ete_sync(&tc->acc, ETE_SYNC_ISB);
	tc->armed = false;
}

/*
 * Kernel address of stream position @pos in a window whose base is @base:
 * the window runs on from base's offset through the double mapping.
 */
static u64 trbe_addr(struct trbe_cpu *tc, u64 base, u64 pos)
{
	return (u64)(uintptr_t)tc->buf->vaddr + pos -
	       round_down(base, tc->geom.size);
}

/*
 * Program and enable the TRBE for the window [base, limit) starting at ptr
 * (stream positions, limit - base <= size); the TRBE must be disabled.
 */
static void trbe_enable_local(struct trbe_cpu *tc, u64 base, u64 ptr,
			      u64 limit)
{
	const struct ete_access *acc = &tc->acc;
	u64 limitr = trbe_limitr_value(trbe_addr(tc, base, limit), tc->cfg.fm,
				       tc->cfg.tm, true);

	tc->win.base = base;
	tc->win.ptr = ptr;
	tc->win.limit = limit;
	ete_write(acc, ETE_TRBBASER_EL1,
		  trbe_baser_value(trbe_addr(tc, base, base)));
	ete_write(acc, ETE_TRBPTR_EL1, trbe_ptr_value(trbe_addr(tc, base, ptr)));
	/* The trigger counter runs on across re-arms within a session */
	if (tc->trg_fresh)
		ete_write(acc, ETE_TRBTRG_EL1,
			  trbe_trg_value(tc->cfg.trig_count));
	tc->trg_fresh = false;
	/* Keep TRG once the trigger event happened: it happens once */
	ete_write(acc, ETE_TRBSR_EL1, tc->trg_hit ? TRBE_SR_TRG : 0);
	/*
	 * The TRBE reads the registers just written once E is set: those
	 * direct writes reach its indirect reads only after a context
	 * synchronization event (Arm ARM, "Synchronization requirements for
	 * AArch64 System registers", not in the seeds; B.11 IKWCGH says the
	 * same of the trace unit's registers), so the ISB goes before E, as
	 * in coresight-trbe.c's trbe_enable_hw().
	 */
	ete_sync(acc, ETE_SYNC_ISB);
	ete_write(acc, ETE_TRBLIMITR_EL1, limitr);
	ete_sync(acc, ETE_SYNC_ISB);
	/* 2038923: a second context synchronization after enabling */
	if (tc->errata & BIT(TRBE_ERR_SYNC_AFTER_ENABLE))
		ete_sync(acc, ETE_SYNC_ISB);
	tc->armed = true;
	trbe_stat_add(&tc->stats.arms, 1);
	trbe_flush_start(tc);
}

/* Stream position of a TRBPTR value @ptr, read after the TRBE drained */
u64 trbe_ptr_pos_at(struct trbe_cpu *tc, u64 ptr, bool wrapped)
{
	u64 off = ptr - (u64)(uintptr_t)tc->buf->vaddr;

	if (tc->cfg.fm == TRBE_FM_FILL) {
		/* In [win.ptr, win.limit]; at the limit it wraps to base */
		if (wrapped)
			return tc->win.limit;
		return clamp(round_down(tc->win.base, tc->geom.size) + off,
			     tc->head, tc->win.limit);
	}
	return trbe_wrap_head(&tc->geom, tc->head, off, wrapped);
}

/* Stream position of TRBPTR (the TRBE drained). */
u64 trbe_ptr_pos(struct trbe_cpu *tc, bool wrapped)
{
	return trbe_ptr_pos_at(tc, ete_read(&tc->acc, ETE_TRBPTR_EL1), wrapped);
}

/*
 * Policy "drop" and less than a watermark of room: give up the oldest
 * unconsumed data, counted exactly, with a gap, so that the TRBE keeps
 * going.  Returns 0 with tc->win set, or @ret when dropping cannot help.
 */
static int trbe_drop_for_window(struct trbe_cpu *tc, u64 tail, int ret)
{
	u64 new_tail = trbe_drop_tail(&tc->geom, tc->head, tail);

	if (new_tail == tail)
		return ret;
	trbe_stream_lost(tc, new_tail - tail);
	trbe_stream_gap(tc, new_tail, new_tail - tail, ETE_TRBE_GAP_DROPPED);
	tc->lost_tail = new_tail;
	WRITE_ONCE(tc->buf->hdr->data_lost_tail, new_tail);
	/*
	 * [tail, new_tail) is given up: a reader that copied from there
	 * checks data_lost_tail after the copy (Documentation/abi-trbe.rst).
	 * The store must be observable before the TRBE, enabled next, writes
	 * there.  The TRBE's writes are not ordered after this CPU's stores
	 * by a DMB (smp_wmb() orders CPU accesses only; they follow an MSR,
	 * which a DMB does not order): wmb(), a DSB ST on arm64, completes
	 * the store before the TRBLIMITR_EL1 write that starts the TRBE.
	 */
	wmb();
	return trbe_fill_window(&tc->geom, tc->head, new_tail, &tc->win);
}

/* Room the window @w gives, under a watermark: the reader is behind */
static bool trbe_window_short(const struct trbe_cpu *tc, int ret,
			      const struct trbe_window *w)
{
	return ret == -ENOSPC || w->limit - w->ptr < tc->geom.wmark;
}

/*
 * Publish a wrap or circular head.  If the TRBE lapped data that was never
 * published, how much is unknown (it reports one wrap however many): a gap.
 */
void trbe_publish_lap(struct trbe_cpu *tc, u64 head, bool wrapped)
{
	if (wrapped)
		trbe_stream_wrapped(tc);
	if (head > tc->head + tc->geom.size)
		trbe_stream_gap(tc, head - tc->geom.size, ETE_TRBE_LOST_UNKNOWN,
				ETE_TRBE_GAP_OVERWRITTEN);
	trbe_stream_publish(tc, head);
}

/**
 * trbe_resume_local() - enable the TRBE again from the head
 * @tc: the CPU, TRBE disabled
 * @head: the stream position to go on from
 *
 * Fill mode takes a new window (the errata workarounds apply at every
 * enable); wrap and circular modes go on where they stopped.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_resume_local(struct trbe_cpu *tc, u64 head)
{
	u64 lap = round_down(head, tc->geom.size);

	if (tc->cfg.fm == TRBE_FM_FILL)
		trbe_arm_local(tc);
	else
		trbe_enable_local(tc, lap, head, lap + tc->geom.size);
}

/**
 * trbe_arm_local() - arm the TRBE at the current head
 * @tc: the CPU, TRBE disabled
 *
 * Fill mode: the next streaming window, padding to it with IGNORE bytes;
 * if the reader is behind, either wait (state WAITING, a gap recorded when
 * the TRBE restarts) or drop the oldest data, as configured.  Wrap and
 * circular modes: the whole buffer, from the head on.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 * Return: true if the TRBE is armed.
 */
bool trbe_arm_local(struct trbe_cpu *tc)
{
	u64 tail = trbe_stream_tail(tc);
	u64 ptr;
	int ret;

	if (tc->cfg.fm != TRBE_FM_FILL) {
		ptr = ALIGN(tc->head, tc->geom.align);
		if (ptr != tc->head) {
			trbe_buf_pad(tc->buf, tc->head, ptr - tc->head);
			trbe_stat_add(&tc->stats.padding_bytes, ptr - tc->head);
		}
		trbe_stream_publish(tc, ptr);
		trbe_resume_local(tc, ptr);
		return true;
	}
	ret = trbe_fill_window(&tc->geom, tc->head, tail, &tc->win);
	if (tc->cfg.policy == TRBE_POLICY_DROP &&
	    trbe_window_short(tc, ret, &tc->win))
		ret = trbe_drop_for_window(tc, tail, ret);
	if (ret) {
		if (!tc->gap_pending)
			tc->gap_pending = ETE_TRBE_GAP_STOPPED;
		trbe_stream_set_state(tc, ETE_TRBE_STATE_WAITING);
		/*
		 * mmap readers only write data_tail: look at it again soon,
		 * from any CPU (the traced one is left alone until the tail
		 * moves: trbe_rearm_work()).
		 */
		tc->rearm_tail = tail;
		queue_delayed_work(system_unbound_wq, &tc->rearm,
				   TRBE_REARM_DELAY);
		return false;
	}
	/*
	 * The gap goes where the padding starts, not after it: on cores
	 * with 2119858/2139208 the padding is not final until the window
	 * closes (trbe_overwrite_fixup()).
	 */
	if (tc->gap_pending) {
		trbe_stream_gap(tc, tc->head, ETE_TRBE_LOST_UNKNOWN,
				tc->gap_pending);
		tc->gap_pending = 0;
	}
	if (tc->win.pad) {
		trbe_buf_pad(tc->buf, tc->head, tc->win.pad);
		trbe_stat_add(&tc->stats.padding_bytes, tc->win.pad);
	}
	trbe_stream_publish(tc, tc->win.ptr);
	trbe_enable_local(tc, tc->win.base, tc->win.ptr, tc->win.limit);
	return true;
}

/**
 * trbe_disarm_local() - drain and disable the TRBE, publish what it wrote
 * @tc: the CPU
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_disarm_local(struct trbe_cpu *tc)
{
	u64 trfcr, sr;

	trbe_flush_stop_local(tc);
	/* The trace unit restored the TRFCR it found (ete.ko's stop) */
	tc->trfcr_held = false;
	if (!tc->armed)
		return;
	trfcr = trbe_prohibit_local(&tc->acc);
	trbe_drain_local(tc);
	trbe_disable_local(tc);
	sr = ete_read(&tc->acc, ETE_TRBSR_EL1);
	if (!trbe_take_event_local(tc, sr, false)) {
		if (tc->cfg.fm == TRBE_FM_FILL)
			trbe_stream_publish(tc, trbe_ptr_pos(tc,
							     sr & TRBE_SR_WRAP));
		else
			trbe_publish_lap(tc, trbe_ptr_pos(tc, sr & TRBE_SR_WRAP),
					 sr & TRBE_SR_WRAP);
		ete_write(&tc->acc, ETE_TRBSR_EL1, trbe_status_clear(sr));
	}
	trbe_restore_local(&tc->acc, trfcr);
}

/**
 * trbe_snapshot_local() - publish the newest data and keep collecting
 * @tc: the CPU, armed
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_snapshot_local(struct trbe_cpu *tc)
{
	u64 trfcr = trbe_prohibit_local(&tc->acc);
	u64 sr, head;

	trbe_drain_local(tc);
	trbe_disable_local(tc);
	sr = ete_read(&tc->acc, ETE_TRBSR_EL1);
	if (!trbe_take_event_local(tc, sr, true)) {
		head = trbe_ptr_pos(tc, sr & TRBE_SR_WRAP);
		if (tc->cfg.fm == TRBE_FM_FILL)
			trbe_stream_publish(tc, head);
		else
			trbe_publish_lap(tc, head, sr & TRBE_SR_WRAP);
		trbe_resume_local(tc, head);
	}
	trbe_allow_local(tc, trfcr);
}

/**
 * trbe_sink_restore() - the device's own modes again after a session's
 * @tc: the CPU
 *
 * Every way a session ends calls this: stop_local() and, for a session
 * that ended while its CPU was offline, forget() (trbe_pm_forget()).
 *
 * Context: tc->slock held.
 */
void trbe_sink_restore(struct trbe_cpu *tc)
{
	if (!tc->cfg_override)
		return;
	tc->cfg.fm = tc->saved_cfg.fm;
	tc->cfg.tm = tc->saved_cfg.tm;
	tc->cfg.trig_count = tc->saved_cfg.trig_count;
	tc->cfg_override = false;
}

/**
 * trbe_reset_local() - put the TRBE in its idle state
 * @tc: the CPU
 *
 * Used by CPU hotplug before the interrupt is enabled and after it is
 * disabled: TRBE disabled, its registers and status clear.  A TRBE found
 * enabled (another owner left it so, or a CPU that powered up with it
 * enabled) is drained first, in a prohibited region (RJLRQH, as
 * trbe_disarm_local()), and disabled through trbe_disable_local(), which
 * drains again after the disable where erratum 2064142 needs it before
 * the register writes that follow (coresight-trbe.c's trbe_reset_local()).
 *
 * Context: on tc->cpu, IRQs disabled or preemption disabled.
 */
void trbe_reset_local(struct trbe_cpu *tc)
{
	const struct ete_access *acc = &tc->acc;
	u64 trfcr;

	if (ete_read(acc, ETE_TRBLIMITR_EL1) & TRBE_LIMITR_E) {
		trfcr = trbe_prohibit_local(acc);
		trbe_drain_local(tc);
		trbe_disable_local(tc);
		trbe_restore_local(acc, trfcr);
	}
	ete_write(acc, ETE_TRBLIMITR_EL1, 0);
	ete_write(acc, ETE_TRBPTR_EL1, 0);
	ete_write(acc, ETE_TRBBASER_EL1, 0);
	ete_write(acc, ETE_TRBSR_EL1, 0);
	ete_sync(acc, ETE_SYNC_ISB);
	tc->armed = false;
}
