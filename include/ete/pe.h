/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Access to the PE system registers of a CPU (TRB*_EL1, TRFCR, OS Lock,
 * MIDR, ID_AA64DFR0) for other modules, trbe.ko first.
 *
 * The handle is the system-register backend of ete.ko, or the test double
 * when one is registered (see ete_access_override_register()).  A module
 * that keeps handles must listen for override changes: when a double is
 * added, CPUs that had no hardware may now have it; before a double is
 * removed, every handle obtained while it was installed must be dropped.
 */
#ifndef _ETE_PE_H
#define _ETE_PE_H

#include <ete/access.h>

struct notifier_block;

/**
 * enum ete_access_event - override notifier events
 * @ETE_ACCESS_OVERRIDE_ADDED: a test double was registered; probe again
 * @ETE_ACCESS_OVERRIDE_REMOVING: the test double is about to go; stop
 *	every use of the handles obtained from it and drop them
 */
enum ete_access_event {
	ETE_ACCESS_OVERRIDE_ADDED = 1,
	ETE_ACCESS_OVERRIDE_REMOVING,
};

/**
 * ete_access_get_pe() - a handle on the PE system registers of a CPU
 * @cpu: a possible CPU
 * @acc: filled with the handle (&struct ete_access.local is set: use it on
 *	@cpu with preemption disabled)
 *
 * The handle reaches the test double if one is registered, else the
 * system-register backend (MRS/MSR).  It reaches every register of
 * <ete/regs.h> with ETE_RF_SYS; the caller checks ID_AA64DFR0_EL1 through
 * it before touching a register that may be absent (TRB*, TRFCR).
 *
 * Context: any context; does not sleep.
 * Return:
 * * 0 on success
 * * -EINVAL if @cpu is not a possible CPU
 */
int ete_access_get_pe(int cpu, struct ete_access *acc);

/**
 * ete_access_notifier_register() - hear about test doubles coming and going
 * @nb: called with an &enum ete_access_event and the override as data
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno from blocking_notifier_chain_register().
 */
int ete_access_notifier_register(struct notifier_block *nb);

/**
 * ete_access_notifier_unregister() - stop hearing about test doubles
 * @nb: the block given to ete_access_notifier_register()
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOENT if @nb was not registered.
 */
int ete_access_notifier_unregister(struct notifier_block *nb);

#endif /* _ETE_PE_H */
