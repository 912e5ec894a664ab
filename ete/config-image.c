// SPDX-License-Identifier: GPL-2.0
/*
 * The pure function from configuration to register image, and the
 * privilege filter it applies on the way (the kernel's and the Secure
 * exception levels out of a session whose starter or whose trace's reader
 * may not see them).  No register access and no global state: KUnit
 * checks it directly.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ete/config.h>
#include <ete/regs.h>

/* Register fields (Arm ARM D4.7; the R52+ positions of seed 002 agree) */
#define TRCCONFIGR_RES1		BIT(0)
#define TRCCONFIGR_BB		BIT(3)
#define TRCCONFIGR_CCI		BIT(4)
#define TRCCONFIGR_CID		BIT(6)
#define TRCCONFIGR_VMID		BIT(7)
#define TRCCONFIGR_TS		BIT(11)
#define TRCCONFIGR_RS		BIT(12)
#define TRCCONFIGR_QE		GENMASK(14, 13)
#define TRCCONFIGR_VMIDOPT	BIT(15)
#define TRCEVENTCTL1R_INSTEN	GENMASK(3, 0)
#define TRCEVENTCTL1R_ATB	BIT(11)
#define TRCSTALLCTLR_LEVEL	GENMASK(3, 2)
#define TRCSTALLCTLR_ISTALL	BIT(8)
#define TRCSTALLCTLR_NOOVERFLOW	BIT(13)
#define TRCBBCTLR_RANGE		GENMASK(7, 0)
#define TRCBBCTLR_MODE		BIT(8)
#define TRCQCTLR_RANGE		GENMASK(7, 0)
#define TRCQCTLR_MODE		BIT(8)
#define TRCVICTLR_EVENT		GENMASK(7, 0)
#define TRCVICTLR_SSSTATUS	BIT(9)
#define TRCVICTLR_TRCERR	BIT(11)
#define TRCVICTLR_EXLEVEL_S	GENMASK(19, 16)
#define TRCVICTLR_EXLEVEL_NS	GENMASK(22, 20)
#define TRCVIIECTLR_INCLUDE	GENMASK(7, 0)
#define TRCVIIECTLR_EXCLUDE	GENMASK(23, 16)
#define TRCVISSCTLR_START	GENMASK(15, 0)
#define TRCVISSCTLR_STOP	GENMASK(31, 16)
#define TRCSEQEVR_F		GENMASK(7, 0)
#define TRCSEQEVR_B		GENMASK(15, 8)
#define TRCCNTCTLR_CNTEVENT	GENMASK(7, 0)
#define TRCCNTCTLR_RLDEVENT	GENMASK(15, 8)
#define TRCCNTCTLR_RLDSELF	BIT(16)
#define TRCCNTCTLR_CNTCHAIN	BIT(17)
#define TRCRSCTLR_SELECT	GENMASK(15, 0)
#define TRCRSCTLR_GROUP		GENMASK(19, 16)
#define TRCRSCTLR_INV		BIT(20)
#define TRCRSCTLR_PAIRINV	BIT(21)
#define TRCSSCCR_SAC		GENMASK(15, 0)
#define TRCSSCCR_ARC		GENMASK(23, 16)
#define TRCSSCCR_RST		BIT(24)
#define TRCSSCSR_STATUS		BIT(31)
#define TRCACATR_CONTEXTTYPE	GENMASK(3, 2)
#define TRCACATR_CONTEXT	GENMASK(6, 4)
#define TRCACATR_EXLEVEL_S	GENMASK(11, 8)
#define TRCACATR_EXLEVEL_NS	GENMASK(14, 12)

/* TRFCR_EL1 (TRFCR_EL2 under VHE: E0HTRE, E2TRE at the same places) */
#define TRFCR_E0TRE		BIT(0)
#define TRFCR_EXTRE		BIT(1)
#define TRFCR_EL2_CX		BIT(3)
#define TRFCR_TS_VIRTUAL	BIT_ULL(5)	/* TS = 0b01 */

/**
 * struct ete_els - the exception levels a session traces
 * @ns: Non-secure ELs, bit n = ELn
 * @s: Secure ELs
 * @filtered: 0, or ETE_FILTERED_* when the configuration asked for more
 */
struct ete_els {
	u8 ns;
	u8 s;
	u8 filtered;
};

/*
 * The privilege rule: the kernel's exception levels (EL1, and EL2 where
 * a VHE kernel runs) and every Secure one are traced only when both the
 * session's starter and whoever reads its trace may see them.  Either
 * one without CAP_PERFMON (or CAP_SYS_ADMIN) gets user space (EL0) only;
 * the configuration stays as the user wrote it, the image says what was
 * taken out.
 */
static void ete_image_els(const struct ete_config *cfg,
			  const struct ete_env *env, struct ete_els *el)
{
	const u8 kernel_els = ETE_EL1 | ETE_EL2;

	el->ns = cfg->el_ns;
	el->s = cfg->el_s;
	el->filtered = 0;
	if (env->kernel_allowed && env->reader_allowed)
		return;
	if (!(el->ns & kernel_els) && !el->s && !cfg->trace_errors)
		return;
	el->ns &= ~kernel_els;
	el->s = 0;
	el->filtered = (env->kernel_allowed ? 0 : ETE_FILTERED_STARTER) |
		       (env->reader_allowed ? 0 : ETE_FILTERED_READER);
}

static void img_add(struct ete_image *img, u32 reg, u64 val)
{
	if (img->nr < ETE_IMAGE_MAX)
		img->regs[img->nr++] = (struct ete_reg_val){ reg, val };
}

/* EL masks are "traced" for users and "excluded" in the registers */
static u32 ete_excl(u8 traced, u8 implemented)
{
	return ~traced & implemented;
}

static u64 ete_image_configr(const struct ete_config *cfg,
			     const struct ete_caps *caps,
			     const struct ete_env *env)
{
	u64 v = TRCCONFIGR_RES1;

	if (cfg->branch_broadcast)
		v |= TRCCONFIGR_BB;
	if (cfg->cycle_count)
		v |= TRCCONFIGR_CCI;
	if (cfg->vmid)
		v |= TRCCONFIGR_VMID;
	if (cfg->timestamp)
		v |= TRCCONFIGR_TS;
	if (cfg->return_stack)
		v |= TRCCONFIGR_RS;
	v |= FIELD_PREP(TRCCONFIGR_QE, cfg->q_elements);
	/*
	 * The PID: at EL1 the kernel writes it to CONTEXTIDR_EL1 (CID); a
	 * VHE kernel writes CONTEXTIDR_EL2, traced as the VMID with VMIDOPT.
	 */
	if (cfg->context_id) {
		if (env->kernel_el2 && caps->vmid_bits)
			v |= TRCCONFIGR_VMID |
			     (caps->vmidopt ? TRCCONFIGR_VMIDOPT : 0);
		else if (caps->cid_bits)
			v |= TRCCONFIGR_CID;
	}
	return v;
}

/*
 * The ViewInst filter: the exception levels of @el, and System error
 * exceptions traced even when filtered out (TRCERR) only if @el is the
 * configuration's own, unfiltered
 */
static u64 ete_image_victlr(const struct ete_config *cfg,
			    const struct ete_caps *caps,
			    const struct ete_els *el)
{
	u64 v = FIELD_PREP(TRCVICTLR_EVENT, cfg->viewinst_event);

	if (cfg->ss_status)
		v |= TRCVICTLR_SSSTATUS;
	if (cfg->trace_errors && !el->filtered)
		v |= TRCVICTLR_TRCERR;
	v |= FIELD_PREP(TRCVICTLR_EXLEVEL_S, ete_excl(el->s, caps->exlevel_s));
	v |= FIELD_PREP(TRCVICTLR_EXLEVEL_NS,
			ete_excl(el->ns, caps->exlevel_ns & 7));
	return v;
}

static void ete_image_main(const struct ete_config *cfg,
			   const struct ete_caps *caps,
			   const struct ete_env *env, struct ete_image *img,
			   const struct ete_els *el)
{
	u64 v = 0;
	unsigned int i;

	img_add(img, ETE_TRCCONFIGR, ete_image_configr(cfg, caps, env));
	img_add(img, ETE_TRCAUXCTLR, 0);
	for (i = 0; i < caps->num_events; i++)
		v |= (u64)cfg->event[i] << (8 * i);
	img_add(img, ETE_TRCEVENTCTL0R, v);
	v = cfg->atb_trigger ? TRCEVENTCTL1R_ATB : 0;
	for (i = 0; i < caps->num_events; i++)
		v |= cfg->event_trace[i] ? BIT(i) : 0;
	img_add(img, ETE_TRCEVENTCTL1R, v);
	img_add(img, ETE_TRCRSR, 0);
	if (caps->stallctl)
		img_add(img, ETE_TRCSTALLCTLR,
			FIELD_PREP(TRCSTALLCTLR_LEVEL, cfg->stall_level) |
			(cfg->stall ? TRCSTALLCTLR_ISTALL : 0) |
			(cfg->no_overflow ? TRCSTALLCTLR_NOOVERFLOW : 0));
	if (caps->ts_bits)
		img_add(img, ETE_TRCTSCTLR, cfg->ts_event);
	if (!caps->syncpr_ro)
		img_add(img, ETE_TRCSYNCPR,
			cfg->sync_period ? ilog2(cfg->sync_period) : 0);
	if (caps->cycle_count)
		img_add(img, ETE_TRCCCCTLR, cfg->cc_threshold);
	if (caps->branch_broadcast)
		img_add(img, ETE_TRCBBCTLR,
			FIELD_PREP(TRCBBCTLR_RANGE, cfg->bb_ranges) |
			(cfg->bb_include ? TRCBBCTLR_MODE : 0));
	img_add(img, ETE_TRCTRACEIDR, cfg->trace_id);
	if (caps->qfilt)
		img_add(img, ETE_TRCQCTLR,
			FIELD_PREP(TRCQCTLR_RANGE, cfg->q_ranges) |
			(cfg->q_include ? TRCQCTLR_MODE : 0));
	img_add(img, ETE_TRCVICTLR, ete_image_victlr(cfg, caps, el));
	if (caps->num_arc) {
		img_add(img, ETE_TRCVIIECTLR,
			FIELD_PREP(TRCVIIECTLR_INCLUDE, cfg->include_ranges) |
			FIELD_PREP(TRCVIIECTLR_EXCLUDE, cfg->exclude_ranges));
		img_add(img, ETE_TRCVISSCTLR,
			FIELD_PREP(TRCVISSCTLR_START, cfg->start_addrs) |
			FIELD_PREP(TRCVISSCTLR_STOP, cfg->stop_addrs));
	}
	if (caps->num_pc)
		img_add(img, ETE_TRCVIPCSSCTLR, 0);
}

static void ete_image_seq_cntr(const struct ete_config *cfg,
			       const struct ete_caps *caps,
			       struct ete_image *img)
{
	unsigned int i;

	if (img->live.seq) {
		for (i = 0; i < caps->num_seq_states - 1; i++)
			img_add(img, ETE_TRCSEQEVR_N(i),
				FIELD_PREP(TRCSEQEVR_F, cfg->seq_fwd[i]) |
				FIELD_PREP(TRCSEQEVR_B, cfg->seq_bwd[i]));
		img_add(img, ETE_TRCSEQRSTEVR, cfg->seq_reset);
		img_add(img, ETE_TRCSEQSTR, cfg->seq_state);
	}
	for (i = 0; i < caps->num_extinsel; i++)
		if (img->live.extin & BIT(i))
			img_add(img, ETE_TRCEXTINSELR_N(i), cfg->extin[i]);
	for (i = 0; i < caps->num_cntr; i++) {
		const struct ete_cntr_config *c = &cfg->cntr[i];

		if (!(img->live.cntr & BIT(i)))
			continue;
		img_add(img, ETE_TRCCNTRLDVR_N(i), c->reload);
		img_add(img, ETE_TRCCNTCTLR_N(i),
			FIELD_PREP(TRCCNTCTLR_CNTEVENT, c->count_event) |
			FIELD_PREP(TRCCNTCTLR_RLDEVENT, c->reload_event) |
			(c->reload_self ? TRCCNTCTLR_RLDSELF : 0) |
			((i & 1) && c->chain ? TRCCNTCTLR_CNTCHAIN : 0));
		img_add(img, ETE_TRCCNTVR_N(i), c->value);
	}
}

static void ete_image_resources(const struct ete_config *cfg,
				const struct ete_caps *caps,
				struct ete_image *img)
{
	unsigned int i;

	for (i = 2; i < caps->num_rs; i++) {
		const struct ete_rs_config *r = &cfg->rs[i];

		if (!(img->live.rs & BIT(i)))
			continue;
		img_add(img, ETE_TRCRSCTLR_N(i),
			FIELD_PREP(TRCRSCTLR_SELECT, r->select) |
			FIELD_PREP(TRCRSCTLR_GROUP, r->group) |
			(r->invert ? TRCRSCTLR_INV : 0) |
			(!(i & 1) && r->pair_invert ? TRCRSCTLR_PAIRINV : 0));
	}
	for (i = 0; i < caps->num_ss; i++) {
		const struct ete_ss_config *s = &cfg->ss[i];

		if (!(img->live.ss & BIT(i)))
			continue;
		img_add(img, ETE_TRCSSCCR_N(i),
			FIELD_PREP(TRCSSCCR_SAC, s->sac) |
			FIELD_PREP(TRCSSCCR_ARC, s->arc) |
			(s->multi_shot ? TRCSSCCR_RST : 0));
		img_add(img, ETE_TRCSSCSR_N(i), s->fired ? TRCSSCSR_STATUS : 0);
		if (caps->num_pc)
			img_add(img, ETE_TRCSSPCICR_N(i), s->pc);
	}
}

static u64 ete_ctx_masks(const struct ete_ctx_config *c, unsigned int first,
			 unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	for (i = first; i < min(first + 4, n); i++)
		v |= (u64)c[i].mask << (8 * (i - first));
	return v;
}

static void ete_image_comparators(const struct ete_config *cfg,
				  const struct ete_caps *caps,
				  struct ete_image *img)
{
	const struct ete_live *live = &img->live;
	unsigned int i;

	for (i = 0; i < caps->num_ac; i++) {
		const struct ete_addr_config *a = &cfg->addr[i];

		if (!(live->sac & BIT(i)))
			continue;

		img_add(img, ETE_TRCACVR_N(i), a->value);
		img_add(img, ETE_TRCACATR_N(i),
			FIELD_PREP(TRCACATR_CONTEXTTYPE, a->context_type) |
			FIELD_PREP(TRCACATR_CONTEXT, a->context) |
			FIELD_PREP(TRCACATR_EXLEVEL_S,
				   ete_excl(a->el_s, caps->exlevel_s)) |
			FIELD_PREP(TRCACATR_EXLEVEL_NS,
				   ete_excl(a->el_ns, caps->exlevel_ns & 7)));
	}
	for (i = 0; i < caps->num_cidc; i++)
		if (live->cidc & BIT(i))
			img_add(img, ETE_TRCCIDCVR_N(i), cfg->ctxid[i].value);
	/* a mask register holds comparators 0-3 or 4-7 */
	if (live->cidc & 0x0f)
		img_add(img, ETE_TRCCIDCCTLR0,
			ete_ctx_masks(cfg->ctxid, 0, caps->num_cidc));
	if (live->cidc & 0xf0)
		img_add(img, ETE_TRCCIDCCTLR1,
			ete_ctx_masks(cfg->ctxid, 4, caps->num_cidc));
	for (i = 0; i < caps->num_vmidc; i++)
		if (live->vmidc & BIT(i))
			img_add(img, ETE_TRCVMIDCVR_N(i), cfg->vmidc[i].value);
	if (live->vmidc & 0x0f)
		img_add(img, ETE_TRCVMIDCCTLR0,
			ete_ctx_masks(cfg->vmidc, 0, caps->num_vmidc));
	if (live->vmidc & 0xf0)
		img_add(img, ETE_TRCVMIDCCTLR1,
			ete_ctx_masks(cfg->vmidc, 4, caps->num_vmidc));
}

/**
 * ete_config_to_image() - the registers that implement a configuration
 * @cfg: a configuration that passed ete_config_validate()
 * @caps: the unit's capabilities (only registers that exist are written)
 * @env: the kernel's EL, and who may see the kernel
 * @img: filled
 *
 * Every register of the image is written while the unit is Idle, in the
 * order given, before TRCPRGCTLR.EN is set; that includes the initial
 * resource state (counters, sequencer state, start/stop and single-shot
 * status) that SLMPNV and SXMMLP require before each session.  The image
 * holds the control registers the unit implements, TRCRSR, and of the
 * resource registers (selectors, comparators, counters, sequencer,
 * single-shot controls, external input selectors) only those the
 * configuration references (ete_config_live(), kept in @img->live): the
 * unit never looks at the others.
 *
 * Unless @env says that both the session's starter and the reader of its
 * trace may see the kernel, EL1, EL2 and every Secure EL are left out of
 * TRCVICTLR and TRFCR, and TRCVICTLR.TRCERR too (it traces System error
 * exceptions taken at a filtered level); @img->kernel_filtered says so.
 *
 * Context: any context; pure.
 */
void ete_config_to_image(const struct ete_config *cfg,
			 const struct ete_caps *caps,
			 const struct ete_env *env, struct ete_image *img)
{
	struct ete_els el;

	memset(img, 0, sizeof(*img));
	ete_image_els(cfg, env, &el);
	img->kernel_filtered = el.filtered;
	ete_config_live(cfg, caps, &img->live);
	ete_image_main(cfg, caps, env, img, &el);
	ete_image_seq_cntr(cfg, caps, img);
	ete_image_resources(cfg, caps, img);
	ete_image_comparators(cfg, caps, img);
	if (cfg->sample_window)
		ete_sample_image(cfg, img);

	img->trfcr = TRFCR_TS_VIRTUAL;
	if (el.ns & ETE_EL0)
		img->trfcr |= TRFCR_E0TRE;
	if (el.ns & (env->kernel_el2 ? ETE_EL2 : ETE_EL1))
		img->trfcr |= TRFCR_EXTRE;
	if (env->kernel_el2 && cfg->context_id)
		img->trfcr |= TRFCR_EL2_CX;
}
EXPORT_SYMBOL_IF_KUNIT(ete_config_to_image);

/**
 * ete_image_get() - the value an image gives a register
 * @img: the image
 * @reg: register id
 * @found: set to whether the image writes @reg (may be NULL)
 *
 * Context: any context; pure.
 * Return: the value, or 0 if @reg is not in the image.
 */
u64 ete_image_get(const struct ete_image *img, u32 reg, bool *found)
{
	unsigned int i;

	for (i = 0; i < img->nr; i++) {
		if (img->regs[i].reg == reg) {
			if (found)
				*found = true;
			return img->regs[i].val;
		}
	}
	if (found)
		*found = false;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ete_image_get);

/**
 * ete_image_set() - give a register a value in an image
 * @img: the image
 * @reg: register id
 * @val: the value: replaces the image's, or is added after the others
 *
 * Context: any context; pure.
 */
void ete_image_set(struct ete_image *img, u32 reg, u64 val)
{
	unsigned int i;

	for (i = 0; i < img->nr; i++) {
		if (img->regs[i].reg == reg) {
			img->regs[i].val = val;
			return;
		}
	}
	img_add(img, reg, val);
}
EXPORT_SYMBOL_IF_KUNIT(ete_image_set);
