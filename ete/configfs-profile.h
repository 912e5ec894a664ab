/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of ete.ko's configfs profiles, shared by configfs.c (the
 * profiles, activation, hotplug) and configfs-files.c (the files of a
 * profile).
 */
#ifndef _ETE_CONFIGFS_PROFILE_H
#define _ETE_CONFIGFS_PROFILE_H

#include <linux/configfs.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include <ete/param.h>
#include <ete/sink.h>

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

static inline struct ete_cfs_dir *to_ete_cfs_dir(struct config_item *item)
{
	return container_of(to_config_group(item), struct ete_cfs_dir, group);
}

static inline struct ete_profile *to_ete_profile(struct config_item *item)
{
	return to_ete_cfs_dir(item)->prof;
}

extern struct configfs_attribute ete_cfs_param_attrs[ETE_PARAM_MAX];
extern const struct config_item_type ete_cfs_trbe_type;

void ete_cfs_param_attrs_init(void);

#endif /* _ETE_CONFIGFS_PROFILE_H */
