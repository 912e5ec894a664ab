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
 *   sample_id_all with TID|CPU|IDENTIFIER (and TIME with timestamps,
 *   which `perf script -F time` asks of the event), so that the AUX
 *   records say which CPU their data is from (cs_etm__queue_aux_records_
 *   cb() matches it with the AUXTRACE record's cpu) and
 *   evlist__event2evsel() finds the event once cs_etm__synth_events() has
 *   added its own; an ID for it (cs_etm__synth_events() numbers its
 *   events from it).
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
 *
 * The files of perfdata: this one writes the perf.data; perfdata-read.c
 * reads the snapshot (through snapshot.c) and perfdata-mem.c its memory
 * images, into the model of perfdata-int.h; perfdata-elf.c writes the
 * images as ELF files; perfdata-buf.c is the byte buffer.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* asprintf() */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata-int.h"

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
#define SAMPLE_TIME		BIT_ULL(2)
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

/*
 * The event's sample_id_all fields: TID, TIME (with timestamps: 0, before
 * any trace), CPU, IDENTIFIER
 */
static void put_id(struct buf *b, uint64_t config, uint32_t pid,
		   uint32_t tid, uint32_t cpu)
{
	buf_put32(b, pid);
	buf_put32(b, tid);
	if (config & (1ULL << ETM_OPT_TS))
		buf_put64(b, 0);
	buf_put32(b, cpu);
	buf_put32(b, 0);
	buf_put64(b, EVENT_ID);
}

/* a record header: its size is set by end_rec() */
static size_t begin_rec(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->len;

	buf_put32(b, type);
	buf_put16(b, misc);
	buf_put16(b, 0);
	return at;
}

static void end_rec(struct buf *b, size_t at)
{
	buf_set16(b, at + 6, b->len - at);
}

static void put_attr(struct buf *b, uint64_t config)
{
	size_t at = b->len;

	buf_put32(b, PERFDATA_PMU_TYPE);
	buf_put32(b, ATTR_SIZE);
	buf_put64(b, config);
	buf_put64(b, 1);		/* sample_period */
	/* with timestamps, perf script -F time asks the event for TIME */
	buf_put64(b, SAMPLE_IP | SAMPLE_TID | SAMPLE_CPU | SAMPLE_PERIOD |
		 SAMPLE_IDENTIFIER |
		 (config & (1ULL << ETM_OPT_TS) ? SAMPLE_TIME : 0));
	buf_put64(b, 0);		/* read_format */
	buf_put64(b, 1ULL << 18);	/* flags: sample_id_all */
	buf_zero(b, ATTR_SIZE - (b->len - at));
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

/* The perf.data being built: header, data and the AUXTRACE records' index */
struct perf {
	struct snap *s;
	struct buf h, d, idx;
	size_t data_off, nidx;
	uint64_t config;
	int maxcpu;
};

static void put_mmap2(struct perf *p, bool kernel, uint32_t pid, uint32_t tid,
		      uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *path)
{
	struct buf *b = &p->d;
	size_t at = begin_rec(b, REC_MMAP2, kernel ? MISC_KERNEL : MISC_USER);

	buf_put32(b, pid);
	buf_put32(b, tid);
	buf_put64(b, start);
	buf_put64(b, len);
	buf_put64(b, pgoff);
	buf_put32(b, 0);		/* maj, min, ino, ino_generation */
	buf_put32(b, 0);
	buf_put64(b, 0);
	buf_put64(b, 0);
	buf_put32(b, 5);		/* PROT_READ | PROT_EXEC */
	buf_put32(b, 2);		/* MAP_PRIVATE */
	buf_put(b, path, strlen(path) + 1);
	buf_align(b, 8);
	put_id(b, p->config, pid, tid, 0);
	end_rec(b, at);
}

/* The file header, then the attribute and its ID; data from offset 256 */
static void put_header(struct perf *p)
{
	struct buf *h = &p->h;

	buf_put64(h, 0x32454c4946524550ULL);	/* "PERFILE2" */
	buf_put64(h, 104);
	buf_put64(h, ATTR_SIZE + 16);
	buf_put64(h, 104);			/* attrs */
	buf_put64(h, ATTR_SIZE + 16);
	buf_put64(h, 0);			/* data: set by write_perf() */
	buf_put64(h, 0);
	buf_put64(h, 0);			/* event_types */
	buf_put64(h, 0);
	buf_zero(h, 32);			/* features: likewise */
	put_attr(h, p->config);
	buf_put64(h, 104 + ATTR_SIZE + 16);	/* its IDs */
	buf_put64(h, 8);
	buf_put64(h, EVENT_ID);
	p->data_off = h->len;
}

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
	buf_put64(b, shift);
	buf_put64(b, mult);
	buf_put64(b, 0);	/* time_zero */
	buf_put64(b, 0);	/* time_cycles */
	buf_put64(b, 0);	/* time_mask */
	buf_zero(b, 8);	/* cap_user_time_zero, _short, reserved */
	end_rec(b, at);
}

static void put_auxtrace_info(struct perf *p)
{
	struct snap *s = p->s;
	size_t at, i, k;

	at = begin_rec(&p->d, REC_AUXTRACE_INFO, 0);
	buf_put32(&p->d, PERF_AUXTRACE_CS_ETM);
	buf_put32(&p->d, 0);
	buf_put64(&p->d, CS_HEADER_VERSION);
	buf_put64(&p->d, (uint64_t)PERFDATA_PMU_TYPE << 32 | s->ncpus);
	buf_put64(&p->d, 0);			/* not a snapshot */
	for (i = 0; i < s->ncpus; i++) {
		struct cpu *c = &s->cpus[i];

		buf_put64(&p->d, CS_ETE_MAGIC);
		buf_put64(&p->d, c->cpu);
		buf_put64(&p->d, ETE_NR_PARAMS);
		for (k = 0; k < NREGS; k++)
			buf_put64(&p->d, c->regs[k]);
		buf_put64(&p->d, ETE_TS_SOURCE_VIRTUAL);
		if (c->cpu > p->maxcpu)
			p->maxcpu = c->cpu;
	}
	end_rec(&p->d, at);
}

/* The tasks, and the images where perf reads the code */
static void put_tasks(struct perf *p)
{
	struct snap *s = p->s;
	struct buf *d = &p->d;
	size_t at, i, k;

	for (i = 0; i < s->ntasks; i++) {
		struct task *t = &s->tasks[i];

		at = begin_rec(d, REC_COMM, 0);
		buf_put32(d, t->pid);
		buf_put32(d, t->tid);
		buf_put(d, t->comm, strlen(t->comm) + 1);
		buf_align(d, 8);
		put_id(d, p->config, t->pid, t->tid, 0);
		end_rec(d, at);
	}
	for (k = 0; k < s->nimgs; k++) {
		struct image *im = &s->imgs[k];

		if (im->kernel) {
			put_mmap2(p, true, -1, 0, im->va, im->len, 0,
				  im->path);
			continue;
		}
		for (i = 0; i < s->ntasks; i++)
			if (s->tasks[i].traced)
				put_mmap2(p, false, s->tasks[i].pid,
					  s->tasks[i].tid, im->va, im->len,
					  ELF_TEXT_OFF, im->path);
	}
}

/* A CPU's trace: AUX and AUXTRACE per segment; 0 or -errno */
static int put_trace(struct perf *p, const struct cpu *c)
{
	struct buf *d = &p->d;
	uint64_t start = 0;
	FILE *tf = fopen(c->trace, "rb");
	size_t at, k;

	if (!tf)
		return pd_fail(p->s, errno, "%s: %s", c->trace,
			       strerror(errno));
	for (k = 0; k <= c->ngaps; k++) {
		uint64_t end = k < c->ngaps ? c->gaps[k] : c->size;
		uint64_t len = end - start, pad = (8 - len % 8) % 8;
		unsigned char *bytes;

		if (!len)
			continue;
		at = begin_rec(d, REC_AUX, 0);
		buf_put64(d, start);
		buf_put64(d, len);
		buf_put64(d, AUX_FLAG_CS_RAW |
			  (k < c->ngaps ? AUX_FLAG_TRUNCATED : 0));
		put_id(d, p->config, -1, -1, c->cpu);
		end_rec(d, at);

		at = begin_rec(d, REC_AUXTRACE, 0);
		buf_put64(d, len + pad);
		buf_put64(d, start);
		buf_put64(d, (uint64_t)c->cpu << 32 | k);	/* reference */
		/*
		 * idx: the queue, the CPU's number, not its place in the
		 * list.  perf 6.12 and later take the queue as the CPU
		 * (cs-etm.c, cs_etm__get_queue()); a CPU set with a hole
		 * ({1,3}, or -a with a CPU offline) decodes into no samples
		 * otherwise.
		 */
		buf_put32(d, c->cpu);			/* idx */
		buf_put32(d, -1);			/* tid */
		buf_put32(d, c->cpu);
		buf_put32(d, 0);
		end_rec(d, at);
		buf_put64(&p->idx, p->data_off + at);
		buf_put64(&p->idx, d->len - at);
		p->nidx++;
		bytes = buf_grow(d, len);
		if (bytes && fread(bytes, 1, len, tf) != len) {
			fclose(tf);
			return pd_fail(p->s, EIO, "%s: short read", c->trace);
		}
		buf_zero(d, pad);
		start = end;
	}
	fclose(tf);
	return 0;
}

static void put_build_ids(struct buf *b, const struct snap *s)
{
	size_t at, k;

	for (k = 0; k < s->nimgs; k++) {
		const struct image *im = &s->imgs[k];
		size_t n = strlen(im->path) + 1;

		at = begin_rec(b, REC_BUILD_ID,
			       (im->kernel ? MISC_KERNEL : MISC_USER) |
			       MISC_BUILD_ID_SIZE);
		buf_put32(b, -1);		/* host machine */
		buf_put(b, im->bid, 20);
		buf_put(b, "\x14", 1);		/* size 20 */
		buf_zero(b, 3);
		buf_put(b, im->path, n);
		buf_zero(b, (64 - n % 64) % 64);
		end_rec(b, at);
	}
}

/* The header feature @bit's section into @b */
static void put_feature(struct perf *p, int bit, struct buf *b)
{
	char v[32];

	switch (bit) {
	case F_BUILD_ID:
		put_build_ids(b, p->s);
		break;
	case F_HOSTNAME:
		buf_str(b, p->s->hostname);
		break;
	case F_OSRELEASE:
		buf_str(b, p->s->osrelease);
		break;
	case F_VERSION:
		buf_str(b, "6.1 (ete perfdata)");
		break;
	case F_ARCH:
		buf_str(b, "aarch64");
		break;
	case F_NRCPUS:
		buf_put32(b, p->maxcpu + 1);
		buf_put32(b, p->maxcpu + 1);
		break;
	case F_CPUID:
		snprintf(v, sizeof(v), "0x%016llx",
			 (unsigned long long)p->s->midr);
		buf_str(b, v);
		break;
	case F_EVENT_DESC:
		buf_put32(b, 1);
		buf_put32(b, ATTR_SIZE);
		put_attr(b, p->config);
		buf_put32(b, 1);
		buf_str(b, "cs_etm//");
		buf_put64(b, EVENT_ID);
		break;
	case F_PMU_MAPPINGS:
		buf_put32(b, 1);
		buf_put32(b, PERFDATA_PMU_TYPE);
		buf_str(b, "cs_etm");
		break;
	case F_AUXTRACE:
		buf_put64(b, p->nidx);
		buf_put(b, p->idx.p, p->idx.len);
		break;
	}
}

/* The header and the data (features at its end) into @out */
static int write_file(struct perf *p, const char *out)
{
	FILE *f;

	errno = 0;
	f = fopen(out, "wb");
	if (f && (fwrite(p->h.p, 1, p->h.len, f) != p->h.len ||
		  fwrite(p->d.p, 1, p->d.len, f) != p->d.len)) {
		fclose(f);
		f = NULL;
	}
	if (!f || fclose(f))
		return pd_fail(p->s, errno ? errno : EIO, "%s: %s", out,
			       strerror(errno ? errno : EIO));
	return 0;
}

static int write_perf(struct snap *s, const char *out)
{
	static const int bits[] = {
		F_BUILD_ID, F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH,
		F_NRCPUS, F_CPUID, F_EVENT_DESC, F_PMU_MAPPINGS, F_AUXTRACE,
	};
	struct buf feat[ARRAY_SIZE(bits)] = { 0 };
	const size_t nfeat = ARRAY_SIZE(bits);
	struct perf p = { .s = s, .config = attr_config(&s->cpus[0]) };
	uint64_t features[4] = { 0 };
	size_t i, off;
	int ret = 0;

	put_header(&p);
	if (s->cntfrq >= 1000 && s->cntfrq <= 1000000000ULL)
		put_time_conv(&p.d, s->cntfrq);
	put_auxtrace_info(&p);
	put_tasks(&p);
	for (i = 0; i < s->ncpus && !ret; i++)
		ret = put_trace(&p, &s->cpus[i]);
	if (ret)
		goto out;
	for (i = 0; i < nfeat; i++) {
		put_feature(&p, bits[i], &feat[i]);
		features[bits[i] / 64] |= 1ULL << (bits[i] % 64);
	}
	/* the features' sections, then their contents, after the data */
	off = p.data_off + p.d.len + 16 * nfeat;
	buf_set64(&p.h, 40, p.data_off);
	buf_set64(&p.h, 48, p.d.len);
	for (i = 0; i < 4; i++)
		buf_set64(&p.h, 72 + 8 * i, features[i]);
	for (i = 0; i < nfeat; i++) {
		buf_put64(&p.d, off);
		buf_put64(&p.d, feat[i].len);
		off += feat[i].len;
	}
	for (i = 0; i < nfeat; i++) {
		buf_put(&p.d, feat[i].p, feat[i].len);
		p.d.oom |= feat[i].oom;
	}
	if (p.h.oom || p.d.oom || p.idx.oom) {
		ret = -ENOMEM;
		goto out;
	}
	ret = write_file(&p, out);
	if (!ret && s->log)
		fprintf(s->log,
			"perfdata: %s: %zu CPU(s), %zu AUX buffer(s), %zu task(s), %zu image(s)\n",
			out, s->ncpus, p.nidx, s->ntasks, s->nimgs);
out:
	free(p.h.p);
	free(p.d.p);
	free(p.idx.p);
	for (i = 0; i < nfeat; i++)
		free(feat[i].p);
	return ret;
}

int perfdata_write(const char *snapdir, const char *out,
		   const struct perfdata_opts *opts, char *err, size_t errlen)
{
	struct snap s = { .dir = snapdir, .err = err, .errlen = errlen };
	char *elfdir = NULL;
	int ret;

	if (errlen)
		err[0] = 0;
	s.log = opts ? opts->log : NULL;
	ret = pd_read(&s, opts);
	if (ret)
		goto out;
	/* the ELF images, by absolute path */
	if (opts && opts->elf_dir)
		elfdir = strdup(opts->elf_dir);
	else if (asprintf(&elfdir, "%s.d", out) < 0)
		elfdir = NULL;
	if (!elfdir) {
		ret = -ENOMEM;
		goto out;
	}
	ret = pd_write_images(&s, elfdir);
	if (!ret)
		ret = write_perf(&s, out);
out:
	if (ret == -ENOMEM && errlen && !err[0])
		snprintf(err, errlen, "out of memory");
	free(elfdir);
	pd_free(&s);
	return ret;
}
