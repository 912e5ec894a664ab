// SPDX-License-Identifier: GPL-2.0
/*
 * The TRBE of the model: TRB*_EL1, the fill, wrap and circular buffer
 * modes, the trigger counter and modes, TRBSR events, and the writes of
 * trace bytes into the buffer the driver gave it.  The buffer addresses are
 * kernel virtual addresses of the owning regime (the driver vmaps its
 * pages); the model writes only inside [TRBBASER_EL1, TRBLIMITR_EL1.LIMIT).
 * Called with the unit's lock held.
 */

#include <linux/bitfield.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <asm/cputype.h>

#include "model.h"
#include "pkt.h"

#define EM_FSC_TRANSLATION_L1	0x05

static u64 em_limit(const struct em_unit *u)
{
	return u->trblimitr & EM_TRBLIMITR_LIMIT;
}

static unsigned int em_align(const struct em_unit *u)
{
	return 1U << FIELD_GET(EM_TRBIDR_ALIGN, u->prof->trbidr);
}

/**
 * em_trbe_reset() - TRBE reset values: disabled, everything else UNKNOWN
 * @u: the unit
 *
 * Context: the unit's lock held, or the unit not yet shared.
 */
void em_trbe_reset(struct em_unit *u)
{
	const struct em_profile *p = u->prof;

	u->trblimitr = em_unknown(u, em_reg_wmask(p, ETE_TRBLIMITR_EL1, 0)) &
		       ~EM_TRBLIMITR_E;
	u->mem_pending = false;
	u->trbptr = em_unknown(u, GENMASK_ULL(63, 0));
	u->trbbaser = em_unknown(u, EM_TRBBASER_BASE);
	u->trbsr = em_unknown(u, em_reg_wmask(p, ETE_TRBSR_EL1, 0));
	u->trbmar = em_unknown(u, GENMASK(11, 0));
	u->trbtrg = em_unknown(u, U32_MAX);
	u->trig_seen = false;
	u->align_len = 0;
	u->ppi_raised = false;
}

/**
 * em_trbe_enabled() - is the TRBE collecting trace
 * @u: the unit
 *
 * Context: the unit's lock held.
 * Return: true if TRBLIMITR_EL1.E is 1 and TRBSR_EL1.S is 0.
 */
bool em_trbe_enabled(const struct em_unit *u)
{
	return (u->trblimitr & EM_TRBLIMITR_E) && !(u->trbsr & EM_TRBSR_S);
}

/**
 * em_trbe_read() - read a TRBE register
 * @u: the unit
 * @reg: ETE_TRB*_EL1
 *
 * Context: the unit's lock held.
 * Return: the value.
 */
u64 em_trbe_read(struct em_unit *u, u32 reg)
{
	switch (reg) {
	case ETE_TRBLIMITR_EL1:
		return u->trblimitr;
	case ETE_TRBPTR_EL1:
		return u->trbptr;
	case ETE_TRBBASER_EL1:
		return u->trbbaser;
	case ETE_TRBSR_EL1:
		return u->trbsr;
	case ETE_TRBMAR_EL1:
		return u->trbmar;
	case ETE_TRBTRG_EL1:
		return u->trbtrg;
	default:
		return u->prof->trbidr;
	}
}

/* The pointers must describe a buffer when the TRBE is enabled */
static void em_trbe_check_enable(struct em_unit *u)
{
	u64 base = u->trbbaser, limit = em_limit(u), ptr = u->trbptr;

	if (base >= limit || ptr < base || ptr >= limit)
		em_violation(u, EM_TRBE_PTR, ETE_TRBLIMITR_EL1, u->trblimitr,
			     true);
	/* the model writes through kernel virtual addresses only */
	if (u->trblimitr & EM_TRBLIMITR_NVM)
		em_violation(u, EM_IDRANGE, ETE_TRBLIMITR_EL1, u->trblimitr,
			     true);
}

/**
 * em_trbe_write() - write a TRBE register (value already checked)
 * @u: the unit
 * @reg: ETE_TRB*_EL1
 * @val: the value
 *
 * While TRBLIMITR_EL1.E is 1, writes to the other TRBE registers, and
 * writes of TRBLIMITR_EL1 that keep E set but change another field, are
 * CONSTRAINED UNPREDICTABLE: they are logged, then made.
 *
 * Context: the unit's lock held.
 */
void em_trbe_write(struct em_unit *u, u32 reg, u64 val)
{
	bool en = u->trblimitr & EM_TRBLIMITR_E;
	u64 wmask = em_reg_wmask(u->prof, reg, 0);

	/* a write that clears TRBLIMITR_EL1.E is how the TRBE is disabled */
	if (en && (reg != ETE_TRBLIMITR_EL1 ||
		   ((val & EM_TRBLIMITR_E) &&
		    ((val ^ u->trblimitr) & wmask & ~EM_TRBLIMITR_E))))
		em_violation(u, EM_TRBE_EN, reg, val, true);
	/*
	 * Stop the trace unit (or prohibit trace and flush it) before the
	 * TRBE: seed 004 section 5.1, and the handler order of trbe.c.
	 */
	if (en && reg == ETE_TRBLIMITR_EL1 && !(val & EM_TRBLIMITR_E) &&
	    u->state != EM_IDLE && !em_unit_prohibited(u))
		em_violation(u, EM_TRBE_ORDER, reg, val, true);
	/*
	 * RRFJQN, RJLRQH: trace still in the unit (no TSB CSYNC since it
	 * was made), or the TRBE's writes not completed by a DSB (004
	 * section 4): what is in flight is lost, or not yet in memory when
	 * the pointer says it is.
	 */
	else if (en && reg == ETE_TRBLIMITR_EL1 &&
		 !(val & EM_TRBLIMITR_E) && (u->fifo_len || u->mem_pending))
		em_violation(u, EM_TRBE_UNFLUSHED, reg, val, true);
	/* the enable must see the other registers' writes (EM_TRBE_ENSYNC) */
	if (!en && reg == ETE_TRBLIMITR_EL1 && (val & EM_TRBLIMITR_E) &&
	    u->trbe_unsync)
		em_violation(u, EM_TRBE_ENSYNC, reg, val, true);
	u->trbe_unsync = true;
	val &= wmask;
	switch (reg) {
	case ETE_TRBLIMITR_EL1:
		u->trblimitr = val;
		if (!en && (val & EM_TRBLIMITR_E)) {
			u->align_len = 0;
			em_trbe_check_enable(u);
		}
		break;
	case ETE_TRBPTR_EL1:
		u->trbptr = val;
		break;
	case ETE_TRBBASER_EL1:
		u->trbbaser = val;
		break;
	case ETE_TRBSR_EL1:
		u->trbsr = val;
		/* the line goes low: a later event pends the PPI anew */
		if (!(val & EM_TRBSR_IRQ))
			u->ppi_raised = false;
		break;
	case ETE_TRBMAR_EL1:
		u->trbmar = val;
		break;
	case ETE_TRBTRG_EL1:
		u->trbtrg = val;
		u->trig_seen = false;
		break;
	}
}

static void em_trbe_irq(struct em_unit *u)
{
	u->trbsr |= EM_TRBSR_IRQ;
	u->irqs++;
	u->irq_req = true;
}

/* A buffer management event that stops collection */
static void em_trbe_stop(struct em_unit *u, unsigned int ec, unsigned int mss)
{
	u->trbsr &= ~(EM_TRBSR_EC | EM_TRBSR_MSS);
	u->trbsr |= EM_TRBSR_S | FIELD_PREP(EM_TRBSR_EC, ec) |
		    FIELD_PREP(EM_TRBSR_MSS, mss);
	em_trbe_irq(u);
}

static void em_trbe_wrap(struct em_unit *u)
{
	u->trbptr = u->trbbaser;
	u->trbsr |= EM_TRBSR_WRAP;
	switch (FIELD_GET(EM_TRBLIMITR_FM, u->trblimitr)) {
	case EM_FM_FILL:
		em_trbe_stop(u, 0, EM_BSC_FILLED);
		break;
	case EM_FM_WRAP:
		em_trbe_irq(u);
		break;
	default:	/* circular buffer: no event */
		break;
	}
}

static void em_trbe_trigger_event(struct em_unit *u)
{
	u->trbsr |= EM_TRBSR_TRG;
	switch (FIELD_GET(EM_TRBLIMITR_TM, u->trblimitr)) {
	case EM_TM_STOP:
		em_trbe_stop(u, 0, EM_BSC_TRIGGERED);
		break;
	case EM_TM_IRQ:
		em_trbe_irq(u);
		break;
	default:	/* ignore trigger */
		break;
	}
}

/**
 * em_trbe_trigger() - the trace unit signals a trigger to the TRBE
 * @u: the unit
 *
 * TRBTRG_EL1 then counts the bytes written; at zero the Trigger Event
 * happens.  No trigger happens while the TRBE is disabled.
 *
 * Context: the unit's lock held.
 */
void em_trbe_trigger(struct em_unit *u)
{
	if (!em_trbe_enabled(u) || (u->trbsr & EM_TRBSR_TRG))
		return;
	u->trig_seen = true;
	if (!u->trbtrg)
		em_trbe_trigger_event(u);
}

/*
 * TRBE errata the model reproduces, on the parts they affect (the same
 * parts as trbe/errata.c; the test checks the driver's workaround, so the
 * two lists are written independently):
 * 2119858 (Cortex-A710, X2 up to r2p0), 2139208 (Neoverse N2): on a fill
 * event the TRBE may go on writing up to 3 cache lines from TRBBASER_EL1;
 * 2224489 (A710, X2), 2253138 (N2): it may write up to 64 bytes beyond the
 * limit.  The model does both at every fill event (em_trbe_quirk_fill()).
 */
#define EM_QUIRK_OVERWRITE_BASE	BIT(0)
#define EM_QUIRK_WRITE_BEYOND	BIT(1)
#define EM_QUIRK_BASE_BYTES	192	/* 3 cache lines */
#define EM_QUIRK_BEYOND_BYTES	64

/**
 * em_trbe_quirks_for_midr() - the TRBE errata the model reproduces
 * @midr: MIDR_EL1 of the PE
 *
 * Context: any; pure.
 * Return: a mask of EM_QUIRK_* bits.
 */
unsigned long em_trbe_quirks_for_midr(u32 midr)
{
	static const struct midr_range parts[] = {
		MIDR_ALL_VERSIONS(MIDR_NEOVERSE_N2),
		MIDR_ALL_VERSIONS(MIDR_CORTEX_A710),
		MIDR_RANGE(MIDR_CORTEX_X2, 0, 0, 2, 0),
		{},
	};
	const struct midr_range *r;

	for (r = parts; r->model; r++)
		if (midr_is_cpu_model_range(midr, r->model, r->rv_min,
					    r->rv_max))
			return EM_QUIRK_OVERWRITE_BASE | EM_QUIRK_WRITE_BEYOND;
	return 0;
}

/*
 * Is [addr, addr + len) mapped kernel memory?  Without the driver's
 * workaround the place beyond the limit need not be mapped, and the model
 * must not oops where silicon would corrupt memory: the corruption is what
 * tests look for.
 */
static bool em_kaddr_mapped(u64 addr, unsigned int len)
{
	const void *a = (const void *)(uintptr_t)addr;
	const void *z = (const void *)(uintptr_t)(addr + len - 1);

	if (is_vmalloc_addr(a) && is_vmalloc_addr(z))
		return vmalloc_to_page(a) && vmalloc_to_page(z);
	return virt_addr_valid(a) && virt_addr_valid(z);
}

static void em_quirk_copy(u64 to, u64 from, unsigned int len)
{
	if (em_kaddr_mapped(to, len))
		memmove((void *)(uintptr_t)to, (void *)(uintptr_t)from, len);
}

/*
 * A fill event on an affected part, at once (before the interrupt is
 * taken): trace bytes land from TRBBASER_EL1 on and past the limit.  The
 * model writes there again the bytes it has just written below the limit,
 * which are trace, so a reader that gets them sees trace out of place.
 */
static void em_trbe_quirk_fill(struct em_unit *u, u64 base, u64 limit)
{
	unsigned int span = min_t(u64, limit - base, EM_QUIRK_BASE_BYTES);

	if (FIELD_GET(EM_TRBLIMITR_FM, u->trblimitr) != EM_FM_FILL)
		return;
	if (u->quirks & EM_QUIRK_WRITE_BEYOND)
		em_quirk_copy(limit, limit - min_t(u64, span,
						   EM_QUIRK_BEYOND_BYTES),
			      min_t(u64, span, EM_QUIRK_BEYOND_BYTES));
	if (u->quirks & EM_QUIRK_OVERWRITE_BASE)
		em_quirk_copy(base, limit - span, span);
	u->quirk_fills++;
}

/* Write @n bytes at TRBPTR_EL1, honouring limit, wrap, trigger and stop */
static void em_trbe_put(struct em_unit *u, const u8 *data, unsigned int n)
{
	while (n && em_trbe_enabled(u)) {
		u64 ptr = u->trbptr, limit = em_limit(u);
		unsigned int chunk;

		if (u->fault == EM_FAULT_ABORT) {
			u->fault = EM_FAULT_NONE;
			em_trbe_stop(u, EM_EC_STAGE1_ABORT,
				     EM_FSC_TRANSLATION_L1);
			break;
		}
		if (ptr < u->trbbaser || ptr >= limit)
			break;	/* never write outside [base, limit) */
		chunk = min_t(u64, n, limit - ptr);
		if (u->trig_seen && !(u->trbsr & EM_TRBSR_TRG))
			chunk = min_t(u64, chunk, u->trbtrg);
		memcpy((void *)(uintptr_t)ptr, data, chunk);
		u->trbptr = ptr + chunk;
		u->bytes_out += chunk;
		u->mem_pending = true;
		data += chunk;
		n -= chunk;
		if (u->trig_seen && !(u->trbsr & EM_TRBSR_TRG)) {
			u->trbtrg -= chunk;
			if (!u->trbtrg)
				em_trbe_trigger_event(u);
		}
		if (u->trbptr == limit) {
			em_trbe_wrap(u);
			if (u->quirks && (u->trbsr & EM_TRBSR_S))
				em_trbe_quirk_fill(u, u->trbbaser, limit);
		}
	}
	u->bytes_dropped += n;
}

/**
 * em_trbe_output() - trace bytes from the trace unit
 * @u: the unit
 * @buf: the bytes
 * @len: how many
 *
 * RLGVCX/RFJFNS: with the TRBE disabled the bytes go to another output
 * (counted as dropped); with TRBSR_EL1.S set they are discarded.  The TRBE
 * writes whole blocks of the TRBIDR_EL1.Align size.
 *
 * Context: the unit's lock held.
 */
void em_trbe_output(struct em_unit *u, const u8 *buf, unsigned int len)
{
	unsigned int align = em_align(u);

	if (!em_trbe_enabled(u)) {
		u->bytes_dropped += len;
		return;
	}
	if (align == 1) {
		em_trbe_put(u, buf, len);
		return;
	}
	while (len) {
		unsigned int n = min(len, align - u->align_len);

		memcpy(u->align_buf + u->align_len, buf, n);
		u->align_len += n;
		buf += n;
		len -= n;
		if (u->align_len == align) {
			u->align_len = 0;
			em_trbe_put(u, u->align_buf, align);
		}
	}
}

/**
 * em_trbe_flush() - complete a partial block with Ignore packets
 * @u: the unit
 *
 * Context: the unit's lock held.
 */
void em_trbe_flush(struct em_unit *u)
{
	unsigned int align = em_align(u);

	if (!u->align_len)
		return;
	while (u->align_len < align)
		em_pkt_ignore(&u->align_buf[u->align_len++]);
	u->align_len = 0;
	if (em_trbe_enabled(u))
		em_trbe_put(u, u->align_buf, align);
	else
		u->bytes_dropped += align;
}
