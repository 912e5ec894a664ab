/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files of packaging/ as the tree ships them, built into the program
 * that includes this (unpriv_test): the udev rule and its helper.  The
 * selftests Makefile gives the assembler the tree's top as an include
 * directory and makes unpriv_test depend on both files, so the program
 * always carries the rule as it is in the tree.
 */
#ifndef _ETE_SHIPPED_H
#define _ETE_SHIPPED_H

__asm__(".pushsection .rodata, \"a\"\n"
	".global ete_rules_file\n"
	"ete_rules_file:\n"
	".incbin \"packaging/udev/60-ete-trbe.rules\"\n"
	".byte 0\n"
	".global ete_setperms_file\n"
	"ete_setperms_file:\n"
	".incbin \"packaging/ete-setperms\"\n"
	".byte 0\n"
	".popsection\n");

/* Each file's text, NUL-terminated */
extern const char ete_rules_file[];
extern const char ete_setperms_file[];

#endif /* _ETE_SHIPPED_H */
