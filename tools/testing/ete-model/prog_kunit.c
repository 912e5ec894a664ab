// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the workload (prog.c), the packet generator (trace.c)
 * and the ground truth (truth.c): pure functions, no model instance.
 */

#include <linux/module.h>
#include <linux/string.h>
#include <kunit/test.h>

#include <ete/compat.h>

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

/*
 * The symbol table describes the image: every instruction of a region in
 * exactly one function, functions in address order, and every block a walk
 * executes starting in a function and (but for a call or return) ending
 * in the same one.
 */
static const struct em_prog_sym *prog_sym_of(u64 va)
{
	unsigned int i;

	for (i = 0; i < em_prog_nr_syms; i++)
		if (va >= em_prog_syms[i].va &&
		    va < em_prog_syms[i].va + em_prog_syms[i].size)
			return &em_prog_syms[i];
	return NULL;
}

static void prog_symbols_cover_the_image(struct kunit *test)
{
	struct em_walk w;
	struct em_block b;
	unsigned int r, i, steps;
	u32 insn;

	for (i = 1; i < em_prog_nr_syms; i++)
		if (em_prog_syms[i].va >> 32 == em_prog_syms[i - 1].va >> 32)
			KUNIT_EXPECT_GE(test, em_prog_syms[i].va,
					em_prog_syms[i - 1].va +
					em_prog_syms[i - 1].size);
	for (r = 0; r < EM_PROG_NR_REGIONS; r++) {
		const struct em_prog_region *reg = &em_prog_regions[r];

		for (i = 0; i < EM_PROG_REGION_SIZE / 4; i++) {
			u64 va = reg->va + 4 * i;

			KUNIT_ASSERT_EQ(test, em_prog_fetch(va, &insn), 0);
			KUNIT_EXPECT_EQ_MSG(test, !!insn, !!prog_sym_of(va),
					    "%s+0x%x", reg->name, 4 * i);
		}
	}
	em_walk_init(&w, 1, 1);
	for (steps = 0; steps < 10000; steps++) {
		const struct em_prog_sym *s;

		KUNIT_ASSERT_EQ(test, em_walk_step(&w, &b), 0);
		s = prog_sym_of(b.start);
		KUNIT_ASSERT_NOT_NULL(test, s);
		KUNIT_EXPECT_LE_MSG(test, b.end, s->va + s->size,
				    "block 0x%llx-0x%llx leaves %s", b.start,
				    b.end, s->name);
	}
}

static struct kunit_case prog_cases[] = {
	KUNIT_CASE(prog_walk_first_blocks),
	KUNIT_CASE(prog_walk_covers_every_kind),
	KUNIT_CASE(prog_walk_eret_returns_after_svc),
	KUNIT_CASE(prog_walk_is_deterministic),
	KUNIT_CASE(prog_fetch_outside),
	KUNIT_CASE(prog_symbols_cover_the_image),
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
 * @nopaths: Q records reported
 * @lastq: the last one (@end: where execution went on)
 * @insns: instructions of the ranges and Q records
 * @fail: make emit() fail (overflow)
 * @sink: accept bytes without keeping them
 */
struct em_tt {
	u8 buf[512];
	unsigned int len;
	unsigned int ranges;
	struct em_trace_range last;
	unsigned int nopaths;
	struct em_trace_range lastq;
	u64 insns;
	bool fail;
	bool sink;
};

static bool tt_emit(void *priv, const u8 *pkt, unsigned int len)
{
	struct em_tt *t = priv;

	if (t->sink)
		return true;
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
	t->insns += n;
}

static void tt_nopath(void *priv, u64 start, u64 next, unsigned int n)
{
	struct em_tt *t = priv;

	t->nopaths++;
	t->lastq.start = start;
	t->lastq.end = next;
	t->lastq.n = n;
	t->insns += n;
}

static struct em_tt *tt_new(struct kunit *test, struct em_trace_out *out)
{
	struct em_tt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	out->emit = tt_emit;
	out->range = tt_range;
	out->nopath = tt_nopath;
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

/* ---- trace.c: Q elements ---- */

/* b.ne at 0x20 back to 0x18: three instructions, a direct branch */
static const struct em_block tt_loop = {
	.start = U(0x18), .end = U(0x24), .n = 3, .kind = EM_WP_DIRECT,
	.taken = true, .next = U(0x18),
};

/* 0x24 to 0x2c and a branch to 0x34: wholly inside 0x20-0x40 */
static const struct em_block tt_in = {
	.start = U(0x24), .end = U(0x30), .n = 3, .kind = EM_WP_DIRECT,
	.taken = true, .next = U(0x34),
};

/* Make the next Q-able block begin a Q element of @len blocks */
static void tt_q_next(struct em_tracer *tr, unsigned int len)
{
	static const u8 runs_for_len[] = { 0, 2, 0, 1, 3 };

	tr->q.tick = EM_TRACE_Q_EVERY - 1;
	tr->q.runs = runs_for_len[len];
}

/*
 * The fifth Q-able block begins a Q element of two blocks: four atoms,
 * then one Q packet with the six instructions and the Target Address in
 * it (RWHLPS), Short Address form; a decoder learns the count only.
 */
static void trace_q_replaces_atoms(struct kunit *test)
{
	static const u8 want[] = {
		0x01, 0x01, 0x00,			/* Trace Info */
		0x04, 0x81, 0x30,			/* Trace On, Context */
		0x9d, 0x06, 0x00, 0x00, 0x00, 0xaa, 0xaa, 0x00, 0x00,
		0xff, 0xf7,				/* atoms EEE, E */
		0xa5, 0x06, 0x06,			/* Q: 0x18, 6 */
	};
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .qe = 1 };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;
	unsigned int i;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	for (i = 0; i < EM_TRACE_Q_EVERY - 1; i++)
		em_trace_block(&tr, &cfg, &out, &tt_loop);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	KUNIT_EXPECT_EQ(test, tr.q.blocks, 1U);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	KUNIT_ASSERT_EQ(test, t->len, (unsigned int)sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(t->buf, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, t->ranges, 4U);
	KUNIT_ASSERT_EQ(test, t->nopaths, 1U);
	KUNIT_EXPECT_EQ(test, t->lastq.start, U(0x18));
	KUNIT_EXPECT_EQ(test, t->lastq.end, U(0x18));
	KUNIT_EXPECT_EQ(test, t->lastq.n, 6U);
	KUNIT_EXPECT_EQ(test, tr.q.blocks, 0U);
}

/* A Q element of one block: sequential to its branch, a known range */
static void trace_q_of_one_block_is_a_range(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .qe = 1 };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	tt_q_next(&tr, 1);
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	KUNIT_ASSERT_GE(test, t->len, 3U);
	/* Q, Short Address 0x48, count 2 */
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 3], 0xa5);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 2], 0x48 >> 2);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 1], 2);
	KUNIT_EXPECT_EQ(test, t->nopaths, 0U);
	KUNIT_ASSERT_EQ(test, t->ranges, 1U);
	KUNIT_EXPECT_EQ(test, t->last.start, U(0));
	KUNIT_EXPECT_EQ(test, t->last.end, U(8));
	KUNIT_EXPECT_EQ(test, t->last.n, 2U);
}

/* RGVLKJ, RWBCJG: a BL or RET implied by a Q neither pushes nor pops */
static void trace_q_leaves_return_stack(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .rs = true, .qe = 1 };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	tt_q_next(&tr, 2);
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	KUNIT_EXPECT_EQ(test, tr.nrs, 0U);
	em_trace_block(&tr, &cfg, &out, &tt_ret);
	KUNIT_EXPECT_EQ(test, tr.nrs, 0U);
	KUNIT_ASSERT_EQ(test, t->nopaths, 1U);
	/* the RET's target, which the Q packet carries (RMNWCK) */
	KUNIT_EXPECT_EQ(test, t->lastq.end, U(8));
	KUNIT_EXPECT_EQ(test, t->lastq.n, 4U);
	KUNIT_EXPECT_FALSE(test, tr.need_addr);
}

/*
 * No Q element begins right after a return stack match: OpenCSD 1.3.3
 * would start it at the address after the RET (model.rst, "Q elements").
 */
static void trace_q_not_after_return_stack_match(struct kunit *test)
{
	static const struct em_block cbz = {
		.start = U(8), .end = U(0xc), .n = 1, .kind = EM_WP_DIRECT,
		.taken = true, .next = U(0x14),
	};
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .rs = true, .qe = 1 };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	tt_q_next(&tr, 1);
	tr.q.tick -= 2;
	em_trace_block(&tr, &cfg, &out, &tt_bl);
	em_trace_block(&tr, &cfg, &out, &tt_ret);	/* popped */
	KUNIT_EXPECT_TRUE(test, tr.rs_popped);
	em_trace_block(&tr, &cfg, &out, &cbz);		/* its turn: an atom */
	KUNIT_EXPECT_EQ(test, tr.q.runs, 2U);
	em_trace_block(&tr, &cfg, &out, &tt_loop);	/* a Q of one block */
	KUNIT_EXPECT_EQ(test, tr.q.runs, 3U);
	KUNIT_EXPECT_EQ(test, t->ranges, 4U);
	KUNIT_EXPECT_EQ(test, t->last.start, U(0x18));
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 3], 0xa5);
}

/* RJBYXC: an exception ends the Q element before its own packets */
static void trace_q_ended_by_exception(struct kunit *test)
{
	static const struct em_block svc = {
		.start = U(0x34), .end = U(0x38), .n = 1,
		.kind = EM_WP_EXCEPTION, .taken = true,
		.next = K(EM_PROG_VECTOR), .next_el = 1,
	};
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .qe = 1 };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	tt_q_next(&tr, 4);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	em_trace_block(&tr, &cfg, &out, &tt_in);
	KUNIT_EXPECT_EQ(test, t->nopaths, 0U);
	em_trace_block(&tr, &cfg, &out, &svc);
	KUNIT_ASSERT_EQ(test, t->nopaths, 1U);
	KUNIT_EXPECT_EQ(test, t->lastq.start, U(0x18));
	KUNIT_EXPECT_EQ(test, t->lastq.end, U(0x34));
	KUNIT_EXPECT_EQ(test, t->lastq.n, 6U);
	/* ..., Q 0x34 6, Exception (Call), Short Address 0x38 */
	KUNIT_ASSERT_GE(test, t->len, 7U);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 7], 0xa5);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 6], 0x34 >> 2);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 5], 6);
	KUNIT_EXPECT_EQ(test, t->buf[t->len - 4], 0x06);
	KUNIT_EXPECT_EQ(test, t->last.end, U(0x38));
}

/* Before an A-Sync the pending Q goes out; an overflow loses it */
static void trace_q_flushed_or_lost(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .qe = 1 };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	tt_q_next(&tr, 3);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	em_trace_flush(&tr, &out);
	KUNIT_EXPECT_EQ(test, t->nopaths, 1U);
	KUNIT_EXPECT_EQ(test, t->lastq.n, 6U);
	tt_q_next(&tr, 3);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	em_trace_lost(&tr);
	em_trace_flush(&tr, &out);
	KUNIT_EXPECT_EQ(test, t->nopaths, 1U);
}

/*
 * RNQSLS: TRCQCTLR include mode permits Q elements only for blocks with
 * an instruction in a selected range, exclude mode only for the others.
 */
static void trace_q_filtering(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 1, .ss_status = true,
				    .qe = 1, .q_ranges = BIT(1),
				    .q_include = true,
				    .acvr = { 0, 0, U(0x20), U(0x40) } };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;

	em_trace_reset(&tr, &cfg);
	em_trace_sync(&tr, &cfg, &out, false);
	tt_q_next(&tr, 1);
	em_trace_block(&tr, &cfg, &out, &tt_bl);	/* 0x0-0x4: outside */
	KUNIT_EXPECT_EQ(test, tr.q.tick, EM_TRACE_Q_EVERY - 1);
	/* RRBPJF: 0x20 is inside, so the whole block may be Q-traced */
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	KUNIT_EXPECT_EQ(test, tr.q.tick, 0U);
	KUNIT_EXPECT_EQ(test, t->ranges, 2U);	/* the atom, then the Q */
	KUNIT_EXPECT_EQ(test, t->last.start, U(0x18));
	cfg.q_include = false;
	tt_q_next(&tr, 1);
	em_trace_block(&tr, &cfg, &out, &tt_in);
	KUNIT_EXPECT_EQ(test, tr.q.tick, EM_TRACE_Q_EVERY - 1);
	em_trace_block(&tr, &cfg, &out, &tt_loop);
	KUNIT_EXPECT_EQ(test, tr.q.tick, 0U);
}

/*
 * Over a long walk with Q elements and the return stack, every executed
 * instruction is in exactly one range or Q record; without QE none is Q.
 */
static void trace_q_walk_accounts_every_instruction(struct kunit *test)
{
	struct em_trace_cfg cfg = { .el_traced = 3, .ss_status = true,
				    .rs = true, .qe = 1 };
	struct em_trace_out out;
	struct em_tt *t = tt_new(test, &out);
	struct em_tracer tr;
	struct em_walk w;
	struct em_block b;
	unsigned int i, pass;
	u64 insns;

	for (pass = 0; pass < 2; pass++) {
		cfg.qe = pass ? 0 : 1;
		memset(t, 0, sizeof(*t));
		t->sink = true;
		em_walk_init(&w, 9, 1);
		em_trace_reset(&tr, &cfg);
		em_trace_sync(&tr, &cfg, &out, false);
		for (i = 0, insns = 0; i < 5000; i++) {
			KUNIT_ASSERT_EQ(test, em_walk_step(&w, &b), 0);
			em_trace_block(&tr, &cfg, &out, &b);
			insns += b.n;
		}
		em_trace_flush(&tr, &out);
		KUNIT_EXPECT_EQ(test, t->insns, insns);
		if (pass)
			KUNIT_EXPECT_EQ(test, t->nopaths, 0U);
		else
			KUNIT_EXPECT_GT(test, t->nopaths, 100U);
	}
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
	KUNIT_CASE(trace_q_replaces_atoms),
	KUNIT_CASE(trace_q_of_one_block_is_a_range),
	KUNIT_CASE(trace_q_leaves_return_stack),
	KUNIT_CASE(trace_q_not_after_return_stack_match),
	KUNIT_CASE(trace_q_ended_by_exception),
	KUNIT_CASE(trace_q_flushed_or_lost),
	KUNIT_CASE(trace_q_filtering),
	KUNIT_CASE(trace_q_walk_accounts_every_instruction),
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

static void truth_nopath_records(struct kunit *test)
{
	struct em_truth_rec rec[4];
	struct em_truth t = { .rec = rec, .cap = 4 };
	char line[96];
	u64 h;

	em_truth_reset(&t);
	em_truth_nopath(&t, 30, 0xaaaa00000018ULL, 0xaaaa00000034ULL, 6);
	KUNIT_ASSERT_EQ(test, t.len, 1U);
	em_truth_format(&rec[0], line, sizeof(line));
	KUNIT_EXPECT_STREQ(test, line, "Q 30 0xaaaa00000018 0xaaaa00000034 6\n");

	t.next_mode = EM_TRUTH_HASHES;
	em_truth_reset(&t);
	em_truth_async(&t, 0);
	em_truth_range(&t, 20, 0x1000, 0x1008, 2);
	em_truth_nopath(&t, 25, 0x2000, 0x3000, 9);
	em_truth_async(&t, 100);
	KUNIT_ASSERT_EQ(test, t.len, 3U);
	h = em_truth_fnv(EM_TRUTH_FNV_BASIS, 0x1000, 0x1008);
	h = em_truth_fnv(em_truth_fnv(h, 0x2000, 0x3000), 9, EM_TRUTH_Q_MARK);
	KUNIT_EXPECT_EQ(test, rec[1].n, 2U);
	KUNIT_EXPECT_EQ(test, rec[1].a, h);
}

/*
 * While the TRBE stays stopped every drain of the model discards again at
 * the same stream offset: one G record per offset with the bytes summed,
 * or a long stop fills the truth and the intervals after it are lost.
 */
static void truth_gap_one_record_per_offset(struct kunit *test)
{
	struct em_truth_rec rec[4];
	struct em_truth t = { .rec = rec, .cap = 4 };
	char line[96];

	em_truth_reset(&t);
	em_truth_gap(&t, 4096, 512);
	em_truth_gap(&t, 4096, 256);
	em_truth_gap(&t, 4096, 256);
	KUNIT_ASSERT_EQ(test, t.len, 1U);
	em_truth_format(&rec[0], line, sizeof(line));
	KUNIT_EXPECT_STREQ(test, line, "G 4096 1024\n");

	/* output resumed, then stopped again: a record of its own */
	em_truth_range(&t, 4100, 0x1000, 0x1008, 2);
	em_truth_gap(&t, 8192, 64);
	em_truth_gap(&t, 8192, 64);
	KUNIT_ASSERT_EQ(test, t.len, 3U);
	em_truth_format(&rec[2], line, sizeof(line));
	KUNIT_EXPECT_STREQ(test, line, "G 8192 128\n");

	/* a gap at another offset straight after one: not merged */
	em_truth_gap(&t, 9000, 8);
	KUNIT_ASSERT_EQ(test, t.len, 4U);
	em_truth_format(&rec[3], line, sizeof(line));
	KUNIT_EXPECT_STREQ(test, line, "G 9000 8\n");
	KUNIT_EXPECT_EQ(test, t.lost, 0U);
}

static struct kunit_case truth_cases[] = {
	KUNIT_CASE(truth_fnv_known_value),
	KUNIT_CASE(truth_hash_mode_one_record_per_interval),
	KUNIT_CASE(truth_ranges_mode_and_overflow),
	KUNIT_CASE(truth_nopath_records),
	KUNIT_CASE(truth_gap_one_record_per_offset),
	{}
};

static struct kunit_suite truth_suite = {
	.name = "ete_model_truth",
	.test_cases = truth_cases,
};

kunit_test_suites(&prog_suite, &trace_suite, &truth_suite);

MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
MODULE_DESCRIPTION("KUnit suites of the model's program, packets and truth");
MODULE_LICENSE("GPL");
