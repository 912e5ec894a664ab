// SPDX-License-Identifier: GPL-2.0
/*
 * decode-setup.c - a trace source's decode from the snapshot (snapshot.c
 * reads it): its trace and gap records, the ETE decoder configured from
 * its registers, the memory images of its core (each file read once for
 * all sources); and the decoded ranges cut into A-Sync intervals and
 * hashed (--hash, --compare).
 */
#include "ete-decode.h"

/* ---- setting up ---- */

/* gaps_cpuN.txt: the offsets, increasing, at which the stream is cut */
static void read_gaps(const char *dir, struct job *j)
{
	char name[64], line[256], *p;
	FILE *f;

	snprintf(name, sizeof(name), "gaps_cpu%d.txt", j->cpu);
	p = path_in(dir, name);
	f = fopen(p, "r");
	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *endp;
		unsigned long long off = strtoull(line, &endp, 10);
		struct gap *g;

		if (endp == line || !off ||
		    (j->ngaps && off <= j->gaps[j->ngaps - 1].off))
			continue;
		/* as many as there are: 16, then doubling */
		if (!j->ngaps || (j->ngaps >= 16 && !(j->ngaps & (j->ngaps - 1)))) {
			size_t cap = j->ngaps ? 2 * j->ngaps : 16;

			j->gaps = xrealloc(j->gaps, cap * sizeof(*j->gaps));
			j->gap_offs = xrealloc(j->gap_offs, cap * sizeof(uint64_t));
		}
		g = &j->gaps[j->ngaps];
		g->off = off;
		g->lost = strtoll(endp, NULL, 10);
		endp += strspn(endp, " \t");
		snprintf(g->what, sizeof(g->what), "%.*s",
			 (int)strcspn(endp, "\r\n"), endp);
		j->gap_offs[j->ngaps++] = off;
	}
	fclose(f);
}

/*
 * The memory images, each file read once for every source that decodes
 * with it; read-only once the jobs run, so the trees of several threads
 * share them.
 */
struct image {
	char *path;
	uint8_t *data;
	size_t len;
};

static struct vec images = { .size = sizeof(struct image) };

static const struct image *load_image(const char *path)
{
	struct image *im;
	size_t i;

	for (i = 0; i < images.len; i++)
		if (!strcmp(AT(images, struct image, i).path, path))
			return AT(images, struct image, i).data ?
			       &AT(images, struct image, i) : NULL;
	im = vec_push(&images);
	im->path = strdup(path);
	im->data = (uint8_t *)slurp(path, &im->len);
	if (!im->data)
		fprintf(stderr, "ete-decode: %s: %s: its code is not decoded\n",
			path, strerror(errno));
	return im->data ? im : NULL;
}

/* A [dumpK] space= of the snapshot format, as OpenCSD's snapshot reader */
static int mem_space(const char *name, ocsd_mem_space_acc_t *sp)
{
	static const struct {
		const char *name;
		int space;
	} map[] = {
		{ "EL1S", OCSD_MEM_SPACE_EL1S }, { "EL1N", OCSD_MEM_SPACE_EL1N },
		{ "EL2", OCSD_MEM_SPACE_EL2 }, { "EL2N", OCSD_MEM_SPACE_EL2 },
		{ "EL2S", OCSD_MEM_SPACE_EL2S }, { "EL3", OCSD_MEM_SPACE_EL3 },
		{ "S", OCSD_MEM_SPACE_S }, { "N", OCSD_MEM_SPACE_N },
		{ "H", OCSD_MEM_SPACE_EL2 }, { "P", OCSD_MEM_SPACE_EL1N },
		{ "NP", OCSD_MEM_SPACE_EL1N }, { "SP", OCSD_MEM_SPACE_EL1S },
		/* Realm spaces: OpenCSD 1.4 and later (values of its header) */
		{ "EL1R", 0x20 }, { "EL2R", 0x40 }, { "ROOT", 0x80 },
		{ "R", 0x60 },
	};
	size_t i;

	if (!*name || !strcmp(name, "ANY")) {
		*sp = OCSD_MEM_SPACE_ANY;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (!strcmp(map[i].name, name)) {
			*sp = (ocsd_mem_space_acc_t)map[i].space;
			return 0;
		}
	}
	return -1;
}

/* The core's memory images into @j's tree: 0, or 2 and a message */
static int add_images(struct job *j)
{
	const struct ss_device *core = j->src->core;
	size_t k;

	for (k = 0; core && k < core->ndumps; k++) {
		const struct ss_dump *m = &core->dumps[k];
		const struct image *im = load_image(m->file);
		ocsd_mem_space_acc_t sp;
		uint64_t len;

		/* as OpenCSD's reader: the code there decodes as unavailable */
		if (!im)
			continue;
		if (mem_space(m->space, &sp)) {
			fprintf(stderr, "ete-decode: %s: space=%s: not a memory space\n",
				core->ini.path, m->space);
			return 2;
		}
		if (m->offset > im->len) {
			fprintf(stderr, "ete-decode: %s: offset=0x%llx is past the end of %s\n",
				core->ini.path, ULL(m->offset), m->file);
			return 2;
		}
		len = im->len - m->offset;
		if (m->length && m->length < len)
			len = m->length;
		if (!len)
			continue;
		if (len > UINT32_MAX) {
			fprintf(stderr, "ete-decode: %s: %s: an image of 4 GiB or more\n",
				core->ini.path, m->file);
			return 2;
		}
		if (ocsd_dt_add_buffer_mem_acc(j->tree, m->address, sp,
					       im->data + m->offset, len) != OCSD_OK) {
			fprintf(stderr, "ete-decode: %s: %s at 0x%llx: %s\n",
				core->ini.path, m->file, ULL(m->address),
				"OpenCSD refused it (an overlap?)");
			return 2;
		}
	}
	return 0;
}

/* An ETE register of the source's ini; @def < 0: required */
static int ete_reg(const struct ss_device *dev, const char *name, int64_t def,
		   uint32_t *val)
{
	int ret = ss_reg(dev, name, val);

	if (ret == -ENOENT && def >= 0) {
		*val = def;
		return 0;
	}
	if (ret)
		fprintf(stderr, "ete-decode: %s: [regs] %s %s\n", dev->ini.path,
			name, ret == -ENOENT ? "is missing" :
			"is not a 32-bit number");
	return ret ? 2 : 0;
}

void free_images(void)
{
	size_t k;

	for (k = 0; k < images.len; k++) {
		free(AT(images, struct image, k).path);
		free(AT(images, struct image, k).data);
	}
	free(images.p);
}

/*
 * setup_job() - read a trace source's trace, gaps, registers and memory
 * images, and make its decode tree.  In the main thread: the library's
 * list of trees and its error logger's list of sources are not locked.
 * A CoreSight-formatted buffer is deformatted in the tree, which decodes
 * the source's trace ID only.  The registers OpenCSD's snapshot reader
 * requires are required; the others have its defaults.
 * @seen: the image files looked at for symbols already.  0, or 2 (and
 * a message) for a file that cannot be read or a decoder not made.
 */
int setup_job(struct snapshot *ss, struct job *j, struct vec *seen)
{
	const struct ss_source *src = j->src;
	ocsd_ete_cfg ecfg = { 0 };
	uint32_t flags = 0;
	uint8_t csid;
	int ret = 2;

	j->d.ranges.size = sizeof(struct range);
	j->d.asyncs.size = sizeof(uint64_t);
	j->d.cpu = j->cpu;
	j->d.out = &j->out;
	j->trace = (uint8_t *)slurp(src->buf->file, &j->len);
	if (!j->trace) {
		fprintf(stderr, "ete-decode: %s: %s\n", src->buf->file,
			strerror(errno));
		return 2;
	}
	if (etecap_source(src))
		read_gaps(ss->dir, j);
	if (cfg.mode == MODE_PRINT && src->core)
		read_image_elfs(src->core, seen);
	if (ete_reg(src->dev, "TRCCONFIGR", -1, &ecfg.reg_configr) ||
	    ete_reg(src->dev, "TRCTRACEIDR", -1, &ecfg.reg_traceidr) ||
	    ete_reg(src->dev, "TRCIDR0", -1, &ecfg.reg_idr0) ||
	    ete_reg(src->dev, "TRCIDR1", 0x4100F403, &ecfg.reg_idr1) ||
	    ete_reg(src->dev, "TRCIDR2", -1, &ecfg.reg_idr2) ||
	    ete_reg(src->dev, "TRCIDR8", 0, &ecfg.reg_idr8) ||
	    ete_reg(src->dev, "TRCDEVARCH", 0x47705A13, &ecfg.reg_devarch))
		return 2;
	ecfg.arch_ver = ARCH_AA64;
	ecfg.core_prof = OCSD_PROFILE_A;
	j->trace_id = ecfg.reg_traceidr & 0x7f;

	if (src->buf->format == SS_CORESIGHT)
		flags = OCSD_DFRMTR_FRAME_MEM_ALIGN;
	else if (src->buf->format == SS_DSTREAM_CORESIGHT)
		flags = OCSD_DFRMTR_HAS_FSYNCS;
	j->tree = ocsd_create_dcd_tree(src->buf->format == SS_SOURCE_DATA ?
				       OCSD_TRC_SRC_SINGLE :
				       OCSD_TRC_SRC_FRAME_FORMATTED, flags);
	if (!j->tree) {
		fprintf(stderr, "ete-decode: cannot create a decode tree\n");
		goto out;
	}
	ocsd_def_errlog_set_strprint_cb(j->tree, NULL, log_cb);
	if (ocsd_dt_create_decoder(j->tree, OCSD_BUILTIN_DCD_ETE,
				   OCSD_CREATE_FLG_FULL_DECODER, &ecfg,
				   &csid) != OCSD_OK) {
		fprintf(stderr, "ete-decode: %s: cannot create the ETE decoder\n",
			src->dev->ini.path);
		goto out;
	}
	ocsd_dt_set_gen_elem_outfn(j->tree, elem_cb, &j->d);
	ret = add_images(j);
out:
	errlog_release();
	return ret;
}

void free_job(struct job *j)
{
	if (j->tree)
		ocsd_destroy_dcd_tree(j->tree);
	free(j->trace);
	free(j->gaps);
	free(j->gap_offs);
	free(j->d.ranges.p);
	free(j->d.asyncs.p);
	afdo_free(&j->d);
	free(j->out.buf);
	if (j->out.spill)
		fclose(j->out.spill);
}

/*
 * Cut the decoded ranges into intervals: each A-Sync opens one, which the
 * next A-Sync completes; a segment end (a gap or the end of the stream)
 * closes it incomplete.  Ranges before a segment's first A-Sync belong to
 * no interval.
 */
void split(struct decode *d, const uint64_t *gaps, size_t ngaps,
	   size_t len, struct vec *out)
{
	uint64_t *as = d->asyncs.p;
	size_t a, r = 0, g = 0;

	for (a = 0; a < d->asyncs.len; a++) {
		uint64_t x = as[a], nxt = UINT64_MAX, bound = len, end;
		struct interval *v = vec_push(out);

		while (g < ngaps && gaps[g] <= x)
			g++;
		if (g < ngaps)
			bound = gaps[g];
		if (a + 1 < d->asyncs.len)
			nxt = as[a + 1];
		end = nxt < bound ? nxt : bound;
		v->aoff = x;
		v->complete = nxt < bound;
		v->seg = g;
		while (r < d->ranges.len &&
		       AT(d->ranges, struct range, r).idx < x)
			r++;
		v->first = r;
		v->count = 0;
		while (r < d->ranges.len &&
		       AT(d->ranges, struct range, r).idx < end) {
			v->count++;
			r++;
		}
	}
}

void hash_intervals(struct decode *d, struct vec *iv)
{
	size_t i, j;

	for (i = 0; i < iv->len; i++) {
		struct interval *v = &AT(*iv, struct interval, i);

		v->hash = FNV_BASIS;
		v->n = v->count;
		for (j = 0; j < v->count; j++) {
			struct range *r = &AT(d->ranges, struct range,
					      v->first + j);

			v->hash = fnv(v->hash, r->start, r->end);
			if (r->q)
				v->hash = fnv(v->hash, r->n, Q_MARK);
		}
	}
}
