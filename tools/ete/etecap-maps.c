// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the code of processes, one executable mapping at a time, into
 * the memory set of etecap-mem.c: the traced command's tasks (at their
 * exit under ptrace, etecap_mem_add_process(); from perf's records,
 * etecap-events.c) and, system-wide, the other tasks alive at the stop
 * (etecap_mem_add_other()).  An image mapped by several tasks (the same
 * bytes of the same file: device, inode, offset) is saved once; a file's
 * text is read through its page cache rather than /proc/<pid>/mem.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "etecap.h"

/* memory.txt: an image saved as a file, in no core's dumps */
#define NO_DUMP		"(no dump: overlaps an earlier region; maps_<pid>.txt places it)"

/* Copy /proc/<pid>/maps into maps_<pid>.txt; returns it opened for reading */
static FILE *save_maps(const char *dir, pid_t pid)
{
	char path[ETECAP_PATH], line[ETECAP_MAPS_LINE];
	FILE *in, *out;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	in = fopen(path, "r");
	if (!in)
		return NULL;
	etecap_path(path, sizeof(path), "%s/maps_%d.txt", dir, pid);
	out = fopen(path, "w");
	while (fgets(line, sizeof(line), in))
		if (out)
			fputs(line, out);
	if (out)
		fclose(out);
	rewind(in);
	return in;
}

/*
 * A JIT's symbols: perf's convention, /tmp/perf-<pid>.map ("START SIZE
 * name" in hex), copied into the snapshot as perf-<pid>.map when the task
 * wrote one; its code is among the anonymous executable mappings saved.
 */
void etecap_mem_add_perf_map(struct etecap_memset *m, const char *dir,
			     pid_t pid)
{
	char path[ETECAP_PATH], buf[4096];
	FILE *in, *out;
	size_t n;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	in = fopen(path, "r");
	if (!in)
		return;
	etecap_path(buf, sizeof(buf), "%s/perf-%d.map", dir, pid);
	out = fopen(buf, "w");
	while (out && (n = fread(buf, 1, sizeof(buf), in)))
		if (fwrite(buf, 1, n, out) != n)
			break;
	fprintf(m->log, "# symbols %s: perf-%d.map%s\n", path, pid,
		out && !ferror(in) ? "" : " (not copied)");
	etecap_path(path, sizeof(path), "%s/perf-%d.map", dir, pid);
	etecap_fclose(out, path);
	fclose(in);
}

/* true if @line is an executable mapping, in @ml */
static bool exec_mapping(const char *line, struct etecap_map *ml)
{
	ml->path[0] = 0;
	return sscanf(line, "%llx-%llx %7s %llx %lx:%lx %lu %4095[^\n]",
		      &ml->start, &ml->end, ml->perms, &ml->off, &ml->major,
		      &ml->minor, &ml->inode, ml->path) >= 7 &&
	       strchr(ml->perms, 'x') && ml->end > ml->start;
}

/*
 * The file a mapping maps, on the regions added from @first on: when the
 * mapping went in whole, one region at its start, a later task mapping
 * the same bytes of the same file reuses its image (find_image()).
 */
static void mark_image(struct etecap_memset *m, int first,
		       const struct etecap_map *ml)
{
	struct etecap_region *r = &m->r[first];

	if (m->n != first + 1 || !ml->inode || r->va != ml->start ||
	    r->len != ml->end - ml->start)
		return;
	r->dev_major = ml->major;
	r->dev_minor = ml->minor;
	r->inode = ml->inode;
	r->offset = ml->off;
}

/* The region holding the bytes @ml maps (device, inode, offset, length) */
static const struct etecap_region *find_image(const struct etecap_memset *m,
					      const struct etecap_map *ml)
{
	int i;

	for (i = 0; ml->inode && i < m->n; i++) {
		const struct etecap_region *r = &m->r[i];

		if (r->inode == ml->inode && r->dev_major == ml->major &&
		    r->dev_minor == ml->minor && r->offset == ml->off &&
		    r->len == ml->end - ml->start)
			return r;
	}
	return NULL;
}

/*
 * The executable mappings of task @pid, read through /proc/<pid>/mem
 * (etecap is its tracer), and its JIT symbols (etecap_mem_add_perf_map()).
 * 0 or -errno.
 */
int etecap_mem_add_process(struct etecap_memset *m, const char *dir, pid_t pid)
{
	char line[ETECAP_MAPS_LINE], path[ETECAP_PATH], what[160], bid[41];
	struct etecap_map ml;
	FILE *maps;
	int memfd, ret = 0, first;

	maps = save_maps(dir, pid);
	if (!maps)
		return -errno;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	memfd = open(path, O_RDONLY | O_CLOEXEC);
	if (memfd < 0) {
		ret = -errno;
		fprintf(m->log, "skip  pid %d: %s: %s\n", pid, path, strerror(errno));
		fclose(maps);
		return ret;
	}
	while (fgets(line, sizeof(line), maps) && !ret) {
		if (!exec_mapping(line, &ml))
			continue;
		etecap_build_id(ml.path, bid);
		snprintf(what, sizeof(what), "pid %d %.120s+0x%llx", pid,
			 *ml.path ? ml.path : "[anon]", ml.off);
		first = m->n;
		ret = etecap_mem_add_region(m, dir, ml.start,
					    ml.end - ml.start, memfd, ml.start,
					    what, bid);
		mark_image(m, first, &ml);
	}
	close(memfd);
	fclose(maps);
	etecap_mem_add_perf_map(m, dir, pid);
	return ret;
}

/*
 * A mapping whose image another task's mapping saved: a dump of it at
 * this task's address too, unless that overlaps an earlier region (then
 * the task's maps_<pid>.txt is what places it).
 */
static void reuse_image(struct etecap_memset *m, const struct etecap_region *img,
			const struct etecap_map *ml, const char *what)
{
	__u64 len = ml->end - ml->start;
	struct etecap_piece p[ETECAP_MAX_PIECES];
	struct etecap_region *r;
	int np;

	if (img->va == ml->start) {
		fprintf(m->log, "same  0x%llx 0x%llx %s: as %s%s\n", ml->start,
			(unsigned long long)len, what, img->file,
			img->nodump ? " " NO_DUMP : "");
		return;
	}
	np = etecap_mem_cut(m, ml->start, len, p);
	if (np != 1 || p[0].len != len || m->n == ETECAP_MAX_REGIONS) {
		fprintf(m->log, "same  0x%llx 0x%llx %s: as %s " NO_DUMP "\n",
			ml->start, (unsigned long long)len, what, img->file);
		return;
	}
	r = &m->r[m->n++];
	*r = *img;
	r->nodump = false;
	r->va = ml->start;
	snprintf(r->what, sizeof(r->what), "%s", what);
	fprintf(m->log, "same  0x%llx 0x%llx %s: as %s\n", ml->start,
		(unsigned long long)len, what, img->file);
}

/*
 * The image of @ml as a file of the snapshot, not a dump: it overlaps a
 * dump (another program at the same address: the snapshot has one
 * address space), so the task's maps_<pid>.txt and memory.txt place it.
 * 0, or -ENOSPC when the region table is full.
 */
static int add_file_only(struct etecap_memset *m, const char *dir,
			 const struct etecap_map *ml, int fd, off_t off,
			 const char *what, const char *bid)
{
	struct etecap_region *r = &m->r[m->n];
	char path[ETECAP_PATH];

	if (m->n == ETECAP_MAX_REGIONS) {
		fprintf(m->log, "skip  0x%llx %s: too many regions\n", ml->start,
			what);
		return -ENOSPC;
	}
	memset(r, 0, sizeof(*r));
	snprintf(r->file, sizeof(r->file), "mem_%d.bin", m->n);
	r->len = etecap_mem_copy(fd, off, ml->end - ml->start,
				 etecap_path(path, sizeof(path), "%s/%s", dir,
					     r->file));
	if (!r->len) {
		fprintf(m->log, "skip  0x%llx 0x%llx %s: unreadable\n", ml->start,
			ml->end - ml->start, what);
		return 0;
	}
	r->va = ml->start;
	r->nodump = true;
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->build_id, sizeof(r->build_id), "%s", bid);
	fprintf(m->log, "saved 0x%llx 0x%llx %s %s%s%s " NO_DUMP "\n",
		(unsigned long long)r->va, (unsigned long long)r->len, r->file,
		what, *bid ? " build-id " : "", bid);
	m->n++;
	return 0;
}

/*
 * The kernel's vDSO as etecap has it mapped: the same bytes in every
 * process of this kernel (of one ABI), where a task that is gone took its
 * own.  /proc/self/mem open at it (*@off), or -1 if none of @len bytes.
 */
static int own_vdso(__u64 len, off_t *off, bool *own)
{
	char line[ETECAP_MAPS_LINE];
	unsigned long long start, end;
	int fd = -1;
	FILE *maps;

	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps)) {
		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%llx-%llx", &start, &end) != 2 ||
		    end - start != len)
			continue;
		fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
		*off = start;
		*own = fd >= 0;
		break;
	}
	if (maps)
		fclose(maps);
	return fd;
}

/*
 * An open file holding @ml's bytes, at *@off: the mapped file through
 * /proc/<pid>/map_files (the very file mapped, even if its path now names
 * another), else through its path when that is still the same file
 * (device and inode: the task may be gone), else @memfd at the address
 * (what no file backs, or a file neither way reaches; the vDSO of a task
 * that is gone from etecap's own).  -1 if none.
 * *@own says whether the caller closes it.
 */
static int image_source(pid_t pid, const struct etecap_map *ml, int memfd,
			off_t *off, bool *own)
{
	char path[ETECAP_PATH];
	struct stat st;
	int fd;

	*own = false;
	*off = ml->start;
	if (!ml->inode && memfd < 0 && !strcmp(ml->path, "[vdso]"))
		return own_vdso(ml->end - ml->start, off, own);
	if (!ml->inode)
		return memfd;
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid,
		 ml->start, ml->end);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && ml->path[0] == '/') {
		fd = open(ml->path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && (fstat(fd, &st) || st.st_ino != ml->inode ||
				major(st.st_dev) != ml->major ||
				minor(st.st_dev) != ml->minor)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0)
		return memfd;
	*own = true;
	*off = ml->off;
	return fd;
}

/**
 * etecap_mem_add_mapping() - the image of one executable mapping of a task
 * @m: the memory set
 * @dir: the snapshot directory
 * @pid: the task that mapped it
 * @ml: the mapping
 * @memfd: /proc/<pid>/mem open for reading, or -1 (the task is gone)
 * @capped: the image counts against --others-max (m->others_left)
 *
 * An image already saved for the same bytes of the same file (device,
 * inode, offset) is reused; a file's text is read through its page cache
 * (image_source()), much faster than /proc/<pid>/mem; a mapping that
 * overlaps an earlier region is kept as a file that memory.txt and the
 * task's map place (add_file_only()).
 *
 * Return: 0, or -ENOSPC when the region table is full or @capped and the
 * cap is reached (counted in m->others_skipped).
 */
int etecap_mem_add_mapping(struct etecap_memset *m, const char *dir,
			   pid_t pid, const struct etecap_map *ml, int memfd,
			   bool capped)
{
	char what[160], bid[41];
	const struct etecap_region *img;
	struct etecap_piece p[ETECAP_MAX_PIECES];
	__u64 len = ml->end - ml->start;
	int fd, first, i, np, ret;
	bool own;
	off_t off;

	snprintf(what, sizeof(what), "pid %d %.120s+0x%llx", pid,
		 *ml->path ? ml->path : "[anon]", ml->off);
	img = find_image(m, ml);
	if (img) {
		reuse_image(m, img, ml, what);
		return 0;
	}
	if (capped && m->others_left < (long long)len) {
		fprintf(m->log, "cap   0x%llx 0x%llx %s: --others-max reached\n",
			ml->start, (unsigned long long)len, what);
		m->others_skipped++;
		return -ENOSPC;
	}
	fd = image_source(pid, ml, memfd, &off, &own);
	if (fd < 0) {
		fprintf(m->log,
			"skip  0x%llx 0x%llx %s: neither its file nor /proc/%d/mem can be read\n",
			ml->start, (unsigned long long)len, what, pid);
		return 0;
	}
	etecap_build_id(*ml->path == '/' ? ml->path : "", bid);
	first = m->n;
	np = etecap_mem_cut(m, ml->start, len, p);
	if (np == 1 && p[0].len == len)
		ret = etecap_mem_add_region(m, dir, ml->start, len, fd, off,
					    what, bid);
	else
		ret = add_file_only(m, dir, ml, fd, off, what, bid);
	if (own)
		close(fd);
	if (ret && capped)
		m->others_skipped++;
	for (i = first; capped && i < m->n; i++)
		m->others_left -= m->r[i].len;
	mark_image(m, first, ml);
	return ret;
}

/*
 * A task etecap neither started nor attached to, alive at the stop of a
 * system-wide capture: its map (maps_<pid>.txt), its executable mappings
 * (etecap_mem_add_mapping(), new images taking from m->others_left,
 * --others-max: what does not fit is a "cap" line of memory.txt,
 * counted), and its JIT symbols.  A task without a map (a kernel thread)
 * leaves nothing.  0 or -errno.
 */
int etecap_mem_add_other(struct etecap_memset *m, const char *dir, pid_t pid)
{
	char line[ETECAP_MAPS_LINE], path[ETECAP_PATH];
	struct etecap_map ml;
	int memfd, n;
	FILE *maps;

	/* a kernel thread has no map: nothing written (slow on some disks) */
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps = fopen(path, "r");
	if (!maps)
		return -errno;
	n = !!fgets(line, sizeof(line), maps);
	fclose(maps);
	if (!n)
		return 0;
	maps = save_maps(dir, pid);
	if (!maps)
		return -errno;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	memfd = open(path, O_RDONLY | O_CLOEXEC);
	if (memfd < 0)
		fprintf(m->log, "# pid %d: %s: %s: only file-backed code saved\n",
			pid, path, strerror(errno));
	n = 0;
	while (fgets(line, sizeof(line), maps)) {
		n++;
		if (exec_mapping(line, &ml))
			etecap_mem_add_mapping(m, dir, pid, &ml, memfd, true);
	}
	if (memfd >= 0)
		close(memfd);
	fclose(maps);
	/* a kernel thread: no map to keep */
	if (!n)
		unlink(etecap_path(path, sizeof(path), "%s/maps_%d.txt", dir,
				   pid));
	etecap_mem_add_perf_map(m, dir, pid);
	return 0;
}
