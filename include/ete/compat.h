/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels ete.ko and trbe.ko build against, kept in
 * this one file.  A difference visible in a header is probed by Kbuild; one
 * that is not (a static table inside the kernel) is decided at run time
 * where that is exact, by the kernel version otherwise.
 */
#ifndef _ETE_COMPAT_H
#define _ETE_COMPAT_H

#include <linux/acpi.h>
#include <linux/err.h>
#include <linux/platform_device.h>

#ifdef CONFIG_ACPI
/**
 * ete_compat_acpi_pdev() - give an ACPI trace unit the platform device
 *	later kernels give it
 * @adev: an ARMHC500 device
 *
 * Linux 6.1 lists ARMHC500 in drivers/acpi/acpi_amba.c, so the AMBA scan
 * handler claims every trace unit.  A unit with a memory resource becomes
 * an AMBA device (its external-debug view); for one without,
 * amba_device_add() fails ("amba_device_add() failed (-16)") and the ACPI
 * device is left with no physical device.  Because the handler failed,
 * acpi_bus_attach() never sets match_driver either, so no driver can bind
 * the ACPI device through the ACPI bus.  Later kernels, where the CoreSight
 * drivers moved ARMHC500 to platform drivers, enumerate every unit as a
 * platform device named after its ACPI device, with its resources.
 *
 * This creates that platform device where the kernel did not.  The test is
 * exact at run time (the ACPI device has no physical device yet), which
 * the table in acpi_amba.c does not allow at build time; on later kernels
 * it finds the kernel's own device and does nothing.
 *
 * Context: process context.
 * Return: the new platform device (unregister it when done), NULL if the
 * unit already has a device (the kernel's, or the 6.1 AMBA one) or is not
 * present (_STA), or an ERR_PTR() on failure.
 */
static inline struct platform_device *
ete_compat_acpi_pdev(struct acpi_device *adev)
{
	if (!acpi_dev_ready_for_enumeration(adev) ||
	    acpi_get_first_physical_node(adev))
		return NULL;
	return acpi_create_platform_device(adev, NULL);
}
#endif /* CONFIG_ACPI */

#endif /* _ETE_COMPAT_H */
