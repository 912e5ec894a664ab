// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU's session ended by its sink: the sink reports an error from any
 * context (ete_session_cpu_error(), the unit's error work then stops the
 * session that was running: ete_session_handle_error()), or withdraws from
 * the CPU at once (ete_session_sink_detach(), trbe.ko's last close).  The
 * unit keeps the error for its status file.
 */

#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include <ete/core.h>

void ete_session_cpu_error(int cpu, int err)
{
	struct ete_unit *u;

	rcu_read_lock();
	u = ete_unit_of(cpu);
	/*
	 * The report names the session running now: by the time the work
	 * runs, that session may have ended and another started on the CPU.
	 */
	if (u)
		ete_unit_report_error(u, err, READ_ONCE(u->sess_gen));
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(ete_session_cpu_error);

bool ete_session_sink_detach(const struct ete_sink_ops *ops, int cpu,
			     int err)
{
	struct ete_unit *u;
	bool ret = false;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return false;
	mutex_lock(&ete_mutex);
	u = ete_unit_of(cpu);
	if (u && u->sess && u->sink == ops) {
		cpus_read_lock();
		ete_session_stop_cpu(u);
		cpus_read_unlock();
		ete_unit_set_error(u, err, "the trace buffer was released");
		ret = true;
	}
	mutex_unlock(&ete_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(ete_session_sink_detach);

/**
 * ete_session_handle_error() - stop a unit after its sink failed
 * @u: the unit
 * @err: the sink's error
 * @gen: the session generation (&ete_unit.sess_gen) the error belongs to
 *
 * Only the session that was running when the error was reported is
 * stopped; a later session on the same CPU is left alone.
 *
 * Context: process context (the unit's error work); takes ete_mutex.
 */
void ete_session_handle_error(struct ete_unit *u, int err, unsigned long gen)
{
	mutex_lock(&ete_mutex);
	if (err && u->sess && !u->gone && u->sess_gen == gen) {
		cpus_read_lock();
		ete_session_stop_cpu(u);
		cpus_read_unlock();
		ete_unit_set_error(u, err, "the trace sink reported an error");
	}
	mutex_unlock(&ete_mutex);
}
