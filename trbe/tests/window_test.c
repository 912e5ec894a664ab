// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: fill-mode windows, the drop policy's tail, wrap-mode heads and
 * offsets, at the edges.
 *
 * Geometry: 64KB buffer, 4KB pages, 64-byte TRBPTR alignment, 32KB chunks.
 */

#include <kunit/test.h>
#include <linux/errno.h>

#include <ete/trbe.h>

#include "trbe_tests.h"

#define OVW	BIT(TRBE_ERR_OVERWRITE_FILL)
#define OOR	BIT(TRBE_ERR_WRITE_OUT_OF_RANGE)

struct window_case {
	const char *name;
	u64 head, tail;
	unsigned long errata;
	int rc;
	u64 base, ptr, limit, pad;
};

static const struct window_case window_cases[] = {
	{ "empty", 0, 0, 0, 0, 0, 0, 0x10000, 0 },
	{ "unaligned_head_pads", 0x1234, 0, 0, 0, 0x1000, 0x1240, 0x10000, 0xc },
	{ "crosses_buffer_end", 0x8000, 0x8000, 0, 0,
	  0x8000, 0x8000, 0x18000, 0 },
	{ "head_mid_page_reader_caught_up", 0x1234, 0x1234, 0, 0,
	  0x1000, 0x1240, 0x11000, 0xc },
	{ "full_no_room", 0x10000, 0, 0, -ENOSPC },
	{ "tail_mid_page", 0x8000, 0x800, 0, 0, 0x8000, 0x8000, 0x10000, 0 },
	{ "less_than_page_free", 0x10000, 0x800, 0, -ENOSPC },
	{ "window_of_64_bytes", 0x10fc0, 0x1000, 0, 0,
	  0x10000, 0x10fc0, 0x11000, 0 },
	{ "head_at_buffer_end", 0xffc8, 0xffc8, 0, 0,
	  0x10000, 0x10000, 0x1f000, 0x38 },
	{ "overwrite_moves_base", 0x1234, 0, OVW, 0,
	  0x2000, 0x2100, 0x10000, 0xecc },
	{ "overwrite_aligned_head", 0x8000, 0x8000, OVW, 0,
	  0x8000, 0x8100, 0x18000, 0x100 },
	{ "overwrite_no_room_for_skip", 0x10000, 0x100, OVW, -ENOSPC },
	{ "out_of_range_keeps_guard", 0x8000, 0x8000, OOR, 0,
	  0x8000, 0x8000, 0x17000, 0 },
	{ "out_of_range_guard_from_tail", 0x10000, 0x5000, OOR, 0,
	  0x10000, 0x10000, 0x14000, 0 },
	{ "out_of_range_one_page_free", 0x10000, 0x1000, OOR, -ENOSPC },
	{ "both_errata", 0x10, 0x10, OVW | OOR, 0,
	  0x1000, 0x1100, 0xf000, 0x10f0 },
	{ "tail_after_head_invalid", 0x100, 0x200, 0, -EINVAL },
	{ "overfull_invalid", 0x10001, 0, 0, -EINVAL },
};

static void window_case_desc(const struct window_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(trbe_window, window_cases, window_case_desc);

static struct trbe_geom test_geom(unsigned long errata)
{
	struct trbe_geom g = {
		.size = 0x10000, .page = 0x1000, .align = 64, .wmark = 0x8000,
		.errata = errata,
	};

	return g;
}

static void trbe_fill_window_table(struct kunit *test)
{
	const struct window_case *c = test->param_value;
	struct trbe_geom g = test_geom(c->errata);
	struct trbe_window w = { };
	int rc;

	KUNIT_ASSERT_TRUE(test, trbe_geom_valid(&g));
	rc = trbe_fill_window(&g, c->head, c->tail, &w);
	KUNIT_ASSERT_EQ(test, rc, c->rc);
	if (rc)
		return;
	KUNIT_EXPECT_EQ(test, w.base, c->base);
	KUNIT_EXPECT_EQ(test, w.ptr, c->ptr);
	KUNIT_EXPECT_EQ(test, w.limit, c->limit);
	KUNIT_EXPECT_EQ(test, w.pad, c->pad);
	/* Invariants every window keeps */
	KUNIT_EXPECT_EQ(test, w.ptr - c->head, w.pad);
	KUNIT_EXPECT_LE(test, w.limit, c->tail + g.size);
	KUNIT_EXPECT_EQ(test, w.limit % g.page, 0ULL);
	KUNIT_EXPECT_EQ(test, w.base % g.page, 0ULL);
	KUNIT_EXPECT_EQ(test, w.ptr % g.align, 0ULL);
	KUNIT_EXPECT_LE(test, w.limit - w.base, g.size);
	KUNIT_EXPECT_LE(test, w.base, w.ptr);
}

/* Stream 1MB through the buffer with a reader 4KB behind: no stop ever */
static void trbe_fill_window_stream_walk(struct kunit *test)
{
	struct trbe_geom g = test_geom(0);
	struct trbe_window w;
	u64 head = 0, windows = 0;

	while (head < 0x100000) {
		u64 tail = head > 0x1000 ? head - 0x1000 : 0;

		KUNIT_ASSERT_EQ(test, trbe_fill_window(&g, head, tail, &w), 0);
		KUNIT_ASSERT_EQ(test, w.pad, 0ULL);
		KUNIT_ASSERT_EQ(test, w.limit, tail + g.size);
		head = w.limit;
		windows++;
	}
	KUNIT_EXPECT_EQ(test, windows, 17ULL);
}

struct drop_case {
	const char *name;
	unsigned long errata;
	u64 wmark, head, tail, want;
};

static const struct drop_case drop_cases[] = {
	{ "room_nothing_dropped", 0, 0x8000, 0x8000, 0x8000, 0x8000 },
	{ "full_drops_a_chunk", 0, 0x8000, 0x10000, 0, 0x9000 },
	{ "unaligned_head", 0, 0x8000, 0x10010, 0x10, 0x9000 },
	{ "with_errata", OVW | OOR, 0x8000, 0x10000, 0, 0xb000 },
	{ "whole_buffer_chunk_drops_all", 0, 0x10000, 0x10100, 0x100, 0x10100 },
};

static void drop_case_desc(const struct drop_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(trbe_drop, drop_cases, drop_case_desc);

static void trbe_drop_tail_table(struct kunit *test)
{
	const struct drop_case *c = test->param_value;
	struct trbe_geom g = test_geom(c->errata);
	struct trbe_window w;
	u64 tail;

	g.wmark = c->wmark;
	tail = trbe_drop_tail(&g, c->head, c->tail);
	KUNIT_EXPECT_EQ(test, tail, c->want);
	if (tail == c->head)
		return;
	/* What is left is room for at least one chunk */
	KUNIT_ASSERT_EQ(test, trbe_fill_window(&g, c->head, tail, &w), 0);
	KUNIT_EXPECT_GE(test, w.limit - w.ptr, g.wmark);
}

/*
 * The drop policy's watermark bound: with it, a stalled reader (tail a whole
 * buffer behind) loses less than everything at any head, and a window of a
 * watermark follows; with twice it, some head loses everything.  8KB, and
 * 16KB with both errata, leave no chunk of a page at all.
 */
static void trbe_drop_wmark_max_walk(struct kunit *test)
{
	static const unsigned long errata[] = { 0, OVW, OOR, OVW | OOR };
	struct trbe_window w;
	unsigned int e;
	u64 size;

	for (size = 0x2000; size <= 0x100000; size <<= 1) {
		for (e = 0; e < ARRAY_SIZE(errata); e++) {
			struct trbe_geom g = test_geom(errata[e]);
			bool all_lost = false;
			u64 wm, head;

			g.size = size;
			wm = trbe_drop_wmark_max(&g);
			if (size == 0x2000 ||
			    (size == 0x4000 && errata[e] == (OVW | OOR))) {
				KUNIT_EXPECT_EQ(test, wm, 0ULL);
				continue;
			}
			KUNIT_ASSERT_GE(test, wm, g.page);
			for (head = size; head < 4 * size; head += 0x7c0) {
				u64 tail;

				g.wmark = wm;
				tail = trbe_drop_tail(&g, head, head - size);
				KUNIT_ASSERT_LT_MSG(test, tail, head,
						    "size %#llx errata %#lx head %#llx",
						    size, errata[e], head);
				KUNIT_ASSERT_EQ(test,
						trbe_fill_window(&g, head, tail, &w),
						0);
				KUNIT_ASSERT_GE(test, w.limit - w.ptr, wm);
				g.wmark = 2 * wm;
				if (g.wmark <= size &&
				    trbe_drop_tail(&g, head, head - size) == head)
					all_lost = true;
			}
			KUNIT_EXPECT_TRUE_MSG(test, all_lost || 2 * wm > size,
					      "size %#llx errata %#lx: %#llx is not the largest",
					      size, errata[e], wm);
		}
	}
}

static void trbe_geom_valid_edges(struct kunit *test)
{
	struct trbe_geom g = test_geom(0);

	KUNIT_EXPECT_TRUE(test, trbe_geom_valid(&g));
	g.wmark = g.size;
	KUNIT_EXPECT_TRUE(test, trbe_geom_valid(&g));
	g.wmark = g.size * 2;
	KUNIT_EXPECT_FALSE(test, trbe_geom_valid(&g));
	g = test_geom(0);
	g.wmark = 0x3000;
	KUNIT_EXPECT_FALSE(test, trbe_geom_valid(&g));
	g = test_geom(0);
	g.size = 0x1000;
	g.wmark = 0x1000;
	KUNIT_EXPECT_FALSE(test, trbe_geom_valid(&g));
	g = test_geom(0);
	g.align = 0x2000;
	KUNIT_EXPECT_FALSE(test, trbe_geom_valid(&g));
}

static void trbe_pos_to_off_edges(struct kunit *test)
{
	struct trbe_geom g = test_geom(0);

	KUNIT_EXPECT_EQ(test, trbe_pos_to_off(&g, 0, false), 0ULL);
	KUNIT_EXPECT_EQ(test, trbe_pos_to_off(&g, 0x10000, false), 0ULL);
	KUNIT_EXPECT_EQ(test, trbe_pos_to_off(&g, 0x10000, true), 0x10000ULL);
	KUNIT_EXPECT_EQ(test, trbe_pos_to_off(&g, 0x2ffff, true), 0xffffULL);
	KUNIT_EXPECT_EQ(test, trbe_pos_to_off(&g, 0x20001, false), 1ULL);
}

static void trbe_wrap_head_edges(struct kunit *test)
{
	struct trbe_geom g = test_geom(0);

	/* no wrap: the pointer moved forward in the same lap */
	KUNIT_EXPECT_EQ(test, trbe_wrap_head(&g, 0x10100, 0x800, false),
			0x10800ULL);
	/* nothing written */
	KUNIT_EXPECT_EQ(test, trbe_wrap_head(&g, 0x20000, 0, false),
			0x20000ULL);
	/* exactly one lap from a lap start */
	KUNIT_EXPECT_EQ(test, trbe_wrap_head(&g, 0x20000, 0, true),
			0x30000ULL);
	/* wrapped past the start point */
	KUNIT_EXPECT_EQ(test, trbe_wrap_head(&g, 0x10800, 0x900, true),
			0x20900ULL);
	/* wrapped, pointer behind the start point */
	KUNIT_EXPECT_EQ(test, trbe_wrap_head(&g, 0x10800, 0x100, true),
			0x20100ULL);
	/* inconsistent (behind, no wrap): never goes backwards */
	KUNIT_EXPECT_EQ(test, trbe_wrap_head(&g, 0x10800, 0x100, false),
			0x10800ULL);
}

static struct kunit_case trbe_window_cases[] = {
	KUNIT_CASE_PARAM(trbe_fill_window_table, trbe_window_gen_params),
	KUNIT_CASE(trbe_fill_window_stream_walk),
	KUNIT_CASE_PARAM(trbe_drop_tail_table, trbe_drop_gen_params),
	KUNIT_CASE(trbe_drop_wmark_max_walk),
	KUNIT_CASE(trbe_geom_valid_edges),
	KUNIT_CASE(trbe_pos_to_off_edges),
	KUNIT_CASE(trbe_wrap_head_edges),
	{ }
};

struct kunit_suite trbe_window_suite = {
	.name = "trbe_window",
	.test_cases = trbe_window_cases,
};
