// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/ete/ete<N>/trcidr/ and mgmt/: the raw ID and management
 * registers under the upstream etm4x names (sysfs.c adds the groups).
 * trcidr/ shows the values read at probe; a mgmt/ file reads its register
 * on the unit's CPU when read (ete_unit_read()).  regs/: every register
 * the last session programmed, as it programmed it, for the snapshot
 * writers that record a capture's configuration.
 */

#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

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

	return ete_prog_exists(&u->caps, pa->base, pa->idx) ? attr->mode : 0;
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
