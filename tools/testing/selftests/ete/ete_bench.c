// SPDX-License-Identifier: GPL-2.0
/*
 * make bench, the guest half: what the driver costs and how much trace it
 * moves, against the ETE/TRBE model.  Not a test: it asserts nothing and
 * prints figures, each a count or a ratio of two things measured side by
 * side in this boot, so that the emulator's slowness cancels out.
 *
 * Every figure is one line
 *	BENCH <TAB> key <TAB> value <TAB> lower|higher|ref <TAB> what it is
 * ("lower" or "higher" is the better direction; "ref" a reference such
 * as an architectural minimum, not compared) that the host half
 * (tools/testing/qemu/bench.sh) collects, puts beside mainline's counts
 * and the previous run's figures, and prints as a table.
 *
 *	ete_bench [-t SECONDS_PER_RATE] [-c CPUS]
 *
 * Needs ete.ko, trbe.ko, ete_model.ko and ete_pm_test.ko loaded, and root.
 */
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <signal.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#include "trbe_model.h"

#define PMT		"/sys/kernel/debug/ete_pm_test/cpu_pm"
#define FLUSH_US	"/sys/module/trbe/parameters/flush_us"
#define MAX_CPUS	4
#define REPLAY_BYTES	(4 * MB)
#define PM_CYCLES	20
#define REFINE_STEPS	3	/* between the sweep's last rate without loss and the next */

static double step_secs = 2.0;
static int ncpu = MAX_CPUS;

static void fig(const char *key, double val, const char *better,
		const char *what)
{
	printf("BENCH\t%s\t%.6g\t%s\t%s\n", key, val, better, what);
	fflush(stdout);
}

static long long accesses(int cpu)
{
	return model_stat(cpu, "reads") + model_stat(cpu, "writes");
}

/* ISB, DSB and TSB CSYNC through the system-register view */
static long long barriers(int cpu)
{
	return model_stat(cpu, "isb") + model_stat(cpu, "dsb") +
	       model_stat(cpu, "tsb");
}

static int set_flush_us(const char *val)
{
	return write_file(FLUSH_US, val, strlen(val));
}

static int cpu_pm(int cpu, const char *mode)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "%d %s", cpu, mode);
	return write_file(PMT, cmd, strlen(cmd));
}

/* Stop the model's trace on @cpu and forget its replay */
static void quiet(int cpu)
{
	model_set(cpu, "rate", "0");
	model_set(cpu, "replay_mode", "0");
	model_replay(cpu, NULL, 0);
}

/* ---- the model's registers: what a configuration needs ------------------- */

struct image {
	int needed;		/* registers this configuration needs written */
	int dynamic;		/* of the dynamic ones, those the config uses */
};

/*
 * What every configuration depends on whatever its value: after a power
 * loss, or at the first start, these hold UNKNOWN values.  A comparator,
 * selector, counter or sequencer register matters only when one of these
 * (or another such register) refers to it: the model's cpu<N>/live lists
 * those, from the values the unit holds (counting the registers that are
 * not 0 instead counted the UNKNOWN values a reset leaves in registers
 * nothing refers to).
 */
static const char *const controls[] = {
	"TRCCONFIGR", "TRCAUXCTLR", "TRCEVENTCTL0R", "TRCEVENTCTL1R",
	"TRCSTALLCTLR", "TRCTSCTLR", "TRCSYNCPR", "TRCCCCTLR", "TRCBBCTLR",
	"TRCTRACEIDR", "TRCQCTLR", "TRCVICTLR", "TRCVIIECTLR", "TRCVISSCTLR",
};

/* "NAME VALUE" lines of cpu<N>/live, after a start programmed them */
static struct image image_of(int cpu)
{
	struct image im = { 0 };
	char path[64], name[32], line[128];
	unsigned long long val;
	int seq = 0;
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), MODEL "cpu%d/live", cpu);
	f = fopen(path, "r");
	if (!f)
		return im;
	while (fgets(line, sizeof(line), f)) {
		int control = 0;

		if (sscanf(line, "%31s %llx", name, &val) != 2 ||
		    !strcmp(name, "TRCPRGCTLR"))
			continue;
		for (i = 0; i < ARRAY_SIZE(controls); i++)
			control |= !strcmp(name, controls[i]);
		im.needed++;
		/* a counter, a single-shot control or the sequencer in use */
		if (!control && (!strncmp(name, "TRCCNTCTLR", 10) ||
				 !strncmp(name, "TRCSSCCR", 8)))
			im.dynamic++;
		if (!control && !strncmp(name, "TRCSEQEVR", 9))
			seq = 1;
	}
	fclose(f);
	/* TRCVICTLR (SSSTATUS) and TRCRSR always, the sequencer's state */
	im.dynamic += 2 + seq;
	return im;
}

/* ---- 1. register accesses per path ------------------------------------- */

/*
 * The architectural minimum of each path, for the configuration in use
 * (Documentation/testing.rst, "make bench"): the enable or disable and
 * one status read (RDXFFN), the registers the configuration needs
 * (image_of()), and the TRBE's: base, pointer and limit, and TRFCR_EL1.
 */
/* A reader waiting in poll() for up to 1.2 s (bench_paths' flush figures) */
static void *poll_waiter(void *arg)
{
	struct tbuf *t = arg;
	struct pollfd pfd = { .fd = t->fd, .events = POLLIN };

	poll(&pfd, 1, 1200);
	return NULL;
}

static void bench_paths(void)
{
	long long a0, a1, a2, p0, p1, p2, irq0, fl0, save = 0, restore = 0;
	long long save_polls = 0, restore_polls = 0, b0, b1, b2;
	struct image im;
	struct tbuf t;
	double t0;
	int i;

	model_configure(0, "1048576", "fill", "ignore", "0", "stop");
	quiet(0);
	set_flush_us("0");
	if (tbuf_open(&t, 0)) {
		fprintf(stderr, "ete_bench: /dev/trbe0: %s\n", strerror(errno));
		return;
	}
	a0 = accesses(0);
	p0 = model_stat(0, "status_reads");
	b0 = barriers(0);
	if (ioctl(t.fd, ETE_TRBE_IOC_START)) {
		fprintf(stderr, "ete_bench: start: %s\n", strerror(errno));
		goto out;
	}
	usleep(20000);
	a1 = accesses(0);
	p1 = model_stat(0, "status_reads");
	b1 = barriers(0);
	im = image_of(0);
	ioctl(t.fd, ETE_TRBE_IOC_STOP);
	usleep(20000);
	a2 = accesses(0);
	p2 = model_stat(0, "status_reads");
	b2 = barriers(0);
	fig("start_accesses", a1 - a0, "lower",
	    "session start on one CPU: register accesses (trace unit and TRBE)");
	fig("start_polls", p1 - p0, "lower", "of those, status reads");
	fig("start_min", im.needed + 2 + 4, "ref",
	    "minimum: registers the configuration needs, TRCPRGCTLR, TRCSTATR, TRBE 4");
	fig("start_ratio", (double)(a1 - a0) / (im.needed + 6), "lower",
	    "start accesses / minimum");
	fig("stop_accesses", a2 - a1, "lower", "session stop on one CPU");
	fig("stop_polls", p2 - p1, "lower", "of those, status reads");
	/* EN, TRCSTATR; TRFCR, TSB/drain, TRBLIMITR, TRBPTR, TRBSR */
	fig("stop_min", 7, "ref",
	    "minimum: TRCPRGCTLR, TRCSTATR, TRFCR, TRBLIMITR, TRBPTR, TRBSR, TRBSR clear");
	fig("stop_ratio", (double)(a2 - a1) / 7, "lower", "stop accesses / minimum");
	fig("start_barriers", b1 - b0, "lower", "session start: ISB, DSB, TSB CSYNC");
	fig("stop_barriers", b2 - b1, "lower", "session stop: ISB, DSB, TSB CSYNC");

	/* 2. CPU PM save and restore, power lost at each exit */
	if (!access(PMT, W_OK) && !ioctl(t.fd, ETE_TRBE_IOC_START)) {
		b0 = barriers(0);
		for (i = 0; i < PM_CYCLES; i++) {
			if (cpu_pm(0, "enter"))
				break;
			save += model_stat(0, "last_save");
			save_polls += model_stat(0, "last_save_polls");
			model_set(0, "powerdown", "1");
			cpu_pm(0, "exit");
			restore += model_stat(0, "last_restore");
			restore_polls += model_stat(0, "last_restore_polls");
		}
		b1 = barriers(0);
		ioctl(t.fd, ETE_TRBE_IOC_STOP);
		model_set(0, "powerdown", "0");
		if (i)
			fig("pm_cycle_barriers", (double)(b1 - b0) / i, "lower",
			    "CPU PM save and restore: ISB, DSB, TSB CSYNC per cycle");
		if (i) {
			/* OSLAR, TRCSTATR, the dynamic registers; TRBE 5 */
			int smin = 2 + im.dynamic + 5;
			/* the start's, the dynamic registers, OSLAR, TRBSR */
			int rmin = im.needed + 6 + im.dynamic + 2;

			fig("save_accesses", (double)save / i, "lower",
			    "CPU PM save (state lost at the exit), per save");
			fig("save_polls", (double)save_polls / i, "lower",
			    "of those, status reads");
			fig("save_min", smin, "ref",
			    "minimum: OSLAR, TRCSTATR, dynamic registers in use, TRBE 5");
			fig("save_ratio", (double)save / i / smin, "lower",
			    "save accesses / minimum");
			fig("restore_accesses", (double)restore / i, "lower",
			    "CPU PM restore after power loss, per restore");
			fig("restore_polls", (double)restore_polls / i,
			    "lower", "of those, status reads");
			fig("restore_min", rmin, "ref",
			    "minimum: the start's, dynamic registers, OSLAR, TRBSR");
			fig("restore_ratio", (double)restore / i / rmin,
			    "lower", "restore accesses / minimum");
		}
	}

	/*
	 * 3. the flush, armed with no trace: while no reader waits (it
	 * should not run at all), then with a reader waiting in poll()
	 */
	set_flush_us("1000");
	if (!ioctl(t.fd, ETE_TRBE_IOC_START)) {
		pthread_t waiter;
		int waiting;

		usleep(50000);
		a0 = accesses(0);
		fl0 = trbe_num(0, "stats/flushes");
		t0 = now_s();
		usleep(1000000);
		t0 = now_s() - t0;
		fig("idle_flushes_per_s", (trbe_num(0, "stats/flushes") - fl0) / t0,
		    "lower", "flushes per second, armed, no trace, no reader waiting");
		fig("idle_accesses_per_s", (accesses(0) - a0) / t0, "lower",
		    "register accesses per second, the same");
		waiting = !pthread_create(&waiter, NULL, poll_waiter, &t);
		usleep(50000);
		a0 = accesses(0);
		fl0 = trbe_num(0, "stats/flushes");
		t0 = now_s();
		usleep(1000000);
		a1 = accesses(0);
		fl0 = trbe_num(0, "stats/flushes") - fl0;
		t0 = now_s() - t0;
		ioctl(t.fd, ETE_TRBE_IOC_STOP);
		if (waiting)
			pthread_join(waiter, NULL);
		fig("waiting_flushes_per_s", fl0 / t0, "ref",
		    "flushes per second, armed, no trace, a reader in poll() (flush_us 1000)");
		if (fl0 > 0)
			fig("flush_accesses", (double)(a1 - a0) / fl0, "lower",
			    "accesses per flush (no trace, a reader waiting)");
		/* TSB CSYNC is no access; TRBPTR read, TRBLIMITR write */
		fig("flush_min", 2, "ref", "minimum: TRBPTR read, TRBLIMITR write");
		/* the same flush on request (issue 19), the timer off */
		set_flush_us("0");
		if (!ioctl(t.fd, ETE_TRBE_IOC_START)) {
			a0 = accesses(0);
			for (i = 0; i < 100; i++)
				if (ioctl(t.fd, ETE_TRBE_IOC_FLUSH))
					break;
			a1 = accesses(0);
			ioctl(t.fd, ETE_TRBE_IOC_STOP);
			if (i == 100)
				fig("flush_ioctl_accesses", (a1 - a0) / 100.0,
				    "lower",
				    "accesses per ETE_TRBE_IOC_FLUSH (no trace)");
		}
	}

	/* 4. the interrupt, fill mode with no flush: each window's end */
	set_flush_us("0");
	tbuf_close(&t);
	model_configure(0, "65536", "fill", "ignore", "0", "stop");
	quiet(0);
	/* the size is the one buffer_size had at open */
	if (tbuf_open(&t, 0)) {
		fprintf(stderr, "ete_bench: /dev/trbe0: %s\n", strerror(errno));
		set_flush_us("5000");
		return;
	}
	{
		unsigned char *seq = seq_bytes(0, REPLAY_BYTES);
		struct checker c = { 0 };

		if (seq && !model_replay(0, seq, REPLAY_BYTES) &&
		    !model_set(0, "replay_mode", "1") &&
		    !model_set(0, "rate", "1024") &&
		    !ioctl(t.fd, ETE_TRBE_IOC_START)) {
			struct pollfd pfd = { .fd = t.fd, .events = POLLIN };

			a0 = accesses(0);
			irq0 = trbe_num(0, "stats/interrupts");
			t0 = now_s();
			while (now_s() - t0 < 1.0) {
				poll(&pfd, 1, 10);
				tbuf_drain(&t, &c);
			}
			a1 = accesses(0);
			irq0 = trbe_num(0, "stats/interrupts") - irq0;
			ioctl(t.fd, ETE_TRBE_IOC_STOP);
			if (irq0 > 0)
				fig("irq_accesses", (double)(a1 - a0) / irq0,
				    "lower",
				    "accesses per TRBE interrupt with its re-arm (64 KiB, fill, no flush)");
			/* TRBSR, TRFCR x2, TRBLIMITR x2, TRBPTR x2, TRBBASER, TRBSR */
			fig("irq_min", 9, "ref",
			    "minimum: TRBSR read+clear, TRFCR x2, TRBLIMITR x2, TRBPTR x2, TRBBASER");
		}
		free(seq);
	}
	quiet(0);
out:
	tbuf_close(&t);
	set_flush_us("5000");
}

/* ---- 1b. start time against the accesses it cannot avoid --------------- */

#define START_REPS	9

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nanoseconds one system-register access takes here (the model times it) */
static double model_access_ns(int cpu)
{
	char path[96];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), MODEL "cpu%d/access_ns", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * Wall time of ETE_TRBE_IOC_START on @n CPUs, one ioctl after another as
 * etecap does, the median of START_REPS starts (each stopped again); 0 if
 * a start failed.
 */
static double start_secs(struct tbuf *t, int n)
{
	double s[START_REPS], t0;
	int r, i;

	for (r = 0; r < START_REPS; r++) {
		t0 = now_s();
		for (i = 0; i < n; i++)
			if (ioctl(t[i].fd, ETE_TRBE_IOC_START))
				break;
		s[r] = now_s() - t0;
		while (i--)
			ioctl(t[i].fd, ETE_TRBE_IOC_STOP);
		if (i != -1)
			return 0;
		usleep(20000);
	}
	qsort(s, START_REPS, sizeof(s[0]), cmp_double);
	return s[START_REPS / 2];
}

/*
 * Figure 7: how long a session start takes on 1 and on all CPUs, over what
 * its minimum accesses would take at the measured time per access: how
 * much of a start is neither a register access nor avoidable by fewer.
 */
static void bench_start_time(void)
{
	struct tbuf t[MAX_CPUS];
	double ns, s1, sn;
	int i, n, min;

	for (n = 0; n < ncpu; n++) {
		model_configure(n, "1048576", "fill", "ignore", "0", "stop");
		quiet(n);
		if (tbuf_open(&t[n], n)) {
			fprintf(stderr, "ete_bench: /dev/trbe%d: %s\n", n,
				strerror(errno));
			break;
		}
	}
	min = image_of(0).needed + 6;
	ns = model_access_ns(0);
	s1 = n ? start_secs(t, 1) : 0;
	sn = n == ncpu ? start_secs(t, n) : 0;
	if (ns > 0 && s1 > 0 && sn > 0) {
		fig("access_ns", ns, "ref",
		    "one system-register access to the model, ns (timed in the guest)");
		fig("start_us_1cpu", s1 * 1e6, "lower",
		    "session start on 1 CPU (ioctl START), wall time, us");
		fig("start_time_ratio_1cpu", s1 * 1e9 / (min * ns), "lower",
		    "that / (minimum accesses x time per access)");
		fig("start_us_all", sn * 1e6, "lower",
		    "session start on every CPU, one ioctl after another, us");
		fig("start_time_ratio_all", sn * 1e9 / (n * min * ns), "lower",
		    "that / (CPUs x minimum accesses x time per access)");
	}
	for (i = 0; i < n; i++)
		tbuf_close(&t[i]);
}

/* ---- 2. draining: mmap and read() against memcpy ----------------------- */

/* @reps copies of @len bytes into @dst from a buffer as warm as a mapping */
static double memcpy_secs(unsigned char *dst, size_t len, int reps)
{
	unsigned char *src = malloc(len);
	double t0;
	int i;

	if (!src)
		return 0;
	memset(src, 1, len);
	memcpy(dst, src, len);
	t0 = now_s();
	for (i = 0; i < reps; i++) {
		memcpy(dst, src, len);
		__asm__ __volatile__("" : : "r"(dst) : "memory");
	}
	t0 = now_s() - t0;
	free(src);
	return t0;
}

/* Fill the 1 MiB buffer of CPU 0 in wrap mode, stop: data to drain */
static int fill_wrap(struct tbuf *t, const unsigned char *seq)
{
	double end = now_s() + 5;

	if (model_replay(0, seq, REPLAY_BYTES) ||
	    model_set(0, "replay_mode", "1") || model_set(0, "rate", "65536") ||
	    ioctl(t->fd, ETE_TRBE_IOC_START))
		return -1;
	while (tbuf_head(t) < 2 * t->size && now_s() < end) {
		usleep(20000);
		ioctl(t->fd, ETE_TRBE_IOC_SNAPSHOT);
	}
	ioctl(t->fd, ETE_TRBE_IOC_STOP);
	quiet(0);
	return tbuf_head(t) >= t->size ? 0 : -1;
}

static void bench_drain(void)
{
	unsigned char *seq = seq_bytes(0, REPLAY_BYTES), *out = malloc(MB);
	double t_mmap = 0, t_read = 0, t_mem;
	__u64 bytes_read = 0;
	struct tbuf t;
	int i, reps = 64;

	model_configure(0, "1048576", "wrap", "ignore", "0", "stop");
	quiet(0);
	if (!seq || !out || tbuf_open(&t, 0))
		goto out_free;
	if (fill_wrap(&t, seq)) {
		fprintf(stderr, "ete_bench: could not fill the buffer\n");
		goto out;
	}
	/* the mapping as etecap copies it out, 1 MiB at a time */
	t_mmap = now_s();
	for (i = 0; i < reps; i++) {
		memcpy(out, t.data, t.size);
		__asm__ __volatile__("" : : "r"(out) : "memory");
	}
	t_mmap = now_s() - t_mmap;
	t_mem = memcpy_secs(out, t.size, reps);
	fig("mmap_drain_vs_memcpy", t_mmap / t_mem, "lower",
	    "copying the mapped buffer / memcpy of the same bytes (1 MiB x 64)");

	/* read(): a fresh fill each time, only the read() calls timed */
	for (i = 0; i < 8; i++) {
		ssize_t n;
		double t0;

		if (i && fill_wrap(&t, seq))
			break;
		t0 = now_s();
		while ((n = read(t.fd, out, MB)) > 0)
			bytes_read += n;
		t_read += now_s() - t0;
	}
	if (bytes_read >= MB) {
		int mibs = bytes_read / MB;

		t_mem = memcpy_secs(out, MB, mibs);
		fig("read_drain_vs_memcpy",
		    (t_read / bytes_read) / (t_mem / ((double)mibs * MB)),
		    "lower", "read() of the buffer / memcpy of the same bytes");
	}
out:
	tbuf_close(&t);
out_free:
	free(seq);
	free(out);
}

/* ---- 3. streaming on every CPU at a set rate --------------------------- */

struct streamer {
	pthread_t thread;
	int cpu;
	int stop;	/* __atomic */
	struct tbuf t;
	unsigned char *copy;
	__u64 consumed;
	__u64 timeouts;		/* poll() returned 0: woken by its own timeout */
	double cpu_secs;	/* the reader thread's CPU time */
};

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A reader as etecap is: poll, copy out what is published, move the tail */
static void *stream_reader(void *arg)
{
	struct streamer *s = arg;
	struct pollfd pfd = { .fd = s->t.fd, .events = POLLIN };
	double c0 = thread_cpu_s();

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		__u64 head, tail;

		if (!poll(&pfd, 1, 50))
			s->timeouts++;
		head = tbuf_head(&s->t);
		tail = s->t.hdr->data_tail;
		if (tail < s->t.hdr->data_lost_tail)
			tail = s->t.hdr->data_lost_tail;
		while (tail < head) {
			__u64 off = tail % s->t.size, n = head - tail;

			if (n > s->t.size - off)
				n = s->t.size - off;
			memcpy(s->copy, s->t.data + off, n);
			tail += n;
			s->consumed += n;
		}
		__atomic_store_n(&s->t.hdr->data_tail, tail, __ATOMIC_RELEASE);
	}
	s->cpu_secs = thread_cpu_s() - c0;
	return NULL;
}

struct step {
	unsigned int rate;	/* bytes per ms per CPU, nominal */
	double offered;		/* MB/s, all CPUs, as the model emitted */
	double delivered;	/* MB/s published by the driver */
	double loss;		/* lost / offered */
	double padding;		/* IGNORE bytes per MiB published */
	double irqs, wakeups, flushes, accesses;	/* per MiB */
	double timeouts;	/* readers' poll() timeouts per MiB */
	double gen_share;	/* the model's generation, share of the CPUs' time */
	double driver_ns;	/* the driver's time on the traced CPUs per MiB */
	double reader_share;	/* the readers' CPU time, share of the CPUs' time */
};

static int run_step(struct step *st, const unsigned char *seq)
{
	long long off0[MAX_CPUS], drop0[MAX_CPUS], pad0[MAX_CPUS];
	long long irq0[MAX_CPUS], wake0[MAX_CPUS], fl0[MAX_CPUS], acc0[MAX_CPUS];
	long long tick0[MAX_CPUS], busy0[MAX_CPUS];
	struct streamer s[MAX_CPUS] = { 0 };
	char rate[16];
	double t0, secs;
	double offered = 0, published = 0, lost = 0, pad = 0, irqs = 0;
	double wakeups = 0, flushes = 0, acc = 0, tmo = 0, gen = 0, rd = 0;
	double busy = 0;
	int i, ret = -1;

	snprintf(rate, sizeof(rate), "%u", st->rate);
	for (i = 0; i < ncpu; i++) {
		model_configure(i, "1048576", "fill", "ignore", "0", "stop");
		quiet(i);
		s[i].cpu = i;
		s[i].copy = malloc(MB);
		if (!s[i].copy || tbuf_open(&s[i].t, i) ||
		    model_replay(i, seq, REPLAY_BYTES) ||
		    model_set(i, "replay_mode", "3"))
			goto out;
	}
	for (i = 0; i < ncpu; i++) {
		off0[i] = model_stat(i, "replay_offered");
		drop0[i] = model_stat(i, "bytes_dropped");
		pad0[i] = trbe_num(i, "stats/padding_bytes");
		irq0[i] = trbe_num(i, "stats/interrupts");
		wake0[i] = trbe_num(i, "stats/wakeups");
		fl0[i] = trbe_num(i, "stats/flushes");
		acc0[i] = accesses(i);
		tick0[i] = model_stat(i, "tick_ns");
		busy0[i] = trbe_num(i, "stats/cpu_ns");
		if (pthread_create(&s[i].thread, NULL, stream_reader, &s[i]))
			goto out;
	}
	t0 = now_s();
	for (i = 0; i < ncpu; i++) {
		model_set(i, "rate", rate);
		if (ioctl(s[i].t.fd, ETE_TRBE_IOC_START))
			goto out_stop;
	}
	usleep(step_secs * 1e6);
	ret = 0;
out_stop:
	for (i = 0; i < ncpu; i++)
		model_set(i, "rate", "0");
	secs = now_s() - t0;
	for (i = 0; i < ncpu; i++) {
		ioctl(s[i].t.fd, ETE_TRBE_IOC_STOP);
		__atomic_store_n(&s[i].stop, 1, __ATOMIC_RELEASE);
		pthread_join(s[i].thread, NULL);
		s[i].thread = 0;
		offered += model_stat(i, "replay_offered") - off0[i];
		lost += model_stat(i, "bytes_dropped") - drop0[i] +
			s[i].t.hdr->lost_bytes;
		published += tbuf_head(&s[i].t);
		pad += trbe_num(i, "stats/padding_bytes") - pad0[i];
		irqs += trbe_num(i, "stats/interrupts") - irq0[i];
		wakeups += trbe_num(i, "stats/wakeups") - wake0[i];
		flushes += trbe_num(i, "stats/flushes") - fl0[i];
		acc += accesses(i) - acc0[i];
		gen += (model_stat(i, "tick_ns") - tick0[i]) / 1e9;
		busy += trbe_num(i, "stats/cpu_ns") - busy0[i];
		tmo += s[i].timeouts;
		rd += s[i].cpu_secs;
	}
	st->gen_share = gen / (secs * ncpu);
	st->reader_share = rd / (secs * ncpu);
	st->offered = offered / secs / 1e6;
	st->delivered = published / secs / 1e6;
	st->loss = offered ? lost / offered : 0;
	if (published) {
		double mib = published / MB;

		st->padding = pad / mib;
		st->irqs = irqs / mib;
		st->wakeups = wakeups / mib;
		st->flushes = flushes / mib;
		st->accesses = acc / mib;
		st->timeouts = tmo / mib;
		st->driver_ns = busy / mib;
	}
out:
	for (i = 0; i < ncpu; i++) {
		if (s[i].thread) {
			__atomic_store_n(&s[i].stop, 1, __ATOMIC_RELEASE);
			pthread_join(s[i].thread, NULL);
		}
		if (s[i].t.data)
			tbuf_close(&s[i].t);
		free(s[i].copy);
		quiet(i);
	}
	return ret;
}

/* floor(sqrt(@x)), without libm */
static unsigned int isqrt(unsigned long long x)
{
	unsigned long long lo = 0, hi = 1ULL << 32;

	while (hi - lo > 1) {
		unsigned long long mid = (lo + hi) / 2;

		if (mid * mid <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* CPU time of memcpy() per MiB in a thread pinned to @cpu, ns; 0 on error */
static double memcpy_cpu_ns_per_mib(int cpu)
{
	cpu_set_t old, one;
	unsigned char *dst = malloc(16 * MB);
	double t0, ns = 0;

	if (!dst || sched_getaffinity(0, sizeof(old), &old))
		goto out;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (!sched_setaffinity(0, sizeof(one), &one)) {
		memcpy_secs(dst, 16 * MB, 1);	/* warm */
		t0 = thread_cpu_s();
		memcpy_secs(dst, 16 * MB, 4);
		ns = (thread_cpu_s() - t0) * 1e9 / 64;
		sched_setaffinity(0, sizeof(old), &old);
	}
out:
	free(dst);
	return ns;
}

static void print_step(const struct step *st, const char *note)
{
	printf("# %8u %10.2f %10.2f %6.3f %9.0f %8.1f %8.1f %8.1f %9.0f %8.1f %6.1f %6.1f%9.0f%s\n",
	       st->rate, st->offered, st->delivered, 100 * st->loss,
	       st->padding, st->irqs, st->wakeups, st->flushes, st->accesses,
	       st->timeouts, 100 * st->gen_share, 100 * st->reader_share,
	       st->driver_ns / 1e3, note);
}

static void bench_stream(void)
{
	static const unsigned int rates[] = {
		64, 1024, 4096, 16384, 65536, 262144,
	};
	struct step st[ARRAY_SIZE(rates) + REFINE_STEPS] = { 0 };
	struct step *best = NULL, *slow = NULL, *first;
	unsigned int lo, hi, n = ARRAY_SIZE(rates);
	unsigned char *seq = seq_bytes(0, REPLAY_BYTES);
	double mem_bw, mem_secs_per_mib, mem_cpu_ns;
	size_t i;
	char key[64];

	if (!seq)
		return;
	{
		unsigned char *dst = malloc(64 * MB);

		if (!dst)
			goto out;
		mem_secs_per_mib = memcpy_secs(dst, 64 * MB, 1) / 64;
		free(dst);
	}
	mem_bw = MB / mem_secs_per_mib / 1e6;
	mem_cpu_ns = memcpy_cpu_ns_per_mib(0);
	if (mem_cpu_ns > 0)
		fig("memcpy_cpu_us_per_mib", mem_cpu_ns / 1e3, "ref",
		    "memcpy of 1 MiB on CPU 0 (a traced CPU), thread CPU time, us");
	fig("memcpy_mbps", mem_bw, "higher", "guest memcpy bandwidth, MB/s (one thread)");
	printf("# %d CPUs, 1 MiB fill-mode buffers, %.1f s per rate\n", ncpu,
	       step_secs);
	printf("# %8s %10s %10s %6s %9s %8s %8s %8s %9s %8s %6s %6s %9s\n",
	       "B/ms/cpu", "offer MB/s", "publ MB/s", "loss %", "pad B/MiB",
	       "irq/MiB", "wake/MiB", "fl/MiB", "acc/MiB", "tmo/MiB", "gen %",
	       "rdr %", "drv us/MiB");
	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		st[i].rate = rates[i];
		if (run_step(&st[i], seq)) {
			fprintf(stderr, "ete_bench: rate %u failed\n", rates[i]);
			break;
		}
		print_step(&st[i], "");
		fflush(stdout);
		snprintf(key, sizeof(key), "loss_pct_at_%u", rates[i]);
		fig(key, 100 * st[i].loss, "lower", "trace lost at this rate, % of offered");
		if (!st[i].loss && (!best || st[i].offered > best->offered))
			best = &st[i];
		if (rates[i] == 64)
			slow = &st[i];
		if (rates[i] == 64 || rates[i] == 1024) {
			snprintf(key, sizeof(key), "padding_per_mib_at_%u", rates[i]);
			fig(key, st[i].padding, "lower",
			    "IGNORE bytes per MiB published (64 B/ms = 64 KB/s, 1024 = 1 MB/s)");
		}
	}
	/*
	 * The steps are a factor 4 apart: halve the gap between the last
	 * rate without loss and the first with, geometrically, a few times
	 */
	lo = best ? best->rate : 0;
	hi = 0;
	for (i = 0; i < n; i++)
		if (st[i].rate > lo && st[i].loss && (!hi || st[i].rate < hi))
			hi = st[i].rate;
	for (i = n; lo && hi && i < n + REFINE_STEPS; i++) {
		st[i].rate = isqrt((unsigned long long)lo * hi);
		if (st[i].rate <= lo || st[i].rate >= hi || run_step(&st[i], seq))
			break;
		print_step(&st[i], " (between)");
		fflush(stdout);
		if (st[i].loss) {
			hi = st[i].rate;
		} else {
			lo = st[i].rate;
			if (st[i].offered > best->offered)
				best = &st[i];
		}
	}
	if (best) {
		fig("zero_loss_mbps", best->offered, "higher",
		    "highest rate streamed with zero loss, MB/s, all CPUs");
		fig("zero_loss_vs_memcpy", best->offered / mem_bw, "higher",
		    "that rate / guest memcpy bandwidth");
		fig("padding_per_mib_at_max", best->padding, "lower",
		    "IGNORE bytes per MiB at that rate");
		fig("irqs_per_mib_at_max", best->irqs, "lower", "TRBE interrupts per MiB");
		fig("wakeups_per_mib_at_max", best->wakeups, "lower",
		    "reader wake-ups per MiB");
		fig("accesses_per_mib_at_max", best->accesses, "lower",
		    "register accesses per MiB while streaming");
	}
	if (slow) {
		fig("wakeups_per_mib_at_64", slow->wakeups, "lower",
		    "reader wake-ups per MiB at 64 KB/s");
		fig("reader_timeouts_per_mib_at_64", slow->timeouts, "lower",
		    "reader poll() timeouts (50 ms) per MiB at 64 KB/s: woken by its own timeout");
	}
	/* where the loss begins: who had the CPUs */
	for (i = 0, first = NULL; i < ARRAY_SIZE(st); i++)
		if (st[i].rate && st[i].loss && (!first || st[i].rate < first->rate))
			first = &st[i];
	for (i = 0; i < ARRAY_SIZE(st) && mem_cpu_ns > 0; i++) {
		if (st[i].rate != 1024 && &st[i] != best)
			continue;
		snprintf(key, sizeof(key), "driver_cpu_vs_memcpy_at_%s",
			 &st[i] == best ? "max" : "1024");
		fig(key, st[i].driver_ns / mem_cpu_ns, "lower",
		    "the driver's time on the traced CPUs per MiB / memcpy's CPU time per MiB");
	}
	if (best) {
		fig("gen_share_at_max", 100 * best->gen_share, "ref",
		    "the model's trace generation at that rate, % of the CPUs' time");
		fig("reader_share_at_max", 100 * best->reader_share, "ref",
		    "the readers' CPU time at that rate, % of the CPUs' time");
	}
	if (first) {
		fig("first_loss_mbps", first->offered, "ref",
		    "lowest rate with loss, MB/s, all CPUs");
		fig("gen_share_at_first_loss", 100 * first->gen_share, "ref",
		    "the model's trace generation there, % of the CPUs' time");
		fig("reader_share_at_first_loss", 100 * first->reader_share, "ref",
		    "the readers' CPU time there, % of the CPUs' time");
	}
out:
	free(seq);
}

/* ---- 5. task mode: the cost of the scheduler hook ----------------------- */

#define SWITCH_CPU	1

/* A child on SWITCH_CPU echoing bytes: each round trip is two switches */
static pid_t pong(int in, int out)
{
	cpu_set_t set;
	pid_t pid = fork();
	char c;

	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(SWITCH_CPU, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (read(in, &c, 1) == 1 && write(out, &c, 1) == 1)
		;
	_exit(0);
}

/*
 * Context switches per second on SWITCH_CPU, the caller ping-ponging
 * with @child there for step_secs; @writes gets the TRFCR writes the
 * model saw per switch.
 */
static double switch_rate(int to, int from, double *writes)
{
	long long w0 = model_stat(SWITCH_CPU, "writes");
	double t0 = now_s(), t;
	unsigned long n = 0;
	char c = 'x';

	do {
		for (int i = 0; i < 200; i++, n++)
			if (write(to, &c, 1) != 1 || read(from, &c, 1) != 1)
				return 0;
		t = now_s() - t0;
	} while (t < step_secs);
	*writes = (double)(model_stat(SWITCH_CPU, "writes") - w0) / (2.0 * n);
	return 2.0 * n / t;
}

/*
 * Figure 9: switches per second on one CPU with no session, with a
 * task-mode session whose set never runs there (the hook's lookup only),
 * and with one whose set is one of the two tasks (TRFCR written and
 * synchronized at every switch); the added time per switch, and the
 * TRFCR writes per switch the model counted (the architectural minimum
 * of a gate that flips is one write and one ISB).
 */
static void bench_task_switch(void)
{
	int to[2], from[2];
	double r0, r1, r2, w0, w1, w2;
	struct ete_trbe_tasks req = { };
	struct tbuf t;
	cpu_set_t set;
	pid_t child, sleeper;

	if (pipe(to) || pipe(from))
		return;
	CPU_ZERO(&set);
	CPU_SET(SWITCH_CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return;
	model_configure(SWITCH_CPU, "1048576", "fill", "ignore", "0", "drop");
	quiet(SWITCH_CPU);
	if (tbuf_open(&t, SWITCH_CPU))
		return;
	child = pong(to[0], from[1]);
	sleeper = fork();
	if (!sleeper) {
		for (;;)
			pause();
	}
	r0 = switch_rate(to[1], from[0], &w0);
	req.pid = sleeper;
	r1 = !ioctl(t.fd, ETE_TRBE_IOC_SET_TASKS, &req) &&
	     !ioctl(t.fd, ETE_TRBE_IOC_START) ?
	     switch_rate(to[1], from[0], &w1) : 0;
	ioctl(t.fd, ETE_TRBE_IOC_STOP);
	req.pid = child;
	r2 = !ioctl(t.fd, ETE_TRBE_IOC_SET_TASKS, &req) &&
	     !ioctl(t.fd, ETE_TRBE_IOC_START) ?
	     switch_rate(to[1], from[0], &w2) : 0;
	ioctl(t.fd, ETE_TRBE_IOC_STOP);
	kill(child, SIGKILL);
	kill(sleeper, SIGKILL);
	waitpid(child, NULL, 0);
	waitpid(sleeper, NULL, 0);
	tbuf_close(&t);
	CPU_ZERO(&set);
	for (int i = 0; i < ncpu; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (r0 <= 0 || r1 <= 0 || r2 <= 0)
		return;
	fig("task_switch_rate_ratio_idle", r1 / r0, "higher",
	    "switches/s with a task session whose tasks are elsewhere / none");
	fig("task_switch_rate_ratio_gate", r2 / r0, "higher",
	    "switches/s, the session's task one of the two / none");
	fig("task_switch_added_ns", (1 / r2 - 1 / r0) * 1e9, "lower",
	    "added time per switch when the gate flips, ns (emulated)");
	fig("task_switch_writes", w2, "ref",
	    "register writes per switch when the gate flips (TRFCR: 1)");
	fig("task_switch_writes_idle", w1, "lower",
	    "register writes per switch when no member runs (0)");
	(void)w0;
}

/*
 * Figure 10: sampled trace (sample_window, sample_period) on one CPU, the
 * model running 20,000 cycles a millisecond traced or not: trace bytes
 * per 1,000 cycles continuous and at window/period 1/2 to 1/128, each as
 * a fraction of the continuous rate beside window/period, and the TRBE
 * interrupts per second the driver takes (its cost: a window costs it
 * nothing, a full buffer does), all in one run.  Circular mode: the
 * buffer never stops the unit.
 */
static void bench_sample(void)
{
	static const int periods[] = { 0, 2, 8, 32, 128 };
	const char *unit = "/sys/class/ete/ete1/";
	double cont = 0;
	char path[128], val[32];
	struct tbuf t;
	size_t i;

	model_configure(SWITCH_CPU, "1048576", "circular", "ignore", "0",
			"stop");
	quiet(SWITCH_CPU);
	if (model_set(SWITCH_CPU, "cycles", "20000"))
		return;
	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		long long b0, c0, i0, bytes, cycles;
		double t0, secs, per_k;

		snprintf(path, sizeof(path), "%ssample_window", unit);
		write_file(path, periods[i] ? "1000" : "0",
			   periods[i] ? 4 : 1);
		snprintf(path, sizeof(path), "%ssample_period", unit);
		snprintf(val, sizeof(val), "%d", 1000 * periods[i]);
		write_file(path, val, strlen(val));
		if (tbuf_open(&t, SWITCH_CPU))
			break;
		if (ioctl(t.fd, ETE_TRBE_IOC_START)) {
			tbuf_close(&t);
			break;
		}
		b0 = model_stat(SWITCH_CPU, "bytes_out");
		c0 = model_stat(SWITCH_CPU, "vi_cycles");
		i0 = model_stat(SWITCH_CPU, "irqs");
		t0 = now_s();
		usleep(step_secs * 1e6);
		bytes = model_stat(SWITCH_CPU, "bytes_out") - b0;
		cycles = model_stat(SWITCH_CPU, "vi_cycles") - c0;
		secs = now_s() - t0;
		ioctl(t.fd, ETE_TRBE_IOC_STOP);
		tbuf_close(&t);
		if (cycles <= 0)
			break;
		per_k = 1000.0 * bytes / cycles;
		if (!periods[i]) {
			cont = per_k;
			fig("sample_bytes_per_kcycle_continuous", per_k, "ref",
			    "trace bytes per 1,000 cycles, continuous");
			continue;
		}
		snprintf(val, sizeof(val), "sample_rate_ratio_1_%d",
			 periods[i]);
		fig(val, cont > 0 ? per_k / cont : 0, "ref",
		    "bytes per cycle sampled / continuous");
		snprintf(val, sizeof(val), "sample_expected_1_%d", periods[i]);
		fig(val, 1.0 / periods[i], "ref", "window / period");
		snprintf(val, sizeof(val), "sample_irqs_per_s_1_%d",
			 periods[i]);
		fig(val, (model_stat(SWITCH_CPU, "irqs") - i0) / secs,
		    "lower", "TRBE interrupts per second (1 MiB circular)");
	}
	write_file("/sys/class/ete/ete1/sample_window", "0", 1);
	write_file("/sys/class/ete/ete1/sample_period", "0", 1);
	model_set(SWITCH_CPU, "cycles", "0");
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "t:c:h")) != -1) {
		switch (opt) {
		case 't':
			step_secs = atof(optarg);
			break;
		case 'c':
			ncpu = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: ete_bench [-t SECONDS_PER_RATE] [-c CPUS]\n");
			return 2;
		}
	}
	if (ncpu < 1 || ncpu > MAX_CPUS || step_secs <= 0) {
		fprintf(stderr, "ete_bench: -c 1..%d, -t > 0\n", MAX_CPUS);
		return 2;
	}
	if (!model_present(0)) {
		fprintf(stderr, "ete_bench: the ETE/TRBE model is not loaded\n");
		return 1;
	}
	bench_paths();
	bench_start_time();
	bench_drain();
	bench_stream();
	bench_task_switch();
	bench_sample();
	return 0;
}
