// SPDX-License-Identifier: GPL-2.0
/*
 * Self-capture: a private model instance programmed through the model's own
 * system-register ops, as a driver would (SHSXGZ, RRWYQD, RJLRQH followed),
 * runs its TRBE in fill mode into a buffer the model allocates.  The bytes
 * and the ID registers let the host decode the stream with OpenCSD.
 */

#include <linux/bitfield.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "model.h"
#include "debugfs.h"

#define EM_CAP_POLLS		100

const u32 em_capture_regs[17] = {
	ETE_TRCIDR0, ETE_TRCIDR1, ETE_TRCIDR2, ETE_TRCIDR3, ETE_TRCIDR4,
	ETE_TRCIDR5, ETE_TRCIDR8, ETE_TRCIDR9, ETE_TRCIDR10, ETE_TRCIDR11,
	ETE_TRCIDR12, ETE_TRCIDR13, ETE_TRCCONFIGR, ETE_TRCTRACEIDR,
	ETE_TRCDEVARCH, ETE_TRCSYNCPR, ETE_TRCVICTLR,
};

/* Poll TRCSTATR, with the ISB SHSXGZ wants between reads */
static int em_cap_wait(const struct ete_access *acc, u64 mask, u64 want)
{
	int i;

	for (i = 0; i < EM_CAP_POLLS; i++) {
		u64 st = ete_read(acc, ETE_TRCSTATR);

		ete_sync(acc, ETE_SYNC_ISB);
		if ((st & mask) == want)
			return 0;
	}
	return -ETIMEDOUT;
}

static void em_cap_program(const struct ete_access *acc, u64 base,
			   size_t size)
{
	u64 idr0 = ete_read(acc, ETE_TRCIDR0);
	u64 idr2 = ete_read(acc, ETE_TRCIDR2);
	u64 cfg = BIT(0);

	if (FIELD_GET(EM_IDR0_TSSIZE, idr0)) {
		cfg |= EM_CONFIGR_TS;
		ete_write(acc, ETE_TRCTSCTLR, 0);
	}
	if (FIELD_GET(EM_IDR2_CIDSIZE, idr2))
		cfg |= EM_CONFIGR_CID;
	ete_write(acc, ETE_TRCCONFIGR, cfg);
	ete_write(acc, ETE_TRCTRACEIDR, 1);
	ete_write(acc, ETE_TRCSYNCPR, 10);		/* every 1KB */
	if (ete_read(acc, ETE_TRCIDR3) & EM_IDR3_STALLCTL)
		ete_write(acc, ETE_TRCSTALLCTLR, 0);
	ete_write(acc, ETE_TRCEVENTCTL0R, 0);
	ete_write(acc, ETE_TRCEVENTCTL1R, 0);
	ete_write(acc, ETE_TRCVICTLR, 1 | EM_VICTLR_SSSTATUS);
	if (FIELD_GET(EM_IDR4_NUMACPAIRS, ete_read(acc, ETE_TRCIDR4))) {
		ete_write(acc, ETE_TRCVIIECTLR, 0);
		ete_write(acc, ETE_TRCVISSCTLR, 0);
	}
	/* the TRBE first, in fill mode, ignoring triggers */
	ete_write(acc, ETE_TRBBASER_EL1, base);
	ete_write(acc, ETE_TRBPTR_EL1, base);
	ete_write(acc, ETE_TRBSR_EL1, 0);
	ete_write(acc, ETE_TRBMAR_EL1, 0);
	ete_write(acc, ETE_TRBTRG_EL1, 0);
	ete_sync(acc, ETE_SYNC_ISB);
	ete_write(acc, ETE_TRBLIMITR_EL1, (base + size) |
		  FIELD_PREP(EM_TRBLIMITR_TM, EM_TM_IGNORE) | EM_TRBLIMITR_E);
	ete_write(acc, ETE_TRFCR_EL1, EM_TRFCR_E0TRE | EM_TRFCR_ExTRE);
	ete_sync(acc, ETE_SYNC_ISB);
}

/* Stop the unit, then drain into the TRBE inside a prohibited region */
static int em_cap_stop(const struct ete_access *acc)
{
	int ret;

	ete_write(acc, ETE_TRCPRGCTLR, 0);
	ete_sync(acc, ETE_SYNC_ISB);
	ret = em_cap_wait(acc, EM_STATR_IDLE | EM_STATR_PMSTABLE,
			  EM_STATR_IDLE | EM_STATR_PMSTABLE);
	ete_write(acc, ETE_TRFCR_EL1, 0);
	ete_sync(acc, ETE_SYNC_ISB);
	ete_sync(acc, ETE_SYNC_TSB);
	ete_sync(acc, ETE_SYNC_DSB);
	ete_write(acc, ETE_TRBLIMITR_EL1, 0);
	ete_sync(acc, ETE_SYNC_ISB);
	return ret;
}

static int em_cap_session(struct ete_model *m, int cpu, u8 *buf, size_t size,
			  struct em_capture *c)
{
	struct ete_access acc = {
		.ops = &ete_model_sysreg_ops,
		.priv = m,
		.cpu = cpu,
		.local = true,
	};
	u64 base = (uintptr_t)buf;
	unsigned int i;
	int ret;

	ret = em_cap_wait(&acc, EM_STATR_IDLE, EM_STATR_IDLE);
	if (ret)
		return ret;
	em_cap_program(&acc, base, size);
	ete_write(&acc, ETE_TRCPRGCTLR, 1);
	ete_sync(&acc, ETE_SYNC_ISB);
	ret = em_cap_wait(&acc, EM_STATR_IDLE, 0);
	if (ret)
		return ret;
	/* half the buffer: the stream ends on a packet boundary */
	for (i = 0; i < size / 64; i++) {
		if (ete_model_peek(m, cpu, ETE_TRBPTR_EL1) - base >= size / 2)
			break;
		ete_model_tick(m, cpu, 256);
	}
	ret = em_cap_stop(&acc);
	for (i = 0; i < ARRAY_SIZE(em_capture_regs); i++)
		c->regs[i] = ete_read(&acc, em_capture_regs[i]);
	c->len = ete_read(&acc, ETE_TRBPTR_EL1) - base;
	return ret;
}

/**
 * em_capture_run() - capture trace from a private instance
 * @profile: implementation profile of the instance
 * @size: buffer size in bytes, a multiple of PAGE_SIZE
 * @c: the result; free it with em_capture_free()
 *
 * Context: process context; allocates, disables preemption meanwhile.
 * Return: 0, -EINVAL for a bad size or profile, -ENOMEM, or -ETIMEDOUT if
 * the unit did not reach the state wanted.
 */
int em_capture_run(const char *profile, size_t size, struct em_capture *c)
{
	struct ete_model *m;
	u8 *buf;
	int cpu, ret;

	if (!size || size % PAGE_SIZE || size > SZ_4M)
		return -EINVAL;
	m = ete_model_create(profile);
	if (!m)
		return -EINVAL;
	buf = vzalloc(size);
	if (!buf) {
		ret = -ENOMEM;
		goto out_destroy;
	}
	cpu = get_cpu();
	ret = em_cap_session(m, cpu, buf, size, c);
	c->violations = ete_model_violations_total(m, cpu);
	put_cpu();
	c->data = buf;
	if (ret)
		em_capture_free(c);
out_destroy:
	ete_model_destroy(m);
	return ret;
}

/**
 * em_capture_free() - free a capture
 * @c: the capture
 *
 * Context: process context.
 */
void em_capture_free(struct em_capture *c)
{
	vfree(c->data);
	c->data = NULL;
	c->len = 0;
}
