// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled (strobed) trace: ViewInst on for a window of cycles in every
 * period, from the unit's own resources, so that a unit may trace all the
 * time at a fraction of the data rate (always-on profiling, AutoFDO).
 * Pure: the parameter checks, the conflicts, and the registers the
 * configuration-to-image function adds; KUnit checks them directly.
 *
 * The programming (Arm ARM D4 "Resources"; requirements G.15-G.21):
 *
 * - counter 0 counts every cycle (CNTEVENT selector 1, TRUE, RSXSQT) and
 *   reloads itself (RLDSELF) from window - 1: its counter-at-zero
 *   resource, selector 2, is active one cycle in every window (RYLYPH);
 * - counter 1 counts those cycles (CNTEVENT selector 2) and reloads
 *   itself from period / window - 1: selector 3 is active one cycle in
 *   every period;
 * - the sequencer goes from state 0 to 1 on selector 3 (F0) and back on
 *   selector 2 (B0), so it is in state 1 for one window per period
 *   (RJDPYL);
 * - ViewInst's event is selector 4, sequencer state 1 (RHQHFT).
 *
 * The resource event bus is imprecise (INNHSY): a window starts and ends
 * within a few cycles of the counters' zero, the same few each time.
 * Counters run only while resources are Running (RFHFMP), so cycles in
 * prohibited regions (another task in task mode, an EL not traced by
 * TRFCR) do not count: windows are of the traced code's own cycles.
 */

#include <linux/errno.h>
#include <linux/export.h>
#include <kunit/visibility.h>

#include <ete/config.h>
#include <ete/regs.h>

#define SAMPLE_MAX_COUNT	65536U	/* a 16-bit counter's reload + 1 */
#define RS_SEL_CNTR0_ZERO	2
#define RS_SEL_CNTR1_ZERO	3
#define RS_SEL_STATE1		4
#define RS_GROUP_SHIFT		16
#define CNTCTLR_RLDSELF		BIT(16)
#define SEQEVR_B_SHIFT		8
#define VICTLR_EVENT		0xffULL

/**
 * ete_sample_supported() - whether a unit can sample its trace
 * @caps: the unit's capabilities
 *
 * Context: any context; pure.
 * Return: true with two counters, the sequencer, and resource selectors
 * 2 to 4 (three pairs with the fixed one).
 */
bool ete_sample_supported(const struct ete_caps *caps)
{
	return caps->num_cntr >= 2 && caps->num_seq_states == 4 &&
	       caps->num_rs > RS_SEL_STATE1;
}
EXPORT_SYMBOL_IF_KUNIT(ete_sample_supported);

/**
 * ete_sample_check_window() - check sample_window
 * @caps: the unit's capabilities
 * @cfg: the configuration (unused: the period is checked with it later)
 * @idx: unused
 * @val: cycles per window, or 0 for continuous trace
 *
 * Context: any context; pure.
 * Return: 0, -ERANGE outside 2 to 65536, or -EOPNOTSUPP on a unit that
 * ete_sample_supported() says cannot sample.
 */
int ete_sample_check_window(const struct ete_caps *caps,
			    const struct ete_config *cfg, unsigned int idx,
			    u64 val)
{
	if (!val)
		return 0;
	if (val < 2 || val > SAMPLE_MAX_COUNT)
		return -ERANGE;
	return ete_sample_supported(caps) ? 0 : -EOPNOTSUPP;
}
EXPORT_SYMBOL_IF_KUNIT(ete_sample_check_window);

/**
 * ete_sample_check_period() - check sample_period
 * @caps: the unit's capabilities
 * @cfg: the configuration (unused)
 * @idx: unused
 * @val: cycles from one window's start to the next's, or 0
 *
 * Whether it is a multiple of the window is ete_sample_conflict()'s
 * question, asked when a session starts: the two files may be written in
 * either order.
 *
 * Context: any context; pure.
 * Return: 0, -ERANGE above 65536 windows of 65536 cycles or below 4, or
 * -EOPNOTSUPP as for the window.
 */
int ete_sample_check_period(const struct ete_caps *caps,
			    const struct ete_config *cfg, unsigned int idx,
			    u64 val)
{
	if (!val)
		return 0;
	if (val < 4 || val > (u64)SAMPLE_MAX_COUNT * SAMPLE_MAX_COUNT)
		return -ERANGE;
	return ete_sample_supported(caps) ? 0 : -EOPNOTSUPP;
}
EXPORT_SYMBOL_IF_KUNIT(ete_sample_check_period);

static const char ete_why_sample_period[] =
	"sample_period must be 2 to 65536 times sample_window";
static const char ete_why_sample_no_window[] =
	"sample_period is set but sample_window is 0";
static const char ete_why_sample_busy[] =
	"sampling takes counters 0-1, selectors 2-4, sequencer, viewinst_event";

/* Whether the configuration programs anything sampling takes over */
static bool ete_sample_resources_used(const struct ete_config *cfg)
{
	unsigned int i;

	if (cfg->viewinst_event != ETE_EVENT_TRUE || cfg->seq_reset ||
	    cfg->seq_state)
		return true;
	for (i = 0; i < ETE_MAX_SEQ_STATES - 1; i++)
		if (cfg->seq_fwd[i] || cfg->seq_bwd[i])
			return true;
	for (i = 0; i < 2; i++)
		if (cfg->cntr[i].count_event || cfg->cntr[i].reload_event ||
		    cfg->cntr[i].chain)
			return true;
	for (i = RS_SEL_CNTR0_ZERO; i <= RS_SEL_STATE1; i++)
		if (cfg->rs[i].select || cfg->rs[i].invert ||
		    cfg->rs[i].pair_invert)
			return true;
	return false;
}

/**
 * ete_sample_conflict() - what is wrong with a configuration's sampling
 * @cfg: the configuration
 *
 * The period must be a whole number of windows, 2 to 65536 of them (the
 * second counter counts windows); the resources sampling programs must be
 * the configuration's defaults, so that nothing the user set is silently
 * replaced.
 *
 * Context: any context; pure.
 * Return: NULL, or the reason (a string literal).
 */
const char *ete_sample_conflict(const struct ete_config *cfg)
{
	u64 ratio;

	if (!cfg->sample_window)
		return cfg->sample_period ? ete_why_sample_no_window : NULL;
	ratio = cfg->sample_period / cfg->sample_window;
	if (cfg->sample_period % cfg->sample_window || ratio < 2 ||
	    ratio > SAMPLE_MAX_COUNT)
		return ete_why_sample_period;
	return ete_sample_resources_used(cfg) ? ete_why_sample_busy : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ete_sample_conflict);

/**
 * ete_sample_image() - add sampling's registers to an image
 * @cfg: a configuration with a sample window that passed
 *	ete_config_validate()
 * @img: its image, every other register already there
 *
 * The counters start at their reload values and the sequencer in state
 * 0: the first window opens one period after the session starts.
 *
 * Context: any context; pure.
 */
void ete_sample_image(const struct ete_config *cfg, struct ete_image *img)
{
	u32 w = cfg->sample_window, n = cfg->sample_period / w;
	u64 vi = ete_image_get(img, ETE_TRCVICTLR, NULL);

	ete_image_set(img, ETE_TRCRSCTLR_N(RS_SEL_CNTR0_ZERO),
		      ETE_RS_GROUP_CNTR_SEQ << RS_GROUP_SHIFT | BIT(0));
	ete_image_set(img, ETE_TRCRSCTLR_N(RS_SEL_CNTR1_ZERO),
		      ETE_RS_GROUP_CNTR_SEQ << RS_GROUP_SHIFT | BIT(1));
	ete_image_set(img, ETE_TRCRSCTLR_N(RS_SEL_STATE1),
		      ETE_RS_GROUP_CNTR_SEQ << RS_GROUP_SHIFT | BIT(4 + 1));
	ete_image_set(img, ETE_TRCCNTRLDVR_N(0), w - 1);
	ete_image_set(img, ETE_TRCCNTCTLR_N(0),
		      CNTCTLR_RLDSELF | ETE_EVENT_TRUE);
	ete_image_set(img, ETE_TRCCNTVR_N(0), w - 1);
	ete_image_set(img, ETE_TRCCNTRLDVR_N(1), n - 1);
	ete_image_set(img, ETE_TRCCNTCTLR_N(1),
		      CNTCTLR_RLDSELF | RS_SEL_CNTR0_ZERO);
	ete_image_set(img, ETE_TRCCNTVR_N(1), n - 1);
	ete_image_set(img, ETE_TRCSEQEVR_N(0), RS_SEL_CNTR1_ZERO |
		      RS_SEL_CNTR0_ZERO << SEQEVR_B_SHIFT);
	ete_image_set(img, ETE_TRCSEQEVR_N(1), 0);
	ete_image_set(img, ETE_TRCSEQEVR_N(2), 0);
	ete_image_set(img, ETE_TRCSEQRSTEVR, 0);
	ete_image_set(img, ETE_TRCSEQSTR, 0);
	ete_image_set(img, ETE_TRCVICTLR, (vi & ~VICTLR_EVENT) | RS_SEL_STATE1);
	img->live.cntr |= BIT(0) | BIT(1);
	img->live.rs |= BIT(RS_SEL_CNTR0_ZERO) | BIT(RS_SEL_CNTR1_ZERO) |
			BIT(RS_SEL_STATE1);
	img->live.seq = true;
}
EXPORT_SYMBOL_IF_KUNIT(ete_sample_image);
