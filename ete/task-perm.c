// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode's privilege rule (include/ete/task.h, ete_task_set_bind()):
 * who may have a process's execution traced.  ptrace_may_access() is not
 * exported to modules, so this is the rule ptrace applies without a
 * security module (the same user and group IDs, a dumpable process), with
 * Yama's ptrace_scope 1 on top whatever the system's setting (the process
 * is the caller's or a descendant), or CAP_SYS_PTRACE: never more than
 * ptrace allows.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include <ete/compat.h>
#include <ete/task.h>

/* Yama's ptrace_scope 1 rule: @t is @me's, or a descendant's.  RCU held. */
static bool ete_task_is_descendant(struct task_struct *t)
{
	for (; t->pid > 0; t = rcu_dereference(t->real_parent))
		if (same_thread_group(t, current))
			return true;
	return false;
}

/**
 * ete_task_may_bind() - whether the caller may have @t's execution traced
 * @t: a user task (not a kernel thread)
 *
 * Context: process context.
 * Return: true if so (the rule at the top of this file).
 */
bool ete_task_may_bind(struct task_struct *t)
{
	const struct cred *me = current_cred(), *tc;
	bool ok;

	if (capable(CAP_SYS_PTRACE))
		return true;
	rcu_read_lock();
	tc = __task_cred(t);
	ok = uid_eq(me->uid, tc->euid) && uid_eq(me->uid, tc->suid) &&
	     uid_eq(me->uid, tc->uid) && gid_eq(me->gid, tc->egid) &&
	     gid_eq(me->gid, tc->sgid) && gid_eq(me->gid, tc->gid) &&
	     ete_task_is_descendant(t);
	rcu_read_unlock();
	return ok && ete_compat_dumpable_by_owner(t);
}
