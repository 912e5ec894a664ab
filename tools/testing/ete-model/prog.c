// SPDX-License-Identifier: GPL-2.0
/*
 * The model's workload (Documentation/model.rst, "The program"): a program
 * image of real AArch64 instructions and a walker that executes it.  Pure:
 * no state outside the struct em_walk the caller owns.
 *
 * The walker decodes each instruction it executes.  It follows the
 * registers that decide control flow: X16/X17 (written by ADR, read by
 * BR/BLR), X30 (written by BL/BLR, saved and restored by the STP/LDP of
 * X29/X30 pairs, read by RET), X1 and the Z flag (MOVZ, SUBS, B.NE: the
 * loop) and ELR (SVC, ERET).  The other registers the program tests (CBZ,
 * CBNZ, TBZ, TBNZ on X0, X2..X5) stand for data the model does not
 * compute: their outcome comes from a xorshift32 generator seeded per CPU,
 * so a walk is a deterministic function of the seed.
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "prog.h"

/* Encodings, offsets in instructions from @f (the branch) to @t */
#define I_NOP		0xd503201f
#define I_ADD_X0	0x91000400	/* add x0, x0, #1 */
#define I_MOVZ_X1(k)	(0xd2800001 | ((k) << 5))	/* movz x1, #k */
#define I_SUBS_X1	0xf1000421	/* subs x1, x1, #1 */
#define I_STP_FP_LR	0xa9bf7bfd	/* stp x29, x30, [sp, #-16]! */
#define I_LDP_FP_LR	0xa8c17bfd	/* ldp x29, x30, [sp], #16 */
#define I_SVC0		0xd4000001
#define I_ERET		0xd69f03e0
#define I_RET		0xd65f03c0
#define I_BR(n)		(0xd61f0000 | ((n) << 5))
#define I_BLR(n)	(0xd63f0000 | ((n) << 5))
#define I_B(f, t)	(0x14000000 | (((t) - (f)) & 0x03ffffff))
#define I_BL(f, t)	(0x94000000 | (((t) - (f)) & 0x03ffffff))
#define I_BNE(f, t)	(0x54000001 | ((((t) - (f)) & 0x7ffff) << 5))
#define I_CBZ(f, t, r)	(0xb4000000 | ((((t) - (f)) & 0x7ffff) << 5) | (r))
#define I_CBNZ(f, t, r)	(0xb5000000 | ((((t) - (f)) & 0x7ffff) << 5) | (r))
#define I_TBZ(f, t, r, b) \
	(0x36000000 | ((b) << 19) | ((((t) - (f)) & 0x3fff) << 5) | (r))
#define I_TBNZ(f, t, r, b) (I_TBZ(f, t, r, b) | BIT(24))
/* ADR: an offset of whole instructions leaves immlo 0 */
#define I_ADR(f, t, r)	(0x10000000 | ((((t) - (f)) & 0x7ffff) << 5) | (r))

/* The user region: a main loop with calls, a loop, an indirect call, SVC */
enum {
	U_MAIN = 0, U_SKIP = 5, U_LOOP = 6, U_CALL = 12, U_JUMP = 17,
	U_LEAF = 18, U_MID = 20, U_ALT = 26,
};

static const u32 em_prog_user[EM_PROG_REGION_SIZE / 4] = {
	[0] = I_ADD_X0,
	[1] = I_BL(1, U_LEAF),
	[2] = I_CBZ(2, U_SKIP, 2),
	[3] = I_ADD_X0,
	[4] = I_NOP,
	[U_SKIP] = I_MOVZ_X1(4),
	[U_LOOP] = I_ADD_X0,
	[7] = I_SUBS_X1,
	[8] = I_BNE(8, U_LOOP),
	[9] = I_ADR(9, U_LEAF, 16),
	[10] = I_CBZ(10, U_CALL, 3),
	[11] = I_ADR(11, U_MID, 16),
	[U_CALL] = I_BLR(16),
	[13] = I_SVC0,
	[14] = I_ADR(14, U_MAIN, 17),
	[15] = I_TBZ(15, U_JUMP, 4, 0),
	[16] = I_ADR(16, U_ALT, 17),
	[U_JUMP] = I_BR(17),
	[U_LEAF] = I_ADD_X0,
	[19] = I_RET,
	[U_MID] = I_STP_FP_LR,
	[21] = I_BL(21, U_LEAF),
	[22] = I_CBNZ(22, 24, 0),
	[23] = I_NOP,
	[24] = I_LDP_FP_LR,
	[25] = I_RET,
	[U_ALT] = I_NOP,
	[27] = I_B(27, U_MAIN),
};

/* The kernel region: the SVC handler at the vector, calls, a loop, ERET */
enum {
	K_VEC = EM_PROG_VECTOR / 4, K_LEAF = K_VEC + 10, K_MID = K_VEC + 12,
	K_LOOP = K_VEC + 14,
};

static const u32 em_prog_kern[EM_PROG_REGION_SIZE / 4] = {
	[K_VEC] = I_STP_FP_LR,
	[K_VEC + 1] = I_ADD_X0,
	[K_VEC + 2] = I_CBZ(K_VEC + 2, K_VEC + 4, 3),
	[K_VEC + 3] = I_BL(K_VEC + 3, K_LEAF),
	[K_VEC + 4] = I_ADR(K_VEC + 4, K_LEAF, 16),
	[K_VEC + 5] = I_TBNZ(K_VEC + 5, K_VEC + 7, 5, 1),
	[K_VEC + 6] = I_ADR(K_VEC + 6, K_MID, 16),
	[K_VEC + 7] = I_BLR(16),
	[K_VEC + 8] = I_LDP_FP_LR,
	[K_VEC + 9] = I_ERET,
	[K_LEAF] = I_ADD_X0,
	[K_LEAF + 1] = I_RET,
	[K_MID] = I_STP_FP_LR,
	[K_MID + 1] = I_MOVZ_X1(3),
	[K_LOOP] = I_BL(K_LOOP, K_LEAF),
	[K_LOOP + 1] = I_SUBS_X1,
	[K_LOOP + 2] = I_BNE(K_LOOP + 2, K_LOOP),
	[K_LOOP + 3] = I_LDP_FP_LR,
	[K_LOOP + 4] = I_RET,
};

const struct em_prog_region em_prog_regions[EM_PROG_NR_REGIONS] = {
	{ .name = "el1", .va = EM_PROG_KERN_VA, .words = em_prog_kern },
	{ .name = "el0", .va = EM_PROG_USER_VA, .words = em_prog_user },
};
EXPORT_SYMBOL_IF_KUNIT(em_prog_regions);

#define EM_SYM(n, base, first, nwords)	\
	{ .name = n, .va = (base) + 4 * (first), .size = 4 * (nwords) }

/*
 * The functions of the two regions, what a symbol table of the program
 * would say: each from its entry to its last instruction, branch targets
 * inside a function (loops, the skip and the jump) not functions of their
 * own.  debugfs program/symbols lists them for the decoders (e2e tests).
 */
const struct em_prog_sym em_prog_syms[] = {
	EM_SYM("user_main", EM_PROG_USER_VA, U_MAIN, U_JUMP - U_MAIN + 1),
	EM_SYM("user_leaf", EM_PROG_USER_VA, U_LEAF, 2),
	EM_SYM("user_mid", EM_PROG_USER_VA, U_MID, 6),
	EM_SYM("user_alt", EM_PROG_USER_VA, U_ALT, 2),
	EM_SYM("kernel_svc_entry", EM_PROG_KERN_VA, K_VEC, 10),
	EM_SYM("kernel_leaf", EM_PROG_KERN_VA, K_LEAF, 2),
	EM_SYM("kernel_mid", EM_PROG_KERN_VA, K_MID, K_LOOP + 5 - K_MID),
};
EXPORT_SYMBOL_IF_KUNIT(em_prog_syms);

const unsigned int em_prog_nr_syms = ARRAY_SIZE(em_prog_syms);
EXPORT_SYMBOL_IF_KUNIT(em_prog_nr_syms);

/**
 * em_prog_fetch() - read an instruction of the program image
 * @va: its address
 * @insn: output
 *
 * Context: any.
 * Return: 0, or -EFAULT outside the image or for an unaligned @va.
 */
int em_prog_fetch(u64 va, u32 *insn)
{
	unsigned int i;

	for (i = 0; i < EM_PROG_NR_REGIONS; i++) {
		const struct em_prog_region *r = &em_prog_regions[i];

		if (va >= r->va && va < r->va + EM_PROG_REGION_SIZE &&
		    !(va & 3)) {
			*insn = r->words[(va - r->va) / 4];
			return 0;
		}
	}
	return -EFAULT;
}
EXPORT_SYMBOL_IF_KUNIT(em_prog_fetch);

static u32 em_walk_rand(struct em_walk *w)
{
	u32 x = w->rnd;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	w->rnd = x;
	return x;
}

/**
 * em_walk_init() - the PE at the start of the user program
 * @w: the walker
 * @seed: seed of the data-dependent outcomes
 * @kernel_el: the kernel's exception level (1, or 2 under VHE)
 *
 * Context: any.
 */
void em_walk_init(struct em_walk *w, u32 seed, u8 kernel_el)
{
	memset(w, 0, sizeof(*w));
	w->pc = EM_PROG_USER_VA + U_MAIN * 4;
	w->el = 0;
	w->kernel_el = kernel_el;
	w->rnd = seed ? seed : 0x9e3779b9;
}
EXPORT_SYMBOL_IF_KUNIT(em_walk_init);

static s64 sext(u64 v, unsigned int bits)
{
	return (s64)(v << (64 - bits)) >> (64 - bits);
}

/*
 * One instruction at @pc: 1 if it ends the block (filled in @b), 0 if
 * execution goes on at @pc + 4, negative on an instruction or state the
 * program never has.
 */
static int em_exec(struct em_walk *w, struct em_walk_regs *r, u64 pc, u32 op,
		   struct em_block *b)
{
	u64 next = pc + 4;

	b->taken = true;
	b->link = false;
	b->ret = false;
	b->next_el = w->el;
	if ((op & 0x7c000000) == 0x14000000) {		/* B, BL */
		b->kind = EM_WP_DIRECT;
		b->link = op & BIT(31);
		b->next = pc + sext((op & 0x03ffffff) << 2, 28);
		if (b->link)
			r->x30 = next;
		return 1;
	}
	if ((op & 0xff000010) == 0x54000000 ||		/* B.cond */
	    (op & 0x7e000000) == 0x34000000) {		/* CBZ, CBNZ */
		b->kind = EM_WP_DIRECT;
		if ((op & 0xff00001f) == 0x54000001)	/* B.NE */
			b->taken = !r->z;
		else
			b->taken = em_walk_rand(w) & 1;
		b->next = b->taken ? pc + sext(((op >> 5) & 0x7ffff) << 2, 21)
				   : next;
		return 1;
	}
	if ((op & 0x7e000000) == 0x36000000) {		/* TBZ, TBNZ */
		b->kind = EM_WP_DIRECT;
		b->taken = em_walk_rand(w) & 1;
		b->next = b->taken ? pc + sext(((op >> 5) & 0x3fff) << 2, 16)
				   : next;
		return 1;
	}
	if ((op & 0xff9ffc1f) == 0xd61f0000) {		/* BR, BLR, RET */
		unsigned int n = (op >> 5) & 0x1f;
		u64 target = n == 16 ? r->x16 : n == 17 ? r->x17 :
			     n == 30 ? r->x30 : 0;

		if (!target)
			return -EINVAL;
		b->kind = EM_WP_INDIRECT;
		b->link = (op >> 21) == 0x6b1;		/* BLR */
		b->ret = (op >> 21) == 0x6b2;		/* RET */
		b->next = target;
		if (b->link)
			r->x30 = next;
		return 1;
	}
	if (op == I_ERET) {
		if (w->el != w->kernel_el)
			return -EINVAL;
		b->kind = EM_WP_ERET;
		b->next = w->elr;
		b->next_el = 0;
		return 1;
	}
	if (op == I_SVC0) {
		if (w->el)
			return -EINVAL;
		b->kind = EM_WP_EXCEPTION;
		w->elr = next;
		b->next = EM_PROG_KERN_VA + EM_PROG_VECTOR;
		b->next_el = w->kernel_el;
		return 1;
	}
	if ((op & 0x9f000000) == 0x10000000) {		/* ADR */
		u64 off = ((op >> 29) & 3) | (((op >> 5) & 0x7ffff) << 2);
		unsigned int rd = op & 0x1f;

		off = pc + sext(off, 21);
		if (rd == 16)
			r->x16 = off;
		else if (rd == 17)
			r->x17 = off;
		return 0;
	}
	switch (op) {
	case I_STP_FP_LR:
		if (w->depth == EM_PROG_STACK)
			return -EOVERFLOW;
		w->stack[w->depth++] = r->x30;
		return 0;
	case I_LDP_FP_LR:
		if (!w->depth)
			return -EINVAL;
		r->x30 = w->stack[--w->depth];
		return 0;
	case I_SUBS_X1:
		r->x1--;
		r->z = !r->x1;
		return 0;
	case I_NOP:
	case I_ADD_X0:
		return 0;
	}
	if ((op & 0xffe0001f) == 0xd2800001) {		/* MOVZ X1 */
		r->x1 = (op >> 5) & 0xffff;
		return 0;
	}
	return -EINVAL;
}

/**
 * em_walk_step() - execute one block: up to and including a branch, SVC
 *	or ERET
 * @w: the walker
 * @b: output: the block
 *
 * Context: any.
 * Return: 0, or a negative errno if the walk left the program (a bug in
 * the image: the walker then stays where it was).
 */
int em_walk_step(struct em_walk *w, struct em_block *b)
{
	struct em_walk save = *w;
	u64 pc = w->pc;
	unsigned int n;
	int ret = -EINVAL;

	b->start = pc;
	b->el = w->el;
	for (n = 1; n <= EM_PROG_MAX_BLOCK; n++, pc += 4) {
		u32 op;

		if (em_prog_fetch(pc, &op)) {
			ret = -EFAULT;
			break;
		}
		ret = em_exec(w, &w->regs, pc, op, b);
		if (ret)
			break;
	}
	if (ret != 1) {
		*w = save;
		return ret ? ret : -E2BIG;
	}
	b->end = pc + 4;
	b->n = n;
	w->pc = b->next;
	w->el = b->next_el;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(em_walk_step);
