// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI discovery of the TRBE: its interrupt comes from the GICC entries of
 * the MADT (ACPI 6.5), parsed by madt.c.  When every processor gives the
 * same PPI, it is registered and a platform device named "trbe" carries
 * it, which core.c's driver binds as it binds the devicetree node: nothing
 * past probe can tell which firmware described the TRBE.  Whatever else the
 * table says is one line in the log and no device.
 */

#define pr_fmt(fmt) "trbe: ACPI: " fmt

#include <linux/acpi.h>
#include <linux/err.h>
#include <linux/ioport.h>
#include <linux/platform_device.h>
#include <asm/acpi.h>

#include <ete/compat.h>

#include "madt.h"

static struct platform_device *trbe_acpi_pdev;

/* The logical CPU of an ACPI Processor UID, for the log (-1 if none) */
static int trbe_acpi_uid_cpu(u32 uid)
{
	int cpu = ete_compat_cpu_for_acpi_uid(uid);

	return cpu < 0 ? -1 : cpu;
}

static void trbe_acpi_refuse(const struct trbe_madt_info *info)
{
	const char *why = trbe_madt_verdict_name(info->verdict);

	switch (info->verdict) {
	case TRBE_MADT_MISMATCH:
		if (!info->has_field || !info->ref_has_field) {
			pr_err("cpu%d (processor UID %u) %s the GICC TRBE field and cpu%d (UID %u) %s: TRBE not used\n",
			       trbe_acpi_uid_cpu(info->uid), info->uid,
			       info->has_field ? "has" : "lacks",
			       trbe_acpi_uid_cpu(info->ref_uid), info->ref_uid,
			       info->ref_has_field ? "has it" : "does not");
			break;
		}
		pr_err("cpu%d (processor UID %u) has TRBE interrupt %u, cpu%d (UID %u) has %u; they must be equal: TRBE not used\n",
		       trbe_acpi_uid_cpu(info->uid), info->uid, info->gsiv,
		       trbe_acpi_uid_cpu(info->ref_uid), info->ref_uid,
		       info->ref_gsiv);
		break;
	case TRBE_MADT_NOT_PPI:
		pr_err("%s (GSIV %u): TRBE not used\n", why, info->gsiv);
		break;
	case TRBE_MADT_MALFORMED:
		pr_err("%s at byte %u: TRBE not used\n", why, info->off);
		break;
	default:
		pr_info("%s: no TRBE\n", why);
		break;
	}
}

/*
 * The platform device of the TRBE interrupt.  DEFINE_RES_IRQ() is a
 * brace initializer on some kernels and a compound literal on others:
 * as an initializer it is both.
 */
static struct platform_device *trbe_acpi_register(int irq)
{
	struct resource res = DEFINE_RES_IRQ(irq);

	return platform_device_register_simple("trbe", PLATFORM_DEVID_NONE,
					       &res, 1);
}

/**
 * trbe_acpi_init() - find the TRBE interrupt in the MADT, make its device
 *
 * A missing or refused interrupt is logged once and is not an error: the
 * module stays loaded, with no TRBE, as on a devicetree without the node.
 *
 * Context: module init, after the platform driver is registered.
 * Return: 0, or a negative errno if the device could not be made.
 */
int trbe_acpi_init(void)
{
	struct acpi_table_header *madt;
	struct trbe_madt_info info;
	struct platform_device *pdev;
	acpi_status status;
	int irq, ret;

	if (acpi_disabled)
		return 0;
	status = acpi_get_table(ACPI_SIG_MADT, 0, &madt);
	if (ACPI_FAILURE(status)) {
		pr_info("no MADT: no TRBE\n");
		return 0;
	}
	ret = trbe_madt_parse(madt, madt->length, &info);
	acpi_put_table(madt);
	if (ret) {
		trbe_acpi_refuse(&info);
		return 0;
	}

	irq = acpi_register_gsi(NULL, info.gsiv, ACPI_LEVEL_SENSITIVE,
				ACPI_ACTIVE_HIGH);
	if (irq < 0) {
		pr_err("cannot register TRBE interrupt GSIV %u (%d): TRBE not used\n",
		       info.gsiv, irq);
		return 0;
	}
	pdev = trbe_acpi_register(irq);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	pr_info("TRBE interrupt GSIV %u on all %u processors\n", info.gsiv,
		info.nr_gicc);
	trbe_acpi_pdev = pdev;
	return 0;
}

/**
 * trbe_acpi_exit() - undo trbe_acpi_init()
 *
 * The GSI stays registered, as arm_pmu_acpi leaves the PMU and SPE ones:
 * its mapping is shared by every user of the PPI (the test model among
 * them), and registering it again on the next load finds it.
 *
 * Context: module exit.
 */
void trbe_acpi_exit(void)
{
	platform_device_unregister(trbe_acpi_pdev);
	trbe_acpi_pdev = NULL;
}
