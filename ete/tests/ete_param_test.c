// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: overlays, the values a configfs profile keeps, laid over the
 * defaults of units of different shapes (rich, minimal, R52+), and the names
 * that tell the user which field a unit refused.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include <ete/caps.h>
#include <ete/compat.h>
#include <ete/config.h>
#include <ete/param.h>
#include "ete_test_profiles.h"

enum { RICH, MINIMAL, R52 };

static void decode(struct kunit *test, int shape, struct ete_caps *caps)
{
	const u32 *idr = shape == RICH ? ete_test_idr_rich :
			 shape == R52 ? ete_test_idr_r52 :
			 ete_test_idr_minimal;

	KUNIT_ASSERT_EQ(test, ete_caps_decode(idr, ETE_TEST_DEVARCH, caps), 0);
}

static const struct ete_param *find(enum ete_param_group g, const char *name)
{
	unsigned int i;

	for (i = 0; i < ete_num_params; i++)
		if (ete_params[i].group == g && !strcmp(ete_params[i].name, name))
			return &ete_params[i];
	return NULL;
}

/* The table fits the bounds the overlay and configfs are sized for */
static void ete_param_table_fits(struct kunit *test)
{
	enum ete_param_group g;
	unsigned int n = 0;

	KUNIT_EXPECT_LE(test, ete_num_params, (unsigned int)ETE_PARAM_MAX);
	for (g = 0; g < ETE_PG_NR; g++) {
		KUNIT_EXPECT_LE(test, ete_param_group_max(g),
				(unsigned int)ETE_PARAM_MAX_INST);
		if (g != ETE_PG_UNIT)
			n += ete_param_group_max(g) - ete_param_group_first(g);
	}
	/* configfs.c: ETE_CFS_MAX_RES resource directories per profile */
	KUNIT_EXPECT_LE(test, n, 96U);
}

/* One overlay value, then applied to a unit shape */
struct overlay_case {
	const char *desc;
	u8 group;
	const char *name;
	u8 idx;
	const char *val;
	int store_err;		/* written against the rich unit */
	int shape;		/* applied to */
	int apply_err;
	const char *bad_name;	/* ete_param_name() of the refusal */
};

static const struct overlay_case overlay_cases[] = {
	{ "timestamp on rich", ETE_PG_UNIT, "timestamp", 0, "1", 0, RICH, 0,
	  NULL },
	{ "timestamp on r52", ETE_PG_UNIT, "timestamp", 0, "1", 0, R52, 0,
	  NULL },
	{ "addr12 on minimal", ETE_PG_ADDR, "value", 12, "0x1000", 0, MINIMAL,
	  -EOPNOTSUPP, "addr12/value" },
	{ "rs31 select on minimal", ETE_PG_RS, "select", 31, "1", 0, MINIMAL,
	  -EOPNOTSUPP, "rs31/select" },
	{ "cycle_count on minimal", ETE_PG_UNIT, "cycle_count", 0, "1", 0,
	  MINIMAL, -EOPNOTSUPP, "cycle_count" },
	{ "seq fwd1 on minimal", ETE_PG_SEQ, "fwd1", 0, "2", 0, MINIMAL,
	  -EOPNOTSUPP, "seq/fwd1" },
	{ "malformed", ETE_PG_UNIT, "timestamp", 0, "yes", -EINVAL, RICH, 0,
	  NULL },
	{ "beyond rich", ETE_PG_UNIT, "el_s", 0, "4", -EOPNOTSUPP, RICH, 0,
	  NULL },
};

static void overlay_case_desc(const struct overlay_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ete_overlay, overlay_cases, overlay_case_desc);

static void ete_param_overlay_case(struct kunit *test)
{
	const struct overlay_case *c = test->param_value;
	struct ete_caps *rich, *caps;
	struct ete_param_overlay *o;
	const struct ete_param *p = find(c->group, c->name), *bad = NULL;
	struct ete_config *cfg;
	char name[ETE_PARAM_NAME_LEN];
	unsigned int idx = 0;

	rich = kunit_kzalloc(test, sizeof(*rich), GFP_KERNEL);
	caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, rich && caps && o && cfg);
	KUNIT_ASSERT_NOT_NULL(test, p);
	decode(test, RICH, rich);
	decode(test, c->shape, caps);
	ete_config_defaults(&o->cfg, rich);

	KUNIT_ASSERT_EQ(test, ete_param_overlay_store(o, rich, p, c->idx,
						      c->val), c->store_err);
	KUNIT_EXPECT_EQ(test, bitmap_weight(o->set, ETE_PARAM_MAX *
					    ETE_PARAM_MAX_INST),
			c->store_err ? 0U : 1U);

	ete_config_defaults_cpu(cfg, caps, 2);
	KUNIT_EXPECT_EQ(test, ete_param_overlay_apply(o, caps, cfg, &bad, &idx),
			c->apply_err);
	if (c->apply_err) {
		KUNIT_ASSERT_NOT_NULL(test, bad);
		ete_param_name(bad, idx, name, sizeof(name));
		KUNIT_EXPECT_STREQ(test, name, c->bad_name);
	} else if (!c->store_err) {
		KUNIT_EXPECT_EQ(test, ete_param_get(cfg, p, c->idx),
				ete_param_get(&o->cfg, p, c->idx));
	}
}

/* Values not written keep each unit's own defaults, trace ID cpu + 1 */
static void ete_param_overlay_keeps_defaults(struct kunit *test)
{
	struct ete_param_overlay *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	struct ete_config *cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	struct ete_caps *caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	const struct ete_param *p, *bad;
	unsigned int idx;

	KUNIT_ASSERT_TRUE(test, o && cfg && caps);
	decode(test, MINIMAL, caps);
	/* An overlay made on another shape, with odd unset values */
	memset(&o->cfg, 0xff, sizeof(o->cfg));
	p = find(ETE_PG_UNIT, "timestamp");
	KUNIT_ASSERT_EQ(test, ete_param_overlay_store(o, caps, p, 0, "0"), 0);
	ete_config_defaults_cpu(cfg, caps, 3);
	KUNIT_ASSERT_EQ(test, ete_param_overlay_apply(o, caps, cfg, &bad, &idx),
			0);
	KUNIT_EXPECT_EQ(test, cfg->trace_id, 4);
	KUNIT_EXPECT_EQ(test, cfg->sync_period, 4096U);
	KUNIT_EXPECT_FALSE(test, cfg->timestamp);
	KUNIT_EXPECT_EQ(test, cfg->viewinst_event, ETE_EVENT_TRUE);
}

/*
 * Applied in table order: a comparator's context type before its context,
 * so a context valid only with the new type is accepted (rich: 8 context
 * ID comparators, 8 VMID comparators)
 */
static void ete_param_overlay_table_order(struct kunit *test)
{
	struct ete_param_overlay *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	struct ete_config *cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	struct ete_caps *caps = kunit_kzalloc(test, sizeof(*caps), GFP_KERNEL);
	const struct ete_param *p, *bad;
	unsigned int idx;

	KUNIT_ASSERT_TRUE(test, o && cfg && caps);
	decode(test, RICH, caps);
	ete_config_defaults(&o->cfg, caps);
	p = find(ETE_PG_ADDR, "context");
	KUNIT_ASSERT_EQ(test, ete_param_overlay_store(o, caps, p, 3, "7"), 0);
	p = find(ETE_PG_ADDR, "context_type");
	KUNIT_ASSERT_EQ(test, ete_param_overlay_store(o, caps, p, 3, "3"), 0);
	ete_config_defaults(cfg, caps);
	KUNIT_ASSERT_EQ(test, ete_param_overlay_apply(o, caps, cfg, &bad, &idx),
			0);
	KUNIT_EXPECT_EQ(test, cfg->addr[3].context, 7);
	KUNIT_EXPECT_EQ(test, cfg->addr[3].context_type, 3);
}

static void ete_param_names(struct kunit *test)
{
	char name[ETE_PARAM_NAME_LEN];

	ete_param_name(find(ETE_PG_SEQ, "bwd2"), 0, name, sizeof(name));
	KUNIT_EXPECT_STREQ(test, name, "seq/bwd2");
	ete_param_name(find(ETE_PG_ADDR, "context_type"), 15, name,
		       sizeof(name));
	KUNIT_EXPECT_STREQ(test, name, "addr15/context_type");
	ete_param_name(find(ETE_PG_UNIT, "cc_threshold"), 0, name,
		       sizeof(name));
	KUNIT_EXPECT_STREQ(test, name, "cc_threshold");
}

static struct kunit_case ete_param_overlay_cases[] = {
	KUNIT_CASE(ete_param_table_fits),
	KUNIT_CASE_PARAM(ete_param_overlay_case, ete_overlay_gen_params),
	KUNIT_CASE(ete_param_overlay_keeps_defaults),
	KUNIT_CASE(ete_param_overlay_table_order),
	KUNIT_CASE(ete_param_names),
	{}
};

static struct kunit_suite ete_param_overlay_suite = {
	.name = "ete_param_overlay",
	.test_cases = ete_param_overlay_cases,
};

kunit_test_suites(&ete_param_overlay_suite);

MODULE_DESCRIPTION("KUnit tests of ETE parameter overlays (configfs profiles)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
