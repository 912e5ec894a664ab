/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the ETE/TRBE model: one struct em_unit per PE, grouped in a
 * struct ete_model instance.  Every field of a unit is protected by its
 * raw spinlock: the ops run in any context, hard IRQ included.
 */
#ifndef _ETE_MODEL_INTERNAL_H
#define _ETE_MODEL_INTERNAL_H

#include <linux/hrtimer.h>
#include <linux/prandom.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <ete/regs.h>
#include "ete_model.h"
#include "prog.h"
#include "resource.h"
#include "trace.h"
#include "truth.h"

#define EM_NR_IDR		14	/* TRCIDR0..TRCIDR13 */
#define EM_FIFO_SIZE		512	/* the trace unit's internal buffer */
#define EM_FIFO_HOLD		64	/* of it, still on its way at a tick's end */
#define EM_LOG_SIZE		32	/* violation log entries kept per unit */
#define EM_NR_REG_SLOTS		(0x1048 / 4)	/* trace unit, TRBE and PE registers */
#define EM_DEFAULT_DELAY	2	/* status reads per transition */
#define EM_CLAIM_EXTERNAL	BIT(0)	/* an external debugger's claim tag */

/* TRCIDRx field helpers (ETE layout) */
#define EM_IDR0_TRCBB		BIT(5)
#define EM_IDR0_TRCCCI		BIT(7)
#define EM_IDR0_RETSTACK	BIT(9)
#define EM_IDR0_NUMEVENT	GENMASK(11, 10)
#define EM_IDR0_QFILT		BIT(14)
#define EM_IDR0_QSUPP		GENMASK(16, 15)
#define EM_IDR0_TSSIZE		GENMASK(28, 24)
#define EM_IDR0_COMMOPT		BIT(29)
#define EM_IDR2_CIDSIZE		GENMASK(9, 5)
#define EM_IDR2_VMIDSIZE	GENMASK(14, 10)
#define EM_IDR2_VMIDOPT		GENMASK(30, 29)
#define EM_IDR3_CCITMIN		GENMASK(11, 0)
#define EM_IDR3_EXLEVEL_S	GENMASK(19, 16)
#define EM_IDR3_EXLEVEL_NS	GENMASK(23, 20)
#define EM_IDR3_TRCERR		BIT(24)
#define EM_IDR3_STALLCTL	BIT(26)
#define EM_IDR3_NOOVERFLOW	BIT(31)
#define EM_IDR4_NUMACPAIRS	GENMASK(3, 0)
#define EM_IDR4_NUMPC		GENMASK(15, 12)
#define EM_IDR4_NUMRSPAIR	GENMASK(19, 16)
#define EM_IDR4_NUMSSCC		GENMASK(23, 20)
#define EM_IDR4_NUMCIDC		GENMASK(27, 24)
#define EM_IDR4_NUMVMIDC	GENMASK(31, 28)
#define EM_IDR5_NUMEXTINSEL	GENMASK(11, 9)
#define EM_IDR5_ATBTRIG		BIT(22)
#define EM_IDR5_LPOVERRIDE	BIT(23)
#define EM_IDR5_NUMSEQSTATE	GENMASK(27, 25)
#define EM_IDR5_NUMCNTR		GENMASK(30, 28)

/* Fields the model acts on */
#define EM_PRGCTLR_EN		BIT(0)
#define EM_STATR_IDLE		BIT(0)
#define EM_STATR_PMSTABLE	BIT(1)
#define EM_CONFIGR_BB		BIT(3)
#define EM_CONFIGR_CID		BIT(6)
#define EM_CONFIGR_VMID		BIT(7)
#define EM_CONFIGR_CCI		BIT(4)
#define EM_CONFIGR_TS		BIT(11)
#define EM_CONFIGR_RS		BIT(12)
#define EM_VICTLR_SSSTATUS	BIT(9)
#define EM_OSLSR_OSLK		BIT(1)
#define EM_PDSR_POWER		BIT(0)
#define EM_PDSR_STICKYPD	BIT(1)
#define EM_LSR_SLI		BIT(0)
#define EM_LSR_SLK		BIT(1)
#define EM_LAR_KEY		0xc5acce55
#define EM_TRFCR_E0TRE		BIT(0)
#define EM_TRFCR_ExTRE		BIT(1)

/* TRBE fields (Arm ARM D10) */
#define EM_TRBLIMITR_E		BIT(0)
#define EM_TRBLIMITR_FM		GENMASK(2, 1)
#define EM_TRBLIMITR_TM		GENMASK(4, 3)
#define EM_TRBLIMITR_NVM	BIT(5)
#define EM_TRBLIMITR_LIMIT	GENMASK_ULL(63, 12)
#define EM_TRBBASER_BASE	GENMASK_ULL(63, 12)
#define EM_TRBSR_EC		GENMASK(31, 26)
#define EM_TRBSR_IRQ		BIT(22)
#define EM_TRBSR_TRG		BIT(21)
#define EM_TRBSR_WRAP		BIT(20)
#define EM_TRBSR_EA		BIT(18)
#define EM_TRBSR_S		BIT(17)
#define EM_TRBSR_MSS		GENMASK(15, 0)
#define EM_TRBIDR_ALIGN		GENMASK(3, 0)
#define EM_TRBIDR_P		BIT(4)
#define EM_TRBIDR_F		BIT(5)
#define EM_FM_FILL		0
#define EM_FM_WRAP		1
#define EM_FM_CIRCULAR		3
#define EM_TM_STOP		0
#define EM_TM_IRQ		1
#define EM_TM_IGNORE		3
#define EM_BSC_FILLED		1
#define EM_BSC_TRIGGERED	2
#define EM_EC_STAGE1_ABORT	0x24

/**
 * struct em_profile - an implementation shape: ID register values
 * @name: profile name used by ete_model_create() and the module parameter
 * @idr: TRCIDR0..TRCIDR13 (TRCIDR6/7 do not exist and stay 0)
 * @devarch: TRCDEVARCH
 * @trbidr: TRBIDR_EL1
 * @claim_bits: number of claim tag bits
 */
struct em_profile {
	const char *name;
	u32 idr[EM_NR_IDR];
	u32 devarch;
	u64 trbidr;
	unsigned int claim_bits;
};

/**
 * struct em_log_entry - one logged violation
 * @check: the rule (enum ete_model_check)
 * @write: the access was a write
 * @state: the programming state at the time
 * @reg: register id or MMIO offset
 * @val: the value written (0 for a read)
 */
struct em_log_entry {
	u8 check;
	u8 write;
	u8 state;
	u32 reg;
	u64 val;
};

/**
 * struct em_gen - trace generator state
 * @need_sync: a non-periodic synchronization is due (enable, overflow)
 * @since_sync: bytes emitted since the last A-Sync
 * @emitted: bytes emitted this session
 * @dropped0: the unit's bytes_dropped when the session started
 * @pkt_off: stream offset of the packet being emitted
 * @walk_err: the walk left the program (a bug): generation stopped
 * @cfg: the configuration of this session
 * @walk: the program walker
 * @tr: the packet generator
 * @truth: the ground truth of this session
 * @replay: replay stream (NULL for the program's trace)
 * @replay_len: length of @replay
 * @replay_pos: bytes of @replay emitted
 * @replay_loop: start @replay again at its end (debugfs replay_mode bit 0)
 * @replay_lossy: bytes the FIFO cannot take are lost, as trace is when
 *	the PE runs on and the unit overflows, instead of waiting (bit 1)
 * @replay_offered: bytes of @replay emitted or lost since it was set
 */
/**
 * struct em_vi_windows - ViewInst's event over the PE's cycles (the truth
 *	of sampled trace): cycles counted as the resources count them, in
 *	prohibited regions not at all
 * @cycles: cycles run this session
 * @traced: of them, with ViewInst's event active
 * @windows: windows closed: the event active, then inactive
 * @win_min: the shortest closed window, in cycles
 * @win_max: the longest
 * @gap_min: the shortest gap between two windows
 * @gap_max: the longest
 * @cur: cycles of the window or gap in progress
 * @on: the event was active for the last block
 */
struct em_vi_windows {
	u64 cycles;
	u64 traced;
	u64 windows;
	u64 win_min;
	u64 win_max;
	u64 gap_min;
	u64 gap_max;
	u64 cur;
	bool on;
};

struct em_gen {
	bool need_sync;
	unsigned int since_sync;
	u64 emitted;
	unsigned long dropped0;
	u64 pkt_off;
	int walk_err;
	struct em_trace_cfg cfg;
	struct em_walk walk;
	struct em_tracer tr;
	struct em_truth truth;
	u8 *replay;
	size_t replay_len;
	size_t replay_pos;
	bool replay_loop;
	bool replay_lossy;
	u64 replay_offered;
	struct em_vi_windows vi;
};

/**
 * struct em_pm - what a power-down lost, to check the driver's restore
 * @trc: the trace unit registers just before the power-down
 * @trb: TRBLIMITR, TRBPTR, TRBBASER, TRBSR, TRBTRG just before it
 * @snap_valid: @trc and @trb wait for the next OS Lock clear
 * @lock_trfcr: TRFCR when the OS Lock was last set
 * @lock_trbe_en: the TRBE was enabled when the OS Lock was last set
 * @checks: restores compared with a power-down's state
 * @mismatch: registers found different
 * @restore_order: OS Lock cleared with a TRBE enabled at the save still
 *	disabled
 * @unsaved: power-downs with the OS Lock clear (no save before them)
 * @bad_reg: the first register found different
 * @bad_want: its value before the power-down
 * @bad_got: its value at the restore
 */
struct em_pm {
	u64 trc[(ETE_REG_TRC_LAST + 4) / 4];
	u64 trb[5];
	bool snap_valid;
	bool relock;
	u64 lock_trfcr;
	bool lock_trbe_en;
	unsigned long checks;
	unsigned long mismatch;
	unsigned long restore_order;
	unsigned long unsaved;
	u32 bad_reg;
	u64 bad_want;
	u64 bad_got;
};

/**
 * struct em_unit - one PE's trace unit, TRBE and related PE registers
 */
struct em_unit {
	raw_spinlock_t lock;
	struct ete_model *model;
	int cpu;
	const struct em_profile *prof;
	struct rnd_state rnd;
	u64 trc[(ETE_REG_TRC_LAST + 4) / 4];

	/* programming state machine */
	enum ete_model_state state;
	int delay;
	int left;
	bool csync_pending;
	bool statr_unsync;
	bool tsb_unsync;
	bool mem_pending;
	bool trbe_unsync;	/* a TRBE register written since the last ISB */
	int pmstable_unknown;

	/* PE registers and the external view */
	bool oslk;
	u64 trfcr;
	u64 trfcr_eff;
	bool prohibited;
	bool atb;
	bool trbe_off;
	bool sticky_pd;
	bool pe_off;
	bool swlock;
	bool claim_race;
	/*
	 * RWZQWC: the counters as direct reads see them, the values of the
	 * last context synchronization event taken while Idle or Stable
	 * (or of a direct write); cnt_unsync: the unit's own counting has
	 * changed a counter since
	 */
	u64 cnt_vis[4];
	bool cnt_unsync;
	/* the counters', sequencer's and selectors' event bus (resource.c) */
	struct em_res res;
	/* debugfs settle: Unstable to Idle within one status read */
	bool settle_fast;
	u32 pdcr;

	/* TRBE */
	u64 trblimitr;
	u64 trbptr;
	u64 trbbaser;
	u64 trbsr;
	u64 trbmar;
	u64 trbtrg;
	bool trig_seen;
	u8 align_buf[256];
	unsigned int align_len;
	unsigned long quirks;
	unsigned long quirk_fills;
	/*
	 * debugfs flush_to_limit: the next TSB CSYNC that finds the TRBE
	 * collecting also brings it to its limit (em_gen_flush_to_limit())
	 */
	bool flush_to_limit;
	/*
	 * debugfs left_enabled: the page a previous kernel's TRBE was left
	 * writing to (freed with the unit)
	 */
	void *left_page;

	/* trace output */
	u8 fifo[EM_FIFO_SIZE];
	unsigned int fifo_len;
	unsigned int fifo_hold;
	bool overflow;
	struct em_gen gen;
	unsigned int rate;
	/*
	 * debugfs cycles: a tick runs this many PE cycles (instructions),
	 * traced or not, whatever trace they make; 0: a tick makes @rate
	 * bytes of trace
	 */
	unsigned int cycles_tick;
	u32 context_id;
	/*
	 * cid_ticks (debugfs): the ticks that generated trace, counted by
	 * the context ID of the task they interrupted (CONTEXTIDR_EL1, the
	 * PID the kernel writes there at each switch): who ran while trace
	 * was allowed.  @cid_n entries of @cid; @cid_lost ticks found it full.
	 */
	bool cid_track;
	unsigned int cid_n;
	struct {
		u32 cid;
		unsigned long ticks;
	} cid[64];
	unsigned long cid_lost;
	enum ete_model_fault fault;

	/* violation log */
	struct em_log_entry log[EM_LOG_SIZE];
	unsigned int log_next;
	unsigned int counts[EM_NR_CHECKS];

	/* statistics */
	unsigned long reads;
	/* of those, status polls: TRCSTATR and TRBSR_EL1 */
	unsigned long status_reads;
	/* system-register view barriers: ISB, DSB, TSB CSYNC (enum ete_sync) */
	unsigned long barriers[3];
	unsigned long writes;
	/* ete_model_cpu_pm() to _done(): {accesses, status polls} */
	unsigned long pm_mark_accesses, pm_mark_polls;
	unsigned long last_save[2], last_restore[2];
	/* time the unit's timer spent generating, for make bench */
	u64 tick_ns;
	/* per register, indexed by offset / 4 (regs.h: TRBE and PE at 0x1000) */
	u32 reg_reads[EM_NR_REG_SLOTS];
	u32 reg_writes[EM_NR_REG_SLOTS];
	unsigned long saves;
	unsigned long restores;
	unsigned long powerdowns;
	unsigned long kernel_oslk_clears;
	unsigned long irqs;
	unsigned long bytes_out;
	unsigned long bytes_dropped;
	unsigned long starts;
	/* starts disabled again before the first sync (nothing traced) */
	unsigned long starts_untraced;
	unsigned long syncs;
	unsigned long mmio_remote;
	/* stall.c: bytes a fault on stall_map's second page waits for */
	unsigned long stall_bytes;
	unsigned long stall_waits;
	bool pd_armed;
	bool irq_hold;
	/*
	 * The PPI as a level-sensitive line (em_timer_fn()): ppi_raised,
	 * the model pended it for the event in TRBSR_EL1 and nothing
	 * cleared TRBSR_EL1.IRQ since; irq_relatch, ticks that pended it
	 * again for an event already signalled; irq_left_set, ticks that
	 * found it taken (no longer pending) with TRBSR_EL1.IRQ still set:
	 * a handler returned with the line asserted, which on silicon takes
	 * the interrupt again at once, for ever.
	 */
	bool ppi_raised;
	unsigned long irq_relatch;
	unsigned long irq_left_set;
	struct em_pm pm;

	/* deferred work on the owning CPU */
	struct hrtimer timer;
	call_single_data_t csd;
	atomic_t kick_busy;
	bool dying;
	bool timer_on;
	bool irq_req;
};

/**
 * struct ete_model - a model instance: one unit per possible CPU
 * @prof: the profile all its units share
 * @disabled: mask of checks switched off (mutation testing)
 * @midr: MIDR_EL1 to report (an erratum's part), 0 for the PE's own
 * @midr_cpus: the CPUs that report @midr (bit n: CPU n), the rest their own
 * @virq: Linux IRQ number of the TRBE PPI, 0 when not raising interrupts
 * @autotick: units generate trace from their own per-CPU timer
 * @units: per-CPU units, indexed by CPU number
 */
struct ete_model {
	const struct em_profile *prof;
	unsigned long disabled;
	u64 midr;
	unsigned long midr_cpus;
	int virq;
	bool autotick;
	struct em_unit *units[NR_CPUS];
};

/* profile.c: implementation shapes and register value rules (pure) */
const struct em_profile *em_profile_find(const char *name);
const struct ete_reg_desc *em_reg_find(u32 id, unsigned int *idx);
bool em_reg_implemented(const struct em_profile *p,
			const struct ete_reg_desc *d, unsigned int idx);
int em_reg_check(const struct em_profile *p, u32 reg, unsigned int idx,
		 u64 val, u64 *wmask);
u64 em_reg_wmask(const struct em_profile *p, u32 reg, unsigned int idx);
const char *em_check_name(enum ete_model_check c);
const char *em_state_name(enum ete_model_state s);

/* unit.c: register file, state machine, log */
u64 em_unknown(struct em_unit *u, u64 mask);
void em_unit_reset(struct em_unit *u);
u64 em_unit_read(struct em_unit *u, u32 reg, bool mmio);
void em_unit_write(struct em_unit *u, u32 reg, u64 val, bool mmio);
void em_unit_sync(struct em_unit *u, enum ete_sync what);
void em_violation(struct em_unit *u, enum ete_model_check c, u32 reg,
		  u64 val, bool write);
bool em_unit_prohibited(const struct em_unit *u);
void em_unit_check_sink(struct em_unit *u);
void em_unit_set_os_lock(struct em_unit *u, bool lock);
void em_unit_post(struct em_unit *u);
void em_unit_kick(struct em_unit *u);

/* trbe.c: the trace buffer */
u64 em_trbe_read(struct em_unit *u, u32 reg);
void em_trbe_write(struct em_unit *u, u32 reg, u64 val);
bool em_trbe_enabled(const struct em_unit *u);
void em_trbe_output(struct em_unit *u, const u8 *buf, unsigned int len);
void em_trbe_flush(struct em_unit *u);
void em_trbe_reset(struct em_unit *u);
void em_trbe_trigger(struct em_unit *u);
unsigned long em_trbe_quirks_for_midr(u32 midr);
u32 em_unit_midr(const struct em_unit *u);

/* gen.c: trace generation */
void em_gen_start(struct em_unit *u);
void em_gen_overflow_out(struct em_unit *u);
void em_gen_run(struct em_unit *u, unsigned int budget, u64 cycles,
		u64 max_ns);
void em_res_used(const struct em_unit *u, u8 *cntr, bool *seq);
void em_gen_context(struct em_unit *u, u32 cid);
int em_gen_init(struct em_unit *u);
void em_gen_free(struct em_unit *u);
bool em_fifo_push(struct em_unit *u, const u8 *buf, unsigned int len);
void em_fifo_drain(struct em_unit *u, unsigned int max);
void em_fifo_flush(struct em_unit *u);
void em_gen_flush_to_limit(struct em_unit *u);

/* power.c: the state a power-down loses, checked at the restore */
void em_pm_lock_changed(struct em_unit *u, bool lock);
void em_pm_compare(struct em_unit *u);
void em_pm_snapshot(struct em_unit *u);

/* main.c: the timer and the interrupt */
void em_unit_init_deferred(struct em_unit *u);
void em_unit_stop_deferred(struct em_unit *u);

#endif /* _ETE_MODEL_INTERNAL_H */
