// SPDX-License-Identifier: GPL-2.0
/*
 * The model's register-access ops (the system-register view and the
 * external-debug MMIO view) and the instance API its tests use.
 */

#include <linux/bitfield.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "model.h"

/* ------------------------------------------------------------------ */
/* System-register view                                               */
/* ------------------------------------------------------------------ */

static struct em_unit *em_acc_unit(const struct ete_access *acc)
{
	struct ete_model *m = acc->priv;

	if (WARN_ON_ONCE(acc->cpu < 0 || acc->cpu >= nr_cpu_ids))
		return NULL;
	return m->units[acc->cpu];
}

/*
 * A system instruction reaches the PE that executes it: an access made off
 * the owning CPU, or where it could migrate, would reach another unit.
 */
static bool em_acc_local(const struct ete_access *acc)
{
	return !preemptible() && acc->cpu == raw_smp_processor_id();
}

static void em_offcpu(struct em_unit *u, bool local, u32 reg, u64 val,
		      bool write)
{
	if (!local)
		em_violation(u, EM_OFFCPU, reg, val, write);
}

static u64 em_sys_read(const struct ete_access *acc, u32 reg)
{
	struct em_unit *u = em_acc_unit(acc);
	bool local = em_acc_local(acc);
	unsigned long flags;
	u64 val;

	if (!u)
		return 0;
	raw_spin_lock_irqsave(&u->lock, flags);
	em_offcpu(u, local, reg, 0, false);
	val = em_unit_read(u, reg, false);
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_unit_kick(u);
	return val;
}

static void em_sys_write(const struct ete_access *acc, u32 reg, u64 val)
{
	struct em_unit *u = em_acc_unit(acc);
	bool local = em_acc_local(acc);
	unsigned long flags;

	if (!u)
		return;
	raw_spin_lock_irqsave(&u->lock, flags);
	em_offcpu(u, local, reg, val, true);
	em_unit_write(u, reg, val, false);
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_unit_kick(u);
}

static void em_sys_sync(const struct ete_access *acc, enum ete_sync what)
{
	struct em_unit *u = em_acc_unit(acc);
	bool local = em_acc_local(acc);
	unsigned long flags;

	if (!u)
		return;
	raw_spin_lock_irqsave(&u->lock, flags);
	em_offcpu(u, local, 0, what, false);
	if (what < ARRAY_SIZE(u->barriers))
		u->barriers[what]++;
	em_unit_sync(u, what);
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_unit_kick(u);
}

/*
 * ete_model_sysreg_ops - the system-register view of a model instance
 *
 * &struct ete_access.priv is the &struct ete_model, &struct ete_access.cpu
 * the PE.  Every call must be made on that PE with preemption disabled
 * (else an OFFCPU violation is logged).
 *
 * Context: any, hard IRQ included; takes the unit's raw spinlock.
 */
const struct ete_access_ops ete_model_sysreg_ops = {
	.read = em_sys_read,
	.write = em_sys_write,
	.sync = em_sys_sync,
};
EXPORT_SYMBOL_GPL(ete_model_sysreg_ops);

#define EM_TIMED_ACCESSES	1000

struct em_timed {
	struct ete_model *m;
	int cpu;
	u64 ns;
};

static void em_time_accesses(void *data)
{
	struct em_timed *t = data;
	struct ete_access acc = {
		.ops = &ete_model_sysreg_ops, .priv = t->m, .cpu = t->cpu,
		.local = true,
	};
	unsigned long flags;
	u64 t0;
	int i;

	local_irq_save(flags);
	t0 = local_clock();
	for (i = 0; i < EM_TIMED_ACCESSES; i++)
		ete_read(&acc, ETE_TRCIDR0);
	t->ns = local_clock() - t0;
	local_irq_restore(flags);
}

/**
 * ete_model_access_ns() - what one system-register access costs in this rig
 * @m: the model
 * @cpu: the unit's CPU
 *
 * Times EM_TIMED_ACCESSES reads of TRCIDR0 through the system-register
 * view on @cpu with interrupts off: the time one driver access takes here,
 * for make bench's start-time figure.  The reads count in the unit's stats.
 *
 * Context: process context; calls @cpu.
 * Return: nanoseconds per access, rounded down; 0 if @cpu cannot be called.
 */
u64 ete_model_access_ns(struct ete_model *m, int cpu)
{
	struct em_timed t = { .m = m, .cpu = cpu };

	if (smp_call_function_single(cpu, em_time_accesses, &t, 1))
		return 0;
	return div_u64(t.ns, EM_TIMED_ACCESSES);
}

/* ------------------------------------------------------------------ */
/* External-debug view                                                */
/* ------------------------------------------------------------------ */

/* The register holding @off, and whether @off is its upper word */
static u32 em_mmio_reg(u32 off, bool *upper)
{
	unsigned int idx;
	const struct ete_reg_desc *d;

	*upper = false;
	if (em_reg_find(off, &idx) || off < 4)
		return off;
	d = em_reg_find(off - 4, &idx);
	if (d && (d->flags & ETE_RF_64)) {
		*upper = true;
		return off - 4;
	}
	return off;
}

/*
 * Whether the external view answers at all: not while the core is off
 * (RKQMKX: an error response; the kernel sees an external abort).  An
 * access from another CPU is architecturally fine while the core is on,
 * but only the owning CPU keeps it on: such accesses are counted
 * (mmio_remote in stats), for tests that check the driver makes none.
 */
static bool em_mmio_powered(struct em_unit *u, u32 off, u64 val, bool write)
{
	if (u->cpu != raw_smp_processor_id())
		u->mmio_remote++;
	if (!u->pe_off)
		return true;
	em_violation(u, EM_EXTPD, off, val, write);
	return false;
}

/*
 * With the PE OS Lock locked, external accesses to the trace unit's
 * registers may return errors (D.11; RYSHRS, RKQMKX for offsets 0x000 to
 * 0xEFC): the model does, so a driver that relies on one is seen.  The
 * OS Lock and power-down registers, and the management registers from
 * 0xF00, still answer.
 */
static bool em_mmio_os_unlocked(struct em_unit *u, u32 off, u64 val,
				bool write)
{
	if (!u->oslk || off >= 0xf00)
		return true;
	switch (off & ~7u) {
	case ETE_TRCOSLAR:		/* and TRCOSLSR */
	case ETE_TRCPDCR:		/* and TRCPDSR */
		return true;
	}
	em_violation(u, EM_EXTOSLK, off, val, write);
	return false;
}

/* RYFRMG (3): a register an unsupported write reaches becomes UNKNOWN */
static void em_mmio_clobber(struct em_unit *u, u32 off)
{
	const struct ete_reg_desc *d;
	unsigned int idx;
	bool upper;
	u64 mask;
	u32 reg;

	if (off > ETE_REG_TRC_LAST)
		return;
	reg = em_mmio_reg(off & ~3u, &upper);
	d = em_reg_find(reg, &idx);
	if (!d || !ETE_REG_IS_TRC(reg) || reg / 4 >= ARRAY_SIZE(u->trc) ||
	    (d->flags & ETE_RF_RO) || !em_reg_implemented(u->prof, d, idx))
		return;
	mask = em_reg_wmask(u->prof, d->id, idx);
	u->trc[reg / 4] = em_unknown(u, mask);
}

/*
 * RKYDTQ: byte, halfword, unaligned and oversize accesses.  RYFRMG gives
 * three outcomes and recommends the third, which the model implements:
 * the read returns UNKNOWN (*@val), the write makes the register(s) it
 * reaches UNKNOWN.
 */
static bool em_mmio_size_ok(struct em_unit *u, u32 off, bool is64, u64 *val,
			    bool write)
{
	const struct ete_reg_desc *d;
	unsigned int idx;
	bool ok;

	if (is64) {
		d = em_reg_find(off, &idx);
		ok = !(off & 7) && d && (d->flags & ETE_RF_64);
	} else {
		ok = !(off & 3);
	}
	ok = ok && off <= ETE_REG_TRC_LAST;
	if (ok)
		return true;
	em_violation(u, EM_RKYDTQ, off, write ? *val : 0, write);
	if (!write) {
		*val = em_unknown(u, is64 ? U64_MAX : U32_MAX);
	} else {
		em_mmio_clobber(u, off);
		if (is64)
			em_mmio_clobber(u, off + 4);
	}
	return false;
}

static u64 em_mmio_read(void *ctx, u32 off, bool is64)
{
	struct em_unit *u = ctx;
	unsigned long flags;
	bool upper;
	u64 val = 0;
	u32 reg;

	raw_spin_lock_irqsave(&u->lock, flags);
	if (em_mmio_powered(u, off, 0, false) &&
	    em_mmio_os_unlocked(u, off, 0, false) &&
	    em_mmio_size_ok(u, off, is64, &val, false)) {
		reg = em_mmio_reg(off, &upper);
		val = em_unit_read(u, reg, true);
		if (upper)
			val >>= 32;
		else if (!is64)
			val = lower_32_bits(val);
	}
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_unit_kick(u);
	return val;
}

static void em_mmio_write(void *ctx, u32 off, u64 val, bool is64)
{
	struct em_unit *u = ctx;
	const struct ete_reg_desc *d;
	unsigned long flags;
	unsigned int idx;
	bool upper;
	u32 reg;
	u64 old;

	raw_spin_lock_irqsave(&u->lock, flags);
	if (!em_mmio_powered(u, off, val, true) ||
	    !em_mmio_os_unlocked(u, off, val, true) ||
	    !em_mmio_size_ok(u, off, is64, &val, true))
		goto out;
	reg = em_mmio_reg(off, &upper);
	d = em_reg_find(reg, &idx);
	if (!is64 && d && (d->flags & ETE_RF_64) && ETE_REG_IS_TRC(reg) &&
	    !(d->flags & ETE_RF_RO)) {
		/* a word of a 64-bit register: the other word is kept */
		old = u->trc[reg / 4];
		val = upper ? (old & U32_MAX) | (val << 32) :
			      (old & ~(u64)U32_MAX) | (val & U32_MAX);
	}
	em_unit_write(u, reg, val, true);
out:
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_unit_kick(u);
}

static u32 em_mmio_read32(void *ctx, u32 off)
{
	return em_mmio_read(ctx, off, false);
}

static void em_mmio_write32(void *ctx, u32 off, u32 val)
{
	em_mmio_write(ctx, off, val, false);
}

static u64 em_mmio_read64(void *ctx, u32 off)
{
	return em_mmio_read(ctx, off, true);
}

static void em_mmio_write64(void *ctx, u32 off, u64 val)
{
	em_mmio_write(ctx, off, val, true);
}

/*
 * ete_model_mmio_ops - the external-debug (CoreSight) view of a unit
 *
 * @ctx is a unit (ete_model_mmio_ctx()).  Has TRCOSLAR/TRCOSLSR (the PE OS
 * Lock), TRCPDCR/TRCPDSR, TRCLAR/TRCLSR and obeys RVQWLY/RKYDTQ sizes.
 *
 * Context: any, hard IRQ included; takes the unit's raw spinlock.
 */
const struct ete_mmio_io_ops ete_model_mmio_ops = {
	.read32 = em_mmio_read32,
	.write32 = em_mmio_write32,
	.read64 = em_mmio_read64,
	.write64 = em_mmio_write64,
};
EXPORT_SYMBOL_GPL(ete_model_mmio_ops);

/* ------------------------------------------------------------------ */
/* Instances                                                          */
/* ------------------------------------------------------------------ */

/*
 * Mask of checks switched off in instances created from then on (make
 * mutants: each check off in turn, the KUnit suites that must then fail)
 */
static unsigned long em_disabled_checks;
module_param_named(disable_checks, em_disabled_checks, ulong, 0644);
MODULE_PARM_DESC(disable_checks,
		 "mutation testing: bit N switches check N off (enum ete_model_check) in new instances");

/**
 * ete_model_create() - a new model instance with one unit per possible CPU
 * @profile: implementation profile name ("rich" or "minimal")
 *
 * The instance raises no interrupt and runs no timer: its test drives it
 * with ete_model_tick().
 *
 * Context: process context; allocates.
 * Return: the instance, or NULL on an unknown profile or no memory.
 */
struct ete_model *ete_model_create(const char *profile)
{
	const struct em_profile *p = em_profile_find(profile);
	struct ete_model *m;
	int cpu;

	if (!p)
		return NULL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->prof = p;
	m->disabled = READ_ONCE(em_disabled_checks);
	for_each_possible_cpu(cpu) {
		struct em_unit *u = kzalloc(sizeof(*u), GFP_KERNEL);

		if (!u) {
			ete_model_destroy(m);
			return NULL;
		}
		raw_spin_lock_init(&u->lock);
		u->model = m;
		u->cpu = cpu;
		u->prof = p;
		prandom_seed_state(&u->rnd, get_random_u64());
		u->delay = EM_DEFAULT_DELAY;
		u->pmstable_unknown = -1;
		u->rate = 64;
		u->context_id = 0x1000 + cpu;
		em_unit_reset(u);
		u->trfcr = 0;
		u->trfcr_eff = 0;
		em_unit_init_deferred(u);
		m->units[cpu] = u;
	}
	return m;
}
EXPORT_SYMBOL_GPL(ete_model_create);

/**
 * ete_model_destroy() - free an instance
 * @m: the instance, or NULL
 *
 * Context: process context; waits for the units' timers.
 */
void ete_model_destroy(struct ete_model *m)
{
	int cpu;

	if (!m)
		return;
	for_each_possible_cpu(cpu) {
		struct em_unit *u = m->units[cpu];

		if (!u)
			continue;
		em_unit_stop_deferred(u);
		kfree(u->gen.replay);
		free_page((unsigned long)u->left_page);
		em_gen_free(u);
		kfree(u);
	}
	kfree(m);
}
EXPORT_SYMBOL_GPL(ete_model_destroy);

#define EM_UNIT_LOCKED(m, cpu, stmt)					\
	do {								\
		struct em_unit *__u = (m)->units[cpu];			\
		unsigned long __flags;					\
									\
		raw_spin_lock_irqsave(&__u->lock, __flags);		\
		stmt;							\
		raw_spin_unlock_irqrestore(&__u->lock, __flags);	\
		em_unit_kick(__u);					\
	} while (0)

/**
 * ete_model_mmio_ctx() - the external-view context of a unit
 * @m: the instance
 * @cpu: the PE
 *
 * Context: any.
 * Return: the @ctx to pass to &ete_model_mmio_ops.
 */
void *ete_model_mmio_ctx(struct ete_model *m, int cpu)
{
	return m->units[cpu];
}
EXPORT_SYMBOL_GPL(ete_model_mmio_ctx);

/**
 * ete_model_violations() - how many violations of one check were logged
 * @m: the instance
 * @cpu: the PE
 * @check: the check
 *
 * Context: any.
 * Return: the count since the last clear.
 */
unsigned int ete_model_violations(struct ete_model *m, int cpu,
				  enum ete_model_check check)
{
	return READ_ONCE(m->units[cpu]->counts[check]);
}
EXPORT_SYMBOL_GPL(ete_model_violations);

/**
 * ete_model_violations_total() - how many violations were logged
 * @m: the instance
 * @cpu: the PE
 *
 * Context: any.
 * Return: the count of every check since the last clear.
 */
unsigned int ete_model_violations_total(struct ete_model *m, int cpu)
{
	unsigned int i, n = 0;

	for (i = 0; i < EM_NR_CHECKS; i++)
		n += ete_model_violations(m, cpu, i);
	return n;
}
EXPORT_SYMBOL_GPL(ete_model_violations_total);

/**
 * ete_model_clear_violations() - empty the violation log of a unit
 * @m: the instance
 * @cpu: the PE
 *
 * Context: any.
 */
void ete_model_clear_violations(struct ete_model *m, int cpu)
{
	EM_UNIT_LOCKED(m, cpu, ({
		memset(__u->counts, 0, sizeof(__u->counts));
		__u->log_next = 0;
	}));
}
EXPORT_SYMBOL_GPL(ete_model_clear_violations);

/**
 * ete_model_set_delay() - status reads each transition takes
 * @m: the instance
 * @cpu: the PE
 * @reads: reads that still see the transitional state, or EM_DELAY_NEVER
 *
 * Context: any.
 */
void ete_model_set_delay(struct ete_model *m, int cpu, int reads)
{
	EM_UNIT_LOCKED(m, cpu, __u->delay = reads);
}
EXPORT_SYMBOL_GPL(ete_model_set_delay);

/**
 * ete_model_set_fault() - inject a fault
 * @m: the instance
 * @cpu: the PE
 * @fault: the fault (EM_FAULT_NONE clears)
 *
 * Context: any.
 */
void ete_model_set_fault(struct ete_model *m, int cpu,
			 enum ete_model_fault fault)
{
	EM_UNIT_LOCKED(m, cpu, __u->fault = fault);
}
EXPORT_SYMBOL_GPL(ete_model_set_fault);

/**
 * ete_model_set_rate() - trace bytes generated per millisecond
 * @m: the instance
 * @cpu: the PE
 * @bpms: bytes per millisecond
 *
 * Context: any.
 */
void ete_model_set_rate(struct ete_model *m, int cpu, unsigned int bpms)
{
	EM_UNIT_LOCKED(m, cpu, __u->rate = bpms);
}
EXPORT_SYMBOL_GPL(ete_model_set_rate);

/**
 * ete_model_set_pmstable_unknown() - TRCSTATR.PMSTABLE where UNKNOWN
 * @m: the instance
 * @cpu: the PE
 * @val: 0 or 1, or -1 for random (the default)
 *
 * Context: any.
 */
void ete_model_set_pmstable_unknown(struct ete_model *m, int cpu, int val)
{
	EM_UNIT_LOCKED(m, cpu, __u->pmstable_unknown = val);
}
EXPORT_SYMBOL_GPL(ete_model_set_pmstable_unknown);

/**
 * ete_model_set_midr() - the MIDR_EL1 every unit reports
 * @m: the instance
 * @midr: a part with an erratum the driver handles, or 0 for the real one
 *
 * Context: any.
 */
void ete_model_set_midr(struct ete_model *m, u64 midr)
{
	ete_model_set_midr_cpus(m, midr, ~0UL);
}
EXPORT_SYMBOL_GPL(ete_model_set_midr);

/**
 * ete_model_set_midr_cpus() - the MIDR_EL1 some units report
 * @m: the instance
 * @midr: a part with an erratum the driver handles, or 0 for the real one
 * @cpus: the CPUs that report it (bit n: CPU n); the others report their
 *	own, as on a SoC mixing cores
 *
 * A unit whose MIDR is a part with a TRBE erratum the model reproduces
 * (em_trbe_quirks_for_midr()) then behaves like that part.
 *
 * Context: process context, before any driver reads the MIDR.
 */
void ete_model_set_midr_cpus(struct ete_model *m, u64 midr,
			     unsigned long cpus)
{
	unsigned long flags;
	int cpu;

	WRITE_ONCE(m->midr, midr);
	WRITE_ONCE(m->midr_cpus, cpus);
	for_each_possible_cpu(cpu) {
		struct em_unit *u = m->units[cpu];

		if (!u)
			continue;
		raw_spin_lock_irqsave(&u->lock, flags);
		u->quirks = em_trbe_quirks_for_midr(em_unit_midr(u));
		raw_spin_unlock_irqrestore(&u->lock, flags);
	}
}
EXPORT_SYMBOL_GPL(ete_model_set_midr_cpus);

/**
 * ete_model_state() - the programming state of a unit
 * @m: the instance
 * @cpu: the PE
 *
 * Context: any.
 * Return: the state.
 */
enum ete_model_state ete_model_state(struct ete_model *m, int cpu)
{
	return READ_ONCE(m->units[cpu]->state);
}
EXPORT_SYMBOL_GPL(ete_model_state);

/**
 * ete_model_power_down() - the core power domain goes down and up again
 * @m: the instance
 * @cpu: the PE
 *
 * Every trace unit and TRBE register takes its reset value (UNKNOWN ones a
 * random value), TRCPDSR.STICKYPD is set (RFQMXQ).  The OS Lock keeps its
 * value: cpu_do_resume() writes back the value cpu_do_suspend() saw.  What
 * was lost is kept to check the driver's restore (power.c).
 *
 * Context: any.
 */
void ete_model_power_down(struct ete_model *m, int cpu)
{
	EM_UNIT_LOCKED(m, cpu, ({
		/* a second power-down before the restore loses nothing new */
		if (!__u->pm.snap_valid)
			em_pm_snapshot(__u);
		em_unit_reset(__u);
		__u->sticky_pd = true;
		__u->trfcr = em_unknown(__u, em_reg_wmask(__u->prof,
							  ETE_TRFCR_EL1, 0));
		__u->trfcr_eff = __u->trfcr;
		__u->powerdowns++;
	}));
}
EXPORT_SYMBOL_GPL(ete_model_power_down);

/**
 * ete_model_irq_release() - raise a TRBE interrupt that irq_hold kept low
 * @m: the instance
 * @cpu: the PE
 *
 * Context: process context.
 */
void ete_model_irq_release(struct ete_model *m, int cpu)
{
	EM_UNIT_LOCKED(m, cpu, ({
		if (__u->trbsr & EM_TRBSR_IRQ)
			__u->irq_req = true;
	}));
}
EXPORT_SYMBOL_GPL(ete_model_irq_release);

/**
 * ete_model_claim() - the claim tags, as TRCCLAIMCLR reads
 * @m: the instance
 * @cpu: the PE
 *
 * Context: any.
 * Return: the claim tag bits set.
 */
u64 ete_model_claim(struct ete_model *m, int cpu)
{
	u64 val;

	EM_UNIT_LOCKED(m, cpu, val = __u->trc[ETE_TRCCLAIMCLR / 4]);
	return val;
}
EXPORT_SYMBOL_GPL(ete_model_claim);

/**
 * ete_model_set_os_lock() - set or clear the PE OS Lock, as OSLAR_EL1 and an
 *	ISB would (another agent than the driver under test: the kernel, a
 *	debugger)
 * @m: the instance
 * @cpu: the PE
 * @lock: the new value
 *
 * Context: any.
 */
void ete_model_set_os_lock(struct ete_model *m, int cpu, bool lock)
{
	EM_UNIT_LOCKED(m, cpu, em_unit_set_os_lock(__u, lock));
}
EXPORT_SYMBOL_GPL(ete_model_set_os_lock);

/**
 * ete_model_external_claim() - what an external debugger does with its tag
 * @m: the instance
 * @cpu: the PE
 * @how: 0 releases its claim tag (bit 0, as CoreSight's
 *	CORESIGHT_CLAIM_EXTERNAL), 1 claims it now, 2 claims it at the
 *	moment the PE next writes TRCCLAIMSET (a claim that races the
 *	self-hosted agent's: only reading the tags back after setting its
 *	own tells it)
 *
 * Context: any.
 */
void ete_model_external_claim(struct ete_model *m, int cpu, int how)
{
	EM_UNIT_LOCKED(m, cpu, ({
		__u->claim_race = how == 2;
		if (how == 1)
			__u->trc[ETE_TRCCLAIMCLR / 4] |= EM_CLAIM_EXTERNAL;
		else if (!how)
			__u->trc[ETE_TRCCLAIMCLR / 4] &= ~EM_CLAIM_EXTERNAL;
	}));
}
EXPORT_SYMBOL_GPL(ete_model_external_claim);

/**
 * ete_model_cpu_off() - the PE was turned off (CPU offline, PSCI CPU_OFF)
 * @m: the instance
 * @cpu: the PE, dead
 *
 * CPU_OFF powers the core down: the trace unit and the TRBE lose their
 * state as in ete_model_power_down(), and the OS Lock takes its Cold
 * reset value, locked (OSLSR_EL1.OSLK resets to 1).  Until
 * ete_model_cpu_on(), the external view answers every access with an
 * error (EXT_POWERED_DOWN violation, RKQMKX).  What a unit that was
 * tracing lost is kept for the driver's restore, as at a CPU PM
 * power-down; an idle unit loses nothing anyone wanted.
 *
 * Context: process context, @cpu dead (the CPU hotplug PREPARE teardown).
 */
void ete_model_cpu_off(struct ete_model *m, int cpu)
{
	EM_UNIT_LOCKED(m, cpu, ({
		bool tracing = __u->trc[ETE_TRCPRGCTLR / 4] & EM_PRGCTLR_EN;

		/* a second power-down before the restore loses nothing new */
		if ((__u->oslk || tracing) && !__u->pm.snap_valid)
			em_pm_snapshot(__u);
		/* locked by the driver's save: its restore locks again */
		__u->pm.relock = __u->oslk;
		em_unit_reset(__u);
		__u->sticky_pd = true;
		__u->trfcr = em_unknown(__u, em_reg_wmask(__u->prof,
							  ETE_TRFCR_EL1, 0));
		__u->trfcr_eff = __u->trfcr;
		__u->oslk = true;
		__u->pe_off = true;
		__u->powerdowns++;
	}));
}
EXPORT_SYMBOL_GPL(ete_model_cpu_off);

/**
 * ete_model_cpu_on() - the PE boots again (CPU online)
 * @m: the instance
 * @cpu: the PE, about to run
 *
 * The kernel clears the OS Lock of every CPU it brings up
 * (arch/arm64/kernel/debug-monitors.c: clear_os_lock(), at
 * CPUHP_AP_ARM64_DEBUG_MONITORS_STARTING, before any driver's online
 * callback): so does the model, before the PE runs.  That is the
 * kernel's write, not the driver's restore: a saved state stays to be
 * compared when the driver clears the lock it sets again (power.c).
 *
 * Context: process context, @cpu not yet running (CPU hotplug PREPARE).
 */
void ete_model_cpu_on(struct ete_model *m, int cpu)
{
	EM_UNIT_LOCKED(m, cpu, ({
		__u->oslk = false;
		__u->pe_off = false;
		__u->csync_pending = false;
		__u->kernel_oslk_clears++;
	}));
}
EXPORT_SYMBOL_GPL(ete_model_cpu_on);

/**
 * ete_model_tick() - run a unit's trace generation once
 * @m: the instance
 * @cpu: the PE
 * @bytes: bytes to generate (0: only drain and re-pend the interrupt)
 *
 * Context: any.
 */
void ete_model_tick(struct ete_model *m, int cpu, unsigned int bytes)
{
	EM_UNIT_LOCKED(m, cpu, ({
		em_gen_run(__u, bytes, 0, 0);
		em_fifo_drain(__u, EM_FIFO_SIZE);
	}));
}
EXPORT_SYMBOL_GPL(ete_model_tick);

/**
 * ete_model_trigger() - the trace unit signals a trigger to the TRBE
 * @m: the instance
 * @cpu: the PE
 *
 * Context: any.
 */
void ete_model_trigger(struct ete_model *m, int cpu)
{
	EM_UNIT_LOCKED(m, cpu, em_trbe_trigger(__u));
}
EXPORT_SYMBOL_GPL(ete_model_trigger);

/**
 * ete_model_set_prohibited() - force a trace-prohibited region
 * @m: the instance
 * @cpu: the PE
 * @prohibited: the PE is in a prohibited region whatever TRFCR says
 *
 * Context: any.
 */
void ete_model_set_prohibited(struct ete_model *m, int cpu, bool prohibited)
{
	EM_UNIT_LOCKED(m, cpu, __u->prohibited = prohibited);
}
EXPORT_SYMBOL_GPL(ete_model_set_prohibited);

/**
 * ete_model_set_atb() - say whether a sink other than the TRBE takes trace
 * @m: the instance
 * @cpu: the PE
 * @on: a trace bus sink (a test sink standing in for ATB) collects the
 *	unit's trace; the check EM_TRBE_OFF is then not made
 *
 * The bytes still go nowhere the model keeps (RFJFNS).
 *
 * Context: any.
 */
void ete_model_set_atb(struct ete_model *m, int cpu, bool on)
{
	EM_UNIT_LOCKED(m, cpu, ({
		__u->atb = on;
		em_unit_check_sink(__u);
	}));
}
EXPORT_SYMBOL_GPL(ete_model_set_atb);

/**
 * ete_model_replay() - emit a byte stream unchanged instead of trace
 * @m: the instance
 * @cpu: the PE
 * @buf: the bytes (copied), or NULL to return to synthetic trace
 * @len: their number
 *
 * Context: process context; allocates.
 * Return: 0, or -ENOMEM.
 */
int ete_model_replay(struct ete_model *m, int cpu, const u8 *buf, size_t len)
{
	u8 *copy = NULL, *old;

	if (buf && len) {
		copy = kmemdup(buf, len, GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
	}
	EM_UNIT_LOCKED(m, cpu, ({
		old = __u->gen.replay;
		__u->gen.replay = copy;
		__u->gen.replay_len = copy ? len : 0;
		__u->gen.replay_pos = 0;
		__u->gen.replay_offered = 0;
	}));
	kfree(old);
	return 0;
}
EXPORT_SYMBOL_GPL(ete_model_replay);

/**
 * ete_model_irqs_raised() - TRBE interrupt requests a unit made
 * @m: the instance
 * @cpu: the PE
 *
 * Context: any.
 * Return: the count.
 */
unsigned int ete_model_irqs_raised(struct ete_model *m, int cpu)
{
	return READ_ONCE(m->units[cpu]->irqs);
}
EXPORT_SYMBOL_GPL(ete_model_irqs_raised);

/**
 * ete_model_peek() - a register's value, without side effect or check
 * @m: the instance
 * @cpu: the PE
 * @reg: a trace unit register id or ETE_TRB*_EL1
 *
 * Context: any.
 * Return: the stored value.
 */
u64 ete_model_peek(struct ete_model *m, int cpu, u32 reg)
{
	struct em_unit *u = m->units[cpu];
	unsigned long flags;
	u64 v;

	raw_spin_lock_irqsave(&u->lock, flags);
	if (ETE_REG_IS_TRC(reg))
		v = u->trc[reg / 4];
	else
		v = em_trbe_read(u, reg);
	raw_spin_unlock_irqrestore(&u->lock, flags);
	return v;
}
EXPORT_SYMBOL_GPL(ete_model_peek);
