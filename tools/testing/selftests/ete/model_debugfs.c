// SPDX-License-Identifier: GPL-2.0
/*
 * The ETE model's debugfs files (Documentation/model.rst): bad input gets
 * an errno and leaves the old value, good input takes effect, and the
 * self-capture returns an ETE byte stream that starts with an A-Sync.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define EM_DIR "/sys/kernel/debug/ete_model"

/* Write @val to EM_DIR/@file; return 0 or the errno of the write */
static int put(const char *file, const char *val)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), EM_DIR "/%s", file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = errno;
	if (close(fd) < 0 && !ret)
		ret = errno;
	return ret;
}

/* Read EM_DIR/@file into @buf; return the length or -errno */
static ssize_t get(const char *file, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), EM_DIR "/%s", file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

static int model_absent(void)
{
	return access(EM_DIR, F_OK) != 0;
}

TEST(violations_clear_on_write)
{
	char buf[4096];

	if (model_absent())
		SKIP(return, "ete_model.ko not loaded");
	ASSERT_EQ(put("cpu0/violations", "1"), 0);
	ASSERT_EQ(get("cpu0/violations", buf, sizeof(buf)), 0);
}

TEST(fault_rejects_unknown_name_and_keeps_old)
{
	char buf[64];

	if (model_absent())
		SKIP(return, "ete_model.ko not loaded");
	ASSERT_EQ(put("cpu0/fault", "stuck"), 0);
	ASSERT_EQ(put("cpu0/fault", "bogus"), EINVAL);
	ASSERT_GT(get("cpu0/fault", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "stuck\n");
	ASSERT_EQ(put("cpu0/fault", "none"), 0);
}

TEST(delay_and_rate_reject_out_of_range)
{
	char buf[64];

	if (model_absent())
		SKIP(return, "ete_model.ko not loaded");
	ASSERT_GT(get("cpu0/delay", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "2\n");
	EXPECT_EQ(put("cpu0/delay", "-2"), ERANGE);
	EXPECT_EQ(put("cpu0/delay", "-1"), 0);		/* never */
	ASSERT_GT(get("cpu0/delay", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "-1\n");
	EXPECT_EQ(put("cpu0/delay", "2"), 0);
	EXPECT_EQ(put("cpu0/rate", "2000000"), ERANGE);
	ASSERT_GT(get("cpu0/delay", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "2\n");
}

TEST(powerdown_and_trigger_reject_bad_values)
{
	if (model_absent())
		SKIP(return, "ete_model.ko not loaded");
	EXPECT_EQ(put("cpu0/powerdown", "3"), EINVAL);
	EXPECT_EQ(put("cpu0/trigger", "0"), EINVAL);
}

TEST(capture_rejects_bad_sizes)
{
	if (model_absent())
		SKIP(return, "ete_model.ko not loaded");
	EXPECT_EQ(put("capture", "100"), EINVAL);
	EXPECT_EQ(put("capture", "0"), EINVAL);
	EXPECT_EQ(put("capture", "banana"), EINVAL);
}

TEST(capture_starts_with_async)
{
	static const unsigned char async[12] = { [11] = 0x80 };
	unsigned char data[8192];
	char ini[4096];
	ssize_t n;

	if (model_absent())
		SKIP(return, "ete_model.ko not loaded");
	ASSERT_EQ(put("capture", "8192"), 0);
	n = get("capture", (char *)data, sizeof(data));
	ASSERT_GE(n, 2048);
	EXPECT_EQ(memcmp(data, async, sizeof(async)), 0);
	ASSERT_GT(get("capture.ini", ini, sizeof(ini)), 0);
	EXPECT_NE(strstr(ini, "TRCIDR0=0x"), NULL);
	EXPECT_NE(strstr(ini, "TRCDEVARCH=0x47705a13"), NULL);
}

TEST(replay_is_accepted_and_cleared)
{
	char buf[256];

	if (model_absent())
		SKIP(return, "ete_model.ko not loaded");
	EXPECT_EQ(put("cpu0/replay", "\x04\x04\x04"), 0);
	/* an empty write returns the unit to synthetic trace */
	EXPECT_EQ(put("cpu0/replay", ""), 0);
	ASSERT_GT(get("cpu0/stats", buf, sizeof(buf)), 0);
	EXPECT_NE(strstr(buf, "saves "), NULL);
}

TEST_HARNESS_MAIN
