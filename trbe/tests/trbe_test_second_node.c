// SPDX-License-Identifier: GPL-2.0
/*
 * A second TRBE device whose interrupt is the devicetree TRBE node's own
 * PPI: every CPU the first node serves again.  trbe.ko must refuse it
 * (-EBUSY, one message naming the CPUs) and leave the first node's
 * devices and sessions alone.  The device is a platform device named
 * "trbe", which trbe.ko's driver matches by name, as it does the device
 * acpi.c makes; removed when this module is unloaded.
 */

#include <linux/err.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/platform_device.h>

static struct platform_device *second;

static int __init trbe_test_second_init(void)
{
	struct device_node *np;
	struct resource res = { .flags = IORESOURCE_IRQ };
	int virq;

	np = of_find_compatible_node(NULL, NULL, "arm,trace-buffer-extension");
	if (!np)
		return -ENODEV;
	virq = irq_of_parse_and_map(np, 0);
	of_node_put(np);
	if (!virq)
		return -ENODEV;
	res.start = virq;
	res.end = virq;
	second = platform_device_register_simple("trbe", PLATFORM_DEVID_AUTO,
						 &res, 1);
	return PTR_ERR_OR_ZERO(second);
}
module_init(trbe_test_second_init);

static void __exit trbe_test_second_exit(void)
{
	platform_device_unregister(second);
}
module_exit(trbe_test_second_exit);

MODULE_DESCRIPTION("A second TRBE device on the first one's PPI (test)");
MODULE_LICENSE("GPL");
