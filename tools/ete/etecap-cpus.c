// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: which CPUs and which tasks.  A CPU list as the kernel prints
 * one (-c, a profile's, /sys/devices/system/cpu/online) and the tasks of
 * --pid and --comm, read from /proc at the start.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etecap.h"

/* Append @cpu to the array *@v of *@n, growing it; -ENOMEM */
static int cpus_push(int **v, int *n, int *cap, int cpu)
{
	if (*n == *cap) {
		int *p = realloc(*v, sizeof(**v) * (*cap ? *cap * 2 : 16));

		if (!p)
			return -ENOMEM;
		*v = p;
		*cap = *cap ? *cap * 2 : 16;
	}
	(*v)[(*n)++] = cpu;
	return 0;
}

/**
 * etecap_parse_cpulist() - "0-3,6" (the kernel's cpulist format) to CPUs
 * @s: the list; a trailing newline is allowed, as sysfs files end
 * @cpus: set to a new array of the CPUs, in the order given (free() it)
 * @why: on -EINVAL, set to what is wrong, for a message
 *
 * Any number of CPUs, each below ETECAP_CPU_LIMIT and named once.
 * Return: the number of CPUs, -EINVAL or -ENOMEM (*@cpus then NULL).
 */
int etecap_parse_cpulist(const char *s, int **cpus, const char **why)
{
	unsigned char *seen = calloc(ETECAP_CPU_LIMIT / 8, 1);
	int n = 0, cap = 0, ret = -EINVAL;
	int *v = NULL;

	*cpus = NULL;
	*why = "out of memory";
	if (!seen)
		return -ENOMEM;
	while (*s && *s != '\n') {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*s)) {
			*why = "expected a CPU number";
			goto out;
		}
		a = strtol(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			if (!isdigit((unsigned char)s[1])) {
				*why = "a range needs its last CPU (0-3)";
				goto out;
			}
			b = strtol(s + 1, &end, 10);
			s = end;
		}
		if (a >= ETECAP_CPU_LIMIT || b >= ETECAP_CPU_LIMIT) {
			*why = "CPU numbers go up to 65535";
			goto out;
		}
		if (b < a) {
			*why = "a range goes from its first CPU up to its last";
			goto out;
		}
		for (; a <= b; a++) {
			if (seen[a / 8] & (1 << (a % 8))) {
				*why = "a CPU is named twice";
				goto out;
			}
			seen[a / 8] |= 1 << (a % 8);
			if (cpus_push(&v, &n, &cap, a)) {
				ret = -ENOMEM;
				goto out;
			}
		}
		if (*s == ',' && s[1] && s[1] != '\n') {
			s++;
		} else if (*s && *s != '\n') {
			*why = "CPUs and ranges are separated by commas";
			goto out;
		}
	}
	if (!n) {
		*why = "no CPU in the list";
		goto out;
	}
	free(seen);
	*cpus = v;
	return n;
out:
	free(seen);
	free(v);
	return ret;
}

/**
 * etecap_online_cpus() - the CPUs a cpulist file names
 * @path: ETECAP_ONLINE, or another file in that format (tests)
 * @cpus: set to a new array of them (free() it)
 *
 * Return: their number, or a negative errno (a message is printed).
 */
int etecap_online_cpus(const char *path, int **cpus)
{
	const char *why;
	char *line = NULL;
	size_t size = 0;
	FILE *f;
	int n;

	*cpus = NULL;
	f = fopen(path, "r");
	if (!f) {
		n = -errno;
		fprintf(stderr, "etecap: %s: %s; name the CPUs with -c\n", path,
			strerror(errno));
		return n;
	}
	if (getline(&line, &size, f) < 0) {
		fprintf(stderr, "etecap: %s is empty; name the CPUs with -c\n",
			path);
		n = -EINVAL;
	} else {
		n = etecap_parse_cpulist(line, cpus, &why);
		if (n < 0)
			fprintf(stderr, "etecap: %s: \"%s\": %s; name the CPUs with -c\n",
				path, line, why);
	}
	free(line);
	fclose(f);
	return n;
}

/* Add @tid to the PIDs unless there; -E2BIG when the comparators are full */
static int add_pid(struct etecap_opts *o, __u32 tid)
{
	int i;

	for (i = 0; i < o->npids; i++)
		if (o->pids[i] == tid)
			return 0;
	if (o->npids == ETECAP_MAX_PIDS)
		return -E2BIG;
	o->pids[o->npids++] = tid;
	return 0;
}

/* The threads of @pid under @proc/<pid>/task, added; -E2BIG */
static int add_threads(struct etecap_opts *o, const char *proc, __u32 pid)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%u/task", proc, pid);
	dir = opendir(path);
	if (!dir)
		return 0;	/* gone, or not ours to see: the PID alone */
	while (!ret && (d = readdir(dir)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
			ret = add_pid(o, strtoul(d->d_name, NULL, 10));
	closedir(dir);
	return ret;
}

/**
 * etecap_resolve_pids() - the tasks of --pid and --comm, now
 * @o: the options; o->pids gets every thread of each --pid process and
 *	of each process whose name is --comm
 * @proc: "/proc" (a test's tree otherwise)
 *
 * The context ID holds the thread's PID (the kernel writes it at each
 * switch), so a process is all its threads as they are at the start; one
 * made later is not traced.  Returns 0, -ESRCH (no task named --comm) or
 * -E2BIG (more threads than context ID comparators), having said so.
 */
int etecap_resolve_pids(struct etecap_opts *o, const char *proc)
{
	__u32 given[ETECAP_MAX_PIDS];
	int i, n = o->npids, ret = 0, found = 0;
	char path[PATH_MAX], name[32];
	struct dirent *d;
	DIR *dir;

	memcpy(given, o->pids, sizeof(given));
	for (i = 0; i < n && !ret; i++)
		ret = add_threads(o, proc, given[i]);
	if (!ret && o->comm) {
		dir = opendir(proc);
		while (dir && !ret && (d = readdir(dir))) {
			FILE *f;

			if (d->d_name[0] < '1' || d->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "%s/%s/comm", proc, d->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(name, sizeof(name), f)) {
				name[strcspn(name, "\n")] = 0;
				if (!strcmp(name, o->comm)) {
					found++;
					ret = add_pid(o, strtoul(d->d_name, NULL, 10));
					ret = ret ?: add_threads(o, proc,
								 strtoul(d->d_name, NULL, 10));
				}
			}
			fclose(f);
		}
		if (dir)
			closedir(dir);
		if (!ret && !found) {
			fprintf(stderr, "etecap: --comm %s: no task of that name is running\n",
				o->comm);
			return -ESRCH;
		}
	}
	if (ret == -E2BIG)
		fprintf(stderr,
			"etecap: --pid/--comm: more than %d threads (one context ID comparator each): name fewer tasks\n",
			ETECAP_MAX_PIDS);
	return ret;
}
