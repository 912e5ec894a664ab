// SPDX-License-Identifier: GPL-2.0
/*
 * perfdata: an etecap snapshot directory (OpenCSD snapshot format) as a
 * perf.data file that perf (6.1 and later, with OpenCSD) decodes as
 * CoreSight ETE AUX trace: `perf script --itrace=...`, `perf report`.
 *
 * What is written, and why perf needs it (tools/perf of Linux 6.1):
 *
 * - The file header (perf_session__read_header()): one attribute, the
 *   cs_etm event: type PERFDATA_PMU_TYPE, the PMU type the AUXTRACE_INFO
 *   header repeats (cs_etm__evsel_is_auxtrace() matches the two; the
 *   number need not exist on the reading host); config with ETM_OPT_TS
 *   only when TRCCONFIGR.TS (perf 6.12 takes it from the config, 7.x
 *   from TRCCONFIGR, cs_etm__setup_timeless_decoding()): without
 *   timestamps perf decodes "timeless", one CPU's queue after the other;
 *   sample_id_all with TID|CPU|IDENTIFIER, so that the AUX records say
 *   which CPU their data is from (cs_etm__queue_aux_records_cb() matches
 *   it with the AUXTRACE record's cpu) and evlist__event2evsel() finds the
 *   event once cs_etm__synth_events() has added its own; an ID for it
 *   (cs_etm__synth_events() numbers its events from it).
 * - Features: HEADER_AUXTRACE, the index of the AUXTRACE records: without
 *   it cs_etm__queue_aux_records() finds nothing, the buffers are queued
 *   as they come and taken as formatted (frame) data, which TRBE's raw
 *   ETE is not; HEADER_ARCH "aarch64": machine__get_kernel_start() and
 *   the instruction decoding depend on it (with the reading host's x86_64
 *   perf puts the kernel at 1 << 63 regardless); HEADER_BUILD_ID, one per
 *   ELF image written; HEADER_NRCPUS, HEADER_CPUID (MIDR_EL1 of the
 *   first CPU, arm64 perf's format), HEADER_OSRELEASE, HEADER_HOSTNAME,
 *   HEADER_VERSION, HEADER_EVENT_DESC (the event's name), HEADER_PMU_
 *   MAPPINGS (cs_etm = the type) for `perf report --header`.
 * - PERF_RECORD_TIME_CONV, before AUXTRACE_INFO (which copies it), when
 *   machine.txt has cntfrq_el0: the trace's timestamps are the virtual
 *   counter's ticks (TS_SOURCE below), and perf 6.12 and later turn them
 *   into sample times with it (tsc_to_perf_time()); without it every
 *   time is 0 and perf 7.x, which decodes a capture with timestamps in
 *   time order, gives no sample at all.  time_zero is 0: the times are
 *   the counter's, in ns from its zero.
 * - PERF_RECORD_AUXTRACE_INFO, type PERF_AUXTRACE_CS_ETM: header version
 *   1, PMU type << 32 | number of CPUs, snapshot 0, then per CPU the ETE
 *   block (magic __perf_cs_ete_magic, CPU, 9 parameters: TRCCONFIGR,
 *   TRCTRACEIDR, TRCIDR0, TRCIDR1, TRCIDR2, TRCIDR8, TRCAUTHSTATUS,
 *   TRCDEVARCH, TS_SOURCE), as cs_etm__process_auxtrace_info() and
 *   cs_etm__create_meta_blk() read it.
 * - PERF_RECORD_COMM for each task of contexts.txt and each task the
 *   caller names: the trace's Context packets set the thread (context ID
 *   as the TID when TRCCONFIGR.CID, the VMID with VMID/VMIDOPT:
 *   cs_etm__get_pid_fmt()), COMM names it.
 * - PERF_RECORD_MMAP2 of the memory images, written as ELF files (.text
 *   at file offset ELF_TEXT_OFF, a symbol table, a GNU build ID note):
 *   cs_etm__mem_access() gives the decoder the code bytes from the map of
 *   the address (dso__data_read_offset() at map_ip()); for user addresses
 *   the thread's maps (one MMAP2 per task and image, pgoff ELF_TEXT_OFF),
 *   for kernel addresses (above the kernel start: 1 << 63 as no kernel
 *   map is given) the machine's kernel maps: the image is given as a
 *   kernel module "<name>.ko" (machine__process_kernel_mmap_event():
 *   an absolute path makes a module map, read from that file with no
 *   vmlinux or kallsyms needed; thread__find_map() loads its symbols,
 *   and dso__process_kernel_symbol() then sets the map's pgoff to the
 *   .text file offset: the map starts at the image's address, and the
 *   symbol table must not be empty).
 * - Per CPU and per segment of its stream (cut at each gaps_cpuN.txt
 *   offset: the decoder is reset at each buffer, never decodes across a
 *   gap): PERF_RECORD_AUX (aux_offset, aux_size: the segment; flags
 *   PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW, which makes cs_etm__queue_aux_
 *   fragment() set up an unformatted decoder, TRUNCATED when data was
 *   lost after it) and PERF_RECORD_AUXTRACE (size padded to 8 bytes, the
 *   padding outside the AUX record's size so never decoded; offset =
 *   stream offset, idx = the CPU's queue, cpu, tid -1) with the bytes.
 *
 * perf 6.1 decodes an unformatted queue with the first CPU's metadata
 * (cs_etm__alloc_queue(): one decoder, metadata[0]), so all samples are
 * attributed to that CPU and decoded with its registers: write one CPU
 * (opts->cpu) for an exact attribution; a warning is printed when the
 * CPUs' registers differ.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* asprintf() */
#endif
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata.h"

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

#define PERFDATA_PMU_TYPE	0x4554	/* "ET": any number will do */
#define PERF_AUXTRACE_CS_ETM	3
#define CS_ETE_MAGIC		0x5050505050505050ULL
#define CS_HEADER_VERSION	1
#define ETE_NR_PARAMS		9	/* the registers, then TS_SOURCE */
/*
 * CS_ETE_TS_SOURCE: TRFCR_ELx.TS of the capture.  The driver always
 * selects the virtual counter (ete/config-image.c, TRFCR_TS_VIRTUAL); perf
 * 6.12 and later warn "Virtual timestamps are not enabled" without it,
 * perf 6.1 skips what it does not know.
 */
#define ETE_TS_SOURCE_VIRTUAL	1

#define REC_MMAP2		10
#define REC_COMM		3
#define REC_AUX			11
#define REC_AUXTRACE_INFO	70
#define REC_AUXTRACE		71
#define REC_TIME_CONV		79
#define REC_BUILD_ID		67	/* PERF_RECORD_HEADER_BUILD_ID */

#define MISC_KERNEL		1
#define MISC_USER		2
#define MISC_BUILD_ID_SIZE	BIT(15)

#define SAMPLE_IP		BIT_ULL(0)
#define SAMPLE_TID		BIT_ULL(1)
#define SAMPLE_CPU		BIT_ULL(7)
#define SAMPLE_PERIOD		BIT_ULL(8)
#define SAMPLE_IDENTIFIER	BIT_ULL(16)
#define ATTR_SIZE		128	/* PERF_ATTR_SIZE_VER7 */
#define EVENT_ID		1

#define AUX_FLAG_TRUNCATED	0x01
#define AUX_FLAG_CS_RAW		0x0100

/* perf_event_attr.config bits of the cs_etm PMU (coresight-pmu.h) */
#define ETM_OPT_CYCACC		12
#define ETM_OPT_CTXTID		14
#define ETM_OPT_CTXTID2		15
#define ETM_OPT_TS		28
#define ETM_OPT_RETSTK		29
#define CFG_CYCACC		BIT(4)
#define CFG_CID			BIT(6)
#define CFG_VMID		BIT(7)
#define CFG_TS			BIT(11)
#define CFG_RS			BIT(12)
#define CFG_VMIDOPT		BIT(15)

enum {	/* header feature bits (tools/perf/util/header.h) */
	F_BUILD_ID = 2, F_HOSTNAME = 3, F_OSRELEASE = 4, F_VERSION = 5,
	F_ARCH = 6, F_NRCPUS = 7, F_CPUID = 9, F_EVENT_DESC = 12,
	F_PMU_MAPPINGS = 16, F_AUXTRACE = 18,
};

#define ELF_TEXT_OFF		0x1000
#define MAX_CPUS		512
#define MAX_GAPS		4096

enum {
	R_CONFIGR, R_TRACEIDR, R_IDR0, R_IDR1, R_IDR2, R_IDR8, R_AUTH,
	R_DEVARCH, NREGS
};

static const char *const reg_names[NREGS] = {
	"TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2",
	"TRCIDR8", "TRCAUTHSTATUS", "TRCDEVARCH",
};

struct buf {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

struct cpu {
	int cpu;
	uint64_t regs[NREGS];
	char *trace;		/* path */
	uint64_t size;
	uint64_t gaps[MAX_GAPS];
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
	char *path;
	unsigned char bid[20];
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
	struct cpu *cpus;
	size_t ncpus;
	struct image *imgs;
	size_t nimgs;
	struct task *tasks;
	size_t ntasks;
	char *machine;	/* machine.txt */
};

static int fail(struct snap *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, s->errlen, fmt, ap);
	va_end(ap);
	return -err;
}

/* ---- byte buffer ---- */

static void *grow(struct buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

static void put(struct buf *b, const void *v, size_t n)
{
	void *p = grow(b, n);

	if (p)
		memcpy(p, v, n);
}

static void put_zero(struct buf *b, size_t n)
{
	void *p = grow(b, n);

	if (p)
		memset(p, 0, n);
}

/* little-endian host assumed (x86-64, arm64), as perf writes natively */
static void put16(struct buf *b, uint16_t v) { put(b, &v, 2); }
static void put32(struct buf *b, uint32_t v) { put(b, &v, 4); }
static void put64(struct buf *b, uint64_t v) { put(b, &v, 8); }

static void align(struct buf *b, size_t a)
{
	put_zero(b, (a - b->len % a) % a);
}

static void set16(struct buf *b, size_t off, uint16_t v)
{
	if (!b->oom)
		memcpy(b->p + off, &v, 2);
}

static void set64(struct buf *b, size_t off, uint64_t v)
{
	if (!b->oom)
		memcpy(b->p + off, &v, 8);
}

/* perf's header string: u32 length (NUL padded to 64), the string */
static void put_str(struct buf *b, const char *str)
{
	size_t n = strlen(str) + 1, len = (n + 63) / 64 * 64;

	put32(b, len);
	put(b, str, n - 1);
	put_zero(b, len - n + 1);
}

/* ---- snapshot files ---- */

static char *path_of(const char *dir, const char *name)
{
	char *p;

	if (name[0] == '/')
		return strdup(name);
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	long n = -1;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n >= 0 && !fseek(f, 0, SEEK_SET))
		b = malloc(n + 1);
	if (!b || fread(b, 1, n, f) != (size_t)n) {
		int e = errno ? errno : EIO;

		free(b);
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	b[n] = 0;
	if (len)
		*len = n;
	return b;
}

static char *slurp_in(const char *dir, const char *name, size_t *len)
{
	char *p = path_of(dir, name), *b;
	int e;

	if (!p)
		return NULL;
	b = slurp(p, len);
	e = errno;
	free(p);
	errno = e;
	return b;
}

/*
 * ini_get() - the value of @key in [@section] of an ini text, trimmed,
 * into @out; keys compare case-insensitively and "KEY(size:32)" is KEY.
 */
static bool ini_get(const char *text, const char *section, const char *key,
		    char *out, size_t size)
{
	size_t klen = strlen(key), slen = strlen(section);
	const char *p = text;
	bool in = false;

	while (p && *p) {
		const char *eol = strchr(p, '\n'), *v = NULL;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' ||
			       p[len - 1] == '\t'))
			len--;
		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		if (len && p[0] == '[') {
			in = len == slen + 2 && p[len - 1] == ']' &&
			     !strncasecmp(p + 1, section, slen);
		} else if (in && len > klen && !strncasecmp(p, key, klen) &&
			   strchr("=( \t", p[klen])) {
			v = memchr(p, '=', len);
		}
		if (v) {
			size_t vl = len - (v + 1 - p);

			while (vl && (v[1] == ' ' || v[1] == '\t'))
				v++, vl--;
			if (vl >= size)
				return false;
			memcpy(out, v + 1, vl);
			out[vl] = 0;
			return true;
		}
		p = eol ? eol + 1 : NULL;
	}
	return false;
}

static bool parse_u64(const char *str, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(str, &end, 0);
	return !errno && end != str && (!*end || *end == ' ' || *end == '\n');
}

static int cmp_cpu(const void *a, const void *b)
{
	return ((const struct cpu *)a)->cpu - ((const struct cpu *)b)->cpu;
}

/* The buffer file of ETE_<cpu> named in trace.ini, or trace_cpu<cpu>.bin */
static char *trace_file(struct snap *s, const char *ini, int cpu)
{
	char key[32], name[128], file[PATH_MAX], sect[32], bname[128];
	int b;

	snprintf(key, sizeof(key), "ETE_%d", cpu);
	if (ini && ini_get(ini, "source_buffers", key, name, sizeof(name)))
		for (b = 0; b < 1024; b++) {
			snprintf(sect, sizeof(sect), "buffer%d", b);
			if (ini_get(ini, sect, "name", bname, sizeof(bname)) &&
			    !strcmp(bname, name) &&
			    ini_get(ini, sect, "file", file, sizeof(file)))
				return path_of(s->dir, file);
		}
	snprintf(file, sizeof(file), "trace_cpu%d.bin", cpu);
	return path_of(s->dir, file);
}

static int read_gaps(struct snap *s, struct cpu *c)
{
	char name[64], line[256];
	char *p;
	FILE *f;

	snprintf(name, sizeof(name), "gaps_cpu%d.txt", c->cpu);
	p = path_of(s->dir, name);
	if (!p)
		return -ENOMEM;
	f = fopen(p, "r");
	free(p);
	if (!f)
		return 0;	/* no gaps file: no gaps */
	while (fgets(line, sizeof(line), f)) {
		char *end;
		unsigned long long off = strtoull(line, &end, 10);

		if (end == line || off == 0 || off >= c->size)
			continue;
		if (c->ngaps && off <= c->gaps[c->ngaps - 1])
			continue;
		if (c->ngaps == MAX_GAPS) {
			fclose(f);
			return fail(s, E2BIG, "%s/gaps_cpu%d.txt: more than %d gaps",
				    s->dir, c->cpu, MAX_GAPS);
		}
		c->gaps[c->ngaps++] = off;
	}
	fclose(f);
	return 0;
}

/* Every ETE_<N>.ini of the snapshot's device list (or @only) */
static int read_cpus(struct snap *s, int only)
{
	char *snap, *trace, dev[64], file[PATH_MAX];
	int k, ret = 0;

	snap = slurp_in(s->dir, "snapshot.ini", NULL);
	if (!snap)
		return fail(s, errno, "%s/snapshot.ini: %s", s->dir,
			    strerror(errno));
	trace = slurp_in(s->dir, "trace.ini", NULL);
	s->cpus = calloc(MAX_CPUS, sizeof(*s->cpus));
	if (!s->cpus) {
		ret = -ENOMEM;
		goto out;
	}
	for (k = 0; k < 4 * MAX_CPUS && !ret; k++) {
		struct cpu *c;
		char *ini, v[64], *end;
		long n;
		int r;

		snprintf(dev, sizeof(dev), "device%d", k);
		if (!ini_get(snap, "device_list", dev, file, sizeof(file)))
			continue;
		if (strncmp(file, "ETE_", 4))
			continue;
		n = strtol(file + 4, &end, 10);
		if (end == file + 4 || strcmp(end, ".ini") || n < 0 ||
		    n >= 65536)
			continue;
		if (only >= 0 && n != only)
			continue;
		if (s->ncpus == MAX_CPUS) {
			ret = fail(s, E2BIG, "%s: more than %d CPUs", s->dir,
				   MAX_CPUS);
			break;
		}
		c = &s->cpus[s->ncpus++];
		c->cpu = n;
		ini = slurp_in(s->dir, file, NULL);
		if (!ini) {
			ret = fail(s, errno, "%s/%s: %s", s->dir, file,
				   strerror(errno));
			break;
		}
		for (r = 0; r < NREGS; r++) {
			if (!ini_get(ini, "regs", reg_names[r], v, sizeof(v)) ||
			    !parse_u64(v, &c->regs[r])) {
				/* TRCAUTHSTATUS: not read by the decoder */
				if (r == R_AUTH)
					continue;
				ret = fail(s, EINVAL, "%s/%s: no valid %s in [regs]",
					   s->dir, file, reg_names[r]);
				break;
			}
		}
		free(ini);
		if (ret)
			break;
		if (c->regs[R_TRACEIDR] == 0 || c->regs[R_TRACEIDR] >= 0x70) {
			ret = fail(s, EINVAL, "%s/%s: TRCTRACEIDR 0x%llx is not a trace ID",
				   s->dir, file,
				   (unsigned long long)c->regs[R_TRACEIDR]);
			break;
		}
		c->trace = trace_file(s, trace, c->cpu);
		if (!c->trace) {
			ret = -ENOMEM;
			break;
		}
		{
			struct stat st;

			if (stat(c->trace, &st)) {
				ret = fail(s, errno, "%s: %s", c->trace,
					   strerror(errno));
				break;
			}
			c->size = st.st_size;
		}
		ret = read_gaps(s, c);
	}
	if (!ret && !s->ncpus)
		ret = only >= 0 ?
		      fail(s, ENOENT, "%s: no ETE_%d.ini in snapshot.ini's device list",
			   s->dir, only) :
		      fail(s, ENOENT, "%s: no ETE_<N>.ini in snapshot.ini's device list",
			   s->dir);
	if (!ret) {
		size_t i;

		qsort(s->cpus, s->ncpus, sizeof(*s->cpus), cmp_cpu);
		for (i = 1; i < s->ncpus; i++)
			if (s->cpus[i].cpu == s->cpus[i - 1].cpu)
				ret = fail(s, EINVAL, "%s: ETE_%d.ini listed twice",
					   s->dir, s->cpus[i].cpu);
	}
	/* trace IDs are perf's handle on the metadata: unique */
	for (size_t i = 0; !ret && i < s->ncpus; i++)
		for (size_t j = 0; j < i; j++)
			if (s->cpus[i].regs[R_TRACEIDR] ==
			    s->cpus[j].regs[R_TRACEIDR]) {
				ret = fail(s, EINVAL, "%s: CPUs %d and %d have the same trace ID",
					   s->dir, s->cpus[j].cpu,
					   s->cpus[i].cpu);
				break;
			}
out:
	free(snap);
	free(trace);
	return ret;
}

struct dump {
	uint64_t va, len;
	char *file;
};

static int cmp_dump(const void *a, const void *b)
{
	const struct dump *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/*
 * A name for the image of @file (@va): memory.txt's source of it, the
 * "saved VA LENGTH FILE SOURCE" line: "--mem PATH", "module NAME",
 * "kernel text", or "pid PID PATH+OFFSET" (a process's mapping of PATH).
 */
static char *image_name(struct snap *s, const char *memtxt, uint64_t va)
{
	const char *p = memtxt;
	char *name = NULL;

	while (p && *p) {
		char act[32], file[PATH_MAX], src[PATH_MAX], opt[32];
		char mapped[PATH_MAX];
		unsigned long long v, len;
		const char *eol = strchr(p, '\n');
		int n = 0;

		if (*p != '#')
			n = sscanf(p, "%31s %llx %llx %4095s %31s %4095s %4095s",
				   act, &v, &len, file, opt, src, mapped);
		if (n >= 6 && v == va && !strcmp(act, "saved")) {
			char *base, *dot, *plus;

			if (n == 7 && !strcmp(opt, "pid")) {
				plus = strrchr(mapped, '+');
				if (plus)
					*plus = 0;
				memcpy(src, mapped, sizeof(src));
			}
			base = strrchr(src, '/');
			base = base ? base + 1 : src;
			dot = strrchr(base, '.');
			if (dot && dot != base)
				*dot = 0;
			/* the model's program regions: ete_model_<region> */
			if (asprintf(&name, "%s%s",
				     strstr(src, "/ete_model/") ? "ete_model_" : "",
				     base) < 0)
				name = NULL;
			break;
		}
		p = eol ? eol + 1 : NULL;
	}
	if (!name && asprintf(&name, "mem_%llx", (unsigned long long)va) < 0)
		return NULL;
	for (char *c = name; *c; c++)
		if (!(*c == '_' || (*c >= '0' && *c <= '9') ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			*c = '_';
	(void)s;
	return name;
}

/* @name, or, if an image has it already, @name_<va>: one file each */
static char *unique_name(struct snap *s, const char *name, uint64_t va)
{
	char *n;

	for (size_t k = 0; k < s->nimgs; k++)
		if (s->imgs[k].name && !strcmp(s->imgs[k].name, name)) {
			if (asprintf(&n, "%s_%llx", name,
				     (unsigned long long)va) < 0)
				return NULL;
			return n;
		}
	return strdup(name);
}

static int add_sym(struct image *im, uint64_t va, uint64_t size,
		   const char *name)
{
	struct sym *n = realloc(im->syms, (im->nsyms + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	im->syms = n;
	n[im->nsyms].va = va;
	n[im->nsyms].size = size;
	n[im->nsyms].fallback = false;
	n[im->nsyms].name = strdup(name);
	if (!n[im->nsyms].name)
		return -ENOMEM;
	im->nsyms++;
	return 0;
}

/*
 * Symbol lines "VA SIZE NAME" ('#' lines are comments), SIZE in
 * @size_base (0: decimal or 0x-prefixed, as symbols.txt; 16: perf-<pid>.map,
 * a JIT's symbols), each into the image that holds its start.
 */
static int add_symbol_lines(struct snap *s, const char *txt, int size_base)
{
	int ret = 0;

	for (const char *p = txt; !ret && p && *p;) {
		const char *eol = strchr(p, '\n');
		unsigned long long va, size;
		char name[256], *end;
		size_t k, len;

		va = strtoull(p, &end, 16);
		if (*p != '#' && end != p) {
			const char *q = end;

			size = strtoull(q, &end, size_base);
			q = end + strspn(end, " \t");
			len = strcspn(q, "\r\n");
			if (end != q && len && len < sizeof(name)) {
				memcpy(name, q, len);
				name[len] = 0;
				for (k = 0; k < s->nimgs; k++)
					if (va >= s->imgs[k].va &&
					    va < s->imgs[k].va + s->imgs[k].len) {
						ret = add_sym(&s->imgs[k], va, size,
							      name);
						break;
					}
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return ret;
}

/* The contents of every perf-<pid>.map of @dir; *@n of them */
static char **read_perf_maps(const char *dir, size_t *n)
{
	char **v = NULL;
	struct dirent *d;
	DIR *dd = opendir(dir);

	*n = 0;
	while (dd && (d = readdir(dd))) {
		size_t len = strlen(d->d_name);
		char **nv, *txt;

		if (strncmp(d->d_name, "perf-", 5) || len < 10 ||
		    strcmp(d->d_name + len - 4, ".map"))
			continue;
		txt = slurp_in(dir, d->d_name, NULL);
		nv = txt ? realloc(v, (*n + 1) * sizeof(*v)) : NULL;
		if (!nv) {
			free(txt);
			continue;
		}
		v = nv;
		v[(*n)++] = txt;
	}
	if (dd)
		closedir(dd);
	return v;
}

/*
 * The memory dumps of every CPU's cpu_N.ini (the same image once), as ELF
 * images: contiguous dumps of one kind (kernel or user) make one image.
 * Symbols: symbols.txt ("0xVA SIZE NAME" lines) if the snapshot has one,
 * else one function per dump named after it (image_name()).
 */
static int read_images(struct snap *s)
{
	struct dump *d = NULL;
	size_t nd = 0, i, k;
	char *memtxt, *symtxt, **maps;
	size_t nmaps = 0;
	int ret = 0;

	for (i = 0; i < s->ncpus && !ret; i++) {
		char name[64], *ini;
		int sect;

		snprintf(name, sizeof(name), "cpu_%d.ini", s->cpus[i].cpu);
		ini = slurp_in(s->dir, name, NULL);
		if (!ini)
			continue;	/* no core device: no images */
		for (sect = 0; sect < 65536 && !ret; sect++) {
			char sn[32], file[PATH_MAX], v[64];
			uint64_t va, len = 0;
			struct stat st;
			char *p;

			snprintf(sn, sizeof(sn), "dump%d", sect);
			if (!ini_get(ini, sn, "file", file, sizeof(file)))
				continue;
			if (!ini_get(ini, sn, "address", v, sizeof(v)) ||
			    !parse_u64(v, &va)) {
				ret = fail(s, EINVAL, "%s/%s: [%s] has no valid address",
					   s->dir, name, sn);
				break;
			}
			p = path_of(s->dir, file);
			if (!p || stat(p, &st)) {
				ret = fail(s, errno ? errno : ENOMEM, "%s: %s",
					   p ? p : file, strerror(errno));
				free(p);
				break;
			}
			free(p);
			len = st.st_size;
			if (ini_get(ini, sn, "length", v, sizeof(v)) &&
			    (!parse_u64(v, &len) || len > (uint64_t)st.st_size)) {
				ret = fail(s, EINVAL, "%s/%s: [%s] length %s is not within %s",
					   s->dir, name, sn, v, file);
				break;
			}
			if (!len)
				continue;
			for (k = 0; k < nd; k++)
				if (d[k].va == va && !strcmp(d[k].file, file))
					break;
			if (k < nd)
				continue;
			{
				struct dump *n = realloc(d, (nd + 1) * sizeof(*d));

				if (!n) {
					ret = -ENOMEM;
					break;
				}
				d = n;
			}
			d[nd].va = va;
			d[nd].len = len;
			d[nd].file = strdup(file);
			if (!d[nd++].file)
				ret = -ENOMEM;
		}
		free(ini);
	}
	if (ret)
		goto out;
	qsort(d, nd, sizeof(*d), cmp_dump);
	for (k = 1; k < nd; k++)
		if (d[k].va < d[k - 1].va + d[k - 1].len) {
			ret = fail(s, EINVAL, "%s: memory images %s and %s overlap",
				   s->dir, d[k - 1].file, d[k].file);
			goto out;
		}
	memtxt = slurp_in(s->dir, "memory.txt", NULL);
	symtxt = slurp_in(s->dir, "symbols.txt", NULL);
	maps = read_perf_maps(s->dir, &nmaps);
	s->imgs = calloc(nd ? nd : 1, sizeof(*s->imgs));
	if (!s->imgs)
		ret = -ENOMEM;
	for (k = 0; k < nd && !ret; k++) {
		bool kernel = d[k].va >> 63;
		struct image *im = s->nimgs ? &s->imgs[s->nimgs - 1] : NULL;
		char *bytes, *name;
		size_t blen;

		if (!im || im->kernel != kernel || im->va + im->len != d[k].va) {
			im = &s->imgs[s->nimgs++];
			im->va = d[k].va;
			im->kernel = kernel;
		}
		bytes = slurp_in(s->dir, d[k].file, &blen);
		if (!bytes) {
			ret = fail(s, errno, "%s/%s: %s", s->dir, d[k].file,
				   strerror(errno));
			break;
		}
		{
			unsigned char *n = realloc(im->data, im->len + d[k].len);

			if (!n) {
				free(bytes);
				ret = -ENOMEM;
				break;
			}
			im->data = n;
		}
		memcpy(im->data + im->len, bytes, d[k].len);
		free(bytes);
		im->len += d[k].len;
		name = image_name(s, memtxt, d[k].va);
		if (!name) {
			ret = -ENOMEM;
			break;
		}
		if (!im->name)
			im->name = unique_name(s, name, im->va);
		/* a symbol per dump, kept where no symbol file names one */
		ret = add_sym(im, d[k].va, d[k].len, name);
		if (!ret && (symtxt || nmaps))
			im->syms[im->nsyms - 1].fallback = true;
		free(name);
		if (!im->name)
			ret = -ENOMEM;
	}
	ret = ret ?: add_symbol_lines(s, symtxt, 0);
	for (k = 0; !ret && k < nmaps; k++)
		ret = add_symbol_lines(s, maps[k], 16);
	/* an image that a symbol file names keeps only the file's symbols */
	for (k = 0; !ret && k < s->nimgs; k++) {
		struct image *im = &s->imgs[k];
		size_t i, j, named = 0;

		for (i = 0; i < im->nsyms; i++)
			named += !im->syms[i].fallback;
		for (i = 0, j = 0; named && i < im->nsyms; i++) {
			if (im->syms[i].fallback)
				free(im->syms[i].name);
			else
				im->syms[j++] = im->syms[i];
		}
		if (named)
			im->nsyms = j;
	}
	free(memtxt);
	free(symtxt);
	for (k = 0; k < nmaps; k++)
		free(maps[k]);
	free(maps);
out:
	for (k = 0; k < nd; k++)
		free(d[k].file);
	free(d);
	return ret;
}

static struct task *find_task(struct snap *s, uint32_t tid)
{
	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].tid == tid)
			return &s->tasks[i];
	return NULL;
}

static struct task *add_task(struct snap *s, uint32_t pid, uint32_t tid,
			     const char *comm)
{
	struct task *t = realloc(s->tasks, (s->ntasks + 1) * sizeof(*t));

	if (!t)
		return NULL;
	s->tasks = t;
	t = &s->tasks[s->ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return t;
}

/*
 * contexts.txt: "context_id tgid comm" of the traced tasks, then, after a
 * comment line, of the other tasks alive at the stop; then the caller's.
 */
static int read_tasks(struct snap *s, const struct perfdata_opts *o)
{
	char *txt = slurp_in(s->dir, "contexts.txt", NULL);
	bool traced = true;
	int lines = 0;

	for (const char *p = txt; p && *p;) {
		const char *eol = strchr(p, '\n');
		unsigned int tid, pid;
		char comm[64];
		struct task *t;

		if (*p == '#') {
			if (lines)	/* the comment that ends the traced */
				traced = false;
			lines++;
		} else if (sscanf(p, "%u %u %63[^\n]", &tid, &pid, comm) == 3 &&
			   !find_task(s, tid)) {
			t = add_task(s, pid, tid, comm);
			if (!t) {
				free(txt);
				return -ENOMEM;
			}
			t->traced = traced;
		}
		p = eol ? eol + 1 : NULL;
	}
	free(txt);
	for (size_t i = 0; o && i < o->ntids; i++) {
		struct task *t = find_task(s, o->tids[i]);
		char comm[32];

		if (!t) {
			snprintf(comm, sizeof(comm), "ctx-%u", o->tids[i]);
			t = add_task(s, o->tids[i], o->tids[i], comm);
			if (!t)
				return -ENOMEM;
		}
		t->traced = true;
	}
	return 0;
}

/* ---- ELF images ---- */

static void fnv_bytes(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		*h ^= *b++;
		*h *= 0x100000001b3ULL;
	}
}

/*
 * The image's build ID: 20 bytes, three FNV-1a 64 hashes (bases 1, 2, 3
 * xor the FNV basis) of address, size, bytes and symbols (address, size,
 * name), little-endian, the last cut to 4 bytes.  The symbols count: the
 * ID names the ELF file written, and perf's build-ID cache would
 * otherwise give an earlier file of the same code with other symbols.
 */
static void build_id(struct image *im)
{
	for (int k = 0; k < 3; k++) {
		uint64_t h = 0xcbf29ce484222325ULL ^ (k + 1);
		size_t i;

		fnv_bytes(&h, &im->va, 8);
		fnv_bytes(&h, &im->len, 8);
		fnv_bytes(&h, im->data, im->len);
		for (i = 0; i < im->nsyms; i++) {
			fnv_bytes(&h, &im->syms[i].va, 8);
			fnv_bytes(&h, &im->syms[i].size, 8);
			fnv_bytes(&h, im->syms[i].name,
				  strlen(im->syms[i].name) + 1);
		}
		memcpy(im->bid + 8 * k, &h, k < 2 ? 8 : 4);
	}
}

static void put_shdr(struct buf *b, uint32_t name, uint32_t type,
		     uint64_t flags, uint64_t addr, uint64_t off, uint64_t size,
		     uint32_t link, uint32_t info, uint64_t align,
		     uint64_t entsize)
{
	put32(b, name);
	put32(b, type);
	put64(b, flags);
	put64(b, addr);
	put64(b, off);
	put64(b, size);
	put32(b, link);
	put32(b, info);
	put64(b, align);
	put64(b, entsize);
}

/*
 * An ELF64 AArch64 executable of the image: PT_LOAD of .text at file
 * offset ELF_TEXT_OFF and address im->va, PT_NOTE/.note.gnu.build-id,
 * .symtab (STT_FUNC globals), .strtab, .shstrtab.
 */
static int write_elf(struct snap *s, struct image *im)
{
	static const char shstr[] =
		"\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";
	enum { SH_TEXT = 1, SH_NOTE = 7, SH_SYMTAB = 26, SH_STRTAB = 34,
	       SH_SHSTRTAB = 42 };
	struct buf b = { 0 }, str = { 0 };
	size_t note_off = 64 + 2 * 56, sym_off, str_off, shstr_off, sh_off;
	FILE *f;
	int ret = 0;

	/* ELF header */
	put(&b, "\177ELF\x02\x01\x01", 7);
	put_zero(&b, 9);
	put16(&b, 2);		/* ET_EXEC */
	put16(&b, 183);		/* EM_AARCH64 */
	put32(&b, 1);
	put64(&b, im->va);	/* entry */
	put64(&b, 64);		/* phoff */
	put64(&b, 0);		/* shoff: set below */
	put32(&b, 0);
	put16(&b, 64);
	put16(&b, 56);
	put16(&b, 2);
	put16(&b, 64);
	put16(&b, 6);
	put16(&b, 5);		/* shstrndx */
	/* PT_LOAD R+X */
	put32(&b, 1);
	put32(&b, 5);
	put64(&b, ELF_TEXT_OFF);
	put64(&b, im->va);
	put64(&b, im->va);
	put64(&b, im->len);
	put64(&b, im->len);
	put64(&b, 0x1000);
	/* PT_NOTE */
	put32(&b, 4);
	put32(&b, 4);
	put64(&b, note_off);
	put64(&b, 0);
	put64(&b, 0);
	put64(&b, 36);
	put64(&b, 36);
	put64(&b, 4);
	/* the build ID note */
	put32(&b, 4);
	put32(&b, 20);
	put32(&b, 3);		/* NT_GNU_BUILD_ID */
	put(&b, "GNU", 4);
	put(&b, im->bid, 20);
	put_zero(&b, ELF_TEXT_OFF - b.len);
	put(&b, im->data, im->len);
	align(&b, 8);
	/* symbols */
	sym_off = b.len;
	put_zero(&b, 24);
	put(&str, "", 1);
	for (size_t k = 0; k < im->nsyms; k++) {
		put32(&b, str.len);
		put(&str, im->syms[k].name, strlen(im->syms[k].name) + 1);
		b.oom |= str.oom;
		put(&b, "\x12", 1);	/* STB_GLOBAL, STT_FUNC */
		put(&b, "", 1);
		put16(&b, 1);		/* .text */
		put64(&b, im->syms[k].va);
		put64(&b, im->syms[k].size);
	}
	str_off = b.len;
	put(&b, str.p, str.len);
	shstr_off = b.len;
	put(&b, shstr, sizeof(shstr));
	align(&b, 8);
	sh_off = b.len;
	put_zero(&b, 64);
	put_shdr(&b, SH_TEXT, 1, 6, im->va, ELF_TEXT_OFF, im->len, 0, 0, 4, 0);
	put_shdr(&b, SH_NOTE, 7, 2, 0, note_off, 36, 0, 0, 4, 0);
	put_shdr(&b, SH_SYMTAB, 2, 0, 0, sym_off, str_off - sym_off, 4, 1, 8,
		 24);
	put_shdr(&b, SH_STRTAB, 3, 0, 0, str_off, str.len, 0, 0, 1, 0);
	put_shdr(&b, SH_SHSTRTAB, 3, 0, 0, shstr_off, sizeof(shstr), 0, 0, 1,
		 0);
	set64(&b, 40, sh_off);
	free(str.p);
	if (b.oom) {
		free(b.p);
		return -ENOMEM;
	}
	f = fopen(im->path, "wb");
	if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f)) {
		ret = fail(s, errno ? errno : EIO, "%s: %s", im->path,
			   strerror(errno ? errno : EIO));
		if (f)
			fclose(f);
	}
	free(b.p);
	return ret;
}

/* ---- perf.data ---- */

/* the event's sample_id_all fields: TID, CPU, IDENTIFIER */
static void put_id(struct buf *b, uint32_t pid, uint32_t tid, uint32_t cpu)
{
	put32(b, pid);
	put32(b, tid);
	put32(b, cpu);
	put32(b, 0);
	put64(b, EVENT_ID);
}

/* a record header: its size is set by end_rec() */
static size_t begin_rec(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->len;

	put32(b, type);
	put16(b, misc);
	put16(b, 0);
	return at;
}

static void end_rec(struct buf *b, size_t at)
{
	set16(b, at + 6, b->len - at);
}

static void put_attr(struct buf *b, uint64_t config)
{
	size_t at = b->len;

	put32(b, PERFDATA_PMU_TYPE);
	put32(b, ATTR_SIZE);
	put64(b, config);
	put64(b, 1);		/* sample_period */
	put64(b, SAMPLE_IP | SAMPLE_TID | SAMPLE_CPU | SAMPLE_PERIOD |
		 SAMPLE_IDENTIFIER);
	put64(b, 0);		/* read_format */
	put64(b, 1ULL << 18);	/* flags: sample_id_all */
	put_zero(b, ATTR_SIZE - (b->len - at));
}

/* the cs_etm config bits TRCCONFIGR implies (cs_etm_get_config()) */
static uint64_t attr_config(const struct cpu *c)
{
	uint64_t cfg = 0, r = c->regs[R_CONFIGR];

	if (r & CFG_CYCACC)
		cfg |= 1ULL << ETM_OPT_CYCACC;
	if (r & CFG_CID)
		cfg |= 1ULL << ETM_OPT_CTXTID;
	if (r & (CFG_VMID | CFG_VMIDOPT))
		cfg |= 1ULL << ETM_OPT_CTXTID2;
	if (r & CFG_RS)
		cfg |= 1ULL << ETM_OPT_RETSTK;
	if (r & CFG_TS)
		cfg |= 1ULL << ETM_OPT_TS;
	return cfg;
}

static void put_mmap2(struct buf *b, bool kernel, uint32_t pid, uint32_t tid,
		      uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *path)
{
	size_t at = begin_rec(b, REC_MMAP2, kernel ? MISC_KERNEL : MISC_USER);

	put32(b, pid);
	put32(b, tid);
	put64(b, start);
	put64(b, len);
	put64(b, pgoff);
	put32(b, 0);		/* maj, min, ino, ino_generation */
	put32(b, 0);
	put64(b, 0);
	put64(b, 0);
	put32(b, 5);		/* PROT_READ | PROT_EXEC */
	put32(b, 2);		/* MAP_PRIVATE */
	put(b, path, strlen(path) + 1);
	align(b, 8);
	put_id(b, pid, tid, 0);
	end_rec(b, at);
}

struct fsect {
	int bit;
	struct buf b;
};

/*
 * PERF_RECORD_TIME_CONV for a counter of @hz ticks a second: ns = (ticks *
 * mult) >> shift, with the largest shift (at most 31) that keeps mult
 * under 2^32, as the kernel's clocks_calc_mult_shift() does, so that
 * tsc_to_perf_time()'s products fit in 64 bits.
 */
static void put_time_conv(struct buf *b, uint64_t hz)
{
	size_t at = begin_rec(b, REC_TIME_CONV, 0);
	uint64_t mult = 0;
	unsigned int shift;

	for (shift = 31; shift; shift--) {
		mult = (1000000000ULL << shift) / hz;
		if (mult < (1ULL << 32))
			break;
	}
	put64(b, shift);
	put64(b, mult);
	put64(b, 0);		/* time_zero */
	put64(b, 0);		/* time_cycles */
	put64(b, 0);		/* time_mask */
	put_zero(b, 8);		/* cap_user_time_zero, _short, reserved */
	end_rec(b, at);
}

static int write_perf(struct snap *s, const char *out)
{
	struct buf h = { 0 }, d = { 0 }, idx = { 0 };
	struct fsect feat[10] = {
		{ .bit = F_BUILD_ID }, { .bit = F_HOSTNAME },
		{ .bit = F_OSRELEASE }, { .bit = F_VERSION }, { .bit = F_ARCH },
		{ .bit = F_NRCPUS }, { .bit = F_CPUID }, { .bit = F_EVENT_DESC },
		{ .bit = F_PMU_MAPPINGS }, { .bit = F_AUXTRACE },
	};
	const size_t nfeat = ARRAY_SIZE(feat);
	size_t i, k, nidx = 0, data_off, at, off;
	char v[256];
	uint64_t features[4] = { 0 }, config, hz;
	int ret = 0, maxcpu = 0;
	FILE *f = NULL;

	config = attr_config(&s->cpus[0]);
	/* header, then the attribute and its ID; data from offset 256 */
	put64(&h, 0x32454c4946524550ULL);	/* "PERFILE2" */
	put64(&h, 104);
	put64(&h, ATTR_SIZE + 16);
	put64(&h, 104);				/* attrs */
	put64(&h, ATTR_SIZE + 16);
	put64(&h, 0);				/* data: set below */
	put64(&h, 0);
	put64(&h, 0);				/* event_types */
	put64(&h, 0);
	put_zero(&h, 32);			/* features: set below */
	put_attr(&h, config);
	put64(&h, 104 + ATTR_SIZE + 16);	/* its IDs */
	put64(&h, 8);
	put64(&h, EVENT_ID);
	data_off = h.len;

	if (s->machine && ini_get(s->machine, "", "cntfrq_el0", v, sizeof(v)) &&
	    parse_u64(v, &hz) && hz >= 1000 && hz <= 1000000000ULL)
		put_time_conv(&d, hz);

	/* AUXTRACE_INFO */
	at = begin_rec(&d, REC_AUXTRACE_INFO, 0);
	put32(&d, PERF_AUXTRACE_CS_ETM);
	put32(&d, 0);
	put64(&d, CS_HEADER_VERSION);
	put64(&d, (uint64_t)PERFDATA_PMU_TYPE << 32 | s->ncpus);
	put64(&d, 0);				/* not a snapshot */
	for (i = 0; i < s->ncpus; i++) {
		struct cpu *c = &s->cpus[i];

		put64(&d, CS_ETE_MAGIC);
		put64(&d, c->cpu);
		put64(&d, ETE_NR_PARAMS);
		for (k = 0; k < NREGS; k++)
			put64(&d, c->regs[k]);
		put64(&d, ETE_TS_SOURCE_VIRTUAL);
		if (c->cpu > maxcpu)
			maxcpu = c->cpu;
	}
	end_rec(&d, at);

	/* tasks, and the images where perf reads the code */
	for (i = 0; i < s->ntasks; i++) {
		struct task *t = &s->tasks[i];

		at = begin_rec(&d, REC_COMM, 0);
		put32(&d, t->pid);
		put32(&d, t->tid);
		put(&d, t->comm, strlen(t->comm) + 1);
		align(&d, 8);
		put_id(&d, t->pid, t->tid, 0);
		end_rec(&d, at);
	}
	for (k = 0; k < s->nimgs; k++) {
		struct image *im = &s->imgs[k];

		if (im->kernel) {
			put_mmap2(&d, true, -1, 0, im->va, im->len, 0,
				  im->path);
			continue;
		}
		for (i = 0; i < s->ntasks; i++)
			if (s->tasks[i].traced)
				put_mmap2(&d, false, s->tasks[i].pid,
					  s->tasks[i].tid, im->va, im->len,
					  ELF_TEXT_OFF, im->path);
	}

	/* the trace: AUX and AUXTRACE per CPU and segment */
	for (i = 0; i < s->ncpus; i++) {
		struct cpu *c = &s->cpus[i];
		uint64_t start = 0;
		FILE *tf = fopen(c->trace, "rb");

		if (!tf) {
			ret = fail(s, errno, "%s: %s", c->trace, strerror(errno));
			goto out;
		}
		for (k = 0; k <= c->ngaps; k++) {
			uint64_t end = k < c->ngaps ? c->gaps[k] : c->size;
			uint64_t len = end - start, pad = (8 - len % 8) % 8;
			unsigned char *p;

			if (!len)
				continue;
			at = begin_rec(&d, REC_AUX, 0);
			put64(&d, start);
			put64(&d, len);
			put64(&d, AUX_FLAG_CS_RAW |
				  (k < c->ngaps ? AUX_FLAG_TRUNCATED : 0));
			put_id(&d, -1, -1, c->cpu);
			end_rec(&d, at);

			at = begin_rec(&d, REC_AUXTRACE, 0);
			put64(&d, len + pad);
			put64(&d, start);
			put64(&d, (uint64_t)c->cpu << 32 | k);	/* reference */
			/*
			 * idx: the queue, the CPU's number, not its place in
			 * the list.  perf 6.12 and later take the queue as the
			 * CPU (cs-etm.c, cs_etm__get_queue()); a CPU set with
			 * a hole ({1,3}, or -a with a CPU offline) decodes
			 * into no samples otherwise.
			 */
			put32(&d, c->cpu);			/* idx */
			put32(&d, -1);				/* tid */
			put32(&d, c->cpu);
			put32(&d, 0);
			end_rec(&d, at);
			put64(&idx, data_off + at);
			put64(&idx, d.len - at);
			nidx++;
			p = grow(&d, len);
			if (p && fread(p, 1, len, tf) != len) {
				fclose(tf);
				ret = fail(s, EIO, "%s: short read", c->trace);
				goto out;
			}
			put_zero(&d, pad);
			start = end;
		}
		fclose(tf);
	}

	/* features */
	for (i = 0; i < nfeat; i++) {
		struct buf *b = &feat[i].b;

		switch (feat[i].bit) {
		case F_BUILD_ID:
			for (k = 0; k < s->nimgs; k++) {
				struct image *im = &s->imgs[k];

				at = begin_rec(b, REC_BUILD_ID,
					       (im->kernel ? MISC_KERNEL :
							     MISC_USER) |
					       MISC_BUILD_ID_SIZE);
				put32(b, -1);		/* host machine */
				put(b, im->bid, 20);
				put(b, "\x14", 1);	/* size 20 */
				put_zero(b, 3);
				put(b, im->path, strlen(im->path) + 1);
				put_zero(b, (64 - (strlen(im->path) + 1) % 64) % 64);
				end_rec(b, at);
			}
			break;
		case F_HOSTNAME:
			put_str(b, s->machine && ini_get(s->machine, "", "uname_nodename",
							 v, sizeof(v)) ? v : "");
			break;
		case F_OSRELEASE:
			put_str(b, s->machine && ini_get(s->machine, "", "uname_release",
							 v, sizeof(v)) ? v : "");
			break;
		case F_VERSION:
			put_str(b, "6.1 (ete perfdata)");
			break;
		case F_ARCH:
			put_str(b, "aarch64");
			break;
		case F_NRCPUS:
			put32(b, maxcpu + 1);
			put32(b, maxcpu + 1);
			break;
		case F_CPUID:
			snprintf(v, sizeof(v), "cpu%d_midr_el1", s->cpus[0].cpu);
			{
				char midr[64];
				uint64_t m = 0;

				if (s->machine && ini_get(s->machine, "", v, midr,
							  sizeof(midr)))
					parse_u64(midr, &m);
				snprintf(v, sizeof(v), "0x%016llx",
					 (unsigned long long)m);
			}
			put_str(b, v);
			break;
		case F_EVENT_DESC:
			put32(b, 1);
			put32(b, ATTR_SIZE);
			put_attr(b, config);
			put32(b, 1);
			put_str(b, "cs_etm//");
			put64(b, EVENT_ID);
			break;
		case F_PMU_MAPPINGS:
			put32(b, 1);
			put32(b, PERFDATA_PMU_TYPE);
			put_str(b, "cs_etm");
			break;
		case F_AUXTRACE:
			put64(b, nidx);
			put(b, idx.p, idx.len);
			break;
		}
		features[feat[i].bit / 64] |= 1ULL << (feat[i].bit % 64);
	}
	off = data_off + d.len + 16 * nfeat;
	set64(&h, 40, data_off);
	set64(&h, 48, d.len);
	for (i = 0; i < 4; i++)
		set64(&h, 72 + 8 * i, features[i]);
	for (i = 0; i < nfeat; i++) {
		put64(&d, off);
		put64(&d, feat[i].b.len);
		off += feat[i].b.len;
	}
	for (i = 0; i < nfeat; i++) {
		put(&d, feat[i].b.p, feat[i].b.len);
		d.oom |= feat[i].b.oom;
	}
	if (h.oom || d.oom || idx.oom) {
		ret = -ENOMEM;
		goto out;
	}
	f = fopen(out, "wb");
	if (!f || fwrite(h.p, 1, h.len, f) != h.len ||
	    fwrite(d.p, 1, d.len, f) != d.len) {
		ret = fail(s, errno ? errno : EIO, "%s: %s", out,
			   strerror(errno ? errno : EIO));
		goto out;
	}
	if (fclose(f)) {
		f = NULL;
		ret = fail(s, errno, "%s: %s", out, strerror(errno));
		goto out;
	}
	f = NULL;
	if (s->log)
		fprintf(s->log,
			"perfdata: %s: %zu CPU(s), %zu AUX buffer(s), %zu task(s), %zu image(s)\n",
			out, s->ncpus, nidx, s->ntasks, s->nimgs);
out:
	if (f)
		fclose(f);
	free(h.p);
	free(d.p);
	free(idx.p);
	for (i = 0; i < nfeat; i++)
		free(feat[i].b.p);
	return ret;
}

static void free_snap(struct snap *s)
{
	for (size_t i = 0; i < s->ncpus; i++)
		free(s->cpus[i].trace);
	free(s->cpus);
	for (size_t k = 0; k < s->nimgs; k++) {
		for (size_t j = 0; j < s->imgs[k].nsyms; j++)
			free(s->imgs[k].syms[j].name);
		free(s->imgs[k].syms);
		free(s->imgs[k].data);
		free(s->imgs[k].name);
		free(s->imgs[k].path);
	}
	free(s->imgs);
	free(s->tasks);
	free(s->machine);
}

/* machine.txt is "key=value" lines with no section: give it one */
static char *read_machine(const char *dir)
{
	char *txt = slurp_in(dir, "machine.txt", NULL), *m;

	if (!txt || asprintf(&m, "[]\n%s", txt) < 0)
		m = NULL;
	free(txt);
	return m;
}

int perfdata_write(const char *snapdir, const char *out,
		   const struct perfdata_opts *opts, char *err, size_t errlen)
{
	struct snap s = { .dir = snapdir, .err = err, .errlen = errlen };
	char *elfdir = NULL, *absdir = NULL;
	bool traced = false;
	size_t i;
	int ret;

	if (errlen)
		err[0] = 0;
	s.log = opts ? opts->log : NULL;
	ret = read_cpus(&s, opts ? opts->cpu : -1);
	if (!ret)
		ret = read_images(&s);
	if (!ret)
		ret = read_tasks(&s, opts);
	if (ret)
		goto out;
	s.machine = read_machine(snapdir);
	for (i = 1; i < s.ncpus && s.log; i++) {
		struct cpu *a = &s.cpus[0], *b = &s.cpus[i];

		if (a->regs[R_CONFIGR] != b->regs[R_CONFIGR] ||
		    a->regs[R_IDR0] != b->regs[R_IDR0] ||
		    a->regs[R_IDR1] != b->regs[R_IDR1] ||
		    a->regs[R_IDR2] != b->regs[R_IDR2] ||
		    a->regs[R_IDR8] != b->regs[R_IDR8]) {
			fprintf(s.log,
				"perfdata: warning: CPU %d's ETE registers differ from CPU %d's; perf 6.1 decodes every CPU's raw trace with the first CPU's: write one CPU at a time\n",
				b->cpu, a->cpu);
			break;
		}
	}
	for (i = 0; i < s.ntasks; i++)
		traced |= s.tasks[i].traced;
	/*
	 * A system-wide capture names no traced task: the snapshot has one
	 * address space, so its user images are every alive task's
	 */
	for (i = 0; i < s.ntasks && !traced; i++)
		s.tasks[i].traced = true;
	if (!traced && s.ntasks && s.log)
		fprintf(s.log,
			"perfdata: no traced task: user images mapped into all %zu tasks of contexts.txt\n",
			s.ntasks);
	else if (!traced && s.log)
		fprintf(s.log,
			"perfdata: warning: no task (contexts.txt or given): user memory images not mapped\n");

	/* the ELF images, by absolute path */
	if (opts && opts->elf_dir)
		elfdir = strdup(opts->elf_dir);
	else if (asprintf(&elfdir, "%s.d", out) < 0)
		elfdir = NULL;
	if (!elfdir) {
		ret = -ENOMEM;
		goto out;
	}
	if (mkdir(elfdir, 0755) && errno != EEXIST) {
		ret = fail(&s, errno, "%s: %s", elfdir, strerror(errno));
		goto out;
	}
	absdir = realpath(elfdir, NULL);
	if (!absdir) {
		ret = fail(&s, errno, "%s: %s", elfdir, strerror(errno));
		goto out;
	}
	for (i = 0; i < s.nimgs && !ret; i++) {
		struct image *im = &s.imgs[i];

		build_id(im);
		if (asprintf(&im->path, "%s/%s%s", absdir, im->name,
			     im->kernel ? ".ko" : ".elf") < 0) {
			im->path = NULL;
			ret = -ENOMEM;
			break;
		}
		ret = write_elf(&s, im);
	}
	if (!ret)
		ret = write_perf(&s, out);
out:
	if (ret == -ENOMEM && errlen && !err[0])
		snprintf(err, errlen, "out of memory");
	free(elfdir);
	free(absdir);
	free_snap(&s);
	return ret;
}
