// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: trace CPUs with ETE around a command and write an OpenCSD
 * snapshot directory that decodes on another machine.
 *
 *   etecap -c 0-3 --timestamps -o snap -- ./workload args
 *   trc_pkt_lister -ss_dir snap -src_name ETB_0 -decode
 *
 * Documentation/user-guide-capture.rst is the user guide; etecap.h says
 * which file does what.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "etecap.h"

/* snprintf into @buf, for paths; a path that does not fit is cut */
char *etecap_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return buf;
}

/* Files of an earlier snapshot in the same directory are removed first */
static bool stale(const char *name)
{
	static const char * const prefixes[] = {
		"trace_cpu", "gaps_cpu", "mem_", "maps_", "cpu_", "ETE_",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static int prepare_dir(const char *dir)
{
	char path[512];
	struct dirent *d;
	DIR *dp;

	char *slash;

	/* mkdir -p */
	snprintf(path, sizeof(path), "%s", dir);
	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "etecap: %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "etecap: %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	while ((d = readdir(dp)))
		if (stale(d->d_name))
			unlink(etecap_path(path, sizeof(path), "%s/%s", dir,
					   d->d_name));
	closedir(dp);
	return 0;
}

static void report(const struct etecap *e)
{
	int i;

	for (i = 0; i < e->o.ncpus; i++) {
		const struct etecap_cpu *c = &e->cpu[i];

		fprintf(stderr, "etecap: cpu%d: %llu bytes, %llu gap(s), %llu byte(s) dropped%s\n",
			c->cpu, (unsigned long long)c->bytes,
			(unsigned long long)c->gap_count,
			(unsigned long long)c->lost_bytes,
			c->state == ETE_TRBE_STATE_FAULT ? ", FAULT" : "");
	}
	fprintf(stderr, "etecap: snapshot in %s: %d memory region(s); decode with\n"
		"  trc_pkt_lister -ss_dir %s -src_name ETB_%d -decode\n",
		e->o.outdir, e->mem.n, e->o.outdir, e->cpu[0].cpu);
}

static int setup(struct etecap *e)
{
	char path[512];
	int ret;

	if (e->o.profile) {
		ret = etecap_profile_cpus(e->o.profile, &e->o.cpus);
		if (ret < 0)
			return ret;
		e->o.ncpus = ret;
	}
	/* no -c: every online CPU, whatever their number and numbers */
	if (!e->o.profile && !e->o.ncpus) {
		ret = etecap_online_cpus(ETECAP_ONLINE, &e->o.cpus);
		if (ret < 0)
			return ret;
		e->o.ncpus = ret;
	}
	e->cpu = calloc(e->o.ncpus, sizeof(*e->cpu));
	if (!e->cpu)
		return -ENOMEM;
	ret = prepare_dir(e->o.outdir);
	if (!ret && e->o.profile)
		ret = etecap_profile_buffers(e->o.profile, e->o.cpus, e->o.ncpus);
	else if (!ret)
		ret = etecap_configure(&e->o);
	if (ret)
		return ret;
	ret = etecap_mem_init(&e->mem, e->o.outdir);
	if (ret)
		return ret;
	e->contexts = fopen(etecap_path(path, sizeof(path), "%s/contexts.txt",
					e->o.outdir), "w");
	if (e->contexts)
		fprintf(e->contexts, "# context_id(pid) tgid comm\n");
	return etecap_mem_add_files(&e->mem, e->o.outdir, &e->o);
}

int main(int argc, char **argv)
{
	static struct etecap e;
	int ret;

	ret = etecap_parse(&e.o, argc, argv);
	if (ret)
		return ret > 0 ? 0 : 2;
	ret = etecap_setup_signals();
	ret = ret ?: setup(&e);
	if (ret)
		return 1;
	ret = etecap_capture(&e);
	if (!e.started) {
		if (etecap_interrupted())
			fprintf(stderr, "etecap: interrupted before the trace started\n");
		return 1;
	}
	if (e.o.kernel)
		etecap_mem_add_kernel(&e.mem, e.o.outdir);
	etecap_mem_finish(&e.mem);
	etecap_note_other_tasks(&e);
	if (e.contexts)
		fclose(e.contexts);
	if (etecap_write_snapshot(&e)) {
		fprintf(stderr, "etecap: the snapshot in %s is incomplete\n", e.o.outdir);
		return 1;
	}
	if (!e.o.quiet)
		report(&e);
	return ret ? 1 : 0;
}
