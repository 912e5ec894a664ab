// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU trace buffers: allocation on the CPU's node, what the opener is
 * charged for them, the header page and the stream state user space sees
 * in it.
 *
 * The data pages are allocated zeroed, one by one on the CPU's node, and
 * vmap()ed twice in a row: the TRBE writes through that kernel mapping
 * (the owning translation regime is the kernel's, EL1&0 or EL2&0 under
 * VHE), and a fill-mode window may run past the buffer's end into the
 * second copy instead of stopping there (see window.c).  User space maps
 * the same pages once, read-only.
 */

#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>

#include "drv.h"

/*
 * The part of each buffer that is not locked memory of its opener, in KiB:
 * as perf_event_mlock_kb is for perf's ring buffers, a default-size buffer
 * on every CPU costs nothing against RLIMIT_MEMLOCK.
 */
static unsigned int trbe_mlock_kb = TRBE_BUF_DEFAULT / SZ_1K;
module_param_named(mlock_kb, trbe_mlock_kb, uint, 0644);
MODULE_PARM_DESC(mlock_kb, "KiB of each buffer not charged to its opener's locked memory (RLIMIT_MEMLOCK)");

/**
 * trbe_mlock_charge() - charge a buffer to the opener's locked memory
 * @size: the buffer's data bytes
 * @ml: filled: what was charged, for trbe_mlock_uncharge()
 *
 * A buffer's pages are pinned for as long as it is open, like the AUX
 * pages of a perf ring buffer, which perf_mmap() charges to the user's
 * locked memory: the data pages beyond mlock_kb go to the current
 * process's locked_vm (VmLck), against its RLIMIT_MEMLOCK unless it has
 * CAP_IPC_LOCK (account_locked_vm()).  The header page is not counted.
 *
 * Context: process context, on behalf of the opener; sleeps (mmap lock).
 * Return: 0, or -ENOMEM over RLIMIT_MEMLOCK.
 */
int trbe_mlock_charge(u64 size, struct trbe_mlock *ml)
{
	unsigned long free = READ_ONCE(trbe_mlock_kb) >> (PAGE_SHIFT - 10);
	unsigned long pages = size >> PAGE_SHIFT;
	struct mm_struct *mm = current->mm;
	int ret;

	ml->mm = NULL;
	ml->pages = 0;
	if (pages <= free || !mm)
		return 0;
	ret = account_locked_vm(mm, pages - free, true);
	if (ret)
		return ret;
	mmgrab(mm);
	ml->mm = mm;
	ml->pages = pages - free;
	return 0;
}

/**
 * trbe_mlock_uncharge() - give back what trbe_mlock_charge() charged
 * @ml: the charge; empty afterwards
 *
 * The process may have exited (its locked_vm went with it) or handed the
 * file to another that closes it now: the charge goes back to the address
 * space it was taken from, if that still has users.
 *
 * Context: process context; sleeps.
 */
void trbe_mlock_uncharge(struct trbe_mlock *ml)
{
	struct mm_struct *mm = ml->mm;

	if (!mm)
		return;
	if (mmget_not_zero(mm)) {
		mmap_write_lock(mm);
		__account_locked_vm(mm, ml->pages, false, current, true);
		mmap_write_unlock(mm);
		mmput(mm);
	}
	mmdrop(mm);
	ml->mm = NULL;
	ml->pages = 0;
}

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
 * The pages are charged to the caller's memory cgroup (__GFP_ACCOUNT),
 * and an allocation the system cannot satisfy fails instead of waking
 * the OOM killer (__GFP_RETRY_MAYFAIL): up to 256 MiB per CPU is asked
 * for at open(), on behalf of whoever may open the device.
 *
 * Context: process context, on behalf of the opener; sleeps.
 * Return: the buffer, or NULL when out of memory.
 */
struct trbe_buf *trbe_buf_alloc(int cpu, u64 size)
{
	const gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN |
			  __GFP_RETRY_MAYFAIL;
	int node = cpu_to_node(cpu);
	struct trbe_buf *buf;
	unsigned int i;

	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, node);
	if (!buf)
		return NULL;
	buf->size = size;
	buf->nr_pages = size >> PAGE_SHIFT;
	buf->pages = kvcalloc(buf->nr_pages, sizeof(*buf->pages),
			      GFP_KERNEL_ACCOUNT);
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
 * trbe_buf_free() - free a buffer from trbe_buf_alloc(), and its charge
 * @buf: the buffer; no mapping and no armed TRBE may use it
 *
 * Context: process context; sleeps.
 */
void trbe_buf_free(struct trbe_buf *buf)
{
	trbe_mlock_uncharge(&buf->mlock);
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
 * trbe_stream_install() - give a CPU a fresh buffer, its stream at zero
 * @tc: the CPU, without a buffer
 * @buf: the buffer
 *
 * The buffer, its geometry and the stream state appear together under
 * tc->slock: trbe_sink_start() (a foreign session) sees either no buffer
 * or a ready one, never a buffer whose stream is reset after it armed the
 * TRBE on it.
 *
 * Context: process context, tc->lock held; the TRBE is not armed.
 */
void trbe_stream_install(struct trbe_cpu *tc, struct trbe_buf *buf)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tc->slock, flags);
	tc->buf = buf;
	tc->head = 0;
	tc->lost_tail = 0;
	memset(&tc->ctr, 0, sizeof(tc->ctr));
	tc->ctr.trigger_offset = ETE_TRBE_LOST_UNKNOWN;
	tc->state = ETE_TRBE_STATE_IDLE;
	tc->gap_pending = 0;
	tc->gap_last = 0;
	tc->wake_mark = 0;
	tc->wake_upto = 0;
	/* tc->armed stays as it is: false, the last close disarmed it */
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
 * watermark's worth is unread (trbe_wake_mark()).
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
	if (head - trbe_stream_tail(tc) >= trbe_wake_mark(tc))
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
	u64 n = tc->ctr.gap_count;
	struct ete_trbe_gap *gap = &hdr->gaps[n % ETE_TRBE_MAX_GAPS];

	WRITE_ONCE(gap->offset, offset);
	WRITE_ONCE(gap->lost, lost);
	WRITE_ONCE(gap->reason, reason);
	smp_wmb();	/* the record before the count */
	tc->ctr.gap_count = n + 1;
	tc->gap_last = offset;
	WRITE_ONCE(hdr->gap_count, n + 1);
}

/**
 * trbe_stream_begin() - a session starts on the stream
 * @tc: the CPU
 *
 * Clears the last fault and the trigger offset (the ABI: the next start
 * clears them).
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_begin(struct trbe_cpu *tc)
{
	struct ete_trbe_mmap_page *hdr = tc->buf->hdr;

	tc->ctr.last_error = 0;
	tc->ctr.last_status = 0;
	tc->ctr.trigger_offset = ETE_TRBE_LOST_UNKNOWN;
	WRITE_ONCE(hdr->last_error, 0);
	WRITE_ONCE(hdr->last_status, 0);
	WRITE_ONCE(hdr->trigger_offset, ETE_TRBE_LOST_UNKNOWN);
}

/**
 * trbe_stream_end() - a session ends on the stream
 * @tc: the CPU, the TRBE disabled and its last data published
 *
 * A break still pending (the TRBE stopped full and never restarted: the
 * session ended WAITING, or its stop found the buffer full) is recorded at
 * the head: the stream broke off there, its last packet possibly cut short,
 * and what the trace unit made after it is gone.  Without the record, a
 * decoder reads the cut packet as an error (OpenCSD: I_INCOMPLETE_EOT).
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_end(struct trbe_cpu *tc)
{
	if (!tc->gap_pending)
		return;
	trbe_stream_gap(tc, tc->head, ETE_TRBE_LOST_UNKNOWN, tc->gap_pending);
	tc->gap_pending = 0;
}

/**
 * trbe_stream_wrapped() - count a wrap of the TRBE pointer
 * @tc: the CPU
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_wrapped(struct trbe_cpu *tc)
{
	WRITE_ONCE(tc->buf->hdr->wrap_count, ++tc->ctr.wrap_count);
}

/**
 * trbe_stream_lost() - count bytes the drop policy discarded
 * @tc: the CPU
 * @bytes: how many
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_lost(struct trbe_cpu *tc, u64 bytes)
{
	tc->ctr.lost_bytes += bytes;
	WRITE_ONCE(tc->buf->hdr->lost_bytes, tc->ctr.lost_bytes);
}

/**
 * trbe_stream_error() - record a fault
 * @tc: the CPU
 * @err: a negative errno
 * @sr: TRBSR as the fault left it
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_error(struct trbe_cpu *tc, int err, u64 sr)
{
	tc->ctr.last_error = err;
	tc->ctr.last_status = sr;
	WRITE_ONCE(tc->buf->hdr->last_status, sr);
	WRITE_ONCE(tc->buf->hdr->last_error, err);
}

/**
 * trbe_stream_trigger() - record where the trigger event happened
 * @tc: the CPU
 * @offset: the stream offset
 *
 * Context: any; tc->slock held.
 */
void trbe_stream_trigger(struct trbe_cpu *tc, u64 offset)
{
	tc->ctr.trigger_offset = offset;
	WRITE_ONCE(tc->buf->hdr->trigger_offset, offset);
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

	trbe_stat_add(&tc->stats.wakeups, 1);
	wake_up_all(&tc->wq);
	trbe_fault_say(tc);
}

/**
 * trbe_fault_say() - log a TRBE fault that the interrupt handler recorded
 * @tc: the CPU
 *
 * The handler runs in a per-CPU interrupt, never threaded, with tc->slock
 * held: no place for printk, whose console driver may take a sleeping lock
 * on PREEMPT_RT (lockdep's "Invalid wait context" on 6.1, whose printk
 * writes the console synchronously).  It records the fault and the stream's
 * irq_work (trbe_stream_wake()) says it here.
 *
 * Context: irq_work; takes tc->slock.
 */
void trbe_fault_say(struct trbe_cpu *tc)
{
	struct trbe_status st;
	unsigned long flags;
	bool say;
	u64 sr;

	raw_spin_lock_irqsave(&tc->slock, flags);
	say = tc->fault_unsaid;
	sr = tc->fault_sr;
	st = tc->fault_st;
	tc->fault_unsaid = false;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	if (say)
		pr_err_ratelimited("cpu%d: TRBE fault: TRBSR %#llx (EC %#x, %s)\n",
				   tc->cpu, sr, st.ec,
				   st.ec ? trbe_fsc_name(st.code) : "event");
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
