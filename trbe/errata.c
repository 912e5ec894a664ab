// SPDX-License-Identifier: GPL-2.0
/*
 * The published TRBE errata, keyed by MIDR_EL1 range.
 *
 * Ranges as the kernel's arch/arm64/kernel/cpu_errata.c has them.  The
 * table is matched against the MIDR read through the access handle of each
 * CPU, not against the boot CPU's cpucaps, so a mixed SoC and the test
 * model (which can report an affected core's MIDR) get per-CPU answers.
 * Where that MIDR is the CPU's own, the kernel's matching decides, which
 * on 7.x also knows the parts a hypervisor says a guest may run on.
 */

#include <linux/kernel.h>
#include <asm/cputype.h>
#include <kunit/visibility.h>

#include <ete/compat.h>
#include <ete/trbe.h>

struct trbe_erratum_range {
	struct midr_range range;
	enum trbe_erratum erratum;
	const char *id;
};

#define TRBE_ERRATUM(e, num, r) { .range = r, .erratum = e, .id = num }

static const struct trbe_erratum_range trbe_errata_table[] = {
	/* Overwrite in fill mode */
	TRBE_ERRATUM(TRBE_ERR_OVERWRITE_FILL, "2139208",
		     MIDR_ALL_VERSIONS(MIDR_NEOVERSE_N2)),
	TRBE_ERRATUM(TRBE_ERR_OVERWRITE_FILL, "2139208",
		     MIDR_ALL_VERSIONS(MIDR_MICROSOFT_AZURE_COBALT_100)),
	TRBE_ERRATUM(TRBE_ERR_OVERWRITE_FILL, "2119858",
		     MIDR_ALL_VERSIONS(MIDR_CORTEX_A710)),
	TRBE_ERRATUM(TRBE_ERR_OVERWRITE_FILL, "2119858",
		     MIDR_RANGE(MIDR_CORTEX_X2, 0, 0, 2, 0)),
	/* Write out of range */
	TRBE_ERRATUM(TRBE_ERR_WRITE_OUT_OF_RANGE, "2253138",
		     MIDR_ALL_VERSIONS(MIDR_NEOVERSE_N2)),
	TRBE_ERRATUM(TRBE_ERR_WRITE_OUT_OF_RANGE, "2253138",
		     MIDR_ALL_VERSIONS(MIDR_MICROSOFT_AZURE_COBALT_100)),
	TRBE_ERRATUM(TRBE_ERR_WRITE_OUT_OF_RANGE, "2224489",
		     MIDR_ALL_VERSIONS(MIDR_CORTEX_A710)),
	TRBE_ERRATUM(TRBE_ERR_WRITE_OUT_OF_RANGE, "2224489",
		     MIDR_RANGE(MIDR_CORTEX_X2, 0, 0, 2, 0)),
	/* Cortex-A510 r0p0..r0p2 */
	TRBE_ERRATUM(TRBE_ERR_DRAIN_AFTER_DISABLE, "2064142",
		     MIDR_REV_RANGE(MIDR_CORTEX_A510, 0, 0, 2)),
	TRBE_ERRATUM(TRBE_ERR_SYNC_AFTER_ENABLE, "2038923",
		     MIDR_REV_RANGE(MIDR_CORTEX_A510, 0, 0, 2)),
	/* Cortex-A510 r0p0..r0p1: the TRBE corrupts trace */
	TRBE_ERRATUM(TRBE_ERR_BROKEN, "1902691",
		     MIDR_REV_RANGE(MIDR_CORTEX_A510, 0, 0, 1)),
	/* TSB CSYNC may fail to flush */
	TRBE_ERRATUM(TRBE_ERR_TSB_FLUSH, "2067961",
		     MIDR_ALL_VERSIONS(MIDR_NEOVERSE_N2)),
	TRBE_ERRATUM(TRBE_ERR_TSB_FLUSH, "2067961",
		     MIDR_ALL_VERSIONS(MIDR_MICROSOFT_AZURE_COBALT_100)),
	TRBE_ERRATUM(TRBE_ERR_TSB_FLUSH, "2054223",
		     MIDR_ALL_VERSIONS(MIDR_CORTEX_A710)),
};

static const char * const trbe_erratum_names[TRBE_ERR_COUNT] = {
	[TRBE_ERR_OVERWRITE_FILL] = "overwrite in fill mode (2119858/2139208)",
	[TRBE_ERR_WRITE_OUT_OF_RANGE] = "write out of range (2224489/2253138)",
	[TRBE_ERR_DRAIN_AFTER_DISABLE] = "drain after disable (2064142)",
	[TRBE_ERR_SYNC_AFTER_ENABLE] = "sync after enable (2038923)",
	[TRBE_ERR_BROKEN] = "trace corruption (1902691)",
	[TRBE_ERR_TSB_FLUSH] = "TSB CSYNC flush (2054223/2067961)",
};

/**
 * trbe_errata_for_midr() - the errata that apply to a core
 * @midr: the MIDR_EL1 value of the CPU
 *
 * Context: any; pure.
 * Return: a bitmap of &enum trbe_erratum.
 */
unsigned long trbe_errata_for_midr(u32 midr)
{
	unsigned long errata = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(trbe_errata_table); i++) {
		const struct midr_range *r = &trbe_errata_table[i].range;

		if (midr_is_cpu_model_range(midr, r->model, r->rv_min,
					    r->rv_max))
			errata |= BIT(trbe_errata_table[i].erratum);
	}
	return errata;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_errata_for_midr);

/**
 * trbe_errata_for_cpu() - the errata that apply to this CPU's TRBE
 * @midr: the MIDR_EL1 this CPU's access handle reads
 *
 * A TRBE reached through the system registers reads the CPU's own
 * MIDR_EL1; its errata are the ones the kernel applies to this CPU, as
 * the kernel's cpucaps (coresight-trbe.c's test) have them: from Linux
 * 6.15 those of every part on the target-implementation list a hypervisor
 * gives a guest that may migrate, where there is one, and of MIDR_EL1
 * otherwise (what trbe_errata_for_midr() gives).  The model standing in
 * for another part reads that part's MIDR: its errata are that part's.
 *
 * Context: on the CPU, preemption disabled.
 * Return: a bitmap of &enum trbe_erratum.
 */
unsigned long trbe_errata_for_cpu(u32 midr)
{
	unsigned long errata = 0;
	int i;

	if (midr != read_cpuid_id())
		return trbe_errata_for_midr(midr);
	for (i = 0; i < ARRAY_SIZE(trbe_errata_table); i++)
		if (ete_compat_cpu_in_midr_range(&trbe_errata_table[i].range))
			errata |= BIT(trbe_errata_table[i].erratum);
	return errata;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_errata_for_cpu);

/**
 * trbe_erratum_name() - describe an erratum for the log
 * @e: the erratum
 *
 * Context: any; pure.
 * Return: a constant string.
 */
const char *trbe_erratum_name(enum trbe_erratum e)
{
	if (e >= TRBE_ERR_COUNT)
		return "unknown";
	return trbe_erratum_names[e];
}
EXPORT_SYMBOL_IF_KUNIT(trbe_erratum_name);
