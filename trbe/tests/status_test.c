// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: TRBSR_EL1 decoding, every EC and BSC value, and the FSC names.
 */

#include <kunit/test.h>
#include <linux/bitfield.h>

#include <ete/trbe.h>

#include "trbe_tests.h"

#define SR(ec, mss, flags) \
	(((u64)(ec) << 26) | (u64)(mss) | (flags))
#define IRQ	TRBE_SR_IRQ
#define S	TRBE_SR_S
#define WRAP	TRBE_SR_WRAP
#define TRG	TRBE_SR_TRG

struct status_case {
	const char *name;
	u64 trbsr;
	enum trbe_fill_mode fm;
	enum trbe_trig_mode tm;
	enum trbe_action action;
	enum trbe_fault fault;
};

static const struct status_case status_cases[] = {
	{ "no_irq_not_ours", SR(0, 1, S | WRAP), TRBE_FM_FILL, TRBE_TM_IGNORE,
	  TRBE_ACT_NOT_OURS, TRBE_FAULT_NONE },
	{ "zero_not_ours", 0, TRBE_FM_FILL, TRBE_TM_IGNORE,
	  TRBE_ACT_NOT_OURS, TRBE_FAULT_NONE },
	{ "fill_full", SR(0, 1, IRQ | S | WRAP), TRBE_FM_FILL, TRBE_TM_IGNORE,
	  TRBE_ACT_FULL, TRBE_FAULT_NONE },
	{ "fill_full_with_trigger", SR(0, 1, IRQ | S | WRAP | TRG),
	  TRBE_FM_FILL, TRBE_TM_IRQ, TRBE_ACT_FULL, TRBE_FAULT_NONE },
	{ "filled_in_wrap_mode_is_fault", SR(0, 1, IRQ | S | WRAP),
	  TRBE_FM_WRAP, TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "filled_not_stopped_is_fault", SR(0, 1, IRQ | WRAP),
	  TRBE_FM_FILL, TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "wrap_mode_wrap", SR(0, 0, IRQ | WRAP), TRBE_FM_WRAP, TRBE_TM_IGNORE,
	  TRBE_ACT_WRAP, TRBE_FAULT_NONE },
	{ "wrap_in_circular_is_fault", SR(0, 0, IRQ | WRAP), TRBE_FM_CIRCULAR,
	  TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "trigger_stop", SR(0, 2, IRQ | S | TRG), TRBE_FM_CIRCULAR,
	  TRBE_TM_STOP, TRBE_ACT_TRIG_STOP, TRBE_FAULT_NONE },
	{ "trigger_stop_in_irq_mode_is_fault", SR(0, 2, IRQ | S | TRG),
	  TRBE_FM_CIRCULAR, TRBE_TM_IRQ, TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "trigger_irq", SR(0, 0, IRQ | TRG), TRBE_FM_CIRCULAR, TRBE_TM_IRQ,
	  TRBE_ACT_TRIG_IRQ, TRBE_FAULT_NONE },
	{ "trigger_irq_circular_wrapped", SR(0, 0, IRQ | TRG | WRAP),
	  TRBE_FM_CIRCULAR, TRBE_TM_IRQ, TRBE_ACT_TRIG_IRQ, TRBE_FAULT_NONE },
	{ "trigger_irq_ignored_mode_is_fault", SR(0, 0, IRQ | TRG),
	  TRBE_FM_CIRCULAR, TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "stopped_without_cause_is_fault", SR(0, 0, IRQ | S), TRBE_FM_FILL,
	  TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "irq_without_cause_is_fault", SR(0, 0, IRQ), TRBE_FM_FILL,
	  TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "stage1_translation", SR(0x24, 0x05, IRQ | S), TRBE_FM_FILL,
	  TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_STAGE1 },
	{ "stage2_permission", SR(0x25, 0x0f, IRQ | S), TRBE_FM_WRAP,
	  TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_STAGE2 },
	{ "gpc_fault", SR(0x1e, 0x28, IRQ | S), TRBE_FM_FILL, TRBE_TM_IGNORE,
	  TRBE_ACT_FAULT, TRBE_FAULT_GPC },
	{ "impdef_event", SR(0x1f, 0, IRQ | S), TRBE_FM_FILL, TRBE_TM_IGNORE,
	  TRBE_ACT_FAULT, TRBE_FAULT_IMPDEF },
	{ "external_abort_wins", SR(0, 1, IRQ | S | TRBE_SR_EA), TRBE_FM_FILL,
	  TRBE_TM_IGNORE, TRBE_ACT_FAULT, TRBE_FAULT_EXTERNAL },
	{ "reserved_bsc", SR(0, 3, IRQ | S), TRBE_FM_FILL, TRBE_TM_IGNORE,
	  TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
	{ "reserved_ec", SR(0x01, 0, IRQ | S), TRBE_FM_FILL, TRBE_TM_IGNORE,
	  TRBE_ACT_FAULT, TRBE_FAULT_UNKNOWN },
};

static void status_case_desc(const struct status_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(trbe_status, status_cases, status_case_desc);

static void trbe_status_decode_table(struct kunit *test)
{
	const struct status_case *c = test->param_value;
	struct trbe_status st = trbe_status_decode(c->trbsr, c->fm, c->tm);

	KUNIT_EXPECT_EQ(test, st.action, c->action);
	KUNIT_EXPECT_EQ(test, st.fault, c->fault);
	KUNIT_EXPECT_EQ(test, st.stopped, !!(c->trbsr & S));
}

/* The fault an EC other than "buffer management" must give. */
static enum trbe_fault want_ec_fault(unsigned int ec)
{
	switch (ec) {
	case TRBE_EC_STAGE1_ABORT:
		return TRBE_FAULT_STAGE1;
	case TRBE_EC_STAGE2_ABORT:
		return TRBE_FAULT_STAGE2;
	case TRBE_EC_GPC_FAULT:
		return TRBE_FAULT_GPC;
	case TRBE_EC_IMPDEF:
		return TRBE_FAULT_IMPDEF;
	default:
		return TRBE_FAULT_UNKNOWN;
	}
}

/* Every EC with every FSC: a fault of the EC's kind, whatever the mode. */
static void trbe_status_decode_every_ec(struct kunit *test)
{
	unsigned int ec, fsc;

	for (ec = 1; ec < 64; ec++) {
		for (fsc = 0; fsc < 64; fsc++) {
			struct trbe_status st;

			st = trbe_status_decode(SR(ec, fsc, IRQ | S),
						TRBE_FM_FILL, TRBE_TM_STOP);
			KUNIT_ASSERT_EQ_MSG(test, st.action, TRBE_ACT_FAULT,
					    "ec %#x fsc %#x", ec, fsc);
			KUNIT_ASSERT_EQ_MSG(test, st.fault, want_ec_fault(ec),
					    "ec %#x", ec);
			KUNIT_ASSERT_EQ(test, st.code, fsc);
		}
	}
}

/* Every reserved BSC is a fault in every mode. */
static void trbe_status_decode_every_bsc(struct kunit *test)
{
	static const enum trbe_fill_mode fms[] = {
		TRBE_FM_FILL, TRBE_FM_WRAP, TRBE_FM_CIRCULAR };
	unsigned int bsc, i;

	for (bsc = 3; bsc < 64; bsc++) {
		for (i = 0; i < ARRAY_SIZE(fms); i++) {
			struct trbe_status st;

			st = trbe_status_decode(SR(0, bsc, IRQ | S | WRAP | TRG),
						fms[i], TRBE_TM_STOP);
			KUNIT_ASSERT_EQ_MSG(test, st.fault, TRBE_FAULT_UNKNOWN,
					    "bsc %#x fm %d", bsc, fms[i]);
		}
	}
}

static void trbe_status_clear_keeps_other_bits(struct kunit *test)
{
	u64 all = SR(0x3f, 0xffff, IRQ | S | WRAP | TRG | TRBE_SR_EA);

	KUNIT_EXPECT_EQ(test, trbe_status_clear(all), 0ULL);
	KUNIT_EXPECT_EQ(test, trbe_status_clear(all | BIT_ULL(40)),
			BIT_ULL(40));
}

static void trbe_fsc_name_every_code(struct kunit *test)
{
	unsigned int fsc, reserved = 0;

	for (fsc = 0; fsc < 64; fsc++) {
		const char *name = trbe_fsc_name(fsc);

		KUNIT_ASSERT_NOT_NULL(test, name);
		reserved += !strcmp(name, "reserved");
	}
	KUNIT_EXPECT_STREQ(test, trbe_fsc_name(0x07), "translation fault");
	KUNIT_EXPECT_STREQ(test, trbe_fsc_name(0x0d), "permission fault");
	KUNIT_EXPECT_STREQ(test, trbe_fsc_name(0x10),
			   "synchronous external abort");
	KUNIT_EXPECT_STREQ(test, trbe_fsc_name(0x3f), "reserved");
	/* 64 codes, 42 allocated by the DFSC encoding used here */
	KUNIT_EXPECT_EQ(test, reserved, 22U);
}

static struct kunit_case trbe_status_cases[] = {
	KUNIT_CASE_PARAM(trbe_status_decode_table, trbe_status_gen_params),
	KUNIT_CASE(trbe_status_decode_every_ec),
	KUNIT_CASE(trbe_status_decode_every_bsc),
	KUNIT_CASE(trbe_status_clear_keeps_other_bits),
	KUNIT_CASE(trbe_fsc_name_every_code),
	{ }
};

struct kunit_suite trbe_status_suite = {
	.name = "trbe_status",
	.test_cases = trbe_status_cases,
};
