// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/ete/ete<N>/caps/, trcidr/ and mgmt/: what the unit reports
 * (sysfs.c adds the groups).  caps/ shows the capabilities decoded at
 * probe; trcidr/ and mgmt/ the raw ID and management registers under the
 * upstream etm4x names: trcidr/ the values read at probe, a mgmt/ file
 * reads its register on the unit's CPU when read (ete_unit_read()).
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include <asm/virt.h>

#include <ete/core.h>
#include <ete/regs.h>

struct ete_reg_attr {
	struct device_attribute attr;
	u32 reg;
	int idr;	/* index into caps.idr, or -1 to read the register */
};

static ssize_t ete_reg_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct ete_reg_attr *ra = container_of(attr, struct ete_reg_attr, attr);
	struct ete_unit *u = dev_get_drvdata(dev);
	u64 val;
	int ret;

	if (ra->idr >= 0)
		return sysfs_emit(buf, "0x%x\n", u->caps.idr[ra->idr]);
	if (ra->reg == ETE_TRCDEVARCH)
		return sysfs_emit(buf, "0x%x\n", u->caps.devarch);
	ret = ete_unit_read(u, ra->reg, &val);
	if (ret)
		return ret;
	return sysfs_emit(buf, "0x%llx\n", val);
}

#define IDR_ATTR(n)							\
	static struct ete_reg_attr ete_idr_attr_##n = {			\
		.attr = __ATTR(trcidr##n, 0444, ete_reg_show, NULL),	\
		.reg = ETE_TRCIDR##n, .idr = n,				\
	}
#define MGMT_ATTR(_name, _reg)						\
	static struct ete_reg_attr ete_mgmt_attr_##_name = {		\
		.attr = __ATTR(_name, 0444, ete_reg_show, NULL),	\
		.reg = _reg, .idr = -1,					\
	}

IDR_ATTR(0);
IDR_ATTR(1);
IDR_ATTR(2);
IDR_ATTR(3);
IDR_ATTR(4);
IDR_ATTR(5);
IDR_ATTR(8);
IDR_ATTR(9);
IDR_ATTR(10);
IDR_ATTR(11);
IDR_ATTR(12);
IDR_ATTR(13);
MGMT_ATTR(trcdevarch, ETE_TRCDEVARCH);
MGMT_ATTR(trcauthstatus, ETE_TRCAUTHSTATUS);
MGMT_ATTR(trcconfig, ETE_TRCCONFIGR);
MGMT_ATTR(trctraceid, ETE_TRCTRACEIDR);

static struct attribute *ete_idr_attrs[] = {
	&ete_idr_attr_0.attr.attr,
	&ete_idr_attr_1.attr.attr,
	&ete_idr_attr_2.attr.attr,
	&ete_idr_attr_3.attr.attr,
	&ete_idr_attr_4.attr.attr,
	&ete_idr_attr_5.attr.attr,
	&ete_idr_attr_8.attr.attr,
	&ete_idr_attr_9.attr.attr,
	&ete_idr_attr_10.attr.attr,
	&ete_idr_attr_11.attr.attr,
	&ete_idr_attr_12.attr.attr,
	&ete_idr_attr_13.attr.attr,
	NULL,
};

const struct attribute_group ete_idr_group = {
	.name = "trcidr",
	.attrs = ete_idr_attrs,
};

static struct attribute *ete_mgmt_attrs[] = {
	&ete_mgmt_attr_trcdevarch.attr.attr,
	&ete_mgmt_attr_trcauthstatus.attr.attr,
	&ete_mgmt_attr_trcconfig.attr.attr,
	&ete_mgmt_attr_trctraceid.attr.attr,
	NULL,
};

const struct attribute_group ete_mgmt_group = {
	.name = "mgmt",
	.attrs = ete_mgmt_attrs,
};

/* ------------------------------------------------------------------------
 * caps/: decoded capabilities
 */

struct ete_caps_attr {
	struct device_attribute attr;
	u16 offset;
	u8 size;
};

static ssize_t ete_caps_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct ete_caps_attr *ca = container_of(attr, struct ete_caps_attr,
						attr);
	struct ete_unit *u = dev_get_drvdata(dev);
	const void *p = (const u8 *)&u->caps + ca->offset;
	u64 v;

	switch (ca->size) {
	case 1:
		v = *(const u8 *)p;
		break;
	case 2:
		v = *(const u16 *)p;
		break;
	default:
		v = *(const u32 *)p;
		break;
	}
	return sysfs_emit(buf, "%llu\n", v);
}

/* F is a member of a struct ete_caps at address NULL: offset and size */
#define CAPS_ATTR(_name, F)						\
	static struct ete_caps_attr ete_caps_attr_##_name = {		\
		.attr = __ATTR(_name, 0444, ete_caps_show, NULL),	\
		.offset = (uintptr_t)&(F),				\
		.size = sizeof(F),					\
	}
#define CAP	(*(struct ete_caps *)NULL)

CAPS_ATTR(revision, CAP.revision);
CAPS_ATTR(return_stack, CAP.retstack);
CAPS_ATTR(cycle_count, CAP.cycle_count);
CAPS_ATTR(branch_broadcast, CAP.branch_broadcast);
CAPS_ATTR(q_filter, CAP.qfilt);
CAPS_ATTR(q_support, CAP.qsupp);
CAPS_ATTR(num_events, CAP.num_events);
CAPS_ATTR(timestamp_bits, CAP.ts_bits);
CAPS_ATTR(context_id_bits, CAP.cid_bits);
CAPS_ATTR(vmid_bits, CAP.vmid_bits);
CAPS_ATTR(cycle_counter_bits, CAP.cc_bits);
CAPS_ATTR(vmid_opt, CAP.vmidopt);
CAPS_ATTR(cc_threshold_min, CAP.ccitmin);
CAPS_ATTR(el_s, CAP.exlevel_s);
CAPS_ATTR(el_ns, CAP.exlevel_ns);
CAPS_ATTR(trace_errors, CAP.trcerr);
CAPS_ATTR(sync_period_fixed, CAP.syncpr_ro);
CAPS_ATTR(stall, CAP.stallctl);
CAPS_ATTR(system_stall, CAP.sysstall);
CAPS_ATTR(no_overflow, CAP.nooverflow);
CAPS_ATTR(num_addr_comparators, CAP.num_ac);
CAPS_ATTR(num_addr_ranges, CAP.num_arc);
CAPS_ATTR(num_pe_comparators, CAP.num_pc);
CAPS_ATTR(num_resource_selectors, CAP.num_rs);
CAPS_ATTR(num_single_shot, CAP.num_ss);
CAPS_ATTR(num_context_id_comparators, CAP.num_cidc);
CAPS_ATTR(num_vmid_comparators, CAP.num_vmidc);
CAPS_ATTR(num_external_inputs, CAP.num_extin);
CAPS_ATTR(num_external_input_selectors, CAP.num_extinsel);
CAPS_ATTR(trace_id_bits, CAP.traceid_bits);
CAPS_ATTR(atb_trigger, CAP.atbtrig);
CAPS_ATTR(low_power_override, CAP.lpoverride);
CAPS_ATTR(num_seq_states, CAP.num_seq_states);
CAPS_ATTR(num_counters, CAP.num_cntr);
CAPS_ATTR(max_speculation, CAP.maxspec);

static ssize_t trf_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", u->has_trf);
}
static DEVICE_ATTR_RO(trf);

/*
 * Where a context ID filter finds the PID: "cid" (CONTEXTIDR_EL1, a kernel
 * at EL1: context ID comparators), "vmid" (CONTEXTIDR_EL2 traced as the
 * VMID, a VHE kernel: VMID comparators), or "none" (the kernel does not
 * write PIDs there, CONFIG_PID_IN_CONTEXTIDR, or the unit has no such
 * comparator).
 */
static ssize_t pid_context_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	const char *where = "none";

	if (IS_ENABLED(CONFIG_PID_IN_CONTEXTIDR)) {
		if (!is_kernel_in_hyp_mode() && u->caps.num_cidc)
			where = "cid";
		else if (is_kernel_in_hyp_mode() && u->caps.num_vmidc &&
			 u->caps.vmidopt)
			where = "vmid";
	}
	return sysfs_emit(buf, "%s\n", where);
}
static DEVICE_ATTR_RO(pid_context);

static struct attribute *ete_caps_attrs[] = {
	&ete_caps_attr_revision.attr.attr,
	&ete_caps_attr_return_stack.attr.attr,
	&ete_caps_attr_cycle_count.attr.attr,
	&ete_caps_attr_branch_broadcast.attr.attr,
	&ete_caps_attr_q_filter.attr.attr,
	&ete_caps_attr_q_support.attr.attr,
	&ete_caps_attr_num_events.attr.attr,
	&ete_caps_attr_timestamp_bits.attr.attr,
	&ete_caps_attr_context_id_bits.attr.attr,
	&ete_caps_attr_vmid_bits.attr.attr,
	&ete_caps_attr_cycle_counter_bits.attr.attr,
	&ete_caps_attr_vmid_opt.attr.attr,
	&ete_caps_attr_cc_threshold_min.attr.attr,
	&ete_caps_attr_el_s.attr.attr,
	&ete_caps_attr_el_ns.attr.attr,
	&ete_caps_attr_trace_errors.attr.attr,
	&ete_caps_attr_sync_period_fixed.attr.attr,
	&ete_caps_attr_stall.attr.attr,
	&ete_caps_attr_system_stall.attr.attr,
	&ete_caps_attr_no_overflow.attr.attr,
	&ete_caps_attr_num_addr_comparators.attr.attr,
	&ete_caps_attr_num_addr_ranges.attr.attr,
	&ete_caps_attr_num_pe_comparators.attr.attr,
	&ete_caps_attr_num_resource_selectors.attr.attr,
	&ete_caps_attr_num_single_shot.attr.attr,
	&ete_caps_attr_num_context_id_comparators.attr.attr,
	&ete_caps_attr_num_vmid_comparators.attr.attr,
	&ete_caps_attr_num_external_inputs.attr.attr,
	&ete_caps_attr_num_external_input_selectors.attr.attr,
	&ete_caps_attr_trace_id_bits.attr.attr,
	&ete_caps_attr_atb_trigger.attr.attr,
	&ete_caps_attr_low_power_override.attr.attr,
	&ete_caps_attr_num_seq_states.attr.attr,
	&ete_caps_attr_num_counters.attr.attr,
	&ete_caps_attr_max_speculation.attr.attr,
	&dev_attr_trf.attr,
	&dev_attr_pid_context.attr,
	NULL,
};

const struct attribute_group ete_caps_group = {
	.name = "caps",
	.attrs = ete_caps_attrs,
};
