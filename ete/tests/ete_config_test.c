// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: parsing and validation of every parameter against the caps of a
 * rich and a minimal unit, whole-configuration validation, and the pure
 * configuration-to-register-image function.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include <ete/caps.h>
#include <ete/compat.h>
#include <ete/config.h>
#include <ete/param.h>
#include <ete/regs.h>
#include "ete_test_profiles.h"

enum { RICH, MINIMAL, R52 };

struct ete_test_ctx {
	struct ete_caps caps;
	struct ete_config cfg;
	struct ete_image img;
};

static struct ete_test_ctx *ete_test_setup(struct kunit *test, int profile)
{
	struct ete_test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	const u32 *idr = profile == RICH ? ete_test_idr_rich :
			 profile == R52 ? ete_test_idr_r52 :
			 ete_test_idr_minimal;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_EQ(test, ete_caps_decode(idr, ETE_TEST_DEVARCH,
					      &ctx->caps), 0);
	ete_config_defaults(&ctx->cfg, &ctx->caps);
	return ctx;
}

static const struct ete_param *find_param(enum ete_param_group g,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < ete_num_params; i++)
		if (ete_params[i].group == g && !strcmp(ete_params[i].name, name))
			return &ete_params[i];
	return NULL;
}

/* ------------------------------------------------------------------------
 * ete_param: one value of one parameter on one unit shape
 */

struct param_case {
	int profile;
	u8 group;
	const char *name;
	u8 idx;
	u64 val;
	int err;
};

#define R(g, n, i, v, e)	{ RICH, ETE_PG_##g, n, i, v, e }
#define M(g, n, i, v, e)	{ MINIMAL, ETE_PG_##g, n, i, v, e }

static const struct param_case param_cases[] = {
	R(UNIT, "cycle_count", 0, 1, 0),
	R(UNIT, "cycle_count", 0, 2, -ERANGE),
	R(UNIT, "cc_threshold", 0, 4, 0),		/* CCITMIN */
	R(UNIT, "cc_threshold", 0, 3, -ERANGE),
	R(UNIT, "cc_threshold", 0, 0xfff, 0),
	R(UNIT, "cc_threshold", 0, 0x1000, -ERANGE),
	R(UNIT, "timestamp", 0, 1, 0),
	R(UNIT, "timestamp", 0, 2, -ERANGE),
	R(UNIT, "ts_event", 0, 0x1f, 0),		/* selector 31 */
	R(UNIT, "ts_event", 0, 0x20, -ERANGE),
	R(UNIT, "ts_event", 0, 0x8f, 0),		/* pair 15 */
	R(UNIT, "ts_event", 0, 0x90, -ERANGE),
	R(UNIT, "branch_broadcast", 0, 1, 0),
	R(UNIT, "bb_include", 0, 1, 0),
	R(UNIT, "bb_include", 0, 2, -ERANGE),
	R(UNIT, "bb_ranges", 0, 0xff, 0),
	R(UNIT, "bb_ranges", 0, 0x100, -ERANGE),
	R(UNIT, "return_stack", 0, 1, 0),
	R(UNIT, "context_id", 0, 0, 0),
	R(UNIT, "context_id", 0, 2, -ERANGE),
	R(UNIT, "vmid", 0, 1, 0),
	R(UNIT, "q_elements", 0, 3, 0),
	R(UNIT, "q_elements", 0, 2, -ERANGE),
	R(UNIT, "q_elements", 0, 4, -ERANGE),
	R(UNIT, "q_include", 0, 1, 0),
	R(UNIT, "q_ranges", 0, 0x80, 0),
	R(UNIT, "q_ranges", 0, 0x100, -ERANGE),
	R(UNIT, "stall", 0, 1, 0),
	R(UNIT, "stall_level", 0, 3, 0),
	R(UNIT, "stall_level", 0, 4, -ERANGE),
	R(UNIT, "no_overflow", 0, 1, 0),
	R(UNIT, "sync_period", 0, 256, 0),
	R(UNIT, "sync_period", 0, 1 << 20, 0),
	R(UNIT, "sync_period", 0, 0, 0),
	R(UNIT, "sync_period", 0, 128, -ERANGE),
	R(UNIT, "sync_period", 0, 1 << 21, -ERANGE),
	R(UNIT, "sync_period", 0, 3000, -EINVAL),
	R(UNIT, "trace_id", 0, 0x6f, 0),
	R(UNIT, "trace_id", 0, 0x70, -ERANGE),		/* reserved on ATB */
	R(UNIT, "trace_id", 0, 0, -ERANGE),
	R(UNIT, "el_ns", 0, 7, 0),
	R(UNIT, "el_ns", 0, 8, -ERANGE),
	R(UNIT, "el_s", 0, 3, 0),
	R(UNIT, "el_s", 0, 4, -EOPNOTSUPP),		/* Secure EL2 absent */
	R(UNIT, "el_s", 0, 0x10, -ERANGE),
	R(UNIT, "viewinst_event", 0, 0x81, 0),
	R(UNIT, "viewinst_event", 0, 0x100, -ERANGE),
	R(UNIT, "ss_status", 0, 0, 0),
	R(UNIT, "ss_status", 0, 2, -ERANGE),
	R(UNIT, "trace_errors", 0, 1, 0),
	R(UNIT, "include_ranges", 0, 0xff, 0),
	R(UNIT, "include_ranges", 0, 0x100, -ERANGE),
	R(UNIT, "exclude_ranges", 0, 0x01, 0),
	R(UNIT, "exclude_ranges", 0, 0x1ff, -ERANGE),
	R(UNIT, "start_addrs", 0, 0xffff, 0),
	R(UNIT, "start_addrs", 0, 0x10000, -ERANGE),
	R(UNIT, "stop_addrs", 0, 0x8000, 0),
	R(UNIT, "stop_addrs", 0, 0x18000, -ERANGE),
	R(UNIT, "atb_trigger", 0, 1, 0),
	R(UNIT, "sample_window", 0, 5000, 0),
	R(UNIT, "sample_window", 0, 65536, 0),
	R(UNIT, "sample_window", 0, 65537, -ERANGE),	/* a 16-bit counter */
	R(UNIT, "sample_window", 0, 1, -ERANGE),
	R(UNIT, "sample_period", 0, 1ULL << 32, 0),
	R(UNIT, "sample_period", 0, (1ULL << 32) + 1, -ERANGE),
	R(UNIT, "sample_period", 0, 3, -ERANGE),
	R(EVENT, "select", 3, 0x1f, 0),
	R(EVENT, "select", 3, 0x40, -ERANGE),
	R(EVENT, "trace", 3, 1, 0),
	R(EVENT, "trace", 3, 2, -ERANGE),
	R(EXTIN, "select", 3, 0xffff, 0),
	R(EXTIN, "select", 3, 0x10000, -ERANGE),
	R(SEQ, "state", 0, 3, 0),
	R(SEQ, "state", 0, 4, -ERANGE),
	R(SEQ, "reset_event", 0, 0x85, 0),
	R(SEQ, "fwd0", 0, 0x02, 0),
	R(SEQ, "fwd1", 0, 0x02, 0),
	R(SEQ, "fwd2", 0, 0x81, 0),
	R(SEQ, "bwd0", 0, 0x20, -ERANGE),
	R(SEQ, "bwd1", 0, 0x1f, 0),
	R(SEQ, "bwd2", 0, 0x3, 0),
	R(ADDR, "value", 15, ~0ULL, 0),
	R(ADDR, "value", 16, 0, -EOPNOTSUPP),
	R(ADDR, "context_type", 15, 3, 0),
	R(ADDR, "context_type", 15, 4, -ERANGE),
	R(ADDR, "context", 15, 7, 0),
	R(ADDR, "context", 15, 8, -ERANGE),
	R(ADDR, "context", 16, 0, -EOPNOTSUPP),
	R(ADDR, "el_ns", 0, 5, 0),
	R(ADDR, "el_ns", 0, 0xf, -ERANGE),
	R(ADDR, "el_s", 0, 8, -EOPNOTSUPP),		/* EL3 not traced */
	R(CNTR, "reload", 3, 0xffff, 0),
	R(CNTR, "reload", 3, 0x10000, -ERANGE),
	R(CNTR, "reload", 4, 1, -EOPNOTSUPP),
	R(CNTR, "value", 0, 0xffff, 0),
	R(CNTR, "value", 0, 0x10000, -ERANGE),
	R(CNTR, "count_event", 1, 0x8f, 0),
	R(CNTR, "count_event", 1, 0xa0, -ERANGE),
	R(CNTR, "reload_event", 2, 0x10, 0),
	R(CNTR, "reload_self", 2, 1, 0),
	R(CNTR, "chain", 3, 1, 0),
	R(CNTR, "chain", 2, 1, -EOPNOTSUPP),		/* odd counters only */
	R(SS, "sac", 7, 0xffff, 0),
	R(SS, "sac", 7, 0x10000, -ERANGE),
	R(SS, "arc", 7, 0xff, 0),
	R(SS, "arc", 7, 0x100, -ERANGE),
	R(SS, "pc", 0, 1, -EOPNOTSUPP),			/* NUMPC = 0 */
	R(SS, "multi_shot", 0, 1, 0),
	R(SS, "fired", 0, 1, 0),
	R(SS, "fired", 0, 3, -ERANGE),
	R(RS, "group", 31, 7, 0),
	R(RS, "group", 31, 8, -ERANGE),
	R(RS, "select", 2, 0xf, 0),			/* 4 ext. inputs */
	R(RS, "select", 2, 0x10, -ERANGE),
	R(RS, "select", 1, 0, -EOPNOTSUPP),		/* fixed selector */
	R(RS, "invert", 3, 1, 0),
	R(RS, "pair_invert", 30, 1, 0),
	R(RS, "pair_invert", 31, 1, -EOPNOTSUPP),	/* even only */
	R(CTXID, "value", 7, 0xffffffff, 0),
	R(CTXID, "value", 7, 0x100000000ULL, -ERANGE),
	R(CTXID, "mask", 7, 0xf, 0),			/* 4-byte CID */
	R(CTXID, "mask", 7, 0x10, -ERANGE),
	R(VMID, "value", 0, 0xffffffff, 0),
	R(VMID, "value", 0, 0x100000000ULL, -ERANGE),
	R(VMID, "mask", 0, 0x0f, 0),
	R(VMID, "mask", 0, 0x10, -ERANGE),

	M(UNIT, "cycle_count", 0, 1, -EOPNOTSUPP),
	M(UNIT, "cycle_count", 0, 0, 0),
	M(UNIT, "cc_threshold", 0, 0x100, -EOPNOTSUPP),
	M(UNIT, "timestamp", 0, 1, -EOPNOTSUPP),
	M(UNIT, "branch_broadcast", 0, 1, -EOPNOTSUPP),
	M(UNIT, "bb_ranges", 0, 0, -EOPNOTSUPP),
	M(UNIT, "return_stack", 0, 1, -EOPNOTSUPP),
	M(UNIT, "context_id", 0, 1, -EOPNOTSUPP),
	M(UNIT, "vmid", 0, 1, -EOPNOTSUPP),
	M(UNIT, "q_elements", 0, 1, -EOPNOTSUPP),
	M(UNIT, "q_elements", 0, 0, 0),
	M(UNIT, "stall", 0, 1, -EOPNOTSUPP),
	M(UNIT, "trace_errors", 0, 1, -EOPNOTSUPP),
	M(UNIT, "atb_trigger", 0, 1, -EOPNOTSUPP),
	M(UNIT, "sample_window", 0, 5000, -EOPNOTSUPP),	/* no counters */
	M(UNIT, "sample_window", 0, 0, 0),
	M(UNIT, "sample_period", 0, 50000, -EOPNOTSUPP),
	M(UNIT, "el_ns", 0, 4, -EOPNOTSUPP),		/* no EL2 */
	M(UNIT, "el_ns", 0, 3, 0),
	M(UNIT, "ts_event", 0, 1, -EOPNOTSUPP),		/* no timestamps */
	M(UNIT, "viewinst_event", 0, 1, 0),
	M(UNIT, "viewinst_event", 0, 2, -ERANGE),	/* 2 selectors */
	M(UNIT, "viewinst_event", 0, 0x80, 0),
	M(UNIT, "viewinst_event", 0, 0x81, -ERANGE),
	M(UNIT, "include_ranges", 0, 0, -EOPNOTSUPP),
	M(UNIT, "trace_id", 0, 0x6f, 0),
	M(EVENT, "select", 0, 1, 0),
	M(EVENT, "select", 1, 1, -EOPNOTSUPP),
	M(ADDR, "value", 0, 0, -EOPNOTSUPP),
	M(CNTR, "reload", 0, 0, -EOPNOTSUPP),
	M(SEQ, "state", 0, 0, -EOPNOTSUPP),
	M(RS, "group", 2, 0, -EOPNOTSUPP),
	M(CTXID, "value", 0, 0, -EOPNOTSUPP),
	M(EXTIN, "select", 0, 0, -EOPNOTSUPP),
};

static void param_case_desc(const struct param_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s%s%u/%s=%#llx", c->profile == RICH ?
		 "rich" : "minimal", ete_param_group_name(c->group) ?: "",
		 ete_param_group_name(c->group) ? "" : "unit", c->idx, c->name,
		 c->val);
}

KUNIT_ARRAY_PARAM(param, param_cases, param_case_desc);

static void ete_param_set_value(struct kunit *test)
{
	const struct param_case *c = test->param_value;
	struct ete_test_ctx *ctx = ete_test_setup(test, c->profile);
	const struct ete_param *p = find_param(c->group, c->name);
	u64 before = 0;
	bool visible;

	KUNIT_ASSERT_NOT_NULL(test, p);
	visible = ete_param_visible(p, &ctx->caps, c->idx);
	if (visible)
		before = ete_param_get(&ctx->cfg, p, c->idx);
	KUNIT_EXPECT_EQ(test, ete_param_set(&ctx->cfg, &ctx->caps, p, c->idx,
					    c->val), c->err);
	if (!visible)
		return;
	KUNIT_EXPECT_EQ(test, ete_param_get(&ctx->cfg, p, c->idx),
			c->err ? before : c->val);
	/* Valid alone; a conflict with another field is ete_config_conflicts' */
	if (!c->err)
		KUNIT_EXPECT_EQ(test, ete_config_validate(&ctx->cfg, &ctx->caps),
				ete_config_conflict(&ctx->cfg) ? -EINVAL : 0);
}

/* Every parameter has at least one case above, so a new one needs tests */
static void ete_param_every_field_tested(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ete_num_params; i++) {
		bool found = false;

		for (j = 0; j < ARRAY_SIZE(param_cases); j++)
			if (param_cases[j].group == ete_params[i].group &&
			    !strcmp(param_cases[j].name, ete_params[i].name))
				found = true;
		KUNIT_EXPECT_TRUE_MSG(test, found, "no case for %s",
				      ete_params[i].name);
	}
}

struct parse_case {
	const char *buf;
	int err;
	u64 val;
};

static const struct parse_case parse_cases[] = {
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "abc", -EINVAL },
	{ "-1", -EINVAL },
	{ "1 2", -EINVAL },
	{ "0x", -EINVAL },
	{ "99999999999999999999999", -ERANGE },
	{ "0x10000000000000000", -ERANGE },
	{ "42\n", 0, 42 },
	{ "0x2a", 0, 42 },
	{ "052", 0, 42 },
	{ "0", 0, 0 },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->buf);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void ete_param_parse_text(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	u64 val = 0;

	KUNIT_EXPECT_EQ(test, ete_param_parse(c->buf, &val), c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, val, c->val);
}

/* Changing a selector's group must keep its selection meaningful */
static void ete_param_rs_group_select(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	const struct ete_param *grp = find_param(ETE_PG_RS, "group");
	const struct ete_param *sel = find_param(ETE_PG_RS, "select");

	KUNIT_ASSERT_EQ(test, ete_param_set(&ctx->cfg, &ctx->caps, grp, 4, 4), 0);
	KUNIT_EXPECT_EQ(test, ete_param_set(&ctx->cfg, &ctx->caps, sel, 4,
					    0xffff), 0);	/* 16 SACs */
	KUNIT_EXPECT_EQ(test, ete_param_set(&ctx->cfg, &ctx->caps, grp, 4, 0),
			-ERANGE);	/* only 4 external input selectors */
	KUNIT_EXPECT_EQ(test, ctx->cfg.rs[4].group, 4);
}

static void ete_param_store_keeps_old(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	const struct ete_param *p = find_param(ETE_PG_UNIT, "trace_id");
	static const char * const bad[] = { "", "x", "-5", "0x70",
					    "18446744073709551616" };
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ete_param_store(&ctx->cfg, &ctx->caps, p, 0,
					      "0x10\n"), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_LT(test, ete_param_store(&ctx->cfg, &ctx->caps, p,
						      0, bad[i]), 0);
		KUNIT_EXPECT_EQ(test, ctx->cfg.trace_id, 0x10);
	}
}

static void ete_config_defaults_valid(struct kunit *test)
{
	struct ete_test_ctx *rich = ete_test_setup(test, RICH);
	struct ete_test_ctx *min = ete_test_setup(test, MINIMAL);
	struct ete_test_ctx *r52 = ete_test_setup(test, R52);

	KUNIT_EXPECT_EQ(test, ete_config_validate(&rich->cfg, &rich->caps), 0);
	KUNIT_EXPECT_EQ(test, ete_config_validate(&min->cfg, &min->caps), 0);
	KUNIT_EXPECT_EQ(test, ete_config_validate(&r52->cfg, &r52->caps), 0);
	KUNIT_EXPECT_EQ(test, rich->cfg.el_ns, 7);
	KUNIT_EXPECT_EQ(test, min->cfg.el_ns, 3);
	KUNIT_EXPECT_TRUE(test, rich->cfg.context_id);
	KUNIT_EXPECT_FALSE(test, rich->cfg.timestamp);
	KUNIT_EXPECT_EQ(test, rich->cfg.viewinst_event, ETE_EVENT_TRUE);
}

/* A configuration valid on one unit is refused on a smaller one */
static void ete_config_validate_against_caps(struct kunit *test)
{
	struct ete_test_ctx *rich = ete_test_setup(test, RICH);
	struct ete_test_ctx *min = ete_test_setup(test, MINIMAL);

	/* The minimal unit's defaults, with what only the rich unit has */
	min->cfg.cycle_count = true;
	KUNIT_EXPECT_EQ(test, ete_config_validate(&min->cfg, &rich->caps), 0);
	KUNIT_EXPECT_EQ(test, ete_config_validate(&min->cfg, &min->caps),
			-EOPNOTSUPP);
	min->cfg.cycle_count = false;
	min->cfg.viewinst_event = 5;
	KUNIT_EXPECT_EQ(test, ete_config_validate(&min->cfg, &rich->caps), 0);
	KUNIT_EXPECT_EQ(test, ete_config_validate(&min->cfg, &min->caps),
			-ERANGE);
}

/* Combinations refused when a session starts, whatever the write order */
static void ete_config_conflicts(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_config *c = &ctx->cfg;

	c->no_overflow = true;
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	KUNIT_EXPECT_EQ(test, ete_config_validate(c, &ctx->caps), -EINVAL);
	c->stall = true;
	KUNIT_EXPECT_NULL(test, ete_config_conflict(c));
	c->branch_broadcast = true;
	c->bb_include = true;
	KUNIT_EXPECT_EQ(test, ete_config_validate(c, &ctx->caps), -EINVAL);
	c->bb_ranges = 1;
	KUNIT_EXPECT_EQ(test, ete_config_validate(c, &ctx->caps), 0);
}

/*
 * Sampled trace: a period that is not 2 to 65536 whole windows, a period
 * without a window, or the resources it programs set by the user too
 */
static void ete_config_sample_conflicts(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_config *c = &ctx->cfg;

	c->sample_period = 50000;
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	c->sample_window = 5000;
	KUNIT_EXPECT_NULL(test, ete_config_conflict(c));
	KUNIT_EXPECT_EQ(test, ete_config_validate(c, &ctx->caps), 0);
	c->sample_period = 52000;			/* not whole windows */
	KUNIT_EXPECT_EQ(test, ete_config_validate(c, &ctx->caps), -EINVAL);
	c->sample_period = 5000;			/* one window */
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	c->sample_period = 5000ULL * 65537;
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	c->sample_period = 5000ULL * 65536;
	KUNIT_EXPECT_NULL(test, ete_config_conflict(c));
	c->cntr[1].count_event = ETE_EVENT_TRUE;
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	c->cntr[1].count_event = 0;
	c->viewinst_event = 2;
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	c->viewinst_event = ETE_EVENT_TRUE;
	c->seq_fwd[2] = 1;
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	c->seq_fwd[2] = 0;
	c->rs[4].select = 1;
	KUNIT_EXPECT_NOT_NULL(test, ete_config_conflict(c));
	c->rs[4].select = 0;
	c->cntr[2].count_event = ETE_EVENT_TRUE;	/* not sampling's */
	KUNIT_EXPECT_NULL(test, ete_config_conflict(c));
}

/*
 * Comparator programming the architecture makes UNPREDICTABLE or
 * CONSTRAINED UNPREDICTABLE is refused when a session starts; each case
 * sets up one such combination on the defaults and names the rule the
 * refusal must cite, then the same fields made legal must pass.
 */
struct ete_cmp_case {
	const char *name;
	const char *tag;	/* in the refusal, NULL: accepted */
	void (*set)(struct ete_config *c);
};

static void cmp_range_reversed(struct ete_config *c)
{
	c->addr[2].value = 0x2000;
	c->addr[3].value = 0x1fff;
	c->include_ranges = BIT(1);
}

static void cmp_range_reversed_unused(struct ete_config *c)
{
	c->addr[2].value = 0x2000;
	c->addr[3].value = 0x1fff;	/* no filter uses range 1 */
}

static void cmp_range_one_address(struct ete_config *c)
{
	c->addr[0].value = 0x2000;
	c->addr[1].value = 0x2000;
	c->exclude_ranges = BIT(0);
}

static void cmp_range_reversed_bb(struct ete_config *c)
{
	cmp_range_reversed_unused(c);
	c->branch_broadcast = true;
	c->bb_include = true;
	c->bb_ranges = BIT(1);
}

static void cmp_range_reversed_ss(struct ete_config *c)
{
	cmp_range_reversed_unused(c);
	c->ss[0].arc = BIT(1);
}

static void cmp_range_reversed_rs(struct ete_config *c)
{
	cmp_range_reversed_unused(c);
	c->rs[2].group = 5;	/* address range comparators */
	c->rs[2].select = BIT(1);
}

static void cmp_range_attrs_differ(struct ete_config *c)
{
	c->addr[0].value = 0x1000;
	c->addr[1].value = 0x1fff;
	c->addr[1].el_ns = ETE_EL0;	/* addr0 keeps every EL */
	c->include_ranges = BIT(0);
}

static void cmp_range_context_differs(struct ete_config *c)
{
	c->addr[0].value = 0x1000;
	c->addr[1].value = 0x1fff;
	c->addr[0].context_type = 1;
	c->q_elements = 3;
	c->q_include = true;
	c->q_ranges = BIT(0);
}

static void cmp_start_stop_same(struct ete_config *c)
{
	c->addr[4].value = 0x1000;
	c->addr[5].value = 0x1000;
	c->start_addrs = BIT(4);
	c->stop_addrs = BIT(5);
}

static void cmp_start_stop_one_sac(struct ete_config *c)
{
	c->addr[4].value = 0x1000;
	c->start_addrs = BIT(4);
	c->stop_addrs = BIT(4);
}

static void cmp_start_stop_order(struct ete_config *c)
{
	c->addr[4].value = 0x2000;	/* start */
	c->addr[5].value = 0x1000;	/* stop, lower address, higher SAC */
	c->start_addrs = BIT(4);
	c->stop_addrs = BIT(5);
}

static void cmp_start_order(struct ete_config *c)
{
	c->addr[4].value = 0x3000;
	c->addr[6].value = 0x1000;
	c->start_addrs = BIT(4) | BIT(6);
}

static void cmp_two_stops_one_address(struct ete_config *c)
{
	c->addr[4].value = 0x1000;	/* start */
	c->addr[5].value = 0x1008;	/* two stops: one role, legal */
	c->addr[6].value = 0x1008;
	c->start_addrs = BIT(4);
	c->stop_addrs = BIT(5) | BIT(6);
}

static void cmp_start_and_stop_twice(struct ete_config *c)
{
	c->addr[4].value = 0x1000;	/* start */
	c->addr[5].value = 0x1008;	/* stop */
	c->addr[6].value = 0x1008;	/* start again on the stop's address */
	c->start_addrs = BIT(4) | BIT(6);
	c->stop_addrs = BIT(5);
}

static void cmp_point_odd(struct ete_config *c)
{
	c->addr[4].value = 0x1001;
	c->start_addrs = BIT(4);
}

static void cmp_point_odd_ss(struct ete_config *c)
{
	c->addr[7].value = 0x1003;
	c->ss[1].sac = BIT(7);
}

static void cmp_point_odd_rs(struct ete_config *c)
{
	c->addr[7].value = 0x1003;
	c->rs[3].group = 4;	/* single address comparators */
	c->rs[3].select = BIT(7);
}

static void cmp_range_odd_end(struct ete_config *c)
{
	c->addr[0].value = 0x1000;
	c->addr[1].value = 0x1fff;	/* a range ends on any byte */
	c->include_ranges = BIT(0);
}

static const struct ete_cmp_case ete_cmp_cases[] = {
	{ "range end below start", "SWFSPV", cmp_range_reversed },
	{ "reversed range unused", NULL, cmp_range_reversed_unused },
	{ "range of one address", NULL, cmp_range_one_address },
	{ "reversed range in branch broadcast", "SWFSPV",
	  cmp_range_reversed_bb },
	{ "reversed range in a single-shot", "SWFSPV", cmp_range_reversed_ss },
	{ "reversed range in a resource selector", "SWFSPV",
	  cmp_range_reversed_rs },
	{ "range halves with different ELs", "RXYJLC", cmp_range_attrs_differ },
	{ "range halves with different contexts", "RXYJLC",
	  cmp_range_context_differs },
	{ "start and stop on one address", "RXHFYQ", cmp_start_stop_same },
	{ "one SAC start and stop", "RXHFYQ", cmp_start_stop_one_sac },
	{ "start/stop SACs out of address order", "RSFXZB",
	  cmp_start_stop_order },
	{ "start SACs out of address order", "RSFXZB", cmp_start_order },
	{ "two stops on one address", NULL, cmp_two_stops_one_address },
	{ "a start on a stop's address", "RVFFWS", cmp_start_and_stop_twice },
	{ "start point on an odd address", "SMLDYK", cmp_point_odd },
	{ "single-shot SAC on an odd address", "SMLDYK", cmp_point_odd_ss },
	{ "resource SAC on an odd address", "SMLDYK", cmp_point_odd_rs },
	{ "range ending on an odd byte", NULL, cmp_range_odd_end },
};

static void ete_cmp_case_desc(const struct ete_cmp_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ete_cmp, ete_cmp_cases, ete_cmp_case_desc);

static void ete_config_comparator_rules(struct kunit *test)
{
	const struct ete_cmp_case *t = test->param_value;
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	const char *why;

	t->set(&ctx->cfg);
	why = ete_config_conflict(&ctx->cfg);
	if (!t->tag) {
		KUNIT_EXPECT_NULL_MSG(test, why, "%s", why ?: "");
		KUNIT_EXPECT_EQ(test, ete_config_validate(&ctx->cfg,
							  &ctx->caps), 0);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, t->tag), "%s", why);
	KUNIT_EXPECT_EQ(test, ete_config_validate(&ctx->cfg, &ctx->caps),
			-EINVAL);
}

/* ------------------------------------------------------------------------
 * ete_config_image
 */

/* Every selector named, each selecting every resource of its group */
static void cfg_reference_all(struct ete_config *c)
{
	unsigned int i;

	c->viewinst_event = ETE_EVENT_PAIR | 1;
	for (i = 0; i < ETE_MAX_EVENTS; i++)
		c->event[i] = ETE_EVENT_PAIR | (2 + i);
	c->ts_event = ETE_EVENT_PAIR | 6;
	for (i = 0; i < ETE_MAX_CNTR; i++) {
		c->cntr[i].count_event = ETE_EVENT_PAIR | (7 + i);
		c->cntr[i].reload_event = ETE_EVENT_PAIR | (11 + i);
	}
	c->seq_reset = ETE_EVENT_PAIR | 15;
	for (i = 2; i < ETE_MAX_RS; i++)
		c->rs[i] = (struct ete_rs_config){ i % 8, 0xffff, false,
						   false };
	for (i = 0; i < ETE_MAX_SS; i++)
		c->ss[i].pc = 0xff;
}

static u64 img(struct kunit *test, const struct ete_image *i, u32 reg)
{
	bool found;
	u64 v = ete_image_get(i, reg, &found);

	KUNIT_EXPECT_TRUE_MSG(test, found, "reg %#x not in image", reg);
	return v;
}

static void img_absent(struct kunit *test, const struct ete_image *i, u32 reg)
{
	bool found;

	ete_image_get(i, reg, &found);
	KUNIT_EXPECT_FALSE_MSG(test, found, "reg %#x in image", reg);
}

static void ete_image_defaults_el1(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_el2 = false, .kernel_allowed = true,
			       .reader_allowed = true };

	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCONFIGR),
			BIT(0) | BIT(6));	/* RES1, CID */
	/* EVENT = 1 (TRUE), SSSTATUS, Secure EL0/1 excluded, NS all traced */
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVICTLR),
			0x1ULL | BIT(9) | (0x3 << 16));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCSYNCPR), 12);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCTRACEIDR), 1);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCCCTLR), 0x100);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCRSR), 0);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVISSCTLR), 0);
	KUNIT_EXPECT_EQ(test, ctx->img.trfcr, 0x23ULL);	/* TS virtual, E1, E0 */
	KUNIT_EXPECT_FALSE(test, ctx->img.kernel_filtered);
	img_absent(test, &ctx->img, ETE_TRCRSCTLR_N(1));
	/* ViewInst is selector 1 (TRUE): no resource is referenced */
	img_absent(test, &ctx->img, ETE_TRCRSCTLR_N(2));
	img_absent(test, &ctx->img, ETE_TRCRSCTLR_N(31));
	img_absent(test, &ctx->img, ETE_TRCACVR_N(0));
	img_absent(test, &ctx->img, ETE_TRCACATR_N(15));
	img_absent(test, &ctx->img, ETE_TRCCIDCVR_N(0));
	img_absent(test, &ctx->img, ETE_TRCCIDCCTLR1);
	img_absent(test, &ctx->img, ETE_TRCVMIDCCTLR0);
	img_absent(test, &ctx->img, ETE_TRCSEQEVR_N(2));
	img_absent(test, &ctx->img, ETE_TRCSEQSTR);
	img_absent(test, &ctx->img, ETE_TRCCNTVR_N(0));
	img_absent(test, &ctx->img, ETE_TRCSSCSR_N(0));
	img_absent(test, &ctx->img, ETE_TRCEXTINSELR_N(0));
	/* the control registers, TRCRSR and TRCAUXCTLR */
	KUNIT_EXPECT_LE(test, ctx->img.nr, 16U);
}

static void ete_image_unprivileged(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_el2 = false, .kernel_allowed = false,
			       .reader_allowed = true };

	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_TRUE(test, ctx->img.kernel_filtered);
	/* EXLEVEL_NS: EL1 and EL2 excluded */
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVICTLR) & (7 << 20),
			0x6ULL << 20);
	KUNIT_EXPECT_EQ(test, ctx->img.trfcr, 0x21ULL);
}

/*
 * The privilege rule at the buffer: a privileged starter, a reader who may
 * not see the kernel (its buffer opened without CAP_PERFMON).  EL1, EL2,
 * every Secure EL and TRCERR go; EL0 stays; the reason is the reader's.
 */
static void ete_image_reader_unprivileged(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_allowed = true, .reader_allowed = false };
	u64 v;

	ctx->cfg.el_s = ctx->caps.exlevel_s;
	ctx->cfg.trace_errors = true;
	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, ctx->img.kernel_filtered, ETE_FILTERED_READER);
	v = img(test, &ctx->img, ETE_TRCVICTLR);
	KUNIT_EXPECT_EQ(test, v & (7 << 20), 0x6ULL << 20);
	KUNIT_EXPECT_EQ(test, v & (0xf << 16),
			(u64)ctx->caps.exlevel_s << 16);
	KUNIT_EXPECT_EQ(test, v & BIT(11), 0ULL);	/* TRCERR */
	KUNIT_EXPECT_EQ(test, ctx->img.trfcr, 0x21ULL);	/* TS, E0 */
	/* the configuration is left as written */
	KUNIT_EXPECT_EQ(test, ctx->cfg.el_s, ctx->caps.exlevel_s);
}

/* Secure ELs alone, with EL0: filtered for an unprivileged starter too */
static void ete_image_unprivileged_secure(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_allowed = false, .reader_allowed = false };

	KUNIT_ASSERT_NE(test, ctx->caps.exlevel_s, 0);
	ctx->cfg.el_ns = ETE_EL0;
	ctx->cfg.el_s = ctx->caps.exlevel_s;
	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, ctx->img.kernel_filtered,
			ETE_FILTERED_STARTER | ETE_FILTERED_READER);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVICTLR) & (0xf << 16),
			(u64)ctx->caps.exlevel_s << 16);
	/* both allowed: the Secure ELs the user chose are traced */
	env.kernel_allowed = true;
	env.reader_allowed = true;
	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, ctx->img.kernel_filtered, 0);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVICTLR) & (0xf << 16),
			0ULL);
}

/* A VHE kernel's PID is in CONTEXTIDR_EL2: traced as the VMID */
static void ete_image_vhe_pid(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_el2 = true, .kernel_allowed = true,
			       .reader_allowed = true };

	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCONFIGR),
			BIT(0) | BIT(7) | BIT(15));
	KUNIT_EXPECT_EQ(test, ctx->img.trfcr, 0x2bULL);	/* + CX */
}

static void ete_image_fields(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_allowed = true, .reader_allowed = true };
	struct ete_config *c = &ctx->cfg;

	c->cycle_count = true;
	c->cc_threshold = 0x123;
	c->timestamp = true;
	c->return_stack = true;
	c->branch_broadcast = true;
	c->bb_include = true;
	c->bb_ranges = 0x5;
	c->q_elements = ETE_QE_ALL;
	c->stall = true;
	c->stall_level = 2;
	c->no_overflow = true;
	c->sync_period = 1 << 20;
	c->event[1] = 0x83;
	c->event_trace[1] = true;
	c->atb_trigger = true;
	c->include_ranges = 0x3;
	c->exclude_ranges = 0x80;
	c->start_addrs = 0x1;
	c->stop_addrs = 0x8000;
	c->cntr[1] = (struct ete_cntr_config){ 0x10, 0x20, 0x2, 0x83, true, true };
	c->rs[2] = (struct ete_rs_config){ 4, 0x3, true, true };
	c->rs[3] = (struct ete_rs_config){ 4, 0x3, true, true };
	c->ss[0] = (struct ete_ss_config){ 0x2, 0x1, 0, true, true };
	/* Ranges in use legal: in order, halves alike (ete_config_conflict) */
	c->addr[0].value = 0x1000;
	c->addr[1].value = 0x2000;
	c->addr[2] = (struct ete_addr_config){ 0xffff800000000000ULL, 1, 2,
					      ETE_EL1, 0 };
	c->addr[3] = (struct ete_addr_config){ 0xffff800008000000ULL, 1, 2,
					      ETE_EL1, 0 };
	c->addr[15].value = 0xffff900000000000ULL;
	c->ctxid[5].mask = 0xf;
	c->seq_fwd[1] = 0x4;
	c->seq_bwd[1] = 0x85;
	c->seq_state = 2;
	/*
	 * Referenced, so in the image: ViewInst names pair 1 (selectors 2
	 * and 3: SACs 0, 1), ETEEvent 1 pair 3: selector 6 the counter 1 at
	 * zero and sequencer state 1, selector 7 single-shot control 0;
	 * ACATR 2 and 3 name context ID comparator 5.
	 */
	c->viewinst_event = 0x81;
	c->rs[6] = (struct ete_rs_config){ 2, 0x22, false, false };
	c->rs[7] = (struct ete_rs_config){ 3, 0x1, false, false };
	c->addr[2].context = 5;
	c->addr[3].context = 5;
	KUNIT_ASSERT_EQ(test, ete_config_validate(c, &ctx->caps), 0);

	ete_config_to_image(c, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCONFIGR),
			BIT(0) | BIT(3) | BIT(4) | BIT(6) | BIT(11) |
			BIT(12) | (3 << 13));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCCCTLR), 0x123);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCBBCTLR), 0x105);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCSTALLCTLR),
			(2 << 2) | BIT(8) | BIT(13));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCSYNCPR), 20);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCEVENTCTL0R), 0x8300);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCEVENTCTL1R),
			BIT(1) | BIT(11));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVIIECTLR), 0x800003);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVISSCTLR),
			0x80000001);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCNTRLDVR_N(1)), 0x10);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCNTVR_N(1)), 0x20);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCNTCTLR_N(1)),
			0x2 | (0x83 << 8) | BIT(16) | BIT(17));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCRSCTLR_N(2)),
			0x3 | (4 << 16) | BIT(20) | BIT(21));
	/* PAIRINV is RES0 in the upper selector of a pair (RKTNJM) */
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCRSCTLR_N(3)),
			0x3 | (4 << 16) | BIT(20));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCSSCCR_N(0)),
			0x2 | (1 << 16) | BIT(24));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCSSCSR_N(0)), BIT(31));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCACVR_N(3)),
			0xffff800008000000ULL);
	/* CONTEXTTYPE 1, CONTEXT 5, Secure all excluded, NS EL0 and EL2 */
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCACATR_N(3)),
			(1 << 2) | (5 << 4) | (3 << 8) | (5 << 12));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCIDCCTLR1), 0xf00);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCSEQEVR_N(1)), 0x8504);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCSEQSTR), 2);
	/* counter 1 is chained: counter 0 counts into it (G.17a) */
	img(test, &ctx->img, ETE_TRCCNTVR_N(0));
	img_absent(test, &ctx->img, ETE_TRCCNTVR_N(2));
	img_absent(test, &ctx->img, ETE_TRCSSCCR_N(1));
	/* SACs 4 and 5 are branch broadcast's ARC 2; 6 to 13 nothing's */
	img(test, &ctx->img, ETE_TRCACVR_N(4));
	img_absent(test, &ctx->img, ETE_TRCACVR_N(6));
	img_absent(test, &ctx->img, ETE_TRCACATR_N(13));
	img_absent(test, &ctx->img, ETE_TRCCIDCVR_N(4));
	img(test, &ctx->img, ETE_TRCCIDCVR_N(5));
}

/* Only registers the unit implements are in the image */
static void ete_image_minimal(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, MINIMAL);
	struct ete_env env = { .kernel_allowed = true, .reader_allowed = true };

	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCCONFIGR), 1);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCVICTLR), 0x201ULL);
	img_absent(test, &ctx->img, ETE_TRCCCCTLR);
	img_absent(test, &ctx->img, ETE_TRCTSCTLR);
	img_absent(test, &ctx->img, ETE_TRCVIIECTLR);
	img_absent(test, &ctx->img, ETE_TRCVISSCTLR);
	img_absent(test, &ctx->img, ETE_TRCBBCTLR);
	img_absent(test, &ctx->img, ETE_TRCSTALLCTLR);
	img_absent(test, &ctx->img, ETE_TRCQCTLR);
	img_absent(test, &ctx->img, ETE_TRCSEQSTR);
	img_absent(test, &ctx->img, ETE_TRCRSCTLR_N(2));
	img_absent(test, &ctx->img, ETE_TRCACVR);
	img_absent(test, &ctx->img, ETE_TRCCIDCCTLR0);
	KUNIT_EXPECT_LE(test, ctx->img.nr, 16U);
}

/* Every resource of the rich unit referenced: the whole image still fits */
static void ete_image_fits(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_allowed = true, .reader_allowed = true };

	cfg_reference_all(&ctx->cfg);
	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_LT(test, ctx->img.nr, (unsigned int)ETE_IMAGE_MAX);
	KUNIT_EXPECT_GT(test, ctx->img.nr, 120U);
	img(test, &ctx->img, ETE_TRCRSCTLR_N(31));
	img(test, &ctx->img, ETE_TRCACATR_N(15));
	img(test, &ctx->img, ETE_TRCCIDCCTLR1);
	img(test, &ctx->img, ETE_TRCVMIDCCTLR1);
	img(test, &ctx->img, ETE_TRCSEQEVR_N(2));
	img(test, &ctx->img, ETE_TRCSSCSR_N(7));
	img(test, &ctx->img, ETE_TRCEXTINSELR_N(3));
	img(test, &ctx->img, ETE_TRCCNTVR_N(3));
}

/*
 * A comparator named through a resource selector the ViewInst event
 * names is programmed; the same comparator and selector configured but
 * named by nothing are not
 */
static void ete_image_selector_pulls_comparator(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_allowed = true, .reader_allowed = true };
	struct ete_config *c = &ctx->cfg;

	c->rs[4] = (struct ete_rs_config){ 5, 0x2, false, false };
	c->addr[2].value = 0x1000;
	c->addr[3].value = 0x2000;
	ete_config_to_image(c, &ctx->caps, &env, &ctx->img);
	img_absent(test, &ctx->img, ETE_TRCRSCTLR_N(4));
	img_absent(test, &ctx->img, ETE_TRCACVR_N(2));
	img_absent(test, &ctx->img, ETE_TRCACATR_N(3));

	c->viewinst_event = 4;
	ete_config_to_image(c, &ctx->caps, &env, &ctx->img);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCRSCTLR_N(4)),
			0x2 | (5 << 16));
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCACVR_N(2)), 0x1000);
	KUNIT_EXPECT_EQ(test, img(test, &ctx->img, ETE_TRCACVR_N(3)), 0x2000);
	/* both halves' TRCACATR: they must agree (RXYJLC) */
	img(test, &ctx->img, ETE_TRCACATR_N(2));
	img(test, &ctx->img, ETE_TRCACATR_N(3));
	img_absent(test, &ctx->img, ETE_TRCRSCTLR_N(5));
	img_absent(test, &ctx->img, ETE_TRCACVR_N(0));
	img_absent(test, &ctx->img, ETE_TRCACVR_N(4));
}

/* ------------------------------------------------------------------------
 * ete_config_live: the closure of what a configuration references
 */

struct live_case {
	const char *name;
	void (*set)(struct ete_config *c);
	struct ete_live want;
};

static void live_defaults(struct ete_config *c)
{
	/* configured, but named by nothing */
	c->rs[2] = (struct ete_rs_config){ 4, 0x1, false, false };
	c->cntr[0].count_event = 2;
	c->ss[0].sac = 0x1;
	c->addr[0].context_type = 1;
	c->bb_ranges = 0x1;
	c->q_ranges = 0x2;
}

static void live_fixed_pair(struct ete_config *c)
{
	c->viewinst_event = ETE_EVENT_PAIR | 0;	/* selectors 0 and 1 */
	c->event[0] = 0;
	c->ts_event = 1;
}

static void live_selector_sac(struct ete_config *c)
{
	c->viewinst_event = 3;
	c->rs[3] = (struct ete_rs_config){ 4, 0x5, false, false };
}

static void live_pair_arc(struct ete_config *c)
{
	c->event[2] = ETE_EVENT_PAIR | 2;	/* selectors 4 and 5 */
	c->rs[5] = (struct ete_rs_config){ 5, 0x2, false, false };
}

static void live_include_ctx(struct ete_config *c)
{
	c->include_ranges = 0x2;		/* SACs 2 and 3 */
	c->addr[2].context_type = 3;		/* CID and VMID */
	c->addr[2].context = 6;
	c->addr[3].context_type = 3;
	c->addr[3].context = 6;
	c->addr[5].context_type = 1;		/* not in use */
	c->addr[5].context = 1;
}

static void live_counter_chain(struct ete_config *c)
{
	c->ts_event = 2;
	c->rs[2] = (struct ete_rs_config){ 2, 0x2, false, false };
	c->cntr[1].chain = true;
	c->cntr[0].count_event = 3;
	c->rs[3] = (struct ete_rs_config){ 7, 0x1, true, false };
	c->cntr[2].count_event = 4;		/* counter 2 not in use */
}

static void live_sequencer(struct ete_config *c)
{
	c->event[1] = 4;
	c->rs[4] = (struct ete_rs_config){ 2, BIT(6), false, false };
	c->seq_fwd[0] = 5;
	c->rs[5] = (struct ete_rs_config){ 3, 0x1, false, false };
	c->ss[0].arc = 0x1;
	c->seq_bwd[2] = ETE_EVENT_PAIR | 4;	/* selectors 8 and 9 */
	c->rs[9] = (struct ete_rs_config){ 0, 0x4, false, false };
}

static void live_bb_q(struct ete_config *c)
{
	c->branch_broadcast = true;
	c->bb_ranges = 0x1;
	c->q_elements = ETE_QE_ALL;
	c->q_ranges = 0x8;
}

static void live_startstop(struct ete_config *c)
{
	c->start_addrs = 0x1;
	c->stop_addrs = 0x8;
	c->exclude_ranges = 0x4;
}

static void live_everything(struct ete_config *c)
{
	cfg_reference_all(c);
}

static const struct live_case live_cases[] = {
	{ "defaults: nothing referenced", live_defaults, {} },
	{ "fixed selectors 0 and 1: no register", live_fixed_pair, {} },
	{ "ViewInst selector names SACs", live_selector_sac,
	  { .rs = BIT(3), .sac = 0x5 } },
	{ "ETEEvent pair, upper selector names an ARC", live_pair_arc,
	  { .rs = BIT(4) | BIT(5), .sac = 0x0c } },
	{ "include range pulls its context comparators", live_include_ctx,
	  { .sac = 0x0c, .cidc = BIT(6), .vmidc = BIT(6) } },
	{ "chained counter pulls the lower one and its events",
	  live_counter_chain,
	  { .rs = BIT(2) | BIT(3), .cntr = 0x3, .vmidc = 0x1 } },
	{ "sequencer state pulls its events, single-shot, extin",
	  live_sequencer,
	  { .rs = BIT(4) | BIT(5) | BIT(8) | BIT(9), .ss = 0x1, .sac = 0x3,
	    .seq = true, .extin = BIT(2) } },
	{ "branch broadcast and Q ranges when on", live_bb_q,
	  { .sac = 0x3 | 0xc0 } },
	{ "start/stop points", live_startstop,
	  { .sac = 0x1 | 0x8 | 0x30, .startstop = true } },
	{ "everything", live_everything,
	  { .rs = GENMASK(31, 2), .sac = 0xffff, .cidc = 0xff, .vmidc = 0xff,
	    .cntr = 0xf, .ss = 0xff, .extin = 0xf, .seq = true } },
};

static void live_case_desc(const struct live_case *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(live, live_cases, live_case_desc);

static void ete_live_closure(struct kunit *test)
{
	const struct live_case *t = test->param_value;
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_live l;

	t->set(&ctx->cfg);
	ete_config_live(&ctx->cfg, &ctx->caps, &l);
	KUNIT_EXPECT_EQ(test, l.rs, t->want.rs);
	KUNIT_EXPECT_EQ(test, l.sac, t->want.sac);
	KUNIT_EXPECT_EQ(test, l.cidc, t->want.cidc);
	KUNIT_EXPECT_EQ(test, l.vmidc, t->want.vmidc);
	KUNIT_EXPECT_EQ(test, l.cntr, t->want.cntr);
	KUNIT_EXPECT_EQ(test, l.ss, t->want.ss);
	KUNIT_EXPECT_EQ(test, l.extin, t->want.extin);
	KUNIT_EXPECT_EQ(test, l.seq, t->want.seq);
	KUNIT_EXPECT_EQ(test, l.startstop, t->want.startstop);
}

/* Only resources the unit has: the minimal unit references nothing */
static void ete_live_caps_bound(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, MINIMAL);
	struct ete_live l;

	cfg_reference_all(&ctx->cfg);
	ete_config_live(&ctx->cfg, &ctx->caps, &l);
	KUNIT_EXPECT_EQ(test, l.rs, 0U);
	KUNIT_EXPECT_EQ(test, l.sac, 0);
	KUNIT_EXPECT_EQ(test, l.cntr, 0);
	KUNIT_EXPECT_FALSE(test, l.seq);
}

static struct kunit_case ete_param_cases[] = {
	KUNIT_CASE_PARAM(ete_param_set_value, param_gen_params),
	KUNIT_CASE_PARAM(ete_param_parse_text, parse_gen_params),
	KUNIT_CASE(ete_param_every_field_tested),
	KUNIT_CASE(ete_param_rs_group_select),
	KUNIT_CASE(ete_param_store_keeps_old),
	KUNIT_CASE(ete_config_defaults_valid),
	KUNIT_CASE(ete_config_validate_against_caps),
	KUNIT_CASE(ete_config_conflicts),
	KUNIT_CASE(ete_config_sample_conflicts),
	KUNIT_CASE_PARAM(ete_config_comparator_rules, ete_cmp_gen_params),
	{}
};

static struct kunit_suite ete_param_suite = {
	.name = "ete_config_validate",
	.test_cases = ete_param_cases,
};

/*
 * Sampled trace's registers (ete/sample.c): counter 0 counts cycles and
 * reloads every window, counter 1 counts its zeros and reloads every
 * period, the sequencer's state 1 (ViewInst's event) lasts one window;
 * without a window none of them is written
 */
static void ete_image_sample(struct kunit *test)
{
	struct ete_test_ctx *ctx = ete_test_setup(test, RICH);
	struct ete_env env = { .kernel_allowed = true, .reader_allowed = true };
	struct ete_image *i = &ctx->img;

	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, i);
	img_absent(test, i, ETE_TRCCNTCTLR_N(0));
	img_absent(test, i, ETE_TRCSEQEVR_N(0));
	img_absent(test, i, ETE_TRCRSCTLR_N(4));
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCVICTLR) & 0xff, 1ULL);

	ctx->cfg.sample_window = 5000;
	ctx->cfg.sample_period = 500000;
	KUNIT_ASSERT_EQ(test, ete_config_validate(&ctx->cfg, &ctx->caps), 0);
	ete_config_to_image(&ctx->cfg, &ctx->caps, &env, i);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCRSCTLR_N(2)), 0x20001ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCRSCTLR_N(3)), 0x20002ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCRSCTLR_N(4)), 0x20020ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCCNTRLDVR_N(0)), 4999ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCCNTVR_N(0)), 4999ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCCNTCTLR_N(0)), 0x10001ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCCNTRLDVR_N(1)), 99ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCCNTCTLR_N(1)), 0x10002ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCSEQEVR_N(0)), 0x0203ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCSEQEVR_N(1)), 0ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCSEQRSTEVR), 0ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCSEQSTR), 0ULL);
	KUNIT_EXPECT_EQ(test, img(test, i, ETE_TRCVICTLR) & 0xff, 4ULL);
	/* saved and restored across power-down as the registers in use */
	KUNIT_EXPECT_EQ(test, i->live.cntr & 3, 3);
	KUNIT_EXPECT_EQ(test, i->live.rs & 0x1c, 0x1cU);
	KUNIT_EXPECT_TRUE(test, i->live.seq);
	img_absent(test, i, ETE_TRCCNTCTLR_N(2));
}

static struct kunit_case ete_image_cases[] = {
	KUNIT_CASE(ete_image_defaults_el1),
	KUNIT_CASE(ete_image_unprivileged),
	KUNIT_CASE(ete_image_reader_unprivileged),
	KUNIT_CASE(ete_image_unprivileged_secure),
	KUNIT_CASE(ete_image_vhe_pid),
	KUNIT_CASE(ete_image_fields),
	KUNIT_CASE(ete_image_minimal),
	KUNIT_CASE(ete_image_fits),
	KUNIT_CASE(ete_image_selector_pulls_comparator),
	KUNIT_CASE(ete_image_sample),
	KUNIT_CASE_PARAM(ete_live_closure, live_gen_params),
	KUNIT_CASE(ete_live_caps_bound),
	{}
};

static struct kunit_suite ete_image_suite = {
	.name = "ete_config_image",
	.test_cases = ete_image_cases,
};

kunit_test_suites(&ete_param_suite, &ete_image_suite);

MODULE_DESCRIPTION("KUnit tests of ETE configuration and register image");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
