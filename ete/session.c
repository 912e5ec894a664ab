// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions and sinks: the one owner of the CPUs.
 *
 * A session is a set of CPUs traced together, for one owner: the sysfs
 * "enable" file (one CPU), trbe.ko's ioctls, later configfs profiles.  A
 * CPU belongs to at most one session.  Starting a session on a CPU starts
 * its sink, then enables its trace unit; stopping disables the unit, waits
 * for Idle, then stops the sink (004 section 5.1).  A start on several CPUs
 * is all or nothing: a failure stops, in reverse, the CPUs already started.
 */

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/virt.h>
#include <kunit/visibility.h>

#include <ete/core.h>
#include <ete/task.h>

/* Configuration, sessions, sinks and the per-CPU unit pointers */
DEFINE_MUTEX(ete_mutex);

/*
 * Published with rcu_assign_pointer() under ete_mutex (and, to clear it,
 * the CPU hotplug lock); read under ete_mutex, in an RCU read-side section
 * (the CPU PM notifier and the TRBE interrupt run with IRQs off), or from
 * a CPU hotplug callback (ete_unit_of_hotplug()).  The unit is freed only
 * after synchronize_rcu() (ete_session_unregister_unit()).
 */
static DEFINE_PER_CPU(struct ete_unit __rcu *, ete_cpu_unit);

static const char ete_sysfs_owner[] = "sysfs";

/**
 * struct ete_session - CPUs traced together for one owner
 * @cpus: the CPUs still traced
 * @who: the owner's name
 * @config: the owner's configuration provider, or NULL (&ete_session_args)
 * @sink: the owner's sink settings, or NULL
 * @only_sink: the sink every CPU must use, or NULL for the first present
 * @data: for @config
 * @env: the facts the session started with (the starter's privilege)
 * @tasks: the task set trace is allowed for, or NULL for whatever runs;
 *	the session holds a reference
 * @scratch: @config's output for the CPU being claimed; under ete_mutex
 */
struct ete_session {
	cpumask_var_t cpus;
	const char *who;
	int (*config)(void *data, int cpu, const struct ete_caps *caps,
		      struct ete_config *cfg, const char **why);
	const struct ete_sink_settings *sink;
	const struct ete_sink_ops *only_sink;
	void *data;
	struct ete_env env;
	struct ete_task_set *tasks;
	struct ete_config scratch;
};

static void ete_session_free(struct ete_session *sess)
{
	ete_task_set_put(sess->tasks);
	free_cpumask_var(sess->cpus);
	kfree(sess);
}

/**
 * ete_unit_of() - the trace unit of a CPU
 * @cpu: the CPU
 *
 * Context: under ete_mutex or in an RCU read-side section (IRQs off
 * counts); the unit stays valid while it lasts.  A CPU hotplug callback
 * uses ete_unit_of_hotplug().
 * Return: the unit, or NULL.
 */
struct ete_unit *ete_unit_of(int cpu)
{
	return rcu_dereference_check(per_cpu(ete_cpu_unit, cpu),
				     rcu_read_lock_any_held() ||
				     lockdep_is_held(&ete_mutex));
}
EXPORT_SYMBOL_IF_KUNIT(ete_unit_of);

/**
 * ete_unit_of_hotplug() - ete_unit_of() for a CPU hotplug callback
 * @cpu: the CPU
 *
 * A callback of a dynamic hotplug state runs in the CPU's hotplug thread,
 * while the task that started the operation holds the CPU hotplug lock:
 * lockdep does not see it held here, but it is, and the pointer is
 * cleared only under it (ete_session_unregister_unit()), so the unit
 * outlives the callback.
 *
 * Context: a CPU hotplug callback.
 * Return: the unit, or NULL.
 */
struct ete_unit *ete_unit_of_hotplug(int cpu)
{
	/* the hotplug operation excludes the writer that clears it */
	return rcu_dereference_check(per_cpu(ete_cpu_unit, cpu), 1);
}

/**
 * ete_session_register_unit() - make a unit reachable by sessions
 * @u: the unit
 *
 * Context: process context; takes ete_mutex.
 * Return: 0, or -EBUSY if the CPU already has a unit.
 */
int ete_session_register_unit(struct ete_unit *u)
{
	int ret = 0;

	mutex_lock(&ete_mutex);
	if (rcu_access_pointer(per_cpu(ete_cpu_unit, u->cpu)))
		ret = -EBUSY;
	else
		rcu_assign_pointer(per_cpu(ete_cpu_unit, u->cpu), u);
	mutex_unlock(&ete_mutex);
	return ret;
}

/* ------------------------------------------------------------------------
 * Starting and stopping one CPU
 */

struct ete_cpu_op {
	struct ete_unit *u;
	const char *msg;
	int ret;
};

static void ete_start_one(void *data)
{
	struct ete_cpu_op *op = data;
	struct ete_unit *u = op->u;
	const struct ete_sink_settings *s = u->sess->sink;
	u64 trfcr;

	if (ete_sink_settings_empty(s))
		op->ret = u->sink->start_local(u->sink_priv, u->cpu);
	else
		op->ret = u->sink->start_local_with(u->sink_priv, u->cpu, s);
	if (op->ret) {
		op->msg = "the trace sink failed to start";
		return;
	}
	ete_task_arm_local(u, u->sess->tasks);
	trfcr = ete_task_trfcr_local(u, u->img.trfcr);
	op->ret = ete_unit_enable_local(u, ete_sink_trfcr(u, trfcr), &op->msg);
	if (op->ret) {
		ete_task_disarm_local(u);
		u->sink->stop_local(u->sink_priv, u->cpu);
	}
}

static void ete_stop_one(void *data)
{
	struct ete_cpu_op *op = data;
	struct ete_unit *u = op->u;

	ete_task_disarm_local(u);
	op->ret = ete_unit_disable_local(u, &op->msg);
	u->sink->stop_local(u->sink_priv, u->cpu);
}

static void ete_session_put_sink(struct ete_unit *u)
{
	module_put(u->sink->owner);
	u->sink = NULL;
	u->sink_priv = NULL;
}

/*
 * Stop @u's CPU and take it out of its session, even if the unit does not
 * reach Idle in time (the error is kept for "status" and returned).  Under
 * ete_mutex.
 */
int ete_session_stop_cpu(struct ete_unit *u)
{
	struct ete_cpu_op op = { .u = u };
	struct ete_session *sess = u->sess;
	int ret;

	/*
	 * Offline, the hotplug callback saved the unit and its sink
	 * (ete_pm_cpu_offline()): what was traced is already readable, so
	 * the session just drops the saved state.
	 */
	if (!cpu_online(u->cpu)) {
		/* the sink forgets its saved state; the unit is disabled */
		if (u->pm.saved && u->sink->forget)
			u->sink->forget(u->sink_priv, u->cpu);
		u->pm.saved = false;
		u->enabled = false;
		ete_task_disarm_local(u);
		ret = 0;
	} else {
		ret = smp_call_function_single(u->cpu, ete_stop_one, &op, 1);
		if (ret)
			ete_unit_set_error(u, ret, "CPU offline while tracing");
		else if (op.ret)
			ete_unit_set_error(u, op.ret, op.msg);
		else if (u->lost_power)
			/* stopped all the same; said in status, not refused */
			ete_unit_set_error(u, -EIO,
					   "the core lost power during the session without a save (TRCPDSR.STICKYPD): its trace ends there");
		ret = ret ?: op.ret;
	}
	ete_session_put_sink(u);
	u->sess = NULL;
	cpumask_clear_cpu(u->cpu, sess->cpus);
	/* sysfs sessions have no other owner to free them */
	if (sess->who == ete_sysfs_owner && cpumask_empty(sess->cpus))
		ete_session_free(sess);
	return ret;
}

/**
 * ete_session_unregister_unit() - stop a unit's session and forget it
 * @u: the unit
 *
 * Context: process context; takes ete_mutex.
 */
void ete_session_unregister_unit(struct ete_unit *u)
{
	mutex_lock(&ete_mutex);
	u->gone = true;
	cpus_read_lock();
	if (u->sess)
		ete_session_stop_cpu(u);
	/* Under the hotplug lock: the hotplug callbacks look the unit up */
	if (rcu_access_pointer(per_cpu(ete_cpu_unit, u->cpu)) == u)
		RCU_INIT_POINTER(per_cpu(ete_cpu_unit, u->cpu), NULL);
	cpus_read_unlock();
	mutex_unlock(&ete_mutex);
	/* The CPU PM notifier runs with IRQs off: an RCU read-side section */
	synchronize_rcu();
}

/*
 * The configuration @u runs with in @sess: the owner's, or the unit's own.
 * Under ete_mutex.
 */
static int ete_session_config(struct ete_session *sess, struct ete_unit *u,
			      const struct ete_config **cfg,
			      struct ete_session_args *args)
{
	const char *why = NULL;
	int ret;

	*cfg = &u->cfg;
	if (!sess->config)
		return 0;
	ret = sess->config(sess->data, u->cpu, &u->caps, &sess->scratch, &why);
	if (ret) {
		args->failed_field = why;
		ete_unit_set_error(u, ret,
				   "a value of the session's configuration does not suit this unit");
		return ret;
	}
	*cfg = &sess->scratch;
	return 0;
}

/* Whether @sink takes the settings of @sess on @cpu.  Under ete_mutex. */
static int ete_session_check_sink(struct ete_session *sess,
				  struct ete_sink *sink, struct ete_unit *u,
				  struct ete_session_args *args)
{
	const char *field = NULL;
	int ret = -EOPNOTSUPP;

	if (ete_sink_settings_empty(sess->sink))
		return 0;
	if (sink->ops->check && sink->ops->start_local_with)
		ret = sink->ops->check(sink->priv, u->cpu, sess->sink, &field);
	if (ret) {
		args->failed_field = field;
		args->failed_sink = true;
		ete_unit_set_error(u, ret, "the trace sink refused a setting of the session");
	}
	return ret;
}

/* Check and claim one CPU for @sess.  Under ete_mutex. */
static int ete_session_claim(struct ete_session *sess, int cpu,
			     const struct ete_env *env,
			     struct ete_session_args *args)
{
	struct ete_unit *u = ete_unit_of(cpu);
	const struct ete_config *cfg;
	struct ete_env cpu_env;
	struct ete_sink *sink;
	int ret;

	if (!u || u->gone)
		return -ENODEV;
	if (u->sess) {
		ete_unit_set_error(u, -EBUSY, "the CPU is in another session");
		return -EBUSY;
	}
	/* task mode gates trace with TRFCR at each switch */
	if (sess->tasks && !u->has_trf) {
		ete_unit_set_error(u, -EOPNOTSUPP,
				   "task mode needs TRFCR, which this CPU lacks");
		return -EOPNOTSUPP;
	}
	ret = ete_session_config(sess, u, &cfg, args);
	if (ret)
		return ret;
	ret = ete_config_validate(cfg, &u->caps);
	if (ret) {
		ete_unit_set_error(u, ret, ete_config_conflict(cfg) ?:
				   "the configuration is invalid");
		return ret;
	}
	sink = ete_sink_find(cpu, sess->only_sink);
	if (!sink) {
		ete_unit_set_error(u, -ENODEV, "no trace sink is ready on this CPU");
		return -ENODEV;
	}
	ret = ete_session_check_sink(sess, sink, u, args);
	if (ret) {
		module_put(sink->ops->owner);
		return ret;
	}
	u->sink = sink->ops;
	u->sink_priv = sink->priv;
	u->sess = sess;
	u->sess_gen++;
	/* The rule at the buffer: the trace's reader must have the right too */
	cpu_env = *env;
	cpu_env.reader_allowed = sink->ops->reader_sees_kernel(sink->priv, cpu);
	ete_config_to_image(cfg, &u->caps, &cpu_env, &u->img);
	return 0;
}

/* Undo ete_session_claim() for a CPU that was not started */
static void ete_session_unclaim(int cpu)
{
	struct ete_unit *u = ete_unit_of(cpu);

	ete_session_put_sink(u);
	u->sess = NULL;
}

static int ete_session_start_cpu(int cpu)
{
	struct ete_unit *u = ete_unit_of(cpu);
	struct ete_cpu_op op = { .u = u };
	int ret;

	/* -ENXIO from the cross call: the CPU went offline (ABI: ENODEV) */
	ret = smp_call_function_single(cpu, ete_start_one, &op, 1);
	if (ret) {
		ret = -ENODEV;
		op.msg = "the CPU is offline";
	} else {
		ret = op.ret;
	}
	if (ret)
		ete_unit_set_error(u, ret, op.msg);
	else
		ete_unit_set_error(u, 0, NULL);
	return ret;
}

/* Stop the CPUs of @sess before @failed, in reverse order */
static void ete_session_rollback(struct ete_session *sess, int failed)
{
	int cpu;

	for (cpu = nr_cpu_ids - 1; cpu >= 0; cpu--) {
		if (!cpumask_test_cpu(cpu, sess->cpus))
			continue;
		if (cpu < failed)
			ete_session_stop_cpu(ete_unit_of(cpu));
		else
			ete_session_unclaim(cpu);
	}
}

static int ete_session_start_locked(struct ete_session *sess,
				    const struct ete_env *env,
				    struct ete_session_args *args)
{
	int cpu, done, ret = 0;

	for_each_cpu(cpu, sess->cpus) {
		ret = ete_session_claim(sess, cpu, env, args);
		if (ret) {
			args->failed_cpu = cpu;
			args->failed_why = ete_unit_of(cpu) ?
					   ete_unit_of(cpu)->err_msg : NULL;
			for_each_cpu(done, sess->cpus) {
				if (done >= cpu)
					break;
				ete_session_unclaim(done);
			}
			return ret;
		}
	}
	for_each_cpu(cpu, sess->cpus) {
		ret = ete_session_start_cpu(cpu);
		if (ret) {
			args->failed_cpu = cpu;
			args->failed_why = ete_unit_of(cpu)->err_msg;
			ete_session_rollback(sess, cpu);
			return ret;
		}
	}
	return 0;
}

int ete_session_start_args(const struct cpumask *cpus,
			   struct ete_session_args *args,
			   struct ete_session **sessp)
{
	struct ete_session *sess;
	int ret;

	args->failed_cpu = -1;
	args->failed_why = NULL;
	args->failed_field = NULL;
	args->failed_sink = false;
	if (cpumask_empty(cpus))
		return -EINVAL;
	sess = kzalloc(sizeof(*sess), GFP_KERNEL);
	if (!sess)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&sess->cpus, GFP_KERNEL)) {
		kfree(sess);
		return -ENOMEM;
	}
	cpumask_copy(sess->cpus, cpus);
	sess->who = args->who;
	sess->config = args->config;
	sess->sink = args->sink;
	sess->only_sink = args->only_sink;
	sess->data = args->data;
	if (args->tasks)
		sess->tasks = ete_task_set_get(args->tasks);
	sess->env.kernel_el2 = is_kernel_in_hyp_mode();
	sess->env.kernel_allowed = perfmon_capable();

	mutex_lock(&ete_mutex);
	cpus_read_lock();
	ret = ete_session_start_locked(sess, &sess->env, args);
	cpus_read_unlock();
	mutex_unlock(&ete_mutex);
	if (ret) {
		ete_session_free(sess);
		return ret;
	}
	*sessp = sess;
	return 0;
}
EXPORT_SYMBOL_GPL(ete_session_start_args);

int ete_session_start(const struct cpumask *cpus, const char *who,
		      struct ete_session **sessp)
{
	struct ete_session_args args = { .who = who };

	return ete_session_start_args(cpus, &args, sessp);
}
EXPORT_SYMBOL_GPL(ete_session_start);

int ete_session_add_cpu(struct ete_session *sess, int cpu)
{
	struct ete_session_args args = { };
	struct ete_unit *u;
	int ret = 0;

	mutex_lock(&ete_mutex);
	cpus_read_lock();
	u = ete_unit_of(cpu);
	if (u && u->sess == sess)
		goto out_unlock;
	ret = ete_session_claim(sess, cpu, &sess->env, &args);
	if (ret)
		goto out_unlock;
	cpumask_set_cpu(cpu, sess->cpus);
	ret = ete_session_start_cpu(cpu);
	if (ret) {
		/* nothing runs there: release the claim */
		ete_session_unclaim(cpu);
		cpumask_clear_cpu(cpu, sess->cpus);
	}
out_unlock:
	cpus_read_unlock();
	mutex_unlock(&ete_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(ete_session_add_cpu);

bool ete_session_has_cpu(struct ete_session *sess, int cpu)
{
	struct ete_unit *u;
	bool ret;

	mutex_lock(&ete_mutex);
	u = ete_unit_of(cpu);
	ret = u && u->sess == sess;
	mutex_unlock(&ete_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(ete_session_has_cpu);

static void ete_session_stop_locked(struct ete_session *sess)
{
	int cpu;

	cpus_read_lock();
	for_each_cpu(cpu, sess->cpus) {
		struct ete_unit *u = ete_unit_of(cpu);

		if (u && u->sess == sess)
			ete_session_stop_cpu(u);
	}
	cpus_read_unlock();
}

void ete_session_stop(struct ete_session *sess)
{
	mutex_lock(&ete_mutex);
	ete_session_stop_locked(sess);
	mutex_unlock(&ete_mutex);
	ete_session_free(sess);
}
EXPORT_SYMBOL_GPL(ete_session_stop);

/**
 * ete_session_owner() - who owns a unit's CPU
 * @u: the unit
 *
 * Context: under ete_mutex.
 * Return: the owner's name, or NULL.
 */
const char *ete_session_owner(const struct ete_unit *u)
{
	return u->sess ? u->sess->who : NULL;
}

/**
 * ete_session_sysfs_enable() - the sysfs "enable" file
 * @u: the unit
 * @on: start or stop
 *
 * Context: process context; takes ete_mutex.
 * Return: 0, -EBUSY if another owner holds the CPU, the errors of
 * ete_session_start() when starting, -ETIMEDOUT when stopping a unit that
 * did not reach Idle in time (it is stopped nonetheless).
 */
int ete_session_sysfs_enable(struct ete_unit *u, bool on)
{
	struct ete_session *sess;
	int ret = 0;

	if (on) {
		mutex_lock(&ete_mutex);
		if (u->sess)
			ret = u->sess->who == ete_sysfs_owner ? 0 : -EBUSY;
		mutex_unlock(&ete_mutex);
		if (ret || u->sess)
			return ret;
		return ete_session_start(cpumask_of(u->cpu), ete_sysfs_owner,
					 &sess);
	}

	mutex_lock(&ete_mutex);
	if (u->sess && u->sess->who != ete_sysfs_owner) {
		ret = -EBUSY;
	} else if (u->sess) {
		cpus_read_lock();
		ret = ete_session_stop_cpu(u);
		cpus_read_unlock();
	}
	mutex_unlock(&ete_mutex);
	return ret;
}
