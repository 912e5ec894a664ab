// SPDX-License-Identifier: GPL-2.0
/*
 * The trace unit of the model: its register file with the access rules of
 * the register table, the programming states of Table D4-1, the PE OS Lock
 * it obeys (ILFBBP) and the log of every access the architecture calls
 * CONSTRAINED UNPREDICTABLE or Reserved.  Called with the unit's lock held.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <asm/cputype.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

#include "model.h"

/* ------------------------------------------------------------------ */
/* Violation log                                                      */
/* ------------------------------------------------------------------ */

/*
 * Log a violation of check @c, unless mutation testing switched the check
 * off.  Returns whether it was logged: callers apply the CONSTRAINED
 * UNPREDICTABLE outcome only then, so a switched-off check behaves as if
 * the access were legal.
 */
static bool em_flag(struct em_unit *u, enum ete_model_check c, u32 reg,
		    u64 val, bool write)
{
	struct em_log_entry *e;

	if (u->model->disabled & BIT(c))
		return false;
	u->counts[c]++;
	e = &u->log[u->log_next++ % EM_LOG_SIZE];
	e->check = c;
	e->write = write;
	e->state = u->state;
	e->reg = reg;
	e->val = val;
	return true;
}

/**
 * em_violation() - log a violation found outside the register file
 * @u: the unit
 * @c: the check
 * @reg: register id
 * @val: value written, or 0
 * @write: the access was a write
 *
 * Context: the unit's lock held.
 */
void em_violation(struct em_unit *u, enum ete_model_check c, u32 reg,
		  u64 val, bool write)
{
	em_flag(u, c, reg, val, write);
}

/**
 * em_unknown() - an UNKNOWN value, random so that drivers cannot rely on it
 * @u: the unit (its pseudo-random state)
 * @mask: the bits that may be set
 *
 * Context: the unit's lock held.
 * Return: the value.
 */
u64 em_unknown(struct em_unit *u, u64 mask)
{
	u64 v = prandom_u32_state(&u->rnd);

	return (v << 32 | prandom_u32_state(&u->rnd)) & mask;
}

/* ------------------------------------------------------------------ */
/* Programming states (Figure D4-1, Table D4-1)                       */
/* ------------------------------------------------------------------ */

static bool em_enabled(const struct em_unit *u)
{
	/* RVBMLV: enabled when TRCPRGCTLR.EN is 1 and the OS Lock unlocked */
	return (u->trc[ETE_TRCPRGCTLR / 4] & EM_PRGCTLR_EN) && !u->oslk;
}

static void em_disable_begin(struct em_unit *u)
{
	/*
	 * Started, and disabled before its first generation step: no A-Sync
	 * was due (IMQNBT: it may wait for the first trace)
	 */
	if (u->gen.need_sync && !u->gen.emitted)
		u->starts_untraced++;
	/* RTZSRP: Running to Unstable when disabled */
	u->state = EM_UNSTABLE;
	u->left = u->delay;
}

/*
 * Combinations that are CONSTRAINED UNPREDICTABLE only together, checked
 * when a session starts: a cycle-count threshold below TRCIDR3.CCITMIN
 * with cycle counting on (RKJXDK); no-overflow without ISTALL (Table
 * D4-25); branch broadcast in include mode with no range selected.
 */
static void em_check_session(struct em_unit *u)
{
	const struct em_profile *p = u->prof;
	u64 cfg = u->trc[ETE_TRCCONFIGR / 4];
	u64 stall = u->trc[ETE_TRCSTALLCTLR / 4];
	u64 bb = u->trc[ETE_TRCBBCTLR / 4];

	if ((cfg & EM_CONFIGR_CCI) &&
	    (u->trc[ETE_TRCCCCTLR / 4] & GENMASK(11, 0)) <
	    FIELD_GET(EM_IDR3_CCITMIN, p->idr[3]))
		em_flag(u, EM_IDRANGE, ETE_TRCCCCTLR,
			u->trc[ETE_TRCCCCTLR / 4], true);
	if ((p->idr[3] & EM_IDR3_STALLCTL) && (stall & BIT(13)) &&
	    !(stall & BIT(8)))
		em_flag(u, EM_IDRANGE, ETE_TRCSTALLCTLR, stall, true);
	if ((p->idr[0] & EM_IDR0_TRCBB) && (cfg & BIT(3)) && (bb & BIT(8)) &&
	    !(bb & GENMASK(7, 0)))
		em_flag(u, EM_IDRANGE, ETE_TRCBBCTLR, bb, true);
}

/* Apply TRCPRGCTLR.EN and the OS Lock as they are now */
static void em_apply_enable(struct em_unit *u)
{
	bool en = em_enabled(u);

	if (en && u->state == EM_IDLE) {
		em_check_session(u);
		/* RDXFFN: Idle to Enabling */
		u->state = EM_ENABLING;
		u->left = u->delay;
	} else if (!en && u->state == EM_RUNNING) {
		em_disable_begin(u);
	}
}

static void em_next_state(struct em_unit *u)
{
	switch (u->state) {
	case EM_ENABLING:
		/* RZFPHC: Enabling to Running in finite time */
		u->state = EM_RUNNING;
		u->starts++;
		em_gen_start(u);
		em_unit_check_sink(u);
		if (!em_enabled(u))
			em_disable_begin(u);
		break;
	case EM_UNSTABLE:
		/* RCZHWF: Unstable to Stable; RZDTLK: drain on disable */
		u->state = EM_STABLE;
		u->left = u->delay;
		em_fifo_drain(u, EM_FIFO_SIZE);
		break;
	case EM_STABLE:
		/* RTRZCP: Stable to Idle once every byte is out */
		em_fifo_drain(u, EM_FIFO_SIZE);
		if (u->fifo_len)
			break;
		/* RRPSPH: an Overflow still owed goes out before Idle */
		em_gen_overflow_out(u);
		em_trbe_flush(u);
		u->state = EM_IDLE;
		em_apply_enable(u);
		break;
	default:
		break;
	}
}

/* One status read's worth of progress through a transitional state */
static void em_advance(struct em_unit *u)
{
	if (u->state == EM_IDLE || u->state == EM_RUNNING)
		return;
	if (u->fault == EM_FAULT_STUCK || u->left < 0)
		return;
	if (u->left > 0) {
		u->left--;
		return;
	}
	em_next_state(u);
	/*
	 * debugfs settle: silicon may go from Unstable through Stable to
	 * Idle between two polls, so that no poll sees Stable and the ISB
	 * before the poll that sees Idle was taken while Unstable
	 */
	if (u->settle_fast && u->state == EM_STABLE)
		em_next_state(u);
}

/* RWZQWC: what the counters hold becomes what direct reads see */
static void em_cnt_sync(struct em_unit *u)
{
	unsigned int n;

	for (n = 0; n < ARRAY_SIZE(u->cnt_vis); n++)
		u->cnt_vis[n] = u->trc[ETE_TRCCNTVR_N(n) / 4];
	u->cnt_unsync = false;
}

/*
 * The value of counter @n a read sees.  A direct read sees the unit's own
 * updates only after a context synchronization event taken while Idle or
 * Stable (RWZQWC; IPNZZH: not while running); an external read once the
 * unit reached Stable or Idle (RGQKGX).  Before that the model returns the
 * value of the last such event, one of the values silicon may return.
 */
static u64 em_cnt_value(struct em_unit *u, unsigned int n, bool mmio)
{
	if (mmio && (u->state == EM_IDLE || u->state == EM_STABLE))
		return u->trc[ETE_TRCCNTVR_N(n) / 4];
	return u->cnt_vis[n];
}

static u64 em_pmstable_unknown(const struct em_unit *u)
{
	if (u->pmstable_unknown >= 0)
		return u->pmstable_unknown ? EM_STATR_PMSTABLE : 0;
	return em_unknown((struct em_unit *)u, EM_STATR_PMSTABLE);
}

static u64 em_statr(struct em_unit *u, bool mmio)
{
	/*
	 * SHSXGZ: a context synchronization event must separate the EN or
	 * OS Lock write from the TRCSTATR read, and two TRCSTATR reads.  The
	 * external view needs none (RDYRZC).
	 */
	if (!mmio) {
		if (u->csync_pending || u->statr_unsync)
			em_flag(u, EM_SHSXGZ, ETE_TRCSTATR, 0, false);
		u->statr_unsync = true;
	}
	em_advance(u);

	switch (u->state) {
	case EM_IDLE:
		return EM_STATR_IDLE | EM_STATR_PMSTABLE;
	case EM_ENABLING:
		return EM_STATR_IDLE | em_pmstable_unknown(u);
	case EM_RUNNING:
		return em_pmstable_unknown(u);
	case EM_UNSTABLE:
		return 0;
	default:
		return EM_STATR_PMSTABLE;
	}
}

static void em_set_oslk(struct em_unit *u, bool lock, bool mmio)
{
	if (lock == u->oslk)
		return;
	/*
	 * RMDZDN through the OS Lock: with EN set, clearing it enables the
	 * unit (RVBMLV), which outside Idle and Running is CONSTRAINED
	 * UNPREDICTABLE.  Logged; the lock clears, and the unit enables
	 * once it is Idle.
	 */
	if (!lock && (u->trc[ETE_TRCPRGCTLR / 4] & EM_PRGCTLR_EN) &&
	    (u->state == EM_UNSTABLE || u->state == EM_STABLE))
		em_flag(u, EM_RMDZDN, mmio ? ETE_TRCOSLAR : ETE_OSLAR_EL1, 0,
			true);
	/* the lock of a restore after a CPU_OFF is not a save (power.c) */
	if (lock && !u->pm.relock)
		u->saves++;
	else if (!lock)
		u->restores++;
	u->oslk = lock;
	em_pm_lock_changed(u, lock);
	/* IHWYYK/RTMLTF: locking disables the unit, after a CSE (RKNQWS) */
	if (mmio)
		em_apply_enable(u);
	else
		u->csync_pending = true;
}

/**
 * em_unit_set_os_lock() - the OS Lock written and synchronized at once
 * @u: the unit
 * @lock: the new value
 *
 * Context: the unit's lock held.
 */
void em_unit_set_os_lock(struct em_unit *u, bool lock)
{
	em_set_oslk(u, lock, true);
}

/**
 * em_unit_prohibited() - is the PE in a trace-prohibited region
 * @u: the unit
 *
 * TRFCR_EL1.E1TRE (TRFCR_EL2.E2TRE under VHE) as of the last context
 * synchronization event, or a region a test forces.
 *
 * Context: the unit's lock held.
 * Return: true if trace is prohibited.
 */
bool em_unit_prohibited(const struct em_unit *u)
{
	return u->prohibited || !(u->trfcr_eff & EM_TRFCR_ExTRE);
}

/**
 * em_unit_check_sink() - flag trace allowed with nowhere to go (EM_TRBE_OFF)
 * @u: the unit
 *
 * Made where one of its terms can change: the unit reaching Running, a
 * context synchronization event (TRFCR), each tick, the sink knob.  I.12(2):
 * the TRBE is enabled before the trace unit; a driver that waits for room
 * with the TRBE disabled keeps trace prohibited meanwhile.
 *
 * Context: the unit's lock held.
 */
void em_unit_check_sink(struct em_unit *u)
{
	bool off = u->state == EM_RUNNING && !u->prohibited && !u->atb &&
		   (u->trfcr_eff & (EM_TRFCR_E0TRE | EM_TRFCR_ExTRE)) &&
		   !(u->trblimitr & EM_TRBLIMITR_E);

	if (off && !u->trbe_off)
		em_flag(u, EM_TRBE_OFF, ETE_TRBLIMITR_EL1, u->trblimitr, false);
	u->trbe_off = off;
}

/* ------------------------------------------------------------------ */
/* Reset                                                              */
/* ------------------------------------------------------------------ */

/**
 * em_unit_midr() - the MIDR_EL1 the unit's PE reports
 * @u: the unit
 *
 * Context: any.
 * Return: the model's MIDR for the CPUs it was set for, else the PE's own.
 */
u32 em_unit_midr(const struct em_unit *u)
{
	const struct ete_model *m = u->model;

	if (m->midr && u->cpu < BITS_PER_LONG && (m->midr_cpus & BIT(u->cpu)))
		return m->midr;
	return read_cpuid_id();
}

/**
 * em_unit_reset() - trace unit reset, as on power-up (RPTZDH)
 * @u: the unit
 *
 * Every register takes its reset value; those the architecture leaves
 * UNKNOWN take a random value within their writable bits.
 *
 * Context: the unit's lock held, or the unit not yet shared.
 */
void em_unit_reset(struct em_unit *u)
{
	const struct em_profile *p = u->prof;
	unsigned int i;

	memset(u->trc, 0, sizeof(u->trc));
	for (i = 0; i < ARRAY_SIZE(u->trc); i++) {
		const struct ete_reg_desc *d;
		unsigned int idx;

		d = em_reg_find(i * 4, &idx);
		if (!d || (d->flags & ETE_RF_RO) || !(d->flags & ETE_RF_SYS) ||
		    !em_reg_implemented(p, d, idx))
			continue;
		u->trc[i] = em_unknown(u, em_reg_wmask(p, d->id, idx));
	}
	u->trc[ETE_TRCPRGCTLR / 4] = 0;
	u->trc[ETE_TRCCLAIMSET / 4] = 0;
	u->trc[ETE_TRCCLAIMCLR / 4] = 0;
	u->trc[ETE_TRCCONFIGR / 4] |= BIT(0);
	if (u->trc[ETE_TRCSEQSTR / 4] >=
	    FIELD_GET(EM_IDR5_NUMSEQSTATE, p->idr[5]))
		u->trc[ETE_TRCSEQSTR / 4] = 0;
	/* TRCSSCSR<n>.INST: the comparators support instruction addresses */
	for (i = 0; i < FIELD_GET(EM_IDR4_NUMSSCC, p->idr[4]); i++)
		u->trc[ETE_TRCSSCSR_N(i) / 4] |=
			FIELD_GET(EM_IDR4_NUMACPAIRS, p->idr[4]) ? BIT(0) : 0;
	u->state = EM_IDLE;
	u->left = 0;
	u->csync_pending = false;
	u->statr_unsync = false;
	u->tsb_unsync = false;
	u->pdcr = 0;
	/* TRCLSR resets to 0x3, SLI and SLK: locked (seed 002, TRCLSR) */
	u->swlock = true;
	u->fifo_len = 0;
	u->overflow = false;
	em_cnt_sync(u);
	em_trbe_reset(u);
}

/* ------------------------------------------------------------------ */
/* Register access                                                    */
/* ------------------------------------------------------------------ */

static u64 em_idr(const struct em_unit *u, u32 reg)
{
	if (reg >= ETE_TRCIDR0)
		return u->prof->idr[(reg - ETE_TRCIDR0) / 4];
	return u->prof->idr[8 + (reg - ETE_TRCIDR8) / 4];
}

/*
 * The CPUs whose ID_AA64DFR0_EL1 reports no TRBE (TraceBuffer 0), so that
 * the driver's path for a CPU without one is tested: trbe.ko reads it when
 * it probes a CPU, at its load and whenever the CPU comes online.
 */
static unsigned long em_no_trbe_cpus;
module_param_named(no_trbe_cpus, em_no_trbe_cpus, ulong, 0644);
MODULE_PARM_DESC(no_trbe_cpus,
		 "CPUs whose ID_AA64DFR0_EL1 reports no TRBE (bit n: CPU n), read at each probe");

static u64 em_dfr0(struct em_unit *u)
{
	u64 v = read_sysreg(id_aa64dfr0_el1);
	bool trbe = u->cpu >= BITS_PER_LONG ||
		    !(READ_ONCE(em_no_trbe_cpus) & BIT(u->cpu));

	/* Report FEAT_ETE, FEAT_TRF and FEAT_TRBE, which QEMU does not */
	v &= ~(GENMASK_ULL(7, 4) | GENMASK_ULL(47, 40));
	return v | FIELD_PREP(GENMASK_ULL(7, 4), 1) |
	       FIELD_PREP(GENMASK_ULL(43, 40), 1) |
	       FIELD_PREP(GENMASK_ULL(47, 44), trbe);
}

static u64 em_mgmt_value(struct em_unit *u, u32 reg)
{
	static const u8 cs_id[] = {
		[(ETE_TRCPIDR0 - ETE_TRCPIDR4) / 4] = 0xee,
		[(ETE_TRCPIDR1 - ETE_TRCPIDR4) / 4] = 0xb9,
		[(ETE_TRCPIDR2 - ETE_TRCPIDR4) / 4] = 0x0b,
		[(ETE_TRCPIDR3 - ETE_TRCPIDR4) / 4] = 0x00,
		[0] = 0x04,
		[(ETE_TRCCIDR0 - ETE_TRCPIDR4) / 4] = 0x0d,
		[(ETE_TRCCIDR1 - ETE_TRCPIDR4) / 4] = 0x90,
		[(ETE_TRCCIDR2 - ETE_TRCPIDR4) / 4] = 0x05,
		[(ETE_TRCCIDR3 - ETE_TRCPIDR4) / 4] = 0xb1,
	};
	u64 v;

	switch (reg) {
	case ETE_TRCOSLSR:
		/* OSLM = 0b10 (bits 3 and 0), OSLK */
		return BIT(3) | (u->oslk ? EM_OSLSR_OSLK : 0);
	case ETE_TRCPDSR:
		v = EM_PDSR_POWER | (u->sticky_pd ? EM_PDSR_STICKYPD : 0);
		if (!u->swlock)
			u->sticky_pd = false;	/* cleared by a read */
		return v;
	case ETE_TRCPDCR:
		return u->pdcr;
	case ETE_TRCLSR:
		return EM_LSR_SLI | (u->swlock ? EM_LSR_SLK : 0);
	case ETE_TRCAUTHSTATUS:
		/* Non-secure and EL2 non-invasive debug implemented, enabled */
		return 0xc0c;
	case ETE_TRCDEVARCH:
		return u->prof->devarch;
	case ETE_TRCDEVTYPE:
		return 0x13;	/* trace source, processor */
	case ETE_TRCDEVAFF:
		return BIT(31) | u->cpu;
	case ETE_TRCITCTRL:
	case ETE_TRCDEVID:
		return 0;
	default:
		return cs_id[(reg - ETE_TRCPIDR4) / 4];
	}
}

static u64 em_value(struct em_unit *u, const struct ete_reg_desc *d, u32 reg,
		    bool mmio)
{
	switch (d->id) {
	case ETE_TRCSTATR:
		return em_statr(u, mmio);
	case ETE_TRCCLAIMSET:
		return GENMASK(u->prof->claim_bits - 1, 0);
	case ETE_TRCIDR0 ... ETE_TRCIDR5:
	case ETE_TRCIDR8 ... ETE_TRCIDR13:
		return em_idr(u, reg);
	case ETE_TRCAUTHSTATUS:
	case ETE_TRCDEVARCH:
	case ETE_TRCDEVID:
		return em_mgmt_value(u, reg);
	case ETE_TRBLIMITR_EL1 ... ETE_TRBIDR_EL1:
		return em_trbe_read(u, reg);
	case ETE_TRFCR_EL1:
		return u->trfcr;
	case ETE_OSLSR_EL1:
		return BIT(3) | (u->oslk ? EM_OSLSR_OSLK : 0);
	case ETE_MIDR_EL1:
		return em_unit_midr(u);
	case ETE_ID_AA64DFR0_EL1:
		return em_dfr0(u);
	case ETE_TRCCNTVR:
		return em_cnt_value(u, (reg - ETE_TRCCNTVR) / 4, mmio);
	default:
		/* the registers only the external view has */
		if (!(d->flags & ETE_RF_SYS))
			return em_mgmt_value(u, reg);
		break;
	}
	/* a system register of none of the cases above reads as zero */
	return reg / 4 < ARRAY_SIZE(u->trc) ? u->trc[reg / 4] : 0;
}

static const struct ete_reg_desc *em_lookup(struct em_unit *u, u32 reg,
					    bool mmio, bool write, u64 val,
					    unsigned int *idx)
{
	const struct ete_reg_desc *d = em_reg_find(reg, idx);

	/* IWCXDT (system instructions), RKQMKX (external view) */
	if (!d || !(d->flags & (mmio ? ETE_RF_MMIO : ETE_RF_SYS)) ||
	    !em_reg_implemented(u->prof, d, *idx)) {
		em_flag(u, EM_UNIMPL, reg, val, write);
		return NULL;
	}
	return d;
}

/**
 * em_unit_read() - a read of register @reg
 * @u: the unit
 * @reg: register id
 * @mmio: through the external-debug view (else system instructions)
 *
 * Context: the unit's lock held.
 * Return: the value read; 0 or UNKNOWN for a reserved access.
 */
u64 em_unit_read(struct em_unit *u, u32 reg, bool mmio)
{
	const struct ete_reg_desc *d;
	unsigned int idx;

	d = em_lookup(u, reg, mmio, false, 0, &idx);
	if (!d)
		return 0;
	/* RWXKDP: reading a write-only register is Reserved */
	if ((d->flags & ETE_RF_WO) &&
	    em_flag(u, EM_RWXKDP, reg, 0, false))
		return em_unknown(u, GENMASK_ULL(63, 0));
	/*
	 * Arm ARM D6.6.3 and B2.6.8 (not in the seeds; cf. RWZQWC): a
	 * direct read sees the TRBPTR_EL1/TRBSR_EL1 values the flush's trace
	 * operations wrote only with a context synchronization event
	 * between the TSB CSYNC and the read; without one, old or new is
	 * UNPREDICTABLE (D6.11).
	 */
	if (!mmio && u->tsb_unsync &&
	    (reg == ETE_TRBPTR_EL1 || reg == ETE_TRBSR_EL1))
		em_flag(u, EM_RVTNCS, reg, 0, false);
	u->reads++;
	if (reg == ETE_TRCSTATR || reg == ETE_TRBSR_EL1)
		u->status_reads++;
	if (reg / 4 < EM_NR_REG_SLOTS)
		u->reg_reads[reg / 4]++;
	return em_value(u, d, reg, mmio);
}

/* Registers RRWYQD lets software write in any state */
static bool em_write_any_state(u32 reg)
{
	switch (reg) {
	case ETE_TRCPRGCTLR:
	case ETE_TRCCLAIMSET:
	case ETE_TRCCLAIMCLR:
	/* management registers of the external view, not trace registers */
	case ETE_TRCOSLAR:
	case ETE_TRCPDCR:
	case ETE_TRCLAR:
		return true;
	default:
		return !ETE_REG_IS_TRC(reg);
	}
}

static void em_write_prgctlr(struct em_unit *u, u64 val, bool mmio)
{
	u64 *en = &u->trc[ETE_TRCPRGCTLR / 4];

	/* RMDZDN: changing EN outside Idle and Running; the write is ignored */
	if ((*en ^ val) & EM_PRGCTLR_EN &&
	    u->state != EM_IDLE && u->state != EM_RUNNING &&
	    em_flag(u, EM_RMDZDN, ETE_TRCPRGCTLR, val, true))
		return;
	/*
	 * A fresh enable, not a restore (which writes EN under the OS
	 * Lock): a state kept from an earlier power-down is nobody's now.
	 */
	if (!(*en & EM_PRGCTLR_EN) && (val & EM_PRGCTLR_EN) && !u->oslk) {
		u->pm.snap_valid = false;
		u->pm.relock = false;
	}
	*en = val & EM_PRGCTLR_EN;
	/* RKNQWS: a direct write takes effect at the next CSE */
	if (mmio)
		em_apply_enable(u);
	else
		u->csync_pending = true;
}

static void em_store(struct em_unit *u, const struct ete_reg_desc *d,
		     u32 reg, u64 val, u64 wmask, bool mmio)
{
	/* the trace unit's own registers; the system registers have none */
	u64 *r = reg / 4 < ARRAY_SIZE(u->trc) ? &u->trc[reg / 4] : NULL;

	switch (d->id) {
	case ETE_TRCPRGCTLR:
		em_write_prgctlr(u, val, mmio);
		break;
	case ETE_TRCCLAIMSET:
		/* an external debugger claiming at the same time */
		if (u->claim_race) {
			u->trc[ETE_TRCCLAIMCLR / 4] |= EM_CLAIM_EXTERNAL;
			u->claim_race = false;
		}
		u->trc[ETE_TRCCLAIMCLR / 4] |= val & wmask;
		break;
	case ETE_TRCCLAIMCLR:
		if (r)
			*r &= ~(val & wmask);
		break;
	case ETE_TRCOSLAR:
	case ETE_OSLAR_EL1:
		em_set_oslk(u, val & BIT(0), mmio);
		break;
	case ETE_TRCLAR:
		u->swlock = val != EM_LAR_KEY;
		break;
	case ETE_TRCPDCR:
		u->pdcr = val & wmask;
		break;
	case ETE_TRBLIMITR_EL1 ... ETE_TRBIDR_EL1:
		em_trbe_write(u, reg, val);
		break;
	case ETE_TRFCR_EL1:
		u->trfcr = val & wmask;
		break;
	case ETE_TRCCNTVR:
		*r = val & wmask;
		u->cnt_vis[(reg - ETE_TRCCNTVR) / 4] = *r;
		break;
	default:
		/* read-only fields (TRCSSCSR<n>.INST...) keep their value */
		if (r)
			*r = (*r & ~wmask) | (val & wmask);
		break;
	}
}

/**
 * em_unit_write() - a write of @val to register @reg
 * @u: the unit
 * @reg: register id
 * @val: the value
 * @mmio: through the external-debug view (else system instructions)
 *
 * Context: the unit's lock held.
 */
void em_unit_write(struct em_unit *u, u32 reg, u64 val, bool mmio)
{
	const struct ete_reg_desc *d;
	unsigned int idx;
	u64 wmask;
	int rc;

	d = em_lookup(u, reg, mmio, true, val, &idx);
	if (!d)
		return;
	/* RSVSNR: writing a read-only register is Reserved */
	if (d->flags & ETE_RF_RO) {
		em_flag(u, EM_RSVSNR, reg, val, true);
		return;
	}
	if (mmio && u->swlock && reg != ETE_TRCLAR &&
	    em_flag(u, EM_SWLOCK, reg, val, true))
		return;
	u->writes++;
	if (reg / 4 < EM_NR_REG_SLOTS)
		u->reg_writes[reg / 4]++;
	/* RRWYQD: only TRCPRGCTLR and the claim tags outside Idle */
	if (!em_write_any_state(reg) && u->state != EM_IDLE &&
	    em_flag(u, EM_RRWYQD, reg, val, true))
		return;
	/*
	 * IKWCGH: an enable written through system instructions (EN set, or
	 * the OS Lock cleared with EN set) takes effect at the next context
	 * synchronization event, and the unit may leave Idle at any time
	 * before it: a write in between may land outside Idle (RRWYQD).
	 */
	if (!em_write_any_state(reg) && u->csync_pending && em_enabled(u) &&
	    u->state == EM_IDLE && em_flag(u, EM_IKWCGH, reg, val, true))
		return;
	rc = em_reg_check(u->prof, d->id, idx, val, &wmask);
	if (rc)
		em_flag(u, rc, reg, val, true);
	em_store(u, d, reg, val, wmask, mmio);
}

/**
 * em_unit_sync() - a barrier on the unit's PE
 * @u: the unit
 * @what: ISB, DSB or TSB CSYNC
 *
 * Context: the unit's lock held.
 */
void em_unit_sync(struct em_unit *u, enum ete_sync what)
{
	switch (what) {
	case ETE_SYNC_ISB:
		/* a context synchronization event */
		if (u->csync_pending)
			em_apply_enable(u);
		/* RWZQWC: taken while Idle or Stable, the counters are seen */
		if (u->cnt_unsync &&
		    (u->state == EM_IDLE || u->state == EM_STABLE))
			em_cnt_sync(u);
		u->csync_pending = false;
		u->statr_unsync = false;
		u->tsb_unsync = false;
		u->trbe_unsync = false;
		u->trfcr_eff = u->trfcr;
		em_unit_check_sink(u);
		break;
	case ETE_SYNC_TSB:
		/* RJLRQH: a flush only inside a trace-prohibited region */
		if (!em_unit_prohibited(u) &&
		    em_flag(u, EM_RJLRQH, 0, what, false))
			break;
		em_fifo_flush(u);
		em_gen_flush_to_limit(u);
		em_trbe_flush(u);
		u->tsb_unsync = true;
		break;
	case ETE_SYNC_DSB:
		/*
		 * The TRBE's writes are complete (004 section 4: TSB CSYNC
		 * with a DSB); the model makes them at once, and only
		 * tracks whether one was made since (EM_TRBE_UNFLUSHED).
		 */
		u->mem_pending = false;
		break;
	}
}
