/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capabilities of an ETE trace unit, decoded once from TRCIDR0-13 and
 * TRCDEVARCH by a pure function.
 */
#ifndef _ETE_CAPS_H
#define _ETE_CAPS_H

#include <linux/bits.h>
#include <linux/types.h>

/* Number of TRCIDR<n> registers, TRCIDR0..TRCIDR13 (6 and 7 do not exist) */
#define ETE_NUM_IDR		14

/* Architectural upper bounds of the resources (Arm ARM D4.6) */
#define ETE_MAX_AC		16	/* single address comparators */
#define ETE_MAX_ARC		8	/* address range comparators */
#define ETE_MAX_CNTR		4
#define ETE_MAX_SEQ_STATES	4
#define ETE_MAX_SS		8
#define ETE_MAX_RS		32	/* resource selectors, 0 and 1 fixed */
#define ETE_MAX_CIDC		8
#define ETE_MAX_VMIDC		8
#define ETE_MAX_EXTINSEL	4
#define ETE_MAX_EVENTS		4

/* TRCDEVARCH of an ETE: ARCHITECT Arm, PRESENT, ARCHVER 5, ARCHPART 0xa13 */
#define ETE_DEVARCH_MASK	0xfff0ffffU
#define ETE_DEVARCH_ETE		0x47705a13U
#define ETE_DEVARCH_REVISION(v)	(((v) >> 16) & 0xf)

/* Exception level bits used by every EL mask of this driver (bit n = ELn) */
#define ETE_EL0			BIT(0)
#define ETE_EL1			BIT(1)
#define ETE_EL2			BIT(2)
#define ETE_EL3			BIT(3)

/**
 * struct ete_caps - what one trace unit implements
 * @idr: the raw TRCIDR<n>, indexed by n (6 and 7 read as zero)
 * @devarch: the raw TRCDEVARCH
 * @revision: TRCDEVARCH.REVISION
 * @retstack: return stack (TRCIDR0.RETSTACK)
 * @cycle_count: cycle counting (TRCIDR0.TRCCCI)
 * @branch_broadcast: branch broadcast (TRCIDR0.TRCBB)
 * @qfilt: Q element filtering, TRCQCTLR (TRCIDR0.QFILT)
 * @qsupp: Q element support (TRCIDR0.QSUPP), 0 = none
 * @num_events: ETEEvents, 1-4 (TRCIDR0.NUMEVENT + 1)
 * @ts_bits: timestamp size in bits, 0 if none (TRCIDR0.TSSIZE)
 * @cid_bits: context ID size in bits (TRCIDR2.CIDSIZE)
 * @vmid_bits: VMID size in bits (TRCIDR2.VMIDSIZE)
 * @cc_bits: cycle counter size in bits (TRCIDR2.CCSIZE + 12)
 * @vmidopt: TRCCONFIGR.VMIDOPT implemented (TRCIDR2.VMIDOPT != 0)
 * @ccitmin: minimum cycle count threshold (TRCIDR3.CCITMIN)
 * @exlevel_s: Secure ELs implemented, bit n = ELn (TRCIDR3.EXLEVEL_S)
 * @exlevel_ns: Non-secure ELs implemented (TRCIDR3.EXLEVEL_NS)
 * @trcerr: TRCVICTLR.TRCERR implemented (TRCIDR3.TRCERR)
 * @syncpr_ro: TRCSYNCPR is read-only (TRCIDR3.SYNCPR)
 * @stallctl: TRCSTALLCTLR implemented (TRCIDR3.STALLCTL)
 * @sysstall: the system allows stalling the PE (TRCIDR3.SYSSTALL)
 * @nooverflow: TRCSTALLCTLR.NOOVERFLOW implemented (TRCIDR3.NOOVERFLOW)
 * @num_ac: single address comparators (2 x TRCIDR4.NUMACPAIRS)
 * @num_arc: address range comparators (TRCIDR4.NUMACPAIRS)
 * @num_pc: PE comparator inputs (TRCIDR4.NUMPC)
 * @num_rs: resource selectors including the fixed pair 0/1 (RQDJVV)
 * @num_ss: single-shot comparator controls (TRCIDR4.NUMSSCC)
 * @num_cidc: context ID comparators (TRCIDR4.NUMCIDC)
 * @num_vmidc: VMID comparators (TRCIDR4.NUMVMIDC)
 * @num_extin: external inputs (TRCIDR5.NUMEXTIN)
 * @num_extinsel: external input selectors (TRCIDR5.NUMEXTINSEL)
 * @traceid_bits: trace ID width (TRCIDR5.TRACEIDSIZE)
 * @atbtrig: ATB trigger (TRCIDR5.ATBTRIG)
 * @lpoverride: low-power override (TRCIDR5.LPOVERRIDE)
 * @num_seq_states: sequencer states, 0 or 4 (TRCIDR5.NUMSEQSTATE)
 * @num_cntr: counters (TRCIDR5.NUMCNTR)
 * @maxspec: maximum speculation depth (TRCIDR8.MAXSPEC)
 */
struct ete_caps {
	u32 idr[ETE_NUM_IDR];
	u32 devarch;
	u8 revision;
	bool retstack;
	bool cycle_count;
	bool branch_broadcast;
	bool qfilt;
	u8 qsupp;
	u8 num_events;
	u8 ts_bits;
	u8 cid_bits;
	u8 vmid_bits;
	u8 cc_bits;
	bool vmidopt;
	u16 ccitmin;
	u8 exlevel_s;
	u8 exlevel_ns;
	bool trcerr;
	bool syncpr_ro;
	bool stallctl;
	bool sysstall;
	bool nooverflow;
	u8 num_ac;
	u8 num_arc;
	u8 num_pc;
	u8 num_rs;
	u8 num_ss;
	u8 num_cidc;
	u8 num_vmidc;
	u16 num_extin;
	u8 num_extinsel;
	u8 traceid_bits;
	bool atbtrig;
	bool lpoverride;
	u8 num_seq_states;
	u8 num_cntr;
	u32 maxspec;
};

/* Registers an ETE probe reads, in the order of @idr */
extern const u32 ete_idr_regs[ETE_NUM_IDR];

int ete_caps_decode(const u32 *idr, u32 devarch, struct ete_caps *caps);

#endif /* _ETE_CAPS_H */
