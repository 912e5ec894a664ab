/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TRBE interrupt in the ACPI MADT: a pure parser of the table bytes
 * (madt.c) and the firmware discovery that uses it (acpi.c).
 */
#ifndef _TRBE_MADT_H
#define _TRBE_MADT_H

#include <linux/bits.h>
#include <linux/types.h>

/* MADT layout (ACPI 6.5, 5.2.12): header, then subtables {type, length} */
#define TRBE_MADT_HDR_LEN		44
#define TRBE_MADT_TYPE_GICC		0x0b
/* The smallest GICC entry (ACPI 5.1) and the first one with the TRBE field */
#define TRBE_MADT_GICC_MIN_LEN		76
#define TRBE_MADT_GICC_TRBE_LEN		84
/* Offsets in a GICC entry */
#define TRBE_MADT_GICC_UID		8
#define TRBE_MADT_GICC_FLAGS		12
#define TRBE_MADT_GICC_TRBE		82
/* GICC flags: Enabled; Online Capable (ACPI 6.5) */
#define TRBE_MADT_GICC_ENABLED		BIT(0)
#define TRBE_MADT_GICC_ONLINE_CAPABLE	BIT(3)

/**
 * enum trbe_madt_verdict - what a MADT says about the TRBE interrupt
 * @TRBE_MADT_GSIV: every usable GICC entry gives the same PPI, @gsiv
 * @TRBE_MADT_NO_FIELD: no usable GICC entry is long enough to carry the
 *	field (the table predates ACPI 6.5): no TRBE interrupt
 * @TRBE_MADT_NONE: every usable GICC entry gives 0: no TRBE
 * @TRBE_MADT_MISMATCH: entry @uid gives @gsiv (or lacks the field,
 *	@has_field false) where entry @ref_uid gives @ref_gsiv
 * @TRBE_MADT_NOT_PPI: @gsiv, given by every entry, is not a PPI
 * @TRBE_MADT_MALFORMED: the table is malformed at byte @off
 */
enum trbe_madt_verdict {
	TRBE_MADT_GSIV,
	TRBE_MADT_NO_FIELD,
	TRBE_MADT_NONE,
	TRBE_MADT_MISMATCH,
	TRBE_MADT_NOT_PPI,
	TRBE_MADT_MALFORMED,
};

/**
 * struct trbe_madt_info - the result of trbe_madt_parse()
 * @verdict: what the table says
 * @gsiv: the TRBE GSIV (the mismatching entry's for %TRBE_MADT_MISMATCH)
 * @uid: ACPI Processor UID of the entry that decided the verdict
 * @has_field: that entry carries the TRBE field
 * @ref_gsiv: the first usable entry's GSIV, compared with the others
 * @ref_uid: the first usable entry's ACPI Processor UID
 * @ref_has_field: the first usable entry carries the TRBE field
 * @off: byte offset of the fault, for %TRBE_MADT_MALFORMED
 * @nr_gicc: usable GICC entries seen
 */
struct trbe_madt_info {
	enum trbe_madt_verdict verdict;
	u16 gsiv;
	u32 uid;
	bool has_field;
	u16 ref_gsiv;
	u32 ref_uid;
	bool ref_has_field;
	u32 off;
	unsigned int nr_gicc;
};

int trbe_madt_parse(const void *table, size_t size,
		    struct trbe_madt_info *info);
const char *trbe_madt_verdict_name(enum trbe_madt_verdict v);

#ifdef CONFIG_ACPI
int trbe_acpi_init(void);
void trbe_acpi_exit(void);
#else
static inline int trbe_acpi_init(void) { return 0; }
static inline void trbe_acpi_exit(void) { }
#endif

#endif /* _TRBE_MADT_H */
