// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/trbe<N> without trace: open rules, the header page, mmap rules,
 * read/poll on an idle buffer, ioctls and the sysfs configuration.  These
 * need no TRBE; the tests that do are in trbe_model_test.c.  One needs a
 * CPU without one: the model hides CPU 1's (start_without_trbe_enodev).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

/* The ABI example, compiled and run here so that it cannot rot */
#include "../../../../Documentation/trbe-consumer.c"

#define DEV	"/dev/trbe0"
#define SYSFS	"/sys/class/trbe/trbe0/"

static int sysfs_write(const char *attr, const char *val)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), SYSFS "%s", attr);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static long long sysfs_read_num(const char *attr)
{
	char path[128], buf[64] = "";
	int fd;

	snprintf(path, sizeof(path), SYSFS "%s", attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return strtoll(buf, NULL, 0);
}

FIXTURE(trbe_dev) {
	int fd;
	long page;
	struct ete_trbe_mmap_page *hdr;
	unsigned long size;
};

FIXTURE_SETUP(trbe_dev)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open(DEV, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV, strerror(errno));
	self->hdr = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_SHARED,
			 self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->hdr);
	self->size = self->hdr->data_size;
}

FIXTURE_TEARDOWN(trbe_dev)
{
	if (self->hdr && self->hdr != MAP_FAILED)
		munmap(self->hdr, self->page);
	if (self->fd >= 0)
		EXPECT_EQ(0, close(self->fd));
}

TEST_F(trbe_dev, header_page_describes_buffer)
{
	EXPECT_EQ((__u64)ETE_TRBE_ABI_VERSION, self->hdr->version);
	EXPECT_EQ(sizeof(struct ete_trbe_mmap_page), self->hdr->hdr_size);
	EXPECT_EQ((unsigned long)self->page, self->hdr->data_offset);
	EXPECT_EQ(sysfs_read_num("buffer_size"), (long long)self->size);
	EXPECT_EQ((__u64)0, self->hdr->data_head);
	EXPECT_EQ((__u64)0, self->hdr->data_tail);
	EXPECT_EQ((__u64)ETE_TRBE_STATE_IDLE, self->hdr->state);
	EXPECT_EQ((__u64)0, self->hdr->gap_count);
	EXPECT_EQ((__u64)0, self->hdr->lost_bytes);
}

TEST_F(trbe_dev, data_pages_zeroed_read_only)
{
	const unsigned char *d;
	unsigned long i, nonzero = 0;

	d = mmap(NULL, self->size, PROT_READ, MAP_SHARED, self->fd,
		 self->page);
	ASSERT_NE(MAP_FAILED, d);
	for (i = 0; i < self->size; i++)
		nonzero += d[i] != 0;
	EXPECT_EQ((__u64)0, nonzero);
	/* Read-only for ever: no upgrade by mprotect */
	EXPECT_EQ(-1, mprotect((void *)d, self->size, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, munmap((void *)d, self->size));
}

TEST_F(trbe_dev, whole_mapping_read_only)
{
	void *p = mmap(NULL, self->page + self->size, PROT_READ, MAP_SHARED,
		       self->fd, 0);

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, munmap(p, self->page + self->size));
}

TEST_F(trbe_dev, writable_data_refused)
{
	void *p = mmap(NULL, self->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       self->fd, self->page);

	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EACCES, errno);
	p = mmap(NULL, self->page + self->size, PROT_READ | PROT_WRITE,
		 MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EACCES, errno);
}

TEST_F(trbe_dev, mapping_past_end_refused)
{
	void *p = mmap(NULL, self->page + self->size + self->page, PROT_READ,
		       MAP_SHARED, self->fd, 0);

	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
		 self->page + self->size);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(trbe_dev, private_writable_header_refused)
{
	void *p = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		       self->fd, 0);

	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(trbe_dev, mapping_does_not_expand)
{
	void *p = mremap(self->hdr, self->page, 2 * self->page, MREMAP_MAYMOVE);

	EXPECT_EQ(MAP_FAILED, p);
}

TEST_F(trbe_dev, mapping_not_inherited)
{
	struct ete_trbe_mmap_page *hdr = self->hdr;
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		/* VM_DONTCOPY: the child has no such mapping */
		_exit(__atomic_load_n(&hdr->version, __ATOMIC_RELAXED) ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSEGV, WTERMSIG(status));
}

TEST_F(trbe_dev, second_open_busy)
{
	int fd = open(DEV, O_RDWR);

	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBUSY, errno);
}

TEST_F(trbe_dev, idle_read_and_poll)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	char buf[64];

	EXPECT_EQ(0, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
}

TEST_F(trbe_dev, status_ioctl)
{
	struct ete_trbe_status st;

	memset(&st, 0xff, sizeof(st));
	ASSERT_EQ(0, ioctl(self->fd, ETE_TRBE_IOC_STATUS, &st));
	EXPECT_EQ((__u64)ETE_TRBE_STATE_IDLE, st.state);
	EXPECT_EQ(0, st.last_error);
	EXPECT_EQ(self->size, st.data_size);
	EXPECT_EQ((__u64)0, st.data_head);
	EXPECT_EQ(sysfs_read_num("present"), st.present);
	EXPECT_EQ(-1, ioctl(self->fd, ETE_TRBE_IOC_STATUS, NULL));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(trbe_dev, bad_ioctls_fail_cleanly)
{
	EXPECT_EQ(-1, ioctl(self->fd, _IO(ETE_IOC_MAGIC, 0x7f)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, _IO('x', 0x01)));
	EXPECT_EQ(ENOTTY, errno);
	/* No session: nothing to stop or snapshot */
	EXPECT_EQ(-1, ioctl(self->fd, ETE_TRBE_IOC_STOP));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, ETE_TRBE_IOC_SNAPSHOT));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ((__u64)ETE_TRBE_STATE_IDLE, self->hdr->state);
}

/* Write @val to @path; 0 or -errno */
static int put_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* CPU 1 offline, then online: trbe.ko probes its TRBE again; 0 or -errno */
static int cpu1_replug(void)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";

	return put_file(online, "0") ?: put_file(online, "1");
}

/* /sys/class/trbe/trbe1/present: 1, 0, or -1 if unreadable */
static int cpu1_present(void)
{
	char buf[8] = "";
	int fd = open("/sys/class/trbe/trbe1/present", O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) <= 0)
		buf[0] = 0;
	close(fd);
	return buf[0] ? buf[0] - '0' : -1;
}

/*
 * A CPU without a TRBE: the model's no_trbe_cpus makes CPU 1's
 * ID_AA64DFR0_EL1 report none (TraceBuffer 0), and trbe.ko probes the CPU
 * again when it comes back online: present 0, START refused with ENODEV,
 * the buffer idle, the device still there.  Then the TRBE comes back the
 * same way.
 */
TEST(start_without_trbe_enodev)
{
	const char *param = "/sys/module/ete_model/parameters/no_trbe_cpus";
	struct ete_trbe_mmap_page *hdr;
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	if (access(param, W_OK))
		SKIP(return, "the model (ete_model.ko) is not loaded");
	ASSERT_EQ(1, cpu1_present());
	ASSERT_EQ(0, put_file(param, "2"));
	ASSERT_EQ(0, cpu1_replug());
	EXPECT_EQ(0, cpu1_present());
	fd = open("/dev/trbe1", O_RDWR);
	EXPECT_LE(0, fd) TH_LOG("open /dev/trbe1: %s", strerror(errno));
	if (fd >= 0) {
		hdr = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
		EXPECT_EQ(-1, ioctl(fd, ETE_TRBE_IOC_START));
		EXPECT_EQ(ENODEV, errno);
		EXPECT_NE(MAP_FAILED, hdr);
		if (hdr != MAP_FAILED) {
			EXPECT_EQ((__u64)ETE_TRBE_STATE_IDLE, hdr->state);
			munmap(hdr, page);
		}
		close(fd);
	}
	/* the TRBE back */
	EXPECT_EQ(0, put_file(param, "0"));
	EXPECT_EQ(0, cpu1_replug());
	EXPECT_EQ(1, cpu1_present());
}

TEST_F(trbe_dev, geometry_busy_while_open)
{
	long long old = sysfs_read_num("buffer_size");

	EXPECT_EQ(-EBUSY, sysfs_write("buffer_size", "65536"));
	EXPECT_EQ(-EBUSY, sysfs_write("watermark", "8192"));
	EXPECT_EQ(old, sysfs_read_num("buffer_size"));
}

/* The documented consumer, on an idle buffer: consumes nothing */
static void count_bytes(__u64 offset, const void *buf, size_t len, void *arg)
{
	*(size_t *)arg += len;
}

TEST(abi_example_consumer)
{
	struct trbe_consumer c;
	size_t n = 0;

	ASSERT_EQ(0, trbe_consumer_open(&c, DEV));
	EXPECT_EQ((__u64)0, trbe_consumer_drain(&c, count_bytes, &n));
	EXPECT_EQ((__u64)0, n);
	EXPECT_EQ(0, c.data[0]);
	trbe_consumer_close(&c);
}

TEST(sysfs_config_validated)
{
	long long old = sysfs_read_num("buffer_size");

	EXPECT_EQ(-EINVAL, sysfs_write("buffer_size", "12288"));
	EXPECT_EQ(-EINVAL, sysfs_write("buffer_size", "0"));
	EXPECT_EQ(-EINVAL, sysfs_write("buffer_size", "4096"));
	EXPECT_EQ(-EINVAL, sysfs_write("buffer_size", "0x100000000"));
	EXPECT_EQ(-EINVAL, sysfs_write("buffer_size", "lots"));
	EXPECT_EQ(old, sysfs_read_num("buffer_size"));
	EXPECT_EQ(-EINVAL, sysfs_write("watermark", "12288"));
	EXPECT_EQ(-EINVAL, sysfs_write("fill_mode", "sideways"));
	EXPECT_EQ(-EINVAL, sysfs_write("trigger_mode", "sometimes"));
	EXPECT_EQ(-EINVAL, sysfs_write("when_behind", "panic"));
	EXPECT_EQ(-EINVAL, sysfs_write("trigger_count", "-1"));
	EXPECT_EQ(-EACCES, sysfs_write("present", "1"));
}

TEST(buffer_size_applies_at_next_open)
{
	struct trbe_consumer c;
	long long old = sysfs_read_num("buffer_size");
	char val[32];

	ASSERT_EQ(0, sysfs_write("buffer_size", "0x10000"));
	ASSERT_EQ(0, trbe_consumer_open(&c, DEV));
	EXPECT_EQ((__u64)0x10000, c.size);
	trbe_consumer_close(&c);
	snprintf(val, sizeof(val), "%lld", old);
	EXPECT_EQ(0, sysfs_write("buffer_size", val));
	EXPECT_EQ(old, sysfs_read_num("buffer_size"));
}

TEST(mode_names_round_trip)
{
	char buf[32] = "";
	int fd;

	ASSERT_EQ(0, sysfs_write("fill_mode", "circular"));
	fd = open(SYSFS "fill_mode", O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_LT(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	EXPECT_STREQ("circular\n", buf);
	EXPECT_EQ(0, sysfs_write("fill_mode", "fill"));
}

TEST(device_node_root_only)
{
	struct stat st;

	ASSERT_EQ(0, stat(DEV, &st));
	EXPECT_EQ((__u64)0600, st.st_mode & 0777);
	EXPECT_EQ((__u64)0, st.st_uid);
}

/*
 * Open /dev/trbe0 as nobody; returns 0 or the errno.  The directory is
 * opened first, as root, so that only the node's and the driver's checks
 * apply (not the modes of the directories above it).
 */
static int open_as_nobody(void)
{
	int dirfd = open("/dev", O_PATH | O_DIRECTORY);
	int status;
	pid_t pid;

	if (dirfd < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(255);
		fd = openat(dirfd, "trbe0", O_RDONLY);
		_exit(fd < 0 ? errno : 0);
	}
	close(dirfd);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(unprivileged_open_refused)
{
	EXPECT_EQ(EACCES, open_as_nobody());
}

TEST(unprivileged_open_follows_node_mode)
{
	int err;

	/*
	 * The node's mode is the guard (the etetrace group of the shipped udev
	 * rule); what the trace may show is decided by the opener's privilege
	 * and the starter's, the kernel only with CAP_PERFMON (unpriv_test)
	 */
	ASSERT_EQ(0, chmod(DEV, 0666));
	err = open_as_nobody();
	EXPECT_EQ(0, chmod(DEV, 0600));
	EXPECT_EQ(0, err);
}

TEST_HARNESS_MAIN
