// SPDX-License-Identifier: GPL-2.0
/*
 * The system-instruction backend: MRS/MSR on the owning CPU.
 *
 * Every encoding comes from the one explicit table <ete/sysreg-table.h>;
 * the switch statements below are generated from it, so an id with no row
 * cannot reach an instruction.  Callers check ID_AA64DFR0_EL1 (always
 * readable) before any TRC*, TRB* or TRFCR access: on a PE without the
 * feature those encodings UNDEF.
 */

#include <linux/bug.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/smp.h>
#include <asm/barrier.h>
#include <asm/sysreg.h>
#include <kunit/visibility.h>

#include <ete/core.h>

static u64 ete_sysreg_read(const struct ete_access *acc, u32 reg)
{
	WARN_ON_ONCE(acc->cpu != smp_processor_id());

	switch (reg) {
#define X_RW(id, o0, o1, n, m, o2)					\
	case id:							\
		return read_sysreg_s(sys_reg(o0, o1, n, m, o2));
#define X_RO(id, o0, o1, n, m, o2)	X_RW(id, o0, o1, n, m, o2)
#define X_WO(id, o0, o1, n, m, o2)
#define X(acc, id, o0, o1, n, m, o2)	X_##acc(id, o0, o1, n, m, o2)
#include <ete/sysreg-table.h>
#undef X
#undef X_WO
#undef X_RO
#undef X_RW
	default:
		WARN_ONCE(1, "ete: no readable system register %#x\n", reg);
		return 0;
	}
}

static void ete_sysreg_write(const struct ete_access *acc, u32 reg, u64 val)
{
	WARN_ON_ONCE(acc->cpu != smp_processor_id());

	switch (reg) {
#define X_RW(id, o0, o1, n, m, o2)					\
	case id:							\
		write_sysreg_s(val, sys_reg(o0, o1, n, m, o2));		\
		return;
#define X_WO(id, o0, o1, n, m, o2)	X_RW(id, o0, o1, n, m, o2)
#define X_RO(id, o0, o1, n, m, o2)
#define X(acc, id, o0, o1, n, m, o2)	X_##acc(id, o0, o1, n, m, o2)
#include <ete/sysreg-table.h>
#undef X
#undef X_WO
#undef X_RO
#undef X_RW
	default:
		WARN_ONCE(1, "ete: no writable system register %#x\n", reg);
	}
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

/* The encoding table as data, for the KUnit cross-check */
const struct ete_sysreg_enc ete_sysreg_table[] = {
#define X(acc, id, o0, o1, n, m, o2)					\
	{ id, ETE_SYSREG_##acc, o0, o1, n, m, o2 },
#include <ete/sysreg-table.h>
#undef X
};
EXPORT_SYMBOL_IF_KUNIT(ete_sysreg_table);

const unsigned int ete_sysreg_table_size = ARRAY_SIZE(ete_sysreg_table);
EXPORT_SYMBOL_IF_KUNIT(ete_sysreg_table_size);
