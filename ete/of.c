// SPDX-License-Identifier: GPL-2.0
/*
 * Devicetree discovery: per-CPU "arm,embedded-trace-extension" nodes (the
 * upstream binding: no reg, a "cpu" phandle; the unit is reached through
 * system instructions on that CPU).  ACPI discovery slots in beside this
 * file.
 *
 * The in-tree coresight-etm4x driver binds the same compatible; a node it
 * already holds is reported once at load, so the user learns why a CPU has
 * no /sys/class/ete entry (Documentation/ says how to blacklist it).
 */

#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <ete/core.h>

static const struct of_device_id ete_of_match[] = {
	{ .compatible = "arm,embedded-trace-extension" },
	{ }
};
MODULE_DEVICE_TABLE(of, ete_of_match);

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

static int ete_platform_probe(struct platform_device *pdev)
{
	struct ete_access acc;
	struct ete_unit *u;
	bool overridden;
	int cpu;

	cpu = ete_of_cpu(&pdev->dev);
	if (cpu < 0) {
		dev_err(&pdev->dev, "no valid \"cpu\" phandle\n");
		return -EINVAL;
	}
	overridden = ete_access_get_sysreg(cpu, &acc);
	u = ete_unit_create(&pdev->dev, cpu, &acc, overridden);
	if (IS_ERR(u))
		return PTR_ERR(u);
	platform_set_drvdata(pdev, u);
	return 0;
}

static int ete_platform_remove(struct platform_device *pdev)
{
	ete_unit_destroy(platform_get_drvdata(pdev));
	return 0;
}

static struct platform_driver ete_platform_driver = {
	.probe = ete_platform_probe,
	.remove = ete_platform_remove,
	.driver = {
		.name = "ete",
		.of_match_table = ete_of_match,
		.suppress_bind_attrs = true,
	},
};

/* Say which CPUs' nodes another driver holds */
static void ete_of_report_others(void)
{
	struct platform_device *pdev;
	struct device_node *np;
	struct device_driver *drv;

	for_each_matching_node(np, ete_of_match) {
		pdev = of_find_device_by_node(np);
		if (!pdev)
			continue;
		device_lock(&pdev->dev);
		drv = pdev->dev.driver;
		if (drv && drv != &ete_platform_driver.driver)
			dev_info(&pdev->dev, "cpu%d's trace unit is bound to the \"%s\" driver, not ete\n",
				 ete_of_cpu(&pdev->dev), drv->name);
		device_unlock(&pdev->dev);
		put_device(&pdev->dev);
	}
}

/**
 * ete_of_rescan() - probe units that were refused, again
 *
 * Context: process context; called when a test double is registered.
 */
void ete_of_rescan(void)
{
	if (driver_attach(&ete_platform_driver.driver))
		pr_warn("ete: re-probing trace units failed\n");
}

/**
 * ete_of_detach_overridden() - unbind every unit that uses the test double
 *
 * Context: process context; called before the test double goes away.
 */
void ete_of_detach_overridden(void)
{
	struct device **devs;
	unsigned int n = 0, i;
	int cpu;

	devs = kcalloc(nr_cpu_ids, sizeof(*devs), GFP_KERNEL);
	if (WARN_ON_ONCE(!devs))
		return;
	mutex_lock(&ete_mutex);
	for_each_possible_cpu(cpu) {
		struct ete_unit *u = ete_unit_of(cpu);

		if (u && u->overridden)
			devs[n++] = get_device(u->parent);
	}
	mutex_unlock(&ete_mutex);
	for (i = 0; i < n; i++) {
		device_release_driver(devs[i]);
		put_device(devs[i]);
	}
	kfree(devs);
}

/**
 * ete_of_init() - register the devicetree driver
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int ete_of_init(void)
{
	int ret = platform_driver_register(&ete_platform_driver);

	if (!ret)
		ete_of_report_others();
	return ret;
}

/**
 * ete_of_exit() - unregister the devicetree driver
 *
 * Context: module exit.
 */
void ete_of_exit(void)
{
	platform_driver_unregister(&ete_platform_driver);
}
