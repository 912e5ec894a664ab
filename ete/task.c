// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode: trace allowed on a CPU only while a task of the session's set
 * runs there (include/ete/task.h; the lifecycle table and the "Task mode"
 * part of Documentation/design-ete.rst).
 *
 * Membership is a hash of (task, set) records keyed by the task_struct
 * pointer, read under RCU.  The scheduler's tracepoints keep it: at
 * sched_process_fork a child of a member joins its parent's sets, at
 * sched_process_free (the task_struct's RCU-delayed put, before the memory
 * can be reused) its records go.  The fork path may not allocate (it runs
 * with preemption disabled, and on PREEMPT_RT the allocator sleeps): it
 * takes records from a pool that a work item refills; a child that finds
 * the pool empty is counted in the set's "missed".
 *
 * At sched_switch, on a CPU whose session is bound to a set and whose unit
 * traces, trace is allowed (the session's TRFCR) when the incoming task is
 * a member and prohibited (TRFCR with E0TRE and E1TRE/E2TRE clear: a
 * prohibited region, ITHCBC) otherwise, through the sink (ete_sink_trfcr():
 * a TRBE waiting for room keeps it prohibited and takes the value for
 * later), and synchronized (ISB) so the change holds from the incoming
 * task's first instruction at EL0 and from the next kernel instruction.
 * Only a change is written: a switch between two members, or two
 * non-members, costs a hash lookup.
 */

#include <linux/cred.h>
#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include <ete/core.h>
#include <ete/task.h>

/* TRFCR_ELx: E0TRE (E0HTRE under VHE) and E1TRE (E2TRE) */
#define ETE_TRFCR_ENABLES	(BIT_ULL(0) | BIT_ULL(1))

struct ete_task_set {
	refcount_t ref;
	struct list_head node;
	struct pid *root;
	bool dead;
	atomic_long_t members;
	atomic_long_t missed;
};

struct ete_task_ent {
	struct hlist_node hnode;
	const struct task_struct *task;
	struct ete_task_set *ts;
	union {
		struct rcu_head rcu;
		struct llist_node free;
	};
};

/* The CPU's gate: written on the CPU with IRQs off, like the switch hook */
struct ete_task_cpu {
	struct ete_task_set *ts;
	struct ete_unit *u;
	bool live;
	bool allowed;
};

#define ETE_TASK_HASH_BITS	10
#define ETE_TASK_POOL		128

static DEFINE_HASHTABLE(ete_task_hash, ETE_TASK_HASH_BITS);
/* writers of ete_task_hash and of each set's @dead */
static DEFINE_RAW_SPINLOCK(ete_task_lock);
/* the list of sets, the hooks' users */
static DEFINE_MUTEX(ete_task_mutex);
static LIST_HEAD(ete_task_sets);
static unsigned int ete_task_hook_users;
static DEFINE_PER_CPU(struct ete_task_cpu, ete_task_cpu);

static LLIST_HEAD(ete_task_pool);
static atomic_t ete_task_pool_n = ATOMIC_INIT(0);
static DEFINE_RAW_SPINLOCK(ete_task_pool_lock);	/* llist_del_first users */
static void ete_task_refill(struct work_struct *work);
static DECLARE_WORK(ete_task_refill_work, ete_task_refill);

/**
 * ete_task_prohibited() - a TRFCR value with trace prohibited
 * @trfcr: the session's value
 *
 * Context: any context.
 * Return: @trfcr with E0TRE and E1TRE (E0HTRE and E2TRE under VHE) clear:
 * every exception level prohibited (ITHCBC), the timestamp choice kept.
 */
u64 ete_task_prohibited(u64 trfcr)
{
	return trfcr & ~ETE_TRFCR_ENABLES;
}
EXPORT_SYMBOL_IF_KUNIT(ete_task_prohibited);

/* ------------------------------------------------------------------------
 * The record pool: filled in process context, drawn from anywhere
 */

static struct ete_task_ent *ete_task_ent_take(void)
{
	struct llist_node *n;
	unsigned long flags;

	raw_spin_lock_irqsave(&ete_task_pool_lock, flags);
	n = llist_del_first(&ete_task_pool);
	raw_spin_unlock_irqrestore(&ete_task_pool_lock, flags);
	if (n)
		atomic_dec(&ete_task_pool_n);
	if (atomic_read(&ete_task_pool_n) < ETE_TASK_POOL / 2)
		schedule_work(&ete_task_refill_work);
	return n ? llist_entry(n, struct ete_task_ent, free) : NULL;
}

static void ete_task_refill(struct work_struct *work)
{
	struct ete_task_ent *e;

	while (atomic_read(&ete_task_pool_n) < ETE_TASK_POOL) {
		e = kmalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			return;
		llist_add(&e->free, &ete_task_pool);
		atomic_inc(&ete_task_pool_n);
	}
}

static void ete_task_pool_drain(void)
{
	struct llist_node *n = llist_del_all(&ete_task_pool);
	struct ete_task_ent *e, *tmp;

	llist_for_each_entry_safe(e, tmp, n, free)
		kfree(e);
	atomic_set(&ete_task_pool_n, 0);
}

static void ete_task_ent_free_rcu(struct rcu_head *rcu)
{
	kfree(container_of(rcu, struct ete_task_ent, rcu));
}

/* ------------------------------------------------------------------------
 * Membership
 */

/* Context: an RCU read-side section, or ete_task_lock held */
static bool ete_task_member(const struct ete_task_set *ts,
			    const struct task_struct *t)
{
	struct ete_task_ent *e;

	hash_for_each_possible_rcu(ete_task_hash, e, hnode, (unsigned long)t,
				   lockdep_is_held(&ete_task_lock))
		if (e->task == t && e->ts == ts)
			return true;
	return false;
}

/* Record @t in @ts with @e; under ete_task_lock.  False: @e not used. */
static bool ete_task_add_locked(struct ete_task_set *ts,
				const struct task_struct *t,
				struct ete_task_ent *e)
{
	if (ts->dead || ete_task_member(ts, t))
		return false;
	e->task = t;
	e->ts = ts;
	hash_add_rcu(ete_task_hash, &e->hnode, (unsigned long)t);
	atomic_long_inc(&ts->members);
	return true;
}

/* A record taken and not used goes back (any context) */
static void ete_task_ent_return(struct ete_task_ent *e)
{
	llist_add(&e->free, &ete_task_pool);
	atomic_inc(&ete_task_pool_n);
}

/* sched_process_fork: a member's child or thread joins its sets */
static void ete_task_fork(void *data, struct task_struct *parent,
			  struct task_struct *child)
{
	struct ete_task_ent *e, *n;
	unsigned long flags;
	bool used;

	rcu_read_lock();
	hash_for_each_possible_rcu(ete_task_hash, e, hnode,
				   (unsigned long)parent) {
		if (e->task != parent || READ_ONCE(e->ts->dead))
			continue;
		n = ete_task_ent_take();
		if (!n) {
			atomic_long_inc(&e->ts->missed);
			continue;
		}
		raw_spin_lock_irqsave(&ete_task_lock, flags);
		used = ete_task_add_locked(e->ts, child, n);
		raw_spin_unlock_irqrestore(&ete_task_lock, flags);
		if (!used)
			ete_task_ent_return(n);
	}
	rcu_read_unlock();
}

/* sched_process_free: the task_struct is about to go; so do its records */
static void ete_task_free(void *data, struct task_struct *t)
{
	struct ete_task_ent *e;
	struct hlist_node *tmp;
	unsigned long flags;

	raw_spin_lock_irqsave(&ete_task_lock, flags);
	hash_for_each_possible_safe(ete_task_hash, e, tmp, hnode,
				    (unsigned long)t) {
		if (e->task != t)
			continue;
		hash_del_rcu(&e->hnode);
		atomic_long_dec(&e->ts->members);
		call_rcu(&e->rcu, ete_task_ent_free_rcu);
	}
	raw_spin_unlock_irqrestore(&ete_task_lock, flags);
}

/* ------------------------------------------------------------------------
 * The gate of each CPU
 */

/* On the CPU, IRQs off: allow or prohibit trace for @next */
static void ete_task_gate_local(struct ete_task_cpu *c,
				const struct task_struct *next)
{
	struct ete_unit *u = c->u;
	bool allowed;
	u64 v;

	rcu_read_lock();
	allowed = ete_task_member(c->ts, next);
	rcu_read_unlock();
	if (allowed == c->allowed)
		return;
	c->allowed = allowed;
	v = allowed ? u->img.trfcr : ete_task_prohibited(u->img.trfcr);
	ete_write(&u->pe, ETE_TRFCR_EL1, ete_sink_trfcr(u, v));
	ete_sync(&u->pe, ETE_SYNC_ISB);
}

/* sched_switch: runs on the CPU, IRQs off, the runqueue locked */
static void ete_task_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state)
{
	struct ete_task_cpu *c = this_cpu_ptr(&ete_task_cpu);

	if (c->live)
		ete_task_gate_local(c, next);
}

/**
 * ete_task_arm_local() - bind this CPU's session to a task set
 * @u: the unit of this CPU, about to be enabled
 * @ts: the set, or NULL for a session that traces whatever runs
 *
 * ete_task_trfcr_local() then gives the value to enable with, and starts
 * the gate.
 *
 * Context: on @u->cpu with IRQs disabled (the session's start).
 */
void ete_task_arm_local(struct ete_unit *u, struct ete_task_set *ts)
{
	struct ete_task_cpu *c = per_cpu_ptr(&ete_task_cpu, u->cpu);

	c->live = false;
	c->ts = ts;
	c->u = ts ? u : NULL;
}

/**
 * ete_task_disarm_local() - this CPU's session ends
 * @u: the unit of this CPU, disabled
 *
 * Context: on @u->cpu with IRQs disabled (the session's stop), or with
 * @u->cpu offline (a session that ends there).
 */
void ete_task_disarm_local(struct ete_unit *u)
{
	struct ete_task_cpu *c = per_cpu_ptr(&ete_task_cpu, u->cpu);

	c->live = false;
	c->ts = NULL;
	c->u = NULL;
}

/**
 * ete_task_pause_local() - this CPU's unit stops tracing for a power-down
 * @u: the unit of this CPU, saved
 *
 * Switches leave TRFCR alone until ete_task_trfcr_local() at the restore:
 * the save left trace prohibited, with the sink saved (I.12(2)).
 *
 * Context: on @u->cpu with IRQs disabled.
 */
void ete_task_pause_local(struct ete_unit *u)
{
	per_cpu_ptr(&ete_task_cpu, u->cpu)->live = false;
}

/**
 * ete_task_trfcr_local() - the TRFCR value for this CPU's session now
 * @u: the unit of this CPU
 * @trfcr: the session's value
 *
 * For a session bound to a task set: @trfcr if the task running now is a
 * member, else @trfcr with trace prohibited; and from here on each context
 * switch sets it for the incoming task.  Otherwise @trfcr.
 *
 * Context: on @u->cpu with IRQs disabled (enable, restore).
 * Return: the value, before the sink's say (ete_sink_trfcr()).
 */
u64 ete_task_trfcr_local(struct ete_unit *u, u64 trfcr)
{
	struct ete_task_cpu *c = per_cpu_ptr(&ete_task_cpu, u->cpu);

	if (!c->ts)
		return trfcr;
	rcu_read_lock();
	c->allowed = ete_task_member(c->ts, current);
	rcu_read_unlock();
	c->live = true;
	return c->allowed ? trfcr : ete_task_prohibited(trfcr);
}

/* ------------------------------------------------------------------------
 * The scheduler's tracepoints
 */

struct ete_task_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct ete_task_tp ete_task_tps[] = {
	{ "sched_switch", ete_task_switch },
	{ "sched_process_fork", ete_task_fork },
	{ "sched_process_free", ete_task_free },
};

static void ete_task_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ete_task_tps); i++)
		if (!strcmp(tp->name, ete_task_tps[i].name))
			ete_task_tps[i].tp = tp;
}

/*
 * The scheduler hooks, for one more task set: 0, -ENOENT if the kernel
 * lacks one of the tracepoints, or tracepoint_probe_register()'s error.
 * Process context, ete_task_mutex held.
 */
static int ete_task_hooks_get(void)
{
	int i, ret = 0;

	lockdep_assert_held(&ete_task_mutex);
	if (ete_task_hook_users++)
		return 0;
	ete_task_refill(NULL);
	for_each_kernel_tracepoint(ete_task_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(ete_task_tps); i++) {
		if (!ete_task_tps[i].tp) {
			ret = -ENOENT;
			break;
		}
		ret = tracepoint_probe_register(ete_task_tps[i].tp,
						ete_task_tps[i].probe, NULL);
		if (ret)
			break;
	}
	if (!ret)
		return 0;
	while (--i >= 0)
		tracepoint_probe_unregister(ete_task_tps[i].tp,
					    ete_task_tps[i].probe, NULL);
	tracepoint_synchronize_unregister();
	ete_task_hook_users--;
	return ret;
}

/* One task set fewer; the last removes the hooks.  ete_task_mutex held. */
static void ete_task_hooks_put(void)
{
	int i;

	lockdep_assert_held(&ete_task_mutex);
	if (--ete_task_hook_users)
		return;
	for (i = ARRAY_SIZE(ete_task_tps) - 1; i >= 0; i--)
		tracepoint_probe_unregister(ete_task_tps[i].tp,
					    ete_task_tps[i].probe, NULL);
	tracepoint_synchronize_unregister();
	cancel_work_sync(&ete_task_refill_work);
	rcu_barrier();
	ete_task_pool_drain();
}

/* ------------------------------------------------------------------------
 * Sets
 */

/* Record every thread of @leader's group in @ts: true when none was new */
static bool ete_task_add_threads(struct ete_task_set *ts,
				 struct task_struct *leader)
{
	unsigned int n = get_nr_threads(leader) + 8, used = 0, i;
	struct ete_task_ent **e;
	struct task_struct *t;
	unsigned long flags;
	bool settled = true;

	e = kcalloc(n, sizeof(*e), GFP_KERNEL);
	if (!e)
		return true;
	for (i = 0; i < n; i++) {
		e[i] = kmalloc(sizeof(**e), GFP_KERNEL);
		if (!e[i])
			break;
	}
	n = i;
	rcu_read_lock();
	raw_spin_lock_irqsave(&ete_task_lock, flags);
	for_each_thread(leader, t) {
		if (ete_task_member(ts, t))
			continue;
		if (used == n) {
			settled = false;
			break;
		}
		if (ete_task_add_locked(ts, t, e[used]))
			used++;
		settled = false;
	}
	raw_spin_unlock_irqrestore(&ete_task_lock, flags);
	rcu_read_unlock();
	for (i = used; i < n; i++)
		kfree(e[i]);
	kfree(e);
	return settled;
}

static void ete_task_set_free(struct ete_task_set *ts)
{
	struct ete_task_ent *e;
	struct hlist_node *tmp;
	unsigned long flags;
	int bkt;

	raw_spin_lock_irqsave(&ete_task_lock, flags);
	ts->dead = true;
	hash_for_each_safe(ete_task_hash, bkt, tmp, e, hnode) {
		if (e->ts != ts)
			continue;
		hash_del_rcu(&e->hnode);
		call_rcu(&e->rcu, ete_task_ent_free_rcu);
	}
	raw_spin_unlock_irqrestore(&ete_task_lock, flags);
	/* a fork hook that saw @ts alive has added its record or left */
	synchronize_rcu();
	put_pid(ts->root);
	kfree(ts);
}

struct ete_task_set *ete_task_set_bind(pid_t nr, u32 flags)
{
	struct ete_task_set *ts = NULL, *it;
	struct task_struct *t;
	int ret, pass;

	if (flags)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	t = pid_task(find_vpid(nr), PIDTYPE_PID);
	if (t)
		t = get_task_struct(t->group_leader);
	rcu_read_unlock();
	if (!t)
		return ERR_PTR(-ESRCH);
	ret = -EINVAL;
	if (t->flags & PF_KTHREAD)
		goto out;
	ret = -ESRCH;
	if (t->flags & PF_EXITING)
		goto out;
	ret = -EPERM;
	if (!ete_task_may_bind(t))
		goto out;

	mutex_lock(&ete_task_mutex);
	list_for_each_entry(it, &ete_task_sets, node) {
		if (it->root == task_tgid(t) &&
		    refcount_inc_not_zero(&it->ref)) {
			ts = it;
			break;
		}
	}
	if (!ts) {
		ret = -ENOMEM;
		ts = kzalloc(sizeof(*ts), GFP_KERNEL);
		if (!ts)
			goto unlock;
		ret = ete_task_hooks_get();
		if (ret) {
			kfree(ts);
			ts = NULL;
			goto unlock;
		}
		refcount_set(&ts->ref, 1);
		ts->root = get_pid(task_tgid(t));
		/* threads a thread not yet recorded creates meanwhile */
		for (pass = 0; pass < 4; pass++)
			if (ete_task_add_threads(ts, t))
				break;
		list_add(&ts->node, &ete_task_sets);
	}
	ret = 0;
unlock:
	mutex_unlock(&ete_task_mutex);
out:
	put_task_struct(t);
	return ret ? ERR_PTR(ret) : ts;
}
EXPORT_SYMBOL_GPL(ete_task_set_bind);

struct ete_task_set *ete_task_set_get(struct ete_task_set *ts)
{
	refcount_inc(&ts->ref);
	return ts;
}
EXPORT_SYMBOL_GPL(ete_task_set_get);

void ete_task_set_put(struct ete_task_set *ts)
{
	if (!ts)
		return;
	mutex_lock(&ete_task_mutex);
	if (!refcount_dec_and_test(&ts->ref)) {
		mutex_unlock(&ete_task_mutex);
		return;
	}
	list_del(&ts->node);
	ete_task_set_free(ts);
	ete_task_hooks_put();
	mutex_unlock(&ete_task_mutex);
}
EXPORT_SYMBOL_GPL(ete_task_set_put);

unsigned long ete_task_set_members(const struct ete_task_set *ts)
{
	return atomic_long_read(&ts->members);
}
EXPORT_SYMBOL_GPL(ete_task_set_members);

unsigned long ete_task_set_missed(const struct ete_task_set *ts)
{
	return atomic_long_read(&ts->missed);
}
EXPORT_SYMBOL_GPL(ete_task_set_missed);
