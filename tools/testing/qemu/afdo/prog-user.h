/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What prog-user.c's statements call: the instructions of the model's
 * program that C has no statement of its own for, and the registers the
 * model does not compute (its walker draws the outcome of the branches
 * that test them).  Declared only: prog-user.c is compiled, never linked.
 */
#ifndef PROG_USER_H
#define PROG_USER_H

void add_x0(void);		/* add x0, x0, #1 */
void nop(void);			/* nop */
void svc(void);			/* svc #0 */
long reg(int n);		/* the value of Xn */

void user_main(void);
void user_leaf(void);
void user_mid(void);
void user_alt(void);

#endif
