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

#include "configfs-profile.h"

static DEFINE_MUTEX(ete_cfs_lock);
static LIST_HEAD(ete_cfs_profiles);
static struct configfs_subsystem ete_cfs_subsys;
static enum cpuhp_state ete_cfs_hp_state;

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
	bool on;
	int ret;

	ret = ete_param_parse_bool(page, &on);
	if (ret)
		return ret;
	mutex_lock(&prof->lock);
	if (on)
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
	/* A number too large for its type: out of range, as the ABI says */
	if (ret == -EOVERFLOW)
		ret = -ERANGE;
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
	ete_cfs_param_attrs_init();
	for (i = 0; i < ete_num_params; i++) {
		pg = ete_params[i].group;
		ete_cfs_group_attrs[pg][n[pg]++] = &ete_cfs_param_attrs[i];
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
