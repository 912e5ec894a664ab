/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of ete.ko shared between its files (and its KUnit modules):
 * the access backends, the trace unit object, the session layer and the
 * sysfs layer.  Not an interface for other modules: see <ete/sink.h> and
 * <ete/pe.h> for those.
 */
#ifndef _ETE_CORE_H
#define _ETE_CORE_H

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>

#include <ete/access.h>
#include <ete/caps.h>
#include <ete/config.h>
#include <ete/sink.h>

struct device;

/* ------------------------------------------------------------------------
 * Access backends
 */

#define ETE_SYSREG_RW	0
#define ETE_SYSREG_RO	1
#define ETE_SYSREG_WO	2

/**
 * struct ete_sysreg_enc - one row of <ete/sysreg-table.h>
 * @id: register id (<ete/regs.h>)
 * @access: ETE_SYSREG_RW, _RO or _WO
 * @op0: op0 field of the MRS/MSR encoding
 * @op1: op1 field
 * @crn: CRn field
 * @crm: CRm field
 * @op2: op2 field
 */
struct ete_sysreg_enc {
	u32 id;
	u8 access;
	u8 op0;
	u8 op1;
	u8 crn;
	u8 crm;
	u8 op2;
};

extern const struct ete_access_ops ete_sysreg_ops;
extern const struct ete_sysreg_enc ete_sysreg_table[];
extern const unsigned int ete_sysreg_table_size;
const struct ete_sysreg_enc *ete_sysreg_find(u32 reg);
bool ete_sysreg_can(u32 reg, bool write);

/**
 * struct ete_mmio - state of an external-debug (MMIO) handle
 * @io: the 32/64-bit accessors
 * @ctx: their context (the mapping, or the test double's unit)
 * @sw_lock: the CoreSight software lock is implemented (TRCLSR.SLI), as
 *	the first ete_mmio_unlock() found on the unit's CPU; false before
 */
struct ete_mmio {
	const struct ete_mmio_io_ops *io;
	void *ctx;
	bool sw_lock;
};

extern const struct ete_access_ops ete_mmio_ops;
extern const struct ete_mmio_io_ops ete_mmio_default_io;

void ete_mmio_init(struct ete_mmio *m, const struct ete_mmio_io_ops *io,
		   void *ctx, int cpu, struct ete_access *acc);
void ete_mmio_unlock(const struct ete_access *acc);
void ete_access_unlock(const struct ete_access *acc);
void ete_mmio_lock(const struct ete_access *acc);
u8 ete_reg_flags(u32 reg);

bool ete_access_get_sysreg(int cpu, struct ete_access *acc);
const struct ete_mmio_io_ops *ete_access_mmio_lookup(phys_addr_t base,
						     void **ctx);

/* ------------------------------------------------------------------------
 * Trace units
 */

/**
 * struct ete_pm_state - a trace unit's state while its CPU is powered down
 * @saved: the state below is valid and the unit is disabled (OS Lock)
 * @val: the value of each register of the session's image, in image order
 *	(programming and dynamic state: counters, sequencer, single-shot
 *	status, TRCRSR)
 * @foreign_lock: the PE OS Lock was locked by another agent when the save
 *	came (the unit was disabled by it, RVBMLV): the restore leaves it
 *	locked
 * @saves: number of saves, for debugfs
 * @restores: number of restores, for debugfs
 *
 * Written only on the unit's CPU with IRQs disabled, or with the CPU
 * offline under the CPU hotplug lock.
 */
struct ete_pm_state {
	bool saved;
	u64 val[ETE_IMAGE_MAX];
	bool foreign_lock;
	unsigned long saves;
	unsigned long restores;
};

/**
 * struct ete_unit - one trace unit
 * @dev: the class device /sys/class/ete/ete<cpu>
 * @parent: the device it was discovered as (platform or AMBA)
 * @cpu: the PE it traces
 * @acc: register access to the trace unit
 * @pe: register access to the PE's system registers (TRFCR, OS Lock, ID)
 * @overridden: @acc reaches the test double
 * @has_trf: FEAT_TRF (ID_AA64DFR0_EL1.TraceFilt)
 * @ids: the raw ID registers read at probe (@ids.idr by TRCIDR number,
 *	@ids.devarch), which discovery decodes into @caps
 * @caps: capabilities, decoded at probe
 * @cfg: the configuration; under ete_mutex
 * @img: the image of the running session
 * @sess: the session owning the CPU, or NULL; under ete_mutex
 * @sink: the sink of that session
 * @sink_priv: its private data
 * @enabled: the trace unit is enabled
 * @lost_power: the core of a unit reached through the external view lost
 *	power during the session without a save (TRCPDSR.STICKYPD at the
 *	stop): the session's trace ends there
 * @oslk_held: a CPU PM save that timed out left the PE OS Lock locked,
 *	the unit not Idle: cleared by the driver only once the unit is Idle
 *	(RMDZDN through RVBMLV), at the stop or the next enable; a CPU
 *	coming online clears it (the kernel's clear_os_lock())
 * @gone: the unit is being removed; no new session may use it
 * @saved_trfcr: TRFCR before the session, restored after
 * @err: the last error (negative errno) or 0; under ete_mutex
 * @err_msg: what it was about
 * @async_err: an error reported by the sink, for @err_work
 * @err_gen: the value of @sess_gen when @async_err was reported
 * @err_lock: makes @async_err and @err_gen one report
 * @err_work: stops the unit after a sink error
 * @err_irq: queues @err_work with no lock of the reporter held
 * @sess_gen: counts the sessions that claimed the CPU; a late error report
 *	of an earlier session must not stop a later one
 * @pm: the state saved across power-down
 * @sysfs_mem: the attributes and groups of @dev
 */
struct ete_unit {
	struct device *dev;
	struct device *parent;
	int cpu;
	struct ete_access acc;
	struct ete_access pe;
	bool overridden;
	bool has_trf;
	struct {
		u32 idr[ETE_NUM_IDR];
		u32 devarch;
	} ids;
	struct ete_caps caps;
	struct ete_config cfg;
	struct ete_image img;
	struct ete_session *sess;
	const struct ete_sink_ops *sink;
	void *sink_priv;
	bool enabled;
	bool lost_power;
	bool oslk_held;
	bool gone;
	u64 saved_trfcr;
	int err;
	const char *err_msg;
	int async_err;
	unsigned long err_gen;
	raw_spinlock_t err_lock;
	struct work_struct err_work;
	struct irq_work err_irq;
	unsigned long sess_gen;
	struct ete_pm_state pm;
	void *sysfs_mem;
};

/* Serializes configuration, sessions, sinks and unit (un)registration */
extern struct mutex ete_mutex;

int ete_unit_enable_local(struct ete_unit *u, u64 trfcr, const char **msg);
int ete_unit_disable_local(struct ete_unit *u, const char **msg);
bool ete_unit_sticky_pd(struct ete_unit *u);
bool ete_unit_os_locked(struct ete_unit *u);
int ete_unit_read(struct ete_unit *u, u32 reg, u64 *val);
int ete_unit_poll_statr(struct ete_unit *u, u32 mask, u32 want);
void ete_unit_set_error(struct ete_unit *u, int err, const char *msg);

/**
 * struct ete_unit_hooks - what the layers above do when units come and go
 * @added: a unit is ready (probed, configured, reachable by sessions): make
 *	its files; 0 or a negative errno (then it is not bound)
 * @removing: a unit goes: remove its files, waiting for running calls
 * @error: a sink reported an error on the unit's CPU
 *	(ete_unit_report_error()); @gen is the session generation it is
 *	about.  Runs from a work item.
 *
 * The unit layer calls nothing above it by name: the module entry wires
 * the ABI and the sessions in here (ete_unit_set_hooks()).
 */
struct ete_unit_hooks {
	int (*added)(struct ete_unit *u);
	void (*removing)(struct ete_unit *u);
	void (*error)(struct ete_unit *u, int err, unsigned long gen);
};

void ete_unit_set_hooks(const struct ete_unit_hooks *hooks);
void ete_unit_report_error(struct ete_unit *u, int err, unsigned long gen);
struct ete_unit *ete_unit_create(struct device *parent, int cpu,
				 const struct ete_access *acc,
				 bool overridden);
int ete_unit_publish(struct ete_unit *u);
void ete_unit_unpublish(struct ete_unit *u);
void ete_unit_destroy(struct ete_unit *u);

/* ------------------------------------------------------------------------
 * Sessions
 */

struct ete_unit *ete_unit_of(int cpu);
struct ete_unit *ete_unit_of_hotplug(int cpu);
int ete_session_register_unit(struct ete_unit *u);
int ete_session_stop_cpu(struct ete_unit *u);

/**
 * struct ete_sink - a registered sink (sink.c)
 * @node: in the list of sinks, under ete_mutex
 * @ops: its callbacks
 * @priv: their private data
 */
struct ete_sink {
	struct list_head node;
	const struct ete_sink_ops *ops;
	void *priv;
};

struct ete_sink *ete_sink_find(int cpu, const struct ete_sink_ops *only);
u64 ete_sink_trfcr(struct ete_unit *u, u64 trfcr);
void ete_session_unregister_unit(struct ete_unit *u);
const char *ete_session_owner(const struct ete_unit *u);
int ete_session_sysfs_enable(struct ete_unit *u, bool on);
void ete_session_handle_error(struct ete_unit *u, int err,
			      unsigned long gen);

/* ------------------------------------------------------------------------
 * Power management (pm.c)
 */

u64 ete_pm_restore_value(u32 reg, u64 val);
bool ete_pm_dynamic(const struct ete_image *img, u32 reg);
int ete_pm_save_local(struct ete_unit *u);
int ete_pm_restore_local(struct ete_unit *u);
int ete_pm_init(void);
void ete_pm_exit(void);
extern struct notifier_block ete_pm_cpu_pm_nb;

/* ------------------------------------------------------------------------
 * sysfs and discovery
 */

int ete_configfs_init(void);
void ete_configfs_exit(void);
int ete_sysfs_init(void);
void ete_sysfs_exit(void);
extern const struct attribute_group ete_caps_group;	/* sysfs-regs.c */
extern const struct attribute_group ete_idr_group;
extern const struct attribute_group ete_mgmt_group;
extern const struct attribute_group ete_regs_group;
void ete_regs_group_init(void);
int ete_sysfs_add(struct ete_unit *u);
void ete_sysfs_remove(struct ete_unit *u);

struct resource;

int ete_discover_init(void);
void ete_discover_exit(void);
int ete_discover_bind(struct device *dev, struct resource *res);
void ete_discover_unbind(struct device *dev);
void ete_discover_report_holder(struct device *dev, int cpu);

/* Devicetree (of.c) */
extern const struct of_device_id ete_of_match[];
int ete_of_cpu(struct device *dev);
void ete_of_report_holders(void);

/* ACPI (acpi.c) */
#ifdef CONFIG_ACPI
extern const struct acpi_device_id ete_acpi_match[];
int ete_acpi_cpu(struct device *dev);
int ete_acpi_init(void);
void ete_acpi_exit(void);
void ete_acpi_report_holders(void);
#else
static inline int ete_acpi_cpu(struct device *dev) { return -ENODEV; }
static inline int ete_acpi_init(void) { return 0; }
static inline void ete_acpi_exit(void) { }
static inline void ete_acpi_report_holders(void) { }
#endif

#endif /* _ETE_CORE_H */
