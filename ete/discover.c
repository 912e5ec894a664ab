// SPDX-License-Identifier: GPL-2.0
/*
 * Binding the trace units that firmware describes.  Which firmware found a
 * unit matters only to the devicetree file (of.c) and the ACPI file
 * (acpi.c), which name the unit's CPU; this file picks the access backend from the device's
 * resources and hands the unit to unit.c, which cannot tell the difference.
 *
 *   no memory resource   system instructions on the unit's CPU
 *   a memory resource    the CoreSight external-debug (MMIO) view, or the
 *                        test double's view of the same address
 *
 * A unit whose CPU is offline when it is bound cannot be probed (its
 * registers are reached from its CPU only); it is bound again when that
 * CPU comes online (ete_discover_cpu_online()), as mainline etm4x does.
 *
 * The in-tree coresight-etm4x driver binds the same compatibles and ACPI
 * IDs; a unit it already holds is reported once at load (which driver holds
 * which CPU), so the user learns why a CPU has no /sys/class/ete entry.
 */

#include <linux/acpi.h>
#include <linux/amba/bus.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include <ete/compat.h>
#include <ete/core.h>
#include <ete/pe.h>

/*
 * CPUs whose unit was refused because the CPU was offline (atomic bit
 * operations); the online callback binds them again from a work item
 * (driver_attach() takes device locks, not to be taken in a hotplug
 * callback).  No new work once the drivers go away (ete_discover_dying).
 */
static struct cpumask ete_missed;
static bool ete_discover_dying;
static enum cpuhp_state ete_discover_hp_state;

static void ete_discover_rescan(void);

static void ete_discover_rescan_work(struct work_struct *work)
{
	ete_discover_rescan();
}

static DECLARE_WORK(ete_rescan_work, ete_discover_rescan_work);

static void ete_discover_retry(int cpu)
{
	if (!READ_ONCE(ete_discover_dying) &&
	    cpumask_test_and_clear_cpu(cpu, &ete_missed))
		schedule_work(&ete_rescan_work);
}

static int ete_discover_cpu_online(unsigned int cpu)
{
	ete_discover_retry(cpu);
	return 0;
}

/* Which CPU's trace unit @dev is, from whichever firmware described it. */
static int ete_fw_cpu(struct device *dev)
{
	if (is_of_node(dev_fwnode(dev)))
		return ete_of_cpu(dev);
	if (has_acpi_companion(dev))
		return ete_acpi_cpu(dev);
	return -ENODEV;
}

/*
 * A handle on the external-debug view at @res: the test double's if it
 * claims the address (*@overridden set), else the hardware's, mapped.
 */
static int ete_discover_mmio(struct device *dev, struct resource *res,
			     int cpu, struct ete_access *acc,
			     bool *overridden)
{
	const struct ete_mmio_io_ops *io;
	void __iomem *base;
	struct ete_mmio *m;
	void *ctx;

	if (resource_size(res) < SZ_4K) {
		dev_err(dev, "cpu%d: memory resource %pR is smaller than the 4KB trace unit view\n",
			cpu, res);
		return -EINVAL;
	}
	m = devm_kzalloc(dev, sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	io = ete_access_mmio_lookup(res->start, &ctx);
	*overridden = io;
	if (!io) {
		base = devm_ioremap_resource(dev, res);
		if (IS_ERR(base))
			return PTR_ERR(base);
		io = &ete_mmio_default_io;
		ctx = (void __force *)base;
	}
	ete_mmio_init(m, io, ctx, cpu, acc);
	return 0;
}

/*
 * Probe the unit (unit.c), decode what it reports and give it the defaults
 * (config.c), make it reachable by sessions (session.c) and publish it
 * (the ABI's files, through the unit hooks).
 */
static struct ete_unit *ete_discover_unit(struct device *dev, int cpu,
					  const struct ete_access *acc,
					  bool overridden)
{
	struct ete_unit *u;
	int ret;

	u = ete_unit_create(dev, cpu, acc, overridden);
	if (IS_ERR(u))
		return u;
	ret = ete_caps_decode(u->ids.idr, u->ids.devarch, &u->caps);
	if (ret) {
		dev_err(dev, "cpu%d: inconsistent ID registers; not probed\n",
			cpu);
		ret = -ENODEV;
		goto destroy;
	}
	ete_config_defaults_cpu(&u->cfg, &u->caps, cpu);
	ret = ete_session_register_unit(u);
	if (ret)
		goto destroy;
	ret = ete_unit_publish(u);
	if (ret)
		goto unregister;
	dev_info(dev, "cpu%d: ETE revision %u, %u address comparators, %u counters, %u resource selectors%s%s\n",
		 cpu, u->caps.revision, u->caps.num_ac, u->caps.num_cntr,
		 u->caps.num_rs, u->has_trf ? "" : ", no FEAT_TRF",
		 overridden ? " (test double)" : "");
	return u;

unregister:
	ete_session_unregister_unit(u);
destroy:
	ete_unit_destroy(u);
	return ERR_PTR(ret);
}

/**
 * ete_discover_bind() - make a trace unit of a device firmware described
 * @dev: the device (platform, or AMBA for CoreSight ETM nodes)
 * @res: its memory resource, or NULL for a unit reached by system
 *	instructions
 *
 * Context: process context (a driver's probe).
 * Return: 0, or a negative errno (the unit is absent, the CPU unknown).
 */
int ete_discover_bind(struct device *dev, struct resource *res)
{
	struct ete_access acc;
	struct ete_unit *u;
	bool overridden;
	int cpu, ret;

	cpu = ete_fw_cpu(dev);
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		dev_err(dev, "firmware names no valid CPU for this trace unit\n");
		return -EINVAL;
	}
	/*
	 * No MMIO access here: this CPU is not the unit's, whose core may be
	 * off.  The probe reads it on its CPU (reads need no unlock); every
	 * write is on that CPU, after ete_access_unlock().
	 */
	if (res) {
		ret = ete_discover_mmio(dev, res, cpu, &acc, &overridden);
		if (ret)
			return ret;
	} else {
		overridden = ete_access_get_sysreg(cpu, &acc);
	}
	u = ete_discover_unit(dev, cpu, &acc, overridden);
	if (IS_ERR(u)) {
		ret = PTR_ERR(u);
		if (ret == -EBUSY)
			dev_err(dev, "cpu%d already has a trace unit\n", cpu);
		if (ret != -EAGAIN)
			return ret;
		/* offline: bound again when it comes online (or came) */
		cpumask_set_cpu(cpu, &ete_missed);
		if (cpu_online(cpu))
			ete_discover_retry(cpu);
		return -ENODEV;
	}
	dev_set_drvdata(dev, u);
	return 0;
}

static void ete_discover_lock_one(void *acc)
{
	ete_mmio_lock(acc);
}

/**
 * ete_discover_unbind() - undo ete_discover_bind()
 * @dev: the device
 *
 * A memory-mapped unit's software lock is set again on its CPU; an offline
 * core's is set by its reset (TRCLSR resets locked), and nothing reaches
 * it from here.
 *
 * Context: process context (a driver's remove).
 */
void ete_discover_unbind(struct device *dev)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	struct ete_access acc = u->acc;

	/* the files first (waiting for running calls), then the session */
	ete_unit_unpublish(u);
	ete_session_unregister_unit(u);
	ete_unit_destroy(u);
	if (acc.ops == &ete_mmio_ops)
		smp_call_function_single(acc.cpu, ete_discover_lock_one, &acc,
					 1);
}

static int ete_platform_probe(struct platform_device *pdev)
{
	return ete_discover_bind(&pdev->dev,
				 platform_get_resource(pdev, IORESOURCE_MEM, 0));
}

static ete_compat_remove_t ete_platform_remove(struct platform_device *pdev)
{
	ete_discover_unbind(&pdev->dev);
	return ETE_COMPAT_REMOVE_OK;
}

static struct platform_driver ete_platform_driver = {
	.probe = ete_platform_probe,
	.remove = ete_platform_remove,
	.driver = {
		.name = "ete",
		.of_match_table = ete_of_match,
		.acpi_match_table = ACPI_PTR(ete_acpi_match),
		.suppress_bind_attrs = true,
	},
};

/*
 * CoreSight trace units in their external-debug view: "arm,coresight-etm4x"
 * AMBA primecell nodes with a reg (devicetree), and on Linux 6.1 the AMBA
 * devices its scan handler makes of ARMHC500 units with a memory resource.
 * Any Arm (JEP106 0x3b) peripheral ID; on a CoreSight component the bus
 * also requires TRCDEVARCH to say ETE and TRCDEVTYPE a PE trace unit.  The
 * probe reads TRCDEVARCH in every case, so an ETMv4 is refused there.
 */
static const struct amba_cs_uci_id ete_amba_uci = {
	.devarch = ETE_DEVARCH_ETE,
	.devarch_mask = ETE_DEVARCH_MASK,
	.devtype = 0x13,	/* TRCDEVTYPE: trace source, processor */
};

static const struct amba_id ete_amba_ids[] = {
	{ .id = 0x000bb000, .mask = 0x000ff000,
	  .data = (void *)&ete_amba_uci },
	{ },
};
MODULE_DEVICE_TABLE(amba, ete_amba_ids);

static int ete_amba_probe(struct amba_device *adev, const struct amba_id *id)
{
	return ete_discover_bind(&adev->dev, &adev->res);
}

static void ete_amba_remove(struct amba_device *adev)
{
	ete_discover_unbind(&adev->dev);
}

static struct amba_driver ete_amba_driver = {
	.probe = ete_amba_probe,
	.remove = ete_amba_remove,
	.id_table = ete_amba_ids,
	.drv = {
		.name = "ete",
		.suppress_bind_attrs = true,
	},
};

static bool ete_is_our_driver(const struct device_driver *drv)
{
	return drv == &ete_platform_driver.driver ||
	       drv == &ete_amba_driver.drv;
}

/**
 * ete_discover_report_holder() - say so if another driver holds a unit
 * @dev: a device firmware describes as a trace unit (may be NULL)
 * @cpu: its CPU, or a negative errno if unknown
 *
 * Context: process context, at module load.
 */
void ete_discover_report_holder(struct device *dev, int cpu)
{
	struct device_driver *drv;

	if (!dev)
		return;
	device_lock(dev);
	drv = dev->driver;
	if (drv && !ete_is_our_driver(drv))
		pr_info("ete: %s: cpu%d's trace unit is bound to the \"%s\" driver, not ete\n",
			dev_name(dev), cpu, drv->name);
	device_unlock(dev);
}

/*
 * ete_discover_rescan() - probe units that were refused, again
 *
 * Context: process context; called when a test double is registered.
 */
static void ete_discover_rescan(void)
{
	if (driver_attach(&ete_platform_driver.driver) ||
	    driver_attach(&ete_amba_driver.drv))
		pr_warn("ete: re-probing trace units failed\n");
}

/*
 * ete_discover_detach_overridden() - unbind every unit that uses the double
 *
 * Context: process context; called before the test double goes away.
 */
static void ete_discover_detach_overridden(void)
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

/*
 * The test double comes and goes (access.c's chain; first in it, before
 * trbe.ko's handles change): units refused for lack of hardware are
 * probed again, and units that use the double are unbound before it goes.
 */
static int ete_discover_access_event(struct notifier_block *nb,
				     unsigned long event, void *data)
{
	if (event == ETE_ACCESS_OVERRIDE_ADDED)
		ete_discover_rescan();
	else if (event == ETE_ACCESS_OVERRIDE_REMOVING)
		ete_discover_detach_overridden();
	return NOTIFY_OK;
}

static struct notifier_block ete_discover_access_nb = {
	.notifier_call = ete_discover_access_event,
	.priority = INT_MAX,
};

/**
 * ete_discover_init() - register the driver, then let each firmware
 *	interface add and report its units
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int ete_discover_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"hwtracing/ete/discover:online",
					ete_discover_cpu_online, NULL);
	if (ret < 0)
		return ret;
	ete_discover_hp_state = ret;
	ret = platform_driver_register(&ete_platform_driver);
	if (ret)
		goto remove_state;
	ret = amba_driver_register(&ete_amba_driver);
	if (ret)
		goto unregister_platform;
	ret = ete_acpi_init();
	if (ret)
		goto unregister_amba;
	ret = ete_access_notifier_register(&ete_discover_access_nb);
	if (ret)
		goto exit_acpi;
	ete_of_report_holders();
	ete_acpi_report_holders();
	return 0;

exit_acpi:
	ete_acpi_exit();
unregister_amba:
	amba_driver_unregister(&ete_amba_driver);
unregister_platform:
	platform_driver_unregister(&ete_platform_driver);
remove_state:
	WRITE_ONCE(ete_discover_dying, true);
	cpuhp_remove_state_nocalls(ete_discover_hp_state);
	cancel_work_sync(&ete_rescan_work);
	return ret;
}

/**
 * ete_discover_exit() - undo ete_discover_init()
 *
 * Context: module exit.
 */
void ete_discover_exit(void)
{
	ete_access_notifier_unregister(&ete_discover_access_nb);
	WRITE_ONCE(ete_discover_dying, true);
	cpuhp_remove_state_nocalls(ete_discover_hp_state);
	cancel_work_sync(&ete_rescan_work);
	ete_acpi_exit();
	amba_driver_unregister(&ete_amba_driver);
	platform_driver_unregister(&ete_platform_driver);
}
