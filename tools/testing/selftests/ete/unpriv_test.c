// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing without root (Documentation/user-guide-install.rst).  The udev
 * rule and its helper as shipped (packaging/udev/60-ete-trbe.rules and
 * packaging/ete-setperms, built into this program) are applied to every
 * trace unit and TRBE as udev would apply them: the rule's GROUP and MODE
 * to /dev/trbe<N>, its RUN command with %S%p expanded.  Then, as uid 1000:
 *
 *   - in group etetrace with only CAP_PERFMON (ambient, as a setcap'd
 *     etecap would have it): etecap captures its child on every CPU,
 *     exit 0, trace for each CPU in the snapshot;
 *   - with CAP_PERFMON but not in the group: EACCES on /dev/trbe0 and on a
 *     configuration file;
 *   - in the group without CAP_PERFMON: asking for the kernel's exception
 *     levels is EPERM and the old value stays, in sysfs and in a configfs
 *     profile; an EL0 capture works, with etecap's options and with a
 *     profile;
 *   - holding a CPU's buffer, in the group without CAP_PERFMON, while root
 *     enables the unit and starts a profile asking for every exception
 *     level: the kernel's and the Secure ones are filtered out (TRCVICTLR,
 *     status, the model's record of what reached the buffer); with
 *     CAP_PERFMON they are traced (issue 32);
 *   - opening a buffer larger than trbe.mlock_kb: charged to its VmLck
 *     while open, against its RLIMIT_MEMLOCK (ENOMEM past it).
 *
 * The snapshots are copied to /out/unpriv/<case>/ (the host's
 * build/runs/<run>/unpriv/), where post.d/unpriv_decode.sh decodes them;
 * the rules file applied goes to /out/unpriv/ for the host to compare with
 * the tree's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ete_file_io.h"
#include "ete_model_log.h"
#include "ete_shipped.h"
#include <linux/ete.h>

#define GROUP		"etetrace"
#define GROUP_GID	990	/* given to the group if /etc/group lacks it */
#define USER_ID		1000
#define WORK		"/tmp/unpriv"
#define UDEV_DIR	WORK "/udev"	/* stands for /lib/udev */
#define OUT		"/out/unpriv"
#define ETE0		"/sys/class/ete/ete0/"
#define TRBE0		"/sys/class/trbe/trbe0/"
#define PROFILE		"/sys/kernel/config/ete/profiles/unpriv"
#define MODEL_PROGRAM	"/sys/kernel/debug/ete_model/program"
#define NCPUS		4
/* a loop on each CPU: the command alone is traced (task mode) */
#define WORKLOAD	"for c in 0 1 2 3; do taskset -c $c sh -c " \
			"'i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done' & " \
			"done; wait"

static bool have_model(void)
{
	return !access("/dev/trbe0", F_OK) && !access(ETE0 "el_ns", F_OK) &&
	       !access("/sys/kernel/debug/ete_model", F_OK);
}

/* ------------------------------------------------------------------------
 * The rule, parsed: the keys this test applies
 */

struct rule {
	char subsystem[128], kernel[128], group[128], mode[128], run[128];
};

#define MAX_RULES	8

/* The next KEY OP "VALUE" of @s into the buffers; the rest, or NULL */
static const char *next_pair(const char *s, char *key, char *op, char *val)
{
	size_t n;

	s += strspn(s, " \t,");
	if (!*s || *s == '\n' || *s == '#')
		return NULL;
	n = strcspn(s, "=!+:");
	if (n == 0 || n > 31)
		return NULL;
	memcpy(key, s, n);
	key[n] = 0;
	s += n;
	n = s[0] == '=' && s[1] != '=' ? 1 : 2;
	memcpy(op, s, n);
	op[n] = 0;
	s += n;
	if (*s++ != '"')
		return NULL;
	n = strcspn(s, "\"\n");
	if (s[n] != '"' || n > 127)
		return NULL;
	memcpy(val, s, n);
	val[n] = 0;
	return s + n + 1;
}

#define COPY(dst, src)	snprintf(dst, sizeof(dst), "%s", src)

/* The rules of @text that name a SUBSYSTEM; their count */
static int parse_rules(const char *text, struct rule *r, int max)
{
	char key[32], op[3], val[128];
	const char *line, *s;
	int n = 0;

	for (line = text; line && *line && n < max;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		memset(&r[n], 0, sizeof(r[n]));
		for (s = line; (s = next_pair(s, key, op, val));) {
			if (!strcmp(key, "SUBSYSTEM") && !strcmp(op, "=="))
				COPY(r[n].subsystem, val);
			else if (!strcmp(key, "KERNEL") && !strcmp(op, "=="))
				COPY(r[n].kernel, val);
			else if (!strcmp(key, "GROUP"))
				COPY(r[n].group, val);
			else if (!strcmp(key, "MODE"))
				COPY(r[n].mode, val);
			else if (!strcmp(key, "RUN"))
				COPY(r[n].run, val);
		}
		if (r[n].subsystem[0])
			n++;
	}
	return n;
}

/* ------------------------------------------------------------------------
 * Applying it as udev would
 */

/* The group's GID from /etc/group, adding the group if it is not there */
static int group_gid(void)
{
	char line[256];
	int gid = -1;
	FILE *f;

	f = fopen("/etc/group", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, GROUP ":", strlen(GROUP ":")))
			sscanf(line, GROUP ":%*[^:]:%d", &gid);
	if (f)
		fclose(f);
	if (gid >= 0)
		return gid;
	mkdir("/etc", 0755);
	f = fopen("/etc/group", "a");
	if (!f)
		return -1;
	fprintf(f, GROUP ":x:%d:\n", GROUP_GID);
	fclose(f);
	return GROUP_GID;
}

/* Expand udev's %S, %p, %k and %% in @fmt for a device */
static void expand(char *out, size_t len, const char *fmt,
		   const char *devpath, const char *name)
{
	size_t n = 0;

	for (; *fmt && n + 1 < len; fmt++) {
		const char *sub = NULL;

		if (*fmt == '%' && fmt[1]) {
			switch (*++fmt) {
			case 'S':
				sub = "/sys";
				break;
			case 'p':
				sub = devpath;
				break;
			case 'k':
				sub = name;
				break;
			default:
				sub = "%";
				break;
			}
			n += snprintf(out + n, len - n, "%s", sub);
			continue;
		}
		out[n++] = *fmt;
	}
	out[n < len ? n : len - 1] = 0;
}

/* Run a RUN+= command line, the program relative to udev's directory */
static int run_cmd(const char *cmdline, const char *devpath,
		   const char *subsystem)
{
	char buf[512], *argv[16], *tok, *save, prog[256];
	int argc = 0, st;
	pid_t pid;

	snprintf(buf, sizeof(buf), "%s", cmdline);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (!argc)
		return -1;
	if (argv[0][0] == '/')
		snprintf(prog, sizeof(prog), "%s", argv[0]);
	else
		snprintf(prog, sizeof(prog), UDEV_DIR "/%s", argv[0]);
	pid = fork();
	if (!pid) {
		setenv("ACTION", "add", 1);
		setenv("DEVPATH", devpath, 1);
		setenv("SUBSYSTEM", subsystem, 1);
		execv(prog, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Every device of class @subsystem through the rules: GROUP and MODE on
 * its node, RUN run.  The number of devices a rule matched, or -1.
 */
static int apply_class(const char *subsystem, const struct rule *r, int nr,
		       int gid, char *log, size_t loglen)
{
	char path[PATH_MAX], real[PATH_MAX], node[PATH_MAX], cmd[512];
	struct dirent *d;
	int i, n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/class/%s", subsystem);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/%s/%s", subsystem,
			 d->d_name);
		if (!realpath(path, real) || strncmp(real, "/sys/", 5))
			continue;
		for (i = 0; i < nr; i++) {
			if (strcmp(r[i].subsystem, subsystem) ||
			    (r[i].kernel[0] && fnmatch(r[i].kernel, d->d_name, 0)))
				continue;
			n++;
			snprintf(node, sizeof(node), "/dev/%s", d->d_name);
			if (r[i].group[0] && !access(node, F_OK) &&
			    chown(node, -1, gid))
				return -1;
			if (r[i].mode[0] && !access(node, F_OK) &&
			    chmod(node, strtoul(r[i].mode, NULL, 8)))
				return -1;
			if (!r[i].run[0])
				continue;
			expand(cmd, sizeof(cmd), r[i].run, real + 4, d->d_name);
			if (run_cmd(cmd, real + 4, subsystem)) {
				snprintf(log, loglen, "%.200s: failed", cmd);
				closedir(dir);
				return -1;
			}
		}
	}
	closedir(dir);
	return n;
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ssize_t len = strlen(text);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, text, len) == len ? 0 : -EIO;
	close(fd);
	return ret ?: chmod(path, mode);
}

/* ------------------------------------------------------------------------
 * Running as uid 1000
 */

struct who {
	bool in_group;
	bool perfmon;
};

static const struct who group_perfmon = { .in_group = true, .perfmon = true };
static const struct who group_only = { .in_group = true };
static const struct who perfmon_only = { .perfmon = true };

/*
 * Become uid/gid 1000 with the group as the only supplementary one (or
 * none), and CAP_PERFMON as the only capability (or none), kept across
 * exec as an ambient capability.
 */
static int become(const struct who *w, int gid)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	gid_t groups[1] = { gid };
	int i = CAP_TO_INDEX(CAP_PERFMON);

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) ||
	    setgroups(w->in_group ? 1 : 0, groups) ||
	    setresgid(USER_ID, USER_ID, USER_ID) ||
	    setresuid(USER_ID, USER_ID, USER_ID))
		return -1;
	if (w->perfmon) {
		data[i].effective = CAP_TO_MASK(CAP_PERFMON);
		data[i].permitted = CAP_TO_MASK(CAP_PERFMON);
		data[i].inheritable = CAP_TO_MASK(CAP_PERFMON);
	}
	if (syscall(SYS_capset, &hdr, data))
		return -1;
	if (w->perfmon &&
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_PERFMON, 0, 0))
		return -1;
	return 0;
}

/* Run @fn(@arg) as @w in a child; its result (an errno, 0, or 255) */
static int as_user(const struct who *w, int (*fn)(const void *),
		   const void *arg)
{
	int st, gid = group_gid();
	pid_t pid = fork();

	if (!pid)
		_exit(become(w, gid) ? 255 : fn(arg) & 0xff);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

struct write_arg {
	const char *path, *val;
};

/* Write a value: 0 or the errno */
static int do_write(const void *arg)
{
	const struct write_arg *a = arg;

	return -put(a->path, a->val);
}

/* Open read-write: 0 or the errno */
static int do_open(const void *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int write_as(const struct who *w, const char *path, const char *val)
{
	struct write_arg a = { .path = path, .val = val };

	return as_user(w, do_write, &a);
}

/* etecap's argument vector and where its output goes */
struct etecap_run {
	const char *log;
	const char *argv[40];
};

/*
 * The model's program image (what its trace units say was executed),
 * copied where the user may read it: etecap adds it to the snapshot with
 * --mem, as e2e-case.sh does, for the host to decode through.  The options
 * go before "--".
 */
static void with_program(struct etecap_run *e)
{
	static char args[8][PATH_MAX];
	unsigned long long va;
	char line[128], name[64];
	int n, end, i = 0;
	FILE *f;

	for (end = 0; e->argv[end]; end++)
		;
	for (n = 0; n < end && strcmp(e->argv[n], "--"); n++)
		;
	f = fopen(WORK "/program/layout", "r");
	while (f && i < 8 && end + 2 < 39 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %llx", name, &va) != 2)
			continue;
		snprintf(args[i], sizeof(args[i]), WORK "/program/%s.bin@0x%llx",
			 name, va);
		memmove(&e->argv[n + 2], &e->argv[n],
			(end + 1 - n) * sizeof(e->argv[0]));
		e->argv[n++] = "--mem";
		e->argv[n++] = args[i++];
		end += 2;
	}
	if (f)
		fclose(f);
}

static int do_etecap(const void *arg)
{
	const struct etecap_run *e = arg;
	int fd = open(e->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	execvp("etecap", (char **)e->argv);
	return 126;
}

static unsigned long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_size;
}

static char *slurp(const char *path)
{
	static char buf[16384];

	return get(path, buf, sizeof(buf)) < 0 ? NULL : buf;
}

/* The snapshot of case @name: to /out for the host, every CPU's trace */
static int keep_snapshot(const char *name, int ncpus, char *why, size_t len)
{
	char cmd[256], path[256];
	int cpu, empty = 0;

	snprintf(cmd, sizeof(cmd),
		 "mkdir -p " OUT " && rm -rf " OUT "/%s && cp -r " WORK "/%s " OUT
		 "/ && cp " WORK "/%s.log " OUT "/", name, name, name);
	if (system(cmd))
		snprintf(why, len, "%.200s failed", cmd);
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), WORK "/%s/trace_cpu%d.bin", name, cpu);
		if (!file_size(path)) {
			snprintf(why, len, "%.200s: no trace", path);
			empty++;
		}
	}
	return empty;
}

static long long read_num(const char *path)
{
	char *s = slurp(path);

	return s ? strtoll(s, NULL, 0) : -1;
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

/* ------------------------------------------------------------------------
 * The tests, in order: the rule first.  No state: a fixture only for
 * TEST_F_TIMEOUT (etecap and the helper fork a lot under TCG)
 */

FIXTURE(unpriv) {
	int unused;
};

FIXTURE_SETUP(unpriv)
{
}

FIXTURE_TEARDOWN(unpriv)
{
}

TEST_F_TIMEOUT(unpriv, rule_applied_as_udev_would, 180)
{
	struct rule r[MAX_RULES];
	char log[512] = "";
	struct stat st;
	int nr, gid, n;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	nr = parse_rules(ete_rules_file, r, MAX_RULES);
	ASSERT_LT(0, nr) TH_LOG("no rule in the shipped rules file");
	gid = group_gid();
	ASSERT_LE(0, gid);
	mkdir(WORK, 0755);
	ASSERT_EQ(0, chown(WORK, USER_ID, USER_ID));
	mkdir(UDEV_DIR, 0755);
	ASSERT_EQ(0, write_file(UDEV_DIR "/ete-setperms", ete_setperms_file, 0755));
	mkdir("/out", 0755);
	mkdir(OUT, 0755);
	ASSERT_EQ(0, write_file(OUT "/60-ete-trbe.rules", ete_rules_file, 0644));
	ASSERT_EQ(0, system("mkdir -p " WORK "/program && cp " MODEL_PROGRAM
			    "/* " WORK "/program/ && chmod 0644 " WORK "/program/*"));

	n = apply_class("trbe", r, nr, gid, log, sizeof(log));
	ASSERT_EQ(NCPUS, n) TH_LOG("trbe: %s", log);
	n = apply_class("ete", r, nr, gid, log, sizeof(log));
	ASSERT_EQ(NCPUS, n) TH_LOG("ete: %s", log);
	/*
	 * The buffers at the driver's default size, whatever the suites
	 * before left: beyond trbe.mlock_kb a member's buffer is charged to
	 * RLIMIT_MEMLOCK (Documentation/abi-trbe.rst)
	 */
	for (n = 0; n < NCPUS; n++) {
		char path[64];

		snprintf(path, sizeof(path), "/sys/class/trbe/trbe%d/buffer_size", n);
		ASSERT_EQ(0, put(path, "1048576"));
	}

	/* the node: the rule's group and mode */
	ASSERT_EQ(0, stat("/dev/trbe0", &st));
	EXPECT_EQ(gid, (int)st.st_gid);
	EXPECT_EQ(0660, (int)(st.st_mode & 0777));
	/* configuration files: the group may write them */
	ASSERT_EQ(0, stat(ETE0 "el_ns", &st));
	EXPECT_EQ(gid, (int)st.st_gid);
	EXPECT_EQ(0664, (int)(st.st_mode & 0777));
	ASSERT_EQ(0, stat(ETE0 "reset", &st));
	EXPECT_EQ(0220, (int)(st.st_mode & 0777));
	ASSERT_EQ(0, stat(ETE0 "addr0/value", &st));
	EXPECT_EQ(0664, (int)(st.st_mode & 0777));
	ASSERT_EQ(0, stat(TRBE0 "buffer_size", &st));
	EXPECT_EQ(gid, (int)st.st_gid);
	EXPECT_EQ(0664, (int)(st.st_mode & 0777));
	/* read-only files and the kernel's own stay as they were */
	ASSERT_EQ(0, stat(ETE0 "caps/revision", &st));
	EXPECT_EQ(0, (int)st.st_gid);
	EXPECT_EQ(0444, (int)(st.st_mode & 0777));
	ASSERT_EQ(0, stat(ETE0 "uevent", &st));
	EXPECT_EQ(0, (int)st.st_gid);
	EXPECT_EQ(0644, (int)(st.st_mode & 0777));
	/* the helper refuses what is not an ete or trbe device */
	EXPECT_EQ(2, run_cmd("ete-setperms " GROUP " /sys/kernel/debug",
			     "/kernel/debug", "debugfs"));
}

/* CAP_PERFMON without the group opens nothing */
TEST_F_TIMEOUT(unpriv, not_in_group_eacces, 180)
{
	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	EXPECT_EQ(EACCES, as_user(&perfmon_only, do_open, "/dev/trbe0"));
	EXPECT_EQ(EACCES, write_as(&perfmon_only, ETE0 "el_ns", "0x1"));
	EXPECT_EQ(EACCES, write_as(&perfmon_only, TRBE0 "buffer_size", "65536"));
	/* the group alone opens the buffer */
	EXPECT_EQ(0, as_user(&group_only, do_open, "/dev/trbe0"));
}

/* The kernel's exception levels: EPERM without CAP_PERFMON, old value kept */
TEST_F_TIMEOUT(unpriv, kernel_needs_perfmon, 180)
{
	char *s;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	ASSERT_EQ(0, put(ETE0 "reset", "1"));
	ASSERT_EQ(0, write_as(&group_only, ETE0 "el_ns", "0x1"));
	EXPECT_EQ(EPERM, write_as(&group_only, ETE0 "el_ns", "0x3"));
	EXPECT_EQ(EPERM, write_as(&group_only, ETE0 "el_ns", "0x2"));
	EXPECT_EQ(EPERM, write_as(&group_only, ETE0 "el_s", "0x1"));
	s = slurp(ETE0 "el_ns");
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("0x1\n", s);
	/* other settings are the group's */
	EXPECT_EQ(0, write_as(&group_only, ETE0 "timestamp", "1"));
	EXPECT_EQ(0, write_as(&group_only, TRBE0 "fill_mode", "fill"));
	/* with CAP_PERFMON the group may trace the kernel */
	EXPECT_EQ(0, write_as(&group_perfmon, ETE0 "el_ns", "0x3"));
	s = slurp(ETE0 "el_ns");
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("0x3\n", s);
	ASSERT_EQ(0, put(ETE0 "reset", "1"));
}

/* A profile an administrator gave the group: the same rules in configfs */
TEST_F_TIMEOUT(unpriv, profile_for_the_group, 180)
{
	struct etecap_run e = {
		.log = WORK "/profile_el0.log",
		.argv = { "etecap", "-q", "-P", "unpriv", "-t", "200",
			  "--no-kernel", "-o", WORK "/profile_el0", NULL },
	};
	char why[256] = "", *s;
	int rc;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	if (access("/sys/kernel/config/ete/profiles", F_OK))
		SKIP(return, "no configfs profiles");
	rmdir(PROFILE);
	ASSERT_EQ(0, mkdir(PROFILE, 0755));
	ASSERT_EQ(0, put(PROFILE "/cpus", "0-1"));
	EXPECT_EQ(EACCES, write_as(&group_only, PROFILE "/el_ns", "0x1"));
	ASSERT_EQ(0, run_cmd("ete-setperms " GROUP " " PROFILE, "", "configfs"));
	EXPECT_EQ(0, write_as(&group_only, PROFILE "/el_ns", "0x1"));
	EXPECT_EQ(EPERM, write_as(&group_only, PROFILE "/el_ns", "0x7"));
	s = slurp(PROFILE "/el_ns");
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("0x1\n", s);
	EXPECT_EQ(EACCES, write_as(&perfmon_only, PROFILE "/active", "1"));

	with_program(&e);
	rc = as_user(&group_only, do_etecap, &e);
	EXPECT_EQ(0, rc) TH_LOG("%s", slurp(e.log) ?: "");
	EXPECT_EQ(0, keep_snapshot("profile_el0", 2, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(0, units_enabled());
	EXPECT_EQ(0, rmdir(PROFILE));
}

/* In the group without CAP_PERFMON: user space only */
TEST_F_TIMEOUT(unpriv, el0_capture_without_perfmon, 180)
{
	struct etecap_run e = {
		.log = WORK "/el0.log",
		.argv = { "etecap", "-c", "0-3", "-e", "user", "--no-kernel",
			  "-o", WORK "/el0", "--", "sh", "-c", WORKLOAD, NULL },
	};
	struct etecap_run k = {
		.log = WORK "/kernel_refused.log",
		.argv = { "etecap", "-q", "-c", "0", "-e", "0,1", "-t", "50",
			  "-o", WORK "/kernel_refused", NULL },
	};
	char why[256] = "", *s;
	int rc;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	with_program(&e);
	rc = as_user(&group_only, do_etecap, &e);
	EXPECT_EQ(0, rc) TH_LOG("%s", slurp(e.log) ?: "");
	EXPECT_EQ(0, keep_snapshot("el0", NCPUS, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(0, units_enabled());

	/* asking etecap for the kernel: refused, said, nothing started */
	rc = as_user(&group_only, do_etecap, &k);
	EXPECT_EQ(1, rc);
	s = slurp(k.log);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "el_ns")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, strerror(EPERM))) TH_LOG("%s", s);
	EXPECT_EQ(0, units_enabled());
}

/* The group with CAP_PERFMON: etecap around a workload, as a user would */
TEST_F_TIMEOUT(unpriv, capture_with_perfmon, 180)
{
	struct etecap_run e = {
		.log = WORK "/perfmon.log",
		.argv = { "etecap", "-c", "0-3", "--timestamps", "-o",
			  WORK "/perfmon", "--", "sh", "-c", WORKLOAD, NULL },
	};
	char why[256] = "", *s;
	int rc;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	with_program(&e);
	rc = as_user(&group_perfmon, do_etecap, &e);
	ASSERT_EQ(0, rc) TH_LOG("%s", slurp(e.log) ?: "");
	TH_LOG("etecap said: %s", slurp(e.log) ?: "");
	EXPECT_EQ(0, keep_snapshot("perfmon", NCPUS, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(0, units_enabled());
	/*
	 * Not root: /proc/kcore (CAP_SYS_RAWIO) is closed to it, and the
	 * snapshot says so instead of failing.
	 */
	s = slurp(WORK "/perfmon/kernel.txt");
	ASSERT_NE(NULL, s);
	TH_LOG("kernel.txt: %s", s);
	EXPECT_EQ(NULL, strstr(s, "kcore=yes"));
	EXPECT_NE(NULL, strstr(s, "kernel text not saved")) TH_LOG("%s", s);
}

/* ------------------------------------------------------------------------
 * The privilege rule at the buffer (issue 32, F1): a session started by
 * root, by sysfs "enable" or a configfs profile, goes to whichever
 * /dev/trbe<N> is open.  When a member of the group without CAP_PERFMON
 * opened it, the kernel's exception levels and every Secure one are
 * filtered out: the unit's TRCVICTLR excludes them, its status says so,
 * and the model's record of what it traced into that buffer holds no
 * kernel address.  Opened by a member with CAP_PERFMON, the same session
 * traces the kernel.
 */

#define ETE1		"/sys/class/ete/ete1/"
#define TRBE1		"/sys/class/trbe/trbe1/"
#define MODEL_CPU1	"/sys/kernel/debug/ete_model/cpu1/"
#define ROOT_PROFILE	"/sys/kernel/config/ete/profiles/root_kernel"
#define KERNEL_HALF	0xffff000000000000ULL
#define VICTLR_NS	(0x7ULL << 20)
#define VICTLR_S	(0xfULL << 16)

/* A process of @who holding /dev/trbe<N> open and mapped */
struct holder {
	pid_t pid;
	int go;		/* write end: a byte lets it close and exit */
	int ready;	/* read end: its errno after open and mmap, 0 */
};

static int hold_buffer(const struct who *w, int cpu, int go, int ready)
{
	long page = sysconf(_SC_PAGESIZE);
	char node[32], c = 0;
	void *hdr, *data;
	int fd, err = 0;

	snprintf(node, sizeof(node), "/dev/trbe%d", cpu);
	if (become(w, group_gid()))
		err = 255;
	fd = err ? -1 : open(node, O_RDWR);
	if (!err && fd < 0)
		err = errno;
	hdr = err ? MAP_FAILED : mmap(NULL, page, PROT_READ | PROT_WRITE,
				      MAP_SHARED, fd, 0);
	data = hdr == MAP_FAILED ? MAP_FAILED :
	       mmap(NULL, ((struct ete_trbe_mmap_page *)hdr)->data_size,
		    PROT_READ, MAP_SHARED, fd, page);
	if (!err && data == MAP_FAILED)
		err = errno;
	c = err;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 1;
	return 0;
}

static int holder_start(struct holder *h, const struct who *w, int cpu)
{
	int go[2], ready[2];
	char c;

	if (pipe(go) || pipe(ready))
		return -1;
	h->pid = fork();
	if (!h->pid) {
		close(go[1]);
		close(ready[0]);
		_exit(hold_buffer(w, cpu, go[0], ready[1]));
	}
	close(go[0]);
	close(ready[1]);
	h->go = go[1];
	h->ready = ready[0];
	if (h->pid < 0 || read(h->ready, &c, 1) != 1)
		return -1;
	return c;
}

static void holder_stop(struct holder *h)
{
	char c = 0;

	if (write(h->go, &c, 1) != 1)
		kill(h->pid, SIGKILL);
	waitpid(h->pid, NULL, 0);
	close(h->go);
	close(h->ready);
}

/* Ranges of the last session in CPU 1's truth, and those in the kernel */
static int truth_ranges(int *kernel)
{
	unsigned long long off, start;
	char line[256];
	int n = 0;
	FILE *f;

	*kernel = 0;
	f = fopen(MODEL_CPU1 "truth", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "R %llu %llx", &off, &start) != 2)
			continue;
		n++;
		if (start >= KERNEL_HALF)
			(*kernel)++;
	}
	fclose(f);
	return n;
}

/* Wait (bounded) for CPU 1's session to record @want ranges */
static int wait_ranges(int want)
{
	int n = 0, kernel, i;

	for (i = 0; i < 600 && n < want; i++) {
		usleep(50000);
		n = truth_ranges(&kernel);
	}
	return n;
}

static unsigned long long victlr1(void)
{
	unsigned long long v = ~0ULL;

	reg_in_file(MODEL_CPU1 "regs", "TRCVICTLR", &v);
	return v;
}

/* Every exception level the unit implements, as el_ns and el_s take them */
static void all_levels(char *ns, char *sec, size_t len)
{
	snprintf(ns, len, "%#llx", (unsigned long long)read_num(ETE1 "caps/el_ns"));
	snprintf(sec, len, "%#llx", (unsigned long long)read_num(ETE1 "caps/el_s"));
}

/* Root sets CPU 1 to trace everything it implements, into a 1 MiB buffer */
static int root_wants_everything(void)
{
	char ns[32], sec[32];

	all_levels(ns, sec, sizeof(ns));
	return put(ETE1 "reset", "1") ?: put(ETE1 "el_ns", ns) ?:
	       put(ETE1 "el_s", sec) ?: put(TRBE1 "buffer_size", "1048576") ?:
	       put(TRBE1 "fill_mode", "wrap") ?:
	       put(MODEL_CPU1 "truth_mode", "ranges");
}

/*
 * Check CPU 1 while root's session traces into the buffer a member of the
 * group holds, then stop it with @stop: kernel and Secure filtered out,
 * or not.
 */
static void check_root_session(struct __test_metadata *_metadata,
			       bool filtered, int (*stop)(void))
{
	unsigned long long v = victlr1(), sec = read_num(ETE1 "caps/el_s");
	int n, kernel;
	char *s;

	s = slurp(ETE1 "status");
	ASSERT_NE(NULL, s);
	if (filtered) {
		EXPECT_NE(NULL, strstr(s, "kernel: filtered out")) TH_LOG("%s", s);
		/* EL1 and EL2 excluded, EL0 traced; every Secure EL excluded */
		EXPECT_EQ(0x6ULL << 20, v & VICTLR_NS) TH_LOG("TRCVICTLR %#llx", v);
		EXPECT_EQ(sec << 16, v & VICTLR_S) TH_LOG("TRCVICTLR %#llx", v);
	} else {
		EXPECT_NE(NULL, strstr(s, "kernel: traced")) TH_LOG("%s", s);
		EXPECT_EQ(0ULL, v & VICTLR_NS) TH_LOG("TRCVICTLR %#llx", v);
		EXPECT_EQ(0ULL, v & VICTLR_S) TH_LOG("TRCVICTLR %#llx", v);
	}
	wait_ranges(50);
	ASSERT_EQ(0, stop());
	n = truth_ranges(&kernel);
	EXPECT_LE(50, n);
	TH_LOG("%d ranges traced into the buffer, %d in the kernel", n, kernel);
	/* filtered: not one range in the kernel; else some */
	EXPECT_EQ(!filtered, kernel > 0);
}

static int stop_enable(void)
{
	return put(ETE1 "enable", "0");
}

static int stop_profile(void)
{
	return put(ROOT_PROFILE "/active", "0");
}

/* root's sysfs "enable" into the buffer a member without CAP_PERFMON holds */
TEST_F_TIMEOUT(unpriv, root_enable_into_group_buffer_no_kernel, 180)
{
	struct holder h;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	ASSERT_EQ(0, root_wants_everything());
	ASSERT_EQ(0, holder_start(&h, &group_only, 1));
	ASSERT_EQ(0, put(ETE1 "enable", "1"));
	check_root_session(_metadata, true, stop_enable);
	holder_stop(&h);

	/* the same, the buffer opened with CAP_PERFMON: the kernel traced */
	ASSERT_EQ(0, holder_start(&h, &group_perfmon, 1));
	ASSERT_EQ(0, put(ETE1 "enable", "1"));
	check_root_session(_metadata, false, stop_enable);
	holder_stop(&h);
	put(ETE1 "reset", "1");
}

/* root's configfs profile on CPU 1, the buffer a member's */
TEST_F_TIMEOUT(unpriv, root_profile_into_group_buffer_no_kernel, 180)
{
	char ns[32], sec[32];
	struct holder h;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	if (access("/sys/kernel/config/ete/profiles", F_OK))
		SKIP(return, "no configfs profiles");
	ASSERT_EQ(0, root_wants_everything());
	all_levels(ns, sec, sizeof(ns));
	rmdir(ROOT_PROFILE);
	ASSERT_EQ(0, mkdir(ROOT_PROFILE, 0755));
	ASSERT_EQ(0, put(ROOT_PROFILE "/cpus", "1"));
	ASSERT_EQ(0, put(ROOT_PROFILE "/el_ns", ns));
	ASSERT_EQ(0, put(ROOT_PROFILE "/el_s", sec));

	ASSERT_EQ(0, holder_start(&h, &group_only, 1));
	ASSERT_EQ(0, put(ROOT_PROFILE "/active", "1"));
	check_root_session(_metadata, true, stop_profile);
	holder_stop(&h);

	ASSERT_EQ(0, holder_start(&h, &group_perfmon, 1));
	ASSERT_EQ(0, put(ROOT_PROFILE "/active", "1"));
	check_root_session(_metadata, false, stop_profile);
	holder_stop(&h);
	EXPECT_EQ(0, rmdir(ROOT_PROFILE));
	put(ETE1 "reset", "1");
}

/* el_s set by root, a session a member without CAP_PERFMON starts */
static int do_enable1(const void *arg)
{
	return -put(ETE1 "enable", arg);
}

TEST_F_TIMEOUT(unpriv, secure_levels_filtered_for_unprivileged_starter, 180)
{
	unsigned long long v, sec;
	struct holder h;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	sec = read_num(ETE1 "caps/el_s");
	ASSERT_LT(0ULL, sec) TH_LOG("the unit implements no Secure EL");
	ASSERT_EQ(0, root_wants_everything());
	ASSERT_EQ(0, holder_start(&h, &group_perfmon, 1));
	/* the buffer may see the kernel; the starter may not */
	ASSERT_EQ(0, as_user(&group_only, do_enable1, "1"));
	v = victlr1();
	EXPECT_EQ(0x6ULL << 20, v & VICTLR_NS) TH_LOG("TRCVICTLR %#llx", v);
	EXPECT_EQ(sec << 16, v & VICTLR_S) TH_LOG("TRCVICTLR %#llx", v);
	EXPECT_EQ(0, as_user(&group_only, do_enable1, "0"));
	holder_stop(&h);
	put(ETE1 "reset", "1");
}

/* ------------------------------------------------------------------------
 * Buffer memory is locked memory (issue 32, F1): charged to the opener's
 * locked_vm (VmLck) beyond trbe.mlock_kb, against RLIMIT_MEMLOCK unless
 * the opener has CAP_IPC_LOCK; given back at close.
 */

#define TRBE2		"/sys/class/trbe/trbe2/"
#define MLOCK_KB	"/sys/module/trbe/parameters/mlock_kb"

struct memlock_result {
	int open_err;		/* errno of open(), 0 */
	long before_kb;		/* VmLck before open */
	long open_kb;		/* while open */
	long after_kb;		/* after close */
};

static struct memlock_result *mres;

static long vm_lck_kb(void)
{
	char *s = slurp("/proc/self/status"), *at;

	at = s ? strstr(s, "VmLck:") : NULL;
	return at ? strtol(at + 6, NULL, 10) : -1;
}

/* Open /dev/trbe2 under RLIMIT_MEMLOCK = @arg KiB; the counts to mres */
static int do_open_limited(const void *arg)
{
	struct rlimit rl;
	int fd;

	rl.rlim_cur = *(const long *)arg * 1024;
	rl.rlim_max = rl.rlim_cur;
	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return 254;
	mres->before_kb = vm_lck_kb();
	fd = open("/dev/trbe2", O_RDWR);
	mres->open_err = fd < 0 ? errno : 0;
	mres->open_kb = vm_lck_kb();
	if (fd >= 0)
		close(fd);
	mres->after_kb = vm_lck_kb();
	return 0;
}

/* do_open_limited() as @w, or as root (NULL); its exit status */
static int open_limited(const struct who *w, long limit_kb)
{
	int st;
	pid_t pid;

	memset(mres, 0, sizeof(*mres));
	if (w)
		return as_user(w, do_open_limited, &limit_kb);
	pid = fork();
	if (!pid)
		_exit(do_open_limited(&limit_kb));
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

TEST_F_TIMEOUT(unpriv, buffer_memory_charged_to_opener, 180)
{
	long allowance;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	mres = mmap(NULL, sizeof(*mres), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mres);
	allowance = read_num(MLOCK_KB);
	EXPECT_LE(0, allowance) TH_LOG("no %s", MLOCK_KB);
	if (allowance < 0)
		allowance = 1024;
	ASSERT_EQ(0, put(TRBE2 "buffer_size", "4194304"));

	/* 4 MiB, of which allowance KiB are free: over a 1 MiB limit */
	ASSERT_EQ(0, open_limited(&group_only, 1024));
	EXPECT_EQ(ENOMEM, mres->open_err);
	EXPECT_EQ(mres->before_kb, mres->open_kb);

	/* under an 8 MiB limit: charged while open, given back at close */
	ASSERT_EQ(0, open_limited(&group_only, 8192));
	EXPECT_EQ(0, mres->open_err);
	EXPECT_EQ(4096 - allowance, mres->open_kb - mres->before_kb);
	EXPECT_EQ(mres->before_kb, mres->after_kb);

	/* root (CAP_IPC_LOCK) goes past any limit, and is charged all the same */
	ASSERT_EQ(0, open_limited(NULL, 0));
	EXPECT_EQ(0, mres->open_err);
	EXPECT_EQ(4096 - allowance, mres->open_kb - mres->before_kb);
	EXPECT_EQ(mres->before_kb, mres->after_kb);

	EXPECT_EQ(0, put(TRBE2 "buffer_size", "1048576"));
	munmap(mres, sizeof(*mres));
}

/* The nodes as the driver makes them, for the suites after this one */
TEST_F_TIMEOUT(unpriv, device_nodes_restored, 180)
{
	char node[32];
	int cpu;

	if (!have_model())
		SKIP(return, "no ete.ko/trbe.ko units bound (model not loaded)");
	for (cpu = 0; cpu < NCPUS; cpu++) {
		snprintf(node, sizeof(node), "/dev/trbe%d", cpu);
		EXPECT_EQ(0, chown(node, 0, 0));
		EXPECT_EQ(0, chmod(node, 0600));
	}
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
