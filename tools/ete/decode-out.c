// SPDX-License-Identifier: GPL-2.0
/*
 * decode-out.c - ete-decode's files and output: reading a file whole, and
 * each trace source's output buffer (memory, spilled to a temporary file
 * when it grows big before its turn), the text and JSON line writers.
 */
#include "ete-decode.h"

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		perror("ete-decode");
		exit(2);
	}
	return p;
}

void *vec_push(struct vec *v)
{
	if (v->len == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->p = xrealloc(v->p, v->cap * v->size);
	}
	return (char *)v->p + v->size * v->len++;
}

/* ---- snapshot files ---- */

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

char *path_in(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		exit(2);
	return p;
}

/* etecap's names: ETE_<cpu>, whose gaps are in gaps_cpu<cpu>.txt */
bool etecap_source(const struct ss_source *src)
{
	char name[32];

	snprintf(name, sizeof(name), "ETE_%d", src->cpu);
	return src->cpu >= 0 && !strcmp(src->dev->name, name);
}

/* ---- decode ---- */

/* ---- output ---- */

static void out_write(FILE *f, const char *p, size_t len)
{
	if (len && fwrite(p, 1, len, f) != len) {
		perror("ete-decode: write");
		exit(2);
	}
}

/* Print what @o holds, the spilled part first, and empty it */
void out_print(struct out *o)
{
	char buf[65536];
	size_t n;

	if (o->spill) {
		fflush(o->spill);
		rewind(o->spill);
		while ((n = fread(buf, 1, sizeof(buf), o->spill)))
			out_write(stdout, buf, n);
		fclose(o->spill);
		o->spill = NULL;
	}
	out_write(stdout, o->buf, o->len);
	o->len = 0;
}

/*
 * The end of a line: a CPU whose turn has come prints what it has; one
 * whose turn is still to come moves a big buffer to a temporary file.
 */
void out_line_end(struct decode *d)
{
	struct out *o = d->out;

	if (o->len < OUT_FLUSH)
		return;
	if ((size_t)d->slot == __atomic_load_n(&print_next, __ATOMIC_ACQUIRE)) {
		out_write(stdout, o->buf, o->len);
		o->len = 0;
	} else if (o->len >= OUT_SPILL) {
		if (!o->spill)
			o->spill = tmpfile();
		if (o->spill) {
			out_write(o->spill, o->buf, o->len);
			o->len = 0;
		}
	}
}

static char *out_room(struct out *o, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = o->cap ? o->cap : 65536;
		while (o->len + n > o->cap)
			o->cap *= 2;
		o->buf = xrealloc(o->buf, o->cap);
	}
	return o->buf + o->len;
}

void out_mem(struct out *o, const char *s, size_t n)
{
	memcpy(out_room(o, n), s, n);
	o->len += n;
}

void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

void out_chr(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->len++;
}

void out_dec(struct out *o, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	out_mem(o, tmp + i, sizeof(tmp) - i);
}

/* "0x" and @v in lower-case hexadecimal */
void out_hex(struct out *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	out_mem(o, tmp + i, sizeof(tmp) - i);
}

void out_fmt(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	out_room(o, n + 1);
	va_start(ap, fmt);
	vsnprintf(o->buf + o->len, n + 1, fmt, ap);
	va_end(ap);
	o->len += n;
}

/* A JSON string: @s quoted, with what JSON does not take as is escaped */
void out_json_str(struct out *o, const char *s, size_t len)
{
	size_t i;

	out_chr(o, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			out_chr(o, '\\');
			out_chr(o, c);
		} else if (c < 0x20 || c == 0x7f) {
			out_fmt(o, "\\u%04x", c);
		} else {
			out_chr(o, c);
		}
	}
	out_chr(o, '"');
}

/* The start of a JSON line: {"cpu":N,"type":"TYPE" */
void json_start(struct decode *d, const char *type)
{
	out_str(d->out, "{\"cpu\":");
	out_dec(d->out, d->cpu);
	out_str(d->out, ",\"type\":\"");
	out_str(d->out, type);
	out_chr(d->out, '"');
}

/* ,"KEY": */
void json_key(struct out *o, const char *key)
{
	out_str(o, ",\"");
	out_str(o, key);
	out_str(o, "\":");
}

void json_end(struct decode *d)
{
	out_str(d->out, "}\n");
	out_line_end(d);
}
