/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the model's KUnit suites: a fixture owning a model instance,
 * the test thread pinned to one CPU, and register accesses made on that CPU
 * with preemption disabled, as the ops require.
 */
#ifndef _ETE_MODEL_TEST_H
#define _ETE_MODEL_TEST_H

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>

#include "ete_model.h"

/**
 * struct em_test - fixture of one case
 * @m: the instance
 * @acc: a system-register handle on @cpu
 * @cpu: the CPU the test thread is pinned to
 * @buf: a trace buffer (em_trbe_setup()), vmalloc()ed, page-aligned
 */
struct em_test {
	struct ete_model *m;
	struct ete_access acc;
	int cpu;
	u8 *buf;
};

static inline int em_test_init_profile(struct kunit *test, const char *prof)
{
	struct em_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	t->m = ete_model_create(prof);
	if (!t->m)
		return -ENOMEM;
	t->cpu = raw_smp_processor_id();
	set_cpus_allowed_ptr(current, cpumask_of(t->cpu));
	t->acc.ops = &ete_model_sysreg_ops;
	t->acc.priv = t->m;
	t->acc.cpu = t->cpu;
	t->acc.local = true;
	/* a unit without a TRBE stands for one with a trace bus sink */
	ete_model_set_atb(t->m, t->cpu, true);
	test->priv = t;
	return 0;
}

static inline void em_test_exit(struct kunit *test)
{
	struct em_test *t = test->priv;

	set_cpus_allowed_ptr(current, cpu_possible_mask);
	ete_model_destroy(t->m);
	vfree(t->buf);
}

static inline u64 em_rd(struct kunit *test, u32 reg)
{
	struct em_test *t = test->priv;
	u64 v;

	preempt_disable();
	v = ete_read(&t->acc, reg);
	preempt_enable();
	return v;
}

static inline void em_wr(struct kunit *test, u32 reg, u64 val)
{
	struct em_test *t = test->priv;

	preempt_disable();
	ete_write(&t->acc, reg, val);
	preempt_enable();
}

static inline void em_sync(struct kunit *test, enum ete_sync what)
{
	struct em_test *t = test->priv;

	preempt_disable();
	ete_sync(&t->acc, what);
	preempt_enable();
}

static inline void em_isb(struct kunit *test)
{
	em_sync(test, ETE_SYNC_ISB);
}

/* TRCSTATR read followed by the ISB SHSXGZ requires */
static inline u64 em_statr(struct kunit *test)
{
	u64 v = em_rd(test, ETE_TRCSTATR);

	em_isb(test);
	return v;
}

static inline unsigned int em_viol(struct kunit *test,
				   enum ete_model_check c)
{
	struct em_test *t = test->priv;

	return ete_model_violations(t->m, t->cpu, c);
}

static inline unsigned int em_viol_total(struct kunit *test)
{
	struct em_test *t = test->priv;

	return ete_model_violations_total(t->m, t->cpu);
}

static inline enum ete_model_state em_state(struct kunit *test)
{
	struct em_test *t = test->priv;

	return ete_model_state(t->m, t->cpu);
}

/* Poll TRCSTATR until @state, at most @polls reads; true if reached */
static inline bool em_wait_state(struct kunit *test,
				 enum ete_model_state state, int polls)
{
	while (polls--) {
		em_statr(test);
		if (em_state(test) == state)
			return true;
	}
	return false;
}

/* Negative scenarios of trbe_kunit.c the mutation suite reuses */
void em_sc_rkydtq(struct kunit *test);
void em_sc_swlock(struct kunit *test);
void em_sc_trbe_en(struct kunit *test);
void em_sc_trbe_ptr(struct kunit *test);
void em_sc_trbe_order(struct kunit *test);
void em_sc_rvtncs(struct kunit *test);
void em_sc_extpd(struct kunit *test);
void em_sc_extoslk(struct kunit *test);
void em_sc_trbe_off(struct kunit *test);
void em_sc_trbe_unflushed(struct kunit *test);
void em_sc_trbe_ensync(struct kunit *test);

#endif /* _ETE_MODEL_TEST_H */
