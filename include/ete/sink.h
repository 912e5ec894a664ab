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

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/types.h>
#include <linux/user_namespace.h>

#include <ete/caps.h>
#include <ete/config.h>

struct module;
struct ete_session;
struct ete_task_set;

/**
 * ete_file_may_trace_kernel() - whether a file's opener may see the kernel
 * @file: an open file
 *
 * The privilege tracing the kernel's exception levels (or any Secure one)
 * needs, CAP_PERFMON or CAP_SYS_ADMIN as perfmon_capable() asks, judged
 * with the credentials @file was opened with (file->f_cred): not those of
 * a process that uses the file later, which may have been handed it, or
 * be a set-user-ID program reading it for someone.
 *
 * Context: process context.
 * Return: true if the opener had either capability.
 */
static inline bool ete_file_may_trace_kernel(const struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_PERFMON) ||
	       file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
}

/* A sink setting the session leaves as the sink has it */
#define ETE_SINK_UNSET		(-1)

/**
 * struct ete_sink_settings - what a session asks of the sink on each CPU
 * @buffer_size: the CPU's buffer must have this many bytes; 0: any
 * @fill_mode: &enum trbe_fill_mode for the session, or ETE_SINK_UNSET
 * @trigger_mode: &enum trbe_trig_mode for the session, or ETE_SINK_UNSET
 * @trigger_count: bytes collected after a trigger (TRBTRG), or
 *	ETE_SINK_UNSET
 *
 * A configfs profile carries these; the sink applies them for the session
 * only and goes back to its own settings when the session stops.
 */
struct ete_sink_settings {
	u64 buffer_size;
	s64 fill_mode;
	s64 trigger_mode;
	s64 trigger_count;
};

/**
 * ete_sink_settings_empty() - whether settings ask nothing of the sink
 * @s: the settings, or NULL
 *
 * Context: any context.
 * Return: true if every field is left as the sink has it.
 */
static inline bool ete_sink_settings_empty(const struct ete_sink_settings *s)
{
	return !s || (!s->buffer_size && s->fill_mode == ETE_SINK_UNSET &&
		      s->trigger_mode == ETE_SINK_UNSET &&
		      s->trigger_count == ETE_SINK_UNSET);
}

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
 * @check: optional: whether the sink on @cpu can take the settings @s.
 *	Return 0, or -EINVAL/-EOPNOTSUPP with @field set to the name of the
 *	setting refused ("buffer_size"...).  Context: process context, under
 *	the session lock; must not sleep or take the sink's own mutexes.
 *	A sink without @check refuses any non-empty settings.
 * @start_local_with: optional: start_local() with settings @s (already
 *	checked) that hold until stop_local().  Same context as start_local().
 * @reader_sees_kernel: whether whoever reads the trace of @cpu may see
 *	the kernel's and the Secure exception levels: for a buffer user
 *	space maps, whether its opener had CAP_PERFMON or CAP_SYS_ADMIN when
 *	it opened it (ete_file_may_trace_kernel()), however privileged the
 *	session's starter.  When false the session traces EL0 only on @cpu
 *	(ete_config_to_image()).  Called once @cpu's sink is chosen, before
 *	start_local(); the sink must not change what it answers for @cpu
 *	while a session uses it.  Context: process context, under the
 *	session lock; must not sleep.
 * @trfcr_local: optional: the session's TRFCR value @trfcr is about to be
 *	written on @cpu (the trace unit's enable, or its restore after a
 *	power-down, each after the sink's own start or restore); return the
 *	value to write.  A sink that collects returns @trfcr.  One that does
 *	not (a TRBE waiting for room, stopped by a trigger or a fault)
 *	returns it with trace prohibited, keeps @trfcr and writes it itself
 *	once it collects again: trace allowed with no sink enabled goes to
 *	the trace bus, which with no sink there may hang the PE (I.12(2), 004
 *	section 5.1).  Without it @trfcr is written.  Same context as
 *	start_local().
 *
 * Every callback receives the @priv given to ete_sink_register().
 */
struct ete_sink_ops {
	struct module *owner;
	const char *name;
	bool (*present)(void *priv, int cpu);
	int (*start_local)(void *priv, int cpu);
	void (*stop_local)(void *priv, int cpu);
	bool (*reader_sees_kernel)(void *priv, int cpu);
	void (*save_local)(void *priv, int cpu);
	void (*restore_local)(void *priv, int cpu);
	void (*forget)(void *priv, int cpu);
	int (*check)(void *priv, int cpu, const struct ete_sink_settings *s,
		     const char **field);
	int (*start_local_with)(void *priv, int cpu,
				const struct ete_sink_settings *s);
	u64 (*trfcr_local)(void *priv, int cpu, u64 trfcr);
};

/**
 * struct ete_session_args - how to start a session (beyond its CPUs)
 * @who: the owner's name, shown in each unit's "status"; must outlive
 *	the session
 * @config: optional: fill @cfg, the configuration of the unit of @cpu
 *	(whose capabilities are @caps), instead of using the unit's own (the
 *	one sysfs shows).  Return 0, or a negative errno and set @why to
 *	what refused (a string that lives as long as @data).  Context:
 *	process context, under the session lock; must not sleep.
 * @sink: optional settings for the sink of every CPU (see
 *	&struct ete_sink_ops.check); must outlive the session
 * @only_sink: optional: the sink every CPU must use (trbe.ko's own, for a
 *	session started on /dev/trbe<N>, whose buffer is the file's); a CPU
 *	where it is not present fails with -ENODEV.  NULL: the first
 *	registered sink present on each CPU
 * @data: passed to @config
 * @tasks: optional: trace only while a task of this set runs on each CPU
 *	(include/ete/task.h); the session takes its own reference.  A CPU
 *	without TRFCR fails with -EOPNOTSUPP
 * @failed_cpu: out: on failure, the CPU that refused, or -1
 * @failed_why: out: on failure, what went wrong there (a string literal)
 * @failed_field: out: on failure, the field that refused (from @config,
 *	or the sink's &ete_sink_ops.check), or NULL
 * @failed_sink: out: @failed_field names a sink setting
 *
 * @who, @config, @sink, @only_sink and @data are kept by the session, for
 * ete_session_add_cpu().
 */
struct ete_session_args {
	const char *who;
	int (*config)(void *data, int cpu, const struct ete_caps *caps,
		      struct ete_config *cfg, const char **why);
	const struct ete_sink_settings *sink;
	const struct ete_sink_ops *only_sink;
	void *data;
	struct ete_task_set *tasks;
	int failed_cpu;
	const char *failed_why;
	const char *failed_field;
	bool failed_sink;
};

/**
 * ete_sink_register() - make a sink available to trace sessions
 * @ops: the sink's callbacks; must stay valid until unregistered
 * @priv: passed to every callback
 *
 * Several sinks may be registered (trbe.ko, a test sink): a session uses,
 * on each CPU, the first registered sink whose present() is true there,
 * or the one its &ete_session_args.only_sink names.
 *
 * Context: process context; sleeps.
 * Return:
 * * 0 on success
 * * -EINVAL if @ops lacks a required callback (present, start_local,
 *   stop_local, reader_sees_kernel)
 * * -ENOMEM
 */
int ete_sink_register(const struct ete_sink_ops *ops, void *priv);

/**
 * ete_sink_unregister() - withdraw a sink
 * @ops: the callbacks given to ete_sink_register()
 * @priv: the @priv given with them (one driver may register several
 *	instances with the same @ops, e.g. one per TRBE node)
 *
 * Stops, on every CPU where this sink is in use, the trace unit and then
 * the sink, so no callback runs after this returns.  The sessions stay
 * allocated for their owners, who still call ete_session_stop().
 *
 * Context: process context; sleeps.
 */
void ete_sink_unregister(const struct ete_sink_ops *ops, void *priv);

/**
 * ete_session_start() - start tracing on a set of CPUs, all or none
 * @cpus: the CPUs; each must have a bound trace unit, a present sink and
 *	belong to no other session
 * @who: the owner's name, shown in each unit's "status" (not copied: a
 *	string literal or one that outlives the session)
 * @sessp: receives the session on success
 *
 * Each unit is programmed from its current configuration (the one sysfs
 * shows).  When the caller has neither CAP_PERFMON nor CAP_SYS_ADMIN, or
 * the reader of a CPU's sink may not see the kernel
 * (&ete_sink_ops.reader_sees_kernel), the kernel's exception levels and
 * the Secure ones are filtered out there (each unit's status says so).
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
 * ete_session_start_args() - ete_session_start() with a configuration
 *	provider and sink settings
 * @cpus: the CPUs, as for ete_session_start()
 * @args: the owner, the optional configuration and sink settings; on
 *	failure, where it failed
 * @sessp: receives the session on success
 *
 * As ete_session_start(), all or none: every CPU is checked (unit, other
 * sessions, configuration against its unit's capabilities, conflicts,
 * sink and sink settings) before any is started, and a CPU that fails to
 * start stops those started before it.
 *
 * Context: process context; sleeps.
 * Return: as ete_session_start(), and the errors of &ete_session_args.config
 * and &ete_sink_ops.check.
 */
int ete_session_start_args(const struct cpumask *cpus,
			   struct ete_session_args *args,
			   struct ete_session **sessp);

/**
 * ete_session_add_cpu() - start one more CPU in a running session
 * @sess: the session
 * @cpu: the CPU
 *
 * For an owner whose CPU left the session (it went offline, or its sink
 * failed) and has come back.  A CPU already in @sess is left alone.
 *
 * Context: process context; sleeps.
 * Return: 0, or the errors of ete_session_start_args() for that CPU.
 */
int ete_session_add_cpu(struct ete_session *sess, int cpu);

/**
 * ete_session_has_cpu() - whether a CPU is traced by a session
 * @sess: the session
 * @cpu: the CPU
 *
 * Context: process context; takes the session lock.
 * Return: true if @cpu is in @sess.
 */
bool ete_session_has_cpu(struct ete_session *sess, int cpu);

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

/**
 * ete_session_sink_detach() - a sink withdraws from one CPU, now
 * @ops: the sink
 * @cpu: the CPU
 * @err: a negative errno, shown in the unit's "status"
 *
 * If a session traces @cpu into @ops, the trace unit of @cpu is disabled
 * and the sink stopped there (stop_local(), or forget() when @cpu is
 * offline) before this returns, and the session keeps its other CPUs.
 * For a sink about to free what it traces into (trbe.ko's buffer at the
 * last close): ete_session_cpu_error() would stop the CPU later, while
 * the TRBE could still be armed on the freed buffer.  The sink must
 * already refuse start_local() on @cpu (its present() false), or a
 * session could start there again at once.
 *
 * Context: process context; sleeps.  Takes the session lock and the CPU
 * hotplug lock: a sink's own mutexes may be held (they come first, as
 * when the sink starts a session), its raw spinlocks not.
 * Return: true if a session lost @cpu.
 */
bool ete_session_sink_detach(const struct ete_sink_ops *ops, int cpu,
			     int err);

#endif /* _ETE_SINK_H */
