// SPDX-License-Identifier: GPL-2.0
/*
 * The TRBE interrupt in the ACPI MADT, parsed from the table's bytes.
 *
 * ACPI 6.5 lengthened the GICC structure (type 0x0B) to 84 bytes, the last
 * two the TRBE interrupt GSIV: a level-triggered PPI, 0 when the processor
 * has no TRBE.  Linux 6.1's ACPICA (struct acpi_madt_generic_interrupt)
 * ends at the SPE field, and the kernel's per-CPU copies of the GICC
 * entries are that size, so the field is read here from the table itself,
 * at its offset, once the entry's length says it is there.
 *
 * Pure: no side effects, every read bounded by the table's own lengths and
 * by @size, so a truncated or malformed table is refused, never overrun.
 * KUnit (tests/trbe_madt_test.c) feeds it crafted tables.
 */

#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ete/compat.h>

#include "madt.h"

#define TRBE_MADT_LEN_OFF	4
#define TRBE_MADT_SUM_OFF	9

/* PPIs: INTIDs 16-31, and 1056-1119 with the GICv3.1 extended PPI range */
static bool trbe_gsiv_is_ppi(u16 gsiv)
{
	return (gsiv >= 16 && gsiv <= 31) || (gsiv >= 1056 && gsiv <= 1119);
}

static int trbe_madt_malformed(struct trbe_madt_info *info, u32 off)
{
	info->verdict = TRBE_MADT_MALFORMED;
	info->off = off;
	return -EINVAL;
}

/*
 * One GICC entry @e of @len bytes (at least the ACPI 5.1 size).  Returns
 * -EINVAL on a mismatch with the first usable entry, else 0.
 */
static int trbe_madt_gicc(const u8 *e, u8 len, struct trbe_madt_info *info)
{
	u32 flags = get_unaligned_le32(e + TRBE_MADT_GICC_FLAGS);
	u32 uid = get_unaligned_le32(e + TRBE_MADT_GICC_UID);
	bool has_field = len >= TRBE_MADT_GICC_TRBE_LEN;
	u16 gsiv = 0;

	if (!(flags & (TRBE_MADT_GICC_ENABLED | TRBE_MADT_GICC_ONLINE_CAPABLE)))
		return 0;	/* a processor that can never run */
	if (has_field)
		gsiv = get_unaligned_le16(e + TRBE_MADT_GICC_TRBE);
	if (!info->nr_gicc++) {
		info->ref_uid = uid;
		info->ref_gsiv = gsiv;
		info->ref_has_field = has_field;
		return 0;
	}
	if (has_field == info->ref_has_field && gsiv == info->ref_gsiv)
		return 0;
	info->verdict = TRBE_MADT_MISMATCH;
	info->uid = uid;
	info->gsiv = gsiv;
	info->has_field = has_field;
	return -EINVAL;
}

/* The verdict once every entry agreed */
static int trbe_madt_conclude(struct trbe_madt_info *info)
{
	info->uid = info->ref_uid;
	info->gsiv = info->ref_gsiv;
	info->has_field = info->ref_has_field;
	if (!info->nr_gicc || !info->ref_has_field) {
		info->verdict = TRBE_MADT_NO_FIELD;
		return -ENODEV;
	}
	if (!info->ref_gsiv) {
		info->verdict = TRBE_MADT_NONE;
		return -ENODEV;
	}
	if (!trbe_gsiv_is_ppi(info->ref_gsiv)) {
		info->verdict = TRBE_MADT_NOT_PPI;
		return -EINVAL;
	}
	info->verdict = TRBE_MADT_GSIV;
	return 0;
}

/**
 * trbe_madt_parse() - find the TRBE interrupt in a MADT
 * @table: the table, from its signature
 * @size: bytes readable at @table
 * @info: the result, with what to say in the log
 *
 * Checks the header (signature, a length within @size, the checksum), walks
 * the subtables by their lengths, and compares the TRBE field of every GICC
 * entry whose processor is enabled or online capable.
 *
 * Context: any context.
 * Return:
 * * 0: @info->gsiv is the TRBE PPI of every CPU
 * * -ENODEV: no TRBE interrupt (no field, or 0 everywhere)
 * * -EINVAL: refused: malformed, entries disagree, or not a PPI
 */
int trbe_madt_parse(const void *table, size_t size,
		    struct trbe_madt_info *info)
{
	const u8 *t = table;
	u32 len, off, i;
	u8 sum = 0;
	int ret;

	memset(info, 0, sizeof(*info));
	if (size < TRBE_MADT_HDR_LEN || memcmp(t, "APIC", 4))
		return trbe_madt_malformed(info, 0);
	len = get_unaligned_le32(t + TRBE_MADT_LEN_OFF);
	if (len < TRBE_MADT_HDR_LEN || len > size)
		return trbe_madt_malformed(info, TRBE_MADT_LEN_OFF);
	for (i = 0; i < len; i++)
		sum += t[i];
	if (sum)
		return trbe_madt_malformed(info, TRBE_MADT_SUM_OFF);

	for (off = TRBE_MADT_HDR_LEN; off < len; off += t[off + 1]) {
		if (len - off < 2 || t[off + 1] < 2 || t[off + 1] > len - off)
			return trbe_madt_malformed(info, off);
		if (t[off] != TRBE_MADT_TYPE_GICC)
			continue;
		if (t[off + 1] < TRBE_MADT_GICC_MIN_LEN)
			return trbe_madt_malformed(info, off);
		ret = trbe_madt_gicc(t + off, t[off + 1], info);
		if (ret)
			return ret;
	}
	return trbe_madt_conclude(info);
}
EXPORT_SYMBOL_IF_KUNIT(trbe_madt_parse);

/**
 * trbe_madt_verdict_name() - a verdict in words, for the log
 * @v: the verdict
 *
 * Context: any context.
 * Return: a string constant.
 */
const char *trbe_madt_verdict_name(enum trbe_madt_verdict v)
{
	static const char * const names[] = {
		[TRBE_MADT_GSIV] = "TRBE interrupt found",
		[TRBE_MADT_NO_FIELD] = "no GICC TRBE interrupt field (MADT before ACPI 6.5)",
		[TRBE_MADT_NONE] = "no processor has a TRBE interrupt",
		[TRBE_MADT_MISMATCH] = "TRBE interrupts differ between processors",
		[TRBE_MADT_NOT_PPI] = "TRBE interrupt is not a PPI",
		[TRBE_MADT_MALFORMED] = "malformed MADT",
	};

	if (v >= ARRAY_SIZE(names) || !names[v])
		return "?";
	return names[v];
}
EXPORT_SYMBOL_IF_KUNIT(trbe_madt_verdict_name);
