// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs ABI: /sys/class/ete/ete<cpu>/.
 *
 * Strings are parsed here and only here, through the parameter table of
 * param.c; the files of each parameter group (addr<i>/, cntr<i>/, ...)
 * exist only for the resources the unit implements.  Configuration writes
 * are refused with -EBUSY while the unit is enabled and leave the old value
 * on any error.  caps/ shows the decoded capabilities; trcidr/ and mgmt/
 * mirror raw registers under the upstream etm4x names for existing tools;
 * regs/ the registers the last session programmed.
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/sysfs.h>

#include <asm/virt.h>

#include <ete/compat.h>
#include <ete/core.h>
#include <ete/param.h>
#include <ete/regs.h>

static struct class *ete_class;

/* ------------------------------------------------------------------------
 * Unit files: cpu, enable, reset, status
 */

static ssize_t cpu_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", u->cpu);
}
static DEVICE_ATTR_RO(cpu);

static ssize_t enable_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(u->enabled));
}

static ssize_t enable_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	bool on;
	int ret;

	ret = ete_param_parse_bool(buf, &on);
	if (!ret)
		ret = ete_session_sysfs_enable(u, on);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(enable);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	u64 val;
	int ret;

	ret = ete_param_parse(buf, &val);
	if (ret)
		return ret;
	if (val != 1)
		return val ? -ERANGE : -EINVAL;
	mutex_lock(&ete_mutex);
	if (u->sess) {
		ret = -EBUSY;
	} else {
		ete_config_defaults_cpu(&u->cfg, &u->caps, u->cpu);
		ete_unit_set_error(u, 0, NULL);
	}
	mutex_unlock(&ete_mutex);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(reset);

/* The errno names "status" may report (CONFIG_SYMBOLIC_ERRNAME may be off) */
static const char *ete_errname(int err)
{
	switch (-err) {
	case ETIMEDOUT:
		return "-ETIMEDOUT";
	case ENODEV:
		return "-ENODEV";
	case EBUSY:
		return "-EBUSY";
	case ENXIO:
		return "-ENXIO";
	case EIO:
		return "-EIO";
	case EINVAL:
		return "-EINVAL";
	case ERANGE:
		return "-ERANGE";
	case EOPNOTSUPP:
		return "-EOPNOTSUPP";
	case ENOMEM:
		return "-ENOMEM";
	default:
		return NULL;
	}
}

static ssize_t status_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	const char *owner;
	int len;

	mutex_lock(&ete_mutex);
	owner = ete_session_owner(u);
	len = sysfs_emit(buf, "state: %s\n", u->enabled ? "enabled" : "disabled");
	len += sysfs_emit_at(buf, len, "owner: %s\n", owner ? owner : "none");
	len += sysfs_emit_at(buf, len, "sink: %s\n",
			     u->sink ? u->sink->name : "none");
	len += sysfs_emit_at(buf, len, "trf: %s\n", u->has_trf ? "yes" :
			     "no (FEAT_TRF absent: filtering with TRCVICTLR only)");
	if (owner)
		len += sysfs_emit_at(buf, len, "kernel: %s\n",
				     u->img.kernel_filtered ?
				     "filtered out (needs CAP_PERFMON or CAP_SYS_ADMIN)" :
				     "traced if selected");
	if (u->err && ete_errname(u->err))
		len += sysfs_emit_at(buf, len, "last_error: %s (%s)\n",
				     ete_errname(u->err), u->err_msg);
	else if (u->err)
		len += sysfs_emit_at(buf, len, "last_error: %d (%s)\n",
				     u->err, u->err_msg);
	else
		len += sysfs_emit_at(buf, len, "last_error: none\n");
	mutex_unlock(&ete_mutex);
	return len;
}
static DEVICE_ATTR_RO(status);

/* ------------------------------------------------------------------------
 * Parameter files, one per (parameter, instance), made at probe
 */

/**
 * struct ete_param_attr - a sysfs file of one parameter instance
 * @attr: the attribute
 * @p: the parameter
 * @idx: the instance in its group
 */
struct ete_param_attr {
	struct device_attribute attr;
	const struct ete_param *p;
	unsigned int idx;
};

static ssize_t ete_param_attr_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct ete_param_attr *pa = container_of(attr, struct ete_param_attr,
						 attr);
	struct ete_unit *u = dev_get_drvdata(dev);
	int len;

	mutex_lock(&ete_mutex);
	len = ete_param_show(&u->cfg, pa->p, pa->idx, buf, PAGE_SIZE);
	mutex_unlock(&ete_mutex);
	return len;
}

static ssize_t ete_param_attr_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct ete_param_attr *pa = container_of(attr, struct ete_param_attr,
						 attr);
	struct ete_unit *u = dev_get_drvdata(dev);
	int ret;

	mutex_lock(&ete_mutex);
	if (u->sess)
		ret = -EBUSY;
	else
		ret = ete_param_store(&u->cfg, &u->caps, pa->p, pa->idx, buf);
	mutex_unlock(&ete_mutex);
	return ret ? ret : count;
}

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

static const struct attribute_group ete_caps_group = {
	.name = "caps",
	.attrs = ete_caps_attrs,
};

/* ------------------------------------------------------------------------
 * Building a unit's groups
 */

#define ETE_BASE_ATTRS		4
#define ETE_MAX_GROUPS		100
#define ETE_GROUP_NAME_LEN	12

/**
 * struct ete_sysfs_mem - what a unit's sysfs directory is made of
 * @groups: one per directory
 * @group_ptrs: NULL-terminated, for device_create_with_groups()
 * @names: directory names (addr0, ...)
 * @pattrs: the parameter files
 * @slots: attribute pointers of every group, each run NULL-terminated
 */
struct ete_sysfs_mem {
	struct attribute_group groups[ETE_MAX_GROUPS];
	const struct attribute_group *group_ptrs[ETE_MAX_GROUPS + 5];
	char names[ETE_MAX_GROUPS][ETE_GROUP_NAME_LEN];
	struct ete_param_attr *pattrs;
	struct attribute **slots;
};

static unsigned int ete_group_size(const struct ete_caps *caps,
				   enum ete_param_group g, unsigned int idx)
{
	unsigned int i, n = 0;

	for (i = 0; i < ete_num_params; i++)
		if (ete_params[i].group == g &&
		    ete_param_visible(&ete_params[i], caps, idx))
			n++;
	return n;
}

static void ete_sysfs_free(struct ete_sysfs_mem *m)
{
	if (!m)
		return;
	kfree(m->pattrs);
	kfree(m->slots);
	kfree(m);
}

/* Count the parameter files and attribute slots a unit needs */
static void ete_sysfs_count(const struct ete_caps *caps, unsigned int *files,
			    unsigned int *slots)
{
	enum ete_param_group g;
	unsigned int idx, n;

	*files = 0;
	*slots = ETE_BASE_ATTRS + 1;
	for (g = 0; g < ETE_PG_NR; g++) {
		for (idx = ete_param_group_first(g);
		     idx < ete_param_group_count(caps, g); idx++) {
			n = ete_group_size(caps, g, idx);
			*files += n;
			*slots += n + (g == ETE_PG_UNIT ? 0 : 1);
		}
	}
}

/* Fill the attributes of instance @idx of group @g from *@pa and *@slot */
static void ete_sysfs_fill(const struct ete_caps *caps,
			   enum ete_param_group g, unsigned int idx,
			   struct ete_param_attr **pa, struct attribute ***slot)
{
	unsigned int i;

	for (i = 0; i < ete_num_params; i++) {
		const struct ete_param *p = &ete_params[i];
		struct ete_param_attr *a = *pa;

		if (p->group != g || !ete_param_visible(p, caps, idx))
			continue;
		sysfs_attr_init(&a->attr.attr);
		a->attr.attr.name = p->name;
		a->attr.attr.mode = 0644;
		a->attr.show = ete_param_attr_show;
		a->attr.store = ete_param_attr_store;
		a->p = p;
		a->idx = idx;
		*(*slot)++ = &a->attr.attr;
		(*pa)++;
	}
}

static struct ete_sysfs_mem *ete_sysfs_build(const struct ete_caps *caps)
{
	struct attribute **slot, **start;
	struct ete_sysfs_mem *m;
	struct ete_param_attr *pa;
	unsigned int files, slots, ng = 0, idx;
	enum ete_param_group g;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	ete_sysfs_count(caps, &files, &slots);
	m->pattrs = kcalloc(files, sizeof(*m->pattrs), GFP_KERNEL);
	m->slots = kcalloc(slots, sizeof(*m->slots), GFP_KERNEL);
	if ((files && !m->pattrs) || !m->slots) {
		ete_sysfs_free(m);
		return NULL;
	}
	pa = m->pattrs;
	slot = m->slots;

	/* The unit's own directory: fixed files, then unit parameters */
	start = slot;
	*slot++ = &dev_attr_cpu.attr;
	*slot++ = &dev_attr_enable.attr;
	*slot++ = &dev_attr_reset.attr;
	*slot++ = &dev_attr_status.attr;
	ete_sysfs_fill(caps, ETE_PG_UNIT, 0, &pa, &slot);
	*slot++ = NULL;
	m->groups[ng].attrs = start;
	m->group_ptrs[ng] = &m->groups[ng];
	ng++;

	for (g = ETE_PG_UNIT + 1; g < ETE_PG_NR; g++) {
		for (idx = ete_param_group_first(g);
		     idx < ete_param_group_count(caps, g); idx++) {
			if (!ete_group_size(caps, g, idx) ||
			    WARN_ON_ONCE(ng >= ETE_MAX_GROUPS))
				continue;
			start = slot;
			ete_sysfs_fill(caps, g, idx, &pa, &slot);
			*slot++ = NULL;
			ete_param_group_dir(g, idx, m->names[ng],
					    ETE_GROUP_NAME_LEN);
			m->groups[ng].name = m->names[ng];
			m->groups[ng].attrs = start;
			m->group_ptrs[ng] = &m->groups[ng];
			ng++;
		}
	}
	m->group_ptrs[ng++] = &ete_caps_group;
	m->group_ptrs[ng++] = &ete_idr_group;
	m->group_ptrs[ng++] = &ete_mgmt_group;
	m->group_ptrs[ng++] = &ete_regs_group;
	m->group_ptrs[ng] = NULL;
	return m;
}

/**
 * ete_sysfs_add() - create /sys/class/ete/ete<cpu>
 * @u: the unit, probed
 *
 * Context: process context; sleeps.
 * Return: 0, -ENOMEM, or the error of device_create_with_groups().
 */
int ete_sysfs_add(struct ete_unit *u)
{
	struct ete_sysfs_mem *m;
	struct device *dev;

	m = ete_sysfs_build(&u->caps);
	if (!m)
		return -ENOMEM;
	dev = device_create_with_groups(ete_class, u->parent, MKDEV(0, 0), u,
					m->group_ptrs, "ete%d", u->cpu);
	if (IS_ERR(dev)) {
		ete_sysfs_free(m);
		return PTR_ERR(dev);
	}
	u->dev = dev;
	u->sysfs_mem = m;
	return 0;
}

/**
 * ete_sysfs_remove() - remove a unit's directory
 * @u: the unit
 *
 * Waits for store() and show() calls in progress to finish.
 *
 * Context: process context; sleeps; must not hold ete_mutex.
 */
void ete_sysfs_remove(struct ete_unit *u)
{
	if (!u->dev)
		return;
	device_unregister(u->dev);
	u->dev = NULL;
	ete_sysfs_free(u->sysfs_mem);
	u->sysfs_mem = NULL;
}

/**
 * ete_sysfs_init() - register the "ete" class
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int ete_sysfs_init(void)
{
	ete_regs_group_init();
	ete_class = ete_compat_class_create("ete");
	return PTR_ERR_OR_ZERO(ete_class);
}

/**
 * ete_sysfs_exit() - unregister the "ete" class
 *
 * Context: module exit, after every unit is gone.
 */
void ete_sysfs_exit(void)
{
	class_destroy(ete_class);
}
