// SPDX-License-Identifier: GPL-2.0
/*
 * The configfs ABI of ete.ko (/sys/kernel/config/ete/profiles/<name>/)
 * against the model (ete_model.ko, rich profile), the test sink
 * (ete_test_sink.ko) and trbe.ko:
 *
 * - a profile is created, filled, started on CPUs 0-3, captures through
 *   /dev/trbe<N> with its trbe/ settings, is stopped and removed;
 * - every parameter file takes the values and refuses the malformed ones
 *   of the sysfs test (the same table, ete_attr_cases.h), and the valid
 *   ones reach the model's registers when the profile starts;
 * - starting is all or none: a CPU refused at validation, a CPU whose
 *   trace unit or sink fails after CPUs 0 and 1 started: no unit stays
 *   enabled, the model's violation log is empty, the log names the CPU;
 * - an active profile is read-only and cannot be removed; two profiles
 *   cannot share a CPU; a CPU that goes offline rejoins when it returns;
 * - modules cannot be unloaded under a profile that uses them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ete_attr_cases.h"
#include "ete_file_io.h"
#include "trbe_model.h"

#define PROFILES	"/sys/kernel/config/ete/profiles"
#define UNIT		"/sys/class/ete/ete%d/%s"
#define MODEL_CPU	"/sys/kernel/debug/ete_model/cpu%d/%s"
#define SINK		"/sys/kernel/debug/ete_test_sink/"
#define NCPUS		4

static char path_buf[512];

static const char *prof_path(const char *prof, const char *file)
{
	snprintf(path_buf, sizeof(path_buf), PROFILES "/%s/%s", prof, file);
	return path_buf;
}

static int pput(const char *prof, const char *file, const char *val)
{
	return put(prof_path(prof, file), val);
}

static int pget_num(const char *prof, const char *file,
		    unsigned long long *v)
{
	char buf[64], *end;
	int ret = get(prof_path(prof, file), buf, sizeof(buf));

	if (ret < 0)
		return ret;
	*v = strtoull(buf, &end, 0);
	return *end == '\n' ? 0 : -EINVAL;
}

static int mkprof(const char *prof)
{
	char p[256];

	snprintf(p, sizeof(p), PROFILES "/%s", prof);
	return mkdir(p, 0755) ? -errno : 0;
}

static int rmprof(const char *prof)
{
	char p[256];

	snprintf(p, sizeof(p), PROFILES "/%s", prof);
	return rmdir(p) ? -errno : 0;
}

static int cpu_file(const char *fmt, int cpu, const char *file, char *buf,
		    size_t len)
{
	char p[256];

	snprintf(p, sizeof(p), fmt, cpu, file);
	return get(p, buf, len);
}

static int cpu_put(const char *fmt, int cpu, const char *file,
		   const char *val)
{
	char p[256];

	snprintf(p, sizeof(p), fmt, cpu, file);
	return put(p, val);
}

/* The unit of @cpu is enabled */
static bool unit_enabled(int cpu)
{
	char buf[16];

	return cpu_file(UNIT, cpu, "enable", buf, sizeof(buf)) > 0 &&
	       buf[0] == '1';
}

static int enabled_units(void)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < NCPUS; cpu++)
		n += unit_enabled(cpu);
	return n;
}

/* The bytes the model's TRBE of @cpu wrote so far ("bytes_out"); -1 if unknown */
static long long model_bytes_out(int cpu)
{
	char buf[2048], *p;

	if (cpu_file(MODEL_CPU, cpu, "stats", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "\nbytes_out ");
	return p ? strtoll(p + strlen("\nbytes_out "), NULL, 10) : -1;
}

/*
 * Wait until the model's TRBE of every CPU has written more than @before
 * (bounded by @secs, not timed); the number of CPUs that did
 */
static int wait_bytes_out(const long long *before, double secs)
{
	double end = now_s() + secs;
	int cpu, n;

	do {
		for (cpu = 0, n = 0; cpu < NCPUS; cpu++)
			n += model_bytes_out(cpu) > before[cpu];
		if (n == NCPUS)
			break;
		usleep(20000);
	} while (now_s() < end);
	return n;
}

/* The model's violation log of @cpu, empty or not; -1 if unreadable */
static int model_viol(int cpu, char *buf, size_t len)
{
	return cpu_file(MODEL_CPU, cpu, "violations", buf, len);
}

/* "status" of the unit of @cpu contains @what */
static bool status_has(int cpu, const char *what)
{
	char buf[1024];

	return cpu_file(UNIT, cpu, "status", buf, sizeof(buf)) > 0 &&
	       strstr(buf, what);
}

/* The test sink's start or stop count of @cpu */
static int sink_count(int cpu, const char *what)
{
	char log[4096], key[64];
	char *p;

	if (get(SINK "log", log, sizeof(log)) < 0)
		return -1;
	snprintf(key, sizeof(key), "cpu%d ", cpu);
	p = strstr(log, key);
	if (!p)
		return -1;
	p = strstr(p, what);
	return p ? atoi(p + strlen(what)) : -1;
}

/* The test sink's copy of register @reg of @cpu as programmed */
static int sink_reg(int cpu, const char *reg, unsigned long long *v)
{
	char path[128];

	snprintf(path, sizeof(path), SINK "regs%d", cpu);
	return reg_in_file(path, reg, v);
}

/* The kernel log mentions @a and @b on one line */
static bool klog_has(const char *a, const char *b)
{
	char line[512];
	bool found = false;
	FILE *f = popen("dmesg", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, a) && strstr(line, b))
			found = true;
	pclose(f);
	return found;
}

static void sink_present(unsigned long mask)
{
	char v[32];

	snprintf(v, sizeof(v), "%lu", mask);
	put(SINK "present", v);
}

static bool have_model(void)
{
	return !access("/sys/kernel/debug/ete_model", F_OK) &&
	       !access(SINK, F_OK) && !access(PROFILES, F_OK) &&
	       !access("/sys/class/ete/ete0", F_OK);
}

static const char * const test_profiles[] = {
	"t_all", "t_case", "t_a", "t_b", "t_ro", "t_cap",
};

static void cleanup_profiles(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(test_profiles); i++) {
		pput(test_profiles[i], "active", "0");
		rmprof(test_profiles[i]);
	}
}

FIXTURE(cfs) {
	bool ready;
};

FIXTURE_SETUP(cfs)
{
	int cpu;

	self->ready = have_model();
	if (!self->ready)
		SKIP(return, "ete_model, ete_test_sink or configfs missing");
	cleanup_profiles();
	sink_present((1UL << NCPUS) - 1);
	put(SINK "fail_start", "0");
	for (cpu = 0; cpu < NCPUS; cpu++) {
		cpu_put(UNIT, cpu, "enable", "0");
		ASSERT_EQ(cpu_put(UNIT, cpu, "reset", "1"), 0);
		cpu_put(MODEL_CPU, cpu, "violations", "0");
		cpu_put(MODEL_CPU, cpu, "rate", "0");
	}
}

FIXTURE_TEARDOWN(cfs)
{
	int cpu;

	if (!self->ready)
		return;
	cleanup_profiles();
	put(SINK "fail_start", "0");
	for (cpu = 0; cpu < NCPUS; cpu++) {
		cpu_put(MODEL_CPU, cpu, "fault", "none");
		cpu_put(UNIT, cpu, "enable", "0");
		cpu_put(MODEL_CPU, cpu, "rate", "64");
	}
	sink_present((1UL << NCPUS) - 1);
}

/* No unit enabled, no violation on @mask's CPUs; TH_LOG what is wrong */
#define EXPECT_UNTOUCHED(mask)						\
	do {								\
		char _log[4096];					\
		int _c;							\
									\
		EXPECT_EQ(enabled_units(), 0);				\
		for (_c = 0; _c < NCPUS; _c++) {			\
			if (!((mask) & (1 << _c)))			\
				continue;				\
			EXPECT_EQ(model_viol(_c, _log, sizeof(_log)), 0) \
				TH_LOG("cpu%d: %s", _c, _log);		\
		}							\
	} while (0)

/* The tree: unit files, resource directories, trbe/, cpus, active */
TEST_F(cfs, tree)
{
	static const char * const files[] = {
		"cycle_count", "timestamp", "el_ns", "cpus", "active",
		"addr0/value", "addr15/el_s", "cntr3/chain", "ss7/pc",
		"rs2/group", "rs31/select", "ctxid7/mask", "vmid7/value",
		"seq/fwd2", "extin3/select", "event3/trace",
		"trbe/buffer_size", "trbe/fill_mode", "trbe/trigger_mode",
		"trbe/trigger_count",
	};
	static const char * const absent[] = {
		"rs0", "rs1", "addr16", "cntr4", "enable", "reset",
	};
	char buf[64];
	size_t i;

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_all"), 0);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		const char *f = files[i];

		EXPECT_EQ(access(prof_path("t_all", f), F_OK), 0)
			TH_LOG("missing: %s", prof_path("t_all", f));
	}
	for (i = 0; i < ARRAY_SIZE(absent); i++) {
		const char *f = absent[i];

		EXPECT_EQ(access(prof_path("t_all", f), F_OK), -1)
			TH_LOG("present: %s", prof_path("t_all", f));
	}
	ASSERT_GT(get(prof_path("t_all", "active"), buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "0\n");
	ASSERT_GT(get(prof_path("t_all", "cpus"), buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "\n");
	ASSERT_GT(get(prof_path("t_all", "trbe/fill_mode"), buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "default\n");
	/* Nothing to start: no CPU */
	EXPECT_EQ(pput("t_all", "active", "1"), -EINVAL);
	EXPECT_EQ(pput("t_all", "cpus", "0-7"), -ERANGE);
	EXPECT_EQ(pput("t_all", "cpus", "x"), -EINVAL);
	EXPECT_EQ(pput("t_all", "active", "2"), -ERANGE);
	EXPECT_EQ(pput("t_all", "trbe/fill_mode", "full"), -EINVAL);
	EXPECT_EQ(pput("t_all", "trbe/buffer_size", "12288"), -EINVAL);
	EXPECT_EQ(pput("t_all", "trbe/trigger_count", "0x100000000"), -ERANGE);
	EXPECT_EQ(rmprof("t_all"), 0);
}

/* Create, fill, start on CPUs 0-3, stop, remove: the units follow */
TEST_F(cfs, lifecycle_all_cpus)
{
	unsigned long long reg;
	int cpu, starts[NCPUS];

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_all"), 0);
	ASSERT_EQ(pput("t_all", "timestamp", "1"), 0);
	ASSERT_EQ(pput("t_all", "cycle_count", "1"), 0);
	ASSERT_EQ(pput("t_all", "cc_threshold", "0x40"), 0);
	ASSERT_EQ(pput("t_all", "cpus", "0-3"), 0);
	for (cpu = 0; cpu < NCPUS; cpu++)
		starts[cpu] = sink_count(cpu, "starts ");
	ASSERT_EQ(pput("t_all", "active", "1"), 0);
	EXPECT_EQ(pput("t_all", "active", "1"), 0);	/* already */
	for (cpu = 0; cpu < NCPUS; cpu++) {
		EXPECT_TRUE(unit_enabled(cpu)) TH_LOG("cpu%d", cpu);
		EXPECT_TRUE(status_has(cpu, "owner: configfs:t_all"));
		EXPECT_EQ(sink_count(cpu, "starts "), starts[cpu] + 1);
		ASSERT_EQ(sink_reg(cpu, "TRCCONFIGR", &reg), 0);
		EXPECT_EQ(reg & 0x810, 0x810ULL) TH_LOG("cpu%d %#llx", cpu, reg);
		ASSERT_EQ(sink_reg(cpu, "TRCCCCTLR", &reg), 0);
		EXPECT_EQ(reg & 0xfff, 0x40ULL);
		/* Each unit keeps its own trace ID, cpu + 1 */
		ASSERT_EQ(sink_reg(cpu, "TRCTRACEIDR", &reg), 0);
		EXPECT_EQ(reg, (unsigned long long)cpu + 1);
		/* sysfs writes are refused while the profile owns the CPU */
		EXPECT_EQ(cpu_put(UNIT, cpu, "enable", "0"), -EBUSY);
	}
	/* The profile's values are not the units' own (sysfs) */
	ASSERT_EQ(pput("t_all", "active", "0"), 0);
	EXPECT_UNTOUCHED(0xf);
	for (cpu = 0; cpu < NCPUS; cpu++)
		EXPECT_EQ(sink_count(cpu, "stops "), starts[cpu] + 1);
	EXPECT_TRUE(status_has(0, "owner: none"));
	EXPECT_EQ(rmprof("t_all"), 0);
}

/*
 * Checks that read another field of the same directory: a selector's
 * select against its group, a comparator's context against its type
 */
static bool depends_on_previous(const char *attr, const char *prev)
{
	const char *slash = strchr(attr, '/');

	if (!slash || strncmp(attr, prev, slash - attr + 1))
		return false;
	return !strncmp(attr, "rs", 2) || !strncmp(attr, "addr", 4);
}

/* The malformed-value matrix of the sysfs test, through configfs */
TEST_F_TIMEOUT(cfs, malformed_values_are_refused, 120)
{
	unsigned long long before, after;
	int refused = 0;
	size_t i, j;

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_case"), 0);
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const struct attr_case *c = &attrs[i];

		/* A fresh profile where an earlier case set a field it checks */
		if (i && depends_on_previous(c->attr, attrs[i - 1].attr)) {
			ASSERT_EQ(rmprof("t_case"), 0);
			ASSERT_EQ(mkprof("t_case"), 0);
		}
		ASSERT_EQ(pput("t_case", c->attr, c->valid), 0)
			TH_LOG("%s=%s", c->attr, c->valid);
		ASSERT_EQ(pget_num("t_case", c->attr, &before), 0);
		EXPECT_EQ(before, strtoull(c->valid, NULL, 0));
		for (j = 0; j < ARRAY_SIZE(bad_values); j++) {
			EXPECT_EQ(pput("t_case", c->attr, bad_values[j].val),
				  -bad_values[j].err)
				TH_LOG("%s <- \"%s\"", c->attr, bad_values[j].val);
			refused++;
		}
		EXPECT_EQ(pput("t_case", c->attr, c->beyond), -c->beyond_err)
			TH_LOG("%s <- %s (beyond caps)", c->attr, c->beyond);
		refused++;
		ASSERT_EQ(pget_num("t_case", c->attr, &after), 0);
		EXPECT_EQ(after, before) TH_LOG("%s changed", c->attr);
	}
	TH_LOG("%d malformed writes refused", refused);
}

/* Each valid value reaches the model's registers when the profile starts */
TEST_F_TIMEOUT(cfs, valid_values_reach_the_model, 120)
{
	struct attr_set ref[ATTR_REF_MAX];
	unsigned long long reg;
	char log[4096];
	size_t i;
	int pre, j, nref;

	if (!self->ready)
		return;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const struct attr_case *c = &attrs[i];

		ASSERT_EQ(mkprof("t_case"), 0);
		ASSERT_EQ(pput("t_case", "cpus", "1"), 0);
		pre = prereq_of(c->attr);
		if (pre >= 0)
			ASSERT_EQ(pput("t_case", prereqs[pre].pre,
				       prereqs[pre].val), 0);
		/* a resource's registers are programmed once referenced */
		nref = attr_reference(c->attr, ref);
		for (j = 0; j < nref; j++)
			ASSERT_EQ(pput("t_case", ref[j].file, ref[j].val), 0)
				TH_LOG("%s", ref[j].file);
		ASSERT_EQ(pput("t_case", c->attr, c->valid), 0) TH_LOG("%s", c->attr);
		ASSERT_EQ(pput("t_case", "active", "1"), 0) TH_LOG("%s", c->attr);
		EXPECT_EQ(sink_reg(1, c->reg, &reg), 0) TH_LOG("%s", c->reg);
		EXPECT_EQ(reg & c->mask, c->want)
			TH_LOG("%s=%s: %s=%#llx", c->attr, c->valid, c->reg, reg);
		ASSERT_EQ(pput("t_case", "active", "0"), 0);
		ASSERT_EQ(rmprof("t_case"), 0);
		EXPECT_EQ(model_viol(1, log, sizeof(log)), 0)
			TH_LOG("%s: %s", c->attr, log);
		cpu_put(MODEL_CPU, 1, "violations", "0");
	}
}

/* Validation refuses CPU 2 (no sink there): nothing starts, cpu2 named */
TEST_F(cfs, validation_refusal_starts_nothing)
{
	int cpu, starts[NCPUS];

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_all"), 0);
	ASSERT_EQ(pput("t_all", "cpus", "0-3"), 0);
	ASSERT_EQ(pput("t_all", "timestamp", "1"), 0);
	for (cpu = 0; cpu < NCPUS; cpu++)
		starts[cpu] = sink_count(cpu, "starts ");
	sink_present(0xb);
	EXPECT_EQ(pput("t_all", "active", "1"), -ENODEV);
	EXPECT_UNTOUCHED(0xf);
	for (cpu = 0; cpu < NCPUS; cpu++)
		EXPECT_EQ(sink_count(cpu, "starts "), starts[cpu])
			TH_LOG("cpu%d was started", cpu);
	EXPECT_TRUE(klog_has("profile t_all not started: cpu2", "sink"));
	EXPECT_TRUE(status_has(2, "no trace sink"));
	EXPECT_EQ(pput("t_all", "active", "0"), 0);
	EXPECT_EQ(rmprof("t_all"), 0);	/* not left pinned */
	sink_present(0xf);

	/* A sink setting the test sink cannot take: named with its CPU */
	ASSERT_EQ(mkprof("t_all"), 0);
	ASSERT_EQ(pput("t_all", "cpus", "2"), 0);
	ASSERT_EQ(pput("t_all", "trbe/fill_mode", "wrap"), 0);
	EXPECT_EQ(pput("t_all", "active", "1"), -EOPNOTSUPP);
	EXPECT_TRUE(klog_has("cpu2 refused trbe/", "t_all"));
	EXPECT_UNTOUCHED(0xf);
}

/* The sink of CPU 2 fails to start after CPUs 0 and 1 started */
TEST_F(cfs, sink_fault_rolls_back)
{
	int cpu, starts[NCPUS], stops[NCPUS];

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_all"), 0);
	ASSERT_EQ(pput("t_all", "cpus", "0-3"), 0);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		starts[cpu] = sink_count(cpu, "starts ");
		stops[cpu] = sink_count(cpu, "stops ");
	}
	ASSERT_EQ(put(SINK "fail_start", "4"), 0);
	EXPECT_EQ(pput("t_all", "active", "1"), -EIO);
	EXPECT_UNTOUCHED(0xf);
	for (cpu = 0; cpu < 2; cpu++) {
		EXPECT_EQ(sink_count(cpu, "starts "), starts[cpu] + 1);
		EXPECT_EQ(sink_count(cpu, "stops "), stops[cpu] + 1);
	}
	EXPECT_EQ(sink_count(3, "starts "), starts[3]);
	EXPECT_TRUE(klog_has("profile t_all not started: cpu2", "sink"));
	ASSERT_EQ(put(SINK "fail_start", "0"), 0);
	EXPECT_EQ(pput("t_all", "active", "1"), 0);
	EXPECT_EQ(enabled_units(), NCPUS);
}

/* An active profile is read-only and stays; inactive, it goes */
TEST_F(cfs, active_profile_is_read_only)
{
	unsigned long long v;

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_ro"), 0);
	ASSERT_EQ(pput("t_ro", "cpus", "1-2"), 0);
	ASSERT_EQ(pput("t_ro", "active", "1"), 0);
	EXPECT_EQ(pput("t_ro", "timestamp", "1"), -EBUSY);
	EXPECT_EQ(pput("t_ro", "addr3/value", "0x1000"), -EBUSY);
	EXPECT_EQ(pput("t_ro", "cpus", "0"), -EBUSY);
	EXPECT_EQ(pput("t_ro", "trbe/fill_mode", "wrap"), -EBUSY);
	EXPECT_EQ(pput("t_ro", "trbe/buffer_size", "0"), -EBUSY);
	EXPECT_EQ(rmprof("t_ro"), -EBUSY);
	EXPECT_EQ(pget_num("t_ro", "timestamp", &v), 0);
	EXPECT_EQ(v, 0ULL);
	EXPECT_EQ(pget_num("t_ro", "active", &v), 0);
	EXPECT_EQ(v, 1ULL);
	EXPECT_TRUE(unit_enabled(1));
	ASSERT_EQ(pput("t_ro", "active", "0"), 0);
	EXPECT_EQ(pput("t_ro", "timestamp", "1"), 0);
	EXPECT_EQ(rmprof("t_ro"), 0);
	EXPECT_UNTOUCHED(0xf);
}

/* Two profiles sharing CPU 1: the second is refused, the first runs on */
TEST_F(cfs, overlapping_profiles_collide)
{
	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_a"), 0);
	ASSERT_EQ(mkprof("t_b"), 0);
	ASSERT_EQ(pput("t_a", "cpus", "0-1"), 0);
	ASSERT_EQ(pput("t_b", "cpus", "1-2"), 0);
	ASSERT_EQ(pput("t_a", "active", "1"), 0);
	EXPECT_EQ(pput("t_b", "active", "1"), -EBUSY);
	EXPECT_TRUE(klog_has("profile t_b not started: cpu1", "another session"));
	EXPECT_TRUE(unit_enabled(0));
	EXPECT_TRUE(unit_enabled(1));
	EXPECT_FALSE(unit_enabled(2));
	EXPECT_TRUE(status_has(1, "owner: configfs:t_a"));
	/* sysfs cannot take a profile's CPU either */
	EXPECT_EQ(cpu_put(UNIT, 0, "enable", "1"), -EBUSY);
	ASSERT_EQ(pput("t_a", "active", "0"), 0);
	EXPECT_EQ(pput("t_b", "active", "1"), 0);
	EXPECT_TRUE(status_has(2, "owner: configfs:t_b"));
	EXPECT_EQ(pput("t_a", "active", "1"), -EBUSY);
	ASSERT_EQ(pput("t_b", "active", "0"), 0);
	EXPECT_UNTOUCHED(0xf);
}

static int cpu_online(int cpu, int on)
{
	char p[64];

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return put(p, on ? "1" : "0");
}

/* CPU 3 goes offline and comes back: it is in the profile's session again */
TEST_F(cfs, offline_cpu_rejoins)
{
	int i;

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_all"), 0);
	ASSERT_EQ(pput("t_all", "cpus", "0-3"), 0);
	ASSERT_EQ(pput("t_all", "active", "1"), 0);
	ASSERT_EQ(cpu_online(3, 0), 0);
	ASSERT_EQ(cpu_online(3, 1), 0);
	for (i = 0; i < 100 && !(unit_enabled(3) &&
				 status_has(3, "owner: configfs:t_all")); i++)
		usleep(10000);
	EXPECT_TRUE(unit_enabled(3));
	EXPECT_TRUE(status_has(3, "owner: configfs:t_all"));
	EXPECT_EQ(enabled_units(), NCPUS);
	ASSERT_EQ(pput("t_all", "active", "0"), 0);
	EXPECT_UNTOUCHED(0xf);
}

/*
 * CPU 3's trace buffer faults (the model's TRBE abort): ete.ko takes CPU 3
 * out of the profile's session.  When CPU 3 goes offline and comes back,
 * the profile starts it again.
 */
TEST_F_TIMEOUT(cfs, faulted_cpu_rejoins_after_hotplug, 60)
{
	struct tbuf t = { 0 };
	int i;

	if (!self->ready)
		return;
	if (access("/dev/trbe3", F_OK))
		SKIP(return, "trbe.ko has no /dev/trbe3");
	sink_present(0);	/* trbe.ko only */
	ASSERT_EQ(trbe_set(3, "buffer_size", "65536"), 0);
	ASSERT_EQ(tbuf_open(&t, 3), 0);
	ASSERT_EQ(mkprof("t_all"), 0);
	ASSERT_EQ(pput("t_all", "cpus", "3"), 0);
	ASSERT_EQ(cpu_put(MODEL_CPU, 3, "rate", "64"), 0);
	ASSERT_EQ(cpu_put(MODEL_CPU, 3, "fault", "abort"), 0);
	ASSERT_EQ(pput("t_all", "active", "1"), 0);
	ASSERT_EQ(tbuf_wait_state(&t, ETE_TRBE_STATE_FAULT, 10), 0);
	for (i = 0; i < 200 && unit_enabled(3); i++)
		usleep(10000);
	EXPECT_FALSE(unit_enabled(3));
	EXPECT_TRUE(status_has(3, "owner: none"));

	ASSERT_EQ(cpu_online(3, 0), 0);
	ASSERT_EQ(cpu_online(3, 1), 0);
	for (i = 0; i < 200 && !unit_enabled(3); i++)
		usleep(10000);
	EXPECT_TRUE(unit_enabled(3));
	EXPECT_TRUE(status_has(3, "owner: configfs:t_all"));
	EXPECT_TRUE(klog_has("profile t_all: cpu3 rejoined", "ete"));
	EXPECT_EQ(tbuf_state(&t), (unsigned int)ETE_TRBE_STATE_RUNNING);
	ASSERT_EQ(pput("t_all", "active", "0"), 0);
	tbuf_close(&t);
	EXPECT_UNTOUCHED(0x8);
}

/* Capture on CPUs 0-3 through /dev/trbe<N>, with the profile's trbe/ */
TEST_F_TIMEOUT(cfs, capture_through_trbe, 90)
{
	struct tbuf t[NCPUS];
	char mode[32], size[32];
	long long before[NCPUS];
	int cpu;

	if (!self->ready)
		return;
	if (access("/dev/trbe0", F_OK))
		SKIP(return, "trbe.ko has no /dev/trbe0");
	sink_present(0);	/* trbe.ko only */
	for (cpu = 0; cpu < NCPUS; cpu++) {
		ASSERT_EQ(trbe_set(cpu, "buffer_size", "65536"), 0);
		ASSERT_EQ(tbuf_open(&t[cpu], cpu), 0) TH_LOG("cpu%d", cpu);
	}
	ASSERT_EQ(mkprof("t_cap"), 0);
	ASSERT_EQ(pput("t_cap", "cpus", "0-3"), 0);
	ASSERT_EQ(pput("t_cap", "timestamp", "1"), 0);
	ASSERT_EQ(pput("t_cap", "trbe/fill_mode", "circular"), 0);
	/* A buffer size the open buffers do not have: refused, named */
	ASSERT_EQ(pput("t_cap", "trbe/buffer_size", "131072"), 0);
	EXPECT_EQ(pput("t_cap", "active", "1"), -EINVAL);
	EXPECT_TRUE(klog_has("cpu0 refused trbe/buffer_size", "t_cap"));
	ASSERT_EQ(pput("t_cap", "trbe/buffer_size", "65536"), 0);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		cpu_put(MODEL_CPU, cpu, "rate", "64");
		before[cpu] = model_bytes_out(cpu);
		ASSERT_LE(0, before[cpu]) TH_LOG("cpu%d: no bytes_out in the model's stats", cpu);
	}
	ASSERT_EQ(pput("t_cap", "active", "1"), 0);
	/* The profile's mode holds for the session */
	snprintf(mode, sizeof(mode), "/sys/class/trbe/trbe%d/fill_mode", 1);
	ASSERT_GT(get(mode, size, sizeof(size)), 0);
	EXPECT_STREQ(size, "circular\n");
	/* until the TRBE of every CPU has written trace (waited for, not timed) */
	EXPECT_EQ(NCPUS, wait_bytes_out(before, 60));
	ASSERT_EQ(pput("t_cap", "active", "0"), 0);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		EXPECT_GT(tbuf_head(&t[cpu]), 0ULL) TH_LOG("cpu%d", cpu);
		EXPECT_EQ(tbuf_state(&t[cpu]), (unsigned int)ETE_TRBE_STATE_IDLE);
		tbuf_close(&t[cpu]);
	}
	/* and the device's own mode is back */
	ASSERT_GT(get(mode, size, sizeof(size)), 0);
	EXPECT_STREQ(size, "fill\n");
	EXPECT_EQ(rmprof("t_cap"), 0);
	EXPECT_UNTOUCHED(0xf);
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * ete.ko cannot go while a profile exists (configfs pins it); the sink's
 * module cannot go while an active profile uses it, and can once stopped.
 */
TEST_F(cfs, module_unload_is_safe)
{
	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_all"), 0);
	EXPECT_NE(run("rmmod ete 2>/dev/null"), 0);
	EXPECT_EQ(access(PROFILES "/t_all", F_OK), 0);
	ASSERT_EQ(pput("t_all", "cpus", "0-3"), 0);
	ASSERT_EQ(pput("t_all", "active", "1"), 0);
	EXPECT_NE(run("rmmod ete 2>/dev/null"), 0);
	EXPECT_NE(run("rmmod ete_test_sink 2>/dev/null"), 0);
	EXPECT_EQ(enabled_units(), NCPUS);
	ASSERT_EQ(pput("t_all", "active", "0"), 0);
	/* Stopped: the sink may go, the profile stays, and works again */
	ASSERT_EQ(run("rmmod ete_test_sink"), 0);
	EXPECT_EQ(pput("t_all", "active", "1"), -ENODEV);
	ASSERT_EQ(run("insmod /lib/modules/ete/ete_test_sink.ko"), 0);
	sink_present((1UL << NCPUS) - 1);
	EXPECT_EQ(pput("t_all", "active", "1"), 0);
	EXPECT_EQ(enabled_units(), NCPUS);
	EXPECT_EQ(pput("t_all", "active", "0"), 0);
	EXPECT_UNTOUCHED(0xf);
}

/*
 * The trace unit of CPU 2 fails at run time, after CPUs 0 and 1 started
 * (the model's "stuck" fault: it never leaves Enabling after EN=1): CPUs
 * 0 and 1 are stopped again, nothing stays enabled, and no CPU saw
 * anything the architecture forbids: the driver leaves CPU 2's unit in
 * Enabling with EN set (changing EN there would break RMDZDN) and settles
 * it at its next enable, once the fault is gone.
 */
TEST_F(cfs, runtime_fault_rolls_back)
{
	int cpu, starts[NCPUS], stops[NCPUS];
	char log[4096];

	if (!self->ready)
		return;
	ASSERT_EQ(mkprof("t_all"), 0);
	ASSERT_EQ(pput("t_all", "cpus", "0-3"), 0);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		starts[cpu] = sink_count(cpu, "starts ");
		stops[cpu] = sink_count(cpu, "stops ");
	}
	ASSERT_EQ(cpu_put(MODEL_CPU, 2, "fault", "stuck"), 0);
	EXPECT_EQ(pput("t_all", "active", "1"), -ETIMEDOUT);
	ASSERT_EQ(cpu_put(MODEL_CPU, 2, "fault", "none"), 0);
	EXPECT_UNTOUCHED(0xb);
	for (cpu = 0; cpu < 2; cpu++) {
		EXPECT_EQ(sink_count(cpu, "starts "), starts[cpu] + 1);
		EXPECT_EQ(sink_count(cpu, "stops "), stops[cpu] + 1);
	}
	EXPECT_EQ(sink_count(2, "starts "), starts[2] + 1);
	EXPECT_EQ(sink_count(2, "stops "), stops[2] + 1);
	EXPECT_EQ(sink_count(3, "starts "), starts[3]);
	EXPECT_EQ(sink_count(0, "order_violations "), 0);
	EXPECT_TRUE(klog_has("profile t_all not started: cpu2", "Idle"));
	EXPECT_TRUE(status_has(2, "-ETIMEDOUT"));
	EXPECT_EQ(model_viol(2, log, sizeof(log)), 0)
		TH_LOG("cpu2: %.300s", log);
	/* the next start settles CPU 2's unit and runs */
	EXPECT_EQ(pput("t_all", "active", "0"), 0);
	EXPECT_EQ(pput("t_all", "active", "1"), 0);
	EXPECT_EQ(model_viol(2, log, sizeof(log)), 0)
		TH_LOG("cpu2: %.300s", log);
	EXPECT_EQ(pput("t_all", "active", "0"), 0);
	EXPECT_EQ(rmprof("t_all"), 0);
}

TEST_HARNESS_MAIN
