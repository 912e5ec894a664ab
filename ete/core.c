// SPDX-License-Identifier: GPL-2.0
/*
 * ETE trace unit driver: module entry.
 *
 * Layers, top down: sysfs.c and configfs.c (the user ABIs, the only
 * places strings are parsed, through param.c); config.c (struct
 * ete_config, validation, the pure config-to-register-image step);
 * session.c (the one owner of CPUs, and the sinks); unit.c (presence, the
 * programming state machine); access*.c (system instructions, CoreSight
 * MMIO, the test double seam); discover.c, of.c and acpi.c (discovery);
 * pm.c (CPU power-down, hotplug and suspend).
 */

#include <linux/module.h>

#include <ete/core.h>

static int __init ete_init(void)
{
	int ret;

	ret = ete_sysfs_init();
	if (ret)
		return ret;
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
	return ret;
}
module_init(ete_init);

static void __exit ete_exit(void)
{
	ete_discover_exit();
	ete_pm_exit();
	ete_configfs_exit();
	ete_sysfs_exit();
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
