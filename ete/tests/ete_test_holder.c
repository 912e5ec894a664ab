// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the in-tree coresight-etm4x and coresight-trbe drivers:
 * binds one CPU's trace unit (module parameter "cpu", default the last
 * possible CPU) and, with "trbe=1", the devicetree TRBE node, before ete.ko
 * and trbe.ko are loaded, so that the rig can check that they say at load
 * which driver holds what (Documentation/firmware.rst).
 *
 * Devicetree: binds that CPU's "arm,embedded-trace-extension" node.  ACPI:
 * gives that CPU's ARMHC500 device a platform device, as kernels after 6.1
 * do and the in-tree driver binds there, and binds it.
 */

#include <linux/acpi.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#include <ete/compat.h>

static int holder_cpu = -1;
module_param_named(cpu, holder_cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the CPU whose trace unit to hold (default: the last)");

static bool holder_trbe;
module_param_named(trbe, holder_trbe, bool, 0444);
MODULE_PARM_DESC(trbe, "also hold the devicetree TRBE node");

static struct platform_device *holder_pdev;

static int holder_of_cpu(struct device *dev)
{
	struct device_node *np = of_parse_phandle(dev->of_node, "cpu", 0);
	int cpu;

	if (!np)
		return -EINVAL;
	cpu = of_cpu_node_to_id(np);
	of_node_put(np);
	return cpu;
}

#ifdef CONFIG_ACPI
/* The CPU of an ARMHC500 device: its parent processor's _UID */
static int holder_acpi_cpu(struct acpi_device *adev)
{
	struct acpi_device *parent = adev ? acpi_dev_parent(adev) : NULL;
	unsigned long long uid;

	if (!parent || ACPI_FAILURE(acpi_evaluate_integer(parent->handle,
							  METHOD_NAME__UID,
							  NULL, &uid)))
		return -ENODEV;
	return ete_compat_cpu_for_acpi_uid(uid);
}
#else
static int holder_acpi_cpu(struct acpi_device *adev)
{
	return -ENODEV;
}
#endif

static int holder_probe(struct platform_device *pdev)
{
	struct device_node *np = pdev->dev.of_node;
	int cpu;

	if (np && of_device_is_compatible(np, "arm,trace-buffer-extension")) {
		if (!holder_trbe)
			return -ENODEV;
		dev_info(&pdev->dev, "holding the TRBE node\n");
		return 0;
	}
	if (np)
		cpu = holder_of_cpu(&pdev->dev);
	else
		cpu = holder_acpi_cpu(ACPI_COMPANION(&pdev->dev));
	if (cpu != holder_cpu)
		return -ENODEV;
	dev_info(&pdev->dev, "holding cpu%d's trace unit\n", holder_cpu);
	return 0;
}

static const struct of_device_id holder_of_match[] = {
	{ .compatible = "arm,embedded-trace-extension" },
	{ .compatible = "arm,trace-buffer-extension" },
	{ }
};

static const struct acpi_device_id holder_acpi_match[] = {
	{ "ARMHC500", 0 },
	{ }
};

static struct platform_driver holder_driver = {
	.probe = holder_probe,
	.driver = {
		.name = "ete_test_holder",
		.of_match_table = holder_of_match,
		.acpi_match_table = ACPI_PTR(holder_acpi_match),
	},
};

#ifdef CONFIG_ACPI
/*
 * Give the ARMHC500 device of @cpu the platform device later kernels give
 * it, where the kernel did not (ete_compat_acpi_pdev(), as ete.ko does);
 * where it did (6.12), the driver registered above has bound it already.
 */
static int holder_acpi_add(int cpu)
{
	struct acpi_device *adev;
	struct platform_device *pdev;

	for_each_acpi_dev_match(adev, "ARMHC500", NULL, -1) {
		if (holder_acpi_cpu(adev) != cpu)
			continue;
		pdev = ete_compat_acpi_pdev(adev);
		acpi_dev_put(adev);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
		holder_pdev = pdev;
		return 0;
	}
	return -ENODEV;
}
#else
static int holder_acpi_add(int cpu)
{
	return -ENODEV;
}
#endif

static int __init holder_init(void)
{
	int ret;

	if (holder_cpu < 0)
		holder_cpu = cpumask_last(cpu_possible_mask);
	ret = platform_driver_register(&holder_driver);
	if (ret || acpi_disabled)
		return ret;
	ret = holder_acpi_add(holder_cpu);
	if (ret)
		platform_driver_unregister(&holder_driver);
	return ret;
}
module_init(holder_init);

static void __exit holder_exit(void)
{
	platform_device_unregister(holder_pdev);
	platform_driver_unregister(&holder_driver);
}
module_exit(holder_exit);

MODULE_DESCRIPTION("Test: another driver holding a trace unit before ete.ko");
MODULE_LICENSE("GPL");
