// SPDX-License-Identifier: GPL-2.0
/*
 * Register access: choosing a backend for a handle, and the override seam
 * through which a test double stands in for system instructions and the
 * external-debug MMIO view.
 *
 * Production code never references a test double: the double calls
 * ete_access_override_register(), as tools/testing/nvdimm wraps ioremap.
 * The layers above hear of it through the notifier chain: discovery
 * (first in the chain) re-probes the trace units refused for lack of
 * hardware when one is registered, and before one is unregistered
 * detaches every unit that uses it, which stops their sessions; then
 * other modules (trbe.ko) drop their handles, and only then is it
 * forgotten.
 */

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>

#include <ete/access.h>
#include <ete/core.h>
#include <ete/pe.h>

/* Serializes override changes; readers use READ_ONCE() */
static DEFINE_MUTEX(ete_override_lock);
static const struct ete_access_override *ete_override;
static BLOCKING_NOTIFIER_HEAD(ete_access_chain);

/**
 * ete_access_override_register() - install a test double for register access
 * @ov: the double; only one may be installed at a time
 *
 * The notifier chain hears ETE_ACCESS_OVERRIDE_ADDED (discovery probes
 * the trace units refused for lack of hardware again).
 *
 * Context: process context; takes a mutex, probes devices.
 * Return:
 * * 0 on success
 * * -EBUSY if another double is installed
 * * -EINVAL if @ov has no system-register ops
 */
int ete_access_override_register(const struct ete_access_override *ov)
{
	if (!ov->sysreg || !ov->sysreg->read || !ov->sysreg->write ||
	    !ov->sysreg->sync)
		return -EINVAL;

	mutex_lock(&ete_override_lock);
	if (ete_override) {
		mutex_unlock(&ete_override_lock);
		return -EBUSY;
	}
	WRITE_ONCE(ete_override, ov);
	blocking_notifier_call_chain(&ete_access_chain,
				     ETE_ACCESS_OVERRIDE_ADDED, (void *)ov);
	mutex_unlock(&ete_override_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(ete_access_override_register);

/**
 * ete_access_override_unregister() - remove a test double
 * @ov: the double installed by ete_access_override_register()
 *
 * Sends ETE_ACCESS_OVERRIDE_REMOVING down the notifier chain (discovery
 * detaches every trace unit using @ov, stopping its session), then
 * forgets @ov.
 *
 * Context: process context; takes a mutex, unbinds devices.
 */
void ete_access_override_unregister(const struct ete_access_override *ov)
{
	mutex_lock(&ete_override_lock);
	if (ete_override == ov) {
		blocking_notifier_call_chain(&ete_access_chain,
					     ETE_ACCESS_OVERRIDE_REMOVING,
					     (void *)ov);
		WRITE_ONCE(ete_override, NULL);
	}
	mutex_unlock(&ete_override_lock);
}
EXPORT_SYMBOL_GPL(ete_access_override_unregister);

/**
 * ete_access_get_sysreg() - a system-register handle on a CPU's trace unit
 * @cpu: the CPU
 * @acc: filled
 *
 * Context: any context.
 * Return: true if the handle reaches the test double.
 */
bool ete_access_get_sysreg(int cpu, struct ete_access *acc)
{
	const struct ete_access_override *ov = READ_ONCE(ete_override);

	acc->cpu = cpu;
	acc->local = true;
	if (ov) {
		acc->ops = ov->sysreg;
		acc->priv = ov->sysreg_priv;
		return true;
	}
	acc->ops = &ete_sysreg_ops;
	acc->priv = NULL;
	return false;
}

/**
 * ete_access_mmio_lookup() - does the test double claim an MMIO view?
 * @base: physical base of the 4KB external-debug view
 * @ctx: set to the double's context if it does
 *
 * Context: process context.
 * Return: the double's accessors, or NULL for the real hardware.
 */
const struct ete_mmio_io_ops *ete_access_mmio_lookup(phys_addr_t base,
						     void **ctx)
{
	const struct ete_access_override *ov = READ_ONCE(ete_override);

	if (!ov || !ov->mmio_lookup)
		return NULL;
	return ov->mmio_lookup(base, ctx);
}

int ete_access_get_pe(int cpu, struct ete_access *acc)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	ete_access_get_sysreg(cpu, acc);
	return 0;
}
EXPORT_SYMBOL_GPL(ete_access_get_pe);

int ete_access_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&ete_access_chain, nb);
}
EXPORT_SYMBOL_GPL(ete_access_notifier_register);

int ete_access_notifier_unregister(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&ete_access_chain, nb);
}
EXPORT_SYMBOL_GPL(ete_access_notifier_unregister);
