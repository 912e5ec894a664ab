// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - the reader of OpenCSD snapshot directories (snapshot.h).
 *
 * The ini files are read whole into sections of key=value lines, in file
 * order, duplicates kept (a core listed once per trace session in
 * [core_trace_sources]).  Lines are trimmed; ';' and '#' start comments;
 * values may be quoted.  Then the devices, the buffers and the sources
 * are resolved by name, and whatever does not resolve is refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "snapshot.h"

static void *ss_grow(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p) {
		fputs("out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static char *ss_strndup(const char *p, size_t n)
{
	char *s = strndup(p, n);

	if (!s) {
		fputs("out of memory\n", stderr);
		exit(2);
	}
	return s;
}

static int ss_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static char *ss_join(const char *dir, const char *name)
{
	char *p;

	if (name[0] == '/')
		return ss_strndup(name, strlen(name));
	if (asprintf(&p, "%s/%s", dir, name) < 0) {
		fputs("out of memory\n", stderr);
		exit(2);
	}
	return p;
}

/* @p[0..*len) without blanks at either end, nor one pair of quotes */
static const char *ss_trim(const char *p, size_t *len)
{
	size_t n = *len;

	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	while (n && strchr(" \t\r\n", p[n - 1]))
		n--;
	if (n >= 2 && (p[0] == '"' || p[0] == '\'') && p[n - 1] == p[0]) {
		p++;
		n -= 2;
	}
	*len = n;
	return p;
}

static struct ss_section *new_section(struct ss_ini *ini, const char *name,
				      size_t len)
{
	struct ss_section *sc;

	ini->sect = ss_grow(ini->sect, ini->nsect + 1, sizeof(*ini->sect));
	sc = &ini->sect[ini->nsect++];
	memset(sc, 0, sizeof(*sc));
	sc->name = ss_strndup(name, len);
	return sc;
}

int ss_ini_read(struct ss_ini *ini, const char *path, bool bare, char *err,
		size_t errlen)
{
	struct ss_section *cur = NULL;
	char *line = NULL;
	size_t cap = 0;
	unsigned int no = 0;
	ssize_t got;
	FILE *f;

	ini->path = ss_strndup(path, strlen(path));
	f = fopen(path, "r");
	if (!f)
		return ss_fail(err, errlen, -ENOENT, "%s: %s", path,
			       strerror(errno));
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t len = got;
		const char *p = ss_trim(line, &len);
		const char *eq;

		no++;
		if (!len || p[0] == ';' || p[0] == '#')
			continue;
		if (p[0] == '[') {
			if (p[len - 1] != ']' || len < 3) {
				fclose(f);
				free(line);
				return ss_fail(err, errlen, -EINVAL,
					       "%s:%u: a section line without its ']'",
					       path, no);
			}
			cur = new_section(ini, p + 1, len - 2);
			continue;
		}
		eq = memchr(p, '=', len);
		if (eq && !cur && bare)
			cur = new_section(ini, "", 0);
		if (!eq || !cur) {
			fclose(f);
			free(line);
			return ss_fail(err, errlen, -EINVAL,
				       "%s:%u: %s", path, no, cur || bare ?
				       "a line that is not KEY=VALUE" :
				       "a KEY=VALUE line before any [section]");
		}
		cur->kv = ss_grow(cur->kv, cur->nkv + 1, sizeof(*cur->kv));
		{
			size_t kl = eq - p, vl = len - (eq + 1 - p);
			const char *k = ss_trim(p, &kl);
			const char *v = ss_trim(eq + 1, &vl);

			cur->kv[cur->nkv].key = ss_strndup(k, kl);
			cur->kv[cur->nkv].val = ss_strndup(v, vl);
			cur->nkv++;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

void ss_ini_free(struct ss_ini *ini)
{
	size_t i, k;

	for (i = 0; i < ini->nsect; i++) {
		for (k = 0; k < ini->sect[i].nkv; k++) {
			free(ini->sect[i].kv[k].key);
			free(ini->sect[i].kv[k].val);
		}
		free(ini->sect[i].kv);
		free(ini->sect[i].name);
	}
	free(ini->sect);
	free(ini->path);
	memset(ini, 0, sizeof(*ini));
}

static const struct ss_section *ini_section(const struct ss_ini *ini,
					    const char *name)
{
	size_t i;

	for (i = 0; i < ini->nsect; i++)
		if (!strcasecmp(ini->sect[i].name, name))
			return &ini->sect[i];
	return NULL;
}

/* "TRCIDR0" is the key "TRCIDR0", "TRCIDR0(0x078)" or "TRCIDR0(size:32)" */
static bool key_is(const char *key, const char *name)
{
	size_t n = strlen(name);

	return !strncasecmp(key, name, n) && (!key[n] || key[n] == '(');
}

static const char *sect_get(const struct ss_section *sc, const char *key)
{
	size_t k;

	for (k = 0; sc && k < sc->nkv; k++)
		if (key_is(sc->kv[k].key, key))
			return sc->kv[k].val;
	return NULL;
}

const char *ss_get(const struct ss_ini *ini, const char *section,
		   const char *key)
{
	return sect_get(ini_section(ini, section), key);
}

/* A whole number, decimal, 0x hex or 0 octal as strtoull() reads them */
static int number(const char *v, uint64_t *out)
{
	char *end;

	if (!v || !*v || *v == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(v, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

int ss_reg(const struct ss_device *d, const char *name, uint32_t *val)
{
	const char *v = ss_get(&d->ini, "regs", name);
	uint64_t x;

	if (!v)
		return -ENOENT;
	if (number(v, &x) || x > UINT32_MAX)
		return -EINVAL;
	*val = x;
	return 0;
}

struct ss_device *ss_device(const struct snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ndev; i++)
		if (!strcmp(s->dev[i].name, name))
			return &s->dev[i];
	return NULL;
}

/* The [dumpK] sections of a device: its memory images */
static int read_dumps(struct snapshot *s, struct ss_device *d, char *err,
		      size_t errlen)
{
	size_t i;

	for (i = 0; i < d->ini.nsect; i++) {
		const struct ss_section *sc = &d->ini.sect[i];
		const char *file, *addr, *sp;
		uint64_t len = 0, off = 0, a;
		struct ss_dump *m;

		if (strncasecmp(sc->name, "dump", 4))
			continue;
		file = sect_get(sc, "file");
		addr = sect_get(sc, "address");
		if (!file || !*file)
			return ss_fail(err, errlen, -EINVAL, "%s: [%s] has no file=",
				       d->ini.path, sc->name);
		if (number(addr, &a))
			return ss_fail(err, errlen, -EINVAL,
				       "%s: [%s] address=%s is not an address",
				       d->ini.path, sc->name, addr ? addr : "");
		if (sect_get(sc, "length") && number(sect_get(sc, "length"), &len))
			return ss_fail(err, errlen, -EINVAL,
				       "%s: [%s] length=%s is not a number",
				       d->ini.path, sc->name, sect_get(sc, "length"));
		if (sect_get(sc, "offset") && number(sect_get(sc, "offset"), &off))
			return ss_fail(err, errlen, -EINVAL,
				       "%s: [%s] offset=%s is not a number",
				       d->ini.path, sc->name, sect_get(sc, "offset"));
		sp = sect_get(sc, "space");
		d->dumps = ss_grow(d->dumps, d->ndumps + 1, sizeof(*d->dumps));
		m = &d->dumps[d->ndumps++];
		m->section = sc->name;
		m->file = ss_join(s->dir, file);
		m->address = a;
		m->offset = off;
		m->length = len;
		m->space = ss_strndup(sp ? sp : "", sp ? strlen(sp) : 0);
	}
	return 0;
}

static int read_devices(struct snapshot *s, char *err, size_t errlen)
{
	const struct ss_section *list = ini_section(&s->top, "device_list");
	size_t i;
	int ret;

	if (!list || !list->nkv)
		return ss_fail(err, errlen, -EINVAL,
			       "%s: no [device_list], or an empty one",
			       s->top.path);
	s->dev = ss_grow(NULL, list->nkv, sizeof(*s->dev));
	memset(s->dev, 0, list->nkv * sizeof(*s->dev));
	for (i = 0; i < list->nkv; i++) {
		struct ss_device *d = &s->dev[i];
		char *path = ss_join(s->dir, list->kv[i].val);

		s->ndev++;
		ret = ss_ini_read(&d->ini, path, false, err, errlen);
		free(path);
		if (ret)
			return ret;
		d->name = ss_get(&d->ini, "device", "name");
		d->class = ss_get(&d->ini, "device", "class");
		d->type = ss_get(&d->ini, "device", "type");
		if (!d->name || !*d->name || !d->type)
			return ss_fail(err, errlen, -EINVAL,
				       "%s: [device] needs name= and type=",
				       d->ini.path);
		if (!d->class)
			d->class = "";
		if (ss_device(s, d->name) != d)
			return ss_fail(err, errlen, -EINVAL,
				       "%s: [device] name=%s: a second device of that name",
				       d->ini.path, d->name);
		ret = read_dumps(s, d, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

static int read_buffers(struct snapshot *s, char *err, size_t errlen)
{
	const char *list = ss_get(&s->trace, "trace_buffers", "buffers");
	const char *p = list;

	if (!list || !*list)
		return ss_fail(err, errlen, -EINVAL,
			       "%s: [trace_buffers] has no buffers=", s->trace.path);
	while (*p) {
		size_t n = strcspn(p, ",");
		size_t len = n;
		const char *name = ss_trim(p, &len);
		char *sect = ss_strndup(name, len);
		const struct ss_section *sc = ini_section(&s->trace, sect);
		const char *bname = sect_get(sc, "name");
		const char *file = sect_get(sc, "file");
		const char *fmt = sect_get(sc, "format");
		struct ss_buffer *b;
		int f;

		if (!sc || !bname || !*bname || !file || !*file) {
			int ret = ss_fail(err, errlen, -EINVAL,
					  "%s: buffers=%s: [%s] %s", s->trace.path,
					  list, sect, sc ? "needs name= and file=" :
					  "is not in the file");

			free(sect);
			return ret;
		}
		if (!fmt || !strcmp(fmt, "source_data")) {
			f = SS_SOURCE_DATA;
		} else if (!strcmp(fmt, "coresight")) {
			f = SS_CORESIGHT;
		} else if (!strcmp(fmt, "dstream_coresight")) {
			f = SS_DSTREAM_CORESIGHT;
		} else {
			int ret = ss_fail(err, errlen, -EINVAL,
					  "%s: [%s] format=%s: not source_data, coresight nor dstream_coresight",
					  s->trace.path, sect, fmt);

			free(sect);
			return ret;
		}
		free(sect);
		s->buf = ss_grow(s->buf, s->nbuf + 1, sizeof(*s->buf));
		b = &s->buf[s->nbuf++];
		b->name = bname;
		b->file = ss_join(s->dir, file);
		b->format = f;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static struct ss_buffer *find_buffer(const struct snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nbuf; i++)
		if (!strcmp(s->buf[i].name, name))
			return &s->buf[i];
	return NULL;
}

static int read_sources(struct snapshot *s, char *err, size_t errlen)
{
	const struct ss_section *sb = ini_section(&s->trace, "source_buffers");
	const struct ss_section *cs = ini_section(&s->trace, "core_trace_sources");
	size_t i, k;

	if (!sb || !sb->nkv)
		return ss_fail(err, errlen, -EINVAL,
			       "%s: no [source_buffers], or an empty one",
			       s->trace.path);
	s->src = ss_grow(NULL, sb->nkv, sizeof(*s->src));
	for (i = 0; i < sb->nkv; i++) {
		struct ss_source *src = &s->src[s->nsrc];
		const char *sname = sb->kv[i].key;

		for (k = 0; k < s->nsrc; k++)
			if (!strcmp(s->src[k].dev->name, sname))
				return ss_fail(err, errlen, -EINVAL,
					       "%s: [source_buffers] %s: listed twice",
					       s->trace.path, sname);
		src->dev = ss_device(s, sname);
		src->buf = find_buffer(s, sb->kv[i].val);
		src->core = NULL;
		src->cpu = -1;
		if (!src->dev)
			return ss_fail(err, errlen, -EINVAL,
				       "%s: [source_buffers] %s: no device of that name in %s's [device_list]",
				       s->trace.path, sname, s->top.path);
		if (!src->buf)
			return ss_fail(err, errlen, -EINVAL,
				       "%s: [source_buffers] %s=%s: no buffer of that name in [trace_buffers]",
				       s->trace.path, sname, sb->kv[i].val);
		for (k = 0; cs && k < cs->nkv; k++) {
			if (strcmp(cs->kv[k].val, sname))
				continue;
			if (src->core)
				return ss_fail(err, errlen, -EINVAL,
					       "%s: [core_trace_sources]: %s is the source of two cores",
					       s->trace.path, sname);
			src->core = ss_device(s, cs->kv[k].key);
			if (!src->core)
				return ss_fail(err, errlen, -EINVAL,
					       "%s: [core_trace_sources] %s: no device of that name in %s's [device_list]",
					       s->trace.path, cs->kv[k].key,
					       s->top.path);
		}
		if (src->core && !strncmp(src->core->name, "cpu_", 4)) {
			char *end;
			long n = strtol(src->core->name + 4, &end, 10);

			if (end != src->core->name + 4 && !*end && n >= 0 &&
			    n < 1 << 20)
				src->cpu = n;
		}
		s->nsrc++;
	}
	return 0;
}

int ss_open(struct snapshot *s, const char *dir, char *err, size_t errlen)
{
	const char *meta;
	char *path;
	int ret;

	memset(s, 0, sizeof(*s));
	s->dir = ss_strndup(dir, strlen(dir));
	path = ss_join(dir, "snapshot.ini");
	ret = ss_ini_read(&s->top, path, false, err, errlen);
	free(path);
	if (ret)
		return ret;
	ret = read_devices(s, err, errlen);
	if (ret)
		return ret;
	meta = ss_get(&s->top, "trace", "metadata");
	if (!meta || !*meta)
		return ss_fail(err, errlen, -EINVAL,
			       "%s: [trace] has no metadata= (the trace ini)",
			       s->top.path);
	path = ss_join(dir, meta);
	ret = ss_ini_read(&s->trace, path, false, err, errlen);
	free(path);
	if (ret)
		return ret;
	ret = read_buffers(s, err, errlen);
	if (ret)
		return ret;
	return read_sources(s, err, errlen);
}

void ss_close(struct snapshot *s)
{
	size_t i, k;

	for (i = 0; i < s->ndev; i++) {
		for (k = 0; k < s->dev[i].ndumps; k++) {
			free(s->dev[i].dumps[k].file);
			free(s->dev[i].dumps[k].space);
		}
		free(s->dev[i].dumps);
		ss_ini_free(&s->dev[i].ini);
	}
	for (i = 0; i < s->nbuf; i++)
		free(s->buf[i].file);
	free(s->dev);
	free(s->buf);
	free(s->src);
	ss_ini_free(&s->top);
	ss_ini_free(&s->trace);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}
