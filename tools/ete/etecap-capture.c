// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the capture loop.  Each CPU's /dev/trbe<N> is mapped and drained
 * with the consumer protocol of Documentation/abi-trbe.rst into
 * trace_cpu<N>.bin while the command runs, the CPUs in parallel
 * (etecap-pool.c); the command and its tasks are followed through
 * etecap-tasks.c.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "etecap.h"
#include "../../Documentation/trbe-consumer.c"

static int stop_signal;
static int wake_pipe[2] = { -1, -1 };
/* SIGUSR2s received, and the number the capture loop has acted on */
static unsigned int snap_requests;
static unsigned int snap_taken;

/* One per CPU traced, and the poll set: the CPUs and the wake pipe */
static struct trbe_consumer *consumers;
static struct pollfd *pfd;

/* Signals only note what happened and wake the poll */
static void on_signal(int sig)
{
	int saved = errno;
	char c = sig;

	if (sig == SIGUSR2)
		__atomic_add_fetch(&snap_requests, 1, __ATOMIC_RELAXED);
	else if (sig != SIGCHLD)
		__atomic_store_n(&stop_signal, sig, __ATOMIC_RELAXED);
	if (write(wake_pipe[1], &c, 1) < 0)
		(void)0;
	errno = saved;
}

/*
 * Installed first thing: a ^C during setup means no capture at all; a
 * SIGUSR2 is kept until the capture loop runs (one snapshot then).
 */
int etecap_setup_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	/* mid-snapshot, the copies it makes go on (they are not ended) */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);
	return 0;
}

int etecap_interrupted(void)
{
	return __atomic_load_n(&stop_signal, __ATOMIC_RELAXED);
}

/*
 * The capture's first error writing or tracking a trace file: the drain
 * threads (etecap-pool.c) set it, the first one wins.
 */
static int write_err;
static const char *outdir;	/* the directory of the trace files */

static void note_write_err(int err)
{
	int none = 0;

	__atomic_compare_exchange_n(&write_err, &none, err, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The trace file of @c, for a message */
static const char *trace_path(const struct etecap_cpu *c, char *path,
			      size_t size)
{
	return etecap_path(path, size, "%s/trace_cpu%d.bin", outdir, c->cpu);
}

/* Called by the CPU's drain thread only */
static void write_out(__u64 offset, const void *buf, size_t len, void *arg)
{
	char path[ETECAP_PATH];
	struct etecap_cpu *c = arg;
	size_t done;

	if (etecap_track_piece(c, offset, len))
		note_write_err(-ENOMEM);
	if (!c->bytes)
		c->first = offset;
	errno = 0;
	done = fwrite(buf, 1, len, c->out);
	if (done != len) {
		/* a short write without errno: the device is full */
		int err = errno ? -errno : -ENOSPC;

		note_write_err(err);
		etecap_write_error(trace_path(c, path, sizeof(path)), err);
	}
	/* what the file holds, not what was drained */
	c->bytes += done;
}

/*
 * Drain what CPU @i published; while running (*@arg), not a buffer in
 * wrap or circular mode: its TRBE writes on over published bytes and
 * may be up to a buffer ahead of data_head, so a copy made while it runs
 * cannot be told from newer data (Documentation/abi-trbe.rst).  It is a
 * flight recorder, read once stopped.
 */
static void drain_one(struct etecap *e, int i, void *arg)
{
	bool running = *(bool *)arg;

	if (!running || !e->cpu[i].flight)
		trbe_consumer_drain(&consumers[i], write_out, &e->cpu[i]);
	/* the ring keeps the last 64 records: copy them as they come */
	if (etecap_collect_gaps(&e->cpu[i], consumers[i].hdr))
		note_write_err(-ENOMEM);
}

/* Every CPU, in parallel (etecap-pool.c) */
static void drain_all(struct etecap *e, bool running)
{
	etecap_pool_run(e, drain_one, &running);
}

static int open_cpus(struct etecap *e)
{
	char path[ETECAP_PATH], mode[16];
	int i, ret;

	consumers = calloc(e->o.ncpus, sizeof(*consumers));
	pfd = calloc(e->o.ncpus + 1, sizeof(*pfd));
	if (!consumers || !pfd) {
		fprintf(stderr, "etecap: out of memory for %d CPUs\n", e->o.ncpus);
		return -ENOMEM;
	}
	for (i = 0; i < e->o.ncpus; i++) {
		struct etecap_cpu *c = &e->cpu[i];

		c->cpu = e->o.cpus[i];
		etecap_sys(path, sizeof(path), "/dev/trbe%d", c->cpu);
		ret = trbe_consumer_open(&consumers[i], path);
		if (ret) {
			fprintf(stderr, "etecap: %s: %s%s\n", path, strerror(-ret),
				ret != -ENOMEM ? "" :
				" (past trbe.mlock_kb a buffer is locked memory: see ulimit -l)");
			return ret;
		}
		etecap_sys(path, sizeof(path), "/sys/class/trbe/trbe%d/fill_mode",
			   c->cpu);
		c->flight = !etecap_sysfs_read(path, mode, sizeof(mode)) &&
			    strcmp(mode, "fill");
		etecap_path(path, sizeof(path), "%s/trace_cpu%d.bin",
			    e->o.outdir, c->cpu);
		outdir = e->o.outdir;
		c->out = fopen(path, "w");
		if (!c->out) {
			ret = -errno;
			fprintf(stderr, "etecap: %s: %s\n", path, strerror(errno));
			return ret;
		}
	}
	return 0;
}

/* Start every CPU, or none: the ones started are stopped on an error */
static int start_cpus(struct etecap *e)
{
	int i, ret = 0;

	if (e->o.profile)
		return etecap_profile_activate(e->o.profile, true);
	for (i = 0; i < e->o.ncpus && !ret; i++) {
		if (ioctl(consumers[i].fd, ETE_TRBE_IOC_START)) {
			ret = -errno;
			fprintf(stderr, "etecap: cpu%d: start: %s\n",
				e->cpu[i].cpu, strerror(errno));
			break;
		}
		e->cpu[i].running = true;
	}
	while (ret && --i >= 0) {
		ioctl(consumers[i].fd, ETE_TRBE_IOC_STOP);
		e->cpu[i].running = false;
	}
	return ret;
}

static int stop_cpus(struct etecap *e)
{
	int i, ret = 0;

	if (e->o.profile)
		ret = etecap_profile_activate(e->o.profile, false);
	for (i = 0; i < e->o.ncpus; i++) {
		if (!e->cpu[i].running)
			continue;
		if (ioctl(consumers[i].fd, ETE_TRBE_IOC_STOP)) {
			fprintf(stderr, "etecap: cpu%d: stop: %s\n",
				e->cpu[i].cpu, strerror(errno));
			ret = ret ?: -errno;
		}
		e->cpu[i].running = false;
	}
	return ret;
}

/* After the stop: the rest of the data, the gaps, the buffer's counters */
static int finish_cpus(struct etecap *e)
{
	char path[ETECAP_PATH];
	int i, ret = 0;

	drain_all(e, false);
	for (i = 0; i < e->o.ncpus; i++) {
		struct etecap_cpu *c = &e->cpu[i];
		const struct ete_trbe_mmap_page *h = consumers[i].hdr;

		c->gap_count = h->gap_count;
		c->lost_bytes = h->lost_bytes;
		c->wrap_count = h->wrap_count;
		c->state = h->state;
		c->last_error = h->last_error;
		ret = ret ?: etecap_write_gaps(e->o.outdir, c, h);
		if (c->gaps_missed)
			fprintf(stderr,
				"etecap: cpu%d: %llu gap record(s) left the driver's ring before they were read: gaps_cpu%d.txt misses them; drain more often (a bigger buffer, a lower watermark)\n",
				c->cpu, (unsigned long long)c->gaps_missed,
				c->cpu);
		free(c->jumps);
		c->jumps = NULL;
		free(c->gaps);
		c->gaps = NULL;
		trace_path(c, path, sizeof(path));
		if (etecap_fclose(c->out, path) && !ret)
			ret = -EIO;
		c->out = NULL;
		trbe_consumer_close(&consumers[i]);
	}
	return ret ?: write_err;
}

static void progress(struct etecap *e, long elapsed)
{
	__u64 total = 0, gaps = 0;
	char line[1024];
	int i, n;

	n = snprintf(line, sizeof(line), "etecap: %ld.%ld s:", elapsed / 1000,
		     elapsed / 100 % 10);
	for (i = 0; i < e->o.ncpus; i++) {
		total += e->cpu[i].bytes;
		gaps += consumers[i].hdr->gap_count;
		if (n < (int)sizeof(line) - 32)
			n += snprintf(line + n, sizeof(line) - n, " cpu%d %llu KiB",
				      e->cpu[i].cpu,
				      (unsigned long long)e->cpu[i].bytes >> 10);
	}
	fprintf(stderr, "%s; total %llu KiB, %llu gap(s)\n", line,
		(unsigned long long)total >> 10, (unsigned long long)gaps);
}

/* Sleep in poll until data, a signal, the end or the next progress line */
static void wait_events(struct etecap *e, long deadline, long next_progress)
{
	long t = 200, now = etecap_now_ms();
	char buf[64];
	int i;

	for (i = 0; i < e->o.ncpus; i++) {
		pfd[i].fd = consumers[i].fd;
		pfd[i].events = POLLIN;
	}
	pfd[i].fd = wake_pipe[0];
	pfd[i].events = POLLIN;
	if (deadline && deadline - now < t)
		t = deadline - now;
	if (next_progress && next_progress - now < t)
		t = next_progress - now;
	if (poll(pfd, e->o.ncpus + 1, t < 0 ? 0 : t) > 0 && pfd[i].revents)
		while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
			;
}

/*
 * SIGUSR2 in wrap or circular mode: the flight recorder's snapshot.  The
 * TRBE writes on over published bytes while it runs, so the CPUs are
 * stopped (ETE_TRBE_IOC_STOP publishes the rest), drained into DIR.<n>
 * with the code of the tasks alive now, and started again on the same
 * files: the stream goes on from data_head, a new session that the
 * driver marks with an ETE_TRBE_GAP_SESSION record (abi-trbe.rst).  Each
 * DIR.<n> holds what the buffers took since the one before (at most a
 * buffer's worth); DIR, at the end, what they took since the last.
 * 0, or -errno if the trace could not be started again.
 */
static int flight_snapshot(struct etecap *e, long elapsed)
{
	FILE **keep = calloc(e->o.ncpus, sizeof(*keep));
	int i, ret, n = e->snapshots + 1;
	char path[ETECAP_PATH];

	if (!keep) {
		fprintf(stderr, "etecap: SIGUSR2: out of memory; no snapshot\n");
		return 0;
	}
	e->elapsed_ms = elapsed;
	ret = stop_cpus(e);
	if (!ret)
		ret = etecap_flight_open(e, n);
	if (ret) {
		free(keep);
		return start_cpus(e);
	}
	for (i = 0; i < e->o.ncpus; i++) {
		struct etecap_cpu *c = &e->cpu[i];

		keep[i] = c->out;
		etecap_path(path, sizeof(path), "%s/trace_cpu%d.bin",
			    e->o.outdir, c->cpu);
		c->out = fopen(path, "w");
		if (!c->out) {
			ret = ret ?: -errno;
			c->out = fopen("/dev/null", "w");
		}
	}
	outdir = e->o.outdir;
	drain_all(e, false);
	for (i = 0; i < e->o.ncpus; i++) {
		struct etecap_cpu *c = &e->cpu[i];
		const struct ete_trbe_mmap_page *h = consumers[i].hdr;

		c->gap_count = h->gap_count;
		c->lost_bytes = h->lost_bytes;
		c->wrap_count = h->wrap_count;
		c->state = h->state;
		c->last_error = h->last_error;
		ret = ret ?: etecap_write_gaps(e->o.outdir, c, h);
		trace_path(c, path, sizeof(path));
		if (c->out && etecap_fclose(c->out, path) && !ret)
			ret = -EIO;
		c->out = keep[i];
	}
	ret = ret ?: write_err;
	write_err = 0;
	if (!ret)
		etecap_collect_tracees(e);
	etecap_flight_close(e, ret);
	outdir = e->o.outdir;
	free(keep);
	/* the capture's files again, from the next byte on */
	for (i = 0; i < e->o.ncpus; i++) {
		struct etecap_cpu *c = &e->cpu[i];

		c->bytes = 0;
		c->first = c->next;
		c->njumps = 0;
		c->ngaps = 0;
	}
	ret = start_cpus(e);
	if (ret)
		fprintf(stderr, "etecap: snapshot %d: the trace did not start again: stopping\n",
			n);
	return ret;
}

/* Every CPU in wrap or circular mode: SIGUSR2 takes a snapshot */
static bool flight_recorder(const struct etecap *e)
{
	int i;

	for (i = 0; i < e->o.ncpus; i++)
		if (!e->cpu[i].flight)
			return false;
	return e->o.ncpus > 0;
}

/*
 * The SIGUSR2s not acted on yet (they come during setup or a snapshot
 * too): one snapshot for them, or, in fill mode, a word on stderr once.
 * true when the capture must stop.
 */
static bool take_snapshots(struct etecap *e, long elapsed)
{
	static bool said;
	unsigned int req = __atomic_load_n(&snap_requests, __ATOMIC_RELAXED);

	if (req == snap_taken)
		return false;
	snap_taken = req;
	if (flight_recorder(e))
		return flight_snapshot(e, elapsed) != 0;
	if (!said)
		fprintf(stderr,
			"etecap: SIGUSR2: snapshots are for -m wrap or circular (the flight recorder); fill mode writes its trace as it goes: ignored\n");
	said = true;
	return false;
}

/*
 * Why the capture ends now, as etecap.txt says it (ended=), or NULL:
 * the command ended, every task attached to ended, a signal, the
 * duration (-t) passed.
 */
static const char *capture_end(const struct etecap *e, bool done, long now,
			       long deadline)
{
	if (done)
		return e->o.attach ? "tasks" : "command";
	if (etecap_interrupted())
		return "signal";
	if (deadline && now >= deadline)
		return "duration";
	return NULL;
}

static int capture_loop(struct etecap *e)
{
	long t0 = etecap_now_ms(), deadline = 0, next_progress = 0, now;
	int every = e->o.quiet ? 0 : e->o.progress_ms;

	if (e->o.duration_ms != ETECAP_UNSET)
		deadline = t0 + e->o.duration_ms;
	if (every)
		next_progress = t0 + every;
	for (;;) {
		bool done = etecap_reap(e);

		drain_all(e, true);
		now = etecap_now_ms();
		e->ended = capture_end(e, done, now, deadline);
		if (e->ended)
			break;
		if (take_snapshots(e, now - t0)) {
			e->ended = "flight_snapshot_failed";
			break;
		}
		if (next_progress && now >= next_progress) {
			progress(e, now - t0);
			next_progress += every;
		}
		wait_events(e, deadline, next_progress);
	}
	e->elapsed_ms = now - t0;
	if (etecap_interrupted() && !e->o.quiet)
		fprintf(stderr, "etecap: %s: stopping and writing the snapshot\n",
			strsignal(etecap_interrupted()));
	return 0;
}

/*
 * Open every CPU's buffer, start the command (stopped), start the trace,
 * run the command, drain until it ends (or the duration, or a signal),
 * stop, drain the rest and save the gap lists.  0 or -errno.
 */
int etecap_capture(struct etecap *e)
{
	int ret, ret2;

	ret = open_cpus(e);
	if (!ret && e->o.cmd)
		ret = etecap_spawn(e);
	else if (!ret && e->o.attach)
		ret = etecap_attach_tasks(e);
	/* the command (waiting before its exec) or -p's, and all they start */
	if (etecap_task_mode(&e->o))
		e->bound = e->child ?: e->o.task_pid;
	for (int i = 0; !ret && e->bound && i < e->o.ncpus; i++)
		ret = etecap_bind_task(consumers[i].fd, e->cpu[i].cpu, e->bound);
	if (!ret && etecap_interrupted())
		ret = -EINTR;
	if (!ret)
		etecap_pool_start(e);
	ret = ret ?: start_cpus(e);
	if (ret) {
		if (e->child)
			kill(e->child, SIGKILL);
		etecap_pool_stop();
		return ret;
	}
	e->started = true;
	etecap_run_command(e);
	capture_loop(e);
	ret = stop_cpus(e);
	etecap_release_tracees(e);
	ret2 = finish_cpus(e);
	etecap_pool_stop();
	return ret ?: ret2;
}
