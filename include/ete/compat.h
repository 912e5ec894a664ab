/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels ete.ko, trbe.ko and their test modules
 * build against (Linux 6.1 to 7.x), kept in this one file: no .c file
 * tests the kernel version.  A difference only the running kernel shows
 * (a static table inside it) is decided at run time where that is exact;
 * every other one by LINUX_VERSION_CODE, at the release that made the
 * change, unless the stable kernels take it too (then by code right on
 * every kernel).  Not by __has_include(): sparse 0.6.4 (Debian 12's,
 * make check's C=2 build) does not know it.
 * Documentation/compat.rst lists them.
 */
#ifndef _ETE_COMPAT_H
#define _ETE_COMPAT_H

#include <linux/acpi.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/poll.h>
#include <linux/version.h>
#include <asm/cputype.h>

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
 * ETE_COMPAT_KUNIT_NS - the namespace of EXPORT_SYMBOL_IF_KUNIT() symbols
 *
 * Symbol namespaces are string literals since Linux 6.13; before, a bare
 * name that MODULE_IMPORT_NS() stringifies.  A test module imports the
 * symbols its module exports for KUnit with
 * "MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);".
 */
#if ETE_COMPAT_SINCE(6, 13)
#define ETE_COMPAT_KUNIT_NS	"EXPORTED_FOR_KUNIT_TESTING"
#else
#define ETE_COMPAT_KUNIT_NS	EXPORTED_FOR_KUNIT_TESTING
#endif

/**
 * ete_compat_poll_does_not_wait() - whether a .poll caller will not sleep
 * @p: the poll table the .poll handler was given
 *
 * True where the caller only asks for the current events and does not
 * wait on the queues poll_wait() names: no table, or select() and poll()
 * once another file already reported an event (they clear the table's
 * queueing callback then), and epoll's readiness checks.  Linux 6.13
 * removed poll_does_not_wait(), its last user gone; the test it made, a
 * table without a queueing callback, is what fs/select.c still sets on
 * 7.x, and this makes it the same way there.
 *
 * Return: true if the caller will not sleep on what poll_wait() queued.
 */
static inline bool
ete_compat_poll_does_not_wait(const struct poll_table_struct *p)
{
#if ETE_COMPAT_SINCE(6, 13)
	return !p || !p->_qproc;
#else
	return poll_does_not_wait(p);
#endif
}

/**
 * ete_compat_hrtimer_setup() - initialise an hrtimer and its callback
 * @timer: the timer
 * @fn: the expiry callback
 * @clock: the clock (CLOCK_MONOTONIC, ...)
 * @mode: the HRTIMER_MODE_* the timer will be started with
 *
 * hrtimer_setup() since Linux 6.13, which added it; hrtimer_init() and
 * setting ->function before.  Later kernels removed hrtimer_init() and
 * made ->function private.
 *
 * Context: process context.
 */
static inline void
ete_compat_hrtimer_setup(struct hrtimer *timer,
			 enum hrtimer_restart (*fn)(struct hrtimer *),
			 clockid_t clock, enum hrtimer_mode mode)
{
#if ETE_COMPAT_SINCE(6, 13)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/**
 * ete_compat_percpu_irq_partition() - the CPUs a device's per-CPU
 *	interrupt serves
 * @pdev: the device
 * @num: the index of the interrupt, as given to platform_get_irq()
 * @irq: its Linux number, platform_get_irq(@pdev, @num)
 * @affinity: set to the CPUs
 *
 * A GICv3 PPI can be split into partitions ("ppi-partitions"), a device
 * naming one in its interrupt specifier.  Up to Linux 6.18 each partition
 * is an interrupt of its own, whose CPUs irq_get_percpu_devid_partition()
 * gives.  Linux 6.19 removed partition interrupts: every partition of a
 * PPI is the one interrupt, platform_get_irq_affinity() gives the CPUs of
 * the device's specifier, and each device requests its CPUs' share
 * (ete_compat_request_percpu_irq()).  Either way @affinity is every
 * possible CPU for a PPI without partitions, or for an interrupt
 * controller that has none.
 *
 * Context: process context.
 * Return: 0, or -EINVAL if @irq is not a per-CPU (devid) interrupt.
 */
static inline int ete_compat_percpu_irq_partition(struct platform_device *pdev,
						  unsigned int num, int irq,
						  struct cpumask *affinity)
{
#if ETE_COMPAT_SINCE(6, 19)
	const struct cpumask *aff;

	if (!irq_is_percpu_devid(irq) ||
	    platform_get_irq_affinity(pdev, num, &aff) != irq)
		return -EINVAL;
	cpumask_copy(affinity, aff);
	return 0;
#else
	return irq_get_percpu_devid_partition(irq, affinity);
#endif
}

/**
 * ete_compat_request_percpu_irq() - request a per-CPU interrupt for some CPUs
 * @irq: the interrupt
 * @handler: its handler, given this CPU's pointer of @dev_id
 * @name: the name /proc/interrupts shows
 * @affinity: the CPUs this request serves, within the interrupt's
 *	partition (ete_compat_percpu_irq_partition()); it must stay valid
 *	until free_percpu_irq()
 * @dev_id: the per-CPU cookie
 *
 * Up to Linux 6.18 the interrupt of a partition serves only its CPUs, so
 * request_percpu_irq() takes no affinity.  From Linux 6.19 the partitions
 * of a PPI share one interrupt: request_percpu_irq_affinity() calls
 * @handler on @affinity's CPUs only, and another request for CPUs
 * disjoint from @affinity (another partition's device) may share it.
 *
 * Context: process context.
 * Return: 0 or a negative errno (-EBUSY if the interrupt is taken for an
 * overlapping set of CPUs).
 */
static inline int __must_check
ete_compat_request_percpu_irq(unsigned int irq, irq_handler_t handler,
			      const char *name, const struct cpumask *affinity,
			      void __percpu *dev_id)
{
#if ETE_COMPAT_SINCE(6, 19)
	return request_percpu_irq_affinity(irq, handler, name, affinity,
					   dev_id);
#else
	return request_percpu_irq(irq, handler, name, dev_id);
#endif
}

/**
 * ete_compat_cpu_in_midr_range() - whether the kernel counts this CPU as a
 *	part within a MIDR range, for its errata
 * @range: the range
 *
 * Before Linux 6.15, this CPU's MIDR_EL1 within @range.  Linux 6.15 added
 * the target-implementation CPUs a hypervisor may list to a guest that
 * can migrate between machines (KVM's DISCOVER_IMPL_CPUS): where there is
 * such a list the kernel takes an erratum of any part on it, and ignores
 * MIDR_EL1; is_midr_in_range_list() lost its MIDR argument then, and
 * reads the list or this CPU's MIDR_EL1 itself.  Its cpucaps, which
 * coresight-trbe.c reads, match the same way.
 *
 * Context: preemption disabled (this CPU's MIDR_EL1).
 * Return: true if the kernel would apply an erratum of the parts in @range.
 */
static inline bool ete_compat_cpu_in_midr_range(const struct midr_range *range)
{
	const struct midr_range list[] = { *range, { } };

#if ETE_COMPAT_SINCE(6, 15)
	return is_midr_in_range_list(list);
#else
	return is_midr_in_range_list(read_cpuid_id(), list);
#endif
}

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

/**
 * ete_compat_cpu_for_acpi_uid() - the logical CPU of an ACPI Processor UID
 * @uid: the UID (a processor's _UID, a MADT GICC entry's)
 *
 * What get_cpu_for_acpi_id() returns: the lowest CPU number whose MADT
 * GICC entry has @uid.  That was an inline function until Linux 7.1 made
 * it a function of the kernel that is not exported, so a module calling
 * it builds but does not load.  The change is tagged for the stable
 * kernels, so some later 6.x releases may have it too, which a version
 * test cannot tell: this is the loop of both versions over
 * acpi_cpu_get_madt_gicc(), exported on every kernel (an entry of every
 * possible CPU, never NULL), on every kernel.
 *
 * Return: the CPU, or -EINVAL if no CPU has @uid.
 */
static inline int ete_compat_cpu_for_acpi_uid(u32 uid)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (acpi_cpu_get_madt_gicc(cpu)->uid == uid)
			return cpu;
	return -EINVAL;
}
#endif /* CONFIG_ACPI */

/**
 * ete_compat_dumpable_by_owner() - whether a task may be traced by its owner
 * @t: a user task
 *
 * The dumpability ptrace checks (prctl PR_SET_DUMPABLE; a set-user-ID
 * program is not dumpable): kept in the task's mm until Linux 7.2 moved
 * it to the task's exec_state, whose accessor is not exported; its
 * structure and the task's pointer to it are in the headers.
 *
 * Context: process context.
 * Return: true if dumpable by its owner (SUID_DUMP_USER,
 * TASK_DUMPABLE_OWNER).
 */
#if ETE_COMPAT_SINCE(7, 2)
#include <linux/sched/exec_state.h>

static inline bool ete_compat_dumpable_by_owner(struct task_struct *t)
{
	struct task_exec_state *es;
	bool ok;

	rcu_read_lock();
	es = rcu_dereference(t->exec_state);
	ok = es && READ_ONCE(es->dumpable) == TASK_DUMPABLE_OWNER;
	rcu_read_unlock();
	return ok;
}
#else
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>

static inline bool ete_compat_dumpable_by_owner(struct task_struct *t)
{
	struct mm_struct *mm = get_task_mm(t);
	bool ok;

	if (!mm)
		return false;
	ok = get_dumpable(mm) == SUID_DUMP_USER;
	mmput(mm);
	return ok;
}
#endif

#endif /* _ETE_COMPAT_H */
