// SPDX-License-Identifier: GPL-2.0
/*
 * The rig's failing kselftest canary, run only when a run asks for it
 * (RIG_FAULT=ksft): one case passes, one fails, so the test command fails.
 */
#include "kselftest_harness.h"

TEST(canary_passes)
{
	ASSERT_EQ(42, 6 * 7);
}

TEST(canary_fails_on_purpose)
{
	EXPECT_EQ(1, 2);
}

TEST_HARNESS_MAIN
