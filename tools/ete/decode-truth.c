// SPDX-License-Identifier: GPL-2.0
/*
 * decode-truth.c - the model's ground truth (R/Q/A or A/H records,
 * Documentation/model.rst) and the comparison of the decoded intervals
 * with it: each matched, or missing where a gap record says why.
 */
#include "ete-decode.h"

uint64_t fnv(uint64_t h, uint64_t start, uint64_t end)
{
	int i;

	for (i = 0; i < 16; i++) {
		h ^= ((i < 8 ? start : end) >> (8 * (i & 7))) & 0xff;
		h *= FNV_PRIME;
	}
	return h;
}

/* ---- truth ---- */

int read_truth(const char *path, struct truth *t)
{
	FILE *f = fopen(path, "r");
	char line[256];
	struct interval *cur = NULL;

	if (!f) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long off, a, b;
		unsigned int n;

		if (line[0] == '#') {
			t->lost = true;
		} else if (sscanf(line, "A %llu", &off) == 1) {
			if (cur)
				cur->complete = true;
			if (!t->hashes) {
				cur = vec_push(&t->iv);
				memset(cur, 0, sizeof(*cur));
				cur->aoff = off;
				cur->first = t->ranges.len;
			}
		} else if ((line[0] == 'R' || line[0] == 'Q') &&
			   sscanf(line + 1, " %llu %llx %llx %u", &off, &a, &b,
				  &n) == 4) {
			struct range *r = vec_push(&t->ranges);

			r->idx = off;
			r->start = a;
			r->end = b;
			r->n = n;
			r->q = line[0] == 'Q';
			if (cur)
				cur->count++;
		} else if (sscanf(line, "H %llu %u %llx", &off, &n, &a) == 3) {
			t->hashes = true;
			cur = vec_push(&t->iv);
			memset(cur, 0, sizeof(*cur));
			cur->aoff = off;
			cur->n = n;
			cur->hash = a;
			cur->complete = true;
		}
	}
	fclose(f);
	if (!t->hashes) {
		struct decode tmp = { .ranges = t->ranges };

		hash_intervals(&tmp, &t->iv);
	}
	return 0;
}

/* Decoded interval @v equals truth interval @w (a partial one: a prefix) */
static bool same(struct decode *d, struct interval *v, struct truth *t,
		 struct interval *w)
{
	size_t j;

	if (v->complete)
		return v->n == w->n && v->hash == w->hash;
	if (t->hashes || v->count > w->count)
		return false;
	for (j = 0; j < v->count; j++) {
		struct range *a = &AT(d->ranges, struct range, v->first + j);
		struct range *b = &AT(t->ranges, struct range, w->first + j);

		if (a->start != b->start || a->end != b->end || a->n != b->n ||
		    a->q != b->q)
			return false;
	}
	return true;
}

static void show_diff(struct decode *d, struct interval *v)
{
	size_t j;

	printf("# decoded interval at %llu (%u ranges, hash 0x%016llx) %s\n",
	       ULL(v->aoff), v->n,
	       ULL(v->hash),
	       "is not in the truth; its first ranges:");
	for (j = 0; j < v->count && j < 4; j++) {
		struct range *r = &AT(d->ranges, struct range, v->first + j);

		printf("#   %c 0x%llx 0x%llx %u\n", r->q ? 'Q' : 'R',
		       ULL(r->start), ULL(r->end), r->n);
	}
}

/* What compare() found for each decoded interval */
struct match {
	size_t k;		/* the truth interval */
	bool anchor;		/* k is certain: compared complete, or at the cursor */
};

/*
 * Coverage: between two decoded intervals @p and @q that matched truth
 * intervals with others between them, those others are missing from the
 * decode.  They are missing at a gap if a gap record lies between @p and
 * @q and accounts for them: it does not know how much was lost, or the
 * bytes it and the others say were lost cover the truth's bytes between
 * the two A-Syncs beyond the file's.  (The file may have more: the
 * driver's padding.)  Returns how many are missing without a gap record
 * that says why (0: at a gap), having said where.
 */
static size_t hole(struct interval *p, struct interval *q, size_t holes,
		   struct truth *t, size_t kp, size_t kq, const struct gap *gaps,
		   size_t ngaps)
{
	uint64_t dt = AT(t->iv, struct interval, kq).aoff -
		      AT(t->iv, struct interval, kp).aoff;
	uint64_t df = q->aoff - p->aoff, lost = 0;
	size_t g, n = 0;

	for (g = 0; g < ngaps; g++) {
		if (gaps[g].off <= p->aoff || gaps[g].off > q->aoff)
			continue;
		n++;
		if (gaps[g].lost < 0)
			return 0;
		lost += gaps[g].lost;
	}
	if (n && dt <= df + lost)
		return 0;
	printf("# truth interval%s %zu", holes > 1 ? "s" : "", kp + 1);
	if (holes > 1)
		printf("-%zu", kq - 1);
	printf(" (A-Sync at %llu) missing from the decode %s %llu and %llu: ",
	       ULL(AT(t->iv, struct interval, kp + 1).aoff),
	       "between file offsets", ULL(p->aoff), ULL(q->aoff));
	if (!n)
		printf("no gap record there\n");
	else
		printf("%zu gap record%s account for %llu bytes, %s %llu\n",
		       n, n > 1 ? "s" : "", ULL(lost),
		       "the truth's bytes there beyond the file's are",
		       ULL(dt - df));
	return holes;
}

/*
 * Match each decoded interval with a truth interval: within a segment
 * the very next one; a segment's first, or one after a difference, the
 * first equal one from there on (a gap or a wrap loses whole intervals).
 * Then coverage: every truth interval from the first matched to the last
 * must be matched, or missing where a gap record says why (hole()).
 */
int compare(struct decode *d, struct vec *iv, struct truth *t,
	    const struct gap *gaps, size_t ngaps)
{
	size_t i, cursor = 0, ntruth = t->iv.len, last = SIZE_MAX;
	unsigned long equal = 0, diff = 0, skipped = 0, partial = 0;
	size_t first_k = 0, last_k = 0, matched = 0, at_gaps = 0, missing = 0;
	struct match *m = calloc(iv->len ? iv->len : 1, sizeof(*m));
	bool chained = false, found;
	size_t k;

	if (!m) {
		perror("ete-decode");
		exit(2);
	}
	for (i = 0; i < iv->len; i++) {
		struct interval *v = &AT(*iv, struct interval, i);

		m[i].k = SIZE_MAX;
		if (!v->complete && (t->hashes || !v->count)) {
			skipped++;
			chained = false;
			continue;
		}
		/* within a segment: the very next truth interval */
		found = chained && cursor < ntruth &&
			same(d, v, t, &AT(t->iv, struct interval, cursor));
		k = cursor;
		m[i].anchor = found;
		/* else the first equal one: after a gap, or a hole */
		for (; !found && k < ntruth; k++)
			found = same(d, v, t, &AT(t->iv, struct interval, k));
		if (found && !m[i].anchor)
			k--;
		if (found) {
			equal++;
			partial += !v->complete;
			m[i].k = k;
			m[i].anchor |= v->complete;
			/*
			 * A partial interval (a prefix) may match more than
			 * one place: it does not move the cursor.
			 */
			if (v->complete)
				cursor = k + 1;
			chained = v->complete;
		} else {
			diff++;
			show_diff(d, v);
			chained = false;
		}
	}
	for (i = 0; i < iv->len; i++) {
		struct interval *v = &AT(*iv, struct interval, i);

		if (!m[i].anchor)
			continue;
		if (last == SIZE_MAX) {
			first_k = m[i].k;
			matched = 1;
		} else if (m[i].k > m[last].k) {
			size_t holes = m[i].k - m[last].k - 1;
			size_t miss = holes ?
				hole(&AT(*iv, struct interval, last), v, holes, t,
				     m[last].k, m[i].k, gaps, ngaps) : 0;

			missing += miss;
			at_gaps += holes - miss;
			matched++;
		}
		last_k = m[i].k;
		last = i;
	}
	free(m);
	printf("intervals: decoded %zu, compared %lu, equal %lu (%lu partial), ",
	       iv->len, equal + diff, equal, partial);
	printf("different %lu, skipped %lu; truth %zu%s; ", diff, skipped,
	       ntruth, t->lost ? " (records lost)" : "");
	if (last == SIZE_MAX)
		printf("coverage: no truth interval matched for certain; ");
	else
		printf("coverage: truth intervals %zu-%zu, %zu matched, %zu %s, %zu missing; ",
		       first_k, last_k, matched, at_gaps, "missing at gaps",
		       missing);
	printf("ranges %zu; errors %lu\n", d->ranges.len, d->errors + d->nacc);
	return diff || missing || t->lost || !equal || d->errors || d->nacc ?
	       1 : 0;
}
