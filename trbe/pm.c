// SPDX-License-Identifier: GPL-2.0
/*
 * The TRBE across CPU power-down: ete.ko's power management calls these
 * sink callbacks, the save after the trace unit is disabled and Idle, the
 * restore before the trace unit is enabled again (004 section 5.1: a trace
 * unit enabled with no enabled sink can hang the PE).
 *
 * Save (RJLRQH, RRFJQN; I.14 of the requirements): prohibit trace in
 * TRFCR, ISB; TSB CSYNC, DSB, so that every byte the unit produced is in
 * memory; read TRBSR and TRBPTR; publish what was written, so that the
 * buffer of an offline CPU is readable through /dev/trbe<N>; disable the
 * TRBE; keep its registers.  Trace stays prohibited: the trace unit's
 * restore writes the session's TRFCR back, through the sink's
 * trfcr_local (trbe_trace_gate_local()), which keeps it prohibited if the
 * TRBE did not come back armed (waiting for room, stopped).  A pending
 * event (TRBSR.IRQ or S) is saved as it is and left to the interrupt
 * handler after the restore, which finds the same registers.  Until then
 * the PPI is masked if TRBSR.IRQ is set: the PPI is level-sensitive, and
 * between this save and trbe.ko's own hotplug callback (when ete.ko's
 * runs first) or the restore, no handler could act on the event.  The
 * fill-mode flush timer stops and keeps its deadline (flush.c).
 *
 * Restore: write TRBBASER, TRBPTR, TRBTRG, TRBSR, ISB, then TRBLIMITR
 * with E, ISB: the TRBE goes on exactly where it stopped, so the stream
 * has no seam; the PPI is unmasked if the save masked it, and the flush
 * timer runs to the deadline it had.
 *
 * Either module's hotplug callbacks may run first (both are dynamic
 * states, in the order the modules took their slots): trbe.ko's leave a
 * TRBE in a session to these, and only switch the PPI (core.c); the
 * handler acts on nothing while the TRBE is not armed.
 *
 * Every function runs on the CPU with IRQs off and takes only tc->slock
 * (raw); none sleeps or allocates.
 */

#include <linux/interrupt.h>
#include <linux/workqueue.h>

#include "drv.h"

/* Publish what the drained TRBE wrote; returns TRBSR to restore. */
static u64 trbe_pm_publish(struct trbe_cpu *tc, u64 sr)
{
	bool wrapped = sr & TRBE_SR_WRAP;

	/* An event is pending: the handler takes it after the restore */
	if (sr & (TRBE_SR_IRQ | TRBE_SR_S))
		return sr;
	if (tc->cfg.fm == TRBE_FM_FILL)
		trbe_stream_publish(tc, trbe_ptr_pos(tc, false));
	else
		trbe_publish_lap(tc, trbe_ptr_pos(tc, wrapped), wrapped);
	/* That wrap is counted: the restored TRBE must not report it again */
	return sr & ~TRBE_SR_WRAP;
}

/**
 * trbe_pm_save_local() - the sink's save_local: drain, publish, disable
 * @priv: the driver instance
 * @cpu: this CPU
 *
 * Context: on @cpu with IRQs disabled, the trace unit disabled and Idle;
 * does not sleep.
 */
void trbe_pm_save_local(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);
	struct trbe_pm_state *s;

	if (!tc)
		return;
	s = &tc->pm;
	raw_spin_lock(&tc->slock);
	trbe_flush_save_local(tc);
	s->armed = tc->armed && tc->buf;
	s->saved = true;
	s->irq_masked = false;
	if (!s->armed)
		goto out_unlock;
	trbe_prohibit_local(&tc->acc);
	trbe_drain_local(tc);
	s->sr = trbe_pm_publish(tc, ete_read(&tc->acc, ETE_TRBSR_EL1));
	s->ptr = ete_read(&tc->acc, ETE_TRBPTR_EL1);
	s->limitr = ete_read(&tc->acc, ETE_TRBLIMITR_EL1);
	s->baser = ete_read(&tc->acc, ETE_TRBBASER_EL1);
	s->trg = ete_read(&tc->acc, ETE_TRBTRG_EL1);
	trbe_disable_local(tc);
	s->irq_masked = s->sr & TRBE_SR_IRQ;
out_unlock:
	raw_spin_unlock(&tc->slock);
	/* the line stays asserted until the restore's handler takes it */
	if (s->irq_masked)
		disable_percpu_irq(tc->drv->irq);
}

/**
 * trbe_pm_restore_local() - the sink's restore_local: the TRBE as it was
 * @priv: the driver instance
 * @cpu: this CPU
 *
 * A buffer freed while the CPU was offline is not armed again
 * (ete_session_sink_detach() at the last close made ete.ko forget the
 * saved state: trbe_pm_forget()).
 *
 * Context: on @cpu with IRQs disabled, before the trace unit is enabled;
 * does not sleep.
 */
void trbe_pm_restore_local(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);
	const struct ete_access *acc;
	struct trbe_pm_state *s;
	bool unmask = false;

	if (!tc)
		return;
	s = &tc->pm;
	acc = &tc->acc;
	raw_spin_lock(&tc->slock);
	if (!s->saved)
		goto out_unlock;
	s->saved = false;
	unmask = s->irq_masked;
	s->irq_masked = false;
	if (s->armed && tc->buf) {
		ete_write(acc, ETE_TRBLIMITR_EL1, s->limitr & ~TRBE_LIMITR_E);
		ete_write(acc, ETE_TRBBASER_EL1, s->baser);
		ete_write(acc, ETE_TRBPTR_EL1, s->ptr);
		ete_write(acc, ETE_TRBTRG_EL1, s->trg);
		ete_write(acc, ETE_TRBSR_EL1, s->sr);
		/* the TRBE reads those once enabled: trbe_enable_local() */
		ete_sync(acc, ETE_SYNC_ISB);
		ete_write(acc, ETE_TRBLIMITR_EL1, s->limitr | TRBE_LIMITR_E);
		ete_sync(acc, ETE_SYNC_ISB);
		/* 2038923: a second context synchronization after enabling */
		if (tc->errata & BIT(TRBE_ERR_SYNC_AFTER_ENABLE))
			ete_sync(acc, ETE_SYNC_ISB);
		tc->armed = true;
		trbe_flush_resume_local(tc);
	} else if (tc->buf && tc->state == ETE_TRBE_STATE_WAITING) {
		/* The re-arm work gives up on an offline CPU: look again */
		queue_delayed_work(system_unbound_wq, &tc->rearm,
				   TRBE_REARM_DELAY);
	}
out_unlock:
	raw_spin_unlock(&tc->slock);
	if (unmask)
		enable_percpu_irq(tc->drv->irq, IRQ_TYPE_NONE);
}

/**
 * trbe_pm_forget() - the sink's forget: the session ended while offline
 * @priv: the driver instance
 * @cpu: the offline CPU
 *
 * What the TRBE wrote was published at the save, unless an event was
 * pending then (trbe_pm_publish() left it to the handler after a restore
 * that will not come): it is taken now from the saved registers, as a
 * stop takes one.  The stream state changes, and the device's own modes
 * come back as at stop_local() (a configfs profile's trbe/ settings hold
 * for its session only).
 *
 * Context: process context, @cpu offline, CPU hotplug lock held.
 */
void trbe_pm_forget(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);
	unsigned long flags;

	if (!tc)
		return;
	raw_spin_lock_irqsave(&tc->slock, flags);
	if (tc->pm.saved && tc->pm.armed && tc->buf &&
	    (tc->pm.sr & (TRBE_SR_IRQ | TRBE_SR_S)))
		trbe_take_saved_event(tc, tc->pm.sr, tc->pm.ptr);
	if (tc->buf)
		trbe_stream_end(tc);
	tc->pm.saved = false;
	/* trbe.ko's online callback resets the TRBE and unmasks the PPI */
	tc->pm.irq_masked = false;
	tc->flush_deadline = 0;
	tc->in_session = false;
	tc->trfcr_held = false;
	if (tc->buf && (tc->state == ETE_TRBE_STATE_RUNNING ||
			tc->state == ETE_TRBE_STATE_WAITING))
		trbe_stream_set_state(tc, ETE_TRBE_STATE_IDLE);
	trbe_sink_restore(tc);
	raw_spin_unlock_irqrestore(&tc->slock, flags);
}
