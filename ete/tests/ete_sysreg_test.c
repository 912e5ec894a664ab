// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the system-register encoding table against the architecture's
 * offset-to-encoding rule and the register table, and the MMIO backend
 * against a fake 32/64-bit accessor.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <asm/sysreg.h>

#include <ete/compat.h>
#include <ete/core.h>
#include <ete/regs.h>

static const struct ete_reg_desc regs[] = {
#define ETE_REG(name, count, stride, flags) \
	{ #name, ETE_##name, count, stride, flags },
#include <ete/regs-table.h>
#undef ETE_REG
};

static const struct ete_sysreg_enc *find_enc(u32 id)
{
	return ete_sysreg_find(id);
}

/* Sorted by id (the backend's binary search needs it), with the MRS and
 * MSR functions the access allows and no other.
 */
static void ete_sysreg_sorted_with_accessors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ete_sysreg_table_size; i++) {
		const struct ete_sysreg_enc *e = &ete_sysreg_table[i];

		if (i)
			KUNIT_EXPECT_LT(test, ete_sysreg_table[i - 1].id, e->id);
		KUNIT_EXPECT_EQ_MSG(test, ete_sysreg_can(e->id, false),
				    e->access != ETE_SYSREG_WO, "id %#x", e->id);
		KUNIT_EXPECT_EQ_MSG(test, ete_sysreg_can(e->id, true),
				    e->access != ETE_SYSREG_RO, "id %#x", e->id);
		KUNIT_EXPECT_PTR_EQ(test, ete_sysreg_find(e->id), e);
	}
	KUNIT_EXPECT_NULL(test, ete_sysreg_find(ETE_TRCOSLAR));
	KUNIT_EXPECT_NULL(test, ete_sysreg_find(ETE_TRCRSCTLR_N(1)));
}

/* D4.2.1.2: n = offset / 4; CRn = n[9:7], op2 = n[6:4], CRm = n[3:0] */
static void ete_sysreg_trc_rule(struct kunit *test)
{
	unsigned int i, checked = 0;

	for (i = 0; i < ete_sysreg_table_size; i++) {
		const struct ete_sysreg_enc *e = &ete_sysreg_table[i];
		u32 n = e->id / 4;

		if (!ETE_REG_IS_TRC(e->id))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, e->op0, 2, "id %#x", e->id);
		KUNIT_EXPECT_EQ_MSG(test, e->op1, 1, "id %#x", e->id);
		KUNIT_EXPECT_EQ_MSG(test, e->crn, (n >> 7) & 7, "id %#x", e->id);
		KUNIT_EXPECT_EQ_MSG(test, e->op2, (n >> 4) & 7, "id %#x", e->id);
		KUNIT_EXPECT_EQ_MSG(test, e->crm, n & 0xf, "id %#x", e->id);
		/* RVGVTS: CRn >= 8 is never a trace unit register */
		KUNIT_EXPECT_LT_MSG(test, e->crn, 8, "id %#x", e->id);
		checked++;
	}
	KUNIT_EXPECT_GT(test, checked, 150U);
}

/*
 * Every instance of every register with a system view has exactly one
 * row, with the access the register table gives; nothing else has one.
 */
static void ete_sysreg_matches_register_table(struct kunit *test)
{
	unsigned int i, k, rows = 0;

	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		for (k = 0; k < regs[i].count; k++) {
			u32 id = regs[i].id + k * regs[i].stride;
			const struct ete_sysreg_enc *e = find_enc(id);
			bool fixed = regs[i].id == ETE_TRCRSCTLR && k < 2;
			u8 want = regs[i].flags & ETE_RF_RO ? ETE_SYSREG_RO :
				  regs[i].flags & ETE_RF_WO ? ETE_SYSREG_WO :
				  ETE_SYSREG_RW;

			if (!(regs[i].flags & ETE_RF_SYS) || fixed) {
				KUNIT_EXPECT_NULL_MSG(test, e, "%s%u", regs[i].name, k);
				continue;
			}
			KUNIT_EXPECT_NOT_NULL_MSG(test, e, "%s%u", regs[i].name, k);
			if (!e)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, e->access, want, "%s%u",
					    regs[i].name, k);
			rows++;
		}
	}
	KUNIT_EXPECT_EQ(test, rows, ete_sysreg_table_size);
}

/* Each (op0, op1, CRn, CRm, op2) names one register */
static void ete_sysreg_unique(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ete_sysreg_table_size; i++) {
		const struct ete_sysreg_enc *a = &ete_sysreg_table[i];

		for (j = i + 1; j < ete_sysreg_table_size; j++) {
			const struct ete_sysreg_enc *b = &ete_sysreg_table[j];

			KUNIT_EXPECT_FALSE_MSG(test, a->op0 == b->op0 &&
					       a->op1 == b->op1 &&
					       a->crn == b->crn &&
					       a->crm == b->crm &&
					       a->op2 == b->op2,
					       "%#x and %#x", a->id, b->id);
		}
	}
}

static u32 enc(const struct ete_sysreg_enc *e)
{
	return sys_reg(e->op0, e->op1, e->crn, e->crm, e->op2);
}

/* The PE registers agree with the kernel's own definitions */
static void ete_sysreg_pe_registers(struct kunit *test)
{
	static const struct { u32 id; u32 sys; } pe[] = {
		{ ETE_TRBLIMITR_EL1, SYS_TRBLIMITR_EL1 },
		{ ETE_TRBPTR_EL1, SYS_TRBPTR_EL1 },
		{ ETE_TRBBASER_EL1, SYS_TRBBASER_EL1 },
		{ ETE_TRBSR_EL1, SYS_TRBSR_EL1 },
		{ ETE_TRBMAR_EL1, SYS_TRBMAR_EL1 },
		{ ETE_TRBTRG_EL1, SYS_TRBTRG_EL1 },
		{ ETE_TRBIDR_EL1, SYS_TRBIDR_EL1 },
		{ ETE_TRFCR_EL1, SYS_TRFCR_EL1 },
		{ ETE_OSLAR_EL1, SYS_OSLAR_EL1 },
		{ ETE_OSLSR_EL1, SYS_OSLSR_EL1 },
		{ ETE_MIDR_EL1, SYS_MIDR_EL1 },
		{ ETE_ID_AA64DFR0_EL1, SYS_ID_AA64DFR0_EL1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pe); i++) {
		const struct ete_sysreg_enc *e = find_enc(pe[i].id);

		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ_MSG(test, enc(e), pe[i].sys, "id %#x", pe[i].id);
	}
}

/* Known trace unit encodings, as a sanity check of the rule itself */
static void ete_sysreg_known(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, enc(find_enc(ETE_TRCPRGCTLR)), sys_reg(2, 1, 0, 1, 0));
	KUNIT_EXPECT_EQ(test, enc(find_enc(ETE_TRCSTATR)), sys_reg(2, 1, 0, 3, 0));
	KUNIT_EXPECT_EQ(test, enc(find_enc(ETE_TRCACVR_N(1))), sys_reg(2, 1, 2, 2, 0));
	KUNIT_EXPECT_EQ(test, enc(find_enc(ETE_TRCCLAIMSET)), sys_reg(2, 1, 7, 8, 6));
	KUNIT_EXPECT_EQ(test, enc(find_enc(ETE_TRCDEVARCH)), sys_reg(2, 1, 7, 15, 6));
}

/* ------------------------------------------------------------------------
 * ete_mmio: the MMIO backend over a fake view
 */

struct fake_view {
	u32 mem[1024];
	unsigned int n32, n64;
	bool locked;
};

static u32 fake_read32(void *ctx, u32 off)
{
	struct fake_view *v = ctx;

	v->n32++;
	if (off == ETE_TRCLSR)
		return 0x1 | (v->locked ? 0x2 : 0);
	return v->mem[off / 4];
}

static void fake_write32(void *ctx, u32 off, u32 val)
{
	struct fake_view *v = ctx;

	v->n32++;
	if (off == ETE_TRCLAR)
		v->locked = val != 0xc5acce55;
	else if (!v->locked)
		v->mem[off / 4] = val;
}

static u64 fake_read64(void *ctx, u32 off)
{
	struct fake_view *v = ctx;

	v->n64++;
	return (u64)v->mem[off / 4 + 1] << 32 | v->mem[off / 4];
}

static void fake_write64(void *ctx, u32 off, u64 val)
{
	struct fake_view *v = ctx;

	v->n64++;
	v->mem[off / 4] = lower_32_bits(val);
	v->mem[off / 4 + 1] = upper_32_bits(val);
}

static const struct ete_mmio_io_ops fake_io32 = {
	.read32 = fake_read32,
	.write32 = fake_write32,
};

static const struct ete_mmio_io_ops fake_io64 = {
	.read32 = fake_read32,
	.write32 = fake_write32,
	.read64 = fake_read64,
	.write64 = fake_write64,
};

/* RVQWLY: a 64-bit register as two words when no doubleword access */
static void ete_mmio_64bit_as_words(struct kunit *test)
{
	struct fake_view *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);
	struct ete_access acc;
	struct ete_mmio m;

	KUNIT_ASSERT_NOT_NULL(test, v);
	ete_mmio_init(&m, &fake_io32, v, 0, &acc);
	KUNIT_EXPECT_FALSE(test, acc.local);
	ete_write(&acc, ETE_TRCACVR_N(2), 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, v->mem[ETE_TRCACVR_N(2) / 4], 0x55667788U);
	KUNIT_EXPECT_EQ(test, v->mem[ETE_TRCACVR_N(2) / 4 + 1], 0x11223344U);
	KUNIT_EXPECT_EQ(test, ete_read(&acc, ETE_TRCACVR_N(2)),
			0x1122334455667788ULL);
	/* A 32-bit register is one word, the next one untouched */
	ete_write(&acc, ETE_TRCCONFIGR, 0xffffffffULL);
	KUNIT_EXPECT_EQ(test, v->mem[ETE_TRCAUXCTLR / 4 - 1], 0U);
}

/* RCFRFW: an APB-AP gives word accesses only; so do the production ones */
static void ete_mmio_production_words_only(struct kunit *test)
{
	KUNIT_EXPECT_NOT_NULL(test, ete_mmio_default_io.read32);
	KUNIT_EXPECT_NOT_NULL(test, ete_mmio_default_io.write32);
	KUNIT_EXPECT_NULL(test, ete_mmio_default_io.read64);
	KUNIT_EXPECT_NULL(test, ete_mmio_default_io.write64);
}

static void ete_mmio_64bit_as_doubleword(struct kunit *test)
{
	struct fake_view *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);
	struct ete_access acc;
	struct ete_mmio m;

	KUNIT_ASSERT_NOT_NULL(test, v);
	ete_mmio_init(&m, &fake_io64, v, 0, &acc);
	ete_write(&acc, ETE_TRCCIDCVR_N(1), 0xabcdef0012345678ULL);
	KUNIT_EXPECT_EQ(test, ete_read(&acc, ETE_TRCCIDCVR_N(1)),
			0xabcdef0012345678ULL);
	KUNIT_EXPECT_EQ(test, v->n64, 2U);
	ete_read(&acc, ETE_TRCCONFIGR);
	KUNIT_EXPECT_EQ(test, v->n64, 2U);
}

/* B.21: unlock with the key only when TRCLSR says the lock is set */
static void ete_mmio_software_lock(struct kunit *test)
{
	struct fake_view *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);
	struct ete_access acc;
	struct ete_mmio m;

	KUNIT_ASSERT_NOT_NULL(test, v);
	v->locked = true;
	/* no access at init: learnt at the unlock, on the unit's CPU */
	ete_mmio_init(&m, &fake_io32, v, 0, &acc);
	KUNIT_EXPECT_FALSE(test, m.sw_lock);
	ete_mmio_lock(&acc);
	KUNIT_EXPECT_TRUE(test, v->locked);
	ete_write(&acc, ETE_TRCCONFIGR, 1);
	KUNIT_EXPECT_EQ(test, v->mem[ETE_TRCCONFIGR / 4], 0U);
	ete_mmio_unlock(&acc);
	KUNIT_EXPECT_TRUE(test, m.sw_lock);
	KUNIT_EXPECT_FALSE(test, v->locked);
	ete_write(&acc, ETE_TRCCONFIGR, 1);
	KUNIT_EXPECT_EQ(test, v->mem[ETE_TRCCONFIGR / 4], 1U);
	ete_mmio_lock(&acc);
	KUNIT_EXPECT_TRUE(test, v->locked);
}

static void ete_mmio_reg_flags(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ete_reg_flags(ETE_TRCACATR_N(15)) & ETE_RF_64);
	KUNIT_EXPECT_FALSE(test, ete_reg_flags(ETE_TRCRSCTLR_N(5)) & ETE_RF_64);
	KUNIT_EXPECT_TRUE(test, ete_reg_flags(ETE_TRCSTATR) & ETE_RF_RO);
	KUNIT_EXPECT_EQ(test, ete_reg_flags(0x0a0), 0);	/* ETMv4 TRCVDCTLR */
	KUNIT_EXPECT_EQ(test, ete_reg_flags(ETE_TRCACVR + 4), 0);
}

static struct kunit_case ete_sysreg_cases[] = {
	KUNIT_CASE(ete_sysreg_trc_rule),
	KUNIT_CASE(ete_sysreg_matches_register_table),
	KUNIT_CASE(ete_sysreg_unique),
	KUNIT_CASE(ete_sysreg_pe_registers),
	KUNIT_CASE(ete_sysreg_known),
	KUNIT_CASE(ete_sysreg_sorted_with_accessors),
	{}
};

static struct kunit_suite ete_sysreg_suite = {
	.name = "ete_sysreg_encoding",
	.test_cases = ete_sysreg_cases,
};

static struct kunit_case ete_mmio_cases[] = {
	KUNIT_CASE(ete_mmio_64bit_as_words),
	KUNIT_CASE(ete_mmio_production_words_only),
	KUNIT_CASE(ete_mmio_64bit_as_doubleword),
	KUNIT_CASE(ete_mmio_software_lock),
	KUNIT_CASE(ete_mmio_reg_flags),
	{}
};

static struct kunit_suite ete_mmio_suite = {
	.name = "ete_mmio_access",
	.test_cases = ete_mmio_cases,
};

kunit_test_suites(&ete_sysreg_suite, &ete_mmio_suite);

MODULE_DESCRIPTION("KUnit tests of ETE register access backends");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
