/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attribute cases of the ETE parameter files, shared by the sysfs test
 * (/sys/class/ete/ete<N>/) and the configfs test (a profile's directory):
 * both ABIs take the same vocabulary through the same parser, so they
 * must accept and refuse the same values.
 */
#ifndef _ETE_ATTR_CASES_H
#define _ETE_ATTR_CASES_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * One attribute: a valid value and where it lands in the model (register,
 * mask, expected field), and a value beyond this unit's capabilities
 * (rich profile: 8 ARCs, 16 SACs, 32 selectors, 4 PE comparators, 32-bit
 * context IDs and VMIDs, EXLEVEL_S = EL0, EL1, EL3) with its errno.
 */
struct attr_case {
	const char *attr;
	const char *valid;
	const char *reg;
	unsigned long long mask;
	unsigned long long want;
	const char *beyond;
	int beyond_err;
};

static const struct attr_case attrs[] = {
	{ "cycle_count", "1", "TRCCONFIGR", 0x10, 0x10, "2", ERANGE },
	{ "cc_threshold", "0x123", "TRCCCCTLR", 0xfff, 0x123, "3", ERANGE },
	{ "timestamp", "1", "TRCCONFIGR", 0x800, 0x800, "2", ERANGE },
	{ "ts_event", "0x85", "TRCTSCTLR", 0xff, 0x85, "0x90", ERANGE },
	{ "branch_broadcast", "1", "TRCCONFIGR", 0x8, 0x8, "2", ERANGE },
	{ "bb_include", "1", "TRCBBCTLR", 0x100, 0x100, "2", ERANGE },
	{ "bb_ranges", "0x81", "TRCBBCTLR", 0xff, 0x81, "0x100", ERANGE },
	{ "return_stack", "1", "TRCCONFIGR", 0x1000, 0x1000, "2", ERANGE },
	{ "context_id", "0", "TRCCONFIGR", 0x40, 0, "2", ERANGE },
	{ "vmid", "1", "TRCCONFIGR", 0x80, 0x80, "2", ERANGE },
	{ "q_elements", "3", "TRCCONFIGR", 0x6000, 0x6000, "2", ERANGE },
	{ "q_include", "1", "TRCQCTLR", 0x100, 0x100, "2", ERANGE },
	{ "q_ranges", "3", "TRCQCTLR", 0xff, 0x3, "0x100", ERANGE },
	{ "stall", "1", "TRCSTALLCTLR", 0x100, 0x100, "2", ERANGE },
	{ "stall_level", "2", "TRCSTALLCTLR", 0xc, 0x8, "4", ERANGE },
	{ "no_overflow", "1", "TRCSTALLCTLR", 0x2100, 0x2100, "2", ERANGE },
	{ "sync_period", "1024", "TRCSYNCPR", 0x1f, 10, "128", ERANGE },
	{ "trace_id", "0x42", "TRCTRACEIDR", 0x7f, 0x42, "0x70", ERANGE },
	{ "el_ns", "1", "TRCVICTLR", 0x700000, 0x600000, "8", ERANGE },
	{ "el_s", "1", "TRCVICTLR", 0xf0000, 0xa0000, "4", EOPNOTSUPP },
	{ "viewinst_event", "0x81", "TRCVICTLR", 0xff, 0x81, "0x20", ERANGE },
	{ "ss_status", "0", "TRCVICTLR", 0x200, 0, "2", ERANGE },
	{ "trace_errors", "1", "TRCVICTLR", 0x800, 0x800, "2", ERANGE },
	{ "include_ranges", "5", "TRCVIIECTLR", 0xff, 5, "0x100", ERANGE },
	{ "exclude_ranges", "0x80", "TRCVIIECTLR", 0xff0000, 0x800000,
	  "0x100", ERANGE },
	{ "start_addrs", "3", "TRCVISSCTLR", 0xffff, 3, "0x10000", ERANGE },
	{ "stop_addrs", "0x8000", "TRCVISSCTLR", 0xffff0000, 0x80000000,
	  "0x10000", ERANGE },
	{ "atb_trigger", "1", "TRCEVENTCTL1R", 0x800, 0x800, "2", ERANGE },
	/* sampled trace: counter 0 reloads every window, 1 every period */
	{ "sample_window", "1000", "TRCCNTRLDVR0", 0xffff, 999, "65537",
	  ERANGE },
	{ "sample_period", "20000", "TRCCNTRLDVR1", 0xffff, 19, "4294967297",
	  ERANGE },
	{ "event0/select", "3", "TRCEVENTCTL0R", 0xff, 3, "0x40", ERANGE },
	{ "event3/select", "0x8f", "TRCEVENTCTL0R", 0xff000000, 0x8f000000,
	  "0x90", ERANGE },
	{ "event2/trace", "1", "TRCEVENTCTL1R", 0x4, 0x4, "2", ERANGE },
	{ "extin1/select", "31", "TRCEXTINSELR1", 0xffff, 31, "32", ERANGE },
	{ "seq/state", "3", "TRCSEQSTR", 0x3, 3, "4", ERANGE },
	{ "seq/reset_event", "0x84", "TRCSEQRSTEVR", 0xff, 0x84, "0x20",
	  ERANGE },
	{ "seq/fwd0", "2", "TRCSEQEVR0", 0xff, 2, "0x91", ERANGE },
	{ "seq/fwd1", "0x1f", "TRCSEQEVR1", 0xff, 0x1f, "0x100", ERANGE },
	{ "seq/fwd2", "0x80", "TRCSEQEVR2", 0xff, 0x80, "0xa0", ERANGE },
	{ "seq/bwd0", "4", "TRCSEQEVR0", 0xff00, 0x400, "0x20", ERANGE },
	{ "seq/bwd1", "0x81", "TRCSEQEVR1", 0xff00, 0x8100, "0x40", ERANGE },
	{ "seq/bwd2", "0x83", "TRCSEQEVR2", 0xff00, 0x8300, "0x93", ERANGE },
	{ "addr5/value", "0xffff800012345678", "TRCACVR5", ~0ULL,
	  0xffff800012345678ULL, "0x10000000000000000", ERANGE },
	{ "addr5/context_type", "1", "TRCACATR5", 0xc, 0x4, "4", ERANGE },
	{ "addr5/context", "7", "TRCACATR5", 0x70, 0x70, "8", ERANGE },
	{ "addr5/el_ns", "1", "TRCACATR5", 0x7000, 0x6000, "8", ERANGE },
	{ "addr5/el_s", "8", "TRCACATR5", 0xf00, 0x300, "4", EOPNOTSUPP },
	{ "cntr2/reload", "0x1234", "TRCCNTRLDVR2", 0xffff, 0x1234,
	  "0x10000", ERANGE },
	{ "cntr2/value", "0x4321", "TRCCNTVR2", 0xffff, 0x4321, "65536",
	  ERANGE },
	{ "cntr2/count_event", "0x85", "TRCCNTCTLR2", 0xff, 0x85, "0x90",
	  ERANGE },
	{ "cntr2/reload_event", "3", "TRCCNTCTLR2", 0xff00, 0x300, "0x20",
	  ERANGE },
	{ "cntr2/reload_self", "1", "TRCCNTCTLR2", 0x10000, 0x10000, "2",
	  ERANGE },
	{ "cntr3/chain", "1", "TRCCNTCTLR3", 0x20000, 0x20000, "2", ERANGE },
	{ "ss6/sac", "0x8001", "TRCSSCCR6", 0xffff, 0x8001, "0x10000",
	  ERANGE },
	{ "ss6/arc", "0x81", "TRCSSCCR6", 0xff0000, 0x810000, "0x100",
	  ERANGE },
	{ "ss6/pc", "0xf", "TRCSSPCICR6", 0xff, 0xf, "0x10", ERANGE },
	{ "ss6/multi_shot", "1", "TRCSSCCR6", 0x1000000, 0x1000000, "2",
	  ERANGE },
	{ "ss6/fired", "1", "TRCSSCSR6", 0x80000000, 0x80000000, "2",
	  ERANGE },
	{ "rs4/group", "2", "TRCRSCTLR4", 0xf0000, 0x20000, "8", ERANGE },
	{ "rs4/select", "0xa", "TRCRSCTLR4", 0xffff, 0xa, "0x10", ERANGE },
	{ "rs5/invert", "1", "TRCRSCTLR5", 0x100000, 0x100000, "2", ERANGE },
	{ "rs4/pair_invert", "1", "TRCRSCTLR4", 0x200000, 0x200000, "2",
	  ERANGE },
	{ "ctxid3/value", "0xdeadbeef", "TRCCIDCVR3", ~0ULL, 0xdeadbeef,
	  "0x100000000", ERANGE },
	{ "ctxid3/mask", "5", "TRCCIDCCTLR0", 0xff000000, 0x05000000, "0x10",
	  ERANGE },
	{ "ctxid6/mask", "3", "TRCCIDCCTLR1", 0xff0000, 0x30000, "0x1f",
	  ERANGE },
	{ "vmid1/value", "0x1234", "TRCVMIDCVR1", ~0ULL, 0x1234,
	  "0x100000000", ERANGE },
	{ "vmid1/mask", "0xf", "TRCVMIDCCTLR0", 0xff00, 0xf00, "0x10",
	  ERANGE },
};

/* Fields a case needs set first (Table D4-25: no-overflow is a stall mode) */
static const struct { const char *attr, *pre, *val; } prereqs[] = {
	{ "no_overflow", "stall", "1" },
	/* a sample period is a whole number of windows (ete/sample.c) */
	{ "sample_window", "sample_period", "20000" },
	{ "sample_period", "sample_window", "1000" },
};

/*
 * A resource's registers are programmed only while something the trace
 * depends on references the resource (the driver's ete_config_live()):
 * the files, in order, that make the resource of case @attr referenced.
 * A selector is named by the ViewInst event; any other resource is
 * selected by resource selector 2, which the ViewInst event names.
 */
struct attr_set {
	const char *file;
	char val[24];
};

#define ATTR_REF_MAX	3

/* @attr is "<prefix><n>/...": n, or -1 */
static inline int attr_index(const char *attr, const char *prefix)
{
	size_t l = strlen(prefix);
	char *end;
	long n;

	if (strncmp(attr, prefix, l) || attr[l] < '0' || attr[l] > '9')
		return -1;
	n = strtol(attr + l, &end, 10);
	return *end == '/' ? (int)n : -1;
}

static inline int attr_reference(const char *attr, struct attr_set *set)
{
	static const struct { const char *prefix; int group; } groups[] = {
		{ "extin", 0 }, { "cntr", 2 }, { "ss", 3 }, { "addr", 4 },
		{ "ctxid", 6 }, { "vmid", 7 },
	};
	unsigned long select = 0;
	int group = -1, n;
	size_t i;

	n = attr_index(attr, "rs");
	if (n >= 0) {
		set[0].file = "viewinst_event";
		snprintf(set[0].val, sizeof(set[0].val), "%d", n);
		return 1;
	}
	if (!strncmp(attr, "seq/", 4)) {
		group = 2;
		select = 1UL << 4;	/* sequencer state 0 */
	}
	for (i = 0; i < ARRAY_SIZE(groups) && group < 0; i++) {
		n = attr_index(attr, groups[i].prefix);
		if (n >= 0) {
			group = groups[i].group;
			select = 1UL << n;
		}
	}
	if (group < 0)
		return 0;
	set[0].file = "rs2/group";
	snprintf(set[0].val, sizeof(set[0].val), "%d", group);
	set[1].file = "rs2/select";
	snprintf(set[1].val, sizeof(set[1].val), "%#lx", select);
	set[2].file = "viewinst_event";
	snprintf(set[2].val, sizeof(set[2].val), "2");
	return 3;
}

/* Malformed values every number file refuses, whatever its range */
static const struct { const char *val; int err; } bad_values[] = {
	{ "\n", EINVAL },			/* empty */
	{ "abc", EINVAL },			/* not a number */
	{ "-1", EINVAL },			/* negative */
	{ "12abc", EINVAL },			/* trailing garbage */
	{ "99999999999999999999999", ERANGE },	/* huge */
};

/* The index in prereqs[] of the prerequisite of case @attr, or -1 */
static inline int prereq_of(const char *attr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prereqs); i++)
		if (!strcmp(attr, prereqs[i].attr))
			return (int)i;
	return -1;
}

#endif /* _ETE_ATTR_CASES_H */
