// SPDX-License-Identifier: GPL-2.0
/*
 * The parameter table: every field of struct ete_config that users set,
 * with its file name, group, range and the capability it needs, and the
 * check of each.  Pure: no register access, no global state.  param.c
 * parses and applies values through this table for sysfs and configfs.
 */

#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
#include <kunit/visibility.h>

#include <ete/param.h>
/* TRCSYNCPR.PERIOD: 2^8 to 2^20 bytes, or 0 for none */
#define ETE_SYNC_MIN		256U
#define ETE_SYNC_MAX		BIT(20)
/* TRCTRACEIDR: 0x00 and 0x70-0x7f are reserved on ATB (B.24) */
#define ETE_TRACEID_MAX		0x6f
#define ETE_CCTHRESHOLD_MAX	0xfff
#define ETE_NUM_RS_GROUPS	8
/* NUMEXTIN of 0x1ff: the selectors take any PMU event number */
#define ETE_EXTIN_ANY		0x1ff

/* ------------------------------------------------------------------------
 * Checks shared by several parameters
 */

static u64 ete_mask(unsigned int bits)
{
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

static int chk_bool(const struct ete_caps *caps, const struct ete_config *cfg,
		    unsigned int idx, u64 val)
{
	return val > 1 ? -ERANGE : 0;
}

static int chk_feature(bool implemented, u64 val)
{
	if (val > 1)
		return -ERANGE;
	return val && !implemented ? -EOPNOTSUPP : 0;
}

/*
 * An event selector (G.7): TYPE (bit 7) clear selects resource selector
 * SEL[4:0]; set selects pair SEL[3:0].  Only selectors that exist.
 */
static int chk_event(const struct ete_caps *caps, const struct ete_config *cfg,
		     unsigned int idx, u64 val)
{
	if (val & ETE_EVENT_PAIR) {
		if (val & ~(u64)(ETE_EVENT_PAIR | 0xf))
			return -ERANGE;
		return (val & 0xf) < caps->num_rs / 2 ? 0 : -ERANGE;
	}
	if (val & ~(u64)ETE_EVENT_SEL_MASK)
		return -ERANGE;
	return val < caps->num_rs ? 0 : -ERANGE;
}

static int chk_arc_mask(const struct ete_caps *caps,
			const struct ete_config *cfg, unsigned int idx, u64 val)
{
	return val & ~ete_mask(caps->num_arc) ? -ERANGE : 0;
}

static int chk_sac_mask(const struct ete_caps *caps,
			const struct ete_config *cfg, unsigned int idx, u64 val)
{
	return val & ~ete_mask(caps->num_ac) ? -ERANGE : 0;
}

/* EL masks: bits beyond the architecture's ELs are out of range; ELs the
 * unit does not implement are not supported.
 */
static int chk_el(u64 val, u64 arch, u8 implemented)
{
	if (val & ~arch)
		return -ERANGE;
	return val & ~(u64)implemented ? -EOPNOTSUPP : 0;
}

static int chk_el_ns(const struct ete_caps *caps, const struct ete_config *cfg,
		     unsigned int idx, u64 val)
{
	return chk_el(val, ETE_EL0 | ETE_EL1 | ETE_EL2, caps->exlevel_ns);
}

static int chk_el_s(const struct ete_caps *caps, const struct ete_config *cfg,
		    unsigned int idx, u64 val)
{
	return chk_el(val, ETE_EL0 | ETE_EL1 | ETE_EL2 | ETE_EL3,
		      caps->exlevel_s);
}

/* ------------------------------------------------------------------------
 * Unit-wide parameters
 */

static int chk_cycle_count(const struct ete_caps *caps,
			   const struct ete_config *cfg, unsigned int idx,
			   u64 val)
{
	return chk_feature(caps->cycle_count, val);
}

static bool vis_cycle_count(const struct ete_caps *caps, unsigned int idx)
{
	return caps->cycle_count;
}

static int chk_cc_threshold(const struct ete_caps *caps,
			    const struct ete_config *cfg, unsigned int idx,
			    u64 val)
{
	return val < max_t(u64, caps->ccitmin, 1) ||
	       val > ETE_CCTHRESHOLD_MAX ? -ERANGE : 0;
}

static int chk_timestamp(const struct ete_caps *caps,
			 const struct ete_config *cfg, unsigned int idx,
			 u64 val)
{
	return chk_feature(caps->ts_bits, val);
}

static bool vis_ts(const struct ete_caps *caps, unsigned int idx)
{
	return caps->ts_bits;
}

static int chk_bb(const struct ete_caps *caps, const struct ete_config *cfg,
		  unsigned int idx, u64 val)
{
	return chk_feature(caps->branch_broadcast, val);
}

static bool vis_bb(const struct ete_caps *caps, unsigned int idx)
{
	return caps->branch_broadcast;
}

static int chk_retstack(const struct ete_caps *caps,
			const struct ete_config *cfg, unsigned int idx,
			u64 val)
{
	return chk_feature(caps->retstack, val);
}

static int chk_context_id(const struct ete_caps *caps,
			  const struct ete_config *cfg, unsigned int idx,
			  u64 val)
{
	return chk_feature(caps->cid_bits || caps->vmid_bits, val);
}

static int chk_vmid(const struct ete_caps *caps, const struct ete_config *cfg,
		    unsigned int idx, u64 val)
{
	return chk_feature(caps->vmid_bits, val);
}

static int chk_q_elements(const struct ete_caps *caps,
			  const struct ete_config *cfg, unsigned int idx,
			  u64 val)
{
	if (val != ETE_QE_OFF && val != ETE_QE_WITH_COUNTS && val != ETE_QE_ALL)
		return -ERANGE;
	if (val == ETE_QE_WITH_COUNTS && !(caps->qsupp & 1))
		return -EOPNOTSUPP;
	if (val == ETE_QE_ALL && caps->qsupp != 3)
		return -EOPNOTSUPP;
	return 0;
}

static bool vis_qfilt(const struct ete_caps *caps, unsigned int idx)
{
	return caps->qfilt;
}

static bool vis_stall(const struct ete_caps *caps, unsigned int idx)
{
	return caps->stallctl;
}

static int chk_stall_level(const struct ete_caps *caps,
			   const struct ete_config *cfg, unsigned int idx,
			   u64 val)
{
	return val > 3 ? -ERANGE : 0;
}

static int chk_no_overflow(const struct ete_caps *caps,
			   const struct ete_config *cfg, unsigned int idx,
			   u64 val)
{
	return chk_feature(caps->nooverflow, val);
}

static int chk_sync_period(const struct ete_caps *caps,
			   const struct ete_config *cfg, unsigned int idx,
			   u64 val)
{
	if (val && (val < ETE_SYNC_MIN || val > ETE_SYNC_MAX))
		return -ERANGE;
	if (val && !is_power_of_2(val))
		return -EINVAL;
	return 0;
}

static bool vis_sync_period(const struct ete_caps *caps, unsigned int idx)
{
	return !caps->syncpr_ro;
}

static int chk_trace_id(const struct ete_caps *caps,
			const struct ete_config *cfg, unsigned int idx,
			u64 val)
{
	u64 max = min_t(u64, ETE_TRACEID_MAX, ete_mask(caps->traceid_bits));

	return val < 1 || val > max ? -ERANGE : 0;
}

static int chk_trace_errors(const struct ete_caps *caps,
			    const struct ete_config *cfg, unsigned int idx,
			    u64 val)
{
	return chk_feature(caps->trcerr, val);
}

static int chk_atb_trigger(const struct ete_caps *caps,
			   const struct ete_config *cfg, unsigned int idx,
			   u64 val)
{
	return chk_feature(caps->atbtrig, val);
}

static bool vis_arcs(const struct ete_caps *caps, unsigned int idx)
{
	return caps->num_arc;
}

static bool vis_sacs(const struct ete_caps *caps, unsigned int idx)
{
	return caps->num_ac;
}

/* ------------------------------------------------------------------------
 * Resource groups
 */

static int chk_u16(const struct ete_caps *caps, const struct ete_config *cfg,
		   unsigned int idx, u64 val)
{
	return val > U16_MAX ? -ERANGE : 0;
}

static int chk_addr_value(const struct ete_caps *caps,
			  const struct ete_config *cfg, unsigned int idx,
			  u64 val)
{
	return 0;	/* ETE addresses are 64 bits: every value is valid */
}

/* TRCACATR.CONTEXT must name a comparator of each type selected */
static bool ete_context_ok(const struct ete_caps *caps, u64 type, u64 ctx)
{
	if ((type & 1) && ctx >= caps->num_cidc)
		return false;
	if ((type & 2) && ctx >= caps->num_vmidc)
		return false;
	return true;
}

static int chk_context_type(const struct ete_caps *caps,
			    const struct ete_config *cfg, unsigned int idx,
			    u64 val)
{
	if (val > 3)
		return -ERANGE;
	if ((val & 1) && !caps->num_cidc)
		return -EOPNOTSUPP;
	if ((val & 2) && !caps->num_vmidc)
		return -EOPNOTSUPP;
	return ete_context_ok(caps, val, cfg->addr[idx].context) ? 0 : -ERANGE;
}

static int chk_context(const struct ete_caps *caps,
		       const struct ete_config *cfg, unsigned int idx, u64 val)
{
	u8 n = max(caps->num_cidc, caps->num_vmidc);

	if (!n)
		return val ? -EOPNOTSUPP : 0;
	if (val >= n)
		return -ERANGE;
	return ete_context_ok(caps, cfg->addr[idx].context_type, val) ?
	       0 : -ERANGE;
}

static int chk_chain(const struct ete_caps *caps, const struct ete_config *cfg,
		     unsigned int idx, u64 val)
{
	return chk_bool(caps, cfg, idx, val);
}

static bool vis_odd(const struct ete_caps *caps, unsigned int idx)
{
	return idx & 1;
}

static bool vis_even(const struct ete_caps *caps, unsigned int idx)
{
	return !(idx & 1);
}

static int chk_ss_arc(const struct ete_caps *caps,
		      const struct ete_config *cfg, unsigned int idx, u64 val)
{
	return chk_arc_mask(caps, cfg, idx, val);
}

static int chk_ss_pc(const struct ete_caps *caps, const struct ete_config *cfg,
		     unsigned int idx, u64 val)
{
	return val & ~ete_mask(caps->num_pc) ? -ERANGE : 0;
}

static bool vis_pc(const struct ete_caps *caps, unsigned int idx)
{
	return caps->num_pc;
}

/* Table D4-26: the resources each selector group has on this unit */
static u16 ete_rs_group_mask(const struct ete_caps *caps, unsigned int group)
{
	switch (group) {
	case 0:
		return ete_mask(caps->num_extinsel);
	case 1:
		return ete_mask(caps->num_pc);
	case 2:
		return ete_mask(caps->num_cntr) |
		       (caps->num_seq_states ? 0xf0 : 0);
	case 3:
		return ete_mask(caps->num_ss);
	case 4:
		return ete_mask(caps->num_ac);
	case 5:
		return ete_mask(caps->num_arc);
	case 6:
		return ete_mask(caps->num_cidc);
	case 7:
		return ete_mask(caps->num_vmidc);
	default:
		return 0;
	}
}

static int chk_rs_group(const struct ete_caps *caps,
			const struct ete_config *cfg, unsigned int idx,
			u64 val)
{
	if (val >= ETE_NUM_RS_GROUPS)
		return -ERANGE;
	/* The selection must still name resources of the new group */
	if (cfg->rs[idx].select & ~ete_rs_group_mask(caps, val))
		return -ERANGE;
	return 0;
}

static int chk_rs_select(const struct ete_caps *caps,
			 const struct ete_config *cfg, unsigned int idx,
			 u64 val)
{
	return val & ~(u64)ete_rs_group_mask(caps, cfg->rs[idx].group) ?
	       -ERANGE : 0;
}

static int chk_cid_value(const struct ete_caps *caps,
			 const struct ete_config *cfg, unsigned int idx,
			 u64 val)
{
	return val & ~ete_mask(caps->cid_bits) ? -ERANGE : 0;
}

static int chk_vmid_value(const struct ete_caps *caps,
			  const struct ete_config *cfg, unsigned int idx,
			  u64 val)
{
	return val & ~ete_mask(caps->vmid_bits) ? -ERANGE : 0;
}

/* One mask bit per byte of the comparator's value */
static int chk_cid_mask(const struct ete_caps *caps,
			const struct ete_config *cfg, unsigned int idx,
			u64 val)
{
	return val & ~ete_mask(caps->cid_bits / 8) ? -ERANGE : 0;
}

static int chk_vmid_mask(const struct ete_caps *caps,
			 const struct ete_config *cfg, unsigned int idx,
			 u64 val)
{
	return val & ~ete_mask(caps->vmid_bits / 8) ? -ERANGE : 0;
}

static int chk_seq_state(const struct ete_caps *caps,
			 const struct ete_config *cfg, unsigned int idx,
			 u64 val)
{
	return val >= caps->num_seq_states ? -ERANGE : 0;
}

static int chk_extin(const struct ete_caps *caps, const struct ete_config *cfg,
		     unsigned int idx, u64 val)
{
	if (val > U16_MAX)
		return -ERANGE;
	if (caps->num_extin != ETE_EXTIN_ANY && val >= caps->num_extin)
		return -ERANGE;
	return 0;
}

/* ------------------------------------------------------------------------
 * The table
 */

/*
 * F is a member of the configuration at address NULL, C.field: its address
 * is the field's offset and its size the field's size.
 */
#define C		(*(struct ete_config *)NULL)
#define OFS(F)		((uintptr_t)&(F))

#define PARAM(_name, F, _kind, _vis, _chk)				\
	{ .name = _name, .group = ETE_PG_UNIT, .kind = _kind,		\
	  .size = sizeof(F), .offset = OFS(F),				\
	  .visible = _vis, .check = _chk }

/* The sequencer has 4 states, so 3 transitions each way, or none */
#define SPARAM(_name, F, _kind, _chk)					\
	{ .name = _name, .group = ETE_PG_SEQ, .kind = _kind,		\
	  .size = sizeof(F), .offset = OFS(F), .check = _chk }

/* F is the field of instance 0, E the instance 0 itself */
#define GPARAM(_grp, _name, F, E, _kind, _vis, _chk)			\
	{ .name = _name, .group = _grp, .kind = _kind,			\
	  .size = sizeof(F), .offset = OFS(F), .stride = sizeof(E),	\
	  .visible = _vis, .check = _chk }

const struct ete_param ete_params[] = {
	PARAM("cycle_count", C.cycle_count, ETE_PK_BOOL, NULL,
	      chk_cycle_count),
	PARAM("cc_threshold", C.cc_threshold, ETE_PK_UINT, vis_cycle_count,
	      chk_cc_threshold),
	PARAM("timestamp", C.timestamp, ETE_PK_BOOL, NULL, chk_timestamp),
	PARAM("ts_event", C.ts_event, ETE_PK_HEX, vis_ts, chk_event),
	PARAM("branch_broadcast", C.branch_broadcast, ETE_PK_BOOL, NULL,
	      chk_bb),
	PARAM("bb_include", C.bb_include, ETE_PK_BOOL, vis_bb, chk_bool),
	PARAM("bb_ranges", C.bb_ranges, ETE_PK_HEX, vis_bb, chk_arc_mask),
	PARAM("return_stack", C.return_stack, ETE_PK_BOOL, NULL, chk_retstack),
	PARAM("context_id", C.context_id, ETE_PK_BOOL, NULL, chk_context_id),
	PARAM("vmid", C.vmid, ETE_PK_BOOL, NULL, chk_vmid),
	PARAM("q_elements", C.q_elements, ETE_PK_UINT, NULL, chk_q_elements),
	PARAM("q_include", C.q_include, ETE_PK_BOOL, vis_qfilt, chk_bool),
	PARAM("q_ranges", C.q_ranges, ETE_PK_HEX, vis_qfilt, chk_arc_mask),
	PARAM("stall", C.stall, ETE_PK_BOOL, vis_stall, chk_bool),
	PARAM("stall_level", C.stall_level, ETE_PK_UINT, vis_stall,
	      chk_stall_level),
	PARAM("no_overflow", C.no_overflow, ETE_PK_BOOL, vis_stall,
	      chk_no_overflow),
	PARAM("sync_period", C.sync_period, ETE_PK_UINT, vis_sync_period,
	      chk_sync_period),
	PARAM("trace_id", C.trace_id, ETE_PK_HEX, NULL, chk_trace_id),
	PARAM("el_ns", C.el_ns, ETE_PK_HEX, NULL, chk_el_ns),
	PARAM("el_s", C.el_s, ETE_PK_HEX, NULL, chk_el_s),
	PARAM("viewinst_event", C.viewinst_event, ETE_PK_HEX, NULL, chk_event),
	PARAM("ss_status", C.ss_status, ETE_PK_BOOL, NULL, chk_bool),
	PARAM("trace_errors", C.trace_errors, ETE_PK_BOOL, NULL,
	      chk_trace_errors),
	PARAM("include_ranges", C.include_ranges, ETE_PK_HEX, vis_arcs,
	      chk_arc_mask),
	PARAM("exclude_ranges", C.exclude_ranges, ETE_PK_HEX, vis_arcs,
	      chk_arc_mask),
	PARAM("start_addrs", C.start_addrs, ETE_PK_HEX, vis_sacs,
	      chk_sac_mask),
	PARAM("stop_addrs", C.stop_addrs, ETE_PK_HEX, vis_sacs, chk_sac_mask),
	PARAM("atb_trigger", C.atb_trigger, ETE_PK_BOOL, NULL,
	      chk_atb_trigger),
	PARAM("sample_window", C.sample_window, ETE_PK_UINT, NULL,
	      ete_sample_check_window),
	PARAM("sample_period", C.sample_period, ETE_PK_UINT, NULL,
	      ete_sample_check_period),

	GPARAM(ETE_PG_EVENT, "select", C.event[0], C.event[0], ETE_PK_HEX,
	       NULL, chk_event),
	GPARAM(ETE_PG_EVENT, "trace", C.event_trace[0], C.event_trace[0],
	       ETE_PK_BOOL, NULL, chk_bool),
	GPARAM(ETE_PG_EXTIN, "select", C.extin[0], C.extin[0], ETE_PK_UINT,
	       NULL, chk_extin),

	SPARAM("state", C.seq_state, ETE_PK_UINT, chk_seq_state),
	SPARAM("reset_event", C.seq_reset, ETE_PK_HEX, chk_event),
	SPARAM("fwd0", C.seq_fwd[0], ETE_PK_HEX, chk_event),
	SPARAM("fwd1", C.seq_fwd[1], ETE_PK_HEX, chk_event),
	SPARAM("fwd2", C.seq_fwd[2], ETE_PK_HEX, chk_event),
	SPARAM("bwd0", C.seq_bwd[0], ETE_PK_HEX, chk_event),
	SPARAM("bwd1", C.seq_bwd[1], ETE_PK_HEX, chk_event),
	SPARAM("bwd2", C.seq_bwd[2], ETE_PK_HEX, chk_event),

	GPARAM(ETE_PG_ADDR, "value", C.addr[0].value, C.addr[0], ETE_PK_HEX,
	       NULL, chk_addr_value),
	GPARAM(ETE_PG_ADDR, "context_type", C.addr[0].context_type, C.addr[0],
	       ETE_PK_UINT, NULL, chk_context_type),
	GPARAM(ETE_PG_ADDR, "context", C.addr[0].context, C.addr[0],
	       ETE_PK_UINT, NULL, chk_context),
	GPARAM(ETE_PG_ADDR, "el_ns", C.addr[0].el_ns, C.addr[0], ETE_PK_HEX,
	       NULL, chk_el_ns),
	GPARAM(ETE_PG_ADDR, "el_s", C.addr[0].el_s, C.addr[0], ETE_PK_HEX,
	       NULL, chk_el_s),

	GPARAM(ETE_PG_CNTR, "reload", C.cntr[0].reload, C.cntr[0],
	       ETE_PK_UINT, NULL, chk_u16),
	GPARAM(ETE_PG_CNTR, "value", C.cntr[0].value, C.cntr[0], ETE_PK_UINT,
	       NULL, chk_u16),
	GPARAM(ETE_PG_CNTR, "count_event", C.cntr[0].count_event, C.cntr[0],
	       ETE_PK_HEX, NULL, chk_event),
	GPARAM(ETE_PG_CNTR, "reload_event", C.cntr[0].reload_event, C.cntr[0],
	       ETE_PK_HEX, NULL, chk_event),
	GPARAM(ETE_PG_CNTR, "reload_self", C.cntr[0].reload_self, C.cntr[0],
	       ETE_PK_BOOL, NULL, chk_bool),
	GPARAM(ETE_PG_CNTR, "chain", C.cntr[0].chain, C.cntr[0], ETE_PK_BOOL,
	       vis_odd, chk_chain),

	GPARAM(ETE_PG_SS, "sac", C.ss[0].sac, C.ss[0], ETE_PK_HEX, NULL,
	       chk_sac_mask),
	GPARAM(ETE_PG_SS, "arc", C.ss[0].arc, C.ss[0], ETE_PK_HEX, NULL,
	       chk_ss_arc),
	GPARAM(ETE_PG_SS, "pc", C.ss[0].pc, C.ss[0], ETE_PK_HEX, vis_pc,
	       chk_ss_pc),
	GPARAM(ETE_PG_SS, "multi_shot", C.ss[0].multi_shot, C.ss[0],
	       ETE_PK_BOOL, NULL, chk_bool),
	GPARAM(ETE_PG_SS, "fired", C.ss[0].fired, C.ss[0], ETE_PK_BOOL, NULL,
	       chk_bool),

	GPARAM(ETE_PG_RS, "group", C.rs[0].group, C.rs[0], ETE_PK_UINT, NULL,
	       chk_rs_group),
	GPARAM(ETE_PG_RS, "select", C.rs[0].select, C.rs[0], ETE_PK_HEX, NULL,
	       chk_rs_select),
	GPARAM(ETE_PG_RS, "invert", C.rs[0].invert, C.rs[0], ETE_PK_BOOL,
	       NULL, chk_bool),
	GPARAM(ETE_PG_RS, "pair_invert", C.rs[0].pair_invert, C.rs[0],
	       ETE_PK_BOOL, vis_even, chk_bool),

	GPARAM(ETE_PG_CTXID, "value", C.ctxid[0].value, C.ctxid[0],
	       ETE_PK_HEX, NULL, chk_cid_value),
	GPARAM(ETE_PG_CTXID, "mask", C.ctxid[0].mask, C.ctxid[0], ETE_PK_HEX,
	       NULL, chk_cid_mask),
	GPARAM(ETE_PG_VMID, "value", C.vmidc[0].value, C.vmidc[0], ETE_PK_HEX,
	       NULL, chk_vmid_value),
	GPARAM(ETE_PG_VMID, "mask", C.vmidc[0].mask, C.vmidc[0], ETE_PK_HEX,
	       NULL, chk_vmid_mask),
};
EXPORT_SYMBOL_IF_KUNIT(ete_params);

const unsigned int ete_num_params = ARRAY_SIZE(ete_params);
EXPORT_SYMBOL_IF_KUNIT(ete_num_params);
