// SPDX-License-Identifier: GPL-2.0
/*
 * Power in the model: what a power-down loses and whether the driver put
 * it back.
 *
 * ete_model_power_down() wipes the unit (ops.c); just before, the unit's
 * registers are kept here.  When the OS Lock is next cleared (the end of a
 * restore: the unit is enabled again, RVBMLV), every register the driver
 * must restore is compared with that copy: the trace unit's programmed and
 * dynamic state (counters, sequencer, single-shot status, TRCRSR), the
 * claim tags, TRFCR as it was when the OS Lock was set, and the TRBE's
 * pointers and status.  A TRBE that was enabled when the OS Lock was set
 * must be enabled again before the OS Lock is cleared (004 section 5.1).
 * Each difference counts in restore_mismatch (restore_order for the TRBE
 * order) and the first one is shown in cpuN/power.
 *
 * Called with the unit's lock held.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "model.h"
#include "debugfs.h"

/**
 * em_pm_lock_changed() - the OS Lock was set or cleared
 * @u: the unit
 * @lock: its new value
 *
 * Context: the unit's lock held.
 */
void em_pm_lock_changed(struct em_unit *u, bool lock)
{
	struct em_pm *pm = &u->pm;

	if (lock) {
		/*
		 * Locked again after a power-down that the kernel's own
		 * clear_os_lock() followed (a CPU that came online): the
		 * values of the lock before the power-down still stand.
		 */
		if (pm->relock) {
			pm->relock = false;
			return;
		}
		pm->lock_trfcr = u->trfcr;
		pm->lock_trbe_en = u->trblimitr & EM_TRBLIMITR_E;
		return;
	}
	if (pm->lock_trbe_en && !(u->trblimitr & EM_TRBLIMITR_E))
		pm->restore_order++;
	if (!pm->snap_valid)
		return;
	pm->snap_valid = false;
	pm->checks++;
	em_pm_compare(u);
}

static void em_pm_mismatch(struct em_unit *u, u32 reg, u64 want, u64 got)
{
	struct em_pm *pm = &u->pm;

	if (!pm->mismatch++) {
		pm->bad_reg = reg;
		pm->bad_want = want;
		pm->bad_got = got;
	}
}

/* Registers the driver programs: implemented, writable through its view */
static bool em_pm_checked(const struct em_unit *u, unsigned int i)
{
	const struct ete_reg_desc *d;
	unsigned int idx;

	d = em_reg_find(i * 4, &idx);
	return d && !(d->flags & (ETE_RF_RO | ETE_RF_WO)) &&
	       (d->flags & ETE_RF_SYS) && em_reg_implemented(u->prof, d, idx);
}

/**
 * em_pm_compare() - compare the restored state with the powered-down one
 * @u: the unit
 *
 * Context: the unit's lock held.
 */
void em_pm_compare(struct em_unit *u)
{
	struct em_pm *pm = &u->pm;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(u->trc); i++)
		if (em_pm_checked(u, i) && u->trc[i] != pm->trc[i])
			em_pm_mismatch(u, i * 4, pm->trc[i], u->trc[i]);
	if (u->trfcr != pm->lock_trfcr)
		em_pm_mismatch(u, ETE_TRFCR_EL1, pm->lock_trfcr, u->trfcr);
	if (!pm->lock_trbe_en)
		return;
	if ((u->trblimitr & ~EM_TRBLIMITR_E) !=
	    (pm->trb[0] & ~EM_TRBLIMITR_E))
		em_pm_mismatch(u, ETE_TRBLIMITR_EL1, pm->trb[0], u->trblimitr);
	if (u->trbptr != pm->trb[1])
		em_pm_mismatch(u, ETE_TRBPTR_EL1, pm->trb[1], u->trbptr);
	if (u->trbbaser != pm->trb[2])
		em_pm_mismatch(u, ETE_TRBBASER_EL1, pm->trb[2], u->trbbaser);
	if (u->trbsr != pm->trb[3])
		em_pm_mismatch(u, ETE_TRBSR_EL1, pm->trb[3], u->trbsr);
	if (u->trbtrg != pm->trb[4])
		em_pm_mismatch(u, ETE_TRBTRG_EL1, pm->trb[4], u->trbtrg);
}

/**
 * em_pm_snapshot() - keep what a power-down is about to lose
 * @u: the unit
 *
 * Context: the unit's lock held.
 */
void em_pm_snapshot(struct em_unit *u)
{
	struct em_pm *pm = &u->pm;

	memcpy(pm->trc, u->trc, sizeof(pm->trc));
	pm->trb[0] = u->trblimitr;
	pm->trb[1] = u->trbptr;
	pm->trb[2] = u->trbbaser;
	pm->trb[3] = u->trbsr;
	pm->trb[4] = u->trbtrg;
	/* Locked by the driver's save: compared when it is cleared */
	pm->snap_valid = u->oslk;
	if (!u->oslk)
		pm->unsaved++;
}

/* ------------------------------------------------------------------ */
/* debugfs: cpuN/power and cpuN/regs                                  */
/* ------------------------------------------------------------------ */

static int em_power_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;
	struct em_pm pm;
	unsigned long flags;

	raw_spin_lock_irqsave(&u->lock, flags);
	pm = u->pm;
	raw_spin_unlock_irqrestore(&u->lock, flags);
	seq_printf(s, "checks %lu\nmismatch %lu\nrestore_order %lu\nunsaved %lu\n",
		   pm.checks, pm.mismatch, pm.restore_order, pm.unsaved);
	if (pm.mismatch) {
		seq_puts(s, "first ");
		em_debugfs_show_reg(s, pm.bad_reg);
		seq_printf(s, " want %#llx got %#llx\n", pm.bad_want,
			   pm.bad_got);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_power);

/* Every implemented programmable register, "NAME VALUE", no side effect */
static int em_regs_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(u->trc); i++) {
		u64 val;

		if (!em_pm_checked(u, i))
			continue;
		raw_spin_lock_irqsave(&u->lock, flags);
		val = u->trc[i];
		raw_spin_unlock_irqrestore(&u->lock, flags);
		em_debugfs_show_reg(s, i * 4);
		seq_printf(s, " %#llx\n", val);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_regs);

/**
 * em_pm_debugfs_add() - a unit's power files
 * @dir: the unit's debugfs directory
 * @u: the unit
 *
 * Context: process context.
 */
void em_pm_debugfs_add(struct dentry *dir, struct em_unit *u)
{
	debugfs_create_file("power", 0444, dir, u, &em_power_fops);
	debugfs_create_file("regs", 0444, dir, u, &em_regs_fops);
}
