/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One register access interface for ETE trace units, TRBE and the PE
 * registers they depend on.
 *
 * Three backends implement it: system instructions (MRS/MSR on the owning
 * CPU), CoreSight MMIO (the external-debug view), and, in tests only, the
 * software model under tools/testing/ete-model.  Nothing above this layer
 * knows which one it talks to.
 */
#ifndef _ETE_ACCESS_H
#define _ETE_ACCESS_H

#include <linux/types.h>
#include <ete/regs.h>

struct module;
struct ete_access;

/**
 * enum ete_sync - synchronisation operations the programming sequences need
 * @ETE_SYNC_ISB: context synchronization event (ISB); system-register view
 * @ETE_SYNC_DSB: complete outstanding memory accesses (DSB NSH)
 * @ETE_SYNC_TSB: TSB CSYNC, the trace synchronization barrier; only
 *	meaningful inside a trace-prohibited region (RJLRQH)
 */
enum ete_sync {
	ETE_SYNC_ISB,
	ETE_SYNC_DSB,
	ETE_SYNC_TSB,
};

/**
 * struct ete_access_ops - a register access backend
 * @read: return the value of register @reg (an ETE_* id from regs.h);
 *	32-bit registers are returned zero-extended.
 * @write: write @val to register @reg.
 * @sync: perform the synchronisation @what.
 *
 * For a backend whose handle has @local set (system instructions, and the
 * model standing in for them), every call must be made on the handle's CPU
 * with preemption disabled.  No callback sleeps; all may be called from
 * hard-IRQ and CPU PM notifier context.
 */
struct ete_access_ops {
	u64 (*read)(const struct ete_access *acc, u32 reg);
	void (*write)(const struct ete_access *acc, u32 reg, u64 val);
	void (*sync)(const struct ete_access *acc, enum ete_sync what);
};

/**
 * struct ete_access - a handle on the registers of one CPU's trace unit
 * @ops: the backend
 * @priv: backend data (the MMIO mapping, the model's unit)
 * @cpu: the PE this handle reaches
 * @local: calls must be made on @cpu (system-register view)
 */
struct ete_access {
	const struct ete_access_ops *ops;
	void *priv;
	int cpu;
	bool local;
};

static inline u64 ete_read(const struct ete_access *acc, u32 reg)
{
	return acc->ops->read(acc, reg);
}

static inline void ete_write(const struct ete_access *acc, u32 reg, u64 val)
{
	acc->ops->write(acc, reg, val);
}

static inline void ete_sync(const struct ete_access *acc, enum ete_sync what)
{
	acc->ops->sync(acc, what);
}

/**
 * struct ete_mmio_io_ops - 32/64-bit accessors under the MMIO backend
 * @read32: read the word at byte offset @off of the 4KB view
 * @write32: write the word at byte offset @off
 * @read64: doubleword-aligned 64-bit read of a 64-bit register (RVQWLY)
 * @write64: doubleword-aligned 64-bit write of a 64-bit register
 *
 * The MMIO backend is written against this seam.  Production uses an
 * ioremap()ed window with readl_relaxed() and friends; tests plug in the
 * model's external-debug view here.
 */
struct ete_mmio_io_ops {
	u32 (*read32)(void *ctx, u32 off);
	void (*write32)(void *ctx, u32 off, u32 val);
	u64 (*read64)(void *ctx, u32 off);
	void (*write64)(void *ctx, u32 off, u64 val);
};

/**
 * struct ete_access_override - a test double standing in for the hardware
 * @owner: the module providing it
 * @sysreg: ops answering every system-register access (trace unit, TRBE,
 *	TRFCR, OS Lock, MIDR, ID_AA64DFR0) on every CPU, in place of MRS/MSR
 * @sysreg_priv: stored in &struct ete_access.priv of system-register handles
 * @mmio_lookup: return the accessors (and @ctx) for an external-debug view
 *	at physical address @base if the double claims it, else NULL
 *
 * Only tests register one.  Production modules never reference the model:
 * the model calls in here, as tools/testing/nvdimm wraps ioremap.
 */
struct ete_access_override {
	struct module *owner;
	const struct ete_access_ops *sysreg;
	void *sysreg_priv;
	const struct ete_mmio_io_ops *(*mmio_lookup)(phys_addr_t base,
						     void **ctx);
};

int ete_access_override_register(const struct ete_access_override *ov);
void ete_access_override_unregister(const struct ete_access_override *ov);

#endif /* _ETE_ACCESS_H */
