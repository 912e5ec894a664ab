// SPDX-License-Identifier: GPL-2.0
/*
 * ETE trace unit driver: module entry and devicetree binding.
 *
 * Binds the per-CPU "arm,embedded-trace-extension" nodes (upstream binding:
 * no reg, a "cpu" phandle naming the PE whose trace unit is reached through
 * system instructions).
 */

#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>

/* Resolve the node's "cpu" phandle to a logical CPU number. */
static int ete_of_cpu(struct device *dev)
{
	struct device_node *cpu_node;
	int cpu;

	cpu_node = of_parse_phandle(dev->of_node, "cpu", 0);
	if (!cpu_node)
		return -EINVAL;
	cpu = of_cpu_node_to_id(cpu_node);
	of_node_put(cpu_node);
	return cpu;
}

static int ete_probe(struct platform_device *pdev)
{
	int cpu = ete_of_cpu(&pdev->dev);

	if (cpu < 0) {
		dev_err(&pdev->dev, "no valid \"cpu\" phandle\n");
		return -EINVAL;
	}
	dev_info(&pdev->dev, "trace unit of cpu%d\n", cpu);
	return 0;
}

static const struct of_device_id ete_of_match[] = {
	{ .compatible = "arm,embedded-trace-extension" },
	{ }
};
MODULE_DEVICE_TABLE(of, ete_of_match);

static struct platform_driver ete_driver = {
	.probe = ete_probe,
	.driver = {
		.name = "ete",
		.of_match_table = ete_of_match,
		.suppress_bind_attrs = true,
	},
};
module_platform_driver(ete_driver);

MODULE_DESCRIPTION("Arm Embedded Trace Extension (ETE) trace unit driver");
MODULE_LICENSE("GPL");
