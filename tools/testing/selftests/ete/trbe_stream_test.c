// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming through /dev/trbe<N> on every CPU at once, against the model:
 * MiBs of sequence-numbered trace per CPU through a 1 MiB buffer each,
 * byte-exact, in order, with zero loss while the readers keep up (no gap,
 * nothing dropped by the driver, nothing discarded by the model).
 *
 * Under TCG with the debug kernel this takes minutes: it is in the "all"
 * subset only, and it prints its time per CPU.
 */
#include <pthread.h>

#include "kselftest_harness.h"

#include "trbe_model.h"

/* Bytes per CPU: MiB as the first argument, default 64 */
#define STREAM_TOTAL	stream_total()
#define STREAM_CHUNK	(4 * MB)	/* the model's largest replay */
/*
 * Bytes per ms per CPU (the model's "rate"): TRBE_STREAM_RATE or the
 * second argument, default 1024.  The model generates in its timer
 * interrupt: under TCG with KASAN, 8 KB per ms on four CPUs kept them in
 * hard IRQ nearly all the time (soft lockups, a session start that took
 * minutes); 1 KB per ms leaves the readers room.
 */
static const char *stream_rate(void)
{
	const char *env = getenv("TRBE_STREAM_RATE");

	return env && atol(env) > 0 ? env : "1024";
}

static __u64 stream_total(void)
{
	const char *env = getenv("TRBE_STREAM_MIB");	/* set by main() */
	long mib = env ? atol(env) : 64;

	return (mib > 0 ? mib : 64) * MB;
}

struct stream {
	pthread_t thread;
	int cpu;
	int err;
	const char *what;
	struct checker c;
	__u64 head, gaps, lost, consumed;
	long long dropped;
	/* stats/ of /sys/class/trbe/trbe<N>, over the run */
	long long irqs, flushes, arms, padding, wakeups;
	double secs;
};

/* Feed the model a chunk at a time; consume each before the next */
static void *stream_run(void *arg)
{
	struct stream *st = arg;
	unsigned char *chunk = malloc(STREAM_CHUNK);
	struct pollfd pfd = { .events = POLLIN };
	long long dropped0 = model_stat(st->cpu, "bytes_dropped");
	long long irqs0 = trbe_num(st->cpu, "stats/interrupts");
	long long flushes0 = trbe_num(st->cpu, "stats/flushes");
	long long arms0 = trbe_num(st->cpu, "stats/arms");
	long long padding0 = trbe_num(st->cpu, "stats/padding_bytes");
	long long wakeups0 = trbe_num(st->cpu, "stats/wakeups");
	double t0 = now_s();
	__u64 fed = 0;
	struct tbuf t;

	st->err = -1;
	st->what = "setup";
	if (!chunk || tbuf_open(&t, st->cpu))
		return NULL;
	pfd.fd = t.fd;
	/*
	 * The first chunk before the start: a unit started with nothing to
	 * replay generates its own packets, which are not the sequence.
	 */
	st->what = "replay";
	seq_fill(chunk, 0, STREAM_CHUNK);
	if (model_replay(st->cpu, chunk, STREAM_CHUNK))
		goto out_close;
	st->what = "start";
	if (ioctl(t.fd, ETE_TRBE_IOC_START))
		goto out_close;
	st->what = "stream";
	while (fed < STREAM_TOTAL && !st->c.bad && !st->c.jumps) {
		double stuck = now_s() + 30;

		if (fed) {
			seq_fill(chunk, fed, STREAM_CHUNK);
			if (model_replay(st->cpu, chunk, STREAM_CHUNK))
				goto out_stop;
		}
		fed += STREAM_CHUNK;
		fprintf(stderr, "# cpu%d: %llu MiB fed at %.1f s\n", st->cpu,
			(unsigned long long)fed >> 20, now_s() - t0);
		while (st->c.next < fed && !st->c.bad && !st->c.jumps) {
			if (now_s() > stuck ||
			    tbuf_state(&t) != ETE_TRBE_STATE_RUNNING) {
				st->what = "stalled";
				goto out_stop;
			}
			poll(&pfd, 1, 5);
			st->consumed += tbuf_drain(&t, &st->c);
		}
	}
	st->err = 0;
out_stop:
	ioctl(t.fd, ETE_TRBE_IOC_STOP);
	st->consumed += tbuf_drain(&t, &st->c);
	st->head = tbuf_head(&t);
	st->gaps = t.hdr->gap_count;
	st->lost = t.hdr->lost_bytes;
out_close:
	st->dropped = model_stat(st->cpu, "bytes_dropped") - dropped0;
	st->irqs = trbe_num(st->cpu, "stats/interrupts") - irqs0;
	st->flushes = trbe_num(st->cpu, "stats/flushes") - flushes0;
	st->arms = trbe_num(st->cpu, "stats/arms") - arms0;
	st->padding = trbe_num(st->cpu, "stats/padding_bytes") - padding0;
	st->wakeups = trbe_num(st->cpu, "stats/wakeups") - wakeups0;
	st->secs = now_s() - t0;
	tbuf_close(&t);
	free(chunk);
	return NULL;
}

FIXTURE(stream) {
	int unused;
};

FIXTURE_SETUP(stream)
{
}

FIXTURE_TEARDOWN(stream)
{
}

TEST_F_TIMEOUT(stream, all_cpus_64mib_zero_loss, 1200)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), i;
	struct stream *st;

	if (!model_present(0))
		SKIP(return, "no ETE/TRBE model loaded");
	ASSERT_LT(0, ncpu);
	st = calloc(ncpu, sizeof(*st));
	ASSERT_NE(NULL, st);
	for (i = 0; i < ncpu; i++) {
		model_configure(i, "1048576", "fill", "ignore", "0", "stop");
		ASSERT_EQ(0, model_set(i, "rate", stream_rate()));
		st[i].cpu = i;
	}
	for (i = 0; i < ncpu; i++)
		ASSERT_EQ(0, pthread_create(&st[i].thread, NULL, stream_run,
					    &st[i]));
	for (i = 0; i < ncpu; i++)
		pthread_join(st[i].thread, NULL);
	for (i = 0; i < ncpu; i++) {
		char viol[4096];
		long long extra;

		TH_LOG("cpu%ld: %llu MiB in %.1f s, %llu IGNORE bytes, head %llu",
		       i, (unsigned long long)st[i].c.bytes >> 20, st[i].secs,
		       (unsigned long long)st[i].c.ignored,
		       (unsigned long long)st[i].head);
		EXPECT_EQ(0, st[i].err) TH_LOG("cpu%ld: %s", i, st[i].what);
		/* byte-exact, in order, all of it */
		EXPECT_EQ((__u64)0, st[i].c.bad);
		EXPECT_EQ((__u64)0, st[i].c.jumps);
		EXPECT_EQ(STREAM_TOTAL, st[i].c.next);
		EXPECT_EQ(STREAM_TOTAL, st[i].c.bytes);
		/* zero loss: no gap, nothing dropped by the driver or model */
		EXPECT_EQ((__u64)0, st[i].gaps);
		EXPECT_EQ((__u64)0, st[i].lost);
		EXPECT_EQ(0, st[i].dropped);
		EXPECT_EQ(st[i].head, st[i].consumed);
		/*
		 * The driver's counters: every IGNORE byte read is padding
		 * it counted (the sequence has none; a core with the
		 * overwrite erratum pads over bytes it published already,
		 * so there only "at least"); a fill-mode TRBE is armed
		 * once per window, and the readers were woken.
		 */
		TH_LOG("cpu%ld: %lld interrupts, %lld flushes, %lld arms",
		       i, st[i].irqs, st[i].flushes, st[i].arms);
		TH_LOG("cpu%ld: %lld padding bytes, %lld wake-ups",
		       i, st[i].padding, st[i].wakeups);
		extra = st[i].padding - (long long)st[i].c.ignored;
		EXPECT_LE(0, extra);
		EXPECT_EQ(0, (trbe_num(i, "errata") & 1) ? 0 : extra);
		EXPECT_LE(1, st[i].arms);
		EXPECT_LE(1, st[i].irqs + st[i].flushes);
		EXPECT_LE(1, st[i].wakeups);
		EXPECT_EQ(0, model_violations(i, viol, sizeof(viol)))
			TH_LOG("cpu%ld violations:\n%s", i, viol);
		model_set(i, "rate", "1024");
		model_replay(i, NULL, 0);
	}
	free(st);
}

int main(int argc, char **argv)
{
	int args = 0;

	/* [MiB per CPU [rate]] before the harness's own options */
	if (argc > 1 && argv[1][0] != '-') {
		setenv("TRBE_STREAM_MIB", argv[1], 1);
		args++;
		if (argc > 2 && argv[2][0] != '-') {
			setenv("TRBE_STREAM_RATE", argv[2], 1);
			args++;
		}
		argv[args] = argv[0];
	}
	return test_harness_run(argc - args, argv + args);
}
