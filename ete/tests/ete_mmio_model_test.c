// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the CoreSight MMIO backend against the model's external-debug
 * view (a private model instance, not the one registered as override):
 * presence and capabilities through TRCDEVARCH and TRCIDR<n>, the software
 * lock, 64-bit registers, and an enable/disable cycle, with the model's
 * violation log empty.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include <ete/caps.h>
#include <ete/compat.h>
#include <ete/core.h>
#include <ete/regs.h>
#include "ete_model.h"

struct mmio_fixture {
	struct ete_model *m;
	struct ete_mmio mmio;
	struct ete_access acc;
};

static int ete_mmio_model_init(struct kunit *test)
{
	struct mmio_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	f->m = ete_model_create("rich");
	if (IS_ERR_OR_NULL(f->m))
		return -ENODEV;
	ete_mmio_init(&f->mmio, &ete_model_mmio_ops,
		      ete_model_mmio_ctx(f->m, 0), 0, &f->acc);
	test->priv = f;
	return 0;
}

static void ete_mmio_model_exit(struct kunit *test)
{
	struct mmio_fixture *f = test->priv;

	ete_model_destroy(f->m);
}

static void mmio_model_presence_and_caps(struct kunit *test)
{
	struct mmio_fixture *f = test->priv;
	u32 idr[ETE_NUM_IDR] = {};
	struct ete_caps caps;
	unsigned int i;
	u32 devarch;

	ete_mmio_unlock(&f->acc);
	devarch = ete_read(&f->acc, ETE_TRCDEVARCH);
	KUNIT_EXPECT_EQ(test, devarch & ETE_DEVARCH_MASK, ETE_DEVARCH_ETE);
	for (i = 0; i < ETE_NUM_IDR; i++)
		if (ete_idr_regs[i])
			idr[i] = ete_read(&f->acc, ete_idr_regs[i]);
	KUNIT_ASSERT_EQ(test, ete_caps_decode(idr, devarch, &caps), 0);
	KUNIT_EXPECT_EQ(test, caps.num_ac, 16);
	KUNIT_EXPECT_EQ(test, caps.num_cntr, 4);
	KUNIT_EXPECT_EQ(test, ete_model_violations_total(f->m, 0), 0U);
}

/* RVQWLY through the backend, checked in the model's register file */
static void mmio_model_64bit(struct kunit *test)
{
	struct mmio_fixture *f = test->priv;

	ete_mmio_unlock(&f->acc);
	ete_write(&f->acc, ETE_TRCACVR_N(3), 0xffff800012345678ULL);
	KUNIT_EXPECT_EQ(test, ete_model_peek(f->m, 0, ETE_TRCACVR_N(3)),
			0xffff800012345678ULL);
	KUNIT_EXPECT_EQ(test, ete_read(&f->acc, ETE_TRCACVR_N(3)),
			0xffff800012345678ULL);
	KUNIT_EXPECT_EQ(test, ete_model_violations_total(f->m, 0), 0U);
}

static int poll(struct mmio_fixture *f, u32 mask, u32 want)
{
	int i;

	for (i = 0; i < 1000; i++)
		if ((ete_read(&f->acc, ETE_TRCSTATR) & mask) == want)
			return 0;
	return -ETIMEDOUT;
}

/* Program in Idle, enable, Running, disable, Stable, Idle (K.6) */
static void mmio_model_enable_cycle(struct kunit *test)
{
	struct mmio_fixture *f = test->priv;

	ete_mmio_unlock(&f->acc);
	KUNIT_ASSERT_EQ(test, poll(f, 3, 3), 0);
	/* Registers whose reset value is UNKNOWN and that enable checks */
	ete_write(&f->acc, ETE_TRCSTALLCTLR, 0);
	ete_write(&f->acc, ETE_TRCBBCTLR, 0);
	ete_write(&f->acc, ETE_TRCCONFIGR, 0x1);
	ete_write(&f->acc, ETE_TRCTRACEIDR, 0x10);
	ete_write(&f->acc, ETE_TRCVICTLR, 0x201);
	ete_write(&f->acc, ETE_TRCPRGCTLR, 1);
	KUNIT_EXPECT_EQ(test, poll(f, 1, 0), 0);
	ete_write(&f->acc, ETE_TRCPRGCTLR, 0);
	KUNIT_EXPECT_EQ(test, poll(f, 2, 2), 0);
	KUNIT_EXPECT_EQ(test, poll(f, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, ete_model_peek(f->m, 0, ETE_TRCTRACEIDR), 0x10ULL);
	KUNIT_EXPECT_EQ(test, ete_model_violations_total(f->m, 0), 0U);
	ete_mmio_lock(&f->acc);
}

static struct kunit_case ete_mmio_model_cases[] = {
	KUNIT_CASE(mmio_model_presence_and_caps),
	KUNIT_CASE(mmio_model_64bit),
	KUNIT_CASE(mmio_model_enable_cycle),
	{}
};

static struct kunit_suite ete_mmio_model_suite = {
	.name = "ete_mmio_model",
	.init = ete_mmio_model_init,
	.exit = ete_mmio_model_exit,
	.test_cases = ete_mmio_model_cases,
};

kunit_test_suite(ete_mmio_model_suite);

MODULE_DESCRIPTION("KUnit tests of the ETE MMIO backend against the model");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
