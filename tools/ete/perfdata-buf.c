// SPDX-License-Identifier: GPL-2.0
/*
 * perfdata-buf.c - the growing byte buffer in which perfdata builds its
 * files (perfdata-int.h): the ELF images (perfdata-elf.c) and the
 * perf.data (perfdata.c).  A growth that fails sets .oom and drops what
 * follows; the writer checks .oom once, before writing the file.
 */
#include <stdlib.h>
#include <string.h>

#include "perfdata-int.h"

void *buf_grow(struct buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

void buf_put(struct buf *b, const void *v, size_t n)
{
	void *p = buf_grow(b, n);

	if (p)
		memcpy(p, v, n);
}

void buf_zero(struct buf *b, size_t n)
{
	void *p = buf_grow(b, n);

	if (p)
		memset(p, 0, n);
}

/* little-endian host assumed (x86-64, arm64), as perf writes natively */
void buf_put16(struct buf *b, uint16_t v)
{
	buf_put(b, &v, 2);
}

void buf_put32(struct buf *b, uint32_t v)
{
	buf_put(b, &v, 4);
}

void buf_put64(struct buf *b, uint64_t v)
{
	buf_put(b, &v, 8);
}

void buf_align(struct buf *b, size_t a)
{
	buf_zero(b, (a - b->len % a) % a);
}

void buf_set16(struct buf *b, size_t off, uint16_t v)
{
	if (!b->oom)
		memcpy(b->p + off, &v, 2);
}

void buf_set64(struct buf *b, size_t off, uint64_t v)
{
	if (!b->oom)
		memcpy(b->p + off, &v, 8);
}

/* perf's header string: u32 length (NUL padded to 64), the string */
void buf_str(struct buf *b, const char *str)
{
	size_t n = strlen(str) + 1, len = (n + 63) / 64 * 64;

	buf_put32(b, len);
	buf_put(b, str, n - 1);
	buf_zero(b, len - n + 1);
}
