// SPDX-License-Identifier: GPL-2.0
/*
 * A module that makes the test rig fail on purpose.
 *
 * Loaded with fault=<kind>, it provokes one kind of kernel report so that a
 * run of the rig proves it turns that report into a failed test command:
 * warn (WARN_ON), oops (NULL dereference), kasan (heap out-of-bounds read),
 * leak (memory kmemleak reports), hang (a CPU spinning with interrupts off).
 * With fault=none (the default) it loads and does nothing.
 */

#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *fault = "none";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "none, warn, oops, kasan, leak or hang");

static int __init rig_canary_init(void)
{
	int *null_ptr = NULL;
	int index = 16;
	char *p;
	int i;

	/* Hidden from the compiler so that it emits the bad accesses. */
	OPTIMIZER_HIDE_VAR(null_ptr);
	OPTIMIZER_HIDE_VAR(index);

	if (!strcmp(fault, "warn")) {
		WARN_ON(1);
	} else if (!strcmp(fault, "oops")) {
		WRITE_ONCE(*null_ptr, 1);
	} else if (!strcmp(fault, "kasan")) {
		p = kmalloc(16, GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		pr_info("rig_canary: read past the end: %d\n",
			READ_ONCE(p[index]));
		kfree(p);
	} else if (!strcmp(fault, "leak")) {
		for (i = 0; i < 8; i++) {
			p = kmalloc(64 + i * 32, GFP_KERNEL);
			if (p)
				memset(p, 0x5a, 64);
		}
	} else if (!strcmp(fault, "hang")) {
		local_irq_disable();
		for (;;)
			cpu_relax();
	} else if (strcmp(fault, "none")) {
		return -EINVAL;
	}
	return 0;
}

static void __exit rig_canary_exit(void)
{
}

module_init(rig_canary_init);
module_exit(rig_canary_exit);
MODULE_DESCRIPTION("Test rig canary: provokes kernel reports on request");
MODULE_LICENSE("GPL");
