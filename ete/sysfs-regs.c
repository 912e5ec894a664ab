// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/ete/ete<N>/caps/, trcidr/ and mgmt/: what the unit reports
 * (sysfs.c adds the groups).  caps/ shows the capabilities decoded at
 * probe; trcidr/ and mgmt/ the raw ID and management registers under the
 * upstream etm4x names: trcidr/ the values read at probe, a mgmt/ file
 * reads its register on the unit's CPU when read (ete_unit_read()).
 * regs/: every register the last session programmed, as it programmed it,
 * for the snapshot writers that record a capture's configuration.
 */

#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#include <asm/virt.h>

#include <ete/config.h>
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

/* ------------------------------------------------------------------------
 * regs/: the trace unit registers the last session programmed
 */

/* Files of regs/, at most: <ete/regs-table.h> gives 145 */
#define ETE_REGS_MAX		192
#define ETE_REGS_NAME_LEN	20

struct ete_prog_attr {
	struct device_attribute attr;
	u32 base;	/* the row's register id: instance 0 */
	u32 reg;
	u8 idx;
	char name[ETE_REGS_NAME_LEN];
};

static const struct ete_reg_desc ete_prog_rows[] = {
#define ETE_REG(name, count, stride, flags) \
	{ #name, ETE_##name, count, stride, flags },
#include <ete/regs-table.h>
#undef ETE_REG
};

static struct ete_prog_attr ete_prog_attrs[ETE_REGS_MAX];
static struct attribute *ete_regs_attrs[ETE_REGS_MAX + 1];

/*
 * A row of regs/: a read-write trace unit register of the system-register
 * view, but TRCPRGCTLR and the claim tags, which no configuration sets.
 */
static bool ete_prog_row(const struct ete_reg_desc *d)
{
	if (!ETE_REG_IS_TRC(d->id) || (d->flags & (ETE_RF_RO | ETE_RF_WO)) ||
	    !(d->flags & ETE_RF_SYS))
		return false;
	return d->id != ETE_TRCPRGCTLR && d->id != ETE_TRCCLAIMSET &&
	       d->id != ETE_TRCCLAIMCLR;
}

/*
 * Whether ete_config_to_image() can write instance @i of row @base for a
 * unit of capabilities @c: the registers the ID registers say exist
 * (TRCRSCTLR0 and 1 are the fixed pair, RQDJVV, never programmed).
 */
static bool ete_prog_exists(const struct ete_caps *c, u32 base,
			    unsigned int i)
{
	switch (base) {
	case ETE_TRCSTALLCTLR:
		return c->stallctl;
	case ETE_TRCTSCTLR:
		return c->ts_bits;
	case ETE_TRCSYNCPR:
		return !c->syncpr_ro;
	case ETE_TRCCCCTLR:
		return c->cycle_count;
	case ETE_TRCBBCTLR:
		return c->branch_broadcast;
	case ETE_TRCQCTLR:
		return c->qfilt;
	case ETE_TRCVIIECTLR:
	case ETE_TRCVISSCTLR:
		return c->num_arc;
	case ETE_TRCVIPCSSCTLR:
		return c->num_pc;
	case ETE_TRCSEQEVR:
		return i + 1 < c->num_seq_states;
	case ETE_TRCSEQRSTEVR:
	case ETE_TRCSEQSTR:
		return c->num_seq_states;
	case ETE_TRCEXTINSELR:
		return i < c->num_extinsel;
	case ETE_TRCCNTRLDVR:
	case ETE_TRCCNTCTLR:
	case ETE_TRCCNTVR:
		return i < c->num_cntr;
	case ETE_TRCRSCTLR:
		return i >= 2 && i < c->num_rs;
	case ETE_TRCSSCCR:
	case ETE_TRCSSCSR:
		return i < c->num_ss;
	case ETE_TRCSSPCICR:
		return i < c->num_ss && c->num_pc;
	case ETE_TRCACVR:
	case ETE_TRCACATR:
		return i < c->num_ac;
	case ETE_TRCCIDCVR:
		return i < c->num_cidc;
	case ETE_TRCVMIDCVR:
		return i < c->num_vmidc;
	case ETE_TRCCIDCCTLR0:
		return c->num_cidc;
	case ETE_TRCCIDCCTLR1:
		return c->num_cidc > 4;
	case ETE_TRCVMIDCCTLR0:
		return c->num_vmidc;
	case ETE_TRCVMIDCCTLR1:
		return c->num_vmidc > 4;
	default:
		return true;
	}
}

/*
 * The value the last session's image gave the register (ete_unit.img, set
 * when the session claimed the CPU), with no register access: it stays
 * true after the session, when a power-down may have lost the unit's own
 * copy.  ENODATA if that session did not program it, or none ran yet.
 */
static ssize_t ete_prog_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct ete_prog_attr *pa = container_of(attr, struct ete_prog_attr,
						attr);
	struct ete_unit *u = dev_get_drvdata(dev);
	bool found;
	u64 val;

	/* an address comparator may hold a kernel address: as addr<i>/value */
	if (pa->base == ETE_TRCACVR && !perfmon_capable())
		return -EPERM;
	mutex_lock(&ete_mutex);
	val = ete_image_get(&u->img, pa->reg, &found);
	mutex_unlock(&ete_mutex);
	if (!found)
		return -ENODATA;
	return sysfs_emit(buf, "0x%llx\n", val);
}

static umode_t ete_regs_visible(struct kobject *kobj, struct attribute *attr,
				int n)
{
	struct ete_prog_attr *pa = container_of(attr, struct ete_prog_attr,
						attr.attr);
	struct ete_unit *u = dev_get_drvdata(kobj_to_dev(kobj));

	if (!ete_prog_exists(&u->caps, pa->base, pa->idx))
		return 0;
	/*
	 * An address comparator may hold a kernel address: only root opens
	 * it, and its reader needs CAP_PERFMON as well (the check at read
	 * time alone would judge whoever reads an fd, not its opener).
	 */
	return pa->base == ETE_TRCACVR ? 0400 : attr->mode;
}

const struct attribute_group ete_regs_group = {
	.name = "regs",
	.attrs = ete_regs_attrs,
	.is_visible = ete_regs_visible,
};

/**
 * ete_regs_group_init() - name the files of regs/ from the register table
 *
 * "trcvictlr", "trcacvr3": the register's name in lower case, with the
 * instance of an indexed register.  Static storage: nothing to free.
 *
 * Context: module init, before the first unit's files are made.
 */
void ete_regs_group_init(void)
{
	unsigned int r, i, k, n = 0;

	for (r = 0; r < ARRAY_SIZE(ete_prog_rows); r++) {
		const struct ete_reg_desc *d = &ete_prog_rows[r];

		if (!ete_prog_row(d))
			continue;
		for (i = 0; i < d->count; i++, n++) {
			struct ete_prog_attr *pa = &ete_prog_attrs[n];

			/* a table grown past ETE_REGS_MAX: a driver bug */
			if (WARN_ON_ONCE(n == ETE_REGS_MAX))
				goto out;

			for (k = 0; d->name[k] && k < ETE_REGS_NAME_LEN - 3; k++)
				pa->name[k] = tolower(d->name[k]);
			if (d->count > 1)
				snprintf(pa->name + k, ETE_REGS_NAME_LEN - k,
					 "%u", i);
			sysfs_attr_init(&pa->attr.attr);
			pa->attr.attr.name = pa->name;
			pa->attr.attr.mode = 0444;
			pa->attr.show = ete_prog_show;
			pa->base = d->id;
			pa->reg = d->id + i * d->stride;
			pa->idx = i;
			ete_regs_attrs[n] = &pa->attr.attr;
		}
	}
out:
	ete_regs_attrs[n] = NULL;
}
