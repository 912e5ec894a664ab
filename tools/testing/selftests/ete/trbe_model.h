/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the TRBE selftests that run against the ETE/TRBE model:
 * sequence-numbered trace the model replays, the model's debugfs and the
 * driver's sysfs, a mapped /dev/trbe<N>, and a checker that follows the
 * sequence through the IGNORE bytes the TRBE pads with.
 */
#ifndef _TRBE_MODEL_H
#define _TRBE_MODEL_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/ete.h>

#define MODEL		"/sys/kernel/debug/ete_model/"
#define IGNORE		0x70
#define KB		1024UL
#define MB		(1024 * KB)

/* ---- sequence bytes: 4 base-255 digits per word, never 0x70 ---------- */

static inline void seq_word(__u64 word, unsigned char out[4])
{
	int k;

	for (k = 3; k >= 0; k--) {
		unsigned int d = word % 255;

		out[k] = d < IGNORE ? d : d + 1;
		word /= 255;
	}
}

static inline unsigned char seq_byte(__u64 i)
{
	unsigned char w[4];

	seq_word(i / 4, w);
	return w[i % 4];
}

/* @len bytes of the sequence from byte @from (a multiple of 4) */
static inline void seq_fill(unsigned char *p, __u64 from, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 4)
		seq_word((from + i) / 4, p + i);
}

static inline unsigned char *seq_bytes(__u64 from, size_t len)
{
	unsigned char *p = malloc(len);

	if (p)
		seq_fill(p, from, len);
	return p;
}

/* ---- files ----------------------------------------------------------------- */

/*
 * Unload module @name: 0 or -errno (-EBUSY: still in use after a second;
 * a file of the last test may still be closing)
 */
static inline int module_unload(const char *name)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (!syscall(__NR_delete_module, name, O_NONBLOCK))
			return 0;
		if (errno != EWOULDBLOCK && errno != EAGAIN)
			return -errno;
		usleep(20000);
	}
	return -EBUSY;
}

/* Load module @name from /lib/modules/ete (the rig's initramfs) */
static inline int module_load(const char *name)
{
	char path[96];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/lib/modules/ete/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(__NR_finit_module, fd, "", 0))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Unload module @name and load it again: 0, or the -errno of the unload
 * (-EAGAIN: in use) or load.
 */
static inline int module_reload(const char *name)
{
	int ret = module_unload(name);

	return ret ? ret : module_load(name);
}

/*
 * trbe.ko loaded again registers its sink after the test sink's: load the
 * test sink again too, so that it is last in ete.ko's list as the rig
 * loads them (a present real sink wins over it: ete_test_sink.c).
 */
static inline int sink_order_restore(void)
{
	if (access("/sys/module/ete_test_sink", F_OK))
		return 0;
	return module_reload("ete_test_sink");
}

static inline int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	size_t off = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (off < len) {
		n = write(fd, (const char *)buf + off,
			  len - off > 64 * KB ? 64 * KB : len - off);
		if (n <= 0) {
			n = -errno;
			close(fd);
			return n;
		}
		off += n;
	}
	return close(fd) ? -errno : 0;
}

static inline int cpu_write(const char *dir, int cpu, const char *attr,
			    const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), dir, cpu, attr);
	return write_file(path, val, strlen(val));
}

static inline int trbe_set(int cpu, const char *attr, const char *val)
{
	return cpu_write("/sys/class/trbe/trbe%d/%s", cpu, attr, val);
}

static inline int model_set(int cpu, const char *attr, const char *val)
{
	return cpu_write(MODEL "cpu%d/%s", cpu, attr, val);
}

static inline int model_replay(int cpu, const void *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), MODEL "cpu%d/replay", cpu);
	return write_file(path, buf, len);
}

/* A number from /sys/class/trbe/trbe<N>/@attr (stats/flushes...), or -1 */
static inline long long trbe_num(int cpu, const char *attr)
{
	char path[128];
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/trbe/trbe%d/%s", cpu, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lli", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

/* The number in the model's file cpu<N>/@attr (a knob), or -1 */
static inline long long model_num(int cpu, const char *attr)
{
	char path[128];
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), MODEL "cpu%d/%s", cpu, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lli", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

/* One counter of cpu<N>/stats, or -1 */
static inline long long model_stat(int cpu, const char *name)
{
	char path[128], key[64];
	long long val, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), MODEL "cpu%d/stats", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2)
		if (!strcmp(key, name))
			ret = val;
	fclose(f);
	return ret;
}

/*
 * The lines of a CPU's violation log that concern the TRBE driver: its
 * registers (TRB*, TRFCR), TSB CSYNC outside a prohibited region (RJLRQH),
 * TRBE writes while enabled, bad pointers, access off the owning CPU.
 * The trace unit's lines belong to ete.ko's tests.  Returns the count;
 * @buf gets the whole log.
 */
static inline int model_violations(int cpu, char *buf, size_t len)
{
	static const char * const ours[] = {
		" TRB", " TRFCR", "RJLRQH", "TRBE", "off-CPU", "OFFCPU",
	};
	char path[128], *line, *save;
	char copy[4096];
	int count = 0;
	ssize_t n;
	size_t i;
	int fd;

	snprintf(path, sizeof(path), MODEL "cpu%d/violations", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(buf, len, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	snprintf(copy, sizeof(copy), "%s", buf);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		for (i = 0; i < ARRAY_SIZE(ours); i++)
			if (strstr(line, ours[i])) {
				count++;
				break;
			}
	return count;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- a mapped buffer --------------------------------------------------------- */

struct tbuf {
	int cpu;
	int fd;
	long page;
	struct ete_trbe_mmap_page *hdr;
	const unsigned char *data;
	__u64 size;
};

static inline int tbuf_open(struct tbuf *t, int cpu)
{
	char path[32];

	t->cpu = cpu;
	t->page = sysconf(_SC_PAGESIZE);
	snprintf(path, sizeof(path), "/dev/trbe%d", cpu);
	t->fd = open(path, O_RDWR);
	if (t->fd < 0)
		return -errno;
	t->hdr = mmap(NULL, t->page, PROT_READ | PROT_WRITE, MAP_SHARED,
		      t->fd, 0);
	if (t->hdr == MAP_FAILED)
		return -errno;
	t->size = t->hdr->data_size;
	t->data = mmap(NULL, t->size, PROT_READ, MAP_SHARED, t->fd,
		       t->hdr->data_offset);
	return t->data == MAP_FAILED ? -errno : 0;
}

static inline void tbuf_close(struct tbuf *t)
{
	munmap((void *)t->data, t->size);
	munmap(t->hdr, t->page);
	close(t->fd);
}

static inline __u64 tbuf_head(struct tbuf *t)
{
	return __atomic_load_n(&t->hdr->data_head, __ATOMIC_ACQUIRE);
}

static inline unsigned int tbuf_state(struct tbuf *t)
{
	return __atomic_load_n(&t->hdr->state, __ATOMIC_ACQUIRE);
}

/* Wait up to @secs for the state to become @state */
static inline int tbuf_wait_state(struct tbuf *t, unsigned int state,
				  double secs)
{
	double end = now_s() + secs;

	while (tbuf_state(t) != state) {
		if (now_s() > end)
			return -1;
		usleep(2000);
	}
	return 0;
}

/* Wait up to @secs for data_head to reach @want; the head reached */
static inline __u64 tbuf_wait_head(struct tbuf *t, __u64 want, double secs)
{
	double end = now_s() + secs;

	while (tbuf_head(t) < want && now_s() < end) {
		usleep(10000);
		ioctl(t->fd, ETE_TRBE_IOC_SNAPSHOT);
	}
	return tbuf_head(t);
}

/* Wait until data_head stays put for 50 ms (the model ran dry) */
static inline __u64 tbuf_wait_quiet(struct tbuf *t, double secs)
{
	double end = now_s() + secs;
	__u64 head = tbuf_head(t), last;

	do {
		last = head;
		usleep(50000);
		ioctl(t->fd, ETE_TRBE_IOC_SNAPSHOT);
		head = tbuf_head(t);
	} while ((head != last || !head) && now_s() < end);
	return head;
}

/* ---- the checker: skips IGNORE, follows the sequence ------------------------ */

struct checker {
	__u64 next;		/* sequence index expected next */
	__u64 bytes;		/* sequence bytes seen */
	__u64 ignored;	/* IGNORE bytes seen */
	__u64 jumps;		/* discontinuities */
	__u64 bad;		/* bytes matching nothing */
	unsigned char word[4];	/* the word of @next */
	int synced;		/* @next is known */
};

/* The sequence index of the data at @p: 8 non-IGNORE bytes must match */
static inline int seq_find(const unsigned char *p, size_t len, __u64 from,
			   __u64 span, __u64 *idx)
{
	__u64 i;

	for (i = from; i < from + span; i++) {
		size_t k, n = 0;

		for (k = 0; k < len && n < 8; k++) {
			if (p[k] == IGNORE)
				continue;
			if (p[k] != seq_byte(i + n))
				break;
			n++;
		}
		if (n == 8 || (k == len && n)) {
			*idx = i;
			return 0;
		}
	}
	return -1;
}

static inline void check_set(struct checker *c, __u64 idx)
{
	c->next = idx;
	seq_word(idx / 4, c->word);
	c->synced = 1;
}

/* Follow the sequence through @len bytes; a mismatch is a jump or bad */
static inline void check_bytes(struct checker *c, const unsigned char *p,
			       size_t len)
{
	size_t k;

	for (k = 0; k < len; k++) {
		__u64 idx;

		if (p[k] == IGNORE) {
			c->ignored++;
			continue;
		}
		/* past a few bytes matching nothing, stop searching: fail fast */
		if (c->bad > 16) {
			c->bad++;
			continue;
		}
		if (!c->synced) {
			if (seq_find(p + k, len - k, 0, 64 * MB, &idx)) {
				c->bad++;
				continue;
			}
			check_set(c, idx);
		}
		if (p[k] == c->word[c->next % 4]) {
			c->bytes++;
			if (++c->next % 4 == 0)
				seq_word(c->next / 4, c->word);
			continue;
		}
		if (seq_find(p + k, len - k, c->next + 1, 4 * MB, &idx)) {
			c->bad++;
			continue;
		}
		c->jumps++;
		check_set(c, idx);
		k--;
	}
}

/* Consume everything published into @c (and @copy, if given) */
static inline __u64 tbuf_drain_copy(struct tbuf *t, struct checker *c,
				    unsigned char *copy, __u64 copy_len)
{
	__u64 head = tbuf_head(t);
	__u64 lost = __atomic_load_n(&t->hdr->data_lost_tail,
					__ATOMIC_ACQUIRE);
	__u64 tail = t->hdr->data_tail, start;

	if (tail < lost)
		tail = lost;
	start = tail;
	while (tail < head) {
		__u64 off = tail % t->size, n = head - tail;

		if (n > t->size - off)
			n = t->size - off;
		check_bytes(c, t->data + off, n);
		if (copy && tail + n <= copy_len)
			memcpy(copy + tail, t->data + off, n);
		tail += n;
	}
	__atomic_store_n(&t->hdr->data_tail, tail, __ATOMIC_RELEASE);
	return tail - start;
}

static inline __u64 tbuf_drain(struct tbuf *t, struct checker *c)
{
	return tbuf_drain_copy(t, c, NULL, 0);
}

static inline int model_present(int cpu)
{
	char path[64];

	snprintf(path, sizeof(path), MODEL "cpu%d/replay", cpu);
	return !access(path, W_OK);
}

static inline void model_configure(int cpu, const char *size, const char *fm,
				   const char *tm, const char *count,
				   const char *behind)
{
	/* bytes per ms of model time: slow enough for a reader under TCG */
	trbe_set(cpu, "buffer_size", size);
	trbe_set(cpu, "watermark", "0");
	trbe_set(cpu, "fill_mode", fm);
	trbe_set(cpu, "trigger_mode", tm);
	trbe_set(cpu, "trigger_count", count);
	trbe_set(cpu, "when_behind", behind);
	model_set(cpu, "fault", "none");
	model_set(cpu, "rate", "1024");
	model_set(cpu, "violations", "0");
	model_replay(cpu, NULL, 0);
}

#endif /* _TRBE_MODEL_H */
