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

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

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

/*
 * What the unit looks at, decoded from register values (the register
 * layouts of profile.c): the event selectors of TRCVICTLR, TRCEVENTCTL0R
 * and TRCTSCTLR, the comparators of ViewInst include/exclude and
 * start/stop, of branch broadcast and Q filtering when those are on, and
 * the closure of what those name (Table D4-26 for the selectors, G.17a
 * for chained counters, G.12 for ranges, TRCACATR.CONTEXTTYPE).
 */
struct em_refs {
	u32 rs;
	u16 sac;
	u8 cidc;
	u8 vmidc;
	u8 cntr;
	u8 ss;
	u8 extin;
	bool seq;
};

static void em_refs_event(struct em_refs *r, u64 ev)
{
	ev &= 0xff;
	r->rs |= ((ev & BIT(7)) ? 3U << (2 * (ev & 0xf)) : BIT(ev & 0x1f)) &
		 ~3U;
}

static u16 em_refs_arcs(u64 arcs)
{
	u16 sac = 0;
	unsigned int k;

	for (k = 0; k < 8; k++)
		if (arcs & BIT(k))
			sac |= 3U << (2 * k);
	return sac;
}

static void em_refs_step(const u64 *trc, struct em_refs *r)
{
	unsigned int i;

	for (i = 2; i < 32; i++) {
		u64 v = trc[ETE_TRCRSCTLR_N(i) / 4];
		u32 sel = v & 0xffff;

		if (!(r->rs & BIT(i)))
			continue;
		switch ((v >> 16) & 0xf) {
		case 0:
			r->extin |= sel;
			break;
		case 2:
			r->cntr |= sel & 0xf;
			r->seq |= !!(sel & 0xf0);
			break;
		case 3:
			r->ss |= sel;
			break;
		case 4:
			r->sac |= sel;
			break;
		case 5:
			r->sac |= em_refs_arcs(sel);
			break;
		case 6:
			r->cidc |= sel;
			break;
		case 7:
			r->vmidc |= sel;
			break;
		}
	}
	for (i = 0; i < 4; i++) {
		u64 v = trc[ETE_TRCCNTCTLR_N(i) / 4];

		if (!(r->cntr & BIT(i)))
			continue;
		em_refs_event(r, v);
		em_refs_event(r, v >> 8);
		if ((i & 1) && (v & BIT(17)))
			r->cntr |= BIT(i - 1);
	}
	if (r->seq) {
		for (i = 0; i < 3; i++) {
			em_refs_event(r, trc[ETE_TRCSEQEVR_N(i) / 4]);
			em_refs_event(r, trc[ETE_TRCSEQEVR_N(i) / 4] >> 8);
		}
		em_refs_event(r, trc[ETE_TRCSEQRSTEVR / 4]);
	}
	for (i = 0; i < 8; i++) {
		u64 v = trc[ETE_TRCSSCCR_N(i) / 4];

		if (r->ss & BIT(i))
			r->sac |= (v & 0xffff) | em_refs_arcs(v >> 16);
	}
	for (i = 0; i < 16; i++) {
		u64 v = trc[ETE_TRCACATR_N(i) / 4];
		unsigned int ctx = (v >> 4) & 7;

		if (!(r->sac & BIT(i)))
			continue;
		if (v & BIT(2))
			r->cidc |= BIT(ctx);
		if (v & BIT(3))
			r->vmidc |= BIT(ctx);
	}
}

static void em_refs_of(const struct em_profile *p, const u64 *trc,
		       struct em_refs *r)
{
	unsigned int nev = FIELD_GET(EM_IDR0_NUMEVENT, p->idr[0]) + 1;
	u64 cfg = trc[ETE_TRCCONFIGR / 4];
	struct em_refs prev;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	em_refs_event(r, trc[ETE_TRCVICTLR / 4]);
	for (i = 0; i < nev; i++)
		em_refs_event(r, trc[ETE_TRCEVENTCTL0R / 4] >> (8 * i));
	em_refs_event(r, trc[ETE_TRCTSCTLR / 4]);
	r->sac = em_refs_arcs(trc[ETE_TRCVIIECTLR / 4] |
			      trc[ETE_TRCVIIECTLR / 4] >> 16);
	r->sac |= trc[ETE_TRCVISSCTLR / 4] | trc[ETE_TRCVISSCTLR / 4] >> 16;
	if (cfg & EM_CONFIGR_BB)
		r->sac |= em_refs_arcs(trc[ETE_TRCBBCTLR / 4]);
	if (FIELD_GET(GENMASK(14, 13), cfg))
		r->sac |= em_refs_arcs(trc[ETE_TRCQCTLR / 4]);
	do {
		prev = *r;
		em_refs_step(trc, r);
	} while (memcmp(&prev, r, sizeof(prev)));
}

/**
 * em_res_used() - the counters and sequencer the unit looks at
 * @u: the unit, its registers programmed
 * @cntr: set to the counters referenced, through the event selectors of
 *	ViewInst, the ETEEvents and the timestamp event and what those name
 * @seq: set to whether the sequencer is
 *
 * Context: the unit's lock held.
 */
void em_res_used(const struct em_unit *u, u8 *cntr, bool *seq)
{
	struct em_refs r;

	em_refs_of(u->prof, u->trc, &r);
	*cntr = r.cntr;
	*seq = r.seq;
}

/* Whether register @i (offset / 4) is one the unit looks at */
static bool em_refs_has(const struct em_refs *r, unsigned int i)
{
	const struct ete_reg_desc *d;
	unsigned int idx;

	d = em_reg_find(i * 4, &idx);
	if (!d)
		return false;
	switch (d->id) {
	case ETE_TRCRSCTLR:
		return r->rs & BIT(idx);
	case ETE_TRCACVR:
	case ETE_TRCACATR:
		return r->sac & BIT(idx);
	case ETE_TRCCIDCVR:
		return r->cidc & BIT(idx);
	case ETE_TRCCIDCCTLR0:
		return r->cidc & 0x0f;
	case ETE_TRCCIDCCTLR1:
		return r->cidc & 0xf0;
	case ETE_TRCVMIDCVR:
		return r->vmidc & BIT(idx);
	case ETE_TRCVMIDCCTLR0:
		return r->vmidc & 0x0f;
	case ETE_TRCVMIDCCTLR1:
		return r->vmidc & 0xf0;
	case ETE_TRCCNTRLDVR:
	case ETE_TRCCNTCTLR:
	case ETE_TRCCNTVR:
		return r->cntr & BIT(idx);
	case ETE_TRCSSCCR:
	case ETE_TRCSSCSR:
	case ETE_TRCSSPCICR:
		return r->ss & BIT(idx);
	case ETE_TRCEXTINSELR:
		return r->extin & BIT(idx);
	case ETE_TRCSEQEVR:
	case ETE_TRCSEQRSTEVR:
	case ETE_TRCSEQSTR:
		return r->seq;
	default:
		/* the control registers, TRCRSR, the claim tags */
		return true;
	}
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
	struct em_refs refs;
	unsigned int i;

	/*
	 * What the unit looked at before the power-down must be back; a
	 * register nothing referenced holds an UNKNOWN value after the
	 * reset (RPCXJC), which the unit never uses.
	 */
	em_refs_of(u->prof, pm->trc, &refs);
	for (i = 0; i < ARRAY_SIZE(u->trc); i++)
		if (em_pm_checked(u, i) && em_refs_has(&refs, i) &&
		    u->trc[i] != pm->trc[i])
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

/*
 * The registers the unit looks at now (the control registers and the
 * resources they reference), "NAME VALUE", no side effect
 */
static int em_live_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;
	struct em_refs refs;
	unsigned long flags;
	unsigned int i;
	u64 *trc;

	trc = kmalloc(sizeof(u->trc), GFP_KERNEL);
	if (!trc)
		return -ENOMEM;
	raw_spin_lock_irqsave(&u->lock, flags);
	memcpy(trc, u->trc, sizeof(u->trc));
	raw_spin_unlock_irqrestore(&u->lock, flags);
	em_refs_of(u->prof, trc, &refs);
	for (i = 0; i < ARRAY_SIZE(u->trc); i++) {
		if (!em_pm_checked(u, i) || !em_refs_has(&refs, i))
			continue;
		em_debugfs_show_reg(s, i * 4);
		seq_printf(s, " %#llx\n", trc[i]);
	}
	kfree(trc);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_live);

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
	debugfs_create_file("live", 0444, dir, u, &em_live_fops);
}
