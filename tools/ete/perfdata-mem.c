// SPDX-License-Identifier: GPL-2.0
/*
 * perfdata-mem.c - the memory images of the snapshot (perfdata-int.h),
 * where perf reads the code from: the [dumpK] of the cores of the CPUs
 * written (snapshot.c reads them: file, address, offset, length), the
 * same one once, contiguous ones of a kind (kernel or user) made one
 * image, named after memory.txt's source of them; their symbols from
 * symbols.txt and perf-<pid>.map, else one function per dump.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* asprintf(), fseeko() */
#endif
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfdata-int.h"
#include "snapshot.h"

/* A dump: @len bytes of @file (the snapshot's, while it is open) at @off */
struct dump {
	uint64_t va, len, off;
	const char *file;
};

static int cmp_dump(const void *a, const void *b)
{
	const struct dump *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/*
 * A name for the image of the dump at @va: memory.txt's source of it, the
 * "saved VA LENGTH FILE SOURCE" line: "--mem PATH", "module NAME",
 * "kernel text", or "pid PID PATH+OFFSET" (a process's mapping of PATH).
 */
static char *image_name(const char *memtxt, uint64_t va)
{
	const char *p = memtxt;
	char *name = NULL;

	while (p && *p) {
		char act[32], file[PATH_MAX], src[PATH_MAX], opt[32];
		char mapped[PATH_MAX];
		unsigned long long v, len;
		const char *eol = strchr(p, '\n');
		int n = 0;

		if (*p != '#')
			n = sscanf(p, "%31s %llx %llx %4095s %31s %4095s %4095s",
				   act, &v, &len, file, opt, src, mapped);
		if (n >= 6 && v == va && !strcmp(act, "saved")) {
			char *base, *dot, *plus;

			if (n == 7 && !strcmp(opt, "pid")) {
				plus = strrchr(mapped, '+');
				if (plus)
					*plus = 0;
				memcpy(src, mapped, sizeof(src));
			}
			base = strrchr(src, '/');
			base = base ? base + 1 : src;
			dot = strrchr(base, '.');
			if (dot && dot != base)
				*dot = 0;
			/* the model's program regions: ete_model_<region> */
			if (asprintf(&name, "%s%s",
				     strstr(src, "/ete_model/") ? "ete_model_" : "",
				     base) < 0)
				name = NULL;
			break;
		}
		p = eol ? eol + 1 : NULL;
	}
	if (!name && asprintf(&name, "mem_%llx", (unsigned long long)va) < 0)
		return NULL;
	for (char *c = name; *c; c++)
		if (!(*c == '_' || (*c >= '0' && *c <= '9') ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			*c = '_';
	return name;
}

/* @name, or, if an image has it already, @name_<va>: one file each */
static char *unique_name(struct snap *s, const char *name, uint64_t va)
{
	char *n;

	for (size_t k = 0; k < s->nimgs; k++)
		if (s->imgs[k].name && !strcmp(s->imgs[k].name, name)) {
			if (asprintf(&n, "%s_%llx", name,
				     (unsigned long long)va) < 0)
				return NULL;
			return n;
		}
	return strdup(name);
}

static int add_sym(struct image *im, uint64_t va, uint64_t size,
		   const char *name)
{
	struct sym *n = realloc(im->syms, (im->nsyms + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	im->syms = n;
	n[im->nsyms].va = va;
	n[im->nsyms].size = size;
	n[im->nsyms].fallback = false;
	n[im->nsyms].name = strdup(name);
	if (!n[im->nsyms].name)
		return -ENOMEM;
	im->nsyms++;
	return 0;
}

/*
 * Symbol lines "VA SIZE NAME" ('#' lines are comments), SIZE in
 * @size_base (0: decimal or 0x-prefixed, as symbols.txt; 16: perf-<pid>.map,
 * a JIT's symbols), each into the image that holds its start.
 */
static int add_symbol_lines(struct snap *s, const char *txt, int size_base)
{
	int ret = 0;

	for (const char *p = txt; !ret && p && *p;) {
		const char *eol = strchr(p, '\n');
		unsigned long long va, size;
		char name[256], *end;
		size_t k, len;

		va = strtoull(p, &end, 16);
		if (*p != '#' && end != p) {
			const char *q = end;

			size = strtoull(q, &end, size_base);
			q = end + strspn(end, " \t");
			len = strcspn(q, "\r\n");
			if (end != q && len && len < sizeof(name)) {
				memcpy(name, q, len);
				name[len] = 0;
				for (k = 0; k < s->nimgs; k++)
					if (va >= s->imgs[k].va &&
					    va < s->imgs[k].va + s->imgs[k].len) {
						ret = add_sym(&s->imgs[k], va, size,
							      name);
						break;
					}
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return ret;
}

/* The contents of every perf-<pid>.map of @dir; *@n of them */
static char **read_perf_maps(const char *dir, size_t *n)
{
	char **v = NULL;
	struct dirent *d;
	DIR *dd = opendir(dir);

	*n = 0;
	while (dd && (d = readdir(dd))) {
		size_t len = strlen(d->d_name);
		char **nv, *txt;

		if (strncmp(d->d_name, "perf-", 5) || len < 10 ||
		    strcmp(d->d_name + len - 4, ".map"))
			continue;
		txt = pd_slurp(dir, d->d_name);
		nv = txt ? realloc(v, (*n + 1) * sizeof(*v)) : NULL;
		if (!nv) {
			free(txt);
			continue;
		}
		v = nv;
		v[(*n)++] = txt;
	}
	if (dd)
		closedir(dd);
	return v;
}

/* A core's [dumpK], unless the same one is in @d already: 0 or -errno */
static int add_dump(struct snap *s, const struct ss_device *core,
		    const struct ss_dump *m, struct dump **d, size_t *nd)
{
	struct dump *n;
	struct stat st;
	uint64_t len;
	size_t k;

	if (stat(m->file, &st))
		return pd_fail(s, errno, "%s: [%s] file=%s: %s", core->ini.path,
			       m->section, m->file, strerror(errno));
	if (m->offset > (uint64_t)st.st_size)
		return pd_fail(s, EINVAL, "%s: [%s] offset=0x%llx is past the end of %s",
			       core->ini.path, m->section,
			       (unsigned long long)m->offset, m->file);
	len = st.st_size - m->offset;
	if (m->length > len)
		return pd_fail(s, EINVAL, "%s: [%s] length=0x%llx is past the end of %s",
			       core->ini.path, m->section,
			       (unsigned long long)m->length, m->file);
	if (m->length)
		len = m->length;
	if (!len)
		return 0;
	for (k = 0; k < *nd; k++)
		if ((*d)[k].va == m->address && (*d)[k].off == m->offset &&
		    !strcmp((*d)[k].file, m->file))
			return 0;
	n = realloc(*d, (*nd + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	*d = n;
	n[*nd].va = m->address;
	n[*nd].len = len;
	n[*nd].off = m->offset;
	n[*nd].file = m->file;
	(*nd)++;
	return 0;
}

/* @len bytes of @path from @off into @p: 0 or -errno, and a message */
static int read_at(struct snap *s, const char *path, uint64_t off,
		   uint64_t len, unsigned char *p)
{
	FILE *f = fopen(path, "rb");
	int ret = 0;

	if (!f)
		return pd_fail(s, errno, "%s: %s", path, strerror(errno));
	if (fseeko(f, off, SEEK_SET) || fread(p, 1, len, f) != len)
		ret = pd_fail(s, ferror(f) && errno ? errno : EIO, "%s: %s",
			      path, ferror(f) && errno ? strerror(errno) :
			      "shorter than its dump");
	fclose(f);
	return ret;
}

/* The dumps of the cores of @s's CPUs, by address; refused if two overlap */
static int collect_dumps(struct snap *s, struct dump **d, size_t *nd)
{
	size_t i, k;
	int ret = 0;

	for (i = 0; i < s->ncpus && !ret; i++) {
		const struct ss_device *core = s->cpus[i].core;

		for (k = 0; core && k < core->ndumps && !ret; k++)
			ret = add_dump(s, core, &core->dumps[k], d, nd);
	}
	if (ret)
		return ret;
	qsort(*d, *nd, sizeof(**d), cmp_dump);
	for (k = 1; k < *nd; k++)
		if ((*d)[k].va < (*d)[k - 1].va + (*d)[k - 1].len)
			return pd_fail(s, EINVAL, "%s: memory images %s and %s overlap",
				       s->dir, (*d)[k - 1].file, (*d)[k].file);
	return 0;
}

/*
 * Dump @m into @s's images: appended to the last image if it continues
 * it, else a new image.  With a symbol named after it, a fallback if a
 * symbol file (@symfiles) may name the image's functions.
 */
static int add_to_image(struct snap *s, const struct dump *m,
			const char *memtxt, bool symfiles)
{
	bool kernel = m->va >> 63;
	struct image *im = s->nimgs ? &s->imgs[s->nimgs - 1] : NULL;
	unsigned char *n;
	char *name;
	int ret;

	if (!im || im->kernel != kernel || im->va + im->len != m->va) {
		im = &s->imgs[s->nimgs++];
		im->va = m->va;
		im->kernel = kernel;
	}
	n = realloc(im->data, im->len + m->len);
	if (!n)
		return -ENOMEM;
	im->data = n;
	ret = read_at(s, m->file, m->off, m->len, im->data + im->len);
	if (ret)
		return ret;
	im->len += m->len;
	name = image_name(memtxt, m->va);
	if (!name)
		return -ENOMEM;
	if (!im->name)
		im->name = unique_name(s, name, im->va);
	/* a symbol per dump, kept where no symbol file names one */
	ret = add_sym(im, m->va, m->len, name);
	if (!ret && symfiles)
		im->syms[im->nsyms - 1].fallback = true;
	free(name);
	if (!im->name)
		return -ENOMEM;
	return ret;
}

/* an image that a symbol file names keeps only the file's symbols */
static void drop_fallbacks(struct image *im)
{
	size_t i, j, named = 0;

	for (i = 0; i < im->nsyms; i++)
		named += !im->syms[i].fallback;
	if (!named)
		return;
	for (i = 0, j = 0; i < im->nsyms; i++) {
		if (im->syms[i].fallback)
			free(im->syms[i].name);
		else
			im->syms[j++] = im->syms[i];
	}
	im->nsyms = j;
}

int pd_read_images(struct snap *s)
{
	struct dump *d = NULL;
	char *memtxt, *symtxt, **maps;
	size_t nd = 0, nmaps = 0, k;
	int ret;

	ret = collect_dumps(s, &d, &nd);
	if (ret) {
		free(d);
		return ret;
	}
	memtxt = pd_slurp(s->dir, "memory.txt");
	symtxt = pd_slurp(s->dir, "symbols.txt");
	maps = read_perf_maps(s->dir, &nmaps);
	s->imgs = calloc(nd ? nd : 1, sizeof(*s->imgs));
	if (!s->imgs)
		ret = -ENOMEM;
	for (k = 0; k < nd && !ret; k++)
		ret = add_to_image(s, &d[k], memtxt, symtxt || nmaps);
	ret = ret ?: add_symbol_lines(s, symtxt, 0);
	for (k = 0; !ret && k < nmaps; k++)
		ret = add_symbol_lines(s, maps[k], 16);
	for (k = 0; !ret && k < s->nimgs; k++)
		drop_fallbacks(&s->imgs[k]);
	free(memtxt);
	free(symtxt);
	for (k = 0; k < nmaps; k++)
		free(maps[k]);
	free(maps);
	free(d);
	return ret;
}
