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
#include <linux/fs.h>
#include <linux/smp.h>

#include <ete/sink.h>

#include "drv.h"

/**
 * trbe_cpu_geom_update() - derive the arithmetic's geometry
 * @tc: the CPU, with a buffer
 *
 * Context: process context, tc->lock held, TRBE not armed.
 */
void trbe_cpu_geom_update(struct trbe_cpu *tc)
{
	struct trbe_geom *g = &tc->geom;

	g->size = tc->buf->size;
	g->page = PAGE_SIZE;
	g->align = max_t(u64, tc->id.align, 1);
	/* 2119858/2139208 need a page-aligned base (coresight-trbe.c) */
	if (tc->errata & BIT(TRBE_ERR_OVERWRITE_FILL))
		g->align = PAGE_SIZE;
	g->wmark = min(tc->cfg.wmark ?: g->size / 2, g->size);
	g->errata = tc->errata;
}

/**
 * trbe_sink_cpu() - the per-CPU state behind a sink callback
 * @priv: the driver instance
 * @cpu: the CPU
 *
 * Context: any context.
 * Return: the CPU's state, or NULL.
 */
struct trbe_cpu *trbe_sink_cpu(void *priv, int cpu)
{
	struct trbe_drv *drv = priv;

	return cpu < nr_cpu_ids ? drv->cpus[cpu] : NULL;
}

static bool trbe_sink_present(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);

	return tc && READ_ONCE(tc->present) && READ_ONCE(tc->buf);
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

static void trbe_sink_restore(struct trbe_cpu *tc)
{
	if (!tc->cfg_override)
		return;
	tc->cfg.fm = tc->saved_cfg.fm;
	tc->cfg.tm = tc->saved_cfg.tm;
	tc->cfg.trig_count = tc->saved_cfg.trig_count;
	tc->cfg_override = false;
}

static int trbe_sink_start(void *priv, int cpu,
			   const struct ete_sink_settings *s)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);
	struct ete_trbe_mmap_page *hdr;
	int ret = 0;

	if (!tc)
		return -ENODEV;
	raw_spin_lock(&tc->slock);
	if (!tc->present || !tc->buf) {
		ret = -ENODEV;
		goto out_unlock;
	}
	if (tc->armed) {
		ret = -EBUSY;
		goto out_unlock;
	}
	if (s)
		trbe_sink_override(tc, s);
	hdr = tc->buf->hdr;
	hdr->last_error = 0;
	hdr->last_status = 0;
	hdr->trigger_offset = ETE_TRBE_LOST_UNKNOWN;
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

static void trbe_sink_stop_local(void *priv, int cpu)
{
	struct trbe_cpu *tc = trbe_sink_cpu(priv, cpu);

	if (!tc)
		return;
	raw_spin_lock(&tc->slock);
	tc->in_session = false;
	if (tc->buf) {
		trbe_disarm_local(tc);
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
	.save_local = trbe_pm_save_local,
	.restore_local = trbe_pm_restore_local,
	.forget = trbe_pm_forget,
	.check = trbe_sink_check,
	.start_local_with = trbe_sink_start_local_with,
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
	ete_sink_unregister(&trbe_sink_ops);
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
 * * another negative errno from ete_session_start()
 */
int trbe_session_start(struct trbe_cpu *tc, struct file *file)
{
	int ret;

	if (tc->owner)
		return -EBUSY;
	if (!tc->present)
		return -ENODEV;
	trbe_cpu_geom_update(tc);
	if (!trbe_geom_valid(&tc->geom))
		return -EINVAL;
	ret = ete_session_start(cpumask_of(tc->cpu), "trbe", &tc->sess);
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
 * Return: 0, or -EINVAL when this file runs no session.
 */
int trbe_session_snapshot(struct trbe_cpu *tc)
{
	if (!tc->owner)
		return -EINVAL;
	return smp_call_function_single(tc->cpu, trbe_snapshot_one, tc, 1);
}

static void trbe_rearm_one(void *info)
{
	struct trbe_cpu *tc = info;

	raw_spin_lock(&tc->slock);
	if (tc->buf && tc->state == ETE_TRBE_STATE_WAITING && !tc->armed &&
	    trbe_arm_local(tc))
		trbe_stream_set_state(tc, ETE_TRBE_STATE_RUNNING);
	raw_spin_unlock(&tc->slock);
}

static void trbe_rearm_work(struct work_struct *work)
{
	struct trbe_cpu *tc = container_of(to_delayed_work(work),
					   struct trbe_cpu, rearm);

	/* trbe_arm_local() queues this again while there is no room */
	smp_call_function_single(tc->cpu, trbe_rearm_one, tc, 1);
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
		mod_delayed_work(system_wq, &tc->rearm, 0);
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

static void trbe_detach_one(void *info)
{
	struct trbe_cpu *tc = info;

	raw_spin_lock(&tc->slock);
	trbe_disarm_local(tc);
	raw_spin_unlock(&tc->slock);
}

/**
 * trbe_session_release_buf() - make sure no TRBE writes to the buffer
 * @tc: the CPU whose buffer is about to be freed
 *
 * A session this file did not start (a configfs profile) may still use
 * the buffer: disarm the TRBE and tell ete.ko the sink failed there.
 *
 * Context: process context, tc->lock held; sleeps.
 */
void trbe_session_release_buf(struct trbe_cpu *tc)
{
	bool foreign = READ_ONCE(tc->armed);
	unsigned long flags;

	/* Saved on an offline CPU: never to be restored into this buffer */
	raw_spin_lock_irqsave(&tc->slock, flags);
	foreign |= tc->pm.saved;
	tc->pm.saved = false;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	cancel_delayed_work_sync(&tc->rearm);
	/* Offline, the hotplug callback has disarmed it already */
	if (foreign)
		smp_call_function_single(tc->cpu, trbe_detach_one, tc, 1);
	hrtimer_cancel(&tc->flush);
	if (foreign)
		ete_session_cpu_error(tc->cpu, -ENODEV);
}
