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
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include "etecap.h"

static FILE *create(const char *dir, const char *name, int n)
{
	char file[64], path[512];
	FILE *f;

	snprintf(file, sizeof(file), name, n);
	etecap_path(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "etecap: %s: %s\n", path, strerror(errno));
	return f;
}

static int close_file(FILE *f)
{
	return fclose(f) ? -errno : 0;
}

static int write_snapshot_ini(const struct etecap *e)
{
	FILE *f = create(e->o.outdir, "snapshot.ini", 0);
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
	return close_file(f);
}

static int write_trace_ini(const struct etecap *e)
{
	FILE *f = create(e->o.outdir, "trace.ini", 0);
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
	return close_file(f);
}

/* The core: every memory image is visible to every CPU */
static int write_core_ini(const struct etecap *e, int cpu)
{
	FILE *f = create(e->o.outdir, "cpu_%d.ini", cpu);
	int k;

	if (!f)
		return -errno;
	fprintf(f, "[device]\nname=cpu_%d\nclass=core\ntype=ARM-AA64\n\n[regs]\nPC(size:64)=0x0\n",
		cpu);
	for (k = 0; k < e->mem.n; k++) {
		const struct etecap_region *r = &e->mem.r[k];

		fprintf(f, "\n[dump%d]\nfile=%s\naddress=0x%llx\nlength=0x%llx\n",
			k, r->file, (unsigned long long)r->va,
			(unsigned long long)r->len);
	}
	return close_file(f);
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
	FILE *f = create(e->o.outdir, "etecap.txt", 0);
	int i;

	if (!f)
		return -errno;
	fprintf(f, "duration_ms=%ld\n", e->elapsed_ms);
	if (e->o.profile)
		fprintf(f, "profile=%s\n", e->o.profile);
	if (e->o.cmd) {
		fprintf(f, "command=");
		for (i = 0; e->o.cmd[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", e->o.cmd[i]);
		fprintf(f, "\n");
		describe_child(f, e->child_status);
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
		fprintf(f, " wraps=%llu state=%u last_error=%d\n",
			(unsigned long long)c->wrap_count, c->state,
			c->last_error);
	}
	return close_file(f);
}

/*
 * Everything but the trace and gap files, which the capture wrote: the
 * ini files of the snapshot and the summary.  0 or the first -errno.
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
	return ret ?: write_summary(e);
}
