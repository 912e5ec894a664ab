// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the command line.  Every value is checked here, before anything
 * is written to sysfs, so that a bad option changes nothing.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etecap.h"

static const char usage[] =
	"usage: etecap [options] [-- command [args...]]\n"
	"Trace CPUs with ETE while a command runs (or for a time, or until ^C) and\n"
	"write an OpenCSD snapshot directory.\n"
	"\n"
	"  -o, --output DIR          snapshot directory (default etecap.snapshot)\n"
	"  -c, --cpus LIST           CPUs to trace, e.g. 0-3,6 (default: all online)\n"
	"  -a, --all-cpus            every online CPU (system-wide; no --cpus)\n"
	"  -P, --profile NAME        use configfs profile NAME (its CPUs and settings)\n"
	"  -p, --attach PID          attach to a running process: trace it, its\n"
	"                            threads and children (task mode), save their\n"
	"                            code, detach; ends when they do\n"
	"  -t, --duration TIME       stop after TIME (ms, or with s/ms suffix)\n"
	"      --preset NAME         autofdo, flight, kernel or user: a set of the\n"
	"                            options below; options given explicitly win\n"
	"  -e, --el LIST             exception levels: 0,1,2, user, kernel or all\n"
	"      --include START-LAST  trace only inside [START, LAST] (repeatable)\n"
	"      --exclude START-LAST  do not trace inside [START, LAST] (repeatable)\n"
	"      --start ADDR          start tracing at ADDR (repeatable)\n"
	"      --stop ADDR           stop tracing at ADDR (repeatable)\n"
	"      --cycles[=THRESHOLD]  cycle counts (threshold in cycles)\n"
	"      --timestamps          timestamps\n"
	"      --return-stack        return stack (TRCCONFIGR.RS)\n"
	"      --branch-broadcast    branch broadcast (TRCCONFIGR.BB)\n"
	"      --no-context-id       no context ID (PID) packets\n"
	"      --pid PID[,PID...]    trace only these tasks (and their threads)\n"
	"      --comm NAME           trace only the tasks named NAME at the start\n"
	"      --q-elements          Q elements with instruction counts\n"
	"                            (TRCCONFIGR.QE; the path is lost in them)\n"
	"      --sync-period BYTES   A-Sync period, a power of two\n"
	"      --sample W/P          sampled trace: W cycles in every P, P a\n"
	"                            multiple of W (always-on profiling)\n"
	"  -b, --buffer-size SIZE    TRBE buffer per CPU (K/M suffix, power of two)\n"
	"  -m, --mode MODE           fill, wrap or circular; in wrap and circular,\n"
	"                            SIGUSR2 writes a snapshot DIR.1, DIR.2, ...\n"
	"                            and the trace goes on\n"
	"      --when-behind POLICY  fill mode, reader behind: stop or drop\n"
	"      --mem FILE@VA         add FILE as memory at VA (repeatable)\n"
	"      --no-kernel           do not save kernel text and module addresses\n"
	"      --progress MS         progress line interval on stderr (0: none)\n"
	"      --perf-data FILE      also write the snapshot as a perf.data FILE\n"
	"                            (its code as ELF images in FILE.d/)\n"
	"      --all-tasks           no task mode: with a command, everything the\n"
	"                            CPUs run; with -p PID[,PID...], up to 8\n"
	"                            threads by context ID (as --pid)\n"
	"      --ptrace              follow the command with ptrace, stopping each\n"
	"                            task at exit to save its code (default: from\n"
	"                            perf's mmap records, stopping nothing)\n"
	"      --others-max SIZE     system-wide (no command, -p, --pid or --comm):\n"
	"                            at most SIZE of code of the other tasks alive\n"
	"                            at the stop (default 256M; 0: none)\n"
	"  -q, --quiet               no progress, only errors\n"
	"  -h, --help                this help\n"
	"      --version             print the version and exit\n";

void etecap_usage(FILE *f)
{
	fputs(usage, f);
}

static int parse_u64(const char *s, __u64 *v)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || *end) ? -EINVAL : 0;
}

/* a size with an optional K, M or G suffix */
static int parse_size(const char *s, long long *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(s, &end, 0);
	if (errno || end == s || n <= 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K':
		n <<= 10, end++;
		break;
	case 'm': case 'M':
		n <<= 20, end++;
		break;
	case 'g': case 'G':
		n <<= 30, end++;
		break;
	}
	if (*end)
		return -EINVAL;
	*v = n;
	return 0;
}

/* milliseconds: "300", "300ms", "2s" */
static int parse_duration(const char *s, long *ms)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || n < 0)
		return -EINVAL;
	if (!strcmp(end, "s"))
		n *= 1000;
	else if (*end && strcmp(end, "ms"))
		return -EINVAL;
	*ms = n;
	return 0;
}

/* -e LIST (and a preset's): 0,1,2, user, kernel or all; 0 or -EINVAL */
int etecap_parse_el(const char *s, int *mask)
{
	char *copy, *tok, *save = NULL;
	int m = 0, ret = 0;

	/* all: the unit's default, every Non-secure EL it implements */
	if (!strcmp(s, "all")) {
		*mask = ETECAP_UNSET;
		return 0;
	}
	/* kernel: EL1, or EL2 where the kernel runs there (configure_unit) */
	if (!strcmp(s, "kernel")) {
		*mask = ETECAP_EL_KERNEL;
		return 0;
	}
	if (!strcmp(s, "user"))
		s = "0";
	copy = strdup(s);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strlen(tok) != 1 || tok[0] < '0' || tok[0] > '2') {
			ret = -EINVAL;
			break;
		}
		m |= 1 << (tok[0] - '0');
	}
	free(copy);
	if (!m)
		ret = -EINVAL;
	*mask = m;
	return ret;
}

static int parse_range(const char *s, struct etecap_range *r)
{
	char *copy = strdup(s), *dash = strchr(copy, '-');
	int ret = -EINVAL;

	if (dash) {
		*dash = 0;
		if (!parse_u64(copy, &r->start) && !parse_u64(dash + 1, &r->last) &&
		    r->start <= r->last)
			ret = 0;
	}
	free(copy);
	return ret;
}

static int parse_mem(const char *s, struct etecap_mem_arg *m)
{
	const char *at = strrchr(s, '@');

	if (!at || at == s || parse_u64(at + 1, &m->va))
		return -EINVAL;
	m->file = strndup(s, at - s);
	if (access(m->file, R_OK))
		return -errno;
	return 0;
}

static bool one_of(const char *s, const char *a, const char *b, const char *c)
{
	return !strcmp(s, a) || !strcmp(s, b) || (c && !strcmp(s, c));
}

enum {
	OPT_INCLUDE = 256, OPT_EXCLUDE, OPT_START, OPT_STOP, OPT_CYCLES,
	OPT_TS, OPT_RS, OPT_BB, OPT_NOCID, OPT_SYNC, OPT_BEHIND, OPT_MEM,
	OPT_NOKERNEL, OPT_PROGRESS, OPT_Q, OPT_VERSION, OPT_PERF_DATA,
	OPT_PRESET, OPT_PID, OPT_COMM, OPT_OTHERS_MAX, OPT_ALL_TASKS, OPT_SAMPLE,
	OPT_PTRACE,
};

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "profile", required_argument, NULL, 'P' },
	{ "attach", required_argument, NULL, 'p' },
	{ "duration", required_argument, NULL, 't' },
	{ "el", required_argument, NULL, 'e' },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "start", required_argument, NULL, OPT_START },
	{ "stop", required_argument, NULL, OPT_STOP },
	{ "cycles", optional_argument, NULL, OPT_CYCLES },
	{ "timestamps", no_argument, NULL, OPT_TS },
	{ "return-stack", no_argument, NULL, OPT_RS },
	{ "branch-broadcast", no_argument, NULL, OPT_BB },
	{ "no-context-id", no_argument, NULL, OPT_NOCID },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "q-elements", no_argument, NULL, OPT_Q },
	{ "sync-period", required_argument, NULL, OPT_SYNC },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "mode", required_argument, NULL, 'm' },
	{ "when-behind", required_argument, NULL, OPT_BEHIND },
	{ "mem", required_argument, NULL, OPT_MEM },
	{ "no-kernel", no_argument, NULL, OPT_NOKERNEL },
	{ "progress", required_argument, NULL, OPT_PROGRESS },
	{ "perf-data", required_argument, NULL, OPT_PERF_DATA },
	{ "others-max", required_argument, NULL, OPT_OTHERS_MAX },
	{ "all-tasks", no_argument, NULL, OPT_ALL_TASKS },
	{ "ptrace", no_argument, NULL, OPT_PTRACE },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ }
};

static void opts_defaults(struct etecap_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->outdir = "etecap.snapshot";
	o->el_mask = ETECAP_UNSET;
	o->cycles = ETECAP_UNSET;
	o->cc_threshold = ETECAP_UNSET;
	o->timestamps = ETECAP_UNSET;
	o->return_stack = ETECAP_UNSET;
	o->branch_broadcast = ETECAP_UNSET;
	o->context_id = ETECAP_UNSET;
	o->q_elements = ETECAP_UNSET;
	o->sync_period = ETECAP_UNSET;
	o->buffer_size = ETECAP_UNSET;
	o->duration_ms = ETECAP_UNSET;
	o->sample_window = ETECAP_UNSET;
	o->kernel = true;
	o->progress_ms = 1000;
	o->others_max = ETECAP_OTHERS_MAX;
}

/* One option; returns 0 or a message for the user */
static const char *parse_one(struct etecap_opts *o, int c, const char *arg)
{
	static char msg[160];
	const char *why;
	long long ll;
	__u64 v;
	int n;

	switch (c) {
	case 'o':
		o->outdir = arg;
		return NULL;
	case 'c':
		free(o->cpus);
		o->ncpus = 0;
		n = etecap_parse_cpulist(arg, &o->cpus, &why);
		if (n < 0) {
			snprintf(msg, sizeof(msg),
				 "--cpus \"%.64s\": %s (a list such as 0-3,6)",
				 arg, why);
			return msg;
		}
		o->ncpus = n;
		return NULL;
	case 'P':
		o->profile = arg;
		return NULL;
	case 't':
		return parse_duration(arg, &o->duration_ms) ?
			"--duration takes milliseconds, or a number with s or ms" : NULL;
	case 'e':
		o->el_given = true;
		return etecap_parse_el(arg, &o->el_mask) ?
			"--el takes a list of 0, 1, 2, or user, kernel, all" : NULL;
	case 'a':
		o->all_cpus = true;
		return NULL;
	case 'p':
		o->attach = true;
		/* the processes attached to are the ones traced */
		fallthrough;
	case OPT_PID: {
		char *copy = strdup(arg), *tok, *save = NULL;
		const char *bad = NULL;

		for (tok = strtok_r(copy, ",", &save); tok && !bad;
		     tok = strtok_r(NULL, ",", &save)) {
			if (parse_u64(tok, &v) || !v || v > 4194304)
				bad = "--pid and --attach take PIDs, 1 to 4194304, comma separated";
			else if (o->npids == ETECAP_MAX_PIDS)
				bad = "--pid, --attach: at most 8 tasks (context ID comparators)";
			else
				o->pids[o->npids++] = v;
		}
		free(copy);
		return bad;
	}
	case OPT_COMM:
		if (!*arg || strlen(arg) > 15)
			return "--comm takes a task name of 1 to 15 characters";
		o->comm = arg;
		return NULL;
	case OPT_PRESET:
		o->preset = etecap_find_preset(arg);
		return o->preset ? NULL :
			"--preset is autofdo, flight, kernel or user (etecap(1), PRESETS)";
	case OPT_INCLUDE:
	case OPT_EXCLUDE: {
		bool inc = c == OPT_INCLUDE;
		int *cnt = inc ? &o->ninclude : &o->nexclude;

		if (*cnt == ETECAP_MAX_RANGES)
			return "too many address ranges";
		if (parse_range(arg, inc ? &o->include[*cnt] : &o->exclude[*cnt]))
			return "an address range is START-LAST, START <= LAST";
		(*cnt)++;
		return NULL;
	}
	case OPT_START:
	case OPT_STOP: {
		bool start = c == OPT_START;
		int *cnt = start ? &o->nstart : &o->nstop;

		if (*cnt == ETECAP_MAX_SINGLES)
			return "too many start/stop addresses";
		if (parse_u64(arg, &v))
			return "--start and --stop take an address";
		/* no instruction starts at an odd address (SMLDYK) */
		if (v & 1)
			return "--start and --stop take an instruction's (even) address";
		(start ? o->start_addr : o->stop_addr)[(*cnt)++] = v;
		return NULL;
	}
	case OPT_CYCLES:
		o->cycles = 1;
		if (arg) {
			if (parse_u64(arg, &v) || v > 4095)
				return "--cycles=THRESHOLD takes 1 to 4095 cycles";
			o->cc_threshold = v;
		}
		return NULL;
	case OPT_TS:
		o->timestamps = 1;
		return NULL;
	case OPT_RS:
		o->return_stack = 1;
		return NULL;
	case OPT_BB:
		o->branch_broadcast = 1;
		return NULL;
	case OPT_NOCID:
		o->context_id = 0;
		return NULL;
	case OPT_Q:
		o->q_elements = 1;
		return NULL;
	case OPT_SYNC:
		if (parse_size(arg, &ll) || (ll & (ll - 1)))
			return "--sync-period takes a power of two of bytes";
		o->sync_period = ll;
		return NULL;
	case 'b':
		if (parse_size(arg, &ll) || (ll & (ll - 1)))
			return "--buffer-size takes a power of two (K, M suffixes)";
		o->buffer_size = ll;
		return NULL;
	case 'm':
		if (!one_of(arg, "fill", "wrap", "circular"))
			return "--mode is fill, wrap or circular";
		o->mode = arg;
		return NULL;
	case OPT_BEHIND:
		if (!one_of(arg, "stop", "drop", NULL))
			return "--when-behind is stop or drop";
		o->when_behind = arg;
		return NULL;
	case OPT_MEM:
		if (o->nmem == ETECAP_MAX_MEM)
			return "too many --mem images";
		if (parse_mem(arg, &o->mem[o->nmem]))
			return "--mem takes a readable FILE@0xADDRESS";
		o->nmem++;
		return NULL;
	case OPT_NOKERNEL:
		o->kernel = false;
		return NULL;
	case OPT_ALL_TASKS:
		o->all_tasks = true;
		return NULL;
	case OPT_PTRACE:
		o->ptrace = true;
		return NULL;
	case OPT_SAMPLE:
		return etecap_parse_sample(arg, o);
	case OPT_PROGRESS:
		if (parse_u64(arg, &v) || v > INT_MAX)
			return "--progress takes milliseconds";
		o->progress_ms = v;
		return NULL;
	case OPT_OTHERS_MAX:
		if (!strcmp(arg, "0"))
			o->others_max = 0;
		else if (parse_size(arg, &o->others_max))
			return "--others-max takes a size (K/M/G suffix), or 0";
		return NULL;
	case OPT_PERF_DATA:
		if (!*arg)
			return "--perf-data takes a file name";
		o->perf_data = arg;
		return NULL;
	case 'q':
		o->quiet = true;
		return NULL;
	}
	return "";
}

/* With --profile the unit and buffer settings are the profile's */
static const char *check_profile(const struct etecap_opts *o)
{
	if (!o->profile)
		return NULL;
	if (o->ncpus)
		return "--profile selects the CPUs: no --cpus with it";
	if (o->el_mask != ETECAP_UNSET || o->ninclude || o->nexclude ||
	    o->nstart || o->nstop || o->cycles != ETECAP_UNSET ||
	    o->timestamps != ETECAP_UNSET || o->return_stack != ETECAP_UNSET ||
	    o->branch_broadcast != ETECAP_UNSET ||
	    o->context_id != ETECAP_UNSET || o->q_elements != ETECAP_UNSET ||
	    o->sync_period != ETECAP_UNSET ||
	    o->sample_window != ETECAP_UNSET ||
	    o->buffer_size != ETECAP_UNSET || o->mode || o->when_behind)
		return "--profile carries the trace settings: change them in the profile";
	return NULL;
}

/* A start and a stop on one address is UNPREDICTABLE (RXHFYQ) */
static const char *check_singles(const struct etecap_opts *o)
{
	const char *why =
		"--start and --stop on one address is UNPREDICTABLE: stop at the next instruction";
	int i, j;

	for (i = 0; i < o->nstart; i++)
		for (j = 0; j < o->nstop; j++)
			if (o->start_addr[i] == o->stop_addr[j])
				return why;
	return NULL;
}

/*
 * The --start and --stop addresses in the order etecap gives them single
 * address comparators: by address, as the architecture requires of
 * comparators used as start/stop points (RSFXZB).  Returns how many.
 */
int etecap_singles(const struct etecap_opts *o, struct etecap_single *out)
{
	int i, j, n = 0;

	for (i = 0; i < o->nstart + o->nstop; i++) {
		struct etecap_single s = {
			.start = i < o->nstart,
			.addr = i < o->nstart ? o->start_addr[i] :
					       o->stop_addr[i - o->nstart],
		};

		for (j = n; j > 0 && out[j - 1].addr > s.addr; j--)
			out[j] = out[j - 1];
		out[j] = s;
		n++;
	}
	return n;
}

/*
 * Fill @o from the command line.  Returns 0, 1 for --help and --version
 * (done: exit 0), or -EINVAL after printing what is wrong.
 */
int etecap_parse(struct etecap_opts *o, int argc, char **argv)
{
	const char *msg;
	int c;

	opts_defaults(o);
	while ((c = getopt_long(argc, argv, "+o:c:ap:P:t:e:b:m:qh", long_opts,
				NULL)) != -1) {
		if (c == 'h') {
			etecap_usage(stdout);
			return 1;
		}
		if (c == OPT_VERSION) {
			printf("etecap %s\n", ETE_VERSION);
			return 1;
		}
		if (c == '?') {
			etecap_usage(stderr);
			return -EINVAL;
		}
		msg = parse_one(o, c, optarg);
		if (msg) {
			fprintf(stderr, "etecap: %s: %s\n", optarg ? optarg : "", msg);
			return -EINVAL;
		}
	}
	if (o->all_cpus && o->ncpus)
		msg = "--all-cpus traces every online CPU: no --cpus with it";
	else if (o->all_cpus && o->profile)
		msg = "--profile selects the CPUs: no --all-cpus with it";
	else if (o->preset && o->profile)
		msg = "--profile carries the trace settings: no --preset with it";
	else if (o->attach && optind < argc)
		msg = "--attach traces running processes: no command with it";
	else if (o->all_tasks && optind >= argc && !o->attach)
		msg = "--all-tasks goes with a command or --attach";
	else if (o->ptrace && optind >= argc)
		msg = "--ptrace goes with a command (--attach always uses ptrace)";
	else if (o->attach && !o->all_tasks && o->npids != 1)
		msg = "--attach takes one process in task mode (--all-tasks: up to 8 threads)";
	else if ((o->npids || o->comm) && o->profile)
		msg = "--profile carries the trace settings: no --pid or --comm with it";
	else if ((o->npids || o->comm) && o->context_id == 0 &&
		 !(o->attach && !o->all_tasks))
		msg = "--pid and --comm filter on the context ID: not with --no-context-id";
	else
		msg = check_profile(o);
	/* -p in task mode: the driver follows the process, no comparator */
	if (!msg && o->attach && !o->all_tasks) {
		o->task_pid = o->pids[0];
		o->npids = 0;
	}
	if (!msg)
		etecap_apply_preset(o);
	/* the CID filter and sampling both need ViewInst's event */
	if (!msg && (o->npids || o->comm) && o->sample_window > 0)
		msg = "--sample takes ViewInst's event: not with --pid or --comm";
	if (!msg && o->ninclude + o->nexclude > ETECAP_MAX_RANGES)
		msg = "at most 8 include and exclude ranges together";
	if (!msg)
		msg = check_singles(o);
	if (msg) {
		fprintf(stderr, "etecap: %s\n", msg);
		return -EINVAL;
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	return 0;
}
