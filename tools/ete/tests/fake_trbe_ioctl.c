// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD for etecap on the host against fake_sysroot's tree: the
 * START and STOP ioctls on a /dev/trbe<N> that is a regular file succeed
 * and are logged ("start /path" or "stop /path", one per line) to
 * $FAKE_TRBE_LOG; every other ioctl goes to the C library's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ete.h>

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
	if ((req == ETE_TRBE_IOC_START || req == ETE_TRBE_IOC_STOP) &&
	    !fstat(fd, &st) && S_ISREG(st.st_mode)) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		path[n < 0 ? 0 : n] = 0;
		f = log ? fopen(log, "a") : NULL;
		if (f) {
			fprintf(f, "%s %s\n",
				req == ETE_TRBE_IOC_START ? "start" : "stop",
				path);
			fclose(f);
		}
		return 0;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}
