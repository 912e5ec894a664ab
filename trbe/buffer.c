// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU trace buffers: allocation on the CPU's node, the header page and
 * the stream state user space sees in it.
 *
 * The data pages are allocated zeroed, one by one on the CPU's node, and
 * vmap()ed twice in a row: the TRBE writes through that kernel mapping
 * (the owning translation regime is the kernel's, EL1&0 or EL2&0 under
 * VHE), and a fill-mode window may run past the buffer's end into the
 * second copy instead of stopping there (see window.c).  User space maps
 * the same pages once, read-only.
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>

#include "drv.h"

static void trbe_buf_free_pages(struct trbe_buf *buf)
{
	unsigned int i;

	for (i = 0; i < buf->nr_pages; i++)
		if (buf->pages[i])
			__free_page(buf->pages[i]);
	kvfree(buf->pages);
}

/* Map the data pages twice, back to back: [0, size) then [size, 2 * size) */
static void *trbe_buf_vmap_twice(struct trbe_buf *buf)
{
	unsigned int i, n = buf->nr_pages;
	struct page **twice;
	void *vaddr;

	twice = kvmalloc_array(2 * n, sizeof(*twice), GFP_KERNEL);
	if (!twice)
		return NULL;
	for (i = 0; i < 2 * n; i++)
		twice[i] = buf->pages[i % n];
	vaddr = vmap(twice, 2 * n, VM_MAP, PAGE_KERNEL);
	kvfree(twice);
	return vaddr;
}

/**
 * trbe_buf_alloc() - allocate a zeroed buffer and header page for a CPU
 * @cpu: the CPU whose node holds the pages
 * @size: data bytes, a power of two and a multiple of PAGE_SIZE
 *
 * Context: process context; sleeps.
 * Return: the buffer, or NULL when out of memory.
 */
struct trbe_buf *trbe_buf_alloc(int cpu, u64 size)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
	int node = cpu_to_node(cpu);
	struct trbe_buf *buf;
	unsigned int i;

	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, node);
	if (!buf)
		return NULL;
	buf->size = size;
	buf->nr_pages = size >> PAGE_SHIFT;
	buf->pages = kvcalloc(buf->nr_pages, sizeof(*buf->pages), GFP_KERNEL);
	if (!buf->pages)
		goto err_free_buf;
	for (i = 0; i < buf->nr_pages; i++) {
		buf->pages[i] = alloc_pages_node(node, gfp, 0);
		if (!buf->pages[i])
			goto err_free_pages;
	}
	buf->vaddr = trbe_buf_vmap_twice(buf);
	if (!buf->vaddr)
		goto err_free_pages;
	buf->hdr_page = alloc_pages_node(node, gfp, 0);
	if (!buf->hdr_page)
		goto err_unmap;
	buf->hdr = page_address(buf->hdr_page);
	buf->hdr->version = ETE_TRBE_ABI_VERSION;
	buf->hdr->hdr_size = sizeof(*buf->hdr);
	buf->hdr->data_offset = PAGE_SIZE;
	buf->hdr->data_size = size;
	buf->hdr->trigger_offset = ETE_TRBE_LOST_UNKNOWN;
	return buf;

err_unmap:
	vunmap(buf->vaddr);
err_free_pages:
	trbe_buf_free_pages(buf);
err_free_buf:
	kfree(buf);
	return NULL;
}

/**
 * trbe_buf_free() - free a buffer from trbe_buf_alloc()
 * @buf: the buffer; no mapping and no armed TRBE may use it
 *
 * Context: process context.
 */
void trbe_buf_free(struct trbe_buf *buf)
{
	__free_page(buf->hdr_page);
	vunmap(buf->vaddr);
	trbe_buf_free_pages(buf);
	kfree(buf);
}

/**
 * trbe_buf_pad() - fill stream bytes with ETE IGNORE packets
 * @buf: the buffer
 * @pos: first stream position
 * @len: bytes, at most the buffer size
 *
 * Decoders skip IGNORE bytes (0x70), so the padding the buffer arithmetic
 * asks for can be published as data.
 *
 * Context: any; does not sleep.
 */
void trbe_buf_pad(struct trbe_buf *buf, u64 pos, u64 len)
{
	u64 off = pos & (buf->size - 1);
	u64 first = min(len, buf->size - off);

	memset(buf->vaddr + off, TRBE_IGNORE_BYTE, first);
	memset(buf->vaddr, TRBE_IGNORE_BYTE, len - first);
}

/**
 * trbe_stream_reset() - start the stream of a new buffer from zero
 * @tc: the CPU, with a fresh buffer installed
 *
 * Context: process context, tc->lock held, no session.
 */
void trbe_stream_reset(struct trbe_cpu *tc)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tc->slock, flags);
	tc->head = 0;
	tc->lost_tail = 0;
	tc->state = ETE_TRBE_STATE_IDLE;
	tc->gap_pending = 0;
	tc->armed = false;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
}

/**
 * trbe_stream_publish() - make stream bytes up to @head visible
 * @tc: the CPU
 * @head: the new head, not below the current one
 *
 * The data is ordered before the head as perf orders its ring buffer:
 * a write barrier, then data_head.  Also moves lost_tail when the new head
 * laps unconsumed data (wrap and circular modes), and wakes readers once a
 * watermark's worth is unread.
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_publish(struct trbe_cpu *tc, u64 head)
{
	struct ete_trbe_mmap_page *hdr = tc->buf->hdr;

	tc->head = head;
	if (head > tc->buf->size && head - tc->buf->size > tc->lost_tail) {
		tc->lost_tail = head - tc->buf->size;
		WRITE_ONCE(hdr->data_lost_tail, tc->lost_tail);
	}
	smp_wmb();	/* data before head; pairs with the reader's rmb */
	WRITE_ONCE(hdr->data_head, head);
	if (head - trbe_stream_tail(tc) >= tc->geom.wmark)
		irq_work_queue(&tc->wake);
}

/**
 * trbe_stream_gap() - record a break in the stream
 * @tc: the CPU
 * @offset: stream offset of the first byte after the break
 * @lost: bytes lost there, or ETE_TRBE_LOST_UNKNOWN
 * @reason: an &enum ete_trbe_gap_reason
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_gap(struct trbe_cpu *tc, u64 offset, u64 lost, u32 reason)
{
	struct ete_trbe_mmap_page *hdr = tc->buf->hdr;
	u64 n = hdr->gap_count;
	struct ete_trbe_gap *gap = &hdr->gaps[n % ETE_TRBE_MAX_GAPS];

	WRITE_ONCE(gap->offset, offset);
	WRITE_ONCE(gap->lost, lost);
	WRITE_ONCE(gap->reason, reason);
	smp_wmb();	/* the record before the count */
	WRITE_ONCE(hdr->gap_count, n + 1);
}

/**
 * trbe_stream_set_state() - change the state user space sees
 * @tc: the CPU
 * @state: the new state
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_set_state(struct trbe_cpu *tc, enum ete_trbe_state state)
{
	tc->state = state;
	WRITE_ONCE(tc->buf->hdr->state, state);
	irq_work_queue(&tc->wake);
}

/**
 * trbe_stream_wake() - wake the readers and pollers of a CPU's buffer
 * @work: the CPU's &trbe_cpu.wake
 *
 * The stream changes under tc->slock, a raw spinlock, in the TRBE
 * interrupt, in cross-CPU calls and in the flush timer: none of them may
 * take the wait queue's lock (a sleeping lock on PREEMPT_RT), so they
 * queue this irq_work, as perf's ring buffer does, and it wakes the
 * readers once the lock is dropped, and logs a fault the interrupt
 * recorded (trbe_fault_say()).  trbe_devices_destroy() waits for it
 * before the CPU's state goes.
 *
 * Context: irq_work (hard interrupt, or its thread on PREEMPT_RT).
 */
void trbe_stream_wake(struct irq_work *work)
{
	struct trbe_cpu *tc = container_of(work, struct trbe_cpu, wake);

	wake_up_all(&tc->wq);
	trbe_fault_say(tc);
}

/**
 * trbe_stream_tail() - where the consumer is, as far as the driver trusts it
 * @tc: the CPU
 *
 * Reads data_tail from the header page (the only field user space writes)
 * and clamps it into [lost_tail, head]: a wild value cannot make the
 * driver overwrite more than the data it already counts as lost.
 *
 * Context: any; tc->slock held.
 * Return: the tail.
 */
u64 trbe_stream_tail(struct trbe_cpu *tc)
{
	u64 tail = READ_ONCE(tc->buf->hdr->data_tail);

	smp_mb();	/* read the tail before overwriting data; as perf */
	return clamp(tail, tc->lost_tail, tc->head);
}
