// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the TRBE interrupt in crafted MADTs (trbe/madt.c): good tables of
 * every ACPI revision, processors that disagree, and truncated or
 * malformed tables.  Each table is copied into an allocation of exactly the
 * bytes the case makes readable, so KASAN reports any read past them.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include <ete/compat.h>

#include "../madt.h"

#define GICD_TYPE	0x0c
#define ITS_TYPE	0x0f
#define MAX_ENTRIES	6

struct madt_entry {
	u8 type;
	u8 len;
	u32 flags;
	u32 uid;
	u16 gsiv;
};

/* An enabled GICC of ACPI 6.5 (84 bytes), 6.0 (80) and 6.3 (82) */
#define G(u, g)		{ 0x0b, 84, TRBE_MADT_GICC_ENABLED, u, g }
#define G80(u)		{ 0x0b, 80, TRBE_MADT_GICC_ENABLED, u, 0 }
#define G82(u)		{ 0x0b, 82, TRBE_MADT_GICC_ENABLED, u, 0 }
#define GD		{ GICD_TYPE, 24 }
#define ITS		{ ITS_TYPE, 20 }

/**
 * struct madt_case - a crafted table and what the parser must say
 * @name: case name
 * @e: subtables, in order
 * @tail: zero bytes after them, counted in the table length
 * @len_delta: added to the header's length field
 * @size_delta: added to the readable size (the built table's)
 * @bad_sum: break the checksum
 * @bad_sig: break the signature
 * @ret: expected return
 * @verdict: expected verdict
 * @gsiv: expected GSIV (found, or the disagreeing entry's)
 * @uid: expected deciding entry
 * @off: expected fault offset (MALFORMED)
 */
struct madt_case {
	const char *name;
	struct madt_entry e[MAX_ENTRIES];
	unsigned int tail;
	int len_delta;
	int size_delta;
	bool bad_sum;
	bool bad_sig;
	int ret;
	enum trbe_madt_verdict verdict;
	u16 gsiv;
	u32 uid;
	u32 off;
};

#define OK(g)		.ret = 0, .verdict = TRBE_MADT_GSIV, .gsiv = (g)
#define NOTRBE(v)	.ret = -ENODEV, .verdict = (v)
#define MISMATCH(u, g)	.ret = -EINVAL, .verdict = TRBE_MADT_MISMATCH, \
			.uid = (u), .gsiv = (g)
#define BAD(o)		.ret = -EINVAL, .verdict = TRBE_MADT_MALFORMED, .off = (o)

static const struct madt_case madt_cases[] = {
	{ "four_cpus_same_ppi", { G(0, 31), G(1, 31), G(2, 31), G(3, 31) },
	  OK(31) },
	{ "other_subtables_skipped",
	  { GD, G(0, 31), G(1, 31), G(2, 31), G(3, 31), ITS }, OK(31) },
	{ "extended_ppi", { G(0, 1056), G(1, 1056), G(2, 1056), G(3, 1056) }, OK(1056) },
	{ "disabled_cpu_ignored",
	  { G(0, 31), G(1, 31), G(2, 31), G(3, 31), { 0x0b, 84, 0, 4, 30 } },
	  OK(31) },
	{ "acpi60_gicc_no_field", { G80(0), G80(1), G80(2), G80(3) },
	  NOTRBE(TRBE_MADT_NO_FIELD) },
	{ "acpi63_gicc_spe_only", { G82(0), G82(1) },
	  NOTRBE(TRBE_MADT_NO_FIELD) },
	{ "no_gicc", { GD }, NOTRBE(TRBE_MADT_NO_FIELD) },
	{ "all_zero_no_trbe", { G(0, 0), G(1, 0), G(2, 0), G(3, 0) }, NOTRBE(TRBE_MADT_NONE) },
	{ "one_cpu_differs", { G(0, 31), G(1, 31), G(2, 30), G(3, 31) },
	  MISMATCH(2, 30) },
	{ "first_cpu_without_trbe", { G(0, 0), G(1, 31) }, MISMATCH(1, 31) },
	{ "online_capable_cpu_counts",
	  { G(0, 31), { 0x0b, 84, TRBE_MADT_GICC_ONLINE_CAPABLE, 7, 30 } },
	  MISMATCH(7, 30) },
	{ "lengths_differ", { G(0, 31), G80(1) }, MISMATCH(1, 0) },
	{ "spi_refused", { G(0, 40), G(1, 40), G(2, 40), G(3, 40) }, .ret = -EINVAL,
	  .verdict = TRBE_MADT_NOT_PPI, .gsiv = 40 },
	{ "sgi_refused", { G(0, 7), G(1, 7), G(2, 7), G(3, 7) }, .ret = -EINVAL,
	  .verdict = TRBE_MADT_NOT_PPI, .gsiv = 7 },
	{ "truncated_header", { }, .size_delta = -24, BAD(0) },
	{ "empty", { }, .size_delta = -44, BAD(0) },
	{ "length_beyond_buffer", { G(0, 31), G(1, 31), G(2, 31), G(3, 31) },
	  .size_delta = -10, BAD(4) },
	{ "length_below_header", { }, .len_delta = -4, .size_delta = 0, BAD(4) },
	{ "last_entry_cut_by_length", { G(0, 31), G(1, 31), G(2, 31), G(3, 31) },
	  .len_delta = -10,
	  BAD(44 + 3 * 84) },
	{ "entry_length_zero", { { 0x0b, 0 } }, .tail = 82, BAD(44) },
	{ "entry_length_one", { G(0, 31), { GICD_TYPE, 1 } }, .tail = 10,
	  BAD(44 + 84) },
	{ "trailing_byte", { G(0, 31), G(1, 31), G(2, 31), G(3, 31) },
	  .tail = 1, BAD(44 + 4 * 84) },
	{ "gicc_shorter_than_acpi51", { { 0x0b, 20 } }, BAD(44) },
	{ "bad_checksum", { G(0, 31), G(1, 31), G(2, 31), G(3, 31) },
	  .bad_sum = true, BAD(9) },
	{ "bad_signature", { G(0, 31), G(1, 31), G(2, 31), G(3, 31) },
	  .bad_sig = true, BAD(0) },
};

static void madt_case_desc(const struct madt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(madt, madt_cases, madt_case_desc);

/* Lay out @c's table in @buf (large enough); return the bytes built */
static size_t madt_build(const struct madt_case *c, u8 *buf)
{
	size_t off = TRBE_MADT_HDR_LEN, len, i;
	u8 sum = 0;

	memcpy(buf, c->bad_sig ? "APIX" : "APIC", 4);
	buf[8] = 6;
	for (i = 0; i < MAX_ENTRIES && (c->e[i].type || c->e[i].len); i++) {
		const struct madt_entry *e = &c->e[i];

		buf[off] = e->type;
		buf[off + 1] = e->len;
		if (e->type == TRBE_MADT_TYPE_GICC && e->len >= 16) {
			put_unaligned_le32(e->uid, buf + off + TRBE_MADT_GICC_UID);
			put_unaligned_le32(e->flags,
					   buf + off + TRBE_MADT_GICC_FLAGS);
		}
		if (e->type == TRBE_MADT_TYPE_GICC && e->len >= 84)
			put_unaligned_le16(e->gsiv,
					   buf + off + TRBE_MADT_GICC_TRBE);
		off += e->len;
	}
	off += c->tail;
	len = off + c->len_delta;
	put_unaligned_le32(len, buf + 4);
	for (i = 0; i < min(len, off); i++)
		sum += buf[i];
	buf[9] = -sum + (c->bad_sum ? 1 : 0);
	return off;
}

static void madt_parse_case(struct kunit *test)
{
	const struct madt_case *c = test->param_value;
	struct trbe_madt_info info;
	size_t built, size;
	u8 *buf, *table;
	int ret;

	buf = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	built = madt_build(c, buf);
	size = built + c->size_delta;
	/* exactly @size bytes: KASAN reports any read past them */
	table = kunit_kmalloc(test, size ?: 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, table);
	memcpy(table, buf, size);

	ret = trbe_madt_parse(table, size, &info);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ_MSG(test, info.verdict, c->verdict, "got \"%s\"",
			    trbe_madt_verdict_name(info.verdict));
	if (c->verdict == TRBE_MADT_MALFORMED)
		KUNIT_EXPECT_EQ(test, info.off, c->off);
	else if (c->verdict != TRBE_MADT_NO_FIELD &&
		 c->verdict != TRBE_MADT_NONE)
		KUNIT_EXPECT_EQ(test, info.gsiv, c->gsiv);
	if (c->verdict == TRBE_MADT_MISMATCH)
		KUNIT_EXPECT_EQ(test, info.uid, c->uid);
}

/* Every verdict has words for the log */
static void madt_verdict_names(struct kunit *test)
{
	enum trbe_madt_verdict v;

	for (v = TRBE_MADT_GSIV; v <= TRBE_MADT_MALFORMED; v++)
		KUNIT_EXPECT_STRNEQ(test, trbe_madt_verdict_name(v), "?");
	KUNIT_EXPECT_STREQ(test, trbe_madt_verdict_name(TRBE_MADT_MALFORMED + 1),
			   "?");
}

static struct kunit_case trbe_madt_cases[] = {
	KUNIT_CASE_PARAM(madt_parse_case, madt_gen_params),
	KUNIT_CASE(madt_verdict_names),
	{ }
};

static struct kunit_suite trbe_madt_suite = {
	.name = "trbe_madt",
	.test_cases = trbe_madt_cases,
};

kunit_test_suite(trbe_madt_suite);

MODULE_DESCRIPTION("KUnit tests for the TRBE interrupt in the ACPI MADT");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
