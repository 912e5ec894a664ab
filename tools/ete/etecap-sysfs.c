// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: configuration through /sys/class/ete/ete<N>/ (trace units),
 * /sys/class/trbe/trbe<N>/ (buffers) and configfs profiles
 * (/sys/kernel/config/ete/profiles/<name>/), and the read-back of each
 * unit's ID registers and of the registers its session programmed, for
 * the decoder and for whoever checks what the capture was filtered by.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "etecap.h"

#define ETE_SYSFS	"/sys/class/ete/ete%d/"
#define TRBE_SYSFS	"/sys/class/trbe/trbe%d/"
#define PROFILES	"/sys/kernel/config/ete/profiles/"

/* Write one value to a sysfs or configfs file; 0 or -errno */
int etecap_sysfs_write(const char *path, const char *fmt, ...)
{
	char val[64];
	va_list ap;
	int fd, ret = 0;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Read a file's first line, without its newline; 0 or -errno */
int etecap_sysfs_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Set one attribute of a unit or buffer, saying what refused it */
static int set(const char *dir, int cpu, const char *attr, const char *fmt,
	       unsigned long long v)
{
	char path[ETECAP_PATH], val[32];
	int ret;

	if (!*etecap_sys(path, sizeof(path), dir, cpu) ||
	    strlen(path) + strlen(attr) >= sizeof(path))
		return -ENAMETOOLONG;	/* setup() leaves room: not reached */
	strcat(path, attr);
	snprintf(val, sizeof(val), fmt, v);
	ret = etecap_sysfs_write(path, "%s", val);
	if (ret)
		fprintf(stderr, "etecap: cpu%d: %s = %s: %s\n", cpu, path, val,
			strerror(-ret));
	return ret;
}

static int set_str(const char *dir, int cpu, const char *attr, const char *s)
{
	char path[ETECAP_PATH];
	int ret;

	if (!*etecap_sys(path, sizeof(path), dir, cpu) ||
	    strlen(path) + strlen(attr) >= sizeof(path))
		return -ENAMETOOLONG;	/* setup() leaves room: not reached */
	strcat(path, attr);
	ret = etecap_sysfs_write(path, "%s", s);
	if (ret)
		fprintf(stderr, "etecap: cpu%d: %s = %s: %s\n", cpu, path, s,
			strerror(-ret));
	return ret;
}

/*
 * Address comparators: include ranges take range comparators 0.., exclude
 * ranges the next ones; start and stop addresses the single comparators
 * after those, numbered in address order (RSFXZB).
 */
static int configure_addresses(const struct etecap_opts *o, int cpu)
{
	struct etecap_single singles[2 * ETECAP_MAX_SINGLES];
	int k, i, n, ret = 0, single, nr = o->ninclude + o->nexclude;
	unsigned long long inc = 0, exc = 0, start = 0, stop = 0;
	char attr[32];

	for (k = 0; k < nr && !ret; k++) {
		const struct etecap_range *r = k < o->ninclude ?
			&o->include[k] : &o->exclude[k - o->ninclude];

		snprintf(attr, sizeof(attr), "addr%d/value", 2 * k);
		ret = set(ETE_SYSFS, cpu, attr, "0x%llx", r->start);
		snprintf(attr, sizeof(attr), "addr%d/value", 2 * k + 1);
		ret = ret ?: set(ETE_SYSFS, cpu, attr, "0x%llx", r->last);
		if (k < o->ninclude)
			inc |= 1ULL << k;
		else
			exc |= 1ULL << k;
	}
	single = 2 * nr;
	n = etecap_singles(o, singles);
	for (i = 0; i < n && !ret; i++, single++) {
		snprintf(attr, sizeof(attr), "addr%d/value", single);
		ret = set(ETE_SYSFS, cpu, attr, "0x%llx", singles[i].addr);
		if (singles[i].start)
			start |= 1ULL << single;
		else
			stop |= 1ULL << single;
	}
	if (!ret && inc)
		ret = set(ETE_SYSFS, cpu, "include_ranges", "0x%llx", inc);
	if (!ret && exc)
		ret = set(ETE_SYSFS, cpu, "exclude_ranges", "0x%llx", exc);
	if (!ret && start)
		ret = set(ETE_SYSFS, cpu, "start_addrs", "0x%llx", start);
	if (!ret && stop)
		ret = set(ETE_SYSFS, cpu, "stop_addrs", "0x%llx", stop);
	/* with start addresses, trace begins stopped until one is hit */
	if (!ret && start)
		ret = set(ETE_SYSFS, cpu, "ss_status", "%llu", 0);
	return ret;
}

/**
 * etecap_task_mode() - whether the capture is in task mode
 * @o: the options
 *
 * With a command or -p, by default: the CPUs let trace through only while
 * the command, the process attached to, or a task either started runs
 * (ETE_TRBE_IOC_SET_TASKS).  Not with --all-tasks, nor with --profile,
 * whose sessions configfs starts.
 *
 * Return: true if so.
 */
bool etecap_task_mode(const struct etecap_opts *o)
{
	return (o->cmd || o->task_pid) && !o->all_tasks && !o->profile;
}

/**
 * etecap_bind_task() - bind a CPU's next session to a process
 * @fd: the CPU's /dev/trbe<N>
 * @cpu: the CPU, for the message
 * @pid: the process (the command, waiting before its exec, or the one
 *	-p attached to)
 *
 * Return: 0, or -errno having said why (a driver without task mode:
 * use --all-tasks).
 */
int etecap_bind_task(int fd, int cpu, pid_t pid)
{
	struct ete_trbe_tasks req = { .pid = pid };

	if (!ioctl(fd, ETE_TRBE_IOC_SET_TASKS, &req))
		return 0;
	fprintf(stderr, "etecap: cpu%d: task mode: %s%s\n", cpu, strerror(errno),
		errno == ENOTTY ?
		" (trbe.ko has no task mode: update it, or give --all-tasks)" : "");
	return -errno;
}

/*
 * --pid, --comm: ViewInst only while the context ID is one of the tasks'
 * PIDs: a comparator per PID (context ID or VMID comparators, as
 * caps/pid_context says the kernel holds the PID), resource selector 2
 * over them, selector 2 as the ViewInst event.
 */
static int configure_pids(const struct etecap_opts *o, int cpu)
{
	char path[ETECAP_PATH], where[16], attr[32];
	bool vmid;
	int k, ret = 0;

	if (!o->npids)
		return 0;
	etecap_sys(path, sizeof(path), ETE_SYSFS "caps/pid_context", cpu);
	if (etecap_sysfs_read(path, where, sizeof(where)) ||
	    !strcmp(where, "none")) {
		fprintf(stderr,
			"etecap: cpu%d: --pid/--comm: the trace does not carry PIDs this unit can compare (%s: %s): the kernel needs CONFIG_PID_IN_CONTEXTIDR\n",
			cpu, path, where);
		return -EOPNOTSUPP;
	}
	vmid = !strcmp(where, "vmid");
	etecap_sys(path, sizeof(path), ETE_SYSFS "caps/%s", cpu,
		   vmid ? "num_vmid_comparators" : "num_context_id_comparators");
	if (etecap_sysfs_read(path, attr, sizeof(attr)) ||
	    strtol(attr, NULL, 0) < o->npids) {
		fprintf(stderr,
			"etecap: cpu%d: --pid/--comm: %d tasks, %s comparators on this unit (%s): name fewer tasks\n",
			cpu, o->npids, attr, path);
		return -EOPNOTSUPP;
	}
	for (k = 0; k < o->npids && !ret; k++) {
		snprintf(attr, sizeof(attr), "%s%d/value", vmid ? "vmid" : "ctxid",
			 k);
		ret = set(ETE_SYSFS, cpu, attr, "%llu", o->pids[k]);
	}
	/* the group first: the selection is checked against it */
	ret = ret ?: set(ETE_SYSFS, cpu, "rs2/group", "%llu", vmid ? 7 : 6);
	ret = ret ?: set(ETE_SYSFS, cpu, "rs2/select", "0x%llx",
			 (1ULL << o->npids) - 1);
	return ret ?: set(ETE_SYSFS, cpu, "viewinst_event", "%llu", 2);
}

/**
 * etecap_kernel_el() - the exception level CPU @cpu's kernel runs at
 * @cpu: the CPU
 *
 * Return: 2 under VHE, 1 otherwise, as the unit's kernel_el says (1 from a
 * driver without it, which only traced EL1 kernels right).
 */
int etecap_kernel_el(int cpu)
{
	char path[ETECAP_PATH], val[8];

	etecap_sys(path, sizeof(path), ETE_SYSFS "kernel_el", cpu);
	if (etecap_sysfs_read(path, val, sizeof(val)) || strcmp(val, "2"))
		return 1;
	return 2;
}

static int configure_unit(const struct etecap_opts *o, int cpu)
{
	long long el = o->el_mask;
	int ret;

	/* -e kernel: the kernel's own EL, EL2 under VHE */
	if (el != ETECAP_UNSET && (el & ETECAP_EL_KERNEL))
		el = (el & ~ETECAP_EL_KERNEL) | 1 << etecap_kernel_el(cpu);
	ret = set(ETE_SYSFS, cpu, "reset", "%llu", 1);
	if (!ret && el != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "el_ns", "0x%llx", el);
	if (!ret && o->cycles != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "cycle_count", "%llu", o->cycles);
	if (!ret && o->cc_threshold != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "cc_threshold", "%llu", o->cc_threshold);
	if (!ret && o->timestamps != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "timestamp", "%llu", o->timestamps);
	if (!ret && o->return_stack != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "return_stack", "%llu", o->return_stack);
	if (!ret && o->branch_broadcast != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "branch_broadcast", "%llu",
			  o->branch_broadcast);
	if (!ret && o->context_id != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "context_id", "%llu", o->context_id);
	if (!ret && o->q_elements != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "q_elements", "%llu", o->q_elements);
	if (!ret && o->sync_period != ETECAP_UNSET)
		ret = set(ETE_SYSFS, cpu, "sync_period", "%llu", o->sync_period);
	if (!ret && o->sample_window > 0)
		ret = set(ETE_SYSFS, cpu, "sample_window", "%llu",
			  o->sample_window) ?:
		      set(ETE_SYSFS, cpu, "sample_period", "%llu",
			  o->sample_period);
	ret = ret ?: configure_pids(o, cpu);
	return ret ?: configure_addresses(o, cpu);
}

/*
 * The buffer as asked, and what is not asked for at the driver's default,
 * as for the unit: a mode left behind by an earlier session (a wrap-mode
 * buffer, a trigger) must not decide this capture.  Only the size, which
 * is the machine's choice of memory, stays as it is when not given.
 */
static int configure_buffer(const struct etecap_opts *o, int cpu)
{
	int ret = 0;

	if (o->buffer_size != ETECAP_UNSET)
		ret = set(TRBE_SYSFS, cpu, "buffer_size", "%llu", o->buffer_size);
	if (!ret)
		ret = set_str(TRBE_SYSFS, cpu, "fill_mode", o->mode ?: "fill");
	if (!ret)
		ret = set_str(TRBE_SYSFS, cpu, "when_behind",
			      o->when_behind ?: "stop");
	if (!ret)
		ret = set_str(TRBE_SYSFS, cpu, "trigger_mode", "ignore");
	if (!ret)
		ret = set(TRBE_SYSFS, cpu, "watermark", "%llu", 0);
	return ret;
}

/*
 * What every selected unit must implement, checked before the first write:
 * Q elements with counts need TRCIDR0.QSUPP bit 0 (caps/q_support 1 or 3).
 * Returns 0, or -EOPNOTSUPP having said which CPU cannot.
 */
static int check_units(const struct etecap_opts *o)
{
	char path[ETECAP_PATH], val[32];
	int i, ret;

	for (i = 0; i < o->ncpus && o->q_elements != ETECAP_UNSET; i++) {
		etecap_sys(path, sizeof(path), ETE_SYSFS "caps/q_support",
			   o->cpus[i]);
		ret = etecap_sysfs_read(path, val, sizeof(val));
		if (ret)
			return 0;	/* no unit: etecap_configure() says so */
		if (!(strtoul(val, NULL, 0) & 1)) {
			fprintf(stderr, "etecap: cpu%d: --q-elements: %s = %s: %s\n",
				o->cpus[i], path, val,
				"no Q elements with counts on this unit");
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/*
 * Program every selected CPU's trace unit and buffer from the options,
 * once every unit can do what they ask (check_units()): each unit is
 * reset first, so what is not asked for is the default.
 * Returns 0 or the first -errno, having said which CPU and file refused.
 */
int etecap_configure(const struct etecap_opts *o)
{
	char path[ETECAP_PATH];
	int i, ret;

	ret = check_units(o);
	if (ret)
		return ret;
	for (i = 0; i < o->ncpus; i++) {
		int cpu = o->cpus[i];

		etecap_sys(path, sizeof(path), ETE_SYSFS, cpu);
		if (access(path, F_OK)) {
			fprintf(stderr, "etecap: cpu%d has no trace unit bound to ete.ko (%s)\n",
				cpu, path);
			return -ENODEV;
		}
		ret = configure_unit(o, cpu);
		ret = ret ?: configure_buffer(o, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

/* The CPUs of configfs profile @name; the count or -errno */
int etecap_profile_cpus(const char *name, int **cpus)
{
	char path[ETECAP_PATH], buf[4096];
	const char *why;
	int ret;

	*cpus = NULL;
	etecap_sys(path, sizeof(path), PROFILES "%s", name);
	if (access(path, F_OK)) {
		etecap_sys(buf, sizeof(buf), PROFILES);
		fprintf(stderr, "etecap: no profile %s (%s)%s\n", name, path,
			access(buf, F_OK) ?
			": configfs profiles not available" : "");
		return -ENOENT;
	}
	etecap_sys(path, sizeof(path), PROFILES "%s/cpus", name);
	ret = etecap_sysfs_read(path, buf, sizeof(buf));
	if (ret) {
		fprintf(stderr, "etecap: %s: %s\n", path, strerror(-ret));
		return ret;
	}
	ret = etecap_parse_cpulist(buf, cpus, &why);
	if (ret < 0)
		fprintf(stderr, "etecap: profile %s: cpus \"%s\": %s\n",
			name, buf, why);
	return ret;
}

/*
 * A profile's trbe/buffer_size must be the size of each CPU's buffer, which
 * is allocated when /dev/trbe<N> is opened: set it before the open.
 */
int etecap_profile_buffers(const char *name, const int *cpus, int n)
{
	char path[ETECAP_PATH], buf[32];
	long long size;
	int i, ret = 0;

	etecap_sys(path, sizeof(path), PROFILES "%s/trbe/buffer_size", name);
	if (etecap_sysfs_read(path, buf, sizeof(buf)))
		return 0;
	size = strtoll(buf, NULL, 0);
	for (i = 0; i < n && size > 0 && !ret; i++)
		ret = set(TRBE_SYSFS, cpus[i], "buffer_size", "%llu", size);
	return ret;
}

/* Start (@on) or stop every CPU of a profile at once; 0 or -errno */
int etecap_profile_activate(const char *name, bool on)
{
	char path[ETECAP_PATH];
	int ret;

	etecap_sys(path, sizeof(path), PROFILES "%s/active", name);
	ret = etecap_sysfs_write(path, "%d", on);
	if (ret)
		fprintf(stderr, "etecap: %s = %d: %s (see dmesg for the CPU and field)\n",
			path, on, strerror(-ret));
	return ret;
}

/* OpenCSD register names and the driver files they are read from */
static const struct {
	const char *ocsd;
	const char *file;
} unit_regs[] = {
	{ "TRCIDR0", "trcidr/trcidr0" },   { "TRCIDR1", "trcidr/trcidr1" },
	{ "TRCIDR2", "trcidr/trcidr2" },   { "TRCIDR3", "trcidr/trcidr3" },
	{ "TRCIDR4", "trcidr/trcidr4" },   { "TRCIDR5", "trcidr/trcidr5" },
	{ "TRCIDR8", "trcidr/trcidr8" },   { "TRCIDR9", "trcidr/trcidr9" },
	{ "TRCIDR10", "trcidr/trcidr10" }, { "TRCIDR11", "trcidr/trcidr11" },
	{ "TRCIDR12", "trcidr/trcidr12" }, { "TRCIDR13", "trcidr/trcidr13" },
	{ "TRCCONFIGR", "mgmt/trcconfig" },
	{ "TRCTRACEIDR", "mgmt/trctraceid" },
	{ "TRCDEVARCH", "mgmt/trcdevarch" },
	{ "TRCAUTHSTATUS", "mgmt/trcauthstatus" },
};

/* A regs/ file whose name is one of unit_regs[]' (TRCCONFIGR...) */
static bool unit_reg_listed(const char *file)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(unit_regs); i++)
		if (!strcasecmp(unit_regs[i].ocsd, file))
			return true;
	return false;
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/*
 * Every register the driver's last session on @cpu programmed
 * (/sys/class/ete/ete<N>/regs/, one file per register, "trcvictlr",
 * "trcacvr3"): as "TRCVICTLR=0x...", in name order.  OpenCSD's snapshot
 * reader takes the registers it decodes with by name and passes over
 * the others; these say how the capture was filtered.  A register the
 * session did not program reads ENODATA, an address comparator EACCES
 * or EPERM for a user who is not root with CAP_PERFMON: left out.  A driver without regs/
 * gives nothing.  0 or -errno of a failed read.
 */
static int write_programmed(FILE *f, int cpu)
{
	char path[ETECAP_PATH], val[64], name[64];
	struct dirent **list;
	int n, i, k, ret = 0;

	etecap_sys(path, sizeof(path), ETE_SYSFS "regs", cpu);
	n = scandir(path, &list, not_hidden, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		const char *file = list[i]->d_name;
		int r;

		if (ret || unit_reg_listed(file) ||
		    strlen(file) >= sizeof(name))
			goto next;
		etecap_sys(path, sizeof(path), ETE_SYSFS "regs/%s", cpu, file);
		r = etecap_sysfs_read(path, val, sizeof(val));
		if (r == -ENODATA || r == -EPERM || r == -EACCES)
			goto next;
		if (r) {
			fprintf(stderr, "etecap: cpu%d: %s: %s\n", cpu, path,
				strerror(-r));
			ret = r;
			goto next;
		}
		for (k = 0; file[k]; k++)
			name[k] = toupper((unsigned char)file[k]);
		name[k] = 0;
		fprintf(f, "%s=%s\n", name, val);
next:
		free(list[i]);
	}
	free(list);
	return ret;
}

/*
 * ETE_<cpu>.ini: the trace source device of the snapshot, with the unit's
 * registers as the driver reads them back: the ID and management
 * registers, then every register the session programmed.  0 or -errno.
 */
int etecap_write_unit_ini(const char *dir, int cpu)
{
	char path[ETECAP_PATH], ini[ETECAP_PATH], val[64];
	unsigned int i;
	int ret = 0;
	FILE *f;

	etecap_path(ini, sizeof(ini), "%s/ETE_%d.ini", dir, cpu);
	f = fopen(ini, "w");
	if (!f) {
		etecap_write_error(ini, -errno);
		return -errno;
	}
	fprintf(f, "[device]\nname=ETE_%d\nclass=trace_source\ntype=ETE\n\n[regs]\n",
		cpu);
	for (i = 0; i < ARRAY_SIZE(unit_regs); i++) {
		etecap_sys(path, sizeof(path), ETE_SYSFS "%s", cpu, unit_regs[i].file);
		ret = etecap_sysfs_read(path, val, sizeof(val));
		if (ret) {
			fprintf(stderr, "etecap: cpu%d: %s: %s\n", cpu, path,
				strerror(-ret));
			break;
		}
		fprintf(f, "%s=%s\n", unit_regs[i].ocsd, val);
	}
	if (!ret)
		ret = write_programmed(f, cpu);
	if (etecap_fclose(f, ini) && !ret)
		ret = -EIO;
	return ret;
}
