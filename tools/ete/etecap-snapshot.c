// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the OpenCSD snapshot directory ("ARM Trace and Debug Snapshot
 * file format", read by trc_pkt_lister -ss_dir), as fixed for this project
 * by the e2e interface:
 *
 *   snapshot.ini     [device_list] cpu_<N>.ini and ETE_<N>.ini per CPU,
 *                    [trace] metadata=trace.ini
 *   trace.ini        one buffer per CPU, ETB_<N>, file trace_cpu<N>.bin,
 *                    format source_data (the raw ETE byte stream); the
 *                    buffers= list has no spaces (OpenCSD 1.3.3 keeps them)
 *   cpu_<N>.ini      the core (ARM-AA64) and a [dump<k>] per memory image
 *   ETE_<N>.ini      the trace unit, registers read back from the driver
 *   gaps_cpu<N>.txt  "offset lost reason" per break, at offsets into
 *                    trace_cpu<N>.bin (etecap-gaps.c)
 *   etecap.txt       what was captured, how, and the per-CPU counters
 *   machine.txt      what made the capture: etecap's version, uname, the
 *                    counter frequency, each CPU's MIDR_EL1 and TRBE errata
 *
 * OpenCSD reads only snapshot.ini and the files it names; the .txt files
 * are for the people (and tools) that decode the snapshot elsewhere.
 */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "etecap.h"

static FILE *create(const char *dir, const char *name, int n, char *path)
{
	char file[64];
	FILE *f;

	snprintf(file, sizeof(file), name, n);
	etecap_path(path, ETECAP_PATH, "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "etecap: %s: %s\n", path, strerror(errno));
		etecap_write_error(path, -errno);
	}
	return f;
}

static int write_snapshot_ini(const struct etecap *e)
{
	char path[ETECAP_PATH];
	FILE *f = create(e->o.outdir, "snapshot.ini", 0, path);
	int i, d = 0;

	if (!f)
		return -errno;
	fprintf(f, "[snapshot]\nversion=1.0\n");
	fprintf(f, "description=etecap: ETE trace of %d CPU(s)\n\n", e->o.ncpus);
	fprintf(f, "[device_list]\n");
	for (i = 0; i < e->o.ncpus; i++) {
		fprintf(f, "device%d=cpu_%d.ini\n", d++, e->cpu[i].cpu);
		fprintf(f, "device%d=ETE_%d.ini\n", d++, e->cpu[i].cpu);
	}
	fprintf(f, "\n[trace]\nmetadata=trace.ini\n");
	return etecap_fclose(f, path);
}

static int write_trace_ini(const struct etecap *e)
{
	char path[ETECAP_PATH];
	FILE *f = create(e->o.outdir, "trace.ini", 0, path);
	int i;

	if (!f)
		return -errno;
	fprintf(f, "[trace_buffers]\nbuffers=");
	for (i = 0; i < e->o.ncpus; i++)
		fprintf(f, "%sbuffer%d", i ? "," : "", i);
	fprintf(f, "\n");
	for (i = 0; i < e->o.ncpus; i++)
		fprintf(f, "\n[buffer%d]\nname=ETB_%d\nfile=trace_cpu%d.bin\nformat=source_data\n",
			i, e->cpu[i].cpu, e->cpu[i].cpu);
	fprintf(f, "\n[source_buffers]\n");
	for (i = 0; i < e->o.ncpus; i++)
		fprintf(f, "ETE_%d=ETB_%d\n", e->cpu[i].cpu, e->cpu[i].cpu);
	fprintf(f, "\n[core_trace_sources]\n");
	for (i = 0; i < e->o.ncpus; i++)
		fprintf(f, "cpu_%d=ETE_%d\n", e->cpu[i].cpu, e->cpu[i].cpu);
	return etecap_fclose(f, path);
}

/* The core: every memory image is visible to every CPU */
static int write_core_ini(const struct etecap *e, int cpu)
{
	char path[ETECAP_PATH];
	FILE *f = create(e->o.outdir, "cpu_%d.ini", cpu, path);
	int k, d;

	if (!f)
		return -errno;
	fprintf(f, "[device]\nname=cpu_%d\nclass=core\ntype=ARM-AA64\n\n[regs]\nPC(size:64)=0x0\n",
		cpu);
	for (k = 0, d = 0; k < e->mem.n; k++) {
		const struct etecap_region *r = &e->mem.r[k];

		if (r->nodump)
			continue;
		fprintf(f, "\n[dump%d]\nfile=%s\naddress=0x%llx\nlength=0x%llx\n",
			d++, r->file, (unsigned long long)r->va,
			(unsigned long long)r->len);
	}
	return etecap_fclose(f, path);
}

static void describe_child(FILE *f, int st)
{
	if (WIFEXITED(st))
		fprintf(f, "command_exit=%d\n", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		fprintf(f, "command_signal=%s\n", strsignal(WTERMSIG(st)));
}

static int write_summary(const struct etecap *e)
{
	char path[ETECAP_PATH];
	FILE *f = create(e->o.outdir, "etecap.txt", 0, path);
	int i;

	if (!f)
		return -errno;
	fprintf(f, "duration_ms=%ld\n", e->elapsed_ms);
	if (e->ended)
		fprintf(f, "ended=%s\n", e->ended);
	if (e->snapshot_no)
		fprintf(f, "snapshot=%d\n", e->snapshot_no);
	else if (e->snapshots)
		fprintf(f, "snapshots_before=%d\n", e->snapshots);
	if (e->o.profile)
		fprintf(f, "profile=%s\n", e->o.profile);
	/* task mode: the process whose tasks the CPUs traced, or all */
	if (e->bound)
		fprintf(f, "tasks=%d\n", e->bound);
	else
		fprintf(f, "tasks=all\n");
	/* sampled trace: WINDOW/PERIOD cycles (a profile scales by it) */
	if (e->o.sample_window > 0)
		fprintf(f, "sample=%lld/%lld\n", e->o.sample_window,
			e->o.sample_period);
	else
		fprintf(f, "sample=off\n");
	if (e->o.cmd) {
		fprintf(f, "command=");
		for (i = 0; e->o.cmd[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", e->o.cmd[i]);
		fprintf(f, "\n");
		describe_child(f, e->child_status);
		/* where the command's code came from (etecap-events.c) */
		if (etecap_events_on())
			fprintf(f, "code=perf-events\n");
		else if (etecap_events_why_not())
			fprintf(f, "code=ptrace (%s)\n", etecap_events_why_not());
		else
			fprintf(f, "code=ptrace\n");
	}
	if (etecap_interrupted())
		fprintf(f, "interrupted=%s\n", strsignal(etecap_interrupted()));
	fprintf(f, "memory_regions=%d\n", e->mem.n);
	for (i = 0; i < e->o.ncpus; i++) {
		const struct etecap_cpu *c = &e->cpu[i];

		fprintf(f, "cpu%d: bytes=%llu gaps=%llu lost_bytes=%llu",
			c->cpu, (unsigned long long)c->bytes,
			(unsigned long long)c->gap_count,
			(unsigned long long)c->lost_bytes);
		fprintf(f, " wraps=%llu state=%u last_error=%d",
			(unsigned long long)c->wrap_count, c->state,
			c->last_error);
		fprintf(f, " gap_records_missed=%llu\n",
			(unsigned long long)c->gaps_missed);
	}
	/* where trace_cpu<N>.bin is in the CPU's stream (flight snapshots) */
	for (i = 0; i < e->o.ncpus; i++) {
		const struct etecap_cpu *c = &e->cpu[i];

		fprintf(f, "cpu%d_stream=%llu %llu\n", c->cpu,
			(unsigned long long)(c->bytes ? c->first : c->next),
			(unsigned long long)c->next);
	}
	return etecap_fclose(f, path);
}

/*
 * CNTFRQ_EL0, the generic timer's frequency in Hz: timestamps count it.
 * Linux lets EL0 read it (CNTKCTL_EL1.EL0PCTEN or EL0VCTEN).
 */
static unsigned long long cntfrq(void)
{
	unsigned long long v = 0;

#ifdef __aarch64__
	asm volatile("mrs %0, cntfrq_el0" : "=r" (v));
#endif
	return v;
}

#define MIDR_FILE	"/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1"
#define ERRATA_FILE	"/sys/class/trbe/trbe%d/errata"

/* "cpu<N>_<key>=<first line of @path>", or a comment saying why not */
static void cpu_value(FILE *f, int cpu, const char *key, const char *path)
{
	char val[64];
	int ret = etecap_sysfs_read(path, val, sizeof(val));

	if (ret)
		fprintf(f, "# cpu%d_%s: %s: %s\n", cpu, key, path, strerror(-ret));
	else
		fprintf(f, "cpu%d_%s=%s\n", cpu, key, val);
}

/*
 * machine.txt: the tool and the machine behind the snapshot, key=value,
 * for decoding elsewhere: which cores (MIDR_EL1, as the kernel read it
 * at boot) and TRBE errata, and the counter frequency that timestamps
 * count in.
 */
static int write_machine(const struct etecap *e)
{
	char path[ETECAP_PATH];
	FILE *f = create(e->o.outdir, "machine.txt", 0, path);
	char sys[ETECAP_PATH];
	struct utsname u;
	int i;

	if (!f)
		return -errno;
	fprintf(f, "# etecap: the tool, the kernel and the CPUs of this capture\n");
	fprintf(f, "etecap_version=%s\n", ETE_VERSION);
	if (uname(&u))
		fprintf(f, "# uname: %s\n", strerror(errno));
	else
		fprintf(f, "uname_sysname=%s\nuname_nodename=%s\nuname_release=%s\n"
			"uname_version=%s\nuname_machine=%s\n", u.sysname,
			u.nodename, u.release, u.version, u.machine);
	fprintf(f, "cntfrq_el0=%llu\n", cntfrq());
	for (i = 0; i < e->o.ncpus; i++) {
		int cpu = e->cpu[i].cpu;

		cpu_value(f, cpu, "midr_el1",
			  etecap_sys(sys, sizeof(sys), MIDR_FILE, cpu));
		cpu_value(f, cpu, "trbe_errata",
			  etecap_sys(sys, sizeof(sys), ERRATA_FILE, cpu));
		/* the kernel's EL: what -e kernel traced */
		fprintf(f, "cpu%d_kernel_el=%d\n", cpu, etecap_kernel_el(cpu));
	}
	return etecap_fclose(f, path);
}

/*
 * Everything but the trace and gap files, which the capture wrote: the
 * ini files of the snapshot, the summary and machine.txt.  0 or the
 * first -errno.
 */
int etecap_write_snapshot(struct etecap *e)
{
	int i, ret;

	ret = write_snapshot_ini(e);
	ret = ret ?: write_trace_ini(e);
	for (i = 0; i < e->o.ncpus && !ret; i++) {
		ret = write_core_ini(e, e->cpu[i].cpu);
		ret = ret ?: etecap_write_unit_ini(e->o.outdir, e->cpu[i].cpu);
	}
	ret = ret ?: write_summary(e);
	return ret ?: write_machine(e);
}
