// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding of the ETE ID registers into struct ete_caps.  Pure: no register
 * access, no side effect; KUnit feeds it ID images directly.
 */

#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ete/caps.h>
#include <ete/regs.h>

#define TRCIDR0_TRCBB		BIT(5)
#define TRCIDR0_TRCCCI		BIT(7)
#define TRCIDR0_RETSTACK	BIT(9)
#define TRCIDR0_NUMEVENT	GENMASK(11, 10)
#define TRCIDR0_QFILT		BIT(14)
#define TRCIDR0_QSUPP		GENMASK(16, 15)
#define TRCIDR0_TSSIZE		GENMASK(28, 24)
#define TRCIDR2_CIDSIZE		GENMASK(9, 5)
#define TRCIDR2_VMIDSIZE	GENMASK(14, 10)
#define TRCIDR2_CCSIZE		GENMASK(28, 25)
#define TRCIDR2_VMIDOPT		GENMASK(30, 29)
#define TRCIDR3_CCITMIN		GENMASK(11, 0)
#define TRCIDR3_EXLEVEL_S	GENMASK(19, 16)
#define TRCIDR3_EXLEVEL_NS	GENMASK(23, 20)
#define TRCIDR3_TRCERR		BIT(24)
#define TRCIDR3_SYNCPR		BIT(25)
#define TRCIDR3_STALLCTL	BIT(26)
#define TRCIDR3_SYSSTALL	BIT(27)
#define TRCIDR3_NOOVERFLOW	BIT(31)
#define TRCIDR4_NUMACPAIRS	GENMASK(3, 0)
#define TRCIDR4_NUMPC		GENMASK(15, 12)
#define TRCIDR4_NUMRSPAIR	GENMASK(19, 16)
#define TRCIDR4_NUMSSCC		GENMASK(23, 20)
#define TRCIDR4_NUMCIDC		GENMASK(27, 24)
#define TRCIDR4_NUMVMIDC	GENMASK(31, 28)
#define TRCIDR5_NUMEXTIN	GENMASK(8, 0)
#define TRCIDR5_NUMEXTINSEL	GENMASK(11, 9)
#define TRCIDR5_TRACEIDSIZE	GENMASK(21, 16)
#define TRCIDR5_ATBTRIG		BIT(22)
#define TRCIDR5_LPOVERRIDE	BIT(23)
#define TRCIDR5_NUMSEQSTATE	GENMASK(27, 25)
#define TRCIDR5_NUMCNTR		GENMASK(30, 28)

/* TRCIDR0.TSSIZE encodings */
#define TSSIZE_NONE		0x0
#define TSSIZE_48		0x6
#define TSSIZE_64		0x8

static int ete_decode_ts(u32 tssize)
{
	switch (tssize) {
	case TSSIZE_NONE:
		return 0;
	case TSSIZE_48:
		return 48;
	case TSSIZE_64:
		return 64;
	default:
		return -EINVAL;
	}
}

/* TRCIDR2.VMIDSIZE: 0 none, 1 8 bits, 2 16 bits, 4 32 bits */
static int ete_decode_vmid(u32 vmidsize)
{
	switch (vmidsize) {
	case 0:
	case 1:
	case 2:
	case 4:
		return vmidsize * 8;
	default:
		return -EINVAL;
	}
}

static void ete_decode_idr0_2(const u32 *idr, struct ete_caps *caps)
{
	caps->branch_broadcast = idr[0] & TRCIDR0_TRCBB;
	caps->cycle_count = idr[0] & TRCIDR0_TRCCCI;
	caps->retstack = idr[0] & TRCIDR0_RETSTACK;
	caps->num_events = FIELD_GET(TRCIDR0_NUMEVENT, idr[0]) + 1;
	caps->qfilt = idr[0] & TRCIDR0_QFILT;
	caps->qsupp = FIELD_GET(TRCIDR0_QSUPP, idr[0]);

	caps->cid_bits = FIELD_GET(TRCIDR2_CIDSIZE, idr[2]) * 8;
	caps->cc_bits = FIELD_GET(TRCIDR2_CCSIZE, idr[2]) + 12;
	caps->vmidopt = FIELD_GET(TRCIDR2_VMIDOPT, idr[2]) != 0;
}

static void ete_decode_idr3_5(const u32 *idr, struct ete_caps *caps)
{
	u32 rspair = FIELD_GET(TRCIDR4_NUMRSPAIR, idr[4]);

	caps->ccitmin = FIELD_GET(TRCIDR3_CCITMIN, idr[3]);
	caps->exlevel_s = FIELD_GET(TRCIDR3_EXLEVEL_S, idr[3]);
	caps->exlevel_ns = FIELD_GET(TRCIDR3_EXLEVEL_NS, idr[3]);
	caps->trcerr = idr[3] & TRCIDR3_TRCERR;
	caps->syncpr_ro = idr[3] & TRCIDR3_SYNCPR;
	caps->stallctl = idr[3] & TRCIDR3_STALLCTL;
	caps->sysstall = idr[3] & TRCIDR3_SYSSTALL;
	caps->nooverflow = idr[3] & TRCIDR3_NOOVERFLOW;

	caps->num_arc = FIELD_GET(TRCIDR4_NUMACPAIRS, idr[4]);
	caps->num_ac = 2 * caps->num_arc;
	caps->num_pc = FIELD_GET(TRCIDR4_NUMPC, idr[4]);
	/* ITQVKS: NUMRSPAIR + 1 pairs, the first being the fixed 0/1 pair */
	caps->num_rs = 2 * (rspair + 1);
	caps->num_ss = FIELD_GET(TRCIDR4_NUMSSCC, idr[4]);
	caps->num_cidc = FIELD_GET(TRCIDR4_NUMCIDC, idr[4]);
	caps->num_vmidc = FIELD_GET(TRCIDR4_NUMVMIDC, idr[4]);

	caps->num_extin = FIELD_GET(TRCIDR5_NUMEXTIN, idr[5]);
	caps->num_extinsel = FIELD_GET(TRCIDR5_NUMEXTINSEL, idr[5]);
	caps->traceid_bits = FIELD_GET(TRCIDR5_TRACEIDSIZE, idr[5]);
	caps->atbtrig = idr[5] & TRCIDR5_ATBTRIG;
	caps->lpoverride = idr[5] & TRCIDR5_LPOVERRIDE;
	caps->num_seq_states = FIELD_GET(TRCIDR5_NUMSEQSTATE, idr[5]);
	caps->num_cntr = FIELD_GET(TRCIDR5_NUMCNTR, idr[5]);
}

/* Values the architecture does not allow for an ETE */
static bool ete_caps_consistent(const struct ete_caps *caps)
{
	return caps->num_arc <= ETE_MAX_ARC &&
	       caps->num_pc <= 8 &&
	       caps->num_rs <= ETE_MAX_RS &&
	       caps->num_ss <= ETE_MAX_SS &&
	       caps->num_cidc <= ETE_MAX_CIDC &&
	       caps->num_vmidc <= ETE_MAX_VMIDC &&
	       caps->num_extinsel <= ETE_MAX_EXTINSEL &&
	       caps->num_cntr <= ETE_MAX_CNTR &&
	       (caps->num_seq_states == 0 ||
		caps->num_seq_states == ETE_MAX_SEQ_STATES) &&
	       caps->cc_bits <= 20 &&
	       caps->traceid_bits <= 7;
}

/**
 * ete_caps_decode() - decode the ID registers of a trace unit
 * @idr: TRCIDR0..TRCIDR13, indexed by register number
 * @devarch: TRCDEVARCH
 * @caps: filled on success (zeroed on failure)
 *
 * Context: any context; pure.
 * Return:
 * * 0 on success
 * * -ENODEV if TRCDEVARCH does not describe an ETE
 * * -EINVAL if an ID field holds a value the architecture does not allow
 */
int ete_caps_decode(const u32 *idr, u32 devarch, struct ete_caps *caps)
{
	int ts, vmid;

	memset(caps, 0, sizeof(*caps));
	if ((devarch & ETE_DEVARCH_MASK) != ETE_DEVARCH_ETE)
		return -ENODEV;

	ts = ete_decode_ts(FIELD_GET(TRCIDR0_TSSIZE, idr[0]));
	vmid = ete_decode_vmid(FIELD_GET(TRCIDR2_VMIDSIZE, idr[2]));
	if (ts < 0 || vmid < 0)
		return -EINVAL;

	memcpy(caps->idr, idr, sizeof(caps->idr));
	caps->idr[6] = 0;
	caps->idr[7] = 0;
	caps->devarch = devarch;
	caps->revision = ETE_DEVARCH_REVISION(devarch);
	caps->ts_bits = ts;
	caps->vmid_bits = vmid;
	caps->maxspec = idr[8];
	ete_decode_idr0_2(idr, caps);
	ete_decode_idr3_5(idr, caps);

	if (!ete_caps_consistent(caps)) {
		memset(caps, 0, sizeof(*caps));
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_caps_decode);
