// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD for etecap on the host against fake_sysroot's tree: the
 * START, STOP and SET_TASKS ioctls on a /dev/trbe<N> that is a regular
 * file succeed and are logged ("start /path", "stop /path" or
 * "tasks:PID /path", one per line) to $FAKE_TRBE_LOG; every other ioctl
 * goes to the C library's.
 *
 * And a failing device: $FAKE_WRITE_FAIL="ERRNO:NAME" makes every
 * write() and fwrite() to a file whose path ends in NAME fail with ERRNO
 * (ENOSPC, EIO or EDQUOT; fwrite writes nothing), $FAKE_FSYNC_FAIL the
 * same for fsync(), where a delayed write error shows.
 *
 * And a kernel without perf events: $FAKE_PERF_EVENT_OPEN=N makes every
 * syscall(__NR_perf_event_open) fail with errno N (38 as a kernel without
 * CONFIG_PERF_EVENTS answers, 13 as kernel.perf_event_paranoid does).
 *
 * And who drains: with $FAKE_DRAIN_LOG set, every fwrite() to a file named
 * trace_cpu<N>.bin appends "TID trace_cpu<N>.bin" to it (the calling
 * thread's ID), so a test sees which thread copied which CPU.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/ete.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	char link[64], path[PATH_MAX];
	const char *log = getenv("FAKE_TRBE_LOG");
	struct stat st;
	va_list ap;
	void *arg;
	ssize_t n;
	FILE *f;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if ((req == ETE_TRBE_IOC_START || req == ETE_TRBE_IOC_STOP ||
	     req == ETE_TRBE_IOC_SET_TASKS) &&
	    !fstat(fd, &st) && S_ISREG(st.st_mode)) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		path[n < 0 ? 0 : n] = 0;
		f = log ? fopen(log, "a") : NULL;
		if (f && req == ETE_TRBE_IOC_SET_TASKS)
			fprintf(f, "tasks:%d %s\n",
				((struct ete_trbe_tasks *)arg)->pid, path);
		else if (f)
			fprintf(f, "%s %s\n",
				req == ETE_TRBE_IOC_START ? "start" : "stop",
				path);
		if (f)
			fclose(f);
		return 0;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}

/* @fd's file ends in the NAME of @var ("ERRNO:NAME"): that errno, else 0 */
static int injected(const char *var, int fd)
{
	static const struct { const char *name; int err; } errs[] = {
		{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EDQUOT", EDQUOT },
	};
	const char *spec = getenv(var), *name;
	char link[64], path[PATH_MAX];
	size_t i, nl;
	ssize_t len;

	if (!spec || fd < 0)
		return 0;
	name = strchr(spec, ':');
	if (!name)
		return 0;
	name++;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return 0;
	path[len] = 0;
	nl = strlen(name);
	if ((size_t)len < nl || strcmp(path + len - nl, name))
		return 0;
	for (i = 0; i < ARRAY_SIZE(errs); i++)
		if (!strncmp(spec, errs[i].name, name - 1 - spec) &&
		    strlen(errs[i].name) == (size_t)(name - 1 - spec))
			return errs[i].err;
	return 0;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	int err = injected("FAKE_WRITE_FAIL", fd);

	if (err) {
		errno = err;
		return -1;
	}
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, n);
}

/* $FAKE_DRAIN_LOG: note the thread writing to @fd if it is a trace file */
static void note_drain(int fd)
{
	const char *log = getenv("FAKE_DRAIN_LOG"), *base;
	char link[64], path[PATH_MAX];
	ssize_t len;
	FILE *f;

	if (!log)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return;
	path[len] = 0;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strncmp(base, "trace_cpu", 9))
		return;
	f = fopen(log, "a");
	if (!f)
		return;
	fprintf(f, "%ld %s\n", (long)syscall(SYS_gettid), base);
	fclose(f);
}

size_t fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
	static size_t (*real)(const void *, size_t, size_t, FILE *);
	int err = injected("FAKE_WRITE_FAIL", fileno(f));

	note_drain(fileno(f));
	if (err) {
		errno = err;
		return 0;
	}
	if (!real)
		real = (size_t (*)(const void *, size_t, size_t, FILE *))
		       dlsym(RTLD_NEXT, "fwrite");
	return real(buf, size, n, f);
}

int fsync(int fd)
{
	static int (*real)(int);
	int err = injected("FAKE_FSYNC_FAIL", fd);

	if (err) {
		errno = err;
		return -1;
	}
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	return real(fd);
}

/* syscall(2): perf_event_open refused as $FAKE_PERF_EVENT_OPEN says */
long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	const char *refuse = getenv("FAKE_PERF_EVENT_OPEN");
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open && refuse && atoi(refuse) > 0) {
		errno = atoi(refuse);
		return -1;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
