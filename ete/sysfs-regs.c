// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/ete/ete<N>/trcidr/ and mgmt/: the raw ID and management
 * registers under the upstream etm4x names (sysfs.c adds the groups).
 * trcidr/ shows the values read at probe; a mgmt/ file reads its register
 * on the unit's CPU when read (ete_unit_read()).
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

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

