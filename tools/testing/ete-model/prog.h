/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's workload: a fixed program image of real AArch64 instructions
 * in two regions (a user one at EL0 and a kernel one at the kernel's EL)
 * and a walker that executes it block by block, deciding conditional
 * branches and indirect branch targets with a seeded generator.
 */
#ifndef _ETE_MODEL_PROG_H
#define _ETE_MODEL_PROG_H

#include <linux/types.h>

#define EM_PROG_REGION_SIZE	4096
#define EM_PROG_USER_VA		0x0000aaaa00000000ULL
#define EM_PROG_KERN_VA		0xffff800008010000ULL
#define EM_PROG_VECTOR		0x400	/* lower EL, AArch64, synchronous */
#define EM_PROG_NR_REGIONS	2
#define EM_PROG_MAX_BLOCK	32	/* instructions in one block, at most */
#define EM_PROG_STACK		8	/* shadow call stack of the walker */

/**
 * struct em_prog_region - one region of the program image
 * @name: "el0" or "el1" (the kernel's region, run at EL2 under VHE)
 * @va: virtual address of its first byte
 * @words: its instructions, EM_PROG_REGION_SIZE / 4 of them
 */
struct em_prog_region {
	const char *name;
	u64 va;
	const u32 *words;
};

/**
 * enum em_wp - how a block ends: the kind of its last instruction
 * @EM_WP_DIRECT: B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ (taken or not)
 * @EM_WP_INDIRECT: BR, BLR, RET
 * @EM_WP_EXCEPTION: SVC: an exception taken to the kernel's vector
 * @EM_WP_ERET: ERET back to the user region
 */
enum em_wp {
	EM_WP_DIRECT,
	EM_WP_INDIRECT,
	EM_WP_EXCEPTION,
	EM_WP_ERET,
};

/**
 * struct em_block - one executed block: instructions up to a waypoint
 * @start: address of its first instruction
 * @end: address after its last instruction (the waypoint, or the SVC)
 * @n: number of instructions
 * @el: exception level it executed at (0, or the kernel's)
 * @kind: what its last instruction is
 * @taken: the branch was taken (always true but for a failed condition)
 * @link: the branch wrote the link register (BL, BLR)
 * @ret: the branch is a RET
 * @next: address of the next instruction executed
 * @next_el: exception level of @next
 */
struct em_block {
	u64 start;
	u64 end;
	unsigned int n;
	u8 el;
	u8 kind;
	bool taken;
	bool link;
	bool ret;
	u64 next;
	u8 next_el;
};

/**
 * struct em_walk_regs - the registers and flags the walker follows
 * @x1: loop counter (MOVZ, SUBS)
 * @x16: indirect call target (ADR, BLR)
 * @x17: indirect jump target (ADR, BR)
 * @x30: link register (BL, BLR, LDP; read by RET)
 * @z: Z flag (SUBS; read by B.NE)
 */
struct em_walk_regs {
	u64 x1;
	u64 x16;
	u64 x17;
	u64 x30;
	bool z;
};

/**
 * struct em_walk - the walker: the PE's state as the program sees it
 * @pc: next instruction
 * @el: current exception level
 * @kernel_el: the kernel's exception level (1, or 2 under VHE)
 * @elr: return address of the exception being handled
 * @stack: return addresses of the calls in progress, innermost last
 * @depth: entries in @stack
 * @rnd: xorshift32 state, never 0
 * @regs: the registers it follows
 */
struct em_walk {
	u64 pc;
	u8 el;
	u8 kernel_el;
	u64 elr;
	u64 stack[EM_PROG_STACK];
	unsigned int depth;
	u32 rnd;
	struct em_walk_regs regs;
};

extern const struct em_prog_region em_prog_regions[EM_PROG_NR_REGIONS];

/**
 * struct em_prog_sym - a function of the program image
 * @name: its name, as a symbol table would give it
 * @va: address of its first instruction
 * @size: bytes
 */
struct em_prog_sym {
	const char *name;
	u64 va;
	u32 size;
};

extern const struct em_prog_sym em_prog_syms[];
extern const unsigned int em_prog_nr_syms;

void em_walk_init(struct em_walk *w, u32 seed, u8 kernel_el);
int em_walk_step(struct em_walk *w, struct em_block *b);
int em_prog_fetch(u64 va, u32 *insn);

#endif /* _ETE_MODEL_PROG_H */
