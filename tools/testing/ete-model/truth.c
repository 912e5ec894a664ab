// SPDX-License-Identifier: GPL-2.0
/*
 * The ground truth of a trace session (Documentation/model.rst, "Ground
 * truth"): records kept in a buffer the caller allocates, in one of two
 * modes.  Pure: no locking, no allocation; KUnit-tested.
 */

#include <linux/kernel.h>
#include <kunit/visibility.h>

#include "truth.h"

static void em_truth_put(struct em_truth *t, u8 type, u64 off, u64 a, u64 b,
			 u32 n)
{
	struct em_truth_rec *r;

	if (t->len >= t->cap) {
		t->lost++;
		return;
	}
	r = &t->rec[t->len++];
	r->type = type;
	r->off = off;
	r->a = a;
	r->b = b;
	r->n = n;
}

/**
 * em_truth_fnv() - add one range to an FNV-1a 64 hash
 * @hash: the hash so far (EM_TRUTH_FNV_BASIS to start)
 * @start: range start, hashed as 8 little-endian bytes
 * @end: range end, likewise
 *
 * Context: any.
 * Return: the new hash.
 */
u64 em_truth_fnv(u64 hash, u64 start, u64 end)
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		hash ^= ((i < 8 ? start : end) >> (8 * (i & 7))) & 0xff;
		hash *= EM_TRUTH_FNV_PRIME;
	}
	return hash;
}
EXPORT_SYMBOL_IF_KUNIT(em_truth_fnv);

/**
 * em_truth_reset() - a session starts: forget the records, take the mode
 * @t: the truth
 *
 * Context: the owner's lock held.
 */
void em_truth_reset(struct em_truth *t)
{
	t->len = 0;
	t->lost = 0;
	t->mode = t->next_mode;
	t->open = false;
}
EXPORT_SYMBOL_IF_KUNIT(em_truth_reset);

static void em_truth_close(struct em_truth *t)
{
	if (t->open)
		em_truth_put(t, EM_TRUTH_HASH, t->hoff, t->hash, 0, t->hn);
	t->open = false;
}

/**
 * em_truth_async() - an A-Sync was output
 * @t: the truth
 * @off: its stream offset
 *
 * Context: the owner's lock held.
 */
void em_truth_async(struct em_truth *t, u64 off)
{
	if (t->mode == EM_TRUTH_HASHES) {
		em_truth_close(t);
		t->open = true;
		t->hash = EM_TRUTH_FNV_BASIS;
		t->hn = 0;
		t->hoff = off;
	}
	em_truth_put(t, EM_TRUTH_ASYNC, off, 0, 0, 0);
}
EXPORT_SYMBOL_IF_KUNIT(em_truth_async);

/**
 * em_truth_gap() - output was discarded
 * @t: the truth
 * @off: stream offset where
 * @bytes: how much
 *
 * Context: the owner's lock held.
 */
void em_truth_gap(struct em_truth *t, u64 off, u64 bytes)
{
	struct em_truth_rec *r = t->len ? &t->rec[t->len - 1] : NULL;

	/*
	 * While the TRBE stays stopped every drain discards again at the
	 * same stream offset (discarded bytes do not advance it): one
	 * record per offset, not per drain, or a long stop fills the truth
	 * and the intervals after it are lost.
	 */
	if (r && r->type == EM_TRUTH_GAP && r->off == off) {
		r->a += bytes;
		return;
	}
	em_truth_put(t, EM_TRUTH_GAP, off, bytes, 0, 0);
}
EXPORT_SYMBOL_IF_KUNIT(em_truth_gap);

/**
 * em_truth_range() - a range became decodable
 * @t: the truth
 * @off: stream offset of the packet that did it
 * @start: first instruction
 * @end: address after the last
 * @n: instructions
 *
 * Context: the owner's lock held.
 */
void em_truth_range(struct em_truth *t, u64 off, u64 start, u64 end, u32 n)
{
	if (t->mode == EM_TRUTH_RANGES) {
		em_truth_put(t, EM_TRUTH_RANGE, off, start, end, n);
	} else if (t->open) {
		t->hash = em_truth_fnv(t->hash, start, end);
		t->hn++;
	}
}
EXPORT_SYMBOL_IF_KUNIT(em_truth_range);

/**
 * em_truth_nopath() - instructions became known by their number only (a
 *	Q element of more than one block and its Target Address)
 * @t: the truth
 * @off: stream offset of the Q packet
 * @start: first instruction
 * @next: where execution went on after the last
 * @n: instructions
 *
 * In hash mode the record adds (@start, @next) then (@n, EM_TRUTH_Q_MARK)
 * to the interval's hash and counts once.
 *
 * Context: the owner's lock held.
 */
void em_truth_nopath(struct em_truth *t, u64 off, u64 start, u64 next, u32 n)
{
	if (t->mode == EM_TRUTH_RANGES) {
		em_truth_put(t, EM_TRUTH_NOPATH, off, start, next, n);
	} else if (t->open) {
		t->hash = em_truth_fnv(t->hash, start, next);
		t->hash = em_truth_fnv(t->hash, n, EM_TRUTH_Q_MARK);
		t->hn++;
	}
}
EXPORT_SYMBOL_IF_KUNIT(em_truth_nopath);

/**
 * em_truth_format() - one record as a line of cpuN/truth
 * @r: the record
 * @buf: output
 * @size: its size
 *
 * Context: any.
 * Return: the length written, as snprintf().
 */
int em_truth_format(const struct em_truth_rec *r, char *buf, size_t size)
{
	switch (r->type) {
	case EM_TRUTH_ASYNC:
		return snprintf(buf, size, "A %llu\n", r->off);
	case EM_TRUTH_GAP:
		return snprintf(buf, size, "G %llu %llu\n", r->off, r->a);
	case EM_TRUTH_RANGE:
		return snprintf(buf, size, "R %llu 0x%llx 0x%llx %u\n", r->off,
				r->a, r->b, r->n);
	case EM_TRUTH_NOPATH:
		return snprintf(buf, size, "Q %llu 0x%llx 0x%llx %u\n", r->off,
				r->a, r->b, r->n);
	default:
		return snprintf(buf, size, "H %llu %u 0x%016llx\n", r->off,
				r->n, r->a);
	}
}
EXPORT_SYMBOL_IF_KUNIT(em_truth_format);
