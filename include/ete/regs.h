/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ETE, TRBE and related PE registers: the ids of the one register table.
 *
 * A trace unit register is named by its external-debug (MMIO) offset, which
 * is unique (seed 002 section 6: offset = 4 x register number).  The other
 * system registers the driver touches have no MMIO view; they get ids from
 * ETE_REG_SYSREG_BASE up.  Every access backend (system instructions,
 * CoreSight MMIO, the test model) takes these ids.  The rows of the table,
 * with counts, strides and access rules, are in <ete/regs-table.h>, so that
 * save/restore, the sysfs mirrors and the model's register file are driven
 * from one list.
 */
#ifndef _ETE_REGS_H
#define _ETE_REGS_H

#include <linux/bits.h>
#include <linux/types.h>

/* Register flags */
#define ETE_RF_RW		0
#define ETE_RF_RO		BIT(0)	/* a write is Reserved (RSVSNR) */
#define ETE_RF_WO		BIT(1)	/* a read is Reserved (RWXKDP) */
#define ETE_RF_SYS		BIT(2)	/* reachable by system instructions */
#define ETE_RF_MMIO		BIT(3)	/* reachable in the external-debug view */
#define ETE_RF_64		BIT(4)	/* 64-bit register (RVQWLY) */
#define ETE_RF_BOTH		(ETE_RF_SYS | ETE_RF_MMIO)

/* Trace unit registers: the MMIO offset of the register (or instance 0). */
#define ETE_TRCPRGCTLR			0x004
#define ETE_TRCSTATR			0x00c
#define ETE_TRCCONFIGR			0x010
#define ETE_TRCAUXCTLR			0x018
#define ETE_TRCEVENTCTL0R		0x020
#define ETE_TRCEVENTCTL1R		0x024
#define ETE_TRCRSR			0x028
#define ETE_TRCSTALLCTLR		0x02c
#define ETE_TRCTSCTLR			0x030
#define ETE_TRCSYNCPR			0x034
#define ETE_TRCCCCTLR			0x038
#define ETE_TRCBBCTLR			0x03c
#define ETE_TRCTRACEIDR			0x040
#define ETE_TRCQCTLR			0x044
#define ETE_TRCVICTLR			0x080
#define ETE_TRCVIIECTLR			0x084
#define ETE_TRCVISSCTLR			0x088
#define ETE_TRCVIPCSSCTLR		0x08c
#define ETE_TRCSEQEVR			0x100
#define ETE_TRCSEQRSTEVR		0x118
#define ETE_TRCSEQSTR			0x11c
#define ETE_TRCEXTINSELR		0x120
#define ETE_TRCCNTRLDVR			0x140
#define ETE_TRCCNTCTLR			0x150
#define ETE_TRCCNTVR			0x160
#define ETE_TRCIDR8			0x180
#define ETE_TRCIDR9			0x184
#define ETE_TRCIDR10			0x188
#define ETE_TRCIDR11			0x18c
#define ETE_TRCIDR12			0x190
#define ETE_TRCIDR13			0x194
#define ETE_TRCIDR0			0x1e0
#define ETE_TRCIDR1			0x1e4
#define ETE_TRCIDR2			0x1e8
#define ETE_TRCIDR3			0x1ec
#define ETE_TRCIDR4			0x1f0
#define ETE_TRCIDR5			0x1f4
#define ETE_TRCRSCTLR			0x200
#define ETE_TRCSSCCR			0x280
#define ETE_TRCSSCSR			0x2a0
#define ETE_TRCSSPCICR			0x2c0
#define ETE_TRCOSLAR			0x300
#define ETE_TRCOSLSR			0x304
#define ETE_TRCPDCR			0x310
#define ETE_TRCPDSR			0x314
#define ETE_TRCACVR			0x400
#define ETE_TRCACATR			0x480
#define ETE_TRCCIDCVR			0x600
#define ETE_TRCVMIDCVR			0x640
#define ETE_TRCCIDCCTLR0		0x680
#define ETE_TRCCIDCCTLR1		0x684
#define ETE_TRCVMIDCCTLR0		0x688
#define ETE_TRCVMIDCCTLR1		0x68c
#define ETE_TRCITCTRL			0xf00
#define ETE_TRCCLAIMSET			0xfa0
#define ETE_TRCCLAIMCLR			0xfa4
#define ETE_TRCDEVAFF			0xfa8
#define ETE_TRCLAR			0xfb0
#define ETE_TRCLSR			0xfb4
#define ETE_TRCAUTHSTATUS		0xfb8
#define ETE_TRCDEVARCH			0xfbc
#define ETE_TRCDEVID			0xfc8
#define ETE_TRCDEVTYPE			0xfcc
#define ETE_TRCPIDR4			0xfd0
#define ETE_TRCPIDR0			0xfe0
#define ETE_TRCPIDR1			0xfe4
#define ETE_TRCPIDR2			0xfe8
#define ETE_TRCPIDR3			0xfec
#define ETE_TRCCIDR0			0xff0
#define ETE_TRCCIDR1			0xff4
#define ETE_TRCCIDR2			0xff8
#define ETE_TRCCIDR3			0xffc

/* Instance n of an indexed trace unit register */
#define ETE_TRCSEQEVR_N(n)		(ETE_TRCSEQEVR + 4 * (n))
#define ETE_TRCEXTINSELR_N(n)		(ETE_TRCEXTINSELR + 4 * (n))
#define ETE_TRCCNTRLDVR_N(n)		(ETE_TRCCNTRLDVR + 4 * (n))
#define ETE_TRCCNTCTLR_N(n)		(ETE_TRCCNTCTLR + 4 * (n))
#define ETE_TRCCNTVR_N(n)		(ETE_TRCCNTVR + 4 * (n))
#define ETE_TRCRSCTLR_N(n)		(ETE_TRCRSCTLR + 4 * (n))
#define ETE_TRCSSCCR_N(n)		(ETE_TRCSSCCR + 4 * (n))
#define ETE_TRCSSCSR_N(n)		(ETE_TRCSSCSR + 4 * (n))
#define ETE_TRCSSPCICR_N(n)		(ETE_TRCSSPCICR + 4 * (n))
#define ETE_TRCACVR_N(n)		(ETE_TRCACVR + 8 * (n))
#define ETE_TRCACATR_N(n)		(ETE_TRCACATR + 8 * (n))
#define ETE_TRCCIDCVR_N(n)		(ETE_TRCCIDCVR + 8 * (n))
#define ETE_TRCVMIDCVR_N(n)		(ETE_TRCVMIDCVR + 8 * (n))

/* The last trace unit register id; PE system registers come after it. */
#define ETE_REG_TRC_LAST		0xffc
#define ETE_REG_SYSREG_BASE		0x1000

/*
 * PE system registers outside the trace unit that the driver reads or
 * writes, reached by system instructions only.  TRFCR_EL1 is the register
 * the kernel reaches through the TRFCR_EL1 encoding: TRFCR_EL2 when the
 * kernel runs at EL2 with HCR_EL2.E2H set (VHE).
 */
#define ETE_TRBLIMITR_EL1		0x1000
#define ETE_TRBPTR_EL1			0x1008
#define ETE_TRBBASER_EL1		0x1010
#define ETE_TRBSR_EL1			0x1018
#define ETE_TRBMAR_EL1			0x1020
#define ETE_TRBTRG_EL1			0x1028
#define ETE_TRBIDR_EL1			0x1030
#define ETE_TRFCR_EL1			0x1038
#define ETE_OSLAR_EL1			0x1040
#define ETE_OSLSR_EL1			0x1048
#define ETE_MIDR_EL1			0x1050
#define ETE_ID_AA64DFR0_EL1		0x1058
#define ETE_REG_LAST			ETE_ID_AA64DFR0_EL1

/* True for an id of the trace unit's own register file */
#define ETE_REG_IS_TRC(id)		((id) <= ETE_REG_TRC_LAST)

/**
 * struct ete_reg_desc - one row of the register table
 * @name: architectural name, without an index
 * @id: offset (trace unit registers) or id (PE system registers)
 * @count: number of indexed instances (1 for a single register)
 * @stride: bytes between instances
 * @flags: ETE_RF_* access rules and views
 *
 * Fill an array of these with
 *	#define ETE_REG(name, count, stride, flags) \
 *		{ #name, ETE_##name, count, stride, flags },
 *	#include <ete/regs-table.h>
 *	#undef ETE_REG
 */
struct ete_reg_desc {
	const char *name;
	u32 id;
	u8 count;
	u8 stride;
	u8 flags;
};

#endif /* _ETE_REGS_H */
