// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the packet encoder: each packet against the bytes that
 * OpenCSD's ETE/ETMv4 packet processor (trc_pkt_proc_etmv4i.cpp) decodes
 * into the intended packet: header table BuildIPacketTable(), payloads from
 * iPktTraceInfo(), iPktContext()/extractAndSetContextInfo(),
 * extract64BitLongAddr(), extractTSField64(), iPktExtension(), and for Q
 * iPktQ(): header 0xac count only (the Address packet follows), 0xa5 Short
 * Address IS0 (one byte, or two when bit 7 of the first is set, as
 * extractShortAddr()) then the count, 0xaa Long 32-bit Address IS0
 * (extract32BitLongAddr(): [8:2], [15:9], [23:16], [31:24]) then the
 * count; the count as extractContField() reads it (7 bits a byte, bit 7
 * set: another byte follows).
 */

#include <linux/module.h>
#include <kunit/test.h>

#include <ete/compat.h>

#include "pkt.h"

MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);

/**
 * struct em_pkt_case - one packet and its expected encoding
 * @name: case name
 * @enc: the encoder call
 * @want: expected bytes
 * @len: expected length
 */
struct em_pkt_case {
	const char *name;
	unsigned int (*enc)(u8 *buf);
	u8 want[EM_PKT_MAX];
	unsigned int len;
};

static unsigned int enc_tinfo(u8 *b)
{
	return em_pkt_trace_info(b, false, 0);
}

static unsigned int enc_tinfo_cc(u8 *b)
{
	return em_pkt_trace_info(b, true, 0x105);
}

static unsigned int enc_ctx_el1(u8 *b)
{
	struct em_pkt_ctx c = { .el = 1, .sf = true, .ns = true };

	return em_pkt_context(b, &c);
}

static unsigned int enc_ctx_ids(u8 *b)
{
	struct em_pkt_ctx c = {
		.el = 2, .sf = true, .ns = true, .has_vmid = true,
		.has_cid = true, .vmid = 0x11223344, .cid = 0xaabbccdd,
	};

	return em_pkt_context(b, &c);
}

static unsigned int enc_addr(u8 *b)
{
	/* [8:2] 0x2f, [15:9] 0x55, then bytes 0x01..0xff of [63:16] */
	return em_pkt_addr_l64(b, 0xffff800008a0aabcULL);
}

static unsigned int enc_atom_e(u8 *b)
{
	return em_pkt_atom_f1(b, true);
}

static unsigned int enc_atom_n(u8 *b)
{
	return em_pkt_atom_f1(b, false);
}

static unsigned int enc_ts_small(u8 *b)
{
	return em_pkt_timestamp(b, 0x7f);
}

static unsigned int enc_ts_two(u8 *b)
{
	return em_pkt_timestamp(b, 0x80);
}

static unsigned int enc_ts_full(u8 *b)
{
	/* 64 bits: eight 7-bit groups, then bits [63:56] whole */
	return em_pkt_timestamp(b, 0x8123456789abcdefULL);
}

static unsigned int enc_q_count(u8 *b)
{
	return em_pkt_q(b, 4);
}

static unsigned int enc_q_count_two_bytes(u8 *b)
{
	return em_pkt_q(b, 130);
}

static unsigned int enc_q_short_one(u8 *b)
{
	/* [8:2] of 0x48 is 0x12 */
	return em_pkt_q_short(b, 7, 0x0000aaaa00000048ULL, 1);
}

static unsigned int enc_q_short_two(u8 *b)
{
	/* [8:2] 0x51 with bit 7 set, then [16:9] 0x91; count 200 */
	return em_pkt_q_short(b, 200, 0x0000aaaa00012344ULL, 2);
}

static unsigned int enc_q_long_32(u8 *b)
{
	/* [8:2] 0x1e, [15:9] 0x2b, [23:16] 0x34, [31:24] 0x12 */
	return em_pkt_q_l32(b, 3, 0x0000aaaa12345678ULL);
}

static const struct em_pkt_case em_pkt_cases[] = {
	{ "async", em_pkt_async,
	  { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 }, 12 },
	{ "trace_info", enc_tinfo, { 0x01, 0x01, 0x00 }, 3 },
	{ "trace_info_cycle_count", enc_tinfo_cc,
	  { 0x01, 0x09, 0x01, 0x85, 0x02 }, 5 },
	{ "trace_on", em_pkt_trace_on, { 0x04 }, 1 },
	{ "context_el1_ns_aarch64", enc_ctx_el1, { 0x81, 0x31 }, 2 },
	{ "context_vmid_cid", enc_ctx_ids,
	  { 0x81, 0xf2, 0x44, 0x33, 0x22, 0x11, 0xdd, 0xcc, 0xbb, 0xaa }, 10 },
	{ "address_long_64_is0", enc_addr,
	  { 0x9d, 0x2f, 0x55, 0xa0, 0x08, 0x00, 0x80, 0xff, 0xff }, 9 },
	{ "atom_f1_e", enc_atom_e, { 0xf7 }, 1 },
	{ "atom_f1_n", enc_atom_n, { 0xf6 }, 1 },
	{ "timestamp_one_byte", enc_ts_small, { 0x02, 0x7f }, 2 },
	{ "timestamp_two_bytes", enc_ts_two, { 0x02, 0x80, 0x01 }, 3 },
	{ "timestamp_64_bits", enc_ts_full,
	  { 0x02, 0xef, 0x9b, 0xaf, 0xcd, 0xf8, 0xac, 0xd1, 0x91, 0x81 }, 10 },
	{ "overflow", em_pkt_overflow, { 0x00, 0x05 }, 2 },
	{ "ignore", em_pkt_ignore, { 0x70 }, 1 },
	{ "q_count", enc_q_count, { 0xac, 0x04 }, 2 },
	{ "q_count_two_bytes", enc_q_count_two_bytes, { 0xac, 0x82, 0x01 }, 3 },
	{ "q_short_address_one_byte", enc_q_short_one, { 0xa5, 0x12, 0x07 }, 3 },
	{ "q_short_address_two_bytes", enc_q_short_two,
	  { 0xa5, 0xd1, 0x91, 0xc8, 0x01 }, 5 },
	{ "q_long_32_address", enc_q_long_32,
	  { 0xaa, 0x1e, 0x2b, 0x34, 0x12, 0x03 }, 6 },
};

static void em_pkt_case_desc(const struct em_pkt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(em_pkt, em_pkt_cases, em_pkt_case_desc);

static void pkt_encodes_opencsd_bytes(struct kunit *test)
{
	const struct em_pkt_case *c = test->param_value;
	u8 buf[EM_PKT_MAX] = {};
	unsigned int len = c->enc(buf);

	KUNIT_ASSERT_EQ(test, len, c->len);
	KUNIT_EXPECT_EQ(test, memcmp(buf, c->want, len), 0);
}

/* The 9-byte form holds the top byte whole: decode it back */
static void pkt_timestamp_roundtrip(struct kunit *test)
{
	static const u64 vals[] = { 0, 1, 0x3fff, 0x4000, U32_MAX,
				    BIT_ULL(56) - 1, BIT_ULL(56), U64_MAX };
	unsigned int i, j, len;
	u8 buf[EM_PKT_MAX];
	u64 v;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		len = em_pkt_timestamp(buf, vals[i]);
		for (v = 0, j = 1; j < len; j++)
			v |= (u64)(buf[j] & (j == 9 ? 0xff : 0x7f)) << (7 * (j - 1));
		KUNIT_EXPECT_EQ(test, v, vals[i]);
		KUNIT_EXPECT_LE(test, len, 10U);
	}
}

static struct kunit_case em_pkt_test_cases[] = {
	KUNIT_CASE_PARAM(pkt_encodes_opencsd_bytes, em_pkt_gen_params),
	KUNIT_CASE(pkt_timestamp_roundtrip),
	{}
};

static struct kunit_suite em_pkt_suite = {
	.name = "ete_model_pkt",
	.test_cases = em_pkt_test_cases,
};

kunit_test_suites(&em_pkt_suite);
