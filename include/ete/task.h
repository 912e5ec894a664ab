/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task mode: a session that traces a set of tasks, not whatever runs.
 *
 * A task set is a process and everything it creates after it is bound
 * (threads and children, their threads and children...).  On every CPU of
 * a session bound to a set, trace is allowed (TRFCR) only while a task of
 * the set runs there: at each context switch, the scheduler's sched_switch
 * tracepoint lets trace through for an incoming member and prohibits it
 * for any other task (Documentation/design-ete.rst, its lifecycle table and
 * "Task mode").
 */
#ifndef _ETE_TASK_H
#define _ETE_TASK_H

#include <linux/types.h>

struct ete_task_set;
struct ete_unit;

/**
 * ete_task_set_bind() - the task set of a process, for a session
 * @nr: the process, by its PID (a thread ID of the process will do) in
 *	the caller's PID namespace
 * @flags: 0 (no flag is defined yet)
 *
 * The set holds the process's threads now, and from now on every thread
 * and child any member creates.  The caller must be allowed to see the
 * process's execution: CAP_SYS_PTRACE, or the same real, effective and
 * saved user and group IDs as every one of the process's, a dumpable
 * process, and the process being the caller's own or a descendant of it
 * (what ptrace allows under Yama's ptrace_scope 1: never more than
 * ptrace, whatever the system's setting).  Binding the same process again
 * while its set lives gives the same set.
 *
 * Context: process context; sleeps.
 * Return: a reference to the set (ete_task_set_put() drops it), or
 * ERR_PTR(-ESRCH) if no such process (or it is exiting),
 * ERR_PTR(-EPERM) if the caller may not trace it, ERR_PTR(-EINVAL) for
 * an unknown flag or a kernel thread, ERR_PTR(-ENOMEM).
 */
struct ete_task_set *ete_task_set_bind(pid_t nr, u32 flags);

/**
 * ete_task_set_put() - drop a reference to a task set
 * @ts: the set, or NULL
 *
 * The last reference frees the set and its membership records, and the
 * scheduler hooks go when no set is left.
 *
 * Context: process context; sleeps.
 */
void ete_task_set_put(struct ete_task_set *ts);

/**
 * ete_task_set_get() - take another reference to a task set
 * @ts: the set
 *
 * Context: any context.
 * Return: @ts.
 */
struct ete_task_set *ete_task_set_get(struct ete_task_set *ts);

/**
 * ete_task_set_members() - how many tasks a set holds
 * @ts: the set
 *
 * Context: any context.
 * Return: the number of live members.
 */
unsigned long ete_task_set_members(const struct ete_task_set *ts);

/**
 * ete_task_set_missed() - tasks a set could not take in
 * @ts: the set
 *
 * A child is recorded as it is created, in the scheduler's fork path,
 * where memory may be short: one that could not be recorded is counted
 * here (and is not traced).
 *
 * Context: any context.
 * Return: the count.
 */
unsigned long ete_task_set_missed(const struct ete_task_set *ts);

/* For the session and power layers of ete.ko */
struct task_struct;
bool ete_task_may_bind(struct task_struct *t);
void ete_task_arm_local(struct ete_unit *u, struct ete_task_set *ts);
void ete_task_disarm_local(struct ete_unit *u);
void ete_task_pause_local(struct ete_unit *u);
u64 ete_task_trfcr_local(struct ete_unit *u, u64 trfcr);
u64 ete_task_prohibited(u64 trfcr);

#endif /* _ETE_TASK_H */
