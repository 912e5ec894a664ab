// SPDX-License-Identifier: GPL-2.0
/*
 * The fill-mode flush timer: publishes what the TRBE wrote and moves its
 * limit on, on the owning CPU (hard-IRQ hrtimer, pinned), at a period the
 * data rate sets (trbe_flush_next_ns()).  Across a CPU power-down the
 * timer keeps its deadline (trbe_flush_save_local(),
 * trbe_flush_resume_local()): a CPU that idles more often than the period
 * still moves its limit on.
 *
 * Context: as hw.c (tc->slock held, on tc->cpu, IRQs disabled) unless a
 * function says otherwise.
 */

#include <linux/hrtimer.h>
#include <linux/kstrtox.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>

#include <ete/compat.h>

#include "drv.h"

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

/**
 * trbe_flush_save_local() - stop the flush timer for a power-down
 * @tc: the CPU, its TRBE being saved
 *
 * The timer is pinned to a CPU that is about to lose power or go offline:
 * it stops, and its deadline is kept for trbe_flush_resume_local().
 * Restarting it at the restore for a whole period, as a new session's
 * first one, would starve a CPU that idles more often than the period:
 * the limit would never move and the TRBE would stop there.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_flush_save_local(struct trbe_cpu *tc)
{
	tc->flush_deadline = 0;
	if (hrtimer_try_to_cancel(&tc->flush) == 1 && tc->flush_on)
		tc->flush_deadline = hrtimer_get_expires(&tc->flush);
	tc->flush_on = false;
}

/**
 * trbe_flush_resume_local() - the flush timer again after a power-down
 * @tc: the CPU, its TRBE restored armed
 *
 * At the deadline trbe_flush_save_local() kept (at once if it has
 * passed); if the timer was not running then, as trbe_flush_start() does.
 *
 * Context: on tc->cpu, IRQs disabled, tc->slock held.
 */
void trbe_flush_resume_local(struct trbe_cpu *tc)
{
	ktime_t deadline = tc->flush_deadline;

	tc->flush_deadline = 0;
	if (!deadline || !READ_ONCE(trbe_flush_us) ||
	    tc->cfg.fm != TRBE_FM_FILL || hrtimer_active(&tc->flush)) {
		trbe_flush_start(tc);
		return;
	}
	tc->flush_on = true;
	hrtimer_start(&tc->flush, deadline, HRTIMER_MODE_ABS_PINNED_HARD);
}
