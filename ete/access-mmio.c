// SPDX-License-Identifier: GPL-2.0
/*
 * The CoreSight MMIO backend: the trace unit's 4KB external-debug view.
 *
 * Written against struct ete_mmio_io_ops, so the same code drives an
 * ioremap()ed window (ete_mmio_default_io) and the test double's view.
 * Registers are 32-bit words at their offsets; a 64-bit register is a
 * doubleword-aligned pair, accessed in one doubleword when the accessors
 * offer it and as two words otherwise (RVQWLY), which is only done while
 * the unit is Idle (RVNNPF).  The production accessors offer words only:
 * the debug interface sets the access size, and a CoreSight APB-AP, the
 * usual path to a trace unit's view, gives word accesses only (RCFRFW).
 * The external view needs no ISB between accesses (RDYRZC); DSB orders
 * them against other memory accesses.
 */

#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/export.h>
#include <kunit/visibility.h>

#include <ete/core.h>
#include <ete/regs.h>

#define TRCLAR_KEY		0xc5acce55U
#define TRCLSR_SLI		BIT(0)
#define TRCLSR_SLK		BIT(1)

static const struct ete_reg_desc ete_reg_descs[] = {
#define ETE_REG(name, count, stride, flags) \
	{ #name, ETE_##name, count, stride, flags },
#include <ete/regs-table.h>
#undef ETE_REG
};

/**
 * ete_reg_flags() - the ETE_RF_* flags of a register id
 * @reg: register id, any instance of an indexed register
 *
 * Context: any context.
 * Return: the flags, or 0 if @reg is not in the register table.
 */
u8 ete_reg_flags(u32 reg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ete_reg_descs); i++) {
		const struct ete_reg_desc *d = &ete_reg_descs[i];
		u32 last = d->id + (d->count - 1) * d->stride;

		if (reg < d->id || reg > last)
			continue;
		if (d->count == 1 || !((reg - d->id) % d->stride))
			return d->flags;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_reg_flags);

static u64 ete_mmio_read(const struct ete_access *acc, u32 reg)
{
	const struct ete_mmio *m = acc->priv;
	u32 lo, hi;

	if (WARN_ON_ONCE(!ETE_REG_IS_TRC(reg)))
		return 0;
	if (!(ete_reg_flags(reg) & ETE_RF_64))
		return m->io->read32(m->ctx, reg);
	if (m->io->read64)
		return m->io->read64(m->ctx, reg);
	lo = m->io->read32(m->ctx, reg);
	hi = m->io->read32(m->ctx, reg + 4);
	return (u64)hi << 32 | lo;
}

static void ete_mmio_write(const struct ete_access *acc, u32 reg, u64 val)
{
	const struct ete_mmio *m = acc->priv;

	if (WARN_ON_ONCE(!ETE_REG_IS_TRC(reg)))
		return;
	if (!(ete_reg_flags(reg) & ETE_RF_64)) {
		m->io->write32(m->ctx, reg, val);
	} else if (m->io->write64) {
		m->io->write64(m->ctx, reg, val);
	} else {
		m->io->write32(m->ctx, reg, lower_32_bits(val));
		m->io->write32(m->ctx, reg + 4, upper_32_bits(val));
	}
}

static void ete_mmio_sync(const struct ete_access *acc, enum ete_sync what)
{
	/* External accesses need no context synchronization (RDYRZC) */
	if (what == ETE_SYNC_DSB)
		mb();	/* order the relaxed accessors against memory */
}

const struct ete_access_ops ete_mmio_ops = {
	.read = ete_mmio_read,
	.write = ete_mmio_write,
	.sync = ete_mmio_sync,
};
EXPORT_SYMBOL_IF_KUNIT(ete_mmio_ops);

/**
 * ete_mmio_init() - make an MMIO handle
 * @m: backend state, owned by the caller for the handle's life
 * @io: accessors
 * @ctx: their context
 * @cpu: the PE whose trace unit the view belongs to
 * @acc: filled; not local: any CPU may use it
 *
 * Makes no access: the caller may run anywhere, and the unit's core may be
 * off (an external abort).  Whether the software lock is implemented is
 * learnt at the first ete_mmio_unlock(), on the unit's CPU.
 *
 * Context: process context.
 */
void ete_mmio_init(struct ete_mmio *m, const struct ete_mmio_io_ops *io,
		   void *ctx, int cpu, struct ete_access *acc)
{
	m->io = io;
	m->ctx = ctx;
	m->sw_lock = false;
	acc->ops = &ete_mmio_ops;
	acc->priv = m;
	acc->cpu = cpu;
	acc->local = false;
}
EXPORT_SYMBOL_IF_KUNIT(ete_mmio_init);

/**
 * ete_mmio_unlock() - clear the CoreSight software lock if it is set
 * @acc: an MMIO handle
 *
 * Reads TRCLSR, and notes whether the lock is implemented (SLI) for
 * ete_mmio_lock().
 *
 * Context: any context, on a CPU that keeps the unit's core powered (its
 * own).
 */
void ete_mmio_unlock(const struct ete_access *acc)
{
	struct ete_mmio *m = acc->priv;
	u32 lsr = m->io->read32(m->ctx, ETE_TRCLSR);

	if (!(lsr & TRCLSR_SLI))
		return;
	WRITE_ONCE(m->sw_lock, true);
	if (lsr & TRCLSR_SLK)
		m->io->write32(m->ctx, ETE_TRCLAR, TRCLAR_KEY);
}
EXPORT_SYMBOL_IF_KUNIT(ete_mmio_unlock);

/**
 * ete_access_unlock() - open the software lock of an MMIO handle, if any
 * @acc: any access handle
 *
 * The CoreSight software lock resets locked (TRCLSR 0x3, seed 002), and a
 * core power-down resets the trace unit: after one, the external view
 * ignores writes until TRCLAR gets the key again.  So a session's enable
 * and a restore open it before writing.  System-register handles have no
 * such lock.
 *
 * Context: any context; for an MMIO handle, on a CPU that keeps the
 * unit's core powered (its own).
 */
void ete_access_unlock(const struct ete_access *acc)
{
	if (acc->ops == &ete_mmio_ops)
		ete_mmio_unlock(acc);
}

/**
 * ete_mmio_lock() - set the CoreSight software lock again
 * @acc: an MMIO handle
 *
 * Only if an ete_mmio_unlock() found it implemented; otherwise no access.
 *
 * Context: any context, on a CPU that keeps the unit's core powered (its
 * own).
 */
void ete_mmio_lock(const struct ete_access *acc)
{
	const struct ete_mmio *m = acc->priv;

	if (READ_ONCE(m->sw_lock))
		m->io->write32(m->ctx, ETE_TRCLAR, 0);
}
EXPORT_SYMBOL_IF_KUNIT(ete_mmio_lock);

/* Production accessors: @ctx is the ioremap()ed base */
static u32 ete_io_read32(void *ctx, u32 off)
{
	return readl_relaxed((void __iomem __force *)ctx + off);
}

static void ete_io_write32(void *ctx, u32 off, u32 val)
{
	writel_relaxed(val, (void __iomem __force *)ctx + off);
}

/* No read64/write64: word accesses only, which every interface gives */
const struct ete_mmio_io_ops ete_mmio_default_io = {
	.read32 = ete_io_read32,
	.write32 = ete_io_write32,
};
EXPORT_SYMBOL_IF_KUNIT(ete_mmio_default_io);
