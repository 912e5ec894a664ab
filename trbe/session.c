// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions and the sink: how a buffer gets a running TRBE.
 *
 * ete.ko owns the CPUs (include/ete/sink.h): /dev/trbe<N>'s START ioctl
 * asks it for a one-CPU session, and a configfs profile may start several
 * CPUs together; either way ete.ko calls this sink's start_local() on each
 * CPU before enabling its trace unit, and stop_local() after disabling it
 * (TRBE first, trace unit last on the way down: 004 section 5.1).
 */

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/smp.h>

#include <ete/sink.h>
#include "drv.h"

/**
 * trbe_cpu_geom() - the arithmetic's geometry for a CPU's buffer and modes
 * @tc: the CPU, with a buffer
 * @g: filled in; trbe_geom_valid() says whether the TRBE can use it
 *
 * Context: tc->lock or tc->slock held (the buffer stays); no side effect.
 */
void trbe_cpu_geom(const struct trbe_cpu *tc, struct trbe_geom *g)
{
	g->size = tc->buf->size;
	g->page = PAGE_SIZE;
	g->align = max_t(u64, tc->id.align, 1);
	/* 2119858/2139208 need a page-aligned base (coresight-trbe.c) */
	if (tc->errata & BIT(TRBE_ERR_OVERWRITE_FILL))
		g->align = PAGE_SIZE;
	g->wmark = min(tc->cfg.wmark ?: g->size / 2, g->size);
	g->errata = tc->errata;
	/*
	 * "drop" makes room for a watermark's chunk: no more than it always
	 * can (0 if nothing can, and trbe_geom_valid() refuses the buffer)
	 */
	if (tc->cfg.policy == TRBE_POLICY_DROP)
		g->wmark = min(g->wmark, trbe_drop_wmark_max(g));
}

static bool trbe_sink_present(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);

	return tc && READ_ONCE(tc->present) && READ_ONCE(tc->buf) &&
	       !READ_ONCE(tc->closing);
}

/*
 * &ete_sink_ops.reader_sees_kernel: the opener of this CPU's buffer had
 * the privilege at open() (trbe_open()).  The buffer cannot change under
 * a session: the last close detaches the session before it goes.
 */
static bool trbe_sink_reader_sees_kernel(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);
	unsigned long flags;
	bool ret;

	if (!tc)
		return false;
	raw_spin_lock_irqsave(&tc->slock, flags);
	ret = tc->buf && tc->buf->reader_sees_kernel;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	return ret;
}

static bool trbe_mode_valid(s64 mode)
{
	return mode == 0 || mode == 1 || mode == 3;	/* FM and TM alike */
}

/*
 * &ete_sink_ops.check: whether this CPU can take a configfs profile's
 * settings.  The buffer exists while the device is open, with the size
 * configured then (buffer_size cannot change while open).
 */
static int trbe_sink_check(void *priv, int cpu,
			   const struct ete_sink_settings *s,
			   const char **field)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);

	if (!tc)
		return -ENODEV;
	if (s->buffer_size && s->buffer_size != READ_ONCE(tc->cfg.size)) {
		*field = "buffer_size";
		return -EINVAL;
	}
	if (s->fill_mode != ETE_SINK_UNSET && !trbe_mode_valid(s->fill_mode)) {
		*field = "fill_mode";
		return -EINVAL;
	}
	if (s->trigger_mode != ETE_SINK_UNSET &&
	    !trbe_mode_valid(s->trigger_mode)) {
		*field = "trigger_mode";
		return -EINVAL;
	}
	if (s->trigger_count > U32_MAX) {
		*field = "trigger_count";
		return -ERANGE;
	}
	return 0;
}

/* A session's settings replace the modes until stop.  Under tc->slock. */
static void trbe_sink_override(struct trbe_cpu *tc,
			       const struct ete_sink_settings *s)
{
	tc->saved_cfg = tc->cfg;
	tc->cfg_override = true;
	if (s->fill_mode != ETE_SINK_UNSET)
		tc->cfg.fm = s->fill_mode;
	if (s->trigger_mode != ETE_SINK_UNSET)
		tc->cfg.tm = s->trigger_mode;
	if (s->trigger_count != ETE_SINK_UNSET)
		tc->cfg.trig_count = s->trigger_count;
}

static int trbe_sink_start(void *priv, int cpu,
			   const struct ete_sink_settings *s)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);
	int ret = 0;

	if (!tc)
		return -ENODEV;
	raw_spin_lock(&tc->slock);
	/* The check trbe_session_release_buf() relies on: under tc->slock */
	if (!tc->present || !tc->buf || tc->closing) {
		ret = -ENODEV;
		goto out_unlock;
	}
	if (tc->armed) {
		ret = -EBUSY;
		goto out_unlock;
	}
	if (s)
		trbe_sink_override(tc, s);
	/* The session's geometry: the modes are fixed until stop_local() */
	trbe_cpu_geom(tc, &tc->geom);
	if (!trbe_geom_valid(&tc->geom)) {
		trbe_sink_restore(tc);
		ret = -EINVAL;
		goto out_unlock;
	}
	trbe_stream_begin(tc);
	tc->trg_fresh = true;
	tc->trg_hit = false;
	tc->in_session = true;
	tc->pm.saved = false;
	/* A new session is not the continuation of the last one */
	tc->gap_pending = tc->head ? ETE_TRBE_GAP_SESSION : 0;
	trbe_stream_set_state(tc, ETE_TRBE_STATE_RUNNING);
	if (tc->cfg.fm != TRBE_FM_FILL && tc->gap_pending) {
		trbe_stream_gap(tc, tc->head, ETE_TRBE_LOST_UNKNOWN,
				tc->gap_pending);
		tc->gap_pending = 0;
	}
	trbe_arm_local(tc);
out_unlock:
	raw_spin_unlock(&tc->slock);
	return ret;
}

static int trbe_sink_start_local(void *priv, int cpu)
{
	return trbe_sink_start(priv, cpu, NULL);
}

static int trbe_sink_start_local_with(void *priv, int cpu,
				      const struct ete_sink_settings *s)
{
	return trbe_sink_start(priv, cpu, s);
}

static u64 trbe_sink_trfcr_local(void *priv, int cpu, u64 trfcr)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);

	if (!tc)
		return trfcr;
	raw_spin_lock(&tc->slock);
	trfcr = trbe_trace_gate_local(tc, trfcr);
	raw_spin_unlock(&tc->slock);
	return trfcr;
}

static void trbe_sink_stop_local(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);

	if (!tc)
		return;
	raw_spin_lock(&tc->slock);
	tc->in_session = false;
	tc->trfcr_held = false;
	if (tc->buf) {
		trbe_disarm_local(tc);
		trbe_stream_end(tc);
		if (tc->state == ETE_TRBE_STATE_RUNNING ||
		    tc->state == ETE_TRBE_STATE_WAITING)
			trbe_stream_set_state(tc, ETE_TRBE_STATE_IDLE);
	}
	trbe_sink_restore(tc);
	raw_spin_unlock(&tc->slock);
}

static const struct ete_sink_ops trbe_sink_ops = {
	.owner = THIS_MODULE,
	.name = "trbe",
	.present = trbe_sink_present,
	.start_local = trbe_sink_start_local,
	.stop_local = trbe_sink_stop_local,
	.reader_sees_kernel = trbe_sink_reader_sees_kernel,
	.save_local = trbe_pm_save_local,
	.restore_local = trbe_pm_restore_local,
	.forget = trbe_pm_forget,
	.check = trbe_sink_check,
	.start_local_with = trbe_sink_start_local_with,
	.trfcr_local = trbe_sink_trfcr_local,
};

/**
 * trbe_sink_register() - offer the TRBE buffers to ete.ko's sessions
 * @drv: the driver instance
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno from ete_sink_register().
 */
int trbe_sink_register(struct trbe_drv *drv)
{
	return ete_sink_register(&trbe_sink_ops, drv);
}

/**
 * trbe_sink_unregister() - withdraw the sink; stops every session
 * @drv: the driver instance
 *
 * Context: process context; sleeps.
 */
void trbe_sink_unregister(struct trbe_drv *drv)
{
	ete_sink_unregister(&trbe_sink_ops, drv);
}

/**
 * trbe_session_start() - the START ioctl: a one-CPU session
 * @tc: the CPU
 * @file: the file that owns the session
 *
 * Context: process context, tc->lock held; sleeps.
 * Return:
 * * 0 on success
 * * -EBUSY if a session runs on this CPU
 * * -ENODEV if the CPU has no usable TRBE
 * * -EINVAL if the buffer geometry does not suit the TRBE
 * * another negative errno from ete_session_start_args()
 */
int trbe_session_start(struct trbe_cpu *tc, struct file *file)
{
	struct ete_session_args args = { };
	struct trbe_geom g;
	int ret;

	if (tc->owner)
		return -EBUSY;
	if (!tc->present)
		return -ENODEV;
	/* EINVAL before ete.ko is asked; trbe_sink_start() checks again */
	trbe_cpu_geom(tc, &g);
	if (!trbe_geom_valid(&g))
		return -EINVAL;
	/* This file's buffer, never another sink present on the CPU */
	args.who = "trbe";
	args.only_sink = &trbe_sink_ops;
	args.tasks = tc->tasks;
	ret = ete_session_start_args(cpumask_of(tc->cpu), &args, &tc->sess);
	if (ret)
		return ret;
	tc->owner = file;
	return 0;
}

/**
 * trbe_session_stop() - end the session this CPU's file started, if any
 * @tc: the CPU
 *
 * Trace unit first, then the TRBE (ete_session_stop() calls
 * stop_local()), which publishes the last data.
 *
 * Context: process context, tc->lock held; sleeps.
 */
void trbe_session_stop(struct trbe_cpu *tc)
{
	if (!tc->owner)
		return;
	ete_session_stop(tc->sess);
	tc->sess = NULL;
	tc->owner = NULL;
	cancel_delayed_work_sync(&tc->rearm);
}

static void trbe_snapshot_one(void *info)
{
	struct trbe_cpu *tc = info;

	raw_spin_lock(&tc->slock);
	if (tc->armed)
		trbe_snapshot_local(tc);
	raw_spin_unlock(&tc->slock);
}

/**
 * trbe_session_snapshot() - the SNAPSHOT ioctl
 * @tc: the CPU
 *
 * Context: process context, tc->lock held; sleeps.
 * Return: 0, -EINVAL when this file runs no session, -ENODEV while the
 * CPU is offline (its TRBE saved, nothing to publish until it is back).
 */
int trbe_session_snapshot(struct trbe_cpu *tc)
{
	if (!tc->owner)
		return -EINVAL;
	if (smp_call_function_single(tc->cpu, trbe_snapshot_one, tc, 1))
		return -ENODEV;
	return 0;
}

static void trbe_flush_kick_one(void *info)
{
	struct trbe_cpu *tc = info;
	u64 t0 = trbe_busy_begin();

	raw_spin_lock(&tc->slock);
	if (tc->armed && tc->buf && !tc->flush_on)
		trbe_flush_start(tc);
	raw_spin_unlock(&tc->slock);
	trbe_busy_end(&tc->stats, t0);
}

/**
 * trbe_session_want_data() - a reader is about to wait for data
 * @tc: the CPU
 *
 * The flush timer runs only while it has something to do (hw.c,
 * trbe_flush_next_ns()); a reader waiting in poll() or a blocking read()
 * is one such thing.  The caller is on &trbe_cpu.wq already, so a timer
 * that stops after this look saw the reader (wq_has_sleeper() under
 * tc->slock); one that stopped before is started again here, on its CPU.
 * One cross-CPU call per wait at most, none while the timer runs.
 *
 * Context: process context; tc->slock not held.
 */
void trbe_session_want_data(struct trbe_cpu *tc)
{
	unsigned long flags;
	bool kick;

	if (!trbe_flush_enabled())
		return;
	raw_spin_lock_irqsave(&tc->slock, flags);
	kick = tc->armed && tc->buf && !tc->flush_on &&
	       tc->cfg.fm == TRBE_FM_FILL;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	if (kick)
		smp_call_function_single(tc->cpu, trbe_flush_kick_one, tc, 1);
}

struct trbe_flush_req {
	struct trbe_cpu *tc;
	int ret;
};

static void trbe_flush_one(void *info)
{
	struct trbe_flush_req *req = info;
	struct trbe_cpu *tc = req->tc;
	u64 t0 = trbe_busy_begin();

	raw_spin_lock(&tc->slock);
	if (!tc->in_session || !tc->buf)
		req->ret = -EINVAL;
	else if (tc->cfg.fm != TRBE_FM_FILL)
		req->ret = -EOPNOTSUPP;
	else
		trbe_flush_now_local(tc);
	raw_spin_unlock(&tc->slock);
	trbe_busy_end(&tc->stats, t0);
}

/**
 * trbe_session_flush() - the FLUSH ioctl
 * @tc: the CPU, its device open
 *
 * Publishes what the TRBE wrote so far in any session using the buffer
 * (the file's, or a configfs or sysfs one), and wakes the readers.
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL when no session uses the buffer, -EOPNOTSUPP in
 * wrap and circular modes (SNAPSHOT publishes those), -ENODEV while the
 * CPU is offline (what it wrote was published when it went down).
 */
int trbe_session_flush(struct trbe_cpu *tc)
{
	struct trbe_flush_req req = { .tc = tc };

	if (smp_call_function_single(tc->cpu, trbe_flush_one, &req, 1))
		return -ENODEV;
	return req.ret;
}

/**
 * trbe_session_set_wake_mark() - the SET_WATERMARK ioctl
 * @tc: the CPU, its device open
 * @mark: bytes unread that wake readers, 0 for the default
 *
 * Context: process context.
 * Return: 0, or -ERANGE above the buffer size (the old value kept).
 */
int trbe_session_set_wake_mark(struct trbe_cpu *tc, u64 mark)
{
	unsigned long flags;

	if (mark > tc->buf->size)
		return -ERANGE;
	raw_spin_lock_irqsave(&tc->slock, flags);
	tc->wake_mark = mark;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	return 0;
}

/**
 * trbe_session_wake_mark() - the GET_WATERMARK ioctl
 * @tc: the CPU, its device open
 *
 * Context: process context, tc->lock held (the configuration stays).
 * Return: the watermark in force: the file's, or the geometry's (that of
 * the running session, else the one the next session gets).
 */
u64 trbe_session_wake_mark(struct trbe_cpu *tc)
{
	struct trbe_geom g;
	unsigned long flags;
	u64 mark;

	trbe_cpu_geom(tc, &g);
	raw_spin_lock_irqsave(&tc->slock, flags);
	mark = tc->wake_mark;
	if (!mark)
		mark = tc->in_session ? tc->geom.wmark : g.wmark;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	return mark;
}

static void trbe_rearm_one(void *info)
{
	struct trbe_cpu *tc = info;
	u64 t0 = trbe_busy_begin();

	raw_spin_lock(&tc->slock);
	if (tc->buf && !tc->closing && tc->state == ETE_TRBE_STATE_WAITING &&
	    !tc->armed && trbe_arm_local(tc)) {
		trbe_stream_set_state(tc, ETE_TRBE_STATE_RUNNING);
		/* the TRBE first, then trace (I.12(2)) */
		trbe_trace_release_local(tc);
	}
	raw_spin_unlock(&tc->slock);
	trbe_busy_end(&tc->stats, t0);
}

/*
 * Whether the TRBE could be armed is a function of the head, the reader's
 * tail, the lost tail and the geometry; in WAITING only the tail moves.
 * So the traced CPU is interrupted only once the tail has moved since the
 * last try; until then the work looks again, less and less often (up to
 * TRBE_REARM_MAX).  trbe_arm_local() queues it again while there is no
 * room.
 */
static void trbe_rearm_work(struct work_struct *work)
{
	struct trbe_cpu *tc = container_of(to_delayed_work(work),
					   struct trbe_cpu, rearm);
	bool waiting, moved;
	unsigned long flags;

	WRITE_ONCE(tc->rearm_looks, tc->rearm_looks + 1);
	raw_spin_lock_irqsave(&tc->slock, flags);
	waiting = tc->buf && !tc->closing && !tc->armed &&
		  tc->state == ETE_TRBE_STATE_WAITING;
	moved = waiting && trbe_stream_tail(tc) != tc->rearm_tail;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	if (moved) {
		tc->rearm_delay = TRBE_REARM_DELAY;
		WRITE_ONCE(tc->rearm_calls, tc->rearm_calls + 1);
		smp_call_function_single(tc->cpu, trbe_rearm_one, tc, 1);
	} else if (waiting) {
		tc->rearm_delay = clamp(2 * tc->rearm_delay,
					(unsigned long)TRBE_REARM_DELAY,
					TRBE_REARM_MAX);
		queue_delayed_work(system_unbound_wq, &tc->rearm,
				   tc->rearm_delay);
	}
}

/**
 * trbe_session_kick() - the reader moved: re-arm a waiting TRBE soon
 * @tc: the CPU
 *
 * Context: process context.
 */
void trbe_session_kick(struct trbe_cpu *tc)
{
	if (READ_ONCE(tc->state) == ETE_TRBE_STATE_WAITING)
		mod_delayed_work(system_unbound_wq, &tc->rearm, 0);
}

static int trbe_rearm_stats_show(struct seq_file *s, void *unused)
{
	struct trbe_cpu *tc = s->private;

	seq_printf(s, "rearm_looks %lu\nrearm_calls %lu\n",
		   READ_ONCE(tc->rearm_looks), READ_ONCE(tc->rearm_calls));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(trbe_rearm_stats);

/**
 * trbe_session_debugfs_add() - the CPU's counters under debugfs
 * @tc: the CPU
 * @root: the module's debugfs directory (may be an error pointer)
 *
 * How often the re-arm work looked at a waiting session, and how often it
 * called the traced CPU: for whoever wonders what a session that waits
 * for its reader costs that CPU (nothing, until the reader moves).
 *
 * Context: process context.
 */
void trbe_session_debugfs_add(struct trbe_cpu *tc, struct dentry *root)
{
	char name[16];

	snprintf(name, sizeof(name), "cpu%d", tc->cpu);
	tc->dbg = debugfs_create_file(name, 0400, root, tc,
				      &trbe_rearm_stats_fops);
}

/**
 * trbe_session_init() - set up a CPU's session state
 * @tc: the CPU
 *
 * Context: process context.
 */
void trbe_session_init(struct trbe_cpu *tc)
{
	INIT_DELAYED_WORK(&tc->rearm, trbe_rearm_work);
}

/**
 * trbe_session_release_buf() - free the buffer at the last close
 * @tc: the CPU; the file's own session is stopped
 *
 * A session this file did not start (a configfs profile, the sysfs
 * "enable" file) may be using the buffer, armed, waiting for the reader
 * (fill mode, WAITING) or saved on an offline CPU.  Under tc->slock,
 * @closing makes trbe_sink_start() refuse this buffer from now on, so
 * whatever ete.ko does next, nothing arms it again; ete.ko then takes the
 * CPU out of that session before returning (the trace unit disabled, the
 * TRBE disarmed by stop_local(), or the saved state forgotten), and the
 * re-arm work and the flush timer are stopped.  Only then is the buffer
 * freed: no TRBE, timer or work item can reach it.
 *
 * Context: process context, tc->lock held; sleeps.
 */
void trbe_session_release_buf(struct trbe_cpu *tc)
{
	struct trbe_buf *buf;
	unsigned long flags;

	raw_spin_lock_irqsave(&tc->slock, flags);
	tc->closing = true;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	ete_session_sink_detach(&trbe_sink_ops, tc->cpu, -ENODEV);
	cancel_delayed_work_sync(&tc->rearm);
	hrtimer_cancel(&tc->flush);

	raw_spin_lock_irqsave(&tc->slock, flags);
	tc->flush_on = false;
	buf = tc->buf;
	tc->buf = NULL;
	tc->closing = false;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	trbe_buf_free(buf);
}
