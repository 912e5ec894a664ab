// SPDX-License-Identifier: GPL-2.0
/*
 * A trace sink for tests: lets the trace unit be enabled in the VM without
 * a buffer driver, and records the order of the callbacks so tests can see
 * that the sink starts before the unit is enabled and stops after it is
 * Idle.  Registered after any real sink, so a present real sink wins.
 *
 * debugfs, under /sys/kernel/debug/ete_test_sink/:
 *   present     cpumask (hex) of CPUs the sink serves (default: none)
 *   fail_start  cpumask (hex) of CPUs whose start_local() fails (-EIO)
 *   log         per CPU: starts, stops, and a start with the unit enabled
 *               or a stop with the unit not Idle ("order violations")
 *   regs<cpu>   the model's register file of that CPU's trace unit, one
 *               "NAME value" line per register instance (ete_model_peek(),
 *               no side effect), for tests that check what was programmed
 *
 * Test-only: depends on ete_model.ko for the register file.
 */

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include <ete/pe.h>
#include <ete/regs.h>
#include <ete/sink.h>
#include "ete_model.h"

static const struct ete_reg_desc sink_regs[] = {
#define ETE_REG(name, count, stride, flags) \
	{ #name, ETE_##name, count, stride, flags },
#include <ete/regs-table.h>
#undef ETE_REG
};

static unsigned long present_mask;
static unsigned long fail_mask;
static struct dentry *dir;

struct sink_stats {
	unsigned int starts;
	unsigned int stops;
	unsigned int order_violations;
};

static DEFINE_PER_CPU(struct sink_stats, stats);

/* The trace unit's state through the same access the driver uses */
static u64 unit_reg(int cpu, u32 reg)
{
	struct ete_access acc;

	if (ete_access_get_pe(cpu, &acc))
		return 0;
	return ete_read(&acc, reg);
}

/*
 * This sink stands for one on the trace bus: the model must not take a
 * unit tracing into it, TRBE disabled, for a unit with nowhere to send
 * trace (its check TRBE_OFF).
 */
static void test_sink_bus(int cpu, bool on)
{
	struct ete_access acc;

	if (!ete_access_get_pe(cpu, &acc) && acc.ops == &ete_model_sysreg_ops)
		ete_model_set_atb(acc.priv, cpu, on);
}

static bool test_sink_present(void *priv, int cpu)
{
	return cpu < BITS_PER_LONG && test_bit(cpu, &present_mask);
}

static int test_sink_start_local(void *priv, int cpu)
{
	struct sink_stats *s = this_cpu_ptr(&stats);

	if (cpu < BITS_PER_LONG && test_bit(cpu, &fail_mask))
		return -EIO;
	/* The unit must not be enabled yet (start TRBE before ETE) */
	if (unit_reg(cpu, ETE_TRCPRGCTLR) & 1)
		s->order_violations++;
	s->starts++;
	test_sink_bus(cpu, true);
	return 0;
}

static void test_sink_stop_local(void *priv, int cpu)
{
	struct sink_stats *s = this_cpu_ptr(&stats);

	/* The unit must be disabled already (stop ETE before TRBE) */
	if (unit_reg(cpu, ETE_TRCPRGCTLR) & 1)
		s->order_violations++;
	s->stops++;
	test_sink_bus(cpu, false);
}

/* The trace goes on the bus, to no user-space reader: nothing to hide */
static bool test_sink_reader_sees_kernel(void *priv, int cpu)
{
	return true;
}

static const struct ete_sink_ops test_sink_ops = {
	.owner = THIS_MODULE,
	.name = "ete_test_sink",
	.present = test_sink_present,
	.start_local = test_sink_start_local,
	.stop_local = test_sink_stop_local,
	.reader_sees_kernel = test_sink_reader_sees_kernel,
};

static int log_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct sink_stats *s = per_cpu_ptr(&stats, cpu);

		seq_printf(m, "cpu%d starts %u stops %u order_violations %u\n",
			   cpu, s->starts, s->stops, s->order_violations);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(log);

static int regs_show(struct seq_file *m, void *v)
{
	int cpu = (long)m->private;
	struct ete_access acc;
	unsigned int i, k;

	if (ete_access_get_pe(cpu, &acc) || acc.ops != &ete_model_sysreg_ops)
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(sink_regs); i++) {
		const struct ete_reg_desc *d = &sink_regs[i];

		if (!ETE_REG_IS_TRC(d->id))
			continue;
		for (k = 0; k < d->count; k++) {
			u64 val = ete_model_peek(acc.priv, cpu,
						 d->id + k * d->stride);

			if (d->count > 1)
				seq_printf(m, "%s%u %#llx\n", d->name, k, val);
			else
				seq_printf(m, "%s %#llx\n", d->name, val);
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(regs);

static int __init test_sink_init(void)
{
	int ret = ete_sink_register(&test_sink_ops, NULL);
	char name[16];
	long cpu;

	if (ret)
		return ret;
	dir = debugfs_create_dir("ete_test_sink", NULL);
	debugfs_create_ulong("present", 0600, dir, &present_mask);
	debugfs_create_ulong("fail_start", 0600, dir, &fail_mask);
	debugfs_create_file("log", 0400, dir, NULL, &log_fops);
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "regs%ld", cpu);
		debugfs_create_file(name, 0400, dir, (void *)cpu, &regs_fops);
	}
	return 0;
}
module_init(test_sink_init);

static void __exit test_sink_exit(void)
{
	debugfs_remove_recursive(dir);
	ete_sink_unregister(&test_sink_ops, NULL);
}
module_exit(test_sink_exit);

MODULE_DESCRIPTION("Test trace sink for the ETE driver's selftests");
MODULE_LICENSE("GPL");
