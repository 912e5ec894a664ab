// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the workload (prog.c), the packet generator (trace.c)
 * and the ground truth (truth.c): pure functions, no model instance.
 */

#include <linux/module.h>
#include <linux/string.h>
#include <kunit/test.h>

#include "pkt.h"
#include "prog.h"
#include "trace.h"
#include "truth.h"

#define U(off)	(EM_PROG_USER_VA + (off))
#define K(off)	(EM_PROG_KERN_VA + (off))

/* ---- prog.c ---- */

static void prog_walk_first_blocks(struct kunit *test)
{
	struct em_walk w;
	struct em_block b;

	em_walk_init(&w, 1, 1);
	/* add; bl u_leaf */
	KUNIT_ASSERT_EQ(test, em_walk_step(&w, &b), 0);
	KUNIT_EXPECT_EQ(test, b.start, U(0));
	KUNIT_EXPECT_EQ(test, b.end, U(8));
	KUNIT_EXPECT_EQ(test, b.n, 2U);
	KUNIT_EXPECT_TRUE(test, b.link);
	KUNIT_EXPECT_EQ(test, b.next, U(0x48));
	/* add; ret back after the BL */
	KUNIT_ASSERT_EQ(test, em_walk_step(&w, &b), 0);
	KUNIT_EXPECT_EQ(test, b.kind, (u8)EM_WP_INDIRECT);
	KUNIT_EXPECT_TRUE(test, b.ret);
	KUNIT_EXPECT_EQ(test, b.next, U(8));
}

static void prog_walk_covers_every_kind(struct kunit *test)
{
	unsigned int i, seen = 0, el_seen = 0;
	struct em_walk w;
	struct em_block b;

	em_walk_init(&w, 7, 1);
	for (i = 0; i < 5000; i++) {
		KUNIT_ASSERT_EQ(test, em_walk_step(&w, &b), 0);
		KUNIT_ASSERT_LE(test, b.n, (unsigned int)EM_PROG_MAX_BLOCK);
		KUNIT_ASSERT_EQ(test, b.end - b.start, 4ULL * b.n);
		seen |= BIT(b.kind);
		if (b.kind == EM_WP_DIRECT)
			seen |= b.taken ? BIT(8) : BIT(9);
		if (b.ret)
			seen |= BIT(10);
		if (b.link && b.kind == EM_WP_INDIRECT)
			seen |= BIT(11);
		if (b.kind == EM_WP_EXCEPTION) {
			KUNIT_EXPECT_EQ(test, b.next, K(EM_PROG_VECTOR));
			KUNIT_EXPECT_EQ(test, b.next_el, 1);
		}
		el_seen |= BIT(b.el);
	}
	KUNIT_EXPECT_EQ(test, seen, 0xf0fU);
	KUNIT_EXPECT_EQ(test, el_seen, 3U);
}

static void prog_walk_eret_returns_after_svc(struct kunit *test)
{
	struct em_walk w;
	struct em_block b;
	u64 ret = 0;
	unsigned int i;

	em_walk_init(&w, 3, 2);
	for (i = 0; i < 2000; i++) {
		KUNIT_ASSERT_EQ(test, em_walk_step(&w, &b), 0);
		if (b.kind == EM_WP_EXCEPTION)
			ret = b.end;
		if (b.kind == EM_WP_ERET) {
			KUNIT_EXPECT_EQ(test, b.next, ret);
			KUNIT_EXPECT_EQ(test, b.el, 2);
			KUNIT_EXPECT_EQ(test, b.next_el, 0);
			return;
		}
	}
	KUNIT_FAIL(test, "no ERET in 2000 blocks");
}

static void prog_walk_is_deterministic(struct kunit *test)
{
	struct em_walk a, b, c;
	struct em_block x, y, z;
	bool differ = false;
	unsigned int i;

	em_walk_init(&a, 5, 1);
	em_walk_init(&b, 5, 1);
	em_walk_init(&c, 6, 1);
	for (i = 0; i < 1000; i++) {
		KUNIT_ASSERT_EQ(test, em_walk_step(&a, &x), 0);
		KUNIT_ASSERT_EQ(test, em_walk_step(&b, &y), 0);
		KUNIT_ASSERT_EQ(test, em_walk_step(&c, &z), 0);
		KUNIT_ASSERT_EQ(test, x.start, y.start);
		KUNIT_ASSERT_EQ(test, x.next, y.next);
		differ |= x.start != z.start;
	}
	KUNIT_EXPECT_TRUE(test, differ);
}

static void prog_fetch_outside(struct kunit *test)
{
	u32 op;

	KUNIT_EXPECT_EQ(test, em_prog_fetch(U(0), &op), 0);
	KUNIT_EXPECT_EQ(test, op, 0x91000400U);
	KUNIT_EXPECT_EQ(test, em_prog_fetch(U(2), &op), -EFAULT);
	KUNIT_EXPECT_EQ(test, em_prog_fetch(U(EM_PROG_REGION_SIZE), &op),
			-EFAULT);
}

static struct kunit_case prog_cases[] = {
	KUNIT_CASE(prog_walk_first_blocks),
	KUNIT_CASE(prog_walk_covers_every_kind),
	KUNIT_CASE(prog_walk_eret_returns_after_svc),
	KUNIT_CASE(prog_walk_is_deterministic),
	KUNIT_CASE(prog_fetch_outside),
	{}
};

static struct kunit_suite prog_suite = {
	.name = "ete_model_prog",
	.test_cases = prog_cases,
};

/* ---- trace.c ---- */

/**
 * struct em_tt - what a tracer under test output
 * @buf: the bytes
 * @len: their number
 * @ranges: ranges reported
 * @last: the last range
 * @fail: make emit() fail (overflow)
 */
struct em_tt {
	u8 buf[512];
	unsigned int len;
	unsigned int ranges;
	struct em_trace_range last;
	bool fail;
};

static bool tt_emit(void *priv, const u8 *pkt, unsigned int len)
{
	struct em_tt *t = priv;

	if (t->fail || t->len + len > sizeof(t->buf))
		return false;
	memcpy(t->buf + t->len, pkt, len);
	t->len += len;
	return true;
}

static void tt_range(void *priv, u64 start, u64 end, unsigned int n)
{
	struct em_tt *t = priv;

	t->ranges++;
	t->last.start = start;
	t->last.end = end;
	t->last.n = n;
}

static struct em_tt *tt_new(struct kunit *test, struct em_trace_out *out)
{
	struct em_tt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	out->emit = tt_emit;
	out->range = tt_range;
	out->priv = t;
	return t;
}

static const struct em_block tt_bl = {
	.start = U(0), .end = U(8), .n = 2, .kind = EM_WP_DIRECT,
	.taken = true, .link = true, .next = U(0x48),
};

static const struct em_block tt_ret = {
	.start = U(0x48), .end = U(0x50), .n = 2, .kind = EM_WP_INDIRECT,
	.taken = true, .ret = true, .next = U(8),
};

static void trace_first_block_trace_on_ctx_addr(struct kunit *test)
{
	static const u8 want[] = {
		0x01, 0x01, 0x00,			/* Trace Info */
		0x04,					/* Trace On */
		0x81, 0x30,				/* Context EL0 */
		0x9d, 0x00, 0x00, 0x00, 0x00, 0xaa, 0xaa, 0x00, 0x00,
	};
	struct em_trace_cfg cfg = { .el_traced = 3, .ss_status = true };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	KUNIT_ASSERT_EQ(test, t->len, (unsigned int)sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(t->buf, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, t->ranges, 0U);	/* the atom is pending */
	em_trace_block(&tr, &cfg, &out, &tt_ret);
	/* the RET's target is not known: the atoms go out, then Address */
	KUNIT_EXPECT_TRUE(test, tr.need_addr);
	em_trace_sync(&tr, &cfg, &out, true);
	KUNIT_EXPECT_EQ(test, t->ranges, 2U);
	KUNIT_EXPECT_EQ(test, t->buf[sizeof(want)], 0xdb);	/* F2: EE */
}

static void trace_return_stack_elides_address(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .rs = true };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	em_trace_block(&tr, &cfg, &out, &tt_ret);
	KUNIT_EXPECT_FALSE(test, tr.need_addr);
	KUNIT_EXPECT_EQ(test, tr.nrs, 0U);
	KUNIT_EXPECT_EQ(test, t->ranges, 0U);
}

static void trace_branch_broadcast_outputs_target(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .bb = true };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	/* F1 E, then a short address of 0x48 */
	KUNIT_ASSERT_GE(test, t->len, 3U);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 3], 0xf7);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 2], 0x95);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 1], 0x48 >> 2);
	KUNIT_EXPECT_EQ(test, t->ranges, 1U);
}

static void trace_el_filter_drops_block(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 2, .ss_status = true };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	t->len = 0;
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	KUNIT_EXPECT_EQ(test, t->len, 0U);
}

static void trace_exception_packet(struct kunit *test)
{
	static const struct em_block svc = {
		.start = U(0x34), .end = U(0x38), .n = 1,
		.kind = EM_WP_EXCEPTION, .taken = true,
		.next = K(EM_PROG_VECTOR), .next_el = 1,
	};
	struct em_trace_cfg cfg = { .el_traced = 3, .ss_status = true };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	em_trace_block(&tr, &cfg, &out, &svc);
	/* ..., Exception (Call), short address of the return address */
	KUNIT_ASSERT_GE(test, t->len, 4U);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 4], 0x06);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 3], 0x05);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 2], 0x95);
	KUNIT_EXPECT_EQ(test, t->last.end, U(0x38));
	KUNIT_EXPECT_TRUE(test, tr.need_addr);
}

static void trace_view_filters(struct kunit *test)
{
	struct em_trace_cfg cfg = {
		.el_traced = 1, .include = 1, .exclude = 2,
		.acvr = { U(0x40), U(0x7f), U(0x60), U(0x6f) },
	};
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	tr.ss = true;
	KUNIT_EXPECT_FALSE(test, em_trace_in_view(&tr, &cfg, U(0x3c), 0));
	KUNIT_EXPECT_TRUE(test, em_trace_in_view(&tr, &cfg, U(0x40), 0));
	KUNIT_EXPECT_TRUE(test, em_trace_in_view(&tr, &cfg, U(0x7c), 0));
	KUNIT_EXPECT_FALSE(test, em_trace_in_view(&tr, &cfg, U(0x80), 0));
	KUNIT_EXPECT_FALSE(test, em_trace_in_view(&tr, &cfg, U(0x64), 0));
	KUNIT_EXPECT_FALSE(test, em_trace_in_view(&tr, &cfg, U(0x40), 1));
}

static void trace_start_stop(struct kunit *test)
{
	struct em_trace_cfg cfg = {
		.el_traced = 1, .start = BIT(0), .stop = BIT(1),
		.acvr = { U(0x10), U(0x20) },
	};
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	KUNIT_EXPECT_FALSE(test, em_trace_in_view(&tr, &cfg, U(0xc), 0));
	KUNIT_EXPECT_TRUE(test, em_trace_in_view(&tr, &cfg, U(0x10), 0));
	KUNIT_EXPECT_TRUE(test, em_trace_in_view(&tr, &cfg, U(0x14), 0));
	KUNIT_EXPECT_TRUE(test, em_trace_in_view(&tr, &cfg, U(0x20), 0));
	KUNIT_EXPECT_FALSE(test, em_trace_in_view(&tr, &cfg, U(0x24), 0));
}

static void trace_overflow_loses_ranges(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	t->fail = true;
	em_trace_block(&tr, &cfg, &out, &tt_ret);	/* flushes: lost */
	em_trace_sync(&tr, &cfg, &out, true);
	KUNIT_EXPECT_EQ(test, t->ranges, 0U);
	KUNIT_EXPECT_FALSE(test, tr.on);
}

static struct kunit_case trace_cases[] = {
	KUNIT_CASE(trace_first_block_trace_on_ctx_addr),
	KUNIT_CASE(trace_return_stack_elides_address),
	KUNIT_CASE(trace_branch_broadcast_outputs_target),
	KUNIT_CASE(trace_el_filter_drops_block),
	KUNIT_CASE(trace_exception_packet),
	KUNIT_CASE(trace_view_filters),
	KUNIT_CASE(trace_start_stop),
	KUNIT_CASE(trace_overflow_loses_ranges),
	{}
};

static struct kunit_suite trace_suite = {
	.name = "ete_model_tracegen",
	.test_cases = trace_cases,
};

/* ---- truth.c ---- */

static void truth_fnv_known_value(struct kunit *test)
{
	/* FNV-1a 64 of sixteen zero bytes */
	KUNIT_EXPECT_EQ(test, em_truth_fnv(EM_TRUTH_FNV_BASIS, 0, 0),
			0x88201fb960ff6465ULL);
}

static void truth_hash_mode_one_record_per_interval(struct kunit *test)
{
	struct em_truth_rec rec[8];
	struct em_truth t = { .rec = rec, .cap = 8,
			      .next_mode = EM_TRUTH_HASHES };
	char line[96];

	em_truth_reset(&t);
	em_truth_async(&t, 0);
	em_truth_range(&t, 20, 0x1000, 0x1008, 2);
	em_truth_range(&t, 21, 0x2000, 0x2004, 1);
	em_truth_async(&t, 100);
	KUNIT_ASSERT_EQ(test, t.len, 3U);
	KUNIT_EXPECT_EQ(test, rec[1].type, (u8)EM_TRUTH_HASH);
	KUNIT_EXPECT_EQ(test, rec[1].n, 2U);
	KUNIT_EXPECT_EQ(test, rec[1].a,
			em_truth_fnv(em_truth_fnv(EM_TRUTH_FNV_BASIS, 0x1000,
						  0x1008), 0x2000, 0x2004));
	em_truth_format(&rec[2], line, sizeof(line));
	KUNIT_EXPECT_STREQ(test, line, "A 100\n");
}

static void truth_ranges_mode_and_overflow(struct kunit *test)
{
	struct em_truth_rec rec[2];
	struct em_truth t = { .rec = rec, .cap = 2 };
	char line[96];

	em_truth_reset(&t);
	em_truth_async(&t, 0);
	em_truth_range(&t, 15, 0xaaaa00000000ULL, 0xaaaa00000008ULL, 2);
	em_truth_gap(&t, 40, 64);
	KUNIT_EXPECT_EQ(test, t.len, 2U);
	KUNIT_EXPECT_EQ(test, t.lost, 1U);
	em_truth_format(&rec[1], line, sizeof(line));
	KUNIT_EXPECT_STREQ(test, line, "R 15 0xaaaa00000000 0xaaaa00000008 2\n");
}

static struct kunit_case truth_cases[] = {
	KUNIT_CASE(truth_fnv_known_value),
	KUNIT_CASE(truth_hash_mode_one_record_per_interval),
	KUNIT_CASE(truth_ranges_mode_and_overflow),
	{}
};

static struct kunit_suite truth_suite = {
	.name = "ete_model_truth",
	.test_cases = truth_cases,
};

kunit_test_suites(&prog_suite, &trace_suite, &truth_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit suites of the model's program, packets and truth");
MODULE_LICENSE("GPL");
