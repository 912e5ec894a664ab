// SPDX-License-Identifier: GPL-2.0
/*
 * The model's user program (tools/testing/ete-model/prog.c, em_prog_user)
 * written as C: the source a compiler applies an AutoFDO profile of the
 * model's trace to (post.d/autofdo.sh).  The program itself is hand-made
 * machine code; the ELF image ete-decode --to-perf writes of it has a
 * line table (tools/ete/perfdata-dwarf.c) in which instruction k of a
 * function is line k + 2 after the function's name: here the name, the
 * opening brace, then a line per instruction, in order, each line's
 * comment the instruction it stands for (the loop's counting and branch
 * are its for statement's, on the line of its first instruction).  Keep
 * it so: a line added or removed inside a function moves the profile's
 * samples.
 */
#include "prog-user.h"

/* X16 and X17, the registers of the indirect call and of the jump */
static void (*x16)(void);
static void (*x17)(void);

void user_main(void)
{
	add_x0();			/* 0 add */
	user_leaf();			/* 1 bl user_leaf */
	if (reg(2))			/* 2 cbz x2 */
		add_x0(),		/* 3 add */
		nop();			/* 4 nop */
	for (long n = 4; n; n--)	/* 5 movz x1, #4 */
		add_x0();		/* 6 add */
					/* 7 subs x1 */
					/* 8 b.ne */
	x16 = user_leaf;		/* 9 adr x16, user_leaf */
	if (reg(3))			/* 10 cbz x3 */
		x16 = user_mid;		/* 11 adr x16, user_mid */
	x16();				/* 12 blr x16 */
	svc();				/* 13 svc */
	x17 = user_main;		/* 14 adr x17, user_main */
	if (reg(4) & 1)			/* 15 tbz x4, #0 */
		x17 = user_alt;		/* 16 adr x17, user_alt */
	x17();				/* 17 br x17 */
}

void user_leaf(void)
{
	add_x0();			/* 0 add */
}					/* 1 ret */

void user_mid(void)
{
					/* 0 stp x29, x30 */
	user_leaf();			/* 1 bl user_leaf */
	if (!reg(0))			/* 2 cbnz x0 */
		nop();			/* 3 nop */
					/* 4 ldp x29, x30 */
}					/* 5 ret */

void user_alt(void)
{
	nop();				/* 0 nop */
	user_main();			/* 1 b user_main */
}
