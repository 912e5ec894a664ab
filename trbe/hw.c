// SPDX-License-Identifier: GPL-2.0
/*
 * TRBE programming on the owning CPU: arm, drain, disarm, and the
 * interrupt handler.
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

#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kstrtox.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

#include <ete/compat.h>
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

/*
 * End of a prohibited region taken while the TRBE was armed in a session
 * (a flush, a snapshot, the interrupt): trace is allowed again only if
 * the TRBE collects.  If it ends disabled (waiting for room, stopped by a
 * trigger, a fault) trace stays prohibited, with the trace unit enabled,
 * until it is armed again (trbe_trace_release_local()) or the session
 * stops: trace allowed with the TRBE disabled would go to the trace bus,
 * where no sink may be listening and the PE may hang (I.12(2)).
 */
static void trbe_allow_local(struct trbe_cpu *tc, u64 trfcr)
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
 * Fill mode publishes data by a flush timer that runs on demand (see
 * trbe_flush_next_ns()): trbe_flush_us microseconds is its shortest
 * period; 0 switches it off (data is then published when the TRBE stops,
 * and on SNAPSHOT, FLUSH and STOP).  The period is bounded: a timer of a
 * few microseconds in hard IRQ context, each firing a drain, would leave
 * the CPU nothing else.
 */
#define TRBE_FLUSH_US_MIN	100
#define TRBE_FLUSH_US_MAX	USEC_PER_SEC
/* The longest period while trace flows: this many shortest ones, <= 1 s */
#define TRBE_FLUSH_STRETCH	20

static unsigned int trbe_flush_us = 5000;

static int trbe_flush_us_set(const char *val, const struct kernel_param *kp)
{
	unsigned int us;
	int ret = kstrtouint(val, 0, &us);

	if (ret)
		return ret;
	if (us && (us < TRBE_FLUSH_US_MIN || us > TRBE_FLUSH_US_MAX))
		return -ERANGE;
	WRITE_ONCE(trbe_flush_us, us);
	return 0;
}

static const struct kernel_param_ops trbe_flush_us_ops = {
	.set = trbe_flush_us_set,
	.get = param_get_uint,
};
module_param_cb(flush_us, &trbe_flush_us_ops, &trbe_flush_us, 0644);
MODULE_PARM_DESC(flush_us, "fill mode: publish period in microseconds, 0 (off) or 100-1000000");

/* The period, read once per use: the parameter may change at any time */
static ktime_t trbe_flush_period(unsigned int us)
{
	return ns_to_ktime((u64)us * NSEC_PER_USEC);
}

/**
 * trbe_flush_enabled() - whether flush_us lets the flush timer run
 *
 * Context: any.
 * Return: false when flush_us is 0.
 */
bool trbe_flush_enabled(void)
{
	return READ_ONCE(trbe_flush_us);
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
static u64 trbe_ptr_pos_at(struct trbe_cpu *tc, u64 ptr, bool wrapped)
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

/*
 * Enable the TRBE again from the head.  Fill mode takes a new window (the
 * errata workarounds apply at every enable); wrap and circular modes go on
 * where they stopped.
 */
static void trbe_resume_local(struct trbe_cpu *tc, u64 head)
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

/*
 * Should the flush move the limit on?  When the room ahead of the TRBE is
 * under a watermark and either the reader has freed more, or the policy is
 * "drop" (which makes room).  Only then: on cores with 2119858/2139208 each
 * re-arm costs a padded page start.
 */
static bool trbe_flush_rearm(struct trbe_cpu *tc)
{
	struct trbe_window w;
	int ret;

	if (tc->win.limit - tc->head >= tc->geom.wmark)
		return false;
	if (tc->cfg.policy == TRBE_POLICY_DROP)
		return true;
	ret = trbe_fill_window(&tc->geom, tc->head, trbe_stream_tail(tc), &w);
	return !ret && w.limit > tc->win.limit;
}

/*
 * Fill mode, running: publish what the TRBE wrote so far and move the
 * limit on (trbe_flush_rearm()).  The TRBE then stops only when the
 * reader is behind.
 */
static void trbe_flush_local(struct trbe_cpu *tc)
{
	u64 trfcr = trbe_prohibit_local(&tc->acc);
	u64 sr;

	/* TRBSR and TRBPTR read with the TRBE enabled: trbe_drain_local() */
	trbe_drain_local(tc);
	sr = ete_read(&tc->acc, ETE_TRBSR_EL1);
	/* An event is pending: the interrupt handler takes it from here */
	if (!(sr & (TRBE_SR_IRQ | TRBE_SR_S))) {
		trbe_stream_publish(tc, trbe_ptr_pos(tc, false));
		if (trbe_flush_rearm(tc)) {
			trbe_disable_local(tc);
			trbe_arm_local(tc);
		} else if (tc->win.limit - tc->head < tc->geom.wmark &&
			   tc->head != trbe_stream_tail(tc)) {
			/* Room ahead only once the reader reads: wake it */
			tc->wake_upto = tc->head;
			irq_work_queue(&tc->wake);
		}
	}
	trbe_allow_local(tc, trfcr);
}

/**
 * trbe_flush_now_local() - ETE_TRBE_IOC_FLUSH: publish now, wake readers
 * @tc: the CPU, in a fill-mode session
 *
 * What the TRBE wrote so far is published as the timer's flush does
 * (moving the limit on when the room ahead is short, with its padding);
 * a TRBE waiting for the reader has nothing unpublished.  The readers
 * are woken whatever the watermark.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_flush_now_local(struct trbe_cpu *tc)
{
	if (tc->armed) {
		trbe_flush_local(tc);
		trbe_stat_add(&tc->stats.flushes, 1);
	}
	tc->wake_upto = tc->head;
	irq_work_queue(&tc->wake);
}

/*
 * When the flush should run next, in ns from now, or 0 to stop (issue 19:
 * a flush costs the traced CPU a prohibited region and a drain, and most
 * published nothing anyone waited for).  A flush is needed for two things
 * only: to wake a reader waiting in poll() or read() once the watermark's
 * worth is unread, and to move the limit on before the TRBE reaches it
 * (a stop there loses trace; trbe_flush_rearm()).  The rate since the last
 * flush says when the first of the two comes: the next flush is then, the
 * room ahead counted at a quarter (the rate may rise, the reader may be
 * late to free room, the timer late to run), clamped to
 * [flush_us, TRBE_FLUSH_STRETCH * flush_us].  The period at most doubles
 * from one run to the next: a rate measured over the first few
 * microseconds of a session (the trace unit may not have started yet)
 * must not put the next run past the limit.  A run that could not move
 * the limit on with less than a watermark of room left (the reader is
 * behind) wakes the reader and comes back after the shortest period, as
 * the timer always did.  With nothing published
 * since the last run the period doubles too; once it is the longest and
 * still nothing came, and no reader waits, nothing is pending: the timer
 * stops.  The next arm of the TRBE, a waiting reader
 * (trbe_session_want_data()) or FLUSH starts it again.
 *
 * Context: the flush timer, tc->slock held, the TRBE armed.
 */
static u64 trbe_flush_next_ns(struct trbe_cpu *tc, unsigned int us)
{
	u64 now = ktime_get_ns(), dt = now - tc->flush_last_ns;
	u64 db = tc->head - tc->flush_last_head;
	u64 lo = (u64)us * NSEC_PER_USEC;
	u64 hi = min_t(u64, lo * TRBE_FLUSH_STRETCH, NSEC_PER_SEC);
	u64 grow = max(2 * tc->flush_period, lo);
	bool waiting = wq_has_sleeper(&tc->wq);
	u64 need, unread, mark, next;

	tc->flush_last_ns = now;
	tc->flush_last_head = tc->head;
	if (!db) {
		if (!waiting && tc->flush_period >= hi)
			return 0;
		next = grow;
	} else if (tc->win.limit - tc->head < tc->geom.wmark) {
		/* the limit could not move on: again soon, the reader woken */
		next = lo;
	} else {
		need = (tc->win.limit - tc->head) / 4;
		if (waiting) {
			unread = tc->head - trbe_stream_tail(tc);
			mark = trbe_wake_mark(tc);
			need = min(need, unread < mark ? mark - unread : mark);
		}
		next = min(mul_u64_u64_div_u64(need, dt, db), grow);
	}
	tc->flush_period = clamp(next, lo, hi);
	return tc->flush_period;
}

static enum hrtimer_restart trbe_flush_fn(struct hrtimer *t)
{
	struct trbe_cpu *tc = container_of(t, struct trbe_cpu, flush);
	/* flush_us set to 0 meanwhile: stop, never a zero period */
	unsigned int us = READ_ONCE(trbe_flush_us);
	u64 next = 0, t0 = trbe_busy_begin();
	bool more;

	raw_spin_lock(&tc->slock);
	more = tc->armed && tc->buf && tc->cfg.fm == TRBE_FM_FILL;
	if (more) {
		trbe_flush_local(tc);
		trbe_stat_add(&tc->stats.flushes, 1);
	}
	if (more && tc->armed && us)
		next = trbe_flush_next_ns(tc, us);
	/* under slock: trbe_session_want_data() reads it to kick the timer */
	tc->flush_on = next != 0;
	raw_spin_unlock(&tc->slock);
	trbe_busy_end(&tc->stats, t0);
	if (!next)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(next));
	return HRTIMER_RESTART;
}

/**
 * trbe_flush_start() - start the flush timer on this CPU
 * @tc: the CPU
 *
 * Unless flush_us is 0, the mode is not fill, or the timer runs already.
 * The first expiry is after the shortest period: the rate is not known.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_flush_start(struct trbe_cpu *tc)
{
	unsigned int us = READ_ONCE(trbe_flush_us);

	if (!us || tc->cfg.fm != TRBE_FM_FILL)
		return;
	tc->flush_on = true;
	if (hrtimer_active(&tc->flush))
		return;
	tc->flush_last_ns = ktime_get_ns();
	tc->flush_last_head = tc->head;
	tc->flush_period = (u64)us * NSEC_PER_USEC;
	hrtimer_start(&tc->flush, trbe_flush_period(us),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * trbe_flush_stop_local() - stop the flush timer on this CPU
 * @tc: the CPU
 *
 * Pinned here and IRQs are off: the callback is not running.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_flush_stop_local(struct trbe_cpu *tc)
{
	hrtimer_try_to_cancel(&tc->flush);
	tc->flush_on = false;
}

/**
 * trbe_flush_init() - set up a CPU's flush timer
 * @tc: the CPU
 *
 * Context: process context.
 */
void trbe_flush_init(struct trbe_cpu *tc)
{
	ete_compat_hrtimer_setup(&tc->flush, trbe_flush_fn, CLOCK_MONOTONIC,
				 HRTIMER_MODE_REL_PINNED_HARD);
}

static void trbe_handle_at(struct trbe_cpu *tc, u64 sr, u64 ptr,
			   const struct trbe_status *st, bool go_on);
static void trbe_handle_local(struct trbe_cpu *tc, u64 sr,
			      const struct trbe_status *st, bool go_on);

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

/*
 * The TRBE is drained and disabled.  An event it signalled (TRBSR.IRQ)
 * whose interrupt has not been taken yet (the PPI is pending behind the
 * IRQs this path disabled) is handled here, as the handler would have:
 * a fill stop's gap, a trigger's offset and STOPPED, a fault's last_error
 * and FAULT.  Clearing or overwriting TRBSR without that would lose it.
 * Returns true if there was one; the handler then finds nothing pending
 * and returns IRQ_NONE.
 */
static bool trbe_take_event_local(struct trbe_cpu *tc, u64 sr, bool go_on)
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
 * The TRBE PPI's work.  Order: read TRBSR; not ours -> IRQ_NONE; prohibit trace, TSB CSYNC, DSB
 * (RJLRQH), disable; read TRBPTR; then decide.
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
	if (!tc->present || !tc->buf || !tc->armed) {
		raw_spin_unlock(&tc->slock);
		return IRQ_NONE;
	}
	sr = ete_read(&tc->acc, ETE_TRBSR_EL1);
	st = trbe_status_decode(sr, tc->cfg.fm, tc->cfg.tm);
	if (st.action == TRBE_ACT_NOT_OURS) {
		raw_spin_unlock(&tc->slock);
		return IRQ_NONE;
	}
	trbe_stat_add(&tc->stats.interrupts, 1);
	trfcr = trbe_prohibit_local(&tc->acc);
	trbe_drain_local(tc);
	trbe_disable_local(tc);
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

/**
 * trbe_reset_local() - put the TRBE in its idle state
 * @tc: the CPU
 *
 * Used by CPU hotplug before the interrupt is enabled and after it is
 * disabled: TRBE disabled, status clear.
 *
 * Context: on tc->cpu, IRQs disabled or preemption disabled.
 */
void trbe_reset_local(struct trbe_cpu *tc)
{
	ete_write(&tc->acc, ETE_TRBLIMITR_EL1, 0);
	ete_sync(&tc->acc, ETE_SYNC_ISB);
	ete_write(&tc->acc, ETE_TRBSR_EL1, 0);
	ete_sync(&tc->acc, ETE_SYNC_ISB);
	tc->armed = false;
}
