// SPDX-License-Identifier: GPL-2.0
/*
 * etecap (tools/ete/, Documentation/user-guide-capture.rst) in the VM,
 * against the model: options it must refuse without touching a unit, a
 * refusal by the driver, the memory of a traced process against its
 * /proc/<pid>/maps, --mem images, a timed capture and ^C, SIGUSR2's
 * flight snapshots, the code of other tasks in a system-wide capture.
 *
 * The snapshots are left in /out/etecap/<test>/ (the host's
 * build/runs/<run>/etecap/), where post.d/etecap_snapshot.sh checks that
 * OpenCSD's trc_pkt_lister reads them as they are.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

/*
 * Every case runs etecap, which reads the kernel's text, the tasks' maps
 * and code, on a TCG VM that the host may be loading: the harness's 30 s
 * is too short there (seen under two busy loops on the host)
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	120
#include "ete_file_io.h"
#include "ete_model_log.h"

#define OUT	"/out/etecap"
/*
 * A capture without a command saves the code of every task alive at the
 * stop: seconds on a slow VM, system_wide_saves_code_of_other_tasks's
 * subject; the other cases leave it out
 */
#define NO_OTHERS	"--others-max", "0"
#define ETE0	"/sys/class/ete/ete0/"
#define NCPUS	4

/* Run etecap with @argv; stdout to @out (or /dev/null); its exit status */
static int etecap(const char *const *argv, const char *out)
{
	int st, fd;
	pid_t pid = fork();

	if (!pid) {
		fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 1);
		execvp("etecap", (char **)argv);
		_exit(126);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got > 0)
			n += got;
	} while (got > 0);
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static long long read_num(const char *path)
{
	char *s = slurp(path, NULL);
	long long v = s ? strtoll(s, NULL, 0) : -1;

	free(s);
	return v;
}

static int units_enabled(void)
{
	char path[64];
	int cpu, n = 0;

	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(path, sizeof(path), "/sys/class/ete/ete%d/enable", cpu);
		n += read_num(path) == 1;
	}
	return n;
}

static bool have_model(void)
{
	return !access("/dev/trbe0", F_OK) && !access(ETE0 "enable", F_OK) &&
	       !access("/sys/kernel/debug/ete_model", F_OK);
}

static const char *outdir(char *buf, const char *name)
{
	mkdir("/out", 0755);
	mkdir(OUT, 0755);
	sprintf(buf, OUT "/%s", name);
	mkdir(buf, 0755);
	return buf;
}

static unsigned long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

/*
 * Cases that start several processes or capture system-wide: on a loaded
 * VM they need more than the harness's 30 s
 */
FIXTURE(slow) {
	int unused;
};

FIXTURE_SETUP(slow)
{
}

FIXTURE_TEARDOWN(slow)
{
}

/* ------------------------------------------------------------------------
 * Options that must be refused before anything is configured
 */

struct bad_opts {
	const char *why;
	const char *argv[8];
};

static const struct bad_opts bad[] = {
	{ "unknown option", { "--bogus" } },
	{ "cpu list", { "--cpus", "x" } },
	{ "cpu range backwards", { "--cpus", "3-1" } },
	{ "cpu named twice", { "--cpus", "1,0-3" } },
	{ "cpu above any kernel's", { "--cpus", "65536" } },
	{ "mode", { "--mode", "sideways" } },
	{ "buffer not a power of two", { "--buffer-size", "3000" } },
	{ "buffer size with bad suffix", { "--buffer-size", "1Q" } },
	{ "el", { "--el", "3" } },
	{ "range backwards", { "--include", "0x2000-0x1000" } },
	{ "range without end", { "--include", "0x2000" } },
	{ "mem without address", { "--mem", "/init" } },
	{ "mem file missing", { "--mem", "/nonexistent@0x1000" } },
	{ "duration", { "--duration", "5 minutes" } },
	{ "cycle threshold", { "--cycles=5000" } },
	{ "profile with cpus", { "--profile", "p", "--cpus", "0" } },
	{ "profile with settings", { "--profile", "p", "--timestamps" } },
	{ "when-behind", { "--when-behind", "later" } },
};

TEST(options_refused_before_configuring)
{
	const char *argv[16];
	long long ts0, mode_ok;
	unsigned int i, j;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	ts0 = read_num(ETE0 "timestamp");
	mode_ok = read_num("/sys/class/trbe/trbe0/buffer_size");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		argv[0] = "etecap";
		argv[1] = "-q";
		argv[2] = "--timestamps";
		argv[3] = "--buffer-size";
		argv[4] = "8K";
		for (j = 0; bad[i].argv[j]; j++)
			argv[5 + j] = bad[i].argv[j];
		argv[5 + j] = NULL;
		/* --profile refuses the settings given before it too */
		EXPECT_EQ(2, etecap(argv, NULL)) TH_LOG("%s", bad[i].why);
	}
	/* nothing was written: not the timestamp, not the buffer size */
	EXPECT_EQ(ts0, read_num(ETE0 "timestamp"));
	EXPECT_EQ(mode_ok, read_num("/sys/class/trbe/trbe0/buffer_size"));
	EXPECT_EQ(0, units_enabled());
}

/* The driver refuses a value: exit 1, named on stderr, no session left */
TEST(driver_refusal_starts_nothing)
{
	const char *const argv[] = { "etecap", "-q", "-c", "0-3", "--cycles=1",
			       "-t", "100", NULL };
	long long min;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	min = read_num(ETE0 "caps/cc_threshold_min");
	if (min <= 1)
		SKIP(return, "the unit takes a cycle threshold of 1");
	EXPECT_EQ(1, etecap(argv, NULL));
	EXPECT_EQ(0, units_enabled());
}

/* ------------------------------------------------------------------------
 * A traced process: its executable mappings are in the snapshot
 */

static char *next_line(char *s)
{
	s = strchr(s, '\n');
	return s ? s + 1 : NULL;
}

struct mapping {
	unsigned long long start, end, off;
	char path[256];
};

static int exec_mappings(const char *maps, struct mapping *m, int max)
{
	const char *line = maps;
	char perms[8];
	int n = 0;

	while (line && *line && n < max) {
		m[n].path[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %255[^\n]", &m[n].start,
			   &m[n].end, perms, &m[n].off, m[n].path) >= 4 && strchr(perms, 'x'))
			n++;
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return n;
}

/* The bytes of @dump are the mapped file's at @m->off (as far as it goes) */
static bool same_bytes_as_file(const char *dump, const struct mapping *m)
{
	size_t dlen, i, n;
	char *d = slurp(dump, &dlen), *f;
	bool same = false;
	size_t flen;

	f = slurp(m->path, &flen);
	if (d && f && m->off < flen) {
		n = flen - m->off < dlen ? flen - m->off : dlen;
		for (i = 0; i < n && d[i] == f[m->off + i]; i++)
			;
		same = n > 0 && i == n;
	}
	free(d);
	free(f);
	return same;
}

TEST(traced_process_memory_matches_maps)
{
	char dir[128], out[160], path[256], want[256], *maps, *mem, *ini, *ctx;
	/* the kernel text is the timed capture's check: not again here */
	const char *const argv[] = { "etecap", "-q", "-c", "0-3", "-o", dir,
			       "--no-kernel", "--", "cat", "/proc/self/maps", NULL };
	struct mapping m[64], m2[64];
	int n, n2, i, pid = 0;
	char *p, *line;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "maps");
	snprintf(out, sizeof(out), "/tmp/etecap_cat_maps.txt");
	ASSERT_EQ(0, etecap(argv, out));
	maps = slurp(out, NULL);
	ASSERT_NE(NULL, maps);
	n = exec_mappings(maps, m, 64);
	ASSERT_LT(0, n);

	/* the context of the traced task: its PID, named cat */
	snprintf(path, sizeof(path), "%s/contexts.txt", dir);
	ctx = slurp(path, NULL);
	ASSERT_NE(NULL, ctx);
	for (line = ctx; line && !pid; line = next_line(line)) {
		char comm[32];
		int tid, tgid;

		if (sscanf(line, "%d %d %31s", &tid, &tgid, comm) == 3 &&
		    !strcmp(comm, "cat"))
			pid = tid;
	}
	ASSERT_NE(0, pid) TH_LOG("contexts.txt: %s", ctx);

	/* its map is kept as it was at exit */
	snprintf(path, sizeof(path), "%s/maps_%d.txt", dir, pid);
	p = slurp(path, NULL);
	ASSERT_NE(NULL, p);
	n2 = exec_mappings(p, m2, 64);
	free(p);
	EXPECT_EQ(n, n2);
	for (i = 0; i < n && i < n2; i++) {
		EXPECT_EQ(m[i].start, m2[i].start);
		EXPECT_EQ(m[i].end, m2[i].end);
	}

	/* each executable mapping is a dump of every core, with its bytes */
	snprintf(path, sizeof(path), "%s/memory.txt", dir);
	mem = slurp(path, NULL);
	ASSERT_NE(NULL, mem);
	for (i = 0; i < n; i++) {
		char file[64];
		unsigned long long len = m[i].end - m[i].start;
		int cpu, n_file;

		snprintf(want, sizeof(want), "saved 0x%llx 0x%llx ", m[i].start, len);
		p = strstr(mem, want);
		ASSERT_NE(NULL, p) TH_LOG("no region %s in memory.txt:\n%s", want, mem);
		n_file = sscanf(p + strlen(want), "%63s", file);
		ASSERT_EQ(1, n_file);
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		EXPECT_EQ(len, file_size(path));
		if (m[i].path[0] == '/')
			EXPECT_TRUE(same_bytes_as_file(path, &m[i])) TH_LOG("%s", path);
		for (cpu = 0; cpu < NCPUS; cpu++) {
			snprintf(path, sizeof(path), "%s/cpu_%d.ini", dir, cpu);
			ini = slurp(path, NULL);
			ASSERT_NE(NULL, ini);
			snprintf(want, sizeof(want), "file=%s\naddress=0x%llx\nlength=0x%llx\n",
				 file, m[i].start, len);
			EXPECT_NE(NULL, strstr(ini, want)) TH_LOG("cpu_%d.ini lacks %s", cpu, want);
			free(ini);
		}
	}
	free(mem);
	free(ctx);
	free(maps);
	EXPECT_EQ(0, units_enabled());
}

/* --mem FILE@VA is a dump at VA with FILE's bytes */
TEST(mem_image_added_to_every_core)
{
	char dir[128], path[256], *ini, *d, *f;
	const char *const argv[] = { "etecap", "-q", NO_OTHERS, "-c", "0-3",
			       "-t", "50", "--no-kernel",
			       "-o", dir, "--mem", "/init@0xffffff8000100000", NULL };
	size_t dl, fl;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "mem");
	ASSERT_EQ(0, etecap(argv, NULL));
	snprintf(path, sizeof(path), "%s/cpu_3.ini", dir);
	ini = slurp(path, NULL);
	ASSERT_NE(NULL, ini);
	/* padded to a multiple of 4 bytes */
	snprintf(path, sizeof(path),
		 "[dump0]\nfile=mem_0.bin\naddress=0xffffff8000100000\nlength=0x%llx\n",
		 (file_size("/init") + 3) & ~3ULL);
	EXPECT_NE(NULL, strstr(ini, path)) TH_LOG("%s", ini);
	snprintf(path, sizeof(path), "%s/mem_0.bin", dir);
	d = slurp(path, &dl);
	f = slurp("/init", &fl);
	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, f);
	EXPECT_EQ((fl + 3) & ~3UL, dl);
	EXPECT_EQ(0, memcmp(d, f, dl < fl ? dl : fl));
	free(d);
	free(f);
	free(ini);
}

/*
 * Buffer settings etecap is not given are the driver's defaults, not what
 * an earlier session left (a wrap-mode buffer once made a "streaming"
 * capture lap its reader); the size it is not given stays.
 */
TEST(buffer_modes_not_asked_are_defaults)
{
	static const char *const set[][2] = {
		{ "fill_mode", "wrap" }, { "when_behind", "drop" },
		{ "trigger_mode", "irq" }, { "watermark", "4096" },
	};
	static const char *const want[][2] = {
		{ "fill_mode", "fill\n" }, { "when_behind", "stop\n" },
		{ "trigger_mode", "ignore\n" }, { "watermark", "0\n" },
		{ "buffer_size", "65536\n" },
	};
	char dir[128], path[256], *s, *size;
	const char *const argv[] = { "etecap", "-q", NO_OTHERS, "-c", "1", "-t", "50",
			       "--no-kernel", "-o", dir, NULL };
	unsigned int i;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "defaults");
	size = slurp("/sys/class/trbe/trbe1/buffer_size", NULL);
	ASSERT_NE(NULL, size);
	ASSERT_EQ(0, put("/sys/class/trbe/trbe1/buffer_size", "65536"));
	for (i = 0; i < ARRAY_SIZE(set); i++) {
		snprintf(path, sizeof(path), "/sys/class/trbe/trbe1/%s", set[i][0]);
		ASSERT_EQ(0, put(path, set[i][1])) TH_LOG("%s", path);
	}
	ASSERT_EQ(0, etecap(argv, NULL));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		snprintf(path, sizeof(path), "/sys/class/trbe/trbe1/%s", want[i][0]);
		s = slurp(path, NULL);
		ASSERT_NE(NULL, s);
		EXPECT_STREQ(want[i][1], s) TH_LOG("%s", path);
		free(s);
	}
	snprintf(path, sizeof(path), "%s/gaps_cpu1.txt", dir);
	EXPECT_EQ(0ULL, file_size(path)) TH_LOG("a fill-mode capture of 50 ms has no gap");
	EXPECT_EQ(0, put("/sys/class/trbe/trbe1/buffer_size", size));
	free(size);
}

/* A timed capture on 4 CPUs: trace on each, every unit's registers saved */
TEST(timed_capture_writes_snapshot)
{
	char dir[128], path[256], *s;
	/*
	 * the kernel's text is this test's; the other tasks' code (a slow
	 * VM's seconds more) is system_wide_saves_code_of_other_tasks's
	 */
	const char *const argv[] = { "etecap", "-q", "-c", "0-3", "-t", "300",
			       "--timestamps", "--others-max", "0", "-o", dir,
			       NULL };
	unsigned long long configr;
	int cpu;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "timed");
	ASSERT_EQ(0, etecap(argv, NULL));
	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/trace_cpu%d.bin", dir, cpu);
		EXPECT_LT(0ULL, file_size(path)) TH_LOG("cpu%d: no trace", cpu);
		snprintf(path, sizeof(path), "%s/ETE_%d.ini", dir, cpu);
		s = slurp(path, NULL);
		ASSERT_NE(NULL, s);
		EXPECT_NE(NULL, strstr(s, "TRCIDR0=0x"));
		EXPECT_NE(NULL, strstr(s, "TRCCONFIGR=0x"));
		EXPECT_NE(NULL, strstr(s, "TRCTRACEIDR=0x"));
		EXPECT_NE(NULL, strstr(s, "TRCDEVARCH=0x"));
		/* TRCCONFIGR.TS (bit 11) as asked */
		configr = strtoull(strstr(s, "TRCCONFIGR=") + 11, NULL, 0);
		EXPECT_EQ(1ULL << 11, configr & (1ULL << 11));
		free(s);
	}
	snprintf(path, sizeof(path), "%s/kernel.txt", dir);
	s = slurp(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "kaslr_offset=0x")) TH_LOG("%s", s);
	/* the rig kernel has /proc/kcore: the text is saved (checked against
	 * vmlinux on the host, post.d/etecap_snapshot.sh)
	 */
	EXPECT_NE(NULL, strstr(s, "kcore=yes")) TH_LOG("%s", s);
	free(s);
	/* no command: no traced task, but every task alive is named */
	snprintf(path, sizeof(path), "%s/contexts.txt", dir);
	s = slurp(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "# other tasks alive at the stop\n"));
	EXPECT_NE(NULL, strstr(s, "\n1 1 ")) TH_LOG("no line for PID 1: %s", s);
	free(s);
	EXPECT_EQ(0, units_enabled());
}

/* 1: a trace file with trace; 0: none; -1: an empty one */
static int traced(const char *path)
{
	return file_size(path) ? 1 : access(path, F_OK) ? 0 : -1;
}

/*
 * Any CPU set: a sparse -c traces those CPUs only, and with no -c etecap
 * traces the CPUs online, not 0 to n-1 (CPU 2 offline: 0, 1 and 3).
 */
TEST(sparse_and_online_cpus)
{
	char dir[128], path[256], *ini;
	const char *const sparse[] = { "etecap", "-q", NO_OTHERS, "-c", "1,3", "-t", "100",
				       "--no-kernel", "-o", dir, NULL };
	const char *const online[] = { "etecap", "-q", NO_OTHERS, "-t", "100",
				       "--no-kernel", "-o", dir, NULL };
	int cpu, rc;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "sparse");
	ASSERT_EQ(0, etecap(sparse, NULL));
	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/trace_cpu%d.bin", dir, cpu);
		EXPECT_EQ(cpu % 2, traced(path)) TH_LOG("cpu%d", cpu);
	}
	snprintf(path, sizeof(path), "%s/snapshot.ini", dir);
	ini = slurp(path, NULL);
	ASSERT_NE(NULL, ini);
	EXPECT_NE(NULL, strstr(ini, "cpu_1.ini"));
	EXPECT_NE(NULL, strstr(ini, "cpu_3.ini"));
	EXPECT_EQ(NULL, strstr(ini, "cpu_0.ini"));
	EXPECT_EQ(NULL, strstr(ini, "cpu_2.ini"));
	free(ini);

	ASSERT_EQ(0, put("/sys/devices/system/cpu/cpu2/online", "0"));
	outdir(dir, "online");
	rc = etecap(online, NULL);
	EXPECT_EQ(0, put("/sys/devices/system/cpu/cpu2/online", "1"));
	ASSERT_EQ(0, rc);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/trace_cpu%d.bin", dir, cpu);
		EXPECT_EQ(cpu != 2, traced(path)) TH_LOG("cpu%d", cpu);
	}
	EXPECT_EQ(0, units_enabled());
}

/* TRCCONFIGR= of CPU @cpu's ETE_<cpu>.ini in @dir, or -1 */
static long long ini_configr(const char *dir, int cpu)
{
	char path[256], *ini, *p;
	long long v = -1;

	snprintf(path, sizeof(path), "%s/ETE_%d.ini", dir, cpu);
	ini = slurp(path, NULL);
	p = ini ? strstr(ini, "TRCCONFIGR=") : NULL;
	if (p)
		v = strtoll(p + strlen("TRCCONFIGR="), NULL, 0);
	free(ini);
	return v;
}

/*
 * -a traces the online CPUs, system-wide (CPU 2 offline: 0, 1 and 3), and
 * --preset flight's settings reach the units: timestamps and the return
 * stack in TRCCONFIGR (TS, bit 11; RS, bit 12); neither without a preset
 * on units reset to their defaults
 */
TEST(all_cpus_with_preset)
{
	char dir[128], path[256];
	const char *const all[] = { "etecap", "-q", NO_OTHERS, "-a", "--preset", "flight",
				    "-t", "100", "--no-kernel", "-o", dir,
				    NULL };
	const char *const plain[] = { "etecap", "-q", NO_OTHERS, "-a", "-t", "100",
				      "--no-kernel", "-o", dir, NULL };
	int cpu, rc;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	ASSERT_EQ(0, put("/sys/devices/system/cpu/cpu2/online", "0"));
	outdir(dir, "all");
	rc = etecap(all, NULL);
	EXPECT_EQ(0, put("/sys/devices/system/cpu/cpu2/online", "1"));
	ASSERT_EQ(0, rc);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/trace_cpu%d.bin", dir, cpu);
		EXPECT_EQ(cpu != 2, traced(path)) TH_LOG("cpu%d", cpu);
		if (cpu != 2)
			EXPECT_EQ(3LL << 11, ini_configr(dir, cpu) & (3LL << 11))
				TH_LOG("cpu%d TRCCONFIGR 0x%llx", cpu,
				       ini_configr(dir, cpu));
	}
	/* etecap leaves what it was not asked to set: the units' defaults */
	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(path, sizeof(path), "/sys/class/ete/ete%d/reset", cpu);
		EXPECT_EQ(0, put(path, "1"));
	}
	outdir(dir, "all_plain");
	ASSERT_EQ(0, etecap(plain, NULL));
	EXPECT_EQ(0, ini_configr(dir, 0) & (3LL << 11));
	EXPECT_EQ(0, units_enabled());
}

#define MODEL_CID(cpu)	"/sys/kernel/debug/ete_model/cpu" #cpu "/context_id"

/*
 * --comm and --pid trace only the named task: the model's program runs as
 * a process of this test on CPU 0 (its PID as the context ID) and as PID
 * 1 on CPU 1, so CPU 0 has trace and CPU 1 none (caps/pid_context "cid":
 * the rig's kernel runs at EL1 with CONFIG_PID_IN_CONTEXTIDR)
 */
TEST_F_TIMEOUT(slow, pid_and_comm_filters, 120)
{
	char dir[128], path[256], pid[16], where[16], cmd[160];
	const char *const by_comm[] = { "etecap", "-q", "-c", "0,1", "--comm",
					"ete_pidf", "-t", "100", "--no-kernel",
					"-o", dir, NULL };
	const char *const by_pid[] = { "etecap", "-q", "-c", "0,1", "--pid",
				       pid, "-t", "100", "--no-kernel", "-o",
				       dir, NULL };
	const char *const *runs[] = { by_comm, by_pid };
	pid_t child;
	int i, rc;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	ASSERT_GT(get(ETE0 "caps/pid_context", where, sizeof(where)), 0);
	EXPECT_STREQ("cid\n", where);
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		prctl(PR_SET_NAME, "ete_pidf");
		pause();
		_exit(0);
	}
	usleep(100000);		/* its name set */
	snprintf(pid, sizeof(pid), "%d", child);
	ASSERT_EQ(0, put(MODEL_CID(0), pid));
	ASSERT_EQ(0, put(MODEL_CID(1), "1"));
	for (i = 0; i < 2; i++) {
		outdir(dir, i ? "pid" : "comm");
		rc = etecap(runs[i], NULL);
		EXPECT_EQ(0, rc) TH_LOG("%s", i ? "--pid" : "--comm");
		snprintf(path, sizeof(path), "%s/trace_cpu0.bin", dir);
		EXPECT_GT(file_size(path), 0ULL) TH_LOG("%s cpu0", runs[i][4]);
		snprintf(path, sizeof(path), "%s/trace_cpu1.bin", dir);
		EXPECT_EQ(0ULL, file_size(path)) TH_LOG("%s cpu1", runs[i][4]);
		/* not for post.d/etecap_snapshot.sh: an empty buffer */
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		EXPECT_EQ(0, system(cmd));
	}
	put(MODEL_CID(0), "4096");
	put(MODEL_CID(1), "4097");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	EXPECT_EQ(0, units_enabled());
}

/* The "Name:"-style field @key of /proc/@pid/status, or "" */
static void task_status(pid_t pid, const char *key, char *out, size_t len)
{
	char path[64], line[256];
	FILE *f;

	out[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			snprintf(out, len, "%s", line + strlen(key) +
				 strspn(line + strlen(key), " \t"));
	if (f)
		fclose(f);
	out[strcspn(out, "\n")] = 0;
}

/*
 * -p --all-tasks attaches to a running process and filters on its context
 * ID: only it traced (the model's program
 * runs as it on CPU 0, as PID 1 on CPU 1), its maps and its line in the
 * traced part of contexts.txt saved, and it is left running and no longer
 * traced when etecap ends
 */
TEST_F_TIMEOUT(slow, attach_running_process, 120)
{
	char dir[128], path[256], pid[16], want[64], state[64], tracer[32];
	const char *const argv[] = { "etecap", "-q", "-c", "0,1", "-p", pid,
				     "--all-tasks", "-t", "200", "--no-kernel",
				     "-o", dir, NULL };
	char *ctx;
	pid_t child;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		prctl(PR_SET_NAME, "ete_att");
		for (;;)
			pause();
	}
	usleep(100000);
	snprintf(pid, sizeof(pid), "%d", child);
	ASSERT_EQ(0, put(MODEL_CID(0), pid));
	ASSERT_EQ(0, put(MODEL_CID(1), "1"));
	outdir(dir, "attach");
	EXPECT_EQ(0, etecap(argv, NULL));
	snprintf(path, sizeof(path), "%s/trace_cpu0.bin", dir);
	EXPECT_GT(file_size(path), 0ULL);
	snprintf(path, sizeof(path), "%s/trace_cpu1.bin", dir);
	EXPECT_EQ(0ULL, file_size(path));
	snprintf(path, sizeof(path), "%s/maps_%d.txt", dir, child);
	EXPECT_GT(file_size(path), 0ULL) TH_LOG("%s", path);

	snprintf(path, sizeof(path), "%s/contexts.txt", dir);
	ctx = slurp(path, NULL);
	ASSERT_NE(NULL, ctx);
	snprintf(want, sizeof(want), "\n%d %d ete_att\n", child, child);
	EXPECT_NE(NULL, strstr(ctx, want)) TH_LOG("%s", ctx);
	/* in the traced part, before the other tasks */
	EXPECT_TRUE(strstr(ctx, want) && strstr(ctx, "# other tasks") &&
		    strstr(ctx, want) < strstr(ctx, "# other tasks"));
	free(ctx);
	task_status(child, "State:", state, sizeof(state));
	task_status(child, "TracerPid:", tracer, sizeof(tracer));
	EXPECT_EQ('S', state[0]) TH_LOG("state %s", state);
	EXPECT_STREQ("0", tracer);
	put(MODEL_CID(0), "4096");
	put(MODEL_CID(1), "4097");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	EXPECT_EQ(0, system(path));
	EXPECT_EQ(0, units_enabled());
}

#define MODEL_CID_TICKS	"/sys/kernel/debug/ete_model/cpu0/cid_ticks"
#define FAMILY_SLEEPERS	11

static void *sleeps(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

static void *spins(void *arg)
{
	unsigned long n = 0;

	for (;;)
		__atomic_store_n(&n, n + 1, __ATOMIC_RELAXED);
	return NULL;
}

static void pin0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The thread IDs of @pid (at most @max); their number */
static int threads_of(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	while (dir && n < max && (d = readdir(dir)))
		if (d->d_name[0] != '.')
			tids[n++] = atoi(d->d_name);
	if (dir)
		closedir(dir);
	return n;
}

/* A child of @parent (by /proc/PID/status's PPid), or 0 */
static pid_t child_of(pid_t parent)
{
	char ppid[32];
	struct dirent *d;
	pid_t found = 0;
	DIR *dir;

	dir = opendir("/proc");
	while (dir && !found && (d = readdir(dir))) {
		pid_t pid = atoi(d->d_name);

		if (pid <= 0)
			continue;
		task_status(pid, "PPid:", ppid, sizeof(ppid));
		if (atoi(ppid) == parent)
			found = pid;
	}
	if (dir)
		closedir(dir);
	return found;
}

/*
 * -p in task mode (issue 34): a process of 12 threads, more than the 8
 * context ID comparators, all on CPU 0 beside a busy stranger.  Once
 * etecap has attached it starts one more spinning thread and forks a
 * spinning child.  The model counts the ticks that made trace by the
 * context ID (the PID) of the task they interrupted: the process's
 * threads, the late thread and the child are there, the stranger is not,
 * and the child's code is saved.  etecap before task mode refused the
 * process (more threads than comparators).
 */
TEST_F_TIMEOUT(slow, attach_follows_threads_in_task_mode, 150)
{
	char dir[128], path[256], pid[16], line[64];
	const char *const argv[] = { "etecap", "-q", "-c", "0", "-p", pid,
				     "--no-kernel", "-o", dir, NULL };
	pid_t child, stranger, cap, grandchild = 0, late = 0, tids[32];
	unsigned long ticks, ours_late = 0, ours_child = 0;
	struct pollfd pfd = { .events = POLLIN };
	int n, i, st = -1, made[2];
	unsigned int cid;
	FILE *f;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	if (access(MODEL_CID_TICKS, W_OK))
		SKIP(return, "the model has no cid_ticks");
	ASSERT_EQ(0, pipe(made));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		char tracer[32] = "0";
		pthread_t th;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin0();
		for (i = 0; i < FAMILY_SLEEPERS; i++)
			pthread_create(&th, NULL, sleeps, NULL);
		/* until etecap has attached (at most 30 s) */
		for (i = 0; i < 300 && !strcmp(tracer, "0"); i++) {
			usleep(100000);
			task_status(getpid(), "TracerPid:", tracer,
				    sizeof(tracer));
		}
		pthread_create(&th, NULL, spins, NULL);
		if (!fork()) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			spins(NULL);
		}
		if (write(made[1], "x", 1) != 1)
			_exit(1);
		spins(NULL);
	}
	close(made[1]);
	for (i = 0; i < 100 && threads_of(child, tids, 32) < 1 + FAMILY_SLEEPERS;
	     i++)
		usleep(50000);
	stranger = fork();
	ASSERT_GE(stranger, 0);
	if (!stranger) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin0();
		spins(NULL);
	}
	ASSERT_EQ(0, put(MODEL_CID_TICKS, "1"));
	snprintf(pid, sizeof(pid), "%d", child);
	outdir(dir, "attach_task");
	cap = fork();
	ASSERT_GE(cap, 0);
	if (!cap) {
		execvp("etecap", (char **)argv);
		_exit(126);
	}
	/* the late thread and the child made, then until each has ticks */
	pfd.fd = made[0];
	EXPECT_EQ(1, poll(&pfd, 1, 30000)) TH_LOG("no attach seen in 30 s");
	close(made[0]);
	n = threads_of(child, tids, 32);
	EXPECT_EQ(2 + FAMILY_SLEEPERS, n);
	grandchild = child_of(child);
	EXPECT_LT(0, grandchild);
	/* the thread started after the attach: the newest, the highest TID */
	for (i = 0; i < n; i++)
		late = tids[i] > late ? tids[i] : late;
	for (i = 0; i < 300 && (ours_late < 5 || ours_child < 5); i++) {
		usleep(100000);
		f = fopen(MODEL_CID_TICKS, "r");
		while (f && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%x %lu", &cid, &ticks) != 2)
				continue;
			if (cid == (unsigned int)late)
				ours_late = ticks;
			if (grandchild && cid == (unsigned int)grandchild)
				ours_child = ticks;
		}
		if (f)
			fclose(f);
	}
	kill(cap, SIGINT);
	waitpid(cap, &st, 0);
	put(MODEL_CID_TICKS, "0");
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st)) TH_LOG("etecap: status %#x", st);
	EXPECT_LE(5UL, ours_late) TH_LOG("the thread started after the attach");
	EXPECT_LE(5UL, ours_child) TH_LOG("the child forked after the attach");
	snprintf(path, sizeof(path), "%s/trace_cpu0.bin", dir);
	EXPECT_LT(0ULL, file_size(path));
	f = fopen(MODEL_CID_TICKS, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		bool ours;

		if (sscanf(line, "%x %lu", &cid, &ticks) != 2)
			continue;
		ours = cid == (unsigned int)grandchild;
		for (i = 0; i < n; i++)
			ours |= cid == (unsigned int)tids[i];
		EXPECT_TRUE(ours) TH_LOG("cid 0x%x: %lu ticks (process %d, child %d, stranger %d)",
					 cid, ticks, child, grandchild, stranger);
	}
	fclose(f);
	snprintf(path, sizeof(path), "%s/maps_%d.txt", dir, grandchild);
	EXPECT_LT(0ULL, file_size(path)) TH_LOG("%s", path);
	kill(stranger, SIGKILL);
	waitpid(stranger, NULL, 0);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	EXPECT_EQ(0, system(path));
	EXPECT_EQ(0, units_enabled());
}

/*
 * etecap -- CMD in task mode (issue 34), its workload this program again
 * (ETECAP_TEST_WORKLOAD=FILE in its environment): the main thread on
 * CPU 1 beside a busy stranger, then 32 threads and a forked child on
 * CPU 2, then the main thread on CPU 3.  Each step lasts until the model
 * has counted ticks that made trace for each of its tasks on that CPU
 * (cid_ticks: the context ID, the PID, of the task a tick interrupted), so
 * the host's load changes the time, not the outcome.  FILE gets "pid P",
 * "thread T" and "child C" lines, FILE.tracer its TracerPid at the start.
 * Its exit status: 0, or 1 when a step saw no trace in 60 s.
 */
#define WORKLOAD_THREADS	32
#define MODEL_PROGRAM		"/sys/kernel/debug/ete_model/program/"

static bool workload_stop;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Ticks of context ID @cid in CPU @cpu's cid_ticks */
static unsigned long ticks_of(int cpu, pid_t cid)
{
	unsigned long ticks, got = 0;
	char path[64], line[64];
	unsigned int c;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/ete_model/cpu%d/cid_ticks", cpu);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %lu", &c, &ticks) == 2 && c == (unsigned int)cid)
			got = ticks;
	if (f)
		fclose(f);
	return got;
}

static void *workload_thread(void *arg)
{
	pid_t *tid = arg;

	*tid = gettid();
	pin(2);
	while (!__atomic_load_n(&workload_stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

/* Spin until every one of @n tasks has 3 ticks on @cpu (60 s at most) */
static bool spin_until_traced(int cpu, const pid_t *tasks, int n)
{
	time_t end = time(NULL) + 60;
	unsigned long k;
	int i;

	do {
		for (i = 0; i < n; i++)
			if (!tasks[i] || ticks_of(cpu, tasks[i]) < 3)
				break;
		if (i == n)
			return true;
		for (k = 0; k < 2000000; k++)
			__atomic_store_n(&workload_stop, false, __ATOMIC_RELAXED);
	} while (time(NULL) < end);
	return false;
}

__attribute__((constructor)) static void workload(void)
{
	const char *out = getenv("ETECAP_TEST_WORKLOAD");
	pid_t self = getpid(), tids[WORKLOAD_THREADS] = { 0 }, child;
	char tracer_path[256], tracer[32] = "?";
	pthread_t th[WORKLOAD_THREADS];
	bool ok;
	FILE *f;
	int i;

	if (!out)
		return;
	/* who traces the command: etecap under ptrace, nobody with events */
	snprintf(tracer_path, sizeof(tracer_path), "%s.tracer", out);
	task_status(self, "TracerPid:", tracer, sizeof(tracer));
	f = fopen(tracer_path, "w");
	if (f) {
		fprintf(f, "%s\n", tracer);
		fclose(f);
	}
	pin(1);
	ok = spin_until_traced(1, &self, 1);
	for (i = 0; i < WORKLOAD_THREADS; i++)
		pthread_create(&th[i], NULL, workload_thread, &tids[i]);
	child = fork();
	if (!child) {
		pin(2);
		for (;;)
			;
	}
	ok &= spin_until_traced(2, tids, WORKLOAD_THREADS);
	ok &= spin_until_traced(2, &child, 1);
	pin(3);
	ok &= spin_until_traced(3, &self, 1);
	__atomic_store_n(&workload_stop, true, __ATOMIC_RELAXED);
	for (i = 0; i < WORKLOAD_THREADS; i++)
		pthread_join(th[i], NULL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	f = fopen(out, "w");
	if (f) {
		fprintf(f, "pid %d\n", self);
		for (i = 0; i < WORKLOAD_THREADS; i++)
			fprintf(f, "thread %d\n", tids[i]);
		fprintf(f, "child %d\n", child);
		ok &= !fclose(f);
	}
	_exit(ok && f ? 0 : 1);
}

/*
 * How etecap took the command's code (etecap.txt's code=): from perf's
 * records where the kernel has perf events (the rig's kernels do, as
 * distribution kernels), the command never stopped by a tracer (its
 * TracerPid, in @tasks.tracer, 0); under ptrace otherwise.
 */
static void code_path_seen(struct __test_metadata *_metadata, const char *dir,
			   const char *tasks)
{
	bool events = !access("/proc/sys/kernel/perf_event_paranoid", F_OK);
	char path[256], *s, *t;

	snprintf(path, sizeof(path), "%s/etecap.txt", dir);
	s = slurp(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, events ? "\ncode=perf-events\n" : "\ncode=ptrace"))
		TH_LOG("perf events %s; etecap.txt:\n%s", events ? "on" : "off", s);
	free(s);
	snprintf(path, sizeof(path), "%s.tracer", tasks);
	t = slurp(path, NULL);
	ASSERT_NE(NULL, t) TH_LOG("the workload wrote no %s", path);
	EXPECT_EQ(events, !strcmp(t, "0\n")) TH_LOG("the command's TracerPid: %s", t);
	free(t);
	unlink(path);
}

/*
 * etecap -- CMD: the command's 33 tasks are traced on every CPU they ran
 * on, and nothing else is, though a stranger spins beside them on CPU 1
 * and CPU 2.  The model's count of ticks that made trace holds only the
 * command's context IDs; the snapshot stays in /out/etecap/cmd_task/ with
 * expected_tasks.txt (the workload's FILE), where post.d/etecap_snapshot.sh
 * decodes it: every context ID in the trace is one of those tasks, each
 * of them is in it, the main thread on CPUs 1 and 3.  With --all-tasks
 * (etecap before task mode) the stranger is in both.
 */
TEST_F_TIMEOUT(slow, cmd_traced_alone_with_its_threads_and_child, 300)
{
	char dir[128], path[256], tasks[192], exe[256], line[64];
	char mem[8][192], name[64], va[32];
	const char *argv[32] = { "etecap", "-q", "-c", "1-3", "--no-kernel",
				 "-o", dir };
	int cpu, i, st, argc = 7, allowed_n = 0;
	unsigned int cid, allowed[WORKLOAD_THREADS + 2];
	pid_t strangers[2];
	unsigned long ticks;
	ssize_t n;
	FILE *f;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	if (access(MODEL_CID_TICKS, W_OK))
		SKIP(return, "the model has no cid_ticks");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	/* the trace is the model's program: its images, as the e2e cases */
	f = fopen(MODEL_PROGRAM "layout", "r");
	ASSERT_NE(NULL, f);
	for (i = 0; i < 8 && fscanf(f, "%63s %31s %*s", name, va) == 2; i++) {
		snprintf(mem[i], sizeof(mem[i]), MODEL_PROGRAM "%s.bin@%s", name, va);
		argv[argc++] = "--mem";
		argv[argc++] = mem[i];
	}
	fclose(f);
	argv[argc++] = "--";
	argv[argc++] = exe;
	argv[argc] = NULL;
	for (i = 0; i < 2; i++) {
		strangers[i] = fork();
		ASSERT_GE(strangers[i], 0);
		if (!strangers[i]) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			pin(1 + i);
			spins(NULL);
		}
	}
	for (cpu = 1; cpu <= 3; cpu++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/ete_model/cpu%d/cid_ticks", cpu);
		ASSERT_EQ(0, put(path, "1"));
	}
	outdir(dir, "cmd_task");
	snprintf(tasks, sizeof(tasks), "%s.tasks", dir);
	unlink(tasks);
	setenv("ETECAP_TEST_WORKLOAD", tasks, 1);
	pin0();
	st = etecap(argv, NULL);
	unsetenv("ETECAP_TEST_WORKLOAD");
	EXPECT_EQ(0, st) TH_LOG("etecap (the workload's status when it fails)");
	for (i = 0; i < 2; i++) {
		kill(strangers[i], SIGKILL);
		waitpid(strangers[i], NULL, 0);
	}
	f = fopen(tasks, "r");
	ASSERT_NE(NULL, f) TH_LOG("the workload wrote no %s", tasks);
	while (allowed_n < WORKLOAD_THREADS + 2 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %u", &allowed[allowed_n]) == 1)
			allowed_n++;
	fclose(f);
	EXPECT_EQ(WORKLOAD_THREADS + 2, allowed_n);
	for (cpu = 1; cpu <= 3; cpu++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/ete_model/cpu%d/cid_ticks", cpu);
		f = fopen(path, "r");
		ASSERT_NE(NULL, f);
		while (fgets(line, sizeof(line), f)) {
			bool ours = false;

			if (sscanf(line, "%x %lu", &cid, &ticks) != 2)
				continue;
			for (i = 0; i < allowed_n; i++)
				ours |= cid == allowed[i];
			EXPECT_TRUE(ours)
				TH_LOG("CPU %d: cid 0x%x: %lu ticks, %s (strangers %d, %d)",
				       cpu, cid, ticks, "not the command's",
				       strangers[0], strangers[1]);
		}
		fclose(f);
		put(path, "0");
	}
	snprintf(path, sizeof(path), "%s/maps_%u.txt", dir, allowed[allowed_n - 1]);
	EXPECT_LT(0ULL, file_size(path)) TH_LOG("the child's maps: %s", path);
	code_path_seen(_metadata, dir, tasks);
	snprintf(path, sizeof(path), "%s/expected_tasks.txt", dir);
	EXPECT_EQ(0, rename(tasks, path));
	EXPECT_EQ(0, units_enabled());
}

/*
 * -p, the process exits during the capture: its code is saved at its exit
 * (gone by the stop) and etecap ends then, not at -t: its etecap.txt
 * says why it ended (ended=tasks, not duration), however long the host
 * took
 */
TEST_F_TIMEOUT(slow, attach_ends_with_the_process, 120)
{
	char dir[128], path[256], pid[16], *s;
	const char *const argv[] = { "etecap", "-q", "-c", "0", "-p", pid,
				     "-t", "20000", "--no-kernel", "-o", dir,
				     NULL };
	pid_t child;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		char tracer[32] = "0";
		int i;

		prctl(PR_SET_NAME, "ete_att_exit");
		/* until etecap has attached (at most 15 s), then 1 s more */
		for (i = 0; i < 150 && !strcmp(tracer, "0"); i++) {
			usleep(100000);
			task_status(getpid(), "TracerPid:", tracer,
				    sizeof(tracer));
		}
		usleep(1000000);
		_exit(0);
	}
	snprintf(pid, sizeof(pid), "%d", child);
	outdir(dir, "attach_exit");
	EXPECT_EQ(0, etecap(argv, NULL));
	waitpid(child, NULL, 0);
	snprintf(path, sizeof(path), "%s/etecap.txt", dir);
	s = slurp(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "\nended=tasks\n")) TH_LOG("etecap.txt:\n%s", s);
	free(s);
	snprintf(path, sizeof(path), "%s/maps_%d.txt", dir, child);
	EXPECT_GT(file_size(path), 0ULL) TH_LOG("%s", path);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	EXPECT_EQ(0, system(path));
	EXPECT_EQ(0, units_enabled());
}

/* The last "SIGUSR2" in @s, or NULL */
static char *strrstr_usr2(char *s)
{
	char *last = NULL;

	while ((s = strstr(s, "SIGUSR2")))
		last = s++;
	return last;
}

/* etecap with its stderr in @err: the exit status */
static int etecap_stderr(const char *const *argv, const char *err)
{
	int st, fd;
	pid_t pid = fork();

	if (!pid) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execvp("etecap", (char **)argv);
		_exit(126);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * -o DIR changes only when a capture is complete: a run that fails, before
 * or after configuring, leaves the snapshot there as it was and no DIR.tmp;
 * a complete one keeps the earlier snapshot as DIR.old.
 */
TEST(snapshot_replaced_only_when_complete)
{
	char dir[128], path[512], err[] = OUT "/keep.err", *first, *s;
	const char *const ok[] = { "etecap", "-q", NO_OTHERS, "-c", "0", "-t", "50",
				   "--no-kernel", "-o", dir, NULL };
	const char *const no_unit[] = { "etecap", "-q", NO_OTHERS, "-c", "0,7", "-t", "50",
					"--no-kernel", "-o", dir, NULL };
	const char *const refused[] = { "etecap", "-q", NO_OTHERS, "-c", "0", "--cycles=1",
					"-t", "50", "--no-kernel", "-o", dir,
					NULL };

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "keep");
	snprintf(path, sizeof(path), "rm -rf %s %s.old %s.tmp", dir, dir, dir);
	ASSERT_EQ(0, system(path));
	ASSERT_EQ(0, etecap(ok, NULL));
	snprintf(path, sizeof(path), "%s/etecap.txt", dir);
	first = slurp(path, NULL);
	ASSERT_NE(NULL, first);

	/* no trace unit for CPU 7: refused before anything is written */
	EXPECT_EQ(1, etecap_stderr(no_unit, err));
	s = slurp(err, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "cpu7 has no trace unit")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "load ete.ko")) TH_LOG("%s", s);
	free(s);
	/* the driver refuses a value: after DIR.tmp was made */
	if (read_num(ETE0 "caps/cc_threshold_min") > 1)
		EXPECT_EQ(1, etecap(refused, NULL));
	s = slurp(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ(first, s);
	free(s);
	snprintf(path, sizeof(path), "%s.tmp", dir);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s left behind", path);
	snprintf(path, sizeof(path), "%s.old", dir);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s made by a failed run", path);

	/* a complete run: the first snapshot becomes DIR.old */
	ASSERT_EQ(0, etecap(ok, NULL));
	snprintf(path, sizeof(path), "%s.old/etecap.txt", dir);
	s = slurp(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ(first, s);
	free(s);
	snprintf(path, sizeof(path), "%s/trace_cpu0.bin", dir);
	EXPECT_LT(0ULL, file_size(path));
	snprintf(path, sizeof(path), "%s.tmp", dir);
	EXPECT_NE(0, access(path, F_OK));
	free(first);
	EXPECT_EQ(0, units_enabled());
}

/*
 * ^C ends the capture and still writes a complete snapshot; the command
 * is ended then (SIGTERM), not waited for: etecap.txt says so, however
 * long the host took
 */
TEST(sigint_still_writes_snapshot)
{
	char dir[128], path[256], *s;
	/* every task: the sleeping command alone would leave no trace */
	const char *const argv[] = { "etecap", "-q", "-c", "0-3", "-o", dir,
			       "--no-kernel", "--all-tasks", "--", "sleep", "30",
			       NULL };
	int st, cpu, i;
	pid_t pid;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "sigint");
	pid = fork();
	if (!pid) {
		execvp("etecap", (char **)argv);
		_exit(126);
	}
	ASSERT_LT(0, pid);
	/* ^C once the session runs, and some trace came */
	for (i = 0; i < 200 && units_enabled() < NCPUS; i++)
		usleep(50000);
	EXPECT_EQ(NCPUS, units_enabled());
	usleep(200000);
	kill(pid, SIGINT);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/trace_cpu%d.bin", dir, cpu);
		EXPECT_LT(0ULL, file_size(path));
	}
	snprintf(path, sizeof(path), "%s/etecap.txt", dir);
	s = slurp(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "interrupted=")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "\nended=signal\n")) TH_LOG("%s", s);
	/*
	 * the command was ended (SIGTERM, or SIGKILL 2 s later), not waited
	 * for (command_exit=0)
	 */
	EXPECT_NE(NULL, strstr(s, "\ncommand_signal="))
		TH_LOG("the command was waited for: %s", s);
	EXPECT_EQ(NULL, strstr(s, "\ncommand_exit="));
	free(s);
	snprintf(path, sizeof(path), "%s/trace.ini", dir);
	EXPECT_LT(0ULL, file_size(path));
	snprintf(path, sizeof(path), "%s/snapshot.ini", dir);
	EXPECT_LT(0ULL, file_size(path));
	EXPECT_EQ(0, units_enabled());
}

/* ------------------------------------------------------------------------
 * A configfs profile (issue 9) selects the CPUs and the settings
 */

#define PROFILE	"/sys/kernel/config/ete/profiles/etecap_test"

TEST(profile_selects_cpus_and_settings)
{
	char dir[128], path[256], *s;
	const char *const argv[] = { "etecap", "-q", NO_OTHERS, "-P", "etecap_test", "-t", "200",
				     "--no-kernel", "-o", dir, NULL };
	unsigned long long configr;
	int cpu;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	if (access("/sys/kernel/config/ete/profiles", F_OK))
		SKIP(return, "no configfs profiles in this ete.ko");
	outdir(dir, "profile");
	rmdir(PROFILE);
	ASSERT_EQ(0, mkdir(PROFILE, 0755));
	ASSERT_EQ(0, put(PROFILE "/cpus", "1-2"));
	ASSERT_EQ(0, put(PROFILE "/timestamp", "1"));
	EXPECT_EQ(0, etecap(argv, NULL));
	EXPECT_EQ(0, read_num(PROFILE "/active"));
	for (cpu = 1; cpu <= 2; cpu++) {
		snprintf(path, sizeof(path), "%s/trace_cpu%d.bin", dir, cpu);
		EXPECT_LT(0ULL, file_size(path)) TH_LOG("cpu%d: no trace", cpu);
		snprintf(path, sizeof(path), "%s/ETE_%d.ini", dir, cpu);
		s = slurp(path, NULL);
		ASSERT_NE(NULL, s);
		configr = strtoull(strstr(s, "TRCCONFIGR=") + 11, NULL, 0);
		EXPECT_EQ(1ULL << 11, configr & (1ULL << 11));
		free(s);
	}
	/* only the profile's CPUs are in the snapshot */
	snprintf(path, sizeof(path), "%s/trace_cpu0.bin", dir);
	EXPECT_EQ(-1, access(path, F_OK));
	EXPECT_EQ(0, rmdir(PROFILE));
	EXPECT_EQ(0, units_enabled());
}

/* ------------------------------------------------------------------------
 * Flight recorder: SIGUSR2 writes DIR.N and the trace goes on (issue 18)
 */

/* The "cpu<cpu>_stream=START END" of @dir's etecap.txt; false if none */
static bool stream_range(const char *dir, int cpu, unsigned long long *start,
			 unsigned long long *end)
{
	char path[512], key[32], *s, *p;
	bool ok = false;

	snprintf(path, sizeof(path), "%s/etecap.txt", dir);
	s = slurp(path, NULL);
	snprintf(key, sizeof(key), "cpu%d_stream=", cpu);
	p = s ? strstr(s, key) : NULL;
	if (p)
		ok = sscanf(p + strlen(key), "%llu %llu", start, end) == 2;
	free(s);
	return ok;
}

/* Wait (bounded, not timed) for @path, while @pid runs; true if it came */
static bool wait_for_file(const char *path, pid_t pid)
{
	siginfo_t si;
	int i;

	for (i = 0; i < 2400; i++) {
		if (!access(path, F_OK))
			return true;
		/* etecap ended (killed by the signal): no use waiting */
		si.si_pid = 0;
		if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) ||
		    si.si_pid)
			break;
		usleep(50000);
	}
	return !access(path, F_OK);
}

/*
 * -m circular and a small buffer: each SIGUSR2 writes a complete snapshot,
 * DIR.1 then DIR.2, of what the buffers hold, and the trace goes on: the
 * second holds stream bytes after the first's (newer trace), and ^C still
 * writes DIR
 */
TEST_F_TIMEOUT(slow, flight_snapshots_on_sigusr2, 300)
{
	char dir[128], snap[3][160], path[512], cmd[1024], *s;
	/* the other tasks' code is system_wide_saves_code_of_other_tasks's */
	const char *const argv[] = { "etecap", "-q", "-c", "0-3", "-m", "circular",
				     "-b", "64K", "--no-kernel", "--others-max",
				     "0", "-o", dir, NULL };
	unsigned long long start[3][NCPUS], end[3][NCPUS];
	int st, cpu, i, k;
	pid_t pid;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "flight");
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s.1 %s.2 %s.old %s.tmp %s.1.tmp",
		 dir, dir, dir, dir, dir, dir);
	ASSERT_EQ(0, system(cmd));
	snprintf(snap[0], sizeof(snap[0]), "%s.1", dir);
	snprintf(snap[1], sizeof(snap[1]), "%s.2", dir);
	snprintf(snap[2], sizeof(snap[2]), "%s", dir);
	pid = fork();
	if (!pid) {
		execvp("etecap", (char **)argv);
		_exit(126);
	}
	ASSERT_LT(0, pid);
	for (i = 0; i < 200 && units_enabled() < NCPUS; i++)
		usleep(50000);
	ASSERT_EQ(NCPUS, units_enabled());
	for (k = 0; k < 2; k++) {
		usleep(300000);
		kill(pid, SIGUSR2);
		snprintf(path, sizeof(path), "%s/snapshot.ini", snap[k]);
		EXPECT_TRUE(wait_for_file(path, pid)) TH_LOG("no %s", path);
	}
	/* still tracing after the snapshots */
	for (i = 0; i < 200 && units_enabled() < NCPUS; i++)
		usleep(50000);
	EXPECT_EQ(NCPUS, units_enabled());
	usleep(300000);
	kill(pid, SIGINT);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st)) TH_LOG("etecap ended by signal %d",
					  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	EXPECT_EQ(0, WEXITSTATUS(st));
	for (k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s/snapshot.ini", snap[k]);
		s = slurp(path, NULL);
		ASSERT_NE(NULL, s) TH_LOG("no %s", path);
		EXPECT_NE(NULL, strstr(s, "[trace]\nmetadata=trace.ini\n"));
		for (cpu = 0; cpu < NCPUS; cpu++) {
			snprintf(path, sizeof(path), "device%d=cpu_%d.ini\n",
				 2 * cpu, cpu);
			EXPECT_NE(NULL, strstr(s, path)) TH_LOG("%s", s);
			snprintf(path, sizeof(path), "%s/trace_cpu%d.bin",
				 snap[k], cpu);
			EXPECT_LT(0ULL, file_size(path)) TH_LOG("%s", path);
			snprintf(path, sizeof(path), "%s/ETE_%d.ini", snap[k], cpu);
			EXPECT_LT(0ULL, file_size(path)) TH_LOG("%s", path);
			snprintf(path, sizeof(path), "%s/cpu_%d.ini", snap[k], cpu);
			EXPECT_LT(0ULL, file_size(path)) TH_LOG("%s", path);
			EXPECT_TRUE(stream_range(snap[k], cpu, &start[k][cpu],
						 &end[k][cpu]))
				TH_LOG("%s: cpu%d", snap[k], cpu);
		}
		free(s);
		snprintf(path, sizeof(path), "%s/trace.ini", snap[k]);
		EXPECT_LT(0ULL, file_size(path)) TH_LOG("%s", path);
		snprintf(path, sizeof(path), "%s.tmp", snap[k]);
		EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s left", path);
	}
	/* each snapshot's trace is newer than the one before: tracing went on */
	for (k = 1; k < 3; k++)
		for (cpu = 0; cpu < NCPUS; cpu++) {
			EXPECT_LE(end[k - 1][cpu], start[k][cpu])
				TH_LOG("cpu%d: %s ends at %llu, %s starts at %llu",
				       cpu, snap[k - 1], end[k - 1][cpu], snap[k],
				       start[k][cpu]);
			EXPECT_LT(start[k][cpu], end[k][cpu]);
		}
	EXPECT_EQ(0, units_enabled());
}

/* SIGUSR2 in fill mode: said once on stderr, the capture goes on */
TEST(sigusr2_in_fill_mode_is_refused)
{
	char dir[128], path[256], err[] = OUT "/usr2fill.err", *s;
	const char *const argv[] = { "etecap", NO_OTHERS, "-c", "0", "-m", "fill",
				     "--progress", "0", "--no-kernel", "-o",
				     dir, NULL };
	int st, i, fd;
	pid_t pid;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	outdir(dir, "usr2fill");
	pid = fork();
	if (!pid) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execvp("etecap", (char **)argv);
		_exit(126);
	}
	ASSERT_LT(0, pid);
	for (i = 0; i < 200 && units_enabled() < 1; i++)
		usleep(50000);
	kill(pid, SIGUSR2);
	usleep(100000);
	kill(pid, SIGUSR2);
	usleep(100000);
	kill(pid, SIGINT);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	s = slurp(err, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "SIGUSR2")) TH_LOG("%s", s);
	EXPECT_EQ(strstr(s, "SIGUSR2"), strrstr_usr2(s)) TH_LOG("%s", s);
	free(s);
	snprintf(path, sizeof(path), "%s.1", dir);
	EXPECT_NE(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/trace_cpu0.bin", dir);
	EXPECT_LT(0ULL, file_size(path));
	EXPECT_EQ(0, units_enabled());
}

/* ------------------------------------------------------------------------
 * System-wide: the code of every task alive at the stop (issue 18)
 */

static void other_task_loop(void)
{
	prctl(PR_SET_NAME, "ete_other");
	for (;;)
		pause();
}

/*
 * -a -t: a process etecap neither started nor attached to has its map
 * (maps_<pid>.txt), its name (contexts.txt) and its code saved, the image
 * at the address it runs at, a dump of the cores
 */
TEST_F_TIMEOUT(slow, system_wide_saves_code_of_other_tasks, 300)
{
	char dir[128], path[512], want[160], file[64], *maps, *mem, *p, *img, *ini;
	const char *const argv[] = { "etecap", "-q", "-a", "-t", "1s",
				     "--no-kernel", "-o", dir, NULL };
	unsigned long long fn = (unsigned long long)(uintptr_t)other_task_loop;
	struct mapping m[64], *text = NULL;
	bool dump;
	size_t ilen;
	int n, i;
	pid_t child;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	child = fork();
	ASSERT_GE(child, 0);
	if (!child)
		other_task_loop();
	usleep(100000);
	snprintf(path, sizeof(path), "/proc/%d/maps", child);
	maps = slurp(path, NULL);
	ASSERT_NE(NULL, maps);
	n = exec_mappings(maps, m, 64);
	for (i = 0; i < n; i++)
		if (m[i].start <= fn && fn < m[i].end)
			text = &m[i];
	ASSERT_NE(NULL, text) TH_LOG("%s", maps);
	outdir(dir, "others");
	EXPECT_EQ(0, etecap(argv, NULL));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	snprintf(path, sizeof(path), "%s/maps_%d.txt", dir, child);
	EXPECT_LT(0ULL, file_size(path)) TH_LOG("no %s", path);
	snprintf(path, sizeof(path), "%s/contexts.txt", dir);
	p = slurp(path, NULL);
	ASSERT_NE(NULL, p);
	snprintf(want, sizeof(want), "\n%d %d ete_other\n", child, child);
	EXPECT_NE(NULL, strstr(p, want)) TH_LOG("%s", p);
	free(p);

	/* the child's text: saved, or the same image as another task's */
	snprintf(path, sizeof(path), "%s/memory.txt", dir);
	mem = slurp(path, NULL);
	ASSERT_NE(NULL, mem);
	snprintf(want, sizeof(want), " 0x%llx 0x%llx ", text->start,
		 text->end - text->start);
	file[0] = 0;
	dump = true;
	for (p = mem; p && !file[0]; p = next_line(p)) {
		char pidw[32], *eol = strchr(p, '\n'), *as;

		snprintf(pidw, sizeof(pidw), " pid %d ", child);
		if (eol)
			*eol = 0;
		if (strstr(p, want) && strstr(p, pidw)) {
			as = strstr(p, ": as ");
			if (!strncmp(p, "saved", 5))
				sscanf(p + 5 + strlen(want), "%63s", file);
			else if (as)
				sscanf(as + 5, "%63s", file);
			/* another program's image at the same address */
			dump = !strstr(p, "(no dump");
		}
		if (eol)
			*eol = '\n';
	}
	ASSERT_NE(0, file[0]) TH_LOG("pid %d%s not in memory.txt:\n%s", child,
				     want, mem);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	img = slurp(path, &ilen);
	ASSERT_NE(NULL, img);
	ASSERT_LE(fn - text->start + 64, ilen);
	EXPECT_EQ(0, memcmp(img + (fn - text->start), (void *)(uintptr_t)fn, 64))
		TH_LOG("%s at 0x%llx is not the text", file, fn - text->start);
	free(img);
	/*
	 * a dump of the cores at its address, unless memory.txt says another
	 * program's code is there (the snapshot has one address space)
	 */
	snprintf(path, sizeof(path), "%s/cpu_0.ini", dir);
	ini = slurp(path, NULL);
	ASSERT_NE(NULL, ini);
	snprintf(want, sizeof(want), "file=%s\naddress=0x%llx\n", file,
		 text->start);
	EXPECT_EQ(dump, !!strstr(ini, want)) TH_LOG("cpu_0.ini, %s", want);
	free(ini);
	free(mem);
	free(maps);
	EXPECT_EQ(0, units_enabled());
}

/* ------------------------------------------------------------------------
 * The model's violation log: emptied before the first case (a constructor
 * of this program, run once before the harness forks the cases), read
 * after the last.  Every case drives the driver through the model; an
 * access that broke a rule of the architecture is logged there, whether
 * or not the case saw it.
 */

__attribute__((constructor)) static void empty_model_log(void)
{
	ete_model_log_clear();
}

/* Runs last (cases run in the order they are defined) */
TEST(no_model_violations)
{
	static char log[8192];
	int n = ete_model_log_read(log, sizeof(log));

	if (n < 0)
		SKIP(return, "no ETE model (debugfs ete_model)");
	EXPECT_EQ(0, n) TH_LOG("the model logged violations:\n%s", log);
}

TEST_HARNESS_MAIN
