/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ETE trace units of QEMU virt's four CPUs, as Arm describes CoreSight/ETE
 * components in ACPI: a device with _HID "ARMHC500" as a child of its
 * processor device (\_SB.C00n, _HID ACPI0007, in QEMU's DSDT).  No memory
 * resource: the units are reached through system instructions.
 *
 * Installed by the kernel's initrd table upgrade (ACPI_TABLE_UPGRADE) from
 * kernel/firmware/acpi/ in an uncompressed cpio placed before the
 * initramfs.
 */
DefinitionBlock ("ssdt-ete.aml", "SSDT", 2, "ETETST", "ETESSDT", 1)
{
	External (\_SB.C000, DeviceObj)
	External (\_SB.C001, DeviceObj)
	External (\_SB.C002, DeviceObj)
	External (\_SB.C003, DeviceObj)

	Scope (\_SB.C000)
	{
		Device (ETE0)
		{
			Name (_HID, "ARMHC500")
			Name (_UID, 0)
		}
	}

	Scope (\_SB.C001)
	{
		Device (ETE1)
		{
			Name (_HID, "ARMHC500")
			Name (_UID, 1)
		}
	}

	Scope (\_SB.C002)
	{
		Device (ETE2)
		{
			Name (_HID, "ARMHC500")
			Name (_UID, 2)
		}
	}

	Scope (\_SB.C003)
	{
		Device (ETE3)
		{
			Name (_HID, "ARMHC500")
			Name (_UID, 3)
		}
	}
}
