/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ETE packet encoder: the byte sequences of the trace packets the model
 * emits, as ETE and ETMv4 define them (checked against OpenCSD's packet
 * processor, decoder/source/etmv4/trc_pkt_proc_etmv4i.cpp).
 */
#ifndef _ETE_MODEL_PKT_H
#define _ETE_MODEL_PKT_H

#include <linux/types.h>

/* The longest packet the encoder makes (Context with VMID and CID) */
#define EM_PKT_MAX		16
#define EM_PKT_ASYNC_LEN	12

/* Exception packet TYPE values (ETMv4/ETE) */
#define EM_EXC_CALL		0x2	/* SVC, HVC, SMC */

/**
 * struct em_pkt_ctx - what a Context packet says
 * @el: exception level
 * @sf: AArch64
 * @ns: Non-secure
 * @has_vmid: carries a 32-bit VMID
 * @has_cid: carries a 32-bit context ID
 * @vmid: virtual context ID (CONTEXTIDR_EL2)
 * @cid: context ID (CONTEXTIDR_EL1)
 */
struct em_pkt_ctx {
	u8 el;
	bool sf;
	bool ns;
	bool has_vmid;
	bool has_cid;
	u32 vmid;
	u32 cid;
};

unsigned int em_pkt_async(u8 *buf);
unsigned int em_pkt_trace_info(u8 *buf, bool cci, u32 cc_threshold);
unsigned int em_pkt_trace_on(u8 *buf);
unsigned int em_pkt_context(u8 *buf, const struct em_pkt_ctx *ctx);
unsigned int em_pkt_addr_l64(u8 *buf, u64 addr);
unsigned int em_pkt_atom_f1(u8 *buf, bool executed);
unsigned int em_pkt_atoms(u8 *buf, u8 bits, unsigned int n);
unsigned int em_pkt_addr_short(u8 *buf, u64 addr, unsigned int bytes);
unsigned int em_pkt_addr_l32(u8 *buf, u64 addr);
unsigned int em_pkt_exception(u8 *buf, unsigned int type);
unsigned int em_pkt_cycle_count(u8 *buf, bool commit, u32 count);
unsigned int em_pkt_timestamp(u8 *buf, u64 ts);
unsigned int em_pkt_overflow(u8 *buf);
unsigned int em_pkt_ignore(u8 *buf);
unsigned int em_pkt_q(u8 *buf, u32 count);
unsigned int em_pkt_q_short(u8 *buf, u32 count, u64 addr, unsigned int bytes);
unsigned int em_pkt_q_l32(u8 *buf, u32 count, u64 addr);

#endif /* _ETE_MODEL_PKT_H */
