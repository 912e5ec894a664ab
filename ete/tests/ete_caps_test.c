// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: decoding of TRCIDR0-13 and TRCDEVARCH (ete_caps_decode()) on
 * several ID images, and its refusal of values no ETE can have.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include <ete/caps.h>
#include <ete/compat.h>
#include "ete_test_profiles.h"

struct caps_case {
	const char *name;
	const u32 *idr;
	struct ete_caps want;
};

static const struct caps_case caps_cases[] = {
	{
		.name = "rich",
		.idr = ete_test_idr_rich,
		.want = {
			.retstack = true, .cycle_count = true,
			.branch_broadcast = true, .qfilt = true, .qsupp = 3,
			.num_events = 4, .ts_bits = 64, .cid_bits = 32,
			.vmid_bits = 32, .cc_bits = 20, .vmidopt = true,
			.ccitmin = 4, .exlevel_s = 3, .exlevel_ns = 7,
			.trcerr = true, .stallctl = true, .sysstall = true,
			.nooverflow = true, .num_ac = 16, .num_arc = 8,
			.num_pc = 0, .num_rs = 32, .num_ss = 8,
			.num_cidc = 8, .num_vmidc = 8, .num_extin = 0x1ff,
			.num_extinsel = 4, .traceid_bits = 7, .atbtrig = true,
			.lpoverride = true, .num_seq_states = 4,
			.num_cntr = 4, .maxspec = 16,
		},
	},
	{
		.name = "minimal",
		.idr = ete_test_idr_minimal,
		.want = {
			.num_events = 1, .cc_bits = 12, .exlevel_ns = 3,
			.num_rs = 2, .traceid_bits = 7, .maxspec = 1,
		},
	},
	{
		.name = "cortex-r52plus-values",
		.idr = ete_test_idr_r52,
		.want = {
			.retstack = true, .cycle_count = true,
			.branch_broadcast = true, .num_events = 4,
			.ts_bits = 64, .cid_bits = 32, .vmid_bits = 8,
			.cc_bits = 12, .ccitmin = 4, .exlevel_ns = 7,
			.trcerr = true, .stallctl = true, .sysstall = true,
			.num_ac = 8, .num_arc = 4, .num_rs = 16, .num_ss = 2,
			.num_cidc = 1, .num_vmidc = 1, .num_extin = 0x1a,
			.num_extinsel = 4, .traceid_bits = 7, .atbtrig = true,
			.lpoverride = true, .num_seq_states = 4,
			.num_cntr = 2, .maxspec = 1,
		},
	},
};

static void caps_case_desc(const struct caps_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(caps, caps_cases, caps_case_desc);

static void expect_cap(struct kunit *test, u32 got, u32 want, const char *f)
{
	KUNIT_EXPECT_EQ_MSG(test, got, want, "%s", f);
}

static void ete_caps_decode_image(struct kunit *test)
{
	const struct caps_case *c = test->param_value;
	const struct ete_caps *w = &c->want;
	struct ete_caps got;

	KUNIT_ASSERT_EQ(test, ete_caps_decode(c->idr, ETE_TEST_DEVARCH, &got),
			0);
	expect_cap(test, got.retstack, w->retstack, "retstack");
	expect_cap(test, got.cycle_count, w->cycle_count, "cycle_count");
	expect_cap(test, got.branch_broadcast, w->branch_broadcast, "branch_broadcast");
	expect_cap(test, got.qfilt, w->qfilt, "qfilt");
	expect_cap(test, got.qsupp, w->qsupp, "qsupp");
	expect_cap(test, got.num_events, w->num_events, "num_events");
	expect_cap(test, got.ts_bits, w->ts_bits, "ts_bits");
	expect_cap(test, got.cid_bits, w->cid_bits, "cid_bits");
	expect_cap(test, got.vmid_bits, w->vmid_bits, "vmid_bits");
	expect_cap(test, got.cc_bits, w->cc_bits, "cc_bits");
	expect_cap(test, got.vmidopt, w->vmidopt, "vmidopt");
	expect_cap(test, got.ccitmin, w->ccitmin, "ccitmin");
	expect_cap(test, got.exlevel_s, w->exlevel_s, "exlevel_s");
	expect_cap(test, got.exlevel_ns, w->exlevel_ns, "exlevel_ns");
	expect_cap(test, got.trcerr, w->trcerr, "trcerr");
	expect_cap(test, got.stallctl, w->stallctl, "stallctl");
	expect_cap(test, got.sysstall, w->sysstall, "sysstall");
	expect_cap(test, got.nooverflow, w->nooverflow, "nooverflow");
	expect_cap(test, got.num_ac, w->num_ac, "num_ac");
	expect_cap(test, got.num_arc, w->num_arc, "num_arc");
	expect_cap(test, got.num_pc, w->num_pc, "num_pc");
	expect_cap(test, got.num_rs, w->num_rs, "num_rs");
	expect_cap(test, got.num_ss, w->num_ss, "num_ss");
	expect_cap(test, got.num_cidc, w->num_cidc, "num_cidc");
	expect_cap(test, got.num_vmidc, w->num_vmidc, "num_vmidc");
	expect_cap(test, got.num_extin, w->num_extin, "num_extin");
	expect_cap(test, got.num_extinsel, w->num_extinsel, "num_extinsel");
	expect_cap(test, got.traceid_bits, w->traceid_bits, "traceid_bits");
	expect_cap(test, got.atbtrig, w->atbtrig, "atbtrig");
	expect_cap(test, got.lpoverride, w->lpoverride, "lpoverride");
	expect_cap(test, got.num_seq_states, w->num_seq_states, "num_seq_states");
	expect_cap(test, got.num_cntr, w->num_cntr, "num_cntr");
	expect_cap(test, got.maxspec, w->maxspec, "maxspec");
	KUNIT_EXPECT_EQ(test, got.idr[0], c->idr[0]);
	KUNIT_EXPECT_EQ(test, got.idr[13], c->idr[13]);
	KUNIT_EXPECT_EQ(test, got.devarch, ETE_TEST_DEVARCH);
}

struct caps_bad_case {
	const char *name;
	unsigned int reg;
	u32 set;	/* OR-ed into the rich image */
	u32 clear;
	u32 devarch;
	int err;
};

static const struct caps_bad_case caps_bad_cases[] = {
	{ "etmv4-devarch", 0, 0, 0, 0x47724a13, -ENODEV },
	{ "absent-devarch", 0, 0, 0, 0, -ENODEV },
	{ "tssize-reserved", 0, 0x05000000, 0x1f000000, ETE_TEST_DEVARCH,
	  -EINVAL },
	{ "vmidsize-reserved", 2, 3 << 10, 0x1f << 10, ETE_TEST_DEVARCH,
	  -EINVAL },
	{ "ccsize-beyond-20-bits", 2, 9 << 25, 0xf << 25, ETE_TEST_DEVARCH,
	  -EINVAL },
	{ "nine-acpairs", 4, 9, 0xf, ETE_TEST_DEVARCH, -EINVAL },
	{ "nine-cidc", 4, 9 << 24, 0xf << 24, ETE_TEST_DEVARCH, -EINVAL },
	{ "three-seq-states", 5, 3 << 25, 7 << 25, ETE_TEST_DEVARCH, -EINVAL },
	{ "five-counters", 5, 5 << 28, 7 << 28, ETE_TEST_DEVARCH, -EINVAL },
};

static void caps_bad_desc(const struct caps_bad_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(caps_bad, caps_bad_cases, caps_bad_desc);

static void ete_caps_decode_rejects(struct kunit *test)
{
	const struct caps_bad_case *c = test->param_value;
	u32 idr[ETE_NUM_IDR];
	struct ete_caps got;

	memcpy(idr, ete_test_idr_rich, sizeof(idr));
	idr[c->reg] = (idr[c->reg] & ~c->clear) | c->set;
	KUNIT_EXPECT_EQ(test, ete_caps_decode(idr, c->devarch, &got), c->err);
	KUNIT_EXPECT_EQ(test, got.num_ac, 0);
}

/* The ID registers a probe reads: TRCIDR0-5 and 8-13, never 6 or 7 */
static void ete_caps_idr_regs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ete_idr_regs[0], 0x1e0U);
	KUNIT_EXPECT_EQ(test, ete_idr_regs[5], 0x1f4U);
	KUNIT_EXPECT_EQ(test, ete_idr_regs[6], 0U);
	KUNIT_EXPECT_EQ(test, ete_idr_regs[7], 0U);
	KUNIT_EXPECT_EQ(test, ete_idr_regs[8], 0x180U);
	KUNIT_EXPECT_EQ(test, ete_idr_regs[13], 0x194U);
}

static struct kunit_case ete_caps_cases[] = {
	KUNIT_CASE_PARAM(ete_caps_decode_image, caps_gen_params),
	KUNIT_CASE_PARAM(ete_caps_decode_rejects, caps_bad_gen_params),
	KUNIT_CASE(ete_caps_idr_regs),
	{}
};

static struct kunit_suite ete_caps_suite = {
	.name = "ete_caps",
	.test_cases = ete_caps_cases,
};

kunit_test_suite(ete_caps_suite);

MODULE_DESCRIPTION("KUnit tests of ETE ID register decoding");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
