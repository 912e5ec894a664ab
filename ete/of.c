// SPDX-License-Identifier: GPL-2.0
/*
 * Devicetree discovery: per-CPU "arm,embedded-trace-extension" nodes (the
 * upstream binding: no reg, a "cpu" phandle; the unit is reached through
 * system instructions on that CPU), and CoreSight "arm,coresight-etm4x"
 * AMBA nodes with a reg and a "cpu" phandle (the external-debug view).
 * discover.c binds them; this file only knows the devicetree.
 */

#include <linux/amba/bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>

#include <ete/core.h>

const struct of_device_id ete_of_match[] = {
	{ .compatible = "arm,embedded-trace-extension" },
	{ }
};
MODULE_DEVICE_TABLE(of, ete_of_match);

static int ete_of_node_cpu(struct device_node *np)
{
	struct device_node *cpu_node;
	int cpu;

	cpu_node = of_parse_phandle(np, "cpu", 0);
	if (!cpu_node)
		return -EINVAL;
	cpu = of_cpu_node_to_id(cpu_node);
	of_node_put(cpu_node);
	return cpu;
}

/**
 * ete_of_cpu() - the CPU of a devicetree trace unit
 * @dev: a device with a devicetree node
 *
 * Context: process context.
 * Return: the logical CPU of the node's "cpu" phandle, or a negative errno.
 */
int ete_of_cpu(struct device *dev)
{
	return ete_of_node_cpu(dev->of_node);
}

/**
 * ete_of_report_holders() - say which CPUs' nodes another driver holds
 *
 * Looks at the "arm,embedded-trace-extension" platform devices and the
 * "arm,coresight-etm4x" AMBA devices.
 *
 * Context: module init, after the drivers are registered.
 */
void ete_of_report_holders(void)
{
	struct platform_device *pdev;
	struct device_node *np;
	struct device *dev;

	for_each_matching_node(np, ete_of_match) {
		pdev = of_find_device_by_node(np);
		if (!pdev)
			continue;
		ete_discover_report_holder(&pdev->dev, ete_of_node_cpu(np));
		put_device(&pdev->dev);
	}
	for_each_compatible_node(np, NULL, "arm,coresight-etm4x") {
		dev = bus_find_device_by_of_node(&amba_bustype, np);
		if (!dev)
			continue;
		ete_discover_report_holder(dev, ete_of_node_cpu(np));
		put_device(dev);
	}
}
