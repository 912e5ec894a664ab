/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ground truth of a trace session: what a decoder of the captured
 * stream must reproduce (Documentation/model.rst, "Ground truth").
 */
#ifndef _ETE_MODEL_TRUTH_H
#define _ETE_MODEL_TRUTH_H

#include <linux/types.h>

#define EM_TRUTH_FNV_BASIS	0xcbf29ce484222325ULL
#define EM_TRUTH_FNV_PRIME	0x100000001b3ULL
/* A "Q" record hashes as (start, next) then (n, EM_TRUTH_Q_MARK) */
#define EM_TRUTH_Q_MARK		0xffffffffffffffffULL

/**
 * enum em_truth_type - kinds of truth record
 * @EM_TRUTH_ASYNC: "A <off>": an A-Sync at stream offset off
 * @EM_TRUTH_GAP: "G <off> <bytes>": output discarded
 * @EM_TRUTH_RANGE: "R <off> 0x<start> 0x<end> <n>": a decodable range
 * @EM_TRUTH_HASH: "H <off-of-A> <n> 0x<hash>": the ranges of one interval
 *	between A-Syncs (hash mode)
 * @EM_TRUTH_NOPATH: "Q <off> 0x<start> 0x<next> <n>": n instructions
 *	executed from start, path unknown, execution went on at next (a Q
 *	element that implies more than one block)
 */
enum em_truth_type {
	EM_TRUTH_ASYNC,
	EM_TRUTH_GAP,
	EM_TRUTH_RANGE,
	EM_TRUTH_HASH,
	EM_TRUTH_NOPATH,
};

/**
 * enum em_truth_mode - what a session records
 * @EM_TRUTH_RANGES: every range
 * @EM_TRUTH_HASHES: one hash per interval between A-Syncs
 */
enum em_truth_mode {
	EM_TRUTH_RANGES,
	EM_TRUTH_HASHES,
};

/**
 * struct em_truth_rec - one record
 * @off: stream offset
 * @a: range start, gap size or interval hash
 * @b: range end, or where execution went on after a Q element
 * @n: instructions of a range, ranges and Q records of an interval
 * @type: enum em_truth_type
 */
struct em_truth_rec {
	u64 off;
	u64 a;
	u64 b;
	u32 n;
	u8 type;
};

/**
 * struct em_truth - the truth of one unit's current session
 * @rec: records, @cap of them
 * @cap: capacity
 * @len: records used
 * @lost: records that did not fit
 * @mode: mode of this session
 * @next_mode: mode of the next session
 * @open: an interval is open (hash mode)
 * @hash: its FNV-1a 64 so far
 * @hn: its ranges and Q records
 * @hoff: offset of its A-Sync
 */
struct em_truth {
	struct em_truth_rec *rec;
	u32 cap;
	u32 len;
	u32 lost;
	u8 mode;
	u8 next_mode;
	bool open;
	u64 hash;
	u32 hn;
	u64 hoff;
};

u64 em_truth_fnv(u64 hash, u64 start, u64 end);
void em_truth_reset(struct em_truth *t);
void em_truth_async(struct em_truth *t, u64 off);
void em_truth_gap(struct em_truth *t, u64 off, u64 bytes);
void em_truth_range(struct em_truth *t, u64 off, u64 start, u64 end, u32 n);
void em_truth_nopath(struct em_truth *t, u64 off, u64 start, u64 next, u32 n);
int em_truth_format(const struct em_truth_rec *r, char *buf, size_t size);

#endif /* _ETE_MODEL_TRUTH_H */
