// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the gap records of a CPU's trace file.  The driver records each
 * break at a stream offset; the file keeps the bytes etecap read end to
 * end, without the ones the driver gave up before they were read (policy
 * "drop", a lapped wrap or circular buffer).  So the records are written
 * at file offsets: where the reader jumped over unread bytes, and where
 * each driver record falls in what was read.  Pure apart from the final
 * fprintf; the host test (tests/etecap_host_test.c) runs it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "etecap.h"

/*
 * Note the piece of @len bytes at stream offset @offset, about to be
 * appended to the file: a jump is recorded where it does not follow the
 * last piece (and for the first piece, if it does not start at @c->next:
 * 0, or where the last flight snapshot's file of this CPU ended).
 * 0 or -ENOMEM.
 */
int etecap_track_piece(struct etecap_cpu *c, __u64 offset, size_t len)
{
	if (!c->njumps || offset != c->next) {
		/* 0, or where the last file of a flight snapshot ended */
		__u64 from = c->next;

		if (c->njumps == c->jumps_cap) {
			unsigned int cap = c->jumps_cap ? 2 * c->jumps_cap : 16;
			struct etecap_jump *j = realloc(c->jumps, cap * sizeof(*j));

			if (!j)
				return -ENOMEM;
			c->jumps = j;
			c->jumps_cap = cap;
		}
		c->jumps[c->njumps].stream = offset;
		c->jumps[c->njumps].file = c->bytes;
		c->jumps[c->njumps].skipped = offset > from ? offset - from : 0;
		c->njumps++;
	}
	c->next = offset + len;
	return 0;
}

/*
 * The file offset of stream offset @stream: inside what was read, its
 * place; in bytes skipped or before the first byte read, the place of the
 * next byte that was read; past the last, the end of the file.
 */
__u64 etecap_file_offset(const struct etecap_cpu *c, __u64 stream)
{
	const struct etecap_jump *j = NULL;
	unsigned int i;
	__u64 f, limit;

	for (i = 0; i < c->njumps && c->jumps[i].stream <= stream; i++)
		j = &c->jumps[i];
	if (!j)
		return 0;
	f = j->file + (stream - j->stream);
	limit = i < c->njumps ? c->jumps[i].file : c->bytes;
	return f < limit ? f : limit;
}

/*
 * Copy the records the driver added to the ring of @h since the last call
 * into @c->gaps, as the capture goes (at every drain): the ring holds the
 * last ETE_TRBE_MAX_GAPS only.  The driver writes a record, then
 * gap_count (a write barrier between); a record copied here is kept only
 * if gap_count, read again after the copy, shows it was not overwritten
 * meanwhile.  Records gone before they were copied are counted in
 * @c->gaps_missed.  0 or -ENOMEM.
 */
int etecap_collect_gaps(struct etecap_cpu *c,
			const struct ete_trbe_mmap_page *h)
{
	__u64 n1 = __atomic_load_n(&h->gap_count, __ATOMIC_ACQUIRE), n2, i;
	unsigned int start = c->ngaps, k, kept;

	if (n1 > ETE_TRBE_MAX_GAPS && c->gaps_seen < n1 - ETE_TRBE_MAX_GAPS) {
		c->gaps_missed += n1 - ETE_TRBE_MAX_GAPS - c->gaps_seen;
		c->gaps_seen = n1 - ETE_TRBE_MAX_GAPS;
	}
	if (c->ngaps + (n1 - c->gaps_seen) > c->gaps_cap) {
		unsigned int cap = c->ngaps + (n1 - c->gaps_seen) + 64;
		struct ete_trbe_gap *g = realloc(c->gaps, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		c->gaps = g;
		c->gaps_cap = cap;
	}
	for (i = c->gaps_seen; i < n1; i++)
		c->gaps[c->ngaps++] = h->gaps[i % ETE_TRBE_MAX_GAPS];
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	n2 = __atomic_load_n(&h->gap_count, __ATOMIC_RELAXED);
	/* record i was overwritten during the copy if i < n2 - MAX */
	for (k = start, kept = start, i = c->gaps_seen; k < c->ngaps; k++, i++) {
		if (n2 > ETE_TRBE_MAX_GAPS && i < n2 - ETE_TRBE_MAX_GAPS)
			c->gaps_missed++;
		else
			c->gaps[kept++] = c->gaps[k];
	}
	c->ngaps = kept;
	c->gaps_seen = n1;
	return 0;
}

struct gap_line {
	__u64 offset;
	long long lost;
	unsigned int reason;
	unsigned int order;
};

static int by_offset(const void *a, const void *b)
{
	const struct gap_line *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * gaps_cpu<N>.txt: "offset lost reason" at file offsets, in file order:
 * every driver record (collected during the capture, and the last ones
 * from @h now), and every jump of the reader that no driver record marks
 * (reason ETE_TRBE_GAP_OVERWRITTEN, lost the bytes jumped over).
 * 0 or -errno.
 */
int etecap_write_gaps(const char *dir, struct etecap_cpu *c,
		      const struct ete_trbe_mmap_page *h)
{
	unsigned int i, n = 0, nd, k, j;
	struct gap_line *g;
	char path[ETECAP_PATH];
	FILE *f;

	if (etecap_collect_gaps(c, h))
		return -ENOMEM;
	g = calloc(c->ngaps + c->njumps + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (i = 0; i < c->ngaps; i++, n++) {
		const struct ete_trbe_gap *d = &c->gaps[i];

		g[n].offset = etecap_file_offset(c, d->offset);
		g[n].lost = d->lost;
		g[n].reason = d->reason;
		g[n].order = n;
	}
	nd = n;
	for (j = 0; j < c->njumps; j++) {
		const struct etecap_jump *jp = &c->jumps[j];
		bool marked = false;

		if (!jp->skipped)
			continue;
		for (k = 0; k < nd && !marked; k++)
			marked = g[k].offset == jp->file;
		if (marked)
			continue;
		g[n].offset = jp->file;
		g[n].lost = jp->skipped;
		g[n].reason = ETE_TRBE_GAP_OVERWRITTEN;
		g[n].order = n;
		n++;
	}
	qsort(g, n, sizeof(*g), by_offset);
	etecap_path(path, sizeof(path), "%s/gaps_cpu%d.txt", dir, c->cpu);
	f = fopen(path, "w");
	if (!f) {
		etecap_write_error(path, -errno);
		free(g);
		return -errno;
	}
	for (k = 0; k < n; k++)
		fprintf(f, "%llu %lld %u\n", (unsigned long long)g[k].offset,
			g[k].lost, g[k].reason);
	free(g);
	return etecap_fclose(f, path);
}
