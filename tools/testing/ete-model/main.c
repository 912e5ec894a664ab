// SPDX-License-Identifier: GPL-2.0
/*
 * ete_model.ko: the test double of the ETE trace unit and TRBE.  Creates
 * the model instance that stands in for the hardware of every CPU, registers
 * it with ete.ko as the register-access override, and runs each unit's
 * timer and TRBE interrupt on its own CPU.
 */

#include <linux/acpi.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/delay.h>
#include <linux/sizes.h>
#include <asm/sysreg.h>

#include <ete/compat.h>

#include "model.h"
#include "debugfs.h"

static char *em_profile_name = "rich";
module_param_named(profile, em_profile_name, charp, 0444);
MODULE_PARM_DESC(profile, "implementation profile: rich or minimal");

static unsigned long em_mmio_base = 0x0f000000;
module_param_named(mmio_base, em_mmio_base, ulong, 0444);
MODULE_PARM_DESC(mmio_base,
		 "physical address of CPU 0's external-debug view; CPU n at +4KB*n");

static unsigned long em_midr;
module_param_named(midr, em_midr, ulong, 0444);
MODULE_PARM_DESC(midr, "MIDR_EL1 to report (to switch errata on), 0: the PE's own");

static unsigned long em_midr_cpus = ~0UL;
module_param_named(midr_cpus, em_midr_cpus, ulong, 0444);
MODULE_PARM_DESC(midr_cpus, "CPUs reporting midr (bit n: CPU n), default all");

static unsigned int em_rate = 64;
module_param_named(rate, em_rate, uint, 0444);
MODULE_PARM_DESC(rate, "trace bytes per millisecond while Running");

static struct ete_model *em_global;

/* ------------------------------------------------------------------ */
/* The TRBE interrupt and the per-CPU timer                           */
/* ------------------------------------------------------------------ */

/* Runs on the unit's CPU: the GIC pends the PPI of the calling CPU */
static void em_raise_irq(struct em_unit *u)
{
	int virq = u->model->virq;

	/* debugfs irq_hold: the event stays in TRBSR, the PPI low */
	if (READ_ONCE(u->irq_hold))
		return;
	if (virq && smp_processor_id() == u->cpu &&
	    !irq_set_irqchip_state(virq, IRQCHIP_STATE_PENDING, true))
		WRITE_ONCE(u->ppi_raised, true);
}

/* Is the PPI pending on this CPU (raised and not yet taken)? */
static bool em_ppi_pending(struct em_unit *u)
{
	int virq = u->model->virq;
	bool pending = true;

	if (virq && smp_processor_id() == u->cpu &&
	    irq_get_irqchip_state(virq, IRQCHIP_STATE_PENDING, &pending))
		pending = true;
	return pending;
}

/*
 * Ticks whose trace a late timer still produces.  A trace unit produces
 * what the PE executes, and a PE held up (here: a vCPU the host did not
 * run) executes nothing, so missed ticks are not made up in full.  Without
 * this bound, a rate the emulated CPU cannot generate in real time made
 * every late tick longer than the last, in hard-IRQ context, until the
 * CPU never left the handler (soft lockups with four CPUs streaming).
 */
#define EM_MAX_CATCHUP_TICKS	2
/* and no tick generates for longer than a quarter of its period */
#define EM_TICK_MAX_NS		(NSEC_PER_MSEC / 4)

/*
 * One tick's generation, counted for the task it interrupted when
 * cid_ticks tracks: a tick that made trace ran while trace was allowed,
 * so its task is one the driver let through (task mode, issue 34).  The
 * context ID is the PE's (CONTEXTIDR_EL1, which the kernel sets to the
 * PID at each switch; under VHE the EL2 register both accesses reach),
 * and the trace carries it too: a decoder sees whose trace it is.
 */
static void em_gen_run_tracked(struct em_unit *u, unsigned int budget,
			       u64 cycles)
{
	u64 before = u->gen.emitted + u->gen.replay_pos;
	unsigned int i;
	u32 cid = 0;

	if (u->cid_track && smp_processor_id() == u->cpu) {
		cid = read_sysreg(contextidr_el1);
		em_gen_context(u, cid);
	}
	em_gen_run(u, budget, cycles, EM_TICK_MAX_NS);
	if (!u->cid_track || u->gen.emitted + u->gen.replay_pos == before)
		return;
	for (i = 0; i < u->cid_n; i++)
		if (u->cid[i].cid == cid)
			break;
	if (i == u->cid_n) {
		if (i == ARRAY_SIZE(u->cid)) {
			u->cid_lost++;
			return;
		}
		u->cid[u->cid_n++].cid = cid;
	}
	u->cid[i].ticks++;
}

static enum hrtimer_restart em_timer_fn(struct hrtimer *t)
{
	struct em_unit *u = container_of(t, struct em_unit, timer);
	u64 periods = hrtimer_forward_now(t, ms_to_ktime(1));
	bool raise, more;
	u64 t0;

	/* before the unit's lock: the GIC's state is read under its own */
	bool pending = em_ppi_pending(u);

	periods = min_t(u64, periods, EM_MAX_CATCHUP_TICKS);

	raw_spin_lock(&u->lock);
	/*
	 * A level-sensitive line: the PPI was taken since the model raised
	 * it, no new event came, and TRBSR_EL1.IRQ is still set.  The
	 * handler returned with the line asserted; silicon would take it
	 * again at once, for ever.  Counted here, and raised again below
	 * once per tick, so that a test sees it without a livelock.
	 */
	if (u->ppi_raised && !pending && !u->irq_req &&
	    (u->trbsr & EM_TRBSR_IRQ))
		u->irq_left_set++;
	if (!u->irq_req && (u->trbsr & EM_TRBSR_IRQ))
		u->irq_relatch++;
	t0 = ktime_get_ns();
	/* last tick's newest bytes on, this tick's newest held back */
	em_fifo_drain(u, EM_FIFO_SIZE);
	u->fifo_hold = EM_FIFO_HOLD;
	em_gen_run_tracked(u, u->rate * periods,
			   (u64)READ_ONCE(u->cycles_tick) * periods);
	em_fifo_drain(u, EM_FIFO_SIZE);
	u->fifo_hold = 0;
	u->tick_ns += ktime_get_ns() - t0;
	/* a pending bit is a latch: pend again while TRBSR_EL1.IRQ is set */
	raise = u->irq_req || (u->trbsr & EM_TRBSR_IRQ);
	u->irq_req = false;
	more = (u->state == EM_RUNNING || (u->trbsr & EM_TRBSR_IRQ)) &&
	       smp_processor_id() == u->cpu;
	if (!more)
		u->timer_on = false;
	raw_spin_unlock(&u->lock);
	if (raise)
		em_raise_irq(u);
	return more ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/* IPI on the unit's CPU (or a direct call there), interrupts disabled */
static void em_kick_fn(void *info)
{
	struct em_unit *u = info;
	bool raise, start;

	raw_spin_lock(&u->lock);
	raise = u->irq_req;
	u->irq_req = false;
	start = u->model->autotick && !u->timer_on && !u->dying &&
		(u->state == EM_RUNNING || (u->trbsr & EM_TRBSR_IRQ));
	if (start)
		u->timer_on = true;
	raw_spin_unlock(&u->lock);
	atomic_set_release(&u->kick_busy, 0);
	if (raise)
		em_raise_irq(u);
	if (start)
		hrtimer_start(&u->timer, ms_to_ktime(1),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * em_unit_kick() - get the unit's CPU to raise the IRQ or start the timer
 * @u: the unit
 *
 * Context: any; the unit's lock not held.
 */
void em_unit_kick(struct em_unit *u)
{
	struct ete_model *m = u->model;
	bool need;

	if (!m->autotick && !m->virq) {
		WRITE_ONCE(u->irq_req, false);
		return;
	}
	need = READ_ONCE(u->irq_req) ||
	       (m->autotick && !READ_ONCE(u->timer_on) &&
		READ_ONCE(u->state) == EM_RUNNING);
	if (!need || READ_ONCE(u->dying) || !cpu_online(u->cpu))
		return;
	/* one kick in flight at a time; a pending one will see the state */
	if (atomic_cmpxchg(&u->kick_busy, 0, 1))
		return;
	if (smp_call_function_single_async(u->cpu, &u->csd))
		atomic_set(&u->kick_busy, 0);
}

/**
 * em_unit_init_deferred() - set up the unit's timer and cross-CPU kick
 * @u: the unit
 *
 * Context: process context.
 */
void em_unit_init_deferred(struct em_unit *u)
{
	ete_compat_hrtimer_setup(&u->timer, em_timer_fn, CLOCK_MONOTONIC,
				 HRTIMER_MODE_REL_PINNED_HARD);
	INIT_CSD(&u->csd, em_kick_fn, u);
	atomic_set(&u->kick_busy, 0);
}

/**
 * em_unit_stop_deferred() - stop the unit's timer and wait for its kick
 * @u: the unit
 *
 * Context: process context; may sleep.
 */
void em_unit_stop_deferred(struct em_unit *u)
{
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&u->lock, flags);
	u->dying = true;
	raw_spin_unlock_irqrestore(&u->lock, flags);
	for (i = 0; i < 1000 && atomic_read_acquire(&u->kick_busy); i++)
		usleep_range(100, 200);
	WARN_ON_ONCE(atomic_read(&u->kick_busy));
	hrtimer_cancel(&u->timer);
}

/**
 * ete_model_set_irq() - let an instance raise a TRBE interrupt
 * @m: the instance
 * @virq: Linux IRQ number of the PPI, 0 for none
 * @autotick: generate trace from the units' own per-CPU timers
 *
 * Context: process context, before the instance is used.
 */
void ete_model_set_irq(struct ete_model *m, int virq, bool autotick)
{
	m->virq = virq;
	m->autotick = autotick;
}
EXPORT_SYMBOL_GPL(ete_model_set_irq);

/*
 * Under ACPI the TRBE PPI is in the MADT's GICC entries (ACPI 6.5: bytes
 * 82-83 of an 84-byte entry).  The model loads before trbe.ko, whose
 * trbe/madt.c is the checked parser, so it reads the first enabled entry's
 * field itself, each subtable bounded by its length, and maps the GSI.
 */
static int em_trbe_acpi_virq(void)
{
	struct acpi_table_header *t;
	u32 off = sizeof(struct acpi_table_madt);
	u16 gsiv = 0;
	int virq;
	u8 *p;

	if (ACPI_FAILURE(acpi_get_table(ACPI_SIG_MADT, 0, &t)))
		return 0;
	p = (u8 *)t;
	while (off + 2 <= t->length && p[off + 1] >= 2 &&
	       p[off + 1] <= t->length - off) {
		if (p[off] == ACPI_MADT_TYPE_GENERIC_INTERRUPT &&
		    p[off + 1] >= 84 &&
		    (get_unaligned_le32(p + off + 12) & ACPI_MADT_ENABLED)) {
			gsiv = get_unaligned_le16(p + off + 82);
			break;
		}
		off += p[off + 1];
	}
	acpi_put_table(t);
	if (!gsiv)
		return 0;
	virq = acpi_register_gsi(NULL, gsiv, ACPI_LEVEL_SENSITIVE,
				 ACPI_ACTIVE_HIGH);
	return virq > 0 ? virq : 0;
}

/**
 * ete_model_trbe_virq() - the TRBE PPI the firmware describes, mapped
 *
 * Finds the node compatible with "arm,trace-buffer-extension", or under
 * ACPI the TRBE interrupt of the MADT.
 *
 * Context: process context.
 * Return: the Linux IRQ number, or 0 if there is none.
 */
int ete_model_trbe_virq(void)
{
	struct device_node *np;
	int virq;

	if (!acpi_disabled)
		return em_trbe_acpi_virq();
	np = of_find_compatible_node(NULL, NULL, "arm,trace-buffer-extension");
	if (!np)
		return 0;
	virq = irq_of_parse_and_map(np, 0);
	of_node_put(np);
	return virq;
}
EXPORT_SYMBOL_GPL(ete_model_trbe_virq);

/* ------------------------------------------------------------------ */
/* Power-down through CPU PM                                          */
/* ------------------------------------------------------------------ */

/**
 * ete_model_cpu_pm() - the model's part of a CPU PM event on this CPU
 * @cmd: CPU_PM_ENTER, CPU_PM_EXIT...
 *
 * At CPU_PM_EXIT, a unit whose powerdown file is 1 loses its state.  The
 * model's notifier calls this first in the chain; a test that drives a
 * driver's notifier callback by hand calls it where the chain would.
 *
 * Context: on the CPU, IRQs disabled.
 */
void ete_model_cpu_pm(unsigned long cmd)
{
	struct em_unit *u = em_global->units[smp_processor_id()];

	/* runs before the drivers' notifiers: the state is lost first */
	if (cmd == CPU_PM_EXIT && READ_ONCE(u->pd_armed)) {
		WRITE_ONCE(u->pd_armed, false);
		ete_model_power_down(em_global, u->cpu);
	}
	u->pm_mark_accesses = u->reads + u->writes;
	u->pm_mark_polls = u->status_reads;
}
EXPORT_SYMBOL_GPL(ete_model_cpu_pm);

/**
 * ete_model_cpu_pm_done() - the drivers' notifiers for @cmd have run
 * @cmd: CPU_PM_ENTER, CPU_PM_EXIT...
 *
 * Records the register accesses and status polls made on this CPU's unit
 * since ete_model_cpu_pm(): the stats file's last_save and last_restore.
 * Only a test that drives the notifiers by hand knows where they end.
 *
 * Context: on the CPU, IRQs disabled, after ete_model_cpu_pm(@cmd).
 */
void ete_model_cpu_pm_done(unsigned long cmd)
{
	struct em_unit *u = em_global->units[smp_processor_id()];
	unsigned long a = u->reads + u->writes - u->pm_mark_accesses;
	unsigned long p = u->status_reads - u->pm_mark_polls;

	if (cmd == CPU_PM_ENTER) {
		WRITE_ONCE(u->last_save[0], a);
		WRITE_ONCE(u->last_save[1], p);
	} else if (cmd == CPU_PM_EXIT) {
		WRITE_ONCE(u->last_restore[0], a);
		WRITE_ONCE(u->last_restore[1], p);
	}
}
EXPORT_SYMBOL_GPL(ete_model_cpu_pm_done);

static int em_cpu_pm_notify(struct notifier_block *nb, unsigned long cmd,
			    void *v)
{
	ete_model_cpu_pm(cmd);
	return NOTIFY_OK;
}

static struct notifier_block em_cpu_pm_nb = {
	.notifier_call = em_cpu_pm_notify,
	.priority = INT_MAX,
};

/* ------------------------------------------------------------------ */
/* CPU hotplug: CPU_OFF powers the core down, the kernel boots it      */
/* ------------------------------------------------------------------ */

static enum cpuhp_state em_hp_state;

/* Before the CPU runs: the kernel's clear_os_lock() (ops.c) */
static int em_cpu_up_prepare(unsigned int cpu)
{
	ete_model_cpu_on(em_global, cpu);
	return 0;
}

/* After the CPU died: its power domain is off */
static int em_cpu_dead(unsigned int cpu)
{
	ete_model_cpu_off(em_global, cpu);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The override                                                       */
/* ------------------------------------------------------------------ */

static const struct ete_mmio_io_ops *em_mmio_lookup(phys_addr_t base,
						    void **ctx)
{
	unsigned long cpu;

	if (base < em_mmio_base || (base - em_mmio_base) % SZ_4K)
		return NULL;
	cpu = (base - em_mmio_base) / SZ_4K;
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return NULL;
	*ctx = em_global->units[cpu];
	return &ete_model_mmio_ops;
}

static struct ete_access_override em_override = {
	.owner = THIS_MODULE,
	.sysreg = &ete_model_sysreg_ops,
	.mmio_lookup = em_mmio_lookup,
};

static int __init em_init(void)
{
	int cpu, ret;

	em_global = ete_model_create(em_profile_name);
	if (!em_global)
		return -EINVAL;
	for_each_possible_cpu(cpu) {
		em_global->units[cpu]->rate = em_rate;
		ret = em_gen_init(em_global->units[cpu]);
		if (ret)
			goto err_destroy;
	}
	ete_model_set_irq(em_global, ete_model_trbe_virq(), true);
	ete_model_set_midr_cpus(em_global, em_midr, em_midr_cpus);
	ret = cpu_pm_register_notifier(&em_cpu_pm_nb);
	if (ret)
		goto err_destroy;
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
					"ete_model:power", em_cpu_up_prepare,
					em_cpu_dead);
	if (ret < 0)
		goto err_cpu_pm;
	em_hp_state = ret;
	em_debugfs_init(em_global);
	em_override.sysreg_priv = em_global;
	ret = ete_access_override_register(&em_override);
	if (ret)
		goto err_debugfs;
	pr_info("ete_model: profile %s, TRBE IRQ %d, MMIO view at %#lx\n",
		em_global->prof->name, em_global->virq, em_mmio_base);
	return 0;

err_debugfs:
	em_debugfs_exit();
	cpuhp_remove_state_nocalls(em_hp_state);
err_cpu_pm:
	cpu_pm_unregister_notifier(&em_cpu_pm_nb);
err_destroy:
	ete_model_destroy(em_global);
	return ret;
}

static void __exit em_exit(void)
{
	ete_access_override_unregister(&em_override);
	em_debugfs_exit();
	cpuhp_remove_state_nocalls(em_hp_state);
	cpu_pm_unregister_notifier(&em_cpu_pm_nb);
	ete_model_destroy(em_global);
}

module_init(em_init);
module_exit(em_exit);
MODULE_DESCRIPTION("Architectural model of the ETE trace unit and TRBE, for tests");
MODULE_LICENSE("GPL");
