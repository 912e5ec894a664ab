// SPDX-License-Identifier: GPL-2.0
/*
 * A tree standing in for the kernel's /sys and /dev, for running etecap
 * on the host ($ETECAP_SYSROOT, tools/testing/qemu/host.d/etecap_sysroot.sh):
 *
 *   fake_sysroot ROOT NCPUS ONLINE [NO_UNIT_CPU...]
 *
 * ROOT/sys/devices/system/cpu/online holds ONLINE (a cpulist); each online
 * CPU below NCPUS gets /sys/class/ete/ete<N>/ with the files etecap writes
 * (empty, so each holds what etecap wrote) and reads,
 * /sys/class/trbe/trbe<N>/, its MIDR file and /dev/trbe<N>: a regular file
 * laid out as the mmap of the real device (struct ete_trbe_mmap_page, then
 * the data) with data_head at CPU-specific bytes
 * ("cpu<N> " repeated, 64 + N bytes).  A CPU named after ONLINE has no
 * trace unit (ete.ko found none) but the rest.  Offline CPUs have nothing.
 * fake_trbe_ioctl.so answers the START and STOP ioctls on those files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ete.h>

#define PAGE	4096
#define ARRAY_SIZE(a)	((int)(sizeof(a) / sizeof((a)[0])))

static const char * const unit_files[] = {
	"reset", "el_ns", "cycle_count", "cc_threshold", "timestamp",
	"return_stack", "branch_broadcast", "context_id", "q_elements",
	"sync_period", "include_ranges", "exclude_ranges", "start_addrs",
	"stop_addrs", "ss_status", "viewinst_event", "rs2/group", "rs2/select",
	"sample_window", "sample_period",
};

static const struct { const char *file, *val; } unit_values[] = {
	{ "caps/q_support", "0" },
	{ "caps/pid_context", "cid" },
	{ "caps/num_context_id_comparators", "1" },
	{ "caps/num_vmid_comparators", "1" },
	{ "trcidr/trcidr0", "0x28000ea1" },
	{ "trcidr/trcidr1", "0x4100fff0" },
	{ "trcidr/trcidr2", "0xd0001088" },
	{ "trcidr/trcidr3", "0x0f7f0004" },
	{ "trcidr/trcidr4", "0x11170004" },
	{ "trcidr/trcidr5", "0x28c7081e" },
	{ "trcidr/trcidr8", "0x0" },
	{ "trcidr/trcidr9", "0x0" },
	{ "trcidr/trcidr10", "0x0" },
	{ "trcidr/trcidr11", "0x0" },
	{ "trcidr/trcidr12", "0x0" },
	{ "trcidr/trcidr13", "0x0" },
	{ "mgmt/trcconfig", "0x1" },
	{ "mgmt/trctraceid", "0x%x" },
	{ "mgmt/trcdevarch", "0x47725a13" },
	{ "mgmt/trcauthstatus", "0xcc" },
};

static const struct { const char *file, *val; } trbe_values[] = {
	{ "buffer_size", "4096" }, { "fill_mode", "fill" },
	{ "when_behind", "stop" }, { "trigger_mode", "ignore" },
	{ "watermark", "0" }, { "errata", "0x0" }, { "present", "1" },
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			die(buf);
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		die(buf);
}

static void put(const char *dir, const char *file, const char *fmt, int arg)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	slash = strrchr(path, '/');
	*slash = 0;
	mkdirs(path);
	*slash = '/';
	f = fopen(path, "w");
	if (!f)
		die(path);
	if (fmt) {
		fprintf(f, fmt, arg);
		fputc('\n', f);
	}
	fclose(f);
}

static void device(const char *root, int cpu)
{
	struct ete_trbe_mmap_page hdr = {
		.version = ETE_TRBE_ABI_VERSION,
		.hdr_size = sizeof(hdr),
		.data_offset = PAGE,
		.data_size = PAGE,
	};
	char path[PATH_MAX], data[PAGE], word[16];
	size_t n, len = 64 + cpu, i;
	int fd;

	memset(data, 0, sizeof(data));
	n = snprintf(word, sizeof(word), "cpu%d ", cpu);
	for (i = 0; i < len; i++)
		data[i] = word[i % n];
	hdr.data_head = len;
	snprintf(path, sizeof(path), "%s/dev", root);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/dev/trbe%d", root, cpu);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0660);
	if (fd < 0)
		die(path);
	if (pwrite(fd, &hdr, sizeof(hdr), 0) != sizeof(hdr) ||
	    pwrite(fd, data, PAGE, PAGE) != PAGE)
		die(path);
	close(fd);
}

/* A cpulist's CPUs into @on (no checks: the test writes good lists) */
static void parse_list(const char *s, char *on, int ncpus)
{
	char *end;
	long a, b;

	while (*s) {
		a = strtol(s, &end, 10);
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < ncpus; a++)
			on[a] = 1;
		s = *end == ',' ? end + 1 : end;
		if (end == s && *s)
			break;
	}
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], *on, *no_unit;
	int ncpus, cpu, i;

	if (argc < 4) {
		fprintf(stderr, "usage: %s ROOT NCPUS ONLINE [NO_UNIT_CPU...]\n",
			argv[0]);
		return 2;
	}
	ncpus = atoi(argv[2]);
	on = calloc(ncpus, 1);
	no_unit = calloc(ncpus, 1);
	if (!on || !no_unit)
		die("calloc");
	parse_list(argv[3], on, ncpus);
	for (i = 4; i < argc; i++)
		if (atoi(argv[i]) < ncpus)
			no_unit[atoi(argv[i])] = 1;
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu", argv[1]);
	mkdirs(dir);
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/online", argv[1]);
	{
		FILE *f = fopen(dir, "w");

		if (!f)
			die(dir);
		fprintf(f, "%s\n", argv[3]);
		fclose(f);
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (!on[cpu])
			continue;
		snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/cpu%d",
			 argv[1], cpu);
		put(dir, "regs/identification/midr_el1", "0x%x", 0x410fd490);
		snprintf(dir, sizeof(dir), "%s/sys/class/trbe/trbe%d", argv[1],
			 cpu);
		for (i = 0; i < ARRAY_SIZE(trbe_values); i++)
			put(dir, trbe_values[i].file, trbe_values[i].val, 0);
		device(argv[1], cpu);
		if (no_unit[cpu])
			continue;
		snprintf(dir, sizeof(dir), "%s/sys/class/ete/ete%d", argv[1],
			 cpu);
		for (i = 0; i < ARRAY_SIZE(unit_files); i++)
			put(dir, unit_files[i], NULL, 0);
		for (i = 0; i < ARRAY_SIZE(unit_values); i++)
			put(dir, unit_values[i].file, unit_values[i].val,
			    0x10 + cpu % 0x60);
	}
	return 0;
}
