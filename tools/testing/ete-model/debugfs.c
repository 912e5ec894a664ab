// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ete_model/: the profile, a self-capture, and per CPU
 * the violation log, fault injection, transition delay, trace rate, replay,
 * power-down trigger, trigger, state and statistics (and stall.c's
 * stall_map).
 */

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <ete/compat.h>

#include "model.h"
#include "debugfs.h"

static struct dentry *em_dir;
static struct ete_model *em_dbg_model;
static DEFINE_MUTEX(em_capture_lock);
static struct em_capture em_cap;

static struct em_unit *em_file_unit(struct file *f)
{
	return file_inode(f)->i_private;
}

/* ------------------------------------------------------------------ */
/* violations: one line per violation, with its rule tag              */
/* ------------------------------------------------------------------ */

/**
 * em_debugfs_show_reg() - print a register's name (with its index)
 * @s: the file
 * @reg: register id
 *
 * Context: process context.
 */
void em_debugfs_show_reg(struct seq_file *s, u32 reg)
{
	const struct ete_reg_desc *d;
	unsigned int idx;

	d = em_reg_find(reg, &idx);
	if (!d)
		seq_printf(s, "%#x", reg);
	else if (d->count > 1)
		seq_printf(s, "%s%u", d->name, idx);
	else
		seq_puts(s, d->name);
}

static int em_violations_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;
	struct em_log_entry log[EM_LOG_SIZE];
	unsigned int n, first, i;
	unsigned long flags;

	raw_spin_lock_irqsave(&u->lock, flags);
	memcpy(log, u->log, sizeof(log));
	n = u->log_next;
	raw_spin_unlock_irqrestore(&u->lock, flags);

	first = n > EM_LOG_SIZE ? n - EM_LOG_SIZE : 0;
	if (first)
		seq_printf(s, "LOST %u older violations\n", first);
	for (i = first; i < n; i++) {
		const struct em_log_entry *e = &log[i % EM_LOG_SIZE];

		seq_printf(s, "%s %s ", em_check_name(e->check),
			   e->write ? "write" : "read");
		em_debugfs_show_reg(s, e->reg);
		seq_printf(s, " %#llx state=%s\n", e->val,
			   em_state_name(e->state));
	}
	return 0;
}

static int em_violations_open(struct inode *inode, struct file *f)
{
	return single_open(f, em_violations_show, inode->i_private);
}

static ssize_t em_violations_write(struct file *f, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct em_unit *u = em_file_unit(f);

	ete_model_clear_violations(u->model, u->cpu);
	return count;
}

static const struct file_operations em_violations_fops = {
	.owner = THIS_MODULE,
	.open = em_violations_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = em_violations_write,
};

/* ------------------------------------------------------------------ */
/* fault: none, abort, stuck, slow_drain                              */
/* ------------------------------------------------------------------ */

static const char *const em_fault_names[] = {
	[EM_FAULT_NONE] = "none",
	[EM_FAULT_ABORT] = "abort",
	[EM_FAULT_STUCK] = "stuck",
	[EM_FAULT_SLOW_DRAIN] = "slow_drain",
};

static int em_fault_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;

	seq_printf(s, "%s\n", em_fault_names[READ_ONCE(u->fault)]);
	return 0;
}

static int em_fault_open(struct inode *inode, struct file *f)
{
	return single_open(f, em_fault_show, inode->i_private);
}

static ssize_t em_fault_write(struct file *f, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct em_unit *u = em_file_unit(f);
	char buf[16];
	int i;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	i = sysfs_match_string(em_fault_names, buf);
	if (i < 0)
		return i;
	ete_model_set_fault(u->model, u->cpu, i);
	return count;
}

static const struct file_operations em_fault_fops = {
	.owner = THIS_MODULE,
	.open = em_fault_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = em_fault_write,
};

/* ------------------------------------------------------------------ */
/* claim: the claim tags; an external debugger's claim written        */
/* ------------------------------------------------------------------ */

static const char *const em_claim_names[] = { "0", "1", "race" };

static int em_claim_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;

	seq_printf(s, "%#llx\n", ete_model_claim(u->model, u->cpu));
	return 0;
}

static int em_claim_open(struct inode *inode, struct file *f)
{
	return single_open(f, em_claim_show, inode->i_private);
}

/* "0": the debugger releases, "1": claims, "race": claims with the PE */
static ssize_t em_claim_write(struct file *f, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct em_unit *u = em_file_unit(f);
	char buf[16];
	int i;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	i = sysfs_match_string(em_claim_names, buf);
	if (i < 0)
		return i;
	ete_model_external_claim(u->model, u->cpu, i);
	return count;
}

static const struct file_operations em_claim_fops = {
	.owner = THIS_MODULE,
	.open = em_claim_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = em_claim_write,
};

/* ------------------------------------------------------------------ */
/* delay, rate, powerdown, trigger: one number each                   */
/* ------------------------------------------------------------------ */

static int em_delay_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = (s64)READ_ONCE(u->delay);
	return 0;
}

static int em_delay_set(void *data, u64 val)
{
	struct em_unit *u = data;
	s64 v = (s64)val;

	if (v < EM_DELAY_NEVER || v > 1000000)
		return -ERANGE;
	ete_model_set_delay(u->model, u->cpu, v);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(em_delay_fops, em_delay_get, em_delay_set,
				"%lld\n");

static int em_rate_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->rate);
	return 0;
}

static int em_rate_set(void *data, u64 val)
{
	struct em_unit *u = data;

	if (val > SZ_1M)
		return -ERANGE;
	ete_model_set_rate(u->model, u->cpu, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_rate_fops, em_rate_get, em_rate_set, "%llu\n");

/*
 * cycles: PE cycles per tick, traced or not (sampled trace: the data rate
 * follows ViewInst's windows); 0: a tick makes @rate bytes
 */
static int em_cycles_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->cycles_tick);
	return 0;
}

static int em_cycles_set(void *data, u64 val)
{
	struct em_unit *u = data;

	if (val > SZ_1M)
		return -ERANGE;
	WRITE_ONCE(u->cycles_tick, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_cycles_fops, em_cycles_get, em_cycles_set,
			 "%llu\n");

/* access_ns: reading it times accesses on the unit's CPU (make bench) */
static int em_access_ns_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = ete_model_access_ns(u->model, u->cpu);
	return *val ? 0 : -ENODEV;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_access_ns_fops, em_access_ns_get, NULL, "%llu\n");

static int em_context_id_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->context_id);
	return 0;
}

/* The context ID the program runs with from the next session: a PID */
static int em_context_id_set(void *data, u64 val)
{
	struct em_unit *u = data;

	if (val > U32_MAX)
		return -ERANGE;
	WRITE_ONCE(u->context_id, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_context_id_fops, em_context_id_get,
			 em_context_id_set, "%llu\n");

/*
 * cid_ticks: "0xCID TICKS" per context ID that ticks generating trace
 * interrupted, then "lost N"; writing 1 empties it and starts counting,
 * 0 stops.  The context ID is CONTEXTIDR's at the tick, and while it
 * tracks, the trace carries that ID as well (TRCCONFIGR.CID): not the
 * unit's context_id.
 */
static int em_cid_ticks_show(struct seq_file *s, void *unused)
{
	struct em_unit *u = s->private;
	unsigned int i;

	raw_spin_lock_irq(&u->lock);
	for (i = 0; i < u->cid_n; i++)
		seq_printf(s, "0x%x %lu\n", u->cid[i].cid, u->cid[i].ticks);
	seq_printf(s, "lost %lu\n", u->cid_lost);
	raw_spin_unlock_irq(&u->lock);
	return 0;
}

static int em_cid_ticks_open(struct inode *inode, struct file *file)
{
	return single_open(file, em_cid_ticks_show, inode->i_private);
}

static ssize_t em_cid_ticks_write(struct file *file, const char __user *buf,
				  size_t len, loff_t *ppos)
{
	struct em_unit *u = file_inode(file)->i_private;
	bool on;
	int ret;

	ret = kstrtobool_from_user(buf, len, &on);
	if (ret)
		return ret;
	raw_spin_lock_irq(&u->lock);
	u->cid_track = on;
	if (on) {
		u->cid_n = 0;
		u->cid_lost = 0;
	}
	raw_spin_unlock_irq(&u->lock);
	return len;
}

static const struct file_operations em_cid_ticks_fops = {
	.owner = THIS_MODULE,
	.open = em_cid_ticks_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = em_cid_ticks_write,
};

static int em_powerdown_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->pd_armed);
	return 0;
}

/* 1: lose state at the next CPU PM exit of this CPU; 2: now */
static int em_powerdown_set(void *data, u64 val)
{
	struct em_unit *u = data;

	switch (val) {
	case 0:
	case 1:
		WRITE_ONCE(u->pd_armed, val);
		return 0;
	case 2:
		ete_model_power_down(u->model, u->cpu);
		return 0;
	default:
		return -EINVAL;
	}
}
DEFINE_DEBUGFS_ATTRIBUTE(em_powerdown_fops, em_powerdown_get,
			 em_powerdown_set, "%llu\n");

static int em_irq_hold_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->irq_hold);
	return 0;
}

/*
 * 1: a TRBE event sets TRBSR_EL1.IRQ but the PPI is not raised (an event
 * the driver meets before its interrupt handler does); 0: raise it now if
 * TRBSR_EL1.IRQ is set, and from then on.
 */
static int em_irq_hold_set(void *data, u64 val)
{
	struct em_unit *u = data;

	if (val > 1)
		return -EINVAL;
	WRITE_ONCE(u->irq_hold, val);
	if (!val)
		ete_model_irq_release(u->model, u->cpu);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_irq_hold_fops, em_irq_hold_get, em_irq_hold_set,
			 "%llu\n");

static int em_flush_to_limit_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->flush_to_limit);
	return 0;
}

/*
 * 1: the next TSB CSYNC that finds the TRBE collecting brings it to its
 * limit with the replay's next bytes (em_gen_flush_to_limit()): the drain
 * itself raises the limit's event; 0: not (it clears itself once used).
 */
static int em_flush_to_limit_set(void *data, u64 val)
{
	struct em_unit *u = data;
	unsigned long flags;

	if (val > 1)
		return -EINVAL;
	raw_spin_lock_irqsave(&u->lock, flags);
	u->flush_to_limit = val;
	raw_spin_unlock_irqrestore(&u->lock, flags);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_flush_to_limit_fops, em_flush_to_limit_get,
			 em_flush_to_limit_set, "%llu\n");

/* "<bit> <name>" per check: the bits of the disable_checks parameter */
static int em_checks_show(struct seq_file *s, void *v)
{
	unsigned int c;

	for (c = 0; c < EM_NR_CHECKS; c++)
		seq_printf(s, "%u %s\n", c, em_check_name(c));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_checks);

static int em_left_enabled_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = !!(READ_ONCE(u->trblimitr) & EM_TRBLIMITR_E);
	return 0;
}

/*
 * 1: the TRBE as a previous kernel left it (kexec, a crash kernel): enabled
 * on a page of its own, with writes a DSB has not completed.  A driver that
 * takes it over must drain it before disabling it (TRBE_UNFLUSHED).  -EBUSY
 * if the TRBE is enabled already (a driver owns it).
 */
static int em_left_enabled_set(void *data, u64 val)
{
	struct em_unit *u = data;
	void *page, *old = NULL;
	unsigned long flags;
	int ret = 0;

	if (val != 1)
		return -EINVAL;
	page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	raw_spin_lock_irqsave(&u->lock, flags);
	if (u->trblimitr & EM_TRBLIMITR_E) {
		ret = -EBUSY;
		old = page;
	} else {
		old = u->left_page;
		u->left_page = page;
		u->trbbaser = (u64)(uintptr_t)page;
		u->trbptr = u->trbbaser;
		u->trbsr = 0;
		u->trblimitr = (u->trbbaser + PAGE_SIZE) |
			       FIELD_PREP(EM_TRBLIMITR_FM, EM_FM_FILL) |
			       FIELD_PREP(EM_TRBLIMITR_TM, EM_TM_IGNORE) |
			       EM_TRBLIMITR_E;
		u->align_len = 0;
		u->mem_pending = true;
		u->trbe_unsync = false;
	}
	raw_spin_unlock_irqrestore(&u->lock, flags);
	free_page((unsigned long)old);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_left_enabled_fops, em_left_enabled_get,
			 em_left_enabled_set, "%llu\n");

static int em_stray_irq_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = !!(READ_ONCE(u->trbsr) & EM_TRBSR_IRQ);
	return 0;
}

/*
 * 1: TRBSR_EL1.IRQ set with the TRBE not enabled, and the PPI asserted: an
 * interrupt no session armed for (as when the registers are UNKNOWN after
 * a power-up the driver has not restored yet, or a save left an event
 * pending).  The line is level-sensitive: each tick pends it again while
 * the bit is set (irq_relatch), and counts a tick that finds it taken and
 * left set (irq_left_set).  0: clear the bit.  -EBUSY while the TRBE is
 * enabled.
 */
static int em_stray_irq_set(void *data, u64 val)
{
	struct em_unit *u = data;
	unsigned long flags;
	int ret = 0;

	if (val > 1)
		return -EINVAL;
	raw_spin_lock_irqsave(&u->lock, flags);
	if (!val) {
		u->trbsr &= ~EM_TRBSR_IRQ;
	} else if (u->trblimitr & EM_TRBLIMITR_E) {
		ret = -EBUSY;
	} else {
		u->trbsr |= EM_TRBSR_IRQ;
		u->irq_req = true;
	}
	raw_spin_unlock_irqrestore(&u->lock, flags);
	if (!ret)
		em_unit_kick(u);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_stray_irq_fops, em_stray_irq_get,
			 em_stray_irq_set, "%llu\n");

static int em_replay_mode_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->gen.replay_loop) |
	       READ_ONCE(u->gen.replay_lossy) << 1;
	return 0;
}

/*
 * Bit 0: the replay starts again at its end (a stream at a set rate for
 * as long as a benchmark runs); bit 1: bytes the FIFO cannot take when
 * the sink falls behind are lost (counted in bytes_dropped), as when a PE
 * runs on and its trace unit overflows, instead of waiting for the sink.
 */
static int em_replay_mode_set(void *data, u64 val)
{
	struct em_unit *u = data;
	unsigned long flags;

	if (val > 3)
		return -EINVAL;
	raw_spin_lock_irqsave(&u->lock, flags);
	u->gen.replay_loop = val & 1;
	u->gen.replay_lossy = val & 2;
	raw_spin_unlock_irqrestore(&u->lock, flags);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_replay_mode_fops, em_replay_mode_get,
			 em_replay_mode_set, "%llu\n");

static int em_settle_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->settle_fast);
	return 0;
}

/*
 * 1: a status read that finds the unit Unstable and ready to move takes
 * it through Stable to Idle at once, as silicon may between two polls;
 * 0: one state per read.
 */
static int em_settle_set(void *data, u64 val)
{
	struct em_unit *u = data;

	if (val > 1)
		return -EINVAL;
	WRITE_ONCE(u->settle_fast, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_settle_fops, em_settle_get, em_settle_set,
			 "%llu\n");

static int em_oslock_get(void *data, u64 *val)
{
	struct em_unit *u = data;

	*val = READ_ONCE(u->oslk);
	return 0;
}

/* 1 or 0: the PE OS Lock set or cleared by another agent (OSLAR_EL1, ISB) */
static int em_oslock_set(void *data, u64 val)
{
	struct em_unit *u = data;

	if (val > 1)
		return -EINVAL;
	ete_model_set_os_lock(u->model, u->cpu, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_oslock_fops, em_oslock_get, em_oslock_set,
			 "%llu\n");

static int em_trigger_set(void *data, u64 val)
{
	struct em_unit *u = data;

	if (val != 1)
		return -EINVAL;
	ete_model_trigger(u->model, u->cpu);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(em_trigger_fops, NULL, em_trigger_set, "%llu\n");

/* ------------------------------------------------------------------ */
/* state, stats                                                       */
/* ------------------------------------------------------------------ */

static int em_state_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;

	seq_printf(s, "%s\n", em_state_name(READ_ONCE(u->state)));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_state);

static int em_stats_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;

	seq_printf(s, "reads %lu\nwrites %lu\nsaves %lu\nrestores %lu\n",
		   READ_ONCE(u->reads), READ_ONCE(u->writes),
		   READ_ONCE(u->saves), READ_ONCE(u->restores));
	seq_printf(s, "powerdowns %lu\nirqs %lu\nbytes_out %lu\nbytes_dropped %lu\n",
		   READ_ONCE(u->powerdowns), READ_ONCE(u->irqs),
		   READ_ONCE(u->bytes_out), READ_ONCE(u->bytes_dropped));
	seq_printf(s, "status_reads %lu\n", READ_ONCE(u->status_reads));
	/* ViewInst's windows this session, in the PE's cycles (sampling) */
	seq_printf(s, "vi_cycles %llu\nvi_traced %llu\nvi_windows %llu\n",
		   READ_ONCE(u->gen.vi.cycles), READ_ONCE(u->gen.vi.traced),
		   READ_ONCE(u->gen.vi.windows));
	seq_printf(s, "vi_window_min %llu\nvi_window_max %llu\n",
		   READ_ONCE(u->gen.vi.win_min), READ_ONCE(u->gen.vi.win_max));
	seq_printf(s, "vi_gap_min %llu\nvi_gap_max %llu\n",
		   READ_ONCE(u->gen.vi.gap_min), READ_ONCE(u->gen.vi.gap_max));
	seq_printf(s, "isb %lu\ndsb %lu\ntsb %lu\n",
		   READ_ONCE(u->barriers[ETE_SYNC_ISB]),
		   READ_ONCE(u->barriers[ETE_SYNC_DSB]),
		   READ_ONCE(u->barriers[ETE_SYNC_TSB]));
	/* the last CPU PM save and restore ete_pm_test.ko drove */
	seq_printf(s, "last_save %lu\nlast_save_polls %lu\n",
		   READ_ONCE(u->last_save[0]), READ_ONCE(u->last_save[1]));
	seq_printf(s, "last_restore %lu\nlast_restore_polls %lu\n",
		   READ_ONCE(u->last_restore[0]),
		   READ_ONCE(u->last_restore[1]));
	seq_printf(s, "kernel_oslk_clears %lu\n",
		   READ_ONCE(u->kernel_oslk_clears));
	/* external-view accesses from a CPU other than the owner */
	seq_printf(s, "mmio_remote %lu\n", READ_ONCE(u->mmio_remote));
	seq_printf(s, "starts %lu\nstarts_untraced %lu\nsyncs %lu\nreplayed %zu\n",
		   READ_ONCE(u->starts), READ_ONCE(u->starts_untraced),
		   READ_ONCE(u->syncs), READ_ONCE(u->gen.replay_pos));
	seq_printf(s, "replay_offered %llu\ntick_ns %llu\n",
		   READ_ONCE(u->gen.replay_offered), READ_ONCE(u->tick_ns));
	/* fill events where the unit did an erratum's stray writes */
	seq_printf(s, "quirk_fills %lu\n", READ_ONCE(u->quirk_fills));
	/* the PPI as a level-sensitive line (model.h, em_timer_fn()) */
	seq_printf(s, "irq_relatch %lu\nirq_left_set %lu\n",
		   READ_ONCE(u->irq_relatch), READ_ONCE(u->irq_left_set));
	seq_printf(s, "trbsr %llu\n", READ_ONCE(u->trbsr));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_stats);

/* Accesses per register since load: "OFFSET reads N writes N" */
static int em_reg_accesses_show(struct seq_file *s, void *v)
{
	struct em_unit *u = s->private;
	unsigned int i;

	for (i = 0; i < EM_NR_REG_SLOTS; i++) {
		u32 r = READ_ONCE(u->reg_reads[i]), w = READ_ONCE(u->reg_writes[i]);

		if (r || w)
			seq_printf(s, "0x%04x reads %u writes %u\n", i * 4, r, w);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_reg_accesses);

/* ------------------------------------------------------------------ */
/* replay: the bytes written between open and close, emitted as trace */
/* ------------------------------------------------------------------ */

struct em_replay_buf {
	u8 *data;
	size_t len;
};

static int em_replay_open(struct inode *inode, struct file *f)
{
	struct em_replay_buf *rb = kzalloc(sizeof(*rb), GFP_KERNEL);

	if (!rb)
		return -ENOMEM;
	f->private_data = rb;
	return nonseekable_open(inode, f);
}

static ssize_t em_replay_write(struct file *f, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct em_replay_buf *rb = f->private_data;
	u8 *data;

	if (rb->len + count > SZ_4M)
		return -EFBIG;
	data = krealloc(rb->data, rb->len + count, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	rb->data = data;
	if (copy_from_user(rb->data + rb->len, ubuf, count))
		return -EFAULT;
	rb->len += count;
	return count;
}

static int em_replay_release(struct inode *inode, struct file *f)
{
	struct em_replay_buf *rb = f->private_data;
	struct em_unit *u = inode->i_private;
	int ret = 0;

	if (f->f_mode & FMODE_WRITE)
		ret = ete_model_replay(u->model, u->cpu, rb->data, rb->len);
	kfree(rb->data);
	kfree(rb);
	return ret;
}

static const struct file_operations em_replay_fops = {
	.owner = THIS_MODULE,
	.open = em_replay_open,
	.write = em_replay_write,
	.release = em_replay_release,
	.llseek = ete_compat_no_llseek,
};

/* ------------------------------------------------------------------ */
/* capture: write a size in bytes to run one; read the bytes back     */
/* ------------------------------------------------------------------ */

static ssize_t em_capture_read(struct file *f, char __user *buf,
			       size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&em_capture_lock);
	ret = simple_read_from_buffer(buf, count, ppos, em_cap.data,
				      em_cap.len);
	mutex_unlock(&em_capture_lock);
	return ret;
}

static ssize_t em_capture_write(struct file *f, const char __user *buf,
				size_t count, loff_t *ppos)
{
	unsigned long size;
	int ret;

	ret = kstrtoul_from_user(buf, count, 0, &size);
	if (ret)
		return ret;
	mutex_lock(&em_capture_lock);
	em_capture_free(&em_cap);
	ret = em_capture_run(em_dbg_model->prof->name, size, &em_cap);
	mutex_unlock(&em_capture_lock);
	if (!ret && em_cap.violations) {
		pr_err("ete_model: the self-capture caused %u violations\n",
		       em_cap.violations);
		ret = -EPROTO;
	}
	return ret ? ret : count;
}

static const struct file_operations em_capture_fops = {
	.owner = THIS_MODULE,
	.read = em_capture_read,
	.write = em_capture_write,
	.llseek = default_llseek,
};

/* The OpenCSD snapshot device file of the capture's trace unit */
static int em_capture_ini_show(struct seq_file *s, void *v)
{
	static const char *const names[] = {
		"TRCIDR0", "TRCIDR1", "TRCIDR2", "TRCIDR3", "TRCIDR4",
		"TRCIDR5", "TRCIDR8", "TRCIDR9", "TRCIDR10", "TRCIDR11",
		"TRCIDR12", "TRCIDR13", "TRCCONFIGR", "TRCTRACEIDR",
		"TRCDEVARCH", "TRCSYNCPR", "TRCVICTLR",
	};
	unsigned int i;

	mutex_lock(&em_capture_lock);
	seq_puts(s, "[device]\nname=ETE_0\nclass=trace_source\ntype=ETE\n\n[regs]\n");
	for (i = 0; i < ARRAY_SIZE(names); i++)
		seq_printf(s, "%s=%#llx\n", names[i], em_cap.regs[i]);
	mutex_unlock(&em_capture_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_capture_ini);

static int em_profile_show(struct seq_file *s, void *v)
{
	seq_printf(s, "%s\n", em_dbg_model->prof->name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(em_profile);

/**
 * em_debugfs_init() - create /sys/kernel/debug/ete_model/
 * @m: the instance the files act on
 *
 * Context: process context.
 */
void em_debugfs_init(struct ete_model *m)
{
	char name[16];
	int cpu;

	em_dbg_model = m;
	em_dir = debugfs_create_dir("ete_model", NULL);
	debugfs_create_file("profile", 0444, em_dir, NULL, &em_profile_fops);
	debugfs_create_file("checks", 0444, em_dir, NULL, &em_checks_fops);
	debugfs_create_file("capture", 0600, em_dir, NULL, &em_capture_fops);
	debugfs_create_file("capture.ini", 0444, em_dir, NULL,
			    &em_capture_ini_fops);
	em_progfs_init(em_dir);
	for_each_possible_cpu(cpu) {
		struct em_unit *u = m->units[cpu];
		struct dentry *d;

		snprintf(name, sizeof(name), "cpu%d", cpu);
		d = debugfs_create_dir(name, em_dir);
		debugfs_create_file("violations", 0600, d, u,
				    &em_violations_fops);
		debugfs_create_file("fault", 0600, d, u, &em_fault_fops);
		debugfs_create_file("claim", 0600, d, u, &em_claim_fops);
		debugfs_create_file_unsafe("delay", 0600, d, u,
					   &em_delay_fops);
		debugfs_create_file_unsafe("rate", 0600, d, u, &em_rate_fops);
		debugfs_create_file_unsafe("cycles", 0600, d, u,
					   &em_cycles_fops);
		debugfs_create_file_unsafe("access_ns", 0400, d, u,
					   &em_access_ns_fops);
		debugfs_create_file_unsafe("context_id", 0600, d, u,
					   &em_context_id_fops);
		debugfs_create_file("cid_ticks", 0600, d, u,
				    &em_cid_ticks_fops);
		debugfs_create_file_unsafe("powerdown", 0600, d, u,
					   &em_powerdown_fops);
		debugfs_create_file_unsafe("trigger", 0200, d, u,
					   &em_trigger_fops);
		debugfs_create_file_unsafe("irq_hold", 0600, d, u,
					   &em_irq_hold_fops);
		debugfs_create_file_unsafe("flush_to_limit", 0600, d, u,
					   &em_flush_to_limit_fops);
		debugfs_create_file_unsafe("left_enabled", 0600, d, u,
					   &em_left_enabled_fops);
		debugfs_create_file_unsafe("stray_irq", 0600, d, u,
					   &em_stray_irq_fops);
		debugfs_create_file_unsafe("replay_mode", 0600, d, u,
					   &em_replay_mode_fops);
		debugfs_create_file_unsafe("settle", 0600, d, u,
					   &em_settle_fops);
		debugfs_create_file_unsafe("oslock", 0600, d, u,
					   &em_oslock_fops);
		debugfs_create_file("replay", 0200, d, u, &em_replay_fops);
		debugfs_create_file("state", 0444, d, u, &em_state_fops);
		debugfs_create_file("stats", 0444, d, u, &em_stats_fops);
		debugfs_create_file("reg_accesses", 0444, d, u,
				    &em_reg_accesses_fops);
		em_pm_debugfs_add(d, u);
		em_stall_debugfs_add(d, u);
		em_progfs_unit(u, d);
	}
}

/**
 * em_debugfs_exit() - remove /sys/kernel/debug/ete_model/
 *
 * Context: process context.
 */
void em_debugfs_exit(void)
{
	debugfs_remove_recursive(em_dir);
	mutex_lock(&em_capture_lock);
	em_capture_free(&em_cap);
	mutex_unlock(&em_capture_lock);
}
