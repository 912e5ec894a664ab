// SPDX-License-Identifier: GPL-2.0
/*
 * Trace sessions across CPU power-down, CPU hotplug and system suspend,
 * against the ETE/TRBE model (Documentation/design-power.rst).
 *
 * Power events: CPU hotplug through sysfs (the real path), CPU PM through
 * ete_pm_test.ko (ete.ko's notifier callback on the CPU with IRQs off, as
 * the chain calls it, with the model's power-down before the exit), and
 * suspend with /sys/power/pm_test (secondary CPUs go down and up; at the
 * "core" level the boot CPU runs the kernel's cpu_pm syscore hook, so the
 * real notifier chain).  The model loses a unit's state at each power-down
 * (powerdown = 1 at the next CPU PM exit, 2 at once while offline) and
 * compares the restored registers with what was lost (cpuN/power).
 *
 * The session's trace is sequence-numbered bytes the model replays
 * (trbe_model.h), so the stream read from /dev/trbe<N> can be checked
 * byte for byte; a second test uses the model's synthetic trace and finds
 * an A-Sync and Trace Info at every restart.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ete_file_io.h"

#include "trbe_model.h"

#define PMT		"/sys/kernel/debug/ete_pm_test/"
#define NCPU		4
#define REPLAY_LEN	(4 * MB)
/*
 * A CPU PM save and a restore after power loss of the usual configuration
 * on the rich profile, with the TRBE's part, status polls apart (12 and
 * 27 when pinned; 27 and 154 when the save read every dynamic register
 * of the image and the restore wrote the whole image)
 */
#define SAVE_ACCESSES_MAX	14
#define RESTORE_ACCESSES_MAX	30

static int hotplug_cycles = 50;

/* A "# " line now: the harness's child leaves by _exit(), unflushed */
#define note(...) do { printf("# " __VA_ARGS__); fflush(stdout); } while (0)

/* ---- small helpers ---------------------------------------------------------- */

/* The value of "key value" in a file of such lines, or -1 */
static long long key_value(const char *path, const char *name)
{
	char key[64];
	long long val, ret = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lli", key, &val) == 2)
		if (!strcmp(key, name))
			ret = val;
	fclose(f);
	return ret;
}

static long long power_stat(int cpu, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), MODEL "cpu%d/power", cpu);
	return key_value(path, name);
}

static long long accesses(int cpu)
{
	return model_stat(cpu, "reads") + model_stat(cpu, "writes");
}

static int set_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return write_file(path, on ? "1" : "0", 1);
}

/* One CPU PM event through ete_pm_test.ko: "", "fail", "enter", "exit" */
static int cpu_pm(int cpu, const char *mode)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "%d %s", cpu, mode);
	return write_file(PMT "cpu_pm", cmd, strlen(cmd));
}

static int have_rig(void)
{
	return model_present(0) && !access(PMT "cpu_pm", W_OK);
}

/* Every line of the model's violation log of @cpu, whoever caused it */
static int all_violations(int cpu, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), MODEL "cpu%d/violations", cpu);
	return get(path, buf, len);
}

/* The model's register file without the state that runs while tracing */
static void config_of(int cpu, char *out, size_t len)
{
	static const char * const dynamic[] = {
		"TRCCNTVR", "TRCSEQSTR", "TRCSSCSR", "TRCRSR",
	};
	char path[128], *line, *save, buf[16384];
	size_t i, n = 0;

	snprintf(path, sizeof(path), MODEL "cpu%d/live", cpu);
	out[0] = 0;
	if (get(path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < ARRAY_SIZE(dynamic); i++)
			if (!strncmp(line, dynamic[i], strlen(dynamic[i])))
				break;
		if (i == ARRAY_SIZE(dynamic))
			n += snprintf(out + n, len - n, "%s\n", line);
	}
}

/* ---- suspend ------------------------------------------------------------------ */

/*
 * "mem" with /sys/power/pm_test at "processors" or "core" needs a platform
 * suspend (PSCI SYSTEM_SUSPEND: "deep" in /sys/power/mem_sleep).  At
 * "core", the boot CPU runs the kernel's cpu_pm syscore hook: the real
 * CPU PM notifier chain.
 */
static int have_deep_sleep(void)
{
	char buf[256];

	return get("/sys/power/mem_sleep", buf, sizeof(buf)) > 0 &&
	       strstr(buf, "deep");
}

static int suspend_pm_test(const char *level)
{
	int ret;

	if (write_file("/sys/power/mem_sleep", "deep", 4))
		return -EOPNOTSUPP;
	ret = write_file("/sys/power/pm_test", level, strlen(level));
	if (ret)
		return ret;
	ret = write_file("/sys/power/state", "mem", 3);
	write_file("/sys/power/pm_test", "none", 4);
	return ret;
}

/*
 * One suspend-to-idle cycle at the "freezer" level of pm_test: every task
 * is frozen and thawed around the sessions.  Not deeper in the test VM:
 * a device suspend resets the virtio-9p transport (virtio_device_restore()
 * with no restore callback in 9p), which is the rig's /out, and the run
 * never reports again.
 */
static int suspend_to_idle(void)
{
	int ret;

	write_file("/sys/module/suspend/parameters/pm_test_delay", "1", 1);
	ret = write_file("/sys/power/pm_test", "freezer", 7);
	if (ret)
		return ret;
	ret = write_file("/sys/power/state", "freeze", 6);
	write_file("/sys/power/pm_test", "none", 4);
	return ret;
}

/* ---- a session on every CPU, read by a thread -------------------------------- */

struct all_cpus {
	struct tbuf t[NCPU];
	struct checker c[NCPU];
	int open[NCPU];
	pthread_t reader;
	pthread_mutex_t lock;
	int stop;
};

static void *reader_fn(void *arg)
{
	struct all_cpus *s = arg;
	int cpu;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&s->lock);
		for (cpu = 0; cpu < NCPU; cpu++)
			tbuf_drain(&s->t[cpu], &s->c[cpu]);
		pthread_mutex_unlock(&s->lock);
		usleep(5000);
	}
	return NULL;
}

static int sessions_start(struct __test_metadata *_metadata,
			  struct all_cpus *s, const unsigned char *seq)
{
	int cpu;

	for (cpu = 0; cpu < NCPU; cpu++) {
		model_configure(cpu, "1048576", "fill", "ignore", "0", "stop");
		model_set(cpu, "rate", "64");
		if (seq && model_replay(cpu, seq, REPLAY_LEN))
			return -1;
		if (tbuf_open(&s->t[cpu], cpu))
			return -1;
		s->open[cpu] = 1;
		if (ioctl(s->t[cpu].fd, ETE_TRBE_IOC_START))
			return -1;
	}
	pthread_mutex_init(&s->lock, NULL);
	return pthread_create(&s->reader, NULL, reader_fn, s);
}

static void sessions_stop(struct all_cpus *s)
{
	int cpu;

	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	pthread_join(s->reader, NULL);
	for (cpu = 0; cpu < NCPU; cpu++) {
		if (!s->open[cpu])
			continue;
		ioctl(s->t[cpu].fd, ETE_TRBE_IOC_STOP);
		tbuf_drain(&s->t[cpu], &s->c[cpu]);
	}
}

static void sessions_close(struct all_cpus *s)
{
	int cpu;

	for (cpu = 0; cpu < NCPU; cpu++) {
		if (s->open[cpu])
			tbuf_close(&s->t[cpu]);
		model_replay(cpu, NULL, 0);
		model_set(cpu, "powerdown", "0");
	}
}

/* ---- tests --------------------------------------------------------------------- */

/* No state: a fixture only for TEST_F_TIMEOUT */
FIXTURE(power) {
	int unused;
};

FIXTURE_SETUP(power)
{
}

FIXTURE_TEARDOWN(power)
{
}

/* Find "A-Sync, Trace Info, Trace On": a restart of the trace stream */
static int count_restarts(const unsigned char *p, size_t len)
{
	static const unsigned char async[12] = { [11] = 0x80 };
	size_t i, k;
	int n = 0;

	for (i = 0; i + 16 < len; i++) {
		if (memcmp(p + i, async, sizeof(async)) || p[i + 12] != 0x01)
			continue;
		/* Trace Info: header, PLCTL, then INFO and CYCT sections */
		k = i + 13;
		if (p[k] & 0x01)
			while (k + 1 < len && (p[++k] & 0x80))
				;
		if (p[i + 13] & 0x08)
			while (k + 1 < len && (p[++k] & 0x80))
				;
		if (k + 1 < len && p[k + 1] == 0x04)
			n++;
	}
	return n;
}

/* Every restore restarts the stream with an A-Sync and a Trace Info */
TEST_F_TIMEOUT(power, async_trace_info_after_restore, 300)
{
	const int cpu = 2;
	long long starts0, syncs0, quiet0, starts, syncs, quiet, events = 0;
	unsigned char *copy;
	struct tbuf t = { 0 };
	__u64 head;
	int i;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	model_configure(cpu, "1048576", "fill", "ignore", "0", "stop");
	model_set(cpu, "rate", "16");
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	starts0 = model_stat(cpu, "starts");
	syncs0 = model_stat(cpu, "syncs");
	quiet0 = model_stat(cpu, "starts_untraced");
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	for (i = 0; i < 4; i++) {
		usleep(20000);
		ASSERT_EQ(0, model_set(cpu, "powerdown", "1"));
		ASSERT_EQ(0, cpu_pm(cpu, ""));
		events++;
	}
	ASSERT_EQ(0, cpu_pm(cpu, "fail"));
	events++;
	for (i = 0; i < 2; i++) {
		usleep(20000);
		ASSERT_EQ(0, set_online(cpu, 0));
		ASSERT_EQ(0, model_set(cpu, "powerdown", "2"));
		ASSERT_EQ(0, set_online(cpu, 1));
		events++;
	}
	usleep(20000);
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	head = tbuf_head(&t);
	ASSERT_GT(t.size, head);
	/* Synthetic trace: no sequence to check, the bytes as they are */
	copy = malloc(head + 1);
	ASSERT_NE(NULL, copy);
	memcpy(copy, t.data, head);
	starts = model_stat(cpu, "starts") - starts0;
	syncs = model_stat(cpu, "syncs") - syncs0;
	quiet = model_stat(cpu, "starts_untraced") - quiet0;
	EXPECT_EQ(1 + events, starts);
	/*
	 * Every start that traced began with a sync; one the unit left before
	 * its first trace (its vCPU starved by the host) had none to give
	 */
	EXPECT_LE(starts - quiet, syncs);
	EXPECT_EQ(syncs, count_restarts(copy, head));
	note("%lld restores: %d stream restarts (A-Sync, Trace Info, Trace On) in %llu bytes\n",
	     events, count_restarts(copy, head), (unsigned long long)head);
	note("%lld starts ended before any trace\n", quiet);
	free(copy);
	tbuf_close(&t);
}

/*
 * RWZQWC: a counter the unit decrements itself reaches a direct read only
 * after a context synchronization event taken while Idle or Stable.  With
 * the model's settle the unit goes from Unstable to Idle between two
 * status reads, as silicon may, so the ISB before the read that saw Idle
 * was taken while Unstable: a save that reads the counters then saves a
 * stale value, the restore puts it back, and cpuN/power counts it.
 */
TEST_F_TIMEOUT(power, counter_saved_exact_when_idle_comes_at_once, 120)
{
	const int cpu = 2;
	long long checks0, mismatch0;
	char path[128], power[1024] = "";
	struct tbuf t = { 0 };
	int i;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	snprintf(path, sizeof(path), "/sys/class/ete/ete%d/cntr0/value", cpu);
	ASSERT_EQ(0, put(path, "0xffff"));
	snprintf(path, sizeof(path), "/sys/class/ete/ete%d/cntr0/count_event",
		 cpu);
	ASSERT_EQ(0, put(path, "1"));	/* the always-TRUE selector */
	/*
	 * Referenced, so saved and restored (and checked by the model):
	 * ETEEvent 0 is selector 2, counter 0 at zero
	 */
	snprintf(path, sizeof(path), "/sys/class/ete/ete%d/rs2/group", cpu);
	ASSERT_EQ(0, put(path, "2"));
	snprintf(path, sizeof(path), "/sys/class/ete/ete%d/rs2/select", cpu);
	ASSERT_EQ(0, put(path, "1"));
	snprintf(path, sizeof(path), "/sys/class/ete/ete%d/event0/select",
		 cpu);
	ASSERT_EQ(0, put(path, "2"));
	model_configure(cpu, "1048576", "fill", "ignore", "0", "stop");
	model_set(cpu, "rate", "16");
	ASSERT_EQ(0, model_set(cpu, "settle", "1"));
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	checks0 = power_stat(cpu, "checks");
	mismatch0 = power_stat(cpu, "mismatch");
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	for (i = 0; i < 3; i++) {
		usleep(20000);		/* the counter counts meanwhile */
		ASSERT_EQ(0, model_set(cpu, "powerdown", "1"));
		ASSERT_EQ(0, cpu_pm(cpu, ""));
	}
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	model_set(cpu, "settle", "0");
	tbuf_close(&t);
	snprintf(path, sizeof(path), MODEL "cpu%d/power", cpu);
	get(path, power, sizeof(power));
	snprintf(path, sizeof(path), "/sys/class/ete/ete%d/reset", cpu);
	EXPECT_EQ(0, put(path, "1"));
	EXPECT_EQ(3, power_stat(cpu, "checks") - checks0);
	EXPECT_EQ(0, power_stat(cpu, "mismatch") - mismatch0)
		TH_LOG("cpu%d/power:\n%s", cpu, power);
}

/* The model's PE OS Lock of @cpu (cpuN/oslock), or -1 */
static int os_lock(int cpu)
{
	char path[128], buf[16];

	snprintf(path, sizeof(path), MODEL "cpu%d/oslock", cpu);
	if (get(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

/* Lines of @cpu's violation log naming @check; the log in @log */
static int violations_of(int cpu, const char *check, char *log, size_t len)
{
	const char *p;
	int n = 0;

	if (all_violations(cpu, log, len) < 0)
		return -1;
	for (p = log; (p = strstr(p, check)); p++)
		n++;
	return n;
}

/*
 * M6: a save that times out (the unit stuck between Running and Idle)
 * leaves the unit disabled under the OS Lock it set.  Clearing the lock
 * there, with EN set, would enable the unit outside Idle and Running
 * (RMDZDN through RVBMLV; the model logs it).  The session's error work
 * stops the CPU; the lock goes once the unit is Idle: here at the next
 * start, the unit being stuck still when the stop came.
 */
TEST_F_TIMEOUT(power, save_timeout_keeps_os_lock_until_idle, 120)
{
	const int cpu = 2;
	char log[4096] = "";
	struct tbuf t = { 0 };
	int ret;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	model_configure(cpu, "1048576", "fill", "ignore", "0", "stop");
	model_set(cpu, "rate", "16");
	ASSERT_EQ(0, model_set(cpu, "violations", "0"));
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	usleep(20000);
	ASSERT_EQ(0, model_set(cpu, "fault", "stuck"));
	ret = cpu_pm(cpu, "");
	EXPECT_EQ(-EBUSY, ret);
	EXPECT_EQ(1, os_lock(cpu));
	/* the error work's stop finds the unit stuck: the lock stays */
	usleep(200000);
	EXPECT_EQ(1, os_lock(cpu));
	ASSERT_EQ(0, model_set(cpu, "fault", "none"));
	ioctl(t.fd, ETE_TRBE_IOC_STOP);
	/* Idle now: the next start clears the lock first */
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	EXPECT_EQ(0, os_lock(cpu));
	usleep(20000);
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	tbuf_close(&t);
	EXPECT_EQ(0, violations_of(cpu, "RMDZDN", log, sizeof(log)))
		TH_LOG("cpu%d/violations:\n%s", cpu, log);
	model_set(cpu, "violations", "0");
}

/*
 * M6: an OS Lock another agent (a debugger, the kernel) locked during a
 * session is its own: a CPU PM event saves and restores the unit under
 * it and leaves it locked (the unit, restored with EN set, runs again
 * once its owner clears it: RVBMLV).  The session stops under the lock.
 */
TEST_F_TIMEOUT(power, save_keeps_another_owners_os_lock, 120)
{
	const int cpu = 2;
	long long starts0;
	char log[4096] = "";
	struct tbuf t = { 0 };

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	model_configure(cpu, "1048576", "fill", "ignore", "0", "stop");
	model_set(cpu, "rate", "16");
	ASSERT_EQ(0, model_set(cpu, "violations", "0"));
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	usleep(20000);
	ASSERT_EQ(0, model_set(cpu, "oslock", "1"));
	usleep(20000);
	starts0 = model_stat(cpu, "starts");
	ASSERT_EQ(0, model_set(cpu, "powerdown", "1"));
	EXPECT_EQ(0, cpu_pm(cpu, ""));
	EXPECT_EQ(1, os_lock(cpu));
	/* restored, not enabled: the lock still disables it */
	EXPECT_EQ(starts0, model_stat(cpu, "starts"));
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	EXPECT_EQ(1, os_lock(cpu));
	/*
	 * The owner's unlock comes after the session: the model's power
	 * check (cpuN/power) takes it for the restore's and counts EN = 0
	 * and the TRBE off as a mismatch, which here they are not.
	 */
	ASSERT_EQ(0, model_set(cpu, "oslock", "0"));
	tbuf_close(&t);
	EXPECT_EQ(0, violations_of(cpu, "RMDZDN", log, sizeof(log)))
		TH_LOG("cpu%d/violations:\n%s", cpu, log);
	model_set(cpu, "violations", "0");
}

static long long made_bytes(int cpu)
{
	return model_stat(cpu, "bytes_out") + model_stat(cpu, "bytes_dropped");
}

/*
 * M2 across a power-down: while the TRBE waits for the reader (disabled)
 * trace stays prohibited, and the unit's restore writes the session's
 * TRFCR through the sink, which keeps it prohibited until the TRBE is
 * armed again (I.12(2): the model logs TRBE_OFF otherwise).  Then trace
 * flows again.
 */
TEST_F_TIMEOUT(power, waiting_trbe_keeps_trace_prohibited_across_restore, 120)
{
	const int cpu = 2;
	struct checker c = { 0 };
	char log[4096] = "";
	long long made;
	struct tbuf t = { 0 };

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	model_configure(cpu, "65536", "fill", "ignore", "0", "stop");
	model_set(cpu, "rate", "256");
	ASSERT_EQ(0, model_set(cpu, "violations", "0"));
	ASSERT_EQ(0, tbuf_open(&t, cpu));
	ASSERT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_START));
	ASSERT_EQ(0, tbuf_wait_state(&t, ETE_TRBE_STATE_WAITING, 20));
	ASSERT_EQ(0, model_set(cpu, "powerdown", "1"));
	ASSERT_EQ(0, cpu_pm(cpu, ""));
	made = made_bytes(cpu);
	usleep(50000);
	EXPECT_EQ(made, made_bytes(cpu));
	EXPECT_EQ((__u64)ETE_TRBE_STATE_WAITING, tbuf_state(&t));
	/* the reader catches up: the TRBE first, then trace again */
	tbuf_drain(&t, &c);
	ASSERT_EQ(0, tbuf_wait_state(&t, ETE_TRBE_STATE_RUNNING, 5));
	usleep(50000);
	EXPECT_LT(made, made_bytes(cpu));
	EXPECT_EQ(0, ioctl(t.fd, ETE_TRBE_IOC_STOP));
	tbuf_close(&t);
	EXPECT_EQ(0, violations_of(cpu, "TRBE_OFF", log, sizeof(log)))
		TH_LOG("cpu%d/violations:\n%s", cpu, log);
	model_set(cpu, "violations", "0");
}

/* Unregistering ete.ko's block from the CPU PM chain succeeds */
TEST(notifier_is_registered)
{
	char buf[16];

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	ASSERT_LT(0, get(PMT "registered", buf, sizeof(buf)));
	EXPECT_EQ(1, atoi(buf));
	/* and it is back in the chain */
	ASSERT_LT(0, get(PMT "registered", buf, sizeof(buf)));
	EXPECT_EQ(1, atoi(buf));
}

/* No session on a CPU: its CPU PM events touch no register at all */
TEST(no_session_no_access)
{
	int cpu;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	for (cpu = 0; cpu < NCPU; cpu++) {
		long long a0 = accesses(cpu), s0 = model_stat(cpu, "saves");

		ASSERT_EQ(0, cpu_pm(cpu, ""));
		ASSERT_EQ(0, cpu_pm(cpu, "fail"));
		EXPECT_EQ(a0, accesses(cpu));
		EXPECT_EQ(s0, model_stat(cpu, "saves"));
		note("cpu%d: %lld register accesses for 2 CPU PM events without a session\n",
		     cpu, accesses(cpu) - a0);
	}
}

/*
 * A session on all 4 CPUs through hotplug cycles of CPUs 1-3, CPU PM
 * events on every CPU, and two pm_test suspend cycles: every event saved
 * and restored once, nothing lost, same configuration, byte-exact trace.
 */
TEST_F_TIMEOUT(power, session_survives_power_events, 1200)
{
	long long saves0[NCPU], restores0[NCPU], checks0[NCPU];
	long long mismatch0[NCPU], order0[NCPU];
	long long expect[NCPU] = { 0 }, lost[NCPU] = { 0 };
	static char before[NCPU][8192], after[NCPU][8192];
	char viol[4096];
	unsigned char *seq = seq_bytes(0, REPLAY_LEN);
	struct all_cpus s = { 0 };
	int cpu, i;
	long long save, save_polls, restore, restore_polls;
	double t0;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	ASSERT_NE(NULL, seq);
	ASSERT_EQ(0, sessions_start(_metadata, &s, seq));
	usleep(100000);
	for (cpu = 0; cpu < NCPU; cpu++) {
		config_of(cpu, before[cpu], sizeof(before[cpu]));
		saves0[cpu] = model_stat(cpu, "saves");
		restores0[cpu] = model_stat(cpu, "restores");
		checks0[cpu] = power_stat(cpu, "checks");
		/* the model's counters run on across tests */
		mismatch0[cpu] = power_stat(cpu, "mismatch");
		order0[cpu] = power_stat(cpu, "restore_order");
		ASSERT_NE(0, before[cpu][0]);
	}

	/* CPU hotplug: offline saves, the model loses the state, online */
	t0 = now_s();
	for (i = 0; i < hotplug_cycles; i++) {
		for (cpu = 1; cpu < NCPU; cpu++) {
			ASSERT_EQ(0, set_online(cpu, 0));
			ASSERT_EQ(0, model_set(cpu, "powerdown", "2"));
			ASSERT_EQ(0, set_online(cpu, 1));
			expect[cpu]++;
			lost[cpu]++;
		}
	}
	note("%d offline/online cycles of CPUs 1-3: %.1f s\n",
	     hotplug_cycles, now_s() - t0);

	/* CPU PM: power lost at each exit; one refused entry; halves */
	t0 = now_s();
	for (cpu = 0; cpu < NCPU; cpu++) {
		for (i = 0; i < 4; i++) {
			ASSERT_EQ(0, model_set(cpu, "powerdown", "1"));
			ASSERT_EQ(0, cpu_pm(cpu, ""));
			expect[cpu]++;
			lost[cpu]++;
		}
		ASSERT_EQ(0, cpu_pm(cpu, "fail"));
		expect[cpu]++;
		ASSERT_EQ(0, cpu_pm(cpu, "enter"));
		save = model_stat(cpu, "last_save");
		save_polls = model_stat(cpu, "last_save_polls");
		ASSERT_EQ(0, model_set(cpu, "powerdown", "1"));
		ASSERT_EQ(0, cpu_pm(cpu, "exit"));
		expect[cpu]++;
		lost[cpu]++;
		restore = model_stat(cpu, "last_restore");
		restore_polls = model_stat(cpu, "last_restore_polls");
		note("cpu%d: save %lld accesses (%lld status polls), restore %lld (%lld)\n",
		     cpu, save, save_polls, restore, restore_polls);
		/*
		 * Pinned: the save reads back only what the unit changes
		 * while it traces (ete_pm_dynamic()) of the registers the
		 * configuration references, the restore writes only those
		 * (ete_config_live()), not the whole image (162-167 and
		 * 158 accesses).  The accesses are counted by the model
		 * between the start and the end of the notifier chain, on
		 * this CPU with IRQs off; the status polls, whose number
		 * depends on the trace in flight, apart.
		 */
		EXPECT_GE(SAVE_ACCESSES_MAX, save - save_polls);
		EXPECT_GE(RESTORE_ACCESSES_MAX, restore - restore_polls);
	}
	note("%d CPU PM events on each of %d CPUs: %.1f s\n", 6, NCPU,
	     now_s() - t0);

	/* Suspend-to-idle, tasks frozen: no power event; the sessions go on */
	for (i = 0; i < 2; i++) {
		t0 = now_s();
		ASSERT_EQ(0, suspend_to_idle());
		note("suspend-to-idle cycle %d (pm_test freezer): %.1f s\n",
		     i + 1, now_s() - t0);
	}

	usleep(200000);
	for (cpu = 0; cpu < NCPU; cpu++) {
		config_of(cpu, after[cpu], sizeof(after[cpu]));
		EXPECT_STREQ(before[cpu], after[cpu]);
	}
	sessions_stop(&s);
	for (cpu = 0; cpu < NCPU; cpu++) {
		long long replayed = model_stat(cpu, "replayed");

		EXPECT_EQ(expect[cpu], model_stat(cpu, "saves") - saves0[cpu]);
		EXPECT_EQ(expect[cpu],
			  model_stat(cpu, "restores") - restores0[cpu]);
		EXPECT_EQ(lost[cpu], power_stat(cpu, "checks") - checks0[cpu]);
		if (power_stat(cpu, "mismatch") != mismatch0[cpu] ||
		    power_stat(cpu, "restore_order") != order0[cpu]) {
			char path[128], power[1024] = "";

			snprintf(path, sizeof(path), MODEL "cpu%d/power", cpu);
			get(path, power, sizeof(power));
			note("cpu%d/power:\n%s", cpu, power);
		}
		EXPECT_EQ(mismatch0[cpu], power_stat(cpu, "mismatch"));
		EXPECT_EQ(order0[cpu], power_stat(cpu, "restore_order"));
		EXPECT_EQ(0, power_stat(cpu, "unsaved"));
		EXPECT_EQ(0, (int)s.c[cpu].jumps);
		EXPECT_EQ(0, (int)s.c[cpu].bad);
		EXPECT_EQ((__u64)replayed, s.c[cpu].next);
		EXPECT_EQ(0, (int)s.t[cpu].hdr->lost_bytes);
		EXPECT_EQ(0, all_violations(cpu, viol, sizeof(viol)))
			TH_LOG("cpu%d violations:\n%s", cpu, viol);
		note("cpu%d: %lld save/restore pairs, %lld with state lost, %llu bytes exact\n",
		     cpu, expect[cpu], lost[cpu],
		     (unsigned long long)s.c[cpu].bytes);
	}
	sessions_close(&s);
	free(seq);
}

/*
 * Two pm_test suspend cycles with sessions on every CPU: "processors"
 * takes CPUs 1-3 down and up, "core" also runs CPU PM on CPU 0 through
 * the real notifier chain, where the model loses CPU 0's state.
 */
TEST_F_TIMEOUT(power, suspend_pm_test_cycles, 300)
{
	static const char * const level[] = { "processors", "core" };
	long long saves0[NCPU], checks0, expect;
	unsigned char *seq = seq_bytes(0, REPLAY_LEN);
	struct all_cpus s = { 0 };
	char viol[4096];
	int cpu, i;
	double t0;

	if (!have_rig())
		SKIP(return, "no model or ete_pm_test.ko");
	if (!have_deep_sleep())
		SKIP(return, "no platform suspend: /sys/power/mem_sleep has no deep");
	ASSERT_NE(NULL, seq);
	ASSERT_EQ(0, sessions_start(_metadata, &s, seq));
	for (cpu = 0; cpu < NCPU; cpu++)
		saves0[cpu] = model_stat(cpu, "saves");
	checks0 = power_stat(0, "checks");
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, model_set(0, "powerdown", i ? "1" : "0"));
		t0 = now_s();
		ASSERT_EQ(0, suspend_pm_test(level[i]));
		note("pm_test %s: %.1f s\n", level[i], now_s() - t0);
	}
	sessions_stop(&s);
	for (cpu = 0; cpu < NCPU; cpu++) {
		expect = cpu ? 2 : 1;
		EXPECT_EQ(expect, model_stat(cpu, "saves") - saves0[cpu]);
		EXPECT_EQ(0, power_stat(cpu, "mismatch"));
		EXPECT_EQ(0, (int)s.c[cpu].jumps);
		EXPECT_EQ(0, (int)s.c[cpu].bad);
		EXPECT_EQ(0, all_violations(cpu, viol, sizeof(viol)))
			TH_LOG("cpu%d violations:\n%s", cpu, viol);
	}
	EXPECT_EQ(1, power_stat(0, "checks") - checks0);
	sessions_close(&s);
	free(seq);
}

int main(int argc, char **argv)
{
	if (argc > 1 && atoi(argv[1]) > 0)
		hotplug_cycles = atoi(argv[1]);
	return test_harness_run(argc, argv);
}
