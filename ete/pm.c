// SPDX-License-Identifier: GPL-2.0
/*
 * Power management of trace sessions: a CPU going into a power-down idle
 * state (CPU PM notifier), going offline and online (cpuhp), and system
 * suspend (the boot CPU through the kernel's own cpu_pm syscore hook, the
 * others through hotplug).  See Documentation/design-power.rst.
 *
 * Save, on the unit's CPU with IRQs off (D.13 of the requirements):
 *   set the PE OS Lock, ISB (RTMLTF, IHWYYK: the unit is
 *   disabled; SHSXGZ: a context synchronization event before TRCSTATR);
 *   poll until Stable and Idle (bounded; ITDLZL: the state is safe to read
 *   there, RBPTKT: resources no longer change); ISB again, taken in Idle
 *   (RWZQWC: only then do direct reads see what the unit itself wrote;
 *   the poll's last ISB may have been taken while Unstable); read the
 *   registers of the session's image the unit can change while it
 *   traces (ete_pm_dynamic(): TRCRSR, INXCSB, IHZLDV; and of the
 *   resources the configuration references, TRCCNTVR<n>, TRCSEQSTR,
 *   TRCSSCSR<n>, TRCVICTLR.SSSTATUS; the rest of the image is what the
 *   driver wrote); then the sink saves itself (drain, TRBPTR, disable:
 *   the TRBE goes down after the unit, 004 section 5.1).
 * Restore: the sink first (the TRBE is enabled before the unit); set the
 *   OS Lock (the kernel clears it when a CPU comes online: debug-monitors'
 *   clear_os_lock()); wait for Idle (a powered-up unit is reset and Idle,
 *   RPTZDH); write the session's claim tag, the image's registers (only
 *   those the configuration references, ete_config_live(): the unit
 *   never looks at the others, whatever a reset left in them) with the
 *   saved dynamic state, EN = 1 and the
 *   session's TRFCR as the sink wants it (ete_sink_trfcr(): prohibited
 *   while a TRBE waits for room, I.12(2)), ISB; clear the OS Lock, ISB:
 *   the unit is enabled again (RVBMLV) and starts with a new trace stream
 *   (A-Sync, Trace Info: RRDPSW).
 *
 * A save that times out leaves the unit disabled, never enabled again
 * outside Idle or Running (RMDZDN); an OS Lock another agent holds is
 * neither set nor cleared (ete_pm_save_local()).
 *
 * Units reached through the external (MMIO) view are disabled with
 * TRCPRGCTLR.EN instead: with the OS Lock locked, external accesses to
 * the trace registers are CONSTRAINED UNPREDICTABLE (RYSHRS, B.7).
 *
 * Nothing here sleeps, allocates or takes a lock: the state is per unit,
 * and each path runs on the unit's CPU with IRQs off (the CPU PM
 * notifier, a cross-call from a hotplug callback) where session start
 * and stop (cross-calls too) cannot interleave.  A CPU without a running
 * session costs no register access.
 */

#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/smp.h>
#include <kunit/visibility.h>

#include <ete/core.h>
#include <ete/task.h>

#define OSLAR_OSLK			BIT(0)
#define TRCPRGCTLR_EN			BIT(0)
#define TRCSTATR_IDLE			BIT(0)
#define TRCSTATR_PMSTABLE		BIT(1)
#define ETE_CLAIM_SELF			BIT(1)

#define TRCSSCSR_STATUS			BIT(31)
#define TRCSSCSR_PENDING		BIT(30)

/**
 * ete_pm_restore_value() - the value to write back for a saved register
 * @reg: register id
 * @val: the value read at the save
 *
 * A saved value may hold read-only fields, which are not written back:
 * TRCSSCSR<n> keeps only STATUS and PENDING (INST, DA, DV describe the
 * comparator).
 *
 * Context: any context; pure.
 * Return: the value to write.
 */
u64 ete_pm_restore_value(u32 reg, u64 val)
{
	if (reg >= ETE_TRCSSCSR_N(0) && reg <= ETE_TRCSSCSR_N(7))
		return val & (TRCSSCSR_STATUS | TRCSSCSR_PENDING);
	return val;
}
EXPORT_SYMBOL_IF_KUNIT(ete_pm_restore_value);

/**
 * ete_pm_dynamic() - whether the unit can change a register of an image
 * @img: the session's image
 * @reg: register id, one of @img's
 *
 * What a save must read back (the fields RBPTKT lists, which the unit
 * changes by indirect writes while it traces): the counters
 * (TRCCNTVR<n>), the sequencer state (TRCSEQSTR), the single-shot status
 * (TRCSSCSR<n>), TRCRSR (TA, and EVENT and EXTIN: INXCSB, IHZLDV), and
 * the ViewInst start/stop status (TRCVICTLR.SSSTATUS) when start/stop
 * points exist: without them nothing changes SSSTATUS.  The image holds
 * only the resources the configuration references (ete_config_live()),
 * so a counter, the sequencer or a single-shot control nothing uses is
 * neither read nor written.  Every other register of the image holds
 * what the driver wrote at the start, which the restore writes again.
 *
 * Context: any context; pure.
 * Return: true if @reg is read at a save.
 */
bool ete_pm_dynamic(const struct ete_image *img, u32 reg)
{
	if (reg == ETE_TRCVICTLR)
		return img->live.startstop;
	return reg == ETE_TRCSEQSTR || reg == ETE_TRCRSR ||
	       (reg >= ETE_TRCCNTVR_N(0) &&
		reg <= ETE_TRCCNTVR_N(ETE_MAX_CNTR - 1)) ||
	       (reg >= ETE_TRCSSCSR_N(0) &&
		reg <= ETE_TRCSSCSR_N(ETE_MAX_SS - 1));
}
EXPORT_SYMBOL_IF_KUNIT(ete_pm_dynamic);

/* Disable the unit for a save: the OS Lock, or EN for an external view */
static void ete_pm_disable(struct ete_unit *u)
{
	if (u->acc.local) {
		ete_write(&u->pe, ETE_OSLAR_EL1, OSLAR_OSLK);
		ete_sync(&u->pe, ETE_SYNC_ISB);
	} else {
		ete_write(&u->acc, ETE_TRCPRGCTLR, 0);
	}
}

/* Enable it again: RVBMLV, enabled when EN is 1 and the OS Lock clear */
static void ete_pm_enable(struct ete_unit *u)
{
	if (u->acc.local) {
		ete_write(&u->pe, ETE_OSLAR_EL1, 0);
		ete_sync(&u->pe, ETE_SYNC_ISB);
	} else {
		ete_write(&u->acc, ETE_TRCPRGCTLR, TRCPRGCTLR_EN);
	}
}

/**
 * ete_pm_save_local() - save a running unit and its sink before power-down
 * @u: the unit
 *
 * Does nothing (no register access) unless a session runs on @u and it
 * is not saved yet.  An OS Lock another agent locked is left to it: the
 * unit is disabled already (RVBMLV), and the restore leaves it locked.
 *
 * On timeout the power-down must not happen, and the unit is left
 * disabled: EN or the OS Lock may change only in Idle or Running (RMDZDN;
 * clearing the OS Lock with EN set enables the unit, RVBMLV), and it is
 * in neither.  The session's error work then stops this CPU; the OS Lock
 * the save set is cleared once the unit is Idle (&ete_unit.oslk_held).
 *
 * Context: on @u->cpu with IRQs disabled; does not sleep.
 * Return: 0, or -ETIMEDOUT if the unit did not become Stable and Idle.
 */
int ete_pm_save_local(struct ete_unit *u)
{
	struct ete_pm_state *s = &u->pm;
	unsigned int i;
	int ret;

	if (!u->enabled || s->saved)
		return 0;
	/* no switch writes TRFCR until the restore (task mode) */
	ete_task_pause_local(u);
	s->foreign_lock = u->acc.local && ete_unit_os_locked(u);
	if (!s->foreign_lock)
		ete_pm_disable(u);
	ret = ete_unit_poll_statr(u, TRCSTATR_IDLE | TRCSTATR_PMSTABLE,
				  TRCSTATR_IDLE | TRCSTATR_PMSTABLE);
	if (ret) {
		u->oslk_held = u->acc.local && !s->foreign_lock;
		ete_session_cpu_error(u->cpu, ret);
		return ret;
	}
	/*
	 * RWZQWC: what the unit wrote itself (counters, sequencer,
	 * single-shot status) reaches a direct read only after a context
	 * synchronization event taken while Idle or Stable.  The poll's
	 * last ISB came before the read that saw Idle, maybe while Unstable.
	 */
	ete_sync(&u->acc, ETE_SYNC_ISB);
	for (i = 0; i < u->img.nr; i++) {
		u32 reg = u->img.regs[i].reg;

		s->val[i] = ete_pm_dynamic(&u->img, reg) ?
			    ete_read(&u->acc, reg) : u->img.regs[i].val;
	}
	if (u->sink->save_local)
		u->sink->save_local(u->sink_priv, u->cpu);
	s->saved = true;
	s->saves++;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_pm_save_local);

/**
 * ete_pm_restore_local() - restore a saved unit and its sink
 * @u: the unit
 *
 * Does nothing (no register access) unless @u was saved.  The saved state
 * is consumed even on failure; the session's error work then stops the
 * CPU.
 *
 * Context: on @u->cpu with IRQs disabled; does not sleep.
 * Return: 0, or -ETIMEDOUT if the unit was not Idle before programming or
 * did not leave Idle after.
 */
int ete_pm_restore_local(struct ete_unit *u)
{
	struct ete_pm_state *s = &u->pm;
	unsigned int i;
	int ret;

	if (!s->saved)
		return 0;
	s->saved = false;
	s->restores++;
	if (u->sink->restore_local)
		u->sink->restore_local(u->sink_priv, u->cpu);
	/* the power-down locked the external view's writes again */
	ete_access_unlock(&u->acc);
	ete_pm_disable(u);
	ret = ete_unit_poll_statr(u, TRCSTATR_IDLE | TRCSTATR_PMSTABLE,
				  TRCSTATR_IDLE | TRCSTATR_PMSTABLE);
	if (ret)
		goto fail;
	/* Idle and disabled: every register may be written (RRWYQD) */
	/* the claim a running session holds (ete_unit_enable_local()) */
	ete_write(&u->acc, ETE_TRCCLAIMSET, ETE_CLAIM_SELF);
	for (i = 0; i < u->img.nr; i++)
		ete_write(&u->acc, u->img.regs[i].reg,
			  ete_pm_restore_value(u->img.regs[i].reg, s->val[i]));
	if (u->acc.local)
		ete_write(&u->acc, ETE_TRCPRGCTLR, TRCPRGCTLR_EN);
	/* the power-down the restore makes good: not a loss at the stop */
	ete_unit_sticky_pd(u);
	ete_sync(&u->acc, ETE_SYNC_ISB);
	if (u->has_trf) {
		u64 trfcr = ete_task_trfcr_local(u, u->img.trfcr);

		ete_write(&u->pe, ETE_TRFCR_EL1, ete_sink_trfcr(u, trfcr));
		ete_sync(&u->pe, ETE_SYNC_ISB);
	}
	/* Its owner's to clear: the unit runs once it does (RVBMLV) */
	if (s->foreign_lock)
		return 0;
	ete_pm_enable(u);
	ret = ete_unit_poll_statr(u, TRCSTATR_IDLE, 0);
	if (!ret)
		return 0;
fail:
	ete_session_cpu_error(u->cpu, ret);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ete_pm_restore_local);

/* ------------------------------------------------------------------------
 * CPU PM: idle states that lose the trace unit's and the TRBE's state
 */

static int ete_pm_cpu_pm_notify(struct notifier_block *nb, unsigned long cmd,
				void *v)
{
	struct ete_unit *u = ete_unit_of(smp_processor_id());

	if (!u || (!READ_ONCE(u->enabled)))
		return NOTIFY_OK;
	switch (cmd) {
	case CPU_PM_ENTER:
		return ete_pm_save_local(u) ? NOTIFY_BAD : NOTIFY_OK;
	case CPU_PM_ENTER_FAILED:
	case CPU_PM_EXIT:
		ete_pm_restore_local(u);
		return NOTIFY_OK;
	default:
		return NOTIFY_DONE;
	}
}

/* Exported for the test module that drives it as the notifier chain would */
struct notifier_block ete_pm_cpu_pm_nb = {
	.notifier_call = ete_pm_cpu_pm_notify,
};
EXPORT_SYMBOL_IF_KUNIT(ete_pm_cpu_pm_nb);

/* ------------------------------------------------------------------------
 * CPU hotplug
 *
 * The callbacks run on the CPU (an AP state), under the CPU hotplug lock,
 * which session start and stop take for reading: they take no mutex.
 * They drive the sink themselves (sink saved after the unit, restored
 * before it), so the order of ete.ko's and trbe.ko's hotplug states does
 * not matter: trbe.ko's own callbacks leave a TRBE in a session alone.
 */

static enum cpuhp_state ete_pm_hp_state;

struct ete_pm_op {
	struct ete_unit *u;
	int ret;
};

static void ete_pm_save_one(void *data)
{
	struct ete_pm_op *op = data;

	op->ret = ete_pm_save_local(op->u);
}

static void ete_pm_restore_one(void *data)
{
	struct ete_pm_op *op = data;

	op->ret = ete_pm_restore_local(op->u);
}

/*
 * The save timed out and the CPU goes anyway: disable the unit as far as
 * it goes (the OS Lock the save set stays while it is not Idle) and stop
 * the sink, so that nothing of the session (the sink's armed buffer, its
 * timers pinned to this CPU) outlives the CPU.
 */
static void ete_pm_abandon_one(void *data)
{
	struct ete_pm_op *op = data;
	const char *msg;

	ete_unit_disable_local(op->u, &msg);
	op->u->sink->stop_local(op->u->sink_priv, op->u->cpu);
}

static int ete_pm_cpu_offline(unsigned int cpu)
{
	struct ete_pm_op op = { .u = ete_unit_of_hotplug(cpu) };

	if (!op.u || !op.u->enabled)
		return 0;
	smp_call_function_single(cpu, ete_pm_save_one, &op, 1);
	if (!op.ret)
		return 0;
	/*
	 * The CPU goes anyway; the save reported the error, and the
	 * session's work takes the CPU out of the session.
	 */
	smp_call_function_single(cpu, ete_pm_abandon_one, &op, 1);
	return 0;
}

static int ete_pm_cpu_online(unsigned int cpu)
{
	struct ete_pm_op op = { .u = ete_unit_of_hotplug(cpu) };

	if (!op.u)
		return 0;
	/* the kernel cleared the OS Lock (clear_os_lock()), the unit is reset */
	op.u->oslk_held = false;
	if (!op.u->pm.saved)
		return 0;
	smp_call_function_single(cpu, ete_pm_restore_one, &op, 1);
	return 0;
}

/**
 * ete_pm_init() - register the CPU PM notifier and the hotplug state
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int ete_pm_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"hwtracing/ete:online",
					ete_pm_cpu_online, ete_pm_cpu_offline);
	if (ret < 0)
		return ret;
	ete_pm_hp_state = ret;
	ret = cpu_pm_register_notifier(&ete_pm_cpu_pm_nb);
	if (ret)
		cpuhp_remove_state_nocalls(ete_pm_hp_state);
	return ret;
}

/**
 * ete_pm_exit() - undo ete_pm_init()
 *
 * Context: module exit, after every unit is gone.
 */
void ete_pm_exit(void)
{
	cpu_pm_unregister_notifier(&ete_pm_cpu_pm_nb);
	cpuhp_remove_state_nocalls(ete_pm_hp_state);
}
