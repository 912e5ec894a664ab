/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfdata-int.h - what the files of perfdata share (perfdata.h is its
 * interface): the model of the snapshot, which perfdata-read.c reads
 * through snapshot.c (the CPUs with their registers, trace and gaps; the
 * tasks; the machine) and perfdata-mem.c (the memory images with their
 * symbols); and the byte buffer of perfdata-buf.c, in which perfdata-elf.c
 * builds the ELF images and perfdata.c the perf.data.
 */
#ifndef ETE_PERFDATA_INT_H
#define ETE_PERFDATA_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfdata.h"

struct ss_device;

/* user space: the kernel's bits.h is not available */
#ifndef BIT
#define BIT(n)			(1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)		(1ULL << (n))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/*
 * The file offset of .text in the ELF images: a user image's maps start
 * there (their pgoff), a kernel image's perf finds in its section headers
 */
#define ELF_TEXT_OFF		0x1000

/* The ETE registers of the AUXTRACE_INFO's per-CPU block, in its order */
enum {
	R_CONFIGR, R_TRACEIDR, R_IDR0, R_IDR1, R_IDR2, R_IDR8, R_AUTH,
	R_DEVARCH, NREGS
};

/* ---- the byte buffer (perfdata-buf.c) ---- */

struct buf {
	unsigned char *p;
	size_t len, cap;
	bool oom;	/* a growth failed: the contents are incomplete */
};

void *buf_grow(struct buf *b, size_t n);
void buf_put(struct buf *b, const void *v, size_t n);
void buf_zero(struct buf *b, size_t n);
void buf_put16(struct buf *b, uint16_t v);
void buf_put32(struct buf *b, uint32_t v);
void buf_put64(struct buf *b, uint64_t v);
void buf_align(struct buf *b, size_t a);
void buf_set16(struct buf *b, size_t off, uint16_t v);
void buf_set64(struct buf *b, size_t off, uint64_t v);
void buf_str(struct buf *b, const char *str);

/* ---- the snapshot's model (perfdata-read.c) ---- */

struct cpu {
	int cpu;
	const struct ss_device *core;	/* while pd_read() reads the snapshot */
	uint64_t regs[NREGS];
	char *trace;		/* the path of its buffer's file */
	uint64_t size;
	uint64_t *gaps;		/* the offsets of gaps_cpuN.txt, increasing */
	size_t ngaps;
};

struct sym {
	uint64_t va, size;
	char *name;
	bool fallback;	/* named after its image, for want of a symbol file */
};

/* An ELF image: one memory dump, or several contiguous ones */
struct image {
	uint64_t va, len;
	unsigned char *data;
	bool kernel;
	char *name;
	char *path;		/* of its ELF file (perfdata-elf.c) */
	unsigned char bid[20];	/* its build ID (perfdata-elf.c) */
	struct sym *syms;
	size_t nsyms;
};

struct task {
	uint32_t pid, tid;
	char comm[16];
	bool traced;
};

struct snap {
	const char *dir;
	char *err;
	size_t errlen;
	FILE *log;
	struct cpu *cpus;	/* by CPU number */
	size_t ncpus;
	struct image *imgs;	/* by address */
	size_t nimgs;
	struct task *tasks;
	size_t ntasks;
	/* machine.txt's: "" and 0 when it does not say */
	char *hostname;
	char *osrelease;
	uint64_t midr;		/* the first CPU's MIDR_EL1 */
	uint64_t cntfrq;	/* the counter's ticks a second (cntfrq_el0) */
};

/*
 * pd_fail() - @fmt's message into @s's err
 *
 * Return: -@err.
 */
int pd_fail(struct snap *s, int err, const char *fmt, ...);

/* pd_slurp() - the text of @dir/@name (NUL-terminated), or NULL */
char *pd_slurp(const char *dir, const char *name);

/*
 * pd_read() - read the snapshot in @s->dir into @s: the CPUs (the one of
 * @o->cpu if it is not -1), their memory images, the tasks of
 * contexts.txt and @o's, machine.txt.  @o may be NULL.
 *
 * Return: 0, or -errno with a message in @s->err.
 */
int pd_read(struct snap *s, const struct perfdata_opts *o);

/* pd_free() - free what pd_read() and pd_write_images() allocated */
void pd_free(struct snap *s);

/*
 * pd_read_images() - read the memory images of the cores of @s's CPUs,
 * and their symbols, into @s->imgs (perfdata-mem.c), while pd_read() has
 * the snapshot open.
 *
 * Return: 0, or -errno with a message in @s->err.
 */
int pd_read_images(struct snap *s);

/*
 * pd_write_images() - write each image of @s as an ELF file in @dir
 * (made if need be), named by absolute path in @s->imgs[].path, with its
 * build ID in .bid (perfdata-elf.c).
 *
 * Return: 0, or -errno with a message in @s->err.
 */
int pd_write_images(struct snap *s, const char *dir);

/*
 * pd_dwarf() - minimal DWARF 4 of @im's functions (perfdata-dwarf.c):
 * .debug_abbrev, .debug_info and .debug_line appended to @abbrev, @info
 * and @line.
 *
 * Return: 0, or -ENOMEM.
 */
int pd_dwarf(const struct image *im, struct buf *abbrev, struct buf *info,
	     struct buf *line);

#endif /* ETE_PERFDATA_INT_H */
