// SPDX-License-Identifier: GPL-2.0
/*
 * The trace unit: presence, capabilities, the programming state machine
 * (Arm ARM D4.1.6, Table D4-1):
 *
 *        EN=1            finite time            EN=0
 *   Idle -----> Enabling -----------> Running -------> Unstable
 *    ^                                                     |
 *    |  drained, quiescent (RTRZCP)           finite time  |
 *    +------------------------- Stable <-------------------+
 *
 * Registers other than TRCPRGCTLR and the claim tags are written only in
 * Idle (RRWYQD); EN changes only in Idle or Running (RMDZDN); after an EN
 * write, and between TRCSTATR reads, a context synchronization event
 * (SHSXGZ).  Every wait is bounded (-ETIMEDOUT); a unit that does not
 * leave Enabling keeps EN=1, trace prohibited, until a later enable sees
 * it Running and disables it.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <kunit/visibility.h>

#include <ete/core.h>
#include <ete/pe.h>
#include <ete/regs.h>

#define TRCPRGCTLR_EN			BIT(0)
#define TRCSTATR_IDLE			BIT(0)
#define TRCSTATR_PMSTABLE		BIT(1)
#define OSLSR_EL1_OSLK			BIT(1)
#define TRCPDSR_STICKYPD		BIT(1)
#define ID_AA64DFR0_TRACEVER		GENMASK_ULL(7, 4)
#define ID_AA64DFR0_TRACEFILT		GENMASK_ULL(43, 40)
/* CoreSight claim tag bits (as coresight-core.c uses them) */
#define ETE_CLAIM_EXTERNAL		BIT(0)
#define ETE_CLAIM_SELF			BIT(1)

/*
 * Status reads before giving up, one microsecond apart: 100 us, as
 * mainline's coresight_timeout() (TIMEOUT_US).  The polls run with IRQs
 * off (enable, disable, the CPU PM path); a unit that takes longer is
 * reported as timed out, never waited for with the CPU held.
 */
#define ETE_POLL_TRIES			100

/*
 * Poll TRCSTATR until (TRCSTATR & @mask) == @want, with a context
 * synchronization event before every read: between the TRCPRGCTLR (or OS
 * Lock) write and the first read, and between two reads (SHSXGZ).
 */
/**
 * ete_unit_poll_statr() - wait for TRCSTATR to show a state
 * @u: the unit
 * @mask: TRCSTATR bits to look at
 * @want: their wanted value
 *
 * Bounded: ETE_POLL_TRIES reads, one microsecond apart.
 *
 * Context: on @u->cpu, IRQs disabled, for a system-register unit; atomic.
 * Return: 0, or -ETIMEDOUT.
 */
int ete_unit_poll_statr(struct ete_unit *u, u32 mask, u32 want)
{
	unsigned int i;

	for (i = 0; i < ETE_POLL_TRIES; i++) {
		ete_sync(&u->acc, ETE_SYNC_ISB);
		if ((ete_read(&u->acc, ETE_TRCSTATR) & mask) == want)
			return 0;
		udelay(1);
	}
	return -ETIMEDOUT;
}

static bool ete_unit_is_idle(struct ete_unit *u)
{
	return !ete_unit_poll_statr(u, TRCSTATR_IDLE | TRCSTATR_PMSTABLE,
			       TRCSTATR_IDLE | TRCSTATR_PMSTABLE);
}

/* EN=0, then Stable (PMSTABLE) and Idle (K.3) */
static int ete_unit_stop_hw(struct ete_unit *u)
{
	int ret;

	ete_write(&u->acc, ETE_TRCPRGCTLR, 0);
	ret = ete_unit_poll_statr(u, TRCSTATR_PMSTABLE, TRCSTATR_PMSTABLE);
	if (!ret)
		ret = ete_unit_poll_statr(u, TRCSTATR_IDLE, TRCSTATR_IDLE);
	return ret;
}

/*
 * A unit left with EN=1 that never reached Running (an enable that timed
 * out, or a previous load of the driver): EN may change only in Idle or
 * Running (RMDZDN), and nothing else may be written until it is Idle
 * again, so wait for Running, then disable it as usual.  Enabling reads
 * as Idle in TRCSTATR: TRCPRGCTLR.EN tells it apart.
 */
static int ete_unit_settle_local(struct ete_unit *u, const char **msg)
{
	if (u->enabled || !(ete_read(&u->acc, ETE_TRCPRGCTLR) & TRCPRGCTLR_EN))
		return 0;
	if (ete_unit_poll_statr(u, TRCSTATR_IDLE, 0)) {
		*msg = "trace unit still Enabling since an enable timed out";
		return -ETIMEDOUT;
	}
	if (ete_unit_stop_hw(u)) {
		*msg = "trace unit did not reach Stable and Idle after disable";
		return -ETIMEDOUT;
	}
	return 0;
}

static void ete_unit_release_local(struct ete_unit *u)
{
	if (u->has_trf) {
		ete_write(&u->pe, ETE_TRFCR_EL1, u->saved_trfcr);
		ete_sync(&u->pe, ETE_SYNC_ISB);
	}
	ete_write(&u->acc, ETE_TRCCLAIMCLR, ETE_CLAIM_SELF);
}

/**
 * ete_unit_os_locked() - whether the PE OS Lock is locked
 * @u: the unit
 *
 * Locked by another agent, the unit is disabled (RVBMLV) and the external
 * view's registers may answer with errors (D.11, RYSHRS): look first.
 *
 * Context: on @u->cpu, preemption disabled.
 * Return: OSLSR_EL1.OSLK.
 */
bool ete_unit_os_locked(struct ete_unit *u)
{
	return ete_read(&u->pe, ETE_OSLSR_EL1) & OSLSR_EL1_OSLK;
}

/*
 * Clear the OS Lock a timed-out CPU PM save kept (@u->oslk_held), once
 * the unit is Idle: clearing it earlier with EN set would enable the
 * unit outside Idle and Running (RMDZDN through RVBMLV).  EN goes to 0
 * first, in Idle, so the unit stays disabled.  Never a lock another
 * agent set: @u->oslk_held is the driver's own.
 * Returns false if the unit is still not Idle (the lock stays).
 */
static bool ete_unit_os_lock_release(struct ete_unit *u)
{
	if (!u->oslk_held)
		return true;
	if (!ete_unit_is_idle(u))
		return false;
	ete_write(&u->acc, ETE_TRCPRGCTLR, 0);
	ete_write(&u->pe, ETE_OSLAR_EL1, 0);
	ete_sync(&u->pe, ETE_SYNC_ISB);
	u->oslk_held = false;
	return true;
}

static int ete_unit_claim_local(struct ete_unit *u, const char **msg)
{
	if (ete_read(&u->acc, ETE_TRCCLAIMCLR) & ETE_CLAIM_EXTERNAL) {
		*msg = "claimed by an external debugger";
		return -EBUSY;
	}
	/*
	 * The CoreSight claim protocol (coresight_claim_device_unlocked()):
	 * set our tag, read the tags back, back off if any other is set: a
	 * debugger may claim between the look above and the set.
	 */
	ete_write(&u->acc, ETE_TRCCLAIMSET, ETE_CLAIM_SELF);
	ete_sync(&u->acc, ETE_SYNC_ISB);
	if (ete_read(&u->acc, ETE_TRCCLAIMCLR) != ETE_CLAIM_SELF) {
		ete_write(&u->acc, ETE_TRCCLAIMCLR, ETE_CLAIM_SELF);
		*msg = "claimed by an external debugger";
		return -EBUSY;
	}
	return 0;
}

/**
 * ete_unit_enable_local() - program the image and enable the trace unit
 * @u: the unit; @u->img holds the image
 * @trfcr: the TRFCR value to write: @u->img.trfcr, or that value with
 *	trace prohibited while the sink does not collect (ete_sink_trfcr())
 * @msg: set to a description of the failure
 *
 * Checks Idle, claims the unit, writes every register of the image, then
 * TRFCR, then EN=1, and waits for the unit to leave Idle (Running).
 *
 * Context: on @u->cpu with IRQs disabled (a cross-call); does not sleep.
 * Return: 0; -ETIMEDOUT if the unit was not Idle, or did not leave Idle,
 * in time (then EN stays set, trace prohibited: ete_unit_settle_local());
 * -EBUSY if the OS Lock is locked or an external debugger claimed it.
 */
int ete_unit_enable_local(struct ete_unit *u, u64 trfcr, const char **msg)
{
	unsigned int i;
	int ret;

	if (!ete_unit_os_lock_release(u)) {
		*msg = "OS Lock kept: trace unit not Idle since a save timed out";
		return -ETIMEDOUT;
	}
	if (ete_unit_os_locked(u)) {
		*msg = "the OS Lock is locked";
		return -EBUSY;
	}
	/* a power-down may have locked the external view's writes */
	ete_access_unlock(&u->acc);
	/* a power-down before this session is no loss of its trace */
	ete_unit_sticky_pd(u);
	u->lost_power = false;
	ret = ete_unit_settle_local(u, msg);
	if (ret)
		return ret;
	if (!ete_unit_is_idle(u)) {
		*msg = "trace unit not Idle before programming";
		return -ETIMEDOUT;
	}
	ret = ete_unit_claim_local(u, msg);
	if (ret)
		return ret;
	if (u->has_trf)
		u->saved_trfcr = ete_read(&u->pe, ETE_TRFCR_EL1);

	/* Idle: every register may be written (RRWYQD) */
	for (i = 0; i < u->img.nr; i++)
		ete_write(&u->acc, u->img.regs[i].reg, u->img.regs[i].val);
	ete_sync(&u->acc, ETE_SYNC_ISB);
	if (u->has_trf) {
		ete_write(&u->pe, ETE_TRFCR_EL1, trfcr);
		ete_sync(&u->pe, ETE_SYNC_ISB);
	}

	ete_write(&u->acc, ETE_TRCPRGCTLR, TRCPRGCTLR_EN);
	ret = ete_unit_poll_statr(u, TRCSTATR_IDLE, 0);
	if (ret) {
		/*
		 * Still Enabling: EN=0 now would break RMDZDN.  Leave EN set
		 * with trace prohibited again (TRFCR restored), so a unit
		 * that gets to Running later traces nothing without a sink;
		 * the next enable settles it (ete_unit_settle_local()).
		 */
		*msg = "trace unit did not leave Idle after enable";
		ete_unit_release_local(u);
		return ret;
	}
	u->enabled = true;
	return 0;
}

/**
 * ete_unit_sticky_pd() - did the core lose power since the last look
 * @u: the unit
 *
 * TRCPDSR.STICKYPD of a unit reached through the external view: set by a
 * power-down of the core (RFQMXQ: the unit's state is lost), cleared by
 * this read.  System-register units have no such view: false.
 *
 * Context: on @u->cpu, which keeps the core powered; does not sleep.
 * Return: true if the core was powered down since the last read.
 */
bool ete_unit_sticky_pd(struct ete_unit *u)
{
	if (u->acc.local)
		return false;
	return ete_read(&u->acc, ETE_TRCPDSR) & TRCPDSR_STICKYPD;
}

/**
 * ete_unit_disable_local() - disable the trace unit and wait for Idle
 * @u: the unit
 * @msg: set to a description of the failure
 *
 * EN=0, then PMSTABLE, then IDLE, then TRFCR is restored and the claim
 * released.  The unit counts as disabled afterwards even on timeout: EN is
 * 0, and the next enable waits for Idle again.  A unit reached through
 * the external view first tells whether its core lost power since the
 * enable or the last restore (@u->lost_power), and is unlocked again.
 *
 * Context: on @u->cpu with IRQs disabled (a cross-call); does not sleep.
 * Return: 0, or -ETIMEDOUT if the unit did not reach Stable and Idle.
 */
int ete_unit_disable_local(struct ete_unit *u, const char **msg)
{
	int ret;

	ete_access_unlock(&u->acc);
	u->lost_power = ete_unit_sticky_pd(u);
	if (u->oslk_held) {
		/* disabled by the OS Lock already: EN may not change yet */
		ret = ete_unit_os_lock_release(u) ? 0 : -ETIMEDOUT;
		if (ret)
			*msg = "OS Lock kept: trace unit not Idle since a save timed out";
	} else {
		ret = ete_unit_stop_hw(u);
		if (ret)
			*msg = "trace unit did not reach Stable and Idle after disable";
	}
	ete_unit_release_local(u);
	u->enabled = false;
	return ret;
}

struct ete_read_arg {
	struct ete_unit *u;
	u32 reg;
	u64 val;
	int err;
};

static void ete_unit_read_one(void *data)
{
	struct ete_read_arg *arg = data;

	/* the management registers from 0xF00 answer under the OS Lock */
	if (!arg->u->acc.local && arg->reg < ETE_TRCITCTRL &&
	    ete_unit_os_locked(arg->u)) {
		arg->err = -EBUSY;
		return;
	}
	arg->val = ete_read(&arg->u->acc, arg->reg);
}

/**
 * ete_unit_read() - read one trace unit register on the unit's CPU
 * @u: the unit
 * @reg: register id
 * @val: the value
 *
 * On the owning CPU for either view: a system register exists only
 * there, and the external-debug (MMIO) view of a core that is powered
 * down answers with an external abort, so it is read only while the CPU
 * is online and from the CPU itself, which keeps it powered (as mainline
 * etm4x reads its management registers).  While another agent holds
 * the PE OS Lock, the external view's trace registers (below 0xF00) may
 * answer with an error (D.11, RYSHRS): they are not read then.
 *
 * Context: process context.
 * Return: 0, -ENODEV if the CPU is offline, or -EBUSY for a trace
 * register of an external view while the OS Lock is locked.
 */
int ete_unit_read(struct ete_unit *u, u32 reg, u64 *val)
{
	struct ete_read_arg arg = { .u = u, .reg = reg };

	/* -ENXIO from the cross call: the CPU is offline */
	if (smp_call_function_single(u->cpu, ete_unit_read_one, &arg, 1))
		return -ENODEV;
	if (arg.err)
		return arg.err;
	*val = arg.val;
	return 0;
}

/**
 * ete_unit_set_error() - record the last error, for "status"
 * @u: the unit
 * @err: negative errno, or 0 to clear
 * @msg: what happened (a string literal)
 *
 * Context: process context, under ete_mutex.
 */
void ete_unit_set_error(struct ete_unit *u, int err, const char *msg)
{
	u->err = err;
	u->err_msg = err ? msg : NULL;
	if (err)
		dev_dbg(u->parent, "cpu%d: %s (%d)\n", u->cpu, msg, err);
}

/* ------------------------------------------------------------------------
 * Presence and capabilities
 */

/* The ID registers read at probe, by TRCIDR number (6 and 7 do not exist) */
const u32 ete_idr_regs[ETE_NUM_IDR] = {
	ETE_TRCIDR0, ETE_TRCIDR1, ETE_TRCIDR2, ETE_TRCIDR3, ETE_TRCIDR4,
	ETE_TRCIDR5, 0, 0, ETE_TRCIDR8, ETE_TRCIDR9, ETE_TRCIDR10,
	ETE_TRCIDR11, ETE_TRCIDR12, ETE_TRCIDR13,
};
EXPORT_SYMBOL_IF_KUNIT(ete_idr_regs);

struct ete_probe_arg {
	struct ete_unit *u;
	u64 dfr0;
	u32 devarch;
	u32 idr[ETE_NUM_IDR];
	int ret;
};

/*
 * On the unit's CPU: ID_AA64DFR0_EL1 first, an ordinary ID register that
 * never UNDEFs; the trace unit is touched only if TraceVer says the system
 * register interface exists (for a sysreg unit), and then TRCDEVARCH.
 */
static void ete_probe_one(void *data)
{
	struct ete_probe_arg *arg = data;
	struct ete_unit *u = arg->u;
	unsigned int i;

	arg->dfr0 = ete_read(&u->pe, ETE_ID_AA64DFR0_EL1);
	if (u->acc.local && !FIELD_GET(ID_AA64DFR0_TRACEVER, arg->dfr0)) {
		arg->ret = -ENODEV;
		return;
	}
	arg->devarch = ete_read(&u->acc, ETE_TRCDEVARCH);
	if ((arg->devarch & ETE_DEVARCH_MASK) != ETE_DEVARCH_ETE) {
		arg->ret = -ENXIO;
		return;
	}
	for (i = 0; i < ETE_NUM_IDR; i++)
		if (ete_idr_regs[i])
			arg->idr[i] = ete_read(&u->acc, ete_idr_regs[i]);
	arg->ret = 0;
}

static int ete_unit_probe_hw(struct ete_unit *u)
{
	struct ete_probe_arg arg = { .u = u };
	struct device *dev = u->parent;
	int ret;

	ret = smp_call_function_single(u->cpu, ete_probe_one, &arg, 1);
	if (ret) {
		dev_info(dev, "cpu%d is offline; trace unit probed when it comes online\n",
			 u->cpu);
		return -EAGAIN;
	}
	if (arg.ret == -ENODEV) {
		dev_info(dev, "cpu%d has no ETE (ID_AA64DFR0_EL1.TraceVer is 0); not probed\n",
			 u->cpu);
		return -ENODEV;
	}
	if (arg.ret) {
		dev_info(dev, "cpu%d: TRCDEVARCH %#x is not an ETE; not probed\n",
			 u->cpu, arg.devarch);
		return -ENODEV;
	}
	memcpy(u->ids.idr, arg.idr, sizeof(u->ids.idr));
	u->ids.devarch = arg.devarch;
	u->has_trf = FIELD_GET(ID_AA64DFR0_TRACEFILT, arg.dfr0);
	return 0;
}

/* ------------------------------------------------------------------------
 * Creation, publication and errors
 */

static const struct ete_unit_hooks *ete_unit_hooks;

/**
 * ete_unit_set_hooks() - what the layers above do with units
 * @hooks: the callbacks, or NULL once no unit exists any more
 *
 * The module entry sets them before discovery binds the first unit and
 * clears them after the last is gone: the unit layer tells the ABI and
 * the session layer about units through them, never by name.
 *
 * Context: module init and exit.
 */
void ete_unit_set_hooks(const struct ete_unit_hooks *hooks)
{
	WRITE_ONCE(ete_unit_hooks, hooks);
}

static void ete_unit_err_work(struct work_struct *work)
{
	struct ete_unit *u = container_of(work, struct ete_unit, err_work);
	const struct ete_unit_hooks *hooks = READ_ONCE(ete_unit_hooks);
	unsigned long flags, gen;
	int err;

	raw_spin_lock_irqsave(&u->err_lock, flags);
	err = u->async_err;
	gen = u->err_gen;
	u->async_err = 0;
	raw_spin_unlock_irqrestore(&u->err_lock, flags);
	if (hooks && hooks->error)
		hooks->error(u, err, gen);
}

static void ete_unit_err_irq(struct irq_work *w)
{
	schedule_work(&container_of(w, struct ete_unit, err_irq)->err_work);
}

/**
 * ete_unit_report_error() - a sink failed on the unit's CPU
 * @u: the unit
 * @err: negative errno (0 counts as -EIO)
 * @gen: the session generation (&ete_unit.sess_gen) the report is about
 *
 * Records the error and has &ete_unit_hooks.error handle it from a work
 * item queued by an irq_work: the reporter may hold a lock the scheduler
 * takes (task mode's switch hook takes a sink's under the runqueue lock).
 *
 * Context: any.
 */
void ete_unit_report_error(struct ete_unit *u, int err, unsigned long gen)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&u->err_lock, flags);
	u->async_err = err ? err : -EIO;
	u->err_gen = gen;
	raw_spin_unlock_irqrestore(&u->err_lock, flags);
	irq_work_queue(&u->err_irq);
}

/**
 * ete_unit_create() - probe a trace unit
 * @parent: the device it was discovered as
 * @cpu: the PE it traces
 * @acc: access to its registers (copied)
 * @overridden: @acc reaches the test double
 *
 * Reads its ID registers on @cpu into &ete_unit.ids; decoding them, the
 * defaults, sessions and files are the layers above (discover.c), and
 * ete_unit_publish() makes it visible.
 *
 * Context: process context; sleeps.
 * Return: the unit, or ERR_PTR(-ENODEV) if it is absent (logged once),
 * -EAGAIN if its CPU is offline (nothing could be read), -ENOMEM.
 */
struct ete_unit *ete_unit_create(struct device *parent, int cpu,
				 const struct ete_access *acc,
				 bool overridden)
{
	struct ete_unit *u;
	int ret;

	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return ERR_PTR(-ENOMEM);
	u->parent = parent;
	u->cpu = cpu;
	u->acc = *acc;
	u->overridden = overridden;
	ete_access_get_pe(cpu, &u->pe);
	INIT_WORK(&u->err_work, ete_unit_err_work);
	init_irq_work(&u->err_irq, ete_unit_err_irq);
	raw_spin_lock_init(&u->err_lock);

	ret = ete_unit_probe_hw(u);
	if (ret) {
		kfree(u);
		return ERR_PTR(ret);
	}
	return u;
}

/**
 * ete_unit_publish() - the unit is ready: the layers above may use it
 * @u: the unit, configured and registered with the sessions
 *
 * Context: process context; sleeps.
 * Return: 0, or the negative errno of &ete_unit_hooks.added.
 */
int ete_unit_publish(struct ete_unit *u)
{
	const struct ete_unit_hooks *hooks = READ_ONCE(ete_unit_hooks);

	return hooks && hooks->added ? hooks->added(u) : 0;
}

/**
 * ete_unit_unpublish() - undo ete_unit_publish()
 * @u: the unit
 *
 * &ete_unit_hooks.removing waits for the calls running on the unit.
 *
 * Context: process context; sleeps.
 */
void ete_unit_unpublish(struct ete_unit *u)
{
	const struct ete_unit_hooks *hooks = READ_ONCE(ete_unit_hooks);

	if (hooks && hooks->removing)
		hooks->removing(u);
}

/**
 * ete_unit_destroy() - free a unit that is not (or no longer) published
 * @u: the unit, out of every session
 *
 * Context: process context; sleeps (waits for an error report running).
 */
void ete_unit_destroy(struct ete_unit *u)
{
	irq_work_sync(&u->err_irq);
	cancel_work_sync(&u->err_work);
	kfree(u);
}
