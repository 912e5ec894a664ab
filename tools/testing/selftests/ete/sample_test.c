// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled (strobed) trace, /sys/class/ete/ete<N>/sample_window and
 * sample_period (ete/sample.c), against the model, whose resources run on
 * its PE's cycles (tools/testing/ete-model/resource.c) and which counts
 * ViewInst's windows itself (cpu<N>/stats vi_*): the truth the windows
 * are checked against.  The model runs a fixed number of cycles per
 * millisecond (cpu<N>/cycles), traced or not, as a PE does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/ete.h>

#include "kselftest_harness.h"

#include "ete_file_io.h"
#include "trbe_model.h"

#define CPU		1
#define UNIT		"/sys/class/ete/ete1/"
/* a window may open and close a block late: blocks have up to 32 cycles */
#define BLOCK		32

static int unit_set(const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), UNIT "%s", attr);
	return write_file(path, val, strlen(val));
}

static long long unit_num(const char *attr)
{
	char path[128];
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), UNIT "%s", attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lli", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

FIXTURE(sample) {
	struct tbuf t;
	bool open;
	bool ready;
};

FIXTURE_SETUP(sample)
{
	self->open = false;
	self->ready = model_present(CPU) && !access(UNIT "sample_window", W_OK);
	if (!self->ready)
		return;
	model_configure(CPU, "1048576", "fill", "ignore", "0", "stop");
	/* 20,000 cycles a millisecond, traced or not */
	ASSERT_EQ(0, model_set(CPU, "cycles", "20000"));
}

FIXTURE_TEARDOWN(sample)
{
	if (self->open) {
		ioctl(self->t.fd, ETE_TRBE_IOC_STOP);
		tbuf_close(&self->t);
	}
	if (!self->ready)
		return;
	model_set(CPU, "cycles", "0");
	unit_set("sample_window", "0");
	unit_set("sample_period", "0");
	unit_set("cntr0/count_event", "0");
}

/* Start a session on CPU: 0 or -errno */
static int start(struct _test_data_sample *self)
{
	int ret = tbuf_open(&self->t, CPU);

	if (ret)
		return ret;
	self->open = true;
	return ioctl(self->t.fd, ETE_TRBE_IOC_START) ? -errno : 0;
}

/*
 * The windows the model saw: as many as the cycles run make periods,
 * each a window long and a period apart (to a block), and the traced
 * cycles the window's share of all
 */
TEST_F_TIMEOUT(sample, windows_as_programmed, 120)
{
	const long long w = 1000, p = 10000;
	long long windows = 0, cycles, traced;
	double deadline = now_s() + 90;

	if (!self->ready)
		SKIP(return, "no model or no sample_window");
	ASSERT_EQ(0, unit_set("sample_window", "1000"));
	ASSERT_EQ(0, unit_set("sample_period", "10000"));
	ASSERT_EQ(0, start(self));
	/* 40 windows: waited for by count, the deadline only bounds it */
	while (now_s() < deadline &&
	       (windows = model_stat(CPU, "vi_windows")) < 40)
		usleep(10000);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	windows = model_stat(CPU, "vi_windows");
	cycles = model_stat(CPU, "vi_cycles");
	traced = model_stat(CPU, "vi_traced");
	ASSERT_GE(windows, 40);
	/* the first window opens a period after the start */
	EXPECT_GE(windows, cycles / p - 2);
	EXPECT_LE(windows, cycles / p + 1);
	EXPECT_GE(model_stat(CPU, "vi_window_min"), w - BLOCK - 2);
	EXPECT_LE(model_stat(CPU, "vi_window_max"), w + BLOCK + 2);
	EXPECT_GE(model_stat(CPU, "vi_gap_min"), p - w - BLOCK - 2);
	EXPECT_LE(model_stat(CPU, "vi_gap_max"), p - w + BLOCK + 2);
	EXPECT_GE(traced * 100, cycles * 9);
	EXPECT_LE(traced * 100, cycles * 11);
	/* and the trace of the windows reached the buffer */
	EXPECT_GT(tbuf_head(&self->t), 0ULL);
	TH_LOG("%lld windows, %lld cycles, %lld traced; window %lld..%lld, gap %lld..%lld, %llu B",
	       windows, cycles, traced, model_stat(CPU, "vi_window_min"),
	       model_stat(CPU, "vi_window_max"), model_stat(CPU, "vi_gap_min"),
	       model_stat(CPU, "vi_gap_max"),
	       (unsigned long long)tbuf_head(&self->t));
}

/* Without sampling every cycle is traced, in one window never closed */
TEST_F_TIMEOUT(sample, continuous_without_window, 120)
{
	double deadline = now_s() + 90;
	long long cycles = 0;

	if (!self->ready)
		SKIP(return, "no model or no sample_window");
	ASSERT_EQ(0, start(self));
	while (now_s() < deadline &&
	       (cycles = model_stat(CPU, "vi_cycles")) < 400000)
		usleep(10000);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	ASSERT_GE(cycles, 400000);
	EXPECT_EQ(model_stat(CPU, "vi_traced"), model_stat(CPU, "vi_cycles"));
	EXPECT_EQ(model_stat(CPU, "vi_windows"), 0);
}

/* Out of range: ERANGE, the old value kept */
TEST_F(sample, values_out_of_range)
{
	if (!self->ready)
		SKIP(return, "no model or no sample_window");
	ASSERT_EQ(0, unit_set("sample_window", "5000"));
	EXPECT_EQ(-ERANGE, unit_set("sample_window", "1"));
	EXPECT_EQ(-ERANGE, unit_set("sample_window", "65537"));
	EXPECT_EQ(5000, unit_num("sample_window"));
	EXPECT_EQ(-ERANGE, unit_set("sample_period", "3"));
	EXPECT_EQ(-ERANGE, unit_set("sample_period", "4294967297"));
	EXPECT_EQ(0, unit_num("sample_period"));
}

/*
 * Refused when the session starts, status saying why: a period that is
 * not whole windows, and a counter sampling needs set by the user too
 */
TEST_F_TIMEOUT(sample, conflicts_refused_at_start, 60)
{
	char status[1024] = "";

	if (!self->ready)
		SKIP(return, "no model or no sample_window");
	ASSERT_EQ(0, unit_set("sample_window", "1000"));
	ASSERT_EQ(0, unit_set("sample_period", "10500"));
	EXPECT_EQ(-EINVAL, start(self));
	get(UNIT "status", status, sizeof(status));
	EXPECT_NE(NULL, strstr(status, "sample_period must be"))
		TH_LOG("status: %s", status);
	ioctl(self->t.fd, ETE_TRBE_IOC_STOP);
	tbuf_close(&self->t);
	self->open = false;
	ASSERT_EQ(0, unit_set("sample_period", "10000"));
	ASSERT_EQ(0, unit_set("cntr0/count_event", "1"));
	EXPECT_EQ(-EINVAL, start(self));
	get(UNIT "status", status, sizeof(status));
	EXPECT_NE(NULL, strstr(status, "sampling takes counters"))
		TH_LOG("status: %s", status);
}

TEST_HARNESS_MAIN
