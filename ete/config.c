// SPDX-License-Identifier: GPL-2.0
/*
 * struct ete_config: defaults, validation against the capabilities, and the
 * pure function from configuration to register image.  No register access
 * and no global state: KUnit checks every function here directly.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ete/config.h>
#include <ete/param.h>
#include <ete/regs.h>

/* Register fields (Arm ARM D4.7; the R52+ positions of seed 002 agree) */
#define TRCCONFIGR_RES1		BIT(0)
#define TRCCONFIGR_BB		BIT(3)
#define TRCCONFIGR_CCI		BIT(4)
#define TRCCONFIGR_CID		BIT(6)
#define TRCCONFIGR_VMID		BIT(7)
#define TRCCONFIGR_TS		BIT(11)
#define TRCCONFIGR_RS		BIT(12)
#define TRCCONFIGR_QE		GENMASK(14, 13)
#define TRCCONFIGR_VMIDOPT	BIT(15)
#define TRCEVENTCTL1R_INSTEN	GENMASK(3, 0)
#define TRCEVENTCTL1R_ATB	BIT(11)
#define TRCSTALLCTLR_LEVEL	GENMASK(3, 2)
#define TRCSTALLCTLR_ISTALL	BIT(8)
#define TRCSTALLCTLR_NOOVERFLOW	BIT(13)
#define TRCBBCTLR_RANGE		GENMASK(7, 0)
#define TRCBBCTLR_MODE		BIT(8)
#define TRCQCTLR_RANGE		GENMASK(7, 0)
#define TRCQCTLR_MODE		BIT(8)
#define TRCVICTLR_EVENT		GENMASK(7, 0)
#define TRCVICTLR_SSSTATUS	BIT(9)
#define TRCVICTLR_TRCERR	BIT(11)
#define TRCVICTLR_EXLEVEL_S	GENMASK(19, 16)
#define TRCVICTLR_EXLEVEL_NS	GENMASK(22, 20)
#define TRCVIIECTLR_INCLUDE	GENMASK(7, 0)
#define TRCVIIECTLR_EXCLUDE	GENMASK(23, 16)
#define TRCVISSCTLR_START	GENMASK(15, 0)
#define TRCVISSCTLR_STOP	GENMASK(31, 16)
#define TRCSEQEVR_F		GENMASK(7, 0)
#define TRCSEQEVR_B		GENMASK(15, 8)
#define TRCCNTCTLR_CNTEVENT	GENMASK(7, 0)
#define TRCCNTCTLR_RLDEVENT	GENMASK(15, 8)
#define TRCCNTCTLR_RLDSELF	BIT(16)
#define TRCCNTCTLR_CNTCHAIN	BIT(17)
#define TRCRSCTLR_SELECT	GENMASK(15, 0)
#define TRCRSCTLR_GROUP		GENMASK(19, 16)
#define TRCRSCTLR_INV		BIT(20)
#define TRCRSCTLR_PAIRINV	BIT(21)
#define TRCSSCCR_SAC		GENMASK(15, 0)
#define TRCSSCCR_ARC		GENMASK(23, 16)
#define TRCSSCCR_RST		BIT(24)
#define TRCSSCSR_STATUS		BIT(31)
#define TRCACATR_CONTEXTTYPE	GENMASK(3, 2)
#define TRCACATR_CONTEXT	GENMASK(6, 4)
#define TRCACATR_EXLEVEL_S	GENMASK(11, 8)
#define TRCACATR_EXLEVEL_NS	GENMASK(14, 12)

/* TRFCR_EL1 (TRFCR_EL2 under VHE: E0HTRE, E2TRE at the same places) */
#define TRFCR_E0TRE		BIT(0)
#define TRFCR_EXTRE		BIT(1)
#define TRFCR_EL2_CX		BIT(3)
#define TRFCR_TS_VIRTUAL	BIT_ULL(5)	/* TS = 0b01 */

#define ETE_DEFAULT_SYNC	4096
#define ETE_DEFAULT_CC		0x100

/**
 * ete_config_defaults() - a configuration that traces usefully as it is
 * @cfg: filled
 * @caps: the unit's capabilities
 *
 * All instructions of every implemented Non-secure EL (the kernel's EL is
 * then dropped at enable time if the user may not trace it), the context ID
 * (the PID), no timestamps, no cycle counting, synchronization every 4KB,
 * trace ID 1.  The ViewInst event is the always-TRUE selector 1 (RSXSQT)
 * and the start/stop state starts "started", so no resource is needed.
 *
 * Context: any context; pure.
 */
void ete_config_defaults(struct ete_config *cfg, const struct ete_caps *caps)
{
	unsigned int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->cc_threshold = max_t(u16, caps->ccitmin, ETE_DEFAULT_CC);
	cfg->context_id = caps->cid_bits || caps->vmid_bits;
	cfg->sync_period = caps->syncpr_ro ? 0 : ETE_DEFAULT_SYNC;
	cfg->trace_id = 1;
	cfg->el_ns = caps->exlevel_ns & (ETE_EL0 | ETE_EL1 | ETE_EL2);
	cfg->viewinst_event = ETE_EVENT_TRUE;
	cfg->ss_status = true;
	for (i = 0; i < ETE_MAX_AC; i++)
		cfg->addr[i].el_ns = caps->exlevel_ns &
				     (ETE_EL0 | ETE_EL1 | ETE_EL2);
}
EXPORT_SYMBOL_IF_KUNIT(ete_config_defaults);

/**
 * ete_config_defaults_cpu() - the defaults of the unit of one CPU
 * @cfg: filled
 * @caps: the unit's capabilities
 * @cpu: the CPU
 *
 * ete_config_defaults(), with the trace ID made distinct per CPU (cpu + 1,
 * where the unit's trace ID width and the reserved IDs allow) so that
 * merged streams stay apart.
 *
 * Context: any context; pure.
 */
void ete_config_defaults_cpu(struct ete_config *cfg,
			     const struct ete_caps *caps, int cpu)
{
	ete_config_defaults(cfg, caps);
	if (cpu + 1 <= 0x6f && cpu + 1 < BIT(caps->traceid_bits))
		cfg->trace_id = cpu + 1;
}
EXPORT_SYMBOL_IF_KUNIT(ete_config_defaults_cpu);

/* Resource selector groups naming comparators (TRCRSCTLR.GROUP) */
#define ETE_RS_GROUP_SAC	4
#define ETE_RS_GROUP_ARC	5

/* The address range comparators something in @cfg looks at, bit n = ARC n */
static u32 ete_arcs_used(const struct ete_config *cfg)
{
	u32 arcs = cfg->include_ranges | cfg->exclude_ranges;
	unsigned int i;

	if (cfg->branch_broadcast)
		arcs |= cfg->bb_ranges;
	if (cfg->q_elements)
		arcs |= cfg->q_ranges;
	for (i = 0; i < ETE_MAX_SS; i++)
		arcs |= cfg->ss[i].arc;
	for (i = 2; i < ETE_MAX_RS; i++)
		if (cfg->rs[i].group == ETE_RS_GROUP_ARC)
			arcs |= cfg->rs[i].select;
	return arcs & GENMASK(ETE_MAX_AC / 2 - 1, 0);
}

/* The single address comparators used as points: start/stop, single-shot */
static u32 ete_sac_points(const struct ete_config *cfg)
{
	u32 sacs = cfg->start_addrs | cfg->stop_addrs;
	unsigned int i;

	for (i = 0; i < ETE_MAX_SS; i++)
		sacs |= cfg->ss[i].sac;
	for (i = 2; i < ETE_MAX_RS; i++)
		if (cfg->rs[i].group == ETE_RS_GROUP_SAC)
			sacs |= cfg->rs[i].select;
	return sacs & GENMASK(ETE_MAX_AC - 1, 0);
}

static bool ete_addr_attrs_equal(const struct ete_addr_config *a,
				 const struct ete_addr_config *b)
{
	return a->context_type == b->context_type &&
	       a->context == b->context && a->el_ns == b->el_ns &&
	       a->el_s == b->el_s;
}

/* What ete_config_conflict() says: the unit's status, read by users */
static const char ete_why_swfspv[] = "a range in use ends below its start (SWFSPV)";
static const char ete_why_rxyjlc[] = "a range's halves differ in EL or context (RXYJLC)";
static const char ete_why_smldyk[] = "an odd start, stop or single-shot address (SMLDYK)";
static const char ete_why_rxhfyq[] = "a start and a stop on one address (RXHFYQ, RVFFWS)";
static const char ete_why_rsfxzb[] = "start/stop comparators out of address order (RSFXZB)";

/*
 * Comparator programming whose outcome the architecture leaves
 * UNPREDICTABLE or CONSTRAINED UNPREDICTABLE: refused, so that a filter
 * never depends on what one implementation happens to do.
 */
static const char *
ete_config_comparator_conflict(const struct ete_config *cfg)
{
	unsigned long arcs = ete_arcs_used(cfg), points = ete_sac_points(cfg);
	unsigned long start = cfg->start_addrs, stop = cfg->stop_addrs;
	unsigned long ss = start | stop;
	unsigned int i, j;

	for_each_set_bit(i, &arcs, ETE_MAX_AC / 2) {
		const struct ete_addr_config *lo = &cfg->addr[2 * i];
		const struct ete_addr_config *hi = &cfg->addr[2 * i + 1];

		if (hi->value < lo->value)
			return ete_why_swfspv;
		if (!ete_addr_attrs_equal(lo, hi))
			return ete_why_rxyjlc;
	}
	for_each_set_bit(i, &points, ETE_MAX_AC)
		if (cfg->addr[i].value & 1)
			return ete_why_smldyk;
	for_each_set_bit(i, &start, ETE_MAX_AC)
		for_each_set_bit(j, &stop, ETE_MAX_AC)
			if (cfg->addr[i].value == cfg->addr[j].value)
				return ete_why_rxhfyq;
	for_each_set_bit(i, &ss, ETE_MAX_AC)
		for_each_set_bit(j, &ss, ETE_MAX_AC)
			if (i < j && cfg->addr[i].value > cfg->addr[j].value)
				return ete_why_rsfxzb;
	return NULL;
}

/**
 * ete_config_conflict() - combinations of fields the architecture forbids
 * @cfg: the configuration
 *
 * Each field may be valid alone and the combination still not: these are
 * checked when a session starts, not at each write, so that the order in
 * which a user sets the fields does not matter.  Besides the two field
 * combinations of Table D4-25 and TRCBBCTLR, comparator programming whose
 * outcome the architecture does not define is refused: an address range
 * in use ending below its start (SWFSPV, RMXCGD) or whose two TRCACATRs
 * differ (RXYJLC); a start, stop or single-shot address with bit 0 set,
 * which no instruction starts at (SMLDYK); a start and a stop point on
 * one address (RXHFYQ, RVFFWS); start/stop comparators not numbered in
 * address order (RSFXZB).  A range "in use" is one that ViewInst, branch
 * broadcast, Q elements, a single-shot comparator or a resource selector
 * names.
 *
 * Context: any context; pure.
 * Return: NULL, or what is wrong (a string literal naming the rule).
 */
const char *ete_config_conflict(const struct ete_config *cfg)
{
	/* Table D4-25: no-overflow mode is a stall mode */
	if (cfg->no_overflow && !cfg->stall)
		return "no_overflow needs stall (Table D4-25)";
	if (cfg->branch_broadcast && cfg->bb_include && !cfg->bb_ranges)
		return "branch broadcast in include mode needs bb_ranges";
	return ete_config_comparator_conflict(cfg);
}
EXPORT_SYMBOL_IF_KUNIT(ete_config_conflict);

/**
 * ete_config_validate() - check a whole configuration against a unit
 * @cfg: the configuration
 * @caps: the unit's capabilities
 *
 * Every parameter that exists on the unit must pass the check its ABI
 * files apply, so a configuration built elsewhere (configfs) is held to
 * the same rules as one built a file at a time.
 *
 * Context: any context; pure.
 * Return: 0, the first error of a parameter check (-ERANGE, -EOPNOTSUPP,
 * -EINVAL), or -EINVAL if ete_config_conflict() finds a conflict.
 */
int ete_config_validate(const struct ete_config *cfg,
			const struct ete_caps *caps)
{
	unsigned int i, idx, n;
	int ret;

	for (i = 0; i < ete_num_params; i++) {
		const struct ete_param *p = &ete_params[i];

		n = ete_param_group_count(caps, p->group);
		for (idx = 0; idx < n; idx++) {
			if (!ete_param_visible(p, caps, idx))
				continue;
			ret = p->check(caps, cfg, idx,
				       ete_param_get(cfg, p, idx));
			if (ret)
				return ret;
		}
	}
	return ete_config_conflict(cfg) ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_config_validate);

/* ------------------------------------------------------------------------
 * The live set: the registers a configuration references
 */

/* The other resource selector groups (Table D4-26, G.8) */
#define ETE_RS_GROUP_EXTIN	0
#define ETE_RS_GROUP_PC		1
#define ETE_RS_GROUP_CNTR_SEQ	2	/* 0-3 counter at zero, 4-7 state */
#define ETE_RS_GROUP_SS		3
#define ETE_RS_GROUP_CIDC	6
#define ETE_RS_GROUP_VMIDC	7
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

static void img_add(struct ete_image *img, u32 reg, u64 val)
{
	if (img->nr < ETE_IMAGE_MAX)
		img->regs[img->nr++] = (struct ete_reg_val){ reg, val };
}

/* EL masks are "traced" for users and "excluded" in the registers */
static u32 ete_excl(u8 traced, u8 implemented)
{
	return ~traced & implemented;
}

static u64 ete_image_configr(const struct ete_config *cfg,
			     const struct ete_caps *caps,
			     const struct ete_env *env)
{
	u64 v = TRCCONFIGR_RES1;

	if (cfg->branch_broadcast)
		v |= TRCCONFIGR_BB;
	if (cfg->cycle_count)
		v |= TRCCONFIGR_CCI;
	if (cfg->vmid)
		v |= TRCCONFIGR_VMID;
	if (cfg->timestamp)
		v |= TRCCONFIGR_TS;
	if (cfg->return_stack)
		v |= TRCCONFIGR_RS;
	v |= FIELD_PREP(TRCCONFIGR_QE, cfg->q_elements);
	/*
	 * The PID: at EL1 the kernel writes it to CONTEXTIDR_EL1 (CID); a
	 * VHE kernel writes CONTEXTIDR_EL2, traced as the VMID with VMIDOPT.
	 */
	if (cfg->context_id) {
		if (env->kernel_el2 && caps->vmid_bits)
			v |= TRCCONFIGR_VMID |
			     (caps->vmidopt ? TRCCONFIGR_VMIDOPT : 0);
		else if (caps->cid_bits)
			v |= TRCCONFIGR_CID;
	}
	return v;
}

static u64 ete_image_victlr(const struct ete_config *cfg,
			    const struct ete_caps *caps, u8 el_ns)
{
	u64 v = FIELD_PREP(TRCVICTLR_EVENT, cfg->viewinst_event);

	if (cfg->ss_status)
		v |= TRCVICTLR_SSSTATUS;
	if (cfg->trace_errors)
		v |= TRCVICTLR_TRCERR;
	v |= FIELD_PREP(TRCVICTLR_EXLEVEL_S,
			ete_excl(cfg->el_s, caps->exlevel_s));
	v |= FIELD_PREP(TRCVICTLR_EXLEVEL_NS,
			ete_excl(el_ns, caps->exlevel_ns & 7));
	return v;
}

static void ete_image_main(const struct ete_config *cfg,
			   const struct ete_caps *caps,
			   const struct ete_env *env, struct ete_image *img,
			   u8 el_ns)
{
	u64 v = 0;
	unsigned int i;

	img_add(img, ETE_TRCCONFIGR, ete_image_configr(cfg, caps, env));
	img_add(img, ETE_TRCAUXCTLR, 0);
	for (i = 0; i < caps->num_events; i++)
		v |= (u64)cfg->event[i] << (8 * i);
	img_add(img, ETE_TRCEVENTCTL0R, v);
	v = cfg->atb_trigger ? TRCEVENTCTL1R_ATB : 0;
	for (i = 0; i < caps->num_events; i++)
		v |= cfg->event_trace[i] ? BIT(i) : 0;
	img_add(img, ETE_TRCEVENTCTL1R, v);
	img_add(img, ETE_TRCRSR, 0);
	if (caps->stallctl)
		img_add(img, ETE_TRCSTALLCTLR,
			FIELD_PREP(TRCSTALLCTLR_LEVEL, cfg->stall_level) |
			(cfg->stall ? TRCSTALLCTLR_ISTALL : 0) |
			(cfg->no_overflow ? TRCSTALLCTLR_NOOVERFLOW : 0));
	if (caps->ts_bits)
		img_add(img, ETE_TRCTSCTLR, cfg->ts_event);
	if (!caps->syncpr_ro)
		img_add(img, ETE_TRCSYNCPR,
			cfg->sync_period ? ilog2(cfg->sync_period) : 0);
	if (caps->cycle_count)
		img_add(img, ETE_TRCCCCTLR, cfg->cc_threshold);
	if (caps->branch_broadcast)
		img_add(img, ETE_TRCBBCTLR,
			FIELD_PREP(TRCBBCTLR_RANGE, cfg->bb_ranges) |
			(cfg->bb_include ? TRCBBCTLR_MODE : 0));
	img_add(img, ETE_TRCTRACEIDR, cfg->trace_id);
	if (caps->qfilt)
		img_add(img, ETE_TRCQCTLR,
			FIELD_PREP(TRCQCTLR_RANGE, cfg->q_ranges) |
			(cfg->q_include ? TRCQCTLR_MODE : 0));
	img_add(img, ETE_TRCVICTLR, ete_image_victlr(cfg, caps, el_ns));
	if (caps->num_arc) {
		img_add(img, ETE_TRCVIIECTLR,
			FIELD_PREP(TRCVIIECTLR_INCLUDE, cfg->include_ranges) |
			FIELD_PREP(TRCVIIECTLR_EXCLUDE, cfg->exclude_ranges));
		img_add(img, ETE_TRCVISSCTLR,
			FIELD_PREP(TRCVISSCTLR_START, cfg->start_addrs) |
			FIELD_PREP(TRCVISSCTLR_STOP, cfg->stop_addrs));
	}
	if (caps->num_pc)
		img_add(img, ETE_TRCVIPCSSCTLR, 0);
}

static void ete_image_seq_cntr(const struct ete_config *cfg,
			       const struct ete_caps *caps,
			       struct ete_image *img)
{
	unsigned int i;

	if (img->live.seq) {
		for (i = 0; i < caps->num_seq_states - 1; i++)
			img_add(img, ETE_TRCSEQEVR_N(i),
				FIELD_PREP(TRCSEQEVR_F, cfg->seq_fwd[i]) |
				FIELD_PREP(TRCSEQEVR_B, cfg->seq_bwd[i]));
		img_add(img, ETE_TRCSEQRSTEVR, cfg->seq_reset);
		img_add(img, ETE_TRCSEQSTR, cfg->seq_state);
	}
	for (i = 0; i < caps->num_extinsel; i++)
		if (img->live.extin & BIT(i))
			img_add(img, ETE_TRCEXTINSELR_N(i), cfg->extin[i]);
	for (i = 0; i < caps->num_cntr; i++) {
		const struct ete_cntr_config *c = &cfg->cntr[i];

		if (!(img->live.cntr & BIT(i)))
			continue;
		img_add(img, ETE_TRCCNTRLDVR_N(i), c->reload);
		img_add(img, ETE_TRCCNTCTLR_N(i),
			FIELD_PREP(TRCCNTCTLR_CNTEVENT, c->count_event) |
			FIELD_PREP(TRCCNTCTLR_RLDEVENT, c->reload_event) |
			(c->reload_self ? TRCCNTCTLR_RLDSELF : 0) |
			((i & 1) && c->chain ? TRCCNTCTLR_CNTCHAIN : 0));
		img_add(img, ETE_TRCCNTVR_N(i), c->value);
	}
}

static void ete_image_resources(const struct ete_config *cfg,
				const struct ete_caps *caps,
				struct ete_image *img)
{
	unsigned int i;

	for (i = 2; i < caps->num_rs; i++) {
		const struct ete_rs_config *r = &cfg->rs[i];

		if (!(img->live.rs & BIT(i)))
			continue;
		img_add(img, ETE_TRCRSCTLR_N(i),
			FIELD_PREP(TRCRSCTLR_SELECT, r->select) |
			FIELD_PREP(TRCRSCTLR_GROUP, r->group) |
			(r->invert ? TRCRSCTLR_INV : 0) |
			(!(i & 1) && r->pair_invert ? TRCRSCTLR_PAIRINV : 0));
	}
	for (i = 0; i < caps->num_ss; i++) {
		const struct ete_ss_config *s = &cfg->ss[i];

		if (!(img->live.ss & BIT(i)))
			continue;
		img_add(img, ETE_TRCSSCCR_N(i),
			FIELD_PREP(TRCSSCCR_SAC, s->sac) |
			FIELD_PREP(TRCSSCCR_ARC, s->arc) |
			(s->multi_shot ? TRCSSCCR_RST : 0));
		img_add(img, ETE_TRCSSCSR_N(i), s->fired ? TRCSSCSR_STATUS : 0);
		if (caps->num_pc)
			img_add(img, ETE_TRCSSPCICR_N(i), s->pc);
	}
}

static u64 ete_ctx_masks(const struct ete_ctx_config *c, unsigned int first,
			 unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	for (i = first; i < min(first + 4, n); i++)
		v |= (u64)c[i].mask << (8 * (i - first));
	return v;
}

static void ete_image_comparators(const struct ete_config *cfg,
				  const struct ete_caps *caps,
				  struct ete_image *img)
{
	const struct ete_live *live = &img->live;
	unsigned int i;

	for (i = 0; i < caps->num_ac; i++) {
		const struct ete_addr_config *a = &cfg->addr[i];

		if (!(live->sac & BIT(i)))
			continue;

		img_add(img, ETE_TRCACVR_N(i), a->value);
		img_add(img, ETE_TRCACATR_N(i),
			FIELD_PREP(TRCACATR_CONTEXTTYPE, a->context_type) |
			FIELD_PREP(TRCACATR_CONTEXT, a->context) |
			FIELD_PREP(TRCACATR_EXLEVEL_S,
				   ete_excl(a->el_s, caps->exlevel_s)) |
			FIELD_PREP(TRCACATR_EXLEVEL_NS,
				   ete_excl(a->el_ns, caps->exlevel_ns & 7)));
	}
	for (i = 0; i < caps->num_cidc; i++)
		if (live->cidc & BIT(i))
			img_add(img, ETE_TRCCIDCVR_N(i), cfg->ctxid[i].value);
	/* a mask register holds comparators 0-3 or 4-7 */
	if (live->cidc & 0x0f)
		img_add(img, ETE_TRCCIDCCTLR0,
			ete_ctx_masks(cfg->ctxid, 0, caps->num_cidc));
	if (live->cidc & 0xf0)
		img_add(img, ETE_TRCCIDCCTLR1,
			ete_ctx_masks(cfg->ctxid, 4, caps->num_cidc));
	for (i = 0; i < caps->num_vmidc; i++)
		if (live->vmidc & BIT(i))
			img_add(img, ETE_TRCVMIDCVR_N(i), cfg->vmidc[i].value);
	if (live->vmidc & 0x0f)
		img_add(img, ETE_TRCVMIDCCTLR0,
			ete_ctx_masks(cfg->vmidc, 0, caps->num_vmidc));
	if (live->vmidc & 0xf0)
		img_add(img, ETE_TRCVMIDCCTLR1,
			ete_ctx_masks(cfg->vmidc, 4, caps->num_vmidc));
}

/**
 * ete_config_to_image() - the registers that implement a configuration
 * @cfg: a configuration that passed ete_config_validate()
 * @caps: the unit's capabilities (only registers that exist are written)
 * @env: the kernel's EL and the user's privilege
 * @img: filled
 *
 * Every register of the image is written while the unit is Idle, in the
 * order given, before TRCPRGCTLR.EN is set; that includes the initial
 * resource state (counters, sequencer state, start/stop and single-shot
 * status) that SLMPNV and SXMMLP require before each session.  The image
 * holds the control registers the unit implements, TRCRSR, and of the
 * resource registers (selectors, comparators, counters, sequencer,
 * single-shot controls, external input selectors) only those the
 * configuration references (ete_config_live(), kept in @img->live): the
 * unit never looks at the others.
 *
 * Context: any context; pure.
 */
void ete_config_to_image(const struct ete_config *cfg,
			 const struct ete_caps *caps,
			 const struct ete_env *env, struct ete_image *img)
{
	u8 kernel_els = ETE_EL1 | ETE_EL2;
	u8 el_ns = cfg->el_ns;

	memset(img, 0, sizeof(*img));
	if (!env->kernel_allowed && (el_ns & kernel_els)) {
		el_ns &= ~kernel_els;
		img->kernel_filtered = true;
	}
	ete_config_live(cfg, caps, &img->live);
	ete_image_main(cfg, caps, env, img, el_ns);
	ete_image_seq_cntr(cfg, caps, img);
	ete_image_resources(cfg, caps, img);
	ete_image_comparators(cfg, caps, img);

	img->trfcr = TRFCR_TS_VIRTUAL;
	if (el_ns & ETE_EL0)
		img->trfcr |= TRFCR_E0TRE;
	if (el_ns & (env->kernel_el2 ? ETE_EL2 : ETE_EL1))
		img->trfcr |= TRFCR_EXTRE;
	if (env->kernel_el2 && cfg->context_id)
		img->trfcr |= TRFCR_EL2_CX;
}
EXPORT_SYMBOL_IF_KUNIT(ete_config_to_image);

/**
 * ete_image_get() - the value an image gives a register
 * @img: the image
 * @reg: register id
 * @found: set to whether the image writes @reg (may be NULL)
 *
 * Context: any context; pure.
 * Return: the value, or 0 if @reg is not in the image.
 */
u64 ete_image_get(const struct ete_image *img, u32 reg, bool *found)
{
	unsigned int i;

	for (i = 0; i < img->nr; i++) {
		if (img->regs[i].reg == reg) {
			if (found)
				*found = true;
			return img->regs[i].val;
		}
	}
	if (found)
		*found = false;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_image_get);
