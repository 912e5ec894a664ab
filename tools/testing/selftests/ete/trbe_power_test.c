// SPDX-License-Identifier: GPL-2.0
/*
 * The TRBE across CPU power-down and hotplug (issue 32), against the
 * ETE/TRBE model: the TRBE interrupt when a save leaves an event pending,
 * whichever of ete.ko's and trbe.ko's hotplug callbacks runs first, and
 * the fill-mode flush timer of a CPU that idles more often than its
 * period.  CPU PM events go through ete_pm_test.ko (power_test.c says
 * how); the order of the hotplug callbacks through trbe_test_hp_slot.ko.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ete_file_io.h"

#include "trbe_model.h"

#define PMT		"/sys/kernel/debug/ete_pm_test/"

/* A "# " line now: the harness's child leaves by _exit(), unflushed */
#define note(...) do { printf("# " __VA_ARGS__); fflush(stdout); } while (0)

static int have_rig(void)
{
	return model_present(0) && !access(PMT "cpu_pm", W_OK);
}

/* One CPU PM event through ete_pm_test.ko: "", "enter", "exit" */
static int cpu_pm(int cpu, const char *mode)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "%d %s", cpu, mode);
	return write_file(PMT "cpu_pm", cmd, strlen(cmd));
}

static int set_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return write_file(path, on ? "1" : "0", 1);
}

/* cpuN/power's @name, or -1 */
static long long power_stat(int cpu, const char *name)
{
	char path[128], key[64];
	long long val, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), MODEL "cpu%d/power", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lli", key, &val) == 2)
		if (!strcmp(key, name))
			ret = val;
	fclose(f);
	return ret;
}

FIXTURE(tpower) {
	int unused;
};

FIXTURE_SETUP(tpower)
{
}

FIXTURE_TEARDOWN(tpower)
{
}

#define TRBSR_IRQ	0x400000LL	/* TRBSR_EL1.IRQ, bit 22 */

/* Wait (bounded) for the model to pend the PPI again 3 times, or not need to */
static void wait_relatch(int cpu, long long r0)
{
	double end = now_s() + 10;

	while (model_stat(cpu, "irq_relatch") - r0 < 3 &&
	       (model_stat(cpu, "trbsr") & TRBSR_IRQ) && now_s() < end)
		usleep(2000);
}

/*
 * Issue 32, F2: a save that leaves an event pending (TRBSR_EL1.IRQ: here
 * the save's own drain brings the TRBE to its limit, the model's
 * flush_to_limit), then interrupts on before the restore.  That is where
 * a CPU going offline is when ete.ko's hotplug callback runs before
 * trbe.ko's (the save done, the PPI still enabled); ete_pm_test's "enter"
 * leaves it there as long as the test likes.  The PPI is level-sensitive:
 * a handler that returns with TRBSR_EL1.IRQ set is taken again at once,
 * for ever.  The model counts each tick that finds the PPI taken with the
 * line still asserted (irq_left_set) and pends it again (irq_relatch), so
 * the old driver's livelock shows as a count.  Then the restore: the event
 * is taken there, the stream goes on byte-exact with a gap at the stop.
 */
TEST_F_TIMEOUT(tpower, event_pending_at_save_never_left_asserted, 120)
{
	const int cpu = 2;
	const __u64 len = 128 * KB;
	unsigned char *seq = seq_bytes(0, len);
	long long out0, r0, l0, relatched, left;
	struct checker c = { 0 };
	struct tbuf t = { 0 };
	char log[4096] = "";
	double end;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	model_configure(cpu, "65536", "fill", "ignore", "0", "stop");
	ASSERT_EQ(0, model_set(cpu, "rate", "128"));
	/* no flush timer: the save's drain is the first the knob meets */
	ASSERT_EQ(0, write_file("/sys/module/trbe/parameters/flush_us", "0",
				1));
	out0 = model_stat(cpu, "bytes_out");
	ASSERT_EQ(0, model_replay(cpu, seq, len));
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	end = now_s() + 20;
	while (model_stat(cpu, "bytes_out") - out0 < 4 * (long long)KB &&
	       now_s() < end)
		usleep(2000);
	ASSERT_EQ(0, model_set(cpu, "flush_to_limit", "1"));
	r0 = model_stat(cpu, "irq_relatch");
	l0 = model_stat(cpu, "irq_left_set");
	ASSERT_EQ(0, cpu_pm(cpu, "enter"));
	/* the save's drain used the knob: the event is pending */
	EXPECT_EQ(0, model_num(cpu, "flush_to_limit"));
	EXPECT_TRUE(model_stat(cpu, "trbsr") & TRBSR_IRQ);
	wait_relatch(cpu, r0);
	relatched = model_stat(cpu, "irq_relatch") - r0;
	left = model_stat(cpu, "irq_left_set") - l0;
	note("cpu%d saved: TRBSR %#llx, PPI pended again %lld, taken asserted %lld\n",
	     cpu, model_stat(cpu, "trbsr"), relatched, left);
	EXPECT_EQ(0, left)
		TH_LOG("the TRBE handler returned %lld times with TRBSR_EL1.IRQ set",
		       left);
	ASSERT_EQ(0, cpu_pm(cpu, "exit"));
	end = now_s() + 60;
	/* no flush timer: a snapshot publishes */
	while (c.next < len && now_s() < end) {
		ioctl(t.fd, ETE_TRBE_IOC_SNAPSHOT);
		tbuf_drain(&t, &c);
		usleep(5000);
	}
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	tbuf_drain(&t, &c);
	EXPECT_EQ((__u64)0, c.bad);
	EXPECT_EQ(len, c.next);
	EXPECT_LE((__u64)1, t.hdr->gap_count);
	EXPECT_GE(t.hdr->gap_count, c.jumps);
	/* and never after the restore either */
	EXPECT_EQ(l0, model_stat(cpu, "irq_left_set"));
	tbuf_close(&t);
	EXPECT_EQ(0, write_file("/sys/module/trbe/parameters/flush_us",
				"5000", 4));
	EXPECT_EQ(0, model_violations(cpu, log, sizeof(log)))
		TH_LOG("cpu%d/violations:\n%s", cpu, log);
	model_set(cpu, "violations", "0");
	model_replay(cpu, NULL, 0);
	free(seq);
}

struct storm {
	int cpu;
	int count;
	int ret;
	int done;
};

static void *storm_fn(void *arg)
{
	struct storm *st = arg;
	char cmd[48];

	snprintf(cmd, sizeof(cmd), "%d storm %d 1000", st->cpu, st->count);
	st->ret = write_file(PMT "cpu_pm", cmd, strlen(cmd));
	__atomic_store_n(&st->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Issue 32, F6: a CPU that idles (CPU PM save and restore) more often
 * than flush_us.  The save stopped the fill-mode flush timer and the
 * restore started it again for a whole period, so it never ran: the
 * limit never moved and the TRBE stopped there, with a gap, while the
 * reader kept up.  The timer must keep its deadline across the save and
 * restore: the limit moves as it does without the idling, no stop.
 * Rates: 128 KiB take the model 500 ms at 256 B/ms, a flush comes every
 * 100 ms (flush_us), a CPU PM event about every millisecond.
 */
TEST_F_TIMEOUT(tpower, flush_keeps_its_deadline_across_idle, 300)
{
	const int cpu = 1;
	const __u64 len = 640 * KB;
	unsigned char *seq = seq_bytes(0, len);
	struct storm st = { .cpu = cpu, .count = 2000 };
	long long flushes0, ev0;
	struct checker c = { 0 };
	struct tbuf t = { 0 };
	char log[4096] = "", buf[32];
	pthread_t th;
	double end;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	model_configure(cpu, "131072", "fill", "ignore", "0", "stop");
	ASSERT_EQ(0, model_set(cpu, "rate", "256"));
	ASSERT_EQ(0, write_file("/sys/module/trbe/parameters/flush_us",
				"100000", 6));
	ASSERT_EQ(0, model_replay(cpu, seq, len));
	flushes0 = trbe_num(cpu, "stats/flushes");
	ASSERT_LT(0, get(PMT "events", buf, sizeof(buf)));
	ev0 = atoll(buf);
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	ASSERT_EQ(0, pthread_create(&th, NULL, storm_fn, &st));
	end = now_s() + 120;
	while (!__atomic_load_n(&st.done, __ATOMIC_ACQUIRE) && now_s() < end) {
		tbuf_drain(&t, &c);
		usleep(2000);
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, st.ret);
	ASSERT_LT(0, get(PMT "events", buf, sizeof(buf)));
	note("cpu%d: %lld CPU PM events, %lld flushes, %llu bytes read, %llu gaps\n",
	     cpu, atoll(buf) - ev0, trbe_num(cpu, "stats/flushes") - flushes0,
	     (unsigned long long)c.bytes,
	     (unsigned long long)t.hdr->gap_count);
	EXPECT_LE(st.count, atoll(buf) - ev0);
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	tbuf_drain(&t, &c);
	/* more than a buffer went through while the CPU idled */
	EXPECT_LT(2 * 131072ULL, c.bytes);
	EXPECT_LT(flushes0, trbe_num(cpu, "stats/flushes"));
	/* the TRBE never reached its limit: no stop, no gap, no jump */
	EXPECT_EQ((__u64)0, t.hdr->gap_count);
	EXPECT_EQ((__u64)0, c.jumps);
	EXPECT_EQ((__u64)0, c.bad);
	tbuf_close(&t);
	EXPECT_EQ(0, write_file("/sys/module/trbe/parameters/flush_us",
				"5000", 4));
	EXPECT_EQ(0, model_violations(cpu, log, sizeof(log)))
		TH_LOG("cpu%d/violations:\n%s", cpu, log);
	model_set(cpu, "violations", "0");
	model_replay(cpu, NULL, 0);
	free(seq);
}

/* The number of the hotplug state called @name, or -1 */
static int hp_state(const char *name)
{
	FILE *f = fopen("/sys/devices/system/cpu/hotplug/states", "r");
	char line[128], want[96];
	int n = -1, num;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), " %s\n", name);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d:", &num) == 1 && strstr(line, want))
			n = num;
	fclose(f);
	return n;
}

/*
 * trbe.ko's hotplug state below ete.ko's (@below) or above (the rig's
 * order): trbe.ko loaded again, with trbe_test_hp_slot.ko's slot free or
 * held.  0 if the order is then as asked.
 */
static int trbe_hp_order(int below)
{
	int ret = module_unload("trbe");

	if (!ret && below)
		ret = module_unload("trbe_test_hp_slot");
	if (!ret && !below)
		ret = module_load("trbe_test_hp_slot");
	if (!ret)
		ret = module_load("trbe");
	if (!ret)
		ret = sink_order_restore();
	if (ret)
		return ret;
	if ((hp_state("hwtracing/trbe:online") <
	     hp_state("hwtracing/ete:online")) != !!below)
		return -EDOM;
	return 0;
}

/*
 * Issue 32, F2, through real CPU hotplug: trbe.ko's hotplug state below
 * ete.ko's, so that going offline ete.ko's callback saves the TRBE first
 * (an event pending: the save's drain reaches the limit) while the PPI is
 * still enabled, and coming online trbe.ko's callback enables the PPI
 * before ete.ko's restores the TRBE.  Whichever runs first, the event is
 * taken once after the restore, no handler returns with TRBSR_EL1.IRQ set
 * (irq_left_set), and the stream goes on byte-exact with a gap at the stop.
 * Then the rig's order again.
 */
TEST_F_TIMEOUT(tpower, hotplug_ete_callbacks_before_trbe, 300)
{
	const int cpu = 2;
	const __u64 len = 256 * KB;
	unsigned char *seq = seq_bytes(0, len);
	long long out0, l0, m0;
	struct checker c = { 0 };
	struct tbuf t = { 0 };
	char log[4096] = "";
	int i, ret;
	double end;

	if (!have_rig() || access("/sys/module/trbe_test_hp_slot", F_OK))
		SKIP(return, "no model, ete_pm_test.ko or trbe_test_hp_slot.ko");
	ret = trbe_hp_order(1);
	ASSERT_EQ(0, ret)
		TH_LOG("trbe.ko's state %d, ete.ko's %d: %s",
		       hp_state("hwtracing/trbe:online"),
		       hp_state("hwtracing/ete:online"), strerror(-ret));
	note("hotplug states: trbe.ko %d, ete.ko %d\n",
	     hp_state("hwtracing/trbe:online"), hp_state("hwtracing/ete:online"));
	model_configure(cpu, "65536", "fill", "ignore", "0", "stop");
	ASSERT_EQ(0, model_set(cpu, "rate", "128"));
	ASSERT_EQ(0, write_file("/sys/module/trbe/parameters/flush_us", "0",
				1));
	out0 = model_stat(cpu, "bytes_out");
	l0 = model_stat(cpu, "irq_left_set");
	m0 = power_stat(cpu, "mismatch");
	ASSERT_EQ(0, model_replay(cpu, seq, len));
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	for (i = 0; i < 3; i++) {
		end = now_s() + 20;
		while (model_stat(cpu, "bytes_out") - out0 < 4 * (long long)KB &&
		       now_s() < end) {
			tbuf_drain(&t, &c);
			usleep(2000);
		}
		ASSERT_EQ(0, model_set(cpu, "flush_to_limit", "1"));
		ASSERT_EQ(0, set_online(cpu, 0));
		EXPECT_EQ(0, model_num(cpu, "flush_to_limit"));
		ASSERT_EQ(0, set_online(cpu, 1));
		out0 = model_stat(cpu, "bytes_out");
	}
	end = now_s() + 60;
	/* no flush timer: a snapshot publishes */
	while (c.next < len && now_s() < end) {
		ioctl(t.fd, ETE_TRBE_IOC_SNAPSHOT);
		tbuf_drain(&t, &c);
		usleep(5000);
	}
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	tbuf_drain(&t, &c);
	note("cpu%d: %llu gaps, %llu jumps, irq_left_set %lld\n", cpu,
	     (unsigned long long)t.hdr->gap_count,
	     (unsigned long long)c.jumps,
	     model_stat(cpu, "irq_left_set") - l0);
	EXPECT_EQ((__u64)0, c.bad);
	EXPECT_EQ(len, c.next);
	EXPECT_LE((__u64)3, t.hdr->gap_count);
	EXPECT_GE(t.hdr->gap_count, c.jumps);
	EXPECT_EQ(l0, model_stat(cpu, "irq_left_set"));
	EXPECT_EQ(m0, power_stat(cpu, "mismatch"));
	tbuf_close(&t);
	EXPECT_EQ(0, model_violations(cpu, log, sizeof(log)))
		TH_LOG("cpu%d/violations:\n%s", cpu, log);
	model_set(cpu, "violations", "0");
	model_replay(cpu, NULL, 0);
	free(seq);
	ret = trbe_hp_order(0);
	EXPECT_EQ(0, ret)
		TH_LOG("the rig's order again: %s", strerror(-ret));
}

TEST_HARNESS_MAIN
