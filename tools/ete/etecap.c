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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "etecap.h"
#include "perfdata.h"

/* snprintf into @buf, for paths; one that does not fit gives "" */
char *etecap_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		buf[0] = 0;
		errno = ENAMETOOLONG;
	}
	return buf;
}

static const char *sysroot(void)
{
	static const char *root;

	if (!root)
		root = getenv("ETECAP_SYSROOT") ?: "";
	return root;
}

/*
 * The same for a path under /sys or /dev, put under $ETECAP_SYSROOT when
 * that is set: tests run etecap against a tree standing in for the
 * kernel's (tools/ete/tests/fake_sysroot.c); /proc stays the real one.
 */
char *etecap_sys(char *buf, size_t size, const char *fmt, ...)
{
	const char *root = sysroot();
	size_t n = strlen(root);
	va_list ap;
	int m;

	if (n >= size) {
		buf[0] = 0;
		errno = ENAMETOOLONG;
		return buf;
	}
	memcpy(buf, root, n);
	va_start(ap, fmt);
	m = vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= size - n) {
		buf[0] = 0;
		errno = ENAMETOOLONG;
	}
	return buf;
}

/*
 * A directory etecap puts names under must leave them room in a path;
 * refused up front (ENAMETOOLONG), before anything is written.
 */
int etecap_check_path_room(const char *what, const char *path)
{
	if (strlen(path) + ETECAP_NAME_ROOM <= ETECAP_PATH)
		return 0;
	fprintf(stderr, "etecap: %s (%zu characters): %s\n"
		"  etecap adds names of up to %d characters to it and a path\n"
		"  may have %d: choose a shorter one\n", what, strlen(path),
		strerror(ENAMETOOLONG), ETECAP_NAME_ROOM, ETECAP_PATH - 1);
	return -ENAMETOOLONG;
}

/* Files of an earlier snapshot in the same directory are removed first */
/* Bytes of CPU @cpu's buffer: -b, or what the TRBE is set to */
static unsigned long long buffer_bytes(const struct etecap_opts *o, int cpu)
{
	char path[ETECAP_PATH], val[32];

	if (o->buffer_size != ETECAP_UNSET)
		return o->buffer_size;
	etecap_sys(path, sizeof(path), "/sys/class/trbe/trbe%d/buffer_size", cpu);
	return etecap_sysfs_read(path, val, sizeof(val)) ? 0 :
	       strtoull(val, NULL, 0);
}

/*
 * Everything that can be checked before anything is written: each CPU's
 * trace unit and TRBE device, the rights to them, the room for the
 * buffers.  A failure says what to do; -o DIR is not touched yet.
 */
static int preflight(const struct etecap *e)
{
	unsigned long long need = 0;
	char path[ETECAP_PATH], dir[ETECAP_PATH], *slash;
	struct statvfs fs;
	int i;

	for (i = 0; i < e->o.ncpus; i++) {
		int cpu = e->o.cpus[i];

		etecap_sys(path, sizeof(path), "/sys/class/ete/ete%d", cpu);
		if (access(path, F_OK)) {
			fprintf(stderr, "etecap: cpu%d has no trace unit (%s)\n"
				"  load ete.ko (modprobe ete); if it is loaded, the firmware\n"
				"  describes no ETE for this CPU\n", cpu, path);
			return -ENODEV;
		}
		etecap_sys(path, sizeof(path), "/dev/trbe%d", cpu);
		if (access(path, R_OK | W_OK)) {
			if (errno == ENOENT)
				fprintf(stderr, "etecap: cpu%d has no trace buffer (%s)\n"
					"  load trbe.ko (modprobe trbe); if it is loaded, this CPU\n"
					"  has no usable TRBE (/sys/class/trbe/trbe%d/present)\n",
					cpu, path, cpu);
			else
				fprintf(stderr, "etecap: %s: %s\n"
					"  run as root, or join the etetrace group of the driver's\n"
					"  udev rule (60-ete-trbe.rules); tracing the kernel also\n"
					"  needs CAP_PERFMON\n", path, strerror(errno));
			return -errno;
		}
		need += buffer_bytes(&e->o, cpu);
	}
	/* --perf-data FILE: its directory must take it, after the capture */
	if (e->o.perf_data) {
		snprintf(path, sizeof(path), "%s", e->o.perf_data);
		slash = strrchr(path, '/');
		if (!slash)
			snprintf(path, sizeof(path), ".");
		else if (slash == path)
			path[1] = 0;	/* /FILE: the root */
		else
			*slash = 0;
		if (access(path, W_OK | X_OK)) {
			fprintf(stderr, "etecap: --perf-data %s: %s: %s\n"
				"  name a file in a directory that exists and that you may write\n",
				e->o.perf_data, path, strerror(errno));
			return -errno;
		}
	}
	/* the buffers' worth at least, where the snapshot will be */
	snprintf(dir, sizeof(dir), "%s", e->o.outdir);
	while (statvfs(dir, &fs)) {
		slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			snprintf(dir, sizeof(dir), "%s", slash == dir ? "/" : ".");
			if (statvfs(dir, &fs))
				return 0;
			break;
		}
		*slash = 0;
	}
	if ((unsigned long long)fs.f_bavail * fs.f_frsize < need) {
		fprintf(stderr, "etecap: %s: %llu MiB free; buffers of %d CPU(s) need %llu MiB\n"
			"  free some space, choose another -o, or a smaller -b\n",
			dir, (unsigned long long)fs.f_bavail * fs.f_frsize >> 20,
			e->o.ncpus, need >> 20);
		return -ENOSPC;
	}
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

/*
 * --perf-data FILE: the published snapshot as a perf.data (perfdata.c),
 * its ELF images in FILE.d/.  The snapshot stays whatever happens.
 */
static int write_perf_data(const struct etecap *e)
{
	struct perfdata_opts po = {
		.cpu = -1,
		.log = e->o.quiet ? NULL : stderr,
	};
	char err[512];
	int ret;

	ret = perfdata_write(e->o.outdir, e->o.perf_data, &po, err,
			     sizeof(err));
	if (ret)
		fprintf(stderr,
			"etecap: perf.data not written: %s; the snapshot in %s is complete: convert it on the host with ete-decode %s --to-perf %s\n",
			err[0] ? err : strerror(-ret), e->o.outdir,
			e->o.outdir, e->o.perf_data);
	return ret;
}

/*
 * The capture's files are written (trace, gaps): what decode needs
 * besides, the kernel's code and every task's (etecap_note_other_tasks()),
 * then the ini files and the summary.  0 or -errno.
 */
int etecap_complete(struct etecap *e)
{
	if (e->o.kernel)
		etecap_mem_add_kernel(&e->mem, e->o.outdir);
	etecap_note_other_tasks(e);
	if (e->mem.others_skipped)
		fprintf(stderr,
			"etecap: %s: code of other tasks reached --others-max %lld MiB: %u mapping(s) not saved (\"cap\" lines of memory.txt); raise --others-max\n",
			e->o.outdir, e->o.others_max >> 20, e->mem.others_skipped);
	etecap_mem_finish(&e->mem);
	if (e->contexts) {
		char path[ETECAP_PATH];

		etecap_fclose(e->contexts, etecap_path(path, sizeof(path),
						       "%s/contexts.txt",
						       e->o.outdir));
	}
	e->contexts = NULL;
	return etecap_write_snapshot(e);
}

/*
 * Two descriptors per CPU stay open while tracing (/dev/trbe<N> and its
 * trace file), besides a few dozen of etecap's own, and, with a command,
 * one per CPU of the machine for its perf events (etecap-events.c; ptrace
 * follows it if they do not fit): raise the soft limit of open files
 * toward the hard one if 1,024 (the usual soft limit) is not enough.  0,
 * or -EMFILE when the hard limit is too low for the trace.
 */
static int raise_nofile(const struct etecap_opts *o)
{
	rlim_t need = 2 * (rlim_t)o->ncpus + 64, events = 0;
	struct rlimit r;

	if (o->cmd && !o->ptrace && sysconf(_SC_NPROCESSORS_CONF) > 0)
		events = sysconf(_SC_NPROCESSORS_CONF);
	if (getrlimit(RLIMIT_NOFILE, &r))
		return 0;
	if (r.rlim_max == RLIM_INFINITY || r.rlim_max >= need + events)
		need += events;
	if (r.rlim_cur >= need)
		return 0;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < need) {
		fprintf(stderr, "etecap: %d CPUs need %llu open files; the hard limit is %llu\n"
			"  raise it (ulimit -Hn, limits.conf) or trace fewer CPUs (-c)\n",
			o->ncpus, (unsigned long long)need,
			(unsigned long long)r.rlim_max);
		return -EMFILE;
	}
	r.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		fprintf(stderr, "etecap: raising the open files limit to %llu: %s\n",
			(unsigned long long)need, strerror(errno));
		return -errno;
	}
	return 0;
}

static int setup(struct etecap *e)
{
	char path[ETECAP_PATH], *dest;
	const char *base;
	int ret;

	ret = etecap_check_path_room("ETECAP_SYSROOT", sysroot());
	ret = ret ?: etecap_check_path_room("-o", e->o.outdir);
	if (ret)
		return ret;
	if (e->o.perf_data && strlen(e->o.perf_data) >= ETECAP_PATH) {
		fprintf(stderr, "etecap: --perf-data: %s\n", strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	if (e->o.profile) {
		ret = etecap_profile_cpus(e->o.profile, &e->o.cpus);
		if (ret < 0)
			return ret;
		e->o.ncpus = ret;
	}
	/* no -c: every online CPU, whatever their number and numbers */
	if (!e->o.profile && !e->o.ncpus) {
		ret = etecap_online_cpus(etecap_sys(path, sizeof(path), ETECAP_ONLINE),
					 &e->o.cpus);
		if (ret < 0)
			return ret;
		e->o.ncpus = ret;
	}
	e->cpu = calloc(e->o.ncpus, sizeof(*e->cpu));
	if (!e->cpu)
		return -ENOMEM;
	ret = raise_nofile(&e->o);
	if (ret)
		return ret;
	/* --pid, --comm: the tasks' threads as they are now */
	if (e->o.npids || e->o.comm) {
		ret = etecap_resolve_pids(&e->o, "/proc");
		if (ret)
			return ret;
	}
	ret = preflight(e);
	if (ret)
		return ret;
	/* the capture goes to DIR.tmp; DIR changes only when it is complete */
	dest = strdup(e->o.outdir);
	if (!dest)
		return -ENOMEM;
	while (strlen(dest) > 1 && dest[strlen(dest) - 1] == '/')
		dest[strlen(dest) - 1] = 0;
	base = strrchr(dest, '/') ? strrchr(dest, '/') + 1 : dest;
	if (!strcmp(base, ".") || !strcmp(base, "..") || !strcmp(dest, "/")) {
		fprintf(stderr, "etecap: -o %s: name the snapshot directory itself\n"
			"  (etecap writes DIR.tmp beside it, then renames it DIR)\n",
			e->o.outdir);
		free(dest);
		return -EINVAL;
	}
	e->dest = dest;
	if (asprintf(&e->work, "%s.tmp", e->dest) < 0) {
		e->work = NULL;
		return -ENOMEM;
	}
	e->o.outdir = e->work;
	ret = etecap_remove_snapshot(e->work);
	if (ret) {
		fprintf(stderr, "etecap: %s: %s\n"
			"  it holds files etecap did not write: move them away\n",
			e->work, strerror(-ret));
		return ret;
	}
	ret = etecap_prepare_dir(e->o.outdir);
	if (!ret && e->o.profile)
		ret = etecap_profile_buffers(e->o.profile, e->o.cpus, e->o.ncpus);
	else if (!ret)
		ret = etecap_configure(&e->o);
	if (ret)
		return ret;
	ret = etecap_mem_init(&e->mem, e->o.outdir);
	if (ret)
		return ret;
	e->mem.others_left = e->o.others_max;
	etecap_open_contexts(e);
	return etecap_mem_add_files(&e->mem, e->o.outdir, &e->o);
}

/*
 * The command's status when it ended on its own and failed (its exit
 * status, or 128 + the signal that ended it, as a shell says), else 0:
 * the trace is complete either way.  A command etecap ended (-t, ^C) is
 * not a failure.
 */
static int workload_status(const struct etecap *e)
{
	if (!e->o.cmd || !e->ended || strcmp(e->ended, "command"))
		return 0;
	if (WIFEXITED(e->child_status))
		return WEXITSTATUS(e->child_status);
	if (WIFSIGNALED(e->child_status))
		return 128 + WTERMSIG(e->child_status);
	return 0;
}

int main(int argc, char **argv)
{
	static struct etecap e = { .child_go = -1 };
	const char *werr_path;
	int ret;

	ret = etecap_parse(&e.o, argc, argv);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (e.o.preset && !e.o.quiet)
		fprintf(stderr, "etecap: --preset %s: %s\n", e.o.preset->name,
			e.o.preset->what);
	ret = etecap_setup_signals();
	ret = ret ?: setup(&e);
	if (ret) {
		/* nothing was captured: DIR as it was, no DIR.tmp */
		if (e.work)
			etecap_remove_snapshot(e.work);
		return 1;
	}
	ret = etecap_capture(&e);
	if (!e.started) {
		if (etecap_interrupted())
			fprintf(stderr, "etecap: interrupted before the trace started\n");
		etecap_remove_snapshot(e.work);
		return 1;
	}
	/*
	 * Every file written, synced and closed, or the capture is not kept:
	 * a snapshot cut short by a full or failing device would decode as
	 * if the trace ended there.
	 */
	if (etecap_complete(&e) || etecap_write_failed(&werr_path) ||
	    etecap_sync_dir(e.o.outdir)) {
		ret = etecap_write_failed(&werr_path);
		if (ret)
			fprintf(stderr, "etecap: %s: %s\n", werr_path,
				strerror(-ret));
		fprintf(stderr, "etecap: %s not written whole: removed; %s is as it was\n",
			e.o.outdir, e.dest);
		etecap_remove_snapshot(e.o.outdir);
		return 1;
	}
	if (etecap_publish(&e))
		return 1;
	if (!e.o.quiet)
		report(&e);
	if (e.o.perf_data && write_perf_data(&e))
		return 1;
	if (ret)
		return 1;
	return workload_status(&e);
}
