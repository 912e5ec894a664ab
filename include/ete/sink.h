/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace sinks and trace sessions.
 *
 * ete.ko owns the CPUs: every user of a trace unit (the sysfs "enable"
 * file, the buffer driver's ioctls, configfs profiles) starts and stops
 * tracing through a session, and a CPU belongs to at most one session.
 * A sink is where the trace goes: trbe.ko registers itself here, so that
 * ete.ko calls it without either module linking against the other's
 * symbols at load time in both directions (trbe.ko depends on ete.ko,
 * never the reverse).
 *
 * Ordering (004 section 5.1; rule of the session layer): on each CPU the
 * sink is started before the trace unit is enabled, and the trace unit is
 * disabled, and Stable then Idle, before the sink is stopped.
 */
#ifndef _ETE_SINK_H
#define _ETE_SINK_H

#include <linux/cpumask.h>
#include <linux/types.h>

struct module;
struct ete_session;

/**
 * struct ete_sink_ops - a trace sink (the TRBE driver)
 * @owner: the module providing the sink; pinned while a session uses it
 * @name: short name for logs and the "status" file
 * @present: whether the sink can take trace from @cpu right now (the CPU
 *	has a sink and it is ready: for TRBE, a buffer is set up).  Called
 *	before a session starts; a unit with no present sink is refused
 *	with -ENODEV.  Context: process context, may sleep.
 * @start_local: start the sink on @cpu.  Context: runs on @cpu with IRQs
 *	disabled, before the trace unit of @cpu is enabled; must not sleep.
 *	Return 0 or a negative errno, which fails the session start.
 * @stop_local: stop the sink on @cpu and drain it.  Context: runs on @cpu
 *	with IRQs disabled, after the trace unit is disabled and has reached
 *	Idle (or after a failed enable); must not sleep.
 * @save_local: optional; @cpu is about to lose power (CPU PM, hotplug,
 *	suspend) with a session running.  Called after the trace unit is
 *	disabled by the OS Lock and Idle: prohibit trace in TRFCR and leave
 *	it prohibited (the trace unit's restore writes TRFCR back), drain
 *	(TSB CSYNC, DSB), make what was written readable, save the sink's
 *	state and disable it.  Context: on @cpu with IRQs disabled; must not
 *	sleep, allocate or take a sleeping lock.
 * @restore_local: optional; undo @save_local, before the trace unit is
 *	restored (a trace unit enabled with no enabled sink may hang the PE).
 *	Context: as @save_local.
 * @forget: optional; the session ended while @cpu was offline with its
 *	state saved: drop that state (no register is touched).  Context:
 *	process context, any CPU, CPU hotplug lock held; must not sleep.
 *
 * Every callback receives the @priv given to ete_sink_register().
 */
struct ete_sink_ops {
	struct module *owner;
	const char *name;
	bool (*present)(void *priv, int cpu);
	int (*start_local)(void *priv, int cpu);
	void (*stop_local)(void *priv, int cpu);
	void (*save_local)(void *priv, int cpu);
	void (*restore_local)(void *priv, int cpu);
	void (*forget)(void *priv, int cpu);
};

/**
 * ete_sink_register() - make a sink available to trace sessions
 * @ops: the sink's callbacks; must stay valid until unregistered
 * @priv: passed to every callback
 *
 * Several sinks may be registered (trbe.ko, a test sink): a session uses,
 * on each CPU, the first registered sink whose present() is true there.
 *
 * Context: process context; sleeps.
 * Return:
 * * 0 on success
 * * -EINVAL if @ops lacks a callback
 * * -ENOMEM
 */
int ete_sink_register(const struct ete_sink_ops *ops, void *priv);

/**
 * ete_sink_unregister() - withdraw a sink
 * @ops: the callbacks given to ete_sink_register()
 *
 * Stops, on every CPU where this sink is in use, the trace unit and then
 * the sink, so no callback runs after this returns.  The sessions stay
 * allocated for their owners, who still call ete_session_stop().
 *
 * Context: process context; sleeps.
 */
void ete_sink_unregister(const struct ete_sink_ops *ops);

/**
 * ete_session_start() - start tracing on a set of CPUs, all or none
 * @cpus: the CPUs; each must have a bound trace unit, a present sink and
 *	belong to no other session
 * @who: the owner's name, shown in each unit's "status" (not copied: a
 *	string literal or one that outlives the session)
 * @sessp: receives the session on success
 *
 * Each unit is programmed from its current configuration (the one sysfs
 * shows).  When the caller has neither CAP_PERFMON nor CAP_SYS_ADMIN, the
 * kernel's exception level is filtered out (each unit's status says so).
 * On each CPU, in order: the sink's start_local(), then the trace unit is
 * enabled.  If any CPU fails, the CPUs already started are stopped
 * again (unit, then sink) and nothing stays owned.
 *
 * Context: process context; sleeps (cross-calls each CPU).
 * Return:
 * * 0 on success
 * * -EINVAL if @cpus is empty
 * * -ENODEV if a CPU has no trace unit or no present sink
 * * -EBUSY if a CPU already belongs to a session
 * * -EINVAL if a unit's configuration has conflicting fields (see status)
 * * -ETIMEDOUT if a unit did not leave Idle in time
 * * another negative errno from the sink's start_local()
 */
int ete_session_start(const struct cpumask *cpus, const char *who,
		      struct ete_session **sessp);

/**
 * ete_session_stop() - stop and free a session
 * @sess: the session from ete_session_start()
 *
 * On each CPU: the trace unit is disabled and waited for (Stable, then
 * Idle), then the sink's stop_local() runs.  The CPUs are free afterwards.
 *
 * Context: process context; sleeps.
 */
void ete_session_stop(struct ete_session *sess);

/**
 * ete_session_cpu_error() - report that the sink on a CPU failed
 * @cpu: the CPU
 * @err: a negative errno, shown in the unit's "status"
 *
 * For the sink's interrupt handler: the error is recorded and the trace
 * unit of @cpu is stopped from a workqueue soon after; the session keeps
 * its other CPUs.  The sink must already have stopped itself.
 *
 * Context: any context, including hard IRQ; does not sleep.
 */
void ete_session_cpu_error(int cpu, int err);

#endif /* _ETE_SINK_H */
