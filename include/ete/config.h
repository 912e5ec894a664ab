/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration of one trace unit, as the user states it, and the
 * register image derived from it by a pure function.
 *
 * Units are named for the user: EL masks say which levels are traced (bit
 * n = ELn), periods are in bytes, address comparator EL masks say where a
 * comparator may match.  ete_config_to_image() turns these into register
 * fields (where the registers say "exclude", it inverts).
 *
 * An "event selector" (ViewInst event, timestamp event, counter and
 * sequencer events, ETEEvents) is one value in the architecture's own
 * encoding: bits [4:0] select a resource selector (0-31), or with bit 7
 * set, bits [3:0] select a resource selector pair (0-15).
 */
#ifndef _ETE_CONFIG_H
#define _ETE_CONFIG_H

#include <linux/bits.h>
#include <linux/types.h>
#include <ete/caps.h>

#define ETE_EVENT_PAIR		0x80	/* event selector: a selector pair */
#define ETE_EVENT_SEL_MASK	0x1f
#define ETE_EVENT_TRUE		0x01	/* selector 1: always TRUE (RSXSQT) */

/* Resource selector groups, TRCRSCTLR.GROUP (Table D4-26, G.8) */
#define ETE_RS_GROUP_EXTIN	0
#define ETE_RS_GROUP_PC		1
#define ETE_RS_GROUP_CNTR_SEQ	2	/* 0-3 counter at zero, 4-7 state */
#define ETE_RS_GROUP_SS		3
#define ETE_RS_GROUP_SAC	4
#define ETE_RS_GROUP_ARC	5
#define ETE_RS_GROUP_CIDC	6
#define ETE_RS_GROUP_VMIDC	7

/* TRCCONFIGR.QE values accepted in ete_config.q_elements */
#define ETE_QE_OFF		0
#define ETE_QE_WITH_COUNTS	1
#define ETE_QE_ALL		3

/**
 * struct ete_addr_config - one single address comparator (addr<i>/)
 * @value: the address (TRCACVR<i>)
 * @context_type: 0 none, 1 context ID, 2 VMID, 3 both (TRCACATR.CONTEXTTYPE)
 * @context: the context comparator used (TRCACATR.CONTEXT)
 * @el_ns: Non-secure ELs where the comparator may match, bit n = ELn
 * @el_s: Secure ELs where the comparator may match
 */
struct ete_addr_config {
	u64 value;
	u8 context_type;
	u8 context;
	u8 el_ns;
	u8 el_s;
};

/**
 * struct ete_cntr_config - one counter (cntr<i>/)
 * @reload: reload value (TRCCNTRLDVR)
 * @value: initial value (TRCCNTVR)
 * @count_event: decrement event (TRCCNTCTLR.CNTEVENT)
 * @reload_event: reload event (TRCCNTCTLR.RLDEVENT)
 * @reload_self: self-reload mode (TRCCNTCTLR.RLDSELF)
 * @chain: decrement on reload of counter i-1 (TRCCNTCTLR.CNTCHAIN, odd i)
 */
struct ete_cntr_config {
	u16 reload;
	u16 value;
	u8 count_event;
	u8 reload_event;
	bool reload_self;
	bool chain;
};

/**
 * struct ete_ss_config - a single-shot comparator control (ss<i>/)
 * @sac: single address comparators selected (TRCSSCCR.SAC)
 * @arc: address range comparators selected (TRCSSCCR.ARC)
 * @pc: PE comparator inputs selected (TRCSSPCICR.PC)
 * @multi_shot: re-arm after firing (TRCSSCCR.RST)
 * @fired: initial STATUS (TRCSSCSR.STATUS)
 */
struct ete_ss_config {
	u16 sac;
	u8 arc;
	u8 pc;
	bool multi_shot;
	bool fired;
};

/**
 * struct ete_rs_config - a resource selector (rs<i>/, i >= 2)
 * @group: resource group, ETE_RS_GROUP_* (TRCRSCTLR.GROUP, Table D4-26)
 * @select: resources selected in the group (TRCRSCTLR.SELECT)
 * @invert: invert the selector (TRCRSCTLR.INV)
 * @pair_invert: invert the pair (TRCRSCTLR.PAIRINV, even i only)
 */
struct ete_rs_config {
	u8 group;
	u16 select;
	bool invert;
	bool pair_invert;
};

/**
 * struct ete_ctx_config - a context ID or VMID comparator (ctxid<i>/, vmid<i>/)
 * @value: the value compared (TRCCIDCVR / TRCVMIDCVR)
 * @mask: bytes of @value ignored, bit j = byte j (TRC*CCTLR COMP<i>)
 */
struct ete_ctx_config {
	u64 value;
	u8 mask;
};

/**
 * struct ete_config - everything the user can set on a trace unit
 * @cycle_count: cycle counting (TRCCONFIGR.CCI)
 * @cc_threshold: cycle count threshold (TRCCCCTLR)
 * @timestamp: timestamps (TRCCONFIGR.TS)
 * @ts_event: event requesting a timestamp (TRCTSCTLR)
 * @branch_broadcast: branch broadcast (TRCCONFIGR.BB)
 * @bb_include: 1: broadcast inside @bb_ranges; 0: outside (TRCBBCTLR.MODE)
 * @bb_ranges: ARCs limiting branch broadcast (TRCBBCTLR.RANGE)
 * @return_stack: return stack (TRCCONFIGR.RS)
 * @context_id: trace the process's context ID (the PID, see config-image.c)
 * @vmid: VMID tracing (TRCCONFIGR.VMID)
 * @q_elements: Q elements, ETE_QE_* (TRCCONFIGR.QE)
 * @q_include: 1: Q elements only in @q_ranges; 0: outside (TRCQCTLR.MODE)
 * @q_ranges: ARCs filtering Q elements (TRCQCTLR.RANGE)
 * @stall: stall the PE to avoid overflow (TRCSTALLCTLR.ISTALL)
 * @stall_level: how hard to stall, 0-3 (TRCSTALLCTLR.LEVEL)
 * @no_overflow: no-overflow mode (TRCSTALLCTLR.NOOVERFLOW)
 * @sync_period: bytes between synchronization points, a power of two,
 *	0 for none (TRCSYNCPR.PERIOD)
 * @trace_id: trace ID (TRCTRACEIDR)
 * @el_ns: Non-secure ELs traced, bit n = ELn (TRCVICTLR.EXLEVEL_NS)
 * @el_s: Secure ELs traced (TRCVICTLR.EXLEVEL_S)
 * @viewinst_event: ViewInst event (TRCVICTLR.EVENT)
 * @ss_status: initial start/stop state, 1 = started (TRCVICTLR.SSSTATUS)
 * @trace_errors: trace System errors even when filtered (TRCVICTLR.TRCERR)
 * @include_ranges: ARCs included by ViewInst (TRCVIIECTLR.INCLUDE)
 * @exclude_ranges: ARCs excluded by ViewInst (TRCVIIECTLR.EXCLUDE)
 * @start_addrs: SACs starting ViewInst (TRCVISSCTLR.START)
 * @stop_addrs: SACs stopping ViewInst (TRCVISSCTLR.STOP)
 * @event: ETEEvent selectors (TRCEVENTCTL0R.EVENT<n>)
 * @event_trace: ETEEvent n traced as an Event element (TRCEVENTCTL1R.INSTEN)
 * @atb_trigger: ATB trigger on ETEEvent 0 (TRCEVENTCTL1R.ATB)
 * @extin: PMU event of each external input selector (TRCEXTINSELR<n>)
 * @seq_fwd: forward transition events, state n to n+1 (TRCSEQEVR.F)
 * @seq_bwd: backward transition events, state n+1 to n (TRCSEQEVR.B)
 * @seq_reset: sequencer reset event (TRCSEQRSTEVR)
 * @seq_state: initial sequencer state (TRCSEQSTR)
 * @addr: single address comparators
 * @cntr: counters
 * @ss: single-shot comparator controls
 * @rs: resource selectors (0 and 1 are fixed and unused here)
 * @ctxid: context ID comparators
 * @vmidc: VMID comparators
 * @sample_window: sampled trace: cycles traced in each period, 0 for
 *	continuous trace (ete/sample.c: counters 0 and 1, selectors 2 to
 *	4, the sequencer and ViewInst's event)
 * @sample_period: sampled trace: cycles from one window's start to the
 *	next's, 2 to 65536 windows
 */
struct ete_config {
	bool cycle_count;
	u16 cc_threshold;
	bool timestamp;
	u8 ts_event;
	bool branch_broadcast;
	bool bb_include;
	u8 bb_ranges;
	bool return_stack;
	bool context_id;
	bool vmid;
	u8 q_elements;
	bool q_include;
	u8 q_ranges;
	bool stall;
	u8 stall_level;
	bool no_overflow;
	u32 sync_period;
	u8 trace_id;
	u8 el_ns;
	u8 el_s;
	u8 viewinst_event;
	bool ss_status;
	bool trace_errors;
	u8 include_ranges;
	u8 exclude_ranges;
	u16 start_addrs;
	u16 stop_addrs;
	u8 event[ETE_MAX_EVENTS];
	bool event_trace[ETE_MAX_EVENTS];
	bool atb_trigger;
	u16 extin[ETE_MAX_EXTINSEL];
	u8 seq_fwd[ETE_MAX_SEQ_STATES - 1];
	u8 seq_bwd[ETE_MAX_SEQ_STATES - 1];
	u8 seq_reset;
	u8 seq_state;
	struct ete_addr_config addr[ETE_MAX_AC];
	struct ete_cntr_config cntr[ETE_MAX_CNTR];
	struct ete_ss_config ss[ETE_MAX_SS];
	struct ete_rs_config rs[ETE_MAX_RS];
	struct ete_ctx_config ctxid[ETE_MAX_CIDC];
	struct ete_ctx_config vmidc[ETE_MAX_VMIDC];
	u32 sample_window;
	u64 sample_period;
};

/**
 * struct ete_env - facts outside the configuration that shape the image
 * @kernel_el2: the kernel runs at EL2 with VHE: the PID is in
 *	CONTEXTIDR_EL2 and the kernel's own EL is EL2
 * @kernel_allowed: whoever started the session may trace the kernel
 *	(CAP_PERFMON or CAP_SYS_ADMIN when starting)
 * @reader_allowed: whoever reads the trace may see the kernel: for a
 *	TRBE buffer, its opener had CAP_PERFMON or CAP_SYS_ADMIN when it
 *	opened /dev/trbe<N> (&ete_sink_ops.reader_sees_kernel)
 *
 * Unless both are true, EL1, EL2 and every Secure EL are filtered out
 * (ete_config_to_image()).
 */
struct ete_env {
	bool kernel_el2;
	bool kernel_allowed;
	bool reader_allowed;
};

/* Why &ete_image.kernel_filtered is set: a bit per party without the right */
#define ETE_FILTERED_STARTER	BIT(0)	/* !&ete_env.kernel_allowed */
#define ETE_FILTERED_READER	BIT(1)	/* !&ete_env.reader_allowed */

/**
 * struct ete_reg_val - one register write of an image
 * @reg: register id (<ete/regs.h>)
 * @val: the value
 */
struct ete_reg_val {
	u32 reg;
	u64 val;
};

/**
 * struct ete_live - the registers a configuration can make reach the trace
 * @rs: resource selectors, bit n = TRCRSCTLR<n> (never 0 and 1: fixed)
 * @sac: single address comparators, bit n = TRCACVR<n> and TRCACATR<n>
 * @cidc: context ID comparators, bit n = TRCCIDCVR<n> (masks: CCTLR0/1)
 * @vmidc: VMID comparators, bit n = TRCVMIDCVR<n> (masks: CCTLR0/1)
 * @cntr: counters, bit n = TRCCNTRLDVR<n>, TRCCNTCTLR<n>, TRCCNTVR<n>
 * @ss: single-shot controls, bit n = TRCSSCCR<n>, TRCSSCSR<n>, TRCSSPCICR<n>
 * @extin: external input selectors, bit n = TRCEXTINSELR<n>
 * @seq: the sequencer: TRCSEQEVR<n>, TRCSEQRSTEVR, TRCSEQSTR
 * @startstop: start/stop points exist, so TRCVICTLR.SSSTATUS can change
 *
 * Filled by ete_config_live().  A register outside the set cannot change
 * the trace: no control register names it, directly or through a
 * resource selector, so its (UNKNOWN after a reset) value is never used.
 */
struct ete_live {
	u32 rs;
	u16 sac;
	u8 cidc;
	u8 vmidc;
	u8 cntr;
	u8 ss;
	u8 extin;
	bool seq;
	bool startstop;
};

/* Upper bound on the registers an image writes */
#define ETE_IMAGE_MAX	192

/**
 * struct ete_image - the registers to program, in order, and TRFCR
 * @nr: number of valid entries in @regs
 * @regs: trace unit registers (all programmed while Idle)
 * @trfcr: value for TRFCR_EL1 (TRFCR_EL2 at VHE) during the session
 * @kernel_filtered: 0, or the kernel's ELs and the Secure ELs were
 *	removed from the filter: ETE_FILTERED_STARTER and/or
 *	ETE_FILTERED_READER say who lacked the privilege
 * @live: the registers the configuration references (ete_config_live());
 *	@regs holds the control registers and these, nothing else
 */
struct ete_image {
	unsigned int nr;
	struct ete_reg_val regs[ETE_IMAGE_MAX];
	u64 trfcr;
	u8 kernel_filtered;
	struct ete_live live;
};

void ete_config_defaults(struct ete_config *cfg, const struct ete_caps *caps);
void ete_config_defaults_cpu(struct ete_config *cfg,
			     const struct ete_caps *caps, int cpu);
const char *ete_config_conflict(const struct ete_config *cfg);
int ete_config_validate(const struct ete_config *cfg,
			const struct ete_caps *caps);
void ete_config_to_image(const struct ete_config *cfg,
			 const struct ete_caps *caps,
			 const struct ete_env *env, struct ete_image *img);
void ete_config_live(const struct ete_config *cfg,
		     const struct ete_caps *caps, struct ete_live *live);
u64 ete_image_get(const struct ete_image *img, u32 reg, bool *found);
void ete_image_set(struct ete_image *img, u32 reg, u64 val);

bool ete_sample_supported(const struct ete_caps *caps);
int ete_sample_check_window(const struct ete_caps *caps,
			    const struct ete_config *cfg, unsigned int idx,
			    u64 val);
int ete_sample_check_period(const struct ete_caps *caps,
			    const struct ete_config *cfg, unsigned int idx,
			    u64 val);
const char *ete_sample_conflict(const struct ete_config *cfg);
void ete_sample_image(const struct ete_config *cfg, struct ete_image *img);

#endif /* _ETE_CONFIG_H */
