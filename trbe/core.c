// SPDX-License-Identifier: GPL-2.0
/*
 * TRBE trace buffer driver: devicetree binding, per-CPU probing, CPU
 * hotplug and the module entry.
 *
 * Binds the "arm,trace-buffer-extension" node, whose single interrupt is
 * the per-CPU TRBE PPI, or on ACPI the "trbe" device acpi.c makes from the
 * MADT.  A node serves the CPUs of its PPI's partition (GICv3
 * "ppi-partitions": a system may describe one TRBE node per cluster), or
 * every possible CPU; a node whose CPUs another node already serves is
 * refused (-EBUSY), so each CPU has one owner.  Every CPU served gets
 * /dev/trbe<N>; whether it has a usable TRBE is probed on that CPU through
 * its access handle, when it comes online and again when a test double
 * arrives (the model).
 */

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/mmu.h>

#include <ete/compat.h>
#include <ete/pe.h>

#include "drv.h"
#include "madt.h"

static enum cpuhp_state trbe_hp_state;

/* ---- Per-CPU probing ---------------------------------------------------- */

struct trbe_ids {
	struct ete_access acc;
	u64 dfr0;
	u64 trbidr;
	u32 midr;
	unsigned long errata;
};

/*
 * Read the ID registers; TRBIDR only where ID_AA64DFR0 reports a TRBE.
 * The errata too, here: trbe_errata_for_cpu() asks the kernel about the
 * CPU it runs on.
 */
static void trbe_read_ids_one(void *info)
{
	struct trbe_ids *ids = info;

	ids->dfr0 = ete_read(&ids->acc, ETE_ID_AA64DFR0_EL1);
	ids->midr = ete_read(&ids->acc, ETE_MIDR_EL1);
	ids->errata = trbe_errata_for_cpu(ids->midr);
	if (trbe_dfr0_has_trbe(ids->dfr0))
		ids->trbidr = ete_read(&ids->acc, ETE_TRBIDR_EL1);
}

/* Decide whether the TRBE described by @ids is usable; log why not. */
static bool trbe_cpu_usable(struct trbe_cpu *tc, const struct trbe_ids *ids)
{
	struct device *dev = tc->dev;
	struct trbe_id id = trbe_id_decode(ids->trbidr);

	if (!trbe_dfr0_has_trbe(ids->dfr0)) {
		dev_dbg(dev, "cpu%d: no TRBE\n", tc->cpu);
		return false;
	}
	if (id.prohibited) {
		dev_info(dev, "cpu%d: TRBE owned by a higher exception level (TRBIDR.P), not used\n",
			 tc->cpu);
		return false;
	}
	if (id.align > PAGE_SIZE) {
		dev_info(dev, "cpu%d: TRBE pointer alignment %llu bytes exceeds the page size, not used\n",
			 tc->cpu, id.align);
		return false;
	}
	if (ids->errata & BIT(TRBE_ERR_BROKEN)) {
		dev_info(dev, "cpu%d: TRBE unusable: erratum %s (MIDR %#x), not used\n",
			 tc->cpu, trbe_erratum_name(TRBE_ERR_BROKEN), ids->midr);
		return false;
	}
	return true;
}

static void trbe_cpu_enable_one(void *info)
{
	struct trbe_cpu *tc = info;

	raw_spin_lock(&tc->slock);
	trbe_reset_local(tc);
	tc->present = true;
	raw_spin_unlock(&tc->slock);
	enable_percpu_irq(tc->drv->irq, IRQ_TYPE_NONE);
}

static void trbe_cpu_disable_one(void *info)
{
	struct trbe_cpu *tc = info;

	disable_percpu_irq(tc->drv->irq);
	raw_spin_lock(&tc->slock);
	/* ete.ko's hotplug callback saves (and restores) a session's TRBE */
	if (tc->in_session) {
		raw_spin_unlock(&tc->slock);
		return;
	}
	if (tc->buf)
		trbe_disarm_local(tc);
	if (tc->buf && (tc->state == ETE_TRBE_STATE_RUNNING ||
			tc->state == ETE_TRBE_STATE_WAITING))
		trbe_stream_set_state(tc, ETE_TRBE_STATE_IDLE);
	trbe_reset_local(tc);
	tc->present = false;
	raw_spin_unlock(&tc->slock);
}

/*
 * Probe @tc's CPU, which is online, and enable its interrupt if it has a
 * usable TRBE.  Called with the CPU hotplug lock held (from the hotplug
 * callback, or under cpus_read_lock()), so it takes no mutex: the ioctl
 * paths take tc->lock and then, in ete.ko, the hotplug lock.
 * Context: process context; cross-calls the CPU.
 */
static void trbe_cpu_probe(struct trbe_cpu *tc)
{
	struct trbe_ids ids = { };
	unsigned long flags;

	if (READ_ONCE(tc->present) || ete_access_get_pe(tc->cpu, &ids.acc))
		return;
	if (smp_call_function_single(tc->cpu, trbe_read_ids_one, &ids, 1))
		return;
	if (!trbe_cpu_usable(tc, &ids))
		return;
	raw_spin_lock_irqsave(&tc->slock, flags);
	tc->acc = ids.acc;
	tc->id = trbe_id_decode(ids.trbidr);
	tc->errata = ids.errata;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	smp_call_function_single(tc->cpu, trbe_cpu_enable_one, tc, 1);
	dev_info(tc->dev, "cpu%d: TRBE, pointer alignment %llu, errata %#lx\n",
		 tc->cpu, tc->id.align, tc->errata);
}

/*
 * Stop using @tc's TRBE: drain it, publish, disable the interrupt, reset.
 * Context: process context, CPU hotplug lock held; cross-calls the CPU.
 */
static void trbe_cpu_unprobe(struct trbe_cpu *tc)
{
	if (READ_ONCE(tc->present))
		smp_call_function_single(tc->cpu, trbe_cpu_disable_one, tc, 1);
}

/* ---- CPU hotplug: reset then enable the IRQ; disable it then reset ------ */

static void trbe_cpu_irq_on_one(void *info)
{
	struct trbe_cpu *tc = info;

	raw_spin_lock(&tc->slock);
	/* ete.ko's restore is still to come: the registers are UNKNOWN */
	if (tc->pm.saved)
		trbe_reset_local(tc);
	raw_spin_unlock(&tc->slock);
	enable_percpu_irq(tc->drv->irq, IRQ_TYPE_NONE);
}

/*
 * A TRBE in a trace session stays probed while its CPU is offline: ete.ko
 * saved it when the CPU went down and restores it, before the trace unit,
 * when the CPU is back, whichever of the two hotplug states runs first.
 * Only the interrupt is switched here, after a reset if ete.ko's restore
 * has not run yet (the TRBE's registers are UNKNOWN after power-up: the
 * PPI goes on with TRBSR clear, as coresight-trbe.c's startup does; the
 * restore writes every register).  If that session ended while the
 * CPU was offline (trbe_pm_forget()), the TRBE is still marked present
 * but was neither reset nor given its interrupt back: do both now, as for
 * a CPU that was never in a session.  Sessions cannot start or stop
 * meanwhile: they take the CPU hotplug lock, held here.
 */
static int trbe_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct trbe_drv *drv = hlist_entry_safe(node, struct trbe_drv,
						hp_node);
	struct trbe_cpu *tc = drv->cpus[cpu];

	if (!tc)		/* another node's CPU */
		return 0;
	if (!READ_ONCE(tc->present))
		trbe_cpu_probe(tc);
	else if (READ_ONCE(tc->in_session))
		smp_call_function_single(cpu, trbe_cpu_irq_on_one, tc, 1);
	else
		smp_call_function_single(cpu, trbe_cpu_enable_one, tc, 1);
	return 0;
}

static int trbe_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct trbe_drv *drv = hlist_entry_safe(node, struct trbe_drv,
						hp_node);

	if (drv->cpus[cpu])
		trbe_cpu_unprobe(drv->cpus[cpu]);
	return 0;
}

/* ---- The test double arriving and leaving -------------------------------- */

static int trbe_access_event(struct notifier_block *nb, unsigned long event,
			     void *data)
{
	struct trbe_drv *drv = container_of(nb, struct trbe_drv, access_nb);
	unsigned int cpu;

	/* Sessions started here end before their handles change */
	for_each_cpu(cpu, &drv->supported) {
		mutex_lock(&drv->cpus[cpu]->lock);
		trbe_session_stop(drv->cpus[cpu]);
		mutex_unlock(&drv->cpus[cpu]->lock);
	}
	/* A new backend answers differently: probe everything again */
	cpus_read_lock();
	for_each_cpu_and(cpu, &drv->supported, cpu_online_mask) {
		trbe_cpu_unprobe(drv->cpus[cpu]);
		if (event == ETE_ACCESS_OVERRIDE_ADDED)
			trbe_cpu_probe(drv->cpus[cpu]);
	}
	cpus_read_unlock();
	return NOTIFY_OK;
}

/* ---- Per-CPU state and devices -------------------------------------------- */

static struct trbe_cpu *trbe_cpu_alloc(struct trbe_drv *drv, int cpu)
{
	struct trbe_cpu *tc;

	tc = devm_kzalloc(&drv->pdev->dev, sizeof(*tc), GFP_KERNEL);
	if (!tc)
		return NULL;
	tc->cpu = cpu;
	tc->drv = drv;
	mutex_init(&tc->lock);
	mutex_init(&tc->read_lock);
	raw_spin_lock_init(&tc->slock);
	init_waitqueue_head(&tc->wq);
	init_irq_work(&tc->wake, trbe_stream_wake);
	trbe_session_init(tc);
	trbe_flush_init(tc);
	tc->cfg.size = TRBE_BUF_DEFAULT;
	tc->cfg.fm = TRBE_FM_FILL;
	tc->cfg.tm = TRBE_TM_IGNORE;
	tc->cfg.policy = TRBE_POLICY_STOP;
	return tc;
}

/* debugfs "trbe": the re-arm counters per CPU (session.c) */
static struct dentry *trbe_debugfs;

static void trbe_devices_destroy(struct trbe_drv *drv)
{
	unsigned int cpu;

	for_each_cpu(cpu, &drv->supported) {
		struct trbe_cpu *tc = drv->cpus[cpu];

		if (!tc)
			continue;
		/*
		 * Every file is closed and every session stopped (the sink is
		 * unregistered): nothing queues these again.  Wait for what
		 * may still run: a re-arm, a flush, a wake-up queued by the
		 * last interrupt or session stop.
		 */
		debugfs_remove(tc->dbg);
		cancel_delayed_work_sync(&tc->rearm);
		hrtimer_cancel(&tc->flush);
		irq_work_sync(&tc->wake);
		if (tc->dev)
			device_destroy(drv->class, drv->devt + cpu);
	}
}

static int trbe_devices_create(struct trbe_drv *drv)
{
	unsigned int cpu;
	int ret;

	for_each_cpu(cpu, &drv->supported) {
		struct trbe_cpu *tc = trbe_cpu_alloc(drv, cpu);
		struct device *dev;

		if (!tc) {
			ret = -ENOMEM;
			goto err_destroy;
		}
		drv->cpus[cpu] = tc;
		*per_cpu_ptr(drv->pcpu, cpu) = tc;
		dev = device_create(drv->class, &drv->pdev->dev,
				    drv->devt + cpu, tc, "trbe%u", cpu);
		if (IS_ERR(dev)) {
			ret = PTR_ERR(dev);
			goto err_destroy;
		}
		tc->dev = dev;
		trbe_session_debugfs_add(tc, trbe_debugfs);
	}
	return 0;

err_destroy:
	trbe_devices_destroy(drv);
	return ret;
}

/* ---- Probe and remove ------------------------------------------------------ */

static int trbe_get_irq(struct platform_device *pdev)
{
	int irq = platform_get_irq(pdev, 0);

	if (irq < 0)
		return irq;
	if (!irq_is_percpu(irq)) {
		dev_err(&pdev->dev, "IRQ %d is not a PPI\n", irq);
		return -EINVAL;
	}
	return irq;
}

/*
 * The CPUs served by some instance.  A node claims its PPI partition's
 * CPUs at probe and gives them back at remove; a node that overlaps a
 * claimed CPU is refused, so no two instances serve a CPU (each would
 * make /dev/trbe<N> and take its PPI).
 */
static DEFINE_MUTEX(trbe_claim_lock);
static struct cpumask trbe_claimed;

static int trbe_claim(struct trbe_drv *drv)
{
	struct device *dev = &drv->pdev->dev;
	struct cpumask *partition;
	int ret;

	partition = kzalloc(cpumask_size(), GFP_KERNEL);
	if (!partition)
		return -ENOMEM;
	/* the partition's affinity; every possible CPU without partitions */
	if (ete_compat_percpu_irq_partition(drv->pdev, 0, drv->irq,
					    partition)) {
		dev_err(dev, "IRQ %d is not a per-CPU interrupt\n", drv->irq);
		ret = -EINVAL;
		goto out;
	}
	mutex_lock(&trbe_claim_lock);
	ret = trbe_claim_cpus(partition, cpu_possible_mask, &trbe_claimed,
			      &drv->supported);
	if (!ret)
		cpumask_or(&trbe_claimed, &trbe_claimed, &drv->supported);
	mutex_unlock(&trbe_claim_lock);
	if (ret == -ENODEV)
		dev_err(dev, "the TRBE interrupt's partition names no possible CPU\n");
	else if (ret == -EBUSY)
		dev_err(dev, "CPUs %*pbl: another TRBE node already serves some of them; node not used\n",
			cpumask_pr_args(&drv->supported));
out:
	kfree(partition);
	return ret;
}

static void trbe_unclaim(struct trbe_drv *drv)
{
	mutex_lock(&trbe_claim_lock);
	cpumask_andnot(&trbe_claimed, &trbe_claimed, &drv->supported);
	mutex_unlock(&trbe_claim_lock);
}

static int trbe_probe(struct platform_device *pdev)
{
	struct trbe_drv *drv;
	int ret;

	/* The TRBE writes at kernel addresses, unmapped at EL0 under KPTI */
	if (arm64_kernel_unmapped_at_el0()) {
		dev_err(&pdev->dev, "kernel unmapped at EL0 (KPTI): TRBE not usable\n");
		return -EOPNOTSUPP;
	}
	drv = devm_kzalloc(&pdev->dev, sizeof(*drv), GFP_KERNEL);
	if (!drv)
		return -ENOMEM;
	drv->pdev = pdev;
	drv->irq = trbe_get_irq(pdev);
	if (drv->irq < 0)
		return drv->irq;
	ret = trbe_claim(drv);
	if (ret)
		return ret;
	drv->cpus = devm_kcalloc(&pdev->dev, nr_cpu_ids, sizeof(*drv->cpus),
				 GFP_KERNEL);
	drv->pcpu = alloc_percpu(struct trbe_cpu *);
	if (!drv->cpus || !drv->pcpu) {
		ret = -ENOMEM;
		goto err_free_pcpu;
	}
	ret = trbe_cdev_init(drv);
	if (ret)
		goto err_free_pcpu;
	ret = trbe_devices_create(drv);
	if (ret)
		goto err_cdev_exit;
	/* this node's CPUs: on 7.x a PPI's partitions share its IRQ */
	ret = ete_compat_request_percpu_irq(drv->irq, trbe_irq_handler, "trbe",
					    &drv->supported, drv->pcpu);
	if (ret)
		goto err_devices_destroy;
	drv->access_nb.notifier_call = trbe_access_event;
	ret = ete_access_notifier_register(&drv->access_nb);
	if (ret)
		goto err_free_irq;
	ret = cpuhp_state_add_instance(trbe_hp_state, &drv->hp_node);
	if (ret)
		goto err_notifier_unregister;
	ret = trbe_sink_register(drv);
	if (ret)
		goto err_remove_instance;
	platform_set_drvdata(pdev, drv);
	dev_info(&pdev->dev, "TRBE interrupt: IRQ %d (per-CPU), CPUs %*pbl\n",
		 drv->irq, cpumask_pr_args(&drv->supported));
	return 0;

err_remove_instance:
	cpuhp_state_remove_instance(trbe_hp_state, &drv->hp_node);
err_notifier_unregister:
	ete_access_notifier_unregister(&drv->access_nb);
err_free_irq:
	free_percpu_irq(drv->irq, drv->pcpu);
err_devices_destroy:
	trbe_devices_destroy(drv);
err_cdev_exit:
	trbe_cdev_exit(drv);
err_free_pcpu:
	free_percpu(drv->pcpu);
	trbe_unclaim(drv);
	return ret;
}

static ete_compat_remove_t trbe_remove(struct platform_device *pdev)
{
	struct trbe_drv *drv = platform_get_drvdata(pdev);

	trbe_sink_unregister(drv);
	cpuhp_state_remove_instance(trbe_hp_state, &drv->hp_node);
	ete_access_notifier_unregister(&drv->access_nb);
	free_percpu_irq(drv->irq, drv->pcpu);
	trbe_devices_destroy(drv);
	trbe_cdev_exit(drv);
	free_percpu(drv->pcpu);
	trbe_unclaim(drv);
	return ETE_COMPAT_REMOVE_OK;
}

static const struct of_device_id trbe_of_match[] = {
	{ .compatible = "arm,trace-buffer-extension" },
	{ }
};
MODULE_DEVICE_TABLE(of, trbe_of_match);

/*
 * Under ACPI, Linux 6.6 and later (with CONFIG_CORESIGHT_TRBE) make a
 * platform device "arm,trbe" of the MADT's TRBE interrupt
 * (drivers/perf/arm_pmu_acpi.c, ARMV8_TRBE_PDEV_NAME).  Its uevent loads
 * this module, which reads the same table and makes its own device
 * (acpi.c): the alias is for loading only.
 */
MODULE_ALIAS("platform:arm,trbe");

static struct platform_driver trbe_driver = {
	.probe = trbe_probe,
	.remove = trbe_remove,
	.driver = {
		.name = "trbe",
		.of_match_table = trbe_of_match,
		.suppress_bind_attrs = true,
	},
};

/*
 * The in-tree coresight-trbe driver binds the same node: if it got there
 * first, say so once instead of silently finding no TRBE.
 */
static void trbe_report_holder(void)
{
	struct platform_device *pdev;
	struct device_driver *drv;
	struct device_node *np;

	np = of_find_matching_node(NULL, trbe_of_match);
	pdev = np ? of_find_device_by_node(np) : NULL;
	of_node_put(np);
	if (!pdev)
		return;
	device_lock(&pdev->dev);
	drv = pdev->dev.driver;
	if (drv && drv != &trbe_driver.driver)
		pr_info("trbe: %s: every CPU's TRBE is bound to the \"%s\" driver, not trbe\n",
			dev_name(&pdev->dev), drv->name);
	device_unlock(&pdev->dev);
	put_device(&pdev->dev);
}

/* ---- Module entry ---------------------------------------------------------- */

static int __init trbe_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "hwtracing/trbe:online",
				      trbe_cpu_online, trbe_cpu_offline);
	if (ret < 0)
		return ret;
	trbe_hp_state = ret;
	ret = trbe_class_init();
	if (ret)
		goto remove_multi_state;
	trbe_debugfs = debugfs_create_dir("trbe", NULL);
	ret = platform_driver_register(&trbe_driver);
	if (ret)
		goto remove_state;
	ret = trbe_acpi_init();
	if (ret)
		goto unregister_driver;
	trbe_report_holder();
	return 0;

unregister_driver:
	platform_driver_unregister(&trbe_driver);
remove_state:
	debugfs_remove(trbe_debugfs);
	trbe_class_exit();
remove_multi_state:
	cpuhp_remove_multi_state(trbe_hp_state);
	return ret;
}
module_init(trbe_init);

static void __exit trbe_exit(void)
{
	trbe_acpi_exit();
	platform_driver_unregister(&trbe_driver);
	debugfs_remove(trbe_debugfs);
	trbe_class_exit();
	cpuhp_remove_multi_state(trbe_hp_state);
}
module_exit(trbe_exit);

MODULE_DESCRIPTION("Arm Trace Buffer Extension (TRBE) driver");
MODULE_VERSION(ETE_VERSION);
MODULE_LICENSE("GPL");
