// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs ABI: /sys/class/ete/ete<cpu>/.
 *
 * Strings are parsed here and only here, through the parameter table of
 * param.c; the files of each parameter group (addr<i>/, cntr<i>/, ...)
 * exist only for the resources the unit implements.  Configuration writes
 * are refused with -EBUSY while the unit is enabled and leave the old value
 * on any error.  An address comparator's value is a binary attribute, so
 * that its read judges the file's opener (struct ete_param_bin).  caps/,
 * trcidr/, mgmt/ and regs/ (the registers the last session programmed)
 * are sysfs-regs.c's.
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/sysfs.h>

#include <asm/virt.h>

#include <ete/compat.h>
#include <ete/core.h>
#include <ete/param.h>
#include <ete/regs.h>
#include <ete/sink.h>

static struct class *ete_class;

/* ------------------------------------------------------------------------
 * Unit files: cpu, enable, reset, status, kernel_el
 */

static ssize_t cpu_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", u->cpu);
}
static DEVICE_ATTR_RO(cpu);

static ssize_t enable_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(u->enabled));
}

static ssize_t enable_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	bool on;
	int ret;

	ret = ete_param_parse_bool(buf, &on);
	if (!ret)
		ret = ete_session_sysfs_enable(u, on);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(enable);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	u64 val;
	int ret;

	ret = ete_param_parse(buf, &val);
	if (ret)
		return ret;
	if (val != 1)
		return val ? -ERANGE : -EINVAL;
	mutex_lock(&ete_mutex);
	if (u->sess) {
		ret = -EBUSY;
	} else {
		ete_config_defaults_cpu(&u->cfg, &u->caps, u->cpu);
		ete_unit_set_error(u, 0, NULL);
	}
	mutex_unlock(&ete_mutex);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(reset);

/* The errno names "status" may report (CONFIG_SYMBOLIC_ERRNAME may be off) */
static const char *ete_errname(int err)
{
	switch (-err) {
	case ETIMEDOUT:
		return "-ETIMEDOUT";
	case ENODEV:
		return "-ENODEV";
	case EBUSY:
		return "-EBUSY";
	case ENXIO:
		return "-ENXIO";
	case EIO:
		return "-EIO";
	case EINVAL:
		return "-EINVAL";
	case ERANGE:
		return "-ERANGE";
	case EOPNOTSUPP:
		return "-EOPNOTSUPP";
	case ENOMEM:
		return "-ENOMEM";
	default:
		return NULL;
	}
}

/* Who lacked the privilege when a session's kernel levels were filtered */
static const char *ete_filtered_who(u8 filtered)
{
	switch (filtered) {
	case ETE_FILTERED_STARTER:
		return "the session's starter";
	case ETE_FILTERED_READER:
		return "the trace buffer's opener";
	default:
		return "the session's starter and the trace buffer's opener";
	}
}

static ssize_t status_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct ete_unit *u = dev_get_drvdata(dev);
	const char *owner;
	int len;

	mutex_lock(&ete_mutex);
	owner = ete_session_owner(u);
	len = sysfs_emit(buf, "state: %s\n", u->enabled ? "enabled" : "disabled");
	len += sysfs_emit_at(buf, len, "owner: %s\n", owner ? owner : "none");
	len += sysfs_emit_at(buf, len, "sink: %s\n",
			     u->sink ? u->sink->name : "none");
	len += sysfs_emit_at(buf, len, "trf: %s\n", u->has_trf ? "yes" :
			     "no (FEAT_TRF absent: filtering with TRCVICTLR only)");
	if (owner && !u->img.kernel_filtered)
		len += sysfs_emit_at(buf, len, "kernel: traced if selected\n");
	else if (owner)
		len += sysfs_emit_at(buf, len,
				     "kernel: filtered out (%s without CAP_PERFMON or CAP_SYS_ADMIN)\n",
				     ete_filtered_who(u->img.kernel_filtered));
	if (u->err && ete_errname(u->err))
		len += sysfs_emit_at(buf, len, "last_error: %s (%s)\n",
				     ete_errname(u->err), u->err_msg);
	else if (u->err)
		len += sysfs_emit_at(buf, len, "last_error: %d (%s)\n",
				     u->err, u->err_msg);
	else
		len += sysfs_emit_at(buf, len, "last_error: none\n");
	mutex_unlock(&ete_mutex);
	return len;
}
static DEVICE_ATTR_RO(status);

/*
 * The exception level the kernel runs at: 2 with VHE (the kernel at EL2,
 * as on Armv9 server distributions), else 1.  A tracer that means "the
 * kernel" selects this EL in el_ns.
 */
static ssize_t kernel_el_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", is_kernel_in_hyp_mode() ? 2 : 1);
}
static DEVICE_ATTR_RO(kernel_el);

/* ------------------------------------------------------------------------
 * Parameter files, one per (parameter, instance), made at probe
 */

/**
 * struct ete_param_attr - a sysfs file of one parameter instance
 * @attr: the attribute
 * @p: the parameter
 * @idx: the instance in its group
 */
struct ete_param_attr {
	struct device_attribute attr;
	const struct ete_param *p;
	unsigned int idx;
};

/* A parameter's new value, from the user's text.  Under ete_mutex. */
static int ete_param_write(struct ete_unit *u, const struct ete_param *p,
			   unsigned int idx, const char *buf)
{
	if (u->sess)
		return -EBUSY;
	return ete_param_store(&u->cfg, &u->caps, p, idx, buf);
}

static ssize_t ete_param_attr_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct ete_param_attr *pa = container_of(attr, struct ete_param_attr,
						 attr);
	struct ete_unit *u = dev_get_drvdata(dev);
	int len;

	mutex_lock(&ete_mutex);
	len = ete_param_show(&u->cfg, pa->p, pa->idx, buf, PAGE_SIZE, false);
	mutex_unlock(&ete_mutex);
	return len;
}

static ssize_t ete_param_attr_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct ete_param_attr *pa = container_of(attr, struct ete_param_attr,
						 attr);
	struct ete_unit *u = dev_get_drvdata(dev);
	int ret;

	mutex_lock(&ete_mutex);
	ret = ete_param_write(u, pa->p, pa->idx, buf);
	mutex_unlock(&ete_mutex);
	return ret ? ret : count;
}

/**
 * struct ete_param_bin - the sysfs file of a secret parameter instance
 * @attr: a binary attribute: unlike show(), its read() is given the open
 *	file, and so the credentials of whoever opened it
 * @p: the parameter (ete_param_secret())
 * @idx: the instance in its group
 *
 * An address comparator's value is shown only through a file opened with
 * CAP_PERFMON or CAP_SYS_ADMIN (ete_file_may_trace_kernel()), as
 * /proc/kallsyms judges its opener: a process that has the privilege and
 * reads a file someone without it opened (a set-user-ID program reading a
 * descriptor it was handed) shows nothing.  The file reads and writes as
 * the other parameter files do.
 */
struct ete_param_bin {
	struct bin_attribute attr;
	const struct ete_param *p;
	unsigned int idx;
};

static ssize_t ete_param_bin_read(struct file *file, struct kobject *kobj,
				  ete_compat_bin_attr_t *attr, char *buf,
				  loff_t pos, size_t count)
{
	const struct ete_param_bin *pb = container_of(attr, struct ete_param_bin,
						      attr);
	struct ete_unit *u = dev_get_drvdata(kobj_to_dev(kobj));
	char val[32];
	int len;

	mutex_lock(&ete_mutex);
	len = ete_param_show(&u->cfg, pb->p, pb->idx, val, sizeof(val),
			     ete_file_may_trace_kernel(file));
	mutex_unlock(&ete_mutex);
	if (len < 0)
		return len;
	return memory_read_from_buffer(buf, count, &pos, val, len);
}

/* As a store(): each write() is one whole value, the position ignored */
static ssize_t ete_param_bin_write(struct file *file, struct kobject *kobj,
				   ete_compat_bin_attr_t *attr, char *buf,
				   loff_t pos, size_t count)
{
	const struct ete_param_bin *pb = container_of(attr, struct ete_param_bin,
						      attr);
	struct ete_unit *u = dev_get_drvdata(kobj_to_dev(kobj));
	int ret;

	mutex_lock(&ete_mutex);
	ret = ete_param_write(u, pb->p, pb->idx, buf);
	mutex_unlock(&ete_mutex);
	return ret ? ret : count;
}

/* ------------------------------------------------------------------------
 * Building a unit's groups
 */

#define ETE_BASE_ATTRS		5
#define ETE_MAX_GROUPS		100
#define ETE_GROUP_NAME_LEN	12

/**
 * struct ete_sysfs_mem - what a unit's sysfs directory is made of
 * @groups: one per directory
 * @group_ptrs: NULL-terminated, for device_create_with_groups()
 * @names: directory names (addr0, ...)
 * @pattrs: the parameter files
 * @pbins: the secret parameters' files
 * @slots: attribute pointers of every group, each run NULL-terminated
 * @bslots: binary attribute pointers, a NULL-terminated run per group
 *	that has any
 */
struct ete_sysfs_mem {
	struct attribute_group groups[ETE_MAX_GROUPS];
	const struct attribute_group *group_ptrs[ETE_MAX_GROUPS + 5];
	char names[ETE_MAX_GROUPS][ETE_GROUP_NAME_LEN];
	struct ete_param_attr *pattrs;
	struct ete_param_bin *pbins;
	struct attribute **slots;
	ete_compat_bin_attr_t **bslots;
};

/**
 * struct ete_sysfs_fill - where the next files of ete_sysfs_fill() go
 * @pa: the next parameter file
 * @pb: the next secret parameter file
 * @slot: the next attribute pointer
 * @bslot: the next binary attribute pointer
 */
struct ete_sysfs_fill {
	struct ete_param_attr *pa;
	struct ete_param_bin *pb;
	struct attribute **slot;
	ete_compat_bin_attr_t **bslot;
};

/* The files of instance @idx of group @g: secret ones (binary) or not */
static unsigned int ete_group_size(const struct ete_caps *caps,
				   enum ete_param_group g, unsigned int idx,
				   bool secret)
{
	unsigned int i, n = 0;

	for (i = 0; i < ete_num_params; i++)
		if (ete_params[i].group == g &&
		    ete_param_secret(&ete_params[i]) == secret &&
		    ete_param_visible(&ete_params[i], caps, idx))
			n++;
	return n;
}

static void ete_sysfs_free(struct ete_sysfs_mem *m)
{
	if (!m)
		return;
	kfree(m->pattrs);
	kfree(m->pbins);
	kfree(m->slots);
	kfree(m->bslots);
	kfree(m);
}

/*
 * Count the files (@n[0] parameter files, @n[1] secret ones) and pointer
 * slots (@n[2] attributes, @n[3] binary attributes) a unit needs
 */
static void ete_sysfs_count(const struct ete_caps *caps, unsigned int n[4])
{
	enum ete_param_group g;
	unsigned int idx, files, bins;

	n[0] = 0;
	n[1] = 0;
	n[2] = ETE_BASE_ATTRS + 1;
	n[3] = 0;
	for (g = 0; g < ETE_PG_NR; g++) {
		for (idx = ete_param_group_first(g);
		     idx < ete_param_group_count(caps, g); idx++) {
			files = ete_group_size(caps, g, idx, false);
			bins = ete_group_size(caps, g, idx, true);
			n[0] += files;
			n[1] += bins;
			n[2] += files + (g == ETE_PG_UNIT ? 0 : 1);
			n[3] += bins ? bins + 1 : 0;
		}
	}
}

static void ete_sysfs_fill_bin(struct ete_sysfs_fill *f,
			       const struct ete_param *p, unsigned int idx)
{
	struct ete_param_bin *b = f->pb++;

	sysfs_bin_attr_init(&b->attr);
	b->attr.attr.name = p->name;
	b->attr.attr.mode = 0644;
	b->attr.read = ete_param_bin_read;
	b->attr.write = ete_param_bin_write;
	b->p = p;
	b->idx = idx;
	*f->bslot++ = &b->attr;
}

/*
 * The files of instance @idx of group @g into @grp, from @f: the
 * attributes, NULL-terminated, and the binary ones if any
 */
static void ete_sysfs_fill(const struct ete_caps *caps,
			   enum ete_param_group g, unsigned int idx,
			   struct ete_sysfs_fill *f, struct attribute_group *grp)
{
	ete_compat_bin_attr_t **bstart = f->bslot;
	unsigned int i;

	for (i = 0; i < ete_num_params; i++) {
		const struct ete_param *p = &ete_params[i];
		struct ete_param_attr *a = f->pa;

		if (p->group != g || !ete_param_visible(p, caps, idx))
			continue;
		if (ete_param_secret(p)) {
			ete_sysfs_fill_bin(f, p, idx);
			continue;
		}
		sysfs_attr_init(&a->attr.attr);
		a->attr.attr.name = p->name;
		a->attr.attr.mode = 0644;
		a->attr.show = ete_param_attr_show;
		a->attr.store = ete_param_attr_store;
		a->p = p;
		a->idx = idx;
		*f->slot++ = &a->attr.attr;
		f->pa++;
	}
	*f->slot++ = NULL;
	if (f->bslot != bstart) {
		*f->bslot++ = NULL;
		grp->bin_attrs = bstart;
	}
}

static struct ete_sysfs_mem *ete_sysfs_alloc(const struct ete_caps *caps)
{
	struct ete_sysfs_mem *m;
	unsigned int n[4];

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	ete_sysfs_count(caps, n);
	m->pattrs = kcalloc(n[0], sizeof(*m->pattrs), GFP_KERNEL);
	m->pbins = kcalloc(n[1], sizeof(*m->pbins), GFP_KERNEL);
	m->slots = kcalloc(n[2], sizeof(*m->slots), GFP_KERNEL);
	m->bslots = kcalloc(n[3], sizeof(*m->bslots), GFP_KERNEL);
	if ((n[0] && !m->pattrs) || (n[1] && !m->pbins) || !m->slots ||
	    (n[3] && !m->bslots)) {
		ete_sysfs_free(m);
		return NULL;
	}
	return m;
}

static struct ete_sysfs_mem *ete_sysfs_build(const struct ete_caps *caps)
{
	struct ete_sysfs_fill f;
	struct ete_sysfs_mem *m;
	unsigned int ng = 0, idx;
	enum ete_param_group g;

	m = ete_sysfs_alloc(caps);
	if (!m)
		return NULL;
	f = (struct ete_sysfs_fill){ m->pattrs, m->pbins, m->slots, m->bslots };

	/* The unit's own directory: fixed files, then unit parameters */
	m->groups[ng].attrs = f.slot;
	*f.slot++ = &dev_attr_cpu.attr;
	*f.slot++ = &dev_attr_enable.attr;
	*f.slot++ = &dev_attr_reset.attr;
	*f.slot++ = &dev_attr_status.attr;
	*f.slot++ = &dev_attr_kernel_el.attr;
	ete_sysfs_fill(caps, ETE_PG_UNIT, 0, &f, &m->groups[ng]);
	m->group_ptrs[ng] = &m->groups[ng];
	ng++;

	for (g = ETE_PG_UNIT + 1; g < ETE_PG_NR; g++) {
		for (idx = ete_param_group_first(g);
		     idx < ete_param_group_count(caps, g); idx++) {
			if (!(ete_group_size(caps, g, idx, false) +
			      ete_group_size(caps, g, idx, true)) ||
			    WARN_ON_ONCE(ng >= ETE_MAX_GROUPS))
				continue;
			m->groups[ng].attrs = f.slot;
			ete_sysfs_fill(caps, g, idx, &f, &m->groups[ng]);
			ete_param_group_dir(g, idx, m->names[ng],
					    ETE_GROUP_NAME_LEN);
			m->groups[ng].name = m->names[ng];
			m->group_ptrs[ng] = &m->groups[ng];
			ng++;
		}
	}
	m->group_ptrs[ng++] = &ete_caps_group;
	m->group_ptrs[ng++] = &ete_idr_group;
	m->group_ptrs[ng++] = &ete_mgmt_group;
	m->group_ptrs[ng++] = &ete_regs_group;
	m->group_ptrs[ng] = NULL;
	return m;
}

/**
 * ete_sysfs_add() - create /sys/class/ete/ete<cpu>
 * @u: the unit, probed
 *
 * Context: process context; sleeps.
 * Return: 0, -ENOMEM, or the error of device_create_with_groups().
 */
int ete_sysfs_add(struct ete_unit *u)
{
	struct ete_sysfs_mem *m;
	struct device *dev;

	m = ete_sysfs_build(&u->caps);
	if (!m)
		return -ENOMEM;
	dev = device_create_with_groups(ete_class, u->parent, MKDEV(0, 0), u,
					m->group_ptrs, "ete%d", u->cpu);
	if (IS_ERR(dev)) {
		ete_sysfs_free(m);
		return PTR_ERR(dev);
	}
	u->dev = dev;
	u->sysfs_mem = m;
	return 0;
}

/**
 * ete_sysfs_remove() - remove a unit's directory
 * @u: the unit
 *
 * Waits for store() and show() calls in progress to finish.
 *
 * Context: process context; sleeps; must not hold ete_mutex.
 */
void ete_sysfs_remove(struct ete_unit *u)
{
	if (!u->dev)
		return;
	device_unregister(u->dev);
	u->dev = NULL;
	ete_sysfs_free(u->sysfs_mem);
	u->sysfs_mem = NULL;
}

/**
 * ete_sysfs_init() - register the "ete" class
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int ete_sysfs_init(void)
{
	ete_regs_group_init();
	ete_class = ete_compat_class_create("ete");
	return PTR_ERR_OR_ZERO(ete_class);
}

/**
 * ete_sysfs_exit() - unregister the "ete" class
 *
 * Context: module exit, after every unit is gone.
 */
void ete_sysfs_exit(void)
{
	class_destroy(ete_class);
}
