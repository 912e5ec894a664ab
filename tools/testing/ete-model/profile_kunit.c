// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the pure register-value rules (profile.c): which bits a
 * write may set for each profile and which field values the ID registers
 * allow, table-driven, with the boundary on each side.
 */

#include <linux/bitfield.h>
#include <linux/module.h>
#include <kunit/test.h>

#include "model.h"

/**
 * struct em_value_case - one write and the verdict on it
 * @name: case name
 * @profile: "rich" or "minimal"
 * @reg: register id
 * @idx: instance
 * @val: value written
 * @want: 0, EM_RES0 or EM_IDRANGE
 */
struct em_value_case {
	const char *name;
	const char *profile;
	u32 reg;
	unsigned int idx;
	u64 val;
	int want;
};

#define R	"rich"
#define M	"minimal"
#define SEL_PAIR	BIT(7)

static const struct em_value_case em_value_cases[] = {
	{ "configr_res1_only", R, ETE_TRCCONFIGR, 0, 0x1, 0 },
	{ "configr_res1_clear", R, ETE_TRCCONFIGR, 0, 0x0, EM_RES0 },
	{ "configr_bit18_res0", R, ETE_TRCCONFIGR, 0, 0x1 | BIT(18), EM_RES0 },
	{ "configr_rs_absent_minimal", M, ETE_TRCCONFIGR, 0, 0x1 | BIT(12),
	  EM_RES0 },
	{ "configr_rs_rich", R, ETE_TRCCONFIGR, 0, 0x1 | BIT(12), 0 },
	{ "configr_qe_reserved", R, ETE_TRCCONFIGR, 0, 0x1 | (2 << 13),
	  EM_IDRANGE },
	/* QSUPP 0b11: Q with counts (QE 0b01) and all Q (0b11) on rich */
	{ "configr_qe_counts_rich", R, ETE_TRCCONFIGR, 0, 0x1 | (1 << 13), 0 },
	{ "configr_qe_all_rich", R, ETE_TRCCONFIGR, 0, 0x1 | (3 << 13), 0 },
	{ "configr_qe_absent_minimal", M, ETE_TRCCONFIGR, 0, 0x1 | (1 << 13),
	  EM_RES0 },
	{ "qctlr_include_arc7_rich", R, ETE_TRCQCTLR, 0, BIT(8) | BIT(7), 0 },
	{ "syncpr_off", R, ETE_TRCSYNCPR, 0, 0, 0 },
	{ "syncpr_7_reserved", R, ETE_TRCSYNCPR, 0, 7, EM_IDRANGE },
	{ "syncpr_8", R, ETE_TRCSYNCPR, 0, 8, 0 },
	{ "syncpr_20", R, ETE_TRCSYNCPR, 0, 20, 0 },
	{ "syncpr_21_reserved", R, ETE_TRCSYNCPR, 0, 21, EM_IDRANGE },
	{ "traceid_0_reserved", R, ETE_TRCTRACEIDR, 0, 0, EM_IDRANGE },
	{ "traceid_0x6f", R, ETE_TRCTRACEIDR, 0, 0x6f, 0 },
	{ "traceid_0x70_reserved", R, ETE_TRCTRACEIDR, 0, 0x70, EM_IDRANGE },
	{ "victlr_selector_31_rich", R, ETE_TRCVICTLR, 0, 31, 0 },
	{ "victlr_selector_4_minimal", M, ETE_TRCVICTLR, 0, 4, EM_IDRANGE },
	{ "victlr_selector_3_minimal", M, ETE_TRCVICTLR, 0, 3, 0 },
	{ "victlr_ns_el3_res0", R, ETE_TRCVICTLR, 0, 1 | BIT(23), EM_RES0 },
	{ "eventctl0r_pair_15", R, ETE_TRCEVENTCTL0R, 0, SEL_PAIR | 15, 0 },
	{ "eventctl0r_pair_16", R, ETE_TRCEVENTCTL0R, 0, SEL_PAIR | 16,
	  EM_IDRANGE },
	{ "eventctl0r_event1_minimal", M, ETE_TRCEVENTCTL0R, 0, 1 << 8,
	  EM_RES0 },
	{ "auxctlr_impdef_res0", R, ETE_TRCAUXCTLR, 0, 1, EM_RES0 },
	{ "rsctlr_pairinv_odd_res0", R, ETE_TRCRSCTLR, 3, BIT(21), EM_RES0 },
	{ "rsctlr_pairinv_even", R, ETE_TRCRSCTLR, 2, BIT(21), 0 },
	{ "rsctlr_counter3_seq0", R, ETE_TRCRSCTLR, 2,
	  (2 << 16) | BIT(3) | BIT(4), 0 },
	{ "rsctlr_counter_minimal", M, ETE_TRCRSCTLR, 2, (2 << 16) | 1,
	  EM_IDRANGE },
	{ "rsctlr_sac15", R, ETE_TRCRSCTLR, 2, (4 << 16) | BIT(15), 0 },
	{ "rsctlr_arc8", R, ETE_TRCRSCTLR, 2, (5 << 16) | BIT(8), EM_IDRANGE },
	{ "rsctlr_group_reserved", R, ETE_TRCRSCTLR, 2, 8 << 16, EM_IDRANGE },
	{ "cntctlr_chain_even_res0", R, ETE_TRCCNTCTLR, 0, BIT(17), EM_RES0 },
	{ "cntctlr_chain_odd", R, ETE_TRCCNTCTLR, 1, BIT(17), 0 },
	{ "seqstr_3", R, ETE_TRCSEQSTR, 0, 3, 0 },
	{ "acatr_cid_7", R, ETE_TRCACATR, 0, (7 << 4) | (1 << 2), 0 },
	{ "claimset_bit4_res0", R, ETE_TRCCLAIMSET, 0, 0x10, EM_RES0 },
	{ "trblimitr_fm_reserved", R, ETE_TRBLIMITR_EL1, 0, 2 << 1,
	  EM_IDRANGE },
	{ "trblimitr_tm_reserved", R, ETE_TRBLIMITR_EL1, 0, 2 << 3,
	  EM_IDRANGE },
	{ "trblimitr_circular", R, ETE_TRBLIMITR_EL1, 0, 3 << 1, 0 },
	{ "trbbaser_unaligned_res0", R, ETE_TRBBASER_EL1, 0, 0x800, EM_RES0 },
	{ "trbptr_64_aligned_rich", R, ETE_TRBPTR_EL1, 0, 0x40, 0 },
	{ "trbptr_misaligned_rich", R, ETE_TRBPTR_EL1, 0, 0x20, EM_IDRANGE },
	{ "trbptr_byte_minimal", M, ETE_TRBPTR_EL1, 0, 0x21, 0 },
};

static void em_value_case_desc(const struct em_value_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(em_value, em_value_cases, em_value_case_desc);

static void reg_check_verdict(struct kunit *test)
{
	const struct em_value_case *c = test->param_value;
	const struct em_profile *p = em_profile_find(c->profile);
	u64 wmask;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, em_reg_check(p, c->reg, c->idx, c->val, &wmask),
			c->want);
}

/* The profiles describe what the issue asks of them */
static void profiles_have_their_shapes(struct kunit *test)
{
	const struct em_profile *r = em_profile_find("rich");
	const struct em_profile *m = em_profile_find("minimal");

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_NULL(test, em_profile_find("silicon"));
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR4_NUMACPAIRS, r->idr[4]), 8U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR5_NUMCNTR, r->idr[5]), 4U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR5_NUMSEQSTATE, r->idr[5]), 4U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR4_NUMSSCC, r->idr[4]), 8U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR4_NUMRSPAIR, r->idr[4]), 15U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(GENMASK(28, 25), r->idr[2]) + 12, 20U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR0_TSSIZE, r->idr[0]), 8U);
	KUNIT_EXPECT_TRUE(test, r->idr[0] & EM_IDR0_RETSTACK);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR0_QSUPP, r->idr[0]), 3U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR4_NUMACPAIRS, m->idr[4]), 0U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR5_NUMCNTR, m->idr[5]), 0U);
	KUNIT_EXPECT_EQ(test, FIELD_GET(EM_IDR4_NUMRSPAIR, m->idr[4]), 1U);
}

static struct kunit_case em_profile_cases[] = {
	KUNIT_CASE_PARAM(reg_check_verdict, em_value_gen_params),
	KUNIT_CASE(profiles_have_their_shapes),
	{}
};

static struct kunit_suite em_profile_suite = {
	.name = "ete_model_profile",
	.test_cases = em_profile_cases,
};

kunit_test_suites(&em_profile_suite);
