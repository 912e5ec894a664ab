// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs files of the program image and the ground truth
 * (Documentation/model.rst, "Ground truth"; the e2e interface):
 *
 *   ete_model/program/layout        "<name> 0x<va> <size>" per region
 *   ete_model/program/symbols       "0x<va> <size> <name>" per function
 *   ete_model/program/<name>.bin    the region's bytes
 *   ete_model/cpuN/truth            the records of the last session
 *   ete_model/cpuN/truth_mode       "ranges" or "hash", for the next session
 */

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "model.h"
#include "debugfs.h"

static struct debugfs_blob_wrapper em_prog_blobs[EM_PROG_NR_REGIONS];

static int em_layout_show(struct seq_file *s, void *v)
{
	unsigned int i;

	for (i = 0; i < EM_PROG_NR_REGIONS; i++)
		seq_printf(s, "%s 0x%016llx %u\n", em_prog_regions[i].name,
			   em_prog_regions[i].va, EM_PROG_REGION_SIZE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_layout);

static int em_symbols_show(struct seq_file *s, void *v)
{
	unsigned int i;

	for (i = 0; i < em_prog_nr_syms; i++)
		seq_printf(s, "0x%016llx %u %s\n", em_prog_syms[i].va,
			   em_prog_syms[i].size, em_prog_syms[i].name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_symbols);

/* cpuN/truth: one record per seq_file step, copied under the unit's lock */
static void *em_truth_start(struct seq_file *s, loff_t *pos)
{
	struct em_unit *u = s->private;

	return *pos < READ_ONCE(u->gen.truth.len) + 1 ? pos : NULL;
}

static void *em_truth_next(struct seq_file *s, void *v, loff_t *pos)
{
	++*pos;
	return em_truth_start(s, pos);
}

static void em_truth_stop(struct seq_file *s, void *v)
{
}

static int em_truth_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;
	loff_t i = *(loff_t *)v;
	struct em_truth_rec r;
	unsigned long flags;
	bool valid = false;
	u32 lost;
	char line[96];

	raw_spin_lock_irqsave(&u->lock, flags);
	lost = u->gen.truth.lost;
	if (i < u->gen.truth.len) {
		r = u->gen.truth.rec[i];
		valid = true;
	}
	raw_spin_unlock_irqrestore(&u->lock, flags);
	if (valid) {
		em_truth_format(&r, line, sizeof(line));
		seq_puts(s, line);
	} else if (lost) {
		/* not a record: tells the reader the list is incomplete */
		seq_printf(s, "# %u records lost (truth_records)\n", lost);
	}
	return 0;
}

static const struct seq_operations em_truth_sops = {
	.start = em_truth_start,
	.next = em_truth_next,
	.stop = em_truth_stop,
	.show = em_truth_show,
};

static int em_truth_open(struct inode *inode, struct file *file)
{
	int ret = seq_open(file, &em_truth_sops);

	if (!ret)
		((struct seq_file *)file->private_data)->private =
			inode->i_private;
	return ret;
}

static const struct file_operations em_truth_fops = {
	.owner = THIS_MODULE,
	.open = em_truth_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static const char * const em_truth_modes[] = {
	[EM_TRUTH_RANGES] = "ranges",
	[EM_TRUTH_HASHES] = "hash",
};

static int em_truth_mode_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;

	seq_printf(s, "%s\n", em_truth_modes[READ_ONCE(u->gen.truth.next_mode)]);
	return 0;
}

static int em_truth_mode_open(struct inode *inode, struct file *file)
{
	return single_open(file, em_truth_mode_show, inode->i_private);
}

static ssize_t em_truth_mode_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct em_unit *u = ((struct seq_file *)file->private_data)->private;
	unsigned long flags;
	char buf[16];
	int mode;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	mode = sysfs_match_string(em_truth_modes, buf);
	if (mode < 0)
		return mode;
	raw_spin_lock_irqsave(&u->lock, flags);
	u->gen.truth.next_mode = mode;
	raw_spin_unlock_irqrestore(&u->lock, flags);
	return len;
}

static const struct file_operations em_truth_mode_fops = {
	.owner = THIS_MODULE,
	.open = em_truth_mode_open,
	.read = seq_read,
	.write = em_truth_mode_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * em_progfs_init() - create program/ under the model's debugfs directory
 * @root: /sys/kernel/debug/ete_model
 *
 * Context: process context.
 */
void em_progfs_init(struct dentry *root)
{
	struct dentry *d = debugfs_create_dir("program", root);
	char name[32];
	unsigned int i;

	debugfs_create_file("layout", 0444, d, NULL, &em_layout_fops);
	debugfs_create_file("symbols", 0444, d, NULL, &em_symbols_fops);
	for (i = 0; i < EM_PROG_NR_REGIONS; i++) {
		em_prog_blobs[i].data = (void *)em_prog_regions[i].words;
		em_prog_blobs[i].size = EM_PROG_REGION_SIZE;
		snprintf(name, sizeof(name), "%s.bin", em_prog_regions[i].name);
		debugfs_create_blob(name, 0444, d, &em_prog_blobs[i]);
	}
}

/**
 * em_progfs_unit() - create a unit's truth and truth_mode files
 * @u: the unit
 * @dir: its cpuN directory
 *
 * Context: process context.
 */
void em_progfs_unit(struct em_unit *u, struct dentry *dir)
{
	if (!u->gen.truth.rec)
		return;
	debugfs_create_file("truth", 0444, dir, u, &em_truth_fops);
	debugfs_create_file("truth_mode", 0644, dir, u, &em_truth_mode_fops);
}
