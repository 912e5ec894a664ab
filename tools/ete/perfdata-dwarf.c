// SPDX-License-Identifier: GPL-2.0
/*
 * perfdata-dwarf.c - minimal DWARF 4 for an image's ELF file
 * (perfdata-elf.c), so that tools which take functions from the debug
 * information, not the symbol table, see the image's functions: e.g.
 * llvm-profgen, which makes an AutoFDO profile of perf script's branch
 * stacks from the DW_TAG_subprogram ranges and symbolizes each address
 * by the line table.
 *
 * One compile unit "ete-image.s" over the whole image; a subprogram
 * (name, decl_line 1, low_pc, high_pc) per symbol of nonzero size inside
 * the image; and a line program in which the instruction at byte offset
 * k of a function is line 3 + k / 4: a profile's line offsets (line -
 * decl_line) are the instruction's index within the function plus 2, as
 * if the function were written in C, its name on line 1, its opening
 * brace on line 2 and a statement per instruction after them (the test
 * suite compiles such a rendering of the model's program with the
 * profile: tools/testing/qemu/afdo/prog-user.c).
 */
#include <errno.h>
#include <string.h>

#include "perfdata-int.h"

enum {
	DW_TAG_compile_unit = 0x11,
	DW_TAG_subprogram = 0x2e,
	DW_AT_name = 0x03,
	DW_AT_stmt_list = 0x10,
	DW_AT_low_pc = 0x11,
	DW_AT_high_pc = 0x12,
	DW_AT_language = 0x13,
	DW_AT_producer = 0x25,
	DW_AT_decl_file = 0x3a,
	DW_AT_decl_line = 0x3b,
	DW_AT_external = 0x3f,
	DW_FORM_addr = 0x01,
	DW_FORM_data1 = 0x0b,
	DW_FORM_data2 = 0x05,
	DW_FORM_data8 = 0x07,
	DW_FORM_string = 0x08,
	DW_FORM_sec_offset = 0x17,
	DW_FORM_flag_present = 0x19,
	DW_LANG_Mips_Assembler = 0x8001,
	DW_LNS_copy = 1,
	DW_LNS_advance_pc = 2,
	DW_LNS_advance_line = 3,
	DW_LNE_end_sequence = 1,
	DW_LNE_set_address = 2,
};

/* the line program's header: special opcodes from 13, lines -5..8 */
#define LINE_BASE	(-5)
#define LINE_RANGE	14
#define OPCODE_BASE	13

static void put8(struct buf *b, unsigned int v)
{
	unsigned char c = v;

	buf_put(b, &c, 1);
}

/* a DW_FORM_string: @str and its NUL */
static void put_cstr(struct buf *b, const char *str)
{
	buf_put(b, str, strlen(str) + 1);
}

static void put_uleb(struct buf *b, uint64_t v)
{
	do {
		unsigned int c = v & 0x7f;

		v >>= 7;
		put8(b, c | (v ? 0x80 : 0));
	} while (v);
}

/* an abbreviation: @code, @tag, @children, then @n attribute/form pairs */
static void put_abbrev(struct buf *b, unsigned int code, unsigned int tag,
		       bool children, const uint16_t *spec, size_t n)
{
	size_t i;

	put_uleb(b, code);
	put_uleb(b, tag);
	put8(b, children);
	for (i = 0; i < n; i++)
		put_uleb(b, spec[i]);
	put8(b, 0);
	put8(b, 0);
}

/* the symbol @sy of @im if it has code in @im: its size, else 0 */
static uint64_t sym_len(const struct image *im, const struct sym *sy)
{
	if (!sy->size || sy->va < im->va || sy->va >= im->va + im->len)
		return 0;
	if (sy->size > im->va + im->len - sy->va)
		return im->va + im->len - sy->va;
	return sy->size;
}

static void put_abbrevs(struct buf *b)
{
	static const uint16_t cu[] = {
		DW_AT_producer, DW_FORM_string,
		DW_AT_language, DW_FORM_data2,
		DW_AT_name, DW_FORM_string,
		DW_AT_stmt_list, DW_FORM_sec_offset,
		DW_AT_low_pc, DW_FORM_addr,
		DW_AT_high_pc, DW_FORM_data8,
	};
	static const uint16_t sub[] = {
		DW_AT_name, DW_FORM_string,
		DW_AT_decl_file, DW_FORM_data1,
		DW_AT_decl_line, DW_FORM_data1,
		DW_AT_external, DW_FORM_flag_present,
		DW_AT_low_pc, DW_FORM_addr,
		DW_AT_high_pc, DW_FORM_data8,
	};

	put_abbrev(b, 1, DW_TAG_compile_unit, true, cu, ARRAY_SIZE(cu));
	put_abbrev(b, 2, DW_TAG_subprogram, false, sub, ARRAY_SIZE(sub));
	put8(b, 0);
}

static void put_info(struct buf *b, const struct image *im)
{
	size_t start = b->len, i;

	buf_put32(b, 0);		/* unit_length: set below */
	buf_put16(b, 4);		/* version */
	buf_put32(b, 0);		/* debug_abbrev_offset */
	put8(b, 8);			/* address_size */
	put_uleb(b, 1);
	put_cstr(b, "ete-decode");
	buf_put16(b, DW_LANG_Mips_Assembler);
	put_cstr(b, "ete-image.s");
	buf_put32(b, 0);		/* stmt_list */
	buf_put64(b, im->va);
	buf_put64(b, im->len);
	for (i = 0; i < im->nsyms; i++) {
		const struct sym *sy = &im->syms[i];
		uint64_t n = sym_len(im, sy);

		if (!n)
			continue;
		put_uleb(b, 2);
		put_cstr(b, sy->name);
		put8(b, 1);		/* decl_file */
		put8(b, 1);		/* decl_line */
		buf_put64(b, sy->va);
		buf_put64(b, n);
	}
	put8(b, 0);			/* the CU's children end */
	if (!b->oom) {
		uint32_t len = b->len - start - 4;

		memcpy(b->p + start, &len, 4);
	}
}

static void put_ext(struct buf *b, unsigned int op, const void *arg,
		    size_t n)
{
	put8(b, 0);
	put_uleb(b, n + 1);
	put8(b, op);
	buf_put(b, arg, n);
}

/* a sequence of rows for [@va, @va + @n): line 3 + offset / 4 */
static void put_rows(struct buf *b, uint64_t va, uint64_t n)
{
	/* address += 4, line += 1 */
	unsigned int step = (1 - LINE_BASE) + LINE_RANGE * 4 + OPCODE_BASE;
	uint64_t off;

	put_ext(b, DW_LNE_set_address, &va, 8);
	put8(b, DW_LNS_advance_line);
	put8(b, 2);			/* SLEB128 2: from line 1 to 3 */
	put8(b, DW_LNS_copy);
	for (off = 4; off + 4 <= n; off += 4)
		put8(b, step);
	put8(b, DW_LNS_advance_pc);
	put_uleb(b, n - (off - 4));
	put_ext(b, DW_LNE_end_sequence, NULL, 0);
}

static void put_line(struct buf *b, const struct image *im)
{
	static const unsigned char lengths[OPCODE_BASE - 1] = {
		0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1
	};
	size_t start = b->len, hdr, i;
	uint32_t len;

	buf_put32(b, 0);		/* unit_length: set below */
	buf_put16(b, 4);		/* version */
	buf_put32(b, 0);		/* header_length: set below */
	hdr = b->len;
	put8(b, 1);			/* minimum_instruction_length */
	put8(b, 1);			/* maximum_operations_per_instruction */
	put8(b, 1);			/* default_is_stmt */
	put8(b, (unsigned char)LINE_BASE);
	put8(b, LINE_RANGE);
	put8(b, OPCODE_BASE);
	buf_put(b, lengths, sizeof(lengths));
	put8(b, 0);			/* no include_directories */
	put_cstr(b, "ete-image.s");
	put_uleb(b, 0);			/* directory, mtime, length */
	put_uleb(b, 0);
	put_uleb(b, 0);
	put8(b, 0);			/* file_names end */
	if (!b->oom) {
		len = b->len - hdr;
		memcpy(b->p + hdr - 4, &len, 4);
	}
	for (i = 0; i < im->nsyms; i++) {
		uint64_t n = sym_len(im, &im->syms[i]);

		if (n)
			put_rows(b, im->syms[i].va, n);
	}
	if (!b->oom) {
		len = b->len - start - 4;
		memcpy(b->p + start, &len, 4);
	}
}

int pd_dwarf(const struct image *im, struct buf *abbrev, struct buf *info,
	     struct buf *line)
{
	put_abbrevs(abbrev);
	put_info(info, im);
	put_line(line, im);
	return abbrev->oom || info->oom || line->oom ? -ENOMEM : 0;
}
