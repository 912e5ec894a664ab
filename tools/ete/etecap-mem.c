// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the memory images decode needs besides the trace.  A decoder
 * follows the program through the instructions it executed, so it needs
 * their bytes at the addresses they ran at:
 *
 *   --mem FILE@VA       given by the user, first, so they win any overlap
 *   processes           each executable mapping of the traced tasks, with
 *                       the mapped file's build ID (etecap-maps.c);
 *                       maps_<pid>.txt keeps each task's map
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

#define COPY_CHUNK	65536

/* [va, va + len) minus every region already in @m, into @out */
int etecap_mem_cut(const struct etecap_memset *m, __u64 va, __u64 len,
		   struct etecap_piece *out)
{
	struct etecap_piece work[ETECAP_MAX_PIECES];
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
			if (pe > re && nw < ETECAP_MAX_PIECES) {
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
__u64 etecap_mem_copy(int fd, off_t off, __u64 len, const char *path)
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
	struct etecap_piece p[ETECAP_MAX_PIECES];
	int np = etecap_mem_cut(m, va, len, p), i;
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
		r->len = etecap_mem_copy(fd, off + (p[i].va - va), p[i].len, path);
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
