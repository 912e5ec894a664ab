// SPDX-License-Identifier: GPL-2.0
/*
 * perfdata-read.c - the snapshot as perfdata's model (perfdata-int.h),
 * read through snapshot.c: a CPU per ETE trace source of a core cpu_N,
 * with the registers of its [regs], its buffer's file and the offsets at
 * which gaps_cpuN.txt cuts it; the memory images of the CPUs' cores
 * (perfdata-mem.c); the tasks of contexts.txt and the caller's; the host
 * name, release and MIDR_EL1 of machine.txt.  What the model cannot hold
 * is refused, with a message naming the file and the key.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* asprintf() */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfdata-int.h"
#include "snapshot.h"

static const char *const reg_names[NREGS] = {
	"TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2",
	"TRCIDR8", "TRCAUTHSTATUS", "TRCDEVARCH",
};

int pd_fail(struct snap *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, s->errlen, fmt, ap);
	va_end(ap);
	return -err;
}

char *pd_slurp(const char *dir, const char *name)
{
	char *path, *b = NULL;
	long n = -1;
	FILE *f;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	f = fopen(path, "rb");
	free(path);
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n >= 0 && !fseek(f, 0, SEEK_SET))
		b = malloc(n + 1);
	if (b && fread(b, 1, n, f) == (size_t)n) {
		b[n] = 0;
	} else {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

/* ---- the CPUs ---- */

static int cmp_cpu(const void *a, const void *b)
{
	return ((const struct cpu *)a)->cpu - ((const struct cpu *)b)->cpu;
}

/* "ETE" or "ETE.<version>", as OpenCSD's snapshot reader */
static bool is_ete(const struct ss_device *d)
{
	return !strncmp(d->type, "ETE", 3) && (!d->type[3] || d->type[3] == '.');
}

/* gaps_cpuN.txt: the offsets, increasing, at which the trace is cut */
static int read_gaps(struct snap *s, struct cpu *c)
{
	char line[256], *p;
	size_t cap = 0;
	FILE *f;

	if (asprintf(&p, "%s/gaps_cpu%d.txt", s->dir, c->cpu) < 0)
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
		if (c->ngaps == cap) {
			uint64_t *g;

			cap = cap ? 2 * cap : 64;
			g = realloc(c->gaps, cap * sizeof(*g));
			if (!g) {
				fclose(f);
				return -ENOMEM;
			}
			c->gaps = g;
		}
		c->gaps[c->ngaps++] = off;
	}
	fclose(f);
	return 0;
}

/* The registers of the AUXTRACE_INFO's block, from the source's [regs] */
static int read_regs(struct snap *s, const struct ss_device *dev,
		     struct cpu *c)
{
	const char *path = dev->ini.path;
	int r;

	for (r = 0; r < NREGS; r++) {
		uint32_t v;
		int ret = ss_reg(dev, reg_names[r], &v);

		/* TRCAUTHSTATUS: not read by the decoder */
		if (ret == -ENOENT && r == R_AUTH)
			continue;
		if (ret == -ENOENT)
			return pd_fail(s, EINVAL, "%s: [regs] has no %s", path,
				       reg_names[r]);
		if (ret)
			return pd_fail(s, EINVAL, "%s: [regs] %s=%s is not a 32-bit number",
				       path, reg_names[r],
				       ss_get(&dev->ini, "regs", reg_names[r]));
		c->regs[r] = v;
	}
	if (c->regs[R_TRACEIDR] == 0 || c->regs[R_TRACEIDR] >= 0x70)
		return pd_fail(s, EINVAL, "%s: [regs] TRCTRACEIDR=0x%llx is not a trace ID",
			       path, (unsigned long long)c->regs[R_TRACEIDR]);
	return 0;
}

static int read_cpu(struct snap *s, const struct snapshot *ss,
		    const struct ss_source *src, struct cpu *c)
{
	struct stat st;
	int ret;

	c->cpu = src->cpu;
	c->core = src->core;
	ret = read_regs(s, src->dev, c);
	if (ret)
		return ret;
	/* TRBE's raw ETE: the AUX records say PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW */
	if (src->buf->format != SS_SOURCE_DATA)
		return pd_fail(s, EINVAL,
			       "%s: [source_buffers] %s=%s: that buffer's format= is not source_data, the only one perfdata writes",
			       ss->trace.path, src->dev->name, src->buf->name);
	c->trace = strdup(src->buf->file);
	if (!c->trace)
		return -ENOMEM;
	if (stat(c->trace, &st))
		return pd_fail(s, errno, "%s: %s", c->trace, strerror(errno));
	c->size = st.st_size;
	return read_gaps(s, c);
}

/* The ETE trace sources of cores cpu_N (of cpu_@only if not -1) */
static int read_cpus(struct snap *s, const struct snapshot *ss, int only)
{
	size_t i, j;
	int ret;

	s->cpus = calloc(ss->nsrc, sizeof(*s->cpus));
	if (!s->cpus)
		return -ENOMEM;
	for (i = 0; i < ss->nsrc; i++) {
		const struct ss_source *src = &ss->src[i];

		if (!is_ete(src->dev) || (only >= 0 && src->cpu != only))
			continue;
		if (src->cpu < 0)
			return pd_fail(s, EINVAL,
				       "%s: [core_trace_sources] names no core cpu_N of %s: perf.data's trace is per CPU",
				       ss->trace.path, src->dev->name);
		ret = read_cpu(s, ss, src, &s->cpus[s->ncpus++]);
		if (ret)
			return ret;
	}
	if (!s->ncpus && only >= 0)
		return pd_fail(s, ENOENT,
			       "%s: [core_trace_sources] names no ETE trace source of cpu_%d",
			       ss->trace.path, only);
	if (!s->ncpus)
		return pd_fail(s, ENOENT,
			       "%s: [core_trace_sources] names no ETE trace source of a core cpu_N",
			       ss->trace.path);
	qsort(s->cpus, s->ncpus, sizeof(*s->cpus), cmp_cpu);
	for (i = 1; i < s->ncpus; i++)
		if (s->cpus[i].cpu == s->cpus[i - 1].cpu)
			return pd_fail(s, EINVAL,
				       "%s: [core_trace_sources] names two ETE trace sources of cpu_%d (two sessions): perf.data has one trace per CPU",
				       ss->trace.path, s->cpus[i].cpu);
	/* trace IDs are perf's handle on the metadata: unique */
	for (i = 0; i < s->ncpus; i++)
		for (j = 0; j < i; j++)
			if (s->cpus[i].regs[R_TRACEIDR] ==
			    s->cpus[j].regs[R_TRACEIDR])
				return pd_fail(s, EINVAL,
					       "%s: CPUs %d and %d have the same trace ID",
					       s->dir, s->cpus[j].cpu,
					       s->cpus[i].cpu);
	return 0;
}

/* ---- the tasks ---- */

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
	char *txt = pd_slurp(s->dir, "contexts.txt");
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

/* ---- the machine ---- */

/* machine.txt: KEY=VALUE lines, no section; none: nothing said */
static int read_machine(struct snap *s)
{
	struct ss_ini ini = { 0 };
	const char *v;
	char *path, key[32];
	int ret;

	if (asprintf(&path, "%s/machine.txt", s->dir) < 0)
		return -ENOMEM;
	ret = ss_ini_read(&ini, path, true, s->err, s->errlen);
	free(path);
	if (ret == -ENOENT) {
		if (s->errlen)
			s->err[0] = 0;
		ret = 0;
	}
	if (!ret) {
		v = ss_get(&ini, "", "uname_nodename");
		s->hostname = strdup(v ? v : "");
		v = ss_get(&ini, "", "uname_release");
		s->osrelease = strdup(v ? v : "");
		snprintf(key, sizeof(key), "cpu%d_midr_el1", s->cpus[0].cpu);
		v = ss_get(&ini, "", key);
		s->midr = v ? strtoull(v, NULL, 0) : 0;
		v = ss_get(&ini, "", "cntfrq_el0");
		s->cntfrq = v ? strtoull(v, NULL, 0) : 0;
		if (!s->hostname || !s->osrelease)
			ret = -ENOMEM;
	}
	ss_ini_free(&ini);
	return ret;
}

/*
 * What perf will make of the model: a warning if the CPUs' registers
 * differ; the tasks whose user images are mapped
 */
static void check_model(struct snap *s)
{
	bool traced = false;
	size_t i;

	for (i = 1; i < s->ncpus && s->log; i++) {
		struct cpu *a = &s->cpus[0], *b = &s->cpus[i];

		if (a->regs[R_CONFIGR] != b->regs[R_CONFIGR] ||
		    a->regs[R_IDR0] != b->regs[R_IDR0] ||
		    a->regs[R_IDR1] != b->regs[R_IDR1] ||
		    a->regs[R_IDR2] != b->regs[R_IDR2] ||
		    a->regs[R_IDR8] != b->regs[R_IDR8]) {
			fprintf(s->log,
				"perfdata: warning: CPU %d's ETE registers differ from CPU %d's; perf 6.1 decodes every CPU's raw trace with the first CPU's: write one CPU at a time\n",
				b->cpu, a->cpu);
			break;
		}
	}
	for (i = 0; i < s->ntasks; i++)
		traced |= s->tasks[i].traced;
	/*
	 * A system-wide capture names no traced task: the snapshot has one
	 * address space, so its user images are every alive task's
	 */
	for (i = 0; i < s->ntasks && !traced; i++)
		s->tasks[i].traced = true;
	if (!traced && s->ntasks && s->log)
		fprintf(s->log,
			"perfdata: no traced task: user images mapped into all %zu tasks of contexts.txt\n",
			s->ntasks);
	else if (!traced && s->log)
		fprintf(s->log,
			"perfdata: warning: no task (contexts.txt or given): user memory images not mapped\n");
}

int pd_read(struct snap *s, const struct perfdata_opts *o)
{
	struct snapshot ss;
	size_t i;
	int ret;

	ret = ss_open(&ss, s->dir, s->err, s->errlen);
	if (!ret)
		ret = read_cpus(s, &ss, o ? o->cpu : -1);
	if (!ret)
		ret = pd_read_images(s);
	/* the cores are the snapshot's */
	for (i = 0; i < s->ncpus; i++)
		s->cpus[i].core = NULL;
	ss_close(&ss);
	if (!ret)
		ret = read_tasks(s, o);
	if (!ret)
		ret = read_machine(s);
	if (!ret)
		check_model(s);
	return ret;
}

void pd_free(struct snap *s)
{
	size_t i, k;

	for (i = 0; i < s->ncpus; i++) {
		free(s->cpus[i].trace);
		free(s->cpus[i].gaps);
	}
	free(s->cpus);
	for (k = 0; k < s->nimgs; k++) {
		for (i = 0; i < s->imgs[k].nsyms; i++)
			free(s->imgs[k].syms[i].name);
		free(s->imgs[k].syms);
		free(s->imgs[k].data);
		free(s->imgs[k].name);
		free(s->imgs[k].path);
	}
	free(s->imgs);
	free(s->tasks);
	free(s->hostname);
	free(s->osrelease);
}
