// SPDX-License-Identifier: GPL-2.0
/*
 * The rig's KUnit canary: one passing case that proves a module suite is
 * run, collected from debugfs and counted.
 */

#include <kunit/test.h>

static void rig_canary_arithmetic(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 6 * 7, 42);
}

static struct kunit_case rig_canary_cases[] = {
	KUNIT_CASE(rig_canary_arithmetic),
	{ }
};

static struct kunit_suite rig_canary_suite = {
	.name = "rig_canary",
	.test_cases = rig_canary_cases,
};

kunit_test_suite(rig_canary_suite);

MODULE_DESCRIPTION("Test rig canary: a passing KUnit suite");
MODULE_LICENSE("GPL");
