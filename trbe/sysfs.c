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
 * device is open (the buffer is allocated at open; tc->lock), the modes
 * while any session uses the TRBE, this file's or a foreign one (configfs,
 * sysfs), whatever its stream state (running, waiting for the reader,
 * stopped at a trigger).  The modes are checked and changed under
 * tc->slock, as trbe_sink_start() reads them and sets in_session: a
 * session cannot start between the check and the change, and the
 * interrupt handler never decodes TRBSR with a mode the TRBE was not
 * armed with.
 */
static ssize_t trbe_cfg_set(struct trbe_cpu *tc, enum trbe_cfg_field f,
			    u64 val, size_t len)
{
	bool geometry = f == TRBE_CFG_SIZE || f == TRBE_CFG_WMARK;
	ssize_t ret = len;

	mutex_lock(&tc->lock);
	if (geometry && tc->open) {
		ret = -EBUSY;
		goto out_unlock;
	}
	raw_spin_lock_irq(&tc->slock);
	if (!geometry && (tc->owner || tc->in_session || tc->armed)) {
		ret = -EBUSY;
		goto out_unlock_slock;
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
out_unlock_slock:
	raw_spin_unlock_irq(&tc->slock);
out_unlock:
	mutex_unlock(&tc->lock);
	return ret;
}

static u64 trbe_cfg_get(const struct trbe_cfg *cfg, enum trbe_cfg_field f)
{
	switch (f) {
	case TRBE_CFG_SIZE:
		return READ_ONCE(cfg->size);
	case TRBE_CFG_WMARK:
		return READ_ONCE(cfg->wmark);
	case TRBE_CFG_FM:
		return READ_ONCE(cfg->fm);
	case TRBE_CFG_TM:
		return READ_ONCE(cfg->tm);
	case TRBE_CFG_TRIG_COUNT:
		return READ_ONCE(cfg->trig_count);
	case TRBE_CFG_POLICY:
		return READ_ONCE(cfg->policy);
	}
	return 0;
}

/* A power of two from two pages to 256 MiB */
static int trbe_check_size(u64 size)
{
	if (!is_power_of_2(size) || size < TRBE_BUF_MIN || size > TRBE_BUF_MAX)
		return -EINVAL;
	return 0;
}

/* 0: half the buffer; else whole pages, a power of two */
static int trbe_check_wmark(u64 wmark)
{
	if (wmark && (!is_power_of_2(wmark) || wmark < PAGE_SIZE ||
		      wmark > TRBE_BUF_MAX))
		return -EINVAL;
	return 0;
}

/* TRBTRG is 32 bits */
static int trbe_check_trig_count(u64 count)
{
	return count > U32_MAX ? -ERANGE : 0;
}

/**
 * struct trbe_cfg_attr - a file of &struct trbe_cfg
 * @attr: the attribute
 * @field: the field it shows and sets
 * @names: the names of a mode's values (by value, "" for none), or NULL
 *	for a number
 * @nnames: entries of @names
 * @check: for a number, its validation: 0, -EINVAL or -ERANGE
 */
struct trbe_cfg_attr {
	struct device_attribute attr;
	enum trbe_cfg_field field;
	const char * const *names;
	size_t nnames;
	int (*check)(u64 val);
};

static ssize_t trbe_cfg_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct trbe_cfg_attr *ca = container_of(attr, struct trbe_cfg_attr,
						attr);
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	u64 val = trbe_cfg_get(&tc->cfg, ca->field);

	if (ca->names)
		return sysfs_emit(buf, "%s\n", ca->names[val]);
	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t trbe_cfg_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t len)
{
	struct trbe_cfg_attr *ca = container_of(attr, struct trbe_cfg_attr,
						attr);
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	u64 val;
	int ret;

	if (ca->names) {
		ret = ete_param_match(ca->names, ca->nnames, buf);
		if (ret < 0)
			return ret;
		val = ret;
	} else {
		ret = ete_param_parse(buf, &val);
		if (!ret)
			ret = ca->check(val);
		if (ret)
			return ret;
	}
	return trbe_cfg_set(tc, ca->field, val, len);
}

#define TRBE_CFG_NUM(_name, _field, _check)				\
	static struct trbe_cfg_attr trbe_cfg_attr_##_name = {		\
		.attr = __ATTR(_name, 0644, trbe_cfg_show, trbe_cfg_store), \
		.field = _field,					\
		.check = _check,					\
	}
#define TRBE_CFG_MODE(_name, _field, _names, _n)			\
	static struct trbe_cfg_attr trbe_cfg_attr_##_name = {		\
		.attr = __ATTR(_name, 0644, trbe_cfg_show, trbe_cfg_store), \
		.field = _field,					\
		.names = _names,					\
		.nnames = _n,						\
	}

TRBE_CFG_NUM(buffer_size, TRBE_CFG_SIZE, trbe_check_size);
TRBE_CFG_NUM(watermark, TRBE_CFG_WMARK, trbe_check_wmark);
TRBE_CFG_MODE(fill_mode, TRBE_CFG_FM, ete_sink_fill_mode_names,
	      ETE_SINK_MODE_NAMES);
TRBE_CFG_MODE(trigger_mode, TRBE_CFG_TM, ete_sink_trig_mode_names,
	      ETE_SINK_MODE_NAMES);
TRBE_CFG_NUM(trigger_count, TRBE_CFG_TRIG_COUNT, trbe_check_trig_count);
TRBE_CFG_MODE(when_behind, TRBE_CFG_POLICY, trbe_policy_names,
	      ARRAY_SIZE(trbe_policy_names));

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

/**
 * struct trbe_stat_attr - a file of stats/: one &struct trbe_stats member
 * @attr: the attribute
 * @off: the member's offset in &struct trbe_stats
 */
struct trbe_stat_attr {
	struct device_attribute attr;
	size_t off;
};

static ssize_t trbe_stat_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct trbe_stat_attr *sa = container_of(attr, struct trbe_stat_attr,
						 attr);
	struct trbe_cpu *tc = dev_get_drvdata(dev);
	u64 *val = (void *)&tc->stats + sa->off;

	return sysfs_emit(buf, "%llu\n", READ_ONCE(*val));
}

#define TRBE_STAT_ATTR(_name, _off)					\
	static struct trbe_stat_attr trbe_stat_attr_##_name = {		\
		.attr = __ATTR(_name, 0444, trbe_stat_show, NULL),	\
		.off = _off,						\
	}
#define TRBE_STAT(_member)	offsetof(struct trbe_stats, _member)

TRBE_STAT_ATTR(interrupts, TRBE_STAT(interrupts));
TRBE_STAT_ATTR(flushes, TRBE_STAT(flushes));
TRBE_STAT_ATTR(arms, TRBE_STAT(arms));
TRBE_STAT_ATTR(padding_bytes, TRBE_STAT(padding_bytes));
TRBE_STAT_ATTR(wakeups, TRBE_STAT(wakeups));
TRBE_STAT_ATTR(cpu_ns, TRBE_STAT(cpu_ns));

/* stats/: the data path's counters since the driver loaded */
static struct attribute *trbe_stats_attrs[] = {
	&trbe_stat_attr_interrupts.attr.attr,
	&trbe_stat_attr_flushes.attr.attr,
	&trbe_stat_attr_arms.attr.attr,
	&trbe_stat_attr_padding_bytes.attr.attr,
	&trbe_stat_attr_wakeups.attr.attr,
	&trbe_stat_attr_cpu_ns.attr.attr,
	NULL,
};

static const struct attribute_group trbe_stats_group = {
	.name = "stats",
	.attrs = trbe_stats_attrs,
};

static struct attribute *trbe_dev_attrs[] = {
	&trbe_cfg_attr_buffer_size.attr.attr,
	&trbe_cfg_attr_watermark.attr.attr,
	&trbe_cfg_attr_fill_mode.attr.attr,
	&trbe_cfg_attr_trigger_mode.attr.attr,
	&trbe_cfg_attr_trigger_count.attr.attr,
	&trbe_cfg_attr_when_behind.attr.attr,
	&dev_attr_present.attr,
	&dev_attr_errata.attr,
	NULL,
};

static const struct attribute_group trbe_dev_group = {
	.attrs = trbe_dev_attrs,
};

const struct attribute_group *trbe_dev_groups[] = {
	&trbe_dev_group,
	&trbe_stats_group,
	NULL,
};
