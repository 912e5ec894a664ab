// SPDX-License-Identifier: GPL-2.0
/*
 * The configfs ABI: named profiles, /sys/kernel/config/ete/profiles/<name>/,
 * each a trace configuration applied to a set of CPUs at once.
 *
 * A profile has the files of a unit's sysfs directory, parsed and checked
 * by the same code (param.c), in the same resource directories (addr<i>/,
 * cntr<i>/, ..., seq/), as many as the architecture allows; trbe/ holds
 * the settings asked of each CPU's trace buffer; cpus is a cpulist and
 * active starts and stops the profile.  A profile stores only the values
 * written (an overlay, &struct ete_param_overlay): when it starts, each
 * selected unit gets its own defaults with the overlay laid over them and
 * checked against its capabilities.
 *
 * Starting is one session (session.c) over every selected CPU: all or
 * none.  An active profile is read-only and cannot be removed (-EBUSY; the
 * directory is pinned with configfs_depend_item()).  A CPU that left the
 * session (offline, or its sink failed) is started again when it comes
 * online.
 *
 * Locking: ete_cfs_lock (the profile list) > profile->lock > ete_mutex >
 * the CPU hotplug lock.  The hotplug callback takes none of them: it
 * queues ete_cfs_rejoin_work.
 */

#include <linux/configfs.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <ete/core.h>
#include <ete/param.h>

#define ETE_CFS_WHO_LEN		(CONFIGFS_ITEM_NAME_LEN + 16)
/* Resource directories of a profile: the sum of ete_param_group_max() */
#define ETE_CFS_MAX_RES		96

struct ete_profile;

/**
 * struct ete_cfs_dir - a directory of a profile holding parameters
 * @group: its configfs group
 * @prof: the profile
 * @pg: &enum ete_param_group of the parameters it holds
 * @idx: the instance of the group
 */
struct ete_cfs_dir {
	struct config_group group;
	struct ete_profile *prof;
	u8 pg;
	u8 idx;
};

/**
 * struct ete_profile - one profile directory
 * @root: the profile's own directory (unit-wide parameters, cpus, active)
 * @res: the resource directories (addr0/...), default groups of @root
 * @trbe: trbe/, the sink settings
 * @node: in ete_cfs_profiles
 * @lock: serializes every file of the profile
 * @ov: the values written
 * @cpus: the CPUs selected
 * @sink: the sink settings
 * @sess: the session while active, else NULL
 * @who: the owner name units show in "status": "configfs:<name>"
 * @field: the field a unit refused at the last activation
 */
struct ete_profile {
	struct ete_cfs_dir root;
	struct ete_cfs_dir res[ETE_CFS_MAX_RES];
	struct config_group trbe;
	struct list_head node;
	struct mutex lock;		/* the profile's files */
	struct ete_param_overlay ov;
	cpumask_var_t cpus;
	struct ete_sink_settings sink;
	struct ete_session *sess;
	char who[ETE_CFS_WHO_LEN];
	char field[ETE_PARAM_NAME_LEN];
};

static DEFINE_MUTEX(ete_cfs_lock);
static LIST_HEAD(ete_cfs_profiles);
static struct configfs_subsystem ete_cfs_subsys;
static enum cpuhp_state ete_cfs_hp_state;

static struct ete_cfs_dir *to_ete_cfs_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct ete_cfs_dir, group);
}

static struct ete_profile *to_ete_profile(struct config_item *item)
{
	return to_ete_cfs_dir(item)->prof;
}

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

static ssize_t ete_cfs_param_show(struct config_item *item, unsigned int n,
				  char *page)
{
	struct ete_cfs_dir *d = to_ete_cfs_dir(item);
	int len;

	mutex_lock(&d->prof->lock);
	len = ete_param_format(&d->prof->ov.cfg, &ete_params[n], d->idx, page,
			       PAGE_SIZE);
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

/* The parameter files of each group; filled by ete_configfs_init() */
static struct configfs_attribute ete_cfs_param_attrs[ETE_PARAM_MAX];

/* ------------------------------------------------------------------------
 * Activation: one session over the selected CPUs, all or none
 */

/* &ete_session_args.config: the unit's defaults under the overlay */
static int ete_cfs_config(void *data, int cpu, const struct ete_caps *caps,
			  struct ete_config *cfg, const char **why)
{
	struct ete_profile *prof = data;
	const struct ete_param *bad;
	unsigned int idx;
	int ret;

	ete_config_defaults_cpu(cfg, caps, cpu);
	ret = ete_param_overlay_apply(&prof->ov, caps, cfg, &bad, &idx);
	if (ret) {
		ete_param_name(bad, idx, prof->field, sizeof(prof->field));
		*why = prof->field;
	}
	return ret;
}

static void ete_cfs_report(struct ete_profile *prof,
			   const struct ete_session_args *args, int err)
{
	const char *name = config_item_name(&prof->root.group.cg_item);

	if (args->failed_cpu < 0)
		pr_warn_ratelimited("ete: profile %s not started: %pe\n", name,
				    ERR_PTR(err));
	else if (args->failed_sink)
		pr_warn_ratelimited("ete: profile %s not started: cpu%d refused trbe/%s: %s (%pe)\n",
				    name, args->failed_cpu,
				    args->failed_field ?: "(any setting)",
				    args->failed_why ?: "", ERR_PTR(err));
	else if (args->failed_field)
		pr_warn_ratelimited("ete: profile %s not started: cpu%d refused %s: %s (%pe)\n",
				    name, args->failed_cpu, args->failed_field,
				    args->failed_why ?: "", ERR_PTR(err));
	else
		pr_warn_ratelimited("ete: profile %s not started: cpu%d: %s (%pe)\n",
				    name, args->failed_cpu,
				    args->failed_why ?: "refused", ERR_PTR(err));
}

/* Under prof->lock */
static int ete_cfs_activate(struct ete_profile *prof)
{
	struct ete_session_args args = {
		.who = prof->who,
		.config = ete_cfs_config,
		.sink = &prof->sink,
		.data = prof,
	};
	int ret;

	if (prof->sess)
		return 0;
	/*
	 * An active profile's directory cannot be removed.  The _unlocked
	 * variant: called from our own subsystem's store(), whose frag_sem
	 * keeps the item alive; a racing rmdir either sees the dependency
	 * (EBUSY) or has tagged the item dropping (ENOENT here).
	 */
	ret = configfs_depend_item_unlocked(&ete_cfs_subsys,
					    &prof->root.group.cg_item);
	if (ret)
		return ret;
	ret = ete_session_start_args(prof->cpus, &args, &prof->sess);
	if (ret) {
		configfs_undepend_item(&prof->root.group.cg_item);
		ete_cfs_report(prof, &args, ret);
	}
	return ret;
}

/* Under prof->lock */
static void ete_cfs_deactivate(struct ete_profile *prof)
{
	if (!prof->sess)
		return;
	ete_session_stop(prof->sess);
	prof->sess = NULL;
	configfs_undepend_item(&prof->root.group.cg_item);
}

static ssize_t ete_cfs_active_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%d\n", !!READ_ONCE(to_ete_profile(item)->sess));
}

static ssize_t ete_cfs_active_store(struct config_item *item,
				    const char *page, size_t count)
{
	struct ete_profile *prof = to_ete_profile(item);
	u64 val;
	int ret;

	ret = ete_param_parse(page, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -ERANGE;
	mutex_lock(&prof->lock);
	if (val)
		ret = ete_cfs_activate(prof);
	else
		ete_cfs_deactivate(prof);
	mutex_unlock(&prof->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ete_cfs_, active);

static ssize_t ete_cfs_cpus_show(struct config_item *item, char *page)
{
	struct ete_profile *prof = to_ete_profile(item);
	int len;

	mutex_lock(&prof->lock);
	len = sysfs_emit(page, "%*pbl\n", cpumask_pr_args(prof->cpus));
	mutex_unlock(&prof->lock);
	return len;
}

static ssize_t ete_cfs_cpus_store(struct config_item *item, const char *page,
				  size_t count)
{
	struct ete_profile *prof = to_ete_profile(item);
	cpumask_var_t cpus;
	int ret;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(page, cpus);
	if (!ret && !cpumask_subset(cpus, cpu_possible_mask))
		ret = -ERANGE;
	mutex_lock(&prof->lock);
	if (!ret && prof->sess)
		ret = -EBUSY;
	if (!ret)
		cpumask_copy(prof->cpus, cpus);
	mutex_unlock(&prof->lock);
	free_cpumask_var(cpus);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ete_cfs_, cpus);

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

static const struct config_item_type ete_cfs_trbe_type = {
	.ct_attrs = ete_cfs_trbe_attrs,
	.ct_owner = THIS_MODULE,
};

/* ------------------------------------------------------------------------
 * Profiles: mkdir and rmdir
 */

/* Attributes of each parameter group; the unit's group adds cpus, active */
static struct configfs_attribute **ete_cfs_group_attrs[ETE_PG_NR];
static struct config_item_type ete_cfs_dir_types[ETE_PG_NR];

static void ete_cfs_profile_release(struct config_item *item)
{
	struct ete_profile *prof = to_ete_profile(item);

	free_cpumask_var(prof->cpus);
	kfree(prof);
}

static struct configfs_item_operations ete_cfs_profile_item_ops = {
	.release = ete_cfs_profile_release,
};

static void ete_cfs_dir_init(struct ete_profile *prof, struct ete_cfs_dir *d,
			     enum ete_param_group pg, unsigned int idx,
			     const char *name)
{
	d->prof = prof;
	d->pg = pg;
	d->idx = idx;
	config_group_init_type_name(&d->group, name, &ete_cfs_dir_types[pg]);
}

/* The resource directories and trbe/, default groups of the profile */
static void ete_cfs_add_dirs(struct ete_profile *prof)
{
	char name[ETE_PARAM_NAME_LEN];
	unsigned int idx, n = 0;
	enum ete_param_group pg;

	for (pg = ETE_PG_UNIT + 1; pg < ETE_PG_NR; pg++) {
		for (idx = ete_param_group_first(pg);
		     idx < ete_param_group_max(pg); idx++) {
			if (WARN_ON_ONCE(n >= ETE_CFS_MAX_RES))
				return;
			ete_param_group_dir(pg, idx, name, sizeof(name));
			ete_cfs_dir_init(prof, &prof->res[n], pg, idx, name);
			configfs_add_default_group(&prof->res[n].group,
						   &prof->root.group);
			n++;
		}
	}
	config_group_init_type_name(&prof->trbe, "trbe", &ete_cfs_trbe_type);
	configfs_add_default_group(&prof->trbe, &prof->root.group);
}

/* What a new profile shows before anything is written: the first unit's */
static void ete_cfs_defaults(struct ete_profile *prof)
{
	static const struct ete_caps none;
	const struct ete_caps *caps = &none;
	int cpu;

	mutex_lock(&ete_mutex);
	for_each_possible_cpu(cpu) {
		if (ete_unit_of(cpu)) {
			caps = &ete_unit_of(cpu)->caps;
			break;
		}
	}
	ete_config_defaults(&prof->ov.cfg, caps);
	mutex_unlock(&ete_mutex);
}

static struct config_group *ete_cfs_make_profile(struct config_group *group,
						 const char *name)
{
	struct ete_profile *prof;

	prof = kzalloc(sizeof(*prof), GFP_KERNEL);
	if (!prof)
		return ERR_PTR(-ENOMEM);
	if (!zalloc_cpumask_var(&prof->cpus, GFP_KERNEL)) {
		kfree(prof);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&prof->lock);
	snprintf(prof->who, sizeof(prof->who), "configfs:%s", name);
	prof->sink.fill_mode = ETE_SINK_UNSET;
	prof->sink.trigger_mode = ETE_SINK_UNSET;
	prof->sink.trigger_count = ETE_SINK_UNSET;
	ete_cfs_defaults(prof);
	ete_cfs_dir_init(prof, &prof->root, ETE_PG_UNIT, 0, name);
	ete_cfs_add_dirs(prof);

	mutex_lock(&ete_cfs_lock);
	list_add_tail(&prof->node, &ete_cfs_profiles);
	mutex_unlock(&ete_cfs_lock);
	return &prof->root.group;
}

/* Not while active: configfs refuses the rmdir of a depended-on item */
static void ete_cfs_drop_profile(struct config_group *group,
				 struct config_item *item)
{
	struct ete_profile *prof = to_ete_profile(item);

	mutex_lock(&ete_cfs_lock);
	list_del(&prof->node);
	mutex_unlock(&ete_cfs_lock);
	config_item_put(item);
}

static struct configfs_group_operations ete_cfs_profiles_ops = {
	.make_group = ete_cfs_make_profile,
	.drop_item = ete_cfs_drop_profile,
};

static const struct config_item_type ete_cfs_profiles_type = {
	.ct_group_ops = &ete_cfs_profiles_ops,
	.ct_owner = THIS_MODULE,
};

static struct config_group ete_cfs_profiles_group;

static const struct config_item_type ete_cfs_subsys_type = {
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem ete_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = "ete",
			.ci_type = &ete_cfs_subsys_type,
		},
	},
};

/* ------------------------------------------------------------------------
 * CPU hotplug: a CPU of an active profile that comes back rejoins it
 */

static void ete_cfs_rejoin(struct ete_profile *prof)
{
	const char *name = config_item_name(&prof->root.group.cg_item);
	int cpu, ret;

	for_each_cpu(cpu, prof->cpus) {
		if (!cpu_online(cpu) || ete_session_has_cpu(prof->sess, cpu))
			continue;
		ret = ete_session_add_cpu(prof->sess, cpu);
		if (ret)
			pr_warn_ratelimited("ete: profile %s: cpu%d did not rejoin: %pe\n",
					    name, cpu, ERR_PTR(ret));
		else
			pr_info("ete: profile %s: cpu%d rejoined\n", name, cpu);
	}
}

static void ete_cfs_rejoin_work_fn(struct work_struct *work)
{
	struct ete_profile *prof;

	mutex_lock(&ete_cfs_lock);
	list_for_each_entry(prof, &ete_cfs_profiles, node) {
		mutex_lock(&prof->lock);
		if (prof->sess)
			ete_cfs_rejoin(prof);
		mutex_unlock(&prof->lock);
	}
	mutex_unlock(&ete_cfs_lock);
}

static DECLARE_WORK(ete_cfs_rejoin_work, ete_cfs_rejoin_work_fn);

/*
 * Runs in the hotplug thread with the hotplug lock held, which the session
 * layer takes after ete_mutex: so only queue the work.
 */
static int ete_cfs_cpu_online(unsigned int cpu)
{
	schedule_work(&ete_cfs_rejoin_work);
	return 0;
}

/* ------------------------------------------------------------------------
 * Init and exit
 */

/* The attribute lists of each group kind, from the parameter table */
static int ete_cfs_build_attrs(void)
{
	static struct configfs_attribute *unit_extra[] = {
		&ete_cfs_attr_cpus, &ete_cfs_attr_active,
	};
	unsigned int i, n[ETE_PG_NR] = { [ETE_PG_UNIT] = 2 };
	enum ete_param_group pg;

	if (WARN_ON(ete_num_params > ETE_PARAM_MAX))
		return -EINVAL;
	for (i = 0; i < ete_num_params; i++)
		n[ete_params[i].group]++;
	for (pg = 0; pg < ETE_PG_NR; pg++) {
		ete_cfs_group_attrs[pg] = kcalloc(n[pg] + 1, sizeof(void *),
						  GFP_KERNEL);
		if (!ete_cfs_group_attrs[pg])
			return -ENOMEM;
		ete_cfs_dir_types[pg].ct_attrs = ete_cfs_group_attrs[pg];
		ete_cfs_dir_types[pg].ct_owner = THIS_MODULE;
		n[pg] = 0;
	}
	ete_cfs_dir_types[ETE_PG_UNIT].ct_item_ops = &ete_cfs_profile_item_ops;
	ete_cfs_group_attrs[ETE_PG_UNIT][n[ETE_PG_UNIT]++] = unit_extra[0];
	ete_cfs_group_attrs[ETE_PG_UNIT][n[ETE_PG_UNIT]++] = unit_extra[1];
	for (i = 0; i < ete_num_params; i++) {
		struct configfs_attribute *a = &ete_cfs_param_attrs[i];

		pg = ete_params[i].group;
		a->ca_name = ete_params[i].name;
		a->ca_owner = THIS_MODULE;
		a->ca_mode = 0644;
		a->show = ete_cfs_ops[i].show;
		a->store = ete_cfs_ops[i].store;
		ete_cfs_group_attrs[pg][n[pg]++] = a;
	}
	return 0;
}

static void ete_cfs_free_attrs(void)
{
	enum ete_param_group pg;

	for (pg = 0; pg < ETE_PG_NR; pg++) {
		kfree(ete_cfs_group_attrs[pg]);
		ete_cfs_group_attrs[pg] = NULL;
	}
}

/**
 * ete_configfs_init() - register /sys/kernel/config/ete
 *
 * Context: module init, after the sysfs class.
 * Return: 0 or a negative errno.
 */
int ete_configfs_init(void)
{
	int ret;

	ret = ete_cfs_build_attrs();
	if (ret)
		goto free_attrs;
	config_group_init(&ete_cfs_subsys.su_group);
	mutex_init(&ete_cfs_subsys.su_mutex);
	config_group_init_type_name(&ete_cfs_profiles_group, "profiles",
				    &ete_cfs_profiles_type);
	configfs_add_default_group(&ete_cfs_profiles_group,
				   &ete_cfs_subsys.su_group);
	ret = configfs_register_subsystem(&ete_cfs_subsys);
	if (ret)
		goto free_attrs;
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"hwtracing/ete/configfs:online",
					ete_cfs_cpu_online, NULL);
	if (ret < 0)
		goto unregister_subsys;
	ete_cfs_hp_state = ret;
	return 0;

unregister_subsys:
	configfs_unregister_subsystem(&ete_cfs_subsys);
free_attrs:
	ete_cfs_free_attrs();
	return ret;
}

/**
 * ete_configfs_exit() - unregister /sys/kernel/config/ete
 *
 * No profile exists: each pins the module.
 *
 * Context: module exit.
 */
void ete_configfs_exit(void)
{
	cpuhp_remove_state_nocalls(ete_cfs_hp_state);
	cancel_work_sync(&ete_cfs_rejoin_work);
	configfs_unregister_subsystem(&ete_cfs_subsys);
	ete_cfs_free_attrs();
}
