// SPDX-License-Identifier: GPL-2.0
/*
 * Which CPUs a TRBE node serves: the pure part of claiming them (core.c
 * holds the lock and the record of what is claimed).
 */

#include <linux/cpumask.h>
#include <linux/errno.h>
#include <kunit/visibility.h>

#include <ete/trbe.h>

int trbe_claim_cpus(const struct cpumask *partition,
		    const struct cpumask *possible,
		    const struct cpumask *claimed, struct cpumask *out)
{
	if (!cpumask_and(out, partition, possible))
		return -ENODEV;
	if (cpumask_intersects(out, claimed))
		return -EBUSY;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_claim_cpus);
