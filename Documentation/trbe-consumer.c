// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal /dev/trbe<N> consumer: the example of Documentation/abi-trbe.rst.
 * tools/testing/selftests/ete/trbe_cdev_test.c compiles and runs it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/ete.h>

struct trbe_consumer {
	int fd;
	struct ete_trbe_mmap_page *hdr;	/* shared, writable: data_tail */
	const unsigned char *data;	/* shared, read-only */
	__u64 size;
};

/* Open a CPU's buffer and map it. Returns 0 or a negative errno. */
static int trbe_consumer_open(struct trbe_consumer *c, const char *path)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	c->fd = open(path, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED)
		goto err;
	c->hdr = p;
	if (c->hdr->version != ETE_TRBE_ABI_VERSION) {
		errno = EPROTO;
		goto err;
	}
	c->size = c->hdr->data_size;
	p = mmap(NULL, c->size, PROT_READ, MAP_SHARED, c->fd,
		 c->hdr->data_offset);
	if (p == MAP_FAILED)
		goto err;
	c->data = p;
	return 0;
err:
	close(c->fd);
	return -errno;
}

/*
 * Hand every published byte to out() (a piece at a time, as the data may
 * wrap the buffer) with its stream offset, then release the space.
 * Returns the bytes consumed.  Bytes the driver gave up before they were
 * read (data_lost_tail) are skipped: the next offset out() sees is then
 * not the end of the last piece, and a writer of a file that keeps the
 * pieces end to end must translate the gap records' stream offsets.
 */
typedef void (*trbe_out_fn)(__u64 offset, const void *buf, size_t len,
			    void *arg);

static __u64 trbe_consumer_drain(struct trbe_consumer *c, trbe_out_fn out,
				 void *arg)
{
	/* data_head, then a read barrier: the acquire load */
	__u64 head = __atomic_load_n(&c->hdr->data_head, __ATOMIC_ACQUIRE);
	__u64 lost = __atomic_load_n(&c->hdr->data_lost_tail,
					__ATOMIC_ACQUIRE);
	__u64 tail = c->hdr->data_tail, start;

	if (tail < lost)	/* overwritten or dropped: see the gaps */
		tail = lost;
	start = tail;
	while (tail < head) {
		__u64 off = tail % c->size;
		__u64 n = head - tail;

		if (n > c->size - off)
			n = c->size - off;
		out(tail, c->data + off, n, arg);
		tail += n;
	}
	/* everything read before the space is given back: a release store */
	__atomic_store_n(&c->hdr->data_tail, tail, __ATOMIC_RELEASE);
	return tail - start;
}

static void trbe_consumer_close(struct trbe_consumer *c)
{
	munmap((void *)c->data, c->size);
	munmap(c->hdr, sysconf(_SC_PAGESIZE));
	close(c->fd);
}
