// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs attributes of /sys/class/trbe/trbe<N>: one value per file.
 *
 * Sizes are bytes, read in decimal or 0x hex; numbers and mode names are
 * parsed by ete.ko's parameter helpers, as the ETE sysfs and configfs files
 * are (a configfs profile's trbe/ directory takes the same names).  The
 * buffer geometry (buffer_size, watermark) changes only while the device
 * is closed, the modes only while no session runs: -EBUSY otherwise, old
 * value kept.
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <ete/param.h>

#include "drv.h"

static const char * const trbe_policy_names[] = {
	[TRBE_POLICY_STOP] = "stop",
	[TRBE_POLICY_DROP] = "drop",
};

enum trbe_cfg_field {
	TRBE_CFG_SIZE,
	TRBE_CFG_WMARK,
	TRBE_CFG_FM,
	TRBE_CFG_TM,
	TRBE_CFG_TRIG_COUNT,
	TRBE_CFG_POLICY,
};

/*
 * Set one configuration field, unless it is busy: the geometry while the
 * device is open (the buffer is allocated at open), the modes while a
 * session or an armed TRBE uses them.
 */
static ssize_t trbe_cfg_set(struct trbe_cpu *tc, enum trbe_cfg_field f,
			    u64 val, size_t len)
{
	bool geometry = f == TRBE_CFG_SIZE || f == TRBE_CFG_WMARK;
	ssize_t ret = len;

	mutex_lock(&tc->lock);
	if (geometry ? tc->open : tc->owner || READ_ONCE(tc->armed)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	switch (f) {
	case TRBE_CFG_SIZE:
		tc->cfg.size = val;
		break;
	case TRBE_CFG_WMARK:
		tc->cfg.wmark = val;
		break;
	case TRBE_CFG_FM:
		tc->cfg.fm = val;
		break;
	case TRBE_CFG_TM:
		tc->cfg.tm = val;
		break;
	case TRBE_CFG_TRIG_COUNT:
		tc->cfg.trig_count = val;
		break;
	case TRBE_CFG_POLICY:
		tc->cfg.policy = val;
		break;
	}
out_unlock:
	mutex_unlock(&tc->lock);
	return ret;
}

static ssize_t buffer_size_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(tc->cfg.size));
}

static ssize_t buffer_size_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	u64 size;
	ssize_t ret;

	ret = ete_param_parse(buf, &size);
	if (ret)
		return ret;
	if (!is_power_of_2(size) || size < TRBE_BUF_MIN || size > TRBE_BUF_MAX)
		return -EINVAL;
	return trbe_cfg_set(tc, TRBE_CFG_SIZE, size, len);
}
static DEVICE_ATTR_RW(buffer_size);

static ssize_t watermark_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(tc->cfg.wmark));
}

static ssize_t watermark_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t len)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	u64 wmark;
	ssize_t ret;

	ret = ete_param_parse(buf, &wmark);
	if (ret)
		return ret;
	/* 0: half the buffer; else whole pages, a power of two */
	if (wmark && (!is_power_of_2(wmark) || wmark < PAGE_SIZE ||
		      wmark > TRBE_BUF_MAX))
		return -EINVAL;
	return trbe_cfg_set(tc, TRBE_CFG_WMARK, wmark, len);
}
static DEVICE_ATTR_RW(watermark);

static ssize_t fill_mode_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", ete_sink_fill_mode_names[READ_ONCE(tc->cfg.fm)]);
}

static ssize_t fill_mode_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t len)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	int fm = ete_param_match(ete_sink_fill_mode_names,
				 ETE_SINK_MODE_NAMES, buf);

	if (fm < 0)
		return fm;
	return trbe_cfg_set(tc, TRBE_CFG_FM, fm, len);
}
static DEVICE_ATTR_RW(fill_mode);

static ssize_t trigger_mode_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", ete_sink_trig_mode_names[READ_ONCE(tc->cfg.tm)]);
}

static ssize_t trigger_mode_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	int tm = ete_param_match(ete_sink_trig_mode_names,
				 ETE_SINK_MODE_NAMES, buf);

	if (tm < 0)
		return tm;
	return trbe_cfg_set(tc, TRBE_CFG_TM, tm, len);
}
static DEVICE_ATTR_RW(trigger_mode);

static ssize_t trigger_count_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(tc->cfg.trig_count));
}

static ssize_t trigger_count_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t len)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	u64 count;
	ssize_t ret;

	ret = ete_param_parse(buf, &count);
	if (ret)
		return ret;
	if (count > U32_MAX)
		return -ERANGE;
	return trbe_cfg_set(tc, TRBE_CFG_TRIG_COUNT, count, len);
}
static DEVICE_ATTR_RW(trigger_count);

static ssize_t when_behind_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n",
			  trbe_policy_names[READ_ONCE(tc->cfg.policy)]);
}

static ssize_t when_behind_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	int p = ete_param_match(trbe_policy_names,
				ARRAY_SIZE(trbe_policy_names), buf);

	if (p < 0)
		return p;
	return trbe_cfg_set(tc, TRBE_CFG_POLICY, p, len);
}
static DEVICE_ATTR_RW(when_behind);

static ssize_t present_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(tc->present));
}
static DEVICE_ATTR_RO(present);

static ssize_t errata_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct trbe_cpu *tc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%#lx\n", READ_ONCE(tc->errata));
}
static DEVICE_ATTR_RO(errata);

static struct attribute *trbe_dev_attrs[] = {
	&dev_attr_buffer_size.attr,
	&dev_attr_watermark.attr,
	&dev_attr_fill_mode.attr,
	&dev_attr_trigger_mode.attr,
	&dev_attr_trigger_count.attr,
	&dev_attr_when_behind.attr,
	&dev_attr_present.attr,
	&dev_attr_errata.attr,
	NULL,
};

static const struct attribute_group trbe_dev_group = {
	.attrs = trbe_dev_attrs,
};

const struct attribute_group *trbe_dev_groups[] = {
	&trbe_dev_group,
	NULL,
};
