// SPDX-License-Identifier: GPL-2.0
/*
 * cpuN/stall_map, stall_bytes, stall_waits: a destination for a driver's
 * copy to user space that the trace always overtakes.
 *
 * A test maps two pages of stall_map and hands them to read() on
 * /dev/trbe<N> as the buffer.  The driver's copy writes the first page,
 * then the second; a fault on the second page waits until the unit of
 * CPU N has written stall_bytes more bytes into its TRBE (bounded, and
 * killable), so that the trace moves on while the copy is under way.
 * Every fault unmaps the other page: each copy into the two pages faults
 * on both, and each is held on the second.  A reader whose every copy is
 * overtaken, which a slow reader on silicon under the drop policy is now
 * and then (trbe/cdev.c, trbe_read()), made certain instead of likely.
 * stall_waits counts the faults that waited.
 *
 * Test-only: nothing here is reachable from ete.ko or trbe.ko.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "model.h"
#include "debugfs.h"

/* The longest a fault waits for the trace, whatever stall_bytes says */
#define EM_STALL_MAX_MS		20000

/**
 * struct em_stall_file - an open stall_map
 * @u: the unit whose trace the faults wait for
 * @pages: the two pages
 */
struct em_stall_file {
	struct em_unit *u;
	struct page *pages[2];
};

static void em_stall_wait(struct em_unit *u)
{
	unsigned long want = READ_ONCE(u->stall_bytes);
	unsigned long start = READ_ONCE(u->bytes_out);
	unsigned long end = jiffies + msecs_to_jiffies(EM_STALL_MAX_MS);

	if (!want)
		return;
	WRITE_ONCE(u->stall_waits, u->stall_waits + 1);
	while (READ_ONCE(u->bytes_out) - start < want &&
	       time_before(jiffies, end) && !fatal_signal_pending(current))
		schedule_timeout_killable(1);
}

static vm_fault_t em_stall_fault(struct vm_fault *vmf)
{
	struct file *file = vmf->vma->vm_file;
	struct em_stall_file *sf = file->private_data;
	pgoff_t other;

	if (vmf->pgoff > 1)
		return VM_FAULT_SIGBUS;
	other = !vmf->pgoff;
	unmap_mapping_range(file->f_mapping, (loff_t)other << PAGE_SHIFT,
			    PAGE_SIZE, 1);
	if (vmf->pgoff == 1)
		em_stall_wait(sf->u);
	get_page(sf->pages[vmf->pgoff]);
	vmf->page = sf->pages[vmf->pgoff];
	return 0;
}

static const struct vm_operations_struct em_stall_vm_ops = {
	.fault = em_stall_fault,
};

static int em_stall_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff + vma_pages(vma) > 2)
		return -EINVAL;
	vma->vm_ops = &em_stall_vm_ops;
	return 0;
}

static int em_stall_open(struct inode *inode, struct file *file)
{
	struct em_stall_file *sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	int i;

	if (!sf)
		return -ENOMEM;
	sf->u = inode->i_private;
	for (i = 0; i < 2; i++) {
		sf->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!sf->pages[i])
			goto err_free;
	}
	file->private_data = sf;
	return 0;

err_free:
	while (i--)
		__free_page(sf->pages[i]);
	kfree(sf);
	return -ENOMEM;
}

/* The last mapping is gone (it pins the file): the pages are ours again */
static int em_stall_release(struct inode *inode, struct file *file)
{
	struct em_stall_file *sf = file->private_data;

	__free_page(sf->pages[0]);
	__free_page(sf->pages[1]);
	kfree(sf);
	return 0;
}

static const struct file_operations em_stall_fops = {
	.owner = THIS_MODULE,
	.open = em_stall_open,
	.release = em_stall_release,
	.mmap = em_stall_mmap,
};

/**
 * em_stall_debugfs_add() - a unit's stall_map, stall_bytes, stall_waits
 * @dir: the unit's cpuN directory
 * @u: the unit
 *
 * Context: process context.
 */
void em_stall_debugfs_add(struct dentry *dir, struct em_unit *u)
{
	debugfs_create_file_unsafe("stall_map", 0600, dir, u, &em_stall_fops);
	debugfs_create_ulong("stall_bytes", 0600, dir, &u->stall_bytes);
	debugfs_create_ulong("stall_waits", 0400, dir, &u->stall_waits);
}
