// SPDX-License-Identifier: GPL-2.0
/*
 * Implementation profiles of the model and the rules a register value must
 * follow: which registers a profile implements, which bits a write may set
 * (everything else is RES0) and which field values the ID registers allow.
 * Pure functions, tested by ete_model_kunit.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <asm/virt.h>

#include "model.h"

/* ------------------------------------------------------------------ */
/* Profiles                                                           */
/* ------------------------------------------------------------------ */

#define EM_IDR1_ETE		0x4100fff0	/* DESIGNER Arm, ARCH 0xF: see DEVARCH */
#define EM_DEVARCH_ETE		0x47705a13	/* ARCHITECT Arm, PRESENT, ETE v1.0 */

static const struct em_profile em_profiles[] = {
	{
		/*
		 * Rich: 8 address comparator pairs, 4 counters, 4 sequencer
		 * states, 8 single-shot comparators, 16 resource selector
		 * pairs counting the fixed pair (RQDJVV), 4 PE comparator
		 * inputs, 8 CID and 8 VMID comparators, return stack, Q,
		 * branch broadcast, cycle counting with CCSIZE 20, 64-bit
		 * timestamps, stall and no-overflow.
		 */
		.name = "rich",
		.idr = {
			[0] = 0x0801cea1,
			[1] = EM_IDR1_ETE,
			[2] = 0xd0001088,
			[3] = 0x8d7b0004,
			[4] = 0x888f4008,
			[5] = 0x48c70820,
		},
		.devarch = EM_DEVARCH_ETE,
		.trbidr = 0x26,		/* F, 64-byte alignment */
		.claim_bits = 4,
	},
	{
		/*
		 * Minimal: one ETEEvent, no comparators, counters, sequencer
		 * or single-shot controls, one programmable selector pair,
		 * no optional trace features, byte-aligned TRBE.
		 */
		.name = "minimal",
		.idr = {
			[0] = 0x00000001,
			[1] = EM_IDR1_ETE,
			[2] = 0x00000088,
			[3] = 0x00700000,
			[4] = 0x00010000,
			[5] = 0x00070000,
		},
		.devarch = EM_DEVARCH_ETE,
		.trbidr = 0x20,		/* F, byte alignment */
		.claim_bits = 4,
	},
};

/**
 * em_profile_find() - look up a profile by name
 * @name: "rich" or "minimal"
 *
 * Context: any.
 * Return: the profile, or NULL if there is none of that name.
 */
const struct em_profile *em_profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(em_profiles); i++)
		if (sysfs_streq(name, em_profiles[i].name))
			return &em_profiles[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(em_profile_find);

/* ------------------------------------------------------------------ */
/* The register table                                                 */
/* ------------------------------------------------------------------ */

static const struct ete_reg_desc em_regs[] = {
#define ETE_REG(name, count, stride, flags) \
	{ #name, ETE_##name, count, stride, flags },
#include <ete/regs-table.h>
#undef ETE_REG
};

/**
 * em_reg_find() - find the row of a register id
 * @id: register id (MMIO offset or system register id)
 * @idx: set to the instance number of an indexed register
 *
 * Context: any.
 * Return: the row, or NULL if @id names no register of the table.
 */
const struct ete_reg_desc *em_reg_find(u32 id, unsigned int *idx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(em_regs); i++) {
		const struct ete_reg_desc *d = &em_regs[i];
		u32 off;

		if (id < d->id)
			continue;
		off = id - d->id;
		if (d->count == 1 ? off : (off % d->stride ||
					   off / d->stride >= d->count))
			continue;
		*idx = d->count == 1 ? 0 : off / d->stride;
		return d;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(em_reg_find);

static unsigned int idr_field(const struct em_profile *p, int n, u32 mask)
{
	return (p->idr[n] & mask) >> __ffs(mask);
}

/* The n lowest bits: n may be 0, where GENMASK(n - 1, 0) would not do */
static u64 lowbits(unsigned int n)
{
	return n ? GENMASK_ULL(n - 1, 0) : 0;
}

static unsigned int nr_rs_pairs(const struct em_profile *p)
{
	return idr_field(p, 4, EM_IDR4_NUMRSPAIR) + 1;
}

/**
 * em_reg_implemented() - does a profile implement this register instance
 * @p: the profile
 * @d: the register's row
 * @idx: the instance
 *
 * Context: any.
 * Return: true if the ID registers of @p say the instance exists.
 */
bool em_reg_implemented(const struct em_profile *p,
			const struct ete_reg_desc *d, unsigned int idx)
{
	unsigned int ac = idr_field(p, 4, EM_IDR4_NUMACPAIRS);
	unsigned int cidc = idr_field(p, 4, EM_IDR4_NUMCIDC);
	unsigned int vmidc = idr_field(p, 4, EM_IDR4_NUMVMIDC);
	unsigned int sscc = idr_field(p, 4, EM_IDR4_NUMSSCC);
	unsigned int npc = idr_field(p, 4, EM_IDR4_NUMPC);

	switch (d->id) {
	case ETE_TRCSTALLCTLR:
		return p->idr[3] & EM_IDR3_STALLCTL;
	case ETE_TRCTSCTLR:
		return idr_field(p, 0, EM_IDR0_TSSIZE);
	case ETE_TRCCCCTLR:
		return p->idr[0] & EM_IDR0_TRCCCI;
	case ETE_TRCBBCTLR:
		return p->idr[0] & EM_IDR0_TRCBB;
	case ETE_TRCQCTLR:
		return p->idr[0] & EM_IDR0_QFILT;
	case ETE_TRCVIIECTLR:
	case ETE_TRCVISSCTLR:
		return ac;
	case ETE_TRCVIPCSSCTLR:
		return npc;
	case ETE_TRCSEQEVR:
	case ETE_TRCSEQRSTEVR:
	case ETE_TRCSEQSTR:
		return idr_field(p, 5, EM_IDR5_NUMSEQSTATE);
	case ETE_TRCEXTINSELR:
		return idx < idr_field(p, 5, EM_IDR5_NUMEXTINSEL);
	case ETE_TRCCNTRLDVR:
	case ETE_TRCCNTCTLR:
	case ETE_TRCCNTVR:
		return idx < idr_field(p, 5, EM_IDR5_NUMCNTR);
	case ETE_TRCRSCTLR:
		/* selectors 0 and 1 are fixed and have no register */
		return idx >= 2 && idx < 2 * nr_rs_pairs(p);
	case ETE_TRCSSCCR:
	case ETE_TRCSSCSR:
		return idx < sscc;
	case ETE_TRCSSPCICR:
		return idx < sscc && npc;
	case ETE_TRCACVR:
	case ETE_TRCACATR:
		return idx < 2 * ac;
	case ETE_TRCCIDCVR:
		return idx < cidc;
	case ETE_TRCVMIDCVR:
		return idx < vmidc;
	case ETE_TRCCIDCCTLR0:
		return cidc;
	case ETE_TRCCIDCCTLR1:
		return cidc > 4;
	case ETE_TRCVMIDCCTLR0:
		return vmidc;
	case ETE_TRCVMIDCCTLR1:
		return vmidc > 4;
	default:
		return true;
	}
}
EXPORT_SYMBOL_IF_KUNIT(em_reg_implemented);

/* ------------------------------------------------------------------ */
/* Writable bits                                                      */
/* ------------------------------------------------------------------ */

#define EM_EVENT_MASK		(BIT(7) | GENMASK(4, 0))	/* TYPE, SEL */

static u64 configr_wmask(const struct em_profile *p)
{
	u64 m = BIT(0);		/* RES1 */

	if (p->idr[0] & EM_IDR0_TRCBB)
		m |= BIT(3);
	if (p->idr[0] & EM_IDR0_TRCCCI)
		m |= BIT(4);
	if (idr_field(p, 2, EM_IDR2_CIDSIZE))
		m |= BIT(6);
	if (idr_field(p, 2, EM_IDR2_VMIDSIZE))
		m |= BIT(7);
	if (idr_field(p, 0, EM_IDR0_TSSIZE))
		m |= BIT(11);
	if (p->idr[0] & EM_IDR0_RETSTACK)
		m |= BIT(12);
	if (idr_field(p, 0, EM_IDR0_QSUPP))
		m |= GENMASK(14, 13);
	if (idr_field(p, 2, EM_IDR2_VMIDOPT))
		m |= BIT(15);
	return m;
}

static u64 events_wmask(unsigned int nevents, unsigned int width)
{
	u64 m = 0;
	unsigned int i;

	for (i = 0; i < nevents; i++)
		m |= (u64)EM_EVENT_MASK << (i * width);
	return m;
}

static u64 victlr_wmask(const struct em_profile *p)
{
	u64 m = EM_EVENT_MASK | BIT(9) | BIT(10);

	if (p->idr[3] & EM_IDR3_TRCERR)
		m |= BIT(11);
	m |= (u64)idr_field(p, 3, EM_IDR3_EXLEVEL_S) << 16;
	m |= (u64)(idr_field(p, 3, EM_IDR3_EXLEVEL_NS) & 0x7) << 20;
	return m;
}

static u64 acatr_wmask(const struct em_profile *p)
{
	u64 m = 0;

	if (idr_field(p, 4, EM_IDR4_NUMCIDC) || idr_field(p, 4, EM_IDR4_NUMVMIDC))
		m |= GENMASK(6, 2);
	m |= (u64)idr_field(p, 3, EM_IDR3_EXLEVEL_S) << 8;
	m |= (u64)(idr_field(p, 3, EM_IDR3_EXLEVEL_NS) & 0x7) << 12;
	return m;
}

static u64 cmp_ctl_wmask(unsigned int ncmp, unsigned int first)
{
	u64 m = 0;
	unsigned int i;

	for (i = first; i < ncmp && i < first + 4; i++)
		m |= GENMASK(3, 0) << ((i - first) * 8);
	return m;
}

static u64 em_trc_wmask(const struct em_profile *p, u32 reg, unsigned int idx)
{
	unsigned int ac = idr_field(p, 4, EM_IDR4_NUMACPAIRS);
	unsigned int npc = idr_field(p, 4, EM_IDR4_NUMPC);
	unsigned int nev = idr_field(p, 0, EM_IDR0_NUMEVENT) + 1;

	switch (reg) {
	case ETE_TRCPRGCTLR:
		return EM_PRGCTLR_EN;
	case ETE_TRCCONFIGR:
		return configr_wmask(p);
	case ETE_TRCAUXCTLR:
		return 0;	/* no IMPLEMENTATION DEFINED controls */
	case ETE_TRCEVENTCTL0R:
		return events_wmask(nev, 8);
	case ETE_TRCEVENTCTL1R:
		return lowbits(nev) |
		       (p->idr[5] & EM_IDR5_ATBTRIG ? BIT(11) : 0) |
		       (p->idr[5] & EM_IDR5_LPOVERRIDE ? BIT(12) : 0);
	case ETE_TRCRSR:
		return BIT(12) | lowbits(nev) |
		       ((u64)GENMASK(3, 0) << 16);
	case ETE_TRCSTALLCTLR:
		return BIT(8) | GENMASK(3, 2) |
		       (p->idr[3] & EM_IDR3_NOOVERFLOW ? BIT(13) : 0);
	case ETE_TRCTSCTLR:
	case ETE_TRCSEQRSTEVR:
		return EM_EVENT_MASK;
	case ETE_TRCSYNCPR:
		return GENMASK(4, 0);
	case ETE_TRCCCCTLR:
		return GENMASK(11, 0);
	case ETE_TRCBBCTLR:
	case ETE_TRCQCTLR:
		return BIT(8) | lowbits(ac);
	case ETE_TRCTRACEIDR:
		return GENMASK(6, 0);
	case ETE_TRCVICTLR:
		return victlr_wmask(p);
	case ETE_TRCVIIECTLR:
		return lowbits(ac) | (lowbits(ac) << 16);
	case ETE_TRCVISSCTLR:
		return lowbits(2 * ac) | (lowbits(2 * ac) << 16);
	case ETE_TRCVIPCSSCTLR:
		return lowbits(npc) | (lowbits(npc) << 16);
	case ETE_TRCSEQEVR:
		return events_wmask(2, 8);
	case ETE_TRCSEQSTR:
		return GENMASK(1, 0);
	case ETE_TRCEXTINSELR:
	case ETE_TRCCNTRLDVR:
	case ETE_TRCCNTVR:
		return GENMASK(15, 0);
	case ETE_TRCCNTCTLR:
		return events_wmask(2, 8) | BIT(16) | (idx & 1 ? BIT(17) : 0);
	case ETE_TRCRSCTLR:
		return GENMASK(20, 0) | (idx & 1 ? 0 : BIT(21));
	case ETE_TRCSSCCR:
		return (lowbits(2 * ac) | lowbits(ac) << 16) |
		       BIT(24);
	case ETE_TRCSSCSR:
		return BIT(31) | BIT(30);
	case ETE_TRCSSPCICR:
		return lowbits(npc);
	case ETE_TRCACVR:
		return GENMASK_ULL(63, 0);
	case ETE_TRCACATR:
		return acatr_wmask(p);
	case ETE_TRCCIDCVR:
	case ETE_TRCVMIDCVR:
		return GENMASK(31, 0);
	case ETE_TRCCIDCCTLR0:
	case ETE_TRCCIDCCTLR1:
		return cmp_ctl_wmask(idr_field(p, 4, EM_IDR4_NUMCIDC),
				     reg == ETE_TRCCIDCCTLR1 ? 4 : 0);
	case ETE_TRCVMIDCCTLR0:
	case ETE_TRCVMIDCCTLR1:
		return cmp_ctl_wmask(idr_field(p, 4, EM_IDR4_NUMVMIDC),
				     reg == ETE_TRCVMIDCCTLR1 ? 4 : 0);
	case ETE_TRCCLAIMSET:
	case ETE_TRCCLAIMCLR:
		return lowbits(p->claim_bits);
	case ETE_TRCOSLAR:
		return BIT(0);
	case ETE_TRCPDCR:
		return BIT(3);
	case ETE_TRCLAR:
		return GENMASK(31, 0);
	default:
		return 0;	/* TRCITCTRL: integration mode not implemented */
	}
}

/**
 * em_reg_wmask() - the bits of a register that a write may set
 * @p: the profile
 * @reg: register id (instance 0 of an indexed register)
 * @idx: the instance
 *
 * Bits outside the mask are RES0 for this profile (fields of features the
 * ID registers say are absent are RES0 too).  TRCCONFIGR bit 0 is RES1 and
 * is part of the mask.
 *
 * Context: any.
 * Return: the mask.
 */
u64 em_reg_wmask(const struct em_profile *p, u32 reg, unsigned int idx)
{
	switch (reg) {
	case ETE_TRBLIMITR_EL1:
		return EM_TRBLIMITR_LIMIT | EM_TRBLIMITR_NVM |
		       EM_TRBLIMITR_TM | EM_TRBLIMITR_FM | EM_TRBLIMITR_E;
	case ETE_TRBPTR_EL1:
		return GENMASK_ULL(63, 0);
	case ETE_TRBBASER_EL1:
		return EM_TRBBASER_BASE;
	case ETE_TRBSR_EL1:
		return EM_TRBSR_EC | EM_TRBSR_IRQ | EM_TRBSR_TRG |
		       EM_TRBSR_WRAP | EM_TRBSR_EA | EM_TRBSR_S | EM_TRBSR_MSS;
	case ETE_TRBMAR_EL1:
		return GENMASK(11, 0);
	case ETE_TRBTRG_EL1:
		return GENMASK(31, 0);
	case ETE_TRFCR_EL1:
		/* TRFCR_EL2 under VHE: E0HTRE, E2TRE, CX, TS */
		return EM_TRFCR_E0TRE | EM_TRFCR_ExTRE | GENMASK(6, 5) |
		       (is_kernel_in_hyp_mode() ? BIT(3) : 0);
	case ETE_OSLAR_EL1:
		return BIT(0);
	default:
		return ETE_REG_IS_TRC(reg) ? em_trc_wmask(p, reg, idx) : 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(em_reg_wmask);

/* ------------------------------------------------------------------ */
/* Field values the ID registers allow                                */
/* ------------------------------------------------------------------ */

static bool event_ok(const struct em_profile *p, u64 ev)
{
	unsigned int sel = ev & GENMASK(4, 0);

	if (ev & BIT(7))
		return sel < nr_rs_pairs(p);
	return sel < 2 * nr_rs_pairs(p);
}

static bool events_ok(const struct em_profile *p, u64 val, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!event_ok(p, (val >> (8 * i)) & 0xff))
			return false;
	return true;
}

/* Resource groups of TRCRSCTLR<n>.GROUP and how many resources each has */
static bool rsctlr_ok(const struct em_profile *p, u64 val)
{
	unsigned int group = FIELD_GET(GENMASK(19, 16), val);
	unsigned int select = FIELD_GET(GENMASK(15, 0), val);
	unsigned int n;

	switch (group) {
	case 0:
		n = idr_field(p, 5, EM_IDR5_NUMEXTINSEL);
		break;
	case 1:
		n = idr_field(p, 4, EM_IDR4_NUMPC);
		break;
	case 2:	/* counters at zero [3:0], sequencer states [7:4] */
		return !(select & ~(lowbits(idr_field(p, 5, EM_IDR5_NUMCNTR)) |
				    (idr_field(p, 5, EM_IDR5_NUMSEQSTATE) ?
				     GENMASK(7, 4) : 0)));
	case 3:
		n = idr_field(p, 4, EM_IDR4_NUMSSCC);
		break;
	case 4:
		n = 2 * idr_field(p, 4, EM_IDR4_NUMACPAIRS);
		break;
	case 5:
		n = idr_field(p, 4, EM_IDR4_NUMACPAIRS);
		break;
	case 6:
		n = idr_field(p, 4, EM_IDR4_NUMCIDC);
		break;
	case 7:
		n = idr_field(p, 4, EM_IDR4_NUMVMIDC);
		break;
	default:
		return false;	/* reserved groups */
	}
	return !(select >> n);
}

static bool acatr_ok(const struct em_profile *p, u64 val)
{
	unsigned int type = FIELD_GET(GENMASK(3, 2), val);
	unsigned int ctx = FIELD_GET(GENMASK(6, 4), val);

	if ((type & 1) && ctx >= idr_field(p, 4, EM_IDR4_NUMCIDC))
		return false;
	if ((type & 2) && ctx >= idr_field(p, 4, EM_IDR4_NUMVMIDC))
		return false;
	return true;
}

static bool trc_value_ok(const struct em_profile *p, u32 reg, u64 val)
{
	unsigned int nev = idr_field(p, 0, EM_IDR0_NUMEVENT) + 1;

	switch (reg) {
	case ETE_TRCCONFIGR:
		return FIELD_GET(GENMASK(14, 13), val) != 2 &&
		       (FIELD_GET(GENMASK(14, 13), val) <=
			idr_field(p, 0, EM_IDR0_QSUPP) ||
			idr_field(p, 0, EM_IDR0_QSUPP) == 3);
	case ETE_TRCEVENTCTL0R:
		return events_ok(p, val, nev);
	case ETE_TRCTSCTLR:
	case ETE_TRCSEQRSTEVR:
	case ETE_TRCVICTLR:
		return event_ok(p, val & 0xff);
	case ETE_TRCSEQEVR:
	case ETE_TRCCNTCTLR:
		return events_ok(p, val, 2);
	case ETE_TRCSYNCPR:
		/* 0 (off) or 2^8 to 2^20 bytes */
		return !val || (val >= 8 && val <= 20);
	case ETE_TRCTRACEIDR:
		/* 0x00 and 0x70-0x7f are reserved trace IDs */
		return val && val < 0x70;
	case ETE_TRCRSCTLR:
		return rsctlr_ok(p, val);
	case ETE_TRCACATR:
		return acatr_ok(p, val);
	case ETE_TRCSEQSTR:
		return val < idr_field(p, 5, EM_IDR5_NUMSEQSTATE);
	default:
		return true;
	}
}

static bool sys_value_ok(const struct em_profile *p, u32 reg, u64 val)
{
	switch (reg) {
	case ETE_TRBLIMITR_EL1:
		/* FM 0b10 and TM 0b10 are reserved */
		return FIELD_GET(EM_TRBLIMITR_FM, val) != 2 &&
		       FIELD_GET(EM_TRBLIMITR_TM, val) != 2;
	case ETE_TRBPTR_EL1:
		return !(val & (BIT_ULL(p->trbidr & EM_TRBIDR_ALIGN) - 1));
	default:
		return true;
	}
}

/**
 * em_reg_check() - check a value written to a register
 * @p: the profile
 * @reg: register id (instance 0 of an indexed register)
 * @idx: the instance
 * @val: the value written
 * @wmask: set to the writable bits, as em_reg_wmask()
 *
 * Context: any.
 * Return: 0 if the value is allowed, %EM_RES0 if it sets a RES0 bit or
 * clears a RES1 bit, %EM_IDRANGE if a field is outside what the ID
 * registers allow (a resource selector beyond TRCIDR4.NUMRSPAIR, a reserved
 * trace ID or synchronization period, a misaligned TRBPTR_EL1...).
 */
int em_reg_check(const struct em_profile *p, u32 reg, unsigned int idx,
		 u64 val, u64 *wmask)
{
	*wmask = em_reg_wmask(p, reg, idx);
	if (reg == ETE_TRCLAR)
		return 0;
	if (val & ~*wmask)
		return EM_RES0;
	if (reg == ETE_TRCCONFIGR && !(val & BIT(0)))
		return EM_RES0;
	if (ETE_REG_IS_TRC(reg) ? !trc_value_ok(p, reg, val) :
	    !sys_value_ok(p, reg, val))
		return EM_IDRANGE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(em_reg_check);

static const char *const em_check_names[EM_NR_CHECKS] = {
	[EM_RRWYQD] = "RRWYQD",
	[EM_RMDZDN] = "RMDZDN",
	[EM_RSVSNR] = "RSVSNR",
	[EM_RWXKDP] = "RWXKDP",
	[EM_UNIMPL] = "UNIMPLEMENTED",
	[EM_RES0] = "RES0",
	[EM_IDRANGE] = "IDRANGE",
	[EM_SHSXGZ] = "SHSXGZ",
	[EM_RJLRQH] = "RJLRQH",
	[EM_OFFCPU] = "OFFCPU",
	[EM_RKYDTQ] = "RKYDTQ",
	[EM_SWLOCK] = "SWLOCK",
	[EM_TRBE_EN] = "TRBE_ENABLED",
	[EM_TRBE_PTR] = "TRBE_POINTERS",
	[EM_TRBE_ORDER] = "TRBE_ORDER",
	[EM_RVTNCS] = "TRBE_UNSYNCED",
	[EM_EXTPD] = "EXT_POWERED_DOWN",
	[EM_IKWCGH] = "IKWCGH",
	[EM_EXTOSLK] = "EXT_OS_LOCKED",
	[EM_TRBE_OFF] = "TRBE_OFF",
	[EM_TRBE_UNFLUSHED] = "TRBE_UNFLUSHED",
	[EM_TRBE_ENSYNC] = "TRBE_ENABLE_UNSYNCED",
};

/**
 * em_check_name() - the log tag of a check
 * @c: the check
 *
 * Context: any.
 * Return: a constant string.
 */
const char *em_check_name(enum ete_model_check c)
{
	return c < EM_NR_CHECKS ? em_check_names[c] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(em_check_name);

static const char *const em_state_names[] = {
	[EM_IDLE] = "Idle",
	[EM_ENABLING] = "Enabling",
	[EM_RUNNING] = "Running",
	[EM_UNSTABLE] = "Unstable",
	[EM_STABLE] = "Stable",
};

/**
 * em_state_name() - the name of a programming state
 * @s: the state
 *
 * Context: any.
 * Return: a constant string.
 */
const char *em_state_name(enum ete_model_state s)
{
	return s <= EM_STABLE ? em_state_names[s] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(em_state_name);
