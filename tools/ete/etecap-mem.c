// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the memory images decode needs besides the trace.  A decoder
 * follows the program through the instructions it executed, so it needs
 * their bytes at the addresses they ran at:
 *
 *   --mem FILE@VA       given by the user, first, so they win any overlap
 *   traced processes    each executable mapping of /proc/<pid>/maps, read
 *                       from /proc/<pid>/mem when the task exits, with the
 *                       mapped file's build ID; maps_<pid>.txt keeps the map
 *   the kernel          text and module images from /proc/kcore where it
 *                       exists; kernel.txt records _text, the link address
 *                       and the KASLR offset, modules.txt /proc/modules
 *
 * A later region never overlaps an earlier one: it is cut around it, as
 * OpenCSD refuses overlapping memory accessors.  memory.txt lists every
 * region saved and every one cut or refused, and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/elf.h>

#include "etecap.h"

#define MAX_PIECES	64
/* memory.txt: an image saved as a file, in no core's dumps */
#define NO_DUMP		"(no dump: overlaps an earlier region; maps_<pid>.txt places it)"
#define COPY_CHUNK	65536

struct piece {
	__u64 va, len;
};

/* [va, va + len) minus every region already in @m, into @out */
static int cut_pieces(const struct etecap_memset *m, __u64 va, __u64 len,
		      struct piece *out)
{
	struct piece work[MAX_PIECES];
	int nw = 1, no = 0, i;

	work[0].va = va;
	work[0].len = len;
	for (i = 0; i < m->n; i++) {
		__u64 rs = m->r[i].va, re = rs + m->r[i].len;
		int j, n = nw;

		if (m->r[i].nodump)
			continue;
		for (j = 0; j < n; j++) {
			__u64 ps = work[j].va, pe = ps + work[j].len;

			if (!work[j].len || pe <= rs || ps >= re)
				continue;
			work[j].len = rs > ps ? rs - ps : 0;
			if (pe > re && nw < MAX_PIECES) {
				work[nw].va = re;
				work[nw++].len = pe - re;
			}
		}
	}
	for (i = 0; i < nw; i++)
		if (work[i].len)
			out[no++] = work[i];
	return no;
}

/* Copy @len bytes at @off of @fd into @path; returns the bytes copied */
static __u64 copy_bytes(int fd, off_t off, __u64 len, const char *path)
{
	static char buf[COPY_CHUNK];
	__u64 done = 0;
	int out;

	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return 0;
	while (done < len) {
		size_t n = len - done > COPY_CHUNK ? COPY_CHUNK : len - done;
		ssize_t got = pread(fd, buf, n, off + done);

		/* a mapping goes past its file's end: zeros there */
		if (!got && done && !ftruncate(out, len)) {
			done = len;
			break;
		}
		if (got <= 0)
			break;
		errno = 0;
		if (write(out, buf, got) != got) {
			/* a short write without errno: the device is full */
			etecap_write_error(path, errno ? -errno : -ENOSPC);
			break;
		}
		done += got;
	}
	/* OpenCSD 1.3.3 refuses a memory file of an odd length: pad to 4 */
	if (done % 4 && pwrite(out, "\0\0\0", 4 - done % 4, done) > 0)
		done += 4 - done % 4;
	if (fsync(out))
		etecap_write_error(path, -errno);
	if (close(out))
		etecap_write_error(path, -errno);
	if (!done)
		unlink(path);
	return done;
}

/**
 * etecap_mem_add_region() - add the bytes at @off of @fd as memory at @va
 * @m: the memory set
 * @dir: the snapshot directory, where the image file goes
 * @va: where the bytes were
 * @len: how many
 * @fd: where they are read from
 * @off: their offset in @fd
 * @what: where they came from, for memory.txt
 * @build_id: the mapped file's build ID in hex, or NULL
 *
 * The region is cut around what @m holds already.
 *
 * Return: 0, or -ENOSPC when the region table is full.
 */
int etecap_mem_add_region(struct etecap_memset *m, const char *dir, __u64 va,
			  __u64 len, int fd, off_t off, const char *what,
			  const char *build_id)
{
	struct piece p[MAX_PIECES];
	int np = cut_pieces(m, va, len, p), i;
	char path[ETECAP_PATH];

	for (i = 0; i < m->n && np == 0; i++) {
		if (!m->r[i].nodump && m->r[i].va == va && m->r[i].len == len) {
			/* the same mapping seen again, in another task */
			fprintf(m->log, "same  0x%llx 0x%llx %s: as %s\n",
				(unsigned long long)va, (unsigned long long)len,
				what, m->r[i].file);
			return 0;
		}
	}
	if (np != 1 || p[0].len != len)
		fprintf(m->log, "cut   0x%llx 0x%llx %s: overlaps an earlier region\n",
			(unsigned long long)va, (unsigned long long)len, what);
	for (i = 0; i < np; i++) {
		struct etecap_region *r = &m->r[m->n];

		if (m->n == ETECAP_MAX_REGIONS) {
			fprintf(m->log, "skip  0x%llx %s: too many regions\n",
				(unsigned long long)p[i].va, what);
			return -ENOSPC;
		}
		memset(r, 0, sizeof(*r));
		snprintf(r->file, sizeof(r->file), "mem_%d.bin", m->n);
		etecap_path(path, sizeof(path), "%s/%s", dir, r->file);
		r->len = copy_bytes(fd, off + (p[i].va - va), p[i].len, path);
		if (!r->len) {
			fprintf(m->log, "skip  0x%llx 0x%llx %s: unreadable\n",
				(unsigned long long)p[i].va,
				(unsigned long long)p[i].len, what);
			continue;
		}
		r->va = p[i].va;
		snprintf(r->what, sizeof(r->what), "%s", what);
		snprintf(r->build_id, sizeof(r->build_id), "%s",
			 build_id ? build_id : "");
		fprintf(m->log, "saved 0x%llx 0x%llx %s %s%s%s\n",
			(unsigned long long)r->va, (unsigned long long)r->len,
			r->file, what, *r->build_id ? " build-id " : "",
			r->build_id);
		m->n++;
	}
	return 0;
}

/* memory.txt is opened here; 0 or -errno */
int etecap_mem_init(struct etecap_memset *m, const char *dir)
{
	m->n = 0;
	etecap_path(m->log_path, sizeof(m->log_path), "%s/memory.txt", dir);
	m->log = fopen(m->log_path, "w");
	if (!m->log) {
		etecap_write_error(m->log_path, -errno);
		return -errno;
	}
	fprintf(m->log, "# action va length file source\n");
	return 0;
}

void etecap_mem_finish(struct etecap_memset *m)
{
	etecap_fclose(m->log, m->log_path);
	m->log = NULL;
}

/*
 * A copy of @src in the snapshot directory, read to its end: debugfs and
 * proc files report no size.  Returns an fd open on it (already unlinked)
 * and its size in @size, or -errno.
 */
static int stage(const char *dir, const char *src, __u64 *size)
{
	static char buf[COPY_CHUNK];
	char path[ETECAP_PATH];
	int in, fd;
	ssize_t n;

	*size = 0;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	etecap_path(path, sizeof(path), "%s/.mem.tmp", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	unlink(path);
	while (fd >= 0 && (n = read(in, buf, sizeof(buf))) > 0) {
		if (write(fd, buf, n) != n) {
			close(fd);
			fd = -EIO;
			break;
		}
		*size += n;
	}
	if (fd < 0 && fd != -EIO)
		fd = -errno;
	close(in);
	return fd;
}

/* --mem FILE@VA, in the order given; 0 or -errno */
int etecap_mem_add_files(struct etecap_memset *m, const char *dir,
			 const struct etecap_opts *o)
{
	char what[160];
	int i, fd, ret = 0;
	__u64 size;

	for (i = 0; i < o->nmem && !ret; i++) {
		fd = stage(dir, o->mem[i].file, &size);
		if (fd >= 0 && !size) {
			close(fd);
			fd = -ENODATA;
		}
		if (fd < 0) {
			fprintf(stderr, "etecap: %s: %s\n", o->mem[i].file,
				strerror(-fd));
			return fd;
		}
		snprintf(what, sizeof(what), "--mem %s", o->mem[i].file);
		ret = etecap_mem_add_region(m, dir, o->mem[i].va, size, fd, 0, what, NULL);
		close(fd);
	}
	return ret;
}

/* ------------------------------------------------------------------------
 * Traced processes
 */

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
static void save_perf_map(struct etecap_memset *m, const char *dir,
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

/* One line of /proc/<pid>/maps */
struct map_line {
	unsigned long long start, end, off;
	unsigned long major, minor, inode;
	char perms[8];
	char path[ETECAP_PATH];		/* the %4095[^\n] below */
};

/* true if @line is an executable mapping, in @ml */
static bool exec_mapping(const char *line, struct map_line *ml)
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
		       const struct map_line *ml)
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
					      const struct map_line *ml)
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
 * (etecap is its tracer), and its JIT symbols (save_perf_map()).
 * 0 or -errno.
 */
int etecap_mem_add_process(struct etecap_memset *m, const char *dir, pid_t pid)
{
	char line[ETECAP_MAPS_LINE], path[ETECAP_PATH], what[160], bid[41];
	struct map_line ml;
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
	save_perf_map(m, dir, pid);
	return ret;
}

/*
 * A mapping whose image another task's mapping saved: a dump of it at
 * this task's address too, unless that overlaps an earlier region (then
 * the task's maps_<pid>.txt is what places it).
 */
static void reuse_image(struct etecap_memset *m, const struct etecap_region *img,
			const struct map_line *ml, const char *what)
{
	__u64 len = ml->end - ml->start;
	struct piece p[MAX_PIECES];
	struct etecap_region *r;
	int np;

	if (img->va == ml->start) {
		fprintf(m->log, "same  0x%llx 0x%llx %s: as %s%s\n", ml->start,
			(unsigned long long)len, what, img->file,
			img->nodump ? " " NO_DUMP : "");
		return;
	}
	np = cut_pieces(m, ml->start, len, p);
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
			 const struct map_line *ml, int fd, off_t off,
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
	r->len = copy_bytes(fd, off, ml->end - ml->start,
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
 * A task etecap neither started nor attached to, alive at the stop of a
 * system-wide capture: its map (maps_<pid>.txt), its executable mappings
 * read through /proc/<pid>/mem, an image mapped by several tasks (the
 * same bytes of the same file: device, inode, offset) saved once, and
 * its JIT symbols.  New images take from m->others_left (--others-max);
 * what does not fit is a "cap" line of memory.txt, counted.  A task
 * without a map (a kernel thread) leaves nothing.  0 or -errno.
 */
int etecap_mem_add_other(struct etecap_memset *m, const char *dir, pid_t pid)
{
	char line[ETECAP_MAPS_LINE], path[ETECAP_PATH], what[160], bid[41];
	const struct etecap_region *img;
	struct piece p[MAX_PIECES];
	struct map_line ml;
	int memfd, filefd = -1, fd, first, i, np, ret, n = 0;
	off_t off;
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
	n = 0;
	while (fgets(line, sizeof(line), maps)) {
		n++;
		if (!exec_mapping(line, &ml))
			continue;
		snprintf(what, sizeof(what), "pid %d %.120s+0x%llx", pid,
			 *ml.path ? ml.path : "[anon]", ml.off);
		img = find_image(m, &ml);
		if (img) {
			reuse_image(m, img, &ml, what);
			continue;
		}
		if (memfd < 0) {
			fprintf(m->log, "skip  0x%llx 0x%llx %s: /proc/%d/mem: %s\n",
				ml.start, ml.end - ml.start, what, pid,
				strerror(errno));
			continue;
		}
		if (m->others_left < (long long)(ml.end - ml.start)) {
			fprintf(m->log, "cap   0x%llx 0x%llx %s: --others-max reached\n",
				ml.start, ml.end - ml.start, what);
			m->others_skipped++;
			continue;
		}
		etecap_build_id(ml.path, bid);
		first = m->n;
		/*
		 * A file's text through its page cache, much faster than
		 * /proc/<pid>/mem; that, for what no file backs
		 */
		fd = memfd;
		off = ml.start;
		if (ml.inode) {
			snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx",
				 pid, ml.start, ml.end);
			filefd = open(path, O_RDONLY | O_CLOEXEC);
			if (filefd >= 0) {
				fd = filefd;
				off = ml.off;
			}
		}
		np = cut_pieces(m, ml.start, ml.end - ml.start, p);
		if (np == 1 && p[0].len == ml.end - ml.start)
			ret = etecap_mem_add_region(m, dir, ml.start,
						    ml.end - ml.start, fd, off,
						    what, bid);
		else
			ret = add_file_only(m, dir, &ml, fd, off, what, bid);
		if (filefd >= 0)
			close(filefd);
		filefd = -1;
		if (ret)
			m->others_skipped++;
		for (i = first; i < m->n; i++)
			m->others_left -= m->r[i].len;
		mark_image(m, first, &ml);
	}
	if (memfd >= 0)
		close(memfd);
	fclose(maps);
	/* a kernel thread: no map to keep */
	if (!n)
		unlink(etecap_path(path, sizeof(path), "%s/maps_%d.txt", dir,
				   pid));
	save_perf_map(m, dir, pid);
	return 0;
}
