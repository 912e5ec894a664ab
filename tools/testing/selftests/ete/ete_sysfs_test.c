// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs ABI of ete.ko (/sys/class/ete/ete<N>/) against the model
 * (ete_model.ko, rich profile) and the test sink (ete_test_sink.ko):
 *
 * - every writable attribute takes a valid value, reads it back, and after
 *   "enable" the model's register file holds the expected field (the test
 *   derives the encoding itself from the Arm ARM register layouts);
 * - every attribute refuses at least six malformed values with the
 *   documented errno, the old value staying;
 * - writes while enabled are -EBUSY, enabling without a sink -ENODEV;
 * - enable/disable cycles on every CPU leave the model's violation log
 *   empty and the sink started before and stopped after the unit;
 * - a unit stuck outside Idle gives -ETIMEDOUT, and works again once the
 *   fault is cleared.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ete_attr_cases.h"
#include "ete_file_io.h"

#define UNIT		"/sys/class/ete/ete%d/%s"
#define MODEL		"/sys/kernel/debug/ete_model/cpu%d/%s"
#define SINK		"/sys/kernel/debug/ete_test_sink/regs%d"

static char path_buf[512];

static const char *pathf(const char *fmt, int cpu, const char *name)
{
	snprintf(path_buf, sizeof(path_buf), fmt, cpu, name);
	return path_buf;
}

static int unit_put(int cpu, const char *attr, const char *val)
{
	return put(pathf(UNIT, cpu, attr), val);
}

static int unit_get_num(int cpu, const char *attr, unsigned long long *v)
{
	char buf[64];
	char *end;
	int ret = get(pathf(UNIT, cpu, attr), buf, sizeof(buf));

	if (ret < 0)
		return ret;
	*v = strtoull(buf, &end, 0);
	return *end == '\n' ? 0 : -EINVAL;
}

/* The model's value of register @reg (e.g. "TRCACVR5") on @cpu */
static int model_reg(int cpu, const char *reg, unsigned long long *v)
{
	char path[128];

	snprintf(path, sizeof(path), SINK, cpu);
	return reg_in_file(path, reg, v);
}

/* The model's violation log of @cpu is empty (and show it if not) */
static int violations(int cpu, char *buf, size_t len)
{
	int n = get(pathf(MODEL, cpu, "violations"), buf, len);

	return n < 0 ? -1 : n;
}

static void clear_violations(int cpu)
{
	put(pathf(MODEL, cpu, "violations"), "0");
}

static int ncpus(void)
{
	return sysconf(_SC_NPROCESSORS_CONF);
}

static bool have_model(void)
{
	return !access("/sys/kernel/debug/ete_model", F_OK) &&
	       !access("/sys/kernel/debug/ete_test_sink", F_OK) &&
	       !access("/sys/class/ete/ete0", F_OK);
}

static void sink_present(unsigned long mask)
{
	char v[32];

	snprintf(v, sizeof(v), "%lu", mask);
	put("/sys/kernel/debug/ete_test_sink/present", v);
}

FIXTURE(ete) {
	bool ready;
};

FIXTURE_SETUP(ete)
{
	int cpu;

	self->ready = have_model();
	if (!self->ready)
		SKIP(return, "ete_model and ete_test_sink not loaded");
	sink_present((1UL << ncpus()) - 1);
	for (cpu = 0; cpu < ncpus(); cpu++) {
		unit_put(cpu, "enable", "0");
		ASSERT_EQ(unit_put(cpu, "reset", "1"), 0);
		clear_violations(cpu);
		/* No trace bytes needed here: keep the VM's load down */
		put(pathf(MODEL, cpu, "rate"), "0");
	}
}

FIXTURE_TEARDOWN(ete)
{
	int cpu;

	if (!self->ready)
		return;
	for (cpu = 0; cpu < ncpus(); cpu++) {
		put(pathf(MODEL, cpu, "fault"), "none");
		unit_put(cpu, "enable", "0");
		unit_put(cpu, "reset", "1");
		put(pathf(MODEL, cpu, "rate"), "64");
	}
	sink_present((1UL << ncpus()) - 1);
}

static int put_pre(int cpu, const struct attr_case *c)
{
	int i = prereq_of(c->attr);

	return i < 0 ? 0 : unit_put(cpu, prereqs[i].pre, prereqs[i].val);
}

/* Make the resource of @c referenced, so that the enable programs it */
static int put_reference(int cpu, const struct attr_case *c)
{
	struct attr_set set[ATTR_REF_MAX];
	int i, n = attr_reference(c->attr, set), ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = unit_put(cpu, set[i].file, set[i].val);
	return ret;
}

/* "addr5/value" -> "addr/value": the kind of attribute */
static void attr_kind(const char *attr, char *kind, size_t len)
{
	size_t i, o = 0;

	for (i = 0; attr[i] && o + 1 < len; i++) {
		if (attr[i] >= '0' && attr[i] <= '9' && strchr(attr + i, '/'))
			continue;
		kind[o++] = attr[i];
	}
	kind[o] = '\0';
}

static bool kind_covered(const char *kind)
{
	char k[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		attr_kind(attrs[i].attr, k, sizeof(k));
		if (!strcmp(k, kind))
			return true;
	}
	return false;
}

/* Every writable configuration file of ete0 has a case above */
TEST_F(ete, every_attribute_has_a_case)
{
	static const char * const skip[] = { "enable", "reset", "uevent" };
	char dir[300], file[600], rel[600], kind[600];
	struct dirent *d, *f;
	DIR *top, *sub;
	struct stat st;
	int checked = 0;
	size_t i;

	if (!self->ready)
		return;
	top = opendir("/sys/class/ete/ete0");
	ASSERT_NE(top, NULL);
	while ((d = readdir(top))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/class/ete/ete0/%s", d->d_name);
		if (lstat(dir, &st) || S_ISLNK(st.st_mode))
			continue;
		if (S_ISREG(st.st_mode)) {
			bool skipped = false;

			for (i = 0; i < ARRAY_SIZE(skip); i++)
				skipped |= !strcmp(d->d_name, skip[i]);
			if (!(st.st_mode & 0200) || skipped)
				continue;
			EXPECT_TRUE(kind_covered(d->d_name))
				TH_LOG("no case for %s", d->d_name);
			checked++;
			continue;
		}
		/* power/ is the driver core's */
		sub = strcmp(d->d_name, "power") ? opendir(dir) : NULL;
		if (!sub)
			continue;
		while ((f = readdir(sub))) {
			snprintf(file, sizeof(file), "%s/%s", dir, f->d_name);
			if (f->d_name[0] == '.' || stat(file, &st) ||
			    !S_ISREG(st.st_mode) || !(st.st_mode & 0200))
				continue;
			snprintf(rel, sizeof(rel), "%s/%s", d->d_name, f->d_name);
			attr_kind(rel, kind, sizeof(kind));
			EXPECT_TRUE(kind_covered(kind))
				TH_LOG("no case for %s", rel);
			checked++;
		}
		closedir(sub);
	}
	closedir(top);
	TH_LOG("%d writable files", checked);
	EXPECT_GT(checked, 300);
}

/* Resource directories exist exactly where caps/ says */
TEST_F(ete, groups_follow_caps)
{
	static const struct { const char *cap, *dir; int first; } g[] = {
		{ "caps/num_addr_comparators", "addr%d", 0 },
		{ "caps/num_counters", "cntr%d", 0 },
		{ "caps/num_single_shot", "ss%d", 0 },
		{ "caps/num_resource_selectors", "rs%d", 2 },
		{ "caps/num_context_id_comparators", "ctxid%d", 0 },
		{ "caps/num_vmid_comparators", "vmid%d", 0 },
		{ "caps/num_external_input_selectors", "extin%d", 0 },
		{ "caps/num_events", "event%d", 0 },
	};
	unsigned long long n;
	char name[32];
	size_t i;
	int k;

	if (!self->ready)
		return;
	for (i = 0; i < ARRAY_SIZE(g); i++) {
		ASSERT_EQ(unit_get_num(0, g[i].cap, &n), 0);
		EXPECT_GT(n, 0ULL);
		for (k = 0; k <= (int)n; k++) {
			snprintf(name, sizeof(name), g[i].dir, k);
			EXPECT_EQ(access(pathf(UNIT, 0, name), F_OK) == 0,
				  k >= g[i].first && k < (int)n)
				TH_LOG("%s", name);
		}
	}
	EXPECT_EQ(access(pathf(UNIT, 0, "rs1"), F_OK), -1);
	EXPECT_EQ(access(pathf(UNIT, 0, "cntr2/chain"), F_OK), -1);
	EXPECT_EQ(access(pathf(UNIT, 0, "rs5/pair_invert"), F_OK), -1);
}

/* The upstream raw mirrors that OpenCSD-based tools read */
TEST_F(ete, raw_mirrors)
{
	static const char * const files[] = {
		"trcidr/trcidr0", "trcidr/trcidr1", "trcidr/trcidr2",
		"trcidr/trcidr3", "trcidr/trcidr4", "trcidr/trcidr5",
		"trcidr/trcidr8", "trcidr/trcidr9", "trcidr/trcidr10",
		"trcidr/trcidr11", "trcidr/trcidr12", "trcidr/trcidr13",
		"mgmt/trcdevarch", "mgmt/trcauthstatus", "mgmt/trcconfig",
		"mgmt/trctraceid",
	};
	unsigned long long v;
	size_t i;

	if (!self->ready)
		return;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		int ret = unit_get_num(0, files[i], &v);

		if (ret)
			ksft_print_msg("%s: %d\n", files[i], ret);
		EXPECT_EQ(ret, 0);
	}
	ASSERT_EQ(unit_get_num(0, "mgmt/trcdevarch", &v), 0);
	EXPECT_EQ(v, 0x47705a13ULL);
	/* The model's rich profile */
	ASSERT_EQ(unit_get_num(0, "trcidr/trcidr0", &v), 0);
	EXPECT_EQ(v, 0x0801cea1ULL);
	ASSERT_EQ(unit_get_num(0, "trcidr/trcidr4", &v), 0);
	EXPECT_EQ(v, 0x888f4008ULL);
	/* trctraceid is the live register: programmed at enable */
	ASSERT_EQ(unit_put(0, "trace_id", "0x33"), 0);
	ASSERT_EQ(unit_put(0, "enable", "1"), 0);
	ASSERT_EQ(unit_get_num(0, "mgmt/trctraceid", &v), 0);
	EXPECT_EQ(v, 0x33ULL);
	ASSERT_EQ(unit_put(0, "enable", "0"), 0);
}

/*
 * Valid values: accepted, read back, and in the model after enable.
 * An enable and a disable on CPU 1 for each of the ~330 attributes: under
 * TCG on a loaded two-core host that took over the harness's default 30 s
 * (a hang guard, not a bound: configfs_test's twin has 120 s).
 */
TEST_F_TIMEOUT(ete, valid_values_reach_the_model, 300)
{
	unsigned long long got, reg;
	char log[4096];
	size_t i;
	int cpu = 1;

	if (!self->ready)
		return;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const struct attr_case *c = &attrs[i];

		ASSERT_EQ(unit_put(cpu, "reset", "1"), 0);
		ASSERT_EQ(put_pre(cpu, c), 0);
		ASSERT_EQ(put_reference(cpu, c), 0) TH_LOG("%s", c->attr);
		EXPECT_EQ(unit_put(cpu, c->attr, c->valid), 0)
			TH_LOG("%s=%s", c->attr, c->valid);
		EXPECT_EQ(unit_get_num(cpu, c->attr, &got), 0);
		EXPECT_EQ(got, strtoull(c->valid, NULL, 0)) TH_LOG("%s", c->attr);
		ASSERT_EQ(unit_put(cpu, "enable", "1"), 0) TH_LOG("%s", c->attr);
		EXPECT_EQ(model_reg(cpu, c->reg, &reg), 0) TH_LOG("%s", c->reg);
		EXPECT_EQ(reg & c->mask, c->want)
			TH_LOG("%s=%s: %s=%#llx", c->attr, c->valid, c->reg, reg);
		ASSERT_EQ(unit_put(cpu, "enable", "0"), 0);
		EXPECT_EQ(violations(cpu, log, sizeof(log)), 0)
			TH_LOG("%s: %s", c->attr, log);
		clear_violations(cpu);
	}
}

/* Malformed values: documented errno, old value kept (timeout: above) */
TEST_F_TIMEOUT(ete, malformed_values_are_refused, 300)
{
	unsigned long long before, after;
	size_t i, j;
	int refused = 0;

	if (!self->ready)
		return;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const struct attr_case *c = &attrs[i];

		ASSERT_EQ(unit_put(0, "reset", "1"), 0);
		ASSERT_EQ(put_pre(0, c), 0);
		ASSERT_EQ(unit_put(0, c->attr, c->valid), 0) TH_LOG("%s", c->attr);
		ASSERT_EQ(unit_get_num(0, c->attr, &before), 0);
		for (j = 0; j < ARRAY_SIZE(bad_values); j++) {
			EXPECT_EQ(unit_put(0, c->attr, bad_values[j].val),
				  -bad_values[j].err)
				TH_LOG("%s <- \"%s\"", c->attr, bad_values[j].val);
			refused++;
		}
		EXPECT_EQ(unit_put(0, c->attr, c->beyond), -c->beyond_err)
			TH_LOG("%s <- %s (beyond caps)", c->attr, c->beyond);
		refused++;
		ASSERT_EQ(unit_get_num(0, c->attr, &after), 0);
		EXPECT_EQ(after, before) TH_LOG("%s changed", c->attr);
	}
	TH_LOG("%d malformed writes refused", refused);
}

/* Configuration and reset are refused while enabled */
TEST_F(ete, busy_while_enabled)
{
	unsigned long long v;

	if (!self->ready)
		return;
	ASSERT_EQ(unit_put(2, "enable", "1"), 0);
	EXPECT_EQ(unit_put(2, "cycle_count", "1"), -EBUSY);
	EXPECT_EQ(unit_put(2, "addr0/value", "0x1000"), -EBUSY);
	EXPECT_EQ(unit_put(2, "reset", "1"), -EBUSY);
	EXPECT_EQ(unit_get_num(2, "cycle_count", &v), 0);
	EXPECT_EQ(v, 0ULL);
	EXPECT_EQ(unit_put(2, "enable", "1"), 0);	/* already ours */
	EXPECT_EQ(unit_get_num(2, "enable", &v), 0);
	EXPECT_EQ(v, 1ULL);
	EXPECT_EQ(unit_put(2, "enable", "0"), 0);
	EXPECT_EQ(unit_get_num(2, "enable", &v), 0);
	EXPECT_EQ(v, 0ULL);
	EXPECT_EQ(unit_put(2, "cycle_count", "1"), 0);
	EXPECT_EQ(unit_put(2, "enable", "2"), -ERANGE);
	EXPECT_EQ(unit_put(2, "enable", "on"), -EINVAL);
	EXPECT_EQ(unit_put(2, "reset", "0"), -EINVAL);
}

/* Fields valid alone but not together are refused at enable (EINVAL) */
TEST_F(ete, conflicting_fields_refused_at_enable)
{
	char status[1024];

	if (!self->ready)
		return;
	ASSERT_EQ(unit_put(2, "no_overflow", "1"), 0);
	EXPECT_EQ(unit_put(2, "enable", "1"), -EINVAL);
	ASSERT_GT(get(pathf(UNIT, 2, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "no_overflow needs stall"), NULL)
		TH_LOG("%s", status);
	ASSERT_EQ(unit_put(2, "stall", "1"), 0);
	EXPECT_EQ(unit_put(2, "enable", "1"), 0);
	EXPECT_EQ(unit_put(2, "enable", "0"), 0);
	ASSERT_EQ(unit_put(2, "branch_broadcast", "1"), 0);
	ASSERT_EQ(unit_put(2, "bb_include", "1"), 0);
	EXPECT_EQ(unit_put(2, "enable", "1"), -EINVAL);
	ASSERT_GT(get(pathf(UNIT, 2, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "needs bb_ranges"), NULL) TH_LOG("%s", status);
}

/*
 * Comparators programmed as the architecture makes UNPREDICTABLE or
 * CONSTRAINED UNPREDICTABLE are refused at enable, the status naming the
 * rule: start/stop comparators out of address order (RSFXZB), a start and
 * a stop on one address (RXHFYQ), a range ending below its start
 * (SWFSPV), and a point address that cannot be an instruction's first
 * byte (SMLDYK).  Made legal, the same session starts.
 */
TEST_F(ete, comparator_rules_refused_at_enable)
{
	static const struct {
		const char *attr, *bad, *good, *tag;
	} rules[] = {
		{ "addr5/value", "0x1000", "0x3000", "RSFXZB" },
		{ "addr5/value", "0x2000", "0x3000", "RXHFYQ" },
		{ "addr4/value", "0x2001", "0x2000", "SMLDYK" },
		{ "addr1/value", "0x3fff", "0x5000", "SWFSPV" },
	};
	char status[1024];
	unsigned int i;

	if (!self->ready)
		return;
	ASSERT_EQ(unit_put(2, "addr0/value", "0x4000"), 0);
	ASSERT_EQ(unit_put(2, "addr1/value", "0x5000"), 0);
	ASSERT_EQ(unit_put(2, "addr4/value", "0x2000"), 0);
	ASSERT_EQ(unit_put(2, "addr5/value", "0x3000"), 0);
	ASSERT_EQ(unit_put(2, "include_ranges", "0x1"), 0);
	ASSERT_EQ(unit_put(2, "start_addrs", "0x10"), 0);
	ASSERT_EQ(unit_put(2, "stop_addrs", "0x20"), 0);
	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		ASSERT_EQ(unit_put(2, rules[i].attr, rules[i].bad), 0);
		EXPECT_EQ(unit_put(2, "enable", "1"), -EINVAL)
			TH_LOG("%s=%s", rules[i].attr, rules[i].bad);
		ASSERT_GT(get(pathf(UNIT, 2, "status"), status,
			      sizeof(status)), 0);
		EXPECT_NE(strstr(status, rules[i].tag), NULL)
			TH_LOG("%s", status);
		ASSERT_EQ(unit_put(2, rules[i].attr, rules[i].good), 0);
		EXPECT_EQ(unit_put(2, "enable", "1"), 0);
		EXPECT_EQ(unit_put(2, "enable", "0"), 0);
	}
}

/*
 * An external debugger's claim tag refuses the enable (EBUSY), also one
 * set at the very moment the driver sets its own: the CoreSight claim
 * protocol sets, reads back and backs off, leaving only the debugger's.
 */
TEST_F(ete, external_claim_refused)
{
	char status[1024], claim[32] = "", log[4096];
	unsigned long long v;

	if (!self->ready)
		return;
	ASSERT_EQ(put(pathf(MODEL, 1, "claim"), "1"), 0);
	EXPECT_EQ(unit_put(1, "enable", "1"), -EBUSY);
	ASSERT_GT(get(pathf(UNIT, 1, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "external debugger"), NULL) TH_LOG("%s", status);
	ASSERT_EQ(put(pathf(MODEL, 1, "claim"), "0"), 0);

	ASSERT_EQ(put(pathf(MODEL, 1, "claim"), "race"), 0);
	EXPECT_EQ(unit_put(1, "enable", "1"), -EBUSY);
	EXPECT_EQ(unit_get_num(1, "enable", &v), 0);
	EXPECT_EQ(v, 0ULL);
	EXPECT_GT(get(pathf(MODEL, 1, "claim"), claim, sizeof(claim)), 0);
	EXPECT_EQ(strtoull(claim, NULL, 0), 1ULL)
		TH_LOG("claim tags %s: the driver's is still set", claim);
	ASSERT_EQ(put(pathf(MODEL, 1, "claim"), "0"), 0);

	EXPECT_EQ(unit_put(1, "enable", "1"), 0);
	EXPECT_EQ(unit_put(1, "enable", "0"), 0);
	EXPECT_EQ(violations(1, log, sizeof(log)), 0) TH_LOG("%s", log);
}

/* No sink, no trace: -ENODEV, said in status */
TEST_F(ete, enable_without_sink)
{
	char status[1024];

	if (!self->ready)
		return;
	sink_present(0);
	EXPECT_EQ(unit_put(3, "enable", "1"), -ENODEV);
	ASSERT_GT(get(pathf(UNIT, 3, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "state: disabled"), NULL);
	EXPECT_NE(strstr(status, "-ENODEV"), NULL) TH_LOG("%s", status);
	EXPECT_NE(strstr(status, "no trace sink"), NULL);
	sink_present((1UL << ncpus()) - 1);
	EXPECT_EQ(unit_put(3, "enable", "1"), 0);
	ASSERT_GT(get(pathf(UNIT, 3, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "state: enabled"), NULL) TH_LOG("%s", status);
	EXPECT_NE(strstr(status, "owner: sysfs"), NULL);
	EXPECT_EQ(unit_put(3, "enable", "0"), 0);
}

static int sink_count(int cpu, const char *what)
{
	char log[4096], key[64];
	char *p;

	if (get("/sys/kernel/debug/ete_test_sink/log", log, sizeof(log)) < 0)
		return -1;
	snprintf(key, sizeof(key), "cpu%d ", cpu);
	p = strstr(log, key);
	if (!p)
		return -1;
	p = strstr(p, what);
	return p ? atoi(p + strlen(what)) : -1;
}

/* Enable/disable cycles on every CPU: no violation, sink order kept */
#define CYCLES	10

TEST_F(ete, enable_disable_cycles_all_cpus)
{
	int cpu, i, starts, stops;
	char log[4096];

	if (!self->ready)
		return;
	ASSERT_EQ(ncpus(), 4);
	for (cpu = 0; cpu < ncpus(); cpu++) {
		starts = sink_count(cpu, "starts ");
		stops = sink_count(cpu, "stops ");
		ASSERT_EQ(unit_put(cpu, "timestamp", "1"), 0);
		ASSERT_EQ(unit_put(cpu, "cycle_count", "1"), 0);
		for (i = 0; i < CYCLES; i++) {
			ASSERT_EQ(unit_put(cpu, "enable", "1"), 0)
				TH_LOG("cpu%d cycle %d", cpu, i);
			ASSERT_EQ(unit_put(cpu, "enable", "0"), 0);
		}
		EXPECT_EQ(violations(cpu, log, sizeof(log)), 0)
			TH_LOG("cpu%d: %s", cpu, log);
		EXPECT_EQ(sink_count(cpu, "starts "), starts + CYCLES);
		EXPECT_EQ(sink_count(cpu, "stops "), stops + CYCLES);
		EXPECT_EQ(sink_count(cpu, "order_violations "), 0);
	}
	/* All four at once */
	for (cpu = 0; cpu < ncpus(); cpu++)
		ASSERT_EQ(unit_put(cpu, "enable", "1"), 0);
	for (cpu = 0; cpu < ncpus(); cpu++)
		ASSERT_EQ(unit_put(cpu, "enable", "0"), 0);
	for (cpu = 0; cpu < ncpus(); cpu++)
		EXPECT_EQ(violations(cpu, log, sizeof(log)), 0)
			TH_LOG("cpu%d: %s", cpu, log);
}

/*
 * A unit that never reaches Idle after disable: the disable reports
 * -ETIMEDOUT (the unit is left disabled, the error in status), the next
 * enable too (not Idle before programming); once the fault is cleared the
 * unit works again, and nothing CONSTRAINED UNPREDICTABLE was done.
 */
TEST_F(ete, stuck_unit_times_out_and_recovers)
{
	unsigned long long v;
	char status[1024], log[4096];

	if (!self->ready)
		return;
	ASSERT_EQ(unit_put(1, "enable", "1"), 0);
	ASSERT_EQ(put(pathf(MODEL, 1, "fault"), "stuck"), 0);
	EXPECT_EQ(unit_put(1, "enable", "0"), -ETIMEDOUT);
	EXPECT_EQ(unit_get_num(1, "enable", &v), 0);
	EXPECT_EQ(v, 0ULL);
	ASSERT_GT(get(pathf(UNIT, 1, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "-ETIMEDOUT"), NULL) TH_LOG("%s", status);
	EXPECT_EQ(unit_put(1, "enable", "1"), -ETIMEDOUT);
	EXPECT_EQ(unit_get_num(1, "enable", &v), 0);
	EXPECT_EQ(v, 0ULL);

	ASSERT_EQ(put(pathf(MODEL, 1, "fault"), "none"), 0);
	EXPECT_EQ(unit_put(1, "enable", "1"), 0);
	EXPECT_EQ(unit_put(1, "enable", "0"), 0);
	EXPECT_EQ(violations(1, log, sizeof(log)), 0) TH_LOG("%s", log);
}

/* The model's count of register accesses of one kind ("reads", "writes") */
static unsigned long long model_stat(int cpu, const char *name)
{
	char buf[1024], *p;
	size_t n = strlen(name);

	if (get(pathf(MODEL, cpu, "stats"), buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (!strncmp(p, name, n) && p[n] == ' ')
			return strtoull(p + n + 1, NULL, 10);
	}
	return 0;
}

/*
 * Waiting for TRCSTATR is bounded as mainline's coresight_timeout() bounds
 * it (TIMEOUT_US, 100 reads one microsecond apart): the wait runs with
 * IRQs off (on enable, disable and in the CPU PM path), and 10,000 reads
 * held the CPU for over 10 ms.  A unit that never reaches Idle: the
 * disable gives up after about a hundred status reads, not thousands.
 */
TEST_F(ete, stuck_unit_poll_is_bounded)
{
	unsigned long long before, reads;

	if (!self->ready)
		return;
	ASSERT_EQ(unit_put(1, "enable", "1"), 0);
	ASSERT_EQ(put(pathf(MODEL, 1, "fault"), "stuck"), 0);
	before = model_stat(1, "reads");
	ASSERT_GT(before, 0ULL);
	EXPECT_EQ(unit_put(1, "enable", "0"), -ETIMEDOUT);
	reads = model_stat(1, "reads") - before;
	EXPECT_GE(reads, 100ULL);
	EXPECT_LT(reads, 1000ULL) TH_LOG("%llu register reads in one disable", reads);
	ASSERT_EQ(put(pathf(MODEL, 1, "fault"), "none"), 0);
	EXPECT_EQ(unit_put(1, "enable", "1"), 0);
	EXPECT_EQ(unit_put(1, "enable", "0"), 0);
}

/*
 * A unit that never leaves Enabling after EN=1: the enable reports
 * -ETIMEDOUT and EN stays set (changing EN outside Idle and Running is
 * CONSTRAINED UNPREDICTABLE, RMDZDN); once the fault is gone the next
 * enable waits for Running, disables, and starts afresh.
 */
TEST_F(ete, stuck_enabling_keeps_en_until_running)
{
	unsigned long long v;
	char log[4096];

	if (!self->ready)
		return;
	ASSERT_EQ(put(pathf(MODEL, 2, "fault"), "stuck"), 0);
	EXPECT_EQ(unit_put(2, "enable", "1"), -ETIMEDOUT);
	EXPECT_EQ(unit_get_num(2, "enable", &v), 0);
	EXPECT_EQ(v, 0ULL);
	ASSERT_EQ(model_reg(2, "TRCPRGCTLR", &v), 0);
	EXPECT_EQ(v & 1, 1ULL);
	EXPECT_EQ(violations(2, log, sizeof(log)), 0) TH_LOG("%s", log);

	ASSERT_EQ(put(pathf(MODEL, 2, "fault"), "none"), 0);
	EXPECT_EQ(unit_put(2, "enable", "1"), 0);
	EXPECT_EQ(unit_put(2, "enable", "0"), 0);
	ASSERT_EQ(model_reg(2, "TRCPRGCTLR", &v), 0);
	EXPECT_EQ(v & 1, 0ULL);
	EXPECT_EQ(violations(2, log, sizeof(log)), 0) TH_LOG("%s", log);
}

/* The kernel's EL is filtered out for a user without CAP_PERFMON/SYS_ADMIN */
TEST_F(ete, default_traces_kernel_when_privileged)
{
	unsigned long long reg;
	char status[1024];

	if (!self->ready)
		return;
	ASSERT_EQ(unit_put(0, "enable", "1"), 0);
	ASSERT_EQ(model_reg(0, "TRCVICTLR", &reg), 0);
	EXPECT_EQ(reg & 0x700000, 0ULL);	/* EL0-EL2 all traced */
	EXPECT_EQ(reg & 0xff, 1ULL);	/* ViewInst: selector 1, TRUE */
	EXPECT_EQ(reg & 0x200, 0x200ULL);	/* started */
	ASSERT_EQ(model_reg(0, "TRCCONFIGR", &reg), 0);
	EXPECT_EQ(reg & 0x41, 0x41ULL);	/* RES1, context ID (the PID) */
	ASSERT_GT(get(pathf(UNIT, 0, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "kernel: traced"), NULL) TH_LOG("%s", status);
	ASSERT_EQ(unit_put(0, "enable", "0"), 0);
}

/* Drop every capability of this process (root stays owner of the files) */
static int drop_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	return syscall(SYS_capset, &hdr, data);
}

TEST_F(ete, unprivileged_enable_filters_kernel)
{
	unsigned long long reg;
	char status[1024];
	int st;
	pid_t pid;

	if (!self->ready)
		return;
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(drop_caps() || unit_put(0, "enable", "1") ? 1 : 0);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_EQ(WIFEXITED(st) && WEXITSTATUS(st) == 0, 1);
	ASSERT_EQ(model_reg(0, "TRCVICTLR", &reg), 0);
	EXPECT_EQ(reg & 0x700000, 0x600000ULL);	/* EL1, EL2 excluded */
	ASSERT_GT(get(pathf(UNIT, 0, "status"), status, sizeof(status)), 0);
	EXPECT_NE(strstr(status, "kernel: filtered out"), NULL)
		TH_LOG("%s", status);
	ASSERT_EQ(unit_put(0, "enable", "0"), 0);
}

TEST_HARNESS_MAIN
