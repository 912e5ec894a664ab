/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-visible parameters of a trace unit: one table of field
 * descriptors that drives the sysfs files and the configfs profile items,
 * so that every ABI parses and validates a value the same way.
 */
#ifndef _ETE_PARAM_H
#define _ETE_PARAM_H

#include <linux/bitmap.h>
#include <linux/types.h>
#include <ete/caps.h>
#include <ete/config.h>

/**
 * enum ete_param_group - where a parameter lives
 * @ETE_PG_UNIT: the unit's own directory
 * @ETE_PG_ADDR: addr<i>/, one per single address comparator
 * @ETE_PG_CNTR: cntr<i>/, one per counter
 * @ETE_PG_SS: ss<i>/, one per single-shot comparator control
 * @ETE_PG_RS: rs<i>/, one per programmable resource selector (i >= 2)
 * @ETE_PG_CTXID: ctxid<i>/, one per context ID comparator
 * @ETE_PG_VMID: vmid<i>/, one per VMID comparator
 * @ETE_PG_SEQ: seq/, if the sequencer exists
 * @ETE_PG_EXTIN: extin<i>/, one per external input selector
 * @ETE_PG_EVENT: event<i>/, one per ETEEvent
 * @ETE_PG_NR: number of groups
 */
enum ete_param_group {
	ETE_PG_UNIT,
	ETE_PG_ADDR,
	ETE_PG_CNTR,
	ETE_PG_SS,
	ETE_PG_RS,
	ETE_PG_CTXID,
	ETE_PG_VMID,
	ETE_PG_SEQ,
	ETE_PG_EXTIN,
	ETE_PG_EVENT,
	ETE_PG_NR,
};

/**
 * enum ete_param_kind - how a value is shown
 * @ETE_PK_BOOL: 0 or 1
 * @ETE_PK_UINT: a decimal number
 * @ETE_PK_HEX: a 0x-prefixed number (addresses, masks, event selectors)
 */
enum ete_param_kind {
	ETE_PK_BOOL,
	ETE_PK_UINT,
	ETE_PK_HEX,
};

/**
 * struct ete_param - one field of &struct ete_config as users see it
 * @name: file name
 * @group: &enum ete_param_group
 * @kind: &enum ete_param_kind
 * @size: size in bytes of the field
 * @offset: offset of the field of instance 0 in &struct ete_config
 * @stride: bytes between instances of a group
 * @visible: whether instance @idx exists on a unit with @caps (NULL: always)
 * @check: validate @val for instance @idx of @cfg, the configuration that
 *	would result.  Return 0, -ERANGE (out of range), -EOPNOTSUPP (not
 *	implemented by this unit) or -EINVAL (meaningless).
 */
struct ete_param {
	const char *name;
	u8 group;
	u8 kind;
	u8 size;
	u16 offset;
	u16 stride;
	bool (*visible)(const struct ete_caps *caps, unsigned int idx);
	int (*check)(const struct ete_caps *caps, const struct ete_config *cfg,
		     unsigned int idx, u64 val);
};

/* Bounds of the table, checked by the KUnit suite ete_param_overlay */
#define ETE_PARAM_MAX		96	/* entries of ete_params[] */
#define ETE_PARAM_MAX_INST	ETE_MAX_RS	/* instances of any group */
#define ETE_PARAM_NAME_LEN	32	/* "addr15/context_type" and the like */

/**
 * struct ete_param_overlay - values set by the user, over a unit's defaults
 * @cfg: the values; only those marked in @set mean anything
 * @set: bit (table index * ETE_PARAM_MAX_INST + instance) for each value
 *	the user wrote
 *
 * A configfs profile is an overlay: it applies to units whose capabilities
 * differ, so it keeps what was written, not a whole configuration, and
 * ete_param_overlay_apply() lays it over each unit's defaults.
 */
struct ete_param_overlay {
	struct ete_config cfg;
	DECLARE_BITMAP(set, ETE_PARAM_MAX * ETE_PARAM_MAX_INST);
};

extern const struct ete_param ete_params[];
extern const unsigned int ete_num_params;

const char *ete_param_group_name(enum ete_param_group group);
unsigned int ete_param_group_first(enum ete_param_group group);
unsigned int ete_param_group_count(const struct ete_caps *caps,
				   enum ete_param_group group);
bool ete_param_visible(const struct ete_param *p, const struct ete_caps *caps,
		       unsigned int idx);
int ete_param_parse(const char *buf, u64 *val);
int ete_param_parse_bool(const char *buf, bool *on);
u64 ete_param_get(const struct ete_config *cfg, const struct ete_param *p,
		  unsigned int idx);
int ete_param_set(struct ete_config *cfg, const struct ete_caps *caps,
		  const struct ete_param *p, unsigned int idx, u64 val);
int ete_param_store(struct ete_config *cfg, const struct ete_caps *caps,
		    const struct ete_param *p, unsigned int idx,
		    const char *buf);
int ete_param_format(const struct ete_config *cfg, const struct ete_param *p,
		     unsigned int idx, char *buf, size_t len);
bool ete_param_secret(const struct ete_param *p);
int ete_param_show(const struct ete_config *cfg, const struct ete_param *p,
		   unsigned int idx, char *buf, size_t len, bool privileged);
int ete_param_match(const char * const *names, size_t n, const char *buf);

/* The sink's fill and trigger modes by name, indexed by TRBLIMITR value */
#define ETE_SINK_MODE_NAMES	4
extern const char * const ete_sink_fill_mode_names[ETE_SINK_MODE_NAMES];
extern const char * const ete_sink_trig_mode_names[ETE_SINK_MODE_NAMES];

unsigned int ete_param_group_max(enum ete_param_group group);
int ete_param_group_dir(enum ete_param_group group, unsigned int idx,
			char *buf, size_t len);
int ete_param_name(const struct ete_param *p, unsigned int idx, char *buf,
		   size_t len);
int ete_param_overlay_store(struct ete_param_overlay *o,
			    const struct ete_caps *caps,
			    const struct ete_param *p, unsigned int idx,
			    const char *buf);
int ete_param_overlay_apply(const struct ete_param_overlay *o,
			    const struct ete_caps *caps,
			    struct ete_config *cfg,
			    const struct ete_param **bad,
			    unsigned int *bad_idx);

#endif /* _ETE_PARAM_H */
