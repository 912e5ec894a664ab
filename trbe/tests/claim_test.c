// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: which CPUs a TRBE node serves (PPI partitions, several nodes).
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/errno.h>

#include <ete/trbe.h>

#include "trbe_tests.h"

struct claim_test {
	struct cpumask possible, claimed, part, out;
};

static int claim_init(struct kunit *test)
{
	struct claim_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int cpu;

	if (!t)
		return -ENOMEM;
	/* CPUs 0-3, of those this kernel has ids for (the cases skip if not all) */
	for (cpu = 0; cpu < 4 && cpu < nr_cpu_ids; cpu++)
		cpumask_set_cpu(cpu, &t->possible);
	test->priv = t;
	return 0;
}

/* Claim @part as a node would: 0 and the claim recorded, or the errno */
static int claim(struct claim_test *t, unsigned int first, unsigned int last)
{
	unsigned int cpu;
	int ret;

	cpumask_clear(&t->part);
	for (cpu = first; cpu <= last; cpu++)
		cpumask_set_cpu(cpu, &t->part);
	ret = trbe_claim_cpus(&t->part, &t->possible, &t->claimed, &t->out);
	if (!ret)
		cpumask_or(&t->claimed, &t->claimed, &t->out);
	return ret;
}

/* Two clusters, one node each on its own partition: both served */
static void claim_two_partitions(struct kunit *test)
{
	struct claim_test *t = test->priv;

	if (nr_cpu_ids < 4)
		kunit_skip(test, "fewer than four CPU ids");
	KUNIT_ASSERT_EQ(test, claim(t, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, cpumask_weight(&t->out), 2U);
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(0, &t->out));
	KUNIT_ASSERT_EQ(test, claim(t, 2, 3), 0);
	KUNIT_EXPECT_EQ(test, cpumask_weight(&t->out), 2U);
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(3, &t->out));
	KUNIT_EXPECT_TRUE(test, cpumask_equal(&t->claimed, &t->possible));
}

/* A node overlapping another's CPUs is refused whole; the claim stays */
static void claim_overlap_refused(struct kunit *test)
{
	struct claim_test *t = test->priv;
	struct cpumask before;

	if (nr_cpu_ids < 4)
		kunit_skip(test, "fewer than four CPU ids");
	KUNIT_ASSERT_EQ(test, claim(t, 0, 1), 0);
	cpumask_copy(&before, &t->claimed);
	KUNIT_EXPECT_EQ(test, claim(t, 1, 2), -EBUSY);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(&t->claimed, &before));
	/* a PPI without partitions covers every CPU: refused too */
	KUNIT_EXPECT_EQ(test, claim(t, 0, 3), -EBUSY);
	KUNIT_EXPECT_EQ(test, claim(t, 2, 3), 0);
}

/* Partitions are cut to the possible CPUs; none possible: no device */
static void claim_possible_only(struct kunit *test)
{
	struct claim_test *t = test->priv;

	if (nr_cpu_ids < 4)
		kunit_skip(test, "fewer than four CPU ids");
	cpumask_clear_cpu(3, &t->possible);
	KUNIT_EXPECT_EQ(test, claim(t, 2, 3), 0);
	KUNIT_EXPECT_EQ(test, cpumask_weight(&t->out), 1U);
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(2, &t->out));
	KUNIT_EXPECT_EQ(test, claim(t, 3, 3), -ENODEV);
	cpumask_clear(&t->part);
	KUNIT_EXPECT_EQ(test, trbe_claim_cpus(&t->part, &t->possible,
					      &t->claimed, &t->out), -ENODEV);
}

static struct kunit_case trbe_claim_cases[] = {
	KUNIT_CASE(claim_two_partitions),
	KUNIT_CASE(claim_overlap_refused),
	KUNIT_CASE(claim_possible_only),
	{}
};

struct kunit_suite trbe_claim_suite = {
	.name = "trbe_claim",
	.init = claim_init,
	.test_cases = trbe_claim_cases,
};
