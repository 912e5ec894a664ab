// SPDX-License-Identifier: GPL-2.0
/*
 * struct ete_config: defaults and validation against the capabilities.
 * No register access and no global state: KUnit checks every function
 * here directly.  The registers a configuration references are
 * config-live.c's, the register image config-image.c's.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ete/config.h>
#include <ete/param.h>

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
 * address order (RSFXZB); sampled trace whose period is not a whole
 * number of windows, or whose resources the configuration also programs
 * (ete_sample_conflict()).  A range "in use" is one that ViewInst, branch
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
	return ete_sample_conflict(cfg) ?: ete_config_comparator_conflict(cfg);
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
