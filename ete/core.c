// SPDX-License-Identifier: GPL-2.0
/*
 * ETE trace unit driver: module entry.
 *
 * The layers, bottom up, are in ete/layers (Documentation/design-ete.rst):
 * a file calls only its own layer and the ones below, which tell the ones
 * above things through callbacks.  This file, on top, wires those: the
 * unit hooks (the ABI's files and the sessions' error handling).
 */

#include <linux/module.h>

#include <ete/core.h>

static const struct ete_unit_hooks ete_hooks = {
	.added = ete_sysfs_add,
	.removing = ete_sysfs_remove,
	.error = ete_session_handle_error,
};

static int __init ete_init(void)
{
	int ret;

	ete_unit_set_hooks(&ete_hooks);
	ret = ete_sysfs_init();
	if (ret)
		goto clear_hooks;
	ret = ete_configfs_init();
	if (ret)
		goto exit_sysfs;
	ret = ete_pm_init();
	if (ret)
		goto exit_configfs;
	ret = ete_discover_init();
	if (ret)
		goto exit_pm;
	return 0;

exit_pm:
	ete_pm_exit();
exit_configfs:
	ete_configfs_exit();
exit_sysfs:
	ete_sysfs_exit();
clear_hooks:
	ete_unit_set_hooks(NULL);
	return ret;
}
module_init(ete_init);

static void __exit ete_exit(void)
{
	ete_discover_exit();
	ete_pm_exit();
	ete_configfs_exit();
	ete_sysfs_exit();
	ete_unit_set_hooks(NULL);
}
module_exit(ete_exit);

/*
 * trbe.ko is the sink; it loads on its own where firmware announces the
 * TRBE (a devicetree node, or the "arm,trbe" device Linux 6.6 and later
 * make of the MADT), but on ACPI with earlier kernels only the trace units
 * (ARMHC500) load a module: bring the sink along.
 */
MODULE_SOFTDEP("post: trbe");
MODULE_DESCRIPTION("Arm Embedded Trace Extension (ETE) trace unit driver");
MODULE_VERSION(ETE_VERSION);
MODULE_LICENSE("GPL");
