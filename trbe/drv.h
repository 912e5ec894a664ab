/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trbe.ko internals shared by its files: the per-CPU state, the buffer and
 * the driver instance.
 *
 * Locking:
 *  - trbe_cpu.lock (mutex) serialises open/release, configuration, buffer
 *    allocation and freeing, and session start/stop.
 *  - trbe_cpu.slock (raw spinlock, IRQ-safe) protects the stream state:
 *    head, lost_tail, state, the armed window, the header page's kernel
 *    fields.  The interrupt handler takes it on its CPU.
 *  - The buffer belongs to the open file; a mapping pins the file, so the
 *    buffer outlives every mapping and is freed at release.
 */
#ifndef _TRBE_DRV_H
#define _TRBE_DRV_H

#include <linux/cdev.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sched/clock.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct dentry;

#include <ete/access.h>
#include <ete/trbe.h>
#include <linux/ete.h>

struct device;
struct ete_session;
struct ete_task_set;
struct file;
struct platform_device;
struct trbe_drv;

/* Buffer size bounds (bytes); see Documentation/abi-trbe.rst */
#define TRBE_BUF_MIN		(2 * PAGE_SIZE)
#define TRBE_BUF_MAX		SZ_256M
#define TRBE_BUF_DEFAULT	SZ_1M

/*
 * Jiffies between looks at data_tail while fill mode waits for the reader:
 * TRBE_REARM_DELAY after each try, doubled while the reader does not move,
 * up to TRBE_REARM_MAX (an mmap reader writes data_tail and makes no call
 * that could kick the re-arm; read() and poll() kick it at once).
 */
#define TRBE_REARM_DELAY	1
#define TRBE_REARM_MAX		msecs_to_jiffies(100)

/**
 * enum trbe_policy - what fill mode does when the reader is behind
 * @TRBE_POLICY_STOP: leave the TRBE stopped until there is room; a gap of
 *	unknown size is recorded where it resumes
 * @TRBE_POLICY_DROP: overwrite the oldest unconsumed data, counted exactly
 */
enum trbe_policy {
	TRBE_POLICY_STOP,
	TRBE_POLICY_DROP,
};

/**
 * struct trbe_cfg - what the user chose for one CPU (sysfs)
 * @size: buffer size in bytes
 * @wmark: streaming chunk in bytes, 0 for half the buffer
 * @fm: fill mode
 * @tm: trigger mode
 * @trig_count: TRBTRG value
 * @policy: fill mode with the reader behind
 */
struct trbe_cfg {
	u64 size;
	u64 wmark;
	enum trbe_fill_mode fm;
	enum trbe_trig_mode tm;
	u32 trig_count;
	enum trbe_policy policy;
};

/**
 * struct trbe_mlock - the locked memory a buffer is charged for
 * @mm: the address space of the process that opened the buffer (an
 *	mmgrab() reference), or NULL when nothing is charged
 * @pages: pages added to @mm's locked_vm
 */
struct trbe_mlock {
	struct mm_struct *mm;
	unsigned long pages;
};

/**
 * struct trbe_buf - one CPU's trace buffer and header page
 * @hdr: the header page (kernel view)
 * @hdr_page: its page
 * @pages: the data pages, allocated on the CPU's node
 * @nr_pages: number of data pages
 * @vaddr: the data pages vmap()ed: the TRBE writes at these addresses
 * @size: bytes of data
 * @mlock: what the opener is charged for the data pages
 * @reader_sees_kernel: the opener had CAP_PERFMON or CAP_SYS_ADMIN at
 *	open(): a session may trace the kernel into this buffer
 *	(&ete_sink_ops.reader_sees_kernel)
 */
struct trbe_buf {
	struct ete_trbe_mmap_page *hdr;
	struct page *hdr_page;
	struct page **pages;
	unsigned int nr_pages;
	void *vaddr;
	u64 size;
	struct trbe_mlock mlock;
	bool reader_sees_kernel;
};

/**
 * struct trbe_pm_state - a TRBE saved across power-down
 * @saved: the registers below are valid
 * @armed: the TRBE was enabled (else only the stream state is kept)
 * @irq_masked: the save left an event pending (TRBSR_EL1.IRQ) and masked
 *	the PPI; the restore unmasks it
 * @limitr: TRBLIMITR_EL1, with E as it was
 * @ptr: TRBPTR_EL1 after the drain
 * @baser: TRBBASER_EL1
 * @sr: TRBSR_EL1 (WRAP cleared once that wrap was published)
 * @trg: TRBTRG_EL1, the trigger count still to go
 */
struct trbe_pm_state {
	bool saved;
	bool armed;
	bool irq_masked;
	u64 limitr;
	u64 ptr;
	u64 baser;
	u64 sr;
	u64 trg;
};

/**
 * struct trbe_counters - the header page's counters, as the kernel keeps them
 * @last_error: 0 or the negative errno of the last fault
 * @last_status: TRBSR of the last fault
 * @wrap_count: wraps of the TRBE pointer
 * @lost_bytes: bytes the drop policy discarded
 * @gap_count: gap records written
 * @trigger_offset: stream offset of the trigger, or ETE_TRBE_LOST_UNKNOWN
 *
 * User space can write its mapping of the header page: the kernel never
 * reads these back from there (STATUS reports these copies), it only
 * writes them out (trbe_stream_*() in buffer.c).
 */
struct trbe_counters {
	s32 last_error;
	u64 last_status;
	u64 wrap_count;
	u64 lost_bytes;
	u64 gap_count;
	u64 trigger_offset;
};

/**
 * struct trbe_stats - what a CPU's data path did since the driver loaded
 * @interrupts: TRBE interrupts handled
 * @flushes: flushes of an armed fill-mode TRBE (the flush timer's runs
 *	and ETE_TRBE_IOC_FLUSH)
 * @arms: times the TRBE was programmed and enabled; each moves
 *	TRBLIMITR_EL1 (fill mode: a new window)
 * @padding_bytes: IGNORE bytes written into the stream (alignment of a
 *	new window's start, and errata fix-ups)
 * @wakeups: runs of the readers' wake-up (&trbe_cpu.wake)
 * @cpu_ns: time the data path spent on the traced CPU: the TRBE interrupt,
 *	the flush timer and the calls the session makes to the CPU (flush,
 *	re-arm, flush kick), by local_clock()
 *
 * The sysfs stats/ directory of /sys/class/trbe/trbe<N> shows them; make
 * bench divides them by the bytes published.  All but @wakeups change
 * under &trbe_cpu.slock; @wakeups only in the CPU's irq_work, which does
 * not run concurrently with itself; @cpu_ns only in hard-IRQ context on the
 * owning CPU (trbe_busy_end()), where those do not nest.  Readers use
 * READ_ONCE().
 */
struct trbe_stats {
	u64 interrupts;
	u64 flushes;
	u64 arms;
	u64 padding_bytes;
	u64 wakeups;
	u64 cpu_ns;
};

/* One writer at a time (see &struct trbe_stats); sysfs reads locklessly */
static inline void trbe_stat_add(u64 *field, u64 n)
{
	WRITE_ONCE(*field, *field + n);
}

/* The data path's time on the traced CPU: local_clock() at the start... */
static inline u64 trbe_busy_begin(void)
{
	return local_clock();
}

/* ...and at the end, in hard-IRQ context on the traced CPU (cpu_ns) */
static inline void trbe_busy_end(struct trbe_stats *stats, u64 t0)
{
	trbe_stat_add(&stats->cpu_ns, local_clock() - t0);
}

/**
 * struct trbe_cpu - a CPU's TRBE, buffer and device
 * @cpu: the CPU
 * @drv: the driver instance
 * @dev: the /dev/trbe<N> device
 * @lock: see the top of this file
 * @open: a file has the device open
 * @owner: the file that started the session, if any
 * @tasks: the task set of the sessions the open file starts (its
 *	ETE_TRBE_IOC_SET_TASKS), or NULL; dropped at the last close
 * @cfg: the user's configuration
 * @present: the CPU has a usable TRBE (probed through @acc)
 * @acc: register access handle (valid while @present)
 * @id: decoded TRBIDR
 * @errata: applied errata, bitmap of &enum trbe_erratum
 * @slock: see the top of this file
 * @buf: the buffer, while the device is open
 * @closing: the last close is freeing @buf: no session may start into it
 * @geom: the buffer geometry for the arithmetic
 * @state: an &enum ete_trbe_state
 * @head: stream position one past the last published byte
 * @lost_tail: stream position below which data is gone
 * @ctr: the counters user space sees in the header page
 * @win: the window the TRBE is armed with (fill mode)
 * @armed: the TRBE is enabled
 * @trfcr_held: trace is kept prohibited on this PE while the TRBE does not
 *	collect in a session (I.12(2)); @trfcr is written back when it does
 * @trfcr: the session's TRFCR value, while @trfcr_held
 * @trg_fresh: the next arm loads TRBTRG (the first of a session)
 * @trg_hit: the trigger event happened in this session
 * @gap_pending: the next arm records a gap of this reason (0: none)
 * @gap_last: stream offset of the last gap recorded (valid while
 *	@ctr.gap_count is not 0)
 * @wq: readers and pollers wait here
 * @wake: wakes @wq and logs a recorded fault once tc->slock is dropped
 *	(trbe_stream_wake(), an irq_work; the stream changes under the raw
 *	@slock, where @wq's lock may not be taken)
 * @fault_sr: TRBSR of the last fault, for trbe_fault_say(); under @slock
 * @fault_st: its decoding; under @slock
 * @fault_unsaid: a fault is recorded and not logged yet; under @slock
 * @rearm: re-arms a fill-mode TRBE waiting for the reader
 * @rearm_tail: the reader's tail when the TRBE last could not be armed;
 *	under @slock
 * @rearm_delay: the re-arm work's current delay (jiffies); only that
 *	work uses it
 * @rearm_looks: times the re-arm work ran (debugfs trbe/cpu<N>)
 * @rearm_calls: of those, times it called the traced CPU
 * @dbg: the debugfs file of these counters
 * @flush: publishes fill-mode data on demand, on tc->cpu (flush.c,
 *	trbe_flush_next_ns())
 * @flush_on: @flush runs or is about to; under @slock
 * @flush_last_ns: when @flush last ran (or started); under @slock
 * @flush_last_head: @head then; under @slock
 * @flush_period: @flush's current period, ns; under @slock
 * @flush_deadline: @flush's expiry when a power-down save stopped it, 0
 *	if it was not running (flush.c); under @slock
 * @wake_mark: bytes unread that wake readers, 0 for the geometry's
 *	watermark (ETE_TRBE_IOC_SET_WATERMARK); under @slock
 * @wake_upto: the stream position a wake for any amount unread was for
 *	(the FLUSH ioctl, a limit that cannot move on): poll() says readable
 *	while the reader's tail is below it, whatever the watermark; 0 when
 *	there was none since the buffer was installed.  Under @slock
 * @sess: the session the START ioctl began
 * @read_lock: serialises read()
 * @in_session: a trace session uses this TRBE (between start_local and
 *	stop_local): CPU hotplug leaves it to ete.ko's save and restore
 * @pm: the TRBE registers saved while the CPU is powered down
 * @saved_cfg: @cfg's modes before a session's settings replaced them
 * @cfg_override: a session's settings (&struct ete_sink_settings) are in
 *	@cfg; stop_local() puts @saved_cfg back.  Under @slock
 * @stats: data path counters (&struct trbe_stats)
 */
struct trbe_cpu {
	int cpu;
	struct trbe_drv *drv;
	struct device *dev;
	struct mutex lock;		/* see the top of this file */
	bool open;
	struct file *owner;
	struct ete_task_set *tasks;
	struct trbe_cfg cfg;

	bool present;
	struct ete_access acc;
	struct trbe_id id;
	unsigned long errata;

	raw_spinlock_t slock;
	struct trbe_buf *buf;
	bool closing;
	struct trbe_geom geom;
	enum ete_trbe_state state;
	u64 head;
	u64 lost_tail;
	struct trbe_counters ctr;
	struct trbe_window win;
	bool armed;
	bool trfcr_held;
	u64 trfcr;
	bool trg_fresh;
	bool trg_hit;
	u32 gap_pending;
	u64 gap_last;
	wait_queue_head_t wq;
	struct irq_work wake;
	u64 fault_sr;
	struct trbe_status fault_st;
	bool fault_unsaid;
	struct delayed_work rearm;
	u64 rearm_tail;
	unsigned long rearm_delay;
	unsigned long rearm_looks;
	unsigned long rearm_calls;
	struct dentry *dbg;
	struct hrtimer flush;
	bool flush_on;
	u64 flush_last_ns;
	u64 flush_last_head;
	u64 flush_period;
	ktime_t flush_deadline;
	u64 wake_mark;
	u64 wake_upto;
	struct ete_session *sess;
	struct mutex read_lock;		/* one reader at a time */
	bool in_session;
	struct trbe_pm_state pm;
	struct trbe_cfg saved_cfg;
	bool cfg_override;
	struct trbe_stats stats;
};

/**
 * struct trbe_drv - the driver instance (one TRBE node)
 * @pdev: the platform device
 * @irq: the TRBE PPI
 * @supported: the CPUs this node serves: its PPI's partition (all
 *	possible CPUs for a PPI without partitions); disjoint from every
 *	other instance's
 * @cpus: per-CPU state, indexed by CPU number; NULL outside @supported
 * @devt: first device number
 * @cdev: the character device for every CPU of @supported
 * @class: the "trbe" class (one per module)
 * @pcpu: per-CPU pointer to each CPU's &struct trbe_cpu, for the IRQ
 * @hp_node: the cpuhp instance
 * @access_nb: hears about the test double coming and going
 */
struct trbe_drv {
	struct platform_device *pdev;
	int irq;
	struct cpumask supported;
	struct trbe_cpu **cpus;
	dev_t devt;
	struct cdev cdev;
	struct class *class;
	struct trbe_cpu * __percpu *pcpu;
	struct hlist_node hp_node;
	struct notifier_block access_nb;
};

/**
 * trbe_sink_cpu() - the per-CPU state behind a sink callback
 * @priv: the driver instance
 * @cpu: the CPU
 *
 * Context: any context.
 * Return: the CPU's state, or NULL.
 */
static inline struct trbe_cpu *trbe_sink_cpu(void *priv, int cpu)
{
	struct trbe_drv *drv = priv;

	return cpu < nr_cpu_ids ? drv->cpus[cpu] : NULL;
}

/**
 * trbe_wake_mark() - bytes unread at which readers are woken
 * @tc: the CPU
 *
 * Context: tc->slock held.
 * Return: the file's watermark, else the session geometry's.
 */
static inline u64 trbe_wake_mark(const struct trbe_cpu *tc)
{
	return tc->wake_mark ?: tc->geom.wmark;
}

/* buffer.c */
void trbe_fault_say(struct trbe_cpu *tc);
int trbe_mlock_charge(u64 size, struct trbe_mlock *ml);
void trbe_mlock_uncharge(struct trbe_mlock *ml);
struct trbe_buf *trbe_buf_alloc(int cpu, u64 size);
void trbe_buf_free(struct trbe_buf *buf);
void trbe_buf_pad(struct trbe_buf *buf, u64 pos, u64 len);
void trbe_stream_install(struct trbe_cpu *tc, struct trbe_buf *buf);
void trbe_stream_publish(struct trbe_cpu *tc, u64 head);
void trbe_stream_gap(struct trbe_cpu *tc, u64 offset, u64 lost, u32 reason);
void trbe_stream_set_state(struct trbe_cpu *tc, enum ete_trbe_state state);
void trbe_stream_begin(struct trbe_cpu *tc);
void trbe_stream_end(struct trbe_cpu *tc);
void trbe_stream_wrapped(struct trbe_cpu *tc);
void trbe_stream_lost(struct trbe_cpu *tc, u64 bytes);
void trbe_stream_error(struct trbe_cpu *tc, int err, u64 sr);
void trbe_stream_trigger(struct trbe_cpu *tc, u64 offset);
void trbe_stream_wake(struct irq_work *work);
u64 trbe_stream_tail(struct trbe_cpu *tc);

/* hw.c */
bool trbe_arm_local(struct trbe_cpu *tc);
void trbe_resume_local(struct trbe_cpu *tc, u64 head);
void trbe_disarm_local(struct trbe_cpu *tc);
void trbe_snapshot_local(struct trbe_cpu *tc);
void trbe_reset_local(struct trbe_cpu *tc);
u64 trbe_prohibit_local(const struct ete_access *acc);
void trbe_allow_local(struct trbe_cpu *tc, u64 trfcr);
void trbe_trace_release_local(struct trbe_cpu *tc);
u64 trbe_trace_gate_local(struct trbe_cpu *tc, u64 trfcr);
void trbe_drain_local(struct trbe_cpu *tc);
void trbe_disable_local(struct trbe_cpu *tc);
u64 trbe_ptr_pos_at(struct trbe_cpu *tc, u64 ptr, bool wrapped);
u64 trbe_ptr_pos(struct trbe_cpu *tc, bool wrapped);
void trbe_sink_restore(struct trbe_cpu *tc);
void trbe_publish_lap(struct trbe_cpu *tc, u64 head, bool wrapped);

/* flush.c */
void trbe_flush_init(struct trbe_cpu *tc);
void trbe_flush_start(struct trbe_cpu *tc);
void trbe_flush_stop_local(struct trbe_cpu *tc);
void trbe_flush_save_local(struct trbe_cpu *tc);
void trbe_flush_resume_local(struct trbe_cpu *tc);
void trbe_flush_now_local(struct trbe_cpu *tc);
bool trbe_flush_enabled(void);

/* irq.c */
bool trbe_take_event_local(struct trbe_cpu *tc, u64 sr, bool go_on);
bool trbe_take_saved_event(struct trbe_cpu *tc, u64 sr, u64 ptr);
irqreturn_t trbe_irq_handler(int irq, void *dev);

/* pm.c */
void trbe_pm_save_local(void *priv, int cpu);
void trbe_pm_restore_local(void *priv, int cpu);
void trbe_pm_forget(void *priv, int cpu);

/* session.c */
void trbe_cpu_geom(const struct trbe_cpu *tc, struct trbe_geom *g);
int trbe_sink_register(struct trbe_drv *drv);
void trbe_sink_unregister(struct trbe_drv *drv);
int trbe_session_start(struct trbe_cpu *tc, struct file *file);
void trbe_session_stop(struct trbe_cpu *tc);
int trbe_session_snapshot(struct trbe_cpu *tc);
void trbe_session_kick(struct trbe_cpu *tc);
void trbe_session_want_data(struct trbe_cpu *tc);
int trbe_session_flush(struct trbe_cpu *tc);
int trbe_session_set_wake_mark(struct trbe_cpu *tc, u64 mark);
u64 trbe_session_wake_mark(struct trbe_cpu *tc);
void trbe_session_init(struct trbe_cpu *tc);
void trbe_session_debugfs_add(struct trbe_cpu *tc, struct dentry *root);
void trbe_session_release_buf(struct trbe_cpu *tc);

/* cdev.c */
int trbe_class_init(void);
void trbe_class_exit(void);
int trbe_cdev_init(struct trbe_drv *drv);
void trbe_cdev_exit(struct trbe_drv *drv);

/* sysfs.c */
extern const struct attribute_group *trbe_dev_groups[];

#endif /* _TRBE_DRV_H */
