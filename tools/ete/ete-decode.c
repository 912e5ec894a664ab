// SPDX-License-Identifier: GPL-2.0
/*
 * ete-decode: decode one CPU's ETE trace from an OpenCSD snapshot directory
 * with OpenCSD's C API, print the executed instruction ranges, or hash them
 * per interval between A-Syncs, or compare them with the model's ground
 * truth (Documentation/model.rst, "Ground truth"; e2e-interface.txt).
 *
 *   ete-decode [--cpu N] [--hash] [--compare TRUTH] SNAPSHOT_DIR
 *
 * The stream is cut at the gap markers of gaps_cpuN.txt ("offset lost
 * reason" lines): each segment is decoded on its own, from its first
 * A-Sync.  Runs on the host; links Debian's libopencsd.
 *
 * Besides instruction ranges ("R"), the decode yields what Q elements say
 * when their path is unknown (OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH: n
 * instructions from a start, execution went on at a next address), "Q"
 * records of the truth; hashes fold them in as (start, next) then
 * (n, Q_MARK).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#define FNV_BASIS	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL
#define Q_MARK		0xffffffffffffffffULL	/* EM_TRUTH_Q_MARK */
#define MAX_GAPS	4096
/* ocsd_core_profile_t's Cortex-A value, named without its CamelCase */
#define OCSD_PROFILE_A	((ocsd_core_profile_t)3)

/* A decoded range, or with @q a Q element's: @end is where execution went on */
struct range {
	uint64_t idx;
	uint64_t start;
	uint64_t end;
	uint32_t n;
	bool q;
};

/* An interval: the ranges between an A-Sync and the next one */
struct interval {
	uint64_t aoff;
	bool complete;		/* ended by the next A-Sync */
	size_t first;		/* index into the range array */
	size_t count;
	uint32_t n;		/* truth in hash mode: count and hash only */
	uint64_t hash;
};

struct vec {
	void *p;
	size_t len;
	size_t cap;
	size_t size;
};

static void *vec_push(struct vec *v)
{
	if (v->len == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->p = realloc(v->p, v->cap * v->size);
		if (!v->p) {
			perror("ete-decode");
			exit(2);
		}
	}
	return (char *)v->p + v->size * v->len++;
}

#ifndef ETE_VERSION
#define ETE_VERSION	"unknown"	/* the Makefile passes VERSION's */
#endif

#define ULL(x) ((unsigned long long)(x))
#define AT(v, type, i) (((type *)(v).p)[i])

struct decode {
	struct vec ranges;	/* struct range */
	struct vec asyncs;	/* uint64_t */
	unsigned long errors;
	unsigned long nacc;
	bool quiet;
	uint64_t seg_start;	/* the segment being decoded */
	uint64_t seg_end;
	uint64_t last_idx;	/* of the last element */
};

static uint64_t fnv(uint64_t h, uint64_t start, uint64_t end)
{
	int i;

	for (i = 0; i < 16; i++) {
		h ^= ((i < 8 ? start : end) >> (8 * (i & 7))) & 0xff;
		h *= FNV_PRIME;
	}
	return h;
}

/* ---- snapshot files ---- */

static char *slurp(const char *path, size_t *len)
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

/*
 * ini_get() - value of KEY in [SECTION] of an ini text, into @out.
 * Keys compare case-insensitively; "TRCIDR0" matches "TRCIDR0(size:32)".
 */
static bool ini_get(const char *text, const char *section, const char *key,
		    char *out, size_t size)
{
	const char *p = text;
	bool in = false;
	size_t klen = strlen(key);

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
			len--;
		if (len && p[0] == '[') {
			in = len == strlen(section) + 2 &&
			     !strncmp(p + 1, section, len - 2);
		} else if (in && len > klen && !strncasecmp(p, key, klen) &&
			   (p[klen] == '=' || p[klen] == '(' || p[klen] == ' ')) {
			const char *v = memchr(p, '=', len);

			if (v) {
				size_t vl = len - (v + 1 - p);

				if (vl >= size)
					vl = size - 1;
				memcpy(out, v + 1, vl);
				out[vl] = 0;
				return true;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return false;
}

static uint32_t ini_reg(const char *text, const char *key)
{
	char v[64];

	if (!ini_get(text, "regs", key, v, sizeof(v)))
		return 0;
	return strtoul(v, NULL, 0);
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		exit(2);
	return p;
}

/* The CPU number of the first ETE_<N>.ini in @dir, or -1 */
static int first_cpu(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int cpu = -1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "ETE_", 4) &&
		    (cpu < 0 || atoi(e->d_name + 4) < cpu))
			cpu = atoi(e->d_name + 4);
	closedir(d);
	return cpu;
}

/* ---- OpenCSD callbacks ---- */

static ocsd_datapath_resp_t elem_cb(const void *ctx,
				    const ocsd_trc_index_t index,
				    const uint8_t chan,
				    const ocsd_generic_trace_elem *e)
{
	struct decode *d = (struct decode *)ctx;
	ocsd_trc_index_t idx = index;
	struct range *r;

	(void)chan;
	/*
	 * OpenCSD 1.3.3 reads a Q element whose address came in a separate
	 * packet after freeing it (processQElement()): its index is junk.
	 * Elements come in stream order, so the last good index stands in.
	 */
	if (idx < d->seg_start || idx >= d->seg_end)
		idx = d->last_idx;
	d->last_idx = idx;
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
	case OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH:
		r = vec_push(&d->ranges);
		r->idx = idx;
		r->start = e->st_addr;
		r->end = e->en_addr;
		r->n = e->num_instr_range;
		r->q = e->elem_type == OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH;
		break;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		d->nacc++;
		if (!d->quiet)
			printf("E %llu no memory image at 0x%llx\n",
			       ULL(idx),
			       ULL(e->st_addr));
		break;
	default:
		break;
	}
	return OCSD_RESP_CONT;
}

/*
 * A-Sync packets: eleven 0x00 then 0x80.  No other packet holds eleven
 * zero bytes in a row, which is what makes the pattern a synchronization
 * point a decoder finds by scanning (OpenCSD's packet processor does so
 * when unsynchronized); the C API of 1.3.3 has no packet monitor for ETE.
 */
static void find_asyncs(const uint8_t *trace, size_t len, struct decode *d)
{
	size_t i, zeros = 0;

	for (i = 0; i < len; i++) {
		if (trace[i] == 0x80 && zeros >= 11)
			*(uint64_t *)vec_push(&d->asyncs) = i - 11;
		zeros = trace[i] ? 0 : zeros + 1;
	}
}

static void log_cb(const void *ctx, const char *msg, const int len)
{
	struct decode *d = (struct decode *)ctx;

	d->errors++;
	if (!d->quiet)
		printf("E %.*s%s", len, msg,
		       len && msg[len - 1] == '\n' ? "" : "\n");
}

/* ---- decode ---- */

/* One past the highest N of the [dumpN] sections of an ini text */
static int ini_dump_sections(const char *text)
{
	const char *p = text;
	int n = 0;

	while ((p = strstr(p, "[dump"))) {
		char *end;
		long k = strtol(p + 5, &end, 10);

		if (end != p + 5 && *end == ']' && k >= 0 && k < INT_MAX &&
		    k + 1 > n)
			n = k + 1;
		p += 5;
	}
	return n;
}

static int decode_stream(const char *dir, int cpu, const uint8_t *trace,
			 size_t len, const uint64_t *gaps, size_t ngaps,
			 struct decode *d)
{
	char name[64], *ete_ini, *cpu_ini, *p;
	ocsd_ete_cfg cfg = { 0 };
	dcd_tree_handle_t tree;
	uint8_t csid, **dumps;
	size_t seg, start;
	int k, ndumps, ret = -1;

	snprintf(name, sizeof(name), "ETE_%d.ini", cpu);
	p = path_in(dir, name);
	ete_ini = slurp(p, NULL);
	free(p);
	snprintf(name, sizeof(name), "cpu_%d.ini", cpu);
	p = path_in(dir, name);
	cpu_ini = slurp(p, NULL);
	free(p);
	if (!ete_ini || !cpu_ini) {
		fprintf(stderr, "ete-decode: %s: no ETE_%d.ini or cpu_%d.ini\n",
			dir, cpu, cpu);
		return -1;
	}
	/* every image etecap saved (up to 512), kept until the tree goes */
	ndumps = ini_dump_sections(cpu_ini);
	dumps = calloc(ndumps ? ndumps : 1, sizeof(*dumps));
	if (!dumps) {
		free(ete_ini);
		free(cpu_ini);
		return -1;
	}
	cfg.reg_idr0 = ini_reg(ete_ini, "TRCIDR0");
	cfg.reg_idr1 = ini_reg(ete_ini, "TRCIDR1");
	cfg.reg_idr2 = ini_reg(ete_ini, "TRCIDR2");
	cfg.reg_idr8 = ini_reg(ete_ini, "TRCIDR8");
	cfg.reg_devarch = ini_reg(ete_ini, "TRCDEVARCH");
	cfg.reg_configr = ini_reg(ete_ini, "TRCCONFIGR");
	cfg.reg_traceidr = ini_reg(ete_ini, "TRCTRACEIDR");
	cfg.arch_ver = ARCH_AA64;
	cfg.core_prof = OCSD_PROFILE_A;

	tree = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	if (!tree)
		goto out_free;
	ocsd_def_errlog_init(OCSD_ERR_SEV_ERROR, 1);
	ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL);
	ocsd_def_errlog_set_strprint_cb(tree, d, log_cb);
	if (ocsd_dt_create_decoder(tree, OCSD_BUILTIN_DCD_ETE,
				   OCSD_CREATE_FLG_FULL_DECODER, &cfg,
				   &csid) != OCSD_OK) {
		fprintf(stderr, "ete-decode: cannot create the ETE decoder\n");
		goto out_tree;
	}
	ocsd_dt_set_gen_elem_outfn(tree, elem_cb, d);
	for (k = 0; k < ndumps; k++) {
		char sect[16], file[256], addr[32];
		size_t dlen;

		snprintf(sect, sizeof(sect), "dump%d", k);
		if (!ini_get(cpu_ini, sect, "file", file, sizeof(file)) ||
		    !ini_get(cpu_ini, sect, "address", addr, sizeof(addr)))
			continue;
		p = path_in(dir, file);
		dumps[k] = (uint8_t *)slurp(p, &dlen);
		free(p);
		if (!dumps[k]) {
			fprintf(stderr, "ete-decode: %s: %s\n", file,
				strerror(errno));
			goto out_tree;
		}
		ocsd_dt_add_buffer_mem_acc(tree, strtoull(addr, NULL, 0),
					   OCSD_MEM_SPACE_ANY, dumps[k], dlen);
	}
	/* segments: [0, gap0), [gap0, gap1), ..., each decoded on its own */
	start = 0;
	for (seg = 0; seg <= ngaps; seg++) {
		size_t end = seg < ngaps ? gaps[seg] : len;

		if (end > len)
			end = len;
		if (end <= start)
			continue;
		ocsd_dt_process_data(tree, OCSD_OP_RESET, start, 0, NULL, NULL);
		d->seg_start = start;
		d->seg_end = end;
		d->last_idx = start;
		while (start < end) {
			uint32_t n = 0;
			ocsd_datapath_resp_t r;

			r = ocsd_dt_process_data(tree, OCSD_OP_DATA, start,
						 end - start, trace + start, &n);
			if (OCSD_DATA_RESP_IS_FATAL(r)) {
				d->errors++;
				printf("E %zu fatal decode error, segment skipped\n",
				       start);
				break;
			}
			start += n;
		}
		ocsd_dt_process_data(tree, OCSD_OP_EOT, 0, 0, NULL, NULL);
		start = end;
	}
	ret = 0;
out_tree:
	ocsd_destroy_dcd_tree(tree);
out_free:
	for (k = 0; k < ndumps; k++)
		free(dumps[k]);
	free(dumps);
	free(ete_ini);
	free(cpu_ini);
	return ret;
}

/*
 * Cut the decoded ranges into intervals: each A-Sync opens one, which the
 * next A-Sync completes; a segment end (a gap or the end of the stream)
 * closes it incomplete.  Ranges before a segment's first A-Sync belong to
 * no interval.
 */
static void split(struct decode *d, const uint64_t *gaps, size_t ngaps,
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

static void hash_intervals(struct decode *d, struct vec *iv)
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

/* ---- truth ---- */

struct truth {
	struct vec iv;		/* struct interval */
	struct vec ranges;	/* struct range (ranges mode) */
	bool hashes;
	bool lost;
};

static int read_truth(const char *path, struct truth *t)
{
	FILE *f = fopen(path, "r");
	char line[256];
	struct interval *cur = NULL;

	if (!f) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long off, a, b;
		unsigned int n;

		if (line[0] == '#') {
			t->lost = true;
		} else if (sscanf(line, "A %llu", &off) == 1) {
			if (cur)
				cur->complete = true;
			if (!t->hashes) {
				cur = vec_push(&t->iv);
				memset(cur, 0, sizeof(*cur));
				cur->aoff = off;
				cur->first = t->ranges.len;
			}
		} else if ((line[0] == 'R' || line[0] == 'Q') &&
			   sscanf(line + 1, " %llu %llx %llx %u", &off, &a, &b,
				  &n) == 4) {
			struct range *r = vec_push(&t->ranges);

			r->idx = off;
			r->start = a;
			r->end = b;
			r->n = n;
			r->q = line[0] == 'Q';
			if (cur)
				cur->count++;
		} else if (sscanf(line, "H %llu %u %llx", &off, &n, &a) == 3) {
			t->hashes = true;
			cur = vec_push(&t->iv);
			memset(cur, 0, sizeof(*cur));
			cur->aoff = off;
			cur->n = n;
			cur->hash = a;
			cur->complete = true;
		}
	}
	fclose(f);
	if (!t->hashes) {
		struct decode tmp = { .ranges = t->ranges };

		hash_intervals(&tmp, &t->iv);
	}
	return 0;
}

/* Decoded interval @v equals truth interval @w (a partial one: a prefix) */
static bool same(struct decode *d, struct interval *v, struct truth *t,
		 struct interval *w)
{
	size_t j;

	if (v->complete)
		return v->n == w->n && v->hash == w->hash;
	if (t->hashes || v->count > w->count)
		return false;
	for (j = 0; j < v->count; j++) {
		struct range *a = &AT(d->ranges, struct range, v->first + j);
		struct range *b = &AT(t->ranges, struct range, w->first + j);

		if (a->start != b->start || a->end != b->end || a->n != b->n ||
		    a->q != b->q)
			return false;
	}
	return true;
}

static void show_diff(struct decode *d, struct interval *v)
{
	size_t j;

	printf("# decoded interval at %llu (%u ranges, hash 0x%016llx) %s\n",
	       ULL(v->aoff), v->n,
	       ULL(v->hash),
	       "is not in the truth; its first ranges:");
	for (j = 0; j < v->count && j < 4; j++) {
		struct range *r = &AT(d->ranges, struct range, v->first + j);

		printf("#   %c 0x%llx 0x%llx %u\n", r->q ? 'Q' : 'R',
		       ULL(r->start), ULL(r->end), r->n);
	}
}

static int compare(struct decode *d, struct vec *iv, struct truth *t)
{
	size_t i, cursor = 0, ntruth = t->iv.len;
	unsigned long equal = 0, diff = 0, skipped = 0, partial = 0;
	bool chained = false;

	for (i = 0; i < iv->len; i++) {
		struct interval *v = &AT(*iv, struct interval, i);
		size_t k;
		bool found = false;

		if (!v->complete && (t->hashes || !v->count)) {
			skipped++;
			chained = false;
			continue;
		}
		if (chained) {
			/* within a segment: the very next truth interval */
			found = cursor < ntruth &&
				same(d, v, t, &AT(t->iv, struct interval, cursor));
			k = cursor;
		} else {
			for (k = cursor; k < ntruth; k++)
				if (same(d, v, t, &AT(t->iv, struct interval, k))) {
					found = true;
					break;
				}
		}
		if (found) {
			equal++;
			partial += !v->complete;
			/*
			 * A partial interval (a prefix) may match more than
			 * one place: it does not move the cursor.
			 */
			if (v->complete)
				cursor = k + 1;
			chained = v->complete;
		} else {
			diff++;
			show_diff(d, v);
			chained = false;
		}
	}
	printf("intervals: decoded %zu, compared %lu, equal %lu (%lu partial), ",
	       iv->len, equal + diff, equal, partial);
	printf("different %lu, skipped %lu; truth %zu%s; ranges %zu; errors %lu\n",
	       diff, skipped, ntruth,
	       t->lost ? " (records lost)" : "", d->ranges.len,
	       d->errors + d->nacc);
	return diff || t->lost || !equal || d->errors || d->nacc ? 1 : 0;
}

static size_t read_gaps(const char *dir, int cpu, uint64_t *gaps)
{
	char name[64], line[128], *p;
	size_t n = 0;
	FILE *f;

	snprintf(name, sizeof(name), "gaps_cpu%d.txt", cpu);
	p = path_in(dir, name);
	f = fopen(p, "r");
	free(p);
	if (!f)
		return 0;
	while (n < MAX_GAPS && fgets(line, sizeof(line), f)) {
		char *endp;
		unsigned long long off = strtoull(line, &endp, 10);

		if (endp != line && off > 0 &&
		    (!n || off > gaps[n - 1]))
			gaps[n++] = off;
	}
	fclose(f);
	return n;
}

/* The buffer file of ETE_<cpu> in trace.ini, or trace_cpu<cpu>.bin */
static char *trace_file(const char *dir, int cpu)
{
	char key[32], buf[64], file[256], sect[32], *ini, *p;
	int b;

	p = path_in(dir, "trace.ini");
	ini = slurp(p, NULL);
	free(p);
	snprintf(key, sizeof(key), "ETE_%d", cpu);
	if (ini && ini_get(ini, "source_buffers", key, buf, sizeof(buf))) {
		for (b = 0; b < 64; b++) {
			char name[64];

			snprintf(sect, sizeof(sect), "buffer%d", b);
			if (ini_get(ini, sect, "name", name, sizeof(name)) &&
			    !strcmp(name, buf) &&
			    ini_get(ini, sect, "file", file, sizeof(file))) {
				free(ini);
				return path_in(dir, file);
			}
		}
	}
	free(ini);
	snprintf(file, sizeof(file), "trace_cpu%d.bin", cpu);
	return path_in(dir, file);
}

static const char usage[] =
	"usage: ete-decode [options] SNAPSHOT_DIR\n"
	"Decode one CPU's ETE trace from an OpenCSD snapshot directory (as etecap\n"
	"writes it) with OpenCSD and print the executed instruction ranges.\n"
	"\n"
	"      --cpu N          the CPU whose trace to decode (default: the lowest\n"
	"                       N with an ETE_<N>.ini in the snapshot)\n"
	"      --hash           print, per A-Sync interval, the offset and a hash of\n"
	"                       its ranges instead of the ranges\n"
	"      --compare TRUTH  compare the decode with the model's ground truth\n"
	"                       file TRUTH (R/Q/A or A/H records); exit 1 on a\n"
	"                       difference\n"
	"  -h, --help           this help\n"
	"      --version        print the version and exit\n"
	"\n"
	"Exit status: 0 decoded with no error (and, with --compare, equal to the\n"
	"truth), 1 decode errors or differences, 2 bad usage or unreadable files.\n";

enum { OPT_CPU = 256, OPT_HASH, OPT_COMPARE, OPT_VERSION };

static const struct option long_opts[] = {
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "hash", no_argument, NULL, OPT_HASH },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ }
};

/* A bad command line: what is wrong, the synopsis, exit status 2 */
static int bad_usage(const char *msg, const char *arg)
{
	if (msg)
		fprintf(stderr, "ete-decode: %s%s%s\n", arg ? arg : "",
			arg ? ": " : "", msg);
	fprintf(stderr, "%.*s(ete-decode --help for the options)\n",
		(int)(strchr(usage, '\n') + 1 - usage), usage);
	return 2;
}

int main(int argc, char **argv)
{
	struct decode d = { .ranges.size = sizeof(struct range),
			    .asyncs.size = sizeof(uint64_t) };
	struct vec iv = { .size = sizeof(struct interval) };
	struct truth t = { .iv.size = sizeof(struct interval),
			   .ranges.size = sizeof(struct range) };
	const char *dir = NULL, *truth = NULL;
	static uint64_t gaps[MAX_GAPS];
	bool hash = false;
	int cpu = -1, i;
	size_t len, ngaps;
	uint8_t *trace;
	char *path;

	/* options and the directory in any order, as getopt_long() permutes */
	while ((i = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		char *end;
		long n;

		switch (i) {
		case OPT_CPU:
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || n < 0 || n > INT_MAX)
				return bad_usage("--cpu takes a CPU number", optarg);
			cpu = n;
			break;
		case OPT_HASH:
			hash = true;
			break;
		case OPT_COMPARE:
			truth = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case OPT_VERSION:
			printf("ete-decode %s\n", ETE_VERSION);
			return 0;
		default:
			return bad_usage(NULL, NULL);
		}
	}
	if (optind != argc - 1)
		return bad_usage(optind < argc ? "one snapshot directory only" :
				 "no snapshot directory", NULL);
	dir = argv[optind];
	if (cpu < 0)
		cpu = first_cpu(dir);
	if (cpu < 0) {
		fprintf(stderr, "ete-decode: %s: no ETE_<N>.ini\n", dir);
		return 2;
	}
	path = trace_file(dir, cpu);
	trace = (uint8_t *)slurp(path, &len);
	if (!trace) {
		fprintf(stderr, "ete-decode: %s: %s\n", path, strerror(errno));
		return 2;
	}
	free(path);
	ngaps = read_gaps(dir, cpu, gaps);
	d.quiet = hash;
	if (decode_stream(dir, cpu, trace, len, gaps, ngaps, &d))
		return 2;
	find_asyncs(trace, len, &d);
	split(&d, gaps, ngaps, len, &iv);
	hash_intervals(&d, &iv);
	if (truth) {
		if (read_truth(truth, &t))
			return 2;
		return compare(&d, &iv, &t);
	}
	if (hash) {
		for (i = 0; i < (int)iv.len; i++) {
			struct interval *v = &AT(iv, struct interval, i);

			printf("A %llu\n", ULL(v->aoff));
			if (v->complete)
				printf("H %llu %u 0x%016llx\n",
				       ULL(v->aoff), v->n,
				       ULL(v->hash));
		}
		return d.errors ? 1 : 0;
	}
	for (i = 0; i < (int)d.ranges.len; i++) {
		struct range *r = &AT(d.ranges, struct range, i);

		printf("%c %llu 0x%llx 0x%llx %u\n", r->q ? 'Q' : 'R',
		       ULL(r->idx), ULL(r->start), ULL(r->end), r->n);
	}
	printf("# %zu ranges, %zu segments, %lu errors\n", d.ranges.len,
	       ngaps + 1, d.errors + d.nacc);
	return d.errors || d.nacc ? 1 : 0;
}
