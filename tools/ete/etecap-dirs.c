// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the snapshot directories.  The capture is written to DIR.tmp
 * and published as DIR (an earlier DIR kept as DIR.old) only when every
 * file is written whole; flight snapshots are written to DIR.<n>.tmp and
 * renamed DIR.<n> the same way.  Removing a snapshot removes only the
 * files etecap writes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "etecap.h"

static bool stale(const char *name)
{
	static const char * const prefixes[] = {
		"trace_cpu", "gaps_cpu", "mem_", "maps_", "cpu_", "ETE_",
		"perf-",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* The other files a snapshot holds: removing one removes only these */
static bool ours(const char *name)
{
	static const char * const names[] = {
		"snapshot.ini", "trace.ini", "etecap.txt", "machine.txt",
		"contexts.txt", "memory.txt", "kernel.txt", "modules.txt",
		".mem.tmp",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return stale(name);
}

/*
 * Remove a snapshot directory etecap wrote: its files, then the directory;
 * one that holds other files stays.  0 if it is gone (or never was).
 */
int etecap_remove_snapshot(const char *dir)
{
	char path[ETECAP_PATH];
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	while ((d = readdir(dp)))
		if (ours(d->d_name))
			unlink(etecap_path(path, sizeof(path), "%s/%s", dir,
					   d->d_name));
	closedir(dp);
	return rmdir(dir) && errno != ENOENT ? -errno : 0;
}

/*
 * The capture is complete in DIR.tmp: an earlier snapshot in DIR becomes
 * DIR.old (as perf keeps perf.data.old), DIR.tmp becomes DIR.
 */
int etecap_publish(struct etecap *e)
{
	char old[ETECAP_PATH];
	struct stat st;
	int ret;

	snprintf(old, sizeof(old), "%s.old", e->dest);
	/* an empty DIR (made for the run) is not worth keeping */
	rmdir(e->dest);
	if (!lstat(e->dest, &st)) {
		ret = etecap_remove_snapshot(old);
		if (ret) {
			fprintf(stderr, "etecap: %s: %s\n"
				"  it holds files etecap did not write: move them away;\n"
				"  the new snapshot is in %s\n",
				old, strerror(-ret), e->o.outdir);
			return ret;
		}
		if (rename(e->dest, old)) {
			ret = -errno;
			fprintf(stderr, "etecap: %s to %s: %s\n"
				"  the new snapshot is in %s\n",
				e->dest, old, strerror(errno), e->o.outdir);
			return ret;
		}
	}
	if (rename(e->o.outdir, e->dest)) {
		ret = -errno;
		fprintf(stderr, "etecap: %s to %s: %s\n", e->o.outdir, e->dest,
			strerror(errno));
		return ret;
	}
	free(e->work);
	e->work = NULL;
	e->o.outdir = e->dest;
	return 0;
}

int etecap_prepare_dir(const char *dir)
{
	char path[ETECAP_PATH];
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

/* ------------------------------------------------------------------------
 * Flight snapshots: SIGUSR2 in wrap or circular mode writes DIR.<n>
 * (etecap-capture.c stops the CPUs, calls these around its drain, and
 * starts them again).  DIR.<n> is written as DIR.<n>.tmp, renamed when
 * complete; an earlier run's DIR.<n> is replaced.
 */

/* What the capture writes to DIR.tmp, put aside while DIR.<n> is written */
static struct {
	const char *outdir;
	struct etecap_memset mem;
	FILE *contexts;
	char dest[ETECAP_PATH], work[ETECAP_PATH];
	bool had_werr;		/* a write error before this snapshot */
} aside;

int etecap_open_contexts(struct etecap *e)
{
	char path[ETECAP_PATH];

	e->contexts = fopen(etecap_path(path, sizeof(path), "%s/contexts.txt",
					e->o.outdir), "w");
	if (!e->contexts)
		return -errno;
	fprintf(e->contexts, "# context_id(pid) tgid comm\n");
	return 0;
}

/*
 * DIR.<n>.tmp made empty and made the directory the capture writes to,
 * with its own memory images (--mem files first) and contexts.txt.
 * 0, or -errno with the capture's directory back.
 */
int etecap_flight_open(struct etecap *e, int n)
{
	int ret;

	const char *p;

	aside.had_werr = etecap_write_failed(&p);
	snprintf(aside.dest, sizeof(aside.dest), "%s.%d", e->dest, n);
	snprintf(aside.work, sizeof(aside.work), "%s.%d.tmp", e->dest, n);
	ret = etecap_remove_snapshot(aside.work);
	ret = ret ?: etecap_prepare_dir(aside.work);
	if (ret) {
		fprintf(stderr, "etecap: %s: %s; no snapshot %d\n", aside.work,
			strerror(-ret), n);
		return ret;
	}
	aside.outdir = e->o.outdir;
	aside.mem = e->mem;
	aside.contexts = e->contexts;
	e->o.outdir = aside.work;
	e->snapshot_no = n;
	e->contexts = NULL;
	ret = etecap_mem_init(&e->mem, e->o.outdir);
	e->mem.others_left = e->o.others_max;
	ret = ret ?: etecap_open_contexts(e);
	ret = ret ?: etecap_mem_add_files(&e->mem, e->o.outdir, &e->o);
	if (ret)
		etecap_flight_close(e, ret);
	return ret;
}

/*
 * @ret 0: complete DIR.<n>.tmp (etecap_complete()) and rename it DIR.<n>;
 * otherwise, or if that fails, remove it.  The capture's directory is
 * the one written to again.  0 or -errno.
 */
int etecap_flight_close(struct etecap *e, int ret)
{
	char ctx[ETECAP_PATH];
	int n = e->snapshot_no;
	const char *p;

	if (!ret)
		ret = etecap_complete(e);
	etecap_mem_finish(&e->mem);
	etecap_fclose(e->contexts, etecap_path(ctx, sizeof(ctx),
					       "%s/contexts.txt", aside.work));
	e->contexts = NULL;
	/* every file written and on the device, or no snapshot */
	if (!ret)
		ret = etecap_sync_dir(aside.work);
	if (!ret && etecap_write_failed(&p)) {
		ret = etecap_write_failed(&p);
		fprintf(stderr, "etecap: %s: %s\n", p, strerror(-ret));
	}
	if (!aside.had_werr)
		etecap_write_error_clear();
	if (!ret) {
		ret = etecap_remove_snapshot(aside.dest);
		if (ret)
			fprintf(stderr, "etecap: %s: %s: it holds files etecap did not write\n",
				aside.dest, strerror(-ret));
	}
	if (!ret && rename(aside.work, aside.dest)) {
		ret = -errno;
		fprintf(stderr, "etecap: %s to %s: %s\n", aside.work, aside.dest,
			strerror(errno));
	}
	if (ret) {
		fprintf(stderr, "etecap: snapshot %d not written: %s\n", n,
			strerror(-ret));
		etecap_remove_snapshot(aside.work);
	} else {
		e->snapshots++;
		if (!e->o.quiet)
			fprintf(stderr, "etecap: SIGUSR2: snapshot %d in %s; tracing goes on\n",
				n, aside.dest);
	}
	e->o.outdir = aside.outdir;
	e->mem = aside.mem;
	e->contexts = aside.contexts;
	e->snapshot_no = 0;
	return ret;
}
