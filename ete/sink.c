// SPDX-License-Identifier: GPL-2.0
/*
 * Sinks: where sessions send trace (trbe.ko's buffers, a test sink).  Part
 * of the session layer: the list is under ete_mutex, and withdrawing a
 * sink stops the sessions that use it (session.c).  A driver may register
 * several instances with the same callbacks (one per TRBE node), told
 * apart by their private data.
 */

#include <linux/cpu.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include <ete/core.h>
#include <ete/sink.h>

static LIST_HEAD(ete_sinks);

/**
 * ete_sink_find() - the sink of a CPU, pinned (a module reference)
 * @cpu: the CPU
 * @only: this sink's callbacks only, or NULL for any
 *
 * Context: under ete_mutex.
 * Return: @only's registration present on @cpu if given, else the first
 * registered sink present there; NULL if none is.
 */
struct ete_sink *ete_sink_find(int cpu, const struct ete_sink_ops *only)
{
	struct ete_sink *s;

	list_for_each_entry(s, &ete_sinks, node)
		if ((!only || s->ops == only) &&
		    s->ops->present(s->priv, cpu) &&
		    try_module_get(s->ops->owner))
			return s;
	return NULL;
}

/**
 * ete_sink_trfcr() - the TRFCR value to write for a unit's session now
 * @u: the unit, with a session and its sink
 * @trfcr: the session's value (@u->img.trfcr)
 *
 * The sink's &ete_sink_ops.trfcr_local decides: trace stays prohibited
 * while the sink does not collect (I.12(2)).
 *
 * Context: on @u->cpu with IRQs disabled; does not sleep.
 * Return: the value to write.
 */
u64 ete_sink_trfcr(struct ete_unit *u, u64 trfcr)
{
	if (u->sink->trfcr_local)
		return u->sink->trfcr_local(u->sink_priv, u->cpu, trfcr);
	return trfcr;
}

int ete_sink_register(const struct ete_sink_ops *ops, void *priv)
{
	struct ete_sink *s;

	if (!ops->present || !ops->start_local || !ops->stop_local ||
	    !ops->reader_sees_kernel)
		return -EINVAL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->ops = ops;
	s->priv = priv;
	mutex_lock(&ete_mutex);
	list_add_tail(&s->node, &ete_sinks);
	mutex_unlock(&ete_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(ete_sink_register);

void ete_sink_unregister(const struct ete_sink_ops *ops, void *priv)
{
	struct ete_sink *s, *tmp;
	int cpu;

	mutex_lock(&ete_mutex);
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		struct ete_unit *u = ete_unit_of(cpu);

		if (u && u->sess && u->sink == ops && u->sink_priv == priv)
			ete_session_stop_cpu(u);
	}
	cpus_read_unlock();
	list_for_each_entry_safe(s, tmp, &ete_sinks, node) {
		if (s->ops == ops && s->priv == priv) {
			list_del(&s->node);
			kfree(s);
		}
	}
	mutex_unlock(&ete_mutex);
}
EXPORT_SYMBOL_GPL(ete_sink_unregister);
