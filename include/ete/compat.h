/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels ete.ko, trbe.ko and their test modules
 * build against (Linux 6.1 to 6.12), kept in this one file: no .c file
 * tests the kernel version.  A difference only the running kernel shows
 * (a static table inside it) is decided at run time where that is exact;
 * every other one by LINUX_VERSION_CODE, at the release that made the
 * change.  Not by __has_include(): sparse 0.6.4 (Debian 12's, make check's
 * C=2 build) does not know it.
 * Documentation/compat.rst lists them.
 */
#ifndef _ETE_COMPAT_H
#define _ETE_COMPAT_H

#include <linux/acpi.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/version.h>

/**
 * ETE_COMPAT_SINCE() - whether the kernel built against is a later one
 * @major: the major version of the release that made a change
 * @minor: its minor version
 *
 * The test of every version-dependent change below.
 *
 * Return: true when building against Linux @major.@minor or later.
 */
#define ETE_COMPAT_SINCE(major, minor) \
	(KERNEL_VERSION(major, minor, 0) <= LINUX_VERSION_CODE)

/*
 * get_unaligned_le32() and friends: <asm/unaligned.h> became
 * <linux/unaligned.h> in Linux 6.12.  Include this header for them.  A
 * version test, not __has_include(): sparse 0.6.4 (Debian 12) does not
 * know __has_include() and would take the old header on 6.12.
 */
#if ETE_COMPAT_SINCE(6, 12)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/**
 * ete_compat_class_create() - create a device class owned by this module
 * @name: the class name
 *
 * class_create() lost its struct module argument in Linux 6.4.
 *
 * Context: process context; sleeps.
 * Return: the class, or an ERR_PTR().
 */
static inline struct class *ete_compat_class_create(const char *name)
{
#if ETE_COMPAT_SINCE(6, 4)
	return class_create(name);
#else
	return class_create(THIS_MODULE, name);
#endif
}

/**
 * ete_compat_devnode_dev_t - the device type of a class .devnode callback
 *
 * const struct device since Linux 6.2, struct device before.  Declare the
 * callback as "char *f(ete_compat_devnode_dev_t *dev, umode_t *mode)".
 */
#if ETE_COMPAT_SINCE(6, 2)
#define ete_compat_devnode_dev_t	const struct device
#else
#define ete_compat_devnode_dev_t	struct device
#endif

/**
 * ete_compat_vm_flags_set() - set flags in a VMA being mapped
 * @vma: the VMA, its mmap lock held for writing (an .mmap handler)
 * @flags: the VM_* flags to set
 *
 * vma->vm_flags is read-only since Linux 6.3, which added vm_flags_set().
 */
static inline void ete_compat_vm_flags_set(struct vm_area_struct *vma,
					   vm_flags_t flags)
{
#if ETE_COMPAT_SINCE(6, 3)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/**
 * ete_compat_vm_flags_clear() - clear flags in a VMA being mapped
 * @vma: the VMA, its mmap lock held for writing (an .mmap handler)
 * @flags: the VM_* flags to clear
 *
 * vma->vm_flags is read-only since Linux 6.3, which added vm_flags_clear().
 */
static inline void ete_compat_vm_flags_clear(struct vm_area_struct *vma,
					     vm_flags_t flags)
{
#if ETE_COMPAT_SINCE(6, 3)
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/**
 * ete_compat_no_llseek - the .llseek of a file that cannot seek
 *
 * lseek() fails with -ESPIPE.  Linux 6.12 removed no_llseek(); a NULL
 * .llseek has meant the same since Linux 6.0, which clears FMODE_LSEEK for
 * it, so the older kernels keep no_llseek() and 6.12 gets NULL.
 */
#if ETE_COMPAT_SINCE(6, 12)
#define ete_compat_no_llseek	NULL
#else
#define ete_compat_no_llseek	no_llseek
#endif

/**
 * ete_compat_remove_t - the return type of a platform_driver .remove
 *
 * void since Linux 6.11 (the end of the .remove_new transition), int
 * before.  Declare the callback as
 * "static ete_compat_remove_t f(struct platform_device *pdev)" and return
 * from it with "return ETE_COMPAT_REMOVE_OK;".
 */
#if ETE_COMPAT_SINCE(6, 11)
#define ete_compat_remove_t	void
#else
#define ete_compat_remove_t	int
#endif

/**
 * ETE_COMPAT_REMOVE_OK - what a platform_driver .remove returns
 *
 * Nothing where it returns void (Linux 6.11 on), 0 before: "return
 * ETE_COMPAT_REMOVE_OK;" ends an ete_compat_remove_t callback.
 */
#if ETE_COMPAT_SINCE(6, 11)
#define ETE_COMPAT_REMOVE_OK
#else
#define ETE_COMPAT_REMOVE_OK	0
#endif

/**
 * ete_compat_bin_attr_t - the bin_attribute a sysfs binary file's
 *	callbacks are given
 *
 * const struct bin_attribute since Linux 6.16, which also made
 * attribute_group.bin_attrs an array of pointers to const; struct
 * bin_attribute before.  Declare read() as "ssize_t f(struct file *file,
 * struct kobject *kobj, ete_compat_bin_attr_t *attr, char *buf, loff_t
 * pos, size_t count)" and a group's array as "ete_compat_bin_attr_t **".
 */
#if ETE_COMPAT_SINCE(6, 16)
#define ete_compat_bin_attr_t	const struct bin_attribute
#else
#define ete_compat_bin_attr_t	struct bin_attribute
#endif

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
