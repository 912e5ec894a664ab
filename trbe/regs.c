// SPDX-License-Identifier: GPL-2.0
/*
 * TRBE register values: ID decoding and one builder per register.
 *
 * Pure functions: the start and stop paths write what these return and
 * compute nothing else.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <kunit/visibility.h>

#include <ete/trbe.h>

/**
 * trbe_dfr0_has_trbe() - does ID_AA64DFR0_EL1 report FEAT_TRBE
 * @dfr0: the ID_AA64DFR0_EL1 value of the CPU
 *
 * TraceBuffer is an unsigned ID field: 0b0001 and above implement TRBE.
 * Nothing may read TRBIDR_EL1 on a CPU where this is false.
 *
 * Context: any; pure.
 * Return: true if the CPU implements a TRBE.
 */
bool trbe_dfr0_has_trbe(u64 dfr0)
{
	return FIELD_GET(TRBE_DFR0_TRACEBUFFER, dfr0) >= 1;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_dfr0_has_trbe);

/**
 * trbe_id_decode() - decode TRBIDR_EL1
 * @trbidr: the register value
 *
 * Context: any; pure.
 * Return: the alignment in bytes and the P and F flags.
 */
struct trbe_id trbe_id_decode(u64 trbidr)
{
	struct trbe_id id = {
		.align = 1ULL << FIELD_GET(TRBE_IDR_ALIGN, trbidr),
		.prohibited = trbidr & TRBE_IDR_P,
		.flag_update = trbidr & TRBE_IDR_F,
	};

	return id;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_id_decode);

/**
 * trbe_limitr_value() - build TRBLIMITR_EL1
 * @limit: the limit address; bits [11:0] are dropped (4KB granule)
 * @fm: fill mode
 * @tm: trigger mode
 * @enable: set E
 *
 * nVM is left 0: the pointers are virtual addresses in the owning
 * translation regime (I.2).
 *
 * Context: any; pure.
 * Return: the register value.
 */
u64 trbe_limitr_value(u64 limit, enum trbe_fill_mode fm,
		      enum trbe_trig_mode tm, bool enable)
{
	return (limit & TRBE_LIMITR_LIMIT) |
	       FIELD_PREP(TRBE_LIMITR_FM, fm) |
	       FIELD_PREP(TRBE_LIMITR_TM, tm) |
	       (enable ? TRBE_LIMITR_E : 0);
}
EXPORT_SYMBOL_IF_KUNIT(trbe_limitr_value);

/**
 * trbe_baser_value() - build TRBBASER_EL1
 * @base: the base address; bits [11:0] are dropped (4KB granule)
 *
 * Context: any; pure.
 * Return: the register value.
 */
u64 trbe_baser_value(u64 base)
{
	return base & TRBE_BASER_BASE;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_baser_value);

/**
 * trbe_ptr_value() - build TRBPTR_EL1
 * @ptr: the write pointer, already aligned as TRBIDR.Align requires
 *
 * Context: any; pure.
 * Return: the register value (the full 64-bit address).
 */
u64 trbe_ptr_value(u64 ptr)
{
	return ptr;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_ptr_value);

/**
 * trbe_trg_value() - build TRBTRG_EL1
 * @count: bytes to collect after the trigger before the trigger event
 *
 * Context: any; pure.
 * Return: the register value.
 */
u64 trbe_trg_value(u32 count)
{
	return FIELD_PREP(TRBE_TRG_TRG, count);
}
EXPORT_SYMBOL_IF_KUNIT(trbe_trg_value);

/**
 * trbe_trfcr_value() - allow or prohibit self-hosted trace in TRFCR
 * @trfcr: the current value (TS and CX are kept)
 * @enable: allow trace at EL0 and the kernel's EL (E1TRE, or E2TRE and
 *	E0HTRE when the kernel runs at EL2 with VHE, where the TRFCR_EL1
 *	encoding reaches TRFCR_EL2 with the same bit positions)
 *
 * Clearing both enables makes the PE trace-prohibited, the region in which
 * TSB CSYNC flushes the trace unit into the TRBE (RJLRQH).
 *
 * Context: any; pure.
 * Return: the value to write.
 */
u64 trbe_trfcr_value(u64 trfcr, bool enable)
{
	const u64 en = TRBE_TRFCR_E0TRE | TRBE_TRFCR_EXTRE;

	return enable ? trfcr | en : trfcr & ~en;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_trfcr_value);
