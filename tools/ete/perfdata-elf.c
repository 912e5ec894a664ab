// SPDX-License-Identifier: GPL-2.0
/*
 * perfdata-elf.c - the memory images of the snapshot as the ELF files
 * perf reads the code from (perfdata.c maps them, PERF_RECORD_MMAP2, and
 * lists their build IDs, HEADER_BUILD_ID): an AArch64 executable of the
 * image's bytes at their address, its symbols and a GNU build ID note.
 *
 * Each is also in DIR/.build-id/xx/<the other 38 hex digits>, a hard link
 * (a copy where the file system has none): perf's build-ID cache layout
 * ("old style", a regular file: __dso__build_id_filename()), so that
 * `perf --buildid-dir DIR` finds the code by build ID wherever the files
 * were moved, on any host, whatever path the MMAP2 records give.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* asprintf(), realpath() */
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata-int.h"

static void fnv_bytes(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		*h ^= *b++;
		*h *= 0x100000001b3ULL;
	}
}

/*
 * The image's build ID: 20 bytes, three FNV-1a 64 hashes (bases 1, 2, 3
 * xor the FNV basis) of address, size, bytes and symbols (address, size,
 * name), little-endian, the last cut to 4 bytes, after the layout's
 * version (ELF_LAYOUT).  The symbols and the layout count: the ID names
 * the ELF file written, and perf's build-ID cache would otherwise give an
 * earlier file of the same code with other symbols, or without the DWARF
 * (perfdata-dwarf.c) a version 1 file lacked.
 */
#define ELF_LAYOUT	2

static void build_id(struct image *im)
{
	for (int k = 0; k < 3; k++) {
		uint64_t h = 0xcbf29ce484222325ULL ^ (k + 1);
		uint32_t layout = ELF_LAYOUT;
		size_t i;

		fnv_bytes(&h, &layout, sizeof(layout));

		fnv_bytes(&h, &im->va, 8);
		fnv_bytes(&h, &im->len, 8);
		fnv_bytes(&h, im->data, im->len);
		for (i = 0; i < im->nsyms; i++) {
			fnv_bytes(&h, &im->syms[i].va, 8);
			fnv_bytes(&h, &im->syms[i].size, 8);
			fnv_bytes(&h, im->syms[i].name,
				  strlen(im->syms[i].name) + 1);
		}
		memcpy(im->bid + 8 * k, &h, k < 2 ? 8 : 4);
	}
}

static void put_shdr(struct buf *b, uint32_t name, uint32_t type,
		     uint64_t flags, uint64_t addr, uint64_t off, uint64_t size,
		     uint32_t link, uint32_t info, uint64_t align,
		     uint64_t entsize)
{
	buf_put32(b, name);
	buf_put32(b, type);
	buf_put64(b, flags);
	buf_put64(b, addr);
	buf_put64(b, off);
	buf_put64(b, size);
	buf_put32(b, link);
	buf_put32(b, info);
	buf_put64(b, align);
	buf_put64(b, entsize);
}

/*
 * An ELF64 AArch64 executable of the image: PT_LOAD of .text at file
 * offset ELF_TEXT_OFF and address im->va, PT_NOTE/.note.gnu.build-id,
 * .symtab (STT_FUNC globals), .strtab, .shstrtab; with symbols also
 * .debug_abbrev, .debug_info and .debug_line (perfdata-dwarf.c).
 */
/* @b into a new file at @path; 0 or -errno (errno set) */
static int put_file(const char *path, const struct buf *b)
{
	FILE *f;

	errno = 0;
	f = fopen(path, "wb");
	if (f && fwrite(b->p, 1, b->len, f) != b->len) {
		fclose(f);
		f = NULL;
	}
	if (!f || fclose(f)) {
		if (!errno)
			errno = EIO;
		return -errno;
	}
	return 0;
}

/*
 * @im's ELF (@b, written at @im->path) as @dir/.build-id/xx/yyy...: 0 or
 * -errno with @s's message set
 */
static int put_build_id_file(struct snap *s, const char *dir,
			     const struct image *im, const struct buf *b)
{
	char hex[41], *sub = NULL, *path = NULL;
	int i, ret = 0;

	for (i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", im->bid[i]);
	if (asprintf(&sub, "%s/.build-id", dir) < 0)
		sub = NULL;
	if (!sub || (mkdir(sub, 0755) && errno != EEXIST)) {
		ret = sub ? -errno : -ENOMEM;
		goto out;
	}
	free(sub);
	if (asprintf(&sub, "%s/.build-id/%.2s", dir, hex) < 0)
		sub = NULL;
	if (!sub || (mkdir(sub, 0755) && errno != EEXIST)) {
		ret = sub ? -errno : -ENOMEM;
		goto out;
	}
	if (asprintf(&path, "%s/%s", sub, hex + 2) < 0) {
		path = NULL;
		ret = -ENOMEM;
		goto out;
	}
	if (unlink(path) && errno != ENOENT)
		ret = -errno;
	else if (link(im->path, path))
		ret = put_file(path, b);
out:
	if (ret)
		ret = pd_fail(s, -ret, "%s/.build-id: %s", dir, strerror(-ret));
	free(sub);
	free(path);
	return ret;
}

static int write_elf(struct snap *s, const char *dir, struct image *im)
{
	static const char shstr[] =
		"\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";
	/* the rest of .shstrtab, after shstr's NUL */
	static const char dwstr[] = ".debug_abbrev\0.debug_info\0.debug_line";
	enum { SH_TEXT = 1, SH_NOTE = 7, SH_SYMTAB = 26, SH_STRTAB = 34,
	       SH_SHSTRTAB = 42, SH_ABBREV = 52, SH_INFO = 66, SH_LINE = 78 };
	struct buf b = { 0 }, str = { 0 };
	struct buf dw[3] = { { 0 } };	/* abbrev, info, line */
	size_t note_off = 64 + 2 * 56, sym_off, str_off, shstr_off, sh_off;
	size_t dw_off[3];
	bool dwarf = im->nsyms > 0;
	int ret = 0, k;

	/* ELF header */
	buf_put(&b, "\177ELF\x02\x01\x01", 7);
	buf_zero(&b, 9);
	buf_put16(&b, 2);		/* ET_EXEC */
	buf_put16(&b, 183);		/* EM_AARCH64 */
	buf_put32(&b, 1);
	buf_put64(&b, im->va);		/* entry */
	buf_put64(&b, 64);		/* phoff */
	buf_put64(&b, 0);		/* shoff: set below */
	buf_put32(&b, 0);
	buf_put16(&b, 64);
	buf_put16(&b, 56);
	buf_put16(&b, 2);
	buf_put16(&b, 64);
	buf_put16(&b, dwarf ? 9 : 6);
	buf_put16(&b, 5);		/* shstrndx */
	/* PT_LOAD R+X */
	buf_put32(&b, 1);
	buf_put32(&b, 5);
	buf_put64(&b, ELF_TEXT_OFF);
	buf_put64(&b, im->va);
	buf_put64(&b, im->va);
	buf_put64(&b, im->len);
	buf_put64(&b, im->len);
	buf_put64(&b, 0x1000);
	/* PT_NOTE */
	buf_put32(&b, 4);
	buf_put32(&b, 4);
	buf_put64(&b, note_off);
	buf_put64(&b, 0);
	buf_put64(&b, 0);
	buf_put64(&b, 36);
	buf_put64(&b, 36);
	buf_put64(&b, 4);
	/* the build ID note */
	buf_put32(&b, 4);
	buf_put32(&b, 20);
	buf_put32(&b, 3);		/* NT_GNU_BUILD_ID */
	buf_put(&b, "GNU", 4);
	buf_put(&b, im->bid, 20);
	buf_zero(&b, ELF_TEXT_OFF - b.len);
	buf_put(&b, im->data, im->len);
	buf_align(&b, 8);
	/* symbols */
	sym_off = b.len;
	buf_zero(&b, 24);
	buf_put(&str, "", 1);
	for (size_t k = 0; k < im->nsyms; k++) {
		buf_put32(&b, str.len);
		buf_put(&str, im->syms[k].name, strlen(im->syms[k].name) + 1);
		b.oom |= str.oom;
		buf_put(&b, "\x12", 1);		/* STB_GLOBAL, STT_FUNC */
		buf_put(&b, "", 1);
		buf_put16(&b, 1);		/* .text */
		buf_put64(&b, im->syms[k].va);
		buf_put64(&b, im->syms[k].size);
	}
	str_off = b.len;
	buf_put(&b, str.p, str.len);
	shstr_off = b.len;
	buf_put(&b, shstr, sizeof(shstr));
	buf_put(&b, dwstr, sizeof(dwstr));
	if (dwarf && pd_dwarf(im, &dw[0], &dw[1], &dw[2]))
		b.oom = true;
	for (k = 0; dwarf && k < 3; k++) {
		dw_off[k] = b.len;
		buf_put(&b, dw[k].p, dw[k].len);
	}
	buf_align(&b, 8);
	sh_off = b.len;
	buf_zero(&b, 64);
	put_shdr(&b, SH_TEXT, 1, 6, im->va, ELF_TEXT_OFF, im->len, 0, 0, 4, 0);
	put_shdr(&b, SH_NOTE, 7, 2, 0, note_off, 36, 0, 0, 4, 0);
	put_shdr(&b, SH_SYMTAB, 2, 0, 0, sym_off, str_off - sym_off, 4, 1, 8,
		 24);
	put_shdr(&b, SH_STRTAB, 3, 0, 0, str_off, str.len, 0, 0, 1, 0);
	put_shdr(&b, SH_SHSTRTAB, 3, 0, 0, shstr_off,
		 sizeof(shstr) + sizeof(dwstr), 0, 0, 1, 0);
	for (k = 0; dwarf && k < 3; k++)
		put_shdr(&b, k == 0 ? SH_ABBREV : k == 1 ? SH_INFO : SH_LINE,
			 1, 0, 0, dw_off[k], dw[k].len, 0, 0, 1, 0);
	buf_set64(&b, 40, sh_off);
	free(str.p);
	for (k = 0; k < 3; k++)
		free(dw[k].p);
	if (b.oom) {
		free(b.p);
		return -ENOMEM;
	}
	ret = put_file(im->path, &b);
	if (ret)
		ret = pd_fail(s, -ret, "%s: %s", im->path, strerror(-ret));
	else
		ret = put_build_id_file(s, dir, im, &b);
	free(b.p);
	return ret;
}

int pd_write_images(struct snap *s, const char *dir)
{
	char *absdir;
	size_t i;
	int ret = 0;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return pd_fail(s, errno, "%s: %s", dir, strerror(errno));
	absdir = realpath(dir, NULL);
	if (!absdir)
		return pd_fail(s, errno, "%s: %s", dir, strerror(errno));
	for (i = 0; i < s->nimgs && !ret; i++) {
		struct image *im = &s->imgs[i];

		build_id(im);
		if (asprintf(&im->path, "%s/%s%s", absdir, im->name,
			     im->kernel ? ".ko" : ".elf") < 0) {
			im->path = NULL;
			ret = -ENOMEM;
			break;
		}
		ret = write_elf(s, absdir, im);
	}
	free(absdir);
	return ret;
}

