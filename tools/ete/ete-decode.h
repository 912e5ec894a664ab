/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ete-decode.h - what the parts of ete-decode share: ete-decode.c (the
 * command line), decode-out.c (files, the output buffers, JSON),
 * decode-syms.c (symbols, tasks, time), decode-elem.c (OpenCSD's elements
 * and the decode threads), decode-setup.c (a trace source's decode tree
 * from the snapshot: snapshot.c reads it), decode-truth.c (intervals,
 * hashes and the comparison with the model's ground truth), decode-afdo.c
 * (--to-autofdo: AutoFDO's text input).
 */
#ifndef ETE_DECODE_H
#define ETE_DECODE_H

#include <assert.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "perfdata.h"
#include "snapshot.h"

#define FNV_BASIS	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL
#define Q_MARK		0xffffffffffffffffULL	/* EM_TRUTH_Q_MARK */
/* ocsd_core_profile_t's Cortex-A value, named without its CamelCase */
#define OCSD_PROFILE_A	((ocsd_core_profile_t)3)
/* a CPU's output goes to stdout when its turn has come, at this size */
#define OUT_FLUSH	(1024 * 1024)
/* ... and before its turn, to a temporary file beyond this size */
#define OUT_SPILL	(64 * 1024 * 1024)

#ifndef ETE_VERSION
#define ETE_VERSION	"unknown"	/* the Makefile passes VERSION's */
#endif

#define ULL(x) ((unsigned long long)(x))
#define SZ_1G 0x40000000UL
#define AT(v, type, i) (((type *)(v).p)[i])
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The ELF64 headers, as the kernel's include/uapi/linux/elf.h names them
 * (glibc's <elf.h>, whose constants these go with, has them as typedefs)
 */
struct elf64_hdr {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint64_t e_entry;
	uint64_t e_phoff;
	uint64_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
};

struct elf64_shdr {
	uint32_t sh_name;
	uint32_t sh_type;
	uint64_t sh_flags;
	uint64_t sh_addr;
	uint64_t sh_offset;
	uint64_t sh_size;
	uint32_t sh_link;
	uint32_t sh_info;
	uint64_t sh_addralign;
	uint64_t sh_entsize;
};

struct elf64_phdr {
	uint32_t p_type;
	uint32_t p_flags;
	uint64_t p_offset;
	uint64_t p_vaddr;
	uint64_t p_paddr;
	uint64_t p_filesz;
	uint64_t p_memsz;
	uint64_t p_align;
};

struct elf64_sym {
	uint32_t st_name;
	unsigned char st_info;
	unsigned char st_other;
	uint16_t st_shndx;
	uint64_t st_value;
	uint64_t st_size;
};

static_assert(sizeof(struct elf64_hdr) == 64 && sizeof(struct elf64_shdr) == 64 &&
	      sizeof(struct elf64_phdr) == 56 && sizeof(struct elf64_sym) == 24,
	      "ELF64 header sizes");

/* A decoded range, or with @q a Q element's: @end is where execution went on */
struct range {
	uint64_t idx;
	uint64_t start;
	uint64_t end;
	uint32_t n;
	bool q;
};

/* An interval: the ranges between an A-Sync and the next one */
struct interval {
	uint64_t aoff;
	bool complete;		/* ended by the next A-Sync */
	size_t first;		/* index into the range array */
	size_t count;
	uint32_t n;		/* truth in hash mode: count and hash only */
	uint64_t hash;
	size_t seg;		/* decoded: gap records at or before aoff */
};

struct vec {
	void *p;
	size_t len;
	size_t cap;
	size_t size;
};

/* What the output shows, the same for every CPU (read-only while decoding) */
enum mode { MODE_PRINT, MODE_STORE, MODE_CONTEXTS, MODE_AFDO };

struct sym {
	uint64_t addr;
	uint64_t size;
	char *name;
};

struct task {
	uint32_t id;		/* context ID */
	long tgid;
	char *comm;
};

struct decode_cfg {
	enum mode mode;
	bool json;
	struct vec syms;	/* struct sym, sorted by address */
	struct vec tasks;	/* struct task, sorted by ID */
	uint64_t cntfrq;	/* 0: unknown */
};

extern struct decode_cfg cfg;

/* A CPU's output: memory, spilled to a temporary file when it grows big */
struct out {
	char *buf;
	size_t len;
	size_t cap;
	FILE *spill;
};

struct decode {
	struct vec ranges;	/* struct range (MODE_STORE) */
	struct vec asyncs;	/* uint64_t */
	unsigned long errors;
	unsigned long nacc;
	unsigned long nranges;
	bool quiet;
	int cpu;
	int slot;		/* the output's place in CPU order */
	struct out *out;
	uint64_t seg_start;	/* the segment being decoded */
	uint64_t seg_end;
	uint64_t last_idx;	/* of the last element */
	bool ctx_valid;		/* the context ID of the segment is known */
	uint32_t ctx_id;
	const struct task *task;	/* of ctx_id, when contexts.txt has it */
	const struct sym *last_sym;	/* the last lookup's symbol */
	uint32_t ctx[64];	/* context IDs and VMIDs seen (--to-perf) */
	size_t nctx;
	struct afdo *afdo;	/* --to-autofdo's counts (decode-afdo.c) */
};

/* A driver gap marker: the stream breaks at @off */
struct gap {
	uint64_t off;
	int64_t lost;		/* bytes lost there, -1 if unknown */
	char what[64];		/* "lost reason", as gaps_cpuN.txt says */
};

/* One trace source's decode: set up in the main thread, decoded in a worker */
struct job {
	int cpu;		/* -1: a source of no core cpu_N */
	const struct ss_source *src;
	uint32_t trace_id;	/* TRCTRACEIDR.TRACEID */
	uint8_t *trace;
	size_t len;
	struct gap *gaps;
	size_t ngaps;
	uint64_t *gap_offs;	/* gaps[].off, for split() */
	dcd_tree_handle_t tree;
	struct decode d;
	struct out out;
	bool done;
	bool skip;		/* --to-perf: a CPU whose files are missing */
};

/* The model's ground truth (--compare) */
struct truth {
	struct vec iv;		/* struct interval */
	struct vec ranges;	/* struct range (ranges mode) */
	bool hashes;
	bool lost;
};

extern struct job *jobs;
extern size_t njobs;
extern size_t print_next;

/* decode-afdo.c */
void afdo_range(struct decode *d, const ocsd_generic_trace_elem *e);
void afdo_break(struct decode *d);
int afdo_write(const char *dir, const char *path, const char *binary);
void afdo_free(struct decode *d);
/* decode-out.c */
void *xrealloc(void *p, size_t size);
void *vec_push(struct vec *v);
char *slurp(const char *path, size_t *len);
char *path_in(const char *dir, const char *name);
bool etecap_source(const struct ss_source *src);
void out_print(struct out *o);
void out_line_end(struct decode *d);
void out_mem(struct out *o, const char *s, size_t n);
void out_str(struct out *o, const char *s);
void out_chr(struct out *o, char c);
void out_dec(struct out *o, uint64_t v);
void out_hex(struct out *o, uint64_t v);
void out_fmt(struct out *o, const char *fmt, ...);
void out_json_str(struct out *o, const char *s, size_t len);
void json_start(struct decode *d, const char *type);
void json_key(struct out *o, const char *key);
void json_end(struct decode *d);
/* decode-syms.c */
void read_symbols_txt(const char *dir);
void read_elf_txt(const char *dir);
void read_image_elfs(const struct ss_device *core, struct vec *seen);
void sort_symbols(void);
const struct sym *find_sym(struct decode *d, uint64_t a);
void read_contexts(const char *dir);
const struct task *find_task(uint32_t id);
void read_cntfrq(const char *dir);
/* decode-elem.c */
ocsd_datapath_resp_t elem_cb(const void *ctx,
			     const ocsd_trc_index_t index,
			     const uint8_t chan,
			     const ocsd_generic_trace_elem *e);
void find_asyncs(const uint8_t *trace, size_t len, struct decode *d);
void log_cb(const void *ctx, const char *msg, const int len);
void errlog_release(void);
void run_jobs(unsigned int nthreads);
/* decode-setup.c */
int setup_job(struct snapshot *ss, struct job *j, struct vec *seen);
void free_job(struct job *j);
void free_images(void);
void split(struct decode *d, const uint64_t *gaps, size_t ngaps,
	   size_t len, struct vec *out);
void hash_intervals(struct decode *d, struct vec *iv);
/* decode-truth.c */
uint64_t fnv(uint64_t h, uint64_t start, uint64_t end);
int read_truth(const char *path, struct truth *t);
int compare(struct decode *d, struct vec *iv, struct truth *t,
	    const struct gap *gaps, size_t ngaps);

#endif
