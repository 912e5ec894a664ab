// SPDX-License-Identifier: GPL-2.0
/*
 * ete-decode: decode the ETE trace of an OpenCSD snapshot directory with
 * OpenCSD's C API: print the executed instruction ranges with the
 * functions they start in, the tasks (context IDs), timestamps,
 * exceptions, trace on/off and the driver's gaps, as text or JSON lines;
 * or hash one CPU's ranges per interval between A-Syncs, or compare them
 * with the model's ground truth (Documentation/model.rst, "Ground truth";
 * e2e-interface.txt).
 *
 *   ete-decode [--cpu N] [--source NAME] [--hash] [--compare TRUTH]
 *              [--format F] [-j N] SNAPSHOT_DIR
 *
 * The snapshot is any in OpenCSD's format (snapshot.c reads it); etecap's
 * streams are cut at the gap markers of gaps_cpuN.txt ("offset lost
 * reason" lines): each segment is decoded on its own, from its first
 * A-Sync.  Runs on the host; links Debian's libopencsd.
 *
 * Every ETE trace source of the snapshot (or those of --cpu, --source) is
 * decoded by a thread of its own, up to -j at a time, into a buffer of
 * its own; the buffers are printed in CPU order, so the output does not
 * depend on -j.  This file is the command line; ete-decode.h says where
 * the rest is.
 *
 * Besides instruction ranges ("R"), the decode yields what Q elements say
 * when their path is unknown (OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH: n
 * instructions from a start, execution went on at a next address), "Q"
 * records of the truth; hashes fold them in as (start, next) then
 * (n, Q_MARK).
 */
#include "ete-decode.h"

struct decode_cfg cfg = {
	.syms.size = sizeof(struct sym),
	.tasks.size = sizeof(struct task),
};

static const char usage[] =
	"usage: ete-decode [options] SNAPSHOT_DIR\n"
	"Decode the ETE trace of an OpenCSD snapshot directory (etecap's, or any\n"
	"in OpenCSD's snapshot format) with OpenCSD: print the executed\n"
	"instruction ranges with their\n"
	"functions, the tasks, timestamps, exceptions, trace on/off and gaps.\n"
	"\n"
	"      --cpu N          decode the trace sources of core cpu_N only\n"
	"                       (default: every ETE trace source of the snapshot;\n"
	"                       with --hash or --compare, the lowest CPU's)\n"
	"      --source NAME    decode the trace source NAME (ETE_0, ETE_0_s2) or\n"
	"                       the ETE sources of the buffer NAME (ETB_1) only\n"
	"      --format FMT     text (default) or json: one JSON object a line\n"
	"  -j, --jobs N         decode up to N CPUs at once, a thread each\n"
	"                       (default: the number of online CPUs; 1: one\n"
	"                       thread); the output is the same for any N\n"
	"      --hash           print, per A-Sync interval, the offset and a hash of\n"
	"                       its ranges instead of the ranges\n"
	"      --compare TRUTH  compare the decode with the model's ground truth\n"
	"                       file TRUTH (R/Q/A or A/H records); exit 1 on a\n"
	"                       difference\n"
	"      --to-perf FILE   write the snapshot (--cpu N: that CPU's trace\n"
	"                       only) as a perf.data FILE, its code as ELF\n"
	"                       images in FILE.d/, and exit\n"
	"      --to-autofdo FILE  write the trace of the ELF file --binary BINARY\n"
	"                       as AutoFDO's text input (create_llvm_prof and\n"
	"                       create_gcov --profiler=text), and exit\n"
	"      --binary BINARY  the executable or library --to-autofdo is for: a\n"
	"                       non-PIE one at its link addresses, else at the\n"
	"                       load bias of elf.txt's file of the same name\n"
	"  -h, --help           this help\n"
	"      --version        print the version and exit\n"
	"\n"
	"Symbols: the snapshot's symbols.txt (\"0xVA SIZE NAME\" lines), its memory\n"
	"images that are ELF files, and the ELF files of its elf.txt\n"
	"(\"0xLOAD_BIAS PATH\" lines); tasks: its contexts.txt; the timestamps'\n"
	"frequency: cntfrq_el0= of its machine.txt.\n"
	"\n"
	"Exit status: 0 decoded with no error (and, with --compare, equal to the\n"
	"truth), 1 decode errors or differences, 2 bad usage or unreadable files.\n";

enum { OPT_CPU = 256, OPT_HASH, OPT_COMPARE, OPT_VERSION, OPT_TO_PERF,
	OPT_FORMAT, OPT_SOURCE, OPT_TO_AFDO, OPT_BINARY };

static const struct option long_opts[] = {
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "jobs", required_argument, NULL, 'j' },
	{ "hash", no_argument, NULL, OPT_HASH },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "to-perf", required_argument, NULL, OPT_TO_PERF },
	{ "to-autofdo", required_argument, NULL, OPT_TO_AFDO },
	{ "binary", required_argument, NULL, OPT_BINARY },
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

/* A number in [min, max], or -1 */
static long number(const char *s, long min, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < min || n > max)
		return -1;
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * --to-perf: the tasks perf needs are the context IDs the trace carries:
 * the decode collected them, CPU by CPU; write the perf.data (perfdata.c)
 */
static int to_perf(const char *dir, int only, const char *out)
{
	struct perfdata_opts o = { .cpu = only, .log = stderr };
	uint32_t tids[64];
	char err[512];
	size_t i, k, n = 0;

	for (i = 0; i < njobs; i++) {
		struct decode *d = &jobs[i].d;

		for (k = 0; k < d->nctx && n < ARRAY_SIZE(tids); k++) {
			size_t m;

			for (m = 0; m < n && tids[m] != d->ctx[k]; m++)
				;
			if (m == n)
				tids[n++] = d->ctx[k];
		}
	}
	o.tids = tids;
	o.ntids = n;
	if (perfdata_write(dir, out, &o, err, sizeof(err))) {
		fprintf(stderr, "ete-decode: %s\n", err);
		return 2;
	}
	return 0;
}

/* --hash and --compare: one CPU's intervals */
static int check_one(struct job *j, const char *truth)
{
	struct vec iv = { .size = sizeof(struct interval) };
	struct truth t = { .iv.size = sizeof(struct interval),
			   .ranges.size = sizeof(struct range) };
	struct decode *d = &j->d;
	size_t i;

	find_asyncs(j->trace, j->len, d);
	split(d, j->gap_offs, j->ngaps, j->len, &iv);
	hash_intervals(d, &iv);
	if (truth) {
		if (read_truth(truth, &t))
			return 2;
		return compare(d, &iv, &t, j->gaps, j->ngaps);
	}
	for (i = 0; i < iv.len; i++) {
		struct interval *v = &AT(iv, struct interval, i);

		printf("A %llu\n", ULL(v->aoff));
		if (v->complete)
			printf("H %llu %u 0x%016llx\n", ULL(v->aoff), v->n,
			       ULL(v->hash));
	}
	return d->errors ? 1 : 0;
}

static int cmp_job(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	unsigned int cx = x->cpu, cy = y->cpu;	/* -1, no CPU: last */

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x->src > y->src) - (x->src < y->src);
}

/*
 * The jobs: the snapshot's ETE trace sources (of core cpu_@cpu if @cpu is
 * not negative, named @source or in the buffer named @source if given),
 * in CPU order.  --hash and --compare take a raw (source_data) buffer: the
 * gaps and A-Syncs are at its byte offsets.  0, or 2 and a message.
 */
static int select_sources(const struct snapshot *ss, long cpu,
			  const char *source)
{
	size_t i, n = 0;

	jobs = calloc(ss->nsrc, sizeof(*jobs));
	if (!jobs) {
		perror("ete-decode");
		return 2;
	}
	for (i = 0; i < ss->nsrc; i++) {
		const struct ss_source *src = &ss->src[i];
		bool named = source && (!strcmp(src->dev->name, source) ||
					!strcmp(src->buf->name, source));

		if ((cpu >= 0 && src->cpu != cpu) || (source && !named))
			continue;
		/* "ETE" or "ETE.<version>" as OpenCSD's snapshot reader */
		if (strncmp(src->dev->type, "ETE", 3) ||
		    (src->dev->type[3] && src->dev->type[3] != '.')) {
			if (named)
				fprintf(stderr, "ete-decode: %s: type=%s: %s\n",
					src->dev->ini.path, src->dev->type,
					"not an ETE trace source");
			continue;
		}
		if (cfg.mode == MODE_STORE && src->buf->format != SS_SOURCE_DATA) {
			fprintf(stderr, "ete-decode: %s: %s\n", src->buf->name,
				"--hash and --compare need source_data, not formatted trace");
			return 2;
		}
		jobs[n].src = src;
		jobs[n].cpu = src->cpu;
		n++;
	}
	njobs = n;
	if (!njobs) {
		fprintf(stderr, "ete-decode: %s: no ETE trace source%s%s%s\n",
			ss->dir, source ? " named " : "", source ? source : "",
			cpu >= 0 ? " of that CPU" : "");
		return 2;
	}
	qsort(jobs, njobs, sizeof(*jobs), cmp_job);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *truth = NULL, *perf = NULL, *source = NULL;
	const char *afdo = NULL, *binary = NULL;
	struct snapshot ss;
	char err[512];
	struct vec seen = { .size = sizeof(char *) };
	unsigned long long bytes = 0;
	long cpu = -1, nthreads = 0, online;
	bool hash = false;
	int i, ret = 0;
	size_t k;
	double t0;

	/* options and the directory in any order, as getopt_long() permutes */
	while ((i = getopt_long(argc, argv, "hj:", long_opts, NULL)) != -1) {
		switch (i) {
		case OPT_CPU:
			cpu = number(optarg, 0, INT_MAX);
			if (cpu < 0)
				return bad_usage("--cpu takes a CPU number", optarg);
			break;
		case OPT_SOURCE:
			source = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return bad_usage("--format is text or json", optarg);
			cfg.json = !strcmp(optarg, "json");
			break;
		case 'j':
			nthreads = number(optarg, 1, 4096);
			if (nthreads < 0)
				return bad_usage("-j takes a number of threads, 1 to 4096",
						 optarg);
			break;
		case OPT_HASH:
			hash = true;
			break;
		case OPT_COMPARE:
			truth = optarg;
			break;
		case OPT_TO_PERF:
			perf = optarg;
			break;
		case OPT_TO_AFDO:
			afdo = optarg;
			break;
		case OPT_BINARY:
			binary = optarg;
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
	if (cfg.json && (hash || truth))
		return bad_usage("--format json goes with neither --hash nor --compare",
				 NULL);
	if (!afdo != !binary)
		return bad_usage("--to-autofdo and --binary go together", NULL);
	if (afdo && (perf || hash || truth || cfg.json))
		return bad_usage("--to-autofdo goes with no --to-perf, --hash, --compare or json",
				 NULL);
	cfg.mode = perf ? MODE_CONTEXTS : afdo ? MODE_AFDO :
		   hash || truth ? MODE_STORE : MODE_PRINT;

	if (ss_open(&ss, dir, err, sizeof(err))) {
		fprintf(stderr, "ete-decode: %s\n", err);
		ss_close(&ss);
		return 2;
	}
	ret = select_sources(&ss, cpu, source);
	if (ret)
		goto out;
	/* one CPU's truth: the lowest CPU's */
	if (cfg.mode == MODE_STORE)
		njobs = 1;
	if (cfg.mode == MODE_PRINT) {
		read_symbols_txt(dir);
		read_elf_txt(dir);
		read_contexts(dir);
		read_cntfrq(dir);
	}
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (!nthreads)
		nthreads = online > 0 ? online : 1;
	if ((size_t)nthreads > njobs)
		nthreads = njobs;

	t0 = now();
	ocsd_def_errlog_init(OCSD_ERR_SEV_ERROR, 1);
	ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL);
	for (k = 0; k < njobs; k++) {
		jobs[k].d.slot = k;
		jobs[k].d.quiet = hash || perf || afdo;
		ret = setup_job(&ss, &jobs[k], &seen);
		/* --to-perf takes the CPUs it has files of, as perfdata does */
		if (ret && perf) {
			jobs[k].skip = true;
			ret = 0;
		}
		if (ret)
			goto out;
		bytes += jobs[k].len;
	}
	if (cfg.mode == MODE_PRINT)
		sort_symbols();

	run_jobs(nthreads);
	fflush(stdout);

	if (perf) {
		ret = to_perf(dir, cpu, perf);
	} else if (afdo) {
		unsigned long errors = 0;

		for (k = 0; k < njobs; k++)
			errors += jobs[k].d.errors + jobs[k].d.nacc;
		ret = afdo_write(dir, afdo, binary);
		if (errors) {
			fprintf(stderr, "ete-decode: %lu decode errors\n", errors);
			ret = ret ? ret : 1;
		}
	} else if (cfg.mode == MODE_STORE) {
		ret = check_one(&jobs[0], truth);
	} else {
		double t = now() - t0;

		for (k = 0; k < njobs; k++)
			if (jobs[k].d.errors || jobs[k].d.nacc)
				ret = 1;
		fprintf(stderr,
			"ete-decode: %llu bytes of trace from %zu CPU%s in %.3f s: %.1f MB/s (%ld thread%s)\n",
			bytes, njobs, njobs == 1 ? "" : "s", t,
			t > 0 ? bytes / t / 1e6 : 0.0, nthreads,
			nthreads == 1 ? "" : "s");
	}
out:
	for (k = 0; k < njobs; k++)
		free_job(&jobs[k]);
	free(jobs);
	free_images();
	ss_close(&ss);
	for (k = 0; k < seen.len; k++)
		free(AT(seen, char *, k));
	free(seen.p);
	return ret;
}
