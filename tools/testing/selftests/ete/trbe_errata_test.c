// SPDX-License-Identifier: GPL-2.0
/*
 * TRBE errata workarounds, against a model that misbehaves like the
 * affected part.  The rig loads the model with CPU 3 reporting a Neoverse
 * N2 MIDR (tools/testing/qemu/manifest.d/20-model.list), so trbe.ko applies
 * 2139208 (overwrite in fill mode) and 2253138 (write out of range) there,
 * and on each fill event the model writes the bytes it would discard over
 * the first cache lines from TRBBASER_EL1 and past TRBLIMITR_EL1, as those
 * cores may.  Without the workarounds the stream a reader sees has foreign
 * bytes in it; with them it is byte-exact between gap markers.
 */
#include "kselftest_harness.h"

#include "trbe_model.h"

#define ERRATA_CPU	3
/* enum trbe_erratum: overwrite in fill mode, write out of range */
#define ERRATA_WANTED	0x3

static long trbe_errata(int cpu)
{
	char path[64], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/trbe/trbe%d/errata", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtol(buf, NULL, 0);
}

FIXTURE(errata) {
	struct tbuf t;
	int opened;
	int held;
	char viol[4096];
};

FIXTURE_SETUP(errata)
{
	self->opened = 0;
	self->held = 0;
	if (!model_present(ERRATA_CPU))
		SKIP(return, "no ETE/TRBE model loaded on cpu%d", ERRATA_CPU);
	/* The plan loads the model so: not having them is a failure */
	ASSERT_EQ(ERRATA_WANTED, trbe_errata(ERRATA_CPU) & ERRATA_WANTED)
		TH_LOG("cpu%d does not report the N2 errata", ERRATA_CPU);
}

FIXTURE_TEARDOWN(errata)
{
	if (self->held)
		model_set(ERRATA_CPU, "irq_hold", "0");
	if (self->opened) {
		ioctl(self->t.fd, ETE_TRBE_IOC_STOP);
		tbuf_close(&self->t);
	}
	if (model_present(ERRATA_CPU)) {
		model_replay(ERRATA_CPU, NULL, 0);
		EXPECT_EQ(0, model_violations(ERRATA_CPU, self->viol,
					      sizeof(self->viol)))
			TH_LOG("model violations:\n%s", self->viol);
		trbe_set(ERRATA_CPU, "buffer_size", "1048576");
	}
}

static int open_start(struct tbuf *t)
{
	int ret = tbuf_open(t, ERRATA_CPU);

	if (ret)
		return ret;
	return ioctl(t->fd, ETE_TRBE_IOC_START) ? -errno : 0;
}

/*
 * Fill mode, nobody reading: the window starts 256 bytes into the buffer
 * (IGNORE before it) and stops a page short of the end (a guard page for
 * the write past the limit).  The model's stray writes at the fill must
 * leave no trace in what the reader sees.
 */
TEST_F_TIMEOUT(errata, fill_stop_leaves_no_stray_bytes, 120)
{
	unsigned char *seq = seq_bytes(0, 256 * KB);
	long page = sysconf(_SC_PAGESIZE);
	long long fills0 = model_stat(ERRATA_CPU, "quirk_fills");
	struct checker c = { 0 };
	unsigned int i;

	model_configure(ERRATA_CPU, "65536", "fill", "ignore", "0", "stop");
	ASSERT_EQ(0, model_replay(ERRATA_CPU, seq, 256 * KB));
	ASSERT_EQ(0, open_start(&self->t));
	self->opened = 1;
	ASSERT_EQ(0, tbuf_wait_state(&self->t, ETE_TRBE_STATE_WAITING, 20));
	EXPECT_EQ((__u64)(65536 - page), tbuf_head(&self->t));
	/* the model did go on writing after the fill, and astray */
	EXPECT_LT(0, model_stat(ERRATA_CPU, "bytes_dropped"));
	EXPECT_LT(0, model_stat(ERRATA_CPU, "quirk_fills") - fills0);
	for (i = 0; i < 256; i++)
		if (self->t.data[i] != IGNORE)
			break;
	EXPECT_EQ(256U, i) TH_LOG("byte %u of the skipped start is %#x", i,
				  self->t.data[i]);
	tbuf_drain(&self->t, &c);
	EXPECT_EQ((__u64)0, c.jumps);
	EXPECT_EQ((__u64)0, c.bad);
	EXPECT_EQ((__u64)(65536 - page), c.bytes + c.ignored);
	EXPECT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	free(seq);
}

/*
 * A reader that pauses until the TRBE fills, twice, then keeps up:
 * every stop is a gap, and between gaps the stream is the model's, in
 * order, with nothing from the stray writes.
 */
TEST_F_TIMEOUT(errata, paused_reader_exact_between_gaps, 120)
{
	unsigned char *seq = seq_bytes(0, MB);
	unsigned char *copy = calloc(1, 2 * MB);
	struct checker c = { 0 };
	long long fills0 = model_stat(ERRATA_CPU, "quirk_fills");
	__u64 i, seg = 0, head, ngaps, erratum = 0, total = 0;
	long long dropped0;
	double end;
	__u64 page = sysconf(_SC_PAGESIZE);

	ASSERT_NE(NULL, copy);
	model_configure(ERRATA_CPU, "65536", "fill", "ignore", "0", "stop");
	/*
	 * A MiB to replay: what the model makes between a fill and its
	 * interrupt is discarded (while the TRBE then waits for the reader
	 * trace is prohibited), so two fills may need more than two
	 * buffers' worth.
	 */
	ASSERT_EQ(0, model_replay(ERRATA_CPU, seq, MB));
	dropped0 = model_stat(ERRATA_CPU, "bytes_dropped");
	ASSERT_EQ(0, open_start(&self->t));
	self->opened = 1;
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, tbuf_wait_state(&self->t, ETE_TRBE_STATE_WAITING,
					     20));
		usleep(20000);
		tbuf_drain_copy(&self->t, &c, copy, 2 * MB);
		ASSERT_EQ(0, tbuf_wait_state(&self->t, ETE_TRBE_STATE_RUNNING,
					     5));
	}
	/*
	 * Until every byte came or the model discarded it (a later stop's,
	 * the reader behind under TCG; when those were the last bytes,
	 * they never come)
	 */
	end = now_s() + 60;
	while (c.bytes + (model_stat(ERRATA_CPU, "bytes_dropped") - dropped0) <
	       MB && tbuf_head(&self->t) < 2 * MB && now_s() < end) {
		tbuf_drain_copy(&self->t, &c, copy, 2 * MB);
		usleep(2000);
	}
	tbuf_wait_quiet(&self->t, 5);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	tbuf_drain_copy(&self->t, &c, copy, 2 * MB);
	head = tbuf_head(&self->t);
	ASSERT_GT(2 * MB, head);
	ngaps = self->t.hdr->gap_count;
	EXPECT_LE(2, model_stat(ERRATA_CPU, "quirk_fills") - fills0);
	ASSERT_LE((__u64)2, ngaps);
	ASSERT_GE((__u64)ETE_TRBE_MAX_GAPS, ngaps);
	/*
	 * A fill of a window the flush had re-armed (the reader fell behind
	 * while keeping up) adds an erratum gap where no trace is lost
	 */
	for (i = 0; i < ngaps; i++)
		erratum += self->t.hdr->gaps[i].reason == ETE_TRBE_GAP_ERRATUM;
	/*
	 * The stream as it was read, in one piece, only when no gap was an
	 * erratum's: a reader that copies a window's start between the fill
	 * and its interrupt sees the trace fragments 2139208 writes there
	 * (bytes_changed_after_publication_follow_a_gap), and those are not
	 * the stream's.  The segments below skip that padding.
	 */
	if (!erratum) {
		EXPECT_EQ((__u64)0, c.bad);
		/* a jump only at a gap */
		EXPECT_GE(ngaps, c.jumps);
	}
	/* each segment between gaps on its own: in order, nothing foreign */
	for (i = 0; i <= ngaps; i++) {
		__u64 next = i < ngaps ? self->t.hdr->gaps[i].offset : head;
		struct checker s = { 0 };

		ASSERT_LE(seg, next);
		check_bytes(&s, copy + seg, next - seg);
		EXPECT_EQ((__u64)0, s.jumps)
			TH_LOG("segment %llu at %llu", (unsigned long long)i,
			       (unsigned long long)seg);
		EXPECT_EQ((__u64)0, s.bad);
		total += s.bytes;
		seg = next;
		/*
		 * After an erratum gap, the padding a reader may have copied
		 * with trace fragments in it is not trace: skip it
		 */
		if (i < ngaps &&
		    self->t.hdr->gaps[i].reason == ETE_TRBE_GAP_ERRATUM) {
			__u64 end = i + 1 < ngaps ?
				    self->t.hdr->gaps[i + 1].offset : head;

			seg = (seg + page - 1) / page * page + 256;
			if (seg > end)
				seg = end;
		}
	}
	/* what did not come, the model discarded (Ignore padding counts too) */
	EXPECT_LE(MB, total +
		  (model_stat(ERRATA_CPU, "bytes_dropped") - dropped0))
		TH_LOG("%llu bytes in %llu segments (%llu after an erratum)",
		       (unsigned long long)total, (unsigned long long)ngaps + 1,
		       (unsigned long long)erratum);
	free(copy);
	free(seq);
}

/* Copy stream bytes [from, to) into @copy (indexed by position) */
static void tbuf_peek(struct tbuf *t, unsigned char *copy, __u64 from,
		      __u64 to)
{
	for (; from < to; from++)
		copy[from] = t->data[from % t->size];
}

/*
 * 2139208 on a window that fills: the model writes trace over the
 * window's first bytes at the fill, where the driver had published IGNORE
 * padding, and the interrupt pads them again.  A reader copying in
 * between (held open here with irq_hold) sees trace fragments in the
 * middle of the stream.  Decoders resynchronise only at gaps, so a gap
 * must lie between the last byte of real trace before them and them.
 * The reader keeps up first, so that windows are re-armed by the
 * periodic flush (no gap of their own), then stops reading.
 */
TEST_F_TIMEOUT(errata, bytes_changed_after_publication_follow_a_gap, 120)
{
	unsigned char *seq = seq_bytes(0, MB);
	__u64 size = 4 * MB, tail, head, q, p, i, ngaps;
	unsigned char *copy = calloc(1, size);
	struct checker c = { 0 };
	long long fills;
	double end;
	int found = 0;

	ASSERT_NE(NULL, copy);
	model_configure(ERRATA_CPU, "65536", "fill", "ignore", "0", "stop");
	ASSERT_EQ(0, model_replay(ERRATA_CPU, seq, MB));
	ASSERT_EQ(0, open_start(&self->t));
	self->opened = 1;
	/* three buffers' worth read as it comes: windows move on */
	end = now_s() + 60;
	while (tbuf_head(&self->t) < 3 * 65536 && now_s() < end) {
		tbuf_drain(&self->t, &c);
		usleep(2000);
	}
	ASSERT_LE((__u64)3 * 65536, tbuf_head(&self->t));
	/* then no reader: the window fills, its interrupt held back */
	ASSERT_EQ(0, model_set(ERRATA_CPU, "irq_hold", "1"));
	self->held = 1;
	fills = model_stat(ERRATA_CPU, "quirk_fills");
	end = now_s() + 30;
	while (model_stat(ERRATA_CPU, "quirk_fills") == fills &&
	       now_s() < end)
		usleep(2000);
	ASSERT_LT(fills, model_stat(ERRATA_CPU, "quirk_fills"));
	/* what a reader would copy now, without consuming it */
	tail = self->t.hdr->data_tail;
	head = tbuf_head(&self->t);
	ASSERT_GT(size, head);
	tbuf_peek(&self->t, copy, tail, head);
	ASSERT_EQ(0, model_set(ERRATA_CPU, "irq_hold", "0"));
	self->held = 0;
	/* nothing consumed: the driver cannot re-arm, the bytes stay */
	ASSERT_EQ(0, tbuf_wait_state(&self->t, ETE_TRBE_STATE_WAITING, 20));
	for (q = tail; q < head; q++)
		if (copy[q] != self->t.data[q % self->t.size]) {
			found = 1;
			break;
		}
	ASSERT_TRUE(found) TH_LOG("no byte in [%llu, %llu) changed",
				  (unsigned long long)tail,
				  (unsigned long long)head);
	/* the last byte of trace before the changed ones */
	for (p = q; p > tail && self->t.data[(p - 1) % self->t.size] == IGNORE;)
		p--;
	ngaps = self->t.hdr->gap_count;
	ASSERT_GE((__u64)ETE_TRBE_MAX_GAPS, ngaps);
	for (i = 0; i < ngaps; i++)
		if (self->t.hdr->gaps[i].offset >= p &&
		    self->t.hdr->gaps[i].offset <= q)
			break;
	EXPECT_LT(i, ngaps)
		TH_LOG("byte %llu changed, trace ends at %llu: no gap (%llu, last %llu)",
		       (unsigned long long)q, (unsigned long long)p,
		       (unsigned long long)ngaps,
		       ngaps ? (unsigned long long)self->t.hdr->gaps[ngaps - 1].offset : 0ULL);
	EXPECT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	free(copy);
	free(seq);
}

TEST_HARNESS_MAIN
