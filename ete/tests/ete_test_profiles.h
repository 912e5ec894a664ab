/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ID register images shared by the KUnit suites: a rich unit (the model's
 * "rich" profile shape), a minimal one, and the Cortex-R52+ values of seed
 * 002 with an ETE TRCDEVARCH.
 */
#ifndef _ETE_TEST_PROFILES_H
#define _ETE_TEST_PROFILES_H

#include <ete/caps.h>

#define ETE_TEST_DEVARCH	ETE_DEVARCH_ETE

/* TRCIDR0-13; 6 and 7 unused */
static const u32 ete_test_idr_rich[ETE_NUM_IDR] = {
	[0] = 0x08000000 | (3 << 15) | BIT(14) | (3 << 10) | BIT(9) |
	      BIT(7) | BIT(5) | BIT(0),
	[1] = 0x4100fff0,
	[2] = (2U << 29) | (8 << 25) | (4 << 10) | (4 << 5) | 8,
	[3] = BIT(31) | BIT(27) | BIT(26) | BIT(24) | (0x7 << 20) |
	      (0x3 << 16) | 4,
	[4] = (8U << 28) | (8 << 24) | (8 << 20) | (15 << 16) | (0 << 12) | 8,
	[5] = (4 << 28) | (4 << 25) | BIT(23) | BIT(22) | (7 << 16) |
	      (4 << 9) | 0x1ff,
	[8] = 16,
};

static const u32 ete_test_idr_minimal[ETE_NUM_IDR] = {
	[0] = BIT(0),
	[1] = 0x4100fff0,
	[2] = 0,
	[3] = (0x3 << 20),
	[4] = 0,
	[5] = (7 << 16),
	[8] = 1,
};

/* Seed 002 section 6 (Cortex-R52+) values */
static const u32 ete_test_idr_r52[ETE_NUM_IDR] = {
	[0] = 0x08000eff,
	[1] = 0x41001421,
	[2] = 0x00420484,
	[3] = 0x0d700004,
	[4] = 0x11270124,
	[5] = 0x28c7081a,
	[8] = 1,
	[9] = 0x20,
	[10] = 2,
	[12] = 1,
};

#endif /* _ETE_TEST_PROFILES_H */
