// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the presets, named option sets for the common uses (etecap(1),
 * PRESETS), and --sample's WINDOW/PERIOD.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "etecap.h"

/*
 * Presets: named option sets for the common uses (etecap(1), PRESETS).
 * They fill only what the command line left unset, wherever --preset is.
 */
static const struct etecap_preset presets[] = {
	/* a window of 5,000 cycles in every 4,096: a few MB a minute */
	{ .name = "autofdo", .el = "user", .mode = "fill",
	  .buffer_size = 16 << 20, .return_stack = 1, .timestamps = 0,
	  .sample_window = 5000, .sample_period = 5000LL * 4096,
	  .what = "user space, 5,000 cycles in every 20,480,000, 16 MiB, fill mode" },
	{ .name = "flight", .el = "all", .mode = "circular",
	  .buffer_size = 4 << 20, .return_stack = 1, .timestamps = 1,
	  .what = "flight recorder: the newest 4 MiB per CPU (circular mode), timestamps" },
	{ .name = "kernel", .el = "kernel", .mode = "fill",
	  .buffer_size = 4 << 20, .return_stack = 1, .timestamps = 1,
	  .what = "the kernel only, timestamps" },
	{ .name = "user", .el = "user", .mode = "fill",
	  .buffer_size = 4 << 20, .return_stack = 1, .timestamps = 1,
	  .what = "user space only, timestamps" },
};

const struct etecap_preset *etecap_find_preset(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

void etecap_apply_preset(struct etecap_opts *o)
{
	const struct etecap_preset *p = o->preset;

	if (!p)
		return;
	if (!o->el_given)
		etecap_parse_el(p->el, &o->el_mask);
	if (!o->mode)
		o->mode = p->mode;
	if (o->buffer_size == ETECAP_UNSET)
		o->buffer_size = p->buffer_size;
	if (o->return_stack == ETECAP_UNSET)
		o->return_stack = p->return_stack;
	if (o->timestamps == ETECAP_UNSET)
		o->timestamps = p->timestamps;
	if (o->sample_window == ETECAP_UNSET && p->sample_window) {
		o->sample_window = p->sample_window;
		o->sample_period = p->sample_period;
	}
}

/*
 * --sample WINDOW/PERIOD: cycles traced in every PERIOD cycles, PERIOD a
 * whole number of windows, 2 to 65536 of them (sample_window and
 * sample_period, Documentation/ABI/testing/sysfs-class-ete).  NULL, or
 * what is wrong.
 */
const char *etecap_parse_sample(const char *arg, struct etecap_opts *o)
{
	unsigned long long w, p;
	char *end;

	errno = 0;
	w = strtoull(arg, &end, 0);
	if (errno || end == arg || *end != '/' || *arg == '-')
		return "--sample is WINDOW/PERIOD, in cycles: 5000/500000";
	arg = end + 1;
	p = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-')
		return "--sample is WINDOW/PERIOD, in cycles: 5000/500000";
	if (w < 2 || w > 65536)
		return "--sample: the window is 2 to 65536 cycles";
	if (p % w || p / w < 2 || p / w > 65536)
		return "--sample: the period is 2 to 65536 whole windows";
	o->sample_window = w;
	o->sample_period = p;
	return NULL;
}
