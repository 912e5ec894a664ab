/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test API of ete_model.ko: instances of the ETE/TRBE model that a test
 * creates and drives itself, through the same register-access ops that the
 * driver reaches through the access override.
 */
#ifndef _ETE_MODEL_H
#define _ETE_MODEL_H

#include <linux/types.h>
#include <ete/access.h>

struct ete_model;

/**
 * enum ete_model_check - the rules the model checks, one log tag each
 * @EM_RRWYQD: write to a register other than TRCPRGCTLR/TRCCLAIM* while
 *	the trace unit is not Idle
 * @EM_RMDZDN: change of TRCPRGCTLR.EN outside Idle and Running
 * @EM_RSVSNR: write to a read-only register
 * @EM_RWXKDP: read of a write-only register
 * @EM_UNIMPL: access to a register the view or the ID registers do not
 *	implement (IWCXDT for system instructions, RKQMKX for MMIO)
 * @EM_RES0: a value with RES0 bits set or RES1 bits clear
 * @EM_IDRANGE: a value outside what the ID registers allow
 * @EM_SHSXGZ: TRCSTATR read without a context synchronization event since
 *	the enable change or the previous TRCSTATR read
 * @EM_RJLRQH: TSB CSYNC outside a trace-prohibited region
 * @EM_OFFCPU: system-register access off the owning CPU or preemptible
 * @EM_RKYDTQ: an MMIO access of an unsupported size or alignment
 * @EM_SWLOCK: an MMIO write while the Software Lock is set
 * @EM_TRBE_EN: a TRBE register write the architecture forbids while the
 *	TRBE is enabled
 * @EM_TRBE_PTR: TRBE pointers inconsistent when the TRBE is enabled
 * @EM_TRBE_ORDER: the TRBE disabled while the trace unit is not Idle and
 *	trace is not prohibited (trace in flight is lost)
 * @EM_RVTNCS: TRBPTR_EL1 or TRBSR_EL1 read after a TSB CSYNC with no
 *	context synchronization event between them (the value may predate
 *	the flush)
 * @EM_EXTPD: an external-debug (MMIO) access to a unit whose core power
 *	domain is off: an error response on silicon (RKQMKX; IBMSVN: a core
 *	that is off is powered down), an external abort for the kernel
 * @EM_IKWCGH: a trace unit register written (system instructions) after a
 *	TRCPRGCTLR or OS Lock write that enables the unit, before the context
 *	synchronization event that makes it take effect: the write may land
 *	after the unit left Idle (IKWCGH, RKNQWS, RRWYQD)
 * @EM_EXTOSLK: an external (MMIO) access to a trace unit register (offsets
 *	0x000-0xEFC but the OS Lock and power-down registers) while the PE
 *	OS Lock is locked: CONSTRAINED UNPREDICTABLE, an error response or
 *	RES0H (D.11, RYSHRS, RKQMKX); the model answers with the error
 * @EM_TRBE_OFF: the trace unit Running and trace allowed (TRFCR E0TRE or
 *	ExTRE as of the last context synchronization event) while
 *	TRBLIMITR_EL1.E is 0 and no other sink (ete_model_set_atb()) takes
 *	the trace: it goes to the trace bus, which with no sink there may
 *	hang the PE (I.12(2): the TRBE is enabled before the trace unit, 004
 *	section 5.1).  Flagged once each time the condition begins
 * @EM_TRBE_UNFLUSHED: the TRBE disabled while trace is still in the trace
 *	unit's buffer (no TSB CSYNC since it was made: RJLRQH, RRFJQN), or
 *	with its writes since the last DSB not completed (004 section 4:
 *	TSB CSYNC is used with a DSB)
 * @EM_TRBE_ENSYNC: TRBLIMITR_EL1.E set while a direct write to another
 *	TRBE register (or to TRBLIMITR_EL1 itself) has had no context
 *	synchronization event since: the TRBE's indirect reads may see E
 *	before the pointers and the status it was set up with (Arm ARM,
 *	"Synchronization requirements for AArch64 System registers";
 *	coresight-trbe.c's isb() in trbe_enable_hw())
 * @EM_NR_CHECKS: number of checks
 */
enum ete_model_check {
	EM_RRWYQD,
	EM_RMDZDN,
	EM_RSVSNR,
	EM_RWXKDP,
	EM_UNIMPL,
	EM_RES0,
	EM_IDRANGE,
	EM_SHSXGZ,
	EM_RJLRQH,
	EM_OFFCPU,
	EM_RKYDTQ,
	EM_SWLOCK,
	EM_TRBE_EN,
	EM_TRBE_PTR,
	EM_TRBE_ORDER,
	EM_RVTNCS,
	EM_EXTPD,
	EM_IKWCGH,
	EM_EXTOSLK,
	EM_TRBE_OFF,
	EM_TRBE_UNFLUSHED,
	EM_TRBE_ENSYNC,
	EM_NR_CHECKS,
};

/**
 * enum ete_model_state - the programming states of Table D4-1
 * @EM_IDLE: disabled, idle
 * @EM_ENABLING: enabled, not yet running
 * @EM_RUNNING: enabled and running
 * @EM_UNSTABLE: disabled, resources not yet stable
 * @EM_STABLE: disabled, stable, still draining
 */
enum ete_model_state {
	EM_IDLE,
	EM_ENABLING,
	EM_RUNNING,
	EM_UNSTABLE,
	EM_STABLE,
};

/**
 * enum ete_model_fault - faults a test can inject
 * @EM_FAULT_NONE: no fault
 * @EM_FAULT_ABORT: the next TRBE buffer write takes a stage 1 abort
 * @EM_FAULT_STUCK: the trace unit never leaves its transitional states
 * @EM_FAULT_SLOW_DRAIN: the internal buffer drains one byte per tick, so
 *	the unit overflows and must emit an Overflow packet
 */
enum ete_model_fault {
	EM_FAULT_NONE,
	EM_FAULT_ABORT,
	EM_FAULT_STUCK,
	EM_FAULT_SLOW_DRAIN,
};

/* A transition delay meaning "never" */
#define EM_DELAY_NEVER		(-1)

extern const struct ete_access_ops ete_model_sysreg_ops;
extern const struct ete_mmio_io_ops ete_model_mmio_ops;

struct ete_model *ete_model_create(const char *profile);
void ete_model_destroy(struct ete_model *m);
void *ete_model_mmio_ctx(struct ete_model *m, int cpu);
unsigned int ete_model_violations(struct ete_model *m, int cpu,
				  enum ete_model_check check);
unsigned int ete_model_violations_total(struct ete_model *m, int cpu);
void ete_model_clear_violations(struct ete_model *m, int cpu);
void ete_model_set_delay(struct ete_model *m, int cpu, int reads);
void ete_model_set_fault(struct ete_model *m, int cpu,
			 enum ete_model_fault fault);
void ete_model_set_rate(struct ete_model *m, int cpu, unsigned int bpms);
u64 ete_model_access_ns(struct ete_model *m, int cpu);
void ete_model_set_pmstable_unknown(struct ete_model *m, int cpu, int val);
void ete_model_set_midr(struct ete_model *m, u64 midr);
void ete_model_set_midr_cpus(struct ete_model *m, u64 midr,
			     unsigned long cpus);
enum ete_model_state ete_model_state(struct ete_model *m, int cpu);
void ete_model_power_down(struct ete_model *m, int cpu);
void ete_model_cpu_off(struct ete_model *m, int cpu);
void ete_model_irq_release(struct ete_model *m, int cpu);
u64 ete_model_claim(struct ete_model *m, int cpu);
void ete_model_external_claim(struct ete_model *m, int cpu, int how);
void ete_model_set_os_lock(struct ete_model *m, int cpu, bool lock);
void ete_model_cpu_on(struct ete_model *m, int cpu);
void ete_model_tick(struct ete_model *m, int cpu, unsigned int bytes);
void ete_model_trigger(struct ete_model *m, int cpu);
int ete_model_replay(struct ete_model *m, int cpu, const u8 *buf,
		     size_t len);
void ete_model_set_prohibited(struct ete_model *m, int cpu, bool prohibited);
void ete_model_set_atb(struct ete_model *m, int cpu, bool on);
unsigned int ete_model_irqs_raised(struct ete_model *m, int cpu);
u64 ete_model_peek(struct ete_model *m, int cpu, u32 reg);
void ete_model_set_irq(struct ete_model *m, int virq, bool autotick);
int ete_model_trbe_virq(void);
void ete_model_cpu_pm(unsigned long cmd);
void ete_model_cpu_pm_done(unsigned long cmd);

#endif /* _ETE_MODEL_H */
