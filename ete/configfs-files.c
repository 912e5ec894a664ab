// SPDX-License-Identifier: GPL-2.0
/*
 * The files of a configfs profile: the parameter files, made from the
 * table of param-table.c and parsed by param.c exactly as sysfs parses
 * them, and trbe/, the settings asked of each CPU's trace buffer.  Every
 * write is refused with -EBUSY while the profile is active.
 */

#include <linux/capability.h>
#include <linux/configfs.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <ete/core.h>
#include <ete/param.h>

#include "configfs-profile.h"

/* ------------------------------------------------------------------------
 * Parameter files: the table of param-table.c, one file per entry
 */

/*
 * Whether every unit the profile selects (every unit while cpus is empty)
 * takes @buf for instance @idx of @p; if so, store it in the overlay.
 */
static int ete_cfs_param_set(struct ete_profile *prof,
			     const struct ete_param *p, unsigned int idx,
			     const char *buf)
{
	const struct ete_caps *caps = NULL;
	struct ete_config *tmp;
	int cpu, ret = 0;

	tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	mutex_lock(&ete_mutex);
	for_each_possible_cpu(cpu) {
		struct ete_unit *u = ete_unit_of(cpu);

		if (!u || u->gone || (!cpumask_empty(prof->cpus) &&
				      !cpumask_test_cpu(cpu, prof->cpus)))
			continue;
		*tmp = prof->ov.cfg;
		ret = ete_param_store(tmp, &u->caps, p, idx, buf);
		if (ret)
			break;
		caps = caps ?: &u->caps;
	}
	if (!ret)
		ret = caps ? ete_param_overlay_store(&prof->ov, caps, p, idx,
						     buf) : -ENODEV;
	mutex_unlock(&ete_mutex);
	kfree(tmp);
	return ret;
}

/*
 * configfs gives show() neither the file nor its opener: a secret value
 * (an address) is in a file only root may open for reading (mode 0600,
 * ete_cfs_param_attrs_init()), which is the opener's check, and is shown
 * to a reader with the privilege as well.
 */
static ssize_t ete_cfs_param_show(struct config_item *item, unsigned int n,
				  char *page)
{
	struct ete_cfs_dir *d = to_ete_cfs_dir(item);
	int len;

	mutex_lock(&d->prof->lock);
	len = ete_param_show(&d->prof->ov.cfg, &ete_params[n], d->idx, page,
			     PAGE_SIZE, perfmon_capable());
	mutex_unlock(&d->prof->lock);
	return len;
}

static ssize_t ete_cfs_param_store(struct config_item *item, unsigned int n,
				   const char *page, size_t count)
{
	struct ete_cfs_dir *d = to_ete_cfs_dir(item);
	int ret;

	mutex_lock(&d->prof->lock);
	if (d->prof->sess)
		ret = -EBUSY;
	else
		ret = ete_cfs_param_set(d->prof, &ete_params[n], d->idx, page);
	mutex_unlock(&d->prof->lock);
	return ret ? ret : count;
}

/*
 * configfs gives show() and store() the item, not the attribute: one pair
 * of functions per table entry, generated; ETE_PARAM_MAX of them.
 */
#define ETE_CFS_OPS(n)							\
enum { ete_cfs_idx_##n = n };						\
static ssize_t ete_cfs_show_##n(struct config_item *item, char *page)	\
{									\
	return ete_cfs_param_show(item, ete_cfs_idx_##n, page);		\
}									\
static ssize_t ete_cfs_store_##n(struct config_item *item,		\
				 const char *page, size_t count)	\
{									\
	return ete_cfs_param_store(item, ete_cfs_idx_##n, page, count);	\
}

ETE_CFS_OPS(0)
ETE_CFS_OPS(1)
ETE_CFS_OPS(2)
ETE_CFS_OPS(3)
ETE_CFS_OPS(4)
ETE_CFS_OPS(5)
ETE_CFS_OPS(6)
ETE_CFS_OPS(7)
ETE_CFS_OPS(8)
ETE_CFS_OPS(9)
ETE_CFS_OPS(10)
ETE_CFS_OPS(11)
ETE_CFS_OPS(12)
ETE_CFS_OPS(13)
ETE_CFS_OPS(14)
ETE_CFS_OPS(15)
ETE_CFS_OPS(16)
ETE_CFS_OPS(17)
ETE_CFS_OPS(18)
ETE_CFS_OPS(19)
ETE_CFS_OPS(20)
ETE_CFS_OPS(21)
ETE_CFS_OPS(22)
ETE_CFS_OPS(23)
ETE_CFS_OPS(24)
ETE_CFS_OPS(25)
ETE_CFS_OPS(26)
ETE_CFS_OPS(27)
ETE_CFS_OPS(28)
ETE_CFS_OPS(29)
ETE_CFS_OPS(30)
ETE_CFS_OPS(31)
ETE_CFS_OPS(32)
ETE_CFS_OPS(33)
ETE_CFS_OPS(34)
ETE_CFS_OPS(35)
ETE_CFS_OPS(36)
ETE_CFS_OPS(37)
ETE_CFS_OPS(38)
ETE_CFS_OPS(39)
ETE_CFS_OPS(40)
ETE_CFS_OPS(41)
ETE_CFS_OPS(42)
ETE_CFS_OPS(43)
ETE_CFS_OPS(44)
ETE_CFS_OPS(45)
ETE_CFS_OPS(46)
ETE_CFS_OPS(47)
ETE_CFS_OPS(48)
ETE_CFS_OPS(49)
ETE_CFS_OPS(50)
ETE_CFS_OPS(51)
ETE_CFS_OPS(52)
ETE_CFS_OPS(53)
ETE_CFS_OPS(54)
ETE_CFS_OPS(55)
ETE_CFS_OPS(56)
ETE_CFS_OPS(57)
ETE_CFS_OPS(58)
ETE_CFS_OPS(59)
ETE_CFS_OPS(60)
ETE_CFS_OPS(61)
ETE_CFS_OPS(62)
ETE_CFS_OPS(63)
ETE_CFS_OPS(64)
ETE_CFS_OPS(65)
ETE_CFS_OPS(66)
ETE_CFS_OPS(67)
ETE_CFS_OPS(68)
ETE_CFS_OPS(69)
ETE_CFS_OPS(70)
ETE_CFS_OPS(71)
ETE_CFS_OPS(72)
ETE_CFS_OPS(73)
ETE_CFS_OPS(74)
ETE_CFS_OPS(75)
ETE_CFS_OPS(76)
ETE_CFS_OPS(77)
ETE_CFS_OPS(78)
ETE_CFS_OPS(79)
ETE_CFS_OPS(80)
ETE_CFS_OPS(81)
ETE_CFS_OPS(82)
ETE_CFS_OPS(83)
ETE_CFS_OPS(84)
ETE_CFS_OPS(85)
ETE_CFS_OPS(86)
ETE_CFS_OPS(87)
ETE_CFS_OPS(88)
ETE_CFS_OPS(89)
ETE_CFS_OPS(90)
ETE_CFS_OPS(91)
ETE_CFS_OPS(92)
ETE_CFS_OPS(93)
ETE_CFS_OPS(94)
ETE_CFS_OPS(95)

struct ete_cfs_ops {
	ssize_t (*show)(struct config_item *item, char *page);
	ssize_t (*store)(struct config_item *item, const char *page,
			 size_t count);
};

#define ETE_CFS_OP(n)	{ ete_cfs_show_##n, ete_cfs_store_##n }

/* Indexed by table index */
static const struct ete_cfs_ops ete_cfs_ops[ETE_PARAM_MAX] = {
	ETE_CFS_OP(0), ETE_CFS_OP(1), ETE_CFS_OP(2), ETE_CFS_OP(3),
	ETE_CFS_OP(4), ETE_CFS_OP(5), ETE_CFS_OP(6), ETE_CFS_OP(7),
	ETE_CFS_OP(8), ETE_CFS_OP(9), ETE_CFS_OP(10), ETE_CFS_OP(11),
	ETE_CFS_OP(12), ETE_CFS_OP(13), ETE_CFS_OP(14), ETE_CFS_OP(15),
	ETE_CFS_OP(16), ETE_CFS_OP(17), ETE_CFS_OP(18), ETE_CFS_OP(19),
	ETE_CFS_OP(20), ETE_CFS_OP(21), ETE_CFS_OP(22), ETE_CFS_OP(23),
	ETE_CFS_OP(24), ETE_CFS_OP(25), ETE_CFS_OP(26), ETE_CFS_OP(27),
	ETE_CFS_OP(28), ETE_CFS_OP(29), ETE_CFS_OP(30), ETE_CFS_OP(31),
	ETE_CFS_OP(32), ETE_CFS_OP(33), ETE_CFS_OP(34), ETE_CFS_OP(35),
	ETE_CFS_OP(36), ETE_CFS_OP(37), ETE_CFS_OP(38), ETE_CFS_OP(39),
	ETE_CFS_OP(40), ETE_CFS_OP(41), ETE_CFS_OP(42), ETE_CFS_OP(43),
	ETE_CFS_OP(44), ETE_CFS_OP(45), ETE_CFS_OP(46), ETE_CFS_OP(47),
	ETE_CFS_OP(48), ETE_CFS_OP(49), ETE_CFS_OP(50), ETE_CFS_OP(51),
	ETE_CFS_OP(52), ETE_CFS_OP(53), ETE_CFS_OP(54), ETE_CFS_OP(55),
	ETE_CFS_OP(56), ETE_CFS_OP(57), ETE_CFS_OP(58), ETE_CFS_OP(59),
	ETE_CFS_OP(60), ETE_CFS_OP(61), ETE_CFS_OP(62), ETE_CFS_OP(63),
	ETE_CFS_OP(64), ETE_CFS_OP(65), ETE_CFS_OP(66), ETE_CFS_OP(67),
	ETE_CFS_OP(68), ETE_CFS_OP(69), ETE_CFS_OP(70), ETE_CFS_OP(71),
	ETE_CFS_OP(72), ETE_CFS_OP(73), ETE_CFS_OP(74), ETE_CFS_OP(75),
	ETE_CFS_OP(76), ETE_CFS_OP(77), ETE_CFS_OP(78), ETE_CFS_OP(79),
	ETE_CFS_OP(80), ETE_CFS_OP(81), ETE_CFS_OP(82), ETE_CFS_OP(83),
	ETE_CFS_OP(84), ETE_CFS_OP(85), ETE_CFS_OP(86), ETE_CFS_OP(87),
	ETE_CFS_OP(88), ETE_CFS_OP(89), ETE_CFS_OP(90), ETE_CFS_OP(91),
	ETE_CFS_OP(92), ETE_CFS_OP(93), ETE_CFS_OP(94), ETE_CFS_OP(95),
};

/* One file per table entry, indexed like ete_params[] */
struct configfs_attribute ete_cfs_param_attrs[ETE_PARAM_MAX];

/**
 * ete_cfs_param_attrs_init() - fill ete_cfs_param_attrs[] from the table
 *
 * Context: module init.
 */
void ete_cfs_param_attrs_init(void)
{
	unsigned int i;

	for (i = 0; i < ete_num_params && i < ETE_PARAM_MAX; i++) {
		struct configfs_attribute *a = &ete_cfs_param_attrs[i];

		a->ca_name = ete_params[i].name;
		a->ca_owner = THIS_MODULE;
		/* a secret is opened by root alone: configfs shows no opener */
		a->ca_mode = ete_param_secret(&ete_params[i]) ? 0600 : 0644;
		a->show = ete_cfs_ops[i].show;
		a->store = ete_cfs_ops[i].store;
	}
}

/* ------------------------------------------------------------------------
 * trbe/: the sink settings
 */

static const char ete_cfs_default[] = "default";

static bool ete_cfs_is_default(const char *page)
{
	return sysfs_streq(page, ete_cfs_default);
}

static struct ete_profile *ete_cfs_trbe_profile(struct config_item *item)
{
	return container_of(to_config_group(item), struct ete_profile, trbe);
}

/* Set one sink setting, unless the profile is active */
static ssize_t ete_cfs_sink_set(struct config_item *item, s64 *field,
				s64 val, size_t count)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);
	ssize_t ret = count;

	mutex_lock(&prof->lock);
	if (prof->sess)
		ret = -EBUSY;
	else
		*field = val;
	mutex_unlock(&prof->lock);
	return ret;
}

static ssize_t ete_cfs_sink_show(struct config_item *item, const s64 *field,
				 const char * const *names, char *page)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);
	s64 val;

	mutex_lock(&prof->lock);
	val = *field;
	mutex_unlock(&prof->lock);
	if (val == ETE_SINK_UNSET)
		return sysfs_emit(page, "%s\n", ete_cfs_default);
	if (names)
		return sysfs_emit(page, "%s\n", names[val]);
	return sysfs_emit(page, "%lld\n", val);
}

/* A mode by name, or "default" */
static ssize_t ete_cfs_mode_store(struct config_item *item, s64 *field,
				  const char * const *names, const char *page,
				  size_t count)
{
	int mode = ete_cfs_is_default(page) ? ETE_SINK_UNSET :
		   ete_param_match(names, ETE_SINK_MODE_NAMES, page);

	if (mode < ETE_SINK_UNSET)
		return mode;
	return ete_cfs_sink_set(item, field, mode, count);
}

static ssize_t ete_cfs_buffer_size_show(struct config_item *item, char *page)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);

	return sysfs_emit(page, "%llu\n", READ_ONCE(prof->sink.buffer_size));
}

/* 0 for any size, else a power of two; the sink checks its own bounds */
static ssize_t ete_cfs_buffer_size_store(struct config_item *item,
					 const char *page, size_t count)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);
	u64 val;
	int ret;

	ret = ete_param_parse(page, &val);
	if (ret)
		return ret;
	if (val && !is_power_of_2(val))
		return -EINVAL;
	mutex_lock(&prof->lock);
	if (prof->sess)
		ret = -EBUSY;
	else
		prof->sink.buffer_size = val;
	mutex_unlock(&prof->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ete_cfs_, buffer_size);

static ssize_t ete_cfs_fill_mode_show(struct config_item *item, char *page)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);

	return ete_cfs_sink_show(item, &prof->sink.fill_mode,
				 ete_sink_fill_mode_names, page);
}

static ssize_t ete_cfs_fill_mode_store(struct config_item *item,
				       const char *page, size_t count)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);

	return ete_cfs_mode_store(item, &prof->sink.fill_mode,
				  ete_sink_fill_mode_names, page, count);
}
CONFIGFS_ATTR(ete_cfs_, fill_mode);

static ssize_t ete_cfs_trigger_mode_show(struct config_item *item, char *page)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);

	return ete_cfs_sink_show(item, &prof->sink.trigger_mode,
				 ete_sink_trig_mode_names, page);
}

static ssize_t ete_cfs_trigger_mode_store(struct config_item *item,
					  const char *page, size_t count)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);

	return ete_cfs_mode_store(item, &prof->sink.trigger_mode,
				  ete_sink_trig_mode_names, page, count);
}
CONFIGFS_ATTR(ete_cfs_, trigger_mode);

static ssize_t ete_cfs_trigger_count_show(struct config_item *item,
					  char *page)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);

	return ete_cfs_sink_show(item, &prof->sink.trigger_count, NULL, page);
}

/* Bytes after the trigger (TRBTRG, 32 bits), or "default" */
static ssize_t ete_cfs_trigger_count_store(struct config_item *item,
					   const char *page, size_t count)
{
	struct ete_profile *prof = ete_cfs_trbe_profile(item);
	u64 val;
	int ret;

	if (ete_cfs_is_default(page))
		return ete_cfs_sink_set(item, &prof->sink.trigger_count,
					ETE_SINK_UNSET, count);
	ret = ete_param_parse(page, &val);
	if (ret)
		return ret;
	if (val > U32_MAX)
		return -ERANGE;
	return ete_cfs_sink_set(item, &prof->sink.trigger_count, val, count);
}
CONFIGFS_ATTR(ete_cfs_, trigger_count);

static struct configfs_attribute *ete_cfs_trbe_attrs[] = {
	&ete_cfs_attr_buffer_size,
	&ete_cfs_attr_fill_mode,
	&ete_cfs_attr_trigger_mode,
	&ete_cfs_attr_trigger_count,
	NULL,
};

const struct config_item_type ete_cfs_trbe_type = {
	.ct_attrs = ete_cfs_trbe_attrs,
	.ct_owner = THIS_MODULE,
};

