// SPDX-License-Identifier: GPL-2.0
/*
 * Parameters as users write them: groups and instances, parsing, and
 * validated get and set through the table of param-table.c.  Strings are
 * parsed here and nowhere else, for sysfs (sysfs.c) and configfs
 * (configfs.c) alike.  Pure: no register access, no global state; only
 * ete_param_store(), the user's write, looks at the writer's capabilities.
 */

#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ete/param.h>
#include <ete/trbe.h>

static const char * const ete_group_names[ETE_PG_NR] = {
	[ETE_PG_UNIT] = NULL,
	[ETE_PG_ADDR] = "addr",
	[ETE_PG_CNTR] = "cntr",
	[ETE_PG_SS] = "ss",
	[ETE_PG_RS] = "rs",
	[ETE_PG_CTXID] = "ctxid",
	[ETE_PG_VMID] = "vmid",
	[ETE_PG_SEQ] = "seq",
	[ETE_PG_EXTIN] = "extin",
	[ETE_PG_EVENT] = "event",
};

/**
 * ete_param_group_name() - directory name stem of a group
 * @group: the group
 *
 * Context: any context.
 * Return: "addr", "cntr", ...; NULL for the unit's own directory.
 */
const char *ete_param_group_name(enum ete_param_group group)
{
	return group < ETE_PG_NR ? ete_group_names[group] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_group_name);

/**
 * ete_param_group_first() - index of the first instance of a group
 * @group: the group
 *
 * Context: any context.
 * Return: 2 for resource selectors (0 and 1 are fixed), else 0.
 */
unsigned int ete_param_group_first(enum ete_param_group group)
{
	return group == ETE_PG_RS ? 2 : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_group_first);

/**
 * ete_param_group_count() - instances of a group on a unit
 * @caps: the unit's capabilities
 * @group: the group
 *
 * Context: any context.
 * Return: the number of instances (for ETE_PG_RS, one past the last index).
 */
unsigned int ete_param_group_count(const struct ete_caps *caps,
				   enum ete_param_group group)
{
	switch (group) {
	case ETE_PG_UNIT:
		return 1;
	case ETE_PG_ADDR:
		return caps->num_ac;
	case ETE_PG_CNTR:
		return caps->num_cntr;
	case ETE_PG_SS:
		return caps->num_ss;
	case ETE_PG_RS:
		return caps->num_rs;
	case ETE_PG_CTXID:
		return caps->num_cidc;
	case ETE_PG_VMID:
		return caps->num_vmidc;
	case ETE_PG_SEQ:
		return caps->num_seq_states ? 1 : 0;
	case ETE_PG_EXTIN:
		return caps->num_extinsel;
	case ETE_PG_EVENT:
		return caps->num_events;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_group_count);

/**
 * ete_param_visible() - whether a parameter exists on a unit
 * @p: the parameter
 * @caps: the unit's capabilities
 * @idx: instance in its group
 *
 * Context: any context.
 * Return: true if the unit implements instance @idx of @p.
 */
bool ete_param_visible(const struct ete_param *p, const struct ete_caps *caps,
		       unsigned int idx)
{
	enum ete_param_group g = p->group;

	if (idx < ete_param_group_first(g) ||
	    idx >= ete_param_group_count(caps, g))
		return false;
	return !p->visible || p->visible(caps, idx);
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_visible);

/**
 * ete_param_parse() - parse one user value
 * @buf: the text written, optionally ending in a newline; decimal, 0x
 *	hexadecimal or 0 octal (kstrtou64() base 0)
 * @val: the number
 *
 * Context: any context.
 * Return:
 * * 0 on success
 * * -EINVAL if @buf is empty or not a number (a sign included)
 * * -ERANGE if the number does not fit in 64 bits
 */
int ete_param_parse(const char *buf, u64 *val)
{
	if (!buf[0] || buf[0] == '\n')
		return -EINVAL;
	return kstrtou64(buf, 0, val);
}
EXPORT_SYMBOL_GPL(ete_param_parse);

/**
 * ete_param_parse_bool() - parse a 0 or 1 written by the user
 * @buf: the text written, as for ete_param_parse()
 * @on: the value
 *
 * For the files that act (enable, active) rather than store.
 *
 * Context: any context.
 * Return: 0, -EINVAL if not a number, -ERANGE if neither 0 nor 1.
 */
int ete_param_parse_bool(const char *buf, bool *on)
{
	u64 val;
	int ret;

	ret = ete_param_parse(buf, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -ERANGE;
	*on = val;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_parse_bool);

static void *ete_param_ptr(const struct ete_config *cfg,
			   const struct ete_param *p, unsigned int idx)
{
	return (u8 *)cfg + p->offset + idx * p->stride;
}

/**
 * ete_param_get() - current value of a parameter
 * @cfg: the configuration
 * @p: the parameter
 * @idx: instance in its group
 *
 * Context: any context.
 * Return: the value, zero-extended.
 */
u64 ete_param_get(const struct ete_config *cfg, const struct ete_param *p,
		  unsigned int idx)
{
	void *ptr = ete_param_ptr(cfg, p, idx);

	switch (p->size) {
	case 1:
		return *(u8 *)ptr;
	case 2:
		return *(u16 *)ptr;
	case 4:
		return *(u32 *)ptr;
	default:
		return *(u64 *)ptr;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_get);

static void ete_param_put(struct ete_config *cfg, const struct ete_param *p,
			  unsigned int idx, u64 val)
{
	void *ptr = ete_param_ptr(cfg, p, idx);

	switch (p->size) {
	case 1:
		*(u8 *)ptr = val;
		break;
	case 2:
		*(u16 *)ptr = val;
		break;
	case 4:
		*(u32 *)ptr = val;
		break;
	default:
		*(u64 *)ptr = val;
		break;
	}
}

/**
 * ete_param_set() - validate and set one parameter
 * @cfg: the configuration, unchanged on error
 * @caps: the unit's capabilities
 * @p: the parameter
 * @idx: instance in its group
 * @val: the new value
 *
 * Context: any context.
 * Return:
 * * 0 on success
 * * -EOPNOTSUPP if the unit does not implement the parameter or value
 * * -ERANGE if @val is out of range for this unit
 * * -EINVAL if @val is meaningless
 */
int ete_param_set(struct ete_config *cfg, const struct ete_caps *caps,
		  const struct ete_param *p, unsigned int idx, u64 val)
{
	int ret;

	if (!ete_param_visible(p, caps, idx))
		return -EOPNOTSUPP;
	/* Does it fit the field at all? */
	if (p->size < 8 && val >> (p->size * 8))
		return -ERANGE;
	ret = p->check(caps, cfg, idx, val);
	if (ret)
		return ret;
	ete_param_put(cfg, p, idx, val);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_set);

/*
 * Whether @val of @p asks to trace the kernel: its exception levels in the
 * unit's Non-secure filter, or any Secure exception level.  (A session
 * started without CAP_PERFMON also filters the kernel's levels out of what
 * the configuration says, ete_config_to_image().)
 */
static bool ete_param_asks_kernel(const struct ete_param *p, u64 val)
{
	if (p->group != ETE_PG_UNIT)
		return false;
	if (p->offset == offsetof(struct ete_config, el_ns))
		return val & (ETE_EL1 | ETE_EL2);
	if (p->offset == offsetof(struct ete_config, el_s))
		return val;
	return false;
}

/**
 * ete_param_store() - parse, validate and set one parameter
 * @cfg: the configuration, unchanged on error
 * @caps: the unit's capabilities
 * @p: the parameter
 * @idx: instance in its group
 * @buf: the user's text
 *
 * The user's write, from sysfs or configfs: file permissions decided who
 * may write at all; tracing the kernel's exception levels (el_ns with EL1
 * or EL2, any el_s) also needs CAP_PERFMON or CAP_SYS_ADMIN.
 *
 * Context: process context, on behalf of the writer.
 * Return: 0, -EPERM if @buf asks to trace the kernel and the writer may
 * not, or the errors of ete_param_parse() and ete_param_set().
 */
int ete_param_store(struct ete_config *cfg, const struct ete_caps *caps,
		    const struct ete_param *p, unsigned int idx,
		    const char *buf)
{
	u64 val;
	int ret;

	ret = ete_param_parse(buf, &val);
	if (ret)
		return ret;
	if (ete_param_asks_kernel(p, val) && !perfmon_capable())
		return -EPERM;
	return ete_param_set(cfg, caps, p, idx, val);
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_store);

/**
 * ete_param_format() - format a parameter's value, with a newline
 * @cfg: the configuration
 * @p: the parameter
 * @idx: instance in its group
 * @buf: output
 * @len: size of @buf
 *
 * Context: any context.
 * Return: the number of characters written.
 */
int ete_param_format(const struct ete_config *cfg, const struct ete_param *p,
		     unsigned int idx, char *buf, size_t len)
{
	u64 val = ete_param_get(cfg, p, idx);

	if (p->kind == ETE_PK_HEX)
		return scnprintf(buf, len, "%#llx\n", val);
	return scnprintf(buf, len, "%llu\n", val);
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_format);

/**
 * ete_param_secret() - whether a parameter's value is kept from readers
 * @p: the parameter
 *
 * An address comparator's value may be a kernel address that someone with
 * the privilege wrote (KASLR): like /proc/kallsyms, it is shown only
 * through a file whose opener had the privilege kernel tracing needs.
 * The ABI files decide who that is (sysfs.c: the opener's credentials;
 * configfs-files.c: a mode only root opens).
 *
 * Context: any context.
 * Return: true for addr<i>/value.
 */
bool ete_param_secret(const struct ete_param *p)
{
	return p->group == ETE_PG_ADDR && !strcmp(p->name, "value");
}

/**
 * ete_param_show() - a parameter's value for the reader of a file
 * @cfg: the configuration
 * @p: the parameter
 * @idx: instance in its group
 * @buf: output
 * @len: size of @buf
 * @privileged: the file's opener may see the kernel (as the ABI judged)
 *
 * Context: any context.
 * Return: the number of characters written, or -EPERM for a secret value
 * (ete_param_secret()) and @privileged false.
 */
int ete_param_show(const struct ete_config *cfg, const struct ete_param *p,
		   unsigned int idx, char *buf, size_t len, bool privileged)
{
	if (ete_param_secret(p) && !privileged)
		return -EPERM;
	return ete_param_format(cfg, p, idx, buf, len);
}

/**
 * ete_param_group_max() - instances of a group the architecture allows
 * @group: the group
 *
 * What a configfs profile offers, whatever the units implement.
 *
 * Context: any context.
 * Return: one past the highest instance index.
 */
unsigned int ete_param_group_max(enum ete_param_group group)
{
	static const u8 max[ETE_PG_NR] = {
		[ETE_PG_UNIT] = 1,
		[ETE_PG_ADDR] = ETE_MAX_AC,
		[ETE_PG_CNTR] = ETE_MAX_CNTR,
		[ETE_PG_SS] = ETE_MAX_SS,
		[ETE_PG_RS] = ETE_MAX_RS,
		[ETE_PG_CTXID] = ETE_MAX_CIDC,
		[ETE_PG_VMID] = ETE_MAX_VMIDC,
		[ETE_PG_SEQ] = 1,
		[ETE_PG_EXTIN] = ETE_MAX_EXTINSEL,
		[ETE_PG_EVENT] = ETE_MAX_EVENTS,
	};

	return group < ETE_PG_NR ? max[group] : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_group_max);

/**
 * ete_param_group_dir() - directory name of one instance of a group
 * @group: the group, not ETE_PG_UNIT
 * @idx: the instance
 * @buf: output
 * @len: size of @buf
 *
 * Context: any context.
 * Return: the length written: "addr3", "seq" (one instance only).
 */
int ete_param_group_dir(enum ete_param_group group, unsigned int idx,
			char *buf, size_t len)
{
	if (group == ETE_PG_SEQ)
		return scnprintf(buf, len, "%s", ete_param_group_name(group));
	return scnprintf(buf, len, "%s%u", ete_param_group_name(group), idx);
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_group_dir);

/**
 * ete_param_name() - the path of a parameter below a unit or a profile
 * @p: the parameter
 * @idx: the instance
 * @buf: output
 * @len: size of @buf
 *
 * For messages that name the field that refused a value.
 *
 * Context: any context.
 * Return: the length written: "cycle_count", "addr3/value", "seq/fwd0".
 */
int ete_param_name(const struct ete_param *p, unsigned int idx, char *buf,
		   size_t len)
{
	int n = 0;

	if (p->group != ETE_PG_UNIT) {
		n = ete_param_group_dir(p->group, idx, buf, len);
		n += scnprintf(buf + n, len - n, "/");
	}
	return n + scnprintf(buf + n, len - n, "%s", p->name);
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_name);

static unsigned int ete_param_slot(const struct ete_param *p, unsigned int idx)
{
	return (p - ete_params) * ETE_PARAM_MAX_INST + idx;
}

/**
 * ete_param_overlay_store() - parse, validate and set one overlay value
 * @o: the overlay, unchanged on error
 * @caps: the capabilities to validate against
 * @p: the parameter
 * @idx: instance in its group
 * @buf: the user's text
 *
 * The value is checked as ete_param_store() checks it, against @o's values
 * (other fields of @o matter for some checks, e.g. a comparator's context
 * against its context type), and is then marked as set.
 *
 * Context: any context.
 * Return: 0, or the errors of ete_param_store().
 */
int ete_param_overlay_store(struct ete_param_overlay *o,
			    const struct ete_caps *caps,
			    const struct ete_param *p, unsigned int idx,
			    const char *buf)
{
	int ret;

	if (idx >= ETE_PARAM_MAX_INST)
		return -ERANGE;
	ret = ete_param_store(&o->cfg, caps, p, idx, buf);
	if (ret)
		return ret;
	__set_bit(ete_param_slot(p, idx), o->set);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_overlay_store);

/**
 * ete_param_overlay_apply() - lay an overlay over a unit's configuration
 * @o: the overlay
 * @caps: the unit's capabilities
 * @cfg: the unit's configuration (its defaults, usually); on error, some
 *	values may have been set: the caller discards it
 * @bad: set to the parameter that refused, on error
 * @bad_idx: set to its instance, on error
 *
 * Every value set in @o goes through ete_param_set(), in table order (a
 * comparator's context type before its context, a selector's group before
 * its selection), so a unit gets exactly the checks a sysfs write gets.
 *
 * Context: any context.
 * Return: 0, or the errno of the first value @caps refuses (-EOPNOTSUPP,
 * -ERANGE, -EINVAL).
 */
int ete_param_overlay_apply(const struct ete_param_overlay *o,
			    const struct ete_caps *caps,
			    struct ete_config *cfg,
			    const struct ete_param **bad,
			    unsigned int *bad_idx)
{
	unsigned int slot;
	int ret;

	for_each_set_bit(slot, o->set, ETE_PARAM_MAX * ETE_PARAM_MAX_INST) {
		const struct ete_param *p = &ete_params[slot / ETE_PARAM_MAX_INST];
		unsigned int idx = slot % ETE_PARAM_MAX_INST;

		ret = ete_param_set(cfg, caps, p, idx,
				    ete_param_get(&o->cfg, p, idx));
		if (ret) {
			*bad = p;
			*bad_idx = idx;
			return ret;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_param_overlay_apply);

/* ------------------------------------------------------------------------
 * Names: the sink's modes, and matching a written name
 */

/* TRBLIMITR_EL1.FM and .TM encodings; "" marks the reserved value 2 */
const char * const ete_sink_fill_mode_names[ETE_SINK_MODE_NAMES] = {
	[TRBE_FM_FILL] = "fill",
	[TRBE_FM_WRAP] = "wrap",
	[2] = "",
	[TRBE_FM_CIRCULAR] = "circular",
};
EXPORT_SYMBOL_GPL(ete_sink_fill_mode_names);

const char * const ete_sink_trig_mode_names[ETE_SINK_MODE_NAMES] = {
	[TRBE_TM_STOP] = "stop",
	[TRBE_TM_IRQ] = "irq",
	[2] = "",
	[TRBE_TM_IGNORE] = "ignore",
};
EXPORT_SYMBOL_GPL(ete_sink_trig_mode_names);

/**
 * ete_param_match() - parse a name written by the user
 * @names: the names, indexed by value; "" for values with no name
 * @n: entries of @names
 * @buf: the text written, optionally ending in a newline
 *
 * Context: any context.
 * Return: the value, or -EINVAL if @buf names none.
 */
int ete_param_match(const char * const *names, size_t n, const char *buf)
{
	int i = __sysfs_match_string(names, n, buf);

	if (i < 0 || !*names[i])
		return -EINVAL;
	return i;
}
EXPORT_SYMBOL_GPL(ete_param_match);
