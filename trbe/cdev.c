// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/trbe<N>: open, mmap, read, poll and ioctl on one CPU's buffer.
 *
 * mmap layout: page 0 is the header page (struct ete_trbe_mmap_page), then
 * the data pages.  The header page may be mapped writable (user space
 * writes data_tail there); a writable mapping that covers data pages is
 * refused, as is any mapping past the end.  read() consumes the same
 * stream and moves data_tail; poll() reports data, a hardware stop and a
 * fault.
 */

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <ete/compat.h>
#include <ete/sink.h>
#include <ete/task.h>

#include "drv.h"

static struct trbe_cpu *trbe_cpu_of_inode(struct trbe_drv *drv,
					  struct inode *inode)
{
	unsigned int cpu = iminor(inode);

	if (cpu >= nr_cpu_ids || !drv->cpus[cpu])
		return NULL;
	return drv->cpus[cpu];
}

static int trbe_open(struct inode *inode, struct file *file)
{
	struct trbe_drv *drv = container_of(inode->i_cdev, struct trbe_drv,
					    cdev);
	struct trbe_cpu *tc = trbe_cpu_of_inode(drv, inode);
	struct trbe_mlock ml;
	struct trbe_buf *buf;
	int ret = 0;

	if (!tc)
		return -ENODEV;
	/*
	 * The node's permissions decide who opens it (the etetrace group of
	 * packaging/udev/60-ete-trbe.rules).  What the trace may show is the
	 * opener's privilege, taken now from the credentials of the open
	 * (file->f_cred): whoever starts a session into this buffer (the
	 * START ioctl, a sysfs or configfs session), the kernel's and the
	 * Secure exception levels are traced into it only if the opener had
	 * CAP_PERFMON (or CAP_SYS_ADMIN), and the starter too
	 * (ete_config_to_image()).
	 */

	mutex_lock(&tc->lock);
	if (tc->open) {
		ret = -EBUSY;
		goto out_unlock;
	}
	ret = trbe_mlock_charge(tc->cfg.size, &ml);
	if (ret)
		goto out_unlock;
	buf = trbe_buf_alloc(tc->cpu, tc->cfg.size);
	if (!buf) {
		trbe_mlock_uncharge(&ml);
		ret = -ENOMEM;
		goto out_unlock;
	}
	buf->mlock = ml;
	buf->reader_sees_kernel = ete_file_may_trace_kernel(file);
	/* From here a configfs or sysfs session may start into it */
	trbe_stream_install(tc, buf);
	tc->open = true;
	file->private_data = tc;
	ret = nonseekable_open(inode, file);
out_unlock:
	mutex_unlock(&tc->lock);
	return ret;
}

static int trbe_release(struct inode *inode, struct file *file)
{
	struct trbe_cpu *tc = file->private_data;

	mutex_lock(&tc->lock);
	trbe_session_stop(tc);
	trbe_session_release_buf(tc);
	tc->open = false;
	ete_task_set_put(tc->tasks);
	tc->tasks = NULL;
	mutex_unlock(&tc->lock);
	return 0;
}

/* ETE_TRBE_IOC_SET_TASKS: the task set of this file's next sessions */
static long trbe_set_tasks(struct trbe_cpu *tc, const void __user *arg)
{
	struct ete_task_set *ts = NULL;
	struct ete_trbe_tasks req;
	long ret = 0;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags || req.pid < 0)
		return -EINVAL;
	if (req.pid) {
		ts = ete_task_set_bind(req.pid, 0);
		if (IS_ERR(ts))
			return PTR_ERR(ts);
	}
	mutex_lock(&tc->lock);
	if (tc->owner)
		ret = -EBUSY;
	else
		swap(tc->tasks, ts);
	mutex_unlock(&tc->lock);
	ete_task_set_put(ts);
	return ret;
}

/* Published bytes not yet consumed, from *start on. */
static u64 trbe_avail(struct trbe_cpu *tc, u64 *start)
{
	unsigned long flags;
	u64 n;

	raw_spin_lock_irqsave(&tc->slock, flags);
	*start = trbe_stream_tail(tc);
	n = tc->head - *start;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	return n;
}

/*
 * The wait condition of a blocking read(): data, or no session.  Checked
 * on the wait queue: a reader about to sleep asks for the flush timer
 * (trbe_session_want_data()).
 */
static bool trbe_read_done(struct trbe_cpu *tc)
{
	u64 start;
	bool done;

	done = trbe_avail(tc, &start) ||
	       (READ_ONCE(tc->state) != ETE_TRBE_STATE_RUNNING &&
		READ_ONCE(tc->state) != ETE_TRBE_STATE_WAITING);
	if (!done)
		trbe_session_want_data(tc);
	return done;
}

/* Copy from stream position @start; the region may wrap the buffer. */
static int trbe_copy_out(struct trbe_buf *buf, char __user *ubuf, u64 start,
			 size_t n)
{
	u64 off = start & (buf->size - 1);
	size_t first = min_t(u64, n, buf->size - off);

	if (copy_to_user(ubuf, buf->vaddr + off, first))
		return -EFAULT;
	if (copy_to_user(ubuf + first, buf->vaddr, n - first))
		return -EFAULT;
	return 0;
}

/*
 * One attempt: copy what is available.  Return the bytes copied, 0 if
 * none is available, or -EAGAIN if the drop policy overwrote the bytes
 * while they were copied (the caller tries again from the new tail).
 */
static ssize_t trbe_read_once(struct trbe_cpu *tc, char __user *ubuf,
			      size_t len)
{
	unsigned long flags;
	u64 start, avail;
	ssize_t ret;

	avail = trbe_avail(tc, &start);
	if (!avail)
		return 0;
	len = min_t(u64, len, avail);
	smp_rmb();	/* head before data; pairs with trbe_stream_publish() */
	ret = trbe_copy_out(tc->buf, ubuf, start, len);
	if (ret)
		return ret;

	raw_spin_lock_irqsave(&tc->slock, flags);
	if (tc->lost_tail > start) {
		ret = -EAGAIN;
	} else {
		smp_mb();	/* data read before the tail moves; as perf */
		WRITE_ONCE(tc->buf->hdr->data_tail, start + len);
		ret = len;
	}
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	return ret;
}

/*
 * read() consumes from the tail: one attempt copies what is available and
 * fails with -EAGAIN when the drop policy overwrote it meanwhile.  Under a
 * trace rate that overtakes every copy, the attempts could go on for as
 * long as the trace comes: each retry gives way to other tasks, and a
 * signal ends the read (nothing was read, so it may be restarted).
 */
static ssize_t trbe_read(struct file *file, char __user *ubuf, size_t len,
			 loff_t *ppos)
{
	struct trbe_cpu *tc = file->private_data;
	ssize_t ret;

	if (!len)
		return 0;
	if (mutex_lock_interruptible(&tc->read_lock))
		return -ERESTARTSYS;
	for (;;) {
		ret = trbe_read_once(tc, ubuf, len);
		if (ret == -EAGAIN) {
			if (signal_pending(current)) {
				ret = -ERESTARTSYS;
				break;
			}
			cond_resched();
			continue;
		}
		if (ret)
			break;
		if (READ_ONCE(tc->state) != ETE_TRBE_STATE_RUNNING &&
		    READ_ONCE(tc->state) != ETE_TRBE_STATE_WAITING)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		ret = wait_event_interruptible(tc->wq, trbe_read_done(tc));
		if (ret)
			break;
	}
	mutex_unlock(&tc->read_lock);
	if (ret > 0)
		trbe_session_kick(tc);
	return ret;
}

/*
 * poll()'s readable: a watermark's worth unread, or anything unread once
 * the session is not running (stopped, waiting for the reader, faulted),
 * or unread bytes published before a wake that was for any amount
 * (ETE_TRBE_IOC_FLUSH, a limit that cannot move until the reader reads).
 * Not any byte after any wake: a state change's wake would end a
 * watermark wait early.  Level, not edge: what makes it readable lasts
 * until the reader has read past it, by read() or by moving data_tail,
 * whether or not a poll() said so, and no longer.
 */
static bool trbe_poll_ready(struct trbe_cpu *tc)
{
	unsigned long flags;
	bool ready;
	u64 tail, n;

	raw_spin_lock_irqsave(&tc->slock, flags);
	tail = trbe_stream_tail(tc);
	n = tc->head - tail;
	ready = n && (n >= trbe_wake_mark(tc) || tail < tc->wake_upto ||
		      tc->state != ETE_TRBE_STATE_RUNNING);
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	return ready;
}

static __poll_t trbe_poll(struct file *file, poll_table *wait)
{
	struct trbe_cpu *tc = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &tc->wq, wait);
	if (trbe_poll_ready(tc))
		mask |= EPOLLIN | EPOLLRDNORM;
	switch (READ_ONCE(tc->state)) {
	case ETE_TRBE_STATE_FAULT:
		mask |= EPOLLERR;
		break;
	case ETE_TRBE_STATE_STOPPED:
		mask |= EPOLLHUP;
		break;
	default:
		break;
	}
	/* Nothing to report and the caller sleeps on tc->wq: flush for it */
	if (!mask && !ete_compat_poll_does_not_wait(wait))
		trbe_session_want_data(tc);
	trbe_session_kick(tc);
	return mask;
}

static void trbe_status_fill(struct trbe_cpu *tc, struct ete_trbe_status *st)
{
	unsigned long flags;

	/* The kernel's own counters: the mapped page is output only */
	raw_spin_lock_irqsave(&tc->slock, flags);
	st->state = tc->state;
	st->last_error = tc->ctr.last_error;
	st->last_status = tc->ctr.last_status;
	st->data_head = tc->head;
	st->data_tail = trbe_stream_tail(tc);
	st->data_size = tc->buf->size;
	st->wrap_count = tc->ctr.wrap_count;
	st->lost_bytes = tc->ctr.lost_bytes;
	st->gap_count = tc->ctr.gap_count;
	raw_spin_unlock_irqrestore(&tc->slock, flags);
	st->present = tc->present;
	st->errata = tc->errata;
}

/* Collection ended in hardware: only a stop or the next start goes on */
static bool trbe_session_ended(const struct trbe_cpu *tc)
{
	u32 state = READ_ONCE(tc->state);

	return state == ETE_TRBE_STATE_FAULT || state == ETE_TRBE_STATE_STOPPED;
}

static long trbe_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct trbe_cpu *tc = file->private_data;
	struct ete_trbe_status st = { };
	u64 __user *up = (u64 __user *)arg;
	u64 mark;
	long ret;

	switch (cmd) {
	case ETE_TRBE_IOC_START:
		mutex_lock(&tc->lock);
		/*
		 * This file's session that the hardware ended (a fault, a
		 * trigger stop) is over: the next start clears it (uapi
		 * ete.h), stopping it first as ETE_TRBE_IOC_STOP does.
		 */
		if (tc->owner == file && trbe_session_ended(tc))
			trbe_session_stop(tc);
		ret = trbe_session_start(tc, file);
		mutex_unlock(&tc->lock);
		return ret;
	case ETE_TRBE_IOC_STOP:
		mutex_lock(&tc->lock);
		ret = tc->owner == file ? 0 : -EINVAL;
		if (!ret)
			trbe_session_stop(tc);
		mutex_unlock(&tc->lock);
		return ret;
	case ETE_TRBE_IOC_SNAPSHOT:
		mutex_lock(&tc->lock);
		ret = tc->owner == file ? trbe_session_snapshot(tc) : -EINVAL;
		mutex_unlock(&tc->lock);
		return ret;
	case ETE_TRBE_IOC_STATUS:
		trbe_status_fill(tc, &st);
		if (copy_to_user((void __user *)arg, &st, sizeof(st)))
			return -EFAULT;
		return 0;
	case ETE_TRBE_IOC_FLUSH:
		return trbe_session_flush(tc);
	case ETE_TRBE_IOC_SET_WATERMARK:
		if (get_user(mark, up))
			return -EFAULT;
		return trbe_session_set_wake_mark(tc, mark);
	case ETE_TRBE_IOC_SET_TASKS:
		return trbe_set_tasks(tc, (const void __user *)arg);
	case ETE_TRBE_IOC_GET_WATERMARK:
		mutex_lock(&tc->lock);
		mark = trbe_session_wake_mark(tc);
		mutex_unlock(&tc->lock);
		return put_user(mark, up);
	default:
		return -ENOTTY;
	}
}

static vm_fault_t trbe_vm_fault(struct vm_fault *vmf)
{
	struct trbe_cpu *tc = vmf->vma->vm_file->private_data;
	struct trbe_buf *buf = tc->buf;
	struct page *page;

	if (vmf->pgoff > buf->nr_pages)
		return VM_FAULT_SIGBUS;
	page = vmf->pgoff ? buf->pages[vmf->pgoff - 1] : buf->hdr_page;
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct trbe_vm_ops = {
	.fault = trbe_vm_fault,
};

static int trbe_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct trbe_cpu *tc = file->private_data;
	unsigned long pages = vma_pages(vma);
	unsigned long end = vma->vm_pgoff + pages;

	/* Header page plus data pages, nothing beyond (also no overflow) */
	if (end < vma->vm_pgoff || end > 1 + tc->buf->nr_pages)
		return -EINVAL;
	if (end > 1) {
		/* The mapping covers data pages: read-only, for ever. */
		if (vma->vm_flags & VM_WRITE)
			return -EACCES;
		ete_compat_vm_flags_clear(vma, VM_MAYWRITE);
	} else if (!(vma->vm_flags & VM_SHARED)) {
		/* A private writable header would hide data_tail. */
		if (vma->vm_flags & VM_WRITE)
			return -EINVAL;
		/* ... and so would mprotect() making it writable later */
		ete_compat_vm_flags_clear(vma, VM_MAYWRITE);
	}
	ete_compat_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTCOPY | VM_DONTDUMP);
	vma->vm_ops = &trbe_vm_ops;
	return 0;
}

static const struct file_operations trbe_fops = {
	.owner = THIS_MODULE,
	.open = trbe_open,
	.release = trbe_release,
	.read = trbe_read,
	.poll = trbe_poll,
	.unlocked_ioctl = trbe_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = trbe_mmap,
	.llseek = ete_compat_no_llseek,
};

static char *trbe_devnode(ete_compat_devnode_dev_t *dev, umode_t *mode)
{
	if (mode)
		*mode = 0600;
	return NULL;
}

/* The "trbe" class: one per module, shared by every TRBE node's devices */
static struct class *trbe_class;

/**
 * trbe_class_init() - create the "trbe" class
 *
 * Context: module init; sleeps.
 * Return: 0 or a negative errno.
 */
int trbe_class_init(void)
{
	trbe_class = ete_compat_class_create("trbe");
	if (IS_ERR(trbe_class))
		return PTR_ERR(trbe_class);
	trbe_class->devnode = trbe_devnode;
	trbe_class->dev_groups = trbe_dev_groups;
	return 0;
}

/**
 * trbe_class_exit() - undo trbe_class_init()
 *
 * Context: module exit; every device was destroyed.
 */
void trbe_class_exit(void)
{
	class_destroy(trbe_class);
}

/**
 * trbe_cdev_init() - register a driver instance's character devices
 * @drv: the driver instance
 *
 * A region of nr_cpu_ids minors (the minor is the CPU number), of which
 * the CPUs the instance serves get a device.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno.
 */
int trbe_cdev_init(struct trbe_drv *drv)
{
	int ret;

	ret = alloc_chrdev_region(&drv->devt, 0, nr_cpu_ids, "trbe");
	if (ret)
		return ret;
	cdev_init(&drv->cdev, &trbe_fops);
	drv->cdev.owner = THIS_MODULE;
	ret = cdev_add(&drv->cdev, drv->devt, nr_cpu_ids);
	if (ret) {
		unregister_chrdev_region(drv->devt, nr_cpu_ids);
		return ret;
	}
	drv->class = trbe_class;
	return 0;
}

/**
 * trbe_cdev_exit() - undo trbe_cdev_init()
 * @drv: the driver instance; every device was destroyed
 *
 * Context: process context; sleeps.
 */
void trbe_cdev_exit(struct trbe_drv *drv)
{
	cdev_del(&drv->cdev);
	unregister_chrdev_region(drv->devt, nr_cpu_ids);
}
