// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: TRBE register value builders and ID decoding.
 */

#include <kunit/test.h>
#include <linux/bitfield.h>

#include <ete/trbe.h>

#include "trbe_tests.h"

static void trbe_limitr_value_fields(struct kunit *test)
{
	u64 v = trbe_limitr_value(0xffff800012345fffULL, TRBE_FM_CIRCULAR,
				  TRBE_TM_IGNORE, true);

	KUNIT_EXPECT_EQ(test, v & TRBE_LIMITR_LIMIT, 0xffff800012345000ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(TRBE_LIMITR_FM, v), 3ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(TRBE_LIMITR_TM, v), 3ULL);
	KUNIT_EXPECT_TRUE(test, v & TRBE_LIMITR_E);
	KUNIT_EXPECT_FALSE(test, v & TRBE_LIMITR_NVM);
	KUNIT_EXPECT_EQ(test, v & GENMASK_ULL(11, 6), 0ULL);

	v = trbe_limitr_value(0x1000, TRBE_FM_WRAP, TRBE_TM_IRQ, false);
	KUNIT_EXPECT_EQ(test, v, 0x1000ULL | (1 << 1) | (1 << 3));
	v = trbe_limitr_value(0x2000, TRBE_FM_FILL, TRBE_TM_STOP, true);
	KUNIT_EXPECT_EQ(test, v, 0x2001ULL);
}

static void trbe_baser_ptr_trg_values(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, trbe_baser_value(0xffff800000001234ULL),
			0xffff800000001000ULL);
	KUNIT_EXPECT_EQ(test, trbe_ptr_value(0xffff800000001240ULL),
			0xffff800000001240ULL);
	KUNIT_EXPECT_EQ(test, trbe_trg_value(0), 0ULL);
	KUNIT_EXPECT_EQ(test, trbe_trg_value(0xffffffff), 0xffffffffULL);
}

static void trbe_trfcr_value_keeps_ts_cx(struct kunit *test)
{
	u64 other = TRBE_TRFCR_TS | TRBE_TRFCR_CX;

	KUNIT_EXPECT_EQ(test, trbe_trfcr_value(other, true),
			other | TRBE_TRFCR_E0TRE | TRBE_TRFCR_EXTRE);
	KUNIT_EXPECT_EQ(test, trbe_trfcr_value(other | 3, false), other);
	KUNIT_EXPECT_EQ(test, trbe_trfcr_value(0, false), 0ULL);
}

static void trbe_id_decode_fields(struct kunit *test)
{
	struct trbe_id id = trbe_id_decode(0x0b);

	KUNIT_EXPECT_EQ(test, id.align, 2048ULL);
	KUNIT_EXPECT_FALSE(test, id.prohibited);
	KUNIT_EXPECT_FALSE(test, id.flag_update);

	id = trbe_id_decode(TRBE_IDR_P | TRBE_IDR_F);
	KUNIT_EXPECT_EQ(test, id.align, 1ULL);
	KUNIT_EXPECT_TRUE(test, id.prohibited);
	KUNIT_EXPECT_TRUE(test, id.flag_update);

	id = trbe_id_decode(0xf | GENMASK_ULL(63, 6));
	KUNIT_EXPECT_EQ(test, id.align, 32768ULL);
	KUNIT_EXPECT_FALSE(test, id.prohibited);
}

static void trbe_dfr0_tracebuffer(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, trbe_dfr0_has_trbe(0));
	KUNIT_EXPECT_FALSE(test, trbe_dfr0_has_trbe(~TRBE_DFR0_TRACEBUFFER));
	KUNIT_EXPECT_TRUE(test, trbe_dfr0_has_trbe(1ULL << 44));
	KUNIT_EXPECT_TRUE(test, trbe_dfr0_has_trbe(2ULL << 44));
	KUNIT_EXPECT_TRUE(test, trbe_dfr0_has_trbe(0xfULL << 44));
}

static struct kunit_case trbe_regs_cases[] = {
	KUNIT_CASE(trbe_limitr_value_fields),
	KUNIT_CASE(trbe_baser_ptr_trg_values),
	KUNIT_CASE(trbe_trfcr_value_keeps_ts_cx),
	KUNIT_CASE(trbe_id_decode_fields),
	KUNIT_CASE(trbe_dfr0_tracebuffer),
	{ }
};

struct kunit_suite trbe_regs_suite = {
	.name = "trbe_regs",
	.test_cases = trbe_regs_cases,
};
