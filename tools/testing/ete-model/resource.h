/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace unit's resources as the model runs them: resource selectors
 * and pairs, the counters and the sequencer, clocked by the PE's cycles
 * (Arm ARM D4, "Resources"; requirements G.5-G.22).  Pure logic over the
 * unit's register file, so that KUnit drives it cycle by cycle.
 */
#ifndef _ETE_MODEL_RESOURCE_H
#define _ETE_MODEL_RESOURCE_H

#include <linux/types.h>

#define EM_RES_NR_CNTR		4
#define EM_RES_NR_SEQ		4

/**
 * struct em_res - what the resource event bus carries between cycles
 * @nr_cntr: counters implemented (TRCIDR5.NUMCNTR)
 * @nr_seq: sequencer states (TRCIDR5.NUMSEQSTATE: 0 or 4)
 * @nr_sel: resource selectors implemented (2 x (TRCIDR4.NUMRSPAIR + 1))
 * @cntr_used: the counters that run (em_res_init(): all implemented)
 * @seq_used: the sequencer runs (em_res_init(): when implemented)
 * @cid: the PE's context ID (CONTEXTIDR_EL1), for the CID comparators
 * @vmid: the value the VMID comparators see
 * @cnt_zero: bit n: the counter-at-zero resource of counter n is active
 * @seq_active: bit n: the sequencer-state resource of state n is active
 * @cycles: cycles run since em_res_init()
 */
struct em_res {
	u8 nr_cntr;
	u8 nr_seq;
	u8 nr_sel;
	u8 cntr_used;
	bool seq_used;
	u32 cid;
	u32 vmid;
	u8 cnt_zero;
	u8 seq_active;
	u64 cycles;
};

void em_res_init(struct em_res *r, const u64 *trc, u32 idr4, u32 idr5);
bool em_res_selector(const struct em_res *r, const u64 *trc, unsigned int n);
bool em_res_event(const struct em_res *r, const u64 *trc, u8 ev);
bool em_res_static(const struct em_res *r, const u64 *trc);
void em_res_run(struct em_res *r, u64 *trc, unsigned int cycles);

#endif
