// SPDX-License-Identifier: GPL-2.0
/*
 * ete-decode: decode the ETE trace of an OpenCSD snapshot directory with
 * OpenCSD's C API: print the executed instruction ranges with the
 * functions they start in, the tasks (context IDs), timestamps,
 * exceptions, trace on/off and the driver's gaps, as text or JSON lines;
 * or hash one CPU's ranges per interval between A-Syncs, or compare them
 * with the model's ground truth (Documentation/model.rst, "Ground truth";
 * e2e-interface.txt).
 *
 *   ete-decode [--cpu N] [--hash] [--compare TRUTH] [--format F] [-j N]
 *              SNAPSHOT_DIR
 *
 * The stream is cut at the gap markers of gaps_cpuN.txt ("offset lost
 * reason" lines): each segment is decoded on its own, from its first
 * A-Sync.  Runs on the host; links Debian's libopencsd.
 *
 * Every CPU of the snapshot (or the one of --cpu) is decoded by a thread
 * of its own, up to -j at a time, into a buffer of its own; the buffers
 * are printed in CPU order, so the output does not depend on -j.
 *
 * Besides instruction ranges ("R"), the decode yields what Q elements say
 * when their path is unknown (OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH: n
 * instructions from a start, execution went on at a next address), "Q"
 * records of the truth; hashes fold them in as (start, next) then
 * (n, Q_MARK).
 */
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

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		perror("ete-decode");
		exit(2);
	}
	return p;
}

static void *vec_push(struct vec *v)
{
	if (v->len == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->p = xrealloc(v->p, v->cap * v->size);
	}
	return (char *)v->p + v->size * v->len++;
}

/* What the output shows, the same for every CPU (read-only while decoding) */
enum mode { MODE_PRINT, MODE_STORE, MODE_CONTEXTS };

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

static struct {
	enum mode mode;
	bool json;
	struct vec syms;	/* struct sym, sorted by address */
	struct vec tasks;	/* struct task, sorted by ID */
	uint64_t cntfrq;	/* 0: unknown */
} cfg = {
	.syms.size = sizeof(struct sym),
	.tasks.size = sizeof(struct task),
};

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

static struct job *jobs;
static size_t njobs;
static size_t print_next;	/* the job whose output goes out next */
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t fnv(uint64_t h, uint64_t start, uint64_t end)
{
	int i;

	for (i = 0; i < 16; i++) {
		h ^= ((i < 8 ? start : end) >> (8 * (i & 7))) & 0xff;
		h *= FNV_PRIME;
	}
	return h;
}

/* ---- snapshot files ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		exit(2);
	return p;
}

/* etecap's names: ETE_<cpu>, whose gaps are in gaps_cpu<cpu>.txt */
static bool etecap_source(const struct ss_source *src)
{
	char name[32];

	snprintf(name, sizeof(name), "ETE_%d", src->cpu);
	return src->cpu >= 0 && !strcmp(src->dev->name, name);
}

/* ---- decode ---- */

/* ---- output ---- */

static void out_write(FILE *f, const char *p, size_t len)
{
	if (len && fwrite(p, 1, len, f) != len) {
		perror("ete-decode: write");
		exit(2);
	}
}

/* Print what @o holds, the spilled part first, and empty it */
static void out_print(struct out *o)
{
	char buf[65536];
	size_t n;

	if (o->spill) {
		fflush(o->spill);
		rewind(o->spill);
		while ((n = fread(buf, 1, sizeof(buf), o->spill)))
			out_write(stdout, buf, n);
		fclose(o->spill);
		o->spill = NULL;
	}
	out_write(stdout, o->buf, o->len);
	o->len = 0;
}

/*
 * The end of a line: a CPU whose turn has come prints what it has; one
 * whose turn is still to come moves a big buffer to a temporary file.
 */
static void out_line_end(struct decode *d)
{
	struct out *o = d->out;

	if (o->len < OUT_FLUSH)
		return;
	if ((size_t)d->slot == __atomic_load_n(&print_next, __ATOMIC_ACQUIRE)) {
		out_write(stdout, o->buf, o->len);
		o->len = 0;
	} else if (o->len >= OUT_SPILL) {
		if (!o->spill)
			o->spill = tmpfile();
		if (o->spill) {
			out_write(o->spill, o->buf, o->len);
			o->len = 0;
		}
	}
}

static char *out_room(struct out *o, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = o->cap ? o->cap : 65536;
		while (o->len + n > o->cap)
			o->cap *= 2;
		o->buf = xrealloc(o->buf, o->cap);
	}
	return o->buf + o->len;
}

static void out_mem(struct out *o, const char *s, size_t n)
{
	memcpy(out_room(o, n), s, n);
	o->len += n;
}

static void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void out_chr(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->len++;
}

static void out_dec(struct out *o, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	out_mem(o, tmp + i, sizeof(tmp) - i);
}

/* "0x" and @v in lower-case hexadecimal */
static void out_hex(struct out *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	out_mem(o, tmp + i, sizeof(tmp) - i);
}

static void out_fmt(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	out_room(o, n + 1);
	va_start(ap, fmt);
	vsnprintf(o->buf + o->len, n + 1, fmt, ap);
	va_end(ap);
	o->len += n;
}

/* A JSON string: @s quoted, with what JSON does not take as is escaped */
static void out_json_str(struct out *o, const char *s, size_t len)
{
	size_t i;

	out_chr(o, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			out_chr(o, '\\');
			out_chr(o, c);
		} else if (c < 0x20 || c == 0x7f) {
			out_fmt(o, "\\u%04x", c);
		} else {
			out_chr(o, c);
		}
	}
	out_chr(o, '"');
}

/* The start of a JSON line: {"cpu":N,"type":"TYPE" */
static void json_start(struct decode *d, const char *type)
{
	out_str(d->out, "{\"cpu\":");
	out_dec(d->out, d->cpu);
	out_str(d->out, ",\"type\":\"");
	out_str(d->out, type);
	out_chr(d->out, '"');
}

/* ,"KEY": */
static void json_key(struct out *o, const char *key)
{
	out_str(o, ",\"");
	out_str(o, key);
	out_str(o, "\":");
}

static void json_end(struct decode *d)
{
	out_str(d->out, "}\n");
	out_line_end(d);
}

/* ---- symbols ---- */

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

static void add_sym(uint64_t addr, uint64_t size, const char *name, size_t len)
{
	struct sym *s = vec_push(&cfg.syms);

	s->addr = addr;
	s->size = size;
	s->name = strndup(name, len);
	if (!s->name) {
		perror("ete-decode");
		exit(2);
	}
}

/*
 * symbols.txt: "0xVA SIZE NAME" lines, SIZE decimal or 0x-prefixed;
 * perf-<pid>.map (a JIT's symbols, as perf reads them from /tmp, which
 * etecap copies): "VA SIZE NAME", both hexadecimal.  '#' lines are
 * comments.
 */
static void read_symbol_file(const char *dir, const char *file, int size_base)
{
	char *p = path_in(dir, file), line[1024];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *end, *name;
		uint64_t va, size;
		size_t len;

		if (line[0] == '#')
			continue;
		va = strtoull(line, &end, 16);
		if (end == line)
			continue;
		name = end;
		size = strtoull(name, &end, size_base);
		if (end == name)
			continue;
		name = end + strspn(end, " \t");
		len = strcspn(name, "\r\n");
		if (len && name != end)
			add_sym(va, size, name, len);
	}
	fclose(f);
}

static void read_symbols_txt(const char *dir)
{
	struct dirent *d;
	DIR *dd;

	read_symbol_file(dir, "symbols.txt", 0);
	dd = opendir(dir);
	while (dd && (d = readdir(dd))) {
		size_t n = strlen(d->d_name);

		if (!strncmp(d->d_name, "perf-", 5) && n > 9 &&
		    !strcmp(d->d_name + n - 4, ".map"))
			read_symbol_file(dir, d->d_name, 16);
	}
	if (dd)
		closedir(dd);
}

static bool in_file(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

/*
 * elf_symbols() - add the function symbols of the ELF file @path: those of
 * .symtab, or of .dynsym without one, moved by @bias; or, with @image, as
 * the file's bytes are a memory image at @bias: moved so that the first
 * loadable segment is where its bytes are.  64-bit little-endian files
 * only; -1 for a file that is not one (and says so).
 */
static int elf_symbols(const char *path, uint64_t bias, bool image)
{
	size_t size, i, nsyms, found = 0;
	const struct elf64_shdr *tab = NULL, *str;
	struct elf64_hdr eh;
	struct elf64_shdr *sh;
	char *buf = slurp(path, &size);

	if (!buf) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (size < sizeof(eh) || memcmp(buf, ELFMAG, SELFMAG))
		goto refuse;
	memcpy(&eh, buf, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(struct elf64_shdr) ||
	    !in_file(size, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(*sh)))
		goto refuse;
	sh = xrealloc(NULL, eh.e_shnum * sizeof(*sh));
	memcpy(sh, buf + eh.e_shoff, eh.e_shnum * sizeof(*sh));
	for (i = 0; i < eh.e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB ||
		    (sh[i].sh_type == SHT_DYNSYM && !tab))
			tab = &sh[i];
	if (image && eh.e_phentsize == sizeof(struct elf64_phdr) &&
	    in_file(size, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(struct elf64_phdr))) {
		for (i = 0; i < eh.e_phnum; i++) {
			struct elf64_phdr ph;

			memcpy(&ph, buf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
			if (ph.p_type == PT_LOAD) {
				bias += ph.p_offset - ph.p_vaddr;
				break;
			}
		}
	}
	if (!tab || tab->sh_link >= eh.e_shnum || tab->sh_entsize != sizeof(struct elf64_sym) ||
	    !in_file(size, tab->sh_offset, tab->sh_size))
		goto out;
	str = &sh[tab->sh_link];
	if (!in_file(size, str->sh_offset, str->sh_size))
		goto out;
	nsyms = tab->sh_size / sizeof(struct elf64_sym);
	for (i = 0; i < nsyms; i++) {
		const char *name;
		struct elf64_sym s;
		size_t len;

		memcpy(&s, buf + tab->sh_offset + i * sizeof(s), sizeof(s));
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
		    s.st_name >= str->sh_size)
			continue;
		name = buf + str->sh_offset + s.st_name;
		len = strnlen(name, str->sh_size - s.st_name);
		if (len && len < str->sh_size - s.st_name) {
			add_sym(s.st_value + bias, s.st_size, name, len);
			found++;
		}
	}
out:
	free(sh);
	free(buf);
	if (!found)
		fprintf(stderr, "ete-decode: %s: no function symbols\n", path);
	return 0;
refuse:
	free(buf);
	fprintf(stderr, "ete-decode: %s: not a 64-bit little-endian ELF file, %s\n",
		path, "its symbols are not read");
	return -1;
}

/* Whether @path starts as an ELF file does */
static bool is_elf(const char *path)
{
	char magic[SELFMAG];
	FILE *f = fopen(path, "rb");
	bool elf;

	if (!f)
		return false;
	elf = fread(magic, 1, SELFMAG, f) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);
	fclose(f);
	return elf;
}

/* elf.txt: "0xLOAD_BIAS PATH" lines, PATH relative to the snapshot */
static void read_elf_txt(const char *dir)
{
	char *p = path_in(dir, "elf.txt"), line[1024];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long bias;
		int at = 0;

		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || sscanf(line, "%llx %n", &bias, &at) < 1 ||
		    !at || !line[at])
			continue;
		p = path_in(dir, line + at);
		elf_symbols(p, bias, false);
		free(p);
	}
	fclose(f);
}

/* The memory images of a core that are ELF files (each file once) */
static void read_image_elfs(const struct ss_device *core, struct vec *seen)
{
	size_t k, i;

	for (k = 0; k < core->ndumps; k++) {
		const struct ss_dump *m = &core->dumps[k];

		for (i = 0; i < seen->len; i++)
			if (!strcmp(AT(*seen, char *, i), m->file))
				break;
		if (i < seen->len)
			continue;
		*(char **)vec_push(seen) = strdup(m->file);
		/* an ELF image is the whole file, at its load bias */
		if (!m->offset && is_elf(m->file))
			elf_symbols(m->file, m->address, true);
	}
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size);
}

static void sort_symbols(void)
{
	qsort(cfg.syms.p, cfg.syms.len, sizeof(struct sym), cmp_sym);
}

static bool sym_has(const struct sym *s, uint64_t a)
{
	return a >= s->addr && (a - s->addr < s->size || a == s->addr);
}

/*
 * The function @a is in: the last symbol that starts at or below it and
 * covers it (a symbol of size 0 covers its address only), looking back
 * over a few for one that encloses others
 */
static const struct sym *find_sym(struct decode *d, uint64_t a)
{
	const struct sym *s = cfg.syms.p;
	size_t lo = 0, hi = cfg.syms.len, back;

	if (d->last_sym && sym_has(d->last_sym, a))
		return d->last_sym;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (back = 0; lo > 0 && back < 16; lo--, back++)
		if (sym_has(&s[lo - 1], a))
			return d->last_sym = &s[lo - 1];
	return NULL;
}

/* ---- tasks, time ---- */

static int cmp_task(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* contexts.txt: "context_id tgid comm" lines, '#' comments */
static void read_contexts(const char *dir)
{
	char *p = path_in(dir, "contexts.txt"), line[512];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long id;
		long tgid;
		int at = 0;
		struct task *t;

		if (line[0] == '#' || sscanf(line, "%lu %ld %n", &id, &tgid, &at) < 2 ||
		    !at || id > UINT32_MAX)
			continue;
		t = vec_push(&cfg.tasks);
		t->id = id;
		t->tgid = tgid;
		t->comm = strndup(line + at, strcspn(line + at, "\r\n"));
	}
	fclose(f);
	qsort(cfg.tasks.p, cfg.tasks.len, sizeof(struct task), cmp_task);
}

static const struct task *find_task(uint32_t id)
{
	struct task key = { .id = id };

	return bsearch(&key, cfg.tasks.p, cfg.tasks.len, sizeof(struct task),
		       cmp_task);
}

/* machine.txt's cntfrq_el0=: the timestamps' frequency */
static void read_cntfrq(const char *dir)
{
	char *p = path_in(dir, "machine.txt"), line[256];
	FILE *f = fopen(p, "r");

	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cntfrq_el0=", 11))
			cfg.cntfrq = strtoull(line + 11, NULL, 0);
	fclose(f);
}

/* ---- OpenCSD callbacks ---- */

static void add_ctx(struct decode *d, bool valid, uint32_t id)
{
	size_t i;

	for (i = 0; valid && i < d->nctx; i++)
		if (d->ctx[i] == id)
			return;
	if (valid && d->nctx < ARRAY_SIZE(d->ctx))
		d->ctx[d->nctx++] = id;
}

/* " sym+0xoff" (text) or ,"sym":"sym+0xoff" (JSON) when @a has a symbol */
static void put_sym(struct decode *d, uint64_t a)
{
	const struct sym *s = find_sym(d, a);
	struct out *o = d->out;

	if (!s)
		return;
	if (cfg.json) {
		json_key(o, "sym");
		out_json_str(o, s->name, strlen(s->name));
		o->len--;	/* the name's closing quote */
		out_str(o, "+");
		out_hex(o, a - s->addr);
		out_chr(o, '"');
	} else {
		out_chr(o, ' ');
		out_str(o, s->name);
		out_chr(o, '+');
		out_hex(o, a - s->addr);
	}
}

/* ,"ctxid":N,"pid":P,"comm":"C" of the context a JSON line is in */
static void json_task(struct decode *d)
{
	struct out *o = d->out;

	if (!d->ctx_valid)
		return;
	json_key(o, "ctxid");
	out_dec(o, d->ctx_id);
	if (d->task) {
		json_key(o, "pid");
		out_fmt(o, "%ld", d->task->tgid);
		json_key(o, "comm");
		out_json_str(o, d->task->comm, strlen(d->task->comm));
	}
}

/* R/Q: a range, or what a Q element leaves unknown */
static void put_range(struct decode *d, uint64_t idx, const ocsd_generic_trace_elem *e,
		      bool q)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, q ? "nopath" : "range");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "start");
		out_chr(o, '"');
		out_hex(o, e->st_addr);
		out_chr(o, '"');
		json_key(o, q ? "next" : "end");
		out_chr(o, '"');
		out_hex(o, e->en_addr);
		out_chr(o, '"');
		json_key(o, "n");
		out_dec(o, e->num_instr_range);
		put_sym(d, e->st_addr);
		json_task(d);
		json_end(d);
		return;
	}
	out_chr(o, q ? 'Q' : 'R');
	out_chr(o, ' ');
	out_dec(o, idx);
	out_chr(o, ' ');
	out_hex(o, e->st_addr);
	out_chr(o, ' ');
	out_hex(o, e->en_addr);
	out_chr(o, ' ');
	out_dec(o, e->num_instr_range);
	put_sym(d, e->st_addr);
	out_chr(o, '\n');
	out_line_end(d);
}

/* C: the context ID changed (or is the segment's first) */
static void put_context(struct decode *d, uint64_t idx)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "context");
		json_key(o, "idx");
		out_dec(o, idx);
		json_task(d);
		json_end(d);
		return;
	}
	if (d->task)
		out_fmt(o, "C %llu %ld %s\n", ULL(idx), d->task->tgid, d->task->comm);
	else
		out_fmt(o, "C %llu %u\n", ULL(idx), d->ctx_id);
	out_line_end(d);
}

static void put_timestamp(struct decode *d, uint64_t idx, uint64_t ts)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "timestamp");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "ts");
		out_dec(o, ts);
		if (cfg.cntfrq)
			out_fmt(o, ",\"s\":%.9f", (double)ts / cfg.cntfrq);
		json_end(d);
		return;
	}
	out_fmt(o, "T %llu %llu", ULL(idx), ULL(ts));
	if (cfg.cntfrq)
		out_fmt(o, " %.9f", (double)ts / cfg.cntfrq);
	out_chr(o, '\n');
	out_line_end(d);
}

/* The exception types of ETE's Exception packets (ETE, "Exception type") */
static const char *exception_name(uint32_t n)
{
	static const char *const names[] = {
		[0x0] = "reset", [0x1] = "debug-halt", [0x2] = "call",
		[0x3] = "trap", [0x4] = "serror", [0x6] = "inst-debug",
		[0x7] = "data-debug", [0xa] = "alignment",
		[0xb] = "inst-fault", [0xc] = "data-fault", [0xe] = "irq",
		[0xf] = "fiq",
	};

	return n < ARRAY_SIZE(names) && names[n] ? names[n] : "other";
}

static void put_exception(struct decode *d, uint64_t idx, const ocsd_generic_trace_elem *e)
{
	struct out *o = d->out;
	bool ret = e->elem_type == OCSD_GEN_TRC_ELEM_EXCEPTION_RET;

	if (cfg.json) {
		json_start(d, ret ? "exception_return" : "exception");
		json_key(o, "idx");
		out_dec(o, idx);
		if (!ret) {
			json_key(o, "number");
			out_dec(o, e->exception_number);
			json_key(o, "name");
			out_fmt(o, "\"%s\"", exception_name(e->exception_number));
			if (e->excep_ret_addr) {
				json_key(o, "ret");
				out_chr(o, '"');
				out_hex(o, e->en_addr);
				out_chr(o, '"');
			}
		}
		json_end(d);
		return;
	}
	if (ret) {
		out_fmt(o, "X %llu return\n", ULL(idx));
	} else {
		out_fmt(o, "X %llu exception %u %s", ULL(idx), e->exception_number,
			exception_name(e->exception_number));
		if (e->excep_ret_addr) {
			out_str(o, " ret ");
			out_hex(o, e->en_addr);
		}
		out_chr(o, '\n');
	}
	out_line_end(d);
}

/* O: trace on (with why), lost sync, end of the trace */
static void put_onoff(struct decode *d, uint64_t idx, const char *what, const char *why)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "trace");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "state");
		out_fmt(o, "\"%s\"", what);
		json_key(o, "reason");
		out_fmt(o, "\"%s\"", why);
		json_end(d);
		return;
	}
	out_fmt(o, "O %llu %s %s\n", ULL(idx), what, why);
	out_line_end(d);
}

static const char *trace_on_reason(trace_on_reason_t r)
{
	switch (r) {
	case TRACE_ON_NORMAL:
		return "normal";
	case TRACE_ON_OVERFLOW:
		return "overflow";
	case TRACE_ON_EX_DEBUG:
		return "debug";
	}
	return "other";
}

static const char *unsync_reason(unsync_info_t r)
{
	switch (r) {
	case UNSYNC_INIT_DECODER:
		return "init";
	case UNSYNC_RESET_DECODER:
		return "reset";
	case UNSYNC_OVERFLOW:
		return "overflow";
	case UNSYNC_DISCARD:
		return "discard";
	case UNSYNC_BAD_PACKET:
		return "bad-packet";
	case UNSYNC_EOT:
		return "end-of-trace";
	default:
		return "unknown";
	}
}

/* E: an error line, or ("E"-less) its JSON */
static void put_error(struct decode *d, uint64_t idx, bool has_idx, const char *msg,
		      size_t len)
{
	struct out *o = d->out;

	while (len && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
		len--;
	if (cfg.json) {
		json_start(d, "error");
		if (has_idx) {
			json_key(o, "idx");
			out_dec(o, idx);
		}
		json_key(o, "msg");
		out_json_str(o, msg, len);
		json_end(d);
		return;
	}
	out_str(o, "E ");
	if (has_idx) {
		out_dec(o, idx);
		out_chr(o, ' ');
	}
	out_mem(o, msg, len);
	out_chr(o, '\n');
	out_line_end(d);
}

static void put_nacc(struct decode *d, uint64_t idx, uint64_t addr)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "nacc");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "addr");
		out_chr(o, '"');
		out_hex(o, addr);
		out_chr(o, '"');
		json_end(d);
		return;
	}
	out_fmt(o, "E %llu no memory image at 0x%llx\n", ULL(idx), ULL(addr));
	out_line_end(d);
}

static ocsd_datapath_resp_t elem_cb(const void *ctx,
				    const ocsd_trc_index_t index,
				    const uint8_t chan,
				    const ocsd_generic_trace_elem *e)
{
	struct decode *d = (struct decode *)ctx;
	bool print = cfg.mode == MODE_PRINT;
	ocsd_trc_index_t idx = index;
	struct range *r;

	(void)chan;
	/*
	 * OpenCSD 1.3.3 reads a Q element whose address came in a separate
	 * packet after freeing it (processQElement()): its index is junk.
	 * Elements come in stream order, so the last good index stands in.
	 */
	if (idx < d->seg_start || idx >= d->seg_end)
		idx = d->last_idx;
	d->last_idx = idx;
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
	case OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH:
		d->nranges++;
		if (print) {
			put_range(d, idx, e,
				  e->elem_type == OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH);
			break;
		}
		if (cfg.mode != MODE_STORE)
			break;
		r = vec_push(&d->ranges);
		r->idx = idx;
		r->start = e->st_addr;
		r->end = e->en_addr;
		r->n = e->num_instr_range;
		r->q = e->elem_type == OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH;
		break;
	case OCSD_GEN_TRC_ELEM_PE_CONTEXT:
		add_ctx(d, e->context.ctxt_id_valid, e->context.context_id);
		add_ctx(d, e->context.vmid_valid, e->context.vmid);
		if (!e->context.ctxt_id_valid ||
		    (d->ctx_valid && d->ctx_id == e->context.context_id))
			break;
		d->ctx_valid = true;
		d->ctx_id = e->context.context_id;
		d->task = find_task(d->ctx_id);
		if (print)
			put_context(d, idx);
		break;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		d->nacc++;
		if (!d->quiet)
			put_nacc(d, idx, e->st_addr);
		break;
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		if (print)
			put_timestamp(d, idx, e->timestamp);
		break;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		if (print)
			put_exception(d, idx, e);
		break;
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		if (print)
			put_onoff(d, idx, "on", trace_on_reason(e->trace_on_reason));
		break;
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		if (print)
			put_onoff(d, idx, "unsynced", unsync_reason(e->unsync_eot_info));
		break;
	case OCSD_GEN_TRC_ELEM_EO_TRACE:
		if (print)
			put_onoff(d, idx, "off", unsync_reason(e->unsync_eot_info));
		break;
	default:
		break;
	}
	return OCSD_RESP_CONT;
}

/*
 * A-Sync packets: eleven 0x00 then 0x80.  No other packet holds eleven
 * zero bytes in a row, which is what makes the pattern a synchronization
 * point a decoder finds by scanning (OpenCSD's packet processor does so
 * when unsynchronized); the C API of 1.3.3 has no packet monitor for ETE.
 */
static void find_asyncs(const uint8_t *trace, size_t len, struct decode *d)
{
	size_t i, zeros = 0;

	for (i = 0; i < len; i++) {
		if (trace[i] == 0x80 && zeros >= 11)
			*(uint64_t *)vec_push(&d->asyncs) = i - 11;
		zeros = trace[i] ? 0 : zeros + 1;
	}
}

/*
 * OpenCSD's error logger is one for the whole library: it calls back with
 * the context of the last tree that set it, so the decode a message is of
 * is the calling thread's.  The logger also keeps the last error in an
 * object of its own, unlocked: a thread that logs takes errlog_lock in
 * the callback (called before that update) and keeps it until its
 * ocsd_dt_process_data() call returns, so no two threads log at once.
 */
static __thread struct decode *cur_decode;
static __thread bool holds_errlog;
static pthread_mutex_t errlog_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_cb(const void *ctx, const char *msg, const int len)
{
	struct decode *d = cur_decode;

	(void)ctx;
	if (!holds_errlog) {
		pthread_mutex_lock(&errlog_lock);
		holds_errlog = true;
	}
	if (!d)
		return;
	d->errors++;
	if (!d->quiet)
		put_error(d, 0, false, msg, len);
}

static void errlog_release(void)
{
	if (holds_errlog) {
		holds_errlog = false;
		pthread_mutex_unlock(&errlog_lock);
	}
}

static ocsd_datapath_resp_t process(dcd_tree_handle_t tree, ocsd_datapath_op_t op,
				    uint64_t index, uint32_t len, const uint8_t *data,
				    uint32_t *used)
{
	ocsd_datapath_resp_t r;

	r = ocsd_dt_process_data(tree, op, index, len, data, used);
	errlog_release();
	return r;
}

/* G: a driver gap marker, where a segment starts */
static void put_gap(struct decode *d, const struct gap *g)
{
	struct out *o = d->out;
	long long lost = 0;
	char reason[64] = "";

	if (cfg.json) {
		if (sscanf(g->what, "%lld %63s", &lost, reason) < 1)
			lost = 0;
		json_start(d, "gap");
		json_key(o, "offset");
		out_dec(o, g->off);
		json_key(o, "lost");
		out_fmt(o, "%lld", lost);
		json_key(o, "reason");
		out_json_str(o, reason, strlen(reason));
		json_end(d);
		return;
	}
	out_fmt(o, "G %llu %s\n", ULL(g->off), g->what);
	out_line_end(d);
}

/* Decode @j's trace, segment by segment, with the tree set up for it */
static void decode_job(struct job *j)
{
	static const char fatal[] = "fatal decode error, segment skipped";
	struct decode *d = &j->d;
	size_t seg, start = 0;

	if (j->skip)
		return;
	if (cfg.mode == MODE_PRINT && !cfg.json && etecap_source(j->src))
		out_fmt(d->out, "# cpu %d: %zu bytes, %zu gaps\n", j->cpu, j->len,
			j->ngaps);
	else if (cfg.mode == MODE_PRINT && !cfg.json)
		out_fmt(d->out, "# cpu %d: source %s, buffer %s, %s 0x%x: %zu bytes, %zu gaps\n",
			j->cpu, j->src->dev->name, j->src->buf->name,
			"trace ID", j->trace_id, j->len, j->ngaps);
	cur_decode = d;
	for (seg = 0; seg <= j->ngaps; seg++) {
		size_t end = seg < j->ngaps ? j->gaps[seg].off : j->len;

		if (seg && cfg.mode == MODE_PRINT)
			put_gap(d, &j->gaps[seg - 1]);
		if (end > j->len)
			end = j->len;
		if (end <= start)
			continue;
		process(j->tree, OCSD_OP_RESET, start, 0, NULL, NULL);
		d->seg_start = start;
		d->seg_end = end;
		d->last_idx = start;
		d->ctx_valid = false;
		d->task = NULL;
		while (start < end) {
			uint32_t n = 0;
			ocsd_datapath_resp_t r;

			/* the library takes 32-bit lengths: a GiB at a time */
			r = process(j->tree, OCSD_OP_DATA, start,
				    end - start < SZ_1G ? end - start : SZ_1G,
				    j->trace + start, &n);
			if (OCSD_DATA_RESP_IS_FATAL(r)) {
				d->errors++;
				put_error(d, start, true, fatal, strlen(fatal));
				break;
			}
			start += n;
		}
		process(j->tree, OCSD_OP_EOT, 0, 0, NULL, NULL);
		start = end;
	}
	cur_decode = NULL;
	if (cfg.mode != MODE_PRINT)
		return;
	if (cfg.json) {
		json_start(d, "summary");
		json_key(d->out, "bytes");
		out_dec(d->out, j->len);
		json_key(d->out, "ranges");
		out_dec(d->out, d->nranges);
		json_key(d->out, "segments");
		out_dec(d->out, j->ngaps + 1);
		json_key(d->out, "errors");
		out_dec(d->out, d->errors + d->nacc);
		json_end(d);
	} else {
		out_fmt(d->out, "# %lu ranges, %zu segments, %lu errors\n",
			d->nranges, j->ngaps + 1, d->errors + d->nacc);
	}
}

/* @j is decoded: print it, and what waited for it, when their turn comes */
static void job_done(struct job *j)
{
	pthread_mutex_lock(&print_lock);
	j->done = true;
	while (print_next < njobs && jobs[print_next].done) {
		out_print(&jobs[print_next].out);
		__atomic_store_n(&print_next, print_next + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&print_lock);
}

static size_t next_job;

static void *worker(void *arg)
{
	size_t i;

	(void)arg;
	while ((i = __atomic_fetch_add(&next_job, 1, __ATOMIC_RELAXED)) < njobs) {
		decode_job(&jobs[i]);
		job_done(&jobs[i]);
	}
	return NULL;
}

/* Decode every job on @nthreads threads (the calling one among them) */
static void run_jobs(unsigned int nthreads)
{
	pthread_t *t = xrealloc(NULL, nthreads * sizeof(*t));
	unsigned int i, n = 0;

	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&t[n], NULL, worker, NULL)) {
			fprintf(stderr, "ete-decode: cannot start a thread, %u run\n", i);
			break;
		}
		n++;
	}
	worker(NULL);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
}

/* ---- setting up ---- */

/* gaps_cpuN.txt: the offsets, increasing, at which the stream is cut */
static void read_gaps(const char *dir, struct job *j)
{
	char name[64], line[256], *p;
	FILE *f;

	snprintf(name, sizeof(name), "gaps_cpu%d.txt", j->cpu);
	p = path_in(dir, name);
	f = fopen(p, "r");
	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *endp;
		unsigned long long off = strtoull(line, &endp, 10);
		struct gap *g;

		if (endp == line || !off ||
		    (j->ngaps && off <= j->gaps[j->ngaps - 1].off))
			continue;
		/* as many as there are: 16, then doubling */
		if (!j->ngaps || (j->ngaps >= 16 && !(j->ngaps & (j->ngaps - 1)))) {
			size_t cap = j->ngaps ? 2 * j->ngaps : 16;

			j->gaps = xrealloc(j->gaps, cap * sizeof(*j->gaps));
			j->gap_offs = xrealloc(j->gap_offs, cap * sizeof(uint64_t));
		}
		g = &j->gaps[j->ngaps];
		g->off = off;
		g->lost = strtoll(endp, NULL, 10);
		endp += strspn(endp, " \t");
		snprintf(g->what, sizeof(g->what), "%.*s",
			 (int)strcspn(endp, "\r\n"), endp);
		j->gap_offs[j->ngaps++] = off;
	}
	fclose(f);
}

/*
 * The memory images, each file read once for every source that decodes
 * with it; read-only once the jobs run, so the trees of several threads
 * share them.
 */
struct image {
	char *path;
	uint8_t *data;
	size_t len;
};

static struct vec images = { .size = sizeof(struct image) };

static const struct image *load_image(const char *path)
{
	struct image *im;
	size_t i;

	for (i = 0; i < images.len; i++)
		if (!strcmp(AT(images, struct image, i).path, path))
			return AT(images, struct image, i).data ?
			       &AT(images, struct image, i) : NULL;
	im = vec_push(&images);
	im->path = strdup(path);
	im->data = (uint8_t *)slurp(path, &im->len);
	if (!im->data)
		fprintf(stderr, "ete-decode: %s: %s: its code is not decoded\n",
			path, strerror(errno));
	return im->data ? im : NULL;
}

/* A [dumpK] space= of the snapshot format, as OpenCSD's snapshot reader */
static int mem_space(const char *name, ocsd_mem_space_acc_t *sp)
{
	static const struct {
		const char *name;
		int space;
	} map[] = {
		{ "EL1S", OCSD_MEM_SPACE_EL1S }, { "EL1N", OCSD_MEM_SPACE_EL1N },
		{ "EL2", OCSD_MEM_SPACE_EL2 }, { "EL2N", OCSD_MEM_SPACE_EL2 },
		{ "EL2S", OCSD_MEM_SPACE_EL2S }, { "EL3", OCSD_MEM_SPACE_EL3 },
		{ "S", OCSD_MEM_SPACE_S }, { "N", OCSD_MEM_SPACE_N },
		{ "H", OCSD_MEM_SPACE_EL2 }, { "P", OCSD_MEM_SPACE_EL1N },
		{ "NP", OCSD_MEM_SPACE_EL1N }, { "SP", OCSD_MEM_SPACE_EL1S },
		/* Realm spaces: OpenCSD 1.4 and later (values of its header) */
		{ "EL1R", 0x20 }, { "EL2R", 0x40 }, { "ROOT", 0x80 },
		{ "R", 0x60 },
	};
	size_t i;

	if (!*name || !strcmp(name, "ANY")) {
		*sp = OCSD_MEM_SPACE_ANY;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (!strcmp(map[i].name, name)) {
			*sp = (ocsd_mem_space_acc_t)map[i].space;
			return 0;
		}
	}
	return -1;
}

/* The core's memory images into @j's tree: 0, or 2 and a message */
static int add_images(struct job *j)
{
	const struct ss_device *core = j->src->core;
	size_t k;

	for (k = 0; core && k < core->ndumps; k++) {
		const struct ss_dump *m = &core->dumps[k];
		const struct image *im = load_image(m->file);
		ocsd_mem_space_acc_t sp;
		uint64_t len;

		/* as OpenCSD's reader: the code there decodes as unavailable */
		if (!im)
			continue;
		if (mem_space(m->space, &sp)) {
			fprintf(stderr, "ete-decode: %s: space=%s: not a memory space\n",
				core->ini.path, m->space);
			return 2;
		}
		if (m->offset > im->len) {
			fprintf(stderr, "ete-decode: %s: offset=0x%llx is past the end of %s\n",
				core->ini.path, ULL(m->offset), m->file);
			return 2;
		}
		len = im->len - m->offset;
		if (m->length && m->length < len)
			len = m->length;
		if (!len)
			continue;
		if (len > UINT32_MAX) {
			fprintf(stderr, "ete-decode: %s: %s: an image of 4 GiB or more\n",
				core->ini.path, m->file);
			return 2;
		}
		if (ocsd_dt_add_buffer_mem_acc(j->tree, m->address, sp,
					       im->data + m->offset, len) != OCSD_OK) {
			fprintf(stderr, "ete-decode: %s: %s at 0x%llx: %s\n",
				core->ini.path, m->file, ULL(m->address),
				"OpenCSD refused it (an overlap?)");
			return 2;
		}
	}
	return 0;
}

/* An ETE register of the source's ini; @def < 0: required */
static int ete_reg(const struct ss_device *dev, const char *name, int64_t def,
		   uint32_t *val)
{
	int ret = ss_reg(dev, name, val);

	if (ret == -ENOENT && def >= 0) {
		*val = def;
		return 0;
	}
	if (ret)
		fprintf(stderr, "ete-decode: %s: [regs] %s %s\n", dev->ini.path,
			name, ret == -ENOENT ? "is missing" :
			"is not a 32-bit number");
	return ret ? 2 : 0;
}

/*
 * setup_job() - read a trace source's trace, gaps, registers and memory
 * images, and make its decode tree.  In the main thread: the library's
 * list of trees and its error logger's list of sources are not locked.
 * A CoreSight-formatted buffer is deformatted in the tree, which decodes
 * the source's trace ID only.  The registers OpenCSD's snapshot reader
 * requires are required; the others have its defaults.
 * @seen: the image files looked at for symbols already.  0, or 2 (and
 * a message) for a file that cannot be read or a decoder not made.
 */
static int setup_job(struct snapshot *ss, struct job *j, struct vec *seen)
{
	const struct ss_source *src = j->src;
	ocsd_ete_cfg ecfg = { 0 };
	uint32_t flags = 0;
	uint8_t csid;
	int ret = 2;

	j->d.ranges.size = sizeof(struct range);
	j->d.asyncs.size = sizeof(uint64_t);
	j->d.cpu = j->cpu;
	j->d.out = &j->out;
	j->trace = (uint8_t *)slurp(src->buf->file, &j->len);
	if (!j->trace) {
		fprintf(stderr, "ete-decode: %s: %s\n", src->buf->file,
			strerror(errno));
		return 2;
	}
	if (etecap_source(src))
		read_gaps(ss->dir, j);
	if (cfg.mode == MODE_PRINT && src->core)
		read_image_elfs(src->core, seen);
	if (ete_reg(src->dev, "TRCCONFIGR", -1, &ecfg.reg_configr) ||
	    ete_reg(src->dev, "TRCTRACEIDR", -1, &ecfg.reg_traceidr) ||
	    ete_reg(src->dev, "TRCIDR0", -1, &ecfg.reg_idr0) ||
	    ete_reg(src->dev, "TRCIDR1", 0x4100F403, &ecfg.reg_idr1) ||
	    ete_reg(src->dev, "TRCIDR2", -1, &ecfg.reg_idr2) ||
	    ete_reg(src->dev, "TRCIDR8", 0, &ecfg.reg_idr8) ||
	    ete_reg(src->dev, "TRCDEVARCH", 0x47705A13, &ecfg.reg_devarch))
		return 2;
	ecfg.arch_ver = ARCH_AA64;
	ecfg.core_prof = OCSD_PROFILE_A;
	j->trace_id = ecfg.reg_traceidr & 0x7f;

	if (src->buf->format == SS_CORESIGHT)
		flags = OCSD_DFRMTR_FRAME_MEM_ALIGN;
	else if (src->buf->format == SS_DSTREAM_CORESIGHT)
		flags = OCSD_DFRMTR_HAS_FSYNCS;
	j->tree = ocsd_create_dcd_tree(src->buf->format == SS_SOURCE_DATA ?
				       OCSD_TRC_SRC_SINGLE :
				       OCSD_TRC_SRC_FRAME_FORMATTED, flags);
	if (!j->tree) {
		fprintf(stderr, "ete-decode: cannot create a decode tree\n");
		goto out;
	}
	ocsd_def_errlog_set_strprint_cb(j->tree, NULL, log_cb);
	if (ocsd_dt_create_decoder(j->tree, OCSD_BUILTIN_DCD_ETE,
				   OCSD_CREATE_FLG_FULL_DECODER, &ecfg,
				   &csid) != OCSD_OK) {
		fprintf(stderr, "ete-decode: %s: cannot create the ETE decoder\n",
			src->dev->ini.path);
		goto out;
	}
	ocsd_dt_set_gen_elem_outfn(j->tree, elem_cb, &j->d);
	ret = add_images(j);
out:
	errlog_release();
	return ret;
}

static void free_job(struct job *j)
{
	if (j->tree)
		ocsd_destroy_dcd_tree(j->tree);
	free(j->trace);
	free(j->gaps);
	free(j->gap_offs);
	free(j->d.ranges.p);
	free(j->d.asyncs.p);
	free(j->out.buf);
	if (j->out.spill)
		fclose(j->out.spill);
}

/*
 * Cut the decoded ranges into intervals: each A-Sync opens one, which the
 * next A-Sync completes; a segment end (a gap or the end of the stream)
 * closes it incomplete.  Ranges before a segment's first A-Sync belong to
 * no interval.
 */
static void split(struct decode *d, const uint64_t *gaps, size_t ngaps,
		  size_t len, struct vec *out)
{
	uint64_t *as = d->asyncs.p;
	size_t a, r = 0, g = 0;

	for (a = 0; a < d->asyncs.len; a++) {
		uint64_t x = as[a], nxt = UINT64_MAX, bound = len, end;
		struct interval *v = vec_push(out);

		while (g < ngaps && gaps[g] <= x)
			g++;
		if (g < ngaps)
			bound = gaps[g];
		if (a + 1 < d->asyncs.len)
			nxt = as[a + 1];
		end = nxt < bound ? nxt : bound;
		v->aoff = x;
		v->complete = nxt < bound;
		v->seg = g;
		while (r < d->ranges.len &&
		       AT(d->ranges, struct range, r).idx < x)
			r++;
		v->first = r;
		v->count = 0;
		while (r < d->ranges.len &&
		       AT(d->ranges, struct range, r).idx < end) {
			v->count++;
			r++;
		}
	}
}

static void hash_intervals(struct decode *d, struct vec *iv)
{
	size_t i, j;

	for (i = 0; i < iv->len; i++) {
		struct interval *v = &AT(*iv, struct interval, i);

		v->hash = FNV_BASIS;
		v->n = v->count;
		for (j = 0; j < v->count; j++) {
			struct range *r = &AT(d->ranges, struct range,
					      v->first + j);

			v->hash = fnv(v->hash, r->start, r->end);
			if (r->q)
				v->hash = fnv(v->hash, r->n, Q_MARK);
		}
	}
}

/* ---- truth ---- */

struct truth {
	struct vec iv;		/* struct interval */
	struct vec ranges;	/* struct range (ranges mode) */
	bool hashes;
	bool lost;
};

static int read_truth(const char *path, struct truth *t)
{
	FILE *f = fopen(path, "r");
	char line[256];
	struct interval *cur = NULL;

	if (!f) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long off, a, b;
		unsigned int n;

		if (line[0] == '#') {
			t->lost = true;
		} else if (sscanf(line, "A %llu", &off) == 1) {
			if (cur)
				cur->complete = true;
			if (!t->hashes) {
				cur = vec_push(&t->iv);
				memset(cur, 0, sizeof(*cur));
				cur->aoff = off;
				cur->first = t->ranges.len;
			}
		} else if ((line[0] == 'R' || line[0] == 'Q') &&
			   sscanf(line + 1, " %llu %llx %llx %u", &off, &a, &b,
				  &n) == 4) {
			struct range *r = vec_push(&t->ranges);

			r->idx = off;
			r->start = a;
			r->end = b;
			r->n = n;
			r->q = line[0] == 'Q';
			if (cur)
				cur->count++;
		} else if (sscanf(line, "H %llu %u %llx", &off, &n, &a) == 3) {
			t->hashes = true;
			cur = vec_push(&t->iv);
			memset(cur, 0, sizeof(*cur));
			cur->aoff = off;
			cur->n = n;
			cur->hash = a;
			cur->complete = true;
		}
	}
	fclose(f);
	if (!t->hashes) {
		struct decode tmp = { .ranges = t->ranges };

		hash_intervals(&tmp, &t->iv);
	}
	return 0;
}

/* Decoded interval @v equals truth interval @w (a partial one: a prefix) */
static bool same(struct decode *d, struct interval *v, struct truth *t,
		 struct interval *w)
{
	size_t j;

	if (v->complete)
		return v->n == w->n && v->hash == w->hash;
	if (t->hashes || v->count > w->count)
		return false;
	for (j = 0; j < v->count; j++) {
		struct range *a = &AT(d->ranges, struct range, v->first + j);
		struct range *b = &AT(t->ranges, struct range, w->first + j);

		if (a->start != b->start || a->end != b->end || a->n != b->n ||
		    a->q != b->q)
			return false;
	}
	return true;
}

static void show_diff(struct decode *d, struct interval *v)
{
	size_t j;

	printf("# decoded interval at %llu (%u ranges, hash 0x%016llx) %s\n",
	       ULL(v->aoff), v->n,
	       ULL(v->hash),
	       "is not in the truth; its first ranges:");
	for (j = 0; j < v->count && j < 4; j++) {
		struct range *r = &AT(d->ranges, struct range, v->first + j);

		printf("#   %c 0x%llx 0x%llx %u\n", r->q ? 'Q' : 'R',
		       ULL(r->start), ULL(r->end), r->n);
	}
}

/* What compare() found for each decoded interval */
struct match {
	size_t k;		/* the truth interval */
	bool anchor;		/* k is certain: compared complete, or at the cursor */
};

/*
 * Coverage: between two decoded intervals @p and @q that matched truth
 * intervals with others between them, those others are missing from the
 * decode.  They are missing at a gap if a gap record lies between @p and
 * @q and accounts for them: it does not know how much was lost, or the
 * bytes it and the others say were lost cover the truth's bytes between
 * the two A-Syncs beyond the file's.  (The file may have more: the
 * driver's padding.)  Returns how many are missing without a gap record
 * that says why (0: at a gap), having said where.
 */
static size_t hole(struct interval *p, struct interval *q, size_t holes,
		   struct truth *t, size_t kp, size_t kq, const struct gap *gaps,
		   size_t ngaps)
{
	uint64_t dt = AT(t->iv, struct interval, kq).aoff -
		      AT(t->iv, struct interval, kp).aoff;
	uint64_t df = q->aoff - p->aoff, lost = 0;
	size_t g, n = 0;

	for (g = 0; g < ngaps; g++) {
		if (gaps[g].off <= p->aoff || gaps[g].off > q->aoff)
			continue;
		n++;
		if (gaps[g].lost < 0)
			return 0;
		lost += gaps[g].lost;
	}
	if (n && dt <= df + lost)
		return 0;
	printf("# truth interval%s %zu", holes > 1 ? "s" : "", kp + 1);
	if (holes > 1)
		printf("-%zu", kq - 1);
	printf(" (A-Sync at %llu) missing from the decode %s %llu and %llu: ",
	       ULL(AT(t->iv, struct interval, kp + 1).aoff),
	       "between file offsets", ULL(p->aoff), ULL(q->aoff));
	if (!n)
		printf("no gap record there\n");
	else
		printf("%zu gap record%s account for %llu bytes, %s %llu\n",
		       n, n > 1 ? "s" : "", ULL(lost),
		       "the truth's bytes there beyond the file's are",
		       ULL(dt - df));
	return holes;
}

/*
 * Match each decoded interval with a truth interval: within a segment
 * the very next one; a segment's first, or one after a difference, the
 * first equal one from there on (a gap or a wrap loses whole intervals).
 * Then coverage: every truth interval from the first matched to the last
 * must be matched, or missing where a gap record says why (hole()).
 */
static int compare(struct decode *d, struct vec *iv, struct truth *t,
		   const struct gap *gaps, size_t ngaps)
{
	size_t i, cursor = 0, ntruth = t->iv.len, last = SIZE_MAX;
	unsigned long equal = 0, diff = 0, skipped = 0, partial = 0;
	size_t first_k = 0, last_k = 0, matched = 0, at_gaps = 0, missing = 0;
	struct match *m = calloc(iv->len ? iv->len : 1, sizeof(*m));
	bool chained = false, found;
	size_t k;

	if (!m) {
		perror("ete-decode");
		exit(2);
	}
	for (i = 0; i < iv->len; i++) {
		struct interval *v = &AT(*iv, struct interval, i);

		m[i].k = SIZE_MAX;
		if (!v->complete && (t->hashes || !v->count)) {
			skipped++;
			chained = false;
			continue;
		}
		/* within a segment: the very next truth interval */
		found = chained && cursor < ntruth &&
			same(d, v, t, &AT(t->iv, struct interval, cursor));
		k = cursor;
		m[i].anchor = found;
		/* else the first equal one: after a gap, or a hole */
		for (; !found && k < ntruth; k++)
			found = same(d, v, t, &AT(t->iv, struct interval, k));
		if (found && !m[i].anchor)
			k--;
		if (found) {
			equal++;
			partial += !v->complete;
			m[i].k = k;
			m[i].anchor |= v->complete;
			/*
			 * A partial interval (a prefix) may match more than
			 * one place: it does not move the cursor.
			 */
			if (v->complete)
				cursor = k + 1;
			chained = v->complete;
		} else {
			diff++;
			show_diff(d, v);
			chained = false;
		}
	}
	for (i = 0; i < iv->len; i++) {
		struct interval *v = &AT(*iv, struct interval, i);

		if (!m[i].anchor)
			continue;
		if (last == SIZE_MAX) {
			first_k = m[i].k;
			matched = 1;
		} else if (m[i].k > m[last].k) {
			size_t holes = m[i].k - m[last].k - 1;
			size_t miss = holes ?
				hole(&AT(*iv, struct interval, last), v, holes, t,
				     m[last].k, m[i].k, gaps, ngaps) : 0;

			missing += miss;
			at_gaps += holes - miss;
			matched++;
		}
		last_k = m[i].k;
		last = i;
	}
	free(m);
	printf("intervals: decoded %zu, compared %lu, equal %lu (%lu partial), ",
	       iv->len, equal + diff, equal, partial);
	printf("different %lu, skipped %lu; truth %zu%s; ", diff, skipped,
	       ntruth, t->lost ? " (records lost)" : "");
	if (last == SIZE_MAX)
		printf("coverage: no truth interval matched for certain; ");
	else
		printf("coverage: truth intervals %zu-%zu, %zu matched, %zu %s, %zu missing; ",
		       first_k, last_k, matched, at_gaps, "missing at gaps",
		       missing);
	printf("ranges %zu; errors %lu\n", d->ranges.len, d->errors + d->nacc);
	return diff || missing || t->lost || !equal || d->errors || d->nacc ?
	       1 : 0;
}

static const char usage[] =
	"usage: ete-decode [options] SNAPSHOT_DIR\n"
	"Decode the ETE trace of an OpenCSD snapshot directory (etecap's, or any\n"
	"in OpenCSD's snapshot format) with OpenCSD: print the executed\n"
	"instruction ranges with their\n"
	"functions, the tasks, timestamps, exceptions, trace on/off and gaps.\n"
	"\n"
	"      --cpu N          decode the trace sources of core cpu_N only\n"
	"                       (default: every ETE trace source of the snapshot;\n"
	"                       with --hash or --compare, the lowest CPU's)\n"
	"      --source NAME    decode the trace source NAME (ETE_0, ETE_0_s2) or\n"
	"                       the ETE sources of the buffer NAME (ETB_1) only\n"
	"      --format FMT     text (default) or json: one JSON object a line\n"
	"  -j, --jobs N         decode up to N CPUs at once, a thread each\n"
	"                       (default: the number of online CPUs; 1: one\n"
	"                       thread); the output is the same for any N\n"
	"      --hash           print, per A-Sync interval, the offset and a hash of\n"
	"                       its ranges instead of the ranges\n"
	"      --compare TRUTH  compare the decode with the model's ground truth\n"
	"                       file TRUTH (R/Q/A or A/H records); exit 1 on a\n"
	"                       difference\n"
	"      --to-perf FILE   write the snapshot (--cpu N: that CPU's trace\n"
	"                       only) as a perf.data FILE, its code as ELF\n"
	"                       images in FILE.d/, and exit\n"
	"  -h, --help           this help\n"
	"      --version        print the version and exit\n"
	"\n"
	"Symbols: the snapshot's symbols.txt (\"0xVA SIZE NAME\" lines), its memory\n"
	"images that are ELF files, and the ELF files of its elf.txt\n"
	"(\"0xLOAD_BIAS PATH\" lines); tasks: its contexts.txt; the timestamps'\n"
	"frequency: cntfrq_el0= of its machine.txt.\n"
	"\n"
	"Exit status: 0 decoded with no error (and, with --compare, equal to the\n"
	"truth), 1 decode errors or differences, 2 bad usage or unreadable files.\n";

enum { OPT_CPU = 256, OPT_HASH, OPT_COMPARE, OPT_VERSION, OPT_TO_PERF,
	OPT_FORMAT, OPT_SOURCE };

static const struct option long_opts[] = {
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "jobs", required_argument, NULL, 'j' },
	{ "hash", no_argument, NULL, OPT_HASH },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "to-perf", required_argument, NULL, OPT_TO_PERF },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ }
};

/* A bad command line: what is wrong, the synopsis, exit status 2 */
static int bad_usage(const char *msg, const char *arg)
{
	if (msg)
		fprintf(stderr, "ete-decode: %s%s%s\n", arg ? arg : "",
			arg ? ": " : "", msg);
	fprintf(stderr, "%.*s(ete-decode --help for the options)\n",
		(int)(strchr(usage, '\n') + 1 - usage), usage);
	return 2;
}

/* A number in [min, max], or -1 */
static long number(const char *s, long min, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < min || n > max)
		return -1;
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * --to-perf: the tasks perf needs are the context IDs the trace carries:
 * the decode collected them, CPU by CPU; write the perf.data (perfdata.c)
 */
static int to_perf(const char *dir, int only, const char *out)
{
	struct perfdata_opts o = { .cpu = only, .log = stderr };
	uint32_t tids[64];
	char err[512];
	size_t i, k, n = 0;

	for (i = 0; i < njobs; i++) {
		struct decode *d = &jobs[i].d;

		for (k = 0; k < d->nctx && n < ARRAY_SIZE(tids); k++) {
			size_t m;

			for (m = 0; m < n && tids[m] != d->ctx[k]; m++)
				;
			if (m == n)
				tids[n++] = d->ctx[k];
		}
	}
	o.tids = tids;
	o.ntids = n;
	if (perfdata_write(dir, out, &o, err, sizeof(err))) {
		fprintf(stderr, "ete-decode: %s\n", err);
		return 2;
	}
	return 0;
}

/* --hash and --compare: one CPU's intervals */
static int check_one(struct job *j, const char *truth)
{
	struct vec iv = { .size = sizeof(struct interval) };
	struct truth t = { .iv.size = sizeof(struct interval),
			   .ranges.size = sizeof(struct range) };
	struct decode *d = &j->d;
	size_t i;

	find_asyncs(j->trace, j->len, d);
	split(d, j->gap_offs, j->ngaps, j->len, &iv);
	hash_intervals(d, &iv);
	if (truth) {
		if (read_truth(truth, &t))
			return 2;
		return compare(d, &iv, &t, j->gaps, j->ngaps);
	}
	for (i = 0; i < iv.len; i++) {
		struct interval *v = &AT(iv, struct interval, i);

		printf("A %llu\n", ULL(v->aoff));
		if (v->complete)
			printf("H %llu %u 0x%016llx\n", ULL(v->aoff), v->n,
			       ULL(v->hash));
	}
	return d->errors ? 1 : 0;
}

static int cmp_job(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	unsigned int cx = x->cpu, cy = y->cpu;	/* -1, no CPU: last */

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x->src > y->src) - (x->src < y->src);
}

/*
 * The jobs: the snapshot's ETE trace sources (of core cpu_@cpu if @cpu is
 * not negative, named @source or in the buffer named @source if given),
 * in CPU order.  --hash and --compare take a raw (source_data) buffer: the
 * gaps and A-Syncs are at its byte offsets.  0, or 2 and a message.
 */
static int select_sources(const struct snapshot *ss, long cpu,
			  const char *source)
{
	size_t i, n = 0;

	jobs = calloc(ss->nsrc, sizeof(*jobs));
	if (!jobs) {
		perror("ete-decode");
		return 2;
	}
	for (i = 0; i < ss->nsrc; i++) {
		const struct ss_source *src = &ss->src[i];
		bool named = source && (!strcmp(src->dev->name, source) ||
					!strcmp(src->buf->name, source));

		if ((cpu >= 0 && src->cpu != cpu) || (source && !named))
			continue;
		/* "ETE" or "ETE.<version>" as OpenCSD's snapshot reader */
		if (strncmp(src->dev->type, "ETE", 3) ||
		    (src->dev->type[3] && src->dev->type[3] != '.')) {
			if (named)
				fprintf(stderr, "ete-decode: %s: type=%s: %s\n",
					src->dev->ini.path, src->dev->type,
					"not an ETE trace source");
			continue;
		}
		if (cfg.mode == MODE_STORE && src->buf->format != SS_SOURCE_DATA) {
			fprintf(stderr, "ete-decode: %s: %s\n", src->buf->name,
				"--hash and --compare need source_data, not formatted trace");
			return 2;
		}
		jobs[n].src = src;
		jobs[n].cpu = src->cpu;
		n++;
	}
	njobs = n;
	if (!njobs) {
		fprintf(stderr, "ete-decode: %s: no ETE trace source%s%s%s\n",
			ss->dir, source ? " named " : "", source ? source : "",
			cpu >= 0 ? " of that CPU" : "");
		return 2;
	}
	qsort(jobs, njobs, sizeof(*jobs), cmp_job);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *truth = NULL, *perf = NULL, *source = NULL;
	struct snapshot ss;
	char err[512];
	struct vec seen = { .size = sizeof(char *) };
	unsigned long long bytes = 0;
	long cpu = -1, nthreads = 0, online;
	bool hash = false;
	int i, ret = 0;
	size_t k;
	double t0;

	/* options and the directory in any order, as getopt_long() permutes */
	while ((i = getopt_long(argc, argv, "hj:", long_opts, NULL)) != -1) {
		switch (i) {
		case OPT_CPU:
			cpu = number(optarg, 0, INT_MAX);
			if (cpu < 0)
				return bad_usage("--cpu takes a CPU number", optarg);
			break;
		case OPT_SOURCE:
			source = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return bad_usage("--format is text or json", optarg);
			cfg.json = !strcmp(optarg, "json");
			break;
		case 'j':
			nthreads = number(optarg, 1, 4096);
			if (nthreads < 0)
				return bad_usage("-j takes a number of threads, 1 to 4096",
						 optarg);
			break;
		case OPT_HASH:
			hash = true;
			break;
		case OPT_COMPARE:
			truth = optarg;
			break;
		case OPT_TO_PERF:
			perf = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case OPT_VERSION:
			printf("ete-decode %s\n", ETE_VERSION);
			return 0;
		default:
			return bad_usage(NULL, NULL);
		}
	}
	if (optind != argc - 1)
		return bad_usage(optind < argc ? "one snapshot directory only" :
				 "no snapshot directory", NULL);
	dir = argv[optind];
	if (cfg.json && (hash || truth))
		return bad_usage("--format json goes with neither --hash nor --compare",
				 NULL);
	cfg.mode = perf ? MODE_CONTEXTS : hash || truth ? MODE_STORE : MODE_PRINT;

	if (ss_open(&ss, dir, err, sizeof(err))) {
		fprintf(stderr, "ete-decode: %s\n", err);
		ss_close(&ss);
		return 2;
	}
	ret = select_sources(&ss, cpu, source);
	if (ret)
		goto out;
	/* one CPU's truth: the lowest CPU's */
	if (cfg.mode == MODE_STORE)
		njobs = 1;
	if (cfg.mode == MODE_PRINT) {
		read_symbols_txt(dir);
		read_elf_txt(dir);
		read_contexts(dir);
		read_cntfrq(dir);
	}
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (!nthreads)
		nthreads = online > 0 ? online : 1;
	if ((size_t)nthreads > njobs)
		nthreads = njobs;

	t0 = now();
	ocsd_def_errlog_init(OCSD_ERR_SEV_ERROR, 1);
	ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL);
	for (k = 0; k < njobs; k++) {
		jobs[k].d.slot = k;
		jobs[k].d.quiet = hash || perf;
		ret = setup_job(&ss, &jobs[k], &seen);
		/* --to-perf takes the CPUs it has files of, as perfdata.c does */
		if (ret && perf) {
			jobs[k].skip = true;
			ret = 0;
		}
		if (ret)
			goto out;
		bytes += jobs[k].len;
	}
	if (cfg.mode == MODE_PRINT)
		sort_symbols();

	run_jobs(nthreads);
	fflush(stdout);

	if (perf) {
		ret = to_perf(dir, cpu, perf);
	} else if (cfg.mode == MODE_STORE) {
		ret = check_one(&jobs[0], truth);
	} else {
		double t = now() - t0;

		for (k = 0; k < njobs; k++)
			if (jobs[k].d.errors || jobs[k].d.nacc)
				ret = 1;
		fprintf(stderr,
			"ete-decode: %llu bytes of trace from %zu CPU%s in %.3f s: %.1f MB/s (%ld thread%s)\n",
			bytes, njobs, njobs == 1 ? "" : "s", t,
			t > 0 ? bytes / t / 1e6 : 0.0, nthreads,
			nthreads == 1 ? "" : "s");
	}
out:
	for (k = 0; k < njobs; k++)
		free_job(&jobs[k]);
	free(jobs);
	for (k = 0; k < images.len; k++) {
		free(AT(images, struct image, k).path);
		free(AT(images, struct image, k).data);
	}
	free(images.p);
	ss_close(&ss);
	for (k = 0; k < seen.len; k++)
		free(AT(seen, char *, k));
	free(seen.p);
	return ret;
}
