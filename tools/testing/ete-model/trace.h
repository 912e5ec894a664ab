/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From executed blocks to ETE packets: which instructions are traced under
 * the programmed filters, and the packets that let a decoder reconstruct
 * them (Documentation/model.rst, "Packet rules").  Pure: packets and the
 * ground truth go to the caller's callbacks.
 */
#ifndef _ETE_MODEL_TRACE_H
#define _ETE_MODEL_TRACE_H

#include <linux/types.h>

#include "prog.h"

#define EM_TRACE_NR_AC		16	/* address comparators */
#define EM_TRACE_RS_DEPTH	15	/* return stack entries */
#define EM_TRACE_TS_EVERY	64	/* traced blocks between Timestamps */
#define EM_TRACE_Q_EVERY	5	/* Q-able blocks from one Q run to the next */

/**
 * struct em_trace_cfg - what the driver programmed, decoded once per session
 * @el_traced: bit n set: ELn is traced (TRCVICTLR.EXLEVEL_NS, TRFCR)
 * @include: address range pairs selected by TRCVIIECTLR.INCLUDE
 * @exclude: address range pairs selected by TRCVIIECTLR.EXCLUDE
 * @start: single address comparators selected by TRCVISSCTLR.START
 * @stop: single address comparators selected by TRCVISSCTLR.STOP
 * @ss_status: TRCVICTLR.SSSTATUS, the start/stop logic's initial state
 * @acvr: TRCACVR<n>
 * @cci: cycle counting (TRCCONFIGR.CCI)
 * @cc_threshold: TRCCCCTLR.THRESHOLD
 * @commit_cc: Cycle Count packets carry a COMMIT field (TRCIDR0.COMMOPT 0)
 * @ts: timestamps (TRCCONFIGR.TS)
 * @ts_base: the counter TRFCR_ELx.TS selects (the virtual counter,
 *	CNTVCT_EL0) when generation started; a Timestamp packet carries it
 *	plus the cycles since
 * @rs: return stack (TRCCONFIGR.RS)
 * @bb: branch broadcast (TRCCONFIGR.BB), everywhere or within @bb_ranges
 * @bb_ranges: TRCBBCTLR.RANGE: the ranges BB applies to (0: all)
 * @bb_include: TRCBBCTLR.MODE: BB inside (true) or outside @bb_ranges
 * @cid: Context packets carry the context ID (TRCCONFIGR.CID)
 * @vmid: Context packets carry the VMID (TRCCONFIGR.VMID)
 * @cid_val: the context ID of the program
 * @qe: TRCCONFIGR.QE: 0 no Q elements, else Q elements with a count
 * @q_ranges: TRCQCTLR.RANGE: the ranges Q filtering selects
 * @q_include: TRCQCTLR.MODE: Q elements only inside @q_ranges (true) or
 *	only outside them
 */
struct em_trace_cfg {
	u8 el_traced;
	u8 include;
	u8 exclude;
	u16 start;
	u16 stop;
	bool ss_status;
	u64 acvr[EM_TRACE_NR_AC];
	bool cci;
	u32 cc_threshold;
	bool commit_cc;
	bool ts;
	u64 ts_base;
	bool rs;
	bool bb;
	u8 bb_ranges;
	bool bb_include;
	bool cid;
	bool vmid;
	u32 cid_val;
	u8 qe;
	u8 q_ranges;
	bool q_include;
};

/**
 * struct em_trace_out - where the tracer's output goes
 * @emit: output one packet; false if it was lost (overflow)
 * @range: an executed instruction range the packet just emitted made
 *	decodable: [@start, @end), @n instructions
 * @nopath: the Q packet and Target Address just emitted made known that
 *	@n instructions executed from @start, by a path a decoder cannot
 *	tell, and that execution went on at @next
 * @priv: argument of all three
 */
struct em_trace_out {
	bool (*emit)(void *priv, const u8 *pkt, unsigned int len);
	void (*range)(void *priv, u64 start, u64 end, unsigned int n);
	void (*nopath)(void *priv, u64 start, u64 next, unsigned int n);
	void *priv;
};

/**
 * struct em_trace_range - a range waiting for its atom to be output
 * @start: first instruction
 * @end: address after the last
 * @n: instructions
 */
struct em_trace_range {
	u64 start;
	u64 end;
	unsigned int n;
};

/**
 * struct em_trace_q - a Q element in the making: blocks it implies so far
 * @blocks: how many (0: none pending)
 * @len: how many it will imply, unless something ends it earlier
 * @start: its first instruction
 * @end: the address after the last instruction of its first block
 * @n: its instructions
 * @tick: blocks that could have been Q-traced since the last Q element
 * @runs: Q elements begun this session (choose the length of the next)
 */
struct em_trace_q {
	unsigned int blocks;
	unsigned int len;
	u64 start;
	u64 end;
	unsigned int n;
	unsigned int tick;
	unsigned int runs;
};

/**
 * struct em_tracer - the packet generator's state between blocks
 * @on: the trace is continuous: the decoder knows the next address
 * @need_addr: the next traced block needs an Address packet (indirect
 *	branch not matched on the return stack, exception, ERET)
 * @ss: start/stop logic state
 * @ctx_el: EL of the last Context packet, -1 for none since sync
 * @addr_valid: @last_addr is the decoder's address history
 * @last_addr: the last address output (compression base)
 * @expect: where the decoder continues after the last traced waypoint
 * @expect_el: its EL
 * @atoms: pending atoms, oldest in bit 0
 * @natoms: how many
 * @pend: their ranges
 * @rs: the return stack, innermost last
 * @nrs: its entries
 * @rs_popped: the last P0 element's target came off the return stack
 * @cycles: cycles (one per instruction) executed this session
 * @ev_off: ViewInst's event is inactive for the next block (resource.c)
 * @cc_last: @cycles at the last cycle count output
 * @ts_blocks: traced blocks since the last Timestamp
 * @q: the pending Q element
 */
struct em_tracer {
	bool on;
	bool need_addr;
	bool ss;
	int ctx_el;
	bool addr_valid;
	u64 last_addr;
	u64 expect;
	u8 expect_el;
	u8 atoms;
	unsigned int natoms;
	struct em_trace_range pend[3];
	u64 rs[EM_TRACE_RS_DEPTH];
	unsigned int nrs;
	bool rs_popped;
	u64 cycles;
	bool ev_off;
	u64 cc_last;
	unsigned int ts_blocks;
	struct em_trace_q q;
};

void em_trace_reset(struct em_tracer *t, const struct em_trace_cfg *cfg);
void em_trace_flush(struct em_tracer *t, const struct em_trace_out *out);
void em_trace_lost(struct em_tracer *t);
void em_trace_sync(struct em_tracer *t, const struct em_trace_cfg *cfg,
		   const struct em_trace_out *out, bool periodic);
void em_trace_block(struct em_tracer *t, const struct em_trace_cfg *cfg,
		    const struct em_trace_out *out, const struct em_block *b);
bool em_trace_in_view(struct em_tracer *t, const struct em_trace_cfg *cfg,
		      u64 addr, u8 el);

#endif /* _ETE_MODEL_TRACE_H */
