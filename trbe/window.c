// SPDX-License-Identifier: GPL-2.0
/*
 * Buffer arithmetic: where the TRBE may write next, and where the stream
 * head is after it stopped.
 *
 * Positions are stream positions: a u64 counting every byte the buffer has
 * held since it was allocated; the byte at position p lives at offset
 * p % size.  head is the position of the next byte to be written, tail the
 * first byte user space has not consumed; tail <= head <= tail + size.
 *
 *   stream:   ... | consumed | $$$$ unconsumed $$$$ | #### free #### | ...
 *                            tail                   head             tail+size
 *
 * A fill-mode TRBE that reaches its limit stops, and what the trace unit
 * produces until the driver re-arms it is lost.  So the limit is not put at
 * a watermark: it is put at the end of the free space (the last whole free
 * page below tail + size), and the TRBE stops only when the reader is
 * behind.  The driver maps the buffer twice in a row (vmap of the pages,
 * then the same pages again), so a window may run past the end of the
 * buffer into its start without stopping there:
 *
 *   VA:  |<------ first mapping ------>|<------ second mapping ----->|
 *        |$$$$$$$$$$|==|################|###############|%%%|$$$$$$$$$$|
 *        0        head ptr                           limit         2*size
 *                 (== pad: IGNORE bytes)                 (%: free, not a
 *                                                        whole page)
 *
 * The watermark is when readers are woken, by the periodic flush.
 *
 * Errata change the shape (coresight-trbe.c, 6.1, lines 920-980):
 * 2119858/2139208 may overwrite up to 256 bytes before TRBPTR, so the base
 * moves up to a page boundary at or after head and TRBPTR starts 256 bytes
 * into it, the skipped bytes padded; 2224489/2253138 may write past the
 * limit into the next page, so a free page is kept after it.
 *
 * Pure functions: no register access, no side effects.
 */

#include <linux/align.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include <ete/trbe.h>

/**
 * trbe_geom_valid() - check the invariants the arithmetic relies on
 * @g: the geometry
 *
 * Context: any; pure.
 * Return: true if @size, @page, @align and @wmark are powers of two with
 * align <= page <= wmark <= size, and size holds at least two pages.
 */
bool trbe_geom_valid(const struct trbe_geom *g)
{
	return is_power_of_2(g->size) && is_power_of_2(g->page) &&
	       is_power_of_2(g->align) && is_power_of_2(g->wmark) &&
	       g->align <= g->page && g->page <= g->wmark &&
	       g->wmark <= g->size && g->size >= 2 * g->page;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_geom_valid);

/**
 * trbe_fill_window() - the next fill-mode window
 * @g: the geometry (see trbe_geom_valid())
 * @head: position of the next byte
 * @tail: position of the first unconsumed byte
 * @w: filled with the window, in stream positions: TRBBASER @w->base,
 *	TRBPTR @w->ptr, TRBLIMITR @w->limit; @w->pad = @w->ptr - @head bytes
 *	are to be padded with IGNORE packets before the TRBE is enabled.
 *	limit - base <= size, so the window fits the double mapping from
 *	the offset of base.
 *
 * Context: any; pure.
 * Return:
 * * 0 on success
 * * -EINVAL if @tail > @head or @head - @tail > size
 * * -ENOSPC if the free space cannot hold a window (the reader is behind)
 */
int trbe_fill_window(const struct trbe_geom *g, u64 head, u64 tail,
		     struct trbe_window *w)
{
	u64 guard = g->errata & BIT(TRBE_ERR_WRITE_OUT_OF_RANGE) ? g->page : 0;
	u64 free_end = round_down(tail + g->size, g->page);
	u64 base, ptr;

	if (tail > head || head - tail > g->size)
		return -EINVAL;
	if (g->errata & BIT(TRBE_ERR_OVERWRITE_FILL)) {
		base = ALIGN(head, g->page);
		ptr = base + TRBE_OVERWRITE_SKIP;
	} else {
		ptr = ALIGN(head, g->align);
		base = round_down(ptr, g->page);
	}
	if (free_end < guard || ptr >= free_end - guard)
		return -ENOSPC;
	w->base = base;
	w->ptr = ptr;
	w->limit = free_end - guard;
	w->pad = ptr - head;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_fill_window);

/**
 * trbe_drop_tail() - where the tail must be for a window of one chunk
 * @g: the geometry
 * @head: position of the next byte
 * @tail: the reader's tail
 *
 * For the "drop" policy: the smallest tail, at or after @tail and at most
 * @head, that leaves room for a window of at least a watermark chunk.
 *
 * Context: any; pure.
 * Return: the new tail (== @tail when nothing needs dropping).
 */
u64 trbe_drop_tail(const struct trbe_geom *g, u64 head, u64 tail)
{
	u64 guard = g->errata & BIT(TRBE_ERR_WRITE_OUT_OF_RANGE) ? g->page : 0;
	u64 skip = g->errata & BIT(TRBE_ERR_OVERWRITE_FILL) ?
		   g->page + TRBE_OVERWRITE_SKIP : g->align;
	/* free_end must reach head + skip + wmark + guard, in whole pages */
	u64 need = ALIGN(head + skip + g->wmark + guard, g->page);
	u64 want = need > g->size ? need - g->size : 0;

	return clamp(want, tail, head);
}
EXPORT_SYMBOL_IF_KUNIT(trbe_drop_tail);

/**
 * trbe_drop_wmark_max() - the largest chunk "drop" can always make room for
 * @g: the geometry (its @wmark is not used)
 *
 * trbe_drop_tail() moves the tail up to the head at most: when the skip
 * before TRBPTR, a watermark, the guard page of the errata and the page
 * rounding together exceed the buffer, no tail makes room and every flush
 * would discard every unread byte (errata geometries, small buffers).
 * The policy "drop" therefore uses a watermark of at most this.
 *
 * Context: any; pure.
 * Return: the largest power of two w such that, for any head, a tail at
 * or below head leaves a window of w; 0 if there is none of a page at
 * least (8KB buffers; 16KB with both errata of window.c's header).
 */
u64 trbe_drop_wmark_max(const struct trbe_geom *g)
{
	u64 guard = g->errata & BIT(TRBE_ERR_WRITE_OUT_OF_RANGE) ? g->page : 0;
	u64 skip = g->errata & BIT(TRBE_ERR_OVERWRITE_FILL) ?
		   g->page + TRBE_OVERWRITE_SKIP : g->align;
	/* ALIGN(head + skip + w + guard, page) - size <= head */
	u64 over = skip + guard + g->page - 1;
	u64 w;

	if (over >= g->size)
		return 0;
	w = rounddown_pow_of_two(g->size - over);
	return w >= g->page ? w : 0;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_drop_wmark_max);

/**
 * trbe_pos_to_off() - buffer offset of a stream position
 * @g: the geometry
 * @pos: the position
 * @is_end: @pos ends a range: a multiple of the size maps to size, not 0
 *
 * Context: any; pure.
 * Return: the offset in [0, size), or (0, size] when @is_end.
 */
u64 trbe_pos_to_off(const struct trbe_geom *g, u64 pos, bool is_end)
{
	u64 off = pos & (g->size - 1);

	return (is_end && !off) ? g->size : off;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_pos_to_off);

/**
 * trbe_wrap_head() - the stream head after a wrap or circular run
 * @g: the geometry
 * @head: the head when the TRBE was (re)started or last wrapped
 * @off: TRBPTR's offset from the buffer base now
 * @wrapped: TRBSR.WRAP: the pointer wrapped since @head
 *
 * The hardware says only that it wrapped, not how often: the result is
 * the smallest head consistent with what it says, and data before
 * result - size is gone either way.
 *
 * Context: any; pure.
 * Return: the new head, never less than @head.
 */
u64 trbe_wrap_head(const struct trbe_geom *g, u64 head, u64 off,
		   bool wrapped)
{
	u64 pos = round_down(head, g->size) + (off & (g->size - 1));

	if (wrapped)
		pos += g->size;
	return max(pos, head);
}
EXPORT_SYMBOL_IF_KUNIT(trbe_wrap_head);
