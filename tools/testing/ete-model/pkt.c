// SPDX-License-Identifier: GPL-2.0
/*
 * ETE packet encoder.  Pure functions: each writes one packet at @buf (at
 * least EM_PKT_MAX bytes, or EM_PKT_ASYNC_LEN for A-Sync) and returns its
 * length.  Headers and payload layouts follow the ETE/ETMv4 instruction
 * trace protocol as OpenCSD decodes it (trc_pkt_proc_etmv4i.cpp).
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "pkt.h"

#define EM_HDR_EXTENSION	0x00
#define EM_HDR_TRACE_INFO	0x01
#define EM_HDR_TIMESTAMP	0x02	/* bit 0: cycle count follows */
#define EM_HDR_TRACE_ON		0x04
#define EM_HDR_IGNORE		0x70
#define EM_HDR_CONTEXT		0x81	/* bit 0: payload follows */
#define EM_HDR_EXCEPTION	0x06
#define EM_HDR_CCNT_F1		0x0e	/* bit 0 clear: a count follows */
#define EM_HDR_ADDR_S_IS0	0x95
#define EM_HDR_ADDR_L_32IS0	0x9a
#define EM_HDR_ADDR_L_64IS0	0x9d
#define EM_HDR_Q_S_IS0		0xa5	/* Q: short address IS0, count */
#define EM_HDR_Q_L_32IS0	0xaa	/* Q: long 32-bit address IS0, count */
#define EM_HDR_Q_COUNT		0xac	/* Q: count, Address packet follows */
#define EM_HDR_ATOM_F2		0xd8	/* bits [1:0]: two atoms */
#define EM_HDR_ATOM_F3		0xf8	/* bits [2:0]: three atoms */
#define EM_HDR_ATOM_F1		0xf6	/* bit 0: E */
#define EM_EXT_OVERFLOW		0x05
#define EM_TINFO_INFO		BIT(0)	/* PLCTL: INFO section present */
#define EM_TINFO_CYCT		BIT(3)	/* PLCTL: CYCT section present */

/* Unsigned value in 7-bit groups, least significant first, bit 7 = more */
static unsigned int put_cont(u8 *buf, u32 val)
{
	unsigned int n = 0;

	do {
		buf[n] = val & 0x7f;
		val >>= 7;
		if (val)
			buf[n] |= 0x80;
		n++;
	} while (val);
	return n;
}

/**
 * em_pkt_async() - Alignment Synchronization: eleven 0x00 then 0x80
 * @buf: output
 *
 * Context: any.
 * Return: EM_PKT_ASYNC_LEN.
 */
unsigned int em_pkt_async(u8 *buf)
{
	memset(buf, 0, EM_PKT_ASYNC_LEN - 1);
	buf[EM_PKT_ASYNC_LEN - 1] = 0x80;
	return EM_PKT_ASYNC_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_async);

/**
 * em_pkt_trace_info() - Trace Info with the INFO and, if counting, CYCT
 * @buf: output
 * @cci: cycle counting enabled (INFO.cc_enabled)
 * @cc_threshold: TRCCCCTLR.THRESHOLD, emitted when @cci
 *
 * Context: any.
 * Return: the packet length.
 */
unsigned int em_pkt_trace_info(u8 *buf, bool cci, u32 cc_threshold)
{
	unsigned int n = 0;

	buf[n++] = EM_HDR_TRACE_INFO;
	buf[n++] = EM_TINFO_INFO | (cci ? EM_TINFO_CYCT : 0);
	n += put_cont(buf + n, cci ? 1 : 0);
	if (cci)
		n += put_cont(buf + n, cc_threshold);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_trace_info);

/**
 * em_pkt_trace_on() - Trace On
 * @buf: output
 *
 * Context: any.
 * Return: 1.
 */
unsigned int em_pkt_trace_on(u8 *buf)
{
	buf[0] = EM_HDR_TRACE_ON;
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_trace_on);

/**
 * em_pkt_context() - Context with payload: info byte, VMID, context ID
 * @buf: output
 * @ctx: the context
 *
 * The info byte is EL[1:0], SF[4], NS[5], V[6], C[7]; the VMID (when V)
 * and then the context ID (when C) follow, 4 bytes each, little-endian.
 *
 * Context: any.
 * Return: the packet length.
 */
unsigned int em_pkt_context(u8 *buf, const struct em_pkt_ctx *ctx)
{
	unsigned int n = 0, i;

	buf[n++] = EM_HDR_CONTEXT;
	buf[n++] = (ctx->el & 3) | (ctx->sf ? BIT(4) : 0) |
		   (ctx->ns ? BIT(5) : 0) | (ctx->has_vmid ? BIT(6) : 0) |
		   (ctx->has_cid ? BIT(7) : 0);
	if (ctx->has_vmid)
		for (i = 0; i < 4; i++)
			buf[n++] = ctx->vmid >> (8 * i);
	if (ctx->has_cid)
		for (i = 0; i < 4; i++)
			buf[n++] = ctx->cid >> (8 * i);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_context);

/**
 * em_pkt_addr_l64() - Long Address, 64-bit, instruction set 0 (A64)
 * @buf: output
 * @addr: the address; bits [1:0] are not encoded
 *
 * Payload: addr[8:2], addr[15:9] in 7-bit bytes, then addr[63:16] bytewise.
 *
 * Context: any.
 * Return: 9.
 */
unsigned int em_pkt_addr_l64(u8 *buf, u64 addr)
{
	unsigned int i;

	buf[0] = EM_HDR_ADDR_L_64IS0;
	buf[1] = (addr >> 2) & 0x7f;
	buf[2] = (addr >> 9) & 0x7f;
	for (i = 2; i < 8; i++)
		buf[i + 1] = addr >> (8 * i);
	return 9;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_addr_l64);

/**
 * em_pkt_atom_f1() - Atom format 1: one E or N atom
 * @buf: output
 * @executed: E (true) or N (false)
 *
 * Context: any.
 * Return: 1.
 */
unsigned int em_pkt_atom_f1(u8 *buf, bool executed)
{
	buf[0] = EM_HDR_ATOM_F1 | (executed ? 1 : 0);
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_atom_f1);

/**
 * em_pkt_timestamp() - Timestamp without cycle count
 * @buf: output
 * @ts: the timestamp
 *
 * The value is in 7-bit groups with a continuation bit, least significant
 * first; a ninth byte, when needed, carries bits [63:56] whole.
 *
 * Context: any.
 * Return: the packet length (2 to 10).
 */
unsigned int em_pkt_timestamp(u8 *buf, u64 ts)
{
	unsigned int n = 1, i;

	buf[0] = EM_HDR_TIMESTAMP;
	for (i = 0; i < 8; i++) {
		buf[n] = (ts >> (7 * i)) & 0x7f;
		if (!(ts >> (7 * (i + 1))))
			return n + 1;
		buf[n++] |= 0x80;
	}
	buf[n++] = ts >> 56;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_timestamp);

/**
 * em_pkt_overflow() - Overflow: extension header then 0x05
 * @buf: output
 *
 * Context: any.
 * Return: 2.
 */
unsigned int em_pkt_overflow(u8 *buf)
{
	buf[0] = EM_HDR_EXTENSION;
	buf[1] = EM_EXT_OVERFLOW;
	return 2;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_overflow);

/**
 * em_pkt_ignore() - Ignore, used to pad to the TRBE write alignment
 * @buf: output
 *
 * Context: any.
 * Return: 1.
 */
unsigned int em_pkt_ignore(u8 *buf)
{
	buf[0] = EM_HDR_IGNORE;
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_ignore);

/**
 * em_pkt_atoms() - Atom format 1, 2 or 3: one to three E/N atoms
 * @buf: output
 * @bits: the atoms, oldest in bit 0, 1 = E
 * @n: how many (1 to 3)
 *
 * Context: any.
 * Return: 1.
 */
unsigned int em_pkt_atoms(u8 *buf, u8 bits, unsigned int n)
{
	switch (n) {
	case 1:
		buf[0] = EM_HDR_ATOM_F1 | (bits & 1);
		break;
	case 2:
		buf[0] = EM_HDR_ATOM_F2 | (bits & 3);
		break;
	default:
		buf[0] = EM_HDR_ATOM_F3 | (bits & 7);
		break;
	}
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_atoms);

/**
 * em_pkt_addr_short() - Short Address, instruction set 0
 * @buf: output
 * @addr: the address
 * @bytes: 1 (replaces bits [8:2] of the last address) or 2 ([16:2])
 *
 * Context: any.
 * Return: @bytes + 1.
 */
unsigned int em_pkt_addr_short(u8 *buf, u64 addr, unsigned int bytes)
{
	buf[0] = EM_HDR_ADDR_S_IS0;
	buf[1] = (addr >> 2) & 0x7f;
	if (bytes == 1)
		return 2;
	buf[1] |= 0x80;
	buf[2] = addr >> 9;
	return 3;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_addr_short);

/**
 * em_pkt_addr_l32() - Long Address, 32-bit, instruction set 0: replaces
 *	bits [31:2] of the last address
 * @buf: output
 * @addr: the address
 *
 * Context: any.
 * Return: 5.
 */
unsigned int em_pkt_addr_l32(u8 *buf, u64 addr)
{
	buf[0] = EM_HDR_ADDR_L_32IS0;
	buf[1] = (addr >> 2) & 0x7f;
	buf[2] = (addr >> 9) & 0x7f;
	buf[3] = addr >> 16;
	buf[4] = addr >> 24;
	return 5;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_addr_l32);

/**
 * em_pkt_exception() - Exception, the preferred return address follows
 * @buf: output
 * @type: exception TYPE (EM_EXC_*)
 *
 * Byte 1 is E0 (bit 0, set: an address follows that is not a branch
 * target), TYPE[4:0] (bits [5:1]), E1 (bit 6) and no continuation.
 *
 * Context: any.
 * Return: 2.
 */
unsigned int em_pkt_exception(u8 *buf, unsigned int type)
{
	buf[0] = EM_HDR_EXCEPTION;
	buf[1] = ((type & 0x1f) << 1) | 1;
	return 2;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_exception);

/**
 * em_pkt_cycle_count() - Cycle Count format 1 with a count
 * @buf: output
 * @commit: a COMMIT field of 0 precedes the count (TRCIDR0.COMMOPT 0)
 * @count: cycles above the threshold, at most 21 bits
 *
 * Context: any.
 * Return: the packet length.
 */
unsigned int em_pkt_cycle_count(u8 *buf, bool commit, u32 count)
{
	unsigned int n = 0;

	buf[n++] = EM_HDR_CCNT_F1;
	if (commit)
		buf[n++] = 0;
	n += put_cont(buf + n, count & GENMASK(20, 0));
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_cycle_count);

/*
 * Q packets (header 0b1010xxxx; OpenCSD iPktQ()): the address, when the
 * packet carries one, comes first, in the layout of the Address packet of
 * the same form; then the instruction count as an unsigned value in 7-bit
 * groups (extractContField(): at most five bytes).  The forms that name an
 * entry of the address history (0xa0-0xa2) and the one without a count
 * (0xaf, only with TRCCONFIGR.QE 0b11) are not generated.
 */

/**
 * em_pkt_q() - Q with an instruction count, no address: the Target
 *	Address of the Q element is the Address packet that follows
 * @buf: output
 * @count: instructions since the last P0 element
 *
 * Context: any.
 * Return: the packet length.
 */
unsigned int em_pkt_q(u8 *buf, u32 count)
{
	buf[0] = EM_HDR_Q_COUNT;
	return 1 + put_cont(buf + 1, count);
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_q);

/**
 * em_pkt_q_short() - Q with a Short Address, instruction set 0, and count
 * @buf: output
 * @count: instructions since the last P0 element
 * @addr: the Target Address
 * @bytes: 1 (replaces bits [8:2] of the last address) or 2 ([16:2])
 *
 * Context: any.
 * Return: the packet length.
 */
unsigned int em_pkt_q_short(u8 *buf, u32 count, u64 addr, unsigned int bytes)
{
	unsigned int n = em_pkt_addr_short(buf, addr, bytes);

	buf[0] = EM_HDR_Q_S_IS0;
	return n + put_cont(buf + n, count);
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_q_short);

/**
 * em_pkt_q_l32() - Q with a Long 32-bit Address, instruction set 0, and
 *	count: the address replaces bits [31:2] of the last address
 * @buf: output
 * @count: instructions since the last P0 element
 * @addr: the Target Address
 *
 * Context: any.
 * Return: the packet length.
 */
unsigned int em_pkt_q_l32(u8 *buf, u32 count, u64 addr)
{
	unsigned int n = em_pkt_addr_l32(buf, addr);

	buf[0] = EM_HDR_Q_L_32IS0;
	return n + put_cont(buf + n, count);
}
EXPORT_SYMBOL_IF_KUNIT(em_pkt_q_l32);
