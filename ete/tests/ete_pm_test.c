// SPDX-License-Identifier: GPL-2.0
/*
 * Drives ete.ko's CPU PM callback for tests, as the notifier chain would.
 *
 * In the test VM no idle state powers a CPU down (PSCI idle states hang
 * the boot under TCG), and calling cpu_pm_enter() on a live CPU runs the
 * GICv3's own notifier, which put the redistributor to sleep and hung
 * QEMU.  So this module calls ete.ko's notifier block directly, on the
 * target CPU in process context with IRQs off, after the model's part of
 * the event (ete_model_cpu_pm(): the model's notifier is first in the
 * chain and loses the unit's state when its powerdown file is 1).
 *
 * debugfs, under /sys/kernel/debug/ete_pm_test/:
 *   cpu_pm      write "CPU": ENTER then EXIT on that CPU; "CPU fail":
 *               ENTER then ENTER_FAILED (a later notifier refused);
 *               "CPU enter" or "CPU exit": one half, to count the
 *               accesses of a save and of a restore apart; "CPU storm
 *               N US": N times ENTER then EXIT, each pair followed by
 *               a sleep of US microseconds on that CPU with IRQs on (a
 *               CPU that idles more often than a timer's period).
 *               -EBUSY if ENTER was refused (NOTIFY_BAD), -ENODEV if
 *               offline.
 *   events      number of events driven
 *   registered  1 if ete.ko's notifier block was in the CPU PM chain
 *               (unregistering it succeeded; it is registered again)
 *
 * Test-only: depends on ete_model.ko.
 */

#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <ete/compat.h>
#include <ete/core.h>
#include "ete_model.h"

enum pm_test_mode {
	PM_TEST_FULL,
	PM_TEST_FAIL,
	PM_TEST_ENTER,
	PM_TEST_EXIT,
	PM_TEST_STORM,
};

struct pm_test_req {
	enum pm_test_mode mode;
	unsigned int count;
	unsigned int us;
};

static struct dentry *pm_test_dir;
static atomic_t pm_test_events = ATOMIC_INIT(0);

static int pm_test_call(unsigned long cmd)
{
	struct notifier_block *nb = &ete_pm_cpu_pm_nb;
	int ret;

	ete_model_cpu_pm(cmd);
	ret = nb->notifier_call(nb, cmd, NULL);
	ete_model_cpu_pm_done(cmd);
	return ret;
}

/* On the target CPU (work_on_cpu()), as cpu_pm_enter()/exit() run */
static long pm_test_event(enum pm_test_mode mode)
{
	long ret = 0;

	local_irq_disable();
	if (mode != PM_TEST_EXIT &&
	    pm_test_call(CPU_PM_ENTER) == NOTIFY_BAD) {
		pm_test_call(CPU_PM_ENTER_FAILED);
		ret = -EBUSY;
	} else if (mode == PM_TEST_FAIL) {
		pm_test_call(CPU_PM_ENTER_FAILED);
	} else if (mode != PM_TEST_ENTER) {
		pm_test_call(CPU_PM_EXIT);
	}
	local_irq_enable();
	return ret;
}

static long pm_test_work(void *arg)
{
	const struct pm_test_req *req = arg;
	unsigned int i;
	long ret;

	if (req->mode != PM_TEST_STORM)
		return pm_test_event(req->mode);
	for (i = 0; i < req->count; i++) {
		ret = pm_test_event(PM_TEST_FULL);
		if (ret)
			return ret;
		atomic_inc(&pm_test_events);
		usleep_range(req->us, req->us + req->us / 4 + 1);
	}
	return 0;
}

static ssize_t pm_test_cpu_pm_write(struct file *f, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	static const char *const modes[] = {
		[PM_TEST_FULL] = "", [PM_TEST_FAIL] = "fail",
		[PM_TEST_ENTER] = "enter", [PM_TEST_EXIT] = "exit",
		[PM_TEST_STORM] = "storm",
	};
	struct pm_test_req req = { };
	char buf[48], word[8] = "";
	unsigned int cpu;
	long ret;
	int mode, n;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	n = sscanf(buf, "%u %7s %u %u", &cpu, word, &req.count, &req.us);
	if (n < 1 || cpu >= nr_cpu_ids)
		return -EINVAL;
	mode = match_string(modes, ARRAY_SIZE(modes), word);
	if (mode < 0)
		return -EINVAL;
	/* a storm: at most 10000 events, at most 1 s apart */
	if (mode == PM_TEST_STORM &&
	    (n != 4 || !req.count || req.count > 10000 || !req.us ||
	     req.us > USEC_PER_SEC))
		return -EINVAL;
	req.mode = mode;
	cpus_read_lock();
	if (cpu_online(cpu))
		ret = work_on_cpu(cpu, pm_test_work, &req);
	else
		ret = -ENODEV;
	cpus_read_unlock();
	if (ret)
		return ret;
	if (mode != PM_TEST_STORM)
		atomic_inc(&pm_test_events);
	return count;
}

static const struct file_operations pm_test_cpu_pm_fops = {
	.owner = THIS_MODULE,
	.write = pm_test_cpu_pm_write,
	.llseek = ete_compat_no_llseek,
};

static int pm_test_events_get(void *data, u64 *val)
{
	*val = atomic_read(&pm_test_events);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(pm_test_events_fops, pm_test_events_get, NULL,
			 "%llu\n");

static int pm_test_registered_get(void *data, u64 *val)
{
	int ret = cpu_pm_unregister_notifier(&ete_pm_cpu_pm_nb);

	*val = !ret;
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	return cpu_pm_register_notifier(&ete_pm_cpu_pm_nb);
}
DEFINE_DEBUGFS_ATTRIBUTE(pm_test_registered_fops, pm_test_registered_get,
			 NULL, "%llu\n");

static int __init pm_test_init(void)
{
	pm_test_dir = debugfs_create_dir("ete_pm_test", NULL);
	debugfs_create_file("cpu_pm", 0200, pm_test_dir, NULL,
			    &pm_test_cpu_pm_fops);
	debugfs_create_file_unsafe("events", 0400, pm_test_dir, NULL,
				   &pm_test_events_fops);
	debugfs_create_file_unsafe("registered", 0400, pm_test_dir, NULL,
				   &pm_test_registered_fops);
	return 0;
}
module_init(pm_test_init);

static void __exit pm_test_exit(void)
{
	debugfs_remove_recursive(pm_test_dir);
}
module_exit(pm_test_exit);

MODULE_DESCRIPTION("Drives ete.ko's CPU PM callback for tests");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
