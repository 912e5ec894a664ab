// SPDX-License-Identifier: GPL-2.0
/*
 * TRBSR_EL1 decoding: a status value, and the modes the TRBE was
 * programmed with, become one action for the interrupt handler.
 *
 * Pure functions: no register access, no side effects.  Encodings from the
 * Arm ARM, TRBSR_EL1 (EC, MSS as BSC or FSC); registers.md section 3 notes
 * that the seeds give only the field names.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <kunit/visibility.h>

#include <ete/trbe.h>

static void trbe_status_fault(struct trbe_status *st, enum trbe_fault why)
{
	st->action = TRBE_ACT_FAULT;
	st->fault = why;
}

/* A buffer management event (EC 0): explain it by BSC and the modes. */
static void trbe_status_buf_mgmt(struct trbe_status *st,
				 enum trbe_fill_mode fm,
				 enum trbe_trig_mode tm)
{
	switch (st->code) {
	case TRBE_BSC_FILLED:
		if (fm == TRBE_FM_FILL && st->stopped)
			st->action = TRBE_ACT_FULL;
		else
			trbe_status_fault(st, TRBE_FAULT_UNKNOWN);
		return;
	case TRBE_BSC_TRIGGERED:
		if (tm == TRBE_TM_STOP && st->stopped && st->triggered)
			st->action = TRBE_ACT_TRIG_STOP;
		else
			trbe_status_fault(st, TRBE_FAULT_UNKNOWN);
		return;
	case TRBE_BSC_NOT_STOPPED:
		if (st->stopped)
			trbe_status_fault(st, TRBE_FAULT_UNKNOWN);
		else if (st->wrapped && fm == TRBE_FM_WRAP)
			st->action = TRBE_ACT_WRAP;
		else if (st->triggered && tm == TRBE_TM_IRQ)
			st->action = TRBE_ACT_TRIG_IRQ;
		else
			trbe_status_fault(st, TRBE_FAULT_UNKNOWN);
		return;
	default:
		trbe_status_fault(st, TRBE_FAULT_UNKNOWN);
	}
}

/**
 * trbe_status_decode() - decide what a TRBSR_EL1 value asks of the driver
 * @trbsr: the status register value
 * @fm: the fill mode the TRBE was programmed with
 * @tm: the trigger mode the TRBE was programmed with
 *
 * An event only some mode can cause is a fault in the other modes (a
 * "buffer filled" stop in wrap mode, say): the driver cannot say where the
 * data is, so it stops rather than guesses.  When both a wrap and a
 * trigger are reported, the action names the wrap and @triggered is set.
 *
 * Context: any; pure.
 * Return: the decoded status; @action is %TRBE_ACT_NOT_OURS when
 * TRBSR.IRQ is clear.
 */
struct trbe_status trbe_status_decode(u64 trbsr, enum trbe_fill_mode fm,
				      enum trbe_trig_mode tm)
{
	struct trbe_status st = {
		.ec = FIELD_GET(TRBE_SR_EC, trbsr),
		.code = FIELD_GET(TRBE_SR_BSC, trbsr),
		.stopped = trbsr & TRBE_SR_S,
		.wrapped = trbsr & TRBE_SR_WRAP,
		.triggered = trbsr & TRBE_SR_TRG,
	};

	if (!(trbsr & TRBE_SR_IRQ)) {
		st.action = TRBE_ACT_NOT_OURS;
		return st;
	}
	if (trbsr & TRBE_SR_EA) {
		trbe_status_fault(&st, TRBE_FAULT_EXTERNAL);
		return st;
	}
	switch (st.ec) {
	case TRBE_EC_BUF_MGMT:
		trbe_status_buf_mgmt(&st, fm, tm);
		break;
	case TRBE_EC_STAGE1_ABORT:
		trbe_status_fault(&st, TRBE_FAULT_STAGE1);
		break;
	case TRBE_EC_STAGE2_ABORT:
		trbe_status_fault(&st, TRBE_FAULT_STAGE2);
		break;
	case TRBE_EC_GPC_FAULT:
		trbe_status_fault(&st, TRBE_FAULT_GPC);
		break;
	case TRBE_EC_IMPDEF:
		trbe_status_fault(&st, TRBE_FAULT_IMPDEF);
		break;
	default:
		trbe_status_fault(&st, TRBE_FAULT_UNKNOWN);
	}
	return st;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_status_decode);

/**
 * trbe_status_clear() - the TRBSR_EL1 value that acknowledges an event
 * @trbsr: the value read
 *
 * Clears IRQ, TRG, WRAP, EA, S, EC and MSS, keeping any other bit, so that
 * writing the result back lets collection resume (RJLRQH sequence, then
 * this write, then re-enable).
 *
 * Context: any; pure.
 * Return: the value to write.
 */
u64 trbe_status_clear(u64 trbsr)
{
	return trbsr & ~(TRBE_SR_EC | TRBE_SR_IRQ | TRBE_SR_TRG |
			 TRBE_SR_WRAP | TRBE_SR_EA | TRBE_SR_S | TRBE_SR_MSS);
}
EXPORT_SYMBOL_IF_KUNIT(trbe_status_clear);

/**
 * trbe_fsc_name() - name a fault status code for the log
 * @fsc: TRBSR.MSS[5:0] of an abort (the DFSC encoding)
 *
 * Context: any; pure.
 * Return: a constant string; "reserved" for an unallocated code.
 */
const char *trbe_fsc_name(u8 fsc)
{
	switch (fsc) {
	case 0x00 ... 0x03:
		return "address size fault";
	case 0x04 ... 0x07:
	case 0x2b:
		return "translation fault";
	case 0x08 ... 0x0b:
		return "access flag fault";
	case 0x0c ... 0x0f:
		return "permission fault";
	case 0x10:
		return "synchronous external abort";
	case 0x11:
		return "tag check fault";
	case 0x13:
	case 0x14 ... 0x17:
		return "external abort on table walk";
	case 0x18:
		return "parity or ECC error";
	case 0x1b:
	case 0x1c ... 0x1f:
		return "parity or ECC error on table walk";
	case 0x21:
		return "alignment fault";
	case 0x23:
	case 0x24 ... 0x27:
	case 0x28:
		return "granule protection fault";
	case 0x29:
		return "address size fault";
	case 0x30:
		return "TLB conflict abort";
	case 0x31:
		return "unsupported atomic update";
	case 0x34:
	case 0x35:
		return "implementation defined fault";
	default:
		return "reserved";
	}
}
EXPORT_SYMBOL_IF_KUNIT(trbe_fsc_name);
