// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded interleaving stress test (issue 15): for a bounded time,
 * several processes at once
 *
 *   - start and stop trace units through sysfs "enable" (CPUs 0-3);
 *   - capture through /dev/trbe0-3: open, map, START, poll, read, SNAPSHOT,
 *     drain the mapping, STOP, close (two processes);
 *   - activate and deactivate a configfs profile on random CPU sets;
 *   - take CPUs 1-3 offline and online again;
 *   - write the TRBE mode files and flush_us;
 *   - unload trbe.ko (delete_module, O_NONBLOCK): refused while anything
 *     holds it; when it goes, it is loaded again at once from
 *     /lib/modules/ete, so the others meet a driver that comes and goes.
 *
 * Every failure must carry an errno the ABI documents for that operation
 * (errno_documented()).  Then every CPU is online, every session gone,
 * and the state must be consistent: no unit enabled, trbe.ko unloads (no
 * reference leaked) and loads again, every /dev/trbe<N> opens, and a
 * capture on each CPU of sequence-numbered trace the model replays is
 * byte-exact.
 * The kernel log is checked by the rig (KASAN, lockdep, hung tasks, RCU
 * stalls).  The seed (argv[2], STRESS_SEED, or the time) and the
 * operations done per kind, with their errnos, are printed; the same seed
 * replays a run's choices (the timing is the machine's).
 *
 * Usage: stress_test [SECONDS [SEED]]
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ete.h>

#include "kselftest.h"
#include "ete_file_io.h"
#include "trbe_model.h"

#define NCPU		4
#define PROFILE		"/sys/kernel/config/ete/profiles/t_stress"
#define FLUSH_US	"/sys/module/trbe/parameters/flush_us"
#define MAX_ERRNO	160
#define SINK_PRESENT	"/sys/kernel/debug/ete_test_sink/present"

enum kind {
	K_ENABLE, K_OPEN, K_CAPTURE, K_PROFILE, K_HOTPLUG, K_KNOB, K_UNLOAD,
	K_RELOAD, K_NR,
};

static const char * const kind_name[K_NR] = {
	"sysfs_enable", "capture_open", "capture", "configfs", "hotplug",
	"mode_and_flush", "trbe_unload", "trbe_reload",
};

#define TRBE_KO		"/lib/modules/ete/trbe.ko"

/* Per kind: operations and errnos seen; shared with the children */
struct tally {
	long ops[K_NR];
	long err[K_NR][MAX_ERRNO];
};

static struct tally *tally;
static double deadline;

static void count(enum kind k, int ret)
{
	int e = ret < 0 ? -ret : 0;

	__atomic_add_fetch(&tally->ops[k], 1, __ATOMIC_RELAXED);
	if (e > 0 && e < MAX_ERRNO)
		__atomic_add_fetch(&tally->err[k][e], 1, __ATOMIC_RELAXED);
}

/*
 * The errnos the ABI documents for what each kind does (abi-trbe.rst,
 * abi-configfs.rst, user-guide-ete.rst): EBUSY (another owner, a session
 * running), ENODEV (no usable sink or CPU: offline, its buffer closed),
 * EINVAL (no session to stop, a geometry or set the TRBE cannot take).
 * Opening /dev/trbe<N> while trbe.ko comes and goes also gives ENOENT (no
 * node) or ENXIO (the module is being unloaded and takes no new users,
 * the node not yet removed; abi-trbe.rst, "Opening"), and its mode files
 * and flush_us do not exist while it is unloaded (ENOENT).  Unloading a
 * module in use gives EAGAIN (EWOULDBLOCK); CPU hotplug errnos are the
 * kernel's own, and none is expected.
 */
static bool errno_documented(enum kind k, int e)
{
	switch (k) {
	case K_OPEN:
		return e == EBUSY || e == ENODEV || e == ENOENT || e == ENXIO;
	case K_KNOB:
		return e == EBUSY || e == ENODEV || e == EINVAL || e == ENOENT;
	case K_UNLOAD:
		return e == EAGAIN;
	case K_HOTPLUG:
	case K_RELOAD:
		return false;
	default:
		return e == EBUSY || e == ENODEV || e == EINVAL;
	}
}

static long count_errs(enum kind k)
{
	long n = 0;
	int e;

	for (e = 1; e < MAX_ERRNO; e++)
		n += tally->err[k][e];
	return n;
}

static int cpu_path_put(const char *fmt, int cpu, const char *val)
{
	char p[128];

	snprintf(p, sizeof(p), fmt, cpu);
	return put(p, val);
}

static void do_enable(unsigned int *seed)
{
	int cpu = rand_r(seed) % NCPU;

	count(K_ENABLE, cpu_path_put("/sys/class/ete/ete%d/enable", cpu,
				     rand_r(seed) % 2 ? "1" : "0"));
	usleep(rand_r(seed) % 5000);
}

static void do_capture(unsigned int *seed)
{
	struct tbuf t = { 0 };
	int cpu = rand_r(seed) % NCPU;
	int i, n = 1 + rand_r(seed) % 8;
	char buf[4096];
	int ret;

	ret = tbuf_open(&t, cpu);
	count(K_OPEN, ret);
	if (ret) {
		if (t.fd >= 0)
			close(t.fd);
		usleep(rand_r(seed) % 3000);
		return;
	}
	ret = ioctl(t.fd, ETE_TRBE_IOC_START) ? -errno : 0;
	count(K_CAPTURE, ret);
	for (i = 0; i < n; i++) {
		struct pollfd pfd = { .fd = t.fd, .events = POLLIN };

		switch (rand_r(seed) % 4) {
		case 0:
			count(K_CAPTURE, poll(&pfd, 1, 10) < 0 ? -errno : 0);
			break;
		case 1:
			fcntl(t.fd, F_SETFL, O_NONBLOCK);
			ret = read(t.fd, buf, sizeof(buf));
			count(K_CAPTURE, ret < 0 && errno != EAGAIN ? -errno : 0);
			break;
		case 2:
			ret = ioctl(t.fd, ETE_TRBE_IOC_SNAPSHOT) ? -errno : 0;
			count(K_CAPTURE, ret);
			break;
		default:
			/* consume through the mapping, as etecap does */
			__atomic_store_n(&t.hdr->data_tail, tbuf_head(&t),
					 __ATOMIC_RELEASE);
			count(K_CAPTURE, 0);
		}
		usleep(rand_r(seed) % 10000);
	}
	if (rand_r(seed) % 4)
		count(K_CAPTURE, ioctl(t.fd, ETE_TRBE_IOC_STOP) ? -errno : 0);
	tbuf_close(&t);
}

static void do_profile(unsigned int *seed)
{
	static const char * const sets[] = { "0", "1", "2", "3", "0-1",
					     "1-3", "0-3", "2-3" };

	mkdir(PROFILE, 0755);
	count(K_PROFILE, put(PROFILE "/cpus", sets[rand_r(seed) % 8]));
	count(K_PROFILE, put(PROFILE "/active", "1"));
	usleep(rand_r(seed) % 20000);
	count(K_PROFILE, put(PROFILE "/active", "0"));
	usleep(rand_r(seed) % 5000);
}

static void do_hotplug(unsigned int *seed)
{
	int cpu = 1 + rand_r(seed) % (NCPU - 1);
	char p[64];

	snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online", cpu);
	count(K_HOTPLUG, put(p, "0"));
	usleep(rand_r(seed) % 20000);
	count(K_HOTPLUG, put(p, "1"));
	usleep(rand_r(seed) % 50000);
}

static void do_knob(unsigned int *seed)
{
	static const char * const fm[] = { "fill", "wrap", "circular" };
	static const char * const pol[] = { "stop", "drop" };
	static const char * const us[] = { "0", "100", "1000", "5000" };
	int cpu = rand_r(seed) % NCPU;

	switch (rand_r(seed) % 3) {
	case 0:
		count(K_KNOB, trbe_set(cpu, "fill_mode", fm[rand_r(seed) % 3]));
		break;
	case 1:
		count(K_KNOB, trbe_set(cpu, "when_behind",
				       pol[rand_r(seed) % 2]));
		break;
	default:
		count(K_KNOB, put(FLUSH_US, us[rand_r(seed) % 4]));
	}
	usleep(rand_r(seed) % 10000);
}

/*
 * Unload trbe.ko: refused (EWOULDBLOCK) while a file, a mapping or a
 * session holds it; if it went, load it again (the reload's result is
 * counted on its own: it must never fail).
 */
static void do_unload(unsigned int *seed)
{
	int ret, fd;

	usleep(100000 + rand_r(seed) % 400000);
	ret = syscall(__NR_delete_module, "trbe", O_NONBLOCK) ? -errno : 0;
	count(K_UNLOAD, ret);
	if (ret)
		return;
	fd = open(TRBE_KO, O_RDONLY | O_CLOEXEC);
	ret = fd < 0 || syscall(__NR_finit_module, fd, "", 0) ? -errno : 0;
	count(K_RELOAD, ret);
	if (fd >= 0)
		close(fd);
}

typedef void (*worker_fn)(unsigned int *seed);

static pid_t spawn(worker_fn fn, unsigned int seed)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	while (now_s() < deadline)
		fn(&seed);
	_exit(0);
}

/* Back to a known state: all online, nothing running, default settings */
static void settle(void)
{
	char p[64];
	int cpu;

	put(PROFILE "/active", "0");
	rmdir(PROFILE);
	for (cpu = 1; cpu < NCPU; cpu++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/online",
			 cpu);
		put(p, "1");
	}
	for (cpu = 0; cpu < NCPU; cpu++) {
		cpu_path_put("/sys/class/ete/ete%d/enable", cpu, "0");
		trbe_set(cpu, "fill_mode", "fill");
		trbe_set(cpu, "when_behind", "stop");
		trbe_set(cpu, "trigger_mode", "ignore");
		trbe_set(cpu, "buffer_size", "65536");
		trbe_set(cpu, "watermark", "0");
	}
	put(FLUSH_US, "5000");
}

static bool unit_enabled(int cpu)
{
	char p[64], buf[8] = "";

	snprintf(p, sizeof(p), "/sys/class/ete/ete%d/enable", cpu);
	return get(p, buf, sizeof(buf)) > 0 && buf[0] == '1';
}

/* A byte-exact capture of 64 KiB on @cpu; 0 or -1, having said why */
static int clean_capture(int cpu)
{
	unsigned char *seq = seq_bytes(0, 64 * KB);
	struct checker c = { 0 };
	struct tbuf t = { 0 };
	double end;
	int ret = -1;

	model_configure(cpu, "65536", "fill", "ignore", "0", "stop");
	model_set(cpu, "rate", "256");
	if (!seq || model_replay(cpu, seq, 64 * KB)) {
		printf("# cpu%d: cannot replay\n", cpu);
		goto out;
	}
	if (tbuf_open(&t, cpu)) {
		printf("# cpu%d: open: %s\n", cpu, strerror(errno));
		goto out;
	}
	if (ioctl(t.fd, ETE_TRBE_IOC_START)) {
		printf("# cpu%d: START: %s\n", cpu, strerror(errno));
		goto out_close;
	}
	end = now_s() + 30;
	while (c.next < 64 * KB && c.bad == 0 && now_s() < end) {
		tbuf_drain(&t, &c);
		usleep(2000);
	}
	if (ioctl(t.fd, ETE_TRBE_IOC_STOP))
		printf("# cpu%d: STOP: %s\n", cpu, strerror(errno));
	tbuf_drain(&t, &c);
	if (c.next != 64 * KB || c.bad || c.jumps)
		printf("# cpu%d: capture: %llu of %lu bytes, %llu bad, %llu jumps\n",
		       cpu, (unsigned long long)c.next, 64 * KB,
		       (unsigned long long)c.bad,
		       (unsigned long long)c.jumps);
	else
		ret = 0;
out_close:
	tbuf_close(&t);
out:
	model_replay(cpu, NULL, 0);
	free(seq);
	return ret;
}

int main(int argc, char **argv)
{
	static const worker_fn workers[] = {
		do_enable, do_capture, do_capture, do_profile, do_hotplug,
		do_knob, do_unload,
	};
	int secs = argc > 1 ? atoi(argv[1]) : 60;
	unsigned int seed = argc > 2 ? strtoul(argv[2], NULL, 0) :
				       (unsigned int)time(NULL);
	pid_t pids[ARRAY_SIZE(workers)];
	int failed = 0, cpu, k, e;
	long unloaded, reloaded;
	int ret;
	char sink[32] = "";
	size_t i;

	if (getenv("STRESS_SEED"))
		seed = strtoul(getenv("STRESS_SEED"), NULL, 0);
	printf("TAP version 13\n1..1\n# seed %u, %d s\n", seed, secs);
	fflush(stdout);
	if (access(MODEL, F_OK) || access("/dev/trbe0", F_OK) ||
	    access("/sys/kernel/config/ete/profiles", F_OK)) {
		printf("ok 1 stress # SKIP model, trbe.ko or configfs missing\n");
		return 0;
	}
	tally = mmap(NULL, sizeof(*tally), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tally == MAP_FAILED)
		return 1;
	/* trbe.ko is the sink on every CPU */
	if (get(SINK_PRESENT, sink, sizeof(sink)) > 0)
		put(SINK_PRESENT, "0");
	settle();
	for (cpu = 0; cpu < NCPU; cpu++) {
		model_set(cpu, "violations", "0");
		model_set(cpu, "fault", "none");
		model_set(cpu, "rate", "64");
	}
	deadline = now_s() + secs;
	for (i = 0; i < ARRAY_SIZE(workers); i++)
		pids[i] = spawn(workers[i], seed + 7919 * i);
	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		int status;

		if (pids[i] < 0 || waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# worker %zu did not finish cleanly\n", i);
			failed = 1;
		}
	}
	for (k = 0; k < K_NR; k++) {
		printf("# %-16s %6ld operations", kind_name[k], tally->ops[k]);
		for (e = 1; e < MAX_ERRNO; e++)
			if (tally->err[k][e])
				printf(", %s %ld", strerrorname_np(e) ?: "?",
				       tally->err[k][e]);
		printf("\n");
		if (!tally->ops[k] && k != K_RELOAD)
			failed = 1;
		for (e = 1; e < MAX_ERRNO; e++) {
			if (!tally->err[k][e] || errno_documented(k, e))
				continue;
			printf("# %s: %s %ld times, not an errno the ABI documents\n",
			       kind_name[k], strerrorname_np(e) ?: "?",
			       tally->err[k][e]);
			failed = 1;
		}
	}
	/* trbe.ko loaded again after every unload, never failing */
	unloaded = tally->ops[K_UNLOAD] - count_errs(K_UNLOAD);
	reloaded = tally->ops[K_RELOAD] - count_errs(K_RELOAD);
	printf("# trbe.ko: unloaded %ld times (refused %ld), loaded again %ld\n",
	       unloaded, count_errs(K_UNLOAD), reloaded);
	if (unloaded != reloaded || count_errs(K_RELOAD))
		failed = 1;

	settle();
	/*
	 * Nothing open, nothing running: no reference to trbe.ko is left,
	 * it unloads and loads again; then the test sink goes back behind
	 * it in ete.ko's sink list, where the rig's later tests expect it.
	 */
	ret = module_reload("trbe");
	if (ret) {
		printf("# trbe.ko, idle, does not unload and load again: %s\n",
		       strerror(-ret));
		failed = 1;
	}
	ret = sink_order_restore();
	if (ret) {
		printf("# ete_test_sink: cannot load it again: %s\n",
		       strerror(-ret));
		failed = 1;
	}
	settle();
	for (cpu = 0; cpu < NCPU; cpu++) {
		char viol[4096];

		if (unit_enabled(cpu)) {
			printf("# cpu%d: unit still enabled\n", cpu);
			failed = 1;
		}
		if (clean_capture(cpu))
			failed = 1;
		if (model_violations(cpu, viol, sizeof(viol))) {
			printf("# cpu%d: model violations:\n%s\n", cpu, viol);
			failed = 1;
		}
		model_set(cpu, "rate", "64");
		trbe_set(cpu, "buffer_size", "1048576");
	}
	if (sink[0])
		put(SINK_PRESENT, sink);
	printf("%s 1 stress (seed %u)\n", failed ? "not ok" : "ok", seed);
	return failed;
}
