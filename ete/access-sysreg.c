// SPDX-License-Identifier: GPL-2.0
/*
 * The system-instruction backend: MRS/MSR on the owning CPU.
 *
 * Every encoding comes from the one explicit table <ete/sysreg-table.h>:
 * each row generates the register's MRS and MSR functions and its entry in
 * ete_sysreg_table[], sorted by id, so an id with no row cannot reach an
 * instruction and KUnit checks the very data the code uses.  The TRBE's
 * registers and TRFCR_EL1 take a shorter way to the same functions.  Callers check
 * ID_AA64DFR0_EL1 (always readable) before any TRC*, TRB* or TRFCR access:
 * on a PE without the feature those encodings UNDEF.
 */

#include <linux/bsearch.h>
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/smp.h>
#include <asm/barrier.h>
#include <asm/sysreg.h>
#include <kunit/visibility.h>

#include <ete/core.h>

#define ETE_DEFINE_MRS(name, o0, o1, n, m, o2)				\
static __always_inline u64 ete_mrs_##name(void)				\
{									\
	return read_sysreg_s(sys_reg(o0, o1, n, m, o2));		\
}

#define ETE_DEFINE_MSR(name, o0, o1, n, m, o2)				\
static __always_inline void ete_msr_##name(u64 val)			\
{									\
	write_sysreg_s(val, sys_reg(o0, o1, n, m, o2));			\
}

/* An MRS function for each readable row, then an MSR for each writable */
#define ETE_MRS_RW(name, o0, o1, n, m, o2) ETE_DEFINE_MRS(name, o0, o1, n, m, o2)
#define ETE_MRS_RO(name, o0, o1, n, m, o2) ETE_DEFINE_MRS(name, o0, o1, n, m, o2)
#define ETE_MRS_WO(name, o0, o1, n, m, o2)
#define X(acc, name, id, o0, o1, n, m, o2) ETE_MRS_##acc(name, o0, o1, n, m, o2)
#include <ete/sysreg-table.h>
#undef X

#define ETE_MSR_RW(name, o0, o1, n, m, o2) ETE_DEFINE_MSR(name, o0, o1, n, m, o2)
#define ETE_MSR_WO(name, o0, o1, n, m, o2) ETE_DEFINE_MSR(name, o0, o1, n, m, o2)
#define ETE_MSR_RO(name, o0, o1, n, m, o2)
#define X(acc, name, id, o0, o1, n, m, o2) ETE_MSR_##acc(name, o0, o1, n, m, o2)
#include <ete/sysreg-table.h>
#undef X

/* The encodings as data (for the KUnit cross-check and the search) */
const struct ete_sysreg_enc ete_sysreg_table[] = {
#define X(acc, name, _id, o0, o1, n, m, o2)				\
	{ .id = _id, .access = ETE_SYSREG_##acc, .op0 = o0, .op1 = o1,	\
	  .crn = n, .crm = m, .op2 = o2 },
#include <ete/sysreg-table.h>
#undef X
};
EXPORT_SYMBOL_IF_KUNIT(ete_sysreg_table);

const unsigned int ete_sysreg_table_size = ARRAY_SIZE(ete_sysreg_table);
EXPORT_SYMBOL_IF_KUNIT(ete_sysreg_table_size);

/* The functions, row for row with ete_sysreg_table[] */
#define ETE_RD_RW(name)		ete_mrs_##name
#define ETE_RD_RO(name)		ete_mrs_##name
#define ETE_RD_WO(name)		NULL
static u64 (*const ete_sysreg_rd[])(void) = {
#define X(acc, name, id, o0, o1, n, m, o2) ETE_RD_##acc(name),
#include <ete/sysreg-table.h>
#undef X
};

#define ETE_WR_RW(name)		ete_msr_##name
#define ETE_WR_WO(name)		ete_msr_##name
#define ETE_WR_RO(name)		NULL
static void (*const ete_sysreg_wr[])(u64 val) = {
#define X(acc, name, id, o0, o1, n, m, o2) ETE_WR_##acc(name),
#include <ete/sysreg-table.h>
#undef X
};

static int ete_sysreg_cmp(const void *key, const void *elt)
{
	u32 id = *(const u32 *)key;
	const struct ete_sysreg_enc *e = elt;

	return id < e->id ? -1 : id > e->id;
}

/**
 * ete_sysreg_find() - the encoding table row of a register
 * @reg: register id
 *
 * Context: any context.
 * Return: the row, or NULL if @reg has no system view.
 */
const struct ete_sysreg_enc *ete_sysreg_find(u32 reg)
{
	return bsearch(&reg, ete_sysreg_table, ARRAY_SIZE(ete_sysreg_table),
		       sizeof(ete_sysreg_table[0]), ete_sysreg_cmp);
}
EXPORT_SYMBOL_IF_KUNIT(ete_sysreg_find);

/**
 * ete_sysreg_can() - whether the backend has an MRS or MSR for a register
 * @reg: register id
 * @write: ask about MSR rather than MRS
 *
 * Context: any context.
 * Return: true if the instruction exists in the table.
 */
bool ete_sysreg_can(u32 reg, bool write)
{
	const struct ete_sysreg_enc *e = ete_sysreg_find(reg);

	if (!e)
		return false;
	if (write)
		return ete_sysreg_wr[e - ete_sysreg_table];
	return ete_sysreg_rd[e - ete_sysreg_table];
}
EXPORT_SYMBOL_IF_KUNIT(ete_sysreg_can);

/*
 * The TRBE's registers and TRFCR_EL1, which the TRBE interrupt, the flush
 * timer and CPU PM access in hard IRQ context: their MRS and MSR inlined,
 * with no search and no call through the table (as mainline's direct
 * sysreg accesses).  The functions are the table's own; static-checks.sh
 * checks the object code.  False for any other register.
 */
static __always_inline bool ete_sysreg_read_hot(u32 reg, u64 *val)
{
	switch (reg) {
	case ETE_TRBLIMITR_EL1:
		*val = ete_mrs_TRBLIMITR_EL1();
		return true;
	case ETE_TRBPTR_EL1:
		*val = ete_mrs_TRBPTR_EL1();
		return true;
	case ETE_TRBBASER_EL1:
		*val = ete_mrs_TRBBASER_EL1();
		return true;
	case ETE_TRBSR_EL1:
		*val = ete_mrs_TRBSR_EL1();
		return true;
	case ETE_TRBMAR_EL1:
		*val = ete_mrs_TRBMAR_EL1();
		return true;
	case ETE_TRBTRG_EL1:
		*val = ete_mrs_TRBTRG_EL1();
		return true;
	case ETE_TRFCR_EL1:
		*val = ete_mrs_TRFCR_EL1();
		return true;
	}
	return false;
}

static __always_inline bool ete_sysreg_write_hot(u32 reg, u64 val)
{
	switch (reg) {
	case ETE_TRBLIMITR_EL1:
		ete_msr_TRBLIMITR_EL1(val);
		return true;
	case ETE_TRBPTR_EL1:
		ete_msr_TRBPTR_EL1(val);
		return true;
	case ETE_TRBBASER_EL1:
		ete_msr_TRBBASER_EL1(val);
		return true;
	case ETE_TRBSR_EL1:
		ete_msr_TRBSR_EL1(val);
		return true;
	case ETE_TRBMAR_EL1:
		ete_msr_TRBMAR_EL1(val);
		return true;
	case ETE_TRBTRG_EL1:
		ete_msr_TRBTRG_EL1(val);
		return true;
	case ETE_TRFCR_EL1:
		ete_msr_TRFCR_EL1(val);
		return true;
	}
	return false;
}

static u64 ete_sysreg_read(const struct ete_access *acc, u32 reg)
{
	const struct ete_sysreg_enc *e;
	u64 val;

	WARN_ON_ONCE(acc->cpu != smp_processor_id());
	if (ete_sysreg_read_hot(reg, &val))
		return val;
	e = ete_sysreg_find(reg);
	if (WARN_ONCE(!e || !ete_sysreg_rd[e - ete_sysreg_table],
		      "ete: no MRS for register %#x\n", reg))
		return 0;
	return ete_sysreg_rd[e - ete_sysreg_table]();
}

static void ete_sysreg_write(const struct ete_access *acc, u32 reg, u64 val)
{
	const struct ete_sysreg_enc *e;

	WARN_ON_ONCE(acc->cpu != smp_processor_id());
	if (ete_sysreg_write_hot(reg, val))
		return;
	e = ete_sysreg_find(reg);
	if (WARN_ONCE(!e || !ete_sysreg_wr[e - ete_sysreg_table],
		      "ete: no MSR for register %#x\n", reg))
		return;
	ete_sysreg_wr[e - ete_sysreg_table](val);
}

static void ete_sysreg_sync(const struct ete_access *acc, enum ete_sync what)
{
	switch (what) {
	case ETE_SYNC_ISB:
		isb();
		break;
	case ETE_SYNC_DSB:
		dsb(nsh);
		break;
	case ETE_SYNC_TSB:
		tsb_csync();
		break;
	}
}

const struct ete_access_ops ete_sysreg_ops = {
	.read = ete_sysreg_read,
	.write = ete_sysreg_write,
	.sync = ete_sysreg_sync,
};
