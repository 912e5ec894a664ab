/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TRBE register fields and the pure functions of trbe.ko: status decoding,
 * register value builders, ID decoding, buffer arithmetic and errata.
 *
 * Everything declared here takes values and returns values; nothing reads
 * or writes a register.  Field positions follow the Arm ARM (DDI 0487,
 * D19 "TRBE registers"); the seeds name only E, FM, nVM and S (registers.md
 * section 3), so the rest is cross-checked against the kernel's
 * arch/arm64/include/asm/sysreg.h.
 */
#ifndef _ETE_TRBE_H
#define _ETE_TRBE_H

#include <linux/bits.h>
#include <linux/types.h>

/* TRBLIMITR_EL1 */
#define TRBE_LIMITR_E			BIT_ULL(0)
#define TRBE_LIMITR_FM			GENMASK_ULL(2, 1)
#define TRBE_LIMITR_TM			GENMASK_ULL(4, 3)
#define TRBE_LIMITR_NVM			BIT_ULL(5)
#define TRBE_LIMITR_LIMIT		GENMASK_ULL(63, 12)

/* TRBBASER_EL1 */
#define TRBE_BASER_BASE			GENMASK_ULL(63, 12)

/* TRBSR_EL1 */
#define TRBE_SR_EC			GENMASK_ULL(31, 26)
#define TRBE_SR_IRQ			BIT_ULL(22)
#define TRBE_SR_TRG			BIT_ULL(21)
#define TRBE_SR_WRAP			BIT_ULL(20)
#define TRBE_SR_EA			BIT_ULL(18)
#define TRBE_SR_S			BIT_ULL(17)
#define TRBE_SR_MSS			GENMASK_ULL(15, 0)
#define TRBE_SR_BSC			GENMASK_ULL(5, 0)
#define TRBE_SR_FSC			GENMASK_ULL(5, 0)

/* TRBSR_EL1.EC values */
#define TRBE_EC_BUF_MGMT		0x00
#define TRBE_EC_GPC_FAULT		0x1e
#define TRBE_EC_IMPDEF			0x1f
#define TRBE_EC_STAGE1_ABORT		0x24
#define TRBE_EC_STAGE2_ABORT		0x25

/* TRBSR_EL1.BSC values (EC == TRBE_EC_BUF_MGMT) */
#define TRBE_BSC_NOT_STOPPED		0x00
#define TRBE_BSC_FILLED			0x01
#define TRBE_BSC_TRIGGERED		0x02

/* TRBTRG_EL1 */
#define TRBE_TRG_TRG			GENMASK_ULL(31, 0)

/* TRBIDR_EL1 */
#define TRBE_IDR_ALIGN			GENMASK_ULL(3, 0)
#define TRBE_IDR_P			BIT_ULL(4)
#define TRBE_IDR_F			BIT_ULL(5)

/* TRFCR_EL1 / TRFCR_EL2 (the EL2 names under VHE: E2TRE, E0HTRE, CX) */
#define TRBE_TRFCR_E0TRE		BIT_ULL(0)
#define TRBE_TRFCR_EXTRE		BIT_ULL(1)
#define TRBE_TRFCR_CX			BIT_ULL(3)
#define TRBE_TRFCR_TS			GENMASK_ULL(6, 5)

/* ID_AA64DFR0_EL1.TraceBuffer */
#define TRBE_DFR0_TRACEBUFFER		GENMASK_ULL(47, 44)

/* The ETE IGNORE packet: one byte, skipped by decoders */
#define TRBE_IGNORE_BYTE		0x70

/* Bytes an affected core may overwrite before TRBPTR (2119858, 2139208) */
#define TRBE_OVERWRITE_SKIP		256

/**
 * enum trbe_fill_mode - TRBLIMITR_EL1.FM
 * @TRBE_FM_FILL: stop when the buffer is full
 * @TRBE_FM_WRAP: interrupt on wrap and keep going
 * @TRBE_FM_CIRCULAR: wrap silently
 */
enum trbe_fill_mode {
	TRBE_FM_FILL = 0,
	TRBE_FM_WRAP = 1,
	TRBE_FM_CIRCULAR = 3,
};

/**
 * enum trbe_trig_mode - TRBLIMITR_EL1.TM
 * @TRBE_TM_STOP: stop collection on the trigger event
 * @TRBE_TM_IRQ: interrupt on the trigger event and keep going
 * @TRBE_TM_IGNORE: the trigger event has no effect on collection
 */
enum trbe_trig_mode {
	TRBE_TM_STOP = 0,
	TRBE_TM_IRQ = 1,
	TRBE_TM_IGNORE = 3,
};

/**
 * enum trbe_action - what the interrupt handler does for a TRBSR value
 * @TRBE_ACT_NOT_OURS: TRBSR.IRQ is clear: return IRQ_NONE
 * @TRBE_ACT_FULL: fill mode reached the limit and stopped: publish, re-arm
 * @TRBE_ACT_WRAP: wrap mode wrapped and keeps running: count the wrap
 * @TRBE_ACT_TRIG_STOP: stopped on the trigger event (trigger mode stop)
 * @TRBE_ACT_TRIG_IRQ: trigger event in trigger mode IRQ, still running
 * @TRBE_ACT_FAULT: an abort or an event the driver cannot explain: stop
 *	the session on this CPU and report the error
 */
enum trbe_action {
	TRBE_ACT_NOT_OURS,
	TRBE_ACT_FULL,
	TRBE_ACT_WRAP,
	TRBE_ACT_TRIG_STOP,
	TRBE_ACT_TRIG_IRQ,
	TRBE_ACT_FAULT,
};

/**
 * enum trbe_fault - why a status is a fault
 * @TRBE_FAULT_NONE: not a fault
 * @TRBE_FAULT_STAGE1: data abort, stage 1 translation (EC 0x24)
 * @TRBE_FAULT_STAGE2: data abort, stage 2 translation (EC 0x25)
 * @TRBE_FAULT_GPC: granule protection check fault (EC 0x1e)
 * @TRBE_FAULT_EXTERNAL: external abort (TRBSR.EA)
 * @TRBE_FAULT_IMPDEF: IMPLEMENTATION DEFINED buffer management event
 * @TRBE_FAULT_UNKNOWN: reserved EC or BSC, or a status no mode explains
 */
enum trbe_fault {
	TRBE_FAULT_NONE,
	TRBE_FAULT_STAGE1,
	TRBE_FAULT_STAGE2,
	TRBE_FAULT_GPC,
	TRBE_FAULT_EXTERNAL,
	TRBE_FAULT_IMPDEF,
	TRBE_FAULT_UNKNOWN,
};

/**
 * struct trbe_status - a decoded TRBSR_EL1 value
 * @action: what to do
 * @fault: why, when @action is %TRBE_ACT_FAULT
 * @stopped: TRBSR.S, collection stopped
 * @wrapped: TRBSR.WRAP, the write pointer wrapped at least once
 * @triggered: TRBSR.TRG, a trigger event happened
 * @ec: TRBSR.EC
 * @code: TRBSR.MSS[5:0]: BSC for buffer management events, else FSC
 */
struct trbe_status {
	enum trbe_action action;
	enum trbe_fault fault;
	bool stopped;
	bool wrapped;
	bool triggered;
	u8 ec;
	u8 code;
};

struct trbe_status trbe_status_decode(u64 trbsr, enum trbe_fill_mode fm,
				      enum trbe_trig_mode tm);
const char *trbe_fsc_name(u8 fsc);
u64 trbe_status_clear(u64 trbsr);

/**
 * struct trbe_id - what TRBIDR_EL1 says about a TRBE
 * @align: TRBPTR alignment in bytes (2^TRBIDR.Align)
 * @prohibited: TRBIDR.P: a higher EL or Security state owns the TRBE and
 *	this EL may not program it
 * @flag_update: TRBIDR.F: the TRBE updates the dirty and access flags
 */
struct trbe_id {
	u64 align;
	bool prohibited;
	bool flag_update;
};

struct trbe_id trbe_id_decode(u64 trbidr);
bool trbe_dfr0_has_trbe(u64 dfr0);

u64 trbe_limitr_value(u64 limit, enum trbe_fill_mode fm,
		      enum trbe_trig_mode tm, bool enable);
u64 trbe_baser_value(u64 base);
u64 trbe_ptr_value(u64 ptr);
u64 trbe_trg_value(u32 count);
u64 trbe_trfcr_value(u64 trfcr, bool enable);

/**
 * enum trbe_erratum - TRBE errata the driver works around
 * @TRBE_ERR_OVERWRITE_FILL: may overwrite up to 3 cache lines before
 *	TRBPTR in fill mode (2119858, 2139208)
 * @TRBE_ERR_WRITE_OUT_OF_RANGE: may write up to 64 bytes beyond the limit
 *	(2224489, 2253138)
 * @TRBE_ERR_DRAIN_AFTER_DISABLE: needs TSB CSYNC + DSB after disable before
 *	other TRBE register writes take effect (2064142)
 * @TRBE_ERR_SYNC_AFTER_ENABLE: needs a context synchronization event after
 *	enabling (2038923)
 * @TRBE_ERR_BROKEN: the TRBE corrupts trace and is unusable (1902691)
 * @TRBE_ERR_TSB_FLUSH: one TSB CSYNC may fail to flush; issue two
 *	(2054223, 2067961)
 * @TRBE_ERR_COUNT: number of errata
 */
enum trbe_erratum {
	TRBE_ERR_OVERWRITE_FILL,
	TRBE_ERR_WRITE_OUT_OF_RANGE,
	TRBE_ERR_DRAIN_AFTER_DISABLE,
	TRBE_ERR_SYNC_AFTER_ENABLE,
	TRBE_ERR_BROKEN,
	TRBE_ERR_TSB_FLUSH,
	TRBE_ERR_COUNT,
};

unsigned long trbe_errata_for_midr(u32 midr);
unsigned long trbe_errata_for_cpu(u32 midr);
const char *trbe_erratum_name(enum trbe_erratum e);

/**
 * struct trbe_geom - the shape of one CPU's buffer, for the arithmetic
 * @size: buffer size in bytes, a power of two, a multiple of @page
 * @page: the limit and base granule (4KB architecturally; PAGE_SIZE here)
 * @align: TRBPTR alignment (from TRBIDR, raised by errata)
 * @wmark: readers are woken when this many bytes are unread; also what
 *	the "drop" policy frees at a time.  A power of two, a multiple of
 *	@page, at most @size
 * @errata: bitmap of &enum trbe_erratum
 */
struct trbe_geom {
	u64 size;
	u64 page;
	u64 align;
	u64 wmark;
	unsigned long errata;
};

/**
 * struct trbe_window - where the TRBE may write next, in stream positions
 * @base: TRBBASER (a multiple of &trbe_geom.page)
 * @ptr: TRBPTR: the first byte the TRBE writes
 * @limit: TRBLIMITR.LIMIT: the TRBE stops (fill) or wraps there
 * @pad: bytes from the old head up to @ptr that the driver fills with
 *	IGNORE packets and publishes as data
 *
 * A stream position counts every byte the buffer ever held; the byte at
 * position p lives at offset p % size.  @base <= @ptr < @limit and
 * @limit - @base <= size: the window may run past the buffer's end, into
 * the second mapping of the same pages.
 */
struct trbe_window {
	u64 base;
	u64 ptr;
	u64 limit;
	u64 pad;
};

bool trbe_geom_valid(const struct trbe_geom *g);
int trbe_fill_window(const struct trbe_geom *g, u64 head, u64 tail,
		     struct trbe_window *w);
u64 trbe_drop_tail(const struct trbe_geom *g, u64 head, u64 tail);
u64 trbe_drop_wmark_max(const struct trbe_geom *g);
u64 trbe_pos_to_off(const struct trbe_geom *g, u64 pos, bool is_end);
u64 trbe_wrap_head(const struct trbe_geom *g, u64 head, u64 off,
		   bool wrapped);

struct cpumask;

/**
 * trbe_claim_cpus() - the CPUs a TRBE node serves
 * @partition: its PPI's partition (every possible CPU without partitions)
 * @possible: the possible CPUs
 * @claimed: the CPUs other nodes serve
 * @out: the CPUs this node serves: @partition within @possible
 *
 * Pure (claim.c); trbe_claim() takes the lock and records the claim.
 *
 * Context: any.
 * Return: 0, -ENODEV if the partition names no possible CPU, or -EBUSY if
 * another node serves one of its CPUs (a node is served whole or not at
 * all).
 */
int trbe_claim_cpus(const struct cpumask *partition,
		    const struct cpumask *possible,
		    const struct cpumask *claimed, struct cpumask *out);

#endif /* _ETE_TRBE_H */
