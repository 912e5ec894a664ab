// SPDX-License-Identifier: GPL-2.0
/*
 * The rig's failing KUnit canary, loaded only when a run asks for it
 * (RIG_FAULT=kunit): the test command must then fail.
 */

#include <kunit/test.h>

static void rig_canary_fail_passes(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, true);
}

static void rig_canary_fail_fails(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, 1, 2, "this case fails on purpose");
}

static struct kunit_case rig_canary_fail_cases[] = {
	KUNIT_CASE(rig_canary_fail_passes),
	KUNIT_CASE(rig_canary_fail_fails),
	{ }
};

static struct kunit_suite rig_canary_fail_suite = {
	.name = "rig_canary_fail",
	.test_cases = rig_canary_fail_cases,
};

kunit_test_suite(rig_canary_fail_suite);

MODULE_DESCRIPTION("Test rig canary: a failing KUnit suite");
MODULE_LICENSE("GPL");
