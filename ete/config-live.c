// SPDX-License-Identifier: GPL-2.0
/*
 * The live set of a configuration: the resource registers it can make
 * reach the trace (the closure of what its control registers name), so
 * that the image writes those and nothing else.  Pure: KUnit checks it.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ete/config.h>

#define TRCACATR_CTX_CID	BIT(0)	/* CONTEXTTYPE: CID, VMID or both */
#define TRCACATR_CTX_VMID	BIT(1)

/* The n lowest bits, n up to 32 */
static u32 ete_low_bits(unsigned int n)
{
	return n ? GENMASK(min(n, 32U) - 1, 0) : 0;
}

/*
 * An event selector names one resource selector or a pair (G.7);
 * selectors 0 and 1 are FALSE and TRUE (RNRSGN, RSXSQT) and have no
 * register to program.
 */
static void ete_live_event(struct ete_live *live, u8 ev)
{
	u32 rs;

	if (ev & ETE_EVENT_PAIR)
		rs = 3U << (2 * (ev & 0xf));
	else
		rs = BIT(ev & ETE_EVENT_SEL_MASK);
	live->rs |= rs & ~3U;
}

/* Address range comparator k is the SAC pair 2k, 2k + 1 (G.12) */
static u16 ete_arc_sacs(u32 arcs)
{
	u16 sacs = 0;
	unsigned int k;

	for (k = 0; k < ETE_MAX_ARC; k++)
		if (arcs & BIT(k))
			sacs |= 3U << (2 * k);
	return sacs;
}

/* What one resource selector selects (RWZVDQ, Table D4-26) */
static void ete_live_selector(const struct ete_rs_config *r,
			      struct ete_live *live)
{
	switch (r->group) {
	case ETE_RS_GROUP_EXTIN:
		live->extin |= r->select;
		break;
	case ETE_RS_GROUP_CNTR_SEQ:
		live->cntr |= r->select & 0xf;
		live->seq |= !!(r->select & 0xf0);
		break;
	case ETE_RS_GROUP_SS:
		live->ss |= r->select;
		break;
	case ETE_RS_GROUP_SAC:
		live->sac |= r->select;
		break;
	case ETE_RS_GROUP_ARC:
		live->sac |= ete_arc_sacs(r->select);
		break;
	case ETE_RS_GROUP_CIDC:
		live->cidc |= r->select;
		break;
	case ETE_RS_GROUP_VMIDC:
		live->vmidc |= r->select;
		break;
	default:
		/* PE comparator inputs: no register of the trace unit */
		break;
	}
}

/* One step of the closure: what the resources in @live name in turn */
static void ete_live_step(const struct ete_config *cfg,
			  const struct ete_caps *caps, struct ete_live *live)
{
	unsigned long rs = live->rs, cntr = live->cntr, ss = live->ss;
	unsigned long sac;
	unsigned int i;

	for_each_set_bit(i, &rs, caps->num_rs)
		ete_live_selector(&cfg->rs[i], live);
	for_each_set_bit(i, &cntr, caps->num_cntr) {
		const struct ete_cntr_config *c = &cfg->cntr[i];

		ete_live_event(live, c->count_event);
		ete_live_event(live, c->reload_event);
		/* G.17a: a chained counter counts its lower neighbour's reloads */
		if ((i & 1) && c->chain)
			live->cntr |= BIT(i - 1);
	}
	if (live->seq && caps->num_seq_states) {
		for (i = 0; i < caps->num_seq_states - 1; i++) {
			ete_live_event(live, cfg->seq_fwd[i]);
			ete_live_event(live, cfg->seq_bwd[i]);
		}
		ete_live_event(live, cfg->seq_reset);
	}
	for_each_set_bit(i, &ss, caps->num_ss)
		live->sac |= cfg->ss[i].sac | ete_arc_sacs(cfg->ss[i].arc);
	/* a comparator's TRCACATR.CONTEXTTYPE adds a context comparator */
	sac = live->sac;
	for_each_set_bit(i, &sac, caps->num_ac) {
		const struct ete_addr_config *a = &cfg->addr[i];

		if (a->context_type & TRCACATR_CTX_CID)
			live->cidc |= BIT(a->context);
		if (a->context_type & TRCACATR_CTX_VMID)
			live->vmidc |= BIT(a->context);
	}
	live->rs &= ete_low_bits(caps->num_rs) & ~3U;
	live->sac &= ete_low_bits(caps->num_ac);
	live->cidc &= ete_low_bits(caps->num_cidc);
	live->vmidc &= ete_low_bits(caps->num_vmidc);
	live->cntr &= ete_low_bits(caps->num_cntr);
	live->ss &= ete_low_bits(caps->num_ss);
	live->extin &= ete_low_bits(caps->num_extinsel);
	live->seq &= caps->num_seq_states > 0;
}

static bool ete_live_equal(const struct ete_live *a, const struct ete_live *b)
{
	return a->rs == b->rs && a->sac == b->sac && a->cidc == b->cidc &&
	       a->vmidc == b->vmidc && a->cntr == b->cntr && a->ss == b->ss &&
	       a->extin == b->extin && a->seq == b->seq;
}

/**
 * ete_config_live() - the registers a configuration can make reach the trace
 * @cfg: the configuration
 * @caps: the unit's capabilities (only resources that exist are named)
 * @live: filled
 *
 * Besides the control registers, which ete_config_to_image() always
 * writes, a register matters only if something that matters names it:
 * the event selectors of ViewInst (TRCVICTLR.EVENT), of the ETEEvents
 * (TRCEVENTCTL0R) and of the timestamp (TRCTSCTLR) name resource
 * selectors; ViewInst include/exclude, start/stop, branch broadcast and
 * Q ranges (when those are on) name address comparators.  A selector
 * names the resources of its group (RWZVDQ, Table D4-26), a counter its
 * count and reload events and, chained, its lower neighbour (G.17a), the
 * sequencer its transition events, a single-shot control its comparators,
 * an address comparator the context comparator of its TRCACATR.  The set
 * is that closure.  Anything outside it the unit never looks at, so its
 * value, UNKNOWN after a trace unit reset (RPCXJC), cannot change the
 * trace; inside it every register gets its programmed value, including
 * the initial resource state SLMPNV asks for (counter values, sequencer
 * state, single-shot status).
 *
 * Context: any context; pure.
 */
void ete_config_live(const struct ete_config *cfg,
		     const struct ete_caps *caps, struct ete_live *live)
{
	struct ete_live prev;
	unsigned int i;

	memset(live, 0, sizeof(*live));
	ete_live_event(live, cfg->viewinst_event);
	for (i = 0; i < caps->num_events; i++)
		ete_live_event(live, cfg->event[i]);
	if (caps->ts_bits)
		ete_live_event(live, cfg->ts_event);
	if (caps->num_arc) {
		live->sac = ete_arc_sacs(cfg->include_ranges |
					 cfg->exclude_ranges);
		if (cfg->branch_broadcast && caps->branch_broadcast)
			live->sac |= ete_arc_sacs(cfg->bb_ranges);
		if (cfg->q_elements && caps->qfilt)
			live->sac |= ete_arc_sacs(cfg->q_ranges);
		live->sac |= cfg->start_addrs | cfg->stop_addrs;
		live->startstop = cfg->start_addrs || cfg->stop_addrs;
	}
	/* monotonic over finitely many bits: ends */
	do {
		prev = *live;
		ete_live_step(cfg, caps, live);
	} while (!ete_live_equal(&prev, live));
}
EXPORT_SYMBOL_IF_KUNIT(ete_config_live);
