// SPDX-License-Identifier: GPL-2.0
/*
 * Holds one CPUHP_AP_ONLINE_DYN slot for the tests (issue 32, F2).
 *
 * Loaded before ete.ko (manifest.d/10-drivers.list), it takes a dynamic
 * hotplug slot below ete.ko's.  A test that unloads trbe.ko and this
 * module and loads trbe.ko again puts trbe.ko's state in that slot, below
 * ete.ko's: CPU hotplug then runs ete.ko's offline callback before
 * trbe.ko's, and trbe.ko's online callback before ete.ko's (dynamic states
 * start up in slot order and tear down in reverse).  Loading this module
 * again, then trbe.ko, gives the rig's usual order back.  Its callbacks do
 * nothing.
 */

#include <linux/cpuhotplug.h>
#include <linux/module.h>

static enum cpuhp_state slot;

static int hp_slot_cb(unsigned int cpu)
{
	return 0;
}

static int __init hp_slot_init(void)
{
	int ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					    "test/trbe_hp_slot:held",
					    hp_slot_cb, hp_slot_cb);

	if (ret < 0)
		return ret;
	slot = ret;
	return 0;
}
module_init(hp_slot_init);

static void __exit hp_slot_exit(void)
{
	cpuhp_remove_state_nocalls(slot);
}
module_exit(hp_slot_exit);

MODULE_DESCRIPTION("Holds a dynamic CPU hotplug slot for the TRBE tests");
MODULE_LICENSE("GPL");
