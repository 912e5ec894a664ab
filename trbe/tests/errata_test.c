// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: TRBE errata matched by MIDR_EL1, at the edges of each range.
 */

#include <kunit/test.h>
#include <linux/preempt.h>
#include <asm/cputype.h>

#include <ete/trbe.h>

#include "trbe_tests.h"

#define OVW	BIT(TRBE_ERR_OVERWRITE_FILL)
#define OOR	BIT(TRBE_ERR_WRITE_OUT_OF_RANGE)
#define DRAIN	BIT(TRBE_ERR_DRAIN_AFTER_DISABLE)
#define SYNC	BIT(TRBE_ERR_SYNC_AFTER_ENABLE)
#define BROKEN	BIT(TRBE_ERR_BROKEN)
#define TSB	BIT(TRBE_ERR_TSB_FLUSH)

/* MIDR_EL1: implementer, variant (rN), architecture 0xf, part, revision (pN) */
#define MIDR(imp, var, part, rev) \
	(((imp) << 24) | ((var) << 20) | (0xf << 16) | ((part) << 4) | (rev))

struct errata_case {
	const char *name;
	u32 midr;
	unsigned long want;
};

static const struct errata_case errata_cases[] = {
	{ "a510_r0p0_broken", MIDR(0x41, 0, 0xd46, 0), DRAIN | SYNC | BROKEN },
	{ "a510_r0p1_broken", MIDR(0x41, 0, 0xd46, 1), DRAIN | SYNC | BROKEN },
	{ "a510_r0p2_usable", MIDR(0x41, 0, 0xd46, 2), DRAIN | SYNC },
	{ "a510_r0p3_clean", MIDR(0x41, 0, 0xd46, 3), 0 },
	{ "a510_r1p0_clean", MIDR(0x41, 1, 0xd46, 0), 0 },
	{ "a710_r0p0", MIDR(0x41, 0, 0xd47, 0), OVW | OOR | TSB },
	{ "a710_r2p1_all_versions", MIDR(0x41, 2, 0xd47, 1), OVW | OOR | TSB },
	{ "x2_r0p0", MIDR(0x41, 0, 0xd48, 0), OVW | OOR },
	{ "x2_r2p0_last", MIDR(0x41, 2, 0xd48, 0), OVW | OOR },
	{ "x2_r2p1_fixed", MIDR(0x41, 2, 0xd48, 1), 0 },
	{ "n2_r0p0", MIDR(0x41, 0, 0xd49, 0), OVW | OOR | TSB },
	{ "n2_r0p3", MIDR(0x41, 0, 0xd49, 3), OVW | OOR | TSB },
	{ "cobalt100", MIDR(0x6d, 0, 0xd49, 0), OVW | OOR | TSB },
	{ "n1_clean", MIDR(0x41, 3, 0xd0c, 1), 0 },
	{ "other_implementer_same_part", MIDR(0x42, 0, 0xd46, 0), 0 },
	{ "zero", 0, 0 },
};

static void errata_case_desc(const struct errata_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(trbe_errata, errata_cases, errata_case_desc);

static void trbe_errata_for_midr_table(struct kunit *test)
{
	const struct errata_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, trbe_errata_for_midr(c->midr), c->want);
}

/*
 * A MIDR other than the CPU's own (the model standing in for that part)
 * gets that part's errata, whatever the kernel applies to the CPU itself.
 */
static void trbe_errata_for_cpu_foreign_midr(struct kunit *test)
{
	const u32 a510_r0p0 = MIDR(0x41, 0, 0xd46, 0);
	unsigned long got;
	u32 own;

	preempt_disable();
	own = read_cpuid_id();
	got = trbe_errata_for_cpu(a510_r0p0);
	preempt_enable();
	if (own == a510_r0p0)
		kunit_skip(test, "this CPU is a Cortex-A510 r0p0");
	KUNIT_EXPECT_EQ(test, got, DRAIN | SYNC | BROKEN);
}

static void trbe_erratum_name_every_erratum(struct kunit *test)
{
	int e;

	for (e = 0; e < TRBE_ERR_COUNT; e++)
		KUNIT_EXPECT_STRNEQ(test, trbe_erratum_name(e), "unknown");
	KUNIT_EXPECT_STREQ(test, trbe_erratum_name(TRBE_ERR_COUNT), "unknown");
}

static struct kunit_case trbe_errata_cases[] = {
	KUNIT_CASE_PARAM(trbe_errata_for_midr_table, trbe_errata_gen_params),
	KUNIT_CASE(trbe_errata_for_cpu_foreign_midr),
	KUNIT_CASE(trbe_erratum_name_every_erratum),
	{ }
};

struct kunit_suite trbe_errata_suite = {
	.name = "trbe_errata",
	.test_cases = trbe_errata_cases,
};
