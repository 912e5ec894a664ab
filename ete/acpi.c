// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI discovery, as Arm describes CoreSight trace units (DEN0067, ACPI
 * for CoreSight): a device with _HID "ARMHC500" as a child of its
 * processor device (_HID "ACPI0007"), whose _UID is the ACPI Processor UID
 * of the CPU's GICC entry in the MADT.  Without a memory resource the unit
 * is reached through system instructions; with one, through its
 * external-debug view.  discover.c binds the units; this file only knows
 * ACPI, and include/ete/compat.h how kernels differ in enumerating them.
 */

#include <linux/acpi.h>
#include <linux/amba/bus.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <acpi/processor.h>

#include <ete/compat.h>
#include <ete/core.h>

#define ETE_ACPI_HID		"ARMHC500"

const struct acpi_device_id ete_acpi_match[] = {
	{ ETE_ACPI_HID, 0 },
	{ }
};
MODULE_DEVICE_TABLE(acpi, ete_acpi_match);

static const struct acpi_device_id ete_acpi_processor_ids[] = {
	{ ACPI_PROCESSOR_DEVICE_HID, 0 },
	{ }
};

/* Platform devices created here (Linux 6.1), removed at exit */
struct ete_acpi_pdev {
	struct list_head node;
	struct platform_device *pdev;
};

static LIST_HEAD(ete_acpi_pdevs);

/* The CPU of @adev: its parent processor device's _UID, through the MADT */
static int ete_acpi_adev_cpu(struct acpi_device *adev)
{
	struct acpi_device *parent = acpi_dev_parent(adev);
	unsigned long long uid;
	acpi_status status;

	if (!parent || acpi_match_device_ids(parent, ete_acpi_processor_ids))
		return -ENODEV;
	status = acpi_evaluate_integer(parent->handle, METHOD_NAME__UID, NULL,
				       &uid);
	if (ACPI_FAILURE(status) || uid > U32_MAX)
		return -ENODEV;
	return ete_compat_cpu_for_acpi_uid(uid);
}

/**
 * ete_acpi_cpu() - the CPU of an ACPI trace unit
 * @dev: a device whose ACPI companion is an ARMHC500 device
 *
 * Context: process context.
 * Return: the logical CPU, or -ENODEV if the parent is not a processor
 * device or its _UID matches no CPU.
 */
int ete_acpi_cpu(struct device *dev)
{
	return ete_acpi_adev_cpu(ACPI_COMPANION(dev));
}

static int ete_acpi_report_one(struct device *dev, void *unused)
{
	struct acpi_device *adev = ACPI_COMPANION(dev);

	if (adev && !acpi_match_device_ids(adev, ete_acpi_match))
		ete_discover_report_holder(dev, ete_acpi_adev_cpu(adev));
	return 0;
}

/**
 * ete_acpi_report_holders() - say which CPUs' units another driver holds
 *
 * Looks at the platform devices and, on Linux 6.1, the AMBA devices the
 * kernel made of units with a memory resource.
 *
 * Context: module init, after the driver is registered.
 */
void ete_acpi_report_holders(void)
{
	if (acpi_disabled)
		return;
	bus_for_each_dev(&platform_bus_type, NULL, NULL, ete_acpi_report_one);
	if (IS_ENABLED(CONFIG_ARM_AMBA))
		bus_for_each_dev(&amba_bustype, NULL, NULL,
				 ete_acpi_report_one);
}

/* Give @adev the platform device the kernel did not (Linux 6.1) */
static int ete_acpi_add_pdev(struct acpi_device *adev)
{
	struct platform_device *pdev;
	struct ete_acpi_pdev *p;

	pdev = ete_compat_acpi_pdev(adev);
	if (IS_ERR_OR_NULL(pdev))
		return PTR_ERR_OR_ZERO(pdev);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		platform_device_unregister(pdev);
		return -ENOMEM;
	}
	p->pdev = pdev;
	list_add(&p->node, &ete_acpi_pdevs);
	return 0;
}

/**
 * ete_acpi_exit() - remove the platform devices ete_acpi_init() made
 *
 * Context: module exit, or a failed init.
 */
void ete_acpi_exit(void)
{
	struct ete_acpi_pdev *p, *tmp;

	list_for_each_entry_safe(p, tmp, &ete_acpi_pdevs, node) {
		platform_device_unregister(p->pdev);
		list_del(&p->node);
		kfree(p);
	}
}

/**
 * ete_acpi_init() - make every ACPI trace unit a platform device
 *
 * The platform driver is registered first, so each unit is probed as its
 * device appears.
 *
 * Context: module init.
 * Return: 0, or -ENOMEM.
 */
int ete_acpi_init(void)
{
	struct acpi_device *adev;
	int ret;

	if (acpi_disabled)
		return 0;
	for_each_acpi_dev_match(adev, ETE_ACPI_HID, NULL, -1) {
		ret = ete_acpi_add_pdev(adev);
		if (ret == -ENOMEM) {
			acpi_dev_put(adev);
			ete_acpi_exit();
			return ret;
		}
		if (ret)
			dev_warn(&adev->dev, "no platform device (%d); trace unit not used\n",
				 ret);
	}
	return 0;
}
