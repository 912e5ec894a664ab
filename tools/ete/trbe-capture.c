// SPDX-License-Identifier: GPL-2.0
/*
 * trbe-capture: trace a set of CPUs for a while and save each CPU's TRBE
 * stream, through /dev/trbe<N> and the consumer protocol of
 * Documentation/abi-trbe.rst.
 *
 *   trbe-capture [-c CPU,CPU...] [-t MILLISECONDS] [-o DIR]
 *
 * Writes DIR/trace_cpu<N>.bin (the raw ETE byte stream) and
 * DIR/gaps_cpu<N>.txt (one "offset lost reason" line per gap), and prints a
 * line per CPU.  The trace unit is configured beforehand through
 * /sys/class/ete/ete<N>/; the buffer through /sys/class/trbe/trbe<N>/.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "../../Documentation/trbe-consumer.c"

#define MAX_CPUS	64

struct cpu_capture {
	int cpu;
	struct trbe_consumer c;
	FILE *out;
	__u64 bytes;
};

static void write_out(const void *buf, size_t len, void *arg)
{
	struct cpu_capture *cc = arg;

	if (fwrite(buf, 1, len, cc->out) != len) {
		perror("trbe-capture: write");
		exit(1);
	}
	cc->bytes += len;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int parse_cpus(const char *s, int *cpus)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok && n < MAX_CPUS;
	     tok = strtok_r(NULL, ",", &save))
		cpus[n++] = atoi(tok);
	free(copy);
	return n;
}

static int save_gaps(const char *dir, struct cpu_capture *cc)
{
	const struct ete_trbe_mmap_page *h = cc->c.hdr;
	__u64 i, first;
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/gaps_cpu%d.txt", dir, cc->cpu);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	first = h->gap_count > ETE_TRBE_MAX_GAPS ?
		h->gap_count - ETE_TRBE_MAX_GAPS : 0;
	for (i = first; i < h->gap_count; i++) {
		const struct ete_trbe_gap *g = &h->gaps[i % ETE_TRBE_MAX_GAPS];

		fprintf(f, "%llu %lld %u\n", (unsigned long long)g->offset,
			(long long)g->lost, g->reason);
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct cpu_capture caps[MAX_CPUS];
	struct pollfd pfd[MAX_CPUS];
	const char *dir = ".";
	int cpus[MAX_CPUS] = { 0 };
	int ncpu = 1, ms = 200, opt, i, ret;
	char path[512];
	long end;

	while ((opt = getopt(argc, argv, "c:t:o:")) != -1) {
		switch (opt) {
		case 'c':
			ncpu = parse_cpus(optarg, cpus);
			break;
		case 't':
			ms = atoi(optarg);
			break;
		case 'o':
			dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-c CPUS] [-t MS] [-o DIR]\n", argv[0]);
			return 2;
		}
	}

	for (i = 0; i < ncpu; i++) {
		caps[i].cpu = cpus[i];
		caps[i].bytes = 0;
		snprintf(path, sizeof(path), "/dev/trbe%d", cpus[i]);
		ret = trbe_consumer_open(&caps[i].c, path);
		if (ret) {
			fprintf(stderr, "trbe-capture: %s: %s\n", path, strerror(-ret));
			return 1;
		}
		snprintf(path, sizeof(path), "%s/trace_cpu%d.bin", dir, cpus[i]);
		caps[i].out = fopen(path, "w");
		if (!caps[i].out) {
			perror(path);
			return 1;
		}
		pfd[i].fd = caps[i].c.fd;
		pfd[i].events = POLLIN;
	}
	/* On each CPU the driver starts the TRBE, then the trace unit. */
	for (i = 0; i < ncpu; i++) {
		if (ioctl(caps[i].c.fd, ETE_TRBE_IOC_START)) {
			fprintf(stderr, "trbe-capture: cpu%d: start: %s\n",
				caps[i].cpu, strerror(errno));
			return 1;
		}
	}
	end = now_ms() + ms;
	while (now_ms() < end) {
		if (poll(pfd, ncpu, 50) < 0 && errno != EINTR) {
			perror("trbe-capture: poll");
			return 1;
		}
		for (i = 0; i < ncpu; i++)
			trbe_consumer_drain(&caps[i].c, write_out, &caps[i]);
	}
	ret = 0;
	for (i = 0; i < ncpu; i++) {
		struct cpu_capture *cc = &caps[i];

		if (ioctl(cc->c.fd, ETE_TRBE_IOC_STOP)) {
			fprintf(stderr, "trbe-capture: cpu%d: stop: %s\n",
				cc->cpu, strerror(errno));
			ret = 1;
		}
		trbe_consumer_drain(&cc->c, write_out, cc);
		fclose(cc->out);
		save_gaps(dir, cc);
		printf("cpu%d: %llu bytes, %llu gap(s), %llu byte(s) dropped, state %u\n",
		       cc->cpu, (unsigned long long)cc->bytes,
		       (unsigned long long)cc->c.hdr->gap_count,
		       (unsigned long long)cc->c.hdr->lost_bytes,
		       cc->c.hdr->state);
		if (!cc->bytes)
			ret = 1;
		trbe_consumer_close(&cc->c);
	}
	return ret;
}
