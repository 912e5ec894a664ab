// SPDX-License-Identifier: GPL-2.0
/*
 * Buffer arithmetic: where the TRBE may write next, and where the stream
 * head is after it stopped.
 *
 * Positions are stream positions: a u64 counting every byte the buffer has
 * held since the session started; the byte at position p lives at offset
 * p % size.  head is the position of the next byte to be written, tail the
 * first byte user space has not consumed; tail <= head <= tail + size.
 *
 *   stream:   ... | consumed | $$$$ unconsumed $$$$ | #### free #### | ...
 *                            tail                   head             tail+size
 *
 * In fill mode the TRBE writes [ptr, limit) and stops at limit.  The limit
 * is 4KB-granular, so the window ends at the first of: the next watermark
 * boundary (the streaming chunk), the end of the buffer (a window never
 * wraps), and the last whole free page below tail + size.
 *
 *   buffer:  |$$$$$$$$$|==|#######################|%%%%%%%%|$$$$$$$$$$$$$|
 *            0         head ptr                   limit    tail+size      size
 *                      (== pad: IGNORE bytes)             (%: free, not yet usable)
 *
 * Errata change the shape (coresight-trbe.c, 6.1, lines 920-980):
 * 2119858/2139208 may overwrite up to 256 bytes before TRBPTR, so the base
 * moves up to a page boundary at or after head and TRBPTR starts 256 bytes
 * into it, the skipped bytes padded; 2224489/2253138 may write past the
 * limit into the next page, so a free page of the buffer is kept after it.
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

/* Try a window whose pad starts at @start; false if it has no room. */
static bool trbe_try_window(const struct trbe_geom *g, u64 start, u64 tail,
			    struct trbe_window *w)
{
	bool overwrite = g->errata & BIT(TRBE_ERR_OVERWRITE_FILL);
	u64 guard = g->errata & BIT(TRBE_ERR_WRITE_OUT_OF_RANGE) ? g->page : 0;
	u64 lap_end = round_down(start, g->size) + g->size;
	u64 free_end = round_down(tail + g->size, g->page);
	u64 base, ptr, limit;

	if (overwrite) {
		base = ALIGN(start, g->page);
		ptr = base + TRBE_OVERWRITE_SKIP;
	} else {
		base = round_down(start, g->size);
		ptr = ALIGN(start, g->align);
	}
	limit = round_down(ptr, g->wmark) + g->wmark;
	limit = min3(limit, lap_end - guard, free_end - guard);
	/* base may be the lap end: the window starts in the next lap */
	if (ptr >= limit || base >= lap_end)
		return false;
	w->base = base;
	w->ptr = ptr;
	w->limit = limit;
	return true;
}

/**
 * trbe_fill_window() - the next fill-mode window for streaming
 * @g: the geometry (see trbe_geom_valid())
 * @head: position of the next byte
 * @tail: position of the first unconsumed byte
 * @w: filled with the window; @w->pad = @w->ptr - @head bytes are to be
 *	padded with IGNORE packets before the TRBE is enabled
 *
 * When the end of the buffer is too close to @head to hold a window, the
 * rest of the buffer is padded and the window starts at offset 0 of the
 * next lap, if that space is free.
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
	u64 lap_end = round_down(head, g->size) + g->size;

	if (tail > head || head - tail > g->size)
		return -EINVAL;
	if (!trbe_try_window(g, head, tail, w)) {
		/* Pad to the end of the buffer only if it is all free. */
		if (lap_end > tail + g->size ||
		    !trbe_try_window(g, lap_end, tail, w))
			return -ENOSPC;
	}
	w->pad = w->ptr - head;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(trbe_fill_window);

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
